#!/usr/bin/python3
"""bench/runner.py — the benchmark runner (started as `sh scripts/bench [options]`).

The JDK's MessageDigests benchmark (digest, getAndDigest) for a matrix of
configurations x benchmarks x algorithms x lengths, each configuration in its
own process per fork (a JMH fork), with JMH's options and statistics; then
JMH's result table per configuration, the seeds' comparison against a
baseline ("gpr: +37%"), a JMH-compatible JSON file and a chart (PNG, SVG)
under results/. docs/benchmarks.md#the-runner documents it.

Configurations (each a named set of VM options, declared once):
  interpreted        minivm's interpreter alone (-XX:TieredStopAtLevel=0), every SHA intrinsic off
  compiled           minivm's compiler tier on the same bytecode, every SHA intrinsic off
  <variant>          one per SHA-3 stub variant this host runs, as the VM lists them
                     (-XX:+PrintStubVariants: name and options), for the SHA-3 digests
  <family>-<variant> the same for the SHA-1, SHA-256 and SHA-512 stubs ("sha256-sha-ni"),
                     for their family's digests
  C-ref, OpenSSL     in-process: build/bench/digest_native ref|openssl
  java-C2, java-Xint HotSpot with bench/MessageDigests.java (JAVA_HOME's JDK 25+, the
                     project's HotSpot 25 from scripts/oracle, or java on PATH): C2 with
                     the intrinsics the CPU gives it, and the interpreter;
                     java-C2-nointrinsics: C2 with no SHA intrinsic; java-C1: C1 alone
                     (-XX:TieredStopAtLevel=1), which has no SHA intrinsic
  --config NAME='-XX:...'   the user's, on minivm

--main is the main job (sh scripts/run): digest only, the interpreter, the stubs, OpenSSL
and HotSpot with and without its intrinsics, ending with the summary (bench/mdbench/summary.py).

--mca prints instead the per-CPU static model (bench/mca.py); --file MIB times the
whole VM on a large file (examples/digest.mva) beside openssl dgst; --qemu-cpu MODEL
--count counts retired guest instructions from QEMU's execution log; --goals runs
bench/sha3_compare (the interpreter's goals); --report all of it into docs/PERFORMANCE.md.
"""

import argparse
import contextlib
import datetime
import io
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mdbench.common import (BENCHMARK_FQN, DIGEST_NAMES, EMULATION_NOTE, ROOT, OptionError,  # noqa: E402
                            find_hotspot, keys, machine_info, shown, standard_name, user_path)
from mdbench.configs import discover  # noqa: E402
from mdbench.docsreport import report  # noqa: E402
from mdbench.filemode import file_mode  # noqa: E402
from mdbench.measure import run_matrix  # noqa: E402
from mdbench.policy import policy_row_mode, select_mode  # noqa: E402
from mdbench.qemu import count_mode  # noqa: E402
from mdbench.report import chart, comparison_table, hotspot_table, jmh_csv, jmh_json, jmh_table  # noqa: E402
from mdbench.summary import Noise, print_summary  # noqa: E402

QUICK_NOTE = ("bench: --quick is a smoke run: it shows that everything runs; its figures are not measurements "
              "(sh scripts/run measures)")
# MessageDigests.mva's limits (bench/Jmh.mva's parseArgs, its check): the runner refuses beyond them before a fork does
MAX_ITERATIONS = 10000   # -wi, -i
MAX_MS = 3600000         # -w, -r: an hour
MAX_LENGTH = 2147483647  # -p length: a Java array's


def duration(text):
    """JMH's time values: a number with a unit (ns us ms s min); a bare number is milliseconds here
    (JMH's own default unit is the second: docs/benchmarks.md)."""
    m = re.fullmatch(r"([0-9]+)\s*(ns|us|ms|s|min)?", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"invalid time {text!r}: a number of ms, or with a unit: 500ms, 1s")
    n, unit = int(m.group(1)), m.group(2) or "ms"
    ms = {"ns": n / 1e6, "us": n / 1e3, "ms": n, "s": n * 1000, "min": n * 60000}[unit]
    return int(round(ms))


