/*
 * tests/checkasm_x86_64.h — what the x86-64 stub tests share (dav1d's checkasm):
 * the trampoline of tests/checkasm_x86_64.S and the checks around it
 * (tests/checkasm_x86_64_util.c). x86-64 hosts only (tests/meson.build).
 *
 *   checkasm_call(fn, a0..a4, &clobbered)  the stub with rbx, rbp, r12..r15 holding
 *        magic values; clobbered gets the registers that came back different, rsp,
 *        DF and (with checkasm_xinuse) upper vector state left dirty
 *   checkasm_detect_xinuse()               turns the vzeroupper check on where
 *        XGETBV(1) tells (real CPUs; QEMU's TCG reports the state always in use)
 *   checkasm_guarded_new(len)              len bytes ending at an unmapped page
 *   checkasm_host_runs(features, ...)      has the host's CPU every X64_CPU_* bit?
 *   checkasm_clobber_names(mask, ...)      " rbx r12 ..." for a message
 */
#ifndef MINIVM_CHECKASM_X86_64_H
#define MINIVM_CHECKASM_X86_64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

uint64_t checkasm_call(void *fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint32_t *clobbered);
extern int checkasm_xinuse;
uint32_t checkasm_xinuse_after_vzeroupper(void);

void checkasm_detect_xinuse(void);

typedef struct checkasm_guarded {
    uint8_t *base;   /* the mapping */
    size_t len;
    uint8_t *end;    /* the first byte of the unmapped page */
} checkasm_guarded;

checkasm_guarded checkasm_guarded_new(size_t len);
void checkasm_guarded_free(checkasm_guarded *g);

/* features: bits X64_CPU_*; missing gets " name name" of those the host lacks */
bool checkasm_host_runs(uint64_t features, char *missing, size_t len);

const char *checkasm_clobber_names(uint32_t mask, char *buf, size_t cap);

#endif
