/*
 * stubs/x86_64/ergonomics_x86_64.h — x86-64 SHA ergonomics (HotSpot's
 * cpu/x86/vm_version_x86.cpp): flag defaults from the CPU, with HotSpot's
 * warnings, through HotSpot's flag API (flags/flags.h).
 */
#ifndef MINIVM_ERGONOMICS_X86_64_H
#define MINIVM_ERGONOMICS_X86_64_H

#include "cpu.h"

/* HotSpot 17's x86 SHA rules (minivm has no x86 SHA-3 stub yet), plus the
   BMI/AVX/FPU-spilling defaults HotSpot prints on x86. */
void x64_sha_ergonomics(const cpu_info *cpu);

#endif
