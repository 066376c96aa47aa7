/*
 * cpu/x86_64/templates_x86_64.h — the compiler tier's x86-64 templates (HotSpot's
 * templateTable_x86.cpp, for a baseline compiler; docs/compiler.md): the trampoline that
 * enters compiled code, and a method's bytecode translated one opcode at a time.
 *
 * Compiled code works on the interpreter's register window, in memory: R[i] is qword
 * [rbx + 8 * i]. Register roles while it runs:
 *   rbx  R, the register window          r13  the frame (vm_frame *)
 *   r12  the VM (vm_t *)                  r14  the jit_ctx (compiler.h)
 * and rax, rcx, rdx as scratch. A template keeps nothing in a machine register past its own
 * instruction word, so every word boundary is a place the interpreter's state is whole.
 *
 * Words without a template, and words whose check fails (null, bounds, division by zero),
 * leave compiled code: rax = the word's address, then jmp [r14 + exit]. The interpreter
 * executes that word itself.
 */
#ifndef MINIVM_TEMPLATES_X86_64_H
#define MINIVM_TEMPLATES_X86_64_H

#include <stdbool.h>
#include <stddef.h>

#include "assembler_x86_64.h"
#include "compiler.h"

/* The trampoline (a jit_enter_fn): saves the callee-saved registers, loads the roles, jumps
   to the target; *exit_offset gets the offset of the exit path, which restores them and
   returns rax. Returns the entry's offset. */
size_t x64_jit_trampoline(x64_asm *as, size_t *exit_offset);

/* Translate m (verified; of vm's program) at the buffer's position. kinds: jit_entry_points';
   entry_of[k] gets the offset of word k's code (SIZE_MAX for a conditional's JMP, which has
   none), which may be entered where kinds[k] is set. False when the buffer failed (its
   message says why). */
bool x64_jit_method(x64_asm *as, const vm_t *vm, const vm_method *m, const uint8_t *kinds, jit_ic *ics,
                    size_t *entry_of);

#endif /* MINIVM_TEMPLATES_X86_64_H */
