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


class OptionError(Exception):
    """An option's value the runner can check only once it knows the configurations (--only,
    --baseline, a --config's name): the runner reports it as argparse does a bad value, before
    anything is measured."""


class HotSpot:
    """A HotSpot to run bench/MessageDigests.java on: its command (before the VM options), the
    path the source has for it, the environment it needs, its version line."""

    def __init__(self, command, source, env, version, where, java=None, banner=("", "")):
        self.command, self.source, self.env, self.version, self.where = command, source, env, version, where
        self.java = java or command[0]  # the java binary itself (JMH's "jvm" field)
        self.banner = banner            # (VM name, build) from the same -version (vm_banner)


def major(version_line):
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
        hs = HotSpot(command, src, env, line, where, *java, banner=vm_banner(p.stderr + "\n" + p.stdout))
        if major(line) >= 25:
            found = hs
            break
        found = found or hs  # older: only when nothing newer is there
    args._hotspot = found
    return found


def stop(proc):
    """End a child the runner started (on Ctrl-C or an error): SIGTERM first, which sudo passes on to
    the project's HotSpot in its root (scripts/oracle: sudo unshare ... chroot ... java) where SIGKILL
    would stop only sudo, then SIGKILL if it is still there after two seconds."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
    proc.wait()


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


def cpu_name():
    """This host's CPU as the runner's JSON names it ("AMD EPYC family 26 model 2"): cpuinfo's
    model name with its family and model, else the architecture."""
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
    return cpu


def machine_info(args):
    cpu = cpu_name()
    if args.qemu_cpu:
        cpu = f"qemu-aarch64 -cpu {args.qemu_cpu} on {cpu}"
    # the CPU as minivm's ergonomics see it (the same wrapper): its PrintCPUFeatures line, and
    # the vendor (x86-64, /proc/cpuinfo's vendor_id) for the policy tables' rows
    ident = {"features": "", "vendor": ""}
    minivm = os.path.join(args.build, "minivm")
    if os.path.exists(minivm):
        p = subprocess.run(wrapper(args) + [minivm, "-XX:+PrintCPUFeatures", "-version"], capture_output=True,
                           text=True)
        ident["features"] = next((l for l in p.stdout.splitlines() if l.startswith("CPU: ")), "")
        banner = vm_banner(p.stderr + "\n" + p.stdout)  # the same -version's banner
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^vendor_id\s*:\s*(\S+)", f.read(), re.M)
        if m and not args.qemu_cpu:
            ident["vendor"] = m.group(1)
    except OSError:
        pass
    hotspot = find_hotspot(args)
    jdk = hotspot.version if hotspot else ""
    clock, clock_source = (None, None) if args.qemu_cpu else cpu_clock_ghz(args.build)
    return {"cpu": cpu, "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), "jdk": jdk,
            "cores": os.cpu_count(), "ident": ident, "clock_ghz": clock, "clock_source": clock_source,
            "openssl": openssl_version(),
            "minivm": banner if os.path.exists(minivm) else ("", ""),
            "hotspot": hotspot.banner if hotspot else ("", "")}


def glob_latest(directory, pattern):
    return sorted(glob.glob(os.path.join(directory, pattern)))


# the directory the user ran scripts/run or scripts/bench from (they cd to the checkout): paths the
# user gives are taken from there, and paths printed are relative to it
CALLER = os.environ.get("MINIVM_CALLER_DIR") or os.getcwd()


def user_path(path):
    """A path the user typed, as an absolute path (relative ones from the caller's directory)."""
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(CALLER, path))


def shown(path):
    """A path to print: relative to the caller's directory when that is shorter, else absolute."""
    rel = os.path.relpath(path, CALLER)
    return rel if len(rel) < len(os.path.abspath(path)) else os.path.abspath(path)


def measured_clock_ghz(build):
    """The core's clock now, measured by build/bench/core_clock (a chain of dependent multiplies);
    None without it or when it fails."""
    tool = os.path.join(build, "bench", "core_clock") if build else None
    if not tool or not os.access(tool, os.X_OK):
        return None
    try:
        p = subprocess.run([tool], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.match(r"([0-9.]+) GHz", p.stdout)
    return float(m.group(1)) if p.returncode == 0 and m else None


def cpu_clock_ghz(build=None):
    """The clock cycles per byte are counted at: the core's, measured now (bench/core_clock.c),
    else the highest cpufreq frequency, else cpuinfo's "cpu MHz" (on a VM the host's nominal
    clock); None when none is known (QEMU)."""
    ghz = measured_clock_ghz(build)
    if ghz:
        return ghz, "measured: a chain of dependent multiplies, bench/core_clock"
    try:
        with open("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq") as f:
            return int(f.read()) / 1e6, "cpufreq's maximum"
    except (OSError, ValueError):
        pass
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"^cpu MHz\s*:\s*([0-9.]+)", f.read(), re.M)
        if m and float(m.group(1)) > 0:
            return float(m.group(1)) / 1000, "/proc/cpuinfo's cpu MHz"
    except OSError:
        pass
    return None, None


