/*
 * tests/test_jit.c — the compiler tier in the VM (suite 'cli'; docs/compiler.md).
 *
 * - Every program's output, exception, stack trace and exit status are the same under -Xint, the
 *   default, -Xcomp and mixed runs that compile methods in the middle of a run (a small
 *   CompileThreshold, with and without on-stack replacement; compiled frames around an excluded,
 *   interpreted one): the digest tool on the library's digests with their intrinsics off,
 *   exceptions thrown from compiled code through interpreted frames, the collector under
 *   compiled frames, deep recursion and StackOverflowError, allocation failures.
 * - In-process: the collector runs while compiled frames hold the only references (a tiny heap);
 *   a loop's back-edge enters its method's compiled code (OSR), and never with
 *   -XX:-UseOnStackReplacement.
 * - The flags' texts as HotSpot 25's: PrintCompilation's lines, CompileCommand's echo, exclusion
 *   and errors, PrintAssembly, CompileThreshold's and OnStackReplacePercentage's constraints, the
 *   mode options' values and origins in PrintFlagsFinal; natively, the same runs of the real
 *   HotSpot 25 (scripts/oracle) when it is set up, line by line.
 *
 * Tests that need compiled code skip where this host has no compiler tier (AArch64 today).
 */
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>

#include "jit.h"
#include "testutil.h"

enum { EXACT = TU_EXACT, PREFIX = TU_PREFIX, CONTAINS = TU_CONTAINS, LACKS = TU_LACKS };

/* ---- programs --------------------------------------------------------------------------------- */

/* main (line 20..) calls mid, mid calls leaf, leaf reads a[8] of a long[8] on the ninth trip */
static const char mixed_src[] =
    "module T\n"
    "\n"
    "method leaf(a: long[], i: long) -> long\n"
    "    var v: long\n"
    "    laload v, a, i\n"
    "    ret v\n"
    "end\n"
    "\n"
    "method mid(a: long[], i: long) -> long\n"
    "    var v: long\n"
    "    var w: long[]\n"
    "    var j: long\n"
    "    mov w, a\n"
    "    mov j, i\n"
    "    call v = leaf(w, j)\n"
    "    add v, v, 1\n"
    "    ret v\n"
    "end\n"
    "\n"
    "method main() -> int\n"
    "    var n, i, s: long\n"
    "    var a: long[]\n"
    "    var v: long\n"
    "    var w: long[]\n"
    "    var j: long\n"
    "    ldi n, 8\n"
    "    newarray a, n\n"
    "    ldi i, 0\n"
    "    ldi s, 0\n"
    "loop:\n"
    "    mov w, a\n"
    "    mov j, i\n"
    "    call v = mid(w, j)\n"
    "    add s, s, v\n"
    "    add i, i, 1\n"
    "    ble i, n, loop\n"
    "    ret s\n"
    "end\n";

static const char mixed_trace[] = "Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: Index 8 out of "
                                  "bounds for length 8\n"
                                  "\tat T.leaf(@:5)\n"
                                  "\tat T.mid(@:15)\n"
                                  "\tat T.main(@:33)\n";

/* Lists of ROUNDS x 300 nodes, each with a long[16] of its own, of which only one list stays
   alive: main's sum of every kept node's value and element 3, ROUNDS times: 89700 * ROUNDS */
#define GC_NODES  300
#define GC_ROUNDS 100
#define GC_PROG(RESULT_TAIL)              \
    "module T\n"                          \
    "\n"                                  \
    "record Node\n"                       \
    "    val: long\n"                     \
    "    data: long[]\n"                  \
    "    next: Node\n"                    \
    "end\n"                               \
    "\n"                                  \
    "method build(n: long) -> Node\n"     \
    "    var head, node: Node\n"          \
    "    var i, k: long\n"                \
    "    var a: long[]\n"                 \
    "    ldnull head\n"                   \
    "    ldi i, 0\n"                      \
    "loop:\n"                             \
    "    new node, Node\n"                \
    "    ldi k, 16\n"                     \
    "    newarray a, k\n"                 \
    "    lastore a, 3, i\n"               \
    "    putfield node, val, i\n"         \
    "    putfield node, data, a\n"        \
    "    putfield node, next, head\n"     \
    "    mov head, node\n"                \
    "    add i, i, 1\n"                   \
    "    blt i, n, loop\n"                \
    "    ret head\n"                      \
    "end\n"                               \
    "\n"                                  \
    "method sum(head: Node) -> long\n"    \
    "    var s, v: long\n"                \
    "    var a: long[]\n"                 \
    "    ldi s, 0\n"                      \
    "loop:\n"                             \
    "    bnull head, done\n"              \
    "    getfield v, head, val\n"         \
    "    add s, s, v\n"                   \
    "    getfield a, head, data\n"        \
    "    laload v, a, 3\n"                \
    "    add s, s, v\n"                   \
    "    getfield head, head, next\n"     \
    "    jmp loop\n"                      \
    "done:\n"                             \
    "    ret s\n"                         \
    "end\n"                               \
    "\n"                                  \
    "method main() -> long\n"             \
    "    var round, t, n: long\n"         \
    "    var keep: Node\n"                \
    "    var m: long\n"                   \
    "    var r: Node\n"                   \
    "    var len: long\n"                 \
    "    var s: long\n"                   \
    "    var lst: Node\n"                 \
    "    var text: byte[]\n"              \
    "    ldi round, 0\n"                  \
    "    ldi t, 0\n"                      \
    "    ldi n, 300\n"                    \
    "    mov m, n\n"                      \
    "    call keep = build(m)\n"          \
    "again:\n"                            \
    "    mov len, n\n"                    \
    "    call r = build(len)\n"           \
    "    mov lst, keep\n"                 \
    "    call s = sum(lst)\n"             \
    "    add t, t, s\n"                   \
    "    add round, round, 1\n"           \
    "    blt round, 100, again\n"         \
    RESULT_TAIL                           \
    "end\n"
static const char gc_src[] = GC_PROG("    ret t\n");
static const char gc_print_src[] = GC_PROG("    call Sys.printLong(t)\n"
                                           "    ldstr text, \"\"\n"
                                           "    call Sys.println(text)\n"
                                           "    ldi t, 0\n"
                                           "    ret t\n");

