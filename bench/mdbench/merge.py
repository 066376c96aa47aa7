"""sh scripts/bench --merge FILE.json...: the seeds' table across machines.

People run the runner on each board they have (seed 000, JDK-8359256: seven CPUs). Each of its
JSON files carries its machine (minivmMachine); --merge puts them side by side: per CPU, per
digest and length, each configuration's "+N%" over C2's code (java-C2-nointrinsics: HotSpot 25,
the digest's intrinsic off), or over the interpreter where no HotSpot ran, "~" where the two are
inside each other's error bars; the model's prediction (bench/model.py) beside each measured cell
where it has one for that CPU; and the defaults the measurements imply (JDK-8297092's rule: an
intrinsic is on where a stub beats C2's code).

Each ratio is taken inside one file (one run, side by side: the machines are noisy), never
between files; a CPU measured in several files gets the geometric mean of its files' ratios, and
says so.
"""

import json
import math
import os
import re
import sys

from . import jmh_stats

C2 = "java-C2-nointrinsics"
INTERP = "interpreted"
# the families' intrinsic flags (HotSpot's names)
FLAGS = {"SHA-3": "UseSHA3Intrinsics", "SHA-256": "UseSHA256Intrinsics", "SHA-512": "UseSHA512Intrinsics",
         "SHA-1": "UseSHA1Intrinsics", "MD5": "UseMD5Intrinsics"}
# the runner's configurations that are not minivm's stubs
NOT_STUBS = ("interpreted", "compiled", "C-ref", "OpenSSL")

# a machine's identification -> llvm-mca's -mcpu (bench/model.py's CPUs)
AARCH64_PARTS = {("0x41", "0xd03"): "cortex-a53", ("0x41", "0xd08"): "cortex-a72",
                 ("0x41", "0xd0b"): "cortex-a76", ("0x41", "0xd0c"): "neoverse-n1",
                 ("0x41", "0xd40"): "neoverse-v1", ("0x41", "0xd4f"): "neoverse-v2",
                 ("0x41", "0xd47"): "cortex-a710", ("0x41", "0xd49"): "neoverse-n2",
                 ("0x46", "0x001"): "a64fx"}
APPLE_M1_PARTS = {"0x022", "0x023", "0x024", "0x025", "0x028", "0x029"}


class MergeError(Exception):
    """A file --merge cannot use: one line naming it."""


def family(digest):
    if digest.startswith("SHA3-"):
        return "SHA-3"
    return {"SHA-224": "SHA-256", "SHA-384": "SHA-512", "SHA-512/224": "SHA-512",
            "SHA-512/256": "SHA-512"}.get(digest, digest)


def model_cpu(machine):
    """llvm-mca's name for the machine's CPU, or None (a CPU the model does not know, or QEMU)."""
    cpu, features = machine.get("cpu", ""), machine.get("features", "")
    if "qemu" in cpu:
        return None
    a64 = re.search(r"CPU: total \d+ \(initial active \d+\) (0x[0-9a-f]+):0x[0-9a-f]+:(0x[0-9a-f]+):", features)
    if a64:
        imp, part = a64.group(1), a64.group(2)
        if imp == "0x61":
            return "apple-m1" if part in APPLE_M1_PARTS else None
        return AARCH64_PARTS.get((imp, part))
    fam = re.search(r"family (\d+) model (\d+)", cpu + " " + features)
    if not fam:
        return None
    f, m = int(fam.group(1)), int(fam.group(2))
    if machine.get("vendor") == "AuthenticAMD" or "AMD" in cpu:
        return {25: "znver4" if m >= 0x10 else "znver3", 26: "znver5"}.get(f)
    if f == 6:
        return {60: "haswell", 63: "haswell", 69: "haswell", 70: "haswell", 106: "icelake-server",
                108: "icelake-server", 143: "sapphirerapids", 207: "sapphirerapids"}.get(m)
    return None


