/*
 * tests/test_hotspot.c — the differential suite (suite 'hotspot'): minivm against HotSpot 25.
 *
 * Every combination of tests/hotspot/combinations.txt for this architecture starts both VMs as
 *
 *     -XX:+UnlockDiagnosticVMOptions COMBINATION -XX:+PrintFlagsFinal -version
 *
 * minivm with the SHA-3 policy that reproduces HotSpot 25 in front (JDK26 on AArch64, JDK24 on
 * x86-64). Compared: the exit status, the PrintFlagsFinal line (type, value, kind, origin) of
 * every SHA flag HotSpot has on the architecture, and every other line either VM prints
 * (warnings, errors) with the VM's name left out ("OpenJDK 64-Bit Server VM warning:" and
 * "minivm 64-Bit VM warning:" both read "VM warning:"). The version banner is not compared.
 *
 * The HotSpot: natively, the live HotSpot 25 of scripts/oracle; under a QEMU model (the test
 * setups set MINIVM_QEMU_CPU, cross/README.md), HotSpot 25's answers recorded under the same
 * model, tests/hotspot/answers/ARCH-MODEL.txt (written by `sh scripts/test-hotspot --record`,
 * checked against a live run by `sh scripts/test-hotspot`).
 *
 * A difference fails unless the table of documented departures in docs/flags.md names it: its
 * CPU, its combination and what differs (status, output or the flag), and the row's minivm and
 * HotSpot 25 cells say how (each `fragment` there is in that VM's differing text, and each line
 * of output only one VM prints has one of its fragments). A departure the table names that no
 * longer shows on this CPU fails too. The last lines of the output:
 *
 *     hotspot: departures applied: ID N, ID -, ...   (the combinations each row took on this CPU;
 *                                                    -: the row does not name this CPU)
 *     hotspot: ARCH CPU: N of M combinations identical to HotSpot 25 (D documented departures)
 *
 * (scripts/lib.sh's mvm_hotspot_summary totals them over the CPUs, and fails when a row took no
 * combination on any CPU it names: its where-text or combination list matches nothing.)
 *
 *   test_hotspot --record ARCH   print HotSpot's answers for ARCH's combinations (the answers
 *                                file's text), HotSpot being the command in MINIVM_HOTSPOT
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpu.h"
#include "testutil.h"

#define MAX_COMBOS     128
#define MAX_OPTIONS    12
#define MAX_DEPARTURES 64
#define MAX_ITEMS      16

#if defined(__x86_64__)
#define HOST_ARCH "x86_64"
#elif defined(__aarch64__)
#define HOST_ARCH "aarch64"
#else
#define HOST_ARCH "other"
#endif

/* The SHA (and MD5) flags compared, per architecture: the ones HotSpot 25 declares there. */
static const char *const x86_64_flags[] = {"UseSHA",          "UseSHA1Intrinsics",   "UseSHA256Intrinsics",
                                           "UseSHA512Intrinsics", "UseSHA3Intrinsics", "UseMD5Intrinsics",
                                           "UseAVX", "UseBMI1Instructions", "UseBMI2Instructions", NULL};
static const char *const aarch64_flags[] = {"UseSHA",           "UseSHA1Intrinsics", "UseSHA256Intrinsics",
                                            "UseSHA512Intrinsics", "UseSHA3Intrinsics", "UseMD5Intrinsics",
                                            "UseSIMDForSHA3Intrinsic", NULL};

typedef struct combo {
    char arch[8];               /* "any", "x86_64" or "aarch64" */
    char *text;                 /* the options as written in the file; "(none)" */
    char *argv[MAX_OPTIONS];
    int argc;
    char *hotspot;              /* HotSpot's answer (canonical text), once known */
    int verdict;                /* 0 not run, 1 identical, 2 documented departure, 3 failed */
} combo;

typedef struct departure {
    char *id, *cpus, *combos, *items; /* the table's first four cells */
    char *minivm, *hotspot;           /* the next two: how each VM's side reads (its `fragments`) */
    int applied;                      /* combinations of this run the row took */
} departure;

typedef struct suite {
    const char *arch;  /* the architecture compared */
    const char *model; /* the QEMU model, or NULL: native, live */
    char cpu[96];      /* for messages: "native", "neoverse-v1" */
    char features[4096]; /* the CPU's features as minivm detects them: "sse, sse2, ..., sha" */
    combo combos[MAX_COMBOS];
    int ncombos;
    departure deps[MAX_DEPARTURES];
    int ndeps;
    char *flags_md;    /* docs/flags.md's text, which the departures point into */
} suite;

static suite S;

/* ---- small text helpers ------------------------------------------------------------------------ */

typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        if (!b->s)
            abort();
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap, copy;
    va_start(ap, fmt);
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0)
        abort();
    char *text = malloc((size_t)n + 1);
    if (!text)
        abort();
    vsnprintf(text, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_add(b, text, (size_t)n);
    free(text);
}

