/*
 * stubs/x86_64/stubgenerator_x86_64_sha3.c — the x86-64 SHA-3 stub generators.
 * See the header and docs/stubs.md for the register maps and counts, and
 * keccak_steps.h for the round they compute.
 */
#include "stubgenerator_x86_64.h"

#include "keccak_steps.h"
#include "macroassembler_x86_64.h"

/* The 24 Keccak round constants the stubs load (keccak_steps.h), aligned for the AVX-512 stub's
   masked 8-byte loads. */
_Alignas(64) const uint64_t x64_sha3_round_consts[24] = KECCAK_ROUND_CONSTS;

/* Arguments (System V), and the return value. */
#define BUF        X64_C_RARG0
#define STATE      X64_C_RARG1
#define BLOCK_SIZE X64_C_RARG2
#define OFS        X64_C_RARG3
#define LIMIT      X64_C_RARG4

/* The block-size dispatch both variants share: after the first `lanes[0]`
   lanes, each size adds the lanes up to its own (72, 104, 136, 144, 168 bytes
   are 9, 13, 17, 18, 21 lanes). */
static const struct { int block_size, lanes; } block_sizes[] = {{72, 9}, {104, 13}, {136, 17}, {144, 18}, {168, 21}};
#define NBLOCK_SIZES (sizeof block_sizes / sizeof block_sizes[0])

/* ======================================================================================
 * GPR: the state in memory, two buffers (the caller's and one on the stack)
 * ======================================================================================
 *
 * Registers during a round:
 *   C[0..4] = B[0..4]   rax rbx rcx rdx r14   column parities, then one row of B
 *   D[0..4]             r8 r9 r10 r11 r12     theta's D, live through the round
 *   T                   rdi                   chi's result before its store
 *   RC                  r13                   the next round constant
 *   STATE               rsi                   the caller's lanes
 * The stack: [rsp + 0, 200) the second buffer; then the spilled arguments.
 * Frame: push rbp; mov rbp, rsp; push rbx, r12..r15 (the callee-saved used).
 */
static const x64_reg gpr_b[5] = {X64_RAX, X64_RBX, X64_RCX, X64_RDX, X64_R14};
static const x64_reg gpr_d[5] = {X64_R8, X64_R9, X64_R10, X64_R11, X64_R12};
#define GPR_T  X64_RDI
#define GPR_RC X64_R13
#define GPR_TMP X64_R15 /* free: the loop's end pointer */

enum {
    GPR_COPY = 0,               /* the second state buffer, 25 lanes */
    GPR_SAVED_BUF = 200,        /* buf, block_size (zero-extended), ofs, limit */
    GPR_SAVED_BLOCK_SIZE = 208,
    GPR_SAVED_OFS = 216,
    GPR_SAVED_LIMIT = 224,
    GPR_FRAME = 232,            /* keeps rsp 16-byte aligned after the six pushes */
};

/* One round from the lanes at [src] to the lanes at [dst]; the round
   constant is [RC + rc_disp]. */
static void gpr_round(x64_asm *as, const x64_sha3_config *cfg, x64_reg src, int32_t src_disp, x64_reg dst,
                      int32_t dst_disp, int32_t rc_disp)
{
    /* theta: C[x], then D[x] = C[x-1] ^ rol(C[x+1], 1) */
    for (int x = 0; x < 5; x++) {
        x64_mov_rm(as, gpr_b[x], x64_at(src, src_disp + 8 * x));
        for (int y = 1; y < 5; y++)
            x64_alu_rm(as, X64_XOR, gpr_b[x], x64_at(src, src_disp + 8 * (x + 5 * y)));
    }
    for (int x = 0; x < 5; x++) {
        x64m_rol_to(as, gpr_d[x], gpr_b[(x + 1) % 5], 1, cfg->bmi2);
        x64_alu_rr(as, X64_XOR, gpr_d[x], gpr_b[(x + 4) % 5]);
    }
    /* rho, pi and chi, one output row Y at a time: output lane X + 5Y comes
       from lane i = (X + 3Y) % 5 + 5X, column (X + 3Y) % 5 */
    for (int y = 0; y < 5; y++) {
        for (int x = 0; x < 5; x++) {
            int col = (x + 3 * y) % 5, i = col + 5 * x;
            x64_mov_rm(as, gpr_b[x], x64_at(src, src_disp + 8 * i));
            x64_alu_rr(as, X64_XOR, gpr_b[x], gpr_d[col]);
            x64m_rol_to(as, gpr_b[x], gpr_b[x], keccak_rho[i], cfg->bmi2);
        }
        for (int x = 0; x < 5; x++) {
            x64m_andn_to(as, GPR_T, gpr_b[(x + 1) % 5], gpr_b[(x + 2) % 5], cfg->bmi1);
            x64_alu_rr(as, X64_XOR, GPR_T, gpr_b[x]);
            if (x == 0 && y == 0) /* iota */
                x64_alu_rm(as, X64_XOR, GPR_T, x64_at(GPR_RC, rc_disp));
            x64_mov_mr(as, x64_at(dst, dst_disp + 8 * (x + 5 * y)), GPR_T);
        }
    }
}

/* The absorb of block_size/8 lanes, dispatching on the size: xor_lane(as, i) for
   lanes 0..8, then, unless block_size is 72, lanes 9..12, and so on up to 168. */
