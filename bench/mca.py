"""bench/mca.py — the per-CPU static model (`sh scripts/bench --mca`): cycles per
Keccak round of every SHA-3 stub variant from llvm-mca 19's scheduling models,
per permutation and per byte of SHA3-256, beside what was measured on that CPU
(the JDK-8359256 thread's MessageDigests runs for AArch64, this project's for
x86-64) and beside minivm's ergonomic default: which SHA-3 stub should be the
default on this CPU?

One round of each variant is the generator's own loop body
(build/bench/sha3_round_words, a64_emit_sha3_round / x64_emit_sha3_round),
disassembled by llvm-mc and fed to llvm-mca. llvm-mca assumes every load is
ready (no store-to-load forwarding), so stubs that keep the state in memory
(AArch64 GPR-spill, x86-64 GPR and AVX2) look better than they run.
"""

import os
import re
import shutil
import subprocess

ROUNDS = 24
RATE_256 = 136  # SHA3-256's block: cycles/byte = cycles per permutation / 136

# (llvm-mca -mcpu, minivm's -XX:EmulateCPU name): cortex-a72 uses LLVM's cortex-a57 model,
# Emerald Rapids Sapphire Rapids', Sierra Forest LLVM's sierraforest (Crestmont) model
AARCH64_MODELS = [("cortex-a53", "cortex-a53"), ("cortex-a57", "cortex-a72"), ("neoverse-n1", "neoverse-n1"),
                  ("neoverse-v1", "neoverse-v1"), ("neoverse-v2", "neoverse-v2"), ("apple-m1", "apple-m1"),
                  ("apple-m4", "apple-m4"), ("a64fx", "a64fx")]
X86_MODELS = [("haswell", "haswell"), ("skylake-avx512", "skylake-avx512"), ("icelake-server", "icelake-server"),
              ("sapphirerapids", "sapphire-rapids"), ("sapphirerapids", "emerald-rapids"),
              ("sierraforest", "sierra-forest"), ("znver3", "zen3"), ("znver4", "zen4"), ("znver5", "zen5")]


# What was measured: the fastest stub and the figures (MessageDigests.digest SHA3-512 at
# 16 KiB against C2 without the intrinsic), from the JDK-8359256 review thread
# (hotspot-compiler-dev, October 2025), and this project's x86-64 run (docs/PERFORMANCE.md).
MEASURED = {
    "cortex-a53": ("gpr", "no sha3; GPR +61% (JDK-8359256)"),
    "cortex-a72": ("gpr", "no sha3; GPR +23% (JDK-8359256)"),
    "neoverse-n1": ("gpr", "no sha3; GPR +26% (JDK-8359256)"),
    "neoverse-v1": ("gpr", "SIMD -39%, GPR +16% (JDK-8359256)"),
    "neoverse-v2": ("gpr", "SIMD -45%, GPR +13% (JDK-8359256)"),
    "apple-m1": ("simd", "SIMD +41%, GPR +8% (JDK-8359256)"),
    "apple-m4": ("gpr", "SIMD +21%, GPR +30% (JDK-8359256)"),
    "emerald-rapids": ("avx512-lanes", "lanes ~ GPR idle, ahead loaded; rows, AVX2 behind (PERFORMANCE.md)"),
}


def _tool(*names):
    for n in names:
        path = shutil.which(n)
        if path:
            return path
    return None


def variants_of(words):
    """The SHA-3 variants of every architecture's table (sha3_round_words --list): per architecture,
    (name, the features it executes, its settings as -XX: options), best first."""
    out = subprocess.run([words, "--list"], capture_output=True, text=True, check=True).stdout
    table = {}
    for line in out.splitlines():
        arch, name, features, *options = line.split()
        table.setdefault(arch, []).append((name, [] if features == "-" else features.split(","), options))
    return table


def round_asm(words, variant, arch, tmp):
    """The variant's round as assembly text (llvm-mc's disassembly of the generator's bytes)."""
    raw = subprocess.run([words, arch, variant], capture_output=True, text=True, check=True).stdout
    triple = ["-triple=aarch64", "-mattr=+sha3"] if arch == "aarch64" else ["-triple=x86_64"]
    asm = subprocess.run(["llvm-mc", "--disassemble"] + triple, input=raw, capture_output=True, text=True,
                         check=True).stdout
    path = os.path.join(tmp, variant + ".s")
    with open(path, "w") as f:
        f.write(asm)
    return path


def cycles(mca, arch, cpu, path):
    """llvm-mca's cycles per iteration (one round), or None without a model."""
    triple = ["-mtriple=aarch64", "-mattr=+sha3"] if arch == "aarch64" else ["-mtriple=x86_64"]
    r = subprocess.run([mca] + triple + [f"-mcpu={cpu}", "-iterations=200", path], capture_output=True, text=True)
    m = re.search(r"^Total Cycles:\s+(\d+)", r.stdout, re.M)
    return int(m.group(1)) / 200.0 if r.returncode == 0 and m else None


