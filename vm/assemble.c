/*
 * vm/assemble.c — a method body into instruction words, in two passes over
 * its lines: registers (var) and labels, then each instruction, choosing
 * among the opcodes of a mnemonic by its operands (docs/bytecode.md). The
 * verifier (verify.c) then checks the result.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "loader_impl.h"
#include "opcodes.h"

typedef struct masm {
    loader *L;
    msrc *src;
    vm_method *m;
    strmap regs;   /* name -> register */
    strmap labels; /* name -> instruction index */
} masm;

static int reg_lookup(masm *A, const tok *t, uint32_t *r)
{
    if (t->kind != TK_IDENT)
        return 0;
    if (strmap_get(&A->regs, t->s, t->len, r))
        return 1;
    /* rN names register N directly */
    if (t->len >= 2 && t->len <= 6 && t->s[0] == 'r') {
        uint32_t v = 0;
        for (uint32_t i = 1; i < t->len; i++) {
            if (t->s[i] < '0' || t->s[i] > '9')
                return 0;
            v = v * 10 + (uint32_t)(t->s[i] - '0');
        }
        *r = v;
        return 1;
    }
    return 0;
}

static void declare_var(masm *A, cursor *c)
{
    loader *L = A->L;
    vm_method *m = A->m;
    const tok *names[VM_MAX_REGS];
    uint32_t n = 0;
    for (;;) {
        const tok *t = cur_ident(c, "a register name");
        if (n == VM_MAX_REGS)
            ld_fail(L, A->src, c->ln->no, "too many registers (at most %d)", VM_MAX_REGS);
        names[n++] = t;
        if (cur_accept(c, ':'))
            break;
        cur_punct(c, ',');
    }
    ptype pt = cur_type(c);
    cur_end(c);
    vm_type ty = decl_type(L, A->src, &pt, 0, 0);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t prev;
        if (memchr(names[i]->s, '.', names[i]->len))
            ld_fail(L, A->src, c->ln->no, "malformed register name '%s'", tok_text(L, names[i]));
        if (strmap_get(&A->regs, names[i]->s, names[i]->len, &prev))
            ld_fail(L, A->src, c->ln->no, "duplicate register '%s'", tok_text(L, names[i]));
        if (m->nregs >= VM_MAX_REGS)
            ld_fail(L, A->src, c->ln->no, "too many registers (at most %d)", VM_MAX_REGS);
        decl_check_reg_name(L, A->src, c->ln->no, names[i], m->nregs);
        m->regtypes[m->nregs] = ty;
        m->regnames[m->nregs] = tok_dup(L, names[i]);
        strmap_put(L->a, &A->regs, names[i]->s, names[i]->len, m->nregs);
        m->nregs++;
    }
}

/* Operand kinds in text order for one opcode. */
static int op_slots(const vm_opinfo *oi, int kinds[5])
{
    int n = 0;
    for (int k = 0; k < 4; k++)
        if (oi->kind[k] != K__)
            kinds[n++] = oi->kind[k];
    if (oi->flags & VM_OPF_COND)
        kinds[n++] = K_J;
    return n;
}

static int mnemonic_is_cond(const tok *t)
{
    for (int op = 0; op < VM_NOPCODES; op++)
        if (tok_is(t, vm_opinfo_table[op].mnemonic))
            return (vm_opinfo_table[op].flags & VM_OPF_COND) ? 2 : 1;
    return 0;
}

enum { FIT_NO, FIT_SYNTAX, FIT_FULL };

static int reg_kind_fits(int kind, vm_type t)
{
    switch (kind) {
    case K_RI: return vm_type_is_int(t);
    case K_RREF: return vm_type_is_ref(t);
    case K_RARR: return vm_type_is_array(t);
    case K_RBA: return t.kind == VM_T_BYTES;
    case K_RIA: return t.kind == VM_T_INTS;
    case K_RLA: return t.kind == VM_T_LONGS;
    case K_RREC: return t.kind == VM_T_RECORD;
    default: return 1;
    }
}

static int is_reg_kind(int kind) { return kind >= K_RI && kind <= K_RANY; }