/* 1 + 2 + ... + 20000 recursively (printed), then recursion without end */
static const char rec_src[] =
    "module T\n"
    "\n"
    "method sumTo(n: long) -> long\n"
    "    var r: long\n"
    "    var m: long\n"
    "    beq n, 0, base\n"
    "    sub m, n, 1\n"
    "    call r = sumTo(m)\n"
    "    add r, r, n\n"
    "    ret r\n"
    "base:\n"
    "    ret n\n"
    "end\n"
    "\n"
    "method forever(n: long) -> long\n"
    "    var r: long\n"
    "    var m: long\n"
    "    add m, n, 1\n"
    "    call r = forever(m)\n"
    "    ret r\n"
    "end\n"
    "\n"
    "method main() -> int\n"
    "    var r: long\n"
    "    var n: long\n"
    "    var text: byte[]\n"
    "    ldi n, 20000\n"
    "    call r = sumTo(n)\n"
    "    call Sys.printLong(r)\n"
    "    ldstr text, \"\"\n"
    "    call Sys.println(text)\n"
    "    ldi n, 0\n"
    "    call r = forever(n)\n"
    "    ret r\n"
    "end\n";

/* the exception chosen by the first argument, thrown in compiled code after a hot loop: 0 null
   field, 1 division by zero, 2 negative array size (the allocation helper), 3 cast, 4 a native's
   (arraycopy), 5 none: the sum */
static const char throws_src[] =
    "module T\n"
    "\n"
    "record A\n"
    "    x: long\n"
    "end\n"
    "record B extends A\n"
    "    y: long\n"
    "end\n"
    "record C extends A\n"
    "    z: long\n"
    "end\n"
    "\n"
    "method pick(kind: long, i: long) -> long\n"
    "    var r, z: long\n"
    "    var p: A\n"
    "    var b: B\n"
    "    var arr: long[]\n"
    "    var src: long[]\n"
    "    var sp: long\n"
    "    var dst: long[]\n"
    "    var dp, len: long\n"
    "    ldi r, 0\n"
    "    blt i, 50, done\n"
    "    beq kind, 0, npe\n"
    "    beq kind, 1, div\n"
    "    beq kind, 2, neg\n"
    "    beq kind, 3, cast\n"
    "    beq kind, 4, copy\n"
    "    jmp done\n"
    "npe:\n"
    "    ldnull p\n"
    "    getfield r, p, x\n"
    "    jmp done\n"
    "div:\n"
    "    ldi z, 0\n"
    "    div r, i, z\n"
    "    jmp done\n"
    "neg:\n"
    "    ldi z, -3\n"
    "    newarray arr, z\n"
    "    jmp done\n"
    "cast:\n"
    "    new p, C\n"
    "    checkcast b, p\n"
    "    jmp done\n"
    "copy:\n"
    "    ldi z, 4\n"
    "    newarray src, z\n"
    "    newarray dst, z\n"
    "    ldi sp, 2\n"
    "    ldi dp, 0\n"
    "    ldi len, 3\n"
    "    call Sys.arraycopy(src, sp, dst, dp, len)\n"
    "done:\n"
    "    add r, r, i\n"
    "    ret r\n"
    "end\n"
    "\n"
    "method main() -> int\n"
    "    var kind, i, s: long\n"
    "    var a: byte[]\n"
    "    var ix: long\n"
    "    var v: long\n"
    "    var k: long\n"
    "    var j: long\n"
    "    ldi ix, 0\n"
    "    call a = Sys.arg(ix)\n"
    "    baload kind, a, ix\n"
    "    sub kind, kind, 48\n"
    "    ldi i, 0\n"
    "    ldi s, 0\n"
    "loop:\n"
    "    mov k, kind\n"
    "    mov j, i\n"
    "    call v = pick(k, j)\n"
    "    add s, s, v\n"
    "    add i, i, 1\n"
    "    blt i, 60, loop\n"
    "    call Sys.printLong(s)\n"
    "    ldi s, 0\n"
    "    ret s\n"
    "end\n";

/* The register cache (cpu/x86_64/templates_x86_64.c): a loop of more live values than cache
   registers (evictions), 32-bit results left narrow, renames, in-place operations; by the
   first argument: 0 the loop ends and prints them (written back at the block ends); 1 the
   index j, dirty in a register, goes out of bounds at i = 8 (the exit writes it back: the
   interpreter's message names it); 2 j is the int of 2^32 + 8 + i, out of bounds at once */
static const char cache_src[] =
    "module T\n"
    "\n"
    "method main() -> int\n"
    "    var arg: byte[]\n"
    "    var ix, mode, m, big: long\n"
    "    var arr: int[]\n"
    "    var i, j, z, n: long\n"
    "    var a, b, c, d, e, f, g, h, x: long\n"
    "    ldi ix, 0\n"
    "    call arg = Sys.arg(ix)\n"
    "    baload mode, arg, ix\n"
    "    sub mode, mode, 48\n"
    "    ldi m, 7\n"
    "    ldi big, 0\n"
    "    beq mode, 0, masked\n"
    "    ldi m, -1\n"
    "    beq mode, 1, masked\n"
    "    ldi big, 4294967304\n"
    "masked:\n"
    "    ldi n, 8\n"
    "    newarray arr, n\n"
    "    ldi z, 0\n"
    "    ldi i, 0\n"
    "    ldi a, 1\n"
    "    ldi b, 2\n"
    "    ldi c, 3\n"
    "    ldi d, 4\n"
    "    ldi e, 5\n"
    "    ldi f, 6\n"
    "    ldi g, 7\n"
    "    ldi h, 8\n"
    "loop:\n"
    "    rorw x, a, 7\n"
    "    addw a, x, i\n"
    "    xor b, b, a\n"
    "    mulw c, c, b\n"
    "    add c, c, 1\n"
    "    andn d, d, c\n"
    "    not e, e\n"
    "    xor e, e, d\n"
    "    addw f, f, e\n"
    "    l2i g, f\n"
    "    sub g, g, h\n"
    "    zextw h, g\n"
    "    mov x, h\n"
    "    shrw x, x, 3\n"
    "    xor a, a, x\n"
    "    and j, i, m\n"
    "    add j, j, big\n"
    "    l2i j, j\n"
    "    addw j, j, z\n"
    "    iastore arr, j, a\n"
    "    add i, i, 1\n"
    "    blt i, 100, loop\n"
    "    call Sys.printLong(a)\n"
    "    call Sys.printLong(b)\n"
    "    call Sys.printLong(c)\n"
    "    call Sys.printLong(d)\n"
    "    call Sys.printLong(e)\n"
    "    call Sys.printLong(f)\n"
    "    call Sys.printLong(g)\n"
    "    call Sys.printLong(h)\n"
    "    ldi i, 7\n"
    "    iaload x, arr, i\n"
    "    call Sys.printLong(x)\n"
    "    ldi i, 0\n"
    "    ret i\n"
    "end\n";

/* Virtual calls (module per override, as the loader wants): Shapes.f is abstract on A, Bm and Cm
   override it for B and C, D has none. V.main alternates B and C receivers (each call site's
   inline cache misses and refills), then by its argument: 0 the sum, 1 a null receiver, 2 D's
   AbstractMethodError, both thrown in compiled code */
