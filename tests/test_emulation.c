/*
 * tests/test_emulation.c — a stub runs only where the host has every feature
 * it uses, whatever CPU the flags describe.
 *
 * -XX:EmulateCPU and -XX:CPUInfoFile make the ergonomics follow another CPU;
 * when that CPU has the host's architecture its stubs still run here, so a
 * variant the host cannot execute (the SIMD SHA-3 stub without sha3) must be
 * replaced by one it can (GPR), with one warning, never SIGILL. For every
 * catalog CPU and every /proc/cpuinfo text in tests/data/cpuinfo/, under the
 * default flags and both explicit SHA-3 variants, build/minivm hashes 1000
 * bytes with examples/digest.mva and must print the right digest; the stub
 * PrintIntrinsics names must be one the host runs: the variant the final
 * flags ask for when the host executes it (no warning), else the next one
 * down the host does, with the fall-back warning. What the host runs is read
 * here from the kernel (getauxval) or the compiler's CPUID view
 * (__builtin_cpu_supports), not from minivm's CPU detection.
 *
 * Under the cross build this runs once per QEMU model (scripts/test-cross):
 * cortex-a53 … neoverse-n1 and a64fx lack sha3, max has it.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

#include "cpu.h"
#include "testutil.h"

/* SHA3-256 of "a" * 1000 (OpenSSL). */
#define DIGEST_A1000 "8f3934e6f7a15698fe0f396b95d8c4440929a8fa6eae140171c068b4549fbf81  -\n"
#define STUB_MB_LINE "(intrinsic) _digestBase_implCompressMB: stub sha3_implCompressMB ("
#define STUB_LINE "(intrinsic) _sha3_implCompress: stub sha3_implCompress ("
/* the fall-back warning's fixed part: "The SIMD SHA-3 stub needs sha3, which this host's CPU does not have: ..." */
#define FALLBACK "SHA-3 stub needs "

/* The kernel's word on the host (HWCAP_SHA3 is bit 17 of AT_HWCAP). */
static bool host_has_sha3(void)
{
#if defined(__aarch64__) && defined(__linux__)
    return (getauxval(AT_HWCAP) >> 17 & 1) != 0;
#else
    return false;
#endif
}

static cpu_arch host_arch(void)
{
#if defined(__aarch64__)
    return CPU_ARCH_AARCH64;
#elif defined(__x86_64__)
    return CPU_ARCH_X86_64;
#else
    return CPU_ARCH_UNKNOWN;
#endif
}

/* Can the host execute the stub variant minivm named? */
static bool host_runs_variant(const char *variant)
{
    if (host_arch() == CPU_ARCH_AARCH64)
        return strcmp(variant, "gpr") == 0 || (strcmp(variant, "simd") == 0 && host_has_sha3());
#if defined(__x86_64__)
    __builtin_cpu_init();
    if (strcmp(variant, "avx512") == 0)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    if (strcmp(variant, "avx512-lanes") == 0)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
    if (strcmp(variant, "avx2") == 0)
        return __builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2");
    if (strcmp(variant, "gpr") == 0)
        return __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
    if (strcmp(variant, "gpr-nobmi") == 0)
        return true;
#endif
    return false;
}

/* A flag's value in PrintFlagsFinal's table as a number (bool: 1/0); -1 when not listed. */
static long final_value(const char *out, const char *name);

/* Does the flag's line in PrintFlagsFinal's table read "= value "? */
static bool final_text_is(const char *out, const char *name, const char *value)
{
    char key[96], want[64];
    snprintf(key, sizeof key, " %s ", name);
    snprintf(want, sizeof want, "= %s ", value);
    const char *at = strstr(out, key);
    const char *eq = at ? strstr(at, "= ") : NULL;
    return eq && strncmp(eq, want, strlen(want)) == 0;
}

/* The variant the final flags ask for, and the ones below it a host may fall back to, best first. */
static int asked_chain(const char *out, const char *chain[5])
{
    if (host_arch() == CPU_ARCH_AARCH64) {
        chain[0] = final_value(out, "UseSIMDForSHA3Intrinsic") == 1 ? "simd" : "gpr";
        chain[1] = "gpr";
        return chain[0][0] == 's' ? 2 : 1;
    }
    bool simd = final_value(out, "UseSIMDForSHA3Intrinsic") == 1;
    bool bmi = final_value(out, "UseBMI1Instructions") == 1 && final_value(out, "UseBMI2Instructions") == 1;
    long avx = final_value(out, "UseAVX");
    int n = 0;
    if (simd && avx < 2)
        return 0; /* no vector stub below AVX2: the flag ended false */
    if (simd && avx >= 3 && final_text_is(out, "SHA3AVX512Design", "lanes"))
        chain[n++] = "avx512-lanes";
    if (simd && avx >= 3)
        chain[n++] = "avx512";
    if (simd)
        chain[n++] = "avx2";
    if (bmi)
        chain[n++] = "gpr";
    chain[n++] = "gpr-nobmi";
    return n;
}

