#!/usr/bin/env python3
"""tests/test_c2code.py — bench/c2code.py and bench/model.py (`sh scripts/bench --model`), suite
'bench': HotSpot's print of compiled code (tests/data/hotspot_print/) and a -XX:+PrintStubCode
listing read; QEMU's execution log of one MD5 stub call (tests/data/c2code/, recorded under
qemu-aarch64 -cpu max) split into translated blocks and calls; the counts per block on a known
snippet of each architecture; the block's instructions decoded from the recorded HotSpot code
(bench/data/c2code/) and from the recorded stub call; the model's CPU list and its refusals; and,
when QEMU and llvm-mca are here, --model's table for one CPU with its CSV.

    /usr/bin/python3 tests/test_c2code.py --build build
"""

import argparse
import collections
import csv
import glob
import io
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import c2code  # noqa: E402
import model  # noqa: E402

BUILD = os.path.join(ROOT, "build")
DATA = os.path.join(ROOT, "tests", "data")


def read(*path):
    with open(os.path.join(DATA, *path)) as f:
        return f.read()


class Reading(unittest.TestCase):
    def test_print(self):
        nms = c2code.parse_print(read("hotspot_print", "keccak_c1_c2_head.txt"))
        self.assertEqual([(n.compiler, n.compile_id, n.osr) for n in nms], [("c1", 122, False), ("c2", 147, False)])
        c2 = c2code.final_nmethod(nms, "sun.security.provider.SHA3::keccak", "c2")
        self.assertEqual((c2.start, c2.end), (0x7FDF080CE200, 0x7FDF080CE648))
        self.assertEqual(c2.entries, [0x7FDF080CE200])
        # "1f20 03d5": the bytes of a nop in memory order; 9 words of main code, the stub code left out
        self.assertEqual([c2.bytes[0x7FDF080CE200 + k] for k in range(4)], [0x1F, 0x20, 0x03, 0xD5])
        self.assertEqual(len(c2.bytes), 36)
        self.assertIsNone(c2code.final_nmethod(nms, "sun.security.provider.SHA3::keccak", "stub"))

    def test_stubs_and_log(self):
        """One MD5 stub call under QEMU: its blocks, in order, are the stub's whole code path."""
        stubs = c2code.stub_regions(read("c2code", "minivm_md5_stubs.txt"), ["MD5"])["MD5"]
        self.assertEqual([s.method for s in stubs], ["md5_implCompress", "md5_implCompressMB"])
        single = stubs[0]
        self.assertEqual((single.start, single.end), (0x7FFFF6150700, 0x7FFFF61511E0))
        self.assertEqual(len(single.bytes), single.end - single.start)
        # its first instruction, stp x16, x17, [sp, #-0x30]!: the word a9bd47f0, little-endian
        self.assertEqual(bytes(single.bytes[single.start + k] for k in range(4)), bytes.fromhex("f047bda9"))
        code = {}
        with open(os.path.join(DATA, "c2code", "minivm_md5_exec.log")) as f:
            blocks, runs = c2code.parse_log(f, code)
        # every byte QEMU lists is the print's
        self.assertGreater(len(code), 2000)
        self.assertEqual({a: single.bytes.get(a, stubs[1].bytes.get(a)) for a in code}, code)
        self.assertEqual(len(runs), 6)
        self.assertEqual(runs[0], single.start)
        self.assertEqual(blocks[single.start][:2], [single.start, single.start + 4])
        calls = c2code.calls(stubs, blocks, runs)
        self.assertEqual(len(calls), 1, "one block, one call")
        seq, n = c2code.the_call(calls)
        self.assertEqual((seq, n), (calls[0], 1))
        total = sum(len(blocks[pc]) for pc in seq)
        # the stub's straight-line MD5 (64 steps): hundreds of instructions, ending at its ret
        self.assertGreater(total, 500)
        self.assertEqual(blocks[seq[-1]][-1] + 4, single.end)  # the last block ends at the stub's ret

    def test_long_x86_instruction_listed_on_two_lines(self):
        """QEMU lists an x86 instruction longer than 8 bytes on two lines, the second its last
        bytes alone (a minivm avx2 SHA-3 stub's TB under QEMU 10): one instruction, not two."""
        log = ["IN: \n",
               "0x7ffff7eca2bc:  c5 79 d6 84 24 98 00 00  vmovq    %xmm8, 0x98(%rsp)\n",
               "0x7ffff7eca2c4:  00\n",
               "0x7ffff7eca2c5:  c4 42 dd 47 99 80 01 00  vpsllvq  0x180(%r9), %ymm4, %ymm11\n",
               "0x7ffff7eca2cd:  00\n",
               "\n"]
        code = {}
        blocks, _ = c2code.parse_log(log, code)
        self.assertEqual(blocks, {0x7FFFF7ECA2BC: [0x7FFFF7ECA2BC, 0x7FFFF7ECA2C5]})
        # the bytes QEMU lists, the continuation lines' included: where a print lacks them
        # (HotSpot's x86-64 PrintStubCode drops a stub's last bytes) the log has them
        self.assertEqual(bytes(code[0x7FFFF7ECA2BC + k] for k in range(18)),
                         bytes.fromhex("c579d68424980000" "00" "c442dd4799800100" "00"))

    def test_the_call_is_the_most_frequent(self):
        seq, n = c2code.the_call([[1, 2], [1, 3, 2], [1, 3, 2], [1, 3, 2]])
        self.assertEqual((seq, n), ([1, 3, 2], 3))
        self.assertEqual(c2code.the_call([]), (None, 0))


