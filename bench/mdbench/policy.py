"""bench/mdbench/policy.py — the SHA-3 policy tables from measurements: the row a results JSON
implies for its CPU (--policy-row), and how -XX:SHA3IntrinsicPolicy=measure agrees with the
matrix (--select)."""

import json
import math
import os
import re
import subprocess
import sys
import time

from .common import EMULATION_NOTE, ROOT, machine_info, shown, wrapper
from .configs import discover
from .measure import Progress, run_config

SELECTION_ROW = re.compile(r"^\s+(\S+)\s+([0-9.]+) ns\s+(?:\+-\s*[0-9.]+ %\s*)?(.*)$")


BUILT_IN = ("interpreted", "C-ref", "OpenSSL")
# the kind of a stub variant in a JSON written before the runner recorded it (minivmStubKind)
OLD_VECTOR_NAMES = ("simd", "avx2", "avx512", "avx512-lanes")


def option_values(options):
    """{flag: value} of -XX:Name=value options (a configuration's settings)."""
    return dict(o[len("-XX:"):].split("=", 1) for o in options if o.startswith("-XX:") and "=" in o)


def policy_row_mode(path):
    """The policy-table row a results JSON implies for the CPU it was measured on: the fastest stub
    variant at the largest length (SHA3-256 digest, else the first benchmark), its margin over the
    best variant of the other kind (GPR against vector), and the row as a line of the policy table's
    data (stubs/<arch>/sha3_rows.tsv)."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        sys.exit(f"bench --policy-row: {shown(path)}: {e.strerror}")
    except ValueError as e:
        sys.exit(f"bench --policy-row: {shown(path)} is not JSON: {e}")
    if not isinstance(doc, list) or not doc or not all(isinstance(d, dict) and "params" in d and "primaryMetric" in d
                                                       for d in doc):
        sys.exit(f"bench --policy-row: {shown(path)} is not a results file of the runner's (JMH's -rf json shape)")
    length = max(int(d["params"]["length"]) for d in doc)
    pick = [d for d in doc if int(d["params"]["length"]) == length and d["params"]["digesterName"] == "SHA3-256"
            and d["benchmark"].endswith(".digest")] or [d for d in doc if int(d["params"]["length"]) == length]
    score = {d["params"]["config"]: d["primaryMetric"]["score"] for d in pick}
    # a stub variant's configuration: the kind the runner recorded (older files: the names of then)
    kind = {}
    for d in pick:
        name = d["params"]["config"]
        if "minivmStubKind" in d:
            kind[name] = d["minivmStubKind"]
        elif name not in BUILT_IN and not name.startswith("java-"):
            kind[name] = "simd" if name in OLD_VECTOR_NAMES else "gpr"
    stubs = {n: v for n, v in score.items() if kind.get(n) and isinstance(v, (int, float))}
    if not stubs:
        sys.exit(f"bench --policy-row: {path} has no stub variant's result")
    machine = doc[0].get("minivmMachine", {})
    best = max(stubs, key=stubs.get)
    vector = kind[best] == "simd"
    other = {n: v for n, v in stubs.items() if (kind[n] == "simd") != vector}
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
    metric = {d["params"]["config"]: d["primaryMetric"] for d in pick}

    def inside(a, b):
        errs = (a["scoreError"], b["scoreError"])
        if any(not isinstance(x, (int, float)) or math.isnan(x) for x in errs):
            return True
        return a["scoreConfidence"][0] <= b["scoreConfidence"][1] and b["scoreConfidence"][0] <= a["scoreConfidence"][1]
    print("  threshold: a lead counts when the two results' 99.9% error bars (JMH's scoreError) do not overlap")
    if runner_up:
        a, b = metric[best], metric[runner_up]
        nan = [x for x in (a["scoreError"], b["scoreError"]) if not isinstance(x, (int, float)) or math.isnan(x)]
        if nan:
            print(f"  warning: {best} or {runner_up} has no error bars (fewer than 3 iterations): the lead is "
                  "unchecked; rerun with -i 5 or more")
        elif a["scoreConfidence"][0] <= b["scoreConfidence"][1]:
            print(f"  warning: {best}'s lead over {runner_up} is inside the noise ({best} "
                  f"{a['scoreConfidence'][0]:.3f} to {a['scoreConfidence'][1]:.3f}, {runner_up} "
                  f"{b['scoreConfidence'][0]:.3f} to {b['scoreConfidence'][1]:.3f} ops/ms): this run does not back "
                  "the row; rerun on a quiet machine with more forks (sh scripts/bench -f 4 ...)")
    note = f"measured: {os.path.basename(path)} ({machine.get('cpu', '?')}, {machine.get('date', '?')}): {best} {margin}"
    if "qemu" in machine.get("cpu", ""):
        print(f"  note: {EMULATION_NOTE}: a row from these figures describes TCG, not the CPU model")
    if fam:
        # each variant's settings, as the runner recorded them (its options: JMH's jvmArgs)
        options = {d["params"]["config"]: option_values(d.get("jvmArgs", [])) for d in pick}
        avx = options[best].get("UseAVX", "(the CPU's)")
        design = options[best].get("SHA3AVX512Design", "-")
        family = f"{int(fam.group(1)):#x}"
        print(f"  implies: {machine.get('vendor') or '?'} family {family} (model {fam.group(2)}) -> "
              f"UseSHA3Intrinsics=true, UseSIMDForSHA3Intrinsic={'true' if vector else 'false'}, UseAVX={avx}, "
              f"SHA3AVX512Design={design}")
        # each AVX-512 design's own column (the table's "SIMD with lanes" and "with rows"): is the
        # variant of that design ahead of the best GPR variant here?
        by_design = {options[n].get("SHA3AVX512Design"): n for n in stubs if options[n].get("UseAVX") == "3"}
        best_gpr = max((v for n, v in stubs.items() if kind[n] != "simd"), default=0.0)
        lanes = "true" if stubs.get(by_design.get("lanes"), 0.0) > best_gpr else "false"
        rows = "true" if stubs.get(by_design.get("rows"), 0.0) > best_gpr else "false"
        # the same threshold for the row's other decisions: each design against the best GPR variant
        gpr_name = max((n for n in stubs if kind[n] != "simd"), key=stubs.get, default=None)
        for a_name, b_name, what in ((by_design.get("lanes"), gpr_name, "SIMD with lanes"),
                                     (by_design.get("rows"), gpr_name, "SIMD with rows"),
                                     (by_design.get("lanes"), by_design.get("rows"), "SHA3AVX512Design")):
            if a_name in metric and b_name in metric and inside(metric[a_name], metric[b_name]):
                print(f"  warning: the {what} column ({a_name} against {b_name}) is decided inside the noise")
        avx512 = "true" if options[best].get("UseAVX") == "3" else "false"
        print("  its line for stubs/x86_64/sha3_rows.tsv (vendor, family range, AVX-512, UseSHA3Intrinsics, "
              "SIMD with lanes, with rows, source; tab-separated, above the last line):")
        print("\t".join([machine.get("vendor") or "?", family, family, avx512, "true", lanes, rows, note]))
    elif a64:
        print(f"  implies: implementer {a64.group(1)} (part {a64.group(2)}) -> UseSHA3Intrinsics=true, "
              f"UseSIMDForSHA3Intrinsic={'true' if vector else 'false'}")
        print("  its line for stubs/aarch64/sha3_rows.tsv (policy, implementer, UseSHA3Intrinsics, "
              "UseSIMDForSHA3Intrinsic, source; tab-separated, above the policy's last line):")
        print("\t".join(["JDK-8359256", a64.group(1), "true", "true" if vector else "false", note]))
    else:
        print("  (the JSON does not say which CPU: no minivmMachine features line)")
    return 0


def select_mode(args):
    """How good is -XX:SHA3IntrinsicPolicy=measure here: its choice in N fresh processes beside the
    winner of the runner's 16 KiB comparison (SHA3-256 digest, every variant), the start-up it
    costs (-version with and without it, interleaved), and the static policies' choices."""
    import statistics

    # the matrix's question: SHA3-256 digest at 16 KiB, asked of the SHA-3 variants alone (a SHA-1,
    # SHA-2 or MD5 stub's configuration has no SHA-3 digest to run)
    args.benchmarks, args.params = ["digest"], {"digesterName": ["SHA3-256"], "length": ["16384"]}
    configs, skipped = discover(args)
    minivm = wrapper(args) + [os.path.join(args.build, "minivm")]
    variants = [c for c in configs if c.family == "SHA-3"]
    if not variants:
        sys.exit("bench --select: no SHA-3 stub variant runs here (sh scripts/bench -l lists them)")
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
