"""bench/compiled_mca.py — minivm's compiled code beside HotSpot 25's C2 code, by llvm-mca, per
AArch64 CPU model (`sh scripts/bench --mca-compiled`; docs/compiler.md, "Compiled code against C2").

The question the seeds ask of a stub ("+N% over C2"), asked of minivm's compiler: how close does
its code for the same Java (SHA3.keccak's round loop, SHA2.implCompress0's) come to C2's, on each
AArch64 CPU llvm-mca has a model for? Both loops are found the same way, in the machine code
alone: the widest backward conditional branch is the loop, its body everything from the branch's
target to the branch. For SHA3.keccak both bodies are one round (24 a block). SHA2.implCompress0's
are not comparable this way: C2 splits its counted loops into pre-, main and post-loops and
unrolls the main one, so its widest body is several iterations (reported, not compared).

- minivm's code: the what-if compiler (build/minivm -XX:EmulateCPU=<an AArch64 CPU> -Xcomp
  -XX:-Use<digest>Intrinsics -XX:CompileCommand=print,<method>) on any host; minivm's templates
  do not depend on the CPU, so one listing serves every model.
- C2's code: HotSpot 25 for AArch64 under qemu-aarch64 -cpu MODEL (scripts/oracle java-aarch64:
  C2 picks instructions from the CPU features it detects), its -XX:CompileCommand=print output
  without hsdis (the code bytes), recorded in bench/data/c2/ so that a host without the oracle
  still has it; apple-m1 and apple-m4 (no QEMU model) use the `max` model's code.

llvm-mca (the newest Debian 12 has, llvm-19) then gives cycles per iteration of each body. It
assumes every load hits and does not model store-to-load forwarding: code that keeps values in
memory across iterations (minivm's compiled loops write their registers back at the back-edge)
looks better than it runs.
"""

import os
import re
import subprocess
import sys
import tempfile

from mca import _tool as tool  # the first of these commands on PATH

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "bench", "data", "c2")

# (llvm-mca -mcpu, the QEMU model C2's code comes from, minivm's -XX:EmulateCPU name)
MODELS = [("cortex-a53", "cortex-a53", "cortex-a53"), ("cortex-a57", "cortex-a72", "cortex-a72"),
          ("neoverse-n1", "neoverse-n1", "neoverse-n1"), ("neoverse-v1", "neoverse-v1", "neoverse-v1"),
          ("neoverse-v2", "max", "neoverse-v2"), ("apple-m1", "max", "apple-m1"), ("apple-m4", "max", "apple-m4")]

# (name, minivm's method, HotSpot's method, the intrinsic flag, the digest to run, loop iterations a block)
METHODS = [("keccak", "SHA3::keccak", "sun.security.provider.SHA3::keccak", "UseSHA3Intrinsics", "SHA3-256", 24),
           ("sha256", "SHA2::implCompress0", "sun.security.provider.SHA2::implCompress0", "UseSHA256Intrinsics",
            "SHA-256", 64)]

JAVA_PROGRAM = """import java.security.MessageDigest;
public class CompiledLoop {
    public static void main(String[] a) throws Exception {
        MessageDigest md = MessageDigest.getInstance(a[1]);
        byte[] b = new byte[64];
        long s = 0;
        for (int i = 0; i < Integer.parseInt(a[0]); i++) { b[0] = (byte) i; s += md.digest(b)[0]; }
        System.out.println(s);
    }
}
"""


def branch_target(word, at):
    """The word index a branch at index `at` goes to, or None: b, b.cond, cbz/cbnz, tbz/tbnz."""
    def signed(v, bits):
        return v - (1 << bits) if v >> (bits - 1) else v
    if word & 0xFC000000 == 0x14000000:
        return at + signed(word & 0x3FFFFFF, 26)
    if word & 0xFF000010 == 0x54000000 or word & 0x7E000000 == 0x34000000:
        return at + signed((word >> 5) & 0x7FFFF, 19)
    if word & 0x7E000000 == 0x36000000:
        return at + signed((word >> 5) & 0x3FFF, 14)
    return None


def conditional(word):
    return word & 0xFC000000 != 0x14000000


def widest_loop(words):
    """(first, last) word indices of the widest backward conditional branch's body (last: the
    branch). An unconditional one is not a loop's: out-of-line code (a slow path, a safepoint's)
    jumps back into the method with one."""
    best = None
    for at, w in enumerate(words):
        t = branch_target(w, at)
        if t is not None and conditional(w) and 0 <= t <= at and (best is None or at - t > best[1] - best[0]):
            best = (t, at)
    if best is None:
        raise ValueError("no backward branch: no loop")
    return best


HOTSPOT_LINE = re.compile(r"^\s+0x[0-9a-f]+: ((?:[0-9a-f]{4} [0-9a-f]{4}(?: \| )?)+)")


