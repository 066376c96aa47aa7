/*
 * stubs/x86_64/stubs_x86_64.c — x86-64's part of the stub plumbing
 * (stub_arch.h): no generator yet, so every family's choice is "none" and
 * the ergonomics hook turns its flag off with HotSpot's warning; the code
 * format and the crash handler's view of an x86-64 Linux signal context.
 */
#if defined(__x86_64__) && defined(__linux__)
#define _GNU_SOURCE /* REG_RIP in <sys/ucontext.h> */
#include <ucontext.h>
#endif

#include "stub_arch.h"

#include <stdio.h>

#include "crash_handler.h"
#include "ergonomics_x86_64.h"
#include "flags.h"

static stub_choice choose(stub_family family, const cpu_info *host)
{
    (void)family, (void)host;
    return (stub_choice){NULL, NULL, NULL, NULL};
}

static bool generate(stub_id id, const char *variant, uint8_t *code, size_t room, size_t *entry, size_t *size,
                     char *err, size_t errlen)
{
    (void)id, (void)variant, (void)code, (void)room, (void)entry, (void)size;
    snprintf(err, errlen, "no x86-64 generator");
    return false;
}

#if defined(__x86_64__) && defined(__linux__)
static uintptr_t fault_pc(const void *context)
{
    const ucontext_t *uc = context;
    return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

/* The sixteen GPRs, four a line: "#   rax=0x... rbx=..." */
static void crash_registers(const void *context, char *buf, size_t len)
{
    static const struct { const char *name; int reg; } regs[16] = {
        {"rax", REG_RAX}, {"rbx", REG_RBX}, {"rcx", REG_RCX}, {"rdx", REG_RDX}, {"rsi", REG_RSI}, {"rdi", REG_RDI},
        {"rbp", REG_RBP}, {"rsp", REG_RSP}, {"r8", REG_R8},   {"r9", REG_R9},   {"r10", REG_R10}, {"r11", REG_R11},
        {"r12", REG_R12}, {"r13", REG_R13}, {"r14", REG_R14}, {"r15", REG_R15}};
    const ucontext_t *uc = context;
    size_t pos = 0;
    for (int r = 0; r < 16; r++) {
        stub_crash_put_str(buf, len, &pos, r % 4 == 0 ? "#   " : " ");
        stub_crash_put_str(buf, len, &pos, regs[r].name);
        stub_crash_put_str(buf, len, &pos, "=");
        stub_crash_put_hex(buf, len, &pos, (uintptr_t)uc->uc_mcontext.gregs[regs[r].reg], 16);
        if (r % 4 == 3)
            stub_crash_put_str(buf, len, &pos, "\n");
    }
}
#define HOST_FAULT_PC fault_pc
#define HOST_CRASH_REGISTERS crash_registers
#else
#define HOST_FAULT_PC NULL
#define HOST_CRASH_REGISTERS NULL
#endif

const stub_arch_ops x64_stub_ops = {
    .arch = CPU_ARCH_X86_64,
    .flag_arch = FLAG_ARCH_X86_64,
    .code = {.llvm_target = "X86", .llvm_triple = "x86_64-linux-gnu", .llvm_features = "", .insn_size = 0},
    .ergonomics = x64_sha_ergonomics,
    .choose = choose,
    .generate = generate,
    .fault_pc = HOST_FAULT_PC,
    .crash_registers = HOST_CRASH_REGISTERS,
};
