/*
 * vm/opcodes.c — the opcode table, generated from the list in opcodes.h.
 */
#include "opcodes.h"

const vm_opinfo vm_opinfo_table[VM_NOPCODES] = {
#define X(name, mn, fmt, a, b, c, d, fl, doc) {#name, mn, fmt, {a, b, c, d}, fl, doc},
    VM_OPCODES(X)
#undef X
};
