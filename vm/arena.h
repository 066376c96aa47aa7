/*
 * vm/arena.h — a bump allocator that owns everything a loaded program needs,
 * so a program (or a failed load) is freed in one call.
 */
#ifndef MINIVM_ARENA_H
#define MINIVM_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct vm_arena vm_arena;

/* A new arena; NULL when even that cannot be allocated. */
vm_arena *vm_arena_new(void);
void vm_arena_free(vm_arena *a);

/* What an allocation does when memory runs out: fn(ctx, bytes) is called and
   must not return (the loader longjmps out with its error message). Without
   a handler the arena aborts. */
typedef void (*vm_arena_oom_fn)(void *ctx, size_t bytes);
void vm_arena_on_oom(vm_arena *a, vm_arena_oom_fn fn, void *ctx);

/* Zeroed memory aligned to 16 bytes; on out-of-memory, the handler. */
void *vm_arena_alloc(vm_arena *a, size_t size);
char *vm_arena_strndup(vm_arena *a, const char *s, size_t n);
char *vm_arena_printf(vm_arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    /* nonnull: without it GCC 12 with -fsanitize=undefined warns "null format string" */
    __attribute__((format(printf, 2, 3), nonnull(2)))
#endif
    ;
/* Grow an arena array of n elements to hold at least n+1 (amortised doubling). */
void *vm_arena_grow(vm_arena *a, void *arr, uint32_t n, uint32_t *cap, size_t elsize);

#endif
