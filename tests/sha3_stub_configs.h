/*
 * tests/sha3_stub_configs.h — the AArch64 SHA-3 stub configurations of the stub tests:
 * a64_sha3_gpr_designs, the GPR stub's designs that a flag or the platform chooses at
 * generation time (its variant table lists only the default one: fp and x18 as temporaries),
 * which test_checkasm runs beside the table's rows; and stub_configs, every configuration
 * test_stub_dump_aarch64 disassembles (both variants, both entries, each of those designs).
 */
#ifndef MINIVM_TESTS_SHA3_STUB_CONFIGS_H
#define MINIVM_TESTS_SHA3_STUB_CONFIGS_H

#include "stubgenerator_aarch64.h"

/* -XX:+PreserveFramePointer keeps fp; a platform that reserves x18 keeps it */
static const struct a64_sha3_design {
    const char *label;
    a64_sha3_config cfg;
} a64_sha3_gpr_designs[] = {
    {"PreserveFramePointer", {.preserve_fp = true}},
    {"r18 reserved", {.r18_reserved = true}},
    {"PreserveFramePointer r18 reserved", {.preserve_fp = true, .r18_reserved = true}},
};

typedef struct stub_config {
    const char *name;
    a64_sha3_config cfg;
} stub_config;

static const stub_config stub_configs[] = {
    {"simd", {.simd = true}},
    {"simd MB", {.simd = true, .multi_block = true}},
    {"gpr", {.simd = false}},
    {"gpr MB", {.multi_block = true}},
    {"gpr PreserveFramePointer", {.preserve_fp = true}},
    {"gpr MB PreserveFramePointer", {.multi_block = true, .preserve_fp = true}},
    {"gpr r18 reserved", {.r18_reserved = true}},
    {"gpr MB r18 reserved", {.multi_block = true, .r18_reserved = true}},
    {"gpr MB PreserveFramePointer r18 reserved", {.multi_block = true, .preserve_fp = true, .r18_reserved = true}},
};
#define NSTUB_CONFIGS (int)(sizeof stub_configs / sizeof stub_configs[0])

#endif
