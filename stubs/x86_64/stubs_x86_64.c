/*
 * stubs/x86_64/stubs_x86_64.c — x86-64's part of the stub plumbing
 * (stub_arch.h): the variant table (each variant's features, settings and
 * generator), what the flags allow, the assembler around the generators
 * and how the code is printed.
 */
#include "stub_arch.h"

#include <stdio.h>

#include <string.h>

#include "cpu_x86_64.h"
#include "ergonomics_x86_64.h"
#include "flags.h"
#include "stubgenerator_x86_64.h"
#include "stubroutines.h"

#define FEATURE(f) (UINT64_C(1) << X64_CPU_##f)

/* The generators behind the rows: the x86-64 assembler, the stub id, the row's design. */
static size_t emit_sha3(void *as, const stub_variant *v, stub_id id)
{
    if (id == STUB_ID_double_keccak) /* HotSpot's one design, under either AVX-512 variant */
        return x64_generate_double_keccak(as);
    x64_sha3_config cfg = *(const x64_sha3_config *)v->design;
    cfg.multi_block = id == STUB_ID_sha3_implCompressMB;
    return x64_generate_sha3_implCompress(as, &cfg);
}

/* The generators whose only parameter is the entry (MD5, SHA-1, SHA-2): the row's design is the
   generator, asked for the multi-block entry when id is the family's multi-block stub. */
typedef size_t (*entry_generator)(x64_asm *as, bool multi_block);

static size_t emit_entry(void *as, const stub_variant *v, stub_id id)
{
    const entry_generator *generate = v->design;
    return (*generate)(as, id == stub_family_descs[v->family].compress_mb);
}

static const entry_generator md5 = x64_generate_md5_implCompress;
static const entry_generator sha1 = x64_generate_sha1_implCompress;
static const entry_generator sha256 = x64_generate_sha256_implCompress;
static const entry_generator sha256_avx2 = x64_generate_sha256_avx2_implCompress;
static const entry_generator sha512 = x64_generate_sha512_implCompress;

static const x64_sha3_config sha3_lanes = {.variant = X64_SHA3_AVX512_LANES};
static const x64_sha3_config sha3_rows = {.variant = X64_SHA3_AVX512};
static const x64_sha3_config sha3_avx2 = {.variant = X64_SHA3_AVX2};
static const x64_sha3_config sha3_gpr_bmi = {.variant = X64_SHA3_GPR, .bmi1 = true, .bmi2 = true};
static const x64_sha3_config sha3_gpr = {.variant = X64_SHA3_GPR};

/*
 * The variants, best first within a family (stub_arch.h: the flags choose
 * the first whose settings hold, else the family's last; a host without a
 * feature falls down the list). SHA-3: UseSIMDForSHA3Intrinsic (minivm's
 * on x86-64) picks the vector stub of the width UseAVX allows (3: AVX-512,
 * in the design SHA3AVX512Design names; 2: AVX2; below that none: the
 * ergonomics turn the intrinsic off with HotSpot's warning, or SIMD off),
 * else the GPR stub, with BMI1/BMI2 as UseBMI1Instructions and
 * UseBMI2Instructions say. MD5 in general registers (every x86-64 CPU). SHA-1 and SHA-256 on SHA-NI (with SSSE3's pshufb
 * and SSE4.1's pblendw/pinsrd); SHA-256 without SHA-NI on AVX2 with BMI2
 * (SHA256Design, which the ergonomics set from the CPU); SHA-512 on AVX2 with
 * BMI2's rorx: HotSpot's x86 rules (ergonomics_x86_64.c).
 */
