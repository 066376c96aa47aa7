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
#include "arguments.h"
#include "codecache.h"
#include "cpu.h"
#include "stubdeclarations.h"

/* The SHA-3 policy of every architecture that times the variants at start-up (stubs/sha3_select.c)
   after its static policy's choice */
#define STUB_POLICY_MEASURE "measure"

/* What a variant computes with, for people choosing among them (PrintStubVariants' kind column). */
typedef enum stub_kind {
    STUB_KIND_GPR,    /* general registers only */
    STUB_KIND_SIMD,   /* vector registers (AdvSIMD with FEAT_SHA3, AVX2, AVX-512) */
    STUB_KIND_CRYPTO, /* the ISA's own hash instructions (SHA-NI, FEAT_SHA1/SHA256/SHA512) */
} stub_kind;

/* "gpr", "simd", "crypto" */
const char *stub_kind_name(stub_kind k);

/*
 * One flag value a variant is selected by: -XX:+UseSIMDForSHA3Intrinsic is
 * {FLAG_ID_UseSIMDForSHA3Intrinsic, 1}, -XX:UseAVX=3 {FLAG_ID_UseAVX, 3},
 * -XX:SHA3AVX512Design=lanes {FLAG_ID_SHA3AVX512Design, 0, "lanes"}: value
 * for bool (0, 1) and integer flags, text for string flags.
 */
typedef struct stub_setting {
    int flag;           /* flag_id (flags.h) */
    int64_t value;
    const char *text;
} stub_setting;

#define STUB_ON(name)        {FLAG_ID_##name, 1, NULL}
#define STUB_OFF(name)       {FLAG_ID_##name, 0, NULL}
#define STUB_INT(name, v)    {FLAG_ID_##name, (v), NULL}
#define STUB_TEXT(name, s)   {FLAG_ID_##name, 0, (s)}
#define STUB_MAX_SETTINGS 5
/* .settings and .nsettings of a variant row from its settings */
#define STUB_SETTINGS(...) \
    .settings = {__VA_ARGS__}, .nsettings = (int)(sizeof((stub_setting[]){__VA_ARGS__}) / sizeof(stub_setting))

typedef struct stub_variant stub_variant;

/* Emit stub id (of v's family) in v's design into as, the architecture's
   assembler (a64_asm, x64_asm); returns the entry's offset in bytes. A
   refusal or a full buffer shows in the assembler's failed state. */
typedef size_t (*stub_emit_fn)(void *as, const stub_variant *v, stub_id id);

/*
 * A variant, one row of its architecture's table (stub_arch_ops.variants,
 * best first within a family): everything the VM, -XX:+PrintStubVariants,
 * -XX:SHA3IntrinsicPolicy=measure, the tests and the benchmark runner know
 * of it.
 *
 * The flags choose the first row of the family whose settings all hold, and
 * else the family's last row (its fallback: the GPR stub, or the family's
 * only variant); so the last setting of a row is the one that decided it
 * (the one an emulated CPU's ergonomics set, which the fall-back warning
 * names). Given to the VM as -XX: options (stub_variant_options), the
 * settings select that row.
 */
struct stub_variant {
    stub_family family;
    const char *name;            /* "gpr" */
    stub_kind kind;
    uint64_t features;           /* the CPU features it executes (cpu.h bits) */
    stub_setting settings[STUB_MAX_SETTINGS];
    int nsettings;
    stub_emit_fn emit;           /* its generator */
    const void *design;          /* the generator's parameters (an a64_sha3_config, an x64_sha3_config), or NULL */
    uint64_t absent;             /* the family's stubs it has no design for (STUB_ABSENT): none generated, the
                                    bytecode runs (SHA-3's double_keccak outside HotSpot's vector designs) */
};

#define STUB_ABSENT(name) (UINT64_C(1) << STUB_ID_##name)

/* Does v generate stub id (one of its family's, not absent)? */
bool stub_variant_has(const stub_variant *v, stub_id id);

