/*
 * tests/test_sha3_stubs.c — checkasm for the AArch64 SHA-3 stubs: every
 * variant (SIMD, GPR), both entries (single and multi-block) and every GPR
 * configuration (fp/x18 as temporaries, PreserveFramePointer, x18 reserved).
 *
 * On every host: each configuration generates without a refused instruction,
 * and the per-round instruction counts are the documented ones.
 * On AArch64 (native or QEMU user mode): random states and blocks for every
 * block size, stub against the C reference (stubs/sha3_ref.c), through the
 * trampoline of tests/checkasm_aarch64.S that checks x19..x28, d8..d15, sp
 * and fp; int arguments carry garbage in their upper 32 bits (AAPCS64 leaves
 * them unspecified); the input ends at an unmapped page (an over-read
 * faults) and the state sits between guard words (an over-write shows). The
 * SIMD stub runs only where the CPU has sha3; elsewhere a forked child
 * checks that it dies of SIGILL — the reason ergonomics never selects it there.
 *
 * `test_sha3_stubs --bench` times each variant (ns per block), as checkasm does.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "codecache.h"
#include "cpu.h"
#include "sha3_ref.h"
#include "sha3_stub_configs.h"
#include "stubgenerator_aarch64.h"

#if defined(__aarch64__)
#include "aarch64/cpu_aarch64.h"
#define CAN_RUN 1
#include "checkasm_aarch64.h"
#else
#define CAN_RUN 0
#endif

static void generate(const a64_sha3_config *cfg, uint32_t *words, size_t cap, size_t *n)
{
    a64_asm as;
    a64_asm_init(&as, words, cap);
    as.fatal = false;
    size_t entry = a64_generate_sha3_implCompress(&as, cfg);
    if (a64_asm_failed(&as))
        fail_msg("generator refused: %s", as.errmsg);
    assert_int_equal(entry, 0);
    *n = a64_asm_pc(&as);
}

/* Every configuration generates, without a refused instruction, into a bounded size. */
static void test_generate_all(void **state)
{
    (void)state;
    for (int c = 0; c < NSTUB_CONFIGS; c++) {
        uint32_t words[2048];
        size_t n;
        generate(&stub_configs[c].cfg, words, 2048, &n);
        /* SIMD: ~130 words, GPR ~300: anything near the buffer is a runaway loop */
        assert_in_range(n, 100, 600);
        for (size_t i = 0; i < n; i++)
            if (words[i] == 0)
                fail_msg("%s: word %zu is udf #0 (a refused instruction)", stub_configs[c].name, i);
    }
    /* A buffer too small is reported, not overrun. */
    uint32_t small[16];
    a64_asm as;
    a64_asm_init(&as, small, 16);
    as.fatal = false;
    a64_generate_sha3_implCompress(&as, &stub_configs[2].cfg);
    assert_true(a64_asm_failed(&as));
}

