/*
 * tests/test_stub_dump_aarch64.c — the AArch64 stubs' code, on any host.
 *
 * Every generated SHA-3 stub (both variants, both
 * entries, every GPR configuration) re-disassembled by llvm-mc on any host:
 * zero invalid words (llvm-mc drops an invalid word from stdout with a
 * warning on stderr and still exits 0, so both streams are checked,
 * llvm-mc's -disassemble), one instruction per word, and the instruction mix each
 * variant promises: the GPR stub has no SHA3 or SIMD instruction at all, the
 * SIMD stub has the round's 10 eor3, 5 rax1, 24 xar, 25 bcax; the SHA-3
 * rounds' instruction counts docs/stubs.md states. The SHA-1, SHA-256 and
 * SHA-512 stubs: the instruction mix their words must contain (rounds and
 * schedule instructions, the block loop's length), a too-small buffer
 * refused, their round constants against FIPS 180-4, and llvm-mc's
 * decoding (no x18, no fp). The llvm-mc tests are skipped when it is not
 * installed; the others run everywhere.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "aarch64/cpu_aarch64.h"
#include "flags.h"
#include "sha2_ref.h"
#include "sha3_stub_configs.h"
#include "stub_arch.h"
#include "stub_dump.h"
#include "stubgenerator_aarch64.h"
#include "stubroutines.h"

typedef struct mix {
    int insns;
    int eor3, rax1, xar, bcax;
    int simd;      /* instructions naming a vector register (v.., .16b, .2d ...) */
    int uses_x18, uses_fp;
} mix;

/* One line of llvm-mc's disassembly into the mix */
static void count_line(void *ctx, const char *p)
{
    mix *m = ctx;
    m->insns++;
    char mnem[16] = "";
    sscanf(p, "%15s", mnem);
    m->eor3 += strcmp(mnem, "eor3") == 0;
    m->rax1 += strcmp(mnem, "rax1") == 0;
    m->xar += strcmp(mnem, "xar") == 0;
    m->bcax += strcmp(mnem, "bcax") == 0;
    const char *ops = p + strlen(mnem);
    m->simd += strstr(ops, "v") != NULL && strstr(ops, ".") != NULL;
    m->uses_x18 += strstr(ops, "x18") != NULL || strstr(ops, "w18") != NULL;
    m->uses_fp += strstr(ops, "x29") != NULL || strstr(ops, "fp") != NULL;
}

/* Disassemble words with llvm-mc (stub_dump.h): every word one instruction; what it printed, counted. */
static mix disassemble(const char *name, const uint32_t *w, size_t n)
{
    static uint8_t bytes[4 * 2048];
    assert_true(n <= sizeof bytes / 4);
    for (size_t i = 0; i < 4 * n; i++)
        bytes[i] = (uint8_t)(w[i / 4] >> 8 * (i % 4)); /* little-endian, as the words run */
    mix m = {0};
    stub_dump_disassemble(name, "-triple=aarch64 -mattr=+sha3", bytes, 4 * n, 4, count_line, &m);
    if ((size_t)m.insns != n)
        fail_msg("%s: %zu words, llvm-mc printed %d instructions", name, n, m.insns);
    return m;
}

/* An assembler over cap words at buf that reports a refusal (a64_asm_failed) instead of aborting */
static void asm_over(a64_asm *as, uint32_t *buf, size_t cap)
{
    a64_asm_init(as, buf, cap);
    as->cb.fatal = false;
}

/* Every SHA-3 design: the variant rows' (simd, gpr) and the GPR stub's other designs
   (sha3_stub_configs.h), each entry ("MB" the multi-block one), read from the rows */
typedef struct stub_config {
    char name[64];
    a64_sha3_config cfg;
} stub_config;

static stub_config stub_configs[32];
static int nstub_configs;

static void add_configs(const char *name, const char *design, const a64_sha3_config *cfg)
{
    for (int mb = 0; mb < 2 && nstub_configs < (int)(sizeof stub_configs / sizeof stub_configs[0]); mb++) {
        stub_config *c = &stub_configs[nstub_configs++];
        snprintf(c->name, sizeof c->name, "%s%s%s%s", name, mb ? " MB" : "", design ? " " : "", design ? design : "");
        c->cfg = *cfg;
        c->cfg.multi_block = mb;
    }
}

static void collect_configs(void)
{
    const stub_arch_ops *arch = stub_arch_ops_for(CPU_ARCH_AARCH64);
    for (size_t i = 0; arch && i < arch->nvariants; i++) {
        const stub_variant *v = &arch->variants[i];
        if (v->family != STUB_FAMILY_SHA3 || !v->design)
            continue;
        const a64_sha3_config *row = v->design;
        add_configs(v->name, NULL, row);
        for (size_t d = 0; !row->simd && d < sizeof a64_sha3_gpr_designs / sizeof a64_sha3_gpr_designs[0]; d++)
            add_configs(v->name, a64_sha3_gpr_designs[d].label, &a64_sha3_gpr_designs[d].cfg);
    }
}
#define NSTUB_CONFIGS nstub_configs

