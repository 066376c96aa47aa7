"""tests/test_bench_runner.py — the benchmark runner (suite 'bench'): JMH's
statistics on fixed data and against the benchmarks' fixed-point twin (bench/Jmh.mva,
through MessageDigests.mva -stats), and one --quick run of the whole matrix whose JSON
must have JMH's shape (tests/data/jmh-result.schema.json) and whose tables
and charts must be there; --select on this host's stub families; every bad
option value refused before anything runs; a result file that cannot be
written, and Ctrl-C, ending in one line. Not a timing check: the scores are
only checked to be positive numbers.

    python3 tests/test_bench_runner.py [--build DIR]     (Meson: suite 'bench')
"""

import glob
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
from mdbench import jmh_stats  # noqa: E402

BUILD = os.path.join(ROOT, "build")

# One JMH 1.x result (2 forks x 5 iterations, thrpt) as JMH wrote it, from the
# example data of jmh-visualizer (src/javascript/exampleBenchmark1.jsx): the raw
# iterations and what JMH computed from them.
JMH_RAW = [[3524193.1540743182, 3531314.663170731, 3532453.3325443356, 3520395.64538141, 3474431.2865468427],
           [3440045.3067861893, 3333994.173460993, 3445535.4557112623, 3475555.716890452, 3398393.5659388755]]
JMH_SCORE = 3467631.2300505415
JMH_ERROR = 98563.33258873208
JMH_CONFIDENCE = [3369067.897461809, 3566194.5626392737]
JMH_PERCENTILES = {"0.0": 3333994.173460993, "50.0": 3474993.5017186473, "90.0": 3532339.4656069754,
                   "95.0": 3532453.3325443356, "99.0": 3532453.3325443356, "99.9": 3532453.3325443356,
                   "99.99": 3532453.3325443356, "99.999": 3532453.3325443356, "99.9999": 3532453.3325443356,
                   "100.0": 3532453.3325443356}


_defaults = None


def host_defaults():
    """The stub variant minivm links by default per family on this host ({"SHA-3": ...})."""
    global _defaults
    if _defaults is None:
        import types
        from mdbench.common import default_stubs
        _defaults = default_stubs(types.SimpleNamespace(build=BUILD, qemu_cpu=None))
    return _defaults


class Statistics(unittest.TestCase):
    def close(self, got, want, rel=1e-9):
        self.assertTrue(math.isclose(got, want, rel_tol=rel), f"{got} != {want}")

    def test_jmh_sample(self):
        s = jmh_stats.summarize([x for fork in JMH_RAW for x in fork])
        self.close(s["score"], JMH_SCORE)
        self.close(s["scoreError"], JMH_ERROR)
        self.close(s["scoreConfidence"][0], JMH_CONFIDENCE[0])
        self.close(s["scoreConfidence"][1], JMH_CONFIDENCE[1])
        self.assertEqual(list(s["scorePercentiles"]), list(JMH_PERCENTILES))
        for k, v in JMH_PERCENTILES.items():
            self.close(s["scorePercentiles"][k], v)

    def test_student_t(self):
        # t(0.9995, df) for df 1, 4, 30 (the printed tables' 636.619, 8.610, 3.646): error * sqrt(n) / s
        for values, t in (([1.0, 3.0], None), ([1.0, 2.0, 3.0, 4.0, 5.0], 8.610), ([float(i % 7) for i in range(31)], 3.646)):
            err = jmh_stats.mean_error(values)
            if t is None:
                self.assertTrue(math.isnan(err), "JMH has no error for n <= 2")
                continue
            import statistics
            self.close(err * math.sqrt(len(values)) / statistics.stdev(values), t, rel=1e-4)

    def test_percentile_legacy_estimation(self):
        v = [15.0, 20.0, 35.0, 40.0, 50.0]
        self.close(jmh_stats.percentile(v, 50.0), 35.0)
        self.close(jmh_stats.percentile(v, 40.0), 26.0)  # position 40 * 6 / 100 = 2.4: 20 + 0.4 * (35 - 20)
        self.close(jmh_stats.percentile(v, 0.0), 15.0)
        self.close(jmh_stats.percentile(v, 100.0), 50.0)
        self.close(jmh_stats.percentile([7.0], 90.0), 7.0)

    def test_overlap(self):
        a = jmh_stats.summarize([10.0, 11.0, 12.0])
        b = jmh_stats.summarize([11.0, 12.0, 13.0])
        c = jmh_stats.summarize([100.0, 100.5, 101.0])
        self.assertTrue(jmh_stats.overlap(a, b))
        self.assertFalse(jmh_stats.overlap(a, c))
        self.assertFalse(jmh_stats.overlap(jmh_stats.summarize([1.0, 2.0]), a), "NaN error: no interval")


