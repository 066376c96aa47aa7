/*
 * vm/heap.c — object allocation and a precise mark-sweep collector.
 *
 * Every object is malloc'ed and linked on one list. A collection marks from
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

static size_t elem_size(vm_tkind kind)
{
    switch (kind) {
    case VM_T_BYTES: return 1;
    case VM_T_INTS: return 4;
    default: return 8;
    }
}

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
    /* roots: frames */
    for (uint32_t f = 0; f < vm->nframes; f++) {
        const vm_frame *fr = &vm->frames[f];
        const vm_value *R = vm->stack + fr->base;
        for (uint32_t r = 0; r < fr->m->nregs; r++)
            mark_value(h, fr->m->regtypes[r], R[r]);
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
        for (vm_obj *o = h->objects; o; o = o->next) {
            if (!o->marked || o->kind != VM_T_RECORD)
                continue;
            const vm_record *rec = &p->records[o->rec];
            for (uint32_t i = 0; i < rec->nfields; i++)
                mark_value(h, rec->fields[i].type, VM_FIELDS(o)[i]);
        }
    }
    /* sweep */
    size_t live = 0;
    vm_obj **link = &h->objects;
    while (*link) {
        vm_obj *o = *link;
        if (o->marked) {
            o->marked = 0;
            live += sizeof *o + (o->kind == VM_T_RECORD ? (size_t)o->length * sizeof(vm_value)
                                                        : (size_t)o->length * elem_size(o->kind));
            link = &o->next;
        } else {
            *link = o->next;
            free(o);
        }
    }
    h->used = live;
    h->next_gc = live * 2 < VM_GC_MIN ? VM_GC_MIN : live * 2;
    if (h->next_gc > h->max)
        h->next_gc = h->max;
    h->collections++;
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
    vm_obj *o = calloc(1, size);
    if (!o) { /* the system, not -Xmx, is out of memory: free what is garbage and try once more */
        vm_gc(vm);
        o = calloc(1, size);
    }
    if (!o) {
        vm_throw(vm, VM_EXC_OOM, "Java heap space");
        return NULL;
    }
    o->next = h->objects;
    h->objects = o;
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
    for (vm_obj *o = h->objects, *n; o; o = n) {
        n = o->next;
        free(o);
    }
    h->objects = NULL;
    h->used = 0;
    free(h->mark_stack);
    h->mark_stack = NULL;
    h->mark_cap = h->mark_top = 0;
}
