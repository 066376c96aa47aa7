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
import math
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jmh_stats  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHMARK_FQN = "org.openjdk.bench.java.security.MessageDigests."
EMULATION_NOTE = "QEMU user mode (TCG): emulation times, not the speed of a CPU"

ITERATION = re.compile(r"^(# Warmup )?Iteration\s+(\d+):\s+([0-9.]+|NaN|Infinity)\s+ops/ms")
BENCH_LINE = re.compile(r"^# Benchmark: MessageDigests\.(\w+)")
PARAMS_LINE = re.compile(r"^# Parameters: \(digesterName = ([^,]+), length = (\d+)\)")
def is_sha3(name):
    return name.startswith("SHA3-")


# "  SHA-3   gpr   gpr   runs   -XX:+UseSHA3Intrinsics ...": family, name, kind, runs or why not, options
VARIANT_LINE = re.compile(r"^\s+(\S+)\s+(\S+)\s+(gpr|simd|crypto)\s+(runs|no: \S.*?)\s{2,}(-XX:.*)$")
# PrintStubVariants' family column -> (the configuration name's prefix, the digests it is about)
FAMILIES = {
    "SHA-3": (None, is_sha3),
    "SHA-1": ("sha1", lambda n: n == "SHA-1"),
    "SHA-256": ("sha256", lambda n: n in ("SHA-224", "SHA-256", "SHA-256-JDK15")),
    "SHA-512": ("sha512", lambda n: n in ("SHA-384", "SHA-512", "SHA-512/224", "SHA-512/256")),
}
INTERPRETED = ["-XX:+UnlockDiagnosticVMOptions"] + [f"-XX:-Use{f}Intrinsics" for f in ("SHA1", "SHA256", "SHA512",
                                                                                          "SHA3")]


class Config:
    """A configuration: a name and the command that runs MessageDigests under it."""

    def __init__(self, name, kind, command, options, note="", only=None):
        self.name = name
        self.kind = kind        # "minivm", "native", "java"
        self.command = command  # argv before the benchmark's own arguments
        self.options = options  # the VM options (what JMH's JSON calls jvmArgs)
        self.note = note
        self.only = only        # None: every algorithm; else the algorithms it is about (a predicate)

    def runs(self, name):
        return self.only is None or self.only(name)


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


def wrapper(args):
    return ["qemu-aarch64", "-L", "/", "-cpu", args.qemu_cpu] if args.qemu_cpu else []


