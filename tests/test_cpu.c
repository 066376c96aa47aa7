/*
 * tests/test_cpu.c — CPU detection (cpu/cpu.h): the catalog, the
 * /proc/cpuinfo parser, the HotSpot-style print, and the host (suite 'unit').
 *
 * Tables, one behaviour per line, each line its own cmocka test:
 *  - catalog_cases: every -XX:EmulateCPU entry: HotSpot's features string
 *    (implementer:variant:part:revision and the feature names), MIDR, the
 *    SHA features that drive the ergonomics, present and absent.
 *  - seed_cases: the /proc/cpuinfo heads of the JDK-8359256 review thread's dumps
 *    (tests/data/cpuinfo/) parse to the same CPU as their catalog entry.
 *  - text_cases: odd texts (empty, garbage, CRLF, NUL bytes, numbers out of
 *    range): parsed or rejected as stated, never a crash (ASan build).
 * Then single tests: x86 text on both parsers, big.LITTLE, huge lines, random
 * bytes, file errors, unknown catalog names, cpu_print's exact text, feature
 * names, and cpu_detect_host checked against the host's /proc/cpuinfo.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu.h"
#include "cpu_impl.h"
#include "aarch64/cpu_aarch64.h"
#include "x86_64/cpu_x86_64.h"
#include "testutil.h"

/* ---- helpers ---------------------------------------------------------------- */

static const char *data_path(const char *name)
{
    static char path[4096];
    const char *root = getenv("MINIVM_SOURCE_ROOT");
    snprintf(path, sizeof path, "%s/tests/data/cpuinfo/%s", root ? root : ".", name);
    return path;
}

static const char *features_string(const cpu_info *ci)
{
    static char buf[1024];
    cpu_features_string(ci, buf, sizeof buf);
    return buf;
}

/* Every word of names is a feature of arch that ci has (want = true) or lacks. */
static void check_features(const char *what, const cpu_info *ci, const char *names, bool want)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", names ? names : "");
    for (char *save = NULL, *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        int f = cpu_feature_lookup(ci->arch, w);
        if (f < 0)
            fail_msg("%s: '%s' is no %s feature", what, w, cpu_arch_name(ci->arch));
        if (cpu_has(ci, f) != want)
            fail_msg("%s: expected %s %s", what, want ? "feature" : "no feature", w);
    }
}

static void check_text(const char *what, const char *actual, const char *expected)
{
    if (strcmp(actual, expected) != 0)
        fail_msg("%s:\n  expected: %s\n  actual:   %s", what, expected, actual);
}

/* ---- table 1: the catalog ----------------------------------------------------- */

typedef struct catalog_case {
    const char *name;
    cpu_arch arch;
    uint32_t midr;            /* AArch64: MIDR_EL1 (0: macOS, none) */
    const char *vendor;       /* x86-64 */
    const char *has, *lacks;  /* feature names (HotSpot's or /proc/cpuinfo's) */
    const char *features;     /* cpu_features_string, exactly */
} catalog_case;

#define A64 CPU_ARCH_AARCH64
#define X64 CPU_ARCH_X86_64
#define NEON_CRYPTO "fp asimd aes pmull sha1 sha2"

