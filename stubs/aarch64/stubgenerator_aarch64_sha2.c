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

/*
 * The constants of FIPS 180-4, 4.2.2 and 4.2.3. Deliberately not shared with
 * stubs/sha2_ref.c: the reference is the stubs' oracle, and a table shared by
 * both would hide an error in either (tests/test_stub_dump_aarch64.c compares them).
 */
const uint32_t a64_sha256_round_consts[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint64_t a64_sha512_round_consts[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
    0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
    0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
    0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
    0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
    0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
    0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
    0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
    0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
    0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
    0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
    0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
    0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
    0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
    0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
    0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
    0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

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
    a64m_mov64(as, consts, (uint64_t)(uintptr_t)a64_sha256_round_consts);
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
    a64m_mov64(as, consts, (uint64_t)(uintptr_t)a64_sha512_round_consts);
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
