/*
 * vm/declarations.c — a module's declarations (import, const, static,
 * record, method headers; bodies are kept as line ranges for assemble.c),
 * the per-module symbol tables, and, once every module is read, resolution:
 * the types of fields, statics and signatures, natives, and vtables.
 * docs/format.md, "Declarations".
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "loader_impl.h"

const char *const sym_kind_name[] = {"method", "record", "static", "constant"};

/* ---- symbols -------------------------------------------------------------------------- */
uint32_t sym_add(loader *L, msrc *src, const tok *name, symkind kind, uint32_t index, uint32_t lineno)
{
    uint32_t prev;
    if (tok_is_reserved(name))
        ld_fail(L, src, lineno, "'%s' is a reserved word: it cannot name a %s", tok_text(L, name), sym_kind_name[kind]);
    if (memchr(name->s, '.', name->len))
        ld_fail(L, src, lineno, "a %s name cannot be qualified: '%s'", sym_kind_name[kind], tok_text(L, name));
    if (strmap_get(&src->syms, name->s, name->len, &prev))
        ld_fail(L, src, lineno, "duplicate definition of '%s' (first defined at line %u)", tok_text(L, name),
                L->syms[prev].line);
    L->syms = vm_arena_grow(L->a, L->syms, L->nsyms, &L->capsyms, sizeof *L->syms);
    L->syms[L->nsyms] = (sym){.kind = kind, .index = index, .line = lineno};
    strmap_put(L->a, &src->syms, name->s, name->len, L->nsyms);
    return L->nsyms++;
}

/*
 * Resolve "name" (in src's module) or "Module.name" (Module imported by src,
 * or src itself, or Sys) to a symbol of the wanted kind.
 */
const sym *sym_lookup(loader *L, msrc *src, const tok *t, symkind want, uint32_t lineno, int must)
{
    const char *dot = NULL;
    for (uint32_t i = 0; i < t->len; i++)
        if (t->s[i] == '.')
            dot = t->s + i;
    msrc *in = src;
    const char *name = t->s;
    size_t nlen = t->len;
    if (dot) {
        size_t mlen = (size_t)(dot - t->s);
        uint32_t mi = 0;
        int own = mlen == strlen(src->mod->name) && memcmp(t->s, src->mod->name, mlen) == 0;
        int sys = mlen == 3 && memcmp(t->s, "Sys", 3) == 0;
        if (!own && !sys && !strmap_get(&src->imports, t->s, mlen, &mi)) {
            if (!must)
                return NULL;
            ld_fail(L, src, lineno, "unknown module '%s' in '%s' (not imported)", vm_arena_strndup(L->a, t->s, mlen),
                    tok_text(L, t));
        }
        if (!own)
            in = sys ? L->srcs[0] : L->srcs[mi]; /* Sys is always module 0 */
        name = dot + 1;
        nlen = t->len - mlen - 1;
    }
    uint32_t si;
    if (!strmap_get(&in->syms, name, nlen, &si)) {
        if (!must)
            return NULL;
        ld_fail(L, src, lineno, "unknown %s '%s'", sym_kind_name[want], tok_text(L, t));
    }
    const sym *s = &L->syms[si];
    if (s->kind != want) {
        if (!must)
            return NULL;
        ld_fail(L, src, lineno, "'%s' is a %s, not a %s", tok_text(L, t), sym_kind_name[s->kind], sym_kind_name[want]);
    }
    return s;
}

vm_type decl_type(loader *L, msrc *src, const ptype *pt, int allow_void, int allow_object)
{
    static const struct {
        const char *name;
        vm_tkind kind, array;
    } prim[] = {
        {"int", VM_T_INT, VM_T_INTS},
        {"long", VM_T_LONG, VM_T_LONGS},
        {"byte", VM_T_VOID, VM_T_BYTES},
        {"void", VM_T_VOID, VM_T_VOID},
        {"Object", VM_T_OBJECT, VM_T_VOID},
    };
    for (size_t i = 0; i < sizeof prim / sizeof prim[0]; i++) {
        if (!tok_is(pt->name, prim[i].name))
            continue;
        vm_tkind k = pt->array ? prim[i].array : prim[i].kind;
        if (k == VM_T_VOID && !(allow_void && !pt->array && tok_is(pt->name, "void")))
            ld_fail(L, src, pt->line, "type '%s%s' is not allowed here", tok_text(L, pt->name), pt->array ? "[]" : "");
        if (k == VM_T_OBJECT && !allow_object)
            ld_fail(L, src, pt->line, "type 'Object' is allowed only in native method signatures");
        return (vm_type){.kind = (uint16_t)k};
    }
    const sym *s = sym_lookup(L, src, pt->name, SYM_RECORD, pt->line, 1);
    if (pt->array)
        ld_fail(L, src, pt->line, "arrays of records are not supported ('%s[]')", tok_text(L, pt->name));
    return (vm_type){.kind = VM_T_RECORD, .rec = (uint16_t)s->index};
}

