/*
 * cpu/aarch64/cpu_aarch64.c — AArch64 CPU detection, catalog,
 * /proc/cpuinfo parser and the crash handler's view of a Linux signal context (HotSpot's vm_version_aarch64.cpp with
 * os_cpu/linux_aarch64 and os_cpu/bsd_aarch64).
 *
 * Compiled on every host: the catalog and the parser are plain C, so an
 * AArch64 CPU can be emulated or read from a file anywhere. Only the reading
 * of the host's own CPU is guarded:
 *   Linux  features from getauxval(AT_HWCAP/AT_HWCAP2); implementer, variant,
 *          part, revision from MIDR_EL1 (mrs, emulated by the kernel when
 *          HWCAP_CPUID is set, and by QEMU user mode), then from /proc/cpuinfo
 *          when it has AArch64 lines: that is where HotSpot reads them, and it
 *          lists every core, so a big.LITTLE system shows its second part.
 *          QEMU user mode shows the host's x86 text there: the parser ignores it.
 *   macOS  sysctl, as HotSpot: FP, ASIMD, AES, PMULL, SHA1, SHA2 always;
 *          CRC32, LSE, SHA512, SHA3 from hw.optional.*; implementer Apple and
 *          part hw.cpufamily (MIDR_EL1 is not readable there).
 */
#if defined(__APPLE__)
#define _DARWIN_C_SOURCE /* sysctlbyname under _POSIX_C_SOURCE */
#endif

#if defined(__aarch64__) && defined(__linux__)
#define _GNU_SOURCE /* the field names of mcontext_t (pc, regs, sp) */
#include <ucontext.h>
#endif
#include "cpu_aarch64.h"
#include "cpu_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#ifndef AT_HWCAP2
#define AT_HWCAP2 26
#endif
#endif

#if (defined(__aarch64__) || defined(__arm64__)) && defined(__APPLE__)
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

static const cpu_feature_desc features[A64_CPU_FEATURE_COUNT] = {
#define A64_CPU_DESC(id, hs, kernel, word, bit) [A64_CPU_##id] = { hs, kernel },
    A64_CPU_FEATURES(A64_CPU_DESC)
#undef A64_CPU_DESC
};

/* ---- the catalog --------------------------------------------------------------
 *
 * Real CPUs as Linux (or, for Apple, HotSpot on macOS) reports them. The
 * feature words are the /proc/cpuinfo "Features" lines of the seeds
 * (the JDK-8359256 review thread's dumps, copied to tests/data/cpuinfo/), read by the same
 * code that reads a CPUInfoFile. MIDR_EL1 is built from the four fields; on
 * macOS the part is hw.cpufamily and there is no MIDR.
 *
 * QEMU user mode (QEMU 7.2, target/arm/cpu64.c) has models cortex-a53/a72/a76, neoverse-n1,
 * a64fx and max; its MIDR values are those below, except neoverse-n1 (QEMU:
 * r4p1, 0x414fd0c1; the seed's Graviton2: r3p1), and its models' features can
 * differ from the silicon (QEMU's cortex-a53 has the crypto extension, the
 * seed's Raspberry Pi 3 does not). Only qemu-max has sha3 and sha512.
 */
typedef struct a64_model {
    const char *name;          /* -XX:EmulateCPU=NAME */
    const char *description;
    uint32_t implementer, variant, part, revision;
    const char *features;      /* /proc/cpuinfo "Features" words */
} a64_model;

