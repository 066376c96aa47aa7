/*
 * cpu/aarch64/assembler_aarch64.c — the AArch64 instruction encoder
 * (HotSpot's cpu/aarch64/assembler_aarch64.{hpp,cpp}).
 *
 * Each instruction class is one macro that stamps out its encoders: the
 * macro lists the class's fields once, the instantiations below it give the
 * opcode bits of each member. Every field goes through a64_f/a64_sf, so an
 * out-of-range operand is refused by the same check everywhere; the macro is
 * #undef'd after its instantiations.
 *
 * Bit layouts are from the Arm ARM (DDI 0487), section C4 "A64 instruction
 * set encoding"; the goldens in tests/data/a64_goldens.txt check every form
 * against llvm-mc.
 */
#include "assembler_aarch64.h"

#include <string.h>

/* ---- the code buffer ----------------------------------------------------- */

void a64_asm_init(a64_asm *as, uint32_t *code, size_t cap_words)
{
    code_buffer_init(&as->cb, code, cap_words, sizeof(uint32_t), "a64 assembler");
}

void a64_emit(a64_asm *as, uint32_t word) { code_buffer_emit(&as->cb, &word); }

/* ---- the field setter ---------------------------------------------------- */

a64_insn a64_insn_begin(a64_asm *as, const char *name)
{
    return (a64_insn){ .as = as, .name = name };
}

static uint32_t field_mask(int hi, int lo)
{
    int width = hi - lo + 1;
    return (width == 32 ? 0xffffffffu : ((1u << width) - 1)) << lo;
}

/* Refuse instruction i: the buffer fails with "mnemonic: message" (a64_insn_end emits UDF #0). */
#define refuse(i, ...) code_buffer_refuse(&(i)->as->cb, &(i)->refused, (i)->name, __VA_ARGS__)

static void put(a64_insn *i, uint32_t bits, int hi, int lo, const char *field)
{
    uint32_t mask = field_mask(hi, lo);
    if (i->set & mask)
        refuse(i, "field %s (bits %d..%d) overlaps bits already set", field, hi, lo);
    i->bits |= (bits << lo) & mask;
    i->set |= mask;
}

/* A field's bit range hi..lo must lie within the word. */
static bool bad_range(a64_insn *i, int hi, int lo, const char *field)
{
    if (hi <= 31 && lo >= 0 && hi >= lo)
        return false;
    refuse(i, "field %s has bad bit range %d..%d", field, hi, lo);
    return true;
}

void a64_f(a64_insn *i, int64_t value, int hi, int lo, const char *field)
{
    int width = hi - lo + 1;
    if (bad_range(i, hi, lo, field))
        return;
    if (value < 0 || (uint64_t)value >> width != 0) {
        refuse(i, "field %s (bits %d..%d) = %lld does not fit in %d bits",
               field, hi, lo, (long long)value, width);
        return;
    }
    put(i, (uint32_t)value, hi, lo, field);
}

void a64_sf(a64_insn *i, int64_t value, int hi, int lo, const char *field)
{
    int width = hi - lo + 1;
    if (bad_range(i, hi, lo, field))
        return;
    int64_t min = -((int64_t)1 << (width - 1)), max = ((int64_t)1 << (width - 1)) - 1;
    if (value < min || value > max) {
        refuse(i, "field %s (bits %d..%d) = %lld is outside %lld..%lld",
               field, hi, lo, (long long)value, (long long)min, (long long)max);
        return;
    }
    put(i, (uint32_t)(uint64_t)value, hi, lo, field);
}

void a64_insn_end(a64_insn *i)
{
    if (!i->refused && i->set != 0xffffffffu)
        refuse(i, "encoder bug: bits 0x%08x never set", ~i->set);
    a64_emit(i->as, i->refused ? 0u /* UDF #0 */ : i->bits);
}

/* Field shorthands inside encoders: the field's name is the C expression. */
#define F(v, hi, lo)  a64_f(&i, (v), hi, lo, #v)
#define SF(v, hi, lo) a64_sf(&i, (v), hi, lo, #v)
#define BEGIN(name)   a64_insn i = a64_insn_begin(as, name)
#define END()         a64_insn_end(&i)

/* Register operands: each accepts exactly the registers the architecture
 * allows for it; zr and sp both encode as 31, and r31 says which of them the
 * operand means (the other is refused). */
static void reg31(a64_insn *i, a64_reg r, a64_reg r31, int lo, const char *field)
{
    static const char *const name[] = {[A64_ZR] = "zr", [A64_SP] = "sp"};
    a64_reg other = r31 == A64_ZR ? A64_SP : A64_ZR;
    if (r == other)
        refuse(i, "%s: %s is not allowed here (%s is)", field, name[other], name[r31]);
    else if ((unsigned)r > A64_SP)
        refuse(i, "%s: %d is not a general register", field, (int)r);
    else
        put(i, r == r31 ? 31u : (uint32_t)r, lo + 4, lo, field);
}

static void vreg(a64_insn *i, a64_vreg v, int lo, const char *field)
{
    a64_f(i, (int64_t)v, lo + 4, lo, field);
}

#define RZR(r, lo) reg31(&i, (r), A64_ZR, lo, #r)
#define RSP(r, lo) reg31(&i, (r), A64_SP, lo, #r)
#define VR(r, lo)  vreg(&i, (r), lo, #r)

/* A scaled immediate: refuse a byte offset that is not a multiple of the scale. */
static int64_t scaled(a64_insn *i, int64_t imm, int scale, const char *field)
{
    if (imm % scale != 0) {
        refuse(i, "%s = %lld is not a multiple of %d", field, (long long)imm, scale);
        return 0;
    }
    return imm / scale;
}
#define SCALED(imm, scale) scaled(&i, (imm), (scale), #imm)

/* ---- load/store pair: opc 101 V idx L imm7 Rt2 Rn Rt --------------------- */
/* idx: 001 post-index, 010 signed offset, 011 pre-index. ldp with rt == rt2
 * and writeback with the base in the list are CONSTRAINED UNPREDICTABLE:
 * refused, as llvm-mc does. */
enum { IDX_POST = 1, IDX_OFF = 2, IDX_PRE = 3 };

