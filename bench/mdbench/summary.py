"""bench/mdbench/summary.py — what a person reads at the end of a run, in at most 100 columns:
per digest and length the interpreter and the default stub (ops/ms, MB/s, cycles per byte), the
speed-up, the fastest variant and whether its lead is real, OpenSSL and HotSpot; then the default
minivm picks on this CPU beside the one measured fastest; then how noisy the machine was."""

import math
import os
import re
import resource
import statistics
import textwrap
import time

from .common import ROOT, keys, shown
from .configs import config_name, family_of

LABEL = 28      # the row labels' column
CELL = 35       # one length's column: 28 + 2 x 35 = 98
SPREAD = 0.10   # a median spread, (max - min) / median of a result's iterations, above this: a noisy host
UNSTEADY = 0.25  # a result whose spread is above this is named
BUSY = 0.25     # other processes using more CPUs than this on average: a busy machine


def significant(a, b):
    """Are two results apart beyond their 99.9% error bars? None when either has no error bar
    (fewer than three iterations)."""
    if math.isnan(a["scoreError"]) or math.isnan(b["scoreError"]):
        return None
    lo_a, hi_a = a["scoreConfidence"]
    lo_b, hi_b = b["scoreConfidence"]
    return not (lo_a <= hi_b and lo_b <= hi_a)


def num(x):
    if math.isnan(x):
        return "NaN"
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}" if x >= 1 else f"{x:.3f}"


def human_length(n):
    n = int(n)
    return f"{n // 1024} KiB" if n >= 1024 and n % 1024 == 0 else f"{n} B"


def throughput(score, length, clock):
    """ops/ms, MB/s (10^6 bytes a second) and cycles per byte at the clock, as one cell."""
    mbs = score * int(length) / 1000.0
    text = f"{num(score)} ops/ms  {num(mbs)} MB/s"
    if clock and mbs > 0:
        text += f"  {num(clock * 1000.0 / mbs)} c/B"
    return text


def verdict(sig):
    """significant() in words."""
    return "significant" if sig else "no error bars" if sig is None else "in the noise"


def speedup_cell(s, b):
    """s's score over b's as a summary cell ("6.94x, significant"), and significant(s, b)."""
    sig = significant(s, b)
    return f"{num(s['score'] / b['score'])}x, {verdict(sig)}", sig


def lead_text(winner, other, s_w, s_o):
    pct = (s_w["score"] / s_o["score"] - 1.0) * 100.0 if s_o["score"] > 0 else math.nan
    sig = significant(s_w, s_o)
    return f"{'~' if sig is False else ''}{pct:+.0f}% on {other}, {verdict(sig)}", sig


