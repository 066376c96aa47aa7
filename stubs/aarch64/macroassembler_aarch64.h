/*
 * stubs/aarch64/macroassembler_aarch64.h — pseudo-instructions over the
 * encoder (HotSpot's cpu/aarch64/macroAssembler_aarch64.hpp): the GPR forms
 * of the SHA3 operations, for CPUs without FEAT_SHA3 and for the GPR stub.
 *
 *   a64m_rol(d, n, imm)        d = rol(n, imm)          extr d, n, n, #(64-imm)%64
 *   a64m_rax1(d, n, m)         d = n ^ rol(m, 1)        eor d, n, m, ror #63
 *   a64m_eor3(d, n, m, a)      d = n ^ m ^ a            two eor
 *   a64m_bcax(d, n, m, a, t)   d = n ^ (m & ~a)         bic t, m, a; eor d, n, t
 *
 * Operands may alias the destination: each pseudo-instruction orders its
 * instructions so that no source is overwritten before it is read.
 */
#ifndef MINIVM_MACROASSEMBLER_AARCH64_H
#define MINIVM_MACROASSEMBLER_AARCH64_H

#include "assembler_aarch64.h"

void a64m_rol(a64_asm *as, a64_reg rd, a64_reg rn, int imm);
void a64m_rax1(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm);
void a64m_eor3(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm, a64_reg ra);
/* tmp may be rd when rd != rn; tmp must not be rn (refused). */
void a64m_bcax(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm, a64_reg ra, a64_reg tmp);

#endif /* MINIVM_MACROASSEMBLER_AARCH64_H */
