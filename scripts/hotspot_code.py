#!/usr/bin/python3
"""scripts/hotspot_code.py — minivm's stubs against HotSpot 25's, stub by stub: the instruction
mix (how many of each mnemonic, both decoded by llvm-mc) and the size (docs/stubs.md, "The stubs
against HotSpot 25's").

    hotspot_code.py [--build DIR]            the table: live HotSpot 25 where it runs (x86-64
                                             natively, AArch64 under qemu-aarch64 -cpu max), its
                                             recorded mixes elsewhere; the live ones must equal
                                             the recorded ones
    hotspot_code.py --check [--build DIR]    minivm's stubs against the recorded mixes only (the
                                             'hotspot_code' test): every stub that claims HotSpot's
                                             design has its mix
    hotspot_code.py --record [--build DIR]   rewrite tests/hotspot/stubs.txt from live HotSpot 25

The pairs, and which ones claim HotSpot's design, are tests/hotspot/stub_pairs.txt. Their
architecture is x86_64, aarch64, or x86_64@MODEL: HotSpot 25 under qemu-x86_64 -cpu MODEL (the
value cross/qemu-x86_64-models.txt gives it), for a stub HotSpot generates only on CPUs this host
is not (sha256_AVX2, without SHA-NI: x86_64@Haswell). The last line of the table: "hotspot: S of
T stubs with HotSpot 25's instruction mix". sh scripts/test-hotspot --code runs the table."""

import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAIRS = os.path.join(ROOT, "tests/hotspot/stub_pairs.txt")
RECORDED = os.path.join(ROOT, "tests/hotspot/stubs.txt")

TRIPLES = {
    "x86_64": ["-triple=x86_64-linux-gnu"],
    "aarch64": ["-triple=aarch64-linux-gnu", "-mattr=+neon,+crypto,+sha2,+sha3,+aes,+crc,+lse"],
}
# How HotSpot 25 is asked for its stubs: natively on x86-64, under QEMU's max (every SHA
# extension; +UseSHA3Intrinsics, which only Apple CPUs get by default) on AArch64.
HOTSPOT = {
    "x86_64": ["sh", "scripts/oracle", "java"],
    "aarch64": ["sh", "scripts/oracle", "java-aarch64", "max"],
}
# Every stub generated at start-up, before the dump goes on (HotSpot 25 delays the compiler
# stubs to another thread by default), so the listing is the same on every run.
EXTRA = {"x86_64": ["-XX:-DelayCompilerStubsGeneration"],
         "aarch64": ["-XX:-DelayCompilerStubsGeneration", "-XX:+UseSHA3Intrinsics"]}


def fail(msg):
    sys.exit(f"hotspot_code: {msg}")


def read_pairs():
    """[(arch, stub, variant, design, expected difference)]: design 'hotspot' (HotSpot's) or 'own'."""
    pairs = []
    for n, line in enumerate(open(PAIRS), 1):
        if line.startswith("#") or not line.strip():
            continue
        head, _, diff = line.partition("|")
        w = head.split()
        if len(w) != 4 or w[3] not in ("hotspot", "own") or not diff.strip():
            fail(f"{PAIRS}:{n}: expected ARCH STUB VARIANT hotspot|own | DIFFERENCE")
        pairs.append((w[0], w[1], w[2], w[3], diff.strip()))
    return pairs


HOLD = """public class Hold {
    public static void main(String[] args) throws Exception {
        System.out.println("pid " + ProcessHandle.current().pid());
        System.out.flush();
        System.in.read();
    }
}
"""


def split_source(source):
    """'x86_64@Haswell' -> ('x86_64', 'Haswell'); 'x86_64' -> ('x86_64', None)."""
    arch, _, model = source.partition("@")
    return arch, model or None


