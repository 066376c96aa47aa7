/*
 * cpu/cpu.h — CPU detection: the interface (HotSpot's VM_Version, split the
 * same way: this file and cpu.c are CPU-independent, stubs/aarch64/ and
 * stubs/x86_64/ know the architectures).
 *
 * A cpu_info comes from one of three places:
 *   cpu_detect_host        the CPU this process runs on (HWCAP + MIDR_EL1 +
 *                          /proc/cpuinfo or sysctl on AArch64, CPUID on x86-64)
 *   cpu_emulate            a built-in catalog entry (-XX:EmulateCPU=NAME)
 *   cpu_from_cpuinfo_file  a /proc/cpuinfo text (-XX:CPUInfoFile=PATH)
 * Any architecture can be described on any host: an AArch64 CPU emulated on
 * x86-64 gets AArch64 ergonomics and flags ("what-if" mode), and the caller
 * compares info.arch with cpu_host_arch() before running any stub.
 *
 * Features are a bit set indexed by the architecture's feature list
 * (A64_CPU_* in aarch64/cpu_aarch64.h, X64_CPU_* in x86_64/cpu_x86_64.h);
 * cpu_feature_name and cpu_feature_lookup work for either architecture.
 *
 * Everything here is plain C and compiled on every host; only the reading
 * of the host's own registers is #if-guarded in the architecture folders.
 */
#ifndef MINIVM_CPU_H
#define MINIVM_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "arch_list.h"

/* CPU_ARCH_AARCH64, CPU_ARCH_X86_64 ...: one per architecture folder (arch_list.h) */
#define CPU_ARCH_ENUM(id, folder, prefix) CPU_ARCH_##id,
typedef enum cpu_arch {
    CPU_ARCH_UNKNOWN = 0,  /* a host minivm has no CPU support for */
    MVM_ARCHES(CPU_ARCH_ENUM)
} cpu_arch;
#undef CPU_ARCH_ENUM

typedef enum cpu_origin {
    CPU_DETECTED,          /* the host's own CPU */
    CPU_EMULATED,          /* a catalog entry; origin_name is its name */
    CPU_FROM_CPUINFO_FILE  /* a /proc/cpuinfo text; origin_name is the path */
} cpu_origin;

typedef struct cpu_info {
    cpu_arch arch;
    cpu_origin origin;
    char origin_name[1024];   /* catalog name or file path; "" when detected */
    char description[64];     /* "ARM Neoverse N1", an x86 brand string; may be "" */
    uint64_t features;        /* bit i: feature i of arch's list (cpu_has) */
    int total_cpus;           /* "CPU: total N (initial active M)": the host's */
    int active_cpus;          /* counts, whatever the origin (the VM runs here) */

    /* AArch64: MIDR_EL1 fields as HotSpot keeps them (_cpu, _variant, _model,
       _revision, _model2). On macOS part is hw.cpufamily, as in HotSpot. */
    struct {
        uint32_t implementer; /* 0x41 ARM, 0x46 Fujitsu, 0x61 Apple, 0x00 QEMU max ... */
        uint32_t variant;
        uint32_t part;
        uint32_t revision;
        uint32_t part2;       /* big.LITTLE: the other part /proc/cpuinfo lists, or 0 */
        uint32_t midr;        /* MIDR_EL1 when known (read, or the catalog's), else 0 */
    } aarch64;

    /* x86-64: CPUID leaf 0 and 1 (family and model include the extended fields). */
    struct {
        char vendor[13];      /* "GenuineIntel", "AuthenticAMD" */
        uint32_t family;
        uint32_t model;
        uint32_t stepping;
        uint32_t microcode;   /* /proc/cpuinfo "microcode", 0 when unknown (as HotSpot) */
        uint32_t cores_per_cpu;
        uint32_t threads_per_core;
    } x86_64;
} cpu_info;

/* The architecture this minivm binary was compiled for. */
cpu_arch cpu_host_arch(void);

/* How many architectures there are: CPU_ARCH_UNKNOWN + 1 .. cpu_arch_count() are real. */
int cpu_arch_count(void);

/* "aarch64", "x86_64", "unknown". */
const char *cpu_arch_name(cpu_arch arch);

/*
 * The host's CPU. Returns false (and an info with arch CPU_ARCH_UNKNOWN and
 * no features) on a host architecture minivm does not know.
 */
bool cpu_detect_host(cpu_info *info);

/*
 * The catalog entry NAME (case-insensitive). On an unknown name: false, and
 * err gets "unknown CPU 'NAME'; known CPUs: cortex-a53, cortex-a72, ...".
 */
bool cpu_emulate(const char *name, cpu_info *info, char *err, size_t errlen);

/* The catalog, both architectures, in table order. */
size_t cpu_catalog_count(void);
const char *cpu_catalog_name(size_t i);

/*
 * A /proc/cpuinfo text. The architecture comes from the content: "CPU
 * implementer" or "Features" lines mean AArch64, "vendor_id" or "flags" lines
 * x86-64. Errors (unreadable, too large, neither kind of text) go to err,
 * starting with the path.
 */
bool cpu_from_cpuinfo_file(const char *path, cpu_info *info, char *err, size_t errlen);

/* The same on text already in memory (need not be NUL-terminated); origin_name = origin. */
bool cpu_from_cpuinfo_text(const char *text, size_t len, const char *origin,
                           cpu_info *info, char *err, size_t errlen);

/*
 * HotSpot's VM_Version::features_string():
 *   AArch64  "0x41:0x3:0xd0c:1, fp, asimd, evtstrm, aes, ..."  (implementer:
 *            variant:part:revision, "(0xd03)" after it for a second part)
 *   x86-64   "(64 cores per cpu, 2 threads per core) family 25 model 1
 *            stepping 1 microcode 0x0, cx8, cmov, ..."
 * Features in HotSpot's order and spelling (sha256, lse, sha, clmul).
 */
void cpu_features_string(const cpu_info *info, char *buf, size_t len);

/*
 * The line HotSpot prints with -Xlog:os+cpu and in hs_err files:
 *   "CPU: total 4 (initial active 4) <features string>\n"
 * followed, when the CPU is not the host's, by
 *   "CPU source: emulated neoverse-n1 (ARM Neoverse N1) on an x86_64 host\n"
 *   "CPU source: cpuinfo file PATH (ARM Neoverse N1) on an x86_64 host\n"
 */
void cpu_print(const cpu_info *info, FILE *out);

/* ---- features ------------------------------------------------------------- */

static inline bool cpu_has(const cpu_info *info, int feature)
{
    return feature >= 0 && feature < 64 && (info->features >> feature) & 1;
}

/* Number of features in arch's list (feature indices are 0..count-1). */
int cpu_feature_count(cpu_arch arch);

/* HotSpot's name of a feature ("sha256"), or the kernel's where HotSpot has none ("cpuid"). */
const char *cpu_feature_name(cpu_arch arch, int feature);

/* The name of the lowest feature set in bits (a mask of feature indices), NULL when none is. */
const char *cpu_first_feature_name(cpu_arch arch, uint64_t bits);

/* A feature by HotSpot's or /proc/cpuinfo's name ("sha2" and "sha256"); -1 when unknown. */
int cpu_feature_lookup(cpu_arch arch, const char *name);

#endif