class FixedPointTwin(unittest.TestCase):
    """The benchmarks' statistics (bench/Jmh.mva: integer fixed point, as MessageDigests.mva's hidden -stats
    prints them) against the runner's (jmh_stats: floating point, SciPy's t) on the same scores: the mean and
    the error agree to the 3 decimals JMH's table prints, t to the 6 -stats prints (within 3e-6 above df 30,
    where Jmh.mva's tquant is a Cornish-Fisher expansion, not its table). Where the floating-point value lies
    within the fixed point's own inexactness of a rounding boundary, either neighbour is right."""

    STATS = re.compile(r"cnt=(\d+) mean=(\d+\.\d{3}) error=(NaN|\d+\.\d{3}) t=(NaN|\d+\.\d{6})\n")

    def fixed(self, scores):
        """MessageDigests.mva -stats on scores in 0.001 ops/ms: (cnt, mean, error, t) as printed."""
        r = subprocess.run([os.path.join(BUILD, "minivm"), os.path.join(ROOT, "bench", "MessageDigests.mva"),
                            "-stats", ",".join(map(str, scores))], capture_output=True, text=True, timeout=60)
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        m = self.STATS.fullmatch(r.stdout)
        self.assertIsNotNone(m, r.stdout)
        return m.groups()

    def assertRounds(self, printed, x, tol, places, what):
        """printed is x to places decimals, or x +- tol's when that straddles a rounding boundary."""
        allowed = {f"{x:.{places}f}", f"{x - tol:.{places}f}", f"{x + tol:.{places}f}"}
        self.assertIn(printed, allowed, f"{what}: {x!r} (tolerance {tol:.2g})")

    def check(self, scores):
        n = len(scores)
        cnt, mean, error, t = self.fixed(scores)
        what = f"n={n} scores {scores[:4]}..."
        self.assertEqual(int(cnt), n)
        summary = jmh_stats.summarize([v / 1000 for v in scores])
        self.assertRounds(mean, summary["score"], 1e-9, 3, what + " mean")
        if n < 2:
            self.assertEqual((error, t), ("NaN", "NaN"))
            self.assertTrue(math.isnan(summary["scoreError"]))
            return
        exact_t = jmh_stats.t_quantile(n - 1)
        dt = abs(float(t) - exact_t)
        if n - 1 <= 30:
            self.assertRounds(t, exact_t, 1e-12, 6, what + " t")
        else:
            self.assertLessEqual(dt, 3e-6, what + " t")
        if n == 2:
            self.assertTrue(math.isnan(summary["scoreError"]), "JMH has no error below 3 scores")
            import statistics
            want = exact_t * statistics.stdev([v / 1000 for v in scores]) / math.sqrt(n)
        else:
            want = summary["scoreError"]
        # the fixed point's inexactness: its t's, and the integer square root's 9 digits
        self.assertRounds(error, want, want * (dt / exact_t + 1e-8) + 1e-9, 3, what + " error")

    def test_agree(self):
        import random
        rnd = random.Random(20261204)
        sets = [[1234567], [1000, 2000], [190517, 163277, 198476], [5000] * 5, [0, 0, 1], [0, 1], [1, 2, 3, 4],
                [0, 10000000, 0, 10000000], [47, 48, 46, 47, 49, 45, 47, 48, 47, 46], [9999999] * 7 + [0]]
        for n in list(range(1, 41)) + [41, 46, 64, 100, 151, 1000, 2001, 10000]:
            base = rnd.choice([50, 3466, 299399, 1234567, 9000000])
            spread = rnd.choice([1, 10, base // 100 + 1, base // 5 + 1])
            sets.append([min(10000000, max(0, base + rnd.randint(-spread, spread))) for _ in range(n)])
        for scores in sets:
            with self.subTest(n=len(scores), first=scores[0]):
                self.check(scores)


class GuestInstructionCount(unittest.TestCase):
    """The QEMU log counter on a log in QEMU 7.2's format (-d in_asm,exec,nochain)."""

    def test_count(self):
        from mdbench import qemu
        log = [
            "IN: \n", "0x0000005500000f10:  d503201f  nop      \n", "0x0000005500000f14:  d280001d  movz x29, #0\n",
            "0x0000005500000f18:  14000002  b #0x8\n", "\n",
            "Trace 0: 0x7f3a70000100 [0000000001009331/0000005500000f10/00000001/00000200] \n",
            "IN: \n", "0x0000005500000f20:  d65f03c0  ret\n", "\n",
            "Trace 0: 0x7f3a70000240 [0000000001009331/0000005500000f20/00000001/00000200] \n",
            "Trace 0: 0x7f3a70000100 [0000000001009331/0000005500000f10/00000001/00000200] \n",
            "Trace 0: 0x7f3a70000300 [0000000001009331/0000005500009999/00000001/00000200] \n",  # never translated
            "IN: \n", "0x0000005500000f20:  d503201f  nop\n", "0x0000005500000f24:  d65f03c0  ret\n", "\n",
            "Trace 0: 0x7f3a70000400 [0000000001009331/0000005500000f20/00000001/00000200] \n",
        ]
        self.assertEqual(qemu.count_log(log), 3 + 1 + 3 + 0 + 2)


class VsHotSpot(unittest.TestCase):
    """The 'vs HotSpot' table: each stub configuration's ops/ms over java-C2's, per key."""

    def test_ratio(self):
        import io
        import types
        from mdbench.configs import Config
        from mdbench.report import hotspot_table
        args = types.SimpleNamespace(benchmarks=["digest"], params={"digesterName": ["SHA3-256"], "length": ["64"]})
        configs = [Config("java-C2", "java", [], []), Config("gpr", "minivm", [], [], stub_kind="gpr"),
                   Config("interpreted", "minivm", [], [])]
        k = ("digest", "SHA3-256", "64")
        score = lambda x: {k: {"score": x, "scoreError": x * 0.01, "scoreConfidence": [x * 0.99, x * 1.01]}}  # noqa: E731
        summary = {"java-C2": score(400.0), "gpr": score(1000.0), "interpreted": score(100.0)}
        out = io.StringIO()
        hotspot_table(configs, summary, args, out)
        text = out.getvalue()
        self.assertIn("vs HotSpot", text)
        self.assertRegex(text, r"(?m)^java-C2\s+400\.000$")
        self.assertRegex(text, r"(?m)^gpr\s+2\.50x$")
        self.assertNotRegex(text, r"(?m)^interpreted")  # not a stub configuration

    def test_wrapped(self):
        """The transposed tables wrap their columns: no line passes 120 columns, whatever the matrix."""
        import io
        import types
        from mdbench.configs import Config
        from mdbench.report import comparison_table
        names = ["SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512", "SHA3-256", "SHA3-512"]
        args = types.SimpleNamespace(benchmarks=["digest", "getAndDigest"], baseline="interpreted", qemu_cpu=None,
                                     params={"digesterName": names, "length": ["64", "1024", "16384"]})
        configs = [Config(n, "minivm", [], []) for n in ("interpreted", "a-rather-long-configuration-name", "b")]
        score = {"score": 10.0, "scoreError": 0.1, "scoreConfidence": [9.9, 10.1]}
        summary = {c.name: {k: dict(score) for k in __import__("mdbench.common").common.keys(args)} for c in configs}
        out = io.StringIO()
        comparison_table(configs, summary, args, out)
        lines = out.getvalue().splitlines()
        self.assertGreater(len(lines), 10)
        self.assertLessEqual(max(len(l) for l in lines[2:]), 120, max(lines, key=len))
        self.assertEqual(sum(1 for l in lines if l.startswith("a-rather-long")), math.ceil(42 / ((120 - 33) // 14)))


class QuickRun(unittest.TestCase):
    """sh scripts/bench --quick's runner, on a reduced matrix, into a temporary results/."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cmd = [sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--quick", "--build", BUILD,
               "--results", cls.dir.name, "--config", "mine=-XX:UseAVX=2" if os.uname().machine == "x86_64"
               else "mine=-XX:-UseSIMDForSHA3Intrinsic", "-i", "3", "-r", "30ms", "-w", "10",
               "-rf", "csv", "-rff", os.path.join(cls.dir.name, "result.csv")]
        cls.result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_exit_status(self):
        self.assertEqual(self.result.returncode, 0, self.result.stderr + self.result.stdout)

    def test_json_has_jmh_shape(self):
        import jsonschema
        files = glob.glob(os.path.join(self.dir.name, "*.json"))
        self.assertEqual(len(files), 1, self.result.stdout)
        with open(files[0]) as f:
            doc = json.load(f)
        with open(os.path.join(ROOT, "tests", "data", "jmh-result.schema.json")) as f:
            jsonschema.validate(doc, json.load(f))
        # the core's clock, measured by bench/core_clock during the run (not cpuinfo's nominal one)
        machine = doc[0]["minivmMachine"]
        self.assertTrue(machine["clockSource"].startswith("measured"), machine)
        self.assertTrue(0.2 < machine["clockGHz"] < 8, machine)
        configs = {d["params"]["config"] for d in doc}
        for name in ("interpreted", "C-ref", "mine"):
            self.assertIn(name, configs)
        self.assertTrue(any(n not in ("interpreted", "compiled", "C-ref", "OpenSSL", "mine") and not n.startswith("java-")
                            for n in configs), f"no stub variant among {configs}")
        for d in doc:
            m = d["primaryMetric"]
            self.assertEqual(len(m["rawData"]), d["forks"])
            self.assertTrue(all(len(fork) == d["measurementIterations"] for fork in m["rawData"]))
            self.assertGreater(m["score"], 0)
            self.assertTrue(math.isclose(m["score"], sum(map(sum, m["rawData"])) / sum(map(len, m["rawData"]))))
        # every configuration x 2 benchmarks x its algorithms x 2 lengths: the built-ins run all
        # three defaults, a SHA-3 variant the SHA-3 ones, a SHA-256 stub SHA-256 alone
        per = {}
        for d in doc:
            per.setdefault(d["params"]["config"], set()).add(
                (d["benchmark"], d["params"]["digesterName"], d["params"]["length"]))
        for name, runs in per.items():
            algos = {r[1] for r in runs}
            self.assertEqual(len(runs), 2 * len(algos) * 2, name)
            if name.startswith("sha256-"):
                self.assertEqual(algos, {"SHA-256"}, name)
        for name in ("interpreted", "C-ref"):
            self.assertEqual({r[1] for r in per[name]}, {"SHA-256", "SHA3-256", "SHA3-512"}, name)

    def test_charts_written(self):
        """One figure per digest family (SHA-2, SHA-3), PNG and SVG; the SVG's text is text, with the
        legend's words in it; the PNG is a PNG of a sensible size."""
        for fam in ("sha2", "sha3"):
            png = glob.glob(os.path.join(self.dir.name, f"*-{fam}.png"))
            svg = glob.glob(os.path.join(self.dir.name, f"*-{fam}.svg"))
            self.assertEqual((len(png), len(svg)), (1, 1), (fam, os.listdir(self.dir.name)))
            with open(png[0], "rb") as f:
                head = f.read(24)
            self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
            width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
            self.assertTrue(500 <= width <= 2000 and 300 <= height <= 2000, (width, height))
            self.assertGreater(os.path.getsize(png[0]), 10000)
            import xml.etree.ElementTree as ET
            root = ET.parse(svg[0]).getroot()  # well-formed XML
            self.assertTrue(root.tag.endswith("svg"))
            text = " ".join(t for t in root.itertext())
            for words in ("minivm interpreter", "minivm stub variants", "minivm --config",
                          "speed-up over interpreted", "range of the iterations"):
                self.assertIn(words, text, fam)
            family = {"sha2": "SHA-256", "sha3": "SHA-3"}[fam]
            if family in host_defaults():
                self.assertIn("(default)", text, "the default stub is not marked")
                self.assertIn("minivm's default stub on this CPU", text)
            else:
                self.assertNotIn("(default)", text, f"no {family} stub by default here, yet one is marked")

    def test_csv_and_json(self):
        """-rf csv -rff FILE writes JMH's CSV there, and the JSON beside the charts all the same."""
        import csv
        with open(os.path.join(self.dir.name, "result.csv")) as f:
            rows = list(csv.reader(f))
        self.assertEqual(rows[0][:7], ["Benchmark", "Mode", "Threads", "Samples", "Score", "Score Error (99.9%)",
                                       "Unit"])
        files = glob.glob(os.path.join(self.dir.name, "*.json"))
        with open(files[0]) as f:
            doc = json.load(f)
        self.assertEqual(len(rows) - 1, len(doc))
        self.assertIn("csv:  ", self.result.stdout)
        version = subprocess.run([os.path.join(BUILD, "minivm"), "-version"], capture_output=True, text=True)
        build = version.stdout.splitlines()[-1] if "build" in version.stdout else version.stderr.splitlines()[-1]
        for d in doc:
            if d["params"]["config"] in ("interpreted", "mine"):
                self.assertIn(d["vmVersion"], build)
                self.assertNotIn(d["vmVersion"], ("", d["minivmMachine"]["cpu"]))
            self.assertIn("minivmOpenSSL", d)
            self.assertIn("minivmJDK", d)
        self.assertEqual(sum(1 for d in doc if d["minivmDefaultStub"]) > 0, True, "no default stub marked")

    def test_summary(self):
        out = self.result.stdout
        self.assertIn("\nSummary: MessageDigests.digest/getAndDigest on ", out)
        self.assertIn("\nDefaults on this CPU (", out)
        self.assertRegex(out, r"\nNoise: load average [0-9.]+ before the run")
        self.assertRegex(out, r"  speed-up +[0-9.]+x")
        summary = out[out.index("\nSummary:"):out.index("\nJSON:")]
        self.assertLessEqual(max(len(l) for l in summary.splitlines()), 100, max(summary.splitlines(), key=len))
        tables = out[:out.index("\nSummary:")]
        self.assertLessEqual(max(len(l) for l in tables.splitlines() if not l.startswith("bench:")), 120)
        if os.uname().machine == "x86_64" and not os.environ.get("MINIVM_EMULATED"):
            # the compiler tier's row beside the default stub's (docs/compiler.md)
            self.assertRegex(summary, r"\n  minivm compiled +[0-9.]+ ops/ms, [0-9.]+x the default")
        lines = out.strip().splitlines()
        self.assertTrue(lines[0].startswith("bench: --quick is a smoke run"), lines[0])
        self.assertTrue(lines[-1].startswith("bench: --quick is a smoke run"), lines[-1])

    def test_policy_row(self):
        files = glob.glob(os.path.join(self.dir.name, "*.json"))
        r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--policy-row", files[0]],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"fastest stub: \S+ [0-9.]+ ops/ms")
        self.assertRegex(r.stdout, r"implies: .*UseSHA3Intrinsics=true, UseSIMDForSHA3Intrinsic=(true|false)")
        # the row is a line of the policy table's data: the generator the build runs takes it
        arch = "x86_64" if os.uname().machine == "x86_64" else "aarch64"
        rows = [l for l in r.stdout.splitlines() if "\t" in l]
        self.assertEqual(len(rows), 1, r.stdout)
        with open(os.path.join(ROOT, "stubs", arch, "sha3_rows.tsv")) as f:
            table = f.read().splitlines()
        with tempfile.TemporaryDirectory() as tmp:
            tsv, inc = os.path.join(tmp, "sha3_rows.tsv"), os.path.join(tmp, "rows.inc")
            # above the last line (x86-64), or above the last line of the row's policy (AArch64)
            at = len(table) - 1
            if arch == "aarch64":
                at = max(i for i, l in enumerate(table) if l.split("\t")[0] == rows[0].split("\t")[0])
            with open(tsv, "w") as f:
                f.write("\n".join(table[:at] + rows + table[at:]) + "\n")
            g = subprocess.run([sys.executable, os.path.join(ROOT, "stubs", "policy_rows.py"), arch, tsv, inc],
                               capture_output=True, text=True)
            self.assertEqual(g.returncode, 0, g.stderr)
            with open(inc) as f:
                self.assertIn("measured: " + os.path.basename(files[0]), f.read())

    def test_hotspot_found(self):
        """The project's HotSpot 25 (sh scripts/bootstrap oracle), found without java on PATH."""
        files = glob.glob(os.path.join(self.dir.name, "*.json"))
        with open(files[0]) as f:
            doc = json.load(f)
        java = [d for d in doc if d["params"]["config"].startswith("java-")]
        cache = os.environ.get("MINIVM_ORACLE_CACHE") or os.path.expanduser("~/.cache/minivm-oracle")
        if not os.path.exists(os.path.join(cache, "trixie-amd64.ok")) or os.uname().machine != "x86_64":
            self.skipTest("the project's HotSpot 25 is not set up here")
        self.assertTrue(java, "no java-* configuration although the project's HotSpot 25 is installed")
        self.assertTrue(all(d["jdkVersion"].startswith("25") for d in java), {d["jdkVersion"] for d in java})
        self.assertTrue(all('version "25' in d["minivmJDK"] for d in doc))
        self.assertTrue(all(d["jvm"].endswith("/bin/java") for d in java), {d["jvm"] for d in java})
        # HotSpot 25 on x86-64 has no UseSIMDForSHA3Intrinsic: no java-C2-sha3-* (their test: SeedsTable)
        self.assertEqual({d["params"]["config"] for d in java},
                         {"java-C2", "java-C2-nointrinsics", "java-C2-fpuspill", "java-Xint", "java-C1"})
        c2 = next(d for d in doc if d["params"]["config"] == "java-C2-nointrinsics")
        self.assertIn("-XX:TieredStopAtLevel=4", c2["jvmArgs"])
        self.assertIn("-XX:-UseFPUForSpilling", c2["jvmArgs"])
        spill = next(d for d in doc if d["params"]["config"] == "java-C2-fpuspill")
        self.assertIn("-XX:+UseFPUForSpilling", spill["jvmArgs"])
        self.assertIn("vs HotSpot:", self.result.stdout)

    def test_tables_printed(self):
        out = self.result.stdout
        self.assertIn("Comparison against interpreted", out)
        self.assertIn("# mine (--config): -XX:", out)
        self.assertRegex(out, r"MessageDigests\.digest\s+SHA3-256\s+16384\s+thrpt\s+3 ")
        self.assertRegex(out, r"(?m)^JSON:  .*\.json$")
        self.assertRegex(out, r"(?m)^chart: .*\.png, .*\.svg$")



class MainRun(unittest.TestCase):
    """sh scripts/run's matrix (--main), reduced: the summary without JMH's tables, digest only."""

    def test_main(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--build", BUILD, "--main",
                                "--no-java", "--no-chart", "-p", "digesterName=SHA3-256", "-p", "length=64",
                                "-i", "3", "-r", "20", "-w", "5", "-f", "1", "--results", tmp],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            out = r.stdout
            self.assertNotIn("Comparison against", out)
            self.assertNotRegex(out, r"(?m)^# interpreted")
            self.assertIn("Summary: MessageDigests.digest on ", out)
            self.assertRegex(out, r"(?m)^SHA3-256 +64 B$")
            self.assertRegex(out, r"(?m)^  interpreted +[0-9.]+ ops/ms +[0-9.]+ MB/s")
            if "SHA-3" in host_defaults():
                self.assertRegex(out, r"(?m)^  default: \S+ +[0-9.]+ ops/ms")
                self.assertRegex(out, r"(?m)^  speed-up +[0-9.]+x, (significant|in the noise|no error bars)$")
                self.assertRegex(out, r"(?m)^  OpenSSL +[0-9.]+ ops/ms, [0-9.]+x the default$")
            else:  # no SHA-3 stub by default (an AArch64 CPU without FEAT_SHA3 under JDK-8359256): the fastest's
                self.assertRegex(out, r"(?m)^  default +no stub: the bytecode runs$")
                self.assertRegex(out, r"(?m)^    its speed-up +[0-9.]+x")
            self.assertRegex(out, r"(?m)^  fastest variant +\S+")
            self.assertRegex(out, r"(?m)^  SHA-3 +minivm picks \S+")
            with open(glob.glob(os.path.join(tmp, "*.json"))[0]) as f:
                doc = json.load(f)
            self.assertEqual({d["benchmark"].rsplit(".", 1)[1] for d in doc}, {"digest"})
            self.assertNotIn("C-ref", {d["params"]["config"] for d in doc})
            self.assertLessEqual(max(len(l) for l in out.splitlines()), 120)


class Select(unittest.TestCase):
    """--select N measures the SHA-3 variants alone: a host with SHA-1, SHA-2 or MD5 stubs besides
    (SHA-NI, AVX2, AArch64's crypto extension) has configurations without a SHA-3 digest to run."""

    def test_select(self):
        r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--build", BUILD, "--no-java",
                            "--select", "1", "-wi", "0", "-i", "1", "-w", "10", "-r", "20", "-f", "1"],
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        out = r.stdout
        self.assertRegex(out, r"(?m)^SHA3IntrinsicPolicy=measure on .*: 1 fresh processes$")
        self.assertRegex(out, r"(?m)^  chosen: \S+ 1x$")
        self.assertRegex(out, r"(?m)^winner \S+, .*measure agreed in [01] of 1 runs: ")
        self.assertIn("\nStatic policies here", out)
        ranked = out[out.index("The runner's SHA3-256 digest at 16 KiB"):out.index("\nwinner ")].splitlines()[1:]
        names = [l.split()[0] for l in ranked]
        self.assertTrue(names, out)
        self.assertFalse([n for n in names if n == "interpreted" or n.split("-")[0] in ("md5", "sha1", "sha256",
                                                                                       "sha512")], out)


class SeedsTable(unittest.TestCase):
    """The seeds' question on this host (docs/benchmarks.md, "The seeds' table"): C2's code as the
    baseline, HotSpot's own SHA-3 stubs where it has both, and the summary's per-family answer."""

    def fake_hotspot(self, tmp, has_simd_flag, sha3_stays_on):
        """A java that answers PrintFlagsFinal as HotSpot 25 would on an AArch64 CPU."""
        import types
        script = os.path.join(tmp, "java")
        with open(script, "w") as f:
            f.write("import sys\n"
                    f"simd, stays = {has_simd_flag}, {sha3_stays_on}\n"
                    "on = '-XX:+UseSHA3Intrinsics' in sys.argv and stays\n"
                    "if '-XX:+UseSHA3Intrinsics' in sys.argv and not stays:\n"
                    "    print('OpenJDK 64-Bit Server VM warning: Intrinsics for SHA3-224, SHA3-256, SHA3-384 and "
                    "SHA3-512 crypto hash functions not available on this CPU.', file=sys.stderr)\n"
                    "print('     bool UseSHA3Intrinsics                        = %s            {product} {default}'"
                    " % ('true' if on else 'false'))\n"
                    "if simd:\n"
                    "    print('     bool UseSIMDForSHA3Intrinsic                  = true             {product} {default}')\n")
        return types.SimpleNamespace(command=[sys.executable, script], env=None, java=script)

    def test_hotspot_sha3_variants(self):
        from mdbench.configs import hotspot_sha3_variants
        with tempfile.TemporaryDirectory() as tmp:
            skipped = []
            got = hotspot_sha3_variants(self.fake_hotspot(tmp, True, True), "M.java", skipped)
            self.assertEqual([c.name for c in got], ["java-C2-sha3-simd", "java-C2-sha3-gpr"])
            self.assertEqual(skipped, [])
            self.assertIn("-XX:-UseSIMDForSHA3Intrinsic", got[1].command)
            self.assertTrue(got[0].runs("SHA3-512") and not got[0].runs("SHA-256"))
            # x86-64's HotSpot 25: no such flag, both skipped with the reason
            skipped = []
            self.assertEqual(hotspot_sha3_variants(self.fake_hotspot(tmp, False, True), "M.java", skipped), [])
            self.assertIn("no UseSIMDForSHA3Intrinsic", skipped[0][1])
            # a CPU on which HotSpot turns the intrinsic off: skipped, its warning quoted
            skipped = []
            self.assertEqual(hotspot_sha3_variants(self.fake_hotspot(tmp, True, False), "M.java", skipped), [])
            self.assertEqual([n for n, _ in skipped], ["java-C2-sha3-simd", "java-C2-sha3-gpr"])
            self.assertIn("not available on this CPU", skipped[0][1])

    def test_seeds_list(self):
        """--seeds: seed 000's digests and lengths, C2's code the baseline, both spilling modes."""
        r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--build", BUILD, "--seeds",
                            "-l"], capture_output=True, text=True, timeout=300)
        cache = os.environ.get("MINIVM_ORACLE_CACHE") or os.path.expanduser("~/.cache/minivm-oracle")
        if not os.path.exists(os.path.join(cache, "trixie-amd64.ok")) or os.uname().machine != "x86_64":
            self.assertEqual(r.returncode, 2, r.stdout)
            self.assertIn("--baseline java-C2-nointrinsics: skipped here", r.stderr)
            return
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("digesterName = SHA3-256, SHA3-512, SHA-256, SHA-512, SHA-1, MD5", r.stdout)
        self.assertIn("length = 64, 16384", r.stdout)
        listing = re.sub(r"\n {26}", " ", r.stdout)  # the wrapped option lines joined
        self.assertRegex(listing, r"(?m)^  java-C2-nointrinsics .*-XX:TieredStopAtLevel=4 -XX:-UseFPUForSpilling")
        self.assertRegex(listing, r"(?m)^  java-C2-fpuspill .*-XX:TieredStopAtLevel=4 -XX:\+UseFPUForSpilling")

    def test_summary_answers(self):
        """scripts/run's summary: the default stub "+N%" over C2's code per digest and length, and
        per family whether it beats C2's code on this CPU."""
        import io
        import types
        from mdbench import configs as cf
        from mdbench.summary import Noise, print_summary
        from mdbench.configs import Config
        if not cf._families:
            cf.stub_families(types.SimpleNamespace(build=BUILD, qemu_cpu=None))
        sha3 = next(f for f in cf._families if f.display == "SHA-3")
        args = types.SimpleNamespace(benchmarks=["digest"], baseline="interpreted", qemu_cpu=None, f=1, i=5, r=100,
                                     params={"digesterName": ["SHA3-256"], "length": ["64", "16384"]})
        ks = [("digest", "SHA3-256", "64"), ("digest", "SHA3-256", "16384")]
        score = lambda xs: {k: {"score": x, "scoreError": x * 0.01, "scoreConfidence": [x * 0.99, x * 1.01]}  # noqa: E731
                            for k, x in zip(ks, xs)}
        summary = {"interpreted": score([10.0, 0.1]), "gpr": score([300.0, 2.0]),
                   "java-C2-nointrinsics": score([200.0, 2.5])}
        configs = [Config("interpreted", "minivm", [], []),
                   Config("gpr", "minivm", [], [], stub_kind="gpr", family="SHA-3", only=sha3.about),
                   Config("java-C2-nointrinsics", "java", [], [])]
        noise = Noise.__new__(Noise)
        noise.load_before = noise.load_after = 0.0
        noise.others = 0.0
        out = io.StringIO()
        raw = {n: {k: [[v["score"]] * 5] for k, v in by_key.items()} for n, by_key in summary.items()}
        print_summary(configs, summary, raw, args, {"cpu": "test CPU", "cores": 2}, {"SHA-3": "gpr"}, noise,
                      "r.json", out)
        text = out.getvalue()
        self.assertRegex(text, r"(?m)^  vs C2's code +\+50% on C2's code, significant +-20% on C2's code, significant$")
        flat = re.sub(r"\s+", " ", text)  # the per-family line, unwrapped
        self.assertIn("Against C2's code (java-C2-nointrinsics): gpr beats it at SHA3-256 64 B; loses at SHA3-256 "
                      "16 KiB", flat)
        # one JVM per configuration cannot show how C2's SHA-3 code varies between compilations
        from mdbench.summary import c2_compilation_warning
        seeds = types.SimpleNamespace(f=1, baseline="java-C2-nointrinsics",
                                      params={"digesterName": ["SHA3-512", "MD5"]})
        self.assertIn("1 JVM(s) per configuration: C2 compiles SHA3.keccak differently",
                      c2_compilation_warning(seeds, ["gpr", "java-C2-nointrinsics"]))
        self.assertIsNone(c2_compilation_warning(seeds, ["gpr"]))
        for change in ({"f": 4}, {"baseline": "interpreted"}, {"params": {"digesterName": ["SHA-256"]}}):
            self.assertIsNone(c2_compilation_warning(types.SimpleNamespace(**{**vars(seeds), **change}),
                                                     ["java-C2-nointrinsics"]), change)
        from mdbench.summary import c2_verdict
        self.assertIn("beats it everywhere measured", c2_verdict([("a", 5.0, True), ("b", 1.0, True)], "gpr"))
        self.assertIn("not apart from it beyond the error bars at b", c2_verdict([("a", 5.0, True), ("b", 1.0, False)], "gpr"))
        self.assertEqual(c2_verdict(None, "gpr"), "")


class Options(unittest.TestCase):
    """JMH's conventions: -l lists, -h helps, an unknown option is named; no measurement runs."""

    def runner(self, *argv, cwd=None, timeout=300):
        return subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--build", BUILD] + list(argv),
                              capture_output=True, text=True, timeout=timeout, cwd=cwd)

    def test_list(self):
        r = self.runner("--main", "-l")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("MessageDigests.digest", r.stdout)
        self.assertIn("digesterName = SHA-256, SHA3-256, SHA3-512", r.stdout)
        self.assertIn("length = 64, 16384", r.stdout)
        self.assertRegex(r.stdout, r"(?m)^  interpreted ")
        if os.uname().machine == "x86_64" and not os.environ.get("MINIVM_EMULATED"):
            # the compiler tier beside the interpreter, on the same bytecode (docs/compiler.md)
            self.assertRegex(r.stdout, r"(?m)^  compiled ")
        self.assertIn("minivm's default stub here", r.stdout)
        self.assertNotRegex(r.stdout, r"(?m)^  (C-ref|java-Xint) ", "--main leaves them out")

    def test_help(self):
        r = self.runner("-h")
        self.assertEqual(r.returncode, 0)
        for o in ("-rf", "-rff", "-l", "--main", "--tables"):
            self.assertIn(o, r.stdout)

    def test_core_clock(self):
        """bench/core_clock: the core's clock from a chain of dependent multiplies, one line; bad
        options refused with exit status 2."""
        tool = os.path.join(BUILD, "bench", "core_clock")
        r = subprocess.run([tool, "--trials", "3", "--ms", "5"], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        m = re.fullmatch(r"(\d+\.\d{3}) GHz\n", r.stdout)
        self.assertTrue(m and 0.2 < float(m.group(1)) < 8, r.stdout)
        self.assertIn("median of 3 trials of 5 ms", r.stderr)
        for argv, words in ((["--trials", "0"], "--trials takes a number from 1 to 101"),
                            (["--ms"], "--ms takes a number from 1 to 10000"),
                            (["--fast"], "unknown option --fast")):
            r = subprocess.run([tool] + argv, capture_output=True, text=True, timeout=60)
            self.assertEqual((r.returncode, r.stdout), (2, ""), argv)
            self.assertIn(words, r.stderr, argv)

    def test_unknown_options(self):
        for argv, words in ((["-rf", "xml"], "invalid choice: 'xml'"), (["-rf2"], "unknown option '-rf2'"),
                            (["-prof", "gc"], "JMH's option -prof is not one the runner has"),
                            (["--quik"], "unknown option '--quik'"), (["-r", "1h"], "invalid time '1h'")):
            r = self.runner(*argv)
            self.assertEqual(r.returncode, 2, argv)
            self.assertIn(words, r.stderr, argv)
            self.assertEqual(r.stdout, "", argv)

    # were a bad value let through, the run it would start is short (the case's option comes last:
    # it wins), so that the check fails fast rather than measuring
    SHORT = ("--no-java", "--no-chart", "--only", "interpreted", "-p", "digesterName=SHA3-256", "-p", "length=64",
             "-wi", "0", "-i", "1", "-w", "0", "-r", "1")

    def test_bad_values(self):
        """Every option's value is checked before anything runs: one line naming it, exit status 2,
        nothing measured or written."""
        for argv, words in (
                (["--select", "-1"], "argument --select: -1 is out of range: expected at least 1"),
                (["--select", "0"], "argument --select: 0 is out of range"),
                (["--file", "0"], "argument --file: 0 is out of range"),
                (["--file", "-1"], "argument --file: -1 is out of range"),
                (["--rounds", "0"], "argument --rounds: 0 is out of range"),
                (["-f", "0"], "argument -f: 0 is out of range"),
                (["-wi", "-1"], "argument -wi: -1 is out of range: expected 0..10000"),
                (["-i", "0"], "argument -i: 0 is out of range: expected 1..10000"),
                (["-i", "10001"], "argument -i: 10001 is out of range"),
                (["-i", "many"], "argument -i: invalid number 'many'"),
                (["-r", "61min"], "argument -r: '61min' (3660000 ms) is out of range: expected 1..3600000 ms"),
                (["-w", "3600001"], "argument -w: '3600001' is out of range: expected 0..3600000 ms"),
                (["-r", "500us"], "argument -r: '500us' (0 ms) is out of range"),
                (["-rff", ""], "argument -rff: an empty value"),
                (["-rff", "/nonexistent/r.json"], "-rff /nonexistent/r.json: its directory /nonexistent does not"),
                (["--select", "1", "-rff", "/tmp/r.json"], "-rff /tmp/r.json: --select writes no result file"),
                (["--results", ""], "argument --results: an empty value"),
                (["-p", "digesterName=NOPE"], "bad -p 'digesterName=NOPE': unknown digest 'NOPE'"),
                (["-p", "digesterName=SHA3-256,sha-2"], "unknown digest 'sha-2'"),
                (["-p", "length=-5"], "bad -p 'length=-5': length '-5' is not a number of bytes 0..2147483647"),
                (["-p", "length=2147483648"], "length '2147483648' is not a number of bytes"),
                (["-p", "length=64,,16384"], "bad -p 'length=64,,16384': an empty value"),
                (["-p", "foo=1"], "bad -p 'foo=1': expected digesterName=A,B or length=N,M"),
                (["--config", "mine"], "bad --config 'mine': expected NAME='-XX:... -XX:...'"),
                (["--config", "mine=-XX:'"], "bad --config \"mine=-XX:'\": No closing quotation"),
                (["--config", "interpreted=-Xint"], "--config 'interpreted=-Xint': interpreted is a configuration "
                                                    "already"),
                (["--only", "nosuch"], "--only names nosuch, which this host does not have"),
                (["--baseline", "nosuch"], "--baseline nosuch: not among the configurations that run here"),
                # the seeds' table needs C2's code: without HotSpot, its baseline says why it is missing
                (["--seeds", "--only", "interpreted", "-p", "digesterName=SHA3-256"],
                 "--baseline java-C2-nointrinsics: skipped here: --no-java")):
            with self.subTest(argv=argv), tempfile.TemporaryDirectory() as tmp:
                r = self.runner(*self.SHORT, "--results", tmp, *argv, timeout=60)
                self.assertEqual(r.returncode, 2, (argv, r.stderr))
                self.assertEqual(r.stdout, "", argv)
                self.assertNotIn("Traceback", r.stderr, argv)
                errors = [l for l in r.stderr.splitlines() if "error:" in l]
                self.assertEqual(errors, [r.stderr.splitlines()[-1]], argv)
                self.assertTrue(errors[0].startswith("sh scripts/bench: error: "), errors)
                self.assertIn(words, errors[0], argv)
                self.assertEqual(os.listdir(tmp), [], argv)

    def test_result_file_unwritable(self):
        """A result file that cannot be written at the end (a full disk): one line, exit status 1."""
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full here")
        with tempfile.TemporaryDirectory() as tmp:
            r = self.runner(*self.SHORT, "-r", "10", "--results", tmp, "-rff", "/dev/full")
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertEqual(r.stderr, "bench: -rff /dev/full: No space left on device\n")
            self.assertEqual(os.listdir(tmp), [])

    def test_result_file_standard_output(self):
        """-rff /dev/stdout with the runner's standard output redirected to a file: the file keeps everything
        the runner printed, the JSON in its place among it (a file put in place by a rename, or a second
        descriptor of it, would lose the rest or write over it)."""
        with tempfile.TemporaryDirectory() as tmp:
            out_path = os.path.join(tmp, "out.txt")
            with open(out_path, "w") as out:
                r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--build", BUILD,
                                    *self.SHORT, "--results", tmp, "-rff", "/dev/stdout"], stdout=out,
                                   stderr=subprocess.PIPE, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out_path) as f:
                text = f.read()
            self.assertIn("Benchmark ", text)
            self.assertIn("Summary: MessageDigests.digest", text)
            self.assertIn("JSON:  /dev/stdout", text)
            start, end = text.index("\n[\n"), text.index("\n]\n")
            doc = json.loads(text[start + 1:end + 2])
            self.assertEqual({d["params"]["config"] for d in doc}, {"interpreted"})
            self.assertEqual(sorted(os.listdir(tmp)), ["out.txt"])

    def test_interrupt(self):
        """Ctrl-C (SIGINT to the runner alone, as kill -INT sends it) while a fork measures: one line, the
        death by SIGINT a shell reports as 130, the fork killed, no result file, not even a partial one."""
        with tempfile.TemporaryDirectory() as tmp:
            p = subprocess.Popen([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--build", BUILD,
                                  *self.SHORT, "-r", "30s", "--results", tmp, "-rff", os.path.join(tmp, "r.json")],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
            try:
                for line in p.stdout:
                    if " configurations x " in line:  # the line before the first fork starts
                        break
                time.sleep(0.5)
                os.kill(p.pid, signal.SIGINT)
                out, err = p.communicate(timeout=60)
            finally:
                p.kill()
                p.wait()
            self.assertEqual(err, "bench: interrupted\n")
            self.assertEqual(p.returncode, -signal.SIGINT)
            self.assertEqual(os.listdir(tmp), [])
            time.sleep(0.2)
            with self.assertRaises(ProcessLookupError, msg="a fork outlived the runner"):
                os.killpg(p.pid, 0)  # the runner's session: nothing left in it

    def test_digest_names(self):
        """-p digesterName takes what MessageDigest.getInstance takes: any case, Java's aliases, the OIDs."""
        from mdbench.common import DIGEST_NAMES, standard_name
        for given, name in (("sha3-256", "SHA3-256"), ("SHA256", "SHA-256"), ("sha", "SHA-1"), ("md5", "MD5"),
                            ("2.16.840.1.101.3.4.2.10", "SHA3-512"), ("OID.1.3.14.3.2.26", "SHA-1"),
                            ("shake128", "SHAKE128-256"), ("SHAKE256", "SHAKE256-512"),
                            ("2.16.840.1.101.3.4.2.11", "SHAKE128-256"),
                            ("oid.2.16.840.1.101.3.4.2.12", "SHAKE256-512"),
                            ("shake128x2", "SHAKE128x2"), ("sha-256-jdk15", "SHA-256-JDK15")):
            self.assertEqual(standard_name(given), name, given)
            self.assertIn(name, DIGEST_NAMES)
        for unknown in ("NOPE", "SHA-2", "OID.1.2.3", "SHAKE128x3"):
            self.assertNotIn(standard_name(unknown), DIGEST_NAMES)

    def test_durations(self):
        sys.path.insert(0, os.path.join(ROOT, "bench"))
        import runner
        self.assertEqual([runner.duration(x) for x in ("150", "150ms", "1s", "2min", "500us")], [150, 150, 1000,
                                                                                                 120000, 0])

    def test_paths_from_the_callers_directory(self):
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, MINIVM_CALLER_DIR=tmp)
            r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--build", BUILD,
                                "--quick", "--no-chart", "--no-java", "--only", "interpreted", "-p",
                                "digesterName=SHA3-256", "-p", "length=64", "-i", "3", "-r", "10", "-w", "5",
                                "--results", "out"], capture_output=True, text=True, timeout=300, env=env, cwd=ROOT)
            self.assertEqual(r.returncode, 0, r.stderr)
            line = next(l for l in r.stdout.splitlines() if l.startswith("JSON:"))
            path = line.split(None, 1)[1]
            self.assertTrue(path.startswith("out" + os.sep), line)
            self.assertTrue(os.path.exists(os.path.join(tmp, path)), line)


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "--build":
        BUILD = os.path.abspath(args[1])
        args = args[2:]
    unittest.main(argv=[sys.argv[0]] + args, verbosity=2)
