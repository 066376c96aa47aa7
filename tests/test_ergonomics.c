/*
 * tests/test_ergonomics.c — the SHA ergonomics end to end (suite 'cli'):
 * build/minivm -XX:+UnlockDiagnosticVMOptions <case> -XX:+PrintFlagsFinal -version,
 * with the value and origin of UseSHA, UseSHA1Intrinsics, UseSHA256Intrinsics,
 * UseSHA512Intrinsics, UseSHA3Intrinsics, UseSIMDForSHA3Intrinsic read from the
 * listing and stderr compared exactly (the warnings, each once).
 *
 *  1. The seed table: every CPU of the JDK-8359256 review thread, selected by
 *     -XX:EmulateCPU and (where tests/data/cpuinfo/ has its head) by
 *     -XX:CPUInfoFile, under the default policy (JDK-8359256), the same named
 *     explicitly, and -XX:SHA3IntrinsicPolicy=JDK26. Under JDK26 the values are
 *     the seed's own `PrintFlagsFinal | grep SHA` dumps (JDK 25), origins {default}.
 *  2. The rules the HotSpot jtreg tests encode (
 *     test/hotspot/jtreg/compiler/intrinsics/sha/cli/) for each SHA flag on a
 *     supported and an unsupported emulated CPU, and the x86-64 policies
 *     (SHA-1/256/512 as HotSpot 25; SHA-3 under minivm's table, JDK24 and
 *     JDK-8384353; UseAVX capped as HotSpot).
 *  3. The what-if mode (an AArch64 CPU emulated on an x86-64 host), the
 *     done-criterion command line, CPU-selection errors, -XX:+PrintCPUFeatures.
 *
 * The expected flags are a 6-letter string in the order UseSHA, SHA1, SHA256,
 * SHA512, SHA3, UseSIMDForSHA3Intrinsic: T/F = true/false {default},
 * t/f = true/false {command line}, x = the flag does not exist.
 *
 * On an AArch64 host an emulated AArch64 CPU is not "what-if": the flags end
 * the same (this build generates both SHA-3 variants there), but the cases
 * expecting the what-if warning are skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

#define UNLOCK "-XX:+UnlockDiagnosticVMOptions"
#define FINAL  "-XX:+PrintFlagsFinal"
#define JDK26  "-XX:SHA3IntrinsicPolicy=JDK26"
#define J8359  "-XX:SHA3IntrinsicPolicy=JDK-8359256"
#define A53    "-XX:EmulateCPU=cortex-a53"
#define NV2    "-XX:EmulateCPU=neoverse-v2"
#define M4     "-XX:EmulateCPU=apple-m4"
#define ZEN3   "-XX:EmulateCPU=zen3"
#define HASWELL "-XX:EmulateCPU=haswell"
#define ICELAKE "-XX:EmulateCPU=icelake-server"
#define ZEN4   "-XX:EmulateCPU=zen4"

/* -version prints to stderr, after the start-up warnings (as java -version) */
#define VERSION TU_VERSION

#define WARN(text) TU_WARNING(text)
#define W_SHA    WARN("SHA instructions are not available on this CPU")
#define W_SHA1   WARN("Intrinsics for SHA-1 crypto hash functions not available on this CPU.")
#define W_SHA256 WARN("Intrinsics for SHA-224 and SHA-256 crypto hash functions not available on this CPU.")
#define W_SHA512 WARN("Intrinsics for SHA-384 and SHA-512 crypto hash functions not available on this CPU.")
#define W_SHA3                                                                                                   \
    WARN("Intrinsics for SHA3-224, SHA3-256, SHA3-384 and SHA3-512 crypto hash functions not available on this " \
         "CPU.")

static const char *const flag_names[6] = {"UseSHA",          "UseSHA1Intrinsics", "UseSHA256Intrinsics",
                                          "UseSHA512Intrinsics", "UseSHA3Intrinsics", "UseSIMDForSHA3Intrinsic"};

typedef struct erg_case {
    const char *name;
    const char *argv[10]; /* between UNLOCK and FINAL -version */
    const char *want;     /* 6 letters, see the header */
    const char *err;      /* the warnings on stderr, exactly, before VERSION ("" = silent) */
} erg_case;

/* ---- 1. The seed table ------------------------------------------------------------------------ */

typedef struct seed_cpu {
    const char *cpu;     /* -XX:EmulateCPU name */
    const char *cpuinfo; /* tests/data/cpuinfo/ file, or NULL (macOS: no /proc/cpuinfo) */
    const char *jdk26;   /* the seed's dump (JDK 25 = the JDK26 policy) */
    const char *j8359;   /* after JDK-8359256: UseSIMDForSHA3Intrinsic false except on Apple */
} seed_cpu;

