/*
 * bench/sha3_compare.c — SHA3-256 `digest` throughput of several
 * implementations, measured side by side in one run: the C reference
 * (stubs/sha3_ref.c), OpenSSL's EVP, minivm interpreting
 * bench/MessageDigests.mva (one or more builds) and HotSpot's `java -Xint`
 * running bench/MessageDigests.java.
 *
 * The machines are shared and noisy, so absolute figures drift by ±20%
 * between runs; only ratios measured together mean something. The runner
 * interleaves the configurations in rounds (A B C D, A B C D, ...) so each
 * round's figures share the same noise, then reports per configuration the
 * median over the rounds and per ratio the median of the per-round ratios.
 *
 * One op is what JMH's MessageDigests.digest times: hash a byte[length]
 * (filled from java.util.Random(1234567890)) into a new digest. The C
 * configurations are timed in this process; minivm and java run as children
 * that print JMH's table, whose Score column is read back.
 *
 *   sha3_compare [--rounds N] [--time MS] [--quick] [--verbose]
 *                [--minivm PATH]... [--mva PATH] [--java PATH | --no-java]
 *                [--java-src PATH] [--no-c]
 *
 * Environment: MINIVM, MINIVM_BENCH_MVA and JAVA stand for --minivm, --mva
 * and --java. docs/PERFORMANCE.md has the figures and how to read them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "java_random.h"
#include "sha3_ref.h"

#if SHA3_COMPARE_OPENSSL
#include <openssl/evp.h>
#endif

#ifndef SHA3_COMPARE_MINIVM
#define SHA3_COMPARE_MINIVM "build/minivm"
#endif
#ifndef SHA3_COMPARE_SRCDIR
#define SHA3_COMPARE_SRCDIR "."
#endif

enum { LEN_64, LEN_16K, NLEN };
static const int lengths[NLEN] = {64, 16384};
static const char *const length_names[NLEN] = {"64 B", "16 KiB"};

#define MAX_ROUNDS 100
#define MAX_MINIVM 8
#define MAX_CFG    (3 + MAX_MINIVM)

typedef enum cfg_kind { CFG_CREF, CFG_OPENSSL, CFG_MINIVM, CFG_JAVA } cfg_kind;

typedef struct config {
    cfg_kind kind;
    char name[48];
    void (*op)(int len);        /* in-process configurations */
    char *argv[24];             /* child configurations */
    char warm[16], meas[16];    /* their -w and -r values */
    const char *skip;           /* why it does not run, or NULL */
    int n;                      /* rounds measured */
    double score[NLEN][MAX_ROUNDS]; /* ops/ms */
} config;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* ---- the in-process configurations ------------------------------------------------------ */

static uint8_t input[16384];
static volatile uint8_t sink; /* keeps every digest alive, as JMH's Blackhole */

static void op_cref(int len)
{
    uint8_t out[32];
    sha3_ref(256, input, (size_t)len, out);
    sink ^= out[0];
}

#if SHA3_COMPARE_OPENSSL
/* EVP_Digest with EVP_sha3_256(): OpenSSL 3 fetches the implementation on every call. */
static void openssl_digest(int len, uint8_t out[EVP_MAX_MD_SIZE])
{
    unsigned int n;
    if (!EVP_Digest(input, (size_t)len, out, &n, EVP_sha3_256(), NULL)) {
        fprintf(stderr, "sha3_compare: EVP_Digest failed\n");
        exit(1);
    }
}

static void op_openssl(int len)
{
    uint8_t out[EVP_MAX_MD_SIZE];
    openssl_digest(len, out);
    sink ^= out[0];
}

/* The two C configurations must agree before either is timed. */
static int check_openssl(void)
{
    for (int l = 0; l < NLEN; l++) {
        uint8_t a[32], b[EVP_MAX_MD_SIZE];
        sha3_ref(256, input, (size_t)lengths[l], a);
        openssl_digest(lengths[l], b);
        if (memcmp(a, b, sizeof a) != 0) {
            fprintf(stderr, "sha3_compare: sha3_ref and OpenSSL disagree at %d bytes\n", lengths[l]);
            return -1;
        }
    }
    return 0;
}
#endif

/*
 * One iteration of JMH's throughput mode: run op for ms milliseconds and
 * return ops per millisecond. The clock is read once per batch; batches grow
 * until one takes 50 µs, so reading it costs well under 1%.
 */
