/*
 * cpu/cpu.c — CPU detection, the CPU-independent part: dispatch over the
 * architectures (aarch64/, x86_64/), the /proc/cpuinfo line reader both
 * parsers use, the catalog listing, and the HotSpot-style print.
 */
#if defined(__linux__)
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#endif

#include "cpu_impl.h"
#include "textfile.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#if defined(__linux__)
#include <sched.h>
#endif

#define CPU_OPS_REF(id, folder, prefix) &prefix##_cpu_ops,
static const cpu_arch_ops *const arches[] = { MVM_ARCHES(CPU_OPS_REF) };
#undef CPU_OPS_REF
#define NARCHES (sizeof arches / sizeof arches[0])

const cpu_arch_ops *cpu_arch_ops_for(cpu_arch arch)
{
    for (size_t i = 0; i < NARCHES; i++)
        if (arches[i]->arch == arch)
            return arches[i];
    return NULL;
}

int cpu_arch_count(void) { return (int)NARCHES; }

cpu_arch cpu_host_arch(void)
{
    for (size_t i = 0; i < NARCHES; i++)
        if (arches[i]->is_host)
            return arches[i]->arch;
    return CPU_ARCH_UNKNOWN;
}

const char *cpu_arch_name(cpu_arch arch)
{
    const cpu_arch_ops *ops = cpu_arch_ops_for(arch);
    return ops ? ops->name : "unknown";
}

static void copy_str(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src ? src : "");
}

