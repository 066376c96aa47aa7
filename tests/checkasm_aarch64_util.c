/*
 * tests/checkasm_aarch64_util.c — the AArch64 part of checkasm.h beside the
 * trampoline (checkasm_aarch64.S).
 */
#include "checkasm.h"

#include <stdio.h>
#include <string.h>

void checkasm_isa_init(void) {}

/* The trampoline's bits: 0..9 x19..x28, 10..17 d8..d15, 18 sp, 19 fp. */
const char *checkasm_clobber_names(uint32_t mask, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int b = 0; b < 20; b++) {
        if (!(mask & (1u << b)))
            continue;
        char name[8];
        if (b < 10)
            snprintf(name, sizeof name, "x%d", 19 + b);
        else if (b < 18)
            snprintf(name, sizeof name, "d%d", b - 2);
        else
            snprintf(name, sizeof name, "%s", b == 18 ? "sp" : "fp");
        snprintf(buf + strlen(buf), cap - strlen(buf), " %s", name);
    }
    return buf;
}
