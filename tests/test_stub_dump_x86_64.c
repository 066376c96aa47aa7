/*
 * tests/test_stub_dump_x86_64.c — every generated x86-64 SHA-3 stub (each
 * variant, both entries) and each variant's round re-disassembled by
 * `llvm-mc --disassemble -show-encoding` on any host: no byte llvm-mc cannot
 * decode (it warns on stderr and exits 0, so both streams are checked), every
 * byte accounted for (the encodings llvm-mc prints add up to the stub's size),
 * and the instruction mix each variant promises: the GPR stubs name no vector
 * or mask register, the BMI one uses andn and rorx and the other neither; the
 * AVX-512 round is JDK-8341527's 24 vpermt2q, 12 vpternlogq, 5 copies, 3
 * vprolvq, 1 vprolq and 1 masked vpxorq; the AVX-512 lanes round is
 * JDK-8384353's design: 60 vpternlogq, 29 vprolq, 16 copies, 1 masked vpxorq,
 * all at 128 bits, no shuffle; the AVX2 stubs have no EVEX
 * encoding and name no zmm, xmm16..31 or mask register, and their round is
 * the 153 instructions docs/stubs.md counts. The SHA-1/SHA-256 stubs (SHA-NI) are
 * legacy SSE only, the SHA-512 stubs AVX/AVX2 and BMI only, and one block of each
 * is the instruction mix its generator's comments give. Exits 77 (Meson's
 * "skipped") when llvm-mc is not installed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "flags.h"
#include "sha2_ref.h"
#include "stub_arch.h"
#include "stub_dump.h"
#include "stubgenerator_x86_64.h"
#include "stubroutines.h"
#include "x64_sdm_nops.h"

typedef struct mix {
    int insns;
    size_t bytes;        /* the encodings' lengths, summed */
    int vector;          /* instructions naming xmm/ymm/zmm or k registers */
    int evex;            /* encodings starting with 0x62 */
    int andn, rorx, rol;
    int vpermt2q, vpternlogq, copies, vprolvq, vprolq, vpxorq_masked;
    int vpermq, vpblendd, vpbroadcastq, vshiftv; /* AVX2: shuffles, blends, broadcast loads, vpsllvq/vpsrlvq */
    int evex_only;       /* instructions naming zmm, xmm16..31 or a mask register (AVX-512 only) */
    int wide;            /* instructions naming ymm or zmm */
    int copies64;        /* vmovdqu64 register copies */
    int vex_vector;      /* VEX encodings (C4/C5) naming a vector register: AVX, AVX2 */
    int legacy_vector;   /* encodings without VEX or EVEX naming a vector register: SSE */
    int sha1rnds4, sha1nexte, sha1msg, sha256rnds2, sha256msg; /* SHA-NI */
    int vpalignr, vpshufb, vzeroupper;
} mix;

/* Does the operand text name a register only EVEX can encode? */
static bool evex_register(const char *ops)
{
    if (strstr(ops, "zmm") || strstr(ops, "%k"))
        return true;
    for (const char *p = ops; (p = strstr(p, "mm")) != NULL; p += 2) {
        int n = 0;
        if (sscanf(p + 2, "%d", &n) == 1 && n >= 16)
            return true;
    }
    return false;
}

/* The length of the padding nop (x64_align's: the SDM's, x64_sdm_nops.h) at code, where llvm-mc showed
   shown bytes. */
static size_t padding_nop_length(const uint8_t *code, size_t room, size_t shown)
{
    for (size_t len = 9; len > shown; len--)
        if (len <= room && memcmp(code, sdm_nops[len - 1], len) == 0)
            return len;
    return shown;
}

/* What llvm-mc printed of the n bytes at code so far */
typedef struct dump {
    const char *name;
    const uint8_t *code;
    size_t n;
    mix m;
} dump;