/* ---- declarations ----------------------------------------------------------------------- */
#define ATTR_INTRINSIC 1u
#define ATTR_VIRTUAL   2u /* "virtual method" */
#define ATTR_ABSTRACT  4u /* "abstract method": virtual, no body */

/*
 * Does ln start a new declaration ("method main() -> int", "record R",
 * "@IntrinsicCandidate" ...)? A keyword followed by a name: a field or
 * constant that happens to be called "method" is followed by ':' or ','.
 * Used to name what is unclosed when a record, an array literal or a method
 * runs into the next declaration.
 */
static int line_starts_declaration(const line *ln)
{
    static const char *const keywords[] = {"import", "const", "static", "record", "method", "native", "virtual",
                                           "abstract"};
    if (ln->ntok >= 2 && tok_punct(&ln->t[0], '@') && ln->t[1].kind == TK_IDENT)
        return 1;
    if (ln->ntok < 2 || ln->t[1].kind != TK_IDENT)
        return 0;
    for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++)
        if (tok_is(&ln->t[0], keywords[k]))
            return 1;
    return 0;
}

/* One more record, static or method in its program-wide pool (16-bit operands) of n so far;
   *builtin counts the built-in modules' share for the message when the pool is full. */
static void pool_take(loader *L, msrc *src, uint32_t lineno, uint32_t n, const char *what, uint32_t *builtin)
{
    if (n >= VM_MAX_POOL)
        ld_pool_full(L, src, lineno, what, *builtin);
    *builtin += src->builtin;
}

/* A record's, static's or method's simple name, "Module.name", module and declaring line. */
#define NAME_DECLARATION(L, src, lineno, d, nametok)                                \
    do {                                                                            \
        (d)->name = tok_dup(L, nametok);                                            \
        (d)->qname = vm_arena_printf((L)->a, "%s.%s", (src)->mod->name, (d)->name); \
        (d)->module = (src)->mod;                                                   \
        (d)->line = (lineno);                                                       \
    } while (0)

