"""bench/mdbench/report.py — what a run prints and writes: JMH's table per configuration, the
seeds' comparison against the baseline, JMH's JSON, the chart."""

import math
import re
import textwrap

from . import jmh_stats
from .common import BENCHMARK_FQN, EMULATION_NOTE, keys, wrapper


def fmt(x, width=10):
    return f"{'NaN':>{width}}" if math.isnan(x) else f"{x:{width}.3f}"


def jmh_table(config, summary, args, out):
    """JMH's result table of one configuration."""
    note = f" ({config.note})" if config.note else ""
    head = f"# {config.name}{note}: {' '.join(config.options) or '(no VM options)'}"
    print("\n" + "\n".join(textwrap.wrap(head, WIDTH, subsequent_indent="#   ", break_on_hyphens=False)),
          file=out)
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


WIDTH = 120  # no line of the tables passes this


def grid(out, rows, columns, cell, label="configuration"):
    """A table whose columns are (benchmark, algorithm, length) keys, two header lines each, wrapped
    into as many blocks as it takes to keep every line within WIDTH columns."""
    lw = max([len(r) for r in rows] + [len(label)]) + 1
    cw = max([len(x) for c in columns for x in c[:3]] + [9]) + 2
    per = max(1, (WIDTH - lw) // cw)
    for start in range(0, len(columns), per):
        block = columns[start:start + per]
        if start:
            print(file=out)
        for line in range(3):
            head = label if line == 2 else ""
            print(f"{head:<{lw}}" + "".join(f"{c[line]:>{cw}}" for c in block), file=out)
        for r in rows:
            print(f"{r:<{lw}}" + "".join(f"{cell(r, c[3]):>{cw}}" for c in block), file=out)


def key_columns(args, summary, names):
    """The keys some configuration in names has a result for, as grid columns."""
    cols = []
    for k in keys(args):
        if any(k in summary[n] for n in names):
            cols.append((k[0], k[1], k[2], k))
    return cols


def comparison_table(configs, summary, args, out):
    """The seeds' comparison, transposed: a configuration per row, each key's per cent against
    the baseline (whose row gives its ops/ms)."""
    base = args.baseline
    names = [c.name for c in configs]
    print(f"\nComparison against {base} (the {base} row: ops/ms; the others: per cent faster;\n"
          f"'~': inside the 99.9% error bars):", file=out)
    if args.qemu_cpu:
        print(f"# {EMULATION_NOTE} ({args.qemu_cpu})", file=out)

    def cell(name, k):
        s, b = summary[name].get(k), summary[base].get(k)
        if s is None or b is None:
            return ""
        if name == base:
            return fmt(s["score"], 0).strip()
        pct = (s["score"] / b["score"] - 1.0) * 100.0 if b["score"] > 0 else math.nan
        text = "NaN" if math.isnan(pct) else f"{pct:+.0f}%"
        return "~" + text if jmh_stats.overlap(s, b) else text

    rows = [base] + [n for n in names if n != base]
    grid(out, rows, key_columns(args, summary, names), cell)


def hotspot_table(configs, summary, args, out):
    """Each minivm stub configuration beside HotSpot's intrinsic for the same digest: minivm's
    ops/ms over java-C2's (HotSpot C2 with its own intrinsics), per digest and length; a stub per
    row, java-C2's ops/ms in the first."""
    if "java-C2" not in summary:
        return
    stubs = [c.name for c in configs if c.kind == "minivm" and c.stub_kind]
    if not stubs:
        return
    print("\nvs HotSpot: minivm's stubs against java-C2, HotSpot's own intrinsics (the java-C2 row: ops/ms; "
          "the others: ratio;\n'~': inside the 99.9% error bars):", file=out)

    def cell(name, k):
        h, s = summary["java-C2"].get(k), summary[name].get(k)
        if h is None or s is None or h["score"] <= 0:
            return ""
        if name == "java-C2":
            return fmt(h["score"], 0).strip()
        text = f"{s['score'] / h['score']:.2f}x"
        return "~" + text if jmh_stats.overlap(s, h) else text

    cols = [c for c in key_columns(args, summary, ["java-C2"]) if any(c[3] in summary[n] for n in stubs)]
    grid(out, ["java-C2"] + stubs, cols, cell)


def json_number(x):
    # JMH writes NaN and the infinities as strings
    return "NaN" if isinstance(x, float) and math.isnan(x) else x


def vm_fields(c, machine):
    """JMH's jdkVersion, vmName and vmVersion for a configuration: the VM that ran it."""
    if c.kind == "java":
        m = re.search(r'version "([^"]+)"', machine["jdk"])
        return (m.group(1) if m else machine["jdk"]), machine["hotspot"][0], machine["hotspot"][1]
    if c.name == "OpenSSL":
        return "", "OpenSSL libcrypto", machine["openssl"]
    return "", machine["minivm"][0] or "minivm", machine["minivm"][1]


def jmh_json(configs, raw, summary, args, machine):
    """JMH's -rf json shape: one object per benchmark and parameter set (and configuration)."""
    docs = []
    for c in configs:
        jdk_version, vm_name, vm_version = vm_fields(c, machine)
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
                "jdkVersion": jdk_version,
                "vmName": vm_name,
                "vmVersion": vm_version,
                "warmupIterations": max(args.wi, c.min_warmup),
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
                # minivm's additions (JMH's viewers ignore them): the machine (for --policy-row), the
                # OpenSSL and the JDK of the run, the kind of a stub variant's configuration
                # (PrintStubVariants': gpr, simd, crypto) and whether it is minivm's default here
                "minivmMachine": {"cpu": machine["cpu"], "date": machine["date"], "cores": machine["cores"],
                                  "clockGHz": machine["clock_ghz"], "clockSource": machine["clock_source"], **machine["ident"]},
                "minivmOpenSSL": machine["openssl"],
                "minivmJDK": machine["jdk"],
                "minivmStubKind": c.stub_kind,
                "minivmDefaultStub": bool(getattr(c, "default", False)),
            })
    return docs


