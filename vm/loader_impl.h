/*
 * vm/loader_impl.h — what the loader's files share (not an interface of the VM:
 * vm.h has that). Loading is four jobs, one file each, in the order they run:
 *
 *   lex.c           the lexer: a module's text as tokenised lines, and the
 *                   line cursor the parsers read them with;
 *   modules.c       the module graph: where an import is found, loading each
 *                   module once, the order modules are parsed in;
 *   declarations.c  declarations (records, statics, constants, method headers),
 *                   the symbol tables, type resolution and vtables;
 *   assemble.c      method bodies into instruction words;
 *
 * and loader.c, the program: the loader's state, its errors, the steps in
 * order (then vm/verify.c checks every method), the program's accessors.
 * The first error stops loading with "file:line: message" (ld_fail longjmps
 * back to load()); every allocation is the program's arena's.
 */
#ifndef MINIVM_LOADER_IMPL_H
#define MINIVM_LOADER_IMPL_H

#include <setjmp.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "arena.h"
#include "vm.h"

/* ---- tokens and lines (lex.c) ----------------------------------------------------------------- */
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

/* ---- a small string -> index map (loader.c) --------------------------------------------------- */
typedef struct strmap_entry {
    const char *k;
    uint32_t klen;
    uint32_t v;
} strmap_entry;

typedef struct strmap {
    uint32_t cap, n; /* cap is a power of two (or 0) */
    strmap_entry *e;
} strmap;

int strmap_get(const strmap *m, const char *k, size_t n, uint32_t *v);
void strmap_put(vm_arena *a, strmap *m, const char *k, size_t n, uint32_t v);

/* ---- the loader's state --------------------------------------------------------------------------- */
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
    const char *expect;  /* the name its module line must declare; NULL: the program's, any name */
    uint32_t next;       /* the next line to parse (0: the module line) */
    enum { MOD_LEXED, MOD_PARSING, MOD_PARSED } state;
} msrc;

typedef enum { SYM_METHOD, SYM_RECORD, SYM_STATIC, SYM_CONST } symkind;
extern const char *const sym_kind_name[]; /* "method", "record", ... */

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
    msrc **work;         /* mod_parse_all's stack: modules being parsed, each imported by the one below */
    uint32_t capwork;
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

/* "file:line: message" into L->err, then back to load(): the first error ends loading. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
_Noreturn void ld_fail(loader *L, const msrc *src, uint32_t lineno, const char *fmt, ...);
/* A program-wide pool (16-bit operand) is full; builtin: how much of it the built-in modules take
   (UINT32_MAX: not counted). */
_Noreturn void ld_pool_full(loader *L, const msrc *src, uint32_t lineno, const char *what, uint32_t builtin);

/* ---- lex.c ------------------------------------------------------------------------------------------ */
/* src's text as its non-empty lines of tokens (src->lines). */
void lex_source(loader *L, msrc *src, const char *text, size_t len);
/* A token for messages, bounded and with non-printables escaped. */
const char *tok_text(loader *L, const tok *t);
/* Is t a keyword or a built-in type name, which no module, record, static, constant or method may be called? */
int tok_is_reserved(const tok *t);

static inline int tok_is(const tok *t, const char *s)
{
    return t->kind == TK_IDENT && t->len == strlen(s) && memcmp(t->s, s, t->len) == 0;
}

static inline int tok_punct(const tok *t, char c) { return t->kind == TK_PUNCT && t->punct == c; }

static inline const char *tok_dup(loader *L, const tok *t) { return vm_arena_strndup(L->a, t->s, t->len); }

typedef struct cursor {
    loader *L;
    msrc *src;
    const line *ln;
    uint32_t i;
} cursor;

int cur_more(const cursor *c);
const tok *cur_peek(const cursor *c);
const tok *cur_next(cursor *c, const char *what);
const tok *cur_ident(cursor *c, const char *what);
void cur_punct(cursor *c, char p);
int cur_accept(cursor *c, char p);
void cur_end(cursor *c);
ptype cur_type(cursor *c);

/* ---- modules.c -------------------------------------------------------------------------------------- */
/* A program or module file, at most VM_MAX_SOURCE_BYTES (EFBIG past it); free() it. */
char *mod_read_source(const char *path, size_t *len, int *err);
/* The reason for a failed mod_read_source, for messages (in buf when it is formatted). */
const char *mod_read_error(int err, char *buf, size_t len);
/* A new module of that name from text (lexed, not parsed): the next of L->srcs; from and lineno: the
   import that needs it, for the message when there are too many (NULL: none). */
msrc *mod_new(loader *L, const char *name, size_t nlen, const char *path, const char *dir, const char *text,
              size_t len, const msrc *from, uint32_t lineno);
/* The built-in module of that name, loaded once (lexed, not parsed); NULL when there is none. */
msrc *mod_load_builtin(loader *L, const char *name, size_t nlen);
/* The module "import name" in from (at lineno) names, loaded once (lexed, not parsed). */
msrc *mod_load(loader *L, const char *name, size_t nlen, msrc *from, uint32_t lineno);
/* Parse root and every module it imports that is not read yet, each import's module before the rest of
   the importer (with a work list: no recursion, whatever the depth of the import chain). */
void mod_parse_all(loader *L, msrc *root);

/* ---- declarations.c ----------------------------------------------------------------------------- */
/*
 * Parse src's declarations from src->next on. At an import of a module not
 * read yet, returns it with src->next after the import: parse that module,
 * then call again. NULL when src is parsed to its end (mod_parse_all).
 */
msrc *decl_parse_module(loader *L, msrc *src);
/* Types of fields, statics and signatures, natives, vtables: after every module is parsed. */
void decl_resolve(loader *L);
uint32_t sym_add(loader *L, msrc *src, const tok *name, symkind kind, uint32_t index, uint32_t lineno);
/* "name" or "Module.name" seen from src, of kind want; NULL (must == 0) or an error when there is none. */
const sym *sym_lookup(loader *L, msrc *src, const tok *t, symkind want, uint32_t lineno, int must);
/* A written type as a vm_type (void and Object only where allowed). */
vm_type decl_type(loader *L, msrc *src, const ptype *pt, int allow_void, int allow_object);
/* A register or parameter may be called rN only if it is register N. */
void decl_check_reg_name(loader *L, msrc *src, uint32_t lineno, const tok *t, uint32_t index);

/* ---- assemble.c --------------------------------------------------------------------------------- */
/* pm's body (after decl_resolve) into m->code, m->lines, its registers' names and types. */
void asm_method(loader *L, pmethod *pm);

/* ---- inline.c ----------------------------------------------------------------------------------- */
/* Small static callees inlined into their callers (after the forwarders: forwarder_word[i] is method
   i's forwarded call, 0 if it is none); a method that cannot be rewritten keeps its code. With
   print_inlining, each call's verdict goes there (-XX:+PrintInlining). */
void ld_inline_calls(loader *L, const uint32_t *forwarder_word, FILE *print_inlining);
/* Without inlining (-XX:-Inline, -Xint), the one transformation of calls left: each call of a
   forwarder, in PrintInlining's format, to out, from the methods whose calls it prints with
   inlining (forwarder_word as ld_inline_calls's). */
void ld_print_forwarded_calls(const loader *L, const uint32_t *forwarder_word, FILE *out);

#endif