static void pair_checks(a64_insn *i, bool gpr, int load, int idx, int rt, int rt2, a64_reg rn)
{
    if (load && rt == rt2)
        refuse(i, "rt == rt2 is unpredictable");
    if (gpr && idx != IDX_OFF && (rt == (int)rn || rt2 == (int)rn))
        refuse(i, "writeback base is also a transfer register");
}

#define INSN(NAME, SUFFIX, REG, REGF, GPR, OPC, V, IDX, L, SCALE)                           \
    void a64_##NAME##SUFFIX(a64_asm *as, REG rt, REG rt2, a64_reg rn, int64_t imm)          \
    {                                                                                       \
        BEGIN(#NAME #SUFFIX);                                                               \
        pair_checks(&i, GPR, L, IDX, (int)rt, (int)rt2, rn);                                \
        int64_t imm7 = SCALED(imm, SCALE);                                                  \
        F(OPC, 31, 30); F(0b101, 29, 27); F(V, 26, 26); F(IDX, 25, 23); F(L, 22, 22);       \
        SF(imm7, 21, 15); REGF(rt2, 10); RSP(rn, 5); REGF(rt, 0);                           \
        END();                                                                              \
    }
INSN(ldp,  ,      a64_reg,  RZR, true,  0b10, 0, IDX_OFF,  1, 8)
INSN(ldp,  _pre,  a64_reg,  RZR, true,  0b10, 0, IDX_PRE,  1, 8)
INSN(ldp,  _post, a64_reg,  RZR, true,  0b10, 0, IDX_POST, 1, 8)
INSN(stp,  ,      a64_reg,  RZR, true,  0b10, 0, IDX_OFF,  0, 8)
INSN(stp,  _pre,  a64_reg,  RZR, true,  0b10, 0, IDX_PRE,  0, 8)
INSN(stp,  _post, a64_reg,  RZR, true,  0b10, 0, IDX_POST, 0, 8)
INSN(ldpd, ,      a64_vreg, VR,  false, 0b01, 1, IDX_OFF,  1, 8)
INSN(ldpd, _pre,  a64_vreg, VR,  false, 0b01, 1, IDX_PRE,  1, 8)
INSN(ldpd, _post, a64_vreg, VR,  false, 0b01, 1, IDX_POST, 1, 8)
INSN(stpd, ,      a64_vreg, VR,  false, 0b01, 1, IDX_OFF,  0, 8)
INSN(stpd, _pre,  a64_vreg, VR,  false, 0b01, 1, IDX_PRE,  0, 8)
INSN(stpd, _post, a64_vreg, VR,  false, 0b01, 1, IDX_POST, 0, 8)
INSN(ldpq, ,      a64_vreg, VR,  false, 0b10, 1, IDX_OFF,  1, 16)
INSN(stpq, ,      a64_vreg, VR,  false, 0b10, 1, IDX_OFF,  0, 16)
#undef INSN

/* ---- load/store register, unsigned offset: size 111 V 01 opc imm12 Rn Rt --
 * size and opc give the width: x and d size 11 (scale 8), s size 10 (scale 4),
 * q size 00 with opc<1> set (scale 16). */
#define INSN(NAME, REG, REGF, SIZE, V, OPC, SCALE)                                          \
    void a64_##NAME(a64_asm *as, REG rt, a64_reg rn, int64_t imm)                           \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int64_t imm12 = SCALED(imm, SCALE);                                                 \
        F(SIZE, 31, 30); F(0b111, 29, 27); F(V, 26, 26); F(0b01, 25, 24); F(OPC, 23, 22);   \
        F(imm12, 21, 10); RSP(rn, 5); REGF(rt, 0);                                          \
        END();                                                                              \
    }
INSN(ldr,  a64_reg,  RZR, 0b11, 0, 0b01, 8)
INSN(str,  a64_reg,  RZR, 0b11, 0, 0b00, 8)
INSN(ldrd, a64_vreg, VR,  0b11, 1, 0b01, 8)
INSN(strd, a64_vreg, VR,  0b11, 1, 0b00, 8)
INSN(ldrs, a64_vreg, VR,  0b10, 1, 0b01, 4)
INSN(strs, a64_vreg, VR,  0b10, 1, 0b00, 4)
INSN(ldrq, a64_vreg, VR,  0b00, 1, 0b11, 16)
INSN(strq, a64_vreg, VR,  0b00, 1, 0b10, 16)
INSN(ldrw,  a64_reg, RZR, 0b10, 0, 0b01, 4) /* ldr wt: zero-extends */
INSN(strw,  a64_reg, RZR, 0b10, 0, 0b00, 4)
INSN(ldrsw, a64_reg, RZR, 0b10, 0, 0b10, 4) /* ldrsw xt */
INSN(ldrb,  a64_reg, RZR, 0b00, 0, 0b01, 1)
INSN(strb,  a64_reg, RZR, 0b00, 0, 0b00, 1)
INSN(ldrsb, a64_reg, RZR, 0b00, 0, 0b10, 1) /* ldrsb xt */
#undef INSN

/* ---- load/store register, register offset: size 111 0 00 opc 1 Rm option S 10 Rn Rt ----
 * option 011: the index rm is a whole x register (LSL); scaled: shifted left by log2 of the
 * access size (for a byte: lsl #0 written out). */