/*
 * Check one operand token against a kind. Returns FIT_FULL, FIT_SYNTAX (a
 * register of the wrong type: the verifier will say so) or FIT_NO with a
 * reason in why. On a fit, *val holds the field value.
 */
static int fit_operand(masm *A, const tok *t, int kind, int recreg, int64_t *val, const char **why)
{
    loader *L = A->L;
    vm_method *m = A->m;
    uint32_t r;
    if (is_reg_kind(kind)) {
        if (!reg_lookup(A, t, &r)) {
            *why = vm_arena_printf(L->a, "'%s' is not a register", tok_text(L, t));
            return FIT_NO;
        }
        if (r >= VM_MAX_REGS || r >= m->nregs) {
            *why = vm_arena_printf(L->a, "register %s out of range (method has %u registers)", tok_text(L, t),
                                   m->nregs);
            return FIT_NO;
        }
        *val = r;
        return reg_kind_fits(kind, m->regtypes[r]) ? FIT_FULL : FIT_SYNTAX;
    }
    static const struct {
        int kind;
        int64_t lo, hi;
    } ranges[] = {{K_S8, -128, 127}, {K_U8, 0, 255}, {K_U6, 0, 63}, {K_U5, 0, 31}, {K_S16, -32768, 32767}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        if (ranges[i].kind != kind)
            continue;
        int64_t v;
        const sym *s = t->kind == TK_IDENT ? sym_lookup(L, A->src, t, SYM_CONST, 0, 0) : NULL;
        if (t->kind == TK_NUM) {
            v = t->num;
        } else if (s) {
            v = s->value; /* a named constant used as an immediate */
        } else {
            *why = vm_arena_printf(L->a, "expected an immediate, got '%s'", tok_text(L, t));
            return FIT_NO;
        }
        if (v < ranges[i].lo || v > ranges[i].hi) {
            *why = vm_arena_printf(L->a, "immediate %" PRId64 " out of range %" PRId64 "..%" PRId64, v,
                                   ranges[i].lo, ranges[i].hi);
            return FIT_NO;
        }
        *val = v;
        return FIT_FULL;
    }
    switch (kind) {
    case K_K: {
        int64_t v;
        if (t->kind == TK_NUM) {
            v = t->num;
        } else if (t->kind == TK_IDENT) {
            const sym *s = sym_lookup(L, A->src, t, SYM_CONST, 0, 0);
            if (!s) {
                *why = vm_arena_printf(L->a, "'%s' is not a number or a constant", tok_text(L, t));
                return FIT_NO;
            }
            v = s->value;
        } else {
            *why = vm_arena_printf(L->a, "expected a number, got '%s'", tok_text(L, t));
            return FIT_NO;
        }
        *val = v; /* the pool index is made when encoding */
        return FIT_FULL;
    }
    case K_STR:
        if (t->kind != TK_STR) {
            *why = vm_arena_printf(L->a, "expected a string literal, got '%s'", tok_text(L, t));
            return FIT_NO;
        }
        return FIT_FULL;
    case K_METH:
    case K_STATIC:
    case K_TYPE: {
        symkind sk = kind == K_METH ? SYM_METHOD : kind == K_STATIC ? SYM_STATIC : SYM_RECORD;
        if (t->kind != TK_IDENT) {
            *why = vm_arena_printf(L->a, "expected a %s name, got '%s'", sym_kind_name[sk], tok_text(L, t));
            return FIT_NO;
        }
        *val = sym_lookup(L, A->src, t, sk, 0, 0) ? 1 : 0;
        return FIT_FULL; /* unknown names are reported when encoding */
    }
    case K_FIELD: {
        if (t->kind != TK_IDENT) {
            *why = vm_arena_printf(L->a, "expected a field name, got '%s'", tok_text(L, t));
            return FIT_NO;
        }
        if (recreg < 0)
            return FIT_SYNTAX;
        vm_type rt = m->regtypes[recreg];
        if (rt.kind != VM_T_RECORD)
            return FIT_SYNTAX;
        const vm_record *rec = &L->p->records[rt.rec];
        for (uint32_t f = 0; f < rec->nfields; f++)
            if (tok_is(t, rec->fields[f].name)) {
                *val = f;
                return FIT_FULL;
            }
        *why = vm_arena_printf(L->a, "record %s has no field '%s'", rec->qname, tok_text(L, t));
        return FIT_NO;
    }
    case K_J:
        if (t->kind != TK_IDENT || memchr(t->s, '.', t->len)) {
            *why = vm_arena_printf(L->a, "expected a label, got '%s'", tok_text(L, t));
            return FIT_NO;
        }
        return FIT_FULL;
    }
    *why = "internal error: unknown operand kind";
    return FIT_NO;
}

