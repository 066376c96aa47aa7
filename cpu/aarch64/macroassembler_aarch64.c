/*
 * cpu/aarch64/macroassembler_aarch64.c — pseudo-instructions over the
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

void a64m_bcax5(a64_asm *as, a64_reg a0, a64_reg a1, a64_reg a2, a64_reg a3, a64_reg a4,
                a64_reg t0, a64_reg t1, a64_reg t2)
{
    /*
     * a[x] ^= ~a[x+1] & a[x+2] for x = 0..4, every term from the old row:
     * the terms of a0 and a1 wait in t0/t1 while a2 and a3 are updated
     * (their terms read only a3, a4, a0 — still old); a0 and a1 change last.
     */
    a64_bic_reg(as, A64_X64, t0, a2, a1, A64_LSL, 0);
    a64_bic_reg(as, A64_X64, t1, a3, a2, A64_LSL, 0);
    a64_bic_reg(as, A64_X64, t2, a4, a3, A64_LSL, 0);
    a64_eor_reg(as, A64_X64, a2, a2, t2, A64_LSL, 0);
    a64_bic_reg(as, A64_X64, t2, a0, a4, A64_LSL, 0);
    a64_eor_reg(as, A64_X64, a3, a3, t2, A64_LSL, 0);
    a64_bic_reg(as, A64_X64, t2, a1, a0, A64_LSL, 0);
    a64_eor_reg(as, A64_X64, a0, a0, t0, A64_LSL, 0);
    a64_eor_reg(as, A64_X64, a1, a1, t1, A64_LSL, 0);
    a64_eor_reg(as, A64_X64, a4, a4, t2, A64_LSL, 0);
}

void a64m_mov64(a64_asm *as, a64_reg rd, uint64_t imm)
{
    bool first = true;
    for (int hw = 0; hw < 4; hw++) {
        uint64_t half = (imm >> (16 * hw)) & 0xffff;
        if (half == 0 && !(hw == 3 && first))
            continue;
        if (first)
            a64_movz(as, A64_X64, rd, (int64_t)half, hw);
        else
            a64_movk(as, A64_X64, rd, (int64_t)half, hw);
        first = false;
    }
}

void a64m_movptr(a64_asm *as, a64_reg rd, uintptr_t addr)
{
    if ((uint64_t)addr >> 48) {
        bool refused;
        code_buffer_refuse(&as->cb, &refused, "movptr", "address 0x%llx needs more than 48 bits",
                           (unsigned long long)addr);
        return;
    }
    a64_movz(as, A64_X64, rd, (int64_t)(addr & 0xffff), 0);
    a64_movk(as, A64_X64, rd, (int64_t)((addr >> 16) & 0xffff), 1);
    a64_movk(as, A64_X64, rd, (int64_t)((addr >> 32) & 0xffff), 2);
}

void a64m_enter(a64_asm *as)
{
    a64_stp_pre(as, A64_RFP, A64_RLR, A64_SP, -16);
    a64_add_imm(as, A64_X64, A64_RFP, A64_SP, 0, 0);
}

void a64m_leave(a64_asm *as)
{
    a64_ldp_post(as, A64_RFP, A64_RLR, A64_SP, 16);
}

static bool d_count_ok(a64_asm *as, const char *what, int n)
{
    if (n < 2 || n > 8 || n % 2) {
        a64_asm_fail(as, "%s: %d registers: d8.. is saved in pairs, 2..8", what, n);
        return false;
    }
    return true;
}

void a64m_push_d(a64_asm *as, int n)
{
    if (!d_count_ok(as, "push_d", n))
        return;
    a64_stpd_pre(as, A64_V8, A64_V9, A64_SP, -8 * n);
    for (int k = 2; k < n; k += 2)
        a64_stpd(as, (a64_vreg)(A64_V8 + k), (a64_vreg)(A64_V9 + k), A64_SP, 8 * k);
}

void a64m_pop_d(a64_asm *as, int n)
{
    if (!d_count_ok(as, "pop_d", n))
        return;
    for (int k = n - 2; k >= 2; k -= 2)
        a64_ldpd(as, (a64_vreg)(A64_V8 + k), (a64_vreg)(A64_V9 + k), A64_SP, 8 * k);
    a64_ldpd_post(as, A64_V8, A64_V9, A64_SP, 8 * n);
}

void a64m_load_block_be(a64_asm *as, a64_reg buf, a64_vreg first, int nregs, bool words64, bool advance)
{
    const a64_arrangement t = words64 ? A64_T2D : A64_T4S;
    for (int r = 0; r < nregs; r += 4) {
        if (advance || r + 4 < nregs)
            a64_ld1_post(as, 4, a64m_vreg_plus(first, r), t, buf, 64);
        else
            a64_ld1(as, 4, a64m_vreg_plus(first, r), t, buf);
    }
    for (int r = 0; r < nregs; r++) {
        if (words64)
            a64_rev64(as, A64_T16B, a64m_vreg_plus(first, r), a64m_vreg_plus(first, r));
        else
            a64_rev32(as, A64_T16B, a64m_vreg_plus(first, r), a64m_vreg_plus(first, r));
    }
}

void a64m_next_block(a64_asm *as, a64_reg ofs, a64_reg limit, int block_bytes, a64_label *next_block)
{
    a64_add_imm(as, A64_W32, ofs, ofs, block_bytes, 0);
    a64_cmp_reg(as, A64_W32, ofs, limit, A64_LSL, 0);
    a64_b_cond(as, A64_LE, next_block);
    a64_mov_reg(as, A64_W32, A64_R0, ofs);
}
