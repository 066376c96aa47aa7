/*
 * vm/interp.c — the interpreter loop.
 *
 * Each handler is written once behind vmcase/vmbreak (Lua's lvm.c); the
 * build chooses the dispatch (Meson option "dispatch"): computed goto
 * through a table generated from the opcode list, or a plain switch.
 * pc, the register base R and the current method stay in locals; they are
 * written back to the frame only around calls, allocation and errors.
 *
 * Calls do not recurse in C: a bytecode call pushes a vm_frame and copies
 * the arguments into the callee's fresh register window (the rest of the
 * window is zeroed, so the collector never sees a stale reference). A call
 * of an @IntrinsicCandidate that vm_new linked to a stub runs the stub
 * instead, without a frame (vm/intrinsics.c); other calls pay nothing for it.
 *
 * Every operand was checked by the verifier (vm/verify.c); the only checks
 * left here are Java's runtime ones: bounds, null, division by zero,
 * negative sizes, stack depth and heap exhaustion.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "intrinsics.h"
#include "vm.h"

#ifndef VM_USE_GOTO
#if defined(__GNUC__)
#define VM_USE_GOTO 1
#else
#define VM_USE_GOTO 0
#endif
#endif

/* ---- arithmetic with Java semantics (no undefined behaviour) -------------------------- */
static inline int64_t wrap64(uint64_t v) { return (int64_t)v; }
static inline int64_t int32v(uint64_t v) { return (int64_t)(int32_t)(uint32_t)v; }
static inline uint64_t rotl64(uint64_t x, unsigned n) { n &= 63; return (x << n) | (x >> ((64 - n) & 63)); }
static inline uint64_t rotr64(uint64_t x, unsigned n) { n &= 63; return (x >> n) | (x << ((64 - n) & 63)); }
static inline uint32_t rotl32(uint32_t x, unsigned n) { n &= 31; return (x << n) | (x >> ((32 - n) & 31)); }
static inline uint32_t rotr32(uint32_t x, unsigned n) { n &= 31; return (x >> n) | (x << ((32 - n) & 31)); }
static inline int64_t sar64(int64_t x, unsigned n) { n &= 63; return x >= 0 ? x >> n : ~(~x >> n); }

/* ---- slow paths (VM_COLD: vm/vm.h) --------------------------------------------------------- */

static VM_COLD int throw_npe(vm_t *vm, const vm_method *m, uint32_t reg, const char *what)
{
    return vm_throw(vm, VM_EXC_NPE, "Cannot %s because \"%s\" is null", what, m->regnames[reg]);
}

/* "Cannot read field "x" because "p" is null": verb read or assign, field of record register reg */
static VM_COLD int throw_field_npe(vm_t *vm, const vm_method *m, const char *verb, uint32_t reg, uint32_t field)
{
    const vm_record *r = &vm->prog->records[m->regtypes[reg].rec];
    return vm_throw(vm, VM_EXC_NPE, "Cannot %s field \"%s\" because \"%s\" is null", verb, r->fields[field].name,
                    m->regnames[reg]);
}

static VM_COLD int throw_index(vm_t *vm, int64_t index, int64_t length)
{
    return vm_throw(vm, VM_EXC_AIOOBE, "Index %lld out of bounds for length %lld", (long long)index,
                    (long long)length);
}

/* Java caps printed stack traces at MaxJavaStackTraceDepth frames. */
#define VM_MAX_TRACE 1024

/* Append one formatted line to the trace buffer *t (len bytes used of cap); 0 when out of memory
   (the trace then ends there). */
static VM_COLD int trace_add(char **t, size_t *len, size_t *cap, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(*t + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (n < 0) { /* an encoding error: no line */
            (*t)[*len] = '\0';
            return 1;
        }
        if ((size_t)n < *cap - *len) {
            *len += (size_t)n;
            return 1;
        }
        size_t nc = *cap * 2;
        while (nc < *len + (size_t)n + 1)
            nc *= 2;
        char *nt = realloc(*t, nc);
        if (!nt) {
            (*t)[*len] = '\0';
            return 0;
        }
        *t = nt;
        *cap = nc;
    }
}

/*
 * Record the stack trace of the pending exception (frames from the top down
 * to entry), then pop those frames. A native that threw appears first; an
 * inlined method's or a skipped forwarder's frame above the frame running it.
 * At most VM_MAX_TRACE lines, as Java's MaxJavaStackTraceDepth counts them.
 */