/* One line of llvm-mc's disassembly into the mix */
static void count_line(void *ctx, const char *p)
{
    dump *d = ctx;
    mix *m = &d->m;
    if (*p == '#')
        return; /* the fixup notes of branches */
    const char *enc = strstr(p, "# encoding: [");
    if (!enc)
        fail_msg("%s: no encoding in: %s", d->name, p);
    m->insns++;
    enc += strlen("# encoding: [");
    bool evex = strncmp(enc, "0x62", 4) == 0, vex = strncmp(enc, "0xc4", 4) == 0 || strncmp(enc, "0xc5", 4) == 0;
    m->evex += evex;
    char mnem[32] = "";
    sscanf(p, "%31s", mnem);
    /* "[0x0f,0x84,A,A,A,A]": a branch's displacement bytes are shown as A. llvm-mc shows
       the encoding it would choose, so a padding nop (x64_align's, the SDM's multi-byte
       forms with a zero displacement) shows shorter than it is: its length is read from
       the code, the longest of the forms that matches */
    size_t len = *enc != ']';
    for (const char *b = enc; *b && *b != ']'; b++)
        len += *b == ',';
    if (strncmp(mnem, "nop", 3) == 0 && m->bytes < d->n)
        len = padding_nop_length(d->code + m->bytes, d->n - m->bytes, len);
    m->bytes += len;
    const char *ops = p + strlen(mnem);
    bool vector = strstr(ops, "mm") != NULL || strstr(ops, "%k") != NULL;
    m->vector += vector;
    m->vex_vector += vector && vex;
    m->legacy_vector += vector && !vex && !evex;
    m->sha1rnds4 += strcmp(mnem, "sha1rnds4") == 0;
    m->sha1nexte += strcmp(mnem, "sha1nexte") == 0;
    m->sha1msg += strcmp(mnem, "sha1msg1") == 0 || strcmp(mnem, "sha1msg2") == 0;
    m->sha256rnds2 += strcmp(mnem, "sha256rnds2") == 0;
    m->sha256msg += strcmp(mnem, "sha256msg1") == 0 || strcmp(mnem, "sha256msg2") == 0;
    m->vpalignr += strcmp(mnem, "vpalignr") == 0;
    m->vpshufb += strcmp(mnem, "vpshufb") == 0;
    m->vzeroupper += strcmp(mnem, "vzeroupper") == 0;
    m->andn += strncmp(mnem, "andn", 4) == 0;
    m->rorx += strncmp(mnem, "rorx", 4) == 0;
    m->rol += strncmp(mnem, "rol", 3) == 0;
    m->vpermt2q += strcmp(mnem, "vpermt2q") == 0;
    m->vpternlogq += strcmp(mnem, "vpternlogq") == 0;
    m->copies += strcmp(mnem, "vmovdqu16") == 0;
    m->vprolvq += strcmp(mnem, "vprolvq") == 0;
    m->vprolq += strcmp(mnem, "vprolq") == 0;
    m->vpxorq_masked += strcmp(mnem, "vpxorq") == 0 && strstr(ops, "{%k") != NULL;
    m->vpermq += strcmp(mnem, "vpermq") == 0;
    m->vpblendd += strcmp(mnem, "vpblendd") == 0;
    m->vpbroadcastq += strcmp(mnem, "vpbroadcastq") == 0;
    m->vshiftv += strcmp(mnem, "vpsllvq") == 0 || strcmp(mnem, "vpsrlvq") == 0;
    m->evex_only += evex_register(ops);
    m->wide += strstr(ops, "ymm") != NULL || strstr(ops, "zmm") != NULL;
    m->copies64 += strcmp(mnem, "vmovdqu64") == 0 && strchr(ops, '(') == NULL;
}

/* The n bytes at code through llvm-mc (stub_dump.h); what it printed, counted. */
static mix disassemble(const char *name, const uint8_t *code, size_t n)
{
    dump d = {name, code, n, {0}};
    stub_dump_disassemble(name, "-show-encoding -triple=x86_64", code, n, 16, count_line, &d);
    return d.m;
}

/* What the tests generate into */
static uint8_t code[65536];

/* An assembler over cap bytes at buf that reports a refusal (x64_asm_failed) instead of aborting */
static void asm_over(x64_asm *as, uint8_t *buf, size_t cap)
{
    x64_asm_init(as, buf, cap);
    as->cb.fatal = false;
}

/* Part of a stub (a round, a block) as emit writes it into code, through llvm-mc */
static mix dump_part(const char *name, void (*emit)(x64_asm *as))
{
    x64_asm as;
    x64_asm_init(&as, code, sizeof code);
    emit(&as);
    assert_false(x64_asm_failed(&as));
    return disassemble(name, code, x64_asm_pc(&as));
}

