#!/usr/bin/python3
"""bench/runner.py — the benchmark runner (started as `sh scripts/bench [options]`).

The JDK's MessageDigests benchmark (digest, getAndDigest) for a matrix of
configurations x benchmarks x algorithms x lengths, each configuration in its
own process per fork (a JMH fork), with JMH's options and statistics; then
JMH's result table per configuration, the seeds' comparison against a
baseline ("gpr: +37%"), a JMH-compatible JSON file and a chart (PNG, SVG)
under results/. docs/benchmarks.md#the-runner documents it.

Configurations (each a named set of VM options, declared once):
  interpreted        minivm with every SHA intrinsic off
  <variant>          one per SHA-3 stub variant this host runs, as the VM lists them
                     (-XX:+PrintStubVariants: name and options), for the SHA-3 digests
  <family>-<variant> the same for the SHA-1, SHA-256 and SHA-512 stubs ("sha256-sha-ni"),
                     for their family's digests
  C-ref, OpenSSL     in-process: build/bench/digest_native ref|openssl
  java-C2, java-Xint HotSpot with bench/MessageDigests.java (JAVA_HOME's JDK 25+, the
                     project's HotSpot 25 from scripts/oracle, or java on PATH): C2 with
                     the intrinsics the CPU gives it, and the interpreter;
                     java-C2-nointrinsics: C2 with no SHA intrinsic
  --config NAME='-XX:...'   the user's, on minivm

--main is the main job (sh scripts/run): digest only, the interpreter, the stubs, OpenSSL
and HotSpot with and without its intrinsics, ending with the summary (bench/mdbench/summary.py).

--mca prints instead the per-CPU static model (bench/mca.py); --file MIB times the
whole VM on a large file (examples/digest.mva) beside openssl dgst; --qemu-cpu MODEL
--count counts retired guest instructions from QEMU's execution log; --goals runs
bench/sha3_compare (the interpreter's goals); --report all of it into docs/PERFORMANCE.md.
"""

import argparse
import datetime
import io
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mdbench.common import (BENCHMARK_FQN, EMULATION_NOTE, ROOT, find_hotspot, keys, machine_info,  # noqa: E402
                            shown, standard_name, user_path)
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


