/*
 * tests/test_hotspot_library.c — the differential suite's library part (suite 'hotspot'): the
 * bytecode library's JDK code against JDK 25's, call by call, from tables of JDK 25's answers:
 *
 * - tests/hotspot/byte_array_access.txt: calls of the ByteArrayAccess natives (vm/natives.c,
 *   vm/lib/ByteArrayAccess.mva) and what JDK 25's sun.security.provider.ByteArrayAccess did with
 *   each: its exception (class and message) or none, and the out array afterwards (a conversion
 *   can stop part way). It is the output of tests/hotspot/ByteArrayAccessCalls.java (edge cases
 *   around int wrap, the bounds and nulls, then random calls), whose header says how the arrays
 *   start. Every call is made here through bytecode (a method that calls the native) on arrays
 *   filled the same way and must end the same way: same exception, same message, same out array.
 * - tests/hotspot/message_digest_names.txt: names and the digest JDK 25's
 *   MessageDigest.getInstance gives for each (its standard name and length, or none), the output
 *   of tests/hotspot/MessageDigestNames.java (every name, alias and OID in several cases, with
 *   the letters Locale.ENGLISH folds, and near misses). minivm's MessageDigest.getInstance must
 *   give the same, but for the departures named below (MD2, which minivm does not have, and its
 *   own SHA-256-JDK15).
 *
 * Natively on x86-64 each table is checked against a live HotSpot 25 too (scripts/oracle: the
 * program run again there must print the same answers), so a table that went stale fails; under
 * QEMU only the recorded tables are used. The last lines:
 *
 *     hotspot library: ByteArrayAccess: N of M calls identical to JDK 25 (LIVE)
 *     hotspot library: MessageDigest.getInstance: N of M names identical to JDK 25 (D documented departures; LIVE)
 *
 *   test_hotspot_library --record TABLE   print TABLE (byte_array_access or message_digest_names)
 *                                         from the live HotSpot 25 (sh scripts/test-hotspot
 *                                         --record-library writes both)
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
#include "vm.h"

/* One wrapper per conversion: the bytecode's call of the native, as the digests make it. */
#define WRAP(FN, IN, OUT)                                                   \
    "method " FN "(a: " IN ", ao: int, b: " OUT ", bo: int, len: int)\n"    \
    "    call ByteArrayAccess." FN "(a, ao, b, bo, len)\n"                  \
    "    ret\n"                                                             \
    "end\n"
static const char program[] = "module T\n"
                              "import ByteArrayAccess\n"
                              "import MessageDigest\n" WRAP("i2bLittle", "int[]", "byte[]")
                                  WRAP("b2iBig", "byte[]", "int[]") WRAP("i2bBig", "int[]", "byte[]")
                                      WRAP("b2lLittle", "byte[]", "long[]") WRAP("l2bLittle", "long[]", "byte[]")
                                          WRAP("b2lBig", "byte[]", "long[]") WRAP("l2bBig", "long[]", "byte[]");
#undef WRAP

/* The table's array kinds: "byte[6]" -> VM_T_BYTES, 6; "null" -> length -1 */
static bool parse_array(const char *s, vm_tkind *kind, long *n)
{
    if (strcmp(s, "null") == 0) {
        *n = -1;
        return true;
    }
    const char *br = strchr(s, '[');
    if (!br)
        return false;
    size_t k = (size_t)(br - s);
    if (k == 4 && strncmp(s, "byte", 4) == 0)
        *kind = VM_T_BYTES;
    else if (k == 3 && strncmp(s, "int", 3) == 0)
        *kind = VM_T_INTS;
    else if (k == 4 && strncmp(s, "long", 4) == 0)
        *kind = VM_T_LONGS;
    else
        return false;
    *n = strtol(br + 1, NULL, 10);
    return *n >= 0;
}

