"""bench/model.py — the seeds' table, modelled: per CPU llvm-mca knows, cycles per block of C2's
code, C1's, each minivm stub variant and HotSpot's stubs, each as "+N%" over C2's code
(`sh scripts/bench --model [--cpu NAME...]`; docs/PERFORMANCE.md, "The seeds' table, modelled").

Every configuration is measured the same way, with no correction per CPU or per cell: the
instructions one block runs, in order (bench/c2code.py: QEMU's execution log of one call, HotSpot
25's code recorded per QEMU model, minivm's stubs traced live under QEMU), fed whole to llvm-mca
(-iterations=10) for the CPU; cycles_per_block is its total over 10. C2's and C1's code per CPU is
the code HotSpot 25 compiled under the QEMU model standing for it (C2 selects instructions from
the features it detects); the stubs' code does not depend on the model they ran under.

What llvm-mca leaves out (docs/PERFORMANCE.md): store-to-load forwarding (every load is ready as
soon as its address is; --mca-arg=-noalias=false tries the opposite, and does worse), the front
end, branch prediction, caches. --against measures which side of a ratio the model gets wrong:
each configuration's cycles per block at the core's measured clock beside the model's.
"""

import concurrent.futures
import json
import os
import re
import statistics
import subprocess
import sys

import c2code

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (llvm-mca -mcpu, architecture, the QEMU model whose HotSpot code stands for it, minivm's
# -XX:EmulateCPU name or None, seed 000's name or None): the seeds' seven first
CPUS = [
    ("cortex-a53", "aarch64", "cortex-a53", "cortex-a53", "Cortex-A53"),
    ("cortex-a72", "aarch64", "cortex-a72", "cortex-a72", "Cortex-A72"),
    ("neoverse-n1", "aarch64", "neoverse-n1", "neoverse-n1", "Neoverse N1"),
    ("neoverse-v1", "aarch64", "neoverse-v1", "neoverse-v1", "Neoverse V1"),
    ("neoverse-v2", "aarch64", "max", "neoverse-v2", "Neoverse V2"),
    ("apple-m1", "aarch64", "max,sve=off", "apple-m1", "Apple M1"),
    ("apple-m4", "aarch64", "max,sve=off", "apple-m4", "Apple M4"),
    ("cortex-a76", "aarch64", "cortex-a76", "cortex-a76", None),
    ("cortex-a710", "aarch64", "cortex-a710", None, None),
    ("neoverse-n2", "aarch64", "neoverse-n2", None, None),
    ("a64fx", "aarch64", "a64fx", "a64fx", None),
    ("haswell", "x86_64", "Haswell", "haswell", None),
    ("icelake-server", "x86_64", "Icelake-Server", "icelake-server", None),
    ("sapphirerapids", "x86_64", "SapphireRapids", "sapphire-rapids", None),
    ("znver3", "x86_64", "EPYC-Milan", "zen3", None),
    ("znver4", "x86_64", "EPYC-Genoa", "zen4", None),
    ("znver5", "x86_64", "EPYC-Genoa", "zen5", None),
    ("nehalem", "x86_64", "Nehalem", None, None),
]
# (QEMU has no Neoverse V2 or Apple model: max stands for V2, max without SVE for the Apple CPUs,
# which have none)
# HotSpot's stubs need the features of minivm's variant of the same family: a CPU runs one where
# it runs the other
HOTSPOT_NEEDS = {"hotspot-sha3-simd": ("simd",), "hotspot-sha3-gpr": ("gpr",),
                 "hotspot-sha3": ("avx512", "avx512-lanes"),
                 "hotspot-sha1": ("sha1-crypto", "sha1-sha-ni"), "hotspot-sha256": ("sha256-crypto", "sha256-sha-ni"),
                 "hotspot-sha512": ("sha512-crypto", "sha512-avx2"), "hotspot-md5": ("md5-gpr",)}

# Seed 000 (JDK-8359256, MessageDigests.digest SHA3-512, "+N%" over -XX:-UseSHA3Intrinsics, 16 KiB
# and 64 B): the stubs' and UseFPUForSpilling's rows, as the review thread gave them
SEED000 = {
    "cortex-a53": {"gpr": (61, 37), "fpu": (2, None)},
    "cortex-a72": {"gpr": (23, 15), "fpu": (-2, None)},
    "neoverse-n1": {"gpr": (26, 22), "fpu": (-10, None)},
    "neoverse-v1": {"simd": (-39, -38), "gpr": (16, 12), "fpu": (-22, None)},
    "neoverse-v2": {"simd": (-45, -43), "gpr": (13, 9), "fpu": (-8, None)},
    "apple-m1": {"simd": (41, 35), "gpr": (8, 8), "fpu": (-11, None)},
    "apple-m4": {"simd": (21, 26), "gpr": (30, 24), "fpu": (-13, None)},
}
# a seed row -> the configuration that ran it (HotSpot's own stubs, C2 with FP spilling) and
# minivm's counterpart
SEED_ROWS = {"simd": ("hotspot-sha3-simd", "simd"), "gpr": ("hotspot-sha3-gpr", "gpr"),
             "fpu": ("java-C2-fpuspill", None)}
DIGESTS = ("SHA3-512", "SHA-256", "SHA-512", "SHA-1", "MD5")
C2 = "java-C2-nointrinsics"
VARIANT_LINE = re.compile(r"^\s+(\S+)\s+(\S+)\s+(gpr|simd|crypto)\s+(runs|no: \S.*?)\s{2,}(-XX:.*)$")
FAMILY_DIGESTS = {"SHA-3": ["SHA3-512"], "SHA-256": ["SHA-256"], "SHA-512": ["SHA-512"], "SHA-1": ["SHA-1"],
                  "MD5": ["MD5"]}


class ModelError(Exception):
    """A request the model cannot answer (an unknown CPU, a missing tool): one line."""


def cpu_rows(names):
    if not names:
        return CPUS
    known = {c[0]: c for c in CPUS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ModelError(f"--cpu {unknown[0]}: not a CPU the model has (it has {', '.join(known)})")
    return [known[n] for n in names]


def qemu_argv(arch, model):
    return ["qemu-aarch64", "-L", "/", "-cpu", model] if arch == "aarch64" else ["qemu-x86_64", "-cpu", model]


BUILDS = {"aarch64": os.path.join(ROOT, "build-aarch64"), "x86_64": os.path.join(ROOT, "build")}


def cross_build(arch):
    """The build whose stubs are traced for arch (BUILDS: the runner's --build for x86-64)."""
    path = BUILDS[arch]
    if not os.path.exists(os.path.join(path, "minivm")):
        raise ModelError(f"{path}/minivm is not built (sh scripts/bench --model builds build/ and build-aarch64/)")
    return path


def minivm_variants(arch, model, emulate=None):
    """[(configuration name, options, family, runs?)] minivm lists under qemu-ARCH -cpu MODEL."""
    from mdbench.configs import config_name, stub_families
    import types
    argv = qemu_argv(arch, model) + [os.path.join(cross_build(arch), "minivm"), "-XX:+UnlockDiagnosticVMOptions"]
    if emulate:
        argv.append(f"-XX:EmulateCPU={emulate}")
    p = subprocess.run(argv + ["-XX:+PrintStubVariants", "-version"], capture_output=True, text=True)
    if p.returncode != 0:
        raise ModelError(f"{' '.join(argv)} -XX:+PrintStubVariants failed: {p.stderr.strip()[-200:]}")
    stub_families(types.SimpleNamespace(build=BUILDS["x86_64"], qemu_cpu=None))
    # what the CPU has and QEMU's TCG does not run (AVX-512): QEMU names each such feature of the
    # model; a variant that needs only those runs on the CPU itself
    beyond_tcg = set(re.findall(r"TCG doesn't support requested feature: \S+?\.([\w-]+) \[bit", p.stderr))
    out = []
    for line in p.stdout.splitlines():
        m = VARIANT_LINE.match(line)
        if m and m.group(1) in FAMILY_DIGESTS:
            needs = re.match(r"no: needs (.*)", m.group(4))
            runs = m.group(4) == "runs" or bool(
                needs and set(re.findall(r"[\w-]+", needs.group(1))) - {"and"} <= beyond_tcg and beyond_tcg)
            out.append((config_name(m.group(1), m.group(2)), m.group(5).split(), m.group(1), runs))
    return out


def native_variants():
    """[(configuration name, options, family)] of the x86-64 variants this host runs natively:
    those QEMU cannot trace are traced here (bench/stub_trace.c); [] on another architecture."""
    import platform
    if platform.machine() != "x86_64" or not os.access(os.path.join(BUILDS["x86_64"], "bench", "stub_trace"), os.X_OK):
        return []
    from mdbench.configs import config_name
    p = subprocess.run([os.path.join(BUILDS["x86_64"], "minivm"), "-XX:+UnlockDiagnosticVMOptions",
                        "-XX:+PrintStubVariants", "-version"], capture_output=True, text=True)
    out = []
    for line in p.stdout.splitlines():
        m = VARIANT_LINE.match(line)
        if m and m.group(1) in FAMILY_DIGESTS and m.group(4) == "runs":
            out.append((config_name(m.group(1), m.group(2)), m.group(5).split(), m.group(1)))
    return out


def minivm_defaults(arch, model, emulate=None):
    """minivm's SHA-3 default on the CPU from its final flags: "GPR", "SIMD" or "off"."""
    argv = qemu_argv(arch, model) + [os.path.join(cross_build(arch), "minivm"), "-XX:+UnlockDiagnosticVMOptions"]
    if emulate:
        argv.append(f"-XX:EmulateCPU={emulate}")
    p = subprocess.run(argv + ["-XX:+PrintFlagsFinal", "-version"], capture_output=True, text=True)
    flags = dict(re.findall(r"^\s*\S+\s+(\w+)\s+:?=\s+(\S+)", p.stdout, re.M))
    if flags.get("UseSHA3Intrinsics") != "true":
        return "off"
    return "SIMD" if flags.get("UseSIMDForSHA3Intrinsic") == "true" else "GPR"


def hotspot_default(mcpu, arch):
    """HotSpot 25's SHA-3 default on the CPU (vm_version_aarch64.cpp: UseSHA3Intrinsics only on
    Apple's CPUs, UseSIMDForSHA3Intrinsic on; vm_version_x86.cpp: on with AVX-512)."""
    if arch == "aarch64":
        return "SIMD" if mcpu.startswith("apple-") else "off"
    return "AVX-512" if mcpu in ("icelake-server", "sapphirerapids", "znver4", "znver5") else "off"


def traced_configs(arch, cpus, digests, log):
    """{(qemu model or "minivm"): {configuration: {digest: record}}} for the CPUs' rows: HotSpot's
    code from bench/data/c2code/ (recorded), minivm's stubs traced now under QEMU."""
    out = {}
    for _, a, model, _, _ in cpus:
        if a != arch or model in out:
            continue
        rec = c2code.read_record(arch, model)
        if rec is None:
            print(f"model: no record of HotSpot's code under qemu-{arch} -cpu {model.split(',')[0]}: its CPUs are left "
                  f"out (python3 bench/c2code.py --extract {arch} {model.split(',')[0]})", file=log)
            continue
        out[model] = rec["configs"]
    # HotSpot's own stubs: recorded under the model with every feature (bench/c2code.py)
    rec = c2code.read_record(arch, "max" if arch == "aarch64" else "SapphireRapids")
    if rec:
        out["hotspot-stubs"] = {k: v for k, v in rec["configs"].items() if k.startswith("hotspot-")}
    listed = minivm_variants(arch, "max")
    variants = [(n, o, FAMILY_DIGESTS[f]) for n, o, f, runs in listed if runs]
    print(f"model: tracing minivm's {arch} stubs under QEMU ({len(variants)} variants)", file=log)
    out["minivm"] = c2code.minivm_stubs(cross_build(arch), arch, "max",
                                        [(n, o, [d for d in ds if d in digests]) for n, o, ds in variants])
    if arch == "x86_64":
        # the variants QEMU's TCG cannot run (AVX-512): traced on this CPU where it runs them
        beyond = [(n, o, f) for n, o, f, runs in listed if not runs]
        here = {n: (o, f) for n, o, f in native_variants()}
        native = [(n, here[n][0], [d for d in FAMILY_DIGESTS[f] if d in digests]) for n, _, f in beyond if n in here]
        if native:
            print(f"model: tracing minivm's {arch} stubs on this CPU ({len(native)} variants QEMU cannot run: "
                  f"{', '.join(n for n, _, _ in native)})", file=log)
            out["minivm"].update(c2code.minivm_stubs_native(cross_build(arch), native))
        for n, _, f in beyond:
            if n not in here:
                out["minivm"][n] = {d: {"error": "QEMU's TCG cannot run it, nor can this host (bench/stub_trace)"}
                                    for d in FAMILY_DIGESTS[f] if d in digests}
    return out


def check_mca_args(llvm_mca, mca_args):
    """--mca-arg: options llvm-mca takes (each starting with -), tried on an empty input first."""
    for a in mca_args:
        if not a.startswith("-"):
            raise ModelError(f"--mca-arg {a}: not an llvm-mca option (write it as --mca-arg=-noalias=false)")
    if mca_args and llvm_mca:
        p = subprocess.run([llvm_mca, "-mtriple=x86_64", *mca_args], input="nop\n", capture_output=True, text=True)
        if p.returncode != 0:
            why = (p.stderr.strip().splitlines() or ["failed"])[0]
            raise ModelError(f"--mca-arg {' '.join(mca_args)}: llvm-mca refuses it: {why}")


def run(cpu_names=(), digests=DIGESTS, out=sys.stdout, log=sys.stderr, build=None, mca_args=()):
    """The model's table; returns its rows (one per CPU, digest and configuration). build: the
    x86-64 build (default build/); mca_args: further llvm-mca options, the same for every CPU
    (the method's variants: -noalias=false makes every load wait for the stores before it)."""
    if build:
        BUILDS["x86_64"] = build
    cpus = cpu_rows(cpu_names)
    llvm_mc, llvm_mca = c2code.tool("llvm-mc-19", "llvm-mc"), c2code.tool("llvm-mca-19", "llvm-mca")
    if not llvm_mc or not llvm_mca:
        raise ModelError("llvm-mc and llvm-mca are not installed (sh scripts/bootstrap bench)")
    check_mca_args(llvm_mca, mca_args)
    streams, traced = {}, {}
    for arch in ("aarch64", "x86_64"):
        if any(c[1] == arch for c in cpus):
            traced[arch] = traced_configs(arch, cpus, digests, log)
    # the work: (cpu, digest, configuration, stream)
    jobs = []
    for mcpu, arch, model, emulate, _ in cpus:
        if model not in traced[arch]:
            continue
        runs = {n for n, _, _, r in minivm_variants(arch, model, emulate) if r}
        sources = [(traced[arch][model], None), (traced[arch].get("hotspot-stubs", {}), None),
                   (traced[arch]["minivm"], runs)]
        for by_config, allowed in sources:
            for config, by_digest in by_config.items():
                if allowed is not None and config not in allowed:
                    continue
                if by_config is traced[arch][model] and config.startswith("hotspot-"):
                    continue  # HotSpot's stubs come from "hotspot-stubs", once
                if config.startswith("hotspot-") and not set(HOTSPOT_NEEDS.get(config, ())) & runs:
                    continue  # a stub whose instructions the CPU lacks
                for d in digests:
                    entry = by_digest.get(d)
                    if entry is None:
                        continue
                    key = (arch, model if allowed is None else "stub", config, d)
                    if "error" in entry:
                        jobs.append((mcpu, arch, d, config, None, entry["error"]))
                        continue
                    if key not in streams:
                        try:
                            streams[key] = c2code.block_stream(arch, entry, llvm_mc)
                        except ValueError as e:
                            streams[key] = str(e)
                    if isinstance(streams[key], str):
                        jobs.append((mcpu, arch, d, config, None, streams[key]))
                    else:
                        jobs.append((mcpu, arch, d, config, streams[key], None))

    def one(job):
        mcpu, arch, d, config, stream, error = job
        if stream is None:
            return dict(cpu=mcpu, arch=arch, digest=d, configuration=config, cycles_per_block=None, error=error)
        try:
            cycles = c2code.mca_cycles(arch, stream, mcpu, llvm_mca, extra=mca_args)
        except RuntimeError as e:
            return dict(cpu=mcpu, arch=arch, digest=d, configuration=config, cycles_per_block=None, error=str(e))
        return dict(c2code.counts(arch, stream), cpu=mcpu, arch=arch, digest=d, configuration=config,
                    cycles_per_block=cycles)
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        rows = list(pool.map(one, jobs))
    for r in rows:
        c2 = next((x["cycles_per_block"] for x in rows if x["cpu"] == r["cpu"] and x["digest"] == r["digest"]
                   and x["configuration"] == C2), None)
        r["vs_c2_percent"] = round((c2 / r["cycles_per_block"] - 1) * 100, 1) if c2 and r["cycles_per_block"] \
            else None
    print_table(rows, cpus, digests, out)
    return rows


def order(config):
    """C2, its FP spilling, C1, then minivm's variants, then HotSpot's stubs."""
    fixed = {C2: 0, "java-C2-fpuspill": 1, "java-C1": 2}
    return (fixed.get(config, 4 if config.startswith("hotspot-") else 3), config)


def print_table(rows, cpus, digests, out):
    print("The seeds' table, modelled: llvm-mca (llvm-19) cycles per block, each configuration's \"+N%\" over "
          "C2's code\n(java-C2-nointrinsics; positive: faster). The instructions a block runs, recorded under QEMU "
          "(bench/c2code.py); no correction per CPU.", file=out)
    for mcpu, arch, model, emulate, seed in cpus:
        mine = [r for r in rows if r["cpu"] == mcpu]
        if not mine:
            continue
        where = f"HotSpot's code from qemu-{arch} -cpu {model.split(',')[0]}" + (f"; seed 000's {seed}" if seed else "")
        print(f"\n{mcpu} ({where})", file=out)
        print(f"  {'digest':<9} {'configuration':<22} {'cycles/block':>12} {'vs C2':>7} {'insns':>7} {'reload':>6} "
              f"{'spill':>6} {'gp-fp':>6}", file=out)
        for d in digests:
            for r in sorted((r for r in mine if r["digest"] == d), key=lambda r: order(r["configuration"])):
                if r["cycles_per_block"] is None:
                    print(f"  {d:<9} {r['configuration']:<22} {'-':>12}  {r['error'][:70]}", file=out)
                    continue
                vs = f"{round(r['vs_c2_percent']) + 0:+d}%" if r["vs_c2_percent"] is not None else "-"
                print(f"  {d:<9} {r['configuration']:<22} {r['cycles_per_block']:>12,.0f} {vs:>7} "
                      f"{r['instructions']:>7,} {r.get('stack_loads', 0):>6,} {r.get('stack_stores', 0):>6,} "
                      f"{r.get('gp_fp_moves', 0):>6,}", file=out)
        sha3 = [r for r in mine if r["digest"] == "SHA3-512" and r["cycles_per_block"]
                and (r["configuration"] == C2 or not r["configuration"].startswith(("java-", "hotspot-")))]
        if sha3 and any(r["configuration"] == C2 for r in sha3):
            best = min(sha3, key=lambda r: r["cycles_per_block"])
            implied = "off (C2's code is fastest)" if best["configuration"] == C2 else \
                f"{best['configuration']} ({best['vs_c2_percent']:+.0f}% over C2's code)"
            print(f"  SHA-3 default implied: {implied}; HotSpot 25's: {hotspot_default(mcpu, arch)}; "
                  f"minivm's: {minivm_defaults(arch, model, emulate)}", file=out)


def accuracy(rows, out=sys.stdout):
    """Seed 000's measured SHA3-512 16 KiB cells beside the prediction for the configuration that
    ran them (HotSpot's stubs, C2 with FP spilling): the winner against C2's code right or wrong,
    the error in points, and minivm's own stub's prediction beside; returns (cells right, cells,
    median error)."""
    print("\nAgainst seed 000 (JDK-8359256, SHA3-512 16 KiB, \"+N%\" over C2's code): predicted beside measured",
          file=out)
    print(f"  {'cpu':<12} {'row':<5} {'measured':>9} {'predicted':>10} {'winner':>7} {'error':>7}   minivm's stub",
          file=out)
    right = total = 0
    errors = []

    def predicted(mcpu, config):
        r = next((r for r in rows if r["cpu"] == mcpu and r["digest"] == "SHA3-512"
                  and r["configuration"] == config and r.get("vs_c2_percent") is not None), None)
        return r["vs_c2_percent"] if r else None
    for mcpu, cells in SEED000.items():
        for row, (measured, _) in cells.items():
            config, mine = SEED_ROWS[row]
            p = predicted(mcpu, config)
            m = predicted(mcpu, mine) if mine else None
            theirs = f"{mine} {m:+.0f}%" if m is not None else ""
            if p is None:
                print(f"  {mcpu:<12} {row:<5} {measured:>+8}% {'-':>10} {'':>7} {'':>7}   {theirs}", file=out)
                continue
            ok = (p > 0) == (measured > 0)
            right += ok
            total += 1
            errors.append(abs(p - measured))
            print(f"  {mcpu:<12} {row:<5} {measured:>+8}% {p:>+9.0f}% {'right' if ok else 'WRONG':>7} "
                  f"{p - measured:>+6.0f}   {theirs}", file=out)
    med = statistics.median(errors) if errors else float("nan")
    print(f"  {right} of {total} cells with the right winner; median error {med:.0f} points", file=out)
    return right, total, med


# the runner's digests for the model's (SHA3-256's block is SHA3-512's permutation with a wider
# absorb: the runner's SHA3-512 is the seeds')
# bytes a block of each digest takes (its rate for SHA-3)
BLOCK_BYTES = {"SHA3-512": 72, "SHA3-256": 136, "SHA-256": 64, "SHA-512": 128, "SHA-1": 64, "MD5": 64}


def blocks_per_digest(digest, length):
    """Blocks one digest of length bytes compresses: the full ones and the padded last one."""
    return length // BLOCK_BYTES[digest] + 1


def run_clock(doc, build):
    """(GHz, where it comes from) for a runner JSON's cells: the core clock its run measured, else
    the clock measured now when this host is the JSON's CPU (bench/core_clock), else (None, why)."""
    machine = doc[0].get("minivmMachine") or {}
    if machine.get("clockGHz") and str(machine.get("clockSource", "")).startswith("measured"):
        return machine["clockGHz"], f"{machine['clockGHz']:.2f} GHz, measured during the run"
    from mdbench.common import cpu_name, measured_clock_ghz
    if machine.get("cpu") and machine.get("cpu") == cpu_name():
        ghz = measured_clock_ghz(build or BUILDS["x86_64"])
        if ghz:
            return ghz, f"{ghz:.2f} GHz, measured now on this host (the run recorded no measured clock)"
    return None, "no measured clock: the run recorded none and this host is another CPU"


def against_host(rows, results, mcpu, out=sys.stdout, length="16384", build=None):
    """The model's cells for mcpu beside a runner JSON measured on that CPU (`sh scripts/bench
    --seeds`): each configuration's "+N%" over java-C2-nointrinsics at the length, predicted and
    measured, the winner right or wrong; then, at the core's measured clock, each configuration's
    cycles per block measured beside the model's, which says which side of a ratio the model gets
    wrong. Returns (right, cells, median error)."""
    with open(results) as f:
        doc = json.load(f)
    score = {}
    for d in doc:
        p = d.get("params", {})
        if p.get("length") == length:
            score[(p.get("config"), p.get("digesterName"))] = d["primaryMetric"]["score"]
    print(f"\nAgainst this host ({mcpu}; {os.path.basename(results)}, {int(length) // 1024} KiB, \"+N%\" over "
          "C2's code): predicted beside measured", file=out)
    print(f"  {'digest':<9} {'configuration':<22} {'measured':>9} {'predicted':>10} {'winner':>7} {'error':>7}", file=out)
    right = total = 0
    errors = []
    mine = sorted((r for r in rows if r["cpu"] == mcpu),
                  key=lambda r: (DIGESTS.index(r["digest"]), order(r["configuration"])))

    def runner_name(config):
        # HotSpot's SHA-3 stubs are the runner's java-C2-sha3-* (hotspot-sha3-simd: java-C2-sha3-simd),
        # its SHA-1, SHA-2 and MD5 stubs what java-C2 (every intrinsic on) runs
        if config.startswith("hotspot-sha3-"):
            return config.replace("hotspot-sha3-", "java-C2-sha3-")
        return "java-C2" if config.startswith("hotspot-") else config
    for r in mine:
        if r["configuration"] == C2 or r.get("vs_c2_percent") is None:
            continue
        m, c2 = score.get((runner_name(r["configuration"]), r["digest"])), score.get((C2, r["digest"]))
        if not m or not c2:
            continue
        measured = (m / c2 - 1) * 100
        p = r["vs_c2_percent"]
        ok = (p > 0) == (measured > 0)
        right += ok
        total += 1
        errors.append(abs(p - measured))
        print(f"  {r['digest']:<9} {r['configuration']:<22} {measured:>+8.0f}% {p:>+9.0f}% "
              f"{'right' if ok else 'WRONG':>7} {p - measured:>+6.0f}", file=out)
    if not total:
        raise ValueError(f"no {int(length) // 1024} KiB cell measured beside {C2} for a configuration the model has")
    med = statistics.median(errors)
    print(f"  {right} of {total} cells with the right winner; median error {med:.0f} points", file=out)

    ghz, clock = run_clock(doc, build)
    print(f"\nCycles per block, measured (ops/ms at the core's clock: {clock}) beside the model's; "
          "model / measured above 1: the model makes that code slower than it runs", file=out)
    if not ghz:
        return right, total, med
    print(f"  {'digest':<9} {'configuration':<22} {'measured':>9} {'model':>9} {'model/measured':>15}", file=out)
    side = {"C2's code": [], "C1's code": [], "minivm's stubs": [], "HotSpot's stubs": []}

    def kind(config):
        return "C2's code" if config.startswith("java-C2") else "C1's code" if config == "java-C1" else \
            "HotSpot's stubs" if config.startswith("hotspot-") else "minivm's stubs"
    for r in mine:
        m = score.get((runner_name(r["configuration"]), r["digest"]))
        if not m or not r.get("cycles_per_block"):
            continue
        cycles = ghz * 1e6 / (m * blocks_per_digest(r["digest"], int(length)))
        ratio = r["cycles_per_block"] / cycles
        r["measured_cycles_per_block"] = round(cycles, 1)
        side[kind(r["configuration"])].append(ratio)
        print(f"  {r['digest']:<9} {r['configuration']:<22} {cycles:>9,.0f} {r['cycles_per_block']:>9,.0f} "
              f"{ratio:>15.2f}", file=out)
    print("  model / measured: " + "; ".join(f"{k} {min(v):.2f}-{max(v):.2f} (median {statistics.median(v):.2f})"
                                              for k, v in side.items() if v), file=out)
    print("  (a stub's \"+N%\" is C2's cycles over the stub's: a model slower than C2's code runs and faster "
          "than the stub runs overstates the stub twice)", file=out)
    return right, total, med


def write(rows, path, fmt):
    """-rf csv|json -rff FILE: one row per CPU, digest and configuration."""
    cols = ["cpu", "arch", "digest", "configuration", "cycles_per_block", "vs_c2_percent", "measured_cycles_per_block",
            "instructions", "loads",
            "stores", "stack_loads", "stack_stores", "gp_fp_moves", "calls", "error"]
    with open(path, "w") as f:
        if fmt == "text":
            cpus = [c for c in CPUS if any(r["cpu"] == c[0] for r in rows)]
            print_table(rows, cpus, [d for d in DIGESTS if any(r["digest"] == d for r in rows)], f)
        elif fmt == "json":
            json.dump([{k: r.get(k) for k in cols} for r in rows], f, indent=1)
            f.write("\n")
        else:
            import csv
            w = csv.writer(f)
            w.writerow(cols)
            for r in rows:
                w.writerow(["" if r.get(k) is None else r.get(k) for k in cols])


def chart(rows, stem):
    """One figure per digest (PNG and SVG, stem-DIGEST.png/.svg): a panel per CPU, a bar per
    configuration, its "+N%" over C2's code (C2 at 0%), HotSpot's code and stubs grey, minivm's
    stubs blue; returns the paths written."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.rcParams["svg.fonttype"] = "none"  # text stays text in the SVG
    paths = []
    for d in DIGESTS:
        mine = [r for r in rows if r["digest"] == d and r.get("vs_c2_percent") is not None]
        cpus = [c[0] for c in CPUS if any(r["cpu"] == c[0] for r in mine)]
        if not cpus:
            continue
        cols = min(3, len(cpus))
        nrows = (len(cpus) + cols - 1) // cols
        n = max(sum(1 for r in mine if r["cpu"] == c) for c in cpus)
        fig, axes = plt.subplots(nrows, cols, figsize=(5.2 * cols, (0.9 + 0.22 * n) * nrows + 1.2), squeeze=False)
        for ax, cpu in zip([a for r in axes for a in r], cpus):
            here = sorted((r for r in mine if r["cpu"] == cpu), key=lambda r: order(r["configuration"]))
            y = list(range(len(here)))[::-1]
            for yi, r in zip(y, here):
                hotspot = r["configuration"].startswith(("java-", "hotspot-"))
                ax.barh(yi, r["vs_c2_percent"], color="#9e9e9e" if hotspot else "#1f77b4")
                ax.text(r["vs_c2_percent"], yi, f" {r['vs_c2_percent']:+.0f}% ", va="center", fontsize=7,
                        ha="left" if r["vs_c2_percent"] >= 0 else "right")
            ax.axvline(0, color="black", linewidth=0.8)
            # seed 000's measurement of the configuration that ran it, beside the prediction
            for row, (measured, _) in (SEED000.get(cpu, {}).items() if d == "SHA3-512" else ()):
                at = [yi for yi, r in zip(y, here) if r["configuration"] == SEED_ROWS[row][0]]
                if at:
                    ax.plot(measured, at[0], "D", color="black", markersize=4)
            ax.set_yticks(y)
            ax.set_yticklabels([r["configuration"] for r in here], fontsize=7.5)
            lo = min(r["vs_c2_percent"] for r in here)
            hi = max(r["vs_c2_percent"] for r in here)
            ax.set_xlim(min(lo, 0) * 1.35 - 10, max(hi, 0) * 1.35 + 10)
            ax.set_title(cpu, fontsize=9)
            ax.tick_params(axis="x", labelsize=7)
        for ax in [a for r in axes for a in r][len(cpus):]:
            ax.axis("off")
        fig.suptitle(f"{d}, modelled (llvm-mca, llvm-19): \"+N%\" over C2's code per block "
                     "(java-C2-nointrinsics at 0%; grey: HotSpot 25's code and stubs, blue: minivm's stubs"
                     + ("; black diamond: seed 000's measurement)" if d == "SHA3-512" else ")"),
                     fontsize=9)
        fig.tight_layout(rect=(0, 0, 1, 0.96))
        for ext in ("png", "svg"):
            path = f"{stem}-{d}.{ext}"
            fig.savefig(path, dpi=100)
            paths.append(path)
        plt.close(fig)
    return paths
