/*
 * vm/loader.c — the .mva text assembler and program loader.
 *
 * Loading happens in four steps, each over the whole program:
 *   1. parse: every module file (the program and, recursively, its imports)
 *      is split into tokenised lines; declarations (records, statics,
 *      constants, method headers) are collected; method bodies are kept as
 *      line ranges;
 *   2. resolve: type names in fields, statics and signatures become vm_types;
 *   3. assemble: each method body becomes instruction words (two passes:
 *      registers and labels, then encoding);
 *   4. verify: every method goes through vm_verify_method.
 * The first error stops loading with "file:line: message". All memory
 * belongs to the program's arena, so an error frees everything at once.
 *
 * The text format is documented in docs/format.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "message.h"
#include "textfile.h"
#include "vm.h"

/* ---- tokens and lines ------------------------------------------------------- */
typedef enum { TK_IDENT, TK_NUM, TK_STR, TK_PUNCT, TK_ARROW } tkind;

typedef struct tok {
    uint8_t kind;
    char punct;
    uint32_t len;
    const char *s;   /* identifier text, or decoded string bytes */
    int64_t num;
} tok;

typedef struct line {
    uint32_t no;
    uint32_t ntok;
    tok *t;
} line;

/* ---- a small string -> index map ------------------------------------------- */
typedef struct strmap_entry {
    const char *k;
    uint32_t klen;
    uint32_t v;
} strmap_entry;

typedef struct strmap {
    uint32_t cap, n; /* cap is a power of two (or 0) */
    strmap_entry *e;
} strmap;

static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

static int map_get(const strmap *m, const char *k, size_t n, uint32_t *v)
{
    if (!m->cap)
        return 0;
    for (uint32_t i = hash_bytes(k, n) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        const strmap_entry *e = &m->e[i];
        if (!e->k)
            return 0;
        if (e->klen == n && memcmp(e->k, k, n) == 0) {
            *v = e->v;
            return 1;
        }
    }
}

static void map_put(vm_arena *a, strmap *m, const char *k, size_t n, uint32_t v)
{
    if ((m->n + 1) * 2 > m->cap) {
        strmap old = *m;
        m->cap = old.cap ? old.cap * 2 : 16;
        m->n = 0;
        m->e = vm_arena_alloc(a, m->cap * sizeof *m->e);
        for (uint32_t i = 0; i < old.cap; i++)
            if (old.e[i].k)
                map_put(a, m, old.e[i].k, old.e[i].klen, old.e[i].v);
    }
    uint32_t i = hash_bytes(k, n) & (m->cap - 1);
    while (m->e[i].k)
        i = (i + 1) & (m->cap - 1);
    m->e[i].k = k;
    m->e[i].klen = (uint32_t)n;
    m->e[i].v = v;
    m->n++;
}

/* ---- loader state --------------------------------------------------------------- */
typedef struct ptype {   /* a type as written, resolved after parsing */
    const tok *name;
    int array;
    uint32_t line;
} ptype;

typedef struct msrc {    /* one module's source */
    vm_module *mod;
    uint32_t index;      /* in loader.srcs (and the program's modules) */
    int builtin;         /* Sys or vm/lib/: its imports name built-in modules only */
    line *lines;
    uint32_t nlines;
    const char *dir;     /* directory for imports; NULL for built-in text */
    strmap syms;         /* name -> index into loader.syms */
    strmap imports;      /* module name -> index into loader.srcs */
} msrc;

typedef enum { SYM_METHOD, SYM_RECORD, SYM_STATIC, SYM_CONST } symkind;
static const char *const symkind_name[] = {"method", "record", "static", "constant"};

typedef struct sym {
    symkind kind;
    uint32_t index;      /* into methods, records or statics; constants: value */
    int64_t value;
    uint32_t line;
} sym;

typedef struct pmethod {
    vm_method *m;
    msrc *src;
    uint32_t first, last; /* body lines [first, last) */
    ptype *ptypes;
    ptype ret;
    int has_ret;
} pmethod;

typedef struct precord {
    msrc *src;
    ptype *ftypes;       /* its own fields' (after the inherited ones) */
    uint16_t ninherited; /* fields copied from the super record */
} precord;

typedef struct pstatic {
    msrc *src;
    ptype type;
    int init_kind;       /* 0 none, 1 integer, 2 array literal, 3 string */
} pstatic;

typedef struct loader {
    vm_arena *a;
    vm_program *p;
    const char *path;    /* the program's, for the out-of-memory message */
    char *err;
    size_t errlen;
    jmp_buf jb;
    msrc **srcs;
    uint32_t nsrcs, capsrcs;
    /*
     * Two module namespaces: the built-in library binds to its own modules,
     * whatever the program's are called (a program with its own Arrays.mva,
     * or a program module named Arrays, does not change what SHA3 imports).
     * modmap: what the program's modules import (theirs, then built-ins);
     * libmap: the built-in modules loaded so far. Values index srcs.
     */
    strmap modmap, libmap;
    sym *syms;
    uint32_t nsyms, capsyms;
    pmethod *pm;
    precord *pr;
    pstatic *ps;
    uint32_t capmethods, caprecords, capstatics, capk, capstr;
    uint32_t builtin_methods, builtin_records, builtin_statics; /* declared by built-in modules */
    uint32_t cappm2, cappr, capps;
    strmap kmap, strmapping;
} loader;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static _Noreturn void fail(loader *L, const msrc *src, uint32_t lineno, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (src)
        vm_message_at(L->err, L->errlen, src->mod->path, lineno, fmt, ap);
    else
        vsnprintf(L->err, L->errlen, fmt, ap);
    va_end(ap);
    longjmp(L->jb, 1);
}

/* The arena's handler: memory ran out while loading (any step), an error like any other. */
static void loader_out_of_memory(void *ctx, size_t bytes)
{
    loader *L = ctx;
    if (bytes == SIZE_MAX)
        snprintf(L->err, L->errlen, "out of memory loading %s", L->path);
    else
        snprintf(L->err, L->errlen, "out of memory loading %s (%zu more bytes)", L->path, bytes);
    longjmp(L->jb, 1);
}

/*
 * A program-wide pool (16-bit operand) is full. The limit counts what the
 * built-in modules declare too (Sys's natives, vm/lib/), so the message says
 * how much of it they take; builtin is UINT32_MAX where that is not counted
 * (constants and strings are shared between modules).
 */
static _Noreturn void pool_full(loader *L, const msrc *src, uint32_t lineno, const char *what, uint32_t builtin)
{
    if (builtin == UINT32_MAX)
        fail(L, src, lineno, "too many %s (at most %d in a program, the built-in modules' included)", what,
             VM_MAX_POOL);
    fail(L, src, lineno, "too many %s (at most %d in a program, the %u of built-in modules included)", what,
         VM_MAX_POOL, builtin);
}