/* Element i of an in array: the low bits of (i + 1) * 0x9E3779B97F4A7C15 (the table's header) */
static uint64_t pattern(int64_t i) { return (uint64_t)(i + 1) * 0x9E3779B97F4A7C15u; }

/* A new array of the table's: in arrays with the pattern, out arrays 0xA5 in every byte */
static vm_obj *new_array(vm_t *vm, vm_tkind kind, long n, bool in)
{
    if (n < 0)
        return NULL;
    vm_obj *o = vm_new_array(vm, kind, n);
    assert_non_null(o);
    for (long i = 0; i < n; i++) {
        uint64_t v = in ? pattern(i) : 0xA5A5A5A5A5A5A5A5u;
        if (kind == VM_T_BYTES)
            VM_BYTES(o)[i] = (int8_t)(uint8_t)v;
        else if (kind == VM_T_INTS)
            VM_INTS(o)[i] = (int32_t)(uint32_t)v;
        else
            VM_LONGS(o)[i] = (int64_t)v;
    }
    return o;
}

/* The table's text of an array: its elements in hex ("-" for null) */
static void hex(const vm_obj *o, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    if (!o) {
        snprintf(buf, len, "-");
        return;
    }
    for (int32_t i = 0; i < o->length && at + 20 < len; i++) {
        if (o->kind == VM_T_BYTES)
            at += (size_t)snprintf(buf + at, len - at, "%02x", (uint8_t)VM_BYTES(o)[i]);
        else if (o->kind == VM_T_INTS)
            at += (size_t)snprintf(buf + at, len - at, "%s%08x", i ? " " : "", (uint32_t)VM_INTS(o)[i]);
        else
            at += (size_t)snprintf(buf + at, len - at, "%s%016llx", i ? " " : "",
                                   (unsigned long long)VM_LONGS(o)[i]);
    }
}

/* ---- the tables ------------------------------------------------------------------------------- */

/* A row of a table on minivm: the answer JDK 25 gives, a departure documented in docs/library.md, or
   another */
typedef enum { ROW_SAME, ROW_DEPARTED, ROW_DIFFERS } verdict;

typedef struct table table;
struct table {
    const char *path, *java; /* the table, relative to the source root; the program that writes it */
    const char *marker;      /* in its header: the live output is one */
    const char *rows_are;    /* what a row is, for the messages: "calls" */
    int min_rows;            /* JDK 25's table has at least these: fewer, it is truncated */
    /* One row (line without its newline) on vm over the program p; unless ROW_SAME, both answers
       in diff ("JDK 25: ...\n  minivm: ...") */
    verdict (*row)(vm_t *vm, const vm_program *p, const table *t, int lineno, const char *line, char *diff,
                   size_t size);
    char *text;              /* the table file */
    char *live;              /* the live HotSpot's text, or NULL (under QEMU, or --record) */
    int rows, same, departed;
};

/* The text without its '#' lines (the header says which JDK build wrote it) */
static char *answers_only(const char *text)
{
    char *out = malloc(strlen(text) + 1), *o = out;
    assert_non_null(out);
    for (const char *p = text; *p;) {
        size_t n = strcspn(p, "\n");
        if (*p != '#') {
            memcpy(o, p, n);
            o += n;
            *o++ = '\n';
        }
        p += n + (p[n] == '\n');
    }
    *o = '\0';
    return out;
}

/* JDK 25 running t's program through scripts/oracle, tests/hotspot/ mounted at /minivm */
static tu_result run_live_hotspot(const table *t)
{
    static char bind[4096], prog[256];
    snprintf(bind, sizeof bind, "MINIVM_ORACLE_BIND=%s", tu_source_path("tests/hotspot"));
    snprintf(prog, sizeof prog, "/minivm/%s", t->java);
    const char *args[] = {"env", bind, "sh", tu_source_path("scripts/oracle"), "java", "--add-opens",
                          "java.base/sun.security.provider=ALL-UNNAMED", prog, NULL};
    return tu_run_command(args, NULL, 120); /* a few seconds; the test's timeout is 300 s */
}

