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

/* GCC would turn do_call's short register loops back into memcpy and memset calls */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns", "no-crossjumping", "no-gcse")))
#endif
static int execute(vm_t *vm, uint32_t entry, vm_value *result)
{
#if VM_USE_GOTO
#define X(name, ...) &&L_##name,
    static const void *const disptab[VM_NOPCODES] = {VM_OPCODES(X)};
#undef X
#endif
    const vm_program *prog = vm->prog;
    const int64_t *k = prog->k;
    vm_frame *fr = &vm->frames[vm->nframes - 1];
    const vm_method *m = fr->m;
    vm_value *R = vm->stack + fr->base;
    const uint32_t *pc = m->code;
    const vm_method *native = NULL;
    int status = VM_EXCEPTION;
    uint64_t i;                      /* the instruction word (32 bits) */
    vm_value rv;
    int has_result;
    uint32_t first;
    const vm_method *callee;
    vm_value *dst;                   /* where a native's or a stub's result goes */
    vm_value *const stack = vm->stack; /* reserved once: it never moves */
    vm_frame *const bottom = &vm->frames[entry]; /* the entry frame: returning from it ends execute */
    /* -Xss less VM_FRAME_SLOTS for each frame: a new frame's registers and its own VM_FRAME_SLOTS
       must end by it (vm_stack_room); it moves with every call and return, never below stack */
    int64_t room = (int64_t)vm->stack_cap - (int64_t)vm->nframes * VM_FRAME_SLOTS;
    const vm_value *limit = stack + (room > 0 ? room : 0);
    vm_jit_method *const jitm = vm->jitm; /* NULL: no compiler */
    const void *target;              /* where compiled code is entered (do_enter) */

    if (jitm && jit_count(vm, m, jitm)) {
        target = jitm[m->index].entry[0];
        goto do_enter;
    }
    for (;;) {
        vmfetch();
        vmdispatch(GET_OP(i))
        {
            vmcase(NOP) { vmbreak; }
            vmcase(MOV) { RA = RB; vmbreak; }
            vmcase(LDI) { RA.i = GET_sBx(i); vmbreak; }
            vmcase(LDK) { RA.i = k[GET_Bx(i)]; vmbreak; }
            vmcase(LDNULL) { RA.ref = NULL; vmbreak; }
            vmcase(LDSTR) { RA.ref = vm->strings[GET_Bx(i)]; vmbreak; }
            vmcase(GETSTATIC) { RA = vm->statics[GET_Bx(i)]; vmbreak; }
            vmcase(PUTSTATIC) { vm->statics[GET_Bx(i)] = RA; vmbreak; }

            vmcase(ADD) { RA.i = wrap64((uint64_t)RB.i + (uint64_t)RC.i); vmbreak; }
            vmcase(ADDI) { RA.i = wrap64((uint64_t)RB.i + (uint64_t)(int64_t)GET_sC(i)); vmbreak; }
            vmcase(SUB) { RA.i = wrap64((uint64_t)RB.i - (uint64_t)RC.i); vmbreak; }
            vmcase(SUBI) { RA.i = wrap64((uint64_t)RB.i - (uint64_t)(int64_t)GET_sC(i)); vmbreak; }
            vmcase(MUL) { RA.i = wrap64((uint64_t)RB.i * (uint64_t)RC.i); vmbreak; }
            vmcase(DIV) {
                int64_t d = RC.i;
                if (d == 0)
                    THROW(VM_EXC_ARITHMETIC, "/ by zero");
                RA.i = d == -1 ? wrap64(0 - (uint64_t)RB.i) : RB.i / d;
                vmbreak;
            }
            vmcase(REM) {
                int64_t d = RC.i;
                if (d == 0)
                    THROW(VM_EXC_ARITHMETIC, "/ by zero");
                RA.i = d == -1 ? 0 : RB.i % d;
                vmbreak;
            }
            vmcase(NEG) { RA.i = wrap64(0 - (uint64_t)RB.i); vmbreak; }
            vmcase(AND) { RA.i = RB.i & RC.i; vmbreak; }
            vmcase(ANDI) { RA.i = RB.i & (int64_t)GET_C(i); vmbreak; }
            vmcase(OR) { RA.i = RB.i | RC.i; vmbreak; }
            vmcase(XOR) { RA.i = RB.i ^ RC.i; vmbreak; }
            vmcase(ANDN) { RA.i = RB.i & ~RC.i; vmbreak; }
            vmcase(NOT) { RA.i = ~RB.i; vmbreak; }
            vmcase(SHL) { RA.i = wrap64((uint64_t)RB.i << (RC.i & 63)); vmbreak; }
            vmcase(SHLI) { RA.i = wrap64((uint64_t)RB.i << GET_C(i)); vmbreak; }
            vmcase(SHR) { RA.i = wrap64((uint64_t)RB.i >> (RC.i & 63)); vmbreak; }
            vmcase(SHRI) { RA.i = wrap64((uint64_t)RB.i >> GET_C(i)); vmbreak; }
            vmcase(SAR) { RA.i = sar64(RB.i, (unsigned)(RC.i & 63)); vmbreak; }
            vmcase(SARI) { RA.i = sar64(RB.i, GET_C(i)); vmbreak; }
            vmcase(ROL) { RA.i = wrap64(rotl64((uint64_t)RB.i, (unsigned)RC.i)); vmbreak; }
            vmcase(ROLI) { RA.i = wrap64(rotl64((uint64_t)RB.i, GET_C(i))); vmbreak; }
            vmcase(ROR) { RA.i = wrap64(rotr64((uint64_t)RB.i, (unsigned)RC.i)); vmbreak; }
            vmcase(RORI) { RA.i = wrap64(rotr64((uint64_t)RB.i, GET_C(i))); vmbreak; }

            vmcase(XOR3) { RA4.i = RB4.i ^ RC4.i ^ RD4.i; vmbreak; }
            vmcase(BCAX) { RA4.i = RB4.i ^ (RC4.i & ~RD4.i); vmbreak; }
            vmcase(XROL) { RA4.i = wrap64(rotl64((uint64_t)(RB4.i ^ RC4.i), GET_D4(i))); vmbreak; }
            vmcase(RAX1) { RA.i = RB.i ^ wrap64(rotl64((uint64_t)RC.i, 1)); vmbreak; }

            vmcase(ADDW) { RA.i = int32v((uint64_t)RB.i + (uint64_t)RC.i); vmbreak; }
            vmcase(ADDWI) { RA.i = int32v((uint64_t)RB.i + (uint64_t)(int64_t)GET_sC(i)); vmbreak; }
            vmcase(SUBW) { RA.i = int32v((uint64_t)RB.i - (uint64_t)RC.i); vmbreak; }
            vmcase(MULW) { RA.i = int32v((uint64_t)RB.i * (uint64_t)RC.i); vmbreak; }
            vmcase(SHLW) { RA.i = int32v((uint64_t)(uint32_t)RB.i << (RC.i & 31)); vmbreak; }
            vmcase(SHLWI) { RA.i = int32v((uint64_t)(uint32_t)RB.i << GET_C(i)); vmbreak; }
            vmcase(SHRW) { RA.i = int32v((uint32_t)RB.i >> (RC.i & 31)); vmbreak; }
            vmcase(SHRWI) { RA.i = int32v((uint32_t)RB.i >> GET_C(i)); vmbreak; }
            vmcase(SARW) { RA.i = sar64(int32v((uint64_t)RB.i), (unsigned)(RC.i & 31)); vmbreak; }
            vmcase(SARWI) { RA.i = sar64(int32v((uint64_t)RB.i), GET_C(i)); vmbreak; }
            vmcase(ROLW) { RA.i = int32v(rotl32((uint32_t)RB.i, (unsigned)RC.i)); vmbreak; }
            vmcase(ROLWI) { RA.i = int32v(rotl32((uint32_t)RB.i, GET_C(i))); vmbreak; }
            vmcase(RORW) { RA.i = int32v(rotr32((uint32_t)RB.i, (unsigned)RC.i)); vmbreak; }
            vmcase(RORWI) { RA.i = int32v(rotr32((uint32_t)RB.i, GET_C(i))); vmbreak; }
            vmcase(L2I) { RA.i = int32v((uint64_t)RB.i); vmbreak; }
            vmcase(I2B) { RA.i = (int64_t)(int8_t)(uint8_t)RB.i; vmbreak; }
            vmcase(ZEXTW) { RA.i = (int64_t)(uint32_t)RB.i; vmbreak; }

            vmcase(JMP) {
                pc += GET_sJ(i);
                if (GET_sJ(i) < 0 && jitm)
                    goto do_backedge;
                vmbreak;
            }
            vmcase(EQ) { COND_JUMP(RA.i == RB.i); vmbreak; }
            vmcase(NE) { COND_JUMP(RA.i != RB.i); vmbreak; }
            vmcase(LT) { COND_JUMP(RA.i < RB.i); vmbreak; }
            vmcase(GE) { COND_JUMP(RA.i >= RB.i); vmbreak; }
            vmcase(LE) { COND_JUMP(RA.i <= RB.i); vmbreak; }
            vmcase(GT) { COND_JUMP(RA.i > RB.i); vmbreak; }
            vmcase(EQI) { COND_JUMP(RA.i == GET_sB(i)); vmbreak; }
            vmcase(NEI) { COND_JUMP(RA.i != GET_sB(i)); vmbreak; }
            vmcase(LTI) { COND_JUMP(RA.i < GET_sB(i)); vmbreak; }
            vmcase(GEI) { COND_JUMP(RA.i >= GET_sB(i)); vmbreak; }
            vmcase(LEI) { COND_JUMP(RA.i <= GET_sB(i)); vmbreak; }
            vmcase(GTI) { COND_JUMP(RA.i > GET_sB(i)); vmbreak; }
            vmcase(EQR) { COND_JUMP(RA.ref == RB.ref); vmbreak; }
            vmcase(NER) { COND_JUMP(RA.ref != RB.ref); vmbreak; }
            vmcase(ISNULL) { COND_JUMP(RA.ref == NULL); vmbreak; }
            vmcase(NONNULL) { COND_JUMP(RA.ref != NULL); vmbreak; }

/* the array instructions, one shape each: NAME, the element's Java name for a null's message,
   where the index comes from, the elements, and (stores) the conversion of the value */
#define NEW_ARRAY(NAME, kind)                                    \
    vmcase(NAME)                                                 \
    {                                                            \
        savepc();                                                \
        vm_obj *o = vm_new_array(vm, (kind), RB.i);              \
        if (!o)                                                  \
            goto exception;                                      \
        RA.ref = o;                                              \
        vmbreak;                                                 \
    }
#define ARRAY_LOAD(NAME, what, index, elems)                     \
    vmcase(NAME)                                                 \
    {                                                            \
        vm_obj *o = RB.ref;                                      \
        int64_t x = (index);                                     \
        if (!o)                                                  \
            NPE(GET_B(i), "load from " what " array");           \
        CHECK_INDEX(o, x);                                       \
        RA.i = elems(o)[x];                                      \
        vmbreak;                                                 \
    }
#define ARRAY_STORE(NAME, what, index, elems, conv)              \
    vmcase(NAME)                                                 \
    {                                                            \
        vm_obj *o = RA.ref;                                      \
        int64_t x = (index);                                     \
        if (!o)                                                  \
            NPE(GET_A(i), "store to " what " array");            \
        CHECK_INDEX(o, x);                                       \
        elems(o)[x] = conv(RC.i);                                \
        vmbreak;                                                 \
    }
#define AS_BYTE(v) ((int8_t)(uint8_t)(v))
#define AS_INT(v)  ((int32_t)(uint32_t)(v))
#define AS_LONG(v) (v)
            NEW_ARRAY(NEWBA, VM_T_BYTES)
            NEW_ARRAY(NEWIA, VM_T_INTS)
            NEW_ARRAY(NEWLA, VM_T_LONGS)
            vmcase(ALEN) {
                vm_obj *o = RB.ref;
                if (!o)
                    NPE(GET_B(i), "read the array length");
                RA.i = o->length;
                vmbreak;
            }
            ARRAY_LOAD(BALOAD, "byte/boolean", RC.i, VM_BYTES)
            ARRAY_LOAD(IALOAD, "int", RC.i, VM_INTS)
            ARRAY_LOAD(LALOAD, "long", RC.i, VM_LONGS)
            ARRAY_LOAD(LALOADI, "long", GET_C(i), VM_LONGS)
            ARRAY_STORE(BASTORE, "byte/boolean", RB.i, VM_BYTES, AS_BYTE)
            ARRAY_STORE(IASTORE, "int", RB.i, VM_INTS, AS_INT)
            ARRAY_STORE(LASTORE, "long", RB.i, VM_LONGS, AS_LONG)
            ARRAY_STORE(LASTOREI, "long", GET_B(i), VM_LONGS, AS_LONG)
#undef NEW_ARRAY
#undef ARRAY_LOAD
#undef ARRAY_STORE
#undef AS_BYTE
#undef AS_INT
#undef AS_LONG
#define VIEW_LOAD(NAME, size, conv, fn)                          \
    vmcase(NAME)                                                 \
    {                                                            \
        vm_obj *o = RB.ref;                                      \
        int64_t x = RC.i;                                        \
        if (!o)                                                  \
            NPE(GET_B(i), "load from byte/boolean array");       \
        CHECK_VIEW(o, x, size);                                  \
        RA.i = conv(fn(VM_BYTES(o) + x, size));                  \
        vmbreak;                                                 \
    }
#define VIEW_STORE(NAME, size, fn)                               \
    vmcase(NAME)                                                 \
    {                                                            \
        vm_obj *o = RA.ref;                                      \
        int64_t x = RB.i;                                        \
        if (!o)                                                  \
            NPE(GET_A(i), "store to byte/boolean array");        \
        CHECK_VIEW(o, x, size);                                  \
        fn(VM_BYTES(o) + x, (uint64_t)RC.i, size);               \
        vmbreak;                                                 \
    }
            VIEW_LOAD(LDLE64, 8, wrap64, ld_le)
            VIEW_LOAD(LDLE32, 4, int32v, ld_le)
            VIEW_LOAD(LDBE64, 8, wrap64, ld_be)
            VIEW_LOAD(LDBE32, 4, int32v, ld_be)
            VIEW_STORE(STLE64, 8, st_le)
            VIEW_STORE(STLE32, 4, st_le)
            VIEW_STORE(STBE64, 8, st_be)
            VIEW_STORE(STBE32, 4, st_be)
#undef VIEW_LOAD
#undef VIEW_STORE

            vmcase(NEW) {
                savepc();
                vm_obj *o = vm_new_record(vm, (uint16_t)GET_Bx(i));
                if (!o)
                    goto exception;
                RA.ref = o;
                vmbreak;
            }
            vmcase(GETF) {
                vm_obj *o = RB.ref;
                if (!o)
                    FIELD_NPE("read", GET_B(i), GET_C(i));
                RA = VM_FIELDS(o)[GET_C(i)];
                vmbreak;
            }
            vmcase(PUTF) {
                vm_obj *o = RA.ref;
                if (!o)
                    FIELD_NPE("assign", GET_A(i), GET_B(i));
                VM_FIELDS(o)[GET_B(i)] = RC;
                vmbreak;
            }

            vmcase(CALL) {
                first = GET_A(i) + 1;
                dst = &RA;
                callee = prog->methods[GET_Bx(i)];
                goto do_call;
            }
            vmcase(CALLV) {
                first = GET_A(i);
                dst = &rv;
                callee = prog->methods[GET_Bx(i)];
                goto do_call;
            }
            vmcase(CALLVIRT) {
                first = GET_A(i) + 1;
                dst = &RA;
                goto do_virtual;
            }
            vmcase(CALLVIRTV) {
                first = GET_A(i);
                dst = &rv;
                goto do_virtual;
            }
            vmcase(CHECKCAST) {
                vm_obj *o = RB.ref;
                uint16_t want = m->regtypes[GET_A(i)].rec;
                if (o && !vm_record_is_a(prog->records, o->rec, want))
                    THROW(VM_EXC_CLASS_CAST, "class %s cannot be cast to class %s", prog->records[o->rec].qname,
                          prog->records[want].qname);
                RA.ref = o;
                vmbreak;
            }
            vmcase(RET) {
                rv = RA;
                has_result = 1;
                goto do_return;
            }
            vmcase(RETV) {
                rv.i = 0;
                has_result = 0;
                goto do_return;
            }
#if !VM_USE_GOTO
        default:
            abort(); /* unreachable: the verifier rejects unknown opcodes */
#endif
        }
        continue;

    do_virtual: {
        /* the receiver (the first argument) picks the body: one vtable load */
        const vm_method *declared = prog->methods[GET_Bx(i)];
        vm_obj *recv = R[first].ref;
        if (!recv) {
            savepc();
            /* at a skipped forwarder's call, the receiver has the forwarder's name for it */
            const vm_method *fw = m->elided ? m->elided[pc - m->code - 1] : NULL;
            const char *rname = m->regnames[first];
            if (fw) {
                uint32_t fwi = fw->code[vm_forwarder_call(fw)];
                rname = fw->regnames[GET_OP(fwi) == OP_CALLVIRT ? GET_A(fwi) + 1 : GET_A(fwi)];
            }
            vm_throw(vm, VM_EXC_NPE, "Cannot invoke \"%s()\" because \"%s\" is null", declared->qname, rname);
            goto exception;
        }
        callee = prog->records[recv->rec].vtable[declared->vslot];
        if (callee->flags & VM_METHOD_ABSTRACT) {
            savepc();
            vm_throw(vm, VM_EXC_ABSTRACT_METHOD,
                     "Receiver class %s does not define or inherit an implementation of the resolved method "
                     "'abstract %s' of %s.",
                     prog->records[recv->rec].qname, callee->qname, prog->records[callee->regtypes[0].rec].qname);
            goto exception;
        }
        goto do_call;
    }

    do_call: {
        /* CALL: R[A] := f(R[A+1]..); CALLV: f(R[A]..); first is the first argument */
        savepc();
        /* one test for both kinds of callee that may not run bytecode; they write their result
           straight to dst: R[A], or a scratch value for the void forms (a native sets it only when
           it returns VM_OK, the intrinsic only when it ran the stub) */
        if (callee->flags & (VM_METHOD_NATIVE | VM_METHOD_INTRINSIC)) {
            if (callee->flags & VM_METHOD_NATIVE) {
                int st = callee->native(vm, R + first, dst);
                if (st != VM_OK) {
                    status = st;
                    native = callee;
                    goto exception;
                }
                RESUME_COMPILED();
                vmnext;
            }
            /* 0: not linked, or arguments the stub must not see: the bytecode runs */
            if (vm_intrinsic_call(vm, callee, R + first, dst)) {
                RESUME_COMPILED();
                vmnext;
            }
        }
        vm_value *nr = R + m->nregs;
        if (nr + callee->nregs + VM_FRAME_SLOTS > limit) /* inside the stack's slack: VM_STACK_SLACK */
            THROW(VM_EXC_STACK_OVERFLOW, NULL);
        fr->ret_reg = (uint8_t)GET_A(i);
        fr->ret_pc = NULL; /* the callee returns to the interpreter (vm_frame) */
        /* a few registers each, without memcpy and memset calls: four values are copied whatever
           the count (those past the arguments are garbage the clearing then overwrites, or free
           stack past the window), and the clearing goes four at a time: together they may pass
           the window by up to 4 slots, which the stack keeps free (VM_STACK_SLACK) */
        const vm_value *args = R + first;
        uint32_t np = callee->nparams, nregs = callee->nregs, r;
        nr[0] = args[0];
        nr[1] = args[1];
        nr[2] = args[2];
        nr[3] = args[3];
        for (r = 4; r < np; r++)
            nr[r] = args[r];
        for (r = np; r < nregs; r += 4) {
            nr[r].i = 0;
            nr[r + 1].i = 0;
            nr[r + 2].i = 0;
            nr[r + 3].i = 0;
        }
        fr++;
        vm->nframes++;
        limit -= VM_FRAME_SLOTS;
        fr->m = callee;
        fr->base = (uint32_t)(nr - stack);
        m = callee;
        R = nr;
        pc = callee->code;
        if (jitm && jit_count(vm, m, jitm)) {
            target = jitm[m->index].entry[0];
            goto do_enter;
        }
        vmnext;
    }

    do_return:
        vm->nframes--;
        if (fr == bottom) {
            if (result)
                *result = rv;
            return VM_OK;
        }
        fr--;
        limit += VM_FRAME_SLOTS;
        m = fr->m;
        R = stack + fr->base;
        pc = fr->pc;
        if (has_result)
            R[fr->ret_reg] = rv;
        RESUME_COMPILED();
        vmnext;

    do_backedge:
        /* pc is the jump's target in m: compiled code is entered there (on-stack replacement,
           the frame as it is) when m has some, or once the back-edge compiled it */
        if (jit_count(vm, m, jitm) && vm->jit_osr && (target = jitm[m->index].entry[pc - m->code]) != NULL) {
            vm->jit_osr_entries++;
            goto do_enter;
        }
        vmnext;

    do_enter: {
        /* compiled code runs in this frame until a word it leaves to the interpreter: a call or a
           return, or one whose check failed (executed here, so it throws as interpreted) */
        const uint32_t *at = vm->jit_enter(vm->jit_ctx, R, fr, target, bottom);
        /* compiled code may have called and returned: go on in the VM's top frame */
        fr = &vm->frames[vm->nframes - 1];
        m = fr->m;
        R = stack + fr->base;
        room = (int64_t)vm->stack_cap - (int64_t)vm->nframes * VM_FRAME_SLOTS;
        limit = stack + (room > 0 ? room : 0);
        if (!at) {
            /* a helper threw (allocation), or a native compiled code called did: fr->pc is set */
            if (vm->jit_status) {
                status = vm->jit_status;
                native = vm->jit_native;
                vm->jit_status = 0;
                vm->jit_native = NULL;
            }
            goto exception;
        }
        pc = at;
        vmnext;
    }

    exception:
        return unwind(vm, entry, status, native);
    }
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