static double iteration(void (*op)(int), int len, int ms)
{
    long ops = 0, batch = 1;
    double t0 = now_ms(), t;
    do {
        double b0 = now_ms();
        for (long k = 0; k < batch; k++)
            op(len);
        ops += batch;
        t = now_ms();
        if (t - b0 < 0.05)
            batch *= 2;
    } while (t - t0 < ms);
    return (double)ops / (t - t0);
}

static void measure_inproc(config *c, int ms)
{
    for (int l = 0; l < NLEN; l++) {
        iteration(c->op, lengths[l], ms / 4 + 1); /* warm-up: the children left the caches cold */
        c->score[l][c->n] = iteration(c->op, lengths[l], ms);
    }
    c->n++;
}

/* ---- the child configurations ------------------------------------------------------------ */

/* Run argv, collect its standard output (standard error passes through). 0 on exit status 0. */
static int run_child(char *const argv[], char *out, size_t cap)
{
    int fd[2];
    if (pipe(fd) != 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "sha3_compare: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    size_t len = 0;
    for (;;) {
        ssize_t k = read(fd[0], out + len, cap - 1 - len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        len += (size_t)k;
        if (len == cap - 1) { /* more than we keep: drain it */
            char drain[4096];
            while (read(fd[0], drain, sizeof drain) > 0)
                ;
            break;
        }
    }
    out[len] = '\0';
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/*
 * Read the Score column of JMH's table rows for MessageDigests.digest:
 *   Benchmark (digesterName) (length) Mode [Cnt] Score [± Error] Units
 * (JMH leaves Cnt empty for one iteration and Error for fewer than three, and
 * prints a tiny score as "≈ 0"): the score is the number before "±", or
 * before the units when there is no error. Returns how many of the lengths
 * were found (a length's last row counts).
 */
static int parse_scores(const char *out, double score[NLEN])
{
    int seen[NLEN] = {0};
    for (const char *line = out; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
        char buf[256], *tok[16];
        int nt = 0;
        size_t n = strcspn(line, "\n");
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), line);
        for (char *t = strtok(buf, " \t"); t && nt < 16; t = strtok(NULL, " \t"))
            tok[nt++] = t;
        if (nt < 6 || strcmp(tok[0], "MessageDigests.digest") != 0 || strcmp(tok[1], "SHA3-256") != 0)
            continue;
        int at = nt - 2; /* before the units */
        for (int k = 4; k < nt; k++)
            if (strcmp(tok[k], "\xc2\xb1") /* ± in UTF-8 */ == 0) {
                at = k - 1;
                break;
            }
        char *end;
        double s = strtod(tok[at], &end);
        long length = strtol(tok[2], NULL, 10);
        if (*end || at < 4)
            continue;
        for (int l = 0; l < NLEN; l++)
            if (length == lengths[l]) {
                score[l] = s;
                seen[l] = 1;
            }
    }
    int found = 0;
    for (int l = 0; l < NLEN; l++)
        found += seen[l];
    return found;
}

/*
 * The command line of a child: prog -Xint file, then JMH-style arguments
 * for one warm-up and one measured iteration per length.
 */
static void child_argv(config *c, const char *prog, const char *file, int ms)
{
    snprintf(c->warm, sizeof c->warm, "%d", ms / 2 + 1);
    snprintf(c->meas, sizeof c->meas, "%d", ms);
    char *const a[] = {(char *)prog, "-Xint", (char *)file, "digest", "-p", "digesterName=SHA3-256",
                       "-p", "length=64,16384", "-wi", "1", "-i", "1", "-w", c->warm, "-r", c->meas, NULL};
    memcpy(c->argv, a, sizeof a);
}

static void measure_child(config *c, int verbose)
{
    static char out[1 << 16];
    double score[NLEN] = {0};
    if (verbose) {
        fprintf(stderr, "  $");
        for (int k = 0; c->argv[k]; k++)
            fprintf(stderr, " %s", c->argv[k]);
        fprintf(stderr, "\n");
    }
    if (run_child(c->argv, out, sizeof out) != 0 || parse_scores(out, score) != NLEN) {
        fprintf(stderr, "sha3_compare: %s failed; its output:\n%s\n", c->name, out);
        c->skip = "failed (see the messages above)";
        return;
    }
    for (int l = 0; l < NLEN; l++)
        c->score[l][c->n] = score[l];
    c->n++;
}

static int on_path(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char buf[4096];
    for (const char *p = path; *p;) {
        size_t n = strcspn(p, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? p : ".", prog);
        if (access(buf, X_OK) == 0)
            return 1;
        p += n;
        if (*p == ':')
            p++;
    }
    return 0;
}

/* ---- statistics and the report ------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, int n)
{
    double s[MAX_ROUNDS];
    memcpy(s, v, (size_t)n * sizeof *s);
    qsort(s, (size_t)n, sizeof *s, cmp_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

static double minimum(const double *v, int n)
{
    double m = v[0];
    for (int k = 1; k < n; k++)
        m = v[k] < m ? v[k] : m;
    return m;
}

static double maximum(const double *v, int n)
{
    double m = v[0];
    for (int k = 1; k < n; k++)
        m = v[k] > m ? v[k] : m;
    return m;
}

static int ran(const config *c) { return c && !c->skip && c->n > 0; }

/*
 * One line of the ratio table: num / den per round, its median and range,
 * and against a goal when limit > 0 (at_most: ratio <= limit passes,
 * otherwise ratio >= limit).
 */
static int label_width = 24; /* the first column of the report */

static void ratio_line(const char *what, const config *num, const config *den, int len, int at_most, double limit)
{
    printf("%-*s %-7s", label_width, what, length_names[len]);
    if (!ran(num) || !ran(den)) {
        printf(" %28s\n", "-");
        return;
    }
    int n = num->n < den->n ? num->n : den->n;
    double q[MAX_ROUNDS];
    for (int k = 0; k < n; k++)
        q[k] = num->score[len][k] / den->score[len][k];
    double m = median(q, n);
    char cell[64], lim[32];
    snprintf(cell, sizeof cell, "%.2fx [%.2f .. %.2f]", m, minimum(q, n), maximum(q, n));
    if (limit > 0) {
        snprintf(lim, sizeof lim, "%s %.0fx", at_most ? "<=" : ">=", limit);
        int pass = at_most ? m <= limit : m >= limit;
        printf(" %28s  %-8s %s\n", cell, lim, pass ? "PASS" : "MISS");
    } else {
        printf(" %28s\n", cell);
    }
}

static void report(config *cfg, int ncfg, int rounds, int ms)
{
    char cpu[256] = "unknown CPU";
    int family = -1, model = -1;
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            const char *c = strchr(line, ':');
            if (!c)
                continue;
            if (strncmp(line, "model name", 10) == 0 && strcmp(cpu, "unknown CPU") == 0) {
                snprintf(cpu, sizeof cpu, "%.200s", c + 2);
                cpu[strcspn(cpu, "\n")] = '\0';
            } else if (strncmp(line, "cpu family", 10) == 0 && family < 0) {
                family = atoi(c + 1);
            } else if (strncmp(line, "model\t", 6) == 0 && model < 0) {
                model = atoi(c + 1);
            }
        }
        fclose(f);
    }
    printf("\nSHA3-256 digest throughput, ops/ms: median of %d rounds [min .. max], %d ms per iteration\n", rounds,
           ms);
    printf("machine: %s (family %d, model %d), %ld CPUs online\n\n", cpu, family, model,
           sysconf(_SC_NPROCESSORS_ONLN));
    const char *first_vm = NULL;
    for (int c = 0; c < ncfg; c++) {
        int w = (int)strlen(cfg[c].name);
        if (cfg[c].kind == CFG_MINIVM && first_vm) /* "<build> / <first build>" */
            w = (int)(strlen(cfg[c].name + 7) + 3 + strlen(first_vm + 7));
        else if (cfg[c].kind == CFG_MINIVM)
            first_vm = cfg[c].name;
        label_width = w > label_width ? w : label_width;
    }
    printf("%-*s %26s %26s\n", label_width, "configuration", length_names[LEN_64], length_names[LEN_16K]);
    for (int c = 0; c < ncfg; c++) {
        printf("%-*s", label_width, cfg[c].name);
        if (!ran(&cfg[c])) {
            printf(" skipped: %s\n", cfg[c].skip ? cfg[c].skip : "not run");
            continue;
        }
        for (int l = 0; l < NLEN; l++) {
            const double *v = cfg[c].score[l];
            int n = cfg[c].n;
            char cell[64];
            snprintf(cell, sizeof cell, "%.4g [%.4g .. %.4g]", median(v, n), minimum(v, n), maximum(v, n));
            printf(" %26s", cell);
        }
        printf("\n");
    }

    /* the goals of the issue, at 16 KiB; 64 B for information */
    config *cref = NULL, *ossl = NULL, *java = NULL, *vm[MAX_MINIVM];
    int nvm = 0;
    for (int c = 0; c < ncfg; c++) {
        switch (cfg[c].kind) {
        case CFG_CREF: cref = &cfg[c]; break;
        case CFG_OPENSSL: ossl = &cfg[c]; break;
        case CFG_JAVA: java = &cfg[c]; break;
        case CFG_MINIVM: vm[nvm++] = &cfg[c]; break;
        }
    }
    printf("\nratios: median of the per-round ratios [min .. max]\n");
    printf("%-*s %-7s %28s  %-8s %s\n", label_width, "ratio", "length", "measured", "goal", "result");
    for (int l = LEN_16K; l >= LEN_64; l--) {
        int goal = l == LEN_16K;
        ratio_line("C reference / minivm", cref, vm[0], l, 1, goal ? 12 : 0);
        ratio_line("OpenSSL / minivm", ossl, vm[0], l, 1, goal ? 20 : 0);
        ratio_line("minivm / java -Xint", vm[0], java, l, 0, goal ? 20 : 0);
    }
    if (nvm > 1) {
        printf("\nminivm builds against the first (> 1: faster)\n");
        for (int k = 1; k < nvm; k++)
            for (int l = LEN_64; l < NLEN; l++) {
                char what[112];
                snprintf(what, sizeof what, "%.40s / %.40s", vm[k]->name + 7, vm[0]->name + 7);
                ratio_line(what, vm[k], vm[0], l, 0, 0);
            }
    }
}

