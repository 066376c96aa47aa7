/*
 * tests/test_cli.c — the minivm launcher's behaviour (suite 'cli'): exit
 * status, program arguments, standard streams, files, load errors and the
 * HotSpot-style option errors.
 *
 * Each case runs build/minivm as a child process. In argv and in the
 * expected texts, "@prog" stands for the case's program (written to a
 * temporary file), "@data" for its data file, and "@src:" followed by a
 * path for that file in the source tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "inline_callees.h"
#include "testutil.h"

enum { EXACT = TU_EXACT, PREFIX = TU_PREFIX, CONTAINS = TU_CONTAINS };

typedef struct cli_case {
    const char *name;
    const char *src;      /* the program, or NULL */
    const char *data;     /* a data file's content, or NULL */
    const char *argv[8];  /* launcher arguments */
    const char *in;       /* standard input, or NULL */
    int status;
    int out_mode;
    const char *out;      /* expected stdout */
    int err_mode;
    const char *err;      /* expected stderr */
} cli_case;

#define FATAL_TAIL TU_FATAL_TAIL
#define VERSION TU_VERSION
#define USAGE_HEAD TU_USAGE_HEAD

static const char ret42[] = TU_RET42;

static const char hi_void[] =
    "module T\n"
    "\n"
    "method main()\n"
    "    var s: byte[]\n"
    "    ldstr s, \"hi\"\n"
    "    call Sys.println(s)\n"
    "    ret\n"
    "end\n";

static const char exit3[] =
    "module T\n"
    "\n"
    "method main() -> int\n"
    "    var s: byte[]\n"
    "    var st: long\n"
    "    ldstr s, \"before\"\n"
    "    call Sys.println(s)\n"
    "    ldi st, 3\n"
    "    call Sys.exit(st)\n"
    "    ldstr s, \"after\"\n"
    "    call Sys.println(s)\n"
    "    ret st\n"
    "end\n";

/* exits from a callee, two frames deep: the status is still Sys.exit's */
static const char exit_deep[] =
    "module T\n"
    "\n"
    "method quit(st: long)\n"
    "    call Sys.exit(st)\n"
    "    ret\n"
    "end\n"
    "\n"
    "method main() -> int\n"
    "    var st: long\n"
    "    ldi st, 77\n"
    "    call T.quit(st)\n"
    "    ldi st, 5\n"
    "    ret st\n"
    "end\n";

static const char ret263[] =
    "module T\n"
    "\n"
    "method main() -> int\n"
    "    var r: long\n"
    "    ldi r, 263\n"
    "    ret r\n"
    "end\n";

static const char ret_minus1[] =
    "module T\n"
    "\n"
    "method main() -> int\n"
    "    var r: long\n"
    "    ldi r, -1\n"
    "    ret r\n"
    "end\n";

/* prints Sys.argc, then each argument on its own line */
static const char echo_args[] =
    "module Echo\n"
    "\n"
    "method main() -> int\n"
    "    var n: long\n"
    "    var s: byte[]\n"
    "    var i: long\n"
    "    var nl: byte[]\n"
    "    call n = Sys.argc()\n"
    "    call Sys.printLong(n)\n"
    "    ldstr nl, \"\"\n"
    "    call Sys.println(nl)\n"
    "    ldi i, 0\n"
    "loop:\n"
    "    bge i, n, done\n"
    "    call s = Sys.arg(i)\n"
    "    call Sys.println(s)\n"
    "    add i, i, 1\n"
    "    jmp loop\n"
    "done:\n"
    "    ldi n, 0\n"
    "    ret n\n"
    "end\n";

/*
 * cat: copies the file named by its first argument (or standard input,
 * fd 0, without arguments) to standard output through Sys.open/Sys.read.
 * A failed open prints the error and returns 2; main returns read's last result.
 */
static const char cat[] =
    "module Cat\n"
    "\n"
    "method main() -> int\n"
    "    var argc: long\n"
    "    var path: byte[]\n"
    "    var idx: long\n"
    "    var fd: long\n"
    "    var path2: byte[]\n"
    "    var n, f: long\n"
    "    var buf: byte[]\n"
    "    var ofs, len: long\n"
    "    var src: byte[]\n"
    "    var sp: long\n"
    "    var dst: byte[]\n"
    "    var dp, cnt: long\n"
    "    var msg: byte[]\n"
    "    var err: long\n"
    "    ldi f, 0\n"
    "    call argc = Sys.argc()\n"
    "    beq argc, 0, ready\n"
    "    ldi idx, 0\n"
    "    call path = Sys.arg(idx)\n"
    "    mov path2, path\n"
    "    call fd = Sys.open(path2)\n"
    "    blt fd, 0, failed\n"
    "    mov f, fd\n"
    "ready:\n"
    "    ldi len, 7\n"              /* a small buffer: many reads */
    "    newarray buf, len\n"
    "    ldi ofs, 0\n"
    "loop:\n"
    "    call n = Sys.read(f, buf, ofs, len)\n"
    "    ble n, 0, done\n"
    "    newarray dst, n\n"
    "    mov src, buf\n"
    "    ldi sp, 0\n"
    "    ldi dp, 0\n"
    "    mov cnt, n\n"
    "    call Sys.arraycopy(src, sp, dst, dp, cnt)\n"
    "    call Sys.print(dst)\n"
    "    jmp loop\n"
    "done:\n"
    "    mov err, n\n"
    "    call n = Sys.close(f)\n"
    "    ret err\n"
    "failed:\n"
    "    mov err, fd\n"
    "    call msg = Sys.errorString(err)\n"
    "    call Sys.eprintln(msg)\n"
    "    ldi n, 2\n"
    "    ret n\n"
    "end\n";

