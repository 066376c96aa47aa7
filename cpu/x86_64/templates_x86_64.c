/*
 * cpu/x86_64/templates_x86_64.c — the compiler tier's x86-64 templates (templates_x86_64.h).
 *
 * Each template translates its opcode's semantics (vm/opcodes.h) for any operands: it reads
 * the words' fields, never the shape of the code around them. The templates here cover the
 * moves, the 64- and 32-bit arithmetic, the fused operations, the jumps and conditionals, the
 * long[]/int[]/byte[] element accesses, the byte[] views and record fields; every other word
 * (calls, returns, allocation, statics, strings, casts) leaves to the interpreter.
 */
#include "templates_x86_64.h"

#include "jit_arch.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "intrinsics.h"
#include "regcache.h"

#define RW   X64_RBX /* the register window R */
#define RVM  X64_R12
#define RFR  X64_R13
#define RCTX X64_R14
#define RBOT X64_R15 /* the interpreter's entry frame: compiled code never returns from it */

static x64_mem reg_at(uint32_t r) { return x64_at(RW, (int32_t)(8 * r)); }

size_t x64_jit_trampoline(x64_asm *as, size_t *exit_offset)
{
    static const x64_reg saved[] = {X64_RBX, X64_RBP, X64_R12, X64_R13, X64_R14, X64_R15};
    size_t entry = x64_asm_pc(as);
    for (size_t i = 0; i < sizeof saved / sizeof saved[0]; i++)
        x64_push(as, saved[i]);
    x64_alu_ri(as, X64_SUB, X64_RSP, 8); /* six pushes and the return address: align to 16 for calls */
    x64_mov_rr(as, RCTX, X64_C_RARG0);
    x64_mov_rr(as, RW, X64_C_RARG1);
    x64_mov_rr(as, RFR, X64_C_RARG2);
    x64_mov_rr(as, RBOT, X64_C_RARG4);
    x64_mov_rm(as, RVM, x64_at(RCTX, (int32_t)offsetof(jit_ctx, vm)));
    x64_jmp_r(as, X64_C_RARG3);
    *exit_offset = x64_asm_pc(as);
    x64_alu_ri(as, X64_ADD, X64_RSP, 8);
    for (size_t i = sizeof saved / sizeof saved[0]; i-- > 0;)
        x64_pop(as, saved[i]);
    x64_ret(as);
    return entry;
}

/* ---- one method ----------------------------------------------------------------------------- */

/*
 * The register cache (compiler/regcache.h: the books and the design): seven slots, whose
 * callbacks below emit the moves; rax, rcx and rdx stay the templates' scratch registers.
 */
#define VC_N 7
#define VC_MAXC 16 /* bytecode registers cached at once */
static const x64_reg VC_REGS[VC_N] = {X64_RSI, X64_RDI, X64_R8, X64_R9, X64_R10, X64_R11, X64_RBP};

/* an exit to the interpreter with dirty registers: its own label, and the stores before it */
typedef struct leave_stub {
    x64_label label;
    uint32_t k;
    uint8_t n;
    uint8_t reg[RC_MAX_CACHED];  /* the bytecode register ... */
    uint8_t slot[RC_MAX_CACHED]; /* ... and the slot holding it */
    uint8_t narrow[RC_MAX_CACHED];
} leave_stub;

typedef struct method_compile {
    x64_asm *as;
    const vm_t *vm;
    const vm_method *m;
    jit_ic *ics;       /* per word: a virtual call's inline cache (NULL: none, the helper every time) */
    x64_label *at;     /* per word: bound at its code when something jumps there */
    x64_label *leave;  /* per word: its exit to the interpreter, emitted after the code if used */
    uint8_t *leaves;   /* per word: LEAVE_AT, LEAVE_THROWN or 0 (no exit) */
    size_t *ret_lea;   /* per call word: the end of its lea of the continuation (0: none), patched
                          once the next word's code has an address */
    uint64_t (*live)[VM_MAX_REGS / 64]; /* per word: the registers live on entry (vm_live_in) */
    uint64_t out[VM_MAX_REGS / 64];     /* the registers live after the current word */
    leave_stub *stubs;                  /* the exits with stores */
    size_t nstubs, capstubs;
    bool reach;                         /* the code so far falls through to the next word */
    regcache rc;
} method_compile;

enum { LEAVE_AT = 1, LEAVE_THROWN = 2 }; /* rax = the word, or NULL: a helper threw (jit_enter_fn) */

static void load(x64_asm *as, x64_reg r, uint32_t reg) { x64_mov_rm(as, r, reg_at(reg)); }
static void store(x64_asm *as, uint32_t reg, x64_reg r) { x64_mov_mr(as, reg_at(reg), r); }

/* the register cache's code (compiler/regcache.h) */
static void rc_store_x64(void *ctx, uint32_t reg, uint32_t slot)
{
    method_compile *mc = ctx;
    store(mc->as, reg, VC_REGS[slot]);
}

static void rc_load_x64(void *ctx, uint32_t slot, uint32_t reg)
{
    method_compile *mc = ctx;
    load(mc->as, VC_REGS[slot], reg);
}

static void rc_copy_x64(void *ctx, uint32_t dst, uint32_t src, bool sxtw)
{
    method_compile *mc = ctx;
    if (sxtw)
        x64_movsxd_rr(mc->as, VC_REGS[dst], VC_REGS[src]);
    else
        x64_mov_rr(mc->as, VC_REGS[dst], VC_REGS[src]);
}

static void rc_widen_x64(void *ctx, uint32_t slot)
{
    method_compile *mc = ctx;
    x64_movsxd_rr(mc->as, VC_REGS[slot], VC_REGS[slot]);
}

/* the register holding R[reg] for an operand (sign-extended when wide), or X64_NOREG: the
   window is right (a clean register's copy) */
static x64_reg vc_operand(method_compile *mc, uint32_t reg, bool wide)
{
    int s = rc_operand(&mc->rc, reg, wide);
    return s < 0 ? X64_NOREG : VC_REGS[s];
}

/* r (a scratch register) = R[reg], sign-extended when wide */
static void vc_load(method_compile *mc, x64_reg r, uint32_t reg, bool wide)
{
    x64_reg c = vc_operand(mc, reg, wide);
    if (c == X64_NOREG)
        x64_mov_rm(mc->as, r, reg_at(reg));
    else if (c != r)
        x64_mov_rr(mc->as, r, c);
}

/* op d, R[reg]: its register when cached, else the window */
static void vc_alu(method_compile *mc, x64_alu op, x64_reg d, uint32_t reg, bool wide)
{
    x64_reg c = vc_operand(mc, reg, wide);
    if (c == X64_NOREG)
        x64_alu_rm(mc->as, op, d, reg_at(reg));
    else
        x64_alu_rr(mc->as, op, d, c);
}

/* leave to the interpreter at word k when condition c holds: the dirty registers written back
   first, out of line (the interpreter executes word k again) */
static void leave_if(method_compile *mc, x64_cond c, uint32_t k)
{
    uint32_t ndirty = 0;
    for (uint32_t i = 0; i < mc->rc.n; i++)
        ndirty += mc->rc.dirty[mc->rc.list[i]];
    if (ndirty == 0) {
        mc->leaves[k] = LEAVE_AT;
        x64_jcc(mc->as, c, &mc->leave[k]);
        return;
    }
    if (mc->nstubs == mc->capstubs) {
        size_t cap = mc->capstubs ? 2 * mc->capstubs : 16;
        leave_stub *p = realloc(mc->stubs, cap * sizeof *p);
        if (!p) {
            code_buffer_fail(&mc->as->cb, "no memory to compile %s", mc->m->qname);
            return;
        }
        mc->stubs = p;
        mc->capstubs = cap;
    }
    leave_stub *st = &mc->stubs[mc->nstubs++];
    x64_label_init(&st->label);
    st->k = k;
    st->n = (uint8_t)rc_dirty(&mc->rc, st->reg, st->slot, st->narrow);
    x64_jcc(mc->as, c, &st->label);
}

static void leave_at(method_compile *mc, uint32_t k)
{
    mc->leaves[k] = LEAVE_AT;
    x64_jmp(mc->as, &mc->leave[k]);
}

static bool bitwise(x64_alu op) { return op == X64_AND || op == X64_OR || op == X64_XOR; }

/* R[a] = R[b] op R[c] (op an x64_alu), sign-extended from 32 bits when w (the result then
   narrow); a bitwise op of narrow values is narrow; a commutative op computes in whichever
   operand's register it can */
static void alu3(method_compile *mc, x64_alu op, uint32_t a, uint32_t b, uint32_t c, bool w)
{
    bool commutes = op == X64_ADD || bitwise(op);
    bool narrow = w || (bitwise(op) && rc_is_narrow(&mc->rc, b) && rc_is_narrow(&mc->rc, c));
    if (commutes && c != b && rc_in_place(&mc->rc, a, c) && !rc_in_place(&mc->rc, a, b)) {
        uint32_t t = b;
        b = c;
        c = t;
    }
    uint32_t slot = rc_dest(&mc->rc, a, b, !narrow, c, UINT32_MAX);
    vc_alu(mc, op, VC_REGS[slot], c, !narrow);
    rc_def(&mc->rc, a, slot, narrow);
}

