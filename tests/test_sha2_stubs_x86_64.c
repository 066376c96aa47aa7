/*
 * tests/test_sha2_stubs_x86_64.c — checkasm for the x86-64 SHA-1, SHA-256 and
 * SHA-512 stubs (stubs/x86_64/stubgenerator_x86_64_sha1.c, _sha2.c): both entries of
 * each, one cmocka test per configuration.
 *
 * On every host: each configuration generates without a refused instruction,
 * and the stubs' round-constant tables equal FIPS 180-4's (stubs/sha2_ref.h).
 * On x86-64 (native, or QEMU user mode for the CPU models it emulates):
 *   - the FIPS 180-4 examples ("abc", one block; the 448- and 896-bit messages,
 *     two blocks) from the initial hash values give the standard's digests;
 *   - random states and blocks against the C reference (stubs/sha2_ref.c),
 *     single and multi-block (1..6 blocks, random ofs; limit anywhere in the
 *     last block, exactly at its start, below ofs or negative: a multi-block
 *     call always compresses at least one block, and the compare is signed);
 * through the trampoline of tests/checkasm_x86_64.S (rbx, rbp, r12..r15, rsp,
 * the direction flag, upper vector state where XGETBV can tell); ofs and limit
 * carry garbage in their upper 32 bits, the input ends at an unmapped page (an
 * over-read faults) and the state, at a varying alignment, sits between guard
 * bytes (an over-write shows). A configuration whose features the host lacks
 * (SHA-NI, SSSE3, SSE4.1 for SHA-1 and SHA-256; AVX2 and BMI2 for SHA-512) is
 * reported SKIPPED, never passed.
 *
 * `test_sha2_stubs_x86_64 --bench` times each multi-block entry the host runs
 * (ns per block) beside the C reference and OpenSSL's EVP_DigestUpdate on the
 * same 16 KiB.
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
#include <openssl/evp.h>

#include "codecache.h"
#include "sha2_ref.h"
#include "stubgenerator_x86_64.h"
#include "x86_64/cpu_x86_64.h"

#if defined(__x86_64__)
#include "checkasm_x86_64.h"
#define CAN_RUN 1
#else
#define CAN_RUN 0
#endif

typedef enum algo { SHA1, SHA256, SHA512 } algo;

/* Each algorithm's shape and generator. */
static const struct algo_desc {
    const char *name;
    int block_bytes, words, word_bytes;
    size_t (*generate)(x64_asm *as, bool multi_block);
} algos[] = {
    [SHA1] = {"SHA-1", 64, 5, 4, x64_generate_sha1_implCompress},
    [SHA256] = {"SHA-256", 64, 8, 4, x64_generate_sha256_implCompress},
    [SHA512] = {"SHA-512", 128, 8, 8, x64_generate_sha512_implCompress},
};

typedef struct sha2_stub_config {
    const char *name;
    algo alg;
    bool multi_block;
    uint64_t features; /* X64_CPU_* bits the stub executes */
} sha2_stub_config;

#define F(f) (UINT64_C(1) << X64_CPU_##f)
#define SHA_NI (F(SHA) | F(SSSE3) | F(SSE4_1))
#define AVX2_BMI2 (F(AVX) | F(AVX2) | F(BMI2))
static const sha2_stub_config configs[] = {
    {"sha1", SHA1, false, SHA_NI},
    {"sha1 MB", SHA1, true, SHA_NI},
    {"sha256", SHA256, false, SHA_NI},
    {"sha256 MB", SHA256, true, SHA_NI},
    {"sha512", SHA512, false, AVX2_BMI2},
    {"sha512 MB", SHA512, true, AVX2_BMI2},
};
#undef F
#define NCONFIGS (int)(sizeof configs / sizeof configs[0])

static size_t generate_into(const sha2_stub_config *c, uint8_t *code, size_t cap, size_t *size)
{
    x64_asm as;
    x64_asm_init(&as, code, cap);
    as.fatal = false;
    size_t entry = algos[c->alg].generate(&as, c->multi_block);
    if (x64_asm_failed(&as))
        fail_msg("%s: generator refused: %s", c->name, as.errmsg);
    *size = x64_asm_pc(&as);
    return entry;
}