def openssl_version():
    """libcrypto's OpenSSL_version(OPENSSL_VERSION), the library digest_native links; "" if absent."""
    import ctypes
    import ctypes.util
    name = ctypes.util.find_library("crypto")
    if not name:
        return ""
    try:
        lib = ctypes.CDLL(name)
        lib.OpenSSL_version.restype = ctypes.c_char_p
        lib.OpenSSL_version.argtypes = [ctypes.c_int]
        return lib.OpenSSL_version(0).decode()
    except (OSError, AttributeError):
        return ""


def vm_banner(text):
    """A VM's name and build as its -version banner gives them (HotSpot's and minivm's third line,
    "OpenJDK 64-Bit Server VM (build 25.0.5+8-..., mixed mode)"): ("", "") when it says nothing."""
    for line in text.splitlines():
        m = re.match(r"^(.*\bVM) \(build ([^,)]+)", line)
        if m:
            return m.group(1), m.group(2)
    return "", ""


STUB_FAMILY = {"md5": "MD5", "sha1": "SHA-1", "sha256": "SHA-256", "sha512": "SHA-512", "sha3": "SHA-3"}


def default_stubs(args):
    """The variant minivm links by default per family on this CPU ({"SHA-3": "avx512-lanes", ...}),
    from -XX:+PrintStubCode's headers; a family without a stub by default is absent."""
    minivm = os.path.join(args.build, "minivm")
    p = subprocess.run(wrapper(args) + [minivm, "-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintStubCode", "-version"],
                       capture_output=True, text=True)
    found = {}
    for m in re.finditer(r"^StubRoutines::(\w+?)_implCompress \((\S+)\)", p.stdout, re.M):
        if m.group(1) in STUB_FAMILY:
            found[STUB_FAMILY[m.group(1)]] = m.group(2)
    return found


# MessageDigest.getInstance's aliases (vm/lib/MessageDigest.mva: sun.security.util.KnownOIDs)
_OIDS = {"1.2.840.113549.2.5": "MD5", "1.3.14.3.2.26": "SHA-1", "2.16.840.1.101.3.4.2.4": "SHA-224", "2.16.840.1.101.3.4.2.1": "SHA-256",
         "2.16.840.1.101.3.4.2.2": "SHA-384", "2.16.840.1.101.3.4.2.3": "SHA-512",
         "2.16.840.1.101.3.4.2.5": "SHA-512/224", "2.16.840.1.101.3.4.2.6": "SHA-512/256",
         "2.16.840.1.101.3.4.2.7": "SHA3-224", "2.16.840.1.101.3.4.2.8": "SHA3-256",
         "2.16.840.1.101.3.4.2.9": "SHA3-384", "2.16.840.1.101.3.4.2.10": "SHA3-512",
         "2.16.840.1.101.3.4.2.11": "SHAKE128-256", "2.16.840.1.101.3.4.2.12": "SHAKE256-512"}
_NAMES = {"SHA": "SHA-1", "SHA1": "SHA-1", "SHA224": "SHA-224", "SHA256": "SHA-256", "SHA384": "SHA-384",
          "SHA512": "SHA-512", "SHA512/224": "SHA-512/224", "SHA512/256": "SHA-512/256",
          "SHAKE128": "SHAKE128-256", "SHAKE256": "SHAKE256-512"}
# MessageDigests.mva's SHAKE128 pairs (SHA3Parallel), by their exact names
PAIRS = ("SHAKE128x2", "SHAKE128x2-single")
# every digest MessageDigests takes: getInstance's standard names, minivm's SHA-256 as JDK 15
# wrote it, and the pairs
DIGEST_NAMES = tuple(dict.fromkeys(_OIDS.values())) + ("SHA-256-JDK15",) + PAIRS


def standard_name(name):
    """The standard name of a digest name as MessageDigest.getInstance takes it (any case, Java's
    aliases, the OIDs bare or after "OID."), so the runner's configurations recognise it; a name
    it does not know comes back in upper case (not in DIGEST_NAMES)."""
    u = name.upper()
    oid = u[4:] if u.startswith("OID.") and len(u) > 4 else u
    pairs = {p.upper(): p for p in PAIRS}
    return _OIDS.get(oid) or _NAMES.get(u) or pairs.get(u) or u
