/*
 * tests/test_flags.c — the -XX flags (suite 'cli'): every message of
 * HotSpot's argument processing (runtime/arguments.cpp, jvmFlag.cpp) with its exit status, the
 * unlock-order rule, IgnoreUnrecognizedVMOptions, settings files,
 * MINIVM_TOOL_OPTIONS, origins, PrintFlagsFinal/Initial/Ranges column for
 * column, and the flag API (FLAG_SET_DEFAULT, FLAG_SET_ERGO, vm_warning,
 * the fuzzy match) called directly.
 *
 * Each table case runs build/minivm as a child process. "@file" stands for
 * the case's settings file (written to a temporary file), "@prog" for a
 * program returning 42. The expected texts are HotSpot 25's, checked against
 * the project's HotSpot 25 (scripts/oracle), with "Java Virtual Machine" replaced by
 * "minivm" in the closing lines. Cases that depend on the architecture name
 * a CPU with -XX:EmulateCPU, so they hold on any host.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "flags.h"
#include "testutil.h"

enum { EXACT = TU_EXACT, PREFIX = TU_PREFIX, CONTAINS = TU_CONTAINS, LACKS = TU_LACKS };

typedef struct flag_case {
    const char *name;
    const char *env;      /* MINIVM_TOOL_OPTIONS, or NULL: not set */
    const char *file;     /* the settings file's text ("@file"), or NULL */
    const char *argv[12]; /* launcher arguments */
    int status;
    int out_mode;
    const char *out;      /* expected stdout */
    int err_mode;
    const char *err;      /* expected stderr */
} flag_case;

#define FATAL_TAIL TU_FATAL_TAIL
#define VERSION TU_VERSION
#define DIAGNOSTIC_LOCKED(name) TU_DIAGNOSTIC_LOCKED(name)
#define EXPERIMENTAL_LOCKED(name) TU_EXPERIMENTAL_LOCKED(name)
#define IMPROPER(option) TU_IMPROPER(option)
#define PICKED_UP "Picked up MINIVM_TOOL_OPTIONS: "

#define UNLOCK       "-XX:+UnlockDiagnosticVMOptions"
/* minivm's UnlockDiagnosticVMOptions is true (HotSpot's trueInDebug, as in a debug
   build); this gives a product build's locking, whose texts are HotSpot 25's */
#define PRODUCT      "-XX:-UnlockDiagnosticVMOptions"
#define UNLOCK_EXP   "-XX:+UnlockExperimentalVMOptions"
#define IGNORE       "-XX:+IgnoreUnrecognizedVMOptions"
#define FINAL        "-XX:+PrintFlagsFinal"
#define ON_AARCH64   "-XX:EmulateCPU=neoverse-n1" /* after UNLOCK */
#define ON_X86_64    "-XX:EmulateCPU=zen3"

/* PrintFlagsFinal lines (0-based columns: name 10, " =" 50, value 53, kind ends 104, origin 105) */
#define L_TIERED_DEFAULT                                                                                          \
    "     intx TieredStopAtLevel                        = 4                                         {product} " \
    "{default}\n"
#define L_TIERED_CMDLINE_3                                                                                        \
    "     intx TieredStopAtLevel                        = 3                                         {product} " \
    "{command line}\n"
#define L_TIERED_CMDLINE_2                                                                                        \
    "     intx TieredStopAtLevel                        = 2                                         {product} " \
    "{command line}\n"
#define L_TIERED_CONFIG_2                                                                                         \
    "     intx TieredStopAtLevel                        = 2                                         {product} " \
    "{config file}\n"
#define L_TIERED_ENV_1                                                                                            \
    "     intx TieredStopAtLevel                        = 1                                         {product} " \
    "{environment}\n"

