/*
 * tests/test_a64_encoder.c — the AArch64 encoder against llvm-mc's words.
 *
 *   test_a64_encoder GOLDENS HEADER [MIN_CASES_PER_FORM]
 *
 * GOLDENS is tests/data/a64_goldens.txt (tests/gen_a64_goldens.py; the live
 * test passes a fresh sample). Each line names a form, the operands of the C
 * call and llvm-mc's word; A64_FORMS below says which call each form makes.
 * On a mismatch the test prints the case, both words, the differing bits and,
 * when llvm-mc is installed, both disassemblies.
 *
 * Also: every form has goldens and every encoder declared in HEADER is
 * exercised by a form (coverage), the field setter and the encoders refuse
 * what does not fit, labels patch branches, the pseudo-instructions compute
 * what they promise (checked by a small interpreter, aliasing included).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "assembler_aarch64.h"
#include "golden.h"
#include "macroassembler_aarch64.h"

/* ---- the forms: name, operand count, the encoder call (operands in a[]) ---- */

#define R(k)  ((a64_reg)a[k])
#define V(k)  ((a64_vreg)a[k])
#define W(k)  ((a64_width)a[k])
#define SH(k) ((a64_shift)a[k])
#define T(k)  ((a64_arrangement)a[k])
#define I(k)  ((int)a[k])