static void test_dumps(void **state)
{
    (void)state;
    stub_dump_skip_without_llvm_mc();
    assert_true(NSTUB_CONFIGS > 0);
    for (int c = 0; c < NSTUB_CONFIGS; c++) {
        const stub_config *dc = &stub_configs[c];
        uint32_t words[2048];
        a64_asm as;
        asm_over(&as, words, 2048);
        a64_generate_sha3_implCompress(&as, &dc->cfg);
        if (a64_asm_failed(&as))
            fail_msg("%s: %s", dc->name, as.cb.errmsg);
        mix m = disassemble(dc->name, words, a64_asm_pc(&as));
        print_message("%-42s %4d instructions\n", dc->name, m.insns);
        if (dc->cfg.simd) {
            assert_int_equal(m.eor3, 10);
            assert_int_equal(m.rax1, 5);
            assert_int_equal(m.xar, 24);
            assert_int_equal(m.bcax, 25);
        } else {
            if (m.eor3 + m.rax1 + m.xar + m.bcax + m.simd != 0)
                fail_msg("%s: the GPR stub uses SHA3/SIMD instructions (%d eor3, %d rax1, %d xar, %d bcax, "
                         "%d vector)", dc->name, m.eor3, m.rax1, m.xar, m.bcax, m.simd);
            /* x18 only where the platform allows it; fp only in the frame record under PreserveFramePointer */
            if (dc->cfg.r18_reserved)
                assert_int_equal(m.uses_x18, 0);
            else if (!dc->cfg.preserve_fp)
                assert_true(m.uses_x18 > 0);
            if (dc->cfg.preserve_fp)
                assert_int_equal(m.uses_fp, 3); /* stp fp, lr / mov fp, sp / ldp fp, lr */
        }
    }
}

/* ---- the SHA-3 stubs' rounds ------------------------------------------------------------ */

/* The per-round counts docs/stubs.md states (JDK-8252204's SIMD round: 66 operations; JDK-8337666's scalar one: 130). */
static void sha3_round_counts(void **state)
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

/* ---- the SHA-1, SHA-256 and SHA-512 stubs ------------------------------------------------ */

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

static size_t sha2_generate(const sha_stub *s, uint32_t *words, size_t cap, a64_asm *as)
{
    asm_over(as, words, cap);
    size_t entry = s->generate(as, s->multi_block);
    if (a64_asm_failed(as))
        fail_msg("%s: generator refused: %s", s->name, as->cb.errmsg);
    return entry;
}


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

static void sha2_generate_and_mix(void **state)
{
    (void)state;
    for (int c = 0; c < NSTUBS; c++) {
        const sha_stub *s = &stubs[c];
        uint32_t words[1024];
        a64_asm as;
        assert_int_equal(sha2_generate(s, words, 1024, &as), 0);
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
        asm_over(&as, small, 32);
        stubs[c].generate(&as, stubs[c].multi_block);
        assert_true(a64_asm_failed(&as));
        assert_non_null(strstr(as.cb.errmsg, "full"));
    }
}

/* The stubs' tables against FIPS 180-4, 4.2 (SHA-2: the reference's; SHA-1: 4.2.1's four words). */
static void sha2_round_constants(void **state)
{
    (void)state;
    static const uint32_t sha1_k[4] = {0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6};
    assert_memory_equal(a64_sha1_round_consts, sha1_k, sizeof sha1_k);
    assert_memory_equal(a64_sha256_round_consts, sha256_ref_k, sizeof sha256_ref_k);
    assert_memory_equal(a64_sha512_round_consts, sha512_ref_k, sizeof sha512_ref_k);
}

/* llvm-mc decodes every word (a warning on stderr means one it did not); no
   operand names x18 (the platform's) or fp (x29). Skipped without llvm-mc. */
static void sha2_llvm_mc_dump(void **state)
{
    (void)state;
    stub_dump_skip_without_llvm_mc();
    for (int c = 0; c < NSTUBS; c++) {
        const sha_stub *s = &stubs[c];
        uint32_t words[1024];
        a64_asm as;
        sha2_generate(s, words, 1024, &as);
        mix m = disassemble(s->name, words, a64_asm_pc(&as));
        if (m.uses_x18 || m.uses_fp)
            fail_msg("%s: %d instructions use x18, %d fp", s->name, m.uses_x18, m.uses_fp);
    }
}

/* The MD5 stubs (HotSpot's generate_md5_implCompress): a block is four ldp and the 64 steps
   (F and G 11 instructions, H and I 10, one T by a single movn: 0xffff5bb1), one ror a step;
   the entries add the frame, the state's ldp and unpacking, its update and stp, and the loop's
   tail; llvm-mc decodes every word, none names x18 or fp. */