static const char shapes_src[] =
    "module Shapes\n"
    "\n"
    "record A\n"
    "    x: long\n"
    "end\n"
    "record D extends A\n"
    "    w: long\n"
    "end\n"
    "\n"
    "abstract method f(this: A) -> long\n";
static const char bm_src[] =
    "module Bm\n"
    "import Shapes\n"
    "\n"
    "record B extends Shapes.A\n"
    "    y: long\n"
    "end\n"
    "\n"
    "method f(this: B) -> long\n"
    "    var v: long\n"
    "    getfield v, this, x\n"
    "    add v, v, 1\n"
    "    ret v\n"
    "end\n";
static const char cm_src[] =
    "module Cm\n"
    "import Shapes\n"
    "\n"
    "record C extends Shapes.A\n"
    "    z: long\n"
    "end\n"
    "\n"
    "method f(this: C) -> long\n"
    "    var v: long\n"
    "    getfield v, this, x\n"
    "    shl v, v, 1\n"
    "    ret v\n"
    "end\n";
static const char v_src[] =
    "module V\n"
    "import Shapes\n"
    "import Bm\n"
    "import Cm\n"
    "\n"
    "; kind (the first argument's first character): 0 the sum over B and C receivers, alternating\n"
    "; (the inline cache misses and refills); 1 a null receiver; 2 a receiver without a body\n"
    "; (AbstractMethodError), each after 50 trips\n"
    "method main() -> int\n"
    "    var kind, i, s: long\n"
    "    var a: byte[]\n"
    "    var ix: long\n"
    "    var b: Bm.B\n"
    "    var c: Cm.C\n"
    "    var d: Shapes.D\n"
    "    var r: long\n"
    "    var p: Shapes.A\n"
    "    ldi ix, 0\n"
    "    call a = Sys.arg(ix)\n"
    "    baload kind, a, ix\n"
    "    sub kind, kind, 48\n"
    "    new b, Bm.B\n"
    "    new c, Cm.C\n"
    "    new d, Shapes.D\n"
    "    ldi i, 0\n"
    "    ldi s, 0\n"
    "loop:\n"
    "    putfield b, x, i\n"
    "    putfield c, x, i\n"
    "    mov p, b\n"
    "    callvirt r = Shapes.f(p)\n"
    "    add s, s, r\n"
    "    mov p, c\n"
    "    callvirt r = Shapes.f(p)\n"
    "    add s, s, r\n"
    "    add i, i, 1\n"
    "    blt i, 50, loop\n"
    "    beq kind, 0, done\n"
    "    ldnull p\n"
    "    beq kind, 1, last\n"
    "    mov p, d\n"
    "last:\n"
    "    callvirt r = Shapes.f(p)\n"
    "done:\n"
    "    call Sys.printLong(s)\n"
    "    ldi s, 0\n"
    "    ret s\n"
    "end\n";
/* The register cache full of renames: 24 registers copied from x, every one sharing x's
   cache register (more than the 16 registers the cache tracks), then summed (1320) */
static const char renames_src[] =
    "module T\n"
    "\n"
    "method main() -> int\n"
    "    var x, s, i: long\n"
    "    var v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24: long\n"
    "    ldi s, 0\n"
    "    ldi i, 0\n"
    "loop:\n"
    "    add x, i, 1\n"
    "    mov v1, x\n"
    "    mov v2, x\n"
    "    mov v3, x\n"
    "    mov v4, x\n"
    "    mov v5, x\n"
    "    mov v6, x\n"
    "    mov v7, x\n"
    "    mov v8, x\n"
    "    mov v9, x\n"
    "    mov v10, x\n"
    "    mov v11, x\n"
    "    mov v12, x\n"
    "    mov v13, x\n"
    "    mov v14, x\n"
    "    mov v15, x\n"
    "    mov v16, x\n"
    "    mov v17, x\n"
    "    mov v18, x\n"
    "    mov v19, x\n"
    "    mov v20, x\n"
    "    mov v21, x\n"
    "    mov v22, x\n"
    "    mov v23, x\n"
    "    mov v24, x\n"
    "    add s, s, v1\n"
    "    add s, s, v2\n"
    "    add s, s, v3\n"
    "    add s, s, v4\n"
    "    add s, s, v5\n"
    "    add s, s, v6\n"
    "    add s, s, v7\n"
    "    add s, s, v8\n"
    "    add s, s, v9\n"
    "    add s, s, v10\n"
    "    add s, s, v11\n"
    "    add s, s, v12\n"
    "    add s, s, v13\n"
    "    add s, s, v14\n"
    "    add s, s, v15\n"
    "    add s, s, v16\n"
    "    add s, s, v17\n"
    "    add s, s, v18\n"
    "    add s, s, v19\n"
    "    add s, s, v20\n"
    "    add s, s, v21\n"
    "    add s, s, v22\n"
    "    add s, s, v23\n"
    "    add s, s, v24\n"
    "    add i, i, 1\n"
    "    blt i, 10, loop\n"
    "    call Sys.printLong(s)\n"
    "    ldi s, 0\n"
    "    ret s\n"
    "end\n";

static const char *const virtual_modules[] = {"Shapes.mva", shapes_src, "Bm.mva", bm_src, "Cm.mva", cm_src,
                                              "V.mva", v_src, NULL};

/* ---- every mode gives the interpreter's outcome ---------------------------------------------- */

typedef struct agree_case {
    const char *name;
    const char *src;      /* the program's text, or NULL: file */
    const char *file;     /* a program in the source tree */
    const char *opts[4];  /* options for every run (before the mode's) */
    const char *args[4];  /* the program's arguments ("@src:REL": the source tree's file REL) */
    const char *const *modules; /* or: modules (file name, text, ...; NULL-terminated) in a
                                   directory of their own, the last one the program */
} agree_case;

/* the digest tool on its own source (about 9 KB: 140 blocks of 64 bytes, 66 of SHA3-256's 136) */
#define DIGEST(name, intrinsic)                                                                     \
    {"digest_" name, NULL, "examples/digest.mva", {"-XX:-" intrinsic}, {name, "@src:examples/digest.mva"}, NULL}

