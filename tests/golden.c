/*
 * tests/golden.c — the encoder tests' shared check against llvm-mc's goldens (golden.h).
 */
#include "golden.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

bool golden_have_llvm_mc(void)
{
    static int have = -1;
    if (have < 0)
        have = system("command -v llvm-mc >/dev/null 2>&1") == 0;
    return have;
}

const char *golden_disassemble(const golden_arch *g, const uint8_t *b, size_t n, char *out, size_t size)
{
    char cmd[1024];
    int len = snprintf(cmd, sizeof cmd, "echo '");
    for (size_t k = 0; k < n && len < (int)sizeof cmd - 300; k++)
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, "0x%02x ", b[k]);
    snprintf(cmd + len, sizeof cmd - (size_t)len, "' | llvm-mc --disassemble %s 2>&1", g->llvm_mc);
    snprintf(out, size, "<invalid>");
    FILE *p = popen(cmd, "r");
    if (!p)
        return out;
    char line[256];
    size_t used = 0;
    out[0] = 0;
    while (fgets(line, sizeof line, p)) {
        if (strstr(line, "warning") || strstr(line, "error")) {
            snprintf(out, size, "<invalid>");
            used = size;
            continue;
        }
        char *s = line + strspn(line, " \t");
        char *c = strstr(s, g->comment);
        if (c)
            *c = 0;
        if (*s && *s != '.' && *s != '\n' && used < size) {
            s[strcspn(s, "\n")] = 0;
            for (char *t = s; *t; t++)
                if (*t == '\t')
                    *t = ' ';
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? "; " : "", s);
        }
    }
    pclose(p);
    if (!out[0])
        snprintf(out, size, "<nothing>");
    return out;
}

static void hex(FILE *f, const uint8_t *b, size_t n)
{
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%s%02x", k ? " " : "", b[k]);
}

static void report_mismatch(const golden_arch *g, const char *path, int lineno, const char *name, const char *ops,
                            const char *text, const uint8_t *got, size_t ngot, const uint8_t *want, size_t nwant,
                            const char *err)
{
    fprintf(stderr, "%s:%d: %s %s\n    text:    %s\n", path, lineno, name, ops, text);
    if (err) {
        fprintf(stderr, "    refused: %s\n", err);
        return;
    }
    fprintf(stderr, "    llvm-mc: ");
    hex(stderr, want, nwant);
    fprintf(stderr, "\n    encoder: ");
    hex(stderr, got, ngot);
    fprintf(stderr, "\n");
    /* the first unit (an AArch64 word, an x86 byte) that differs, and its differing bits */
    size_t k = 0;
    while (k < ngot && k < nwant && got[k] == want[k])
        k++;
    size_t u = k / g->unit * g->unit;
    if (u + g->unit <= ngot && u + g->unit <= nwant) {
        uint64_t a = 0, b = 0;
        for (size_t i = 0; i < g->unit; i++) {
            a |= (uint64_t)got[u + i] << (8 * i);
            b |= (uint64_t)want[u + i] << (8 * i);
        }
        fprintf(stderr, "    first differing unit (%zu bytes at byte %zu), its differing bits:", g->unit, u);
        for (int bit = (int)(8 * g->unit) - 1; bit >= 0; bit--)
            if (((a ^ b) >> bit) & 1)
                fprintf(stderr, " %d", bit);
        fprintf(stderr, "\n");
    } else {
        fprintf(stderr, "    lengths differ: llvm-mc %zu bytes, encoder %zu (equal up to byte %zu)\n", nwant, ngot, k);
    }
    if (golden_have_llvm_mc()) {
        char d1[256], d2[256];
        fprintf(stderr, "    encoder: %s\n    llvm-mc: %s\n", golden_disassemble(g, got, ngot, d1, sizeof d1),
                golden_disassemble(g, want, nwant, d2, sizeof d2));
    }
}

/* Split line at tabs in place (empty fields kept, unlike strtok). */
static int split_tabs(char *line, char **field, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        field[n++] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p++ = 0;
    }
    return n;
}

static golden_form *find_form(const golden_arch *g, const char *name, size_t *k)
{
    for (*k = 0; *k < g->nforms; (*k)++)
        if (strcmp(g->forms[*k].name, name) == 0)
            return &g->forms[*k];
    return NULL;
}