static void alu_imm(method_compile *mc, x64_alu op, uint32_t a, uint32_t b, int32_t imm, bool w)
{
    /* w: the low 32 bits, narrow; and with 0..255 (ANDI): exact from the low bits alone */
    bool low_bits = w || op == X64_AND;
    uint32_t slot = rc_dest(&mc->rc, a, b, !low_bits, UINT32_MAX, UINT32_MAX);
    x64_alu_ri(mc->as, op, VC_REGS[slot], imm);
    rc_def(&mc->rc, a, slot, w);
}

/* R[a] = R[b] shifted by R[c] (the CPU masks cl as Java does: 63, or 31 for w), or by imm */
static void shift_reg(method_compile *mc, x64_shift op, uint32_t a, uint32_t b, uint32_t c, bool w)
{
    vc_load(mc, X64_RCX, c, false); /* the count's low bits */
    uint32_t slot = rc_dest(&mc->rc, a, b, !w, UINT32_MAX, UINT32_MAX);
    if (w)
        x64_shift_rcl_32(mc->as, op, VC_REGS[slot]);
    else
        x64_shift_rcl(mc->as, op, VC_REGS[slot]);
    rc_def(&mc->rc, a, slot, w);
}

static void shift_imm(method_compile *mc, x64_shift op, uint32_t a, uint32_t b, int imm, bool w)
{
    uint32_t slot = rc_dest(&mc->rc, a, b, !w, UINT32_MAX, UINT32_MAX);
    if (imm && w)
        x64_shift_ri_32(mc->as, op, VC_REGS[slot], imm);
    else if (imm)
        x64_shift_ri(mc->as, op, VC_REGS[slot], imm);
    rc_def(&mc->rc, a, slot, w); /* w with imm 0: int32(R[b]), narrow too */
}

/* R[a] = R[b] / R[c] (rem: %), Java's: / by zero leaves (the interpreter throws); x / -1 is
   -x (idiv would trap on Long.MIN_VALUE / -1) and x % -1 is 0 (outside the cache) */
static void divide(method_compile *mc, uint32_t k, uint32_t a, uint32_t b, uint32_t c, bool rem)
{
    x64_asm *as = mc->as;
    x64_label minus_one, done;
    x64_label_init(&minus_one);
    x64_label_init(&done);
    load(as, X64_RCX, c);
    x64_test_rr(as, X64_RCX, X64_RCX);
    leave_if(mc, X64_E, k);
    load(as, X64_RAX, b);
    x64_alu_ri(as, X64_CMP, X64_RCX, -1);
    x64_jcc(as, X64_E, &minus_one);
    x64_cqo(as);
    x64_idiv(as, X64_RCX);
    store(as, a, rem ? X64_RDX : X64_RAX);
    x64_jmp(as, &done);
    x64_bind(as, &minus_one);
    if (rem) {
        x64_mov_mi(as, reg_at(a), 0);
    } else {
        x64_neg(as, X64_RAX);
        store(as, a, X64_RAX);
    }
    x64_bind(as, &done);
}

static x64_cond cond_of(uint32_t op)
{
    switch (op) {
    case OP_EQ: case OP_EQI: case OP_EQR: case OP_ISNULL: return X64_E;
    case OP_NE: case OP_NEI: case OP_NER: case OP_NONNULL: return X64_NE;
    case OP_LT: case OP_LTI: return X64_L;
    case OP_GE: case OP_GEI: return X64_GE;
    case OP_LE: case OP_LEI: return X64_LE;
    default: return X64_G; /* GT, GTI */
    }
}

/* rax = the array (or record) R[reg], leaving at k when it is null */
static void array_of(method_compile *mc, uint32_t k, uint32_t reg)
{
    vc_load(mc, X64_RAX, reg, true);
    x64_test_rr(mc->as, X64_RAX, X64_RAX);
    leave_if(mc, X64_E, k);
}

/* rcx = the index R[reg] (or imm when reg is UINT32_MAX), leaving at k unless
   0 <= index < the length of the array in rax */
static void index_of(method_compile *mc, uint32_t k, uint32_t reg, int32_t imm)
{
    x64_asm *as = mc->as;
    if (reg == UINT32_MAX)
        x64_mov_ri(as, X64_RCX, imm);
    else
        vc_load(mc, X64_RCX, reg, true);
    x64_movsxd_rm(as, X64_RDX, x64_at(X64_RAX, (int32_t)offsetof(vm_obj, length)));
    x64_alu_rr(as, X64_CMP, X64_RCX, X64_RDX);
    leave_if(mc, X64_AE, k); /* unsigned: a negative index is out of bounds too */
}

enum elem { ELEM_BYTE = 1, ELEM_INT = 4, ELEM_LONG = 8 };

static x64_mem element(int size)
{
    return x64_at_index(X64_RAX, X64_RCX, size, (int32_t)offsetof(vm_obj, data));
}

/* R[a] = R[b][index] */
static void array_load(method_compile *mc, uint32_t k, uint32_t a, uint32_t b, uint32_t ireg, int32_t imm,
                       enum elem size)
{
    x64_asm *as = mc->as;
    array_of(mc, k, b);
    index_of(mc, k, ireg, imm);
    uint32_t slot = rc_take(&mc->rc, UINT32_MAX, UINT32_MAX, RC_NONE);
    x64_reg d = VC_REGS[slot];
    if (size == ELEM_LONG)
        x64_mov_rm(as, d, element(8));
    else if (size == ELEM_INT)
        x64_movsxd_rm(as, d, element(4));
    else
        x64_movsxb_rm(as, d, element(1));
    rc_def(&mc->rc, a, slot, false);
}

/* R[a][index] = R[c], converted */
static void array_store(method_compile *mc, uint32_t k, uint32_t a, uint32_t ireg, int32_t imm, uint32_t c,
                        enum elem size)
{
    x64_asm *as = mc->as;
    array_of(mc, k, a);
    index_of(mc, k, ireg, imm);
    vc_load(mc, X64_RDX, c, size == ELEM_LONG);
    if (size == ELEM_LONG)
        x64_mov_mr(as, element(8), X64_RDX);
    else if (size == ELEM_INT)
        x64_mov_mr_32(as, element(4), X64_RDX);
    else
        x64_mov_mr_8(as, element(1), X64_RDX);
}

/* rcx = the index R[ireg] of a size-byte view of the byte[] in rax, leaving at k unless
   0 <= index < length - (size - 1), as Java's VarHandle views check */
static void view_index(method_compile *mc, uint32_t k, uint32_t ireg, int size)
{
    x64_asm *as = mc->as;
    vc_load(mc, X64_RCX, ireg, true);
    x64_movsxd_rm(as, X64_RDX, x64_at(X64_RAX, (int32_t)offsetof(vm_obj, length)));
    x64_alu_ri(as, X64_SUB, X64_RDX, size - 1);
    x64_alu_rr(as, X64_CMP, X64_RCX, X64_RDX);
    leave_if(mc, X64_GE, k); /* signed: the limit is negative for an array shorter than the view */
    x64_test_rr(as, X64_RCX, X64_RCX);
    leave_if(mc, X64_S, k);
}

/* R[a] = the size-byte view at R[b][R[c]], big-endian when be; an int's sign-extended */
static void view_load(method_compile *mc, uint32_t k, uint32_t a, uint32_t b, uint32_t c, int size, bool be)
{
    x64_asm *as = mc->as;
    array_of(mc, k, b);
    view_index(mc, k, c, size);
    uint32_t slot = rc_take(&mc->rc, UINT32_MAX, UINT32_MAX, RC_NONE);
    x64_reg d = VC_REGS[slot];
    x64_mem at = element(1);
    if (size == 8) {
        x64_mov_rm(as, d, at);
        if (be)
            x64_bswap(as, d);
    } else {
        x64_mov_rm_32(as, d, at);
        if (be)
            x64_bswap_32(as, d);
    }
    rc_def(&mc->rc, a, slot, size == 4);
}

/* the size-byte view at R[a][R[b]] = R[c] */
static void view_store(method_compile *mc, uint32_t k, uint32_t a, uint32_t b, uint32_t c, int size, bool be)
{
    x64_asm *as = mc->as;
    array_of(mc, k, a);
    view_index(mc, k, b, size);
    vc_load(mc, X64_RDX, c, size == 8);
    if (size == 8) {
        if (be)
            x64_bswap(as, X64_RDX);
        x64_mov_mr(as, element(1), X64_RDX);
    } else {
        if (be)
            x64_bswap_32(as, X64_RDX);
        x64_mov_mr_32(as, element(1), X64_RDX);
    }
}

/* Call helper fn(vm, arg1, arg2) for word k; rax = its result. When it may allocate or throw,
   fr->pc is the word after k first (the interpreter's savepc), and a NULL result leaves with
   the exception pending. rbx, r12..r14 survive the call (callee-saved); the trampoline keeps
   the stack 16-byte aligned. */