static const catalog_case catalog_cases[] = {
    /* MIDR: QEMU's target/arm/cpu64.c for the QEMU models (a53, a72, a76, a64fx, max); the
       seeds for N1 (r3p1; QEMU's neoverse-n1 is r4p1, 0x414fd0c1), V1 (r1p1; QEMU 10's is r1p2), V2. */
    { "cortex-a53", A64, 0x410fd034, NULL, "fp asimd crc32 cpuid a53mac", "aes sha1 sha2 sha3 sha512 atomics",
      "0x41:0x0:0xd03:4, fp, asimd, evtstrm, crc32, a53mac" },
    { "cortex-a72", A64, 0x410fd083, NULL, NEON_CRYPTO " crc32", "sha3 sha512 atomics a53mac",
      "0x41:0x0:0xd08:3, fp, asimd, evtstrm, aes, pmull, sha1, sha256, crc32" },
    { "cortex-a76", A64, 0x414fd0b1, NULL, NEON_CRYPTO " lse", "sha3 sha512 sve",
      "0x41:0x4:0xd0b:1, fp, asimd, evtstrm, aes, pmull, sha1, sha256, crc32, lse, fphp, asimdhp, dcpop" },
    { "neoverse-n1", A64, 0x413fd0c1, NULL, NEON_CRYPTO " atomics", "sha3 sha512 sve",
      "0x41:0x3:0xd0c:1, fp, asimd, evtstrm, aes, pmull, sha1, sha256, crc32, lse, fphp, asimdhp, dcpop" },
    { "neoverse-v1", A64, 0x411fd401, NULL, NEON_CRYPTO " sha3 sha512 sve", "sve2",
      "0x41:0x1:0xd40:1, fp, asimd, evtstrm, aes, pmull, sha1, sha256, crc32, lse, fphp, asimdhp, dcpop, "
      "sha3, sha512, sve, paca" },
    { "neoverse-v2", A64, 0x410fd4f1, NULL, NEON_CRYPTO " sha3 sha512 sve sve2 svebitperm", "a53mac",
      "0x41:0x0:0xd4f:1, fp, asimd, evtstrm, aes, pmull, sha1, sha256, crc32, lse, fphp, asimdhp, dcpop, "
      "sha3, sha512, sve, paca, svebitperm, sve2" },
    { "apple-m1",    A64, 0,          NULL, NEON_CRYPTO " crc32 lse sha3 sha512", "sve evtstrm cpuid",
      "0x61:0x0:0x1b588bb3:0, fp, asimd, aes, pmull, sha1, sha256, crc32, lse, sha3, sha512" },
    { "apple-m4",    A64, 0,          NULL, NEON_CRYPTO " crc32 lse sha3 sha512", "sve evtstrm cpuid",
      "0x61:0x0:0x6f5129ac:0, fp, asimd, aes, pmull, sha1, sha256, crc32, lse, sha3, sha512" },
    { "a64fx",       A64, 0x461f0010, NULL, "fp asimd sha1 sha2 sve", "aes pmull sha3 sha512 sve2",
      "0x46:0x1:0x001:0, fp, asimd, evtstrm, sha1, sha256, crc32, lse, fphp, asimdhp, dcpop, sve" },
    { "qemu-max",    A64, 0x000f0510, NULL, NEON_CRYPTO " sha3 sha512 sve sve2", "evtstrm",
      "0x00:0x0:0x051:0, fp, asimd, aes, pmull, sha1, sha256, crc32, lse, fphp, asimdhp, dcpop, sha3, "
      "sha512, sve, paca, svebitperm, sve2" },
    { "haswell",        X64, 0, "GenuineIntel", "avx2 bmi1 bmi2", "sha avx512f adx",
      "(12 cores per cpu, 2 threads per core) family 6 model 63 stepping 2 microcode 0x0, cx8, cmov, fxsr, "
      "ht, mmx, sse, sse2, sse3, ssse3, sse4.1, sse4.2, popcnt, lzcnt, avx, avx2, aes, erms, clmul, bmi1, "
      "bmi2, fma" },
    { "skylake-avx512", X64, 0, "GenuineIntel", "avx2 bmi2 avx512f avx512vl", "sha sha_ni",
      "(24 cores per cpu, 2 threads per core) family 6 model 85 stepping 4 microcode 0x0, cx8, cmov, fxsr, "
      "ht, mmx, sse, sse2, sse3, ssse3, sse4.1, sse4.2, popcnt, lzcnt, avx, avx2, aes, erms, clmul, bmi1, "
      "bmi2, adx, avx512f, avx512dq, avx512cd, avx512bw, avx512vl, fma" },
    { "icelake-server", X64, 0, "GenuineIntel", "sha avx2 bmi1 bmi2 avx512f avx512vl", "sse4a",
      "(32 cores per cpu, 2 threads per core) family 6 model 106 stepping 6 microcode 0x0, cx8, cmov, fxsr, "
      "ht, mmx, sse, sse2, sse3, ssse3, sse4.1, sse4.2, popcnt, lzcnt, avx, avx2, aes, erms, clmul, bmi1, "
      "bmi2, adx, avx512f, avx512dq, avx512cd, avx512bw, avx512vl, sha, fma" },
    { "zen3",           X64, 0, "AuthenticAMD", "sha_ni avx2 bmi1 bmi2", "avx512f avx512vl",
      "(64 cores per cpu, 2 threads per core) family 25 model 1 stepping 1 microcode 0x0, cx8, cmov, fxsr, "
      "ht, mmx, sse, sse2, sse3, ssse3, sse4a, sse4.1, sse4.2, popcnt, lzcnt, avx, avx2, aes, erms, clmul, "
      "bmi1, bmi2, adx, sha, fma" },
    { "zen4",           X64, 0, "AuthenticAMD", "sha avx2 bmi2 avx512f avx512vl", "",
      "(96 cores per cpu, 2 threads per core) family 25 model 17 stepping 1 microcode 0x0, cx8, cmov, fxsr, "
      "ht, mmx, sse, sse2, sse3, ssse3, sse4a, sse4.1, sse4.2, popcnt, lzcnt, avx, avx2, aes, erms, clmul, "
      "bmi1, bmi2, adx, avx512f, avx512dq, avx512cd, avx512bw, avx512vl, sha, fma" },
    { "sapphire-rapids", X64, 0, "GenuineIntel", "sha avx2 bmi2 avx512f avx512bw avx512vl", "sse4a",
      "(48 cores per cpu, 2 threads per core) family 6 model 143 stepping 8 microcode 0x0, cx8, cmov, fxsr, "
      "ht, mmx, sse, sse2, sse3, ssse3, sse4.1, sse4.2, popcnt, lzcnt, avx, avx2, aes, erms, clmul, bmi1, "
      "bmi2, adx, avx512f, avx512dq, avx512cd, avx512bw, avx512vl, sha, fma" },
    { "emerald-rapids", X64, 0, "GenuineIntel", "sha avx2 bmi2 avx512f avx512bw avx512vl", "sse4a",
      "(60 cores per cpu, 2 threads per core) family 6 model 207 stepping 2 microcode 0x0, cx8, cmov, fxsr, "
      "ht, mmx, sse, sse2, sse3, ssse3, sse4.1, sse4.2, popcnt, lzcnt, avx, avx2, aes, erms, clmul, bmi1, "
      "bmi2, adx, avx512f, avx512dq, avx512cd, avx512bw, avx512vl, sha, fma" },
    { "sierra-forest",  X64, 0, "GenuineIntel", "sha avx2 bmi1 bmi2", "avx512f avx512vl ht",
      "(144 cores per cpu, 1 threads per core) family 6 model 175 stepping 3 microcode 0x0, cx8, cmov, fxsr, "
      "mmx, sse, sse2, sse3, ssse3, sse4.1, sse4.2, popcnt, lzcnt, avx, avx2, aes, erms, clmul, bmi1, "
      "bmi2, adx, sha, fma" },
    { "zen5",           X64, 0, "AuthenticAMD", "sha avx2 bmi2 avx512f avx512bw avx512vl", "",
      "(96 cores per cpu, 2 threads per core) family 26 model 2 stepping 1 microcode 0x0, cx8, cmov, fxsr, "
      "ht, mmx, sse, sse2, sse3, ssse3, sse4a, sse4.1, sse4.2, popcnt, lzcnt, avx, avx2, aes, erms, clmul, "
      "bmi1, bmi2, adx, avx512f, avx512dq, avx512cd, avx512bw, avx512vl, sha, fma" },
};
#define NCATALOG_CASES (sizeof catalog_cases / sizeof catalog_cases[0])

