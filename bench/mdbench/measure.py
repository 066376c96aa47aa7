"""bench/mdbench/measure.py — the measurement core: one JMH fork of one configuration (a
process), its iterations parsed from MessageDigests' output, a progress line, and the whole
matrix with the forks interleaved."""

import re
import shlex
import signal
import subprocess
import sys
import time

from . import jmh_stats
from .common import keys, stop

ITERATION = re.compile(r"^(# Warmup )?Iteration\s+(\d+):\s+([0-9.]+|NaN|Infinity)\s+ops/ms")
BENCH_LINE = re.compile(r"^# Benchmark: MessageDigests\.(\w+)")
PARAMS_LINE = re.compile(r"^# Parameters: \(digesterName = ([^,]+), length = (\d+)\)")


class Progress:
    """One line on a terminal: configuration, fork, iteration, time left."""

    def __init__(self, total_ms, enabled):
        self.total_ms, self.done_ms, self.enabled = total_ms, 0.0, enabled
        self.start = time.monotonic()

    def show(self, text):
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        rate = elapsed / self.done_ms if self.done_ms > 0 else 0.001
        left = max(0.0, (self.total_ms - self.done_ms) * rate)
        sys.stderr.write(f"\r\033[K{text}  ~{int(left) // 60}m{int(left) % 60:02d}s left")
        sys.stderr.flush()

    def clear(self):
        if self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()

def warmups(config, args):
    return max(args.wi, config.min_warmup)


def run_config(config, fork, args, progress, index, count):
    """One fork of one configuration: {(bench, name, length): [scores]}."""
    names = [n for n in args.params["digesterName"] if config.runs(n)]
    argv = config.command + args.benchmarks + [
        "-p", "digesterName=" + ",".join(names),
        "-p", "length=" + ",".join(args.params["length"]),
        "-wi", str(warmups(config, args)), "-i", str(args.i), "-w", str(args.w), "-r", str(args.r), "-v"]
    if args.verbose:
        progress.clear()
        print("$ " + " ".join(shlex.quote(a) for a in argv), file=sys.stderr)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=config.env)
    try:
        results, err, status = read_fork(proc, config, fork, args, progress, index, count)
    except BaseException:
        # Ctrl-C (the runner's alone, or the terminal's), or an error: the fork ends with the runner
        stop(proc)
        raise
    if status == -signal.SIGINT:
        raise KeyboardInterrupt  # the terminal's Ctrl-C reached the fork before the runner noticed it
    if status != 0:
        progress.clear()
        sys.exit(f"bench: {config.name} failed (exit status {status}):\n$ {' '.join(argv)}\n{err}")
    want = len(args.benchmarks) * len(names) * len(args.params["length"])
    if len(results) != want or any(len(v) != args.i for v in results.values()):
        progress.clear()
        sys.exit(f"bench: {config.name} printed {len(results)} of {want} results:\n{err}")
    return results


def read_fork(proc, config, fork, args, progress, index, count):
    """A fork's output as it comes (the progress line follows it): its iterations, its standard
    error and its exit status."""
    results, key = {}, None
    bench = None
    for line in proc.stdout:
        line = line.rstrip("\n")
        m = BENCH_LINE.match(line)
        if m:
            bench = m.group(1)
            continue
        m = PARAMS_LINE.match(line)
        if m:
            key = (bench, m.group(1), m.group(2))
            results[key] = []
            continue
        m = ITERATION.match(line)
        if m and key:
            warm = m.group(1) is not None
            progress.done_ms += args.w if warm else args.r
            if not warm:
                results[key].append(float(m.group(3)))
            what = "warm-up" if warm else "iteration"
            progress.show(f"[{index}/{count}] {config.name}, fork {fork}/{args.f}: "
                          f"{key[0]} {key[1]} {key[2]} B, {what} {m.group(2)}")
    return results, proc.stderr.read(), proc.wait()


def run_matrix(configs, args):
    """Every configuration, args.f forks interleaved (each configuration once per round): the raw
    iterations per fork, and JMH's summary, per configuration and key."""
    per_fork_ms = sum(len(list(keys(args, c))) * (warmups(c, args) * args.w + args.i * args.r) for c in configs)
    progress = Progress(per_fork_ms * args.f, sys.stderr.isatty())
    raw = {c.name: {k: [] for k in keys(args, c)} for c in configs}
    for fork in range(1, args.f + 1):
        for i, c in enumerate(configs, 1):
            res = run_config(c, fork, args, progress, i, len(configs))
            for k in keys(args, c):
                raw[c.name][k].append(res[k])
    progress.clear()
    summary = {c.name: {k: jmh_stats.summarize([x for fork in raw[c.name][k] for x in fork]) for k in keys(args, c)}
               for c in configs}
    return raw, summary
