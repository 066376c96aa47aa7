#!/bin/sh
# cross/sha3_matrix.sh — the SHA-3 stub matrix: one row per QEMU CPU model.
#
#   sh cross/sha3_matrix.sh [build-aarch64] [model ...]
#   MATRIX_ARCH=x86_64 sh cross/sha3_matrix.sh build [model ...]
#
# For each model (QEMU_CPU): the MIDR and features minivm detects, the final
# UseSHA3Intrinsics / UseSIMDForSHA3Intrinsic defaults, and for each flag
# combination which SHA-3 path ran (the stub -XX:+PrintIntrinsics reports
# linked to SHA3.implCompress0 and DigestBase.implCompressMultiBlock0, or
# "int" for the bytecode), whether the VM warned, and whether every digest
# (SHA3-224/256/384/512, SHAKE128/256 of a 5000-byte file: all five block
# sizes, single and multi-block) matched Python's hashlib:
#
#   off    -XX:-UseSHA3Intrinsics
#   gpr    -XX:+UseSHA3Intrinsics -XX:-UseSIMDForSHA3Intrinsic
#   simd   -XX:+UseSHA3Intrinsics -XX:+UseSIMDForSHA3Intrinsic
#
# Expected (docs/stubs.md): off runs the bytecode everywhere; gpr runs the GPR
# stub everywhere; simd runs the SIMD stub only where the CPU has sha3 (QEMU's
# max) and elsewhere warns and runs the bytecode; no run dies of a signal.
#
# MATRIX_ARCH=x86_64: a native x86-64 build under qemu-x86_64 (models without
# AVX-512: TCG has none), with the columns
#   off    -XX:-UseSHA3Intrinsics                      the bytecode
#   gpr    -XX:-UseSIMDForSHA3Intrinsic                the GPR stub with BMI1/BMI2
#   nobmi  ... -XX:-UseBMI1Instructions -XX:-UseBMI2Instructions   gpr-nobmi
#   avx2   -XX:+UseSIMDForSHA3Intrinsic                the AVX2 stub (UseAVX=2 on these models)
#   avx1   ... -XX:UseAVX=1                            no vector stub below AVX2: a warning, the bytecode
#   avx512 -XX:EmulateCPU=icelake-server -XX:+UseSIMDForSHA3Intrinsic
#          the flags ask for AVX-512, the host cannot: a warning and the AVX2 stub, never SIGILL
# Exit status 1 when any cell differs from that. scripts/test-cross runs it.
set -eu
cd "$(dirname "$0")/.."
build=${1:-build-aarch64}
[ $# -gt 0 ] && shift
arch=${MATRIX_ARCH:-aarch64}
if [ "$arch" = x86_64 ]; then
    models=${*:-$(awk '!/^#/ && NF == 2 {print $2}' cross/qemu-x86_64-models.txt)}
    qemu=${MINIVM_QEMU:-qemu-x86_64}
else
    models=${*:-"cortex-a53 cortex-a72 cortex-a76 neoverse-n1 a64fx max"}
    qemu=${MINIVM_QEMU:-qemu-aarch64 -L /}
fi
minivm=$build/minivm
[ -x "$minivm" ] || { echo "sha3_matrix: $minivm not built (sh scripts/test-cross)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c "import random, sys; random.seed(20261130); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(5000)))" >"$tmp/in"
algos="SHA3-224 SHA3-256 SHA3-384 SHA3-512 SHAKE128 SHAKE256"
python3 - "$tmp/in" >"$tmp/want" <<'EOF'
import hashlib, sys
data = open(sys.argv[1], 'rb').read()
for name, h in [('SHA3-224', hashlib.sha3_224(data).hexdigest()), ('SHA3-256', hashlib.sha3_256(data).hexdigest()),
                ('SHA3-384', hashlib.sha3_384(data).hexdigest()), ('SHA3-512', hashlib.sha3_512(data).hexdigest()),
                ('SHAKE128', hashlib.shake_128(data).hexdigest(32)), ('SHAKE256', hashlib.shake_256(data).hexdigest(64))]:
    print(name, h)
EOF

run() { # model, minivm arguments...
    m=$1; shift
    # shellcheck disable=SC2086
    QEMU_CPU=$m $qemu "$minivm" "$@"
}

# One combination on one model: prints "<path> <warned> <digests>" e.g. "gpr - OK"
cell() { # model, flags...
    m=$1; shift
    path="" warned=- ok=OK
    for a in $algos; do
        set +e
        run "$m" -XX:+UnlockDiagnosticVMOptions "$@" -XX:+PrintIntrinsics examples/digest.mva "$a" "$tmp/in" \
            >"$tmp/out" 2>"$tmp/err"
        status=$?
        set -e
        if [ $status -ge 128 ]; then ok="signal$((status - 128))"; break; fi
        [ $status -eq 0 ] || { ok="exit$status"; break; }
        grep -q 'warning' "$tmp/err" && warned=W
        got=$(awk '{print $1}' "$tmp/out" | grep -E '^[0-9a-f]+$' | tail -1)
        want=$(awk -v a="$a" '$1 == a {print $2}' "$tmp/want")
        [ "$got" = "$want" ] || ok=WRONG
        # the stub named on the implCompress0 line, else the bytecode
        p=$(grep 'implCompress0' "$tmp/out" "$tmp/err" 2>/dev/null | sed -n 's/.*(intrinsic).*stub [a-zA-Z0-9_]* (\([a-z0-9-]*\)).*/\1/p' | head -1)
        p=${p:-int}
        [ -z "$path" ] || [ "$path" = "$p" ] || p=mixed
        path=$p
    done
    echo "${path:-?} $warned $ok"
}

