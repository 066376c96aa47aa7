/*
 * bench/sha3_round_words.c — print one Keccak round of a SHA-3 stub variant
 * (the stub's loop body as the generator emits it) as bytes for
 * `llvm-mc --disassemble`. bench/mca.py (sh scripts/bench --mca) turns it into assembly text and
 * asks llvm-mca how many cycles a round takes on each CPU model.
 *
 *   sha3_round_words simd|gpr|gpr-spill                       AArch64
 *   sha3_round_words x64-gpr|x64-gpr-nobmi|x64-avx2|x64-avx512|x64-avx512-lanes   x86-64
 *
 * gpr-spill is the AArch64 GPR round under PreserveFramePointer (or x18
 * reserved): two lanes spilled around theta instead of fp and x18 as
 * temporaries. AArch64 words print four bytes a line, x86-64 bytes sixteen.
 */
#include <stdio.h>
#include <string.h>

#include "stubgenerator_aarch64.h"
#include "stubgenerator_x86_64.h"

static int aarch64_round(const char *variant)
{
    a64_sha3_config cfg = {0};
    cfg.simd = strcmp(variant, "simd") == 0;
    cfg.preserve_fp = strcmp(variant, "gpr-spill") == 0;
    uint32_t w[512];
    a64_asm as;
    a64_asm_init(&as, w, 512);
    as.fatal = false;
    a64_emit_sha3_round(&as, &cfg);
    if (a64_asm_failed(&as)) {
        fprintf(stderr, "sha3_round_words: %s\n", as.errmsg);
        return 1;
    }
    for (size_t i = 0; i < a64_asm_pc(&as); i++)
        printf("0x%02x 0x%02x 0x%02x 0x%02x\n", w[i] & 0xff, (w[i] >> 8) & 0xff, (w[i] >> 16) & 0xff, w[i] >> 24);
    return 0;
}

static int x86_64_round(const char *variant)
{
    x64_sha3_config cfg = {0};
    if (strcmp(variant, "gpr") == 0) {
        cfg.variant = X64_SHA3_GPR;
        cfg.bmi1 = cfg.bmi2 = true;
    } else if (strcmp(variant, "gpr-nobmi") == 0) {
        cfg.variant = X64_SHA3_GPR;
    } else if (strcmp(variant, "avx2") == 0) {
        cfg.variant = X64_SHA3_AVX2;
    } else if (strcmp(variant, "avx512-lanes") == 0) {
        cfg.variant = X64_SHA3_AVX512_LANES;
    } else {
        cfg.variant = X64_SHA3_AVX512;
    }
    static uint8_t code[16384];
    x64_asm as;
    x64_asm_init(&as, code, sizeof code);
    as.fatal = false;
    x64_emit_sha3_round(&as, &cfg);
    if (x64_asm_failed(&as)) {
        fprintf(stderr, "sha3_round_words: %s\n", as.errmsg);
        return 1;
    }
    for (size_t i = 0; i < x64_asm_pc(&as); i++)
        printf("0x%02x%c", code[i], i % 16 == 15 || i + 1 == x64_asm_pc(&as) ? '\n' : ' ');
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const aarch64[] = {"simd", "gpr", "gpr-spill"};
    static const char *const x86_64[] = {"x64-gpr", "x64-gpr-nobmi", "x64-avx2", "x64-avx512", "x64-avx512-lanes"};
    for (int i = 0; argc == 2 && i < 3; i++)
        if (strcmp(argv[1], aarch64[i]) == 0)
            return aarch64_round(argv[1]);
    for (int i = 0; argc == 2 && i < 5; i++)
        if (strcmp(argv[1], x86_64[i]) == 0)
            return x86_64_round(argv[1] + 4);
    fprintf(stderr, "usage: sha3_round_words simd|gpr|gpr-spill|x64-gpr|x64-gpr-nobmi|x64-avx2|x64-avx512|x64-avx512-lanes\n");
    return 2;
}