/* Print a token for messages, bounded and with non-printables escaped. */
static const char *tokstr(loader *L, const tok *t)
{
    char buf[80];
    size_t o = 0;
    const char *s = t->s;
    size_t n = t->len;
    if (t->kind == TK_NUM)
        return vm_arena_printf(L->a, "%" PRId64, t->num);
    if (t->kind == TK_PUNCT)
        return vm_arena_printf(L->a, "%c", t->punct);
    if (t->kind == TK_ARROW)
        return "->";
    if (t->kind == TK_STR)
        buf[o++] = '"';
    for (size_t i = 0; i < n && o < sizeof buf - 8; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            buf[o++] = (char)c;
        else
            o += (size_t)snprintf(buf + o, sizeof buf - o, "\\x%02x", c);
    }
    if (n > 0 && o >= sizeof buf - 8)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "...");
    if (t->kind == TK_STR)
        buf[o++] = '"';
    return vm_arena_strndup(L->a, buf, o);
}

static int tok_is(const tok *t, const char *s)
{
    return t->kind == TK_IDENT && t->len == strlen(s) && memcmp(t->s, s, t->len) == 0;
}

static int tok_punct(const tok *t, char c) { return t->kind == TK_PUNCT && t->punct == c; }

static const char *tok_dup(loader *L, const tok *t) { return vm_arena_strndup(L->a, t->s, t->len); }

/* ---- lexer ------------------------------------------------------------------------- */
static int is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
static int is_ident_char(int c) { return is_ident_start(c) || (c >= '0' && c <= '9') || c == '.'; }
static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void lex_number(loader *L, const msrc *src, uint32_t no, const char *s, size_t n, size_t *pi, tok *t)
{
    size_t i = *pi;
    int neg = 0;
    if (s[i] == '-') {
        neg = 1;
        i++;
    }
    uint64_t v = 0;
    int overflow = 0;
    size_t start = i;
    if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        start = i;
        while (i < n && hexval((unsigned char)s[i]) >= 0) {
            if (v >> 60)
                overflow = 1;
            v = (v << 4) | (uint64_t)hexval((unsigned char)s[i]);
            i++;
        }
        if (i == start)
            fail(L, src, no, "malformed hexadecimal literal");
        /* hex literals are bit patterns: 0xffffffffffffffff is -1 */
        t->num = neg ? (int64_t)(0 - v) : (int64_t)v;
    } else {
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            uint64_t d = (uint64_t)(s[i] - '0');
            if (v > (UINT64_MAX - d) / 10)
                overflow = 1;
            else
                v = v * 10 + d;
            i++;
        }
        if (i == start)
            fail(L, src, no, "malformed number");
        if (v > (uint64_t)INT64_MAX + (uint64_t)neg)
            overflow = 1;
        t->num = neg ? (int64_t)(0 - v) : (int64_t)v;
    }
    if (i < n && is_ident_char((unsigned char)s[i]))
        fail(L, src, no, "malformed number");
    if (overflow)
        fail(L, src, no, "integer literal out of range");
    t->kind = TK_NUM;
    t->s = s + *pi;
    t->len = (uint32_t)(i - *pi);
    *pi = i;
}

static void lex_string(loader *L, const msrc *src, uint32_t no, const char *s, size_t n, size_t *pi, tok *t)
{
    size_t i = *pi + 1;
    char *out = vm_arena_alloc(L->a, n - *pi + 1);
    size_t o = 0;
    for (;;) {
        if (i >= n)
            fail(L, src, no, "unterminated string literal");
        char c = s[i++];
        if (c == '"')
            break;
        if (c != '\\') {
            out[o++] = c;
            continue;
        }
        if (i >= n)
            fail(L, src, no, "unterminated string literal");
        c = s[i++];
        switch (c) {
        case 'n': out[o++] = '\n'; break;
        case 't': out[o++] = '\t'; break;
        case 'r': out[o++] = '\r'; break;
        case '0': out[o++] = '\0'; break;
        case '\\': out[o++] = '\\'; break;
        case '"': out[o++] = '"'; break;
        case 'x': {
            int h = i < n ? hexval((unsigned char)s[i]) : -1;
            int l = i + 1 < n ? hexval((unsigned char)s[i + 1]) : -1;
            if (h < 0 || l < 0)
                fail(L, src, no, "malformed \\x escape (two hex digits expected)");
            out[o++] = (char)(h * 16 + l);
            i += 2;
            break;
        }
        default:
            fail(L, src, no, "unknown escape sequence in string literal");
        }
    }
    t->kind = TK_STR;
    t->s = out;
    t->len = (uint32_t)o;
    *pi = i;
}

static void lex_line(loader *L, msrc *src, const char *s, size_t n, line *ln)
{
    uint32_t cap = 0;
    ln->t = NULL;
    ln->ntok = 0;
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == ';')
            break;
        ln->t = vm_arena_grow(L->a, ln->t, ln->ntok, &cap, sizeof *ln->t);
        tok *t = &ln->t[ln->ntok++];
        if (is_ident_start(c)) {
            size_t st = i;
            while (i < n && is_ident_char((unsigned char)s[i]))
                i++;
            t->kind = TK_IDENT;
            t->s = s + st;
            t->len = (uint32_t)(i - st);
            if (s[i - 1] == '.' || memchr(t->s, '.', t->len) == t->s)
                fail(L, src, ln->no, "malformed name '%s'", tokstr(L, t));
        } else if ((c >= '0' && c <= '9') || (c == '-' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
            lex_number(L, src, ln->no, s, n, &i, t);
        } else if (c == '"') {
            lex_string(L, src, ln->no, s, n, &i, t);
        } else if (c == '-' && i + 1 < n && s[i + 1] == '>') {
            t->kind = TK_ARROW;
            t->s = s + i;
            t->len = 2;
            i += 2;
        } else if (strchr(",:(){}=@[]", c) && c) {
            t->kind = TK_PUNCT;
            t->punct = (char)c;
            t->s = s + i;
            t->len = 1;
            i++;
        } else if (c >= 0x20 && c < 0x7f) {
            fail(L, src, ln->no, "unexpected character '%c'", c);
        } else {
            fail(L, src, ln->no, "unexpected byte 0x%02x", c);
        }
    }
}

static void lex_source(loader *L, msrc *src, const char *text, size_t len)
{
    uint32_t cap = 0, no = 0;
    size_t i = 0;
    while (i < len) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        no++;
        line ln = {.no = no};
        lex_line(L, src, text + i, e - i, &ln);
        if (ln.ntok) {
            src->lines = vm_arena_grow(L->a, src->lines, src->nlines, &cap, sizeof *src->lines);
            src->lines[src->nlines++] = ln;
        }
        i = e + 1;
    }
}

/* ---- line cursor ---------------------------------------------------------------------- */
typedef struct cursor {
    loader *L;
    msrc *src;
    const line *ln;
    uint32_t i;
} cursor;

static int cur_more(const cursor *c) { return c->i < c->ln->ntok; }

static const tok *cur_peek(const cursor *c) { return cur_more(c) ? &c->ln->t[c->i] : NULL; }

