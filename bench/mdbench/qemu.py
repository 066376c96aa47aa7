"""bench/mdbench/qemu.py — retired guest instructions under QEMU user mode (--count): QEMU's
execution log, counted; deterministic where times are not."""

import os
import subprocess
import sys

from .common import ROOT, stop, wrapper
from .configs import discover


def count_log_by_block(lines):
    """Guest instructions per translated block, {the block's first pc: instructions it ran}, in a
    QEMU -d in_asm,exec,nochain log: each "IN:" block lists a translated block's instructions
    ("0x<pc>:  <insn>", up to a blank line), each "Trace N: <host> [<flags>/<pc>/...]" line is one
    execution of the block at <pc>; a block translated again replaces its length."""
    blocks, ran, start, length = {}, {}, None, 0
    for line in lines:
        if line.startswith("Trace "):
            pc = int(line[line.index("[") + 1:].split("/")[1], 16)
            ran[pc] = ran.get(pc, 0) + blocks.get(pc, 0)
        elif line.startswith("IN:"):
            start, length = None, 0
        elif line.startswith("0x"):
            if start is None:
                start = int(line.split(":", 1)[0], 16)
            length += 1
        elif not line.strip() and start is not None:
            blocks[start], start = length, None
    return ran


def count_log(lines):
    """Guest instructions in a QEMU -d in_asm,exec,nochain log (count_log_by_block's, summed)."""
    return sum(count_log_by_block(lines).values())


def guest_instructions_by_block(argv):
    """({block pc: retired guest instructions}, standard output) of one QEMU user-mode run. The
    output goes to a file while the log is read: a pipe would fill (PrintStubCode) and stall QEMU."""
    import tempfile

    with tempfile.TemporaryFile(mode="w+", errors="replace") as out:
        proc = subprocess.Popen(argv[:1] + ["-d", "in_asm,exec,nochain"] + argv[1:], stdout=out,
                                stderr=subprocess.PIPE, text=True, errors="replace")
        try:
            ran = count_log_by_block(proc.stderr)
        except BaseException:  # Ctrl-C: QEMU ends with the runner
            stop(proc)
            raise
        if proc.wait() != 0:
            sys.exit(f"bench: {' '.join(argv)} failed under QEMU")
        out.seek(0)
        return ran, out.read()


def guest_instructions(argv):
    """Retired guest instructions of one QEMU user-mode run and its standard output: QEMU logs
    each translated block (-d in_asm: its instructions) and, with chaining off, every execution
    of one (-d exec,nochain: its guest pc); the sum over executions of the block's length."""
    ran, out = guest_instructions_by_block(argv)
    return sum(ran.values()), out


def count_mode(args):
    """Guest instructions per SHA3-256 digest of 16 KiB under QEMU, per minivm configuration: a
    run on 32 KiB less a run on 16 KiB, both under -Xcomp (every method compiled at its first
    call: the first 16 KiB have compiled all that the next ones run, so the difference is the
    steady state's code alone, compiled glue and stub or compiled bytecode); per 136-byte block,
    and as the seeds' "+N%" over the compiled bytecode. Start-up: a run on an empty file."""
    import hashlib
    import tempfile

    if not args.qemu_cpu:
        sys.exit("bench: --count needs --qemu-cpu MODEL (QEMU's execution log is what is counted)")
    configs, skipped = discover(args)
    for name, why in skipped:
        print(f"bench: skipped {name}: {why}")
    digest = os.path.join(ROOT, "examples", "digest.mva")
    size = 16384
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        half, full, empty = (os.path.join(tmp, n) for n in ("half", "full", "empty"))
        data = os.urandom(2 * size)
        with open(half, "wb") as f:
            f.write(data[:size])
        with open(full, "wb") as f:
            f.write(data)
        open(empty, "wb").close()
        for c in [c for c in configs if c.kind == "minivm" and c.runs("SHA3-256")]:
            # without the compiler tier (interpreted: TieredStopAtLevel=0) -Xcomp changes nothing
            base = c.command[:-1] + ["-Xcomp", digest, "SHA3-256"]
            n = {}
            for path, part in ((full, data), (half, data[:size])):
                n[path], out = guest_instructions(base + [path])
                if not out.startswith(hashlib.sha3_256(part).hexdigest()):
                    sys.exit(f"bench --count: {c.name}: wrong digest")
            n_empty, _ = guest_instructions(base + [empty])
            rows.append((c.name, n[full] - n[half], n_empty))
    print(f"Retired guest instructions of a SHA3-256 digest's {size} bytes (examples/digest.mva; a run on "
          f"{2 * size} bytes less a run on {size}, both -Xcomp), qemu-aarch64 -cpu {args.qemu_cpu} "
          f"-d in_asm,exec,nochain; deterministic, unlike the times")
    blocks = size / 136  # SHA3-256's rate: 136-byte blocks
    print(f"{'config':<14} {'instructions':>14} {'per byte':>9} {'per block':>10} {'vs interpreted':>15} "
          f"{'vs compiled':>12} {'start-up':>12}")
    interp = next((n for name, n, _ in rows if name == "interpreted"), None)
    compiled = next((n for name, n, _ in rows if name == "compiled"), None)
    for name, n, startup in rows:
        ratio = f"{interp / n:.2f}x" if interp and n > 0 else "-"
        # the seeds' "+N%": fewer instructions than the compiled bytecode's is faster
        over = f"{(compiled / n - 1) * 100:+.0f}%" if compiled and n > 0 else "-"
        print(f"{name:<14} {n:>14,} {n / size:>9.1f} {n / blocks:>10,.0f} {ratio:>15} {over:>12} {startup:>12,}")
    return 0