def discover(args):
    """The configurations: built-ins (asked of the VM and of the host) and the user's."""
    minivm = os.path.join(args.build, "minivm")
    native = os.path.join(args.build, "bench", "digest_native")
    mva = os.path.join(ROOT, "bench", "MessageDigests.mva")
    if not os.path.exists(minivm):
        sys.exit(f"bench: {minivm} is not built (meson compile -C {os.path.relpath(args.build, ROOT)})")
    base = wrapper(args) + [minivm]
    configs, skipped = [], []
    configs.append(Config("interpreted", "minivm", base + INTERPRETED + [mva], INTERPRETED))
    listing = subprocess.run(base + ["-XX:+PrintStubVariants", "-version"], capture_output=True, text=True)
    for line in listing.stdout.splitlines():
        m = VARIANT_LINE.match(line)
        if not m or m.group(1) not in FAMILIES:
            continue
        family, options = FAMILIES[m.group(1)], m.group(5).split()
        name = m.group(2) if family[0] is None else f"{family[0]}-{m.group(2)}"
        if m.group(4) == "runs":
            configs.append(Config(name, "minivm", base + options + [mva], options, only=family[1]))
        else:
            skipped.append((name, m.group(4).replace("no: ", "the CPU lacks it: ")))
    if os.path.exists(native):
        configs.append(Config("C-ref", "native", wrapper(args) + [native, "ref"], [], "stubs/sha3_ref.c, sha2_ref.c, in-process"))
        probe = subprocess.run(wrapper(args) + [native, "openssl", "-i", "1", "-r", "1", "-wi", "0",
                                                "-p", "length=1", "-p", "digesterName=SHA3-256", "digest"],
                               capture_output=True, text=True)
        if probe.returncode == 0:
            configs.append(Config("OpenSSL", "native", wrapper(args) + [native, "openssl"], [], "EVP, in-process"))
        else:
            skipped.append(("OpenSSL", probe.stderr.strip() or "digest_native openssl failed"))
    else:
        skipped.append(("C-ref, OpenSSL", f"{native} is not built"))
    java = shutil.which("java")
    src = os.path.join(ROOT, "bench", "MessageDigests.java")
    if args.qemu_cpu or args.no_java or not java:
        why = "--qemu-cpu" if args.qemu_cpu else "--no-java" if args.no_java else "no java on PATH"
        skipped.append(("java-C2, java-Xint", why))
    else:
        c2 = ["-XX:+UnlockDiagnosticVMOptions", "-XX:-UseSHA3Intrinsics"]
        jdk = lambda n: n != "SHA-256-JDK15"  # noqa: E731 (minivm's name: the JDK has no such digest)
        configs.append(Config("java-C2", "java", [java] + c2 + [src], c2,
                              "HotSpot C2: its SHA-1/SHA-2 intrinsics, not the SHA-3 one", only=jdk))
        none = ["-XX:+UnlockDiagnosticVMOptions"] + [f"-XX:-Use{f}Intrinsics" for f in ("SHA1", "SHA256", "SHA512")]
        configs.append(Config("java-C2-nointrinsics", "java", [java] + none + [src], none,
                              "HotSpot C2 without the SHA-1/SHA-2 intrinsics",
                              only=lambda n: jdk(n) and not is_sha3(n)))
        configs.append(Config("java-Xint", "java", [java, "-Xint", src], ["-Xint"], "HotSpot's interpreter", only=jdk))
    for spec in args.config:
        name, eq, options = spec.partition("=")
        if not eq or not name or any(c.name == name for c in configs):
            sys.exit(f"bench: bad --config {spec!r}: expected a new NAME='-XX:... -XX:...'")
        opts = shlex.split(options)
        configs.append(Config(name, "minivm", base + opts + [mva], opts, "--config"))
    if args.only:
        wanted = args.only.split(",")
        unknown = [w for w in wanted if w not in [c.name for c in configs]]
        if unknown:
            sys.exit(f"bench: --only names {', '.join(unknown)}, which this host does not have "
                     f"(it has {', '.join(c.name for c in configs)})")
        configs = [c for c in configs if c.name in wanted or c.name == args.baseline]
    # a configuration about other digests than the ones asked for has nothing to run
    for c in [c for c in configs if not any(c.runs(n) for n in args.params["digesterName"])]:
        skipped.append((c.name, "not about " + ", ".join(args.params["digesterName"])))
    configs = [c for c in configs if any(c.runs(n) for n in args.params["digesterName"])]
    if args.baseline not in [c.name for c in configs]:
        sys.exit(f"bench: the baseline {args.baseline} is not a configuration here")
    return configs, skipped


class Progress:
    """One line on a terminal: configuration, fork, iteration, time left."""

    def __init__(self, total_ms, enabled):
        self.total_ms, self.done_ms, self.enabled = total_ms, 0.0, enabled
        self.start = time.monotonic()

    def show(self, text):
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        rate = elapsed / self.done_ms if self.done_ms > 0 else 0.001
        left = max(0.0, (self.total_ms - self.done_ms) * rate)
        sys.stderr.write(f"\r\033[K{text}  ~{int(left) // 60}m{int(left) % 60:02d}s left")
        sys.stderr.flush()

    def clear(self):
        if self.enabled:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def run_config(config, fork, args, progress, index, count):
    """One fork of one configuration: {(bench, name, length): [scores]}."""
    names = [n for n in args.params["digesterName"] if config.runs(n)]
    argv = config.command + args.benchmarks + [
        "-p", "digesterName=" + ",".join(names),
        "-p", "length=" + ",".join(args.params["length"]),
        "-wi", str(args.wi), "-i", str(args.i), "-w", str(args.w), "-r", str(args.r), "-v"]
    if args.verbose:
        progress.clear()
        print("$ " + " ".join(shlex.quote(a) for a in argv), file=sys.stderr)
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results, key = {}, None
    bench = None
    for line in proc.stdout:
        line = line.rstrip("\n")
        m = BENCH_LINE.match(line)
        if m:
            bench = m.group(1)
            continue
        m = PARAMS_LINE.match(line)
        if m:
            key = (bench, m.group(1), m.group(2))
            results[key] = []
            continue
        m = ITERATION.match(line)
        if m and key:
            warm = m.group(1) is not None
            progress.done_ms += args.w if warm else args.r
            if not warm:
                results[key].append(float(m.group(3)))
            what = "warm-up" if warm else "iteration"
            progress.show(f"[{index}/{count}] {config.name}, fork {fork}/{args.f}: "
                          f"{key[0]} {key[1]} {key[2]} B, {what} {m.group(2)}")
    err = proc.stderr.read()
    status = proc.wait()
    if status != 0:
        progress.clear()
        sys.exit(f"bench: {config.name} failed (exit status {status}):\n$ {' '.join(argv)}\n{err}")
    want = len(args.benchmarks) * len(names) * len(args.params["length"])
    if len(results) != want or any(len(v) != args.i for v in results.values()):
        progress.clear()
        sys.exit(f"bench: {config.name} printed {len(results)} of {want} results:\n{err}")
    return results