static const tok *cur_next(cursor *c, const char *what)
{
    if (!cur_more(c))
        fail(c->L, c->src, c->ln->no, "expected %s at end of line", what);
    return &c->ln->t[c->i++];
}

static const tok *cur_ident(cursor *c, const char *what)
{
    const tok *t = cur_next(c, what);
    if (t->kind != TK_IDENT)
        fail(c->L, c->src, c->ln->no, "expected %s, got '%s'", what, tokstr(c->L, t));
    return t;
}

static void cur_punct(cursor *c, char p)
{
    char what[4] = {'\'', p, '\'', 0};
    const tok *t = cur_next(c, what);
    if (!tok_punct(t, p))
        fail(c->L, c->src, c->ln->no, "expected '%c', got '%s'", p, tokstr(c->L, t));
}

static int cur_accept(cursor *c, char p)
{
    if (cur_more(c) && tok_punct(cur_peek(c), p)) {
        c->i++;
        return 1;
    }
    return 0;
}

static void cur_end(cursor *c)
{
    if (cur_more(c))
        fail(c->L, c->src, c->ln->no, "unexpected '%s' at end of line", tokstr(c->L, cur_peek(c)));
}

static ptype cur_type(cursor *c)
{
    ptype t = {.line = c->ln->no};
    t.name = cur_ident(c, "a type");
    if (cur_accept(c, '[')) {
        cur_punct(c, ']');
        t.array = 1;
    }
    return t;
}

/* ---- symbols -------------------------------------------------------------------------- */
static uint32_t add_sym(loader *L, msrc *src, const tok *name, symkind kind, uint32_t index, uint32_t lineno)
{
    uint32_t prev;
    if (memchr(name->s, '.', name->len))
        fail(L, src, lineno, "a %s name cannot be qualified: '%s'", symkind_name[kind], tokstr(L, name));
    if (map_get(&src->syms, name->s, name->len, &prev))
        fail(L, src, lineno, "duplicate definition of '%s' (first defined at line %u)", tokstr(L, name),
             L->syms[prev].line);
    L->syms = vm_arena_grow(L->a, L->syms, L->nsyms, &L->capsyms, sizeof *L->syms);
    L->syms[L->nsyms] = (sym){.kind = kind, .index = index, .line = lineno};
    map_put(L->a, &src->syms, name->s, name->len, L->nsyms);
    return L->nsyms++;
}

/*
 * Resolve "name" (in src's module) or "Module.name" (Module imported by src,
 * or src itself, or Sys) to a symbol of the wanted kind.
 */
static const sym *lookup_sym(loader *L, msrc *src, const tok *t, symkind want, uint32_t lineno, int must)
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
        if (!own && !sys && !map_get(&src->imports, t->s, mlen, &mi)) {
            if (!must)
                return NULL;
            fail(L, src, lineno, "unknown module '%s' in '%s' (not imported)", vm_arena_strndup(L->a, t->s, mlen),
                 tokstr(L, t));
        }
        if (!own)
            in = sys ? L->srcs[0] : L->srcs[mi]; /* Sys is always module 0 */
        name = dot + 1;
        nlen = t->len - mlen - 1;
    }
    uint32_t si;
    if (!map_get(&in->syms, name, nlen, &si)) {
        if (!must)
            return NULL;
        fail(L, src, lineno, "unknown %s '%s'", symkind_name[want], tokstr(L, t));
    }
    const sym *s = &L->syms[si];
    if (s->kind != want) {
        if (!must)
            return NULL;
        fail(L, src, lineno, "'%s' is a %s, not a %s", tokstr(L, t), symkind_name[s->kind], symkind_name[want]);
    }
    return s;
}

static vm_type resolve_type(loader *L, msrc *src, const ptype *pt, int allow_void, int allow_object)
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
            fail(L, src, pt->line, "type '%s%s' is not allowed here", tokstr(L, pt->name), pt->array ? "[]" : "");
        if (k == VM_T_OBJECT && !allow_object)
            fail(L, src, pt->line, "type 'Object' is allowed only in native method signatures");
        return (vm_type){.kind = (uint16_t)k};
    }
    const sym *s = lookup_sym(L, src, pt->name, SYM_RECORD, pt->line, 1);
    if (pt->array)
        fail(L, src, pt->line, "arrays of records are not supported ('%s[]')", tokstr(L, pt->name));
    return (vm_type){.kind = VM_T_RECORD, .rec = (uint16_t)s->index};
}

/* ---- modules ------------------------------------------------------------------------- */
static msrc *load_module(loader *L, const char *name, size_t nlen, msrc *from, uint32_t lineno);

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

/* A program or module file, at most VM_MAX_SOURCE_BYTES (EFBIG past it). */
static char *read_file(const char *path, size_t *len, int *err)
{
    return textfile_read(path, VM_MAX_SOURCE_BYTES, len, err);
}

/* The reason for a failed read_file, for messages. */
static const char *read_error(int err, char *buf, size_t len)
{
    if (err != EFBIG)
        return strerror(err);
    char size[32];
    snprintf(buf, len, "larger than %s, the limit for a source file",
             textfile_size_text(VM_MAX_SOURCE_BYTES, size, sizeof size));
    return buf;
}

static void parse_module(loader *L, msrc *src, const char *expect);

static msrc *new_src(loader *L, const char *name, size_t nlen, const char *path, const char *dir, const char *text,
                     size_t len)
{
    msrc *src = vm_arena_alloc(L->a, sizeof *src);
    vm_module *mod = vm_arena_alloc(L->a, sizeof *mod);
    mod->name = vm_arena_strndup(L->a, name, nlen);
    mod->path = vm_arena_printf(L->a, "%s", path);
    mod->file = base_name(mod->path);
    src->mod = mod;
    src->dir = dir;
    if (L->nsrcs >= VM_MAX_POOL)
        fail(L, NULL, 0, "too many modules");
    L->srcs = vm_arena_grow(L->a, L->srcs, L->nsrcs, &L->capsrcs, sizeof *L->srcs);
    src->index = L->nsrcs;
    L->srcs[L->nsrcs++] = src;
    lex_source(L, src, text, len);
    return src;
}

/* A built-in module, loaded once (NULL: there is none of that name). */
static msrc *load_builtin(loader *L, const char *name, size_t nlen)
{
    uint32_t mi;
    if (map_get(&L->libmap, name, nlen, &mi))
        return L->srcs[mi];
    char *nm = vm_arena_strndup(L->a, name, nlen);
    size_t len;
    const char *text = vm_builtin_source(nm, &len);
    if (!text)
        return NULL;
    msrc *src = new_src(L, name, nlen, vm_arena_printf(L->a, "<builtin>/%s.mva", nm), NULL, text, len);
    src->builtin = 1;
    map_put(L->a, &L->libmap, src->mod->name, nlen, src->index);
    parse_module(L, src, nm);
    return src;
}

