/*
 * tests/test_sha2_stubs.c — checkasm for the AArch64 SHA-1, SHA-256 and
 * SHA-512 stubs (stubs/aarch64/stubgenerator_aarch64_sha1.c, _sha2.c): both entries of
 * each, one cmocka test per stub and behaviour.
 *
 * On every host: each stub generates without a refused instruction into a
 * bounded size, with the instruction mix FIPS 180-4's rounds need (20
 * sha1c/p/m, 16 sha256h, 40 sha512h ...) and the documented words per block;
 * the round constant tables are FIPS 180-4's (stubs/sha2_ref.c's); llvm-mc,
 * when installed, decodes every word and finds no x18 and no fp.
 * On AArch64 (native or QEMU user mode): FIPS 180-4's "abc" example, then
 * random states and blocks against the C reference (stubs/sha2_ref.c),
 * single block and multi-block with varied ofs and limit (limit below ofs,
 * inside the first block, negative: the compare is signed and 32-bit),
 * through the trampoline of tests/checkasm_aarch64.S that checks x19..x28,
 * d8..d15, sp and fp; ofs and limit carry garbage in their upper 32 bits
 * (AAPCS64 leaves them unspecified); the input ends at an unmapped page (an
 * over-read faults) and the state sits between guard bytes (an over-write
 * shows). A stub whose feature the CPU lacks is reported SKIPPED, and its
 * SIGILL test runs it in a forked child that must die of SIGILL: the reason
 * it must never be selected there.
 *
 * `test_sha2_stubs --bench` times each multi-block stub the CPU runs (ns per
 * block, against the C reference).
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
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

#include "aarch64/cpu_aarch64.h"
#include "codecache.h"
#include "cpu.h"
#include "sha2_ref.h"
#include "stubgenerator_aarch64.h"

#if defined(__aarch64__)
#define CAN_RUN 1
#include "checkasm_aarch64.h"
#else
#define CAN_RUN 0
#endif

/* ---- the stubs ------------------------------------------------------------ */

typedef enum { SHA1, SHA256, SHA512 } sha_alg;

/* What each algorithm's stubs must contain, counted from their words. */
typedef struct sha_mix {
    int rounds;     /* sha1c + sha1p + sha1m, sha256h, sha512h: one per 4 (SHA-512: 2) rounds */
    int rounds2;    /* sha1h, sha256h2, sha512h2 */
    int su0, su1;   /* the schedule: one per 4 (2) words beyond the block's */
} sha_mix;

typedef struct sha_stub {
    const char *name;
    sha_alg alg;
    bool multi_block;
    size_t (*generate)(a64_asm *as, bool multi_block);
    int feature;             /* A64_CPU_*: the extension the stub executes */
    int block_bytes;
    int state_bytes;
    sha_mix mix;
    int block_words;         /* multi-block: words in the block loop, its label to b.le inclusive */
} sha_stub;

#define SHA1_MIX   {20, 20, 16, 16}
#define SHA256_MIX {16, 16, 12, 12}
#define SHA512_MIX {40, 40, 32, 32}
static const sha_stub stubs[] = {
    {"sha1",      SHA1,   false, a64_generate_sha1_implCompress,   A64_CPU_SHA1,   64,  20, SHA1_MIX,   0},
    {"sha1 MB",   SHA1,   true,  a64_generate_sha1_implCompress,   A64_CPU_SHA1,   64,  20, SHA1_MIX,   103},
    {"sha256",    SHA256, false, a64_generate_sha256_implCompress, A64_CPU_SHA2,   64,  32, SHA256_MIX, 0},
    {"sha256 MB", SHA256, true,  a64_generate_sha256_implCompress, A64_CPU_SHA2,   64,  32, SHA256_MIX, 100},
    {"sha512",    SHA512, false, a64_generate_sha512_implCompress, A64_CPU_SHA512, 128, 64, SHA512_MIX, 0},
    {"sha512 MB", SHA512, true,  a64_generate_sha512_implCompress, A64_CPU_SHA512, 128, 64, SHA512_MIX, 474},
};
#define NSTUBS (int)(sizeof stubs / sizeof stubs[0])