def keys(args, config=None):
    """The (benchmark, algorithm, length) triples, all of them or those config runs."""
    for bench in sorted(args.benchmarks):  # JMH's order: alphabetical
        for name in args.params["digesterName"]:
            if config and not config.runs(name):
                continue
            for length in args.params["length"]:
                yield (bench, name, length)


def fmt(x, width=10):
    return f"{'NaN':>{width}}" if math.isnan(x) else f"{x:{width}.3f}"


def jmh_table(config, summary, args, out):
    """JMH's result table of one configuration."""
    note = f" ({config.note})" if config.note else ""
    print(f"\n# {config.name}{note}: {' '.join(config.options) or '(no VM options)'}", file=out)
    if args.qemu_cpu:
        print(f"# {EMULATION_NOTE} ({args.qemu_cpu})", file=out)
    print(f"{'Benchmark':<28} {'(digesterName)':>14} {'(length)':>9}   Mode  Cnt {'Score':>10}   {'Error':>9}   Units",
          file=out)
    for k in keys(args, config):
        s = summary[config.name][k]
        n = args.i * args.f
        err = "" if math.isnan(s["scoreError"]) else f"± {s['scoreError']:9.3f}"
        print(f"{'MessageDigests.' + k[0]:<28} {k[1]:>14} {k[2]:>9}  thrpt {n:>4} {fmt(s['score'])} {err:>11}  ops/ms",
              file=out)


def comparison_table(configs, summary, args, out):
    """The seeds' table: every configuration against the baseline, in per cent."""
    base = args.baseline
    others = [c.name for c in configs if c.name != base]
    width = max([len(n) for n in others] + [7]) + 1
    print(f"\nComparison against {base} (ops/ms; '~' marks a difference inside the 99.9% error bars):", file=out)
    if args.qemu_cpu:
        print(f"# {EMULATION_NOTE} ({args.qemu_cpu})", file=out)
    head = f"{'Benchmark':<28} {'(digesterName)':>14} {'(length)':>9} {base + ' ops/ms':>18}"
    print(head + "".join(f" {n:>{width}}" for n in others), file=out)
    for k in keys(args):
        b = summary[base].get(k)
        if b is None:
            continue
        row = f"{'MessageDigests.' + k[0]:<28} {k[1]:>14} {k[2]:>9} {fmt(b['score'], 18)}"
        for n in others:
            s = summary[n].get(k)
            if s is None:  # a configuration about other digests
                row += f" {'':>{width}}"
                continue
            pct = (s["score"] / b["score"] - 1.0) * 100.0 if b["score"] > 0 else math.nan
            cell = "NaN" if math.isnan(pct) else f"{pct:+.0f}%"
            if jmh_stats.overlap(s, b):
                cell = "~" + cell
            row += f" {cell:>{width}}"
        print(row, file=out)


def json_number(x):
    # JMH writes NaN and the infinities as strings
    return "NaN" if isinstance(x, float) and math.isnan(x) else x


def jmh_json(configs, raw, summary, args, machine):
    """JMH's -rf json shape: one object per benchmark and parameter set (and configuration)."""
    docs = []
    for c in configs:
        for k in keys(args, c):
            s = summary[c.name][k]
            docs.append({
                "jmhVersion": "minivm bench/runner.py",
                "benchmark": BENCHMARK_FQN + k[0],
                "mode": "thrpt",
                "threads": 1,
                "forks": args.f,
                "jvm": c.command[len(wrapper(args))],
                "jvmArgs": c.options,
                "jdkVersion": machine["jdk"] if c.kind == "java" else "minivm",
                "vmName": c.name,
                "vmVersion": machine["cpu"],
                "warmupIterations": args.wi,
                "warmupTime": f"{args.w} ms",
                "warmupBatchSize": 1,
                "measurementIterations": args.i,
                "measurementTime": f"{args.r} ms",
                "measurementBatchSize": 1,
                "params": {"digesterName": k[1], "length": k[2], "config": c.name},
                "primaryMetric": {
                    "score": json_number(s["score"]),
                    "scoreError": json_number(s["scoreError"]),
                    "scoreConfidence": [json_number(x) for x in s["scoreConfidence"]],
                    "scorePercentiles": {p: json_number(v) for p, v in s["scorePercentiles"].items()},
                    "scoreUnit": "ops/ms",
                    "rawData": raw[c.name][k],
                },
                "secondaryMetrics": {},
                # minivm's addition (JMH's viewers ignore it): the machine, for --policy-row
                "minivmMachine": {"cpu": machine["cpu"], "date": machine["date"], **machine["ident"]},
            })
    return docs