static uint32_t pool_const(masm *A, int64_t v, uint32_t lineno)
{
    loader *L = A->L;
    vm_program *p = L->p;
    uint32_t idx;
    if (strmap_get(&L->kmap, (const char *)&v, sizeof v, &idx))
        return idx;
    if (p->nk >= VM_MAX_POOL)
        ld_pool_full(L, A->src, lineno, "constants", UINT32_MAX);
    p->k = vm_arena_grow(L->a, p->k, p->nk, &L->capk, sizeof *p->k);
    p->k[p->nk] = v;
    strmap_put(L->a, &L->kmap, (const char *)&p->k[p->nk], sizeof v, p->nk);
    return p->nk++;
}

static uint32_t pool_string(masm *A, const tok *t, uint32_t lineno)
{
    loader *L = A->L;
    vm_program *p = L->p;
    uint32_t idx;
    if (strmap_get(&L->strmapping, t->s, t->len, &idx))
        return idx;
    if (p->nstrings >= VM_MAX_POOL)
        ld_pool_full(L, A->src, lineno, "strings", UINT32_MAX);
    p->strings = vm_arena_grow(L->a, p->strings, p->nstrings, &L->capstr, sizeof *p->strings);
    p->strings[p->nstrings] = (vm_string){(const uint8_t *)t->s, t->len};
    strmap_put(L->a, &L->strmapping, t->s, t->len, p->nstrings);
    return p->nstrings++;
}

static uint32_t label_target(masm *A, const tok *t, uint32_t lineno)
{
    uint32_t target;
    if (!strmap_get(&A->labels, t->s, t->len, &target))
        ld_fail(A->L, A->src, lineno, "undefined label '%s'", tok_text(A->L, t));
    if (target >= A->m->ncode)
        ld_fail(A->L, A->src, lineno, "label '%s' is at the end of the method: no instruction follows it",
                tok_text(A->L, t));
    return target;
}

static int32_t jump_offset(masm *A, uint32_t target, uint32_t from, uint32_t lineno)
{
    int64_t off = (int64_t)target - ((int64_t)from + 1);
    if (off < VM_MIN_sJ || off > VM_MAX_sJ)
        ld_fail(A->L, A->src, lineno, "jump too far");
    return (int32_t)off;
}

/*
 * call [r =] Module.method(a, b, ...)
 * A method with a result writes it to r and takes its arguments from the
 * registers right after r (CALL); a void method takes them from its first
 * argument on (CALLV). The assembler checks that the registers are
 * consecutive; the verifier checks their types against the signature.
 */
