"""bench/mdbench/report.py — what a run prints and writes: JMH's table per configuration, the
seeds' comparison against the baseline, JMH's JSON, the chart."""

import math

import jmh_stats

from .common import BENCHMARK_FQN, EMULATION_NOTE, keys, wrapper


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


def hotspot_table(configs, summary, args, out):
    """Each minivm stub configuration beside HotSpot's intrinsic for the same digest: minivm's
    ops/ms over java-C2's (HotSpot C2 with its own intrinsics), per digest and length."""
    if "java-C2" not in summary:
        return
    stubs = [c.name for c in configs if c.kind == "minivm" and c.stub_kind]
    if not stubs:
        return
    width = max([len(n) for n in stubs] + [7]) + 1
    print("\nvs HotSpot: minivm's stubs against java-C2, HotSpot's own intrinsics (ratio of ops/ms; "
          "'~' marks a difference inside the 99.9% error bars):", file=out)
    head = f"{'Benchmark':<28} {'(digesterName)':>14} {'(length)':>9} {'java-C2 ops/ms':>18}"
    print(head + "".join(f" {n:>{width}}" for n in stubs), file=out)
    for k in keys(args):
        h = summary["java-C2"].get(k)
        if h is None or not any(summary[n].get(k) for n in stubs):
            continue
        row = f"{'MessageDigests.' + k[0]:<28} {k[1]:>14} {k[2]:>9} {fmt(h['score'], 18)}"
        for n in stubs:
            s = summary[n].get(k)
            if s is None or h["score"] <= 0:
                row += f" {'':>{width}}"
                continue
            cell = f"{s['score'] / h['score']:.2f}x"
            if jmh_stats.overlap(s, h):
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
                "jvm": c.java or c.command[len(wrapper(args))],
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
                # minivm's additions (JMH's viewers ignore them), for --policy-row: the machine, and the
                # kind of a stub variant's configuration (PrintStubVariants': gpr, simd, crypto)
                "minivmMachine": {"cpu": machine["cpu"], "date": machine["date"], **machine["ident"]},
                "minivmStubKind": c.stub_kind,
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
