/*
 * tests/test_limits.c — the launcher on hostile or unlucky input (suite
 * 'cli'): files without end, output that cannot be written, memory that runs
 * out, programs whose module names collide with the library's, paths longer
 * than a message buffer, and the limits of docs/cli.md ("Limits").
 *
 * Each case is a shell script run with $MVM (the launcher, under QEMU in the
 * cross build), $SRC (the source tree) and $T (a fresh directory for the
 * case); "@t" in the expected texts stands for $T. Every case was a bug once
 * (issues 13 and 18): it fails on the code before the fix.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"
#include "vm.h"

enum { EXACT = TU_EXACT, PREFIX = TU_PREFIX, CONTAINS = TU_CONTAINS, LACKS = TU_LACKS };

/* Where a case runs: an address-space limit (ulimit -v) means nothing under
   ASan's shadow memory, so the sanitizer build gets its own way to run out. */
enum { ANYWHERE = 0, NOT_SANITIZED = 1, SANITIZED = 2 };

typedef struct limit_case {
    const char *name;
    int where;
    const char *script;
    int status;
    int out_mode;
    const char *out;
    int err_mode;
    const char *err;
} limit_case;

#define FATAL_TAIL TU_FATAL_TAIL
#define VERSION TU_VERSION
#define USAGE_HEAD TU_USAGE_HEAD
#define TOO_LARGE ": larger than 16 MiB, the limit for a source file\n"
#define DIGEST_ABC "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"

/* $T/many.mva prints 100000 lines (3.7 MB): more than any pipe holds */
#define MANY_LINES                                                                                   \
    "printf 'module Many\\nmethod main() -> int\\n    var i, n: long\\n    var s: byte[]\\n"             \
    "    ldi i, 0\\n    ldi n, 100000\\n    ldstr s, \"a line of output that is long enough\"\\n"       \
    "loop:\\n    bge i, n, done\\n    call Sys.println(s)\\n    add i, i, 1\\n    jmp loop\\n"            \
    "done:\\n    ldi i, 0\\n    ret i\\nend\\n' > $T/many.mva; "

/* $T/big.mva: a static long[] literal of 1,000,000 elements (7.9 MB of text) */
#define BIG_LITERAL                                                                                  \
    "awk 'BEGIN { print \"module Big\"; print \"static data: long[] = {\"; "                          \
    "for (i = 0; i < 100000; i++) { for (j = 0; j < 10; j++) printf \"%d, \", i * 10 + j; print \"\" } " \
    "print \"0 }\"; print \"method main() -> int\"; print \"    var r: long\"; print \"    ldi r, 0\"; "   \
    "print \"    ret r\"; print \"end\" }' > $T/big.mva; "

/* $D (in /dev/shm when there is one: 100,000 files) holds M0 ... M99999, each importing the next and
   passing on its constant K, M99999's 42; $D/p.mva imports M0 (100,000 levels: more modules than a program
   may have), $D/p30000.mva M70000 (30,000 levels). The loader used to recurse once per level (SIGSEGV at
   about 23,700 levels, 5,000 under ulimit -s 1024). */
#define IMPORT_CHAIN                                                                                  \
    "D=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d -p $T); "                                     \
    "awk -v D=$D 'BEGIN { n = 100000; "                                                               \
    "for (i = 0; i < n; i++) { f = D \"/M\" i \".mva\"; "                                             \
    "if (i < n - 1) printf \"module M%d\\nimport M%d\\nconst K = M%d.K\\n\", i, i + 1, i + 1 > f; "    \
    "else printf \"module M%d\\nconst K = 42\\n\", i > f; close(f) } "                                \
    "m = \"method main() -> int\\n    var r: long\\n    ldi r, %s.K\\n    ret r\\nend\\n\"; "          \
    "printf \"module P\\nimport M0\\n\" m, \"M0\" > D \"/p.mva\"; "                                   \
    "printf \"module P\\nimport M70000\\n\" m, \"M70000\" > D \"/p30000.mva\" }'; "

