/*
 * vm/natives.c — the built-in module Sys: native methods (the VM's
 * System.arraycopy, printing, time, files, program arguments, exit) and the
 * lookup of built-in module sources (Sys itself and the vm/lib/ library).
 *
 * Sys is declared in .mva syntax below, so natives are called, verified and
 * type-checked exactly like bytecode methods. Each native gets its
 * arguments in a register window and returns VM_OK, or VM_EXCEPTION /
 * VM_EXIT after vm_throw or setting the exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bytes.h"
#include "vm.h"

/* Sys's natives, each once: N(name, parameters and result), the C function n_<name>; C(text), a comment
   of the module's text. The module's text (sys_source) and the lookup table (sys_natives) are made from
   it, so that what the verifier checks calls against and what runs are the same methods. */
#define SYS_NATIVES(N, C)                                                                                    \
    C("Printing (standard output unless the name starts with e: standard error)")                            \
    N(print, "(s: byte[])")                                                                                  \
    N(println, "(s: byte[])")                                                                                \
    N(eprint, "(s: byte[])")                                                                                 \
    N(eprintln, "(s: byte[])")                                                                               \
    N(printLong, "(v: long)")                                                                                \
    N(printHex, "(b: byte[], ofs: int, len: int)")                                                           \
    C("System.arraycopy")                                                                                    \
    N(arraycopy, "(src: Object, srcPos: int, dst: Object, dstPos: int, length: int)")                        \
    C("Arrays.fill's bulk store (HotSpot's fill stubs): a[from..to) := v, after Arrays.rangeCheck's checks") \
    N(fill, "(a: Object, from: int, to: int, v: long)")                                                      \
    C("System.nanoTime, System.exit, System.gc")                                                             \
    N(nanoTime, "() -> long")                                                                                \
    N(exit, "(status: int)")                                                                                 \
    N(gc, "()")                                                                                              \
    C("program arguments (after the program file on the command line)")                                      \
    N(argc, "() -> int")                                                                                     \
    N(arg, "(i: int) -> byte[]")                                                                             \
    C("files: results < 0 are -errno")                                                                       \
    N(open, "(path: byte[]) -> int")                                                                         \
    N(read, "(fd: int, b: byte[], ofs: int, len: int) -> int")                                               \
    N(close, "(fd: int) -> int")                                                                             \
    N(errorString, "(err: int) -> byte[]")                                                                   \
    C("jdk.internal.util.Preconditions with the AIOOBE formatter, Arrays.rangeCheck")                        \
    N(checkIndex, "(index: int, length: int) -> int")                                                        \
    N(checkFromIndexSize, "(fromIndex: int, size: int, length: int) -> int")                                 \
    N(rangeCheck, "(arrayLength: int, fromIndex: int, toIndex: int) -> int")                                 \
    C("throw new ArrayIndexOutOfBoundsException(index); throw new <cls>(msg)")                               \
    N(throwArrayIndex, "(index: int)")                                                                       \
    N(throwNew, "(cls: byte[], msg: byte[])")

#define SYS_TEXT(name, signature) "native method " #name signature "\n"
#define SYS_COMMENT(text)          "; " text "\n"
static const char sys_source[] = "module Sys\n" SYS_NATIVES(SYS_TEXT, SYS_COMMENT);
#undef SYS_TEXT
#undef SYS_COMMENT

static int null_arg(vm_t *vm) { return vm_throw(vm, VM_EXC_NPE, NULL); }

/* Objects.checkFromIndexSize */
static int check_range(vm_t *vm, const vm_obj *o, int64_t ofs, int64_t len)
{
    if (ofs < 0 || len < 0 || ofs > o->length - len)
        return vm_throw(vm, VM_EXC_IOOBE, "Range [%lld, %lld + %lld) out of bounds for length %d", (long long)ofs,
                        (long long)ofs, (long long)len, o->length);
    return VM_OK;
}

/*
 * A write that fails (a full disk, a closed stream, a pipe whose reader left
 * while SIGPIPE is ignored) ends the program with status 1, as cat(1) does,
 * and the launcher reports "write error: <reason>". Java's PrintStream would
 * swallow the error and exit 0: output lost without a word is the one
 * outcome a tool must not have.
 */
static int write_failed(vm_t *vm)
{
    if (!vm->write_errno)
        vm->write_errno = errno ? errno : EIO;
    vm->exit_status = 1;
    vm->exc = VM_EXC_NONE;
    return VM_EXIT;
}

