/*
 * stubs/aarch64/stubgenerator_aarch64.h — the AArch64 stub generators
 * (HotSpot's cpu/aarch64/stubGenerator_aarch64.cpp, the MD5, SHA-1, SHA-2
 * and SHA-3 parts), one file per digest: stubgenerator_aarch64_md5.c,
 * _sha1.c, _sha2.c (SHA-256 and SHA-512), _sha3.c.
 *
 * Pure code emission into an a64_asm buffer: compiled and runnable on every
 * host, so every stub can be generated, printed and checked against llvm-mc
 * on x86-64; only executing the words needs AArch64.
 *
 * The calling convention is stubdeclarations.h's; under AAPCS64 the SHA-3
 * stubs take c_rarg0 buf, c_rarg1 state, c_rarg2 block_size [, c_rarg3 ofs,
 * c_rarg4 limit], the SHA-1/SHA-2 stubs c_rarg0 buf, c_rarg1 state [, c_rarg2
 * ofs, c_rarg3 limit], returning in w0.
 *
 *   SIMD (JDK-8252204): lanes in the low 64 bits of v0..v24, FEAT_SHA3
 *        eor3/rax1/xar/bcax; saves d8..d15. Needs a CPU with sha3.
 *   GPR  (JDK-8337666): lanes in x3..x17, x19..x28; the pseudo-instructions
 *        of the macro-assembler; saves x19..x28, fp, lr; loop counter in d0.
 *        fp and x18 serve as temporaries when allowed (no PreserveFramePointer,
 *        x18 not reserved by the platform); otherwise two lanes are spilled
 *        around the theta step of each round.
 */
#ifndef MINIVM_STUBGENERATOR_AARCH64_H
#define MINIVM_STUBGENERATOR_AARCH64_H

#include <stdbool.h>
#include <stdint.h>

#include "assembler_aarch64.h"

typedef struct a64_sha3_config {
    bool simd;          /* SIMD (FEAT_SHA3) variant, else GPR */
    bool multi_block;   /* sha3_implCompressMB (returns ofs), else sha3_implCompress */
    bool preserve_fp;   /* -XX:+PreserveFramePointer: never use fp as a temporary */
    bool r18_reserved;  /* the platform reserves x18 (macOS, Windows; build option) */
} a64_sha3_config;

/* x18 is reserved on this build's target platform (Meson option a64_r18_reserved,
   or always on macOS and Windows). */
bool a64_platform_reserves_r18(void);

/* The 24 Keccak round constants the stubs load (one 8-byte word each). */
extern const uint64_t a64_sha3_round_consts[24];

/*
 * Emit one SHA-3 stub at the buffer's current position (word aligned, as
 * every AArch64 instruction). Returns the entry's word index. On a refused
 * instruction or a full buffer, a64_asm_failed(as) is true and the words
 * must not run.
 */
size_t a64_generate_sha3_implCompress(a64_asm *as, const a64_sha3_config *cfg);

/* One Keccak round of the variant exactly as its stub's loop body emits it,
   loop control included (bench/stub_mca.sh feeds it to llvm-mca). */
void a64_emit_sha3_round(a64_asm *as, const a64_sha3_config *cfg);

/* Instructions in that loop body (for docs and tests). */
int a64_sha3_round_insns(const a64_sha3_config *cfg);

/*
 * SHA-1, SHA-256 and SHA-512 on the cryptographic extension (HotSpot's
 * generate_sha1/sha256/sha512_implCompress), one generator each for both
 * entries (stubdeclarations.h's contract).
 *
 * Features each stub executes beyond the base ISA (AdvSIMD), as cpu_aarch64.h
 * names them: SHA-1 A64_CPU_SHA1 (HWCAP_SHA1, FEAT_SHA1), SHA-256 A64_CPU_SHA2
 * (HWCAP_SHA2, HotSpot's "sha256", FEAT_SHA256), SHA-512 A64_CPU_SHA512
 * (HWCAP_SHA512, FEAT_SHA512); elsewhere they raise SIGILL. Leaf code: fp and x18 are never touched;
 * SHA-256 saves d8..d11, SHA-512 d8..d15, below sp. The round constants are
 * the tables below, which the stubs address absolutely.
 *
 * Each emits the stub at the buffer's current position and returns its
 * entry's word index, as a64_generate_sha3_implCompress; on a refused
 * instruction or a full buffer a64_asm_failed(as) is true.
 */
size_t a64_generate_sha1_implCompress(a64_asm *as, bool multi_block);
size_t a64_generate_sha256_implCompress(a64_asm *as, bool multi_block);
size_t a64_generate_sha512_implCompress(a64_asm *as, bool multi_block);

/* FIPS 180-4, 4.2: SHA-1's K of each 20 rounds, SHA-256's K0..K63, SHA-512's K0..K79. */
extern const uint32_t a64_sha1_round_consts[4];
extern const uint32_t a64_sha256_round_consts[64];
extern const uint64_t a64_sha512_round_consts[80];

/*
 * MD5 (stubgenerator_aarch64_md5.c; HotSpot's generate_md5_implCompress): the 64
 * steps in general registers; saves x16, x17, x19..x22. Returns the entry's word
 * index. a64_emit_md5_block: one block's steps (the four ldp and the 64 steps).
 */
size_t a64_generate_md5_implCompress(a64_asm *as, bool multi_block);
void a64_emit_md5_block(a64_asm *as);

/* double_keccak (HotSpot 25's design, FEAT_SHA3): SHA3Parallel.doubleKeccak's two states, x0 and x1
   (long[25] each), in the two 64-bit elements of v0..v24, the SIMD stub's rounds unchanged; a frame
   record, d8..d15 saved; returns 0 in x0. Returns the entry's word offset, as the others. */
size_t a64_generate_double_keccak(a64_asm *as);
void a64_emit_double_keccak_round(a64_asm *as);

#endif
