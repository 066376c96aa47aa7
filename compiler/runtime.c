/*
 * compiler/runtime.c — the C helpers compiled code calls (compiler.h, "Helpers"): the slow
 * paths a template keeps out of line, each what the interpreter's handler does.
 */
#include "compiler.h"

#include "intrinsics.h"

vm_obj *jit_rt_new_array(vm_t *vm, int64_t kind, int64_t length)
{
    return vm_new_array(vm, (vm_tkind)kind, length);
}

vm_obj *jit_rt_new_record(vm_t *vm, int64_t rec)
{
    return vm_new_record(vm, (uint16_t)rec);
}

int64_t jit_rt_is_a(const vm_t *vm, const vm_obj *o, int64_t rec)
{
    return vm_record_is_a(vm->prog->records, o->rec, (uint16_t)rec);
}

/* a method's registers past its parameters zeroed, four at a time into the stack's slack as the
   interpreter's do_call (no memset call: GCC would make it one) */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
static void clear_registers(const vm_method *m, vm_value *R)
{
    for (uint32_t r = m->nparams; r < m->nregs; r += 4) {
        R[r].i = 0;
        R[r + 1].i = 0;
        R[r + 2].i = 0;
        R[r + 3].i = 0;
    }
}

const void *jit_rt_enter_callee(vm_t *vm, const vm_method *callee, vm_value *R)
{
    if (vm_jit_count(vm, callee))
        return vm->jitm[callee->index].jit_entry;
    clear_registers(callee, R);
    return NULL;
}

/* GCC would turn the register loops back into memcpy and memset calls (as in vm/interp.c) */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
const void *jit_rt_call_virtual(vm_t *vm, vm_frame *fr, vm_value *R, uint64_t k, const void *cont, jit_ic *ic)
{
    const vm_method *m = fr->m;
    uint32_t i = m->code[k];
    bool has_result = GET_OP(i) == OP_CALLVIRT;
    uint32_t a = GET_A(i), first = has_result ? a + 1 : a;
    const vm_method *declared = vm->prog->methods[GET_Bx(i)];
    const vm_obj *recv = R[first].ref;
    vm->jit_leave = &m->code[k]; /* the interpreter throws there */
    if (!recv)
        return NULL;
    const vm_method *callee = vm->prog->records[recv->rec].vtable[declared->vslot];
    if (callee->flags & VM_METHOD_ABSTRACT)
        return NULL;
    vm_value scratch, *dst = has_result ? &R[a] : &scratch;
    if (callee->flags & VM_METHOD_NATIVE) {
        int st = callee->native(vm, R + first, dst);
        if (st == VM_OK)
            return cont;
        vm->jit_status = st;
        vm->jit_native = callee;
        vm->jit_leave = NULL;
        return NULL;
    }
    if ((callee->flags & VM_METHOD_INTRINSIC) && vm_intrinsic_call(vm, callee, R + first, dst))
        return cont;
    if (ic && !(callee->flags & VM_METHOD_INTRINSIC)) { /* a candidate's calls try the stub each time */
        ic->rec = (uint64_t)recv->rec + 1;
        ic->callee = callee;
    }
    vm_value *nr = R + m->nregs;
    if (!vm_stack_room(vm, (uint32_t)(nr - vm->stack) + callee->nregs))
        return NULL; /* StackOverflowError */
    fr->ret_reg = (uint8_t)a;
    fr->ret_pc = cont;
    /* as the interpreter's do_call: four arguments copied whatever the count (inside the
       stack's slack, VM_STACK_SLACK); the callee's compiled code clears what it needs, or this */
    const vm_value *args = R + first;
    uint32_t np = callee->nparams;
    nr[0] = args[0];
    nr[1] = args[1];
    nr[2] = args[2];
    nr[3] = args[3];
    for (uint32_t r = 4; r < np; r++)
        nr[r] = args[r];
    vm_frame *nf = fr + 1;
    vm->nframes++;
    nf->m = callee;
    nf->base = (uint32_t)(nr - vm->stack);
    const void *entry = jit_rt_enter_callee(vm, callee, nr);
    if (!entry)
        vm->jit_leave = callee->code;
    return entry;
}
