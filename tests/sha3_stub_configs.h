/*
 * tests/sha3_stub_configs.h — the AArch64 GPR SHA-3 stub's designs that a flag or the platform
 * chooses at generation time, beside the one its variant row names (fp and x18 as temporaries):
 * test_checkasm runs them and test_stub_dump_aarch64 disassembles them beside the table's rows.
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

#endif
