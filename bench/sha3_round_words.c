/*
 * bench/sha3_round_words.c — print one Keccak round of a SHA-3 stub variant
 * (the stub's loop body, loop control included, as the generator emits it)
 * as little-endian bytes for `llvm-mc --disassemble`. bench/stub_mca.sh
 * turns it into assembly text and asks llvm-mca how many cycles a round
 * takes on each CPU model.
 *
 *   sha3_round_words simd|gpr|gpr-spill
 *
 * gpr-spill is the GPR round under PreserveFramePointer (or x18 reserved):
 * two lanes spilled around theta instead of fp and x18 as temporaries.
 */
#include <stdio.h>
#include <string.h>

#include "stubgenerator_aarch64.h"

int main(int argc, char **argv)
{
    a64_sha3_config cfg = {0};
    if (argc != 2 || (strcmp(argv[1], "simd") && strcmp(argv[1], "gpr") && strcmp(argv[1], "gpr-spill"))) {
        fprintf(stderr, "usage: sha3_round_words simd|gpr|gpr-spill\n");
        return 2;
    }
    cfg.simd = strcmp(argv[1], "simd") == 0;
    cfg.preserve_fp = strcmp(argv[1], "gpr-spill") == 0;
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