def duration(text):
    """JMH's time values: a number with a unit (ns us ms s min); a bare number is milliseconds here
    (JMH's own default unit is the second: docs/benchmarks.md)."""
    m = re.fullmatch(r"([0-9]+)\s*(ns|us|ms|s|min)?", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"invalid time {text!r}: a number of ms, or with a unit: 500ms, 1s")
    n, unit = int(m.group(1)), m.group(2) or "ms"
    ms = {"ns": n / 1e6, "us": n / 1e3, "ms": n, "s": n * 1000, "min": n * 60000}[unit]
    return int(round(ms))


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


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="sh scripts/bench", allow_abbrev=False,
        description="MessageDigests for every configuration: JMH's tables, the seeds' comparison, a summary, "
                    "JSON (or CSV, text) and charts.")
    p.add_argument("benchmarks", nargs="*", default=[], metavar="digest|getAndDigest",
                   help="the benchmarks (default: both)")
    p.add_argument("-p", action="append", default=[], metavar="NAME=V,V",
                   help="digesterName=SHA-256,SHA3-256,SHA3-512 or length=64,16384 (JMH's -p)")
    p.add_argument("-wi", type=int, default=None, help="warm-up iterations (default 3; --main: 1; quick: 1)")
    p.add_argument("-i", type=int, default=None, help="measurement iterations (default 5; --main: 5; quick: 3)")
    p.add_argument("-w", type=duration, default=None, metavar="TIME",
                   help="warm-up iteration time: ms, or with a unit (500ms, 1s) (default 500; --main: 200; quick: 50)")
    p.add_argument("-r", type=duration, default=None, metavar="TIME",
                   help="measurement iteration time, as -w (default 500; --main: 150; quick: 100)")
    p.add_argument("-f", type=int, default=None, help="forks: processes per configuration (default 1; --main: 2)")
    p.add_argument("-rf", default="json", choices=("json", "csv", "text"),
                   help="the result file's format, as JMH's -rf (default json)")
    p.add_argument("-rff", default=None, metavar="FILE",
                   help="the result file (default results/messagedigests-DATE.json, .csv or .txt)")
    p.add_argument("-l", action="store_true", help="list the configurations and parameters, and run nothing")
    p.add_argument("--main", action="store_true",
                   help="the main job (sh scripts/run): digest of SHA-256, SHA3-256 and SHA3-512 at 64 B and 16 KiB, "
                        "the interpreter, every stub, OpenSSL and HotSpot; the summary without the tables")
    p.add_argument("--tables", action="store_true",
                   help="with --main: print JMH's tables and the comparisons too (sh scripts/bench prints them)")
    p.add_argument("--config", action="append", default=[], metavar="NAME='OPTIONS'",
                   help="add a configuration: minivm with these VM options")
    p.add_argument("--only", default=None, metavar="A,B", help="run only these configurations")
    p.add_argument("--baseline", default="interpreted", help="the comparison's baseline (default interpreted)")
    p.add_argument("--quick", action="store_true", help="the whole matrix in about a minute")
    p.add_argument("--build", default=None, help="the build directory (default build; build-aarch64 with --qemu-cpu)")
    p.add_argument("--qemu-cpu", default=None, metavar="MODEL",
                   help="run the AArch64 cross build under qemu-aarch64 -cpu MODEL")
    p.add_argument("--no-java", action="store_true", help="leave HotSpot out even when java is on PATH")
    p.add_argument("--no-chart", action="store_true", help="write no chart")
    p.add_argument("--results", default=os.path.join(ROOT, "results"), help="where the JSON and charts go")
    p.add_argument("--file", type=int, default=None, metavar="MIB",
                   help="instead: examples/digest.mva SHA3-256 of a MIB-MiB file, the whole VM per configuration, "
                        "beside openssl dgst (interleaved rounds, median wall time)")
    p.add_argument("--rounds", type=int, default=5, help="--file's rounds (default 5)")
    p.add_argument("--select", type=int, default=None, metavar="N",
                   help="instead: SHA3IntrinsicPolicy=measure in N fresh processes against the matrix's 16 KiB "
                        "winner, its start-up cost, and what each static policy picks")
    p.add_argument("--policy-row", default=None, metavar="JSON",
                   help="instead: the SHA-3 policy-table row a results JSON implies for the CPU it was measured on")
    p.add_argument("--count", action="store_true",
                   help="with --qemu-cpu, instead: retired guest instructions of one SHA3-256 digest of 16 KiB "
                        "per configuration, from QEMU's execution log (deterministic)")
    p.add_argument("--callgrind", action="store_true",
                   help="instead: x86-64 instructions per digest (-p digesterName, -p length) in the stubs and "
                        "outside them, by valgrind's callgrind (deterministic); --config adds configurations")
    p.add_argument("--goals", action="store_true",
                   help="instead (first argument): the interpreter's goals, bench/sha3_compare with the rest "
                        "of the arguments (sh scripts/bench --goals --help)")
    p.add_argument("--report", action="store_true",
                   help="instead: run everything below and rewrite docs/PERFORMANCE.md's generated section "
                        "(the matrix, the whole-VM run, llvm-mca, the QEMU matrices), charts in docs/charts/")
    p.add_argument("--mca", action="store_true",
                   help="instead: the llvm-mca table of every stub variant per CPU model (bench/mca.py)")
    p.add_argument("-v", "--verbose", action="store_true", help="print each command")
    reject_unknown(p, argv)
    a = p.parse_args(argv)
    a.wi_given = a.wi is not None
    quick = {"wi": 1, "i": 3, "w": 50, "r": 100, "f": 1}
    main = {"wi": 1, "i": 5, "w": 200, "r": 150, "f": 2}
    full = {"wi": 3, "i": 5, "w": 500, "r": 500, "f": 1}
    for k, v in (quick if a.quick else main if a.main else full).items():
        if getattr(a, k) is None:
            setattr(a, k, v)
    if a.i < 1 or a.wi < 0 or a.w < 0 or a.r < 1 or a.f < 1:
        p.error("need -i >= 1, -wi >= 0, -w >= 0, -r >= 1, -f >= 1")
    a.params = {"digesterName": ["SHA-256", "SHA3-256", "SHA3-512"], "length": ["64", "16384"]}
    for kv in a.p:
        name, eq, values = kv.partition("=")
        if not eq or name not in a.params or not values:
            p.error(f"bad -p {kv!r}: expected digesterName=A,B or length=N,M")
        a.params[name] = values.split(",")
    # the names as the JDK takes them (sha3-256, SHA256, an OID): the standard names the
    # configurations are about
    a.params["digesterName"] = list(dict.fromkeys(standard_name(n) for n in a.params["digesterName"]))
    for b in a.benchmarks:
        if b not in ("digest", "getAndDigest"):
            p.error(f"unknown benchmark {b!r} (MessageDigests has digest, getAndDigest)")
    a.benchmarks = sorted(set(a.benchmarks)) or ["digest", "getAndDigest"]
    if a.main and not any(b in ("digest", "getAndDigest") for b in argv):
        a.benchmarks = ["digest"]
    a.tables = a.tables or not a.main
    if a.build is None:
        a.build = os.path.join(ROOT, "build-aarch64" if a.qemu_cpu else "build")
    else:
        a.build = user_path(a.build)
    a.results = user_path(a.results)
    if a.policy_row:
        a.policy_row = user_path(a.policy_row)
    # the places results go, checked before anything is measured
    try:
        os.makedirs(a.results, exist_ok=True)
    except OSError as e:
        p.error(f"--results {shown(a.results)}: {e.strerror}")
    if not os.access(a.results, os.W_OK):
        p.error(f"--results {shown(a.results)}: not writable")
    if a.rff:
        a.rff = user_path(a.rff)
        where = os.path.dirname(a.rff) or "."
        if os.path.isdir(a.rff):
            p.error(f"-rff {shown(a.rff)}: is a directory")
        if not os.path.isdir(where) or not os.access(where, os.W_OK):
            p.error(f"-rff {shown(a.rff)}: its directory {shown(where)} does not exist or is not writable")
    return a

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
    if args.report:
        return report(args, argv)
    if args.policy_row:
        return policy_row_mode(args.policy_row)
    if args.select is not None:
        return select_mode(args)
    if args.count:
        return count_mode(args)
    if args.callgrind:
        from mdbench.callgrind import callgrind_mode
        return callgrind_mode(args)
    if args.file is not None:
        return file_mode(args)
    if args.mca:
        import mca
        rows = mca.run(args.build, sys.stdout)
        os.makedirs(args.results, exist_ok=True)
        path = os.path.join(args.results, f"mca-{datetime.datetime.now().strftime('%Y%m%d-%H%M%S')}.json")
        with open(path, "w") as f:
            json.dump(rows, f, indent=2)
        print(f"\nJSON:  {shown(path)}")
        return 0
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
    results = args.results
    os.makedirs(results, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    tag = f"-qemu-{args.qemu_cpu}" if args.qemu_cpu else ""
    stem = os.path.join(results, f"messagedigests-{stamp}{tag}")
    docs = jmh_json(configs, raw, summary, args, machine)
    result_file = user_path(args.rff) if args.rff else stem + {"json": ".json", "csv": ".csv", "text": ".txt"}[args.rf]
    # --policy-row reads the JSON: it is written beside any other format
    json_file = result_file if args.rf == "json" else stem + ".json"
    with open(json_file, "w") as f:
        json.dump(docs, f, indent=2)
    buf = io.StringIO()
    warnings = print_summary(configs, summary, raw, args, machine, args.defaults, noise, shown(json_file), buf)
    print(buf.getvalue(), end="")
    if args.rf == "csv":
        with open(result_file, "w") as f:
            jmh_csv(docs, f)
    elif args.rf == "text":
        with open(result_file, "w") as f:
            for c in configs:
                jmh_table(c, summary, args, f)
            comparison_table(configs, summary, args, f)
            hotspot_table(configs, summary, args, f)
            f.write(buf.getvalue())
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


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `sh scripts/bench -l | head` ends quietly
    sys.exit(main(sys.argv[1:]))
