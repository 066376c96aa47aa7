/*
 * stubs/disassembler.c — AArch64 disassembly through LLVM's C API
 * (llvm-c/Disassembler.h), loaded with dlopen on first use, or nothing.
 * stubs/meson.build sets MINIVM_LLVM_LIBRARY (the shared library's real
 * path) when the llvm_disassembler feature found a usable LLVM; the headers
 * give the functions' types, dlsym their addresses.
 */
#include "disassembler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(MINIVM_LLVM_LIBRARY)
#include <dlfcn.h>
#include <llvm-c/Disassembler.h>

/* The LLVM functions used, by name: ours, from the library. */
typedef struct llvm_api {
    void (*init_target_info)(void);
    void (*init_target_mc)(void);
    void (*init_disassembler)(void);
    LLVMDisasmContextRef (*create)(const char *triple, const char *cpu, const char *features, void *info,
                                   int tag_type, LLVMOpInfoCallback get_op_info,
                                   LLVMSymbolLookupCallback symbol_lookup);
    size_t (*disasm)(LLVMDisasmContextRef dc, uint8_t *bytes, uint64_t size, uint64_t pc, char *out, size_t len);
    void (*dispose)(LLVMDisasmContextRef dc);
} llvm_api;

struct stub_disasm {
    llvm_api api;
    LLVMDisasmContextRef ctx;
};

bool stub_disasm_available(void) { return true; }

/* dlsym's void * to a function pointer: not ISO C, the POSIX contract of dlsym. */
#define LOOKUP(field, symbol)                                                        \
    do {                                                                             \
        void *sym_ = dlsym(lib, symbol);                                             \
        if (!sym_) {                                                                 \
            snprintf(err, errlen, "%s has no %s", MINIVM_LLVM_LIBRARY, symbol);       \
            return false;                                                            \
        }                                                                            \
        memcpy(&api->field, &sym_, sizeof sym_);                                     \
    } while (0)

static bool load_api(llvm_api *api, char *err, size_t errlen)
{
    /* Kept loaded until exit (no dlclose): LLVM's static destructors and its
       target registry are not meant to be unloaded and loaded again. */
    void *lib = dlopen(MINIVM_LLVM_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(err, errlen, "%s", dlerror());
        return false;
    }
    /* Only AArch64 is needed, so only it is registered (not LLVMInitializeAll*). */
    LOOKUP(init_target_info, "LLVMInitializeAArch64TargetInfo");
    LOOKUP(init_target_mc, "LLVMInitializeAArch64TargetMC");
    LOOKUP(init_disassembler, "LLVMInitializeAArch64Disassembler");
    LOOKUP(create, "LLVMCreateDisasmCPUFeatures");
    LOOKUP(disasm, "LLVMDisasmInstruction");
    LOOKUP(dispose, "LLVMDisasmDispose");
    return true;
}
#undef LOOKUP

stub_disasm *stub_disasm_open(char *err, size_t errlen)
{
    llvm_api api;
    if (errlen)
        err[0] = '\0';
    if (!load_api(&api, err, errlen))
        return NULL;
    api.init_target_info();
    api.init_target_mc();
    api.init_disassembler();
    /* +sha3: LLVM does not infer it from an empty CPU name, and without it
       eor3/rax1/xar/bcax are "invalid" (REFERENCE §6, as with llvm-mc). */
    LLVMDisasmContextRef ctx = api.create("aarch64-linux-gnu", "", "+sha3", NULL, 0, NULL, NULL);
    stub_disasm *d = ctx ? malloc(sizeof *d) : NULL;
    if (!d) {
        if (ctx)
            api.dispose(ctx);
        snprintf(err, errlen, "no AArch64 disassembler in %s", MINIVM_LLVM_LIBRARY);
        return NULL;
    }
    d->api = api;
    d->ctx = ctx;
    return d;
}

void stub_disasm_close(stub_disasm *d)
{
    if (!d)
        return;
    d->api.dispose(d->ctx);
    free(d);
}

/* Column the operands start at: the SHA-3 stubs' longest mnemonics ("ld1r",
   "bcax", "fmov", "b.ne") fit in 7 characters plus a blank. */
#define MNEMONIC_COLUMN 8

/* LLVM prints "\tmnemonic\toperands": no leading tab, the operands aligned. */
static void tidy(const char *raw, char *out, size_t len)
{
    size_t o = 0;
    bool in_mnemonic = true;
    while (*raw == '\t' || *raw == ' ')
        raw++;
    for (; *raw && o + 1 < len; raw++) {
        if (*raw != '\t') {
            out[o++] = *raw;
            continue;
        }
        if (in_mnemonic) {
            do
                out[o++] = ' ';
            while (o < MNEMONIC_COLUMN && o + 1 < len);
            in_mnemonic = false;
        } else {
            out[o++] = ' ';
        }
    }
    out[o] = '\0';
}

const char *stub_disasm_word(stub_disasm *d, uint32_t word, uint64_t pc, char *out, size_t len)
{
    if (len == 0)
        return out;
    out[0] = '\0';
    if (!d)
        return out;
    /* AArch64 instructions are little-endian words whatever the host's byte order. */
    uint8_t bytes[4] = {(uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16), (uint8_t)(word >> 24)};
    char raw[256];
    if (d->api.disasm(d->ctx, bytes, sizeof bytes, pc, raw, sizeof raw) != sizeof bytes) {
        snprintf(out, len, "<invalid>");
        return out;
    }
    tidy(raw, out, len);
    return out;
}

#else /* no LLVM: every word is printed, its text column stays empty */

bool stub_disasm_available(void) { return false; }

stub_disasm *stub_disasm_open(char *err, size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    return NULL;
}

void stub_disasm_close(stub_disasm *d) { (void)d; }

const char *stub_disasm_word(stub_disasm *d, uint32_t word, uint64_t pc, char *out, size_t len)
{
    (void)d, (void)word, (void)pc;
    if (len)
        out[0] = '\0';
    return out;
}

#endif
