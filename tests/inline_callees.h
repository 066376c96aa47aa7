/*
 * tests/inline_callees.h — small static callees the loader inlines (vm/inline.c), in the programs of
 * test_inline.c (run in the process, inlined and as assembled) and of test_cli.c (through the
 * launcher, with -XX:+PrintInlining): each does what an inlined body must do as its call would.
 */
#ifndef MINIVM_TESTS_INLINE_CALLEES_H
#define MINIVM_TESTS_INLINE_CALLEES_H

/* sumTo(n) = 0 + 1 + ... + n-1, reading acc and i before writing them: a call starts them at zero,
   and so must every run of an inlined body (ten lines) */
#define SUM_TO_METHOD                 \
    "method sumTo(n: long) -> long\n" \
    "    var acc, i: long\n"          \
    "loop:\n"                         \
    "    bge i, n, done\n"            \
    "    add acc, acc, i\n"           \
    "    add i, i, 1\n"               \
    "    jmp loop\n"                  \
    "done:\n"                         \
    "    ret acc\n"                   \
    "end\n"

/* twice(a) = a + a, written into its parameter: the caller's argument keeps its value (four lines) */
#define TWICE_METHOD                  \
    "method twice(a: long) -> long\n" \
    "    add a, a, a\n"               \
    "    ret a\n"                     \
    "end\n"

/* firstOr(p, d) = p.x, or d when p is null (a record P with a long x); q, a reference read before
   written, must be null on every run (else -1000); two returns from the middle, a jump to the last */
#define FIRST_OR_METHOD                         \
    "method firstOr(p: P, d: long) -> long\n"   \
    "    var q: P\n"                            \
    "    var v: long\n"                         \
    "    bnonnull q, bad\n"                     \
    "    bnull p, none\n"                       \
    "    getfield v, p, x\n"                    \
    "    mov q, p\n"                            \
    "    ret v\n"                               \
    "none:\n"                                   \
    "    jmp out\n"                             \
    "bad:\n"                                    \
    "    ldi v, -1000\n"                        \
    "    ret v\n"                               \
    "out:\n"                                    \
    "    ret d\n"                               \
    "end\n"

#endif
