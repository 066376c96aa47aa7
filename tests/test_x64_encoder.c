/*
 * tests/test_x64_encoder.c — the x86-64 encoder against llvm-mc's bytes.
 *
 *   test_x64_encoder GOLDENS HEADER [MIN_CASES_PER_FORM]
 *
 * GOLDENS is tests/data/x64_goldens.txt (tests/gen_x64_goldens.py; the live
 * test passes a fresh sample). Each line names a form, the operands of the C
 * call and llvm-mc's bytes; X64_FORMS below says which call each form makes.
 * On a mismatch the test prints the case, both byte strings, the first
 * differing byte and its bits, the assembly text and, when llvm-mc is
 * installed, what the encoder's bytes disassemble to.
 *
 * Also: every form has goldens and every encoder declared in HEADER is
 * exercised by a form (coverage); the refusals (one 0xcc in place of the
 * instruction, the first message kept, abort when fatal); labels (forward
 * rel32 patched at bind, backward short form, too many forward jumps);
 * x64_align's nops; the raw emitters and the buffer's size probe.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "assembler_x86_64.h"
#include "golden.h"
#include "x64_sdm_nops.h"

/* ---- the forms: name, operand count, the encoder call (operands in a[]) ---- */

#define R(k)   ((x64_reg)a[k])
#define V(k)   ((x64_vreg)a[k])
#define K(k)   ((x64_kreg)a[k])
#define L(k)   ((x64_vlen)a[k])
#define Z(k)   (a[k] != 0)
#define I(k)   ((int)a[k])
#define I32(k) ((int32_t)a[k])
#define ALU(k) ((x64_alu)a[k])
/* a memory operand takes four: base index scale disp (index -1: none) */
#define M(k)   x64_at_index((x64_reg)a[k], (x64_reg)a[(k) + 1], (int)a[(k) + 2], (int32_t)a[(k) + 3])

/* The bytes a case compares: start..end of the buffer (default: all of it). */
typedef struct span {
    size_t start, end;
} span;

static void pad(x64_asm *as, int64_t n)
{
    for (int64_t k = 0; k < n; k++)
        x64_emit_u8(as, 0x90);
}

/* jmp/jcc: a[dist] is the label's distance from the jump's first byte; <= 0
 * the label is bound before the jump, > 0 after it. */
#define JUMP_CASE(dist, call)                                                 \
    do {                                                                      \
        x64_label label_, *l = &label_;                                       \
        x64_label_init(l);                                                    \
        int64_t d_ = (dist);                                                  \
        if (d_ <= 0) {                                                        \
            x64_bind(as, l);                                                  \
            pad(as, -d_);                                                     \
            s->start = as->cb.pos;                                               \
            call;                                                             \
            s->end = as->cb.pos;                                                 \
        } else {                                                              \
            call;                                                             \
            s->end = as->cb.pos;                                                 \
            pad(as, d_ - (int64_t)as->cb.pos);                                   \
            x64_bind(as, l);                                                  \
        }                                                                     \
    } while (0)
/* lea_rip: the instruction starts at offset off */
#define AT_OFFSET(off, call) \
    do {                     \
        pad(as, (off));      \
        s->start = as->cb.pos;  \
        call;                \
    } while (0)

