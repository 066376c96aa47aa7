/*
 * stubs/aarch64/stubgenerator_aarch64_sha3.c — the SHA-3 stub generators
 * (HotSpot's generate_sha3_implCompress, JDK-8252204, and
 * generate_sha3_implCompress_gpr, JDK-8337666). See the header and
 * docs/stubs.md for the register maps and instruction counts, and keccak_steps.h
 * for the round they compute.
 */
#include "stubgenerator_aarch64.h"

#include "keccak_steps.h"
#include "macroassembler_aarch64.h"

/* The 24 Keccak round constants the stubs load (keccak_steps.h). */
const uint64_t a64_sha3_round_consts[24] = KECCAK_ROUND_CONSTS;

/* The lane whose rho+pi result lands in lane j (pi's inverse). */
static int pi_source(int j)
{
    for (int i = 0; i < 25; i++)
        if (keccak_pi(i) == j)
            return i;
    return -1; /* unreachable: pi is a permutation */
}

bool a64_platform_reserves_r18(void)
{
#if defined(MINIVM_A64_R18_RESERVED) || defined(__APPLE__) || defined(_WIN32)
    return true;
#else
    return false;
#endif
}

/* Arguments (stubroutines.h). */
#define BUF        A64_C_RARG0
#define STATE      A64_C_RARG1
#define BLOCK_SIZE A64_C_RARG2
#define OFS        A64_C_RARG3
#define LIMIT      A64_C_RARG4

/* Absorbing a block is the same for both variants (below, after the GPR lane map). */
static void absorb_block(a64_asm *as, bool simd, a64_label *done);

/* ==== SIMD variant ========================================================= */

/*
 * Lanes: A[i] in the low 64 bits of v<i>. Temporaries v25..v31: the column
 * parities C and then D (d0 v30, d1 v25, d2 v26, d3 v27, d4 v28), ten rho+pi
 * results that cannot go to their lane's register yet, the round constant.
 * 66 instructions: 10 eor3, 5 rax1, 1 eor + 24 xar, 25 bcax, 1 eor (+ ld1r).
 */
typedef enum { K_EOR3, K_RAX1, K_EOR, K_XAR, K_BCAX, K_RC } simd_kind;
typedef struct { simd_kind k; int d, n, m, a; } simd_op; /* K_XAR: a = source lane */

/*
 * One round, in order. The register allocation is the whole puzzle: rho+pi
 * writes B[j] into the register its source lane just freed (a chain that
 * follows pi backwards), except where that register is still to be read;
 * those B values go to temporaries whose theta value is dead (v29, v31, and
 * the D registers after their last use). chi then writes every new A[j] to
 * v<j>, row 4 first, in an order where each destination holds nothing still
 * needed. Checked against the C reference by tests/test_checkasm.c on QEMU.
 */