static char *dup_range(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        abort();
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* s without leading and trailing blanks and backticks, in place */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '`')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '`' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* s without leading and trailing blanks only (a cell whose `fragments` keep their backticks) */
static char *trim_blanks(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Is word one of sep-separated list's entries (each trimmed of blanks and backticks)? */
static bool list_has(const char *list, const char *sep, const char *word)
{
    char *copy = dup_range(list, strlen(list));
    bool found = false;
    for (char *p = copy; p && !found;) {
        char *next = strstr(p, sep);
        if (next) {
            *next = '\0';
            next += strlen(sep);
        }
        found = strcmp(trim(p), word) == 0;
        p = next;
    }
    free(copy);
    return found;
}

/* ---- the combinations -------------------------------------------------------------------------- */

static bool combo_applies(const combo *c, const char *arch)
{
    return strcmp(c->arch, "any") == 0 || strcmp(c->arch, arch) == 0;
}

/* tests/hotspot/combinations.txt: "ARCH OPTIONS..." per line, "(none)" for no option. */
static const char *load_combinations(suite *s)
{
    static char why[256];
    const char *path = tu_source_path("tests/hotspot/combinations.txt");
    char *text = tu_read_file(path, NULL);
    if (!text) {
        snprintf(why, sizeof why, "cannot read %s", path);
        return why;
    }
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        line = trim(line);
        if (!*line || *line == '#')
            continue;
        if (s->ncombos == MAX_COMBOS)
            return "more than MAX_COMBOS combinations";
        combo *c = &s->combos[s->ncombos++];
        size_t a = strcspn(line, " \t");
        if (a == 0 || a >= sizeof c->arch) {
            snprintf(why, sizeof why, "%s: bad line '%s'", path, line);
            return why;
        }
        memcpy(c->arch, line, a);
        c->arch[a] = '\0';
        c->text = dup_range(line + a, strlen(line + a));
        c->text = trim(c->text);
        if (strcmp(c->arch, "any") && strcmp(c->arch, "x86_64") && strcmp(c->arch, "aarch64")) {
            snprintf(why, sizeof why, "%s: unknown architecture '%s'", path, c->arch);
            return why;
        }
        if (strcmp(c->text, "(none)") != 0) {
            char *copy = dup_range(c->text, strlen(c->text));
            for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
                if (c->argc == MAX_OPTIONS)
                    return "a combination with more than MAX_OPTIONS options";
                c->argv[c->argc++] = w;
            }
        }
        for (int i = 0; i + 1 < s->ncombos; i++)
            if (strcmp(s->combos[i].arch, c->arch) == 0 && strcmp(s->combos[i].text, c->text) == 0) {
                snprintf(why, sizeof why, "%s: '%s' twice", path, c->text);
                return why;
            }
    }
    free(text); /* the combinations keep copies */
    return NULL;
}

/* ---- the canonical answer ---------------------------------------------------------------------- */

static const char *const *compared_flags(const char *arch)
{
    return strcmp(arch, "aarch64") == 0 ? aarch64_flags : x86_64_flags;
}

/* The flag a PrintFlagsFinal line shows ("     bool UseSHA    = true   {product} {default}"),
   into name; false for any other line. */
static bool flag_line(const char *line, char *name, size_t len)
{
    static const char *const types[] = {"bool",  "int",      "intx",  "uint",   "uintx", "uint64_t",
                                        "size_t", "double", "ccstr", "ccstrlist", NULL};
    while (*line == ' ')
        line++;
    size_t t = strcspn(line, " ");
    bool typed = false;
    for (int i = 0; types[i] && !typed; i++)
        typed = strlen(types[i]) == t && strncmp(line, types[i], t) == 0;
    if (!typed)
        return false;
    line += t;
    while (*line == ' ')
        line++;
    size_t n = strcspn(line, " ");
    const char *rest = line + n;
    while (*rest == ' ')
        rest++;
    if (n == 0 || n >= len || *rest != '=')
        return false;
    memcpy(name, line, n);
    name[n] = '\0';
    return true;
}

/* One line of output, the VM's name left out. */
static void add_output_line(sbuf *b, const char *stream, const char *line)
{
    static const char *const names[][2] = {
        {"OpenJDK 64-Bit Server VM warning: ", "VM warning: "},
        {"minivm 64-Bit VM warning: ", "VM warning: "},
        {"Error: Could not create the Java Virtual Machine.", "Error: Could not create the VM."},
        {"Error: Could not create the minivm.", "Error: Could not create the VM."},
    };
    sb_puts(b, stream);
    sb_puts(b, " ");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (starts_with(line, names[i][0])) {
            sb_puts(b, names[i][1]);
            line += strlen(names[i][0]);
            break;
        }
    sb_puts(b, line);
    sb_puts(b, "\n");
}

/* -version's three lines (a vendor's JDK says "OpenJDK 64-Bit Server VM Temurin-25... (build"),
   and PrintFlagsFinal's heading */