/* A whole stub as emitted into code: every byte decoded and accounted for */
static mix dump_stub(const char *name, const x64_asm *as)
{
    assert_false(x64_asm_failed(as));
    mix m = disassemble(name, code, x64_asm_pc(as));
    if (m.bytes != x64_asm_pc(as))
        fail_msg("%s: llvm-mc accounts for %zu of the %zu bytes", name, m.bytes, x64_asm_pc(as));
    return m;
}

/* Every SHA-3 design of x86-64's variant table, each entry: the row's name (" MB" for the
   multi-block entry) and its generator's parameters (the row's design), read from the rows */
typedef struct config {
    char name[48];
    x64_sha3_config cfg;
} config;

static config configs[32];
static size_t nconfigs;

static void collect_configs(void)
{
    const stub_arch_ops *arch = stub_arch_ops_for(CPU_ARCH_X86_64);
    for (size_t i = 0; arch && i < arch->nvariants && nconfigs + 2 <= sizeof configs / sizeof configs[0]; i++) {
        const stub_variant *v = &arch->variants[i];
        if (v->family != STUB_FAMILY_SHA3 || !v->design)
            continue;
        for (int mb = 0; mb < 2; mb++) {
            config *c = &configs[nconfigs++];
            snprintf(c->name, sizeof c->name, "%s%s", v->name, mb ? " MB" : "");
            c->cfg = *(const x64_sha3_config *)v->design;
            c->cfg.multi_block = mb;
        }
    }
}
#define NCONFIGS nconfigs

static void every_stub_decodes(void **state)
{
    (void)state;
    stub_dump_skip_without_llvm_mc();
    for (size_t c = 0; c < NCONFIGS; c++) {
        x64_asm as;
        asm_over(&as, code, sizeof code);
        x64_generate_sha3_implCompress(&as, &configs[c].cfg);
        mix m = dump_stub(configs[c].name, &as);
        print_message("%-14s %5zu bytes, %4d instructions, %3d EVEX\n", configs[c].name, m.bytes, m.insns, m.evex);
        if (configs[c].cfg.variant == X64_SHA3_GPR) {
            assert_int_equal(m.vector, 0);
            assert_int_equal(m.evex, 0);
            if (configs[c].cfg.bmi1) {
                assert_true(m.andn == 2 * 25 && m.rorx > 0 && m.rol == 0);
            } else {
                assert_true(m.andn == 0 && m.rorx == 0 && m.rol > 0);
            }
        } else if (configs[c].cfg.variant == X64_SHA3_AVX2) {
            /* AVX2 only: VEX encodings, ymm0..15, no mask register */
            assert_true(m.vector > 0);
            assert_int_equal(m.evex, 0);
            assert_int_equal(m.evex_only, 0);
        } else if (configs[c].cfg.variant == X64_SHA3_AVX512_LANES) {
            /* 128-bit EVEX only: no ymm or zmm, not even for the loads and stores */
            assert_true(m.vector > 0 && m.evex > 0);
            assert_int_equal(m.wide, 0);
        } else {
            assert_true(m.vector > 0 && m.evex > 0);
        }
    }
}

