/*
 * vm/verify.c — the bytecode verifier.
 *
 * Registers are statically typed per method, so verification is one linear
 * pass with no data-flow analysis: each operand field is checked against
 * its kind from the opcode list (register range and type class, immediate
 * range, pool index), plus the per-opcode rules that relate operands (move
 * types, field types, call signatures, return type). Control flow is
 * checked for targets inside the method, conditionals followed by a JMP,
 * and no path falling off the end. The interpreter relies on all of it:
 * it does no checks of its own beyond Java's runtime ones (bounds, null,
 * division by zero, stack depth).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "message.h"
#include "vm.h"

typedef struct vctx {
    const vm_program *p;
    const vm_method *m;
    char *err;
    size_t errlen;
    uint32_t pc;
} vctx;

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void located(char *out, size_t outlen, const char *path, uint32_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vm_message_at(out, outlen, path, line, fmt, ap);
    va_end(ap);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int verr(vctx *v, const char *fmt, ...)
{
    const vm_method *m = v->m;
    uint32_t line = m->lines && v->pc < m->ncode ? m->lines[v->pc] : m->line;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    located(v->err, v->errlen, m->module->path, line, "%s: %s", m->qname, msg);
    return -1;
}

static const char *tname(const vctx *v, vm_type t, char *buf) { return vm_type_name(v->p, t, buf, 64); }

/* Can a value of type src be stored where dst is expected? (A record is also what it extends.) */
static int assignable_in(const vm_program *p, vm_type dst, vm_type src)
{
    if (vm_type_is_int(dst))
        return vm_type_is_int(src);
    if (dst.kind == VM_T_OBJECT)
        return vm_type_is_ref(src);
    return dst.kind == src.kind && (dst.kind != VM_T_RECORD || vm_record_is_a(p->records, src.rec, dst.rec));
}
#define assignable(dst, src) assignable_in(v->p, (dst), (src))

static const char *const kind_text[] = {
    [K_RI] = "int or long", [K_RREF] = "a reference", [K_RARR] = "an array", [K_RBA] = "byte[]",
    [K_RIA] = "int[]",      [K_RLA] = "long[]",       [K_RREC] = "a record", [K_RANY] = "any type",
};

static const char *const field_name[] = {"A", "B", "C", "D"};

/* An operand indexing one of the program's tables (kind K_K, K_STR, K_METH, K_STATIC, K_TYPE). */
static int check_index(vctx *v, const char *mn, int kind, uint32_t x)
{
    const vm_program *p = v->p;
    uint32_t n = p->nrecords;
    const char *what = "record", *has = "the program has", *unit = "records";
    switch (kind) {
    case K_K:      n = p->nk;       what = "constant"; has = "the constant table has"; unit = "entries"; break;
    case K_STR:    n = p->nstrings; what = "string";   has = "the string table has";   unit = "entries"; break;
    case K_METH:   n = p->nmethods; what = "method";   unit = "methods"; break;
    case K_STATIC: n = p->nstatics; what = "static";   unit = "statics"; break;
    }
    if (x >= n)
        return verr(v, "%s: bad %s index %u (%s %u %s)", mn, what, x, has, n, unit);
    return 0;
}

static int check_reg(vctx *v, const char *mn, int f, uint32_t r, int kind)
{
    char b[64];
    const vm_method *m = v->m;
    if (r >= m->nregs)
        return verr(v, "%s: register r%u out of range (method has %u registers)", mn, r, m->nregs);
    vm_type t = m->regtypes[r];
    int ok;
    switch (kind) {
    case K_RI: ok = vm_type_is_int(t); break;
    case K_RREF: ok = vm_type_is_ref(t); break;
    case K_RARR: ok = vm_type_is_array(t); break;
    case K_RBA: ok = t.kind == VM_T_BYTES; break;
    case K_RIA: ok = t.kind == VM_T_INTS; break;
    case K_RLA: ok = t.kind == VM_T_LONGS; break;
    case K_RREC: ok = t.kind == VM_T_RECORD; break;
    default: ok = 1;
    }
    if (!ok)
        return verr(v, "%s: operand %s is %s of type %s, expected %s", mn, field_name[f],
                    m->regnames ? m->regnames[r] : "?", tname(v, t, b), kind_text[kind]);
    return 0;
}

static const char *rname(const vctx *v, uint32_t r) { return v->m->regnames ? v->m->regnames[r] : "?"; }

