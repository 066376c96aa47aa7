/*
 * stubs/x86_64/ergonomics_x86_64.h — x86-64 SHA ergonomics (HotSpot's
 * cpu/x86/vm_version_x86.cpp): flag defaults from the CPU, with HotSpot's
 * warnings, through HotSpot's flag API (flags/flags.h).
 */
#ifndef MINIVM_ERGONOMICS_X86_64_H
#define MINIVM_ERGONOMICS_X86_64_H

#include <stddef.h>

#include "cpu.h"

/* The designs of x86-64's two design flags, each name spelled here once: the variant rows select
   by them (stubs_x86_64.c), the ergonomics set them, the launcher lists them (in this order). */
#define X64_SHA3_ROWS     "rows"   /* SHA3AVX512Design: JDK-8341527's row design */
#define X64_SHA3_LANES    "lanes"  /* ... one lane per register (JDK-8384353's) */
#define X64_SHA256_SHA_NI "sha-ni" /* SHA256Design: HotSpot's fast_sha256 */
#define X64_SHA256_AVX2   "avx2"   /* ... HotSpot's sha256_AVX2 */

/* HotSpot's x86 SHA rules (SHA-1/256/512 as HotSpot 25; SHA-3 under the
   -XX:SHA3IntrinsicPolicy table), plus the AVX/BMI/FPU-spilling defaults
   HotSpot prints on x86, UseAVX capped with HotSpot's warning. */
void x64_sha_ergonomics(const cpu_info *cpu);

/* Where the minivm policy's row for cpu comes from: "measured: ..." or "inferred: ...". */
const char *x64_sha3_row_source(const cpu_info *cpu);

/* The values of -XX:SHA3IntrinsicPolicy (its policy table's names), SHA3AVX512Design and
   SHA256Design: the i-th, NULL past the last. */
const char *x64_sha3_policy(size_t i);
const char *x64_sha3_avx512_design(size_t i);
const char *x64_sha256_design(size_t i);

#endif