#define A64_FORMS(X)                                                          \
    X(ldp,           4, a64_ldp(as, R(0), R(1), R(2), a[3]))                  \
    X(ldp_pre,       4, a64_ldp_pre(as, R(0), R(1), R(2), a[3]))              \
    X(ldp_post,      4, a64_ldp_post(as, R(0), R(1), R(2), a[3]))             \
    X(stp,           4, a64_stp(as, R(0), R(1), R(2), a[3]))                  \
    X(stp_pre,       4, a64_stp_pre(as, R(0), R(1), R(2), a[3]))              \
    X(stp_post,      4, a64_stp_post(as, R(0), R(1), R(2), a[3]))             \
    X(ldpd,          4, a64_ldpd(as, V(0), V(1), R(2), a[3]))                 \
    X(ldpd_pre,      4, a64_ldpd_pre(as, V(0), V(1), R(2), a[3]))             \
    X(ldpd_post,     4, a64_ldpd_post(as, V(0), V(1), R(2), a[3]))            \
    X(stpd,          4, a64_stpd(as, V(0), V(1), R(2), a[3]))                 \
    X(stpd_pre,      4, a64_stpd_pre(as, V(0), V(1), R(2), a[3]))             \
    X(stpd_post,     4, a64_stpd_post(as, V(0), V(1), R(2), a[3]))            \
    X(ldr,           3, a64_ldr(as, R(0), R(1), a[2]))                        \
    X(ldr_pre,       3, a64_ldr_pre(as, R(0), R(1), a[2]))                    \
    X(ldr_post,      3, a64_ldr_post(as, R(0), R(1), a[2]))                   \
    X(str,           3, a64_str(as, R(0), R(1), a[2]))                        \
    X(str_pre,       3, a64_str_pre(as, R(0), R(1), a[2]))                    \
    X(str_post,      3, a64_str_post(as, R(0), R(1), a[2]))                   \
    X(ldrd,          3, a64_ldrd(as, V(0), R(1), a[2]))                       \
    X(ldrd_pre,      3, a64_ldrd_pre(as, V(0), R(1), a[2]))                   \
    X(ldrd_post,     3, a64_ldrd_post(as, V(0), R(1), a[2]))                  \
    X(strd,          3, a64_strd(as, V(0), R(1), a[2]))                       \
    X(strd_pre,      3, a64_strd_pre(as, V(0), R(1), a[2]))                   \
    X(strd_post,     3, a64_strd_post(as, V(0), R(1), a[2]))                  \
    X(add_imm,       5, a64_add_imm(as, W(0), R(1), R(2), a[3], I(4)))        \
    X(sub_imm,       5, a64_sub_imm(as, W(0), R(1), R(2), a[3], I(4)))        \
    X(adds_imm,      5, a64_adds_imm(as, W(0), R(1), R(2), a[3], I(4)))       \
    X(subs_imm,      5, a64_subs_imm(as, W(0), R(1), R(2), a[3], I(4)))       \
    X(cmp_imm,       4, a64_cmp_imm(as, W(0), R(1), a[2], I(3)))              \
    X(add_reg,       6, a64_add_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5)))  \
    X(sub_reg,       6, a64_sub_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5)))  \
    X(adds_reg,      6, a64_adds_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5))) \
    X(subs_reg,      6, a64_subs_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5))) \
    X(cmp_reg,       5, a64_cmp_reg(as, W(0), R(1), R(2), SH(3), I(4)))       \
    X(and_reg,       6, a64_and_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5)))  \
    X(bic_reg,       6, a64_bic_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5)))  \
    X(orr_reg,       6, a64_orr_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5)))  \
    X(orn_reg,       6, a64_orn_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5)))  \
    X(eor_reg,       6, a64_eor_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5)))  \
    X(eon_reg,       6, a64_eon_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5)))  \
    X(ands_reg,      6, a64_ands_reg(as, W(0), R(1), R(2), R(3), SH(4), I(5))) \
    X(mov_reg,       3, a64_mov_reg(as, W(0), R(1), R(2)))                    \
    X(extr,          4, a64_extr(as, R(0), R(1), R(2), I(3)))                 \
    X(extr_w,        4, a64_extr_w(as, R(0), R(1), R(2), I(3)))               \
    X(ubfm,          5, a64_ubfm(as, W(0), R(1), R(2), I(3), I(4)))           \
    X(movn,          4, a64_movn(as, W(0), R(1), a[2], I(3)))                 \
    X(movz,          4, a64_movz(as, W(0), R(1), a[2], I(3)))                 \
    X(movk,          4, a64_movk(as, W(0), R(1), a[2], I(3)))                 \
    X(mrs,           2, a64_mrs(as, R(0), (a64_sysreg)a[1]))                  \
    X(b_off,         1, a64_b_off(as, a[0]))                                  \
    X(b_cond_off,    2, a64_b_cond_off(as, (a64_cond)a[0], a[1]))             \
    X(cbz_off,       3, a64_cbz_off(as, W(0), R(1), a[2]))                    \
    X(cbnz_off,      3, a64_cbnz_off(as, W(0), R(1), a[2]))                   \
    X(tbz_off,       3, a64_tbz_off(as, R(0), I(1), a[2]))                    \
    X(tbnz_off,      3, a64_tbnz_off(as, R(0), I(1), a[2]))                   \
    X(ret,           1, a64_ret(as, R(0)))                                    \
    X(br,            1, a64_br(as, R(0)))                                     \
    X(blr,           1, a64_blr(as, R(0)))                                    \
    X(ldrw,          3, a64_ldrw(as, R(0), R(1), a[2]))                       \
    X(strw,          3, a64_strw(as, R(0), R(1), a[2]))                       \
    X(ldrsw,         3, a64_ldrsw(as, R(0), R(1), a[2]))                      \
    X(ldrb,          3, a64_ldrb(as, R(0), R(1), a[2]))                       \
    X(strb,          3, a64_strb(as, R(0), R(1), a[2]))                       \
    X(ldrsb,         3, a64_ldrsb(as, R(0), R(1), a[2]))                      \
    X(ldr_reg,       4, a64_ldr_reg(as, R(0), R(1), R(2), I(3)))              \
    X(str_reg,       4, a64_str_reg(as, R(0), R(1), R(2), I(3)))              \
    X(ldrw_reg,      4, a64_ldrw_reg(as, R(0), R(1), R(2), I(3)))             \
    X(strw_reg,      4, a64_strw_reg(as, R(0), R(1), R(2), I(3)))             \
    X(ldrsw_reg,     4, a64_ldrsw_reg(as, R(0), R(1), R(2), I(3)))            \
    X(ldrb_reg,      4, a64_ldrb_reg(as, R(0), R(1), R(2), I(3)))             \
    X(strb_reg,      4, a64_strb_reg(as, R(0), R(1), R(2), I(3)))             \
    X(ldrsb_reg,     4, a64_ldrsb_reg(as, R(0), R(1), R(2), I(3)))            \
    X(sbfm,          5, a64_sbfm(as, W(0), R(1), R(2), I(3), I(4)))           \
    X(udiv,          4, a64_udiv(as, W(0), R(1), R(2), R(3)))                 \
    X(sdiv,          4, a64_sdiv(as, W(0), R(1), R(2), R(3)))                 \
    X(lslv,          4, a64_lslv(as, W(0), R(1), R(2), R(3)))                 \
    X(lsrv,          4, a64_lsrv(as, W(0), R(1), R(2), R(3)))                 \
    X(asrv,          4, a64_asrv(as, W(0), R(1), R(2), R(3)))                 \
    X(rorv,          4, a64_rorv(as, W(0), R(1), R(2), R(3)))                 \
    X(madd,          5, a64_madd(as, W(0), R(1), R(2), R(3), R(4)))           \
    X(msub,          5, a64_msub(as, W(0), R(1), R(2), R(3), R(4)))           \
    X(mul,           4, a64_mul(as, W(0), R(1), R(2), R(3)))                  \
    X(rev,           3, a64_rev(as, W(0), R(1), R(2)))                        \
    X(csel,          5, a64_csel(as, W(0), R(1), R(2), R(3), (a64_cond)a[4])) \
    X(csinc,         5, a64_csinc(as, W(0), R(1), R(2), R(3), (a64_cond)a[4])) \
    X(csinv,         5, a64_csinv(as, W(0), R(1), R(2), R(3), (a64_cond)a[4])) \
    X(csneg,         5, a64_csneg(as, W(0), R(1), R(2), R(3), (a64_cond)a[4])) \
    X(cset,          3, a64_cset(as, W(0), R(1), (a64_cond)a[2]))             \
    X(adr_off,       2, a64_adr_off(as, R(0), a[1]))                          \
    X(ldr_lit_off,   2, a64_ldr_lit_off(as, R(0), a[1]))                      \
    X(ld1,           4, a64_ld1(as, I(0), V(1), T(2), R(3)))                  \
    X(ld1_post,      5, a64_ld1_post(as, I(0), V(1), T(2), R(3), a[4]))       \
    X(ld1_post_reg,  5, a64_ld1_post_reg(as, I(0), V(1), T(2), R(3), R(4)))   \
    X(st1,           4, a64_st1(as, I(0), V(1), T(2), R(3)))                  \
    X(st1_post,      5, a64_st1_post(as, I(0), V(1), T(2), R(3), a[4]))       \
    X(st1_post_reg,  5, a64_st1_post_reg(as, I(0), V(1), T(2), R(3), R(4)))   \
    X(ld1r,          3, a64_ld1r(as, V(0), T(1), R(2)))                       \
    X(ld1r_post,     4, a64_ld1r_post(as, V(0), T(1), R(2), a[3]))            \
    X(ld1r_post_reg, 4, a64_ld1r_post_reg(as, V(0), T(1), R(2), R(3)))        \
    X(and_v,         4, a64_and_v(as, T(0), V(1), V(2), V(3)))                \
    X(bic_v,         4, a64_bic_v(as, T(0), V(1), V(2), V(3)))                \
    X(orr_v,         4, a64_orr_v(as, T(0), V(1), V(2), V(3)))                \
    X(eor_v,         4, a64_eor_v(as, T(0), V(1), V(2), V(3)))                \
    X(mov_v,         3, a64_mov_v(as, T(0), V(1), V(2)))                      \
    X(eor3,          4, a64_eor3(as, V(0), V(1), V(2), V(3)))                 \
    X(bcax,          4, a64_bcax(as, V(0), V(1), V(2), V(3)))                 \
    X(rax1,          3, a64_rax1(as, V(0), V(1), V(2)))                       \
    X(xar,           4, a64_xar(as, V(0), V(1), V(2), I(3)))                  \
    X(fmov_dx,       2, a64_fmov_dx(as, V(0), R(1)))                          \
    X(fmov_xd,       2, a64_fmov_xd(as, R(0), V(1)))                          \
    X(fsub_d,        3, a64_fsub_d(as, V(0), V(1), V(2)))                     \
    X(fcmp_d,        2, a64_fcmp_d(as, V(0), V(1)))                           \
    X(fcmp_d0,       1, a64_fcmp_d0(as, V(0)))                                \
    X(ldpq,          4, a64_ldpq(as, V(0), V(1), R(2), a[3]))                 \
    X(stpq,          4, a64_stpq(as, V(0), V(1), R(2), a[3]))                 \
    X(ldrs,          3, a64_ldrs(as, V(0), R(1), a[2]))                       \
    X(strs,          3, a64_strs(as, V(0), R(1), a[2]))                       \
    X(ldrq,          3, a64_ldrq(as, V(0), R(1), a[2]))                       \
    X(strq,          3, a64_strq(as, V(0), R(1), a[2]))                       \
    X(ld4r,          3, a64_ld4r(as, V(0), T(1), R(2)))                       \
    X(ldn_lane_d,    4, a64_ldn_lane_d(as, a[0], V(1), a[2], R(3)))            \
    X(stn_lane_d,    4, a64_stn_lane_d(as, a[0], V(1), a[2], R(3)))            \
    X(ldn_lane_d_post, 5, a64_ldn_lane_d_post(as, a[0], V(1), a[2], R(3), a[4])) \
    X(stn_lane_d_post, 5, a64_stn_lane_d_post(as, a[0], V(1), a[2], R(3), a[4])) \
    X(add_v,         4, a64_add_v(as, T(0), V(1), V(2), V(3)))                \
    X(rev64,         3, a64_rev64(as, T(0), V(1), V(2)))                      \
    X(rev32,         3, a64_rev32(as, T(0), V(1), V(2)))                      \
    X(ext,           5, a64_ext(as, T(0), V(1), V(2), V(3), I(4)))            \
    X(sha1c,         3, a64_sha1c(as, V(0), V(1), V(2)))                      \
    X(sha1p,         3, a64_sha1p(as, V(0), V(1), V(2)))                      \
    X(sha1m,         3, a64_sha1m(as, V(0), V(1), V(2)))                      \
    X(sha1su0,       3, a64_sha1su0(as, V(0), V(1), V(2)))                    \
    X(sha1h,         2, a64_sha1h(as, V(0), V(1)))                            \
    X(sha1su1,       2, a64_sha1su1(as, V(0), V(1)))                          \
    X(sha256h,       3, a64_sha256h(as, V(0), V(1), V(2)))                    \
    X(sha256h2,      3, a64_sha256h2(as, V(0), V(1), V(2)))                   \
    X(sha256su0,     2, a64_sha256su0(as, V(0), V(1)))                        \
    X(sha256su1,     3, a64_sha256su1(as, V(0), V(1), V(2)))                  \
    X(sha512h,       3, a64_sha512h(as, V(0), V(1), V(2)))                    \
    X(sha512h2,      3, a64_sha512h2(as, V(0), V(1), V(2)))                   \
    X(sha512su0,     2, a64_sha512su0(as, V(0), V(1)))                        \
    X(sha512su1,     3, a64_sha512su1(as, V(0), V(1), V(2)))

