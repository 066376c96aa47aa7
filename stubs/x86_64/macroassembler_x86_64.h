/*
 * stubs/x86_64/macroassembler_x86_64.h — pseudo-instructions over the x86-64
 * encoder (HotSpot's cpu/x86/macroAssembler_x86.hpp): the forms whose best
 * encoding depends on BMI1/BMI2, and the frame helpers every generator needs.
 *
 *   x64m_rol_to(d, s, n, bmi2)     d = rol(s, n)    rorx d, s, 64-n    (BMI2)
 *                                                   mov d, s; rol d, n (else)
 *   x64m_andn_to(d, a, b, bmi1)    d = ~a & b       andn d, a, b       (BMI1)
 *                                                   mov d, a; not d; and d, b
 *   x64m_enter / x64m_leave        push rbp; mov rbp, rsp / leave
 *
 * Operands of _to forms may alias the destination only as documented: d may
 * be s (rol); d must not be b (andn without BMI1 writes d before reading b).
 */
#ifndef MINIVM_MACROASSEMBLER_X86_64_H
#define MINIVM_MACROASSEMBLER_X86_64_H

#include <stdbool.h>

#include "assembler_x86_64.h"

/* n 0..63; n == 0 is a plain move (nothing when d == s). */
void x64m_rol_to(x64_asm *as, x64_reg d, x64_reg s, int n, bool bmi2);
/* d == b is refused without BMI1. */
void x64m_andn_to(x64_asm *as, x64_reg d, x64_reg a, x64_reg b, bool bmi1);

void x64m_enter(x64_asm *as);
void x64m_leave(x64_asm *as);

/* The frame of a stub that uses every callee-saved GPR: x64m_enter, rbx and r12..r15 pushed,
   then frame bytes below them; x64m_leave_saving undoes it (before ret). */
void x64m_enter_saving(x64_asm *as, int32_t frame);
void x64m_leave_saving(x64_asm *as, int32_t frame);

#endif /* MINIVM_MACROASSEMBLER_X86_64_H */
