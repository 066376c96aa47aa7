/*
 * flags/flags.c — the flag table materialized: descriptors, values, origins,
 * lookup and the fuzzy match of "Did you mean", warnings (see flags.h).
 *
 * HotSpot models: runtime/flags/jvmFlag.cpp (find_flag, fuzzy_match,
 * is_unlocked, set_origin), utilities/stringUtils.cpp (similarity),
 * utilities/debug.cpp (warning).
 */
#include "flags.h"

#include <assert.h>
#include <stdarg.h>
#include <string.h>

/* ---- the table ------------------------------------------------------------------------------ */

mvm_flag_values mvm_flags = {
#define F(type, name, def, kind, group, range, doc) .name = (def),
    MVM_FLAGS(F) MVM_FLAGS_AARCH64(F) MVM_FLAGS_X86_64(F) MVM_FLAGS_EVERY_ARCH(F)
#undef F
};

/*
 * A table line becomes a descriptor. The range column is one macro argument,
 * RANGE(lo, hi) or NO_RANGE, which expands to three (has, lo, hi) when the
 * line is handed on to FLAG_DESC. The value member is pasted from the type
 * (v_bool, v_intx, ...) before `bool` could expand to `_Bool`.
 */
#define NO_RANGE      false, 0, 0
#define RANGE(lo, hi) true, lo, hi
#define FLAG_DESC(tid, member, name, def, def_x86, kind, group, arch, has, lo, hi, doc)                     \
    [FLAG_ID_##name] = {#name, tid, FLAG_KIND_##kind, group, arch, &mvm_flags.name, {.member = (def)},     \
                        {.member = (def_x86)}, has, {.member = (lo)}, {.member = (hi)}, doc},
