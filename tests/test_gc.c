/*
 * tests/test_gc.c — the collector through the real launcher (suite 'gc').
 *
 * The requirement: "a loop that allocates a fresh digest state per
 * iteration for ten million iterations stays under 64 MiB RSS". Each
 * iteration allocates a record shaped like a SHA-3 digest state
 * {state: long[25], buffer: byte[136], blockSize: long} and keeps only the
 * latest; the child's peak RSS (getrusage through wait4, in tu_run) must
 * stay under 64 MiB. The control case keeps every state reachable (a linked
 * chain) and must go over 64 MiB, which shows the measure is real; with
 * -Xmx16m the same chain must end in a clean OutOfMemoryError.
 *
 * Under sanitizers (MINIVM_SANITIZED=1) RSS means nothing and the
 * interpreter is slow: every case runs a short loop for correctness, and
 * the RSS assertions are skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"

#define MIB_KIB 1024L

/* the fields of a SHA-3 digest state */
#define DIGEST_FIELDS "    state: long[]\n    buffer: byte[]\n    blockSize: long\n"
/* y := d.state[x] - (n - 1): 0 when d, the last state made, holds the last iteration's i (x is 0) */
#define LAST_STATE_CHECK "    getfield s, d, state\n    laload y, s, x\n    sub y, y, n\n    add y, y, 1\n"
/* the head of a loop that allocates a state per iteration, 6 lines of the program: i from 0 while
   i < n (n := %ld, the iterations), the arrays' lengths in k25 and k136 */
#define DIGEST_LOOP_HEAD \
    "    ldi n, %ld\n    ldi k25, 25\n    ldi k136, 136\n    ldi i, 0\nloop:\n    bge i, n, done\n"

/* One digest state per iteration, only the latest kept; main returns 0
   when the last state holds the last iteration's values. %ld: iterations. */
static const char digest_loop[] =
    "module G\n"
    "\n"
    "record Digest\n" DIGEST_FIELDS "end\n"
    "\n"
    "method main() -> int\n"
    "    var d: Digest\n"
    "    var s: long[]\n"
    "    var b: byte[]\n"
    "    var i, n, k25, k136, x, y: long\n"
    DIGEST_LOOP_HEAD
    "    new d, Digest\n"
    "    newarray s, k25\n"
    "    newarray b, k136\n"
    "    putfield d, state, s\n"
    "    putfield d, buffer, b\n"
    "    putfield d, blockSize, k136\n"
    "    lastore s, x, i\n"
    "    bastore b, x, i\n"
    "    add i, i, 1\n"
    "    jmp loop\n"
    "done:\n" LAST_STATE_CHECK
    "    getfield x, d, blockSize\n"
    "    sub x, x, k136\n"
    "    or y, y, x\n"
    "    ret y\n"
    "end\n";

/* The same with the state made by a callee (a constructor), so the garbage
   passes through callee register windows and a result register. */
static const char digest_calls[] =
    "module G\n"
    "\n"
    "record Digest\n" DIGEST_FIELDS "end\n"
    "\n"
    "method newDigest(seed: long) -> Digest\n"
    "    var d: Digest\n"
    "    var s: long[]\n"
    "    var b: byte[]\n"
    "    var n, z: long\n"
    "    new d, Digest\n"
    "    ldi n, 25\n"
    "    newarray s, n\n"
    "    ldi n, 136\n"
    "    newarray b, n\n"
    "    putfield d, state, s\n"
    "    putfield d, buffer, b\n"
    "    putfield d, blockSize, n\n"
    "    lastore s, z, seed\n"
    "    ret d\n"
    "end\n"
    "\n"
    "method main() -> int\n"
    "    var d: Digest\n"
    "    var i: long\n"
    "    var s: long[]\n"
    "    var n, x, y: long\n"
    "    ldi n, %ld\n"
    "    ldi i, 0\n"
    "loop:\n"
    "    bge i, n, done\n"
    "    call d = G.newDigest(i)\n"
    "    add i, i, 1\n"
    "    jmp loop\n"
    "done:\n" LAST_STATE_CHECK
    "    ret y\n"
    "end\n";