/* Sys.open of a missing file: -ENOENT; Sys.errorString names it; also odd error numbers */
static const char open_missing[] =
    "module Open\n"
    "\n"
    "method main() -> int\n"
    "    var fd: long\n"
    "    var path: byte[]\n"
    "    var msg: byte[]\n"
    "    var e: long\n"
    "    var nl: byte[]\n"
    "    ldstr nl, \"\"\n"
    "    ldstr path, \"/nonexistent/minivm/file\"\n"
    "    call fd = Sys.open(path)\n"
    "    call Sys.printLong(fd)\n"
    "    call Sys.println(nl)\n"
    "    mov e, fd\n"
    "    call msg = Sys.errorString(e)\n"
    "    call Sys.println(msg)\n"
    "    ldi e, 2\n"
    "    call msg = Sys.errorString(e)\n"
    "    call Sys.println(msg)\n"
    "    ldi e, 0x8000000000000000\n"
    "    call msg = Sys.errorString(e)\n"
    "    call Sys.println(msg)\n"
    "    ldstr path, \"a\\x00b\"\n"
    "    call fd = Sys.open(path)\n"
    "    call Sys.printLong(fd)\n"
    "    call Sys.println(nl)\n"
    "    ldi fd, 0\n"
    "    ret fd\n"
    "end\n";

static const char bad_mnemonic[] =
    "module T\n"
    "\n"
    "method main() -> int\n"
    "    frobnicate x\n"
    "end\n";

static const char bad_types[] =
    "module T\n"
    "\n"
    "method main() -> int\n"
    "    var b: byte[]\n"
    "    var n: long\n"
    "    add n, b, n\n"
    "    ret n\n"
    "end\n";

static const char no_main[] =
    "module T\n"
    "\n"
    "method helper() -> int\n"
    "    var r: long\n"
    "    ret r\n"
    "end\n";

static const char main_with_param[] =
    "module T\n"
    "\n"
    "method main(x: long) -> int\n"
    "    ret x\n"
    "end\n";

static const char main_returns_array[] =
    "module T\n"
    "\n"
    "method main() -> byte[]\n"
    "    var b: byte[]\n"
    "    ret b\n"
    "end\n";

/* java.util.Arrays (natives, as HotSpot's _equalsB and fill stubs): equals of equal, different,
   shorter, identical and null arrays; fill of a byte[] (the value truncated), int[] and long[] range */
