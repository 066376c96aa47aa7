#!/usr/bin/python3
"""scripts/oracle_debs.py — fetch Debian packages of another release and architecture for a
sysroot (scripts/oracle): the suite's Packages index from the mirror, each package's .deb,
checked against the index's SHA256, into a directory; prints the paths, one a line.

    oracle_debs.py MIRROR SUITE ARCH DIR PACKAGE...

A package already in DIR with the right checksum is not fetched again."""

import hashlib
import lzma
import os
import sys
import urllib.request


def fetch(url):
    with urllib.request.urlopen(url, timeout=120) as r:
        return r.read()


def index(mirror, suite, arch):
    text = lzma.decompress(fetch(f"{mirror}/dists/{suite}/main/binary-{arch}/Packages.xz")).decode()
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