def chart(configs, summary, args, machine, stem):
    """ops/ms per configuration with the error bars, one panel per benchmark/algorithm/length."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = list(keys(args))
    cols = len(args.params["length"])
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.5 * cols, 3.2 * rows), squeeze=False)
    for ax, k in zip([a for r in axes for a in r], panels):
        names = [c.name for c in configs if k in summary[c.name]]
        scores = [summary[n][k]["score"] for n in names]
        errors = [0.0 if math.isnan(summary[n][k]["scoreError"]) else summary[n][k]["scoreError"] for n in names]
        colors = ["#999999" if n == args.baseline else "#4477aa" for n in names]
        ax.bar(range(len(names)), scores, yerr=errors, capsize=3, color=colors)
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=40, ha="right", fontsize=8)
        ax.set_title(f"MessageDigests.{k[0]}  {k[1]}  length={k[2]}", fontsize=9)
        ax.set_ylabel("ops/ms", fontsize=8)
        ax.tick_params(axis="y", labelsize=8)
        ax.set_ylim(bottom=0)
    for ax in [a for r in axes for a in r][len(panels):]:
        ax.set_visible(False)
    title = f"minivm MessageDigests on {machine['cpu']} ({machine['date']}), error bars: 99.9%"
    if args.qemu_cpu:
        title += f"\n{EMULATION_NOTE} ({args.qemu_cpu})"
    fig.suptitle(title, fontsize=9)
    fig.tight_layout()
    paths = [stem + ".png", stem + ".svg"]
    for path in paths:
        fig.savefig(path, dpi=110)
    plt.close(fig)
    return paths


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


SELECTION_ROW = re.compile(r"^\s+(\S+)\s+([0-9.]+) ns\s+(?:\+-\s*[0-9.]+ %\s*)?(.*)$")


VECTOR = ("simd", "avx2", "avx512", "avx512-lanes")
BUILT_IN = ("interpreted", "C-ref", "OpenSSL", "java-C2", "java-Xint")


def policy_row_mode(path):
    """The policy-table row a results JSON implies for the CPU it was measured on: the fastest stub
    variant at the largest length (SHA3-256 digest, else the first benchmark), its margin over the
    best variant of the other kind (GPR against vector), and the row as the ergonomics' C table."""
    with open(path) as f:
        doc = json.load(f)
    length = max(int(d["params"]["length"]) for d in doc)
    pick = [d for d in doc if int(d["params"]["length"]) == length and d["params"]["digesterName"] == "SHA3-256"
            and d["benchmark"].endswith(".digest")] or [d for d in doc if int(d["params"]["length"]) == length]
    score = {d["params"]["config"]: d["primaryMetric"]["score"] for d in pick}
    stubs = {n: v for n, v in score.items() if n not in BUILT_IN and isinstance(v, (int, float))}
    if not stubs:
        sys.exit(f"bench --policy-row: {path} has no stub variant's result")
    machine = doc[0].get("minivmMachine", {})
    best = max(stubs, key=stubs.get)
    vector = best in VECTOR
    other = {n: v for n, v in stubs.items() if (n in VECTOR) != vector}
    runner_up = max(other, key=other.get) if other else None
    margin = f"{(stubs[best] / other[runner_up] - 1) * 100:.0f} % ahead of {runner_up}" if runner_up else \
        "the only kind measured"
    interp = score.get("interpreted")
    features = machine.get("features", "")
    fam = re.search(r"family (\d+) model (\d+)", features)
    a64 = re.search(r"CPU: total \d+ \(initial active \d+\) (0x[0-9a-f]+):0x[0-9a-f]+:(0x[0-9a-f]+):", features)
    print(f"{path}: {machine.get('cpu', '?')}, measured {machine.get('date', '?')}; "
          f"{pick[0]['benchmark'].rsplit('.', 1)[1]} {pick[0]['params']['digesterName']} at {length} bytes")
    print(f"  fastest stub: {best} {stubs[best]:.3f} ops/ms, {margin}"
          + (f"; {stubs[best] / interp:.1f}x the interpreter" if isinstance(interp, (int, float)) and interp else ""))
    note = f"measured: {os.path.basename(path)} ({machine.get('cpu', '?')}, {machine.get('date', '?')}): {best} {margin}"
    if "qemu" in machine.get("cpu", ""):
        print(f"  note: {EMULATION_NOTE}: a row from these figures describes TCG, not the CPU model")
    if fam:
        avx = "3" if best.startswith("avx512") else "2" if best == "avx2" else "(the CPU's)"
        design = {"avx512-lanes": "lanes", "avx512": "rows"}.get(best, "-")
        print(f"  implies: {machine.get('vendor') or '?'} family {int(fam.group(1)):#x} (model {fam.group(2)}) -> "
              f"UseSHA3Intrinsics=true, UseSIMDForSHA3Intrinsic={'true' if vector else 'false'}, UseAVX={avx}, "
              f"SHA3AVX512Design={design}")
        print("  the row for stubs/x86_64/ergonomics_x86_64.c (minivm_rows: vendor, family range, needs AVX-512, "
              "SHA3, SIMD with lanes, SIMD with rows, source):")
        # each AVX-512 design's own column: is it ahead of the best GPR variant here?
        best_gpr = max((v for n, v in stubs.items() if n not in VECTOR), default=0.0)
        lanes = stubs.get("avx512-lanes", 0.0) > best_gpr
        rows = stubs.get("avx512", 0.0) > best_gpr
        print(f'    {{"{machine.get("vendor") or "?"}", {int(fam.group(1)):#x}, {int(fam.group(1)):#x}, '
              f'{"true" if best.startswith("avx512") else "false"}, true, {"true" if lanes else "false"}, '
              f'{"true" if rows else "false"},\n     "{note}"}},')
    elif a64:
        print(f"  implies: implementer {a64.group(1)} (part {a64.group(2)}) -> UseSHA3Intrinsics=true, "
              f"UseSIMDForSHA3Intrinsic={'true' if vector else 'false'}")
        print("  the row for stubs/aarch64/ergonomics_aarch64.c (a policy's rows: implementer, SHA3, SIMD):")
        print(f"    {{{a64.group(1)}, true, {'true' if vector else 'false'}}}, /* {note} */")
    else:
        print("  (the JSON does not say which CPU: no minivmMachine features line)")
    return 0


