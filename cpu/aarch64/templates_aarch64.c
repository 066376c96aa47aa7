/*
 * cpu/aarch64/templates_aarch64.c — the compiler tier's AArch64 templates (templates_aarch64.h).
 *
 * The same templates as cpu/x86_64/templates_x86_64.c, opcode for opcode and with the same
 * semantics, through the AArch64 assembler: each translates its opcode's semantics (vm/opcodes.h)
 * for any operands, reading the words' fields, never the shape of the code around them. Three
 * operands make the cache's work simpler than on x86-64: a result goes straight into its slot
 * (its operand's own when that dies here), with no copy first.
 */
#include "templates_aarch64.h"

#include "jit_arch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "intrinsics.h"
#include "macroassembler_aarch64.h"
#include "regcache.h"

#define RW   A64_R19 /* the register window R */
#define RVM  A64_R20
#define RFR  A64_R21
#define RCTX A64_R22
#define RBOT A64_R23 /* the interpreter's entry frame: compiled code never returns from it */

/* scratch */
#define S0 A64_R9
#define S1 A64_R10
#define S2 A64_R11
#define S3 A64_R8
#define T0 A64_R16 /* for the address and immediate helpers below */
#define T1 A64_R17

/* the trampoline's frame: x29, x30, x19..x28, and a scratch slot (a void call's result) */
#define FRAME_BYTES 112
#define SCRATCH_SLOT 96

enum { LEAVE_AT = 1, LEAVE_THROWN = 2 }; /* x0 = the word, or NULL: a helper threw (jit_enter_fn) */

/* ---- addresses and immediates ----------------------------------------------------------------- */

/* rd = imm, in as few instructions as a64m_mov64 takes */
static void mov_imm(a64_asm *as, a64_reg rd, int64_t imm) { a64m_mov64(as, rd, (uint64_t)imm); }

/* a load or store of size bytes (8, 4 or 1; signed: sign-extending) at [rn + off]: the unsigned
   offset form when off fits it, else through T1 (rn and rt are never T1) */
typedef enum { MEM_LDR, MEM_STR, MEM_LDRW, MEM_STRW, MEM_LDRSW, MEM_LDRB, MEM_STRB, MEM_LDRSB } mem_op;

static void mem(a64_asm *as, mem_op op, a64_reg rt, a64_reg rn, int64_t off)
{
    static const int size[] = {8, 8, 4, 4, 4, 1, 1, 1};
    int sz = size[op];
    if (off >= 0 && off % sz == 0 && off / sz <= 4095) {
        switch (op) {
        case MEM_LDR: a64_ldr(as, rt, rn, off); break;
        case MEM_STR: a64_str(as, rt, rn, off); break;
        case MEM_LDRW: a64_ldrw(as, rt, rn, off); break;
        case MEM_STRW: a64_strw(as, rt, rn, off); break;
        case MEM_LDRSW: a64_ldrsw(as, rt, rn, off); break;
        case MEM_LDRB: a64_ldrb(as, rt, rn, off); break;
        case MEM_STRB: a64_strb(as, rt, rn, off); break;
        case MEM_LDRSB: a64_ldrsb(as, rt, rn, off); break;
        }
        return;
    }
    mov_imm(as, T1, off);
    switch (op) {
    case MEM_LDR: a64_ldr_reg(as, rt, rn, T1, 0); break;
    case MEM_STR: a64_str_reg(as, rt, rn, T1, 0); break;
    case MEM_LDRW: a64_ldrw_reg(as, rt, rn, T1, 0); break;
    case MEM_STRW: a64_strw_reg(as, rt, rn, T1, 0); break;
    case MEM_LDRSW: a64_ldrsw_reg(as, rt, rn, T1, 0); break;
    case MEM_LDRB: a64_ldrb_reg(as, rt, rn, T1, 0); break;
    case MEM_STRB: a64_strb_reg(as, rt, rn, T1, 0); break;
    case MEM_LDRSB: a64_ldrsb_reg(as, rt, rn, T1, 0); break;
    }
}

/* rd = rn + imm (any imm; rn may be sp; T0 when it needs a register) */
static void add_imm(a64_asm *as, a64_reg rd, a64_reg rn, int64_t imm)
{
    if (imm >= 0 && imm <= 4095) {
        a64_add_imm(as, A64_X64, rd, rn, imm, 0);
    } else if (imm < 0 && imm >= -4095) {
        a64_sub_imm(as, A64_X64, rd, rn, -imm, 0);
    } else {
        mov_imm(as, T0, imm);
        a64_add_reg(as, A64_X64, rd, rn, T0, A64_LSL, 0);
    }
}

/* flags = rn - imm (w: 32 bits) */
static void cmp_imm(a64_asm *as, a64_width w, a64_reg rn, int64_t imm)
{
    if (imm >= 0 && imm <= 4095) {
        a64_cmp_imm(as, w, rn, imm, 0);
    } else {
        mov_imm(as, T0, imm);
        a64_cmp_reg(as, w, rn, T0, A64_LSL, 0);
    }
}

static void load(a64_asm *as, a64_reg r, uint32_t reg) { mem(as, MEM_LDR, r, RW, 8 * (int64_t)reg); }
static void store(a64_asm *as, uint32_t reg, a64_reg r) { mem(as, MEM_STR, r, RW, 8 * (int64_t)reg); }
static void sxtw(a64_asm *as, a64_reg rd, a64_reg rn) { a64_sbfm(as, A64_X64, rd, rn, 0, 31); }

size_t a64_jit_trampoline(a64_asm *as, size_t *exit_offset)
{
    size_t entry = 4 * a64_asm_pc(as);
    a64_stp_pre(as, A64_RFP, A64_RLR, A64_SP, -FRAME_BYTES);
    a64_add_imm(as, A64_X64, A64_RFP, A64_SP, 0, 0);
    for (int r = 0; r < 10; r += 2)
        a64_stp(as, (a64_reg)(A64_R19 + r), (a64_reg)(A64_R20 + r), A64_SP, 16 + 8 * r);
    a64_mov_reg(as, A64_X64, RCTX, A64_C_RARG0);
    a64_mov_reg(as, A64_X64, RW, A64_C_RARG1);
    a64_mov_reg(as, A64_X64, RFR, A64_C_RARG2);
    a64_mov_reg(as, A64_X64, RBOT, A64_C_RARG4);
    a64_ldr(as, RVM, RCTX, (int64_t)offsetof(jit_ctx, vm));
    a64_br(as, A64_C_RARG3);
    *exit_offset = 4 * a64_asm_pc(as);
    for (int r = 0; r < 10; r += 2)
        a64_ldp(as, (a64_reg)(A64_R19 + r), (a64_reg)(A64_R20 + r), A64_SP, 16 + 8 * r);
    a64_ldp_post(as, A64_RFP, A64_RLR, A64_SP, FRAME_BYTES);
    a64_ret(as, A64_RLR);
    return entry;
}

/* ---- one method ----------------------------------------------------------------------------- */

/* The register cache (compiler/regcache.h): every register the templates do not name, whose
   callbacks below emit the moves. x0, the link register and the frame pointer are free inside
   cache templates: only the templates that write the cache back first (calls, helpers, exits)
   use them, and the trampoline restores x29 and x30. */
#define VC_MAXC 48 /* bytecode registers cached at once */
static const a64_reg VC_REGS[] = {
    A64_R0,  A64_R1,  A64_R2,  A64_R3,  A64_R4,  A64_R5,  A64_R6,  A64_R7,  A64_R12, A64_R13,
    A64_R14, A64_R15, A64_R24, A64_R25, A64_R26, A64_R27, A64_R28, A64_R29, A64_R30,
#ifndef MINIVM_A64_R18_RESERVED
    A64_R18, /* the platform register, free on Linux (reserved on macOS and Windows) */
#endif
};
#define VC_N (sizeof VC_REGS / sizeof VC_REGS[0])

/* an exit to the interpreter with dirty registers: its own label, and the stores before it */
typedef struct leave_stub {
    a64_label label;
    uint32_t k;
    uint8_t n;
    uint8_t reg[RC_MAX_CACHED];  /* the bytecode register ... */
    uint8_t slot[RC_MAX_CACHED]; /* ... and the slot holding it */
    uint8_t narrow[RC_MAX_CACHED];
} leave_stub;

typedef struct pool_entry {
    uint64_t value;
    a64_label label;
} pool_entry;

typedef struct method_compile {
    a64_asm *as;
    const vm_t *vm;
    const vm_method *m;
    jit_ic *ics;      /* per word: a virtual call's inline cache (NULL: none, the helper every time) */
    a64_label *at;    /* per word: bound at its code when something jumps there */
    a64_label *leave; /* per word: its exit to the interpreter, emitted after the code if used */
    uint8_t *leaves;  /* per word: LEAVE_AT, LEAVE_THROWN or 0 (no exit) */
    uint64_t (*live)[VM_MAX_REGS / 64]; /* per word: the registers live on entry (vm_live_in) */
    uint64_t out[VM_MAX_REGS / 64];     /* the registers live after the current word */
    leave_stub *stubs;                  /* the exits with stores */
    size_t nstubs, capstubs;
    bool reach; /* the code so far falls through to the next word */
    regcache rc;
    pool_entry *pool; /* the constant pool, after the code: 64-bit words ldr (literal) loads */
    size_t npool, cappool;
} method_compile;

static void rc_store_a64(void *ctx, uint32_t reg, uint32_t slot)
{
    method_compile *mc = ctx;
    store(mc->as, reg, VC_REGS[slot]);
}

static void rc_load_a64(void *ctx, uint32_t slot, uint32_t reg)
{
    method_compile *mc = ctx;
    load(mc->as, VC_REGS[slot], reg);
}

static void rc_copy_a64(void *ctx, uint32_t dst, uint32_t src, bool sx)
{
    method_compile *mc = ctx;
    if (sx)
        sxtw(mc->as, VC_REGS[dst], VC_REGS[src]);
    else
        a64_mov_reg(mc->as, A64_X64, VC_REGS[dst], VC_REGS[src]);
}

static void rc_widen_a64(void *ctx, uint32_t slot)
{
    method_compile *mc = ctx;
    sxtw(mc->as, VC_REGS[slot], VC_REGS[slot]);
}

/* the register holding R[reg] for an operand (sign-extended when wide): its slot's, or scratch
   loaded from the window */
