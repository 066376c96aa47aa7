/*
 * tests/test_messagedigests.c — bench/MessageDigests.mva, the JMH
 * MessageDigests benchmark in bytecode (suite 'bench'; docs/benchmarks.md).
 *
 * Each case runs build/minivm bench/MessageDigests.mva with tiny iteration
 * times and checks
 *   - the result table: JMH's header, one row per (benchmark, digesterName,
 *     length) in JMH's order, every line as wide as the header, each column
 *     right-aligned under its header, "±" and the Error only for Cnt >= 3,
 *     the Cnt column empty for Cnt = 1 (as JMH's TextResultFormat);
 *   - the command-line errors: a message on standard error, exit status 1;
 *   - the input: -dump-input N against java.util.Random(1234567890)
 *     .nextBytes, computed here by the same LCG in C (and a prefix printed by
 *     a real JVM);
 *   - the statistics: -stats against the same fixed-point algorithm in C,
 *     and against floating point with the exact t quantiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "testutil.h"

#define MAX_ARGS 24
#define MAX_LINES 64

/* Run the benchmark with args (NULL-terminated). */
static tu_result run_md(const char *const *args)
{
    const char *argv[MAX_ARGS + 2];
    int n = 0;
    argv[n++] = tu_source_path("bench/MessageDigests.mva");
    for (int i = 0; args[i]; i++) {
        assert_true(n < MAX_ARGS);
        argv[n++] = args[i];
    }
    argv[n] = NULL;
    return tu_run(argv, NULL, 120);
}

#define RUN(...) run_md((const char *const[]){__VA_ARGS__, NULL})

/* Width in characters of a UTF-8 line (continuation bytes do not count). */
static int chars(const char *s, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            n++;
    return n;
}

/* The character column just after the first occurrence of word in line. */
static int end_col(const char *line, const char *word)
{
    const char *p = strstr(line, word);
    assert_non_null(p);
    return chars(line, (size_t)(p - line)) + (int)strlen(word);
}

/* The byte offset of character column col in line. */
static size_t byte_at(const char *line, int col)
{
    size_t i = 0;
    for (int c = 0; c < col && line[i]; c++) {
        i++;
        while (((unsigned char)line[i] & 0xC0) == 0x80)
            i++;
    }
    return i;
}

typedef struct table {
    char *lines[MAX_LINES]; /* [0] the header, then the rows (malloc'ed) */
    int n;
} table;

/* The result table: from the line starting "Benchmark" to the end. */
static table parse_table(const char *out)
{
    table t = {{0}, 0};
    const char *h = out;
    while (h && strncmp(h, "Benchmark ", 10) != 0) {
        h = strchr(h, '\n');
        if (h)
            h++;
    }
    if (!h)
        fail_msg("no result table in the output:\n%s", out);
    while (*h) {
        const char *e = strchr(h, '\n');
        size_t len = e ? (size_t)(e - h) : strlen(h);
        assert_true(t.n < MAX_LINES);
        t.lines[t.n] = strndup(h, len);
        t.n++;
        h += len + (e ? 1 : 0);
    }
    return t;
}

static void free_table(table *t)
{
    for (int i = 0; i < t->n; i++)
        free(t->lines[i]);
}

/* The row's text between character columns from and to. */
static void cell(const char *line, int from, int to, char *buf, size_t cap)
{
    size_t a = byte_at(line, from), b = byte_at(line, to);
    assert_true(b >= a && b - a < cap);
    memcpy(buf, line + a, b - a);
    buf[b - a] = '\0';
}

/* The cell with its leading spaces removed; fails unless it is right-aligned
   (no trailing space) and holds no other space. */
static const char *right_aligned(const char *c)
{
    while (*c == ' ')
        c++;
    size_t n = strlen(c);
    if (n && c[n - 1] == ' ')
        fail_msg("cell '%s' is not right-aligned", c);
    return c;
}

static int is_score(const char *s)
{
    size_t n = strlen(s);
    if (n < 5 || s[n - 4] != '.')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (i != n - 4 && (s[i] < '0' || s[i] > '9'))
            return 0;
    return 1;
}