static void parse_record(loader *L, msrc *src, cursor *c, uint32_t *li)
{
    const tok *name = cur_ident(c, "a record name");
    const sym *super = NULL;
    if (cur_more(c)) {
        const tok *kw = cur_ident(c, "'extends' or end of line");
        if (!tok_is(kw, "extends"))
            ld_fail(L, src, c->ln->no, "expected 'extends' or end of line, got '%s'", tok_text(L, kw));
        /* the super record is declared before: in an imported module, or above in this one */
        super = sym_lookup(L, src, cur_ident(c, "a record name"), SYM_RECORD, c->ln->no, 1);
    }
    cur_end(c);
    vm_program *p = L->p;
    pool_take(L, src, c->ln->no, p->nrecords, "records", &L->builtin_records);
    p->records = vm_arena_grow(L->a, p->records, p->nrecords, &L->caprecords, sizeof *p->records);
    L->pr = vm_arena_grow(L->a, L->pr, p->nrecords, &L->cappr, sizeof *L->pr);
    vm_record *r = &p->records[p->nrecords];
    precord *pr = &L->pr[p->nrecords];
    NAME_DECLARATION(L, src, c->ln->no, r, name);
    pr->src = src;
    sym_add(L, src, name, SYM_RECORD, p->nrecords, c->ln->no);
    uint32_t capf = 0, capt = 0;
    strmap names = {0};
    r->super = VM_NO_RECORD;
    if (super) {
        /* the super record's fields first, at the same indices (their types are resolved with it) */
        const vm_record *sr = &p->records[super->index];
        if (sr->depth + 1 >= VM_MAX_RECORD_DEPTH)
            ld_fail(L, src, r->line, "record '%s' extends a chain of %d records (at most %d)", r->name, sr->depth + 1,
                    VM_MAX_RECORD_DEPTH - 1);
        r->super = (uint16_t)super->index;
        r->depth = (uint16_t)(sr->depth + 1);
        memcpy(r->supers, sr->supers, sizeof r->supers);
        r->fields = vm_arena_grow(L->a, r->fields, 0, &capf, sizeof *r->fields);
        for (uint16_t f = 0; f < sr->nfields; f++) {
            r->fields = vm_arena_grow(L->a, r->fields, r->nfields, &capf, sizeof *r->fields);
            r->fields[r->nfields++].name = sr->fields[f].name;
            strmap_put(L->a, &names, sr->fields[f].name, strlen(sr->fields[f].name), 0);
        }
        pr->ninherited = sr->nfields;
    }
    r->supers[r->depth] = (uint16_t)p->nrecords;
    for (;;) {
        (*li)++;
        if (*li >= src->nlines)
            ld_fail(L, src, r->line, "record '%s' has no 'end'", r->name);
        if (line_starts_declaration(&src->lines[*li]))
            ld_fail(L, src, r->line, "record '%s' has no 'end' before line %u", r->name, src->lines[*li].no);
        cursor fc = {L, src, &src->lines[*li], 0};
        const tok *fname = cur_ident(&fc, "a field name or 'end'");
        if (tok_is(fname, "end")) {
            cur_end(&fc);
            break;
        }
        uint32_t prev;
        if (memchr(fname->s, '.', fname->len))
            ld_fail(L, src, fc.ln->no, "malformed field name '%s'", tok_text(L, fname));
        if (strmap_get(&names, fname->s, fname->len, &prev)) {
            if (prev == 0)
                ld_fail(L, src, fc.ln->no, "field '%s' is %s's already (a record cannot hide an inherited field)",
                        tok_text(L, fname), p->records[r->super].qname);
            ld_fail(L, src, fc.ln->no, "duplicate field '%s' (first defined at line %u)", tok_text(L, fname), prev);
        }
        strmap_put(L->a, &names, fname->s, fname->len, fc.ln->no);
        cur_punct(&fc, ':');
        ptype ft = cur_type(&fc);
        cur_end(&fc);
        if (r->nfields >= VM_MAX_REGS)
            ld_fail(L, src, fc.ln->no, "too many fields (at most %d)", VM_MAX_REGS);
        r->fields = vm_arena_grow(L->a, r->fields, r->nfields, &capf, sizeof *r->fields);
        uint32_t own = r->nfields - pr->ninherited;
        pr->ftypes = vm_arena_grow(L->a, pr->ftypes, own, &capt, sizeof *pr->ftypes);
        r->fields[r->nfields].name = tok_dup(L, fname);
        pr->ftypes[own] = ft;
        r->nfields++;
    }
    p->nrecords++;
}

static int64_t const_value(loader *L, msrc *src, const tok *t, uint32_t lineno)
{
    if (t->kind == TK_NUM)
        return t->num;
    if (t->kind != TK_IDENT)
        ld_fail(L, src, lineno, "expected a number or a constant name, got '%s'", tok_text(L, t));
    return sym_lookup(L, src, t, SYM_CONST, lineno, 1)->value;
}