static size_t generate(const sha_stub *s, uint32_t *words, size_t cap, a64_asm *as)
{
    a64_asm_init(as, words, cap);
    as->fatal = false;
    size_t entry = s->generate(as, s->multi_block);
    if (a64_asm_failed(as))
        fail_msg("%s: generator refused: %s", s->name, as->errmsg);
    return entry;
}

/* ---- on every host: generation, the instruction mix, the constants ---------- */

typedef struct word_class {
    uint32_t mask, bits;
} word_class;

static int count_words(const uint32_t *w, size_t n, word_class c)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += (w[i] & c.mask) == c.bits;
    return k;
}

/* Cryptographic three-register SHA (opcode in bits 14..12), two-register SHA
   (bits 16..12), three-register SHA512 (bits 11..10), sha512su0 (the Arm ARM, C4.1). */
#define SHA3REG(opc) ((word_class){0xffe0fc00u, 0x5e000000u | (opc) << 12})
#define SHA2REG(opc) ((word_class){0xfffffc00u, 0x5e280800u | (opc) << 12})
#define SHA512(opc)  ((word_class){0xffe0fc00u, 0xce608000u | (opc) << 10})
#define SHA512SU0    ((word_class){0xfffffc00u, 0xcec08000u})
#define B_COND       ((word_class){0xff000010u, 0x54000000u})

static sha_mix mix_of(sha_alg alg, const uint32_t *w, size_t n, int *sha1_kinds)
{
    switch (alg) {
    case SHA1:
        for (int k = 0; k < 3; k++)
            sha1_kinds[k] = count_words(w, n, SHA3REG(k));
        return (sha_mix){sha1_kinds[0] + sha1_kinds[1] + sha1_kinds[2], count_words(w, n, SHA2REG(0)),
                         count_words(w, n, SHA3REG(3)), count_words(w, n, SHA2REG(1))};
    case SHA256:
        return (sha_mix){count_words(w, n, SHA3REG(4)), count_words(w, n, SHA3REG(5)),
                         count_words(w, n, SHA2REG(2)), count_words(w, n, SHA3REG(6))};
    default:
        return (sha_mix){count_words(w, n, SHA512(0)), count_words(w, n, SHA512(1)), count_words(w, n, SHA512SU0),
                         count_words(w, n, SHA512(2))};
    }
}

/* The block loop of a multi-block stub: its backward b.le, and the words from its target through it. */
static int block_loop_words(const uint32_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if ((w[i] & B_COND.mask) != B_COND.bits || (w[i] & 0xf) != A64_LE)
            continue;
        int32_t imm19 = (int32_t)(w[i] << 8) >> 13; /* bits 23..5, sign-extended */
        if (imm19 < 0)
            return 1 - imm19;
    }
    return -1;
}

static void test_generate(void **state)
{
    (void)state;
    for (int c = 0; c < NSTUBS; c++) {
        const sha_stub *s = &stubs[c];
        uint32_t words[1024];
        a64_asm as;
        assert_int_equal(generate(s, words, 1024, &as), 0);
        size_t n = a64_asm_pc(&as);
        assert_in_range(n, 100, 600); /* ~110, ~130, ~490 words: more is a runaway loop */
        for (size_t i = 0; i < n; i++)
            if (words[i] == 0)
                fail_msg("%s: word %zu is udf #0 (a refused instruction)", s->name, i);
        assert_int_equal(words[n - 1], 0xd65f03c0u); /* ret: the last word, nothing after it */
        int sha1_kinds[3] = {0};
        sha_mix m = mix_of(s->alg, words, n, sha1_kinds);
        if (memcmp(&m, &s->mix, sizeof m) != 0)
            fail_msg("%s: %d/%d round, %d/%d schedule instructions; want %d/%d, %d/%d", s->name, m.rounds,
                     m.rounds2, m.su0, m.su1, s->mix.rounds, s->mix.rounds2, s->mix.su0, s->mix.su1);
        if (s->alg == SHA1 && (sha1_kinds[0] != 5 || sha1_kinds[1] != 10 || sha1_kinds[2] != 5))
            fail_msg("%s: %d sha1c, %d sha1p, %d sha1m; want 5, 10, 5 (FIPS 180-4, 4.1.1)", s->name, sha1_kinds[0],
                     sha1_kinds[1], sha1_kinds[2]);
        int loop = block_loop_words(words, n);
        if (s->multi_block)
            assert_int_equal(loop, s->block_words);
        else
            assert_int_equal(loop, -1);
        if (s->multi_block)
            print_message("%-10s %4zu words (%4zu bytes), %d a block\n", s->name, n, 4 * n, loop);
        else
            print_message("%-10s %4zu words (%4zu bytes)\n", s->name, n, 4 * n);
    }
    /* A buffer too small is reported, not overrun. */
    for (int c = 0; c < NSTUBS; c++) {
        uint32_t small[32];
        a64_asm as;
        a64_asm_init(&as, small, 32);
        as.fatal = false;
        stubs[c].generate(&as, stubs[c].multi_block);
        assert_true(a64_asm_failed(&as));
        assert_non_null(strstr(as.errmsg, "full"));
    }
}