/* ---- main ---------------------------------------------------------------------------------- */

static void usage(FILE *to)
{
    fprintf(to,
            "usage: sha3_compare [options]\n"
            "  --rounds N      rounds of all configurations (default 5, at most %d)\n"
            "  --time MS       measurement iteration in milliseconds (default 1000)\n"
            "  --quick         3 rounds of 200 ms\n"
            "  --minivm PATH   the launcher (default $MINIVM or %s); repeat it to\n"
            "                  compare builds (up to %d; goals use the first)\n"
            "  --mva PATH      the minivm benchmark (default $MINIVM_BENCH_MVA or\n"
            "                  %s/bench/MessageDigests.mva)\n"
            "  --java PATH     java (default $JAVA or java on PATH)\n"
            "  --java-src PATH the Java harness (default %s/bench/MessageDigests.java)\n"
            "  --no-java       leave java -Xint out\n"
            "  --no-c          leave the C reference and OpenSSL out\n"
            "  --verbose       print the child command lines\n",
            MAX_ROUNDS, SHA3_COMPARE_MINIVM, MAX_MINIVM, SHA3_COMPARE_SRCDIR, SHA3_COMPARE_SRCDIR);
}

static int int_arg(const char *opt, const char *v, int lo, int hi)
{
    char *end;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || *end || x < lo || x > hi) {
        fprintf(stderr, "sha3_compare: %s needs a number from %d to %d\n", opt, lo, hi);
        exit(2);
    }
    return (int)x;
}