def read(path):
    """(machine, {(digest, length): {config: primaryMetric}}) of one runner JSON."""
    name = os.path.basename(path)
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        raise MergeError(f"{path}: {e.strerror}")
    except ValueError as e:
        raise MergeError(f"{path}: not JSON ({e})")
    if not isinstance(doc, list) or not doc or not all(
            isinstance(d, dict) and isinstance(d.get("params"), dict) and isinstance(d.get("primaryMetric"), dict)
            for d in doc):
        raise MergeError(f"{path}: not a results file of the runner's (JMH's -rf json shape)")
    machine = doc[0].get("minivmMachine")
    if not isinstance(machine, dict) or not machine.get("cpu"):
        raise MergeError(f"{path}: does not say which machine it ran on (no minivmMachine: a JSON of JMH's "
                         "own, or of a runner older than issue 31)")
    cells = {}
    for d in doc:
        p, m = d["params"], d["primaryMetric"]
        if not str(d.get("benchmark", "")).endswith("MessageDigests.digest"):
            continue  # the runner's other benchmark (getAndDigest) is not the seeds'
        if m.get("scoreUnit") != "ops/ms" or d.get("mode") not in (None, "thrpt"):
            raise MergeError(f"{path}: {p.get('config')} is {d.get('mode')} in {m.get('scoreUnit')}, not "
                             "throughput in ops/ms: not comparable")
        if d.get("minivmMachine", machine).get("cpu") != machine["cpu"]:
            raise MergeError(f"{path}: results from two machines in one file")
        try:
            score = float(m["score"])
        except (KeyError, TypeError, ValueError):
            raise MergeError(f"{path}: {p.get('config')} has no score")
        if not (score > 0):
            raise MergeError(f"{path}: {p.get('config')}'s score {m.get('score')} is not a throughput")
        cells.setdefault((p.get("digesterName"), str(p.get("length"))), {})[p.get("config")] = m
    if not cells:
        raise MergeError(f"{path}: no MessageDigests.digest result in it ({name} is another benchmark's)")
    return machine, cells


def ratios(cells):
    """{(digest, length): (baseline, {config: (ratio, inside the noise)})} of one file."""
    out = {}
    for key, by in cells.items():
        base = C2 if C2 in by else INTERP if INTERP in by else None
        if base is None:
            continue
        b = by[base]
        out[key] = (base, {c: (m["score"] / b["score"], _overlap(m, b)) for c, m in by.items() if c != base})
    return out


def _overlap(a, b):
    """Inside each other's error bars (JMH's scoreError; the runner writes a missing one as "NaN":
    too few iterations, never inside)."""
    try:
        norm = [{"scoreError": float(m["scoreError"]), "scoreConfidence": [float(x) for x in m["scoreConfidence"]]}
                for m in (a, b)]
        return jmh_stats.overlap(*norm)
    except (KeyError, TypeError, ValueError):
        return False


def merge(paths, out=sys.stdout, predict=None):
    """The merged table; predict(mcpus) -> {(mcpu, digest, configuration): +N%} or None.
    Returns {cpu: {(digest, length): (baseline, {config: (+N%, noise, files)})}}."""
    machines = {}  # cpu -> [(path, machine, ratios)]
    for path in paths:
        machine, cells = read(path)
        machines.setdefault(machine["cpu"], []).append((path, machine, ratios(cells)))
    merged = {}
    for cpu, files in machines.items():
        if len(files) > 1:
            print(f"note: {cpu} is in {len(files)} files ({', '.join(os.path.basename(f[0]) for f in files)}): "
                  "merged, each cell the geometric mean of its files' ratios", file=out)
        table = {}
        for path, _, rs in files:
            for key, (base, by) in rs.items():
                slot = table.setdefault(key, {})
                for c, (r, noise) in by.items():
                    slot.setdefault((base, c), []).append((r, noise))
        cells = {}
        for key, by in table.items():
            # a cell's baseline: C2's code where any file had it
            base = C2 if any(b == C2 for b, _ in by) else INTERP
            cells[key] = (base, {c: ((math.exp(sum(math.log(r) for r, _ in v) / len(v)) - 1) * 100,
                                     all(n for _, n in v), len(v)) for (b, c), v in by.items() if b == base})
        merged[cpu] = (files[0][1], cells)
    predicted = {}
    mcpus = {cpu: model_cpu(m) for cpu, (m, _) in merged.items()}
    if predict and any(mcpus.values()):
        predicted = predict(sorted({m for m in mcpus.values() if m})) or {}
    print_merged(merged, mcpus, predicted, out)
    return merged


