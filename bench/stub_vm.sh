#!/bin/sh
# bench/stub_vm.sh — the whole VM natively: examples/digest.mva's SHA3-256 of
# one file interpreted and with each SHA-3 stub variant the host runs, next
# to `openssl dgst -sha3-256` on the same file. Interleaved rounds (every
# configuration once per round, so a round shares the machine's noise),
# median wall time per configuration (start-up included: about 10 ms), and
# each against OpenSSL and the interpreter. With a large file the
# interpreter's share (reading, padding, the calls into the stub) is
# negligible and the stub's speed shows through the VM.
#
#   sh bench/stub_vm.sh [build-dir] [MiB] [rounds]     (defaults: build 64 5)
#
# A variant the host cannot run is reported as skipped (its flags produce a
# fallback warning or name another stub), never timed.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build} mib=${2:-64} rounds=${3:-5}
[ -x "$build/minivm" ] || { echo "stub_vm: $build/minivm not built (ninja -C $build)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -c $((mib * 1048576)) /dev/urandom >"$tmp/in"
want=$(python3 -c "import hashlib,sys; print(hashlib.sha3_256(open(sys.argv[1],'rb').read()).hexdigest())" "$tmp/in")

case "$(uname -m)" in
    x86_64) variants="gpr:-XX:-UseSIMDForSHA3Intrinsic
gpr-nobmi:-XX:-UseSIMDForSHA3Intrinsic -XX:-UseBMI1Instructions -XX:-UseBMI2Instructions
avx2:-XX:+UseSIMDForSHA3Intrinsic -XX:UseAVX=2
avx512:-XX:+UseSIMDForSHA3Intrinsic -XX:UseAVX=3 -XX:SHA3AVX512Design=rows
avx512-lanes:-XX:+UseSIMDForSHA3Intrinsic -XX:UseAVX=3 -XX:SHA3AVX512Design=lanes" ;;
    *) variants="gpr:-XX:-UseSIMDForSHA3Intrinsic
simd:-XX:+UseSIMDForSHA3Intrinsic" ;;
esac
# keep the variants whose flags link that very stub here, without a warning
configs="interpreted"
printf '%s\n' "$variants" >"$tmp/variants"
while IFS=: read -r name flags; do
    # shellcheck disable=SC2086
    "$build/minivm" -XX:+UseSHA3Intrinsics $flags -XX:+PrintIntrinsics examples/digest.mva SHA3-256 /dev/null \
        >"$tmp/probe" 2>"$tmp/probe.err" || true
    if grep -q "stub sha3_implCompress ($name)" "$tmp/probe" && ! grep -q warning "$tmp/probe.err"; then
        configs="$configs $name"
        echo "$flags" >"$tmp/flags-$name"
    else
        echo "stub_vm: $name: skipped (not run on this CPU: $(grep -m1 warning "$tmp/probe.err" || echo 'another stub linked'))"
    fi
done <"$tmp/variants"
have_openssl=false
command -v openssl >/dev/null && openssl dgst -sha3-256 /dev/null >/dev/null 2>&1 && have_openssl=true
$have_openssl && configs="openssl $configs"

now() { date +%s%N; }
r=0
while [ $r -lt "$rounds" ]; do
    for name in $configs; do
        t0=$(now)
        case $name in
            openssl) got=$(openssl dgst -sha3-256 -r "$tmp/in" | cut -d' ' -f1) ;;
            interpreted) got=$("$build/minivm" -XX:-UseSHA3Intrinsics examples/digest.mva SHA3-256 "$tmp/in" | cut -d' ' -f1) ;;
            # shellcheck disable=SC2046
            *) got=$("$build/minivm" -XX:+UseSHA3Intrinsics $(cat "$tmp/flags-$name") examples/digest.mva SHA3-256 \
                "$tmp/in" | cut -d' ' -f1) ;;
        esac
        t1=$(now)
        [ "$got" = "$want" ] || { echo "stub_vm: $name: wrong digest" >&2; exit 1; }
        echo "$name $(( (t1 - t0) / 1000000 ))" >>"$tmp/times"
    done
    r=$((r + 1))
done

echo "$build/minivm examples/digest.mva SHA3-256, $mib MiB, median of $rounds interleaved rounds; $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
printf '%-12s %10s %10s %12s %12s\n' "config" "median ms" "MiB/s" "vs OpenSSL" "vs interp"
for name in $configs; do
    awk -v n="$name" '$1 == n {print $2}' "$tmp/times" | sort -n | awk -v n="$name" -v mib="$mib" '
        { t[NR] = $1 } END { m = t[int((NR + 1) / 2)]; if (m < 1) m = 1; print n, m, mib * 1000 / m }'
done | awk -v ossl="$have_openssl" '
    { n[NR] = $1; m[NR] = $2; s[NR] = $3; if ($1 == "openssl") o = $2; if ($1 == "interpreted") i = $2 }
    END { for (k = 1; k <= NR; k++)
              printf "%-12s %10d %10.1f %11s %11.2fx\n", n[k], m[k], s[k],
                     (ossl == "true" ? sprintf("%.2fx", o / m[k]) : "-"), i / m[k] }'
