#!/bin/sh
# cross/sha3_matrix.sh — the SHA-3 stub matrix: one row per QEMU CPU model.
#
#   sh cross/sha3_matrix.sh [build-aarch64] [model ...]
#   MATRIX_ARCH=x86_64 sh cross/sha3_matrix.sh build [model ...]
#   MATRIX_SAMPLE=features ...   one model per feature set the cells depend on (below)
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
#   gpr    -XX:-UseSIMDForSHA3Intrinsic                the GPR stub with BMI1/BMI2 (gpr-nobmi
#                                                      on a model without them: Nehalem)
#   nobmi  ... -XX:-UseBMI1Instructions -XX:-UseBMI2Instructions   gpr-nobmi
#   avx2   -XX:+UseSIMDForSHA3Intrinsic                the AVX2 stub (UseAVX=2 on these models;
#                                                      without AVX2 a warning and the bytecode)
#   avx1   ... -XX:UseAVX=1                            no vector stub below AVX2: a warning, the bytecode
#   avx512 -XX:EmulateCPU=icelake-server -XX:+UseSIMDForSHA3Intrinsic
#          the flags ask for AVX-512, the host cannot: a warning and the AVX2 stub (the GPR
#          one without AVX2), never SIGILL
#
# Then the SHA-1/SHA-2 matrix, the other intrinsic flags, per model:
#   sha1    -XX:+UseSHA1Intrinsics     SHA-1
#   sha256  -XX:+UseSHA256Intrinsics   SHA-224, SHA-256
#   s256avx2  (x86-64) -XX:SHA256Design=avx2: the AVX2 stub wherever AVX2 and BMI2 are,
#           SHA-NI's with a warning where only SHA-NI is, the bytecode where neither
#   sha512  -XX:+UseSHA512Intrinsics   SHA-384, SHA-512, SHA-512/224, SHA-512/256
#   nosha   -XX:-UseSHA                all seven: the bytecode, no warning
#   md5     (the defaults)             MD5: the GPR stub on every model (UseMD5Intrinsics is
#                                      on wherever HotSpot's is: every 64-bit CPU)
#   nomd5   -XX:-UseMD5Intrinsics      MD5: the bytecode
# which ran (the stub linked to SHA::, SHA2::, SHA5::implCompress0), the warning,
# the digests against hashlib. Expected: the family's stub (AArch64 "crypto", x86-64
# "sha-ni" for SHA-1/SHA-256, "avx2" for SHA-512) where the CPU has the feature
# (sha1, sha256, sha512; sha; avx2 and bmi2; x86-64 SHA-256 without SHA-NI: "avx2"
# where AVX2 and BMI2 are), elsewhere HotSpot's "not available" warning and the bytecode.
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
    models=${*:-$(awk '!/^#/ && NF == 2 {print $2}' cross/qemu-aarch64-models.txt)}
    qemu=${MINIVM_QEMU:-qemu-aarch64 -L /}
fi
minivm=$build/minivm
[ -x "$minivm" ] || { echo "sha3_matrix: $minivm not built (sh scripts/test-cross)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -c "import random, sys; random.seed(20261130); sys.stdout.buffer.write(bytes(random.getrandbits(8) for _ in range(5000)))" >"$tmp/in"
sha3_algos="SHA3-224 SHA3-256 SHA3-384 SHA3-512 SHAKE128 SHAKE256"
python3 - "$tmp/in" >"$tmp/want" <<'EOF'
import hashlib, sys
data = open(sys.argv[1], 'rb').read()
for name, h in [('SHA3-224', hashlib.sha3_224(data).hexdigest()), ('SHA3-256', hashlib.sha3_256(data).hexdigest()),
                ('SHA3-384', hashlib.sha3_384(data).hexdigest()), ('SHA3-512', hashlib.sha3_512(data).hexdigest()),
                ('SHAKE128', hashlib.shake_128(data).hexdigest(32)), ('SHAKE256', hashlib.shake_256(data).hexdigest(64)),
                ('MD5', hashlib.md5(data).hexdigest()), ('SHA-1', hashlib.sha1(data).hexdigest()), ('SHA-224', hashlib.sha224(data).hexdigest()),
                ('SHA-256', hashlib.sha256(data).hexdigest()), ('SHA-384', hashlib.sha384(data).hexdigest()),
                ('SHA-512', hashlib.sha512(data).hexdigest()),
                ('SHA-512/224', hashlib.new('sha512_224', data).hexdigest()),
                ('SHA-512/256', hashlib.new('sha512_256', data).hexdigest())]:
    print(name, h)
EOF
# what cell() hashes, and whose implCompress0 line names the path
algos=$sha3_algos holder=SHA3

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
        # the stub named on the holder's implCompress0 line, else the bytecode
        p=$(grep -h "^$holder::implCompress0" "$tmp/out" "$tmp/err" 2>/dev/null |
            sed -n 's/.*(intrinsic).*stub [a-zA-Z0-9_]* (\([a-z0-9-]*\)).*/\1/p' | head -1)
        p=${p:-int}
        [ -z "$path" ] || [ "$path" = "$p" ] || p=mixed
        path=$p
    done
    echo "${path:-?} $warned $ok"
}

