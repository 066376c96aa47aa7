/*
 * bench/insn_latency.c — the latency, in core cycles, of the instructions on which the model's
 * predictions hinge, measured on this core: what llvm-mca's scheduling model of a CPU says, and
 * the model (bench/model.py) takes, checked on the CPU itself.
 *
 * Where a code is one long dependent chain, the model's cycles are that chain's length with the
 * model's latencies, and a latency it has wrong is its error (docs/PERFORMANCE.md, "Which side
 * the model gets wrong"): on x86-64 the AVX-512 logic and permutes of the SHA-3 stubs' rounds;
 * on both architectures C2's spills and reloads, through the stack (a store and the load that
 * reads it back) or, with UseFPUForSpilling, through an FP register (a move there and back),
 * and a load's latency to its use. Each probe is a chain of dependent instructions in a loop,
 * timed against bench/clock_chain.h's chain of known latency (x86-64 `imul r64, r64`, 3 cycles;
 * AArch64 `add x, x, x`, 1 cycle; as bench/core_clock.c), so its figure is in the core's own
 * cycles whatever its clock (that chain timed before and after each probe); the median of
 * the trials. A pair ("A > B") is the latency of A and B chained, a round trip's cost; a core
 * that renames memory (Zen 2 and later) forwards a spill to its reload in less than a cycle,
 * and the pair then measures the stores' throughput, not a latency.
 *
 *   insn_latency [--trials N]     prints "PROBE CYCLES" per line, exits 0
 *
 * x86-64 (the AVX-512 probes where the CPU has AVX-512F and VL, else left out, saying so on
 * standard error) and AArch64; elsewhere it says so and exits 2; bad options exit 2. Under QEMU
 * it runs, but its figures are QEMU's, not a CPU's.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock_chain.h"

#ifdef CHAIN_OP
#define N 2000000L /* iterations of 8 links: ~30 ms at 5 cycles and 3 GHz */
#define REPEAT8(s) s s s s s s s s

/* a chain: each link's result is the next one's input. %0 is the chained general register,
   %1 a scratch slot in memory; the vector probes chain a fixed register */
static void *cell = &cell; /* holds its own address: a load chain */

#define PROBE(fn, start, link)                                                                     \
  static double fn(void) {                                                                         \
    uint64_t x = (start), slot[2] = {0, 0};                                                        \
    double t0 = now();                                                                             \
    for (long i = 0; i < N; i++)                                                                   \
      __asm__ volatile(REPEAT8(link "\n\t") : "+r"(x) : "r"(slot) : "memory", CLOBBERS);           \
    double t = now() - t0;                                                                         \
    sink ^= x;                                                                                     \
    return t;                                                                                      \
  }
static volatile uint64_t sink;

struct probe {
  const char *what;
  double (*run)(void);
  int avx512; /* needs AVX-512F and VL */
};

/* N iterations of the clock chain, timed: as many links as a probe's */
static double clock_chain(void) {
  double t0 = now();
  sink ^= chain(sink | 1, N);
  return now() - t0;
}
#endif

#if defined(__x86_64__)
#define CLOBBERS "xmm0", "xmm1", "xmm2"
PROBE(load, (uint64_t)(uintptr_t)&cell, "mov (%0), %0")
PROBE(stack, 1, "mov %0, (%1)\n\tmov (%1), %0")
PROBE(fp_move, 1, "movq %0, %%xmm0\n\tmovq %%xmm0, %0")
PROBE(ternlog_z, 0, "vpternlogq $0x96, %%zmm1, %%zmm2, %%zmm0")
PROBE(pxor_z, 0, "vpxorq %%zmm1, %%zmm0, %%zmm0")
PROBE(prolq_z, 0, "vprolq $1, %%zmm0, %%zmm0")
PROBE(prolvq_z, 0, "vprolvq %%zmm1, %%zmm0, %%zmm0")
PROBE(permt2q_z, 0, "vpermt2q %%zmm1, %%zmm2, %%zmm0")
PROBE(perm_ternlog_z, 0, "vpermt2q %%zmm1, %%zmm2, %%zmm0\n\tvpternlogq $0x96, %%zmm1, %%zmm2, %%zmm0")
PROBE(ternlog_y, 0, "vpternlogq $0x96, %%ymm1, %%ymm2, %%ymm0")
PROBE(pxor_y, 0, "vpxor %%ymm1, %%ymm0, %%ymm0")

static const struct probe PROBES[] = {
    {"mov r64, [r64] (load to use)", load, 0},
    {"mov [m], r64 > mov r64, [m]", stack, 0},
    {"movq xmm, r64 > movq r64, xmm", fp_move, 0},
    {"vpternlogq zmm", ternlog_z, 1},
    {"vpxorq zmm", pxor_z, 1},
    {"vprolq zmm", prolq_z, 1},
    {"vprolvq zmm", prolvq_z, 1},
    {"vpermt2q zmm", permt2q_z, 1},
    {"vpermt2q > vpternlogq zmm", perm_ternlog_z, 1},
    {"vpternlogq ymm", ternlog_y, 1},
    {"vpxor ymm", pxor_y, 1},
};

static int has_avx512(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
}
#elif defined(__aarch64__)
#define CLOBBERS "v0"
PROBE(load, (uint64_t)(uintptr_t)&cell, "ldr %0, [%0]")
PROBE(stack, 1, "str %0, [%1]\n\tldr %0, [%1]")
PROBE(fp_move, 1, "fmov d0, %0\n\tfmov %0, d0")
PROBE(eor, 1, "eor %0, %0, %0, ror #7")
PROBE(eor_plain, 1, "eor %0, %0, %1")

static const struct probe PROBES[] = {
    {"ldr x, [x] (load to use)", load, 0},
    {"str x, [m] > ldr x, [m]", stack, 0},
    {"fmov d, x > fmov x, d", fp_move, 0},
    {"eor x, x, x", eor_plain, 0},
    {"eor x, x, x, ror #7", eor, 0},
};

static int has_avx512(void) {
  return 0;
}
#endif

int main(int argc, char **argv) {
  long trials = 5;
  for (int i = 1; i < argc; i++) {
    char *end = NULL;
    if (!strcmp(argv[i], "--trials") && i + 1 < argc && (trials = strtol(argv[++i], &end, 10), !*end) &&
        trials >= 1 && trials <= 101)
      continue;
    fprintf(stderr, "insn_latency: usage: insn_latency [--trials N] (N from 1 to 101)\n");
    return 2;
  }
#ifdef CHAIN_OP
  int avx512 = has_avx512();
  for (size_t p = 0; p < sizeof PROBES / sizeof PROBES[0]; p++) {
    if (PROBES[p].avx512 && !avx512)
      continue;
    double cycles[101];
    for (long k = 0; k < trials; k++) {
      /* the clock chain right before and right after: this trial's clock (a core that lowers
         its clock for 512-bit code does so within the trial) */
      double before = clock_chain(), t = PROBES[p].run(), after = clock_chain();
      cycles[k] = t / (N * 8.0) / ((before + after) / 2 / (N * (double)CHAIN_OPS * CHAIN_LATENCY));
    }
    qsort(cycles, (size_t)trials, sizeof cycles[0], cmp_double);
    printf("%-34s %.2f\n", PROBES[p].what, cycles[trials / 2]);
  }
#if defined(__x86_64__)
  if (!avx512)
    fprintf(stderr, "insn_latency: this CPU has no AVX-512F and VL: its probes are left out\n");
#endif
  return 0;
#else
  (void)trials;
  fprintf(stderr, "insn_latency: x86-64 and AArch64 only\n");
  return 2;
#endif
}
