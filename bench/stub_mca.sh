#!/bin/sh
# bench/stub_mca.sh — cycles per Keccak round of the SHA-3 stub variants on
# each CPU model, from llvm-mca's scheduling models, next to the variant
# minivm's ergonomics choose for that CPU. A static estimate, not a
# measurement: it shows which variant suits which core (the question
# JDK-8359256 answers with JMH runs) on cores this project cannot run on.
# llvm-mca assumes loads never wait for stores (-noalias), so the stubs that
# keep the state or pi's lanes in memory (x86-64 GPR, AVX2) look better than
# they run; bench/sha3_stub_speed measures the host.
#
#   sh bench/stub_mca.sh [build-dir] [aarch64|x86_64]   (default: build, both)
#
# Needs llvm-mc and llvm-mca-19 (`sh scripts/bootstrap bench` installs
# llvm-19; LLVM 14's llvm-mca lacks the Neoverse V1/V2 models). c/B is cycles per byte of
# SHA3-256 (24 rounds per 136-byte block), rounds only (absorb not counted).
set -eu
build=${1:-build}
only=${2:-}
words="$build/bench/sha3_round_words"
minivm="$build/minivm"
mca=$(command -v llvm-mca-19 || true)
[ -x "$words" ] || { echo "stub_mca: $words not built (ninja -C $build)" >&2; exit 1; }
[ -n "$mca" ] || { echo "stub_mca: llvm-mca-19 not found (sh scripts/bootstrap bench)" >&2; exit 77; }
command -v llvm-mc >/dev/null || { echo "stub_mca: llvm-mc not found (apt-get install llvm)" >&2; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the variant minivm's ergonomics pick for a catalog CPU, by default and with
# -XX:+UseSHA3Intrinsics: simd, gpr, or interpreted (- when minivm is not built)
ergo() { # name [extra flags]
    name=$1; shift
    "$minivm" -XX:+UnlockDiagnosticVMOptions -XX:EmulateCPU="$name" "$@" -XX:+PrintFlagsFinal -version 2>/dev/null |
        awk '/ UseSHA3Intrinsics /{u=$4} / UseSIMDForSHA3Intrinsic /{s=$4} / UseAVX /{a=$4}
             / UseBMI2Instructions /{b=$4} / SHA3AVX512Design /{d=$4}
             END { if (u == "") print "-"; else if (u != "true") print "interpreted"
                   else if (s != "true") print (a == "" ? "gpr" : b == "true" ? "gpr" : "gpr-nobmi")
                   else print (a == "" ? "simd" : a < 3 ? "avx2" : d == "lanes" ? "avx512-lanes" : "avx512") }'
}

aarch64_table() {
for v in simd gpr gpr-spill; do
    "$words" $v | llvm-mc --disassemble -triple=aarch64 -mattr=+sha3 >"$tmp/$v.s"
done

cycles() { # cpu variant -> cycles per round
    "$mca" -mtriple=aarch64 -mcpu="$1" -mattr=+sha3 -iterations=200 "$tmp/$2.s" 2>/dev/null |
        awk '/^Total Cycles:/ { printf "%.1f", $3 / 200 }'
}
has_sha3() {
    "$minivm" -XX:+UnlockDiagnosticVMOptions -XX:EmulateCPU="$1" -XX:+PrintCPUFeatures -version 2>/dev/null |
        grep -q 'sha3' && echo yes || echo no
}

printf '%-12s %-12s %5s %8s %8s %10s %9s %9s  %-8s %-12s %s\n' "llvm-mca" "minivm" "sha3" "SIMD" "GPR" "GPR-spill" \
    "SIMD c/B" "GPR c/B" "faster" "default" "+UseSHA3Intrinsics"
printf '%-12s %-12s %5s %8s %8s %10s\n' "-mcpu" "EmulateCPU" "" "cyc/rnd" "cyc/rnd" "cyc/rnd"
# llvm-mca model : minivm catalog name (cortex-a72/a76 use LLVM's cortex-a57 model)
for pair in cortex-a53:cortex-a53 cortex-a57:cortex-a72 neoverse-n1:neoverse-n1 \
            neoverse-v1:neoverse-v1 neoverse-v2:neoverse-v2 apple-m1:apple-m1 apple-m4:apple-m4 a64fx:a64fx; do
    cpu=${pair%%:*} name=${pair#*:}
    s=$(cycles "$cpu" simd) g=$(cycles "$cpu" gpr) p=$(cycles "$cpu" gpr-spill)
    [ -n "$s" ] || { printf '%-12s (no llvm-mca model)\n' "$cpu"; continue; }
    awk -v c="$cpu" -v n="$name" -v h="$(has_sha3 "$name")" -v s="$s" -v g="$g" -v p="$p" \
        -v e="$(ergo "$name")" -v u="$(ergo "$name" -XX:+UseSHA3Intrinsics)" 'BEGIN {
        printf "%-12s %-12s %5s %8.1f %8.1f %10.1f %9.2f %9.2f  %-8s %-12s %s\n", c, n, h, s, g, p,
               s * 24 / 136, g * 24 / 136, (h == "no" ? "gpr-only" : (s < g ? "simd" : "gpr")), e, u }'
done
}

# x86-64: LLVM's models : minivm's catalog names (sierra-forest: LLVM has no
# Crestmont model and uses Alder Lake's; Emerald Rapids is Sapphire Rapids')
x86_64_table() {
for v in gpr gpr-nobmi avx2 avx512 avx512-lanes; do
    "$words" "x64-$v" | llvm-mc --disassemble -triple=x86_64 >"$tmp/x64-$v.s"
done
x64_cycles() { # cpu variant -> cycles per round
    "$mca" -mtriple=x86_64 -mcpu="$1" -iterations=200 "$tmp/x64-$2.s" 2>/dev/null |
        awk '/^Total Cycles:/ { printf "%.1f", $3 / 200 }'
}
x64_has() { # name feature -> yes/no
    "$minivm" -XX:+UnlockDiagnosticVMOptions -XX:EmulateCPU="$1" -XX:+PrintCPUFeatures -version 2>/dev/null |
        grep -q " $2\(,\|$\)" && echo yes || echo no
}
printf '%-15s %-16s %6s %8s %9s %8s %8s %8s %9s  %-12s %-12s %s\n' "llvm-mca" "minivm" "avx512" "GPR" \
    "GPR-nobmi" "AVX2" "AVX-512" "lanes" "best c/B" "fastest" "default" "+UseSHA3Intrinsics"
printf '%-15s %-16s %6s %8s %9s %8s %8s %8s\n' "-mcpu" "EmulateCPU" "" "cyc/rnd" "cyc/rnd" "cyc/rnd" "cyc/rnd" \
    "cyc/rnd"
for pair in haswell:haswell skylake-avx512:skylake-avx512 icelake-server:icelake-server \
            sapphirerapids:sapphire-rapids sapphirerapids:emerald-rapids sierraforest:sierra-forest \
            znver3:zen3 znver4:zen4 znver5:zen5; do
    cpu=${pair%%:*} name=${pair#*:}
    g=$(x64_cycles "$cpu" gpr) n=$(x64_cycles "$cpu" gpr-nobmi) a2=$(x64_cycles "$cpu" avx2)
    a5=$(x64_cycles "$cpu" avx512) al=$(x64_cycles "$cpu" avx512-lanes) e=$(x64_has "$name" avx512bw)
    [ -n "$g" ] || { printf '%-15s (no llvm-mca model)\n' "$cpu"; continue; }
    awk -v c="$cpu" -v m="$name" -v e="$e" -v g="$g" -v n="$n" -v a2="$a2" -v a5="$a5" -v al="$al" \
        -v d="$(ergo "$name")" -v u="$(ergo "$name" -XX:+UseSHA3Intrinsics)" 'BEGIN {
        best = g; f = "gpr"
        if (a2 < best) { best = a2; f = "avx2" }
        if (e == "yes" && a5 < best) { best = a5; f = "avx512" }
        if (e == "yes" && al < best) { best = al; f = "avx512-lanes" }
        printf "%-15s %-16s %6s %8.1f %9.1f %8.1f %8s %8s %9.2f  %-12s %-12s %s\n", c, m, e, g, n, a2,
               (e == "yes" ? sprintf("%.1f", a5) : "-"), (e == "yes" ? sprintf("%.1f", al) : "-"),
               best * 24 / 136, f, d, u }'
done
}

case "$only" in
    aarch64) aarch64_table ;;
    x86_64) x86_64_table ;;
    *) aarch64_table; echo; x86_64_table ;;
esac