def iteration_time(least):
    """-w, -r: a duration of least..MAX_MS milliseconds."""

    def parse(text):
        ms = duration(text)
        if not least <= ms <= MAX_MS:
            in_ms = "" if re.fullmatch(r"\s*[0-9]+\s*", text) else f" ({ms} ms)"
            raise argparse.ArgumentTypeError(f"{text!r}{in_ms} is out of range: expected {least}..{MAX_MS} ms "
                                             "(an hour: MessageDigests' limit)")
        return ms
    return parse


def number(least, most=None):
    """An integer option: least..most (most None: no limit)."""
    span = f"{least}..{most}" if most is not None else f"at least {least}"

    def parse(text):
        if not re.fullmatch(r"\s*-?[0-9]+\s*", text):
            raise argparse.ArgumentTypeError(f"invalid number {text!r}: expected {span}")
        n = int(text)
        if n < least or (most is not None and n > most):
            raise argparse.ArgumentTypeError(f"{n} is out of range: expected {span}")
        return n
    return parse


def given(text):
    """A name, path or list option: not empty (an empty -rff would be the caller's directory)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty value")
    return text


def reject_unknown(parser, argv):
    """An option the runner does not have is named in the error (argparse would read -rf2 as -r f2,
    "argument -r: invalid value"); JMH's options the runner lacks are named as such."""
    takes = {}
    for action in parser._actions:
        for o in action.option_strings:
            takes[o] = action.nargs != 0
    jmh_only = ("-bm", "-bs", "-e", "-foe", "-gc", "-jvm", "-jvmArgs", "-jvmArgsAppend", "-jvmArgsPrepend", "-lp",
                "-lprof", "-lrf", "-o", "-opi", "-prof", "-si", "-t", "-tg", "-to", "-tu", "-wbs", "-wf",
                "-wm", "-wmb")
    i = 0
    while i < len(argv):
        a = argv[i]
        i += 1
        if a == "--":
            break
        if not a.startswith("-") or a == "-" or re.fullmatch(r"-[0-9.]+", a):
            continue
        name = a.split("=", 1)[0] if a.startswith("--") else a
        if name in takes:
            if takes[name] and "=" not in a:
                i += 1
            continue
        if name in jmh_only:
            parser.error(f"JMH's option {name} is not one the runner has (it has -wi -i -w -r -f -p -rf -rff -l -h)")
        parser.error(f"unknown option {a!r} (JMH's options here: -wi -i -w -r -f -p -rf -rff -l -h; "
                     f"sh scripts/bench --help lists them all)")