static const char arrays_natives[] =
    "module T\n"
    "import Arrays\n"
    "method main() -> int\n"
    "    var a, b: byte[]\n"
    "    var i, x: long\n"
    "    var nl: byte[]\n"
    "    var r: long\n"
    "    var e1, e2: byte[]\n"
    "    var f_b: byte[]\n"
    "    var f_from, f_to, f_v: int\n"
    "    var ia: int[]\n"
    "    var i_from, i_to, i_v: int\n"
    "    var la: long[]\n"
    "    var l_from, l_to: int\n"
    "    var l_v: long\n"
    "    var p_b: byte[]\n"
    "    var p_o, p_l: int\n"
    "    ldstr nl, \"\"\n"
    "    ldstr a, \"abc\"\n"
    "    ldstr b, \"abc\"\n"
    "    mov e1, a\n"
    "    mov e2, b\n"
    "    call r = Arrays.equals(e1, e2)\n"
    "    call Sys.printLong(r)\n"
    "    ldstr e2, \"abd\"\n"
    "    call r = Arrays.equals(e1, e2)\n"
    "    call Sys.printLong(r)\n"
    "    ldstr e2, \"ab\"\n"
    "    call r = Arrays.equals(e1, e2)\n"
    "    call Sys.printLong(r)\n"
    "    mov e2, a\n"
    "    call r = Arrays.equals(e1, e2)\n"
    "    call Sys.printLong(r)\n"
    "    ldnull e2\n"
    "    call r = Arrays.equals(e1, e2)\n"
    "    call Sys.printLong(r)\n"
    "    ldnull e1\n"
    "    call r = Arrays.equals(e1, e2)\n"
    "    call Sys.printLong(r)\n"
    "    call Sys.println(nl)\n"
    "    ldi x, 6\n"
    "    newarray f_b, x\n"
    "    ldi f_from, 1\n"
    "    ldi f_to, 4\n"
    "    ldi f_v, 0x1ff\n"
    "    call Arrays.fill(f_b, f_from, f_to, f_v)\n"
    "    mov p_b, f_b\n"
    "    ldi p_o, 0\n"
    "    alen p_l, f_b\n"
    "    call Sys.printHex(p_b, p_o, p_l)\n"
    "    call Sys.println(nl)\n"
    "    ldi x, 3\n"
    "    newarray ia, x\n"
    "    ldi i_from, 0\n"
    "    ldi i_to, 2\n"
    "    ldi i_v, -2\n"
    "    call Arrays.fillInts(ia, i_from, i_to, i_v)\n"
    "    ldi i, 0\n"
    "ints:\n"
    "    iaload x, ia, i\n"
    "    call Sys.printLong(x)\n"
    "    call Sys.println(nl)\n"
    "    add i, i, 1\n"
    "    blt i, 3, ints\n"
    "    ldi x, 3\n"
    "    newarray la, x\n"
    "    ldi l_from, 1\n"
    "    ldi l_to, 3\n"
    "    ldi l_v, 0x123456789ab\n"
    "    call Arrays.fillLongs(la, l_from, l_to, l_v)\n"
    "    ldi i, 0\n"
    "longs:\n"
    "    laload x, la, i\n"
    "    call Sys.printLong(x)\n"
    "    call Sys.println(nl)\n"
    "    add i, i, 1\n"
    "    blt i, 3, longs\n"
    "    ldi r, 0\n"
    "    ret r\n"
    "end\n";

/* sun.security.provider.ByteArrayAccess (natives): every conversion, at offsets, on
   "0123456789abcdefghijklmnopqrstuv"; the expected values are Python's struct.unpack */
static const char byte_array_access[] =
    "module T\n"
    "import ByteArrayAccess\n"
    "method main() -> int\n"
    "    var b, o: byte[]\n"
    "    var ia: int[]\n"
    "    var la: long[]\n"
    "    var n, k: long\n"
    "    var nl: byte[]\n"
    "    var x_b: byte[]\n"
    "    var x_bo: int\n"
    "    var x_i: int[]\n"
    "    var x_io, x_len: int\n"
    "    var y_b: byte[]\n"
    "    var y_bo: int\n"
    "    var y_l: long[]\n"
    "    var y_lo, y_len: int\n"
    "    var z_i: int[]\n"
    "    var z_io: int\n"
    "    var z_b: byte[]\n"
    "    var z_bo, z_len: int\n"
    "    var w_l: long[]\n"
    "    var w_lo: int\n"
    "    var w_b: byte[]\n"
    "    var w_bo, w_len: int\n"
    "    var p_b: byte[]\n"
    "    var p_o, p_l: int\n"
    "    ldstr nl, \"\"\n"
    "    ldstr b, \"0123456789abcdefghijklmnopqrstuv\"\n"
    "    ldi n, 4\n"
    "    newarray ia, n\n"
    "    newarray la, n\n"
    "    ; b2iBig(b, 4, ia, 1, 8): ia = {0, \"4567\" BE, \"89ab\" BE, 0}\n"
    "    mov x_b, b\n"
    "    ldi x_bo, 4\n"
    "    mov x_i, ia\n"
    "    ldi x_io, 1\n"
    "    ldi x_len, 8\n"
    "    call ByteArrayAccess.b2iBig(x_b, x_bo, x_i, x_io, x_len)\n"
    "    ldi k, 0\n"
    "ints:\n"
    "    iaload n, ia, k\n"
    "    call Sys.printLong(n)\n"
    "    call Sys.println(nl)\n"
    "    add k, k, 1\n"
    "    blt k, 4, ints\n"
    "    ; b2iBig into ia[0]\n"
    "    ldi x_io, 0\n"
    "    ldi x_len, 4\n"
    "    call ByteArrayAccess.b2iBig(x_b, x_bo, x_i, x_io, x_len)\n"
    "    ldi k, 0\n"
    "    iaload n, ia, k\n"
    "    call Sys.printLong(n)\n"
    "    call Sys.println(nl)\n"
    "    ; b2lLittle(b, 0, la, 2, 16), b2lBig(b, 16, la, 0, 8)\n"
    "    mov y_b, b\n"
    "    ldi y_bo, 0\n"
    "    mov y_l, la\n"
    "    ldi y_lo, 2\n"
    "    ldi y_len, 16\n"
    "    call ByteArrayAccess.b2lLittle(y_b, y_bo, y_l, y_lo, y_len)\n"
    "    ldi y_bo, 16\n"
    "    ldi y_lo, 0\n"
    "    ldi y_len, 8\n"
    "    call ByteArrayAccess.b2lBig(y_b, y_bo, y_l, y_lo, y_len)\n"
    "    ldi k, 0\n"
    "longs:\n"
    "    laload n, la, k\n"
    "    call Sys.printLong(n)\n"
    "    call Sys.println(nl)\n"
    "    add k, k, 1\n"
    "    blt k, 4, longs\n"
    "    ; back to bytes: i2bLittle(ia, 1, o, 0, 8), i2bBig(ia, 0, o, 8, 4), l2bLittle(la, 2, o, 12, 8), l2bBig(la, 0, o, 20, 8)\n"
    "    ldi n, 28\n"
    "    newarray o, n\n"
    "    mov z_i, ia\n"
    "    ldi z_io, 1\n"
    "    mov z_b, o\n"
    "    ldi z_bo, 0\n"
    "    ldi z_len, 8\n"
    "    call ByteArrayAccess.i2bLittle(z_i, z_io, z_b, z_bo, z_len)\n"
    "    ldi z_io, 0\n"
    "    ldi z_bo, 8\n"
    "    ldi z_len, 4\n"
    "    call ByteArrayAccess.i2bBig(z_i, z_io, z_b, z_bo, z_len)\n"
    "    mov w_l, la\n"
    "    ldi w_lo, 2\n"
    "    mov w_b, o\n"
    "    ldi w_bo, 12\n"
    "    ldi w_len, 8\n"
    "    call ByteArrayAccess.l2bLittle(w_l, w_lo, w_b, w_bo, w_len)\n"
    "    ldi w_lo, 0\n"
    "    ldi w_bo, 20\n"
    "    call ByteArrayAccess.l2bBig(w_l, w_lo, w_b, w_bo, w_len)\n"
    "    call Sys.print(o)\n"
    "    call Sys.println(nl)\n"
    "    ldi n, 0\n"
    "    ret n\n"
    "end\n"