static a64_reg opnd(method_compile *mc, uint32_t reg, bool wide, a64_reg scratch)
{
    int s = rc_operand(&mc->rc, reg, wide);
    if (s >= 0)
        return VC_REGS[s];
    if (rc_read_again(&mc->rc, reg)) { /* read again in this block: loaded once, into the cache */
        uint32_t t = rc_take(&mc->rc, RC_NONE, RC_NONE, RC_NONE);
        load(mc->as, VC_REGS[t], reg);
        rc_bind(&mc->rc, reg, t, false);
        return VC_REGS[t];
    }
    load(mc->as, scratch, reg);
    return scratch;
}

/* The slot R[a] is computed in from operands b, c, d (RC_NONE: none), whose registers the
   template has already read with opnd: an operand's own slot when it dies at this word (or is
   a) and no other operand shares it, else an empty one. */
static uint32_t dest(method_compile *mc, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    regcache *rc = &mc->rc;
    const uint32_t ops[3] = {b, c, d};
    for (int q = 0; q < 3; q++) {
        uint32_t x = ops[q];
        if (x == RC_NONE || !rc_in_place(rc, a, x))
            continue;
        uint32_t s = (uint32_t)rc->slot[x];
        bool shared = false;
        for (int o = 0; o < 3; o++)
            shared |= ops[o] != x && rc_holds(rc, s, ops[o]);
        if (shared)
            continue;
        rc_unbind(rc, x); /* its value is dead here, or a's old one */
        rc->narrow[s] = 0;
        return s;
    }
    return rc_take(rc, b, c, d);
}

/* where to branch to leave to the interpreter at word k: the dirty registers written back
   first, out of line (the interpreter executes word k again) */
static a64_label *leave_label(method_compile *mc, uint32_t k)
{
    uint8_t reg[RC_MAX_CACHED], slot[RC_MAX_CACHED], narrow[RC_MAX_CACHED];
    uint32_t n = rc_dirty(&mc->rc, reg, slot, narrow);
    if (n == 0) {
        mc->leaves[k] = LEAVE_AT;
        return &mc->leave[k];
    }
    if (mc->nstubs) { /* the same exit as the word's previous one: its stub again */
        leave_stub *last = &mc->stubs[mc->nstubs - 1];
        if (last->k == k && last->n == n && !memcmp(last->reg, reg, n) && !memcmp(last->slot, slot, n) &&
            !memcmp(last->narrow, narrow, n))
            return &last->label;
    }
    if (mc->nstubs == mc->capstubs) {
        size_t cap = mc->capstubs ? 2 * mc->capstubs : 16;
        leave_stub *p = realloc(mc->stubs, cap * sizeof *p);
        if (!p) {
            code_buffer_fail(&mc->as->cb, "no memory to compile %s", mc->m->qname);
            mc->leaves[k] = LEAVE_AT;
            return &mc->leave[k];
        }
        mc->stubs = p;
        mc->capstubs = cap;
    }
    leave_stub *st = &mc->stubs[mc->nstubs++];
    a64_label_init(&st->label);
    st->k = k;
    st->n = (uint8_t)n;
    memcpy(st->reg, reg, n);
    memcpy(st->slot, slot, n);
    memcpy(st->narrow, narrow, n);
    return &st->label;
}

static void leave_if(method_compile *mc, a64_cond c, uint32_t k) { a64_b_cond(mc->as, c, leave_label(mc, k)); }
static void leave_if_zero(method_compile *mc, a64_reg r, uint32_t k)
{
    a64_cbz(mc->as, A64_X64, r, leave_label(mc, k));
}

static void leave_at(method_compile *mc, uint32_t k)
{
    mc->leaves[k] = LEAVE_AT;
    a64_b(mc->as, &mc->leave[k]);
}

/* leave compiled code now with x0: the word to go on at (or NULL: an exception is pending) */
static void leave_with_x0(a64_asm *as)
{
    a64_ldr(as, T0, RCTX, (int64_t)offsetof(jit_ctx, exit));
    a64_br(as, T0);
}

/* rd = v, a pointer or any 64-bit constant: movz/movn when one instruction makes it, else one
   load from the method's constant pool (a64m_mov64 would take up to four) */
static void constant(method_compile *mc, a64_reg rd, uint64_t v)
{
    int halves = 0, ones = 0;
    for (int h = 0; h < 4; h++) {
        halves += ((v >> (16 * h)) & 0xffff) != 0;
        ones += ((v >> (16 * h)) & 0xffff) != 0xffff;
    }
    if (halves <= 1 || ones <= 1) {
        a64m_mov64(mc->as, rd, v);
        return;
    }
    size_t e = 0;
    while (e < mc->npool && mc->pool[e].value != v)
        e++;
    if (e == mc->npool) {
        if (mc->npool == mc->cappool) {
            size_t cap = mc->cappool ? 2 * mc->cappool : 16;
            pool_entry *p = realloc(mc->pool, cap * sizeof *p);
            if (!p) {
                code_buffer_fail(&mc->as->cb, "no memory to compile %s", mc->m->qname);
                return;
            }
            mc->pool = p;
            mc->cappool = cap;
        }
        mc->pool[e].value = v;
        a64_label_init(&mc->pool[e].label);
        mc->npool++;
    }
    a64_ldr_lit(mc->as, rd, &mc->pool[e].label);
}

static void pointer(method_compile *mc, a64_reg rd, const void *p) { constant(mc, rd, (uint64_t)(uintptr_t)p); }

/* ---- arithmetic ------------------------------------------------------------------------------ */

typedef enum { OP2_ADD, OP2_SUB, OP2_AND, OP2_OR, OP2_XOR, OP2_MUL, OP2_ANDN } op2;

static bool bitwise(op2 op) { return op == OP2_AND || op == OP2_OR || op == OP2_XOR || op == OP2_ANDN; }

static void emit_op2(a64_asm *as, op2 op, a64_width w, a64_reg d, a64_reg b, a64_reg c)
{
    switch (op) {
    case OP2_ADD: a64_add_reg(as, w, d, b, c, A64_LSL, 0); break;
    case OP2_SUB: a64_sub_reg(as, w, d, b, c, A64_LSL, 0); break;
    case OP2_AND: a64_and_reg(as, w, d, b, c, A64_LSL, 0); break;
    case OP2_OR: a64_orr_reg(as, w, d, b, c, A64_LSL, 0); break;
    case OP2_XOR: a64_eor_reg(as, w, d, b, c, A64_LSL, 0); break;
    case OP2_MUL: a64_mul(as, w, d, b, c); break;
    case OP2_ANDN: a64_bic_reg(as, w, d, b, c, A64_LSL, 0); break;
    }
}

/* R[a] = R[b] op R[c], 32-bit when w (the result then narrow); a bitwise op of narrow values
   is narrow (their low 32 bits are exact) */
static void alu3(method_compile *mc, op2 op, uint32_t a, uint32_t b, uint32_t c, bool w)
{
    regcache *rc = &mc->rc;
    bool narrow = w || (bitwise(op) && rc_is_narrow(rc, b) && rc_is_narrow(rc, c));
    a64_reg rb = opnd(mc, b, !narrow, S0), rcc = opnd(mc, c, !narrow, S1);
    uint32_t slot = dest(mc, a, b, c, RC_NONE);
    emit_op2(mc->as, op, w ? A64_W32 : A64_X64, VC_REGS[slot], rb, rcc);
    rc_def(rc, a, slot, narrow);
}

/* R[a] = R[b] op imm (ADD, SUB: any imm; AND: 0..255, exact from the low bits alone) */
static void alu_imm(method_compile *mc, op2 op, uint32_t a, uint32_t b, int64_t imm, bool w)
{
    a64_asm *as = mc->as;
    bool low_bits = w || op == OP2_AND;
    a64_reg rb = opnd(mc, b, !low_bits, S0);
    uint32_t slot = dest(mc, a, b, RC_NONE, RC_NONE);
    a64_reg d = VC_REGS[slot];
    a64_width wd = w ? A64_W32 : A64_X64;
    if (op == OP2_SUB)
        imm = -imm;
    if (op == OP2_AND) {
        mov_imm(as, T0, imm);
        a64_and_reg(as, A64_X64, d, rb, T0, A64_LSL, 0);
    } else if (imm >= 0 && imm <= 4095) {
        a64_add_imm(as, wd, d, rb, imm, 0);
    } else if (imm < 0 && imm >= -4095) {
        a64_sub_imm(as, wd, d, rb, -imm, 0);
    } else {
        mov_imm(as, T0, imm);
        a64_add_reg(as, wd, d, rb, T0, A64_LSL, 0);
    }
    rc_def(&mc->rc, a, slot, w);
}

typedef enum { SH_SHL, SH_SHR, SH_SAR, SH_ROL, SH_ROR } shift_op;

/* R[a] = R[b] shifted by R[c] (the count taken modulo 64, or 32 for w, as Java does) */
static void shift_reg(method_compile *mc, shift_op op, uint32_t a, uint32_t b, uint32_t c, bool w)
{
    a64_asm *as = mc->as;
    a64_width wd = w ? A64_W32 : A64_X64;
    a64_reg rb = opnd(mc, b, !w, S0), rcc = opnd(mc, c, false, S1);
    if (op == SH_ROL) { /* rotate right by -count */
        a64_sub_reg(as, A64_W32, T0, A64_ZR, rcc, A64_LSL, 0);
        rcc = T0;
    }
    uint32_t slot = dest(mc, a, b, c, RC_NONE);
    a64_reg d = VC_REGS[slot];
    switch (op) {
    case SH_SHL: a64_lslv(as, wd, d, rb, rcc); break;
    case SH_SHR: a64_lsrv(as, wd, d, rb, rcc); break;
    case SH_SAR: a64_asrv(as, wd, d, rb, rcc); break;
    case SH_ROL:
    case SH_ROR: a64_rorv(as, wd, d, rb, rcc); break;
    }
    rc_def(&mc->rc, a, slot, w);
}

static void shift_imm(method_compile *mc, shift_op op, uint32_t a, uint32_t b, int imm, bool w)
{
    a64_asm *as = mc->as;
    int bits = w ? 32 : 64;
    a64_width wd = w ? A64_W32 : A64_X64;
    imm &= bits - 1;
    a64_reg rb = opnd(mc, b, !w, S0);
    uint32_t slot = dest(mc, a, b, RC_NONE, RC_NONE);
    a64_reg d = VC_REGS[slot];
    switch (op) {
    case SH_SHL: a64_ubfm(as, wd, d, rb, (bits - imm) & (bits - 1), bits - 1 - imm); break;
    case SH_SHR: a64_ubfm(as, wd, d, rb, imm, bits - 1); break;
    case SH_SAR: a64_sbfm(as, wd, d, rb, imm, bits - 1); break;
    case SH_ROL:
    case SH_ROR: {
        int r = op == SH_ROR ? imm : (bits - imm) & (bits - 1);
        if (w)
            a64_extr_w(as, d, rb, rb, r);
        else
            a64_extr(as, d, rb, rb, r);
        break;
    }
    }
    rc_def(&mc->rc, a, slot, w); /* w: a 32-bit result (imm 0 too: int32(R[b])), narrow */
}

