/*
 * tests/test_opcodes.c — table-driven tests of the semantics of every opcode
 * in VM_OPCODES, edge cases included (wrap-around, Java shift masking,
 * INT64_MIN / -1, sign extension of 32-bit and byte results, byte order of
 * the byte[] views, branches taken and not taken).
 *
 * Each case is a few instructions placed in a fixed method
 *
 *     method f(a: long, b: long) -> long      ; called with the case's a, b
 *         var r, t, u: long                    ; r is returned
 *         var s, s2: byte[] ... var p, p2: P
 *         <body>
 *         ret r
 *     end
 *
 * inside a module that also declares a record, statics and, per case, extra
 * helper methods or constants. One cmocka test per case, so a failure names
 * the behaviour. A last test checks that the cases together assemble to
 * every opcode: adding an opcode to the list without a case here fails it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"
#include "vm.h"

typedef struct op_case {
    const char *name;
    const char *body;  /* instructions of f, before "ret r" */
    int64_t a, b;      /* f's arguments */
    int64_t want;      /* f's result (when exc is VM_EXC_NONE) */
    vm_exc exc;        /* the exception f must throw, or VM_EXC_NONE */
    const char *extra; /* module-level declarations: helper methods, constants */
} op_case;

/* Row constructors (positional rows with missing fields trip -Wextra). */
#define C(name, body, a, b, want)         {name, body, a, b, want, VM_EXC_NONE, NULL}
#define CX(name, body, a, b, exc)         {name, body, a, b, 0, exc, NULL}
#define CE(name, extra, body, a, b, want) {name, body, a, b, want, VM_EXC_NONE, extra}
#define CEX(name, extra, body, a, b, exc) {name, body, a, b, 0, exc, extra}

/* A 64-bit bit pattern, and a 32-bit pattern as the sign-extended Java int it denotes. */
#define I64(x) ((int64_t)UINT64_C(x))
#define I32(x) ((int64_t)(int32_t)UINT32_C(x))

/* r := 1 when the branch "cond, yes" is taken, else 0. */
#define BR(cond) "ldi r, 0\n" cond ", yes\nret r\nyes:\nldi r, 1"

/* s := a zeroed byte[8] and u := 0, for the view stores (indexes are registers, never immediates). */
#define BUF8 "ldi t, 8\nnewarray s, t\nldi u, 0\n"
/* ia := a zeroed int[3], s := a zeroed byte[4], for the element stores. */
#define IA3  "ldi t, 3\nnewarray ia, t\n"
#define BA4  "ldi t, 4\nnewarray s, t\n"

/* Helper methods for the call cases (CALL needs a callee in the same program). */
#define X_G    "method g(x: long, y: long) -> long\n    sub x, x, y\n    ret x\nend\n"
#define X_DV   "method dv(x: long, y: long) -> long\n    div x, x, y\n    ret x\nend\n"
#define X_H    "method h(x: long)\n    putstatic x, S\n    ret\nend\n"
#define X_BUMP "method bump()\n    var x: long\n    getstatic x, S\n    add x, x, 1\n    putstatic x, S\n    ret\nend\n"
#define X_LEN  "method len(x: byte[]) -> long\n    var n: long\n    alen n, x\n    ret n\nend\n"
/* X extends DigestBase.Digest with implCompress summing a block's bytes into sum, implDigest writing sum (8
   bytes, little-endian), implReset clearing it: userDigest(n) feeds n bytes of 1 with 4-byte blocks, so the
   digest is 4 * (n / 4): DigestBase.update, its buffer and its multi-block loop reach the overrides */
#define X_USER                                                                                                \
    "import DigestBase\nrecord X extends DigestBase.Digest\n    sum: long\nend\n"                          \
    "method implCompress(this: X, b: byte[], ofs: int)\n    var s, v, i, n: long\n    getfield s, this, sum\n" \
    "    getfield n, this, blockSize\n    ldi i, 0\nloop:\n    baload v, b, ofs\n    add s, s, v\n"             \
    "    add ofs, ofs, 1\n    add i, i, 1\n    blt i, n, loop\n    putfield this, sum, s\n    ret\nend\n"       \
    "method implDigest(this: X, out: byte[], ofs: int)\n    var s: long\n    getfield s, this, sum\n"         \
    "    stle64 out, ofs, s\n    ret\nend\n"                                                                 \
    "method implReset(this: X)\n    var z: long\n    ldi z, 0\n    putfield this, sum, z\n    ret\nend\n"       \
    "method userDigest(n: long) -> long\n    var d: X\n    var b: byte[]\n    var k, one, r: long\n"           \
    "    var u_d: DigestBase.Digest\n    var u_b: byte[]\n    var u_ofs, u_len: int\n    var out: byte[]\n"   \
    "    var q_d: DigestBase.Digest\n    new d, X\n    ldi k, 4\n    putfield d, blockSize, k\n"             \
    "    newarray b, k\n    putfield d, buffer, b\n    ldi k, 8\n    putfield d, digestLength, k\n"           \
    "    newarray b, n\n    ldi k, 0\n    ldi one, 1\nfill:\n    bge k, n, fed\n    bastore b, k, one\n"     \
    "    add k, k, 1\n    jmp fill\nfed:\n    mov u_d, d\n    mov u_b, b\n    ldi u_ofs, 0\n    mov u_len, n\n" \
    "    call DigestBase.update(u_d, u_b, u_ofs, u_len)\n    mov q_d, d\n    call out = DigestBase.digest(q_d)\n" \
    "    ldi k, 0\n    ldle64 r, out, k\n    ret r\nend\n"

/* md(alg): MessageDigest.getInstance of SHA-1 (1), SHA-256 (2), SHA3-256 (3), or the SHAKE128 XOF
   (SHA3.newShake128, else: getInstance's "SHAKE128" is JDK 25's fixed-length SHAKE128-256); first(alg):
   the first byte of the digest of nothing, through callvirt engineDigest; squeezeThenUpdate(alg): SHA3.squeeze
   (a checkcast to SHA3.SHA3), then callvirt engineUpdate (SHA3's override throws after a squeeze) */