static const simd_op simd_round[] = {
    /* theta: C[x] into v25 + x */
    {K_EOR3, 29, 4, 9, 14},  {K_EOR3, 26, 1, 6, 11},  {K_EOR3, 28, 3, 8, 13},
    {K_EOR3, 25, 0, 5, 10},  {K_EOR3, 27, 2, 7, 12},
    {K_EOR3, 29, 29, 19, 24}, {K_EOR3, 26, 26, 16, 21}, {K_EOR3, 28, 28, 18, 23},
    {K_EOR3, 25, 25, 15, 20}, {K_EOR3, 27, 27, 17, 22},
    /* D[x] = C[x-1] ^ rol(C[x+1], 1), each C read before it is overwritten */
    {K_RAX1, 30, 29, 26, 0},  /* d0 = c4 ^ rol(c1) */
    {K_RAX1, 26, 26, 28, 0},  /* d2 = c1 ^ rol(c3) */
    {K_RAX1, 28, 28, 25, 0},  /* d4 = c3 ^ rol(c0) */
    {K_RAX1, 25, 25, 27, 0},  /* d1 = c0 ^ rol(c2) */
    {K_RAX1, 27, 27, 29, 0},  /* d3 = c2 ^ rol(c4) */
    /* rho+pi: {dest register, source lane}; D of the source lane's column */
    {K_EOR, 0, 0, 30, 0},     /* B0 = A0 ^ d0 (rho 0, pi 0 -> 0) */
    {K_XAR, 29, 0, 0, 1},     /* B10 -> v29 */
    {K_XAR, 1, 0, 0, 6},      {K_XAR, 6, 0, 0, 9},    {K_XAR, 9, 0, 0, 22},
    {K_XAR, 22, 0, 0, 14},    {K_XAR, 14, 0, 0, 20},
    {K_XAR, 31, 0, 0, 2},     /* B20 -> v31 */
    {K_XAR, 2, 0, 0, 12},     {K_XAR, 12, 0, 0, 13},  {K_XAR, 13, 0, 0, 19},
    {K_XAR, 19, 0, 0, 23},    {K_XAR, 23, 0, 0, 15},  {K_XAR, 15, 0, 0, 4},
    {K_XAR, 28, 0, 0, 24},    /* B4 -> v28 (d4's last use) */
    {K_XAR, 24, 0, 0, 21},
    {K_XAR, 8, 0, 0, 8},      /* B21 -> v8 */
    {K_XAR, 4, 0, 0, 16},     /* B8 -> v4 */
    {K_XAR, 16, 0, 0, 5},     {K_XAR, 5, 0, 0, 3},
    {K_XAR, 27, 0, 0, 18},    /* B3 -> v27 (d3's last use) */
    {K_XAR, 3, 0, 0, 17},     /* B18 -> v3 */
    {K_XAR, 25, 0, 0, 11},    /* B17 -> v25 (d1's last use) */
    {K_XAR, 26, 0, 0, 7},     /* B11 -> v26 (d2's last use) */
    {K_XAR, 30, 0, 0, 10},    /* B7 -> v30 (d0's last use) */
    /* chi: bcax d = n ^ (m & ~a) = B[x] ^ (B[x+2] & ~B[x+1]) */
    {K_BCAX, 20, 31, 22, 8},  {K_BCAX, 21, 8, 23, 22},  {K_BCAX, 22, 22, 24, 23},
    {K_BCAX, 23, 23, 31, 24}, {K_BCAX, 24, 24, 8, 31},
    {K_RC, 31, 0, 0, 0},      /* v31 free: load the round constant */
    {K_BCAX, 17, 25, 19, 3},  {K_BCAX, 18, 3, 15, 19},  {K_BCAX, 19, 19, 16, 15},
    {K_BCAX, 15, 15, 25, 16}, {K_BCAX, 16, 16, 3, 25},
    {K_BCAX, 10, 29, 12, 26}, {K_BCAX, 11, 26, 13, 12}, {K_BCAX, 12, 12, 14, 13},
    {K_BCAX, 13, 13, 29, 14}, {K_BCAX, 14, 14, 26, 29},
    {K_BCAX, 7, 30, 9, 4},    {K_BCAX, 8, 4, 5, 9},     {K_BCAX, 9, 9, 6, 5},
    {K_BCAX, 5, 5, 30, 6},    {K_BCAX, 6, 6, 4, 30},
    {K_BCAX, 3, 27, 0, 28},   {K_BCAX, 4, 28, 1, 0},    {K_BCAX, 0, 0, 2, 1},
    {K_BCAX, 1, 1, 27, 2},    {K_BCAX, 2, 2, 28, 27},
    /* iota */
    {K_EOR, 0, 0, 31, 0},
};

/* The register holding D[x] when rho+pi runs. */
static const int simd_d_reg[5] = {30, 25, 26, 27, 28};