def hotspot_words(printed, compiler="c2"):
    """The main code words of the first nmethod of `compiler` in HotSpot's print without hsdis:
    from [Verified Entry Point] (its [Entry Point] before it, if any) up to its stubs."""
    words, inside, started = [], False, False
    for line in printed.splitlines():
        if line.startswith("Compiled method ("):
            if started:
                break
            inside = line.startswith(f"Compiled method ({compiler})")
            started = inside
            continue
        if not inside:
            continue
        if line.startswith("[Stub Code]") or line.startswith("[Exception Handler]"):
            inside = False
            continue
        m = HOTSPOT_LINE.match(line)
        if m:
            for group in m.group(1).split(" | "):
                lo, hi = group.split()
                raw = bytes.fromhex(lo + hi)
                words.append(int.from_bytes(raw, "little"))
    return words


MINIVM_LINE = re.compile(r"^0x[0-9a-f]+:\s+([0-9a-f]{8})\b")


def minivm_words(printed):
    """The words of the one compiled method PrintAssembly printed (its words' code and the exits,
    the constant pool too: the loop search reads branches only)."""
    return [int(m.group(1), 16) for m in map(MINIVM_LINE.match, printed.splitlines()) if m]


def disassemble(words, llvm_mc):
    """llvm-mc's text of the words, one instruction a line (a word it cannot decode: a .word)."""
    src = " ".join(f"0x{b:02x}" for w in words for b in w.to_bytes(4, "little"))
    p = subprocess.run([llvm_mc, "--disassemble", "-triple=aarch64", "-mattr=+sha3,+crc,+lse"], input=src,
                       capture_output=True, text=True)
    lines = [ln.strip() for ln in p.stdout.splitlines() if ln.strip() and not ln.strip().startswith(".text")]
    if len(lines) != len(words):  # a word it refused: one at a time, so that each keeps its place
        lines = []
        for w in words:
            one = " ".join(f"0x{b:02x}" for b in w.to_bytes(4, "little"))
            q = subprocess.run([llvm_mc, "--disassemble", "-triple=aarch64", "-mattr=+sha3,+crc,+lse"], input=one,
                               capture_output=True, text=True)
            text = [ln.strip() for ln in q.stdout.splitlines() if ln.strip() and not ln.strip().startswith(".text")]
            lines.append(text[0] if text else f".word 0x{w:08x}")
    return lines


def mca_cycles(text, mcpu, llvm_mca, iterations=200):
    """llvm-mca's cycles per iteration of the instructions in text on mcpu."""
    p = subprocess.run([llvm_mca, "-mtriple=aarch64", f"-mcpu={mcpu}", f"-iterations={iterations}"],
                       input="\n".join(text) + "\n", capture_output=True, text=True)
    m = re.search(r"Total Cycles:\s+(\d+)", p.stdout)
    if p.returncode != 0 or not m:
        raise RuntimeError(f"llvm-mca -mcpu={mcpu} failed: {p.stderr[-500:]}")
    return int(m.group(1)) / iterations


def counts(text):
    """(instructions, loads, stores, sp-relative) of a loop body's text."""
    loads = sum(1 for t in text if re.match(r"ld(r|p|ur)", t))
    stores = sum(1 for t in text if re.match(r"st(r|p|ur)", t))
    sp = sum(1 for t in text if "[sp" in t)
    return len(text), loads, stores, sp


def minivm_listing(build, name):
    """minivm's what-if PrintAssembly of the method (compiled for AArch64 on any host)."""
    _, method, _, flag, digest, _ = next(m for m in METHODS if m[0] == name)
    with tempfile.NamedTemporaryFile("wb", suffix=".bin") as f:
        f.write(os.urandom(256))
        f.flush()
        argv = [os.path.join(build, "minivm"), "-XX:+UnlockDiagnosticVMOptions", "-XX:EmulateCPU=neoverse-n1",
                "-Xcomp", f"-XX:-{flag}", "-XX:CompileCommand=quiet", f"-XX:CompileCommand=print,{method}",
                os.path.join(ROOT, "examples", "digest.mva"), digest, f.name]
        p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"bench --mca-compiled: {' '.join(argv)} failed:\n{p.stderr[-1000:]}")
    return p.stdout


def c2_record(name, qemu_model):
    return os.path.join(DATA, f"{name}-{qemu_model}.txt")


def extract_c2(name, qemu_model, java_class_dir):
    """HotSpot 25's print of the method under qemu-aarch64 -cpu qemu_model, C2's part recorded."""
    _, _, hs_method, flag, digest, _ = next(m for m in METHODS if m[0] == name)
    argv = ["sh", os.path.join(ROOT, "scripts", "oracle"), "java-aarch64", qemu_model,
            "-XX:+UnlockDiagnosticVMOptions", f"-XX:-{flag}", "-XX:CompileCommand=quiet",
            f"-XX:CompileCommand=print,{hs_method}", "-cp", java_class_dir, "CompiledLoop", "30000", digest]
    p = subprocess.run(argv, capture_output=True, text=True)
    words = hotspot_words(p.stdout)
    if p.returncode != 0 or not words:
        raise RuntimeError(f"{' '.join(argv)}: no C2 code ({p.stderr[-300:] or p.stdout[-300:]})")
    os.makedirs(DATA, exist_ok=True)
    with open(c2_record(name, qemu_model), "w") as f:
        f.write(f"# HotSpot 25 C2's {hs_method} for AArch64 under qemu-aarch64 -cpu {qemu_model} "
                f"(-XX:-{flag}; bench/compiled_mca.py --extract): its main code's words\n")
        for k in range(0, len(words), 8):
            f.write(" ".join(f"{w:08x}" for w in words[k:k + 8]) + "\n")
    return words