#define INSN(NAME, SIZE, OPC)                                                               \
    void a64_##NAME##_reg(a64_asm *as, a64_reg rt, a64_reg rn, a64_reg rm, int scaled)      \
    {                                                                                       \
        BEGIN(#NAME "_reg");                                                                \
        F(SIZE, 31, 30); F(0b111, 29, 27); F(0, 26, 26); F(0b00, 25, 24); F(OPC, 23, 22);   \
        F(1, 21, 21); RZR(rm, 16); F(0b011, 15, 13); F(scaled, 12, 12); F(0b10, 11, 10);    \
        RSP(rn, 5); RZR(rt, 0);                                                             \
        END();                                                                              \
    }
INSN(ldr,   0b11, 0b01)
INSN(str,   0b11, 0b00)
INSN(ldrw,  0b10, 0b01)
INSN(strw,  0b10, 0b00)
INSN(ldrsw, 0b10, 0b10)
INSN(ldrb,  0b00, 0b01)
INSN(strb,  0b00, 0b00)
INSN(ldrsb, 0b00, 0b10)
#undef INSN

/* ---- load/store register, pre/post-index: size 111 V 00 opc 0 imm9 idx Rn Rt */
#define INSN(NAME, SUFFIX, REG, REGF, GPR, V, OPC, IDX)                                     \
    void a64_##NAME##SUFFIX(a64_asm *as, REG rt, a64_reg rn, int64_t imm)                   \
    {                                                                                       \
        BEGIN(#NAME #SUFFIX);                                                               \
        if (GPR && (int)rt == (int)rn)                                                      \
            refuse(&i, "writeback base is also the transfer register");                     \
        F(0b11, 31, 30); F(0b111, 29, 27); F(V, 26, 26); F(0b00, 25, 24); F(OPC, 23, 22);   \
        F(0, 21, 21); SF(imm, 20, 12); F(IDX, 11, 10); RSP(rn, 5); REGF(rt, 0);             \
        END();                                                                              \
    }
INSN(ldr,  _pre,  a64_reg,  RZR, true,  0, 0b01, 0b11)
INSN(ldr,  _post, a64_reg,  RZR, true,  0, 0b01, 0b01)
INSN(str,  _pre,  a64_reg,  RZR, true,  0, 0b00, 0b11)
INSN(str,  _post, a64_reg,  RZR, true,  0, 0b00, 0b01)
INSN(ldrd, _pre,  a64_vreg, VR,  false, 1, 0b01, 0b11)
INSN(ldrd, _post, a64_vreg, VR,  false, 1, 0b01, 0b01)
INSN(strd, _pre,  a64_vreg, VR,  false, 1, 0b00, 0b11)
INSN(strd, _post, a64_vreg, VR,  false, 1, 0b00, 0b01)
#undef INSN

/* ---- add/sub immediate: sf op S 100010 sh imm12 Rn Rd --------------------- */
/* rn is sp-or-register; rd too unless the flags are set (then zr). */
#define INSN(NAME, OP, S, RDF)                                                              \
    void a64_##NAME(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, int64_t imm,          \
                    int lsl12)                                                              \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        F(w, 31, 31); F(OP, 30, 30); F(S, 29, 29); F(0b100010, 28, 23); F(lsl12, 22, 22);   \
        F(imm, 21, 10); RSP(rn, 5); RDF(rd, 0);                                             \
        END();                                                                              \
    }
INSN(add_imm,  0, 0, RSP)
INSN(sub_imm,  1, 0, RSP)
INSN(adds_imm, 0, 1, RZR)
INSN(subs_imm, 1, 1, RZR)
#undef INSN

void a64_cmp_imm(a64_asm *as, a64_width w, a64_reg rn, int64_t imm, int lsl12)
{
    a64_subs_imm(as, w, A64_ZR, rn, imm, lsl12);
}

/* ---- add/sub and logical, shifted register --------------------------------
 * add/sub: sf op S 01011 shift 0 Rm imm6 Rn Rd   (no ROR)
 * logical: sf opc  01010 shift N Rm imm6 Rn Rd   (N inverts Rm)
 * A 32-bit form takes shift amounts 0..31 only (imm6 bit 5 must be 0). */
static void shift_checks(a64_insn *i, a64_width w, a64_shift sh, int amount, bool ror_ok)
{
    if (!ror_ok && sh == A64_ROR)
        refuse(i, "ror is not a valid shift for add/sub");
    if (w == A64_W32 && amount >= 32 && amount < 64)
        refuse(i, "shift amount %d is out of range for a 32-bit operation", amount);
}

#define INSN(NAME, OP, S)                                                                   \
    void a64_##NAME(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm,           \
                    a64_shift sh, int amount)                                               \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        shift_checks(&i, w, sh, amount, false);                                             \
        F(w, 31, 31); F(OP, 30, 30); F(S, 29, 29); F(0b01011, 28, 24); F(sh, 23, 22);       \
        F(0, 21, 21); RZR(rm, 16); F(amount, 15, 10); RZR(rn, 5); RZR(rd, 0);               \
        END();                                                                              \
    }
INSN(add_reg,  0, 0)
INSN(sub_reg,  1, 0)
INSN(adds_reg, 0, 1)
INSN(subs_reg, 1, 1)
#undef INSN

void a64_cmp_reg(a64_asm *as, a64_width w, a64_reg rn, a64_reg rm, a64_shift sh, int amount)
{
    a64_subs_reg(as, w, A64_ZR, rn, rm, sh, amount);
}

#define INSN(NAME, OPC, N)                                                                  \
    void a64_##NAME(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm,           \
                    a64_shift sh, int amount)                                               \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        shift_checks(&i, w, sh, amount, true);                                              \
        F(w, 31, 31); F(OPC, 30, 29); F(0b01010, 28, 24); F(sh, 23, 22); F(N, 21, 21);      \
        RZR(rm, 16); F(amount, 15, 10); RZR(rn, 5); RZR(rd, 0);                             \
        END();                                                                              \
    }
INSN(and_reg,  0b00, 0)
INSN(bic_reg,  0b00, 1)
INSN(orr_reg,  0b01, 0)
INSN(orn_reg,  0b01, 1)
INSN(eor_reg,  0b10, 0)
INSN(eon_reg,  0b10, 1)
INSN(ands_reg, 0b11, 0)
#undef INSN

void a64_mov_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rm)
{
    a64_orr_reg(as, w, rd, A64_ZR, rm, A64_LSL, 0);
}

/* ---- extract: sf 00 100111 N 0 Rm imms Rn Rd (64-bit: sf = N = 1) -------- */
void a64_extr(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm, int lsb)
{
    BEGIN("extr");
    F(1, 31, 31); F(0b00, 30, 29); F(0b100111, 28, 23); F(1, 22, 22); F(0, 21, 21);
    RZR(rm, 16); F(lsb, 15, 10); RZR(rn, 5); RZR(rd, 0);
    END();
}