#define ENCODER(name, nargs, call) \
    static void enc_##name(a64_asm *as, const int64_t *a) { (void)a; call; }
A64_FORMS(ENCODER)
#undef ENCODER

/* the forms as the harness sees them (tests/golden.h) */
static golden_form forms[] = {A64_FORMS(GOLDEN_FORM)};
#define NFORMS (sizeof forms / sizeof forms[0])

static void (*const encoders[])(a64_asm *as, const int64_t *a) = {
#define ENC(name, nargs, call) enc_##name,
    A64_FORMS(ENC)
#undef ENC
};

/* form k's one word, or -1 with the refusal */
static long encode(size_t k, const int64_t *a, uint8_t *out, size_t cap, const char **err)
{
    uint32_t w = 0;
    a64_asm as;
    a64_asm_init(&as, &w, 1);
    as.cb.fatal = false;
    encoders[k](&as, a);
    if (as.cb.failed || as.cb.pos != 1 || cap < 4) {
        static char why[256];
        snprintf(why, sizeof why, "%s", as.cb.failed ? as.cb.errmsg : "not one word");
        *err = why;
        return -1;
    }
    for (int i = 0; i < 4; i++)
        out[i] = (uint8_t)(w >> (8 * i));
    return 4;
}

/* the goldens' "0xWORD": its little-endian bytes */
static size_t encoding(const char *field, uint8_t *want, size_t cap)
{
    char *end;
    unsigned long w = strtoul(field, &end, 16);
    if (end == field || cap < 4)
        return 0;
    for (int i = 0; i < 4; i++)
        want[i] = (uint8_t)(w >> (8 * i));
    return 4;
}