/* R[a] = R[b] / R[c] (rem: %), Java's: / by zero leaves (the interpreter throws); sdiv gives
   Long.MIN_VALUE / -1 = Long.MIN_VALUE as Java does, and msub the remainder (outside the cache) */
static void divide(method_compile *mc, uint32_t k, uint32_t a, uint32_t b, uint32_t c, bool rem)
{
    a64_asm *as = mc->as;
    load(as, S1, c);
    leave_if_zero(mc, S1, k);
    load(as, S0, b);
    a64_sdiv(as, A64_X64, S2, S0, S1);
    if (rem)
        a64_msub(as, A64_X64, S2, S2, S1, S0);
    store(as, a, S2);
}

static a64_cond cond_of(uint32_t op)
{
    switch (op) {
    case OP_EQ: case OP_EQI: case OP_EQR: case OP_ISNULL: return A64_EQ;
    case OP_NE: case OP_NEI: case OP_NER: case OP_NONNULL: return A64_NE;
    case OP_LT: case OP_LTI: return A64_LT;
    case OP_GE: case OP_GEI: return A64_GE;
    case OP_LE: case OP_LEI: return A64_LE;
    default: return A64_GT; /* GT, GTI */
    }
}

/* ---- arrays, views and fields ---------------------------------------------------------------- */

/* the array (or record) R[reg]'s register, leaving at k when it is null */
static a64_reg array_of(method_compile *mc, uint32_t k, uint32_t reg)
{
    a64_reg r = opnd(mc, reg, true, S0);
    leave_if_zero(mc, r, k);
    return r;
}

/* the index R[reg]'s register, leaving at k unless 0 <= index < the length of the array in arr */
static a64_reg index_of(method_compile *mc, uint32_t k, a64_reg arr, uint32_t reg)
{
    a64_asm *as = mc->as;
    a64_reg ri = opnd(mc, reg, true, S1);
    a64_ldrsw(as, S2, arr, (int64_t)offsetof(vm_obj, length));
    a64_cmp_reg(as, A64_X64, ri, S2, A64_LSL, 0);
    leave_if(mc, A64_HS, k); /* unsigned: a negative index is out of bounds too */
    return ri;
}

enum elem { ELEM_BYTE = 1, ELEM_INT = 4, ELEM_LONG = 8 };

/* R[a] = R[b][index] (R[ireg], or imm when ireg is RC_NONE) */
static void array_load(method_compile *mc, uint32_t k, uint32_t a, uint32_t b, uint32_t ireg, int64_t imm,
                       enum elem size)
{
    a64_asm *as = mc->as;
    a64_reg arr = array_of(mc, k, b);
    if (ireg == RC_NONE) {
        a64_ldrsw(as, S2, arr, (int64_t)offsetof(vm_obj, length));
        cmp_imm(as, A64_X64, S2, imm);
        leave_if(mc, A64_LE, k); /* length <= imm */
        uint32_t slot = rc_take(&mc->rc, b, RC_NONE, RC_NONE);
        mem(as, size == ELEM_LONG ? MEM_LDR : size == ELEM_INT ? MEM_LDRSW : MEM_LDRSB, VC_REGS[slot], arr,
            (int64_t)offsetof(vm_obj, data) + (int64_t)size * imm);
        rc_def(&mc->rc, a, slot, false);
        return;
    }
    a64_reg ri = index_of(mc, k, arr, ireg);
    a64_add_imm(as, A64_X64, S3, arr, (int64_t)offsetof(vm_obj, data), 0);
    uint32_t slot = rc_take(&mc->rc, b, ireg, RC_NONE);
    a64_reg d = VC_REGS[slot];
    if (size == ELEM_LONG)
        a64_ldr_reg(as, d, S3, ri, 1);
    else if (size == ELEM_INT)
        a64_ldrsw_reg(as, d, S3, ri, 1);
    else
        a64_ldrsb_reg(as, d, S3, ri, 0);
    rc_def(&mc->rc, a, slot, false);
}

/* R[a][index] = R[c], converted */
static void array_store(method_compile *mc, uint32_t k, uint32_t a, uint32_t ireg, int64_t imm, uint32_t c,
                        enum elem size)
{
    a64_asm *as = mc->as;
    a64_reg arr = array_of(mc, k, a);
    if (ireg == RC_NONE) {
        a64_ldrsw(as, S2, arr, (int64_t)offsetof(vm_obj, length));
        cmp_imm(as, A64_X64, S2, imm);
        leave_if(mc, A64_LE, k);
        a64_reg v = opnd(mc, c, size == ELEM_LONG, S2);
        mem(as, size == ELEM_LONG ? MEM_STR : size == ELEM_INT ? MEM_STRW : MEM_STRB, v, arr,
            (int64_t)offsetof(vm_obj, data) + (int64_t)size * imm);
        return;
    }
    a64_reg ri = index_of(mc, k, arr, ireg);
    a64_add_imm(as, A64_X64, S3, arr, (int64_t)offsetof(vm_obj, data), 0);
    a64_reg v = opnd(mc, c, size == ELEM_LONG, S2);
    if (size == ELEM_LONG)
        a64_str_reg(as, v, S3, ri, 1);
    else if (size == ELEM_INT)
        a64_strw_reg(as, v, S3, ri, 1);
    else
        a64_strb_reg(as, v, S3, ri, 0);
}

/* the index R[ireg] of a size-byte view of the byte[] in arr, leaving at k unless
   0 <= index < length - (size - 1), as Java's VarHandle views check */
static a64_reg view_index(method_compile *mc, uint32_t k, a64_reg arr, uint32_t ireg, int size)
{
    a64_asm *as = mc->as;
    a64_reg ri = opnd(mc, ireg, true, S1);
    a64_ldrsw(as, S2, arr, (int64_t)offsetof(vm_obj, length));
    a64_sub_imm(as, A64_X64, S2, S2, size - 1, 0);
    a64_cmp_reg(as, A64_X64, ri, S2, A64_LSL, 0);
    leave_if(mc, A64_GE, k); /* signed: the limit is negative for an array shorter than the view */
    a64_cmp_imm(as, A64_X64, ri, 0, 0);
    leave_if(mc, A64_LT, k);
    return ri;
}

/* R[a] = the size-byte view at R[b][R[c]], big-endian when be; an int's narrow */
static void view_load(method_compile *mc, uint32_t k, uint32_t a, uint32_t b, uint32_t c, int size, bool be)
{
    a64_asm *as = mc->as;
    a64_reg arr = array_of(mc, k, b);
    a64_reg ri = view_index(mc, k, arr, c, size);
    a64_add_imm(as, A64_X64, S3, arr, (int64_t)offsetof(vm_obj, data), 0);
    uint32_t slot = rc_take(&mc->rc, b, c, RC_NONE);
    a64_reg d = VC_REGS[slot];
    if (size == 8) {
        a64_ldr_reg(as, d, S3, ri, 0);
        if (be)
            a64_rev(as, A64_X64, d, d);
    } else {
        a64_ldrw_reg(as, d, S3, ri, 0);
        if (be)
            a64_rev(as, A64_W32, d, d);
    }
    rc_def(&mc->rc, a, slot, size == 4);
}

/* the size-byte view at R[a][R[b]] = R[c] */
static void view_store(method_compile *mc, uint32_t k, uint32_t a, uint32_t b, uint32_t c, int size, bool be)
{
    a64_asm *as = mc->as;
    a64_reg arr = array_of(mc, k, a);
    a64_reg ri = view_index(mc, k, arr, b, size);
    a64_add_imm(as, A64_X64, S3, arr, (int64_t)offsetof(vm_obj, data), 0);
    a64_reg v = opnd(mc, c, false, S2);
    if (be) { /* reversed in a scratch register: the cached value stays */
        a64_rev(as, size == 8 ? A64_X64 : A64_W32, S2, v);
        v = S2;
    }
    if (size == 8)
        a64_str_reg(as, v, S3, ri, 0);
    else
        a64_strw_reg(as, v, S3, ri, 0);
}

/* ---- calls ------------------------------------------------------------------------------------ */

static const void *fn_addr(void (*fn)(void)) { return (const void *)(uintptr_t)fn; }

static void call_c(method_compile *mc, const void *fn)
{
    pointer(mc, T0, fn);
    a64_blr(mc->as, T0);
}

/* fr->pc = the word after k (the interpreter's savepc before a call, a helper, a native) */
static void save_pc(method_compile *mc, uint32_t k)
{
    pointer(mc, S0, &mc->m->code[k + 1]);
    a64_str(mc->as, S0, RFR, (int64_t)offsetof(vm_frame, pc));
}

/* Call helper fn(vm, arg1, arg2) for word k; x0 = its result. When it may allocate or throw,
   fr->pc is the word after k first (the interpreter's savepc), and a NULL result leaves with
   the exception pending. x19..x23 survive the call (callee-saved). */
static void call_helper(method_compile *mc, uint32_t k, const void *fn, bool throws, a64_reg arg1_src,
                        int64_t arg1_imm, int64_t arg2_imm, bool arg2_is_reg, uint32_t arg2_reg)
{
    a64_asm *as = mc->as;
    if (throws)
        save_pc(mc, k);
    if (arg2_is_reg)
        load(as, A64_C_RARG2, arg2_reg);
    else
        mov_imm(as, A64_C_RARG2, arg2_imm);
    if (arg1_src == A64_ZR)
        mov_imm(as, A64_C_RARG1, arg1_imm);
    else
        a64_mov_reg(as, A64_X64, A64_C_RARG1, arg1_src);
    a64_mov_reg(as, A64_X64, A64_C_RARG0, RVM);
    call_c(mc, fn);
    if (throws) {
        mc->leaves[k] = LEAVE_THROWN;
        a64_cbz(as, A64_X64, A64_R0, &mc->leave[k]);
    }
}

/* A native callee, called as the interpreter's do_call does: fn(vm, R + first, dst) with dst
   R[a] (CALL) or the trampoline's scratch slot (CALLV); a status other than VM_OK leaves with
   NULL, the native and its status in the VM (the interpreter's exception path reports its frame
   as native). */