static void absorb_lanes(x64_asm *as, void (*xor_lane)(x64_asm *as, int lane))
{
    x64_label done;
    x64_label_init(&done);
    int lane = 0;
    for (size_t k = 0; k < NBLOCK_SIZES; k++) {
        for (; lane < block_sizes[k].lanes; lane++)
            xor_lane(as, lane);
        if (k + 1 < NBLOCK_SIZES) {
            x64_alu_ri_32(as, X64_CMP, BLOCK_SIZE, block_sizes[k].block_size);
            x64_jcc(as, X64_E, &done);
        }
    }
    x64_bind(as, &done);
}

/* [STATE + 8i] ^= [BUF + 8i]: the bytes are little-endian lanes, as x86-64 loads them. */
static void gpr_xor_lane(x64_asm *as, int lane)
{
    x64_mov_rm(as, X64_RAX, x64_at(BUF, 8 * lane));
    x64_alu_mr(as, X64_XOR, x64_at(STATE, 8 * lane), X64_RAX);
}

/* XOR block_size/8 lanes of [BUF] into [STATE] (the GPR and AVX2 stubs absorb in memory). */
static void gpr_absorb(x64_asm *as) { absorb_lanes(as, gpr_xor_lane); }

/* every callee-saved GPR: the lanes and the parities take them all */
static const x64_reg callee_saved[] = {X64_RBX, X64_R12, X64_R13, X64_R14, X64_R15};
static const x64m_frame gpr_frame = {callee_saved, 5, GPR_FRAME, 0};

static size_t generate_gpr(x64_asm *as, const x64_sha3_config *cfg)
{
    size_t entry = x64m_stub_begin(as, &gpr_frame);
    /* the int arguments' upper halves are garbage: zero-extend what is used as 64 bits */
    x64_mov_rr_32(as, BLOCK_SIZE, BLOCK_SIZE);
    x64_mov_mr(as, x64_at(X64_RSP, GPR_SAVED_BUF), BUF);
    x64_mov_mr(as, x64_at(X64_RSP, GPR_SAVED_BLOCK_SIZE), BLOCK_SIZE);
    if (cfg->multi_block) {
        x64_mov_mr_32(as, x64_at(X64_RSP, GPR_SAVED_OFS), OFS);
        x64_mov_mr_32(as, x64_at(X64_RSP, GPR_SAVED_LIMIT), LIMIT);
    }

    x64_label block, rounds;
    x64_label_init(&block);
    x64_label_init(&rounds);
    x64_bind(as, &block);
    x64_mov_rm(as, BUF, x64_at(X64_RSP, GPR_SAVED_BUF));
    x64_mov_rm(as, BLOCK_SIZE, x64_at(X64_RSP, GPR_SAVED_BLOCK_SIZE));
    gpr_absorb(as);

    /* 24 rounds, two a trip: state -> copy -> state, so no lane is ever copied */
    x64m_mov_address(as, GPR_RC, x64_sha3_round_consts);
    x64_bind(as, &rounds);
    gpr_round(as, cfg, STATE, 0, X64_RSP, GPR_COPY, 0);
    gpr_round(as, cfg, X64_RSP, GPR_COPY, STATE, 0, 8);
    x64_alu_ri(as, X64_ADD, GPR_RC, 16);
    x64m_mov_address(as, GPR_TMP, x64_sha3_round_consts + 24);
    x64_alu_rr(as, X64_CMP, GPR_RC, GPR_TMP);
    x64_jcc(as, X64_NE, &rounds);

    /* the arguments live on the stack between blocks: every register holds a lane */
    if (cfg->multi_block) {
        x64_mov_rm(as, BUF, x64_at(X64_RSP, GPR_SAVED_BUF));
        x64_mov_rm(as, BLOCK_SIZE, x64_at(X64_RSP, GPR_SAVED_BLOCK_SIZE));
    }
    const x64m_block_loop loop = {.buf = BUF, .block_size = BLOCK_SIZE, .ofs = X64_NOREG, .buf_slot = GPR_SAVED_BUF,
                                  .ofs_slot = GPR_SAVED_OFS, .limit_slot = GPR_SAVED_LIMIT, .tmp = X64_RAX,
                                  .tmp2 = GPR_TMP};
    x64m_next_block_or_return(as, cfg->multi_block, &loop, &block);
    x64m_stub_end(as, &gpr_frame, false);
    return entry;
}

/* The 24 rounds of the lanes and AVX2 stubs: round, then count down in left (its sub sets the flags
   the loop's jne reads). */
static void count_24_rounds(x64_asm *as, x64_reg left, void (*round)(x64_asm *as))
{
    x64_label rounds;
    x64_label_init(&rounds);
    x64_mov_ri(as, left, 24);
    x64_bind(as, &rounds);
    round(as);
    x64_alu_ri_32(as, X64_SUB, left, 1);
    x64_jcc(as, X64_NE, &rounds);
}

/* The vector stubs keep their arguments in registers (block_size already zero-extended). */
static const x64m_block_loop vector_loop = {.buf = BUF, .block_size = BLOCK_SIZE, .ofs = OFS, .limit = LIMIT,
                                            .buf_slot = -1};

/* ======================================================================================
 * AVX-512: HotSpot's JDK-8341527 row layout
 * ======================================================================================
 *
 * Row y (lanes 5y..5y+4) in the low five qwords of zmm0..zmm4; zmm5, zmm6
 * temporaries; zmm17..zmm31 the permutation indices and rotation counts
 * below. Masks k5 = 0x1f (five lanes) down to k1 = 0x01: k5 for the row
 * loads and stores, k1..k5 to absorb the last row of each block size, k1 for
 * iota. r10 the table, r11 the round constants, r13 the next constant, r14 the
 * rounds left.
 */