/* One round of each variant as its loop emits it: the instruction counts docs/stubs.md gives. */
static void round_mix(void **state)
{
    (void)state;
    stub_dump_skip_without_llvm_mc();
    for (size_t c = 0; c < NCONFIGS; c += 2) {
        x64_asm as;
        x64_asm_init(&as, code, sizeof code);
        x64_emit_sha3_round(&as, &configs[c].cfg);
        assert_false(x64_asm_failed(&as));
        mix m = disassemble(configs[c].name, code, x64_asm_pc(&as));
        print_message("%-10s round: %3d instructions, %4zu bytes\n", configs[c].name, m.insns, m.bytes);
        if (configs[c].cfg.variant == X64_SHA3_AVX512) {
            assert_int_equal(m.vpermt2q, 24);
            assert_int_equal(m.vpternlogq, 12);
            assert_int_equal(m.copies, 5);
            assert_int_equal(m.vprolvq, 3);
            assert_int_equal(m.vprolq, 1);
            assert_int_equal(m.vpxorq_masked, 1);
            assert_int_equal(m.insns, 24 + 12 + 5 + 3 + 1 + 1 + 1); /* and the constant pointer's add */
        } else if (configs[c].cfg.variant == X64_SHA3_AVX512_LANES) {
            assert_int_equal(m.vpermt2q + m.vpermq, 0);  /* no shuffle */
            assert_int_equal(m.wide, 0);
            assert_int_equal(m.vpternlogq, 10 + 25 + 25); /* theta's C and its xor into the lanes; chi */
            assert_int_equal(m.vprolq, 5 + 24);           /* rol(C, 1); rho along pi's cycle */
            assert_int_equal(m.copies64, 5 + 1 + 10);     /* C's start; the cycle's first lane; chi's two per row */
            assert_int_equal(m.vpxorq_masked, 1);
            assert_int_equal(m.insns, 60 + 29 + 16 + 1 + 1);
        } else if (configs[c].cfg.variant == X64_SHA3_AVX2) {
            assert_int_equal(m.evex, 0);
            assert_int_equal(m.evex_only, 0);
            assert_int_equal(m.vpermq, 2 + 2 * 5);   /* theta's C[x-1], rol(C[x+1]); chi's two per row */
            assert_int_equal(m.vshiftv, 4 * 5);      /* rho: left and right, ymm and xmm, per row */
            assert_int_equal(m.vpbroadcastq, 4 * 5); /* pi's gather: three lanes and B4 per row */
            assert_int_equal(m.vpblendd, 2 + 5 * 5); /* theta 2; per row the gather's 3, chi's 2 */
            /* theta 30, rho 30, pi 10 stores + 8 loads and blends per row, chi 8 per row, iota 2 + the add */
            assert_int_equal(m.insns, 30 + 30 + 10 + 5 * 8 + 5 * 8 + 3);
        } else if (configs[c].cfg.bmi1) {
            /* theta 25 loads/xors + 10 for D; 25 x (load, xor D, rotate) less lane 0's rotate; chi 25 x
               (andn, xor, store); iota 1 */
            assert_int_equal(m.insns, 25 + 10 + 74 + 75 + 1);
        } else {
            assert_int_equal(m.insns, 25 + 15 + 74 + 125 + 1);
        }
    }
}

/* double_keccak (HotSpot 25's): every byte decoded, EVEX with zmm; its round is the row stub's
   for each of two states (zmm0..6 and zmm10..16) with one add of the constant pointer; loads
   and stores of five rows per state, the 15 constant vectors, the masks, the loop. */
static void double_keccak_decodes(void **state)
{
    (void)state;
    stub_dump_skip_without_llvm_mc();
    mix m = dump_part("double_keccak round", x64_emit_double_keccak_round);
    assert_int_equal(m.vpermt2q, 2 * 24);
    assert_int_equal(m.vpternlogq, 2 * 12);
    assert_int_equal(m.copies, 2 * 5);
    assert_int_equal(m.vprolvq, 2 * 3);
    assert_int_equal(m.vprolq, 2 * 1);
    assert_int_equal(m.vpxorq_masked, 2 * 1);
    assert_int_equal(m.insns, 2 * (24 + 12 + 5 + 3 + 1 + 1) + 1);
    x64_asm as;
    asm_over(&as, code, sizeof code);
    x64_generate_double_keccak(&as);
    m = dump_stub("double_keccak", &as);
    print_message("double_keccak %5zu bytes, %4d instructions\n", m.bytes, m.insns);
    assert_int_equal(m.vzeroupper, 1);
    /* enter 2; two addresses; the masks 1 + 1 + 4; 10 row loads, 15 constant loads; the count and
       pointer 2; the loop (sub, round, cmp, jne); 10 row stores; xorl; vzeroupper, leave, ret */
    assert_int_equal(m.insns, 2 + 2 + 6 + 25 + 2 + (3 + 2 * 46 + 1) + 10 + 1 + 3);
}

/* The SHA-1, SHA-256 and SHA-512 stubs, both entries: every byte decoded; SHA-NI's stubs
   are legacy SSE throughout (no VEX vector instruction, so no SSE/AVX transition, and no
   ymm: nothing for a vzeroupper to clean), SHA-512's are AVX/AVX2 and BMI only (VEX, no
   SSE encoding, no SHA-NI, no EVEX or AVX-512 register). */
