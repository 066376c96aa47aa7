/*
 * tests/test_templates.c — an architecture's compiler templates against the interpreter, suite
 * 'unit': built once per architecture (TEMPLATES_ARCH, its jit_arch: templates_x86_64 and
 * templates_aarch64), each run where the host executes that architecture's code (natively or
 * under QEMU), skipped elsewhere.
 *
 * Each row is one instruction. It is put in a method f(x, y, z, w) twice: once on the
 * parameters themselves (registers r0..r3) and once on registers at the window's far end
 * (moved there and back), so that both displacement sizes are used. The method is run by the
 * interpreter and, compiled, from a segmented code cache through the trampoline, on edge
 * values and random ones. Both must leave the same value in x. The compiled code must leave
 * at the method's `ret`, which has no template, or, where the row says so, at the instruction
 * itself: a failed check (/ by zero, null, an index out of bounds), which the interpreter
 * then executes and throws.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codecache.h"
#include "compiler.h"
#include "opcodes.h"
#include "jit_arch.h"
#include "testutil.h"

extern const jit_arch TEMPLATES_ARCH;
static const jit_arch *const arch = &TEMPLATES_ARCH;

typedef struct row {
    const char *insn; /* on x, y, z, w (long), or a (long[]), b (int[]), c (byte[]), i, v, p (P) */
    int arrays;       /* f(a, b, c, i, v, p) instead of f(x, y, z, w) */
    int high;         /* also on high registers (0: iABCD forms reach r63 only, so 60) */
} row;