def select_mode(args):
    """How good is -XX:SHA3IntrinsicPolicy=measure here: its choice in N fresh processes beside the
    winner of the runner's 16 KiB comparison (SHA3-256 digest, every variant), the start-up it
    costs (-version with and without it, interleaved), and the static policies' choices."""
    import statistics

    configs, skipped = discover(args)
    minivm = wrapper(args) + [os.path.join(args.build, "minivm")]
    variants = [c for c in configs if c.kind == "minivm" and c.name != "interpreted"]
    measure = minivm + ["-XX:SHA3IntrinsicPolicy=measure", "-XX:+UseSHA3Intrinsics", "-XX:+PrintSHA3Selection"]
    choices, costs = [], []
    for _ in range(args.select):
        out = subprocess.run(measure + ["-version"], capture_output=True, text=True).stdout
        rows = [SELECTION_ROW.match(l) for l in out.splitlines()]
        won = [m.group(1) for m in rows if m and m.group(3).startswith("chosen")]
        choices.append(won[0] if won else "-")
        m = re.search(r"selection took (\d+) us", out)
        costs.append(int(m.group(1)) if m else math.nan)
    # the start-up cost from outside: -version with and without measure, interleaved
    plain, measured = [], []
    for _ in range(max(args.select, 10)):
        for argv, into in ((minivm + ["-XX:+UseSHA3Intrinsics", "-version"], plain), (measure + ["-version"], measured)):
            t0 = time.monotonic()
            subprocess.run(argv, capture_output=True)
            into.append((time.monotonic() - t0) * 1000)
    # the matrix's winner at 16 KiB
    args.benchmarks, args.params = ["digest"], {"digesterName": ["SHA3-256"], "length": ["16384"]}
    progress = Progress(0, False)
    scores = {}
    for fork in range(1, args.f + 1):
        for i, c in enumerate(variants, 1):
            res = run_config(c, fork, args, progress, i, len(variants))
            scores.setdefault(c.name, []).extend(res[("digest", "SHA3-256", "16384")])
    mean = {n: statistics.fmean(v) for n, v in scores.items()}
    ranked = sorted(mean, key=mean.get, reverse=True)
    winner, lead = ranked[0], mean[ranked[0]] / mean[ranked[1]] - 1 if len(ranked) > 1 else math.inf
    agree = sum(1 for c in choices if c == winner)
    print(f"SHA3IntrinsicPolicy=measure on {machine_info(args)['cpu']}: {args.select} fresh processes")
    counts = {c: choices.count(c) for c in sorted(set(choices))}
    print("  chosen: " + ", ".join(f"{c} {n}x" for c, n in counts.items()))
    print(f"  selection cost (its own clock): median {statistics.median(costs):.0f} us, max {max(costs):.0f} us")
    print(f"  -version: {statistics.median(plain):.1f} ms without, {statistics.median(measured):.1f} ms with "
          f"(medians of {len(plain)} interleaved runs)")
    print(f"The runner's SHA3-256 digest at 16 KiB (-wi {args.wi} -i {args.i} -w {args.w} -r {args.r} -f {args.f}), ops/ms:")
    for n in ranked:
        print(f"  {n:<14} {mean[n]:9.3f}")
    verdict = ("PASS" if agree >= math.ceil(0.9 * args.select) else "MISS") if lead > 0.10 else "no goal (lead <= 10 %)"
    print(f"winner {winner}, {lead * 100:.0f} % ahead of {ranked[1] if len(ranked) > 1 else '-'}; measure agreed "
          f"in {agree} of {args.select} runs: {verdict} (goal: 18 of 20 when the lead is over 10 %)")
    # the static policies of this architecture
    print("Static policies here (the stub each links for -XX:+UseSHA3Intrinsics):")
    listing = subprocess.run(minivm + ["-XX:SHA3IntrinsicPolicy=nosuch", "-version"], capture_output=True,
                             text=True).stderr
    m = re.search(r"available policies are: (.*)", listing)
    digest = os.path.join(ROOT, "examples", "digest.mva")
    for policy in (m.group(1).split(", ") if m else []):
        r = subprocess.run(minivm + [f"-XX:SHA3IntrinsicPolicy={policy}", "-XX:+UseSHA3Intrinsics",
                                     "-XX:+PrintIntrinsics", digest, "SHA3-256", "/dev/null"],
                           capture_output=True, text=True)
        st = re.search(r"stub sha3_implCompressMB \(([^)]+)\)", r.stdout)
        picked = st.group(1) if st else "interpreted"
        mark = "the winner" if picked == winner else f"{(mean.get(picked, 0) / mean[winner] - 1) * 100:+.0f} %" \
            if picked in mean else ""
        print(f"  {policy:<14} {picked:<14} {mark}")
    return 0


