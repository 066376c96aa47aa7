/*
 * stubs/x86_64/ergonomics_x86_64.c — x86-64 ergonomics, after HotSpot's
 * cpu/x86/vm_version_x86.cpp: UseAVX capped to what the CPU has, BMI1/BMI2,
 * and the SHA intrinsics. SHA-1, SHA-256 and SHA-512 follow HotSpot 25 (the
 * differential suite, tests/test_hotspot.c, compares them on every CPU it has);
 * SHA256Design (minivm's) names the SHA-256 stub: SHA-NI's where the CPU has it,
 * else AVX2's.
 *
 * SHA-3 is a policy, data in tables, chosen by -XX:SHA3IntrinsicPolicy
 * (docs/flags.md shows them and what every catalog CPU ends with):
 *   minivm       (the default) a vendor/family/model table: which CPUs get the
 *                intrinsic and whether the vector stub (UseSIMDForSHA3Intrinsic)
 *                beats the GPR one there; every row says whether it was
 *                measured (and where the figures are) or inferred (and from what);
 *   JDK24        JDK 24/25: AVX-512F+BW (EVEX, so UseAVX=3) turns it on, nothing
 *                else has it (JDK-8341527), and its stub is the row design
 *                (SHA3AVX512Design=rows; the other policies keep lanes);
 *   JDK-8384353  the newest: UseSHA and AVX-512F+BW+VL, or an Intel E-core Xeon
 *                without hybrid cores (the AVX2 stub); the warning only when the
 *                user set the flag.
 */
#include <string.h>

#include "cpu_x86_64.h"
#include "ergonomics.h"
#include "ergonomics_x86_64.h"
#include "flags.h"
#include "stub_arch.h"
#include "stubroutines.h"

/* ---- SHA-3: minivm's table ------------------------------------------------------------------- */

typedef struct sha3_row {
    const char *vendor;       /* "GenuineIntel", "AuthenticAMD"; NULL: any */
    uint32_t family_lo, family_hi;
    bool needs_avx512;        /* the row applies when the CPU has AVX-512F+BW and UseAVX >= 3 */
    bool use_sha3_intrinsics;
    bool use_simd_lanes;      /* UseSIMDForSHA3Intrinsic with SHA3AVX512Design=lanes (the default) */
    bool use_simd_rows;       /* ... with SHA3AVX512Design=rows */
    const char *source;       /* measured (where) or inferred (from what) */
} sha3_row;

/* The first matching row gives the defaults (applied only while a flag is still
   at its default: a user's choice always wins). The last row matches every CPU. */
static const sha3_row minivm_rows[] = {
#include "sha3_rows_x86_64.inc" /* stubs/x86_64/sha3_rows.tsv */
};

static const sha3_row *minivm_row(const cpu_info *cpu, bool evex)
{
    const sha3_row *r = minivm_rows;
    for (;; r++) {
        bool vendor = !r->vendor || strcmp(r->vendor, cpu->x86_64.vendor) == 0;
        bool family = cpu->x86_64.family >= r->family_lo && cpu->x86_64.family <= r->family_hi;
        if (vendor && family && (!r->needs_avx512 || evex))
            return r;
    }
}

/* Intel E-core Xeons without hybrid cores (HotSpot's EnableX86ECoreOpts && !supports_hybrid()):
   Sierra Forest (6/0xAF) and Clearwater Forest (6/0xDD). */
static bool intel_ecore_xeon(const cpu_info *cpu)
{
    return strcmp(cpu->x86_64.vendor, "GenuineIntel") == 0 && cpu->x86_64.family == 6 &&
           (cpu->x86_64.model == 0xaf || cpu->x86_64.model == 0xdd);
}

#define SHA3_UNAVAILABLE (stub_family_descs[STUB_FAMILY_SHA3].unavailable)

/*
 * minivm's vector SHA-3 stubs need AVX2 at least (UseAVX 3: AVX-512, 2: AVX2).
 * Below that, UseSIMDForSHA3Intrinsic at its default gives way to the GPR
 * stub; set by the user it cannot be honoured, and the intrinsic goes off
 * with HotSpot's SHA3 warning (as AArch64 without the SHA3 extension).
 */
static void sha3_vector_width(const cpu_info *cpu)
{
    bool avx2 = cpu_has(cpu, X64_CPU_AVX2) && FLAG(UseAVX) >= 2;
    if (!FLAG(UseSHA3Intrinsics) || !FLAG(UseSIMDForSHA3Intrinsic) || avx2)
        return;
    if (FLAG_IS_DEFAULT(UseSIMDForSHA3Intrinsic)) {
        FLAG_SET_DEFAULT(UseSIMDForSHA3Intrinsic, false);
    } else {
        vm_warning("%s", SHA3_UNAVAILABLE);
        FLAG_SET_DEFAULT(UseSHA3Intrinsics, false);
    }
}

