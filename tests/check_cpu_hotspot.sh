#!/bin/sh
# tests/check_cpu_hotspot.sh CPU_TOOL — the host's CPU line, minivm against
# HotSpot (`java -Xlog:os+cpu`): the same "CPU: total N (initial active M)
# ... family F model M stepping S microcode 0xU" and, among the features
# minivm knows, the same names in the same order. "(C cores per cpu, T threads
# per core)" is shown but not compared: HotSpot's formula changed between
# releases (AMD family 0x17 and later), minivm follows the newest.
# x86-64 hosts only; the java is HotSpot 25, the project's (scripts/oracle, which
# sh scripts/test sets up), else JAVA_HOME's, else one on PATH; skips (77) without any.
# -XX:UseAVX=3 keeps HotSpot from dropping AVX-512 names by ergonomics (it
# falls back by itself on CPUs without AVX-512).
tool=$1
[ "$(uname -m)" = x86_64 ] || { echo "not an x86-64 host"; exit 77; }
[ -z "${MINIVM_WRAPPER:-}" ] || { echo "cross build: $tool runs under $MINIVM_WRAPPER"; exit 77; }
src=${MINIVM_SOURCE_ROOT:-$(dirname "$0")/..}
if sh "$src/scripts/oracle" java -version >/dev/null 2>&1; then
    java() { sh "$src/scripts/oracle" java "$@"; }
elif [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    java() { "$JAVA_HOME/bin/java" "$@"; }
elif ! command -v java >/dev/null 2>&1; then
    echo "no HotSpot (sh scripts/oracle setup), no JAVA_HOME, no java on PATH"
    exit 77
fi
java -version 2>&1 | head -n 1

hs=$(java -XX:UseAVX=3 -Xlog:os+cpu=info -version 2>/dev/null | sed -n 's/^.*\[os,cpu\] \(CPU: total .*\)$/\1/p' | head -n 1)
[ -n "$hs" ] || { echo "java printed no CPU line"; exit 77; }
mine=$("$tool" | head -n 1)

known=$("$tool" --features x86_64 | tr '\n' ' ')
filter() {   # "head, f1, f2, ..." -> "head, f1, ..." keeping only known features
    printf '%s\n' "$1" | awk -v known="$known" 'BEGIN { n = split(known, k, " "); for (i = 1; i <= n; i++) ok[k[i]] = 1 }
        { sub(/\([0-9]+ cores per cpu, [0-9]+ threads per core\) /, "");
          m = split($0, part, ", "); out = part[1]; for (i = 2; i <= m; i++) if (part[i] in ok) out = out ", " part[i]; print out }'
}
a=$(filter "$hs"); b=$(filter "$mine")
echo "HotSpot: $hs"
echo "minivm:  $mine"
if [ "$a" != "$b" ]; then
    echo "differ (features minivm knows):"
    echo "  HotSpot: $a"
    echo "  minivm:  $b"
    exit 1
fi
echo "same"