/* "build-switch/minivm" -> "build-switch": a short name for a build. */
static void build_name(char *dst, size_t cap, const char *path)
{
    const char *end = strrchr(path, '/');
    if (!end) {
        snprintf(dst, cap, "%s", path);
        return;
    }
    const char *start = end;
    while (start > path && start[-1] != '/')
        start--;
    snprintf(dst, cap, "%.*s", (int)(end - start), start);
}

int main(int argc, char **argv)
{
    static const char default_mva[] = SHA3_COMPARE_SRCDIR "/bench/MessageDigests.mva";
    static const char default_java_src[] = SHA3_COMPARE_SRCDIR "/bench/MessageDigests.java";
    int rounds = 5, ms = 1000, verbose = 0, with_c = 1;
    const char *minivm[MAX_MINIVM];
    int nminivm = 0;
    const char *mva = getenv("MINIVM_BENCH_MVA") ? getenv("MINIVM_BENCH_MVA") : default_mva;
    const char *java = getenv("JAVA") ? getenv("JAVA") : "java";
    const char *java_src = default_java_src;

    for (int a = 1; a < argc; a++) {
        const char *s = argv[a], *v = a + 1 < argc ? argv[a + 1] : NULL;
        if (strcmp(s, "--rounds") == 0) {
            rounds = int_arg(s, v, 1, MAX_ROUNDS), a++;
        } else if (strcmp(s, "--time") == 0) {
            ms = int_arg(s, v, 10, 600000), a++;
        } else if (strcmp(s, "--quick") == 0) {
            rounds = 3, ms = 200;
        } else if (strcmp(s, "--verbose") == 0) {
            verbose = 1;
        } else if (strcmp(s, "--no-java") == 0) {
            java = NULL;
        } else if (strcmp(s, "--no-c") == 0) {
            with_c = 0;
        } else if (v && strcmp(s, "--minivm") == 0) {
            if (nminivm == MAX_MINIVM) {
                fprintf(stderr, "sha3_compare: at most %d --minivm\n", MAX_MINIVM);
                return 2;
            }
            minivm[nminivm++] = v, a++;
        } else if (v && strcmp(s, "--mva") == 0) {
            mva = v, a++;
        } else if (v && strcmp(s, "--java") == 0) {
            java = v, a++;
        } else if (v && strcmp(s, "--java-src") == 0) {
            java_src = v, a++;
        } else if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "sha3_compare: unknown or incomplete option: %s\n", s);
            usage(stderr);
            return 2;
        }
    }
    if (nminivm == 0)
        minivm[nminivm++] = getenv("MINIVM") ? getenv("MINIVM") : SHA3_COMPARE_MINIVM;

    java_random_bytes(1234567890, input, sizeof input);

    /* the configurations, in the order each round runs them */
    static config cfg[MAX_CFG];
    int ncfg = 0;
    config *c = &cfg[ncfg++];
    *c = (config){.kind = CFG_CREF, .name = "C reference (sha3_ref)", .op = op_cref};
    if (!with_c)
        c->skip = "--no-c";
    c = &cfg[ncfg++];
    *c = (config){.kind = CFG_OPENSSL, .name = "OpenSSL EVP"};