static VM_COLD int unwind(vm_t *vm, uint32_t entry, int status, const vm_method *native)
{
    if (status == VM_EXCEPTION) {
        size_t cap = 256, len = 0;
        char *t = malloc(cap);
        if (t) {
            t[0] = '\0';
            uint32_t printed = 0;
            int ok = 1;
            for (int64_t f = (int64_t)vm->nframes - 1 + (native ? 1 : 0);
                 ok && f >= (int64_t)entry && printed < VM_MAX_TRACE; f--) {
                if (native) {
                    ok = trace_add(&t, &len, &cap, "\tat %s(Native Method)\n", native->qname);
                    native = NULL;
                    printed++;
                    continue;
                }
                const vm_frame *fr = &vm->frames[f];
                const vm_method *m = fr->m;
                if (m->flags & VM_METHOD_NATIVE) {
                    ok = trace_add(&t, &len, &cap, "\tat %s(Native Method)\n", m->qname);
                    printed++;
                    continue;
                }
                uint32_t idx = fr->pc > m->code ? (uint32_t)(fr->pc - m->code) - 1 : 0;
                const vm_method *fw = m->elided && idx < m->ncode ? m->elided[idx] : NULL;
                const vm_inlined *in = m->inlined && idx < m->ncode && m->inlined[idx].callee ? &m->inlined[idx] : NULL;
                /* above it: the inlined method's frame at its line, or the skipped forwarder's at its call */
                const vm_method *above = in ? in->callee : fw;
                if (above) {
                    ok = trace_add(&t, &len, &cap, "\tat %s(%s:%u)\n", above->qname, above->module->file,
                                   in ? in->line : fw->lines[vm_forwarder_call(fw)]);
                    printed++;
                }
                if (ok && printed < VM_MAX_TRACE) {
                    ok = trace_add(&t, &len, &cap, "\tat %s(%s:%u)\n", m->qname, m->module->file,
                                   idx < m->ncode ? m->lines[idx] : m->line);
                    printed++;
                }
            }
        }
        free(vm->exc_trace);
        vm->exc_trace = t;
    }
    vm->nframes = entry;
    return status;
}

/* ---- the loop ---------------------------------------------------------------------------- */
/*
 * The loop holds the instruction word in a 64-bit variable, and R's operands take their register
 * numbers in 64 bits (vm/opcodes.h's macros work in 32): the number then indexes R with no
 * zero-extension between the shift and the load, one instruction less in most handlers.
 */
#define RA   (R[(i >> VM_POS_A) & VM_MASK(VM_SIZE_A)])
#define RB   (R[(i >> VM_POS_B) & VM_MASK(VM_SIZE_B)])
#define RC   (R[(i >> VM_POS_C) & VM_MASK(VM_SIZE_C)])
#define RA4  (R[GET_A4(i)])
#define RB4  (R[GET_B4(i)])
#define RC4  (R[GET_C4(i)])
#define RD4  (R[GET_D4(i)])

#define savepc()       (fr->pc = pc)
#define vmfetch()      (i = *pc++)
#define THROW(...)     do { savepc(); vm_throw(vm, __VA_ARGS__); goto exception; } while (0)
#define NPE(reg, what) do { savepc(); throw_npe(vm, m, (reg), (what)); goto exception; } while (0)
#define FIELD_NPE(verb, reg, field) \
    do { savepc(); throw_field_npe(vm, m, (verb), (reg), (field)); goto exception; } while (0)
#define CHECK_INDEX(o, idx)                                                  \
    do {                                                                     \
        if ((uint64_t)(idx) >= (uint64_t)(o)->length) {                      \
            savepc();                                                        \
            throw_index(vm, (idx), (o)->length);                             \
            goto exception;                                                  \
        }                                                                    \
    } while (0)
/* multi-byte views check as Java's VarHandle does: against length - (size - 1) */
#define CHECK_VIEW(o, idx, size)                                             \
    do {                                                                     \
        int64_t lim_ = (int64_t)(o)->length - ((size) - 1);                  \
        if ((idx) < 0 || (idx) >= lim_) {                                    \
            savepc();                                                        \
            throw_index(vm, (idx), lim_);                                    \
            goto exception;                                                  \
        }                                                                    \
    } while (0)
/* a taken jump backwards (a loop's back-edge) counts towards compiling the method, and enters
   its compiled code when there is some (docs/compiler.md); only with the compiler on */