static void keccak_round_simd(a64_asm *as, a64_reg rc)
{
    for (size_t i = 0; i < sizeof simd_round / sizeof simd_round[0]; i++) {
        const simd_op *o = &simd_round[i];
        a64_vreg d = (a64_vreg)o->d, n = (a64_vreg)o->n, m = (a64_vreg)o->m, a = (a64_vreg)o->a;
        switch (o->k) {
        case K_EOR3: a64_eor3(as, d, n, m, a); break;
        case K_RAX1: a64_rax1(as, d, n, m); break;
        case K_EOR: a64_eor_v(as, A64_T16B, d, n, m); break;
        case K_BCAX: a64_bcax(as, d, n, m, a); break;
        case K_RC: a64_ld1r_post(as, d, A64_T2D, rc, 8); break;
        case K_XAR: {
            int lane = o->a; /* xar rotates right: rol by r is ror by 64 - r */
            a64_xar(as, d, (a64_vreg)lane, (a64_vreg)simd_d_reg[lane % 5], (64 - keccak_rho[lane]) % 64);
            break;
        }
        }
    }
}

static void generate_sha3_simd(a64_asm *as, bool multi_block)
{
    a64_label sha3_loop, rounds24_loop;
    a64_label_init(&sha3_loop);
    a64_label_init(&rounds24_loop);
    const a64_reg rounds = A64_RSCRATCH2, rc = A64_R10, lanes = A64_RSCRATCH1;

    /* d8..d15 are callee-saved (their low 64 bits: exactly what the lanes use) */
    a64m_push_d(as, 8);

    /* the state: v0..v24 */
    a64_add_imm(as, A64_X64, lanes, STATE, 32, 0);
    a64_ld1(as, 4, A64_V0, A64_T1D, STATE);
    for (int v = 4; v < 24; v += 4)
        a64_ld1_post(as, 4, (a64_vreg)v, A64_T1D, lanes, 32);
    a64_ld1(as, 1, A64_V24, A64_T1D, lanes);

    a64_bind(as, &sha3_loop);
    a64_movz(as, A64_W32, rounds, 24, 0);
    a64m_movptr(as, rc, (uintptr_t)a64_sha3_round_consts);
    absorb_block(as, true, &rounds24_loop);

    a64_bind(as, &rounds24_loop);
    a64_sub_imm(as, A64_W32, rounds, rounds, 1, 0);
    keccak_round_simd(as, rc);
    a64_cbnz(as, A64_W32, rounds, &rounds24_loop);

    if (multi_block) {
        a64_add_reg(as, A64_W32, OFS, OFS, BLOCK_SIZE, A64_LSL, 0);
        a64_cmp_reg(as, A64_W32, OFS, LIMIT, A64_LSL, 0);
        a64_b_cond(as, A64_LE, &sha3_loop);
        a64_mov_reg(as, A64_W32, A64_R0, OFS);   /* return ofs */
    }

    a64_st1_post(as, 4, A64_V0, A64_T1D, STATE, 32);
    for (int v = 4; v < 24; v += 4)
        a64_st1_post(as, 4, (a64_vreg)v, A64_T1D, STATE, 32);
    a64_st1(as, 1, A64_V24, A64_T1D, STATE);

    a64m_pop_d(as, 8);
    a64_ret(as, A64_RLR);
}

/* ==== GPR variant ========================================================== */

/*
 * Lanes: A[0..14] in x3..x17, A[15..24] in x19..x28 (25 of the 26 general
 * registers a stub may keep; x18 is the platform's). The arguments' registers
 * x0..x2 become temporaries once buf, state and block_size are on the stack,
 * and lr (saved in the frame record) points at the round constants. That
 * leaves no register for a loop counter: it lives in d0 (counting 24.0 down
 * by d1 = 1.0, exact in floating point), as in HotSpot.
 *
 * Frame (above the frame record), 128 bytes:
 *   sp+0 block_size   sp+8 ofs   sp+16 limit   sp+24 buf
 *   sp+32..111 x19..x28   sp+112 state   sp+120 x18 (when used)
 */
static a64_reg gpr_lane(int i)
{
    return i < 15 ? (a64_reg)(A64_R3 + i) : (a64_reg)(A64_R19 + (i - 15));
}

/* ==== absorbing, both variants ============================================== */