static const seed_cpu seeds[] = {
    /* "**Cortex-A53 (RPi3)**": Features fp asimd evtstrm crc32 cpuid; dump: UseSHA = false,
       SHA1 = false, SHA256 = false, SHA3 = false, SHA512 = false, UseSIMDForSHA3Intrinsic = true */
    {"cortex-a53", "cortex-a53.txt", "FFFFFT", "FFFFFF"},
    /* "**Cortex-A72 (G1)**": sha1 sha2; dump: true, true, true, SHA3 false, SHA512 false, SIMD true */
    {"cortex-a72", "cortex-a72.txt", "TTTFFT", "TTTFFF"},
    /* "**ARM Neoverse N1 (G2)**": sha1 sha2; dump: true, true, true, SHA3 false, SHA512 false, SIMD true */
    {"neoverse-n1", "neoverse-n1.txt", "TTTFFT", "TTTFFF"},
    /* "**ARM Neoverse V1 (G3)**": sha1 sha2 sha3 sha512; dump: true, true, true, SHA3 false,
       SHA512 true, SIMD true */
    {"neoverse-v1", "neoverse-v1.txt", "TTTTFT", "TTTTFF"},
    /* "**ARM Neoverse V2 (G4)**": sha1 sha2 sha3 sha512; dump: true, true, true, SHA3 false,
       SHA512 true, SIMD true */
    {"neoverse-v2", "neoverse-v2.txt", "TTTTFT", "TTTTFF"},
    /* "**Apple M1**": the seed's second dump ("Enable UseSHA3Intrinsics by default on Apple silicon"):
       UseSHA, SHA1, SHA256, SHA3, SHA512 all true (seed003_apple_m1_dump checks its lines) */
    {"apple-m1", NULL, "TTTTTT", "TTTTTT"},
    /* "**Apple M4**": dump: UseSHA true, SHA1 true, SHA256 true, SHA3 true, SHA512 true, SIMD true */
    {"apple-m4", NULL, "TTTTTT", "TTTTTT"},
};
#define NSEEDS (sizeof seeds / sizeof seeds[0])
#define SEED_CASES (NSEEDS * 2 * 3)

static erg_case seed_cases[SEED_CASES];
static char seed_names[SEED_CASES][96];
static char seed_args[SEED_CASES][2][512];

/* Fills seed_cases; returns how many (CPUs without a cpuinfo head have no CPUInfoFile cases). */
static size_t make_seed_cases(void)
{
    static const char *const policies[3] = {NULL, J8359, JDK26};
    static const char *const policy_names[3] = {"default", "JDK-8359256", "JDK26"};
    size_t n = 0;
    for (size_t s = 0; s < NSEEDS; s++)
        for (int src = 0; src < 2; src++) {
            if (src == 1 && !seeds[s].cpuinfo)
                continue;
            for (int p = 0; p < 3; p++) {
                erg_case *c = &seed_cases[n];
                snprintf(seed_names[n], sizeof seed_names[n], "seed_%s_%s_%s", seeds[s].cpu,
                         src ? "cpuinfo" : "emulate", policy_names[p]);
                if (src)
                    snprintf(seed_args[n][0], sizeof seed_args[n][0], "-XX:CPUInfoFile=%s/%s",
                             tu_source_path("tests/data/cpuinfo"), seeds[s].cpuinfo);
                else
                    snprintf(seed_args[n][0], sizeof seed_args[n][0], "-XX:EmulateCPU=%s", seeds[s].cpu);
                c->name = seed_names[n];
                c->argv[0] = seed_args[n][0];
                c->argv[1] = policies[p];
                c->want = p == 2 ? seeds[s].jdk26 : seeds[s].j8359;
                c->err = ""; /* -version runs no program: not even the what-if warning */
                n++;
            }
        }
    return n;
}

/* ---- 2. The jtreg rules and the x86-64 policy ---------------------------------------------------- */

