/*
 * tests/test_verifier.c — malformed programs are rejected with one clear
 * message at the right line (suite 'unit').
 *
 * Two tables, one behaviour per entry:
 *
 *  - text_cases: program text the loader must reject. The loader reports
 *    exactly one error, "<test>:LINE: message"; each case gives the line
 *    and a substring of the message. Errors found by the assembler and by
 *    the verifier (messages "<test>:LINE: T.f: ...") both come this way.
 *
 *  - binary_cases: instruction words the text assembler can never write.
 *    A valid program (BIN_SRC) is loaded once; each case patches one word
 *    of T.f, calls vm_verify_method directly, expects -1 with the message
 *    at the patched instruction's line, then restores the word.
 *
 * Every case is its own cmocka test, named after the behaviour.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"

/* ---- the expected message ------------------------------------------------ */

/* Does err read "<test>:LINE: ..." with msg somewhere after the prefix? */
static void check_message(const char *what, const char *err, unsigned line, const char *msg)
{
    char prefix[32];
    snprintf(prefix, sizeof prefix, "<test>:%u: ", line);
    if (!err) {
        fail_msg("%s: accepted, expected \"%s%s\"", what, prefix, msg);
        return;
    }
    if (strncmp(err, prefix, strlen(prefix)) != 0 || !strstr(err + strlen(prefix), msg))
        fail_msg("%s:\n  expected: %s...%s\n  actual:   %s", what, prefix, msg, err);
}

/* ---- table 1: malformed program text ----------------------------------------- */

typedef struct text_case {
    const char *name;
    const char *src;
    size_t len;       /* bytes of src; 0: strlen (a case with a NUL byte gives it) */
    unsigned line;    /* expected line of the error */
    const char *msg;  /* expected substring of the message */
} text_case;

#define CASE(name, src, line, msg)         {name, src, 0, line, msg}
#define CASE_LEN(name, src, line, msg)     {name, src, sizeof src - 1, line, msg}

/*
 * Most cases put a few lines into the body of
 *     1 module T
 *     2 method f() -> long
 *     3     var x, y: long          ; r0, r1
 *     4     var s: byte[]           ; r2: the method has 3 registers
 *     5     <body, from line 5 on>
 *           ret x
 *     end
 */
#define HDR "module T\nmethod f() -> long\n    var x, y: long\n    var s: byte[]\n"
#define BODY(b) HDR b "    ret x\nend\n"
/* the same with a record P (x: long) and Q (y: long) and a static S: long
 * before the method: the body starts at line 13, p is r3 */
#define RHDR                                                                                   \
    "module T\nrecord P\n    x: long\nend\nrecord Q\n    y: long\nend\nstatic S: long\n" \
    "method f() -> long\n    var x, y: long\n    var s: byte[]\n    var p: P\n"
#define RBODY(b) RHDR b "    ret x\nend\n"
/* a second method g(a: long, b: long) -> long after f */
#define GBODY(b) BODY(b) "method g(a: long, b: long) -> long\n    ret a\nend\n"

/* 16, 240 and 256 register names: a00, a01, ... */
#define V16(p) p "0, " p "1, " p "2, " p "3, " p "4, " p "5, " p "6, " p "7, " \
               p "8, " p "9, " p "a, " p "b, " p "c, " p "d, " p "e, " p "f, "
#define V240                                                                    \
    V16("a0") V16("a1") V16("a2") V16("a3") V16("a4") V16("a5") V16("a6") V16("a7") \
    V16("a8") V16("a9") V16("aa") V16("ab") V16("ac") V16("ad") V16("ae")
#define V256 V240 V16("af")
/* a method with 80 long registers a00..a4f (a40 is r64) */
#define WIDE(b) "module T\nmethod f() -> long\n    var " V16("a0") V16("a1") V16("a2") V16("a3") V16("a4") \
                "z: long\n" b "    ret z\nend\n"