static msrc *load_module(loader *L, const char *name, size_t nlen, msrc *from, uint32_t lineno)
{
    uint32_t mi;
    char *nm = vm_arena_strndup(L->a, name, nlen);
    if (from && from->builtin) {
        msrc *lib = load_builtin(L, name, nlen);
        if (!lib)
            fail(L, from, lineno, "cannot find module '%s' in the built-in library", nm);
        return lib;
    }
    if (map_get(&L->modmap, name, nlen, &mi))
        return L->srcs[mi];
    if (strcmp(nm, "Sys") != 0 && from && from->dir) {
        char *path = vm_arena_printf(L->a, "%s%s.mva", from->dir, nm);
        size_t len;
        int err;
        char *text = read_file(path, &len, &err);
        if (text) {
            /* the arena keeps a copy: lexed tokens point into it */
            char *kept = vm_arena_strndup(L->a, text, len);
            free(text);
            msrc *src = new_src(L, name, nlen, path, from->dir, kept, len);
            map_put(L->a, &L->modmap, src->mod->name, nlen, src->index);
            parse_module(L, src, nm);
            return src;
        }
        if (err != ENOENT)
            fail(L, from, lineno, "cannot read module '%s' from %s: %s", nm, path,
                 read_error(err, (char[96]){0}, 96));
    }
    msrc *src = load_builtin(L, name, nlen);
    if (!src) {
        if (from && from->dir)
            fail(L, from, lineno, "cannot find module '%s' (looked for %s%s.mva and the built-in library)", nm,
                 from->dir, nm);
        fail(L, from, lineno, "cannot find module '%s' in the built-in library", nm);
    }
    map_put(L->a, &L->modmap, src->mod->name, nlen, src->index);
    return src;
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

static void parse_record(loader *L, msrc *src, cursor *c, uint32_t *li)
{
    const tok *name = cur_ident(c, "a record name");
    const sym *super = NULL;
    if (cur_more(c)) {
        const tok *kw = cur_ident(c, "'extends' or end of line");
        if (!tok_is(kw, "extends"))
            fail(L, src, c->ln->no, "expected 'extends' or end of line, got '%s'", tokstr(L, kw));
        /* the super record is declared before: in an imported module, or above in this one */
        super = lookup_sym(L, src, cur_ident(c, "a record name"), SYM_RECORD, c->ln->no, 1);
    }
    cur_end(c);
    vm_program *p = L->p;
    if (p->nrecords >= VM_MAX_POOL)
        pool_full(L, src, c->ln->no, "records", L->builtin_records);
    L->builtin_records += src->builtin;
    p->records = vm_arena_grow(L->a, p->records, p->nrecords, &L->caprecords, sizeof *p->records);
    L->pr = vm_arena_grow(L->a, L->pr, p->nrecords, &L->cappr, sizeof *L->pr);
    vm_record *r = &p->records[p->nrecords];
    precord *pr = &L->pr[p->nrecords];
    r->name = tok_dup(L, name);
    r->qname = vm_arena_printf(L->a, "%s.%s", src->mod->name, r->name);
    r->module = src->mod;
    r->line = c->ln->no;
    pr->src = src;
    add_sym(L, src, name, SYM_RECORD, p->nrecords, c->ln->no);
    uint32_t capf = 0, capt = 0;
    strmap names = {0};
    r->super = VM_NO_RECORD;
    if (super) {
        /* the super record's fields first, at the same indices (their types are resolved with it) */
        const vm_record *sr = &p->records[super->index];
        if (sr->depth + 1 >= VM_MAX_RECORD_DEPTH)
            fail(L, src, r->line, "record '%s' extends a chain of %d records (at most %d)", r->name, sr->depth + 1,
                 VM_MAX_RECORD_DEPTH - 1);
        r->super = (uint16_t)super->index;
        r->depth = (uint16_t)(sr->depth + 1);
        memcpy(r->supers, sr->supers, sizeof r->supers);
        r->fields = vm_arena_grow(L->a, r->fields, 0, &capf, sizeof *r->fields);
        for (uint16_t f = 0; f < sr->nfields; f++) {
            r->fields = vm_arena_grow(L->a, r->fields, r->nfields, &capf, sizeof *r->fields);
            r->fields[r->nfields++].name = sr->fields[f].name;
            map_put(L->a, &names, sr->fields[f].name, strlen(sr->fields[f].name), 0);
        }
        pr->ninherited = sr->nfields;
    }
    r->supers[r->depth] = (uint16_t)p->nrecords;
    for (;;) {
        (*li)++;
        if (*li >= src->nlines)
            fail(L, src, r->line, "record '%s' has no 'end'", r->name);
        if (line_starts_declaration(&src->lines[*li]))
            fail(L, src, r->line, "record '%s' has no 'end' before line %u", r->name, src->lines[*li].no);
        cursor fc = {L, src, &src->lines[*li], 0};
        const tok *fname = cur_ident(&fc, "a field name or 'end'");
        if (tok_is(fname, "end")) {
            cur_end(&fc);
            break;
        }
        uint32_t prev;
        if (memchr(fname->s, '.', fname->len))
            fail(L, src, fc.ln->no, "malformed field name '%s'", tokstr(L, fname));
        if (map_get(&names, fname->s, fname->len, &prev)) {
            if (prev == 0)
                fail(L, src, fc.ln->no, "field '%s' is %s's already (a record cannot hide an inherited field)",
                     tokstr(L, fname), p->records[r->super].qname);
            fail(L, src, fc.ln->no, "duplicate field '%s' (first defined at line %u)", tokstr(L, fname), prev);
        }
        map_put(L->a, &names, fname->s, fname->len, fc.ln->no);
        cur_punct(&fc, ':');
        ptype ft = cur_type(&fc);
        cur_end(&fc);
        if (r->nfields >= VM_MAX_REGS)
            fail(L, src, fc.ln->no, "too many fields (at most %d)", VM_MAX_REGS);
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
        fail(L, src, lineno, "expected a number or a constant name, got '%s'", tokstr(L, t));
    return lookup_sym(L, src, t, SYM_CONST, lineno, 1)->value;
}

static void parse_static(loader *L, msrc *src, cursor *c, uint32_t *li)
{
    const tok *name = cur_ident(c, "a static name");
    cur_punct(c, ':');
    ptype type = cur_type(c);
    vm_program *p = L->p;
    if (p->nstatics >= VM_MAX_POOL)
        pool_full(L, src, c->ln->no, "statics", L->builtin_statics);
    L->builtin_statics += src->builtin;
    p->statics = vm_arena_grow(L->a, p->statics, p->nstatics, &L->capstatics, sizeof *p->statics);
    L->ps = vm_arena_grow(L->a, L->ps, p->nstatics, &L->capps, sizeof *L->ps);
    vm_static *st = &p->statics[p->nstatics];
    pstatic *ps = &L->ps[p->nstatics];
    st->name = tok_dup(L, name);
    st->qname = vm_arena_printf(L->a, "%s.%s", src->mod->name, st->name);
    st->module = src->mod;
    st->line = c->ln->no;
    ps->src = src;
    ps->type = type;
    add_sym(L, src, name, SYM_STATIC, p->nstatics, c->ln->no);
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
                fail(L, src, st->line, "array literal of '%s' has no '}'", st->name);
            if (line_starts_declaration(&src->lines[*li]))
                fail(L, src, st->line, "array literal of '%s' has no '}' before line %u", st->name,
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
                fail(L, src, c->ln->no, "expected a value before ','");
            need_value = 1;
            continue;
        }
        if (!need_value)
            fail(L, src, c->ln->no, "expected ',' between values");
        st->init_elems = vm_arena_grow(L->a, st->init_elems, st->init_count, &cap, sizeof *st->init_elems);
        st->init_elems[st->init_count++] = const_value(L, src, e, c->ln->no);
        need_value = 0;
    }
}

/*
 * "rN" names register N directly, so a parameter or register may be named
 * rN only when it is register N: anything else would make rN ambiguous.
 */
static void check_reg_name(loader *L, msrc *src, uint32_t lineno, const tok *t, uint32_t index)
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
        fail(L, src, lineno, "'%s' cannot name register r%u: rN always means register N", tokstr(L, t), index);
}

