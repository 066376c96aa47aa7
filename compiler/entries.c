/*
 * compiler/entries.c — where compiled code may be entered, what is live after a word, and a
 * virtual call's single target (compiler.h).
 */
#include "compiler.h"

#include <string.h>

static int is_call(uint32_t op)
{
    return op == OP_CALL || op == OP_CALLV || op == OP_CALLVIRT || op == OP_CALLVIRTV;
}

uint32_t jit_entry_points(const vm_method *m, uint8_t *kinds)
{
    if (m->ncode == 0)
        return 0;
    memset(kinds, 0, m->ncode);
    kinds[0] |= JIT_ENTRY_METHOD;
    for (uint32_t k = 0; k < m->ncode; k++) {
        uint32_t w = m->code[k], op = GET_OP(w);
        if (op == OP_JMP) {
            /* after a conditional or alone, the same target: the word after the JMP plus sJ */
            int64_t target = (int64_t)k + 1 + GET_sJ(w);
            if (target >= 0 && target < (int64_t)m->ncode)
                kinds[target] |= JIT_ENTRY_TARGET;
        } else if (is_call(op) && k + 1 < m->ncode) {
            kinds[k + 1] |= JIT_ENTRY_RETURN;
        }
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < m->ncode; k++)
        n += kinds[k] != 0;
    return n;
}

void jit_live_after(const vm_method *m, const uint64_t (*live)[VM_MAX_REGS / 64], uint32_t k,
                    uint64_t out[VM_MAX_REGS / 64])
{
    uint32_t w = m->code[k], op = GET_OP(w), fl = vm_opinfo_table[op].flags;
    memset(out, 0, VM_MAX_REGS / 8);
    if (op == OP_JMP)
        memcpy(out, live[(int64_t)k + 1 + GET_sJ(w)], VM_MAX_REGS / 8);
    else if (!(fl & VM_OPF_NOFALL) && k + 1 < m->ncode)
        memcpy(out, live[k + 1], VM_MAX_REGS / 8);
    if ((fl & VM_OPF_COND) && k + 2 < m->ncode)
        for (int x = 0; x < VM_MAX_REGS / 64; x++)
            out[x] |= live[k + 2][x];
}

const vm_method *jit_single_target(const vm_program *p, const vm_method *declared)
{
    if (declared->vslot < 0 || declared->nparams == 0)
        return NULL;
    uint16_t holder = declared->regtypes[0].rec; /* the receiver: the declaring record */
    const vm_method *target = NULL;
    for (uint32_t r = 0; r < p->nrecords; r++) {
        if (!vm_record_is_a(p->records, (uint16_t)r, holder))
            continue;
        if ((uint32_t)declared->vslot >= p->records[r].nvirtual)
            return NULL;
        const vm_method *body = p->records[r].vtable[declared->vslot];
        if (target && body != target)
            return NULL;
        target = body;
    }
    if (!target || target->flags & (VM_METHOD_ABSTRACT | VM_METHOD_NATIVE))
        return NULL;
    return target;
}