#define X64_FORMS(X)                                                                         \
    X(mov_rr,           2,  x64_mov_rr(as, R(0), R(1)))                                      \
    X(mov_rm,           5,  x64_mov_rm(as, R(0), M(1)))                                      \
    X(mov_mr,           5,  x64_mov_mr(as, M(0), R(4)))                                      \
    X(mov_ri,           2,  x64_mov_ri(as, R(0), a[1]))                                      \
    X(mov_rr_32,        2,  x64_mov_rr_32(as, R(0), R(1)))                                   \
    X(mov_rm_32,        5,  x64_mov_rm_32(as, R(0), M(1)))                                   \
    X(mov_mr_32,        5,  x64_mov_mr_32(as, M(0), R(4)))                                   \
    X(lea,              5,  x64_lea(as, R(0), M(1)))                                         \
    X(lea_rip,          3,  AT_OFFSET(a[1], x64_lea_rip(as, R(0), (size_t)a[2])))           \
    X(alu_rr,           3,  x64_alu_rr(as, ALU(0), R(1), R(2)))                              \
    X(alu_rm,           6,  x64_alu_rm(as, ALU(0), R(1), M(2)))                              \
    X(alu_rm_32,        6,  x64_alu_rm_32(as, ALU(0), R(1), M(2)))                           \
    X(alu_mr,           6,  x64_alu_mr(as, ALU(0), M(1), R(5)))                              \
    X(alu_ri,           3,  x64_alu_ri(as, ALU(0), R(1), I32(2)))                            \
    X(alu_mi,           6,  x64_alu_mi(as, ALU(0), M(1), I32(5)))                            \
    X(alu_mi_32,        6,  x64_alu_mi_32(as, ALU(0), M(1), I32(5)))                            \
    X(alu_rr_32,        3,  x64_alu_rr_32(as, ALU(0), R(1), R(2)))                           \
    X(alu_ri_32,        3,  x64_alu_ri_32(as, ALU(0), R(1), I32(2)))                         \
    X(test_rr,          2,  x64_test_rr(as, R(0), R(1)))                                     \
    X(test_ri_32,       2,  x64_test_ri_32(as, R(0), I32(1)))                                \
    X(not,              1,  x64_not(as, R(0)))                                               \
    X(not_32,           1,  x64_not_32(as, R(0)))                                            \
    X(not_m,            4,  x64_not_m(as, M(0)))                                             \
    X(shift_ri,         3,  x64_shift_ri(as, (x64_shift)a[0], R(1), I(2)))                   \
    X(shift_ri_32,      3,  x64_shift_ri_32(as, (x64_shift)a[0], R(1), I(2)))                \
    X(andn,             3,  x64_andn(as, R(0), R(1), R(2)))                                  \
    X(andn_m,           6,  x64_andn_m(as, R(0), R(1), M(2)))                                \
    X(rorx,             3,  x64_rorx(as, R(0), R(1), I(2)))                                  \
    X(rorx_32,          3,  x64_rorx_32(as, R(0), R(1), I(2)))                               \
    X(rorx_m,           6,  x64_rorx_m(as, R(0), M(1), I(5)))                                \
    X(push,             1,  x64_push(as, R(0)))                                              \
    X(pop,              1,  x64_pop(as, R(0)))                                               \
    X(leave,            0,  x64_leave(as))                                                   \
    X(ret,              0,  x64_ret(as))                                                     \
    X(jmp,              1,  JUMP_CASE(a[0], x64_jmp(as, l)))                                 \
    X(jcc,              2,  JUMP_CASE(a[1], x64_jcc(as, (x64_cond)a[0], l)))                 \
    X(call_r,           1,  x64_call_r(as, R(0)))                                            \
    X(ud2,              0,  x64_ud2(as))                                                     \
    X(nop,              0,  x64_nop(as))                                                     \
    X(vmovdqu_load,     6,  x64_vmovdqu_load(as, L(0), V(1), M(2)))                          \
    X(vmovdqu_store,    6,  x64_vmovdqu_store(as, L(0), M(1), V(5)))                         \
    X(vmovdqa_rr,       3,  x64_vmovdqa_rr(as, L(0), V(1), V(2)))                            \
    X(vmovq_xr,         2,  x64_vmovq_xr(as, V(0), R(1)))                                    \
    X(vmovq_rx,         2,  x64_vmovq_rx(as, R(0), V(1)))                                    \
    X(vmovq_load,       5,  x64_vmovq_load(as, V(0), M(1)))                                  \
    X(vmovq_store,      5,  x64_vmovq_store(as, M(0), V(4)))                                 \
    X(vop_rrr,          5,  x64_vop_rrr(as, (x64_vop)a[0], L(1), V(2), V(3), V(4)))          \
    X(vop_rrm,          8,  x64_vop_rrm(as, (x64_vop)a[0], L(1), V(2), V(3), M(4)))          \
    X(vpsllq_i,         4,  x64_vpsllq_i(as, L(0), V(1), V(2), I(3)))                        \
    X(vpsrlq_i,         4,  x64_vpsrlq_i(as, L(0), V(1), V(2), I(3)))                        \
    X(vpslld_i,         4,  x64_vpslld_i(as, L(0), V(1), V(2), I(3)))                        \
    X(vpsrld_i,         4,  x64_vpsrld_i(as, L(0), V(1), V(2), I(3)))                        \
    X(vpermq,           3,  x64_vpermq(as, V(0), V(1), I(2)))                                \
    X(vpblendd,         5,  x64_vpblendd(as, L(0), V(1), V(2), V(3), I(4)))                  \
    X(vpshufd,          4,  x64_vpshufd(as, L(0), V(1), V(2), I(3)))                         \
    X(vperm2i128,       4,  x64_vperm2i128(as, V(0), V(1), V(2), I(3)))                      \
    X(vpbroadcastq_m,   6,  x64_vpbroadcastq_m(as, L(0), V(1), M(2)))                        \
    X(vpbroadcastq_x,   3,  x64_vpbroadcastq_x(as, L(0), V(1), V(2)))                        \
    X(vzeroupper,       0,  x64_vzeroupper(as))                                              \
    X(evmovdqu64_load,  8,  x64_evmovdqu64_load(as, L(0), V(1), K(2), Z(3), M(4)))           \
    X(evmovdqu64_store, 7,  x64_evmovdqu64_store(as, L(0), M(1), K(5), V(6)))                \
    X(evmovdqu64_rr,    5,  x64_evmovdqu64_rr(as, L(0), V(1), K(2), Z(3), V(4)))             \
    X(evmovdqu8_load,   8,  x64_evmovdqu8_load(as, L(0), V(1), K(2), Z(3), M(4)))            \
    X(evmovdqu8_store,  7,  x64_evmovdqu8_store(as, L(0), M(1), K(5), V(6)))                 \
    X(evmovdqu16_rr,    3,  x64_evmovdqu16_rr(as, L(0), V(1), V(2)))                         \
    X(evop_rrr,         7,  x64_evop_rrr(as, (x64_evop)a[0], L(1), V(2), K(3), Z(4), V(5), V(6))) \
    X(evop_rrm,         10, x64_evop_rrm(as, (x64_evop)a[0], L(1), V(2), K(3), Z(4), V(5), M(6))) \
    X(vpternlogq,       5,  x64_vpternlogq(as, L(0), V(1), V(2), V(3), I(4)))                \
    X(vpternlogq_m,     8,  x64_vpternlogq_m(as, L(0), V(1), V(2), M(3), I(7)))              \
    X(vprolq,           4,  x64_vprolq(as, L(0), V(1), V(2), I(3)))                          \
    X(evpbroadcastq_m,  6,  x64_evpbroadcastq_m(as, L(0), V(1), M(2)))                       \
    X(evpbroadcastq_r,  3,  x64_evpbroadcastq_r(as, L(0), V(1), R(2)))                       \
    X(kmovw_kr,         2,  x64_kmovw_kr(as, K(0), R(1)))                                    \
    X(kmovw_rk,         2,  x64_kmovw_rk(as, R(0), K(1)))                                    \
    X(kmovq_kr,         2,  x64_kmovq_kr(as, K(0), R(1)))                                    \
    X(kshiftrw,         3,  x64_kshiftrw(as, K(0), K(1), I(2)))                              \
    X(kshiftlw,         3,  x64_kshiftlw(as, K(0), K(1), I(2)))                              \
    X(vpinsrq_m,        7,  x64_vpinsrq_m(as, V(0), V(1), M(2), I(6)))                       \
    X(vinserti128,      4,  x64_vinserti128(as, V(0), V(1), V(2), I(3)))                   \
    X(vpshufb,          4,  x64_vpshufb(as, L(0), V(1), V(2), V(3)))                         \
    X(vpalignr,         5,  x64_vpalignr(as, L(0), V(1), V(2), V(3), I(4)))                  \
    X(movdqu_load,      5,  x64_movdqu_load(as, V(0), M(1)))                                 \
    X(movdqu_store,     5,  x64_movdqu_store(as, M(0), V(4)))                                \
    X(movdqa_rr,        2,  x64_movdqa_rr(as, V(0), V(1)))                                   \
    X(sse_rr,           3,  x64_sse_rr(as, (x64_sseop)a[0], V(1), V(2)))                     \
    X(sse_rm,           6,  x64_sse_rm(as, (x64_sseop)a[0], V(1), M(2)))                     \
    X(sse_rri,          4,  x64_sse_rri(as, (x64_sseop_i)a[0], V(1), V(2), I(3)))            \
    X(pinsrd_m,         6,  x64_pinsrd_m(as, V(0), M(1), I(5)))                              \
    X(pextrd_m,         6,  x64_pextrd_m(as, M(0), V(4), I(5)))                              \
    X(imul_rr,          2,  x64_imul_rr(as, R(0), R(1)))                                     \
    X(imul_rm,          5,  x64_imul_rm(as, R(0), M(1)))                                     \
    X(imul_rri,         3,  x64_imul_rri(as, R(0), R(1), I32(2)))                            \
    X(cqo,              0,  x64_cqo(as))                                                     \
    X(idiv,             1,  x64_idiv(as, R(0)))                                              \
    X(neg,              1,  x64_neg(as, R(0)))                                               \
    X(shift_rcl,        2,  x64_shift_rcl(as, (x64_shift)a[0], R(1)))                        \
    X(shift_rcl_32,     2,  x64_shift_rcl_32(as, (x64_shift)a[0], R(1)))                     \
    X(movsxb_rm,        5,  x64_movsxb_rm(as, R(0), M(1)))                                   \
    X(movsxd_rm,        5,  x64_movsxd_rm(as, R(0), M(1)))                                   \
    X(movsxd_rr,        2,  x64_movsxd_rr(as, R(0), R(1)))                                   \
    X(movzxb_rm_32,     5,  x64_movzxb_rm_32(as, R(0), M(1)))                                \
    X(mov_mr_8,         5,  x64_mov_mr_8(as, M(0), R(4)))                                    \
    X(bswap,            1,  x64_bswap(as, R(0)))                                             \
    X(bswap_32,         1,  x64_bswap_32(as, R(0)))                                          \
    X(mov_mi,           5,  x64_mov_mi(as, M(0), I32(4)))                                    \
    X(test_ri,          2,  x64_test_ri(as, R(0), I32(1)))                                   \
    X(jmp_r,            1,  x64_jmp_r(as, R(0)))                                             \
    X(jmp_m,            4,  x64_jmp_m(as, M(0)))                                             \
    X(call_m,           4,  x64_call_m(as, M(0)))                                            \
    X(setcc,            2,  x64_setcc(as, (x64_cond)a[0], R(1)))                             \
    X(cmovcc,           3,  x64_cmovcc(as, (x64_cond)a[0], R(1), R(2)))

