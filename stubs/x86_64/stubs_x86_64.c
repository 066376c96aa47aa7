/*
 * stubs/x86_64/stubs_x86_64.c — x86-64's part of the stub plumbing
 * (stub_arch.h): which stub variants the flags and the host allow, the
 * generators behind the stub ids, how the code is printed, and the crash
 * handler's view of an x86-64 Linux signal context.
 */
#if defined(__x86_64__) && defined(__linux__)
#define _GNU_SOURCE /* REG_RIP in <sys/ucontext.h> */
#include <ucontext.h>
#endif

#include "stub_arch.h"

#include <stdio.h>

#include <string.h>

#include "cpu_x86_64.h"
#include "crash_handler.h"
#include "ergonomics_x86_64.h"
#include "flags.h"
#include "stubgenerator_x86_64.h"

/* The variants, best first within their kind, with what each executes. */
typedef struct variant_desc {
    x64_sha3_variant variant;
    bool bmi;
} variant_desc;

#define FEATURE(f) (UINT64_C(1) << X64_CPU_##f)
#define SHA3_ON "-XX:+UseSHA3Intrinsics "
static const stub_variant variants[] = {
    {STUB_FAMILY_SHA3, "avx512-lanes", SHA3_ON "-XX:+UseSIMDForSHA3Intrinsic -XX:UseAVX=3 -XX:SHA3AVX512Design=lanes",
     FEATURE(AVX512F) | FEATURE(AVX512VL)},
    {STUB_FAMILY_SHA3, "avx512", SHA3_ON "-XX:+UseSIMDForSHA3Intrinsic -XX:UseAVX=3 -XX:SHA3AVX512Design=rows",
     FEATURE(AVX512F) | FEATURE(AVX512BW)},
    {STUB_FAMILY_SHA3, "avx2", SHA3_ON "-XX:+UseSIMDForSHA3Intrinsic -XX:UseAVX=2", FEATURE(AVX) | FEATURE(AVX2)},
    {STUB_FAMILY_SHA3, "gpr", SHA3_ON "-XX:-UseSIMDForSHA3Intrinsic -XX:+UseBMI1Instructions -XX:+UseBMI2Instructions",
     FEATURE(BMI1) | FEATURE(BMI2)},
    {STUB_FAMILY_SHA3, "gpr-nobmi",
     SHA3_ON "-XX:-UseSIMDForSHA3Intrinsic -XX:-UseBMI1Instructions -XX:-UseBMI2Instructions", 0},
    /* SHA-1 and SHA-256 on SHA-NI (with SSSE3's pshufb and SSE4.1's pblendw/pinsrd), SHA-512 on AVX2
       with BMI2's rorx: HotSpot's x86 rules (ergonomics_x86_64.c) */
    {STUB_FAMILY_SHA1, "sha-ni", "-XX:+UseSHA1Intrinsics", FEATURE(SHA) | FEATURE(SSSE3) | FEATURE(SSE4_1)},
    {STUB_FAMILY_SHA256, "sha-ni", "-XX:+UseSHA256Intrinsics", FEATURE(SHA) | FEATURE(SSSE3) | FEATURE(SSE4_1)},
    {STUB_FAMILY_SHA512, "avx2", "-XX:+UseSHA512Intrinsics", FEATURE(AVX) | FEATURE(AVX2) | FEATURE(BMI2)},
};
/* the SHA-3 generator's configuration of each SHA-3 variant, in the same order */
static const variant_desc descs[] = {
    {X64_SHA3_AVX512_LANES, false}, {X64_SHA3_AVX512, false}, {X64_SHA3_AVX2, false},
    {X64_SHA3_GPR, true},           {X64_SHA3_GPR, false},
};
#undef SHA3_ON
#define NVARIANTS (sizeof variants / sizeof variants[0])
#define NSHA3 (sizeof descs / sizeof descs[0]) /* the SHA-3 variants come first, in descs' order */
_Static_assert(NSHA3 < NVARIANTS, "variants[] has the SHA-3 variants (one per descs[] entry) first, then the others");

