/*
 * stubs/ergonomics.h — the per-architecture ergonomics: flag defaults chosen
 * from the CPU (HotSpot's VM_Version::initialize), with HotSpot's warnings.
 *
 * Each architecture implements its rules in stubs/<arch>/ergonomics_<arch>.c
 * and keeps its policy choices in a small table a reader can audit in one
 * screen. They read and write flags only through HotSpot's flag API
 * (FLAG_IS_DEFAULT, FLAG_SET_DEFAULT, vm_warning in flags/flags.h).
 */
#ifndef MINIVM_ERGONOMICS_H
#define MINIVM_ERGONOMICS_H

#include <stdbool.h>

#include "cpu.h"

/* AArch64: the rules of REFERENCE §3 under the policy named by
   -XX:SHA3IntrinsicPolicy. Returns false for an unknown policy name. */
bool a64_sha_ergonomics(const cpu_info *cpu);

/* x86-64: HotSpot 17's x86 SHA rules (minivm has no x86 SHA-3 stub), plus the
   BMI/AVX/FPU-spilling defaults HotSpot prints on x86. */
void x64_sha_ergonomics(const cpu_info *cpu);

/* The SHA-3 policy names, for messages and docs. */
const char *a64_sha3_policy_names(void);

#endif