_Alignas(64) static const uint64_t avx512_perms_and_rots[15 * 8] = {
    /* vpermt2q indices of the combined rho and pi steps */
    9, 2, 11, 0, 1, 2, 3, 4,    /* steps 1 and 3 */
    8, 1, 9, 2, 11, 4, 12, 0,   /* step 2 */
    9, 2, 10, 3, 11, 4, 12, 0,  /* step 4 */
    8, 9, 2, 3, 4, 5, 6, 7,     /* step 5 */
    0, 8, 9, 10, 15, 0, 0, 0,   /* step 6 */
    4, 5, 8, 9, 6, 7, 10, 11,   /* steps 7 and 8 */
    0, 1, 2, 3, 13, 0, 0, 0,    /* step 9 */
    2, 3, 0, 1, 11, 0, 0, 0,    /* step 10 */
    4, 5, 6, 7, 14, 0, 0, 0,    /* step 11 */
    14, 15, 12, 13, 4, 0, 0, 0, /* step 12 */
    /* vprolvq counts after step 5 */
    1, 6, 62, 55, 28, 20, 27, 36,
    3, 45, 10, 15, 25, 8, 39, 41,
    44, 43, 21, 18, 2, 61, 56, 14,
    /* the row rotations of theta and chi */
    12, 8, 9, 10, 11, 5, 6, 7,
    9, 10, 11, 12, 8, 5, 6, 7,
};

#define Z(n) X64_XMM##n
#define TABLE       X64_R10
#define ROUND_CONST X64_R11
#define CONST_NEXT  X64_R13
#define ROUNDS_LEFT X64_R14

static void evpermt2q(x64_asm *as, x64_vreg dst, x64_vreg idx, x64_vreg b)
{
    x64_evop_rrr(as, X64_VPERMT2Q, X64_L512, dst, X64_K0, false, idx, b);
}

static void copy512(x64_asm *as, x64_vreg dst, x64_vreg src) { x64_evmovdqu16_rr(as, X64_L512, dst, src); }

/*
 * One round on nsets states at once (HotSpot's double_keccak interleaves two: each
 * instruction for the first state, zmm0..zmm6, then for the second, zmm10..zmm16; the
 * permutation and rotation vectors zmm17..zmm31 are shared). S(n) is state set s's
 * register n (0..6); T(n) a shared one.
 */
#define S(n) ((x64_vreg)(X64_XMM0 + (n) + 10 * s))
#define T(n) X64_XMM##n
#define EACH(stmt)                        \
    do {                                  \
        for (int s = 0; s < nsets; s++) { \
            stmt;                         \
        }                                 \
    } while (0)

static void avx512_round_sets(x64_asm *as, int nsets, x64_reg next)
{
    /* theta: C in zmm5 (xor3 twice), C' = rol(C, 1) in zmm6, both rotated by a lane */
    EACH(copy512(as, S(5), S(0)));
    EACH(x64_vpternlogq(as, X64_L512, S(5), S(1), S(2), 0x96));
    EACH(x64_vpternlogq(as, X64_L512, S(5), S(3), S(4), 0x96));
    EACH(x64_vprolq(as, X64_L512, S(6), S(5), 1));
    EACH(evpermt2q(as, S(5), T(30), S(5)));
    EACH(evpermt2q(as, S(6), T(31), S(6)));
    for (int r = 0; r < 5; r++)
        EACH(x64_vpternlogq(as, X64_L512, S(r), S(5), S(6), 0x96));
    /* rho and pi: the 24 moving lanes, then their rotations */
    EACH(evpermt2q(as, S(4), T(17), S(3)));
    EACH(evpermt2q(as, S(3), T(18), S(2)));
    EACH(evpermt2q(as, S(2), T(17), S(1)));
    EACH(evpermt2q(as, S(1), T(19), S(0)));
    EACH(evpermt2q(as, S(4), T(20), S(2)));
    EACH(x64_evop_rrr(as, X64_VPROLVQ, X64_L512, S(1), X64_K0, false, S(1), T(27)));
    EACH(x64_evop_rrr(as, X64_VPROLVQ, X64_L512, S(3), X64_K0, false, S(3), T(28)));
    EACH(x64_evop_rrr(as, X64_VPROLVQ, X64_L512, S(4), X64_K0, false, S(4), T(29)));
    EACH(copy512(as, S(2), S(1)));
    EACH(copy512(as, S(5), S(3)));
    EACH(evpermt2q(as, S(0), T(21), S(4)));
    EACH(evpermt2q(as, S(1), T(22), S(3)));
    EACH(evpermt2q(as, S(5), T(22), S(2)));
    EACH(copy512(as, S(3), S(1)));
    EACH(copy512(as, S(2), S(5)));
    EACH(evpermt2q(as, S(1), T(23), S(4)));
    EACH(evpermt2q(as, S(2), T(24), S(4)));
    EACH(evpermt2q(as, S(3), T(25), S(4)));
    EACH(evpermt2q(as, S(4), T(26), S(5)));
    /* chi row by row (vpternlogq 0xb4: x ^ (y & ~z)), iota after row 1 as HotSpot */
    for (int r = 0; r < 5; r++) {
        EACH(evpermt2q(as, S(5), T(31), S(r)));
        EACH(evpermt2q(as, S(6), T(31), S(5)));
        EACH(x64_vpternlogq(as, X64_L512, S(r), S(6), S(5), 0xb4));
        if (r == 1) {
            EACH(x64_evop_rrm(as, X64_VPXORQ, X64_L512, S(0), X64_K1, false, S(0), x64_at(next, 0)));
            x64_alu_ri(as, X64_ADD, next, 8);
        }
    }
}
#undef EACH
#undef T
#undef S