static void set_error(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void set_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- detection, catalog, cpuinfo ------------------------------------------- */

bool cpu_detect_host(cpu_info *info)
{
    memset(info, 0, sizeof *info);
    info->origin = CPU_DETECTED;
    cpu_host_counts(&info->total_cpus, &info->active_cpus);
    const cpu_arch_ops *ops = cpu_arch_ops_for(cpu_host_arch());
    if (!ops || !ops->detect(info)) {
        info->arch = CPU_ARCH_UNKNOWN;
        return false;
    }
    info->arch = ops->arch;
    return true;
}

size_t cpu_catalog_count(void)
{
    size_t n = 0;
    for (size_t a = 0; a < NARCHES; a++)
        n += arches[a]->catalog_count;
    return n;
}

const char *cpu_catalog_name(size_t i)
{
    for (size_t a = 0; a < NARCHES; a++) {
        if (i < arches[a]->catalog_count)
            return arches[a]->catalog_name(i);
        i -= arches[a]->catalog_count;
    }
    return NULL;
}

bool cpu_emulate(const char *name, cpu_info *info, char *err, size_t errlen)
{
    memset(info, 0, sizeof *info);
    for (size_t a = 0; name && a < NARCHES; a++) {
        const cpu_arch_ops *ops = arches[a];
        for (size_t i = 0; i < ops->catalog_count; i++) {
            if (strcasecmp(name, ops->catalog_name(i)) != 0)
                continue;
            ops->catalog_load(i, info);
            info->arch = ops->arch;
            info->origin = CPU_EMULATED;
            copy_str(info->origin_name, sizeof info->origin_name, ops->catalog_name(i));
            cpu_host_counts(&info->total_cpus, &info->active_cpus);
            return true;
        }
    }
    char list[1024] = "";
    for (size_t i = 0; i < cpu_catalog_count(); i++)
        cpu_appendf(list, sizeof list, "%s%s", i ? ", " : "", cpu_catalog_name(i));
    set_error(err, errlen, "unknown CPU '%s'; known CPUs: %s", name ? name : "", list);
    return false;
}

bool cpu_from_cpuinfo_text(const char *text, size_t len, const char *origin,
                           cpu_info *info, char *err, size_t errlen)
{
    for (size_t a = 0; a < NARCHES; a++) {
        memset(info, 0, sizeof *info);
        if (!arches[a]->parse_cpuinfo(text, len, info))
            continue;
        info->arch = arches[a]->arch;
        info->origin = CPU_FROM_CPUINFO_FILE;
        copy_str(info->origin_name, sizeof info->origin_name, origin);
        cpu_host_counts(&info->total_cpus, &info->active_cpus);
        return true;
    }
    memset(info, 0, sizeof *info);
    set_error(err, errlen,
              "%s: not a /proc/cpuinfo text: no 'CPU implementer' or 'Features' line (AArch64), "
              "no 'vendor_id' or 'flags' line (x86-64)", origin ? origin : "");
    return false;
}

bool cpu_from_cpuinfo_file(const char *path, cpu_info *info, char *err, size_t errlen)
{
    size_t len;
    char *text = cpu_read_text_file(path, &len, err, errlen);
    if (!text) {
        memset(info, 0, sizeof *info);
        return false;
    }
    bool ok = cpu_from_cpuinfo_text(text, len, path, info, err, errlen);
    free(text);
    return ok;
}

/* ---- printing ----------------------------------------------------------------- */

void cpu_features_string(const cpu_info *info, char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    const cpu_arch_ops *ops = cpu_arch_ops_for(info->arch);
    if (ops)
        ops->features_string(info, buf, len);
    else
        cpu_appendf(buf, len, "unknown CPU");
}

void cpu_print(const cpu_info *info, FILE *out)
{
    char features[1024];
    cpu_features_string(info, features, sizeof features);
    fprintf(out, "CPU: total %d (initial active %d) %s\n", info->total_cpus, info->active_cpus, features);
    if (info->origin == CPU_DETECTED)
        return;
    fprintf(out, "CPU source: %s %s", info->origin == CPU_EMULATED ? "emulated" : "cpuinfo file",
            info->origin_name);
    if (info->description[0])
        fprintf(out, " (%s)", info->description);
    fprintf(out, " on an %s host\n", cpu_arch_name(cpu_host_arch()));
}

void cpu_appendf(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

void cpu_append_feature_names(const cpu_arch_ops *ops, const cpu_info *info, char *buf, size_t len)
{
    for (int f = 0; f < ops->feature_count; f++)
        if (cpu_has(info, f) && ops->features[f].hotspot_name)
            cpu_appendf(buf, len, ", %s", ops->features[f].hotspot_name);
}

/* ---- features ------------------------------------------------------------------ */

int cpu_feature_count(cpu_arch arch)
{
    const cpu_arch_ops *ops = cpu_arch_ops_for(arch);
    return ops ? ops->feature_count : 0;
}

const char *cpu_feature_name(cpu_arch arch, int feature)
{
    const cpu_arch_ops *ops = cpu_arch_ops_for(arch);
    if (!ops || feature < 0 || feature >= ops->feature_count)
        return NULL;
    const cpu_feature_desc *d = &ops->features[feature];
    return d->hotspot_name ? d->hotspot_name : d->cpuinfo_name;
}

const char *cpu_first_feature_name(cpu_arch arch, uint64_t bits)
{
    for (int f = 0; f < 64; f++)
        if (bits >> f & 1)
            return cpu_feature_name(arch, f);
    return NULL;
}

/* Is name (NULL: none) exactly the len characters at s? */
static bool name_is(const char *name, const char *s, size_t len)
{
    return name && strlen(name) == len && memcmp(name, s, len) == 0;
}

static int lookup_n(const cpu_arch_ops *ops, const char *name, size_t len)
{
    for (int f = 0; f < ops->feature_count; f++)
        if (name_is(ops->features[f].hotspot_name, name, len) || name_is(ops->features[f].cpuinfo_name, name, len))
            return f;
    return -1;
}

int cpu_feature_lookup(cpu_arch arch, const char *name)
{
    const cpu_arch_ops *ops = cpu_arch_ops_for(arch);
    return ops && name ? lookup_n(ops, name, strlen(name)) : -1;
}

/* ---- /proc/cpuinfo lines --------------------------------------------------------- */

static bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* The text from begin to end without the blanks around it: its start, and its length in *len. */
static const char *trim_blanks(const char *begin, const char *end, size_t *len)
{
    while (begin < end && is_blank(*begin))
        begin++;
    while (end > begin && is_blank(end[-1]))
        end--;
    *len = (size_t)(end - begin);
    return begin;
}

bool cpuinfo_next_line(const char **pos, const char *end, cpuinfo_line *line)
{
    const char *p = *pos;
    if (p >= end)
        return false;
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol)
        eol = end;
    *pos = eol < end ? eol + 1 : end;

    const char *colon = memchr(p, ':', (size_t)(eol - p));
    line->key = trim_blanks(p, colon ? colon : eol, &line->key_len);
    line->value = trim_blanks(colon ? colon + 1 : eol, eol, &line->value_len);
    return true;
}

bool cpuinfo_key_is(const cpuinfo_line *line, const char *key) { return name_is(key, line->key, line->key_len); }

void cpuinfo_value_copy(const cpuinfo_line *line, char *buf, size_t len)
{
    if (len == 0)
        return;
    size_t n = line->value_len < len - 1 ? line->value_len : len - 1;
    memcpy(buf, line->value, n);
    buf[n] = '\0';   /* a NUL inside the text ends the value early: harmless */
}

uint32_t cpuinfo_value_number(const cpuinfo_line *line)
{
    char buf[32];
    cpuinfo_value_copy(line, buf, sizeof buf);
    errno = 0;
    long v = strtol(buf, NULL, 0);
    if (errno || v < 0 || v > (long)UINT32_MAX)
        return 0;
    return (uint32_t)v;
}

uint64_t cpuinfo_feature_words(const cpu_arch_ops *ops, const char *words, size_t len)
{
    uint64_t bits = 0;
    const char *p = words, *end = words + len;
    while (p < end) {
        while (p < end && (is_blank(*p) || *p == '\0'))
            p++;
        const char *w = p;
        while (p < end && !is_blank(*p) && *p != '\0')
            p++;
        if (p == w)
            continue;
        for (int f = 0; f < ops->feature_count; f++)
            if (name_is(ops->features[f].cpuinfo_name, w, (size_t)(p - w)))
                bits |= UINT64_C(1) << f;
    }
    return bits;
}

char *cpu_read_text_file(const char *path, size_t *len, char *err, size_t errlen)
{
    int e;
    char *text = textfile_read(path, CPU_TEXT_FILE_MAX, len, &e);
    if (!text && e == EFBIG)
        set_error(err, errlen, "%s: larger than %u MiB, not a /proc/cpuinfo text", path, CPU_TEXT_FILE_MAX >> 20);
    else if (!text)
        set_error(err, errlen, "%s: %s", path, strerror(e));
    return text;
}

void cpu_host_counts(int *total, int *active)
{
    long conf = sysconf(_SC_NPROCESSORS_CONF), onln = sysconf(_SC_NPROCESSORS_ONLN);
    *total = conf > 0 ? (int)conf : 1;
    *active = onln > 0 ? (int)onln : *total;
#if defined(__linux__)
    /* HotSpot's initial active count honours the affinity mask (taskset, cpusets). */
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        *active = CPU_COUNT(&set);
#endif
}