/* Every row of the table (its lines but the '#' ones) on one VM, each against JDK 25's answer */
static void replay(void **state)
{
    table *t = *state;
    vm_program *p = tu_load(program);
    vm_t *vm = tu_vm(p, 0);
    int bad = 0, lineno = 0;
    for (char *line = t->text; *line;) {
        char *end = line + strcspn(line, "\n");
        char saved = *end;
        *end = '\0';
        lineno++;
        if (*line != '#') {
            char diff[8192];
            verdict v = t->row(vm, p, t, lineno, line, diff, sizeof diff);
            t->rows++;
            if (v == ROW_SAME)
                t->same++;
            else if (v == ROW_DEPARTED)
                t->departed++;
            else if (bad++ < 20)
                print_error("%s:%d: %s\n  %s\n", t->path, lineno, line, diff);
            vm_gc(vm);
        }
        *end = saved;
        line = end + (saved == '\n');
    }
    vm_free(vm);
    vm_program_free(p);
    if (t->rows < t->min_rows)
        fail_msg("%s has %d %s: JDK 25's table has at least %d (is it truncated?)", t->path, t->rows, t->rows_are,
                 t->min_rows);
    if (bad)
        fail_msg("%d of %d %s differ from JDK 25 (the first 20 above)", bad, t->rows, t->rows_are);
}

/* The recorded table against a live HotSpot 25: the same answers */
static void table_is_current(void **state)
{
    const table *t = *state;
    if (!t->live) {
        skip();
        return;
    }
    char *want = answers_only(t->text), *got = answers_only(t->live);
    if (strcmp(want, got) != 0) {
        const char *w = want, *g = got;
        int line = 1;
        while (*w && *w == *g) {
            line += *w == '\n';
            w++, g++;
        }
        fail_msg("%s differs from a live HotSpot 25 at answer line %d:\n  recorded: %.300s\n  live:     %.300s\n"
                 "(sh scripts/test-hotspot --record-library rewrites it)",
                 t->path, line, w, g);
    }
    free(want);
    free(got);
}

/* ---- ByteArrayAccess's calls ------------------------------------------------------------------- */

/* A call of the table on minivm: its outcome and out array against JDK 25's */
static verdict replay_call(vm_t *vm, const vm_program *p, const table *t, int lineno, const char *line, char *diff,
                           size_t size)
{
    char fn[32], in[32], out[32];
    long long inOfs, outOfs, len;
    int used = 0;
    if (sscanf(line, "%31s %31s %lld %31s %lld %lld | %n", fn, in, &inOfs, out, &outOfs, &len, &used) != 6 || !used)
        fail_msg("%s:%d: not a call: %s", t->path, lineno, line);
    const char *result = line + used;
    const char *bar = strstr(result, " | ");
    if (!bar)
        fail_msg("%s:%d: no out array: %s", t->path, lineno, line);
    vm_tkind ik = VM_T_BYTES, ok = VM_T_BYTES;
    long in_n = 0, out_n = 0;
    char qname[64];
    snprintf(qname, sizeof qname, "T.%s", fn);
    const vm_method *m = vm_find_method(p, qname);
    if (!m || !parse_array(in, &ik, &in_n) || !parse_array(out, &ok, &out_n))
        fail_msg("%s:%d: unknown conversion or array: %s", t->path, lineno, line);
    /* null's kind: the conversion's (bytes in from-bytes conversions, else words) */
    vm_obj *a = new_array(vm, ik, in_n, true);
    vm_push_root(vm, &a);
    vm_obj *b = new_array(vm, ok, out_n, false);
    vm_push_root(vm, &b);
    vm_value args[5] = {{.ref = a}, {.i = inOfs}, {.ref = b}, {.i = outOfs}, {.i = len}};
    int st = vm_call(vm, m, args, NULL);
    char got[512], after[2048], initial[2048];
    if (st == VM_OK)
        snprintf(got, sizeof got, "ok");
    else
        snprintf(got, sizeof got, "%s%s%s", vm_exc_class(vm->exc), vm->exc_msg[0] ? ": " : "", vm->exc_msg);
    hex(b, after, sizeof after);
    vm_obj *fresh = new_array(vm, ok, out_n, false);
    hex(fresh, initial, sizeof initial);
    if (b && strcmp(after, initial) == 0)
        snprintf(after, sizeof after, "unchanged");
    vm_pop_roots(vm, 2);
    if (strlen(got) == (size_t)(bar - result) && strncmp(got, result, (size_t)(bar - result)) == 0 &&
        strcmp(after, bar + 3) == 0)
        return ROW_SAME;
    snprintf(diff, size, "JDK 25: %s\n  minivm: %s | %s", result, got, after);
    return ROW_DIFFERS;
}

