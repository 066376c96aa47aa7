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
    jdk = ""
    java = shutil.which("java")
    if java and not args.no_java:
        v = subprocess.run([java, "-version"], capture_output=True, text=True).stderr.splitlines()
        jdk = v[0] if v else ""
    return {"cpu": cpu, "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), "jdk": jdk,
            "cores": os.cpu_count(), "ident": ident}


def glob_latest(directory, pattern):
    return sorted(glob.glob(os.path.join(directory, pattern)))
