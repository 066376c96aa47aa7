/*
 * tests/test_inline.c — the loader's inlining of small static callees (vm/inline.c), suite 'unit'.
 *
 * A table of programs: each runs twice, inlined and as assembled (VM_LOAD_NO_INLINE), main must
 * return the value its row states for both, and main's calls of the row's callees must really be
 * inlined (else both runs would test the same code). The callees read registers before writing
 * them (a call starts them at zero or null, an inlined body must too, however often it runs),
 * write their parameters (the caller's argument stays), return from the middle, jump, allocate
 * across a collection, and the callers jump over and around their inlined calls. The structure
 * is checked too: which calls the library gets inlined, which it must not (intrinsic candidates,
 * virtual calls), where the inlined words say they come from, the register limit, and the
 * dataflow's opcode table against the documented semantics. Stack traces through inlined
 * frames: test_runtime ('inlined_*').
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "opcodes.h"
#include "inline_callees.h"
#include "testutil.h"

static int64_t run_main(const char *src, unsigned options, size_t heap_max)
{
    vm_program *p = tu_load_ex(src, options);
    vm_t *vm = tu_vm(p, heap_max);
    int64_t result = tu_call_main(vm, "T.main").i;
    vm_free(vm);
    vm_program_free(p);
    return result;
}

/* main's value, inlined and not, in a heap of heap_max bytes (0: the default) */
static void expect_both(const char *src, size_t heap_max, int64_t want)
{
    assert_int_equal(run_main(src, 0, heap_max), want);
    assert_int_equal(run_main(src, VM_LOAD_NO_INLINE, heap_max), want);
}

static const vm_method *method(const vm_program *p, const char *qname)
{
    const vm_method *m = vm_find_method(p, qname);
    if (!m)
        fail_msg("no method %s", qname);
    return m;
}

/* how many of m's words came from callee (by qualified name) */
static uint32_t words_from(const vm_method *m, const char *callee)
{
    uint32_t n = 0;
    for (uint32_t k = 0; m->inlined && k < m->ncode; k++)
        n += m->inlined[k].callee && strcmp(m->inlined[k].callee->qname, callee) == 0;
    return n;
}

/* calls of callee left in m's code */
static uint32_t calls_of(const vm_program *p, const vm_method *m, const char *callee)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < m->ncode; k++) {
        vm_opcode op = (vm_opcode)GET_OP(m->code[k]);
        if ((op == OP_CALL || op == OP_CALLV || op == OP_CALLVIRT || op == OP_CALLVIRTV) &&
            strcmp(p->methods[GET_Bx(m->code[k])]->qname, callee) == 0)
            n++;
    }
    return n;
}

/* ---- semantics: programs whose main returns the same inlined and as assembled ------------------ */

/* sumTo reads acc and i before writing them: each of the six calls must start them at 0 (sumTo(5) =
   0+1+2+3+4, then 6, 3, 1, 0, 0: 20 in all); without the clearing the later calls would return the
   first one's sum */
static const char reads_before_writing[] =
    "module T\n"
    SUM_TO_METHOD
    "method main() -> long\n"
    "    var t, n: long\n"
    "    var total: long\n"
    "    ldi n, 6\n"
    "again:\n"
    "    sub n, n, 1\n"
    "    call t = sumTo(n)\n"
    "    add total, total, t\n"
    "    bgt n, 0, again\n"
    "    ret total\n"
    "end\n";

/* a reference the callee tests before it sets it: null on every call, the same inlined call run
   four times (with q left from the last call, every call after a non-null p would return -1000);
   two returns from the middle, a jump to the last one */