static void md5_generate_and_mix(void **state)
{
    (void)state;
    static uint32_t words[2048];
    a64_asm as;
    a64_asm_init(&as, words, 2048);
    a64_emit_md5_block(&as);
    assert_false(a64_asm_failed(&as));
    const size_t block = a64_asm_pc(&as);
    const word_class ror_w = {0xffe00000u, 0x13800000u}, movn_w = {0xff800000u, 0x12800000u},
                     ldp_x = {0xffc00000u, 0xa9400000u};
    assert_int_equal(block, 4 + 16 * (11 + 11 + 10 + 10) - 1);
    assert_int_equal(count_words(words, block, ror_w), 64);
    assert_int_equal(count_words(words, block, movn_w), 1);
    assert_int_equal(count_words(words, block, ldp_x), 4);
    for (int mb = 0; mb < 2; mb++) {
        asm_over(&as, words, 2048);
        assert_int_equal(a64_generate_md5_implCompress(&as, mb), 0);
        assert_false(a64_asm_failed(&as));
        size_t n = a64_asm_pc(&as);
        /* 3 stp, ldp and 4 unpacks; the block; 8 for the state's update; (MB: add x0, add w2, cmp, b.le,
           mov w0); stp, 3 restores, ret */
        assert_int_equal(n, 3 + 5 + block + 8 + (mb ? 5 : 0) + 1 + 3 + 1);
        assert_int_equal(words[n - 1], 0xd65f03c0u);
        for (size_t i = 0; i < n; i++)
            if (words[i] == 0)
                fail_msg("md5: word %zu is udf #0 (a refused instruction)", i);
        assert_int_equal(block_loop_words(words, n), mb ? (int)(block + 8 + 4) : -1);
        print_message("md5%-7s %4zu words (%4zu bytes)\n", mb ? " MB" : "", n, 4 * n);
        if (!stub_dump_have_llvm_mc())
            continue;
        mix m = disassemble(mb ? "md5 MB" : "md5", words, n); /* every word decoded, one instruction each */
        assert_int_equal(m.uses_x18, 0);
        assert_int_equal(m.uses_fp, 0);
        assert_int_equal(m.simd, 0);
    }
}

/* double_keccak (HotSpot 25's): its round is the SIMD stub's word for word (with x8 for the round
   constants, HotSpot's register in both); 117 words: enter 2, d8..d15 4, each state's lanes 8
   (add, ld4, five ld4 post, ld1) in and 7 out, the count and constants 4, the loop 1 + 67 + 1,
   d8..d15 back 4, leave 2 (mov sp, fp; ldp), mov x0, xzr, ret. No x18; fp in the frame record only. */
static void double_keccak_generate_and_mix(void **state)
{
    (void)state;
    static uint32_t words[2048], round[256];
    a64_asm as;
    a64_asm_init(&as, round, 256);
    a64_emit_double_keccak_round(&as);
    assert_false(a64_asm_failed(&as));
    const size_t nround = a64_asm_pc(&as);
    assert_int_equal(nround, 67);
    asm_over(&as, words, 2048);
    assert_int_equal(a64_generate_double_keccak(&as), 0);
    assert_false(a64_asm_failed(&as));
    size_t n = a64_asm_pc(&as);
    assert_int_equal(n, 2 + 4 + 2 * 8 + 4 + 1 + 67 + 1 + 2 * 7 + 4 + 2 + 1 + 1);
    assert_int_equal(words[n - 1], 0xd65f03c0u);
    bool found = false;
    for (size_t i = 0; i + nround <= n && !found; i++)
        found = memcmp(words + i, round, nround * sizeof *round) == 0;
    if (!found)
        fail_msg("double_keccak: the round a64_emit_double_keccak_round emits is not in the stub");
    print_message("double_keccak %4zu words (%4zu bytes)\n", n, 4 * n);
    if (!stub_dump_have_llvm_mc())
        return;
    mix m = disassemble("double_keccak", words, n);
    assert_int_equal(m.eor3, 10);
    assert_int_equal(m.rax1, 5);
    assert_int_equal(m.xar, 24);
    assert_int_equal(m.bcax, 25);
    assert_int_equal(m.uses_x18, 0);
    assert_int_equal(m.uses_fp, 4); /* stp, mov fp, sp; mov sp, fp; ldp */
}

int main(void)
{
    flags_init(FLAG_ARCH_AARCH64); /* the generators read a few flags (PreserveFramePointer) */
    collect_configs();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dumps),
        cmocka_unit_test(sha3_round_counts),
        cmocka_unit_test(sha2_generate_and_mix),
        cmocka_unit_test(sha2_round_constants),
        cmocka_unit_test(sha2_llvm_mc_dump),
        cmocka_unit_test(md5_generate_and_mix),
        cmocka_unit_test(double_keccak_generate_and_mix),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
