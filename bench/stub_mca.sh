#!/bin/sh
# bench/stub_mca.sh — cycles per Keccak round of the SHA-3 stub variants on
# each CPU model, from llvm-mca's scheduling models (REFERENCE §6), next to
# the variant minivm's ergonomics choose for that CPU. A static estimate,
# not a measurement: it shows which variant suits which core (the question
# JDK-8359256 answers with JMH runs) on cores this project cannot run on.
#
#   sh bench/stub_mca.sh [build-dir]        (default: build)
#
# Needs llvm-mc and llvm-mca-19 (`sh scripts/bootstrap bench` installs
# llvm-19; LLVM 14's llvm-mca lacks the Neoverse V1/V2 models). c/B is cycles per byte of
# SHA3-256 (24 rounds per 136-byte block), rounds only (absorb not counted).
set -eu
build=${1:-build}
words="$build/bench/sha3_round_words"
minivm="$build/minivm"
mca=$(command -v llvm-mca-19 || true)
[ -x "$words" ] || { echo "stub_mca: $words not built (ninja -C $build)" >&2; exit 1; }
[ -n "$mca" ] || { echo "stub_mca: llvm-mca-19 not found (sh scripts/bootstrap bench)" >&2; exit 77; }
command -v llvm-mc >/dev/null || { echo "stub_mca: llvm-mc not found (apt-get install llvm)" >&2; exit 77; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in simd gpr gpr-spill; do
    "$words" $v | llvm-mc --disassemble -triple=aarch64 -mattr=+sha3 >"$tmp/$v.s"
done

cycles() { # cpu variant -> cycles per round
    "$mca" -mtriple=aarch64 -mcpu="$1" -mattr=+sha3 -iterations=200 "$tmp/$2.s" 2>/dev/null |
        awk '/^Total Cycles:/ { printf "%.1f", $3 / 200 }'
}
# the variant minivm's ergonomics pick for a catalog CPU, by default and with
# -XX:+UseSHA3Intrinsics: simd, gpr, or interpreted (- when minivm is not built)
ergo() { # name [extra flags]
    name=$1; shift
    "$minivm" -XX:+UnlockDiagnosticVMOptions -XX:EmulateCPU="$name" "$@" -XX:+PrintFlagsFinal -version 2>/dev/null |
        awk '/ UseSHA3Intrinsics /{u=$4} / UseSIMDForSHA3Intrinsic /{s=$4}
             END { if (u == "") print "-"; else if (u != "true") print "interpreted"; else print (s == "true" ? "simd" : "gpr") }'
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
