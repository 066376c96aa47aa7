"""bench/mdbench/filemode.py — the whole VM on a large file (--file MIB): examples/digest.mva
per configuration beside openssl dgst, interleaved rounds."""

import os
import shutil
import subprocess
import sys
import time

from .common import EMULATION_NOTE, ROOT, machine_info
from .configs import discover


def file_mode(args):
    """The whole VM on a large file: examples/digest.mva SHA3-256 under every minivm configuration,
    and `openssl dgst -sha3-256` (native only), in interleaved rounds; the median wall time."""
    import hashlib
    import statistics
    import tempfile

    configs, skipped = discover(args)
    runs = [c for c in configs if c.kind == "minivm"]
    digest = os.path.join(ROOT, "examples", "digest.mva")
    machine = machine_info(args)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "in")
        h = hashlib.sha3_256()
        with open(path, "wb") as f:
            for _ in range(args.file):  # a MiB at a time: the file need not fit in memory
                chunk = os.urandom(1 << 20)
                f.write(chunk)
                h.update(chunk)
        want = h.hexdigest()
        commands = [(c.name, c.command[:-1] + [digest, "SHA3-256", path]) for c in runs]
        openssl = shutil.which("openssl")
        if openssl and not args.qemu_cpu:
            commands.insert(0, ("openssl", [openssl, "dgst", "-sha3-256", "-r", path]))
        else:
            skipped.append(("openssl", "--qemu-cpu" if args.qemu_cpu else "no openssl on PATH"))
        for name, why in skipped:
            print(f"bench: skipped {name}: {why}")
        times = {n: [] for n, _ in commands}
        for r in range(args.rounds):
            for name, argv in commands:
                if sys.stderr.isatty():
                    sys.stderr.write(f"\r\033[Kround {r + 1}/{args.rounds}: {name}")
                t0 = time.monotonic()
                out = subprocess.run(argv, capture_output=True, text=True)
                times[name].append(time.monotonic() - t0)
                if out.returncode != 0 or not out.stdout.startswith(want):
                    sys.exit(f"bench: {name}: wrong digest or failure (status {out.returncode}):\n{out.stderr}")
        if sys.stderr.isatty():
            sys.stderr.write("\r\033[K")
    med = {n: statistics.median(t) for n, t in times.items()}
    print(f"examples/digest.mva SHA3-256 of {args.file} MiB, the whole process, median of {args.rounds} interleaved "
          f"rounds; {machine['cpu']}")
    if args.qemu_cpu:
        print(f"# {EMULATION_NOTE} ({args.qemu_cpu})")
    print(f"{'config':<14} {'median ms':>10} {'MiB/s':>9} {'vs OpenSSL':>11} {'vs interp':>10}")
    for name, _ in commands:
        m = med[name]
        vs_ossl = f"{med['openssl'] / m:.2f}x" if "openssl" in med else "-"
        print(f"{name:<14} {m * 1000:>10.0f} {args.file / m:>9.1f} {vs_ossl:>11} {med['interpreted'] / m:>9.2f}x")
    return 0
