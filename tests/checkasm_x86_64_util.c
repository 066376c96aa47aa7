/*
 * tests/checkasm_x86_64_util.c — the x86-64 part of checkasm.h beside the
 * trampoline (checkasm_x86_64.S).
 */
#include "checkasm.h"

#include <cpuid.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* the trampoline's switch for the vzeroupper check, and its probe */
extern int checkasm_xinuse;
uint32_t checkasm_xinuse_after_vzeroupper(void);

/* XGETBV with ECX=1 (XINUSE) exists when CPUID.(EAX=0DH,ECX=1):EAX bit 2 is set, and
   tells something where a vzeroupper clears its AVX and ZMM_Hi256 bits (QEMU's TCG
   reports them always set). */
void checkasm_isa_init(void)
{
    unsigned a, b, c, d;
    static bool said;
    checkasm_xinuse = 0;
    if (__get_cpuid_max(0, NULL) < 0xd || !__get_cpuid_count(0xd, 1, &a, &b, &c, &d) || !(a >> 2 & 1))
        return;
    checkasm_xinuse = 1;
    checkasm_xinuse = (checkasm_xinuse_after_vzeroupper() & 0x44) == 0;
    if (!checkasm_xinuse && !said) {
        printf("this CPU does not track XINUSE: the vzeroupper check is off\n");
        said = true;
    }
}

/* The trampoline's bits: rbx, rbp, r12..r15, rsp, DF, XINUSE. */
const char *checkasm_clobber_names(uint32_t mask, char *buf, size_t cap)
{
    static const char *const names[] = {"rbx", "rbp", "r12", "r13", "r14", "r15", "rsp", "DF",
                                        "upper vector state (no vzeroupper)"};
    buf[0] = '\0';
    for (int b = 0; b < 9; b++)
        if (mask & (1u << b))
            snprintf(buf + strlen(buf), cap - strlen(buf), " %s", names[b]);
    return buf;
}