def count_log(lines):
    """Guest instructions in a QEMU -d in_asm,exec,nochain log: each "IN:" block lists a translated
    block's instructions ("0x<pc>:  <insn>", up to a blank line), each "Trace N: <host> [<flags>/<pc>/...]"
    line is one execution of the block at <pc>; a block translated again replaces its length."""
    blocks, count, start, length = {}, 0, None, 0
    for line in lines:
        if line.startswith("Trace "):
            pc = int(line[line.index("[") + 1:].split("/")[1], 16)
            count += blocks.get(pc, 0)
        elif line.startswith("IN:"):
            start, length = None, 0
        elif line.startswith("0x"):
            if start is None:
                start = int(line.split(":", 1)[0], 16)
            length += 1
        elif not line.strip() and start is not None:
            blocks[start], start = length, None
    return count


def guest_instructions(argv):
    """Retired guest instructions of one QEMU user-mode run: QEMU logs each translated block
    (-d in_asm: its instructions) and, with chaining off, every execution of one (-d
    exec,nochain: its guest pc); the sum over executions of the block's length."""
    proc = subprocess.Popen(argv[:1] + ["-d", "in_asm,exec,nochain"] + argv[1:], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, errors="replace")
    count = count_log(proc.stderr)
    out = proc.stdout.read()
    if proc.wait() != 0:
        sys.exit(f"bench --count: {' '.join(argv)} failed")
    return count, out


def count_mode(args):
    """Guest instructions per SHA3-256 digest of 16 KiB under QEMU, per minivm configuration:
    a run on 16 KiB less a run on an empty file (start-up, loading and the empty digest)."""
    import hashlib
    import tempfile

    if not args.qemu_cpu:
        sys.exit("bench: --count needs --qemu-cpu MODEL (QEMU's execution log is what is counted)")
    configs, skipped = discover(args)
    for name, why in skipped:
        print(f"bench: skipped {name}: {why}")
    digest = os.path.join(ROOT, "examples", "digest.mva")
    size = 16384
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        full, empty = os.path.join(tmp, "full"), os.path.join(tmp, "empty")
        data = os.urandom(size)
        with open(full, "wb") as f:
            f.write(data)
        open(empty, "wb").close()
        want = hashlib.sha3_256(data).hexdigest()
        for c in [c for c in configs if c.kind == "minivm"]:
            base = c.command[:-1] + [digest, "SHA3-256"]
            n_full, out = guest_instructions(base + [full])
            if not out.startswith(want):
                sys.exit(f"bench --count: {c.name}: wrong digest")
            n_empty, _ = guest_instructions(base + [empty])
            rows.append((c.name, n_full - n_empty, n_empty))
    print(f"Retired guest instructions of one SHA3-256 digest of {size} bytes (examples/digest.mva; a run on "
          f"{size} bytes less a run on an empty file), qemu-aarch64 -cpu {args.qemu_cpu} -d in_asm,exec,nochain; "
          f"deterministic, unlike the times")
    print(f"{'config':<14} {'instructions':>14} {'per byte':>9} {'vs interpreted':>15} {'start-up':>12}")
    interp = next((n for name, n, _ in rows if name == "interpreted"), None)
    for name, n, startup in rows:
        ratio = f"{interp / n:.2f}x" if interp and n > 0 else "-"
        print(f"{name:<14} {n:>14,} {n / size:>9.1f} {ratio:>15} {startup:>12,}")
    return 0