typedef struct expect_row {
    const char *bench, *name, *length;
} expect_row;

/*
 * Check t against JMH's layout and the rows in order: columns from the
 * header, every line as wide, cells right-aligned under their headers,
 * Cnt cnt (empty when 1), the Error ("± x.xxx") present iff cnt >= 3.
 */
static void check_table(const table *t, const expect_row *rows, int nrows, int cnt)
{
    const char *h = t->lines[0];
    assert_int_equal(t->n, 1 + nrows);
    int width = chars(h, strlen(h));
    /* the name column: "Benchmark" left-aligned in the longest name */
    size_t name_len = strlen("Benchmark");
    for (int i = 0; i < nrows; i++)
        if (strlen(rows[i].bench) > name_len)
            name_len = strlen(rows[i].bench);
    int c_name = end_col(h, "(digesterName)"), c_len = end_col(h, "(length)");
    int c_mode = end_col(h, "Mode"), c_cnt = end_col(h, "Cnt"), c_score = end_col(h, "Score");
    int c_err = end_col(h, "Error"), c_units = end_col(h, "Units");
    assert_int_equal(c_units, width);
    for (size_t i = strlen("Benchmark"); i < name_len; i++)
        assert_int_equal(h[i], ' ');
    /* JMH's widths: the widest of (key) and its values + 2, Mode "thrpt" + 2,
       Cnt 3 + 2, Units "ops/ms" + 2; Score two spaces, Error one more */
    size_t key_len = strlen("(digesterName)");
    for (int i = 0; i < nrows; i++)
        if (strlen(rows[i].name) > key_len)
            key_len = strlen(rows[i].name);
    assert_int_equal(c_name, (int)(name_len + 2 + key_len));
    assert_int_equal(c_mode - c_len, 7);
    assert_int_equal(c_cnt - c_mode, 5);
    assert_int_equal(c_units - c_err, 8);
    assert_memory_equal(h + byte_at(h, c_score), "  ", 2);

    for (int i = 0; i < nrows; i++) {
        const char *r = t->lines[i + 1];
        char buf[256];
        assert_int_equal(chars(r, strlen(r)), width);
        cell(r, 0, (int)name_len, buf, sizeof buf);
        char *sp = strchr(buf, ' ');
        if (sp)
            *sp = '\0';
        assert_string_equal(buf, rows[i].bench);
        cell(r, (int)name_len, c_name, buf, sizeof buf);
        assert_string_equal(right_aligned(buf), rows[i].name);
        cell(r, c_name, c_len, buf, sizeof buf);
        assert_string_equal(right_aligned(buf), rows[i].length);
        cell(r, c_len, c_mode, buf, sizeof buf);
        assert_string_equal(right_aligned(buf), "thrpt");
        cell(r, c_mode, c_cnt, buf, sizeof buf);
        if (cnt > 1) {
            char want[16];
            snprintf(want, sizeof want, "%d", cnt);
            assert_string_equal(right_aligned(buf), want);
        } else {
            assert_string_equal(right_aligned(buf), "");
        }
        cell(r, c_cnt, c_score, buf, sizeof buf);
        if (!is_score(right_aligned(buf)))
            fail_msg("row %d: bad Score cell '%s' in\n%s", i, buf, r);
        cell(r, c_score, c_err, buf, sizeof buf);
        if (cnt >= 3) {
            /* " ±" then the error right-aligned */
            assert_memory_equal(buf, " \xC2\xB1", 3);
            if (!is_score(right_aligned(buf + 3)))
                fail_msg("row %d: bad Error cell '%s' in\n%s", i, buf, r);
        } else {
            assert_null(strstr(buf, "\xC2\xB1"));
            assert_string_equal(right_aligned(buf), "");
        }
        cell(r, c_err, c_units, buf, sizeof buf);
        assert_string_equal(right_aligned(buf), "ops/ms");
    }
}