/* ---- MessageDigest.getInstance's names ------------------------------------------------------------ */

/* The table's NAME: \xHH escapes back to bytes; returns the length */
static size_t unescape(const char *s, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 3 < n && s[i + 1] == 'x') {
            char hex[3] = {s[i + 2], s[i + 3], 0};
            out[o++] = (char)strtol(hex, NULL, 16);
            i += 3;
        } else {
            out[o++] = s[i];
        }
    }
    return o;
}

/* minivm's documented departures from JDK 25's answers (docs/library.md): JDK 25's SUN provider has
   MD2, minivm does not; minivm has SHA-256-JDK15 (SHA-256 as JDK 15 wrote it, for seed 001), JDK 25 does
   not. Whether a row is one: its JDK answer is MD2's, or its name is minivm's own digest. */
static bool departure(const char *jdk, const char *name)
{
    return strncmp(jdk, "MD2 ", 4) == 0 || strcmp(name, "SHA-256-JDK15") == 0;
}

/* A name of the table on minivm: MessageDigest.getInstance's digest (its algorithm and length) or
   null, against JDK 25's */
static verdict replay_name(vm_t *vm, const vm_program *p, const table *t, int lineno, const char *line, char *diff,
                           size_t size)
{
    const vm_method *get = vm_find_method(p, "MessageDigest.getInstance");
    assert_non_null(get);
    const char *bar = strstr(line, " | ");
    if (!bar)
        fail_msg("%s:%d: not NAME | ANSWER: %s", t->path, lineno, line);
    char name[512];
    if ((size_t)(bar - line) >= sizeof name)
        fail_msg("%s:%d: a name longer than %zu bytes: %.80s...", t->path, lineno, sizeof name - 1, line);
    size_t n = unescape(line, (size_t)(bar - line), name);
    const char *jdk = bar + 3;
    vm_obj *s = vm_new_array(vm, VM_T_BYTES, (int64_t)n);
    assert_non_null(s);
    memcpy(s->data, name, n);
    vm_value args[1] = {{.ref = s}}, r = {0};
    if (vm_call(vm, get, args, &r) != VM_OK)
        fail_msg("%s:%d: MessageDigest.getInstance threw %s: %s", t->path, lineno, vm_exc_class(vm->exc),
                 vm->exc_msg);
    char got[128];
    if (!r.ref) {
        snprintf(got, sizeof got, "-");
    } else {
        const vm_value *f = VM_FIELDS(r.ref); /* DigestBase.Digest: algorithm, digestLength, ... */
        snprintf(got, sizeof got, "%.*s %lld", (int)f[0].ref->length, (const char *)f[0].ref->data,
                 (long long)f[1].i);
    }
    name[n] = '\0';
    if (strcmp(got, jdk) == 0)
        return ROW_SAME;
    if (departure(jdk, name) && (strcmp(jdk, "-") == 0) != (strcmp(got, "-") == 0))
        return ROW_DEPARTED; /* JDK 25 has a digest there and minivm none, or the other way */
    snprintf(diff, size, "JDK 25: %s\n  minivm: %s", jdk, got);
    return ROW_DIFFERS;
}