/* The stubs' tables against FIPS 180-4, 4.2 (SHA-2: the reference's; SHA-1: 4.2.1's four words). */
static void test_round_constants(void **state)
{
    (void)state;
    static const uint32_t sha1_k[4] = {0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6};
    assert_memory_equal(a64_sha1_round_consts, sha1_k, sizeof sha1_k);
    assert_memory_equal(a64_sha256_round_consts, sha256_ref_k, sizeof sha256_ref_k);
    assert_memory_equal(a64_sha512_round_consts, sha512_ref_k, sizeof sha512_ref_k);
}

/* llvm-mc decodes every word (a warning on stderr means one it did not); no
   operand names x18 (the platform's) or fp (x29). Skipped without llvm-mc. */
static void test_llvm_mc_dump(void **state)
{
    (void)state;
    if (system("command -v llvm-mc >/dev/null 2>&1") != 0) {
        print_message("llvm-mc not installed\n");
        skip();
    }
    for (int c = 0; c < NSTUBS; c++) {
        const sha_stub *s = &stubs[c];
        uint32_t words[1024];
        a64_asm as;
        generate(s, words, 1024, &as);
        size_t n = a64_asm_pc(&as);
        char dir[] = "/tmp/minivm_sha2_dumpXXXXXX";
        assert_non_null(mkdtemp(dir));
        char in[64], out[64], err[64], cmd[256];
        snprintf(in, sizeof in, "%s/in", dir);
        snprintf(out, sizeof out, "%s/out", dir);
        snprintf(err, sizeof err, "%s/err", dir);
        FILE *f = fopen(in, "w");
        assert_non_null(f);
        for (size_t i = 0; i < n; i++)
            fprintf(f, "0x%02x 0x%02x 0x%02x 0x%02x\n", words[i] & 0xff, (words[i] >> 8) & 0xff,
                    (words[i] >> 16) & 0xff, words[i] >> 24);
        fclose(f);
        snprintf(cmd, sizeof cmd, "llvm-mc --disassemble -triple=aarch64 -mattr=+sha3 %s >%s 2>%s", in, out, err);
        assert_int_equal(system(cmd), 0);
        char line[256];
        f = fopen(err, "r");
        assert_non_null(f);
        while (fgets(line, sizeof line, f))
            fail_msg("%s: llvm-mc: %s", s->name, line);
        fclose(f);
        f = fopen(out, "r");
        assert_non_null(f);
        size_t insns = 0;
        while (fgets(line, sizeof line, f)) {
            char *p = line + strspn(line, " \t");
            if (*p == '\0' || *p == '\n' || *p == '.')
                continue;
            insns++;
            if (strstr(p, "x18") || strstr(p, "w18") || strstr(p, "x29") || strstr(p, "fp"))
                fail_msg("%s: instruction %zu uses x18 or fp: %s", s->name, insns, p);
        }
        fclose(f);
        unlink(in);
        unlink(out);
        unlink(err);
        rmdir(dir);
        if (insns != n)
            fail_msg("%s: %zu words, llvm-mc printed %zu instructions", s->name, n, insns);
    }
}

#if CAN_RUN

/* ---- running the stubs ------------------------------------------------------ */

/* Deterministic xorshift64*, so a failure is reproducible from the printed seed. */
static uint64_t rng_state = 0x243F6A8885A308D3ULL;
static uint64_t rnd(void) { return checkasm_rnd(&rng_state); }

typedef struct runnable {
    codecache cc;
    void *entry;
} runnable;