/* buffer and label plumbing is tested below, not by goldens; the label branches' _off twins
   carry their goldens */
static const char *const unexercised[] = {"a64_asm_init(", "a64_emit(", "a64_bind(", "a64_b(",   "a64_b_cond(",
                                          "a64_cbz(",      "a64_cbnz(", "a64_tbz(",  "a64_tbnz(", "a64_adr(", "a64_ldr_lit(",
                                          NULL};

static const golden_arch a64 = {"a64_", "-triple=aarch64 -mattr=+sha3", "//", 4, forms, NFORMS, unexercised, false,
                                encode, encoding};

/* ---- the field setter ---------------------------------------------------- */

static void test_field_setter(void **state)
{
    (void)state;
    static const struct { int64_t value; int hi, lo; int is_signed, ok; } cases[] = {
        /* value   hi  lo  signed ok */
        {      0,   4,  0, 0, 1 },
        {     31,   4,  0, 0, 1 },   /* the widest 5-bit value */
        {     32,   4,  0, 0, 0 },   /* one bit too wide */
        {     -1,   4,  0, 0, 0 },   /* negative in an unsigned field */
        {   4095,  21, 10, 0, 1 },   /* imm12 */
        {   4096,  21, 10, 0, 0 },
        { 0xffffffffLL, 31, 0, 0, 1 },
        { 0x100000000LL, 31, 0, 0, 0 },
        {    -64,  21, 15, 1, 1 },   /* imm7 minimum */
        {     63,  21, 15, 1, 1 },   /* imm7 maximum */
        {    -65,  21, 15, 1, 0 },
        {     64,  21, 15, 1, 0 },
        {      1,  32,  0, 0, 0 },   /* bad bit range */
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint32_t buf[1];
        a64_asm as;
        a64_asm_init(&as, buf, 1);
        as.cb.fatal = false;
        a64_insn i = a64_insn_begin(&as, "test");
        if (cases[k].is_signed)
            a64_sf(&i, cases[k].value, cases[k].hi, cases[k].lo, "imm");
        else
            a64_f(&i, cases[k].value, cases[k].hi, cases[k].lo, "imm");
        if (cases[k].ok == as.cb.failed)
            fail_msg("case %zu: value %lld bits %d..%d: %s", k, (long long)cases[k].value,
                     cases[k].hi, cases[k].lo, as.cb.failed ? as.cb.errmsg : "accepted");
        if (!cases[k].ok)
            assert_non_null(strstr(as.cb.errmsg, "imm"));   /* the message names the field */
    }
    /* a bit set twice is refused; an instruction with unset bits is refused */
    uint32_t w = 0x12345678;
    a64_asm as;
    a64_asm_init(&as, &w, 1);
    as.cb.fatal = false;
    a64_insn i = a64_insn_begin(&as, "test");
    a64_f(&i, 1, 31, 16, "hi");
    a64_f(&i, 1, 16, 0, "lo");
    assert_true(as.cb.failed);
    assert_non_null(strstr(as.cb.errmsg, "lo"));
    a64_insn_end(&i);
    assert_int_equal(w, 0);   /* a refused instruction is emitted as UDF #0 */
    a64_asm_init(&as, &w, 1);
    as.cb.fatal = false;
    i = a64_insn_begin(&as, "test");
    a64_f(&i, 1, 15, 0, "half");
    a64_insn_end(&i);
    assert_true(as.cb.failed);
    assert_non_null(strstr(as.cb.errmsg, "never set"));
}