static void call_helper(method_compile *mc, uint32_t k, const void *fn, bool throws, x64_reg arg1_src,
                        int64_t arg1_imm, int64_t arg2_imm, bool arg2_is_reg, uint32_t arg2_reg)
{
    x64_asm *as = mc->as;
    if (throws) {
        x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)&mc->m->code[k + 1]);
        x64_mov_mr(as, x64_at(RFR, (int32_t)offsetof(vm_frame, pc)), X64_RAX);
    }
    if (arg2_is_reg)
        load(as, X64_C_RARG2, arg2_reg);
    else
        x64_mov_ri(as, X64_C_RARG2, arg2_imm);
    if (arg1_src == X64_NOREG)
        x64_mov_ri(as, X64_C_RARG1, arg1_imm);
    else
        x64_mov_rr(as, X64_C_RARG1, arg1_src);
    x64_mov_rr(as, X64_C_RARG0, RVM);
    x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)fn);
    x64_call_r(as, X64_RAX);
    if (throws) {
        x64_test_rr(as, X64_RAX, X64_RAX);
        mc->leaves[k] = LEAVE_THROWN;
        x64_jcc(as, X64_E, &mc->leave[k]);
    }
}

static const void *fn_addr(void (*fn)(void)) { return (const void *)(uintptr_t)fn; }

static x64_mem vmf(size_t offset) { return x64_at(RVM, (int32_t)offset); }
static x64_mem frame_field(size_t offset) { return x64_at(RFR, (int32_t)offset); }

/* leave compiled code now with rax: the word to go on at (or NULL: an exception is pending) */
static void leave_with_rax(x64_asm *as) { x64_jmp_m(as, x64_at(RCTX, (int32_t)offsetof(jit_ctx, exit))); }

/* fr->pc = the word after k (the interpreter's savepc before a call, a helper, a native) */
static void save_pc(method_compile *mc, uint32_t k)
{
    x64_mov_ri(mc->as, X64_RAX, (int64_t)(uintptr_t)&mc->m->code[k + 1]);
    x64_mov_mr(mc->as, frame_field(offsetof(vm_frame, pc)), X64_RAX);
}

/* A native callee, called as the interpreter's do_call does: fn(vm, R + first, dst) with dst
   R[a] (CALL) or a scratch slot (CALLV); a status other than VM_OK leaves with NULL, the native
   and its status in the VM (the interpreter's exception path reports its frame as native). */
static void call_native(method_compile *mc, const vm_method *callee, uint32_t first, bool has_dst, uint32_t a)
{
    x64_asm *as = mc->as;
    x64_mov_rr(as, X64_C_RARG0, RVM);
    x64_lea(as, X64_C_RARG1, reg_at(first));
    if (has_dst)
        x64_lea(as, X64_C_RARG2, reg_at(a));
    else
        x64_mov_rr(as, X64_C_RARG2, X64_RSP); /* the trampoline's alignment slot */
    x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)fn_addr((void (*)(void))callee->native));
    x64_call_r(as, X64_RAX);
    x64_label ok;
    x64_label_init(&ok);
    x64_alu_ri_32(as, X64_CMP, X64_RAX, 0); /* an int */
    x64_jcc(as, X64_E, &ok);
    x64_mov_mr_32(as, vmf(offsetof(vm_t, jit_status)), X64_RAX);
    x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)callee);
    x64_mov_mr(as, vmf(offsetof(vm_t, jit_native)), X64_RAX);
    x64_alu_rr(as, X64_XOR, X64_RAX, X64_RAX);
    leave_with_rax(as);
    x64_bind(as, &ok);
}

/* Copy n registers from src to dst (both 8-byte slots; r8, r9, r10 and rax as scratch) */
static void copy_slots(x64_asm *as, x64_reg dst, x64_reg src, uint32_t n)
{
    if (n <= 8) {
        for (uint32_t r = 0; r < n; r++) {
            x64_mov_rm(as, X64_RAX, x64_at(src, (int32_t)(8 * r)));
            x64_mov_mr(as, x64_at(dst, (int32_t)(8 * r)), X64_RAX);
        }
        return;
    }
    x64_label loop;
    x64_label_init(&loop);
    x64_lea(as, X64_R9, x64_at(src, 0));
    x64_lea(as, X64_R10, x64_at(dst, 0));
    x64_mov_ri(as, X64_R8, n);
    x64_bind(as, &loop);
    x64_mov_rm(as, X64_RAX, x64_at(X64_R9, 0));
    x64_mov_mr(as, x64_at(X64_R10, 0), X64_RAX);
    x64_alu_ri(as, X64_ADD, X64_R9, 8);
    x64_alu_ri(as, X64_ADD, X64_R10, 8);
    x64_alu_ri_32(as, X64_SUB, X64_R8, 1);
    x64_jcc(as, X64_NE, &loop);
}

#define MAX_DIRECTS 8 /* the direct paths a call site has at most (jit.c's JIT_DIRECT_BYTES each) */

static x64_mem obj_field(x64_reg obj, size_t offset) { return x64_at(obj, (int32_t)offset); }
static x64_mem record_field(x64_reg obj, uint32_t f)
{
    return x64_at(obj, (int32_t)(offsetof(vm_obj, data) + 8 * f));
}

/*
 * The direct calls of an intrinsic candidate's stub (vm_intrinsic_directs), as C2 calls it:
 * per receiver record the candidate has a link for, vm_intrinsic_call's checks inline, then the
 * stub with the C calling convention, and on at the next word. A receiver of another record, or
 * a check that fails, jumps to generic: vm_intrinsic_call, then the bytecode when it declines.
 * The call word's registers are in the window (not a cache template); any may be clobbered.
 */
