/*
 * tests/stub_code.c — one stub's machine code as minivm generates it, on any host:
 *
 *     build/tests/stub_code ARCH STUB VARIANT     e.g. x86_64 sha3_implCompress avx512
 *     build/tests/stub_code --list                every ARCH STUB VARIANT there is
 *     build/tests/stub_code --families            each family's row: ID FLAG DISPLAY DIGEST,...
 *                                                 (the benchmark runner's configurations)
 *
 * prints "STUB VARIANT SIZE ENTRY" and then the bytes in hex, 32 a line, for llvm-mc
 * (scripts/hotspot_code.py compares them with HotSpot 25's stubs). The generators run
 * into a plain buffer: nothing is executed, so every architecture's stubs are there on
 * every host, with the flags at their defaults.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "flags.h"
#include "stub_arch.h"
#include "stubroutines.h"

#define ARCH_ID(id, folder, prefix) CPU_ARCH_##id,
static const cpu_arch arches[] = {MVM_ARCHES(ARCH_ID)};
#undef ARCH_ID
#define NARCHES (sizeof arches / sizeof arches[0])

static int list(void)
{
    for (size_t a = 0; a < NARCHES; a++) {
        const stub_arch_ops *arch = stub_arch_ops_for(arches[a]);
        if (!arch)
            continue;
        for (size_t i = 0; i < arch->nvariants; i++)
            for (int id = 0; id < STUB_COUNT; id++)
                if (stub_variant_has(&arch->variants[i], (stub_id)id))
                    printf("%s %s %s\n", cpu_arch_name(arches[a]), stub_descs[id].name, arch->variants[i].name);
    }
    return 0;
}

/* each family's row of stubdeclarations.h, for the tools outside C (bench/mdbench/configs.py):
   "SHA256 UseSHA256Intrinsics SHA-256 SHA-224,SHA-256,SHA-256-JDK15" */
static int families(void)
{
    for (int f = 0; f < STUB_FAMILY_COUNT; f++) {
        const stub_family_desc *d = &stub_family_descs[f];
        printf("%s %s %s ", d->id, flag_name(d->flag), d->display);
        for (const char *c = d->digests; *c; c++)
            putchar(*c == ' ' ? ',' : *c);
        putchar('\n');
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0)
        return list();
    if (argc == 2 && strcmp(argv[1], "--families") == 0)
        return families();
    if (argc != 4) {
        fprintf(stderr, "usage: stub_code ARCH STUB VARIANT | --list\n");
        return 2;
    }
    const stub_arch_ops *arch = NULL;
    for (size_t a = 0; a < NARCHES && !arch; a++)
        if (strcmp(cpu_arch_name(arches[a]), argv[1]) == 0)
            arch = stub_arch_ops_for(arches[a]);
    int id = 0;
    while (id < STUB_COUNT && strcmp(stub_descs[id].name, argv[2]) != 0)
        id++;
    const stub_variant *v = arch && id < STUB_COUNT ? stub_variant_named(arch, stub_descs[id].family, argv[3]) : NULL;
    if (!v) {
        fprintf(stderr, "stub_code: no %s %s %s (stub_code --list)\n", argv[1], argv[2], argv[3]);
        return 1;
    }
    flags_init(flags_host_arch()); /* the generators read a few flags (PreserveFramePointer) */
    static uint8_t code[1 << 16];
    size_t entry = 0, size = 0;
    char err[256] = "";
    if (!arch->generate(v, (stub_id)id, code, sizeof code, &entry, &size, err, sizeof err)) {
        fprintf(stderr, "stub_code: the generator refused %s %s: %s\n", argv[2], argv[3], err);
        return 1;
    }
    printf("%s %s %zu %zu\n", argv[2], argv[3], size, entry);
    for (size_t i = 0; i < size; i++)
        printf("%02x%s", code[i], i % 32 == 31 || i + 1 == size ? "\n" : " ");
    return 0;
}