static void run_catalog_case(void **state)
{
    const catalog_case *c = *state;
    cpu_info ci;
    char err[1024] = "";
    if (!cpu_emulate(c->name, &ci, err, sizeof err))
        fail_msg("%s: %s", c->name, err);
    assert_int_equal(ci.arch, c->arch);
    assert_int_equal(ci.origin, CPU_EMULATED);
    assert_string_equal(ci.origin_name, c->name);
    assert_true(ci.description[0] != '\0');
    assert_true(ci.total_cpus >= 1 && ci.active_cpus >= 1);
    check_text(c->name, features_string(&ci), c->features);
    check_features(c->name, &ci, c->has, true);
    check_features(c->name, &ci, c->lacks, false);
    if (c->arch == A64) {
        assert_int_equal(ci.aarch64.midr, c->midr);
        if (c->midr)   /* the fields and the register agree */
            assert_int_equal(a64_midr(ci.aarch64.implementer, ci.aarch64.variant, ci.aarch64.part,
                                      ci.aarch64.revision), c->midr);
    } else {
        assert_string_equal(ci.x86_64.vendor, c->vendor);
    }
}

/* The table above covers the whole catalog, and the catalog has no duplicate. */
static void catalog_table_is_complete(void **state)
{
    (void)state;
    assert_int_equal(cpu_catalog_count(), NCATALOG_CASES);
    for (size_t i = 0; i < cpu_catalog_count(); i++) {
        const char *name = cpu_catalog_name(i);
        assert_non_null(name);
        size_t found = 0;
        for (size_t k = 0; k < NCATALOG_CASES; k++)
            found += strcmp(catalog_cases[k].name, name) == 0;
        if (found != 1)
            fail_msg("catalog entry %s is in the test table %zu times", name, found);
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(cpu_catalog_name(j), name);
    }
    assert_null(cpu_catalog_name(cpu_catalog_count()));
}

static void unknown_cpu_lists_the_catalog(void **state)
{
    (void)state;
    static const char *const bad[] = { "cortex-a99", "", "neoverse-n1 ", "x86" };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        cpu_info ci;
        char err[1024] = "";
        assert_false(cpu_emulate(bad[b], &ci, err, sizeof err));
        char prefix[64];
        snprintf(prefix, sizeof prefix, "unknown CPU '%s'; known CPUs: ", bad[b]);
        if (strncmp(err, prefix, strlen(prefix)) != 0)
            fail_msg("message for '%s': %s", bad[b], err);
        for (size_t i = 0; i < cpu_catalog_count(); i++)
            if (!strstr(err, cpu_catalog_name(i)))
                fail_msg("message for '%s' does not list %s: %s", bad[b], cpu_catalog_name(i), err);
    }
    cpu_info ci;
    char err[8];   /* a short buffer truncates, never overflows */
    assert_false(cpu_emulate(NULL, &ci, err, sizeof err));
    assert_int_equal(strlen(err), sizeof err - 1);
    assert_false(cpu_emulate("nope", &ci, NULL, 0));
}

static void catalog_names_ignore_case(void **state)
{
    (void)state;
    cpu_info ci;
    assert_true(cpu_emulate("Neoverse-N1", &ci, NULL, 0));
    assert_string_equal(ci.origin_name, "neoverse-n1");
    assert_true(cpu_emulate("APPLE-M4", &ci, NULL, 0));
    assert_int_equal(ci.aarch64.implementer, A64_IMPL_APPLE);
}

/* ---- table 2: the seeds' /proc/cpuinfo --------------------------------------------- */

typedef struct seed_case {
    const char *file;
    const char *catalog;    /* the entry that must describe the same CPU */
    const char *features;   /* cpu_features_string, exactly */
} seed_case;

static const seed_case seed_cases[] = {
    { "cortex-a53.txt",  "cortex-a53",  "0x41:0x0:0xd03:4, fp, asimd, evtstrm, crc32, a53mac" },
    { "cortex-a72.txt",  "cortex-a72",  "0x41:0x0:0xd08:3, fp, asimd, evtstrm, aes, pmull, sha1, sha256, crc32" },
    { "neoverse-n1.txt", "neoverse-n1", "0x41:0x3:0xd0c:1, fp, asimd, evtstrm, aes, pmull, sha1, sha256, crc32, "
                                        "lse, fphp, asimdhp, dcpop" },
    { "neoverse-v1.txt", "neoverse-v1", "0x41:0x1:0xd40:1, fp, asimd, evtstrm, aes, pmull, sha1, sha256, crc32, "
                                        "lse, fphp, asimdhp, dcpop, sha3, sha512, sve, paca" },
    { "neoverse-v2.txt", "neoverse-v2", "0x41:0x0:0xd4f:1, fp, asimd, evtstrm, aes, pmull, sha1, sha256, crc32, "
                                        "lse, fphp, asimdhp, dcpop, sha3, sha512, sve, paca, svebitperm, sve2" },
};
#define NSEED_CASES (sizeof seed_cases / sizeof seed_cases[0])