static void direct_stub_calls(method_compile *mc, uint32_t k, const vm_method *callee, uint32_t first,
                              bool has_result, uint32_t a, x64_label *generic)
{
    x64_asm *as = mc->as;
    vm_intrinsic_direct d[MAX_DIRECTS];
    size_t n = vm_intrinsic_directs(mc->vm, callee, d, MAX_DIRECTS);
    if (n == 0)
        return;
    x64_label path[MAX_DIRECTS];
    load(as, X64_RAX, first); /* this */
    x64_test_rr(as, X64_RAX, X64_RAX);
    x64_jcc(as, X64_E, generic);
    x64_movzxb_rm_32(as, X64_RCX, obj_field(X64_RAX, offsetof(vm_obj, kind)));
    x64_alu_ri_32(as, X64_CMP, X64_RCX, VM_T_RECORD);
    x64_jcc(as, X64_NE, generic);
    x64_mov_rm_32(as, X64_RCX, obj_field(X64_RAX, offsetof(vm_obj, rec)));
    x64_alu_ri_32(as, X64_AND, X64_RCX, 0xffff);
    for (size_t i = 0; i < n; i++) {
        x64_label_init(&path[i]);
        x64_alu_ri_32(as, X64_CMP, X64_RCX, d[i].rec);
        x64_jcc(as, X64_E, &path[i]);
    }
    x64_jmp(as, generic);
    for (size_t i = 0; i < n; i++) {
        x64_bind(as, &path[i]);
        /* rsi = the state's words: a state_kind array of at least state_words */
        x64_mov_rm(as, X64_RDX, record_field(X64_RAX, d[i].f_state));
        x64_test_rr(as, X64_RDX, X64_RDX);
        x64_jcc(as, X64_E, generic);
        x64_movzxb_rm_32(as, X64_RSI, obj_field(X64_RDX, offsetof(vm_obj, kind)));
        x64_alu_ri_32(as, X64_CMP, X64_RSI, d[i].state_kind);
        x64_jcc(as, X64_NE, generic);
        x64_alu_mi_32(as, X64_CMP, obj_field(X64_RDX, offsetof(vm_obj, length)), d[i].state_words);
        x64_jcc(as, X64_L, generic);
        x64_lea(as, X64_RSI, obj_field(X64_RDX, offsetof(vm_obj, data)));
        /* r8 = b, a byte[]; r9 = ofs, 0..INT32_MAX (unsigned: a negative one too) */
        load(as, X64_R8, first + 1);
        x64_test_rr(as, X64_R8, X64_R8);
        x64_jcc(as, X64_E, generic);
        x64_movzxb_rm_32(as, X64_RDI, obj_field(X64_R8, offsetof(vm_obj, kind)));
        x64_alu_ri_32(as, X64_CMP, X64_RDI, VM_T_BYTES);
        x64_jcc(as, X64_NE, generic);
        load(as, X64_R9, first + 2);
        x64_alu_ri(as, X64_CMP, X64_R9, INT32_MAX);
        x64_jcc(as, X64_A, generic);
        /* r10 = blockSize, one the stub knows (block_size_ok) */
        x64_mov_rm(as, X64_R10, record_field(X64_RAX, d[i].f_block_size));
        uint32_t mask = d[i].block_sizes;
        if ((mask & (mask - 1)) == 0) {
            int bit = 0;
            while (!((mask >> bit) & 1))
                bit++;
            x64_alu_ri(as, X64_CMP, X64_R10, 8 * bit);
            x64_jcc(as, X64_NE, generic);
        } else {
            x64_alu_ri(as, X64_CMP, X64_R10, 0);
            x64_jcc(as, X64_LE, generic);
            x64_alu_ri(as, X64_CMP, X64_R10, 255);
            x64_jcc(as, X64_G, generic);
            x64_mov_rr(as, X64_RCX, X64_R10);
            x64_alu_ri_32(as, X64_AND, X64_RCX, 7);
            x64_jcc(as, X64_NE, generic);
            x64_mov_rr(as, X64_RCX, X64_R10);
            x64_shift_ri_32(as, X64_SHR, X64_RCX, 3);
            x64_mov_ri(as, X64_R11, mask);
            x64_shift_rcl_32(as, X64_SHR, X64_R11);
            x64_alu_ri_32(as, X64_AND, X64_R11, 1);
            x64_jcc(as, X64_E, generic);
        }
        x64_movsxd_rm(as, X64_RCX, obj_field(X64_R8, offsetof(vm_obj, length)));
        if (!d[i].multi) {
            /* the block inside b: ofs + bs <= b.length */
            x64_lea(as, X64_R11, x64_at_index(X64_R9, X64_R10, 1, 0));
            x64_alu_rr(as, X64_CMP, X64_R11, X64_RCX);
            x64_jcc(as, X64_G, generic);
            x64_lea(as, X64_RDI, x64_at_index(X64_R8, X64_R9, 1, (int32_t)offsetof(vm_obj, data)));
            if (d[i].pass_block_size)
                x64_mov_rr_32(as, X64_RDX, X64_R10);
            x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)d[i].stub);
            x64_call_r(as, X64_RAX);
            if (has_result)
                x64_mov_mi(as, reg_at(a), 0);
            x64_jmp(as, &mc->at[k + 1]);
            continue;
        }
        /* r11 = limit, an int; ofs > limit: no block, the result is ofs */
        load(as, X64_R11, first + 3);
        x64_movsxd_rr(as, X64_RDI, X64_R11);
        x64_alu_rr(as, X64_CMP, X64_RDI, X64_R11);
        x64_jcc(as, X64_NE, generic);
        x64_label blocks;
        x64_label_init(&blocks);
        x64_alu_rr(as, X64_CMP, X64_R9, X64_R11);
        x64_jcc(as, X64_LE, &blocks);
        if (has_result)
            store(as, a, X64_R9);
        x64_jmp(as, &mc->at[k + 1]);
        x64_bind(as, &blocks);
        /* the last block, ofs + (limit - ofs) / bs * bs, inside b */
        x64_mov_rr(as, X64_RDI, X64_RCX); /* b.length: cqo takes rdx */
        x64_mov_rr(as, X64_RAX, X64_R11);
        x64_alu_rr(as, X64_SUB, X64_RAX, X64_R9);
        x64_cqo(as);
        x64_idiv(as, X64_R10);
        x64_imul_rr(as, X64_RAX, X64_R10);
        x64_alu_rr(as, X64_ADD, X64_RAX, X64_R9);
        x64_alu_rr(as, X64_ADD, X64_RAX, X64_R10);
        x64_alu_rr(as, X64_CMP, X64_RAX, X64_RDI);
        x64_jcc(as, X64_G, generic);
        x64_lea(as, X64_RDI, x64_at_index(X64_R8, X64_R9, 1, (int32_t)offsetof(vm_obj, data)));
        if (d[i].pass_block_size) { /* (buf, state, bs, ofs, limit) */
            x64_mov_rr_32(as, X64_RDX, X64_R10);
            x64_mov_rr_32(as, X64_RCX, X64_R9);
            x64_mov_rr_32(as, X64_R8, X64_R11);
        } else { /* (buf, state, ofs, limit) */
            x64_mov_rr_32(as, X64_RDX, X64_R9);
            x64_mov_rr_32(as, X64_RCX, X64_R11);
        }
        x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)d[i].stub);
        x64_call_r(as, X64_RAX);
        if (has_result) {
            x64_movsxd_rr(as, X64_RAX, X64_RAX);
            store(as, a, X64_RAX);
        }
        x64_jmp(as, &mc->at[k + 1]);
    }
}

/*
 * CALL (R[a] := f(R[a+1]..)) and CALLV (f(R[a]..)) of the method the word names, as the
 * interpreter's do_call: fr->pc first; a native is called; an intrinsic candidate runs its stub
 * when vm_intrinsic_call takes the arguments; otherwise the callee's frame is pushed here (the
 * stack check, the arguments copied, its other registers cleared, fr->ret_pc the continuation)
 * and its compiled code entered, or, while it has none, compiled code leaves at its first word.
 */
static void call(method_compile *mc, uint32_t k, bool has_result, const vm_method *callee)
{
    x64_asm *as = mc->as;
    const vm_method *m = mc->m;
    uint32_t i = m->code[k], a = GET_A(i), first = has_result ? a + 1 : a;
    save_pc(mc, k);
    if (callee->flags & VM_METHOD_NATIVE) {
        call_native(mc, callee, first, has_result, a);
        return;
    }
    if (callee->flags & VM_METHOD_INTRINSIC) {
        x64_label generic, bytecode;
        x64_label_init(&generic);
        x64_label_init(&bytecode);
        direct_stub_calls(mc, k, callee, first, has_result, a, &generic);
        x64_bind(as, &generic);
        /* vm_intrinsic_call(vm, callee, R + first, dst): 1 when the stub ran */
        x64_mov_rr(as, X64_C_RARG0, RVM);
        x64_mov_ri(as, X64_C_RARG1, (int64_t)(uintptr_t)callee);
        x64_lea(as, X64_C_RARG2, reg_at(first));
        if (has_result)
            x64_lea(as, X64_C_RARG3, reg_at(a));
        else
            x64_mov_rr(as, X64_C_RARG3, X64_RSP);
        x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)fn_addr((void (*)(void))vm_intrinsic_call));
        x64_call_r(as, X64_RAX);
        x64_alu_ri_32(as, X64_CMP, X64_RAX, 0); /* an int */
        x64_jcc(as, X64_E, &bytecode);
        x64_jmp(as, &mc->at[k + 1]);
        x64_bind(as, &bytecode);
    }
    /* rsi = the callee's window R + m->nregs; rdx = its index in the stack; the stack check: its
       registers and every frame's VM_FRAME_SLOTS, this one's too, within -Xss (vm_stack_room) */
    x64_lea(as, X64_RSI, reg_at(m->nregs));
    x64_mov_rr(as, X64_RDX, X64_RSI);
    x64_alu_rm(as, X64_SUB, X64_RDX, vmf(offsetof(vm_t, stack)));
    x64_shift_ri(as, X64_SHR, X64_RDX, 3);
    x64_mov_rm_32(as, X64_RCX, vmf(offsetof(vm_t, nframes)));
    x64_imul_rri(as, X64_R8, X64_RCX, (int32_t)VM_FRAME_SLOTS);
    x64_lea(as, X64_RAX, x64_at_index(X64_RDX, X64_R8, 1, (int32_t)(callee->nregs + VM_FRAME_SLOTS)));
    x64_mov_rm_32(as, X64_RDI, vmf(offsetof(vm_t, stack_cap)));
    x64_alu_rr(as, X64_CMP, X64_RAX, X64_RDI);
    leave_if(mc, X64_A, k); /* the interpreter throws StackOverflowError */
    /* the caller's frame: where the result goes, and where its return goes on here */
    x64_mov_ri(as, X64_RAX, a);
    x64_mov_mr_8(as, frame_field(offsetof(vm_frame, ret_reg)), X64_RAX);
    x64_lea_rip(as, X64_RAX, x64_asm_pc(as)); /* the continuation: patched (x64_jit_method) */
    mc->ret_lea[k] = x64_asm_pc(as);
    x64_mov_mr(as, frame_field(offsetof(vm_frame, ret_pc)), X64_RAX);
    if (callee->nparams) {
        x64_lea(as, X64_RDI, reg_at(first));
        copy_slots(as, X64_RSI, X64_RDI, callee->nparams);
    }
    /* push: nframes + 1, the frame, and the callee's window (its compiled code clears the
       registers that need it: jit_entry) */
    x64_alu_ri_32(as, X64_ADD, X64_RCX, 1);
    x64_mov_mr_32(as, vmf(offsetof(vm_t, nframes)), X64_RCX);
    x64_alu_ri(as, X64_ADD, RFR, (int32_t)sizeof(vm_frame));
    x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)callee);
    x64_mov_mr(as, frame_field(offsetof(vm_frame, m)), X64_RAX);
    x64_mov_mr_32(as, frame_field(offsetof(vm_frame, base)), X64_RDX);
    x64_mov_rr(as, RW, X64_RSI);
    /* enter the callee's compiled code (jitm[index].jit_entry), or the helper's answer */
    x64_label slow, interpreted;
    x64_label_init(&slow);
    x64_label_init(&interpreted);
    x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)&mc->vm->jitm[callee->index].jit_entry);
    x64_mov_rm(as, X64_RAX, x64_at(X64_RAX, 0));
    x64_test_rr(as, X64_RAX, X64_RAX);
    x64_jcc(as, X64_E, &slow);
    x64_jmp_r(as, X64_RAX);
    x64_bind(as, &slow);
    x64_mov_rr(as, X64_C_RARG0, RVM);
    x64_mov_ri(as, X64_C_RARG1, (int64_t)(uintptr_t)callee);
    x64_mov_rr(as, X64_C_RARG2, RW);
    x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)fn_addr((void (*)(void))jit_rt_enter_callee));
    x64_call_r(as, X64_RAX);
    x64_test_rr(as, X64_RAX, X64_RAX);
    x64_jcc(as, X64_E, &interpreted);
    x64_jmp_r(as, X64_RAX);
    x64_bind(as, &interpreted);
    x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)callee->code);
    leave_with_rax(as);
}

