/*
 * compiler/jit_arch.h — what the compiler tier needs from an architecture's templates
 * (cpu/<arch>/templates_<arch>.c): the trampoline, one method's code, and how to print it.
 * The shared part (compiler/jit.c) names no architecture; the build passes the host's, when
 * it has templates, as MVM_JIT_ARCH (compiler/meson.build).
 */
#ifndef MINIVM_JIT_ARCH_H
#define MINIVM_JIT_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecache.h"
#include "compiler.h"

typedef struct jit_arch {
    const char *name;        /* "x86_64" */
    code_format format;      /* PrintAssembly's disassembly */
    size_t word_bytes;       /* a bound on one instruction word's code, its exit included */
    size_t method_bytes;     /* and on what a method has besides its words */
    size_t direct_bytes;     /* and on a call of an intrinsic candidate's direct stub calls */
    /* Write the trampoline (a jit_enter_fn) at code (cap bytes): its size in *size and the
       offset of its exit path in *exit_offset; returns its entry's offset, or SIZE_MAX (why
       in err) when it does not fit. */
    size_t (*trampoline)(uint8_t *code, size_t cap, size_t *exit_offset, size_t *size, char *err, size_t errlen);
    /* Translate m at code (cap bytes): *size bytes; offset_of[k] the offset of word k's code
       (SIZE_MAX: a word with none, a conditional's JMP), of which those with kinds[k] (the
       entries, jit_entry_points) may be entered; ics: an inline cache per word, zeroed, that lives
       as long as the code (its virtual calls'). False (why in err) when it does not fit. */
    bool (*method)(uint8_t *code, size_t cap, const vm_t *vm, const vm_method *m, const uint8_t *kinds,
                   jit_ic *ics, size_t *offset_of, size_t *size, char *err, size_t errlen);
} jit_arch;

#endif /* MINIVM_JIT_ARCH_H */