static int check_call(vctx *v, int op, uint32_t a, uint32_t mi)
{
    char b1[64], b2[64];
    const vm_method *callee = v->p->methods[mi];
    const vm_method *m = v->m;
    int is_void = callee->ret.kind == VM_T_VOID;
    int virtual = op == OP_CALLVIRT || op == OP_CALLVIRTV, with_result = op == OP_CALL || op == OP_CALLVIRT;
    const char *mn = virtual ? "callvirt" : "call";
    if (with_result && is_void)
        return verr(v, "%s: %s returns void (use the void form)", mn, callee->qname);
    if (!with_result && !is_void)
        return verr(v, "%s: %s returns %s (use the form with a result)", mn, callee->qname,
                    tname(v, callee->ret, b1));
    /* a virtual call needs a slot of its receiver's record (the interpreter indexes that record's vtable
       with it, unchecked); an abstract method has no body to call directly */
    if (virtual && (callee->vslot < 0 || callee->nparams == 0 || callee->regtypes[0].kind != VM_T_RECORD ||
                    (uint32_t)callee->vslot >= v->p->records[callee->regtypes[0].rec].nvirtual))
        return verr(v, "callvirt: %s is not a virtual method", callee->qname);
    if (!virtual && (callee->flags & VM_METHOD_ABSTRACT))
        return verr(v, "call: %s is abstract (use callvirt)", callee->qname);
    uint32_t first = with_result ? a + 1 : a;     /* first argument register */
    uint32_t end = first + callee->nparams;       /* one past the last */
    if (!with_result && callee->nparams == 0)
        return a == 0 ? 0 : verr(v, "%s %s: operand A must be 0 (no arguments, no result)", mn, callee->qname);
    if (end > m->nregs || a >= m->nregs)
        return verr(v, "%s %s: registers r%u..r%u out of range (method has %u registers)", mn, callee->qname, a,
                    end - 1, m->nregs);
    for (uint32_t i = 0; i < callee->nparams; i++) {
        vm_type want = callee->regtypes[i], have = m->regtypes[first + i];
        if (!assignable(want, have))
            return verr(v, "%s %s: argument %u (%s) is %s, expected %s", mn, callee->qname, i + 1,
                        rname(v, first + i), tname(v, have, b1), tname(v, want, b2));
    }
    if (!is_void && !assignable(m->regtypes[a], callee->ret))
        return verr(v, "%s %s: result %s does not fit %s of type %s", mn, callee->qname,
                    tname(v, callee->ret, b1), rname(v, a), tname(v, m->regtypes[a], b2));
    return 0;
}

static int check_special(vctx *v, int op, const uint32_t f[4])
{
    char b1[64], b2[64];
    const vm_program *p = v->p;
    const vm_method *m = v->m;
    const vm_type *rt = m->regtypes;
    switch (op) {
    case OP_MOV:
        if (!assignable(rt[f[0]], rt[f[1]]) || vm_type_is_int(rt[f[0]]) != vm_type_is_int(rt[f[1]]))
            return verr(v, "mov: cannot move %s (%s) to %s (%s)", rname(v, f[1]), tname(v, rt[f[1]], b1),
                        rname(v, f[0]), tname(v, rt[f[0]], b2));
        break;
    case OP_GETSTATIC:
    case OP_PUTSTATIC: {
        const vm_static *s = &p->statics[f[1]];
        int ok = op == OP_GETSTATIC ? assignable(rt[f[0]], s->type) : assignable(s->type, rt[f[0]]);
        if (!ok)
            return verr(v, "%s: static %s is %s, register %s is %s", op == OP_GETSTATIC ? "getstatic" : "putstatic",
                        s->qname, tname(v, s->type, b1), rname(v, f[0]), tname(v, rt[f[0]], b2));
        break;
    }
    case OP_NEW:
        if (rt[f[0]].rec != f[1])
            return verr(v, "new: register %s is %s, not %s", rname(v, f[0]), tname(v, rt[f[0]], b1),
                        p->records[f[1]].qname);
        break;
    case OP_GETF:
    case OP_PUTF: {
        uint32_t obj = op == OP_GETF ? f[1] : f[0];
        uint32_t fi = op == OP_GETF ? f[2] : f[1];
        uint32_t val = op == OP_GETF ? f[0] : f[2];
        const vm_record *r = &p->records[rt[obj].rec];
        if (fi >= r->nfields)
            return verr(v, "%s: record %s has no field %u", op == OP_GETF ? "getfield" : "putfield", r->qname, fi);
        vm_type ft = r->fields[fi].type;
        int ok = op == OP_GETF ? assignable(rt[val], ft) : assignable(ft, rt[val]);
        if (!ok)
            return verr(v, "%s: field %s.%s is %s, register %s is %s", op == OP_GETF ? "getfield" : "putfield",
                        r->qname, r->fields[fi].name, tname(v, ft, b1), rname(v, val), tname(v, rt[val], b2));
        break;
    }
    case OP_CALL:
    case OP_CALLV:
    case OP_CALLVIRT:
    case OP_CALLVIRTV: return check_call(v, op, f[0], f[1]);
    case OP_CHECKCAST:
        /* a cast down (or sideways, which fails at run time as in Java): both are records, checked above */
        break;
    case OP_RET:
        if (m->ret.kind == VM_T_VOID)
            return verr(v, "ret: %s returns void, so 'ret' takes no operand", m->qname);
        if (!assignable(m->ret, rt[f[0]]))
            return verr(v, "ret: %s returns %s, register %s is %s", m->qname, tname(v, m->ret, b1), rname(v, f[0]),
                        tname(v, rt[f[0]], b2));
        break;
    case OP_RETV:
        if (m->ret.kind != VM_T_VOID)
            return verr(v, "ret: %s returns %s: 'ret' needs a register", m->qname, tname(v, m->ret, b1));
        break;
    }
    return 0;
}