static const a64_model catalog[] = {
    /* name          description        impl  var  part        rev  Features */
    { "cortex-a53",  "ARM Cortex-A53",  0x41, 0x0, 0xd03,       4,
      "fp asimd evtstrm crc32 cpuid" },
    { "cortex-a72",  "ARM Cortex-A72",  0x41, 0x0, 0xd08,       3,
      "fp asimd evtstrm aes pmull sha1 sha2 crc32 cpuid" },
    { "cortex-a76",  "ARM Cortex-A76",  0x41, 0x4, 0xd0b,       1,
      "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop "
      "asimddp ssbs" },
    { "neoverse-n1", "ARM Neoverse N1", 0x41, 0x3, 0xd0c,       1,
      "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop "
      "asimddp ssbs" },
    { "neoverse-v1", "ARM Neoverse V1", 0x41, 0x1, 0xd40,       1,
      "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma "
      "lrcpc dcpop sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs paca pacg "
      "dcpodp svei8mm svebf16 i8mm bf16 dgh rng" },
    { "neoverse-v2", "ARM Neoverse V2", 0x41, 0x0, 0xd4f,       1,
      "fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma "
      "lrcpc dcpop sha3 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg dcpodp "
      "sve2 sveaes svepmull svebitperm svesha3 flagm2 frint svei8mm svebf16 i8mm bf16 dgh rng bti" },
    { "apple-m1",    "Apple M1",        0x61, 0x0, 0x1b588bb3,  0,   /* hw.cpufamily FIRESTORM_ICESTORM */
      "fp asimd aes pmull sha1 sha2 crc32 atomics sha3 sha512" },
    { "apple-m4",    "Apple M4",        0x61, 0x0, 0x6f5129ac,  0,   /* hw.cpufamily DONAN */
      "fp asimd aes pmull sha1 sha2 crc32 atomics sha3 sha512" },
    { "a64fx",       "Fujitsu A64FX",   0x46, 0x1, 0x001,       0,
      "fp asimd evtstrm sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm fcma dcpop sve" },
    { "qemu-max",    "QEMU max",        0x00, 0x0, 0x051,       0,   /* QEMU 7.2 user mode */
      "fp asimd aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop "
      "sha3 sm3 sm4 asimddp sha512 sve asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg dcpodp sve2 "
      "sveaes svepmull svebitperm svesha3 svesm4 flagm2 frint svei8mm svef32mm svef64mm svebf16 i8mm "
      "bf16 dgh rng bti" },
};
#define NCATALOG (sizeof catalog / sizeof catalog[0])

/* What every source does last, as HotSpot's VM_Version::initialize. */
static void finish(cpu_info *info)
{
    const uint32_t impl = info->aarch64.implementer, part = info->aarch64.part, part2 = info->aarch64.part2;
    if (impl == A64_IMPL_ARM && (part == 0xd03 || part2 == 0xd03))
        info->features |= UINT64_C(1) << A64_CPU_A53MAC;
    if (!info->description[0])
        for (size_t i = 0; i < NCATALOG; i++)
            if (catalog[i].implementer == impl && catalog[i].part == part) {
                snprintf(info->description, sizeof info->description, "%s", catalog[i].description);
                break;
            }
}

static const char *catalog_name(size_t i)
{
    return i < NCATALOG ? catalog[i].name : NULL;
}

static void catalog_load(size_t i, cpu_info *info)
{
    const a64_model *m = &catalog[i];
    info->aarch64.implementer = m->implementer;
    info->aarch64.variant = m->variant;
    info->aarch64.part = m->part;
    info->aarch64.revision = m->revision;
    info->aarch64.midr = m->part <= 0xfff ? a64_midr(m->implementer, m->variant, m->part, m->revision) : 0;
    info->features = cpuinfo_feature_words(&a64_cpu_ops, m->features, strlen(m->features));
    snprintf(info->description, sizeof info->description, "%s", m->description);
    finish(info);
}

/* ---- /proc/cpuinfo ---------------------------------------------------------------- */

/* HotSpot's get_os_cpu_info loop: numbers by strtol(.., 0); a "CPU part" that
   differs from the last one moves it to part2 (big.LITTLE). Features come
   from the first "Features" line (the kernel prints the same on every core). */