def file_mode(args):
    """The whole VM on a large file: examples/digest.mva SHA3-256 under every minivm configuration,
    and `openssl dgst -sha3-256` (native only), in interleaved rounds; the median wall time."""
    import hashlib
    import statistics
    import tempfile

    configs, skipped = discover(args)
    runs = [c for c in configs if c.kind == "minivm"]
    digest = os.path.join(ROOT, "examples", "digest.mva")
    machine = machine_info(args)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "in")
        with open(path, "wb") as f:
            f.write(os.urandom(args.file << 20))
        with open(path, "rb") as f:
            want = hashlib.sha3_256(f.read()).hexdigest()
        commands = [(c.name, c.command[:-1] + [digest, "SHA3-256", path]) for c in runs]
        openssl = shutil.which("openssl")
        if openssl and not args.qemu_cpu:
            commands.insert(0, ("openssl", [openssl, "dgst", "-sha3-256", "-r", path]))
        else:
            skipped.append(("openssl", "--qemu-cpu" if args.qemu_cpu else "no openssl on PATH"))
        for name, why in skipped:
            print(f"bench: skipped {name}: {why}")
        times = {n: [] for n, _ in commands}
        for r in range(args.rounds):
            for name, argv in commands:
                if sys.stderr.isatty():
                    sys.stderr.write(f"\r\033[Kround {r + 1}/{args.rounds}: {name}")
                t0 = time.monotonic()
                out = subprocess.run(argv, capture_output=True, text=True)
                times[name].append(time.monotonic() - t0)
                if out.returncode != 0 or not out.stdout.startswith(want):
                    sys.exit(f"bench: {name}: wrong digest or failure (status {out.returncode}):\n{out.stderr}")
        if sys.stderr.isatty():
            sys.stderr.write("\r\033[K")
    med = {n: statistics.median(t) for n, t in times.items()}
    print(f"examples/digest.mva SHA3-256 of {args.file} MiB, the whole process, median of {args.rounds} interleaved "
          f"rounds; {machine['cpu']}")
    if args.qemu_cpu:
        print(f"# {EMULATION_NOTE} ({args.qemu_cpu})")
    print(f"{'config':<14} {'median ms':>10} {'MiB/s':>9} {'vs OpenSSL':>11} {'vs interp':>10}")
    for name, _ in commands:
        m = med[name]
        vs_ossl = f"{med['openssl'] / m:.2f}x" if "openssl" in med else "-"
        print(f"{name:<14} {m * 1000:>10.0f} {args.file / m:>9.1f} {vs_ossl:>11} {med['interpreted'] / m:>9.2f}x")
    return 0


REPORT_BEGIN = "<!-- BEGIN sh scripts/bench --report: generated, do not edit -->"
REPORT_END = "<!-- END sh scripts/bench --report -->"


