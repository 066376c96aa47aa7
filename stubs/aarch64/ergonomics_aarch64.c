/*
 * stubs/aarch64/ergonomics_aarch64.c — AArch64 SHA ergonomics, as HotSpot's
 * cpu/aarch64/vm_version_aarch64.cpp (VM_Version::initialize).
 *
 * The rules are HotSpot's, statement by statement; the SHA-3 choices that
 * changed between JDK releases are data: one table per policy, selected by
 * -XX:SHA3IntrinsicPolicy (a minivm extension). docs/flags.md shows the
 * tables and what each seed CPU ends with under each.
 */
#include <string.h>

#include "cpu_aarch64.h"
#include "ergonomics_aarch64.h"
#include "ergonomics.h"
#include "flags.h"
#include "stub_arch.h"
#include "stubroutines.h"

#define ANY_IMPLEMENTER 0xffffffffu

/*
 * When UseSHA is on and the CPU has the sha3 instructions, the first row
 * whose implementer matches gives the defaults of UseSHA3Intrinsics and
 * UseSIMDForSHA3Intrinsic (each applied only while the flag is still at its
 * default: a user's choice always wins).
 */
typedef struct sha3_policy_row {
    uint32_t implementer;
    bool use_sha3_intrinsics;
    bool use_simd;
    const char *source;   /* HotSpot's rule, and what it rests on: measured (where) or inferred */
} sha3_policy_row;

typedef struct sha3_policy {
    const char *name;
    bool simd_declared;         /* UseSIMDForSHA3Intrinsic's default in globals_aarch64.hpp */
    const sha3_policy_row *rows;
} sha3_policy;

/* The rows are data: stubs/aarch64/sha3_rows.tsv, one SHA3_ROWS_<policy> each.
   JDK-8359256 (the newest): SIMD only on Apple silicon, where it is faster; elsewhere the GPR stub is
   the SHA-3 intrinsic (when enabled). JDK 26 before JDK-8359256: the intrinsic on by default on Apple
   (and Qualcomm since JDK 26), always the SIMD stub unless told otherwise. */
#include "sha3_rows_aarch64.inc"
static const sha3_policy_row rows_8359256[] = {SHA3_ROWS_JDK_8359256};
static const sha3_policy_row rows_jdk26[] = {SHA3_ROWS_JDK26};

static const sha3_policy policies[] = {
    {"JDK-8359256", false, rows_8359256},
    {"JDK26", true, rows_jdk26},
    /* measure: JDK-8359256's rows, then the VM times the variants (stubs/sha3_select.c) */
    {STUB_POLICY_MEASURE, false, rows_8359256},
};

const char *a64_sha3_policy(size_t i) { return i < sizeof policies / sizeof policies[0] ? policies[i].name : NULL; }

static const sha3_policy_row *policy_row(const sha3_policy *p, uint32_t implementer)
{
    const sha3_policy_row *r = p->rows;
    while (r->implementer != ANY_IMPLEMENTER && r->implementer != implementer)
        r++;
    return r;
}

void a64_sha_ergonomics(const cpu_info *cpu)
{
    const sha3_policy *policy = NULL;
    const char *want = FLAG(SHA3IntrinsicPolicy) ? FLAG(SHA3IntrinsicPolicy) : "";
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (strcmp(policies[i].name, want) == 0)
            policy = &policies[i];
    if (!policy)
        return; /* unreachable: the launcher refuses an unknown policy first */

    bool sha1 = cpu_has(cpu, A64_CPU_SHA1), sha256 = cpu_has(cpu, A64_CPU_SHA2);
    bool sha3 = cpu_has(cpu, A64_CPU_SHA3), sha512 = cpu_has(cpu, A64_CPU_SHA512);
    const sha3_policy_row *row = policy_row(policy, cpu->aarch64.implementer);

    if (FLAG_IS_DEFAULT(UseSIMDForSHA3Intrinsic))
        FLAG_SET_DEFAULT(UseSIMDForSHA3Intrinsic, policy->simd_declared);

    /* HotSpot: UseMD5Intrinsics on unless the user said no; its stub is general registers only */
    ergo_family(STUB_FAMILY_MD5, true);
    ergo_flag(FLAG_ID_UseSHA, sha1 || sha256 || sha3 || sha512, "SHA instructions are not available on this CPU");
    ergo_family(STUB_FAMILY_SHA1, FLAG(UseSHA) && sha1);
    ergo_family(STUB_FAMILY_SHA256, FLAG(UseSHA) && sha256);

    if (FLAG(UseSHA) && sha3) {
        if (row->use_sha3_intrinsics && FLAG_IS_DEFAULT(UseSHA3Intrinsics))
            FLAG_SET_DEFAULT(UseSHA3Intrinsics, true);
        if (FLAG_IS_DEFAULT(UseSIMDForSHA3Intrinsic))
            FLAG_SET_DEFAULT(UseSIMDForSHA3Intrinsic, row->use_simd);
    } else if (FLAG(UseSHA3Intrinsics) && FLAG(UseSIMDForSHA3Intrinsic)) {
        /* without sha3 only the GPR stub can serve: -XX:-UseSIMDForSHA3Intrinsic */
        vm_warning("%s", stub_family_descs[STUB_FAMILY_SHA3].unavailable);
        FLAG_SET_DEFAULT(UseSHA3Intrinsics, false);
    }

    ergo_family(STUB_FAMILY_SHA512, FLAG(UseSHA) && sha512);

    if (!(FLAG(UseSHA1Intrinsics) || FLAG(UseSHA256Intrinsics) || FLAG(UseSHA3Intrinsics) ||
          FLAG(UseSHA512Intrinsics)))
        FLAG_SET_DEFAULT(UseSHA, false);
}