;

/* ByteArrayAccess's loops run no iteration, as Java's `len += ofs; while (ofs < len)` does, when
   len <= 0 or when ofs + len passes Integer.MAX_VALUE (it wraps): no exception */
static const char byte_array_access_no_iteration[] =
    "module T\n"
    "import ByteArrayAccess\n"
    "method main() -> int\n"
    "    var a: int[]\n"
    "    var ao: int\n"
    "    var b: byte[]\n"
    "    var bo, len: int\n"
    "    var n: long\n"
    "    var s: byte[]\n"
    "    ldi n, 2\n"
    "    newarray a, n\n"
    "    ldi n, 8\n"
    "    newarray b, n\n"
    "    ldi ao, 0\n"
    "    ldi bo, 0x7fffffff\n"
    "    ldi len, 4\n"
    "    call ByteArrayAccess.i2bBig(a, ao, b, bo, len)\n"
    "    ldi bo, 0\n"
    "    ldi len, -8\n"
    "    call ByteArrayAccess.i2bBig(a, ao, b, bo, len)\n"
    "    ldstr s, \"ok\"\n"
    "    call Sys.println(s)\n"
    "    ldi n, 0\n"
    "    ret n\n"
    "end\n"
;

/* not forwarders (vm/loader.c): a method that passes its parameters reordered, or changed, runs
   itself: g(a, b) = a - 2b; main returns swap(5, 1) + bump(5, 1) = g(1, 5) + g(1, 1) = -9 + -1 = -10,
   exit status 246 (taken for forwarders: g(5, 1) twice, 6) */
static const char not_forwarders[] =
    "module T\n"
    "method g(a: long, b: long) -> long\n"
    "    var r: long\n"
    "    sub r, a, b\n"
    "    sub r, r, b\n"
    "    ret r\n"
    "end\n"
    "method swap(a: long, b: long) -> long\n"
    "    var r, x, y: long\n"
    "    mov x, b\n"
    "    mov y, a\n"
    "    call r = g(x, y)\n"
    "    ret r\n"
    "end\n"
    "method bump(a: long, b: long) -> long\n"
    "    var r, x, y: long\n"
    "    mov a, b\n"
    "    mov x, a\n"
    "    mov y, b\n"
    "    call r = g(x, y)\n"
    "    ret r\n"
    "end\n"
    "method main() -> int\n"
    "    var r, a, b: long\n"
    "    var s, c, d: long\n"
    "    ldi a, 5\n"
    "    ldi b, 1\n"
    "    call r = swap(a, b)\n"
    "    mov c, a\n"
    "    mov d, b\n"
    "    call s = bump(c, d)\n"
    "    add r, r, s\n"
    "    ret r\n"
    "end\n";