#define X_MD                                                                                                  \
    "import MessageDigest\nimport DigestBase\nimport SHA3\n"                                                \
    "method md(alg: long) -> DigestBase.Digest\n    var d: DigestBase.Digest\n    var name: byte[]\n"        \
    "    var x: SHA3.SHA3\n"                                                                                  \
    "    ldstr name, \"SHA-1\"\n    beq alg, 1, get\n    ldstr name, \"SHA-256\"\n    beq alg, 2, get\n"  \
    "    ldstr name, \"SHA3-256\"\n    beq alg, 3, get\n    call x = SHA3.newShake128()\n    mov d, x\n"     \
    "    ret d\nget:\n    call d = MessageDigest.getInstance(name)\n    ret d\nend\n"                        \
    "method first(alg: long) -> long\n    var d: DigestBase.Digest\n    var w_alg: long\n    var out: byte[]\n" \
    "    var x: DigestBase.Digest\n    var r, z: long\n    mov w_alg, alg\n    call d = md(w_alg)\n"         \
    "    mov x, d\n    callvirt out = DigestBase.engineDigest(x)\n    ldi z, 0\n    baload r, out, z\n"       \
    "    ret r\nend\n"                                                                                      \
    "method squeezeThenUpdate(alg: long) -> long\n    var d: DigestBase.Digest\n    var w_alg: long\n"       \
    "    var out: byte[]\n    var q_d: DigestBase.Digest\n    var q_n: int\n    var x: DigestBase.Digest\n"  \
    "    var b: byte[]\n    var ofs, len: int\n    var r: long\n    mov w_alg, alg\n    call d = md(w_alg)\n" \
    "    mov q_d, d\n    ldi q_n, 4\n    call out = SHA3.squeeze(q_d, q_n)\n    mov x, d\n    ldi len, 1\n"   \
    "    newarray b, len\n    ldi ofs, 0\n    callvirt DigestBase.engineUpdate(x, b, ofs, len)\n    ldi r, 1\n" \
    "    ret r\nend\n"                                                                                      \
    "method castNull() -> long\n    var d: DigestBase.Digest\n    var s: SHA3.SHA3\n    var r: long\n"      \
    "    checkcast s, d\n    ldi r, 5\n    bnull s, ok\n    ldi r, 6\nok:\n    ret r\nend\n"                 \
    "method nullCall() -> long\n    var d: DigestBase.Digest\n    var r: long\n"                            \
    "    callvirt DigestBase.implReset(d)\n    ldi r, 0\n    ret r\nend\n"                                    \
    "method abstractCall() -> long\n    var d: DigestBase.Digest\n    var r: long\n    new d, DigestBase.Digest\n" \
    "    callvirt DigestBase.implReset(d)\n    ldi r, 0\n    ret r\nend\n"
#define X_FACT                                                                                              \
    "method fact(n: long) -> long\n    var res, m: long\n    ble n, 1, base\n    sub m, n, 1\n"              \
    "    call res = T.fact(m)\n    mul res, res, n\n    ret res\nbase:\n    ldi res, 1\n    ret res\nend\n"