static void test_generate_all(void **state)
{
    (void)state;
    static uint8_t code[65536];
    for (int c = 0; c < NCONFIGS; c++) {
        size_t size;
        size_t entry = generate_into(&configs[c], code, sizeof code, &size);
        assert_int_equal(entry, 0);
        assert_true(size > 100 && size < 16384);
        print_message("%-10s %5zu bytes\n", configs[c].name, size);
    }
    /* a dry run measures the same; a buffer too small fails instead of overrunning */
    for (int c = 0; c < NCONFIGS; c++) {
        size_t size;
        generate_into(&configs[c], code, sizeof code, &size);
        x64_asm as;
        x64_asm_init(&as, NULL, 0);
        as.fatal = false;
        algos[configs[c].alg].generate(&as, configs[c].multi_block);
        assert_int_equal(x64_asm_pc(&as), size);
        x64_asm_init(&as, code, size - 1);
        as.fatal = false;
        algos[configs[c].alg].generate(&as, configs[c].multi_block);
        assert_true(x64_asm_failed(&as));
    }
}

/* The stubs' tables are their own (not the reference's): they must say the same. */
static void test_round_constants(void **state)
{
    (void)state;
    for (int t = 0; t < 64; t++)
        if (x64_sha256_round_consts[t] != sha256_ref_k[t])
            fail_msg("SHA-256 K[%d] is %08x, FIPS 180-4 says %08x", t, x64_sha256_round_consts[t], sha256_ref_k[t]);
    for (int t = 0; t < 80; t++)
        if (x64_sha512_round_consts[t] != sha512_ref_k[t])
            fail_msg("SHA-512 K[%d] is %016llx, FIPS 180-4 says %016llx", t,
                     (unsigned long long)x64_sha512_round_consts[t], (unsigned long long)sha512_ref_k[t]);
}

#if CAN_RUN

/* Deterministic xorshift64*, so a failure is reproducible from the printed seed. */
static uint64_t rng_state = 0x243F6A8885A308D3ULL;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint64_t garbage_high(int32_t v) { return (rnd() & 0xFFFFFFFF00000000ULL) | (uint32_t)v; }

typedef struct runnable {
    codecache cc;
    void *entry;
} runnable;

static void make_runnable(const sha2_stub_config *c, runnable *r)
{
    char err[256];
    if (!codecache_init(&r->cc, 65536, err, sizeof err))
        fail_msg("code cache: %s", err);
    size_t room, size;
    uint8_t *code = codecache_begin_stub(&r->cc, &room);
    assert_non_null(code);
    size_t entry = generate_into(c, code, room, &size);
    const stub_mark *m = codecache_end_stub(&r->cc, "sha2_test", c->name, entry, size);
    assert_non_null(m);
    if (!codecache_seal(&r->cc, true, err, sizeof err))
        fail_msg("code cache: %s", err);
    r->entry = (void *)(uintptr_t)m->entry;
}

/* The state between guard bytes, at an offset of a multiple of its word size (Java
   arrays are aligned to their elements only). */
enum { GUARD_BYTES = 16, STATE_MAX = 64 };
#define GUARD_BYTE 0xa5

typedef struct guarded_state {
    _Alignas(64) uint8_t bytes[GUARD_BYTES + 64 + STATE_MAX + GUARD_BYTES];
    uint8_t *state;
    size_t len;
} guarded_state;

static void state_place(guarded_state *g, const struct algo_desc *a, const void *words, int misalign)
{
    memset(g->bytes, GUARD_BYTE, sizeof g->bytes);
    g->len = (size_t)(a->words * a->word_bytes);
    g->state = g->bytes + GUARD_BYTES + (size_t)(misalign * a->word_bytes) % 64;
    memcpy(g->state, words, g->len);
}

static bool state_guards_intact(const guarded_state *g)
{
    for (const uint8_t *p = g->bytes; p < g->bytes + sizeof g->bytes; p++)
        if ((p < g->state || p >= g->state + g->len) && *p != GUARD_BYTE)
            return false;
    return true;
}