static const agree_case agree_cases[] = {
    {"exception_through_frames", mixed_src, NULL, {NULL}, {NULL}, NULL},
    {"gc_tiny_heap", gc_print_src, NULL, {"-Xmx1m"}, {NULL}, NULL},
    {"gc_out_of_memory", gc_print_src, NULL, {"-Xmx64k"}, {NULL}, NULL},
    {"deep_recursion_stack_overflow", rec_src, NULL, {NULL}, {NULL}, NULL},
    {"throw_npe", throws_src, NULL, {NULL}, {"0"}, NULL},
    {"throw_div_by_zero", throws_src, NULL, {NULL}, {"1"}, NULL},
    {"throw_negative_array_size", throws_src, NULL, {NULL}, {"2"}, NULL},
    {"throw_class_cast", throws_src, NULL, {NULL}, {"3"}, NULL},
    {"throw_from_native", throws_src, NULL, {NULL}, {"4"}, NULL},
    {"returns", throws_src, NULL, {NULL}, {"5"}, NULL},
    {"register_cache_loop", cache_src, NULL, {NULL}, {"0"}, NULL},
    {"register_cache_exit_dirty_index", cache_src, NULL, {NULL}, {"1"}, NULL},
    {"register_cache_exit_narrow_index", cache_src, NULL, {NULL}, {"2"}, NULL},
    {"register_cache_renames", renames_src, NULL, {NULL}, {NULL}, NULL},
    {"virtual_calls", NULL, NULL, {NULL}, {"0"}, virtual_modules},
    {"virtual_call_null_receiver", NULL, NULL, {NULL}, {"1"}, virtual_modules},
    {"virtual_call_abstract_method", NULL, NULL, {NULL}, {"2"}, virtual_modules},
    {"hello", NULL, "examples/hello.mva", {NULL}, {"compiler"}, NULL},
    DIGEST("SHA-256", "UseSHA256Intrinsics"),
    DIGEST("SHA3-256", "UseSHA3Intrinsics"),
    DIGEST("SHA-512", "UseSHA512Intrinsics"),
    DIGEST("SHA-1", "UseSHA1Intrinsics"),
    DIGEST("MD5", "UseMD5Intrinsics"),
    {"digest_SHA3-256_intrinsic", NULL, "examples/digest.mva", {NULL}, {"SHA3-256", "@src:examples/digest.mva"}, NULL},
};

/* the modes, each against -Xint's run (the first) */
static const char *const modes[][6] = {
    {"-Xint"},
    {NULL}, /* the default: mixed */
    {"-Xcomp"},
    {"-Xcomp", "-XX:-Inline"},
    {"-XX:-Inline", "-XX:CompileThreshold=3"},
    {"-XX:CompileThreshold=3", "-XX:-UseOnStackReplacement"},
    /* compiled frames around an interpreted one */
    {"-Xcomp", "-XX:-Inline", "-XX:CompileCommand=quiet", "-XX:CompileCommand=exclude,T::mid"},
    {"-Xcomp", "-XX:-TieredCompilation", "-XX:CompileCommand=quiet", "-XX:CompileCommand=exclude,*::*Compress*"},
};
#define NMODES (sizeof modes / sizeof modes[0])

static tu_result run_mode(const agree_case *c, const char *prog, const char *const *mode)
{
    const char *argv[24];
    size_t n = 0;
    for (size_t i = 0; i < 4 && c->opts[i]; i++)
        argv[n++] = c->opts[i];
    for (size_t i = 0; i < 6 && mode[i]; i++)
        argv[n++] = mode[i];
    argv[n++] = prog;
    static char paths[4][4096];
    for (size_t i = 0; i < 4 && c->args[i]; i++) {
        if (strncmp(c->args[i], "@src:", 5) == 0) {
            snprintf(paths[i], sizeof paths[i], "%s", tu_source_path(c->args[i] + 5));
            argv[n++] = paths[i];
        } else {
            argv[n++] = c->args[i];
        }
    }
    argv[n] = NULL;
    return tu_run(argv, NULL, 300);
}

static char *mode_text(const char *const *mode)
{
    static char buf[512];
    buf[0] = '\0';
    for (size_t i = 0; i < 6 && mode[i]; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "", mode[i]);
    return buf[0] ? buf : "(the default)";
}

static void modes_agree(void **state)
{
    const agree_case *c = *state;
    char prog[4096], dir[] = "/tmp/minivm-jit-XXXXXX";
    if (c->modules) {
        assert_non_null(mkdtemp(dir));
        for (size_t f = 0; c->modules[f]; f += 2) {
            snprintf(prog, sizeof prog, "%s/%s", dir, c->modules[f]);
            FILE *out = fopen(prog, "w");
            assert_non_null(out);
            fputs(c->modules[f + 1], out);
            assert_int_equal(fclose(out), 0);
        }
    } else {
        snprintf(prog, sizeof prog, "%s", c->src ? tu_temp_file("T.mva", c->src, strlen(c->src)) : tu_source_path(c->file));
    }
    tu_result want = run_mode(c, prog, modes[0]);
    /* the interpreter's own run must be what the case is about */
    if (c->src == mixed_src)
        tu_expect_text_keys("stderr", want.err, EXACT, mixed_trace,
                            (const tu_key[]){{"@", strrchr(prog, '/') + 1}, {NULL, NULL}});
    if (c->src == gc_print_src && strcmp(c->opts[0], "-Xmx1m") == 0)
        tu_expect_text("stdout", want.out, EXACT, "8970000\n");
    if (c->src == gc_print_src && strcmp(c->opts[0], "-Xmx64k") == 0)
        tu_expect_text("stderr", want.err, PREFIX, "Exception in thread \"main\" java.lang.OutOfMemoryError");
    if (c->src == rec_src) {
        tu_expect_text("stdout", want.out, EXACT, "200010000\n");
        tu_expect_text("stderr", want.err, PREFIX, "Exception in thread \"main\" java.lang.StackOverflowError\n");
    }
    if (c->file && strstr(c->file, "digest"))
        tu_expect_text("stdout", want.out, CONTAINS, "digest.mva");
    if (c->src == cache_src && strcmp(c->args[0], "0") == 0)
        tu_expect_text("stdout", want.out, EXACT, "550855920537289055-93092073005-44-4294967038258-485583818");
    if (c->src == cache_src && strcmp(c->args[0], "0") != 0)
        tu_expect_text("stderr", want.err, PREFIX,
                       "Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: Index 8 out of "
                       "bounds for length 8\n");
    if (c->modules && strcmp(c->args[0], "0") == 0)
        tu_expect_text("stdout", want.out, EXACT, "3725"); /* 1275 from B's bodies, 2450 from C's */
    if (c->modules && strcmp(c->args[0], "2") == 0)
        tu_expect_text("stderr", want.err, PREFIX, "Exception in thread \"main\" java.lang.AbstractMethodError");
    /* without the compiler tier every mode is the interpreter: the default against -Xint is enough;
       under the sanitizers (every run is slow) every other mode (-Xint, -Xcomp, mixed with OSR, an
       excluded frame between compiled ones); under QEMU -Xcomp alone (the templates use no
       CPU-dependent instruction: the native run has taken every mode) */
    size_t nmodes = jit_available() ? NMODES : 2, step = tu_sanitized() ? 2 : 1;
    if (tu_emulated() && jit_available())
        nmodes = 3, step = 2;
    for (size_t k = step; k < nmodes; k += step) {
        tu_result got = run_mode(c, prog, modes[k]);
        if (got.status != want.status || strcmp(got.out, want.out) != 0 || strcmp(got.err, want.err) != 0) {
            print_error("%s under %s differs from -Xint:\n", c->name, mode_text(modes[k]));
            tu_expect_status(&got, want.status);
            tu_expect_text("stdout", got.out, EXACT, want.out);
            tu_expect_text("stderr", got.err, EXACT, want.err);
        }
        tu_result_free(&got);
    }
    tu_result_free(&want);
    if (c->modules) {
        for (size_t f = 0; c->modules[f]; f += 2) {
            snprintf(prog, sizeof prog, "%s/%s", dir, c->modules[f]);
            unlink(prog);
        }
        rmdir(dir);
    }
}

