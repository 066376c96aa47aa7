/*
 * cpu/x86_64/cpu_x86_64.c — x86-64 CPU detection, catalog,
 * /proc/cpuinfo parser (HotSpot's cpu/x86/vm_version_x86.cpp) and the crash
 * handler's view of a Linux signal context.
 *
 * Compiled on every host; CPUID is executed only on x86-64 (detect). The
 * features follow HotSpot's rules: AVX needs the OS to save YMM state
 * (OSXSAVE, XCR0), AVX2 and FMA need AVX, AVX-512 needs the opmask and ZMM
 * state too; "ht" means more than one thread per core, whatever CPUID's HTT
 * bit says (HotSpot's feature_flags(): "HT flag is set for multi-core
 * processors also", so it tests threads_per_core() > 1 instead).
 */
#if defined(__x86_64__) && defined(__linux__)
#define _GNU_SOURCE /* REG_RIP in <sys/ucontext.h> */
#include <ucontext.h>
#endif
#include "cpu_x86_64.h"
#include "cpu_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

static const cpu_feature_desc features[X64_CPU_FEATURE_COUNT] = {
#define X64_CPU_DESC(id, hs, kernel) [X64_CPU_##id] = { hs, kernel },
    X64_CPU_FEATURES(X64_CPU_DESC)
#undef X64_CPU_DESC
};

#define BIT(f) (UINT64_C(1) << (f))

/* ---- the catalog ----------------------------------------------------------------
 *
 * Real CPUs by their CPUID identity and /proc/cpuinfo flags (only the flags
 * minivm knows are listed). cores/threads are the physical counts per
 * package; microcode is unknown (0), as HotSpot prints it without /proc.
 */
typedef struct x64_model {
    const char *name;          /* -XX:EmulateCPU=NAME */
    const char *description;   /* the brand string */
    const char *vendor;
    uint32_t family, model, stepping;
    uint32_t cores_per_cpu, threads_per_core;
    const char *flags;         /* /proc/cpuinfo "flags" words */
} x64_model;

#define X64_BASE "cx8 cmov fxsr mmx sse sse2 pni ssse3 sse4_1 sse4_2 popcnt abm avx avx2 aes erms " \
                 "pclmulqdq bmi1 bmi2 fma"

static const x64_model catalog[] = {
    /* name              description                                       vendor   fam mod st cores thr */
    { "haswell",        "Intel(R) Xeon(R) CPU E5-2676 v3 @ 2.40GHz",       "GenuineIntel", 6, 63, 2, 12, 2,
      X64_BASE },
    { "skylake-avx512", "Intel(R) Xeon(R) Platinum 8175M CPU @ 2.50GHz",   "GenuineIntel", 6, 85, 4, 24, 2,
      X64_BASE " adx avx512f avx512dq avx512cd avx512bw avx512vl" },
    { "icelake-server", "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz",   "GenuineIntel", 6, 106, 6, 32, 2,
      X64_BASE " adx avx512f avx512dq avx512cd avx512bw avx512vl sha_ni" },
    { "zen3",           "AMD EPYC 7763 64-Core Processor",                 "AuthenticAMD", 25, 1, 1, 64, 2,
      X64_BASE " sse4a adx sha_ni" },
    { "zen4",           "AMD EPYC 9654 96-Core Processor",                 "AuthenticAMD", 25, 17, 1, 96, 2,
      X64_BASE " sse4a adx avx512f avx512dq avx512cd avx512bw avx512vl sha_ni" },
    { "sapphire-rapids", "Intel(R) Xeon(R) Platinum 8488C",                 "GenuineIntel", 6, 143, 8, 48, 2,
      X64_BASE " adx avx512f avx512dq avx512cd avx512bw avx512vl sha_ni" },
    { "emerald-rapids", "Intel(R) Xeon(R) Platinum 8581C CPU @ 2.30GHz",   "GenuineIntel", 6, 207, 2, 60, 2,
      X64_BASE " adx avx512f avx512dq avx512cd avx512bw avx512vl sha_ni" },
    { "sierra-forest",  "Intel(R) Xeon(R) 6780E",                          "GenuineIntel", 6, 175, 3, 144, 1,
      X64_BASE " adx sha_ni" },
    { "zen5",           "AMD EPYC 9655 96-Core Processor",                 "AuthenticAMD", 26, 2, 1, 96, 2,
      X64_BASE " sse4a adx avx512f avx512dq avx512cd avx512bw avx512vl sha_ni" },
};
#define NCATALOG (sizeof catalog / sizeof catalog[0])

/* What every source does last. HotSpot's feature_flags() sets "ht" from the
   topology, not from CPUID's HTT bit (leaf 1 EDX 28, which every multi-core
   part sets): `if (threads_per_core() > 1) result |= CPU_HT;`. A 2-vCPU guest
   with one thread per core (Emerald Rapids here) has HTT and no "ht". */
