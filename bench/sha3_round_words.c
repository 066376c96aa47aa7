/*
 * bench/sha3_round_words.c — one Keccak round of a SHA-3 stub variant (the
 * stub's loop body as the generator emits it) as bytes for
 * `llvm-mc --disassemble`. bench/mca.py (sh scripts/bench --mca) turns it into
 * assembly text and asks llvm-mca how many cycles a round takes on each CPU
 * model. The variants are the architectures' variant tables (stub_arch.h),
 * never a list kept here.
 *
 *   sha3_round_words --list          one line a SHA-3 variant: "arch name features options"
 *                                    (features comma-separated, "-" for none; the options
 *                                    are the row's settings)
 *   sha3_round_words ARCH NAME       the round's bytes (AArch64 four a line, x86-64 sixteen)
 *
 * Besides the rows, AArch64's "gpr-spill": the GPR design under
 * PreserveFramePointer (or x18 reserved), two lanes spilled around theta
 * instead of fp and x18 as temporaries.
 */
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "stub_arch.h"
#include "stubgenerator_aarch64.h"
#include "stubgenerator_x86_64.h"

#define STUB_OPS_REF(id, folder, prefix) &prefix##_stub_ops,
static const stub_arch_ops *const arches[] = {MVM_ARCHES(STUB_OPS_REF)};
#undef STUB_OPS_REF
#define NARCHES (sizeof arches / sizeof arches[0])

static void print_features(cpu_arch arch, uint64_t f)
{
    if (!f) {
        printf("-");
        return;
    }
    for (int b = 0, first = 1; b < 64; b++)
        if (f >> b & 1) {
            printf("%s%s", first ? "" : ",", cpu_feature_name(arch, b));
            first = 0;
        }
}

static int list(void)
{
    for (size_t a = 0; a < NARCHES; a++)
        for (size_t i = 0; i < arches[a]->nvariants; i++) {
            const stub_variant *v = &arches[a]->variants[i];
            if (v->family != STUB_FAMILY_SHA3)
                continue;
            char options[256];
            printf("%s %s ", cpu_arch_name(arches[a]->arch), v->name);
            print_features(arches[a]->arch, v->features);
            printf(" %s\n", stub_variant_options(v, options, sizeof options));
            if (arches[a]->arch == CPU_ARCH_AARCH64 && strcmp(v->name, "gpr") == 0)
                printf("aarch64 gpr-spill - -XX:+UseSHA3Intrinsics -XX:-UseSIMDForSHA3Intrinsic "
                       "-XX:+PreserveFramePointer\n");
        }
    return 0;
}

static int aarch64_round(const a64_sha3_config *design, bool spill)
{
    a64_sha3_config cfg = *design;
    cfg.preserve_fp = cfg.preserve_fp || spill;
    uint32_t w[512];
    a64_asm as;
    a64_asm_init(&as, w, 512);
    as.cb.fatal = false;
    a64_emit_sha3_round(&as, &cfg);
    if (a64_asm_failed(&as)) {
        fprintf(stderr, "sha3_round_words: %s\n", as.cb.errmsg);
        return 1;
    }
    for (size_t i = 0; i < a64_asm_pc(&as); i++)
        printf("0x%02x 0x%02x 0x%02x 0x%02x\n", w[i] & 0xff, (w[i] >> 8) & 0xff, (w[i] >> 16) & 0xff, w[i] >> 24);
    return 0;
}

static int x86_64_round(const x64_sha3_config *design)
{
    static uint8_t code[16384];
    x64_asm as;
    x64_asm_init(&as, code, sizeof code);
    as.cb.fatal = false;
    x64_emit_sha3_round(&as, design);
    if (x64_asm_failed(&as)) {
        fprintf(stderr, "sha3_round_words: %s\n", as.cb.errmsg);
        return 1;
    }
    for (size_t i = 0; i < x64_asm_pc(&as); i++)
        printf("0x%02x%c", code[i], i % 16 == 15 || i + 1 == x64_asm_pc(&as) ? '\n' : ' ');
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0)
        return list();
    for (size_t a = 0; argc == 3 && a < NARCHES; a++) {
        if (strcmp(argv[1], cpu_arch_name(arches[a]->arch)) != 0)
            continue;
        bool spill = arches[a]->arch == CPU_ARCH_AARCH64 && strcmp(argv[2], "gpr-spill") == 0;
        const stub_variant *v = stub_variant_named(arches[a], STUB_FAMILY_SHA3, spill ? "gpr" : argv[2]);
        if (!v)
            break;
        if (arches[a]->arch == CPU_ARCH_AARCH64)
            return aarch64_round(v->design, spill);
        if (arches[a]->arch == CPU_ARCH_X86_64)
            return x86_64_round(v->design);
    }
    fprintf(stderr, "usage: sha3_round_words --list | ARCH VARIANT (sha3_round_words --list has them)\n");
    return 2;
}