/* ---- in-process: the collector under compiled frames, on-stack replacement ------------------ */

/* main's result in a fresh VM over p: interpreted (threshold < 0) or with the compiler attached */
static vm_value run_in_vm(const vm_program *p, size_t heap, int64_t threshold, bool osr, jit_stats *stats,
                          uint64_t *collections)
{
    char err[256];
    vm_options opt = {.heap_max = heap};
    vm_t *vm = vm_new(p, &opt, err, sizeof err);
    if (!vm)
        fail_msg("vm_new: %s", err);
    if (threshold >= 0) {
        jit_options o = {.threshold = threshold, .osr = osr};
        if (!jit_attach(vm, &o, err, sizeof err))
            fail_msg("jit_attach: %s", err);
    }
    vm_value v = tu_call_main(vm, "T.main");
    if (stats && !jit_get_stats(vm, stats))
        memset(stats, 0, sizeof *stats);
    if (collections)
        *collections = vm->heap.collections;
    vm_free(vm);
    return v;
}

static void skip_without_compiler(void)
{
    if (!jit_available()) {
        print_message("no compiler tier for this host's architecture: skipped (docs/compiler.md)\n");
        skip();
    }
}

/* a 256 KiB heap, lists of 300 records holding arrays built and summed by compiled code: the
   collector runs many times while compiled frames hold the only references to the kept list */
static void gc_under_compiled_frames(void **state)
{
    (void)state;
    skip_without_compiler();
    vm_program *p = tu_load_ex(gc_src, VM_LOAD_NO_INLINE); /* three methods, three compiled frames */
    const int64_t want = (int64_t)GC_ROUNDS * 2 * (GC_NODES * (GC_NODES - 1) / 2);
    const int64_t thresholds[] = {-1, 0, 5};
    for (size_t k = 0; k < sizeof thresholds / sizeof thresholds[0]; k++) {
        jit_stats s;
        uint64_t collections;
        vm_value v = run_in_vm(p, (size_t)256 << 10, thresholds[k], true, &s, &collections);
        assert_int_equal(v.i, want);
        if (collections < 10)
            fail_msg("threshold %lld: %llu collections; the test needs the collector to run", (long long)thresholds[k],
                     (unsigned long long)collections);
        if (thresholds[k] >= 0 && s.compiled != 3)
            fail_msg("threshold %lld: %u methods compiled, not main, build and sum", (long long)thresholds[k],
                     s.compiled);
    }
    vm_program_free(p);
}

/* one call of main, a loop of 100000 trips: a back-edge compiles main and enters its code */
static const char osr_src[] =
    "module T\n"
    "\n"
    "method main() -> long\n"
    "    var i, s, t, u: long\n"
    "    ldi i, 0\n"
    "    ldi s, 0\n"
    "    ldi t, 10000\n"
    "    ldi u, 10\n"
    "    mul t, t, u\n"
    "loop:\n"
    "    ldi u, 31\n"
    "    mul s, s, u\n"
    "    xor s, s, i\n"
    "    add i, i, 1\n"
    "    blt i, t, loop\n"
    "    ret s\n"
    "end\n";

static void osr_enters_a_running_loop(void **state)
{
    (void)state;
    skip_without_compiler();
    vm_program *p = tu_load(osr_src);
    jit_stats s;
    vm_value interpreted = run_in_vm(p, 0, -1, true, NULL, NULL);
    vm_value osr = run_in_vm(p, 0, 1000, true, &s, NULL);
    assert_int_equal(osr.i, interpreted.i);
    assert_int_equal(s.compiled, 1);
    if (s.osr_entries != 1)
        fail_msg("%llu entries at a back-edge, not one: the loop was not entered (or was left)",
                 (unsigned long long)s.osr_entries);
    /* -XX:-UseOnStackReplacement: compiled, not entered while the loop runs */
    vm_value no_osr = run_in_vm(p, 0, 1000, false, &s, NULL);
    assert_int_equal(no_osr.i, interpreted.i);
    assert_int_equal(s.compiled, 1);
    assert_int_equal(s.osr_entries, 0);
    /* -Xcomp: compiled at the call, never left, so no back-edge enters it */
    vm_value comp = run_in_vm(p, 0, 0, true, &s, NULL);
    assert_int_equal(comp.i, interpreted.i);
    assert_int_equal(s.osr_entries, 0);
    vm_program_free(p);
}

/* ---- PrintCompilation -------------------------------------------------------------------------- */

/* Fail unless every line of text matches the pattern of the same index (POSIX extended), and
   there are as many lines as patterns. */
static void expect_lines(const char *what, const char *text, const char *const *patterns)
{
    const char *l = text;
    size_t k = 0;
    for (; *l && patterns[k]; k++) {
        size_t n = strcspn(l, "\n");
        char *line = strndup(l, n);
        assert_non_null(line);
        regex_t re;
        assert_int_equal(regcomp(&re, patterns[k], REG_EXTENDED | REG_NOSUB), 0);
        if (regexec(&re, line, 0, NULL, 0) != 0)
            fail_msg("%s line %zu:\n  %s\ndoes not match\n  %s\nin:\n%s", what, k + 1, line, patterns[k], text);
        regfree(&re);
        free(line);
        l += n + (l[n] == '\n');
    }
    if (*l || patterns[k])
        fail_msg("%s: %s lines than expected:\n%s", what, *l ? "more" : "fewer", text);
}

