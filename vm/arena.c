/*
 * vm/arena.c — bump allocator for loaded programs (see arena.h).
 */
#include "arena.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct chunk {
    struct chunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
} chunk;

struct vm_arena {
    chunk *head;
    vm_arena_oom_fn oom; /* called when malloc fails; must not return */
    void *oom_ctx;
};

#define ARENA_CHUNK (64 * 1024)

vm_arena *vm_arena_new(void)
{
    vm_arena *a = malloc(sizeof *a);
    if (a)
        *a = (vm_arena){NULL, NULL, NULL};
    return a;
}

void vm_arena_on_oom(vm_arena *a, vm_arena_oom_fn fn, void *ctx)
{
    a->oom = fn;
    a->oom_ctx = ctx;
}

static _Noreturn void out_of_memory(vm_arena *a, size_t n)
{
    if (a->oom)
        a->oom(a->oom_ctx, n);
    fputs("minivm: out of memory\n", stderr); /* an owner without a handler: a bug, not an input */
    abort();
}

void vm_arena_free(vm_arena *a)
{
    if (!a)
        return;
    for (chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(a);
}

void *vm_arena_alloc(vm_arena *a, size_t size)
{
    if (size > SIZE_MAX - sizeof(chunk) - 15)
        out_of_memory(a, size);
    size = (size + 15) & ~(size_t)15;
    chunk *c = a->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        c = malloc(sizeof *c + cap);
        if (!c)
            out_of_memory(a, sizeof *c + cap);
        c->used = 0;
        c->cap = cap;
        /* a big block goes second so the current chunk keeps its free room */
        if (a->head && size > ARENA_CHUNK) {
            c->next = a->head->next;
            a->head->next = c;
        } else {
            c->next = a->head;
            a->head = c;
        }
    }
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *vm_arena_strndup(vm_arena *a, const char *s, size_t n)
{
    char *d = vm_arena_alloc(a, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *vm_arena_printf(vm_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *d = vm_arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(d, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return d;
}

void *vm_arena_grow(vm_arena *a, void *arr, uint32_t n, uint32_t *cap, size_t elsize)
{
    if (n < *cap)
        return arr;
    uint32_t ncap = *cap ? *cap * 2 : 8;
    if (ncap <= *cap) /* 2^31 elements and more: more than any limit lets through */
        out_of_memory(a, SIZE_MAX);
    void *d = vm_arena_alloc(a, (size_t)ncap * elsize);
    if (n)
        memcpy(d, arr, (size_t)n * elsize);
    *cap = ncap;
    return d;
}