static void avx512_round(x64_asm *as) { avx512_round_sets(as, 1, CONST_NEXT); }

/* The row xors of one block size after row 0: whole rows with k5, the last with k<lanes>. */
static void avx512_absorb_rows(x64_asm *as, int lanes)
{
    for (int row = 1; 5 * row < lanes; row++) {
        int n = lanes - 5 * row < 5 ? lanes - 5 * row : 5;
        x64_evop_rrm(as, X64_VPXORQ, X64_L512, X64_XMM0 + row, (x64_kreg)(X64_K0 + n), false, X64_XMM0 + row,
                     x64_at(BUF, 40 * row));
    }
}

/* The row design's constants, shared by the single and the double stub: the masks k5 = 0x1f (five
   lanes) down to k1 = 0x01 (rax is scratch), and the 15 index and rotation vectors of table into
   zmm17..zmm31. */
static void avx512_masks(x64_asm *as)
{
    x64_mov_ri(as, X64_RAX, 0x1f);
    x64_kmovw_kr(as, X64_K5, X64_RAX);
    for (int k = 1; k <= 4; k++)
        x64_kshiftrw(as, (x64_kreg)(X64_K5 - k), X64_K5, k);
}

static void avx512_load_table(x64_asm *as, x64_reg table)
{
    for (int t = 0; t < 15; t++)
        x64_evmovdqu64_load(as, X64_L512, X64_XMM17 + t, X64_K0, false, x64_at(table, 64 * t));
}

/* HotSpot's: r12..r14 hold the constants' pointer and the loop's counters */
static const x64_reg avx512_saved[] = {X64_R12, X64_R13, X64_R14};
static const x64m_frame avx512_frame = {avx512_saved, 3, 0, 0};

static size_t generate_avx512(x64_asm *as, const x64_sha3_config *cfg)
{
    size_t entry = x64m_stub_begin(as, &avx512_frame);
    x64m_mov_address(as, TABLE, avx512_perms_and_rots);
    x64m_mov_address(as, ROUND_CONST, x64_sha3_round_consts);
    /* the int arguments' upper halves are garbage: block_size is added to buf as 64 bits */
    x64_mov_rr_32(as, BLOCK_SIZE, BLOCK_SIZE);
    avx512_masks(as);
    for (int r = 0; r < 5; r++)
        x64_evmovdqu64_load(as, X64_L512, X64_XMM0 + r, X64_K5, true, x64_at(STATE, 40 * r));
    avx512_load_table(as, TABLE);

    x64_label block, rounds;
    x64_label_init(&block);
    x64_label_init(&rounds);
    x64_bind(as, &block);
    x64_mov_ri(as, ROUNDS_LEFT, 24);
    x64_mov_rr(as, CONST_NEXT, ROUND_CONST);
    /* absorb: row 0 (every size has it whole), then the rows of the block size */
    x64_evop_rrm(as, X64_VPXORQ, X64_L512, Z(0), X64_K5, false, Z(0), x64_at(BUF, 0));
    for (size_t k = 0; k < NBLOCK_SIZES; k++) {
        x64_label next;
        x64_label_init(&next);
        if (k + 1 < NBLOCK_SIZES) {
            x64_alu_ri_32(as, X64_CMP, BLOCK_SIZE, block_sizes[k].block_size);
            x64_jcc(as, X64_NE, &next);
        }
        avx512_absorb_rows(as, block_sizes[k].lanes);
        if (k + 1 < NBLOCK_SIZES) {
            x64_jmp(as, &rounds);
            x64_bind(as, &next);
        }
    }
    x64_bind(as, &rounds);
    x64_alu_ri_32(as, X64_SUB, ROUNDS_LEFT, 1);
    avx512_round(as);
    x64_alu_ri_32(as, X64_CMP, ROUNDS_LEFT, 0); /* the round's add of the constant pointer set the flags */
    x64_jcc(as, X64_NE, &rounds);

    x64m_next_block_or_return(as, cfg->multi_block, &vector_loop, &block);
    for (int r = 0; r < 5; r++)
        x64_evmovdqu64_store(as, X64_L512, x64_at(STATE, 40 * r), X64_K5, X64_XMM0 + r);
    x64m_stub_end(as, &avx512_frame, true);
    return entry;
}

/*
 * double_keccak (HotSpot 25's generate_double_keccak, stubGenerator_x86_64_sha3.cpp): the
 * row design's 24 rounds on two states at once, rdi state0, rsi state1 (long[25] each), no
 * absorb. The first state's rows in zmm0..zmm4 (temporaries zmm5, zmm6), the second's in
 * zmm10..zmm14 (zmm15, zmm16), the constants in zmm17..zmm31 shared; each instruction of the
 * round once per state, one after the other. HotSpot's registers: rdx the table, rcx the
 * round constants (the argument registers it does not take), r10 the next constant, r11 the
 * rounds left, so nothing is saved. Returns 0 in eax (HotSpot's clears rax with xorq).
 */