static const erg_case rule_cases[] = {
    /* -- UseSHA1Intrinsics: supported apple-m4 and neoverse-v2, unsupported cortex-a53 -- */
    {"sha1_supported_plus_no_warning", {M4, "-XX:+UseSHA1Intrinsics"}, "TtTTTT", ""},
    {"sha1_supported_plus_no_warning_v2", {NV2, "-XX:+UseSHA1Intrinsics"}, "TtTTFF", ""},
    {"sha1_supported_minus_false", {M4, "-XX:-UseSHA1Intrinsics"}, "TfTTTT", ""},
    {"sha1_supported_nosha_plus_warns", {M4, "-XX:-UseSHA", "-XX:+UseSHA1Intrinsics"}, "ffFFFF", W_SHA1},
    {"sha1_supported_plus_nosha_false", {NV2, "-XX:+UseSHA1Intrinsics", "-XX:-UseSHA"}, "ffFFFF", W_SHA1},
    {"sha1_unsupported_minus_silent", {A53, "-XX:-UseSHA1Intrinsics"}, "FfFFFF", ""},
    {"sha1_unsupported_nosha_plus_warns", {A53, "-XX:-UseSHA", "-XX:+UseSHA1Intrinsics"}, "ffFFFF", W_SHA1},
    {"sha1_unsupported_plus_false", {A53, "-XX:+UseSHA1Intrinsics"}, "FfFFFF", W_SHA1},
    /* -- UseSHA256Intrinsics -- */
    {"sha256_supported_plus_no_warning", {M4, "-XX:+UseSHA256Intrinsics"}, "TTtTTT", ""},
    {"sha256_supported_plus_no_warning_v2", {NV2, "-XX:+UseSHA256Intrinsics"}, "TTtTFF", ""},
    {"sha256_supported_minus_false", {M4, "-XX:-UseSHA256Intrinsics"}, "TTfTTT", ""},
    {"sha256_supported_nosha_plus_warns", {M4, "-XX:-UseSHA", "-XX:+UseSHA256Intrinsics"}, "fFfFFF", W_SHA256},
    {"sha256_supported_plus_nosha_false", {NV2, "-XX:+UseSHA256Intrinsics", "-XX:-UseSHA"}, "fFfFFF", W_SHA256},
    {"sha256_unsupported_minus_silent", {A53, "-XX:-UseSHA256Intrinsics"}, "FFfFFF", ""},
    {"sha256_unsupported_nosha_plus_warns", {A53, "-XX:-UseSHA", "-XX:+UseSHA256Intrinsics"}, "fFfFFF", W_SHA256},
    {"sha256_unsupported_plus_false", {A53, "-XX:+UseSHA256Intrinsics"}, "FFfFFF", W_SHA256},
    /* -- UseSHA512Intrinsics (cortex-a72: sha1/sha2 but no sha512 is unsupported too) -- */
    {"sha512_supported_plus_no_warning", {M4, "-XX:+UseSHA512Intrinsics"}, "TTTtTT", ""},
    {"sha512_supported_plus_no_warning_v2", {NV2, "-XX:+UseSHA512Intrinsics"}, "TTTtFF", ""},
    {"sha512_supported_minus_false", {M4, "-XX:-UseSHA512Intrinsics"}, "TTTfTT", ""},
    {"sha512_supported_nosha_plus_warns", {M4, "-XX:-UseSHA", "-XX:+UseSHA512Intrinsics"}, "fFFfFF", W_SHA512},
    {"sha512_supported_plus_nosha_false", {NV2, "-XX:+UseSHA512Intrinsics", "-XX:-UseSHA"}, "fFFfFF", W_SHA512},
    {"sha512_unsupported_minus_silent", {A53, "-XX:-UseSHA512Intrinsics"}, "FFFfFF", ""},
    {"sha512_unsupported_nosha_plus_warns", {A53, "-XX:-UseSHA", "-XX:+UseSHA512Intrinsics"}, "fFFfFF", W_SHA512},
    {"sha512_unsupported_plus_false", {A53, "-XX:+UseSHA512Intrinsics"}, "FFFfFF", W_SHA512},
    {"sha512_unsupported_a72_plus_false", {"-XX:EmulateCPU=cortex-a72", "-XX:+UseSHA512Intrinsics"}, "TTTfFF",
     W_SHA512},

    /* -- UseSHA3Intrinsics, JDK26 policy (UseSIMDForSHA3Intrinsic declared true: the SIMD stub,
          which needs the sha3 instructions) -- */
    {"sha3_jdk26_supported_plus_no_warning", {M4, JDK26, "-XX:+UseSHA3Intrinsics"}, "TTTTtT", ""},
    {"sha3_jdk26_supported_plus_no_warning_v2", {NV2, JDK26, "-XX:+UseSHA3Intrinsics"}, "TTTTtT", ""},
    {"sha3_jdk26_supported_minus_false", {M4, JDK26, "-XX:-UseSHA3Intrinsics"}, "TTTTfT", ""},
    {"sha3_jdk26_supported_nosha_plus_warns", {M4, JDK26, "-XX:-UseSHA", "-XX:+UseSHA3Intrinsics"}, "fFFFfT",
     W_SHA3},
    {"sha3_jdk26_supported_plus_nosha_false", {NV2, JDK26, "-XX:+UseSHA3Intrinsics", "-XX:-UseSHA"}, "fFFFfT",
     W_SHA3},
    {"sha3_jdk26_unsupported_minus_silent", {A53, JDK26, "-XX:-UseSHA3Intrinsics"}, "FFFFfT", ""},
    {"sha3_jdk26_unsupported_nosha_plus_warns", {A53, JDK26, "-XX:-UseSHA", "-XX:+UseSHA3Intrinsics"}, "fFFFfT",
     W_SHA3},
    {"sha3_jdk26_unsupported_plus_false", {A53, JDK26, "-XX:+UseSHA3Intrinsics"}, "FFFFfT", W_SHA3},
    /* the GPR stub serves any AArch64 CPU: no warning, the flag stays true */
    {"sha3_jdk26_unsupported_gpr_plus_true",
     {A53, JDK26, "-XX:+UseSHA3Intrinsics", "-XX:-UseSIMDForSHA3Intrinsic"}, "FFFFtf", ""},
    {"sha3_jdk26_supported_gpr_nosha_plus_true",
     {NV2, JDK26, "-XX:-UseSHA", "-XX:+UseSHA3Intrinsics", "-XX:-UseSIMDForSHA3Intrinsic"}, "fFFFtf", ""},

    /* -- UseSHA3Intrinsics, JDK-8359256 (the default; UseSIMDForSHA3Intrinsic false except on
          Apple with UseSHA and sha3): only +UseSIMDForSHA3Intrinsic without sha3 warns -- */
    {"sha3_8359256_supported_plus_no_warning", {M4, "-XX:+UseSHA3Intrinsics"}, "TTTTtT", ""},
    {"sha3_8359256_supported_plus_no_warning_v2", {NV2, "-XX:+UseSHA3Intrinsics"}, "TTTTtF", ""},
    {"sha3_8359256_supported_simd_plus_no_warning_v2",
     {NV2, "-XX:+UseSHA3Intrinsics", "-XX:+UseSIMDForSHA3Intrinsic"}, "TTTTtt", ""},
    {"sha3_8359256_supported_minus_false", {M4, "-XX:-UseSHA3Intrinsics"}, "TTTTfT", ""},
    {"sha3_8359256_supported_minus_false_explicit", {M4, J8359, "-XX:-UseSHA3Intrinsics"}, "TTTTfT", ""},
    /* -UseSHA: the Apple row is not reached, UseSIMDForSHA3Intrinsic stays false, the GPR stub serves */
    {"sha3_8359256_supported_nosha_plus_gpr", {M4, "-XX:-UseSHA", "-XX:+UseSHA3Intrinsics"}, "fFFFtF", ""},
    {"sha3_8359256_supported_plus_nosha_gpr", {NV2, "-XX:+UseSHA3Intrinsics", "-XX:-UseSHA"}, "fFFFtF", ""},
    {"sha3_8359256_supported_simd_nosha_plus_warns",
     {M4, "-XX:-UseSHA", "-XX:+UseSHA3Intrinsics", "-XX:+UseSIMDForSHA3Intrinsic"}, "fFFFft", W_SHA3},
    {"sha3_8359256_unsupported_minus_silent", {A53, "-XX:-UseSHA3Intrinsics"}, "FFFFfF", ""},
    {"sha3_8359256_unsupported_plus_gpr", {A53, "-XX:+UseSHA3Intrinsics"}, "FFFFtF", ""},
    {"sha3_8359256_unsupported_nosha_plus_gpr", {A53, "-XX:-UseSHA", "-XX:+UseSHA3Intrinsics"}, "fFFFtF", ""},
    {"sha3_8359256_unsupported_simd_plus_false", {A53, "-XX:+UseSHA3Intrinsics", "-XX:+UseSIMDForSHA3Intrinsic"},
     "FFFFft", W_SHA3},
    {"sha3_8359256_unsupported_simd_nosha_plus_warns",
     {A53, J8359, "-XX:-UseSHA", "-XX:+UseSHA3Intrinsics", "-XX:+UseSIMDForSHA3Intrinsic"}, "fFFFft", W_SHA3},

    /* -- UseSHA itself -- */
    {"usesha_plus_every_intrinsic_off_false",
     {M4, "-XX:+UseSHA", "-XX:-UseSHA1Intrinsics", "-XX:-UseSHA256Intrinsics", "-XX:-UseSHA512Intrinsics",
      "-XX:-UseSHA3Intrinsics"},
     "fffffT", ""},
    {"usesha_plus_every_intrinsic_off_false_v2",
     {NV2, "-XX:+UseSHA", "-XX:-UseSHA1Intrinsics", "-XX:-UseSHA256Intrinsics", "-XX:-UseSHA512Intrinsics"},
     "ffffFF", ""},
    {"usesha_minus_every_intrinsic_on_jdk26",
     {M4, JDK26, "-XX:-UseSHA", "-XX:+UseSHA1Intrinsics", "-XX:+UseSHA256Intrinsics", "-XX:+UseSHA512Intrinsics",
      "-XX:+UseSHA3Intrinsics"},
     "fffffT", W_SHA1 W_SHA256 W_SHA3 W_SHA512},
    /* under JDK-8359256 the GPR SHA-3 stub stays on; UseSHA stays false all the same */
    {"usesha_minus_every_intrinsic_on_8359256",
     {M4, "-XX:-UseSHA", "-XX:+UseSHA1Intrinsics", "-XX:+UseSHA256Intrinsics", "-XX:+UseSHA512Intrinsics",
      "-XX:+UseSHA3Intrinsics"},
     "fffftF", W_SHA1 W_SHA256 W_SHA512},
    {"usesha_unsupported_plus_warns", {A53, "-XX:+UseSHA"}, "fFFFFF", W_SHA},
    {"usesha_warnings_silenced",
     {A53, "-XX:-PrintWarnings", "-XX:+UseSHA", "-XX:+UseSHA1Intrinsics", "-XX:+UseSHA3Intrinsics",
      "-XX:+UseSIMDForSHA3Intrinsic"},
     "ffFFft", ""},

    /* -- x86-64: SHA1 from SHA-NI, SHA256 from SHA-NI (HotSpot 25: or AVX2+BMI2), SHA512 from AVX2+BMI2;
          SHA3 by policy. minivm's table: Intel with AVX-512 -> the AVX-512 stub (either design),
          AMD with AVX-512 -> the lanes stub but GPR under the row design, everything else -> GPR -- */
    {"x86_zen3_defaults", {ZEN3}, "TTTTTF", ""},
    /* without SHA-NI, SHA-256 runs HotSpot's sha256_AVX2 design (AVX2 and BMI2); UseAVX=1 hides AVX2 */
    {"x86_haswell_defaults", {HASWELL}, "TFTTTF", ""},
    {"x86_haswell_sha256_plus_avx2", {HASWELL, "-XX:+UseSHA256Intrinsics"}, "TFtTTF", ""},
    {"x86_haswell_sha256_plus_avx1_warns", {HASWELL, "-XX:UseAVX=1", "-XX:+UseSHA256Intrinsics"}, "FFfFTF",
     W_SHA256},
    {"x86_icelake_server_defaults", {ICELAKE}, "TTTTTT", ""},
    {"x86_zen4_defaults_lanes", {ZEN4}, "TTTTTT", ""},
    {"x86_zen4_rows_design_gpr", {ZEN4, "-XX:SHA3AVX512Design=rows"}, "TTTTTF", ""},
    {"x86_icelake_rows_design_simd", {ICELAKE, "-XX:SHA3AVX512Design=rows"}, "TTTTTT", ""},
    /* a user's UseAVX=2 or 3 names the vector width: that stub, unless -UseSIMDForSHA3Intrinsic */
    {"x86_icelake_user_avx2_width", {ICELAKE, "-XX:UseAVX=2"}, "TTTTTT", ""},
    {"x86_icelake_user_avx2_simd_minus_gpr", {ICELAKE, "-XX:UseAVX=2", "-XX:-UseSIMDForSHA3Intrinsic"}, "TTTTTf", ""},
    {"x86_zen3_user_avx2_width", {ZEN3, "-XX:UseAVX=2"}, "TTTTTT", ""},
    {"x86_zen4_user_avx3_width", {ZEN4, "-XX:UseAVX=3"}, "TTTTTT", ""},
    {"x86_zen4_user_avx1_gpr", {ZEN4, "-XX:UseAVX=1"}, "TTTFTF", ""},
    {"x86_zen3_sha3_plus", {ZEN3, "-XX:+UseSHA3Intrinsics"}, "TTTTtF", ""},
    {"x86_zen3_sha3_minus_silent", {ZEN3, "-XX:-UseSHA3Intrinsics"}, "TTTTfF", ""},
    {"x86_zen4_simd_plus", {ZEN4, "-XX:+UseSIMDForSHA3Intrinsic"}, "TTTTTt", ""},
    {"x86_icelake_simd_minus", {ICELAKE, "-XX:-UseSIMDForSHA3Intrinsic"}, "TTTTTf", ""},
    {"x86_zen3_avx_capped", {ZEN3, "-XX:UseAVX=3"}, "TTTTTF",
     WARN("UseAVX=3 is not supported on this CPU, setting it to UseAVX=2")},
    /* the vector stub's width: AVX2 (UseAVX=2) and AVX-512 (3); below AVX2 none: a user's
       +UseSIMDForSHA3Intrinsic cannot be honoured, the default gives way to the GPR stub */
    {"x86_zen3_simd_plus_avx2", {ZEN3, "-XX:+UseSIMDForSHA3Intrinsic"}, "TTTTTt", ""},
    {"x86_zen3_avx1_simd_plus_refused", {ZEN3, "-XX:UseAVX=1", "-XX:+UseSIMDForSHA3Intrinsic"}, "TTTFFt", W_SHA3},
    {"x86_icelake_avx1_default_gpr", {ICELAKE, "-XX:UseAVX=1"}, "TTTFTF", ""},
    /* HotSpot clears AVX2 below UseAVX=2: without SHA-NI, UseSHA and SHA-256/512 (AVX2+BMI2) go */
    {"x86_haswell_avx1_sha_off", {HASWELL, "-XX:UseAVX=1"}, "FFFFTF", ""},
    {"x86_jdk24_icelake_avx1_simd_refused",
     {ICELAKE, "-XX:SHA3IntrinsicPolicy=JDK24", "-XX:UseAVX=1", "-XX:+UseSHA3Intrinsics"}, "TTTFfT", W_SHA3},
    /* JDK 24/25: AVX-512F+BW or nothing; UseSIMDForSHA3Intrinsic keeps its declared true */
    {"x86_jdk24_icelake_on", {ICELAKE, "-XX:SHA3IntrinsicPolicy=JDK24"}, "TTTTTT", ""},
    {"x86_jdk24_zen4_on", {ZEN4, "-XX:SHA3IntrinsicPolicy=JDK24"}, "TTTTTT", ""},
    {"x86_jdk24_zen3_off", {ZEN3, "-XX:SHA3IntrinsicPolicy=JDK24"}, "TTTTFT", ""},
    {"x86_jdk24_zen3_plus_refused", {ZEN3, "-XX:SHA3IntrinsicPolicy=JDK24", "-XX:+UseSHA3Intrinsics"}, "TTTTfT",
     W_SHA3},
    {"x86_jdk24_icelake_avx2_plus_refused",
     {ICELAKE, "-XX:SHA3IntrinsicPolicy=JDK24", "-XX:UseAVX=2", "-XX:+UseSHA3Intrinsics"}, "TTTTfT", W_SHA3},
    /* JDK-8384353: AVX-512F+BW+VL (and UseSHA), the warning only for a user's flag */
    {"x86_8384353_icelake_on", {ICELAKE, "-XX:SHA3IntrinsicPolicy=JDK-8384353"}, "TTTTTT", ""},
    {"x86_8384353_zen3_off", {ZEN3, "-XX:SHA3IntrinsicPolicy=JDK-8384353"}, "TTTTFT", ""},
    {"x86_8384353_zen3_plus_refused", {ZEN3, "-XX:SHA3IntrinsicPolicy=JDK-8384353", "-XX:+UseSHA3Intrinsics"},
     "TTTTfT", W_SHA3},
    {"x86_8384353_icelake_nosha_off", {ICELAKE, "-XX:SHA3IntrinsicPolicy=JDK-8384353", "-XX:-UseSHA"}, "fFFFFT",
     ""},
    {"x86_haswell_sha1_unsupported_plus_false", {HASWELL, "-XX:+UseSHA1Intrinsics"}, "TfTTTF", W_SHA1},
    {"x86_haswell_sha1_unsupported_minus_silent", {HASWELL, "-XX:-UseSHA1Intrinsics"}, "TfTTTF", ""},
    {"x86_zen3_sha1_plus_no_warning", {ZEN3, "-XX:+UseSHA1Intrinsics"}, "TtTTTF", ""},
    {"x86_zen3_nosha_plus_warns", {ZEN3, "-XX:-UseSHA", "-XX:+UseSHA256Intrinsics"}, "fFfFTF", W_SHA256},
    {"x86_zen3_plus_every_intrinsic_off_false",
     {ZEN3, "-XX:+UseSHA", "-XX:-UseSHA1Intrinsics", "-XX:-UseSHA256Intrinsics", "-XX:-UseSHA512Intrinsics"},
     "ffffTF", ""},
};

