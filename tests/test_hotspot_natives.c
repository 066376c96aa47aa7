/*
 * tests/test_hotspot_natives.c — the differential suite's natives (suite 'hotspot'): minivm's
 * ByteArrayAccess natives (vm/natives.c, vm/lib/ByteArrayAccess.mva) against JDK 25's
 * sun.security.provider.ByteArrayAccess.
 *
 * tests/hotspot/byte_array_access.txt holds calls and what JDK 25 did with each: its exception
 * (class and message) or none, and the out array afterwards (a conversion can stop part way). It
 * is the output of tests/hotspot/ByteArrayAccessCalls.java (edge cases around int wrap, the
 * bounds and nulls, then random calls), whose header says how the arrays start. Every call is
 * made here through bytecode (a method that calls the native) on arrays filled the same way and
 * must end the same way: same exception, same message, same out array.
 *
 * Natively on x86-64 the recorded table is checked against a live HotSpot 25 too (scripts/oracle:
 * the program run again there must print the same calls and answers), so a table that went stale
 * fails; under QEMU only the recorded table is used. The last line:
 *
 *     hotspot natives: ByteArrayAccess: N of M calls identical to JDK 25 (LIVE)
 *
 *   test_hotspot_natives --record   print the table from the live HotSpot 25 (its new text;
 *                                   sh scripts/test-hotspot --record-natives writes it)
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

#define TABLE "tests/hotspot/byte_array_access.txt"

/* One wrapper per conversion: the bytecode's call of the native, as the digests make it. */
#define WRAP(FN, IN, OUT)                                                   \
    "method " FN "(a: " IN ", ao: int, b: " OUT ", bo: int, len: int)\n"    \
    "    call ByteArrayAccess." FN "(a, ao, b, bo, len)\n"                  \
    "    ret\n"                                                             \
    "end\n"
static const char program[] = "module T\n"
                              "import ByteArrayAccess\n" WRAP("i2bLittle", "int[]", "byte[]")
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

/* ---- the table -------------------------------------------------------------------------------- */

typedef struct suite {
    char *text;         /* the table file */
    char *live;         /* the live HotSpot's text, or NULL (under QEMU, or --record) */
    int calls, same;
} suite;
static suite S;

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    size_t got;
    while (b && (got = fread(b + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *nb = realloc(b, cap *= 2);
            if (!nb)
                free(b);
            b = nb;
        }
    }
    fclose(f);
    if (b)
        b[n] = '\0';
    return b;
}

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

/* JDK 25 through scripts/oracle, tests/hotspot/ mounted at /minivm */
static tu_result run_live_hotspot(void)
{
    static char bind[4096];
    snprintf(bind, sizeof bind, "MINIVM_ORACLE_BIND=%s", tu_source_path("tests/hotspot"));
    const char *args[] = {"env", bind, "sh", tu_source_path("scripts/oracle"), "java", "--add-opens",
                          "java.base/sun.security.provider=ALL-UNNAMED", "/minivm/ByteArrayAccessCalls.java", NULL};
    return tu_run_command(args, NULL, 600);
}

