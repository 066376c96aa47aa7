/*
 * stubs/sha3_select.c — -XX:SHA3IntrinsicPolicy=measure (sha3_select.h): time
 * every SHA-3 variant the host runs, select the fastest, set the flags that
 * name it by ergonomics.
 */
#include "sha3_select.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codecache.h"
#include "flags.h"
#include "stubroutines.h"

enum { SELECT_BLOCK = 136, SELECT_CACHE = 64 * 1024 };

int sha3_select_decide(const sha3_trial *t, int n, int static_index, double noise)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (t[i].generated && (best < 0 || t[i].median < t[best].median))
            best = i;
    if (best < 0 || static_index < 0 || static_index >= n || !t[static_index].generated)
        return best;
    /* the static policy's choice stays unless the fastest leads it by more than the noise:
       the given floor, or the trials' own spread when the machine was noisier */
    double limit = noise;
    limit = t[static_index].spread > limit ? t[static_index].spread : limit;
    limit = t[best].spread > limit ? t[best].spread : limit;
    return t[static_index].median <= t[best].median * (1.0 + limit) ? static_index : best;
}

/* A user's flag: set on the command line, in MINIVM_TOOL_OPTIONS or a settings file. */
static bool user_set(flag_id id)
{
    flag_origin o = flag_get_origin(id);
    return o == FLAG_ORIGIN_COMMAND_LINE || o == FLAG_ORIGIN_ENVIRON || o == FLAG_ORIGIN_CONFIG_FILE;
}

/* One "-XX:..." token of a variant's options: its flag and the value text it sets
   ("true"/"false" for +Name/-Name). False when it names no flag of this table. */
static bool option_token(const char *tok, size_t len, flag_id *id, char *value, size_t vlen)
{
    if (len < 5 || strncmp(tok, "-XX:", 4) != 0)
        return false;
    tok += 4, len -= 4;
    const char *eq = memchr(tok, '=', len);
    if (tok[0] == '+' || tok[0] == '-') {
        *id = flag_find(tok + 1, len - 1, true);
        snprintf(value, vlen, "%s", tok[0] == '+' ? "true" : "false");
    } else if (eq) {
        *id = flag_find(tok, (size_t)(eq - tok), true);
        snprintf(value, vlen, "%.*s", (int)(len - (size_t)(eq - tok) - 1), eq + 1);
    } else {
        return false;
    }
    return *id != FLAG_COUNT && flag_exists(*id);
}

/* Calls f on each token of options; stops (false) when f does. */
static bool each_option(const char *options, bool (*f)(const char *tok, size_t len, void *ctx), void *ctx)
{
    for (const char *p = options; *p;) {
        p += strspn(p, " ");
        size_t len = strcspn(p, " ");
        if (len && !f(p, len, ctx))
            return false;
        p += len;
    }
    return true;
}

static bool agrees(const char *tok, size_t len, void *ctx)
{
    (void)ctx;
    flag_id id;
    char want[64], have[64];
    if (!option_token(tok, len, &id, want, sizeof want))
        return false; /* an option this table lacks: not a candidate */
    if (!user_set(id))
        return true;
    flag_value v;
    flag_value_load(id, &v);
    flag_format_value(&flag_descs[id], &v, have, sizeof have);
    return strcmp(have, want) == 0;
}

bool sha3_select_respects_user(const char *options)
{
    return each_option(options, agrees, NULL);
}