static const row rows[] = {
    {"mov x, y", 0, 250},        {"ldi x, -32768", 0, 250},   {"ldi x, 32767", 0, 250},
    {"ldi x, 0x123456789abcdef0", 0, 250},                     {"add x, y, z", 0, 250},
    {"add x, y, -128", 0, 250},  {"add x, y, 127", 0, 250},   {"sub x, y, z", 0, 250},
    {"sub x, y, -128", 0, 250},  {"mul x, y, z", 0, 250},     {"div x, y, z", 0, 250},
    {"rem x, y, z", 0, 250},     {"neg x, y", 0, 250},        {"and x, y, z", 0, 250},
    {"and x, y, 255", 0, 250},   {"or x, y, z", 0, 250},      {"xor x, y, z", 0, 250},
    {"andn x, y, z", 0, 250},    {"not x, y", 0, 250},        {"shl x, y, z", 0, 250},
    {"shl x, y, 0", 0, 250},     {"shl x, y, 63", 0, 250},    {"shr x, y, z", 0, 250},
    {"shr x, y, 1", 0, 250},     {"sar x, y, z", 0, 250},     {"sar x, y, 63", 0, 250},
    {"rol x, y, z", 0, 250},     {"rol x, y, 1", 0, 250},     {"ror x, y, z", 0, 250},
    {"ror x, y, 63", 0, 250},    {"xor3 x, y, z, w", 0, 60},  {"bcax x, y, z, w", 0, 60},
    {"xrol x, y, z, 0", 0, 60},  {"xrol x, y, z, 63", 0, 60}, {"rax1 x, y, z", 0, 250},
    {"addw x, y, z", 0, 250},    {"addw x, y, -1", 0, 250},   {"subw x, y, z", 0, 250},
    {"mulw x, y, z", 0, 250},    {"shlw x, y, z", 0, 250},    {"shlw x, y, 0", 0, 250},
    {"shlw x, y, 31", 0, 250},   {"shrw x, y, z", 0, 250},    {"shrw x, y, 0", 0, 250},
    {"shrw x, y, 31", 0, 250},   {"sarw x, y, z", 0, 250},    {"sarw x, y, 5", 0, 250},
    {"rolw x, y, z", 0, 250},    {"rolw x, y, 7", 0, 250},    {"rorw x, y, z", 0, 250},
    {"rorw x, y, 31", 0, 250},   {"l2i x, y", 0, 250},        {"i2b x, y", 0, 250},
    {"zextw x, y", 0, 250},
    /* conditionals: x becomes 1 when the branch is taken */
    {"beq y, z, t\n    jmp e\nt:\n    ldi x, 1\ne:", 0, 250},
    {"bne y, z, t\n    jmp e\nt:\n    ldi x, 1\ne:", 0, 250},
    {"blt y, z, t\n    jmp e\nt:\n    ldi x, 1\ne:", 0, 250},
    {"bge y, z, t\n    jmp e\nt:\n    ldi x, 1\ne:", 0, 250},
    {"ble y, z, t\n    jmp e\nt:\n    ldi x, 1\ne:", 0, 250},
    {"bgt y, z, t\n    jmp e\nt:\n    ldi x, 1\ne:", 0, 250},
    {"beq y, -128, t\n    jmp e\nt:\n    ldi x, 1\ne:", 0, 250},
    {"blt y, 127, t\n    jmp e\nt:\n    ldi x, 1\ne:", 0, 250},
    {"bgt y, 0, t\n    jmp e\nt:\n    ldi x, 1\ne:", 0, 250},
    /* a loop: x = y + (z & 15) */
    {"mov x, y\n    and w, z, 15\nl:\n    ble w, 0, e\n    add x, x, 1\n    sub w, w, 1\n    jmp l\ne:", 0, 250},
    /* arrays (a long[4], b int[4], c byte[4], or null; i an index, maybe out of bounds) */
    {"laload v, a, i", 1, 0},    {"laload v, a, 3", 1, 0},    {"lastore a, i, v\n    laload v, a, i", 1, 0},
    {"lastore a, 0, v\n    laload v, a, 0", 1, 0},            {"iaload v, b, i", 1, 0},
    {"iastore b, i, v\n    iaload v, b, i", 1, 0},             {"baload v, c, i", 1, 0},
    {"bastore c, i, v\n    baload v, c, i", 1, 0},             {"alen v, a", 1, 0},
    {"ldle64 v, c, i", 1, 0},    {"ldle32 v, c, i", 1, 0},    {"ldbe64 v, c, i", 1, 0},
    {"ldbe32 v, c, i", 1, 0},
    {"stle64 c, i, v\n    ldbe64 v, c, i", 1, 0},             {"stle32 c, i, v\n    ldle32 v, c, i", 1, 0},
    {"stbe64 c, i, v\n    ldle64 v, c, i", 1, 0},             {"stbe32 c, i, v\n    ldbe32 v, c, i", 1, 0},
    {"getfield v, p, x", 1, 0},  {"putfield p, x, v\n    getfield v, p, x", 1, 0},
};

static const int64_t edges[] = {0, 1, -1, 2, 31, 32, 63, 64, 127, -128, 255, INT32_MAX, INT32_MIN,
                                (int64_t)UINT32_MAX, INT64_MAX, INT64_MIN, 0x0123456789abcdefLL};
#define NEDGES (sizeof edges / sizeof edges[0])

static uint64_t rng = 0x9e3779b97f4a7c15u;
static int64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (int64_t)rng;
}

/* The program: f's body is insn on the parameters, or, with high, on registers h(high-4).. */
static char *program(const row *r, int high)
{
    static char src[8192];
    int n = snprintf(src, sizeof src, "module T\nrecord P\n    x: long\nend\n");
    if (r->arrays)
        n += snprintf(src + n, sizeof src - (size_t)n,
                      "method f(a: long[], b: int[], c: byte[], i: long, v: long, p: P) -> long\n");
    else
        n += snprintf(src + n, sizeof src - (size_t)n, "method f(x: long, y: long, z: long, w: long) -> long\n");
    if (!high) {
        n += snprintf(src + n, sizeof src - (size_t)n, "    %s\n", r->insn);
    } else {
        /* pad so that the operands are the window's last registers */
        for (int p = 4; p < high - 4; p++)
            n += snprintf(src + n, sizeof src - (size_t)n, "    var pad%d: long\n", p);
        n += snprintf(src + n, sizeof src - (size_t)n,
                      "    var hx, hy, hz, hw: long\n    mov hx, x\n    mov hy, y\n    mov hz, z\n    mov hw, w\n");
        /* the instruction with x, y, z, w renamed hx, hy, hz, hw */
        char insn[512];
        size_t o = 0;
        for (const char *s = r->insn; *s && o + 2 < sizeof insn; s++) {
            bool operand = (*s == 'x' || *s == 'y' || *s == 'z' || *s == 'w') && (s == r->insn || s[-1] == ' ') &&
                           (s[1] == ',' || s[1] == '\n' || s[1] == '\0');
            if (operand)
                insn[o++] = 'h';
            insn[o++] = *s;
        }
        insn[o] = '\0';
        n += snprintf(src + n, sizeof src - (size_t)n, "    %s\n    mov x, hx\n", insn);
    }
    snprintf(src + n, sizeof src - (size_t)n, "    ret %s\nend\n", r->arrays ? "v" : "x");
    return src;
}