/* Every state stays reachable: a chain through 'next'. The allocations are on lines 21, 22 and 24. */
static const char digest_chain[] =
    "module G\n"
    "\n"
    "record Node\n"
    "    next: Node\n" DIGEST_FIELDS "end\n"
    "\n"
    "method main() -> int\n"
    "    var head, d: Node\n"
    "    var s: long[]\n"
    "    var b: byte[]\n"
    "    var i, n, k25, k136, x: long\n"
    DIGEST_LOOP_HEAD
    "    new d, Node\n"
    "    newarray s, k25\n"
    "    lastore s, x, i\n"
    "    newarray b, k136\n"
    "    putfield d, next, head\n"
    "    putfield d, state, s\n"
    "    putfield d, buffer, b\n"
    "    putfield d, blockSize, k136\n"
    "    mov head, d\n"
    "    add i, i, 1\n"
    "    jmp loop\n"
    "done:\n"
    /* walk the chain: every node is there, newest first */
    "    ldi x, 0\n"
    "walk:\n"
    "    bnull head, counted\n"
    "    getfield s, head, state\n"
    "    laload i, s, x\n"
    "    sub n, n, 1\n"
    "    bne i, n, broken\n"
    "    getfield head, head, next\n"
    "    jmp walk\n"
    "counted:\n"
    "    ret n\n"
    "broken:\n"
    "    ldi n, 99\n"
    "    ret n\n"
    "end\n";

enum { RSS_NONE, RSS_BELOW, RSS_ABOVE };

typedef struct gc_case {
    const char *name;
    const char *src;         /* printf format: %ld is the iteration count */
    const char *opt;         /* a launcher option, or NULL */
    long iterations;         /* normal builds */
    long iterations_sanitized;
    int status;
    const char *err;         /* expected stderr, or its first line when traces are given */
    const char *traces[3];   /* the trace, one of these ('@' = the program file's base name) */
    int rss;                 /* RSS_BELOW / RSS_ABOVE 64 MiB */
} gc_case;

static const gc_case cases[] = {
    /* the requirement: ten million fresh digest states, under 64 MiB */
    {"digest_state_per_iteration_10M_under_64MiB", digest_loop, NULL, 10000000, 100000, 0, "", {NULL}, RSS_BELOW},
    {"digest_state_from_callee_10M_under_64MiB", digest_calls, NULL, 10000000, 100000, 0, "", {NULL}, RSS_BELOW},
    /* the control: with everything reachable the same allocations take over 64 MiB */
    {"control_retained_chain_over_64MiB", digest_chain, "-Xmx512m", 250000, 20000, 0, "", {NULL}, RSS_ABOVE},
    /* a heap limit ends a retaining loop with a clean OutOfMemoryError, and holds RSS down */
    {"retained_chain_hits_Xmx16m", digest_chain, "-Xmx16m", 10000000, 10000000, 1,
     "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
     {"\tat G.main(@:21)\n", "\tat G.main(@:22)\n", "\tat G.main(@:24)\n"}, RSS_BELOW},
};


/*
 * A collection whose mark stack cannot grow (no memory: here a mark stack of
 * two entries) must still keep everything reachable: each Node queues three
 * records, so marking overflows at every node, and the objects left untraced
 * are found again by the rescan. The walk after Sys.gc() and a round of fresh
 * garbage reads every payload: a freed one would be wrong (or, under ASan, a
 * use after free).
 */
static const char overflow_ladder[] =
    "module L\n"
    "record Leaf\n"
    "    payload: long[]\n"
    "end\n"
    "record Node\n"
    "    next: Node\n"
    "    a: Leaf\n"
    "    b: Leaf\n"
    "end\n"
    "method main() -> long\n"
    "    var head, d: Node\n"
    "    var la, lb: Leaf\n"
    "    var s: long[]\n"
    "    var i, n, k, x, sum, v: long\n"
    "    ldi n, 2000\n"
    "    ldi k, 4\n"
    "    ldi x, 0\n"
    "    ldi i, 0\n"
    "build:\n"
    "    bge i, n, built\n"
    "    new d, Node\n"
    "    new la, Leaf\n"
    "    newarray s, k\n"
    "    lastore s, x, i\n"
    "    putfield la, payload, s\n"
    "    new lb, Leaf\n"
    "    newarray s, k\n"
    "    lastore s, x, i\n"
    "    putfield lb, payload, s\n"
    "    putfield d, a, la\n"
    "    putfield d, b, lb\n"
    "    putfield d, next, head\n"
    "    mov head, d\n"
    "    add i, i, 1\n"
    "    jmp build\n"
    "built:\n"
    "    call Sys.gc()\n"
    "    ldi i, 0\n"
    "    ldi v, 12345\n"
    "garbage:\n"
    "    bge i, n, walk\n"
    "    newarray s, k\n"
    "    lastore s, x, v\n"
    "    add i, i, 1\n"
    "    jmp garbage\n"
    "walk:\n"
    "    ldi sum, 0\n"
    "next:\n"
    "    bnull head, done\n"
    "    getfield la, head, a\n"
    "    getfield s, la, payload\n"
    "    laload v, s, x\n"
    "    add sum, sum, v\n"
    "    getfield lb, head, b\n"
    "    getfield s, lb, payload\n"
    "    laload v, s, x\n"
    "    add sum, sum, v\n"
    "    getfield head, head, next\n"
    "    jmp next\n"
    "done:\n"
    "    ret sum\n"
    "end\n";