static const text_case text_cases[] = {
    /* ---- lexical errors ---- */
    CASE("unterminated string", BODY("    ldstr s, \"abc\n"), 5, "unterminated string literal"),
    CASE("string ending in a backslash", BODY("    ldstr s, \"abc\\\n"), 5, "unterminated string literal"),
    CASE("unknown escape", BODY("    ldstr s, \"a\\qb\"\n"), 5, "unknown escape sequence in string literal"),
    CASE("short \\x escape", BODY("    ldstr s, \"a\\x4\"\n"), 5, "malformed \\x escape (two hex digits expected)"),
    CASE("hex prefix without digits", "module T\nconst K = 0x\n", 2, "malformed hexadecimal literal"),
    CASE("hex with a bad digit", "module T\nconst K = 0x1g\n", 2, "malformed number"),
    CASE("digits run into letters", "module T\nconst K = 12ab\n", 2, "malformed number"),
    CASE("decimal point", "module T\nconst K = 1.5\n", 2, "malformed number"),
    CASE("decimal above INT64_MAX", "module T\nconst K = 9223372036854775808\n", 2, "integer literal out of range"),
    CASE("decimal below INT64_MIN", "module T\nconst K = -9223372036854775809\n", 2, "integer literal out of range"),
    CASE("hex wider than 64 bits", "module T\nconst K = 0x10000000000000000\n", 2, "integer literal out of range"),
    CASE("huge decimal", "module T\nconst K = 99999999999999999999999\n", 2, "integer literal out of range"),
    CASE("immediate literal out of range", BODY("    ldi x, 1\n    add x, x, 99999999999999999999\n"), 6,
         "integer literal out of range"),
    CASE("double minus", "module T\nconst K = --1\n", 2, "unexpected character '-'"),
    CASE("unexpected character", "module T\nconst K = 5 #\n", 2, "unexpected character '#'"),
    CASE_LEN("NUL byte", "module T\nconst K = 5\0\n", 2, "unexpected byte 0x00"),
    CASE("non-ASCII byte", "module T\nconst K\xc3\xa9 = 5\n", 2, "unexpected byte 0xc3"),
    CASE("name ending in a dot", "module T\nconst K. = 1\n", 2, "malformed name 'K.'"),

    /* ---- module structure ---- */
    CASE("empty program", "", 1, "empty module: expected 'module Name'"),
    CASE("only comments", "; nothing\n\n", 1, "empty module: expected 'module Name'"),
    CASE("missing module line", "method f()\n    ret\nend\n", 1, "a module starts with 'module Name'"),
    CASE("module without a name", "module\n", 1, "expected a module name at end of line"),
    CASE("second module line", "module T\nmodule U\n", 2, "one module per file"),
    CASE("module named like a built-in", "module Sys\n", 1, "module name 'Sys' is taken by a built-in module"),
    CASE("unknown top-level declaration", "module T\nfrobnicate X\n", 2,
         "expected a declaration (import, const, static, record, method, virtual method, abstract method), "
         "got 'frobnicate'"),
    CASE("stray end", "module T\nmethod f()\n    ret\nend\nend\n", 5, "expected a declaration"),
    CASE("missing end at end of file", "module T\nmethod f()\n    ret\n", 2, "method 'f' has no 'end'"),
    CASE("missing end before the next method", "module T\nmethod f()\n    ret\nmethod g()\n    ret\nend\n", 2,
         "method 'f' has no 'end' before line 4"),
    CASE("junk after end", "module T\nmethod f()\n    ret\nend junk\n", 4, "unexpected 'junk' after 'end'"),
    CASE("record without end", "module T\nrecord P\n    x: long\n", 2, "record 'P' has no 'end'"),
    CASE("array literal without }", "module T\nstatic S: long[] = {1, 2\n", 2, "array literal of 'S' has no '}'"),

    /* ---- imports and module references ---- */
    CASE("import of an unknown module", "module T\nimport Foo\n", 2, "cannot find module 'Foo'"),
    CASE("module imports itself", "module T\nimport T\n", 2, "module 'T' imports itself"),
    CASE("call into a module not imported", "module T\nmethod f()\n    call Foo.g()\n    ret\nend\n", 3,
         "unknown module 'Foo' in 'Foo.g' (not imported)"),
    CASE("static of a module not imported", BODY("    getstatic x, Foo.S\n"), 5,
         "unknown module 'Foo' in 'Foo.S' (not imported)"),
    CASE("type of a module not imported", "module T\nmethod f(a: Foo.P)\n    ret\nend\n", 2,
         "unknown module 'Foo' in 'Foo.P' (not imported)"),

    /* ---- duplicate definitions ---- */
    CASE("duplicate method", "module T\nmethod f()\n    ret\nend\nmethod f()\n    ret\nend\n", 5,
         "duplicate definition of 'f' (first defined at line 2)"),
    CASE("duplicate record", "module T\nrecord P\n    x: long\nend\nrecord P\n    y: long\nend\n", 5,
         "duplicate definition of 'P' (first defined at line 2)"),
    CASE("duplicate field", "module T\nrecord P\n    x: long\n    x: int\nend\n", 4,
         "duplicate field 'x' (first defined at line 3)"),
    CASE("duplicate static", "module T\nstatic S: long\nstatic S: int\n", 3,
         "duplicate definition of 'S' (first defined at line 2)"),
    CASE("duplicate constant", "module T\nconst K = 1\nconst K = 2\n", 3,
         "duplicate definition of 'K' (first defined at line 2)"),
    CASE("method named like a constant", "module T\nconst K = 1\nmethod K()\n    ret\nend\n", 3,
         "duplicate definition of 'K' (first defined at line 2)"),
    CASE("duplicate register", BODY("    var x: int\n"), 5, "duplicate register 'x'"),
    CASE("duplicate register in one var", BODY("    var z, z: long\n"), 5, "duplicate register 'z'"),
    CASE("register named like a parameter", "module T\nmethod f(a: long)\n    var a: long\n    ret\nend\n", 3,
         "duplicate register 'a'"),
    CASE("duplicate parameter", "module T\nmethod f(a: long, a: int)\n    ret\nend\n", 2,
         "duplicate parameter 'a'"),
    CASE("duplicate import", "module T\nimport Sys\nimport Sys\n", 3, "duplicate import of 'Sys'"),

    /* ---- attributes ---- */
    CASE("unknown attribute", "module T\n@Foo\nmethod f()\n    ret\nend\n", 2, "unknown attribute '@Foo'"),
    CASE("attribute without a name", "module T\n@\nmethod f()\n    ret\nend\n", 2,
         "expected an attribute name at end of line"),
    CASE("attribute before a constant", "module T\n@IntrinsicCandidate\nconst K = 1\n", 2,
         "attribute '@IntrinsicCandidate' must precede a method"),
    CASE("attribute at end of file", "module T\n@IntrinsicCandidate\n", 2,
         "attribute '@IntrinsicCandidate' must precede a method"),
    CASE("attribute on a native method", "module T\n@IntrinsicCandidate\nnative method f()\n", 2,
         "attribute '@IntrinsicCandidate' cannot be applied to a native method"),
    CASE("duplicated attribute", "module T\n@IntrinsicCandidate\n@IntrinsicCandidate\nmethod f()\n    ret\nend\n", 3,
         "duplicate attribute '@IntrinsicCandidate'"),
    CASE("attribute with arguments", "module T\n@IntrinsicCandidate(1)\nmethod f()\n    ret\nend\n", 2,
         "attribute '@IntrinsicCandidate' takes no arguments"),
    CASE("attribute on the method's line", "module T\n@IntrinsicCandidate method f()\n    ret\nend\n", 2,
         "unexpected 'method' after '@IntrinsicCandidate'"),

    /* ---- natives ---- */
    CASE("native method with no implementation", "module T\nnative method f()\n", 2,
         "no native implementation of 'T.f'"),
    CASE("native without method", "module T\nnative f()\n", 2, "expected 'native method'"),
    /* only the built-in Arrays has natives: a program's own module of that name has none */
    CASE("native in a program's own Arrays", "module Arrays\nnative method fill(a: byte[], f: int, t: int, v: int)\n",
         2, "no native implementation of 'Arrays.fill'"),

    /* ---- types ---- */
    CASE("unknown parameter type", "module T\nmethod f(a: Foo)\n    ret\nend\n", 2, "unknown record 'Foo'"),
    CASE("unknown return type", "module T\nmethod f() -> Foo\n    ret\nend\n", 2, "unknown record 'Foo'"),
    CASE("unknown register type", BODY("    var z: Foo\n"), 5, "unknown record 'Foo'"),
    CASE("unknown field type", "module T\nrecord P\n    x: Foo\nend\n", 3, "unknown record 'Foo'"),
    CASE("unknown static type", "module T\nstatic S: Foo\n", 2, "unknown record 'Foo'"),
    CASE("type is a method", "module T\nmethod f(a: f)\n    ret\nend\n", 2, "'f' is a method, not a record"),
    CASE("Object parameter", "module T\nmethod f(a: Object)\n    ret\nend\n", 2,
         "type 'Object' is allowed only in native method signatures"),
    CASE("Object register", BODY("    var o: Object\n"), 5,
         "type 'Object' is allowed only in native method signatures"),
    CASE("Object field", "module T\nrecord P\n    o: Object\nend\n", 3,
         "type 'Object' is allowed only in native method signatures"),
    CASE("Object native return", "module T\nnative method arraycopy() -> Object\n", 2,
         "type 'Object' is allowed only in native method signatures"),
    CASE("byte register", BODY("    var b: byte\n"), 5, "type 'byte' is not allowed here"),
    CASE("void register", BODY("    var v: void\n"), 5, "type 'void' is not allowed here"),
    CASE("void parameter", "module T\nmethod f(v: void)\n    ret\nend\n", 2, "type 'void' is not allowed here"),
    CASE("void array return", "module T\nmethod f() -> void[]\n    ret\nend\n", 2,
         "type 'void[]' is not allowed here"),
    CASE("array of records", RBODY("    var ps: P[]\n"), 13, "arrays of records are not supported ('P[]')"),

    /* ---- instruction syntax ---- */
    CASE("unknown mnemonic", BODY("    frob x\n"), 5, "unknown mnemonic 'frob'"),
    CASE("unknown mnemonic after a label", BODY("here: frob x\n"), 5, "unknown mnemonic 'frob'"),
    CASE("too few operands", BODY("    add x, x\n"), 5, "'add' takes 3 operands, got 2"),
    CASE("operand for nop", BODY("    nop x\n"), 5, "'nop' takes 0 operands, got 1"),
    CASE("two operands for ret", BODY("    ret x, y\n"), 5, "'ret' takes 0 or 1 operands, got 2"),
    CASE("far too many operands", BODY("    add x, x, y, y, y, y, y, y, y\n"), 5, "too many operands for 'add'"),
    CASE("trailing comma", BODY("    add x, x, y,\n"), 5, "expected an operand at end of line"),
    CASE("missing comma", BODY("    add x, x y\n"), 5, "expected ',' between operands, got 'y'"),
    CASE("unknown register name", BODY("    add x, x, foo\n"), 5, "operand 3 of 'add': 'foo' is not a register"),
    CASE("string for a register", BODY("    neg x, \"a\"\n"), 5, "operand 2 of 'neg': '\"a\"' is not a register"),
    CASE("register for a string", BODY("    ldstr s, x\n"), 5, "operand 2 of 'ldstr': expected a string literal"),
    CASE("register for an immediate", BODY("    ldi x, y\n"), 5, "operand 2 of 'ldi': expected an immediate, got 'y'"),
    CASE("bad register name in var", BODY("    var 5: long\n"), 5, "expected a register name, got '5'"),

    /* ---- operand types (found by the verifier) ---- */
    CASE("add with a byte[] register", BODY("    add x, x, s\n"), 5,
         "T.f: add: operand C is s of type byte[], expected int or long"),
    CASE("ldstr into a long", BODY("    ldstr x, \"a\"\n"), 5, "T.f: ldstr: operand A is x of type long, expected byte[]"),
    CASE("ldi into a byte[]", BODY("    ldi s, 5\n"), 5, "T.f: ldi: operand A is s of type byte[], expected int or long"),
    CASE("ldnull into a long", BODY("    ldnull x\n"), 5, "T.f: ldnull: operand A is x of type long, expected a reference"),
    CASE("compare a byte[] with a number", BODY("    beq s, 0, l\nl:\n"), 5,
         "T.f: beq: operand A is s of type byte[], expected int or long"),
    CASE("alen of a long", BODY("    alen x, y\n"), 5, "T.f: alen: operand B is y of type long, expected an array"),

    /* ---- immediates ---- */
    CASE("add immediate out of range", BODY("    add x, x, 200\n"), 5,
         "operand 3 of 'add': immediate 200 out of range -128..127"),
    CASE("negative add immediate out of range", BODY("    add x, x, -129\n"), 5,
         "operand 3 of 'add': immediate -129 out of range -128..127"),
    CASE("and immediate out of range", BODY("    and x, x, 256\n"), 5, "immediate 256 out of range 0..255"),
    CASE("shift immediate out of range", BODY("    shl x, x, 64\n"), 5,
         "operand 3 of 'shl': immediate 64 out of range 0..63"),
    CASE("32-bit shift immediate out of range", BODY("    shlw x, x, 32\n"), 5,
         "operand 3 of 'shlw': immediate 32 out of range 0..31"),
    CASE("xrol immediate out of range", BODY("    xrol x, x, y, 64\n"), 5,
         "operand 4 of 'xrol': immediate 64 out of range 0..63"),
    CASE("branch immediate out of range", BODY("    beq x, 200, l\nl:\n"), 5,
         "operand 2 of 'beq': immediate 200 out of range -128..127"),
    CASE("named constant out of range", "module T\nconst K = 1000\nmethod f() -> long\n    var x: long\n"
                                        "    add x, x, K\n    ret x\nend\n",
         5, "operand 3 of 'add': immediate 1000 out of range -128..127"),

    /* ---- register ranges ---- */
    CASE("r300", BODY("    add x, x, r300\n"), 5, "operand 3 of 'add': register r300 out of range (method has 3 registers)"),
    CASE("r5 with 3 registers", BODY("    add r5, x, y\n"), 5,
         "operand 1 of 'add': register r5 out of range (method has 3 registers)"),
    CASE("r3 with 3 registers in ret", BODY("    ret r3\n"), 5,
         "operand 1 of 'ret': register r3 out of range (method has 3 registers)"),
    CASE("r3 in a branch", BODY("    beq r3, 0, l\nl:\n"), 5, "operand 1 of 'beq': register r3 out of range"),
    CASE("too many registers", "module T\nmethod f() -> long\n    var " V256 "extra: long\n    ret extra\nend\n", 3,
         "too many registers (at most 256)"),
    CASE("too many registers over two vars", "module T\nmethod f() -> long\n    var " V240 "z: long\n    var " V16("b0")
                                             "w: long\n    ret z\nend\n",
         4, "too many registers (at most 256)"),
    CASE("register named rN that is not rN", BODY("    var r0: long\n"), 5,
         "'r0' cannot name register r3: rN always means register N"),
    CASE("parameter named rN that is not rN", "module T\nmethod f(r1: long)\n    ret\nend\n", 2,
         "'r1' cannot name register r0: rN always means register N"),
    CASE("xor3 with r64", WIDE("    xor3 a00, a01, a02, a40\n"), 4,
         "operand 4 of 'xor3': register a40 is r64; this form reaches r0..r63 only"),
    CASE("bcax into r64", WIDE("    bcax a40, a01, a02, a03\n"), 4,
         "operand 1 of 'bcax': register a40 is r64; this form reaches r0..r63 only"),
    CASE("xrol with r79", WIDE("    xrol a00, a01, a4f, 3\n"), 4,
         "operand 3 of 'xrol': register a4f is r79; this form reaches r0..r63 only"),
    CASE("xor3 with r64 by number", WIDE("    xor3 a00, a01, r64, a02\n"), 4,
         "operand 3 of 'xor3': register r64 is r64; this form reaches r0..r63 only"),

    /* ---- labels and control flow ---- */
    CASE("jump to an undefined label", BODY("    jmp nowhere\n"), 5, "undefined label 'nowhere'"),
    CASE("branch to an undefined label", BODY("    blt x, y, nowhere\n"), 5, "undefined label 'nowhere'"),
    CASE("jump to a label at the end", HDR "    jmp out\n    ret x\nout:\nend\n", 5,
         "label 'out' is at the end of the method: no instruction follows it"),
    CASE("branch to a label at the end", HDR "    bge x, y, out\n    ret x\nout:\nend\n", 5,
         "label 'out' is at the end of the method"),
    CASE("duplicate label", BODY("l:\n    ldi x, 1\nl:\n"), 7, "duplicate label 'l'"),
    CASE("qualified label", BODY("a.b:\n"), 5, "malformed label 'a.b'"),
    CASE("number for a label", BODY("    blt x, 5, 7\n"), 5, "operand 3 of 'blt': expected a label, got '7'"),
    CASE("falls off the end", "module T\nmethod f() -> long\n    var x: long\n    ldi x, 1\nend\n", 4,
         "T.f: control falls off the end of the method (last instruction is 'ldi')"),
    CASE("void method falls off the end", "module T\nmethod f()\n    var x: long\n    ldi x, 1\nend\n", 4,
         "control falls off the end of the method (last instruction is 'ldi')"),
    CASE("empty method", "module T\nmethod f()\nend\n", 2, "T.f: method has no instructions"),
    CASE("method with only a var", "module T\nmethod f()\n    var x: long\nend\n", 2, "method has no instructions"),
    CASE("method with only a label", "module T\nmethod f()\nl:\nend\n", 2, "method has no instructions"),
    CASE("conditional as the last instruction", "module T\nmethod f()\n    var x: long\nl:\n    beq x, 0, l\nend\n", 5,
         "T.f: control falls off the end of the method (when 'beq' does not branch)"),

    /* ---- calls ---- */
    CASE("call to an unknown method", BODY("    call T.nope()\n"), 5, "unknown method 'T.nope'"),
    CASE("call to an unknown unqualified method", BODY("    call nope()\n"), 5, "unknown method 'nope'"),
    CASE("call to an unknown Sys method", BODY("    call Sys.nope()\n"), 5, "unknown method 'Sys.nope'"),
    CASE("call of a constant", "module T\nconst K = 1\nmethod f()\n    call T.K()\n    ret\nend\n", 4,
         "'T.K' is a constant, not a method"),
    CASE("call with too many arguments", BODY("    call Sys.print(s, s)\n"), 5,
         "call Sys.print: takes 1 argument, got 2"),
    CASE("call with no arguments", BODY("    call Sys.print()\n"), 5, "call Sys.print: takes 1 argument, got 0"),
    CASE("call with too few arguments", GBODY("    call x = T.g(y)\n"), 5, "call T.g: takes 2 arguments, got 1"),
    CASE("call with a wrong argument type", BODY("    call Sys.print(x)\n"), 5,
         "T.f: call Sys.print: argument 1 (x) is long, expected byte[]"),
    CASE("call with a result and a wrong argument type", BODY("    call y = Sys.errorString(s)\n"), 5,
         "T.f: call Sys.errorString: argument 1 (s) is byte[], expected int"),
    CASE("call whose result type is wrong", BODY("    call s = Sys.nanoTime()\n"), 5,
         "T.f: call Sys.nanoTime: result long does not fit s of type byte[]"),
    CASE("call arguments not after the result", GBODY("    call x = T.g(s, y)\n"), 5,
         "call T.g: argument 1 must be register r1 (the arguments follow the result register x, r0), not s (r2)"),
    CASE("call argument is the result register", GBODY("    call x = T.g(x, y)\n"), 5,
         "call T.g: argument 1 must be register r1 (the arguments follow the result register x, r0), not x (r0)"),
    CASE("void call arguments not consecutive", "module T\nmethod f()\n    var a, x, b: long\n    call T.w(a, b)\n"
                                                "    ret\nend\nmethod w(a: long, b: long)\n    ret\nend\n",
         4, "call T.w: arguments must be consecutive registers: argument 2 must be r1, not b (r2)"),
    CASE("void method called with a result", BODY("    call x = Sys.print(s)\n"), 5,
         "call Sys.print: the method returns void, so there is no result for 'x'"),
    CASE("non-void method called without a result", BODY("    call Sys.nanoTime()\n"), 5,
         "call Sys.nanoTime: the method returns long: write 'call r = Sys.nanoTime(...)'"),
    CASE("call argument not a register", BODY("    call Sys.printLong(5)\n"), 5,
         "call Sys.printLong: argument 1: '5' is not a register"),
    CASE("call argument out of range", BODY("    call Sys.printLong(r3)\n"), 5,
         "call Sys.printLong: register r3 out of range (method has 3 registers)"),
    CASE("call result out of range", BODY("    call r300 = Sys.nanoTime()\n"), 5,
         "call Sys.nanoTime: result register r300 out of range (method has 3 registers)"),
    CASE("call result not a register", BODY("    call 5 = Sys.nanoTime()\n"), 5,
         "expected a method name or a result register, got '5'"),
    CASE("call without parentheses", BODY("    call x = Sys.nanoTime\n"), 5, "expected '(' at end of line"),

    /* ---- returns ---- */
    CASE("ret with a wrong type", HDR "    ret s\nend\n", 5, "T.f: ret: T.f returns long, register s is byte[]"),
    CASE("ret without a value in a non-void method", HDR "    ret\nend\n", 5,
         "T.f: ret: T.f returns long: 'ret' needs a register"),
    CASE("ret with a value in a void method", "module T\nmethod f()\n    var x: long\n    ret x\nend\n", 4,
         "T.f: ret: T.f returns void, so 'ret' takes no operand"),

    /* ---- moves, records, statics ---- */
    CASE("mov byte[] to long", BODY("    mov x, s\n"), 5, "T.f: mov: cannot move s (byte[]) to x (long)"),
    CASE("mov long to byte[]", BODY("    mov s, x\n"), 5, "T.f: mov: cannot move x (long) to s (byte[])"),
    CASE("mov between array types", BODY("    var t: long[]\n    mov s, t\n"), 6,
         "T.f: mov: cannot move t (long[]) to s (byte[])"),
    CASE("mov between record types", RBODY("    var q: Q\n    mov p, q\n"), 14, "T.f: mov: cannot move q (T.Q) to p (T.P)"),
    CASE("getfield of an unknown field", RBODY("    getfield x, p, y\n"), 13,
         "operand 3 of 'getfield': record T.P has no field 'y'"),
    CASE("putfield of an unknown field", RBODY("    putfield p, y, x\n"), 13,
         "operand 2 of 'putfield': record T.P has no field 'y'"),
    CASE("getfield into a wrong type", RBODY("    getfield s, p, x\n"), 13,
         "T.f: getfield: field T.P.x is long, register s is byte[]"),
    CASE("putfield of a wrong type", RBODY("    putfield p, x, s\n"), 13,
         "T.f: putfield: field T.P.x is long, register s is byte[]"),
    CASE("getfield of a non-record", RBODY("    getfield x, y, x\n"), 13,
         "T.f: getfield: operand B is y of type long, expected a record"),
    CASE("putstatic type mismatch", RBODY("    putstatic s, S\n"), 13,
         "T.f: putstatic: static T.S is long, register s is byte[]"),
    CASE("getstatic type mismatch", RBODY("    getstatic s, S\n"), 13,
         "T.f: getstatic: static T.S is long, register s is byte[]"),
    CASE("unknown static", BODY("    putstatic x, S\n"), 5, "unknown static 'S'"),
    CASE("static that is a method", BODY("    getstatic x, f\n"), 5, "'f' is a method, not a static"),
    CASE("new into a wrong record type", RBODY("    new p, Q\n"), 13, "T.f: new: register p is T.P, not T.Q"),
    CASE("new into a long", RBODY("    new x, P\n"), 13, "T.f: new: operand A is x of type long, expected a record"),
    CASE("new of an unknown record", BODY("    new x, R\n"), 5, "unknown record 'R'"),

    /* ---- statics and constants ---- */
    CASE("byte[] element out of range", "module T\nstatic S: byte[] = {1, 256}\n", 2,
         "element 1 (256) does not fit in a byte"),
    CASE("int[] element out of range", "module T\nstatic S: int[] = {0x1ffffffff}\n", 2,
         "element 0 (8589934591) does not fit in an int"),
    CASE("string into a long static", "module T\nstatic S: long = \"abc\"\n", 2,
         "a string initialises a byte[] static only"),
    CASE("array literal into a long static", "module T\nstatic S: long = {1}\n", 2,
         "an array literal initialises an array static only"),
    CASE("integer into an array static", "module T\nstatic S: byte[] = 5\n", 2,
         "static 'S' of type byte[] cannot have an integer initial value"),
    CASE("array literal with an empty element", "module T\nstatic S: long[] = {1,, 2}\n", 2,
         "expected a value before ','"),
    CASE("array literal without commas", "module T\nstatic S: long[] = {1 2}\n", 2, "expected ',' between values"),
    CASE("unknown constant", "module T\nconst K = J\n", 2, "unknown constant 'J'"),
    CASE("qualified constant name", "module T\nconst T.K = 1\n", 2, "a constant name cannot be qualified: 'T.K'"),
    CASE("constant without =", "module T\nconst K 5\n", 2, "expected '=', got '5'"),

    /* ---- records that extend records, virtual and abstract methods ---- */
    CASE("extends an unknown record", "module T\nrecord Q extends P\n    y: long\nend\n", 2, "unknown record 'P'"),
    CASE("extends a record declared below", "module T\nrecord Q extends P\nend\nrecord P\nend\n", 2,
         "unknown record 'P'"),
    CASE("extends something else", "module T\nconst P = 1\nrecord Q extends P\nend\n", 3,
         "'P' is a constant, not a record"),
    CASE("junk instead of extends", "module T\nrecord P\nend\nrecord Q implements P\nend\n", 4,
         "expected 'extends' or end of line, got 'implements'"),
    CASE("junk after the super record", "module T\nrecord P\nend\nrecord Q extends P P\nend\n", 4,
         "unexpected 'P'"),
    CASE("a field hides an inherited one", "module T\nrecord P\n    x: long\nend\nrecord Q extends P\n    x: int\nend\n",
         6, "field 'x' is T.P's already (a record cannot hide an inherited field)"),
    CASE("an extends chain too long",
         "module T\nrecord R0\nend\nrecord R1 extends R0\nend\nrecord R2 extends R1\nend\nrecord R3 extends R2\nend\n"
         "record R4 extends R3\nend\nrecord R5 extends R4\nend\nrecord R6 extends R5\nend\nrecord R7 extends R6\nend\n"
         "record R8 extends R7\nend\n",
         18, "record 'R8' extends a chain of 8 records (at most 7)"),
    CASE("a virtual method without a record receiver", "module T\nvirtual method f(x: long)\n    ret\nend\n", 2,
         "virtual method T.f must take a record declared in module T as its first parameter"),
    CASE("a virtual method on another module's record",
         "module T\nimport DigestBase\nvirtual method f(d: DigestBase.Digest)\n    ret\nend\n", 3,
         "virtual method T.f must take a record declared in module T as its first parameter"),
    CASE("an override with another signature",
         "module T\nimport DigestBase\nrecord X extends DigestBase.Digest\nend\n"
         "method implCompress(this: X, b: byte[])\n    ret\nend\n",
         5, "T.implCompress overrides DigestBase.implCompress but their signatures differ (after the receiver)"),
    CASE("an override with another result",
         "module T\nimport DigestBase\nrecord X extends DigestBase.Digest\nend\n"
         "method engineDigest(this: X) -> long[]\n    var r: long[]\n    ret r\nend\n",
         5, "T.engineDigest overrides DigestBase.engineDigest but their signatures differ"),
    CASE("callvirt of a plain method", GBODY("    callvirt x = T.g(x, y)\n"), 5,
         "callvirt T.g: not a virtual method (use call)"),
    CASE("call of an abstract method",
         "module T\nimport DigestBase\nmethod f(d: DigestBase.Digest)\n    call DigestBase.implReset(d)\n    ret\nend\n",
         4, "call DigestBase.implReset: the method is abstract: it has no body to call (use callvirt)"),
    CASE("callvirt with a receiver of another record",
         "module T\nimport DigestBase\nrecord P\nend\nmethod f(p: P)\n    callvirt DigestBase.implReset(p)\n    ret\nend\n",
         6, "callvirt DigestBase.implReset: argument 1 (p) is T.P, expected DigestBase.Digest"),
    CASE("an abstract method with an attribute", "module T\nrecord P\nend\n@IntrinsicCandidate\nabstract method f(p: P)\n",
         4, "attribute '@IntrinsicCandidate' cannot be applied to an abstract method"),
    /* reserved words: such a declaration could never be named back (a record 'int' is the type int) */
    CASE("a record named int", "module T\nrecord int\nend\n", 2, "'int' is a reserved word: it cannot name a record"),
    CASE("a record named long", "module T\nrecord long\nend\n", 2, "'long' is a reserved word: it cannot name a record"),
    CASE("a record named end", "module T\nrecord end\nend\n", 2, "'end' is a reserved word: it cannot name a record"),
    CASE("a record named Object", "module T\nrecord Object\nend\n", 2,
         "'Object' is a reserved word: it cannot name a record"),
    CASE("a static named byte", "module T\nstatic byte: long\n", 2, "'byte' is a reserved word: it cannot name a static"),
    CASE("a constant named var", "module T\nconst var = 1\n", 2, "'var' is a reserved word: it cannot name a constant"),
    CASE("a method named void", "module T\nmethod void()\n    ret\nend\n", 2,
         "'void' is a reserved word: it cannot name a method"),
    CASE("a method named extends", "module T\nmethod extends()\n    ret\nend\n", 2,
         "'extends' is a reserved word: it cannot name a method"),
    CASE("a module named record", "module record\n", 1, "'record' is a reserved word: it cannot name a module"),
    CASE("an import of a reserved word", "module T\nimport int\n", 2,
         "'int' is a reserved word: it cannot name a module"),
    CASE("an abstract method with a body", "module T\nrecord P\nend\nabstract method f(p: P)\n    ret\nend\n", 4,
         "abstract method 'f' has no body, but line 5 ('ret') follows it as one (an abstract method is its "
         "declaration line alone, without 'end')"),
    CASE("an abstract method with a body of var lines",
         "module T\nrecord P\nend\nabstract method f(p: P)\n\n    var x: long\n    ret\nend\n", 4,
         "abstract method 'f' has no body, but line 6 ('var') follows it as one"),
    CASE("callvirt with too few arguments",
         "module T\nimport DigestBase\nmethod f(d: DigestBase.Digest)\n    callvirt DigestBase.implCompress(d)\n"
         "    ret\nend\n", 4, "callvirt DigestBase.implCompress: takes 3 arguments, got 1"),
    CASE("callvirt with a result of a void method",
         "module T\nimport DigestBase\nmethod f(d: DigestBase.Digest)\n    var x: long\n"
         "    callvirt x = DigestBase.implReset(d)\n    ret\nend\n", 5,
         "callvirt DigestBase.implReset: the method returns void, so there is no result for 'x'"),
    CASE("callvirt without the result of a method that has one",
         "module T\nimport DigestBase\nmethod f(d: DigestBase.Digest)\n    callvirt DigestBase.engineDigest(d)\n"
         "    ret\nend\n", 4,
         "callvirt DigestBase.engineDigest: the method returns byte[]: write 'callvirt r = DigestBase.engineDigest(...)'"),
    CASE("virtual without method", "module T\nvirtual f()\n", 2, "expected 'virtual method'"),
    CASE("checkcast of a non-record", RBODY("    checkcast p, s\n"), 13, "operand B is s of type byte[], expected a record"),
    CASE("a record up-cast the wrong way",
         "module T\nimport DigestBase\nimport SHA2\nmethod f(d: DigestBase.Digest)\n    var s: SHA2.SHA2\n"
         "    mov s, d\n    ret\nend\n",
         6, "mov: cannot move d (DigestBase.Digest) to s (SHA2.SHA2)"),
};