/* ---- the runner ------------------------------------------------------------------------------- */

/* The line of flag name in a PrintFlagsFinal listing, copied (NULL when absent). */
static char *line_of(const char *out, const char *name)
{
    size_t n = strlen(name);
    for (const char *l = out; *l;) {
        size_t len = strcspn(l, "\n");
        if (len > 10 + n && strncmp(l + 10, name, n) == 0 && l[10 + n] == ' ') {
            char *copy = malloc(len + 1);
            assert_non_null(copy);
            memcpy(copy, l, len);
            copy[len] = '\0';
            return copy;
        }
        l += len;
        if (*l == '\n')
            l++;
    }
    return NULL;
}

/* Checks name's value and origin against the letter (see the header). */
static void check_flag(const char *case_name, const char *out, const char *name, char want)
{
    char *line = line_of(out, name);
    if (want == 'x') {
        if (line)
            fail_msg("%s: %s must not exist here, got\n%s", case_name, name, line);
        return;
    }
    if (!line)
        fail_msg("%s: no %s line in\n%s", case_name, name, out);
    /* the value starts at offset 53 (PrintFlagsFinal layout) and runs to the next blank */
    size_t llen = strlen(line), vlen = 0;
    const char *value = line + (llen > 53 ? 53 : llen);
    while (value[vlen] != '\0' && value[vlen] != ' ')
        vlen++;
    const char *origin = strrchr(line, '{');
    bool want_true = want == 'T' || want == 't';
    const char *want_origin = want == 'T' || want == 'F' ? "{default}" : "{command line}";
    bool ok = vlen == (want_true ? 4u : 5u) && strncmp(value, want_true ? "true" : "false", vlen) == 0 && origin &&
              strcmp(origin, want_origin) == 0;
    if (!ok)
        fail_msg("%s: %s: expected %s %s, got\n%s", case_name, name, want_true ? "true" : "false", want_origin, line);
    free(line);
}