static void finish(cpu_info *info)
{
    if (info->x86_64.cores_per_cpu == 0)
        info->x86_64.cores_per_cpu = 1;
    if (info->x86_64.threads_per_core == 0)
        info->x86_64.threads_per_core = 1;
    if (info->x86_64.threads_per_core > 1)
        info->features |= BIT(X64_CPU_HT);
    else
        info->features &= ~BIT(X64_CPU_HT);
}

static const char *catalog_name(size_t i)
{
    return i < NCATALOG ? catalog[i].name : NULL;
}

static void catalog_load(size_t i, cpu_info *info)
{
    const x64_model *m = &catalog[i];
    snprintf(info->x86_64.vendor, sizeof info->x86_64.vendor, "%s", m->vendor);
    info->x86_64.family = m->family;
    info->x86_64.model = m->model;
    info->x86_64.stepping = m->stepping;
    info->x86_64.cores_per_cpu = m->cores_per_cpu;
    info->x86_64.threads_per_core = m->threads_per_core;
    info->features = cpuinfo_feature_words(&x64_cpu_ops, m->flags, strlen(m->flags));
    snprintf(info->description, sizeof info->description, "%s", m->description);
    finish(info);
}

/* ---- /proc/cpuinfo ------------------------------------------------------------------ */

/* The first processor's block (each field once: later blocks repeat it). */
static bool parse_cpuinfo(const char *text, size_t len, cpu_info *info)
{
    enum { VENDOR, FAMILY, MODEL, STEPPING, MICROCODE, NAME, FLAGS, CORES, SIBLINGS, NFIELDS };
    static const char *const keys[NFIELDS] = {
        "vendor_id", "cpu family", "model", "stepping", "microcode", "model name", "flags", "cpu cores", "siblings"
    };
    bool seen[NFIELDS] = { false };
    uint32_t siblings = 0;
    const char *pos = text, *end = text + len;
    cpuinfo_line l;
    while (cpuinfo_next_line(&pos, end, &l)) {
        int k = 0;
        while (k < NFIELDS && !cpuinfo_key_is(&l, keys[k]))
            k++;
        if (k == NFIELDS || seen[k])
            continue;
        seen[k] = true;
        switch (k) {
        case VENDOR:    cpuinfo_value_copy(&l, info->x86_64.vendor, sizeof info->x86_64.vendor); break;
        case FAMILY:    info->x86_64.family = cpuinfo_value_number(&l); break;
        case MODEL:     info->x86_64.model = cpuinfo_value_number(&l); break;
        case STEPPING:  info->x86_64.stepping = cpuinfo_value_number(&l); break;
        case MICROCODE: info->x86_64.microcode = cpuinfo_value_number(&l); break;
        case NAME:      cpuinfo_value_copy(&l, info->description, sizeof info->description); break;
        case FLAGS:     info->features = cpuinfo_feature_words(&x64_cpu_ops, l.value, l.value_len); break;
        case CORES:     info->x86_64.cores_per_cpu = cpuinfo_value_number(&l); break;
        case SIBLINGS:  siblings = cpuinfo_value_number(&l); break;
        }
    }
    if (!seen[VENDOR] && !seen[FLAGS])
        return false;
    if (info->x86_64.cores_per_cpu && siblings >= info->x86_64.cores_per_cpu)
        info->x86_64.threads_per_core = siblings / info->x86_64.cores_per_cpu;
    finish(info);
    return true;
}

/* ---- the host -------------------------------------------------------------------------- */

#if defined(__x86_64__)

typedef struct cpuid_regs { uint32_t eax, ebx, ecx, edx; } cpuid_regs;

static cpuid_regs cpuid(uint32_t leaf, uint32_t subleaf)
{
    cpuid_regs r;
    __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
    return r;
}

static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

/* Where CPUID reports each feature (gated ones are adjusted in detect; "ht"
   comes from the topology, in finish). */