static void run_text_case(void **state)
{
    const text_case *tc = *state;
    char err[1024];
    size_t len = tc->len ? tc->len : strlen(tc->src);
    vm_program *p = vm_load_text("<test>", tc->src, len, err, sizeof err);
    if (p) {
        vm_program_free(p);
        check_message(tc->name, NULL, tc->line, tc->msg);
        return;
    }
    /* NUL-free cases also go through the shared helper */
    if (!tc->len) {
        const char *e = tu_load_error(tc->src);
        if (!e || strcmp(e, err) != 0)
            fail_msg("%s: tu_load_error gave \"%s\", vm_load_text \"%s\"", tc->name, e ? e : "(accepted)", err);
    }
    check_message(tc->name, err, tc->line, tc->msg);
}

/* ---- table 2: instruction words only a binary could hold ---------------------- */

/*
 * T.f's registers: a r0, x r1, y r2, s r3 (byte[]), p r4 (T.P); 5 in all.
 * The code of T.f, with each instruction's line:
 *   24 LDK x          25 LDSTR s         26 GETSTATIC y, S   27 NEW p, P
 *   28 MOV y, a       29 CALL x = T.g(y) 30 CALLV T.v(s)     31 CALLV Sys.gc()
 *   32 ADD x, x, y    33 SHLI x, x, 3    34 XOR3 x, x, y, a  35 LDNULL s
 *   36 GETF x, p, 0   37 PUTF p, 0, x    38 LT x, y + JMP    39 RET x
 */
