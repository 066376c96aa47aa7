/*
 * bench/core_clock.c — the clock the core runs at now, measured: a chain of
 * dependent integer operations whose latency is known, timed by the wall clock.
 *
 * The runner counts cycles per byte and per block at this clock (bench/mdbench/
 * common.py); the model's cycles per block (bench/model.py) are compared with
 * the measured ones at it. /proc/cpuinfo's "cpu MHz" on a VM is the host's
 * nominal clock, not the one the core boosts to, and cpufreq is often absent:
 * on the AMD EPYC Zen 5 VMs of docs/PERFORMANCE.md cpuinfo says 2.69 GHz, this
 * says 3.0-3.6 GHz.
 *
 * The chain: bench/clock_chain.h's (x86-64 `imul r64, r64`, 3 cycles; AArch64
 * `add x, x, x`, 1 cycle): a trial of N iterations takes N * ops * latency cycles.
 * The result is the median of the trials (a shared machine's preemptions make some slower,
 * none faster).
 *
 *   core_clock [--trials N] [--ms MS]     prints "3.412 GHz" and exits 0
 *
 * On another architecture it says so and exits 2; bad options exit 2.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock_chain.h"

static long option(const char *name, const char *value, long lo, long hi) {
  char *end;
  long v = value ? strtol(value, &end, 10) : 0;
  if (!value || *end || v < lo || v > hi) {
    fprintf(stderr, "core_clock: %s takes a number from %ld to %ld\n", name, lo, hi);
    exit(2);
  }
  return v;
}

int main(int argc, char **argv) {
  long trials = 7, ms = 20;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--trials"))
      trials = option("--trials", i + 1 < argc ? argv[++i] : NULL, 1, 101);
    else if (!strcmp(argv[i], "--ms"))
      ms = option("--ms", i + 1 < argc ? argv[++i] : NULL, 1, 10000);
    else {
      fprintf(stderr, "core_clock: unknown option %s (usage: core_clock [--trials N] [--ms MS])\n", argv[i]);
      return 2;
    }
  }
#ifdef CHAIN_OP
  /* size a trial: grow n until one takes a tenth of the target, then scale */
  uint64_t n = 1024, sink = 3;
  double t;
  for (;;) {
    double t0 = now();
    sink ^= chain(sink | 1, n);
    t = now() - t0;
    if (t >= ms / 1e4 || n > (UINT64_C(1) << 40))
      break;
    n *= 2;
  }
  n = (uint64_t)((double)n * (ms / 1e3) / (t > 0 ? t : 1e-9)) + 1;
  double ghz[101];
  for (long k = 0; k < trials; k++) {
    double t0 = now();
    sink ^= chain(sink | 1, n);
    double s = now() - t0;
    ghz[k] = (double)n * CHAIN_OPS * CHAIN_LATENCY / s / 1e9;
  }
  qsort(ghz, (size_t)trials, sizeof ghz[0], cmp_double);
  printf("%.3f GHz\n", ghz[trials / 2]);
  fprintf(stderr, "core_clock: median of %ld trials of %ld ms, a chain of %s; %.3f to %.3f GHz (%llu)\n",
          trials, ms, CHAIN_WHAT, ghz[0], ghz[trials - 1], (unsigned long long)(sink & 1));
  return 0;
#else
  fprintf(stderr, "core_clock: no dependent chain for this architecture (x86-64 and AArch64 only)\n");
  return 2;
#endif
}