/* Small static methods the loader inlines (vm/inline.c): registers read before written (sumTo's acc
   and i, firstOr's q) start at zero on every run of the same inlined call, a written parameter is a
   copy (twice), early returns, a void callee storing a static, natives called from an inlined body
   (show), recursion left a call. The output must not depend on inlining. */
static const char inlining[] =
    "module T\n"
    "static S: long\n"
    "record P\n"
    "    x: long\n"
    "end\n"
    "; reads acc and i before writing them: zero on every entry\n"
    SUM_TO_METHOD
    "; writes its parameter: the caller's argument keeps its value\n"
    TWICE_METHOD
    "; a reference read before written (null on every entry), two returns and a jump\n"
    FIRST_OR_METHOD
    "; void, a static\n"
    "method setS(v: long)\n"
    "    putstatic v, S\n"
    "    ret\n"
    "end\n"
    "method rec(n: long) -> long\n"
    "    var r, m: long\n"
    "    ble n, 0, base\n"
    "    sub m, n, 1\n"
    "    call r = rec(m)\n"
    "    add r, r, n\n"
    "    ret r\n"
    "base:\n"
    "    ret n\n"
    "end\n"
    "; prints v and a newline (natives called from an inlined body)\n"
    "method show(v: long)\n"
    "    var nl: byte[]\n"
    "    call Sys.printLong(v)\n"
    "    ldstr nl, \"\"\n"
    "    call Sys.println(nl)\n"
    "    ret\n"
    "end\n"
    "method main()\n"
    "    var t, n: long\n"
    "    var k: long\n"
    "    var t2, a: long\n"
    "    var v: long\n"
    "    var t3: long\n"
    "    var p: P\n"
    "    var d: long\n"
    "    var s: long\n"
    "    var t4, m: long\n"
    "    ldi n, 6\n"
    "loop:\n"
    "    bge k, 3, after\n"
    "    sub n, n, 1\n"
    "    call t = sumTo(n)\n"
    "    mov v, t\n"
    "    call show(v)\n"
    "    add k, k, 1\n"
    "    jmp loop\n"
    "after:\n"
    "    ldi a, 21\n"
    "    call t2 = twice(a)\n"
    "    mov v, t2\n"
    "    call show(v)\n"
    "    mov v, a\n"
    "    call show(v)\n"
    "    ldi d, 7\n"
    "    call t3 = firstOr(p, d)\n"
    "    mov v, t3\n"
    "    call show(v)\n"
    "    new p, P\n"
    "    putfield p, x, n\n"
    "    call t3 = firstOr(p, d)\n"
    "    mov v, t3\n"
    "    call show(v)\n"
    "    call t3 = firstOr(p, d)\n"
    "    mov v, t3\n"
    "    call show(v)\n"
    "    mov s, a\n"
    "    call setS(s)\n"
    "    getstatic v, S\n"
    "    call show(v)\n"
    "    ldi m, 4\n"
    "    call t4 = rec(m)\n"
    "    mov v, t4\n"
    "    call show(v)\n"
    "    ret\n"
    "end\n";
#define INLINING_OUT "10\n6\n3\n42\n21\n7\n3\n3\n21\n10\n"
/* -XX:+PrintInlining: HotSpot's line per call ("@ bci" the call's byte offset, 4 a word), under each caller */
#define PRINT_INLINING \
    "T::rec (28 bytes)\n" \
    "                              @ 12   T::rec (28 bytes)   failed to inline: recursive inlining is too deep\n" \
    "T::show (16 bytes)\n" \
    "                              @ 0   Sys::printLong   failed to inline: native method\n" \
    "                              @ 8   Sys::println   failed to inline: native method\n" \
    "T::main (144 bytes)\n" \
    "                              @ 16   T::sumTo (24 bytes)   inline\n" \
    "                              @ 24   T::show (16 bytes)   inline\n" \
    "                              @ 40   T::twice (8 bytes)   inline\n" \
    "                              @ 48   T::show (16 bytes)   inline\n" \
    "                              @ 56   T::show (16 bytes)   inline\n" \
    "                              @ 64   T::firstOr (44 bytes)   inline\n" \
    "                              @ 72   T::show (16 bytes)   inline\n" \
    "                              @ 84   T::firstOr (44 bytes)   inline\n" \
    "                              @ 92   T::show (16 bytes)   inline\n" \
    "                              @ 96   T::firstOr (44 bytes)   inline\n" \
    "                              @ 104   T::show (16 bytes)   inline\n" \
    "                              @ 112   T::setS (8 bytes)   inline\n" \
    "                              @ 120   T::show (16 bytes)   inline\n" \
    "                              @ 128   T::rec (28 bytes)   inline\n" \
    "                              @ 136   T::show (16 bytes)   inline\n"

