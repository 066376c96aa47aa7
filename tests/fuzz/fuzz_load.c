/*
 * tests/fuzz/fuzz_load.c — libFuzzer target for the loader: the .mva
 * assembler and the verifier must turn any byte string into a program or
 * an error message; never a crash, a hang, a leak or undefined behaviour.
 *
 * A program that loads is also linked into a VM (statics, array literals,
 * string constants), but not run: a verified program may loop forever.
 * Build and run: see docs/testing.md.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "vm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    err[0] = '\0';
    vm_program *p = vm_load_text("fuzz.mva", (const char *)data, size, err, sizeof err);
    if (!p) {
        /* a rejected program always says why, in a terminated message */
        if (err[0] == '\0' || memchr(err, '\0', sizeof err) == NULL)
            __builtin_trap();
        return 0;
    }
    /* small limits: constants are created here, and each input is one run */
    vm_options opt = {.heap_max = (size_t)64 << 20, .stack_size = (size_t)64 << 10};
    vm_t *vm = vm_new(p, &opt, err, sizeof err);
    vm_free(vm);
    vm_program_free(p);
    return 0;
}