#define SHARED(type, name, def, kind, group, range, doc) \
    FLAG_DESC(FLAG_TYPE_##type, v_##type, name, def, def, kind, FLAG_GROUP_##group, FLAG_SHARED, range, doc)
#define AARCH64(type, name, def, kind, group, range, doc)                                                 \
    FLAG_DESC(FLAG_TYPE_##type, v_##type, name, def, def, kind, FLAG_GROUP_##group | FLAG_GROUP_ARCH, \
              FLAG_ARCH_AARCH64, range, doc)
#define X86_64(type, name, def, kind, group, range, doc)                                                  \
    FLAG_DESC(FLAG_TYPE_##type, v_##type, name, def, def, kind, FLAG_GROUP_##group | FLAG_GROUP_ARCH, \
              FLAG_ARCH_X86_64, range, doc)
/* def is PD(a, x): PD_AARCH64_##def is PD_AARCH64_PD(a, x), and so on */
#define EVERY_ARCH(type, name, def, kind, group, range, doc)                                                 \
    FLAG_DESC(FLAG_TYPE_##type, v_##type, name, PD_AARCH64_##def, PD_X86_64_##def, kind,                  \
              FLAG_GROUP_##group | FLAG_GROUP_ARCH, FLAG_EVERY_ARCH, range, doc)

const flag_desc flag_descs[FLAG_COUNT] = {MVM_FLAGS(SHARED) MVM_FLAGS_AARCH64(AARCH64) MVM_FLAGS_X86_64(X86_64)
                                              MVM_FLAGS_EVERY_ARCH(EVERY_ARCH)};

#undef SHARED
#undef AARCH64
#undef X86_64
#undef EVERY_ARCH
#undef FLAG_DESC
#undef RANGE
#undef NO_RANGE

/* ---- state ---------------------------------------------------------------------------------- */

static flag_arch target_arch;
static unsigned char origins[FLAG_COUNT];
static bool set_on_command_line[FLAG_COUNT]; /* HotSpot's WAS_SET_ON_COMMAND_LINE */

flag_arch flags_host_arch(void)
{
#if defined(__x86_64__) || defined(_M_X64)
    return FLAG_ARCH_X86_64;
#elif defined(__aarch64__) || defined(_M_ARM64)
    return FLAG_ARCH_AARCH64;
#else
#error "minivm has flag tables for x86-64 and AArch64 only"
#endif
}

static size_t value_size(flag_type t)
{
    switch (t) {
    case FLAG_TYPE_bool: return sizeof(bool);
    case FLAG_TYPE_int: return sizeof(int);
    case FLAG_TYPE_uint: return sizeof(uint);
    case FLAG_TYPE_intx: return sizeof(intx);
    case FLAG_TYPE_uintx: return sizeof(uintx);
    case FLAG_TYPE_uint64_t: return sizeof(uint64_t);
    case FLAG_TYPE_size_t: return sizeof(size_t);
    case FLAG_TYPE_double: return sizeof(double);
    case FLAG_TYPE_ccstr:
    case FLAG_TYPE_ccstrlist: return sizeof(ccstr);
    }
    return 0;
}

void flag_value_load(flag_id id, flag_value *v)
{
    memset(v, 0, sizeof *v);
    memcpy(v, flag_descs[id].addr, value_size(flag_descs[id].type));
}

void flag_value_store(flag_id id, const flag_value *v)
{
    memcpy(flag_descs[id].addr, v, value_size(flag_descs[id].type));
}

void flags_init(flag_arch arch)
{
    target_arch = arch;
    for (int id = 0; id < FLAG_COUNT; id++) {
        flag_value_store((flag_id)id, arch == FLAG_ARCH_X86_64 ? &flag_descs[id].def_x86_64 : &flag_descs[id].def);
        origins[id] = FLAG_ORIGIN_DEFAULT;
        set_on_command_line[id] = false;
    }
}

flag_arch flags_arch(void)
{
    return target_arch;
}

/* ---- origins -------------------------------------------------------------------------------- */

bool flag_exists(flag_id id)
{
    return id < FLAG_COUNT && (flag_descs[id].arch < 0 || flag_descs[id].arch == (int)target_arch);
}

const char *flag_name(flag_id id)
{
    return flag_descs[id].name;
}

flag_origin flag_get_origin(flag_id id)
{
    return (flag_origin)origins[id];
}

bool flag_is_default(flag_id id)
{
    return origins[id] == FLAG_ORIGIN_DEFAULT;
}

bool flag_is_cmdline(flag_id id)
{
    return set_on_command_line[id];
}

bool flag_in_range(flag_id id, const flag_value *v)
{
    const flag_desc *d = &flag_descs[id];
    if (!d->has_range)
        return true;
    switch (d->type) {
    case FLAG_TYPE_int: return v->v_int >= d->min.v_int && v->v_int <= d->max.v_int;
    case FLAG_TYPE_uint: return v->v_uint >= d->min.v_uint && v->v_uint <= d->max.v_uint;
    case FLAG_TYPE_intx: return v->v_intx >= d->min.v_intx && v->v_intx <= d->max.v_intx;
    case FLAG_TYPE_uintx: return v->v_uintx >= d->min.v_uintx && v->v_uintx <= d->max.v_uintx;
    case FLAG_TYPE_uint64_t: return v->v_uint64_t >= d->min.v_uint64_t && v->v_uint64_t <= d->max.v_uint64_t;
    case FLAG_TYPE_size_t: return v->v_size_t >= d->min.v_size_t && v->v_size_t <= d->max.v_size_t;
    case FLAG_TYPE_double: return v->v_double >= d->min.v_double && v->v_double <= d->max.v_double;
    default: return true;
    }
}

void flag_set_origin(flag_id id, flag_origin origin)
{
    assert(id < FLAG_COUNT && flag_exists(id));
#ifndef NDEBUG
    if (origin == FLAG_ORIGIN_ERGONOMIC) { /* HotSpot asserts FLAG_SET_ERGO stays in range */
        flag_value v;
        flag_value_load(id, &v);
        assert(flag_in_range(id, &v));
    }
#endif
    origins[id] = (unsigned char)origin;
    if (origin == FLAG_ORIGIN_COMMAND_LINE)
        set_on_command_line[id] = true;
}

/* ---- lookup --------------------------------------------------------------------------------- */

bool flag_is_unlocker(flag_id id)
{
    return id == FLAG_ID_UnlockDiagnosticVMOptions || id == FLAG_ID_UnlockExperimentalVMOptions;
}

bool flag_is_unlocked(flag_id id)
{
    switch (flag_descs[id].kind) {
    case FLAG_KIND_DIAGNOSTIC: return FLAG(UnlockDiagnosticVMOptions);
    case FLAG_KIND_EXPERIMENTAL: return FLAG(UnlockExperimentalVMOptions);
    default: return true;
    }
}

flag_id flag_find(const char *name, size_t len, bool allow_locked)
{
    for (int id = 0; id < FLAG_COUNT; id++) {
        const char *n = flag_descs[id].name;
        if (!flag_exists((flag_id)id) || strncmp(n, name, len) != 0 || n[len] != '\0')
            continue;
        /* develop flags are constants in a product build: only reported, never set */
        if (flag_descs[id].kind == FLAG_KIND_DEVELOP)
            return allow_locked ? (flag_id)id : FLAG_COUNT;
        if (!allow_locked && !flag_is_unlocked((flag_id)id) && !flag_is_unlocker((flag_id)id))
            return FLAG_COUNT;
        return (flag_id)id;
    }
    return FLAG_COUNT;
}

double flag_similarity(const char *a, size_t alen, const char *b, size_t blen)
{
    if (alen == 0 || blen == 0)
        return 0.0;
    size_t hit = 0;
    for (size_t i = 0; i + 1 < alen; i++)
        for (size_t j = 0; j + 1 < blen; j++)
            if (a[i] == b[j] && a[i + 1] == b[j + 1]) {
                hit++;
                break;
            }
    return 2.0 * (double)hit / (double)(alen + blen);
}

flag_id flag_fuzzy_match(const char *name, size_t len)
{
    /* HotSpot: the first best-scoring flag of the table, locked ones included
       (arguments.cpp asks with allow_locked), then the 0.7 threshold */
    flag_id best = FLAG_COUNT;
    double best_score = -1.0;
    for (int id = 0; id < FLAG_COUNT; id++) {
        if (!flag_exists((flag_id)id))
            continue;
        const char *n = flag_descs[id].name;
        double score = flag_similarity(n, strlen(n), name, len);
        if (score > best_score) {
            best_score = score;
            best = (flag_id)id;
        }
    }
    return best_score >= 0.7 ? best : FLAG_COUNT;
}

/* ---- warnings ------------------------------------------------------------------------------- */

static FILE *warning_stream;

void vm_warning_stream(FILE *f)
{
    warning_stream = f;
}

void vm_warning(const char *fmt, ...)
{
    if (!FLAG(PrintWarnings))
        return;
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    fprintf(warning_stream ? warning_stream : stderr, "%s warning: %s\n", MVM_VM_NAME, text);
}