def jmh_csv(docs, out):
    """JMH's -rf csv: a row per result, the parameters as "Param: name" columns."""
    import csv
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["Benchmark", "Mode", "Threads", "Samples", "Score", "Score Error (99.9%)", "Unit",
                "Param: config", "Param: digesterName", "Param: length"])
    for d in docs:
        m = d["primaryMetric"]
        w.writerow([d["benchmark"], d["mode"], d["threads"], sum(len(f) for f in m["rawData"]), m["score"],
                    m["scoreError"], m["scoreUnit"], d["params"]["config"], d["params"]["digesterName"],
                    d["params"]["length"]])


KINDS = (  # what the chart colours: a configuration's kind, its colour, the legend's words
    ("interpreter", "#8c8c8c", "minivm interpreter"),
    ("stub", "#3b6fb6", "minivm stub variants"),
    ("config", "#8e5fb0", "minivm --config"),
    ("native", "#3d9a50", "C: OpenSSL"),
    ("java", "#e08a1e", "HotSpot"),
)


def chart_kind(c, baseline):
    if c.name == "interpreted":
        return "interpreter"
    if c.kind == "minivm":
        return "stub" if c.stub_kind else "config"
    return c.kind


def digest_family(name):
    if name == "MD5":
        return "MD5"
    if name.startswith("SHA3-") or name.startswith("SHAKE"):
        return "SHA-3"
    return "SHA-1" if name == "SHA-1" else "SHA-2"