/* ---- encoders refuse what does not fit ----------------------------------- */

static a64_asm *fresh(a64_asm *as, uint32_t *buf)
{
    buf[0] = 0xdeadbeef;
    a64_asm_init(as, buf, 2);
    as->cb.fatal = false;
    return as;
}

/* why == NULL: the call must be accepted; else refused, the message containing why. */
static void check_refusal(const a64_asm *as, const uint32_t *buf, const char *call, const char *why)
{
    if (why == NULL) {
        if (as->cb.failed)
            fail_msg("%s: refused: %s", call, as->cb.errmsg);
        return;
    }
    if (!as->cb.failed)
        fail_msg("%s: accepted, 0x%08x", call, buf[0]);
    if (!strstr(as->cb.errmsg, why))
        fail_msg("%s: message '%s' lacks '%s'", call, as->cb.errmsg, why);
    assert_int_equal(buf[0], 0);   /* UDF #0 in its place */
    assert_int_equal(as->cb.pos, 1);  /* offsets stay right */
}

static void test_refusals(void **state)
{
    (void)state;
    uint32_t buf[2];
    a64_asm storage;
#define REFUSED(call, why) { a64_asm *as = fresh(&storage, buf); call; check_refusal(as, buf, #call, why); }
#define ACCEPTED(call)     REFUSED(call, NULL)
    /* One line per behaviour: the call and, when refused, a word of the message. */
    REFUSED(a64_ldp(as, A64_R1, A64_R2, A64_SP, 4), "multiple of 8")
    REFUSED(a64_ldp(as, A64_R1, A64_R2, A64_SP, 512), "imm7")
    ACCEPTED(a64_ldp(as, A64_R1, A64_R2, A64_SP, 504))
    REFUSED(a64_ldp(as, A64_R1, A64_R1, A64_SP, 0), "rt == rt2")
    REFUSED(a64_stp_pre(as, A64_R1, A64_R2, A64_R1, -16), "writeback")
    ACCEPTED(a64_stp(as, A64_R1, A64_R2, A64_R1, -16))
    REFUSED(a64_ldp(as, A64_R1, A64_R2, A64_ZR, 0), "rn: zr")
    REFUSED(a64_ldr(as, A64_R0, A64_SP, 32768), "imm12")
    REFUSED(a64_ldr(as, A64_SP, A64_R0, 0), "rt: sp")
    REFUSED(a64_ldr_post(as, A64_R3, A64_R3, 8), "writeback")
    REFUSED(a64_str_pre(as, A64_R0, A64_SP, 256), "imm")
    REFUSED(a64_add_imm(as, A64_X64, A64_R0, A64_R1, 4096, 0), "imm")
    REFUSED(a64_add_imm(as, A64_X64, A64_R0, A64_ZR, 1, 0), "zr is not allowed")
    REFUSED(a64_subs_imm(as, A64_X64, A64_SP, A64_R1, 1, 0), "sp is not allowed")
    REFUSED(a64_add_imm(as, A64_X64, A64_R0, A64_R1, 1, 2), "lsl12")
    REFUSED(a64_add_reg(as, A64_X64, A64_R0, A64_R1, A64_R2, A64_ROR, 1), "ror")
    REFUSED(a64_add_reg(as, A64_W32, A64_R0, A64_R1, A64_R2, A64_LSL, 32), "32-bit")
    REFUSED(a64_eor_reg(as, A64_X64, A64_R0, A64_R1, A64_R2, A64_ROR, 64), "amount")
    REFUSED(a64_eor_reg(as, A64_X64, A64_SP, A64_R1, A64_R2, A64_LSL, 0), "rd: sp")
    REFUSED(a64_extr(as, A64_R0, A64_R1, A64_R2, 64), "lsb")
    REFUSED(a64_extr_w(as, A64_R0, A64_R1, A64_R2, 32), "lsb")
    REFUSED(a64_extr_w(as, A64_R0, A64_R1, A64_R2, -1), "lsb")
    ACCEPTED(a64_extr_w(as, A64_R0, A64_R1, A64_R2, 31))
    REFUSED(a64_ubfm(as, A64_W32, A64_R0, A64_R1, 32, 0), "0..31")
    REFUSED(a64_ubfm(as, A64_W32, A64_R0, A64_R1, 0, 32), "0..31")
    REFUSED(a64_ubfm(as, A64_X64, A64_R0, A64_R1, 64, 0), "0..63")
    REFUSED(a64_ubfm(as, A64_X64, A64_R0, A64_R1, 0, -1), "0..63")
    ACCEPTED(a64_ubfm(as, A64_X64, A64_R0, A64_R1, 32, 63))
    REFUSED(a64_sbfm(as, A64_W32, A64_R0, A64_R1, 0, 32), "0..31")
    REFUSED(a64_cset(as, A64_X64, A64_R0, A64_AL), "no inverse")
    REFUSED(a64_ldrw(as, A64_R0, A64_R1, 2), "multiple of 4")
    REFUSED(a64_ldrb(as, A64_R0, A64_R1, 4096), "does not fit")
    REFUSED(a64_ldr_reg(as, A64_R0, A64_R1, A64_SP, 1), "sp")
    REFUSED(a64_madd(as, A64_X64, A64_SP, A64_R1, A64_R2, A64_R3), "sp")
    REFUSED(a64_movz(as, A64_X64, A64_R0, 65536, 0), "imm16")
    REFUSED(a64_movk(as, A64_W32, A64_R0, 1, 2), "32-bit")
    REFUSED(a64_b_off(as, 1 << 27), "imm26")
    ACCEPTED(a64_b_off(as, -(1 << 27)))
    REFUSED(a64_b_off(as, 2), "multiple of 4")
    REFUSED(a64_b_cond_off(as, A64_EQ, 1 << 20), "imm19")
    REFUSED(a64_adr_off(as, A64_R0, 1 << 20), "immhi")
    REFUSED(a64_adr_off(as, A64_R0, -(1 << 20) - 1), "immhi")
    REFUSED(a64_ldr_lit_off(as, A64_R0, 1 << 20), "imm19")
    REFUSED(a64_ldr_lit_off(as, A64_R0, 2), "multiple of 4")
    REFUSED(a64_tbz_off(as, A64_R0, 64, 0), "bit")
    REFUSED(a64_tbz_off(as, A64_R0, 3, 1 << 15), "imm14")
    REFUSED(a64_ld1(as, 5, A64_V0, A64_T2D, A64_R0), "count")
    REFUSED(a64_ld1_post(as, 2, A64_V0, A64_T2D, A64_R0, 16), "transfer size")
    REFUSED(a64_ld1_post_reg(as, 1, A64_V0, A64_T2D, A64_R0, A64_ZR), "x0..x30")
    REFUSED(a64_ld1r_post(as, A64_V0, A64_T1D, A64_R0, 16), "transfer size")
    REFUSED(a64_ldn_lane_d(as, 4, A64_V0, 2, A64_R0), "lane index")
    REFUSED(a64_stn_lane_d(as, 5, A64_V0, 0, A64_R0), "register count")
    REFUSED(a64_ldn_lane_d_post(as, 4, A64_V0, 1, A64_R8, 16), "transfer size")
    REFUSED(a64_eor_v(as, A64_T2D, A64_V0, A64_V1, A64_V2), "8b or 16b")
    REFUSED(a64_xar(as, A64_V0, A64_V1, A64_V2, 64), "imm")
    REFUSED(a64_eor3(as, A64_V0, A64_V1, A64_V2, (a64_vreg)32), "va")
    REFUSED(a64_ldpq(as, A64_V0, A64_V1, A64_R0, 8), "multiple of 16")
    REFUSED(a64_ldpq(as, A64_V0, A64_V1, A64_R0, 1024), "imm7")
    ACCEPTED(a64_stpq(as, A64_V0, A64_V0, A64_R0, -1024))
    REFUSED(a64_ldpq(as, A64_V2, A64_V2, A64_R0, 0), "rt == rt2")
    REFUSED(a64_ldrq(as, A64_V0, A64_R0, 65536), "imm12")
    REFUSED(a64_ldrs(as, A64_V0, A64_R0, 2), "multiple of 4")
    REFUSED(a64_strq(as, A64_V0, A64_ZR, 0), "rn: zr")
    REFUSED(a64_add_v(as, A64_T1D, A64_V0, A64_V1, A64_V2), "1d is not allowed")
    ACCEPTED(a64_add_v(as, A64_T2D, A64_V0, A64_V1, A64_V2))
    REFUSED(a64_add_v(as, (a64_arrangement)8, A64_V0, A64_V1, A64_V2), "not an arrangement")
    REFUSED(a64_rev32(as, A64_T4S, A64_V0, A64_V1), "4s is not allowed")
    REFUSED(a64_rev64(as, A64_T2D, A64_V0, A64_V1), "2d is not allowed")
    REFUSED(a64_ext(as, A64_T4S, A64_V0, A64_V1, A64_V2, 8), "4s is not allowed")
    REFUSED(a64_ext(as, A64_T8B, A64_V0, A64_V1, A64_V2, 8), "0..7")
    REFUSED(a64_ext(as, A64_T16B, A64_V0, A64_V1, A64_V2, 16), "index")
    REFUSED(a64_sha1c(as, A64_V0, (a64_vreg)32, A64_V2), "vn")
    REFUSED(a64_sha512su0(as, (a64_vreg)-1, A64_V1), "vd")
#undef REFUSED
#undef ACCEPTED
}