midr_of() { # "0xII 0xV 0xPPP R" -> 0x%08x
    # shellcheck disable=SC2086
    set -- $1
    [ $# -eq 4 ] || return 0
    printf '0x%08x' $(( ($1 << 24) | ($2 << 20) | (0xf << 16) | ($3 << 4) | $4 ))
}

failed=0
if [ "$arch" = x86_64 ]; then
    printf '%-12s %-6s %-4s  %-14s %-14s %-20s %-14s %-14s %-14s\n' model avx512 bmi2 off gpr nobmi avx2 avx1 avx512
    for m in $models; do
        cpu=$(run "$m" -XX:+PrintCPUFeatures -version 2>&1 | grep '^CPU: total' || true)
        has() { echo "$cpu" | grep -q ", $1\(,\|$\)" && echo yes || echo no; }
        off=$(cell "$m" -XX:-UseSHA3Intrinsics)
        gpr=$(cell "$m" -XX:+UseSHA3Intrinsics -XX:-UseSIMDForSHA3Intrinsic)
        nobmi=$(cell "$m" -XX:+UseSHA3Intrinsics -XX:-UseSIMDForSHA3Intrinsic -XX:-UseBMI1Instructions \
            -XX:-UseBMI2Instructions)
        avx2=$(cell "$m" -XX:+UseSHA3Intrinsics -XX:+UseSIMDForSHA3Intrinsic)
        avx1=$(cell "$m" -XX:+UseSHA3Intrinsics -XX:+UseSIMDForSHA3Intrinsic -XX:UseAVX=1)
        avx512=$(cell "$m" -XX:EmulateCPU=icelake-server -XX:+UseSIMDForSHA3Intrinsic)
        printf '%-12s %-6s %-4s  %-14s %-14s %-20s %-14s %-14s %-14s\n' "${m%%,*}" "$(has avx512f)" "$(has bmi2)" \
            "$off" "$gpr" "$nobmi" "$avx2" "$avx1" "$avx512"
        for pair in "off:int - OK:$off" "gpr:gpr - OK:$gpr" "nobmi:gpr-nobmi - OK:$nobmi" "avx2:avx2 - OK:$avx2" \
            "avx1:int W OK:$avx1" "avx512:avx2 W OK:$avx512"; do
            name=${pair%%:*} rest=${pair#*:} want=${rest%%:*} got=${rest#*:}
            if [ "$got" != "$want" ]; then
                echo "  ${m%%,*} $name: expected '$want', got '$got'" >&2
                failed=1
            fi
        done
    done
    [ $failed -eq 0 ] && echo "sha3_matrix (x86_64): every cell as expected" || echo "sha3_matrix: FAILED" >&2
    exit $failed
fi
printf '%-11s %-10s %-4s %-6s %-11s  %-14s %-14s %-14s\n' model MIDR sha3 sha512 "defaults" \
    "off" "gpr" "simd"
printf '%-11s %-10s %-4s %-6s %-11s  %-14s %-14s %-14s\n' "" "" "" "" "SHA3/SIMD" \
    "ran warn dgst" "ran warn dgst" "ran warn dgst"
for m in $models; do
    cpu=$(run "$m" -XX:+UnlockDiagnosticVMOptions -XX:+PrintCPUFeatures -version 2>&1 | grep '^CPU: total' || true)
    # HotSpot's "0xII:0xV:0xPPP:R" -> MIDR_EL1 (architecture field 0xf)
    midr=$(midr_of "$(echo "$cpu" | sed -n 's/.*) \(0x[0-9a-f]*\):\(0x[0-9a-f]*\):\(0x[0-9a-f]*\):\([0-9]*\),.*/\1 \2 \3 \4/p')")
    has() { echo "$cpu" | grep -q ", $1\(,\|$\)" && echo yes || echo no; }
    sha3=$(has sha3)
    flags=$(run "$m" -XX:+UnlockDiagnosticVMOptions -XX:+PrintFlagsFinal -version 2>/dev/null |
        awk '/ UseSHA3Intrinsics /{u=$4} / UseSIMDForSHA3Intrinsic /{s=$4} END {print u "/" s}')
    off=$(cell "$m" -XX:-UseSHA3Intrinsics)
    gpr=$(cell "$m" -XX:+UseSHA3Intrinsics -XX:-UseSIMDForSHA3Intrinsic)
    simd=$(cell "$m" -XX:+UseSHA3Intrinsics -XX:+UseSIMDForSHA3Intrinsic)
    printf '%-11s %-10s %-4s %-6s %-11s  %-14s %-14s %-14s\n' "$m" "${midr:-?}" "$sha3" "$(has sha512)" "$flags" \
        "$off" "$gpr" "$simd"
    want_simd="int W OK"
    [ "$sha3" = yes ] && want_simd="simd - OK"
    for pair in "off:int - OK:$off" "gpr:gpr - OK:$gpr" "simd:$want_simd:$simd"; do
        name=${pair%%:*} rest=${pair#*:} want=${rest%%:*} got=${rest#*:}
        if [ "$got" != "$want" ]; then
            echo "  $m $name: expected '$want', got '$got'" >&2
            failed=1
        fi
    done
done
[ $failed -eq 0 ] && echo "sha3_matrix: every cell as expected" || echo "sha3_matrix: FAILED" >&2
exit $failed
