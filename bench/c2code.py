"""bench/c2code.py — HotSpot 25's own compiled code for the digests' compression methods, per CPU
model and per block (sh scripts/bench --c2-code; docs/PERFORMANCE.md, "C2's code per CPU").

What C2 (and C1) make of the JDK's Java for SHA3.keccak and SHA2/SHA5/SHA/MD5.implCompress0 with
the intrinsic off depends on the CPU: C2 selects instructions from the features it detects, and
UseFPUForSpilling moves its spills from the stack to FP/SIMD registers. For each CPU model of the
project's QEMU matrices (cross/qemu-aarch64-models.txt, cross/qemu-x86_64-models.txt; HotSpot 25
under qemu-aarch64 or qemu-x86_64 -cpu MODEL, scripts/oracle) and each configuration

    java-C2-nointrinsics  -XX:TieredStopAtLevel=4 -XX:-UseFPUForSpilling   C2's code
    java-C2-fpuspill      -XX:TieredStopAtLevel=4 -XX:+UseFPUForSpilling
    java-C1               -XX:TieredStopAtLevel=1                          C1's code

(the runner's configurations of the same names, every MD5/SHA intrinsic off; with
-XX:+UseSerialGC, CONFIGS says why):

1. HotSpot runs bench/Blocks.java (MessageDigest.update one block at a time, -Xbatch) and prints
   the methods' compiled code (-XX:CompileCommand=print; without hsdis, the code's bytes);
2. the same run again, under setarch -R, with QEMU's execution log (QEMU_LOG=in_asm,exec,nochain)
   filtered to the neighbourhood of the first run's code (QEMU_DFILTER: the code moves by a few
   hundred bytes between runs, so a window around it) and printing the code again: the log's
   translated blocks inside this run's own code, and their executions in order, give the
   instructions each call ran, in order. One call of the digest's first method is one block;
   its calls of the others (SHA3.implCompress0 calls keccak) belong to it. The call recorded is
   the most frequent sequence among the calls after the last compilation.
3. The record (bench/data/c2code/ARCH-MODEL.json, so that a host without HotSpot or QEMU has it):
   per configuration and digest, the bytes of each translated block the call ran and the call as
   a list of (block, instructions).

minivm's own stubs are traced the same way under QEMU (minivm_stubs), live, not recorded; those
QEMU's TCG cannot run (the AVX-512 ones) are traced on the CPU itself where it runs them
(minivm_stubs_native: bench/stub_trace.c's breakpoint and single steps), in the same format.

From a record alone: llvm-mc decodes the call's instructions; per block it counts instructions,
loads, stores, stack loads and stores (C2's reloads and spills), moves between general and FP/SIMD
registers (UseFPUForSpilling's spills) and calls out of the code; llvm-mca gives the cycles of
that instruction stream on a CPU model (cycles_per_block).
"""

import collections
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "bench", "data", "c2code")

# digest -> (its block in bytes, the intrinsic flag, the methods whose code a block runs: the
# one called once a block first)
DIGESTS = {
    "SHA3-512": (72, "UseSHA3Intrinsics", ("sun.security.provider.SHA3::implCompress0",
                                           "sun.security.provider.SHA3::keccak")),
    "SHA-256": (64, "UseSHA256Intrinsics", ("sun.security.provider.SHA2::implCompress0",)),
    "SHA-512": (128, "UseSHA512Intrinsics", ("sun.security.provider.SHA5::implCompress0",)),
    "SHA-1": (64, "UseSHA1Intrinsics", ("sun.security.provider.SHA::implCompress0",)),
    "MD5": (64, "UseMD5Intrinsics", ("sun.security.provider.MD5::implCompress0",)),
}
# configuration -> (HotSpot options, the compiler whose code is taken)
# -XX:+UseSerialGC in all three: HotSpot 25's C2 dies on AArch64 with +UseFPUForSpilling in G1's
# barrier stubs (JDK-8359378, fixed in JDK 26); the compression methods store no references, so
# the collector hardly touches their code (C2's SHA3-512 block under neoverse-n1: 4,383
# instructions with G1, 4,369 with Serial, the same 465 stack reloads)
CONFIGS = {
    "java-C2-nointrinsics": (["-XX:TieredStopAtLevel=4", "-XX:-UseFPUForSpilling", "-XX:+UseSerialGC"], "c2"),
    "java-C2-fpuspill": (["-XX:TieredStopAtLevel=4", "-XX:+UseFPUForSpilling", "-XX:+UseSerialGC"], "c2"),
    "java-C1": (["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"], "c1"),
}
BLOCKS_RUN = 6000  # blocks per digest: past C2's tiered thresholds (Tier4) with margin
WINDOW = 1 << 13   # the execution log's window on either side of the first run's code (it moves by less)

TRIPLE = {"aarch64": ["-triple=aarch64", "-mattr=+sha3,+crc,+lse,+fp-armv8,+neon,+sve,+sve2"],
          "x86_64": ["-triple=x86_64", "-output-asm-variant=1",
                     "-mattr=+avx2,+bmi,+bmi2,+sha,+avx512f,+avx512bw,+avx512vl,+avx512dq"]}


class ExtractError(Exception):
    """An extraction that cannot go on: what failed, for one line."""


# --- HotSpot's print ------------------------------------------------------------------------------

# "Compiled method (c2) 5124  147  %s!b n 4  sun.security.provider.SHA3::keccak @ 27 (1275 bytes)":
# the flags column (%: OSR, s, !, b, n) then the tier
HEADER = re.compile(r"^Compiled method \((c1|c2)\)\s+\d+\s+(\d+)\s+([%sbn!]*)\s*\d*\s+(\S+::\S+)")
RANGE = re.compile(r"^ main code\s+\[0x([0-9a-f]+),0x([0-9a-f]+)\]")
CODE_LINE = re.compile(r"^\s+0x([0-9a-f]+): ((?:[0-9a-f]{4}(?: [0-9a-f]{4})*(?: \| )?)+)\s*$")


class Nmethod:
    """One compilation as HotSpot printed it: compiler, compile id, OSR or not, the method, its
    main code's bounds, entry points and bytes (address -> byte)."""

    def __init__(self, compiler, compile_id, osr, method):
        self.compiler, self.compile_id, self.osr, self.method = compiler, int(compile_id), osr, method
        self.start = self.end = None
        self.entries = []
        self.bytes = {}