/* HotSpot's supports_evex(): AVX-512F, kept only while UseAVX allows 512-bit code; with BW and VL */
static void evex_features(const cpu_info *cpu, bool *bw, bool *vl)
{
    bool evex = cpu_has(cpu, X64_CPU_AVX512F) && FLAG(UseAVX) >= 3;
    *bw = evex && cpu_has(cpu, X64_CPU_AVX512BW);
    *vl = evex && cpu_has(cpu, X64_CPU_AVX512VL);
}

/* JDK 24/25: AVX-512F+BW turns it on, nothing else has it (JDK-8341527); its only stub is the row
   design, and UseSIMDForSHA3Intrinsic keeps its declared true (HotSpot's only stub is AVX-512) */
static void sha3_jdk24(const cpu_info *cpu, bool user_width)
{
    (void)user_width;
    bool bw, vl;
    evex_features(cpu, &bw, &vl);
    ergo_family(STUB_FAMILY_SHA3, bw);
    if (FLAG_IS_DEFAULT(SHA3AVX512Design))
        FLAG_SET_DEFAULT(SHA3AVX512Design, X64_SHA3_ROWS);
    sha3_vector_width(cpu);
}

/* JDK-8384353: UseSHA and AVX-512F+BW+VL, or an Intel E-core Xeon; the flag is still false unless
   the user set it: the warning only then, as JDK-8384353 says */
static void sha3_jdk8384353(const cpu_info *cpu, bool user_width)
{
    (void)user_width;
    bool bw, vl;
    evex_features(cpu, &bw, &vl);
    ergo_family(STUB_FAMILY_SHA3, FLAG(UseSHA) && ((bw && vl) || intel_ecore_xeon(cpu)));
    sha3_vector_width(cpu);
}

/* minivm's table. A UseAVX of 2 or 3 set on the command line (and kept: the CPU has that width)
   (user_width) names the vector width the user wants: the vector stub of that width, unless the user
   also said -UseSIMDForSHA3Intrinsic (docs/flags.md, "UseAVX") */
static void sha3_minivm(const cpu_info *cpu, bool user_width)
{
    bool bw, vl;
    evex_features(cpu, &bw, &vl);
    const sha3_row *row = minivm_row(cpu, bw);
    if (FLAG_IS_DEFAULT(UseSHA3Intrinsics))
        FLAG_SET_DEFAULT(UseSHA3Intrinsics, row->use_sha3_intrinsics);
    bool lanes = FLAG(SHA3AVX512Design) && strcmp(FLAG(SHA3AVX512Design), X64_SHA3_LANES) == 0;
    if (FLAG_IS_DEFAULT(UseSIMDForSHA3Intrinsic))
        FLAG_SET_DEFAULT(UseSIMDForSHA3Intrinsic, (lanes ? row->use_simd_lanes : row->use_simd_rows) || user_width);
    sha3_vector_width(cpu);
}

/* The SHA-3 policies, by -XX:SHA3IntrinsicPolicy's value (the launcher refuses any other) */
static const struct {
    const char *name;
    void (*apply)(const cpu_info *cpu, bool user_width);
} policies[] = {
    {"minivm", sha3_minivm},
    {"JDK24", sha3_jdk24},
    {"JDK-8384353", sha3_jdk8384353},
    /* measure: minivm's table, then the VM times the variants (stubs/sha3_select.c) */
    {STUB_POLICY_MEASURE, sha3_minivm},
};

const char *x64_sha3_policy(size_t i) { return i < sizeof policies / sizeof policies[0] ? policies[i].name : NULL; }

static void sha3_ergonomics(const cpu_info *cpu, bool user_width)
{
    const char *policy = FLAG(SHA3IntrinsicPolicy) ? FLAG(SHA3IntrinsicPolicy) : "";
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (strcmp(policies[i].name, policy) == 0) {
            policies[i].apply(cpu, user_width);
            return;
        }
}

const char *x64_sha3_row_source(const cpu_info *cpu)
{
    bool bw = cpu_has(cpu, X64_CPU_AVX512F) && cpu_has(cpu, X64_CPU_AVX512BW) && FLAG(UseAVX) >= 3;
    return minivm_row(cpu, bw)->source;
}

/* ---- SHA-256: which stub ------------------------------------------------------------------------ */

/* SHA256Design at its default follows the CPU: sha-ni where it has SHA-NI, else avx2. A design the
   user names that the CPU cannot run gives way to the other one, with a warning (when that one runs). */