/* extr Wd, Wn, Wm, #lsb (lsb 0..31): ror Wd, Wn, #lsb when n == m */
void a64_extr_w(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm, int lsb)
{
    BEGIN("extr_w");
    F(0, 31, 31); F(0b00, 30, 29); F(0b100111, 28, 23); F(0, 22, 22); F(0, 21, 21);
    RZR(rm, 16); F(lsb, 14, 10); F(0, 15, 15); RZR(rn, 5); RZR(rd, 0);
    END();
}

/* ubfm Rd, Rn, #immr, #imms: sf 10 100110 N immr imms Rn Rd, N = sf (lsr, ubfx, lsl are its aliases) */
void a64_ubfm(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, int immr, int imms)
{
    BEGIN("ubfm");
    int hi = w == A64_X64 ? 63 : 31;
    if (immr < 0 || immr > hi || imms < 0 || imms > hi)
        refuse(&i, "immr %d, imms %d: each must be 0..%d", immr, imms, hi);
    F(w == A64_X64, 31, 31); F(0b10, 30, 29); F(0b100110, 28, 23); F(w == A64_X64, 22, 22);
    F(immr & hi, 21, 16); F(imms & hi, 15, 10); RZR(rn, 5); RZR(rd, 0);
    END();
}

/* sbfm Rd, Rn, #immr, #imms: sf 00 100110 N immr imms Rn Rd (asr, sxtw, sxtb, sbfx are its aliases) */
void a64_sbfm(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, int immr, int imms)
{
    BEGIN("sbfm");
    int hi = w == A64_X64 ? 63 : 31;
    if (immr < 0 || immr > hi || imms < 0 || imms > hi)
        refuse(&i, "immr %d, imms %d: each must be 0..%d", immr, imms, hi);
    F(w == A64_X64, 31, 31); F(0b00, 30, 29); F(0b100110, 28, 23); F(w == A64_X64, 22, 22);
    F(immr & hi, 21, 16); F(imms & hi, 15, 10); RZR(rn, 5); RZR(rd, 0);
    END();
}

/* ---- data processing, two sources: sf 0 0 11010110 Rm opcode Rn Rd --------
 * the variable shifts take the amount modulo the width, as Java's shifts do */
#define INSN(NAME, OPCODE)                                                                  \
    void a64_##NAME(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm)           \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        F(w, 31, 31); F(0b00, 30, 29); F(0b11010110, 28, 21); RZR(rm, 16);                  \
        F(OPCODE, 15, 10); RZR(rn, 5); RZR(rd, 0);                                          \
        END();                                                                              \
    }
INSN(udiv, 0b000010)
INSN(sdiv, 0b000011)
INSN(lslv, 0b001000)
INSN(lsrv, 0b001001)
INSN(asrv, 0b001010)
INSN(rorv, 0b001011)
#undef INSN

/* ---- data processing, three sources: sf 00 11011 000 Rm o0 Ra Rn Rd ------- */
#define INSN(NAME, O0)                                                                      \
    void a64_##NAME(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_reg ra) \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        F(w, 31, 31); F(0b00, 30, 29); F(0b11011, 28, 24); F(0b000, 23, 21); RZR(rm, 16);   \
        F(O0, 15, 15); RZR(ra, 10); RZR(rn, 5); RZR(rd, 0);                                 \
        END();                                                                              \
    }
INSN(madd, 0)
INSN(msub, 1)
#undef INSN

void a64_mul(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm)
{
    a64_madd(as, w, rd, rn, rm, A64_ZR);
}

/* ---- data processing, one source: sf 1 0 11010110 00000 opcode Rn Rd ------
 * rev: the bytes reversed, of the whole register (opcode 000011 for x, 000010 for w) */
void a64_rev(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn)
{
    BEGIN("rev");
    F(w, 31, 31); F(1, 30, 30); F(0, 29, 29); F(0b11010110, 28, 21); F(0, 20, 16);
    F(w == A64_X64 ? 0b000011 : 0b000010, 15, 10); RZR(rn, 5); RZR(rd, 0);
    END();
}

/* ---- conditional select: sf op S 11010100 Rm cond op2 Rn Rd ---------------- */
#define INSN(NAME, OP, OP2)                                                                 \
    void a64_##NAME(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_cond c) \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        F(w, 31, 31); F(OP, 30, 30); F(0, 29, 29); F(0b11010100, 28, 21); RZR(rm, 16);      \
        F(c, 15, 12); F(OP2, 11, 10); RZR(rn, 5); RZR(rd, 0);                               \
        END();                                                                              \
    }
INSN(csel,  0, 0b00)
INSN(csinc, 0, 0b01)
INSN(csinv, 1, 0b00)
INSN(csneg, 1, 0b01)
#undef INSN

/* cset rd, c: csinc rd, zr, zr, !c (al and nv have no inverse: refused) */
void a64_cset(a64_asm *as, a64_width w, a64_reg rd, a64_cond c)
{
    if ((int)c >= 14) {
        BEGIN("cset");
        refuse(&i, "condition %d (al, nv) has no inverse", (int)c);
        END();
        return;
    }
    a64_csinc(as, w, rd, A64_ZR, A64_ZR, (a64_cond)((int)c ^ 1));
}

/* ---- move wide: sf opc 100101 hw imm16 Rd --------------------------------- */
#define INSN(NAME, OPC)                                                                     \
    void a64_##NAME(a64_asm *as, a64_width w, a64_reg rd, int64_t imm16, int hw)            \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        if (w == A64_W32 && hw > 1 && hw <= 3)                                              \
            refuse(&i, "hw %d (shift %d) is out of range for a 32-bit register", hw, hw * 16); \
        F(w, 31, 31); F(OPC, 30, 29); F(0b100101, 28, 23); F(hw, 22, 21);                   \
        F(imm16, 20, 5); RZR(rd, 0);                                                        \
        END();                                                                              \
    }
INSN(movn, 0b00)
INSN(movz, 0b10)
INSN(movk, 0b11)
#undef INSN

/* ---- system register read: 1101010100 1 op0:op1:CRn:CRm:op2 Rt ---------- */
void a64_mrs(a64_asm *as, a64_reg rt, a64_sysreg sr)
{
    BEGIN("mrs");
    F(0b1101010100, 31, 22); F(1, 21, 21); F(sr, 20, 5); RZR(rt, 0);
    END();
}