def chart(configs, summary, raw, args, machine, stem):
    """One figure per digest family (PNG and SVG): per benchmark, algorithm and length, each
    configuration's speed-up over the baseline on a log axis, coloured by kind, the default stub
    hatched, whiskers from the fastest to the slowest raw iteration (not the error bars)."""
    import textwrap

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter

    plt.rcParams["svg.fonttype"] = "none"  # text stays text in the SVG (searchable, and checked)
    base = args.baseline
    colour = {k: c for k, c, _ in KINDS}
    paths = []
    families = []
    for k in keys(args):
        if digest_family(k[1]) not in families:
            families.append(digest_family(k[1]))
    for family in families:
        panels = [k for k in keys(args) if digest_family(k[1]) == family and k in summary[base]]
        if not panels:
            continue
        cols = min(len(args.params["length"]), len(panels))
        rows = (len(panels) + cols - 1) // cols
        n_configs = max(len([c for c in configs if k in summary[c.name]]) for k in panels)
        height = 0.9 + 0.17 * n_configs  # a bar and its label in 7.5-point type
        fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, height * rows + 1.6), squeeze=False)
        used = set()
        for ax, k in zip([a for r in axes for a in r], panels):
            here = [c for c in configs if k in summary[c.name]]
            b = summary[base][k]["score"]
            y = list(range(len(here)))[::-1]
            for yi, c in zip(y, here):
                kind = chart_kind(c, base)
                used.add(kind)
                flat = [x for fork in raw[c.name][k] for x in fork]
                v = summary[c.name][k]["score"] / b
                lo, hi = min(flat) / b, max(flat) / b
                ax.barh(yi, v, color=colour[kind], hatch="///" if getattr(c, "default", False) else None,
                        edgecolor="black" if getattr(c, "default", False) else colour[kind], linewidth=0.6)
                ax.plot([lo, hi], [yi, yi], color="black", linewidth=1.0)
                ax.text(max(v, hi) * 1.08, yi, f"{v:.3g}x", va="center", fontsize=7)
            labels = [c.name + (" (default)" if getattr(c, "default", False) else "") for c in here]
            ax.set_yticks(y)
            ax.set_yticklabels(labels, fontsize=7.5)
            ax.set_xscale("log")
            ax.set_xlim(left=min(0.5, min(min(x for f in raw[c.name][k] for x in f) / b for c in here) * 0.8),
                        right=max(max(x for f in raw[c.name][k] for x in f) / b for c in here) * 3)
            ax.axvline(1.0, color="#8c8c8c", linewidth=0.8, linestyle=":")
            size = int(k[2])
            ax.set_title(f"{k[1]}, {size // 1024 if size % 1024 == 0 and size else size} "
                         f"{'KiB' if size % 1024 == 0 and size else 'B'} ({k[0]})", fontsize=9)
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
            ax.set_xlabel(f"speed-up over {base} (x, log scale)", fontsize=8)
            ax.tick_params(axis="x", labelsize=7.5)
        for ax in [a for r in axes for a in r][len(panels):]:
            ax.set_visible(False)
        names_here = {c.name for c in configs if any(k in summary[c.name] for k in panels)}
        texts = {"native": "C: OpenSSL" + (", the C reference" if "C-ref" in names_here else "")}
        if base != "interpreted":
            texts["interpreter"] = "minivm interpreter"
        handles = [Patch(facecolor=c, edgecolor=c, label=texts.get(k, t)) for k, c, t in KINDS if k in used]
        if any(getattr(c, "default", False) and c.name in names_here for c in configs):
            handles.append(Patch(facecolor="white", edgecolor="black", hatch="///",
                                 label="minivm's default stub on this CPU"))
        handles.append(plt.Line2D([], [], color="black", linewidth=1.0, label="range of the iterations (min-max)"))
        fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=7.5, frameon=False)
        title = f"minivm MessageDigests, {family}: speed-up over {base} on {machine['cpu']} ({machine['date']})"
        if args.qemu_cpu:
            title += f"; {EMULATION_NOTE} ({args.qemu_cpu})"
        fig.suptitle("\n".join(textwrap.wrap(title, int(16 * 6.4 * cols / 1.0 / 1.4))), fontsize=9)
        legend_rows = (len(handles) + 2) // 3
        fig.tight_layout(rect=(0, 0.035 * legend_rows * 2 / rows, 1, 1))
        tag = family.lower().replace("-", "")
        for ext in ("png", "svg"):
            path = f"{stem}-{tag}.{ext}"
            fig.savefig(path, dpi=110)
            paths.append(path)
        plt.close(fig)
    return paths
