/*
 * tests/test_runtime.c — every runtime exception kind through the real
 * launcher (suite 'cli').
 *
 * Each case is a small program written to a temporary file and run with
 * build/minivm. The launcher must exit with status 1, print nothing on
 * stdout, and print on stderr exactly Java's report of an uncaught
 * exception: the first line
 *     Exception in thread "main" java.lang.Xxx: message
 * then one "\tat Module.method(file.mva:LINE)" line per frame, innermost
 * first, with "\tat Sys.name(Native Method)" for a native that threw.
 *
 * In the expected traces '@' stands for the program file's base name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "testutil.h"

typedef struct rt_case {
    const char *name;
    const char *opts[4];  /* launcher options (before the program file) */
    const char *args[4];  /* program arguments (after it) */
    const char *src;
    const char *first;    /* the first stderr line, exactly (without '\n') */
    const char *trace;    /* the rest of stderr, exactly ('@' = file name) */
    /* deep traces (trace == NULL): head/tail of the trace, frame count range */
    const char *head, *tail;
    int min_frames, max_frames;
} rt_case;

#define EXC "Exception in thread \"main\" java.lang."
/* the expected trace, exactly (the deep-trace fields unused) */
#define TRACE(t) t, NULL, NULL, 0, 0

/* System.arraycopy(src, sp, dst, dp, len) on a fresh ST[SN] and DT[DN]; the call is on line 16 */
#define COPY_PROG(ST, SN, DT, DN, SP, DP, LEN)     \
    "module T\n"                               \
    "\n"                                       \
    "method main() -> int\n"                   \
    "    var src: " ST "\n"                    \
    "    var sp: long\n"                       \
    "    var dst: " DT "\n"                    \
    "    var dp, len: long\n"                  \
    "    var n: long\n"                        \
    "    ldi n, " SN "\n"                      \
    "    newarray src, n\n"                    \
    "    ldi n, " DN "\n"                      \
    "    newarray dst, n\n"                    \
    "    ldi sp, " SP "\n"                     \
    "    ldi dp, " DP "\n"                     \
    "    ldi len, " LEN "\n"                   \
    "    call Sys.arraycopy(src, sp, dst, dp, len)\n" \
    "    ret n\n"                              \
    "end\n"
#define COPY_TRACE "\tat Sys.arraycopy(Native Method)\n\tat T.main(@:16)\n"

/* Sys.fill(new T[8], FROM, TO, 7); the call is on line 10 */
#define FILL_PROG(T, FROM, TO)               \
    "module T\n"                              \
    "\n"                                      \
    "method main() -> int\n"                  \
    "    var a: " T "\n"                       \
    "    var from, to, v: long\n"              \
    "    ldi v, 8\n"                           \
    "    newarray a, v\n"                      \
    "    ldi from, " FROM "\n"                 \
    "    ldi to, " TO "\n"                     \
    "    call Sys.fill(a, from, to, v)\n"      \
    "    ret from\n"                           \
    "end\n"
#define FILL_TRACE "\tat Sys.fill(Native Method)\n\tat T.main(@:10)\n"

/* Arrays.fill(new T[8], FROM, TO, 8), Arrays.fillInts, Arrays.fillLongs: the call is on line 10 */
#define AFILL_PROG(T, FN, FROM, TO)          \
    "module T\n"                              \
    "import Arrays\n"                         \
    "method main() -> int\n"                  \
    "    var a: " T "\n"                       \
    "    var from, to, v: int\n"               \
    "    ldi v, 8\n"                           \
    "    newarray a, v\n"                      \
    "    ldi from, " FROM "\n"                 \
    "    ldi to, " TO "\n"                     \
    "    call Arrays." FN "(a, from, to, v)\n" \
    "    ret from\n"                           \
    "end\n"
#define AFILL_TRACE(FN) "\tat Arrays." FN "(Native Method)\n\tat T.main(@:10)\n"

/* ByteArrayAccess.FN(a, AOFS, b, BOFS, LEN) with a: NEWA(n), a new AT[n], or "ldnull a\n" (both
   two lines), b likewise; the call is on line 16. The cases and texts are JDK 25's, run there. */
#define BAA_PROG(FN, AT, ANEW, BT, BNEW, AOFS, BOFS, LEN) \
    "module T\n"                                         \
    "import ByteArrayAccess\n"                           \
    "method main() -> int\n"                             \
    "    var a: " AT "\n"                                 \
    "    var ao: int\n"                                   \
    "    var b: " BT "\n"                                 \
    "    var bo, len: int\n"                              \
    "    var n: long\n"                                   \
    "    " ANEW "\n"                                      \
    "    " BNEW "\n"                                      \
    "    ldi ao, " AOFS "\n"                              \
    "    ldi bo, " BOFS "\n"                              \
    "    ldi len, " LEN "\n"                              \
    "    call ByteArrayAccess." FN "(a, ao, b, bo, len)\n" \
    "    ret ao\n"                                        \
    "end\n"
#define NEWA(n) "ldi n, " #n "\n    newarray a, n"
#define NEWB(n) "ldi n, " #n "\n    newarray b, n"
#define BAA_TRACE(FN) "\tat ByteArrayAccess." FN "(Native Method)\n\tat T.main(@:16)\n"