class Counting(unittest.TestCase):
    def test_aarch64(self):
        snippet = ["ldr x1, [sp, #8]", "str x2, [sp, #16]", "fmov d0, x3", "fmov x4, d1", "add x1, x1, x2",
                   "ldp x1, x2, [x3]", "stp x29, x30, [sp, #-16]!", "bl #100", "mov v0.d[1], x5"]
        c = c2code.counts("aarch64", snippet)
        self.assertEqual(c, {"instructions": 9, "loads": 2, "stores": 2, "stack_loads": 1, "stack_stores": 2,
                             "gp_fp_moves": 3, "calls": 1})

    def test_x86_64(self):
        snippet = ["mov rax, qword ptr [rsp + 8]", "mov qword ptr [rsp + 16], rbx", "movq xmm0, rax",
                   "movq rcx, xmm1", "add rax, qword ptr [rdi + 8]", "lea rax, [rdi + 8]", "push rbp",
                   "xor qword ptr [rdi], rax", "call 0x10", "rorx rax, rbx, 14"]
        c = c2code.counts("x86_64", snippet)
        self.assertEqual(c, {"instructions": 10, "loads": 3, "stores": 3, "stack_loads": 1, "stack_stores": 2,
                             "gp_fp_moves": 2, "calls": 1})


@unittest.skipUnless(c2code.tool("llvm-mc-19", "llvm-mc"), "llvm-mc is not installed")
class Decoding(unittest.TestCase):
    def test_recorded_hotspot_code(self):
        """Every recorded call decodes to as many instructions as QEMU said its blocks had."""
        mc = c2code.tool("llvm-mc-19", "llvm-mc")
        checked = 0
        for arch, (_, qemu) in [("aarch64", m) for m in c2code.models("aarch64")] + \
                [("x86_64", m) for m in c2code.models("x86_64")]:
            rec = c2code.read_record(arch, qemu)
            if rec is None:
                continue
            for config, by_digest in rec["configs"].items():
                for d, entry in by_digest.items():
                    if "error" in entry:
                        # the two failures recorded as such: HotSpot 25 dying (JDK-8359378), and its
                        # x86-64 PrintStubCode dropping a stub's last size-mod-4 bytes
                        self.assertRegex(entry["error"], r"HotSpot died|the print lacks the bytes|neither the print nor the log has")
                        continue
                    stream = c2code.block_stream(arch, entry, mc)
                    self.assertEqual(len(stream), sum(entry["blocks"][b]["insns"] for b in entry["call"]))
                    self.assertNotIn("", stream)
                    checked += 1
        self.assertGreater(checked, 0, "no record in bench/data/c2code/")

    def test_sha3_c2_spills_on_aarch64(self):
        """C2's SHA3-512 block on Neoverse N1 with UseFPUForSpilling off: thousands of instructions,
        hundreds of them stack reloads (what seed 000's FPU row is about), no general<->FP moves."""
        rec = c2code.read_record("aarch64", "neoverse-n1")
        if rec is None:
            self.skipTest("no record for neoverse-n1")
        mc = c2code.tool("llvm-mc-19", "llvm-mc")
        c = c2code.counts("aarch64", c2code.block_stream("aarch64", rec["configs"]["java-C2-nointrinsics"]["SHA3-512"],
                                                           mc))
        self.assertGreater(c["instructions"], 3000)
        self.assertGreater(c["stack_loads"], 200)
        self.assertEqual(c["gp_fp_moves"], 0)