/* $T/Arrays.mva: the program's own module named like the library's, and
   $T/p.mva importing it and SHA3 (whose DigestBase imports Arrays) */
#define OWN_ARRAYS                                                                                   \
    "printf 'module Arrays\\nmethod hello() -> long\\n    var r: long\\n    ldi r, 7\\n    ret r\\nend\\n'" \
    " > $T/Arrays.mva; "
#define DIGEST_ABC_BODY                                                                              \
    "method main() -> int\\n    var d: DigestBase.Digest\\n    var name: byte[]\\n"                    \
    "    var u_d: DigestBase.Digest\\n    var u_b: byte[]\\n    var u_ofs, u_len: int\\n"               \
    "    var out: byte[]\\n    var q_d: DigestBase.Digest\\n    var seven: long\\n"                     \
    "    var h_b: byte[]\\n    var h_ofs, h_len: int\\n"                                                \
    "    ldstr name, \"SHA3-256\"\\n    call d = SHA3.getInstance(name)\\n    mov u_d, d\\n"             \
    "    ldstr u_b, \"abc\"\\n    ldi u_ofs, 0\\n    alen u_len, u_b\\n"                                \
    "    call DigestBase.update(u_d, u_b, u_ofs, u_len)\\n    mov q_d, d\\n"                           \
    "    call out = DigestBase.digest(q_d)\\n    mov h_b, out\\n    ldi h_ofs, 0\\n    alen h_len, out\\n" \
    "    call Sys.printHex(h_b, h_ofs, h_len)\\n"

/* a directory path of 6 x 200 characters under $T, as $D ("@deep" in the expected texts) */
#define DEEP_DIR                                                                                     \
    "s=''; for i in 1 2 3 4 5 6; do s=\"$s/$(printf '%0200d' 0 | tr 0 d)\"; done; D=$T$s; mkdir -p $D; "