static int write_bytes(vm_t *vm, FILE *f, const vm_obj *s, int newline)
{
    if (!s)
        return null_arg(vm);
    errno = 0;
    if (fwrite(s->data, 1, (size_t)s->length, f) != (size_t)s->length || (newline && fputc('\n', f) == EOF))
        return write_failed(vm);
    return VM_OK;
}

static int n_print(vm_t *vm, vm_value *a, vm_value *r) { (void)r; return write_bytes(vm, stdout, a[0].ref, 0); }
static int n_println(vm_t *vm, vm_value *a, vm_value *r) { (void)r; return write_bytes(vm, stdout, a[0].ref, 1); }
static int n_eprint(vm_t *vm, vm_value *a, vm_value *r) { (void)r; return write_bytes(vm, stderr, a[0].ref, 0); }
static int n_eprintln(vm_t *vm, vm_value *a, vm_value *r) { (void)r; return write_bytes(vm, stderr, a[0].ref, 1); }

static int n_printLong(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)r;
    errno = 0;
    if (printf("%lld", (long long)a[0].i) < 0)
        return write_failed(vm);
    return VM_OK;
}

static int n_printHex(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)r;
    const vm_obj *b = a[0].ref;
    if (!b)
        return null_arg(vm);
    if (check_range(vm, b, a[1].i, a[2].i) != VM_OK)
        return VM_EXCEPTION;
    static const char hex[] = "0123456789abcdef";
    errno = 0;
    for (int64_t i = 0; i < a[2].i; i++) {
        uint8_t c = (uint8_t)VM_BYTES(b)[a[1].i + i];
        if (putchar(hex[c >> 4]) == EOF || putchar(hex[c & 15]) == EOF)
            return write_failed(vm);
    }
    return VM_OK;
}

static const char *array_type_name(const vm_t *vm, const vm_obj *o, char *buf, size_t len)
{
    return vm_type_name(vm->prog, (vm_type){o->kind, o->rec}, buf, len);
}

/* "byte" of a byte[] (the index messages: "out of bounds for byte[10]"); only when one is thrown */
static const char *element_type_name(const vm_t *vm, const vm_obj *o, char *buf, size_t len)
{
    array_type_name(vm, o, buf, len);
    buf[strlen(buf) - 2] = '\0';
    return buf;
}

/* System.arraycopy, with HotSpot's checks in HotSpot's order and its messages. */
static int n_arraycopy(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)r;
    const vm_obj *src = a[0].ref;
    vm_obj *dst = a[2].ref;
    int64_t sp = a[1].i, dp = a[3].i, len = a[4].i;
    char b1[64], b2[64];
    if (!src || !dst)
        return null_arg(vm);
    if (src->kind == VM_T_RECORD)
        return vm_throw(vm, VM_EXC_ARRAY_STORE, "arraycopy: source type %s is not an array",
                        array_type_name(vm, src, b1, sizeof b1));
    if (dst->kind == VM_T_RECORD)
        return vm_throw(vm, VM_EXC_ARRAY_STORE, "arraycopy: destination type %s is not an array",
                        array_type_name(vm, dst, b1, sizeof b1));
    if (src->kind != dst->kind)
        return vm_throw(vm, VM_EXC_ARRAY_STORE, "arraycopy: type mismatch: can not copy %s into %s",
                        array_type_name(vm, src, b1, sizeof b1), array_type_name(vm, dst, b2, sizeof b2));
    /* the element type's name ("byte" of byte[]) only for a message: formatting it costs more than
       a short copy */
    if (sp < 0)
        return vm_throw(vm, VM_EXC_AIOOBE, "arraycopy: source index %lld out of bounds for %s[%d]", (long long)sp,
                        element_type_name(vm, src, b1, sizeof b1), src->length);
    if (dp < 0)
        return vm_throw(vm, VM_EXC_AIOOBE, "arraycopy: destination index %lld out of bounds for %s[%d]", (long long)dp,
                        element_type_name(vm, src, b1, sizeof b1), dst->length);
    if (len < 0)
        return vm_throw(vm, VM_EXC_AIOOBE, "arraycopy: length %lld is negative", (long long)len);
    /* sp, dp, len >= 0 here, but an int parameter may hold any 64-bit value: no len + sp overflow */
    if (len > src->length - sp)
        return vm_throw(vm, VM_EXC_AIOOBE, "arraycopy: last source index %llu out of bounds for %s[%d]",
                        (unsigned long long)len + (unsigned long long)sp, element_type_name(vm, src, b1, sizeof b1),
                        src->length);
    if (len > dst->length - dp)
        return vm_throw(vm, VM_EXC_AIOOBE, "arraycopy: last destination index %llu out of bounds for %s[%d]",
                        (unsigned long long)len + (unsigned long long)dp, element_type_name(vm, src, b1, sizeof b1),
                        dst->length);
    size_t es = src->kind == VM_T_BYTES ? 1 : src->kind == VM_T_INTS ? 4 : 8;
    memmove(dst->data + (size_t)dp * es, src->data + (size_t)sp * es, (size_t)len * es);
    return VM_OK;
}

