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
        self.assertEqual({d["params"]["config"] for d in java}, {"java-C2", "java-C2-nointrinsics", "java-Xint"})
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


class Options(unittest.TestCase):
    """JMH's conventions: -l lists, -h helps, an unknown option is named; no measurement runs."""

    def runner(self, *argv, cwd=None):
        return subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--build", BUILD] + list(argv),
                              capture_output=True, text=True, timeout=300, cwd=cwd)

    def test_list(self):
        r = self.runner("--main", "-l")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("MessageDigests.digest", r.stdout)
        self.assertIn("digesterName = SHA-256, SHA3-256, SHA3-512", r.stdout)
        self.assertIn("length = 64, 16384", r.stdout)
        self.assertRegex(r.stdout, r"(?m)^  interpreted ")
        self.assertIn("minivm's default stub here", r.stdout)
        self.assertNotRegex(r.stdout, r"(?m)^  (C-ref|java-Xint) ", "--main leaves them out")

    def test_help(self):
        r = self.runner("-h")
        self.assertEqual(r.returncode, 0)
        for o in ("-rf", "-rff", "-l", "--main", "--tables"):
            self.assertIn(o, r.stdout)

    def test_unknown_options(self):
        for argv, words in ((["-rf", "xml"], "invalid choice: 'xml'"), (["-rf2"], "unknown option '-rf2'"),
                            (["-prof", "gc"], "JMH's option -prof is not one the runner has"),
                            (["--quik"], "unknown option '--quik'"), (["-r", "1h"], "invalid time '1h'")):
            r = self.runner(*argv)
            self.assertEqual(r.returncode, 2, argv)
            self.assertIn(words, r.stderr, argv)
            self.assertEqual(r.stdout, "", argv)

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
