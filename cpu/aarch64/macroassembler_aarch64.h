/*
 * cpu/aarch64/macroassembler_aarch64.h — pseudo-instructions over the
 * encoder (HotSpot's cpu/aarch64/macroAssembler_aarch64.hpp): the GPR forms
 * of the SHA3 operations, for CPUs without FEAT_SHA3 and for the GPR stub.
 *
 *   a64m_rol(d, n, imm)        d = rol(n, imm)          extr d, n, n, #(64-imm)%64
 *   a64m_rax1(d, n, m)         d = n ^ rol(m, 1)        eor d, n, m, ror #63
 *   a64m_eor3(d, n, m, a)      d = n ^ m ^ a            two eor
 *   a64m_bcax(d, n, m, a, t)   d = n ^ (m & ~a)         bic t, m, a; eor d, n, t
 *   a64m_bcax5(a0..a4, t0..t2) the chi step of one Keccak row, in place:
 *                              a[x] ^= a[x+2] & ~a[x+1]  10 instructions, 3 temps
 *
 * and the frame and constant helpers every generator needs:
 *
 *   a64m_mov64(d, imm)         d = imm                  movz + up to 3 movk
 *   a64m_movptr(d, addr)       d = a 48-bit address     movz + 2 movk, always three
 *   a64m_enter / a64m_leave    frame record             stp fp, lr, [sp, #-16]!; mov fp, sp
 *                                                       ldp fp, lr, [sp], #16
 *   a64m_push_d / a64m_pop_d   d8..d(8+n-1) below sp    stp d8, d9, [sp, #-8n]!; stp d10, d11, [sp, #16] ...
 *                                                       ... ldp d8, d9, [sp], #8n
 *   a64m_load_block_be         a SHA-1/SHA-2 block into v registers, its big-endian words native
 *   a64m_next_block            the multi-block loop's tail (stubdeclarations.h's contract)
 *
 * Operands may alias the destination: each pseudo-instruction orders its
 * instructions so that no source is overwritten before it is read.
 */
#ifndef MINIVM_MACROASSEMBLER_AARCH64_H
#define MINIVM_MACROASSEMBLER_AARCH64_H

#include <stdbool.h>

#include "assembler_aarch64.h"

void a64m_rol(a64_asm *as, a64_reg rd, a64_reg rn, int imm);
void a64m_rax1(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm);
void a64m_eor3(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm, a64_reg ra);
/* tmp may be rd when rd != rn; tmp must not be rn (refused). */
void a64m_bcax(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm, a64_reg ra, a64_reg tmp);
/* One Keccak chi row a0..a4 (5 distinct registers) with 3 distinct temps. */
void a64m_bcax5(a64_asm *as, a64_reg a0, a64_reg a1, a64_reg a2, a64_reg a3, a64_reg a4,
                a64_reg t0, a64_reg t1, a64_reg t2);

/* rd = imm (64-bit): movz of the lowest non-zero halfword, movk of the others. */
void a64m_mov64(a64_asm *as, a64_reg rd, uint64_t imm);
/* An address, in three instructions whatever its bits (HotSpot's movptr, which its lea of an
   ExternalAddress uses): the code's length and instruction mix do not depend on where the
   table happens to be. Refuses an address of 48 bits or more. */
void a64m_movptr(a64_asm *as, a64_reg rd, uintptr_t addr);
/* HotSpot's enter(): push a frame record and point fp at it. leave() pops it
   without `mov sp, fp`, so it is correct even where fp served as a temporary. */
void a64m_enter(a64_asm *as);
void a64m_leave(a64_asm *as);
/* Save / restore the callee-saved d8.. (AAPCS64: only their low 64 bits), n of
   them (2, 4, 6 or 8), as HotSpot's SIMD stubs do before using v8..v15; sp
   stays 16-byte aligned. */
void a64m_push_d(a64_asm *as, int n);
void a64m_pop_d(a64_asm *as, int n);

/* Vector register v + k (a run of consecutive registers). */
static inline a64_vreg a64m_vreg_plus(a64_vreg v, int k) { return (a64_vreg)((int)v + k); }

/*
 * The block at buf into nregs consecutive registers from first (4: 64 bytes,
 * 8: 128), its big-endian words turned native: rev32 (32-bit words) or rev64
 * (64-bit) of the bytes. advance leaves buf at the next block (the
 * multi-block entry); else buf is only read.
 */
void a64m_load_block_be(a64_asm *as, a64_reg buf, a64_vreg first, int nregs, bool words64, bool advance);

/* The multi-block loop's tail: ofs += block_bytes (32-bit), back to next_block while ofs <= limit
   (signed: Java ints), then w0 = ofs. */
void a64m_next_block(a64_asm *as, a64_reg ofs, a64_reg limit, int block_bytes, a64_label *next_block);

#endif /* MINIVM_MACROASSEMBLER_AARCH64_H */