class ModelOptions(unittest.TestCase):
    def runner(self, *argv):
        return subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--build", BUILD] + list(argv),
                              capture_output=True, text=True, timeout=120)

    def test_refusals(self):
        with self.assertRaises(model.ModelError) as e:
            model.cpu_rows(["pentium-pro"])
        self.assertIn("--cpu pentium-pro: not a CPU the model has", str(e.exception))
        self.assertEqual([c[0] for c in model.cpu_rows([])][:7], list(model.SEED000))
        for argv, words in ((["--model", "--cpu", "pentium-pro"], "--cpu pentium-pro: not a CPU the model has"),
                            (["--cpu", "neoverse-n1"], "--cpu is --model's"),
                            (["--model", "-p", "digesterName=SHA3-256"], "digest SHA3-256 is not one it models"),
            (["--mca-arg=-noalias=false"], "--mca-arg is --model's"),
            (["--model", "--mca-arg", "noalias"], "--mca-arg noalias: not an llvm-mca option")):
            r = self.runner(*argv)
            self.assertEqual(r.returncode, 2, (argv, r.stderr))
            self.assertIn(words, r.stderr.splitlines()[-1])
            self.assertEqual(r.stdout, "")
        if c2code.tool("llvm-mca-19", "llvm-mca"):
            r = self.runner("--model", "--mca-arg=-no-such-option")
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertIn("--mca-arg -no-such-option: llvm-mca refuses it", r.stderr.splitlines()[-1])


@unittest.skipUnless(shutil.which("qemu-aarch64") and c2code.tool("llvm-mca-19", "llvm-mca"),
                     "needs qemu-aarch64 and llvm-mca")