static bool banner_line(const char *line)
{
    static const char *const banners[] = {"openjdk version ", "OpenJDK Runtime Environment ", "minivm version ",
                                          "minivm Runtime Environment ", "minivm 64-Bit VM (build ", NULL};
    for (int i = 0; banners[i]; i++)
        if (starts_with(line, banners[i]))
            return true;
    if (starts_with(line, "OpenJDK 64-Bit Server VM ") && strstr(line, "(build ") && !strstr(line, "warning:"))
        return true;
    return strcmp(line, "[Global flags]") == 0;
}

/* What is compared of one run, as text: "status N", then "flag LINE" for each compared SHA flag
   (blanks squeezed), then "out LINE" / "err LINE" for the rest of stdout / stderr. */
static char *canonical(const char *arch, int status, const char *out, const char *err)
{
    sbuf b = {0};
    char num[32];
    snprintf(num, sizeof num, "status %d\n", status);
    sb_puts(&b, num);
    const char *const *flags = compared_flags(arch);
    sbuf rest = {0};
    sb_add(&rest, "", 0);
    for (int k = 0; k < 2; k++) {
        const char *text = k == 0 ? out : err;
        for (const char *p = text; p && *p;) {
            size_t n = strcspn(p, "\n");
            char *line = dup_range(p, n);
            p += n + (p[n] == '\n');
            char name[128];
            if (k == 0 && flag_line(line, name, sizeof name)) {
                for (int i = 0; flags[i]; i++)
                    if (strcmp(flags[i], name) == 0) {
                        sb_puts(&b, "flag");
                        for (char *save = NULL, *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
                            sb_puts(&b, " ");
                            sb_puts(&b, w);
                        }
                        sb_puts(&b, "\n");
                    }
            } else if (*line && !banner_line(line)) {
                add_output_line(&rest, k == 0 ? "out" : "err", line);
            }
            free(line);
        }
    }
    sb_puts(&b, rest.s);
    free(rest.s);
    return b.s;
}

/* The value of item ("status", a flag's name, "output") in a canonical answer (malloc'ed;
   "" when the answer has no such item, e.g. no flag listing after a failed start). */
static char *item_value(const char *answer, const char *item)
{
    sbuf b = {0};
    sb_add(&b, "", 0);
    for (const char *p = answer; *p;) {
        size_t n = strcspn(p, "\n");
        char *line = dup_range(p, n);
        p += n + (p[n] == '\n');
        char name[128];
        if (strcmp(item, "status") == 0 && starts_with(line, "status ")) {
            sb_puts(&b, line);
        } else if (strcmp(item, "output") == 0 && (starts_with(line, "out ") || starts_with(line, "err "))) {
            sb_puts(&b, line);
            sb_puts(&b, "\n");
        } else if (starts_with(line, "flag ") && flag_line(line + 5, name, sizeof name) &&
                   strcmp(name, item) == 0) {
            sb_puts(&b, line);
        }
        free(line);
    }
    return b.s;
}

/* The items on which two answers differ, into items (at most MAX_ITEMS); their number. */
static int differences(const char *arch, const char *a, const char *b, const char *items[MAX_ITEMS])
{
    static const char *const fixed[] = {"status", "output"};
    int n = 0;
    const char *const *flags = compared_flags(arch);
    for (int i = 0; i < 2 + MAX_ITEMS && n < MAX_ITEMS; i++) {
        const char *item = i < 2 ? fixed[i] : flags[i - 2];
        if (!item)
            break;
        char *va = item_value(a, item), *vb = item_value(b, item);
        if (strcmp(va, vb) != 0)
            items[n++] = item;
        free(va);
        free(vb);
    }
    return n;
}

/* ---- running the two VMs ----------------------------------------------------------------------- */

static const char *policy_option(const char *arch)
{
    return strcmp(arch, "aarch64") == 0 ? "-XX:SHA3IntrinsicPolicy=JDK26" : "-XX:SHA3IntrinsicPolicy=JDK24";
}

static char *run_minivm(const suite *s, const combo *c)
{
    const char *argv[MAX_OPTIONS + 5];
    int n = 0;
    argv[n++] = "-XX:+UnlockDiagnosticVMOptions";
    argv[n++] = policy_option(s->arch);
    for (int i = 0; i < c->argc; i++)
        argv[n++] = c->argv[i];
    argv[n++] = "-XX:+PrintFlagsFinal";
    argv[n++] = "-version";
    argv[n] = NULL;
    tu_result r = tu_run(argv, NULL, 120);
    char *answer = canonical(s->arch, r.status, r.out, r.err);
    tu_result_free(&r);
    return answer;
}

/* HotSpot through a command (its words, then the options): "sh SRC/scripts/oracle java". */
static tu_result run_hotspot_command(const char *const *command, const combo *c, bool flags)
{
    const char *args[16 + MAX_OPTIONS + 4];
    int n = 0;
    for (int i = 0; command[i] && n < 16; i++)
        args[n++] = command[i];
    if (flags) {
        args[n++] = "-XX:+UnlockDiagnosticVMOptions";
        for (int i = 0; c && i < c->argc; i++)
            args[n++] = c->argv[i];
        args[n++] = "-XX:+PrintFlagsFinal";
    }
    args[n++] = "-version";
    args[n] = NULL;
    return tu_run_command(args, NULL, 600);
}