def report(args, argv):
    """docs/PERFORMANCE.md's generated section, from one command: this machine's MessageDigests
    matrix with its chart, the whole VM on a 64 MiB file, the llvm-mca table, and the QEMU
    correctness matrices (which stub ran, digests right) for both architectures."""
    me = [sys.executable, os.path.abspath(__file__)]
    passed = [a for a in argv if a != "--report"]
    machine = machine_info(args)
    charts = os.path.join(ROOT, "docs", "charts")
    os.makedirs(charts, exist_ok=True)

    def step(title, argv, cwd=ROOT, env=None):
        print(f"bench --report: {title}", file=sys.stderr)
        r = subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=env)
        if r.returncode != 0:
            sys.exit(f"bench --report: {title} failed:\n{r.stdout}\n{r.stderr}")
        return r.stdout

    tag = re.sub(r"[^a-z0-9]+", "-", machine["cpu"].lower()).strip("-")
    matrix = step("the MessageDigests matrix", me + passed + ["--results", charts])
    for path in glob_latest(charts, "messagedigests-*"):
        ext = os.path.splitext(path)[1]
        if ext == ".svg":  # the docs show the SVG; the PNG and JSON stay out of the tree
            os.replace(path, os.path.join(charts, f"messagedigests-{tag}{ext}"))
        else:
            os.remove(path)
    whole = step("the whole VM on 64 MiB", me + ["--file", "64", "--rounds", "7"])
    mca_out = step("llvm-mca", me + ["--mca", "--results", os.path.join(ROOT, "results")]) \
        if shutil.which("llvm-mca-19") else "(llvm-mca-19 not installed: sh scripts/bootstrap bench)\n"
    qemu = ""
    if shutil.which("qemu-aarch64") and os.path.exists(os.path.join(ROOT, "build-aarch64", "minivm")):
        qemu += step("the AArch64 QEMU matrix", ["sh", "cross/sha3_matrix.sh", "build-aarch64"])
    if shutil.which("qemu-x86_64") and platform.machine() == "x86_64":
        env = dict(os.environ, MATRIX_ARCH="x86_64")
        qemu += "\n" + step("the x86-64 QEMU matrix", ["sh", "cross/sha3_matrix.sh", "build"], env=env)
    counts = ""
    if shutil.which("qemu-aarch64") and os.path.exists(os.path.join(ROOT, "build-aarch64", "minivm")):
        counts = step("guest instructions under QEMU max", me + ["--qemu-cpu", "max", "--count"])
    comp = matrix[matrix.index("Comparison against"):matrix.index("\nJSON:")].strip()
    tables = matrix[matrix.index("\n# "):matrix.index("Comparison against")].strip()
    text = f"""{REPORT_BEGIN}
## Generated: every configuration on this machine

Written by `sh scripts/bench --report` on {machine['date']}: **{machine['cpu']}**,
{machine['cores']} CPUs{', ' + machine['jdk'] if machine['jdk'] else ''}. Every table below comes from that one run; the
machine is shared, so compare ratios within a table, not across runs.

### MessageDigests, every configuration (`sh scripts/bench{' ' + ' '.join(passed) if passed else ''}`)

```
{comp}
```

![MessageDigests per configuration](charts/messagedigests-{tag}.svg)

<details><summary>JMH's table per configuration</summary>

```
{tables}
```

</details>

### The whole VM on a 64 MiB file (`sh scripts/bench --file 64 --rounds 7`)

```
{whole.strip()}
```

### llvm-mca (`sh scripts/bench --mca`)

```
{mca_out[:mca_out.rfind('JSON:')].strip() if 'JSON:' in mca_out else mca_out.strip()}
```

### Guest instructions under QEMU (`sh scripts/bench --qemu-cpu max --count`)

```
{counts.strip() or '(qemu-user or the cross build build-aarch64 missing)'}
```

### Which stub runs under QEMU, and are the digests right (`cross/sha3_matrix.sh`)

```
{qemu.strip() or '(qemu-user or the cross build build-aarch64 missing: sh scripts/test-cross builds it)'}
```
{REPORT_END}
"""
    perf = os.path.join(ROOT, "docs", "PERFORMANCE.md")
    with open(perf) as f:
        doc = f.read()
    if REPORT_BEGIN in doc:
        doc = doc[:doc.index(REPORT_BEGIN)] + text + doc[doc.index(REPORT_END) + len(REPORT_END) + 1:]
    else:
        doc = doc.rstrip("\n") + "\n\n" + text
    with open(perf, "w") as f:
        f.write(doc)
    print(f"bench --report: wrote the generated section of {os.path.relpath(perf)} and docs/charts/messagedigests-{tag}.svg")
    return 0


def glob_latest(directory, pattern):
    import glob
    return sorted(glob.glob(os.path.join(directory, pattern)))


def main(argv):
    if argv[:1] == ["--goals"]:
        # the interpreter's goals: bench/sha3_compare (C configurations timed in-process, minivm and
        # java -Xint as children, interleaved rounds, medians of per-round ratios; docs/PERFORMANCE.md)
        tool = os.path.join(ROOT, "build", "bench", "sha3_compare")
        if not os.path.exists(tool):
            sys.exit(f"bench --goals: {tool} is not built (meson compile -C build)")
        return subprocess.call([tool] + argv[1:])
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
    progress = Progress(per_fork_ms * args.f, sys.stderr.isatty())
    raw = {c.name: {k: [] for k in keys(args, c)} for c in configs}
    for fork in range(1, args.f + 1):  # forks interleaved: every configuration once per round
        for i, c in enumerate(configs, 1):
            res = run_config(c, fork, args, progress, i, len(configs))
            for k in keys(args, c):
                raw[c.name][k].append(res[k])
    progress.clear()
    summary = {c.name: {k: jmh_stats.summarize([x for fork in raw[c.name][k] for x in fork]) for k in keys(args, c)}
               for c in configs}
    out = sys.stdout
    for c in configs:
        jmh_table(c, summary, args, out)
    comparison_table(configs, summary, args, out)
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