GLUE_COUNT = 100  # digests counted
GLUE_WARM = 300   # digests before them: past -XX:CompileThreshold=GLUE_THRESHOLD for what runs once a digest
GLUE_THRESHOLD = 100


def glue_mode(args):
    """AArch64's --callgrind: guest instructions a digest (-p digesterName, -p length) in the stubs
    and outside them (the glue: the interpreter, natives, compiled code), under QEMU. DigestLoop.mva
    runs GLUE_WARM + GLUE_COUNT digests and GLUE_WARM; the difference over GLUE_COUNT is one digest in
    the steady state. Blocks whose first pc is inside a stub's bounds (as -XX:+PrintStubCode prints
    them, in the same run) are the stubs'. CompileThreshold is lowered for every configuration so
    that the warm-up fits QEMU's log (the compiled code is the same: the policy only picks when)."""
    import shlex

    from .callgrind import stub_ranges

    if not args.qemu_cpu:
        sys.exit("bench: --glue needs --qemu-cpu MODEL (QEMU's execution log is what is counted)")
    minivm = os.path.join(args.build, "minivm")
    loop = os.path.join(ROOT, "bench", "DigestLoop.mva")
    base = wrapper(args) + [minivm, "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintStubCode",
                            f"-XX:CompileThreshold={GLUE_THRESHOLD}"]
    configs = [("default", [])]
    for spec in args.config:
        name, _, options = spec.partition("=")
        configs.append((name, shlex.split(options)))
    print(f"AArch64 instructions a digest under qemu-aarch64 -cpu {args.qemu_cpu} (-d in_asm,exec,nochain; "
          f"bench/DigestLoop.mva {GLUE_WARM + GLUE_COUNT} digests less {GLUE_WARM}, divided by {GLUE_COUNT}, "
          f"-XX:CompileThreshold={GLUE_THRESHOLD}; deterministic)")
    print(f"{'config':<12} {'digest':<10} {'length':>6} {'total':>9} {'in stubs':>9} {'outside':>9}")
    rows = []
    for cname, opts in configs:
        for digest in args.params["digesterName"]:
            for length in args.params["length"]:
                split = []
                for n in (GLUE_WARM + GLUE_COUNT, GLUE_WARM):
                    ran, out = guest_instructions_by_block(base + opts + [loop, str(n), str(length), digest])
                    ranges = stub_ranges(out)
                    inside = sum(v for pc, v in ran.items() if any(a <= pc < b for a, b in ranges))
                    split.append((sum(ran.values()), inside))
                total = (split[0][0] - split[1][0]) / GLUE_COUNT
                stubs = (split[0][1] - split[1][1]) / GLUE_COUNT
                rows.append({"config": cname, "digest": digest, "length": int(length), "total": total,
                             "in_stubs": stubs, "outside": total - stubs})
                print(f"{cname:<12} {digest:<10} {length:>6} {total:>9,.0f} {stubs:>9,.0f} {total - stubs:>9,.0f}")
    return rows