static void check_file(const golden_arch *g, const char *path)
{
    static uint8_t code[1 << 17];
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char line[1024];
    int lineno = 0, bad = 0, total = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\n")] = 0;
        char *field[4];
        if (split_tabs(line, field, 4) != 4) {
            fprintf(stderr, "%s:%d: malformed line\n", path, lineno);
            bad++;
            continue;
        }
        const char *name = field[0], *text = field[3];
        size_t k;
        golden_form *fm = find_form(g, name, &k);
        if (!fm) {
            fprintf(stderr, "%s:%d: unknown form '%s' (add it to the test's forms)\n", path, lineno, name);
            bad++;
            continue;
        }
        int64_t a[12];
        int n = 0;
        for (char *p = field[1], *e; n < 12; p = e) {
            long long v = strtoll(p, &e, 10);
            if (e == p)
                break;
            a[n++] = v;
        }
        uint8_t want[32];
        size_t nwant = g->encoding(field[2], want, sizeof want);
        if (n != fm->nargs || nwant == 0) {
            fprintf(stderr, "%s:%d: %s takes %d operands, line has %d (and %zu bytes)\n", path, lineno, name,
                    fm->nargs, n, nwant);
            bad++;
            continue;
        }
        const char *err = NULL;
        long ngot = g->encode(k, a, code, sizeof code, &err);
        fm->count++;
        total++;
        if (ngot < 0 || (size_t)ngot != nwant || memcmp(code, want, nwant) != 0) {
            if (bad < 20)
                report_mismatch(g, path, lineno, name, field[1], text, code, ngot < 0 ? 0 : (size_t)ngot, want,
                                nwant, ngot < 0 ? (err ? err : "refused") : NULL);
            bad++;
        }
    }
    fclose(f);
    fprintf(stderr, "%d goldens, %d mismatches\n", total, bad);
    assert_true(total > 0);
    assert_int_equal(bad, 0);
}

static void check_coverage(const golden_arch *g, const char *header, long min_cases)
{
    int bad = 0;
    for (size_t k = 0; k < g->nforms; k++) {
        long want = g->forms[k].nargs == 0 ? 1 : min_cases; /* no operands: one case says it all */
        if (g->forms[k].count < want) {
            fprintf(stderr, "form %s: %ld goldens, want at least %ld\n", g->forms[k].name, g->forms[k].count, want);
            bad++;
        }
    }
    FILE *f = fopen(header, "r");
    if (!f)
        fail_msg("cannot open %s", header);
    char line[512], decl[64], self[64];
    snprintf(decl, sizeof decl, "void %s", g->prefix);
    snprintf(self, sizeof self, "(%sasm *as", g->prefix);
    int encoders = 0;
    while (fgets(line, sizeof line, f)) {
        /* declarations "void PREFIXNAME(PREFIXasm *as, ..." */
        if (strncmp(line, decl, strlen(decl)) != 0 || !strstr(line, self))
            continue;
        char fn[64];
        size_t len = strcspn(line + 5, "(");
        if (len >= sizeof fn - 1)
            continue;
        memcpy(fn, line + 5, len);
        fn[len] = '(';
        fn[len + 1] = 0;
        bool skip = false;
        for (size_t p = 0; g->unexercised[p]; p++)
            skip |= strcmp(fn, g->unexercised[p]) == 0;
        if (skip)
            continue;
        encoders++;
        int found = 0;
        for (size_t k = 0; k < g->nforms && !found; k++)
            found = strstr(g->forms[k].call, fn) != NULL;
        if (!found) {
            fprintf(stderr, "encoder %s...) is declared in %s but no form exercises it\n", fn, header);
            bad++;
        }
    }
    fclose(f);
    fprintf(stderr, "%zu forms, %d encoders declared\n", g->nforms, encoders);
    if (g->one_each)
        assert_int_equal(encoders, (int)g->nforms);
    else
        assert_true(encoders >= (int)g->nforms - 1);
    assert_int_equal(bad, 0);
}

/* ---- the test's main ------------------------------------------------------ */

static const golden_arch *arch;
static const char *goldens_path, *header_path;
static long min_cases;

static void test_goldens(void **state)
{
    (void)state;
    check_file(arch, goldens_path);
}

/* Every form has goldens; every encoder in the header is called by a form. */
static void test_coverage(void **state)
{
    (void)state;
    check_coverage(arch, header_path, min_cases);
}

int golden_main(int argc, char **argv, const golden_arch *g, long default_min_cases, const struct CMUnitTest *own,
                size_t nown)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s GOLDENS HEADER [MIN_CASES_PER_FORM]\n", argv[0]);
        return 2;
    }
    arch = g;
    goldens_path = argv[1];
    header_path = argv[2];
    min_cases = argc > 3 ? atol(argv[3]) : default_min_cases;
    struct CMUnitTest tests[16] = {
        cmocka_unit_test(test_goldens),
        cmocka_unit_test(test_coverage),   /* after test_goldens: uses its counts */
    };
    const size_t n = 2 + nown;
    if (n > sizeof tests / sizeof tests[0]) {
        fprintf(stderr, "golden_main: %zu tests, room for %zu\n", n, sizeof tests / sizeof tests[0]);
        return 2;
    }
    memcpy(tests + 2, own, nown * sizeof *own);
    return _cmocka_run_group_tests("tests", tests, n, NULL, NULL);
}