static void assemble_call(masm *A, cursor *c, uint32_t *pc, int virtual)
{
    loader *L = A->L;
    vm_method *m = A->m;
    uint32_t no = c->ln->no;
    const char *mn = virtual ? "callvirt" : "call"; /* messages name the instruction written */
    const tok *first = cur_ident(c, "a method name or a result register");
    const tok *dst = NULL, *mt = first;
    if (cur_accept(c, '=')) {
        dst = first;
        mt = cur_ident(c, "a method name");
    }
    const sym *s = sym_lookup(L, A->src, mt, SYM_METHOD, no, 1);
    const vm_method *callee = L->p->methods[s->index];
    if (virtual && callee->vslot < 0)
        ld_fail(L, A->src, no, "callvirt %s: not a virtual method (use call)", callee->qname);
    if (!virtual && (callee->flags & VM_METHOD_ABSTRACT))
        ld_fail(L, A->src, no, "call %s: the method is abstract: it has no body to call (use callvirt)", callee->qname);
    uint32_t regs[VM_MAX_REGS + 1], nargs = 0;
    cur_punct(c, '(');
    if (!cur_accept(c, ')')) {
        for (;;) {
            const tok *t = cur_next(c, "an argument register");
            if (nargs == VM_MAX_REGS || !reg_lookup(A, t, &regs[nargs]))
                ld_fail(L, A->src, no, "%s %s: argument %u: '%s' is not a register", mn, callee->qname, nargs + 1,
                        tok_text(L, t));
            if (regs[nargs] >= m->nregs)
                ld_fail(L, A->src, no, "%s %s: register %s out of range (method has %u registers)", mn,
                        callee->qname,
                        tok_text(L, t), m->nregs);
            nargs++;
            if (cur_accept(c, ')'))
                break;
            cur_punct(c, ',');
        }
    }
    cur_end(c);
    if (nargs != callee->nparams)
        ld_fail(L, A->src, no, "%s %s: takes %u argument%s, got %u", mn, callee->qname, callee->nparams,
                callee->nparams == 1 ? "" : "s", nargs);
    int is_void = callee->ret.kind == VM_T_VOID;
    uint32_t base = 0;
    if (dst) {
        if (is_void)
            ld_fail(L, A->src, no, "%s %s: the method returns void, so there is no result for '%s'", mn,
                    callee->qname,
                    tok_text(L, dst));
        if (!reg_lookup(A, dst, &base))
            ld_fail(L, A->src, no, "%s %s: result '%s' is not a register", mn, callee->qname,
                    tok_text(L, dst));
        if (base >= m->nregs)
            ld_fail(L, A->src, no, "%s %s: result register %s out of range (method has %u registers)", mn,
                    callee->qname,
                    tok_text(L, dst), m->nregs);
        for (uint32_t k = 0; k < nargs; k++)
            if (regs[k] != base + 1 + k)
                ld_fail(L, A->src, no,
                        "%s %s: argument %u must be register r%u (the arguments follow the result register "
                        "%s, r%u), not %s (r%u)",
                        mn, callee->qname, k + 1, base + 1 + k, m->regnames[base], base, m->regnames[regs[k]], regs[k]);
    } else {
        if (!is_void) {
            char b[64];
            ld_fail(L, A->src, no, "%s %s: the method returns %s: write '%s r = %s(...)'", mn, callee->qname,
                    vm_type_name(L->p, callee->ret, b, sizeof b), mn, tok_text(L, mt));
        }
        base = nargs ? regs[0] : 0;
        for (uint32_t k = 1; k < nargs; k++)
            if (regs[k] != base + k)
                ld_fail(L, A->src, no,
                        "%s %s: arguments must be consecutive registers: argument %u must be r%u, not %s (r%u)", mn,
                        callee->qname, k + 1, base + k, m->regnames[regs[k]], regs[k]);
    }
    vm_opcode op = virtual ? (is_void ? OP_CALLVIRTV : OP_CALLVIRT) : (is_void ? OP_CALLV : OP_CALL);
    m->code[*pc] = MK_ABx(op, base, s->index);
    m->lines[*pc] = no;
    (*pc)++;
}