static const char ref_read_before_written[] =
    "module T\n"
    "record P\n"
    "    x: long\n"
    "end\n"
    FIRST_OR_METHOD
    "method main() -> long\n"
    "    var t: long\n"
    "    var p: P\n"
    "    var d: long\n"
    "    var sum, x, k: long\n"
    "    var o: P\n"
    "    var z: P\n"
    "    ldi d, 7\n"
    "    new o, P\n"
    "    ldi x, 30\n"
    "    putfield o, x, x\n"
    "loop:\n"
    "    bge k, 4, done\n"
    "    mov p, o\n"
    "    beq k, 2, call\n"
    "    mov p, z\n"
    "call:\n"
    "    call t = firstOr(p, d)\n" /* k = 0, 1, 3: p null, 7; k = 2: 30 */
    "    add sum, sum, t\n"
    "    add k, k, 1\n"
    "    jmp loop\n"
    "done:\n"
    "    ret sum\n"
    "end\n";

/* twice writes its parameter: the caller's argument register keeps 21; the caller's loop jumps back
   over the inlined body and forward past it */
static const char writes_parameter[] =
    "module T\n"
    TWICE_METHOD
    "method main() -> long\n"
    "    var t, a: long\n"
    "    var k, sum: long\n"
    "    ldi a, 21\n"
    "loop:\n"
    "    bge k, 3, done\n"
    "    beq k, 1, skip\n"
    "    call t = twice(a)\n"
    "    add sum, sum, t\n"
    "skip:\n"
    "    add sum, sum, a\n"
    "    add k, k, 1\n"
    "    jmp loop\n"
    "done:\n"
    "    ret sum\n"
    "end\n";

/* a void callee that stores into a static and an array and returns from the middle; a callee that
   allocates, with a collection while the caller holds its result */
static const char void_and_alloc[] =
    "module T\n"
    "static S: long\n"
    "method put(a: long[], i: long, v: long)\n"
    "    blt v, 0, neg\n"
    "    lastore a, i, v\n"
    "    ret\n"
    "neg:\n"
    "    putstatic v, S\n"
    "    ret\n"
    "end\n"
    "method make(n: long) -> long[]\n"
    "    var a: long[]\n"
    "    newarray a, n\n"
    "    ret a\n"
    "end\n"
    "method main() -> long\n"
    "    var a: long[]\n"
    "    var n: long\n"
    "    var b: long[]\n"
    "    var i, v: long\n"
    "    var s, r: long\n"
    "    ldi n, 4\n"
    "    call a = make(n)\n"
    "    call Sys.gc()\n"
    "    mov b, a\n"
    "    ldi i, 2\n"
    "    ldi v, 5\n"
    "    call put(b, i, v)\n"
    "    ldi v, -9\n"
    "    call put(b, i, v)\n"
    "    call Sys.gc()\n"
    "    laload r, a, i\n"
    "    getstatic s, S\n"
    "    mul r, r, s\n"
    "    ret r\n"
    "end\n";

/* an inlined body's objects are no roots once it is left, nor in its next run, as a returned
   call's are not: big's 640,000-byte array three times, then main's own, in a 1 MiB heap (kept
   alive by big's register, any two would not fit) */
static const char dead_body_refs[] =
    "module T\n"
    "method big(n: long) -> long\n"
    "    var a: byte[]\n"
    "    var x: long\n"
    "    newarray a, n\n"
    "    alen x, a\n"
    "    ret x\n"
    "end\n"
    "method main() -> long\n"
    "    var t, n: long\n"
    "    var i, sum: long\n"
    "    var b: byte[]\n"
    "    ldi n, 20000\n"
    "    shl n, n, 5\n"
    "again:\n"
    "    call t = big(n)\n"
    "    add sum, sum, t\n"
    "    add i, i, 1\n"
    "    blt i, 3, again\n"
    "    newarray b, n\n"
    "    alen t, b\n"
    "    add sum, sum, t\n"
    "    ret sum\n"
    "end\n";

/* a void callee without arguments inside an inlined body: its call keeps A = 0, and the caller
   verifies (the rewrite used to be rejected) */