static void print_compilation(void **state)
{
    (void)state;
    skip_without_compiler();
    const char *prog = tu_temp_file("T.mva", mixed_src, sizeof mixed_src - 1);
    /* HotSpot's CompileTask::print: the milliseconds, the compile id in 4, five attribute
       characters, the level (tiered), six spaces; an excluded method's two lines */
    const char *a[] = {"-Xcomp", "-XX:-Inline", "-XX:CompileCommand=exclude,T::mid", "-XX:+PrintCompilation", prog,
                       NULL};
    tu_result r = tu_run(a, NULL, 60);
    tu_expect_status(&r, 1);
    const char *const want[] = {
        "^CompileCommand: exclude T\\.mid bool exclude = true$",
        "^[0-9]+    1       1       T::main \\(48 bytes\\)$",
        "^### Excluding compile: static T::mid$",
        "^made not compilable on level 1  T::mid \\(20 bytes\\)   excluded by CompileCommand$",
        "^[0-9]+    2       1       T::leaf \\(8 bytes\\)$",
        NULL,
    };
    expect_lines("stdout", r.out, want);
    tu_result_free(&r);
    /* -XX:-TieredCompilation: no level; CompileThreshold=3: compiled while running, main at its
       loop's back-edges, then mid and leaf at their calls */
    const char *b[] = {"-XX:-Inline", "-XX:-TieredCompilation", "-XX:CompileThreshold=3", "-XX:+PrintCompilation",
                       prog, NULL};
    r = tu_run(b, NULL, 60);
    tu_expect_status(&r, 1);
    const char *const want_b[] = {
        "^[0-9]+    1             T::main \\(48 bytes\\)$",
        "^[0-9]+    2             T::mid \\(20 bytes\\)$",
        "^[0-9]+    3             T::leaf \\(8 bytes\\)$",
        NULL,
    };
    if (!tu_mode()) /* under -Xcomp every method is compiled at its first call instead */
        expect_lines("stdout", r.out, want_b);
    tu_result_free(&r);
}

/* PrintAssembly and CompileCommand=print: each bytecode word, then its machine code */
static void print_assembly(void **state)
{
    (void)state;
    skip_without_compiler();
    const char *prog = tu_temp_file("T.mva", mixed_src, sizeof mixed_src - 1);
    const char *a[] = {"-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintAssembly", "-Xcomp", "-XX:-Inline", prog, NULL};
    tu_result r = tu_run(a, NULL, 60);
    tu_expect_status(&r, 1);
    tu_expect_text("stdout", r.out, PREFIX, "Compiled method (minivm)    1 1       T::main (48 bytes)\n [0x");
    tu_expect_text("stdout", r.out, CONTAINS, "Compiled method (minivm)    2 1       T::mid (20 bytes)\n");
    tu_expect_text("stdout", r.out, CONTAINS, "Compiled method (minivm)    3 1       T::leaf (8 bytes)\n");
    tu_expect_text("stdout", r.out, CONTAINS, "  ;; 6: call   v, T.mid\n");
    tu_expect_text("stdout", r.out, CONTAINS, "  ;; 9: ble    i, n, -> 4\n");
    tu_expect_text("stdout", r.out, CONTAINS, "  ;; 1: newarray a, n\n");
    tu_expect_text("stdout", r.out, CONTAINS, "  ;; 0: laload v, a, i\n0x0000:  ");
    if (strcmp(jit_arch_name(), "x86_64") == 0) /* LLVM's text for the code: a load from the window */
        tu_expect_text("stdout", r.out, CONTAINS, "(%rbx), %rax");
    tu_result_free(&r);
    const char *b[] = {"-Xcomp", "-XX:-Inline", "-XX:CompileCommand=print,T::leaf", prog, NULL};
    r = tu_run(b, NULL, 60);
    tu_expect_status(&r, 1);
    tu_expect_text("stdout", r.out, PREFIX,
                   "CompileCommand: print T.leaf bool print = true\n"
                   "Compiled method (minivm)    3 1       T::leaf (8 bytes)\n");
    tu_expect_text("stdout", r.out, LACKS, "T::main");
    tu_result_free(&r);
}

/* What-if compilation: with -XX:EmulateCPU naming a CPU of the other architecture, the compiler
   compiles for it and PrintAssembly prints that code (decoded by LLVM where the build has it),
   while the interpreter runs the program: its output and status are -Xint's */
static void print_assembly_what_if(void **state)
{
    (void)state;
    skip_without_compiler();
    bool x86 = strcmp(jit_arch_name(), "x86_64") == 0;
    const char *other = x86 ? "-XX:EmulateCPU=neoverse-n1" : "-XX:EmulateCPU=zen3";
    const char *prog = tu_temp_file("T.mva", mixed_src, sizeof mixed_src - 1);
    const char *x[] = {"-Xint", prog, NULL};
    tu_result want = tu_run(x, NULL, 60);
    const char *a[] = {"-XX:+UnlockDiagnosticVMOptions", other, "-Xcomp", "-XX:-Inline", "-XX:+PrintAssembly", prog, NULL};
    tu_result r = tu_run(a, NULL, 60);
    tu_expect_status(&r, want.status);
    tu_expect_text("stdout", r.out, PREFIX, "Compiled method (minivm)    1 1       T::main (48 bytes)\n [0x");
    tu_expect_text("stdout", r.out, CONTAINS, "Compiled method (minivm)    3 1       T::leaf (8 bytes)\n");
    tu_expect_text("stdout", r.out, CONTAINS, "  ;; 0: laload v, a, i\n0x0000:  ");
    if (x86) /* LLVM's AArch64 text: a load from the window (x19) */
        tu_expect_text("stdout", r.out, CONTAINS, ", [x19");
    else /* four-byte AArch64 words are not what the x86-64 code has: its REX.W prefixes */
        tu_expect_text("stdout", r.out, CONTAINS, "  48 ");
    /* the program's own output, the interpreter's: what -Xint printed, after the code */
    tu_expect_text("stdout", r.out, CONTAINS, want.out);
    tu_expect_text("stderr", r.err, CONTAINS, want.err);
    tu_result_free(&r);
    tu_result_free(&want);
}

/* CITime: HotSpot's accumulated lines, the methods and bytecodes compiled */
static void ci_time(void **state)
{
    (void)state;
    skip_without_compiler();
    const char *prog = tu_temp_file("T.mva", mixed_src, sizeof mixed_src - 1);
    const char *a[] = {"-Xcomp", "-XX:-Inline", "-XX:+CITime", prog, NULL};
    tu_result r = tu_run(a, NULL, 60);
    tu_expect_status(&r, 1);
    tu_expect_text("stdout", r.out, PREFIX, "Accumulated compiler times\n"
                                            "----------------------------------------------------------\n"
                                            "  Total compilation time   : ");
    tu_expect_text("stdout", r.out, CONTAINS,
                   "  Total compiled methods    :        3 methods\n"
                   "    Standard compilation    :        3 methods\n"
                   "    On stack replacement    :        0 methods\n"
                   "  Total compiled bytecodes  :       76 bytes\n"
                   "    Standard compilation    :       76 bytes\n"
                   "    On stack replacement    :        0 bytes\n"
                   "  Average compilation speed : ");
    tu_result_free(&r);
}

/* ---- the flags' texts: HotSpot 25's ------------------------------------------------------------ */