static void run_seed_case(void **state)
{
    const seed_case *c = *state;
    const char *path = data_path(c->file);
    cpu_info ci, cat;
    char err[1024] = "";
    if (!cpu_from_cpuinfo_file(path, &ci, err, sizeof err))
        fail_msg("%s: %s", c->file, err);
    assert_int_equal(ci.arch, CPU_ARCH_AARCH64);
    assert_int_equal(ci.origin, CPU_FROM_CPUINFO_FILE);
    assert_string_equal(ci.origin_name, path);
    check_text(c->file, features_string(&ci), c->features);

    assert_true(cpu_emulate(c->catalog, &cat, NULL, 0));
    assert_int_equal(ci.aarch64.implementer, cat.aarch64.implementer);
    assert_int_equal(ci.aarch64.variant, cat.aarch64.variant);
    assert_int_equal(ci.aarch64.part, cat.aarch64.part);
    assert_int_equal(ci.aarch64.revision, cat.aarch64.revision);
    assert_int_equal(ci.aarch64.part2, 0);
    assert_int_equal(ci.aarch64.midr, cat.aarch64.midr);
    assert_int_equal(ci.features, cat.features);
    assert_string_equal(ci.description, cat.description);
}

/* ---- table 3: odd texts --------------------------------------------------------------- */

typedef struct text_case {
    const char *name;
    const char *text;
    size_t len;             /* 0: strlen */
    cpu_arch arch;          /* CPU_ARCH_UNKNOWN: must be rejected */
    const char *features;   /* cpu_features_string when accepted */
} text_case;

#define TEXT(name, text, arch, features)     { name, text, 0, arch, features }
#define TEXT_LEN(name, text, arch, features) { name, text, sizeof text - 1, arch, features }
#define REJECT CPU_ARCH_UNKNOWN
#define X64_NOTHING "(1 cores per cpu, 1 threads per core) family 0 model 0 stepping 0 microcode 0x0"

static const text_case text_cases[] = {
    TEXT("empty text is rejected", "", REJECT, NULL),
    TEXT("blank lines are rejected", "\n\n \t \n\r\n", REJECT, NULL),
    TEXT("prose is rejected", "hello world\nno colon here\nprocessor : 0\n", REJECT, NULL),
    TEXT("colons only are rejected", ":::\n: : :\n:\n", REJECT, NULL),
    TEXT("keys are case-sensitive", "cpu implementer : 0x41\nfeatures : fp\nVendor_ID : x\n", REJECT, NULL),
    TEXT("a key must be whole", "CPU implementerX : 0x41\nFeaturesX : fp\nflags2 : sha_ni\n", REJECT, NULL),
    TEXT("implementer line without value", "CPU implementer\n", A64, "0x00:0x0:0x000:0"),
    TEXT("empty Features line", "Features\t:\n", A64, "0x00:0x0:0x000:0"),
    TEXT("numbers that are not numbers read as 0", "CPU implementer : banana\nCPU part : -5\nCPU revision : x1\n",
         A64, "0x00:0x0:0x000:0"),
    TEXT("numbers out of range read as 0", "CPU implementer : 0x41\nCPU part : 0xfffffffffffffffff\n", A64,
         "0x41:0x0:0x000:0"),
    TEXT("decimal and hex as strtol", "CPU implementer : 65\nCPU variant : 0x3\nCPU part : 3340\nCPU revision : 1\n",
         A64, "0x41:0x3:0xd0c:1"),
    TEXT("CRLF line ends", "CPU implementer\t: 0x41\r\nCPU part\t: 0xd0c\r\nFeatures\t: fp asimd sha3\r\n", A64,
         "0x41:0x0:0xd0c:0, fp, asimd, sha3"),
    TEXT("no final newline", "Features : fp asimd sha512", A64, "0x00:0x0:0x000:0, fp, asimd, sha512"),
    TEXT("unknown and repeated feature words", "Features : fp fp bogus sha2 sha256 lse atomics  \t sha1\n", A64,
         "0x00:0x0:0x000:0, fp, sha1, sha256, lse"),
    TEXT("first Features line wins", "Features : fp\nFeatures : fp asimd sha3\n", A64, "0x00:0x0:0x000:0, fp"),
    TEXT("old kernels: Processor line", "Processor\t: AArch64 Processor rev 4 (aarch64)\nprocessor\t: 0\n"
         "Features\t: fp asimd evtstrm crc32\nCPU implementer\t: 0x41\nCPU architecture: AArch64\n"
         "CPU variant\t: 0x0\nCPU part\t: 0xd03\nCPU revision\t: 4\n\nHardware\t: Raspberry Pi 3\n", A64,
         "0x41:0x0:0xd03:4, fp, asimd, evtstrm, crc32, a53mac"),
    TEXT_LEN("NUL bytes inside lines", "CPU implementer : 0x41\0 junk\nCPU part : 0xd0c\nFeatures : fp\0sha3 asimd\n",
             A64, "0x41:0x0:0xd0c:0, fp, asimd, sha3"),
    TEXT("x86: vendor_id alone", "vendor_id : GenuineIntel\n", X64, X64_NOTHING),
    TEXT("x86: flags alone", "flags : sha_ni bmi2 avx2 ht\n", X64, X64_NOTHING ", avx2, bmi2, sha"),
    TEXT("x86: ht with one logical processor is dropped (HotSpot)",
         "vendor_id : AuthenticAMD\nsiblings : 1\ncpu cores : 1\nflags : ht sse2\n", X64, X64_NOTHING ", sse2"),
    TEXT("x86: ht with two siblings stays", "vendor_id : GenuineIntel\nsiblings : 2\ncpu cores : 1\nflags : ht\n", X64,
         "(1 cores per cpu, 2 threads per core) family 0 model 0 stepping 0 microcode 0x0, ht"),
    TEXT("x86: ht with one thread per core is dropped (Emerald Rapids guest, 2 vCPUs)",
         "vendor_id : GenuineIntel\ncpu family : 6\nmodel : 207\nsiblings : 2\ncpu cores : 2\nflags : ht avx2\n", X64,
         "(2 cores per cpu, 1 threads per core) family 6 model 207 stepping 0 microcode 0x0, avx2"),
    TEXT("x86: ht comes from the topology, not from the flag (HotSpot)",
         "vendor_id : AuthenticAMD\nsiblings : 4\ncpu cores : 2\nflags : sse2\n", X64,
         "(2 cores per cpu, 2 threads per core) family 0 model 0 stepping 0 microcode 0x0, ht, sse2"),
    TEXT("x86: the first block wins", "vendor_id : GenuineIntel\ncpu family : 6\nmodel : 85\nstepping : 7\n"
         "microcode : 0x5003604\nflags : sha_ni\n\nvendor_id : AuthenticAMD\ncpu family : 25\nflags : avx2\n", X64,
         "(1 cores per cpu, 1 threads per core) family 6 model 85 stepping 7 microcode 0x5003604, sha"),
    TEXT("AArch64 lines win over x86 lines", "vendor_id : GenuineIntel\nCPU implementer : 0x41\n", A64,
         "0x41:0x0:0x000:0"),
};
#define NTEXT_CASES (sizeof text_cases / sizeof text_cases[0])

