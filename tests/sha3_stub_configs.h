/*
 * tests/sha3_stub_configs.h — every SHA-3 stub configuration the stub tests
 * cover (test_sha3_stubs: checkasm; test_stub_dump: llvm-mc): both variants,
 * both entries, and the GPR stub with fp and x18 as temporaries, under
 * PreserveFramePointer, with x18 reserved, and both.
 */
#ifndef MINIVM_TESTS_SHA3_STUB_CONFIGS_H
#define MINIVM_TESTS_SHA3_STUB_CONFIGS_H

#include "stubgenerator_aarch64.h"

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