def make_parser():
    p = argparse.ArgumentParser(
        prog="sh scripts/bench", allow_abbrev=False,
        description="MessageDigests for every configuration: JMH's tables, the seeds' comparison, a summary, "
                    "JSON (or CSV, text) and charts.")
    p.add_argument("benchmarks", nargs="*", default=[], metavar="digest|getAndDigest",
                   help="the benchmarks (default: both)")
    p.add_argument("-p", action="append", default=[], metavar="NAME=V,V",
                   help="digesterName=SHA-256,SHA3-256,SHA3-512 or length=64,16384 (JMH's -p)")
    p.add_argument("-wi", type=number(0, MAX_ITERATIONS), default=None,
                   help="warm-up iterations, 0..10000 (default 3; --main: 1; quick: 1)")
    p.add_argument("-i", type=number(1, MAX_ITERATIONS), default=None,
                   help="measurement iterations, 1..10000 (default 5; --main: 5; quick: 3)")
    p.add_argument("-w", type=iteration_time(0), default=None, metavar="TIME",
                   help="warm-up iteration time: ms, or with a unit (500ms, 1s), at most 1 hour "
                        "(default 500; --main: 200; quick: 50)")
    p.add_argument("-r", type=iteration_time(1), default=None, metavar="TIME",
                   help="measurement iteration time, as -w, at least 1 ms (default 500; --main: 150; quick: 100)")
    p.add_argument("-f", type=number(1), default=None,
                   help="forks: processes per configuration (default 1; --main: 2)")
    p.add_argument("-rf", default="json", choices=("json", "csv", "text"),
                   help="the result file's format, as JMH's -rf (default json)")
    p.add_argument("-rff", type=given, default=None, metavar="FILE",
                   help="the result file (default results/messagedigests-DATE.json, .csv or .txt)")
    p.add_argument("-l", action="store_true", help="list the configurations and parameters, and run nothing")
    p.add_argument("--main", action="store_true",
                   help="the main job (sh scripts/run): digest of SHA-256, SHA3-256 and SHA3-512 at 64 B and 16 KiB, "
                        "the interpreter, every stub, OpenSSL and HotSpot; the summary without the tables")
    p.add_argument("--tables", action="store_true",
                   help="with --main: print JMH's tables and the comparisons too (sh scripts/bench prints them)")
    p.add_argument("--config", type=given, action="append", default=[], metavar="NAME='OPTIONS'",
                   help="add a configuration: minivm with these VM options")
    p.add_argument("--only", type=given, default=None, metavar="A,B", help="run only these configurations")
    p.add_argument("--baseline", type=given, default="interpreted",
                   help="the comparison's baseline (default interpreted)")
    p.add_argument("--seeds", action="store_true",
                   help="the seeds' table on this host: digest of SHA3-256, SHA3-512, SHA-256, SHA-512, SHA-1 and MD5 "
                        "at 64 B and 16 KiB (-p changes them), every configuration as +N%% over C2's code "
                        "(--baseline java-C2-nointrinsics), minivm's stubs and HotSpot's alike")
    p.add_argument("--quick", action="store_true", help="the whole matrix in about a minute")
    p.add_argument("--build", type=given, default=None,
                   help="the build directory (default build; build-aarch64 with --qemu-cpu)")
    p.add_argument("--qemu-cpu", type=given, default=None, metavar="MODEL",
                   help="run the AArch64 cross build under qemu-aarch64 -cpu MODEL")
    p.add_argument("--no-java", action="store_true", help="leave HotSpot out even when java is on PATH")
    p.add_argument("--no-chart", action="store_true", help="write no chart")
    p.add_argument("--results", type=given, default=os.path.join(ROOT, "results"),
                   help="where the JSON and charts go")
    p.add_argument("--file", type=number(1), default=None, metavar="MIB",
                   help="instead: examples/digest.mva SHA3-256 of a MIB-MiB file, the whole VM per configuration, "
                        "beside openssl dgst (interleaved rounds, median wall time)")
    p.add_argument("--rounds", type=number(1), default=5, help="--file's rounds (default 5)")
    p.add_argument("--select", type=number(1), default=None, metavar="N",
                   help="instead: SHA3IntrinsicPolicy=measure in N fresh processes against the matrix's 16 KiB "
                        "winner, its start-up cost, and what each static policy picks")
    p.add_argument("--policy-row", type=given, default=None, metavar="JSON",
                   help="instead: the SHA-3 policy-table row a results JSON implies for the CPU it was measured on")
    p.add_argument("--count", action="store_true",
                   help="with --qemu-cpu, instead: retired guest instructions of one SHA3-256 digest of 16 KiB "
                        "per configuration, from QEMU's execution log (deterministic)")
    p.add_argument("--glue", action="store_true",
                   help="with --qemu-cpu, instead: AArch64 instructions per digest (-p digesterName, -p length) in "
                        "the stubs and outside them, from QEMU's execution log (deterministic); --config adds "
                        "configurations")
    p.add_argument("--callgrind", action="store_true",
                   help="instead: x86-64 instructions per digest (-p digesterName, -p length) in the stubs and "
                        "outside them, by valgrind's callgrind (deterministic); --config adds configurations")
    p.add_argument("--goals", action="store_true",
                   help="instead (first argument): the interpreter's goals, bench/sha3_compare with the rest "
                        "of the arguments (sh scripts/bench --goals --help)")
    p.add_argument("--report", action="store_true",
                   help="instead: run everything below and rewrite docs/PERFORMANCE.md's generated section "
                        "(the matrix, the whole-VM run, llvm-mca, the QEMU matrices), charts in docs/charts/")
    p.add_argument("--mca-compiled", action="store_true",
                   help="instead: llvm-mca's cycles per loop iteration of minivm's compiled SHA3.keccak and "
                        "SHA2.implCompress0 beside HotSpot 25's C2 code, per AArch64 CPU model "
                        "(bench/compiled_mca.py; --extract-c2 extracts C2's code again under QEMU)")
    p.add_argument("--extract-c2", action="store_true",
                   help="with --mca-compiled: extract C2's code again, HotSpot 25 under qemu-aarch64 per model "
                        "(scripts/oracle), into bench/data/c2/")
    p.add_argument("--model", action="store_true",
                   help="instead: the seeds' table modelled, per CPU llvm-mca knows: cycles per block of C2's and "
                        "C1's code (recorded per QEMU model, bench/c2code.py), minivm's stubs and HotSpot's, each "
                        "as +N%% over C2's code; against seed 000's measurements; -rf csv|json -rff FILE writes it")
    p.add_argument("--cpu", type=given, action="append", default=[], metavar="NAME",
                   help="with --model: only this CPU (llvm-mca's -mcpu name; repeatable)")
    p.add_argument("--merge", type=given, nargs="+", default=None, metavar="JSON",
                   help="instead: the seeds' table across machines from the runner's JSON files (one or more per "
                        "machine): per CPU each configuration +N%% over C2's code, the model beside, the defaults "
                        "implied")
    p.add_argument("--mca-arg", action="append", default=[], metavar="OPTION",
                   help="with --model: pass OPTION to llvm-mca for every CPU (repeatable; the method's variants, "
                        "e.g. --mca-arg=-noalias=false: every load waits for the stores before it)")
    p.add_argument("--against", type=given, default=None, metavar="JSON",
                   help="with --model: a runner JSON measured on one --cpu (sh scripts/bench --seeds), its cells "
                        "beside the model's")
    p.add_argument("--mca", action="store_true",
                   help="instead: the llvm-mca table of every stub variant per CPU model (bench/mca.py)")
    p.add_argument("-v", "--verbose", action="store_true", help="print each command")
    return p


