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

int vm_operand_fields(uint32_t w, uint32_t f[4])
{
    f[0] = f[1] = f[2] = f[3] = 0;
    switch (vm_opinfo_table[GET_OP(w)].format) {
    case iABC: f[0] = GET_A(w); f[1] = GET_B(w); f[2] = GET_C(w); return 3;
    case iABx:
    case iAsBx: f[0] = GET_A(w); f[1] = GET_Bx(w); return 2;
    case isJ: f[0] = (uint32_t)GET_sJ(w); return 1;
    case iABCD: f[0] = GET_A4(w); f[1] = GET_B4(w); f[2] = GET_C4(w); f[3] = GET_D4(w); return 4;
    }
    return 0;
}
