/*
 * stubs/stubs_startup.h — the launcher's two calls into stubs/ while the VM
 * starts (vm/main.c):
 *
 *   1. stubs_target_arch(): before the -XX options are judged, which
 *      architecture's flags exist (the host's, or the one of the CPU named by
 *      -XX:EmulateCPU or described by -XX:CPUInfoFile);
 *   2. stubs_select_cpu_and_ergonomics(): after every option is in, detect
 *      (or emulate) the CPU and set the flag defaults from it (SHA ergonomics),
 *      before -XX:+PrintFlagsFinal prints them; then generate the stubs the
 *      final flags ask for (stubs_generate, stubroutines.h), printed at once
 *      for -XX:+PrintStubCode.
 *
 * The CPU selected in step 2 is kept with the stub table (set once at start-up)
 * so that running a program can say, once, when it runs in "what-if" mode: a
 * CPU of another architecture than the host's was emulated, its flags and
 * ergonomics apply, but no stub of that architecture runs here.
 */
#ifndef MINIVM_STUBS_STARTUP_H
#define MINIVM_STUBS_STARTUP_H

#include <stdio.h>

#include "arguments.h"
#include "flags.h"

/* emulate_cpu, cpuinfo_file: the values of the two flags, NULL when not given */
flag_arch stubs_target_arch(const char *emulate_cpu, const char *cpuinfo_file);

/* The string flags arch's stubs give meaning to, with their values (args_text_flags_fn: the
   launcher checks them); NULL when there are none. */
const args_text_flag *stubs_text_flags(flag_arch arch, size_t *n);

/* Returns 0, or -1 after printing why the VM cannot start (on err; exit status 1). */
int stubs_select_cpu_and_ergonomics(FILE *err);

/* Before a program runs: in what-if mode, say once (a VM warning) that the
   intrinsic flags it ends with are not backed by stubs on this host. */
void stubs_note_program_start(void);

#endif
