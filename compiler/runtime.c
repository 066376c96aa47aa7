/*
 * compiler/runtime.c — the C helpers compiled code calls (compiler.h, "Helpers"): the slow
 * paths a template keeps out of line, each what the interpreter's handler does.
 */
#include "compiler.h"

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

const void *jit_rt_callee_entry(vm_t *vm, const vm_method *callee)
{
    vm_jit_method *j = &vm->jitm[callee->index];
    if (!j->entry && ++j->count > vm->compile_threshold) {
        j->entry = vm->jit_hooks->compile(vm, callee);
        if (!j->entry)
            j->count = INT64_MIN; /* never again: the interpreter's compile_method */
    }
    return j->entry ? j->entry[0] : NULL;
}