/* Generate s straight into a code cache of its own and make it executable. */
static void make_runnable(const sha_stub *s, runnable *r)
{
    char err[256];
    if (!codecache_init(&r->cc, 16384, err, sizeof err))
        fail_msg("code cache: %s", err);
    size_t room;
    uint32_t *code = codecache_begin_stub(&r->cc, &room);
    assert_non_null(code);
    a64_asm as;
    size_t entry = generate(s, code, room / 4, &as);
    const stub_mark *m = codecache_end_stub(&r->cc, s->name, "crypto", entry * 4, a64_asm_pc(&as) * 4);
    assert_non_null(m);
    if (!codecache_seal(&r->cc, true, err, sizeof err))
        fail_msg("code cache: %s", err);
    r->entry = (void *)(uintptr_t)m->entry;
}

/* The state between guard bytes: STATE_AT bytes before it, the rest after. */
enum { STATE_AT = 16, STATE_ROOM = STATE_AT + 64 + 16, GUARD_BYTE = 0xA5 };
typedef union state_buf {
    uint64_t align;
    uint8_t bytes[STATE_ROOM];
} state_buf;

static int ref_compress(const sha_stub *s, void *st, const uint8_t *b, int ofs, int limit)
{
    if (!s->multi_block) {
        switch (s->alg) {
        case SHA1: sha1_ref_compress(st, b + ofs); break;
        case SHA256: sha256_ref_compress(st, b + ofs); break;
        case SHA512: sha512_ref_compress(st, b + ofs); break;
        }
        return ofs;
    }
    switch (s->alg) {
    case SHA1: return sha1_ref_compress_multi(st, b, ofs, limit);
    case SHA256: return sha256_ref_compress_multi(st, b, ofs, limit);
    default: return sha512_ref_compress_multi(st, b, ofs, limit);
    }
}

/* Blocks the multi-block loop runs for ofs and limit (Java's int arithmetic). */
static int blocks_for(int ofs, int limit, int bs)
{
    int n = 0;
    do {
        n++;
        ofs += bs;
    } while (ofs <= limit);
    return n;
}

/* One call: the stub on buf (nblocks at the end of in) with ofs and limit, against the reference. */
static void check_call(const sha_stub *s, runnable *r, checkasm_guarded *in, int nblocks, int ofs, int limit,
                       const char *what)
{
    const int bs = s->block_bytes;
    uint64_t seed = rng_state;
    state_buf st, ref;
    memset(st.bytes, GUARD_BYTE, sizeof st.bytes);
    for (int i = 0; i < s->state_bytes; i++)
        ref.bytes[i] = st.bytes[STATE_AT + i] = (uint8_t)rnd();
    uint8_t *buf = in->end - nblocks * bs;
    for (int i = 0; i < nblocks * bs; i++)
        buf[i] = (uint8_t)rnd();
    int want_ofs = ref_compress(s, ref.bytes, buf - ofs, ofs, limit);

    uint32_t clobbered = 0;
    uint64_t ret = checkasm_call(r->entry, (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)(st.bytes + STATE_AT),
                                 checkasm_garbage_high(&rng_state, ofs), checkasm_garbage_high(&rng_state, limit),
                                 rnd(), &clobbered);
    char names[128];
    if (clobbered)
        fail_msg("%s, %s (seed %#llx): failed to preserve register(s)%s", s->name, what, (unsigned long long)seed,
                 checkasm_clobber_names(clobbered, names, sizeof names));
    for (int i = 0; i < (int)sizeof st.bytes; i++)
        if ((i < STATE_AT || i >= STATE_AT + s->state_bytes) && st.bytes[i] != GUARD_BYTE)
            fail_msg("%s, %s: wrote byte %d of the state's guards", s->name, what, i - STATE_AT);
    if (memcmp(st.bytes + STATE_AT, ref.bytes, (size_t)s->state_bytes) != 0) {
        int word = s->alg == SHA512 ? 8 : 4, i = 0;
        while (memcmp(st.bytes + STATE_AT + i, ref.bytes + i, (size_t)word) == 0)
            i += word;
        uint64_t got = 0, want = 0;
        memcpy(&got, st.bytes + STATE_AT + i, (size_t)word);
        memcpy(&want, ref.bytes + i, (size_t)word);
        fail_msg("%s, %s, %d block(s), ofs %d, limit %d (seed %#llx): H%d is %0*llx, the C reference says %0*llx",
                 s->name, what, nblocks, ofs, limit, (unsigned long long)seed, i / word, 2 * word,
                 (unsigned long long)got, 2 * word, (unsigned long long)want);
    }
    if (s->multi_block && (int32_t)ret != want_ofs)
        fail_msg("%s, %s: ofs %d, limit %d: returned %d, want %d", s->name, what, ofs, limit, (int32_t)ret,
                 want_ofs);
}