#define DK_TABLE  X64_C_RARG2
#define DK_RC     X64_C_RARG3
#define DK_NEXT   X64_R10
#define DK_LEFT   X64_R11
static const x64m_frame double_keccak_frame = {NULL, 0, 0, 0};

size_t x64_generate_double_keccak(x64_asm *as)
{
    size_t entry = x64m_stub_begin(as, &double_keccak_frame);
    x64m_mov_address(as, DK_TABLE, avx512_perms_and_rots);
    x64m_mov_address(as, DK_RC, x64_sha3_round_consts);
    avx512_masks(as);
    for (int r = 0; r < 5; r++)
        x64_evmovdqu64_load(as, X64_L512, X64_XMM0 + r, X64_K5, true, x64_at(X64_C_RARG0, 40 * r));
    for (int r = 0; r < 5; r++)
        x64_evmovdqu64_load(as, X64_L512, X64_XMM10 + r, X64_K5, true, x64_at(X64_C_RARG1, 40 * r));
    avx512_load_table(as, DK_TABLE);
    x64_mov_ri(as, DK_LEFT, 24);
    x64_mov_rr(as, DK_NEXT, DK_RC);
    x64_label rounds;
    x64_label_init(&rounds);
    x64_bind(as, &rounds);
    x64_alu_ri_32(as, X64_SUB, DK_LEFT, 1);
    avx512_round_sets(as, 2, DK_NEXT);
    x64_alu_ri_32(as, X64_CMP, DK_LEFT, 0);
    x64_jcc(as, X64_NE, &rounds);
    for (int r = 0; r < 5; r++)
        x64_evmovdqu64_store(as, X64_L512, x64_at(X64_C_RARG0, 40 * r), X64_K5, X64_XMM0 + r);
    for (int r = 0; r < 5; r++)
        x64_evmovdqu64_store(as, X64_L512, x64_at(X64_C_RARG1, 40 * r), X64_K5, X64_XMM10 + r);
    x64_alu_rr_32(as, X64_XOR, X64_RAX, X64_RAX);
    x64m_stub_end(as, &double_keccak_frame, true);
    return entry;
}

/* One double round as the stub's loop runs it (for the instruction counts). */
void x64_emit_double_keccak_round(x64_asm *as) { avx512_round_sets(as, 2, DK_NEXT); }

/* ======================================================================================
 * AVX-512 lanes: HotSpot's JDK-8384353 design, one lane per register
 * ======================================================================================
 *
 * Lane i = x + 5y in the low qword of xmm<i> (xmm0..xmm24; the other qword is
 * don't-care), C[x] in xmm25..xmm29, two temporaries xmm30, xmm31: every
 * operation is a 128-bit EVEX vpternlogq, vprolq or register copy, and no
 * lane is ever shuffled.
 *   theta  C[x] = copy, two xor3; D is never formed: rol(C[x+1], 1) goes to
 *          a temporary and each lane of column x takes xor3(lane, C[x-1], it)
 *   rho+pi pi is one cycle of the 24 moving lanes: walked backwards, each
 *          lane is rotated into the register of the lane it replaces
 *          (vprolq is non-destructive), the first one through a temporary
 *   chi    per row, two lanes saved, five vpternlogq 0xb4 in place
 *   iota   a vpxorq of the constant under mask k1
 * GPRs: r9 the round constants, r10 the next one, r11 the rounds left; no
 * callee-saved register. Needs AVX-512F and VL (xmm16..xmm31 at 128 bits).
 */
#define LANE(i)     (X64_XMM0 + (i))
#define LANE_C(x)   (X64_XMM25 + (x))
#define LANE_T0     X64_XMM30
#define LANE_T1     X64_XMM31
#define LANES_RC    X64_R9
#define LANES_NEXT  X64_R10
#define LANES_LEFT  X64_R11

static void copy128(x64_asm *as, x64_vreg dst, x64_vreg src)
{
    x64_evmovdqu64_rr(as, X64_L128, dst, X64_K0, false, src);
}

static void lanes_round(x64_asm *as)
{
    const x64_vlen X = X64_L128;
    /* theta */
    for (int x = 0; x < 5; x++) {
        copy128(as, LANE_C(x), LANE(x));
        x64_vpternlogq(as, X, LANE_C(x), LANE(x + 5), LANE(x + 10), 0x96);
        x64_vpternlogq(as, X, LANE_C(x), LANE(x + 15), LANE(x + 20), 0x96);
    }
    for (int x = 0; x < 5; x++) {
        x64_vprolq(as, X, LANE_T0, LANE_C((x + 1) % 5), 1);
        for (int y = 0; y < 5; y++)
            x64_vpternlogq(as, X, LANE(x + 5 * y), LANE_C((x + 4) % 5), LANE_T0, 0x96);
    }
    /* rho and pi along the cycle 1 -> keccak_pi(1) -> ... -> 1 */
    int cycle[24];
    cycle[0] = 1;
    for (int k = 1; k < 24; k++)
        cycle[k] = keccak_pi(cycle[k - 1]);
    x64_vprolq(as, X, LANE_T0, LANE(cycle[23]), keccak_rho[cycle[23]]);
    for (int k = 22; k >= 0; k--)
        x64_vprolq(as, X, LANE(cycle[k + 1]), LANE(cycle[k]), keccak_rho[cycle[k]]);
    copy128(as, LANE(cycle[0]), LANE_T0);
    /* chi (0xb4: dst ^ (a & ~b)), iota after row 0 */
    for (int y = 0; y < 5; y++) {
        x64_vreg a[5];
        for (int x = 0; x < 5; x++)
            a[x] = LANE(x + 5 * y);
        copy128(as, LANE_T0, a[0]);
        copy128(as, LANE_T1, a[1]);
        x64_vpternlogq(as, X, a[0], a[2], a[1], 0xb4);
        x64_vpternlogq(as, X, a[1], a[3], a[2], 0xb4);
        x64_vpternlogq(as, X, a[2], a[4], a[3], 0xb4);
        x64_vpternlogq(as, X, a[3], LANE_T0, a[4], 0xb4);
        x64_vpternlogq(as, X, a[4], LANE_T1, LANE_T0, 0xb4);
        if (y == 0) {
            x64_evop_rrm(as, X64_VPXORQ, X, LANE(0), X64_K1, false, LANE(0), x64_at(LANES_NEXT, 0));
            x64_alu_ri(as, X64_ADD, LANES_NEXT, 8);
        }
    }
}