static bool host_is_x86_64(void)
{
#if defined(__x86_64__)
    return true;
#else
    return false;
#endif
}

static void run_case(void **state)
{
    const erg_case *c = *state;
    const char *argv[16] = {UNLOCK};
    size_t n = 1;
    for (size_t i = 0; i < 10; i++)
        if (c->argv[i])
            argv[n++] = c->argv[i];
    argv[n++] = FINAL;
    argv[n++] = "-version";
    tu_result r = tu_run(argv, NULL, 60);
    if (r.status != 0)
        fail_msg("%s: exit status %d\n--- stdout ---\n%s\n--- stderr ---\n%s", c->name, r.status, r.out, r.err);
    size_t elen = strlen(c->err);
    if (strncmp(r.err, c->err, elen) != 0 || strcmp(r.err + elen, VERSION) != 0)
        fail_msg("%s: stderr differs\n--- expected ---\n%s" VERSION "\n--- got ---\n%s", c->name, c->err, r.err);
    assert_int_equal(strlen(c->want), 6);
    for (int i = 0; i < 6; i++)
        check_flag(c->name, r.out, flag_names[i], c->want[i]);
    tu_result_free(&r);
}

/* ---- 3. What-if mode, the done criterion, CPU-selection errors ------------------------------- */

#define HELLO_OUT "Hello, world!\n0 1 1 2 3 5 8 13 21 34 \n"
#define WHAT_IF_M4                                                                                           \
    WARN("apple-m4 is emulated on an x86_64 host: no aarch64 stub runs here, intrinsic candidates run their " \
         "bytecode")