def _length(n):
    n = int(n)
    return f"{n // 1024} KiB" if n >= 1024 and n % 1024 == 0 else f"{n} B"


def print_merged(merged, mcpus, predicted, out):
    print("The seeds' table across machines: each configuration \"+N%\" over C2's code (java-C2-nointrinsics; "
          "positive: faster),\n\"~\" inside the error bars; (model +N%): bench/model.py's prediction for that CPU",
          file=out)
    for cpu, (machine, cells) in merged.items():
        mcpu = mcpus[cpu]
        print(f"\n{cpu} ({machine.get('date', '?')}; model: {mcpu or 'none for this CPU'})", file=out)
        for (digest, length), (base, by) in sorted(cells.items(), key=lambda kv: (kv[0][0], int(kv[0][1]))):
            over = "C2's code" if base == C2 else "the interpreter (no HotSpot ran)"
            parts = []
            for c, (pct, noise, _) in sorted(by.items(), key=lambda kv: -kv[1][0]):
                guess = predicted.get((mcpu, digest, c.replace("java-C2-sha3-", "hotspot-sha3-")))
                model = f" (model {guess:+.0f}%)" if guess is not None and base == C2 else ""
                parts.append(f"{c} {'~' if noise else ''}{pct:+.0f}%{model}")
            print(f"  {digest:<9} {_length(length):>7}  over {over}:", file=out)
            line = "    "
            for p in parts:
                if len(line) + len(p) + 2 > 118:
                    print(line.rstrip(", "), file=out)
                    line = "    "
                line += p + ", "
            print(line.rstrip(", "), file=out)
        for row in policy(cells):
            print(f"  implies: {row}", file=out)


def policy(cells):
    """Per family, at its largest length measured against C2's code: the intrinsic on (the fastest
    minivm stub, when it beats C2's code beyond the error bars) or off."""
    rows = []
    fams = {}
    for (digest, length), (base, by) in cells.items():
        if base != C2:
            continue
        f = family(digest)
        # the largest length; among equal ones the seeds' digest (SHA3-512, seed 000's)
        if f in FLAGS and (f not in fams or (int(length), digest == "SHA3-512") > (int(fams[f][1]),
                                                                                   fams[f][0] == "SHA3-512")):
            fams[f] = (digest, length)
    for f, key in sorted(fams.items(), key=lambda kv: list(FLAGS).index(kv[0])):
        _, by = cells[key]
        stubs = {c: v for c, v in by.items() if c not in NOT_STUBS and not c.startswith("java-")}
        where = f"{key[0]} {_length(key[1])}"
        if not stubs:
            continue
        best = max(stubs, key=lambda c: stubs[c][0])
        pct, noise, _ = stubs[best]
        if pct > 0 and not noise:
            rows.append(f"{FLAGS[f]}=true ({best} {pct:+.0f}% over C2's code at {where})")
        else:
            rows.append(f"{FLAGS[f]}=false (C2's code is as fast: the best stub, {best}, "
                        f"{'~' if noise else ''}{pct:+.0f}% at {where}; JDK-8297092's rule)")
    return rows


def model_predictions(build):
    """predict() for merge(): bench/model.py's "+N%" per (CPU, digest, configuration), or {} with
    a line saying why not."""
    def predict(mcpus):
        import io
        try:
            import model
            rows = model.run(mcpus, model.DIGESTS, io.StringIO(), io.StringIO(), build=build)
        except Exception as e:  # the model is an addition to the table: its failure is reported, not fatal
            print(f"model: not available here ({str(e).splitlines()[0] if str(e) else type(e).__name__})")
            return {}
        return {(r["cpu"], r["digest"], r["configuration"]): r["vs_c2_percent"] for r in rows
                if r.get("vs_c2_percent") is not None}
    return predict
