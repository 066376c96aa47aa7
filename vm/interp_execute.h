/*
 * vm/interp_execute.h — the interpreter's loop (vm/interp.c includes it twice): execute_interp,
 * EXECUTE_JIT 0, for a VM without the compiler tier, where every check of it folds away, and
 * execute_jit, EXECUTE_JIT 1, which counts calls and back-edges and enters compiled code
 * (docs/compiler.md). One body, so the two cannot drift apart. Not a header of its own: it uses
 * interp.c's macros and helpers.
 */
/* GCC would turn do_call's short register loops back into memcpy and memset calls */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns", "no-crossjumping", "no-gcse")))
#endif
static int EXECUTE_NAME(vm_t *vm, uint32_t entry, vm_value *result)
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
    /* NULL: no compiler; a constant NULL in execute_interp, so every check of it folds away */
    vm_jit_method *const jitm = EXECUTE_JIT ? vm->jitm : NULL;
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
        if (EXECUTE_JIT)
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

