/*
 * stubs/aarch64/stubgenerator_aarch64_md5.c — the AArch64 MD5 stub generator, in
 * HotSpot's design (StubGenerator::generate_md5_implCompress and its md5_FF,
 * md5_GG, md5_HH, md5_II in cpu/aarch64/stubGenerator_aarch64.cpp; written here
 * from RFC 1321 and HotSpot 25's -XX:+PrintStubCode, docs/stubs.md): the 64
 * steps unrolled in general registers.
 *
 *   state   A..D in w4..w7, and packed two to a register in x12, x13 (A | B << 32,
 *           C | D << 32: one ldp and one stp of the int[4])
 *   block   the sixteen little-endian words two to a register in x14..x17,
 *           x19..x22 (four ldp), word k taken out into x8 by ubfx (even k) or
 *           lsr #32 (odd k), as the step needs it
 *   step    a += T[i] (movz/movk, or one movn, into w9 or w10), + the word,
 *           + f(b, c, d); a = ror(a, 32 - S[i]) + b, with f's terms in w9..w11
 *           in HotSpot's order
 * x16, x17 and x19..x22 are saved (HotSpot's prologue). What minivm's contract
 * changes (stubdeclarations.h): the multi-block loop counts ofs and compares it
 * with limit in 32 bits (add w2, cmp w2, w3: only the arguments' low halves
 * are read), where HotSpot's uses the x registers.
 */
#include "stubgenerator_aarch64.h"

#include "macroassembler_aarch64.h"
#include "md5_steps.h"

#define BUF   A64_C_RARG0
#define STATE A64_C_RARG1
#define OFS   A64_C_RARG2
#define LIMIT A64_C_RARG3

#define WORD A64_R8  /* the step's message word */
#define T9   A64_R9
#define T10  A64_R10
#define T11  A64_R11
#define AB   A64_R12 /* A | B << 32 */
#define CD   A64_R13 /* C | D << 32 */

static const a64_reg msg[8] = {A64_R14, A64_R15, A64_R16, A64_R17, A64_R19, A64_R20, A64_R21, A64_R22};

/* w = imm in one instruction when a half is all zeros or all ones, else movz + movk */
static void mov_w(a64_asm *as, a64_reg rd, uint32_t imm)
{
    uint32_t lo = imm & 0xffff, hi = imm >> 16;
    if (hi == 0xffff)
        a64_movn(as, A64_W32, rd, ~imm & 0xffff, 0);
    else if (lo == 0xffff)
        a64_movn(as, A64_W32, rd, ~imm >> 16, 1);
    else if (hi == 0)
        a64_movz(as, A64_W32, rd, lo, 0);
    else if (lo == 0)
        a64_movz(as, A64_W32, rd, hi, 1);
    else {
        a64_movz(as, A64_W32, rd, lo, 0);
        a64_movk(as, A64_W32, rd, hi, 1);
    }
}

/* x8 = word k of the block */
static void word(a64_asm *as, int k)
{
    if (k % 2 == 0)
        a64_ubfm(as, A64_X64, WORD, msg[k / 2], 0, 31);  /* ubfx x8, xN, #0, #32 */
    else
        a64_ubfm(as, A64_X64, WORD, msg[k / 2], 32, 63); /* lsr x8, xN, #32 */
}

static void eor_w(a64_asm *as, a64_reg d, a64_reg n, a64_reg m) { a64_eor_reg(as, A64_W32, d, n, m, A64_LSL, 0); }
static void and_w(a64_asm *as, a64_reg d, a64_reg n, a64_reg m) { a64_and_reg(as, A64_W32, d, n, m, A64_LSL, 0); }
static void add_w(a64_asm *as, a64_reg d, a64_reg n, a64_reg m) { a64_add_reg(as, A64_W32, d, n, m, A64_LSL, 0); }