/* ---- branches -------------------------------------------------------------
 * b:      0 00101 imm26
 * b.cond: 0101010 0 imm19 0 cond
 * cbz:    sf 011010 op imm19 Rt
 * tbz:    b5 011011 op b40 imm14 Rt
 * Offsets are in words from the branch. */
static int64_t branch_words(a64_insn *i, int64_t off)
{
    return scaled(i, off, 4, "offset");
}

void a64_b_off(a64_asm *as, int64_t off)
{
    BEGIN("b");
    int64_t imm26 = branch_words(&i, off);
    F(0, 31, 31); F(0b00101, 30, 26); SF(imm26, 25, 0);
    END();
}

void a64_b_cond_off(a64_asm *as, a64_cond c, int64_t off)
{
    BEGIN("b.cond");
    int64_t imm19 = branch_words(&i, off);
    F(0b0101010, 31, 25); F(0, 24, 24); SF(imm19, 23, 5); F(0, 4, 4); F(c, 3, 0);
    END();
}

/* ldr xt, #off (literal): the 64-bit word at pc + off, off a multiple of 4 within ±1 MiB */
void a64_ldr_lit_off(a64_asm *as, a64_reg rt, int64_t off)
{
    BEGIN("ldr (literal)");
    int64_t imm19 = branch_words(&i, off);
    F(0b01011000, 31, 24); SF(imm19, 23, 5); RZR(rt, 0);
    END();
}

/* adr rd, #off: off a byte offset from the instruction, -1 MiB..1 MiB - 1 */
void a64_adr_off(a64_asm *as, a64_reg rd, int64_t off)
{
    BEGIN("adr");
    int64_t immlo = off & 3, immhi = off >> 2;
    F(0, 31, 31); F(immlo, 30, 29); F(0b10000, 28, 24); SF(immhi, 23, 5); RZR(rd, 0);
    END();
}

#define INSN(NAME, OP)                                                                      \
    void a64_##NAME##_off(a64_asm *as, a64_width w, a64_reg rt, int64_t off)                \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int64_t imm19 = branch_words(&i, off);                                              \
        F(w, 31, 31); F(0b011010, 30, 25); F(OP, 24, 24); SF(imm19, 23, 5); RZR(rt, 0);     \
        END();                                                                              \
    }
INSN(cbz,  0)
INSN(cbnz, 1)
#undef INSN

#define INSN(NAME, OP)                                                                      \
    void a64_##NAME##_off(a64_asm *as, a64_reg rt, int bit, int64_t off)                    \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int64_t imm14 = branch_words(&i, off);                                              \
        if (bit < 0 || bit > 63)                                                            \
            refuse(&i, "bit = %d is outside 0..63", bit);                                   \
        int b5 = (bit >> 5) & 1, b40 = bit & 31;                                            \
        F(b5, 31, 31); F(0b011011, 30, 25); F(OP, 24, 24); F(b40, 23, 19);                  \
        SF(imm14, 18, 5); RZR(rt, 0);                                                       \
        END();                                                                              \
    }
INSN(tbz,  0)
INSN(tbnz, 1)
#undef INSN

/* br rn, blr rn: 1101011 0 0 op 11111 000000 Rn 00000 (op 00 br, 01 blr) */
void a64_br(a64_asm *as, a64_reg rn)
{
    BEGIN("br");
    F(0b1101011000011111000000, 31, 10); RZR(rn, 5); F(0, 4, 0);
    END();
}

void a64_blr(a64_asm *as, a64_reg rn)
{
    BEGIN("blr");
    F(0b1101011000111111000000, 31, 10); RZR(rn, 5); F(0, 4, 0);
    END();
}

void a64_ret(a64_asm *as, a64_reg rn)
{
    BEGIN("ret");
    F(0b1101011001011111000000, 31, 10); RZR(rn, 5); F(0, 4, 0);
    END();
}

/* ---- labels -------------------------------------------------------------- */

/* Byte offset to l, or 0 with the branch recorded for patching. */
static int64_t label_offset(a64_asm *as, a64_label *l)
{
    if (l->pos >= 0)
        return ((int64_t)l->pos - (int64_t)as->cb.pos) * 4;
    if (!code_label_refer(l, as->cb.pos))
        a64_asm_fail(as, "no memory for the label's forward branches");
    return 0;
}

void a64_b(a64_asm *as, a64_label *l) { a64_b_off(as, label_offset(as, l)); }
void a64_b_cond(a64_asm *as, a64_cond c, a64_label *l) { a64_b_cond_off(as, c, label_offset(as, l)); }
void a64_cbz(a64_asm *as, a64_width w, a64_reg rt, a64_label *l) { a64_cbz_off(as, w, rt, label_offset(as, l)); }
void a64_cbnz(a64_asm *as, a64_width w, a64_reg rt, a64_label *l) { a64_cbnz_off(as, w, rt, label_offset(as, l)); }
void a64_tbz(a64_asm *as, a64_reg rt, int bit, a64_label *l) { a64_tbz_off(as, rt, bit, label_offset(as, l)); }
void a64_tbnz(a64_asm *as, a64_reg rt, int bit, a64_label *l) { a64_tbnz_off(as, rt, bit, label_offset(as, l)); }
void a64_adr(a64_asm *as, a64_reg rd, a64_label *l) { a64_adr_off(as, rd, label_offset(as, l)); }
void a64_ldr_lit(a64_asm *as, a64_reg rt, a64_label *l) { a64_ldr_lit_off(as, rt, label_offset(as, l)); }

/* Re-set the (zero) offset field of the branch at word index at to reach word index target
   (cb is the a64_asm's first member: code_bind passes the buffer it was given). */