static void sha2_stubs_decode(void **state)
{
    (void)state;
    stub_dump_skip_without_llvm_mc();
    const stub_arch_ops *arch = stub_arch_ops_for(CPU_ARCH_X86_64);
    assert_non_null(arch);
    unsigned seen = 0; /* the families that had a row */
    for (size_t i = 0; i < arch->nvariants; i++) {
        const stub_variant *v = &arch->variants[i];
        if (v->family != STUB_FAMILY_SHA1 && v->family != STUB_FAMILY_SHA256 && v->family != STUB_FAMILY_SHA512)
            continue;
        const stub_family_desc *fd = &stub_family_descs[v->family];
        for (int mb = 0; mb < 2; mb++) {
            char name[48];
            snprintf(name, sizeof name, "%s %s%s", fd->display, v->name, mb ? " MB" : "");
            x64_asm as;
            asm_over(&as, code, sizeof code);
            v->emit(&as, v, mb ? fd->compress_mb : fd->compress);
            mix m = dump_stub(name, &as);
            print_message("%-18s %5zu bytes, %4d instructions\n", name, m.bytes, m.insns);
            seen |= 1u << v->family;
            assert_int_equal(m.evex, 0);
            assert_int_equal(m.evex_only, 0);
            /* ymm only in the AVX2 SHA-256 (two blocks a register); SHA-512's AVX2 stub is VEX.128 */
            if (v->family == STUB_FAMILY_SHA256 && v->kind == STUB_KIND_SIMD)
                assert_true(m.wide > 0);
            else
                assert_int_equal(m.wide, 0);
            if (v->kind == STUB_KIND_CRYPTO) { /* SHA-NI */
                assert_int_equal(m.vex_vector, 0);
                assert_int_equal(m.vzeroupper, 0);
                assert_true(m.legacy_vector > 0 && (m.sha1rnds4 > 0 || m.sha256rnds2 > 0));
            } else {
                assert_int_equal(m.legacy_vector, 0);
                assert_int_equal(m.sha1rnds4 + m.sha1nexte + m.sha1msg + m.sha256rnds2 + m.sha256msg, 0);
                assert_int_equal(m.vzeroupper, 1);
                assert_true(m.vex_vector > 0 && m.rorx > 0);
            }
        }
    }
    assert_int_equal(seen, (1u << STUB_FAMILY_SHA1) | (1u << STUB_FAMILY_SHA256) | (1u << STUB_FAMILY_SHA512));
}

/* One block of each as its loop runs it: the counts the generator's comments give. */
static void sha2_block_mix(void **state)
{
    (void)state;
    stub_dump_skip_without_llvm_mc();
    static const struct {
        const char *name;
        void (*emit)(x64_asm *as);
    } blocks[] = {
        {"sha1", x64_emit_sha1_block},
        {"sha256", x64_emit_sha256_block},
        {"sha512", x64_emit_sha512_block},
        {"sha256 avx2 (two blocks)", x64_emit_sha256_avx2_blocks}};
    for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
        mix m = dump_part(blocks[b].name, blocks[b].emit);
        print_message("%-7s block: %4d instructions, %5zu bytes\n", blocks[b].name, m.insns, m.bytes);
        if (b == 0) {
            /* 20 groups of four rounds; the schedule of W[16..79] in 16 groups of 4 words */
            assert_int_equal(m.sha1rnds4, 20);
            assert_int_equal(m.sha1nexte, 19 + 1); /* groups 1..19, and the final E */
            assert_int_equal(m.sha1msg, 2 * 16);
            /* saves 2, loads and shuffles 8, per group E, copy, rnds4; msg1, pxor, msg2 per
               scheduled group; E and ABCD added */
            assert_int_equal(m.insns, 2 + 8 + 3 * 20 + 3 * 16 + 2);
        } else if (b == 1) {
            assert_int_equal(m.sha256rnds2, 32);
            assert_int_equal(m.sha256msg, 2 * 12);
            /* saves 2, loads and shuffles 8, per group copy, paddd, rnds2, pshufd, rnds2;
               per scheduled group copy, palignr, paddd, msg2, msg1; the state added */
            assert_int_equal(m.insns, 2 + 8 + 5 * 16 + 5 * 12 + 2);
        } else if (b == 2) {
            assert_int_equal(m.rorx, 6 * 80);
            assert_int_equal(m.vpshufb, 8 + 32);  /* the byte swaps; sigma0's ror 8 per pair */
            assert_int_equal(m.vpalignr, 2 * 32);
            /* start 35 (table, 8 x load, swap, + K, store; b ^ c); 64 rounds of 25 with 32
               pairs of 23 (the schedule and its store); 16 rounds; the state added (17) */
            assert_int_equal(m.insns, 35 + 64 * 25 + 32 * 23 + 16 * 25 + 17);
        } else {
            /* two blocks: 128 rounds of 27 (six rorx each); the first block's 16 groups store both
               blocks' W + K (vpaddd, vmovdqu), 12 of them schedule four words in 29; loads, byte
               swaps and lane splits 12; the second trip loop's two moves twice; the state added
               twice (16 each) */
            assert_int_equal(m.rorx, 6 * 128);
            assert_int_equal(m.vpshufb, 4 + 12 * 2);
            assert_int_equal(m.vpalignr, 12 * 2);
            assert_int_equal(m.insns, 12 + 128 * 27 + 16 * 2 + 12 * 29 + 2 * 2 + 2 * 16);
        }
    }
}

