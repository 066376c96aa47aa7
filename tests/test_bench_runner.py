"""tests/test_bench_runner.py — the benchmark runner (suite 'bench'): JMH's
statistics on fixed data, and one --quick run of the whole matrix whose JSON
must have JMH's shape (tests/data/jmh-result.schema.json) and whose tables
and charts must be there. Not a timing check: the scores are only checked
to be positive numbers.

    python3 tests/test_bench_runner.py [--build DIR]     (Meson: suite 'bench')
"""

import glob
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import jmh_stats  # noqa: E402

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
        self.assertRegex(text, r"MessageDigests\.digest\s+SHA3-256\s+64\s+400\.000\s+2\.50x")
        self.assertNotIn("interpreted", text)  # not a stub configuration


class QuickRun(unittest.TestCase):
    """sh scripts/bench --quick's runner, on a reduced matrix, into a temporary results/."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cmd = [sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--quick", "--build", BUILD,
               "--results", cls.dir.name, "--config", "mine=-XX:UseAVX=2" if os.uname().machine == "x86_64"
               else "mine=-XX:-UseSIMDForSHA3Intrinsic", "-i", "3", "-r", "30", "-w", "10"]
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
        configs = {d["params"]["config"] for d in doc}
        for name in ("interpreted", "C-ref", "mine"):
            self.assertIn(name, configs)
        self.assertTrue(any(n not in ("interpreted", "C-ref", "OpenSSL", "mine") and not n.startswith("java-")
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
        for ext in ("png", "svg"):
            files = glob.glob(os.path.join(self.dir.name, "*." + ext))
            self.assertEqual(len(files), 1, ext)
            self.assertGreater(os.path.getsize(files[0]), 1000)

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
        self.assertTrue(all('version "25' in d["jdkVersion"] for d in java), {d["jdkVersion"] for d in java})
        self.assertEqual({d["params"]["config"] for d in java}, {"java-C2", "java-C2-nointrinsics", "java-Xint"})
        self.assertIn("vs HotSpot:", self.result.stdout)

    def test_tables_printed(self):
        out = self.result.stdout
        self.assertIn("Comparison against interpreted", out)
        self.assertIn("# mine (--config): -XX:", out)
        self.assertRegex(out, r"MessageDigests\.digest\s+SHA3-256\s+16384\s+thrpt\s+3 ")
        self.assertRegex(out, r"(?m)^JSON:  .*\.json$")
        self.assertRegex(out, r"(?m)^chart: .*\.png, .*\.svg$")


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) >= 2 and args[0] == "--build":
        BUILD = os.path.abspath(args[1])
        args = args[2:]
    unittest.main(argv=[sys.argv[0]] + args, verbosity=2)