static bool parse_text(const char *text, size_t len, cpu_info *info, bool *has_id)
{
    bool id = false, have_features = false;
    const char *pos = text, *end = text + len;
    cpuinfo_line l;
    while (cpuinfo_next_line(&pos, end, &l)) {
        if (cpuinfo_key_is(&l, "CPU implementer")) {
            info->aarch64.implementer = cpuinfo_value_number(&l);
            id = true;
        } else if (cpuinfo_key_is(&l, "CPU variant")) {
            info->aarch64.variant = cpuinfo_value_number(&l);
        } else if (cpuinfo_key_is(&l, "CPU part")) {
            uint32_t v = cpuinfo_value_number(&l);
            if (info->aarch64.part != v)
                info->aarch64.part2 = info->aarch64.part;
            info->aarch64.part = v;
        } else if (cpuinfo_key_is(&l, "CPU revision")) {
            info->aarch64.revision = cpuinfo_value_number(&l);
        } else if (cpuinfo_key_is(&l, "Features") && !have_features) {
            info->features = cpuinfo_feature_words(&a64_cpu_ops, l.value, l.value_len);
            have_features = true;
        }
    }
    *has_id = id;
    return id || have_features;
}

static bool parse_cpuinfo(const char *text, size_t len, cpu_info *info)
{
    bool has_id;
    if (!parse_text(text, len, info, &has_id))
        return false;
    const uint32_t part = info->aarch64.part;
    if (has_id && part <= 0xfff && info->aarch64.variant <= 0xf && info->aarch64.revision <= 0xf &&
        info->aarch64.implementer <= 0xff)
        info->aarch64.midr = a64_midr(info->aarch64.implementer, info->aarch64.variant, part,
                                      info->aarch64.revision);
    finish(info);
    return true;
}

/* ---- the host --------------------------------------------------------------------- */

#if defined(__aarch64__) && defined(__linux__)

static const uint8_t hwcap_word[A64_CPU_FEATURE_COUNT] = {
#define A64_CPU_WORD(id, hs, kernel, word, bit) [A64_CPU_##id] = word,
    A64_CPU_FEATURES(A64_CPU_WORD)
#undef A64_CPU_WORD
};
static const uint8_t hwcap_bit[A64_CPU_FEATURE_COUNT] = {
#define A64_CPU_BIT(id, hs, kernel, word, bit) [A64_CPU_##id] = bit,
    A64_CPU_FEATURES(A64_CPU_BIT)
#undef A64_CPU_BIT
};

static bool detect(cpu_info *info)
{
    const unsigned long hwcap[3] = { 0, getauxval(AT_HWCAP), getauxval(AT_HWCAP2) };
    for (int f = 0; f < A64_CPU_FEATURE_COUNT; f++)
        if (hwcap_word[f] && (hwcap[hwcap_word[f]] >> hwcap_bit[f] & 1))
            info->features |= UINT64_C(1) << f;

    if (cpu_has(info, A64_CPU_CPUID)) {
        uint64_t midr;
        __asm__ volatile("mrs %0, midr_el1" : "=r"(midr));
        info->aarch64.midr = (uint32_t)midr;
        info->aarch64.implementer = (uint32_t)(midr >> 24) & 0xff;
        info->aarch64.variant = (uint32_t)(midr >> 20) & 0xf;
        info->aarch64.part = (uint32_t)(midr >> 4) & 0xfff;
        info->aarch64.revision = (uint32_t)midr & 0xf;
    }

    size_t len;
    char *text = cpu_read_text_file("/proc/cpuinfo", &len, NULL, 0);
    if (text) {
        cpu_info file;
        bool has_id;
        memset(&file, 0, sizeof file);
        parse_text(text, len, &file, &has_id);
        if (has_id) {
            info->aarch64.implementer = file.aarch64.implementer;
            info->aarch64.variant = file.aarch64.variant;
            info->aarch64.part = file.aarch64.part;
            info->aarch64.revision = file.aarch64.revision;
            info->aarch64.part2 = file.aarch64.part2;
        }
        free(text);
    }
    finish(info);
    return true;
}

