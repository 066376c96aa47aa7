"""bench/mdbench/jmh_stats.py — JMH's statistics, in one place, for bench/runner.py.

What JMH reports for a throughput benchmark (org.openjdk.jmh.util.
AbstractStatistics and ListStatistics, JMH 1.37), computed over every
measurement iteration of every fork:

  score            the mean
  scoreError       t(1 - 0.001/2, n - 1) * s / sqrt(n): the half-width of the
                   99.9% confidence interval (Student's t; s the sample standard
                   deviation); NaN for n <= 2, as JMH
  scoreConfidence  [score - scoreError, score + scoreError]
  scorePercentiles JMH's ten percentiles, Apache Commons Math's Percentile
                   with its default (legacy) estimation, which JMH uses

The t quantile comes from SciPy (Debian: python3-scipy), the mean and the
standard deviation from Python's statistics module.

bench/Jmh.mva computes the same in integer fixed point for the benchmarks' own tables
(minivm has no floating point); tests/test_bench_runner.py (FixedPointTwin) feeds both
the same scores and checks that they agree to the digits the tables print.
"""

import math
import statistics

CONFIDENCE = 0.999
PERCENTILES = (0.0, 50.0, 90.0, 95.0, 99.0, 99.9, 99.99, 99.999, 99.9999, 100.0)


def t_quantile(df, confidence=CONFIDENCE):
    """The Student's t quantile of JMH's interval, t(1 - (1 - confidence) / 2, df): Commons Math's
    TDistribution(df).inverseCumulativeProbability, as getMeanErrorAt takes it."""
    # SciPy when first needed: it takes half a second to load, which the runner's -h, -l and
    # option errors need not wait for
    from scipy.stats import t as student_t
    return student_t.ppf(1.0 - (1.0 - confidence) / 2.0, df)


def mean_error(values, confidence=CONFIDENCE):
    """JMH's getMeanErrorAt(confidence): NaN for fewer than three values."""
    n = len(values)
    if n <= 2:
        return math.nan
    return t_quantile(n - 1, confidence) * statistics.stdev(values) / math.sqrt(n)


def percentile(values, p):
    """Commons Math Percentile.evaluate(p), legacy estimation: the position
    p * (n + 1) / 100, linear between its neighbours, clamped to the ends."""
    s = sorted(values)
    n = len(s)
    if n == 0:
        return math.nan
    if n == 1:
        return s[0]
    pos = p * (n + 1) / 100.0
    if pos < 1:
        return s[0]
    if pos >= n:
        return s[-1]
    low = s[int(math.floor(pos)) - 1]
    high = s[int(math.floor(pos))]
    return low + (pos - math.floor(pos)) * (high - low)


def summarize(values):
    """The primaryMetric fields JMH computes from the measurement iterations."""
    score = statistics.fmean(values)
    error = mean_error(values)
    return {
        "score": score,
        "scoreError": error,
        "scoreConfidence": [score - error, score + error],
        "scorePercentiles": {_key(p): percentile(values, p) for p in PERCENTILES},
    }


def overlap(a, b):
    """Do two results' confidence intervals overlap (a difference inside the error bars)?
    A NaN error (too few iterations) counts as no interval: never inside."""
    if math.isnan(a["scoreError"]) or math.isnan(b["scoreError"]):
        return False
    lo_a, hi_a = a["scoreConfidence"]
    lo_b, hi_b = b["scoreConfidence"]
    return lo_a <= hi_b and lo_b <= hi_a


def _key(p):
    # JMH's keys: "0.0", "50.0", "99.9", "99.9999", "100.0"
    return repr(float(p))