/*
 * CALLVIRT and CALLVIRTV: the receiver picks the callee. With an inline cache, a receiver of the
 * record it last saw calls the bytecode method it ran, here: its frame pushed (its sizes read
 * from the method) and its compiled code entered. Anything else is the C helper's
 * (jit_rt_call_virtual: a null receiver, another record, a native, a stub, no stack), which
 * pushes the frame itself and fills the cache; compiled code then goes on in the VM's top frame
 * at the address it returns, or leaves where it says.
 */
static void call_virtual(method_compile *mc, uint32_t k)
{
    x64_asm *as = mc->as;
    const vm_method *m = mc->m;
    uint32_t i = m->code[k], a = GET_A(i), first = GET_OP(i) == OP_CALLVIRT ? a + 1 : a;
    jit_ic *ic = mc->ics ? &mc->ics[k] : NULL;
    x64_label slow, leave;
    x64_label_init(&slow);
    x64_label_init(&leave);
    save_pc(mc, k);
    x64_lea_rip(as, X64_R11, x64_asm_pc(as)); /* the continuation: patched (x64_jit_method) */
    mc->ret_lea[k] = x64_asm_pc(as);
    if (ic) {
        /* r10 = the cached callee, when the receiver's record is the cache's */
        load(as, X64_RAX, first);
        x64_test_rr(as, X64_RAX, X64_RAX);
        x64_jcc(as, X64_E, &slow);
        x64_mov_rm_32(as, X64_RCX, x64_at(X64_RAX, (int32_t)offsetof(vm_obj, rec)));
        x64_alu_ri_32(as, X64_AND, X64_RCX, 0xffff);
        x64_alu_ri_32(as, X64_ADD, X64_RCX, 1);
        x64_mov_ri(as, X64_RDX, (int64_t)(uintptr_t)ic);
        x64_alu_rm(as, X64_CMP, X64_RCX, x64_at(X64_RDX, (int32_t)offsetof(jit_ic, rec)));
        x64_jcc(as, X64_NE, &slow);
        x64_mov_rm(as, X64_R10, x64_at(X64_RDX, (int32_t)offsetof(jit_ic, callee)));
        /* rsi = its window, rdx = the window's index; r8 = nparams, r9 = nregs; the stack check */
        x64_lea(as, X64_RSI, reg_at(m->nregs));
        x64_mov_rr(as, X64_RDX, X64_RSI);
        x64_alu_rm(as, X64_SUB, X64_RDX, vmf(offsetof(vm_t, stack)));
        x64_shift_ri(as, X64_SHR, X64_RDX, 3);
        x64_mov_rm_32(as, X64_R8, x64_at(X64_R10, (int32_t)offsetof(vm_method, nparams)));
        x64_alu_ri_32(as, X64_AND, X64_R8, 0xffff);
        x64_mov_rm_32(as, X64_R9, x64_at(X64_R10, (int32_t)offsetof(vm_method, nregs)));
        x64_alu_ri_32(as, X64_AND, X64_R9, 0xffff);
        x64_mov_rm_32(as, X64_RCX, vmf(offsetof(vm_t, nframes)));
        x64_imul_rri(as, X64_RCX, X64_RCX, (int32_t)VM_FRAME_SLOTS);
        x64_lea(as, X64_RAX, x64_at_index(X64_RDX, X64_RCX, 1, (int32_t)VM_FRAME_SLOTS));
        x64_alu_rr(as, X64_ADD, X64_RAX, X64_R9);
        x64_mov_rm_32(as, X64_RCX, vmf(offsetof(vm_t, stack_cap)));
        x64_alu_rr(as, X64_CMP, X64_RAX, X64_RCX);
        x64_jcc(as, X64_A, &slow); /* the helper finds no room either, and leaves to throw */
        x64_mov_ri(as, X64_RAX, a);
        x64_mov_mr_8(as, frame_field(offsetof(vm_frame, ret_reg)), X64_RAX);
        x64_mov_mr(as, frame_field(offsetof(vm_frame, ret_pc)), X64_R11);
        /* the arguments: four whatever the count (inside the stack's slack, as the interpreter's
           do_call), then the rest; the callee's compiled code clears what needs it */
        x64_lea(as, X64_RDI, reg_at(first));
        for (int32_t q = 0; q < 4; q++) {
            x64_mov_rm(as, X64_RAX, x64_at(X64_RDI, 8 * q));
            x64_mov_mr(as, x64_at(X64_RSI, 8 * q), X64_RAX);
        }
        x64_label more, copied;
        x64_label_init(&more);
        x64_label_init(&copied);
        x64_mov_ri(as, X64_RCX, 4);
        x64_alu_rr(as, X64_CMP, X64_RCX, X64_R8);
        x64_jcc(as, X64_AE, &copied);
        x64_bind(as, &more);
        x64_mov_rm(as, X64_RAX, x64_at_index(X64_RDI, X64_RCX, 8, 0));
        x64_mov_mr(as, x64_at_index(X64_RSI, X64_RCX, 8, 0), X64_RAX);
        x64_alu_ri(as, X64_ADD, X64_RCX, 1);
        x64_alu_rr(as, X64_CMP, X64_RCX, X64_R8);
        x64_jcc(as, X64_B, &more);
        x64_bind(as, &copied);
        /* push: nframes + 1, the frame, the callee's window */
        x64_alu_mi_32(as, X64_ADD, vmf(offsetof(vm_t, nframes)), 1);
        x64_alu_ri(as, X64_ADD, RFR, (int32_t)sizeof(vm_frame));
        x64_mov_mr(as, frame_field(offsetof(vm_frame, m)), X64_R10);
        x64_mov_mr_32(as, frame_field(offsetof(vm_frame, base)), X64_RDX);
        x64_mov_rr(as, RW, X64_RSI);
        /* enter: vm->jitm[callee->index].jit_entry, or the helper's answer */
        x64_label helper;
        x64_label_init(&helper);
        x64_mov_rm_32(as, X64_RAX, x64_at(X64_R10, (int32_t)offsetof(vm_method, index)));
        x64_imul_rri(as, X64_RAX, X64_RAX, (int32_t)sizeof(vm_jit_method));
        x64_alu_rm(as, X64_ADD, X64_RAX, vmf(offsetof(vm_t, jitm)));
        x64_mov_rm(as, X64_RAX, x64_at(X64_RAX, (int32_t)offsetof(vm_jit_method, jit_entry)));
        x64_test_rr(as, X64_RAX, X64_RAX);
        x64_jcc(as, X64_E, &helper);
        x64_jmp_r(as, X64_RAX);
        x64_bind(as, &helper);
        x64_mov_rr(as, X64_C_RARG0, RVM);
        x64_mov_rr(as, X64_C_RARG1, X64_R10);
        x64_mov_rr(as, X64_C_RARG2, RW);
        x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)fn_addr((void (*)(void))jit_rt_enter_callee));
        x64_call_r(as, X64_RAX);
        x64_test_rr(as, X64_RAX, X64_RAX);
        x64_jcc(as, X64_E, &leave);
        x64_jmp_r(as, X64_RAX);
        x64_bind(as, &leave); /* no compiled code: leave at its first word, its frame pushed */
        x64_mov_rm(as, X64_RAX, frame_field(offsetof(vm_frame, m)));
        x64_mov_rm(as, X64_RAX, x64_at(X64_RAX, (int32_t)offsetof(vm_method, code)));
        leave_with_rax(as);
    }
    x64_bind(as, &slow);
    x64_mov_rr(as, X64_C_RARG0, RVM);
    x64_mov_rr(as, X64_C_RARG1, RFR);
    x64_mov_rr(as, X64_C_RARG2, RW);
    x64_mov_ri(as, X64_C_RARG3, k);
    x64_mov_rr(as, X64_C_RARG4, X64_R11);
    x64_mov_ri(as, X64_C_RARG5, (int64_t)(uintptr_t)ic);
    x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)fn_addr((void (*)(void))jit_rt_call_virtual));
    x64_call_r(as, X64_RAX);
    /* the top frame: vm->frames[nframes - 1], its window */
    x64_mov_rm_32(as, X64_RCX, vmf(offsetof(vm_t, nframes)));
    x64_imul_rri(as, X64_RCX, X64_RCX, (int32_t)sizeof(vm_frame));
    x64_mov_rm(as, RFR, vmf(offsetof(vm_t, frames)));
    x64_lea(as, RFR, x64_at_index(RFR, X64_RCX, 1, -(int32_t)sizeof(vm_frame)));
    x64_mov_rm(as, X64_RCX, vmf(offsetof(vm_t, stack)));
    x64_mov_rm_32(as, X64_RDX, frame_field(offsetof(vm_frame, base)));
    x64_lea(as, RW, x64_at_index(X64_RCX, X64_RDX, 8, 0));
    x64_label out;
    x64_label_init(&out);
    x64_test_rr(as, X64_RAX, X64_RAX);
    x64_jcc(as, X64_E, &out);
    x64_jmp_r(as, X64_RAX);
    x64_bind(as, &out);
    x64_mov_rm(as, X64_RAX, vmf(offsetof(vm_t, jit_leave)));
    leave_with_rax(as);
}