/*
 * The variant of a family the VM generates (stub_choose). When the flags
 * ask for one the host cannot execute (they followed an emulated CPU), the
 * next one down the family that the host runs and the flags allow is chosen
 * instead (none: variant NULL), and `asked` is the flags' choice, `missing`
 * the host feature it needed.
 */
typedef struct stub_choice {
    const stub_variant *variant;  /* what is generated; NULL: nothing */
    const stub_variant *asked;    /* the flags' variant, when it is not `variant`; else NULL */
    const char *missing;          /* the feature `asked` needs and the host lacks ("sha3") */
} stub_choice;

typedef struct stub_arch_ops {
    cpu_arch arch;
    int flag_arch;             /* the flag_arch (flags.h) of its flag table */
    code_format code;          /* how -XX:+PrintStubCode prints its code (codecache.h) */

    /* HotSpot's VM_Version::initialize, the flag defaults from the CPU
       (stubs/<folder>/ergonomics_<folder>.c), under the SHA-3 policy named by
       -XX:SHA3IntrinsicPolicy (one of its policy table's, as text_flags
       says: the launcher checks it before the ergonomics run). */
    void (*ergonomics)(const cpu_info *cpu);
    /* The string flags its tables give meaning to, each with the values
       read from the table that has them: the SHA-3 policy, and the designs
       that pick between variants of one family and width. */
    const args_text_flag *text_flags;
    size_t ntext_flags;

    /* The features the final flags allow (every bit set where no flag
       forbids one): x86-64 clears what UseAVX does not allow, as HotSpot
       (AVX-512 below 3, AVX2 below 2, AVX and the VEX-encoded BMI1/BMI2
       below 1) and BMI1/BMI2 when their flags are off; AArch64's -UseSHA the
       SHA extensions. A variant that needs a cleared feature is one the
       ergonomics would refuse a user. */
    uint64_t (*allowed_features)(void);

    /* Emit stub id in variant v (a row of variants) at code (room bytes,
       aligned): the architecture's assembler around v->emit. *size bytes
       written, callers enter at *entry. False with why in err ("code buffer
       full (16 words)"); then nothing of it may run. */
    bool (*generate)(const stub_variant *v, stub_id id, uint8_t *code, size_t room, size_t *entry, size_t *size,
                     char *err, size_t errlen);

    /* Every variant of every family, best first within a family (the order
       stub_choose falls back in). */
    const stub_variant *variants;
    size_t nvariants;

} stub_arch_ops;

/*
 * The variant of family the final flags ask for (the rule above stub_variant),
 * and what runs of it on host (checked feature by feature; NULL when nothing
 * runs here: what-if mode, generated to be printed). Nothing while the
 * family's flag is off.
 */
stub_choice stub_choose(const stub_arch_ops *arch, stub_family family, const cpu_info *host);

/* Do all of v's settings hold in the flags? */
bool stub_variant_selected(const stub_variant *v);

/* v's settings as -XX: options ("-XX:+UseSHA3Intrinsics -XX:UseAVX=3 ..."), into buf. */
const char *stub_variant_options(const stub_variant *v, char *buf, size_t len);

/* The flag whose value decided v (its last setting), for messages: "UseAVX". */
const char *stub_variant_deciding_flag(const stub_variant *v);

/* arch's variant named name in family (any family: STUB_FAMILY_COUNT), or NULL. */
const stub_variant *stub_variant_named(const stub_arch_ops *arch, stub_family family, const char *name);

#define STUB_OPS_DECLARE(id, folder, prefix) extern const stub_arch_ops prefix##_stub_ops;
MVM_ARCHES(STUB_OPS_DECLARE)
#undef STUB_OPS_DECLARE

/* The architecture's ops; NULL for CPU_ARCH_UNKNOWN. */
const stub_arch_ops *stub_arch_ops_for(cpu_arch arch);

#endif
