"""bench/mdbench/callgrind.py — x86-64 instructions per digest, inside and outside the stubs
(--callgrind): valgrind's callgrind counts every instruction the VM executes, deterministic
where the times are not.

For each digester name and length (-p), bench/DigestLoop.mva runs COUNT digests of a
byte[length] with one digest object (MessageDigests.digest's op) and again 0 (start-up,
loading and the printing); the difference over COUNT is one digest. The stubs are code
callgrind finds in no object (the code cache: "[???]"), so "in the stubs" is their share and
"outside" everything else: the interpreter's execute(), its calls, allocation, the natives.
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


def short(name):
    """'/path/vm/interp.c:execute [/path/minivm]' -> 'execute'; the code cache -> '(stubs)'."""
    if name.endswith("[???]"):
        return "(stubs)"
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
    show = ["-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintIntrinsics"]  # in both runs: cancels out
    f_n, t_n, printed = profile(base + show + [loop, str(count), str(length), digest])
    f_0, t_0, _ = profile(base + show + [loop, "0", str(length), digest])
    diff = {}
    for name in set(f_n) | set(f_0):
        d = f_n.get(name, 0) - f_0.get(name, 0)
        if d:
            key = short(name)
            diff[key] = diff.get(key, 0) + d
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
    print(f"x86-64 instructions a digest (valgrind --tool=callgrind; bench/DigestLoop.mva {COUNT} digests less 0, "
          f"divided by {COUNT}; deterministic, unlike the times)")
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
