"""bench/mdbench/common.py — what every mode of the runner shares: where the project is, the
QEMU wrapper, the (benchmark, algorithm, length) keys, the machine's description."""

import datetime
import glob
import os
import platform
import re
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BENCHMARK_FQN = "org.openjdk.bench.java.security.MessageDigests."
EMULATION_NOTE = "QEMU user mode (TCG): emulation times, not the speed of a CPU"


class HotSpot:
    """A HotSpot to run bench/MessageDigests.java on: its command (before the VM options), the
    path the source has for it, the environment it needs, its version line."""

    def __init__(self, command, source, env, version, where, java=None):
        self.command, self.source, self.env, self.version, self.where = command, source, env, version, where
        self.java = java or command[0]  # the java binary itself (JMH's "jvm" field)


def _major(version_line):
    m = re.search(r'version "(\d+)', version_line or "")
    return int(m.group(1)) if m else 0


def find_hotspot(args):
    """HotSpot 25 or later, found by itself: JAVA_HOME, then the project's own (scripts/oracle's
    Debian 13 root, set up by sh scripts/bootstrap oracle), then a java on PATH (any version;
    its version line says which). None with --no-java, --qemu-cpu, or no java at all."""
    if getattr(args, "no_java", False) or getattr(args, "qemu_cpu", None):
        return None
    if getattr(args, "_hotspot", False) is not False:
        return args._hotspot
    source = os.path.join(ROOT, "bench", "MessageDigests.java")
    found = None
    candidates = []
    if os.environ.get("JAVA_HOME"):
        candidates.append(([os.path.join(os.environ["JAVA_HOME"], "bin", "java")], source, None, "JAVA_HOME"))
    oracle = os.path.join(ROOT, "scripts", "oracle")
    cache = os.environ.get("MINIVM_ORACLE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "minivm-oracle")
    if os.path.exists(os.path.join(cache, "trixie-amd64.ok")) and platform.machine() in ("x86_64", "AMD64"):
        # java runs in the Debian 13 root, bench/ mounted read-only at /minivm (scripts/oracle)
        env = dict(os.environ, MINIVM_ORACLE_BIND=os.path.join(ROOT, "bench"))
        env.pop("JAVA_HOME", None)
        candidates.append((["sh", oracle, "java"], "/minivm/MessageDigests.java", env, "the project's HotSpot 25",
                           os.path.join(cache, "trixie-amd64", "usr/lib/jvm/java-25-openjdk-amd64/bin/java")))
    if shutil.which("java"):
        candidates.append(([shutil.which("java")], source, None, "java on PATH"))
    for command, src, env, where, *java in candidates:
        try:
            p = subprocess.run(command + ["-version"], capture_output=True, text=True, env=env, timeout=120)
        except (OSError, subprocess.TimeoutExpired):
            continue
        line = p.stderr.splitlines()[0] if p.returncode == 0 and p.stderr else ""
        if not line:
            continue
        hs = HotSpot(command, src, env, line, where, *java)
        if _major(line) >= 25:
            found = hs
            break
        found = found or hs  # older: only when nothing newer is there
    args._hotspot = found
    return found


def wrapper(args):
    return ["qemu-aarch64", "-L", "/", "-cpu", args.qemu_cpu] if args.qemu_cpu else []


def keys(args, config=None):
    """The (benchmark, algorithm, length) triples, all of them or those config runs."""
    for bench in sorted(args.benchmarks):  # JMH's order: alphabetical
        for name in args.params["digesterName"]:
            if config and not config.runs(name):
                continue
            for length in args.params["length"]:
                yield (bench, name, length)


def machine_info(args):
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
        m = re.search(r"^model name\s*:\s*(.+)$", text, re.M)
        fam = re.search(r"^cpu family\s*:\s*(\d+)$", text, re.M)
        mod = re.search(r"^model\s*:\s*(\d+)$", text, re.M)
        if m:
            cpu = m.group(1).strip()
            if fam and mod:
                cpu += f" family {fam.group(1)} model {mod.group(1)}"
    except OSError:
        pass
    if args.qemu_cpu:
        cpu = f"qemu-aarch64 -cpu {args.qemu_cpu} on {cpu}"
    # the CPU as minivm's ergonomics see it (the same wrapper): its PrintCPUFeatures line, and
    # the vendor (x86-64, /proc/cpuinfo's vendor_id) for the policy tables' rows
    ident = {"features": "", "vendor": ""}
    minivm = os.path.join(args.build, "minivm")
    if os.path.exists(minivm):
        out = subprocess.run(wrapper(args) + [minivm, "-XX:+PrintCPUFeatures", "-version"], capture_output=True,
                             text=True).stdout
        ident["features"] = next((l for l in out.splitlines() if l.startswith("CPU: ")), "")
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^vendor_id\s*:\s*(\S+)", f.read(), re.M)
        if m and not args.qemu_cpu:
            ident["vendor"] = m.group(1)
    except OSError:
        pass
    hotspot = find_hotspot(args)
    jdk = hotspot.version if hotspot else ""
    return {"cpu": cpu, "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), "jdk": jdk,
            "cores": os.cpu_count(), "ident": ident}


def glob_latest(directory, pattern):
    return sorted(glob.glob(os.path.join(directory, pattern)))