static const char void_no_args[] =
    "module T\n"
    "static S: long\n"
    "method h()\n"
    "    var v: long\n"
    "    getstatic v, S\n"
    "    add v, v, 1\n"
    "    putstatic v, S\n"
    "    ret\n"
    "end\n"
    "method g(x: long) -> long\n"
    "    var y: long\n"
    "    call h()\n"
    "    add y, x, 1\n"
    "    ret y\n"
    "end\n"
    "method main() -> long\n"
    "    var r, x: long\n"
    "    var s: long\n"
    "    ldi x, 40\n"
    "    call r = g(x)\n"
    "    call h()\n"
    "    getstatic s, S\n"
    "    add r, r, s\n"
    "    ret r\n"
    "end\n";

typedef struct inline_case {
    const char *name;
    const char *src;
    struct {
        const char *qname;
        uint32_t calls_left;
    } callees[2];     /* main holds words inlined from each, and calls_left calls of it */
    int64_t want;     /* main's result, both ways */
    size_t heap_max;  /* 0: the default */
} inline_case;

static const inline_case cases[] = {
    {"clears_registers_read_before_written", reads_before_writing, {{"T.sumTo", 0}}, 10 + 6 + 3 + 1 + 0 + 0, 0},
    {"clears_references_read_before_written", ref_read_before_written, {{"T.firstOr", 0}}, 7 + 7 + 30 + 7, 0},
    {"parameter_written_by_callee_is_a_copy", writes_parameter, {{"T.twice", 0}}, 42 + 21 + 21 + 42 + 21, 0},
    {"void_callee_and_allocation_across_gc", void_and_alloc, {{"T.put", 0}, {"T.make", 0}}, -45, 0},
    {"inlined_body_objects_are_not_kept_alive", dead_body_refs, {{"T.big", 0}}, 4 * 640000, 1u << 20},
    /* g's own call of h stays, as g was assembled; main's call of h is inlined */
    {"void_call_without_arguments_in_a_body", void_no_args, {{"T.g", 0}, {"T.h", 1}}, 41 + 2, 0},
};

static void run_case(void **state)
{
    const inline_case *c = *state;
    vm_program *p = tu_load(c->src);
    const vm_method *m = method(p, "T.main");
    for (size_t i = 0; i < 2 && c->callees[i].qname; i++) {
        const char *callee = c->callees[i].qname;
        if (words_from(m, callee) == 0 || calls_of(p, m, callee) != c->callees[i].calls_left)
            fail_msg("main: %u words inlined from %s and %u calls of it left, expected some and %u",
                     words_from(m, callee), callee, calls_of(p, m, callee), c->callees[i].calls_left);
    }
    vm_program_free(p);
    expect_both(c->src, c->heap_max, c->want);
}

/* ---- structure ----------------------------------------------------------------------------------- */

static void inlined_words_say_where_they_are_from(void **state)
{
    (void)state;
    vm_program *p = tu_load(reads_before_writing);
    const vm_method *sum = method(p, "T.sumTo"), *m = method(p, "T.main");
    assert_int_equal(calls_of(p, m, "T.sumTo"), 0);
    assert_non_null(m->inlined);
    assert_true(words_from(m, "T.sumTo") >= sum->ncode - 1); /* its final ret is no word */
    /* each inlined word: the callee's line there, the caller's line of the call */
    for (uint32_t k = 0; k < m->ncode; k++)
        if (m->inlined[k].callee) {
            assert_ptr_equal(m->inlined[k].callee, sum);
            assert_in_range(m->inlined[k].line, 2, 11);
            assert_int_equal(m->lines[k], 18);
        }
    assert_true(m->nregs > 3); /* sumTo's registers after main's */
    vm_program_free(p);
    p = tu_load_ex(reads_before_writing, VM_LOAD_NO_INLINE);
    m = method(p, "T.main");
    assert_null(m->inlined);
    assert_int_equal(calls_of(p, m, "T.sumTo"), 1);
    vm_program_free(p);
}

/* the library: the small static helpers C2 would inline are; the stubs' candidates, the virtual calls and
   a callee over the size limit stay calls */
