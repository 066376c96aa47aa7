"""bench/mdbench/docsreport.py — docs/PERFORMANCE.md's generated section (--report): every mode
of the runner on this machine, from one command."""

import os
import platform
import re
import shutil
import subprocess
import sys

from .common import ROOT, glob_latest, machine_info


REPORT_BEGIN = "<!-- BEGIN sh scripts/bench --report: generated, do not edit -->"
REPORT_END = "<!-- END sh scripts/bench --report -->"


def report(args, argv):
    """docs/PERFORMANCE.md's generated section, from one command: this machine's MessageDigests
    matrix with its chart, the whole VM on a 64 MiB file, the llvm-mca table, and the QEMU
    correctness matrices (which stub ran, digests right) for both architectures."""
    me = [sys.executable, os.path.join(ROOT, "bench", "runner.py")]
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
    families = []
    for path in glob_latest(charts, "messagedigests-2*"):
        m = re.search(r"-(sha\d*)\.svg$", path)
        if m:  # the docs show the SVGs, one per digest family; the PNGs and the JSON stay out of the tree
            os.replace(path, os.path.join(charts, f"messagedigests-{tag}-{m.group(1)}.svg"))
            families.append(m.group(1))
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
    comp = matrix[matrix.index("Comparison against"):matrix.index("\nSummary:")].strip()
    summary_text = matrix[matrix.index("Summary:"):matrix.index("\nJSON:")].strip()
    tables = matrix[matrix.index("\n# "):matrix.index("Comparison against")].strip()
    charts_md = "\n\n".join(f"![MessageDigests, {f.upper().replace('SHA', 'SHA-')}: the speed-up per configuration]"
                            f"(charts/messagedigests-{tag}-{f}.svg)" for f in families)
    text = f"""{REPORT_BEGIN}
## Generated: every configuration on this machine

Written by `sh scripts/bench --report` on {machine['date']}: **{machine['cpu']}**,
{machine['cores']} CPUs{', ' + machine['jdk'] if machine['jdk'] else ''}. Every table below comes from that one run; the
machine is shared, so compare ratios within a table, not across runs.

### MessageDigests, every configuration (`sh scripts/bench{' ' + ' '.join(passed) if passed else ''}`)

```
{comp}
```

```
{summary_text}
```

{charts_md}

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
    print(f"bench --report: wrote the generated section of {os.path.relpath(perf)} and "
          + ", ".join(f"docs/charts/messagedigests-{tag}-{f}.svg" for f in families))
    return 0
