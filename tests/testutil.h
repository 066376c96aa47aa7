/*
 * tests/testutil.h — helpers shared by the cmocka tests: load programs from
 * text, call methods, and run the minivm launcher as a child process.
 */
#ifndef MINIVM_TESTUTIL_H
#define MINIVM_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
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

/* Path of a file in the source tree (from MINIVM_SOURCE_ROOT), static buffer. */
const char *tu_source_path(const char *rel);

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

/* The launcher's texts the CLI tests expect (MVM_VERSION: meson.build's version). */
#define TU_FATAL_TAIL "Error: Could not create the minivm.\nError: A fatal exception has occurred. Program will exit.\n"
#define TU_VERSION                                       \
    "minivm version \"" MVM_VERSION "\"\n"              \
    "minivm Runtime Environment (build " MVM_VERSION ")\n" \
    "minivm 64-Bit VM (build " MVM_VERSION ", interpreted mode)\n"
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
