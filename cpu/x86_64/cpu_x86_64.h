/*
 * cpu/x86_64/cpu_x86_64.h — x86-64 CPU features (HotSpot's
 * cpu/x86/vm_version_x86.hpp, trimmed to what minivm detects).
 *
 * The list is in HotSpot's print order. Each line gives HotSpot's name and
 * the kernel's /proc/cpuinfo "flags" name; where CPUID reports it is in
 * cpu_x86_64.c (detect).
 *
 *     F(id,        HotSpot,     /proc/cpuinfo)
 */
#ifndef MINIVM_CPU_X86_64_H
#define MINIVM_CPU_X86_64_H

#define X64_CPU_FEATURES(F)                       \
    F(CX8,       "cx8",       "cx8")              \
    F(CMOV,      "cmov",      "cmov")             \
    F(FXSR,      "fxsr",      "fxsr")             \
    F(HT,        "ht",        "ht")               \
    F(MMX,       "mmx",       "mmx")              \
    F(SSE,       "sse",       "sse")              \
    F(SSE2,      "sse2",      "sse2")             \
    F(SSE3,      "sse3",      "pni")              \
    F(SSSE3,     "ssse3",     "ssse3")            \
    F(SSE4A,     "sse4a",     "sse4a")            \
    F(SSE4_1,    "sse4.1",    "sse4_1")           \
    F(SSE4_2,    "sse4.2",    "sse4_2")           \
    F(POPCNT,    "popcnt",    "popcnt")           \
    F(LZCNT,     "lzcnt",     "abm")              \
    F(AVX,       "avx",       "avx")              \
    F(AVX2,      "avx2",      "avx2")             \
    F(AES,       "aes",       "aes")              \
    F(ERMS,      "erms",      "erms")             \
    F(CLMUL,     "clmul",     "pclmulqdq")        \
    F(BMI1,      "bmi1",      "bmi1")             \
    F(BMI2,      "bmi2",      "bmi2")             \
    F(ADX,       "adx",       "adx")              \
    F(AVX512F,   "avx512f",   "avx512f")          \
    F(AVX512DQ,  "avx512dq",  "avx512dq")         \
    F(AVX512CD,  "avx512cd",  "avx512cd")         \
    F(AVX512BW,  "avx512bw",  "avx512bw")         \
    F(AVX512VL,  "avx512vl",  "avx512vl")         \
    F(SHA,       "sha",       "sha_ni")           \
    F(FMA,       "fma",       "fma")

typedef enum x64_cpu_feature {
#define X64_CPU_ENUM(id, hs, kernel) X64_CPU_##id,
    X64_CPU_FEATURES(X64_CPU_ENUM)
#undef X64_CPU_ENUM
    X64_CPU_FEATURE_COUNT
} x64_cpu_feature;

#endif