typedef struct text_case {
    const char *name;
    const char *argv[6];
    int status;
    int out_mode;
    const char *out;
    int err_mode;
    const char *err;
} text_case;

#define CC_USAGE(line)                                                                                   \
    "Line: '" line "'\n"                                                                                  \
    "\n"                                                                                                  \
    "Usage: '-XX:CompileCommand=<option>,<method pattern>' - to set boolean option to true\n"            \
    "Usage: '-XX:CompileCommand=<option>,<method pattern>,<value>'\n"                                   \
    "Use:   '-XX:CompileCommand=help' for more information and to list all option.\n"                   \
    "\n"

static const text_case text_cases[] = {
    {"compile_command_unknown_option", {"-XX:CompileCommand=bogus,T::f", "-version"}, 1, EXACT,
     "CompileCommand: An error occurred during parsing\nError: Unrecognized option 'bogus'\n" CC_USAGE("bogus,T::f"),
     EXACT, TU_FATAL_TAIL},
    {"compile_command_no_pattern", {"-XX:CompileCommand=exclude", "-version"}, 1, EXACT,
     "CompileCommand: An error occurred during parsing\nError: Method pattern missing from command\n" CC_USAGE(
         "exclude"),
     EXACT, TU_FATAL_TAIL},
    {"compile_command_bool_value", {"-XX:CompileCommand=exclude,T::f,extra", "-version"}, 1, EXACT,
     "CompileCommand: An error occurred during parsing\nError: Value cannot be read for option 'exclude' of type "
     "'bool'\n" CC_USAGE("exclude,T::f,extra"),
     EXACT, TU_FATAL_TAIL},
    {"compile_command_echo", {"-XX:CompileCommand=exclude,T::f", "-XX:CompileCommand=print,T.g", "-version"}, 0,
     EXACT, "CompileCommand: exclude T.f bool exclude = true\nCompileCommand: print T.g bool print = true\n", PREFIX,
     "minivm version"},
    {"compile_command_quiet", {"-XX:CompileCommand=quiet", "-XX:CompileCommand=exclude,T::f", "-version"}, 0, EXACT,
     "", PREFIX, "minivm version"},
    {"compile_threshold_negative", {"-XX:CompileThreshold=-1", "-version"}, 1, EXACT, "", EXACT,
     "OnStackReplacePercentage cannot be validated because CompileThreshold value is invalid\n"
     "CompileThreshold (-1) must be between 0 and 1073741823\n" TU_FATAL_TAIL},
    {"compile_threshold_too_large", {"-XX:CompileThreshold=1073741824", "-version"}, 1, EXACT, "", EXACT,
     "OnStackReplacePercentage cannot be validated because CompileThreshold value is invalid\n"
     "CompileThreshold (1073741824) must be between 0 and 1073741823\n" TU_FATAL_TAIL},
    {"compile_threshold_largest", {"-XX:CompileThreshold=1073741823", "-version"}, 0, EXACT, "", PREFIX,
     "minivm version"},
    {"osr_percentage_below_profile", {"-XX:OnStackReplacePercentage=32", "-version"}, 1, EXACT, "", EXACT,
     "OnStackReplacePercentage (32) must be larger than InterpreterProfilePercentage (33)\n" TU_FATAL_TAIL},
    {"osr_percentage_too_large", {"-XX:OnStackReplacePercentage=21474870", "-version"}, 1, EXACT, "", EXACT,
     "OnStackReplacePercentage (21474870) must be between 0 and 21474869\n" TU_FATAL_TAIL},
    {"osr_percentage_largest", {"-XX:OnStackReplacePercentage=21474869", "-version"}, 0, EXACT, "", PREFIX,
     "minivm version"},
    {"osr_percentage_threshold_zero", {"-XX:CompileThreshold=0", "-XX:OnStackReplacePercentage=214748364734",
                                       "-version"}, 1, EXACT, "", EXACT,
     "OnStackReplacePercentage (214748364734) must be between 0 and 214748364733\n" TU_FATAL_TAIL},
    {"osr_percentage_no_profile_negative", {"-XX:-ProfileInterpreter", "-XX:OnStackReplacePercentage=-1", "-version"},
     1, EXACT, "", EXACT, "OnStackReplacePercentage (-1) must be non-negative\n" TU_FATAL_TAIL},
    {"osr_percentage_no_profile_too_large",
     {"-XX:-ProfileInterpreter", "-XX:OnStackReplacePercentage=1073741823", "-version"}, 1, EXACT, "", EXACT,
     "OnStackReplacePercentage (1073741823) must be between 0 and 10737418\n" TU_FATAL_TAIL},
    {"osr_percentage_profile_percentage", {"-XX:InterpreterProfilePercentage=50", "-XX:OnStackReplacePercentage=40",
                                           "-version"}, 1, EXACT, "", EXACT,
     "OnStackReplacePercentage (40) must be larger than InterpreterProfilePercentage (50)\n" TU_FATAL_TAIL},
    {"profile_percentage_range", {"-XX:InterpreterProfilePercentage=101", "-version"}, 1, EXACT, "", EXACT,
     "intx InterpreterProfilePercentage=101 is outside the allowed range [ 0 ... 100 ]\n"
     TU_IMPROPER("InterpreterProfilePercentage=101") TU_FATAL_TAIL},
    {"print_assembly_locked", {"-XX:-UnlockDiagnosticVMOptions", "-XX:+PrintAssembly", "-version"}, 1, EXACT, "",
     EXACT, TU_DIAGNOSTIC_LOCKED("PrintAssembly") TU_IMPROPER("PrintAssembly") TU_FATAL_TAIL},
};

static void text_case_run(void **state)
{
    const text_case *c = *state;
    tu_run_cli(&(tu_cli_run){c->name, NULL, c->argv, 6, NULL, NULL}, c->status, c->out_mode, c->out, c->err_mode,
               c->err);
}

/* ---- the mode options in PrintFlagsFinal ------------------------------------------------------- */

/* the flags the mode options set, as PrintFlagsFinal prints them (HotSpot 25.0.5 on x86-64, the
   same on AArch64: their pd defaults agree) */
static const char *const mode_flags[] = {"BackgroundCompilation", "ClipInlining", "TieredCompilation", "UseCompiler",
                                         "UseInterpreter", "UseOnStackReplacement"};
#define NMODE_FLAGS (sizeof mode_flags / sizeof mode_flags[0])

typedef struct flags_case {
    const char *name;
    const char *opts[3];
    const char *lines[NMODE_FLAGS]; /* each flag's value and origin: "true default" */
} flags_case;

