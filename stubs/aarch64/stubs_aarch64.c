/*
 * stubs/aarch64/stubs_aarch64.c — AArch64's part of the stub plumbing
 * (stub_arch.h): the variant table (each variant's features, settings and
 * generator), what the flags allow, the assembler around the generators
 * and how the code is printed.
 */
#include "stub_arch.h"

#include <stdio.h>
#include <string.h>

#include "cpu_aarch64.h"
#include "ergonomics_aarch64.h"
#include "flags.h"
#include "stubgenerator_aarch64.h"
#include "stubroutines.h"

#define FEATURE(f) (UINT64_C(1) << A64_CPU_##f)

/* The generators behind the rows: the AArch64 assembler, the stub id, the row's design (words are
   4 bytes: the entry's word index becomes a byte offset). */
static size_t emit_sha3(void *as, const stub_variant *v, stub_id id)
{
    if (id == STUB_ID_double_keccak) /* the SIMD variant's: HotSpot's design */
        return a64_generate_double_keccak(as) * sizeof(uint32_t);
    a64_sha3_config cfg = *(const a64_sha3_config *)v->design;
    cfg.multi_block = id == STUB_ID_sha3_implCompressMB;
    /* fp and x18 stay out of use when the design says so, or the flag, or the platform */
    cfg.preserve_fp = cfg.preserve_fp || FLAG(PreserveFramePointer);
    cfg.r18_reserved = cfg.r18_reserved || a64_platform_reserves_r18();
    return a64_generate_sha3_implCompress(as, &cfg) * sizeof(uint32_t);
}

/* The generators whose only parameter is the entry (MD5, SHA-1, SHA-2): the row's design is the
   generator, asked for the multi-block entry when id is the family's multi-block stub. */
typedef size_t (*entry_generator)(a64_asm *as, bool multi_block);

static size_t emit_entry(void *as, const stub_variant *v, stub_id id)
{
    const entry_generator *generate = v->design;
    return (*generate)(as, id == stub_family_descs[v->family].compress_mb) * sizeof(uint32_t);
}

static const entry_generator md5 = a64_generate_md5_implCompress;
static const entry_generator sha1 = a64_generate_sha1_implCompress;
static const entry_generator sha256 = a64_generate_sha256_implCompress;
static const entry_generator sha512 = a64_generate_sha512_implCompress;

static const a64_sha3_config sha3_simd = {.simd = true};
static const a64_sha3_config sha3_gpr = {.simd = false};

/*
 * The variants, best first within a family (stub_arch.h), with the features
 * each executes beyond the base ISA: SHA-3's SIMD stub eor3/rax1/xar/bcax
 * (FEAT_SHA3), chosen by UseSIMDForSHA3Intrinsic, its GPR stub nothing (so a
 * host without sha3 falls back to it whatever CPU the flags describe); the
 * SHA-1 and SHA-256 stubs the cryptographic extension's sha1 and sha2
 * (FEAT_SHA1, FEAT_SHA256), the SHA-512 stub sha512 (FEAT_SHA512), as
 * HotSpot's.
 */
static const stub_variant variants[] = {
    {STUB_FAMILY_SHA3, "simd", STUB_KIND_SIMD, FEATURE(SHA3),
     STUB_SETTINGS(STUB_ON(UseSHA3Intrinsics), STUB_ON(UseSIMDForSHA3Intrinsic)), emit_sha3, &sha3_simd, 0},
    {STUB_FAMILY_SHA3, "gpr", STUB_KIND_GPR, 0,
     STUB_SETTINGS(STUB_ON(UseSHA3Intrinsics), STUB_OFF(UseSIMDForSHA3Intrinsic)), emit_sha3, &sha3_gpr,
     STUB_ABSENT(double_keccak)},
    {STUB_FAMILY_SHA1, "crypto", STUB_KIND_CRYPTO, FEATURE(SHA1), STUB_SETTINGS(STUB_ON(UseSHA1Intrinsics)), emit_entry,
     &sha1},
    {STUB_FAMILY_SHA256, "crypto", STUB_KIND_CRYPTO, FEATURE(SHA2), STUB_SETTINGS(STUB_ON(UseSHA256Intrinsics)),
     emit_entry, &sha256},
    {STUB_FAMILY_SHA512, "crypto", STUB_KIND_CRYPTO, FEATURE(SHA512), STUB_SETTINGS(STUB_ON(UseSHA512Intrinsics)),
     emit_entry, &sha512},
    {STUB_FAMILY_MD5, "gpr", STUB_KIND_GPR, 0, STUB_SETTINGS(STUB_ON(UseMD5Intrinsics)), emit_entry, &md5},
};

static bool generate(const stub_variant *v, stub_id id, uint8_t *code, size_t room, size_t *entry, size_t *size,
                     char *err, size_t errlen)
{
    a64_asm as;
    a64_asm_init(&as, (uint32_t *)(void *)code, room / sizeof(uint32_t));
    /* A refusal is reported as a warning, not an abort(), even in debug
       builds: a failed generator must leave the VM running interpreted. */
    as.cb.fatal = false;
    *entry = v->emit(&as, v, id);
    return code_buffer_done(&as.cb, size, err, errlen);
}


/* UseSHA off clears the SHA extensions (HotSpot's rules all read `UseSHA && feature`; the GPR SHA-3 stub
   needs none of them, so it stays). */
static uint64_t allowed_features(void)
{
    return FLAG(UseSHA) ? ~UINT64_C(0) : ~(FEATURE(SHA1) | FEATURE(SHA2) | FEATURE(SHA3) | FEATURE(SHA512));
}

/* the string flags AArch64's tables give meaning to: the SHA-3 policy (its table: ergonomics_aarch64.c) */
static const args_text_flag text_flags[] = {
    {FLAG_ID_SHA3IntrinsicPolicy, "SHA-3 intrinsic policy", "policies", a64_sha3_policy},
};

const stub_arch_ops a64_stub_ops = {
    .arch = CPU_ARCH_AARCH64,
    .flag_arch = FLAG_ARCH_AARCH64,
    .code = {.llvm_target = "AArch64", .llvm_triple = "aarch64-linux-gnu", .llvm_features = "+sha3", .insn_size = 4},
    .ergonomics = a64_sha_ergonomics,
    .text_flags = text_flags,
    .ntext_flags = sizeof text_flags / sizeof text_flags[0],
    .allowed_features = allowed_features,
    .generate = generate,
    .variants = variants,
    .nvariants = sizeof variants / sizeof variants[0],
};