static void parse_method(loader *L, msrc *src, cursor *c, uint32_t *li, unsigned attrs, int native)
{
    const tok *name = cur_ident(c, "a method name");
    vm_program *p = L->p;
    if (p->nmethods >= VM_MAX_POOL)
        pool_full(L, src, c->ln->no, "methods", L->builtin_methods);
    L->builtin_methods += src->builtin;
    p->methods = vm_arena_grow(L->a, p->methods, p->nmethods, &L->capmethods, sizeof *p->methods);
    L->pm = vm_arena_grow(L->a, L->pm, p->nmethods, &L->cappm2, sizeof *L->pm);
    vm_method *m = vm_arena_alloc(L->a, sizeof *m);
    pmethod *pm = &L->pm[p->nmethods];
    p->methods[p->nmethods] = m;
    m->name = tok_dup(L, name);
    m->qname = vm_arena_printf(L->a, "%s.%s", src->mod->name, m->name);
    m->module = src->mod;
    m->line = c->ln->no;
    m->flags = (native ? VM_METHOD_NATIVE : 0) | ((attrs & ATTR_INTRINSIC) ? VM_METHOD_INTRINSIC : 0) |
               ((attrs & (ATTR_VIRTUAL | ATTR_ABSTRACT)) ? VM_METHOD_VIRTUAL : 0) |
               ((attrs & ATTR_ABSTRACT) ? VM_METHOD_ABSTRACT : 0);
    m->vslot = -1;
    pm->m = m;
    pm->src = src;
    add_sym(L, src, name, SYM_METHOD, p->nmethods, c->ln->no);
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
                fail(L, src, c->ln->no, "malformed parameter name '%s'", tokstr(L, pn));
            if (map_get(&names, pn->s, pn->len, &dummy))
                fail(L, src, c->ln->no, "duplicate parameter '%s'", tokstr(L, pn));
            map_put(L->a, &names, pn->s, pn->len, 0);
            check_reg_name(L, src, c->ln->no, pn, m->nparams);
            cur_punct(c, ':');
            if (m->nparams >= VM_MAX_REGS)
                fail(L, src, c->ln->no, "too many parameters (at most %d)", VM_MAX_REGS);
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
            fail(L, src, c->ln->no, "expected '->' or end of line, got '%s'", tokstr(L, t));
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
            fail(L, src, m->line, "method '%s' has no 'end'", m->name);
        const line *ln = &src->lines[*li];
        if ((tok_is(&ln->t[0], "method") || tok_is(&ln->t[0], "record") || tok_is(&ln->t[0], "virtual") ||
             tok_is(&ln->t[0], "abstract")) &&
            line_starts_declaration(ln))
            fail(L, src, m->line, "method '%s' has no 'end' before line %u", m->name, ln->no);
        if (ln->ntok == 1 && tok_is(&ln->t[0], "end"))
            break;
        if (ln->ntok >= 2 && tok_is(&ln->t[0], "end") && !tok_punct(&ln->t[1], ':'))
            fail(L, src, ln->no, "unexpected '%s' after 'end'", tokstr(L, &ln->t[1]));
    }
    pm->last = *li;
}

static void parse_module(loader *L, msrc *src, const char *expect)
{
    if (src->nlines == 0)
        fail(L, src, 1, "empty module: expected 'module %s'", expect ? expect : "Name");
    cursor c = {L, src, &src->lines[0], 0};
    if (!tok_is(cur_ident(&c, "'module'"), "module"))
        fail(L, src, c.ln->no, "a module starts with 'module Name'");
    const tok *name = cur_ident(&c, "a module name");
    cur_end(&c);
    if (memchr(name->s, '.', name->len))
        fail(L, src, c.ln->no, "malformed module name '%s'", tokstr(L, name));
    if (expect && !tok_is(name, expect))
        fail(L, src, c.ln->no, "file declares module '%s', expected '%s'", tokstr(L, name), expect);
    if (!expect) {
        /* the main program: its name was not known before reading it */
        if (tok_is(name, "Sys"))
            fail(L, src, c.ln->no, "module name '%s' is taken by a built-in module", tokstr(L, name));
        src->mod->name = tok_dup(L, name);
        map_put(L->a, &L->modmap, name->s, name->len, src->index);
    }
    unsigned attrs = 0;
    uint32_t attr_line = 0;
    for (uint32_t li = 1; li < src->nlines; li++) {
        c = (cursor){L, src, &src->lines[li], 0};
        const tok *kw = cur_next(&c, "a declaration");
        if (attrs && !tok_is(kw, "method") && !tok_is(kw, "native") && !tok_is(kw, "virtual") &&
            !tok_is(kw, "abstract") && !tok_punct(kw, '@'))
            fail(L, src, attr_line, "attribute '@IntrinsicCandidate' must precede a method");
        if (tok_punct(kw, '@')) {
            const tok *an = cur_ident(&c, "an attribute name");
            if (!tok_is(an, "IntrinsicCandidate"))
                fail(L, src, c.ln->no, "unknown attribute '@%s'", tokstr(L, an));
            if (cur_more(&c) && tok_punct(cur_peek(&c), '('))
                fail(L, src, c.ln->no, "attribute '@IntrinsicCandidate' takes no arguments");
            if (cur_more(&c))
                fail(L, src, c.ln->no, "unexpected '%s' after '@IntrinsicCandidate' (an attribute is on a line of "
                     "its own, before the method)", tokstr(L, cur_peek(&c)));
            if (attrs & ATTR_INTRINSIC)
                fail(L, src, c.ln->no, "duplicate attribute '@IntrinsicCandidate'");
            attrs |= ATTR_INTRINSIC;
            attr_line = c.ln->no;
        } else if (tok_is(kw, "import")) {
            const tok *in = cur_ident(&c, "a module name");
            cur_end(&c);
            uint32_t dummy;
            if (memchr(in->s, '.', in->len))
                fail(L, src, c.ln->no, "malformed module name '%s'", tokstr(L, in));
            if (map_get(&src->imports, in->s, in->len, &dummy))
                fail(L, src, c.ln->no, "duplicate import of '%s'", tokstr(L, in));
            if (tok_is(in, src->mod->name))
                fail(L, src, c.ln->no, "module '%s' imports itself", src->mod->name);
            msrc *dep = load_module(L, in->s, in->len, src, c.ln->no);
            map_put(L->a, &src->imports, in->s, in->len, dep->index);
        } else if (tok_is(kw, "const")) {
            const tok *cn = cur_ident(&c, "a constant name");
            cur_punct(&c, '=');
            int64_t v = const_value(L, src, cur_next(&c, "a value"), c.ln->no);
            cur_end(&c);
            uint32_t si = add_sym(L, src, cn, SYM_CONST, 0, c.ln->no);
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
                fail(L, src, c.ln->no, "expected '%s method'", abstract ? "abstract" : "virtual");
            if (abstract && attrs)
                fail(L, src, attr_line, "attribute '@IntrinsicCandidate' cannot be applied to an abstract method");
            parse_method(L, src, &c, &li, attrs | (abstract ? ATTR_ABSTRACT : ATTR_VIRTUAL), 0);
            attrs = 0;
        } else if (tok_is(kw, "native")) {
            if (!tok_is(cur_ident(&c, "'method'"), "method"))
                fail(L, src, c.ln->no, "expected 'native method'");
            if (attrs)
                fail(L, src, attr_line, "attribute '@IntrinsicCandidate' cannot be applied to a native method");
            parse_method(L, src, &c, &li, 0, 1);
        } else if (tok_is(kw, "module")) {
            fail(L, src, c.ln->no, "one module per file ('module' may appear only on the first line)");
        } else {
            fail(L, src, c.ln->no,
                 "expected a declaration (import, const, static, record, method, virtual method, abstract method), "
                 "got '%s'",
                 tokstr(L, kw));
        }
    }
    if (attrs)
        fail(L, src, attr_line, "attribute '@IntrinsicCandidate' must precede a method");
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
                    fail(L, L->pm[i].src, m->line,
                         "%s overrides %s but their signatures differ (after the receiver)", m->qname, vt[s]->qname);
            } else {
                if (n >= UINT16_MAX)
                    fail(L, L->pm[i].src, m->line, "too many virtual methods in %s", rec->qname);
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
            fail(L, L->pm[i].src, m->line,
                 "virtual method %s must take a record declared in module %s as its first parameter", m->qname,
                 m->module->name);
    }
}

