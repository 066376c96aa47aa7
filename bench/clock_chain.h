/*
 * bench/clock_chain.h — a chain of dependent instructions of known latency, and the wall clock
 * that times it: bench/core_clock.c measures the core's clock with it, bench/insn_latency.c
 * counts other chains in the core's cycles against it.
 *
 * The chain: x86-64 `imul r64, r64` (latency 3 cycles on every Intel core since Nehalem and
 * every AMD core since Zen, Agner Fog's instruction tables; not an `add` with an immediate,
 * which Golden Cove's renamer may fold); AArch64 `add x, x, x` (latency 1 on every Arm and
 * Apple core). CHAIN_OP is defined only on those two architectures. chain(x, n) runs n
 * iterations of CHAIN_OPS links, the loop's counter beside the chain, so it takes
 * n * CHAIN_OPS * CHAIN_LATENCY cycles.
 */
#ifndef MINIVM_BENCH_CLOCK_CHAIN_H
#define MINIVM_BENCH_CLOCK_CHAIN_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__)
#define CHAIN_OP "imul %0, %0\n\t"
#define CHAIN_LATENCY 3
#define CHAIN_WHAT "imul r64, r64 (3 cycles)"
#elif defined(__aarch64__)
#define CHAIN_OP "add %0, %0, %0\n\t"
#define CHAIN_LATENCY 1
#define CHAIN_WHAT "add x, x, x (1 cycle)"
#endif

#ifdef CHAIN_OP
#define CHAIN_OPS 8
static uint64_t chain(uint64_t x, uint64_t n) {
  for (uint64_t i = 0; i < n; i++)
    __asm__ volatile(CHAIN_OP CHAIN_OP CHAIN_OP CHAIN_OP CHAIN_OP CHAIN_OP CHAIN_OP CHAIN_OP : "+r"(x));
  return x;
}
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* for qsort: the trials' median */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#endif
