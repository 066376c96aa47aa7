/*
 * cpu/aarch64/templates_aarch64.h — the compiler tier's AArch64 templates (HotSpot's
 * templateTable_aarch64.cpp, for a baseline compiler; docs/compiler.md, "AArch64"): the
 * trampoline that enters compiled code, and a method's bytecode translated one opcode at a time,
 * as the x86-64 templates do, through the AArch64 assembler.
 *
 * Compiled code works on the interpreter's register window, in memory: R[i] is [x19 + 8 * i].
 * Register roles while it runs (callee-saved, so C helpers and stubs keep them):
 *   x19  R, the register window          x21  the frame (vm_frame *)
 *   x20  the VM (vm_t *)                  x22  the jit_ctx (compiler.h)
 *   x23  the interpreter's entry frame (compiled code never returns from it)
 * The register cache (compiler/regcache.h) has twenty slots, x0..x7, x12..x15, x24..x30 and x18
 * (where the platform does not reserve it); x8..x11, x16 and x17 are the templates' scratch
 * registers. An exit hands back the word in x0, after its stores.
 *
 * Words without a template, and words whose check fails (null, bounds, division by zero),
 * leave compiled code: x0 = the word's address, then br [x22 + exit]. The interpreter executes
 * that word itself.
 */
#ifndef MINIVM_TEMPLATES_AARCH64_H
#define MINIVM_TEMPLATES_AARCH64_H

#include <stdbool.h>
#include <stddef.h>

#include "assembler_aarch64.h"
#include "compiler.h"

/* The trampoline (a jit_enter_fn): saves the callee-saved registers, loads the roles, branches
   to the target; *exit_offset gets the byte offset of the exit path, which restores them and
   returns x0. Returns the entry's byte offset. */
size_t a64_jit_trampoline(a64_asm *as, size_t *exit_offset);

/* Translate m (verified; of vm's program) at the buffer's position. kinds: jit_entry_points';
   entry_of[k] gets the byte offset of word k's code (SIZE_MAX for a conditional's JMP, which
   has none), which may be entered where kinds[k] is set. False when the buffer failed (its
   message says why). */
bool a64_jit_method(a64_asm *as, const vm_t *vm, const vm_method *m, const uint8_t *kinds, jit_ic *ics,
                    size_t *entry_of);

#endif /* MINIVM_TEMPLATES_AARCH64_H */