static void call_native(method_compile *mc, const vm_method *callee, uint32_t first, bool has_dst, uint32_t a)
{
    a64_asm *as = mc->as;
    a64_mov_reg(as, A64_X64, A64_C_RARG0, RVM);
    add_imm(as, A64_C_RARG1, RW, 8 * (int64_t)first);
    if (has_dst)
        add_imm(as, A64_C_RARG2, RW, 8 * (int64_t)a);
    else
        a64_add_imm(as, A64_X64, A64_C_RARG2, A64_SP, SCRATCH_SLOT, 0);
    call_c(mc, fn_addr((void (*)(void))callee->native));
    a64_label ok;
    a64_label_init(&ok);
    a64_cbz(as, A64_W32, A64_R0, &ok); /* an int */
    mem(as, MEM_STRW, A64_R0, RVM, (int64_t)offsetof(vm_t, jit_status));
    pointer(mc, S0, callee);
    mem(as, MEM_STR, S0, RVM, (int64_t)offsetof(vm_t, jit_native));
    a64_movz(as, A64_X64, A64_R0, 0, 0);
    leave_with_x0(as);
    a64_bind(as, &ok);
}

/* Copy n registers from src to dst (both 8-byte slots; S2, S3 and T1 as scratch) */
static void copy_slots(a64_asm *as, a64_reg dst, a64_reg src, uint32_t n)
{
    if (n <= 8) {
        for (uint32_t r = 0; r < n; r++) {
            a64_ldr(as, S2, src, 8 * (int64_t)r);
            a64_str(as, S2, dst, 8 * (int64_t)r);
        }
        return;
    }
    a64_label loop;
    a64_label_init(&loop);
    a64_movz(as, A64_X64, S3, 0, 0);
    a64_bind(as, &loop);
    a64_ldr_reg(as, S2, src, S3, 1);
    a64_str_reg(as, S2, dst, S3, 1);
    a64_add_imm(as, A64_X64, S3, S3, 1, 0);
    cmp_imm(as, A64_X64, S3, n);
    a64_b_cond(as, A64_LO, &loop);
}

#define MAX_DIRECTS 8 /* the direct paths a call site has at most */

static int64_t record_field(uint32_t f) { return (int64_t)(offsetof(vm_obj, data) + 8 * (size_t)f); }

/* rd = the record index of the object in obj (a 16-bit field: the word at kind, shifted) */
static void record_of(a64_asm *as, a64_reg rd, a64_reg obj)
{
    a64_ldrw(as, rd, obj, (int64_t)offsetof(vm_obj, kind));
    a64_ubfm(as, A64_W32, rd, rd, 8 * (int)(offsetof(vm_obj, rec) - offsetof(vm_obj, kind)), 31);
}

/*
 * The direct calls of an intrinsic candidate's stub (vm_intrinsic_directs), as C2 calls it:
 * per receiver record the candidate has a link for, vm_intrinsic_call's checks inline, then the
 * stub with the C calling convention, and on at the next word. A receiver of another record, or
 * a check that fails, branches to generic: vm_intrinsic_call, then the bytecode when it declines.
 * The call word's registers are in the window (not a cache template); any may be clobbered.
 */
static void direct_stub_calls(method_compile *mc, uint32_t k, const vm_method *callee, uint32_t first,
                              bool has_result, uint32_t a, a64_label *generic)
{
    _Static_assert(offsetof(vm_obj, kind) % 4 == 0 && offsetof(vm_obj, rec) - offsetof(vm_obj, kind) == 2,
                   "record_of reads kind's word");
    a64_asm *as = mc->as;
    vm_intrinsic_direct d[MAX_DIRECTS];
    size_t n = vm_intrinsic_directs(mc->vm, callee, d, MAX_DIRECTS);
    if (n == 0)
        return;
    a64_label path[MAX_DIRECTS];
    const a64_reg THIS = S0, REC = S1, ST = S2, BUF = A64_R13, OFS = A64_R14, BS = A64_R15, LEN = A64_R12,
                  LIM = A64_R6, X = A64_R7;
    load(as, THIS, first);
    a64_cbz(as, A64_X64, THIS, generic);
    a64_ldrb(as, REC, THIS, (int64_t)offsetof(vm_obj, kind));
    cmp_imm(as, A64_W32, REC, VM_T_RECORD);
    a64_b_cond(as, A64_NE, generic);
    record_of(as, REC, THIS);
    for (size_t i = 0; i < n; i++) {
        a64_label_init(&path[i]);
        cmp_imm(as, A64_W32, REC, d[i].rec);
        a64_b_cond(as, A64_EQ, &path[i]);
    }
    a64_b(as, generic);
    for (size_t i = 0; i < n; i++) {
        a64_bind(as, &path[i]);
        /* x1 = the state's words: a state_kind array of at least state_words */
        mem(as, MEM_LDR, ST, THIS, record_field(d[i].f_state));
        a64_cbz(as, A64_X64, ST, generic);
        a64_ldrb(as, X, ST, (int64_t)offsetof(vm_obj, kind));
        cmp_imm(as, A64_W32, X, d[i].state_kind);
        a64_b_cond(as, A64_NE, generic);
        a64_ldrsw(as, X, ST, (int64_t)offsetof(vm_obj, length));
        cmp_imm(as, A64_X64, X, d[i].state_words);
        a64_b_cond(as, A64_LT, generic);
        a64_add_imm(as, A64_X64, A64_C_RARG1, ST, (int64_t)offsetof(vm_obj, data), 0);
        /* BUF = b, a byte[]; OFS = ofs, 0..INT32_MAX (unsigned: a negative one too) */
        load(as, BUF, first + 1);
        a64_cbz(as, A64_X64, BUF, generic);
        a64_ldrb(as, X, BUF, (int64_t)offsetof(vm_obj, kind));
        cmp_imm(as, A64_W32, X, VM_T_BYTES);
        a64_b_cond(as, A64_NE, generic);
        load(as, OFS, first + 2);
        mov_imm(as, X, INT32_MAX);
        a64_cmp_reg(as, A64_X64, OFS, X, A64_LSL, 0);
        a64_b_cond(as, A64_HI, generic);
        /* BS = blockSize, one the stub knows (block_size_ok) */
        mem(as, MEM_LDR, BS, THIS, record_field(d[i].f_block_size));
        uint32_t mask = d[i].block_sizes;
        if ((mask & (mask - 1)) == 0) {
            int bit = 0;
            while (!((mask >> bit) & 1))
                bit++;
            cmp_imm(as, A64_X64, BS, 8 * bit);
            a64_b_cond(as, A64_NE, generic);
        } else {
            a64_cmp_imm(as, A64_X64, BS, 0, 0);
            a64_b_cond(as, A64_LE, generic);
            a64_cmp_imm(as, A64_X64, BS, 255, 0);
            a64_b_cond(as, A64_GT, generic);
            a64_ubfm(as, A64_X64, X, BS, 0, 2); /* bs & 7 */
            a64_cbnz(as, A64_X64, X, generic);
            a64_ubfm(as, A64_X64, X, BS, 3, 63); /* bs / 8 */
            mov_imm(as, T1, mask);
            a64_lsrv(as, A64_X64, T1, T1, X);
            a64_tbz(as, T1, 0, generic);
        }
        a64_ldrsw(as, LEN, BUF, (int64_t)offsetof(vm_obj, length));
        if (!d[i].multi) {
            /* the block inside b: ofs + bs <= b.length */
            a64_add_reg(as, A64_X64, X, OFS, BS, A64_LSL, 0);
            a64_cmp_reg(as, A64_X64, X, LEN, A64_LSL, 0);
            a64_b_cond(as, A64_GT, generic);
            a64_add_imm(as, A64_X64, A64_C_RARG0, BUF, (int64_t)offsetof(vm_obj, data), 0);
            a64_add_reg(as, A64_X64, A64_C_RARG0, A64_C_RARG0, OFS, A64_LSL, 0);
            if (d[i].pass_block_size)
                a64_mov_reg(as, A64_W32, A64_C_RARG2, BS);
            call_c(mc, d[i].stub);
            if (has_result)
                store(as, a, A64_ZR);
            a64_b(as, &mc->at[k + 1]);
            continue;
        }
        /* LIM = limit, an int; ofs > limit: no block, the result is ofs */
        load(as, LIM, first + 3);
        sxtw(as, X, LIM);
        a64_cmp_reg(as, A64_X64, X, LIM, A64_LSL, 0);
        a64_b_cond(as, A64_NE, generic);
        a64_label blocks;
        a64_label_init(&blocks);
        a64_cmp_reg(as, A64_X64, OFS, LIM, A64_LSL, 0);
        a64_b_cond(as, A64_LE, &blocks);
        if (has_result)
            store(as, a, OFS);
        a64_b(as, &mc->at[k + 1]);
        a64_bind(as, &blocks);
        /* the last block, ofs + (limit - ofs) / bs * bs, inside b */
        a64_sub_reg(as, A64_X64, X, LIM, OFS, A64_LSL, 0);
        a64_sdiv(as, A64_X64, X, X, BS);
        a64_madd(as, A64_X64, X, X, BS, OFS);
        a64_add_reg(as, A64_X64, X, X, BS, A64_LSL, 0);
        a64_cmp_reg(as, A64_X64, X, LEN, A64_LSL, 0);
        a64_b_cond(as, A64_GT, generic);
        a64_add_imm(as, A64_X64, A64_C_RARG0, BUF, (int64_t)offsetof(vm_obj, data), 0);
        a64_add_reg(as, A64_X64, A64_C_RARG0, A64_C_RARG0, OFS, A64_LSL, 0);
        if (d[i].pass_block_size) { /* (buf, state, bs, ofs, limit) */
            a64_mov_reg(as, A64_W32, A64_C_RARG2, BS);
            a64_mov_reg(as, A64_W32, A64_C_RARG3, OFS);
            a64_mov_reg(as, A64_W32, A64_C_RARG4, LIM);
        } else { /* (buf, state, ofs, limit) */
            a64_mov_reg(as, A64_W32, A64_C_RARG2, OFS);
            a64_mov_reg(as, A64_W32, A64_C_RARG3, LIM);
        }
        call_c(mc, d[i].stub);
        if (has_result) {
            sxtw(as, A64_R0, A64_R0);
            store(as, a, A64_R0);
        }
        a64_b(as, &mc->at[k + 1]);
    }
}

/* the top frame after a helper pushed or popped one: RFR = &vm->frames[nframes - 1], RW its
   window */