static const op_case cases[] = {
    /* ---- moves and constants ---- */
    C("nop does nothing", "nop\nmov r, a", 5, 0, 5),
    C("mov copies a long", "mov r, b", 1, -9, -9),
    C("mov copies a reference", "newarray s, a\nmov s2, s\nalen r, s2", 6, 0, 6),
    C("ldi 32767 (16-bit)", "ldi r, 32767", 0, 0, 32767),
    C("ldi -32768 (16-bit)", "ldi r, -32768", 0, 0, -32768),
    C("ldi 32768 (constant table)", "ldi r, 32768", 0, 0, 32768),
    C("ldi -32769 (constant table)", "ldi r, -32769", 0, 0, -32769),
    C("ldi 64-bit pattern", "ldi r, 0x8123456789abcdef", 0, 0, I64(0x8123456789abcdef)),
    C("ldi INT64_MIN", "ldi r, -9223372036854775808", 0, 0, INT64_MIN),
    C("ldi INT64_MAX", "ldi r, 9223372036854775807", 0, 0, INT64_MAX),
    C("ldi all-ones hex is -1", "ldi r, 0xffffffffffffffff", 0, 0, -1),
    CE("ldi named constant", "const BIG = 0x7fffffff00000001\n", "ldi r, BIG", 0, 0, I64(0x7fffffff00000001)),
    C("ldnull makes null", "newarray s, a\nldnull s\n" BR("bnull s"), 1, 0, 1),
    C("ldstr length", "ldstr s, \"AB\\x80\"\nalen r, s", 0, 0, 3),
    C("ldstr first byte", "ldstr s, \"AB\\x80\"\nbaload r, s, a", 0, 0, 'A'),
    C("ldstr bytes are signed", "ldstr s, \"AB\\x80\"\nbaload r, s, a", 2, 0, -128),
    C("ldstr same literal is one array", "ldstr s, \"q\"\nldstr s2, \"q\"\n" BR("beq s, s2"), 0, 0, 1),
    C("getstatic initial long", "getstatic r, S", 0, 0, 7),
    C("putstatic then getstatic", "putstatic a, S\ngetstatic r, S", -42, 0, -42),
    C("getstatic byte[] literal", "getstatic s, SB\nbaload r, s, a", 1, 0, -2),
    C("static byte 0x80 reads -128", "getstatic s, SV\nbaload r, s, a", 8, 0, -128),
    C("putstatic reference", "newarray s, a\nputstatic s, SB\ngetstatic s2, SB\nalen r, s2", 9, 0, 9),

    /* ---- 64-bit arithmetic: two's complement wrap-around, no traps ---- */
    C("add", "add r, a, b", 2, 3, 5),
    C("add negatives", "add r, a, b", -1, -1, -2),
    C("add wraps at INT64_MAX", "add r, a, b", INT64_MAX, 1, INT64_MIN),
    C("add INT64_MIN + INT64_MIN", "add r, a, b", INT64_MIN, INT64_MIN, 0),
    C("add immediate", "add r, a, 5", 10, 0, 15),
    C("add immediate -128", "add r, a, -128", 0, 0, -128),
    C("add immediate wraps", "add r, a, 127", INT64_MAX, 0, INT64_MIN + 126),
    CE("add named constant immediate", "const SMALL = -3\n", "add r, a, SMALL", 10, 0, 7),
    C("sub", "sub r, a, b", 5, 7, -2),
    C("sub wraps at INT64_MIN", "sub r, a, b", INT64_MIN, 1, INT64_MAX),
    C("sub 0 - INT64_MIN", "sub r, a, b", 0, INT64_MIN, INT64_MIN),
    C("sub immediate", "sub r, a, 1", 0, 0, -1),
    C("sub immediate -128 wraps", "sub r, a, -128", INT64_MAX, 0, INT64_MIN + 127),
    C("mul signs", "mul r, a, b", -3, 7, -21),
    C("mul negatives", "mul r, a, b", -3, -7, 21),
    C("mul wraps INT64_MAX * 2", "mul r, a, b", INT64_MAX, 2, -2),
    C("mul 2^32 * 2^32 wraps to 0", "mul r, a, b", I64(0x100000000), I64(0x100000000), 0),
    C("mul INT64_MIN * -1", "mul r, a, b", INT64_MIN, -1, INT64_MIN),
    C("mul keeps the low 64 bits", "mul r, a, b", I64(0x123456789), I64(0x987654321), I64(0xd77d742cce1833a9)),
    C("div", "div r, a, b", 7, 2, 3),
    C("div truncates toward zero (-7 / 2)", "div r, a, b", -7, 2, -3),
    C("div 7 / -2", "div r, a, b", 7, -2, -3),
    C("div -7 / -2", "div r, a, b", -7, -2, 3),
    C("div INT64_MIN / -1", "div r, a, b", INT64_MIN, -1, INT64_MIN),
    C("div INT64_MIN / 1", "div r, a, b", INT64_MIN, 1, INT64_MIN),
    C("div INT64_MIN / 2", "div r, a, b", INT64_MIN, 2, INT64_MIN / 2),
    C("div INT64_MAX / -1", "div r, a, b", INT64_MAX, -1, -INT64_MAX),
    CX("div by zero throws", "div r, a, b", 5, 0, VM_EXC_ARITHMETIC),
    CX("div 0 / 0 throws", "div r, a, b", 0, 0, VM_EXC_ARITHMETIC),
    C("rem", "rem r, a, b", 7, 3, 1),
    C("rem sign of dividend (-7 % 3)", "rem r, a, b", -7, 3, -1),
    C("rem 7 % -3", "rem r, a, b", 7, -3, 1),
    C("rem -7 % -3", "rem r, a, b", -7, -3, -1),
    C("rem INT64_MIN % -1", "rem r, a, b", INT64_MIN, -1, 0),
    C("rem INT64_MIN % 3", "rem r, a, b", INT64_MIN, 3, -2),
    CX("rem by zero throws", "rem r, a, b", 5, 0, VM_EXC_ARITHMETIC),
    C("neg", "neg r, a", 5, 0, -5),
    C("neg 0", "neg r, a", 0, 0, 0),
    C("neg INT64_MIN wraps", "neg r, a", INT64_MIN, 0, INT64_MIN),
    C("neg INT64_MAX", "neg r, a", INT64_MAX, 0, INT64_MIN + 1),

    /* ---- logic ---- */
    C("and", "and r, a, b", I64(0xff00ff00ff00ff00), I64(0x0ff00ff00ff00ff0), I64(0x0f000f000f000f00)),
    C("and immediate 255", "and r, a, 255", -1, 0, 255),
    C("and immediate is unsigned (0x80)", "and r, a, 0x80", -1, 0, 0x80),
    C("and immediate 0xf0", "and r, a, 0xf0", 0x1234, 0, 0x30),
    C("or", "or r, a, b", I64(0xff00ff00ff00ff00), I64(0x0ff00ff00ff00ff0), I64(0xfff0fff0fff0fff0)),
    C("xor", "xor r, a, b", I64(0xff00ff00ff00ff00), I64(0x0ff00ff00ff00ff0), I64(0xf0f0f0f0f0f0f0f0)),
    C("andn is a & ~b", "andn r, a, b", I64(0xff00ff00ff00ff00), I64(0x0ff00ff00ff00ff0), I64(0xf000f000f000f000)),
    C("not 0", "not r, a", 0, 0, -1),
    C("not INT64_MIN", "not r, a", INT64_MIN, 0, INT64_MAX),
    C("not 5", "not r, a", 5, 0, -6),

    /* ---- 64-bit shifts: the count is masked to 6 bits (Java) ---- */
    C("shl 1 << 63", "shl r, a, b", 1, 63, INT64_MIN),
    C("shl by 64 is by 0", "shl r, a, b", 1, 64, 1),
    C("shl by 65 is by 1", "shl r, a, b", 1, 65, 2),
    C("shl by 127 is by 63", "shl r, a, b", 1, 127, INT64_MIN),
    C("shl by -1 is by 63", "shl r, a, b", 3, -1, INT64_MIN),
    C("shl by 0", "shl r, a, b", 5, 0, 5),
    C("shl drops the top bit", "shl r, a, b", I64(0x8000000000000001), 1, 2),
    C("shl immediate 63", "shl r, a, 63", 3, 0, INT64_MIN),
    C("shl immediate 0", "shl r, a, 0", -5, 0, -5),
    C("shl immediate 4", "shl r, a, 4", -1, 0, -16),
    C("shr is logical", "shr r, a, b", -1, 1, INT64_MAX),
    C("shr by 63", "shr r, a, b", -1, 63, 1),
    C("shr by 64 is by 0", "shr r, a, b", -1, 64, -1),
    C("shr by 65 is by 1", "shr r, a, b", INT64_MIN, 65, I64(0x4000000000000000)),
    C("shr by -1 is by 63", "shr r, a, b", -1, -1, 1),
    C("shr positive", "shr r, a, b", 16, 2, 4),
    C("shr immediate 60", "shr r, a, 60", -1, 0, 15),
    C("shr immediate 0", "shr r, a, 0", -1, 0, -1),
    C("shr immediate 63", "shr r, a, 63", INT64_MIN, 0, 1),
    C("sar is arithmetic", "sar r, a, b", -16, 2, -4),
    C("sar positive", "sar r, a, b", 16, 2, 4),
    C("sar INT64_MIN by 63", "sar r, a, b", INT64_MIN, 63, -1),
    C("sar INT64_MAX by 63", "sar r, a, b", INT64_MAX, 63, 0),
    C("sar by 64 is by 0", "sar r, a, b", INT64_MIN, 64, INT64_MIN),
    C("sar by 66 is by 2", "sar r, a, b", -16, 66, -4),
    C("sar -1 by 200", "sar r, a, b", -1, 200, -1),
    C("sar immediate 4", "sar r, a, 4", -256, 0, -16),
    C("sar immediate 63 negative", "sar r, a, 63", INT64_MIN, 0, -1),
    C("sar immediate 63 positive", "sar r, a, 63", INT64_MAX, 0, 0),
    C("sar immediate 0", "sar r, a, 0", -3, 0, -3),

    /* ---- 64-bit rotates ---- */
    C("rol by 0", "rol r, a, b", I64(0x8000000000000001), 0, I64(0x8000000000000001)),
    C("rol by 1", "rol r, a, b", I64(0x8000000000000001), 1, 3),
    C("rol by 63", "rol r, a, b", I64(0x8000000000000001), 63, I64(0xc000000000000000)),
    C("rol by 64 is by 0", "rol r, a, b", I64(0x8000000000000001), 64, I64(0x8000000000000001)),
    C("rol by -1 is by 63", "rol r, a, b", I64(0x8000000000000001), -1, I64(0xc000000000000000)),
    C("rol by 4", "rol r, a, b", I64(0xf123456789abcdef), 4, I64(0x123456789abcdeff)),
    C("rol immediate 0", "rol r, a, 0", I64(0x8000000000000001), 0, I64(0x8000000000000001)),
    C("rol immediate 1", "rol r, a, 1", I64(0x8000000000000001), 0, 3),
    C("rol immediate 63", "rol r, a, 63", I64(0x8000000000000001), 0, I64(0xc000000000000000)),
    C("rol immediate 4", "rol r, a, 4", I64(0xf123456789abcdef), 0, I64(0x123456789abcdeff)),
    C("ror by 0", "ror r, a, b", I64(0x8000000000000001), 0, I64(0x8000000000000001)),
    C("ror by 1", "ror r, a, b", I64(0x8000000000000001), 1, I64(0xc000000000000000)),
    C("ror by 63", "ror r, a, b", I64(0x8000000000000001), 63, 3),
    C("ror by 64 is by 0", "ror r, a, b", I64(0x8000000000000001), 64, I64(0x8000000000000001)),
    C("ror by 4", "ror r, a, b", I64(0xf123456789abcdef), 4, I64(0xff123456789abcde)),
    C("ror immediate 0", "ror r, a, 0", I64(0x8000000000000001), 0, I64(0x8000000000000001)),
    C("ror immediate 1", "ror r, a, 1", I64(0x8000000000000001), 0, I64(0xc000000000000000)),
    C("ror immediate 63", "ror r, a, 63", I64(0x8000000000000001), 0, 3),

    /* ---- fused SHA-3 operations ---- */
    C("xor3", "ldi t, 0xff\nxor3 r, a, b, t", 0x0f0f, 0xf0f0, 0xff00),
    C("xor3 with aliased registers", "xor3 a, a, b, a\nmov r, a", I64(0x8123456789abcdef), 77, 77),
    C("bcax is b ^ (c & ~d)", "ldi t, 0x0f\nbcax r, a, b, t", 0x100, 0xff, 0x1f0),
    C("bcax 64-bit", "ldi t, 0xffffffff00000000\nbcax r, a, b, t", -1, -1, I64(0xffffffff00000000)),
    C("xrol by 0", "xrol r, a, b, 0", 0xf0, 0x0f, 0xff),
    C("xrol by 1", "xrol r, a, b, 1", INT64_MIN, 1, 3),
    C("xrol by 63", "xrol r, a, b, 63", INT64_MIN, 1, I64(0xc000000000000000)),
    C("rax1 rotates c", "rax1 r, a, b", 0, I64(0x8000000000000001), 3),
    C("rax1 xors b", "rax1 r, a, b", 0xff, 1, 0xfd),
    C("rax1 64-bit", "rax1 r, a, b", -1, I64(0xc000000000000000), I64(0x7ffffffffffffffe)),

    /* ---- 32-bit (Java int) operations: results are sign-extended ints ---- */
    C("addw overflows to INT32_MIN", "addw r, a, b", INT32_MAX, 1, INT32_MIN),
    C("addw negatives", "addw r, a, b", -1, -1, -2),
    C("addw ignores the high bits", "addw r, a, b", I64(0x100000005), 3, 8),
    C("addw 0xffffffff + 1 is 0", "addw r, a, b", I64(0xffffffff), 1, 0),
    C("addw sign-extends bit 31", "addw r, a, b", I64(0x80000000), 0, INT32_MIN),
    C("addw immediate overflows", "addw r, a, 1", INT32_MAX, 0, INT32_MIN),
    C("addw immediate -1", "addw r, a, -1", 0, 0, -1),
    C("addw immediate -128 wraps", "addw r, a, -128", INT32_MIN, 0, INT32_MAX - 127),
    C("subw underflows to INT32_MAX", "subw r, a, b", INT32_MIN, 1, INT32_MAX),
    C("subw 0 - 1", "subw r, a, b", 0, 1, -1),
    C("subw ignores the high bits", "subw r, a, b", I64(0x500000000), 1, -1),
    C("mulw 2^16 * 2^16 is 0", "mulw r, a, b", 0x10000, 0x10000, 0),
    C("mulw INT32_MAX * 2", "mulw r, a, b", INT32_MAX, 2, -2),
    C("mulw signs", "mulw r, a, b", -3, 7, -21),
    C("mulw keeps the low 32 bits", "mulw r, a, b", 0x10001, 0x10001, 0x20001),
    C("mulw ignores the high bits", "mulw r, a, b", I64(0x100000003), 5, 15),
    C("mulw 2^30 * 2 is INT32_MIN", "mulw r, a, b", 0x40000000, 2, INT32_MIN),
    C("shlw 1 << 31", "shlw r, a, b", 1, 31, INT32_MIN),
    C("shlw by 32 is by 0", "shlw r, a, b", 1, 32, 1),
    C("shlw by 33 is by 1", "shlw r, a, b", 1, 33, 2),
    C("shlw by -1 is by 31", "shlw r, a, b", 3, -1, INT32_MIN),
    C("shlw ignores the high bits", "shlw r, a, b", I64(0x100000001), 1, 2),
    C("shlw by 4", "shlw r, a, b", 0x12345678, 4, 0x23456780),
    C("shlw immediate 31", "shlw r, a, 31", 1, 0, INT32_MIN),
    C("shlw immediate 0 sign-extends", "shlw r, a, 0", I64(0x180000000), 0, INT32_MIN),
    C("shlw immediate 8", "shlw r, a, 8", 0x00ff0000, 0, I32(0xff000000)),
    C("shrw is logical", "shrw r, a, b", -1, 1, INT32_MAX),
    C("shrw by 31", "shrw r, a, b", -1, 31, 1),
    C("shrw by 32 is by 0", "shrw r, a, b", -1, 32, -1),
    C("shrw by 33 is by 1", "shrw r, a, b", -16, 33, 0x7ffffff8),
    C("shrw of 0x80000000 by 31", "shrw r, a, b", I64(0x80000000), 31, 1),
    C("shrw by 0 sign-extends", "shrw r, a, b", INT32_MIN, 0, INT32_MIN),
    C("shrw ignores the high bits", "shrw r, a, b", I64(0x1ffffffff), 4, 0x0fffffff),
    C("shrw immediate 28", "shrw r, a, 28", -1, 0, 15),
    C("shrw immediate 0 sign-extends", "shrw r, a, 0", I64(0xffffffff), 0, -1),
    C("shrw immediate 31", "shrw r, a, 31", INT32_MIN, 0, 1),
    C("sarw INT32_MIN by 31", "sarw r, a, b", INT32_MIN, 31, -1),
    C("sarw sees bit 31 as the sign", "sarw r, a, b", I64(0x80000000), 4, I32(0xf8000000)),
    C("sarw by 33 is by 1", "sarw r, a, b", -16, 33, -8),
    C("sarw by 32 is by 0", "sarw r, a, b", 0x40000000, 32, 0x40000000),
    C("sarw ignores the high bits", "sarw r, a, b", I64(0x17fffffff), 30, 1),
    C("sarw immediate 31 negative", "sarw r, a, 31", INT32_MIN, 0, -1),
    C("sarw immediate 31 positive", "sarw r, a, 31", INT32_MAX, 0, 0),
    C("sarw immediate 0 sign-extends", "sarw r, a, 0", I64(0xffffffff), 0, -1),
    C("sarw immediate 4", "sarw r, a, 4", -256, 0, -16),
    C("rolw by 0 sign-extends", "rolw r, a, b", I64(0x80000001), 0, I32(0x80000001)),
    C("rolw by 1", "rolw r, a, b", I64(0x80000001), 1, 3),
    C("rolw by 31", "rolw r, a, b", I64(0x80000001), 31, I32(0xc0000000)),
    C("rolw by 32 is by 0", "rolw r, a, b", I64(0x80000001), 32, I32(0x80000001)),
    C("rolw by -1 is by 31", "rolw r, a, b", I64(0x80000001), -1, I32(0xc0000000)),
    C("rolw by 4", "rolw r, a, b", 0x12345678, 4, 0x23456781),
    C("rolw ignores the high bits", "rolw r, a, b", I64(0xffffffff00000001), 1, 2),
    C("rolw immediate 0", "rolw r, a, 0", I64(0x80000001), 0, I32(0x80000001)),
    C("rolw immediate 1", "rolw r, a, 1", I64(0x80000001), 0, 3),
    C("rolw immediate 31", "rolw r, a, 31", I64(0x80000001), 0, I32(0xc0000000)),
    C("rorw by 0 sign-extends", "rorw r, a, b", I64(0x80000001), 0, I32(0x80000001)),
    C("rorw by 1", "rorw r, a, b", I64(0x80000001), 1, I32(0xc0000000)),
    C("rorw by 31", "rorw r, a, b", I64(0x80000001), 31, 3),
    C("rorw by 32 is by 0", "rorw r, a, b", I64(0x80000001), 32, I32(0x80000001)),
    C("rorw by 4", "rorw r, a, b", 0x12345678, 4, I32(0x81234567)),
    C("rorw immediate 0", "rorw r, a, 0", I64(0x80000001), 0, I32(0x80000001)),
    C("rorw immediate 1", "rorw r, a, 1", I64(0x80000001), 0, I32(0xc0000000)),
    C("rorw immediate 31", "rorw r, a, 31", I64(0x80000001), 0, 3),
    C("l2i sign-extends bit 31", "l2i r, a", I64(0x180000000), 0, INT32_MIN),
    C("l2i 0xffffffff is -1", "l2i r, a", I64(0xffffffff), 0, -1),
    C("l2i INT32_MAX", "l2i r, a", INT32_MAX, 0, INT32_MAX),
    C("l2i INT64_MIN is 0", "l2i r, a", INT64_MIN, 0, 0),
    C("i2b 0x80 is -128", "i2b r, a", 0x80, 0, -128),
    C("i2b 0x17f is 127", "i2b r, a", 0x17f, 0, 127),
    C("i2b 0xff is -1", "i2b r, a", 0xff, 0, -1),
    C("i2b -129 is 127", "i2b r, a", -129, 0, 127),
    C("zextw -1", "zextw r, a", -1, 0, I64(0xffffffff)),
    C("zextw drops the high bits", "zextw r, a", I64(0x180000000), 0, I64(0x80000000)),
    C("zextw INT32_MIN", "zextw r, a", INT32_MIN, 0, I64(0x80000000)),

    /* ---- control flow ---- */
    C("jmp forward skips", "ldi r, 1\njmp skip\nldi r, 2\nskip:", 0, 0, 1),
    C("jmp backward loops (sum 1..10)",
      "ldi r, 0\nmov t, a\nloop:\nbeq t, 0, out\nadd r, r, t\nsub t, t, 1\njmp loop\nout:", 10, 0, 55),
    C("beq taken", BR("beq a, b"), 3, 3, 1),
    C("beq not taken", BR("beq a, b"), 3, 4, 0),
    C("beq compares 64 bits", BR("beq a, b"), -1, I64(0xffffffff), 0),
    C("bne taken", BR("bne a, b"), 3, 4, 1),
    C("bne not taken", BR("bne a, b"), 3, 3, 0),
    C("blt taken (negative)", BR("blt a, b"), -5, 3, 1),
    C("blt not taken (negative)", BR("blt a, b"), 3, -5, 0),
    C("blt not taken (equal)", BR("blt a, b"), 3, 3, 0),
    C("blt is signed (-1 < 0)", BR("blt a, b"), -1, 0, 1),
    C("blt INT64_MIN < INT64_MAX", BR("blt a, b"), INT64_MIN, INT64_MAX, 1),
    C("bge taken (equal)", BR("bge a, b"), 3, 3, 1),
    C("bge taken (greater)", BR("bge a, b"), 3, -5, 1),
    C("bge not taken (negative)", BR("bge a, b"), -5, 3, 0),
    C("bge INT64_MAX >= INT64_MIN", BR("bge a, b"), INT64_MAX, INT64_MIN, 1),
    C("ble taken (equal)", BR("ble a, b"), 3, 3, 1),
    C("ble taken (negatives)", BR("ble a, b"), -4, -3, 1),
    C("ble not taken", BR("ble a, b"), 4, 3, 0),
    C("bgt taken (negatives)", BR("bgt a, b"), -1, -2, 1),
    C("bgt not taken (negatives)", BR("bgt a, b"), -2, -1, 0),
    C("bgt not taken (equal)", BR("bgt a, b"), 3, 3, 0),
    C("bgt is signed (0 > -1)", BR("bgt a, b"), 0, -1, 1),
    C("beq immediate taken (-1)", BR("beq a, -1"), -1, 0, 1),
    C("beq immediate is sign-extended", BR("beq a, -1"), 0xff, 0, 0),
    C("beq immediate compares 64 bits", BR("beq a, 5"), I64(0x100000005), 0, 0),
    C("bne immediate taken", BR("bne a, 5"), 6, 0, 1),
    C("bne immediate not taken", BR("bne a, 5"), 5, 0, 0),
    C("blt immediate taken", BR("blt a, -5"), -6, 0, 1),
    C("blt immediate not taken (equal)", BR("blt a, -5"), -5, 0, 0),
    C("blt immediate INT64_MIN < 0", BR("blt a, 0"), INT64_MIN, 0, 1),
    C("bge immediate taken (-128)", BR("bge a, -128"), -128, 0, 1),
    C("bge immediate not taken", BR("bge a, -128"), -129, 0, 0),
    C("ble immediate taken (127)", BR("ble a, 127"), 127, 0, 1),
    C("ble immediate not taken", BR("ble a, 127"), 128, 0, 0),
    C("bgt immediate taken", BR("bgt a, -1"), 0, 0, 1),
    C("bgt immediate not taken (equal)", BR("bgt a, -1"), -1, 0, 0),
    C("beq refs same array", "newarray s, a\nmov s2, s\n" BR("beq s, s2"), 1, 0, 1),
    C("beq refs different arrays", "newarray s, a\nnewarray s2, a\n" BR("beq s, s2"), 1, 0, 0),
    C("beq refs both null", BR("beq s, s2"), 0, 0, 1),
    C("bne refs different arrays", "newarray s, a\nnewarray s2, a\n" BR("bne s, s2"), 1, 0, 1),
    C("bne refs same array", "newarray s, a\nmov s2, s\n" BR("bne s, s2"), 1, 0, 0),
    C("beq records same", "new p, P\nmov p2, p\n" BR("beq p, p2"), 0, 0, 1),
    C("bne records distinct", "new p, P\nnew p2, P\n" BR("bne p, p2"), 0, 0, 1),
    C("bnull taken", BR("bnull s"), 0, 0, 1),
    C("bnull not taken", "newarray s, a\n" BR("bnull s"), 0, 0, 0),
    C("bnonnull taken", "newarray s, a\n" BR("bnonnull s"), 0, 0, 1),
    C("bnonnull not taken", BR("bnonnull s"), 0, 0, 0),
    C("bnonnull on a record", "new p, P\n" BR("bnonnull p"), 0, 0, 1),

    /* ---- arrays ---- */
    C("newarray byte[] length", "newarray s, a\nalen r, s", 5, 0, 5),
    C("newarray byte[0]", "newarray s, a\nalen r, s", 0, 0, 0),
    CX("newarray byte[] negative size", "newarray s, a", -1, 0, VM_EXC_NEGATIVE_SIZE),
    C("newarray int[] length", "newarray ia, a\nalen r, ia", 3, 0, 3),
    CX("newarray int[] negative size", "newarray ia, a", -2, 0, VM_EXC_NEGATIVE_SIZE),
    C("newarray long[] length", "newarray la, a\nalen r, la", 4, 0, 4),
    CX("newarray long[] negative size", "newarray la, a", INT64_MIN, 0, VM_EXC_NEGATIVE_SIZE),
    C("new byte[] is zeroed", "newarray s, a\nbaload r, s, b", 4, 3, 0),
    C("new int[] is zeroed", "newarray ia, a\niaload r, ia, b", 4, 3, 0),
    C("new long[] is zeroed", "newarray la, a\nlaload r, la, b", 4, 3, 0),
    CX("alen of null throws", "alen r, s", 0, 0, VM_EXC_NPE),
    C("baload sign-extends 0x80", BA4 "bastore s, b, a\nbaload r, s, b", 0x80, 1, -128),
    C("baload 0x7f", BA4 "bastore s, b, a\nbaload r, s, b", 0x7f, 1, 127),
    C("bastore truncates 0x1ff", BA4 "bastore s, b, a\nbaload r, s, b", 0x1ff, 1, -1),
    C("bastore truncates 0x1234", BA4 "bastore s, b, a\nbaload r, s, b", 0x1234, 3, 0x34),
    C("bastore writes one byte", BA4 "ldi u, 0\nldi r, 0x11111111\nstle32 s, u, r\nbastore s, b, a\nldle32 r, s, u",
      0x1ff, 1, 0x1111ff11),
    CX("baload index = length", BA4 "baload r, s, a", 4, 0, VM_EXC_AIOOBE),
    CX("baload index -1", BA4 "baload r, s, a", -1, 0, VM_EXC_AIOOBE),
    CX("baload index 2^32 (no truncation)", BA4 "baload r, s, a", I64(0x100000000), 0, VM_EXC_AIOOBE),
    CX("bastore index = length", BA4 "bastore s, a, a", 4, 0, VM_EXC_AIOOBE),
    CX("baload of null throws", "baload r, s, a", 0, 0, VM_EXC_NPE),
    CX("bastore to null throws", "bastore s, a, a", 0, 0, VM_EXC_NPE),
    C("iaload sign-extends", IA3 "iastore ia, b, a\niaload r, ia, b", I64(0x80000000), 2, INT32_MIN),
    C("iastore truncates to int", IA3 "iastore ia, b, a\niaload r, ia, b", I64(0x123456789), 2, 0x23456789),
    C("iastore -1", IA3 "iastore ia, b, a\niaload r, ia, b", -1, 0, -1),
    C("iastore INT32_MAX", IA3 "iastore ia, b, a\niaload r, ia, b", INT32_MAX, 1, INT32_MAX),
    C("iastore leaves neighbours",
      IA3 "ldi t, 5\nldi u, 0\niastore ia, u, t\nldi u, 2\niastore ia, u, t\niastore ia, b, a\n"
          "iaload r, ia, u\nldi u, 0\niaload t, ia, u\nadd r, r, t",
      -1, 1, 10),
    CX("iaload index = length", IA3 "iaload r, ia, a", 3, 0, VM_EXC_AIOOBE),
    CX("iastore index -1", IA3 "iastore ia, a, a", -1, 0, VM_EXC_AIOOBE),
    CX("iaload of null throws", "iaload r, ia, a", 0, 0, VM_EXC_NPE),
    CX("iastore to null throws", "iastore ia, a, a", 0, 0, VM_EXC_NPE),
    C("lastore/laload INT64_MIN", "ldi t, 2\nnewarray la, t\nlastore la, b, a\nlaload r, la, b", INT64_MIN, 1,
      INT64_MIN),
    C("lastore/laload 64-bit pattern", "ldi t, 2\nnewarray la, t\nlastore la, b, a\nlaload r, la, b",
      I64(0x8123456789abcdef), 0, I64(0x8123456789abcdef)),
    CX("laload index -1", "ldi t, 2\nnewarray la, t\nlaload r, la, a", -1, 0, VM_EXC_AIOOBE),
    CX("lastore index = length", "ldi t, 2\nnewarray la, t\nlastore la, a, a", 2, 0, VM_EXC_AIOOBE),
    CX("laload of null throws", "laload r, la, a", 0, 0, VM_EXC_NPE),
    CX("lastore to null throws", "lastore la, a, a", 0, 0, VM_EXC_NPE),
    C("lastore/laload immediate index", "ldi t, 3\nnewarray la, t\nlastore la, 2, a\nlastore la, 1, b\nlaload r, la, 2",
      -5, 9, -5),
    C("laload immediate index reads its own slot", "ldi t, 3\nnewarray la, t\nlastore la, 2, a\nlastore la, 1, b\nlaload r, la, 1",
      -5, 9, 9),
    CX("laload immediate index = length", "ldi t, 3\nnewarray la, t\nlaload r, la, 3", 0, 0, VM_EXC_AIOOBE),
    CX("lastore immediate index = length", "ldi t, 3\nnewarray la, t\nlastore la, 255, a", 0, 0, VM_EXC_AIOOBE),
    CX("laload immediate of null throws", "laload r, la, 0", 0, 0, VM_EXC_NPE),

    /* ---- byte[] views; SV is 01 02 .. 08 80 81 .. 87 (16 bytes) ---- */
    C("ldle64 at 0", "getstatic s, SV\nldle64 r, s, a", 0, 0, I64(0x0807060504030201)),
    C("ldle64 at 1 (unaligned)", "getstatic s, SV\nldle64 r, s, a", 1, 0, I64(0x8008070605040302)),
    C("ldle64 at 8 (last)", "getstatic s, SV\nldle64 r, s, a", 8, 0, I64(0x8786858483828180)),
    CX("ldle64 at 9 is out of bounds", "getstatic s, SV\nldle64 r, s, a", 9, 0, VM_EXC_AIOOBE),
    CX("ldle64 at -1 is out of bounds", "getstatic s, SV\nldle64 r, s, a", -1, 0, VM_EXC_AIOOBE),
    CX("ldle64 of null throws", "ldle64 r, s, a", 0, 0, VM_EXC_NPE),
    C("ldbe64 at 0", "getstatic s, SV\nldbe64 r, s, a", 0, 0, I64(0x0102030405060708)),
    C("ldbe64 at 8 (last)", "getstatic s, SV\nldbe64 r, s, a", 8, 0, I64(0x8081828384858687)),
    CX("ldbe64 at 9 is out of bounds", "getstatic s, SV\nldbe64 r, s, a", 9, 0, VM_EXC_AIOOBE),
    C("ldle32 at 0", "getstatic s, SV\nldle32 r, s, a", 0, 0, 0x04030201),
    C("ldle32 sign-extends", "getstatic s, SV\nldle32 r, s, a", 8, 0, I32(0x83828180)),
    C("ldle32 at 6 (unaligned)", "getstatic s, SV\nldle32 r, s, a", 6, 0, I32(0x81800807)),
    C("ldle32 at 12 (last)", "getstatic s, SV\nldle32 r, s, a", 12, 0, I32(0x87868584)),
    CX("ldle32 at 13 is out of bounds", "getstatic s, SV\nldle32 r, s, a", 13, 0, VM_EXC_AIOOBE),
    C("ldbe32 at 0", "getstatic s, SV\nldbe32 r, s, a", 0, 0, 0x01020304),
    C("ldbe32 at 4", "getstatic s, SV\nldbe32 r, s, a", 4, 0, 0x05060708),
    C("ldbe32 sign-extends", "getstatic s, SV\nldbe32 r, s, a", 8, 0, I32(0x80818283)),
    CX("ldbe32 at 13 is out of bounds", "getstatic s, SV\nldbe32 r, s, a", 13, 0, VM_EXC_AIOOBE),
    C("stle64 byte order", BUF8 "stle64 s, u, a\nldbe64 r, s, u", 0x0102030405060708, 0, 0x0807060504030201),
    C("stle64 low byte first", BUF8 "stle64 s, u, a\nbaload r, s, u", I64(0x11223344556677f0), 0, -16),
    CX("stle64 at length - 7 is out of bounds", BUF8 "stle64 s, a, a", 1, 0, VM_EXC_AIOOBE),
    C("stle32 writes 4 bytes only", BUF8 "stle32 s, u, a\nldle64 r, s, u", I64(0xaabbccdd81828384), 0,
      I64(0x81828384)),
    C("stle32 byte order", BUF8 "stle32 s, u, a\nldbe32 r, s, u", 0x11223344, 0, 0x44332211),
    CX("stle32 at length - 3 is out of bounds", BUF8 "stle32 s, a, a", 5, 0, VM_EXC_AIOOBE),
    C("stbe64 byte order", BUF8 "stbe64 s, u, a\nldle64 r, s, u", 0x0102030405060708, 0, 0x0807060504030201),
    C("stbe64 high byte first", BUF8 "stbe64 s, u, a\nbaload r, s, u", I64(0x8000000000000001), 0, -128),
    CX("stbe64 of null throws", "stbe64 s, a, a", 0, 0, VM_EXC_NPE),
    C("stbe32 writes 4 bytes at 4", BUF8 "ldi u, 4\nstbe32 s, u, a\nldi u, 0\nldbe64 r, s, u",
      I64(0xffffffff11223344), 0, 0x11223344),
    C("stbe32 byte order", BUF8 "stbe32 s, u, a\nldle32 r, s, u", 0x11223344, 0, 0x44332211),
    CX("stbe32 at length - 3 is out of bounds", BUF8 "stbe32 s, a, a", 5, 0, VM_EXC_AIOOBE),

    /* ---- records ---- */
    C("new record fields are zero", "new p, P\ngetfield r, p, x", 0, 0, 0),
    C("putfield/getfield x", "new p, P\nputfield p, x, a\nputfield p, y, b\ngetfield r, p, x", 11, 22, 11),
    C("putfield/getfield y", "new p, P\nputfield p, x, a\nputfield p, y, b\ngetfield r, p, y", 11, 22, 22),
    C("new record reference field is null", "new p, P\ngetfield s, p, z\n" BR("bnull s"), 0, 0, 1),
    C("reference field", "new p, P\nnewarray s, a\nputfield p, z, s\ngetfield s2, p, z\nalen r, s2", 7, 0, 7),
    C("record-typed field",
      "new p, P\nnew p2, P\nputfield p2, x, a\nputfield p, next, p2\nldnull p2\ngetfield p2, p, next\n"
      "getfield r, p2, x",
      99, 0, 99),
    CX("getfield of null throws", "getfield r, p, x", 0, 0, VM_EXC_NPE),
    CX("putfield to null throws", "putfield p, x, a", 0, 0, VM_EXC_NPE),

    /* ---- calls and returns ---- */
    CE("call with result (argument order)", X_G, "mov t, a\nmov u, b\ncall r = T.g(t, u)", 10, 3, 7),
    CE("call leaves the caller's registers", X_G,
       "mov t, a\nmov u, b\ncall r = T.g(t, u)\nadd r, r, t\nadd r, r, u", 10, 3, 20),
    CE("call with a reference argument", X_LEN, "newarray s, a\ncall u = T.len(s)\nmov r, u", 12, 0, 12),
    CE("recursive call (20!)", X_FACT, "mov t, a\ncall r = T.fact(t)", 20, 0, 2432902008176640000),
    CE("call of a void method", X_H, "call T.h(a)\ngetstatic r, S", -5, 0, -5),
    CE("call of a void method without arguments", X_BUMP, "call T.bump()\ncall T.bump()\ngetstatic r, S", 0, 0,
       9),
    C("call of a native with a result", "call r = Sys.argc()", 0, 0, 0),
    CE("call result INT64_MIN / -1", X_DV, "mov t, a\nmov u, b\ncall r = T.dv(t, u)", INT64_MIN, -1, INT64_MIN),
    CEX("exception propagates out of a call", X_DV, "mov t, a\nmov u, b\ncall r = T.dv(t, u)", 1, 0,
        VM_EXC_ARITHMETIC),
    C("ret returns its operand", "ret b", 1, 2, 2),

    /* ---- virtual calls and casts, on the library's digests (records extending DigestBase.Digest) ---- */
    CE("callvirt runs SHA-1's implDigest", X_MD, "mov t, a\ncall r = T.first(t)", 1, 0, -38),     /* 0xda */
    CE("callvirt runs SHA-256's implDigest", X_MD, "mov t, a\ncall r = T.first(t)", 2, 0, -29), /* 0xe3 */
    CE("callvirt runs SHA3-256's implDigest", X_MD, "mov t, a\ncall r = T.first(t)", 3, 0, -89),  /* 0xa7 */
    CEX("void callvirt runs SHA3's engineUpdate override", X_MD, "mov t, a\ncall r = T.squeezeThenUpdate(t)", 128, 0,
        VM_EXC_NAMED),
    CEX("checkcast to another record throws", X_MD, "mov t, a\ncall r = T.squeezeThenUpdate(t)", 1, 0,
        VM_EXC_CLASS_CAST),
    CE("checkcast of null is null", X_MD, "call r = T.castNull()", 0, 0, 5),
    CEX("callvirt on null throws", X_MD, "call r = T.nullCall()", 0, 0, VM_EXC_NPE),
    CEX("callvirt of an abstract method throws", X_MD, "call r = T.abstractCall()", 0, 0, VM_EXC_ABSTRACT_METHOD),
    CE("a program's own digest record overrides DigestBase's methods", X_USER, "mov t, a\ncall r = T.userDigest(t)", 10,
       0, 8),
    CE("a program's own digest, digested twice", X_USER, "mov t, a\ncall r = T.userDigest(t)\nmov u, r\n"
       "mov t, a\ncall r = T.userDigest(t)\nadd r, r, u", 13, 0, 24),
};