/* The native HotSpot: scripts/oracle's (its own JAVA_HOME stand-in included). */
static const char *const *native_hotspot_command(void)
{
    static char oracle[4096];
    static const char *cmd[4];
    snprintf(oracle, sizeof oracle, "%s", tu_source_path("scripts/oracle"));
    cmd[0] = "sh", cmd[1] = oracle, cmd[2] = "java", cmd[3] = NULL;
    return cmd;
}

/* MINIVM_HOTSPOT's words (the record mode's command; no word has a blank: paths relative to
   the checkout, which scripts/test-hotspot runs from), NULL-terminated. */
static const char *const *words_of(const char *text)
{
    static char buf[4096];
    static const char *w[17];
    snprintf(buf, sizeof buf, "%s", text);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && n < 16; t = strtok_r(NULL, " ", &save))
        w[n++] = t;
    w[n] = NULL;
    return w;
}

/* Is this -version's first line HotSpot 25 or later? */
static bool hotspot_25(const char *err)
{
    const char *v = strstr(err, " version \"");
    return v && atoi(v + 10) >= 25;
}

/* ---- the recorded answers ---------------------------------------------------------------------- */

/* tests/hotspot/answers/ARCH-MODEL.txt: "== COMBINATION" then its canonical answer, per
   combination; '#' lines are comments. */
static const char *load_answers(suite *s)
{
    static char why[512];
    char rel[256];
    snprintf(rel, sizeof rel, "tests/hotspot/answers/%s-%s.txt", s->arch, s->model);
    const char *path = tu_source_path(rel);
    char *text = tu_read_file(path, NULL);
    if (!text) {
        snprintf(why, sizeof why, "no recorded answers for %s %s: %s is missing (sh scripts/test-hotspot --record)",
                 s->arch, s->model, rel);
        return why;
    }
    combo *cur = NULL;
    sbuf b = {0};
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (*line == '#' || !*line)
            continue;
        if (!starts_with(line, "== ")) {
            if (!cur) {
                snprintf(why, sizeof why, "%s: '%s' before the first '== COMBINATION' line", rel, line);
                return why;
            }
            sb_puts(&b, line);
            sb_puts(&b, "\n");
            continue;
        }
        if (cur)
            cur->hotspot = b.s;
        cur = NULL;
        b = (sbuf){0};
        for (int i = 0; i < s->ncombos && !cur; i++)
            if (combo_applies(&s->combos[i], s->arch) && strcmp(s->combos[i].text, line + 3) == 0)
                cur = &s->combos[i];
        if (!cur) {
            snprintf(why, sizeof why,
                     "%s: '%s' is not a combination of tests/hotspot/combinations.txt (sh scripts/test-hotspot "
                     "--record)",
                     rel, line + 3);
            return why;
        }
    }
    if (cur)
        cur->hotspot = b.s;
    free(text);
    return NULL;
}

/* ---- the documented departures ----------------------------------------------------------------- */

#define DEPARTURES_HEADING "### Documented departures from HotSpot 25"

/* docs/flags.md's table: | `id` | CPUs | combinations | differs in | minivm | HotSpot 25 | why | */
static const char *load_departures(suite *s)
{
    static char why[256];
    char *text = tu_read_file(tu_source_path("docs/flags.md"), NULL);
    if (!text)
        return "cannot read docs/flags.md";
    s->flags_md = text;
    char *p = strstr(text, DEPARTURES_HEADING "\n");
    if (!p)
        return "docs/flags.md has no '" DEPARTURES_HEADING "' section";
    p = strchr(p, '\n') + 1;
    for (char *line = p, *next; line && *line != '#'; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        if (!starts_with(line, "| `"))
            continue;
        if (s->ndeps == MAX_DEPARTURES)
            return "more than MAX_DEPARTURES departures";
        char *cells[8] = {0};
        int n = 0;
        for (char *q = line + 1; n < 8 && q && *q;) {
            char *bar = strstr(q, " |");
            if (!bar)
                break;
            *bar = '\0';
            cells[n] = n < 4 ? trim(q) : trim_blanks(q);
            n++;
            q = bar + 2;
        }
        if (n < 7) {
            snprintf(why, sizeof why, "docs/flags.md: a departure row with %d cells, not 7", n);
            return why;
        }
        departure *d = &s->deps[s->ndeps++];
        d->id = cells[0];
        d->cpus = cells[1];
        d->combos = cells[2];
        d->items = cells[3];
        d->minivm = cells[4];
        d->hotspot = cells[5];
    }
    return NULL;
}

/* Does one entry of a departure's CPU cell name this run's CPU? "every CPU", "native", a QEMU
   model's name, or an architecture ("x86-64", "AArch64") with "with F..." and "without F..."
   (features as minivm detects them: -XX:+PrintCPUFeatures). */
