/*
 * tests/checkasm_aarch64_util.c — see checkasm_aarch64.h.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "checkasm_aarch64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cpu.h"

uint64_t checkasm_rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

uint64_t checkasm_garbage_high(uint64_t *s, int32_t v)
{
    return (checkasm_rnd(s) & 0xFFFFFFFF00000000ULL) | (uint32_t)v;
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
}

bool checkasm_host_has(int feature)
{
    cpu_info cpu;
    return cpu_detect_host(&cpu) && cpu_has(&cpu, feature);
}

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