typedef struct flag_set {
    const char *name;
    const char *flags[2];
} flag_set;

static const flag_set FLAG_SETS[] = {
    {"defaults", {NULL}},
    {"gpr", {"-XX:+UseSHA3Intrinsics", "-XX:-UseSIMDForSHA3Intrinsic"}},
    {"simd", {"-XX:+UseSHA3Intrinsics", "-XX:+UseSIMDForSHA3Intrinsic"}},
};
#define NFLAG_SETS (sizeof FLAG_SETS / sizeof FLAG_SETS[0])

static long final_value(const char *out, const char *name)
{
    char key[96];
    snprintf(key, sizeof key, " %s ", name);
    const char *at = strstr(out, key);
    if (!at)
        return -1;
    const char *eq = strstr(at, "= ");
    if (!eq)
        return -1;
    if (strncmp(eq + 2, "true", 4) == 0)
        return 1;
    if (strncmp(eq + 2, "false", 5) == 0)
        return 0;
    return strtol(eq + 2, NULL, 10);
}

/* The variant in "...stub sha3_implCompressMB (simd)", or NULL when no such line. */
static const char *stub_variant(const char *out, const char *line, char *buf, size_t len)
{
    const char *at = strstr(out, line);
    if (!at)
        return NULL;
    at += strlen(line);
    size_t n = strcspn(at, ")\n");
    snprintf(buf, len, "%.*s", (int)n, at);
    return buf;
}

/* One CPU (an -XX option naming it) under every flag set. */
static void run_cpu(const char *cpu_option, cpu_arch target)
{
    char in[1001];
    memset(in, 'a', 1000);
    in[1000] = '\0';
    const bool what_if = target != host_arch();
    for (size_t f = 0; f < NFLAG_SETS; f++) {
        const char *argv[12] = {"-XX:+UnlockDiagnosticVMOptions", "-XX:+IgnoreUnrecognizedVMOptions", cpu_option};
        size_t n = 3;
        for (size_t i = 0; i < 2 && FLAG_SETS[f].flags[i]; i++)
            argv[n++] = FLAG_SETS[f].flags[i];
        argv[n++] = "-XX:+PrintFlagsFinal";
        argv[n++] = "-XX:+PrintIntrinsics";
        argv[n++] = tu_source_path("examples/digest.mva");
        argv[n++] = "SHA3-256";
        tu_result r = tu_run(argv, in, 120);
        char where[1200];
        snprintf(where, sizeof where, "%s with %s flags", cpu_option, FLAG_SETS[f].name);
        if (r.status != 0 || !strstr(r.out, DIGEST_A1000))
            fail_msg("%s: status %d, want 0 and the digest\n--- stderr ---\n%s\n--- stdout (tail) ---\n%s", where,
                     r.status, r.err, strlen(r.out) > 600 ? r.out + strlen(r.out) - 600 : r.out);
        long sha3 = final_value(r.out, "UseSHA3Intrinsics");
        if (sha3 < 0)
            fail_msg("%s: no UseSHA3Intrinsics in PrintFlagsFinal", where);
        char v1[32], v2[32];
        const char *mb = stub_variant(r.out, STUB_MB_LINE, v1, sizeof v1);
        const char *single = stub_variant(r.out, STUB_LINE, v2, sizeof v2);
        const bool stubs_run = sha3 == 1 && !what_if && host_arch() != CPU_ARCH_UNKNOWN;
        if (!stubs_run) {
            if (mb || single)
                fail_msg("%s: a stub runs (%s) although none should (UseSHA3Intrinsics %ld, what-if %d)", where,
                         mb ? mb : single, sha3, what_if);
        } else {
            if (!mb || !single)
                fail_msg("%s: UseSHA3Intrinsics is true but PrintIntrinsics names no stub:\n%s", where, r.out);
            /* the flags' choice when the host can run it, else the next one down and one warning */
            const char *chain[5];
            int n = asked_chain(r.out, chain), k = 0;
            while (k < n && !host_runs_variant(chain[k]))
                k++;
            if (k == n)
                fail_msg("%s: no variant of the flags' chain runs here (PrintIntrinsics says %s)", where, mb);
            if (strcmp(mb, chain[k]) != 0 || strcmp(single, chain[k]) != 0)
                fail_msg("%s: stubs (%s, %s), want %s (the flags ask for %s)", where, mb, single, chain[k], chain[0]);
            tu_expect_text("stderr", r.err, k > 0 ? TU_CONTAINS : TU_LACKS, FALLBACK);
        }
        if (mb && !host_runs_variant(mb))
            fail_msg("%s: stub variant %s does not run on this host", where, mb);
        tu_expect_text("stderr", r.err, TU_LACKS, "SIGILL");
        tu_result_free(&r);
    }
}