#define COND_JUMP(c)                                                         \
    do {                                                                     \
        if (c) {                                                             \
            int32_t sj_ = GET_sJ(*pc);                                       \
            pc += sj_ + 1;                                                   \
            if (sj_ < 0 && jitm)                                             \
                goto do_backedge;                                            \
        } else {                                                             \
            pc++;                                                            \
        }                                                                    \
    } while (0)
/* after a call returned to m at pc (a native's, a stub's, or a bytecode callee's): go on in m's
   compiled code when it has some */
#define RESUME_COMPILED()                                                    \
    do {                                                                     \
        if (jitm) {                                                          \
            const void *const *e_ = jitm[m->index].entry;                    \
            if (e_ && (target = e_[pc - m->code]) != NULL)                   \
                goto do_enter;                                               \
        }                                                                    \
    } while (0)

#if VM_USE_GOTO
#define vmdispatch(o) goto *disptab[o];
#define vmcase(l)     L_##l:
#define vmbreak       vmfetch(); vmdispatch(GET_OP(i))
#define vmnext        do { vmfetch(); vmdispatch(GET_OP(i)) } while (0) /* after a call or a return: dispatch there too */
#else
#define vmdispatch(o) switch (o)
#define vmcase(l)     case OP_##l:
#define vmbreak       break
#define vmnext        continue
#endif

/* Compile m now that its counter passed the threshold; false (and never again) when it is not
   compiled */
static VM_COLD bool compile_method(vm_t *vm, const vm_method *m, vm_jit_method *j)
{
    j->entry = vm->jit_hooks->compile(vm, m);
    if (!j->entry)
        j->count = INT64_MIN;
    return j->entry != NULL;
}

/* Count one invocation or back-edge of m; true when m has compiled code (compiled now, perhaps) */
static inline bool jit_count(vm_t *vm, const vm_method *m, vm_jit_method *jitm)
{
    vm_jit_method *j = &jitm[m->index];
    return j->entry || (++j->count > vm->compile_threshold && compile_method(vm, m, j));
}

bool vm_jit_count(vm_t *vm, const vm_method *m) { return jit_count(vm, m, vm->jitm); }

#define EXECUTE_NAME execute_interp
#define EXECUTE_JIT 0
#include "interp_execute.h"
#undef EXECUTE_NAME
#undef EXECUTE_JIT
#define EXECUTE_NAME execute_jit
#define EXECUTE_JIT 1
#include "interp_execute.h"
#undef EXECUTE_NAME
#undef EXECUTE_JIT

/* the interpreter's loop from the top frame (vm->frames[entry]) until it returns */
static int execute(vm_t *vm, uint32_t entry, vm_value *result)
{
    return vm->jitm ? execute_jit(vm, entry, result) : execute_interp(vm, entry, result);
}

int vm_call(vm_t *vm, const vm_method *m, const vm_value *args, vm_value *result)
{
    uint32_t base = 0;
    if (vm->nframes) {
        const vm_frame *top = &vm->frames[vm->nframes - 1];
        base = top->base + top->m->nregs;
    }
    vm->exc = VM_EXC_NONE;
    if (!vm_stack_room(vm, base + m->nregs))
        return vm_throw(vm, VM_EXC_STACK_OVERFLOW, NULL);
    if (m->flags & VM_METHOD_ABSTRACT)
        return vm_throw(vm, VM_EXC_ABSTRACT_METHOD, "abstract method %s has no body", m->qname);
    uint32_t entry = vm->nframes;
    vm_value *R = vm->stack + base;
    if (m->nparams)
        memcpy(R, args, m->nparams * sizeof *R);
    memset(R + m->nparams, 0, (size_t)(m->nregs - m->nparams) * sizeof *R);
    vm_frame *fr = &vm->frames[vm->nframes++];
    fr->m = m;
    fr->base = base;
    fr->pc = m->code;
    if (m->flags & VM_METHOD_NATIVE) {
        vm_value ret = {0};
        int st = m->native(vm, R, &ret);
        if (st != VM_OK)
            return unwind(vm, entry, st, NULL);
        vm->nframes = entry;
        if (result)
            *result = ret;
        return VM_OK;
    }
    if (m->flags & VM_METHOD_INTRINSIC) {
        vm_value ret = {0};
        if (vm_intrinsic_call(vm, m, R, &ret)) {
            vm->nframes = entry;
            if (result)
                *result = ret;
            return VM_OK;
        }
    }
    return execute(vm, entry, result);
}
