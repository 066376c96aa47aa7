"""bench/mdbench/configs.py — the configurations: the built-ins (asked of the VM, the host and
PATH) and the user's --config; each a named command that runs MessageDigests."""

import os
import platform
import re
import shlex
import subprocess
import sys

from .common import PAIRS, ROOT, OptionError, default_stubs, find_hotspot, major, shown, wrapper


def is_pair(name):
    """MessageDigests.mva's SHAKE128 pairs (SHA3Parallel): minivm's only, no C or HotSpot counterpart here."""
    return name in PAIRS


class Family:
    """A stub family's row (stubs/stubdeclarations.h's STUB_FAMILIES): its id ("SHA256"), the flag
    that turns it on, its display name (PrintStubVariants' family column) and the digests whose
    objects are its records."""

    def __init__(self, line):
        self.id, self.flag, self.display, digests = line.split(" ", 3)
        self.digests = tuple(digests.split(","))

    def about(self, name):
        """Is the digest (or MessageDigests.mva's SHAKE128 pair, double_keccak's) one of this family's?"""
        return name in self.digests or (self.id == "SHA3" and is_pair(name))


# The rows, read once from the build (build/tests/stub_code --families), in their order
_families = []


def stub_families(args):
    """The stub families, from the build the runner runs (under QEMU for --qemu-cpu)."""
    if not _families:
        tool = os.path.join(args.build, "tests", "stub_code")
        try:
            out = subprocess.run(wrapper(args) + [tool, "--families"], capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            sys.exit(f"bench: {shown(tool)} --families failed ({e}): is {shown(args.build)} built?")
        _families.extend(Family(line) for line in out.splitlines() if line.strip())
    return _families


def family_of(digest):
    """The stub family (PrintStubVariants' name) of a standard digest name, or None (the rows read)."""
    return next((f.display for f in _families if f.about(digest)), None)


def config_name(family, variant):
    """A stub variant's configuration name: the SHA-3 variants by their own name (the first stubs:
    the docs and earlier results know them so), the others prefixed by their family's id
    ("sha256-sha-ni")."""
    row = next(f for f in _families if f.display == family)
    return variant if row.id == "SHA3" else f"{row.id.lower()}-{variant}"


def no_intrinsics(args):
    """The options that turn every family's intrinsic off (the interpreted configuration's, and
    HotSpot's without intrinsics): one -XX:-<flag> per row."""
    return ["-XX:+UnlockDiagnosticVMOptions"] + [f"-XX:-{f.flag}" for f in stub_families(args)]


# HotSpot's SHA-3 stubs on AArch64 (JDK-8337666): the SIMD one (FEAT_SHA3) and the GPR one
HOTSPOT_SHA3 = (("java-C2-sha3-simd", "+", "HotSpot's SIMD SHA-3 stub (FEAT_SHA3)"),
                ("java-C2-sha3-gpr", "-", "HotSpot's GPR SHA-3 stub"))


def hotspot_final_flags(hotspot, options):
    """HotSpot's final flags ({name: value text}) and its warnings under the options."""
    try:
        p = subprocess.run(hotspot.command + ["-XX:+UnlockDiagnosticVMOptions"] + options
                           + ["-XX:+PrintFlagsFinal", "-version"], capture_output=True, text=True, env=hotspot.env,
                           timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {}, [f"java -XX:+PrintFlagsFinal did not answer ({e})"]
    flags = {}
    for line in p.stdout.splitlines():
        m = re.match(r"\s*\S+\s+(\w+)\s+:?=\s+(\S+)", line)
        if m:
            flags[m.group(1)] = m.group(2)
    warnings = [ln.strip() for ln in p.stderr.splitlines() if "warning" in ln.lower()]
    return flags, warnings


def hotspot_sha3_variants(hotspot, src, skipped):
    """java-C2-sha3-simd and java-C2-sha3-gpr where this HotSpot has UseSIMDForSHA3Intrinsic and
    keeps UseSHA3Intrinsics on under each (else skipped, saying why)."""
    names = ", ".join(n for n, _, _ in HOTSPOT_SHA3)
    flags, _ = hotspot_final_flags(hotspot, [])
    if "UseSIMDForSHA3Intrinsic" not in flags:
        skipped.append((names, "this HotSpot has no UseSIMDForSHA3Intrinsic (HotSpot 25 has it on AArch64 only; "
                               "java-C2 runs its SHA-3 intrinsic where it has one)"))
        return []
    out = []
    for cname, simd, note in HOTSPOT_SHA3:
        opts = ["-XX:+UnlockDiagnosticVMOptions", "-XX:+UseSHA3Intrinsics", f"-XX:{simd}UseSIMDForSHA3Intrinsic"]
        final, warnings = hotspot_final_flags(hotspot, opts[1:])
        if final.get("UseSHA3Intrinsics") != "true":
            skipped.append((cname, "HotSpot turns UseSHA3Intrinsics off on this CPU"
                                   + (f" ({warnings[0]})" if warnings else "")))
            continue
        out.append(Config(cname, "java", hotspot.command + opts + [src], opts, note,
                          only=lambda n: (n.startswith("SHA3-") or n.startswith("SHAKE")) and not is_pair(n),
                          env=hotspot.env,
                          java=hotspot.java))
    return out


def jit_available(base):
    """Does this minivm compile (its -version says "mixed mode")?"""
    probe = subprocess.run(base + ["-version"], capture_output=True, text=True)
    return "mixed mode" in probe.stderr


def native_has(name):
    """A digest bench/digest_native knows: every one but the SHAKEs."""
    return not name.startswith("SHAKE")


# "  SHA-3   gpr   gpr   runs   -XX:+UseSHA3Intrinsics ...": family, name, kind, runs or why not, options
VARIANT_LINE = re.compile(r"^\s+(\S+)\s+(\S+)\s+(gpr|simd|crypto)\s+(runs|no: \S.*?)\s{2,}(-XX:.*)$")


class Config:
    """A configuration: a name and the command that runs MessageDigests under it."""

    def __init__(self, name, kind, command, options, note="", only=None, stub_kind=None, env=None, java=None,
                 family=None, default=False):
        self.name = name
        self.family = family    # a stub variant's family (PrintStubVariants: SHA-3, SHA-256, ...)
        self.default = default  # the variant minivm links by default on this CPU
        self.min_warmup = 0     # at least this many warm-up iterations (HotSpot's JIT in --main)
        self.java = java        # for HotSpot: the java binary (the command may be a wrapper script)
        self.env = env          # the environment to run it in (None: the runner's)
        self.kind = kind        # "minivm", "native", "java"
        self.stub_kind = stub_kind  # a stub variant's kind (PrintStubVariants: gpr, simd, crypto), else None
        self.command = command  # argv before the benchmark's own arguments
        self.options = options  # the VM options (what JMH's JSON calls jvmArgs)
        self.note = note
        self.only = only        # None: every algorithm; else the algorithms it is about (a predicate)

    def runs(self, name):
        return self.only is None or self.only(name)

def discover(args):
    """The configurations: built-ins (asked of the VM and of the host) and the user's."""
    minivm = os.path.join(args.build, "minivm")
    native = os.path.join(args.build, "bench", "digest_native")
    mva = os.path.join(ROOT, "bench", "MessageDigests.mva")
    if not os.path.exists(minivm):
        sys.exit(f"bench: {shown(minivm)} is not built (meson compile -C {shown(args.build)})")
    base = wrapper(args) + [minivm]
    configs, skipped = [], []
    families = {f.display: f for f in stub_families(args)}
    # the interpreter alone, as before the compiler tier (TieredStopAtLevel=0: nothing compiled, the
    # loader's inlining kept), and the compiler tier on the same bytecode (docs/compiler.md)
    interpreted = no_intrinsics(args) + ["-XX:TieredStopAtLevel=0"]
    configs.append(Config("interpreted", "minivm", base + interpreted + [mva], interpreted))
    compiled = no_intrinsics(args)
    if jit_available(base):
        configs.append(Config("compiled", "minivm", base + compiled + [mva], compiled,
                              "minivm's compiler tier, every SHA intrinsic off"))
    else:
        skipped.append(("compiled", "this build has no compiler for this architecture (docs/compiler.md)"))
    args.defaults = default_stubs(args)
    args.runnable = {}  # family -> the variants this CPU runs (PrintStubVariants' "runs"), measured or not
    listing = subprocess.run(base + ["-XX:+PrintStubVariants", "-version"], capture_output=True, text=True)
    for line in listing.stdout.splitlines():
        m = VARIANT_LINE.match(line)
        if not m or m.group(1) not in families:
            continue
        family, options = families[m.group(1)], m.group(5).split()
        name = config_name(m.group(1), m.group(2))
        if m.group(4) == "runs":
            args.runnable.setdefault(m.group(1), []).append(m.group(2))
            configs.append(Config(name, "minivm", base + options + [mva], options, only=family.about,
                                  stub_kind=m.group(3), family=m.group(1),
                                  default=args.defaults.get(m.group(1)) == m.group(2)))
        else:
            skipped.append((name, m.group(4).replace("no: ", "the CPU lacks it: ")))
    if os.path.exists(native):
        configs.append(Config("C-ref", "native", wrapper(args) + [native, "ref"], [], "stubs/sha3_ref.c, sha2_ref.c, in-process",
                              only=native_has))
        probe = subprocess.run(wrapper(args) + [native, "openssl", "-i", "1", "-r", "1", "-wi", "0",
                                                "-p", "length=1", "-p", "digesterName=SHA3-256", "digest"],
                               capture_output=True, text=True)
        if probe.returncode == 0:
            configs.append(Config("OpenSSL", "native", wrapper(args) + [native, "openssl"], [], "EVP, in-process",
                                  only=native_has))
        else:
            skipped.append(("OpenSSL", probe.stderr.strip() or "digest_native openssl failed"))
    else:
        skipped.append(("C-ref, OpenSSL", f"{native} is not built"))
    hotspot = find_hotspot(args)
    if not hotspot:
        why = "--qemu-cpu" if args.qemu_cpu else "--no-java" if args.no_java else \
            "no HotSpot (sh scripts/bootstrap oracle installs HotSpot 25; or JAVA_HOME, or java on PATH)"
        skipped.append(("java-C2, java-C2-nointrinsics, java-C2-fpuspill, java-Xint, java-C1", why))
    else:
        java, src, env = hotspot.command, hotspot.source, hotspot.env
        # minivm's names are not the JDK's; the SHAKE digests are JDK 25's (an older java on PATH lacks them)
        shake = major(hotspot.version) >= 25
        jdk = lambda n: n != "SHA-256-JDK15" and not is_pair(n) and (shake or not n.startswith("SHAKE"))  # noqa: E731
        configs.append(Config("java-C2", "java", java + [src], [],
                              f"HotSpot C2 with its own intrinsics ({hotspot.version})", only=jdk, env=env,
                              java=hotspot.java))
        # C2's code for the same Java, the seeds' baseline: seed 000's command lines, written out
        # (-XX:TieredStopAtLevel=4, the default) with UseFPUForSpilling off, then on (its default on
        # x86-64, off on AArch64: docs/benchmarks.md, "Configurations"); on x86-64 the first is
        # therefore not C2's default spilling, which java-C2-fpuspill is
        none = no_intrinsics(args) + ["-XX:TieredStopAtLevel=4"]
        for cname, spill, note in (("java-C2-nointrinsics", "-", "spills to the stack"),
                                   ("java-C2-fpuspill", "+", "spills to FP/SIMD registers")):
            if spill == "+" and platform.machine() in ("aarch64", "arm64") and major(hotspot.version) < 26:
                skipped.append((cname, "HotSpot before 26 dies compiling the digests with +UseFPUForSpilling on "
                                       "AArch64 (JDK-8359378, barrierSetAssembler_aarch64.cpp:422)"))
                continue
            opts = none + [f"-XX:{spill}UseFPUForSpilling"]
            configs.append(Config(cname, "java", java + opts + [src], opts,
                                  f"HotSpot C2 without its MD5 and SHA intrinsics, {note} (C2's code)", only=jdk,
                                  env=env, java=hotspot.java))
        # HotSpot's own SHA-3 stubs by name, where it has both (AArch64: UseSIMDForSHA3Intrinsic)
        configs += hotspot_sha3_variants(hotspot, src, skipped)
        configs.append(Config("java-Xint", "java", java + ["-Xint", src], ["-Xint"], "HotSpot's interpreter",
                              only=jdk, env=env, java=hotspot.java))
        c1 = ["-XX:TieredStopAtLevel=1"]
        configs.append(Config("java-C1", "java", java + c1 + [src], c1,
                              "HotSpot C1 alone (no SHA intrinsics: compiled Java)", only=jdk, env=env,
                              java=hotspot.java))
    for spec in args.config:  # NAME=OPTIONS, as parse_args checked
        name, _, options = spec.partition("=")
        if any(c.name == name for c in configs):
            raise OptionError(f"--config {spec!r}: {name} is a configuration already (expected a new NAME='-XX:...')")
        opts = shlex.split(options)
        configs.append(Config(name, "minivm", base + opts + [mva], opts, "--config"))
    if getattr(args, "main", False):
        # the main job's question: the interpreter, the stubs, OpenSSL and HotSpot with and without
        # its intrinsics; the C reference, HotSpot's interpreter, C1 and C2's FP spilling stay in
        # sh scripts/bench
        configs = [c for c in configs if c.name not in ("C-ref", "java-Xint", "java-C1", "java-C2-fpuspill")]
        if not args.wi_given:
            # C2 compiles the digest during the first key's warm-up: one 200 ms iteration leaves the
            # first measurements still rising, so HotSpot warms up for three
            for c in configs:
                if c.kind == "java":
                    c.min_warmup = 3
    if args.only:
        wanted = args.only.split(",")
        unknown = [w for w in wanted if w not in [c.name for c in configs]]
        if unknown:
            raise OptionError(f"--only names {', '.join(unknown) or repr('')}, which this host does not have "
                              f"(it has {', '.join(c.name for c in configs)})")
        configs = [c for c in configs if c.name in wanted or c.name == args.baseline]
    # a configuration about other digests than the ones asked for has nothing to run
    for c in [c for c in configs if not any(c.runs(n) for n in args.params["digesterName"])]:
        skipped.append((c.name, "not about " + ", ".join(args.params["digesterName"])))
    configs = [c for c in configs if any(c.runs(n) for n in args.params["digesterName"])]
    if args.baseline not in [c.name for c in configs]:
        why = next((w for n, w in skipped if args.baseline in n.split(", ")), None)
        raise OptionError(f"--baseline {args.baseline}: " + (f"skipped here: {why}" if why else
                          f"not among the configurations that run here ({', '.join(c.name for c in configs)})"))
    return configs, skipped