static int count_prefix(const char *out, const char *prefix)
{
    int n = 0;
    for (const char *l = out; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        if (strncmp(l, prefix, strlen(prefix)) == 0)
            n++;
    return n;
}

/* ---- the table ------------------------------------------------------------ */

/* A run and the result table it must print. */
typedef struct table_case {
    const char *name;
    const char *opts[3];     /* launcher options before the program */
    const char *argv[20];    /* the benchmark's arguments */
    int cnt;                 /* measurement iterations: the Cnt column */
    expect_row rows[9];      /* in order, until a row without bench */
    const char *header;      /* the header up to the Cnt column (the Score column's width depends on
                                the scores), or NULL: not checked */
} table_case;

/* the SHAKE128 pairs' run and rows, with the stubs and without */
#define PAIR_ARGS                                                                                       \
    {"digest", "getAndDigest", "-p", "digesterName=SHAKE128x2,SHAKE128x2-single", "-p", "length=0,400", \
     "-wi", "0", "-i", "2", "-w", "0", "-r", "5"}
#define PAIR_ROWS                                                 \
    {{"MessageDigests.digest", "SHAKE128x2", "0"},                \
     {"MessageDigests.digest", "SHAKE128x2", "400"},              \
     {"MessageDigests.digest", "SHAKE128x2-single", "0"},         \
     {"MessageDigests.digest", "SHAKE128x2-single", "400"},       \
     {"MessageDigests.getAndDigest", "SHAKE128x2", "0"},          \
     {"MessageDigests.getAndDigest", "SHAKE128x2", "400"},        \
     {"MessageDigests.getAndDigest", "SHAKE128x2-single", "0"},   \
     {"MessageDigests.getAndDigest", "SHAKE128x2-single", "400"}}

/* The defaults: both benchmarks, SHA3-256 and SHA3-512, lengths 64 and 16384. */
static const table_case defaults = {
    "defaults", {NULL}, {"-wi", "0", "-i", "2", "-w", "10", "-r", "20"}, 2,
    {{"MessageDigests.digest", "SHA3-256", "64"},
     {"MessageDigests.digest", "SHA3-256", "16384"},
     {"MessageDigests.digest", "SHA3-512", "64"},
     {"MessageDigests.digest", "SHA3-512", "16384"},
     {"MessageDigests.getAndDigest", "SHA3-256", "64"},
     {"MessageDigests.getAndDigest", "SHA3-256", "16384"},
     {"MessageDigests.getAndDigest", "SHA3-512", "64"},
     {"MessageDigests.getAndDigest", "SHA3-512", "16384"}},
    "Benchmark                    (digesterName)  (length)   Mode  Cnt"};

static const table_case table_cases[] = {
    /* three or more iterations: "± error" under Error; with only MessageDigests.digest the name column
       is 21 wide */
    {"error_column", {NULL},
     {"digest", "-p", "digesterName=SHA3-256", "-p", "length=64", "-wi", "0", "-i", "3", "-w", "10", "-r", "10"}, 3,
     {{"MessageDigests.digest", "SHA3-256", "64"}},
     "Benchmark              (digesterName)  (length)   Mode  Cnt"},
    /* one iteration: Cnt and Error are empty, as JMH prints a single sample */
    {"one_iteration", {NULL},
     {"getAndDigest", "-p", "digesterName=SHA3-384", "-p", "length=1", "-wi", "0", "-i", "1", "-w", "0", "-r", "5"}, 1,
     {{"MessageDigests.getAndDigest", "SHA3-384", "1"}}, NULL},
    /* JDK 25's SHAKE MessageDigests, by their names and aliases (MessageDigests.java takes any name its
       provider has): a row each, named as given */
    {"shake_digests", {NULL},
     {"getAndDigest", "-p", "digesterName=SHAKE128-256,SHAKE256", "-p", "length=1", "-wi", "0", "-i", "1", "-w", "0",
      "-r", "5"},
     1, {{"MessageDigests.getAndDigest", "SHAKE128-256", "1"}, {"MessageDigests.getAndDigest", "SHAKE256", "1"}},
     NULL},
    /* the SHAKE128 pairs (SHA3Parallel; the same with two single-state permutations), both benchmarks, with
       the stubs and without: a row each (a length of 0 squeezes one block too) */
    {"pairs_with_stubs", {"-XX:+UnlockDiagnosticVMOptions", "-XX:+UseSHA3Intrinsics"}, PAIR_ARGS, 2, PAIR_ROWS,
     NULL},
    {"pairs_without_stubs", {"-XX:+UnlockDiagnosticVMOptions", "-XX:-UseSHA3Intrinsics"}, PAIR_ARGS, 2, PAIR_ROWS,
     NULL},
    /* benchmarks run in JMH's (alphabetical) order whatever the command line's; parameter values in the
       order given; a wide value widens its column: (length) is 11 + 2 wide */
    {"order_and_widths", {NULL},
     {"getAndDigest", "digest", "-p", "digesterName=SHA3-512,SHA3-224", "-p", "length=00000000016,0", "-wi", "0",
      "-i", "4", "-w", "0", "-r", "5"},
     4,
     {{"MessageDigests.digest", "SHA3-512", "00000000016"},
      {"MessageDigests.digest", "SHA3-512", "0"},
      {"MessageDigests.digest", "SHA3-224", "00000000016"},
      {"MessageDigests.digest", "SHA3-224", "0"},
      {"MessageDigests.getAndDigest", "SHA3-512", "00000000016"},
      {"MessageDigests.getAndDigest", "SHA3-512", "0"},
      {"MessageDigests.getAndDigest", "SHA3-224", "00000000016"},
      {"MessageDigests.getAndDigest", "SHA3-224", "0"}},
     "Benchmark                    (digesterName)     (length)   Mode  Cnt"},
};

/* Run c: status 0 and its table; the run, for more checks. */
static tu_result run_table_case(const table_case *c)
{
    const char *argv[3 + 1 + 20 + 1];
    int n = 0;
    for (int i = 0; i < 3 && c->opts[i]; i++)
        argv[n++] = c->opts[i];
    argv[n++] = tu_source_path("bench/MessageDigests.mva");
    for (int i = 0; i < 20 && c->argv[i]; i++)
        argv[n++] = c->argv[i];
    argv[n] = NULL;
    tu_result r = tu_run(argv, NULL, 120);
    tu_expect_status(&r, 0);
    int nrows = 0;
    while (nrows < 9 && c->rows[nrows].bench)
        nrows++;
    table t = parse_table(r.out);
    check_table(&t, c->rows, nrows, c->cnt);
    if (c->header)
        assert_memory_equal(t.lines[0], c->header, strlen(c->header));
    free_table(&t);
    return r;
}

static void test_table(void **state)
{
    tu_result r = run_table_case(*state);
    tu_result_free(&r);
}

/* The defaults' table, JMH's header, then one progress line per run and the total time. */
static void test_defaults(void **state)
{
    (void)state;
    tu_result r = run_table_case(&defaults);
    assert_string_equal(r.err, "");
    assert_int_equal(count_prefix(r.out, "# MessageDigests."), 8);
    assert_non_null(strstr(r.out, "# MessageDigests.getAndDigest (digesterName = SHA3-512, length = 16384): "));
    assert_int_equal(count_prefix(r.out, "# Run complete. Total time: 00:00:"), 1);
    assert_int_equal(count_prefix(r.out, "# Warmup Iteration"), 0);
    tu_result_free(&r);
}

/* -v: JMH's per-iteration lines. */
static void test_verbose(void **state)
{
    (void)state;
    tu_result r = RUN("-v", "digest", "-p", "length=64", "-p", "digesterName=SHA3-256", "-wi", "2", "-i", "3",
                      "-w", "1ms", "-r", "0s");
    assert_int_equal(r.status, 0);
    assert_int_equal(count_prefix(r.out, "# Benchmark: MessageDigests.digest\n"), 1);
    assert_int_equal(count_prefix(r.out, "# Parameters: (digesterName = SHA3-256, length = 64)\n"), 1);
    assert_int_equal(count_prefix(r.out, "# Warmup Iteration   "), 2);
    assert_int_equal(count_prefix(r.out, "# Warmup Iteration   2: "), 1);
    assert_int_equal(count_prefix(r.out, "Iteration   "), 3);
    assert_int_equal(count_prefix(r.out, "Iteration   3: "), 1);
    tu_result_free(&r);
}

/* The quick setting of docs/benchmarks.md runs in about a second. */
static void test_quick(void **state)
{
    (void)state;
    if (tu_sanitized())
        skip();
    tu_result r = RUN("-wi", "1", "-i", "2", "-w", "100", "-r", "100", "-p", "length=64");
    assert_int_equal(r.status, 0);
    double s = r.secs;
    /* 4 runs × 3 iterations × 100 ms = 1.2 s; generous for a loaded machine */
    if (s > 6.0)
        fail_msg("took %.1f s", s);
    table t = parse_table(r.out);
    assert_int_equal(t.n, 5);
    free_table(&t);
    tu_result_free(&r);
}

static void test_help(void **state)
{
    (void)state;
    tu_result r = RUN("-h");
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_memory_equal(r.out, "Usage: minivm bench/MessageDigests.mva [benchmark...]",
                        strlen("Usage: minivm bench/MessageDigests.mva [benchmark...]"));
    tu_result_free(&r);
}

/* ---- errors ---------------------------------------------------------------- */

typedef struct error_case {
    const char *argv[6];
    const char *message; /* the first line of standard error */
} error_case;

static const error_case errors[] = {
    {{"foo"}, "MessageDigests: unknown benchmark 'foo' (MessageDigests has digest, getAndDigest)"},
    {{"Digest"}, "MessageDigests: unknown benchmark 'Digest' (MessageDigests has digest, getAndDigest)"},
    {{"-f", "1"}, "MessageDigests: unknown option '-f'"},
    {{"-p", "digesterName=MD2"},
     "MessageDigests: unknown digester name 'MD2' (minivm has MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224, "
     "SHA-512/256, SHA3-224, SHA3-256, SHA3-384, SHA3-512, SHAKE128-256, SHAKE256-512, SHA-256-JDK15, SHAKE128x2, "
     "SHAKE128x2-single)"},
    /* JDK 25 registers SHAKE128-256 and SHAKE256-512 (and their aliases SHAKE128, SHAKE256), no other length */
    {{"-p", "digesterName=SHA3-256,SHAKE128,SHAKE128-512"},
     "MessageDigests: unknown digester name 'SHAKE128-512' (minivm has MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512, "
     "SHA-512/224, SHA-512/256, SHA3-224, SHA3-256, SHA3-384, SHA3-512, SHAKE128-256, SHAKE256-512, SHA-256-JDK15, "
     "SHAKE128x2, SHAKE128x2-single)"},
    {{"-p", "digesterName="}, "MessageDigests: empty value for parameter digesterName"},
    {{"-p", "length=64,"}, "MessageDigests: empty value for parameter length"},
    {{"-p", "length=6x4"}, "MessageDigests: bad number '6x4' for parameter length: expected 0..2147483647"},
    {{"-p", "length=-1"}, "MessageDigests: bad number '-1' for parameter length: expected 0..2147483647"},
    {{"-p", "length=2147483648"},
     "MessageDigests: bad number '2147483648' for parameter length: expected 0..2147483647"},
    {{"-p", "provider=SUN"}, "MessageDigests: unknown parameter 'provider' (MessageDigests has digesterName, length)"},
    {{"-p", "length"}, "MessageDigests: bad parameter 'length': expected -p name=value,value..."},
    {{"-p"}, "MessageDigests: -p needs a value"},
    {{"-wi", "x"}, "MessageDigests: bad number 'x' for -wi: expected 0..10000"},
    {{"-wi", "-1"}, "MessageDigests: bad number '-1' for -wi: expected 0..10000"},
    {{"-i", "0"}, "MessageDigests: bad number '0' for -i: expected 1..10000"},
    {{"-i", "10001"}, "MessageDigests: bad number '10001' for -i: expected 1..10000"},
    {{"-i"}, "MessageDigests: -i needs a value"},
    {{"-w", "5x"}, "MessageDigests: bad time '5x' for -w: expected milliseconds, 0..3600000 (or 100ms, 1s)"},
    {{"-r", "3601s"}, "MessageDigests: bad time '3601s' for -r: expected milliseconds, 0..3600000 (or 100ms, 1s)"},
    {{"-r", ""}, "MessageDigests: bad time '' for -r: expected milliseconds, 0..3600000 (or 100ms, 1s)"},
    {{"-stats", "1,,2"}, "MessageDigests: bad number '' for -stats: expected 0..10000000"},
    {{"-dump-input", "x"}, "MessageDigests: bad number 'x' for -dump-input: expected 0..2147483647"},
};

static void test_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        const error_case *c = &errors[i];
        const char *args[8];
        int n = 0;
        for (; c->argv[n]; n++)
            args[n] = c->argv[n];
        args[n] = NULL;
        tu_result r = run_md(args);
        char want[512];
        snprintf(want, sizeof want, "%s\nUsage: minivm bench/MessageDigests.mva ", c->message);
        if (r.status != 1 || strncmp(r.err, want, strlen(want)) != 0 || r.out[0] != '\0')
            fail_msg("case %zu (%s): status %d\nstderr: %s\nstdout: %s\nwanted: %s", i, c->argv[0], r.status,
                     r.err, r.out, want);
        tu_result_free(&r);
    }
}