def parse_print(text):
    """The compilations in HotSpot's -XX:CompileCommand=print output (no hsdis), in order."""
    out, cur, entry_next, in_main = [], None, False, False
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            cur = Nmethod(m.group(1), m.group(2), "%" in m.group(3), m.group(4))
            out.append(cur)
            in_main = False
            continue
        if line.startswith("Compiled method"):  # another compiler's or a form not read: not ours
            cur, in_main = None, False
            continue
        if cur is None:
            continue
        m = RANGE.match(line)
        if m:
            cur.start, cur.end = int(m.group(1), 16), int(m.group(2), 16)
            continue
        if line.startswith("[Entry Point]") or line.startswith("[Verified Entry Point]"):
            entry_next, in_main = True, True
            continue
        if line.startswith("[Stub Code]") or line.startswith("[Exception Handler]") or \
                line.startswith("[Deopt Handler Code]"):
            in_main = False
            continue
        m = CODE_LINE.match(line)
        if m and in_main:
            at = int(m.group(1), 16)
            if entry_next:
                cur.entries.append(at)
                entry_next = False
            # "hhhh hhhh" groups are bytes in memory order, two a group
            for group in m.group(2).split(" | "):
                for half in group.split():
                    for k in range(0, len(half), 2):
                        cur.bytes[at] = int(half[k:k + 2], 16)
                        at += 1
    return out


STUB_HEADER = re.compile(r"^StubRoutines::(\w+)(?: \(([\w-]+)\))? \[0x([0-9a-f]+), 0x([0-9a-f]+)\] \((\d+) bytes\)")
MINIVM_STUB_LINE = re.compile(r"^0x([0-9a-f]+):\s+([0-9a-f]{8}|(?:[0-9a-f]{2} )*[0-9a-f]{2})(?:\s{2,}|$)")


def parse_stubs(text):
    """{stub name: Nmethod (compiler "stub")} of a -XX:+PrintStubCode listing: HotSpot's (absolute
    addresses, [MachCode] byte groups) or minivm's (offsets, then the word or the bytes)."""
    out, cur, machcode = {}, None, False
    for line in text.splitlines():
        m = STUB_HEADER.match(line)
        if m:
            cur = Nmethod("stub", 0, False, m.group(1))
            cur.variant = m.group(2)
            cur.start, cur.end = int(m.group(3), 16), int(m.group(4), 16)
            cur.entries = [cur.start]
            out[m.group(1)] = cur
            machcode = False
            continue
        if cur is None:
            continue
        if line.startswith("[MachCode]"):
            machcode = True
            continue
        if line.startswith("[/MachCode]"):
            machcode = False
            continue
        m = CODE_LINE.match(line)
        if m and machcode:
            at = int(m.group(1), 16)
            for group in m.group(2).split(" | "):
                for half in group.split():
                    for k in range(0, len(half), 2):
                        cur.bytes[at] = int(half[k:k + 2], 16)
                        at += 1
            continue
        m = MINIVM_STUB_LINE.match(line)
        if m:
            at = cur.start + int(m.group(1), 16)
            raw = bytes.fromhex(m.group(2)) if " " in m.group(2) or len(m.group(2)) == 2 else \
                int(m.group(2), 16).to_bytes(4, "little")
            for k, byte in enumerate(raw):
                cur.bytes[at + k] = byte
    return out


def final_nmethod(nms, method, compiler):
    """The method's last standard (not OSR) compilation by the compiler, or None."""
    found = [n for n in nms if n.method == method and n.compiler == compiler and not n.osr and n.start is not None]
    return max(found, key=lambda n: n.compile_id) if found else None


# --- QEMU's execution log -------------------------------------------------------------------------

HEX = set("0123456789abcdef")