/*
 * XOR lanes first..first+n-1 of buf (buf advances) into the state.
 * SIMD: ld1 of up to 4 lanes into v25..v28 (the round's temporaries), eor.
 * GPR: ldp/ldr into lr and x1, free while absorbing (lr is saved in the frame
 * record, state on the stack), eor.
 */
static void absorb_lanes(a64_asm *as, bool simd, int first, int n)
{
    if (simd) {
        for (int k; n > 0; first += k, n -= k) {
            k = n > 4 ? 4 : n;
            a64_ld1_post(as, k, A64_V25, A64_T8B, BUF, 8 * k);
            for (int j = 0; j < k; j++)
                a64_eor_v(as, A64_T8B, (a64_vreg)(first + j), (a64_vreg)(first + j), (a64_vreg)(A64_V25 + j));
        }
        return;
    }
    const a64_reg ta = A64_RLR, tb = A64_R1;
    for (; n >= 2; first += 2, n -= 2) {
        a64_ldp_post(as, ta, tb, BUF, 16);
        a64_eor_reg(as, A64_X64, gpr_lane(first), gpr_lane(first), ta, A64_LSL, 0);
        a64_eor_reg(as, A64_X64, gpr_lane(first + 1), gpr_lane(first + 1), tb, A64_LSL, 0);
    }
    if (n) {
        a64_ldr_post(as, ta, BUF, 8);
        a64_eor_reg(as, A64_X64, gpr_lane(first), gpr_lane(first), ta, A64_LSL, 0);
    }
}

/*
 * Absorb one block: block_size / 8 lanes, then continue at done. Lanes 0..6
 * always; then bits of block_size choose, as in HotSpot: bit 7 set (136,
 * 144, 168) lanes 7..16, then bit 5 (168) lanes 17..20 or bit 4 (144) lane
 * 17; bit 7 clear (72, 104) lanes 7..8, then bit 5 (104) lanes 9..12.
 */
static void absorb_block(a64_asm *as, bool simd, a64_label *done)
{
    a64_label short_blocks, shake128;
    a64_label_init(&short_blocks);
    a64_label_init(&shake128);
    absorb_lanes(as, simd, 0, 7);
    a64_tbz(as, BLOCK_SIZE, 7, &short_blocks);
    absorb_lanes(as, simd, 7, 10);               /* 136: SHA3-256, SHAKE256 */
    a64_tbnz(as, BLOCK_SIZE, 5, &shake128);
    a64_tbz(as, BLOCK_SIZE, 4, done);
    absorb_lanes(as, simd, 17, 1);               /* 144: SHA3-224 */
    a64_b(as, done);
    a64_bind(as, &shake128);
    absorb_lanes(as, simd, 17, 4);               /* 168: SHAKE128 */
    a64_b(as, done);
    a64_bind(as, &short_blocks);
    absorb_lanes(as, simd, 7, 2);                /* 72: SHA3-512 */
    a64_tbz(as, BLOCK_SIZE, 5, done);
    absorb_lanes(as, simd, 9, 4);                /* 104: SHA3-384 */
}

typedef struct gpr_regs {
    a64_reg t0, t1, t2;  /* x2, x0, x1 */
    a64_reg t3, t4;      /* fp, x18 — or lanes 4 and 9, spilled */
    bool spill;
    a64_reg rc;          /* lr */
} gpr_regs;

/* c = A[x] ^ A[x+5] ^ A[x+10] ^ A[x+15] ^ A[x+20], through tmp */
static void column_parity(a64_asm *as, a64_reg c, a64_reg tmp, int x)
{
    a64m_eor3(as, tmp, gpr_lane(x), gpr_lane(x + 5), gpr_lane(x + 10));
    a64m_eor3(as, c, tmp, gpr_lane(x + 15), gpr_lane(x + 20));
}

static void apply_d(a64_asm *as, int x, a64_reg d)
{
    for (int y = 0; y < 5; y++)
        a64_eor_reg(as, A64_X64, gpr_lane(x + 5 * y), gpr_lane(x + 5 * y), d, A64_LSL, 0);
}

