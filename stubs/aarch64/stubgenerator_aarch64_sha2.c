/*
 * stubs/aarch64/stubgenerator_aarch64_sha2.c — the SHA-256 and SHA-512 stub
 * generators on the Armv8 cryptographic extension (HotSpot's
 * generate_sha256_implCompress and generate_sha512_implCompress with
 * sha512_dround, in cpu/aarch64/stubGenerator_aarch64.cpp). See
 * stubgenerator_aarch64.h for the contract and the features each stub
 * executes.
 *
 * Arguments (AAPCS64; HotSpot's StubRoutines for SHA.implCompress0 and
 * DigestBase.implCompressMultiBlock0):
 *   c_rarg0  buf    the block, already b + ofs: 64 bytes (SHA-1, SHA-256) or
 *                   128 (SHA-512) of big-endian words (FIPS 180-4, 3.1)
 *   c_rarg1  state  int[5], int[8] or long[8]: H0.. as native-endian words
 *   c_rarg2  ofs    multi-block only: int
 *   c_rarg3  limit  multi-block only: int
 * The multi-block entry compresses `do { ...; buf += BS; ofs += BS; } while
 * (ofs <= limit)` and returns ofs. ofs and limit are Java ints: only w2 and
 * w3 are read (AAPCS64 leaves the upper halves unspecified) and compared
 * signed.
 *
 * The stubs are leaves: no frame record, fp and x18 untouched, only the
 * caller-saved x0..x3, x8 (and x9) and v0..v7, v16..v31, plus whichever of
 * v8..v15 a stub needs, whose low halves (d8..d15, AAPCS64's callee-saved
 * part) it saves below sp first. They read exactly their blocks and write
 * exactly the state.
 *
 * The instructions (the Arm ARM's pseudocode, DDI 0487, C7.2):
 *   sha256h/h2 qd, qn, vm.4s    four SHA-256 rounds: the new abcd (qd = abcd,
 *                               qn = efgh) / the new efgh (qd = efgh, qn = the
 *                               old abcd)
 *   sha256su0/1                 sigma0 / sigma1 halves of the schedule
 *   sha512h    qd, qn, vm.2d    two SHA-512 rounds' T1, as (low, high) lanes: qd =
 *                               (g + K[t+1] + W[t+1], h + K[t] + W[t]), qn = (f, g),
 *                               vm = (d, e); returns (T1 of t + 1, T1 of t)
 *   sha512h2   qd, qn, vm.2d    the two new a: qd = that T1 pair, qn = (c, d),
 *                               vm = (a, b); returns (a of t + 2, a of t + 1)
 *   sha512su0/1                 sigma0 / sigma1 halves of the schedule, two at a time
 */
#include "stubgenerator_aarch64.h"

#include "macroassembler_aarch64.h"
#include "sha2_constants.h"

/* The constants of FIPS 180-4, 4.2.2 and 4.2.3, in order (sha2_constants.h): the stubs load them
   with ld1, four or two a register. */
const uint32_t a64_sha256_round_consts[64] = {SHA256_K_GROUPS(SHA2_K4)};
const uint64_t a64_sha512_round_consts[80] = {SHA512_K_GROUPS(SHA2_K4)};

/* Arguments. */
#define BUF   A64_C_RARG0
#define STATE A64_C_RARG1
#define OFS   A64_C_RARG2
#define LIMIT A64_C_RARG3

/* ==== SHA-256 (FIPS 180-4, 6.2.2) =========================================== */

/*
 * Sixteen quad-rounds. Registers:
 *   v0, v1    the state: H0..H3, H4..H7
 *   v2, v3    abcd, efgh
 *   v4        abcd before sha256h rewrites it, for sha256h2
 *   v6, v7    W + K of a quad-round, alternately
 *   v8..v11   the schedule, rotating as SHA-1's (sha256su0, sha256su1);
 *             callee-saved: d8..d11 are saved
 *   v16..v31  K, four per register, loaded once per call
 */
enum { SHA256_BLOCK = 64, SHA256_QUADS = 16 };