#define ENCODER(name, nargs, call)                                    \
    static void enc_##name(x64_asm *as, const int64_t *a, span *s)    \
    {                                                                 \
        (void)a;                                                      \
        (void)s;                                                      \
        call;                                                         \
    }
X64_FORMS(ENCODER)
#undef ENCODER

/* the forms as the harness sees them (tests/golden.h) */
static golden_form forms[] = {X64_FORMS(GOLDEN_FORM)};
#define NFORMS (sizeof forms / sizeof forms[0])

static void (*const encoders[])(x64_asm *as, const int64_t *a, span *s) = {
#define ENC(name, nargs, call) enc_##name,
    X64_FORMS(ENC)
#undef ENC
};

/* form k's bytes (the span the form marks, by default all it wrote), or -1 with the refusal */
static long encode(size_t k, const int64_t *a, uint8_t *out, size_t cap, const char **err)
{
    static uint8_t code[1 << 17];
    x64_asm as;
    x64_asm_init(&as, code, sizeof code);
    as.cb.fatal = false;
    span s = {0, SIZE_MAX};
    encoders[k](&as, a, &s);
    if (s.end == SIZE_MAX)
        s.end = as.cb.pos;
    if (as.cb.failed) {
        static char why[256];
        snprintf(why, sizeof why, "%s", as.cb.errmsg);
        *err = why;
        return -1;
    }
    size_t n = s.end - s.start;
    if (n > cap)
        n = cap;
    memcpy(out, code + s.start, n);
    return (long)n;
}

/* the goldens' bytes: hex, blank-separated */
static size_t encoding(const char *field, uint8_t *want, size_t cap)
{
    size_t n = 0;
    for (const char *p = field; n < cap;) {
        char *e;
        unsigned long v = strtoul(p, &e, 16);
        if (e == p)
            break;
        want[n++] = (uint8_t)v;
        p = e;
    }
    return n;
}

/* buffer and label plumbing is tested below, not by goldens */
static const char *const unexercised[] = {"x64_asm_init(", "x64_emit_u8(", "x64_emit_u64(", "x64_align(", "x64_bind(",
                                          NULL};

static const golden_arch x64 = {
    "x64_", "-triple=x86_64 -output-asm-variant=1 -mattr=+avx2,+bmi,+bmi2,+avx512f,+avx512bw,+avx512vl,+avx512dq,+sha",
    "#", 1, forms, NFORMS, unexercised, true, encode, encoding};

static const char *disassemble(const uint8_t *b, size_t n, char *out, size_t size)
{
    return golden_disassemble(&x64, b, n, out, size);
}

/* ---- encodings the goldens cannot hold ----------------------------------- */

