/*
 * stubs/aarch64/stubs_aarch64.c — AArch64's part of the stub plumbing
 * (stub_arch.h): which stub variants the flags and the host allow, the
 * generators behind the stub ids, how the code is printed, and the crash
 * handler's view of an AArch64 Linux signal context.
 */
#if defined(__aarch64__) && defined(__linux__)
#define _GNU_SOURCE /* the field names of mcontext_t (pc, regs, sp) */
#include <ucontext.h>
#endif

#include "stub_arch.h"

#include <string.h>

#include "cpu_aarch64.h"
#include "crash_handler.h"
#include "ergonomics_aarch64.h"
#include "flags.h"
#include "stubgenerator_aarch64.h"

/*
 * SHA-3: UseSIMDForSHA3Intrinsic picks SIMD or GPR. The variant that runs
 * must use only what the host executes: the flags may describe another CPU
 * (-XX:EmulateCPU, -XX:CPUInfoFile: ergonomics follow it), but the words run
 * here, so a feature the host lacks means the GPR stub (base ISA only).
 */
/* The variants, best first, with the features each executes beyond the base ISA: the
   SIMD stub's eor3/rax1/xar/bcax need sha3 (FEAT_SHA3), the GPR stub nothing; the
   SHA-1 and SHA-256 stubs the cryptographic extension's sha1 and sha2 (FEAT_SHA1,
   FEAT_SHA256), the SHA-512 stub sha512 (FEAT_SHA512), as HotSpot's. */
#define FEATURE(f) (UINT64_C(1) << A64_CPU_##f)
static const stub_variant variants[] = {
    {STUB_FAMILY_SHA3, "simd", "-XX:+UseSHA3Intrinsics -XX:+UseSIMDForSHA3Intrinsic", FEATURE(SHA3)},
    {STUB_FAMILY_SHA3, "gpr", "-XX:+UseSHA3Intrinsics -XX:-UseSIMDForSHA3Intrinsic", 0},
    {STUB_FAMILY_SHA1, "crypto", "-XX:+UseSHA1Intrinsics", FEATURE(SHA1)},
    {STUB_FAMILY_SHA256, "crypto", "-XX:+UseSHA256Intrinsics", FEATURE(SHA2)},
    {STUB_FAMILY_SHA512, "crypto", "-XX:+UseSHA512Intrinsics", FEATURE(SHA512)},
};
#undef FEATURE

static stub_choice choose(stub_family family, const cpu_info *host)
{
    stub_choice c = {NULL, NULL, NULL, NULL};
    if (family != STUB_FAMILY_SHA3)
        return stub_choose_only_variant(&a64_stub_ops, family, host);
    if (!FLAG(UseSHA3Intrinsics))
        return c;
    const stub_variant *v = &variants[FLAG(UseSIMDForSHA3Intrinsic) ? 0 : 1];
    c.variant = v->name;
    uint64_t missing = host ? v->features & ~host->features : 0;
    if (missing) {
        c.asked = c.variant;
        c.missing = cpu_first_feature_name(CPU_ARCH_AARCH64, missing);
        c.flag = "UseSIMDForSHA3Intrinsic";
        c.variant = variants[1].name;
    }
    return c;
}

static bool generate(stub_id id, const char *variant, uint8_t *code, size_t room, size_t *entry, size_t *size,
                     char *err, size_t errlen)
{
    a64_sha3_config cfg = {
        .simd = strcmp(variant, "simd") == 0,
        .multi_block = id == STUB_ID_sha3_implCompressMB,
        .preserve_fp = FLAG(PreserveFramePointer),
        .r18_reserved = a64_platform_reserves_r18(),
    };
    a64_asm as;
    a64_asm_init(&as, (uint32_t *)(void *)code, room / sizeof(uint32_t));
    /* A refusal is reported as a warning, not an abort(), even in debug
       builds: a failed generator must leave the VM running interpreted. */
    as.fatal = false;
    size_t at;
    switch (id) {
    case STUB_ID_sha3_implCompress:
    case STUB_ID_sha3_implCompressMB: at = a64_generate_sha3_implCompress(&as, &cfg); break;
    case STUB_ID_sha1_implCompress:
    case STUB_ID_sha1_implCompressMB: at = a64_generate_sha1_implCompress(&as, id == STUB_ID_sha1_implCompressMB); break;
    case STUB_ID_sha256_implCompress:
    case STUB_ID_sha256_implCompressMB:
        at = a64_generate_sha256_implCompress(&as, id == STUB_ID_sha256_implCompressMB);
        break;
    case STUB_ID_sha512_implCompress:
    case STUB_ID_sha512_implCompressMB:
        at = a64_generate_sha512_implCompress(&as, id == STUB_ID_sha512_implCompressMB);
        break;
    default: snprintf(err, errlen, "no AArch64 generator"); return false;
    }
    if (a64_asm_failed(&as)) {
        snprintf(err, errlen, "%s", as.errmsg);
        return false;
    }
    *entry = at * sizeof(uint32_t);
    *size = a64_asm_pc(&as) * sizeof(uint32_t);
    return true;
}

#if defined(__aarch64__) && defined(__linux__)
static uintptr_t fault_pc(const void *context)
{
    const ucontext_t *uc = context;
    return (uintptr_t)uc->uc_mcontext.pc;
}

/* x0..x30 and sp, four a line: "#   x0=0x0000ffff8c4e7b24 x1=..." */
static void crash_registers(const void *context, char *buf, size_t len)
{
    static const char *const names[32] = {
        "x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",  "x8",  "x9",  "x10", "x11", "x12", "x13", "x14", "x15",
        "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "fp",  "lr",  "sp"};
    const ucontext_t *uc = context;
    size_t pos = 0;
    for (int r = 0; r < 32; r++) {
        stub_crash_put_str(buf, len, &pos, r % 4 == 0 ? "#   " : " ");
        stub_crash_put_str(buf, len, &pos, names[r]);
        stub_crash_put_str(buf, len, &pos, "=");
        stub_crash_put_hex(buf, len, &pos, r < 31 ? uc->uc_mcontext.regs[r] : uc->uc_mcontext.sp, 16);
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

/* UseSHA off clears the SHA extensions (HotSpot's rules all read `UseSHA && feature`; the GPR SHA-3 stub
   needs none of them, so it stays). */
static uint64_t usable_features(const cpu_info *cpu)
{
    uint64_t f = cpu->features;
    if (!FLAG(UseSHA))
        f &= ~((UINT64_C(1) << A64_CPU_SHA1) | (UINT64_C(1) << A64_CPU_SHA2) | (UINT64_C(1) << A64_CPU_SHA3) |
               (UINT64_C(1) << A64_CPU_SHA512));
    return f;
}

const stub_arch_ops a64_stub_ops = {
    .arch = CPU_ARCH_AARCH64,
    .flag_arch = FLAG_ARCH_AARCH64,
    .code = {.llvm_target = "AArch64", .llvm_triple = "aarch64-linux-gnu", .llvm_features = "+sha3", .insn_size = 4},
    .ergonomics = a64_sha_ergonomics,
    .sha3_policies = "JDK-8359256, JDK26, measure",
    .usable_features = usable_features,
    .choose = choose,
    .generate = generate,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
    .fault_pc = HOST_FAULT_PC,
    .crash_registers = HOST_CRASH_REGISTERS,
};