/* The reference on the same words: a state as bytes in the host's order. */
static int ref_compress(algo alg, void *st, const uint8_t *buf, bool multi, int ofs, int limit)
{
    switch (alg) {
    case SHA1:
        if (multi)
            return sha1_ref_compress_multi(st, buf - ofs, ofs, limit);
        sha1_ref_compress(st, buf);
        return 0;
    case SHA256:
        if (multi)
            return sha256_ref_compress_multi(st, buf - ofs, ofs, limit);
        sha256_ref_compress(st, buf);
        return 0;
    case SHA512:
        if (multi)
            return sha512_ref_compress_multi(st, buf - ofs, ofs, limit);
        sha512_ref_compress(st, buf);
        return 0;
    }
    return 0;
}

/* One call of the stub through the trampoline, with every check but the state's value.
   Returns the stub's eax. */
static int32_t call_stub(const sha2_stub_config *c, const runnable *r, const uint8_t *buf, guarded_state *g,
                         int ofs, int limit, const char *what, uint64_t seed)
{
    uint32_t clobbered = 0;
    uint64_t ret = checkasm_call(r->entry, (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)g->state,
                                 garbage_high(ofs), garbage_high(limit), rnd(), &clobbered);
    char names[160];
    if (clobbered)
        fail_msg("%s, %s (seed %#llx): failed to preserve%s", c->name, what, (unsigned long long)seed,
                 checkasm_clobber_names(clobbered, names, sizeof names));
    if (!state_guards_intact(g))
        fail_msg("%s, %s (seed %#llx): wrote outside the state", c->name, what, (unsigned long long)seed);
    if (!c->multi_block && (uint32_t)ret != 0)
        fail_msg("%s: returned %u, want 0 (the single-block entry)", c->name, (uint32_t)ret);
    return (int32_t)ret;
}

static void skip_unless_host_runs(const sha2_stub_config *c)
{
    char missing[128];
    if (!checkasm_host_runs(c->features, missing, sizeof missing)) {
        print_message("skipped: %s needs%s, which this CPU does not have\n", c->name, missing);
        skip();
    }
}

/* ---- the FIPS 180-4 examples -------------------------------------------------- */

