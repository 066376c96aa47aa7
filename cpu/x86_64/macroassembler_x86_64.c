/*
 * cpu/x86_64/macroassembler_x86_64.c — see macroassembler_x86_64.h.
 */
#include "macroassembler_x86_64.h"

#include <stdint.h>

void x64m_rol_to(x64_asm *as, x64_reg d, x64_reg s, int n, bool bmi2)
{
    if (n < 0 || n > 63) {
        x64_asm_fail(as, "rol: rotation %d out of range 0..63", n);
        return;
    }
    if (n == 0) {
        if (d != s)
            x64_mov_rr(as, d, s);
        return;
    }
    if (bmi2) {
        x64_rorx(as, d, s, 64 - n);
        return;
    }
    if (d != s)
        x64_mov_rr(as, d, s);
    x64_shift_ri(as, X64_ROL, d, n);
}

void x64m_andn_to(x64_asm *as, x64_reg d, x64_reg a, x64_reg b, bool bmi1)
{
    if (bmi1) {
        x64_andn(as, d, a, b);
        return;
    }
    if (d == b) {
        x64_asm_fail(as, "andn without BMI1: the destination must not be the second source");
        return;
    }
    if (d != a)
        x64_mov_rr(as, d, a);
    x64_not(as, d);
    x64_alu_rr(as, X64_AND, d, b);
}

void x64m_enter(x64_asm *as)
{
    x64_push(as, X64_RBP);
    x64_mov_rr(as, X64_RBP, X64_RSP);
}

void x64m_leave(x64_asm *as) { x64_leave(as); }

void x64m_mov_address(x64_asm *as, x64_reg reg, const void *address)
{
    x64_mov_ri(as, reg, (int64_t)(uintptr_t)address);
}

size_t x64m_stub_begin(x64_asm *as, const x64m_frame *f)
{
    x64_align(as, 32);
    size_t entry = x64_asm_pc(as);
    x64m_enter(as);
    for (int i = 0; i < f->nsaved; i++)
        x64_push(as, f->saved[i]);
    if (f->align)
        x64_alu_ri(as, X64_AND, X64_RSP, -f->align);
    if (f->bytes)
        x64_alu_ri(as, X64_SUB, X64_RSP, f->bytes);
    return entry;
}

void x64m_stub_end(x64_asm *as, const x64m_frame *f, bool vzeroupper)
{
    if (vzeroupper)
        x64_vzeroupper(as);
    if (f->nsaved) {
        /* rsp back to the last push: below an aligned frame only rbp knows where that is */
        if (f->align)
            x64_lea(as, X64_RSP, x64_at(X64_RBP, -8 * f->nsaved));
        else if (f->bytes)
            x64_alu_ri(as, X64_ADD, X64_RSP, f->bytes);
        for (int i = f->nsaved - 1; i >= 0; i--)
            x64_pop(as, f->saved[i]);
    }
    x64m_leave(as);
    x64_ret(as);
}

void x64m_next_block_or_return(x64_asm *as, bool multi_block, const x64m_block_loop *l, x64_label *block)
{
    if (!multi_block) {
        x64_alu_rr_32(as, X64_XOR, X64_RAX, X64_RAX);
        return;
    }
    if (l->block_size != X64_NOREG)
        x64_alu_rr(as, X64_ADD, l->buf, l->block_size);
    else
        x64_alu_ri(as, X64_ADD, l->buf, l->block_bytes);
    if (l->buf_slot >= 0)
        x64_mov_mr(as, x64_at(X64_RSP, l->buf_slot), l->buf);
    x64_reg ofs = l->ofs, limit = l->limit;
    if (ofs == X64_NOREG) {
        ofs = l->tmp;
        limit = l->tmp2;
        x64_mov_rm_32(as, ofs, x64_at(X64_RSP, l->ofs_slot));
    }
    if (l->block_size != X64_NOREG)
        x64_alu_rr_32(as, X64_ADD, ofs, l->block_size);
    else
        x64_alu_ri_32(as, X64_ADD, ofs, l->block_bytes);
    if (l->ofs == X64_NOREG) {
        x64_mov_mr_32(as, x64_at(X64_RSP, l->ofs_slot), ofs);
        x64_mov_rm_32(as, limit, x64_at(X64_RSP, l->limit_slot));
    }
    x64_alu_rr_32(as, X64_CMP, ofs, limit);
    x64_jcc(as, X64_LE, block);
    if (ofs != X64_RAX)
        x64_mov_rr_32(as, X64_RAX, ofs);
}
