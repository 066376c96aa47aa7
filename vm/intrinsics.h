/*
 * vm/intrinsics.h — intrinsic linking: the table of intrinsic ids (HotSpot's
 * vmIntrinsics) and the step that replaces an @IntrinsicCandidate method by a
 * machine-code stub from the stub table (stubs/stubroutines.h).
 *
 * HotSpot gives a method its intrinsic id when its class is loaded (by holder,
 * name and signature) and picks the method's entry when it is linked; C2 then
 * expands the intrinsic at each call site it compiles. minivm has no compiler:
 * vm_new links every candidate once (vm_intrinsics_link), and a linked
 * candidate's calls run the stub instead of its bytecode. The decision for
 * each candidate, in HotSpot's order:
 *
 *   1. an id matches the method's qualified name and parameter kinds, else
 *      "no compiler intrinsic is defined for the method";
 *   2. the id is not in vm_options.disable_intrinsic (-XX:DisableIntrinsic);
 *   3. the stub table has the id's stub (NULL: flag off, no stub on this CPU);
 *   4. (the digests' ids) the record of `this` has the fields the stub reads, with their types
 *      (a malformed program is refused here, not at the first call); for
 *      _digestBase_implCompressMB, per family whose stub exists, the
 *      family's record (MD5.MD5, SHA.SHA, SHA2.SHA2, SHA5.SHA5, SHA3.SHA3) when the
 *      program has it.
 *
 * With vm_options.print_intrinsics each candidate prints one line saying
 * which of these happened (docs/intrinsics.md, "PrintIntrinsics").
 *
 * Link state is per VM (vm_t.intrinsics); the id table is constant. Nothing
 * here knows an architecture: stubs/ decides which stub, if any, exists.
 */
#ifndef MINIVM_INTRINSICS_H
#define MINIVM_INTRINSICS_H

#include <stddef.h>

#include "vm.h"

/*
 * The ids, HotSpot's names (classfile/vmIntrinsics.hpp). Per id: the method's
 * qualified name; HotSpot's signature (the receiver is implicit there,
 * explicit here); the parameter kinds, `this` included (R record, B byte[],
 * L long[], I int); the return kind (V void, I int).
 *
 * _double_keccak is static (SHA3Parallel.doubleKeccak(long[], long[])): no
 * receiver, no record; its stub permutes both arrays' 25 lanes and the call
 * returns 1, as the Java method does.
 *
 * _digestBase_implCompressMB serves every digest (HotSpot's
 * inline_digestBase_implCompressMB): its call runs the multi-block stub of
 * the receiver's family, found by the receiver's record (MD5, SHA, SHA2, SHA5
 * or SHA3, or a record extending one), or the bytecode when that family has no
 * stub.
 */
#define VM_INTRINSICS(X)                                                                                   \
    X(_sha3_implCompress,         "SHA3.implCompress0",                 "([BI)V",  "RBI",  'V')          \
    X(_digestBase_implCompressMB, "DigestBase.implCompressMultiBlock0", "([BII)I", "RBII", 'I')          \
    X(_md5_implCompress,          "MD5.implCompress0",                  "([BI)V",  "RBI",  'V')          \
    X(_sha_implCompress,          "SHA.implCompress0",                  "([BI)V",  "RBI",  'V')          \
    X(_sha2_implCompress,         "SHA2.implCompress0",                 "([BI)V",  "RBI",  'V')          \
    X(_sha5_implCompress,         "SHA5.implCompress0",                 "([BI)V",  "RBI",  'V')          \
    X(_double_keccak,             "SHA3Parallel.doubleKeccak",          "([J[J)I", "LL",   'I')

typedef enum vm_intrinsic_id {
    VM_INTRINSIC_NONE, /* HotSpot's _none: not an intrinsic */
#define X(id, qname, sig, params, ret) VM_INTRINSIC##id,
    VM_INTRINSICS(X)
#undef X
    VM_INTRINSIC_COUNT
} vm_intrinsic_id;

/* HotSpot's vmIntrinsics::name_at: "_sha3_implCompress"; "_none" for NONE. */
const char *vm_intrinsic_name(vm_intrinsic_id id);

/* HotSpot's vmIntrinsics::find_id: the id called name, or VM_INTRINSIC_NONE ("_none" included). */
vm_intrinsic_id vm_intrinsic_find_id(const char *name);

/*
 * HotSpot's ControlIntrinsicValidator for DisableIntrinsic (the flag's
 * constraint): every id in list must be known. The list is split as HotSpot
 * splits it: ',', ' ' and '\n' (one line per -XX:DisableIntrinsic) separate
 * ids, empty ids are skipped, nothing else is trimmed and no '+'/'-' is
 * stripped. Returns 0, or -1 with the first unknown id (at most 63
 * characters, as HotSpot) in bad.
 */
int vm_intrinsic_check_list(const char *list, char *bad, size_t badlen);

/* Is id in list (split as above)? Unknown ids in list are ignored. */
int vm_intrinsic_in_list(const char *list, vm_intrinsic_id id);

/* Link every candidate of vm's program (vm_new calls it once); prints with print_intrinsics. */
void vm_intrinsics_link(vm_t *vm);

/*
 * The call of candidate m with args (m->nparams values): when m is linked
 * and the arguments are what the stub may see, run the stub, store the
 * result and return 1. Otherwise return 0 and the caller runs m's bytecode,
 * which gives Java's exception (or result) for anything the stub must not
 * see: a null or short array, a state that is not long[25], a block size the
 * stubs do not know, offsets out of range. Never allocates.
 */
int vm_intrinsic_call(vm_t *vm, const vm_method *m, const vm_value *args, vm_value *result);

/*
 * Compiled code's direct call of a candidate's stub (as C2 calls it), one per link of m: when
 * `this` is a record of exactly rec, the checks vm_intrinsic_call makes, then the stub with the
 * C calling convention: compress(b + ofs, state words [, block size]) for a one-block
 * candidate, compress_mb(b + ofs, state words [, block size], ofs, limit) -> the final ofs for
 * implCompressMultiBlock (none when ofs > limit: the result is ofs). Any other receiver, or a
 * check that fails, goes through vm_intrinsic_call. Returns how many it wrote (at most max).
 */
typedef struct vm_intrinsic_direct {
    const void *stub;      /* the stub's entry */
    uint16_t rec;          /* the receiver's record */
    uint16_t f_state;      /* its state field ... */
    uint16_t f_block_size; /* ... and its blockSize field */
    uint8_t state_kind;    /* VM_T_LONGS or VM_T_INTS */
    uint8_t pass_block_size; /* the stub takes the block size (SHA-3's rate) */
    uint8_t multi;         /* implCompressMultiBlock */
    int32_t state_words;   /* the state's least length */
    uint32_t block_sizes;  /* the block sizes the stub knows: bit bs / 8 (STUB_BLOCK) */
} vm_intrinsic_direct;
size_t vm_intrinsic_directs(const vm_t *vm, const vm_method *m, vm_intrinsic_direct *out, size_t max);

#endif /* MINIVM_INTRINSICS_H */
