#!/bin/sh
# bench/stub_jmh.sh — the seeds' comparison (JDK-8359256's tables): the JMH
# MessageDigests benchmark in bytecode (bench/MessageDigests.mva) without the
# SHA-3 intrinsic, with the GPR stub and with the SIMD stub (on x86-64 the
# AVX-512 lanes stub, and beside it the row design, SHA3AVX512Design=rows, and
# the AVX2 stub, SIMD with UseAVX=2), each row with its change against the
# no-intrinsic baseline ("GPR SHA3: +37%").
#
#   sh bench/stub_jmh.sh [build-dir] [MessageDigests options...]
#
# build-dir defaults to build (native: on x86-64 the SIMD row is the AVX-512
# stub); the cross build build-aarch64 runs under qemu-aarch64 with
# QEMU_CPU=${QEMU_CPU:-max}; the options default to a short run
# (-wi 1 -i 5 -w 300 -r 500 -p digesterName=SHA3-256,SHA3-512). The
# configurations run one after another, repeated ROUNDS=${ROUNDS:-1} times in
# turn (interleaved) and the best round per row kept; under QEMU the figures
# describe QEMU's TCG, not a CPU. A configuration the CPU cannot run is
# reported as such (the VM's warning) and its column left out.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
[ $# -gt 0 ] && shift
wrap=""
# an AArch64 binary (ELF e_machine 183) on another host runs under QEMU
if [ "$(uname -m)" != aarch64 ] && [ "$(od -An -j18 -N2 -tu2 "$build/minivm" 2>/dev/null | tr -d ' ')" = 183 ]; then
    wrap="qemu-aarch64 -L /"
fi
[ $# -gt 0 ] || set -- -wi 1 -i 5 -w 300 -r 500 -p digesterName=SHA3-256,SHA3-512
[ -x "$build/minivm" ] || { echo "stub_jmh: $build/minivm not built" >&2; exit 1; }
export QEMU_CPU=${QEMU_CPU:-max}
rounds=${ROUNDS:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# name:flags (commas between flags)
configs="base:-XX:-UseSHA3Intrinsics GPR:-XX:-UseSIMDForSHA3Intrinsic SIMD:-XX:+UseSIMDForSHA3Intrinsic"
case "$(od -An -j18 -N2 -tu2 "$build/minivm" 2>/dev/null | tr -d ' ')" in
    # x86-64 (EM_X86_64): SIMD is the AVX-512 lanes stub; the row design and AVX2 beside it
    62) configs="$configs rows:-XX:+UseSIMDForSHA3Intrinsic,-XX:SHA3AVX512Design=rows"
        configs="$configs AVX2:-XX:+UseSIMDForSHA3Intrinsic,-XX:UseAVX=2" ;;
esac
names=""
for c in $configs; do names="$names ${c%%:*}"; done
r=0
while [ $r -lt "$rounds" ]; do
    for c in $configs; do
        name=${c%%:*} flag=$(echo "${c#*:}" | tr , ' ')
        extra=""
        [ "$name" = base ] || extra=-XX:+UseSHA3Intrinsics
        # shellcheck disable=SC2086
        $wrap "$build/minivm" -XX:+UnlockDiagnosticVMOptions $extra $flag -XX:+PrintIntrinsics \
            bench/MessageDigests.mva "$@" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
        if [ "$name" != base ] && { ! grep -q '(intrinsic) _sha3_implCompress' "$tmp/out" || grep -q warning "$tmp/err"; }; then
            echo "$name: not run here: $(grep -m1 warning "$tmp/err" || echo 'no stub linked')" >"$tmp/skip-$name"
            continue
        fi
        # "Benchmark digester length score error" per row, one file per configuration
        awk '/^MessageDigests\./ { print $1, $2, $3, $6, $8 }' "$tmp/out" >>"$tmp/$name"
    done
    r=$((r + 1))
done

echo "$build/minivm${wrap:+ under $wrap, QEMU_CPU=$QEMU_CPU}: bench/MessageDigests.mva $*"
cat "$tmp"/skip-* 2>/dev/null || true
# best round per (benchmark, digester, length) and configuration, then the table
for name in $names; do
    [ -f "$tmp/$name" ] || continue
    sort -k1,1 -k2,2 -k3,3n -k4,4gr "$tmp/$name" | awk -v n="$name" '!seen[$1 " " $2 " " $3]++ { print n, $0 }'
done | awk -v names="$names" '
    { key = $2 " " $3 " " $4; score[$1, key] = $5; err[$1, key] = $6; if (!(key in order)) { order[key] = ++nk; keys[nk] = key } }
    END {
        nc = split(names, cols, " ")
        head = sprintf("%-28s %-9s %8s %12s %9s", "Benchmark", "(digester)", "(length)", "base ops/ms", "error")
        for (j = 2; j <= nc; j++)
            head = head sprintf("  %12s %9s", cols[j] " ops/ms", "vs base")
        print head
        for (i = 1; i <= nk; i++) {
            k = keys[i]; split(k, f, " "); b = score["base", k]
            line = sprintf("%-28s %-9s %8s %12.3f %9.3f", f[1], f[2], f[3], b, err["base", k])
            for (j = 2; j <= nc; j++) {
                c = cols[j]
                if ((c, k) in score)
                    line = line sprintf("  %12.3f %+8.0f%%", score[c, k], (score[c, k] / b - 1) * 100)
                else
                    line = line sprintf("  %12s %9s", "-", "-")
            }
            print line
        }
    }'