size_t a64_generate_sha256_implCompress(a64_asm *as, bool multi_block)
{
    const a64_reg consts = A64_RSCRATCH1;
    const a64_vreg h_abcd = A64_V0, h_efgh = A64_V1;
    const a64_vreg abcd = A64_V2, efgh = A64_V3, abcd_in = A64_V4;
    const a64_vreg wk[2] = {A64_V6, A64_V7};
    const a64_vreg w = A64_V8;                         /* w + q % 4 */
    const a64_vreg k = A64_V16;                        /* k + q: K[4q..4q+3] */
    const size_t entry = a64_asm_pc(as);
    a64_label next_block;
    a64_label_init(&next_block);

    a64m_push_d(as, 4);
    a64m_movptr(as, consts, (uintptr_t)a64_sha256_round_consts);
    for (int q = 0; q < SHA256_QUADS; q += 4) {
        if (q + 4 < SHA256_QUADS)
            a64_ld1_post(as, 4, a64m_vreg_plus(k, q), A64_T4S, consts, 64);
        else
            a64_ld1(as, 4, a64m_vreg_plus(k, q), A64_T4S, consts);
    }
    a64_ldpq(as, h_abcd, h_efgh, STATE, 0);

    a64_bind(as, &next_block);
    a64m_load_block_be(as, BUF, w, 4, false, multi_block);
    a64_add_v(as, A64_T4S, wk[0], w, k);
    a64_mov_v(as, A64_T16B, abcd, h_abcd);
    a64_mov_v(as, A64_T16B, efgh, h_efgh);

    for (int q = 0; q < SHA256_QUADS; q++) {
        const a64_vreg w_q = a64m_vreg_plus(w, q % 4), w_next = a64m_vreg_plus(w, (q + 1) % 4);
        if (q < SHA256_QUADS - 4)   /* w_q += sigma0 of the words 1 place on */
            a64_sha256su0(as, w_q, w_next);
        a64_mov_v(as, A64_T16B, abcd_in, abcd);
        if (q < SHA256_QUADS - 1)   /* W + K of quad-round q + 1 */
            a64_add_v(as, A64_T4S, wk[(q + 1) & 1], w_next, a64m_vreg_plus(k, q + 1));
        a64_sha256h(as, abcd, efgh, wk[q & 1]);
        a64_sha256h2(as, efgh, abcd_in, wk[q & 1]);
        if (q < SHA256_QUADS - 4)   /* ... + the words 9 places on + sigma1 of those 14 on */
            a64_sha256su1(as, w_q, a64m_vreg_plus(w, (q + 2) % 4), a64m_vreg_plus(w, (q + 3) % 4));
    }

    a64_add_v(as, A64_T4S, h_abcd, h_abcd, abcd);
    a64_add_v(as, A64_T4S, h_efgh, h_efgh, efgh);
    if (multi_block)
        a64m_next_block(as, OFS, LIMIT, SHA256_BLOCK, &next_block);

    a64_stpq(as, h_abcd, h_efgh, STATE, 0);
    a64m_pop_d(as, 4);
    a64_ret(as, A64_RLR);
    return entry;
}

/* ==== SHA-512 (FIPS 180-4, 6.4.2) =========================================== */

/*
 * Forty double rounds. Every 128-bit register holds a pair of 64-bit words,
 * (low lane, high lane). Registers:
 *   v0..v4    the working pairs (a, b), (c, d), (e, f), (g, h) and a spare;
 *             which register holds which moves every double round (below)
 *   v5        K + W of the double round (halves swapped), then the schedule's
 *             (W[t+9], W[t+10])
 *   v6, v7    (f, g) and (d, e), gathered by ext for sha512h
 *   v8..v11   the state: (H0, H1) .. (H6, H7); callee-saved, as v12..v15
 *   v12..v19  the schedule: double round r's pair (W[2r], W[2r+1]) is in
 *             v12 + r % 8 and becomes double round r + 8's (sha512su0, sha512su1)
 *   v20..v23  K pairs 0..3, loaded once per call
 *   v24..v31  K pairs 4..39, loaded four double rounds ahead of their use
 *             (double round r loads pair r + 4 into v24 + r % 8) through x9
 *   x8        K pair 4's address; x9 the next pair's during a block
 * d8..d15 are saved.
 */
enum { SHA512_BLOCK = 128, SHA512_DROUNDS = 40, SHA512_PRELOADED = 4, SHA512_RING = 8 };

/* Which of v0..v4 holds each working pair. */
typedef struct sha512_pairs {
    a64_vreg ab, cd, ef, gh, spare;
} sha512_pairs;

/*
 * Rounds 2r and 2r + 1. sha512h leaves the two rounds' T1 (without d) in gh's
 * register, sha512h2 the two new a in the same register: it becomes the next
 * (a, b). The old (a, b) becomes (c, d), the spare register gets d + T1, the new
 * (e, f), and the old (e, f) becomes (g, h): the old (c, d) is the next spare.
 */
