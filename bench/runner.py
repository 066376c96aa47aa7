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
  java-C2, java-Xint HotSpot with bench/MessageDigests.java when `java` is on
                     PATH (C2 with its SHA-1/SHA-2 intrinsics and without the SHA-3
                     one, and the interpreter); java-C2-nointrinsics: C2 with none
  --config NAME='-XX:...'   the user's, on minivm

--mca prints instead the per-CPU static model (bench/mca.py); --file MIB times the
whole VM on a large file (examples/digest.mva) beside openssl dgst; --qemu-cpu MODEL
--count counts retired guest instructions from QEMU's execution log; --goals runs
bench/sha3_compare (the interpreter's goals); --report all of it into docs/PERFORMANCE.md.
"""

import argparse
import datetime
import json
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mdbench.common import EMULATION_NOTE, ROOT, find_hotspot, keys, machine_info  # noqa: E402
from mdbench.configs import discover  # noqa: E402
from mdbench.docsreport import report  # noqa: E402
from mdbench.filemode import file_mode  # noqa: E402
from mdbench.measure import run_matrix  # noqa: E402
from mdbench.policy import policy_row_mode, select_mode  # noqa: E402
from mdbench.qemu import count_mode  # noqa: E402
from mdbench.report import chart, comparison_table, hotspot_table, jmh_json, jmh_table  # noqa: E402


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="sh scripts/bench",
        description="MessageDigests for every configuration: JMH's tables, the seeds' comparison, JSON, charts.")
    p.add_argument("benchmarks", nargs="*", default=[], metavar="digest|getAndDigest",
                   help="the benchmarks (default: both)")
    p.add_argument("-p", action="append", default=[], metavar="NAME=V,V",
                   help="digesterName=SHA-256,SHA3-256,SHA3-512 or length=64,16384 (JMH's -p)")
    p.add_argument("-wi", type=int, default=None, help="warm-up iterations (default 3; quick: 1)")
    p.add_argument("-i", type=int, default=None, help="measurement iterations (default 5; quick: 3)")
    p.add_argument("-w", type=int, default=None, help="warm-up iteration time, ms (default 500; quick: 50)")
    p.add_argument("-r", type=int, default=None, help="measurement iteration time, ms (default 500; quick: 100)")
    p.add_argument("-f", type=int, default=None, help="forks: processes per configuration (default 1)")
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
    p.add_argument("--goals", action="store_true",
                   help="instead (first argument): the interpreter's goals, bench/sha3_compare with the rest "
                        "of the arguments (sh scripts/bench --goals --help)")
    p.add_argument("--report", action="store_true",
                   help="instead: run everything below and rewrite docs/PERFORMANCE.md's generated section "
                        "(the matrix, the whole-VM run, llvm-mca, the QEMU matrices), charts in docs/charts/")
    p.add_argument("--mca", action="store_true",
                   help="instead: the llvm-mca table of every stub variant per CPU model (bench/mca.py)")
    p.add_argument("-v", "--verbose", action="store_true", help="print each command")
    a = p.parse_args(argv)
    quick = {"wi": 1, "i": 3, "w": 50, "r": 100, "f": 1}
    full = {"wi": 3, "i": 5, "w": 500, "r": 500, "f": 1}
    for k, v in (quick if a.quick else full).items():
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
    for b in a.benchmarks:
        if b not in ("digest", "getAndDigest"):
            p.error(f"unknown benchmark {b!r} (MessageDigests has digest, getAndDigest)")
    a.benchmarks = sorted(set(a.benchmarks)) or ["digest", "getAndDigest"]
    if a.build is None:
        a.build = "build-aarch64" if a.qemu_cpu else "build"
    a.build = os.path.join(ROOT, a.build) if not os.path.isabs(a.build) else a.build
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
    if args.file is not None:
        return file_mode(args)
    if args.mca:
        import mca
        rows = mca.run(args.build, sys.stdout)
        os.makedirs(args.results, exist_ok=True)
        path = os.path.join(args.results, f"mca-{datetime.datetime.now().strftime('%Y%m%d-%H%M%S')}.json")
        with open(path, "w") as f:
            json.dump(rows, f, indent=2)
        print(f"\nJSON:  {os.path.relpath(path)}")
        return 0
    configs, skipped = discover(args)
    machine = machine_info(args)
    combos = len(args.benchmarks) * len(args.params["digesterName"]) * len(args.params["length"])
    runs = sum(len(list(keys(args, c))) for c in configs)  # a configuration runs only its digests
    per_fork_ms = runs * (args.wi * args.w + args.i * args.r)
    print(f"bench: {len(configs)} configurations x {combos} benchmarks, {args.f} fork(s), "
          f"-wi {args.wi} -i {args.i} -w {args.w} -r {args.r}; about {per_fork_ms * args.f / 1000:.0f} s "
          f"on {machine['cpu']}")
    if args.qemu_cpu:
        print(f"bench: {EMULATION_NOTE}")
    for name, why in skipped:
        print(f"bench: skipped {name}: {why}")
    raw, summary = run_matrix(configs, args)
    out = sys.stdout
    for c in configs:
        jmh_table(c, summary, args, out)
    comparison_table(configs, summary, args, out)
    hotspot_table(configs, summary, args, out)
    os.makedirs(args.results, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    tag = f"-qemu-{args.qemu_cpu}" if args.qemu_cpu else ""
    stem = os.path.join(args.results, f"messagedigests-{stamp}{tag}")
    with open(stem + ".json", "w") as f:
        json.dump(jmh_json(configs, raw, summary, args, machine), f, indent=2)
    print(f"\nJSON:  {os.path.relpath(stem + '.json')}")
    if not args.no_chart:
        png, svg = chart(configs, summary, args, machine, stem)
        print(f"chart: {os.path.relpath(png)}, {os.path.relpath(svg)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
