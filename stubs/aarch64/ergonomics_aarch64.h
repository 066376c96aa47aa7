/*
 * stubs/aarch64/ergonomics_aarch64.h — AArch64 SHA ergonomics (HotSpot's
 * cpu/aarch64/vm_version_aarch64.cpp): flag defaults from the CPU, with
 * HotSpot's warnings. They read and write flags only through HotSpot's flag
 * API (FLAG_IS_DEFAULT, FLAG_SET_DEFAULT, vm_warning in flags/flags.h).
 */
#ifndef MINIVM_ERGONOMICS_AARCH64_H
#define MINIVM_ERGONOMICS_AARCH64_H

#include <stddef.h>

#include "cpu.h"

/* The rules of docs/flags.md under the policy named by -XX:SHA3IntrinsicPolicy
   (checked by the launcher before this runs). */
void a64_sha_ergonomics(const cpu_info *cpu);

/* The SHA-3 policies' names, in their table's order: the i-th, NULL past the last
   (-XX:SHA3IntrinsicPolicy's values). */
const char *a64_sha3_policy(size_t i);

#endif