/* test eax, imm32: llvm-mc writes A9 id for the text; the header promises F7 /0 id. */
static void test_fixed_encodings(void **state)
{
    (void)state;
    uint8_t buf[16];
    x64_asm as;
    x64_asm_init(&as, buf, sizeof buf);
    x64_test_ri_32(&as, X64_RAX, 0x12345678);
    static const uint8_t want[] = { 0xf7, 0xc0, 0x78, 0x56, 0x34, 0x12 };
    assert_false(as.cb.failed);
    assert_int_equal(as.cb.pos, sizeof want);
    assert_memory_equal(buf, want, sizeof want);
    if (golden_have_llvm_mc()) {
        char d[256];
        disassemble(buf, as.cb.pos, d, sizeof d);
        if (!strstr(d, "test") || !strstr(d, "eax, 305419896"))
            fail_msg("test_ri_32 eax: llvm-mc reads %s", d);
    }
}

/* ---- refusals ------------------------------------------------------------ */

static x64_asm *fresh(x64_asm *as, uint8_t *buf, size_t n)
{
    memset(buf, 0xee, n);
    x64_asm_init(as, buf, n);
    as->cb.fatal = false;
    return as;
}

/* prefix == NULL: the call must be accepted. Else refused: the message starts
 * with prefix, one 0xcc is emitted, and a later refusal keeps that message. */
static void check_refusal(x64_asm *as, const uint8_t *buf, const char *call, const char *prefix)
{
    if (prefix == NULL) {
        if (as->cb.failed)
            fail_msg("%s: refused: %s", call, as->cb.errmsg);
        return;
    }
    if (!as->cb.failed)
        fail_msg("%s: accepted (%zu bytes)", call, as->cb.pos);
    if (strncmp(as->cb.errmsg, prefix, strlen(prefix)) != 0)
        fail_msg("%s: message '%s' does not start with '%s'", call, as->cb.errmsg, prefix);
    if (as->cb.pos != 1 || buf[0] != 0xcc)
        fail_msg("%s: emitted %zu bytes (first 0x%02x), want one 0xcc", call, as->cb.pos, buf[0]);
    x64_shift_ri(as, X64_SHL, X64_RAX, 64);     /* a second refusal */
    if (strncmp(as->cb.errmsg, prefix, strlen(prefix)) != 0)
        fail_msg("%s: the first message was replaced by '%s'", call, as->cb.errmsg);
    assert_int_equal(as->cb.pos, 2);
    assert_int_equal(buf[1], 0xcc);
}