class Accuracy(unittest.TestCase):
    """The model's predictions beside measurements: the winner against C2's code, the error."""

    def test_seed000(self):
        import io
        import model
        # every seed cell predicted 10 points above what it measured: every winner right but
        # A53's, A72's and N1's fpu (+2 -> +12 stays right; -2 -> +8 and -10 -> +0 turn wrong)
        rows = [dict(cpu=cpu, digest="SHA3-512", configuration=model.SEED_ROWS[row][0],
                     vs_c2_percent=measured + 10.0)
                for cpu, cells in model.SEED000.items() for row, (measured, _) in cells.items()]
        out = io.StringIO()
        right, total, med = model.accuracy(rows, out)
        self.assertEqual((right, total, med), (16, 18, 10))
        self.assertIn("16 of 18 cells with the right winner; median error 10 points", out.getvalue())
        self.assertRegex(out.getvalue(), r"(?m)^  cortex-a72   fpu +-2% +\+8% +WRONG +\+10 ")
        # a CPU the model did not run is listed without a prediction, not counted
        right, total, _ = model.accuracy([r for r in rows if r["cpu"] != "apple-m4"], io.StringIO())
        self.assertEqual(total, 15)

    def test_chart(self):
        """--model's chart: a figure per digest, a panel per CPU (its name the title), C2 at 0%, seed
        000's measurements marked on SHA3-512's."""
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            self.skipTest("python3-matplotlib is not installed")
        import xml.etree.ElementTree as ET
        import model
        rows = [dict(cpu=cpu, digest=d, configuration=c, vs_c2_percent=v)
                for cpu in ("neoverse-n1", "apple-m1") for d in ("SHA3-512", "MD5")
                for c, v in (("java-C2-nointrinsics", 0.0), ("gpr", 22.0), ("hotspot-sha3-gpr", 21.0))]
        with tempfile.TemporaryDirectory() as tmp:
            paths = model.chart(rows, os.path.join(tmp, "m"))
            self.assertEqual(sorted(os.path.basename(p) for p in paths),
                             ["m-MD5.png", "m-MD5.svg", "m-SHA3-512.png", "m-SHA3-512.svg"])
            with open(os.path.join(tmp, "m-SHA3-512.png"), "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
            text = " ".join(ET.parse(os.path.join(tmp, "m-SHA3-512.svg")).getroot().itertext())
            for words in ("neoverse-n1", "apple-m1", "hotspot-sha3-gpr", "+22%", "seed 000's measurement"):
                self.assertIn(words, text)
            self.assertNotIn("seed 000", " ".join(ET.parse(os.path.join(tmp, "m-MD5.svg")).getroot().itertext()))

    def test_against_host(self):
        import io
        import json
        import model

        def result(config, digest, score, length="16384"):
            return {"params": {"config": config, "digesterName": digest, "length": length},
                    "primaryMetric": {"score": score}}
        doc = [result("java-C2-nointrinsics", "SHA3-512", 10.0), result("gpr", "SHA3-512", 12.0),
               result("java-C2-fpuspill", "SHA3-512", 9.0), result("avx2", "SHA3-512", 20.0, "64"),
               result("java-C2-sha3-gpr", "SHA3-512", 11.0), result("java-C2", "MD5", 15.0),
               result("java-C2-nointrinsics", "MD5", 10.0)]
        rows = [dict(cpu="neoverse-n1", digest="SHA3-512", configuration=c, vs_c2_percent=v)
                for c, v in (("java-C2-nointrinsics", 0.0), ("gpr", 30.0), ("java-C2-fpuspill", 5.0),
                             ("avx2", 50.0), ("hotspot-sha3-gpr", 20.0))]
        rows.append(dict(cpu="cortex-a53", digest="SHA3-512", configuration="gpr", vs_c2_percent=99.0))
        # HotSpot's MD5 stub is what java-C2 (every intrinsic on) runs: +50% measured, +60% predicted
        rows += [dict(cpu="neoverse-n1", digest="MD5", configuration=c, vs_c2_percent=v)
                 for c, v in (("java-C2-nointrinsics", 0.0), ("hotspot-md5", 60.0))]
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(doc, f)
            f.flush()
            out = io.StringIO()
            right, total, med = model.against_host(rows, f.name, "neoverse-n1", out)
        # gpr +20 measured, +30 predicted; fpuspill -10 / +5 wrong; HotSpot's GPR stub is the
        # runner's java-C2-sha3-gpr (+10 / +20); avx2 measured at 64 B only: not a cell
        self.assertEqual((right, total), (3, 4))
        self.assertAlmostEqual(med, 10)
        self.assertRegex(out.getvalue(), r"(?m)^  MD5 +hotspot-md5 +\+50% +\+60% +right +\+10$")
        self.assertRegex(out.getvalue(), r"(?m)^  SHA3-512  java-C2-fpuspill +-10% +\+5% +WRONG +\+15$")
        self.assertNotIn("avx2", out.getvalue())
        # no clock measured during the run, and this host is not the JSON's CPU: no cycles table
        self.assertIn("no measured clock: the run recorded none and this host is another CPU", out.getvalue())
        self.assertNotIn("model / measured:", out.getvalue())
        # a JSON with no cell beside C2's code (another benchmark's, or the 64 B alone) is refused
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump([result("gpr", "SHA3-512", 12.0)], f)
            f.flush()
            with self.assertRaisesRegex(ValueError, "no 16 KiB cell measured beside java-C2-nointrinsics"):
                model.against_host(rows, f.name, "neoverse-n1", io.StringIO())

    def test_cycles_measured(self):
        """At the clock the run measured, each configuration's cycles per block beside the model's:
        SHA3-512 16 KiB is 228 blocks (227 full, the padded last), so 10 ops/ms at 3 GHz is
        3e9 / (1e4 * 228) = 1,316 cycles a block."""
        import io
        import json
        import model
        machine = {"cpu": "Some CPU family 1 model 2", "clockGHz": 3.0,
                   "clockSource": "measured: a chain of dependent multiplies, bench/core_clock"}
        doc = [{"params": {"config": c, "digesterName": "SHA3-512", "length": "16384"},
                "primaryMetric": {"score": v}, "minivmMachine": machine}
               for c, v in (("java-C2-nointrinsics", 10.0), ("gpr", 12.0), ("java-C2-sha3-gpr", 8.0))]
        c2 = 3e9 / (1e4 * 228)
        rows = [dict(cpu="znver5", digest="SHA3-512", configuration="java-C2-nointrinsics", cycles_per_block=2 * c2,
                     vs_c2_percent=0.0),
                dict(cpu="znver5", digest="SHA3-512", configuration="gpr", cycles_per_block=c2 / 1.2,
                     vs_c2_percent=140.0),
                dict(cpu="znver5", digest="SHA3-512", configuration="hotspot-sha3-gpr", cycles_per_block=c2 / 0.8 / 2,
                     vs_c2_percent=300.0)]
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(doc, f)
            f.flush()
            out = io.StringIO()
            model.against_host(rows, f.name, "znver5", out)
        text = out.getvalue()
        self.assertIn("3.00 GHz, measured during the run", text)
        self.assertRegex(text, r"(?m)^  SHA3-512  java-C2-nointrinsics +1,316 +2,632 +2\.00$")
        self.assertRegex(text, r"(?m)^  SHA3-512  gpr +1,096 +1,096 +1\.00$")
        self.assertRegex(text, r"(?m)^  SHA3-512  hotspot-sha3-gpr +1,645 +822 +0\.50$")
        self.assertIn("model / measured: C2's code 2.00-2.00 (median 2.00); minivm's stubs 1.00-1.00 (median 1.00); "
                      "HotSpot's stubs 0.50-0.50 (median 0.50)", text)
        self.assertEqual(rows[1]["measured_cycles_per_block"], 1096.5)
        # a run that recorded no measured clock, on this very CPU: the clock is measured now
        if os.access(os.path.join(BUILD, "bench", "core_clock"), os.X_OK):
            from mdbench.common import cpu_name
            for d in doc:
                d["minivmMachine"] = {"cpu": cpu_name(), "clockGHz": 2.0, "clockSource": "/proc/cpuinfo's cpu MHz"}
            with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
                json.dump(doc, f)
                f.flush()
                out = io.StringIO()
                model.against_host(rows, f.name, "znver5", out, build=BUILD)
            self.assertRegex(out.getvalue(), r"[0-9.]+ GHz, measured now on this host \(the run recorded no measured clock\)")
            self.assertNotIn("2.00 GHz", out.getvalue())
        self.assertEqual(model.blocks_per_digest("SHA-256", 16384), 257)
        self.assertEqual(model.blocks_per_digest("SHA3-256", 64), 1)


def runner_json(path, machine, scores, length="16384", mode="thrpt", unit="ops/ms"):
    """A runner result file: scores {(config, digest): ops/ms}, error bars of 1% of each score."""
    import json
    doc = [{"benchmark": "org.openjdk.bench.java.security.MessageDigests.digest", "mode": mode,
            "params": {"config": c, "digesterName": d, "length": length},
            "primaryMetric": {"score": v, "scoreError": v / 100, "scoreConfidence": [v * 0.99, v * 1.01],
                              "scoreUnit": unit},
            "minivmMachine": machine} for (c, d), v in scores.items()]
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


N1 = {"cpu": "aarch64", "date": "2026-12-05 10:00", "vendor": "",
      "features": "CPU: total 4 (initial active 4) 0x41:0x3:0xd0c:1, fp, asimd, aes, pmull, sha1, sha256"}
ZEN5 = {"cpu": "AMD EPYC family 26 model 2", "date": "2026-12-05 14:11", "vendor": "AuthenticAMD",
        "features": "CPU: total 2 (initial active 2) family 26 model 2 stepping 1, avx2, sha"}


class Merge(unittest.TestCase):
    """sh scripts/bench --merge: runner JSONs of several machines in one seeds' table."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def path(self, name):
        return os.path.join(self.dir.name, name)

    def test_machines(self):
        import io
        from mdbench import merge
        n1 = runner_json(self.path("n1.json"), N1, {
            ("java-C2-nointrinsics", "SHA3-512"): 10.0, ("gpr", "SHA3-512"): 12.6, ("simd", "SHA3-512"): 6.0,
            ("java-C2-fpuspill", "SHA3-512"): 9.0, ("java-C2-nointrinsics", "SHA-256"): 20.0,
            ("sha256-crypto", "SHA-256"): 200.0, ("java-C2-nointrinsics", "MD5"): 30.0, ("md5-gpr", "MD5"): 30.1})
        # no HotSpot on the second machine: its cells are over the interpreter
        zen = runner_json(self.path("zen.json"), ZEN5, {("interpreted", "SHA3-512"): 1.0, ("gpr", "SHA3-512"): 20.0})
        asked = []

        def predict(mcpus):
            asked.append(mcpus)
            return {("neoverse-n1", "SHA3-512", "gpr"): 22.0, ("neoverse-n1", "SHA3-512", "simd"): -40.0}
        out = io.StringIO()
        merged = merge.merge([n1, zen], out, predict)
        text = out.getvalue()
        self.assertEqual(asked, [["neoverse-n1", "znver5"]])
        self.assertEqual(set(merged), {"aarch64", "AMD EPYC family 26 model 2"})
        self.assertIn("aarch64 (2026-12-05 10:00; model: neoverse-n1)", text)
        self.assertIn("gpr +26% (model +22%)", text)
        self.assertIn("simd -40% (model -40%)", text)
        self.assertIn("java-C2-fpuspill -10%", text)
        self.assertIn("over the interpreter (no HotSpot ran)", text)
        self.assertRegex(text, r"gpr \+1900%(?! \(model)")  # no prediction beside an interpreter's cell
        self.assertIn("implies: UseSHA3Intrinsics=true (gpr +26% over C2's code at SHA3-512 16 KiB)", text)
        self.assertIn("implies: UseSHA256Intrinsics=true (sha256-crypto +900%", text)
        # md5-gpr +0.3%: inside the 1% error bars, so C2's code keeps it off
        self.assertIn("implies: UseMD5Intrinsics=false (C2's code is as fast: the best stub, md5-gpr, ~+0%", text)

    def test_same_cpu_twice(self):
        import io
        from mdbench import merge
        a = runner_json(self.path("a.json"), N1, {("java-C2-nointrinsics", "SHA3-512"): 10.0, ("gpr", "SHA3-512"): 12.0})
        b = runner_json(self.path("b.json"), N1, {("java-C2-nointrinsics", "SHA3-512"): 20.0, ("gpr", "SHA3-512"): 30.0})
        out = io.StringIO()
        merged = merge.merge([a, b], out, None)
        self.assertIn("note: aarch64 is in 2 files (a.json, b.json): merged", out.getvalue())
        pct, noise, files = merged["aarch64"][1][("SHA3-512", "16384")][1]["gpr"]
        # the geometric mean of the files' ratios, 1.2 and 1.5, not the ratio of the means
        self.assertAlmostEqual(pct, (math.sqrt(1.2 * 1.5) - 1) * 100)
        self.assertEqual((noise, files), (False, 2))

    def test_bad_files(self):
        from mdbench import merge
        good = runner_json(self.path("good.json"), N1, {("java-C2-nointrinsics", "MD5"): 1.0})
        with open(self.path("corrupt.json"), "w") as f:
            f.write('[{"params": ')
        foreign = self.path("jmh.json")
        runner_json(foreign, None, {("java-C2-nointrinsics", "MD5"): 1.0})
        avgt = runner_json(self.path("avgt.json"), N1, {("gpr", "MD5"): 1.0}, mode="avgt", unit="us/op")
        cases = [(self.path("corrupt.json"), "corrupt.json: not JSON"),
                 (foreign, "jmh.json: does not say which machine it ran on"),
                 (avgt, "avgt.json: gpr is avgt in us/op, not throughput in ops/ms"),
                 (self.path("missing.json"), "missing.json: No such file or directory")]
        for path, why in cases:
            with self.assertRaisesRegex(merge.MergeError, re.escape(why)):
                merge.merge([good, path], io.StringIO(), None)
            # through the runner: one line naming the file, exit status 1
            r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--merge", good, path],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 1, r.stderr)
            lines = r.stderr.strip().splitlines()
            self.assertEqual(len(lines), 1, r.stderr)
            self.assertTrue(lines[0].startswith(f"bench --merge: {path}: {why.split(': ', 1)[1]}"), lines[0])

    def test_model_cpu(self):
        from mdbench import merge
        self.assertEqual(merge.model_cpu(N1), "neoverse-n1")
        self.assertEqual(merge.model_cpu(ZEN5), "znver5")
        self.assertEqual(merge.model_cpu({"cpu": "AMD EPYC 9R14 family 25 model 17", "vendor": "AuthenticAMD"}), "znver4")
        self.assertEqual(merge.model_cpu({"cpu": "AMD EPYC 7R13 family 25 model 1", "vendor": "AuthenticAMD"}), "znver3")
        self.assertEqual(merge.model_cpu({"cpu": "INTEL(R) XEON(R) PLATINUM 8581C family 6 model 207",
                                          "vendor": "GenuineIntel"}), "sapphirerapids")
        self.assertIsNone(merge.model_cpu({"cpu": "qemu-aarch64 -cpu neoverse-n1 on AMD EPYC", "features": N1["features"]}))


class ModelTable(unittest.TestCase):
    def model(self, cpu, digest):
        """sh scripts/bench --model --cpu CPU -p digesterName=DIGEST -rf csv: (its standard output,
        the CSV's rows, the charts it drew), the run checked to have succeeded."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "m.csv")
            r = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "runner.py"), "--build", BUILD, "--model",
                                "--cpu", cpu, "-p", f"digesterName={digest}", "-rf", "csv", "-rff", path,
                                "--results", tmp],
                               capture_output=True, text=True, timeout=600)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(path) as f:
                rows = list(csv.DictReader(f))
            charts = [os.path.basename(p) for p in glob.glob(os.path.join(tmp, "model-*.png"))]
        return r.stdout, rows, charts

    def test_one_cpu(self):
        """--model --cpu neoverse-n1 -p digesterName=SHA-256: C2's code at 0%, every row's columns, the CSV."""
        if not os.path.exists(os.path.join(ROOT, "build-aarch64", "minivm")):
            self.skipTest("build-aarch64 is not built (the QEMU stage builds it)")
        stdout, rows, charts = self.model("neoverse-n1", "SHA-256")
        self.assertTrue(any(c.endswith("-SHA-256.png") for c in charts), stdout)
        self.assertRegex(stdout, r"(?m)^neoverse-n1 \(HotSpot's code from qemu-aarch64 -cpu neoverse-n1; ")
        self.assertRegex(stdout, r"(?m)^  SHA-256 +java-C2-nointrinsics +[0-9,]+ +\+0% ")
        for col in ("cpu", "digest", "configuration", "cycles_per_block", "vs_c2_percent"):
            self.assertIn(col, rows[0])
        names = {r["configuration"] for r in rows}
        self.assertTrue({"java-C2-nointrinsics", "java-C1", "sha256-crypto", "hotspot-sha256"} <= names, names)
        c2 = next(r for r in rows if r["configuration"] == "java-C2-nointrinsics")
        self.assertEqual(float(c2["vs_c2_percent"]), 0.0)
        self.assertTrue(all(r["cpu"] == "neoverse-n1" and r["digest"] == "SHA-256" for r in rows))
        self.assertTrue(all(float(r["cycles_per_block"]) > 0 for r in rows))

    def test_x86_cpu(self):
        """--model --cpu znver3 -p digesterName=MD5 from build/ alone (the first CI stage has it):
        HotSpot's code recorded under EPYC-Milan, minivm's x86-64 MD5 stub traced under qemu-x86_64."""
        if not shutil.which("qemu-x86_64"):
            self.skipTest("needs qemu-x86_64")
        stdout, rows, _ = self.model("znver3", "MD5")
        self.assertRegex(stdout, r"(?m)^znver3 \(HotSpot's code from qemu-x86_64 -cpu EPYC-Milan\)$")
        by = {r["configuration"]: r for r in rows}
        self.assertTrue({"java-C2-nointrinsics", "java-C2-fpuspill", "java-C1", "md5-gpr"} <= set(by), sorted(by))
        self.assertEqual(float(by["java-C2-nointrinsics"]["vs_c2_percent"]), 0.0)
        # the stub's block is shorter than C2's and spills almost nothing: its cycles are fewer
        self.assertLess(int(by["md5-gpr"]["instructions"]), int(by["java-C2-nointrinsics"]["instructions"]))
        self.assertGreater(float(by["md5-gpr"]["vs_c2_percent"]), 0.0)
        self.assertTrue(all(r["cpu"] == "znver3" and r["digest"] == "MD5" and float(r["cycles_per_block"]) > 0
                            for r in rows if r["configuration"] in by and not r["error"]))