/* ---- the input ---------------------------------------------------------------- */

/* new java.util.Random(seed).nextBytes(b) */
static void java_random_bytes(uint64_t seed, unsigned char *b, size_t len)
{
    const uint64_t mask = (UINT64_C(1) << 48) - 1;
    seed = (seed ^ UINT64_C(0x5DEECE66D)) & mask;
    for (size_t i = 0; i < len;) {
        seed = (seed * UINT64_C(0x5DEECE66D) + 0xB) & mask;
        int32_t rnd = (int32_t)(uint32_t)(seed >> 16); /* next(32) */
        for (int n = len - i < 4 ? (int)(len - i) : 4; n-- > 0; rnd >>= 8)
            b[i++] = (unsigned char)rnd;
    }
}

static void test_input(void **state)
{
    (void)state;
    /* the C generator against bytes printed by a real JVM:
       byte[] b = new byte[21]; new Random(1234567890).nextBytes(b); */
    unsigned char b[4099];
    java_random_bytes(1234567890, b, 21);
    char hex[2 * sizeof b + 2];
    for (size_t i = 0; i < 21; i++)
        snprintf(hex + 2 * i, 3, "%02x", b[i]);
    assert_string_equal(hex, "ea6addb72596428eca77acf9a43797b34b58fcf1a0");

    static const size_t lengths[] = {0, 1, 5, 64, 4099};
    for (size_t k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        size_t n = lengths[k];
        char arg[16];
        snprintf(arg, sizeof arg, "%zu", n);
        java_random_bytes(1234567890, b, n);
        for (size_t i = 0; i < n; i++)
            snprintf(hex + 2 * i, 3, "%02x", b[i]);
        hex[2 * n] = '\n';
        hex[2 * n + 1] = '\0';
        tu_result r = RUN("-dump-input", arg);
        assert_int_equal(r.status, 0);
        assert_string_equal(r.out, hex);
        tu_result_free(&r);
    }
}