static bool cpu_entry(const suite *s, char *entry)
{
    entry = trim(entry);
    if (strcmp(entry, "every CPU") == 0)
        return true;
    if (strcmp(entry, s->model ? s->model : "native") == 0)
        return true;
    const char *arch_name = strcmp(s->arch, "aarch64") == 0 ? "AArch64" : "x86-64";
    size_t n = strlen(arch_name);
    if (strncmp(entry, arch_name, n) != 0 || (entry[n] != '\0' && entry[n] != ' '))
        return false;
    bool with = true;
    for (char *save = NULL, *w = strtok_r(entry + n, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        if (strcmp(w, "with") == 0 || strcmp(w, "without") == 0) {
            with = strcmp(w, "with") == 0;
            continue;
        }
        if (list_has(s->features, ",", w) != with)
            return false;
    }
    return true;
}

static bool departure_cpu(const suite *s, const departure *d)
{
    char *copy = dup_range(d->cpus, strlen(d->cpus));
    bool hit = false;
    for (char *save = NULL, *e = strtok_r(copy, ",", &save); e && !hit; e = strtok_r(NULL, ",", &save))
        hit = cpu_entry(s, e);
    free(copy);
    return hit;
}

#define WHERE "where HotSpot 25 has "

/* Does departure d's combinations cell take in c? "every combination", combinations
   (`OPTIONS`, <br>-separated), or "where HotSpot 25 has `TEXT`" (and `TEXT`...): each TEXT in
   HotSpot's answer for c, e.g. `UseSHA256Intrinsics = true`. */
static bool departure_combo(const departure *d, const combo *c)
{
    if (!starts_with(d->combos, WHERE))
        return list_has(d->combos, "<br>", "every combination") || list_has(d->combos, "<br>", c->text);
    if (!c->hotspot)
        return false;
    bool all = true;
    char *copy = dup_range(d->combos + strlen(WHERE), strlen(d->combos + strlen(WHERE)));
    for (char *p = copy; p && all;) {
        char *next = strstr(p, " and ");
        if (next) {
            *next = '\0';
            next += 5;
        }
        all = strstr(c->hotspot, trim(p)) != NULL;
        p = next;
    }
    free(copy);
    return all;
}

static bool is_flag(const char *arch, const char *item)
{
    for (const char *const *f = compared_flags(arch); *f; f++)
        if (strcmp(*f, item) == 0)
            return true;
    return false;
}

/* "status", "output", a flag's name, or "every flag" (each SHA flag compared on the architecture) */
static bool departure_item(const suite *s, const departure *d, const char *item)
{
    return list_has(d->items, ",", item) || (is_flag(s->arch, item) && list_has(d->items, ",", "every flag"));
}

/* The `fragments` of a cell, into out (at most max); their number. Each is a copy. */
static int fragments(const char *cell, char *out[], int max)
{
    int n = 0;
    for (const char *p = strchr(cell, '`'); p && n < max;) {
        const char *end = strchr(p + 1, '`');
        if (!end)
            break;
        out[n++] = dup_range(p + 1, (size_t)(end - p - 1));
        p = strchr(end + 1, '`');
    }
    return n;
}

/* The output lines ("out ..."/"err ...") of answer a that b does not have (as many times as a has
   them beyond b), one a line (malloc'ed). */
static char *extra_lines(const char *a, const char *b)
{
    sbuf out = {0};
    sb_add(&out, "", 0);
    char *rest = dup_range(b, strlen(b));
    for (const char *p = a; *p;) {
        size_t n = strcspn(p, "\n");
        char *line = dup_range(p, n);
        p += n + (p[n] == '\n');
        if (starts_with(line, "out ") || starts_with(line, "err ")) {
            size_t len = strlen(line);
            char *at = NULL;
            for (char *q = rest; !at && (q = strstr(q, line)); q++)
                if ((q == rest || q[-1] == '\n') && (q[len] == '\n' || q[len] == '\0'))
                    at = q;
            if (at) {
                memset(at, '#', len); /* taken */
            } else {
                sb_puts(&out, line);
                sb_puts(&out, "\n");
            }
        }
        free(line);
    }
    free(rest);
    return out.s;
}

/* Does departure d's side (its minivm or HotSpot 25 cell) describe that VM here? Each fragment is
   in the VM's values of d's items, and, when d covers output, each line only this VM prints has a
   fragment (none: the VM prints nothing the other does not). Why not, into why. */
static bool side_matches(const suite *s, const departure *d, const char *cell, const char *name, const char *answer,
                         const char *other, sbuf *why)
{
    char *frag[16];
    int nf = fragments(cell, frag, 16);
    sbuf text = {0};
    sb_add(&text, "", 0);
    const char *const *flags = compared_flags(s->arch);
    for (int j = -2; j < 0 || flags[j]; j++) {
        const char *item = j == -2 ? "status" : j == -1 ? "output" : flags[j];
        if (departure_item(s, d, item)) {
            char *v = item_value(answer, item);
            sb_puts(&text, v);
            sb_puts(&text, "\n");
            free(v);
        }
    }
    bool ok = true;
    for (int f = 0; f < nf; f++)
        if (!strstr(text.s, frag[f])) {
            ok = false;
            sb_printf(why, "  departure %s: %s has no `%s` here\n", d->id, name, frag[f]);
        }
    if (departure_item(s, d, "output")) {
        char *extra = extra_lines(answer, other);
        for (const char *p = extra; *p;) {
            size_t n = strcspn(p, "\n");
            char *line = dup_range(p, n);
            p += n + (p[n] == '\n');
            bool described = false;
            for (int f = 0; f < nf && !described; f++)
                described = strstr(line, frag[f]) != NULL;
            if (!described) {
                ok = false;
                sb_printf(why, "  departure %s: only %s prints '%s', which its cell does not name\n", d->id, name,
                          line);
            }
            free(line);
        }
        free(extra);
    }
    for (int f = 0; f < nf; f++)
        free(frag[f]);
    free(text.s);
    return ok;
}

/* ---- the tests --------------------------------------------------------------------------------- */

/* Is name a QEMU model of cross/qemu-aarch64-models.txt or cross/qemu-x86_64-models.txt (the
   model: the -cpu value's first part)? */
static bool known_model(const char *name)
{
    static const char *const files[] = {"cross/qemu-aarch64-models.txt", "cross/qemu-x86_64-models.txt"};
    bool found = false;
    for (int f = 0; f < 2 && !found; f++) {
        char *text = tu_read_file(tu_source_path(files[f]), NULL);
        for (char *line = text, *next; line && *line && !found; line = next) {
            next = strchr(line, '\n');
            if (next)
                *next++ = '\0';
            if (*line == '#')
                continue;
            char *value = strchr(line, ' ');
            if (value) {
                value++;
                size_t n = strcspn(value, ",");
                found = strlen(name) == n && strncmp(value, name, n) == 0;
            }
        }
        free(text);
    }
    return found;
}

/* Every combination, CPU, feature, flag and item a departure names exists (a typo would hide a
   difference, or leave a row that applies nowhere). */
static void departures_name_what_exists(void **state)
{
    (void)state;
    for (int i = 0; i < S.ndeps; i++) {
        const departure *d = &S.deps[i];
        char *copy = dup_range(d->combos, strlen(d->combos));
        for (char *p = starts_with(copy, WHERE) ? NULL : copy; p;) {
            char *next = strstr(p, "<br>");
            if (next) {
                *next = '\0';
                next += 4;
            }
            char *want = trim(p);
            bool known = strcmp(want, "every combination") == 0;
            for (int k = 0; k < S.ncombos && !known; k++)
                known = strcmp(S.combos[k].text, want) == 0;
            if (!known)
                fail_msg("departure %s names '%s', not a combination of tests/hotspot/combinations.txt", d->id,
                         want);
            p = next;
        }
        free(copy);
        /* a where-text starts with a compared flag's name */
        if (starts_with(d->combos, WHERE)) {
            copy = dup_range(d->combos + strlen(WHERE), strlen(d->combos + strlen(WHERE)));
            for (char *p = copy; p;) {
                char *next = strstr(p, " and ");
                if (next) {
                    *next = '\0';
                    next += 5;
                }
                char *text = trim(p), name[128];
                snprintf(name, sizeof name, "%.*s", (int)strcspn(text, " "), text);
                if (!is_flag("x86_64", name) && !is_flag("aarch64", name))
                    fail_msg("departure %s: 'where HotSpot 25 has `%s`' names no compared flag", d->id, text);
                p = next;
            }
            free(copy);
        }
        /* each CPU entry: every CPU, native, a QEMU model of cross/, or an architecture with
           features minivm knows */
        copy = dup_range(d->cpus, strlen(d->cpus));
        for (char *save = NULL, *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save)) {
            char *entry = trim(e);
            if (strcmp(entry, "every CPU") == 0 || strcmp(entry, "native") == 0 || known_model(entry))
                continue;
            cpu_arch arch = starts_with(entry, "x86-64") ? CPU_ARCH_X86_64
                            : starts_with(entry, "AArch64") ? CPU_ARCH_AARCH64 : CPU_ARCH_UNKNOWN;
            const char *rest = entry + (arch == CPU_ARCH_X86_64 ? 6 : arch == CPU_ARCH_AARCH64 ? 7 : 0);
            if (arch == CPU_ARCH_UNKNOWN || (*rest && *rest != ' '))
                fail_msg("departure %s: CPU '%s' is no architecture, QEMU model (cross/qemu-*-models.txt), "
                         "native or every CPU", d->id, entry);
            char words[256];
            snprintf(words, sizeof words, "%s", rest);
            for (char *s2 = NULL, *w = strtok_r(words, " ", &s2); w; w = strtok_r(NULL, " ", &s2))
                if (strcmp(w, "with") && strcmp(w, "without") && cpu_feature_lookup(arch, w) < 0)
                    fail_msg("departure %s: '%s' is not a %s feature minivm knows", d->id, w, cpu_arch_name(arch));
        }
        free(copy);
        copy = dup_range(d->items, strlen(d->items));
        for (char *save = NULL, *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
            char *item = trim(w);
            bool known = strcmp(item, "status") == 0 || strcmp(item, "output") == 0 || strcmp(item, "every flag") == 0;
            for (int a = 0; a < 2 && !known; a++)
                for (const char *const *f = a ? aarch64_flags : x86_64_flags; *f && !known; f++)
                    known = strcmp(*f, item) == 0;
            if (!known)
                fail_msg("departure %s: '%s' is not something compared (status, output, a SHA flag, every flag)", d->id,
                         item);
        }
        free(copy);
    }
}