/* The SHA-3 variant called name */
static const stub_variant *variant_named(const char *name)
{
    for (size_t i = 0; i < NSHA3; i++)
        if (strcmp(variants[i].name, name) == 0)
            return &variants[i];
    return NULL;
}

/*
 * SHA-3: UseSIMDForSHA3Intrinsic (minivm's on x86-64) picks the vector stub
 * of the width UseAVX allows (3: AVX-512, the design SHA3AVX512Design names;
 * 2: AVX2; below that none: the
 * ergonomics hook turns the intrinsic off with HotSpot's warning), else the
 * GPR stub, with BMI1/BMI2 as UseBMI1Instructions and UseBMI2Instructions
 * say. The words run on the host: a variant using a feature the host lacks
 * (the flags followed an emulated CPU) gives way to the next one down that
 * it runs, never to a BMI stub the flags turned off.
 */
static stub_choice choose(stub_family family, const cpu_info *host)
{
    stub_choice c = {NULL, NULL, NULL, NULL};
    if (family != STUB_FAMILY_SHA3)
        return stub_choose_only_variant(&x64_stub_ops, family, host);
    if (!FLAG(UseSHA3Intrinsics))
        return c;
    bool bmi = FLAG(UseBMI1Instructions) && FLAG(UseBMI2Instructions);
    const char *flag;
    if (FLAG(UseSIMDForSHA3Intrinsic)) {
        if (FLAG(UseAVX) < 2)
            return c;
        bool lanes = FLAG(SHA3AVX512Design) && strcmp(FLAG(SHA3AVX512Design), "lanes") == 0;
        c.variant = FLAG(UseAVX) < 3 ? "avx2" : lanes ? "avx512-lanes" : "avx512";
        flag = "UseAVX";
    } else if (bmi) {
        c.variant = "gpr";
        flag = "UseBMI2Instructions";
    } else {
        c.variant = "gpr-nobmi";
        flag = NULL;
    }
    if (!host)
        return c;
    const stub_variant *v = variant_named(c.variant);
    for (size_t i = (size_t)(v - variants); i < NSHA3; i++) {
        if (descs[i].bmi && !bmi)
            continue;
        uint64_t missing = variants[i].features & ~host->features;
        if (!missing) {
            if (i != (size_t)(v - variants)) {
                c.asked = c.variant;
                c.missing = cpu_first_feature_name(CPU_ARCH_X86_64, v->features & ~host->features);
                c.flag = flag;
                c.variant = variants[i].name;
            }
            return c;
        }
    }
    return (stub_choice){NULL, NULL, NULL, NULL}; /* unreachable: gpr-nobmi runs everywhere */
}

static uint64_t usable_features(const cpu_info *cpu)
{
    uint64_t f = cpu->features;
    if (FLAG(UseAVX) < 3)
        f &= ~(FEATURE(AVX512F) | FEATURE(AVX512DQ) | FEATURE(AVX512CD) | FEATURE(AVX512BW) | FEATURE(AVX512VL));
    if (FLAG(UseAVX) < 2)
        f &= ~FEATURE(AVX2);
    if (FLAG(UseAVX) < 1)
        f &= ~(FEATURE(AVX) | FEATURE(BMI1) | FEATURE(BMI2)); /* BMI's VEX encodings need AVX (x64_sha_ergonomics) */
    return f;
}

