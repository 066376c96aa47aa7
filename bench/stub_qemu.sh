#!/bin/sh
# bench/stub_qemu.sh — minivm's SHA3-256 digest of one file, interpreted vs
# the GPR stub vs the SIMD stub, under QEMU user mode (CPU model max, the one
# with sha3), interleaved rounds, median wall time per configuration and the
# ratio to the interpreter. QEMU's TCG, not a CPU: the ratios say the stubs
# are linked and run, and how TCG likes them; bench/stub_mca.sh estimates
# hardware.
#
#   sh bench/stub_qemu.sh [build-aarch64] [MiB] [rounds]     (defaults: build-aarch64 8 5)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-aarch64} mib=${2:-8} rounds=${3:-5}
[ -x "$build/minivm" ] || { echo "stub_qemu: $build/minivm not built (sh scripts/test-cross)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -c $((mib * 1048576)) /dev/urandom >"$tmp/in"
want=$(python3 -c "import hashlib,sys; print(hashlib.sha3_256(open(sys.argv[1],'rb').read()).hexdigest())" "$tmp/in")
configs="interpreted:-XX:-UseSHA3Intrinsics gpr:-XX:-UseSIMDForSHA3Intrinsic simd:-XX:+UseSIMDForSHA3Intrinsic"
now() { date +%s%N; }
r=0
while [ $r -lt "$rounds" ]; do
    for c in $configs; do
        name=${c%%:*} flag=${c#*:}
        extra=""
        [ "$name" = interpreted ] || extra=-XX:+UseSHA3Intrinsics
        t0=$(now)
        # shellcheck disable=SC2086
        got=$(QEMU_CPU=max qemu-aarch64 -L / "$build/minivm" -XX:+UnlockDiagnosticVMOptions $extra "$flag" \
            examples/digest.mva SHA3-256 "$tmp/in" | cut -d' ' -f1)
        t1=$(now)
        [ "$got" = "$want" ] || { echo "stub_qemu: $name: wrong digest" >&2; exit 1; }
        echo "$name $(( (t1 - t0) / 1000000 ))" >>"$tmp/times"
    done
    r=$((r + 1))
done
printf '%-12s %10s %10s %12s\n' "config" "median ms" "MiB/s" "vs interp"
for c in $configs; do
    name=${c%%:*}
    awk -v n="$name" '$1 == n {print $2}' "$tmp/times" | sort -n | awk -v n="$name" -v mib="$mib" '
        { t[NR] = $1 } END { m = t[int((NR + 1) / 2)]; print n, m, mib * 1000 / m }'
done | awk '{ if (NR == 1) base = $2; printf "%-12s %10d %10.1f %11.2fx\n", $1, $2, $3, base / $2 }'