@unittest.skipUnless(os.uname().machine == "x86_64" and shutil.which("qemu-x86_64")
                     and os.access(os.path.join(BUILD, "bench", "stub_trace"), os.X_OK),
                     "needs an x86-64 host, qemu-x86_64 and build/bench/stub_trace")
class NativeTrace(unittest.TestCase):
    """bench/stub_trace.c: a stub's call traced on the CPU itself, for the variants QEMU cannot run."""

    def test_same_as_qemu(self):
        """minivm's MD5 stub, one block: the native trace runs the very instructions QEMU's
        execution log does, in the same order."""
        variant = [("md5-gpr", ["-XX:+UseMD5Intrinsics"], ["MD5"])]
        native = c2code.minivm_stubs_native(BUILD, variant)["md5-gpr"]["MD5"]
        qemu = c2code.minivm_stubs(BUILD, "x86_64", "max", variant)["md5-gpr"]["MD5"]
        self.assertNotIn("error", native)
        a, b = (c2code.block_stream("x86_64", e, c2code.LLVM_MC()) for e in (native, qemu))
        self.assertGreater(len(a), 500)
        self.assertEqual(a, b)

    def test_avx512_rows(self):
        """QEMU's EPYC-Genoa model asks for AVX-512, which its TCG lacks: minivm's AVX-512 variants
        count as running on that CPU (not on EPYC-Milan's), and an AVX-512 host traces them."""
        genoa = {n: r for n, _, _, r in model.minivm_variants("x86_64", "EPYC-Genoa")}
        milan = {n: r for n, _, _, r in model.minivm_variants("x86_64", "EPYC-Milan")}
        self.assertTrue(genoa["avx512-lanes"] and genoa["gpr"], genoa)
        self.assertFalse(milan["avx512-lanes"], milan)
        self.assertTrue(milan["avx2"], milan)
        with open("/proc/cpuinfo") as f:
            if " avx512f" not in f.read():
                self.skipTest("this CPU has no AVX-512: the avx512 variants cannot be traced here")
        opts = "-XX:+UseSHA3Intrinsics -XX:+UseSIMDForSHA3Intrinsic -XX:SHA3AVX512Design=lanes -XX:UseAVX=3".split()
        rec = c2code.minivm_stubs_native(BUILD, [("avx512-lanes", opts, ["SHA3-512"])])["avx512-lanes"]["SHA3-512"]
        stream = c2code.block_stream("x86_64", rec, c2code.LLVM_MC())
        # 24 rounds of AVX-512's three-input logic (vpternlogq: theta and chi), no spill to the stack
        self.assertGreater(sum(ins.startswith("vpternlogq ") for ins in stream), 24 * 20)
        self.assertEqual(c2code.counts("x86_64", stream)["stack_loads"], 0)

    def test_hotspot_sha3(self):
        """HotSpot 25's own AVX-512 SHA-3 stub, which QEMU cannot run, as the record has it (24
        rounds of AVX-512 permutes and three-input logic, nothing spilled: only the prologue's
        pushes touch the stack), and traced live where this CPU runs it (HotSpot's code cache is
        executable from the start, its Java runs in a thread of its own, java is reached through
        sh, unshare and chroot): the same instructions. Without AVX-512 the trace is refused,
        saying why."""
        mc = c2code.LLVM_MC()
        rec = c2code.read_record("x86_64", "SapphireRapids")["configs"]["hotspot-sha3"]["SHA3-512"]
        recorded = c2code.block_stream("x86_64", rec, mc)
        ops = collections.Counter(ins.split()[0] for ins in recorded)
        self.assertEqual(ops["vpermt2q"], 24 * 24, ops)
        self.assertEqual(ops["vpternlogq"], 24 * 12, ops)
        self.assertLessEqual(c2code.counts("x86_64", recorded)["stack_loads"], 3)
        if not os.path.exists(os.path.join(c2code.oracle_cache(), "trixie-amd64.ok")) \
                and not os.environ.get("JAVA_HOME"):
            self.skipTest("HotSpot 25 is not installed (sh scripts/oracle setup)")
        with tempfile.TemporaryDirectory() as tmp:
            live = c2code.hotspot_stubs_native(BUILD, c2code.compile_blocks(tmp))["hotspot-sha3"]["SHA3-512"]
        with open("/proc/cpuinfo") as f:
            flags = f.read()
        if " avx512f" not in flags or " avx512bw" not in flags:
            self.assertIn("which this CPU lacks, and QEMU's TCG cannot run it", live["error"])
            self.skipTest("this CPU has no AVX-512F and BW: HotSpot's SHA-3 stub cannot be traced here")
        if c2code.CANNOT_HERE in live.get("error", ""):
            self.skipTest(live["error"])
        self.assertNotIn("error", live)
        self.assertEqual([i.split()[0] for i in c2code.block_stream("x86_64", live, mc)],
                         [i.split()[0] for i in recorded])

    def test_refusals(self):
        tool = os.path.join(BUILD, "bench", "stub_trace")
        for argv, words in ((["10-5", "--", "true"], "bad range 10-5"), (["--", "true"], "usage"),
                            (["10-20"], "usage"), (["zz-20", "--", "true"], "bad range zz-20")):
            r = subprocess.run([tool] + argv, capture_output=True, text=True, timeout=30)
            self.assertEqual(r.returncode, 2, argv)
            self.assertIn(words, r.stderr, argv)
        r = subprocess.run([tool, "1000-2000", "--", "true"], capture_output=True, text=True, timeout=30)
        self.assertEqual(r.returncode, 1)
        self.assertIn("ended (exit status 0) without entering a range", r.stderr)


