/*
 * cpu/x86_64/macroassembler_x86_64.h — pseudo-instructions over the x86-64
 * encoder (HotSpot's cpu/x86/macroAssembler_x86.hpp): the forms whose best
 * encoding depends on BMI1/BMI2, and the frame helpers every generator needs.
 *
 *   x64m_rol_to(d, s, n, bmi2)     d = rol(s, n)    rorx d, s, 64-n    (BMI2)
 *                                                   mov d, s; rol d, n (else)
 *   x64m_andn_to(d, a, b, bmi1)    d = ~a & b       andn d, a, b       (BMI1)
 *                                                   mov d, a; not d; and d, b
 *   x64m_enter / x64m_leave        push rbp; mov rbp, rsp / leave
 *   x64m_stub_begin / _end         a stub's entry and exit around its frame
 *   x64m_next_block_or_return      the multi-block loop's tail
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

/* reg = the address of a table the stub reads (movabs: the code is not position-independent). */
void x64m_mov_address(x64_asm *as, x64_reg reg, const void *address);

/*
 * A stub's frame (HotSpot's StubCodeMark idiom, written once): push rbp;
 * mov rbp, rsp; the callee-saved registers it uses, pushed in order; rsp
 * aligned down (align 0: not); bytes of locals below them.
 */
typedef struct x64m_frame {
    const x64_reg *saved; /* pushed in this order, popped in reverse */
    int nsaved;
    int32_t bytes;
    int32_t align;        /* 0, or a power of two rsp is rounded down to */
} x64m_frame;

/* Align the stub to 32 bytes, return its entry (the offset of its first byte) and set up f. */
size_t x64m_stub_begin(x64_asm *as, const x64m_frame *f);
/* The stub's exit: vzeroupper (when it used ymm or zmm registers), f undone, ret. */
void x64m_stub_end(x64_asm *as, const x64m_frame *f, bool vzeroupper);

/*
 * The multi-block loop's tail (stubdeclarations.h's contract), after a
 * block: buf += the block size; ofs += it (32-bit, signed); back to block
 * while ofs <= limit; then eax = ofs. The single-block entry: eax = 0.
 * ofs and limit live in registers, or, when ofs is X64_NOREG, in 32-bit
 * slots [rsp + ofs_slot], [rsp + limit_slot], worked on through tmp and
 * tmp2; buf_slot >= 0 stores buf back to [rsp + buf_slot] (a stub that
 * needs every register between blocks).
 */
typedef struct x64m_block_loop {
    x64_reg buf;
    x64_reg block_size;   /* zero-extended; X64_NOREG: the constant block_bytes */
    int32_t block_bytes;
    x64_reg ofs, limit;
    int32_t buf_slot, ofs_slot, limit_slot;
    x64_reg tmp, tmp2;
} x64m_block_loop;

void x64m_next_block_or_return(x64_asm *as, bool multi_block, const x64m_block_loop *l, x64_label *block);

#endif /* MINIVM_MACROASSEMBLER_X86_64_H */
