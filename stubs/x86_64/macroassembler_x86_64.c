/*
 * stubs/x86_64/macroassembler_x86_64.c — see macroassembler_x86_64.h.
 */
#include "macroassembler_x86_64.h"

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

void x64m_enter_saving(x64_asm *as, int32_t frame)
{
    x64m_enter(as);
    x64_push(as, X64_RBX);
    x64_push(as, X64_R12);
    x64_push(as, X64_R13);
    x64_push(as, X64_R14);
    x64_push(as, X64_R15);
    x64_alu_ri(as, X64_SUB, X64_RSP, frame);
}

void x64m_leave_saving(x64_asm *as, int32_t frame)
{
    x64_alu_ri(as, X64_ADD, X64_RSP, frame);
    x64_pop(as, X64_R15);
    x64_pop(as, X64_R14);
    x64_pop(as, X64_R13);
    x64_pop(as, X64_R12);
    x64_pop(as, X64_RBX);
    x64m_leave(as);
}