/* forwarders, f to g and g to h: main's call of f runs f's call of g in place (vm/loader.c; one level),
   inlining or not, and f's own call skips g; main returns 9 - 2 */
static const char forwarding[] =
    "module T\n"
    "method h(a: long, b: long) -> long\n"
    "    var r: long\n"
    "    sub r, a, b\n"
    "    ret r\n"
    "end\n"
    "method g(a: long, b: long) -> long\n"
    "    var r, p, q: long\n"
    "    mov p, a\n"
    "    mov q, b\n"
    "    call r = h(p, q)\n"
    "    ret r\n"
    "end\n"
    "method f(a: long, b: long) -> long\n"
    "    var r, p, q: long\n"
    "    mov p, a\n"
    "    mov q, b\n"
    "    call r = g(p, q)\n"
    "    ret r\n"
    "end\n"
    "method main() -> int\n"
    "    var r, x, y: long\n"
    "    ldi x, 9\n"
    "    ldi y, 2\n"
    "    call r = f(x, y)\n"
    "    ret r\n"
    "end\n";
/* PrintInlining reports the forwarder wherever it applies: with inlining, and with -XX:-Inline and -Xint,
   where it is the one transformation of calls left; the forwarders' own calls are never listed */
#define PRINT_FORWARDING \
    "T::main (16 bytes)\n" \
    "                              @ 8   T::f (16 bytes)   inline (forwarder)\n"

#define MAIN_NOT_FOUND "Error: Main method not found in module T, please define the main method as:\n"

