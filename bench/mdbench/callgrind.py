"""bench/mdbench/callgrind.py — x86-64 instructions per digest, inside and outside the stubs
(--callgrind): valgrind's callgrind counts every instruction the VM executes, deterministic
where the times are not.

For each digester name and length (-p), bench/DigestLoop.mva runs WARM + COUNT digests of a
byte[length] with one digest object (MessageDigests.digest's op) and again WARM (start-up,
loading, the printing, and the warm-up in which the compiler tier compiles what passes
CompileThreshold, 10000 calls and loop iterations by default); the difference over COUNT is one
digest in the steady state. Code callgrind finds in no
object ("[???]") is the code caches': a function there is named by its entry address, and those
inside a stub's bounds (as -XX:+PrintStubCode prints them, in the same run) are "in the stubs";
everything else is "outside", the glue: the interpreter's execute(), its calls, allocation, the
natives, and the compiler tier's code ("(compiled)": methods and trampoline).
The configuration is minivm's default (the stubs this CPU gets) unless --config names others
(NAME='-XX:...')."""

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from .common import ROOT

COUNT = 2000
WARM = 11000  # past the default CompileThreshold (10000) for a method called once a digest
LINE = re.compile(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$")


def profile(argv):
    """{function: Ir}, the total and the standard output of one callgrind run of argv (the run
    must succeed)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        p = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + argv,
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"bench --callgrind: {' '.join(map(shlex.quote, argv))} failed:\n{p.stderr[-2000:]}")
        ann = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", "--inclusive=no", out],
                             capture_output=True, text=True)
        if ann.returncode != 0:
            sys.exit(f"bench --callgrind: callgrind_annotate failed:\n{ann.stderr[-2000:]}")
    functions, total = {}, None
    for line in ann.stdout.splitlines():
        m = LINE.match(line)
        if not m or "(1x)" in line or "events annotated" in line:
            continue
        ir, name = int(m.group(1).replace(",", "")), m.group(2).strip()
        if name.startswith("PROGRAM TOTALS"):
            total = ir
        else:
            functions[name] = functions.get(name, 0) + ir
    if total is None:
        sys.exit("bench --callgrind: no PROGRAM TOTALS in callgrind_annotate's output")
    return functions, total, p.stdout


STUB_RANGE = re.compile(r"^StubRoutines::\S+ (?:\([\w-]+\) )?\[0x([0-9a-f]+), 0x([0-9a-f]+)\]", re.M)
CACHE_FN = re.compile(r"0x([0-9a-f]+) \[\?\?\?\]$")


def stub_ranges(printed):
    """The stubs' [start, end) address ranges in -XX:+PrintStubCode's output."""
    return [(int(a, 16), int(b, 16)) for a, b in STUB_RANGE.findall(printed)]


def short(name, ranges=()):
    """'/path/vm/interp.c:execute [/path/minivm]' -> 'execute'; code in no object: '(stubs)' when its
    entry is inside a stub's range, else '(compiled)' (the compiler tier's methods and trampoline)."""
    if name.endswith("[???]"):
        m = CACHE_FN.search(name)
        at = int(m.group(1), 16) if m else -1
        return "(stubs)" if any(a <= at < b for a, b in ranges) else "(compiled)"
    fn = name.split(" [", 1)[0]
    return fn.rsplit(":", 1)[-1]


# the candidate whose PrintIntrinsics line names the single-block stub of a digest's family
HOLDERS = (("SHA3-", "SHA3::"), ("SHA-1", "SHA::"), ("SHA-224", "SHA2::"), ("SHA-256", "SHA2::"),
           ("SHA-384", "SHA5::"), ("SHA-512", "SHA5::"), ("MD5", "MD5::"))


def stub_of(digest, printed):
    """The stub variant PrintIntrinsics says the digest's candidate runs under callgrind, or why none
    (valgrind's CPUID hides SHA-NI and AVX-512, so the CPU minivm sees is not the host's)."""
    holder = next((h for prefix, h in HOLDERS if digest.startswith(prefix)), None)
    for line in printed.splitlines():
        if holder and line.startswith(holder + "implCompress0"):
            m = re.search(r"stub \w+ \(([\w-]+)\)", line)
            return m.group(1) if m else "none: " + line.split(":", 1)[-1].strip()
    return "?"


def per_digest(base, digest, length, count):
    """(total, in the stubs, {function outside: Ir}, the stub variant) per digest."""
    loop = os.path.join(ROOT, "bench", "DigestLoop.mva")
    # in both runs, so their cost cancels out: which stub runs, and where each stub is
    show = ["-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintIntrinsics", "-XX:+PrintStubCode"]
    f_n, t_n, printed = profile(base + show + [loop, str(WARM + count), str(length), digest])
    f_0, t_0, printed_0 = profile(base + show + [loop, str(WARM), str(length), digest])
    diff = {}
    for funcs, sign, ranges in ((f_n, 1, stub_ranges(printed)), (f_0, -1, stub_ranges(printed_0))):
        for name, ir in funcs.items():
            key = short(name, ranges)
            diff[key] = diff.get(key, 0) + sign * ir
    diff = {k: v for k, v in diff.items() if v}
    total = (t_n - t_0) / count
    stubs = diff.pop("(stubs)", 0) / count
    return total, stubs, {k: v / count for k, v in diff.items()}, stub_of(digest, printed)


def callgrind_mode(args):
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        sys.exit("bench --callgrind: valgrind is not installed (sh scripts/bootstrap bench installs it)")
    if os.uname().machine not in ("x86_64", "amd64"):
        sys.exit("bench --callgrind: counts x86-64 instructions (on AArch64: --qemu-cpu MODEL --count)")
    minivm = os.path.join(args.build, "minivm")
    configs = [("default", [])]
    for spec in args.config:
        name, _, options = spec.partition("=")
        configs.append((name, shlex.split(options)))
    print(f"x86-64 instructions a digest (valgrind --tool=callgrind; bench/DigestLoop.mva {WARM + COUNT} digests less "
          f"{WARM}, divided by {COUNT}; deterministic, unlike the times)")
    rows = []
    for cname, opts in configs:
        for digest in args.params["digesterName"]:
            for length in args.params["length"]:
                total, stubs, outside, stub = per_digest([minivm] + opts, digest, int(length), COUNT)
                top = sorted(outside.items(), key=lambda kv: -kv[1])[:4]
                rows.append((cname, digest, length, stub, total, stubs, total - stubs, top))
    print(f"{'config':<10} {'digest':<10} {'length':>6} {'stub':<14} {'total':>9} {'in stubs':>9} {'outside':>9}  "
          f"outside, the largest")
    for cname, digest, length, stub, total, stubs, out, top in rows:
        tops = ", ".join(f"{n} {v:,.0f}" for n, v in top)
        print(f"{cname:<10} {digest:<10} {length:>6} {stub[:14]:<14} {total:>9,.0f} {stubs:>9,.0f} {out:>9,.0f}  {tops}")
    print("(under valgrind minivm sees the CPU valgrind's CPUID describes: no SHA-NI, no AVX-512, so the stubs are "
          "the ones such a CPU gets; a digest without one runs its bytecode, and its 'outside' is not glue)")
    return 0
