/*
 * tests/stub_dump.h — what the stub-dump tests share (tests/test_stub_dump_aarch64.c,
 * tests/test_stub_dump_x86_64.c): llvm-mc's disassembly of a generated stub, checked for bytes it
 * cannot decode. llvm-mc drops an invalid encoding from stdout with a warning on stderr and still
 * exits 0, so both streams are read. Each test counts the instructions it cares about in the
 * lines.
 */
#ifndef MINIVM_TESTS_STUB_DUMP_H
#define MINIVM_TESTS_STUB_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool stub_dump_have_llvm_mc(void);

/* Skip the calling test (cmocka's skip) when llvm-mc is not installed. */
void stub_dump_skip_without_llvm_mc(void);

/*
 * `llvm-mc --disassemble OPTIONS` on the n bytes at code (line_bytes of them a line of its input:
 * 4, an AArch64 word): fails the test, naming name, on any line llvm-mc writes to stderr or a
 * non-zero exit; else calls line(ctx, text) for every line of its output but blank ones and
 * directives (".text"), text without the leading blanks.
 */
void stub_dump_disassemble(const char *name, const char *options, const uint8_t *code, size_t n, size_t line_bytes,
                           void (*line)(void *ctx, const char *text), void *ctx);

#endif
