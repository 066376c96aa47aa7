/*
 * cpu/disassembler.c — disassembly through LLVM's C API
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

static bool load_api(llvm_api *api, const char *target, char *err, size_t errlen)
{
    /* Kept loaded until exit (no dlclose): LLVM's static destructors and its
       target registry are not meant to be unloaded and loaded again. */
    void *lib = dlopen(MINIVM_LLVM_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(err, errlen, "%s", dlerror());
        return false;
    }
    /* Only the target printed is registered (not LLVMInitializeAll*). */
    char name[64];
    snprintf(name, sizeof name, "LLVMInitialize%sTargetInfo", target);
    LOOKUP(init_target_info, name);
    snprintf(name, sizeof name, "LLVMInitialize%sTargetMC", target);
    LOOKUP(init_target_mc, name);
    snprintf(name, sizeof name, "LLVMInitialize%sDisassembler", target);
    LOOKUP(init_disassembler, name);
    LOOKUP(create, "LLVMCreateDisasmCPUFeatures");
    LOOKUP(disasm, "LLVMDisasmInstruction");
    LOOKUP(dispose, "LLVMDisasmDispose");
    return true;
}
#undef LOOKUP

stub_disasm *stub_disasm_open(const char *target, const char *triple, const char *features, char *err,
                              size_t errlen)
{
    llvm_api api;
    if (errlen)
        err[0] = '\0';
    if (!load_api(&api, target, err, errlen))
        return NULL;
    api.init_target_info();
    api.init_target_mc();
    api.init_disassembler();
    /* The features the stubs may use: LLVM does not infer them from an empty
       CPU name (without +sha3, eor3/rax1/xar/bcax are "invalid", as with llvm-mc). */
    LLVMDisasmContextRef ctx = api.create(triple, "", features, NULL, 0, NULL, NULL);
    stub_disasm *d = ctx ? malloc(sizeof *d) : NULL;
    if (!d) {
        if (ctx)
            api.dispose(ctx);
        snprintf(err, errlen, "no %s disassembler in %s", target, MINIVM_LLVM_LIBRARY);
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

size_t stub_disasm_insn(stub_disasm *d, const uint8_t *code, size_t avail, uint64_t pc, char *out, size_t len)
{
    if (len)
        out[0] = '\0';
    if (!d || len == 0)
        return 0;
    uint8_t bytes[16]; /* LLVM takes a mutable buffer; no instruction is longer than 15 bytes */
    size_t n = avail < sizeof bytes ? avail : sizeof bytes;
    memcpy(bytes, code, n);
    char raw[256];
    size_t got = d->api.disasm(d->ctx, bytes, n, pc, raw, sizeof raw);
    if (got == 0) {
        snprintf(out, len, "<invalid>");
        return 0;
    }
    tidy(raw, out, len);
    return got;
}

#else /* no LLVM: every word is printed, its text column stays empty */

bool stub_disasm_available(void) { return false; }

stub_disasm *stub_disasm_open(const char *target, const char *triple, const char *features, char *err,
                              size_t errlen)
{
    (void)target, (void)triple, (void)features;
    if (errlen)
        err[0] = '\0';
    return NULL;
}

void stub_disasm_close(stub_disasm *d) { (void)d; }

size_t stub_disasm_insn(stub_disasm *d, const uint8_t *code, size_t avail, uint64_t pc, char *out, size_t len)
{
    (void)d, (void)code, (void)avail, (void)pc;
    if (len)
        out[0] = '\0';
    return 0;
}

#endif