static void what_if_program_runs_and_warns_once(void **state)
{
    (void)state;
    if (!host_is_x86_64())
        skip();
    const char *argv[] = {UNLOCK, M4, tu_source_path("examples/hello.mva"), NULL};
    tu_result r = tu_run(argv, NULL, 60);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, HELLO_OUT);
    assert_string_equal(r.err, WHAT_IF_M4);
    tu_result_free(&r);

    /* an emulated CPU whose flags name no stub runs silently (Neoverse V2 under JDK-8359256 has the
       SHA-3 intrinsic off; -UseSHA takes the SHA-1/SHA-2 ones, -UseMD5Intrinsics the MD5 one) */
    const char *quiet[] = {UNLOCK, NV2, "-XX:-UseSHA", "-XX:-UseMD5Intrinsics", tu_source_path("examples/hello.mva"),
                           NULL};
    r = tu_run(quiet, NULL, 60);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, HELLO_OUT);
    assert_string_equal(r.err, "");
    tu_result_free(&r);

    /* and -XX:-PrintWarnings silences it */
    const char *silenced[] = {UNLOCK, M4, "-XX:-PrintWarnings", tu_source_path("examples/hello.mva"), NULL};
    r = tu_run(silenced, NULL, 60);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, HELLO_OUT);
    assert_string_equal(r.err, "");
    tu_result_free(&r);
}