static void mark_stack_overflow_keeps_everything_reachable(void **state)
{
    (void)state;
    vm_program *p = tu_load(overflow_ladder);
    vm_t *vm = tu_vm(p, 0);
    vm->heap.mark_stack_max = 2;
    assert_int_equal(tu_call_main(vm, "L.main").i, 2000 * 1999); /* 2 * (0 + 1 + ... + 1999) */
    assert_true(vm->heap.collections >= 1);
    /* main has returned: nothing is rooted any more, and everything goes */
    vm_gc(vm);
    assert_null(vm->heap.objects);
    assert_int_equal(vm->heap.used, 0);
    vm_free(vm);
    vm_program_free(p);
}

/*
 * The small-object pool (vm/heap.c): byte arrays of every size from 0 to 699 bytes (small
 * ones from the size classes' free lists and chunks, large ones malloc'ed), every third
 * kept on a chain with its own bytes; after Sys.gc() the same sizes again, each of which
 * must read all zero (a reused object is cleared), then every kept array must still hold
 * its bytes (no free list handed out a live object). main returns the kept count, 1000.
 */
static const char pool_reuse[] =
    "module P\n"
    "record Node\n"
    "    next: Node\n"
    "    data: byte[]\n"
    "    seed: long\n"
    "end\n"
    "method main() -> long\n"
    "    var head, d: Node\n"
    "    var a: byte[]\n"
    "    var i, n, len, k, v, c, kept: long\n"
    "    ldi n, 3000\n"
    "    ldi i, 0\n"
    "    ldi kept, 0\n"
    "build:\n"
    "    bge i, n, built\n"
    "    ldi len, 700\n"
    "    rem len, i, len\n"
    "    newarray a, len\n"
    "    ldi k, 0\n"
    "pattern:\n"
    "    bge k, len, filled\n"
    "    add v, i, k\n"
    "    bastore a, k, v\n"
    "    add k, k, 1\n"
    "    jmp pattern\n"
    "filled:\n"
    "    ldi v, 3\n"
    "    rem v, i, v\n"
    "    bne v, 0, next\n"
    "    new d, Node\n"
    "    putfield d, next, head\n"
    "    putfield d, data, a\n"
    "    putfield d, seed, i\n"
    "    mov head, d\n"
    "    add kept, kept, 1\n"
    "next:\n"
    "    add i, i, 1\n"
    "    jmp build\n"
    "built:\n"
    "    call Sys.gc()\n"
    "    ; fresh arrays of every size, some from the free lists: all zero\n"
    "    ldi i, 0\n"
    "fresh:\n"
    "    bge i, n, walk\n"
    "    ldi len, 700\n"
    "    rem len, i, len\n"
    "    newarray a, len\n"
    "    ldi k, 0\n"
    "zeros:\n"
    "    bge k, len, zeroed\n"
    "    baload v, a, k\n"
    "    bne v, 0, dirty\n"
    "    add k, k, 1\n"
    "    jmp zeros\n"
    "zeroed:\n"
    "    add i, i, 1\n"
    "    jmp fresh\n"
    "walk:\n"
    "    ; every kept array still holds its own bytes\n"
    "    ldi c, 0\n"
    "chain:\n"
    "    bnull head, done\n"
    "    getfield a, head, data\n"
    "    getfield i, head, seed\n"
    "    alen len, a\n"
    "    ldi k, 0\n"
    "check:\n"
    "    bge k, len, ok\n"
    "    baload v, a, k\n"
    "    add n, i, k\n"
    "    i2b n, n\n"
    "    bne v, n, broken\n"
    "    add k, k, 1\n"
    "    jmp check\n"
    "ok:\n"
    "    add c, c, 1\n"
    "    getfield head, head, next\n"
    "    jmp chain\n"
    "done:\n"
    "    bne c, kept, broken\n"
    "    ret c\n"
    "dirty:\n"
    "    ldi c, -1\n"
    "    ret c\n"
    "broken:\n"
    "    ldi c, -2\n"
    "    ret c\n"
    "end\n"
;