static void reload_top_frame(a64_asm *as)
{
    mem(as, MEM_LDRW, S1, RVM, (int64_t)offsetof(vm_t, nframes));
    mov_imm(as, S2, (int64_t)sizeof(vm_frame));
    mem(as, MEM_LDR, RFR, RVM, (int64_t)offsetof(vm_t, frames));
    a64_madd(as, A64_X64, RFR, S1, S2, RFR);
    a64_sub_imm(as, A64_X64, RFR, RFR, (int64_t)sizeof(vm_frame), 0);
    mem(as, MEM_LDR, S1, RVM, (int64_t)offsetof(vm_t, stack));
    a64_ldrw(as, S2, RFR, (int64_t)offsetof(vm_frame, base));
    a64_add_reg(as, A64_X64, RW, S1, S2, A64_LSL, 3);
}

/*
 * CALL (R[a] := f(R[a+1]..)) and CALLV (f(R[a]..)) of the method the word names, as the
 * interpreter's do_call: fr->pc first; a native is called; an intrinsic candidate runs its stub
 * when vm_intrinsic_call takes the arguments; otherwise the callee's frame is pushed here (the
 * stack check, the arguments copied, fr->ret_pc the continuation) and its compiled code
 * entered, or, while it has none, compiled code leaves at its first word.
 */
static void call(method_compile *mc, uint32_t k, bool has_result, const vm_method *callee)
{
    a64_asm *as = mc->as;
    const vm_method *m = mc->m;
    uint32_t i = m->code[k], a = GET_A(i), first = has_result ? a + 1 : a;
    save_pc(mc, k);
    if (callee->flags & VM_METHOD_NATIVE) {
        call_native(mc, callee, first, has_result, a);
        return;
    }
    if (callee->flags & VM_METHOD_INTRINSIC) {
        a64_label generic, bytecode;
        a64_label_init(&generic);
        a64_label_init(&bytecode);
        direct_stub_calls(mc, k, callee, first, has_result, a, &generic);
        a64_bind(as, &generic);
        /* vm_intrinsic_call(vm, callee, R + first, dst): 1 when the stub ran */
        a64_mov_reg(as, A64_X64, A64_C_RARG0, RVM);
        pointer(mc, A64_C_RARG1, callee);
        add_imm(as, A64_C_RARG2, RW, 8 * (int64_t)first);
        if (has_result)
            add_imm(as, A64_C_RARG3, RW, 8 * (int64_t)a);
        else
            a64_add_imm(as, A64_X64, A64_C_RARG3, A64_SP, SCRATCH_SLOT, 0);
        call_c(mc, fn_addr((void (*)(void))vm_intrinsic_call));
        a64_cbz(as, A64_W32, A64_R0, &bytecode); /* an int */
        a64_b(as, &mc->at[k + 1]);
        a64_bind(as, &bytecode);
    }
    /* S0 = the callee's window R + m->nregs; S1 = its index in the stack; the stack check: its
       registers and every frame's VM_FRAME_SLOTS, this one's too, within -Xss (vm_stack_room) */
    const a64_reg NW = A64_R4, IDX = A64_R5, NF = A64_R6;
    add_imm(as, NW, RW, 8 * (int64_t)m->nregs);
    mem(as, MEM_LDR, S0, RVM, (int64_t)offsetof(vm_t, stack));
    a64_sub_reg(as, A64_X64, IDX, NW, S0, A64_LSL, 0);
    a64_ubfm(as, A64_X64, IDX, IDX, 3, 63);
    mem(as, MEM_LDRW, NF, RVM, (int64_t)offsetof(vm_t, nframes));
    mov_imm(as, S0, (int64_t)VM_FRAME_SLOTS);
    a64_madd(as, A64_X64, S0, NF, S0, IDX);
    add_imm(as, S0, S0, (int64_t)callee->nregs + VM_FRAME_SLOTS);
    mem(as, MEM_LDRW, S1, RVM, (int64_t)offsetof(vm_t, stack_cap));
    a64_cmp_reg(as, A64_X64, S0, S1, A64_LSL, 0);
    leave_if(mc, A64_HI, k); /* the interpreter throws StackOverflowError */
    /* the caller's frame: where the result goes, and where its return goes on here */
    a64_movz(as, A64_X64, S0, a, 0);
    a64_strb(as, S0, RFR, (int64_t)offsetof(vm_frame, ret_reg));
    a64_adr(as, S0, &mc->at[k + 1]); /* the continuation: the next word's code */
    a64_str(as, S0, RFR, (int64_t)offsetof(vm_frame, ret_pc));
    if (callee->nparams) {
        add_imm(as, S1, RW, 8 * (int64_t)first);
        copy_slots(as, NW, S1, callee->nparams);
    }
    /* push: nframes + 1, the frame, and the callee's window (its compiled code clears the
       registers that need it: jit_entry) */
    a64_add_imm(as, A64_W32, NF, NF, 1, 0);
    mem(as, MEM_STRW, NF, RVM, (int64_t)offsetof(vm_t, nframes));
    a64_add_imm(as, A64_X64, RFR, RFR, (int64_t)sizeof(vm_frame), 0);
    pointer(mc, S0, callee);
    a64_str(as, S0, RFR, (int64_t)offsetof(vm_frame, m));
    a64_strw(as, IDX, RFR, (int64_t)offsetof(vm_frame, base));
    a64_mov_reg(as, A64_X64, RW, NW);
    /* enter the callee's compiled code (jitm[index].jit_entry), or the helper's answer */
    a64_label slow, interpreted;
    a64_label_init(&slow);
    a64_label_init(&interpreted);
    pointer(mc, S0, &mc->vm->jitm[callee->index].jit_entry);
    a64_ldr(as, S0, S0, 0);
    a64_cbz(as, A64_X64, S0, &slow);
    a64_br(as, S0);
    a64_bind(as, &slow);
    a64_mov_reg(as, A64_X64, A64_C_RARG0, RVM);
    pointer(mc, A64_C_RARG1, callee);
    a64_mov_reg(as, A64_X64, A64_C_RARG2, RW);
    call_c(mc, fn_addr((void (*)(void))jit_rt_enter_callee));
    a64_cbz(as, A64_X64, A64_R0, &interpreted);
    a64_br(as, A64_R0);
    a64_bind(as, &interpreted);
    pointer(mc, A64_R0, callee->code);
    leave_with_x0(as);
}

/*
 * CALLVIRT and CALLVIRTV: the receiver picks the callee. With an inline cache, a receiver of the
 * record it last saw calls the bytecode method it ran, here: its frame pushed (its sizes read
 * from the method) and its compiled code entered. Anything else is the C helper's
 * (jit_rt_call_virtual), which pushes the frame itself and fills the cache; compiled code then
 * goes on in the VM's top frame at the address it returns, or leaves where it says.
 */