static const limit_case CASES[] = {
    /* ---- 2. inputs without end: a documented size limit, a clear error ---- */
    {"program_dev_zero", ANYWHERE, "$MVM /dev/zero", 1, EXACT, "", EXACT,
     "cannot read program file '/dev/zero'" TOO_LARGE},
    {"program_endless_stdin", ANYWHERE, "yes | $MVM /dev/stdin", 1, EXACT, "", EXACT,
     "cannot read program file '/dev/stdin'" TOO_LARGE},
    {"module_dev_zero", ANYWHERE,
     "ln -s /dev/zero $T/Big.mva; printf 'module P\\nimport Big\\nmethod main()\\n    ret\\nend\\n' > $T/p.mva; "
     "$MVM $T/p.mva",
     1, EXACT, "", EXACT, "@t/p.mva:2: cannot read module 'Big' from @t/Big.mva" TOO_LARGE},
    {"settings_file_endless", ANYWHERE, "yes | $MVM -XX:Flags=/dev/stdin -version", 1, EXACT, "", EXACT,
     "Could not read settings file /dev/stdin: larger than 1 MiB, the limit for a settings file\n" FATAL_TAIL},
    {"settings_file_dev_zero", ANYWHERE, "$MVM -XX:Flags=/dev/zero -version", 1, EXACT, "", EXACT,
     "Could not read settings file /dev/zero: larger than 1 MiB, the limit for a settings file\n" FATAL_TAIL},
    {"settings_file_directory_is_empty", ANYWHERE, "$MVM -XX:Flags=$T -version", 0, EXACT, "", EXACT, VERSION},
    {"cpuinfo_file_endless", ANYWHERE,
     "yes | $MVM -XX:+UnlockDiagnosticVMOptions -XX:CPUInfoFile=/dev/stdin -version", 1, EXACT, "", EXACT,
     "Error occurred during initialization of VM\n/dev/stdin: larger than 16 MiB, not a /proc/cpuinfo text\n"},

    /* ---- 3. output that cannot be written: "write error", status 1 ---- */
    {"stdout_full", ANYWHERE, "$MVM $SRC/examples/digest.mva SHA3-256 $SRC/README.md >/dev/full", 1, EXACT, "",
     EXACT, "minivm: write error: No space left on device\n"},
    {"stdout_closed", ANYWHERE, "$MVM $SRC/examples/digest.mva SHA3-256 $SRC/README.md >&-", 1, EXACT, "", EXACT,
     "minivm: write error: Bad file descriptor\n"},
    {"stdout_closed_silent_program", ANYWHERE,
     "printf 'module Q\\nmethod main() -> int\\n    var r: long\\n    ldi r, 5\\n    ret r\\nend\\n' > $T/q.mva; "
     "$MVM $T/q.mva >&-; echo \"status $?\" >&2",
     0, EXACT, "", EXACT, "status 5\n"},
    {"pipe_reader_left_sigpipe_ignored", ANYWHERE,
     MANY_LINES "trap '' PIPE; { $MVM $T/many.mva; echo \"status $?\" >&2; } | head -c 5", 0, EXACT, "a lin",
     EXACT, "minivm: write error: Broken pipe\nstatus 1\n"},
    {"pipe_reader_left_sigpipe_default", ANYWHERE,
     MANY_LINES "{ $MVM $T/many.mva; echo \"status $?\" >&2; } | head -c 5", 0, EXACT, "a lin", EXACT,
     "status 141\n"},
    {"print_flags_final_to_full", ANYWHERE, "$MVM -XX:+PrintFlagsFinal -version >/dev/full", 1, EXACT, "", EXACT,
     VERSION "minivm: write error: No space left on device\n"},
    {"version_to_closed_stdout", ANYWHERE, "$MVM --version >&-", 1, EXACT, "", EXACT,
     "minivm: write error: Bad file descriptor\n"},
    {"usage_to_full_stdout", ANYWHERE, "$MVM --help >/dev/full", 1, EXACT, "", EXACT,
     "minivm: write error: No space left on device\n"},

    /* ---- 4. memory exhausted while loading: a message and status 1, no abort ---- */
    {"out_of_memory_loading", NOT_SANITIZED,
     BIG_LITERAL "case \"$MINIVM_WRAPPER\" in '') lim=60000 ;; *) lim=300000 ;; esac; "
     "(ulimit -v $lim; $MVM $T/big.mva)",
     1, EXACT, "", PREFIX, "out of memory loading @t/big.mva"},
    {"out_of_memory_loading_is_not_the_file", ANYWHERE, BIG_LITERAL "$MVM $T/big.mva", 0, EXACT, "", EXACT, ""},
    /* under ASan: a 1.9 MB literal of 900,000 zeros, whose element array (7.2 MB) is
       more than any allocation may take (max_allocation_size_mb=4) */
    {"out_of_memory_loading_sanitized", SANITIZED,
     "awk 'BEGIN { print \"module Big\"; print \"static data: long[] = {\"; "
     "for (i = 0; i < 90000; i++) print \"0,0,0,0,0,0,0,0,0,0,\"; print \"0 }\"; "
     "print \"method main()\\n    ret\\nend\" }' > $T/big.mva; "
     "ASAN_OPTIONS=$ASAN_OPTIONS:allocator_may_return_null=1:max_allocation_size_mb=4 $MVM $T/big.mva",
     1, EXACT, "", CONTAINS, "\nout of memory loading @t/big.mva ("}, /* after ASan's own warning line */

    /* ---- 5. the library binds to its own modules, and only they have intrinsics ---- */
    {"own_arrays_module_beside_sha3", ANYWHERE,
     OWN_ARRAYS "printf 'module P\\nimport Arrays\\nimport SHA3\\nimport DigestBase\\n" DIGEST_ABC_BODY
     "    call seven = Arrays.hello()\\n    ret seven\\nend\\n' > $T/p.mva; $MVM $T/p.mva",
     7, EXACT, DIGEST_ABC, EXACT, ""},
    {"program_module_named_arrays", ANYWHERE,
     "printf 'module Arrays\\nimport SHA3\\nimport DigestBase\\n" DIGEST_ABC_BODY
     "    ldi seven, 3\\n    ret seven\\nend\\n' > $T/Arrays.mva; $MVM $T/Arrays.mva",
     3, EXACT, DIGEST_ABC, EXACT, ""},
    {"program_module_named_sha3", ANYWHERE,
     "printf 'module SHA3\\nimport DigestBase\\nmethod main() -> int\\n    var r: long\\n    ldi r, 4\\n"
     "    ret r\\nend\\n' > $T/SHA3.mva; $MVM $T/SHA3.mva",
     4, EXACT, "", EXACT, ""},
    /* a program's own SHA2 (a record SHA2.SHA2 extending DigestBase.Digest, with a state int[]) is not the
       library's: DigestBase's multi-block candidate runs its implCompress for all four blocks (a link by
       name would give its records the library's SHA-256 stub: 0 calls) */
    {"own_sha2_module_gets_no_stub", ANYWHERE,
     "$MVM -XX:+UnlockDiagnosticVMOptions -XX:+PrintIntrinsics $SRC/tests/data/own_sha2/main.mva > $T/out; "
     "echo \"stubs: $?\"; grep -c 'stub sha256_implCompressMB' $T/out; "
     "$MVM -Xint $SRC/tests/data/own_sha2/main.mva; echo \"-Xint: $?\"",
     0, EXACT, "stubs: 4\n0\n-Xint: 4\n", EXACT, ""},
    {"program_module_named_sys", ANYWHERE, "printf 'module Sys\\nmethod main()\\n    ret\\nend\\n' > $T/s.mva; "
     "$MVM $T/s.mva", 1, EXACT, "", EXACT, "@t/s.mva:1: module name 'Sys' is taken by a built-in module\n"},

    /* ---- 6. import chains: a work list, not the C stack (30,000 and 100,000 levels under a 1 MiB stack) ---- */
    {"import_chain_deeper_than_the_stack", ANYWHERE,
     IMPORT_CHAIN "(ulimit -s 1024; $MVM $D/p30000.mva; echo \"30000 levels: $?\"; $MVM $D/p.mva; "
     "echo \"100000 levels: $?\"); rm -rf $D",
     0, EXACT, "30000 levels: 42\n100000 levels: 1\n", CONTAINS,
     "/M65533.mva:2: too many modules (at most 65536 in a program, the built-in modules' included)\n"},
    {"import_cycle_sees_what_was_read", ANYWHERE,
     "printf 'module A\\nconst KA = 5\\nimport B\\n' > $T/A.mva; "
     "printf 'module B\\nimport A\\nconst KB = A.KA\\n' > $T/B.mva; "
     "printf 'module P\\nimport A\\nimport B\\nmethod main() -> int\\n    var r: long\\n    ldi r, B.KB\\n"
     "    ret r\\nend\\n' > $T/p.mva; $MVM $T/p.mva",
     5, EXACT, "", EXACT, ""},
    {"import_cycle_constant_not_read_yet", ANYWHERE,
     "printf 'module A\\nimport B\\nconst KA = 5\\n' > $T/A.mva; "
     "printf 'module B\\nimport A\\nconst KB = A.KA\\n' > $T/B.mva; "
     "printf 'module P\\nimport A\\nmethod main()\\n    ret\\nend\\n' > $T/p.mva; $MVM $T/p.mva",
     1, EXACT, "", EXACT, "@t/B.mva:3: unknown constant 'A.KA'\n"},

    /* ---- 7. locations survive long paths ---- */
    {"long_path_keeps_location", ANYWHERE,
     DEEP_DIR "printf 'module P\\nmethod main()\\n    frob r0\\nend\\n' > $D/p.mva; $MVM $D/p.mva", 1, EXACT, "",
     EXACT, "@deep/p.mva:3: unknown mnemonic 'frob'\n"},
    {"long_path_missing_import_whole", ANYWHERE,
     DEEP_DIR "printf 'module P\\nimport Nope\\nmethod main()\\n    ret\\nend\\n' > $D/p.mva; $MVM $D/p.mva", 1,
     EXACT, "", EXACT,
     "@deep/p.mva:2: cannot find module 'Nope' (looked for @deep/Nope.mva and the built-in library)\n"},

    /* ---- 8. the smaller ones ---- */
    {"method_limit_counts_builtins", ANYWHERE,
     "awk 'BEGIN { print \"module M\"; for (i = 0; i < 65514; i++) printf \"method m%d()\\n    ret\\nend\\n\", i; "
     "print \"method main()\\n    ret\\nend\" }' > $T/m.mva; $MVM $T/m.mva",
     1, EXACT, "", EXACT,
     "@t/m.mva:196544: too many methods (at most 65536 in a program, the 22 of built-in modules included)\n"},
    /* record 65535 exists in a full pool: a virtual method without a record receiver must not take it for its own */
    {"virtual_method_after_a_full_record_pool", ANYWHERE,
     "awk 'BEGIN { print \"module M\"; for (i = 0; i < 65536; i++) printf \"record R%d\\nend\\n\", i; "
     "print \"virtual method f(x: long)\\n    ret\\nend\\nmethod main()\\n    ret\\nend\" }' > $T/m.mva; $MVM $T/m.mva",
     1, EXACT, "", EXACT,
     "@t/m.mva:131074: virtual method M.f must take a record declared in module M as its first parameter\n"},
    {"method_limit_one_less_loads", ANYWHERE,
     "awk 'BEGIN { print \"module M\"; for (i = 0; i < 65513; i++) printf \"method m%d()\\n    ret\\nend\\n\", i; "
     "print \"method main()\\n    ret\\nend\" }' > $T/m.mva; $MVM $T/m.mva",
     0, EXACT, "", EXACT, ""},
    {"unclosed_record", ANYWHERE,
     "printf 'module P\\nrecord R\\n    a: long\\nmethod main()\\n    ret\\nend\\n' > $T/p.mva; $MVM $T/p.mva", 1,
     EXACT, "", EXACT, "@t/p.mva:2: record 'R' has no 'end' before line 4\n"},
    {"field_named_method", ANYWHERE,
     "printf 'module P\\nrecord R\\n    method: long\\nend\\nmethod main()\\n    ret\\nend\\n' > $T/p.mva; "
     "$MVM $T/p.mva",
     0, EXACT, "", EXACT, ""},
    {"unclosed_array_literal", ANYWHERE,
     "printf 'module P\\nstatic s: long[] = { 1, 2,\\n    3\\nmethod main()\\n    ret\\nend\\n' > $T/p.mva; "
     "$MVM $T/p.mva",
     1, EXACT, "", EXACT, "@t/p.mva:2: array literal of 's' has no '}' before line 4\n"},
    {"unclosed_array_literal_before_attribute", ANYWHERE,
     "printf 'module P\\nstatic s: long[] = { 1,\\n@IntrinsicCandidate\\nmethod main()\\n    ret\\nend\\n' > $T/p.mva; "
     "$MVM $T/p.mva",
     1, EXACT, "", EXACT, "@t/p.mva:2: array literal of 's' has no '}' before line 3\n"},
    {"showversion_without_program", ANYWHERE, "$MVM -showversion", 1, EXACT, "", PREFIX, VERSION USAGE_HEAD},
    {"show_version_without_program_on_stdout", ANYWHERE, "$MVM --show-version", 1, PREFIX, VERSION USAGE_HEAD,
     EXACT, ""},
    {"code_cache_segment_size_below_entry_alignment", ANYWHERE,
     "$MVM -XX:+UnlockDiagnosticVMOptions -XX:EmulateCPU=zen3 -XX:+UnlockExperimentalVMOptions "
     "-XX:CodeCacheSegmentSize=3 -version",
     1, EXACT, "", EXACT,
     "CodeCacheSegmentSize  (3) must be larger than or equal to CodeEntryAlignment (32) to align entry points\n"
     "CodeEntryAlignment (32) must be less than or equal to CodeCacheSegmentSize (3) to align entry points\n"
     FATAL_TAIL},
    {"code_cache_segment_size_aarch64_alignment", ANYWHERE,
     "$MVM -XX:+UnlockDiagnosticVMOptions -XX:EmulateCPU=neoverse-n1 -XX:+UnlockExperimentalVMOptions "
     "-XX:CodeCacheSegmentSize=32 -version",
     1, EXACT, "", EXACT,
     "CodeCacheSegmentSize  (32) must be larger than or equal to CodeEntryAlignment (64) to align entry points\n"
     "CodeEntryAlignment (64) must be less than or equal to CodeCacheSegmentSize (32) to align entry points\n"
     FATAL_TAIL},
    {"code_cache_segment_size_default_128", ANYWHERE,
     "$MVM -XX:+UnlockExperimentalVMOptions -XX:+PrintFlagsFinal -version | grep CodeCacheSegmentSize", 0, EXACT,
     "    uintx CodeCacheSegmentSize                     = 128                               {pd experimental} "
     "{default}\n",
     EXACT, VERSION},
    {"max_heap_size_above_aligned_maximum", ANYWHERE, "$MVM -Xmx18446744073709551615 -version", 1, EXACT, "", EXACT,
     "MaxHeapSize (18446744073709551615) must be less than or equal to aligned maximum value "
     "(18446744072635809792)\n" FATAL_TAIL},
    {"max_heap_size_at_aligned_maximum", ANYWHERE, "$MVM -Xmx18446744072635809792 -version", 0, EXACT, "", EXACT,
     VERSION},
};