static void library_helpers_inlined_candidates_kept(void **state)
{
    (void)state;
    vm_program *p = tu_load("module T\nimport MessageDigest\nmethod main()\n    ret\nend\n");
    static const char *const inlined[][2] = {
        {"SHA2.implCompress", "SHA2.implCompressCheck"},
        {"SHA2.implReset", "SHA2.resetHashes"},
        {"SHA5.implCompress", "SHA5.implCompressCheck"},
        {"DigestBase.engineUpdate", "DigestBase.implCompressMultiBlock"},
        {"SHA3.finishAbsorb", "SHA3.setPaddingBytes"},
    };
    for (size_t i = 0; i < sizeof inlined / sizeof inlined[0]; i++) {
        const vm_method *m = method(p, inlined[i][0]);
        if (words_from(m, inlined[i][1]) == 0 || calls_of(p, m, inlined[i][1]) != 0)
            fail_msg("%s: %s not inlined", inlined[i][0], inlined[i][1]);
    }
    /* the intrinsic candidates are called (their stubs), virtual calls too */
    assert_int_equal(calls_of(p, method(p, "SHA2.implCompress"), "SHA2.implCompress0"), 1);
    assert_int_equal(calls_of(p, method(p, "DigestBase.engineUpdate"), "DigestBase.implCompressMultiBlock0"), 1);
    assert_int_equal(calls_of(p, method(p, "DigestBase.engineUpdate"), "DigestBase.engineReset"), 1);
    /* too big: engineUpdate in SHA2.implDigest */
    assert_int_equal(calls_of(p, method(p, "SHA2.implDigest"), "DigestBase.engineUpdate"), 1);
    /* no candidate's code changes (the stubs are checked against it) */
    for (uint32_t i = 0; i < p->nmethods; i++)
        if (p->methods[i]->flags & VM_METHOD_INTRINSIC)
            assert_null(p->methods[i]->inlined);
    vm_program_free(p);
}

/* a caller with 250 registers cannot take a callee with 10 (8-bit register fields): the call stays,
   and runs */
static void register_limit_keeps_the_call(void **state)
{
    (void)state;
    char src[8192];
    int n = snprintf(src, sizeof src,
                     "module T\n"
                     "method f(a: long) -> long\n"
                     "    var b, c, d, e, f, g, h, i, j: long\n"
                     "    add b, a, 1\n"
                     "    ret b\n"
                     "end\n"
                     "method main() -> long\n"
                     "    var r, x: long\n");
    for (int k = 0; k < 248; k++)
        n += snprintf(src + n, sizeof src - (size_t)n, "    var pad%d: long\n", k);
    snprintf(src + n, sizeof src - (size_t)n, "    ldi x, 41\n    call r = f(x)\n    ret r\nend\n");
    vm_program *p = tu_load(src);
    const vm_method *m = method(p, "T.main");
    assert_int_equal(m->nregs, 250);
    assert_int_equal(calls_of(p, m, "T.f"), 1);
    vm_program_free(p);
    expect_both(src, 0, 42);
}

/* the dataflow's table: an opcode writes A exactly when its documented semantics assign R[A] */
static void writes_a_matches_the_semantics(void **state)
{
    (void)state;
    for (int op = 0; op < VM_NOPCODES; op++) {
        int documented = strncmp(vm_opinfo_table[op].doc, "R[A] :=", 7) == 0;
        if (vm_opcode_writes_a(op) != documented)
            fail_msg("%s: vm_opcode_writes_a says %d, its semantics \"%s\"", vm_opinfo_table[op].name,
                     vm_opcode_writes_a(op), vm_opinfo_table[op].doc);
    }
}

int main(void)
{
    tu_group g = {0};
    TU_ADD_TABLE(&g, cases, run_case);
    TU_ADD_TEST(&g, inlined_words_say_where_they_are_from);
    TU_ADD_TEST(&g, library_helpers_inlined_candidates_kept);
    TU_ADD_TEST(&g, register_limit_keeps_the_call);
    TU_ADD_TEST(&g, writes_a_matches_the_semantics);
    return tu_run_group("inline", &g, NULL, NULL);
}