static void call_virtual(method_compile *mc, uint32_t k)
{
    _Static_assert(offsetof(vm_method, nparams) % 4 <= 2 && offsetof(vm_method, nregs) % 4 <= 2 &&
                       offsetof(vm_method, index) % 4 == 0,
                   "call_virtual reads nparams and nregs from their words");
    a64_asm *as = mc->as;
    const vm_method *m = mc->m;
    uint32_t i = m->code[k], a = GET_A(i), first = GET_OP(i) == OP_CALLVIRT ? a + 1 : a;
    jit_ic *ic = mc->ics ? &mc->ics[k] : NULL;
    const a64_reg CONT = A64_R24, CALLEE = A64_R25, NW = A64_R4, IDX = A64_R5, NP = A64_R6, NR = A64_R7;
    a64_label slow, leave;
    a64_label_init(&slow);
    a64_label_init(&leave);
    save_pc(mc, k);
    a64_adr(as, CONT, &mc->at[k + 1]); /* the continuation: the next word's code */
    if (ic) {
        /* CALLEE = the cached callee, when the receiver's record is the cache's */
        load(as, S0, first);
        a64_cbz(as, A64_X64, S0, &slow);
        record_of(as, S1, S0);
        a64_add_imm(as, A64_X64, S1, S1, 1, 0);
        pointer(mc, S2, ic);
        a64_ldr(as, S3, S2, (int64_t)offsetof(jit_ic, rec));
        a64_cmp_reg(as, A64_X64, S1, S3, A64_LSL, 0);
        a64_b_cond(as, A64_NE, &slow);
        a64_ldr(as, CALLEE, S2, (int64_t)offsetof(jit_ic, callee));
        /* NW = its window, IDX = the window's index; NP = nparams, NR = nregs; the stack check */
        add_imm(as, NW, RW, 8 * (int64_t)m->nregs);
        mem(as, MEM_LDR, S0, RVM, (int64_t)offsetof(vm_t, stack));
        a64_sub_reg(as, A64_X64, IDX, NW, S0, A64_LSL, 0);
        a64_ubfm(as, A64_X64, IDX, IDX, 3, 63);
        a64_ldrw(as, NP, CALLEE, (int64_t)offsetof(vm_method, nparams) & ~(int64_t)3);
        a64_ubfm(as, A64_W32, NP, NP, 8 * (int)(offsetof(vm_method, nparams) & 3), 8 * (int)(offsetof(vm_method, nparams) & 3) + 15);
        a64_ldrw(as, NR, CALLEE, (int64_t)offsetof(vm_method, nregs) & ~(int64_t)3);
        a64_ubfm(as, A64_W32, NR, NR, 8 * (int)(offsetof(vm_method, nregs) & 3), 8 * (int)(offsetof(vm_method, nregs) & 3) + 15);
        mem(as, MEM_LDRW, S1, RVM, (int64_t)offsetof(vm_t, nframes));
        mov_imm(as, S2, (int64_t)VM_FRAME_SLOTS);
        a64_madd(as, A64_X64, S0, S1, S2, IDX);
        add_imm(as, S0, S0, VM_FRAME_SLOTS);
        a64_add_reg(as, A64_X64, S0, S0, NR, A64_LSL, 0);
        mem(as, MEM_LDRW, S1, RVM, (int64_t)offsetof(vm_t, stack_cap));
        a64_cmp_reg(as, A64_X64, S0, S1, A64_LSL, 0);
        a64_b_cond(as, A64_HI, &slow); /* the helper finds no room either, and leaves to throw */
        a64_movz(as, A64_X64, S0, a, 0);
        a64_strb(as, S0, RFR, (int64_t)offsetof(vm_frame, ret_reg));
        a64_str(as, CONT, RFR, (int64_t)offsetof(vm_frame, ret_pc));
        /* the arguments: four whatever the count (inside the stack's slack, as the interpreter's
           do_call), then the rest; the callee's compiled code clears what needs it */
        add_imm(as, S1, RW, 8 * (int64_t)first);
        for (int q = 0; q < 4; q++) {
            a64_ldr(as, S0, S1, 8 * q);
            a64_str(as, S0, NW, 8 * q);
        }
        a64_label more, copied;
        a64_label_init(&more);
        a64_label_init(&copied);
        a64_movz(as, A64_X64, S2, 4, 0);
        a64_cmp_reg(as, A64_X64, S2, NP, A64_LSL, 0);
        a64_b_cond(as, A64_HS, &copied);
        a64_bind(as, &more);
        a64_ldr_reg(as, S0, S1, S2, 1);
        a64_str_reg(as, S0, NW, S2, 1);
        a64_add_imm(as, A64_X64, S2, S2, 1, 0);
        a64_cmp_reg(as, A64_X64, S2, NP, A64_LSL, 0);
        a64_b_cond(as, A64_LO, &more);
        a64_bind(as, &copied);
        /* push: nframes + 1, the frame, the callee's window */
        mem(as, MEM_LDRW, S0, RVM, (int64_t)offsetof(vm_t, nframes));
        a64_add_imm(as, A64_W32, S0, S0, 1, 0);
        mem(as, MEM_STRW, S0, RVM, (int64_t)offsetof(vm_t, nframes));
        a64_add_imm(as, A64_X64, RFR, RFR, (int64_t)sizeof(vm_frame), 0);
        a64_str(as, CALLEE, RFR, (int64_t)offsetof(vm_frame, m));
        a64_strw(as, IDX, RFR, (int64_t)offsetof(vm_frame, base));
        a64_mov_reg(as, A64_X64, RW, NW);
        /* enter: vm->jitm[callee->index].jit_entry, or the helper's answer */
        a64_label helper;
        a64_label_init(&helper);
        a64_ldrw(as, S0, CALLEE, (int64_t)offsetof(vm_method, index));
        mov_imm(as, S1, (int64_t)sizeof(vm_jit_method));
        mem(as, MEM_LDR, S2, RVM, (int64_t)offsetof(vm_t, jitm));
        a64_madd(as, A64_X64, S0, S0, S1, S2);
        a64_ldr(as, S0, S0, (int64_t)offsetof(vm_jit_method, jit_entry));
        a64_cbz(as, A64_X64, S0, &helper);
        a64_br(as, S0);
        a64_bind(as, &helper);
        a64_mov_reg(as, A64_X64, A64_C_RARG0, RVM);
        a64_mov_reg(as, A64_X64, A64_C_RARG1, CALLEE);
        a64_mov_reg(as, A64_X64, A64_C_RARG2, RW);
        call_c(mc, fn_addr((void (*)(void))jit_rt_enter_callee));
        a64_cbz(as, A64_X64, A64_R0, &leave);
        a64_br(as, A64_R0);
        a64_bind(as, &leave); /* no compiled code: leave at its first word, its frame pushed */
        a64_ldr(as, A64_R0, RFR, (int64_t)offsetof(vm_frame, m));
        a64_ldr(as, A64_R0, A64_R0, (int64_t)offsetof(vm_method, code));
        leave_with_x0(as);
    }
    a64_bind(as, &slow);
    a64_mov_reg(as, A64_X64, A64_C_RARG0, RVM);
    a64_mov_reg(as, A64_X64, A64_C_RARG1, RFR);
    a64_mov_reg(as, A64_X64, A64_C_RARG2, RW);
    mov_imm(as, A64_C_RARG3, k);
    a64_mov_reg(as, A64_X64, A64_C_RARG4, CONT);
    pointer(mc, A64_C_RARG5, ic);
    call_c(mc, fn_addr((void (*)(void))jit_rt_call_virtual));
    reload_top_frame(as);
    a64_label out;
    a64_label_init(&out);
    a64_cbz(as, A64_X64, A64_R0, &out);
    a64_br(as, A64_R0);
    a64_bind(as, &out);
    mem(as, MEM_LDR, A64_R0, RVM, (int64_t)offsetof(vm_t, jit_leave));
    leave_with_x0(as);
}

/*
 * RET (R[a]) and RETV, as the interpreter's do_return: never from the interpreter's entry frame
 * (it leaves there, and the interpreter returns); otherwise the frame is popped, the result
 * stored in the caller's R[ret_reg], and the caller's compiled continuation (fr->ret_pc)
 * entered, or compiled code leaves at its saved pc when it has none.
 */
static void ret(method_compile *mc, uint32_t k, bool has_result)
{
    a64_asm *as = mc->as;
    a64_cmp_reg(as, A64_X64, RFR, RBOT, A64_LSL, 0);
    leave_if(mc, A64_EQ, k);
    if (has_result)
        load(as, S3, GET_A(mc->m->code[k]));
    mem(as, MEM_LDRW, S0, RVM, (int64_t)offsetof(vm_t, nframes));
    a64_sub_imm(as, A64_W32, S0, S0, 1, 0);
    mem(as, MEM_STRW, S0, RVM, (int64_t)offsetof(vm_t, nframes));
    a64_sub_imm(as, A64_X64, RFR, RFR, (int64_t)sizeof(vm_frame), 0);
    mem(as, MEM_LDR, S1, RVM, (int64_t)offsetof(vm_t, stack));
    a64_ldrw(as, S2, RFR, (int64_t)offsetof(vm_frame, base));
    a64_add_reg(as, A64_X64, RW, S1, S2, A64_LSL, 3);
    if (has_result) {
        a64_ldrb(as, S2, RFR, (int64_t)offsetof(vm_frame, ret_reg));
        a64_str_reg(as, S3, RW, S2, 1);
    }
    a64_label interpreted;
    a64_label_init(&interpreted);
    a64_ldr(as, S0, RFR, (int64_t)offsetof(vm_frame, ret_pc));
    a64_cbz(as, A64_X64, S0, &interpreted);
    a64_br(as, S0);
    a64_bind(as, &interpreted);
    a64_ldr(as, A64_R0, RFR, (int64_t)offsetof(vm_frame, pc));
    leave_with_x0(as);
}

/* ---- the words ---------------------------------------------------------------------------------- */

/* One word; returns how many words it took (a conditional with its JMP: 2, when nothing jumps
   to that JMP). */