#define NCASES (sizeof cases / sizeof cases[0])

/* The module around a case's body: see the header comment. */
static char *case_source(const op_case *c)
{
    static const char head[] =
        "module T\n"
        "record P\n    x: long\n    y: long\n    z: byte[]\n    next: P\nend\n"
        "static S: long = 7\n"
        "static SB: byte[] = {1, -2, 3}\n"
        "static SV: byte[] = {1, 2, 3, 4, 5, 6, 7, 8, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87}\n";
    static const char fhead[] =
        "method f(a: long, b: long) -> long\n"
        "    var r, t, u: long\n"
        "    var s, s2: byte[]\n"
        "    var ia: int[]\n"
        "    var la: long[]\n"
        "    var p, p2: P\n";
    static const char tail[] = "\n    ret r\nend\n";
    const char *extra = c->extra ? c->extra : "";
    size_t n = strlen(head) + strlen(extra) + strlen(fhead) + strlen(c->body) + strlen(tail) + 1;
    char *src = malloc(n);
    assert_non_null(src);
    snprintf(src, n, "%s%s%s%s%s", head, extra, fhead, c->body, tail);
    return src;
}

/* What a failing case leaves behind, freed by the teardown (cmocka longjmps out of a failed test). */
static vm_program *cur_prog;
static vm_t *cur_vm;
static char *cur_src;