typedef struct jit {
    codecache cc;
    jit_enter_fn enter;
    jit_ctx ctx;
} jit;

static void jit_open(jit *j, vm_t *vm)
{
    char err[256];
    assert_true(codecache_init_segments(&j->cc, 1 << 20, 64, err, sizeof err));
    uint8_t *code = codecache_begin_segment(&j->cc, 4096, err, sizeof err);
    assert_non_null(code);
    size_t exit_offset, size, entry = arch->trampoline(code, 4096, &exit_offset, &size, err, sizeof err);
    if (entry == SIZE_MAX)
        fail_msg("no trampoline: %s", err);
    const stub_mark *m = codecache_end_segment(&j->cc, "jit_enter", entry, size, err, sizeof err);
    assert_non_null(m);
    j->enter = (jit_enter_fn)(uintptr_t)m->entry; /* object to function pointer: POSIX */
    j->ctx = (jit_ctx){.exit = m->start + exit_offset, .vm = vm};
}

/* f compiled: its entry at word 0 */
static const uint8_t *jit_compile(jit *j, const vm_method *m)
{
    char err[256];
    uint8_t kinds[512];
    size_t entry_of[512];
    assert_true(m->ncode <= 512);
    jit_entry_points(m, kinds);
    uint8_t *code = codecache_begin_segment(&j->cc, 1 << 16, err, sizeof err);
    assert_non_null(code);
    size_t size;
    if (!arch->method(code, 1 << 16, j->ctx.vm, m, kinds, NULL, entry_of, &size, err, sizeof err))
        fail_msg("%s not compiled: %s", m->qname, err);
    const stub_mark *sm = codecache_end_segment(&j->cc, m->qname, entry_of[0], size, err, sizeof err);
    assert_non_null(sm);
    return sm->entry;
}

/* f interpreted: VM_OK with its value, or the exception it threw */
static int interpret(vm_t *vm, const vm_method *m, const vm_value *args, vm_value *result)
{
    return vm_call(vm, m, args, result);
}

