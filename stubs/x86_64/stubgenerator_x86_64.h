/*
 * stubs/x86_64/stubgenerator_x86_64.h — the x86-64 SHA stub generators: SHA-3
 * (HotSpot's cpu/x86/stubGenerator_x86_64_sha3.cpp and minivm's own), and
 * SHA-1, SHA-256, SHA-512 (below; cpu/x86/macroAssembler_x86_sha.cpp).
 *
 * Pure code emission into an x64_asm buffer: compiled and runnable on every
 * host, so every stub can be generated, printed and checked against llvm-mc
 * anywhere; only executing the bytes needs x86-64 (and the variant's ISA).
 *
 * The calling convention is stubdeclarations.h's; under System V the SHA-3
 * stubs take rdi buf, rsi state, edx block_size [, ecx ofs, r8d limit] and
 * the SHA-1/SHA-2 stubs rdi buf, rsi state [, edx ofs, ecx limit], returning
 * in eax. Every stub preserves rbx, rbp, r12..r15 and the direction flag; one
 * that uses ymm or zmm registers ends with vzeroupper.
 *
 *   GPR     (minivm's): Keccak-f[1600] in general registers with the state in
 *           memory, rounds alternating between the caller's state and a
 *           200-byte copy on the stack (two rounds per loop trip: no copy);
 *           theta's column parities and D in registers, rho+pi+chi one output
 *           row at a time, iota from a round-constant table. bmi: BMI1 andn
 *           for chi and BMI2 rorx for the rotations (UseBMI1Instructions,
 *           UseBMI2Instructions); without them mov+not+and and mov+rol.
 *   AVX512  (JDK-8341527): the five rows in the low five qwords of zmm0..zmm4,
 *           vpternlogq/vprolq/vprolvq/vpermt2q, masks k1..k5, fifteen
 *           permutation and rotation vectors in zmm17..zmm31.
 *   AVX512 lanes (JDK-8384353's design): lane i in the low qword of xmm<i>
 *           (xmm0..xmm24), C in xmm25..xmm29, two temporaries; 128-bit
 *           vpternlogq/vprolq and copies only, pi as an in-place cycle of
 *           non-destructive rotates, no shuffles.
 *   AVX2    (minivm's): row y's lanes 0..3 in ymm<y>, lane 4 in xmm<5+y>;
 *           theta and chi within the rows (vpermq, vpblendd, vpandn), rho
 *           by vpsllvq/vpsrlvq, pi by storing the rows to the stack and
 *           gathering each output row back (vmovq, vpinsrq, vinserti128).
 */
#ifndef MINIVM_STUBGENERATOR_X86_64_H
#define MINIVM_STUBGENERATOR_X86_64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "assembler_x86_64.h"

typedef enum x64_sha3_variant {
    X64_SHA3_GPR,     /* scalar: "gpr" with BMI1+BMI2, "gpr-nobmi" without */
    X64_SHA3_AVX512,  /* "avx512": HotSpot's row layout (AVX-512F, and BW for vmovdqu16) */
    X64_SHA3_AVX2,    /* "avx2": minivm's rows of four plus one, pi through the stack */
    X64_SHA3_AVX512_LANES, /* "avx512-lanes": HotSpot's one lane per register (AVX-512F and VL) */
} x64_sha3_variant;

typedef struct x64_sha3_config {
    x64_sha3_variant variant;
    bool multi_block;  /* sha3_implCompressMB (returns ofs), else sha3_implCompress */
    bool bmi1, bmi2;   /* GPR: andn, rorx */
} x64_sha3_config;

/* The 24 Keccak round constants the stubs read (one 8-byte word each). */
extern const uint64_t x64_sha3_round_consts[24];

/*
 * Emit one SHA-3 stub at the buffer's current position. Returns the entry's
 * byte offset. On a refused instruction or a full buffer, x64_asm_failed(as)
 * is true and the bytes must not run.
 */
size_t x64_generate_sha3_implCompress(x64_asm *as, const x64_sha3_config *cfg);

/* double_keccak (HotSpot 25's AVX-512 design: the row design on two states at once, each
   instruction once per state), for SHA3Parallel.doubleKeccak: rdi state0, rsi state1; returns
   0. Needs AVX-512F and BW (as the row stub); saves nothing, ends with vzeroupper. */
size_t x64_generate_double_keccak(x64_asm *as);
void x64_emit_double_keccak_round(x64_asm *as);

/* One Keccak round of the variant as its stub emits it (for llvm-mca and
   the instruction counts in docs/stubs.md). */
void x64_emit_sha3_round(x64_asm *as, const x64_sha3_config *cfg);

/*
 * The SHA-1, SHA-256 and SHA-512 stubs (stubgenerator_x86_64_sha1.c, _sha2.c;
 * HotSpot's fast_sha1, fast_sha256 and sha512_AVX2), single-block (sha*_implCompress)
 * or multi-block (sha*_implCompressMB) entry. Nothing is read past the last
 * block nor written outside the state.
 *   SHA-1, SHA-256  SHA-NI with SSSE3 and SSE4.1 (legacy SSE, xmm only, no
 *                   vzeroupper needed); no stack
 *   SHA-512         AVX2 and BMI2 (VEX.128 schedule, rorx rounds); ends with
 *                   vzeroupper
 * Each returns the entry's byte offset; on a refused instruction or a full
 * buffer x64_asm_failed(as) is true and the bytes must not run.
 */
size_t x64_generate_sha1_implCompress(x64_asm *as, bool multi_block);
/* MD5 (stubgenerator_x86_64_md5.c; HotSpot's fast_md5): general registers only, saves rbx, rdi,
   rsi and r15, a 16-byte frame for the state pointer, ofs and limit. */
size_t x64_generate_md5_implCompress(x64_asm *as, bool multi_block);
size_t x64_generate_sha256_implCompress(x64_asm *as, bool multi_block);
/* SHA-256 on AVX2 and BMI2 (HotSpot's sha256_AVX2): two blocks at a time, ymm registers, ends with
   vzeroupper; saves rbx, rbp, r12..r15, a 576-byte frame aligned to 32. */
size_t x64_generate_sha256_avx2_implCompress(x64_asm *as, bool multi_block);
size_t x64_generate_sha512_implCompress(x64_asm *as, bool multi_block);

/* The round constants the SHA-256 and SHA-512 stubs read (FIPS 180-4 4.2.2, 4.2.3). */
extern const uint32_t x64_sha256_round_consts[64];
extern const uint64_t x64_sha512_round_consts[80];

/* One block's compression as the stubs run it, from the message loads to the state
   update, without the entry, the exit and the multi-block loop (SHA-512: its four
   schedule trips unrolled): for llvm-mca and the instruction counts. MD5's is the 64
   steps alone (its words are read by the steps; the state's update is not included). */
void x64_emit_md5_block(x64_asm *as);
void x64_emit_sha1_block(x64_asm *as);
void x64_emit_sha256_block(x64_asm *as);
/* The AVX2 SHA-256 stub's pair of blocks (its loops unrolled): divide its counts by two. */
void x64_emit_sha256_avx2_blocks(x64_asm *as);
void x64_emit_sha512_block(x64_asm *as);

#endif