static void run_text_case(void **state)
{
    const text_case *c = *state;
    size_t len = c->len ? c->len : strlen(c->text);
    cpu_info ci;
    char err[1024] = "";
    bool ok = cpu_from_cpuinfo_text(c->text, len, "<text>", &ci, err, sizeof err);
    if (c->arch == REJECT) {
        if (ok)
            fail_msg("%s: accepted as %s: %s", c->name, cpu_arch_name(ci.arch), features_string(&ci));
        assert_non_null(strstr(err, "<text>: not a /proc/cpuinfo text"));
        assert_int_equal(ci.arch, CPU_ARCH_UNKNOWN);
        return;
    }
    if (!ok)
        fail_msg("%s: rejected: %s", c->name, err);
    assert_int_equal(ci.arch, c->arch);
    check_text(c->name, features_string(&ci), c->features);
}

/* ---- single behaviours ----------------------------------------------------------------- */

/* QEMU user mode shows the host's x86 /proc/cpuinfo to an AArch64 guest. */
static void x86_text_is_x86_and_not_aarch64(void **state)
{
    (void)state;
    cpu_info ci;
    char err[1024] = "";
    const char *path = data_path("x86-64-epyc.txt");
    if (!cpu_from_cpuinfo_file(path, &ci, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(ci.arch, CPU_ARCH_X86_64);
    assert_string_equal(ci.x86_64.vendor, "AuthenticAMD");
    assert_int_equal(ci.x86_64.family, 26);
    assert_int_equal(ci.x86_64.model, 2);
    assert_int_equal(ci.x86_64.stepping, 1);
    assert_string_equal(ci.description, "AMD EPYC");
    /* A Zen 5 guest, 2 vCPUs as 2 cores: HTT is in its flags, "ht" is not (threads per core 1). */
    check_text("x86-64-epyc.txt", features_string(&ci),
                  "(2 cores per cpu, 1 threads per core) family 26 model 2 stepping 1 microcode 0x0, cx8, cmov, "
                  "fxsr, mmx, sse, sse2, sse3, ssse3, sse4.1, sse4.2, popcnt, avx, avx2, aes, erms, clmul, "
                  "bmi1, bmi2, adx, avx512f, avx512dq, avx512cd, avx512bw, avx512vl, sha, fma");

    /* Each parser on the other's text: not recognised, nothing written. */
    size_t len;
    char *text = cpu_read_text_file(path, &len, err, sizeof err);
    assert_non_null(text);
    cpu_info a;
    memset(&a, 0, sizeof a);
    assert_false(a64_cpu_ops.parse_cpuinfo(text, len, &a));
    assert_int_equal(a.features, 0);
    assert_int_equal(a.aarch64.implementer, 0);
    assert_int_equal(a.aarch64.part, 0);
    free(text);

    text = cpu_read_text_file(data_path("neoverse-v2.txt"), &len, err, sizeof err);
    assert_non_null(text);
    memset(&a, 0, sizeof a);
    assert_false(x64_cpu_ops.parse_cpuinfo(text, len, &a));
    assert_int_equal(a.features, 0);
    free(text);
}

/* HotSpot: a "CPU part" different from the last one moves that one to _model2. */
static void big_little_has_a_second_part(void **state)
{
    (void)state;
    cpu_info ci;
    char err[1024] = "";
    if (!cpu_from_cpuinfo_file(data_path("big-little-a53-a72.txt"), &ci, err, sizeof err))
        fail_msg("%s", err);
    assert_int_equal(ci.aarch64.part, 0xd08);
    assert_int_equal(ci.aarch64.part2, 0xd03);
    assert_int_equal(ci.aarch64.revision, 2);   /* the last core's */
    assert_string_equal(ci.description, "ARM Cortex-A72");
    check_text("big.LITTLE", features_string(&ci),
                  "0x41:0x0:0xd08:2(0xd03), fp, asimd, evtstrm, aes, pmull, sha1, sha256, crc32, a53mac");
}

/* Lines of any length: a 4 MiB line before the CPU lines, a 4 MiB Features line. */
static void huge_lines(void **state)
{
    (void)state;
    const size_t big = 4u << 20;
    char *text = malloc(2 * big + 256);
    assert_non_null(text);
    size_t n = 0;
    memset(text, 'a', big);
    n += big;
    n += (size_t)sprintf(text + n, "\nCPU implementer : 0x41\nCPU part : 0xd0c\nFeatures :");
    for (size_t k = 0; k + 5 < big; k += 5)
        memcpy(text + n + k, " sha3", 5);
    n += big / 5 * 5 - 5;
    n += (size_t)sprintf(text + n, " fp\n");
    cpu_info ci;
    char err[256] = "";
    if (!cpu_from_cpuinfo_text(text, n, "<huge>", &ci, err, sizeof err))
        fail_msg("%s", err);
    check_text("huge lines", features_string(&ci), "0x41:0x0:0xd0c:0, fp, sha3");

    /* one line, no newline at all, 8 MiB: rejected without reading past the end */
    memset(text, 'x', 2 * big);
    assert_false(cpu_from_cpuinfo_text(text, 2 * big, "<huge>", &ci, err, sizeof err));
    free(text);
}

/* Random bytes and every prefix of a real text: never a crash (run it under ASan). */
static void random_bytes_and_prefixes(void **state)
{
    (void)state;
    static char text[1 << 16];
    uint64_t x = 0x9e3779b97f4a7c15u;
    char err[256];
    cpu_info ci;
    for (int round = 0; round < 64; round++) {
        size_t len = (size_t)(round * 1021) % sizeof text;
        for (size_t i = 0; i < len; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            /* mostly cpuinfo-ish characters, so keys and colons do occur */
            static const char alphabet[] = "CPU implementer part Features flags vendor_id:0x41d\n\t \r\0";
            text[i] = (x & 3) ? alphabet[(x >> 8) % (sizeof alphabet - 1)] : (char)(x >> 16);
        }
        bool ok = cpu_from_cpuinfo_text(text, len, "<random>", &ci, err, sizeof err);
        if (!ok)
            assert_non_null(strstr(err, "not a /proc/cpuinfo text"));
        char buf[64];
        cpu_features_string(&ci, buf, sizeof buf);   /* a short buffer truncates */
        assert_true(strlen(buf) < sizeof buf);
    }
    size_t len;
    char *seed = cpu_read_text_file(data_path("neoverse-v2.txt"), &len, err, sizeof err);
    assert_non_null(seed);
    for (size_t k = 0; k <= len; k++) {
        char *copy = malloc(k ? k : 1);   /* exact size: ASan catches a read past k */
        memcpy(copy, seed, k);
        (void)cpu_from_cpuinfo_text(copy, k, "<prefix>", &ci, err, sizeof err);
        free(copy);
    }
    free(seed);
}

static void file_errors_name_the_file(void **state)
{
    (void)state;
    cpu_info ci;
    char err[1024];

    assert_false(cpu_from_cpuinfo_file("/nonexistent/cpuinfo", &ci, err, sizeof err));
    assert_string_equal(err, "/nonexistent/cpuinfo: No such file or directory");
    assert_int_equal(ci.arch, CPU_ARCH_UNKNOWN);

    const char *dir = getenv("MINIVM_SOURCE_ROOT") ? getenv("MINIVM_SOURCE_ROOT") : ".";
    assert_false(cpu_from_cpuinfo_file(dir, &ci, err, sizeof err));
    assert_true(strncmp(err, dir, strlen(dir)) == 0 && strstr(err, "Is a directory"));

    char path[] = "/tmp/minivm_cpuinfo_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_false(cpu_from_cpuinfo_file(path, &ci, err, sizeof err));   /* empty */
    assert_true(strncmp(err, path, strlen(path)) == 0 && strstr(err, ": not a /proc/cpuinfo text"));
    assert_int_equal(ftruncate(fd, CPU_TEXT_FILE_MAX), 0);            /* the largest read: zeros */
    assert_false(cpu_from_cpuinfo_file(path, &ci, err, sizeof err));
    assert_true(strncmp(err, path, strlen(path)) == 0 && strstr(err, ": not a /proc/cpuinfo text"));
    assert_int_equal(ftruncate(fd, CPU_TEXT_FILE_MAX + 1), 0);        /* too large */
    assert_false(cpu_from_cpuinfo_file(path, &ci, err, sizeof err));
    assert_true(strncmp(err, path, strlen(path)) == 0 && strstr(err, "larger than 16 MiB"));
    close(fd);
    unlink(path);
}

static char *print_to_string(const cpu_info *ci)
{
    tu_capture c;
    cpu_print(ci, tu_capture_open(&c));
    return tu_capture_close(&c);
}

/* cpu_print(ci): the line, then "CPU source: <source> on an <host arch> host" (source NULL: no such line) */
static void expect_print(const cpu_info *ci, const char *line, const char *source)
{
    char expected[8192];
    int n = snprintf(expected, sizeof expected, "%s\n", line);
    if (source)
        snprintf(expected + n, sizeof expected - (size_t)n, "CPU source: %s on an %s host\n", source,
                 cpu_arch_name(cpu_host_arch()));
    char *out = print_to_string(ci);
    check_text(source ? source : "print detected", out, expected);
    free(out);
}

static void print_is_hotspots_line(void **state)
{
    (void)state;
    cpu_info ci;
    assert_true(cpu_emulate("neoverse-n1", &ci, NULL, 0));
    ci.total_cpus = ci.active_cpus = 4;
    expect_print(&ci,
                 "CPU: total 4 (initial active 4) 0x41:0x3:0xd0c:1, fp, asimd, evtstrm, aes, pmull, sha1, sha256, "
                 "crc32, lse, fphp, asimdhp, dcpop",
                 "emulated neoverse-n1 (ARM Neoverse N1)");

    assert_true(cpu_emulate("zen3", &ci, NULL, 0));
    ci.total_cpus = 2, ci.active_cpus = 1;
    expect_print(&ci,
                 "CPU: total 2 (initial active 1) (64 cores per cpu, 2 threads per core) family 25 model 1 stepping 1 "
                 "microcode 0x0, cx8, cmov, fxsr, ht, mmx, sse, sse2, sse3, ssse3, sse4a, sse4.1, sse4.2, popcnt, "
                 "lzcnt, avx, avx2, aes, erms, clmul, bmi1, bmi2, adx, sha, fma",
                 "emulated zen3 (AMD EPYC 7763 64-Core Processor)");

    char err[1024] = "", source[4200];
    const char *path = data_path("cortex-a72.txt");
    assert_true(cpu_from_cpuinfo_file(path, &ci, err, sizeof err));
    ci.total_cpus = ci.active_cpus = 16;
    snprintf(source, sizeof source, "cpuinfo file %s (ARM Cortex-A72)", path);
    expect_print(&ci,
                 "CPU: total 16 (initial active 16) 0x41:0x0:0xd08:3, fp, asimd, evtstrm, aes, pmull, sha1, sha256, "
                 "crc32",
                 source);

    /* The host's own CPU: HotSpot's line alone. */
    ci.origin = CPU_DETECTED;
    expect_print(&ci,
                 "CPU: total 16 (initial active 16) 0x41:0x0:0xd08:3, fp, asimd, evtstrm, aes, pmull, sha1, sha256, "
                 "crc32",
                 NULL);
}

static void feature_names_round_trip(void **state)
{
    (void)state;
    static const cpu_arch arches[] = { CPU_ARCH_AARCH64, CPU_ARCH_X86_64 };
    for (size_t a = 0; a < 2; a++) {
        int n = cpu_feature_count(arches[a]);
        assert_true(n > 0 && n <= 64);
        for (int f = 0; f < n; f++) {
            const char *name = cpu_feature_name(arches[a], f);
            assert_non_null(name);
            assert_int_equal(cpu_feature_lookup(arches[a], name), f);
        }
        assert_null(cpu_feature_name(arches[a], n));
        assert_null(cpu_feature_name(arches[a], -1));
        assert_int_equal(cpu_feature_lookup(arches[a], "no-such-feature"), -1);
        assert_int_equal(cpu_feature_lookup(arches[a], ""), -1);
        assert_int_equal(cpu_feature_lookup(arches[a], NULL), -1);
    }
    assert_int_equal(cpu_feature_count(A64), A64_CPU_FEATURE_COUNT);
    assert_int_equal(cpu_feature_count(X64), X64_CPU_FEATURE_COUNT);
    assert_int_equal(cpu_feature_count(CPU_ARCH_UNKNOWN), 0);
    /* HotSpot's spelling and the kernel's name the same feature */
    assert_int_equal(cpu_feature_lookup(A64, "sha2"), A64_CPU_SHA2);
    assert_int_equal(cpu_feature_lookup(A64, "sha256"), A64_CPU_SHA2);
    assert_int_equal(cpu_feature_lookup(A64, "atomics"), A64_CPU_LSE);
    assert_int_equal(cpu_feature_lookup(A64, "lse"), A64_CPU_LSE);
    assert_int_equal(cpu_feature_lookup(A64, "sha3"), A64_CPU_SHA3);
    assert_int_equal(cpu_feature_lookup(A64, "sha512"), A64_CPU_SHA512);
    assert_int_equal(cpu_feature_lookup(X64, "sha_ni"), X64_CPU_SHA);
    assert_int_equal(cpu_feature_lookup(X64, "sha"), X64_CPU_SHA);
    assert_int_equal(cpu_feature_lookup(X64, "pni"), X64_CPU_SSE3);
    assert_int_equal(cpu_feature_lookup(X64, "sse4.2"), X64_CPU_SSE4_2);
    assert_int_equal(cpu_feature_lookup(X64, "sha2"), -1);   /* an AArch64 name */
    assert_string_equal(cpu_feature_name(A64, A64_CPU_SHA2), "sha256");
    assert_string_equal(cpu_feature_name(A64, A64_CPU_CPUID), "cpuid");   /* not HotSpot's: the kernel's */
    assert_string_equal(cpu_feature_name(X64, X64_CPU_SHA), "sha");
    assert_string_equal(cpu_arch_name(A64), "aarch64");
    assert_string_equal(cpu_arch_name(X64), "x86_64");
}

/* ---- the host ------------------------------------------------------------------------------ */

/* Does the first "flags" line of /proc/cpuinfo list word? -1: no such line. */
static int proc_flag(const char *text, const char *word)
{
    const char *line = strstr(text, "\nflags");
    if (!line)
        return -1;
    line = strchr(line, ':');
    const char *eol = line ? strchr(line, '\n') : NULL;
    if (!line || !eol)
        return -1;
    size_t n = strlen(word);
    for (const char *p = line + 1; p < eol;) {
        while (p < eol && *p == ' ')
            p++;
        const char *w = p;
        while (p < eol && *p != ' ')
            p++;
        if ((size_t)(p - w) == n && memcmp(w, word, n) == 0)
            return 1;
    }
    return 0;
}

static void detect_host_matches_proc_cpuinfo(void **state)
{
    (void)state;
    cpu_info ci;
    bool ok = cpu_detect_host(&ci);
    assert_int_equal(ci.origin, CPU_DETECTED);
    assert_string_equal(ci.origin_name, "");
    assert_true(ci.total_cpus >= 1 && ci.active_cpus >= 1 && ci.active_cpus <= ci.total_cpus);
    char *out = print_to_string(&ci);
    assert_true(strncmp(out, "CPU: total ", 11) == 0);
    assert_null(strstr(out, "CPU source"));
    print_message("%s", out);   /* the host's line in the test log */
    free(out);

    if (cpu_host_arch() == CPU_ARCH_X86_64) {
        assert_true(ok);
        assert_int_equal(ci.arch, CPU_ARCH_X86_64);
        assert_true(strlen(ci.x86_64.vendor) == 12);
        assert_true(ci.x86_64.family > 0);
        check_features("host", &ci, "cx8 cmov sse sse2", true);   /* x86-64 baseline */
        if (getenv("MINIVM_QEMU_CPU") && *getenv("MINIVM_QEMU_CPU")) {
            /* qemu-x86_64 emulates CPUID, not /proc/cpuinfo: that file is the real host's */
            print_message("under QEMU's %s: /proc/cpuinfo is the host's, not compared with CPUID\n",
                          getenv("MINIVM_QEMU_CPU"));
            return;
        }
        size_t len;
        char err[256];
        char *text = cpu_read_text_file("/proc/cpuinfo", &len, err, sizeof err);
        if (!text || proc_flag(text, "sse2") < 0) {
            free(text);
            print_message("no /proc/cpuinfo flags line: not compared\n");
            return;
        }
        /* CPUID and the kernel agree on the features the ergonomics read */
        static const char *const pairs[][2] = {
            { "sha_ni", "sha" }, { "bmi1", "bmi1" }, { "bmi2", "bmi2" }, { "avx2", "avx2" },
            { "avx512f", "avx512f" }, { "avx512vl", "avx512vl" }, { "aes", "aes" }, { "popcnt", "popcnt" },
        };
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
            bool kernel = proc_flag(text, pairs[i][0]) == 1;
            bool cpuid = cpu_has(&ci, cpu_feature_lookup(ci.arch, pairs[i][1]));
            if (kernel != cpuid)
                fail_msg("host: /proc/cpuinfo %s %s, CPUID %s %s", kernel ? "has" : "lacks", pairs[i][0],
                         cpuid ? "has" : "lacks", pairs[i][1]);
        }
        /* and on the identity */
        cpu_info file;
        assert_true(cpu_from_cpuinfo_text(text, len, "/proc/cpuinfo", &file, err, sizeof err));
        assert_string_equal(file.x86_64.vendor, ci.x86_64.vendor);
        assert_int_equal(file.x86_64.family, ci.x86_64.family);
        assert_int_equal(file.x86_64.model, ci.x86_64.model);
        assert_int_equal(file.x86_64.stepping, ci.x86_64.stepping);
        assert_int_equal(file.x86_64.microcode, ci.x86_64.microcode);
        free(text);
    } else if (cpu_host_arch() == CPU_ARCH_AARCH64) {
        assert_true(ok);
        assert_int_equal(ci.arch, CPU_ARCH_AARCH64);
        check_features("host", &ci, "fp asimd", true);
        /* Under QEMU user mode the model is known: its MIDR and FEAT_SHA3 are QEMU 10's
           (target/arm/cpu64.c, tcg/cpu64.c) */
        static const struct { const char *model; uint32_t midr; bool sha3; } qemu[] = {
            { "cortex-a53", 0x410fd034, false }, { "cortex-a72", 0x410fd083, false },
            { "cortex-a76", 0x414fd0b1, false }, { "cortex-a710", 0x412fd471, true },
            { "neoverse-n1", 0x414fd0c1, false }, { "neoverse-n2", 0x410fd493, true },
            { "neoverse-v1", 0x411fd402, true }, { "a64fx", 0x461f0010, false }, { "max", 0x000f0510, true },
        };
        const char *model = getenv("QEMU_CPU");
        bool known = !model;
        for (size_t i = 0; model && i < sizeof qemu / sizeof qemu[0]; i++)
            if (strcmp(model, qemu[i].model) == 0) {
                known = true;
                assert_int_equal(ci.aarch64.midr, qemu[i].midr);
                assert_int_equal(cpu_has(&ci, A64_CPU_SHA3), qemu[i].sha3);
            }
        if (!known)
            fail_msg("QEMU_CPU=%s: not a model of this table (cross/qemu-aarch64-models.txt)", model);
    } else {
        assert_false(ok);
        assert_int_equal(ci.arch, CPU_ARCH_UNKNOWN);
    }
}

/* ---- main ------------------------------------------------------------------------------------ */

int main(void)
{
    struct CMUnitTest catalog[NCATALOG_CASES + 3];
    struct CMUnitTest seeds[NSEED_CASES];
    struct CMUnitTest texts[NTEXT_CASES];
    for (size_t i = 0; i < NCATALOG_CASES; i++)
        catalog[i] = (struct CMUnitTest){ catalog_cases[i].name, run_catalog_case, NULL, NULL,
                                          (void *)&catalog_cases[i] };
    catalog[NCATALOG_CASES + 0] = (struct CMUnitTest){ "the table covers the catalog", catalog_table_is_complete,
                                                       NULL, NULL, NULL };
    catalog[NCATALOG_CASES + 1] = (struct CMUnitTest){ "unknown CPU lists the catalog", unknown_cpu_lists_the_catalog,
                                                       NULL, NULL, NULL };
    catalog[NCATALOG_CASES + 2] = (struct CMUnitTest){ "names ignore case", catalog_names_ignore_case, NULL, NULL,
                                                       NULL };
    for (size_t i = 0; i < NSEED_CASES; i++)
        seeds[i] = (struct CMUnitTest){ seed_cases[i].file, run_seed_case, NULL, NULL, (void *)&seed_cases[i] };
    for (size_t i = 0; i < NTEXT_CASES; i++)
        texts[i] = (struct CMUnitTest){ text_cases[i].name, run_text_case, NULL, NULL, (void *)&text_cases[i] };

    const struct CMUnitTest single[] = {
        cmocka_unit_test(x86_text_is_x86_and_not_aarch64),
        cmocka_unit_test(big_little_has_a_second_part),
        cmocka_unit_test(huge_lines),
        cmocka_unit_test(random_bytes_and_prefixes),
        cmocka_unit_test(file_errors_name_the_file),
        cmocka_unit_test(print_is_hotspots_line),
        cmocka_unit_test(feature_names_round_trip),
        cmocka_unit_test(detect_host_matches_proc_cpuinfo),
    };
    int failed = _cmocka_run_group_tests("catalog", catalog, NCATALOG_CASES + 3, NULL, NULL);
    failed += _cmocka_run_group_tests("seeds", seeds, NSEED_CASES, NULL, NULL);
    failed += _cmocka_run_group_tests("cpuinfo texts", texts, NTEXT_CASES, NULL, NULL);
    failed += cmocka_run_group_tests_name("cpu", single, NULL, NULL);
    return failed ? 1 : 0;
}
