/*
 * tests/checkasm_x86_64_util.c — see checkasm_x86_64.h.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "checkasm_x86_64.h"

#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu.h"

/* XGETBV with ECX=1 (XINUSE) exists when CPUID.(EAX=0DH,ECX=1):EAX bit 2 is set, and
   tells something where a vzeroupper clears its AVX and ZMM_Hi256 bits (QEMU's TCG
   reports them always set). */
void checkasm_detect_xinuse(void)
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

checkasm_guarded checkasm_guarded_new(size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t pages = (len + page - 1) / page + 1;
    uint8_t *p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || mprotect(p + (pages - 1) * page, page, PROT_NONE) != 0) {
        perror("checkasm_guarded_new");
        abort();
    }
    return (checkasm_guarded){p, pages * page, p + (pages - 1) * page};
}

void checkasm_guarded_free(checkasm_guarded *g)
{
    munmap(g->base, g->len);
    g->base = g->end = NULL;
}

bool checkasm_host_runs(uint64_t features, char *missing, size_t len)
{
    cpu_info cpu;
    missing[0] = '\0';
    if (!cpu_detect_host(&cpu)) {
        snprintf(missing, len, " (the host's CPU is unknown)");
        return false;
    }
    uint64_t lack = features & ~cpu.features;
    for (int f = 0; f < 64; f++)
        if (lack >> f & 1)
            snprintf(missing + strlen(missing), len - strlen(missing), " %s", cpu_feature_name(CPU_ARCH_X86_64, f));
    return lack == 0;
}

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
