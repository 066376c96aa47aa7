/*
 * stubs/stub_arch.h — what each architecture folder gives the CPU-independent
 * stub plumbing (the stub side of cpu_arch_ops): its ergonomics, which
 * variant of each stub family the flags and the host allow, the generators,
 * how its code is printed, and the crash handler's view of a signal context.
 *
 * stubs/<folder>/stubs_<folder>.c defines <prefix>_stub_ops; the list is
 * arch_list.h (generated from stubs/meson.build), so nothing outside an
 * architecture folder names an architecture.
 */
#ifndef MINIVM_STUB_ARCH_H
#define MINIVM_STUB_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch_list.h"
#include "cpu.h"
#include "stubdeclarations.h"

/*
 * The variant of a family the VM generates. When the flags ask for one the
 * host cannot execute (they followed an emulated CPU), the best one the
 * host runs is chosen instead and `asked` names the flags' choice, `missing`
 * the host feature it needed, `flag` the flag that chose it.
 */
typedef struct stub_choice {
    const char *variant;  /* "gpr", "simd": what is generated; NULL: nothing */
    const char *asked;    /* the flags' variant, when it is not `variant`; else NULL */
    const char *missing;  /* the feature `asked` needs and the host lacks ("sha3") */
    const char *flag;     /* the flag whose value chose `asked` ("UseSIMDForSHA3Intrinsic") */
} stub_choice;

/* A variant a user can ask for: its name, the -XX options that select it,
   and the host features it executes (-XX:+PrintStubVariants lists them). */
typedef struct stub_variant {
    stub_family family;
    const char *name;     /* "gpr" */
    const char *options;  /* "-XX:+UseSHA3Intrinsics -XX:-UseSIMDForSHA3Intrinsic" */
    uint64_t features;    /* cpu feature bits (cpu.h) */
} stub_variant;

/* How -XX:+PrintStubCode prints the architecture's code (codecache_print). */
typedef struct stub_code_format {
    const char *llvm_target;   /* LLVMInitialize<target>TargetInfo ...: "AArch64", "X86" */
    const char *llvm_triple;   /* "aarch64-linux-gnu" */
    const char *llvm_features; /* what the stubs may use: "+sha3" */
    size_t insn_size;          /* every instruction's size (4), or 0 when lengths vary */
} stub_code_format;

typedef struct stub_arch_ops {
    cpu_arch arch;
    int flag_arch;             /* the flag_arch (flags.h) of its flag table */
    stub_code_format code;

    /* HotSpot's VM_Version::initialize, the flag defaults from the CPU
       (stubs/<folder>/ergonomics_<folder>.c), under the SHA-3 policy named by
       -XX:SHA3IntrinsicPolicy: one of sha3_policies, "JDK-8359256, JDK26"
       (checked before the ergonomics run). */
    void (*ergonomics)(const cpu_info *cpu);
    const char *sha3_policies;

    /* cpu's features as the final flags leave them: x86-64 clears what
       UseAVX does not allow, as HotSpot (AVX-512 below 3, AVX2 below 2, AVX
       and the VEX-encoded BMI1/BMI2 below 1); AArch64's -UseSHA the SHA
       extensions. A variant that needs a cleared feature is one the
       ergonomics would refuse a user. */
    uint64_t (*usable_features)(const cpu_info *cpu);

    /* The variant of family the final flags ask for; NULL variant when the
       family's flag is off or this build has no generator for the flags'
       choice. host: the CPU the code runs on (checked feature by feature),
       NULL when nothing runs here (what-if mode: generated to be printed). */
    stub_choice (*choose)(stub_family family, const cpu_info *host);

    /* Emit stub id in variant at code (room bytes, aligned): *size bytes
       written, callers enter at *entry. False with why in err ("code buffer
       full (16 words)"); then nothing of it may run. */
    bool (*generate)(stub_id id, const char *variant, uint8_t *code, size_t room, size_t *entry, size_t *size,
                     char *err, size_t errlen);

    /* Every variant of every family, best first within a family (the order
       choose() falls back in). */
    const stub_variant *variants;
    size_t nvariants;

    /* The host only (is_host): the interrupted pc of a signal context, and
       its registers as "name=0x..." lines for the crash report, formatted
       async-signal-safely (crash_handler.h). */
    uintptr_t (*fault_pc)(const void *ucontext);
    void (*crash_registers)(const void *ucontext, char *buf, size_t len);
} stub_arch_ops;

/*
 * choose() for a family with one variant on the architecture (SHA-1, SHA-256,
 * SHA-512): that variant of arch->variants while the family's flag is on.
 * When host lacks a feature it needs (the flags followed an emulated CPU),
 * nothing runs: variant NULL, with asked, missing and flag set, so
 * stubs_note_fallback says that the family runs its bytecode.
 */
stub_choice stub_choose_only_variant(const stub_arch_ops *arch, stub_family family, const cpu_info *host);

#define STUB_OPS_DECLARE(id, folder, prefix) extern const stub_arch_ops prefix##_stub_ops;
MVM_ARCHES(STUB_OPS_DECLARE)
#undef STUB_OPS_DECLARE

/* The architecture's ops; NULL for CPU_ARCH_UNKNOWN. */
const stub_arch_ops *stub_arch_ops_for(cpu_arch arch);

#endif