/* FIPS 180-4's examples (its appendices' "abc"): one padded block from the initial hash values. */
static void check_abc(const sha_stub *s, runnable *r)
{
    static const uint32_t sha1_h[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
    static const uint32_t sha1_abc[5] = {0xa9993e36, 0x4706816a, 0xba3e2571, 0x7850c26c, 0x9cd0d89d};
    static const uint32_t sha256_h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                         0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    static const uint32_t sha256_abc[8] = {0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223,
                                           0xb00361a3, 0x96177a9c, 0xb410ff61, 0xf20015ad};
    static const uint64_t sha512_h[8] = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
                                         0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
                                         0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
    static const uint64_t sha512_abc[8] = {0xddaf35a193617abaULL, 0xcc417349ae204131ULL, 0x12e6fa4e89a97ea2ULL,
                                           0x0a9eeee64b55d39aULL, 0x2192992a274fc1a8ULL, 0x36ba3c23a3feebbdULL,
                                           0x454d4423643ce80eULL, 0x2a9ac94fa54ca49fULL};
    const void *h0[] = {sha1_h, sha256_h, sha512_h}, *want[] = {sha1_abc, sha256_abc, sha512_abc};
    uint8_t block[128] = {'a', 'b', 'c', 0x80};
    block[s->block_bytes - 1] = 24; /* the message length in bits, big-endian, ends the block */
    state_buf st;
    memcpy(st.bytes, h0[s->alg], (size_t)s->state_bytes);
    uint32_t clobbered = 0;
    checkasm_call(r->entry, (uint64_t)(uintptr_t)block, (uint64_t)(uintptr_t)st.bytes, 0, 0, 0, &clobbered);
    char names[128];
    if (clobbered)
        fail_msg("%s, \"abc\": failed to preserve register(s)%s", s->name,
                 checkasm_clobber_names(clobbered, names, sizeof names));
    if (memcmp(st.bytes, want[s->alg], (size_t)s->state_bytes) != 0)
        fail_msg("%s: the digest of \"abc\" is not FIPS 180-4's", s->name);
}

static void test_stub(void **state)
{
    const sha_stub *s = *state;
    if (!checkasm_host_has(s->feature)) {
        print_message("skipped: %s needs %s, which this CPU does not have\n", s->name,
                      cpu_feature_name(CPU_ARCH_AARCH64, s->feature));
        skip();
    }
    runnable r;
    make_runnable(s, &r);
    check_abc(s, &r);
    const int bs = s->block_bytes;
    checkasm_guarded in = checkasm_guarded_new((size_t)bs * 8);
    if (!s->multi_block) {
        for (int t = 0; t < 200; t++)
            check_call(s, &r, &in, 1, 0, 0, "one block");
    } else {
        /* limit anywhere in [ofs + (n-1)*bs, ofs + n*bs - 1]: the stub runs n blocks */
        for (int t = 0; t < 200; t++) {
            int nblocks = 1 + (int)(rnd() % 6), ofs = (int)(rnd() % 1000);
            int limit = ofs + (nblocks - 1) * bs + (int)(rnd() % (uint64_t)bs);
            check_call(s, &r, &in, nblocks, ofs, limit, "random ofs and limit");
        }
        /* the edges: do-while (one block even when limit < ofs), signed 32-bit compares */
        const struct { int ofs, limit; const char *what; } edges[] = {
            {0, 0, "limit = ofs"},
            {100, 99, "limit < ofs"},
            {100, 100 + bs - 1, "limit in the first block"},
            {100, 100 + bs, "limit at the second block"},
            {0, 7 * bs, "eight blocks"},
            {0, -1, "limit -1 (an unsigned compare would run on)"},
            {bs, INT32_MIN, "limit INT32_MIN"},
            {-3 * bs, -1, "negative ofs"},
            {INT32_MAX - 2 * bs, INT32_MAX - bs, "ofs and limit near INT32_MAX"},
        };
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++) {
            int n = blocks_for(edges[e].ofs, edges[e].limit, bs);
            assert_in_range(n, 1, 8);
            for (int t = 0; t < 10; t++)
                check_call(s, &r, &in, n, edges[e].ofs, edges[e].limit, edges[e].what);
        }
    }
    munmap(in.base, in.len);
    codecache_release(&r.cc);
}

