/*
 * cpu/aarch64/cpu_aarch64.h — AArch64 CPU features and identification
 * (HotSpot's cpu/aarch64/vm_version_aarch64.hpp).
 *
 * The feature list is in HotSpot's print order. Each line gives HotSpot's
 * name (NULL: HotSpot does not print it), the kernel's /proc/cpuinfo
 * "Features" name (NULL: derived, not a kernel feature) and where Linux
 * reports it: AT_HWCAP (word 1) or AT_HWCAP2 (word 2) and the bit.
 *
 *     F(id,        HotSpot,      /proc/cpuinfo, word, bit)
 */
#ifndef MINIVM_CPU_AARCH64_H
#define MINIVM_CPU_AARCH64_H

#include <stdint.h>

#define A64_CPU_FEATURES(F)                                \
    F(FP,         "fp",         "fp",         1, 0)        \
    F(ASIMD,      "asimd",      "asimd",      1, 1)        \
    F(EVTSTRM,    "evtstrm",    "evtstrm",    1, 2)        \
    F(AES,        "aes",        "aes",        1, 3)        \
    F(PMULL,      "pmull",      "pmull",      1, 4)        \
    F(SHA1,       "sha1",       "sha1",       1, 5)        \
    F(SHA2,       "sha256",     "sha2",       1, 6)        \
    F(CRC32,      "crc32",      "crc32",      1, 7)        \
    F(LSE,        "lse",        "atomics",    1, 8)        \
    F(FPHP,       "fphp",       "fphp",       1, 9)        \
    F(ASIMDHP,    "asimdhp",    "asimdhp",    1, 10)       \
    F(CPUID,      NULL,         "cpuid",      1, 11)  /* EL0 may read MIDR_EL1 */ \
    F(DCPOP,      "dcpop",      "dcpop",      1, 16)       \
    F(SHA3,       "sha3",       "sha3",       1, 17)       \
    F(SHA512,     "sha512",     "sha512",     1, 21)       \
    F(SVE,        "sve",        "sve",        1, 22)       \
    F(PACA,       "paca",       "paca",       1, 30)       \
    F(SVEBITPERM, "svebitperm", "svebitperm", 2, 4)        \
    F(SVE2,       "sve2",       "sve2",       2, 1)        \
    F(A53MAC,     "a53mac",     NULL,         0, 0)  /* a Cortex-A53 core is present */

typedef enum a64_cpu_feature {
#define A64_CPU_ENUM(id, hs, kernel, word, bit) A64_CPU_##id,
    A64_CPU_FEATURES(A64_CPU_ENUM)
#undef A64_CPU_ENUM
    A64_CPU_FEATURE_COUNT
} a64_cpu_feature;

/* MIDR_EL1 implementer codes (HotSpot's VM_Version::Family, cpu/aarch64/vm_version_aarch64.hpp). */
enum {
    A64_IMPL_QEMU      = 0x00,  /* QEMU's "max" model */
    A64_IMPL_ARM       = 0x41,
    A64_IMPL_BROADCOM  = 0x42,
    A64_IMPL_CAVIUM    = 0x43,
    A64_IMPL_FUJITSU   = 0x46,
    A64_IMPL_HISILICON = 0x48,
    A64_IMPL_NVIDIA    = 0x4e,
    A64_IMPL_APM       = 0x50,
    A64_IMPL_QUALCOMM  = 0x51,
    A64_IMPL_APPLE     = 0x61,
    A64_IMPL_AMPERE    = 0xc0
};

/* MIDR_EL1: implementer [31:24], variant [23:20], architecture [19:16] (0xf:
   described by the ID registers), part [15:4], revision [3:0]. */
static inline uint32_t a64_midr(uint32_t implementer, uint32_t variant, uint32_t part, uint32_t revision)
{
    return (implementer & 0xff) << 24 | (variant & 0xf) << 20 | 0xfu << 16 | (part & 0xfff) << 4 | (revision & 0xf);
}

#endif
