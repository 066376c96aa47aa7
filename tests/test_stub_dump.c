/*
 * tests/test_stub_dump.c — every generated SHA-3 stub (both variants, both
 * entries, every GPR configuration) re-disassembled by llvm-mc on any host:
 * zero invalid words (llvm-mc drops an invalid word from stdout with a
 * warning on stderr and still exits 0, so both streams are checked,
 * llvm-mc's -disassemble), one instruction per word, and the instruction mix each
 * variant promises: the GPR stub has no SHA3 or SIMD instruction at all, the
 * SIMD stub has the round's 10 eor3, 5 rax1, 24 xar, 25 bcax. Exits 77
 * (Meson's "skipped") when llvm-mc is not installed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sha3_stub_configs.h"
#include "stubgenerator_aarch64.h"

typedef struct mix {
    int insns;
    int eor3, rax1, xar, bcax;
    int simd;      /* instructions naming a vector register (v.., .16b, .2d ...) */
    int uses_x18, uses_fp;
} mix;

/* Disassemble words with llvm-mc; counts what it printed, fails on any warning. */
static mix disassemble(const char *name, const uint32_t *w, size_t n)
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
        fprintf(f, "0x%02x 0x%02x 0x%02x 0x%02x\n", w[i] & 0xff, (w[i] >> 8) & 0xff, (w[i] >> 16) & 0xff,
                w[i] >> 24);
    fclose(f);
    snprintf(cmd, sizeof cmd, "llvm-mc --disassemble -triple=aarch64 -mattr=+sha3 %s >%s 2>%s", in, out, err);
    int rc = system(cmd);

    mix m = {0};
    char line[512];
    f = fopen(err, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        fail_msg("%s: llvm-mc: %s", name, line);
    fclose(f);
    assert_int_equal(rc, 0);
    f = fopen(out, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        char *p = line + strspn(line, " \t");
        if (*p == '\0' || *p == '\n' || *p == '.')
            continue; /* .text */
        m.insns++;
        char mnem[16] = "";
        sscanf(p, "%15s", mnem);
        m.eor3 += strcmp(mnem, "eor3") == 0;
        m.rax1 += strcmp(mnem, "rax1") == 0;
        m.xar += strcmp(mnem, "xar") == 0;
        m.bcax += strcmp(mnem, "bcax") == 0;
        const char *ops = p + strlen(mnem);
        m.simd += strstr(ops, "v") != NULL && strstr(ops, ".") != NULL;
        m.uses_x18 += strstr(ops, "x18") != NULL || strstr(ops, "w18") != NULL;
        m.uses_fp += strstr(ops, "x29") != NULL || strstr(ops, "fp") != NULL;
    }
    fclose(f);
    unlink(in);
    unlink(out);
    unlink(err);
    rmdir(dir);
    if ((size_t)m.insns != n)
        fail_msg("%s: %zu words, llvm-mc printed %d instructions", name, n, m.insns);
    return m;
}

static void test_dumps(void **state)
{
    (void)state;
    for (int c = 0; c < NSTUB_CONFIGS; c++) {
        const stub_config *dc = &stub_configs[c];
        uint32_t words[2048];
        a64_asm as;
        a64_asm_init(&as, words, 2048);
        as.fatal = false;
        a64_generate_sha3_implCompress(&as, &dc->cfg);
        if (a64_asm_failed(&as))
            fail_msg("%s: %s", dc->name, as.errmsg);
        mix m = disassemble(dc->name, words, a64_asm_pc(&as));
        print_message("%-42s %4d instructions\n", dc->name, m.insns);
        if (dc->cfg.simd) {
            assert_int_equal(m.eor3, 10);
            assert_int_equal(m.rax1, 5);
            assert_int_equal(m.xar, 24);
            assert_int_equal(m.bcax, 25);
        } else {
            if (m.eor3 + m.rax1 + m.xar + m.bcax + m.simd != 0)
                fail_msg("%s: the GPR stub uses SHA3/SIMD instructions (%d eor3, %d rax1, %d xar, %d bcax, "
                         "%d vector)", dc->name, m.eor3, m.rax1, m.xar, m.bcax, m.simd);
            /* x18 only where the platform allows it; fp only in the frame record under PreserveFramePointer */
            if (dc->cfg.r18_reserved)
                assert_int_equal(m.uses_x18, 0);
            else if (!dc->cfg.preserve_fp)
                assert_true(m.uses_x18 > 0);
            if (dc->cfg.preserve_fp)
                assert_int_equal(m.uses_fp, 3); /* stp fp, lr / mov fp, sp / ldp fp, lr */
        }
    }
}

int main(void)
{
    if (system("command -v llvm-mc >/dev/null 2>&1") != 0) {
        fprintf(stderr, "llvm-mc not installed: skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dumps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
