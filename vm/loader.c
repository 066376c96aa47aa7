/*
 * vm/loader.c — loading a program: the loader's state and errors, and the
 * steps in order, each over the whole program:
 *   1. read: the program's module and, from the imports, every module it
 *      needs (modules.c), each lexed (lex.c) and its declarations collected
 *      (declarations.c); method bodies are kept as line ranges;
 *   2. resolve: type names in fields, statics and signatures become
 *      vm_types, vtables are built (declarations.c);
 *   3. assemble: each method body becomes instruction words (assemble.c);
 *   4. verify: every method goes through vm_verify_method (verify.c);
 *   5. quicken: calls of forwarders go to their targets (below), always (an
 *      interpreter's rewriting: -Xint and -XX:-Inline keep it); small static
 *      callees are inlined (inline.c), unless VM_LOAD_NO_INLINE.
 * The first error stops loading with "file:line: message". All memory
 * belongs to the program's arena, so an error frees everything at once.
 * loader_impl.h says what the files share; docs/format.md has the format.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader_impl.h"
#include "message.h"

/* ---- a small string -> index map ------------------------------------------- */
static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

int strmap_get(const strmap *m, const char *k, size_t n, uint32_t *v)
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

void strmap_put(vm_arena *a, strmap *m, const char *k, size_t n, uint32_t v)
{
    if ((m->n + 1) * 2 > m->cap) {
        strmap old = *m;
        m->cap = old.cap ? old.cap * 2 : 16;
        m->n = 0;
        m->e = vm_arena_alloc(a, m->cap * sizeof *m->e);
        for (uint32_t i = 0; i < old.cap; i++)
            if (old.e[i].k)
                strmap_put(a, m, old.e[i].k, old.e[i].klen, old.e[i].v);
    }
    uint32_t i = hash_bytes(k, n) & (m->cap - 1);
    while (m->e[i].k)
        i = (i + 1) & (m->cap - 1);
    m->e[i].k = k;
    m->e[i].klen = (uint32_t)n;
    m->e[i].v = v;
    m->n++;
}

/* ---- errors ---------------------------------------------------------------------- */
_Noreturn void ld_fail(loader *L, const msrc *src, uint32_t lineno, const char *fmt, ...)
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

/* The limit counts what the built-in modules declare too (Sys's natives, vm/lib/), so the message says
   how much of it they take. */
_Noreturn void ld_pool_full(loader *L, const msrc *src, uint32_t lineno, const char *what, uint32_t builtin)
{
    if (builtin == UINT32_MAX)
        ld_fail(L, src, lineno, "too many %s (at most %d in a program, the built-in modules' included)", what,
                VM_MAX_POOL);
    ld_fail(L, src, lineno, "too many %s (at most %d in a program, the %u of built-in modules included)", what,
            VM_MAX_POOL, builtin);
}

/* ---- the program ----------------------------------------------------------------------- */
/*
 * Forwarders. A method whose body is only a call of another with its own parameters in order
 * (through moves at most) and a return of that call's result, as MessageDigest.update(b, ofs,
 * len) is engineUpdate(b, ofs, len), costs a frame for nothing: a static call of one becomes a
 * call of its target in place, with the same argument window (C2 inlines such methods first).
 * The verifier has passed both, and the target's signature takes what the forwarder's did
 * (its parameters are the forwarder's arguments, its result is the forwarder's). The
 * forwarder's frame is still in stack traces (vm/interp.c, unwind: HotSpot keeps inlined
 * frames in them too), and its receiver's name in a null receiver's message. One level:
 * a target that is itself a forwarder is called, not skipped.
 */
/* f's call word when f is a forwarder (at vm_forwarder_call(f)), else 0 (no call word is 0:
   that is NOP) */
static uint32_t forwarder_call(const vm_program *p, const vm_method *f)
{
    if (f->flags & (VM_METHOD_NATIVE | VM_METHOD_INTRINSIC | VM_METHOD_ABSTRACT) || f->ncode < 2)
        return 0;
    uint32_t src[VM_MAX_REGS]; /* each register's value: the parameter it holds, or none */
    for (uint32_t r = 0; r < f->nregs; r++)
        src[r] = r < f->nparams ? r : UINT32_MAX;
    uint32_t k = 0;
    for (; k < f->ncode && GET_OP(f->code[k]) == OP_MOV; k++) {
        if (GET_A(f->code[k]) < f->nparams) /* a parameter changes */
            return 0;
        src[GET_A(f->code[k])] = src[GET_B(f->code[k])];
    }
    if (k + 2 != f->ncode)
        return 0;
    uint32_t w = f->code[k], ret = f->code[k + 1];
    vm_opcode op = (vm_opcode)GET_OP(w);
    bool with_result = op == OP_CALL || op == OP_CALLVIRT;
    if (!with_result && op != OP_CALLV && op != OP_CALLVIRTV)
        return 0;
    if (with_result ? GET_OP(ret) != OP_RET || GET_A(ret) != GET_A(w) : GET_OP(ret) != OP_RETV)
        return 0;
    /* the target's arguments must be the forwarder's parameters, all and in order */
    const vm_method *g = p->methods[GET_Bx(w)];
    uint32_t first = with_result ? GET_A(w) + 1 : GET_A(w);
    if (g == f || g->nparams != f->nparams)
        return 0;
    for (uint32_t a = 0; a < g->nparams; a++)
        if (src[first + a] != a)
            return 0;
    return w;
}