def parse_args(argv):
    """The options, every value checked before anything runs: a bad one is one line naming it
    (after argparse's usage), exit status 2."""
    p = make_parser()
    reject_unknown(p, argv)
    a = p.parse_args(argv)
    a.wi_given = a.wi is not None
    quick = {"wi": 1, "i": 3, "w": 50, "r": 100, "f": 1}
    main = {"wi": 1, "i": 5, "w": 200, "r": 150, "f": 2}
    full = {"wi": 3, "i": 5, "w": 500, "r": 500, "f": 1}
    for k, v in (quick if a.quick else main if a.main else full).items():
        if getattr(a, k) is None:
            setattr(a, k, v)
    a.params = {"digesterName": ["SHA-256", "SHA3-256", "SHA3-512"], "length": ["64", "16384"]}
    if a.seeds:
        # seed 000's digests and lengths, against C2's code (JDK-8359256, JDK-8337666)
        a.params["digesterName"] = ["SHA3-256", "SHA3-512", "SHA-256", "SHA-512", "SHA-1", "MD5"]
        if not any(x == "--baseline" or x.startswith("--baseline=") for x in argv):
            a.baseline = "java-C2-nointrinsics"
    for kv in a.p:
        name, eq, values = kv.partition("=")
        if not eq or name not in a.params or not values:
            p.error(f"bad -p {kv!r}: expected digesterName=A,B or length=N,M")
        items = values.split(",")
        if "" in items:
            p.error(f"bad -p {kv!r}: an empty value")
        if name == "digesterName":
            unknown = [n for n in items if standard_name(n) not in DIGEST_NAMES]
            if unknown:
                p.error(f"bad -p {kv!r}: unknown digest {unknown[0]!r} (MessageDigests has "
                        f"{', '.join(DIGEST_NAMES)}; any case, Java's aliases and OIDs)")
        else:
            bad = [v for v in items if not re.fullmatch(r"[0-9]+", v) or int(v) > MAX_LENGTH]
            if bad:
                p.error(f"bad -p {kv!r}: length {bad[0]!r} is not a number of bytes 0..{MAX_LENGTH}")
        a.params[name] = items
    # the names as the JDK takes them (sha3-256, SHA256, an OID): the standard names the
    # configurations are about; each digest and length once (a fork's results are keyed by them)
    a.params["digesterName"] = list(dict.fromkeys(standard_name(n) for n in a.params["digesterName"]))
    a.params["length"] = list(dict.fromkeys(str(int(v)) for v in a.params["length"]))
    for spec in a.config:
        name, eq, options = spec.partition("=")
        if not eq or not name or re.search(r"[\s,]", name):
            p.error(f"bad --config {spec!r}: expected NAME='-XX:... -XX:...' (a name without spaces or commas)")
        try:
            shlex.split(options)
        except ValueError as e:
            p.error(f"bad --config {spec!r}: {e}")
    for b in a.benchmarks:
        if b not in ("digest", "getAndDigest"):
            p.error(f"unknown benchmark {b!r} (MessageDigests has digest, getAndDigest)")
    a.benchmarks = sorted(set(a.benchmarks)) or ["digest", "getAndDigest"]
    if (a.main or a.seeds) and not any(b in ("digest", "getAndDigest") for b in argv):
        a.benchmarks = ["digest"]
    a.tables = a.tables or not a.main
    if a.build is None:
        a.build = os.path.join(ROOT, "build-aarch64" if a.qemu_cpu else "build")
    else:
        a.build = user_path(a.build)
    a.results = user_path(a.results)
    if a.policy_row:
        a.policy_row = user_path(a.policy_row)
    if a.merge:
        a.merge = [user_path(x) for x in a.merge]
        if a.model or a.policy_row or a.rff:
            p.error("--merge reads result files: it takes no --model, --policy-row or -rff")
    # the places results go, checked before anything is measured
    try:
        os.makedirs(a.results, exist_ok=True)
    except OSError as e:
        p.error(f"--results {shown(a.results)}: {e.strerror}")
    if not os.access(a.results, os.W_OK):
        p.error(f"--results {shown(a.results)}: not writable")
    if a.rff:
        a.rff = user_path(a.rff)
        where = os.path.dirname(os.path.realpath(a.rff))
        if os.path.isdir(a.rff):
            p.error(f"-rff {shown(a.rff)}: is a directory")
        if os.path.exists(a.rff) and not os.access(a.rff, os.W_OK):
            p.error(f"-rff {shown(a.rff)}: not writable")
        # a file is written beside its name and renamed (ResultFile); a device, a pipe or a standard
        # stream is written to
        if not written_directly(a.rff) and (not os.path.isdir(where) or not os.access(where, os.W_OK | os.X_OK)):
            p.error(f"-rff {shown(a.rff)}: its directory {shown(where)} does not exist or is not writable")
    if a.mca_arg and not a.model:
        p.error("--mca-arg is --model's (options for its llvm-mca)")
    if a.cpu and not a.model:
        p.error("--cpu is --model's (the CPUs it models)")
    if a.against:
        if not a.model or len(a.cpu) != 1:
            p.error("--against is --model's, with the one --cpu NAME its JSON was measured on")
        a.against = user_path(a.against)
        if not os.path.isfile(a.against):
            p.error(f"--against {shown(a.against)}: no such file")
    if a.model:
        from model import DIGESTS as MODELLED, ModelError, check_mca_args, cpu_rows
        from c2code import tool
        try:
            cpu_rows(a.cpu)
            check_mca_args(tool("llvm-mca-19", "llvm-mca"), a.mca_arg)
        except ModelError as e:
            p.error(str(e))
        given_digests = any(x.startswith("digesterName=") for x in a.p)
        if given_digests:
            other = [d for d in a.params["digesterName"] if d not in MODELLED]
            if other:
                p.error(f"--model: digest {other[0]} is not one it models ({', '.join(MODELLED)}: a block of each "
                        "compression method)")
        else:
            a.params["digesterName"] = list(MODELLED)
    if a.rff and not a.model:
        other = [o for o, on in (("--select", a.select is not None), ("--file", a.file is not None),
                                 ("--count", a.count), ("--glue", a.glue), ("--mca", a.mca),
                                 ("--mca-compiled", a.mca_compiled),
                                 ("--policy-row", a.policy_row),
                                 ("--callgrind", a.callgrind), ("--report", a.report), ("-l", a.l)) if on]
        if other:
            p.error(f"-rff {shown(a.rff)}: {other[0]} writes no result file (-rff is the matrix's)")
    if a.file is not None:
        tmp = tempfile.gettempdir()
        free = shutil.disk_usage(tmp).free >> 20
        if a.file > free:
            p.error(f"--file {a.file}: a {a.file} MiB file does not fit in {tmp} ({free} MiB free)")
    return a


