#!/usr/bin/env python3
"""tests/test_compiled_mca.py — bench/compiled_mca.py (`sh scripts/bench --mca-compiled`), suite
'bench': reading HotSpot's print without hsdis (recorded output in tests/data/hotspot_print/),
the branch decoding and the loop search on handmade words and on C2's recorded keccak, the
instruction counts of a known snippet, and, live, minivm's what-if listing of SHA3.keccak for
AArch64 with llvm-mca's cycles when llvm-mca is installed.

    /usr/bin/python3 tests/test_compiled_mca.py --build build
"""

import argparse
import os
import shutil
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import compiled_mca as cm  # noqa: E402

BUILD = os.path.join(ROOT, "build")


class Reading(unittest.TestCase):
    def test_hotspot_words_c2_only(self):
        with open(os.path.join(ROOT, "tests", "data", "hotspot_print", "keccak_c1_c2_head.txt")) as f:
            printed = f.read()
        words = cm.hotspot_words(printed, "c2")
        # the C2 nmethod's two code lines: 8 words and 1, little-endian halves ("1f20 03d5": nop)
        self.assertEqual(len(words), 9)
        self.assertEqual(words[0], 0xD503201F)
        self.assertEqual(words[8], 0x54002061)
        self.assertEqual(words[3], 0xD10203FF)  # C2's frame: sub sp, sp, #0x80
        c1 = cm.hotspot_words(printed, "c1")
        self.assertEqual(len(c1), 9)
        self.assertEqual(c1[3], 0xA9BF7BFD)  # C1's: stp x29, x30, [sp, #-16]!
        self.assertEqual(cm.hotspot_words("no nmethod here\n"), [])

    def test_minivm_words(self):
        listing = ("Compiled method (minivm)    1 1       T::f (8 bytes)\n  ;; 0: add    x, y, z\n"
                   "0x0000:  8b0a0129  add     x9, x9, x10\n0x0004:  d61f0200  \n  ;; 1: ret    x\n")
        self.assertEqual(cm.minivm_words(listing), [0x8B0A0129, 0xD61F0200])


class Loops(unittest.TestCase):
    def test_branch_targets(self):
        self.assertEqual(cm.branch_target(0x17FFFFFE, 10), 8)       # b #-8
        self.assertEqual(cm.branch_target(0x54FFFF8B, 10), 6)       # b.lt #-16
        self.assertEqual(cm.branch_target(0xB4000040, 3), 5)        # cbz x0, #8
        self.assertEqual(cm.branch_target(0x3607FFE0, 9), 8)        # tbz w0, #0, #-4
        self.assertIsNone(cm.branch_target(0x8B0A0129, 0))          # add: not a branch

    def test_widest_conditional_loop(self):
        nop, add = 0xD503201F, 0x8B0A0129
        words = [nop, add, add, 0x54FFFFCB, nop, 0x17FFFFFB]  # b.lt back to 1; b back to 0
        self.assertEqual(cm.widest_loop(words), (1, 3))          # the b is not a loop's
        with self.assertRaises(ValueError):
            cm.widest_loop([nop, add])

    def test_c2_keccak_round_loop(self):
        words = cm.read_c2("keccak", "neoverse-n1")
        self.assertIsNotNone(words, "bench/data/c2/keccak-neoverse-n1.txt is recorded")
        a, b = cm.widest_loop(words)
        # C2's round loop under neoverse-n1: 174 instructions and the branch back
        self.assertEqual(b - a + 1, 175)

    def test_counts(self):
        text = ["ldr x1, [x19, #8]", "ldp x2, x3, [sp, #16]", "str x1, [sp]", "stp x1, x2, [x0]",
                "eor x1, x1, x2", "ldur x4, [x5, #-8]"]
        self.assertEqual(cm.counts(text), (6, 3, 2, 2))


class Live(unittest.TestCase):
    def test_minivm_keccak_for_aarch64(self):
        minivm = os.path.join(BUILD, "minivm")
        if not os.path.exists(minivm):
            self.skipTest(f"{minivm} is not built")
        words = cm.minivm_words(cm.minivm_listing(BUILD, "keccak"))
        a, b = cm.widest_loop(words)
        self.assertGreater(b - a, 100)  # a round of 25 lanes is more than a hundred instructions
        llvm_mc, llvm_mca = cm.tool("llvm-mc-19", "llvm-mc"), cm.tool("llvm-mca-19", "llvm-mca")
        if not llvm_mc or not llvm_mca:
            self.skipTest("llvm-mc or llvm-mca is not installed")
        text = cm.disassemble(words[a:b + 1], llvm_mc)
        self.assertEqual(len(text), b - a + 1)
        self.assertTrue(text[-1].startswith("b."), text[-1])
        self.assertGreater(cm.mca_cycles(text, "neoverse-n1", llvm_mca, 20), 10)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=BUILD)
    a, rest = ap.parse_known_args()
    BUILD = os.path.abspath(a.build)
    if not shutil.which("llvm-mc-19") and not shutil.which("llvm-mc"):
        print("test_compiled_mca: no llvm-mc: the live test skips its disassembly")
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