/* ---- labels -------------------------------------------------------------- */

static void test_labels(void **state)
{
    (void)state;
    uint32_t code[16], want[16];
    a64_asm as, ref;
    a64_asm_init(&as, code, 16);
    a64_asm_init(&ref, want, 16);
    as.cb.fatal = ref.cb.fatal = false;
    a64_label top, out;
    a64_label_init(&top);
    a64_label_init(&out);

    a64_bind(&as, &top);                              /* 0 */
    a64_cbz(&as, A64_X64, A64_R1, &out);              /* 0: forward +20 */
    a64_tbnz(&as, A64_R2, 40, &out);                  /* 1: forward +16 */
    a64_b_cond(&as, A64_NE, &out);                    /* 2: forward +12 */
    a64_b(&as, &top);                                 /* 3: backward -12 */
    a64_cbnz(&as, A64_W32, A64_R3, &top);             /* 4: backward -16 */
    a64_bind(&as, &out);                              /* 5 */
    a64_ret(&as, A64_RLR);

    a64_cbz_off(&ref, A64_X64, A64_R1, 20);
    a64_tbnz_off(&ref, A64_R2, 40, 16);
    a64_b_cond_off(&ref, A64_NE, 12);
    a64_b_off(&ref, -12);
    a64_cbnz_off(&ref, A64_W32, A64_R3, -16);
    a64_ret(&ref, A64_RLR);

    assert_false(as.cb.failed);
    assert_int_equal(as.cb.pos, 6);
    for (int k = 0; k < 6; k++)
        if (code[k] != want[k])
            fail_msg("word %d: 0x%08x, want 0x%08x", k, code[k], want[k]);

    /* adr and ldr (literal) of a label, forward (patched when bound) and backward, as the
       offset forms */
    a64_asm_init(&as, code, 16);
    a64_asm_init(&ref, want, 16);
    as.cb.fatal = ref.cb.fatal = false;
    a64_label back, ahead;
    a64_label_init(&back);
    a64_label_init(&ahead);
    a64_bind(&as, &back);
    a64_adr(&as, A64_R9, &ahead);                     /* 0: forward +20 */
    a64_adr(&as, A64_R10, &back);                     /* 1: backward -4 */
    a64_ldr_lit(&as, A64_R11, &ahead);                /* 2: forward +8 */
    a64_ldr_lit(&as, A64_R12, &back);                 /* 3: backward -12 */
    a64_ret(&as, A64_RLR);                            /* 4 */
    a64_bind(&as, &ahead);                            /* 5 */
    a64_adr_off(&ref, A64_R9, 20);
    a64_adr_off(&ref, A64_R10, -4);
    a64_ldr_lit_off(&ref, A64_R11, 12);
    a64_ldr_lit_off(&ref, A64_R12, -12);
    a64_ret(&ref, A64_RLR);
    assert_false(as.cb.failed);
    for (int k = 0; k < 5; k++)
        if (code[k] != want[k])
            fail_msg("adr word %d: 0x%08x, want 0x%08x", k, code[k], want[k]);

    /* a forward tbz beyond ±32 KiB is refused when the label is bound */
    static uint32_t big[9000];
    a64_asm_init(&as, big, 9000);
    as.cb.fatal = false;
    a64_label far;
    a64_label_init(&far);
    a64_tbz(&as, A64_R0, 1, &far);
    for (int k = 0; k < 8200; k++)
        a64_emit(&as, 0xd503201f);   /* nop */
    assert_false(as.cb.failed);
    a64_bind(&as, &far);
    assert_true(as.cb.failed);
    assert_non_null(strstr(as.cb.errmsg, "offset"));
    assert_int_equal(big[0], 0);

    /* binding twice, and a full buffer, fail the buffer */
    a64_asm_init(&as, code, 1);
    as.cb.fatal = false;
    a64_label l;
    a64_label_init(&l);
    a64_bind(&as, &l);
    a64_bind(&as, &l);
    assert_true(as.cb.failed);
    assert_non_null(strstr(as.cb.errmsg, "bound twice"));
    a64_asm_init(&as, code, 1);
    as.cb.fatal = false;
    a64_ret(&as, A64_RLR);
    assert_false(as.cb.failed);
    a64_ret(&as, A64_RLR);
    assert_true(as.cb.failed);
    assert_non_null(strstr(as.cb.errmsg, "full"));
    assert_int_equal(as.cb.pos, 2);   /* the size probe keeps counting */
}