static void patch_branch(code_buffer *cb, size_t at, size_t target)
{
    a64_asm *as = (a64_asm *)cb;
    unsigned char *p = code_buffer_at(cb, at, 1);
    if (!p)
        return; /* never written: the buffer has already failed */
    uint32_t w;
    memcpy(&w, p, sizeof w);
    int hi, lo;
    if ((w & 0x7c000000u) == 0x14000000u)      { hi = 25; lo = 0; }   /* b */
    else if ((w & 0xff000010u) == 0x54000000u) { hi = 23; lo = 5; }   /* b.cond */
    else if ((w & 0x7e000000u) == 0x34000000u) { hi = 23; lo = 5; }   /* cbz/cbnz */
    else if ((w & 0x7e000000u) == 0x36000000u) { hi = 18; lo = 5; }   /* tbz/tbnz */
    else if ((w & 0x9f000000u) == 0x10000000u) { hi = 23; lo = 5; }   /* adr: immhi, immlo 0 */
    else if ((w & 0xff000000u) == 0x58000000u) { hi = 23; lo = 5; }   /* ldr (literal) */
    else return; /* refused when emitted (UDF): nothing to patch */
    a64_insn i = { .as = as, .name = "branch to label", .bits = w, .set = ~field_mask(hi, lo) };
    a64_sf(&i, (int64_t)target - (int64_t)at, hi, lo, "offset");
    w = i.refused ? 0u : i.bits;
    memcpy(p, &w, sizeof w);
}

void a64_bind(a64_asm *as, a64_label *l) { code_bind(&as->cb, l, patch_branch); }

/* ---- SIMD load/store -----------------------------------------------------
 * multiple structures: 0 Q 001100 P L 0 Rm opcode size Rn Rt
 * single, replicate:   0 Q 001101 P L 0 Rm 110 S size Rn Rt
 * P = 1 is post-index: Rm = 31 means "by the transfer size", else by Rm. */
static const int ld1_opcode[5] = { -1, 0b0111, 0b1010, 0b0110, 0b0010 };

static int arrangement_bytes(a64_arrangement t) { return (t & 1) ? 16 : 8; }
static int element_bytes(a64_arrangement t) { return 1 << (t >> 1); }

static void ld1_fields(a64_insn *ip, int n, a64_vreg vt, a64_arrangement t, a64_reg rn,
                       int load, int post, int rm)
{
    a64_insn i = *ip;
    if (n < 1 || n > 4) {
        refuse(&i, "register count %d is outside 1..4", n);
        n = 1;
    }
    int q = t & 1, size = t >> 1, opcode = ld1_opcode[n];
    F(0, 31, 31); F(q, 30, 30); F(0b001100, 29, 24); F(post, 23, 23); F(load, 22, 22);
    F(0, 21, 21); F(rm, 20, 16); F(opcode, 15, 12); F(size, 11, 10); RSP(rn, 5); VR(vt, 0);
    *ip = i;
}

/* ldNr: R (bit 21) and opcode<0> (bit 13) count the registers: 1 R=0 110, 2 R=1 110,
   3 R=0 111, 4 R=1 111. */
static void ldnr_fields(a64_insn *ip, int n, a64_vreg vt, a64_arrangement t, a64_reg rn, int post, int rm)
{
    a64_insn i = *ip;
    int q = t & 1, size = t >> 1, r = (n - 1) & 1, opcode = n <= 2 ? 0b110 : 0b111;
    F(0, 31, 31); F(q, 30, 30); F(0b001101, 29, 24); F(post, 23, 23); F(1, 22, 22);
    F(r, 21, 21); F(rm, 20, 16); F(opcode, 15, 13); F(0, 12, 12); F(size, 11, 10);
    RSP(rn, 5); VR(vt, 0);
    *ip = i;
}

static void post_imm_check(a64_insn *i, int64_t imm, int64_t want)
{
    if (imm != want)
        refuse(i, "post-index imm = %lld must be the transfer size %lld",
               (long long)imm, (long long)want);
}

static int post_reg(a64_insn *i, a64_reg rm)
{
    if ((unsigned)rm > A64_R30) {
        refuse(i, "rm: post-index register must be x0..x30");
        return 0;
    }
    return (int)rm;
}