static void keccak_round_gpr(a64_asm *as, const gpr_regs *r)
{
    /* theta: five parities and five D with five temporaries. c4 and c1 come
       first, so that lanes 4 and 9 (column 4, whose D is applied last) can be
       spilled to free two registers when fp and x18 are not available. */
    column_parity(as, r->t0, r->t1, 4);          /* t0 = c4 */
    column_parity(as, r->t1, r->t2, 1);          /* t1 = c1 */
    a64m_rax1(as, r->t2, r->t0, r->t1);          /* t2 = d0 */
    if (r->spill)
        a64_stp_pre(as, gpr_lane(4), gpr_lane(9), A64_SP, -16);
    column_parity(as, r->t4, r->t3, 0);          /* t4 = c0 */
    apply_d(as, 0, r->t2);
    column_parity(as, r->t2, r->t3, 2);          /* t2 = c2 */
    a64m_rax1(as, r->t3, r->t4, r->t2);          /* t3 = d1 */
    apply_d(as, 1, r->t3);
    a64m_rax1(as, r->t3, r->t2, r->t0);          /* t3 = d3 */
    column_parity(as, r->t0, r->t2, 3);          /* t0 = c3 */
    apply_d(as, 3, r->t3);
    a64m_rax1(as, r->t2, r->t1, r->t0);          /* t2 = d2 */
    apply_d(as, 2, r->t2);
    a64m_rax1(as, r->t1, r->t0, r->t4);          /* t1 = d4 */
    if (r->spill)
        a64_ldp_post(as, gpr_lane(4), gpr_lane(9), A64_SP, 16);
    apply_d(as, 4, r->t1);

    /* rho+pi: one cycle of 24 lanes; follow it backwards from lane 10, whose
       result (B7) waits in t0 until lane 7's register is free. */
    a64m_rol(as, r->t0, gpr_lane(10), keccak_rho[10]);
    int dst = 10;
    for (int src = pi_source(dst); src != 10; dst = src, src = pi_source(dst))
        a64m_rol(as, gpr_lane(dst), gpr_lane(src), keccak_rho[src]);
    a64_mov_reg(as, A64_X64, gpr_lane(dst), r->t0);

    /* chi, row by row */
    for (int y = 0; y < 25; y += 5)
        a64m_bcax5(as, gpr_lane(y), gpr_lane(y + 1), gpr_lane(y + 2), gpr_lane(y + 3), gpr_lane(y + 4),
                   r->t0, r->t1, r->t2);

    /* iota */
    a64_ldr_post(as, r->t1, r->rc, 8);
    a64_eor_reg(as, A64_X64, gpr_lane(0), gpr_lane(0), r->t1, A64_LSL, 0);
}

/* fp and x18 are temporaries unless PreserveFramePointer or the platform forbids either */
static gpr_regs gpr_regs_for(const a64_sha3_config *cfg)
{
    const bool use_fp_r18 = !cfg->preserve_fp && !cfg->r18_reserved;
    return (gpr_regs){
        .t0 = A64_R2, .t1 = A64_R0, .t2 = A64_R1,
        .t3 = use_fp_r18 ? A64_RFP : gpr_lane(4),
        .t4 = use_fp_r18 ? A64_RPLATFORM : gpr_lane(9),
        .spill = !use_fp_r18,
        .rc = A64_RLR,
    };
}

enum { GPR_FRAME = 128, F_BLOCK_SIZE = 0, F_OFS = 8, F_BUF = 24, F_SAVED = 32, F_STATE = 112 };

/* x19..x28 to their frame slots (save) or back (restore) */
static void gpr_callee_saved(a64_asm *as, bool save)
{
    for (int i = 0; i < 10; i += 2)
        (save ? a64_stp : a64_ldp)(as, (a64_reg)(A64_R19 + i), (a64_reg)(A64_R20 + i), A64_SP, F_SAVED + 8 * i);
}

/* The state pointer to its frame slot (save) or back, with x18 beside it when it serves as a temporary */
static void gpr_state_pointer(a64_asm *as, bool save, bool with_r18)
{
    if (with_r18)
        (save ? a64_stp : a64_ldp)(as, STATE, A64_RPLATFORM, A64_SP, F_STATE);
    else
        (save ? a64_str : a64_ldr)(as, STATE, A64_SP, F_STATE);
}