enum { L1_EDX, L1_ECX, L7_EBX, X1_ECX };
static const struct { uint8_t feature, reg, bit; } cpuid_bits[] = {
    { X64_CPU_CX8,      L1_EDX,  8 }, { X64_CPU_CMOV,     L1_EDX, 15 }, { X64_CPU_MMX,      L1_EDX, 23 },
    { X64_CPU_FXSR,     L1_EDX, 24 }, { X64_CPU_SSE,      L1_EDX, 25 }, { X64_CPU_SSE2,     L1_EDX, 26 },
    { X64_CPU_SSE3,     L1_ECX,  0 }, { X64_CPU_CLMUL,    L1_ECX,  1 }, { X64_CPU_SSSE3,    L1_ECX,  9 },
    { X64_CPU_FMA,      L1_ECX, 12 }, { X64_CPU_SSE4_1,   L1_ECX, 19 }, { X64_CPU_SSE4_2,   L1_ECX, 20 },
    { X64_CPU_POPCNT,   L1_ECX, 23 }, { X64_CPU_AES,      L1_ECX, 25 }, { X64_CPU_AVX,      L1_ECX, 28 },
    { X64_CPU_BMI1,     L7_EBX,  3 }, { X64_CPU_AVX2,     L7_EBX,  5 }, { X64_CPU_BMI2,     L7_EBX,  8 },
    { X64_CPU_ERMS,     L7_EBX,  9 }, { X64_CPU_AVX512F,  L7_EBX, 16 }, { X64_CPU_AVX512DQ, L7_EBX, 17 },
    { X64_CPU_ADX,      L7_EBX, 19 }, { X64_CPU_AVX512CD, L7_EBX, 28 }, { X64_CPU_SHA,      L7_EBX, 29 },
    { X64_CPU_AVX512BW, L7_EBX, 30 }, { X64_CPU_AVX512VL, L7_EBX, 31 },
    { X64_CPU_LZCNT,    X1_ECX,  5 }, { X64_CPU_SSE4A,    X1_ECX,  6 },
};

static bool detect(cpu_info *info)
{
    const cpuid_regs l0 = cpuid(0, 0);
    const uint32_t max_leaf = l0.eax;
    memcpy(info->x86_64.vendor + 0, &l0.ebx, 4);
    memcpy(info->x86_64.vendor + 4, &l0.edx, 4);
    memcpy(info->x86_64.vendor + 8, &l0.ecx, 4);
    info->x86_64.vendor[12] = '\0';
    const bool intel = strcmp(info->x86_64.vendor, "GenuineIntel") == 0;
    const bool amd = strcmp(info->x86_64.vendor, "AuthenticAMD") == 0 ||
                     strcmp(info->x86_64.vendor, "HygonGenuine") == 0;

    const cpuid_regs l1 = max_leaf >= 1 ? cpuid(1, 0) : (cpuid_regs){ 0, 0, 0, 0 };
    const cpuid_regs l7 = max_leaf >= 7 ? cpuid(7, 0) : (cpuid_regs){ 0, 0, 0, 0 };
    const uint32_t max_ext = cpuid(0x80000000u, 0).eax;
    const cpuid_regs x1 = max_ext >= 0x80000001u ? cpuid(0x80000001u, 0) : (cpuid_regs){ 0, 0, 0, 0 };

    /* Family and model with the extended fields (Intel SDM, as /proc/cpuinfo). */
    const uint32_t base_family = l1.eax >> 8 & 0xf, base_model = l1.eax >> 4 & 0xf;
    info->x86_64.family = base_family == 0xf ? base_family + (l1.eax >> 20 & 0xff) : base_family;
    info->x86_64.model = base_family == 0x6 || base_family == 0xf ? (l1.eax >> 16 & 0xf) << 4 | base_model
                                                                  : base_model;
    info->x86_64.stepping = l1.eax & 0xf;

    const uint32_t regs[] = { [L1_EDX] = l1.edx, [L1_ECX] = l1.ecx, [L7_EBX] = l7.ebx, [X1_ECX] = x1.ecx };
    for (size_t i = 0; i < sizeof cpuid_bits / sizeof cpuid_bits[0]; i++)
        if (regs[cpuid_bits[i].reg] >> cpuid_bits[i].bit & 1)
            info->features |= BIT(cpuid_bits[i].feature);

    /* The OS must save the wider registers: OSXSAVE (leaf 1 ECX bit 27), then
       XCR0 bits SSE|YMM (0x6) for AVX, and opmask|ZMM_Hi256|Hi16_ZMM (0xe0) for AVX-512. */
    const uint64_t xcr0 = (l1.ecx >> 27 & 1) ? xgetbv0() : 0;
    const uint64_t avx_dependent = BIT(X64_CPU_AVX) | BIT(X64_CPU_AVX2) | BIT(X64_CPU_FMA);
    const uint64_t avx512 = BIT(X64_CPU_AVX512F) | BIT(X64_CPU_AVX512DQ) | BIT(X64_CPU_AVX512CD) |
                            BIT(X64_CPU_AVX512BW) | BIT(X64_CPU_AVX512VL);
    if (!(info->features & BIT(X64_CPU_AVX)) || (xcr0 & 0x6) != 0x6)
        info->features &= ~(avx_dependent | avx512);
    if (!(info->features & BIT(X64_CPU_AVX512F)) || (xcr0 & 0xe0) != 0xe0)
        info->features &= ~avx512;

    /* HotSpot's cores_per_cpu() and threads_per_core(). */
    const cpuid_regs b0 = max_leaf >= 0xb ? cpuid(0xb, 0) : (cpuid_regs){ 0, 0, 0, 0 };
    const cpuid_regs b1 = max_leaf >= 0xb ? cpuid(0xb, 1) : (cpuid_regs){ 0, 0, 0, 0 };
    const bool topology = max_leaf >= 0xb && ((b0.eax & 0x1f) | (b0.ebx & 0xffff)) != 0 && (b0.ebx & 0xffff);
    uint32_t cores = 1, threads = 1;
    if (intel) {
        if (topology)
            cores = (b1.ebx & 0xffff) / (b0.ebx & 0xffff);
        if (!topology || cores == 0)
            cores = max_leaf >= 4 ? (cpuid(4, 0).eax >> 26) + 1 : 1;
    } else if (amd) {
        cores = max_ext >= 0x80000008u ? (cpuid(0x80000008u, 0).ecx & 0xff) + 1 : 1;
    }
    if (intel && topology) {
        threads = b0.ebx & 0xffff;
    } else if (l1.edx >> 28 & 1) {
        if (info->x86_64.family >= 0x17)
            threads = (max_ext >= 0x8000001eu ? (cpuid(0x8000001eu, 0).ebx >> 8 & 0xff) : 0) + 1;
        else
            threads = (l1.ebx >> 16 & 0xff) / cores;
    }
    info->x86_64.cores_per_cpu = cores;
    info->x86_64.threads_per_core = threads ? threads : 1;

    if (max_ext >= 0x80000004u) {
        char brand[49];
        for (uint32_t i = 0; i < 3; i++) {
            const cpuid_regs r = cpuid(0x80000002u + i, 0);
            memcpy(brand + 16 * i + 0, &r.eax, 4);
            memcpy(brand + 16 * i + 4, &r.ebx, 4);
            memcpy(brand + 16 * i + 8, &r.ecx, 4);
            memcpy(brand + 16 * i + 12, &r.edx, 4);
        }
        brand[48] = '\0';
        const char *b = brand;
        while (*b == ' ')
            b++;
        snprintf(info->description, sizeof info->description, "%s", b);
    }

#if defined(__linux__)
    /* HotSpot's os::cpu_microcode_revision(): the "microcode" line of /proc/cpuinfo. */
    size_t len;
    char *text = cpu_read_text_file("/proc/cpuinfo", &len, NULL, 0);
    if (text) {
        cpu_info file;
        memset(&file, 0, sizeof file);
        if (parse_cpuinfo(text, len, &file))
            info->x86_64.microcode = file.x86_64.microcode;
        free(text);
    }
#endif
    finish(info);
    return true;
}