#define INSN(NAME, L)                                                                       \
    void a64_##NAME(a64_asm *as, int n, a64_vreg vt, a64_arrangement t, a64_reg rn)         \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        ld1_fields(&i, n, vt, t, rn, L, 0, 0);                                              \
        END();                                                                              \
    }                                                                                       \
    void a64_##NAME##_post(a64_asm *as, int n, a64_vreg vt, a64_arrangement t, a64_reg rn,  \
                           int64_t imm)                                                     \
    {                                                                                       \
        BEGIN(#NAME "_post");                                                               \
        post_imm_check(&i, imm, (int64_t)n * arrangement_bytes(t));                         \
        ld1_fields(&i, n, vt, t, rn, L, 1, 31);                                             \
        END();                                                                              \
    }                                                                                       \
    void a64_##NAME##_post_reg(a64_asm *as, int n, a64_vreg vt, a64_arrangement t,          \
                               a64_reg rn, a64_reg rm)                                      \
    {                                                                                       \
        BEGIN(#NAME "_post_reg");                                                           \
        ld1_fields(&i, n, vt, t, rn, L, 1, post_reg(&i, rm));                               \
        END();                                                                              \
    }
INSN(ld1, 1)
INSN(st1, 0)
#undef INSN

/* Single structure, 64-bit elements: 0 Q 001101 P L R Rm opcode S size Rn Rt with size 01, S 0, Q the
   index; n 1: R 0 opcode 100, 2: R 1 100, 3: R 0 101, 4: R 1 101. */
static void lane_d_fields(a64_insn *ip, int n, a64_vreg vt, int index, a64_reg rn, int load, int post)
{
    a64_insn i = *ip;
    if (n < 1 || n > 4) {
        refuse(&i, "register count %d is outside 1..4", n);
        n = 1;
    }
    if (index < 0 || index > 1) {
        refuse(&i, "lane index %d of a 64-bit element is outside 0..1", index);
        index = 0;
    }
    int r = (n - 1) & 1, opcode = n <= 2 ? 0b100 : 0b101;
    F(0, 31, 31); F(index, 30, 30); F(0b001101, 29, 24); F(post, 23, 23); F(load, 22, 22);
    F(r, 21, 21); F(post ? 31 : 0, 20, 16); F(opcode, 15, 13); F(0, 12, 12); F(0b01, 11, 10);
    RSP(rn, 5); VR(vt, 0);
    *ip = i;
}

#define INSN(NAME, L)                                                                            \
    void a64_##NAME##_lane_d(a64_asm *as, int n, a64_vreg vt, int index, a64_reg rn)             \
    {                                                                                            \
        BEGIN(#NAME "_lane_d");                                                                  \
        lane_d_fields(&i, n, vt, index, rn, L, 0);                                               \
        END();                                                                                   \
    }                                                                                            \
    void a64_##NAME##_lane_d_post(a64_asm *as, int n, a64_vreg vt, int index, a64_reg rn, int64_t imm) \
    {                                                                                            \
        BEGIN(#NAME "_lane_d_post");                                                             \
        post_imm_check(&i, imm, 8 * (int64_t)n);                                                 \
        lane_d_fields(&i, n, vt, index, rn, L, 1);                                               \
        END();                                                                                   \
    }
INSN(ldn, 1)
INSN(stn, 0)
#undef INSN

void a64_ld1r(a64_asm *as, a64_vreg vt, a64_arrangement t, a64_reg rn)
{
    BEGIN("ld1r");
    ldnr_fields(&i, 1, vt, t, rn, 0, 0);
    END();
}

void a64_ld1r_post(a64_asm *as, a64_vreg vt, a64_arrangement t, a64_reg rn, int64_t imm)
{
    BEGIN("ld1r_post");
    post_imm_check(&i, imm, element_bytes(t));
    ldnr_fields(&i, 1, vt, t, rn, 1, 31);
    END();
}

void a64_ld1r_post_reg(a64_asm *as, a64_vreg vt, a64_arrangement t, a64_reg rn, a64_reg rm)
{
    BEGIN("ld1r_post_reg");
    ldnr_fields(&i, 1, vt, t, rn, 1, post_reg(&i, rm));
    END();
}

void a64_ld4r(a64_asm *as, a64_vreg vt, a64_arrangement t, a64_reg rn)
{
    BEGIN("ld4r");
    ldnr_fields(&i, 4, vt, t, rn, 0, 0);
    END();
}

/* ---- SIMD three same, bitwise: 0 Q U 01110 opc 1 Rm 000111 Rn Rd --------- */
#define INSN(NAME, U, OPC)                                                                  \
    void a64_##NAME(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn, a64_vreg vm)  \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        if (t != A64_T8B && t != A64_T16B)                                                  \
            refuse(&i, "arrangement must be 8b or 16b");                                    \
        F(0, 31, 31); F(t & 1, 30, 30); F(U, 29, 29); F(0b01110, 28, 24); F(OPC, 23, 22);   \
        F(1, 21, 21); VR(vm, 16); F(0b000111, 15, 10); VR(vn, 5); VR(vd, 0);                \
        END();                                                                              \
    }
INSN(and_v, 0, 0b00)
INSN(bic_v, 0, 0b01)
INSN(orr_v, 0, 0b10)
INSN(eor_v, 1, 0b00)
#undef INSN

void a64_mov_v(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn)
{
    a64_orr_v(as, t, vd, vn, vn);
}

/* The arrangements an encoder accepts, as a mask of bits 1 << T (1D is one
   64-bit lane: reserved in most vector forms). */
#define ARR(t) (1u << (t))
#define ARR_BYTES (ARR(A64_T8B) | ARR(A64_T16B))
#define ARR_NOT_1D (0xffu & ~ARR(A64_T1D))

static void arrangement_check(a64_insn *i, a64_arrangement t, unsigned allowed)
{
    static const char *const names[8] = {"8b", "16b", "4h", "8h", "2s", "4s", "1d", "2d"};
    if ((unsigned)t > A64_T2D)
        refuse(i, "arrangement %d is not an arrangement", (int)t);
    else if (!(allowed & ARR(t)))
        refuse(i, "arrangement %s is not allowed", names[t]);
}

/* ---- SIMD three same, integer add: 0 Q 0 01110 size 1 Rm 10000 1 Rn Rd ---- */
void a64_add_v(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn, a64_vreg vm)
{
    BEGIN("add_v");
    arrangement_check(&i, t, ARR_NOT_1D);
    F(0, 31, 31); F(t & 1, 30, 30); F(0, 29, 29); F(0b01110, 28, 24); F(t >> 1 & 3, 23, 22);
    F(1, 21, 21); VR(vm, 16); F(0b100001, 15, 10); VR(vn, 5); VR(vd, 0);
    END();
}

/* ---- SIMD two-register miscellaneous: 0 Q U 01110 size 10000 opcode 10 Rn Rd ----
 * rev64/rev32 reverse the elements of T inside each 64/32-bit container, so T's
 * element must be narrower than the container. */
#define INSN(NAME, U, OPCODE, ALLOWED)                                                      \
    void a64_##NAME(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn)              \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        arrangement_check(&i, t, ALLOWED);                                                  \
        F(0, 31, 31); F(t & 1, 30, 30); F(U, 29, 29); F(0b01110, 28, 24); F(t >> 1 & 3, 23, 22); \
        F(0b10000, 21, 17); F(OPCODE, 16, 12); F(0b10, 11, 10); VR(vn, 5); VR(vd, 0);      \
        END();                                                                              \
    }
INSN(rev64, 0, 0b00000, ARR_BYTES | ARR(A64_T4H) | ARR(A64_T8H) | ARR(A64_T2S) | ARR(A64_T4S))
INSN(rev32, 1, 0b00000, ARR_BYTES | ARR(A64_T4H) | ARR(A64_T8H))
#undef INSN

/* ---- SIMD extract: 0 Q 101110 00 0 Rm 0 imm4 0 Rn Rd ---------------------
 * vd = bytes index.. of the pair vm:vn (vn the low half); index < 8 for 8B. */
void a64_ext(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn, a64_vreg vm, int index)
{
    BEGIN("ext");
    arrangement_check(&i, t, ARR_BYTES);
    if (t == A64_T8B && index >= 8)
        refuse(&i, "index %d is outside 0..7 for 8b", index);
    F(0, 31, 31); F(t & 1, 30, 30); F(0b101110, 29, 24); F(0b00, 23, 22); F(0, 21, 21);
    VR(vm, 16); F(0, 15, 15); F(index, 14, 11); F(0, 10, 10); VR(vn, 5); VR(vd, 0);
    END();
}

/* ---- SHA3 -------------------------------------------------------------------
 * four-register: 110011100 op 0 Rm 0 Ra Rn Rd   (eor3 op = 00, bcax op = 01)
 * xar:           11001110100 Rm imm6 Rn Rd
 * (rax1 is in the SHA512 three-register class below) */
#define INSN(NAME, OP)                                                                      \
    void a64_##NAME(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm, a64_vreg va)        \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        F(0b110011100, 31, 23); F(OP, 22, 21); VR(vm, 16); F(0, 15, 15); VR(va, 10);        \
        VR(vn, 5); VR(vd, 0);                                                               \
        END();                                                                              \
    }