static void parse_static(loader *L, msrc *src, cursor *c, uint32_t *li)
{
    const tok *name = cur_ident(c, "a static name");
    cur_punct(c, ':');
    ptype type = cur_type(c);
    vm_program *p = L->p;
    pool_take(L, src, c->ln->no, p->nstatics, "statics", &L->builtin_statics);
    p->statics = vm_arena_grow(L->a, p->statics, p->nstatics, &L->capstatics, sizeof *p->statics);
    L->ps = vm_arena_grow(L->a, L->ps, p->nstatics, &L->capps, sizeof *L->ps);
    vm_static *st = &p->statics[p->nstatics];
    pstatic *ps = &L->ps[p->nstatics];
    NAME_DECLARATION(L, src, c->ln->no, st, name);
    ps->src = src;
    ps->type = type;
    sym_add(L, src, name, SYM_STATIC, p->nstatics, c->ln->no);
    p->nstatics++;
    if (!cur_accept(c, '='))
        return cur_end(c);
    const tok *v = cur_next(c, "an initial value");
    if (v->kind == TK_STR) {
        ps->init_kind = 3;
        st->init_count = v->len;
        st->init_elems = vm_arena_alloc(L->a, (v->len + 1) * sizeof(int64_t));
        for (uint32_t i = 0; i < v->len; i++)
            st->init_elems[i] = (int8_t)v->s[i];
        return cur_end(c);
    }
    if (!tok_punct(v, '{')) {
        ps->init_kind = 1;
        st->init_int = const_value(L, src, v, c->ln->no);
        return cur_end(c);
    }
    /* an array literal: numbers separated by commas, over several lines, up to '}' */
    ps->init_kind = 2;
    st->has_array_init = 1;
    uint32_t cap = 0;
    int need_value = 1;
    for (;;) {
        while (!cur_more(c)) {
            (*li)++;
            if (*li >= src->nlines)
                ld_fail(L, src, st->line, "array literal of '%s' has no '}'", st->name);
            if (line_starts_declaration(&src->lines[*li]))
                ld_fail(L, src, st->line, "array literal of '%s' has no '}' before line %u", st->name,
                        src->lines[*li].no);
            c->ln = &src->lines[*li];
            c->i = 0;
        }
        const tok *e = cur_next(c, "a value");
        if (tok_punct(e, '}')) {
            cur_end(c);
            break;
        }
        if (tok_punct(e, ',')) {
            if (need_value)
                ld_fail(L, src, c->ln->no, "expected a value before ','");
            need_value = 1;
            continue;
        }
        if (!need_value)
            ld_fail(L, src, c->ln->no, "expected ',' between values");
        st->init_elems = vm_arena_grow(L->a, st->init_elems, st->init_count, &cap, sizeof *st->init_elems);
        st->init_elems[st->init_count++] = const_value(L, src, e, c->ln->no);
        need_value = 0;
    }
}

/*
 * "rN" names register N directly, so a parameter or register may be named
 * rN only when it is register N: anything else would make rN ambiguous.
 */
void decl_check_reg_name(loader *L, msrc *src, uint32_t lineno, const tok *t, uint32_t index)
{
    uint32_t v = 0;
    if (t->len < 2 || t->len > 6 || t->s[0] != 'r')
        return;
    for (uint32_t i = 1; i < t->len; i++) {
        if (t->s[i] < '0' || t->s[i] > '9')
            return;
        v = v * 10 + (uint32_t)(t->s[i] - '0');
    }
    if (v != index)
        ld_fail(L, src, lineno, "'%s' cannot name register r%u: rN always means register N", tok_text(L, t), index);
}

