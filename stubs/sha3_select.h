/*
 * stubs/sha3_select.h — -XX:SHA3IntrinsicPolicy=measure: the VM times every
 * SHA-3 stub variant this CPU runs at start-up and selects the fastest
 * (docs/flags.md, "measure").
 *
 * After the architecture's static policy has run (JDK-8359256 on AArch64,
 * minivm's table on x86-64) and only when UseSHA3Intrinsics ended true:
 *   1. the candidates: every variant of the host's architecture
 *      (stub_arch_ops.variants) whose features the CPU the flags describe
 *      has as the final flags leave it (stub_arch_ops.allowed_features: no
 *      AVX-512 variant under UseAVX=2, none on an emulated Zen 3) and the
 *      host has too, and whose selecting options agree with every flag the
 *      user set: so the values it sets are ones the ergonomics would accept
 *      from a user;
 *   2. each is generated into a scratch code cache and timed on the same
 *      work, SHA3_SELECT_BLOCKS 136-byte blocks through the multi-block
 *      entry, SHA3_SELECT_TRIALS trials interleaved (A B C, A B C, ...);
 *      the score is the median ns per permutation;
 *   3. the fastest wins, unless the static choice is within the noise of
 *      it: SHA3_SELECT_NOISE, or the larger spread of the two candidates'
 *      own trials when that is larger; then the static choice stays;
 *   4. the winner's settings are applied with origin {ergonomic}, except
 *      those the user set.
 * -XX:+PrintSHA3Selection prints the trials and the decision.
 */
#ifndef MINIVM_SHA3_SELECT_H
#define MINIVM_SHA3_SELECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cpu.h"
#include "stub_arch.h"

enum { SHA3_SELECT_BLOCKS = 8, SHA3_SELECT_TRIALS = 7, SHA3_SELECT_MAX = 8 };
/* A 10 % lead or less is noise: the static choice stays. The trials of one process agree to
   within a per cent, but this machine varies 20-40 % from moment to moment for scalar code
   (docs/PERFORMANCE.md, "Noise"), which a start-up measurement cannot average away. */
#define SHA3_SELECT_NOISE 0.10

/* One candidate's measurement. */
typedef struct sha3_trial {
    const stub_variant *variant;
    bool generated;                     /* false: the generator failed; never a winner */
    double ns[SHA3_SELECT_TRIALS];      /* ns per permutation, per trial */
    double median;                      /* of ns; 0 when not generated */
    double spread;                      /* (6th - 2nd of the 7 sorted trials) / median: this one's noise */
} sha3_trial;

/*
 * The decision on fixed timings (no clock involved): the index of the
 * fastest generated candidate by median, or of static_index when that one
 * is within the noise of the fastest, max(noise, both candidates' spread)
 * (static_index -1: no static choice among the candidates). -1 when no
 * candidate was generated.
 */
int sha3_select_decide(const sha3_trial *t, int n, int static_index, double noise);

/*
 * Do v's settings agree with every flag the user set (command line,
 * MINIVM_TOOL_OPTIONS, settings file)? A variant whose settings would
 * override a user's flag is never a candidate.
 */
bool sha3_select_respects_user(const stub_variant *v);

/*
 * Steps 1-4 for the host's architecture. cpu: the CPU the flags describe
 * (detected or emulated, after the ergonomics); host: the one the code runs
 * on. static_variant: the variant the static policy chose (arch->choose).
 * out: where PrintSHA3Selection's table goes, or NULL. Returns the variant
 * selected (NULL: nothing measured).
 */
const stub_variant *sha3_select_measure(const stub_arch_ops *arch, const cpu_info *cpu, const cpu_info *host,
                                        const stub_variant *static_variant, FILE *out);

#endif