/* recursion without end: rec's call is on line 6, main's on line 13 */
#define RECURSE_PROG               \
    "module T\n"                   \
    "\n"                           \
    "method rec(n: long) -> long\n" \
    "    var r, m: long\n"         \
    "    add m, n, 1\n"            \
    "    call r = T.rec(m)\n"      \
    "    ret r\n"                  \
    "end\n"                        \
    "\n"                           \
    "method main() -> int\n"       \
    "    var r, n: long\n"         \
    "    ldi n, 0\n"               \
    "    call r = T.rec(n)\n"      \
    "    ret r\n"                  \
    "end\n"

/* check is inlined into main (vm/inline.c): the native's trace still shows its frame */
#define INLINED_NATIVE_PROG                  \
    "module T\n"                             \
    "method check(i: int, n: int) -> int\n"  \
    "    var r: int\n"                        \
    "    var a, b: int\n"                     \
    "    mov a, i\n"                          \
    "    mov b, n\n"                          \
    "    call r = Sys.checkIndex(a, b)\n"     \
    "    add r, r, 1\n"                       \
    "    ret r\n"                             \
    "end\n"                                  \
    "method main() -> int\n"                 \
    "    var r, i, n: int\n"                  \
    "    ldi i, 7\n"                          \
    "    ldi n, 3\n"                          \
    "    call r = check(i, n)\n"              \
    "    ret r\n"                             \
    "end\n"
#define INLINED_NATIVE_TRACE "\tat Sys.checkIndex(Native Method)\n\tat T.check(@:7)\n\tat T.main(@:15)\n"
/* mid is inlined into main as it was assembled, so its call of leaf (inlined into mid's own code)
   stays a call from main: a real frame above an inlined one */
#define INLINED_MID_PROG                     \
    "module T\n"                             \
    "method leaf(a: long, b: long) -> long\n" \
    "    var q: long\n"                       \
    "    div q, a, b\n"                       \
    "    ret q\n"                             \
    "end\n"                                  \
    "method mid(a: long) -> long\n"          \
    "    var r, x, y: long\n"                 \
    "    mov x, a\n"                          \
    "    call r = leaf(x, y)\n"               \
    "    add r, r, 1\n"                       \
    "    ret r\n"                             \
    "end\n"                                  \
    "method main() -> int\n"                 \
    "    var r, a: long\n"                    \
    "    ldi a, 5\n"                          \
    "    call r = mid(a)\n"                   \
    "    ret r\n"                             \
    "end\n"
#define INLINED_MID_TRACE "\tat T.leaf(@:4)\n\tat T.mid(@:10)\n\tat T.main(@:17)\n"

/* f and g call each other, each inlined into the other: a trace of 1024 lines, inlined frames
   counted as Java's MaxJavaStackTraceDepth counts them */
#define INLINED_RECURSION_PROG               \
    "module T\n"                             \
    "method g(n: long) -> long\n"            \
    "    var r, a: long\n"                    \
    "    add a, n, 1\n"                       \
    "    call r = f(a)\n"                     \
    "    ret r\n"                             \
    "end\n"                                  \
    "method f(n: long) -> long\n"            \
    "    var r, m: long\n"                    \
    "    add m, n, 2\n"                       \
    "    call r = g(m)\n"                     \
    "    ret r\n"                             \
    "end\n"                                  \
    "method main() -> int\n"                 \
    "    var t, n: long\n"                    \
    "    call t = f(n)\n"                     \
    "    ret t\n"                             \
    "end\n"
/* names of 200 characters: each trace line is longer than 400, two of them (an inlined frame and
   its caller's) in one frame */
#define N50 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#define LONG_M "M" N50 N50 N50 N50
#define LONG_G "g" N50 N50 N50 N50
#define LONG_F "f" N50 N50 N50 N50
#define INLINED_LONG_PROG                    \
    "module " LONG_M "\n"                    \
    "record P\n"                             \
    "    x: long\n"                           \
    "end\n"                                  \
    "method " LONG_G "(p: P) -> long\n"      \
    "    var x: long\n"                       \
    "    getfield x, p, x\n"                  \
    "    ret x\n"                             \
    "end\n"                                  \
    "method " LONG_F "(p: P) -> long\n"      \
    "    var r: long\n"                       \
    "    var q: P\n"                          \
    "    mov q, p\n"                          \
    "    call r = " LONG_G "(q)\n"            \
    "    add r, r, 1\n"                       \
    "    ret r\n"                             \
    "end\n"                                  \
    "method main() -> int\n"                 \
    "    var r: long\n"                       \
    "    var p: P\n"                          \
    "    call r = " LONG_F "(p)\n"            \
    "    ret r\n"                             \
    "end\n"
#define INLINED_LONG_TRACE \
    "\tat " LONG_M "." LONG_G "(@:7)\n\tat " LONG_M "." LONG_F "(@:14)\n\tat " LONG_M ".main(@:21)\n"