static const char BIN_SRC[] =
    "module T\n"                                   /* 1 */
    "static S: long\n"                             /* 2 */
    "record P\n"                                   /* 3 */
    "    x: long\n"                                /* 4 */
    "end\n"                                        /* 5 */
    "record Q\n"                                   /* 6 */
    "    y: long\n"                                /* 7 */
    "end\n"                                        /* 8 */
    "method g(a: long) -> long\n"                  /* 9 */
    "    ret a\n"                                  /* 10 */
    "end\n"                                        /* 11 */
    "method v(s: byte[])\n"                        /* 12 */
    "    ret\n"                                    /* 13 */
    "end\n"                                        /* 14 */
    "method w(a: long, b: long)\n"                 /* 15 */
    "    ret\n"                                    /* 16 */
    "end\n"                                        /* 17 */
    "; the method the cases patch\n"               /* 18 */
    "method f(a: long) -> long\n"                  /* 19 */
    "    var x, y: long\n"                         /* 20 */
    "    var s: byte[]\n"                          /* 21 */
    "    var p: P\n"                               /* 22 */
    "loop:\n"                                      /* 23 */
    "    ldi x, 0x123456789\n"                     /* 24 */
    "    ldstr s, \"hi\"\n"                        /* 25 */
    "    getstatic y, S\n"                         /* 26 */
    "    new p, P\n"                               /* 27 */
    "    mov y, a\n"                               /* 28 */
    "    call x = T.g(y)\n"                        /* 29 */
    "    call T.v(s)\n"                            /* 30 */
    "    call Sys.gc()\n"                          /* 31 */
    "    add x, x, y\n"                            /* 32 */
    "    shl x, x, 3\n"                            /* 33 */
    "    xor3 x, x, y, a\n"                        /* 34 */
    "    ldnull s\n"                               /* 35 */
    "    getfield x, p, x\n"                       /* 36 */
    "    putfield p, x, x\n"                       /* 37 */
    "    blt x, y, loop\n"                         /* 38 */
    "    ret x\n"                                  /* 39 */
    "end\n";                                       /* 40 */

