/*
 * tests/checkasm_aarch64.h — what the AArch64 stub tests share (dav1d's
 * checkasm; the x86-64 twin is checkasm_x86_64.h): the trampoline of
 * tests/checkasm_aarch64.S and the checks around it
 * (tests/checkasm_aarch64_util.c). AArch64 hosts only (tests/meson.build).
 *
 *   checkasm_call(fn, a0..a4, &clobbered)  the stub with x19..x28 and d8..d15 holding
 *        magic values; clobbered gets the registers that came back different, sp, fp
 *   checkasm_rnd(&state)                   xorshift64*, so a failure replays from its seed
 *   checkasm_garbage_high(&state, v)       an int argument with random upper 32 bits
 *   checkasm_guarded_new(len)              len bytes ending at an unmapped page
 *   checkasm_host_has(feature)             has the host's CPU the A64_CPU_* feature?
 *   checkasm_clobber_names(mask, ...)      " x23 d9 sp ..." for a message
 */
#ifndef MINIVM_CHECKASM_AARCH64_H
#define MINIVM_CHECKASM_AARCH64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

uint64_t checkasm_call(void *fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint32_t *clobbered);

uint64_t checkasm_rnd(uint64_t *state);
uint64_t checkasm_garbage_high(uint64_t *state, int32_t v);

typedef struct checkasm_guarded {
    uint8_t *base;   /* the mapping */
    size_t len;
    uint8_t *end;    /* the first byte of the unmapped page */
} checkasm_guarded;

/* aborts the test run when the mapping fails */
checkasm_guarded checkasm_guarded_new(size_t len);
void checkasm_guarded_free(checkasm_guarded *g);

bool checkasm_host_has(int feature);

const char *checkasm_clobber_names(uint32_t mask, char *buf, size_t cap);

#endif