static void parse_method(loader *L, msrc *src, cursor *c, uint32_t *li, unsigned attrs, int native)
{
    const tok *name = cur_ident(c, "a method name");
    vm_program *p = L->p;
    pool_take(L, src, c->ln->no, p->nmethods, "methods", &L->builtin_methods);
    p->methods = vm_arena_grow(L->a, p->methods, p->nmethods, &L->capmethods, sizeof *p->methods);
    L->pm = vm_arena_grow(L->a, L->pm, p->nmethods, &L->cappm2, sizeof *L->pm);
    vm_method *m = vm_arena_alloc(L->a, sizeof *m);
    pmethod *pm = &L->pm[p->nmethods];
    p->methods[p->nmethods] = m;
    m->index = p->nmethods;
    NAME_DECLARATION(L, src, c->ln->no, m, name);
    m->flags = (native ? VM_METHOD_NATIVE : 0) | ((attrs & ATTR_INTRINSIC) ? VM_METHOD_INTRINSIC : 0) |
               ((attrs & (ATTR_VIRTUAL | ATTR_ABSTRACT)) ? VM_METHOD_VIRTUAL : 0) |
               ((attrs & ATTR_ABSTRACT) ? VM_METHOD_ABSTRACT : 0);
    m->vslot = -1;
    pm->m = m;
    pm->src = src;
    sym_add(L, src, name, SYM_METHOD, p->nmethods, c->ln->no);
    p->nmethods++;

    /* (name: type, ...) [-> type] */
    cur_punct(c, '(');
    uint32_t cap = 0, capn = 0;
    strmap names = {0};
    if (!cur_accept(c, ')')) {
        for (;;) {
            const tok *pn = cur_ident(c, "a parameter name");
            uint32_t dummy;
            if (memchr(pn->s, '.', pn->len))
                ld_fail(L, src, c->ln->no, "malformed parameter name '%s'", tok_text(L, pn));
            if (strmap_get(&names, pn->s, pn->len, &dummy))
                ld_fail(L, src, c->ln->no, "duplicate parameter '%s'", tok_text(L, pn));
            strmap_put(L->a, &names, pn->s, pn->len, 0);
            decl_check_reg_name(L, src, c->ln->no, pn, m->nparams);
            cur_punct(c, ':');
            if (m->nparams >= VM_MAX_REGS)
                ld_fail(L, src, c->ln->no, "too many parameters (at most %d)", VM_MAX_REGS);
            pm->ptypes = vm_arena_grow(L->a, pm->ptypes, m->nparams, &cap, sizeof *pm->ptypes);
            m->regnames = vm_arena_grow(L->a, m->regnames, m->nparams, &capn, sizeof *m->regnames);
            pm->ptypes[m->nparams] = cur_type(c);
            m->regnames[m->nparams] = tok_dup(L, pn);
            m->nparams++;
            if (cur_accept(c, ')'))
                break;
            cur_punct(c, ',');
        }
    }
    if (cur_more(c)) {
        const tok *t = cur_next(c, "'->'");
        if (t->kind != TK_ARROW)
            ld_fail(L, src, c->ln->no, "expected '->' or end of line, got '%s'", tok_text(L, t));
        pm->ret = cur_type(c);
        pm->has_ret = 1;
    }
    cur_end(c);
    if (native || (attrs & ATTR_ABSTRACT))
        return;
    /* the body runs to a line that is just "end" */
    pm->first = *li + 1;
    for (;;) {
        (*li)++;
        if (*li >= src->nlines)
            ld_fail(L, src, m->line, "method '%s' has no 'end'", m->name);
        const line *ln = &src->lines[*li];
        if ((tok_is(&ln->t[0], "method") || tok_is(&ln->t[0], "record") || tok_is(&ln->t[0], "virtual") ||
             tok_is(&ln->t[0], "abstract")) &&
            line_starts_declaration(ln))
            ld_fail(L, src, m->line, "method '%s' has no 'end' before line %u", m->name, ln->no);
        if (ln->ntok == 1 && tok_is(&ln->t[0], "end"))
            break;
        if (ln->ntok >= 2 && tok_is(&ln->t[0], "end") && !tok_punct(&ln->t[1], ':'))
            ld_fail(L, src, ln->no, "unexpected '%s' after 'end'", tok_text(L, &ln->t[1]));
    }
    pm->last = *li;
}
#undef NAME_DECLARATION

/* The module line: the name the file declares (the program's is read here). */
static void parse_module_line(loader *L, msrc *src)
{
    const char *expect = src->expect;
    if (src->nlines == 0)
        ld_fail(L, src, 1, "empty module: expected 'module %s'", expect ? expect : "Name");
    cursor c = {L, src, &src->lines[0], 0};
    if (!tok_is(cur_ident(&c, "'module'"), "module"))
        ld_fail(L, src, c.ln->no, "a module starts with 'module Name'");
    const tok *name = cur_ident(&c, "a module name");
    cur_end(&c);
    if (memchr(name->s, '.', name->len))
        ld_fail(L, src, c.ln->no, "malformed module name '%s'", tok_text(L, name));
    if (tok_is_reserved(name))
        ld_fail(L, src, c.ln->no, "'%s' is a reserved word: it cannot name a module", tok_text(L, name));
    if (expect && !tok_is(name, expect))
        ld_fail(L, src, c.ln->no, "file declares module '%s', expected '%s'", tok_text(L, name), expect);
    if (!expect) {
        /* the main program: its name was not known before reading it */
        if (tok_is(name, "Sys"))
            ld_fail(L, src, c.ln->no, "module name '%s' is taken by a built-in module", tok_text(L, name));
        src->mod->name = tok_dup(L, name);
        strmap_put(L->a, &L->modmap, name->s, name->len, src->index);
    }
}