/* Returns each method's forwarded call (0: not a forwarder), in the program's arena. */
static uint32_t *quicken_forwarders(loader *L)
{
    vm_program *p = L->p;
    /* the forwarders and their calls, from the code as assembled (a forwarder's own call may be
       rewritten below, and must not make its callers skip two frames) */
    uint32_t *inner_word = vm_arena_alloc(L->a, (p->nmethods + 1) * sizeof *inner_word); /* zeroed */
    for (uint32_t i = 0; i < p->nmethods; i++)
        inner_word[i] = forwarder_call(p, p->methods[i]);
    for (uint32_t i = 0; i < p->nmethods; i++) {
        vm_method *m = p->methods[i];
        if (m->flags & (VM_METHOD_NATIVE | VM_METHOD_ABSTRACT))
            continue;
        for (uint32_t k = 0; k < m->ncode; k++) {
            uint32_t w = m->code[k];
            vm_opcode op = (vm_opcode)GET_OP(w);
            if ((op != OP_CALL && op != OP_CALLV) || !inner_word[GET_Bx(w)] || GET_Bx(w) == i)
                continue;
            uint32_t iw = inner_word[GET_Bx(w)];
            if (!m->elided) {
                m->elided = vm_arena_alloc(L->a, m->ncode * sizeof *m->elided); /* zeroed */
            }
            m->elided[k] = p->methods[GET_Bx(w)];
            m->code[k] = MK_ABx(GET_OP(iw), GET_A(w), GET_Bx(iw));
        }
    }
    return inner_word;
}

static vm_program *load(const char *path, const char *dir_in, const char *text_in, size_t len, unsigned options,
                        char *err, size_t errlen)
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
    msrc *sys = mod_load_builtin(&L, "Sys", 3);
    if (!sys)
        ld_fail(&L, NULL, 0, "internal error: no built-in Sys module");
    mod_parse_all(&L, sys);
    /* the program itself: its module name is read from its first line */
    msrc *main = mod_new(&L, "", 0, path, dir, text, len, NULL, 0);
    mod_parse_all(&L, main);
    decl_resolve(&L);
    for (uint32_t i = 0; i < L.p->nmethods; i++)
        if (!(L.pm[i].m->flags & (VM_METHOD_NATIVE | VM_METHOD_ABSTRACT)))
            asm_method(&L, &L.pm[i]);
    for (uint32_t i = 0; i < L.p->nmethods; i++)
        if (vm_verify_method(L.p, L.p->methods[i], err, errlen) != 0)
            longjmp(L.jb, 1);
    uint32_t *forwarder_word = quicken_forwarders(&L);
    if (!(options & VM_LOAD_NO_INLINE))
        ld_inline_calls(&L, forwarder_word, options & VM_LOAD_PRINT_INLINING ? stdout : NULL);
    else if (options & VM_LOAD_PRINT_INLINING)
        ld_print_forwarded_calls(&L, forwarder_word, stdout);
    L.p->modules = vm_arena_alloc(L.a, L.nsrcs * sizeof *L.p->modules);
    for (uint32_t i = 0; i < L.nsrcs; i++)
        L.p->modules[i] = L.srcs[i]->mod;
    L.p->nmodules = L.nsrcs;
    uint32_t si;
    if (strmap_get(&main->syms, "main", 4, &si) && L.syms[si].kind == SYM_METHOD)
        L.p->main = L.p->methods[L.syms[si].index];
    return L.p;
}

vm_program *vm_load_text_ex(const char *name, const char *text, size_t len, unsigned options, char *err,
                            size_t errlen)
{
    return load(name, NULL, text, len, options, err, errlen);
}

vm_program *vm_load_text(const char *name, const char *text, size_t len, char *err, size_t errlen)
{
    return vm_load_text_ex(name, text, len, 0, err, errlen);
}

vm_program *vm_load_file(const char *path, char *err, size_t errlen) { return vm_load_file_ex(path, 0, err, errlen); }

vm_program *vm_load_file_ex(const char *path, unsigned options, char *err, size_t errlen)
{
    size_t len;
    int e;
    char *text = mod_read_source(path, &len, &e);
    if (!text) {
        snprintf(err, errlen, "cannot %s program file '%s': %s", e == EFBIG ? "read" : "open", path,
                 mod_read_error(e, (char[96]){0}, 96));
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
    vm_program *p = load(path, dir, text, len, options, err, errlen);
    free(text);
    return p;
}