typedef struct binary_case {
    const char *name;
    int at;           /* patch the first instruction with this opcode ... */
    int skip;         /* ... or the one this many words after it */
    uint32_t word;    /* the new word */
    const char *meth; /* when set, this method's index goes into Bx */
    unsigned line;    /* expected line: the patched instruction's (or its neighbour's) */
    const char *msg;
} binary_case;

/* registers of T.f */
enum { RA, RX, RY, RS, RP, NREGS };

static const binary_case binary_cases[] = {
    /* opcodes and register fields */
    {"unknown opcode", OP_ADD, 0, 0xffu, NULL, 32, "T.f: unknown opcode 0xff"},
    {"first opcode past the list", OP_ADD, 0, VM_NOPCODES, NULL, 32, "unknown opcode"},
    {"register A out of range", OP_ADD, 0, MK_ABC(OP_ADD, NREGS, RX, RY), NULL, 32,
     "T.f: add: register r5 out of range (method has 5 registers)"},
    {"register B out of range", OP_ADD, 0, MK_ABC(OP_ADD, RX, 200, RY), NULL, 32,
     "T.f: add: register r200 out of range (method has 5 registers)"},
    {"register C out of range", OP_ADD, 0, MK_ABC(OP_ADD, RX, RX, 255), NULL, 32,
     "T.f: add: register r255 out of range (method has 5 registers)"},
    {"register D of xor3 out of range", OP_XOR3, 0, MK_ABCD(OP_XOR3, RX, RX, RY, 63), NULL, 34,
     "T.f: xor3: register r63 out of range (method has 5 registers)"},
    {"byte[] register where a long is expected", OP_ADD, 0, MK_ABC(OP_ADD, RX, RX, RS), NULL, 32,
     "T.f: add: operand C is s of type byte[], expected int or long"},
    {"long register where byte[] is expected", OP_LDSTR, 0, MK_ABx(OP_LDSTR, RX, 0), NULL, 25,
     "T.f: ldstr: operand A is x of type long, expected byte[]"},
    {"long register where a record is expected", OP_GETF, 0, MK_ABC(OP_GETF, RX, RY, 0), NULL, 36,
     "T.f: getfield: operand B is y of type long, expected a record"},
    {"mov between long and byte[]", OP_MOV, 0, MK_ABC(OP_MOV, RY, RS, 0), NULL, 28,
     "T.f: mov: cannot move s (byte[]) to y (long)"},
    {"ret of a byte[] from a long method", OP_RET, 0, MK_ABC(OP_RET, RS, 0, 0), NULL, 39,
     "T.f: ret: T.f returns long, register s is byte[]"},
    {"ret without value from a long method", OP_RET, 0, MK_ABC(OP_RETV, 0, 0, 0), NULL, 39,
     "T.f: ret: T.f returns long: 'ret' needs a register"},
    /* pool indexes */
    {"constant index past the table", OP_LDK, 0, MK_ABx(OP_LDK, RX, 0xffff), NULL, 24,
     "T.f: ldi: bad constant index 65535 (the constant table has"},
    {"string index past the table", OP_LDSTR, 0, MK_ABx(OP_LDSTR, RS, 0xffff), NULL, 25,
     "T.f: ldstr: bad string index 65535 (the string table has"},
    {"static index past the table", OP_GETSTATIC, 0, MK_ABx(OP_GETSTATIC, RY, 0xffff), NULL, 26,
     "T.f: getstatic: bad static index 65535 (the program has 1 statics)"},
    {"record index past the table", OP_NEW, 0, MK_ABx(OP_NEW, RP, 0xffff), NULL, 27,
     "T.f: new: bad record index 65535 (the program has 2 records)"},
    {"method index past the table", OP_CALL, 0, MK_ABx(OP_CALL, RX, 0xffff), NULL, 29,
     "T.f: call: bad method index 65535 (the program has"},
    {"field index past the record", OP_GETF, 0, MK_ABC(OP_GETF, RX, RP, 7), NULL, 36,
     "T.f: getfield: record T.P has no field 7"},
    {"putfield index past the record", OP_PUTF, 0, MK_ABC(OP_PUTF, RP, 1, RX), NULL, 37,
     "T.f: putfield: record T.P has no field 1"},
    {"new of the wrong record", OP_NEW, 0, MK_ABx(OP_NEW, RP, 1), NULL, 27, "T.f: new: register p is T.P, not T.Q"},
    {"putstatic of a byte[] into a long static", OP_GETSTATIC, 0, MK_ABx(OP_PUTSTATIC, RS, 0), NULL, 26,
     "T.f: putstatic: static T.S is long, register s is byte[]"},
    /* control flow */
    {"jump past the end", OP_JMP, 0, MK_sJ(OP_JMP, 1000), NULL, 38,
     "T.f: jmp: branch into nowhere (target"},
    {"jump before the start", OP_JMP, 0, MK_sJ(OP_JMP, -1000), NULL, 38, "T.f: jmp: branch into nowhere (target -"},
    {"jump to one past the end", OP_JMP, 0, MK_sJ(OP_JMP, 1), NULL, 38,
     "T.f: jmp: branch into nowhere (target 17, method has 17 instructions)"},
    {"conditional not followed by jmp", OP_LT, 1, MK_ABC(OP_NOP, 0, 0, 0), NULL, 38,
     "T.f: blt: conditional instruction not followed by jmp"},
    {"last instruction falls through", OP_RET, 0, MK_ABC(OP_NOP, 0, 0, 0), NULL, 39,
     "T.f: control falls off the end of the method (last instruction is 'nop')"},
    {"conditional as the last word", OP_RET, 0, MK_ABC(OP_LT, RX, RY, 0), NULL, 39,
     "T.f: blt: conditional instruction not followed by jmp"},
    /* unused fields and immediates */
    {"unused field B of ldnull", OP_LDNULL, 0, MK_ABC(OP_LDNULL, RS, 1, 0), NULL, 35,
     "T.f: ldnull: unused operand field B is not zero"},
    {"unused field C of mov", OP_MOV, 0, MK_ABC(OP_MOV, RY, RA, 9), NULL, 28, "T.f: mov: unused operand field C is not zero"},
    {"unused field A of a void ret", OP_RET, 0, MK_ABC(OP_RETV, 1, 0, 0), NULL, 39,
     "T.f: ret: unused operand field A is not zero"},
    {"shift immediate 64", OP_SHLI, 0, MK_ABC(OP_SHLI, RX, RX, 64), NULL, 33, "T.f: shl: immediate 64 out of range 0..63"},
    {"shift immediate 255", OP_SHLI, 0, MK_ABC(OP_SARI, RX, RX, 255), NULL, 33,
     "T.f: sar: immediate 255 out of range 0..63"},
    {"32-bit shift immediate 32", OP_SHLI, 0, MK_ABC(OP_SHLWI, RX, RX, 32), NULL, 33,
     "T.f: shlw: immediate 32 out of range 0..31"},
    /* calls */
    {"call with an argument of the wrong type", OP_CALL, 0, MK_ABx(OP_CALL, RY, 0), "T.g", 29,
     "T.f: call T.g: argument 1 (s) is byte[], expected long"},
    {"call whose result does not fit", OP_CALL, 0, MK_ABx(OP_CALL, RX, 0), "Sys.arg", 29,
     "T.f: call Sys.arg: result byte[] does not fit x of type long"},
    {"call whose window passes the last register", OP_CALL, 0, MK_ABx(OP_CALL, RP, 0), "T.g", 29,
     "T.f: call T.g: registers r4..r5 out of range (method has 5 registers)"},
    {"call of a void method", OP_CALL, 0, MK_ABx(OP_CALL, RX, 0), "T.w", 29,
     "T.f: call: T.w returns void (use the void form)"},
    {"void call with an argument of the wrong type", OP_CALLV, 0, MK_ABx(OP_CALLV, RX, 0), "T.v", 30,
     "T.f: call T.v: argument 1 (x) is long, expected byte[]"},
    {"void call with a mismatched signature", OP_CALLV, 0, MK_ABx(OP_CALLV, RS, 0), "T.w", 30,
     "T.f: call T.w: argument 1 (s) is byte[], expected long"},
    {"void call of a non-void method", OP_CALLV, 0, MK_ABx(OP_CALLV, RY, 0), "T.g", 30,
     "T.f: call: T.g returns long (use the form with a result)"},
    {"void call without arguments and A not zero", OP_CALLV, 1, MK_ABx(OP_CALLV, RS, 0), "Sys.gc", 31,
     "T.f: call Sys.gc: operand A must be 0 (no arguments, no result)"},
};