INSN(eor3, 0b00)
INSN(bcax, 0b01)
#undef INSN

/* ---- Cryptographic three-register SHA512: 11001110011 Rm 1 O 00 opcode Rn Rd ----
 * rax1 (FEAT_SHA3) is the class's fourth member (O = 0, opcode 11). */
#define INSN(NAME, O, OPCODE)                                                               \
    void a64_##NAME(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm)                    \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        F(0b11001110011, 31, 21); VR(vm, 16); F(1, 15, 15); F(O, 14, 14); F(0b00, 13, 12);  \
        F(OPCODE, 11, 10); VR(vn, 5); VR(vd, 0);                                            \
        END();                                                                              \
    }
INSN(sha512h,   0, 0b00)
INSN(sha512h2,  0, 0b01)
INSN(sha512su1, 0, 0b10)
INSN(rax1,      0, 0b11)
#undef INSN

/* ---- Cryptographic two-register SHA512: 11001110110000001000 opcode Rn Rd ---- */
void a64_sha512su0(a64_asm *as, a64_vreg vd, a64_vreg vn)
{
    BEGIN("sha512su0");
    F(0b11001110110000001000, 31, 12); F(0b00, 11, 10); VR(vn, 5); VR(vd, 0);
    END();
}

/* ---- Cryptographic three-register SHA (FEAT_SHA1, FEAT_SHA256):
 *      01011110 00 0 Rm 0 opcode 00 Rn Rd ------------------------------------ */
#define INSN(NAME, OPCODE)                                                                  \
    void a64_##NAME(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm)                    \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        F(0b01011110, 31, 24); F(0b00, 23, 22); F(0, 21, 21); VR(vm, 16); F(0, 15, 15);     \
        F(OPCODE, 14, 12); F(0b00, 11, 10); VR(vn, 5); VR(vd, 0);                           \
        END();                                                                              \
    }
INSN(sha1c,     0b000)
INSN(sha1p,     0b001)
INSN(sha1m,     0b010)
INSN(sha1su0,   0b011)
INSN(sha256h,   0b100)
INSN(sha256h2,  0b101)
INSN(sha256su1, 0b110)
#undef INSN

/* ---- Cryptographic two-register SHA: 01011110 00 10100 opcode 10 Rn Rd ------ */
#define INSN(NAME, OPCODE)                                                                  \
    void a64_##NAME(a64_asm *as, a64_vreg vd, a64_vreg vn)                                 \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        F(0b01011110, 31, 24); F(0b00, 23, 22); F(0b10100, 21, 17); F(OPCODE, 16, 12);     \
        F(0b10, 11, 10); VR(vn, 5); VR(vd, 0);                                              \
        END();                                                                              \
    }
INSN(sha1h,     0b00000)
INSN(sha1su1,   0b00001)
INSN(sha256su0, 0b00010)
#undef INSN

void a64_xar(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm, int imm)
{
    BEGIN("xar");
    F(0b11001110100, 31, 21); VR(vm, 16); F(imm, 15, 10); VR(vn, 5); VR(vd, 0);
    END();
}

/* ---- scalar FP, double ------------------------------------------------------
 * fmov (general): sf 0 0 11110 type 1 rmode opcode 000000 Rn Rd
 * fsub:           0 0 0 11110 type 1 Rm 0011 10 Rn Rd
 * fcmp:           0 0 0 11110 type 1 Rm 00 1000 Rn opcode2 */
#define INSN(NAME, DST, DSTF, SRC, SRCF, OPCODE)                                            \
    void a64_##NAME(a64_asm *as, DST rd, SRC rn)                                            \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        F(1, 31, 31); F(0b00, 30, 29); F(0b11110, 28, 24); F(0b01, 23, 22); F(1, 21, 21);   \
        F(0b00, 20, 19); F(OPCODE, 18, 16); F(0, 15, 10); SRCF(rn, 5); DSTF(rd, 0);         \
        END();                                                                              \
    }
INSN(fmov_dx, a64_vreg, VR,  a64_reg,  RZR, 0b111)
INSN(fmov_xd, a64_reg,  RZR, a64_vreg, VR,  0b110)
#undef INSN

void a64_fsub_d(a64_asm *as, a64_vreg dd, a64_vreg dn, a64_vreg dm)
{
    BEGIN("fsub_d");
    F(0b00011110, 31, 24); F(0b01, 23, 22); F(1, 21, 21); VR(dm, 16); F(0b0011, 15, 12);
    F(0b10, 11, 10); VR(dn, 5); VR(dd, 0);
    END();
}

void a64_fcmp_d(a64_asm *as, a64_vreg dn, a64_vreg dm)
{
    BEGIN("fcmp_d");
    F(0b00011110, 31, 24); F(0b01, 23, 22); F(1, 21, 21); VR(dm, 16); F(0b001000, 15, 10);
    VR(dn, 5); F(0b00000, 4, 0);
    END();
}

void a64_fcmp_d0(a64_asm *as, a64_vreg dn)
{
    BEGIN("fcmp_d0");
    F(0b00011110, 31, 24); F(0b01, 23, 22); F(1, 21, 21); F(0, 20, 16); F(0b001000, 15, 10);
    VR(dn, 5); F(0b01000, 4, 0);
    END();
}