static void test_refusals(void **state)
{
    (void)state;
    uint8_t buf[32];
    x64_asm storage;
    x64_label lbl;
    x64_label_init(&lbl);
    const x64_mem m = x64_at(X64_RAX, 0);
#define REFUSED(call, prefix)                                      \
    {                                                              \
        x64_asm *as = fresh(&storage, buf, sizeof buf);            \
        call;                                                      \
        check_refusal(as, buf, #call, prefix);                     \
    }
#define ACCEPTED(call) REFUSED(call, NULL)
    /* One line per behaviour: the call and, when refused, the start of the message. */
    /* VEX encodes xmm0..xmm15 only, 128 or 256 bits */
    REFUSED(x64_vop_rrr(as, X64_VPXOR, X64_L128, X64_XMM16, X64_XMM1, X64_XMM2),
            "vop_rrr: dst: xmm16 needs EVEX")
    REFUSED(x64_vop_rrr(as, X64_VPXOR, X64_L128, X64_XMM0, X64_XMM31, X64_XMM2),
            "vop_rrr: a: xmm31 needs EVEX")
    REFUSED(x64_vop_rrm(as, X64_VPAND, X64_L256, X64_XMM17, X64_XMM1, m), "vop_rrm: dst: xmm17 needs EVEX")
    REFUSED(x64_vop_rrr(as, X64_VPOR, X64_L256, X64_XMM0, X64_XMM1, X64_XMM20),
            "vop_rrr: b: xmm20 needs EVEX")
    ACCEPTED(x64_vop_rrr(as, X64_VPOR, X64_L256, X64_XMM15, X64_XMM15, X64_XMM15))
    REFUSED(x64_vmovdqu_load(as, X64_L256, X64_XMM16, m), "vmovdqu_load: dst: xmm16 needs EVEX")
    REFUSED(x64_vmovdqu_store(as, X64_L256, m, X64_XMM31), "vmovdqu_store: src: xmm31 needs EVEX")
    REFUSED(x64_vmovdqa_rr(as, X64_L128, X64_XMM1, X64_XMM16), "vmovdqa_rr: src: xmm16 needs EVEX")
    REFUSED(x64_vmovq_xr(as, X64_XMM20, X64_RAX), "vmovq_xr: dst: xmm20 needs EVEX")
    REFUSED(x64_vmovq_store(as, m, X64_XMM16), "vmovq_store: src: xmm16 needs EVEX")
    REFUSED(x64_vpbroadcastq_x(as, X64_L256, X64_XMM0, X64_XMM16), "vpbroadcastq_x: src: xmm16 needs EVEX")
    REFUSED(x64_vpermq(as, X64_XMM16, X64_XMM0, 0), "vpermq: dst: xmm16 needs EVEX")
    REFUSED(x64_vperm2i128(as, X64_XMM0, X64_XMM1, X64_XMM18, 0), "vperm2i128: b: xmm18 needs EVEX")
    REFUSED(x64_vop_rrr(as, X64_VPXOR, X64_L512, X64_XMM0, X64_XMM1, X64_XMM2),
            "vop_rrr: 512-bit vectors need EVEX")
    REFUSED(x64_vpshufb(as, X64_L512, X64_XMM0, X64_XMM1, X64_XMM2), "vpshufb: 512-bit vectors need EVEX")
    REFUSED(x64_vpalignr(as, X64_L256, X64_XMM0, X64_XMM16, X64_XMM2, 8), "vpalignr: a: xmm16 needs EVEX")
    /* SSE (legacy): xmm0..xmm15; sha1rnds4's function 0..3; pinsrd/pextrd's dword 0..3 */
    REFUSED(x64_sse_rr(as, X64_PADDD, X64_XMM16, X64_XMM1), "sse_rr: dst: xmm16 needs EVEX (SSE encodes")
    REFUSED(x64_sse_rm(as, X64_SHA256RNDS2, X64_XMM1, x64_at_index(X64_RAX, X64_RSP, 1, 0)),
            "sse_rm: src: index rsp")
    REFUSED(x64_movdqu_store(as, m, X64_XMM31), "movdqu_store: src: xmm31 needs EVEX")
    REFUSED(x64_movdqa_rr(as, X64_XMM0, (x64_vreg)32), "movdqa_rr: src: 32 is not a vector register")
    ACCEPTED(x64_sse_rri(as, X64_SHA1RNDS4, X64_XMM15, X64_XMM8, 3))
    REFUSED(x64_sse_rri(as, X64_SHA1RNDS4, X64_XMM1, X64_XMM2, 4), "sse_rri: imm8 = 4 is outside 0..3")
    ACCEPTED(x64_sse_rri(as, X64_PALIGNR, X64_XMM1, X64_XMM2, 255))
    REFUSED(x64_sse_rri(as, X64_PBLENDW, X64_XMM1, X64_XMM2, 256), "sse_rri: imm8 = 256 is outside 0..255")
    REFUSED(x64_pinsrd_m(as, X64_XMM1, m, 4), "pinsrd_m: pinsrd index = 4 is outside 0..3")
    REFUSED(x64_pextrd_m(as, m, X64_XMM1, -1), "pextrd_m: pextrd index = -1 is outside 0..3")
    REFUSED(x64_vmovdqu_load(as, X64_L512, X64_XMM0, m), "vmovdqu_load: 512-bit vectors need EVEX")
    REFUSED(x64_vpbroadcastq_m(as, X64_L512, X64_XMM0, m), "vpbroadcastq_m: 512-bit vectors need EVEX")
    REFUSED(x64_vpsllq_i(as, X64_L512, X64_XMM0, X64_XMM1, 3), "vpsllq_i: 512-bit vectors need EVEX")
    REFUSED(x64_vpblendd(as, X64_L512, X64_XMM0, X64_XMM1, X64_XMM2, 3),
            "vpblendd: 512-bit vectors need EVEX")
    /* EVEX: xmm0..xmm31; vpermq with a vector of indices has no 128-bit form */
    ACCEPTED(x64_evop_rrr(as, X64_VPXORQ, X64_L512, X64_XMM31, X64_K0, false, X64_XMM31, X64_XMM31))
    REFUSED(x64_evop_rrr(as, X64_VPERMQ_V, X64_L128, X64_XMM0, X64_K0, false, X64_XMM1, X64_XMM2),
            "evop_rrr: no 128-bit form (256 bits or more)")
    REFUSED(x64_evop_rrm(as, X64_VPERMQ_V, X64_L128, X64_XMM0, X64_K0, false, X64_XMM1, m),
            "evop_rrm: no 128-bit form")
    ACCEPTED(x64_evop_rrr(as, X64_VPERMQ_V, X64_L256, X64_XMM0, X64_K0, false, X64_XMM1, X64_XMM2))
    REFUSED(x64_evmovdqu64_rr(as, (x64_vlen)3, X64_XMM0, X64_K0, false, X64_XMM1),
            "evmovdqu64_rr: vector length 3 is not")
    REFUSED(x64_vpternlogq(as, X64_L512, X64_XMM0, X64_XMM1, (x64_vreg)32, 0x96),
            "vpternlogq: b: 32 is not a vector register")
    /* writemasks: k0 means none; zeroing needs a real one; a store with k0 is unmasked */
    REFUSED(x64_evmovdqu64_load(as, X64_L512, X64_XMM0, X64_K0, true, m),
            "evmovdqu64_load: zeroing needs a writemask k1..k7")
    REFUSED(x64_evmovdqu64_rr(as, X64_L512, X64_XMM0, X64_K0, true, X64_XMM1),
            "evmovdqu64_rr: zeroing needs a writemask")
    REFUSED(x64_evmovdqu8_load(as, X64_L256, X64_XMM0, X64_K0, true, m),
            "evmovdqu8_load: zeroing needs a writemask")
    REFUSED(x64_evop_rrr(as, X64_VPANDQ, X64_L512, X64_XMM0, X64_K0, true, X64_XMM1, X64_XMM2),
            "evop_rrr: zeroing needs a writemask")
    REFUSED(x64_evop_rrm(as, X64_VPORQ, X64_L512, X64_XMM0, X64_K0, true, X64_XMM1, m),
            "evop_rrm: zeroing needs a writemask")
    ACCEPTED(x64_evmovdqu64_load(as, X64_L512, X64_XMM0, X64_K1, true, m))
    ACCEPTED(x64_evmovdqu64_load(as, X64_L512, X64_XMM0, X64_K0, false, m))
    ACCEPTED(x64_evmovdqu64_store(as, X64_L512, m, X64_K0, X64_XMM1))
    ACCEPTED(x64_evmovdqu8_store(as, X64_L512, m, X64_K0, X64_XMM1))
    REFUSED(x64_evmovdqu64_store(as, X64_L512, m, (x64_kreg)8, X64_XMM1),
            "evmovdqu64_store: k: 8 is not a mask register")
    REFUSED(x64_kmovw_kr(as, (x64_kreg)8, X64_RAX), "kmovw_kr: dst: 8 is not a mask register")
    /* memory operands */
    REFUSED(x64_mov_rm(as, X64_RAX, x64_at_index(X64_RBX, X64_RSP, 1, 0)),
            "mov_rm: src: index rsp is not encodable")
    REFUSED(x64_evmovdqu64_load(as, X64_L512, X64_XMM0, X64_K0, false, x64_at_index(X64_RBX, X64_RSP, 8, 64)),
            "evmovdqu64_load: src: index rsp")
    ACCEPTED(x64_mov_rm(as, X64_RAX, x64_at_index(X64_RSP, X64_R12, 8, 0)))
    ACCEPTED(x64_mov_rm(as, X64_RAX, x64_at_index(X64_R13, X64_NOREG, 1, 0)))
    REFUSED(x64_lea(as, X64_RAX, x64_at_index(X64_RBX, X64_RCX, 3, 0)),
            "lea: src: scale 3 is not 1, 2, 4 or 8")
    REFUSED(x64_lea(as, X64_RAX, x64_at_index(X64_RBX, X64_RCX, 0, 0)), "lea: src: scale 0")
    REFUSED(x64_vmovdqu_load(as, X64_L128, X64_XMM0, x64_at_index(X64_RBX, X64_RCX, 16, 0)),
            "vmovdqu_load: src: scale 16")
    REFUSED(x64_mov_mr(as, x64_at(X64_NOREG, 8), X64_RAX), "mov_mr: dst: base -1 is not a general register")
    REFUSED(x64_not_m(as, x64_at_index(X64_RAX, (x64_reg)16, 1, 0)),
            "not_m: m: index 16 is not a general register")
    /* registers */
    REFUSED(x64_mov_rr(as, (x64_reg)16, X64_RAX), "mov_rr: dst: 16 is not a general register")
    REFUSED(x64_push(as, (x64_reg)-1), "push: r: -1 is not a general register")
    /* immediates: shift counts 0..63, imm8 0..255 */
    ACCEPTED(x64_shift_ri(as, X64_SAR, X64_R15, 63))
    ACCEPTED(x64_shift_ri(as, X64_ROL, X64_R15, 0))
    REFUSED(x64_shift_ri(as, X64_SHR, X64_RAX, 64), "shift_ri: imm = 64 is outside 0..63")
    ACCEPTED(x64_shift_ri_32(as, X64_ROL, X64_R15, 31))
    REFUSED(x64_shift_ri_32(as, X64_ROL, X64_RAX, 32), "shift_ri_32: imm = 32 is outside 0..31")
    ACCEPTED(x64_rorx_32(as, X64_R15, X64_RAX, 31))
    REFUSED(x64_rorx_32(as, X64_RAX, X64_RAX, 32), "rorx_32: imm = 32 is outside 0..31")
    REFUSED(x64_shift_ri(as, X64_SHR, X64_RAX, -1), "shift_ri: imm = -1 is outside 0..63")
    REFUSED(x64_rorx(as, X64_RAX, X64_RCX, 64), "rorx: imm = 64 is outside 0..63")
    REFUSED(x64_rorx_m(as, X64_RAX, m, -1), "rorx_m: imm = -1 is outside 0..63")
    REFUSED(x64_vprolq(as, X64_L512, X64_XMM0, X64_XMM1, 64), "vprolq: imm8 = 64 is outside 0..63")
    ACCEPTED(x64_vpsllq_i(as, X64_L256, X64_XMM0, X64_XMM1, 255))
    REFUSED(x64_vpsllq_i(as, X64_L256, X64_XMM0, X64_XMM1, 256), "vpsllq_i: imm = 256 is outside 0..255")
    REFUSED(x64_vpsrlq_i(as, X64_L128, X64_XMM0, X64_XMM1, -1), "vpsrlq_i: imm = -1 is outside 0..255")
    REFUSED(x64_vpermq(as, X64_XMM0, X64_XMM1, 256), "vpermq: imm8 = 256 is outside 0..255")
    REFUSED(x64_vpshufd(as, X64_L128, X64_XMM0, X64_XMM1, 256), "vpshufd: imm8 = 256")
    REFUSED(x64_vpblendd(as, X64_L128, X64_XMM0, X64_XMM1, X64_XMM2, -1), "vpblendd: imm8 = -1")
    REFUSED(x64_vperm2i128(as, X64_XMM0, X64_XMM1, X64_XMM2, 256), "vperm2i128: imm8 = 256")
    REFUSED(x64_vpternlogq_m(as, X64_L512, X64_XMM0, X64_XMM1, m, 256), "vpternlogq_m: imm8 = 256")
    REFUSED(x64_kshiftrw(as, X64_K1, X64_K2, 256), "kshiftrw: imm8 = 256 is outside 0..255")
    /* operation codes */
    REFUSED(x64_alu_rr(as, (x64_alu)6, X64_RAX, X64_RCX), "alu_rr: op 6 is not an x64_alu")
    REFUSED(x64_shift_ri(as, (x64_shift)2, X64_RAX, 1), "shift_ri: op 2 is not rol, ror, shl, shr or sar")
    REFUSED(x64_vop_rrr(as, (x64_vop)10, X64_L128, X64_XMM0, X64_XMM1, X64_XMM2),
            "vop_rrr: op 10 is not an x64_vop")
    REFUSED(x64_evop_rrm(as, (x64_evop)9, X64_L128, X64_XMM0, X64_K0, false, X64_XMM1, m),
            "evop_rrm: op 9 is not an x64_evop")
    REFUSED(x64_sse_rr(as, (x64_sseop)9, X64_XMM0, X64_XMM1), "sse_rr: op 9 is not an x64_sseop")
    REFUSED(x64_sse_rri(as, (x64_sseop_i)4, X64_XMM0, X64_XMM1, 0), "sse_rri: op 4 is not an x64_sseop_i")
    REFUSED(x64_jcc(as, (x64_cond)16, &lbl), "jcc: condition 16 is not an x64_cond")
    REFUSED(x64_setcc(as, (x64_cond)16, X64_RAX), "setcc: condition 16 is not an x64_cond")
    REFUSED(x64_cmovcc(as, (x64_cond)-1, X64_RAX, X64_RCX), "cmovcc: condition -1 is not an x64_cond")
    REFUSED(x64_shift_rcl(as, (x64_shift)3, X64_RAX), "shift_rcl: op 3 is not rol, ror, shl, shr or sar")
    REFUSED(x64_shift_rcl_32(as, (x64_shift)8, X64_RAX), "shift_rcl_32: op 8 is not rol")
    /* the baseline JIT's integer forms: operands checked as everywhere */
    REFUSED(x64_imul_rr(as, X64_RAX, (x64_reg)16), "imul_rr: src: 16 is not a general register")
    REFUSED(x64_imul_rri(as, (x64_reg)16, X64_RAX, 3), "imul_rri: dst: 16 is not a general register")
    REFUSED(x64_imul_rm(as, X64_RAX, x64_at_index(X64_RBX, X64_RSP, 1, 0)), "imul_rm: src: index rsp")
    REFUSED(x64_idiv(as, (x64_reg)-1), "idiv: r: -1 is not a general register")
    REFUSED(x64_neg(as, (x64_reg)16), "neg: r: 16 is not a general register")
    REFUSED(x64_movsxb_rm(as, X64_RAX, x64_at_index(X64_RBX, X64_RCX, 3, 0)), "movsxb_rm: src: scale 3")
    REFUSED(x64_movsxd_rr(as, X64_RAX, (x64_reg)16), "movsxd_rr: src: 16 is not a general register")
    REFUSED(x64_movzxb_rm_32(as, X64_RAX, x64_at(X64_NOREG, 0)), "movzxb_rm_32: src: base -1")
    REFUSED(x64_mov_mr_8(as, m, (x64_reg)16), "mov_mr_8: src: 16 is not a general register")
    REFUSED(x64_mov_mi(as, x64_at_index(X64_RAX, X64_RSP, 2, 8), 1), "mov_mi: dst: index rsp")
    REFUSED(x64_bswap(as, (x64_reg)16), "bswap: r: 16 is not a general register")
    REFUSED(x64_test_ri(as, (x64_reg)16, 1), "test_ri: a: 16 is not a general register")
    REFUSED(x64_jmp_r(as, (x64_reg)16), "jmp_r: r: 16 is not a general register")
    REFUSED(x64_call_m(as, x64_at_index(X64_RAX, X64_RSP, 1, 0)), "call_m: m: index rsp")
    REFUSED(x64_jmp_m(as, x64_at_index(X64_RAX, X64_RCX, 5, 0)), "jmp_m: m: scale 5")
    REFUSED(x64_setcc(as, X64_E, (x64_reg)16), "setcc: r: 16 is not a general register")
    /* rip-relative: the target within 2 GiB */
    REFUSED(x64_lea_rip(as, X64_RAX, (size_t)1 << 32), "lea_rip: target 4294967296 is beyond rip")
    ACCEPTED(x64_lea_rip(as, X64_RAX, (size_t)INT32_MAX + 7))
#undef REFUSED
#undef ACCEPTED
    assert_int_equal(lbl.npatch, 0);   /* the refused jcc left no patch behind */
}

/* With fatal (the default unless NDEBUG) a refusal prints the message and aborts. */
static void test_fatal(void **state)
{
    (void)state;
    uint8_t buf[4];
    x64_asm as;
    x64_asm_init(&as, buf, sizeof buf);
#ifdef NDEBUG
    assert_false(as.cb.fatal);
    as.cb.fatal = true;
#else
    assert_true(as.cb.fatal);
#endif
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        x64_shift_ri(&as, X64_SHL, X64_RAX, 64);
        _exit(0);   /* not reached */
    }
    close(fd[1]);
    char out[512] = { 0 };
    size_t n = 0;
    ssize_t r;
    while (n < sizeof out - 1 && (r = read(fd[0], out + n, sizeof out - 1 - n)) > 0)
        n += (size_t)r;
    close(fd[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
    if (!strstr(out, "x64 assembler: shift_ri: imm = 64 is outside 0..63"))
        fail_msg("fatal refusal printed '%s'", out);
}

/* ---- labels -------------------------------------------------------------- */

static void le32(uint8_t *p, int32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)((uint32_t)v >> (8 * k));
}

static void test_labels(void **state)
{
    (void)state;
    static uint8_t buf[4096];
    x64_asm as;
    x64_label top, out;

    /* forward: rel32, patched at bind */
    x64_asm_init(&as, buf, sizeof buf);
    x64_label_init(&out);
    x64_jmp(&as, &out);                 /* 0..4   e9 rel32 */
    x64_jcc(&as, X64_NE, &out);         /* 5..10  0f 85 rel32 */
    x64_nop(&as);                       /* 11 */
    x64_bind(&as, &out);                /* 12 */
    x64_ret(&as);
    uint8_t want[16] = { 0xe9, 0, 0, 0, 0, 0x0f, 0x85, 0, 0, 0, 0, 0x90, 0xc3 };
    le32(want + 1, 12 - 5);
    le32(want + 7, 12 - 11);
    assert_false(as.cb.failed);
    assert_int_equal(as.cb.pos, 13);
    assert_memory_equal(buf, want, 13);

    /* backward: the short form while the rel8 fits (target - (pc + 2) >= -128) */
    static const struct { int gap, cc; uint8_t b[6]; int len; } back[] = {
        /* gap: bytes between the label and the jump; cc -1: jmp */
        { 0,   -1,  { 0xeb, 0xfe }, 2 },
        { 126, -1,  { 0xeb, 0x80 }, 2 },                        /* rel8 -128 */
        { 127, -1,  { 0xe9, 0x7c, 0xff, 0xff, 0xff }, 5 },      /* rel32 -132 */
        { 0,   X64_E, { 0x74, 0xfe }, 2 },
        { 126, X64_G, { 0x7f, 0x80 }, 2 },
        { 127, X64_B, { 0x0f, 0x82, 0x7b, 0xff, 0xff, 0xff }, 6 },  /* rel32 -133 */
    };
    for (size_t k = 0; k < sizeof back / sizeof back[0]; k++) {
        x64_asm_init(&as, buf, sizeof buf);
        x64_label_init(&top);
        x64_bind(&as, &top);
        for (int g = 0; g < back[k].gap; g++)
            x64_nop(&as);
        if (back[k].cc < 0)
            x64_jmp(&as, &top);
        else
            x64_jcc(&as, (x64_cond)back[k].cc, &top);
        assert_false(as.cb.failed);
        if (as.cb.pos != (size_t)(back[k].gap + back[k].len) ||
            memcmp(buf + back[k].gap, back[k].b, (size_t)back[k].len) != 0)
            fail_msg("backward case %zu: %zu bytes", k, as.cb.pos - (size_t)back[k].gap);
    }

    /* one label, jumps from both sides: forward patched at bind, backward short */
    x64_asm_init(&as, buf, sizeof buf);
    x64_label_init(&top);
    x64_jcc(&as, X64_L, &top);          /* 0: 0f 8c rel32 = 6 - 6 = 0 */
    x64_bind(&as, &top);                /* 6 */
    x64_jmp(&as, &top);                 /* 6: eb fc */
    static const uint8_t both[] = { 0x0f, 0x8c, 0, 0, 0, 0, 0xeb, 0xfe };
    assert_int_equal(as.cb.pos, 8);
    assert_memory_equal(buf, both, 8);

    /* more forward jumps than a label keeps inline (a compiled method's exit has hundreds):
       the rest go to its heap array, and the bind patches every one */
    enum { MANY = 3 * CODE_LABEL_MAX_PATCHES + 1 };
    uint8_t many[5 * MANY];
    x64_asm_init(&as, many, sizeof many);
    as.cb.fatal = false;
    x64_label_init(&out);
    for (int k = 0; k < MANY; k++)
        x64_jmp(&as, &out);
    assert_false(as.cb.failed);
    assert_true(out.nmore > 0);
    x64_bind(&as, &out);
    assert_false(as.cb.failed);
    assert_null(out.more); /* freed at the bind */
    for (int k = 0; k < MANY; k++) {
        uint8_t w[5] = { 0xe9 };
        le32(w + 1, (int32_t)(5 * MANY - (5 * k + 5)));
        assert_memory_equal(many + 5 * k, w, 5);
    }

    /* binding twice fails the buffer */
    x64_asm_init(&as, buf, sizeof buf);
    as.cb.fatal = false;
    x64_label_init(&top);
    x64_bind(&as, &top);
    x64_bind(&as, &top);
    assert_true(as.cb.failed);
    assert_string_equal(as.cb.errmsg, "label bound twice");

    /* past the end: failed once, nothing written, pos keeps counting (a
     * forward jump's field beyond the end is not patched either) */
    uint8_t small[8];
    memset(small, 0xee, sizeof small);
    x64_asm_init(&as, small, 4);
    as.cb.fatal = false;
    x64_label_init(&out);
    x64_jmp(&as, &out);
    assert_true(as.cb.failed);
    assert_string_equal(as.cb.errmsg, "code buffer full (4 bytes)");
    x64_mov_ri(&as, X64_RAX, -1);
    x64_bind(&as, &out);
    assert_int_equal(as.cb.pos, 12);
    assert_int_equal(small[4], 0xee);
    assert_memory_equal(small, "\xe9\0\0\0", 4);

    /* a dry run without a buffer measures the code */
    x64_asm_init(&as, NULL, 0);
    as.cb.fatal = false;
    x64_label_init(&out);
    x64_jmp(&as, &out);
    x64_evmovdqu64_load(&as, X64_L512, X64_XMM1, X64_K1, true, x64_at(X64_RSP, 64));
    x64_bind(&as, &out);
    assert_int_equal(as.cb.pos, 5 + 8);
}

/* ---- x64_align and the raw emitters --------------------------------------- */


static void test_align(void **state)
{
    (void)state;
    uint8_t buf[256], want[256];
    for (size_t n = 1; n <= 64; n *= 2) {
        for (size_t start = 0; start < 70; start++) {
            x64_asm as;
            x64_asm_init(&as, buf, sizeof buf);
            for (size_t k = 0; k < start; k++)
                x64_emit_u8(&as, 0xcc);
            x64_align(&as, n);
            size_t pad = (n - start % n) % n;
            assert_false(as.cb.failed);
            assert_int_equal(as.cb.pos, start + pad);
            /* the longest nops first, the remainder last */
            size_t w = 0;
            for (size_t left = pad; left > 0;) {
                size_t len = left < 9 ? left : 9;
                memcpy(want + w, sdm_nops[len - 1], len);
                w += len;
                left -= len;
            }
            if (memcmp(buf + start, want, pad) != 0)
                fail_msg("align %zu from %zu: wrong padding", n, start);
        }
    }
    if (golden_have_llvm_mc()) {   /* each is one nop to the disassembler too */
        for (int len = 1; len <= 9; len++) {
            char d[256];
            disassemble(sdm_nops[len - 1], (size_t)len, d, sizeof d);
            if (strncmp(d, "nop", 3) != 0 || strchr(d, ';'))
                fail_msg("the %d-byte nop disassembles as '%s'", len, d);
        }
    }
    x64_asm as;
    x64_asm_init(&as, buf, sizeof buf);
    as.cb.fatal = false;
    x64_emit_u8(&as, 1);
    x64_align(&as, 3);
    assert_true(as.cb.failed);
    assert_string_equal(as.cb.errmsg, "align: 3 is not a power of two");
    assert_int_equal(as.cb.pos, 1);

    x64_asm_init(&as, buf, sizeof buf);
    x64_emit_u64(&as, 0x0102030405060708u);
    x64_emit_u8(&as, 0xab);
    assert_int_equal(as.cb.pos, 9);
    assert_memory_equal(buf, "\x08\x07\x06\x05\x04\x03\x02\x01\xab", 9);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_encodings),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_fatal),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_align),
    };
    return golden_main(argc, argv, &x64, 40, tests, sizeof tests / sizeof tests[0]);
}