/* Assemble one instruction line (after any label) at code index *pc. */
static void assemble_insn(masm *A, cursor *c, uint32_t *pc)
{
    loader *L = A->L;
    vm_method *m = A->m;
    uint32_t no = c->ln->no;
    const tok *mn = cur_ident(c, "a mnemonic");
    if (tok_is(mn, "call") || tok_is(mn, "callvirt"))
        return assemble_call(A, c, pc, tok_is(mn, "callvirt"));
    /* operands: single tokens separated by commas */
    const tok *ops[8];
    int nops = 0;
    if (cur_more(c)) {
        for (;;) {
            const tok *t = cur_next(c, "an operand");
            if (t->kind == TK_PUNCT)
                ld_fail(L, A->src, no, "expected an operand, got '%s'", tok_text(L, t));
            if (nops == 8)
                ld_fail(L, A->src, no, "too many operands for '%s'", tok_text(L, mn));
            ops[nops++] = t;
            if (!cur_more(c))
                break;
            const tok *sep = cur_next(c, "','");
            if (!tok_punct(sep, ','))
                ld_fail(L, A->src, no, "expected ',' between operands, got '%s'", tok_text(L, sep));
        }
    }
    /* overload resolution: the first opcode with this mnemonic that fits best */
    int best = -1, best_fit = FIT_NO;
    int64_t best_vals[5] = {0};
    const char *why = NULL;
    int why_slot = 0, why_rank = -1, counts_seen = 0, count_match = 0;
    for (int op = 0; op < VM_NOPCODES; op++) {
        const vm_opinfo *oi = &vm_opinfo_table[op];
        if (!tok_is(mn, oi->mnemonic))
            continue;
        int kinds[5];
        int n = op_slots(oi, kinds);
        counts_seen |= 1 << n;
        if (n != nops)
            continue;
        count_match = 1;
        int fit = FIT_FULL, recreg = -1;
        int64_t vals[5] = {0};
        for (int s = 0; s < n && fit != FIT_NO; s++) {
            const char *w = NULL;
            int f = fit_operand(A, ops[s], kinds[s], recreg, &vals[s], &w);
            if (kinds[s] == K_RREC && f != FIT_NO)
                recreg = (int)vals[s];
            /* report the most telling failure: "immediate 1000 out of range" beats
               "'1000' is not a register" from the register form of the mnemonic */
            int rank = f == FIT_NO && is_reg_kind(kinds[s]) &&
                               (ops[s]->kind == TK_NUM || sym_lookup(L, A->src, ops[s], SYM_CONST, no, 0))
                           ? 0
                           : 1;
            if (f == FIT_NO && rank > why_rank) {
                why = w;
                why_slot = s + 1;
                why_rank = rank;
            }
            if (f < fit)
                fit = f;
        }
        if (fit > best_fit) {
            best = op;
            best_fit = fit;
            memcpy(best_vals, vals, sizeof vals);
            if (fit == FIT_FULL)
                break;
        }
    }
    if (!counts_seen)
        ld_fail(L, A->src, no, "unknown mnemonic '%s'", tok_text(L, mn));
    if (!count_match) {
        char want[64];
        size_t o = 0;
        for (int n = 0; n < 8; n++)
            if (counts_seen & (1 << n))
                o += (size_t)snprintf(want + o, sizeof want - o, "%s%d", o ? " or " : "", n);
        ld_fail(L, A->src, no, "'%s' takes %s operand%s, got %d", tok_text(L, mn), want,
                counts_seen == 2 ? "" : "s", nops);
    }
    if (best < 0)
        ld_fail(L, A->src, no, "operand %d of '%s': %s", why_slot, tok_text(L, mn), why);

    /* encode */
    const vm_opinfo *oi = &vm_opinfo_table[best];
    int kinds[5];
    int n = op_slots(oi, kinds);
    uint32_t f[4] = {0};
    for (int s = 0; s < n; s++) {
        int64_t v = best_vals[s];
        switch (kinds[s]) {
        case K_K: v = pool_const(A, v, no); break;
        case K_STR: v = pool_string(A, ops[s], no); break;
        case K_METH: v = sym_lookup(L, A->src, ops[s], SYM_METHOD, no, 1)->index; break;
        case K_STATIC: v = sym_lookup(L, A->src, ops[s], SYM_STATIC, no, 1)->index; break;
        case K_TYPE: v = sym_lookup(L, A->src, ops[s], SYM_RECORD, no, 1)->index; break;
        case K_J: v = jump_offset(A, label_target(A, ops[s], no), *pc + (oi->flags & VM_OPF_COND ? 1 : 0), no); break;
        default: break;
        }
        if (s < 4)
            f[s] = (uint32_t)v;
    }
    uint32_t word;
    switch (oi->format) {
    case iABx:
    case iAsBx: word = MK_ABx(best, f[0], f[1] & 0xffffu); break;
    case isJ: word = MK_sJ(best, (int32_t)f[0]); break;
    case iABCD:
        for (int s = 0; s < 4; s++)
            if (is_reg_kind(oi->kind[s]) && f[s] >= VM_MAX_REGS4)
                ld_fail(L, A->src, no, "operand %d of '%s': register %s is r%u; this form reaches r0..r%d only", s + 1,
                        tok_text(L, mn), tok_text(L, ops[s]), f[s], VM_MAX_REGS4 - 1);
        word = MK_ABCD(best, f[0], f[1], f[2], f[3]);
        break;
    default: {
        /* iABC: fill A, B, C in order of the kinds that are used */
        uint32_t abc[3] = {0};
        int s = 0;
        for (int k = 0; k < 3; k++)
            if (oi->kind[k] != K__)
                abc[k] = f[s++] & 0xffu;
        word = MK_ABC(best, abc[0], abc[1], abc[2]);
    }
    }
    m->code[*pc] = word;
    m->lines[*pc] = no;
    (*pc)++;
    if (oi->flags & VM_OPF_COND) {
        uint32_t target = label_target(A, ops[n - 1], no);
        m->code[*pc] = MK_sJ(OP_JMP, jump_offset(A, target, *pc, no));
        m->lines[*pc] = no;
        (*pc)++;
    }
}