def standard_stream(path):
    """1 or 2 when path is the runner's standard output or error (/dev/stdout, /dev/fd/2, or the
    file either goes to), else None."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    for fd in (1, 2):
        try:
            if os.path.samestat(st, os.fstat(fd)):
                return fd
        except OSError:
            pass
    return None


def written_directly(path):
    """Is path written to as it is (ResultFile), not replaced: a device or a pipe, anything under
    /dev/ or /proc/, or the runner's own standard output or error (/dev/stdout, even when that
    is redirected to a regular file)."""
    if os.path.abspath(path).startswith(("/dev/", "/proc/")) or standard_stream(path):
        return True
    return os.path.exists(path) and not os.path.isfile(path)


class ResultFile:
    """A result file, opened before anything is measured and written once at the end: a file is
    written beside its name and renamed over it when complete, so a run that fails or is
    interrupted leaves no partial file (and an earlier one as it was); a device, a pipe or a
    standard stream (written_directly: /dev/stdout) is written to where the runner's output has
    got to. option names it in errors ("-rff")."""

    def __init__(self, path, option=""):
        self.path, self.option, self.tmp = path, option, None
        if written_directly(path):
            fd = standard_stream(path)
            # the runner's own stream through its own descriptor, so that what it prints later
            # follows at the same offset (a second open of a redirected stdout would not share it)
            self.file = os.fdopen(os.dup(fd), "w") if fd else open(path, "a")
            return
        self.target = os.path.realpath(path)  # a symbolic link's file is replaced, not the link
        fd, self.tmp = tempfile.mkstemp(dir=os.path.dirname(self.target),
                                        prefix=f".{os.path.basename(self.target)}.", suffix=".tmp")
        if os.path.exists(path):
            mode = os.stat(path).st_mode & 0o7777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        self.file = os.fdopen(fd, "w")

    def write(self, fill):
        """fill(file), then the file in place; a failure (a full disk, -rff /dev/full) is one line,
        exit status 1."""
        try:
            if not self.tmp:  # written directly: after what was printed so far
                sys.stdout.flush()
                sys.stderr.flush()
            fill(self.file)
            self.file.close()
            if self.tmp:
                os.replace(self.tmp, self.target)
                self.tmp = None
        except OSError as e:
            self.discard()
            sys.exit(f"bench: {self.option + ' ' if self.option else ''}{shown(self.path)}: {e.strerror or e}")

    def discard(self):
        """Close it and remove what was written, unless it was put in place."""
        try:
            self.file.close()
        except OSError:
            pass
        if self.tmp:
            os.unlink(self.tmp)
            self.tmp = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.discard()


def open_result(path, args):
    """The ResultFile for path; one that cannot be created is the option's error (-rff, --results)."""
    option = "-rff" if path == args.rff else ""
    try:
        return ResultFile(path, option)
    except OSError as e:
        raise OptionError(f"{option or '--results'} {shown(path)}: {e.strerror}")


