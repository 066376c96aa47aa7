#!/bin/sh
# bench/ab_cputime.sh — compare minivm builds on a fixed amount of work, by CPU time.
#
#   sh bench/ab_cputime.sh ROUNDS "PROGRAM [ARGS]" MINIVM...
#   sh bench/ab_cputime.sh 15 "bench/DigestLoop.mva 400" build/minivm build-switch/minivm
#
# Runs every launcher on the program once per round, interleaved (A B C, A B C, ...),
# timing each run with `perf stat -e task-clock` (CPU time: waiting for the CPU does not
# count), then prints per launcher the median and minimum time and, against the first
# launcher, the median of the per-round speed ratios with its quartiles, and the ratio of
# the minima. > 1 is faster. Pin it (`taskset -c 1 sh bench/ab_cputime.sh ...`) so every
# run gets the same core; see docs/PERFORMANCE.md.
set -eu
if [ $# -lt 3 ]; then
    echo 'usage: sh bench/ab_cputime.sh ROUNDS "PROGRAM [ARGS]" MINIVM...' >&2
    exit 2
fi
rounds=$1
prog=$2
shift 2
for r in $(seq "$rounds"); do
    for b in "$@"; do
        # shellcheck disable=SC2086 # PROGRAM [ARGS] is split on purpose
        t=$(perf stat -x, -e task-clock "$b" $prog 2>&1 >/dev/null | awk -F, '/task-clock/ {print $1}')
        echo "$b $t"
    done
done | python3 -c '
import collections, statistics, sys
times, order = collections.defaultdict(list), []
for line in sys.stdin:
    b, t = line.split()
    times[b].append(float(t))
    if b not in order:
        order.append(b)
base = times[order[0]]
print("%-36s %9s %9s  %s" % ("launcher", "median ms", "min ms", "speed vs the first: median [quartiles], of minima"))
for b in order:
    q = sorted(x / y for x, y in zip(base, times[b]))
    print("%-36s %9.1f %9.1f  %.3f [%.3f .. %.3f], %.3f" % (b, statistics.median(times[b]), min(times[b]),
          statistics.median(q), q[len(q) // 4], q[(3 * len(q)) // 4], min(base) / min(times[b])))
'