int vm_verify_method(const vm_program *p, const vm_method *m, char *err, size_t errlen)
{
    vctx v = {p, m, err, errlen, 0};
    if (m->flags & (VM_METHOD_NATIVE | VM_METHOD_ABSTRACT))
        return 0;
    if (m->nregs > VM_MAX_REGS || m->nparams > m->nregs)
        return verr(&v, "bad register count %u", m->nregs);
    if (m->ncode == 0)
        return verr(&v, "method has no instructions (control falls off the end)");
    for (v.pc = 0; v.pc < m->ncode; v.pc++) {
        uint32_t i = m->code[v.pc];
        uint32_t op = GET_OP(i);
        if (op >= VM_NOPCODES)
            return verr(&v, "unknown opcode 0x%02x", op);
        const vm_opinfo *oi = &vm_opinfo_table[op];
        const char *mn = oi->mnemonic;
        uint32_t f[4];
        int nf = vm_operand_fields(i, f);
        for (int k = 0; k < nf; k++) {
            int kind = oi->kind[k];
            uint32_t x = f[k];
            switch (kind) {
            case K__:
                if (x != 0)
                    return verr(&v, "%s: unused operand field %s is not zero", mn, field_name[k]);
                break;
            case K_RI: case K_RREF: case K_RARR: case K_RBA: case K_RIA: case K_RLA: case K_RREC: case K_RANY:
                if (check_reg(&v, mn, k, x, kind))
                    return -1;
                break;
            case K_U6:
            case K_U5: {
                uint32_t max = kind == K_U6 ? 63 : 31;
                if (x > max)
                    return verr(&v, "%s: immediate %u out of range 0..%u", mn, x, max);
                break;
            }
            case K_S8: case K_U8: case K_S16: break; /* every bit pattern is a value */
            case K_K: case K_STR: case K_METH: case K_STATIC: case K_TYPE:
                if (check_index(&v, mn, kind, x))
                    return -1;
                break;
            case K_FIELD: /* checked with its record in check_special */
            case K_RWIN: break; /* checked with the signature in check_call */
            case K_J: {
                int64_t target = (int64_t)v.pc + 1 + (int32_t)x;
                if (target < 0 || target >= m->ncode)
                    return verr(&v, "%s: branch into nowhere (target %" PRId64 ", method has %u instructions)", mn,
                                target, m->ncode);
                break;
            }
            }
        }
        if (check_special(&v, (int)op, f))
            return -1;
        if (oi->flags & VM_OPF_COND) {
            if (v.pc + 1 >= m->ncode || GET_OP(m->code[v.pc + 1]) != OP_JMP)
                return verr(&v, "%s: conditional instruction not followed by jmp", mn);
            /* when the condition fails, the jmp is skipped: something must follow it */
            if (v.pc + 2 >= m->ncode)
                return verr(&v, "control falls off the end of the method (when '%s' does not branch)", mn);
        }
    }
    v.pc = m->ncode - 1;
    uint32_t last = GET_OP(m->code[v.pc]);
    if (!(vm_opinfo_table[last].flags & VM_OPF_NOFALL))
        return verr(&v, "control falls off the end of the method (last instruction is '%s')",
                    vm_opinfo_table[last].mnemonic);
    return 0;
}