/* The issue's done criterion, line for line (HotSpot's columns, runtime/flags/jvmFlag.cpp). */
static void done_criterion_apple_m4(void **state)
{
    (void)state;
    if (!host_is_x86_64())
        skip();
    static const char *const lines[] = {
        "     bool UseSHA                                   = true                                      {product} "
        "{default}",
        "     bool UseSHA1Intrinsics                        = true                                   {diagnostic} "
        "{default}",
        "     bool UseSHA256Intrinsics                      = true                                   {diagnostic} "
        "{default}",
        "     bool UseSHA3Intrinsics                        = true                                   {diagnostic} "
        "{default}",
        "     bool UseSHA512Intrinsics                      = true                                   {diagnostic} "
        "{default}",
        "     bool UseSIMDForSHA3Intrinsic                  = true                                 {ARCH product} "
        "{default}",
    };
    const char *argv[] = {UNLOCK, M4, FINAL, "-version", NULL};
    tu_result r = tu_run(argv, NULL, 60);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, VERSION);
    assert_true(strncmp(r.out, "[Global flags]\n", 15) == 0);
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char *l = line_of(r.out, flag_names[i == 3 ? 4 : i == 4 ? 3 : i]);
        assert_non_null(l);
        assert_string_equal(l, lines[i]);
        free(l);
    }
    /* sorted by strcmp, as HotSpot: SHA3 before SHA512 */
    assert_true(strstr(r.out, " UseSHA3Intrinsics ") < strstr(r.out, " UseSHA512Intrinsics "));
    tu_result_free(&r);
}

/* Seed 003's Apple M1 dump (its second, after "Enable UseSHA3Intrinsics by default on Apple silicon"),
   as the seed prints it: PrintFlagsFinal's lines with their runs of spaces squeezed. */
static void seed003_apple_m1_dump(void **state)
{
    (void)state;
    static const char *const dump[] = {
        "bool UseSHA = true {product} {default}",
        "bool UseSHA1Intrinsics = true {diagnostic} {default}",
        "bool UseSHA256Intrinsics = true {diagnostic} {default}",
        "bool UseSHA3Intrinsics = true {diagnostic} {default}",
        "bool UseSHA512Intrinsics = true {diagnostic} {default}",
    };
    static const char *const names[] = {"UseSHA", "UseSHA1Intrinsics", "UseSHA256Intrinsics", "UseSHA3Intrinsics",
                                        "UseSHA512Intrinsics"};
    const char *argv[] = {UNLOCK, "-XX:EmulateCPU=apple-m1", FINAL, "-version", NULL};
    tu_result r = tu_run(argv, NULL, 60);
    assert_int_equal(r.status, 0);
    for (size_t i = 0; i < sizeof dump / sizeof dump[0]; i++) {
        char *l = line_of(r.out, names[i]);
        assert_non_null(l);
        /* squeeze: drop leading spaces, one space for every run */
        char sq[256];
        size_t n = 0;
        for (const char *c = l; *c && n + 1 < sizeof sq; c++)
            if (*c != ' ' || (n > 0 && sq[n - 1] != ' '))
                sq[n++] = *c;
        while (n > 0 && sq[n - 1] == ' ')
            n--;
        sq[n] = '\0';
        if (strcmp(sq, dump[i]) != 0)
            fail_msg("seed 003's M1 dump has\n  %s\nminivm prints\n  %s", dump[i], sq);
        free(l);
    }
    tu_result_free(&r);
}

static void unknown_emulated_cpu_lists_the_catalog(void **state)
{
    (void)state;
    const char *argv[] = {UNLOCK, "-XX:EmulateCPU=pentium-4", "-version", NULL};
    tu_result r = tu_run(argv, NULL, 60);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    static const char head[] = "Error occurred during initialization of VM\nunknown CPU 'pentium-4'; known CPUs: ";
    if (strncmp(r.err, head, strlen(head)) != 0)
        fail_msg("stderr:\n%s", r.err);
    static const char *const catalog[] = {"cortex-a53", "cortex-a72", "neoverse-n1", "neoverse-v1", "neoverse-v2",
                                          "apple-m1",   "apple-m4",   "cortex-a76",  "a64fx",       "qemu-max",
                                          "haswell",    "icelake-server", "zen3"};
    for (size_t i = 0; i < sizeof catalog / sizeof catalog[0]; i++)
        if (!strstr(r.err + strlen(head), catalog[i]))
            fail_msg("the catalog lacks %s:\n%s", catalog[i], r.err);
    /* the list is one line, the last */
    assert_true(strchr(r.err + strlen(head), '\n') == r.err + strlen(r.err) - 1);
    tu_result_free(&r);
}