static table BAA = {"tests/hotspot/byte_array_access.txt", "ByteArrayAccessCalls.java", "calls: FN IN INOFS", "calls",
                    1000, replay_call, NULL, NULL, 0, 0, 0};
static table NAMES_TABLE = {"tests/hotspot/message_digest_names.txt", "MessageDigestNames.java",
                            "names: NAME | STANDARD", "names", 200, replay_name, NULL, NULL, 0, 0, 0};

static bool native_x86_64(void)
{
#if defined(__x86_64__)
    const char *w = getenv("MINIVM_WRAPPER");
    return !(w && *w);
#else
    return false;
#endif
}

/* t's text from the file, and natively its live text; NULL, or why not */
static const char *load_table(table *t, bool live)
{
    static char why[4096];
    t->text = tu_read_file(tu_source_path(t->path), NULL);
    if (!t->text) {
        snprintf(why, sizeof why, "cannot read %s", tu_source_path(t->path));
        return why;
    }
    if (!live)
        return NULL;
    tu_result r = run_live_hotspot(t);
    if (r.status != 0 || !strstr(r.out, t->marker)) {
        snprintf(why, sizeof why,
                 "the native HotSpot 25 did not run %s (status %d):\n%.2000s\n"
                 "  set it up with `sh scripts/oracle setup` (sh scripts/test does)",
                 t->java, r.status, r.err);
        tu_result_free(&r);
        return why;
    }
    t->live = r.out;
    r.out = NULL;
    tu_result_free(&r);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--record") == 0) {
        table *t = strcmp(argv[2], "byte_array_access") == 0     ? &BAA
                   : strcmp(argv[2], "message_digest_names") == 0 ? &NAMES_TABLE
                                                                  : NULL;
        if (!t) {
            fprintf(stderr, "test_hotspot_library --record: byte_array_access or message_digest_names\n");
            return 2;
        }
        tu_result r = run_live_hotspot(t);
        if (r.status != 0 || !strstr(r.out, t->marker)) {
            fprintf(stderr, "test_hotspot_library --record: HotSpot 25 did not answer (status %d):\n%s%s", r.status,
                    r.out, r.err);
            return 1;
        }
        fputs(r.out, stdout);
        tu_result_free(&r);
        return 0;
    }
    bool live = native_x86_64();
    const char *why = load_table(&BAA, live);
    if (!why)
        why = load_table(&NAMES_TABLE, live);
    if (why) {
        fprintf(stderr, "test_hotspot_library: %s\n", why);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        {"ByteArrayAccess: the calls", replay, NULL, NULL, &BAA},
        {"ByteArrayAccess: the table is current", table_is_current, NULL, NULL, &BAA},
        {"MessageDigest.getInstance: the names", replay, NULL, NULL, &NAMES_TABLE},
        {"MessageDigest.getInstance: the table is current", table_is_current, NULL, NULL, &NAMES_TABLE},
    };
    int failed = cmocka_run_group_tests_name("hotspot_library", tests, NULL, NULL);
    const char *how = live ? "the live HotSpot 25 gives the recorded answers" : "recorded answers; no live HotSpot 25 here";
    printf("hotspot library: ByteArrayAccess: %d of %d calls identical to JDK 25 (%s)\n", BAA.same, BAA.rows, how);
    printf("hotspot library: MessageDigest.getInstance: %d of %d names identical to JDK 25 (%d documented departures; "
           "%s)\n",
           NAMES_TABLE.same, NAMES_TABLE.rows, NAMES_TABLE.departed, how);
    free(BAA.text);
    free(BAA.live);
    free(NAMES_TABLE.text);
    free(NAMES_TABLE.live);
    return failed ? 1 : 0;
}