/* lane i ^= [BUF + 8i], one qword under k1 (no access past the lane) */
static void lanes_xor_lane(x64_asm *as, int lane)
{
    x64_evop_rrm(as, X64_VPXORQ, X64_L128, LANE(lane), X64_K1, false, LANE(lane), x64_at(BUF, 8 * lane));
}

static const x64m_frame plain_frame = {NULL, 0, 0, 0};

static size_t generate_avx512_lanes(x64_asm *as, const x64_sha3_config *cfg)
{
    size_t entry = x64m_stub_begin(as, &plain_frame);
    /* the int arguments' upper halves are garbage: block_size is added to buf as 64 bits */
    x64_mov_rr_32(as, BLOCK_SIZE, BLOCK_SIZE);
    x64m_mov_address(as, LANES_RC, x64_sha3_round_consts);
    /* k1 = one qword: the lane loads, stores and xors touch 8 bytes, no more */
    x64_mov_ri(as, X64_RAX, 1);
    x64_kmovw_kr(as, X64_K1, X64_RAX);
    for (int i = 0; i < 25; i++)
        x64_evmovdqu64_load(as, X64_L128, LANE(i), X64_K1, true, x64_at(STATE, 8 * i));

    x64_label block;
    x64_label_init(&block);
    x64_bind(as, &block);
    absorb_lanes(as, lanes_xor_lane);
    x64_mov_rr(as, LANES_NEXT, LANES_RC);
    count_24_rounds(as, LANES_LEFT, lanes_round);

    x64m_next_block_or_return(as, cfg->multi_block, &vector_loop, &block);
    for (int i = 0; i < 25; i++)
        x64_evmovdqu64_store(as, X64_L128, x64_at(STATE, 8 * i), X64_K1, LANE(i));
    x64m_stub_end(as, &plain_frame, true);
    return entry;
}

/* ======================================================================================
 * AVX2 (minivm's): rows split four plus one, pi through the stack
 * ======================================================================================
 *
 * Row y: lanes 5y..5y+3 in ymm<y> (R[y], ymm0..ymm4), lane 5y+4 in the low
 * qword of xmm<5+y> (H[y], xmm5..xmm9; its other qword is don't-care, never
 * read into a lane that matters). ymm10..ymm15 temporaries.
 *   theta  the row xors give C[0..3] and C[4]; C[x-1] and rol(C[x+1], 1) by
 *          one vpermq and one vpblendd each; D[4] = C[3] ^ rol(C[0], 1)
 *   rho    vpsllvq/vpsrlvq/vpor with per-lane counts from a table
 *   pi     the 25 lanes stored row by row to a 200-byte stack buffer and
 *          gathered back into the rows they go to: output lane (x, y) is
 *          input lane ((x + 3y) % 5, x); each ymm row from a vmovq, three
 *          vpbroadcastq loads and three vpblendd, each H lane broadcast to
 *          all four qwords by a vpbroadcastq load (no shuffle-port uop)
 *   chi    B[x+1] and B[x+2] of the four low lanes by vpermq and a blend
 *          with the broadcast B[4]; ~a & b by vpandn
 *   iota   vmovq of the constant (zeroing the rest of the ymm) and vpxor
 * GPRs: r9 the counts table, r10 the next round constant, r11 rounds left,
 * rax absorbing. At each block the lanes are absorbed in memory (as the
 * GPR stub), loaded into the rows, and stored back after the 24 rounds.
 */
#define ROW_COUNTS(a, b, c, d, e) a, b, c, d, 64 - (a), 64 - (b), 64 - (c), 64 - (d), e, 0, 64 - (e), 0
/* per row: rho of lanes 0..3 (left), 64 - rho (right), then lane 4's pair as xmm operands */
_Alignas(32) static const uint64_t avx2_rho_counts[5 * 12] = {
    ROW_COUNTS(0, 1, 62, 28, 27),   ROW_COUNTS(36, 44, 6, 55, 20), ROW_COUNTS(3, 10, 43, 25, 39),
    ROW_COUNTS(41, 45, 15, 21, 8), ROW_COUNTS(18, 2, 61, 56, 14),
};
#undef ROW_COUNTS