static vm_program *bin_prog;
static vm_method *bin_f;

static int bin_setup(void **state)
{
    (void)state;
    /* as assembled: the cases patch T.f's calls, which the loader would inline */
    bin_prog = tu_load_ex(BIN_SRC, VM_LOAD_NO_INLINE); /* fails the group with the loader's message */
    bin_f = vm_find_method(bin_prog, "T.f");
    return bin_f ? 0 : -1;
}

static int bin_teardown(void **state)
{
    (void)state;
    vm_program_free(bin_prog);
    bin_prog = NULL;
    bin_f = NULL;
    return 0;
}

static uint32_t method_index(const vm_program *p, const char *qname)
{
    for (uint32_t i = 0; i < p->nmethods; i++)
        if (strcmp(p->methods[i]->qname, qname) == 0)
            return i;
    fail_msg("no method %s", qname);
    return 0;
}

/* The positive control: the unpatched program verifies. */
static void bin_unpatched_verifies(void **state)
{
    (void)state;
    char err[1024] = "";
    for (uint32_t i = 0; i < bin_prog->nmethods; i++)
        if (vm_verify_method(bin_prog, bin_prog->methods[i], err, sizeof err) != 0)
            fail_msg("%s: %s", bin_prog->methods[i]->qname, err);
    assert_int_equal(bin_f->nregs, NREGS);
    assert_int_equal(bin_f->ncode, 17);
}

