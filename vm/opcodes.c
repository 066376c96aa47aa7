/*
 * vm/opcodes.c — the opcode table, generated from the list in opcodes.h.
 */
#include "opcodes.h"

const vm_opinfo vm_opinfo_table[VM_NOPCODES] = {
#define X(name, mn, fmt, a, b, c, d, fl, doc) {#name, mn, fmt, {a, b, c, d}, fl, doc},
    VM_OPCODES(X)
#undef X
};

int vm_opcode_writes_a(int op)
{
    const vm_opinfo *oi = &vm_opinfo_table[op];
    if (oi->kind[0] < K_RI || oi->kind[0] > K_RWIN || (oi->flags & VM_OPF_COND))
        return 0;
    switch (op) {
    case OP_PUTSTATIC:
    case OP_BASTORE:
    case OP_IASTORE:
    case OP_LASTORE:
    case OP_LASTOREI:
    case OP_STLE64:
    case OP_STLE32:
    case OP_STBE64:
    case OP_STBE32:
    case OP_PUTF:
    case OP_RET:
    case OP_CALLV:
    case OP_CALLVIRTV: return 0;
    default: return 1;
    }
}