def vm_query(minivm, name, *extra):
    """What minivm's ergonomics give the catalog CPU: its features and the SHA-3 stub the flags pick,
    as the VM itself says: the stub -XX:+PrintStubCode lists, or, where this host lacks it, the
    one its fall-back warning names ("The SHA-3 avx512 stub needs ..."); "interpreted" for none."""
    r = subprocess.run([minivm, "-XX:+UnlockDiagnosticVMOptions", f"-XX:EmulateCPU={name}", *extra,
                        "-XX:+PrintCPUFeatures", "-XX:+PrintStubCode", "-version"], capture_output=True, text=True)
    asked = re.search(r"The SHA-3 (\S+) stub needs", r.stderr)
    listed = re.search(r"^StubRoutines::sha3_implCompress \(([^)]+)\)", r.stdout, re.M)
    return r.stdout, asked.group(1) if asked else listed.group(1) if listed else "interpreted"


def table(arch, build, tmp):
    """Rows for one architecture: a dict per CPU model."""
    words = os.path.join(build, "bench", "sha3_round_words")
    minivm = os.path.join(build, "minivm")
    mca = _tool("llvm-mca-19")
    if not mca:
        raise SystemExit("bench --mca: llvm-mca-19 not found (sh scripts/bootstrap bench installs llvm-19)")
    if not _tool("llvm-mc"):
        raise SystemExit("bench --mca: llvm-mc not found")
    variants = variants_of(words)[arch]
    paths = {v: round_asm(words, v, arch, tmp) for v, _, _ in variants}
    rows = []
    for cpu, name in (AARCH64_MODELS if arch == "aarch64" else X86_MODELS):
        features, default = vm_query(minivm, name)
        _, plus = vm_query(minivm, name, "-XX:+UseSHA3Intrinsics")
        cpu_line = next((l for l in features.splitlines() if l.startswith("CPU: ")), "")
        feats = {w.strip() for w in cpu_line.split(",")}
        row = {"mcpu": cpu, "cpu": name, "cycles": {}, "runs": {}}
        for v, need, _ in variants:
            row["runs"][v] = all(f in feats for f in need)
            row["cycles"][v] = cycles(mca, arch, cpu, paths[v]) if row["runs"][v] else None
        if all(c is None for c in row["cycles"].values()):
            continue
        best = min((c, v) for v, c in row["cycles"].items() if c is not None)
        row["fastest"], row["best_cycles"] = best[1], best[0]
        row["c_per_byte"] = best[0] * ROUNDS / RATE_256
        row["default"], row["plus"] = default, plus
        row["measured"] = MEASURED.get(name)
        rows.append(row)
    return variants, rows


def print_table(arch, variants, rows, out):
    names = [v for v, _, _ in variants]
    print(f"\nllvm-mca 19, one SHA-3 round of each {arch} stub variant: cycles a round ('-': the CPU lacks it); "
          f"the best x {ROUNDS} = a permutation, / {RATE_256} = SHA3-256 cycles per byte", file=out)
    head = f"{'-mcpu':<15} {'minivm CPU':<16}" + "".join(f" {n:>12}" for n in names)
    head += f" {'perm':>6} {'c/B':>5}  {'fastest':<12} {'measured':<12} {'default':<12} {'+UseSHA3':<12} measured figures"
    print(head, file=out)
    for r in rows:
        line = f"{r['mcpu']:<15} {r['cpu']:<16}"
        for n in names:
            c = r["cycles"][n]
            line += f" {'-' if c is None else f'{c:.1f}':>12}"
        m = r["measured"]
        line += f" {r['best_cycles'] * ROUNDS:>6.0f} {r['c_per_byte']:>5.2f}  {r['fastest']:<12} "
        line += f"{(m[0] if m else '-'):<12} {r['default']:<12} {r['plus']:<12} {m[1] if m else ''}"
        print(line, file=out)
    agree = [r for r in rows if r["measured"]]
    same = [r for r in agree if r["measured"][0] == r["fastest"]]
    print(f"The model's fastest is the measured one on {len(same)} of the {len(agree)} CPUs with measurements"
          + (f" (not on {', '.join(r['cpu'] for r in agree if r not in same)})" if len(same) < len(agree) else ""),
          file=out)


def run(build, out):
    import tempfile
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for arch in ("aarch64", "x86_64"):
            variants, rows = table(arch, build, tmp)
            print_table(arch, variants, rows, out)
            results[arch] = rows
    return results