static void run_binary_case(void **state)
{
    const binary_case *bc = *state;
    uint32_t pc = 0;
    while (pc < bin_f->ncode && GET_OP(bin_f->code[pc]) != (uint32_t)bc->at)
        pc++;
    pc += (uint32_t)bc->skip;
    if (pc >= bin_f->ncode)
        fail_msg("%s: no %s in T.f", bc->name, vm_opinfo_table[bc->at].name);
    uint32_t word = bc->word;
    if (bc->meth)
        word |= method_index(bin_prog, bc->meth) << VM_POS_Bx;
    uint32_t *code = ((vm_method *)bin_f)->code;
    uint32_t saved = code[pc];
    code[pc] = word;
    char err[1024] = "";
    int rc = vm_verify_method(bin_prog, bin_f, err, sizeof err);
    code[pc] = saved;
    if (rc != -1)
        check_message(bc->name, NULL, bc->line, bc->msg);
    check_message(bc->name, err, bc->line, bc->msg);
    /* restored, the method verifies again */
    assert_int_equal(vm_verify_method(bin_prog, bin_f, err, sizeof err), 0);
}

/* ---- main ------------------------------------------------------------------------ */

int main(void)
{
    tu_group text = {0}, binary = {0};
    TU_ADD_TABLE(&text, text_cases, run_text_case);
    tu_add_test(&binary, "unpatched program verifies", bin_unpatched_verifies, NULL);
    TU_ADD_TABLE(&binary, binary_cases, run_binary_case);
    int failed = tu_run_group("text", &text, NULL, NULL);
    failed += tu_run_group("binary", &binary, bin_setup, bin_teardown);
    return failed;
}
