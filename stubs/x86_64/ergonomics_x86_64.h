/*
 * stubs/x86_64/ergonomics_x86_64.h — x86-64 SHA ergonomics (HotSpot's
 * cpu/x86/vm_version_x86.cpp): flag defaults from the CPU, with HotSpot's
 * warnings, through HotSpot's flag API (flags/flags.h).
 */
#ifndef MINIVM_ERGONOMICS_X86_64_H
#define MINIVM_ERGONOMICS_X86_64_H

#include "cpu.h"

/* HotSpot's x86 SHA rules (SHA-1/256/512 as HotSpot 25; SHA-3 under the
   -XX:SHA3IntrinsicPolicy table), plus the AVX/BMI/FPU-spilling defaults
   HotSpot prints on x86, UseAVX capped with HotSpot's warning. */
void x64_sha_ergonomics(const cpu_info *cpu);

/* Where the minivm policy's row for cpu comes from: "measured: ..." or "inferred: ...". */
const char *x64_sha3_row_source(const cpu_info *cpu);

#endif