/* The per-round counts docs/stubs.md states (JDK-8252204's SIMD round: 66 operations; JDK-8337666's scalar one: 130). */
static void test_round_counts(void **state)
{
    (void)state;
    const struct { a64_sha3_config cfg; int insns; } cases[] = {
        {{.simd = true}, 67 + 2},                    /* 66 ops + ld1r, sub + cbnz */
        {{.simd = false}, 127 + 3},                  /* fp and x18 as temporaries, fsub/fcmp/b.ne */
        {{.preserve_fp = true}, 127 + 2 + 3},        /* + stp/ldp of two lanes */
        {{.r18_reserved = true}, 127 + 2 + 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_int_equal(a64_sha3_round_insns(&cases[i].cfg), cases[i].insns);
}

#if CAN_RUN

/* ---- running the stubs ---------------------------------------------------- */

static const int block_sizes[] = {72, 104, 136, 144, 168};
#define NBLOCK_SIZES (int)(sizeof block_sizes / sizeof block_sizes[0])

/* Deterministic xorshift64*, so a failure is reproducible from the printed seed. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void) { return checkasm_rnd(&rng_state); }

typedef struct runnable {
    codecache cc;
    void *entry;
} runnable;

/* Generate cfg straight into a code cache of its own and make it executable. */
static void make_runnable(const a64_sha3_config *cfg, runnable *r)
{
    char err[256];
    if (!codecache_init(&r->cc, 16384, err, sizeof err))
        fail_msg("code cache: %s", err);
    size_t room;
    uint32_t *code = codecache_begin_stub(&r->cc, &room);
    assert_non_null(code);
    a64_asm as;
    a64_asm_init(&as, code, room / 4);
    as.fatal = false;
    a64_generate_sha3_implCompress(&as, cfg);
    if (a64_asm_failed(&as))
        fail_msg("generator refused: %s", as.errmsg);
    const stub_mark *m = codecache_end_stub(&r->cc, "sha3_test", cfg->simd ? "simd" : "gpr", 0, a64_asm_pc(&as) * 4);
    assert_non_null(m);
    if (!codecache_seal(&r->cc, true, err, sizeof err))
        fail_msg("code cache: %s", err);
    r->entry = (void *)(uintptr_t)m->entry;
}

#define GUARD 0x6A09E667F3BCC908ULL

/* One configuration: trials per block size, single or multi-block. */
static void check_config(const stub_config *c, int trials)
{
    runnable r;
    make_runnable(&c->cfg, &r);
    checkasm_guarded in = checkasm_guarded_new(168 * 8);
    for (int b = 0; b < NBLOCK_SIZES; b++) {
        int bs = block_sizes[b];
        for (int t = 0; t < trials; t++) {
            uint64_t seed = rng_state;
            uint64_t ref[25], st[27];
            for (int i = 0; i < 25; i++)
                ref[i] = st[i + 1] = rnd();
            st[0] = st[26] = GUARD;
            int nblocks = c->cfg.multi_block ? 1 + (int)(rnd() % 6) : 1;
            int ofs = c->cfg.multi_block ? (int)(rnd() % 1000) : 0;
            /* limit anywhere in [ofs + (n-1)*bs, ofs + n*bs - 1]: the stub runs n blocks */
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
                                         checkasm_garbage_high(&rng_state, bs),
                                         checkasm_garbage_high(&rng_state, ofs),
                                         checkasm_garbage_high(&rng_state, limit), &clobbered);
            char names[128];
            if (clobbered)
                fail_msg("%s, block size %d (seed %#llx): failed to preserve register(s)%s", c->name, bs,
                         (unsigned long long)seed, checkasm_clobber_names(clobbered, names, sizeof names));
            if (st[0] != GUARD || st[26] != GUARD)
                fail_msg("%s, block size %d: wrote outside the state", c->name, bs);
            for (int i = 0; i < 25; i++)
                if (st[i + 1] != ref[i])
                    fail_msg("%s, block size %d, %d block(s) (seed %#llx): lane %d is %016llx, "
                             "the C reference says %016llx", c->name, bs, nblocks, (unsigned long long)seed, i,
                             (unsigned long long)st[i + 1], (unsigned long long)ref[i]);
            if (c->cfg.multi_block && (int32_t)ret != want_ofs)
                fail_msg("%s, block size %d: returned ofs %d, want %d", c->name, bs, (int32_t)ret, want_ofs);
        }
    }
    checkasm_guarded_free(&in);
    codecache_release(&r.cc);
}

static void test_stubs_vs_reference(void **state)
{
    (void)state;
    bool sha3 = checkasm_host_has(A64_CPU_SHA3);
    int ran = 0;
    for (int c = 0; c < NSTUB_CONFIGS; c++) {
        if (stub_configs[c].cfg.simd && !sha3)
            continue;
        check_config(&stub_configs[c], 40);
        ran++;
    }
    print_message("checked %d configuration(s) on this CPU (sha3: %s)\n", ran, sha3 ? "yes" : "no");
    assert_true(ran >= 6);
}

/* Where sha3 is missing, the SIMD stub raises SIGILL: the reason it must never be selected there. */
static void test_simd_sigill_without_sha3(void **state)
{
    (void)state;
    if (checkasm_host_has(A64_CPU_SHA3))
        skip();
    runnable r;
    make_runnable(&stub_configs[0].cfg, &r);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGILL, SIG_DFL);
        uint64_t st[25] = {0};
        uint8_t buf[168] = {0};
        ((void (*)(const uint8_t *, uint64_t *, int32_t))r.entry)(buf, st, 136);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGILL);
    codecache_release(&r.cc);
}

/* --bench: ns per block for each configuration (checkasm's --bench). */
static int bench(void)
{
    bool sha3 = checkasm_host_has(A64_CPU_SHA3);
    enum { BLOCKS = 64 };
    static uint8_t in[BLOCKS * 168];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)rnd();
    printf("%-42s %12s %12s\n", "stub (SHA3-256, 136-byte blocks)", "ns/block", "vs C ref");
    double ref_ns = 0;
    for (int c = -1; c < NSTUB_CONFIGS; c++) {
        if (c >= 0 && (!stub_configs[c].cfg.multi_block || (stub_configs[c].cfg.simd && !sha3)))
            continue;
        runnable r = {0};
        if (c >= 0)
            make_runnable(&stub_configs[c].cfg, &r);
        uint64_t st[25] = {0};
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int rep = 0; rep < 200; rep++) {
            if (c < 0)
                sha3_ref_compress_multi(st, in, 136, 0, (BLOCKS - 1) * 136);
            else
                ((int32_t(*)(const uint8_t *, uint64_t *, int32_t, int32_t, int32_t))r.entry)(
                    in, st, 136, 0, (BLOCKS - 1) * 136);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ns = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (200.0 * BLOCKS);
        if (c < 0)
            ref_ns = ns;
        printf("%-42s %12.1f %11.2fx\n", c < 0 ? "C reference (sha3_ref.c)" : stub_configs[c].name, ns, ref_ns / ns);
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
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generate_all),
        cmocka_unit_test(test_round_counts),
#if CAN_RUN
        cmocka_unit_test(test_stubs_vs_reference),
        cmocka_unit_test(test_simd_sigill_without_sha3),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
