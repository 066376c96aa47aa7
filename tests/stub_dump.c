/*
 * tests/stub_dump.c — llvm-mc's disassembly for the stub-dump tests (stub_dump.h).
 */
#include "stub_dump.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

bool stub_dump_have_llvm_mc(void) { return system("llvm-mc --version >/dev/null 2>&1") == 0; }

void stub_dump_skip_without_llvm_mc(void)
{
    if (!stub_dump_have_llvm_mc()) {
        print_message("llvm-mc is not installed: skipped\n");
        skip();
    }
}

void stub_dump_disassemble(const char *name, const char *options, const uint8_t *code, size_t n, size_t line_bytes,
                           void (*line)(void *ctx, const char *text), void *ctx)
{
    char dir[] = "/tmp/minivm_stub_dumpXXXXXX";
    assert_non_null(mkdtemp(dir));
    char in[64], out[64], err[64], cmd[512];
    snprintf(in, sizeof in, "%s/in", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "0x%02x%c", code[i], i % line_bytes == line_bytes - 1 || i == n - 1 ? '\n' : ' ');
    fclose(f);
    snprintf(cmd, sizeof cmd, "llvm-mc --disassemble %s %s >%s 2>%s", options, in, out, err);
    int rc = system(cmd);

    char text[1024];
    f = fopen(err, "r");
    assert_non_null(f);
    while (fgets(text, sizeof text, f))
        fail_msg("%s: llvm-mc: %s", name, text);
    fclose(f);
    assert_int_equal(rc, 0);
    f = fopen(out, "r");
    assert_non_null(f);
    while (fgets(text, sizeof text, f)) {
        const char *p = text + strspn(text, " \t");
        if (*p != '\0' && *p != '\n' && *p != '.') /* not .text */
            line(ctx, p);
    }
    fclose(f);
    unlink(in);
    unlink(out);
    unlink(err);
    rmdir(dir);
}