/*
 * -XX:+PrintStubVariants: every line's options, given to the VM, link that
 * very variant without a warning when the line says "runs", and another one
 * (or the bytecode) with a warning (the ergonomics' or the fall-back one) when it says "no:
 * needs <feature>"; and "runs"
 * agrees with what the host executes (the kernel's or the compiler's view).
 */
static void printed_variants_select_themselves(void **state)
{
    (void)state;
    if (host_arch() == CPU_ARCH_UNKNOWN)
        skip();
    const char *argv[] = {"-XX:+PrintStubVariants", "-version", NULL};
    tu_result list = tu_run(argv, NULL, 60);
    tu_expect_status(&list, 0);
    int variants = 0;
    for (const char *l = strstr(list.out, "\n"); l && l[1]; l = strchr(l + 1, '\n')) {
        char family[16], name[32], kind[16], runs[8], options[512] = "";
        int used = 0;
        if (sscanf(l + 1, " %15s %31s %15s %7s%n", family, name, kind, runs, &used) != 4 ||
            strcmp(family, "SHA-3") != 0)
            continue;
        if (strcmp(kind, strncmp(name, "gpr", 3) == 0 ? "gpr" : "simd") != 0)
            fail_msg("PrintStubVariants says %s is of kind %s", name, kind);
        const char *rest = l + 1 + used;
        if (strncmp(rest, " needs ", 7) == 0) /* "no: needs avx512f" */
            rest = strchr(rest + 7, ' ');
        size_t n = rest ? strcspn(rest, "\n") : 0;
        snprintf(options, sizeof options, "%.*s", (int)n, rest ? rest : "");
        bool says_runs = strcmp(runs, "runs") == 0;
        if (says_runs != host_runs_variant(name))
            fail_msg("PrintStubVariants says %s for %s; the host %s it", runs, name,
                     host_runs_variant(name) ? "runs" : "cannot run");
        /* the options, split at blanks, then PrintIntrinsics and a digest */
        const char *run[16];
        int k = 0;
        for (char *tok = strtok(options, " "); tok && k < 12; tok = strtok(NULL, " "))
            run[k++] = tok;
        run[k++] = "-XX:+PrintIntrinsics";
        run[k++] = tu_source_path("examples/digest.mva");
        run[k++] = "SHA3-256";
        run[k] = NULL;
        char in[1001];
        memset(in, 'a', 1000);
        in[1000] = '\0';
        tu_result r = tu_run(run, in, 120);
        char v[32];
        const char *mb = stub_variant(r.out, STUB_MB_LINE, v, sizeof v);
        if (r.status != 0 || !strstr(r.out, DIGEST_A1000) || (says_runs && !mb))
            fail_msg("%s's options: status %d, stub %s\n%s", name, r.status, mb ? mb : "none", r.err);
        if (says_runs && strcmp(mb, name) != 0)
            fail_msg("%s's options link %s", name, mb);
        /* not here: another variant, or the bytecode (AArch64 without sha3 turns the intrinsic off) */
        if (!says_runs && mb && strcmp(mb, name) == 0)
            fail_msg("%s's options link it although the host cannot run it", name);
        /* a variant the host lacks: the ergonomics' warning (UseAVX capped, BMI absent) or the fall-back one */
        tu_expect_text("stderr", r.err, says_runs ? TU_LACKS : TU_CONTAINS, "warning:");
        tu_result_free(&r);
        variants++;
    }
    tu_result_free(&list);
    if (variants < 2)
        fail_msg("PrintStubVariants listed %d SHA-3 variants", variants);
}

