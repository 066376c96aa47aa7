/*
 * tests/checkasm.h — the per-ISA part of the stub-test harness (dav1d's
 * checkasm; the harness is tests/test_checkasm.c): the trampoline
 * (tests/checkasm_<arch>.S) and what only the ISA knows
 * (tests/checkasm_<arch>_util.c). tests/meson.build builds the pair of the
 * host's architecture; on other hosts nothing here exists and the harness
 * only generates.
 *
 *   checkasm_call(fn, a0..a4, &clobbered)  fn(a0..a4) with the callee-saved
 *        registers holding magic values: clobbered gets the bits of those that
 *        came back different, the stack pointer, and what else the ISA checks
 *        (x86-64: the direction flag, upper vector state left dirty; AArch64: fp)
 *   checkasm_clobber_names(mask, ...)      " rbx r12 ..." / " x23 d9 sp ..." for a message
 *   checkasm_isa_init()                    before the calls (x86-64: turns the vzeroupper
 *        check on where XGETBV(1) tells; QEMU's TCG reports the state always in use)
 */
#ifndef MINIVM_CHECKASM_H
#define MINIVM_CHECKASM_H

#include <stddef.h>
#include <stdint.h>

uint64_t checkasm_call(void *fn, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
                       uint32_t *clobbered);
const char *checkasm_clobber_names(uint32_t mask, char *buf, size_t cap);
void checkasm_isa_init(void);

#endif
