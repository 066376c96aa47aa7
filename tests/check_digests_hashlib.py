#!/usr/bin/env python3
"""tests/check_digests_hashlib.py — the digest tool (examples/digest.mva)
against Python's hashlib for every MD5, SHA-1, SHA-2 and SHA-3 name the tool
takes (SHAKE128-256 and SHAKE256-512 among them), on every length 0..1000 and on multi-block files, with the VM
options given (interpreted, or with the stubs the options select).

    check_digests_hashlib.py MINIVM DIGEST_TOOL [VM OPTION...]

One minivm process per algorithm hashes every file; each output line must be
hashlib's digest, two spaces, the file name. Exit 1 on the first difference
(both digests shown), 0 when all agree.
"""
import hashlib
import os
import random
import shlex
import subprocess
import sys
import tempfile

ALGORITHMS = {
    "MD5": "md5", "SHA-1": "sha1", "SHA-224": "sha224", "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512",
    "SHA-512/224": "sha512_224", "SHA-512/256": "sha512_256", "SHA-256-JDK15": "sha256",
    "SHA3-224": "sha3_224", "SHA3-256": "sha3_256", "SHA3-384": "sha3_384", "SHA3-512": "sha3_512",
    # JDK 25's fixed-length SHAKE digests: hashlib's XOFs read to 32 and 64 bytes
    "SHAKE128-256": ("shake_128", 32), "SHAKE256-512": ("shake_256", 64),
}
LENGTHS = list(range(0, 1001)) + [4096, 8191, 8192 + 17, 65536 + 3, 200_000]


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    # a cross build's tests run minivm under QEMU (MINIVM_WRAPPER, tests/meson.build)
    minivm = shlex.split(os.environ.get("MINIVM_WRAPPER", "")) + [sys.argv[1]]
    tool, opts = sys.argv[2], sys.argv[3:]
    # under QEMU (the cross build's every model): the interpreted run once, on max (it is the
    # same on every model), and every third length above 300 for the stubs' run
    emulated = os.environ.get("MINIVM_EMULATED") == "1"
    model = os.environ.get("QEMU_CPU")
    if emulated and model and model != "max" and "-Xint" in opts:
        print("the interpreted run is the same on every QEMU model: it runs under max")
        return 77
    lengths = [n for n in LENGTHS if not emulated or n <= 300 or n % 3 == 0 or n > 1000]
    rng = random.Random(0x5a2)
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for n in lengths:
            path = os.path.join(tmp, "m%06d" % n)
            with open(path, "wb") as f:
                f.write(bytes(rng.getrandbits(8) for _ in range(n)))
            files.append(path)
        for name, lib in ALGORITHMS.items():
            run = subprocess.run(minivm + opts + [tool, name] + files, capture_output=True)
            if run.returncode != 0:
                print("%s %s: exit status %d\n%s" % (name, " ".join(opts), run.returncode,
                                                     run.stderr.decode(errors="replace")))
                return 1
            lines = run.stdout.decode().splitlines()
            if len(lines) != len(files):
                print("%s: %d lines for %d files" % (name, len(lines), len(files)))
                return 1
            for path, line in zip(files, lines):
                with open(path, "rb") as f:
                    data = f.read()
                want = hashlib.new(lib[0], data).hexdigest(lib[1]) if isinstance(lib, tuple) else \
                    hashlib.new(lib, data).hexdigest()
                if line != "%s  %s" % (want, path):
                    print("%s of %d bytes (%s):\n  minivm  %s\n  hashlib %s" % (
                        name, os.path.getsize(path), " ".join(opts) or "default options", line.split()[0], want))
                    return 1
        print("%d algorithms x %d files agree with hashlib (%s)" % (len(ALGORITHMS), len(files),
                                                                    " ".join(opts) or "default options"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