static const rt_case cases[] = {
    /* ---- java.lang.ArrayIndexOutOfBoundsException ---- */
    {"aioobe_load_in_callee", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method get(b: byte[], i: long) -> long\n"
     "    var v: long\n"
     "    baload v, b, i\n"
     "    ret v\n"
     "end\n"
     "\n"
     "method main() -> int\n"
     "    var r: long\n"
     "    var b: byte[]\n"
     "    var idx, n: long\n"
     "    ldi n, 136\n"
     "    newarray b, n\n"
     "    ldi idx, 200\n"
     "    call r = T.get(b, idx)\n"
     "    ret r\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index 200 out of bounds for length 136",
     TRACE("\tat T.get(@:5)\n\tat T.main(@:16)\n")},
    {"aioobe_negative_store_three_frames", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method put(b: byte[], i: long)\n"
     "    var v: long\n"
     "    ldi v, 7\n"
     "    bastore b, i, v\n"
     "    ret\n"
     "end\n"
     "\n"
     "method mid(b: byte[])\n"
     "    var i: long\n"
     "    ldi i, -1\n"
     "    call T.put(b, i)\n"
     "    ret\n"
     "end\n"
     "\n"
     "method main()\n"
     "    var b: byte[]\n"
     "    var n: long\n"
     "    ldi n, 136\n"
     "    newarray b, n\n"
     "    call T.mid(b)\n"
     "    ret\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index -1 out of bounds for length 136",
     TRACE("\tat T.put(@:6)\n\tat T.mid(@:13)\n\tat T.main(@:22)\n")},
    {"aioobe_long_array_at_length", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var s: long[]\n"
     "    var n, v: long\n"
     "    ldi n, 25\n"
     "    newarray s, n\n"
     "    ldi v, 24\n"
     "    laload v, s, v\n"
     "    lastore s, n, v\n"
     "    ret v\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index 25 out of bounds for length 25",
     TRACE("\tat T.main(@:10)\n")},
    {"aioobe_int_array_huge_index", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var a: int[]\n"
     "    var n, v: long\n"
     "    ldi n, 4\n"
     "    newarray a, n\n"
     "    ldi n, 0x7fffffff\n"
     "    iaload v, a, n\n"
     "    ret v\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index 2147483647 out of bounds for length 4",
     TRACE("\tat T.main(@:9)\n")},
    /* byte[] views check as Java's VarHandle: against length - (size - 1) */
    {"aioobe_ldle64_view", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var buf: byte[]\n"
     "    var n, x, v: long\n"
     "    ldi n, 136\n"
     "    newarray buf, n\n"
     "    ldi x, 128\n"
     "    ldle64 v, buf, x\n"
     "    ldi x, 130\n"
     "    ldle64 v, buf, x\n"
     "    ret v\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index 130 out of bounds for length 129",
     TRACE("\tat T.main(@:11)\n")},
    {"aioobe_ldle32_view", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var buf: byte[]\n"
     "    var n, x, v: long\n"
     "    ldi n, 136\n"
     "    newarray buf, n\n"
     "    ldi x, 132\n"
     "    ldle32 v, buf, x\n"
     "    ldi x, 133\n"
     "    ldle32 v, buf, x\n"
     "    ret v\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index 133 out of bounds for length 133",
     TRACE("\tat T.main(@:11)\n")},
    {"aioobe_stbe64_negative", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var buf: byte[]\n"
     "    var n, x: long\n"
     "    ldi n, 136\n"
     "    newarray buf, n\n"
     "    ldi x, -1\n"
     "    stbe64 buf, x, n\n"
     "    ret n\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index -1 out of bounds for length 129",
     TRACE("\tat T.main(@:9)\n")},
    {"aioobe_stle64_short_array", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var buf: byte[]\n"
     "    var n, x: long\n"
     "    ldi n, 5\n"
     "    newarray buf, n\n"
     "    ldi x, 0\n"
     "    stle64 buf, x, n\n"
     "    ret n\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index 0 out of bounds for length -2",
     TRACE("\tat T.main(@:9)\n")},
    /* ---- java.lang.NegativeArraySizeException ---- */
    {"negative_array_size", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var a: long[]\n"
     "    var n: long\n"
     "    ldi n, -5\n"
     "    newarray a, n\n"
     "    ret n\n"
     "end\n",
     EXC "NegativeArraySizeException: -5", TRACE("\tat T.main(@:7)\n")},
    /* ---- java.lang.NullPointerException (helpful messages) ---- */
    {"npe_byte_load", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var buf: byte[]\n"
     "    var v: long\n"
     "    ldnull buf\n"
     "    ldi v, 0\n"
     "    baload v, buf, v\n"
     "    ret v\n"
     "end\n",
     EXC "NullPointerException: Cannot load from byte/boolean array because \"buf\" is null", TRACE("\tat T.main(@:8)\n")},
    {"npe_parameter_in_callee", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method first(buf: byte[]) -> long\n"
     "    var v: long\n"
     "    ldi v, 0\n"
     "    ldle64 v, buf, v\n"
     "    ret v\n"
     "end\n"
     "\n"
     "method main() -> int\n"
     "    var v: long\n"
     "    var b: byte[]\n"
     "    ldnull b\n"
     "    call v = T.first(b)\n"
     "    ret v\n"
     "end\n",
     EXC "NullPointerException: Cannot load from byte/boolean array because \"buf\" is null",
     TRACE("\tat T.first(@:6)\n\tat T.main(@:14)\n")},
    {"npe_array_length", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var a: int[]\n"
     "    var n: long\n"
     "    ldnull a\n"
     "    alen n, a\n"
     "    ret n\n"
     "end\n",
     EXC "NullPointerException: Cannot read the array length because \"a\" is null", TRACE("\tat T.main(@:7)\n")},
    {"npe_long_store", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var s: long[]\n"
     "    var n: long\n"
     "    ldi n, 0\n"
     "    lastore s, n, n\n"
     "    ret n\n"
     "end\n",
     EXC "NullPointerException: Cannot store to long array because \"s\" is null", TRACE("\tat T.main(@:7)\n")},
    {"npe_read_field", {NULL}, {NULL},
     "module T\n"
     "\n"
     "record P\n"
     "    state: long[]\n"
     "end\n"
     "\n"
     "method main() -> int\n"
     "    var p: P\n"
     "    var s: long[]\n"
     "    var n: long\n"
     "    ldnull p\n"
     "    getfield s, p, state\n"
     "    alen n, s\n"
     "    ret n\n"
     "end\n",
     EXC "NullPointerException: Cannot read field \"state\" because \"p\" is null", TRACE("\tat T.main(@:12)\n")},
    {"npe_assign_field", {NULL}, {NULL},
     "module T\n"
     "\n"
     "record P\n"
     "    state: long[]\n"
     "    count: long\n"
     "end\n"
     "\n"
     "method main() -> int\n"
     "    var p: P\n"
     "    var n: long\n"
     "    ldi n, 1\n"
     "    ldnull p\n"
     "    putfield p, count, n\n"
     "    ret n\n"
     "end\n",
     EXC "NullPointerException: Cannot assign field \"count\" because \"p\" is null", TRACE("\tat T.main(@:13)\n")},
    /* a native's NullPointerException has no helpful message (HotSpot's neither) */
    {"npe_native_println", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main()\n"
     "    var s: byte[]\n"
     "    ldnull s\n"
     "    call Sys.println(s)\n"
     "    ret\n"
     "end\n",
     EXC "NullPointerException", TRACE("\tat Sys.println(Native Method)\n\tat T.main(@:6)\n")},
    /* ---- java.lang.ArithmeticException ---- */
    {"arithmetic_div_by_zero", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method divide(a: long, b: long) -> long\n"
     "    var q: long\n"
     "    div q, a, b\n"
     "    ret q\n"
     "end\n"
     "\n"
     "method main() -> int\n"
     "    var q, a, b: long\n"
     "    ldi a, 10\n"
     "    ldi b, 0\n"
     "    call q = T.divide(a, b)\n"
     "    ret q\n"
     "end\n",
     EXC "ArithmeticException: / by zero", TRACE("\tat T.divide(@:5)\n\tat T.main(@:13)\n")},
    {"arithmetic_rem_by_zero", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var a, b: long\n"
     "    ldi a, 10\n"
     "    ldi b, 0\n"
     "    rem a, a, b\n"
     "    ret a\n"
     "end\n",
     EXC "ArithmeticException: / by zero", TRACE("\tat T.main(@:7)\n")},
    /* ---- java.lang.StackOverflowError: Java prints at most 1024 frames ---- */
    {"stack_overflow_trace_capped", {NULL}, {NULL}, RECURSE_PROG,
     EXC "StackOverflowError", NULL, "\tat T.rec(@:6)\n", "\tat T.rec(@:6)\n", 1024, 1024},
    {"stack_overflow_small_stack_whole_trace", {"-Xss4k", NULL}, {NULL}, RECURSE_PROG,
     EXC "StackOverflowError", NULL, "\tat T.rec(@:6)\n", "\tat T.rec(@:6)\n\tat T.main(@:13)\n", 3, 1023},
    /* ---- java.lang.OutOfMemoryError ---- */
    {"oom_java_heap_space", {"-Xmx2m", NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var b: byte[]\n"
     "    var n: long\n"
     "    ldi n, 4194304\n"
     "    newarray b, n\n"
     "    ret n\n"
     "end\n",
     EXC "OutOfMemoryError: Java heap space", TRACE("\tat T.main(@:7)\n")},
    {"oom_largest_array_over_default_heap", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var a: long[]\n"
     "    var n: long\n"
     "    ldi n, 0x7ffffffd\n"
     "    newarray a, n\n"
     "    ret n\n"
     "end\n",
     EXC "OutOfMemoryError: Java heap space", TRACE("\tat T.main(@:7)\n")},
    {"oom_array_size_exceeds_vm_limit", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var b: byte[]\n"
     "    var n: long\n"
     "    ldi n, 0x7fffffff\n"
     "    newarray b, n\n"
     "    ret n\n"
     "end\n",
     EXC "OutOfMemoryError: Requested array size exceeds VM limit", TRACE("\tat T.main(@:7)\n")},
    {"oom_array_size_exceeds_vm_limit_small_heap", {"-Xmx2m", NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var b: int[]\n"
     "    var n: long\n"
     "    ldi n, 0x7ffffffe\n"
     "    newarray b, n\n"
     "    ret n\n"
     "end\n",
     EXC "OutOfMemoryError: Requested array size exceeds VM limit", TRACE("\tat T.main(@:7)\n")},
    /* ---- Sys.fill (Arrays.fill's stores): Arrays.rangeCheck's checks and texts ---- */
    {"fill_from_after_to", {NULL}, {NULL}, FILL_PROG("byte[]", "5", "2"),
     EXC "IllegalArgumentException: fromIndex(5) > toIndex(2)", TRACE(FILL_TRACE)},
    {"fill_to_past_the_end", {NULL}, {NULL}, FILL_PROG("int[]", "0", "9"),
     EXC "ArrayIndexOutOfBoundsException: Array index out of range: 9", TRACE(FILL_TRACE)},
    {"fill_negative_from", {NULL}, {NULL}, FILL_PROG("long[]", "-1", "3"),
     EXC "ArrayIndexOutOfBoundsException: Array index out of range: -1", TRACE(FILL_TRACE)},
    {"fill_null", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var a: byte[]\n"
     "    var from, to, v: long\n"
     "    call Sys.fill(a, from, to, v)\n"
     "    ret from\n"
     "end\n",
     EXC "NullPointerException", TRACE("\tat Sys.fill(Native Method)\n\tat T.main(@:6)\n")},
    /* ---- Arrays.fill (a native: C2's fill stubs): Arrays.rangeCheck's texts, a.length's NPE ---- */
    {"arrays_fill_from_after_to", {NULL}, {NULL}, AFILL_PROG("byte[]", "fill", "5", "2"),
     EXC "IllegalArgumentException: fromIndex(5) > toIndex(2)", TRACE(AFILL_TRACE("fill"))},
    {"arrays_fill_ints_to_past_the_end", {NULL}, {NULL}, AFILL_PROG("int[]", "fillInts", "0", "9"),
     EXC "ArrayIndexOutOfBoundsException: Array index out of range: 9", TRACE(AFILL_TRACE("fillInts"))},
    {"arrays_fill_longs_negative_from", {NULL}, {NULL}, AFILL_PROG("long[]", "fillLongs", "-1", "3"),
     EXC "ArrayIndexOutOfBoundsException: Array index out of range: -1", TRACE(AFILL_TRACE("fillLongs"))},
    {"arrays_fill_null", {NULL}, {NULL},
     "module T\n"
     "import Arrays\n"
     "method main() -> int\n"
     "    var a: long[]\n"
     "    var from, to: int\n"
     "    var v: long\n"
     "    call Arrays.fillLongs(a, from, to, v)\n"
     "    ret from\n"
     "end\n",
     EXC "NullPointerException: Cannot read the array length because \"a\" is null",
     TRACE("\tat Arrays.fillLongs(Native Method)\n\tat T.main(@:7)\n")},
    /* ---- forwarders (vm/loader.c): a call of one runs its target directly, the trace keeps its frame ---- */
    {"forwarder_frame_in_a_native_trace", {NULL}, {NULL},
     "module T\n"
     "method g(i: int, n: int) -> int\n"
     "    var r: int\n"
     "    var a, b: int\n"
     "    mov a, i\n"
     "    mov b, n\n"
     "    call r = Sys.checkIndex(a, b)\n"
     "    ret r\n"
     "end\n"
     "method fwd(i: int, n: int) -> int\n"
     "    var r: int\n"
     "    var x, y: int\n"
     "    mov x, i\n"
     "    mov y, n\n"
     "    call r = g(x, y)\n"
     "    ret r\n"
     "end\n"
     "method main() -> int\n"
     "    var r, i, n: int\n"
     "    ldi i, 7\n"
     "    ldi n, 3\n"
     "    call r = fwd(i, n)\n"
     "    ret r\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 3",
     TRACE("\tat Sys.checkIndex(Native Method)\n\tat T.g(@:7)\n\tat T.fwd(@:15)\n\tat T.main(@:22)\n")},
    {"forwarder_null_receiver_named_as_the_forwarder_names_it", {NULL}, {NULL},
     "module T\n"
     "record P\n"
     "    x: long\n"
     "end\n"
     "virtual method get(p: P) -> long\n"
     "    var v: long\n"
     "    getfield v, p, x\n"
     "    ret v\n"
     "end\n"
     "method fwd(p: P) -> long\n"
     "    var r: long\n"
     "    var recv: P\n"
     "    mov recv, p\n"
     "    callvirt r = get(recv)\n"
     "    ret r\n"
     "end\n"
     "method main() -> int\n"
     "    var r: long\n"
     "    var q: P\n"
     "    call r = fwd(q)\n"
     "    ret r\n"
     "end\n",
     EXC "NullPointerException: Cannot invoke \"T.get()\" because \"recv\" is null",
     TRACE("\tat T.fwd(@:14)\n\tat T.main(@:20)\n")},
    /* ---- inlined methods (vm/inline.c): their frames stay in the trace, as without inlining ---- */
    {"inlined_native_trace", {NULL}, {NULL}, INLINED_NATIVE_PROG,
     EXC "ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 3", TRACE(INLINED_NATIVE_TRACE)},
    {"inlined_native_trace_no_inline", {"-XX:-Inline", NULL}, {NULL}, INLINED_NATIVE_PROG,
     EXC "ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 3", TRACE(INLINED_NATIVE_TRACE)},
    {"inlined_frame_below_a_call", {NULL}, {NULL}, INLINED_MID_PROG, EXC "ArithmeticException: / by zero",
     TRACE(INLINED_MID_TRACE)},
    {"inlined_recursion_trace_capped", {NULL}, {NULL}, INLINED_RECURSION_PROG, EXC "StackOverflowError", NULL,
     "\tat T.f(@:11)\n\tat T.g(@:5)\n", "\tat T.g(@:5)\n", 1024, 1024},
    {"inlined_frames_long_names", {NULL}, {NULL}, INLINED_LONG_PROG,
     EXC "NullPointerException: Cannot read field \"x\" because \"p\" is null", TRACE(INLINED_LONG_TRACE)},
    {"inlined_frame_below_a_call_xint", {"-Xint", NULL}, {NULL}, INLINED_MID_PROG, EXC "ArithmeticException: / by zero",
     TRACE(INLINED_MID_TRACE)},
    /* ---- ByteArrayAccess (natives): JDK 25's loop, its checks in Java's order, Java's texts ---- */
    {"baa_i2b_null_in", {NULL}, {NULL}, BAA_PROG("i2bBig", "int[]", "ldnull a\n", "byte[]", NEWB(8), "0", "0", "8"),
     EXC "NullPointerException: Cannot load from int array because \"in\" is null", TRACE(BAA_TRACE("i2bBig"))},
    {"baa_i2b_null_out", {NULL}, {NULL}, BAA_PROG("i2bBig", "int[]", NEWA(2), "byte[]", "ldnull b\n", "0", "0", "8"),
     EXC "NullPointerException: Cannot read the array length because \"ba\" is null", TRACE(BAA_TRACE("i2bBig"))},
    {"baa_i2b_partial_int", {NULL}, {NULL}, BAA_PROG("i2bBig", "int[]", NEWA(2), "byte[]", NEWB(6), "0", "0", "6"),
     EXC "ArrayIndexOutOfBoundsException: Index 4 out of bounds for length 3", TRACE(BAA_TRACE("i2bBig"))},
    {"baa_i2b_short_in", {NULL}, {NULL}, BAA_PROG("i2bBig", "int[]", NEWA(1), "byte[]", NEWB(8), "0", "0", "8"),
     EXC "ArrayIndexOutOfBoundsException: Index 1 out of bounds for length 1", TRACE(BAA_TRACE("i2bBig"))},
    {"baa_i2b_negative_out_offset", {NULL}, {NULL},
     BAA_PROG("i2bBig", "int[]", NEWA(2), "byte[]", NEWB(8), "0", "-1", "8"),
     EXC "ArrayIndexOutOfBoundsException: Index -1 out of bounds for length 5", TRACE(BAA_TRACE("i2bBig"))},
    {"baa_i2b_little_negative_in_offset", {NULL}, {NULL},
     BAA_PROG("i2bLittle", "int[]", NEWA(2), "byte[]", NEWB(8), "-1", "0", "8"),
     EXC "ArrayIndexOutOfBoundsException: Index -1 out of bounds for length 2", TRACE(BAA_TRACE("i2bLittle"))},
    {"baa_l2b_short_in", {NULL}, {NULL}, BAA_PROG("l2bLittle", "long[]", NEWA(2), "byte[]", NEWB(16), "1", "0", "16"),
     EXC "ArrayIndexOutOfBoundsException: Index 2 out of bounds for length 2", TRACE(BAA_TRACE("l2bLittle"))},
    {"baa_b2i_null_in", {NULL}, {NULL}, BAA_PROG("b2iBig", "byte[]", "ldnull a\n", "int[]", NEWB(2), "0", "0", "8"),
     EXC "NullPointerException: Cannot read the array length because \"ba\" is null", TRACE(BAA_TRACE("b2iBig"))},
    {"baa_b2i_null_out", {NULL}, {NULL}, BAA_PROG("b2iBig", "byte[]", NEWA(8), "int[]", "ldnull b\n", "0", "0", "8"),
     EXC "NullPointerException: Cannot store to int array because \"out\" is null", TRACE(BAA_TRACE("b2iBig"))},
    {"baa_b2i_short_in", {NULL}, {NULL}, BAA_PROG("b2iBig", "byte[]", NEWA(6), "int[]", NEWB(2), "0", "0", "8"),
     EXC "ArrayIndexOutOfBoundsException: Index 4 out of bounds for length 3", TRACE(BAA_TRACE("b2iBig"))},
    {"baa_b2l_view_past_end", {NULL}, {NULL}, BAA_PROG("b2lLittle", "byte[]", NEWA(16), "long[]", NEWB(2), "12", "0", "8"),
     EXC "ArrayIndexOutOfBoundsException: Index 12 out of bounds for length 9", TRACE(BAA_TRACE("b2lLittle"))},
    {"baa_b2l_big_short_out", {NULL}, {NULL}, BAA_PROG("b2lBig", "byte[]", NEWA(16), "long[]", NEWB(1), "0", "0", "16"),
     EXC "ArrayIndexOutOfBoundsException: Index 1 out of bounds for length 1", TRACE(BAA_TRACE("b2lBig"))},
    /* Java's `len += ofs` wraps: a negative offset and length below Integer.MIN_VALUE give a large
       positive end, so the loop runs and its first access throws (JDK 25, tests/hotspot/
       byte_array_access.txt has more) */
    {"baa_i2b_wrapped_end_runs", {NULL}, {NULL},
     BAA_PROG("i2bBig", "int[]", NEWA(10), "byte[]", NEWB(6), "15", "-2147483648", "-3"),
     EXC "ArrayIndexOutOfBoundsException: Index 15 out of bounds for length 10", TRACE(BAA_TRACE("i2bBig"))},
    {"baa_b2i_wrapped_end_runs_null_in", {NULL}, {NULL},
     BAA_PROG("b2iBig", "byte[]", "ldnull a\n", "int[]", NEWB(7), "-2147483648", "2", "-8"),
     EXC "NullPointerException: Cannot read the array length because \"ba\" is null", TRACE(BAA_TRACE("b2iBig"))},
    /* ... but values beyond int (64-bit registers) are taken as they are: -2^32 + 4 is no wrap */
    {"baa_i2b_beyond_int_taken_as_is", {NULL}, {NULL},
     BAA_PROG("i2bBig", "int[]", NEWA(10), "byte[]", NEWB(6), "0", "-4294967296", "4294967300"),
     EXC "ArrayIndexOutOfBoundsException: Index -4294967296 out of bounds for length 3", TRACE(BAA_TRACE("i2bBig"))},
    /* ---- System.arraycopy: HotSpot's checks and texts ---- */
    {"arraycopy_last_source_index", {NULL}, {NULL}, COPY_PROG("byte[]", "10", "byte[]", "10", "5", "0", "6"),
     EXC "ArrayIndexOutOfBoundsException: arraycopy: last source index 11 out of bounds for byte[10]", TRACE(COPY_TRACE)},
    {"arraycopy_last_destination_index", {NULL}, {NULL},
     COPY_PROG("long[]", "10", "long[]", "8", "0", "4", "8"),
     EXC "ArrayIndexOutOfBoundsException: arraycopy: last destination index 12 out of bounds for long[8]",
     TRACE(COPY_TRACE)},
    {"arraycopy_negative_source_index", {NULL}, {NULL}, COPY_PROG("int[]", "4", "int[]", "4", "-1", "0", "1"),
     EXC "ArrayIndexOutOfBoundsException: arraycopy: source index -1 out of bounds for int[4]", TRACE(COPY_TRACE)},
    {"arraycopy_negative_destination_index", {NULL}, {NULL},
     COPY_PROG("byte[]", "4", "byte[]", "3", "0", "-2", "1"),
     EXC "ArrayIndexOutOfBoundsException: arraycopy: destination index -2 out of bounds for byte[3]", TRACE(COPY_TRACE)},
    {"arraycopy_negative_length", {NULL}, {NULL}, COPY_PROG("byte[]", "10", "byte[]", "10", "0", "0", "-1"),
     EXC "ArrayIndexOutOfBoundsException: arraycopy: length -1 is negative", TRACE(COPY_TRACE)},
    /* int parameters are 64-bit registers: a huge position must not wrap around (it once read wild memory) */
    {"arraycopy_source_index_beyond_int", {NULL}, {NULL},
     COPY_PROG("byte[]", "10", "byte[]", "10", "0x7fffffffffffffff", "0", "1"),
     EXC "ArrayIndexOutOfBoundsException: arraycopy: last source index 9223372036854775808 out of bounds for byte[10]",
     TRACE(COPY_TRACE)},
    {"arraycopy_destination_index_beyond_int", {NULL}, {NULL},
     COPY_PROG("long[]", "3", "long[]", "3", "1", "0x7ffffffffffffffe", "2"),
     EXC "ArrayIndexOutOfBoundsException: arraycopy: last destination index 9223372036854775808 out of bounds for "
         "long[3]",
     TRACE(COPY_TRACE)},
    {"arraycopy_type_mismatch", {NULL}, {NULL}, COPY_PROG("byte[]", "10", "long[]", "10", "0", "0", "1"),
     EXC "ArrayStoreException: arraycopy: type mismatch: can not copy byte[] into long[]", TRACE(COPY_TRACE)},
    {"arraycopy_type_mismatch_before_bounds", {NULL}, {NULL},
     COPY_PROG("int[]", "1", "long[]", "1", "-7", "-7", "0"),
     EXC "ArrayStoreException: arraycopy: type mismatch: can not copy int[] into long[]", TRACE(COPY_TRACE)},
    {"arraycopy_null_source", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var src: byte[]\n"
     "    var sp: long\n"
     "    var dst: byte[]\n"
     "    var dp, len: long\n"
     "    ldi len, 4\n"
     "    newarray dst, len\n"
     "    ldnull src\n"
     "    call Sys.arraycopy(src, sp, dst, dp, len)\n"
     "    ret len\n"
     "end\n",
     EXC "NullPointerException", TRACE("\tat Sys.arraycopy(Native Method)\n\tat T.main(@:11)\n")},
    {"arraycopy_in_callee", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method copy(src: byte[], sp: long, dst: byte[], dp: long, len: long)\n"
     "    call Sys.arraycopy(src, sp, dst, dp, len)\n"
     "    ret\n"
     "end\n"
     "\n"
     "method main() -> int\n"
     "    var src: byte[]\n"
     "    var sp: long\n"
     "    var dst: byte[]\n"
     "    var dp, len: long\n"
     "    ldi len, 136\n"
     "    newarray src, len\n"
     "    newarray dst, len\n"
     "    ldi sp, 130\n"
     "    ldi len, 8\n"
     "    call T.copy(src, sp, dst, dp, len)\n"
     "    ret len\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: arraycopy: last source index 138 out of bounds for byte[136]",
     TRACE("\tat Sys.arraycopy(Native Method)\n\tat T.copy(@:4)\n\tat T.main(@:18)\n")},
    /* ---- natives: program arguments, range checks ---- */
    {"sys_arg_out_of_range", {NULL}, {"a", "b", NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var s: byte[]\n"
     "    var i: long\n"
     "    ldi i, 1\n"
     "    call s = Sys.arg(i)\n"
     "    ldi i, 2\n"
     "    call s = Sys.arg(i)\n"
     "    ret i\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index 2 out of bounds for length 2",
     TRACE("\tat Sys.arg(Native Method)\n\tat T.main(@:9)\n")},
    {"sys_arg_negative_no_args", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var s: byte[]\n"
     "    var i: long\n"
     "    ldi i, -1\n"
     "    call s = Sys.arg(i)\n"
     "    ret i\n"
     "end\n",
     EXC "ArrayIndexOutOfBoundsException: Index -1 out of bounds for length 0",
     TRACE("\tat Sys.arg(Native Method)\n\tat T.main(@:7)\n")},
    {"sys_read_range", {NULL}, {NULL},
     "module T\n"
     "\n"
     "method main() -> int\n"
     "    var n, fd: long\n"
     "    var b: byte[]\n"
     "    var ofs, len: long\n"
     "    ldi len, 8\n"
     "    newarray b, len\n"
     "    ldi ofs, 4\n"
     "    ldi len, 10\n"
     "    call n = Sys.read(fd, b, ofs, len)\n"
     "    ret n\n"
     "end\n",
     EXC "IndexOutOfBoundsException: Range [4, 4 + 10) out of bounds for length 8",
     TRACE("\tat Sys.read(Native Method)\n\tat T.main(@:11)\n")},
};

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void run_case(void **state)
{
    const rt_case *c = *state;
    char fname[128];
    snprintf(fname, sizeof fname, "rt-%s.mva", c->name);
    const char *path = tu_temp_file(fname, c->src, strlen(c->src));
    char pathcopy[4096];
    snprintf(pathcopy, sizeof pathcopy, "%s", path);
    const char *base = strrchr(pathcopy, '/') ? strrchr(pathcopy, '/') + 1 : pathcopy;

    const char *argv[16];
    size_t n = 0;
    for (size_t i = 0; i < 4 && c->opts[i]; i++)
        argv[n++] = c->opts[i];
    argv[n++] = pathcopy;
    for (size_t i = 0; i < 4 && c->args[i]; i++)
        argv[n++] = c->args[i];
    argv[n] = NULL;

    tu_result r = tu_run(argv, NULL, 60);
    unlink(pathcopy);
    if (r.status != 1 || r.out[0] != '\0')
        print_error("status %d\n--- stdout ---\n%s\n--- stderr ---\n%s\n", r.status, r.out, r.err);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");

    /* the first line */
    char *nl = strchr(r.err, '\n');
    assert_non_null(nl);
    *nl = '\0';
    const char *trace = nl + 1;
    assert_string_equal(r.err, c->first);

    if (c->trace) {
        char *want = tu_subst(c->trace, base);
        assert_string_equal(trace, want);
        free(want);
    } else {
        char *head = tu_subst(c->head, base), *tail = tu_subst(c->tail, base);
        size_t tl = strlen(trace), hl = strlen(head), tal = strlen(tail);
        assert_true(tl >= hl && tl >= tal);
        assert_memory_equal(trace, head, hl);
        assert_string_equal(trace + tl - tal, tail);
        int frames = count_lines(trace);
        if (frames < c->min_frames || frames > c->max_frames)
            fail_msg("%d frames, expected %d..%d", frames, c->min_frames, c->max_frames);
        /* every frame is a frame line */
        for (const char *p = trace; *p; p = strchr(p, '\n') + 1)
            assert_memory_equal(p, "\tat T.", 6);
        free(head);
        free(tail);
    }
    tu_result_free(&r);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A frame in an imported module names that module's file; the program is run from another directory. */
static void cross_module_trace(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    char dir[4096], util[4200], prog[4200];
    snprintf(dir, sizeof dir, "%s/minivm-rt-XXXXXX", tmp ? tmp : "/tmp");
    assert_non_null(mkdtemp(dir));
    snprintf(util, sizeof util, "%s/Util.mva", dir);
    snprintf(prog, sizeof prog, "%s/main.mva", dir);
    write_file(util,
               "module Util\n"
               "\n"
               "method boom(b: byte[]) -> long\n"
               "    var v, i: long\n"
               "    ldi i, 9\n"
               "    baload v, b, i\n"
               "    ret v\n"
               "end\n");
    write_file(prog,
               "module Main\n"
               "import Util\n"
               "\n"
               "method main() -> int\n"
               "    var r: long\n"
               "    var b: byte[]\n"
               "    var n: long\n"
               "    ldi n, 4\n"
               "    newarray b, n\n"
               "    call r = Util.boom(b)\n"
               "    ret r\n"
               "end\n");
    const char *argv[] = {prog, NULL};
    tu_result r = tu_run(argv, NULL, 60);
    unlink(util);
    unlink(prog);
    rmdir(dir);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err, EXC "ArrayIndexOutOfBoundsException: Index 9 out of bounds for length 4\n"
                               "\tat Util.boom(Util.mva:6)\n"
                               "\tat Main.main(main.mva:10)\n");
    tu_result_free(&r);
}

int main(void)
{
    tu_group g = {0};
    TU_ADD_TABLE(&g, cases, run_case);
    TU_ADD_TEST(&g, cross_module_trace);
    return tu_run_group("runtime", &g, NULL, NULL);
}
