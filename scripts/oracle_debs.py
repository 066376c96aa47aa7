#!/usr/bin/python3
"""scripts/oracle_debs.py — fetch Debian packages of another release and architecture for a
sysroot (scripts/oracle), as apt would trust them: the suite's InRelease from the mirror,
its signature checked by gpgv against Debian's archive keyring (debian-archive-keyring, which
Debian 12 has for Debian 13 too), the Packages index checked against the SHA256 the signed
Release gives, each package's .deb against the index's SHA256, into a directory; prints the
paths, one a line.

    oracle_debs.py MIRROR SUITE ARCH DIR PACKAGE...

A package already in DIR with the right checksum is not fetched again."""

import hashlib
import lzma
import os
import subprocess
import sys
import tempfile
import urllib.request

KEYRING = "/usr/share/keyrings/debian-archive-keyring.gpg"


def fetch(url):
    with urllib.request.urlopen(url, timeout=120) as r:
        return r.read()


def signed_release(mirror, suite):
    """The suite's Release text, once gpgv has checked InRelease's signature."""
    with tempfile.TemporaryDirectory() as tmp:
        signed, plain = os.path.join(tmp, "InRelease"), os.path.join(tmp, "Release")
        with open(signed, "wb") as f:
            f.write(fetch(f"{mirror}/dists/{suite}/InRelease"))
        p = subprocess.run(["gpgv", "--keyring", KEYRING, "--output", plain, signed], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"oracle_debs: {mirror}/dists/{suite}/InRelease: no good signature by {KEYRING}:\n{p.stderr}")
        return open(plain).read()


def index(mirror, suite, arch):
    release = signed_release(mirror, suite)
    name = f"main/binary-{arch}/Packages.xz"
    want = None
    in_sha256 = False
    for line in release.splitlines():
        if not line.startswith(" "):
            in_sha256 = line.startswith("SHA256:")
        elif in_sha256 and line.split()[-1] == name:
            want = line.split()[0]
    if not want:
        sys.exit(f"oracle_debs: the signed Release of {suite} has no SHA256 for {name}")
    data = fetch(f"{mirror}/dists/{suite}/{name}")
    if hashlib.sha256(data).hexdigest() != want:
        sys.exit(f"oracle_debs: {name}: SHA256 differs from the signed Release")
    text = lzma.decompress(data).decode()
    packages = {}
    for stanza in text.split("\n\n"):
        fields = {}
        for line in stanza.splitlines():
            if line and not line[0].isspace() and ":" in line:
                k, _, v = line.partition(":")
                fields[k] = v.strip()
        if "Package" in fields:
            packages[fields["Package"]] = fields
    return packages


def main(argv):
    if len(argv) < 5:
        sys.exit("usage: oracle_debs.py MIRROR SUITE ARCH DIR PACKAGE...")
    mirror, suite, arch, directory, names = argv[0].rstrip("/"), argv[1], argv[2], argv[3], argv[4:]
    os.makedirs(directory, exist_ok=True)
    packages = index(mirror, suite, arch)
    for name in names:
        p = packages.get(name)
        if not p:
            sys.exit(f"oracle_debs: {suite}/{arch} has no package {name}")
        path = os.path.join(directory, os.path.basename(p["Filename"]))
        ok = os.path.exists(path) and hashlib.sha256(open(path, "rb").read()).hexdigest() == p["SHA256"]
        if not ok:
            data = fetch(f"{mirror}/{p['Filename']}")
            if hashlib.sha256(data).hexdigest() != p["SHA256"]:
                sys.exit(f"oracle_debs: {p['Filename']}: SHA256 differs from the index")
            with open(path, "wb") as f:
                f.write(data)
        print(path)


if __name__ == "__main__":
    main(sys.argv[1:])