msrc *decl_parse_module(loader *L, msrc *src)
{
    if (src->next == 0) {
        parse_module_line(L, src);
        src->next = 1;
    }
    cursor c;
    /* an attribute is never pending at an import (it must precede a method): parsing resumes without one */
    unsigned attrs = 0;
    uint32_t attr_line = 0;
    for (uint32_t li = src->next; li < src->nlines; li++) {
        c = (cursor){L, src, &src->lines[li], 0};
        const tok *kw = cur_next(&c, "a declaration");
        if (attrs && !tok_is(kw, "method") && !tok_is(kw, "native") && !tok_is(kw, "virtual") &&
            !tok_is(kw, "abstract") && !tok_punct(kw, '@'))
            ld_fail(L, src, attr_line, "attribute '@IntrinsicCandidate' must precede a method");
        if (tok_punct(kw, '@')) {
            const tok *an = cur_ident(&c, "an attribute name");
            if (!tok_is(an, "IntrinsicCandidate"))
                ld_fail(L, src, c.ln->no, "unknown attribute '@%s'", tok_text(L, an));
            if (cur_more(&c) && tok_punct(cur_peek(&c), '('))
                ld_fail(L, src, c.ln->no, "attribute '@IntrinsicCandidate' takes no arguments");
            if (cur_more(&c))
                ld_fail(L, src, c.ln->no, "unexpected '%s' after '@IntrinsicCandidate' (an attribute is on a line of "
                        "its own, before the method)", tok_text(L, cur_peek(&c)));
            if (attrs & ATTR_INTRINSIC)
                ld_fail(L, src, c.ln->no, "duplicate attribute '@IntrinsicCandidate'");
            attrs |= ATTR_INTRINSIC;
            attr_line = c.ln->no;
        } else if (tok_is(kw, "import")) {
            const tok *in = cur_ident(&c, "a module name");
            cur_end(&c);
            uint32_t dummy;
            if (memchr(in->s, '.', in->len))
                ld_fail(L, src, c.ln->no, "malformed module name '%s'", tok_text(L, in));
            if (tok_is_reserved(in))
                ld_fail(L, src, c.ln->no, "'%s' is a reserved word: it cannot name a module", tok_text(L, in));
            if (strmap_get(&src->imports, in->s, in->len, &dummy))
                ld_fail(L, src, c.ln->no, "duplicate import of '%s'", tok_text(L, in));
            if (tok_is(in, src->mod->name))
                ld_fail(L, src, c.ln->no, "module '%s' imports itself", src->mod->name);
            msrc *dep = mod_load(L, in->s, in->len, src, c.ln->no);
            strmap_put(L->a, &src->imports, in->s, in->len, dep->index);
            if (dep->state == MOD_LEXED) {
                /* what follows may name dep's declarations: read dep first, then resume after this line */
                src->next = li + 1;
                return dep;
            }
        } else if (tok_is(kw, "const")) {
            const tok *cn = cur_ident(&c, "a constant name");
            cur_punct(&c, '=');
            int64_t v = const_value(L, src, cur_next(&c, "a value"), c.ln->no);
            cur_end(&c);
            uint32_t si = sym_add(L, src, cn, SYM_CONST, 0, c.ln->no);
            L->syms[si].value = v;
        } else if (tok_is(kw, "static")) {
            parse_static(L, src, &c, &li);
        } else if (tok_is(kw, "record")) {
            parse_record(L, src, &c, &li);
        } else if (tok_is(kw, "method")) {
            parse_method(L, src, &c, &li, attrs, 0);
            attrs = 0;
        } else if (tok_is(kw, "virtual") || tok_is(kw, "abstract")) {
            int abstract = tok_is(kw, "abstract");
            if (!tok_is(cur_ident(&c, "'method'"), "method"))
                ld_fail(L, src, c.ln->no, "expected '%s method'", abstract ? "abstract" : "virtual");
            if (abstract && attrs)
                ld_fail(L, src, attr_line, "attribute '@IntrinsicCandidate' cannot be applied to an abstract method");
            parse_method(L, src, &c, &li, attrs | (abstract ? ATTR_ABSTRACT : ATTR_VIRTUAL), 0);
            attrs = 0;
            const line *after = li + 1 < src->nlines ? &src->lines[li + 1] : NULL;
            if (abstract && after && !line_starts_declaration(after) && !tok_is(&after->t[0], "module"))
                ld_fail(L, src, c.ln->no,
                        "abstract method '%s' has no body, but line %u ('%s') follows it as one (an abstract method "
                        "is its declaration line alone, without 'end')",
                        L->p->methods[L->p->nmethods - 1]->name, after->no, tok_text(L, &after->t[0]));
        } else if (tok_is(kw, "native")) {
            if (!tok_is(cur_ident(&c, "'method'"), "method"))
                ld_fail(L, src, c.ln->no, "expected 'native method'");
            if (attrs)
                ld_fail(L, src, attr_line, "attribute '@IntrinsicCandidate' cannot be applied to a native method");
            parse_method(L, src, &c, &li, 0, 1);
        } else if (tok_is(kw, "module")) {
            ld_fail(L, src, c.ln->no, "one module per file ('module' may appear only on the first line)");
        } else {
            ld_fail(L, src, c.ln->no,
                    "expected a declaration (import, const, static, record, method, virtual method, abstract method), "
                    "got '%s'",
                    tok_text(L, kw));
        }
    }
    if (attrs)
        ld_fail(L, src, attr_line, "attribute '@IntrinsicCandidate' must precede a method");
    src->next = src->nlines;
    return NULL;
}