def parse_log(lines, code=None):
    """(translated blocks {pc: [instruction addresses]}, executions [pc, ...] in order) of a QEMU
    -d in_asm,exec,nochain log; a block translated again replaces its instructions. code, a dict,
    gets the bytes the log lists ({address: byte}): the code as QEMU read it."""
    blocks, runs, cur = {}, [], None
    for line in lines:
        if line.startswith("Trace "):
            runs.append(int(line[line.index("[") + 1:].split("/")[1], 16))
        elif line.startswith("IN:"):
            cur = []
        elif line.startswith("0x") and cur is not None:
            addr, rest = line.split(":", 1)
            if code is not None:
                at = int(addr, 16)
                for t in rest.split():
                    if len(t) not in (2, 8) or not all(c in HEX for c in t):
                        break
                    # x86-64: the bytes one by one; AArch64: the instruction word, stored little-endian
                    for b in int(t, 16).to_bytes(len(t) // 2, "little"):
                        code[at] = b
                        at += 1
                    if len(t) == 8:
                        break
            # an x86 instruction longer than 8 bytes is listed on two lines, the second one its
            # remaining bytes and no mnemonic: not an instruction of its own
            if not all(len(t) == 2 and all(c in HEX for c in t) for t in rest.split()):
                cur.append(int(addr, 16))
        elif not line.strip() and cur:
            blocks[cur[0]], cur = cur, None
    if cur:
        blocks[cur[0]] = cur
    return blocks, runs


def calls(nms, blocks, runs):
    """The executions of the nmethods' translated blocks, split into calls of the first one (a
    block starting at one of its entry points starts a call): [[pc, ...], ...]."""
    inside = lambda pc: any(n.start <= pc < n.end for n in nms)  # noqa: E731
    first = {e for n in nms if getattr(n, "starts_call", n is nms[0]) for e in n.entries}
    out = []
    for pc in runs:
        if not inside(pc) or pc not in blocks:
            continue
        if pc in first:
            out.append([])
        if out:
            out[-1].append(pc)
    return out


def the_call(all_calls):
    """The most frequent call sequence and how many of the calls it is (the steady state: the
    calls are the same but for the first ones and a rare slow path)."""
    if not all_calls:
        return None, 0
    seq, n = collections.Counter(tuple(c) for c in all_calls).most_common(1)[0]
    return list(seq), n


# --- extraction (needs scripts/oracle's HotSpot 25 and QEMU) -------------------------------------

def oracle_cache():
    return os.environ.get("MINIVM_ORACLE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "minivm-oracle")


def compile_blocks(tmp):
    """bench/Blocks.java compiled into tmp: javac on PATH, else the oracle's JDK 25 under qemu-x86_64."""
    import shutil
    src = os.path.join(ROOT, "bench", "Blocks.java")
    javac = shutil.which("javac")
    if javac:
        argv = [javac, "--release", "17", "-d", tmp, src]
    else:
        root = os.path.join(oracle_cache(), "trixie-amd64")
        argv = ["qemu-x86_64", "-L", root, os.path.join(root, "usr/lib/jvm/java-25-openjdk-amd64/bin/javac"),
                "--release", "17", "-d", tmp, src]
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        raise ExtractError(f"{' '.join(argv)} failed: {p.stderr.strip()[-300:]}")
    return tmp


def java_argv(arch, model, config, classes, digests):
    opts, _ = CONFIGS[config]
    flags = sorted({DIGESTS[d][1] for d in digests})
    methods = [m for d in digests for m in DIGESTS[d][2]]
    return (["setarch", "-R", "sh", os.path.join(ROOT, "scripts", "oracle"), f"java-{arch}", model,
             "-XX:+UnlockDiagnosticVMOptions"] + [f"-XX:-{f}" for f in flags] + opts +
            ["-Xbatch", "-XX:CompileCommand=quiet"] + [f"-XX:CompileCommand=print,{m}" for m in methods] +
            ["-cp", classes, "Blocks"] + [f"{d}:{DIGESTS[d][0]}" for d in digests] + [str(BLOCKS_RUN)])


def LLVM_MC():  # noqa: N802
    mc = tool("llvm-mc-19", "llvm-mc")
    if not mc:
        raise ExtractError("llvm-mc is not installed (sh scripts/bootstrap bench)")
    return mc


# HotSpot 25's known deaths, named
KNOWN = {"Internal Error (barrierSetAssembler_aarch64.cpp:422)":
         " (JDK-8359378: C2 on AArch64 with +UseFPUForSpilling; fixed in JDK 26, not in 25.0.5)"}


def traced(arch, argv, regions_of, what, margin=WINDOW):
    """{digest: record}: argv run twice, the second time under QEMU's execution log of the code's
    neighbourhood; regions_of(standard output) -> {digest: [Nmethod...], the first one's entries
    starting a call}, read from each run's own print."""
    work = tempfile.mkdtemp()  # the cwd: where a dying HotSpot writes hs_err_pid*.log
    try:
        return _traced(arch, argv, regions_of, what, margin, work)
    finally:
        import shutil
        shutil.rmtree(work, ignore_errors=True)


def _traced(arch, argv, regions_of, what, margin, work):
    first = subprocess.run(argv, capture_output=True, text=True, cwd=work)
    try:
        regs1 = regions_of(first.stdout) if first.returncode == 0 else None
    except ExtractError:
        regs1 = None
    if not regs1:
        fatal = re.search(r"#\s+(Internal Error \(.*?\)|SIGSEGV|SIGILL)", first.stdout + first.stderr)
        raise ExtractError(f"{what}: HotSpot died: {fatal.group(1)}" + KNOWN.get(fatal.group(1), "") if fatal else
                           f"{what}: {' '.join(argv)}: status {first.returncode}, no code printed "
                           f"({(first.stderr or first.stdout)[-300:]})")
    window = [(r.start - margin, r.end + margin) for rs in regs1.values() for r in rs]
    # the code moves now and then between runs even under setarch -R (HotSpot's stubs between two
    # or three places): a logged run whose code was outside the windows is run again with its
    # places added
    for attempt in range(6):
        with tempfile.NamedTemporaryFile("w+", suffix=".log") as log:
            env = dict(os.environ, QEMU_LOG="in_asm,exec,nochain", QEMU_LOG_FILENAME=log.name,
                       QEMU_DFILTER=",".join(f"0x{a:x}..0x{b:x}" for a, b in sorted(set(window))))
            second = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=work)
            if second.returncode != 0:
                raise ExtractError(f"{what}: {' '.join(argv)} (logged): exit status {second.returncode}")
            regs = regions_of(second.stdout)
            inside = lambda r: any(a <= r.start and r.end <= b for a, b in window)  # noqa: E731
            if all(inside(r) for rs in regs.values() for r in rs):
                logged = {}
                with open(log.name, errors="replace") as f:
                    blocks, runs = parse_log(f, logged)
                break
            window += [(r.start - margin, r.end + margin) for rs in regs.values() for r in rs]
    else:
        raise ExtractError(f"{what}: the code was outside the logged windows in 6 runs")
    out = {}
    for d, found in regs.items():
        cs = calls(found, blocks, runs)
        seq, alike = the_call(cs)
        if not seq:
            raise ExtractError(f"{what} {d}: no call of {found[0].method} in the execution log")
        code = {}
        for pc in sorted(set(seq)):
            addrs = blocks[pc]
            owner = next(r for r in found if r.start <= pc < r.end)
            end = min(addrs[-1] + 16, owner.end)
            # the print's bytes, else the log's (HotSpot's x86-64 PrintStubCode without hsdis drops
            # each stub's last bytes; QEMU lists every instruction it translated with its bytes)
            byte = lambda a: owner.bytes[a] if a in owner.bytes else logged.get(a)  # noqa: E731
            missing = [a for a in range(pc, addrs[-1] + 1) if byte(a) is None]
            if missing:
                raise ExtractError(f"{what} {d}: neither the print nor the log has the bytes at 0x{missing[0]:x}")
            try:
                raw, n = exact_bytes(arch, bytes(byte(a) or 0 for a in range(pc, end)),
                                     addrs[-1] - pc, LLVM_MC())
            except ValueError as e:
                raise ExtractError(f"{what} {d}: {e}")
            code[f"{pc - found[0].start:x}"] = {"bytes": raw.hex(), "insns": n, "in": short(owner.method)}
        out[d] = {"code": [f"{r.compiler} {r.compile_id} {short(r.method)}" for r in found], "calls": len(cs),
                  "calls_alike": alike, "blocks": code, "call": [f"{pc - found[0].start:x}" for pc in seq]}
    return out


def short(method):
    """SHA3::keccak of sun.security.provider.SHA3::keccak (a stub's name stays)."""
    return method.rsplit(".", 1)[-1]


def extract_config(arch, model, config, classes, digests):
    """{digest: record} for one configuration on one model (two HotSpot runs under QEMU)."""
    compiler = CONFIGS[config][1]

    def regions_of(out):
        nms = parse_print(out)
        regs = {}
        for d in digests:
            found = [final_nmethod(nms, m, compiler) for m in DIGESTS[d][2]]
            if not all(found):
                missing = [m for m, n in zip(DIGESTS[d][2], found) if not n]
                raise ExtractError(f"{model} {config}: no {compiler} compilation of {', '.join(missing)}")
            regs[d] = found
        return regs
    return traced(arch, java_argv(arch, model, config, classes, digests), regions_of, f"{model} {config}")


# digest -> the stubs' prefix (minivm's and HotSpot's StubRoutines names), the input that makes
# examples/digest.mva compress exactly one block (a block less the padding's minimum)
STUB_PREFIX = {"SHA3-512": ("sha3", 71), "SHA-256": ("sha256", 55), "SHA-512": ("sha512", 111),
               "SHA-1": ("sha1", 55), "MD5": ("md5", 55)}
# HotSpot's stubs by configuration name: the options that make HotSpot 25 use them, the digests
HOTSPOT_STUBS = {
    "aarch64": {"hotspot-sha3-simd": (["-XX:+UseSHA3Intrinsics", "-XX:+UseSIMDForSHA3Intrinsic"], ["SHA3-512"]),
                "hotspot-sha3-gpr": (["-XX:+UseSHA3Intrinsics", "-XX:-UseSIMDForSHA3Intrinsic"], ["SHA3-512"]),
                "hotspot-sha2": (["-XX:+UseSHA256Intrinsics", "-XX:+UseSHA512Intrinsics", "-XX:+UseSHA1Intrinsics",
                                  "-XX:+UseMD5Intrinsics"], ["SHA-256", "SHA-512", "SHA-1", "MD5"])},
    "x86_64": {"hotspot-sha2": (["-XX:+UseSHA256Intrinsics", "-XX:+UseSHA512Intrinsics", "-XX:+UseSHA1Intrinsics",
                                 "-XX:+UseMD5Intrinsics"], ["SHA-256", "SHA-512", "SHA-1", "MD5"])},
}


def stub_regions(out, digests):
    """{digest: [its single-block stub, its multi-block stub]} from a PrintStubCode listing; a call
    starts at either's entry."""
    stubs = parse_stubs(out)
    regs = {}
    for d in digests:
        prefix = STUB_PREFIX[d][0]
        found = [stubs[n] for n in (f"{prefix}_implCompress", f"{prefix}_implCompressMB") if n in stubs]
        if not found:
            raise ExtractError(f"no {prefix}_implCompress stub printed")
        for r in found:
            r.starts_call = True
        regs[d] = found
    return regs


def extract_hotspot_stubs(arch, model, classes):
    """{configuration: {digest: record}}: HotSpot 25's own stubs, a block per call."""
    out = {}
    for name, (opts, digests) in HOTSPOT_STUBS[arch].items():
        argv = (["setarch", "-R", "sh", os.path.join(ROOT, "scripts", "oracle"), f"java-{arch}", model,
                 "-XX:+UnlockDiagnosticVMOptions"] + opts + ["-XX:+PrintStubCode", "-Xbatch", "-cp", classes,
                                                             "Blocks"] +
                [f"{d}:{DIGESTS[d][0]}" for d in digests] + [str(BLOCKS_RUN + 2000)])
        # only C2's code calls the stubs (C1 has no SHA intrinsic): C2 compiles DigestBase's
        # implCompressMultiBlock after Tier4InvocationThreshold (5000) calls, the rest call the stub
        try:
            recs = traced(arch, argv, lambda o: stub_regions(o, digests), f"{model} {name}", margin=4096)
        except ExtractError as e:
            print(f"c2code: {e}", file=sys.stderr)
            recs = {d: {"error": str(e)} for d in digests}
        # HotSpot names one variant per family: the configuration names it (hotspot-sha256 ...)
        for d, rec in recs.items():
            cname = name if name.startswith("hotspot-sha3") else f"hotspot-{STUB_PREFIX[d][0]}"
            out.setdefault(cname, {})[d] = rec
    return out


# HotSpot 25's x86-64 stubs QEMU's TCG cannot run, traced on this CPU where it runs them: its
# SHA-3 stub is AVX-512 code (vm_version_x86.cpp turns UseSHA3Intrinsics on where the CPU has
# AVX-512F and BW). configuration -> (options, digests, the CPU features it needs). The stubs
# generated at start-up, before any other thread runs (-XX:-DelayCompilerStubsGeneration): else
# a compiler thread generates them beside the first compilations, and where they land in the
# code cache depends on the threads' timing, which the tracer changes.
HOTSPOT_STUBS_NATIVE = {"hotspot-sha3": (["-XX:+UseSHA3Intrinsics", "-XX:-DelayCompilerStubsGeneration"],
                                         ["SHA3-512"], ("avx512f", "avx512bw"))}


# the words of a native trace's refusal to run here (not a failure: another machine can)
CANNOT_HERE = "cannot be traced on this host"


def hotspot_stubs_native(build, classes):
    """{configuration: {digest: record}} of HOTSPOT_STUBS_NATIVE traced on this CPU: HotSpot 25
    natively (scripts/oracle java), its stub's addresses from a run of the same command without
    the tracer (and with -XX:+PrintStubCode), one call traced by bench/stub_trace; a record's
    error says why one is not (with CANNOT_HERE where this host cannot: no AVX-512, or no way
    to run HotSpot under the tracer)."""
    import platform
    from mdbench.common import cpu_name
    with open("/proc/cpuinfo") as f:
        flags = set(next((ln.split(":", 1)[1].split() for ln in f if ln.startswith("flags")), []))
    env = dict(os.environ, MINIVM_ORACLE_BIND=classes)
    out = {}
    for name, (opts, digests, needs) in HOTSPOT_STUBS_NATIVE.items():
        # /minivm/: the bound directory, which scripts/oracle maps to MINIVM_ORACLE_BIND's
        # own path when JAVA_HOME's JDK runs instead of the Debian 13 root's
        argv = (["sh", os.path.join(ROOT, "scripts", "oracle"), "java", "-XX:+UnlockDiagnosticVMOptions"] + opts +
                ["-XX:+PrintStubCode", "-Xbatch", "-cp", "/minivm/", "Blocks"] +
                [f"{d}:{DIGESTS[d][0]}" for d in digests] + [str(BLOCKS_RUN + 2000)])
        lacks = [f for f in needs if f not in flags]
        try:
            if platform.machine() != "x86_64" or lacks:
                raise ExtractError(f"HotSpot's {name} stub needs {' and '.join(lacks) or 'x86-64'}, which this "
                                   f"CPU lacks, and QEMU's TCG cannot run it: it {CANNOT_HERE}")
            if os.geteuid() != 0 and not os.environ.get("JAVA_HOME"):
                # scripts/oracle reaches the Debian 13 root through sudo unshare: a set-user-ID
                # program, which gains no privilege under ptrace
                raise ExtractError(f"HotSpot's {name} stub {CANNOT_HERE}: its HotSpot runs through sudo, which "
                                   "a traced program cannot (run as root, or with JAVA_HOME naming a JDK 25)")
            for d in digests:
                # traced without the listing: its 300,000 writes would each stop HotSpot twice
                rec = listed_then_traced(build, argv, d, f"HotSpot {name}", env=env, traced_listing=False)
                rec["cpu"] = cpu_name()
                out.setdefault(name, {})[d] = rec
        except ExtractError as e:
            out[name] = {d: {"error": str(e)} for d in digests}
    return out


def each_stub_run(build, variants, trace_one):
    """{configuration: {digest: record}}: trace_one(configuration, digest, argv) for each variant's
    digests, argv minivm digesting the input that makes examples/digest.mva compress exactly one
    block; a variant's ExtractError is its record's error (the others' rows stay)."""
    minivm = os.path.join(build, "minivm")
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for cname, opts, digests in variants:
            for d in digests:
                if d not in STUB_PREFIX:
                    continue
                data = os.path.join(tmp, f"in-{STUB_PREFIX[d][1]}")
                with open(data, "wb") as f:
                    f.write(bytes(range(STUB_PREFIX[d][1])))
                argv = [minivm, "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintStubCode"] + opts + \
                    [os.path.join(ROOT, "examples", "digest.mva"), d, data]
                try:
                    out.setdefault(cname, {})[d] = trace_one(cname, d, argv)
                except ExtractError as e:
                    out.setdefault(cname, {})[d] = {"error": str(e)}
    return out


def minivm_stubs(build, arch, model, variants):
    """{configuration: {digest: record}} of minivm's stubs under qemu-ARCH -cpu MODEL, traced as
    HotSpot's code is; variants: [(configuration name, options, digests)] (PrintStubVariants')."""
    qemu = ["qemu-aarch64", "-L", "/", "-cpu", model] if arch == "aarch64" else ["qemu-x86_64", "-cpu", model]

    def trace_one(cname, d, argv):
        return traced(arch, ["setarch", "-R"] + qemu + argv, lambda o: stub_regions(o, [d]), f"minivm {cname}",
                      margin=4096)[d]
    return each_stub_run(build, variants, trace_one)


def native_trace(build, argv, regions, what, env=None):
    """One call of a stub traced on this CPU by build/bench/stub_trace (bench/stub_trace.c), as
    a record of the format traced() writes: regions, the stub's [implCompress, implCompressMB]
    from a run of the same command without the tracer (the code the tracer finds there must be
    the code that run listed)."""
    tool = os.path.join(build, "bench", "stub_trace")
    if not os.access(tool, os.X_OK):
        raise ExtractError(f"{what}: no {tool} (meson compile -C {build})")
    if not any(r.bytes for r in regions):
        raise ExtractError(f"{what}: the listing has no code bytes to check the trace against")
    ranges = [f"{r.start:x}-{r.end:x}" for r in regions]
    try:
        p = subprocess.run([tool] + ranges + ["--"] + argv, capture_output=True, text=True, env=env, timeout=600)
    except subprocess.TimeoutExpired:
        raise ExtractError(f"{what}: stub_trace did not end in 600 s")
    if p.returncode != 0:
        raise ExtractError(f"{what}: stub_trace: {(p.stderr.strip().splitlines() or ['status %d' % p.returncode])[-1]}")
    lines = p.stdout.splitlines()
    seq = [int(ln, 16) for ln in lines if not ln.startswith("bytes ")]
    code = {}
    for ln in lines:
        if ln.startswith("bytes "):
            _, k, hexes = ln.split(" ", 2)
            base = regions[int(k)].start - regions[0].start
            for i, b in enumerate(bytes.fromhex(hexes)):
                code[base + i] = b
    for r in regions:
        moved = [a for a, b in r.bytes.items() if code.get(a - regions[0].start, b) != b]
        if moved:
            raise ExtractError(f"{what}: the code traced at {moved[0]:#x} is not the listing's (the stub moved "
                               "between the run that listed it and the traced one, or its code changed while "
                               "it was traced)")
    # each instruction's length: the step to the next one where it fell through (the smallest
    # seen: a taken jump may land a few bytes on), else what llvm-mc decodes there alone
    length = {}
    for a, b in zip(seq, seq[1:]):
        if 0 < b - a <= 15:
            length[a] = min(length.get(a, 15), b - a)
    pcs = sorted(set(seq))
    window = {pc: bytes(code.get(pc + i, 0) for i in range(15)) for pc in pcs}
    sized = {pc: window[pc][:length[pc]] for pc in pcs if pc in length}
    # the lengths from the steps, checked in one llvm-mc run: one instruction each, else each alone
    if len(decode("x86_64", b"".join(sized.values()), None, LLVM_MC())) != len(sized):
        sized = {}
    blocks = {}
    for pc in pcs:
        raw = sized.get(pc) or exact_bytes("x86_64", window[pc], 0, LLVM_MC())[0]
        owner = next(r for r in regions if r.start <= regions[0].start + pc < r.end)
        blocks[f"{pc:x}"] = {"bytes": raw.hex(), "insns": 1, "in": short(owner.method)}
    return {"code": [f"stub {short(r.method)}" for r in regions], "calls": 1, "calls_alike": 1,
            "blocks": blocks, "call": [f"{pc:x}" for pc in seq], "traced": "natively (bench/stub_trace)"}


def listed_then_traced(build, argv, digest, what, env=None, traced_listing=True):
    """The record of one call of digest's stub traced on this CPU (native_trace), its addresses
    from a run of argv (which lists the stubs: -XX:+PrintStubCode) with address-space
    randomization off; traced_listing False: the traced run without -XX:+PrintStubCode."""
    try:
        first = subprocess.run(["setarch", "-R"] + argv, capture_output=True, text=True, env=env, timeout=600)
    except subprocess.TimeoutExpired:
        raise ExtractError(f"{what}: did not end in 600 s")
    if first.returncode != 0:
        raise ExtractError(f"{what}: status {first.returncode} ({first.stderr.strip()[-200:]})")
    traced_argv = argv if traced_listing else [a for a in argv if a != "-XX:+PrintStubCode"]
    return native_trace(build, traced_argv, stub_regions(first.stdout, [digest])[digest], what, env=env)


def minivm_stubs_native(build, variants):
    """{configuration: {digest: record}} of minivm's x86-64 stubs traced on this CPU (those QEMU's
    TCG cannot run: AVX-512); variants as minivm_stubs'."""
    return each_stub_run(build, variants, lambda cname, d, argv: listed_then_traced(build, argv, d, f"minivm {cname}"))


def hotspot_version(arch, model):
    p = subprocess.run(["sh", os.path.join(ROOT, "scripts", "oracle"), f"java-{arch}", model, "-version"],
                       capture_output=True, text=True)
    return next((ln for ln in p.stderr.splitlines() if "version" in ln), "").strip()


def extract(arch, model, digests=tuple(DIGESTS), configs=tuple(CONFIGS), log=sys.stderr):
    """Extract and record one model's code (bench/data/c2code/ARCH-MODEL.json)."""
    with tempfile.TemporaryDirectory() as tmp:
        classes = compile_blocks(tmp)
        rec = {"arch": arch, "qemu_model": model, "configs": {}, "hotspot": hotspot_version(arch, model)}
        for config in configs:
            print(f"c2code: {arch} {model} {config} ...", file=log)
            try:
                rec["configs"][config] = extract_config(arch, model, config, classes, list(digests))
            except ExtractError:
                # one digest at a time, so that one that kills HotSpot (JDK-8359378: HotSpot 25
                # on AArch64 with +UseFPUForSpilling) is recorded as such and the others are not lost
                rec["configs"][config] = {}
                for d in digests:
                    try:
                        rec["configs"][config].update(extract_config(arch, model, config, classes, [d]))
                    except ExtractError as e:
                        if "HotSpot died" not in str(e):
                            raise  # not HotSpot's own failure: nothing worth recording
                        print(f"c2code: {e}", file=log)
                        rec["configs"][config][d] = {"error": str(e)}
        if arch == "aarch64" and model == "max" or arch == "x86_64" and model.startswith("SapphireRapids"):
            # HotSpot's own stubs: their code depends on the features only; the fullest model has them all
            for cname, by_digest in extract_hotspot_stubs(arch, model, classes).items():
                rec["configs"][cname] = by_digest
            if arch == "x86_64":
                try:
                    rec["configs"].update(native_hotspot_configs(classes, log=log))
                except ExtractError as e:  # the QEMU part is minutes of work: keep it, and the old trace
                    old = (read_record(arch, model) or {}).get("configs", {})
                    print(f"c2code: {e}; the record's native traces kept", file=log)
                    rec["configs"].update({k: v for k, v in old.items() if k in HOTSPOT_STUBS_NATIVE})
    os.makedirs(DATA, exist_ok=True)
    path = record_name(arch, model)
    with open(path, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
        f.write("\n")
    return path


def native_hotspot_configs(classes, build=os.path.join(ROOT, "build"), log=sys.stderr):
    """HOTSPOT_STUBS_NATIVE traced on this CPU where it can trace them, else as the record had them
    (a trace from a machine that ran them stays until one that does replaces it); each attempt
    said on log. A trace that failed where it could run raises ExtractError."""
    old = (read_record("x86_64", "SapphireRapids") or {}).get("configs", {})
    out = {}
    for cname, by_digest in hotspot_stubs_native(build, classes).items():
        for d, entry in by_digest.items():
            keep = old.get(cname, {}).get(d)
            if "error" not in entry:
                print(f"c2code: {cname} {d}: {len(entry['call'])} instructions, traced on {entry.get('cpu')}",
                      file=log)
            elif CANNOT_HERE not in entry["error"]:
                raise ExtractError(f"{cname} {d}: {entry['error']}")
            elif keep and "error" not in keep:
                print(f"c2code: {cname} {d}: {entry['error']}; the record's trace (from {keep.get('cpu')}) kept",
                      file=log)
                entry = keep
            else:
                print(f"c2code: {cname} {d}: {entry['error']}", file=log)
            out.setdefault(cname, {})[d] = entry
    return out


def record_native_hotspot(log=sys.stderr):
    """--native-hotspot: HOTSPOT_STUBS_NATIVE traced on this CPU into the x86-64 record of the
    model with every feature (SapphireRapids), the rest of that record unchanged."""
    path = record_name("x86_64", "SapphireRapids")
    rec = read_record("x86_64", "SapphireRapids")
    if rec is None:
        raise ExtractError(f"no {path} (python3 bench/c2code.py --extract x86_64 SapphireRapids)")
    with tempfile.TemporaryDirectory() as tmp:
        found = native_hotspot_configs(compile_blocks(tmp), log=log)
    for cname, by_digest in found.items():
        rec["configs"][cname] = by_digest
    with open(path, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
        f.write("\n")
    return path


# --- from a record ---------------------------------------------------------------------------------

def normalize(path):
    """Rewrite an AArch64 record's blocks as their exact bytes (records written before exact_bytes)."""
    mc = None
    with open(path) as f:
        rec = json.load(f)
    for by_digest in rec["configs"].values():
        for entry in by_digest.values():
            for b in entry.get("blocks", {}).values():
                if rec["arch"] != "aarch64":
                    raise ValueError(f"{path}: x86-64 records are extracted exact (--extract again)")
                b["bytes"] = exact_bytes("aarch64", bytes.fromhex(b["bytes"]), 4 * b["insns"] - 4, mc)[0].hex()
    with open(path, "w") as f:
        json.dump(rec, f, indent=1, sort_keys=True)
        f.write("\n")


def record_name(arch, model):
    """The record's file: the model's name without the features QEMU is told to drop, but for
    max,sve=off (max without SVE: the Apple CPUs' stand-in)."""
    name = "max-nosve" if model == "max,sve=off" else model.split(",")[0]
    return os.path.join(DATA, f"{arch}-{name}.json")


def read_record(arch, model):
    path = record_name(arch, model)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        rec = json.load(f)
    if rec.get("arch") != arch or not isinstance(rec.get("configs"), dict):
        raise ValueError(f"{path}: not a c2code record for {arch}")
    return rec


def decode(arch, raw, n, llvm_mc):
    """The first n instructions llvm-mc decodes from raw (bytes at an instruction boundary), or
    all of them (n None)."""
    src = " ".join(f"0x{b:02x}" for b in raw)
    p = subprocess.run([llvm_mc, "--disassemble"] + TRIPLE[arch], input=src, capture_output=True, text=True)
    lines = [ln.strip() for ln in p.stdout.splitlines()
             if ln.strip() and not ln.strip().startswith(".text") and not ln.strip().startswith("#")]
    lines = [re.sub(r"\s+", " ", ln.split("//")[0].split(";")[0].strip()) for ln in lines]
    if n is None:
        return lines
    if len(lines) < n or "invalid instruction encoding" in p.stderr:
        raise ValueError(f"llvm-mc decoded {len(lines)} of {n} instructions ({p.stderr.strip()[:200]})")
    return lines[:n]


def exact_bytes(arch, raw, last, llvm_mc):
    """(bytes, instructions) of a translated block: raw from its start, last the offset of its last
    instruction (QEMU's in_asm listing), its length from llvm-mc's encoding on x86-64 (AArch64:
    4). The instructions are llvm-mc's count of those bytes (QEMU's listing can print an x86
    prefix on a line of its own)."""
    if arch == "aarch64":
        return raw[:last + 4], last // 4 + 1
    def decoded(b):
        p = subprocess.run([llvm_mc, "--disassemble"] + TRIPLE[arch], input=" ".join(f"0x{v:02x}" for v in b),
                           capture_output=True, text=True)
        lines = [ln for ln in p.stdout.splitlines() if ln.strip() and not ln.strip().startswith(".")]
        return lines, next((ln.strip() for ln in p.stderr.splitlines() if "warning" in ln), None)
    # the last instruction's length: the fewest bytes that decode to it alone, without a warning
    for k in range(1, 16):
        lines, warned = decoded(raw[last:last + k])
        if len(lines) == 1 and not warned:
            break
    else:
        raise ValueError(f"llvm-mc cannot decode the block's last instruction ({raw[last:last + 15].hex()})")
    exact = raw[:last + k]
    lines, warned = decoded(exact)
    if warned:
        raise ValueError(f"llvm-mc cannot decode the block ({exact.hex()[:60]}...): {warned}")
    return exact, len(lines)


def block_stream(arch, entry, llvm_mc):
    """The instructions one block ran, in order, as llvm-mc prints them: the translated blocks'
    exact bytes decoded in one llvm-mc run, then laid out in the call's order."""
    offs = sorted(entry["blocks"])
    raw = b"".join(bytes.fromhex(entry["blocks"][o]["bytes"]) for o in offs)
    total = sum(entry["blocks"][o]["insns"] for o in offs)
    lines = decode(arch, raw, None, llvm_mc)
    if len(lines) != total:
        # one llvm-mc run per block where the concatenation decodes otherwise (an x86 block that
        # ends in a prefix llvm-mc prints alone joins the next block's first instruction)
        lines = [ln for o in offs for ln in decode(arch, bytes.fromhex(entry["blocks"][o]["bytes"]), None, llvm_mc)]
    if len(lines) != total:
        raise ValueError(f"the recorded blocks decode to {len(lines)} instructions, not {total}: not exact bytes "
                         "(python3 bench/c2code.py --normalize)")
    text, at = {}, 0
    for o in offs:
        n = entry["blocks"][o]["insns"]
        text[o], at = lines[at:at + n], at + n
    return [ins for off in entry["call"] for ins in text[off]]


GP_FP_A64 = re.compile(r"^(fmov [ds]\d+, [xw]\d+|fmov [xw]\d+, [ds]\d+|(mov|ins) v\d+\.[ds]\[\d\], [xw]\d+|"
                       r"(u?mov|fmov) [xw]\d+, v\d+\.[ds]\[\d\])$")
GP_FP_X86 = re.compile(r"^v?mov[qd] (xmm\d+, r|r\w+, xmm\d+|e\w+, xmm|xmm\d+, e)")
NOT_MEMORY_X86 = ("lea", "nop", "prefetch")
X86_DIRECT_BRANCH = re.compile(r"^(j[a-z]+|call|loop[a-z]*) -?(0x)?[0-9a-f]+$")


def classify(arch, ins):
    """(load, store, stack, gp<->fp move, call) of one instruction's text."""
    op = ins.split(" ", 1)[0]
    if arch == "aarch64":
        load = op.startswith("ld")
        store = op.startswith("st")
        stack = (load or store) and "[sp" in ins
        gpfp = bool(GP_FP_A64.match(ins))
        call = op in ("bl", "blr")
        return load, store, stack, gpfp, call
    mem = "[" in ins and not op.startswith(NOT_MEMORY_X86)
    operands = ins.split(" ", 1)[1] if " " in ins else ""
    dest_mem = operands.split(",")[0].find("[") >= 0
    # a memory destination is written (and read too, unless the instruction only writes it: a move,
    # a setcc, an extract); a call or jump through memory reads it
    write_only = op.startswith(("mov", "vmov", "set", "pextr", "vpextr", "stos", "vextract"))
    branch = op in ("call", "jmp")
    store = (mem and dest_mem and op not in ("cmp", "test") and not branch) or op == "push"
    load = (mem and (not dest_mem or not write_only or branch)) or op == "pop"
    # C2 keeps rbp as an ordinary register: its spill slots are rsp's
    stack = (mem and "[rsp" in ins) or op in ("push", "pop")
    gpfp = bool(GP_FP_X86.match(ins))
    call = op == "call"
    return load, store, stack, gpfp, call


def counts(arch, stream):
    """Per block: instructions, loads, stores, stack loads (reloads), stack stores (spills),
    general<->FP/SIMD moves, calls out."""
    c = collections.Counter()
    for ins in stream:
        load, store, stack, gpfp, call = classify(arch, ins)
        c["instructions"] += 1
        c["loads"] += load
        c["stores"] += store
        c["stack_loads"] += load and stack
        c["stack_stores"] += store and stack
        c["gp_fp_moves"] += gpfp
        c["calls"] += call
    return dict(c)


def mca_cycles(arch, stream, mcpu, llvm_mca, iterations=10, extra=()):
    """llvm-mca's cycles for the block's instruction stream on mcpu (the stream repeated:
    its cycles per repetition); extra: further llvm-mca options."""
    triple = "aarch64" if arch == "aarch64" else "x86_64"
    argv = [llvm_mca, f"-mtriple={triple}", f"-mcpu={mcpu}", f"-iterations={iterations}", *extra]
    if arch == "aarch64":
        # FEAT_SHA3 is optional from Armv8.2 on, so LLVM leaves it out of some CPUs that have it
        # (neoverse-v2); whether a CPU runs a configuration is decided before (bench/model.py)
        argv.append("-mattr=+sha3")
    if arch == "x86_64":
        argv.append("-x86-asm-syntax=intel")
        # llvm-mc prints a direct branch's target as a number, which its own Intel parser refuses:
        # llvm-mca ignores where a branch goes, so every direct target becomes one label
        stream = [".Ltarget:"] + [X86_DIRECT_BRANCH.sub(r"\1 .Ltarget", ins) for ins in stream]
    p = subprocess.run(argv, input="\n".join(stream) + "\n", capture_output=True, text=True)
    m = re.search(r"Total Cycles:\s+(\d+)", p.stdout)
    if p.returncode != 0 or not m:
        why = next((ln for ln in p.stderr.splitlines() if "error" in ln), p.stderr.strip()[-200:])
        raise RuntimeError(f"llvm-mca -mcpu={mcpu} failed: {why.strip()}")
    return int(m.group(1)) / iterations


def tool(*names):
    import shutil
    return next((shutil.which(n) for n in names if shutil.which(n)), None)


def models(arch):
    """The QEMU models of the project's matrix for arch: [(setup name, -cpu value)]."""
    path = os.path.join(ROOT, "cross", f"qemu-{arch}-models.txt")
    with open(path) as f:
        return [tuple(ln.split()) for ln in f if ln.strip() and not ln.startswith("#") and len(ln.split()) == 2]


def table(out=sys.stdout, arches=("aarch64", "x86_64")):
    """The recorded code's counts per block, per model, configuration and digest."""
    llvm_mc = tool("llvm-mc-19", "llvm-mc")
    if not llvm_mc:
        sys.exit("c2code: llvm-mc is not installed (sh scripts/bootstrap bench)")
    print("HotSpot 25's compiled code per block (bench/data/c2code/, recorded under QEMU; bench/c2code.py):\n"
          "instructions, loads, stores, stack reloads and spills, general<->FP/SIMD moves, calls out", file=out)
    print(f"{'model':<16} {'configuration':<22} {'digest':<9} {'insns':>7} {'loads':>6} {'stores':>6} "
          f"{'reload':>6} {'spill':>6} {'gp-fp':>6} {'calls':>5}", file=out)
    rows = []
    for arch in arches:
        for _, model in models(arch):
            rec = read_record(arch, model)
            if rec is None:
                print(f"{model.split(',')[0]:<16} (not recorded: python3 bench/c2code.py --extract {arch} "
                      f"{model.split(',')[0]})", file=out)
                continue
            for config, by_digest in rec["configs"].items():
                for digest, entry in by_digest.items():
                    if "error" in entry:
                        print(f"{model.split(',')[0]:<16} {config:<22} {digest:<9} {entry['error']}", file=out)
                        continue
                    c = counts(arch, block_stream(arch, entry, llvm_mc))
                    rows.append(dict(c, arch=arch, model=model.split(",")[0], configuration=config, digest=digest))
                    print(f"{model.split(',')[0]:<16} {config:<22} {digest:<9} {c['instructions']:>7,} "
                          f"{c.get('loads', 0):>6,} {c.get('stores', 0):>6,} {c.get('stack_loads', 0):>6,} "
                          f"{c.get('stack_stores', 0):>6,} {c.get('gp_fp_moves', 0):>6,} {c.get('calls', 0):>5}",
                          file=out)
    return rows


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="bench/c2code.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--extract", nargs="+", metavar=("ARCH", "MODEL"),
                    help="extract and record: ARCH (aarch64, x86_64) and its QEMU models (setup names or -cpu "
                         "values; default every one of the matrix)")
    ap.add_argument("--normalize", action="store_true", help="rewrite the records' blocks as exact bytes")
    ap.add_argument("--native-hotspot", action="store_true",
                    help="trace HotSpot's stubs QEMU cannot run (x86-64 SHA-3: AVX-512) on this CPU into the "
                         "x86_64 SapphireRapids record")
    a = ap.parse_args(argv)
    if a.native_hotspot:
        try:
            print(record_native_hotspot())
        except ExtractError as e:
            sys.exit(f"c2code: {e}")
        return 0
    if a.normalize:
        for name in sorted(os.listdir(DATA)):
            if name.startswith("aarch64-"):
                normalize(os.path.join(DATA, name))
        return 0
    if a.extract:
        arch = a.extract[0]
        if arch not in ("aarch64", "x86_64"):
            ap.error(f"--extract {arch}: expected aarch64 or x86_64")
        known = models(arch)
        wanted = a.extract[1:] or [s for s, _ in known]
        for w in wanted:
            value = next((v for s, v in known if w in (s, v, v.split(",")[0])), None)
            if w == "max,sve=off":  # the Apple CPUs' stand-in (bench/model.py)
                value = w
            if value is None:
                ap.error(f"--extract {arch} {w}: not a model of cross/qemu-{arch}-models.txt")
            try:
                print(extract(arch, value))
            except ExtractError as e:
                sys.exit(f"c2code: {e}")
        return 0
    table()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