/* One step on (a, b, c, d) = r1..r4 */
static void md5_step(a64_asm *as, int i, a64_reg r1, a64_reg r2, a64_reg r3, a64_reg r4)
{
    const int k = md5_k(i);
    const uint32_t t = md5_t[i];
    a64_reg sum = T10;
    switch (i / 16) {
    case 0: /* F = ((c ^ d) & b) ^ d */
        eor_w(as, T10, r3, r4);
        mov_w(as, T9, t);
        and_w(as, T10, T10, r2);
        add_w(as, T11, r1, T9);
        word(as, k);
        eor_w(as, T10, T10, r4);
        add_w(as, T11, T11, WORD);
        add_w(as, T10, T10, T11);
        break;
    case 1: /* G = (c & ~d) + (b & d) */
        word(as, k);
        mov_w(as, T9, t);
        add_w(as, T11, r1, T9);
        add_w(as, T11, T11, WORD);
        a64_bic_reg(as, A64_W32, T9, r3, r4, A64_LSL, 0);
        and_w(as, T10, r2, r4);
        add_w(as, T9, T9, T11);
        add_w(as, T9, T9, T10);
        sum = T9;
        break;
    case 2: /* H = c ^ d ^ b */
        eor_w(as, T10, r3, r4);
        mov_w(as, T9, t);
        add_w(as, T11, r1, T9);
        word(as, k);
        eor_w(as, T10, T10, r2);
        add_w(as, T11, T11, WORD);
        add_w(as, T10, T10, T11);
        break;
    default: /* I = (b | ~d) ^ c */
        mov_w(as, T10, t);
        a64_orn_reg(as, A64_W32, T9, r2, r4, A64_LSL, 0);
        add_w(as, T11, r1, T10);
        word(as, k);
        eor_w(as, T10, T9, r3);
        add_w(as, T11, T11, WORD);
        add_w(as, T10, T10, T11);
        break;
    }
    a64_extr_w(as, T9, sum, sum, 32 - md5_s[i / 16][i % 4]); /* ror w9, sum, #(32 - s) */
    add_w(as, r1, T9, r2);
}

static void md5_block(a64_asm *as)
{
    const a64_reg w[4] = {A64_R4, A64_R5, A64_R6, A64_R7};
    a64_ldp(as, msg[0], msg[1], BUF, 0);
    a64_ldp(as, msg[2], msg[3], BUF, 16);
    a64_ldp(as, msg[4], msg[5], BUF, 32);
    a64_ldp(as, msg[6], msg[7], BUF, 48);
    for (int i = 0; i < 64; i++)
        md5_step(as, i, w[md5_role(i, 0)], w[md5_role(i, 1)], w[md5_role(i, 2)], w[md5_role(i, 3)]);
}

size_t a64_generate_md5_implCompress(a64_asm *as, bool multi_block)
{
    const size_t entry = a64_asm_pc(as);
    a64_label next_block;
    a64_label_init(&next_block);

    a64_stp_pre(as, A64_R16, A64_R17, A64_SP, -48);
    a64_stp(as, A64_R19, A64_R20, A64_SP, 16);
    a64_stp(as, A64_R21, A64_R22, A64_SP, 32);
    a64_ldp(as, AB, CD, STATE, 0);
    a64_ubfm(as, A64_X64, A64_R4, AB, 0, 31);
    a64_ubfm(as, A64_X64, A64_R5, AB, 32, 63);
    a64_ubfm(as, A64_X64, A64_R6, CD, 0, 31);
    a64_ubfm(as, A64_X64, A64_R7, CD, 32, 63);

    a64_bind(as, &next_block);
    md5_block(as);
    /* A..D += the state's (in AB, CD), then AB, CD = the new state */
    add_w(as, A64_R4, AB, A64_R4);
    a64_ubfm(as, A64_X64, T9, AB, 32, 63);
    add_w(as, A64_R5, T9, A64_R5);
    add_w(as, A64_R6, CD, A64_R6);
    a64_ubfm(as, A64_X64, T11, CD, 32, 63);
    add_w(as, A64_R7, T11, A64_R7);
    a64_orr_reg(as, A64_X64, AB, A64_R4, A64_R5, A64_LSL, 32);
    a64_orr_reg(as, A64_X64, CD, A64_R6, A64_R7, A64_LSL, 32);
    if (multi_block) {
        a64_add_imm(as, A64_X64, BUF, BUF, 64, 0);
        a64m_next_block(as, OFS, LIMIT, 64, &next_block);
    }
    a64_stp(as, AB, CD, STATE, 0);
    a64_ldp(as, A64_R19, A64_R20, A64_SP, 16);
    a64_ldp(as, A64_R21, A64_R22, A64_SP, 32);
    a64_ldp_post(as, A64_R16, A64_R17, A64_SP, 48);
    a64_ret(as, A64_RLR);
    return entry;
}

void a64_emit_md5_block(a64_asm *as) { md5_block(as); }