/* The stubs' tables are their own (not the reference's): they must say the same. */
static void sha2_round_constants(void **state)
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

/* The MD5 stubs (HotSpot's fast_md5): every byte decoded, general registers only (no vector
   register, so nothing for a vzeroupper to clean), one rol a step; a block is the 64 steps,
   F 9 instructions, G 11, H 8, I 9 (stubgenerator_x86_64_md5.c); the entries add the frame,
   the state's loads and update, and the loop's tail. */
static void md5_stubs_decode(void **state)
{
    (void)state;
    stub_dump_skip_without_llvm_mc();
    mix m = dump_part("md5 block", x64_emit_md5_block);
    assert_int_equal(m.vector, 0);
    assert_int_equal(m.rol, 64);
    assert_int_equal(m.insns, 16 * (9 + 11 + 8 + 9));
    static const struct {
        const char *name;
        bool multi_block;
        int insns;
    } entries[] = {
        /* enter 2, 4 pushes, sub rsp, 2 argument stores, state pointer and 4 loads; the block;
           the state pointer, 4 adds and 4 stores; xorl (single) or 6 for the loop's tail (MB, with
           2 more argument stores); add rsp, 4 pops, leave, ret */
        {"md5", false, 2 + 4 + 1 + 2 + 5 + 592 + 9 + 1 + 1 + 4 + 2},
        {"md5 MB", true, 2 + 4 + 1 + 4 + 5 + 592 + 9 + 6 + 1 + 4 + 2},
    };
    for (size_t e = 0; e < sizeof entries / sizeof entries[0]; e++) {
        x64_asm as;
        asm_over(&as, code, sizeof code);
        x64_generate_md5_implCompress(&as, entries[e].multi_block);
        m = dump_stub(entries[e].name, &as);
        print_message("%-10s %5zu bytes, %4d instructions\n", entries[e].name, m.bytes, m.insns);
        assert_int_equal(m.vector, 0);
        assert_int_equal(m.insns, entries[e].insns);
    }
}

/* A dry run measures the stub's size; a buffer one byte too small fails instead of overrunning. */
static void sha2_dry_run_and_small_buffer(void **state)
{
    (void)state;
    size_t (*const generators[])(x64_asm *, bool) = {x64_generate_sha1_implCompress, x64_generate_sha256_implCompress,
                                                     x64_generate_sha512_implCompress};
    for (size_t g = 0; g < sizeof generators / sizeof generators[0]; g++) {
        for (int mb = 0; mb < 2; mb++) {
            x64_asm as;
            asm_over(&as, code, sizeof code);
            generators[g](&as, mb);
            assert_false(x64_asm_failed(&as));
            size_t size = x64_asm_pc(&as);
            asm_over(&as, NULL, 0);
            generators[g](&as, mb);
            assert_int_equal(x64_asm_pc(&as), size);
            asm_over(&as, code, size - 1);
            generators[g](&as, mb);
            assert_true(x64_asm_failed(&as));
        }
    }
}

int main(void)
{
    flags_init(FLAG_ARCH_X86_64); /* the generators read a few flags (PreserveFramePointer) */
    collect_configs();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_stub_decodes),
        cmocka_unit_test(round_mix),
        cmocka_unit_test(sha2_stubs_decode),
        cmocka_unit_test(sha2_block_mix),
        cmocka_unit_test(sha2_round_constants),
        cmocka_unit_test(sha2_dry_run_and_small_buffer),
        cmocka_unit_test(md5_stubs_decode),
        cmocka_unit_test(double_keccak_decodes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