static const cli_case cases[] = {
    /* ---- exit status ---- */
    {"exit_status_is_main_result", ret42, NULL, {"@prog"}, NULL, 42, EXACT, "", EXACT, ""},
    {"exit_status_void_main_is_0", hi_void, NULL, {"@prog"}, NULL, 0, EXACT, "hi\n", EXACT, ""},
    {"exit_status_is_low_byte", ret263, NULL, {"@prog"}, NULL, 7, EXACT, "", EXACT, ""},
    {"exit_status_minus_1_is_255", ret_minus1, NULL, {"@prog"}, NULL, 255, EXACT, "", EXACT, ""},
    {"sys_exit_status_and_flush", exit3, NULL, {"@prog"}, NULL, 3, EXACT, "before\n", EXACT, ""},
    {"byte_array_access", byte_array_access, NULL, {"@prog"}, NULL, 0, EXACT,
     "0\n875902519\n943284578\n0\n875902519\n7451321489274203502\n0\n3978425819141910832\n7378413942531504440\n7654ba98456701234567ghijklmn\n", EXACT, ""},
    {"byte_array_access_no_iteration", byte_array_access_no_iteration, NULL, {"@prog"}, NULL, 0, EXACT, "ok\n",
     EXACT, ""},
    {"inlining_output", inlining, NULL, {"@prog"}, NULL, 0, EXACT, INLINING_OUT, EXACT, ""},
    {"inlining_off_same_output", inlining, NULL, {"-XX:-Inline", "@prog"}, NULL, 0, EXACT, INLINING_OUT, EXACT, ""},
    {"inlining_xint_same_output", inlining, NULL, {"-Xint", "@prog"}, NULL, 0, EXACT, INLINING_OUT, EXACT, ""},
    {"print_inlining", inlining, NULL, {"-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintInlining", "@prog"}, NULL, 0,
     EXACT, PRINT_INLINING INLINING_OUT, EXACT, ""},
    {"print_inlining_none_when_off", inlining, NULL, {"-XX:-Inline", "-XX:+PrintInlining", "@prog"}, NULL, 0, EXACT,
     INLINING_OUT, EXACT, ""},
    {"not_forwarders_run_themselves", not_forwarders, NULL, {"@prog"}, NULL, 246, EXACT, "", EXACT, ""},
    {"print_inlining_forwarder", forwarding, NULL, {"-XX:+UnlockDiagnosticVMOptions", "-XX:+PrintInlining", "@prog"},
     NULL, 7, EXACT, PRINT_FORWARDING, EXACT, ""},
    {"print_inlining_forwarder_inline_off", forwarding, NULL, {"-XX:-Inline", "-XX:+PrintInlining", "@prog"}, NULL, 7,
     EXACT, PRINT_FORWARDING, EXACT, ""},
    {"print_inlining_forwarder_xint", forwarding, NULL, {"-Xint", "-XX:+PrintInlining", "@prog"}, NULL, 7, EXACT,
     PRINT_FORWARDING, EXACT, ""},
    {"arrays_natives", arrays_natives, NULL, {"@prog"}, NULL, 0, EXACT,
     "100101\n00ffffff0000\n-2\n-2\n0\n0\n1250999896491\n1250999896491\n", EXACT, ""},
    {"sys_exit_from_callee", exit_deep, NULL, {"@prog"}, NULL, 77, EXACT, "", EXACT, ""},
    /* ---- program arguments ---- */
    {"args_none", echo_args, NULL, {"@prog"}, NULL, 0, EXACT, "0\n", EXACT, ""},
    {"args_passed_verbatim", echo_args, NULL, {"@prog", "one", "two words", "", "-Xmx1m", "-version"}, NULL, 0,
     EXACT, "5\none\ntwo words\n\n-Xmx1m\n-version\n", EXACT, ""},
    {"args_after_options", echo_args, NULL, {"-Xint", "-Xmx8m", "-Xss64k", "@prog", "x"}, NULL, 0, EXACT, "1\nx\n",
     EXACT, ""},
    /* ---- the example ---- */
    {"hello_example", NULL, NULL, {"@src:examples/hello.mva"}, NULL, 0, EXACT,
     "Hello, world!\n0 1 1 2 3 5 8 13 21 34 \n", EXACT, ""},
    {"hello_example_with_name", NULL, NULL, {"@src:examples/hello.mva", "minivm"}, NULL, 0, EXACT,
     "Hello, minivm!\n0 1 1 2 3 5 8 13 21 34 \n", EXACT, ""},
    /* ---- files and standard input ---- */
    {"cat_file", cat, "first line\nsecond line, longer than the buffer\n\x01\xff binary\n", {"@prog", "@data"}, NULL,
     0, EXACT, "first line\nsecond line, longer than the buffer\n\x01\xff binary\n", EXACT, ""},
    {"cat_empty_file", cat, "", {"@prog", "@data"}, NULL, 0, EXACT, "", EXACT, ""},
    {"cat_stdin", cat, NULL, {"@prog"}, "from standard input\nline 2\n", 0, EXACT, "from standard input\nline 2\n",
     EXACT, ""},
    {"cat_missing_file", cat, NULL, {"@prog", "/nonexistent/minivm/file"}, NULL, 2, EXACT, "", EXACT,
     "No such file or directory\n"},
    {"open_missing_enoent", open_missing, NULL, {"@prog"}, NULL, 0, EXACT,
     "-2\nNo such file or directory\nNo such file or directory\nUnknown error\n-22\n", EXACT, ""},
    /* ---- programs that cannot run ---- */
    {"missing_program_file", NULL, NULL, {"/nonexistent/minivm/prog.mva"}, NULL, 1, EXACT, "", EXACT,
     "cannot open program file '/nonexistent/minivm/prog.mva': No such file or directory\n"},
    {"program_file_is_directory", NULL, NULL, {"/"}, NULL, 1, EXACT, "", EXACT,
     "cannot open program file '/': Is a directory\n"},
    {"load_error_file_line_message", bad_mnemonic, NULL, {"@prog"}, NULL, 1, EXACT, "", EXACT,
     "@prog:4: unknown mnemonic 'frobnicate'\n"},
    {"verify_error_file_line", bad_types, NULL, {"@prog"}, NULL, 1, EXACT, "", PREFIX, "@prog:6: "},
    {"no_main_method", no_main, NULL, {"@prog"}, NULL, 1, EXACT, "", EXACT,
     MAIN_NOT_FOUND "   method main() -> int\nor method main()\n"},
    {"main_with_parameter", main_with_param, NULL, {"@prog"}, NULL, 1, EXACT, "", PREFIX, MAIN_NOT_FOUND},
    {"main_returning_array", main_returns_array, NULL, {"@prog"}, NULL, 1, EXACT, "", PREFIX, MAIN_NOT_FOUND},
    /* ---- informational options ---- */
    {"version_on_stderr", NULL, NULL, {"-version"}, NULL, 0, EXACT, "", EXACT, VERSION},
    {"version_ignores_program", ret42, NULL, {"-version", "@prog"}, NULL, 0, EXACT, "", EXACT, VERSION},
    {"double_dash_version_on_stdout", NULL, NULL, {"--version"}, NULL, 0, EXACT, VERSION, EXACT, ""},
    {"showversion_then_runs", hi_void, NULL, {"-showversion", "@prog"}, NULL, 0, EXACT, "hi\n", EXACT, VERSION},
    {"double_dash_show_version_on_stdout", hi_void, NULL, {"--show-version", "@prog"}, NULL, 0, EXACT,
     VERSION "hi\n", EXACT, ""},
    {"help_on_stderr", NULL, NULL, {"-help"}, NULL, 0, EXACT, "", PREFIX, USAGE_HEAD},
    {"help_h_on_stderr", NULL, NULL, {"-h"}, NULL, 0, EXACT, "", PREFIX, USAGE_HEAD},
    {"help_question_mark", NULL, NULL, {"-?"}, NULL, 0, EXACT, "", CONTAINS, "-Xmx<size>"},
    {"double_dash_help_on_stdout", NULL, NULL, {"--help"}, NULL, 0, PREFIX, USAGE_HEAD, EXACT, ""},
    {"no_arguments_usage_on_stderr", NULL, NULL, {NULL}, NULL, 1, EXACT, "", PREFIX, USAGE_HEAD},
    {"options_only_usage_on_stderr", NULL, NULL, {"-Xmx64m"}, NULL, 1, EXACT, "", PREFIX, USAGE_HEAD},
    /* ---- bad options: HotSpot's texts ---- */
    {"xmx_invalid", ret42, NULL, {"-Xmxabc", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Invalid maximum heap size: -Xmxabc\n" FATAL_TAIL},
    {"xmx_empty", ret42, NULL, {"-Xmx", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Invalid maximum heap size: -Xmx\n" FATAL_TAIL},
    {"xmx_bad_suffix", ret42, NULL, {"-Xmx64q", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Invalid maximum heap size: -Xmx64q\n" FATAL_TAIL},
    {"xmx_overflow", ret42, NULL, {"-Xmx99999999999999999999k", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Invalid maximum heap size: -Xmx99999999999999999999k\n" FATAL_TAIL},
    {"xmx_too_small", ret42, NULL, {"-Xmx1k", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Error occurred during initialization of VM\nToo small maximum heap\n"},
    {"xmx_valid_runs", ret42, NULL, {"-Xmx64m", "@prog"}, NULL, 42, EXACT, "", EXACT, ""},
    {"xmx_upper_case_suffix_runs", ret42, NULL, {"-Xmx1G", "@prog"}, NULL, 42, EXACT, "", EXACT, ""},
    {"xss_invalid", ret42, NULL, {"-Xssfoo", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Invalid thread stack size: -Xssfoo\n" FATAL_TAIL},
    {"xss_too_small", ret42, NULL, {"-Xss1k", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "The Java thread stack size specified is too small. Specify at least 4k\n" FATAL_TAIL},
    {"xss_zero_is_default", ret42, NULL, {"-Xss0", "@prog"}, NULL, 42, EXACT, "", EXACT, ""},
    {"unknown_option", ret42, NULL, {"-foo", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Unrecognized option: -foo\n" FATAL_TAIL},
    {"unknown_option_after_valid", ret42, NULL, {"-Xint", "--bar", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Unrecognized option: --bar\n" FATAL_TAIL},
    {"unknown_xx_flag_plus", ret42, NULL, {"-XX:+Foo", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'Foo'\n" FATAL_TAIL},
    {"unknown_xx_flag_minus", ret42, NULL, {"-XX:-Foo", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'Foo'\n" FATAL_TAIL},
    {"unknown_xx_flag_value", ret42, NULL, {"-XX:Foo=1", "@prog"}, NULL, 1, EXACT, "", EXACT,
     "Unrecognized VM option 'Foo=1'\n" FATAL_TAIL},
    {"bad_option_before_version", NULL, NULL, {"-version", "-foo"}, NULL, 1, EXACT, "", EXACT,
     "Unrecognized option: -foo\n" FATAL_TAIL},
};

static void run_case(void **state)
{
    const cli_case *c = *state;
    const tu_key files[] = {{"@prog", c->src}, {"@data", c->data}, {NULL, NULL}};
    tu_run_cli(&(tu_cli_run){c->name, files, c->argv, 8, NULL, c->in}, c->status, c->out_mode, c->out, c->err_mode,
               c->err);
}

/* Standard input larger than a pipe buffer goes through whole (tu_run feeds it while draining). */
static void cat_large_stdin(void **state)
{
    (void)state;
    enum { SIZE = 300000 };
    char *in = malloc(SIZE + 1);
    assert_non_null(in);
    for (size_t i = 0; i < SIZE; i++)
        in[i] = (char)('a' + i % 26 + (i % 61 == 60 ? '\n' - 'a' - i % 26 : 0));
    in[SIZE] = '\0';
    const char *path = tu_temp_file("cli-cat-large.mva", cat, strlen(cat));
    char prog[4096];
    snprintf(prog, sizeof prog, "%s", path);
    const char *argv[] = {prog, NULL};
    tu_result r = tu_run(argv, in, 60);
    unlink(prog);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_int_equal(strlen(r.out), SIZE);
    assert_true(strcmp(r.out, in) == 0);
    tu_result_free(&r);
    free(in);
}

int main(void)
{
    tu_group g = {0};
    TU_ADD_TABLE(&g, cases, run_case);
    TU_ADD_TEST(&g, cat_large_stdin);
    return tu_run_group("cli", &g, NULL, NULL);
}