static int n_nanoTime(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)vm;
    (void)a;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    r->i = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    return VM_OK;
}

static int n_exit(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)r;
    vm->exit_status = (int)a[0].i;
    vm->exc = VM_EXC_NONE;
    return VM_EXIT;
}

static int n_gc(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)a;
    (void)r;
    vm_gc(vm);
    return VM_OK;
}

static int n_argc(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)a;
    r->i = vm->opt.argc;
    return VM_OK;
}

static int n_arg(vm_t *vm, vm_value *a, vm_value *r)
{
    int64_t i = a[0].i;
    if (i < 0 || i >= vm->opt.argc)
        return vm_throw(vm, VM_EXC_AIOOBE, "Index %lld out of bounds for length %d", (long long)i, vm->opt.argc);
    size_t n = strlen(vm->opt.argv[i]);
    vm_obj *o = vm_new_array(vm, VM_T_BYTES, (int64_t)n);
    if (!o)
        return VM_EXCEPTION;
    memcpy(o->data, vm->opt.argv[i], n);
    r->ref = o;
    return VM_OK;
}

static int n_open(vm_t *vm, vm_value *a, vm_value *r)
{
    const vm_obj *p = a[0].ref;
    if (!p)
        return null_arg(vm);
    char *path = malloc((size_t)p->length + 1);
    if (!path)
        return vm_throw(vm, VM_EXC_OOM, "Java heap space");
    memcpy(path, p->data, (size_t)p->length);
    path[p->length] = '\0';
    if (strlen(path) != (size_t)p->length) {
        free(path);
        r->i = -EINVAL; /* a NUL inside the name */
        return VM_OK;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    r->i = fd >= 0 ? fd : -errno;
    free(path);
    return VM_OK;
}

static int n_read(vm_t *vm, vm_value *a, vm_value *r)
{
    vm_obj *b = a[1].ref;
    if (!b)
        return null_arg(vm);
    if (check_range(vm, b, a[2].i, a[3].i) != VM_OK)
        return VM_EXCEPTION;
    if (a[0].i < 0 || a[0].i > 0x7fffffff) {
        r->i = -EBADF;
        return VM_OK;
    }
    ssize_t n;
    do
        n = read((int)a[0].i, b->data + a[2].i, (size_t)a[3].i);
    while (n < 0 && errno == EINTR);
    r->i = n >= 0 ? n : -errno;
    return VM_OK;
}

static int n_close(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)vm;
    if (a[0].i < 0 || a[0].i > 0x7fffffff) {
        r->i = -EBADF;
        return VM_OK;
    }
    r->i = close((int)a[0].i) == 0 ? 0 : -errno;
    return VM_OK;
}

static int n_errorString(vm_t *vm, vm_value *a, vm_value *r)
{
    uint64_t e = a[0].i < 0 ? 0 - (uint64_t)a[0].i : (uint64_t)a[0].i; /* INT64_MIN too */
    const char *s = e <= 4095 ? strerror((int)e) : "Unknown error";
    size_t n = strlen(s);
    vm_obj *o = vm_new_array(vm, VM_T_BYTES, (int64_t)n);
    if (!o)
        return VM_EXCEPTION;
    memcpy(o->data, s, n);
    r->ref = o;
    return VM_OK;
}

/* Preconditions.checkIndex(index, length, AIOOBE_FORMATTER) */
static int n_checkIndex(vm_t *vm, vm_value *a, vm_value *r)
{
    int64_t index = a[0].i, length = a[1].i;
    if (index < 0 || index >= length)
        return vm_throw(vm, VM_EXC_AIOOBE, "Index %lld out of bounds for length %lld", (long long)index,
                        (long long)length);
    r->i = index;
    return VM_OK;
}

