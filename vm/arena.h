/*
 * vm/arena.h — a bump allocator that owns everything a loaded program needs,
 * so a program (or a failed load) is freed in one call.
 */
#ifndef MINIVM_ARENA_H
#define MINIVM_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct vm_arena vm_arena;

vm_arena *vm_arena_new(void);
void vm_arena_free(vm_arena *a);
/* Zeroed memory aligned to 16 bytes; aborts on out-of-memory. */
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
