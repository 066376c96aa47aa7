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

/* Does setting s hold in the flags? (stub_variant_selected, for one setting) */
static bool holds(const stub_setting *s)
{
    stub_variant one = {.nsettings = 1};
    one.settings[0] = *s;
    return stub_variant_selected(&one);
}

bool sha3_select_respects_user(const stub_variant *v)
{
    for (int i = 0; i < v->nsettings; i++) {
        flag_id id = (flag_id)v->settings[i].flag;
        if (!flag_exists(id) || (user_set(id) && !holds(&v->settings[i])))
            return false; /* a flag the target's table lacks: not a candidate either */
    }
    return true;
}

/* Set v's settings that the user did not set, origin {ergonomic} (UseSHA3Intrinsics is already true). */
static void apply(const stub_variant *v)
{
    for (int i = 0; i < v->nsettings; i++) {
        const stub_setting *s = &v->settings[i];
        flag_id id = (flag_id)s->flag;
        if (user_set(id) || id == FLAG_ID_UseSHA3Intrinsics)
            continue;
        flag_value value;
        memset(&value, 0, sizeof value);
        switch (flag_descs[id].type) {
        case FLAG_TYPE_bool: value.v_bool = s->value != 0; break;
        case FLAG_TYPE_int: value.v_int = (int)s->value; break;
        case FLAG_TYPE_intx: value.v_intx = (intx)s->value; break;
        case FLAG_TYPE_uintx: value.v_uintx = (uintx)s->value; break;
        case FLAG_TYPE_ccstr: value.v_ccstr = s->text; break;
        default: continue;
        }
        flag_value_store(id, &value);
        flag_set_origin(id, FLAG_ORIGIN_ERGONOMIC);
    }
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
        marks[i] = stubs_generate_one(arch, &cc, STUB_ID_sha3_implCompressMB, t[i].variant, err, sizeof err);
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
                                        const stub_variant *static_variant, FILE *out)
{
    double t0 = now_ns();
    sha3_trial t[SHA3_SELECT_MAX];
    int n = 0, static_index = -1;
    /* what the CPU the flags describe allows them (an emulated one's limits hold as a real one's) and what
       the code's host executes */
    uint64_t runs = cpu->features & arch->allowed_features() & host->features;
    for (size_t i = 0; i < arch->nvariants && n < SHA3_SELECT_MAX; i++) {
        const stub_variant *v = &arch->variants[i];
        if (v->family != STUB_FAMILY_SHA3 || (v->features & ~runs) || !sha3_select_respects_user(v))
            continue;
        memset(&t[n], 0, sizeof t[n]);
        t[n].variant = v;
        if (v == static_variant)
            static_index = n;
        n++;
    }
    int chosen = n > 0 && measure(arch, t, n) > 0 ? sha3_select_decide(t, n, static_index, SHA3_SELECT_NOISE) : -1;
    if (chosen >= 0)
        apply(t[chosen].variant);
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
        int fastest = n > 0 ? sha3_select_decide(t, n, -1, 0) : -1;
        if (fastest >= 0 && static_index >= 0 && t[static_index].generated) {
            /* the threshold sha3_select_decide used: the floor, or the two candidates' spread */
            double limit = SHA3_SELECT_NOISE;
            limit = t[static_index].spread > limit ? t[static_index].spread : limit;
            limit = t[fastest].spread > limit ? t[fastest].spread : limit;
            fprintf(out, "  threshold: a lead over the static choice counts above %.1f %% (the larger of %.0f %% and "
                         "the two variants' spreads, twice their +- column)\n", limit * 100.0, SHA3_SELECT_NOISE * 100.0);
            double lead = t[static_index].median / t[fastest].median - 1.0;
            if (fastest != static_index && lead <= limit)
                fprintf(out, "  warning: %s leads %s by %.1f %%, inside the noise: the static choice stays\n",
                        t[fastest].variant->name, t[static_index].variant->name, lead * 100.0);
        }
        fprintf(out, "  selection took %.0f us\n", (now_ns() - t0) / 1000.0);
    }
    return chosen >= 0 ? t[chosen].variant : NULL;
}
