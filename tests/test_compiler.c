/*
 * tests/test_compiler.c — the compiler tier's shared part (compiler/), suite 'unit': where
 * compiled code may be entered. Each row is a method and, word by word, the entries its
 * bytecode must have: the first word, every jump's target (backward: a loop head; forward;
 * a conditional's taken branch), the word after every kind of call; never a conditional's
 * own JMP word or its fall-through.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "compiler.h"
#include "opcodes.h"
#include "testutil.h"

#define M JIT_ENTRY_METHOD
#define T JIT_ENTRY_TARGET
#define R JIT_ENTRY_RETURN

static const char program[] =
    "module T\n"
    "record P\n"
    "    x: long\n"
    "end\n"
    "virtual method get(p: P) -> long\n"
    "    var v: long\n"
    "    getfield v, p, x\n"
    "    ret v\n"
    "end\n"
    "virtual method touch(p: P)\n"
    "    ret\n"
    "end\n"
    "method id(x: long) -> long\n"
    "    ret x\n"
    "end\n"
    "method nothing()\n"
    "    ret\n"
    "end\n"
    "method loop(n: long) -> long\n"       /* a loop: its head is a target */
    "    var s: long\n"
    "again:\n"
    "    add s, s, n\n"
    "    sub n, n, 1\n"
    "    bgt n, 0, again\n"
    "    ret s\n"
    "end\n"
    "method calls(p: P) -> long\n"          /* every kind of call, and a forward jump */
    "    var t, a, u: long\n"
    "    var q: P\n"
    "    call t = id(a)\n"
    "    call nothing()\n"
    "    mov q, p\n"
    "    callvirt u = get(q)\n"
    "    callvirt touch(q)\n"
    "    jmp out\n"
    "    add t, t, 1\n"
    "out:\n"
    "    ret u\n"
    "end\n";

typedef struct row {
    const char *method;
    uint32_t ncode;
    uint8_t kinds[16];
    uint32_t entries;
} row;

static void entry_points(void **state)
{
    (void)state;
    vm_program *p = tu_load_ex(program, VM_LOAD_NO_INLINE);
    static const row rows[] = {
        /* add, sub, bgt+jmp (back to 0), ret */
        {"T.loop", 5, {M | T, 0, 0, 0, 0}, 1},
        /* call, callv, mov, callvirt, callvirtv, jmp, add, ret */
        {"T.calls", 8, {M, R, R, 0, R, R, 0, T}, 6},
        {"T.id", 1, {M}, 1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const vm_method *m = vm_find_method(p, rows[i].method);
        assert_non_null(m);
        if (m->ncode != rows[i].ncode) {
            for (uint32_t k = 0; k < m->ncode; k++)
                print_message("%s word %u: %s\n", rows[i].method, k, vm_opinfo_table[GET_OP(m->code[k])].name);
            fail_msg("%s has %u words, the row %u", rows[i].method, m->ncode, rows[i].ncode);
        }
        uint8_t kinds[16];
        assert_int_equal(jit_entry_points(m, kinds), rows[i].entries);
        for (uint32_t k = 0; k < m->ncode; k++)
            if (kinds[k] != rows[i].kinds[k])
                fail_msg("%s word %u (%s): entry kinds %u, want %u", rows[i].method, k,
                         vm_opinfo_table[GET_OP(m->code[k])].name, kinds[k], rows[i].kinds[k]);
    }
    vm_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(entry_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