/* Preconditions.checkFromIndexSize(fromIndex, size, length, AIOOBE_FORMATTER) */
static int n_checkFromIndexSize(vm_t *vm, vm_value *a, vm_value *r)
{
    int64_t from = a[0].i, size = a[1].i, length = a[2].i;
    if ((length | from | size) < 0 || size > length - from)
        return vm_throw(vm, VM_EXC_AIOOBE, "Range [%lld, %lld + %lld) out of bounds for length %lld",
                        (long long)from, (long long)from, (long long)size, (long long)length);
    r->i = from;
    return VM_OK;
}

/* java.util.Arrays.rangeCheck(arrayLength, fromIndex, toIndex) */
static int n_rangeCheck(vm_t *vm, vm_value *a, vm_value *r)
{
    int64_t length = a[0].i, from = a[1].i, to = a[2].i;
    if (from > to)
        return vm_throw(vm, VM_EXC_ILLEGAL_ARGUMENT, "fromIndex(%lld) > toIndex(%lld)", (long long)from,
                        (long long)to);
    if (from < 0)
        return vm_throw(vm, VM_EXC_AIOOBE, "Array index out of range: %lld", (long long)from);
    if (to > length)
        return vm_throw(vm, VM_EXC_AIOOBE, "Array index out of range: %lld", (long long)to);
    r->i = 0;
    return VM_OK;
}

/* Arrays.fill's stores, as one bulk operation (System.arraycopy's sibling): the checks of
   Arrays.rangeCheck first, so the bytecode caller's messages hold whoever calls it. */
/* a[from..to) := v, the range checked */
static inline void fill_range(vm_obj *o, int64_t from, int64_t to, int64_t v)
{
    size_t size = o->kind == VM_T_BYTES ? 1 : o->kind == VM_T_INTS ? 4 : 8;
    if (v == 0 || size == 1) { /* clearing (the usual fill) or bytes: one memset */
        memset(o->data + (size_t)from * size, (int)(v & 0xff), (size_t)(to - from) * size);
    } else if (size == 4) {
        for (int64_t i = from; i < to; i++)
            VM_INTS(o)[i] = (int32_t)v;
    } else {
        for (int64_t i = from; i < to; i++)
            VM_LONGS(o)[i] = v;
    }
}

/* Arrays.fill of the array o with a[1..3] (from, to, v): Arrays.rangeCheck's checks, then the stores */
static inline int fill_checked(vm_t *vm, vm_obj *o, vm_value *a, vm_value *r)
{
    int64_t from = a[1].i, to = a[2].i;
    if (from > to || from < 0 || to > o->length) {
        vm_value chk[3] = {{.i = o->length}, a[1], a[2]};
        return n_rangeCheck(vm, chk, r);
    }
    fill_range(o, from, to, a[3].i);
    return VM_OK;
}

static int n_fill(vm_t *vm, vm_value *a, vm_value *r)
{
    vm_obj *o = a[0].ref;
    char b[64];
    if (!o)
        return null_arg(vm);
    if (o->kind == VM_T_RECORD)
        return vm_throw(vm, VM_EXC_ARRAY_STORE, "fill: type %s is not an array", array_type_name(vm, o, b, sizeof b));
    return fill_checked(vm, o, a, r);
}

/*
 * The java.util.Arrays methods vm/lib/Arrays.mva declares native: the bulk operations
 * HotSpot compiles to stubs (fill: C2's loop-idiom fill stubs; equals: the _equalsB
 * intrinsic), with Arrays.java's checks and texts. Their array is never null for the
 * library's callers; for others, the NullPointerException Arrays.java's a.length would
 * give.
 */
static int arrays_fill(vm_t *vm, vm_value *a, vm_value *r)
{
    vm_obj *o = a[0].ref;
    if (!o)
        return vm_throw(vm, VM_EXC_NPE, "Cannot read the array length because \"a\" is null");
    return fill_checked(vm, o, a, r);
}

/* Arrays.equals(byte[] a, byte[] b): 1 when both are null or have the same bytes */
static int arrays_equals(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)vm;
    const vm_obj *x = a[0].ref, *y = a[1].ref;
    if (x == y)
        r->i = 1;
    else if (!x || !y || x->length != y->length)
        r->i = 0;
    else
        r->i = memcmp(x->data, y->data, (size_t)x->length) == 0;
    return VM_OK;
}