static sha512_pairs sha512_double_round(a64_asm *as, int r, sha512_pairs p, a64_reg next_k)
{
    const a64_vreg kw = A64_V5, fg = A64_V6, de = A64_V7;
    const a64_vreg w = A64_V12, k_first = A64_V20, k_ring = A64_V24;
    const a64_vreg k_r = r < SHA512_PRELOADED ? a64m_vreg_plus(k_first, r)
                                              : a64m_vreg_plus(k_ring, (r - SHA512_PRELOADED) % SHA512_RING);
    const a64_vreg w_r = a64m_vreg_plus(w, r % 8);
    const bool schedule = r < SHA512_DROUNDS - 8;

    if (r + SHA512_PRELOADED < SHA512_DROUNDS)
        a64_ld1_post(as, 1, a64m_vreg_plus(k_ring, r % SHA512_RING), A64_T2D, next_k, 16);
    a64_add_v(as, A64_T2D, kw, k_r, w_r);
    a64_ext(as, A64_T16B, fg, p.ef, p.gh, 8);
    a64_ext(as, A64_T16B, kw, kw, kw, 8);
    a64_ext(as, A64_T16B, de, p.cd, p.ef, 8);
    a64_add_v(as, A64_T2D, p.gh, p.gh, kw);          /* (g + K[t+1] + W[t+1], h + K[t] + W[t]) */
    if (schedule) {
        a64_ext(as, A64_T16B, kw, a64m_vreg_plus(w, (r + 4) % 8), a64m_vreg_plus(w, (r + 5) % 8), 8);
        a64_sha512su0(as, w_r, a64m_vreg_plus(w, (r + 1) % 8));
    }
    a64_sha512h(as, p.gh, fg, de);
    if (schedule)
        a64_sha512su1(as, w_r, a64m_vreg_plus(w, (r + 7) % 8), kw);
    a64_add_v(as, A64_T2D, p.spare, p.cd, p.gh);
    a64_sha512h2(as, p.gh, p.cd, p.ab);
    return (sha512_pairs){.ab = p.gh, .cd = p.ab, .ef = p.spare, .gh = p.ef, .spare = p.cd};
}

size_t a64_generate_sha512_implCompress(a64_asm *as, bool multi_block)
{
    const a64_reg consts = A64_RSCRATCH1, next_k = A64_RSCRATCH2;
    const a64_vreg h = A64_V8;                         /* h + i: (H[2i], H[2i+1]) */
    const a64_vreg w = A64_V12, k_first = A64_V20;
    const size_t entry = a64_asm_pc(as);
    a64_label next_block;
    a64_label_init(&next_block);

    a64m_push_d(as, 8);
    a64_ld1(as, 4, h, A64_T2D, STATE);
    a64m_movptr(as, consts, (uintptr_t)a64_sha512_round_consts);
    a64_ld1_post(as, 4, k_first, A64_T2D, consts, 16 * SHA512_PRELOADED);

    a64_bind(as, &next_block);
    a64m_load_block_be(as, BUF, w, 8, true, multi_block);
    a64_mov_reg(as, A64_X64, next_k, consts);
    sha512_pairs p = {.ab = A64_V0, .cd = A64_V1, .ef = A64_V2, .gh = A64_V3, .spare = A64_V4};
    for (int i = 0; i < 4; i++)
        a64_mov_v(as, A64_T16B, a64m_vreg_plus(p.ab, i), a64m_vreg_plus(h, i));
    for (int r = 0; r < SHA512_DROUNDS; r++)
        p = sha512_double_round(as, r, p, next_k);

    /* the pairs' registers go round with period 5: after 40 double rounds they
       are where they started, v0..v3 */
    const a64_vreg pairs[4] = {p.ab, p.cd, p.ef, p.gh};
    for (int i = 0; i < 4; i++)
        a64_add_v(as, A64_T2D, a64m_vreg_plus(h, i), a64m_vreg_plus(h, i), pairs[i]);
    if (multi_block)
        a64m_next_block(as, OFS, LIMIT, SHA512_BLOCK, &next_block);

    a64_st1(as, 4, h, A64_T2D, STATE);
    a64m_pop_d(as, 8);
    a64_ret(as, A64_RLR);
    return entry;
}