/* ---- the pseudo-instructions --------------------------------------------- */

/* Just enough of an AArch64 interpreter for 64-bit logical shifted register
 * and extr, to check what the pseudo-instructions compute. */
static uint64_t ror64(uint64_t x, unsigned n) { n &= 63; return n ? (x >> n) | (x << (64 - n)) : x; }

static void run_words(const uint32_t *code, size_t n, uint64_t *x)
{
    for (size_t k = 0; k < n; k++) {
        uint32_t w = code[k];
        unsigned rd = w & 31, rn = (w >> 5) & 31, rm = (w >> 16) & 31, imm6 = (w >> 10) & 63;
        uint64_t vn = rn == 31 ? 0 : x[rn], vm = rm == 31 ? 0 : x[rm], r;
        if ((w & 0xffe00000u) == 0x93c00000u) {               /* extr */
            r = imm6 ? (vm >> imm6) | (vn << (64 - imm6)) : vm;
        } else if ((w & 0x9f000000u) == 0x8a000000u) {        /* logical, 64-bit */
            unsigned sh = (w >> 22) & 3, opc = (w >> 29) & 3, nbit = (w >> 21) & 1;
            uint64_t op2 = sh == 0 ? vm << imm6 : sh == 1 ? vm >> imm6
                         : sh == 2 ? (uint64_t)((int64_t)vm >> imm6) : ror64(vm, imm6);
            if (nbit)
                op2 = ~op2;
            r = opc == 0 ? vn & op2 : opc == 1 ? vn | op2 : opc == 2 ? vn ^ op2 : vn & op2;
        } else {
            fail_msg("interpreter: word 0x%08x not handled", w);
            return;
        }
        if (rd != 31)
            x[rd] = r;
    }
}