/*
 * sun.security.provider.ByteArrayAccess's bulk conversions, the natives of the built-in
 * ByteArrayAccess (vm/lib/ByteArrayAccess.mva): len bytes of the byte[] side, whole ints or
 * longs at the other, little- or big-endian, as its VarHandle views convert them. As JDK 25's
 * ByteArrayAccess.java: no check up front, a loop of whole elements while the byte offset is
 * below its start plus len, each access checked in Java's order with Java's messages (the
 * array's "Index 2 out of bounds for length 2", the view's "Index 4 out of bounds for length 3"
 * against length - (size - 1), the views' null "ba"). When every access is in bounds, as for
 * the digests, one tight loop.
 */
enum { BAA_TO_BYTES = 1, BAA_BIG = 2, BAA_LONG = 4 };

static inline void baa_one(vm_obj *bytes, int64_t bOfs, vm_obj *words, int64_t wOfs, int how)
{
    int n = how & BAA_LONG ? 8 : 4, big = (how & BAA_BIG) != 0;
    int8_t *p = VM_BYTES(bytes) + bOfs;
    if (how & BAA_TO_BYTES) {
        uint64_t v = n == 8 ? (uint64_t)VM_LONGS(words)[wOfs] : (uint32_t)VM_INTS(words)[wOfs];
        if (big)
            st_be(p, v, n);
        else
            st_le(p, v, n);
    } else {
        uint64_t v = big ? ld_be(p, n) : ld_le(p, n);
        if (n == 8)
            VM_LONGS(words)[wOfs] = (int64_t)v;
        else
            VM_INTS(words)[wOfs] = (int32_t)(uint32_t)v;
    }
}

static VM_COLD int baa_view_fails(vm_t *vm, const vm_obj *bytes, int64_t bOfs, int n)
{
    if (!bytes)
        return vm_throw(vm, VM_EXC_NPE, "Cannot read the array length because \"ba\" is null");
    return vm_throw(vm, VM_EXC_AIOOBE, "Index %lld out of bounds for length %lld", (long long)bOfs,
                    (long long)bytes->length - (n - 1));
}

static VM_COLD int baa_array_fails(vm_t *vm, const vm_obj *words, int64_t wOfs, int how)
{
    if (!words)
        return vm_throw(vm, VM_EXC_NPE, "Cannot %s %s array because \"%s\" is null",
                        how & BAA_TO_BYTES ? "load from" : "store to", how & BAA_LONG ? "long" : "int",
                        how & BAA_TO_BYTES ? "in" : "out");
    return vm_throw(vm, VM_EXC_AIOOBE, "Index %lld out of bounds for length %d", (long long)wOfs, words->length);
}

static inline int baa_convert(vm_t *vm, vm_value *a, int how)
{
    const int n = how & BAA_LONG ? 8 : 4;
    vm_obj *bytes = a[how & BAA_TO_BYTES ? 2 : 0].ref, *words = a[how & BAA_TO_BYTES ? 0 : 2].ref;
    int64_t bOfs = a[how & BAA_TO_BYTES ? 3 : 1].i, wOfs = a[how & BAA_TO_BYTES ? 1 : 3].i, len = a[4].i;
    /* whole elements all in bounds (the digests' case): one tight loop; unsigned compares take
       the negative offsets out, and no sum can overflow */
    if (bytes && words && len % n == 0 && (uint64_t)bOfs <= (uint64_t)bytes->length &&
        (uint64_t)len <= (uint64_t)(bytes->length - bOfs) && (uint64_t)wOfs <= (uint64_t)words->length &&
        (uint64_t)(len / n) <= (uint64_t)(words->length - wOfs)) {
        for (int64_t j = 0; j < len / n; j++)
            baa_one(bytes, bOfs + j * n, words, wOfs + j, how);
        return VM_OK;
    }
    /* Java's `len += ofs; while (ofs < len)` over the byte side's offset, in int arithmetic: the
       sum wraps, so a negative offset and length below Integer.MIN_VALUE together give a large
       positive end and the loop runs (its first access throws), and an end past
       Integer.MAX_VALUE wraps negative and it runs none. Registers of kind int may hold more than
       an int: such values are taken as they are, in 64 bits. The loop ends at its first bad
       access, so it runs at most the arrays' lengths and its increments cannot overflow. */
    int64_t end = (int64_t)((uint64_t)bOfs + (uint64_t)len);
    if (bOfs == (int32_t)bOfs && len == (int32_t)len)
        end = (int32_t)(uint32_t)end;
    for (; bOfs < end; bOfs += n, wOfs++) {
        int view_ok = bytes && bOfs >= 0 && bOfs <= (int64_t)bytes->length - n;
        int array_ok = words && wOfs >= 0 && wOfs < words->length;
        if (how & BAA_TO_BYTES) { /* in[inOfs++] first, then the view's set */
            if (!array_ok)
                return baa_array_fails(vm, words, wOfs, how);
            if (!view_ok)
                return baa_view_fails(vm, bytes, bOfs, n);
        } else { /* the view's get first, then out[outOfs++] = */
            if (!view_ok)
                return baa_view_fails(vm, bytes, bOfs, n);
            if (!array_ok)
                return baa_array_fails(vm, words, wOfs, how);
        }
        baa_one(bytes, bOfs, words, wOfs, how);
    }
    return VM_OK;
}

