/*
 * compiler/jit.h — the compiler tier attached to a VM (docs/compiler.md): per-VM code cache,
 * trampoline and tables, the compile policy's options, PrintCompilation and PrintAssembly.
 * The interpreter (vm/interp.c) counts and enters; this compiles.
 */
#ifndef MINIVM_JIT_H
#define MINIVM_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compile_command.h"
#include "vm.h"

typedef struct jit_options {
    int64_t threshold;      /* CompileThreshold: compile once invocations + back-edges pass it;
                               0 (-Xcomp): at the first call */
    bool osr;               /* UseOnStackReplacement: a loop's back-edge enters compiled code */
    bool print_compilation; /* PrintCompilation */
    bool tiered;            /* TieredCompilation: PrintCompilation prints the level */
    bool print_assembly;    /* PrintAssembly: every compiled method's code */
    const compile_commands *commands; /* CompileCommand's (NULL: none); must outlive the VM */
    FILE *out;              /* where the lines go; NULL: stdout (HotSpot's tty) */
    double start_ns;        /* PrintCompilation's times count from this CLOCK_MONOTONIC time; 0: now */
    const char *target;     /* the templates' architecture ("x86_64", "aarch64"); NULL: the host's.
                               Another than the host's (-XX:EmulateCPU's what-if mode): methods are
                               compiled and printed as the policy says, and the interpreter runs them */
} jit_options;

/* The level minivm's compiled methods have in HotSpot's numbering: 1, C1 without profiling. */
#define JIT_LEVEL 1

/* Can this build run compiled code on this host (templates for its architecture)? */
bool jit_available(void);
/* The host's templates' architecture ("x86_64"), or NULL when it has none. */
const char *jit_arch_name(void);

/* Attach the compiler to vm: from now on its methods are counted and compiled. False (why in
   err) when there are no templates for the target or the code cache cannot be reserved. */
bool jit_attach(vm_t *vm, const jit_options *o, char *err, size_t errlen);

/* What the compiler did, for tests and CITime. */
typedef struct jit_stats {
    uint32_t compiled;      /* methods compiled */
    uint32_t excluded;      /* methods CompileCommand kept from compiling */
    uint64_t code_bytes;    /* their code */
    uint64_t bytecode_bytes; /* their bytecode: 4 bytes a word, as PrintCompilation counts */
    double compile_ns;      /* time spent compiling them */
    uint64_t osr_entries;   /* loop back-edges that entered compiled code (on-stack replacement) */
} jit_stats;
bool jit_get_stats(const vm_t *vm, jit_stats *s);

/* The compiled method whose code holds pc, or NULL (the crash handler's question). */
const char *jit_method_at(const vm_t *vm, const void *pc, size_t *offset);

#endif /* MINIVM_JIT_H */