static uint64_t rol64(uint64_t x, unsigned n) { return ror64(x, 64 - (n & 63)); }

static void test_macroassembler(void **state)
{
    (void)state;
    uint64_t init[32];
    uint64_t s = 0x9e3779b97f4a7c15u;
    for (int k = 0; k < 32; k++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        init[k] = s;
    }
    /* every aliasing pattern of destination and sources among x1..x4 */
    for (int d = 1; d <= 4; d++)
    for (int n = 1; n <= 4; n++)
    for (int m = 1; m <= 4; m++)
    for (int a = 1; a <= 4; a++) {
        uint32_t code[4];
        uint64_t x[32];
        a64_asm as;
        for (int op = 0; op < 4; op++) {
            memcpy(x, init, sizeof x);
            uint64_t vn = x[n], vm = x[m], va = x[a], want;
            a64_asm_init(&as, code, 4);
            as.cb.fatal = false;
            int imm = (n * 7 + m * 13 + a) & 63;
            switch (op) {
            case 0: a64m_rol(&as, d, n, imm);      want = rol64(vn, imm); break;
            case 1: a64m_rax1(&as, d, n, m);       want = vn ^ rol64(vm, 1); break;
            case 2: a64m_eor3(&as, d, n, m, a);    want = vn ^ vm ^ va; break;
            default:
                if (d == n) /* tmp = x9 */
                    a64m_bcax(&as, d, n, m, a, A64_RSCRATCH2);
                else
                    a64m_bcax(&as, d, n, m, a, d);
                want = vn ^ (vm & ~va);
                break;
            }
            assert_false(as.cb.failed);
            run_words(code, as.cb.pos, x);
            if (x[d] != want)
                fail_msg("op %d d=x%d n=x%d m=x%d a=x%d: 0x%016llx, want 0x%016llx", op, d, n, m,
                         a, (unsigned long long)x[d], (unsigned long long)want);
        }
    }
    /* the documented expansions */
    uint32_t code[2], want[2];
    a64_asm as, ref;
    a64_asm_init(&as, code, 2);
    a64_asm_init(&ref, want, 2);
    a64m_rol(&as, A64_R1, A64_R2, 1);
    a64_extr(&ref, A64_R1, A64_R2, A64_R2, 63);
    a64m_rax1(&as, A64_R3, A64_R4, A64_R5);
    a64_eor_reg(&ref, A64_X64, A64_R3, A64_R4, A64_R5, A64_ROR, 63);
    assert_memory_equal(code, want, sizeof code);
    /* bcax refuses a temporary that is its source */
    a64_asm_init(&as, code, 2);
    as.cb.fatal = false;
    a64m_bcax(&as, A64_R1, A64_R1, A64_R2, A64_R3, A64_R1);
    assert_true(as.cb.failed);

    /* push_d/pop_d: d8.. in pairs below sp, popped in reverse; an odd or too large count is refused */
    uint32_t saves[8], want_saves[8];
    a64_asm_init(&as, saves, 8);
    a64_asm_init(&ref, want_saves, 8);
    a64m_push_d(&as, 6);
    a64m_pop_d(&as, 6);
    a64_stpd_pre(&ref, A64_V8, A64_V9, A64_SP, -48);
    a64_stpd(&ref, A64_V10, A64_V11, A64_SP, 16);
    a64_stpd(&ref, A64_V12, A64_V13, A64_SP, 32);
    a64_ldpd(&ref, A64_V12, A64_V13, A64_SP, 32);
    a64_ldpd(&ref, A64_V10, A64_V11, A64_SP, 16);
    a64_ldpd_post(&ref, A64_V8, A64_V9, A64_SP, 48);
    assert_int_equal(as.cb.pos, 6);
    assert_memory_equal(saves, want_saves, 6 * sizeof saves[0]);
    for (int n = 0; n <= 10; n++) {
        a64_asm_init(&as, saves, 8);
        as.cb.fatal = false;
        a64m_push_d(&as, n);
        if (as.cb.failed != (n < 2 || n > 8 || n % 2 != 0))
            fail_msg("push_d(%d): %s", n, as.cb.failed ? as.cb.errmsg : "accepted");
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_field_setter),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_macroassembler),
    };
    return golden_main(argc, argv, &a64, 100, tests, sizeof tests / sizeof tests[0]);
}
