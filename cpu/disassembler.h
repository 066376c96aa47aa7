/*
 * cpu/disassembler.h — disassembly for -XX:+PrintStubCode, for any target
 * LLVM knows (AArch64 and x86-64 here)
 * (HotSpot's Disassembler, which loads hsdis on demand; minivm loads LLVM's
 * C disassembler, llvm-c/Disassembler.h, the same way).
 *
 * Optional: the Meson feature option llvm_disassembler (auto) decides
 * whether the build knows an LLVM library. The library is opened with
 * dlopen only when something is printed: linked into minivm, its 110 MB
 * would cost every run about 50 MB of RSS (its relocated pages). A build
 * without LLVM (the AArch64 cross build has no arm64 LLVM, or
 * -Dllvm_disassembler=disabled) still prints every stub word, with an
 * empty text column.
 */
#ifndef MINIVM_DISASSEMBLER_H
#define MINIVM_DISASSEMBLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct stub_disasm stub_disasm;

/* Was this build configured with LLVM's disassembler? */
bool stub_disasm_available(void);

/* A disassembler for LLVM target `target` ("AArch64", "X86": the name in
   LLVMInitialize<target>TargetInfo), triple and features ("+sha3");
   NULL without LLVM (err "") or when the library or the target cannot be
   loaded (why in err). */
stub_disasm *stub_disasm_open(const char *target, const char *triple, const char *features, char *err,
                              size_t errlen);
void stub_disasm_close(stub_disasm *d);

/*
 * The instruction at code (avail bytes) at offset pc (branch targets are
 * shown relative, as LLVM prints them): its length, and its text tidied:
 * the mnemonic padded to a column, no tabs ("eor3    v0.16b, v1.16b,
 * v2.16b, v3.16b"). 0 and "<invalid>" for bytes that are no instruction;
 * 0 and "" when d is NULL.
 */
size_t stub_disasm_insn(stub_disasm *d, const uint8_t *code, size_t avail, uint64_t pc, char *out, size_t len);

#endif