/* ---- resolving ---------------------------------------------------------------------------- */

/* m's receiver record (its first parameter's), or UINT32_MAX (every record index, 65535 included, is
   below it: VM_NO_RECORD would name the last record of a full pool) */
static uint32_t receiver_record(const vm_method *m)
{
    return m->nparams && m->regtypes[0].kind == VM_T_RECORD ? m->regtypes[0].rec : UINT32_MAX;
}

/* Do m and over take the same arguments after the receiver and return the same type? */
static int same_signature(const vm_method *m, const vm_method *over)
{
    if (m->nparams != over->nparams || m->ret.kind != over->ret.kind || m->ret.rec != over->ret.rec)
        return 0;
    for (uint32_t a = 1; a < m->nparams; a++)
        if (m->regtypes[a].kind != over->regtypes[a].kind || m->regtypes[a].rec != over->regtypes[a].rec)
            return 0;
    return 1;
}

/*
 * Virtual methods (Java's, with the receiver written out): a "virtual" or
 * "abstract" method whose first parameter is record R, declared in R's module,
 * takes a new slot in R's vtable; a method of the same name whose first
 * parameter is a record extending R, declared in that record's module,
 * overrides it there (and in the records extending that one). An override has
 * the overridden method's signature after the receiver: anything else is an
 * error, not an overload. callvirt runs vtable[slot] of the receiver's record.
 */
static void build_vtables(loader *L)
{
    vm_program *p = L->p;
    /* the methods of each record's module whose receiver it is, in declaration order (a counting
       sort, so the loader stays linear however many records and methods there are) */
    uint32_t *first = vm_arena_alloc(L->a, (p->nrecords + 1) * sizeof *first);
    uint32_t *order = vm_arena_alloc(L->a, (p->nmethods + 1) * sizeof *order);
    for (uint32_t i = 0; i < p->nmethods; i++) {
        uint32_t r = receiver_record(p->methods[i]);
        if (r != UINT32_MAX && p->methods[i]->module == p->records[r].module)
            first[r + 1]++;
    }
    for (uint32_t r = 0; r < p->nrecords; r++)
        first[r + 1] += first[r];
    uint32_t *fill = vm_arena_alloc(L->a, (p->nrecords + 1) * sizeof *fill);
    memcpy(fill, first, (p->nrecords + 1) * sizeof *fill);
    for (uint32_t i = 0; i < p->nmethods; i++) {
        uint32_t r = receiver_record(p->methods[i]);
        if (r != UINT32_MAX && p->methods[i]->module == p->records[r].module)
            order[fill[r]++] = i;
    }
    for (uint32_t r = 0; r < p->nrecords; r++) {
        vm_record *rec = &p->records[r];
        const vm_record *sr = rec->super != VM_NO_RECORD ? &p->records[rec->super] : NULL;
        uint32_t n = sr ? sr->nvirtual : 0, cap = 0;
        const vm_method **vt = NULL;
        for (uint32_t s = 0; s < n; s++) {
            vt = vm_arena_grow(L->a, vt, s, &cap, sizeof *vt);
            vt[s] = sr->vtable[s];
        }
        for (uint32_t k = first[r]; k < first[r + 1]; k++) {
            uint32_t i = order[k];
            vm_method *m = p->methods[i];
            uint32_t s = 0;
            while (s < n && strcmp(vt[s]->name, m->name) != 0)
                s++;
            if (s == n && !(m->flags & VM_METHOD_VIRTUAL))
                continue; /* a plain method of the record */
            if (s < n) {
                if (!same_signature(m, vt[s]))
                    ld_fail(L, L->pm[i].src, m->line,
                            "%s overrides %s but their signatures differ (after the receiver)", m->qname, vt[s]->qname);
            } else {
                if (n >= UINT16_MAX)
                    ld_fail(L, L->pm[i].src, m->line, "too many virtual methods in %s", rec->qname);
                vt = vm_arena_grow(L->a, vt, n, &cap, sizeof *vt);
                n++;
            }
            vt[s] = m;
            m->vslot = (int32_t)s;
        }
        rec->vtable = vt;
        rec->nvirtual = (uint16_t)n;
    }
    for (uint32_t i = 0; i < p->nmethods; i++) {
        vm_method *m = p->methods[i];
        if ((m->flags & VM_METHOD_VIRTUAL) && m->vslot < 0)
            ld_fail(L, L->pm[i].src, m->line,
                    "virtual method %s must take a record declared in module %s as its first parameter", m->qname,
                    m->module->name);
    }
}