static void compare_one(void **state)
{
    combo *c = *state;
    if (!c->hotspot) {
        c->verdict = 3;
        fail_msg("no recorded HotSpot answer for '%s' on %s %s (sh scripts/test-hotspot --record)", c->text, S.arch,
                 S.cpu);
    }
    char *mine = run_minivm(&S, c);
    const char *items[MAX_ITEMS];
    int n = differences(S.arch, c->hotspot, mine, items);
    bool ok = true, departed = false;
    sbuf why = {0};
    sb_add(&why, "", 0);
    for (int i = 0; i < n; i++) {
        const departure *hit = NULL;
        for (int k = 0; k < S.ndeps && !hit; k++)
            if (departure_cpu(&S, &S.deps[k]) && departure_combo(&S.deps[k], c) &&
                departure_item(&S, &S.deps[k], items[i]))
                hit = &S.deps[k];
        if (hit) {
            departed = true;
            continue;
        }
        ok = false;
        sb_printf(&why, "  differs in %s (no documented departure in docs/flags.md names it)\n", items[i]);
    }
    for (int k = 0; k < S.ndeps; k++) {
        departure *d = &S.deps[k];
        if (!departure_cpu(&S, d) || !departure_combo(d, c))
            continue;
        d->applied++;
        /* each side as its cell says */
        if (!side_matches(&S, d, d->minivm, "minivm", mine, c->hotspot, &why) ||
            !side_matches(&S, d, d->hotspot, "HotSpot 25", c->hotspot, mine, &why))
            ok = false;
        /* each item the row names must differ here: status, output, then the flags */
        const char *const *flags = compared_flags(S.arch);
        for (int j = -2; j < 0 || flags[j]; j++) {
            const char *item = j == -2 ? "status" : j == -1 ? "output" : flags[j];
            if (!departure_item(&S, d, item))
                continue;
            bool differs = false;
            for (int i = 0; i < n; i++)
                differs = differs || strcmp(items[i], item) == 0;
            if (!differs) {
                ok = false;
                sb_printf(&why, "  departure %s documents a difference in %s, but minivm and HotSpot 25 agree on it "
                          "now\n", d->id, item);
            }
        }
    }
    c->verdict = !ok ? 3 : departed ? 2 : 1;
    if (!ok) {
        /* not print_message: its buffer is 1 KiB */
        fprintf(stderr, "'%s' on %s %s:\n%s  HotSpot 25:\n%s  minivm:\n%s", c->text, S.arch, S.cpu, why.s,
                c->hotspot, mine);
        free(why.s);
        free(mine);
        fail_msg("minivm and HotSpot 25 differ on '%s' (%s %s)", c->text, S.arch, S.cpu);
    }
    free(why.s);
    free(mine);
}