#elif (defined(__aarch64__) || defined(__arm64__)) && defined(__APPLE__)

static bool sysctl_has(const char *name)
{
    uint32_t value = 0;
    size_t len = sizeof value;
    return sysctlbyname(name, &value, &len, NULL, 0) == 0 && value != 0;
}

static bool detect(cpu_info *info)
{
    static const int always[] = { A64_CPU_FP, A64_CPU_ASIMD, A64_CPU_AES, A64_CPU_PMULL,
                                  A64_CPU_SHA1, A64_CPU_SHA2 };
    static const struct { int feature; const char *sysctl[2]; } optional[] = {
        { A64_CPU_CRC32,  { "hw.optional.armv8_crc32",    NULL } },
        { A64_CPU_LSE,    { "hw.optional.arm.FEAT_LSE",    "hw.optional.armv8_1_atomics" } },
        { A64_CPU_SHA512, { "hw.optional.arm.FEAT_SHA512", "hw.optional.armv8_2_sha512" } },
        { A64_CPU_SHA3,   { "hw.optional.arm.FEAT_SHA3",   "hw.optional.armv8_2_sha3" } },
    };
    for (size_t i = 0; i < sizeof always / sizeof always[0]; i++)
        info->features |= UINT64_C(1) << always[i];
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++)
        for (int k = 0; k < 2; k++)
            if (optional[i].sysctl[k] && sysctl_has(optional[i].sysctl[k]))
                info->features |= UINT64_C(1) << optional[i].feature;

    uint32_t family = 0;
    size_t len = sizeof family;
    if (sysctlbyname("hw.cpufamily", &family, &len, NULL, 0) != 0)
        family = 0;
    info->aarch64.implementer = A64_IMPL_APPLE;
    info->aarch64.part = family;
    finish(info);
    return true;
}

#else

static bool detect(cpu_info *info)
{
    (void)info;
    return false;   /* not an AArch64 host */
}

#endif

/* ---- printing ------------------------------------------------------------------------ */

/* HotSpot: "0x%02x:0x%x:0x%03x:%d", then "(0x%03x)" for _model2, then ", name"... */
static void features_string(const cpu_info *info, char *buf, size_t len)
{
    cpu_appendf(buf, len, "0x%02x:0x%x:0x%03x:%d", info->aarch64.implementer, info->aarch64.variant,
                info->aarch64.part, (int)info->aarch64.revision);
    if (info->aarch64.part2)
        cpu_appendf(buf, len, "(0x%03x)", info->aarch64.part2);
    cpu_append_feature_names(&a64_cpu_ops, info, buf, len);
}

#if defined(__aarch64__) && defined(__linux__)
static uintptr_t fault_pc(const void *context)
{
    const ucontext_t *uc = context;
    return (uintptr_t)uc->uc_mcontext.pc;
}

/* x0..x30 and sp */
static int crash_registers(const void *context, const char *const **names, uintptr_t *values)
{
    static const char *const regs[32] = {
        "x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",  "x8",  "x9",  "x10", "x11", "x12", "x13", "x14", "x15",
        "x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "fp",  "lr",  "sp"};
    const ucontext_t *uc = context;
    for (int r = 0; r < 32; r++)
        values[r] = r < 31 ? uc->uc_mcontext.regs[r] : uc->uc_mcontext.sp;
    *names = regs;
    return 32;
}
#define HOST_FAULT_PC fault_pc
#define HOST_CRASH_REGISTERS crash_registers
#else
#define HOST_FAULT_PC NULL
#define HOST_CRASH_REGISTERS NULL
#endif

const cpu_arch_ops a64_cpu_ops = {
    .arch = CPU_ARCH_AARCH64,
    .name = "aarch64",
#if defined(__aarch64__) || defined(__arm64__)
    .is_host = true,
#endif
    .feature_count = A64_CPU_FEATURE_COUNT,
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