def qemu_model_value(model):
    """The -cpu value of a model in cross/qemu-x86_64-models.txt (its first word is the model)."""
    for line in open(os.path.join(ROOT, "cross/qemu-x86_64-models.txt")):
        w = line.split()
        if len(w) == 2 and not line.startswith("#") and w[1].split(",")[0] == model:
            return w[1]
    fail(f"{model}: not a model of cross/qemu-x86_64-models.txt")


def hotspot_dump(source):
    """{stub name: bytes} of HotSpot 25's stubs (-XX:+PrintStubCode).

    The dump's [MachCode] lines print 4-byte chunks only (AbstractDisassembler::
    decode_range_abstract drops a last partial one), so on x86-64, where a stub's size is any
    number, they lack its last size mod 4 bytes (the epilogue's ret). There the bytes are read
    from the running JVM instead: a program that waits on its standard input, its stubs' ranges
    from the dump, their bytes from /proc/PID/mem. AArch64's instructions are words: its dump
    is whole. Under qemu-x86_64 (x86_64@MODEL) the JVM's pid is QEMU's, whose memory holds the
    guest's at the guest's addresses (a 64-bit guest on a 64-bit host: no offset)."""
    arch, model = split_source(source)
    if arch == "aarch64":
        cmd = HOTSPOT[arch] + ["-XX:+UnlockDiagnosticVMOptions"] + EXTRA[arch] + ["-XX:+PrintStubCode", "-version"]
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if p.returncode != 0:
            fail(f"{' '.join(cmd)}: status {p.returncode}\n{p.stderr[-2000:]}")
        return parse_dump(p.stdout)
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "Hold.java"), "w") as f:
            f.write(HOLD)
        os.chmod(tmp, 0o755)
        if model:  # QEMU reads the host's file system (-L only for the paths the sysroot has)
            head, hold, env = ["sh", "scripts/oracle", "java-x86_64", qemu_model_value(model)], \
                os.path.join(tmp, "Hold.java"), dict(os.environ)
        else:
            head, hold, env = HOTSPOT[arch], "/minivm/Hold.java", dict(os.environ, MINIVM_ORACLE_BIND=tmp)
        cmd = head + ["-XX:+UnlockDiagnosticVMOptions"] + EXTRA[arch] + ["-XX:+PrintStubCode", hold]
        p = subprocess.Popen(cmd, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        out, pid = [], None
        for line in p.stdout:
            if line.startswith("pid "):
                pid = int(line.split()[1])
                break
            out.append(line)
        if pid is None:
            p.wait()
            fail(f"{' '.join(cmd)}: status {p.returncode}, no pid line\n{p.stderr.read()[-2000:]}")
        stubs = parse_dump("".join(out))
        ranges = {m.group(1): (int(m.group(2), 16), int(m.group(3), 16)) for m in
                  re.finditer(r"StubRoutines::(\w+) \[0x([0-9a-f]+), 0x([0-9a-f]+)\]", "".join(out))}
        try:
            mem = open(f"/proc/{pid}/mem", "rb")
        except PermissionError:
            p.kill()
            fail(f"cannot read the JVM's memory (/proc/{pid}/mem): the x86-64 comparison runs as root "
                 "(the project's HotSpot runs under sudo otherwise)")
        with mem:
            for name, (start, end) in ranges.items():
                mem.seek(start)
                code = mem.read(end - start)
                if not code.startswith(stubs.get(name, b"")):
                    fail(f"{name}: the JVM's bytes differ from its dump")
                stubs[name] = code
        p.stdin.close()
        p.wait()
        return stubs


def parse_dump(text):
    """{stub name: bytes} of a -XX:+PrintStubCode listing without hsdis (the [MachCode] hex)."""
    stubs, name, size, data = {}, None, 0, None
    for line in text.splitlines():
        m = re.match(r"StubRoutines::(\w+) \[0x[0-9a-f]+, 0x[0-9a-f]+\] \((\d+) bytes\)", line)
        if m:
            name, size, data = m.group(1), int(m.group(2)), None
        elif name and line.startswith("[MachCode]"):
            data = bytearray()
        elif name and line.startswith("[/MachCode]"):
            stubs[name] = bytes(data[:size])
            name = data = None
        elif data is not None:
            # "  0xADDR: 5548 8bec | 4154 ..." (groups of bytes in memory order)
            for group in re.split(r"[\s|]+", line.split(":", 1)[1]):
                if group:
                    data += bytes.fromhex(group)
    return stubs


def minivm_code(build, arch, stub, variant):
    p = subprocess.run([os.path.join(build, "tests/stub_code"), arch, stub, variant], capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"stub_code {arch} {stub} {variant}: {p.stderr.strip()}")
    lines = p.stdout.split("\n", 1)
    return bytes.fromhex(lines[1].replace("\n", " "))


AARCH64_RET = bytes.fromhex("c0035fd6")


def split_data(arch, code):
    """(code, data bytes after it): HotSpot's AArch64 SHA-1 stub keeps its round constants after
    its final ret; they are data, not instructions."""
    if arch == "aarch64":
        for end in range(len(code) - 4, -1, -4):
            if code[end:end + 4] == AARCH64_RET:
                return code[:end + 4], len(code) - end - 4
    return code, 0


def mix(source, code):
    """Counter of mnemonics llvm-mc decodes in code ('(invalid)' for each word or byte it cannot),
    the data after the code as '(data bytes)'."""
    arch, _ = split_source(source)
    code, data = split_data(arch, code)
    text = " ".join(f"0x{b:02x}" for b in code)
    p = subprocess.run(["llvm-mc", "--disassemble"] + TRIPLES[arch], input=text, capture_output=True, text=True)
    counts = collections.Counter()
    for line in p.stdout.splitlines():
        if line.startswith("\t") and not line.startswith("\t."):
            counts[line.split()[0]] += 1
    counts["(invalid)"] += p.stderr.count("invalid instruction encoding")
    if not counts["(invalid)"]:
        del counts["(invalid)"]
    if data:
        counts["(data bytes)"] = data
    counts["(code bytes)"] = len(code)
    return counts


def read_recorded():
    """{(arch, stub): (size, Counter)} of tests/hotspot/stubs.txt."""
    rec, key = {}, None
    if not os.path.exists(RECORDED):
        return rec
    for line in open(RECORDED):
        if line.startswith("#") or not line.strip():
            continue
        w = line.split()
        if w[0] == "==":
            key = (w[1], w[2])
            rec[key] = (int(w[3]), collections.Counter())
        else:
            m, c = line.rsplit(None, 1)
            rec[key][1][m] = int(c)
    return rec


def format_recorded(rec, header):
    out = [f"# {h}" for h in header]
    for (arch, stub), (size, counts) in sorted(rec.items()):
        out.append(f"== {arch} {stub} {size}")
        out += [f"{m} {c}" for m, c in sorted(counts.items())]
    return "\n".join(out) + "\n"


def difference(hs, mv):
    """'-' when the mixes are equal, else '+N mnemonic' / '-N mnemonic' (minivm against HotSpot)."""
    d = []
    for m in sorted(set(hs) | set(mv)):
        if hs[m] != mv[m]:
            d.append(f"{mv[m] - hs[m]:+d} {m}")
    return ", ".join(d) if d else "-"


def instructions(counts):
    return sum(c for m, c in counts.items() if not m.startswith("("))


def host_arch():
    return {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}.get(os.uname().machine)


def java_version():
    p = subprocess.run(HOTSPOT["x86_64"] + ["-version"], cwd=ROOT, capture_output=True, text=True)
    return p.stderr.splitlines()[1] if p.returncode == 0 else "?"


def main(argv):
    mode, build = "table", os.path.join(ROOT, "build")
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("--check", "--record"):
            mode = a[2:]
        elif a == "--build" and args:
            build = args.pop(0)
        else:
            fail("usage: hotspot_code.py [--check | --record] [--build DIR]")
    if subprocess.run(["sh", "-c", "command -v llvm-mc"], capture_output=True).returncode != 0:
        print("hotspot_code: llvm-mc is not installed (scripts/bootstrap installs it): skipped")
        return 77
    pairs = read_pairs()
    recorded = read_recorded()
    arches = sorted({p[0] for p in pairs})

    live = {}
    if mode in ("table", "record"):
        for arch in arches:
            if split_source(arch)[0] == "x86_64" and host_arch() != "x86_64":
                continue
            dump = hotspot_dump(arch)
            for a, stub, _, _, _ in pairs:
                if a == arch and stub in dump:
                    live[(arch, stub)] = (len(dump[stub]), mix(arch, dump[stub]))
    if mode == "record":
        rec = dict(recorded)
        rec.update(live)
        missing = [f"{a} {s}" for a, s, _, _, _ in pairs if (a, s) not in rec]
        if missing:
            fail("HotSpot 25 generated no " + ", ".join(missing) + " here (the x86-64 SHA-3 stub needs AVX-512)")
        header = ["HotSpot 25's stubs for scripts/hotspot_code.py (sh scripts/test-hotspot --code), decoded by llvm-mc:",
                  f"{java_version()}; x86-64 natively (x86_64@MODEL: under qemu-x86_64 -cpu MODEL), AArch64 under "
                  "qemu-aarch64 -cpu max -XX:+UseSHA3Intrinsics",
                  "rewritten by scripts/hotspot_code.py --record; '== ARCH STUB SIZE', then 'MNEMONIC COUNT' lines"]
        with open(RECORDED, "w") as f:
            f.write(format_recorded(rec, header))
        print(f"hotspot_code: {RECORDED}: {len(rec)} stubs ({len(live)} from this run)")
        return 0

    failed = []
    rows, same = [], 0
    for arch, stub, variant, design, expected in pairs:
        key = (arch, stub)
        if key in live and key in recorded and live[key] != recorded[key]:
            failed.append(f"{arch} {stub}: the live HotSpot 25 differs from tests/hotspot/stubs.txt "
                          f"({difference(recorded[key][1], live[key][1])}): scripts/hotspot_code.py --record")
        hs = live.get(key) or recorded.get(key)
        if not hs:
            failed.append(f"{arch} {stub}: no HotSpot 25 mix (recorded or live)")
            continue
        code = minivm_code(build, split_source(arch)[0], stub, variant)
        mv = mix(arch, code)
        d = difference(hs[1], mv)
        same += d == "-"
        if design == "hotspot" and d != expected:
            failed.append(f"{arch} {stub} {variant} has HotSpot 25's design with the differences '{expected}' "
                          f"(tests/hotspot/stub_pairs.txt, docs/stubs.md), but its mix differs by '{d}' now")
        rows.append((arch, stub, variant, design, hs[0], len(code), instructions(hs[1]), instructions(mv), d,
                     "live" if key in live else "recorded"))

    if mode == "table":
        print("| architecture | stub | minivm variant | design | HotSpot 25 bytes | minivm bytes | instructions "
              "(HotSpot, minivm) | minivm's mix against HotSpot's | HotSpot's |")
        print("|---|---|---|---|---|---|---|---|---|")
        for arch, stub, variant, claim, hsz, msz, hn, mn, d, src in rows:
            design = "HotSpot's" if claim == "hotspot" else "minivm's own"
            base, model = split_source(arch)
            arch = ("x86-64" if base == "x86_64" else "AArch64") + (f" (HotSpot on QEMU {model})" if model else "")
            print(f"| {arch} | `{stub}` | {variant} | {design} | {hsz} | {msz} | {hn}, {mn} | {d} | {src} |")
    for f in failed:
        print(f"hotspot_code: {f}", file=sys.stderr)
    print(f"hotspot: {same} of {len(rows)} stubs with HotSpot 25's instruction mix")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