/* The CPU's features as minivm detects them (its -XX:+PrintCPUFeatures line), for the
   departures' "with" and "without". */
static const char *detect_features(suite *s)
{
    static char why[4096];
    const char *argv[] = {"-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintCPUFeatures", "-version", NULL};
    tu_result r = tu_run(argv, NULL, 120);
    const char *line = strstr(r.out, "CPU: total ");
    if (!line)
        line = strstr(r.err, "CPU: total ");
    if (r.status != 0 || !line) {
        snprintf(why, sizeof why, "minivm -XX:+PrintCPUFeatures -version: status %d, no CPU line:\n%.2000s%.1000s",
                 r.status, r.out, r.err);
        tu_result_free(&r);
        return why;
    }
    size_t n = strcspn(line, "\n");
    snprintf(s->features, sizeof s->features, "%.*s", (int)n, line);
    tu_result_free(&r);
    return NULL;
}

/* Natively: ask the live HotSpot 25 (the project's, scripts/oracle) every combination first. */
static const char *ask_live_hotspot(suite *s)
{
    static char why[8192];
    const char *const *cmd = native_hotspot_command();
    tu_result v = run_hotspot_command(cmd, NULL, false);
    if (v.status != 0 || !hotspot_25(v.err)) {
        snprintf(why, sizeof why,
                 "the native HotSpot 25 did not start (`sh %s java -version`: status %d):\n%.600s\n"
                 "  set it up with `sh scripts/oracle setup` (sh scripts/test does)",
                 cmd[1], v.status, v.err);
        tu_result_free(&v);
        return why;
    }
    tu_result_free(&v);
    for (int i = 0; i < s->ncombos; i++) {
        combo *c = &s->combos[i];
        if (!combo_applies(c, s->arch))
            continue;
        tu_result r = run_hotspot_command(cmd, c, true);
        c->hotspot = canonical(s->arch, r.status, r.out, r.err);
        tu_result_free(&r);
    }
    return NULL;
}