static void compare(const row *r, int high)
{
    vm_program *p = tu_load_ex(program(r, high), VM_LOAD_NO_INLINE);
    vm_t *vm = tu_vm(p, 0);
    const vm_method *m = vm_find_method(p, "T.f");
    assert_non_null(m);
    jit j;
    jit_open(&j, vm);
    const uint8_t *entry = jit_compile(&j, m);
    uint32_t ret_word = m->ncode - 1;
    vm_value *R = calloc(m->nregs + 4u, sizeof *R);
    assert_non_null(R);
    /* a long[8], an int[8], a byte[8] of random contents and a P: the array rows' operands */
    enum { LEN = 8 };
    vm_obj *arrays[4] = {NULL, NULL, NULL, NULL};
    if (r->arrays) {
        static const vm_tkind kinds[3] = {VM_T_LONGS, VM_T_INTS, VM_T_BYTES};
        for (int a = 0; a < 4; a++) {
            arrays[a] = a < 3 ? vm_new_array(vm, kinds[a], LEN) : vm_new_record(vm, 0);
            assert_non_null(arrays[a]);
            vm_push_root(vm, &arrays[a]);
        }
        for (int e = 0; e < LEN; e++) {
            VM_LONGS(arrays[0])[e] = next_random();
            VM_INTS(arrays[1])[e] = (int32_t)next_random();
            VM_BYTES(arrays[2])[e] = (int8_t)next_random();
        }
    }
    for (int t = 0; t < (int)(NEDGES * NEDGES) + 200; t++) {
        /* the first NEDGES^2 trials pair every edge value with every other as (y, z) */
        vm_value args[6];
        bool edge = t < (int)(NEDGES * NEDGES);
        for (int a = 0; a < 6; a++)
            args[a].i = next_random() >> (t % 64);
        if (!r->arrays && edge) {
            args[1].i = edges[t / NEDGES];
            args[2].i = edges[t % NEDGES];
        } else if (r->arrays) {
            for (int a = 0; a < 3; a++)
                args[a].ref = t % 11 == 10 ? NULL : arrays[a];
            args[3].i = t % 7 == 6 ? -1 : t % 10; /* -1, 8 and 9: out of bounds */
            args[5].ref = t % 13 == 12 ? NULL : arrays[3];
        }
        /* interpreted, then the contents put back: both runs start from the same */
        static const size_t bytes[4] = {LEN * 8, LEN * 4, LEN, 8}; /* each object's data */
        unsigned char saved[4][LEN * 8];
        for (int a = 0; a < 4 && r->arrays; a++)
            memcpy(saved[a], arrays[a]->data, bytes[a]);
        vm_value want;
        int st = interpret(vm, m, args, &want);
        for (int a = 0; a < 4 && r->arrays; a++)
            memcpy(arrays[a]->data, saved[a], bytes[a]);
        /* compiled */
        memset(R, 0, (m->nregs + 4u) * sizeof *R);
        memcpy(R, args, m->nparams * sizeof *R);
        vm_frame fr = {.m = m, .pc = m->code, .base = 0};
        const uint32_t *at = j.enter(&j.ctx, R, &fr, entry, &fr);
        assert_true(at >= m->code && at < m->code + m->ncode);
        uint32_t k = (uint32_t)(at - m->code);
        if (st != VM_OK) {
            /* the interpreter threw: the compiled code must have left at that word (not the ret) */
            if (k == ret_word)
                fail_msg("%s (high %d) args %lld %lld %lld %lld: the interpreter threw %s, the compiled code "
                         "went on to the ret",
                         r->insn, high, (long long)args[0].i, (long long)args[1].i, (long long)args[2].i,
                         (long long)args[3].i, vm_exc_class(vm->exc));
            uint32_t op = GET_OP(m->code[k]);
            assert_true(vm_opinfo_table[op].flags & VM_OPF_THROWS);
            vm->exc = VM_EXC_NONE;
            continue;
        }
        if (k != ret_word)
            fail_msg("%s (high %d): the compiled code left at word %u (%s), not at the ret", r->insn, high, k,
                     vm_opinfo_table[GET_OP(m->code[k])].name);
        int64_t got = R[GET_A(m->code[ret_word])].i;
        if (got != want.i)
            fail_msg("%s (high %d) args %lld %lld %lld %lld: compiled %lld, interpreted %lld", r->insn, high,
                     (long long)args[0].i, (long long)args[1].i, (long long)args[2].i, (long long)args[3].i,
                     (long long)got, (long long)want.i);
    }
    if (r->arrays)
        vm_pop_roots(vm, 4);
    free(R);
    codecache_release(&j.cc);
    vm_free(vm);
    vm_program_free(p);
}

static void templates_agree_with_the_interpreter(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        compare(&rows[i], 0);
        if (rows[i].high)
            compare(&rows[i], rows[i].high);
    }
}

int main(void)
{
    if (strcmp(arch->name, TEMPLATES_HOST) != 0) {
        printf("templates_%s: skipped, the host (%s) cannot run %s code\n", arch->name, TEMPLATES_HOST, arch->name);
        return 77; /* Meson's skip: never a silent pass */
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(templates_agree_with_the_interpreter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