/* Every call of the table on minivm: its outcome and out array against JDK 25's */
static void replay_table(void **state)
{
    (void)state;
    vm_program *p = tu_load(program);
    vm_t *vm = tu_vm(p, 0);
    int bad = 0, lineno = 0;
    for (char *line = S.text; *line;) {
        char *end = line + strcspn(line, "\n");
        char saved = *end;
        *end = '\0';
        lineno++;
        if (*line && *line != '#') {
            char fn[32], in[32], out[32];
            long long inOfs, outOfs, len;
            int used = 0;
            if (sscanf(line, "%31s %31s %lld %31s %lld %lld | %n", fn, in, &inOfs, out, &outOfs, &len, &used) != 6 ||
                !used)
                fail_msg("%s:%d: not a call: %s", TABLE, lineno, line);
            const char *result = line + used;
            const char *bar = strstr(result, " | ");
            if (!bar)
                fail_msg("%s:%d: no out array: %s", TABLE, lineno, line);
            vm_tkind ik = VM_T_BYTES, ok = VM_T_BYTES;
            long in_n, out_n;
            char qname[64];
            snprintf(qname, sizeof qname, "T.%s", fn);
            const vm_method *m = vm_find_method(p, qname);
            if (!m || !parse_array(in, &ik, &in_n) || !parse_array(out, &ok, &out_n))
                fail_msg("%s:%d: unknown conversion or array: %s", TABLE, lineno, line);
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
            S.calls++;
            bool same = strlen(got) == (size_t)(bar - result) && strncmp(got, result, (size_t)(bar - result)) == 0 &&
                        strcmp(after, bar + 3) == 0;
            if (same)
                S.same++;
            else if (bad++ < 20)
                print_error("%s:%d: %s\n  JDK 25: %s\n  minivm: %s | %s\n", TABLE, lineno, line, result, got, after);
            vm_gc(vm);
        }
        *end = saved;
        line = end + (saved == '\n');
    }
    vm_free(vm);
    vm_program_free(p);
    if (S.calls < 1000)
        fail_msg("%s has %d calls: a table of JDK 25's answers has over a thousand (is it truncated?)", TABLE, S.calls);
    if (bad)
        fail_msg("%d of %d calls differ from JDK 25 (the first 20 above)", bad, S.calls);
}

/* The recorded table against a live HotSpot 25: the same calls, the same answers */
static void table_is_current(void **state)
{
    (void)state;
    if (!S.live) {
        skip();
        return;
    }
    char *want = answers_only(S.text), *got = answers_only(S.live);
    if (strcmp(want, got) != 0) {
        const char *w = want, *g = got;
        int line = 1;
        while (*w && *w == *g) {
            line += *w == '\n';
            w++, g++;
        }
        fail_msg("%s differs from a live HotSpot 25 at answer line %d:\n  recorded: %.300s\n  live:     %.300s\n"
                 "(sh scripts/test-hotspot --record-natives rewrites it)",
                 TABLE, line, w, g);
    }
    free(want);
    free(got);
}

static bool native_x86_64(void)
{
#if defined(__x86_64__)
    const char *w = getenv("MINIVM_WRAPPER");
    return !(w && *w);
#else
    return false;
#endif
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--record") == 0) {
        tu_result r = run_live_hotspot();
        if (r.status != 0 || !strstr(r.out, "calls: FN IN INOFS")) {
            fprintf(stderr, "test_hotspot_natives --record: HotSpot 25 did not answer (status %d):\n%s%s", r.status,
                    r.out, r.err);
            return 1;
        }
        fputs(r.out, stdout);
        tu_result_free(&r);
        return 0;
    }
    S.text = read_file(tu_source_path(TABLE));
    if (!S.text) {
        fprintf(stderr, "test_hotspot_natives: cannot read %s\n", tu_source_path(TABLE));
        return 1;
    }
    const char *live = "recorded answers; no live HotSpot 25 here";
    if (native_x86_64()) {
        tu_result r = run_live_hotspot();
        if (r.status == 0 && strstr(r.out, "calls: FN IN INOFS")) {
            S.live = r.out;
            r.out = NULL;
            live = "recorded answers, the live HotSpot 25 gives the same";
        } else {
            fprintf(stderr,
                    "test_hotspot_natives: the native HotSpot 25 did not run ByteArrayAccessCalls.java (status %d):\n"
                    "%.2000s\n  set it up with `sh scripts/oracle setup` (sh scripts/test does)\n",
                    r.status, r.err);
            tu_result_free(&r);
            return 1;
        }
        tu_result_free(&r);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(replay_table),
        cmocka_unit_test(table_is_current),
    };
    int failed = cmocka_run_group_tests_name("hotspot_natives", tests, NULL, NULL);
    printf("hotspot natives: ByteArrayAccess: %d of %d calls identical to JDK 25 (%s)\n", S.same, S.calls, live);
    free(S.text);
    free(S.live);
    return failed ? 1 : 0;
}