static uint32_t word(method_compile *mc, uint32_t k, const uint8_t *kinds)
{
    a64_asm *as = mc->as;
    regcache *rc = &mc->rc;
    const vm_method *m = mc->m;
    uint32_t i = m->code[k], op = GET_OP(i);
    uint32_t a = GET_A(i), b = GET_B(i), c = GET_C(i);
    switch (op) {
    case OP_NOP: break;
    case OP_MOV: { /* a rename: R[a] shares R[b]'s register */
        if (a == b)
            break;
        int s = rc->slot[b];
        if (s < 0) {
            s = (int)rc_take(rc, RC_NONE, RC_NONE, RC_NONE);
            load(as, VC_REGS[s], b);
            rc_bind(rc, b, (uint32_t)s, false);
        }
        rc_bind(rc, a, (uint32_t)s, true);
        break;
    }
    case OP_LDI:
    case OP_LDK:
    case OP_LDNULL: {
        int64_t v = op == OP_LDI ? GET_sBx(i) : op == OP_LDK ? mc->vm->prog->k[GET_Bx(i)] : 0;
        uint32_t slot = rc_take(rc, RC_NONE, RC_NONE, RC_NONE);
        constant(mc, VC_REGS[slot], (uint64_t)v);
        rc_def(rc, a, slot, false);
        break;
    }
    case OP_GETSTATIC:
    case OP_LDSTR: {
        /* the VM's statics and strings tables never move: vm->statics[Bx], vm->strings[Bx] */
        size_t table = op == OP_LDSTR ? offsetof(vm_t, strings) : offsetof(vm_t, statics);
        mem(as, MEM_LDR, S0, RVM, (int64_t)table);
        uint32_t slot = rc_take(rc, RC_NONE, RC_NONE, RC_NONE);
        mem(as, MEM_LDR, VC_REGS[slot], S0, 8 * (int64_t)GET_Bx(i));
        rc_def(rc, a, slot, false);
        break;
    }
    case OP_PUTSTATIC: {
        a64_reg v = opnd(mc, a, true, S1);
        mem(as, MEM_LDR, S0, RVM, (int64_t)offsetof(vm_t, statics));
        mem(as, MEM_STR, v, S0, 8 * (int64_t)GET_Bx(i));
        break;
    }
    case OP_ADD: alu3(mc, OP2_ADD, a, b, c, false); break;
    case OP_SUB: alu3(mc, OP2_SUB, a, b, c, false); break;
    case OP_AND: alu3(mc, OP2_AND, a, b, c, false); break;
    case OP_OR: alu3(mc, OP2_OR, a, b, c, false); break;
    case OP_XOR: alu3(mc, OP2_XOR, a, b, c, false); break;
    case OP_ANDN: alu3(mc, OP2_ANDN, a, b, c, false); break; /* R[b] & ~R[c] */
    case OP_MUL: alu3(mc, OP2_MUL, a, b, c, false); break;
    case OP_MULW: alu3(mc, OP2_MUL, a, b, c, true); break;
    case OP_ADDI: alu_imm(mc, OP2_ADD, a, b, GET_sC(i), false); break;
    case OP_SUBI: alu_imm(mc, OP2_SUB, a, b, GET_sC(i), false); break;
    case OP_ANDI: alu_imm(mc, OP2_AND, a, b, (int64_t)c, false); break;
    case OP_ADDW: alu3(mc, OP2_ADD, a, b, c, true); break;
    case OP_SUBW: alu3(mc, OP2_SUB, a, b, c, true); break;
    case OP_ADDWI: alu_imm(mc, OP2_ADD, a, b, GET_sC(i), true); break;
    case OP_DIV: divide(mc, k, a, b, c, false); break;
    case OP_REM: divide(mc, k, a, b, c, true); break;
    case OP_NEG:
    case OP_NOT: {
        bool narrow = op == OP_NOT && rc_is_narrow(rc, b);
        a64_reg rb = opnd(mc, b, !narrow, S0);
        uint32_t slot = dest(mc, a, b, RC_NONE, RC_NONE);
        if (op == OP_NEG)
            a64_sub_reg(as, A64_X64, VC_REGS[slot], A64_ZR, rb, A64_LSL, 0);
        else
            a64_orn_reg(as, A64_X64, VC_REGS[slot], A64_ZR, rb, A64_LSL, 0);
        rc_def(rc, a, slot, narrow);
        break;
    }
    case OP_SHL: shift_reg(mc, SH_SHL, a, b, c, false); break;
    case OP_SHR: shift_reg(mc, SH_SHR, a, b, c, false); break;
    case OP_SAR: shift_reg(mc, SH_SAR, a, b, c, false); break;
    case OP_ROL: shift_reg(mc, SH_ROL, a, b, c, false); break;
    case OP_ROR: shift_reg(mc, SH_ROR, a, b, c, false); break;
    case OP_SHLI: shift_imm(mc, SH_SHL, a, b, (int)c, false); break;
    case OP_SHRI: shift_imm(mc, SH_SHR, a, b, (int)c, false); break;
    case OP_SARI: shift_imm(mc, SH_SAR, a, b, (int)c, false); break;
    case OP_ROLI: shift_imm(mc, SH_ROL, a, b, (int)c, false); break;
    case OP_RORI: shift_imm(mc, SH_ROR, a, b, (int)c, false); break;
    case OP_SHLW: shift_reg(mc, SH_SHL, a, b, c, true); break;
    case OP_SHRW: shift_reg(mc, SH_SHR, a, b, c, true); break;
    case OP_SARW: shift_reg(mc, SH_SAR, a, b, c, true); break;
    case OP_ROLW: shift_reg(mc, SH_ROL, a, b, c, true); break;
    case OP_RORW: shift_reg(mc, SH_ROR, a, b, c, true); break;
    case OP_SHLWI: shift_imm(mc, SH_SHL, a, b, (int)c, true); break;
    case OP_SHRWI: shift_imm(mc, SH_SHR, a, b, (int)c, true); break;
    case OP_SARWI: shift_imm(mc, SH_SAR, a, b, (int)c, true); break;
    case OP_ROLWI: shift_imm(mc, SH_ROL, a, b, (int)c, true); break;
    case OP_RORWI: shift_imm(mc, SH_ROR, a, b, (int)c, true); break;
    case OP_XOR3: { /* R[b] ^ R[c] ^ R[d] */
        uint32_t A = GET_A4(i), B = GET_B4(i), C = GET_C4(i), D = GET_D4(i);
        bool narrow = rc_is_narrow(rc, B) && rc_is_narrow(rc, C) && rc_is_narrow(rc, D);
        a64_reg rb = opnd(mc, B, !narrow, S0), rcc = opnd(mc, C, !narrow, S1), rd = opnd(mc, D, !narrow, S2);
        uint32_t slot = dest(mc, A, B, C, D);
        a64m_eor3(as, VC_REGS[slot], rb, rcc, rd);
        rc_def(rc, A, slot, narrow);
        break;
    }
    case OP_BCAX: { /* R[b] ^ (R[c] & ~R[d]) */
        uint32_t A = GET_A4(i), B = GET_B4(i), C = GET_C4(i), D = GET_D4(i);
        bool narrow = rc_is_narrow(rc, B) && rc_is_narrow(rc, C) && rc_is_narrow(rc, D);
        a64_reg rb = opnd(mc, B, !narrow, S0), rcc = opnd(mc, C, !narrow, S1), rd = opnd(mc, D, !narrow, S2);
        uint32_t slot = dest(mc, A, B, C, D);
        a64_bic_reg(as, A64_X64, T0, rcc, rd, A64_LSL, 0);
        a64_eor_reg(as, A64_X64, VC_REGS[slot], rb, T0, A64_LSL, 0);
        rc_def(rc, A, slot, narrow);
        break;
    }
    case OP_XROL: { /* rotl(R[b] ^ R[c], d) */
        uint32_t A = GET_A4(i), B = GET_B4(i), C = GET_C4(i), D = GET_D4(i);
        a64_reg rb = opnd(mc, B, true, S0), rcc = opnd(mc, C, true, S1);
        uint32_t slot = dest(mc, A, B, C, RC_NONE);
        a64_reg d = VC_REGS[slot];
        a64_eor_reg(as, A64_X64, d, rb, rcc, A64_LSL, 0);
        if (D & 63)
            a64_extr(as, d, d, d, (int)((64 - (D & 63)) & 63));
        rc_def(rc, A, slot, false);
        break;
    }
    case OP_RAX1: { /* R[b] ^ rotl(R[c], 1) */
        a64_reg rb = opnd(mc, b, true, S0), rcc = opnd(mc, c, true, S1);
        uint32_t slot = dest(mc, a, b, c, RC_NONE);
        a64_eor_reg(as, A64_X64, VC_REGS[slot], rb, rcc, A64_ROR, 63);
        rc_def(rc, a, slot, false);
        break;
    }
    case OP_L2I: { /* its low 32 bits: a narrow copy, no instruction in place */
        a64_reg rb = opnd(mc, b, false, S0);
        uint32_t slot = dest(mc, a, b, RC_NONE, RC_NONE);
        if (VC_REGS[slot] != rb)
            a64_mov_reg(as, A64_X64, VC_REGS[slot], rb);
        rc_def(rc, a, slot, true);
        break;
    }
    case OP_ZEXTW: {
        a64_reg rb = opnd(mc, b, false, S0);
        uint32_t slot = dest(mc, a, b, RC_NONE, RC_NONE);
        a64_mov_reg(as, A64_W32, VC_REGS[slot], rb);
        rc_def(rc, a, slot, false);
        break;
    }
    case OP_I2B: {
        a64_reg rb = opnd(mc, b, false, S0);
        uint32_t slot = dest(mc, a, b, RC_NONE, RC_NONE);
        a64_sbfm(as, A64_X64, VC_REGS[slot], rb, 0, 7);
        rc_def(rc, a, slot, false);
        break;
    }
    case OP_JMP: {
        uint32_t t = (uint32_t)((int64_t)k + 1 + GET_sJ(i));
        rc_flush(rc, mc->live[t]);
        a64_b(as, &mc->at[t]);
        break;
    }
    case OP_EQ: case OP_NE: case OP_LT: case OP_GE: case OP_LE: case OP_GT:
    case OP_EQR: case OP_NER:
    case OP_EQI: case OP_NEI: case OP_LTI: case OP_GEI: case OP_LEI: case OP_GTI:
    case OP_ISNULL: case OP_NONNULL: {
        uint32_t jmp = m->code[k + 1]; /* the verifier's rule: a conditional's next word is a JMP */
        uint32_t t = (uint32_t)((int64_t)k + 2 + GET_sJ(jmp));
        rc_flush(rc, mc->live[t]); /* the block ends on the taken side */
        a64_reg ra = opnd(mc, a, true, S0);
        if (op == OP_ISNULL || op == OP_NONNULL) {
            if (op == OP_ISNULL)
                a64_cbz(as, A64_X64, ra, &mc->at[t]);
            else
                a64_cbnz(as, A64_X64, ra, &mc->at[t]);
        } else {
            if (op >= OP_EQI && op <= OP_GTI) {
                int64_t imm = GET_sB(i);
                if (imm >= 0)
                    a64_cmp_imm(as, A64_X64, ra, imm, 0);
                else
                    a64_adds_imm(as, A64_X64, A64_ZR, ra, -imm, 0); /* cmn */
            } else {
                a64_reg rb = opnd(mc, b, true, S1);
                a64_cmp_reg(as, A64_X64, ra, rb, A64_LSL, 0);
            }
            a64_b_cond(as, cond_of(op), &mc->at[t]);
        }
        if (!kinds[k + 1])
            return 2; /* the JMP is the conditional's: not taken, go on two words on */
        /* something else jumps to the JMP: the fall-through is a block end too */
        rc_flush(rc, mc->live[k + 2]);
        a64_b(as, &mc->at[k + 2]);
        mc->reach = false;
        break;
    }
    case OP_ALEN: {
        a64_reg arr = array_of(mc, k, b);
        uint32_t slot = rc_take(rc, b, RC_NONE, RC_NONE);
        a64_ldrsw(as, VC_REGS[slot], arr, (int64_t)offsetof(vm_obj, length));
        rc_def(rc, a, slot, false);
        break;
    }
    case OP_BALOAD: array_load(mc, k, a, b, c, 0, ELEM_BYTE); break;
    case OP_IALOAD: array_load(mc, k, a, b, c, 0, ELEM_INT); break;
    case OP_LALOAD: array_load(mc, k, a, b, c, 0, ELEM_LONG); break;
    case OP_LALOADI: array_load(mc, k, a, b, RC_NONE, (int64_t)c, ELEM_LONG); break;
    case OP_BASTORE: array_store(mc, k, a, b, 0, c, ELEM_BYTE); break;
    case OP_IASTORE: array_store(mc, k, a, b, 0, c, ELEM_INT); break;
    case OP_LASTORE: array_store(mc, k, a, b, 0, c, ELEM_LONG); break;
    case OP_LASTOREI: array_store(mc, k, a, RC_NONE, (int64_t)b, c, ELEM_LONG); break;
    case OP_LDLE64: view_load(mc, k, a, b, c, 8, false); break;
    case OP_LDLE32: view_load(mc, k, a, b, c, 4, false); break;
    case OP_LDBE64: view_load(mc, k, a, b, c, 8, true); break;
    case OP_LDBE32: view_load(mc, k, a, b, c, 4, true); break;
    case OP_STLE64: view_store(mc, k, a, b, c, 8, false); break;
    case OP_STLE32: view_store(mc, k, a, b, c, 4, false); break;
    case OP_STBE64: view_store(mc, k, a, b, c, 8, true); break;
    case OP_STBE32: view_store(mc, k, a, b, c, 4, true); break;
    case OP_GETF: {
        a64_reg obj = array_of(mc, k, b); /* the record: null leaves */
        uint32_t slot = rc_take(rc, b, RC_NONE, RC_NONE);
        mem(as, MEM_LDR, VC_REGS[slot], obj, record_field(c));
        rc_def(rc, a, slot, false);
        break;
    }
    case OP_PUTF: {
        a64_reg obj = array_of(mc, k, a);
        a64_reg v = opnd(mc, c, true, S2);
        mem(as, MEM_STR, v, obj, record_field(b));
        break;
    }
    case OP_NEWBA:
    case OP_NEWIA:
    case OP_NEWLA: {
        int64_t kind = op == OP_NEWBA ? VM_T_BYTES : op == OP_NEWIA ? VM_T_INTS : VM_T_LONGS;
        call_helper(mc, k, fn_addr((void (*)(void))jit_rt_new_array), true, A64_ZR, kind, 0, true, b);
        store(as, a, A64_R0);
        break;
    }
    case OP_NEW:
        call_helper(mc, k, fn_addr((void (*)(void))jit_rt_new_record), true, A64_ZR, GET_Bx(i), 0, false, 0);
        store(as, a, A64_R0);
        break;
    case OP_CHECKCAST: {
        /* null passes; a record that is not the register's type leaves (the interpreter throws) */
        a64_label done;
        a64_label_init(&done);
        load(as, S3, b);
        a64_cbz(as, A64_X64, S3, &done);
        call_helper(mc, k, fn_addr((void (*)(void))jit_rt_is_a), false, S3, 0, m->regtypes[a].rec, false, 0);
        leave_if_zero(mc, A64_R0, k);
        load(as, S3, b);
        a64_bind(as, &done);
        store(as, a, S3);
        break;
    }
    case OP_CALL: call(mc, k, true, mc->vm->prog->methods[GET_Bx(i)]); break;
    case OP_CALLV: call(mc, k, false, mc->vm->prog->methods[GET_Bx(i)]); break;
    case OP_CALLVIRT:
    case OP_CALLVIRTV: {
        bool has_result = op == OP_CALLVIRT;
        const vm_method *target = jit_single_target(mc->vm->prog, mc->vm->prog->methods[GET_Bx(i)]);
        if (target) {
            /* a call of its one target, once the receiver is not null (the interpreter throws
               the NullPointerException, its message naming the receiver) */
            load(as, S0, has_result ? a + 1 : a);
            leave_if_zero(mc, S0, k);
            call(mc, k, has_result, target);
        } else {
            call_virtual(mc, k);
        }
        break;
    }
    case OP_RET: ret(mc, k, true); break;
    case OP_RETV: ret(mc, k, false); break;
    default:
        leave_at(mc, k); /* the interpreter executes it */
        break;
    }
    return 1;
}

