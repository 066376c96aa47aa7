/*
 * vm/vm.c — a VM instance: creation (linking a loaded program to a heap,
 * statics, string constants and intrinsic stubs), exceptions, teardown.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE (POSIX only from 2024) */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "intrinsics.h"
#include "vm.h"

static const char *const exc_classes[] = {
    [VM_EXC_NONE] = "",
    [VM_EXC_AIOOBE] = "java.lang.ArrayIndexOutOfBoundsException",
    [VM_EXC_NEGATIVE_SIZE] = "java.lang.NegativeArraySizeException",
    [VM_EXC_NPE] = "java.lang.NullPointerException",
    [VM_EXC_ARITHMETIC] = "java.lang.ArithmeticException",
    [VM_EXC_ARRAY_STORE] = "java.lang.ArrayStoreException",
    [VM_EXC_STACK_OVERFLOW] = "java.lang.StackOverflowError",
    [VM_EXC_OOM] = "java.lang.OutOfMemoryError",
    [VM_EXC_IOOBE] = "java.lang.IndexOutOfBoundsException",
    [VM_EXC_NAMED] = "",
    [VM_EXC_ILLEGAL_ARGUMENT] = "java.lang.IllegalArgumentException",
    [VM_EXC_CLASS_CAST] = "java.lang.ClassCastException",
    [VM_EXC_ABSTRACT_METHOD] = "java.lang.AbstractMethodError",
};

const char *vm_exc_class(vm_exc e) { return exc_classes[e]; }

int vm_throw(vm_t *vm, vm_exc e, const char *fmt, ...)
{
    vm->exc = e;
    vm->exc_msg[0] = '\0';
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(vm->exc_msg, sizeof vm->exc_msg, fmt, ap);
        va_end(ap);
    }
    return VM_EXCEPTION;
}

void vm_push_root(vm_t *vm, vm_obj **slot)
{
    if (vm->nroots == VM_MAX_ROOTS) {
        fputs("minivm: too many C roots (VM_MAX_ROOTS)\n", stderr);
        abort();
    }
    vm->roots[vm->nroots++] = slot;
}

void vm_pop_roots(vm_t *vm, uint32_t n) { vm->nroots = n > vm->nroots ? 0 : vm->nroots - n; }

void vm_print_exception(const vm_t *vm, FILE *f)
{
    fprintf(f, "Exception in thread \"main\" %s", vm->exc == VM_EXC_NAMED ? vm->exc_name : vm_exc_class(vm->exc));
    if (vm->exc_msg[0])
        fprintf(f, ": %s", vm->exc_msg);
    fputc('\n', f);
    if (vm->exc_trace)
        fputs(vm->exc_trace, f);
}

/* Create the objects a static starts with (array literals, strings). */
static int init_statics(vm_t *vm)
{
    const vm_program *p = vm->prog;
    for (uint32_t s = 0; s < p->nstatics; s++) {
        const vm_static *st = &p->statics[s];
        if (vm_type_is_int(st->type)) {
            vm->statics[s].i = st->init_int;
            continue;
        }
        if (!st->has_array_init)
            continue;
        vm_obj *o = vm_new_array(vm, (vm_tkind)st->type.kind, st->init_count);
        if (!o)
            return -1;
        for (uint32_t e = 0; e < st->init_count; e++) {
            int64_t v = st->init_elems[e];
            switch (st->type.kind) {
            case VM_T_BYTES: VM_BYTES(o)[e] = (int8_t)(uint8_t)v; break;
            case VM_T_INTS: VM_INTS(o)[e] = (int32_t)(uint32_t)v; break;
            default: VM_LONGS(o)[e] = v; break;
            }
        }
        vm->statics[s].ref = o;
    }
    for (uint32_t s = 0; s < p->nstrings; s++) {
        vm_obj *o = vm_new_array(vm, VM_T_BYTES, p->strings[s].len);
        if (!o)
            return -1;
        memcpy(VM_BYTES(o), p->strings[s].bytes, p->strings[s].len);
        vm->strings[s] = o;
    }
    return 0;
}

/*
 * The register stack and the frames: zeroed address space, committed page by
 * page as calls reach it, as a thread stack is (calloc would do, but not
 * under MALLOC_PERTURB_, which makes it write every byte). NULL when the
 * system refuses the space.
 */
static void *reserve(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void release(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes);
}

vm_t *vm_new(const vm_program *p, const vm_options *opt, char *err, size_t errlen)
{
    vm_t *vm = calloc(1, sizeof *vm);
    if (!vm) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    vm->prog = p;
    vm->opt = *opt;
    if (!vm->opt.heap_max)
        vm->opt.heap_max = VM_DEFAULT_HEAP_MAX;
    if (!vm->opt.stack_size)
        vm->opt.stack_size = VM_DEFAULT_STACK_SIZE;
    vm->heap.max = vm->opt.heap_max;
    vm->heap.next_gc = vm->heap.max < ((size_t)4 << 20) ? vm->heap.max : ((size_t)4 << 20);
    size_t slots = vm->opt.stack_size / sizeof(vm_value);
    if (slots > UINT32_MAX / 2)
        slots = UINT32_MAX / 2;
    vm->stack_cap = (uint32_t)slots;
    /* each frame takes VM_FRAME_SLOTS of the budget (vm_stack_room): this many never fill the array;
       both arrays are committed only as far as calls reach (calloc of untouched pages) */
    vm->frame_cap = vm->stack_cap / VM_FRAME_SLOTS + 1;
    vm->stack = reserve((vm->stack_cap + VM_STACK_SLACK) * sizeof *vm->stack);
    vm->frames = reserve(vm->frame_cap * sizeof *vm->frames);
    vm->statics = calloc(p->nstatics + 1, sizeof *vm->statics);
    vm->strings = calloc(p->nstrings + 1, sizeof *vm->strings);
    if (!vm->stack || !vm->frames || !vm->statics || !vm->strings) {
        snprintf(err, errlen, "out of memory");
        vm_free(vm);
        return NULL;
    }
    if (init_statics(vm) != 0) {
        snprintf(err, errlen, "%s: %s while creating constants", vm_exc_class(vm->exc), vm->exc_msg);
        vm_free(vm);
        return NULL;
    }
    vm_intrinsics_link(vm);
    return vm;
}

void vm_free(vm_t *vm)
{
    if (!vm)
        return;
    if (vm->jit_hooks)
        vm->jit_hooks->release(vm);
    vm_heap_free_all(vm);
    release(vm->stack, (vm->stack_cap + VM_STACK_SLACK) * sizeof *vm->stack);
    release(vm->frames, vm->frame_cap * sizeof *vm->frames);
    free(vm->statics);
    free(vm->strings);
    free(vm->exc_trace);
    free(vm);
}