static bool apply(const char *tok, size_t len, void *ctx)
{
    (void)ctx;
    flag_id id;
    char value[64], arg[96];
    if (!option_token(tok, len, &id, value, sizeof value) || user_set(id) || id == FLAG_ID_UseSHA3Intrinsics)
        return true;
    snprintf(arg, sizeof arg, "%.*s", (int)(len - 4), tok + 4);
    flag_process_argument(arg, false, FLAG_ORIGIN_ERGONOMIC, stderr);
    return true;
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Generate the candidates' multi-block entries into one scratch cache and time them. */
static int measure(const stub_arch_ops *arch, sha3_trial *t, int n)
{
    codecache cc;
    char err[192];
    if (!codecache_init(&cc, SELECT_CACHE, err, sizeof err))
        return 0;
    const stub_mark *marks[SHA3_SELECT_MAX] = {NULL};
    for (int i = 0; i < n; i++)
        marks[i] = stubs_generate_one(arch, &cc, STUB_ID_sha3_implCompressMB, t[i].variant->name, err, sizeof err);
    if (!codecache_seal(&cc, true, err, sizeof err)) {
        codecache_release(&cc);
        return 0;
    }
    static const uint8_t blocks[SHA3_SELECT_BLOCKS * SELECT_BLOCK];
    int64_t state[25] = {0};
    int generated = 0;
    for (int k = -1; k < SHA3_SELECT_TRIALS; k++) { /* trial -1 warms the caches and the branch predictors */
        for (int i = 0; i < n; i++) {
            if (!marks[i])
                continue;
            /* ISO C has no object-to-function pointer conversion; POSIX (dlsym) guarantees it works */
            stub_sha3_implCompressMB_fn fn = (stub_sha3_implCompressMB_fn)(uintptr_t)marks[i]->entry;
            double t0 = now_ns();
            fn(blocks, state, SELECT_BLOCK, 0, (SHA3_SELECT_BLOCKS - 1) * SELECT_BLOCK);
            double dt = now_ns() - t0;
            if (k >= 0)
                t[i].ns[k] = dt / SHA3_SELECT_BLOCKS;
        }
    }
    for (int i = 0; i < n; i++) {
        t[i].generated = marks[i] != NULL;
        if (!t[i].generated)
            continue;
        double s[SHA3_SELECT_TRIALS];
        memcpy(s, t[i].ns, sizeof s);
        qsort(s, SHA3_SELECT_TRIALS, sizeof s[0], by_double);
        t[i].median = s[SHA3_SELECT_TRIALS / 2];
        t[i].spread = (s[SHA3_SELECT_TRIALS - 2] - s[1]) / t[i].median;
        generated++;
    }
    codecache_release(&cc);
    return generated;
}

const stub_variant *sha3_select_measure(const stub_arch_ops *arch, const cpu_info *cpu, const cpu_info *host,
                                        const char *static_variant, FILE *out)
{
    double t0 = now_ns();
    sha3_trial t[SHA3_SELECT_MAX];
    int n = 0, static_index = -1;
    /* what the CPU the flags describe allows them (an emulated one's limits hold as a real one's) and what
       the code's host executes */
    uint64_t runs = arch->usable_features(cpu) & host->features;
    for (size_t i = 0; i < arch->nvariants && n < SHA3_SELECT_MAX; i++) {
        const stub_variant *v = &arch->variants[i];
        if (v->family != STUB_FAMILY_SHA3 || (v->features & ~runs) || !sha3_select_respects_user(v->options))
            continue;
        memset(&t[n], 0, sizeof t[n]);
        t[n].variant = v;
        if (static_variant && strcmp(static_variant, v->name) == 0)
            static_index = n;
        n++;
    }
    int chosen = n > 0 && measure(arch, t, n) > 0 ? sha3_select_decide(t, n, static_index, SHA3_SELECT_NOISE) : -1;
    if (chosen >= 0)
        each_option(t[chosen].variant->options, apply, NULL);
    if (out) {
        const char *qemu = getenv("QEMU_CPU") || getenv("QEMU_LD_PREFIX") ? "; under QEMU: TCG's times" : "";
        fprintf(out, "SHA-3 stub selection (SHA3IntrinsicPolicy=measure): %d trials of %d %d-byte blocks each, "
                     "median ns per permutation%s\n", SHA3_SELECT_TRIALS, SHA3_SELECT_BLOCKS, SELECT_BLOCK, qemu);
        for (int i = 0; i < n; i++) {
            const char *why = i == chosen ? (i == static_index && chosen != sha3_select_decide(t, n, -1, 0)
                                                 ? "chosen (the static choice, within the noise of the fastest)"
                                                 : "chosen")
                              : i == static_index ? "the static policy's choice"
                                                  : "";
            if (t[i].generated)
                fprintf(out, "  %-14s %9.1f ns  +-%4.1f %%  %s\n", t[i].variant->name, t[i].median,
                        t[i].spread * 50.0, why);
            else
                fprintf(out, "  %-14s %9s     not generated\n", t[i].variant->name, "-");
        }
        if (n == 0)
            fprintf(out, "  (no variant that the flags allow on this CPU and the host runs agrees with the flags set: "
                         "the static choice stays)\n");
        fprintf(out, "  selection took %.0f us\n", (now_ns() - t0) / 1000.0);
    }
    return chosen >= 0 ? t[chosen].variant : NULL;
}
