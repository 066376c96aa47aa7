/*
 * compiler/compiler.h — the compiler tier's shared part (docs/compiler.md): what every
 * architecture's templates need to know about a method's bytecode, free of any architecture.
 *
 * Compiled code works on the interpreter's frames, and the interpreter's loop enters it only
 * at a few bytecode indices: a method's first instruction (a call), the instruction after a
 * call (a return into a compiled caller), and a jump's target (a loop's back-edge: on-stack
 * replacement at the loop head, with the frame unchanged). Each needs a machine address; no
 * other instruction does.
 */
#ifndef MINIVM_COMPILER_H
#define MINIVM_COMPILER_H

#include <stdint.h>

#include "vm.h"

/* Why compiled code may be entered before an instruction word (bits; 0: never). */
enum {
    JIT_ENTRY_METHOD = 1u, /* the method's first word: its callers enter here */
    JIT_ENTRY_TARGET = 2u, /* a jump's target: the interpreter's back-edges enter here */
    JIT_ENTRY_RETURN = 4u, /* the word after a call: a callee's return enters here */
};

/* For each of m's m->ncode instruction words, JIT_ENTRY_* bits into kinds[]. The JMP word
   after a conditional belongs to the conditional (vm/opcodes.h): it is never a target, and
   the conditional's fall-through (two words on) is one only if something jumps there.
   m is verified: every jump lands inside it. Returns how many words have an entry. */
uint32_t jit_entry_points(const vm_method *m, uint8_t *kinds);

/* The registers live after word k of m (verified), from vm_live_in's live-in sets: its
   successors' (a jump's target, the next word, and a conditional's fall-through two words on). */
void jit_live_after(const vm_method *m, const uint64_t (*live)[VM_MAX_REGS / 64], uint32_t k,
                    uint64_t out[VM_MAX_REGS / 64]);

/* The one body a virtual call of declared can run, or NULL: class hierarchy analysis over the
   whole program, which is closed (every record is loaded before anything runs), as HotSpot's
   Dependencies::find_unique_concrete_method. Every record that is a receiver of declared (a
   subtype of its declaring record) has the same method in its slot, and that method is neither
   abstract (the interpreter throws AbstractMethodError) nor native. The templates call it
   directly, after a null check. */
const vm_method *jit_single_target(const vm_program *p, const vm_method *declared);

/*
 * What compiled code and the interpreter's loop share while compiled code runs: the
 * architectures' trampolines keep it in a register (docs/compiler.md, "Entering and
 * leaving"). Compiled code leaves by jumping to exit with the bytecode word the interpreter
 * goes on at, in the top frame: one its templates do not handle, or whose check failed (the
 * interpreter executes it, and throws as it always does).
 */
typedef struct jit_ctx {
    const void *exit;   /* the trampoline's exit path */
    vm_t *vm;
} jit_ctx;

/* The trampoline every architecture generates: enter compiled code at target with the
   register window R of frame fr; returns the word to go on at, or NULL when a helper left an
   exception pending (vm_jit_hooks.enter). */
typedef const uint32_t *(*jit_enter_fn)(jit_ctx *ctx, vm_value *R, vm_frame *fr, const void *target,
                                        vm_frame *bottom);

/* A virtual call site's inline cache (compiled code reads it, jit_rt_call_virtual writes it):
   the receiver record it last saw (rec + 1; 0: none yet) and the bytecode method that record
   runs there. Monomorphic: a miss replaces it. */
typedef struct jit_ic {
    uint64_t rec;
    const vm_method *callee;
} jit_ic;

/*
 * Helpers: what a template calls for a slow path (compiler/runtime.c), with the C calling
 * convention. Compiled code stores fr->pc (the word after the calling one, as the
 * interpreter's savepc) before a helper that may allocate or throw, so the collector and a
 * stack trace see the frame as they see an interpreted one; a NULL result means an
 * exception is pending, and compiled code leaves with NULL (jit_enter_fn).
 */
vm_obj *jit_rt_new_array(vm_t *vm, int64_t kind, int64_t length); /* NEWBA/NEWIA/NEWLA */
vm_obj *jit_rt_new_record(vm_t *vm, int64_t rec);                 /* NEW */
int64_t jit_rt_is_a(const vm_t *vm, const vm_obj *o, int64_t rec); /* CHECKCAST: o non-null */
/* A call from compiled code to a callee with no compiled code yet, its frame pushed with the
   arguments in R: count the invocation, as the interpreter's call does, and compile it once it
   passes CompileThreshold. Returns its jit_entry (which clears what it needs), or NULL after
   clearing its other registers (compiled code then leaves at its first word). */
const void *jit_rt_enter_callee(vm_t *vm, const vm_method *callee, vm_value *R);
/* CALLVIRT/CALLVIRTV at word k of the top frame fr (registers R), fr->pc already the word after
   it: the receiver's method called as the interpreter's do_virtual and do_call do. Returns where
   compiled code goes on (cont, after a native or a stub; the callee's compiled code, its frame
   pushed and fr->ret_pc = cont), or NULL: leave at vm->jit_leave (the word itself when the
   interpreter must throw: a null receiver, an abstract method, no stack left; the callee's first
   word, its frame pushed, when it has no compiled code), which is NULL when a native threw
   (vm->jit_native, vm->jit_status). A bytecode callee goes into ic (when not NULL). */
const void *jit_rt_call_virtual(vm_t *vm, vm_frame *fr, vm_value *R, uint64_t k, const void *cont, jit_ic *ic);

#endif /* MINIVM_COMPILER_H */