static int teardown_case(void **state)
{
    (void)state;
    vm_free(cur_vm);
    vm_program_free(cur_prog);
    free(cur_src);
    cur_vm = NULL;
    cur_prog = NULL;
    cur_src = NULL;
    return 0;
}

static void run_case(void **state)
{
    const op_case *c = *state;
    cur_src = case_source(c);
    cur_prog = tu_load(cur_src);
    cur_vm = tu_vm(cur_prog, 0);
    const vm_method *f = vm_find_method(cur_prog, "T.f");
    assert_non_null(f);
    vm_value args[2] = {{.i = c->a}, {.i = c->b}};
    vm_value res = {.i = 0};
    int st = vm_call(cur_vm, f, args, &res);
    if (c->exc != VM_EXC_NONE) {
        if (st != VM_EXCEPTION || cur_vm->exc != c->exc)
            fail_msg("%s: expected %s, got status %d (result %lld, exception '%s: %s')\n--- program ---\n%s",
                     c->name, vm_exc_class(c->exc), st, (long long)res.i, vm_exc_class(cur_vm->exc),
                     cur_vm->exc_msg, cur_src);
        return;
    }
    if (st != VM_OK)
        fail_msg("%s: status %d, exception '%s: %s'\n--- program ---\n%s", c->name, st, vm_exc_class(cur_vm->exc),
                 cur_vm->exc_msg, cur_src);
    if (res.i != c->want)
        fail_msg("%s: f(%lld, %lld) = %lld (0x%016llx), expected %lld (0x%016llx)\n--- program ---\n%s", c->name,
                 (long long)c->a, (long long)c->b, (long long)res.i, (unsigned long long)res.i, (long long)c->want,
                 (unsigned long long)c->want, cur_src);
}