# whether the model's "CPU: total" line ($cpu) lists feature $1: yes or no
has() { echo "$cpu" | grep -q ", $1\(,\|$\)" && echo yes || echo no; }

# Compares cells with what the model's features lead to; a difference sets $failed.
expect() { # model, "name:wanted cell:cell"...
    em=$1; shift
    for pair in "$@"; do
        name=${pair%%:*} rest=${pair#*:} want=${rest%%:*} got=${rest#*:}
        if [ "$got" != "$want" ]; then
            echo "  $em $name: expected '$want', got '$got'" >&2
            failed=1
        fi
    done
}

midr_of() { # "0xII 0xV 0xPPP R" -> 0x%08x
    # shellcheck disable=SC2086
    set -- $1
    [ $# -eq 4 ] || return 0
    printf '0x%08x' $(( ($1 << 24) | ($2 << 20) | (0xf << 16) | ($3 << 4) | $4 ))
}

# The SHA-1/SHA-2 matrix (see the header); adds to $failed.
sha2_matrix() {
    if [ "$arch" = x86_64 ]; then f1=sha f2=sha f5=avx2 v1=sha-ni v2=sha-ni v5=avx2; else
        f1=sha1 f2=sha256 f5=sha512 v1=crypto v2=crypto v5=crypto; fi
    before=$failed failed=0
    printf '\n%-15s %-6s %-6s %-6s  %-14s %-14s %-14s %-14s %-14s %-14s %-14s\n' model "$f1" "$f2" "$f5" sha1 sha256 \
        sha512 nosha md5 nomd5 s256avx2
    for m in $models; do
        cpu=$(run "$m" -XX:+UnlockDiagnosticVMOptions -XX:+PrintCPUFeatures -version 2>&1 | grep '^CPU: total' || true)
        h1=$(has "$f1") h2=$(has "$f2") h5=$(has "$f5")
        if [ "$arch" = x86_64 ] && [ "$(has bmi2)" = no ]; then h5=no; fi
        h2avx=no
        if [ "$arch" = x86_64 ]; then h2avx=$h5; fi # AVX2 and BMI2, as SHA-512's stub
        algos="SHA-1" holder=SHA
        c1=$(cell "$m" -XX:+UseSHA1Intrinsics)
        n1=$(cell "$m" -XX:-UseSHA)
        algos="SHA-224 SHA-256" holder=SHA2
        c2=$(cell "$m" -XX:+UseSHA256Intrinsics)
        n2=$(cell "$m" -XX:-UseSHA)
        a2=-
        if [ "$arch" = x86_64 ]; then a2=$(cell "$m" -XX:+UnlockDiagnosticVMOptions -XX:SHA256Design=avx2); fi
        algos="SHA-384 SHA-512 SHA-512/224 SHA-512/256" holder=SHA5
        c5=$(cell "$m" -XX:+UseSHA512Intrinsics)
        n5=$(cell "$m" -XX:-UseSHA)
        nosha="int - OK"
        if [ "$n1" != "int - OK" ] || [ "$n2" != "int - OK" ] || [ "$n5" != "int - OK" ]; then nosha="$n1/$n2/$n5"; fi
        algos="MD5" holder=MD5
        md5=$(cell "$m")
        nomd5=$(cell "$m" -XX:-UseMD5Intrinsics)
        printf '%-15s %-6s %-6s %-6s  %-14s %-14s %-14s %-14s %-14s %-14s %-14s\n' "${m%%,*}" "$h1" "$h2" "$h5" "$c1" \
            "$c2" "$c5" "$nosha" "$md5" "$nomd5" "$a2"
        w1="int W OK" w2="int W OK" w5="int W OK" wa="-"
        if [ "$h1" = yes ]; then w1="$v1 - OK"; fi
        if [ "$h2" = yes ]; then w2="$v2 - OK"; elif [ "$h2avx" = yes ]; then w2="avx2 - OK"; fi
        if [ "$h5" = yes ]; then w5="$v5 - OK"; fi
        if [ "$arch" = x86_64 ]; then
            if [ "$h2avx" = yes ]; then wa="avx2 - OK"; elif [ "$h2" = yes ]; then wa="sha-ni W OK"; else wa="int - OK"; fi
        fi
        expect "${m%%,*}" "sha1:$w1:$c1" "sha256:$w2:$c2" "sha512:$w5:$c5" "nosha:int - OK:$nosha" \
            "md5:gpr - OK:$md5" "nomd5:int - OK:$nomd5" "s256avx2:$wa:$a2"
    done
    algos=$sha3_algos holder=SHA3
    if [ "$failed" = 0 ]; then echo "sha2_matrix: every cell as expected"; else echo "sha2_matrix: FAILED" >&2; fi
    [ "$before" = 0 ] || failed=1
}

# MATRIX_SAMPLE=features: one model per set of the features the cells depend on (every
# expectation above follows from them alone) and, on AArch64, per SHA-3 defaults; the others' rows would repeat its row, and are
# named, not run (scripts/test-cross samples so)
if [ "${MATRIX_SAMPLE:-}" = features ]; then
    if [ "$arch" = x86_64 ]; then keyfeat="sha avx avx2 avx512f bmi1 bmi2"; else keyfeat="sha1 sha256 sha512 sha3"; fi
    kept="" keys=""
    for m in $models; do
        cpu=$(run "$m" -XX:+UnlockDiagnosticVMOptions -XX:+PrintCPUFeatures -version 2>&1 | grep '^CPU: total' || true)
        key=""
        for f in $keyfeat; do key="$key$f=$(has "$f"),"; done
        # and the SHA-3 defaults the AArch64 table prints (they follow the CPU, not only its features)
        [ "$arch" = x86_64 ] || key="${key}defaults=$(run "$m" -XX:+UnlockDiagnosticVMOptions -XX:+PrintFlagsFinal \
            -version 2>/dev/null | awk '/ UseSHA3Intrinsics /{u=$4} / UseSIMDForSHA3Intrinsic /{s=$4} END {print u "/" s}')"
        same=$(echo "$keys" | awk -v k="$key" '$1 == k {print $2; exit}')
        if [ -n "$same" ]; then
            echo "${m%%,*}: sampled out (the features the matrix depends on are ${same%%,*}'s: $key)"
        else
            keys="$keys
$key $m"
            kept="$kept $m"
        fi
    done
    models=$kept
fi

failed=0
if [ "$arch" = x86_64 ]; then
    printf '%-15s %-6s %-4s  %-14s %-14s %-20s %-14s %-14s %-14s\n' model avx512 bmi2 off gpr nobmi avx2 avx1 avx512
    for m in $models; do
        cpu=$(run "$m" -XX:+PrintCPUFeatures -version 2>&1 | grep '^CPU: total' || true)
        off=$(cell "$m" -XX:-UseSHA3Intrinsics)
        gpr=$(cell "$m" -XX:+UseSHA3Intrinsics -XX:-UseSIMDForSHA3Intrinsic)
        nobmi=$(cell "$m" -XX:+UseSHA3Intrinsics -XX:-UseSIMDForSHA3Intrinsic -XX:-UseBMI1Instructions \
            -XX:-UseBMI2Instructions)
        avx2=$(cell "$m" -XX:+UseSHA3Intrinsics -XX:+UseSIMDForSHA3Intrinsic)
        avx1=$(cell "$m" -XX:+UseSHA3Intrinsics -XX:+UseSIMDForSHA3Intrinsic -XX:UseAVX=1)
        avx512=$(cell "$m" -XX:EmulateCPU=icelake-server -XX:+UseSIMDForSHA3Intrinsic)
        printf '%-15s %-6s %-4s  %-14s %-14s %-20s %-14s %-14s %-14s\n' "${m%%,*}" "$(has avx512f)" "$(has bmi2)" \
            "$off" "$gpr" "$nobmi" "$avx2" "$avx1" "$avx512"
        # what the model's features lead to: without BMI1+BMI2 the GPR row is gpr-nobmi, without
        # AVX2 there is no vector stub (the SHA3 warning and the bytecode; the what-if AVX-512
        # CPU falls back to the GPR stub)
        g=gpr
        [ "$(has bmi1)" = yes ] && [ "$(has bmi2)" = yes ] || g="gpr-nobmi"
        w_avx2="avx2 - OK" w_avx512="avx2 W OK"
        [ "$(has avx2)" = yes ] || w_avx2="int W OK" w_avx512="$g W OK"
        expect "${m%%,*}" "off:int - OK:$off" "gpr:$g - OK:$gpr" "nobmi:gpr-nobmi - OK:$nobmi" \
            "avx2:$w_avx2:$avx2" "avx1:int W OK:$avx1" "avx512:$w_avx512:$avx512"
    done
    [ $failed -eq 0 ] && echo "sha3_matrix (x86_64): every cell as expected" || echo "sha3_matrix: FAILED" >&2
    sha2_matrix
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
    expect "$m" "off:int - OK:$off" "gpr:gpr - OK:$gpr" "simd:$want_simd:$simd"
done
[ $failed -eq 0 ] && echo "sha3_matrix: every cell as expected" || echo "sha3_matrix: FAILED" >&2
sha2_matrix
exit $failed