static void setup_failed(void **state)
{
    fail_msg("%s", (const char *)*state);
}

/* --record ARCH: HotSpot's answers for ARCH's combinations, on stdout. */
static int record(const char *arch)
{
    const char *text = getenv("MINIVM_HOTSPOT");
    if (!text || !*text) {
        fprintf(stderr, "test_hotspot --record: set MINIVM_HOTSPOT to the HotSpot command\n");
        return 2;
    }
    const char *const *cmd = words_of(text);
    S.arch = arch;
    const char *why = load_combinations(&S);
    if (why) {
        fprintf(stderr, "test_hotspot --record: %s\n", why);
        return 2;
    }
    tu_result v = run_hotspot_command(cmd, NULL, false);
    if (v.status != 0 || !hotspot_25(v.err)) {
        fprintf(stderr, "test_hotspot --record: `%s -version` did not start HotSpot 25 (status %d):\n%s", text,
                v.status, v.err);
        return 1;
    }
    printf("# HotSpot 25's answers for tests/test_hotspot.c, written by sh scripts/test-hotspot --record\n");
    for (const char *p = v.err; *p;) {
        size_t n = strcspn(p, "\n");
        printf("# %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
    if (getenv("MINIVM_HOTSPOT_NOTE"))
        printf("# %s\n", getenv("MINIVM_HOTSPOT_NOTE"));
    tu_result_free(&v);
    for (int i = 0; i < S.ncombos; i++) {
        const combo *c = &S.combos[i];
        if (!combo_applies(c, arch))
            continue;
        tu_result r = run_hotspot_command(cmd, c, true);
        char *answer = canonical(arch, r.status, r.out, r.err);
        printf("== %s\n%s", c->text, answer);
        free(answer);
        tu_result_free(&r);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--record") == 0)
        return record(argv[2]);
    S.arch = HOST_ARCH;
    const char *model = getenv("MINIVM_QEMU_CPU");
    if ((!model || !*model) && getenv("MINIVM_WRAPPER") && *getenv("MINIVM_WRAPPER"))
        model = getenv("QEMU_CPU") && *getenv("QEMU_CPU") ? getenv("QEMU_CPU") : "max"; /* qemu-aarch64's default */
    S.model = model && *model ? model : NULL;
    snprintf(S.cpu, sizeof S.cpu, "%s", S.model ? S.model : "native");

    const char *why = strcmp(S.arch, "other") == 0 ? "HotSpot 25's SHA flags are compared on x86-64 and AArch64 only"
                                                    : load_combinations(&S);
    if (!why)
        why = load_departures(&S);
    if (!why)
        why = detect_features(&S);
    if (!why)
        why = S.model ? load_answers(&S) : ask_live_hotspot(&S);
    if (why) {
        const struct CMUnitTest failed[] = {{"hotspot setup", setup_failed, NULL, NULL, (void *)why}};
        return _cmocka_run_group_tests("hotspot", failed, 1, NULL, NULL) ? 1 : 0;
    }

    static struct CMUnitTest tests[MAX_COMBOS + 1];
    static char names[MAX_COMBOS][160];
    int n = 0;
    tests[n++] = (struct CMUnitTest){"departures name what exists", departures_name_what_exists, NULL, NULL, NULL};
    for (int i = 0; i < S.ncombos; i++) {
        if (!combo_applies(&S.combos[i], S.arch))
            continue;
        snprintf(names[n - 1], sizeof names[n - 1], "%s %s: %s", S.arch, S.cpu, S.combos[i].text);
        tests[n] = (struct CMUnitTest){names[n - 1], compare_one, NULL, NULL, &S.combos[i]};
        n++;
    }
    int failed = _cmocka_run_group_tests("hotspot", tests, (size_t)n, NULL, NULL);

    int total = 0, same = 0, departed = 0;
    for (int i = 0; i < S.ncombos; i++) {
        if (!combo_applies(&S.combos[i], S.arch))
            continue;
        total++;
        same += S.combos[i].verdict == 1;
        departed += S.combos[i].verdict == 2;
    }
    printf("hotspot: departures applied:");
    for (int k = 0; k < S.ndeps; k++) {
        if (departure_cpu(&S, &S.deps[k]))
            printf(" %s %d%s", S.deps[k].id, S.deps[k].applied, k + 1 < S.ndeps ? "," : "");
        else /* not one of the row's CPUs */
            printf(" %s -%s", S.deps[k].id, k + 1 < S.ndeps ? "," : "");
    }
    printf("\n");
    printf("hotspot: %s %s: %d of %d combinations identical to HotSpot 25 (%d documented departures)\n", S.arch, S.cpu,
           same, total, departed);
    return failed ? 1 : 0;
}