static const uint32_t sha1_h0[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
static const uint32_t sha256_h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
static const uint64_t sha512_h0[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
                                      0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

static const struct known_answer {
    algo alg;
    const char *message;
    const char *digest;
} known_answers[] = {
    {SHA1, "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
    {SHA1, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
    {SHA256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {SHA256, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
    {SHA512, "abc",
     "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
     "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
    {SHA512,
     "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
     "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
     "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"},
};

/* The message padded (FIPS 180-4 5.1) at the end of the guarded buffer; returns the block count. */
static int pad_message(const struct algo_desc *a, const char *msg, checkasm_guarded *in, uint8_t **blocks)
{
    size_t len = strlen(msg), bs = (size_t)a->block_bytes, length_bytes = bs / 8; /* 8 or 16 */
    int n = (int)((len + 1 + length_bytes + bs - 1) / bs);
    uint8_t *p = in->end - (size_t)n * bs;
    memset(p, 0, (size_t)n * bs);
    memcpy(p, msg, len);
    p[len] = 0x80;
    uint64_t bits = (uint64_t)len * 8;
    for (int k = 0; k < 8; k++)
        p[(size_t)n * bs - 1 - (size_t)k] = (uint8_t)(bits >> (8 * k));
    *blocks = p;
    return n;
}

static void digest_hex(const struct algo_desc *a, const uint8_t *state, char *out)
{
    for (int w = 0; w < a->words; w++)
        for (int b = a->word_bytes - 1; b >= 0; b--) {
            sprintf(out, "%02x", state[w * a->word_bytes + b]);
            out += 2;
        }
}

static void check_known_answers(const sha2_stub_config *c, const runnable *r, checkasm_guarded *in)
{
    const struct algo_desc *a = &algos[c->alg];
    for (size_t k = 0; k < sizeof known_answers / sizeof known_answers[0]; k++) {
        const struct known_answer *ka = &known_answers[k];
        if (ka->alg != c->alg)
            continue;
        guarded_state g;
        state_place(&g, a, c->alg == SHA1 ? (const void *)sha1_h0 : c->alg == SHA256 ? (const void *)sha256_h0
                                                                                      : (const void *)sha512_h0,
                    (int)k);
        uint8_t *blocks;
        int n = pad_message(a, ka->message, in, &blocks);
        if (c->multi_block) {
            int32_t ofs = call_stub(c, r, blocks, &g, 0, (n - 1) * a->block_bytes, ka->message, 0);
            if (ofs != n * a->block_bytes)
                fail_msg("%s of \"%s\": returned ofs %d, want %d", c->name, ka->message, ofs, n * a->block_bytes);
        } else {
            for (int b = 0; b < n; b++)
                call_stub(c, r, blocks + b * a->block_bytes, &g, 0, 0, ka->message, 0);
        }
        char hex[129] = "";
        digest_hex(a, g.state, hex);
        if (strcmp(hex, ka->digest) != 0)
            fail_msg("%s of \"%s\" (%d block(s)) is %s, FIPS 180-4 says %s", c->name, ka->message, n, hex,
                     ka->digest);
    }
}

/* ---- random states and blocks against the reference ------------------------------ */

/* How limit relates to ofs in a multi-block case; each makes nblocks blocks. */
typedef enum limit_kind { IN_LAST_BLOCK, AT_LAST_BLOCK, BELOW_OFS, NEGATIVE, NLIMIT_KINDS } limit_kind;

static void check_random(const sha2_stub_config *c, const runnable *r, checkasm_guarded *in)
{
    const struct algo_desc *a = &algos[c->alg];
    int bs = a->block_bytes;
    for (int t = 0; t < 200; t++) {
        uint64_t seed = rng_state;
        uint64_t ref_words[STATE_MAX / 8]; /* aligned for the reference's int or long words */
        uint8_t *ref = (uint8_t *)ref_words, words[STATE_MAX];
        for (int i = 0; i < STATE_MAX; i++)
            ref[i] = words[i] = (uint8_t)rnd();
        guarded_state g;
        state_place(&g, a, words, (int)(rnd() % 16));
        limit_kind kind = (limit_kind)(t % NLIMIT_KINDS);
        int nblocks = 1, ofs = 0, limit = 0;
        if (c->multi_block) {
            nblocks = kind == BELOW_OFS || kind == NEGATIVE ? 1 : 1 + (int)(rnd() % 6);
            ofs = kind == NEGATIVE ? (int)(rnd() % 64) : (int)(rnd() % 100000);
            switch (kind) {
            case IN_LAST_BLOCK: limit = ofs + (nblocks - 1) * bs + (int)(rnd() % (uint64_t)bs); break;
            case AT_LAST_BLOCK: limit = ofs + (nblocks - 1) * bs; break;
            case BELOW_OFS: limit = ofs - 1 - (int)(rnd() % 1000); break;
            case NEGATIVE: limit = -1 - (int)(rnd() % 0x7fffffff); break;
            case NLIMIT_KINDS: break;
            }
        }
        uint8_t *buf = in->end - nblocks * bs;
        for (int i = 0; i < nblocks * bs; i++)
            buf[i] = (uint8_t)rnd();
        int want_ofs = ref_compress(c->alg, ref, buf, c->multi_block, ofs, limit);
        if (c->multi_block && want_ofs != ofs + nblocks * bs)
            fail_msg("test bug: the reference did %d blocks, want %d", (want_ofs - ofs) / bs, nblocks);

        char what[96];
        snprintf(what, sizeof what, "%d block(s), ofs %d, limit %d", nblocks, ofs, limit);
        int32_t got_ofs = call_stub(c, r, buf, &g, ofs, limit, what, seed);
        if (memcmp(g.state, ref, g.len) != 0) {
            int w = 0;
            while (memcmp(g.state + w * a->word_bytes, ref + w * a->word_bytes, (size_t)a->word_bytes) == 0)
                w++;
            uint64_t got = 0, want = 0;
            memcpy(&got, g.state + w * a->word_bytes, (size_t)a->word_bytes);
            memcpy(&want, ref + w * a->word_bytes, (size_t)a->word_bytes);
            fail_msg("%s, %s (seed %#llx): H%d is %llx, the C reference says %llx", c->name, what,
                     (unsigned long long)seed, w, (unsigned long long)got, (unsigned long long)want);
        }
        if (c->multi_block && got_ofs != want_ofs)
            fail_msg("%s, %s: returned ofs %d, want %d", c->name, what, got_ofs, want_ofs);
    }
}

static void check_config(void **state)
{
    const sha2_stub_config *c = *state;
    skip_unless_host_runs(c);
    checkasm_detect_xinuse();
    runnable r;
    make_runnable(c, &r);
    checkasm_guarded in = checkasm_guarded_new(6 * 128);
    check_known_answers(c, &r, &in);
    check_random(c, &r, &in);
    checkasm_guarded_free(&in);
    codecache_release(&r.cc);
}

/* --bench: ns per block of each multi-block entry the host runs, beside the C reference and OpenSSL. */
static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int bench(void)
{
    enum { BLOCKS = 128, REPS = 200, TRIALS = 5 };
    static uint8_t in[BLOCKS * 128];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)rnd();
    /* OpenSSL's EVP (SHA-NI for SHA-1/SHA-256, its AVX2 code for SHA-512 here), fed the same 16 KiB by
       EVP_DigestUpdate on one context: whole blocks, compressed as they come, as the stub's loop */
    static const char *const evp_names[] = {"SHA1", "SHA256", "SHA512"};
    printf("%-22s %12s %12s %10s %12s %12s\n", "stub (16 KiB calls)", "ns/block", "C ref", "vs C ref", "OpenSSL",
           "vs OpenSSL");
    for (int c = 0; c < NCONFIGS; c++) {
        char missing[128];
        if (!configs[c].multi_block)
            continue;
        if (!checkasm_host_runs(configs[c].features, missing, sizeof missing)) {
            printf("%-22s skipped: needs%s\n", configs[c].name, missing);
            continue;
        }
        const struct algo_desc *a = &algos[configs[c].alg];
        int bs = a->block_bytes, blocks = (int)sizeof in / bs, limit = (blocks - 1) * bs;
        runnable r;
        make_runnable(&configs[c], &r);
        uint64_t st[8] = {0};
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        const EVP_MD *md = EVP_get_digestbyname(evp_names[configs[c].alg]);
        if (!ctx || !md || EVP_DigestInit_ex(ctx, md, NULL) != 1) {
            fprintf(stderr, "bench: OpenSSL has no %s\n", evp_names[configs[c].alg]);
            return 1;
        }
        /* the fastest of the trials (the least disturbed), the three interleaved in each */
        double best_stub = 1e30, best_ref = 1e30, best_ossl = 1e30;
        for (int trial = 0; trial < TRIALS; trial++) {
            double t0 = now_ns();
            for (int rep = 0; rep < REPS; rep++)
                ((int32_t(*)(const uint8_t *, void *, int32_t, int32_t))r.entry)(in, st, 0, limit);
            double t1 = now_ns();
            for (int rep = 0; rep < REPS; rep++)
                ref_compress(configs[c].alg, st, in, true, 0, limit);
            double t2 = now_ns();
            for (int rep = 0; rep < REPS; rep++)
                EVP_DigestUpdate(ctx, in, (size_t)blocks * (size_t)bs);
            double t3 = now_ns();
            if (t1 - t0 < best_stub)
                best_stub = t1 - t0;
            if (t2 - t1 < best_ref)
                best_ref = t2 - t1;
            if (t3 - t2 < best_ossl)
                best_ossl = t3 - t2;
        }
        EVP_MD_CTX_free(ctx);
        double stub_ns = best_stub / (REPS * blocks), ref_ns = best_ref / (REPS * blocks);
        double ossl_ns = best_ossl / (REPS * blocks);
        printf("%-22s %12.1f %12.1f %9.2fx %12.1f %11.2fx   (%s, %.2f ns/byte)\n", configs[c].name, stub_ns, ref_ns,
               ref_ns / stub_ns, ossl_ns, ossl_ns / stub_ns, a->name, stub_ns / bs);
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
    static struct CMUnitTest tests[2 + NCONFIGS];
    int n = 0;
    tests[n++] = (struct CMUnitTest){"generate_all", test_generate_all, NULL, NULL, NULL};
    tests[n++] = (struct CMUnitTest){"round_constants", test_round_constants, NULL, NULL, NULL};
#if CAN_RUN
    for (int c = 0; c < NCONFIGS; c++)
        tests[n++] = (struct CMUnitTest){configs[c].name, check_config, NULL, NULL, (void *)&configs[c]};
#endif
    return _cmocka_run_group_tests("sha2_stubs_x86_64", tests, (size_t)n, NULL, NULL);
}