static void run_case(void **state)
{
    const limit_case *c = *state;
    const bool sanitized = tu_sanitized();
    if (c->where == NOT_SANITIZED && sanitized) {
        print_message("skipped: address-space limits do not apply under AddressSanitizer\n");
        skip();
    }
    if (c->where == SANITIZED && !sanitized) {
        print_message("skipped: the sanitizer build's variant of an out-of-memory case\n");
        skip();
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/minivm-limits-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir))
        fail_msg("mkdtemp: %s", strerror(errno));
    setenv("T", dir, 1);
    tu_result r = tu_run_shell(c->script, NULL, 120);
    char deep[4096];
    size_t n = (size_t)snprintf(deep, sizeof deep, "%s", dir);
    for (int level = 0; level < 6; level++) {
        deep[n++] = '/';
        memset(deep + n, 'd', 200);
        n += 200;
    }
    deep[n] = '\0';
    const tu_key keys[] = {{"@deep", deep}, {"@t", dir}, {NULL, NULL}};
    tu_expect_run(&r, c->status, c->out_mode, c->out, c->err_mode, c->err, keys);
    tu_result_free(&r);
    char rm[4200];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    if (system(rm) != 0)
        fail_msg("cannot remove %s", dir);
}

/* The loader's own buffer too small for a long path: the path is shortened in
   the middle, the line and the message stay whole. */