/* ---- the statistics ----------------------------------------------------------- */

/* t(0.9995, df) × 10^6, as bench/Jmh.mva's tquant */
static const int64_t t_small[30] = {636619249, 31599055, 12923979, 8610302, 6868827, 5958816, 5407883, 5041305,
                                    4780913,   4586894,  4436979,  4317791, 4220832, 4140454, 4072765, 4014996,
                                    3965126,   3921646,  3883406,  3849516, 3819277, 3792131, 3767627, 3745399,
                                    3725144,   3706612,  3689592,  3673906, 3659405, 3645959};

static int64_t tquant(int64_t df)
{
    static const int64_t g[5] = {3290527, 9729731, 26133021, 53168605, 79365841};
    if (df < 1)
        return 0;
    if (df <= 30)
        return t_small[df - 1];
    int64_t t = g[4];
    for (int k = 3; k >= 0; k--)
        t = g[k] + (2 * t + df) / (2 * df);
    return t;
}

/* the same Newton iteration */
static int64_t isqrt64(int64_t n)
{
    if (n < 2)
        return n;
    int64_t x = n, y = (n >> 1) + (n & 1);
    while (y < x) {
        x = y;
        y = (x + n / x) >> 1;
    }
    return x;
}

typedef struct fixed_stats {
    int64_t mean, error, t; /* error -1 when n < 2 */
} fixed_stats;