#else

static bool detect(cpu_info *info)
{
    (void)info;
    return false;   /* not an x86-64 host */
}

#endif

/* ---- printing ------------------------------------------------------------------------------ */

/* HotSpot: "(%u cores per cpu, %u threads per core) family %d model %d stepping %d
   microcode 0x%x", then ", name" per feature. */
static void features_string(const cpu_info *info, char *buf, size_t len)
{
    cpu_appendf(buf, len, "(%u cores per cpu, %u threads per core) family %d model %d stepping %d microcode 0x%x",
                info->x86_64.cores_per_cpu, info->x86_64.threads_per_core, (int)info->x86_64.family,
                (int)info->x86_64.model, (int)info->x86_64.stepping, info->x86_64.microcode);
    cpu_append_feature_names(&x64_cpu_ops, info, buf, len);
}

#if defined(__x86_64__) && defined(__linux__)
static uintptr_t fault_pc(const void *context)
{
    const ucontext_t *uc = context;
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

/* the sixteen GPRs */
static int crash_registers(const void *context, const char *const **names, uintptr_t *values)
{
    static const char *const regs[16] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
                                         "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
    static const int greg[16] = {REG_RAX, REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
                                 REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
    const ucontext_t *uc = context;
    for (int r = 0; r < 16; r++)
        values[r] = (uintptr_t)uc->uc_mcontext.gregs[greg[r]];
    *names = regs;
    return 16;
}
#define HOST_FAULT_PC fault_pc
#define HOST_CRASH_REGISTERS crash_registers
#else
#define HOST_FAULT_PC NULL
#define HOST_CRASH_REGISTERS NULL
#endif

const cpu_arch_ops x64_cpu_ops = {
    .arch = CPU_ARCH_X86_64,
    .name = "x86_64",
#if defined(__x86_64__)
    .is_host = true,
#endif
    .feature_count = X64_CPU_FEATURE_COUNT,
    .features = features,
    .catalog_count = NCATALOG,
    .catalog_name = catalog_name,
    .catalog_load = catalog_load,
    .detect = detect,
    .parse_cpuinfo = parse_cpuinfo,
    .features_string = features_string,
    .fault_pc = HOST_FAULT_PC,
    .crash_registers = HOST_CRASH_REGISTERS,
};