#define BAA(name, how)                                                                             \
    static int name(vm_t *vm, vm_value *a, vm_value *r)                                            \
    {                                                                                              \
        (void)r;                                                                                   \
        return baa_convert(vm, a, how);                                                            \
    }
BAA(i2bLittle, BAA_TO_BYTES)
BAA(b2iBig, BAA_BIG)
BAA(i2bBig, BAA_TO_BYTES | BAA_BIG)
BAA(b2lLittle, BAA_LONG)
BAA(l2bLittle, BAA_TO_BYTES | BAA_LONG)
BAA(b2lBig, BAA_LONG | BAA_BIG)
BAA(l2bBig, BAA_TO_BYTES | BAA_LONG | BAA_BIG)
#undef BAA

/* new ArrayIndexOutOfBoundsException(int index) */
static int n_throwArrayIndex(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)r;
    return vm_throw(vm, VM_EXC_AIOOBE, "Array index out of range: %lld", (long long)a[0].i);
}

/* throw new <cls>(msg): cls is the class name, e.g. "java.security.ProviderException" */
static int n_throwNew(vm_t *vm, vm_value *a, vm_value *r)
{
    (void)r;
    const vm_obj *cls = a[0].ref, *msg = a[1].ref;
    if (!cls)
        return null_arg(vm);
    int cl = cls->length < (int32_t)sizeof vm->exc_name ? cls->length : (int32_t)sizeof vm->exc_name - 1;
    vm_throw(vm, VM_EXC_NAMED, "%.*s", msg ? msg->length : 0, msg ? (const char *)msg->data : "");
    memcpy(vm->exc_name, cls->data, (size_t)cl);
    vm->exc_name[cl] = '\0';
    return VM_EXCEPTION;
}

#define SYS_ENTRY(name, signature) {#name, n_##name},
#define SYS_NO_ENTRY(text)
static const struct {
    const char *name;
    vm_native_fn fn;
} sys_natives[] = {SYS_NATIVES(SYS_ENTRY, SYS_NO_ENTRY)};
#undef SYS_ENTRY
#undef SYS_NO_ENTRY

static const struct {
    const char *name;
    vm_native_fn fn;
} arrays_natives[] = {
    {"equals", arrays_equals}, {"fill", arrays_fill}, {"fillInts", arrays_fill}, {"fillLongs", arrays_fill},
};

static const struct {
    const char *name;
    vm_native_fn fn;
} baa_natives[] = {
    {"i2bLittle", i2bLittle}, {"b2iBig", b2iBig}, {"i2bBig", i2bBig},
    {"b2lLittle", b2lLittle}, {"l2bLittle", l2bLittle}, {"b2lBig", b2lBig}, {"l2bBig", l2bBig},
};

#define FIND(table)                                                                                \
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)                                   \
        if (strcmp(table[i].name, name) == 0)                                                      \
            return table[i].fn;

/* Natives exist in Sys and in the built-in Arrays and ByteArrayAccess only: a program's own
   module of such a name has none. */
vm_native_fn vm_native_lookup(const char *module, bool builtin, const char *name)
{
    if (!builtin)
        return NULL;
    if (strcmp(module, "Sys") == 0) {
        FIND(sys_natives)
    } else if (strcmp(module, "Arrays") == 0) {
        FIND(arrays_natives)
    } else if (strcmp(module, "ByteArrayAccess") == 0) {
        FIND(baa_natives)
    }
    return NULL;
}
#undef FIND

/* vm/lib/ modules, embedded at build time (vm/lib/embed.py). */
const char *vm_lib_source(const char *module, size_t *len);

const char *vm_builtin_source(const char *module, size_t *len)
{
    if (strcmp(module, "Sys") == 0) {
        *len = sizeof sys_source - 1;
        return sys_source;
    }
    return vm_lib_source(module, len);
}
