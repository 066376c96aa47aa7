/*
 * bench/vec_latency.c — the latency, in core cycles, of the vector instructions whose
 * dependent chains bound the SHA-3 stubs' rounds, measured on this core.
 *
 * The model (bench/model.py) takes every latency from llvm-mca's scheduling model of a CPU;
 * where a stub is one long dependent chain per round (HotSpot 25's AVX-512 SHA-3 stub, minivm's
 * `avx512` rows design), the model's cycles are that chain's length, and a latency the model
 * has wrong is the model's error (docs/PERFORMANCE.md, "Which side the model gets wrong"). This
 * measures them: each a chain of 8 dependent instructions in a loop, timed against a chain of
 * dependent `imul r64, r64` (3 cycles, as bench/core_clock.c), so the figure is in the core's
 * own cycles whatever its clock; the median of the trials. "vpermt2q > vpternlogq" is the
 * pair's latency: a permute's result taken by the logic unit.
 *
 *   vec_latency [--trials N]     prints "INSTRUCTION CYCLES" per line, exits 0
 *
 * x86-64 only (exit 2 elsewhere); a CPU without AVX-512F (and VL for the ymm forms) exits 3,
 * saying so; bad options exit 2.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

#define N 2000000L /* iterations of 8 instructions: ~50 ms at 5 cycles and 3 GHz */
#define REPEAT8(s) s s s s s s s s

/* one chain: each instruction's result is the next one's input (zmm0 or ymm0) */
#define CHAIN(fn, insn)                                                                            \
  static double fn(void) {                                                                         \
    double t0 = now();                                                                             \
    for (long i = 0; i < N; i++)                                                                   \
      __asm__ volatile(REPEAT8(insn "\n\t")::: "rax", "xmm0", "xmm1", "xmm2");                            \
    return now() - t0;                                                                             \
  }
CHAIN(imul_chain, "imul %%rax, %%rax")
CHAIN(ternlog_z, "vpternlogq $0x96, %%zmm1, %%zmm2, %%zmm0")
CHAIN(pxor_z, "vpxorq %%zmm1, %%zmm0, %%zmm0")
CHAIN(prolq_z, "vprolq $1, %%zmm0, %%zmm0")
CHAIN(prolvq_z, "vprolvq %%zmm1, %%zmm0, %%zmm0")
CHAIN(permt2q_z, "vpermt2q %%zmm1, %%zmm2, %%zmm0")
CHAIN(perm_ternlog_z, "vpermt2q %%zmm1, %%zmm2, %%zmm0\n\tvpternlogq $0x96, %%zmm1, %%zmm2, %%zmm0")
CHAIN(ternlog_y, "vpternlogq $0x96, %%ymm1, %%ymm2, %%ymm0")
CHAIN(pxor_y, "vpxor %%ymm1, %%ymm0, %%ymm0")

struct probe {
  const char *what;
  double (*run)(void);
  int per_iteration; /* chained instructions (pairs count once) */
  int needs_vl;
};

static const struct probe PROBES[] = {
    {"vpternlogq zmm", ternlog_z, 8, 0},
    {"vpxorq zmm", pxor_z, 8, 0},
    {"vprolq zmm", prolq_z, 8, 0},
    {"vprolvq zmm", prolvq_z, 8, 0},
    {"vpermt2q zmm", permt2q_z, 8, 0},
    {"vpermt2q > vpternlogq zmm", perm_ternlog_z, 8, 0},
    {"vpternlogq ymm", ternlog_y, 8, 1},
    {"vpxor ymm", pxor_y, 8, 0},
};

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
#endif

int main(int argc, char **argv) {
  long trials = 5;
  for (int i = 1; i < argc; i++) {
    char *end = NULL;
    if (!strcmp(argv[i], "--trials") && i + 1 < argc && (trials = strtol(argv[++i], &end, 10), !*end) &&
        trials >= 1 && trials <= 101)
      continue;
    fprintf(stderr, "vec_latency: usage: vec_latency [--trials N] (N from 1 to 101)\n");
    return 2;
  }
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512vl")) {
    fprintf(stderr, "vec_latency: this CPU has no AVX-512F and VL: nothing to measure\n");
    return 3;
  }
  for (size_t p = 0; p < sizeof PROBES / sizeof PROBES[0]; p++) {
    double cycles[101];
    for (long k = 0; k < trials; k++) {
      /* the imul chain right before: the clock of this trial, 3 cycles per imul */
      double per_cycle = imul_chain() / (N * 8.0 * 3);
      cycles[k] = PROBES[p].run() / (N * (double)PROBES[p].per_iteration) / per_cycle;
    }
    qsort(cycles, (size_t)trials, sizeof cycles[0], cmp_double);
    printf("%-28s %.2f\n", PROBES[p].what, cycles[trials / 2]);
  }
  return 0;
#else
  (void)trials;
  fprintf(stderr, "vec_latency: x86-64 only (the AVX-512 stubs' instructions)\n");
  return 2;
#endif
}