/* The entry compiled callers use (offset 0, vm_jit_method.jit_entry; word 0 follows): a call
   pushed the frame with the arguments only, so the registers that need it start at zero here as
   the interpreter's call starts them all, every reference (no stale object is a root) and every
   int some path reads before it writes (vm_read_before_written); without its answer, all. */
static void prologue(a64_asm *as, const vm_t *vm, const vm_method *m)
{
    uint64_t need[VM_MAX_REGS / 64];
    bool known = vm_read_before_written(vm->prog, m, need);
    for (uint32_t r = m->nparams; r < m->nregs; r++) {
        if (known && vm_type_is_int(m->regtypes[r]) && !((need[r / 64] >> (r % 64)) & 1))
            continue;
        store(as, r, A64_ZR);
    }
}

/* whether op's template keeps the register cache: it reads and writes bytecode registers only
   through the cache, and calls nothing */
static bool keeps_cache(uint32_t op)
{
    switch (op) {
    case OP_DIV: case OP_REM:
    case OP_NEWBA: case OP_NEWIA: case OP_NEWLA: case OP_NEW: case OP_CHECKCAST:
    case OP_CALL: case OP_CALLV: case OP_CALLVIRT: case OP_CALLVIRTV: case OP_RET: case OP_RETV:
        return false;
    default:
        /* what has no template leaves to the interpreter */
        return op < OP_NEWBA || (op >= OP_ALEN && op <= OP_STBE32) || op == OP_GETF || op == OP_PUTF;
    }
}

bool a64_jit_method(a64_asm *as, const vm_t *vm, const vm_method *m, const uint8_t *kinds, jit_ic *ics,
                    size_t *entry_of)
{
    method_compile mc = {.as = as,
                         .vm = vm,
                         .m = m,
                         .ics = ics,
                         .at = calloc(m->ncode + 1, sizeof *mc.at),
                         .leave = calloc(m->ncode, sizeof *mc.leave),
                         .leaves = calloc(m->ncode, sizeof *mc.leaves),
                         .live = malloc(m->ncode * sizeof *mc.live)};
    if (!mc.at || !mc.leave || !mc.leaves || !mc.live || !vm_live_in(vm->prog, m, mc.live)) {
        code_buffer_fail(&as->cb, "no memory to compile %s", m->qname);
    } else {
        for (uint32_t k = 0; k <= m->ncode; k++)
            a64_label_init(&mc.at[k]);
        for (uint32_t k = 0; k < m->ncode; k++)
            a64_label_init(&mc.leave[k]);
        rc_reset(&mc.rc, m);
        mc.rc.nslots = (uint32_t)VC_N;
        mc.rc.maxc = VC_MAXC;
        mc.rc.store = rc_store_a64;
        mc.rc.load = rc_load_a64;
        mc.rc.copy = rc_copy_a64;
        mc.rc.widen = rc_widen_a64;
        rc_read_ahead(&mc.rc, vm->prog, m, kinds, keeps_cache); /* without: least recently used */
        mc.rc.ctx = &mc;
        mc.rc.out = mc.out;
        prologue(as, vm, m);
        mc.reach = true;
        for (uint32_t k = 0; k < m->ncode;) {
            uint32_t op = GET_OP(m->code[k]);
            bool cached = keeps_cache(op);
            if (kinds[k]) {
                /* a block starts: entered from elsewhere, the registers hold nothing known; the
                   fall-through into it writes back what is live here */
                if (mc.reach)
                    rc_flush(&mc.rc, mc.live[k]);
                rc_forget(&mc.rc);
            } else if (!mc.reach) {
                rc_forget(&mc.rc);
            }
            a64_bind(as, &mc.at[k]);
            entry_of[k] = 4 * a64_asm_pc(as);
            if (!cached) { /* it reads the window, or calls what may */
                rc_flush(&mc.rc, NULL);
                rc_forget(&mc.rc);
            }
            /* the registers live after the word: its successors' */
            jit_live_after(m, (const uint64_t(*)[VM_MAX_REGS / 64])mc.live, k, mc.out);
            uint32_t fl = vm_opinfo_table[op].flags;
            mc.reach = true;
            mc.rc.cur = k;
            uint32_t n = word(&mc, k, kinds);
            if (n == 2) { /* the conditional's JMP: no code of its own, but its label is bound */
                a64_bind(as, &mc.at[k + 1]);
                entry_of[k + 1] = SIZE_MAX;
                memcpy(mc.out, mc.live[k + 2], sizeof mc.out); /* the taken side is written back */
            } else if (fl & VM_OPF_NOFALL)
                mc.reach = false;
            if (cached)
                rc_drop_dead(&mc.rc, mc.out);
            else
                rc_forget(&mc.rc);
            k += n;
        }
        a64_bind(as, &mc.at[m->ncode]); /* never reached: the last word never falls through */
        /* the exits, out of line: the dirty registers written back, x0 = the word (or NULL: a
           helper threw), then the trampoline's exit path */
        for (size_t e = 0; e < mc.nstubs; e++) {
            leave_stub *st = &mc.stubs[e];
            a64_bind(as, &st->label);
            for (uint32_t q = 0; q < st->n; q++) {
                a64_reg r = VC_REGS[st->slot[q]];
                if (st->narrow[q]) /* sign-extended in place: nothing runs after it */
                    sxtw(as, r, r);
                store(as, st->reg[q], r);
            }
            pointer(&mc, A64_R0, &m->code[st->k]);
            leave_with_x0(as);
        }
        for (uint32_t k = 0; k < m->ncode; k++) {
            if (!mc.leaves[k])
                continue;
            a64_bind(as, &mc.leave[k]);
            if (mc.leaves[k] == LEAVE_THROWN)
                a64_movz(as, A64_X64, A64_R0, 0, 0);
            else
                pointer(&mc, A64_R0, &m->code[k]);
            leave_with_x0(as);
        }
    }
    /* the constant pool, 8-byte aligned */
    if (mc.npool && !a64_asm_failed(as)) {
        if (a64_asm_pc(as) % 2)
            a64_emit(as, 0xd503201fu); /* nop */
        for (size_t e = 0; e < mc.npool; e++) {
            a64_bind(as, &mc.pool[e].label);
            a64_emit(as, (uint32_t)mc.pool[e].value);
            a64_emit(as, (uint32_t)(mc.pool[e].value >> 32));
        }
    }
    for (size_t e = 0; e < mc.npool; e++)
        code_label_release(&mc.pool[e].label);
    free(mc.pool);
    for (size_t e = 0; e < mc.nstubs; e++)
        code_label_release(&mc.stubs[e].label);
    if (mc.at)
        for (uint32_t k = 0; k <= m->ncode; k++)
            code_label_release(&mc.at[k]);
    if (mc.leave)
        for (uint32_t k = 0; k < m->ncode; k++)
            code_label_release(&mc.leave[k]);
    free(mc.stubs);
    free(mc.at);
    free(mc.leave);
    free(mc.leaves);
    free(mc.live);
    rc_release(&mc.rc);
    return !a64_asm_failed(as);
}

/* ---- the compiler's interface (compiler/jit_arch.h) ------------------------------------------ */

static bool finish(a64_asm *as, size_t *size, char *err, size_t errlen)
{
    return code_buffer_done(&as->cb, size, err, errlen); /* in bytes */
}

static size_t trampoline(uint8_t *code, size_t cap, size_t *exit_offset, size_t *size, char *err, size_t errlen)
{
    a64_asm as;
    a64_asm_init(&as, (uint32_t *)(void *)code, cap / 4);
    as.cb.fatal = false; /* a refusal fails the compilation, never the VM */
    size_t entry = a64_jit_trampoline(&as, exit_offset);
    return finish(&as, size, err, errlen) ? entry : SIZE_MAX;
}

static bool method(uint8_t *code, size_t cap, const vm_t *vm, const vm_method *m, const uint8_t *kinds,
                   jit_ic *ics, size_t *offset_of, size_t *size, char *err, size_t errlen)
{
    a64_asm as;
    a64_asm_init(&as, (uint32_t *)(void *)code, cap / 4);
    as.cb.fatal = false;
    a64_jit_method(&as, vm, m, kinds, ics, offset_of);
    return finish(&as, size, err, errlen);
}

const jit_arch a64_jit_arch = {
    .name = "aarch64",
    .format = {.llvm_target = "AArch64", .llvm_triple = "aarch64-linux-gnu", .llvm_features = "", .insn_size = 4},
    /* the longest template, a virtual call (its inline cache path and the helper), is about 110
       instructions; a view access has three exits, each with up to VC_MAXC stores (renames) and
       their sign extensions: about 1,200 bytes at worst */
    .word_bytes = 2048,
    .method_bytes = 64,
    .direct_bytes = MAX_DIRECTS * 512, /* a path is about 90 instructions, a record's compare 8 bytes */
    .trampoline = trampoline,
    .method = method,
};
