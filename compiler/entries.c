/*
 * compiler/entries.c — where compiled code may be entered (compiler.h).
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
