/*
 * tests/testutil.h — helpers shared by the cmocka tests: load programs from
 * text, call methods, run the minivm launcher as a child process (a CLI
 * table's row at once), read files, and gather a table-driven test's cmocka
 * group.
 */
#ifndef MINIVM_TESTUTIL_H
#define MINIVM_TESTUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include "vm.h"

/* Load a program from text; fails the test (with the loader's message) on error. */
vm_program *tu_load(const char *src);
/* the same with VM_LOAD_* options */
vm_program *tu_load_ex(const char *src, unsigned options);

/* Load a program expected to be rejected; returns the message ("<test>:line: ...")
   in a static buffer, or NULL when it loaded. */
const char *tu_load_error(const char *src);

/* A VM over p with default options (heap_max 0 = default). */
vm_t *tu_vm(const vm_program *p, size_t heap_max);

/* The suite's execution mode: MINIVM_MODE ("-Xcomp", Meson's test setup xcomp), or NULL for the
   default. tu_run and tu_run_shell put it first among the launcher's options; tu_vm and
   tu_vm_mode attach the compiler to a VM with every method compiled at its first call. */
const char *tu_mode(void);
void tu_vm_mode(vm_t *vm);

/* The method qname of vm's program called without arguments: its result; fails the test (with
   the exception's trace) unless it returns. */
vm_value tu_call_main(vm_t *vm, const char *qname);

typedef struct tu_result {
    int status;      /* exit status, or 128+signal when killed */
    char *out;       /* captured stdout (NUL-terminated, malloc'ed) */
    char *err;       /* captured stderr */
    long maxrss_kib; /* the child's peak RSS */
    double secs;     /* wall time from start to exit */
} tu_result;

/*
 * Run build/minivm (path from the MINIVM environment variable) with argv
 * (NULL-terminated, without argv[0]), feeding stdin_data (may be NULL).
 * A child running longer than timeout_s seconds is killed (status 128+9).
 */
tu_result tu_run(const char *const *argv, const char *stdin_data, int timeout_s);

/*
 * Run a shell script (sh -c) the same way, for redirections, pipes, ulimit
 * and trap. The script finds the launcher as $MVM (with MINIVM_WRAPPER in
 * front: write `$MVM prog.mva`, unquoted) and the source tree as $SRC.
 */
tu_result tu_run_shell(const char *script, const char *stdin_data, int timeout_s);

/* Run any program the same way: args[0] (through PATH), then its arguments, NULL-terminated. */
tu_result tu_run_command(const char *const *args, const char *stdin_data, int timeout_s);
void tu_result_free(tu_result *r);

/* Is this a sanitizer build (MINIVM_SANITIZED=1), where timing and RSS limits mean nothing? */
bool tu_sanitized(void);
/* Do the programs run under QEMU (MINIVM_EMULATED=1), where a child's RSS is QEMU's too? */
bool tu_emulated(void);

/* Path of a file in the source tree (from MINIVM_SOURCE_ROOT), static buffer. */
const char *tu_source_path(const char *rel);

/* A whole file as a NUL-terminated string (malloc'ed), its length in *len when len is not
   NULL; NULL when it cannot be read. (In testutil_file.c: it needs neither the VM nor cmocka,
   so a tool links it too.) */
char *tu_read_file(const char *path, size_t *len);

/* What a print function writes to a stream, captured in memory (open_memstream):
 *
 *     tu_capture c;
 *     cpu_print(ci, tu_capture_open(&c));
 *     char *text = tu_capture_close(&c);
 *
 * tu_capture_open aborts when out of memory; tu_capture_close returns the text (NUL-terminated,
 * malloc'ed). (In testutil_file.c, as tu_read_file: a test without the VM links it.) */
typedef struct tu_capture {
    FILE *f;
    char *text;
    size_t len;
} tu_capture;
FILE *tu_capture_open(tu_capture *c);
char *tu_capture_close(tu_capture *c);

/* Write text to a fresh temporary file; returns its path (static buffer per call slot). */
const char *tu_temp_file(const char *name, const char *text, size_t len);

/* One placeholder and its text for tu_replace; a list ends with {NULL, NULL}. */
typedef struct tu_key {
    const char *key;    /* "@prog" */
    const char *value;  /* what replaces it */
} tu_key;

/* s with every occurrence of each key replaced by its value, keys tried in
   order at each position (malloc'ed; fails the test when out of memory). */
char *tu_replace(const char *s, const tu_key *keys);

/* s with every '@' replaced by file: tu_replace with the one key "@". */
char *tu_subst(const char *s, const char *file);

/*
 * The tests of one cmocka group, gathered in main(): one test per row of each case table, and
 * single tests, in the order added.
 *
 *     tu_group g = {0};
 *     TU_ADD_TABLE(&g, cases, run_case);
 *     TU_ADD_TEST(&g, cat_large_stdin);
 *     return tu_run_group("cli", &g, NULL, NULL);
 */
struct CMUnitTest;
typedef struct tu_group {
    struct CMUnitTest *tests;
    size_t n, cap;
} tu_group;