/*
 * RET (R[a]) and RETV, as the interpreter's do_return: never from the interpreter's entry frame
 * (it leaves there, and the interpreter returns); otherwise the frame is popped, the result
 * stored in the caller's R[ret_reg], and the caller's compiled continuation (fr->ret_pc)
 * entered, or compiled code leaves at its saved pc when it has none.
 */
static void ret(method_compile *mc, uint32_t k, bool has_result)
{
    x64_asm *as = mc->as;
    x64_alu_rr(as, X64_CMP, RFR, RBOT);
    leave_if(mc, X64_E, k);
    if (has_result)
        load(as, X64_R8, GET_A(mc->m->code[k]));
    x64_alu_mi_32(as, X64_SUB, vmf(offsetof(vm_t, nframes)), 1);
    x64_alu_ri(as, X64_SUB, RFR, (int32_t)sizeof(vm_frame));
    x64_mov_rm(as, X64_RCX, vmf(offsetof(vm_t, stack)));
    x64_mov_rm_32(as, X64_RDX, frame_field(offsetof(vm_frame, base)));
    x64_lea(as, RW, x64_at_index(X64_RCX, X64_RDX, 8, 0));
    if (has_result) {
        x64_movzxb_rm_32(as, X64_RDX, frame_field(offsetof(vm_frame, ret_reg)));
        x64_mov_mr(as, x64_at_index(RW, X64_RDX, 8, 0), X64_R8);
    }
    x64_label interpreted;
    x64_label_init(&interpreted);
    x64_mov_rm(as, X64_RAX, frame_field(offsetof(vm_frame, ret_pc)));
    x64_test_rr(as, X64_RAX, X64_RAX);
    x64_jcc(as, X64_E, &interpreted);
    x64_jmp_r(as, X64_RAX);
    x64_bind(as, &interpreted);
    x64_mov_rm(as, X64_RAX, frame_field(offsetof(vm_frame, pc)));
    leave_with_rax(as);
}

static x64_mem field(uint32_t f) { return x64_at(X64_RAX, (int32_t)(offsetof(vm_obj, data) + 8 * f)); }

/* One word; returns how many words it took (a conditional with its JMP: 2, when nothing jumps
   to that JMP). */