static void sha256_design(bool sha_ni, bool avx2_bmi2)
{
    const char *design = FLAG(SHA256Design) ? FLAG(SHA256Design) : "";
    if (FLAG_IS_DEFAULT(SHA256Design)) {
        FLAG_SET_DEFAULT(SHA256Design, sha_ni || !avx2_bmi2 ? X64_SHA256_SHA_NI : X64_SHA256_AVX2);
    } else if (strcmp(design, X64_SHA256_SHA_NI) == 0 && !sha_ni && avx2_bmi2) {
        if (FLAG(UseSHA256Intrinsics))
            vm_warning("SHA256Design=" X64_SHA256_SHA_NI " needs SHA-NI, which this CPU does not have: using "
                       "SHA256Design=" X64_SHA256_AVX2);
        FLAG_SET_DEFAULT(SHA256Design, X64_SHA256_AVX2);
    } else if (strcmp(design, X64_SHA256_AVX2) == 0 && !avx2_bmi2 && sha_ni) {
        if (FLAG(UseSHA256Intrinsics))
            vm_warning("SHA256Design=" X64_SHA256_AVX2 " needs AVX2 and BMI2, which this CPU does not have (or "
                       "UseAVX hides): using SHA256Design=" X64_SHA256_SHA_NI);
        FLAG_SET_DEFAULT(SHA256Design, X64_SHA256_SHA_NI);
    }
}

static const char *const sha3_avx512_designs[] = {X64_SHA3_ROWS, X64_SHA3_LANES, NULL};
static const char *const sha256_designs[] = {X64_SHA256_SHA_NI, X64_SHA256_AVX2, NULL};
const char *x64_sha3_avx512_design(size_t i) { return i < 2 ? sha3_avx512_designs[i] : NULL; }
const char *x64_sha256_design(size_t i) { return i < 2 ? sha256_designs[i] : NULL; }

/* ---- the whole ------------------------------------------------------------------------------- */

void x64_sha_ergonomics(const cpu_info *cpu)
{
    bool sha = cpu_has(cpu, X64_CPU_SHA), avx2 = cpu_has(cpu, X64_CPU_AVX2), avx = cpu_has(cpu, X64_CPU_AVX);
    bool bmi1 = cpu_has(cpu, X64_CPU_BMI1), bmi2 = cpu_has(cpu, X64_CPU_BMI2);
    bool avx512 = cpu_has(cpu, X64_CPU_AVX512F);

    /* UseAVX: HotSpot's use_avx_limit, and its warning for more than the CPU has */
    intx avx_limit = avx512 ? 3 : avx2 ? 2 : avx ? 1 : 0;
    /* a vector width the user set and the CPU keeps (SHA-3, minivm's policy) */
    bool user_width = !FLAG_IS_DEFAULT(UseAVX) && FLAG(UseAVX) >= 2 && FLAG(UseAVX) <= avx_limit;
    if (FLAG_IS_DEFAULT(UseAVX)) {
        FLAG_SET_DEFAULT(UseAVX, avx_limit);
    } else if (FLAG(UseAVX) > avx_limit) {
        vm_warning("UseAVX=%d is not supported on this CPU, setting it to UseAVX=%d", (int)FLAG(UseAVX),
                   (int)avx_limit);
        FLAG_SET_DEFAULT(UseAVX, avx_limit);
    }
    /* HotSpot then clears the features UseAVX does not allow (_features &= ~CPU_AVX2 when
       UseAVX < 2, ...): every rule below sees the CPU as UseAVX leaves it */
    avx = avx && FLAG(UseAVX) >= 1;
    avx2 = avx2 && FLAG(UseAVX) >= 2;
    ergo_flag(FLAG_ID_UseBMI1Instructions, bmi1 && avx,
              "BMI1 instructions are not available on this CPU (AVX is also required)");
    ergo_flag(FLAG_ID_UseBMI2Instructions, bmi2 && avx,
              "BMI2 instructions are not available on this CPU (AVX is also required)");
    if (FLAG_IS_DEFAULT(UseFPUForSpilling))
        FLAG_SET_DEFAULT(UseFPUForSpilling, true);

    /* HotSpot (LP64): UseMD5Intrinsics on unless the user said no; its stub is general registers only */
    ergo_family(STUB_FAMILY_MD5, true);
    ergo_flag(FLAG_ID_UseSHA, sha || (avx2 && bmi2), "SHA instructions are not available on this CPU");
    ergo_family(STUB_FAMILY_SHA1, FLAG(UseSHA) && sha);
    /* HotSpot: SHA-NI's stub, else sha256_AVX2 (AVX2 and BMI2) */
    ergo_family(STUB_FAMILY_SHA256, FLAG(UseSHA) && (sha || (avx2 && bmi2)));
    sha256_design(sha, avx2 && bmi2);
    ergo_family(STUB_FAMILY_SHA512, FLAG(UseSHA) && avx2 && bmi2);

    /* HotSpot's SHA-3 rule sits before the UseSHA clean-up and ignores UseSHA (JDK 24/25) */
    sha3_ergonomics(cpu, user_width);

    if (!(FLAG(UseSHA1Intrinsics) || FLAG(UseSHA256Intrinsics) || FLAG(UseSHA512Intrinsics)))
        FLAG_SET_DEFAULT(UseSHA, false);
}
