/*
 * cpu/cpu_impl.h — what cpu/cpu.c and the architecture folders share to
 * implement cpu.h. Not for use outside stubs/ (tests may peek).
 *
 * Each architecture folder provides one cpu_arch_ops; cpu.c walks them to
 * detect, emulate, parse and print, so no generic code names a feature.
 */
#ifndef MINIVM_CPU_IMPL_H
#define MINIVM_CPU_IMPL_H

#include "cpu.h"

/* A feature: HotSpot's spelling (NULL: HotSpot does not print it) and the
   kernel's /proc/cpuinfo spelling (NULL: not a kernel feature, derived). */
typedef struct cpu_feature_desc {
    const char *hotspot_name;
    const char *cpuinfo_name;
} cpu_feature_desc;

typedef struct cpu_arch_ops {
    cpu_arch arch;
    const char *name;                   /* "aarch64", "x86_64" (cpu_arch_name) */
    bool is_host;                       /* this binary was compiled for the architecture */
    int feature_count;
    const cpu_feature_desc *features;   /* indexed by the arch's feature enum */

    size_t catalog_count;
    const char *(*catalog_name)(size_t i);
    void (*catalog_load)(size_t i, cpu_info *info);   /* fills the CPU fields only */

    /* The host's CPU; false when this binary was not compiled for the arch. */
    bool (*detect)(cpu_info *info);

    /* Parse a /proc/cpuinfo text; false when it has none of the arch's lines. */
    bool (*parse_cpuinfo)(const char *text, size_t len, cpu_info *info);

    void (*features_string)(const cpu_info *info, char *buf, size_t len);

    /* The host only (is_host): the interrupted pc of a signal context, and
       its general registers for the crash report (crash_handler.c prints them
       "name=0x...", four a line): their names (*names) and values, at most
       CPU_CRASH_MAX_REGS; returns how many. Async-signal-safe. */
    uintptr_t (*fault_pc)(const void *ucontext);
    int (*crash_registers)(const void *ucontext, const char *const **names, uintptr_t *values);
} cpu_arch_ops;

/* the most registers an architecture's crash_registers reports (AArch64: x0..x30 and sp) */
#define CPU_CRASH_MAX_REGS 32

#define CPU_OPS_DECLARE(id, folder, prefix) extern const cpu_arch_ops prefix##_cpu_ops;
MVM_ARCHES(CPU_OPS_DECLARE)
#undef CPU_OPS_DECLARE

/* The architecture's ops, or NULL (CPU_ARCH_UNKNOWN). */
const cpu_arch_ops *cpu_arch_ops_for(cpu_arch arch);

/* ---- helpers for the architecture folders (cpu.c) ------------------------- */

/* One line of a /proc/cpuinfo text, "key<spaces>: value", both trimmed.
   Not NUL-terminated. A line without ':' has the whole line as key and an
   empty value. */
typedef struct cpuinfo_line {
    const char *key;
    size_t key_len;
    const char *value;
    size_t value_len;
} cpuinfo_line;

/* The next line from *pos (before end); false at the end of the text. */
bool cpuinfo_next_line(const char **pos, const char *end, cpuinfo_line *line);

/* Is the line's key exactly key? */
bool cpuinfo_key_is(const cpuinfo_line *line, const char *key);

/* The value as a number the way HotSpot reads it (strtol base 0: "0x41", "8");
   0 when it does not start with one. */
uint32_t cpuinfo_value_number(const cpuinfo_line *line);

/* The value copied into buf (truncated, NUL-terminated). */
void cpuinfo_value_copy(const cpuinfo_line *line, char *buf, size_t len);

/* The feature bits named by the space-separated words of a value (a
   "Features" or "flags" line): words are matched against cpuinfo_name; words
   of no known feature are ignored. */
uint64_t cpuinfo_feature_words(const cpu_arch_ops *ops, const char *words, size_t len);

/* A whole text file in a malloc'ed NUL-terminated buffer (/proc files have no
   size, so it is read to EOF, at most CPU_TEXT_FILE_MAX bytes). NULL with a
   message "PATH: reason" in err on failure. */
#define CPU_TEXT_FILE_MAX (16u << 20)
char *cpu_read_text_file(const char *path, size_t *len, char *err, size_t errlen);

/* The host's processor counts for the "CPU: total N (initial active M)" line. */
void cpu_host_counts(int *total, int *active);

/* Append formatted text at the end of the NUL-terminated buf (truncating). */
void cpu_appendf(char *buf, size_t len, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ", name" for every feature of info that HotSpot prints, in list order. */
void cpu_append_feature_names(const cpu_arch_ops *ops, const cpu_info *info, char *buf, size_t len);

#endif
