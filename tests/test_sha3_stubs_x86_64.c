/*
 * tests/test_sha3_stubs_x86_64.c — checkasm for the x86-64 SHA-3 stubs: every
 * variant (GPR with and without BMI, AVX-512) and both entries (single and
 * multi-block), one cmocka test each.
 *
 * On every host: each configuration generates without a refused instruction.
 * On x86-64 (native, or QEMU user mode for the variants TCG executes): random
 * states and blocks for every block size, stub against the C reference
 * (stubs/sha3_ref.c), through the trampoline of tests/checkasm_x86_64.S that
 * checks rbx, rbp, r12..r15, rsp, the direction flag and (where XGETBV can
 * tell) that no upper vector state is left dirty (vzeroupper; the host checks
 * are shared with the SHA-2 test, tests/checkasm_x86_64.h); int arguments
 * carry garbage in their upper 32 bits (the stubs must read only the low
 * halves); the input ends at an unmapped page (an over-read faults) and the
 * state sits between guard words (an over-write shows). A variant whose
 * features the host lacks is reported SKIPPED, never passed.
 *
 * `test_sha3_stubs_x86_64 --bench` times each variant (ns per block).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "codecache.h"
#include "sha3_ref.h"
#include "stubgenerator_x86_64.h"
#include "x86_64/cpu_x86_64.h"

#if defined(__x86_64__)
#include "checkasm_x86_64.h"
#define CAN_RUN 1
#else
#define CAN_RUN 0
#endif

/* Every configuration and the CPU features (X64_CPU_*) it executes. */
typedef struct x64_stub_config {
    const char *name;
    x64_sha3_config cfg;
    uint64_t features;
} x64_stub_config;

#define F(f) (UINT64_C(1) << X64_CPU_##f)
static const x64_stub_config configs[] = {
    {"gpr", {.variant = X64_SHA3_GPR, .bmi1 = true, .bmi2 = true}, F(BMI1) | F(BMI2)},
    {"gpr MB", {.variant = X64_SHA3_GPR, .multi_block = true, .bmi1 = true, .bmi2 = true}, F(BMI1) | F(BMI2)},
    {"gpr-nobmi", {.variant = X64_SHA3_GPR}, 0},
    {"gpr-nobmi MB", {.variant = X64_SHA3_GPR, .multi_block = true}, 0},
    {"avx512", {.variant = X64_SHA3_AVX512}, F(AVX512F) | F(AVX512BW)},
    {"avx512 MB", {.variant = X64_SHA3_AVX512, .multi_block = true}, F(AVX512F) | F(AVX512BW)},
    {"avx2", {.variant = X64_SHA3_AVX2}, F(AVX) | F(AVX2)},
    {"avx2 MB", {.variant = X64_SHA3_AVX2, .multi_block = true}, F(AVX) | F(AVX2)},
    {"avx512-lanes", {.variant = X64_SHA3_AVX512_LANES}, F(AVX512F) | F(AVX512VL)},
    {"avx512-lanes MB", {.variant = X64_SHA3_AVX512_LANES, .multi_block = true}, F(AVX512F) | F(AVX512VL)},
};
#undef F
#define NCONFIGS (int)(sizeof configs / sizeof configs[0])

static size_t generate_into(const x64_sha3_config *cfg, uint8_t *code, size_t cap, size_t *size)
{
    x64_asm as;
    x64_asm_init(&as, code, cap);
    as.fatal = false;
    size_t entry = x64_generate_sha3_implCompress(&as, cfg);
    if (x64_asm_failed(&as))
        fail_msg("generator refused: %s", as.errmsg);
    *size = x64_asm_pc(&as);
    return entry;
}

static void test_generate_all(void **state)
{
    (void)state;
    static uint8_t code[65536];
    for (int c = 0; c < NCONFIGS; c++) {
        size_t size;
        generate_into(&configs[c].cfg, code, sizeof code, &size);
        assert_true(size > 200 && size < sizeof code);
        print_message("%-16s %5zu bytes\n", configs[c].name, size);
    }
}

#if CAN_RUN

static const int block_sizes[] = {72, 104, 136, 144, 168};
#define NBLOCK_SIZES (int)(sizeof block_sizes / sizeof block_sizes[0])