static void resolve_declarations(loader *L)
{
    vm_program *p = L->p;
    /* records are in declaration order, so a super record's types are resolved before its extensions' */
    for (uint32_t r = 0; r < p->nrecords; r++) {
        vm_record *rec = &p->records[r];
        uint16_t inh = L->pr[r].ninherited;
        for (uint32_t f = 0; f < inh; f++)
            rec->fields[f].type = p->records[rec->super].fields[f].type;
        for (uint32_t f = inh; f < rec->nfields; f++)
            rec->fields[f].type = resolve_type(L, L->pr[r].src, &L->pr[r].ftypes[f - inh], 0, 0);
    }
    for (uint32_t s = 0; s < p->nstatics; s++) {
        vm_static *st = &p->statics[s];
        pstatic *ps = &L->ps[s];
        st->type = resolve_type(L, ps->src, &ps->type, 0, 0);
        if (ps->init_kind == 1 && !vm_type_is_int(st->type))
            fail(L, ps->src, st->line, "static '%s' of type %s cannot have an integer initial value", st->name,
                 vm_type_name(p, st->type, (char[64]){0}, 64));
        if (ps->init_kind == 3 && st->type.kind != VM_T_BYTES)
            fail(L, ps->src, st->line, "a string initialises a byte[] static only");
        if (ps->init_kind == 2) {
            if (!vm_type_is_array(st->type))
                fail(L, ps->src, st->line, "an array literal initialises an array static only");
            for (uint32_t i = 0; i < st->init_count; i++) {
                int64_t v = st->init_elems[i];
                if (st->type.kind == VM_T_BYTES && (v < -128 || v > 255))
                    fail(L, ps->src, st->line, "element %u (%" PRId64 ") does not fit in a byte", i, v);
                if (st->type.kind == VM_T_INTS && (v < INT32_MIN || v > (int64_t)UINT32_MAX))
                    fail(L, ps->src, st->line, "element %u (%" PRId64 ") does not fit in an int", i, v);
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
            m->regtypes[a] = resolve_type(L, pm->src, &pm->ptypes[a], 0, native);
        m->ret = pm->has_ret ? resolve_type(L, pm->src, &pm->ret, 1, 0) : (vm_type){VM_T_VOID, 0};
        m->nregs = m->nparams;
        if (native) {
            m->native = vm_native_lookup(m->module->name, m->name);
            if (!m->native)
                fail(L, pm->src, m->line, "no native implementation of '%s'", m->qname);
        }
    }
    build_vtables(L);
}

/* ---- assembling a method ------------------------------------------------------------------ */
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
    if (map_get(&A->regs, t->s, t->len, r))
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
            fail(L, A->src, c->ln->no, "too many registers (at most %d)", VM_MAX_REGS);
        names[n++] = t;
        if (cur_accept(c, ':'))
            break;
        cur_punct(c, ',');
    }
    ptype pt = cur_type(c);
    cur_end(c);
    vm_type ty = resolve_type(L, A->src, &pt, 0, 0);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t prev;
        if (memchr(names[i]->s, '.', names[i]->len))
            fail(L, A->src, c->ln->no, "malformed register name '%s'", tokstr(L, names[i]));
        if (map_get(&A->regs, names[i]->s, names[i]->len, &prev))
            fail(L, A->src, c->ln->no, "duplicate register '%s'", tokstr(L, names[i]));
        if (m->nregs >= VM_MAX_REGS)
            fail(L, A->src, c->ln->no, "too many registers (at most %d)", VM_MAX_REGS);
        check_reg_name(L, A->src, c->ln->no, names[i], m->nregs);
        m->regtypes[m->nregs] = ty;
        m->regnames[m->nregs] = tok_dup(L, names[i]);
        map_put(L->a, &A->regs, names[i]->s, names[i]->len, m->nregs);
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
            *why = vm_arena_printf(L->a, "'%s' is not a register", tokstr(L, t));
            return FIT_NO;
        }
        if (r >= VM_MAX_REGS || r >= m->nregs) {
            *why = vm_arena_printf(L->a, "register %s out of range (method has %u registers)", tokstr(L, t),
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
        const sym *s = t->kind == TK_IDENT ? lookup_sym(L, A->src, t, SYM_CONST, 0, 0) : NULL;
        if (t->kind == TK_NUM) {
            v = t->num;
        } else if (s) {
            v = s->value; /* a named constant used as an immediate */
        } else {
            *why = vm_arena_printf(L->a, "expected an immediate, got '%s'", tokstr(L, t));
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
            const sym *s = lookup_sym(L, A->src, t, SYM_CONST, 0, 0);
            if (!s) {
                *why = vm_arena_printf(L->a, "'%s' is not a number or a constant", tokstr(L, t));
                return FIT_NO;
            }
            v = s->value;
        } else {
            *why = vm_arena_printf(L->a, "expected a number, got '%s'", tokstr(L, t));
            return FIT_NO;
        }
        *val = v; /* the pool index is made when encoding */
        return FIT_FULL;
    }
    case K_STR:
        if (t->kind != TK_STR) {
            *why = vm_arena_printf(L->a, "expected a string literal, got '%s'", tokstr(L, t));
            return FIT_NO;
        }
        return FIT_FULL;
    case K_METH:
    case K_STATIC:
    case K_TYPE: {
        symkind sk = kind == K_METH ? SYM_METHOD : kind == K_STATIC ? SYM_STATIC : SYM_RECORD;
        if (t->kind != TK_IDENT) {
            *why = vm_arena_printf(L->a, "expected a %s name, got '%s'", symkind_name[sk], tokstr(L, t));
            return FIT_NO;
        }
        *val = lookup_sym(L, A->src, t, sk, 0, 0) ? 1 : 0;
        return FIT_FULL; /* unknown names are reported when encoding */
    }
    case K_FIELD: {
        if (t->kind != TK_IDENT) {
            *why = vm_arena_printf(L->a, "expected a field name, got '%s'", tokstr(L, t));
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
        *why = vm_arena_printf(L->a, "record %s has no field '%s'", rec->qname, tokstr(L, t));
        return FIT_NO;
    }
    case K_J:
        if (t->kind != TK_IDENT || memchr(t->s, '.', t->len)) {
            *why = vm_arena_printf(L->a, "expected a label, got '%s'", tokstr(L, t));
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
    if (map_get(&L->kmap, (const char *)&v, sizeof v, &idx))
        return idx;
    if (p->nk >= VM_MAX_POOL)
        pool_full(L, A->src, lineno, "constants", UINT32_MAX);
    p->k = vm_arena_grow(L->a, p->k, p->nk, &L->capk, sizeof *p->k);
    p->k[p->nk] = v;
    map_put(L->a, &L->kmap, (const char *)&p->k[p->nk], sizeof v, p->nk);
    return p->nk++;
}

static uint32_t pool_string(masm *A, const tok *t, uint32_t lineno)
{
    loader *L = A->L;
    vm_program *p = L->p;
    uint32_t idx;
    if (map_get(&L->strmapping, t->s, t->len, &idx))
        return idx;
    if (p->nstrings >= VM_MAX_POOL)
        pool_full(L, A->src, lineno, "strings", UINT32_MAX);
    p->strings = vm_arena_grow(L->a, p->strings, p->nstrings, &L->capstr, sizeof *p->strings);
    p->strings[p->nstrings] = (vm_string){(const uint8_t *)t->s, t->len};
    map_put(L->a, &L->strmapping, t->s, t->len, p->nstrings);
    return p->nstrings++;
}

static uint32_t label_target(masm *A, const tok *t, uint32_t lineno)
{
    uint32_t target;
    if (!map_get(&A->labels, t->s, t->len, &target))
        fail(A->L, A->src, lineno, "undefined label '%s'", tokstr(A->L, t));
    if (target >= A->m->ncode)
        fail(A->L, A->src, lineno, "label '%s' is at the end of the method: no instruction follows it",
             tokstr(A->L, t));
    return target;
}

static int32_t jump_offset(masm *A, uint32_t target, uint32_t from, uint32_t lineno)
{
    int64_t off = (int64_t)target - ((int64_t)from + 1);
    if (off < VM_MIN_sJ || off > VM_MAX_sJ)
        fail(A->L, A->src, lineno, "jump too far");
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
    const tok *first = cur_ident(c, "a method name or a result register");
    const tok *dst = NULL, *mt = first;
    if (cur_accept(c, '=')) {
        dst = first;
        mt = cur_ident(c, "a method name");
    }
    const sym *s = lookup_sym(L, A->src, mt, SYM_METHOD, no, 1);
    const vm_method *callee = L->p->methods[s->index];
    if (virtual && callee->vslot < 0)
        fail(L, A->src, no, "callvirt %s: not a virtual method (use call)", callee->qname);
    if (!virtual && (callee->flags & VM_METHOD_ABSTRACT))
        fail(L, A->src, no, "call %s: the method is abstract: it has no body to call (use callvirt)", callee->qname);
    uint32_t regs[VM_MAX_REGS + 1], nargs = 0;
    cur_punct(c, '(');
    if (!cur_accept(c, ')')) {
        for (;;) {
            const tok *t = cur_next(c, "an argument register");
            if (nargs == VM_MAX_REGS || !reg_lookup(A, t, &regs[nargs]))
                fail(L, A->src, no, "call %s: argument %u: '%s' is not a register", callee->qname, nargs + 1,
                     tokstr(L, t));
            if (regs[nargs] >= m->nregs)
                fail(L, A->src, no, "call %s: register %s out of range (method has %u registers)", callee->qname,
                     tokstr(L, t), m->nregs);
            nargs++;
            if (cur_accept(c, ')'))
                break;
            cur_punct(c, ',');
        }
    }
    cur_end(c);
    if (nargs != callee->nparams)
        fail(L, A->src, no, "call %s: takes %u argument%s, got %u", callee->qname, callee->nparams,
             callee->nparams == 1 ? "" : "s", nargs);
    int is_void = callee->ret.kind == VM_T_VOID;
    uint32_t base = 0;
    if (dst) {
        if (is_void)
            fail(L, A->src, no, "call %s: the method returns void, so there is no result for '%s'", callee->qname,
                 tokstr(L, dst));
        if (!reg_lookup(A, dst, &base))
            fail(L, A->src, no, "call %s: result '%s' is not a register", callee->qname, tokstr(L, dst));
        if (base >= m->nregs)
            fail(L, A->src, no, "call %s: result register %s out of range (method has %u registers)", callee->qname,
                 tokstr(L, dst), m->nregs);
        for (uint32_t k = 0; k < nargs; k++)
            if (regs[k] != base + 1 + k)
                fail(L, A->src, no,
                     "call %s: argument %u must be register r%u (the arguments follow the result register "
                     "%s, r%u), not %s (r%u)",
                     callee->qname, k + 1, base + 1 + k, m->regnames[base], base, m->regnames[regs[k]], regs[k]);
    } else {
        if (!is_void) {
            char b[64];
            fail(L, A->src, no, "call %s: the method returns %s: write 'call r = %s(...)'", callee->qname,
                 vm_type_name(L->p, callee->ret, b, sizeof b), tokstr(L, mt));
        }
        base = nargs ? regs[0] : 0;
        for (uint32_t k = 1; k < nargs; k++)
            if (regs[k] != base + k)
                fail(L, A->src, no, "call %s: arguments must be consecutive registers: argument %u must be r%u, not %s (r%u)",
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
                fail(L, A->src, no, "expected an operand, got '%s'", tokstr(L, t));
            if (nops == 8)
                fail(L, A->src, no, "too many operands for '%s'", tokstr(L, mn));
            ops[nops++] = t;
            if (!cur_more(c))
                break;
            const tok *sep = cur_next(c, "','");
            if (!tok_punct(sep, ','))
                fail(L, A->src, no, "expected ',' between operands, got '%s'", tokstr(L, sep));
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
                               (ops[s]->kind == TK_NUM || lookup_sym(L, A->src, ops[s], SYM_CONST, no, 0))
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
        fail(L, A->src, no, "unknown mnemonic '%s'", tokstr(L, mn));
    if (!count_match) {
        char want[64];
        size_t o = 0;
        for (int n = 0; n < 8; n++)
            if (counts_seen & (1 << n))
                o += (size_t)snprintf(want + o, sizeof want - o, "%s%d", o ? " or " : "", n);
        fail(L, A->src, no, "'%s' takes %s operand%s, got %d", tokstr(L, mn), want,
             counts_seen == 2 ? "" : "s", nops);
    }
    if (best < 0)
        fail(L, A->src, no, "operand %d of '%s': %s", why_slot, tokstr(L, mn), why);

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
        case K_METH: v = lookup_sym(L, A->src, ops[s], SYM_METHOD, no, 1)->index; break;
        case K_STATIC: v = lookup_sym(L, A->src, ops[s], SYM_STATIC, no, 1)->index; break;
        case K_TYPE: v = lookup_sym(L, A->src, ops[s], SYM_RECORD, no, 1)->index; break;
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
                fail(L, A->src, no, "operand %d of '%s': register %s is r%u; this form reaches r0..r%d only", s + 1,
                     tokstr(L, mn), tokstr(L, ops[s]), f[s], VM_MAX_REGS4 - 1);
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

static void assemble_method(loader *L, pmethod *pm)
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
        map_put(L->a, &A.regs, m->regnames[i], strlen(m->regnames[i]), i);
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
                fail(L, pm->src, ln->no, "malformed label '%s'", tokstr(L, &ln->t[0]));
            if (map_get(&A.labels, ln->t[0].s, ln->t[0].len, &prev))
                fail(L, pm->src, ln->no, "duplicate label '%s'", tokstr(L, &ln->t[0]));
            map_put(L->a, &A.labels, ln->t[0].s, ln->t[0].len, ncode);
            c.i = 2;
            if (!cur_more(&c))
                continue;
        }
        const tok *mn = cur_ident(&c, "a mnemonic");
        int words = mnemonic_is_cond(mn);
        if (!words)
            fail(L, pm->src, ln->no, "unknown mnemonic '%s'", tokstr(L, mn));
        if (ncode > (1u << 24))
            fail(L, pm->src, ln->no, "method too long");
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

/* ---- the program ----------------------------------------------------------------------- */
static vm_program *load(const char *path, const char *dir_in, const char *text_in, size_t len, char *err,
                        size_t errlen)
{
    loader L = {0};
    L.path = path;
    L.err = err;
    L.errlen = errlen;
    L.a = vm_arena_new();
    if (!L.a) {
        snprintf(err, errlen, "out of memory loading %s", path);
        return NULL;
    }
    if (setjmp(L.jb)) {
        vm_arena_free(L.a);
        return NULL;
    }
    vm_arena_on_oom(L.a, loader_out_of_memory, &L);
    L.p = vm_arena_alloc(L.a, sizeof *L.p);
    L.p->arena = L.a;
    /* tokens point into the text: the arena keeps a copy */
    const char *text = vm_arena_strndup(L.a, text_in, len);
    const char *dir = dir_in ? vm_arena_strndup(L.a, dir_in, strlen(dir_in)) : NULL;
    /* Sys (the natives) is always there, and is module 0 */
    if (!load_builtin(&L, "Sys", 3))
        fail(&L, NULL, 0, "internal error: no built-in Sys module");
    /* the program itself: its module name is read from its first line */
    msrc *main = new_src(&L, "", 0, path, dir, text, len);
    parse_module(&L, main, NULL);
    resolve_declarations(&L);
    for (uint32_t i = 0; i < L.p->nmethods; i++)
        if (!(L.pm[i].m->flags & (VM_METHOD_NATIVE | VM_METHOD_ABSTRACT)))
            assemble_method(&L, &L.pm[i]);
    for (uint32_t i = 0; i < L.p->nmethods; i++)
        if (vm_verify_method(L.p, L.p->methods[i], err, errlen) != 0)
            longjmp(L.jb, 1);
    L.p->modules = vm_arena_alloc(L.a, L.nsrcs * sizeof *L.p->modules);
    for (uint32_t i = 0; i < L.nsrcs; i++)
        L.p->modules[i] = L.srcs[i]->mod;
    L.p->nmodules = L.nsrcs;
    uint32_t si;
    if (map_get(&main->syms, "main", 4, &si) && L.syms[si].kind == SYM_METHOD)
        L.p->main = L.p->methods[L.syms[si].index];
    return L.p;
}

vm_program *vm_load_text(const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    return load(name, NULL, text, len, err, errlen);
}

vm_program *vm_load_file(const char *path, char *err, size_t errlen)
{
    size_t len;
    int e;
    char *text = read_file(path, &len, &e);
    if (!text) {
        snprintf(err, errlen, "cannot %s program file '%s': %s", e == EFBIG ? "read" : "open", path,
                 read_error(e, (char[96]){0}, 96));
        return NULL;
    }
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (slash) {
        size_t n = (size_t)(slash - path) + 1;
        if (n >= sizeof dir) {
            free(text);
            snprintf(err, errlen, "program path too long: '%s'", path);
            return NULL;
        }
        memcpy(dir, path, n);
        dir[n] = '\0';
    } else {
        strcpy(dir, "./");
    }
    vm_program *p = load(path, dir, text, len, err, errlen);
    free(text);
    return p;
}

void vm_program_free(vm_program *p)
{
    if (!p)
        return;
    vm_arena_free(p->arena);
}

vm_method *vm_find_method(const vm_program *p, const char *qname)
{
    const char *dot = strrchr(qname, '.');
    for (uint32_t i = 0; i < p->nmethods; i++) {
        vm_method *m = p->methods[i];
        if (dot ? strcmp(m->qname, qname) == 0
                : (p->nmodules > 1 && m->module == p->modules[1] && strcmp(m->name, qname) == 0))
            return m;
    }
    return NULL;
}

const char *vm_type_name(const vm_program *p, vm_type t, char *buf, size_t len)
{
    static const char *const names[] = {"void", "int", "long", "byte[]", "int[]", "long[]", "?", "Object"};
    if (t.kind == VM_T_RECORD)
        snprintf(buf, len, "%s", p && t.rec < p->nrecords ? p->records[t.rec].qname : "record");
    else
        snprintf(buf, len, "%s", t.kind < sizeof names / sizeof names[0] ? names[t.kind] : "?");
    return buf;
}