static int line_is_label(const line *ln)
{
    return ln->ntok >= 2 && ln->t[0].kind == TK_IDENT && tok_punct(&ln->t[1], ':') && !tok_is(&ln->t[0], "var");
}

void asm_method(loader *L, pmethod *pm)
{
    vm_method *m = pm->m;
    masm A = {.L = L, .src = pm->src, .m = m};
    /* room for every register a method can have */
    vm_type *types = vm_arena_alloc(L->a, VM_MAX_REGS * sizeof *types);
    const char **names = vm_arena_alloc(L->a, VM_MAX_REGS * sizeof *names);
    for (uint32_t i = 0; i < m->nparams; i++) {
        types[i] = m->regtypes[i];
        names[i] = m->regnames[i];
    }
    m->regtypes = types;
    m->regnames = names;
    for (uint32_t i = 0; i < m->nparams; i++)
        strmap_put(L->a, &A.regs, m->regnames[i], strlen(m->regnames[i]), i);
    /* pass 1: registers and labels */
    uint32_t ncode = 0;
    for (uint32_t li = pm->first; li < pm->last; li++) {
        const line *ln = &pm->src->lines[li];
        cursor c = {L, pm->src, ln, 0};
        if (tok_is(&ln->t[0], "var")) {
            c.i = 1;
            declare_var(&A, &c);
            continue;
        }
        if (line_is_label(ln)) {
            uint32_t prev;
            if (memchr(ln->t[0].s, '.', ln->t[0].len))
                ld_fail(L, pm->src, ln->no, "malformed label '%s'", tok_text(L, &ln->t[0]));
            if (strmap_get(&A.labels, ln->t[0].s, ln->t[0].len, &prev))
                ld_fail(L, pm->src, ln->no, "duplicate label '%s'", tok_text(L, &ln->t[0]));
            strmap_put(L->a, &A.labels, ln->t[0].s, ln->t[0].len, ncode);
            c.i = 2;
            if (!cur_more(&c))
                continue;
        }
        const tok *mn = cur_ident(&c, "a mnemonic");
        int words = mnemonic_is_cond(mn);
        if (!words)
            ld_fail(L, pm->src, ln->no, "unknown mnemonic '%s'", tok_text(L, mn));
        if (ncode > (1u << 24))
            ld_fail(L, pm->src, ln->no, "method too long");
        ncode += (uint32_t)words;
    }
    m->code = vm_arena_alloc(L->a, (ncode + 1) * sizeof *m->code);
    m->lines = vm_arena_alloc(L->a, (ncode + 1) * sizeof *m->lines);
    m->ncode = ncode;
    /* pass 2: encode */
    uint32_t pc = 0;
    for (uint32_t li = pm->first; li < pm->last; li++) {
        const line *ln = &pm->src->lines[li];
        cursor c = {L, pm->src, ln, 0};
        if (tok_is(&ln->t[0], "var"))
            continue;
        if (line_is_label(ln)) {
            c.i = 2;
            if (!cur_more(&c))
                continue;
        }
        assemble_insn(&A, &c, &pc);
    }
}