#define AVX2_R(y)   (X64_XMM0 + (y))
#define AVX2_H(y)   (X64_XMM5 + (y))
#define AVX2_T(n)   (X64_XMM10 + (n))
#define AVX2_COUNTS X64_R9
#define AVX2_RC     X64_R10
#define AVX2_LEFT   X64_R11

enum {
    AVX2_BUFFER = 0, /* the pi buffer, 25 lanes */
    AVX2_FRAME = 224, /* the buffer rounded up to keep rsp 32-byte aligned */
};

static void avx2_round(x64_asm *as)
{
    const x64_vlen Y = X64_L256, X = X64_L128;
    /* theta: t0 = C[0..3], t1 = C[4]; t2 = rol(C[0..3], 1), t3 = rol(C[4], 1) */
    x64_vop_rrr(as, X64_VPXOR, Y, AVX2_T(0), AVX2_R(0), AVX2_R(1));
    x64_vop_rrr(as, X64_VPXOR, X, AVX2_T(1), AVX2_H(0), AVX2_H(1));
    for (int y = 2; y < 5; y++) {
        x64_vop_rrr(as, X64_VPXOR, Y, AVX2_T(0), AVX2_T(0), AVX2_R(y));
        x64_vop_rrr(as, X64_VPXOR, X, AVX2_T(1), AVX2_T(1), AVX2_H(y));
    }
    x64_vpsllq_i(as, Y, AVX2_T(2), AVX2_T(0), 1);
    x64_vpsrlq_i(as, Y, AVX2_T(3), AVX2_T(0), 63);
    x64_vop_rrr(as, X64_VPOR, Y, AVX2_T(2), AVX2_T(2), AVX2_T(3));
    x64_vpsllq_i(as, X, AVX2_T(3), AVX2_T(1), 1);
    x64_vpsrlq_i(as, X, AVX2_T(4), AVX2_T(1), 63);
    x64_vop_rrr(as, X64_VPOR, X, AVX2_T(3), AVX2_T(3), AVX2_T(4));
    /* t4 = (C3, C0, C1, C2); D[4] = C3 ^ rol(C0) in t5's low qword */
    x64_vpermq(as, AVX2_T(4), AVX2_T(0), 0x93);
    x64_vop_rrr(as, X64_VPXOR, X, AVX2_T(5), AVX2_T(4), AVX2_T(2));
    /* (C4, C0, C1, C2) ^ (rC1, rC2, rC3, rC4) = D[0..3] */
    x64_vpblendd(as, Y, AVX2_T(4), AVX2_T(4), AVX2_T(1), 0x03);
    x64_vpblendd(as, Y, AVX2_T(2), AVX2_T(2), AVX2_T(3), 0x03);
    x64_vpermq(as, AVX2_T(2), AVX2_T(2), 0x39);
    x64_vop_rrr(as, X64_VPXOR, Y, AVX2_T(4), AVX2_T(4), AVX2_T(2));
    for (int y = 0; y < 5; y++) {
        x64_vop_rrr(as, X64_VPXOR, Y, AVX2_R(y), AVX2_R(y), AVX2_T(4));
        x64_vop_rrr(as, X64_VPXOR, X, AVX2_H(y), AVX2_H(y), AVX2_T(5));
    }
    /* rho, then pi's stores: row y to the buffer's lanes 5y..5y+4 */
    for (int y = 0; y < 5; y++) {
        int32_t c = 96 * y;
        x64_vop_rrm(as, X64_VPSLLVQ, Y, AVX2_T(y % 3), AVX2_R(y), x64_at(AVX2_COUNTS, c));
        x64_vop_rrm(as, X64_VPSRLVQ, Y, AVX2_R(y), AVX2_R(y), x64_at(AVX2_COUNTS, c + 32));
        x64_vop_rrr(as, X64_VPOR, Y, AVX2_R(y), AVX2_R(y), AVX2_T(y % 3));
        x64_vop_rrm(as, X64_VPSLLVQ, X, AVX2_T(3 + y % 3), AVX2_H(y), x64_at(AVX2_COUNTS, c + 64));
        x64_vop_rrm(as, X64_VPSRLVQ, X, AVX2_H(y), AVX2_H(y), x64_at(AVX2_COUNTS, c + 80));
        x64_vop_rrr(as, X64_VPOR, X, AVX2_H(y), AVX2_H(y), AVX2_T(3 + y % 3));
        x64_vmovdqu_store(as, Y, x64_at(X64_RSP, AVX2_BUFFER + 40 * y), AVX2_R(y));
        x64_vmovq_store(as, x64_at(X64_RSP, AVX2_BUFFER + 40 * y + 32), AVX2_H(y));
    }
    /* pi's gather and chi, one output row at a time (temporaries alternate
       between rows so that consecutive rows can overlap) */
    for (int y = 0; y < 5; y++) {
        int lane[5];
        for (int x = 0; x < 5; x++)
            lane[x] = 5 * x + (x + 3 * y) % 5;
        x64_vreg r = AVX2_R(y), h = AVX2_H(y);
        x64_vreg a = AVX2_T(y % 2 ? 3 : 0), b = AVX2_T(y % 2 ? 4 : 1), c = AVX2_T(y % 2 ? 5 : 2);
        /* r = (B0, B1, B2, B3) from one vmovq, three broadcast loads and three
           blends (loads and blends: no shuffle port); h = B4 in every lane */
        x64_vmovq_load(as, r, x64_at(X64_RSP, AVX2_BUFFER + 8 * lane[0]));
        x64_vpbroadcastq_m(as, Y, a, x64_at(X64_RSP, AVX2_BUFFER + 8 * lane[1]));
        x64_vpbroadcastq_m(as, Y, b, x64_at(X64_RSP, AVX2_BUFFER + 8 * lane[3]));
        x64_vpbroadcastq_m(as, Y, c, x64_at(X64_RSP, AVX2_BUFFER + 8 * lane[2]));
        x64_vpbroadcastq_m(as, Y, h, x64_at(X64_RSP, AVX2_BUFFER + 8 * lane[4]));
        x64_vpblendd(as, Y, a, a, b, 0xc0);
        x64_vpblendd(as, Y, r, r, c, 0x30);
        x64_vpblendd(as, Y, r, r, a, 0xcc);
        /* b = (B1, B2, B3, B4), c = (B2, B3, B4, B0) */
        x64_vpermq(as, b, r, 0x39);
        x64_vpblendd(as, Y, b, b, h, 0xc0);
        x64_vpermq(as, c, r, 0x0e);
        x64_vpblendd(as, Y, c, c, h, 0x30);
        /* H ^= ~B0 & B1; R ^= ~b & c */
        x64_vop_rrr(as, X64_VPANDN, X, a, r, b);
        x64_vop_rrr(as, X64_VPXOR, X, h, h, a);
        x64_vop_rrr(as, X64_VPANDN, Y, c, b, c);
        x64_vop_rrr(as, X64_VPXOR, Y, r, r, c);
        if (y == 0) { /* iota */
            x64_vmovq_load(as, a, x64_at(AVX2_RC, 0));
            x64_vop_rrr(as, X64_VPXOR, Y, r, r, a);
            x64_alu_ri(as, X64_ADD, AVX2_RC, 8);
        }
    }
}