/* The line of flag name in a PrintFlagsFinal listing ends with this origin? */
static bool origin_is(const char *out, const char *name, const char *origin)
{
    char key[96];
    snprintf(key, sizeof key, " %s ", name);
    const char *at = strstr(out, key);
    if (!at)
        return false;
    size_t len = strcspn(at, "\n");
    size_t olen = strlen(origin);
    return len >= olen && strncmp(at + len - olen, origin, olen) == 0;
}

/*
 * -XX:SHA3IntrinsicPolicy=measure on this host: the table lists only variants
 * the host runs (so nothing it lacks was executed), exactly one is chosen, it
 * is the stub PrintIntrinsics names, the digest is right, and the flags that
 * name it are {ergonomic}; a user's -UseSIMDForSHA3Intrinsic leaves only GPR
 * candidates and keeps its {command line}.
 */
static void measured_selection(void **state)
{
    (void)state;
    if (host_arch() == CPU_ARCH_UNKNOWN)
        skip();
    char in[1001];
    memset(in, 'a', 1000);
    in[1000] = '\0';
    for (int user = 0; user < 2; user++) {
        const char *argv[12] = {"-XX:SHA3IntrinsicPolicy=measure", "-XX:+UseSHA3Intrinsics", "-XX:+PrintSHA3Selection",
                                "-XX:+PrintFlagsFinal", "-XX:+PrintIntrinsics"};
        int n = 5;
        if (user)
            argv[n++] = "-XX:-UseSIMDForSHA3Intrinsic";
        argv[n++] = tu_source_path("examples/digest.mva");
        argv[n++] = "SHA3-256";
        tu_result r = tu_run(argv, in, 120);
        if (r.status != 0 || !strstr(r.out, DIGEST_A1000))
            fail_msg("measure: status %d\n%s\n%s", r.status, r.err, r.out);
        const char *table = strstr(r.out, "SHA-3 stub selection (SHA3IntrinsicPolicy=measure)");
        if (!table)
            fail_msg("measure: no selection table\n%s", r.out);
        int listed = 0, chosen = 0;
        char winner[32] = "";
        for (const char *l = strchr(table, '\n'); l && strncmp(l + 1, "  ", 2) == 0; l = strchr(l + 1, '\n')) {
            char name[32], ns[32];
            if (sscanf(l + 1, " %31s %31s", name, ns) != 2 || strcmp(name, "selection") == 0 ||
                strcmp(name, "threshold:") == 0 || strcmp(name, "warning:") == 0)
                continue;
            listed++;
            if (!host_runs_variant(name))
                fail_msg("measure timed %s, which this host cannot run", name);
            if (user && strncmp(name, "gpr", 3) != 0)
                fail_msg("measure timed %s although the user said -UseSIMDForSHA3Intrinsic", name);
            const char *eol = strchr(l + 1, '\n');
            const char *c = strstr(l + 1, "chosen");
            if (c && (!eol || c < eol)) {
                chosen++;
                snprintf(winner, sizeof winner, "%s", name);
            }
        }
        if (listed < 1 || chosen != 1)
            fail_msg("measure: %d variants listed, %d chosen\n%s", listed, chosen, table);
        /* the threshold the decision used is stated (the static choice is a candidate without the user's flag) */
        if (!user && !strstr(table, "\n  threshold: a lead over the static choice counts above "))
            fail_msg("measure: the table does not state its threshold\n%s", table);
        char v[32];
        const char *mb = stub_variant(r.out, STUB_MB_LINE, v, sizeof v);
        if (!mb || strcmp(mb, winner) != 0)
            fail_msg("measure chose %s, PrintIntrinsics says %s", winner, mb ? mb : "none");
        const char *want = user ? "{command line}" : "{ergonomic}";
        if (!origin_is(r.out, "UseSIMDForSHA3Intrinsic", want))
            fail_msg("measure: UseSIMDForSHA3Intrinsic is not %s", want);
        tu_expect_text("stderr", r.err, TU_LACKS, "SIGILL");
        tu_result_free(&r);
    }
}