void decl_resolve(loader *L)
{
    vm_program *p = L->p;
    /* records are in declaration order, so a super record's types are resolved before its extensions' */
    for (uint32_t r = 0; r < p->nrecords; r++) {
        vm_record *rec = &p->records[r];
        uint16_t inh = L->pr[r].ninherited;
        for (uint32_t f = 0; f < inh; f++)
            rec->fields[f].type = p->records[rec->super].fields[f].type;
        for (uint32_t f = inh; f < rec->nfields; f++)
            rec->fields[f].type = decl_type(L, L->pr[r].src, &L->pr[r].ftypes[f - inh], 0, 0);
    }
    for (uint32_t s = 0; s < p->nstatics; s++) {
        vm_static *st = &p->statics[s];
        pstatic *ps = &L->ps[s];
        st->type = decl_type(L, ps->src, &ps->type, 0, 0);
        if (ps->init_kind == 1 && !vm_type_is_int(st->type))
            ld_fail(L, ps->src, st->line, "static '%s' of type %s cannot have an integer initial value", st->name,
                    vm_type_name(p, st->type, (char[64]){0}, 64));
        if (ps->init_kind == 3 && st->type.kind != VM_T_BYTES)
            ld_fail(L, ps->src, st->line, "a string initialises a byte[] static only");
        if (ps->init_kind == 2) {
            if (!vm_type_is_array(st->type))
                ld_fail(L, ps->src, st->line, "an array literal initialises an array static only");
            for (uint32_t i = 0; i < st->init_count; i++) {
                int64_t v = st->init_elems[i];
                if (st->type.kind == VM_T_BYTES && (v < -128 || v > 255))
                    ld_fail(L, ps->src, st->line, "element %u (%" PRId64 ") does not fit in a byte", i, v);
                if (st->type.kind == VM_T_INTS && (v < INT32_MIN || v > (int64_t)UINT32_MAX))
                    ld_fail(L, ps->src, st->line, "element %u (%" PRId64 ") does not fit in an int", i, v);
            }
        }
        if (ps->init_kind == 3)
            st->has_array_init = 1;
    }
    for (uint32_t i = 0; i < p->nmethods; i++) {
        pmethod *pm = &L->pm[i];
        vm_method *m = pm->m;
        int native = (m->flags & VM_METHOD_NATIVE) != 0;
        m->regtypes = vm_arena_alloc(L->a, (m->nparams + 1) * sizeof *m->regtypes);
        for (uint32_t a = 0; a < m->nparams; a++)
            m->regtypes[a] = decl_type(L, pm->src, &pm->ptypes[a], 0, native);
        m->ret = pm->has_ret ? decl_type(L, pm->src, &pm->ret, 1, 0) : (vm_type){VM_T_VOID, 0};
        m->nregs = m->nparams;
        if (native) {
            m->native = vm_native_lookup(m->module->name, m->module->builtin, m->name);
            if (!m->native)
                ld_fail(L, pm->src, m->line, "no native implementation of '%s'", m->qname);
        }
    }
    build_vtables(L);
}
