/*
 * stubs/disassembler.h — AArch64 disassembly for -XX:+PrintStubCode
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

/* An AArch64 (+sha3) disassembler; NULL without LLVM (err "") or when the
   library cannot be loaded (why in err). */
stub_disasm *stub_disasm_open(char *err, size_t errlen);
void stub_disasm_close(stub_disasm *d);

/*
 * The text of one instruction word at offset pc (branch targets are shown
 * relative, as LLVM prints them), tidied: the mnemonic padded to a column,
 * no tabs ("eor3    v0.16b, v1.16b, v2.16b, v3.16b"). "<invalid>" for a
 * word that is no instruction; "" when d is NULL. Returns out.
 */
const char *stub_disasm_word(stub_disasm *d, uint32_t word, uint64_t pc, char *out, size_t len);

#endif