#if SHA3_COMPARE_OPENSSL
    c->op = op_openssl;
    if (!with_c)
        c->skip = "--no-c";
    else if (check_openssl() != 0)
        return 1;
#else
    c->skip = "built without libcrypto";
#endif
    for (int k = 0; k < nminivm; k++) {
        c = &cfg[ncfg++];
        *c = (config){.kind = CFG_MINIVM, .name = "minivm -Xint"};
        if (nminivm > 1) {
            char b[40];
            build_name(b, sizeof b, minivm[k]);
            snprintf(c->name, sizeof c->name, "minivm %s", b);
        }
        child_argv(c, minivm[k], mva, ms);
        if (access(minivm[k], X_OK) != 0)
            c->skip = "no minivm launcher (--minivm)";
        else if (access(mva, R_OK) != 0)
            c->skip = "no bench/MessageDigests.mva (--mva)";
    }
    c = &cfg[ncfg++];
    *c = (config){.kind = CFG_JAVA, .name = "java -Xint"};
    child_argv(c, java ? java : "java", java_src, ms);
    if (!java)
        c->skip = "--no-java";
    else if (!on_path(java))
        c->skip = "java is not on PATH";
    else if (access(java_src, R_OK) != 0)
        c->skip = "no bench/MessageDigests.java (--java-src)";

    fprintf(stderr, "sha3_compare: %d rounds of", rounds);
    for (int k = 0; k < ncfg; k++)
        if (!cfg[k].skip)
            fprintf(stderr, " [%s]", cfg[k].name);
    fprintf(stderr, ", %d ms per iteration\n", ms);

    for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < ncfg; k++) {
            if (cfg[k].skip)
                continue;
            if (cfg[k].op)
                measure_inproc(&cfg[k], ms);
            else
                measure_child(&cfg[k], verbose);
        }
        fprintf(stderr, "round %d/%d (64 B / 16 KiB):", round + 1, rounds);
        for (int k = 0; k < ncfg; k++)
            if (ran(&cfg[k]) && cfg[k].n == round + 1)
                fprintf(stderr, "  %s %.4g / %.4g", cfg[k].name, cfg[k].score[LEN_64][round],
                        cfg[k].score[LEN_16K][round]);
        fprintf(stderr, "\n");
    }
    report(cfg, ncfg, rounds, ms);
    for (int k = 0; k < ncfg; k++)
        if (cfg[k].skip && strncmp(cfg[k].skip, "failed", 6) == 0)
            return 1;
    return 0;
}