/*
 * Every opcode must occur in the assembled code of some case. This loads
 * every case's program itself (rather than relying on the case tests having
 * run before), so it holds even when the cases are run selectively.
 */
static void test_coverage(void **state)
{
    (void)state;
    unsigned char seen[VM_NOPCODES] = {0};
    for (size_t k = 0; k < NCASES; k++) {
        cur_src = case_source(&cases[k]);
        cur_prog = tu_load(cur_src);
        for (uint32_t mi = 0; mi < cur_prog->nmethods; mi++) {
            const vm_method *m = cur_prog->methods[mi];
            for (uint32_t pc = 0; pc < m->ncode; pc++)
                seen[GET_OP(m->code[pc])] = 1;
        }
        teardown_case(NULL);
    }
    int missing = 0;
    for (int op = 0; op < VM_NOPCODES; op++)
        if (!seen[op]) {
            print_error("opcode %s (%s) is not covered by any case\n", vm_opinfo_table[op].name,
                        vm_opinfo_table[op].mnemonic);
            missing++;
        }
    if (missing)
        fail_msg("%d of %d opcodes have no case in tests/test_opcodes.c", missing, VM_NOPCODES);
}

static struct CMUnitTest tests[NCASES + 1];

int main(void)
{
    for (size_t k = 0; k < NCASES; k++)
        tests[k] = (struct CMUnitTest){
            .name = cases[k].name,
            .test_func = run_case,
            .teardown_func = teardown_case,
            .initial_state = (void *)&cases[k],
        };
    tests[NCASES] = (struct CMUnitTest){.name = "every opcode is covered", .test_func = test_coverage,
                                        .teardown_func = teardown_case};
    return cmocka_run_group_tests_name("opcodes", tests, NULL, NULL);
}
