#!/usr/bin/python3
"""stubs/policy_rows.py — turn a SHA-3 policy table (stubs/<arch>/sha3_rows.tsv) into the C
initializers its ergonomics include (build time, from stubs/<arch>/meson.build):

    policy_rows.py x86_64  sha3_rows.tsv  sha3_rows_x86_64.inc
    policy_rows.py aarch64 sha3_rows.tsv  sha3_rows_aarch64.inc

x86_64: the rows of minivm_rows, one initializer each. aarch64: for each policy P, a macro
SHA3_ROWS_<P> (non-identifier characters as '_') with its rows. A malformed line stops the build
with the file and line."""

import re
import sys

COLUMNS = {"x86_64": 8, "aarch64": 5}


def fail(path, n, why):
    sys.exit(f"{path}:{n}: {why}")


def c_string(s):
    # '?' escaped too: "??)" would be a trigraph under -std=c11
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("?", "\\?") + '"'


def c_bool(path, n, s):
    if s not in ("true", "false"):
        fail(path, n, f"expected true or false, got {s!r}")
    return s


def c_number(path, n, s, allow_any):
    if allow_any and s == "*":
        return None
    # no leading zero: C would read 010 as octal, Python refuses it
    if not re.fullmatch(r"0x[0-9a-fA-F]+|0|[1-9][0-9]*", s):
        fail(path, n, f"expected a number (decimal without leading zeros, or 0x hex), got {s!r}")
    return s + ("u" if int(s, 0) > 0x7fffffff else "")


def main(arch, path, out):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            cells = line.split("\t")
            if len(cells) != COLUMNS[arch]:
                fail(path, n, f"{len(cells)} tab-separated columns, expected {COLUMNS[arch]}")
            rows.append((n, cells))
    if not rows:
        fail(path, 1, "no rows")
    rel = path[path.rindex("stubs/"):] if "stubs/" in path else path
    text = [f"/* Generated from {rel} by stubs/policy_rows.py: edit the .tsv, not this. */"]
    if arch == "x86_64":
        for n, (vendor, lo, hi, avx512, sha3, lanes, rows_, source) in rows:
            v = "NULL" if vendor == "*" else c_string(vendor)
            text.append(f"{{{v}, {c_number(path, n, lo, False)}, {c_number(path, n, hi, False)}, "
                        f"{c_bool(path, n, avx512)}, {c_bool(path, n, sha3)}, {c_bool(path, n, lanes)}, "
                        f"{c_bool(path, n, rows_)}, {c_string(source)}}},")
        if rows[-1][1][0] != "*" or rows[-1][1][3] != "false":
            fail(path, rows[-1][0], "the last row must match every CPU (vendor *, avx512 false)")
    else:
        policies = {}
        for n, (policy, impl, sha3, simd, source) in rows:
            i = c_number(path, n, impl, True)
            policies.setdefault(policy, []).append(
                (n, impl, f"{{{'ANY_IMPLEMENTER' if i is None else i}, {c_bool(path, n, sha3)}, "
                    f"{c_bool(path, n, simd)}, {c_string(source)}}}"))
        for policy, prows in policies.items():
            if prows[-1][1] != "*":
                fail(path, prows[-1][0], f"policy {policy}'s last row must match every implementer (*)")
            name = re.sub(r"[^A-Za-z0-9]", "_", policy)
            text.append(f"#define SHA3_ROWS_{name} \\")
            text.append(" \\\n".join("    " + r[2] + "," for r in prows))
    with open(out, "w") as f:
        f.write("\n".join(text) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in COLUMNS:
        sys.exit("usage: policy_rows.py x86_64|aarch64 TABLE.tsv OUT.inc")
    main(sys.argv[1], sys.argv[2], sys.argv[3])