/* PrintSHA3Selection without a measurement says why nothing was measured */
static void selection_says_why_not(void **state)
{
    (void)state;
    static const struct {
        const char *options[3];
        const char *why;
    } cases[] = {
        {{"-XX:+PrintSHA3Selection"}, "SHA3IntrinsicPolicy is not measure"},
        {{"-XX:SHA3IntrinsicPolicy=measure", "-Xint", "-XX:+PrintSHA3Selection"}, "UseCompiler is false"},
        {{"-XX:SHA3IntrinsicPolicy=measure", "-XX:-UseSHA3Intrinsics", "-XX:+PrintSHA3Selection"},
         "UseSHA3Intrinsics is false"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *argv[8] = {"-XX:+UnlockDiagnosticVMOptions"};
        int n = 1;
        for (int k = 0; k < 3 && cases[i].options[k]; k++)
            argv[n++] = cases[i].options[k];
        argv[n++] = "-version";
        tu_result r = tu_run(argv, NULL, 60);
        if (r.status != 0)
            fail_msg("%s: status %d\n%s", cases[i].why, r.status, r.err);
        tu_expect_text("stdout", r.out, TU_CONTAINS, "SHA-3 stub selection: nothing measured: ");
        tu_expect_text("stdout", r.out, TU_CONTAINS, cases[i].why);
        tu_expect_text("stdout", r.out, TU_LACKS, "SHA-3 stub selection (SHA3IntrinsicPolicy=measure)");
        tu_result_free(&r);
    }
}

/*
 * measure chooses only among the variants the flags allow on the CPU being
 * described (emulated or not) and the host runs, so its {ergonomic} values
 * never contradict what the ergonomics accept from a user (it must not, on an
 * emulated Zen 3, set UseAVX=3 and ran avx512-lanes, which a user's
 * -XX:UseAVX=3 on zen3 is refused; under UseAVX=0 it turned BMI back on).
 * Each case: the options, the variants the table must not list, the final
 * values it must print.
 */
typedef struct bounded_case {
    cpu_arch arch;              /* the host architecture it runs on */
    const char *host_needs;     /* a feature the host must have for the case (or NULL) */
    const char *options[4];
    const char *never[4];       /* variants not in the table */
    const char *flag[3];
    long value[3];              /* final_value's: true 1, false 0 */
} bounded_case;

static const bounded_case BOUNDED[] = {
    {CPU_ARCH_X86_64, NULL, {"-XX:EmulateCPU=zen3"}, {"avx512-lanes", "avx512"}, {"UseAVX"}, {2}},
    {CPU_ARCH_X86_64, NULL, {"-XX:EmulateCPU=sierra-forest"}, {"avx512-lanes", "avx512"}, {"UseAVX"}, {2}},
    {CPU_ARCH_X86_64, NULL, {"-XX:UseAVX=0"}, {"avx512-lanes", "avx512", "avx2", "gpr"},
     {"UseBMI1Instructions", "UseBMI2Instructions", "UseSIMDForSHA3Intrinsic"}, {0, 0, 0}},
    /* on a host with AVX (without, as QEMU's Nehalem, HotSpot caps UseAVX=1 to 0 with a warning) */
    {CPU_ARCH_X86_64, "avx", {"-XX:UseAVX=1"}, {"avx512-lanes", "avx512", "avx2"}, {"UseAVX"}, {1}},
    /* the emulated CPU lacks FEAT_SHA3: never the SIMD stub, even on a host (QEMU max) that has it */
    {CPU_ARCH_AARCH64, NULL, {"-XX:EmulateCPU=neoverse-n1", "-XX:+UseSHA3Intrinsics"}, {"simd"},
     {"UseSIMDForSHA3Intrinsic"}, {0}},
    /* -UseSHA: the SIMD stub is refused a user (the SHA3 warning), so measure may not pick it */
    {CPU_ARCH_AARCH64, NULL, {"-XX:-UseSHA", "-XX:+UseSHA3Intrinsics"}, {"simd"}, {"UseSIMDForSHA3Intrinsic"},
     {0}},
};

static void measured_selection_within_the_flags(void **state)
{
    (void)state;
    int ran = 0;
    for (size_t i = 0; i < sizeof BOUNDED / sizeof BOUNDED[0]; i++) {
        const bounded_case *c = &BOUNDED[i];
        if (c->arch != host_arch())
            continue;
        cpu_info host;
        if (c->host_needs && (!cpu_detect_host(&host) || !cpu_has(&host, cpu_feature_lookup(c->arch, c->host_needs)))) {
            print_message("%s: skipped, the host lacks %s\n", c->options[0], c->host_needs);
            continue;
        }
        const char *argv[12] = {"-XX:+UnlockDiagnosticVMOptions", "-XX:SHA3IntrinsicPolicy=measure",
                                "-XX:+PrintSHA3Selection", "-XX:+PrintFlagsFinal"};
        int n = 4;
        for (int k = 0; k < 4 && c->options[k]; k++)
            argv[n++] = c->options[k];
        argv[n++] = "-version";
        tu_result r = tu_run(argv, NULL, 60);
        tu_expect_status(&r, 0);
        const char *table = strstr(r.out, "SHA-3 stub selection (SHA3IntrinsicPolicy=measure)");
        if (!table)
            fail_msg("%s: no selection table\n%s", c->options[0], r.out);
        const char *end = strstr(table, "selection took");
        for (int k = 0; k < 4 && c->never[k]; k++) {
            char key[48];
            snprintf(key, sizeof key, "\n  %s ", c->never[k]);
            const char *at = strstr(table, key);
            if (at && (!end || at < end))
                fail_msg("%s: measure timed %s, which these flags do not allow on this CPU\n%s", c->options[0],
                         c->never[k], table);
        }
        for (int k = 0; k < 3 && c->flag[k]; k++) {
            long v = final_value(r.out, c->flag[k]);
            if (v != c->value[k])
                fail_msg("%s: %s = %ld, expected %ld\n%s", c->options[0], c->flag[k], v, c->value[k], r.out);
        }
        tu_expect_text("stderr", r.err, TU_LACKS, "warning");
        tu_result_free(&r);
        ran++;
    }
    if (!ran) {
        print_message("skipped: no case for this host's architecture\n");
        skip();
    }
}

static void every_catalog_cpu(void **state)
{
    (void)state;
    for (size_t i = 0; i < cpu_catalog_count(); i++) {
        const char *name = cpu_catalog_name(i);
        cpu_info info;
        if (!cpu_emulate(name, &info, NULL, 0))
            fail_msg("catalog entry %s does not load", name);
        char option[128];
        snprintf(option, sizeof option, "-XX:EmulateCPU=%s", name);
        run_cpu(option, info.arch);
    }
}

static void every_cpuinfo_text(void **state)
{
    (void)state;
    char dir[4096]; /* tu_source_path's buffers are reused by run_cpu */
    snprintf(dir, sizeof dir, "%s", tu_source_path("tests/data/cpuinfo"));
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open %s", dir);
    int files = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".txt") != 0)
            continue;
        char path[4400], option[4500];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        cpu_info info;
        char err[256];
        if (!cpu_from_cpuinfo_file(path, &info, err, sizeof err))
            fail_msg("%s", err);
        snprintf(option, sizeof option, "-XX:CPUInfoFile=%s", path);
        run_cpu(option, info.arch);
        files++;
    }
    closedir(d);
    assert_true(files >= 5);
}