/* Where the feature is missing, the stub raises SIGILL (in a child: the test survives). */
static void test_sigill(void **state)
{
    const sha_stub *s = *state;
    if (checkasm_host_has(s->feature)) {
        print_message("skipped: this CPU has %s, %s runs\n", cpu_feature_name(CPU_ARCH_AARCH64, s->feature),
                      s->name);
        skip();
    }
    runnable r;
    make_runnable(s, &r);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGILL, SIG_DFL);
        uint64_t st[8] = {0};
        uint8_t buf[128] = {0};
        ((int32_t(*)(const uint8_t *, void *, int32_t, int32_t))r.entry)(buf, st, 0, 0);
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGILL)
        fail_msg("%s without %s: the child %s %d, want SIGILL", s->name, cpu_feature_name(CPU_ARCH_AARCH64, s->feature),
                 WIFSIGNALED(status) ? "died of signal" : "exited with", WIFSIGNALED(status) ? WTERMSIG(status)
                                                                                            : WEXITSTATUS(status));
    codecache_release(&r.cc);
}

/* --bench: ns per block for each multi-block stub the CPU runs (checkasm's --bench). */
static int bench(void)
{
    enum { BLOCKS = 64, REPS = 200 };
    static uint8_t in[BLOCKS * 128];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)rnd();
    printf("%-12s %12s %12s %10s\n", "stub", "ns/block", "C ref", "speed-up");
    for (int c = 0; c < NSTUBS; c++) {
        const sha_stub *s = &stubs[c];
        if (!s->multi_block || !checkasm_host_has(s->feature))
            continue;
        runnable r;
        make_runnable(s, &r);
        double ns[2];
        for (int k = 0; k < 2; k++) {
            uint64_t st[8] = {0};
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            for (int rep = 0; rep < REPS; rep++) {
                if (k == 0)
                    ((int32_t(*)(const uint8_t *, void *, int32_t, int32_t))r.entry)(in, st, 0,
                                                                                    (BLOCKS - 1) * s->block_bytes);
                else
                    ref_compress(s, st, in, 0, (BLOCKS - 1) * s->block_bytes);
            }
            clock_gettime(CLOCK_MONOTONIC, &t1);
            ns[k] = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (REPS * BLOCKS);
        }
        printf("%-12s %12.1f %12.1f %9.2fx\n", s->name, ns[0], ns[1], ns[1] / ns[0]);
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
    static struct CMUnitTest tests[3 + 2 * NSTUBS];
    static char names[NSTUBS][48];
    int n = 0;
    tests[n++] = (struct CMUnitTest){"generate", test_generate, NULL, NULL, NULL};
    tests[n++] = (struct CMUnitTest){"round_constants", test_round_constants, NULL, NULL, NULL};
    tests[n++] = (struct CMUnitTest){"llvm_mc_dump", test_llvm_mc_dump, NULL, NULL, NULL};
#if CAN_RUN
    for (int c = 0; c < NSTUBS; c++)
        tests[n++] = (struct CMUnitTest){stubs[c].name, test_stub, NULL, NULL, (void *)&stubs[c]};
    for (int c = 0; c < NSTUBS; c++) {
        snprintf(names[c], sizeof names[c], "%s SIGILL without %s", stubs[c].name,
                 cpu_feature_name(CPU_ARCH_AARCH64, stubs[c].feature));
        tests[n++] = (struct CMUnitTest){names[c], test_sigill, NULL, NULL, (void *)&stubs[c]};
    }
#else
    (void)names;
#endif
    return _cmocka_run_group_tests("sha2_stubs", tests, (size_t)n, NULL, NULL);
}