def main(argv):
    if argv[:1] == ["--goals"]:
        # the interpreter's goals: bench/sha3_compare (C configurations timed in-process, minivm and
        # java -Xint as children, interleaved rounds, medians of per-round ratios; docs/PERFORMANCE.md)
        tool = os.path.join(ROOT, "build", "bench", "sha3_compare")
        if not os.path.exists(tool):
            sys.exit(f"bench --goals: {tool} is not built (meson compile -C build)")
        rest = argv[1:]
        if "--java" in rest or "--no-java" in rest or "-h" in rest or "--help" in rest:
            return subprocess.call([tool] + rest)
        # the HotSpot the runner finds (HotSpot 25 first); sha3_compare starts one program, so
        # the project's, which runs in its Debian 13 root, gets a two-line wrapper
        hotspot = find_hotspot(argparse.Namespace(no_java=False, qemu_cpu=None))
        if not hotspot:
            return subprocess.call([tool, "--no-java"] + rest)
        print(f"bench --goals: java -Xint is {hotspot.version} ({hotspot.where})", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            java, source = hotspot.command[0], os.path.join(ROOT, "bench", "MessageDigests.java")
            if len(hotspot.command) > 1:
                # the project's java sees bench/ at /minivm: the wrapper renames the source's path
                bench = os.path.join(ROOT, "bench")
                java = os.path.join(tmp, "java")
                with open(java, "w") as f:
                    f.write("#!/bin/sh\n"
                            "for a do shift; case $a in " + shlex.quote(bench) + "/*) a=/minivm/${a#" +
                            shlex.quote(bench) + "/};; esac; set -- \"$@\" \"$a\"; done\n"
                            "exec " + " ".join(shlex.quote(w) for w in hotspot.command) + ' "$@"\n')
                os.chmod(java, 0o755)
            env = hotspot.env or os.environ
            return subprocess.call([tool, "--java", java, "--java-src", source] + rest, env=env)
    args = parse_args(argv)
    try:
        return run(args, argv)
    except OptionError as e:
        make_parser().error(str(e))


def run(args, argv):
    """The mode the options ask for; the matrix by default."""
    if args.report:
        return report(args, argv)
    if args.policy_row:
        return policy_row_mode(args.policy_row)
    if args.merge:
        from mdbench import merge
        try:
            merge.merge(args.merge, sys.stdout, merge.model_predictions(args.build))
        except merge.MergeError as e:
            sys.exit(f"bench --merge: {e}")
        return 0
    if args.select is not None:
        return select_mode(args)
    if args.count:
        return count_mode(args)
    if args.glue:
        from mdbench.qemu import glue_mode
        glue_mode(args)
        return 0
    if args.callgrind:
        from mdbench.callgrind import callgrind_mode
        return callgrind_mode(args)
    if args.file is not None:
        return file_mode(args)
    if args.model:
        import model
        try:
            rows = model.run(args.cpu, args.params["digesterName"], sys.stdout, sys.stderr, build=args.build,
                             mca_args=args.mca_arg)
        except model.ModelError as e:
            sys.exit(f"bench --model: {e}")
        if any(r["cpu"] in model.SEED000 for r in rows) and "SHA3-512" in args.params["digesterName"]:
            model.accuracy(rows, sys.stdout)
        if args.against:
            try:
                model.against_host(rows, args.against, args.cpu[0], sys.stdout, build=args.build)
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
                sys.exit(f"bench --model --against {shown(args.against)}: not a runner JSON ({e})")
        if args.rff:
            model.write(rows, args.rff, args.rf)
            print(f"\n{args.rf.upper()}:  {shown(args.rff)}")
        stem = os.path.join(args.results, f"model-{datetime.datetime.now().strftime('%Y%m%d-%H%M%S')}")
        try:
            charts = model.chart(rows, stem)
        except ImportError:
            print("\nCharts: none (python3-matplotlib is not installed: sh scripts/bootstrap bench)")
        else:
            print("\nCharts: " + ", ".join(shown(c) for c in charts if c.endswith(".png")) + " (and .svg)")
        return 0
    if args.mca_compiled:
        import compiled_mca
        rows = compiled_mca.run(args.build, sys.stdout, extract=args.extract_c2)
        os.makedirs(args.results, exist_ok=True)
        path = os.path.join(args.results, f"mca-compiled-{datetime.datetime.now().strftime('%Y%m%d-%H%M%S')}.json")
        with open(path, "w") as f:
            json.dump(rows, f, indent=2)
        print(f"\nJSON:  {shown(path)}")
        return 0
    if args.mca:
        import mca
        rows = mca.run(args.build, sys.stdout)
        os.makedirs(args.results, exist_ok=True)
        path = os.path.join(args.results, f"mca-{datetime.datetime.now().strftime('%Y%m%d-%H%M%S')}.json")
        with open(path, "w") as f:
            json.dump(rows, f, indent=2)
        print(f"\nJSON:  {shown(path)}")
        return 0
    return matrix_mode(args)


def matrix_mode(args):
    """The matrix (the default mode): measured, printed, and written into the result files."""
    if args.quick:
        print(QUICK_NOTE, flush=True)
    configs, skipped = discover(args)
    if args.l:
        return list_mode(configs, skipped, args)
    machine = machine_info(args)
    combos = len(args.benchmarks) * len(args.params["digesterName"]) * len(args.params["length"])
    # a configuration runs only its digests
    per_fork_ms = sum(len(list(keys(args, c))) * (max(args.wi, c.min_warmup) * args.w + args.i * args.r)
                      for c in configs)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    tag = f"-qemu-{args.qemu_cpu}" if args.qemu_cpu else ""
    stem = os.path.join(args.results, f"messagedigests-{stamp}{tag}")
    result_file = args.rff or stem + {"json": ".json", "csv": ".csv", "text": ".txt"}[args.rf]
    # --policy-row reads the JSON: it is written beside any other format
    json_file = result_file if args.rf == "json" else stem + ".json"
    # the result files, opened before anything is measured; on the way out, removed unless written
    with contextlib.ExitStack() as files:
        json_out = files.enter_context(open_result(json_file, args))
        result_out = json_out if result_file == json_file else files.enter_context(open_result(result_file, args))
        print(f"bench: {len(configs)} configurations x {combos} benchmarks, {args.f} fork(s), "
              f"-wi {args.wi} -i {args.i} -w {args.w} -r {args.r}; about {per_fork_ms * args.f / 1000:.0f} s "
              f"on {machine['cpu']}", flush=True)
        if args.qemu_cpu:
            print(f"bench: {EMULATION_NOTE}")
        for name, why in skipped:
            print(f"bench: skipped {name}: {why}")
        noise = Noise()
        raw, summary = run_matrix(configs, args)
        noise.finish()
        out = sys.stdout
        if args.tables:
            for c in configs:
                jmh_table(c, summary, args, out)
            comparison_table(configs, summary, args, out)
            hotspot_table(configs, summary, args, out)
        docs = jmh_json(configs, raw, summary, args, machine)
        json_out.write(lambda f: json.dump(docs, f, indent=2))
        buf = io.StringIO()
        warnings = print_summary(configs, summary, raw, args, machine, args.defaults, noise, shown(json_file), buf)
        from mdbench.summary import c2_compilation_warning
        w = c2_compilation_warning(args, [c.name for c in configs])
        if w:
            warnings.append(w)
        print(buf.getvalue(), end="")

        def tables(f):
            for c in configs:
                jmh_table(c, summary, args, f)
            comparison_table(configs, summary, args, f)
            hotspot_table(configs, summary, args, f)
            f.write(buf.getvalue())
        if args.rf == "csv":
            result_out.write(lambda f: jmh_csv(docs, f))
        elif args.rf == "text":
            result_out.write(tables)
    print()
    if result_file != json_file:
        print(f"{args.rf}: {' ' * (4 - len(args.rf))}{shown(result_file)}")
    print(f"JSON:  {shown(json_file)}")
    if not args.no_chart:
        paths = chart(configs, summary, raw, args, machine, stem)
        for png, svg in zip(paths[::2], paths[1::2]):
            print(f"chart: {shown(png)}, {shown(svg)}")
    for w in warnings:
        print("\n".join(textwrap.wrap(f"bench: warning: {w}", 100, subsequent_indent="  ")))
    if args.quick:
        print(QUICK_NOTE)
    return 0


def list_mode(configs, skipped, args):
    """-l: the configurations this host has and the parameters, as JMH's -l lists benchmarks."""
    print("Benchmarks:")
    for b in args.benchmarks:
        print(f"  {BENCHMARK_FQN}{b}")
    print("Parameters:")
    for name, values in args.params.items():
        print(f"  {name} = {', '.join(values)}")
    print(f"Configurations ({len(configs)}):")
    width = max(len(c.name) for c in configs) + 2
    for c in configs:
        what = " ".join(c.options) or "(no VM options)"
        extra = [x for x in (c.note, "minivm's default stub here" if c.default else "") if x]
        line = f"  {c.name:<{width}}{what}" + (f"  [{'; '.join(extra)}]" if extra else "")
        print("\n".join(textwrap.wrap(line, 120, subsequent_indent=" " * (width + 4), break_on_hyphens=False)))
    for name, why in skipped:
        print(f"  skipped {name}: {why}")
    return 0


def interrupted():
    """Ctrl-C: one line, and the death by SIGINT the caller expects (sh scripts/bench, then the
    user's shell, report 130; a loop around it stops). On the way here the forks were killed
    (each mode's children end with it) and the result files in progress removed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C changes nothing now
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")  # the progress line
    sys.stderr.write("bench: interrupted\n")
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        pass
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `sh scripts/bench -l | head` ends quietly
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        interrupted()