/* The 25 lanes from the state into their registers (load) or back */
static void gpr_state_lanes(a64_asm *as, bool load)
{
    for (int i = 0; i < 24; i += 2)
        (load ? a64_ldp : a64_stp)(as, gpr_lane(i), gpr_lane(i + 1), STATE, 8 * i);
    (load ? a64_ldr : a64_str)(as, gpr_lane(24), STATE, 8 * 24);
}

static void generate_sha3_gpr(a64_asm *as, const a64_sha3_config *cfg)
{
    const gpr_regs r = gpr_regs_for(cfg);
    const bool use_fp_r18 = !r.spill;
    a64_label sha3_loop, rounds_preloop, loop_body;
    a64_label_init(&sha3_loop);
    a64_label_init(&rounds_preloop);
    a64_label_init(&loop_body);

    a64m_enter(as);
    a64_str_pre(as, BLOCK_SIZE, A64_SP, -GPR_FRAME);
    if (cfg->multi_block)
        a64_stp(as, OFS, LIMIT, A64_SP, F_OFS);
    gpr_callee_saved(as, true);
    gpr_state_pointer(as, true, use_fp_r18);
    gpr_state_lanes(as, true);

    a64_bind(as, &sha3_loop);
    absorb_block(as, false, &rounds_preloop);

    a64_bind(as, &rounds_preloop);
    a64_str(as, BUF, A64_SP, F_BUF);
    a64_movz(as, A64_X64, r.rc, 0x4038, 3);      /* 24.0 */
    a64_fmov_dx(as, A64_V0, r.rc);
    a64_movz(as, A64_X64, r.rc, 0x3ff0, 3);      /* 1.0 */
    a64_fmov_dx(as, A64_V1, r.rc);
    a64m_movptr(as, r.rc, (uintptr_t)a64_sha3_round_consts);

    a64_bind(as, &loop_body);
    keccak_round_gpr(as, &r);
    a64_fsub_d(as, A64_V0, A64_V0, A64_V1);
    a64_fcmp_d0(as, A64_V0);
    a64_b_cond(as, A64_NE, &loop_body);

    if (cfg->multi_block) {
        a64_ldr(as, BLOCK_SIZE, A64_SP, F_BLOCK_SIZE);
        a64_ldp(as, r.t2, r.rc, A64_SP, F_OFS);   /* ofs, limit */
        a64_add_reg(as, A64_W32, r.t2, r.t2, BLOCK_SIZE, A64_LSL, 0);
        a64_cmp_reg(as, A64_W32, r.t2, r.rc, A64_LSL, 0);
        a64_str(as, r.t2, A64_SP, F_OFS);
        a64_ldr(as, BUF, A64_SP, F_BUF);
        a64_b_cond(as, A64_LE, &sha3_loop);
        a64_mov_reg(as, A64_W32, A64_R0, r.t2);   /* return ofs */
    }

    gpr_state_pointer(as, false, use_fp_r18);
    gpr_state_lanes(as, false);
    gpr_callee_saved(as, false);
    a64_add_imm(as, A64_X64, A64_SP, A64_SP, GPR_FRAME, 0);
    a64m_leave(as);
    a64_ret(as, A64_RLR);
}

/* ==== double_keccak ========================================================== */

/*
 * HotSpot 25's generate_double_keccak (stubGenerator_aarch64.cpp): two states at once, lane i
 * of state0 in element 0 of v<i>, of state1 in element 1 (ld4/ld1 single structures, which
 * leave the other element alone), then the SIMD stub's round unchanged: every instruction of
 * it already works on both 64-bit elements (eor3, bcax on 16 bytes, rax1 and xar on 2d, the
 * round constant by ld1r to both). x0 state0, x1 state1; x8 the lanes' pointer, then the round
 * constants; w9 the rounds left. Frame record, d8..d15 saved; returns 0.
 */