static uint32_t word(method_compile *mc, uint32_t k, const uint8_t *kinds)
{
    x64_asm *as = mc->as;
    const vm_method *m = mc->m;
    uint32_t i = m->code[k], op = GET_OP(i);
    uint32_t a = GET_A(i), b = GET_B(i), c = GET_C(i);
    switch (op) {
    case OP_NOP: break;
    case OP_MOV: { /* a rename: R[a] shares R[b]'s register */
        if (a == b)
            break;
        int s = mc->rc.slot[b];
        if (s < 0) {
            s = (int)rc_take(&mc->rc, UINT32_MAX, UINT32_MAX, RC_NONE);
            load(as, VC_REGS[s], b);
            rc_bind(&mc->rc, b, (uint32_t)s, false);
        }
        rc_bind(&mc->rc, a, (uint32_t)s, true);
        break;
    }
    case OP_LDI:
    case OP_LDK:
    case OP_LDNULL: {
        int64_t v = op == OP_LDI ? GET_sBx(i) : op == OP_LDK ? mc->vm->prog->k[GET_Bx(i)] : 0;
        uint32_t slot = rc_take(&mc->rc, UINT32_MAX, UINT32_MAX, RC_NONE);
        x64_mov_ri(as, VC_REGS[slot], v);
        rc_def(&mc->rc, a, slot, false);
        break;
    }
    case OP_GETSTATIC:
    case OP_LDSTR: {
        /* the VM's statics and strings tables never move: vm->statics[Bx], vm->strings[Bx] */
        size_t table = op == OP_LDSTR ? offsetof(vm_t, strings) : offsetof(vm_t, statics);
        x64_mov_rm(as, X64_RCX, x64_at(RVM, (int32_t)table));
        uint32_t slot = rc_take(&mc->rc, UINT32_MAX, UINT32_MAX, RC_NONE);
        x64_mov_rm(as, VC_REGS[slot], x64_at(X64_RCX, (int32_t)(8 * GET_Bx(i))));
        rc_def(&mc->rc, a, slot, false);
        break;
    }
    case OP_PUTSTATIC:
        vc_load(mc, X64_RAX, a, true);
        x64_mov_rm(as, X64_RCX, x64_at(RVM, (int32_t)offsetof(vm_t, statics)));
        x64_mov_mr(as, x64_at(X64_RCX, (int32_t)(8 * GET_Bx(i))), X64_RAX);
        break;
    case OP_ADD: alu3(mc, X64_ADD, a, b, c, false); break;
    case OP_SUB: alu3(mc, X64_SUB, a, b, c, false); break;
    case OP_AND: alu3(mc, X64_AND, a, b, c, false); break;
    case OP_OR: alu3(mc, X64_OR, a, b, c, false); break;
    case OP_XOR: alu3(mc, X64_XOR, a, b, c, false); break;
    case OP_ADDI: alu_imm(mc, X64_ADD, a, b, GET_sC(i), false); break;
    case OP_SUBI: alu_imm(mc, X64_SUB, a, b, GET_sC(i), false); break;
    case OP_ANDI: alu_imm(mc, X64_AND, a, b, (int32_t)c, false); break;
    case OP_ADDW: alu3(mc, X64_ADD, a, b, c, true); break;
    case OP_SUBW: alu3(mc, X64_SUB, a, b, c, true); break;
    case OP_ADDWI: alu_imm(mc, X64_ADD, a, b, GET_sC(i), true); break;
    case OP_MUL:
    case OP_MULW: {
        bool w = op == OP_MULW;
        if (c != b && rc_in_place(&mc->rc, a, c) && !rc_in_place(&mc->rc, a, b)) {
            uint32_t t = b;
            b = c;
            c = t;
        }
        uint32_t slot = rc_dest(&mc->rc, a, b, !w, c, UINT32_MAX);
        x64_reg d = VC_REGS[slot], rc = vc_operand(mc, c, !w);
        if (rc != X64_NOREG)
            x64_imul_rr(as, d, rc);
        else
            x64_imul_rm(as, d, reg_at(c));
        rc_def(&mc->rc, a, slot, w);
        break;
    }
    case OP_DIV: divide(mc, k, a, b, c, false); break;
    case OP_REM: divide(mc, k, a, b, c, true); break;
    case OP_NEG:
    case OP_NOT: {
        bool narrow = op == OP_NOT && rc_is_narrow(&mc->rc, b);
        uint32_t slot = rc_dest(&mc->rc, a, b, !narrow, UINT32_MAX, UINT32_MAX);
        if (op == OP_NEG)
            x64_neg(as, VC_REGS[slot]);
        else
            x64_not(as, VC_REGS[slot]);
        rc_def(&mc->rc, a, slot, narrow);
        break;
    }
    case OP_ANDN: { /* R[b] & ~R[c] */
        bool narrow = rc_is_narrow(&mc->rc, b) && rc_is_narrow(&mc->rc, c);
        uint32_t slot = rc_dest(&mc->rc, a, c, !narrow, b, UINT32_MAX);
        x64_not(as, VC_REGS[slot]);
        vc_alu(mc, X64_AND, VC_REGS[slot], b, !narrow);
        rc_def(&mc->rc, a, slot, narrow);
        break;
    }
    case OP_SHL: shift_reg(mc, X64_SHL, a, b, c, false); break;
    case OP_SHR: shift_reg(mc, X64_SHR, a, b, c, false); break;
    case OP_SAR: shift_reg(mc, X64_SAR, a, b, c, false); break;
    case OP_ROL: shift_reg(mc, X64_ROL, a, b, c, false); break;
    case OP_ROR: shift_reg(mc, X64_ROR, a, b, c, false); break;
    case OP_SHLI: shift_imm(mc, X64_SHL, a, b, (int)c, false); break;
    case OP_SHRI: shift_imm(mc, X64_SHR, a, b, (int)c, false); break;
    case OP_SARI: shift_imm(mc, X64_SAR, a, b, (int)c, false); break;
    case OP_ROLI: shift_imm(mc, X64_ROL, a, b, (int)c, false); break;
    case OP_RORI: shift_imm(mc, X64_ROR, a, b, (int)c, false); break;
    case OP_SHLW: shift_reg(mc, X64_SHL, a, b, c, true); break;
    case OP_SHRW: shift_reg(mc, X64_SHR, a, b, c, true); break;
    case OP_SARW: shift_reg(mc, X64_SAR, a, b, c, true); break;
    case OP_ROLW: shift_reg(mc, X64_ROL, a, b, c, true); break;
    case OP_RORW: shift_reg(mc, X64_ROR, a, b, c, true); break;
    case OP_SHLWI: shift_imm(mc, X64_SHL, a, b, (int)c, true); break;
    case OP_SHRWI: shift_imm(mc, X64_SHR, a, b, (int)c, true); break;
    case OP_SARWI: shift_imm(mc, X64_SAR, a, b, (int)c, true); break;
    case OP_ROLWI: shift_imm(mc, X64_ROL, a, b, (int)c, true); break;
    case OP_RORWI: shift_imm(mc, X64_ROR, a, b, (int)c, true); break;
    case OP_XOR3: { /* R[b] ^ R[c] ^ R[d], from whichever register it can compute in */
        uint32_t A = GET_A4(i), B = GET_B4(i), C = GET_C4(i), D = GET_D4(i);
        bool narrow = rc_is_narrow(&mc->rc, B) && rc_is_narrow(&mc->rc, C) && rc_is_narrow(&mc->rc, D);
        if (!rc_in_place(&mc->rc, A, B) && B != C && B != D) {
            uint32_t t = B;
            if (rc_in_place(&mc->rc, A, C) && C != D) {
                B = C;
                C = t;
            } else if (rc_in_place(&mc->rc, A, D) && D != C) {
                B = D;
                D = t;
            }
        }
        uint32_t slot = rc_dest(&mc->rc, A, B, !narrow, C, D);
        vc_alu(mc, X64_XOR, VC_REGS[slot], C, !narrow);
        vc_alu(mc, X64_XOR, VC_REGS[slot], D, !narrow);
        rc_def(&mc->rc, A, slot, narrow);
        break;
    }
    case OP_BCAX: { /* R[b] ^ (R[c] & ~R[d]) */
        uint32_t A = GET_A4(i), B = GET_B4(i), C = GET_C4(i), D = GET_D4(i);
        bool narrow = rc_is_narrow(&mc->rc, B) && rc_is_narrow(&mc->rc, C) && rc_is_narrow(&mc->rc, D);
        uint32_t slot = rc_dest(&mc->rc, A, D, !narrow, B, C);
        x64_not(as, VC_REGS[slot]);
        vc_alu(mc, X64_AND, VC_REGS[slot], C, !narrow);
        vc_alu(mc, X64_XOR, VC_REGS[slot], B, !narrow);
        rc_def(&mc->rc, A, slot, narrow);
        break;
    }
    case OP_XROL: { /* rotl(R[b] ^ R[c], d) */
        uint32_t A = GET_A4(i), B = GET_B4(i), C = GET_C4(i);
        if (B != C && rc_in_place(&mc->rc, A, C) && !rc_in_place(&mc->rc, A, B)) {
            uint32_t t = B;
            B = C;
            C = t;
        }
        uint32_t slot = rc_dest(&mc->rc, A, B, true, C, UINT32_MAX);
        vc_alu(mc, X64_XOR, VC_REGS[slot], C, true);
        if (GET_D4(i))
            x64_shift_ri(as, X64_ROL, VC_REGS[slot], (int)GET_D4(i));
        rc_def(&mc->rc, A, slot, false);
        break;
    }
    case OP_RAX1: { /* R[b] ^ rotl(R[c], 1) */
        uint32_t slot = rc_dest(&mc->rc, a, c, true, b, UINT32_MAX);
        x64_shift_ri(as, X64_ROL, VC_REGS[slot], 1);
        vc_alu(mc, X64_XOR, VC_REGS[slot], b, true);
        rc_def(&mc->rc, a, slot, false);
        break;
    }
    case OP_L2I: { /* its low 32 bits: a narrow copy, no instruction in place */
        uint32_t slot = rc_dest(&mc->rc, a, b, false, UINT32_MAX, UINT32_MAX);
        rc_def(&mc->rc, a, slot, true);
        break;
    }
    case OP_ZEXTW: {
        uint32_t slot = rc_dest(&mc->rc, a, b, false, UINT32_MAX, UINT32_MAX);
        x64_mov_rr_32(as, VC_REGS[slot], VC_REGS[slot]);
        rc_def(&mc->rc, a, slot, false);
        break;
    }
    case OP_I2B: x64_movsxb_rm(as, X64_RAX, reg_at(b)); store(as, a, X64_RAX); break;
    case OP_JMP: {
        uint32_t t = (uint32_t)((int64_t)k + 1 + GET_sJ(i));
        rc_flush(&mc->rc, mc->live[t]);
        x64_jmp(as, &mc->at[t]);
        break;
    }
    case OP_EQ: case OP_NE: case OP_LT: case OP_GE: case OP_LE: case OP_GT:
    case OP_EQR: case OP_NER:
    case OP_EQI: case OP_NEI: case OP_LTI: case OP_GEI: case OP_LEI: case OP_GTI:
    case OP_ISNULL: case OP_NONNULL: {
        uint32_t jmp = m->code[k + 1]; /* the verifier's rule: a conditional's next word is a JMP */
        uint32_t t = (uint32_t)((int64_t)k + 2 + GET_sJ(jmp));
        rc_flush(&mc->rc, mc->live[t]); /* the block ends on the taken side */
        bool imm_form = op == OP_ISNULL || op == OP_NONNULL || (op >= OP_EQI && op <= OP_GTI);
        x64_reg ra = vc_operand(mc, a, true), rb = imm_form ? X64_NOREG : vc_operand(mc, b, true);
        if (imm_form) {
            int32_t imm = op == OP_ISNULL || op == OP_NONNULL ? 0 : GET_sB(i);
            if (ra != X64_NOREG)
                x64_alu_ri(as, X64_CMP, ra, imm);
            else
                x64_alu_mi(as, X64_CMP, reg_at(a), imm);
        } else if (ra != X64_NOREG && rb != X64_NOREG) {
            x64_alu_rr(as, X64_CMP, ra, rb);
        } else if (ra != X64_NOREG) {
            x64_alu_rm(as, X64_CMP, ra, reg_at(b));
        } else if (rb != X64_NOREG) {
            x64_alu_mr(as, X64_CMP, reg_at(a), rb);
        } else {
            load(as, X64_RAX, a);
            x64_alu_rm(as, X64_CMP, X64_RAX, reg_at(b));
        }
        x64_jcc(as, cond_of(op), &mc->at[t]);
        if (!kinds[k + 1])
            return 2; /* the JMP is the conditional's: not taken, go on two words on */
        /* something else jumps to the JMP: the fall-through is a block end too */
        rc_flush(&mc->rc, mc->live[k + 2]);
        x64_jmp(as, &mc->at[k + 2]);
        mc->reach = false;
        break;
    }
    case OP_ALEN: {
        array_of(mc, k, b);
        uint32_t slot = rc_take(&mc->rc, UINT32_MAX, UINT32_MAX, RC_NONE);
        x64_movsxd_rm(as, VC_REGS[slot], x64_at(X64_RAX, (int32_t)offsetof(vm_obj, length)));
        rc_def(&mc->rc, a, slot, false);
        break;
    }
    case OP_BALOAD: array_load(mc, k, a, b, c, 0, ELEM_BYTE); break;
    case OP_IALOAD: array_load(mc, k, a, b, c, 0, ELEM_INT); break;
    case OP_LALOAD: array_load(mc, k, a, b, c, 0, ELEM_LONG); break;
    case OP_LALOADI: array_load(mc, k, a, b, UINT32_MAX, (int32_t)c, ELEM_LONG); break;
    case OP_BASTORE: array_store(mc, k, a, b, 0, c, ELEM_BYTE); break;
    case OP_IASTORE: array_store(mc, k, a, b, 0, c, ELEM_INT); break;
    case OP_LASTORE: array_store(mc, k, a, b, 0, c, ELEM_LONG); break;
    case OP_LASTOREI: array_store(mc, k, a, UINT32_MAX, (int32_t)b, c, ELEM_LONG); break;
    case OP_LDLE64: view_load(mc, k, a, b, c, 8, false); break;
    case OP_LDLE32: view_load(mc, k, a, b, c, 4, false); break;
    case OP_LDBE64: view_load(mc, k, a, b, c, 8, true); break;
    case OP_LDBE32: view_load(mc, k, a, b, c, 4, true); break;
    case OP_STLE64: view_store(mc, k, a, b, c, 8, false); break;
    case OP_STLE32: view_store(mc, k, a, b, c, 4, false); break;
    case OP_STBE64: view_store(mc, k, a, b, c, 8, true); break;
    case OP_STBE32: view_store(mc, k, a, b, c, 4, true); break;
    case OP_GETF: {
        array_of(mc, k, b); /* the record: null leaves */
        uint32_t slot = rc_take(&mc->rc, UINT32_MAX, UINT32_MAX, RC_NONE);
        x64_mov_rm(as, VC_REGS[slot], field(c));
        rc_def(&mc->rc, a, slot, false);
        break;
    }
    case OP_PUTF:
        array_of(mc, k, a);
        vc_load(mc, X64_RDX, c, true);
        x64_mov_mr(as, field(b), X64_RDX);
        break;
    case OP_NEWBA:
    case OP_NEWIA:
    case OP_NEWLA: {
        int64_t kind = op == OP_NEWBA ? VM_T_BYTES : op == OP_NEWIA ? VM_T_INTS : VM_T_LONGS;
        call_helper(mc, k, fn_addr((void (*)(void))jit_rt_new_array), true, X64_NOREG, kind, 0, true, b);
        store(as, a, X64_RAX);
        break;
    }
    case OP_NEW:
        call_helper(mc, k, fn_addr((void (*)(void))jit_rt_new_record), true, X64_NOREG, GET_Bx(i), 0, false, 0);
        store(as, a, X64_RAX);
        break;
    case OP_CHECKCAST: {
        /* null passes; a record that is not the register's type leaves (the interpreter throws) */
        x64_label done;
        x64_label_init(&done);
        load(as, X64_RAX, b);
        x64_test_rr(as, X64_RAX, X64_RAX);
        x64_jcc(as, X64_E, &done);
        call_helper(mc, k, fn_addr((void (*)(void))jit_rt_is_a), false, X64_RAX, 0, m->regtypes[a].rec, false,
                    0);
        x64_test_rr(as, X64_RAX, X64_RAX);
        leave_if(mc, X64_E, k);
        load(as, X64_RAX, b);
        x64_bind(as, &done);
        store(as, a, X64_RAX);
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
            x64_alu_mi(as, X64_CMP, reg_at(has_result ? a + 1 : a), 0);
            leave_if(mc, X64_E, k);
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
static void prologue(x64_asm *as, const vm_t *vm, const vm_method *m)
{
    uint64_t need[VM_MAX_REGS / 64];
    bool known = vm_read_before_written(vm->prog, m, need);
    bool zeroed = false;
    for (uint32_t r = m->nparams; r < m->nregs; r++) {
        if (known && vm_type_is_int(m->regtypes[r]) && !((need[r / 64] >> (r % 64)) & 1))
            continue;
        if (!zeroed) {
            x64_alu_rr_32(as, X64_XOR, X64_RAX, X64_RAX);
            zeroed = true;
        }
        store(as, r, X64_RAX);
    }
}

/* whether op's template keeps the register cache: it reads and writes bytecode registers only
   through the cache, and calls nothing */
static bool keeps_cache(uint32_t op)
{
    switch (op) {
    case OP_DIV: case OP_REM: case OP_I2B:
    case OP_NEWBA: case OP_NEWIA: case OP_NEWLA: case OP_NEW: case OP_CHECKCAST:
    case OP_CALL: case OP_CALLV: case OP_CALLVIRT: case OP_CALLVIRTV: case OP_RET: case OP_RETV:
        return false;
    default:
        /* what has no template leaves to the interpreter */
        return op < OP_NEWBA || (op >= OP_ALEN && op <= OP_STBE32) || op == OP_GETF || op == OP_PUTF;
    }
}

bool x64_jit_method(x64_asm *as, const vm_t *vm, const vm_method *m, const uint8_t *kinds, jit_ic *ics,
                    size_t *entry_of)
{
    method_compile mc = {.as = as,
                         .vm = vm,
                         .m = m,
                         .ics = ics,
                         .at = calloc(m->ncode + 1, sizeof *mc.at),
                         .leave = calloc(m->ncode, sizeof *mc.leave),
                         .leaves = calloc(m->ncode, sizeof *mc.leaves),
                         .ret_lea = calloc(m->ncode, sizeof *mc.ret_lea),
                         .live = malloc(m->ncode * sizeof *mc.live)};
    if (!mc.at || !mc.leave || !mc.leaves || !mc.ret_lea || !mc.live || !vm_live_in(vm->prog, m, mc.live)) {
        code_buffer_fail(&as->cb, "no memory to compile %s", m->qname);
    } else {
        for (uint32_t k = 0; k <= m->ncode; k++)
            x64_label_init(&mc.at[k]);
        for (uint32_t k = 0; k < m->ncode; k++)
            x64_label_init(&mc.leave[k]);
        rc_reset(&mc.rc, m);
        mc.rc.nslots = VC_N;
        mc.rc.maxc = VC_MAXC;
        mc.rc.store = rc_store_x64;
        mc.rc.load = rc_load_x64;
        mc.rc.copy = rc_copy_x64;
        mc.rc.widen = rc_widen_x64;
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
            x64_bind(as, &mc.at[k]);
            entry_of[k] = x64_asm_pc(as);
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
                x64_bind(as, &mc.at[k + 1]);
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
        x64_bind(as, &mc.at[m->ncode]); /* never reached: the last word never falls through */
        /* each call's continuation: the next word's code (a call is never the last word) */
        for (uint32_t k = 0; k + 1 < m->ncode && !x64_asm_failed(as); k++) {
            if (!mc.ret_lea[k])
                continue;
            int32_t disp = (int32_t)((int64_t)entry_of[k + 1] - (int64_t)mc.ret_lea[k]);
            memcpy(as->cb.code + mc.ret_lea[k] - 4, &disp, 4);
        }
        /* the exits, out of line: the dirty registers written back, rax = the word (or NULL: a
           helper threw), then the trampoline's exit path */
        for (size_t e = 0; e < mc.nstubs; e++) {
            leave_stub *st = &mc.stubs[e];
            x64_bind(as, &st->label);
            for (uint32_t q = 0; q < st->n; q++) {
                x64_reg r = VC_REGS[st->slot[q]];
                if (st->narrow[q]) /* sign-extended in place: nothing runs after it */
                    x64_movsxd_rr(as, r, r);
                store(as, st->reg[q], r);
            }
            x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)&m->code[st->k]);
            x64_jmp_m(as, x64_at(RCTX, (int32_t)offsetof(jit_ctx, exit)));
        }
        for (uint32_t k = 0; k < m->ncode; k++) {
            if (!mc.leaves[k])
                continue;
            x64_bind(as, &mc.leave[k]);
            if (mc.leaves[k] == LEAVE_THROWN)
                x64_alu_rr(as, X64_XOR, X64_RAX, X64_RAX);
            else
                x64_mov_ri(as, X64_RAX, (int64_t)(uintptr_t)&m->code[k]);
            x64_jmp_m(as, x64_at(RCTX, (int32_t)offsetof(jit_ctx, exit)));
        }
    }
    for (size_t e = 0; e < mc.nstubs; e++)
        code_label_release(&mc.stubs[e].label);
    free(mc.stubs);
    free(mc.at);
    free(mc.leave);
    free(mc.leaves);
    free(mc.ret_lea);
    free(mc.live);
    rc_release(&mc.rc);
    return !x64_asm_failed(as);
}

/* ---- the compiler's interface (compiler/jit_arch.h) ------------------------------------------ */

static bool finish(x64_asm *as, size_t *size, char *err, size_t errlen)
{
    return code_buffer_done(&as->cb, size, err, errlen);
}

static size_t trampoline(uint8_t *code, size_t cap, size_t *exit_offset, size_t *size, char *err, size_t errlen)
{
    x64_asm as;
    x64_asm_init(&as, code, cap);
    as.cb.fatal = false; /* a refusal fails the compilation, never the VM */
    size_t entry = x64_jit_trampoline(&as, exit_offset);
    return finish(&as, size, err, errlen) ? entry : SIZE_MAX;
}

static bool method(uint8_t *code, size_t cap, const vm_t *vm, const vm_method *m, const uint8_t *kinds,
                   jit_ic *ics, size_t *offset_of, size_t *size, char *err, size_t errlen)
{
    x64_asm as;
    x64_asm_init(&as, code, cap);
    as.cb.fatal = false;
    x64_jit_method(&as, vm, m, kinds, ics, offset_of);
    return finish(&as, size, err, errlen);
}

const jit_arch x64_jit_arch = {
    .name = "x86_64",
    .format = {.llvm_target = "X86", .llvm_triple = "x86_64-linux-gnu", .llvm_features = "", .insn_size = 0},
    .word_bytes = 768, /* the longest template, a virtual call (its inline cache path and the helper), is under 500 */
    .method_bytes = 64,
    .direct_bytes = MAX_DIRECTS * 384, /* a path is under 300 bytes, a record's compare 10 */
    .trampoline = trampoline,
    .method = method,
};