def read_c2(name, qemu_model):
    path = c2_record(name, qemu_model)
    if not os.path.exists(path):
        return None
    words = []
    with open(path) as f:
        for line in f:
            if not line.startswith("#"):
                words += [int(w, 16) for w in line.split()]
    return words


def javac_class_dir(tmp):
    javac = tool("javac")
    if not javac:
        sys.exit("bench --mca-compiled --extract: no javac on PATH (the oracle's JDK runs the class)")
    src = os.path.join(tmp, "CompiledLoop.java")
    with open(src, "w") as f:
        f.write(JAVA_PROGRAM)
    subprocess.run([javac, "--release", "17", "-d", tmp, src], check=True)
    return tmp


def run(build, out, extract=False, cpus=None):
    llvm_mca, llvm_mc = tool("llvm-mca-19", "llvm-mca"), tool("llvm-mc-19", "llvm-mc")
    if not llvm_mca or not llvm_mc:
        sys.exit("bench --mca-compiled: llvm-mca and llvm-mc are not installed (sh scripts/bootstrap bench)")
    models = [m for m in MODELS if not cpus or m[0] in cpus or m[2] in cpus]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        classes = javac_class_dir(tmp) if extract else None
        for name, method, hs_method, flag, digest, trips in METHODS:
            mv = minivm_words(minivm_listing(build, name))
            a, b = widest_loop(mv)
            mv_text = disassemble(mv[a:b + 1], llvm_mc)
            c2_cache = {}
            for mcpu, qemu_model, _ in models:
                if qemu_model not in c2_cache:
                    words = extract_c2(name, qemu_model, classes) if extract else read_c2(name, qemu_model)
                    if words is None:
                        c2_cache[qemu_model] = None
                    else:
                        c, d = widest_loop(words)
                        c2_cache[qemu_model] = disassemble(words[c:d + 1], llvm_mc)
                c2_text = c2_cache[qemu_model]
                mv_cyc = mca_cycles(mv_text, mcpu, llvm_mca)
                c2_cyc = mca_cycles(c2_text, mcpu, llvm_mca) if c2_text else None
                rows.append({"cpu": mcpu, "method": hs_method, "qemu_model": qemu_model,
                             "minivm_cycles_per_iteration": mv_cyc, "c2_cycles_per_iteration": c2_cyc,
                             # a block: the loop's trips, where one iteration is one round
                             "minivm_cycles_per_block": mv_cyc * trips if name == "keccak" else None,
                             "c2_cycles_per_block": c2_cyc * trips if c2_cyc and name == "keccak" else None,
                             # one iteration is one round on both sides for keccak only: C2 unrolls
                             # SHA-256's counted loops (module docstring)
                             "minivm_vs_c2": (c2_cyc / mv_cyc) if c2_cyc and name == "keccak" else None,
                             "minivm_loop": counts(mv_text), "c2_loop": counts(c2_text) if c2_text else None})
    out.write("llvm-mca (llvm-19) cycles per loop iteration of minivm's compiled code and HotSpot 25's C2 code for "
              "the same Java, per AArch64 CPU model; the loop: the widest backward conditional branch's body\n")
    out.write(f"{'cpu':<12} {'method':<36} {'minivm':>8} {'C2':>8} {'minivm/C2':>10} {'per block (minivm, C2)':>24}"
              f"  {'loop: insns/loads/stores/sp (minivm; C2)'}\n")
    for r in rows:
        c2 = f"{r['c2_cycles_per_iteration']:8.1f}" if r["c2_cycles_per_iteration"] else f"{'-':>8}"
        ratio = f"{1 / r['minivm_vs_c2']:9.2f}x" if r["minivm_vs_c2"] else f"{'-':>10}"
        block = (f"{r['minivm_cycles_per_block']:,.0f}, " if r["minivm_cycles_per_block"] else "-, ") + \
            (f"{r['c2_cycles_per_block']:,.0f}" if r["c2_cycles_per_block"] else "-")
        loops = "/".join(map(str, r["minivm_loop"])) + "; " + ("/".join(map(str, r["c2_loop"])) if r["c2_loop"] else "-")
        out.write(f"{r['cpu']:<12} {r['method']:<36} {r['minivm_cycles_per_iteration']:8.1f} {c2} {ratio} "
                  f"{block:>24}  {loops}\n")
    out.write("(minivm/C2 and per block (24 rounds): for keccak, whose loop is one round on both sides; C2 "
              "splits and unrolls SHA2.implCompress0's loops, so its widest body is not one iteration: "
              "those are left out)\n")
    return rows


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--extract", action="store_true", help="extract C2's code again through the oracle (QEMU)")
    ap.add_argument("--cpu", action="append", default=[], help="only these llvm-mca CPUs")
    a = ap.parse_args()
    run(a.build, sys.stdout, a.extract, a.cpu)
