/*
 * vm/heap.c — object allocation and a precise mark-sweep collector.
 *
 * Small objects (up to VM_POOL_MAX bytes, header included) are carved from
 * 64 KiB chunks and reused through one free list per 16-byte size class, so
 * an allocation is a pop or a pointer bump and a clear, not a malloc; larger
 * objects are malloc'ed one by one. Both kinds are linked on a list (small,
 * large) for sweeping; chunks go back to the system only with the VM, and
 * there are at most -Xmx of them (then small objects are malloc'ed too), so
 * the memory held for objects stays within twice -Xmx. Under
 * AddressSanitizer every object is malloc'ed, so the sanitizer still sees
 * each one's bounds and lifetime. A collection marks from
 * the roots — the registers of every frame whose declared type is a
 * reference, the statics, and the string constants — using an explicit
 * mark stack (no recursion), then frees every unmarked object.
 *
 * A collection runs when an allocation would take the heap past next_gc;
 * next_gc is then set to twice the live size (at least VM_GC_MIN), capped
 * by the limit (-Xmx). An allocation that does not fit under the limit
 * after a collection throws java.lang.OutOfMemoryError.
 */
#include <stdlib.h>
#include <string.h>

#include "vm.h"

#define VM_GC_MIN ((size_t)4 << 20)

#if defined(__SANITIZE_ADDRESS__)
#define VM_HEAP_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VM_HEAP_POOL 0
#endif
#endif
#ifndef VM_HEAP_POOL
#define VM_HEAP_POOL 1
#endif

static size_t elem_size(vm_tkind kind)
{
    switch (kind) {
    case VM_T_BYTES: return 1;
    case VM_T_INTS: return 4;
    default: return 8;
    }
}

/* an object's size as the heap counts it: the header and the elements or fields */
static size_t obj_size(const vm_obj *o)
{
    return sizeof *o +
           (o->kind == VM_T_RECORD ? (size_t)o->length * sizeof(vm_value) : (size_t)o->length * elem_size(o->kind));
}

/* the free list of a small object of size bytes (16 .. VM_POOL_MAX) */
static size_t pool_class(size_t size) { return (size - 1) / VM_POOL_GRAIN; }

/*
 * Mark o and queue it for tracing. When the mark stack cannot grow (no
 * memory), o stays marked but untraced and the overflow is noted: the
 * collector then rescans the heap for marked records with unmarked children
 * (the classic mark-stack overflow recovery), so low memory slows a
 * collection down but never breaks it.
 */
static void mark_push(vm_heap *h, vm_obj *o)
{
    if (!o || o->marked)
        return;
    o->marked = 1;
    if (o->kind != VM_T_RECORD)
        return; /* arrays of byte/int/long hold no references */
    if (h->mark_top == h->mark_cap) {
        size_t cap = h->mark_cap ? h->mark_cap * 2 : 1024;
        if (h->mark_stack_max && cap > h->mark_stack_max)
            cap = h->mark_stack_max;
        vm_obj **s = cap > h->mark_cap ? realloc(h->mark_stack, cap * sizeof *s) : NULL;
        if (!s) {
            h->mark_overflow = 1;
            return;
        }
        h->mark_stack = s;
        h->mark_cap = cap;
    }
    h->mark_stack[h->mark_top++] = o;
}

static void mark_value(vm_heap *h, vm_type t, vm_value v)
{
    if (vm_type_is_ref(t))
        mark_push(h, v.ref);
}

void vm_gc(vm_t *vm)
{
    vm_heap *h = &vm->heap;
    const vm_program *p = vm->prog;
    /* roots: frames; an inlined body's registers only while the frame runs it (vm/inline.c): outside,
       they are dead, as a returned call's frame is, and their references are cleared so that they
       are null, not freed objects, when the body runs again */
    for (uint32_t f = 0; f < vm->nframes; f++) {
        const vm_frame *fr = &vm->frames[f];
        const vm_method *m = fr->m;
        vm_value *R = vm->stack + fr->base;
        uint32_t at = fr->pc > m->code ? (uint32_t)(fr->pc - m->code) - 1 : UINT32_MAX; /* the instruction */
        uint32_t r = 0;
        for (uint32_t s = 0; s < m->nsites; s++) {
            const vm_inline_site *st = &m->sites[s];
            for (; r < st->base; r++)
                mark_value(h, m->regtypes[r], R[r]);
            bool live = at >= st->start && at < st->end;
            for (; r < (uint32_t)st->base + st->nregs; r++) {
                if (live)
                    mark_value(h, m->regtypes[r], R[r]);
                else if (vm_type_is_ref(m->regtypes[r]))
                    R[r].ref = NULL;
            }
        }
        for (; r < m->nregs; r++)
            mark_value(h, m->regtypes[r], R[r]);
    }
    /* roots: statics and string constants */
    for (uint32_t s = 0; s < p->nstatics; s++)
        mark_value(h, p->statics[s].type, vm->statics[s]);
    for (uint32_t s = 0; s < p->nstrings; s++)
        mark_push(h, vm->strings[s]);
    for (uint32_t r = 0; r < vm->nroots; r++)
        mark_push(h, *vm->roots[r]);
    /* trace; after an overflow, again from every marked record until nothing is left out */
    for (;;) {
        while (h->mark_top) {
            vm_obj *o = h->mark_stack[--h->mark_top];
            const vm_record *rec = &p->records[o->rec];
            for (uint32_t i = 0; i < rec->nfields; i++)
                mark_value(h, rec->fields[i].type, VM_FIELDS(o)[i]);
        }
        if (!h->mark_overflow)
            break;
        h->mark_overflow = 0;
        for (int list = 0; list < 2; list++)
            for (vm_obj *o = list ? h->large : h->objects; o; o = o->next) {
                if (!o->marked || o->kind != VM_T_RECORD)
                    continue;
                const vm_record *rec = &p->records[o->rec];
                for (uint32_t i = 0; i < rec->nfields; i++)
                    mark_value(h, rec->fields[i].type, VM_FIELDS(o)[i]);
            }
    }
    /* sweep: a small object goes to its size's free list, a large one back to malloc */
    size_t live = 0;
    for (int list = 0; list < 2; list++) {
        vm_obj **link = list ? &h->large : &h->objects;
        while (*link) {
            vm_obj *o = *link;
            size_t size = obj_size(o);
            if (o->marked) {
                o->marked = 0;
                live += size;
                link = &o->next;
            } else if (list == 0) {
                *link = o->next;
                o->next = h->free[pool_class(size)];
                h->free[pool_class(size)] = o;
            } else {
                *link = o->next;
                free(o);
            }
        }
    }
    h->used = live;
    h->next_gc = live * 2 < VM_GC_MIN ? VM_GC_MIN : live * 2;
    if (h->next_gc > h->max)
        h->next_gc = h->max;
    h->collections++;
}