static void double_keccak_lanes(a64_asm *as, bool load, a64_reg state, int index)
{
    const a64_reg lanes = A64_RSCRATCH1;
    if (load) {
        a64_add_imm(as, A64_X64, lanes, state, 32, 0);
        a64_ldn_lane_d(as, 4, A64_V0, index, state);
        for (int v = 4; v < 24; v += 4)
            a64_ldn_lane_d_post(as, 4, (a64_vreg)v, index, lanes, 32);
        a64_ldn_lane_d(as, 1, A64_V24, index, lanes);
    } else { /* the state pointer itself walks the lanes: it is not needed after */
        for (int v = 0; v < 24; v += 4)
            a64_stn_lane_d_post(as, 4, (a64_vreg)v, index, state, 32);
        a64_stn_lane_d(as, 1, A64_V24, index, state);
    }
}

size_t a64_generate_double_keccak(a64_asm *as)
{
    size_t entry = a64_asm_pc(as);
    const a64_reg rounds = A64_RSCRATCH2, rc = A64_RSCRATCH1;
    a64_label rounds24_loop;
    a64_label_init(&rounds24_loop);
    a64m_enter(as);
    a64m_push_d(as, 8);
    double_keccak_lanes(as, true, A64_C_RARG0, 0);
    double_keccak_lanes(as, true, A64_C_RARG1, 1);
    a64_movz(as, A64_W32, rounds, 24, 0);
    a64m_movptr(as, rc, (uintptr_t)a64_sha3_round_consts);
    a64_bind(as, &rounds24_loop);
    a64_sub_imm(as, A64_W32, rounds, rounds, 1, 0);
    keccak_round_simd(as, rc);
    a64_cbnz(as, A64_W32, rounds, &rounds24_loop);
    double_keccak_lanes(as, false, A64_C_RARG0, 0);
    double_keccak_lanes(as, false, A64_C_RARG1, 1);
    a64m_pop_d(as, 8);
    a64_add_imm(as, A64_X64, A64_SP, A64_RFP, 0, 0); /* mov sp, fp: HotSpot's leave */
    a64m_leave(as);
    a64_mov_reg(as, A64_X64, A64_R0, A64_ZR);
    a64_ret(as, A64_RLR);
    return entry;
}

void a64_emit_double_keccak_round(a64_asm *as) { keccak_round_simd(as, A64_RSCRATCH1); }

size_t a64_generate_sha3_implCompress(a64_asm *as, const a64_sha3_config *cfg)
{
    size_t entry = a64_asm_pc(as);
    if (cfg->simd)
        generate_sha3_simd(as, cfg->multi_block);
    else
        generate_sha3_gpr(as, cfg);
    return entry;
}

void a64_emit_sha3_round(a64_asm *as, const a64_sha3_config *cfg)
{
    /* the round as the stub's loop body has it, with the loop control:
       SIMD sub + cbnz, GPR fsub + fcmp + b.ne (to the round's first word) */
    a64_label top;
    a64_label_init(&top);
    a64_bind(as, &top);
    if (cfg->simd) {
        a64_sub_imm(as, A64_W32, A64_RSCRATCH2, A64_RSCRATCH2, 1, 0);
        keccak_round_simd(as, A64_R10);
        a64_cbnz(as, A64_W32, A64_RSCRATCH2, &top);
    } else {
        const gpr_regs r = gpr_regs_for(cfg);
        keccak_round_gpr(as, &r);
        a64_fsub_d(as, A64_V0, A64_V0, A64_V1);
        a64_fcmp_d0(as, A64_V0);
        a64_b_cond(as, A64_NE, &top);
    }
}

int a64_sha3_round_insns(const a64_sha3_config *cfg)
{
    uint32_t scratch[512];
    a64_asm as;
    a64_asm_init(&as, scratch, sizeof scratch / sizeof scratch[0]);
    as.cb.fatal = false;
    a64_emit_sha3_round(&as, cfg);
    return a64_asm_failed(&as) ? -1 : (int)a64_asm_pc(&as);
}