static void unreadable_cpuinfo_file_fails(void **state)
{
    (void)state;
    const char *argv[] = {UNLOCK, "-XX:CPUInfoFile=/nonexistent/cpuinfo", "-version", NULL};
    tu_result r = tu_run(argv, NULL, 60);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err,
                        "Error occurred during initialization of VM\n/nonexistent/cpuinfo: No such file or directory\n");
    tu_result_free(&r);

    const char *empty[] = {UNLOCK, "-XX:CPUInfoFile=/dev/null", "-version", NULL};
    r = tu_run(empty, NULL, 60);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "Error occurred during initialization of VM\n/dev/null: not a /proc/cpuinfo text"));
    tu_result_free(&r);
}

/* -XX:EmulateCPU and -XX:CPUInfoFile together, in either order, whether or not the file exists: refused
   (the file used to be ignored silently, exit 0) */
static void emulated_cpu_and_cpuinfo_file_conflict(void **state)
{
    (void)state;
    /* an existing file of the other architecture, with an option only that architecture has: the conflict is
       found before any option is judged against either architecture's table */
    char file[4096];
    snprintf(file, sizeof file, "%s", tu_source_path("tests/data/cpuinfo/x86-64-epyc.txt"));
    const char *const pairs[][2] = {
        {"-XX:EmulateCPU=zen3", "-XX:CPUInfoFile=/nonexistent/cpuinfo"},
        {"-XX:CPUInfoFile=/nonexistent/cpuinfo", "-XX:EmulateCPU=zen3"},
        {"-XX:EmulateCPU=neoverse-n1", NULL},
    };
    char with_file[4200];
    snprintf(with_file, sizeof with_file, "-XX:CPUInfoFile=%s", file);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const char *argv[] = {UNLOCK, pairs[i][0], pairs[i][1] ? pairs[i][1] : with_file, "-XX:+PrintFlagsFinal",
                              "-XX:UseAVX=2", "-version", NULL};
        tu_result r = tu_run(argv, NULL, 60);
        assert_int_equal(r.status, 1);
        assert_string_equal(r.out, "");
        char want[4400];
        snprintf(want, sizeof want,
                 "Error occurred during initialization of VM\nMultiple CPUs selected: -XX:EmulateCPU=%s and "
                 "-XX:CPUInfoFile=%s (use one of them)\n",
                 pairs[i][1] ? "zen3" : "neoverse-n1", pairs[i][1] ? "/nonexistent/cpuinfo" : file);
        tu_expect_text("stderr", r.err, TU_EXACT, want);
        tu_result_free(&r);
    }
}

static void print_cpu_features(void **state)
{
    (void)state;
    const char *argv[] = {UNLOCK, M4, "-XX:+PrintCPUFeatures", "-version", NULL};
    tu_result r = tu_run(argv, NULL, 60);
    assert_int_equal(r.status, 0);
    const char *cpu = strstr(r.out, "CPU: total ");
    if (!cpu || (cpu != r.out && cpu[-1] != '\n'))
        fail_msg("no CPU line:\n%s", r.out);
    size_t len = strcspn(cpu, "\n");
    /* HotSpot's implementer:variant:part:revision, then the features */
    char *line = strndup(cpu, len);
    assert_non_null(line);
    assert_non_null(strstr(line, " 0x61:0x0:"));
    assert_non_null(strstr(line, ", sha1, sha256, "));
    assert_non_null(strstr(line, ", sha3, sha512"));
    free(line);
    tu_result_free(&r);

    const char *file[] = {UNLOCK, "-XX:CPUInfoFile=@", "-XX:+PrintCPUFeatures", "-version", NULL};
    char *arg = tu_subst(file[1], tu_source_path("tests/data/cpuinfo/neoverse-v2.txt"));
    file[1] = arg;
    r = tu_run(file, NULL, 60);
    assert_int_equal(r.status, 0);
    cpu = strstr(r.out, "CPU: total ");
    assert_non_null(cpu);
    assert_non_null(strstr(cpu, " 0x41:0x0:0xd4f:1, "));
    assert_true(strstr(cpu, ", sha3, sha512") != NULL && strstr(cpu, ", sha3, sha512") < strchr(cpu, '\n'));
    free(arg);
    tu_result_free(&r);
}

int main(void)
{
    unsetenv("MINIVM_TOOL_OPTIONS");
    size_t nseed = make_seed_cases();
    tu_group g = {0};
    TU_ADD_CASES(&g, seed_cases, nseed, run_case);
    TU_ADD_TABLE(&g, rule_cases, run_case);
    TU_ADD_TEST(&g, what_if_program_runs_and_warns_once);
    TU_ADD_TEST(&g, done_criterion_apple_m4);
    TU_ADD_TEST(&g, seed003_apple_m1_dump);
    TU_ADD_TEST(&g, unknown_emulated_cpu_lists_the_catalog);
    TU_ADD_TEST(&g, unreadable_cpuinfo_file_fails);
    TU_ADD_TEST(&g, emulated_cpu_and_cpuinfo_file_conflict);
    TU_ADD_TEST(&g, print_cpu_features);
    return tu_run_group("ergonomics", &g, NULL, NULL);
}
