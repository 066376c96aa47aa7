/*
 * tests/test_sha3_select.c — -XX:SHA3IntrinsicPolicy=measure's logic
 * (stubs/sha3_select.c) on fixed timings, without timing anything: the
 * fastest wins, a lead inside the noise keeps the static choice, a variant
 * that failed to generate never wins, a single candidate, none at all; and
 * which variants a user's flags leave as candidates. The whole mechanism
 * on this host (the table, the flags' origins, no variant the CPU lacks)
 * is in test_emulation.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "flags.h"
#include "sha3_select.h"
#include "stub_arch.h"

static sha3_trial trial(double median, bool generated)
{
    sha3_trial t;
    memset(&t, 0, sizeof t);
    t.median = median;
    t.generated = generated;
    return t;
}

static void fastest_wins(void **state)
{
    (void)state;
    sha3_trial t[] = {trial(300, true), trial(200, true), trial(250, true)};
    assert_int_equal(sha3_select_decide(t, 3, 0, 0.05), 1);  /* 50 % ahead of the static choice */
    assert_int_equal(sha3_select_decide(t, 3, -1, 0.05), 1); /* no static choice among them */
    assert_int_equal(sha3_select_decide(t, 3, 1, 0.05), 1);  /* the static choice is the fastest */
}

static void noise_keeps_the_static_choice(void **state)
{
    (void)state;
    sha3_trial t[] = {trial(104, true), trial(100, true)};
    assert_int_equal(sha3_select_decide(t, 2, 0, 0.05), 0);  /* 4 % behind: inside the noise */
    assert_int_equal(sha3_select_decide(t, 2, 0, 0.03), 1);  /* with 3 % noise it is a real lead */
    sha3_trial tie[] = {trial(100, true), trial(100, true)};
    assert_int_equal(sha3_select_decide(tie, 2, 1, 0.05), 1); /* a tie: the static choice */
    assert_int_equal(sha3_select_decide(tie, 2, 0, 0.0), 0);
    sha3_trial edge[] = {trial(105, true), trial(100, true)};
    assert_int_equal(sha3_select_decide(edge, 2, 0, 0.05), 0); /* exactly 5 %: still noise */
    sha3_trial over[] = {trial(105.1, true), trial(100, true)};
    assert_int_equal(sha3_select_decide(over, 2, 0, 0.05), 1);
}

static void the_trials_spread_widens_the_noise(void **state)
{
    (void)state;
    sha3_trial t[] = {trial(110, true), trial(100, true)};
    assert_int_equal(sha3_select_decide(t, 2, 0, 0.05), 1); /* a 10 % lead, quiet trials */
    t[1].spread = 0.2;                                      /* the winner's trials spread by 20 % */
    assert_int_equal(sha3_select_decide(t, 2, 0, 0.05), 0);
    t[1].spread = 0.0;
    t[0].spread = 0.12; /* the static choice's own trials: as good */
    assert_int_equal(sha3_select_decide(t, 2, 0, 0.05), 0);
    t[0].spread = 0.08;
    assert_int_equal(sha3_select_decide(t, 2, 0, 0.05), 1);
}

static void failed_generation_never_wins(void **state)
{
    (void)state;
    sha3_trial t[] = {trial(0, false), trial(300, true), trial(280, true)};
    assert_int_equal(sha3_select_decide(t, 3, -1, 0.05), 2);
    assert_int_equal(sha3_select_decide(t, 3, 0, 0.05), 2); /* the static choice failed: the fastest */
    sha3_trial none[] = {trial(0, false), trial(0, false)};
    assert_int_equal(sha3_select_decide(none, 2, 0, 0.05), -1);
    assert_int_equal(sha3_select_decide(none, 0, -1, 0.05), -1);
}

static void single_candidate(void **state)
{
    (void)state;
    sha3_trial t[] = {trial(900, true)};
    assert_int_equal(sha3_select_decide(t, 1, 0, 0.05), 0);
    assert_int_equal(sha3_select_decide(t, 1, -1, 0.05), 0);
}