/* Deterministic xorshift64*, so a failure is reproducible from the printed seed. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

typedef struct runnable {
    codecache cc;
    void *entry;
} runnable;

static void make_runnable(const x64_sha3_config *cfg, runnable *r)
{
    char err[256];
    if (!codecache_init(&r->cc, 65536, err, sizeof err))
        fail_msg("code cache: %s", err);
    size_t room, size;
    uint8_t *code = codecache_begin_stub(&r->cc, &room);
    assert_non_null(code);
    size_t entry = generate_into(cfg, code, room, &size);
    const stub_mark *m = codecache_end_stub(&r->cc, "sha3_test", "x86", entry, size);
    assert_non_null(m);
    if (!codecache_seal(&r->cc, true, err, sizeof err))
        fail_msg("code cache: %s", err);
    r->entry = (void *)(uintptr_t)m->entry;
}

static uint64_t garbage_high(int32_t v) { return (rnd() & 0xFFFFFFFF00000000ULL) | (uint32_t)v; }

#define GUARD 0x6A09E667F3BCC908ULL

static bool host_runs(const x64_stub_config *c, char *missing, size_t len)
{
    return checkasm_host_runs(c->features, missing, len);
}

static void check_config(void **state)
{
    const x64_stub_config *c = *state;
    char missing[128];
    if (!host_runs(c, missing, sizeof missing)) {
        print_message("skipped: %s needs%s, which this CPU does not have\n", c->name, missing);
        skip();
    }
    checkasm_detect_xinuse();
    runnable r;
    make_runnable(&c->cfg, &r);
    checkasm_guarded in = checkasm_guarded_new(168 * 8);
    for (int b = 0; b < NBLOCK_SIZES; b++) {
        int bs = block_sizes[b];
        for (int t = 0; t < 40; t++) {
            uint64_t seed = rng_state;
            uint64_t ref[25], st[27];
            for (int i = 0; i < 25; i++)
                ref[i] = st[i + 1] = rnd();
            st[0] = st[26] = GUARD;
            int nblocks = c->cfg.multi_block ? 1 + (int)(rnd() % 6) : 1;
            int ofs = c->cfg.multi_block ? (int)(rnd() % 1000) : 0;
            int limit = ofs + (nblocks - 1) * bs + (int)(rnd() % (uint64_t)bs);
            uint8_t *buf = in.end - nblocks * bs;
            for (int i = 0; i < nblocks * bs; i++)
                buf[i] = (uint8_t)rnd();
            int want_ofs = 0;
            if (c->cfg.multi_block)
                want_ofs = sha3_ref_compress_multi(ref, buf - ofs, bs, ofs, limit);
            else
                sha3_ref_compress(ref, buf, bs);

            uint32_t clobbered = 0;
            uint64_t ret = checkasm_call(r.entry, (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)(st + 1),
                                         garbage_high(bs), garbage_high(ofs), garbage_high(limit), &clobbered);
            char names[160];
            if (clobbered)
                fail_msg("%s, block size %d (seed %#llx): failed to preserve%s", c->name, bs,
                         (unsigned long long)seed, checkasm_clobber_names(clobbered, names, sizeof names));
            if (st[0] != GUARD || st[26] != GUARD)
                fail_msg("%s, block size %d: wrote outside the state", c->name, bs);
            for (int i = 0; i < 25; i++)
                if (st[i + 1] != ref[i])
                    fail_msg("%s, block size %d, %d block(s) (seed %#llx): lane %d is %016llx, the C reference "
                             "says %016llx", c->name, bs, nblocks, (unsigned long long)seed, i,
                             (unsigned long long)st[i + 1], (unsigned long long)ref[i]);
            if (c->cfg.multi_block && (int32_t)ret != want_ofs)
                fail_msg("%s, block size %d: returned ofs %d, want %d", c->name, bs, (int32_t)ret, want_ofs);
            if (!c->cfg.multi_block && (uint32_t)ret != 0)
                fail_msg("%s: returned %u, want 0 (HotSpot's single-block stub)", c->name, (uint32_t)ret);
        }
    }
    checkasm_guarded_free(&in);
    codecache_release(&r.cc);
}

/* --bench: ns per 136-byte block for each multi-block configuration the host runs. */
static int bench(void)
{
    enum { BLOCKS = 64, REPS = 400 };
    static uint8_t in[BLOCKS * 168];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)rnd();
    printf("%-34s %10s %10s\n", "stub (SHA3-256, 136-byte blocks)", "ns/block", "vs C ref");
    double ref_ns = 0;
    for (int c = -1; c < NCONFIGS; c++) {
        char missing[128];
        if (c >= 0 && (!configs[c].cfg.multi_block || !host_runs(&configs[c], missing, sizeof missing)))
            continue;
        runnable r = {0};
        if (c >= 0)
            make_runnable(&configs[c].cfg, &r);
        uint64_t st[25] = {0};
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int rep = 0; rep < REPS; rep++) {
            if (c < 0)
                sha3_ref_compress_multi(st, in, 136, 0, (BLOCKS - 1) * 136);
            else
                ((int32_t(*)(const uint8_t *, uint64_t *, int32_t, int32_t, int32_t))r.entry)(in, st, 136, 0,
                                                                                             (BLOCKS - 1) * 136);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (REPS * BLOCKS);
        if (c < 0)
            ref_ns = ns;
        printf("%-34s %10.1f %9.2fx\n", c < 0 ? "C reference (sha3_ref.c)" : configs[c].name, ns, ref_ns / ns);
        codecache_release(&r.cc);
    }
    return 0;
}

#endif /* CAN_RUN */

int main(int argc, char **argv)
{
#if CAN_RUN
    if (argc > 1 && strcmp(argv[1], "--bench") == 0)
        return bench();
#else
    (void)argc;
    (void)argv;
#endif
    static struct CMUnitTest tests[1 + NCONFIGS];
    int n = 0;
    tests[n++] = (struct CMUnitTest){"generate_all", test_generate_all, NULL, NULL, NULL};
#if CAN_RUN
    for (int c = 0; c < NCONFIGS; c++)
        tests[n++] = (struct CMUnitTest){configs[c].name, check_config, NULL, NULL, (void *)&configs[c]};
#endif
    return _cmocka_run_group_tests("sha3_stubs_x86_64", tests, (size_t)n, NULL, NULL);
}