static const flag_case cases[] = {
    /* ---- HotSpot 25's argument errors, word for word ---- */
    {"locked_diagnostic_flag", NULL, NULL, {PRODUCT, "-XX:+UseSHA3Intrinsics", "-version"}, 1, EXACT, "", EXACT,
     DIAGNOSTIC_LOCKED("UseSHA3Intrinsics") IMPROPER("UseSHA3Intrinsics") FATAL_TAIL},
    /* the default: diagnostic flags are unlocked (trueInDebug), so the design card's lines work as written */
    {"diagnostic_unlocked_by_default", NULL, NULL,
     {"-XX:-UseSHA", "-XX:-UseSHA3Intrinsics", "-XX:-UseMD5Intrinsics", "-XX:+PrintStubCode", "-version"}, 0,
     EXACT, "", EXACT, VERSION},
    {"relock_after_the_flag_is_too_late", NULL, NULL, {"-XX:-UseSHA3Intrinsics", PRODUCT, "-version"}, 0, EXACT, "",
     EXACT, VERSION},
    {"unrecognized_flag", NULL, NULL, {"-XX:Foo", "-version"}, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'Foo'\n" FATAL_TAIL},
    {"did_you_mean_bool", NULL, NULL, {"-XX:+UseSHAA", "-version"}, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'UseSHAA'\nDid you mean '(+/-)UseSHA'?\n" FATAL_TAIL},
    {"missing_plus_minus", NULL, NULL, {"-XX:UseSHA=3", "-version"}, 1, EXACT, "", EXACT,
     "Missing +/- setting for VM option 'UseSHA=3'\n" FATAL_TAIL},
    {"unexpected_plus_minus", NULL, NULL, {"-XX:+TieredStopAtLevel", "-version"}, 1, EXACT, "", EXACT,
     "Unexpected +/- setting in VM option 'TieredStopAtLevel'\n" FATAL_TAIL},
    {"unexpected_plus_minus_string", NULL, NULL, {UNLOCK, "-XX:-EmulateCPU", "-version"}, 1, EXACT, "", EXACT,
     "Unexpected +/- setting in VM option 'EmulateCPU'\n" FATAL_TAIL},
    {"improperly_specified_bad_number", NULL, NULL, {"-XX:TieredStopAtLevel=4x", "-version"}, 1, EXACT, "", EXACT,
     "Improperly specified VM option 'TieredStopAtLevel=4x'\n" FATAL_TAIL},
    {"improperly_specified_fraction", NULL, NULL, {"-XX:TieredStopAtLevel=1.5", "-version"}, 1, EXACT, "", EXACT,
     "Improperly specified VM option 'TieredStopAtLevel=1.5'\n" FATAL_TAIL},
    {"improperly_specified_empty", NULL, NULL, {"-XX:TieredStopAtLevel=", "-version"}, 1, EXACT, "", EXACT,
     "Improperly specified VM option 'TieredStopAtLevel='\n" FATAL_TAIL},
    {"improperly_specified_no_value", NULL, NULL, {"-XX:TieredStopAtLevel", "-version"}, 1, EXACT, "", EXACT,
     "Improperly specified VM option 'TieredStopAtLevel'\n" FATAL_TAIL},
    {"improperly_specified_bool_with_value", NULL, NULL, {"-XX:+UseSHA=1", "-version"}, 1, EXACT, "", EXACT,
     "Improperly specified VM option 'UseSHA=1'\n" FATAL_TAIL},
    {"improperly_specified_negative_unsigned", NULL, NULL, {UNLOCK_EXP, "-XX:CodeCacheSegmentSize=-1", "-version"},
     1, EXACT, "", EXACT, "Improperly specified VM option 'CodeCacheSegmentSize=-1'\n" FATAL_TAIL},
    {"missing_plus_minus_no_value", NULL, NULL, {"-XX:UseSHA", "-version"}, 1, EXACT, "", EXACT,
     "Missing +/- setting for VM option 'UseSHA'\n" FATAL_TAIL},
    /* ---- out of range (jvmFlagAccess range_error, then process_argument's line) ---- */
    {"range_intx_above", NULL, NULL, {"-XX:TieredStopAtLevel=9", "-version"}, 1, EXACT, "", EXACT,
     "intx TieredStopAtLevel=9 is outside the allowed range [ 0 ... 4 ]\n"
     "Improperly specified VM option 'TieredStopAtLevel=9'\n" FATAL_TAIL},
    {"range_intx_below", NULL, NULL, {"-XX:TieredStopAtLevel=-1", "-version"}, 1, EXACT, "", EXACT,
     "intx TieredStopAtLevel=-1 is outside the allowed range [ 0 ... 4 ]\n"
     "Improperly specified VM option 'TieredStopAtLevel=-1'\n" FATAL_TAIL},
    {"range_shows_the_scaled_value", NULL, NULL, {"-XX:TieredStopAtLevel=1k", "-version"}, 1, EXACT, "", EXACT,
     "intx TieredStopAtLevel=1024 is outside the allowed range [ 0 ... 4 ]\n"
     "Improperly specified VM option 'TieredStopAtLevel=1k'\n" FATAL_TAIL},
    {"range_uintx", NULL, NULL, {UNLOCK_EXP, "-XX:CodeCacheSegmentSize=0", "-version"}, 1, EXACT, "", EXACT,
     "uintx CodeCacheSegmentSize=0 is outside the allowed range [ 1 ... 1024 ]\n"
     "Improperly specified VM option 'CodeCacheSegmentSize=0'\n" FATAL_TAIL},
    {"range_pd_flag", NULL, NULL, {"-XX:ThreadStackSize=1T", "-version"}, 1, EXACT, "", EXACT,
     "intx ThreadStackSize=1099511627776 is outside the allowed range [ 0 ... 1048576 ]\n"
     "Improperly specified VM option 'ThreadStackSize=1T'\n" FATAL_TAIL},
    {"range_x86_64_flag", NULL, NULL, {UNLOCK, ON_X86_64, "-XX:UseAVX=4", "-version"}, 1, EXACT, "", EXACT,
     "int UseAVX=4 is outside the allowed range [ 0 ... 3 ]\n"
     "Improperly specified VM option 'UseAVX=4'\n" FATAL_TAIL},
    /* HotSpot 25: a value the C type cannot hold is no value of the flag (17 truncated it) */
    {"int_value_beyond_the_type", NULL, NULL, {UNLOCK, ON_X86_64, "-XX:UseAVX=4294967297", "-version"}, 1, EXACT, "",
     EXACT, "Improperly specified VM option 'UseAVX=4294967297'\n" FATAL_TAIL},
    {"int_value_beyond_the_type_scaled", NULL, NULL, {UNLOCK, ON_X86_64, "-XX:UseAVX=3G", "-version"}, 1, EXACT, "",
     EXACT, "Improperly specified VM option 'UseAVX=3G'\n" FATAL_TAIL},
    {"int_value_at_the_type_minimum", NULL, NULL, {UNLOCK, ON_X86_64, "-XX:UseAVX=-2147483648", "-version"}, 1, EXACT,
     "", EXACT,
     "int UseAVX=-2147483648 is outside the allowed range [ 0 ... 3 ]\n"
     "Improperly specified VM option 'UseAVX=-2147483648'\n" FATAL_TAIL},
    {"intx_value_beyond_the_type", NULL, NULL, {"-XX:TieredStopAtLevel=-9223372036854775809", "-version"}, 1, EXACT,
     "", EXACT, "Improperly specified VM option 'TieredStopAtLevel=-9223372036854775809'\n" FATAL_TAIL},
    {"hex_value_accepted", NULL, NULL, {"-XX:TieredStopAtLevel=0x3", FINAL, "-version"}, 0, CONTAINS,
     L_TIERED_CMDLINE_3, EXACT, VERSION},
    /* ---- the unlock options: kind and order ---- */
    {"unlock_after_the_flag_fails", NULL, NULL, {PRODUCT, "-XX:+UseSHA3Intrinsics", UNLOCK, "-version"}, 1, EXACT, "",
     EXACT, DIAGNOSTIC_LOCKED("UseSHA3Intrinsics") IMPROPER("UseSHA3Intrinsics") FATAL_TAIL},
    /* accepted; zen3 gets minivm's GPR stub (HotSpot 25 would refuse it: its one x86 SHA-3 stub needs AVX-512) */
    {"unlock_before_the_flag_works", NULL, NULL, {UNLOCK, "-XX:EmulateCPU=zen3", "-XX:+UseSHA3Intrinsics", "-version"},
     0, EXACT, "", EXACT, VERSION},
    {"unlock_taken_back", NULL, NULL, {UNLOCK, "-XX:-UnlockDiagnosticVMOptions", "-XX:-UseSHA3Intrinsics", "-version"},
     1, EXACT, "", EXACT, DIAGNOSTIC_LOCKED("UseSHA3Intrinsics") IMPROPER("UseSHA3Intrinsics") FATAL_TAIL},
    {"locked_flag_given_a_value", NULL, NULL, {PRODUCT, "-XX:UnlockDiagnosticVMOptions=1", "-version"}, 1, EXACT, "",
     EXACT, DIAGNOSTIC_LOCKED("UnlockDiagnosticVMOptions") "Missing +/- setting for VM option 'UnlockDiagnosticVMOptions=1'\n" FATAL_TAIL},
    {"locked_minivm_flag", NULL, NULL, {PRODUCT, ON_AARCH64, "-version"}, 1, EXACT, "", EXACT,
     DIAGNOSTIC_LOCKED("EmulateCPU") IMPROPER("EmulateCPU=neoverse-n1") FATAL_TAIL},
    {"locked_experimental_flag", NULL, NULL, {"-XX:CodeCacheSegmentSize=128", "-version"}, 1, EXACT, "", EXACT,
     EXPERIMENTAL_LOCKED("CodeCacheSegmentSize") IMPROPER("CodeCacheSegmentSize=128") FATAL_TAIL},
    {"diagnostic_unlock_does_not_unlock_experimental", NULL, NULL, {UNLOCK, "-XX:CodeCacheSegmentSize=128", "-version"},
     1, EXACT, "", EXACT, EXPERIMENTAL_LOCKED("CodeCacheSegmentSize") IMPROPER("CodeCacheSegmentSize=128") FATAL_TAIL},
    {"experimental_unlocked", NULL, NULL, {UNLOCK_EXP, "-XX:CodeCacheSegmentSize=128", FINAL, "-version"}, 0, CONTAINS,
     "    uintx CodeCacheSegmentSize                     = 128                               {pd experimental} "
     "{command line}\n",
     EXACT, VERSION},
    /* ---- "Did you mean": StringUtils::similarity >= 0.7, locked flags included ---- */
    {"did_you_mean_nothing_below_threshold", NULL, NULL, {"-XX:+UseSha", "-version"}, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'UseSha'\n" FATAL_TAIL},
    {"did_you_mean_value_flag", NULL, NULL, {"-XX:TieredStopAtLeve=3", "-version"}, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'TieredStopAtLeve=3'\nDid you mean 'TieredStopAtLevel=<value>'?\n" FATAL_TAIL},
    {"did_you_mean_locked_flag", NULL, NULL, {"-XX:+UseSHA3Intrinsic", "-version"}, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'UseSHA3Intrinsic'\nDid you mean '(+/-)UseSHA3Intrinsics'?\n" FATAL_TAIL},
    {"did_you_mean_other_architecture", NULL, NULL, {UNLOCK, ON_AARCH64, "-XX:+UseBMI2Instructions", "-version"},
     1, EXACT, "", EXACT, "Unrecognized VM option 'UseBMI2Instructions'\n" FATAL_TAIL},
    /* minivm's extension: UseSIMDForSHA3Intrinsic exists on x86-64 too (HotSpot: AArch64 only) */
    {"simd_flag_on_x86_64_too", NULL, NULL, {UNLOCK, ON_X86_64, "-XX:-UseSIMDForSHA3Intrinsic", FINAL, "-version"}, 0,
     CONTAINS,
     "     bool UseSIMDForSHA3Intrinsic                  = false                                {ARCH product} "
     "{command line}\n",
     EXACT, VERSION},
    {"did_you_mean_ignores_a_space", NULL, NULL, {"-XX:+Use SHA", "-version"}, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'Use SHA'\n" FATAL_TAIL},
    {"empty_option", NULL, NULL, {"-XX:", "-version"}, 1, EXACT, "", EXACT, "Unrecognized VM option ''\n" FATAL_TAIL},
    {"hash_comments_an_option_out", NULL, NULL, {"-XX:#+UseSHA", "-version"}, 0, EXACT, "", EXACT,
     "Unrecognized VM option '#+UseSHA'\nDid you mean '(+/-)UseSHA'?\n" VERSION},
    /* ---- IgnoreUnrecognizedVMOptions ---- */
    {"ignore_unknown_flag", NULL, NULL, {IGNORE, "-XX:+Foo", "-XX:Bar=1", "-version"}, 0, EXACT, "", EXACT, VERSION},
    {"ignore_works_from_any_position", NULL, NULL, {"-XX:Foo", IGNORE, "-version"}, 0, EXACT, "", EXACT, VERSION},
    {"ignore_last_one_wins", NULL, NULL, {IGNORE, "-XX:-IgnoreUnrecognizedVMOptions", "-XX:Foo", "-version"}, 1, EXACT,
     "", EXACT, "Unrecognized VM option 'Foo'\n" FATAL_TAIL},
    {"ignore_flag_of_another_architecture", NULL, NULL, {IGNORE, "-XX:+UseSIMDForSHA3Intrinsic", "-version"}, 0,
     EXACT, "", EXACT, VERSION},
    /* HotSpot's SHA-3 jtreg tests pass -XX:+UseSIMDForSHA3Intrinsic on x86-64 too: it starts
       (minivm has the flag there; an AVX-512 CPU has its stub) */
    {"ignore_aarch64_flag_on_x86_64", NULL, NULL,
     {UNLOCK, "-XX:EmulateCPU=icelake-server", IGNORE, "-XX:+UseSIMDForSHA3Intrinsic", "-version"}, 0, EXACT, "", EXACT,
     VERSION},
    {"ignore_x86_64_flag_on_aarch64", NULL, NULL, {UNLOCK, ON_AARCH64, IGNORE, "-XX:UseAVX=2", "-version"}, 0, EXACT,
     "", EXACT, VERSION},
    {"ignore_locked_diagnostic_still_fails", NULL, NULL, {PRODUCT, IGNORE, "-XX:+UseSHA3Intrinsics", "-version"}, 1,
     EXACT, "", EXACT, DIAGNOSTIC_LOCKED("UseSHA3Intrinsics") IMPROPER("UseSHA3Intrinsics") FATAL_TAIL},
    {"ignore_misused_flag_still_fails", NULL, NULL, {IGNORE, "-XX:UseSHA=3", "-version"}, 1, EXACT, "", EXACT,
     "Missing +/- setting for VM option 'UseSHA=3'\n" FATAL_TAIL},
    {"ignore_out_of_range_still_fails", NULL, NULL, {IGNORE, "-XX:TieredStopAtLevel=9", "-version"}, 1, EXACT, "",
     EXACT,
     "intx TieredStopAtLevel=9 is outside the allowed range [ 0 ... 4 ]\n"
     "Improperly specified VM option 'TieredStopAtLevel=9'\n" FATAL_TAIL},
    {"ignore_unknown_standard_option", NULL, NULL, {IGNORE, "-foo", "-version"}, 0, EXACT, "", EXACT, VERSION},
    {"ignore_bad_size_still_fails", NULL, NULL, {IGNORE, "-Xmxfoo", "-version"}, 1, EXACT, "", EXACT,
     "Invalid maximum heap size: -Xmxfoo\n" FATAL_TAIL},
    /* ---- per-architecture tables and the two-step start-up ---- */
    {"aarch64_flag_declared_default", NULL, NULL, {ON_AARCH64, "-XX:+PrintFlagsInitial"}, 0, CONTAINS,
     "     bool UseSIMDForSHA3Intrinsic                  = true                                 {ARCH product} "
     "{default}\n",
     EXACT, ""},
    {"aarch64_flag_set", NULL, NULL, {UNLOCK, ON_AARCH64, "-XX:-UseSIMDForSHA3Intrinsic", FINAL, "-version"}, 0,
     CONTAINS,
     "     bool UseSIMDForSHA3Intrinsic                  = false                                {ARCH product} "
     "{command line}\n",
     EXACT, VERSION},
    {"emulated_cpu_chosen_before_judging", NULL, NULL, {UNLOCK, "-XX:-UseSIMDForSHA3Intrinsic", ON_AARCH64, "-version"},
     0, EXACT, "", EXACT, VERSION},
    {"emulated_cpu_from_the_environment", UNLOCK " " ON_AARCH64, NULL, {"-XX:-UseSIMDForSHA3Intrinsic", "-version"},
     0, EXACT, "", EXACT, PICKED_UP UNLOCK " " ON_AARCH64 "\n" VERSION},
    {"emulated_cpu_from_the_settings_file", NULL, "+UnlockDiagnosticVMOptions\nEmulateCPU=neoverse-n1\n",
     {"-XX:Flags=@file", "-XX:-UseSIMDForSHA3Intrinsic", "-version"}, 0, EXACT, "", EXACT, VERSION},
    {"emulated_cpu_shown", NULL, NULL, {UNLOCK, ON_AARCH64, FINAL, "-version"}, 0, CONTAINS,
     "    ccstr EmulateCPU                               = neoverse-n1                            {diagnostic} "
     "{command line}\n",
     EXACT, VERSION},
    {"x86_64_flag_absent_on_aarch64", NULL, NULL, {UNLOCK, ON_AARCH64, "-XX:UseAVX=2", "-version"}, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'UseAVX=2'\n" FATAL_TAIL},
    {"x86_64_flag_declared_default", NULL, NULL, {ON_X86_64, "-XX:+PrintFlagsInitial"}, 0, CONTAINS,
     "      int UseAVX                                   = 3                                    {ARCH product} "
     "{default}\n",
     EXACT, ""},
    {"x86_64_flags_absent_on_aarch64", NULL, NULL, {UNLOCK, ON_AARCH64, FINAL, "-version"}, 0, LACKS,
     "UseBMI1Instructions", EXACT, VERSION},
    {"policy_default_per_architecture", NULL, NULL, {UNLOCK, ON_X86_64, FINAL, "-version"}, 0, CONTAINS,
     "    ccstr SHA3IntrinsicPolicy                      = minivm                            {ARCH diagnostic} "
     "{default}\n",
     EXACT, VERSION},
    {"sha3_policy_selected", NULL, NULL, {UNLOCK, ON_AARCH64, "-XX:SHA3IntrinsicPolicy=JDK26", FINAL, "-version"}, 0,
     CONTAINS,
     "    ccstr SHA3IntrinsicPolicy                      = JDK26                             {ARCH diagnostic} "
     "{command line}\n",
     EXACT, VERSION},
    {"sha3_policy_unknown", NULL, NULL, {UNLOCK, ON_AARCH64, "-XX:SHA3IntrinsicPolicy=fastest", "-version"}, 1, EXACT,
     "", EXACT,
     "Unsupported SHA-3 intrinsic policy 'fastest', available policies are: JDK-8359256, JDK26, measure\n" FATAL_TAIL},
    /* minivm's SHA3AVX512Design (x86-64): lanes by default, rows under JDK24's policy, checked like the policy */
    {"avx512_design_default_lanes", NULL, NULL, {UNLOCK, ON_X86_64, FINAL, "-version"}, 0, CONTAINS,
     "    ccstr SHA3AVX512Design                         = lanes                             {ARCH diagnostic} "
     "{default}\n",
     EXACT, VERSION},
    {"avx512_design_jdk24_rows", NULL, NULL, {UNLOCK, ON_X86_64, "-XX:SHA3IntrinsicPolicy=JDK24", FINAL, "-version"},
     0, CONTAINS,
     "    ccstr SHA3AVX512Design                         = rows                              {ARCH diagnostic} "
     "{default}\n",
     EXACT, VERSION},
    {"avx512_design_unknown", NULL, NULL, {UNLOCK, ON_X86_64, "-XX:SHA3AVX512Design=zmm", "-version"}, 1, EXACT, "",
     EXACT, "Unsupported SHA-3 AVX-512 design 'zmm', available designs are: rows, lanes\n" FATAL_TAIL},
    {"avx512_design_absent_on_aarch64", NULL, NULL, {UNLOCK, ON_AARCH64, "-XX:SHA3AVX512Design=rows", "-version"}, 1,
     EXACT, "", EXACT, "Unrecognized VM option 'SHA3AVX512Design=rows'\n" FATAL_TAIL},
    /* minivm's SHA256Design (x86-64): the CPU's (sha-ni with SHA-NI, else avx2), the user's where the CPU runs it,
       else the other with a warning; checked like SHA3AVX512Design */
    {"sha256_design_default_sha_ni", NULL, NULL, {UNLOCK, ON_X86_64, FINAL, "-version"}, 0, CONTAINS,
     "    ccstr SHA256Design                             = sha-ni                            {ARCH diagnostic} "
     "{default}\n",
     EXACT, VERSION},
    {"sha256_design_haswell_avx2", NULL, NULL, {UNLOCK, "-XX:EmulateCPU=haswell", FINAL, "-version"}, 0, CONTAINS,
     "    ccstr SHA256Design                             = avx2                              {ARCH diagnostic} "
     "{default}\n",
     EXACT, VERSION},
    {"sha256_design_user_avx2", NULL, NULL, {UNLOCK, ON_X86_64, "-XX:SHA256Design=avx2", FINAL, "-version"}, 0,
     CONTAINS,
     "    ccstr SHA256Design                             = avx2                              {ARCH diagnostic} "
     "{command line}\n",
     EXACT, VERSION},
    {"sha256_design_sha_ni_without_it", NULL, NULL,
     {UNLOCK, "-XX:EmulateCPU=haswell", "-XX:SHA256Design=sha-ni", FINAL, "-version"}, 0, CONTAINS,
     "    ccstr SHA256Design                             = avx2                              {ARCH diagnostic} "
     "{command line}\n",
     EXACT,
     TU_WARNING("SHA256Design=sha-ni needs SHA-NI, which this CPU does not have: using SHA256Design=avx2") VERSION},
    {"sha256_design_avx2_hidden_by_useavx", NULL, NULL,
     {UNLOCK, ON_X86_64, "-XX:UseAVX=1", "-XX:SHA256Design=avx2", "-version"}, 0, EXACT, "", EXACT,
     TU_WARNING("SHA256Design=avx2 needs AVX2 and BMI2, which this CPU does not have (or UseAVX hides): using "
                "SHA256Design=sha-ni") VERSION},
    {"sha256_design_unknown", NULL, NULL, {UNLOCK, ON_X86_64, "-XX:SHA256Design=avx512", "-version"}, 1, EXACT, "",
     EXACT, "Unsupported SHA-256 design 'avx512', available designs are: sha-ni, avx2\n" FATAL_TAIL},
    {"sha256_design_absent_on_aarch64", NULL, NULL, {UNLOCK, ON_AARCH64, "-XX:SHA256Design=avx2", "-version"}, 1,
     EXACT, "", EXACT, "Unrecognized VM option 'SHA256Design=avx2'\n" FATAL_TAIL},
    /* ---- -XX:Flags=file: read before the command line ---- */
    {"settings_file_applied", NULL, "+UnlockDiagnosticVMOptions\n-UseSHA1Intrinsics\nTieredStopAtLevel=2\n",
     {"-XX:Flags=@file", FINAL, "-version"}, 0, CONTAINS,
     "     bool UnlockDiagnosticVMOptions                = true                                   {diagnostic} "
     "{config file}\n",
     EXACT, VERSION},
    {"settings_file_origin", NULL, "TieredStopAtLevel=2\n", {"-XX:Flags=@file", FINAL, "-version"}, 0, CONTAINS,
     L_TIERED_CONFIG_2, EXACT, VERSION},
    {"settings_file_comments", NULL, "# PrintWarnings stays on\n  # indented comment\n-PrintWarnings # the rest\n",
     {"-XX:Flags=@file", FINAL, "-version"}, 0, CONTAINS,
     "     bool PrintWarnings                            = false                                     {product} "
     "{config file}\n",
     EXACT, VERSION},
    {"settings_file_quotes_keep_blanks", NULL,
     "+UnlockDiagnosticVMOptions DisableIntrinsic=\"_md5_implCompress _sha_implCompress\"\n",
     {"-XX:Flags=@file", FINAL, "-version"}, 0, CONTAINS,
     "ccstrlist DisableIntrinsic                         = _md5_implCompress _sha_implCompress         {diagnostic} "
     "{config file}\n",
     EXACT, VERSION},
    {"settings_file_command_line_wins", NULL, "TieredStopAtLevel=2\n",
     {"-XX:TieredStopAtLevel=3", "-XX:Flags=@file", FINAL, "-version"}, 0, CONTAINS, L_TIERED_CMDLINE_3, EXACT,
     VERSION},
    {"settings_file_environment_wins", "-XX:TieredStopAtLevel=1", "TieredStopAtLevel=2\n",
     {"-XX:Flags=@file", FINAL, "-version"}, 0, CONTAINS, L_TIERED_ENV_1, EXACT,
     PICKED_UP "-XX:TieredStopAtLevel=1\n" VERSION},
    {"settings_file_missing", NULL, NULL, {"-XX:Flags=/nonexistent/minivm.flags", "-version"}, 1, EXACT, "", EXACT,
     "Could not open settings file /nonexistent/minivm.flags\n" FATAL_TAIL},
    {"settings_file_every_error", NULL, "-UnlockDiagnosticVMOptions\n+UseSHA3Intrinsics\nTieredStopAtLevel=2\nFoo\nBar=1\n",
     {"-XX:Flags=@file", "-version"}, 1, EXACT, "", EXACT,
     DIAGNOSTIC_LOCKED("UseSHA3Intrinsics") IMPROPER("UseSHA3Intrinsics") "Unrecognized VM option 'Foo'\nUnrecognized VM option 'Bar=1'\n" FATAL_TAIL},
    {"settings_file_leading_quote_is_kept", NULL, "\"-UseSHA\"\n", {"-XX:Flags=@file", "-version"}, 1, EXACT, "",
     EXACT, "Unrecognized VM option '\"-UseSHA'\nDid you mean '(+/-)UseSHA'?\n" FATAL_TAIL},
    {"settings_file_ignore_unrecognized", NULL, "Foo\n", {IGNORE, "-XX:Flags=@file", "-version"}, 0, EXACT, "", EXACT,
     VERSION},
    {"settings_file_named_in_the_environment", "-XX:Flags=@file", "TieredStopAtLevel=2\n", {FINAL, "-version"}, 0,
     CONTAINS, L_TIERED_CONFIG_2, EXACT, PICKED_UP "-XX:Flags=@file\n" VERSION},
    {"settings_file_cannot_name_another", NULL, "Flags=other\n", {"-XX:Flags=@file", "-version"}, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'Flags=other'\n" FATAL_TAIL},
    /* ---- MINIVM_TOOL_OPTIONS: before the command line ---- */
    {"environment_picked_up_and_origin", "-XX:TieredStopAtLevel=1", NULL, {FINAL, "-version"}, 0, CONTAINS,
     L_TIERED_ENV_1, EXACT, PICKED_UP "-XX:TieredStopAtLevel=1\n" VERSION},
    {"environment_command_line_wins", "-XX:TieredStopAtLevel=1", NULL, {"-XX:TieredStopAtLevel=2", FINAL, "-version"},
     0, CONTAINS, L_TIERED_CMDLINE_2, EXACT, PICKED_UP "-XX:TieredStopAtLevel=1\n" VERSION},
    {"environment_quotes", "-XX:+UnlockDiagnosticVMOptions '-XX:DisableIntrinsic=_md5_implCompress _sha_implCompress'",
     NULL, {FINAL, "-version"}, 0, CONTAINS,
     "ccstrlist DisableIntrinsic                         = _md5_implCompress _sha_implCompress         {diagnostic} "
     "{environment}\n",
     EXACT,
     PICKED_UP "-XX:+UnlockDiagnosticVMOptions '-XX:DisableIntrinsic=_md5_implCompress _sha_implCompress'\n" VERSION},
    {"environment_bad_flag", "-XX:Foo", NULL, {"-version"}, 1, EXACT, "", EXACT,
     PICKED_UP "-XX:Foo\nUnrecognized VM option 'Foo'\n" FATAL_TAIL},
    {"environment_unmatched_quote", "\"-XX:+UseSHA -XX:Foo", NULL, {"-version"}, 1, EXACT, "", EXACT,
     PICKED_UP "\"-XX:+UseSHA -XX:Foo\nUnmatched quote in MINIVM_TOOL_OPTIONS\n" FATAL_TAIL},
    {"environment_has_no_launcher_options", "-version", NULL, {"-version"}, 1, EXACT, "", EXACT,
     PICKED_UP "-version\nUnrecognized option: -version\n" FATAL_TAIL},
    {"environment_blank", "   ", NULL, {"-version"}, 0, EXACT, "", EXACT, PICKED_UP "   \n" VERSION},
    {"environment_xmx_is_command_line", "-Xmx64m", NULL, {FINAL, "-version"}, 0, CONTAINS,
     "   size_t MaxHeapSize                              = 67108864                                  {product} "
     "{command line}\n",
     EXACT, PICKED_UP "-Xmx64m\n" VERSION},
    /* ---- origins and the -X options behind flags ---- */
    {"default_origin", NULL, NULL, {FINAL, "-version"}, 0, CONTAINS, L_TIERED_DEFAULT, EXACT, VERSION},
    {"last_setting_wins", NULL, NULL, {"-XX:TieredStopAtLevel=3", "-XX:TieredStopAtLevel=2", FINAL, "-version"}, 0,
     CONTAINS, L_TIERED_CMDLINE_2, EXACT, VERSION},
    {"xmx_is_max_heap_size", NULL, NULL, {"-Xmx64m", FINAL, "-version"}, 0, CONTAINS,
     "   size_t MaxHeapSize                              = 67108864                                  {product} "
     "{command line}\n",
     EXACT, VERSION},
    {"max_heap_size_flag_parsed_as_xmx", NULL, NULL, {"-XX:MaxHeapSize=foo", "-version"}, 1, EXACT, "", EXACT,
     "Invalid maximum heap size: -XX:MaxHeapSize=foo\n" FATAL_TAIL},
    {"xss_is_thread_stack_size_in_k", NULL, NULL, {"-Xss2m", FINAL, "-version"}, 0, CONTAINS,
     "     intx ThreadStackSize                          = 2048                                   {pd product} "
     "{command line}\n",
     EXACT, VERSION},
    {"xss_rounds_up_to_k", NULL, NULL, {"-Xss5000", FINAL, "-version"}, 0, CONTAINS,
     "     intx ThreadStackSize                          = 5                                      {pd product} "
     "{command line}\n",
     EXACT, VERSION},
    {"xss_too_big", NULL, NULL, {"-Xss2g", "-version"}, 1, EXACT, "", EXACT,
     "Invalid thread stack size: -Xss2g\nThe specified size exceeds the maximum representable size.\n" FATAL_TAIL},
    {"xint_turns_off_use_compiler", NULL, NULL, {"-Xint", FINAL, "-version"}, 0, CONTAINS,
     "     bool UseCompiler                              = false                                     {product} "
     "{default}\n",
     EXACT, TU_VERSION_MODE("interpreted mode")},
    {"xmixed_undoes_xint", NULL, NULL, {"-Xint", "-Xmixed", FINAL, "-version"}, 0, CONTAINS,
     "     bool UseCompiler                              = true                                      {product} "
     "{default}\n",
     EXACT, VERSION},
    {"ccstrlist_accumulates", NULL, NULL,
     {UNLOCK, "-XX:DisableIntrinsic=_md5_implCompress", "-XX:DisableIntrinsic=_sha_implCompress", FINAL, "-version"},
     0, CONTAINS,
     "ccstrlist DisableIntrinsic                         = _md5_implCompress\n"
     "          DisableIntrinsic                        += _sha_implCompress                      {diagnostic} "
     "{command line}\n",
     EXACT, VERSION},
    {"ccstrlist_reset", NULL, NULL,
     {UNLOCK, "-XX:DisableIntrinsic=_md5_implCompress", "-XX:DisableIntrinsic:=_sha_implCompress", FINAL, "-version"},
     0, CONTAINS,
     "ccstrlist DisableIntrinsic                         = _sha_implCompress                      {diagnostic} "
     "{command line}\n",
     EXACT, VERSION},
    {"long_value_pushes_the_kind_one_blank", NULL, NULL,
     {UNLOCK, "-XX:DisableIntrinsic=_sha3_implCompress,_digestBase_implCompressMB",
      "-XX:DisableIntrinsic=_sha3_implCompress,_digestBase_implCompressMB,_sha5_implCompress,_sha2_implCompress", FINAL,
      "-version"},
     0, CONTAINS,
     /* HotSpot 25's own output for these options */
     "ccstrlist DisableIntrinsic                         = _sha3_implCompress,_digestBase_implCompressMB\n"
     "          DisableIntrinsic                        += "
     "_sha3_implCompress,_digestBase_implCompressMB,_sha5_implCompress,_sha2_implCompress         {diagnostic} "
     "{command line}\n",
     EXACT, VERSION},
    /* ---- PrintFlagsFinal / PrintFlagsInitial / PrintFlagsRanges ---- */
    {"final_hides_locked_flags", NULL, NULL, {PRODUCT, FINAL, "-version"}, 0, LACKS, "UseSHA3Intrinsics", EXACT,
     VERSION},
    {"final_lists_diagnostic_flags_by_default", NULL, NULL, {FINAL, "-version"}, 0, CONTAINS,
     "     bool UnlockDiagnosticVMOptions                = true                                   {diagnostic} "
     "{default}\n",
     EXACT, VERSION},
    {"final_shows_unlocked_flags", NULL, NULL, {UNLOCK, FINAL, "-version"}, 0, CONTAINS,
     "     bool UseSHA3Intrinsics ", EXACT, VERSION},
    {"final_starts_with_header", NULL, NULL, {FINAL, "-version"}, 0, PREFIX, "[Global flags]\n", EXACT, VERSION},
    {"final_then_the_program", NULL, NULL, {FINAL, "@prog"}, 42, CONTAINS, L_TIERED_DEFAULT, EXACT, ""},
    {"final_without_program_then_usage", NULL, NULL, {FINAL}, 1, PREFIX, "[Global flags]\n", PREFIX,
     "Usage: minivm [options] <program.mva> [args...]\n"},
    {"initial_prints_declared_defaults", NULL, NULL, {"-XX:TieredStopAtLevel=2", "-XX:+PrintFlagsInitial", "-version"},
     0, CONTAINS, L_TIERED_DEFAULT, EXACT, ""},
    {"initial_judges_nothing", NULL, NULL, {"-XX:Foo", "-XX:+PrintFlagsInitial"}, 0, PREFIX, "[Global flags]\n", EXACT,
     ""},
    {"initial_lists_declared_unlocking", NULL, NULL, {PRODUCT, "-XX:+PrintFlagsInitial"}, 0, CONTAINS,
     "UnlockDiagnosticVMOptions", EXACT, ""}, /* printed before any option applies: the declared true */
    {"initial_from_the_environment", "-XX:+PrintFlagsInitial", NULL, {"-XX:Foo"}, 0, CONTAINS, L_TIERED_DEFAULT, EXACT,
     PICKED_UP "-XX:+PrintFlagsInitial\n"},
    {"initial_after_help_is_not_seen", NULL, NULL, {"-help", "-XX:+PrintFlagsInitial"}, 0, EXACT, "", PREFIX,
     "Usage: minivm"},
    {"ranges_layout", NULL, NULL, {"-XX:+PrintFlagsRanges", "-version"}, 0, CONTAINS,
     "[Global flags ranges]\n"
     "     intx CompileThreshold                                   [ -9223372036854775808      ...       "
     "9223372036854775807 ]                         {pd product} {default}\n"
     "     intx InterpreterProfilePercentage                       [ 0                         ...                     "
     "  100 ]                            {product} {default}\n"
     "   size_t MaxHeapSize                                        [ 0                         ...      "
     "18446744073709551615 ]                            {product} {default}\n"
     "     intx OnStackReplacePercentage                           [ -9223372036854775808      ...       "
     "9223372036854775807 ]                         {pd product} {default}\n"
     "     intx ThreadStackSize                                    [ 0                         ...                   "
     "1048576 ]                         {pd product} {default}\n"
     "     intx TieredStopAtLevel                                  [ 0                         ...                     "
     "    4 ]                            {product} {default}\n",
     EXACT, VERSION},
    {"ranges_uintx_experimental", NULL, NULL, {UNLOCK_EXP, "-XX:+PrintFlagsRanges", "-version"}, 0, CONTAINS,
     "    uintx CodeCacheSegmentSize                               [ 1                         ...                    "
     "  1024 ]                    {pd experimental} {default}\n",
     EXACT, VERSION},
    {"ranges_skip_bool_and_strings", NULL, NULL, {UNLOCK, "-XX:+PrintFlagsRanges", "-version"}, 0, LACKS,
     "UseSHA", EXACT, VERSION},
    {"ranges_replace_final", NULL, NULL, {FINAL, "-XX:+PrintFlagsRanges", "-version"}, 0, PREFIX,
     "[Global flags ranges]\n", EXACT, VERSION},
};

static void run_case(void **state)
{
    const flag_case *c = *state;
    const tu_key files[] = {{"@file", c->file}, {"@prog", TU_RET42}, {NULL, NULL}};
    tu_run_cli(&(tu_cli_run){c->name, files, c->argv, 12, c->env, NULL}, c->status, c->out_mode, c->out,
               c->err_mode, c->err);
}

/* ---- PrintFlagsFinal against HotSpot's own lines ---------------------------------------------- */

/* The line of flag name in a PrintFlags* output, copied (NULL when absent). */
static char *line_of(const char *out, const char *name)
{
    size_t n = strlen(name);
    for (const char *l = out; *l; l = strchr(l, '\n') + 1) {
        if (strlen(l) > 10 + n && strncmp(l + 10, name, n) == 0 && l[10 + n] == ' ') {
            size_t len = strcspn(l, "\n");
            char *copy = malloc(len + 1);
            assert_non_null(copy);
            memcpy(copy, l, len);
            copy[len] = '\0';
            return copy;
        }
        if (!strchr(l, '\n'))
            break;
    }
    return NULL;
}

/*
 * HotSpot 25 on x86-64 (`java -XX:+PrintFlagsFinal -version`). Lines whose value comes from
 * ergonomics (UseSHA, UseFPUForSpilling) are compared with minivm's value in
 * the value column; every other column, and the other lines, byte for byte.
 */
static void final_columns_match_hotspot(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        bool ergonomic_value;
    } hotspot[] = {
        {"     bool UseSHA                                   = true                                      {product} "
         "{default}",
         true},
        {"     bool UseSHA3Intrinsics                        = true                                   {diagnostic} "
         "{default}",
         true}, /* HotSpot 25's on an AVX-512 host; minivm's value is its policy's */
        {"     bool UnlockDiagnosticVMOptions                = true                                   {diagnostic} "
         "{command line}",
         false},
        {"     bool PreserveFramePointer                     = false                                  {pd product} "
         "{default}",
         false},
        {"     bool UseFPUForSpilling                        = true                                   {C2 product} "
         "{default}",
         true},
        {"     intx TieredStopAtLevel                        = 4                                         {product} "
         "{default}",
         false},
    };
    const char *argv[] = {UNLOCK, FINAL, "-version", NULL};
    tu_result r = tu_run(argv, NULL, 60);
    assert_int_equal(r.status, 0);
    for (size_t i = 0; i < sizeof hotspot / sizeof hotspot[0]; i++) {
        const char *ref = hotspot[i].line;
        char name[64];
        sscanf(ref + 10, "%63s", name);
        char *mine = line_of(r.out, name);
        if (!mine)
            fail_msg("PrintFlagsFinal has no %s line:\n%s", name, r.out);
        char want[256];
        if (hotspot[i].ergonomic_value) {
            /* HotSpot's line with minivm's value in the value column (53 up to the kind at 84) */
            size_t vlen = strcspn(mine + 53, " ");
            snprintf(want, sizeof want, "%.53s%-31.*s%s", ref, (int)vlen, mine + 53, ref + 84);
        } else {
            snprintf(want, sizeof want, "%s", ref);
        }
        if (strcmp(mine, want) != 0)
            fail_msg("%s:\n  HotSpot: |%s|\n  minivm:  |%s|", name, want, mine);
        free(mine);
    }
    tu_result_free(&r);
}

/* Every line of PrintFlagsFinal (ranges: PrintFlagsRanges) with everything unlocked in HotSpot's
   columns, names in strcmp order, every unlocked flag once. */
static void check_listing(bool ranges)
{
    const char *argv[] = {UNLOCK, UNLOCK_EXP, ranges ? "-XX:+PrintFlagsRanges" : FINAL, "-version", NULL};
    tu_result r = tu_run(argv, NULL, 60);
    assert_int_equal(r.status, 0);
    const char *out = r.out;
    const char *header = ranges ? "[Global flags ranges]\n" : "[Global flags]\n";
    assert_true(strncmp(out, header, strlen(header)) == 0);
    flags_init(flags_host_arch());
    FLAG(UnlockDiagnosticVMOptions) = true;
    FLAG(UnlockExperimentalVMOptions) = true;
    bool seen[FLAG_COUNT] = {false};
    char prev[64] = "";
    for (const char *l = out + strlen(header); *l; l = strchr(l, '\n') + 1) {
        size_t len = strcspn(l, "\n");
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)len, l);
        char name[64];
        sscanf(line + 10, "%63s", name);
        size_t nlen = strlen(name);
        const size_t kind_end = ranges ? 157 : 104, origin = kind_end + 1;
        if (len <= origin || line[9] != ' ' || line[8] == ' ' || line[10] == ' ' || line[kind_end - 1] != '}' ||
            line[kind_end] != ' ' || line[origin] != '{' || line[len - 1] != '}')
            fail_msg("not in HotSpot's columns:\n|%s|", line);
        if (ranges ? (line[60] != ' ' || line[61] != '[' || line[119] != ']' || line[120] != ' ')
                   : (nlen >= 40 || strncmp(line + 50, " = ", 3) != 0 || line[49] != ' '))
            fail_msg("not in HotSpot's columns:\n|%s|", line);
        if (strcmp(prev, name) >= 0)
            fail_msg("%s listed after %s: not in strcmp order", name, prev);
        snprintf(prev, sizeof prev, "%s", name);
        flag_id id = flag_find(name, nlen, true);
        assert_true(id != FLAG_COUNT);
        seen[id] = true;
        if (!strchr(l, '\n'))
            break;
    }
    for (int id = 0; id < FLAG_COUNT; id++) {
        flag_type t = flag_descs[id].type;
        bool listed = flag_exists((flag_id)id) &&
                      (!ranges || (t != FLAG_TYPE_bool && t != FLAG_TYPE_ccstr && t != FLAG_TYPE_ccstrlist));
        if (seen[id] != listed)
            fail_msg("%s is %slisted", flag_descs[id].name, seen[id] ? "" : "not ");
    }
    tu_result_free(&r);
}

static void final_every_flag_in_columns_and_order(void **state)
{
    (void)state;
    check_listing(false);
}

static void ranges_every_numeric_flag_in_columns_and_order(void **state)
{
    (void)state;
    check_listing(true);
}

/* ---- the API, called directly ----------------------------------------------------------------- */

/* flags_print into a string */
static char *print_flags(bool ranges)
{
    tu_capture c;
    flags_print(tu_capture_open(&c), ranges);
    return tu_capture_close(&c);
}

static void expect_line(const char *out, const char *line)
{
    if (!out || !strstr(out, line))
        fail_msg("expected the line\n%s--- in ---\n%s", line, out ? out : "(nothing)");
}

/* FLAG_SET_DEFAULT changes the value and keeps the origin, as HotSpot's */
static void set_default_keeps_origin(void **state)
{
    (void)state;
    flags_init(flags_host_arch());
    FLAG(UnlockDiagnosticVMOptions) = true;
    FLAG_SET_DEFAULT(UseSHA3Intrinsics, true);
    assert_true(FLAG(UseSHA3Intrinsics));
    assert_true(FLAG_IS_DEFAULT(UseSHA3Intrinsics));
    char *out = print_flags(false);
    expect_line(out, "     bool UseSHA3Intrinsics                        = true                                   "
                     "{diagnostic} {default}\n");
    free(out);
    /* a user's +UseSHA3Intrinsics forced back to false still says {command line} */
    assert_true(flag_process_argument("+UseSHA3Intrinsics", false, FLAG_ORIGIN_COMMAND_LINE, stderr));
    FLAG_SET_DEFAULT(UseSHA3Intrinsics, false);
    assert_true(FLAG_IS_CMDLINE(UseSHA3Intrinsics));
    out = print_flags(false);
    expect_line(out, "     bool UseSHA3Intrinsics                        = false                                  "
                     "{diagnostic} {command line}\n");
    free(out);
}

/* FLAG_SET_ERGO: {ergonomic}, or {command line, ergonomic} after the user set it */
static void set_ergo_records_origin(void **state)
{
    (void)state;
    flags_init(flags_host_arch());
    assert_true(flag_process_argument("-UseSHA", false, FLAG_ORIGIN_COMMAND_LINE, stderr));
    FLAG_SET_ERGO(UseSHA, true);
    FLAG_SET_ERGO(TieredStopAtLevel, 1);
    assert_true(FLAG_IS_ERGO(UseSHA));
    assert_true(FLAG_IS_CMDLINE(UseSHA));
    assert_false(FLAG_IS_CMDLINE(TieredStopAtLevel));
    char *out = print_flags(false);
    expect_line(out, "     bool UseSHA                                   = true                                      "
                     "{product} {command line, ergonomic}\n");
    expect_line(out, "     intx TieredStopAtLevel                        = 1                                         "
                     "{product} {ergonomic}\n");
    free(out);
    /* the environment and the settings file are not the command line (HotSpot's is_command_line) */
    assert_true(flag_process_argument("-PrintWarnings", false, FLAG_ORIGIN_ENVIRON, stderr));
    assert_false(FLAG_IS_CMDLINE(PrintWarnings));
    assert_false(FLAG_IS_DEFAULT(PrintWarnings));
}

static void vm_warning_format_and_silence(void **state)
{
    (void)state;
    flags_init(flags_host_arch());
    tu_capture c;
    vm_warning_stream(tu_capture_open(&c));
    vm_warning("SHA instructions are not available on this CPU");
    FLAG(PrintWarnings) = false;
    vm_warning("silenced by -XX:-PrintWarnings");
    vm_warning_stream(NULL);
    char *buf = tu_capture_close(&c);
    assert_string_equal(buf, "minivm 64-Bit VM warning: SHA instructions are not available on this CPU\n");
    free(buf);
}

/* StringUtils::similarity and the 0.7 threshold */
static void fuzzy_match_as_hotspot(void **state)
{
    (void)state;
    flags_init(FLAG_ARCH_X86_64);
    assert_true(flag_similarity("UseSHA", 6, "UseSHAA", 7) > 0.769 &&
                flag_similarity("UseSHA", 6, "UseSHAA", 7) < 0.770); /* 2*5/13 */
    assert_true(flag_similarity("UseSHA", 6, "UseSha", 6) == 0.5);   /* 2*3/12 */
    assert_true(flag_similarity("", 0, "x", 1) == 0.0);
    assert_int_equal(flag_fuzzy_match("UseSHAA", 7), FLAG_ID_UseSHA);
    assert_int_equal(flag_fuzzy_match("UseSha", 6), FLAG_COUNT);
    assert_int_equal(flag_fuzzy_match("UseSHA3Intrinsic", 16), FLAG_ID_UseSHA3Intrinsics); /* locked: still found */
    assert_int_equal(flag_fuzzy_match("UseBMI2Instruction", 18), FLAG_ID_UseBMI2Instructions);
    flags_init(FLAG_ARCH_AARCH64);
    assert_int_equal(flag_fuzzy_match("UseSIMDForSHA3Intrinsics", 24), FLAG_ID_UseSIMDForSHA3Intrinsic);
    assert_int_equal(flag_find("UseAVX", 6, true), FLAG_COUNT); /* not on AArch64 */
}

static void option_strings_split_as_hotspot(void **state)
{
    (void)state;
    flag_tokens t;
    assert_int_equal(flag_split_options("  -XX:+A\t'-XX:B=x y'  -XX:\"C\"=z ", &t), 0);
    assert_int_equal(t.n, 3);
    assert_string_equal(t.v[0], "-XX:+A");
    assert_string_equal(t.v[1], "-XX:B=x y");
    assert_string_equal(t.v[2], "-XX:C=z");
    flag_tokens_free(&t);
    assert_int_equal(flag_split_options("-XX:+A 'open", &t), -1);
    assert_int_equal(flag_split_options("", &t), 0);
    assert_int_equal(t.n, 0);
    flag_tokens_free(&t);

    const char text[] = "# a comment -XX:+Nope\n+A   # the rest\n  B=\"x y\"\n'C'\nD=1";
    const char *path = tu_temp_file("flags-tokens.flags", text, strlen(text));
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    assert_int_equal(flag_read_settings_file(copy, &t), 0);
    unlink(copy);
    assert_int_equal(t.n, 4);
    assert_string_equal(t.v[0], "+A");
    assert_string_equal(t.v[1], "B=x y");
    assert_string_equal(t.v[2], "'C"); /* a quote that starts a token is kept, as in HotSpot */
    assert_string_equal(t.v[3], "D=1");
    flag_tokens_free(&t);
    assert_int_equal(flag_read_settings_file("/nonexistent/minivm.flags", &t), -1);
}

static void sizes_parse_as_atojulong(void **state)
{
    (void)state;
    uint64_t v;
    assert_true(flag_parse_julong("64m", &v) && v == (uint64_t)64 << 20);
    assert_true(flag_parse_julong("0x10", &v) && v == 16);
    assert_true(flag_parse_julong("1T", &v) && v == (uint64_t)1 << 40);
    assert_true(flag_parse_julong("7", &v) && v == 7);
    assert_false(flag_parse_julong("-1", &v));
    assert_false(flag_parse_julong(" 1", &v));
    assert_false(flag_parse_julong("1kb", &v));
    assert_false(flag_parse_julong("1x", &v));
    assert_false(flag_parse_julong("99999999999999999999", &v));
    assert_false(flag_parse_julong("17179869184g", &v)); /* overflows 64 bits */
}

int main(void)
{
    unsetenv("MINIVM_TOOL_OPTIONS"); /* the cases set it themselves */
    tu_group g = {0};
    TU_ADD_TABLE(&g, cases, run_case);
    TU_ADD_TEST(&g, final_columns_match_hotspot);
    TU_ADD_TEST(&g, final_every_flag_in_columns_and_order);
    TU_ADD_TEST(&g, ranges_every_numeric_flag_in_columns_and_order);
    TU_ADD_TEST(&g, set_default_keeps_origin);
    TU_ADD_TEST(&g, set_ergo_records_origin);
    TU_ADD_TEST(&g, vm_warning_format_and_silence);
    TU_ADD_TEST(&g, fuzzy_match_as_hotspot);
    TU_ADD_TEST(&g, option_strings_split_as_hotspot);
    TU_ADD_TEST(&g, sizes_parse_as_atojulong);
    return tu_run_group("flags", &g, NULL, NULL);
}