/* the rows go through the stack for pi: 32-byte aligned stores */
static const x64m_frame avx2_frame = {NULL, 0, AVX2_FRAME, 32};

static size_t generate_avx2(x64_asm *as, const x64_sha3_config *cfg)
{
    size_t entry = x64m_stub_begin(as, &avx2_frame);
    /* the int arguments' upper halves are garbage: block_size is added to buf as 64 bits */
    x64_mov_rr_32(as, BLOCK_SIZE, BLOCK_SIZE);
    x64m_mov_address(as, AVX2_COUNTS, avx2_rho_counts);

    x64_label block;
    x64_label_init(&block);
    x64_bind(as, &block);
    gpr_absorb(as);
    for (int y = 0; y < 5; y++) {
        x64_vmovdqu_load(as, X64_L256, AVX2_R(y), x64_at(STATE, 40 * y));
        x64_vmovq_load(as, AVX2_H(y), x64_at(STATE, 40 * y + 32));
    }
    x64m_mov_address(as, AVX2_RC, x64_sha3_round_consts);
    count_24_rounds(as, AVX2_LEFT, avx2_round);
    for (int y = 0; y < 5; y++) {
        x64_vmovdqu_store(as, X64_L256, x64_at(STATE, 40 * y), AVX2_R(y));
        x64_vmovq_store(as, x64_at(STATE, 40 * y + 32), AVX2_H(y));
    }

    x64m_next_block_or_return(as, cfg->multi_block, &vector_loop, &block);
    x64m_stub_end(as, &avx2_frame, true);
    return entry;
}

static void gpr_one_round(x64_asm *as, const x64_sha3_config *cfg)
{
    gpr_round(as, cfg, STATE, 0, X64_RSP, GPR_COPY, 0);
}
static void avx512_one_round(x64_asm *as, const x64_sha3_config *cfg) { (void)cfg; avx512_round(as); }
static void lanes_one_round(x64_asm *as, const x64_sha3_config *cfg) { (void)cfg; lanes_round(as); }
static void avx2_one_round(x64_asm *as, const x64_sha3_config *cfg) { (void)cfg; avx2_round(as); }

/* Each design's stub and its loop body's round. */
static const struct sha3_design {
    size_t (*generate)(x64_asm *as, const x64_sha3_config *cfg);
    void (*round)(x64_asm *as, const x64_sha3_config *cfg);
} designs[] = {
    [X64_SHA3_GPR] = {generate_gpr, gpr_one_round},
    [X64_SHA3_AVX512] = {generate_avx512, avx512_one_round},
    [X64_SHA3_AVX2] = {generate_avx2, avx2_one_round},
    [X64_SHA3_AVX512_LANES] = {generate_avx512_lanes, lanes_one_round},
};

static const struct sha3_design *design_of(x64_asm *as, const x64_sha3_config *cfg)
{
    if ((unsigned)cfg->variant >= sizeof designs / sizeof designs[0] || !designs[cfg->variant].generate) {
        x64_asm_fail(as, "no SHA-3 design %d", (int)cfg->variant);
        return NULL;
    }
    return &designs[cfg->variant];
}

void x64_emit_sha3_round(x64_asm *as, const x64_sha3_config *cfg)
{
    const struct sha3_design *d = design_of(as, cfg);
    if (d)
        d->round(as, cfg);
}

size_t x64_generate_sha3_implCompress(x64_asm *as, const x64_sha3_config *cfg)
{
    const struct sha3_design *d = design_of(as, cfg);
    return d ? d->generate(as, cfg) : 0;
}