static bool generate(stub_id id, const char *variant, uint8_t *code, size_t room, size_t *entry, size_t *size,
                     char *err, size_t errlen)
{
    x64_asm as;
    x64_asm_init(&as, code, room);
    /* A refusal is reported as a warning, not an abort(), even in debug
       builds: a failed generator must leave the VM running interpreted. */
    as.fatal = false;
    switch (id) {
    case STUB_ID_sha3_implCompress:
    case STUB_ID_sha3_implCompressMB: {
        const stub_variant *v = variant_named(variant);
        if (!v) {
            snprintf(err, errlen, "no x86-64 generator");
            return false;
        }
        const variant_desc *d = &descs[v - variants];
        x64_sha3_config cfg = {
            .variant = d->variant,
            .multi_block = id == STUB_ID_sha3_implCompressMB,
            .bmi1 = d->bmi,
            .bmi2 = d->bmi,
        };
        *entry = x64_generate_sha3_implCompress(&as, &cfg);
        break;
    }
    case STUB_ID_sha1_implCompress:
    case STUB_ID_sha1_implCompressMB:
        *entry = x64_generate_sha1_implCompress(&as, id == STUB_ID_sha1_implCompressMB);
        break;
    case STUB_ID_sha256_implCompress:
    case STUB_ID_sha256_implCompressMB:
        *entry = x64_generate_sha256_implCompress(&as, id == STUB_ID_sha256_implCompressMB);
        break;
    case STUB_ID_sha512_implCompress:
    case STUB_ID_sha512_implCompressMB:
        *entry = x64_generate_sha512_implCompress(&as, id == STUB_ID_sha512_implCompressMB);
        break;
    default: snprintf(err, errlen, "no x86-64 generator"); return false;
    }
    if (x64_asm_failed(&as)) {
        snprintf(err, errlen, "%s", as.errmsg);
        return false;
    }
    *size = x64_asm_pc(&as);
    return true;
}

#if defined(__x86_64__) && defined(__linux__)
static uintptr_t fault_pc(const void *context)
{
    const ucontext_t *uc = context;
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

/* The sixteen GPRs, four a line: "#   rax=0x... rbx=..." */
static void crash_registers(const void *context, char *buf, size_t len)
{
    static const struct { const char *name; int reg; } regs[16] = {
        {"rax", REG_RAX}, {"rbx", REG_RBX}, {"rcx", REG_RCX}, {"rdx", REG_RDX}, {"rsi", REG_RSI}, {"rdi", REG_RDI},
        {"rbp", REG_RBP}, {"rsp", REG_RSP}, {"r8", REG_R8},   {"r9", REG_R9},   {"r10", REG_R10}, {"r11", REG_R11},
        {"r12", REG_R12}, {"r13", REG_R13}, {"r14", REG_R14}, {"r15", REG_R15}};
    const ucontext_t *uc = context;
    size_t pos = 0;
    for (int r = 0; r < 16; r++) {
        stub_crash_put_str(buf, len, &pos, r % 4 == 0 ? "#   " : " ");
        stub_crash_put_str(buf, len, &pos, regs[r].name);
        stub_crash_put_str(buf, len, &pos, "=");
        stub_crash_put_hex(buf, len, &pos, (uintptr_t)uc->uc_mcontext.gregs[regs[r].reg], 16);
        if (r % 4 == 3)
            stub_crash_put_str(buf, len, &pos, "\n");
    }
}
#define HOST_FAULT_PC fault_pc
#define HOST_CRASH_REGISTERS crash_registers
#else
#define HOST_FAULT_PC NULL
#define HOST_CRASH_REGISTERS NULL
#endif

const stub_arch_ops x64_stub_ops = {
    .arch = CPU_ARCH_X86_64,
    .flag_arch = FLAG_ARCH_X86_64,
    .code = {.llvm_target = "X86", .llvm_triple = "x86_64-linux-gnu", .llvm_features = "", .insn_size = 0},
    .ergonomics = x64_sha_ergonomics,
    .sha3_policies = "minivm, JDK24, JDK-8384353, measure",
    .usable_features = usable_features,
    .choose = choose,
    .generate = generate,
    .variants = variants,
    .nvariants = NVARIANTS,
    .fault_pc = HOST_FAULT_PC,
    .crash_registers = HOST_CRASH_REGISTERS,
};