static void small_buffer_shortens_the_path(void **state)
{
    (void)state;
    char path[1200];
    memset(path, 'p', sizeof path - 1);
    path[0] = '/';
    path[sizeof path - 1] = '\0';
    static const char src[] = "module P\nmethod main()\n    frob r0\nend\n";
    char err[200];
    vm_program *p = vm_load_text(path, src, strlen(src), err, sizeof err);
    assert_null(p);
    const char *tail = ":3: unknown mnemonic 'frob'";
    size_t len = strlen(err);
    if (len + 1 > sizeof err || len < strlen(tail) || strcmp(err + len - strlen(tail), tail) != 0 ||
        strncmp(err, "/ppp", 4) != 0 || !strstr(err, "..."))
        fail_msg("want \"/ppp...ppp%s\" in %zu bytes, got \"%s\"", tail, sizeof err, err);
    /* a buffer large enough: the whole path */
    char whole[VM_ERROR_MAX];
    assert_null(vm_load_text(path, src, strlen(src), whole, sizeof whole));
    assert_int_equal(strlen(whole), strlen(path) + strlen(tail));
}

int main(void)
{
    tu_group g = {0};
    TU_ADD_TABLE(&g, CASES, run_case);
    TU_ADD_TEST(&g, small_buffer_shortens_the_path);
    return tu_run_group("limits", &g, NULL, NULL);
}