class Noise:
    """The machine's load while the matrix ran: the load average before and after, and the CPU time
    other processes took (/proc/stat's busy time, steal included, less this run's own)."""

    def __init__(self):
        self.load_before = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
        self.busy_before = self._busy()
        self.ours_before = self._ours()
        self.t0 = time.monotonic()

    @staticmethod
    def _busy():
        try:
            with open("/proc/stat") as f:
                v = [int(x) for x in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        # user nice system idle iowait irq softirq steal ...: everything but idle and iowait
        return (sum(v[:8]) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")

    @staticmethod
    def _ours():
        s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime

    def finish(self):
        self.wall = time.monotonic() - self.t0
        self.load_after = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
        busy = self._busy()
        self.others = math.nan
        if busy is not None and self.busy_before is not None and self.wall > 0:
            self.others = max(0.0, (busy - self.busy_before - (self._ours() - self.ours_before)) / self.wall)


def spreads(configs, raw, args):
    """(spread, configuration, key) of every result: (max - min) / median of its iterations."""
    out = []
    for c in configs:
        for k in keys(args, c):
            flat = [x for fork in raw[c.name][k] for x in fork]
            med = statistics.median(flat)
            out.append(((max(flat) - min(flat)) / med if med > 0 else math.nan, c.name, k))
    return out


def c2_verdict(seen, default):
    """The per-family answer to the seeds' question: does the default stub beat C2's code for the
    same Java (java-C2-nointrinsics) on this CPU? "" when it was not measured."""
    if not seen or not default:
        return ""
    won = [w for w, pct, sig in seen if pct > 0 and sig]
    lost = [w for w, pct, sig in seen if pct < 0 and sig]
    tied = [w for w, pct, sig in seen if not sig]

    def where(ws):
        return ", ".join(w.replace(" ", "\u00a0") for w in ws)
    if won and not lost and not tied:
        return f". Against C2's code (java-C2-nointrinsics): {default} beats it everywhere measured"
    text = f". Against C2's code (java-C2-nointrinsics): {default}"
    parts = []
    if won:
        parts.append(f"beats it at {where(won)}")
    if lost:
        parts.append(f"loses at {where(lost)}")
    if tied:
        parts.append(f"is not apart from it beyond the error bars at {where(tied)}")
    return text + " " + "; ".join(parts)


def c2_compilation_warning(args, names):
    """The warning a SHA-3 cell over C2's code measured in fewer than 4 JVMs gets: C2 compiles
    SHA3.keccak differently from one JVM to the next (docs/PERFORMANCE.md, "Against this host,
    measured"), which one fork's error bars cannot show. None when it does not apply."""
    c2 = "java-C2-nointrinsics"
    if args.f >= 4 or args.baseline != c2 or c2 not in names or \
            not any(d.startswith("SHA3-") for d in args.params["digesterName"]):
        return None
    return (f"{args.f} JVM(s) per configuration: C2 compiles SHA3.keccak differently from one JVM to the next "
            "(up to 40% apart on Zen 5, docs/PERFORMANCE.md), so a SHA-3 cell over C2's code is good to about 20% "
            "either way; -f 4 or more puts that spread inside the error bars")


def print_summary(configs, summary, raw, args, machine, defaults, noise, json_path, out):
    """The summary; returns the lines of warnings it printed (for the run's last lines)."""
    by_name = {c.name: c for c in configs}
    base = args.baseline
    clock = machine.get("clock_ghz")
    hotspot = "HotSpot"
    m = re.search(r'version "(\d+)', machine.get("jdk") or "")
    if m:
        hotspot += " " + m.group(1)
    lengths = args.params["length"]
    print("\nSummary: MessageDigests." + "/".join(args.benchmarks) + f" on {machine['cpu']}", file=out)
    how = f"{args.f} fork(s) x {args.i} iterations of {args.r} ms"
    units = f"({how}; MB/s: 10^6 bytes/s; " + (f"c/B: cycles per byte at {clock:.2f} GHz ({machine['clock_source']}))"
                                              if clock else "no clock known, so no c/B)")
    print("\n".join("  " + line for line in textwrap.wrap(units, 98)), file=out)
    warnings = []
    fastest_seen = {}   # family -> [(where, winner, lead significant?)]
    c2_seen = {}        # family -> [(where, the default's per cent over C2's code, significant?)]
    c2 = "java-C2-nointrinsics"  # C2's code for the same Java: the seeds' baseline
    runnable = getattr(args, "runnable", {}) or {}
    defaults = defaults or {}
    for bench in args.benchmarks:
        for name in args.params["digesterName"]:
            b_key = [(bench, name, ln) for ln in lengths]
            if not all(k in summary[base] for k in b_key):
                print(f"\n{name}: the baseline {base} has no result for it", file=out)
                continue
            family = family_of(name)
            variants = [c for c in configs if c.kind == "minivm" and c.stub_kind and c.runs(name)]
            picked = defaults.get(family)
            default = by_name.get(config_name(family, picked)) if picked else None
            rows = [(base, [throughput(summary[base][k]["score"], k[2], clock) for k in b_key])]

            def speedup(c):
                cells = []
                for k in b_key:
                    cell, sig = speedup_cell(summary[c.name][k], summary[base][k])
                    cells.append(cell)
                    if not sig:
                        warnings.append(f"{name} {human_length(k[2])}: {c.name} against {base} is "
                                        + ("without error bars" if sig is None else "inside the error bars"))
                return cells

            if default:
                rows.append((f"default: {default.name}", [throughput(summary[default.name][k]["score"], k[2], clock)
                                                          for k in b_key]))
                rows.append(("speed-up", speedup(default)))
                if c2 in by_name and all(k in summary[c2] for k in b_key):
                    # the seeds' question: the default stub against C2's code ("+N%" over it)
                    cells = []
                    for k in b_key:
                        text, sig = lead_text(default, "C2's code", summary[default.name][k], summary[c2][k])
                        cells.append(text)
                        c2_score = summary[c2][k]["score"]
                        pct = summary[default.name][k]["score"] / c2_score * 100.0 - 100.0 if c2_score > 0 else 0.0
                        c2_seen.setdefault(family, []).append((f"{name} {human_length(k[2])}", pct, sig))
                    rows.append(("vs C2's code", cells))
            elif picked:
                rows.append((f"default: {config_name(family, picked)}", ["not measured (--only left it out)"
                                                                         for _ in b_key]))
            else:
                rows.append(("default", ["no stub: the bytecode runs" for _ in b_key]))
            if variants:
                winners, leads = [], []
                for k in b_key:
                    ranked = sorted(variants, key=lambda c: -summary[c.name][k]["score"])
                    w = ranked[0]
                    mark = " (the default)" if w is default else ""
                    where = f"{name} {human_length(k[2])}"
                    if len(ranked) == 1:
                        winners.append(w.name + mark)
                        leads.append("the only variant this CPU runs" if len(runnable.get(family, [])) <= 1
                                     else "the only variant measured")
                        fastest_seen.setdefault(family, []).append((where, w.name, None))
                        continue
                    other = default if default and w is not default else ranked[1]
                    text, sig = lead_text(w, "the default" if other is default else other.name,
                                          summary[w.name][k], summary[other.name][k])
                    winners.append(w.name + mark)
                    leads.append(text)
                    fastest_seen.setdefault(family, []).append((where, w.name, sig))
                    if default and w is not default and sig is not True:
                        warnings.append(f"{where}: the fastest variant {w.name} against the default {default.name} is "
                                        + ("without error bars" if sig is None else "inside the error bars"))
                if default:
                    rows.append(("fastest variant", winners))
                else:
                    # no stub by default (or not measured): the fastest variant's own figures
                    rows.append(("fastest variant", winners))
                    best = [max(variants, key=lambda c: summary[c.name][k]["score"]) for k in b_key]
                    rows.append(("  its throughput", [throughput(summary[c.name][k]["score"], k[2], clock)
                                                      for c, k in zip(best, b_key)]))
                    rows.append(("  its speed-up", [speedup_cell(summary[c.name][k], summary[base][k])[0]
                                                    for c, k in zip(best, b_key)]))
                rows.append(("its lead", leads))
            ref = default if default else None
            for cname, label in (("OpenSSL", "OpenSSL"), ("java-C2", f"{hotspot} intrinsic"),
                                 ("java-C2-nointrinsics", f"{hotspot} C2 alone")):
                if cname in by_name and all(k in summary[cname] for k in b_key):
                    against = ref.name if ref else base
                    what = "the default" if ref else base
                    rows.append((label, [f"{num(summary[cname][k]['score'])} ops/ms, "
                                         f"{summary[cname][k]['score'] / summary[against][k]['score']:.2f}x {what}"
                                         for k in b_key]))
            # minivm's compiler tier on the same bytecode (docs/compiler.md): against the default,
            # as the rows above, and against HotSpot's C2 on the same Java without intrinsics
            if "compiled" in by_name and base != "compiled" and all(k in summary["compiled"] for k in b_key):
                against = ref.name if ref else base
                what = "the default" if ref else base
                rows.append(("minivm compiled", [f"{num(summary['compiled'][k]['score'])} ops/ms, "
                                                 f"{summary['compiled'][k]['score'] / summary[against][k]['score']:.2f}x "
                                                 f"{what}" for k in b_key]))
                if "java-C2-nointrinsics" in by_name and all(k in summary["java-C2-nointrinsics"] for k in b_key):
                    rows.append(("  vs C2 alone", [f"{summary['compiled'][k]['score'] / summary['java-C2-nointrinsics'][k]['score']:.2f}x"
                                                   for k in b_key]))
            head = f"{name}" + (f" ({bench})" if len(args.benchmarks) > 1 else "")
            for start in range(0, len(lengths), 2):
                part = list(range(start, min(start + 2, len(lengths))))
                print(file=out)
                print(f"{head:<{LABEL}}" + "".join(f"{human_length(lengths[i]):<{CELL}}" for i in part).rstrip(),
                      file=out)
                for label, cells in rows:
                    text = "".join(f"{cells[i]:<{CELL - 1}} " for i in part).rstrip()
                    if len(label) > LABEL - 3:  # a long configuration name: its cells on the next line
                        print(f"  {label}", file=out)
                        label = ""
                    print(f"  {label:<{LABEL - 2}}" + text, file=out)
    # the default minivm picks on this CPU, beside the fastest measured
    if fastest_seen:
        print(f"\nDefaults on this CPU ({machine['cpu']}):", file=out)
        for family, seen in fastest_seen.items():
            picked = defaults.get(family)
            picked_name = config_name(family, picked) if picked else None
            groups = {}
            for where, w, sig in seen:
                tag = " (its lead in the noise)" if sig is False and w != picked_name else ""
                groups.setdefault(w + tag, []).append(where.replace(" ", "\u00a0"))
            runs = runnable.get(family, [])
            text = f"minivm picks {picked_name or 'no stub (the bytecode)'}"
            if picked_name and picked_name not in by_name:
                text += " (not measured: --only)"
            if len(runs) == 1 and picked_name:
                text += f", the only {family} variant this CPU runs"
            else:
                text += "; fastest measured: " + "; ".join(f"{w} at {', '.join(places)}" for w, places in groups.items())
                if all(w == picked_name for _, w, _ in seen):
                    text += ": the default is the fastest"
                elif any(w != picked_name and sig for _, w, sig in seen):
                    text += (". The policy row this run implies: sh " + shown(os.path.join(ROOT, "scripts", "bench"))
                             + " --policy-row " + json_path if family == "SHA-3" else
                             ". minivm's default is not the fastest here")
            text += c2_verdict(c2_seen.get(family), picked_name)
            lines = textwrap.wrap(text, 100 - 11)  # "SHA3-256 64 B" stays on one line
            print((f"  {family:<8} " + ("\n" + " " * 11).join(lines)).replace("\u00a0", " "), file=out)
    # noise
    sp = [x for x in spreads(configs, raw, args) if not math.isnan(x[0])]
    med = statistics.median([x[0] for x in sp]) if sp and args.i * args.f > 1 else math.nan
    unsteady = sorted([x for x in sp if x[0] > UNSTEADY], reverse=True)
    others = "an unknown share of the CPUs (no /proc/stat)" if math.isnan(noise.others) else \
        f"{noise.others:.2f} CPUs on average while it ran (busy: {'yes' if noise.others > BUSY else 'no'}, " \
        f"threshold {BUSY:.2f})"
    print(f"\nNoise: load average {noise.load_before:.2f} before the run, {noise.load_after:.2f} after "
          f"({machine['cores']} CPUs);\n  other processes used {others}.", file=out)
    text = ("The iterations' spread, (max - min) / median of each result: n/a (one iteration a result)"
            if math.isnan(med) else
            f"The iterations' spread, (max - min) / median of each result: median {med * 100:.1f}%"
            + (f"; above {UNSTEADY * 100:.0f}%: " + ", ".join(f"{n} {k[1]} {human_length(k[2])} {x * 100:.0f}%"
                                                               for x, n, k in unsteady[:3])
               + (f" and {len(unsteady) - 3} more" if len(unsteady) > 3 else "") if unsteady else "") + ".")
    print("\n".join(textwrap.wrap(text, 100, initial_indent="  ", subsequent_indent="  ")), file=out)
    if noise.others > BUSY:
        warnings.insert(0, f"the machine was busy (other processes took {noise.others:.2f} CPUs while the run "
                        f"ran): these figures cannot be trusted; rerun when it is quiet (sh {shown(os.path.join(ROOT, 'scripts', 'run'))})")
    elif not math.isnan(med) and med > SPREAD:
        warnings.insert(0, f"the iterations vary by a median {med * 100:.0f}% although no other process ran (a "
                        "shared or throttled host): only the leads marked significant above are real; more forks "
                        f"narrow the error bars (sh {shown(os.path.join(ROOT, 'scripts', 'run'))} -f 4)")
    return warnings
