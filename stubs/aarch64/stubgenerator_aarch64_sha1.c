/*
 * stubs/aarch64/stubgenerator_aarch64_sha1.c — the SHA-1 stub generator on
 * the Armv8 cryptographic extension (HotSpot's generate_sha1_implCompress in
 * cpu/aarch64/stubGenerator_aarch64.cpp). See stubgenerator_aarch64.h for
 * the contract and the features each stub executes.
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
 *   sha1c/p/m  qd, sn, vm.4s    four SHA-1 rounds (Ch, Parity, Maj) on abcd in
 *                               qd, e in sn, W + K in vm; returns the new abcd
 *   sha1h      sd, sn           rol(sn, 30): the e after four rounds from a
 *   sha1su0/1                   W[t] = rol(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16], 1),
 *                               four at a time
 */
#include "stubgenerator_aarch64.h"

#include "macroassembler_aarch64.h"

/* The constants of FIPS 180-4, 4.2.1, which the stub loads with ld4r (stubs/sha2_ref.c spells
   them in its round function; tests/test_stub_dump_aarch64.c checks this table). */
const uint32_t a64_sha1_round_consts[4] = {0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6};

/* Arguments. */
#define BUF   A64_C_RARG0
#define STATE A64_C_RARG1
#define OFS   A64_C_RARG2
#define LIMIT A64_C_RARG3

/* ==== SHA-1 (FIPS 180-4, 6.1.2) ============================================= */

/*
 * Twenty quad-rounds of four rounds each. Registers:
 *   v0..v3    K of rounds 0..19, 20..39, 40..59, 60..79, in all four lanes (ld4r)
 *   v4, v5    W + K of a quad-round, alternately: the next one is summed while
 *             the current one is used
 *   v6, v7    the state: H0..H3 in v6, H4 in lane 0 of v7
 *   v16..v19  the schedule, four words each, rotating: quad-round q's words are
 *             in v16 + q % 4 and become quad-round q + 4's (sha1su0, sha1su1)
 *   v20       abcd
 *   v21, v22  e, alternately (sha1h computes the next one before sha1c/p/m
 *             overwrites a)
 * No callee-saved register: nothing to save.
 */
enum { SHA1_BLOCK = 64, SHA1_QUADS = 20 };

size_t a64_generate_sha1_implCompress(a64_asm *as, bool multi_block)
{
    static void (*const rounds_of[4])(a64_asm *, a64_vreg, a64_vreg, a64_vreg) = {
        a64_sha1c, a64_sha1p, a64_sha1m, a64_sha1p, /* Ch, Parity, Maj, Parity: t / 20 */
    };
    const a64_reg consts = A64_RSCRATCH1;
    const a64_vreg key = A64_V0;                       /* key + t / 20 */
    const a64_vreg wk[2] = {A64_V4, A64_V5};
    const a64_vreg h_abcd = A64_V6, h_e = A64_V7;
    const a64_vreg w = A64_V16;                        /* w + q % 4 */
    const a64_vreg abcd = A64_V20;
    const a64_vreg e[2] = {A64_V21, A64_V22};
    const size_t entry = a64_asm_pc(as);
    a64_label next_block;
    a64_label_init(&next_block);

    a64m_movptr(as, consts, (uintptr_t)a64_sha1_round_consts);
    a64_ld4r(as, key, A64_T4S, consts);
    a64_ldrq(as, h_abcd, STATE, 0);
    a64_ldrs(as, h_e, STATE, 16);

    a64_bind(as, &next_block);
    a64m_load_block_be(as, BUF, w, 4, false, multi_block);
    a64_add_v(as, A64_T4S, wk[0], w, key);
    a64_mov_v(as, A64_T16B, abcd, h_abcd);

    for (int q = 0; q < SHA1_QUADS; q++) {
        const a64_vreg w_q = a64m_vreg_plus(w, q % 4), w_next = a64m_vreg_plus(w, (q + 1) % 4);
        const a64_vreg e_in = q == 0 ? h_e : e[(q - 1) & 1], e_out = e[q & 1];
        if (q < SHA1_QUADS - 4)   /* w_q ^= the words 2, 8 and 14 places on (part 1) */
            a64_sha1su0(as, w_q, w_next, a64m_vreg_plus(w, (q + 2) % 4));
        if (q < SHA1_QUADS - 1)   /* W + K of quad-round q + 1 */
            a64_add_v(as, A64_T4S, wk[(q + 1) & 1], w_next, a64m_vreg_plus(key, (q + 1) / 5));
        a64_sha1h(as, e_out, abcd);
        rounds_of[q / 5](as, abcd, e_in, wk[q & 1]);
        if (q < SHA1_QUADS - 4)   /* ... and 13 places on, rotated by 1 (part 2) */
            a64_sha1su1(as, w_q, a64m_vreg_plus(w, (q + 3) % 4));
    }

    a64_add_v(as, A64_T2S, h_e, h_e, e[(SHA1_QUADS - 1) & 1]);
    a64_add_v(as, A64_T4S, h_abcd, h_abcd, abcd);
    if (multi_block)
        a64m_next_block(as, OFS, LIMIT, SHA1_BLOCK, &next_block);

    a64_strq(as, h_abcd, STATE, 0);
    a64_strs(as, h_e, STATE, 16);
    a64_ret(as, A64_RLR);
    return entry;
}