@unittest.skipUnless(os.uname().machine in ("x86_64", "aarch64")
                     and os.access(os.path.join(BUILD, "bench", "insn_latency"), os.X_OK),
                     "needs an x86-64 or AArch64 host and build/bench/insn_latency")
class InsnLatency(unittest.TestCase):
    """bench/insn_latency.c: the latencies the model hinges on, measured in the core's cycles."""

    def test_latencies(self):
        """Every probe in the core's cycles, within what any core of Agner Fog's tables takes: a
        load 2-7 cycles to its use, a move to an FP register and back 1-20; on AVX-512 a permute
        slower than a logic instruction, and a permute into logic slower than the permute."""
        r = subprocess.run([os.path.join(BUILD, "bench", "insn_latency"), "--trials", "3"], capture_output=True,
                           text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        got = {ln[:34].strip(): float(ln[34:]) for ln in r.stdout.splitlines()}
        x86 = os.uname().machine == "x86_64"
        load = got["mov r64, [r64] (load to use)" if x86 else "ldr x, [x] (load to use)"]
        self.assertTrue(1.5 < load < 7.5, got)
        self.assertTrue(1 <= got["movq xmm, r64 > movq r64, xmm" if x86 else "fmov d, x > fmov x, d"] < 20, got)
        self.assertTrue(0 < got["mov [m], r64 > mov r64, [m]" if x86 else "str x, [m] > ldr x, [m]"] < 15, got)
        if not x86:
            self.assertTrue(0.7 < got["eor x, x, x"] < 1.5, got)
            return
        if "vpermt2q zmm" not in got:
            self.assertIn("no AVX-512F and VL: its probes are left out", r.stderr)
            self.skipTest("this CPU has no AVX-512: its probes are left out")
        self.assertEqual(len(got), 11, r.stdout)
        for logic in ("vpternlogq zmm", "vpxorq zmm", "vpternlogq ymm", "vpxor ymm"):
            self.assertTrue(0.7 < got[logic] < 3.3, (logic, got))
        self.assertTrue(2.5 < got["vpermt2q zmm"] < 8.5, got)
        self.assertGreater(got["vpermt2q > vpternlogq zmm"], got["vpermt2q zmm"] + 0.5)

    def test_refusals(self):
        for argv in (["--trials", "0"], ["--trials"], ["--frobnicate"]):
            r = subprocess.run([os.path.join(BUILD, "bench", "insn_latency")] + argv, capture_output=True,
                               text=True, timeout=30)
            self.assertEqual(r.returncode, 2, argv)
            self.assertIn("usage: insn_latency [--trials N]", r.stderr)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=BUILD)
    a, rest = ap.parse_known_args()
    BUILD = os.path.abspath(a.build)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
