/*
 * stubs/aarch64/macroassembler_aarch64.c — pseudo-instructions over the
 * encoder (HotSpot's macroAssembler_aarch64.cpp). See the header.
 */
#include "macroassembler_aarch64.h"

void a64m_rol(a64_asm *as, a64_reg rd, a64_reg rn, int imm)
{
    if (imm < 0 || imm > 63) {
        a64_asm_fail(as, "rol: shift %d is outside 0..63", imm);
        return;
    }
    a64_extr(as, rd, rn, rn, (64 - imm) & 63);
}

void a64m_rax1(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm)
{
    a64_eor_reg(as, A64_X64, rd, rn, rm, A64_ROR, 63);
}

void a64m_eor3(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm, a64_reg ra)
{
    /* The second eor reads rd and one source: that source must not be rd. */
    if (ra != rd) {
        a64_eor_reg(as, A64_X64, rd, rn, rm, A64_LSL, 0);
        a64_eor_reg(as, A64_X64, rd, rd, ra, A64_LSL, 0);
    } else if (rm != rd) {
        a64_eor_reg(as, A64_X64, rd, rn, ra, A64_LSL, 0);
        a64_eor_reg(as, A64_X64, rd, rd, rm, A64_LSL, 0);
    } else if (rn != rd) {
        a64_eor_reg(as, A64_X64, rd, rm, ra, A64_LSL, 0);
        a64_eor_reg(as, A64_X64, rd, rd, rn, A64_LSL, 0);
    }
    /* else rd = rd ^ rd ^ rd = rd: nothing to emit */
}

void a64m_bcax(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm, a64_reg ra, a64_reg tmp)
{
    if (tmp == rn) {
        a64_asm_fail(as, "bcax: tmp must not be the source rn");
        return;
    }
    a64_bic_reg(as, A64_X64, tmp, rm, ra, A64_LSL, 0);
    a64_eor_reg(as, A64_X64, rd, rn, tmp, A64_LSL, 0);
}
