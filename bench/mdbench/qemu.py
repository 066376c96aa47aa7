"""bench/mdbench/qemu.py — retired guest instructions under QEMU user mode (--count): QEMU's
execution log, counted; deterministic where times are not."""

import os
import subprocess
import sys

from .common import ROOT, stop
from .configs import discover


def count_log(lines):
    """Guest instructions in a QEMU -d in_asm,exec,nochain log: each "IN:" block lists a translated
    block's instructions ("0x<pc>:  <insn>", up to a blank line), each "Trace N: <host> [<flags>/<pc>/...]"
    line is one execution of the block at <pc>; a block translated again replaces its length."""
    blocks, count, start, length = {}, 0, None, 0
    for line in lines:
        if line.startswith("Trace "):
            pc = int(line[line.index("[") + 1:].split("/")[1], 16)
            count += blocks.get(pc, 0)
        elif line.startswith("IN:"):
            start, length = None, 0
        elif line.startswith("0x"):
            if start is None:
                start = int(line.split(":", 1)[0], 16)
            length += 1
        elif not line.strip() and start is not None:
            blocks[start], start = length, None
    return count


def guest_instructions(argv):
    """Retired guest instructions of one QEMU user-mode run: QEMU logs each translated block
    (-d in_asm: its instructions) and, with chaining off, every execution of one (-d
    exec,nochain: its guest pc); the sum over executions of the block's length."""
    proc = subprocess.Popen(argv[:1] + ["-d", "in_asm,exec,nochain"] + argv[1:], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, errors="replace")
    try:
        count = count_log(proc.stderr)
        out = proc.stdout.read()
    except BaseException:  # Ctrl-C: QEMU ends with the runner
        stop(proc)
        raise
    if proc.wait() != 0:
        sys.exit(f"bench --count: {' '.join(argv)} failed")
    return count, out


def count_mode(args):
    """Guest instructions per SHA3-256 digest of 16 KiB under QEMU, per minivm configuration:
    a run on 16 KiB less a run on an empty file (start-up, loading and the empty digest)."""
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
        full, empty = os.path.join(tmp, "full"), os.path.join(tmp, "empty")
        data = os.urandom(size)
        with open(full, "wb") as f:
            f.write(data)
        open(empty, "wb").close()
        want = hashlib.sha3_256(data).hexdigest()
        for c in [c for c in configs if c.kind == "minivm"]:
            base = c.command[:-1] + [digest, "SHA3-256"]
            n_full, out = guest_instructions(base + [full])
            if not out.startswith(want):
                sys.exit(f"bench --count: {c.name}: wrong digest")
            n_empty, _ = guest_instructions(base + [empty])
            rows.append((c.name, n_full - n_empty, n_empty))
    print(f"Retired guest instructions of one SHA3-256 digest of {size} bytes (examples/digest.mva; a run on "
          f"{size} bytes less a run on an empty file), qemu-aarch64 -cpu {args.qemu_cpu} -d in_asm,exec,nochain; "
          f"deterministic, unlike the times")
    print(f"{'config':<14} {'instructions':>14} {'per byte':>9} {'vs interpreted':>15} {'start-up':>12}")
    interp = next((n for name, n, _ in rows if name == "interpreted"), None)
    for name, n, startup in rows:
        ratio = f"{interp / n:.2f}x" if interp and n > 0 else "-"
        print(f"{name:<14} {n:>14,} {n / size:>9.1f} {ratio:>15} {startup:>12,}")
    return 0