static const flags_case flags_cases[] = {
    {"xint", {"-Xint"}, {"true default", "true default", "false command line", "false default", "true default",
                         "false default"}},
    {"xcomp", {"-Xcomp"}, {"false default", "false default", "true default", "true default", "false default",
                           "true default"}},
    {"xmixed", {"-Xmixed"}, {"true default", "true default", "true default", "true default", "true default",
                             "true default"}},
    {"xcomp_then_xint", {"-Xcomp", "-Xint"}, {"true default", "true default", "false command line", "false default",
                                               "true default", "false default"}},
    {"xint_then_xmixed", {"-Xint", "-Xmixed"}, {"true default", "true default", "true default",
                                                "true default", "true default", "true default"}},
};

static char *flag_line(const char *out, const char *name)
{
    size_t n = strlen(name);
    for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strlen(l) > 10 + n && strncmp(l + 10, name, n) == 0 && l[10 + n] == ' ')
            return strndup(l, strcspn(l, "\n"));
    return NULL;
}

/* the line of flag name in a PrintFlagsFinal output: its value and origin as "VALUE ORIGIN" */
static bool value_origin(const char *out, const char *name, char *buf, size_t len)
{
    char *line = flag_line(out, name);
    if (!line)
        return false;
    char value[64], origin[64];
    const char *eq = strchr(line, '='), *brace = strrchr(line, '{');
    bool ok = eq && brace && sscanf(eq + 1, "%63s", value) == 1 && sscanf(brace + 1, "%63[^}]", origin) == 1;
    if (ok)
        snprintf(buf, len, "%s %s", value, origin);
    free(line);
    return ok;
}

static tu_result print_flags_final(const char *const *opts, bool hotspot)
{
    const char *argv[12];
    size_t n = 0;
    if (hotspot) {
        argv[n++] = "sh";
        argv[n++] = tu_source_path("scripts/oracle");
        argv[n++] = "java";
        if (tu_mode())
            argv[n++] = tu_mode(); /* as tu_run puts it first for minivm */
    }
    argv[n++] = "-XX:+UnlockDiagnosticVMOptions";
    for (size_t i = 0; i < 3 && opts[i]; i++)
        argv[n++] = opts[i];
    argv[n++] = "-XX:+PrintFlagsFinal";
    argv[n++] = "-version";
    argv[n] = NULL;
    return hotspot ? tu_run_command(argv, NULL, 120) : tu_run(argv, NULL, 60);
}

static void flags_case_run(void **state)
{
    const flags_case *c = *state;
    tu_result r = print_flags_final(c->opts, false);
    tu_expect_status(&r, 0);
    int bad = 0;
    for (size_t k = 0; k < NMODE_FLAGS; k++) {
        char got[160];
        if (!value_origin(r.out, mode_flags[k], got, sizeof got))
            fail_msg("no line for %s in PrintFlagsFinal", mode_flags[k]);
        /* "false command line" is printed as {command line} */
        if (strcmp(got, c->lines[k]) != 0) {
            print_error("%s: %s, not %s\n", mode_flags[k], got, c->lines[k]);
            bad++;
        }
    }
    tu_result_free(&r);
    if (bad)
        fail_msg("%d flag(s) differ from HotSpot 25's under %s", bad, c->opts[0]);
}

/* natively on x86-64 with the oracle set up: the same runs of HotSpot 25, every mode flag's whole
   line, and the texts of the error cases */
static bool oracle_ready(void)
{
    struct utsname u;
    if (uname(&u) != 0 || strcmp(u.machine, "x86_64") != 0 || tu_emulated())
        return false;
    const char *argv[] = {"sh", tu_source_path("scripts/oracle"), "java", "-version", NULL};
    tu_result r = tu_run_command(argv, NULL, 120);
    bool ok = r.status == 0 && strstr(r.err, "version \"25");
    tu_result_free(&r);
    return ok;
}

static void hotspot_live(void **state)
{
    (void)state;
    if (!oracle_ready()) {
        print_message("HotSpot 25 (sh scripts/oracle setup) is not set up here, or this is not x86-64: skipped\n");
        skip();
    }
    int bad = 0;
    for (size_t c = 0; c < sizeof flags_cases / sizeof flags_cases[0]; c++) {
        tu_result mine = print_flags_final(flags_cases[c].opts, false), theirs = print_flags_final(flags_cases[c].opts,
                                                                                                   true);
        tu_expect_status(&theirs, 0);
        for (size_t k = 0; k < NMODE_FLAGS; k++) {
            char *a = flag_line(mine.out, mode_flags[k]), *b = flag_line(theirs.out, mode_flags[k]);
            if (!a || !b || strcmp(a, b) != 0) {
                print_error("%s: minivm\n  %s\nHotSpot 25\n  %s\n", flags_cases[c].name, a ? a : "(none)",
                            b ? b : "(none)");
                bad++;
            }
            free(a);
            free(b);
        }
        tu_result_free(&mine);
        tu_result_free(&theirs);
    }
    /* the error cases: the same texts but for the VM's name in the fatal tail */
    for (size_t c = 0; c < sizeof text_cases / sizeof text_cases[0]; c++) {
        const text_case *t = &text_cases[c];
        if (t->status == 0)
            continue;
        const char *argv[12] = {"sh", tu_source_path("scripts/oracle"), "java"};
        size_t n = 3;
        for (size_t i = 0; i < 6 && t->argv[i]; i++)
            argv[n++] = t->argv[i];
        argv[n] = NULL;
        tu_result theirs = tu_run_command(argv, NULL, 120);
        tu_result mine = tu_run(t->argv, NULL, 60);
        char *want_err = tu_replace(theirs.err, (const tu_key[]){{"Java Virtual Machine", "minivm"}, {NULL, NULL}});
        if (theirs.status != mine.status || strcmp(theirs.out, mine.out) != 0 || strcmp(want_err, mine.err) != 0) {
            print_error("%s: HotSpot 25 exits %d with\n%s%s\nminivm exits %d with\n%s%s\n", t->name, theirs.status,
                        theirs.out, theirs.err, mine.status, mine.out, mine.err);
            bad++;
        }
        free(want_err);
        tu_result_free(&mine);
        tu_result_free(&theirs);
    }
    if (bad)
        fail_msg("%d difference(s) from HotSpot 25", bad);
}

int main(void)
{
    tu_group g = {0};
    TU_ADD_TABLE(&g, agree_cases, modes_agree);
    TU_ADD_TEST(&g, gc_under_compiled_frames);
    TU_ADD_TEST(&g, osr_enters_a_running_loop);
    TU_ADD_TEST(&g, print_compilation);
    TU_ADD_TEST(&g, print_assembly);
    TU_ADD_TEST(&g, print_assembly_what_if);
    TU_ADD_TEST(&g, ci_time);
    TU_ADD_TABLE(&g, text_cases, text_case_run);
    TU_ADD_TABLE(&g, flags_cases, flags_case_run);
    TU_ADD_TEST(&g, hotspot_live);
    return tu_run_group("jit", &g, NULL, NULL);
}