/* A cpuinfo text that claims sha3 for the host's own part: the SIMD stub only if the host has it. */
static void cpuinfo_claiming_sha3(void **state)
{
    (void)state;
    static const char text[] = "processor\t: 0\nFeatures\t: fp asimd aes pmull sha1 sha2 crc32 atomics sha3 sha512\n"
                               "CPU implementer\t: 0x61\nCPU architecture: 8\nCPU variant\t: 0x0\n"
                               "CPU part\t: 0x022\nCPU revision\t: 1\n";
    char option[4200];
    snprintf(option, sizeof option, "-XX:CPUInfoFile=%s", tu_temp_file("sha3.cpuinfo", text, sizeof text - 1));
    run_cpu(option, CPU_ARCH_AARCH64);
}

/* Only a running program is told about the fallback: -version and PrintFlagsFinal
   alone study the emulated CPU's defaults and print nothing more (as in what-if mode). */
static void defaults_study_prints_no_fallback_warning(void **state)
{
    (void)state;
    const char *argv[] = {"-XX:+UnlockDiagnosticVMOptions", "-XX:EmulateCPU=apple-m4", "-XX:+PrintFlagsFinal",
                          "-version", NULL};
    tu_result r = tu_run(argv, NULL, 60);
    tu_expect_status(&r, 0);
    tu_expect_text("stderr", r.err, TU_EXACT,
                   TU_VERSION);
    tu_expect_text("stdout", r.out, TU_CONTAINS, "UseSIMDForSHA3Intrinsic                  = true");
    tu_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(defaults_study_prints_no_fallback_warning),
        cmocka_unit_test(printed_variants_select_themselves),
        cmocka_unit_test(measured_selection),
        cmocka_unit_test(selection_says_why_not),
        cmocka_unit_test(measured_selection_within_the_flags),
        cmocka_unit_test(every_catalog_cpu),
        cmocka_unit_test(every_cpuinfo_text),
        cmocka_unit_test(cpuinfo_claiming_sha3),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