/* bench/Jmh.mva's stats, in C */
static fixed_stats stats_fixed(const int64_t *v, int64_t n)
{
    fixed_stats r = {0, -1, 0};
    int64_t s = 0;
    for (int64_t i = 0; i < n; i++)
        s += v[i];
    r.mean = (2 * s + n) / (2 * n);
    if (n < 2)
        return r;
    int64_t m = s / n, q = 0, tt = 0;
    for (int64_t i = 0; i < n; i++) {
        int64_t d = v[i] - m;
        tt += d;
        q += d * d;
    }
    int64_t d1 = n * (n - 1), a1 = q / d1, rq = q % d1, den = d1 * n, num = rq * n - tt * tt;
    if (num < 0) {
        a1 -= 1;
        num += den;
    }
    int64_t y = a1, rr = num, k = 0, p = 1000000;
    while (k < 6 && y < (INT64_C(1) << 56)) {
        y = y * 100 + rr * 100 / den;
        rr = rr * 100 % den;
        k++;
        p *= 10;
    }
    r.t = tquant(n - 1);
    int64_t e = r.t * isqrt64(y);
    r.error = (2 * e + p) / (2 * p);
    return r;
}

/* t(0.9995, df), exact (mpmath: the inverse of the regularised incomplete beta) */
static double t_exact(int64_t df)
{
    static const struct {
        int64_t df;
        double t;
    } tab[] = {{1, 636.619248769}, {2, 31.5990545764}, {3, 12.9239786367}, {4, 8.61030158138}, {9, 4.78091258593},
               {30, 3.64595863504}, {34, 3.60071579739}, {45, 3.52025146497}, {99, 3.39152883336},
               {150, 3.35656898174}, {2000, 3.29539813673}, {9999, 3.2915000633}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (tab[i].df == df)
            return tab[i].t;
    fail_msg("no exact t for df %lld", (long long)df);
    return 0;
}

static double fabs_(double x)
{
    return x < 0 ? -x : x;
}

/* sqrt by Newton's method (no libm for one test) */
static double sqrt_(double x)
{
    if (x <= 0)
        return 0;
    double r = x > 1 ? x : 1;
    for (int i = 0; i < 200; i++)
        r = (r + x / r) / 2;
    return r;
}

static void fmt_milli(char *buf, size_t cap, int64_t v)
{
    snprintf(buf, cap, "%lld.%03lld", (long long)(v / 1000), (long long)(v % 1000));
}

static void fmt_micro(char *buf, size_t cap, int64_t v)
{
    snprintf(buf, cap, "%lld.%06lld", (long long)(v / 1000000), (long long)(v % 1000000));
}

/* Run -stats on v[0..n), compare with stats_fixed exactly, and with floating
   point and the exact t within the rounding of 3 decimals (and t's 10^-6). */
static void check_stats(const int64_t *v, int64_t n)
{
    size_t cap = (size_t)n * 12 + 1;
    char *arg = malloc(cap), *p = arg;
    assert_non_null(arg);
    for (int64_t i = 0; i < n; i++)
        p += snprintf(p, cap - (size_t)(p - arg), "%s%lld", i ? "," : "", (long long)v[i]);
    tu_result r = RUN("-stats", arg);
    free(arg);
    assert_int_equal(r.status, 0);

    fixed_stats f = stats_fixed(v, n);
    char mean[32], err[32], t[32], want[160];
    fmt_milli(mean, sizeof mean, f.mean);
    if (n < 2) {
        snprintf(want, sizeof want, "cnt=%lld mean=%s error=NaN t=NaN\n", (long long)n, mean);
    } else {
        fmt_milli(err, sizeof err, f.error);
        fmt_micro(t, sizeof t, f.t);
        snprintf(want, sizeof want, "cnt=%lld mean=%s error=%s t=%s\n", (long long)n, mean, err, t);
    }
    assert_string_equal(r.out, want);

    /* floating point, as JMH computes it */
    double sum = 0, var = 0;
    for (int64_t i = 0; i < n; i++)
        sum += (double)v[i] / 1000;
    double dmean = sum / (double)n;
    assert_true(fabs_((double)f.mean / 1000 - dmean) <= 0.0005 + 1e-9);
    if (n >= 2) {
        for (int64_t i = 0; i < n; i++)
            var += ((double)v[i] / 1000 - dmean) * ((double)v[i] / 1000 - dmean);
        var /= (double)(n - 1);
        double te = t_exact(n - 1);
        double derr = te * sqrt_(var) / sqrt_((double)n);
        double dt = fabs_((double)f.t / 1e6 - te);
        assert_true(dt <= (n - 1 <= 30 ? 0.5e-6 : 3e-6));
        /* the rounding of 3 decimals, and t's own difference */
        double tol = 0.0005 + 1e-6 + derr * (dt / te + 1e-8);
        if (fabs_((double)f.error / 1000 - derr) > tol)
            fail_msg("n=%lld: error %s, floating point %.6f", (long long)n, err, derr);
    }
    tu_result_free(&r);
}

static void test_stats(void **state)
{
    (void)state;
    static const int64_t one[] = {1234567};
    static const int64_t two[] = {1000, 2000};                    /* df 1: t = 636.619 */
    static const int64_t three[] = {190517, 163277, 198476};      /* df 2 */
    static const int64_t five[] = {1234567, 1240001, 1229876, 1251234, 1233333}; /* df 4 */
    static const int64_t same[] = {5000, 5000, 5000, 5000, 5000};  /* error 0 */
    static const int64_t small[] = {0, 0, 1};                     /* below 0.001 */
    static const int64_t ten[] = {47, 48, 46, 47, 49, 45, 47, 48, 47, 46}; /* df 9, 16 KiB -Xint-like */
    check_stats(one, 1);
    check_stats(two, 2);
    check_stats(three, 3);
    check_stats(five, 5);
    check_stats(same, 5);
    check_stats(small, 3);
    check_stats(ten, 10);

    /* larger n: df 30 (the table's end), 34, 45, 99, 150 (interpolated),
       2000 and 9999 (towards t(∞)); pseudo-random scores around 1234 ops/ms */
    static const int64_t ns[] = {31, 35, 46, 100, 151, 2001, 10000};
    static int64_t v[10000];
    uint64_t x = 88172645463325252u;
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        for (int64_t i = 0; i < ns[k]; i++) {
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            v[i] = 1200000 + (int64_t)(x % 70000);
        }
        check_stats(v, ns[k]);
    }
    /* the extremes: 10000 ops/ms apart */
    static const int64_t wide[] = {0, 10000000, 0, 10000000};
    check_stats(wide, 4);
}

int main(void)
{
    tu_group g = {0};
    TU_ADD_TEST(&g, test_defaults);
    TU_ADD_TABLE(&g, table_cases, test_table);
    TU_ADD_TEST(&g, test_verbose);
    TU_ADD_TEST(&g, test_quick);
    TU_ADD_TEST(&g, test_help);
    TU_ADD_TEST(&g, test_errors);
    TU_ADD_TEST(&g, test_input);
    TU_ADD_TEST(&g, test_stats);
    return tu_run_group("messagedigests", &g, NULL, NULL);
}
