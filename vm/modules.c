/*
 * vm/modules.c — the module graph: a module is looked for next to the file
 * that imports it, then in the built-in library (Sys and vm/lib/, which
 * import only each other); each is loaded once and parsed when first
 * imported. docs/format.md, "Modules and imports".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader_impl.h"
#include "textfile.h"

static const char *base_name(const char *path)
{
    const char *b = strrchr(path, '/');
    return b ? b + 1 : path;
}

char *mod_read_source(const char *path, size_t *len, int *err)
{
    return textfile_read(path, VM_MAX_SOURCE_BYTES, len, err);
}

const char *mod_read_error(int err, char *buf, size_t len)
{
    if (err != EFBIG)
        return strerror(err);
    char size[32];
    snprintf(buf, len, "larger than %s, the limit for a source file",
             textfile_size_text(VM_MAX_SOURCE_BYTES, size, sizeof size));
    return buf;
}

msrc *mod_new(loader *L, const char *name, size_t nlen, const char *path, const char *dir, const char *text,
              size_t len, const msrc *from, uint32_t lineno)
{
    if (L->nsrcs >= VM_MAX_POOL)
        ld_fail(L, from, lineno, "too many modules (at most %d in a program, the built-in modules' included)",
                VM_MAX_POOL);
    msrc *src = vm_arena_alloc(L->a, sizeof *src);
    vm_module *mod = vm_arena_alloc(L->a, sizeof *mod);
    mod->name = vm_arena_strndup(L->a, name, nlen);
    mod->path = vm_arena_printf(L->a, "%s", path);
    mod->file = base_name(mod->path);
    src->mod = mod;
    src->dir = dir;
    src->expect = nlen ? mod->name : NULL;
    L->srcs = vm_arena_grow(L->a, L->srcs, L->nsrcs, &L->capsrcs, sizeof *L->srcs);
    src->index = L->nsrcs;
    L->srcs[L->nsrcs++] = src;
    lex_source(L, src, text, len);
    return src;
}

/* The built-in module name (from: the import that needs it, or NULL), loaded once; NULL: there is none. */
static msrc *load_builtin(loader *L, const char *name, size_t nlen, const msrc *from, uint32_t lineno)
{
    uint32_t mi;
    if (strmap_get(&L->libmap, name, nlen, &mi))
        return L->srcs[mi];
    char *nm = vm_arena_strndup(L->a, name, nlen);
    size_t len;
    const char *text = vm_builtin_source(nm, &len);
    if (!text)
        return NULL;
    msrc *src = mod_new(L, name, nlen, vm_arena_printf(L->a, "<builtin>/%s.mva", nm), NULL, text, len, from, lineno);
    src->builtin = 1;
    src->mod->builtin = true;
    strmap_put(L->a, &L->libmap, src->mod->name, nlen, src->index);
    return src;
}

msrc *mod_load_builtin(loader *L, const char *name, size_t nlen) { return load_builtin(L, name, nlen, NULL, 0); }

msrc *mod_load(loader *L, const char *name, size_t nlen, msrc *from, uint32_t lineno)
{
    uint32_t mi;
    char *nm = vm_arena_strndup(L->a, name, nlen);
    if (from && from->builtin) {
        msrc *lib = load_builtin(L, name, nlen, from, lineno);
        if (!lib)
            ld_fail(L, from, lineno, "cannot find module '%s' in the built-in library", nm);
        return lib;
    }
    if (strmap_get(&L->modmap, name, nlen, &mi))
        return L->srcs[mi];
    if (strcmp(nm, "Sys") != 0 && from && from->dir) {
        char *path = vm_arena_printf(L->a, "%s%s.mva", from->dir, nm);
        size_t len;
        int err;
        char *text = mod_read_source(path, &len, &err);
        if (text) {
            /* the arena keeps a copy: lexed tokens point into it */
            char *kept = vm_arena_strndup(L->a, text, len);
            free(text);
            msrc *src = mod_new(L, name, nlen, path, from->dir, kept, len, from, lineno);
            strmap_put(L->a, &L->modmap, src->mod->name, nlen, src->index);
            return src;
        }
        if (err != ENOENT)
            ld_fail(L, from, lineno, "cannot read module '%s' from %s: %s", nm, path,
                    mod_read_error(err, (char[96]){0}, 96));
    }
    msrc *src = load_builtin(L, name, nlen, from, lineno);
    if (!src) {
        if (from && from->dir)
            ld_fail(L, from, lineno, "cannot find module '%s' (looked for %s%s.mva and the built-in library)", nm,
                    from->dir, nm);
        ld_fail(L, from, lineno, "cannot find module '%s' in the built-in library", nm);
    }
    strmap_put(L->a, &L->modmap, src->mod->name, nlen, src->index);
    return src;
}

/*
 * The work list is the chain of imports being followed: each module on it
 * imports the one above it, and the top is parsed until it imports a module
 * not read yet (pushed) or ends (popped). A module already on the list is an
 * import cycle: it is bound where it is, partly read, and parsing goes on (a
 * constant of it that is not read yet is an error at its use). Its depth is
 * bounded by the number of modules, not by the C stack.
 */
void mod_parse_all(loader *L, msrc *root)
{
    if (root->state != MOD_LEXED)
        return;
    uint32_t n = 0;
    L->work = vm_arena_grow(L->a, L->work, n, &L->capwork, sizeof *L->work);
    L->work[n++] = root;
    root->state = MOD_PARSING;
    while (n) {
        msrc *dep = decl_parse_module(L, L->work[n - 1]);
        if (!dep) {
            L->work[--n]->state = MOD_PARSED;
            continue;
        }
        L->work = vm_arena_grow(L->a, L->work, n, &L->capwork, sizeof *L->work);
        L->work[n++] = dep;
        dep->state = MOD_PARSING;
    }
}