/* The x86-64 table's rows, whatever the host: a user's flag removes the variants that would override it. */
static void users_flags_limit_the_candidates(void **state)
{
    (void)state;
    const stub_variant *gpr = stub_variant_named(&x64_stub_ops, STUB_FAMILY_SHA3, "gpr");
    const stub_variant *avx2 = stub_variant_named(&x64_stub_ops, STUB_FAMILY_SHA3, "avx2");
    const stub_variant *lanes = stub_variant_named(&x64_stub_ops, STUB_FAMILY_SHA3, "avx512-lanes");
    const stub_variant *nobmi = stub_variant_named(&x64_stub_ops, STUB_FAMILY_SHA3, "gpr-nobmi");
    assert_non_null(gpr);
    assert_non_null(avx2);
    assert_non_null(lanes);
    assert_non_null(nobmi);

    flags_init(FLAG_ARCH_X86_64);
    assert_true(sha3_select_respects_user(gpr) && sha3_select_respects_user(avx2) &&
                sha3_select_respects_user(lanes) && sha3_select_respects_user(nobmi)); /* nothing set */

    assert_true(flag_process_argument("-UseSIMDForSHA3Intrinsic", false, FLAG_ORIGIN_COMMAND_LINE, stderr));
    assert_true(sha3_select_respects_user(gpr));
    assert_true(sha3_select_respects_user(nobmi));
    assert_false(sha3_select_respects_user(avx2));
    assert_false(sha3_select_respects_user(lanes));

    flags_init(FLAG_ARCH_X86_64);
    assert_true(flag_process_argument("UseAVX=2", false, FLAG_ORIGIN_ENVIRON, stderr)); /* MINIVM_TOOL_OPTIONS */
    assert_true(sha3_select_respects_user(avx2));
    assert_false(sha3_select_respects_user(lanes));
    assert_true(sha3_select_respects_user(gpr)); /* names no UseAVX */

    flags_init(FLAG_ARCH_X86_64);
    assert_true(flag_process_argument("SHA3AVX512Design=rows", false, FLAG_ORIGIN_CONFIG_FILE, stderr));
    assert_false(sha3_select_respects_user(lanes));

    flags_init(FLAG_ARCH_X86_64);
    assert_true(flag_process_argument("-UseBMI2Instructions", false, FLAG_ORIGIN_COMMAND_LINE, stderr));
    assert_false(sha3_select_respects_user(gpr));
    assert_true(sha3_select_respects_user(nobmi));

    /* a flag the target's table lacks (UseAVX on AArch64): never a candidate */
    flags_init(FLAG_ARCH_AARCH64);
    assert_false(sha3_select_respects_user(avx2));
}

/* The settings as -XX: options, in their order (PrintStubVariants' last column, the runner's command lines). */
static void settings_print_as_options(void **state)
{
    (void)state;
    char buf[256];
    assert_string_equal(stub_variant_options(stub_variant_named(&x64_stub_ops, STUB_FAMILY_SHA3, "avx512-lanes"), buf,
                                             sizeof buf),
                        "-XX:+UseSHA3Intrinsics -XX:+UseSIMDForSHA3Intrinsic -XX:SHA3AVX512Design=lanes -XX:UseAVX=3");
    assert_string_equal(stub_variant_options(stub_variant_named(&a64_stub_ops, STUB_FAMILY_SHA3, "gpr"), buf,
                                             sizeof buf),
                        "-XX:+UseSHA3Intrinsics -XX:-UseSIMDForSHA3Intrinsic");
    assert_string_equal(stub_variant_deciding_flag(stub_variant_named(&x64_stub_ops, STUB_FAMILY_SHA3, "avx2")),
                        "UseAVX");
    assert_null(stub_variant_named(&x64_stub_ops, STUB_FAMILY_SHA1, "gpr"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fastest_wins),
        cmocka_unit_test(noise_keeps_the_static_choice),
        cmocka_unit_test(the_trials_spread_widens_the_noise),
        cmocka_unit_test(failed_generation_never_wins),
        cmocka_unit_test(single_candidate),
        cmocka_unit_test(users_flags_limit_the_candidates),
        cmocka_unit_test(settings_print_as_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