/* A small object of size bytes from its free list or the newest chunk (a new one when it is
   used up); NULL when the system has no memory for a chunk. */
static vm_obj *pool_take(vm_heap *h, size_t size)
{
    size_t c = pool_class(size);
    vm_obj *o = h->free[c];
    if (o) {
        h->free[c] = o->next;
        return o;
    }
    size_t take = (c + 1) * VM_POOL_GRAIN;
    if ((size_t)(h->bump_end - h->bump) < take) {
        /* the chunks stay with the VM, each size's on its own free list: at most -Xmx of them,
           past which objects are malloc'ed, so the memory held stays within twice -Xmx */
        if (h->chunk_bytes + VM_POOL_CHUNK > h->max)
            return NULL;
        unsigned char *chunk = malloc(VM_POOL_CHUNK);
        if (!chunk)
            return NULL;
        *(void **)(void *)chunk = h->chunks; /* the chunk's first 16 bytes link the chunks */
        h->chunks = chunk;
        h->chunk_bytes += VM_POOL_CHUNK;
        h->bump = chunk + VM_POOL_GRAIN;
        h->bump_end = chunk + VM_POOL_CHUNK;
    }
    o = (vm_obj *)(void *)h->bump;
    h->bump += take;
    return o;
}

static vm_obj *take(vm_heap *h, size_t size)
{
    if (VM_HEAP_POOL && size <= VM_POOL_MAX) {
        vm_obj *o = pool_take(h, size);
        if (o) {
            memset(o, 0, size);
            o->next = h->objects;
            h->objects = o;
            return o;
        }
        /* no memory for a chunk, or the chunks at -Xmx: a malloc block of its own */
    }
    vm_obj *o = calloc(1, size);
    if (o) {
        o->next = h->large;
        h->large = o;
    }
    return o;
}

/* Allocate size bytes of object (header included), collecting first if due. */
static vm_obj *heap_alloc(vm_t *vm, size_t size)
{
    vm_heap *h = &vm->heap;
    if (h->used + size > h->next_gc)
        vm_gc(vm);
    if (size > h->max || h->used + size > h->max) {
        vm_throw(vm, VM_EXC_OOM, "Java heap space");
        return NULL;
    }
    vm_obj *o = take(h, size);
    if (!o) { /* the system, not -Xmx, is out of memory: free what is garbage and try once more */
        vm_gc(vm);
        o = take(h, size);
    }
    if (!o) {
        vm_throw(vm, VM_EXC_OOM, "Java heap space");
        return NULL;
    }
    h->used += size;
    return o;
}

vm_obj *vm_new_array(vm_t *vm, vm_tkind kind, int64_t length)
{
    if (length < 0) {
        vm_throw(vm, VM_EXC_NEGATIVE_SIZE, "%lld", (long long)length);
        return NULL;
    }
    if (length > VM_MAX_ARRAY) {
        vm_throw(vm, VM_EXC_OOM, "Requested array size exceeds VM limit");
        return NULL;
    }
    vm_obj *o = heap_alloc(vm, sizeof(vm_obj) + (size_t)length * elem_size(kind));
    if (o) {
        o->kind = (uint8_t)kind;
        o->length = (int32_t)length;
    }
    return o;
}

vm_obj *vm_new_record(vm_t *vm, uint16_t rec)
{
    uint32_t n = vm->prog->records[rec].nfields;
    vm_obj *o = heap_alloc(vm, sizeof(vm_obj) + n * sizeof(vm_value));
    if (o) {
        o->kind = VM_T_RECORD;
        o->rec = rec;
        o->length = (int32_t)n;
    }
    return o;
}

void vm_heap_free_all(vm_t *vm)
{
    vm_heap *h = &vm->heap;
    for (vm_obj *o = h->large, *n; o; o = n) {
        n = o->next;
        free(o);
    }
    for (void *c = h->chunks, *n; c; c = n) {
        n = *(void **)c;
        free(c);
    }
    h->objects = h->large = NULL;
    h->chunks = NULL;
    h->chunk_bytes = 0;
    h->bump = h->bump_end = NULL;
    memset(h->free, 0, sizeof h->free);
    h->used = 0;
    free(h->mark_stack);
    h->mark_stack = NULL;
    h->mark_cap = h->mark_top = 0;
}