static const stub_variant variants[] = {
    {STUB_FAMILY_SHA3, "avx512-lanes", STUB_KIND_SIMD, FEATURE(AVX512F) | FEATURE(AVX512VL) | FEATURE(AVX512BW),
     STUB_SETTINGS(STUB_ON(UseSHA3Intrinsics), STUB_ON(UseSIMDForSHA3Intrinsic), STUB_TEXT(SHA3AVX512Design, X64_SHA3_LANES),
                   STUB_INT(UseAVX, 3)),
     emit_sha3, &sha3_lanes, 0},
    {STUB_FAMILY_SHA3, "avx512", STUB_KIND_SIMD, FEATURE(AVX512F) | FEATURE(AVX512BW),
     STUB_SETTINGS(STUB_ON(UseSHA3Intrinsics), STUB_ON(UseSIMDForSHA3Intrinsic), STUB_TEXT(SHA3AVX512Design, X64_SHA3_ROWS),
                   STUB_INT(UseAVX, 3)),
     emit_sha3, &sha3_rows},
    {STUB_FAMILY_SHA3, "avx2", STUB_KIND_SIMD, FEATURE(AVX) | FEATURE(AVX2),
     STUB_SETTINGS(STUB_ON(UseSHA3Intrinsics), STUB_ON(UseSIMDForSHA3Intrinsic), STUB_INT(UseAVX, 2)), emit_sha3,
     &sha3_avx2, STUB_ABSENT(double_keccak)},
    {STUB_FAMILY_SHA3, "gpr", STUB_KIND_GPR, FEATURE(BMI1) | FEATURE(BMI2),
     STUB_SETTINGS(STUB_ON(UseSHA3Intrinsics), STUB_OFF(UseSIMDForSHA3Intrinsic), STUB_ON(UseBMI1Instructions),
                   STUB_ON(UseBMI2Instructions)),
     emit_sha3, &sha3_gpr_bmi, STUB_ABSENT(double_keccak)},
    {STUB_FAMILY_SHA3, "gpr-nobmi", STUB_KIND_GPR, 0,
     STUB_SETTINGS(STUB_ON(UseSHA3Intrinsics), STUB_OFF(UseSIMDForSHA3Intrinsic), STUB_OFF(UseBMI1Instructions),
                   STUB_OFF(UseBMI2Instructions)),
     emit_sha3, &sha3_gpr, STUB_ABSENT(double_keccak)},
    {STUB_FAMILY_SHA1, "sha-ni", STUB_KIND_CRYPTO, FEATURE(SHA) | FEATURE(SSSE3) | FEATURE(SSE4_1),
     STUB_SETTINGS(STUB_ON(UseSHA1Intrinsics)), emit_entry, &sha1},
    {STUB_FAMILY_SHA256, "sha-ni", STUB_KIND_CRYPTO, FEATURE(SHA) | FEATURE(SSSE3) | FEATURE(SSE4_1),
     STUB_SETTINGS(STUB_ON(UseSHA256Intrinsics), STUB_TEXT(SHA256Design, X64_SHA256_SHA_NI)), emit_entry, &sha256},
    {STUB_FAMILY_SHA256, "avx2", STUB_KIND_SIMD, FEATURE(AVX) | FEATURE(AVX2) | FEATURE(BMI2),
     STUB_SETTINGS(STUB_ON(UseSHA256Intrinsics), STUB_TEXT(SHA256Design, X64_SHA256_AVX2)), emit_entry,
     &sha256_avx2},
    {STUB_FAMILY_SHA512, "avx2", STUB_KIND_SIMD, FEATURE(AVX) | FEATURE(AVX2) | FEATURE(BMI2),
     STUB_SETTINGS(STUB_ON(UseSHA512Intrinsics)), emit_entry, &sha512},
    {STUB_FAMILY_MD5, "gpr", STUB_KIND_GPR, 0, STUB_SETTINGS(STUB_ON(UseMD5Intrinsics)), emit_entry, &md5},
};
#define NVARIANTS (sizeof variants / sizeof variants[0])

static uint64_t allowed_features(void)
{
    uint64_t f = ~UINT64_C(0);
    if (FLAG(UseAVX) < 3)
        f &= ~(FEATURE(AVX512F) | FEATURE(AVX512DQ) | FEATURE(AVX512CD) | FEATURE(AVX512BW) | FEATURE(AVX512VL));
    if (FLAG(UseAVX) < 2)
        f &= ~FEATURE(AVX2);
    if (FLAG(UseAVX) < 1)
        f &= ~(FEATURE(AVX) | FEATURE(BMI1) | FEATURE(BMI2)); /* BMI's VEX encodings need AVX (x64_sha_ergonomics) */
    if (!FLAG(UseBMI1Instructions))
        f &= ~FEATURE(BMI1);
    if (!FLAG(UseBMI2Instructions))
        f &= ~FEATURE(BMI2);
    return f;
}

static bool generate(const stub_variant *v, stub_id id, uint8_t *code, size_t room, size_t *entry, size_t *size,
                     char *err, size_t errlen)
{
    x64_asm as;
    x64_asm_init(&as, code, room);
    /* A refusal is reported as a warning, not an abort(), even in debug
       builds: a failed generator must leave the VM running interpreted. */
    as.cb.fatal = false;
    *entry = v->emit(&as, v, id);
    return code_buffer_done(&as.cb, size, err, errlen);
}


/* the string flags x86-64's tables give meaning to: the SHA-3 policy (its table) and the two designs
   (their names: ergonomics_x86_64.h, which the rows above select by) */
static const args_text_flag text_flags[] = {
    {FLAG_ID_SHA3IntrinsicPolicy, "SHA-3 intrinsic policy", "policies", x64_sha3_policy},
    {FLAG_ID_SHA3AVX512Design, "SHA-3 AVX-512 design", "designs", x64_sha3_avx512_design},
    {FLAG_ID_SHA256Design, "SHA-256 design", "designs", x64_sha256_design},
};

const stub_arch_ops x64_stub_ops = {
    .arch = CPU_ARCH_X86_64,
    .flag_arch = FLAG_ARCH_X86_64,
    .code = {.llvm_target = "X86", .llvm_triple = "x86_64-linux-gnu", .llvm_features = "", .insn_size = 0},
    .ergonomics = x64_sha_ergonomics,
    .text_flags = text_flags,
    .ntext_flags = sizeof text_flags / sizeof text_flags[0],
    .allowed_features = allowed_features,
    .generate = generate,
    .variants = variants,
    .nvariants = NVARIANTS,
};