static void small_objects_are_reused_cleared_and_never_live(void **state)
{
    (void)state;
    vm_program *p = tu_load(pool_reuse);
    vm_t *vm = tu_vm(p, 0);
    assert_int_equal(tu_call_main(vm, "P.main").i, 1000); /* -1: a fresh array was not zero; -2: a kept one changed */
    assert_true(vm->heap.collections >= 1);
    vm_free(vm);
    vm_program_free(p);
}

static void run_case(void **state)
{
    const gc_case *c = *state;
    long iters = tu_sanitized() ? c->iterations_sanitized : c->iterations;
    char src[4096], fname[128], path[4096];
    snprintf(src, sizeof src, c->src, iters);
    snprintf(fname, sizeof fname, "gc-%s.mva", c->name);
    snprintf(path, sizeof path, "%s", tu_temp_file(fname, src, strlen(src)));
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

    const char *argv[3] = {NULL};
    size_t n = 0;
    if (c->opt)
        argv[n++] = c->opt;
    argv[n++] = path;
    tu_result r = tu_run(argv, NULL, 280);
    unlink(path);
    double secs = r.secs;
    print_message("    %s: %ld iterations, exit %d, max RSS %ld KiB (%.1f MiB), %.2f s\n", c->name, iters, r.status,
                  r.maxrss_kib, (double)r.maxrss_kib / 1024.0, secs);

    tu_expect_status(&r, c->status);
    assert_string_equal(r.out, "");
    if (!c->traces[0]) {
        assert_string_equal(r.err, c->err);
    } else {
        char *nl = strchr(r.err, '\n');
        assert_non_null(nl);
        *nl = '\0';
        assert_string_equal(r.err, c->err);
        int found = 0;
        for (size_t i = 0; i < 3 && c->traces[i]; i++) {
            char *want = tu_subst(c->traces[i], base);
            found |= strcmp(nl + 1, want) == 0;
            free(want);
        }
        if (!found)
            fail_msg("unexpected trace:\n%s", nl + 1);
    }
    long rss = r.maxrss_kib;
    tu_result_free(&r);

    if (c->rss == RSS_NONE)
        return;
    if (tu_sanitized()) {
        print_message("    (sanitized build: RSS assertion skipped)\n");
        skip();
    }
    if (c->rss == RSS_BELOW && rss >= 64 * MIB_KIB)
        fail_msg("max RSS %ld KiB is not under 64 MiB", rss);
    if (c->rss == RSS_ABOVE && rss <= 64 * MIB_KIB)
        fail_msg("max RSS %ld KiB is not over 64 MiB: the control does not show retention", rss);
}

/*
 * -Xss bounds what the register stack and the frames commit together: a
 * recursion to StackOverflowError under -Xss128m peaks under 128 MiB plus the
 * VM's own 32 (frames on top of the registers would take 1.75 times the
 * size: -Xss1g about 1.8 GB).
 */
static const char recursion[] =
    "module R\n"
    "method f(n: long) -> long\n    var r, m: long\n    add m, n, 1\n    call r = f(m)\n    ret r\nend\n"
    "method main() -> int\n    var r, z: long\n    ldi z, 0\n    call r = f(z)\n    ret r\nend\n";

static void stack_size_bounds_what_it_commits(void **state)
{
    (void)state;
    if (tu_sanitized() || tu_emulated()) {
        print_message("skipped: RSS means nothing under sanitizers or QEMU\n");
        skip();
    }
    const char *argv[] = {"-Xss128m", tu_temp_file("recursion.mva", recursion, sizeof recursion - 1), NULL};
    tu_result r = tu_run(argv, NULL, 120);
    print_message("    -Xss128m recursion: exit %d, max RSS %ld KiB (%.1f MiB), %.2f s\n", r.status, r.maxrss_kib,
                  (double)r.maxrss_kib / 1024.0, r.secs);
    tu_expect_status(&r, 1);
    tu_expect_text("stderr", r.err, TU_PREFIX, "Exception in thread \"main\" java.lang.StackOverflowError\n");
    if (r.maxrss_kib > (128 + 32) * MIB_KIB)
        fail_msg("max RSS %ld KiB: -Xss128m committed more than 128 MiB and the VM's 32", r.maxrss_kib);
    tu_result_free(&r);
}

int main(void)
{
    tu_group g = {0};
    TU_ADD_TABLE(&g, cases, run_case);
    TU_ADD_TEST(&g, mark_stack_overflow_keeps_everything_reachable);
    TU_ADD_TEST(&g, stack_size_bounds_what_it_commits);
    TU_ADD_TEST(&g, small_objects_are_reused_cleared_and_never_live);
    return tu_run_group("gc", &g, NULL, NULL);
}