/* One test per row (count rows of size bytes), named by the row's const char * at name_offset and
   run by fn with the row as its state. */
void tu_add_rows(tu_group *g, const void *rows, size_t count, size_t size, size_t name_offset,
                 void (*fn)(void **state));
/* A test named name, run by fn with state. */
void tu_add_test(tu_group *g, const char *name, void (*fn)(void **state), void *state);
/* Run the group (setup and teardown may be NULL) and free its list; returns how many tests failed. */
int tu_run_group(const char *name, tu_group *g, int (*setup)(void **state), int (*teardown)(void **state));

/* count rows of a case table, each named by its member 'name' (a const char *) */
#define TU_ADD_CASES(g, rows, count, fn) \
    tu_add_rows(g, rows, count, sizeof((rows)[0]), (size_t)((const char *)&(rows)[0].name - (const char *)(rows)), fn)
/* every row of a table (an array) */
#define TU_ADD_TABLE(g, table, fn) TU_ADD_CASES(g, table, sizeof(table) / sizeof((table)[0]), fn)
/* a single test, named after its function (as cmocka_unit_test) */
#define TU_ADD_TEST(g, fn) tu_add_test(g, #fn, fn, NULL)

/* How tu_expect_text compares a captured stream with the expected text. */
enum { TU_EXACT, TU_PREFIX, TU_CONTAINS, TU_LACKS };

/* Fail the test (showing both texts) unless got matches want under mode;
   what names the stream in the message ("stdout", "stderr"). */
void tu_expect_text(const char *what, const char *got, int mode, const char *want);

/* tu_expect_text with want's placeholders replaced first (tu_replace). */
void tu_expect_text_keys(const char *what, const char *got, int mode, const char *want, const tu_key *keys);

/* Fail the test unless r exited with status; the message shows both streams
   (at most 4000 bytes of each). */
void tu_expect_status(const tu_result *r, int status);

/* A CLI case's whole verdict: the status, then stdout and stderr under their modes, with the
   placeholders of keys replaced in the expected texts (keys may be NULL). */
void tu_expect_run(const tu_result *r, int status, int out_mode, const char *out, int err_mode, const char *err,
                   const tu_key *keys);

/*
 * One row of a CLI table, run: the launcher with argv (NULL-terminated, or argc_max long), standard
 * input in (may be NULL), MINIVM_TOOL_OPTIONS set to env (NULL: left alone). files: each placeholder
 * ("@prog") with the text of a temporary file named after the row (a NULL text: no file, the
 * placeholder stands for ""), ending with {NULL, NULL}; the placeholders stand for the files' paths
 * in argv, env and the expected texts. A whole argument "@src:REL" is the source tree's file REL.
 */
typedef struct tu_cli_run {
    const char *name;
    const tu_key *files;
    const char *const *argv;
    size_t argc_max;
    const char *env;
    const char *in;
} tu_cli_run;

/* Run it, remove its files, and check the outcome as tu_expect_run does. */
void tu_run_cli(const tu_cli_run *run, int status, int out_mode, const char *out, int err_mode, const char *err);

/* A program whose main returns 42 (the exit status when a run gets as far as the program). */
#define TU_RET42 "module T\n\nmethod main() -> int\n    var r: long\n    ldi r, 42\n    ret r\nend\n"

/* The launcher's texts the CLI tests expect (MVM_VERSION: meson.build's version). */
#define TU_FATAL_TAIL "Error: Could not create the minivm.\nError: A fatal exception has occurred. Program will exit.\n"
/* the VM's mode as HotSpot names it: mixed where the build has a compiler (x86-64 and AArch64,
   docs/compiler.md), interpreted elsewhere and under -Xint (TU_VERSION_MODE) */
#if defined(__x86_64__) || defined(__aarch64__)
#define TU_DEFAULT_MODE "mixed mode"
#else
#define TU_DEFAULT_MODE "interpreted mode"
#endif
#define TU_VERSION_MODE(mode)                            \
    "minivm version \"" MVM_VERSION "\"\n"              \
    "minivm Runtime Environment (build " MVM_VERSION ")\n" \
    "minivm 64-Bit VM (build " MVM_VERSION ", " mode ")\n"
#define TU_VERSION TU_VERSION_MODE(TU_DEFAULT_MODE)
#define TU_USAGE_HEAD "Usage: minivm [options] <program.mva> [args...]\n"
#define TU_DIAGNOSTIC_LOCKED(name)                                                                       \
    "Error: VM option '" name "' is diagnostic and must be enabled via -XX:+UnlockDiagnosticVMOptions.\n" \
    "Error: The unlock option must precede '" name "'.\n"
#define TU_EXPERIMENTAL_LOCKED(name)                                                                         \
    "Error: VM option '" name "' is experimental and must be enabled via -XX:+UnlockExperimentalVMOptions.\n" \
    "Error: The unlock option must precede '" name "'.\n"
/* After a lock's lines HotSpot 25 says what is wrong with the option as given (17 did not). */
#define TU_IMPROPER(option) "Improperly specified VM option '" option "'\n"
#define TU_WARNING(text) "minivm 64-Bit VM warning: " text "\n"

#endif
