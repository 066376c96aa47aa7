/*
 * tests/golden.h — what the encoder tests share (tests/test_a64_encoder.c, tests/test_x64_encoder.c):
 * their main, which checks an architecture's encoder against llvm-mc's encodings in a goldens file
 * (tests/gen_<arch>_goldens.py writes it) and the coverage of the encoders its header declares
 * before the test's own tests, and llvm-mc's disassembly for the reports. Each test gives its
 * forms and how to encode one.
 *
 * A goldens line: form <TAB> operands of the C encoder call <TAB> llvm-mc's encoding <TAB> assembly.
 */
#ifndef MINIVM_TESTS_GOLDEN_H
#define MINIVM_TESTS_GOLDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One encoder form: its name in the goldens, its operand count, the C call's text (which
   encoder it exercises), and the goldens seen of it. */
typedef struct golden_form {
    const char *name;
    int nargs;
    const char *call;
    long count;
} golden_form;

/* A test's form list is an X-macro of rows X(name, nargs, call); this X makes a row a golden_form. */
#define GOLDEN_FORM(name, nargs, call) {#name, nargs, #call, 0},

typedef struct golden_arch {
    const char *prefix;            /* the header's encoders: "void PREFIXname(PREFIXasm *as, ..." ("a64_") */
    const char *llvm_mc;           /* llvm-mc's options for disassembly ("-triple=aarch64 -mattr=+sha3") */
    const char *comment;           /* where a comment starts in its output: "//", "#" */
    size_t unit;                   /* the instruction unit in bytes for the reports: 4 (a word), 1 */
    golden_form *forms;
    size_t nforms;
    const char *const *unexercised; /* declared functions the goldens do not cover (plumbing), NULL-ended */
    bool one_each;                 /* coverage: each encoder has exactly one form (else at least) */
    /* Encode form k with operands a into out (cap bytes): the instruction's bytes' count, or -1
       with the encoder's refusal in *err */
    long (*encode)(size_t k, const int64_t *a, uint8_t *out, size_t cap, const char **err);
    /* The goldens' encoding field into want: its length in bytes, 0 when malformed */
    size_t (*encoding)(const char *field, uint8_t *want, size_t cap);
} golden_arch;

struct CMUnitTest;

/*
 * The encoder test's main, `TEST GOLDENS HEADER [MIN_CASES_PER_FORM]` (min_cases when the third
 * is left out). Runs, before the test's own tests:
 *   test_goldens   every line of GOLDENS through g's encoder: its form's encoding must be
 *                  llvm-mc's, byte for byte; each mismatch is reported (the first 20: both
 *                  encodings, the first differing unit's bits, llvm-mc's reading of the
 *                  encoder's bytes);
 *   test_coverage  then every form had at least MIN_CASES_PER_FORM goldens (a form without
 *                  operands one), and every encoder HEADER declares is some form's call.
 */
int golden_main(int argc, char **argv, const golden_arch *g, long min_cases, const struct CMUnitTest *tests,
                size_t ntests);

bool golden_have_llvm_mc(void);

/* llvm-mc's disassembly of n bytes ("<invalid>" when it warns; instructions joined by "; ") */
const char *golden_disassemble(const golden_arch *g, const uint8_t *b, size_t n, char *out, size_t size);

#endif
