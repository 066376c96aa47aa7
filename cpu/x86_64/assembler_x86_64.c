/*
 * cpu/x86_64/assembler_x86_64.c — the x86-64 instruction encoder
 * (HotSpot's cpu/x86/assembler_x86.cpp).
 *
 * An instruction is built in a small buffer (insn): prefix, opcode, the r/m
 * side, immediates; it reaches the code buffer only when complete, so a
 * refused instruction becomes exactly one 0xcc byte. The pieces, each written
 * once:
 *
 *   prefixes     rex(), vex(), evex(): the extension bits of the reg field, the
 *                r/m side and vvvv, in the three formats; sse() puts a legacy
 *                SSE instruction's mandatory prefix before its REX;
 *   r/m side     an operand is a register (modrm_rr) or a memory reference
 *                (modrm_mem: ModRM, SIB, displacement); disp8() is the
 *                shortest-displacement rule, EVEX's disp8*N included;
 *   operands     gpr(), vreg(), sse_xmm(), kreg(), vector_length(), imm_in(),
 *                mem_operand() refuse what the encoding cannot express.
 *
 * Encodings are from the Intel SDM, volume 2 (chapter 2 for the prefixes and
 * ModRM/SIB, the instruction pages for opcodes); where two encodings exist the
 * one llvm-mc chooses is used, and tests/data/x64_goldens.txt checks every form
 * against llvm-mc's bytes.
 */
#include "assembler_x86_64.h"

/* ---- the code buffer ----------------------------------------------------- */

void x64_asm_init(x64_asm *as, uint8_t *code, size_t cap)
{
    code_buffer_init(&as->cb, code, cap, 1, "x64 assembler");
}

static void put_byte(x64_asm *as, uint8_t b) { code_buffer_emit(&as->cb, &b); }

void x64_emit_u8(x64_asm *as, uint8_t b) { put_byte(as, b); }

void x64_emit_u64(x64_asm *as, uint64_t v)
{
    for (int k = 0; k < 8; k++)
        put_byte(as, (uint8_t)(v >> (8 * k)));
}

/* The recommended multi-byte nops (Intel SDM vol. 2B, NOP: "Recommended
 * Multi-Byte Sequence of NOP Instruction"), by length. */
static const uint8_t nops[9][9] = {
    { 0x90 },
    { 0x66, 0x90 },
    { 0x0f, 0x1f, 0x00 },
    { 0x0f, 0x1f, 0x40, 0x00 },
    { 0x0f, 0x1f, 0x44, 0x00, 0x00 },
    { 0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00 },
    { 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 },
    { 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
    { 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00 },
};

void x64_align(x64_asm *as, size_t n)
{
    if (n == 0 || (n & (n - 1)) != 0) {
        x64_asm_fail(as, "align: %zu is not a power of two", n);
        return;
    }
    size_t pad = (n - as->cb.pos % n) % n;
    while (pad > 0) {
        size_t len = pad < 9 ? pad : 9;
        for (size_t k = 0; k < len; k++)
            put_byte(as, nops[len - 1][k]);
        pad -= len;
    }
}

/* ---- one instruction under construction ---------------------------------- */

typedef struct insn {
    x64_asm *as;
    const char *name;   /* the form, for messages */
    uint8_t b[16];
    int n;
    bool refused;
} insn;

static insn insn_begin(x64_asm *as, const char *name)
{
    return (insn){ .as = as, .name = name };
}

/* Refuse instruction i: the buffer fails with "form: message" (insn_end emits one int3). */
#define refuse(i, ...) code_buffer_refuse(&(i)->as->cb, &(i)->refused, (i)->name, __VA_ARGS__)

static void emit1(insn *i, unsigned v)
{
    if (i->n < (int)sizeof i->b)
        i->b[i->n] = (uint8_t)v;
    i->n++;
}

static void emit4(insn *i, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        emit1(i, (v >> (8 * k)) & 0xff);
}

/* A refused instruction is one int3, so nothing half-encoded can run. */
static void insn_end(insn *i)
{
    if (!i->refused && i->n > 15)
        refuse(i, "encoder bug: %d bytes (the limit is 15)", i->n);
    if (i->refused) {
        put_byte(i->as, 0xcc);
        return;
    }
    for (int k = 0; k < i->n; k++)
        put_byte(i->as, i->b[k]);
}

#define BEGIN(name) insn i = insn_begin(as, name)
#define END()       insn_end(&i)

/* ---- operands: each refuses what its encoding cannot hold ---------------- */

static int gpr(insn *i, x64_reg r, const char *what)
{
    if ((unsigned)r > X64_R15) {
        refuse(i, "%s: %d is not a general register", what, (int)r);
        return 0;
    }
    return (int)r;
}

/* VEX encodes xmm0..xmm15 (4 bits); EVEX adds a fifth bit (R', V', X). */
static int vreg(insn *i, x64_vreg v, bool evex, const char *what)
{
    if ((unsigned)v > X64_XMM31) {
        refuse(i, "%s: %d is not a vector register", what, (int)v);
        return 0;
    }
    if (!evex && v > X64_XMM15) {
        refuse(i, "%s: xmm%d needs EVEX (VEX encodes xmm0..xmm15)", what, (int)v);
        return 0;
    }
    return (int)v;
}

static int kreg(insn *i, x64_kreg k, const char *what)
{
    if ((unsigned)k > X64_K7) {
        refuse(i, "%s: %d is not a mask register", what, (int)k);
        return 0;
    }
    return (int)k;
}

/* VEX.L is one bit (128, 256); EVEX.L'L two (128, 256, 512). */
static int vector_length(insn *i, x64_vlen l, x64_vlen min, x64_vlen max)
{
    static const int bits[] = { 128, 256, 512 };
    if ((unsigned)l > X64_L512) {
        refuse(i, "vector length %d is not X64_L128, X64_L256 or X64_L512", (int)l);
        return (int)min;
    }
    if (l > max) {   /* only VEX forms stop below 512 bits */
        refuse(i, "%d-bit vectors need EVEX", bits[l]);
        return (int)min;
    }
    if (l < min) {
        refuse(i, "no %d-bit form (%d bits or more)", bits[l], bits[min]);
        return (int)min;
    }
    return (int)l;
}

/* An operation's row in its table (x64_alu, x64_vop, ...: the enum value indexes it); an op
 * that is not one is refused and row 0 stands in. */
#define ROWS(table) (sizeof (table) / sizeof (table)[0])
static unsigned op_row(insn *i, int op, size_t rows, const char *type)
{
    if ((unsigned)op >= rows) {
        refuse(i, "op %d is not an %s", op, type);
        return 0;
    }
    return (unsigned)op;
}

static int imm_in(insn *i, int v, int lo, int hi, const char *what)
{
    if (v < lo || v > hi) {
        refuse(i, "%s = %d is outside %d..%d", what, v, lo, hi);
        return lo;
    }
    return v;
}

#define GPR(r)     gpr(&i, (r), #r)
#define XMM(v)     vreg(&i, (v), false, #v)
#define ZMM(v)     vreg(&i, (v), true, #v)
#define KREG(k)    kreg(&i, (k), #k)
#define IMM8(v)    imm_in(&i, (v), 0, 255, #v)
#define COUNT6(v)  imm_in(&i, (v), 0, 63, #v)

/* ---- the r/m side: a register or a memory reference ---------------------- */

typedef struct operand {
    bool mem;
    int reg;        /* register form: 0..31 (vector), 0..15 (general), 0..7 (mask) */
    x64_mem m;      /* memory form, already checked                             */
} operand;

static operand reg_operand(int r) { return (operand){ .mem = false, .reg = r }; }

static bool scale_ok(int s) { return s == 1 || s == 2 || s == 4 || s == 8; }

/* [base + index * scale + disp]: base any register; index none or any but
 * rsp (SIB index 100 means "none"); scale 1, 2, 4, 8. */
static operand mem_operand(insn *i, x64_mem m, const char *what)
{
    if ((unsigned)m.base > X64_R15) {
        refuse(i, "%s: base %d is not a general register", what, (int)m.base);
        m.base = X64_RAX;
    }
    if (m.index == X64_RSP) {
        refuse(i, "%s: index rsp is not encodable", what);
        m.index = X64_NOREG;
    } else if (m.index != X64_NOREG && (unsigned)m.index > X64_R15) {
        refuse(i, "%s: index %d is not a general register", what, (int)m.index);
        m.index = X64_NOREG;
    }
    if (!scale_ok(m.scale)) {
        refuse(i, "%s: scale %d is not 1, 2, 4 or 8", what, m.scale);
        m.scale = 1;
    }
    return (operand){ .mem = true, .m = m };
}

#define MEM(m) mem_operand(&i, (m), #m)

/* The r/m operand of a form that takes a register or memory there: the INSN macros below
 * generate both forms from one body, RM naming the operand's kind. */
#define RM_GPR(r) reg_operand(GPR(r))
#define RM_XMM(v) reg_operand(XMM(v))
#define RM_ZMM(v) reg_operand(ZMM(v))
#define RM_MEM(m) MEM(m)

/* The r/m side's prefix bits: X is bit 3 of the index (memory) or, in EVEX
 * only, bit 4 of a register operand; B is bit 3 of the base or the register. */
static int rm_x(const operand *o)
{
    if (o->mem)
        return o->m.index == X64_NOREG ? 0 : (o->m.index >> 3) & 1;
    return (o->reg >> 4) & 1;
}

static int rm_b(const operand *o) { return ((o->mem ? (int)o->m.base : o->reg) >> 3) & 1; }

/* The 8-bit displacement, if disp has one: disp / n when disp is a multiple
 * of n and the quotient fits in 8 bits. n is 1 for legacy and VEX forms; for
 * EVEX it is the tuple size N (Intel SDM 2.7.5, "compressed displacement
 * disp8*N"): the vector length in bytes for full-vector memory operands, the
 * element size (8) for a broadcast element. */
static bool disp8(int32_t disp, int n, int8_t *out)
{
    if (disp % n != 0 || disp / n < -128 || disp / n > 127)
        return false;
    *out = (int8_t)(disp / n);
    return true;
}

/* mod 11: reg and rm are registers. */
static void modrm_rr(insn *i, int reg, int rm)
{
    emit1(i, 0xc0 | (reg & 7) << 3 | (rm & 7));
}

/* ModRM, SIB and displacement of [base + index * scale + disp]:
 *  - base rsp/r12 (rm 100) can only be named through a SIB;
 *  - base rbp/r13 (rm 101) with mod 00 would mean rip-relative (or no base
 *    in a SIB), so they always carry a displacement, 0 as disp8;
 *  - otherwise no displacement when it is 0, else disp8 when disp8() allows,
 *    else disp32. */
static void modrm_mem(insn *i, int reg, const x64_mem *m, int n)
{
    int base = m->base & 7;
    bool sib = m->index != X64_NOREG || base == 4;
    int8_t d8 = 0;
    int mod = m->disp == 0 && base != 5 ? 0 : disp8(m->disp, n, &d8) ? 1 : 2;
    emit1(i, mod << 6 | (reg & 7) << 3 | (sib ? 4 : base));
    if (sib) {
        int ss = 0, index = 4;   /* index 100: none */
        if (m->index != X64_NOREG) {
            ss = m->scale == 8 ? 3 : m->scale == 4 ? 2 : m->scale == 2 ? 1 : 0;
            index = m->index & 7;
        }
        emit1(i, ss << 6 | index << 3 | base);
    }
    if (mod == 1)
        emit1(i, (uint8_t)d8);
    else if (mod == 2)
        emit4(i, (uint32_t)m->disp);
}

static void emit_rm(insn *i, int reg, const operand *o, int n)
{
    if (o->mem)
        modrm_mem(i, reg, &o->m, n);
    else
        modrm_rr(i, reg, o->reg);
}

/* ---- prefixes ------------------------------------------------------------ */

/* REX 0100WRXB (SDM 2.2.1), only when one of its bits is needed: W for
 * 64-bit operands, R/X/B for r8..r15 in the reg field, index, base or r/m;
 * or when force is set (a byte register spl, bpl, sil or dil: legacy_byte). */
static void rex_prefix(insn *i, int w, int reg, const operand *o, bool force)
{
    int bits = w << 3 | ((reg >> 3) & 1) << 2 | rm_x(o) << 1 | rm_b(o);
    if (bits || force)
        emit1(i, 0x40 | bits);
}

static void rex(insn *i, int w, int reg, const operand *o) { rex_prefix(i, w, reg, o, false); }

/* The opcode (0x0fxx for two bytes) and the r/m side. */
static void opcode_rm(insn *i, unsigned opcode, int reg, const operand *o)
{
    if (opcode > 0xff)
        emit1(i, opcode >> 8);
    emit1(i, opcode & 0xff);
    emit_rm(i, reg, o, 1);
}

/* A legacy instruction: REX, opcode, r/m side. */
static void legacy(insn *i, int w, unsigned opcode, int reg, const operand *o)
{
    rex(i, w, reg, o);
    opcode_rm(i, opcode, reg, o);
}

/* A legacy instruction on a byte register, byte_reg (the reg field's or the r/m register's
 * number; -1: none): 4..7 name spl, bpl, sil and dil only under a REX (without one they are
 * ah, ch, dh and bh), so those get a REX (0x40) even when none of its bits is set (SDM 3.4.1.1). */
static void legacy_byte(insn *i, unsigned opcode, int reg, const operand *o, int byte_reg)
{
    rex_prefix(i, 0, reg, o, byte_reg >= 4 && byte_reg <= 7);
    opcode_rm(i, opcode, reg, o);
}

/* The opcode of a VEX or EVEX instruction: the implied legacy prefix (pp),
 * the opcode map (mmmmm / mm), W, and the opcode byte. */
enum { PP_NONE, PP_66, PP_F3, PP_F2 };
enum { MAP_0F = 1, MAP_0F38 = 2, MAP_0F3A = 3 };
typedef struct vexop {
    uint8_t pp, map, w, op;
} vexop;
#define VEXOP_INIT(PP, MAP, W, OP) { PP_##PP, MAP_##MAP, W, OP }
#define VEXOP(PP, MAP, W, OP)      ((vexop)VEXOP_INIT(PP, MAP, W, OP))

/* VEX (SDM 2.3.5). R, X, B and vvvv are stored inverted:
 *   2 bytes  C5 [R vvvv L pp]                    when X = B = 0, W = 0, map 0F;
 *   3 bytes  C4 [R X B mmmmm] [W vvvv L pp]      otherwise.
 * vvvv is the second source (0 when unused: 1111). o == NULL: no ModRM. */
static void vex(insn *i, vexop e, int l, int reg, int vvvv, const operand *o)
{
    operand none = reg_operand(0);
    const operand *rm = o ? o : &none;
    int r = (reg >> 3) & 1, x = rm_x(rm), b = rm_b(rm), v = ~vvvv & 15;
    if (!x && !b && !e.w && e.map == MAP_0F) {
        emit1(i, 0xc5);
        emit1(i, !r << 7 | v << 3 | l << 2 | e.pp);
    } else {
        emit1(i, 0xc4);
        emit1(i, !r << 7 | !x << 6 | !b << 5 | e.map);
        emit1(i, e.w << 7 | v << 3 | l << 2 | e.pp);
    }
    emit1(i, e.op);
    if (o)
        emit_rm(i, reg, o, 1);
}

/* EVEX (SDM 2.7.1): 62 P0 P1 P2, then opcode and r/m side.
 *   P0  R X B R' 0 0 m m    R' is bit 4 of reg; X bit 3 of the index or bit 4 of an r/m register
 *   P1  W v v v v 1 p p
 *   P2  z L'L b V' a a a    V' is bit 4 of vvvv; aaa the writemask (0: none); b (broadcast) unused
 * R, X, B, R', vvvv and V' are stored inverted. n is the tuple size N of the
 * memory operand for disp8*N. */
static void evex(insn *i, vexop e, int l, int k, bool z, int n, int reg, int vvvv, const operand *o)
{
    int r = (reg >> 3) & 1, r4 = (reg >> 4) & 1, x = rm_x(o), b = rm_b(o);
    int v = ~vvvv & 15, v4 = (vvvv >> 4) & 1;
    emit1(i, 0x62);
    emit1(i, !r << 7 | !x << 6 | !b << 5 | !r4 << 4 | e.map);
    emit1(i, e.w << 7 | v << 3 | 1 << 2 | e.pp);
    emit1(i, (int)z << 7 | l << 5 | !v4 << 3 | k);
    emit1(i, e.op);
    emit_rm(i, reg, o, n);
}

/* A writemask: k0 means none; zeroing (z) needs a real mask. */
static int writemask(insn *i, x64_kreg k, bool zeroing)
{
    int kk = kreg(i, k, "k");
    if (zeroing && kk == 0)
        refuse(i, "zeroing needs a writemask k1..k7 (k0 means no mask)");
    return kk;
}

/* N for a full-vector memory operand: the vector length in bytes. */
static int full_vector(int l) { return 16 << l; }

/* ---- integer: moves ------------------------------------------------------- */

/* mov r/m, reg: 89 /r. reg-reg moves and ALU ops use this "MR" direction (opcode 0x89,
 * 0x01, ...: the source in the reg field), as llvm-mc does. */
#define INSN(NAME, W, DST_T, RM)                                                            \
    void x64_##NAME(x64_asm *as, DST_T dst, x64_reg src)                                    \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        operand o = RM(dst);                                                                \
        legacy(&i, W, 0x89, GPR(src), &o);                                                  \
        END();                                                                              \
    }
INSN(mov_rr,    1, x64_reg, RM_GPR)
INSN(mov_rr_32, 0, x64_reg, RM_GPR)
INSN(mov_mr,    1, x64_mem, RM_MEM)
INSN(mov_mr_32, 0, x64_mem, RM_MEM)
#undef INSN

/* reg <- r/m (dst in reg, src in r/m): mov 8B, lea 8D, imul 0F AF, movsxd 63 (r64 <- r/m32),
 * movsx 0F BE (REX.W: r64 <- m8), movzx 0F B6 (r32 <- m8; the upper half zeroed) */
#define INSN(NAME, W, OPCODE, SRC_T, RM)                                                    \
    void x64_##NAME(x64_asm *as, x64_reg dst, SRC_T src)                                    \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        operand o = RM(src);                                                                \
        legacy(&i, W, OPCODE, GPR(dst), &o);                                                \
        END();                                                                              \
    }
INSN(mov_rm,       1, 0x8b,   x64_mem, RM_MEM)
INSN(mov_rm_32,    0, 0x8b,   x64_mem, RM_MEM)
INSN(lea,          1, 0x8d,   x64_mem, RM_MEM)
INSN(imul_rr,      1, 0x0faf, x64_reg, RM_GPR)
INSN(imul_rm,      1, 0x0faf, x64_mem, RM_MEM)
INSN(movsxd_rr,    1, 0x63,   x64_reg, RM_GPR)
INSN(movsxd_rm,    1, 0x63,   x64_mem, RM_MEM)
INSN(movsxb_rm,    1, 0x0fbe, x64_mem, RM_MEM)
INSN(movzxb_rm_32, 0, 0x0fb6, x64_mem, RM_MEM)
#undef INSN

/* mov byte [dst], src8: 88 /r (a REX for spl, bpl, sil, dil: legacy_byte) */
void x64_mov_mr_8(x64_asm *as, x64_mem dst, x64_reg src)
{
    BEGIN("mov_mr_8");
    operand o = MEM(dst);
    int s = GPR(src);
    legacy_byte(&i, 0x88, s, &o, s);
    END();
}

/* mov qword [dst], simm32: REX.W C7 /0 id (sign-extended) */
void x64_mov_mi(x64_asm *as, x64_mem dst, int32_t imm)
{
    BEGIN("mov_mi");
    operand o = MEM(dst);
    legacy(&i, 1, 0xc7, 0, &o);
    emit4(&i, (uint32_t)imm);
    END();
}

/* The shortest of: B8+r imm32 (writes the low half, zeroes the upper),
 * REX.W C7 /0 simm32 (sign-extended), REX.W B8+r imm64 (movabs). */
void x64_mov_ri(x64_asm *as, x64_reg dst, int64_t imm)
{
    BEGIN("mov_ri");
    int r = GPR(dst);
    operand o = reg_operand(r);
    if (imm >= 0 && imm <= 0xffffffffLL) {
        rex(&i, 0, 0, &o);
        emit1(&i, 0xb8 | (r & 7));
        emit4(&i, (uint32_t)imm);
    } else if (imm >= INT32_MIN && imm < 0) {
        legacy(&i, 1, 0xc7, 0, &o);
        emit4(&i, (uint32_t)imm);
    } else {
        rex(&i, 1, 0, &o);
        emit1(&i, 0xb8 | (r & 7));
        emit4(&i, (uint32_t)imm);
        emit4(&i, (uint32_t)((uint64_t)imm >> 32));
    }
    END();
}

/* lea dst, [rip + disp32]: mod 00 rm 101; rip is the end of this 7-byte instruction. */
void x64_lea_rip(x64_asm *as, x64_reg dst, size_t target)
{
    BEGIN("lea_rip");
    int r = GPR(dst);
    int64_t disp = (int64_t)target - (int64_t)(as->cb.pos + 7);
    if (disp < INT32_MIN || disp > INT32_MAX)
        refuse(&i, "target %zu is beyond rip%+lld: more than 2 GiB away", target, (long long)disp);
    operand none = reg_operand(0);
    rex(&i, 1, r, &none);
    emit1(&i, 0x8d);
    emit1(&i, (r & 7) << 3 | 5);
    emit4(&i, (uint32_t)(int32_t)disp);
    END();
}

/* ---- integer: arithmetic and logic --------------------------------------- */

/* x64_alu -> the /digit of the 0x81/0x83 group and the base of the
 * register forms (digit << 3: +1 for op r/m, reg; +3 for op reg, r/m; +5 for
 * op rax, imm32). */
static int alu_digit(insn *i, x64_alu op)
{
    static const uint8_t digit[] = {
        [X64_ADD] = 0, [X64_OR] = 1, [X64_AND] = 4, [X64_SUB] = 5, [X64_XOR] = 6, [X64_CMP] = 7,
    };
    return digit[op_row(i, (int)op, ROWS(digit), "x64_alu")];
}

/* op r/m, imm: 83 /digit ib when imm fits in 8 bits; rax takes the 1-byte
 * opcode (digit << 3 | 5) id, as llvm-mc and HotSpot do; else 81 /digit id. */
static void alu_imm(insn *i, int w, int digit, const operand *o, int32_t imm)
{
    if (imm >= -128 && imm <= 127) {
        legacy(i, w, 0x83, digit, o);
        emit1(i, (uint8_t)imm);
    } else if (!o->mem && o->reg == X64_RAX) {
        rex(i, w, 0, o);
        emit1(i, digit << 3 | 5);
        emit4(i, (uint32_t)imm);
    } else {
        legacy(i, w, 0x81, digit, o);
        emit4(i, (uint32_t)imm);
    }
}

/* op r/m, reg: digit << 3 | 1 */
#define INSN(NAME, W, DST_T, RM)                                                            \
    void x64_##NAME(x64_asm *as, x64_alu op, DST_T dst, x64_reg src)                        \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int digit = alu_digit(&i, op);                                                      \
        operand o = RM(dst);                                                                \
        legacy(&i, W, (unsigned)(digit << 3 | 1), GPR(src), &o);                            \
        END();                                                                              \
    }
INSN(alu_rr,    1, x64_reg, RM_GPR)
INSN(alu_rr_32, 0, x64_reg, RM_GPR)
INSN(alu_mr,    1, x64_mem, RM_MEM)
#undef INSN

/* op reg, r/m: digit << 3 | 3 */
#define INSN(NAME, W)                                                                       \
    void x64_##NAME(x64_asm *as, x64_alu op, x64_reg dst, x64_mem src)                      \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int digit = alu_digit(&i, op);                                                      \
        operand o = MEM(src);                                                               \
        legacy(&i, W, (unsigned)(digit << 3 | 3), GPR(dst), &o);                            \
        END();                                                                              \
    }
INSN(alu_rm,    1)
INSN(alu_rm_32, 0)
#undef INSN

/* op r/m, imm (alu_imm) */
#define INSN(NAME, W, DST_T, RM)                                                            \
    void x64_##NAME(x64_asm *as, x64_alu op, DST_T dst, int32_t imm)                        \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int digit = alu_digit(&i, op);                                                      \
        operand o = RM(dst);                                                                \
        alu_imm(&i, W, digit, &o, imm);                                                     \
        END();                                                                              \
    }
INSN(alu_ri,    1, x64_reg, RM_GPR)
INSN(alu_ri_32, 0, x64_reg, RM_GPR)
INSN(alu_mi,    1, x64_mem, RM_MEM)
INSN(alu_mi_32, 0, x64_mem, RM_MEM)
#undef INSN

/* test a, b: 85 /r with a in r/m, b in reg (llvm-mc's choice; test commutes). */
void x64_test_rr(x64_asm *as, x64_reg a, x64_reg b)
{
    BEGIN("test_rr");
    operand o = reg_operand(GPR(a));
    legacy(&i, 1, 0x85, GPR(b), &o);
    END();
}

/* test r/m32, imm32: F7 /0 id for every register (the header's contract:
 * not A9 for eax, which llvm-mc would choose). */
void x64_test_ri_32(x64_asm *as, x64_reg a, int32_t imm)
{
    BEGIN("test_ri_32");
    operand o = reg_operand(GPR(a));
    legacy(&i, 0, 0xf7, 0, &o);
    emit4(&i, (uint32_t)imm);
    END();
}

/* test r64, imm32: REX.W A9 id for rax, else REX.W F7 /0 id (llvm-mc's choice; unlike
 * test_ri_32, whose header promises F7 /0 for eax too). No sign-extended imm8 form exists. */
void x64_test_ri(x64_asm *as, x64_reg a, int32_t imm)
{
    BEGIN("test_ri");
    operand o = reg_operand(GPR(a));
    if (o.reg == X64_RAX) {
        rex(&i, 1, 0, &o);
        emit1(&i, 0xa9);
    } else {
        legacy(&i, 1, 0xf7, 0, &o);
    }
    emit4(&i, (uint32_t)imm);
    END();
}

/* The F7 group, one operand: not /2, neg /3, idiv /7 (rdx:rax / r/m64: quotient in rax,
 * remainder in rdx) */
#define INSN(NAME, W, DIGIT, T, ARG, RM)                                                    \
    void x64_##NAME(x64_asm *as, T ARG)                                                     \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        operand o = RM(ARG);                                                                \
        legacy(&i, W, 0xf7, DIGIT, &o);                                                     \
        END();                                                                              \
    }
INSN(not,    1, 2, x64_reg, r, RM_GPR)
INSN(not_32, 0, 2, x64_reg, r, RM_GPR)
INSN(not_m,  1, 2, x64_mem, m, RM_MEM)
INSN(neg,    1, 3, x64_reg, r, RM_GPR)
INSN(idiv,   1, 7, x64_reg, r, RM_GPR)
#undef INSN

/* imul dst, src, simm32: REX.W 6B /r ib when imm fits in 8 bits, else REX.W 69 /r id */
void x64_imul_rri(x64_asm *as, x64_reg dst, x64_reg src, int32_t imm)
{
    BEGIN("imul_rri");
    operand o = RM_GPR(src);
    bool imm8 = imm >= -128 && imm <= 127;
    legacy(&i, 1, imm8 ? 0x6b : 0x69, GPR(dst), &o);
    if (imm8)
        emit1(&i, (uint8_t)imm);
    else
        emit4(&i, (uint32_t)imm);
    END();
}

/* x64_shift is the /digit of the shift group (C1, D1, D3) */
static int shift_digit(insn *i, x64_shift op)
{
    if (op != X64_ROL && op != X64_ROR && op != X64_SHL && op != X64_SHR && op != X64_SAR)
        refuse(i, "op %d is not rol, ror, shl, shr or sar", (int)op);
    return (int)op & 7;
}

/* shift r/m by imm: D1 /op for 1, C1 /op ib otherwise.
 * r/m64 (W1) takes counts 0..63, r/m32 (W0) 0..31. */
#define INSN(NAME, W, MAX)                                                                  \
    void x64_##NAME(x64_asm *as, x64_shift op, x64_reg r, int imm)                          \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int digit = shift_digit(&i, op);                                                    \
        int count = imm_in(&i, imm, 0, MAX, "imm");                                         \
        operand o = reg_operand(GPR(r));                                                    \
        legacy(&i, W, count == 1 ? 0xd1 : 0xc1, digit, &o);                                 \
        if (count != 1)                                                                     \
            emit1(&i, (unsigned)count);                                                     \
        END();                                                                              \
    }
INSN(shift_ri,    1, 63)
INSN(shift_ri_32, 0, 31)
#undef INSN

/* shift r/m by cl: D3 /op (the count masked to 6 bits, 5 for r/m32) */
#define INSN(NAME, W)                                                                       \
    void x64_##NAME(x64_asm *as, x64_shift op, x64_reg r)                                   \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int digit = shift_digit(&i, op);                                                    \
        operand o = reg_operand(GPR(r));                                                    \
        legacy(&i, W, 0xd3, digit, &o);                                                     \
        END();                                                                              \
    }
INSN(shift_rcl,    1)
INSN(shift_rcl_32, 0)
#undef INSN

/* A condition code (x64_cond: the low nibble of jcc, setcc, cmovcc). */
static int cond(insn *i, x64_cond c)
{
    if ((unsigned)c > X64_G) {
        refuse(i, "condition %d is not an x64_cond", (int)c);
        return 0;
    }
    return (int)c;
}

#define COND(c) cond(&i, (c))

/* setcc r8: 0F 90+cc /0 (a REX for spl, bpl, sil, dil: legacy_byte); only the low byte is
 * written */
void x64_setcc(x64_asm *as, x64_cond c, x64_reg r)
{
    BEGIN("setcc");
    int cc = COND(c);
    operand o = reg_operand(GPR(r));
    legacy_byte(&i, 0x0f90 | (unsigned)cc, 0, &o, o.reg);
    END();
}

/* cmovcc dst, src: REX.W 0F 40+cc /r, dst in reg */
void x64_cmovcc(x64_asm *as, x64_cond c, x64_reg dst, x64_reg src)
{
    BEGIN("cmovcc");
    int cc = COND(c);
    operand o = RM_GPR(src);
    legacy(&i, 1, 0x0f40 | (unsigned)cc, GPR(dst), &o);
    END();
}

/* ---- BMI1/BMI2: VEX-encoded general-register instructions --------------- */

/* andn r64, vvvv = a, r/m = b: VEX.LZ.0F38.W1 F2 /r */
#define INSN(NAME, B_T, RM)                                                                 \
    void x64_##NAME(x64_asm *as, x64_reg dst, x64_reg a, B_T b)                             \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        operand o = RM(b);                                                                  \
        vex(&i, VEXOP(NONE, 0F38, 1, 0xf2), 0, GPR(dst), GPR(a), &o);                       \
        END();                                                                              \
    }
INSN(andn,   x64_reg, RM_GPR)
INSN(andn_m, x64_mem, RM_MEM)
#undef INSN

/* rorx r, r/m, imm8: VEX.LZ.F2.0F3A.W F0 /r ib; W1 r64 (count 0..63), W0 r32 (0..31) */
#define INSN(NAME, SRC_T, RM, W, MAX)                                                       \
    void x64_##NAME(x64_asm *as, x64_reg dst, SRC_T src, int imm)                           \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int count = imm_in(&i, imm, 0, MAX, "imm");                                         \
        operand o = RM(src);                                                                \
        vex(&i, VEXOP(F2, 0F3A, W, 0xf0), 0, GPR(dst), 0, &o);                              \
        emit1(&i, (unsigned)count);                                                         \
        END();                                                                              \
    }
INSN(rorx,    x64_reg, RM_GPR, 1, 63)
INSN(rorx_32, x64_reg, RM_GPR, 0, 31)
INSN(rorx_m,  x64_mem, RM_MEM, 1, 63)
#undef INSN

/* ---- stack and control ----------------------------------------------------- */

/* The register in the opcode's low 3 bits (REX.B the fourth): push 50+r, pop 58+r (64-bit
 * by default), bswap 0F C8+r (REX.W: r64) */
#define INSN(NAME, W, OPCODE)                                                               \
    void x64_##NAME(x64_asm *as, x64_reg r)                                                 \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int n = GPR(r);                                                                     \
        operand o = reg_operand(n);                                                         \
        rex(&i, W, 0, &o);                                                                  \
        if (OPCODE > 0xff)                                                                  \
            emit1(&i, OPCODE >> 8);                                                         \
        emit1(&i, (OPCODE & 0xff) | (n & 7));                                               \
        END();                                                                              \
    }
INSN(push,     0, 0x50)
INSN(pop,      0, 0x58)
INSN(bswap,    1, 0x0fc8)
INSN(bswap_32, 0, 0x0fc8)
#undef INSN

/* call r/m64: FF /2, jmp r/m64: FF /4 (64-bit by default) */
#define INSN(NAME, DIGIT, T, ARG, RM)                                                       \
    void x64_##NAME(x64_asm *as, T ARG)                                                     \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        operand o = RM(ARG);                                                                \
        legacy(&i, 0, 0xff, DIGIT, &o);                                                     \
        END();                                                                              \
    }
INSN(call_r, 2, x64_reg, r, RM_GPR)
INSN(call_m, 2, x64_mem, m, RM_MEM)
INSN(jmp_r,  4, x64_reg, r, RM_GPR)
INSN(jmp_m,  4, x64_mem, m, RM_MEM)
#undef INSN

/* Fixed bytes, no operands. */
#define INSN(NAME, OPCODE)                                                                  \
    void x64_##NAME(x64_asm *as)                                                            \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        if (OPCODE > 0xff)                                                                  \
            emit1(&i, OPCODE >> 8);                                                         \
        emit1(&i, OPCODE & 0xff);                                                           \
        END();                                                                              \
    }
INSN(leave, 0xc9)
INSN(ret,   0xc3)
INSN(cqo,   0x4899)   /* REX.W 99: rdx = the sign of rax (before idiv) */
INSN(ud2,   0x0f0b)
INSN(nop,   0x90)
#undef INSN

/* ---- labels and jumps ---------------------------------------------------- */

/* jmp: EB rel8 / E9 rel32; jcc: 70+cc rel8 / 0F 80+cc rel32 (cc < 0: jmp).
 * A bound (backward) target within rel8 range takes the short form; an
 * unbound one the rel32 form, its field recorded for x64_bind. */
static void jump(x64_asm *as, const char *name, int cc, x64_label *l)
{
    BEGIN(name);
    int near_len = cc < 0 ? 5 : 6;
    if (l->pos >= 0) {
        int64_t rel8 = (int64_t)l->pos - (int64_t)(as->cb.pos + 2);
        if (rel8 >= -128 && rel8 <= 127) {
            emit1(&i, cc < 0 ? 0xeb : 0x70 | (unsigned)cc);
            emit1(&i, (uint8_t)(int8_t)rel8);
            END();
            return;
        }
    }
    int64_t rel32 = 0;
    if (l->pos >= 0) {
        rel32 = (int64_t)l->pos - (int64_t)(as->cb.pos + (size_t)near_len);
        if (rel32 < INT32_MIN)
            refuse(&i, "target is more than 2 GiB back");
    } else if (!code_label_refer(l, as->cb.pos + (size_t)near_len - 4)) {
        refuse(&i, "no memory for the label's forward jumps");
    }
    if (cc < 0) {
        emit1(&i, 0xe9);
    } else {
        emit1(&i, 0x0f);
        emit1(&i, 0x80 | (unsigned)cc);
    }
    emit4(&i, (uint32_t)(int32_t)rel32);
    END();
}

void x64_jmp(x64_asm *as, x64_label *l) { jump(as, "jmp", -1, l); }

void x64_jcc(x64_asm *as, x64_cond c, x64_label *l)
{
    if ((unsigned)c > X64_G) {
        BEGIN("jcc");
        refuse(&i, "condition %d is not an x64_cond", (int)c);
        END();
        return;
    }
    jump(as, "jcc", (int)c, l);
}

/* The rel32 field at byte offset at: target - the end of the field. */
static void patch_rel32(code_buffer *cb, size_t at, size_t target)
{
    int64_t rel = (int64_t)target - (int64_t)(at + 4);
    if (rel > INT32_MAX) {
        code_buffer_fail(cb, "jump at %zu: target is more than 2 GiB ahead", at);
        return;
    }
    unsigned char *p = code_buffer_at(cb, at, 4);
    if (!p)
        return; /* never written: the buffer has already failed */
    for (int b = 0; b < 4; b++)
        p[b] = (uint8_t)((uint32_t)(int32_t)rel >> (8 * b));
}

void x64_bind(x64_asm *as, x64_label *l) { code_bind(&as->cb, l, patch_rel32); }

/* ---- AVX/AVX2 (VEX) ------------------------------------------------------ */

/* vmovdqu load F3 0F 6F, store F3 0F 7F (WIG: W0, as llvm-mc) */
void x64_vmovdqu_load(x64_asm *as, x64_vlen l, x64_vreg dst, x64_mem src)
{
    BEGIN("vmovdqu_load");
    int len = vector_length(&i, l, X64_L128, X64_L256);
    operand o = MEM(src);
    vex(&i, VEXOP(F3, 0F, 0, 0x6f), len, XMM(dst), 0, &o);
    END();
}

void x64_vmovdqu_store(x64_asm *as, x64_vlen l, x64_mem dst, x64_vreg src)
{
    BEGIN("vmovdqu_store");
    int len = vector_length(&i, l, X64_L128, X64_L256);
    operand o = MEM(dst);
    vex(&i, VEXOP(F3, 0F, 0, 0x7f), len, XMM(src), 0, &o);
    END();
}

/* vmovdqa 66 0F 6F (dst in reg) or 7F (src in reg): when only src is xmm8+,
 * 7F keeps it in VEX.R and the 2-byte VEX fits, as llvm-mc chooses. */
void x64_vmovdqa_rr(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src)
{
    BEGIN("vmovdqa_rr");
    int len = vector_length(&i, l, X64_L128, X64_L256);
    int d = XMM(dst), s = XMM(src);
    operand od = reg_operand(d), os = reg_operand(s);
    if (d < 8 && s >= 8)
        vex(&i, VEXOP(66, 0F, 0, 0x7f), len, s, 0, &od);
    else
        vex(&i, VEXOP(66, 0F, 0, 0x6f), len, d, 0, &os);
    END();
}

/* vmovq xmm <-> r64: 66 0F W1 6E / 7E (xmm in reg, r64 in r/m) */
void x64_vmovq_xr(x64_asm *as, x64_vreg dst, x64_reg src)
{
    BEGIN("vmovq_xr");
    operand o = reg_operand(GPR(src));
    vex(&i, VEXOP(66, 0F, 1, 0x6e), 0, XMM(dst), 0, &o);
    END();
}

void x64_vmovq_rx(x64_asm *as, x64_reg dst, x64_vreg src)
{
    BEGIN("vmovq_rx");
    operand o = reg_operand(GPR(dst));
    vex(&i, VEXOP(66, 0F, 1, 0x7e), 0, XMM(src), 0, &o);
    END();
}

/* vmovq xmm, m64: F3 0F 7E; vmovq m64, xmm: 66 0F D6 (llvm-mc's choices) */
void x64_vmovq_load(x64_asm *as, x64_vreg dst, x64_mem src)
{
    BEGIN("vmovq_load");
    operand o = MEM(src);
    vex(&i, VEXOP(F3, 0F, 0, 0x7e), 0, XMM(dst), 0, &o);
    END();
}

void x64_vmovq_store(x64_asm *as, x64_mem dst, x64_vreg src)
{
    BEGIN("vmovq_store");
    operand o = MEM(dst);
    vex(&i, VEXOP(66, 0F, 0, 0xd6), 0, XMM(src), 0, &o);
    END();
}

/* dst = a op b: reg = dst, vvvv = a, r/m = b */
static const vexop vops[] = {
    [X64_VPXOR]       = VEXOP_INIT(66, 0F,   0, 0xef),
    [X64_VPAND]       = VEXOP_INIT(66, 0F,   0, 0xdb),
    [X64_VPANDN]      = VEXOP_INIT(66, 0F,   0, 0xdf),
    [X64_VPOR]        = VEXOP_INIT(66, 0F,   0, 0xeb),
    [X64_VPADDQ]      = VEXOP_INIT(66, 0F,   0, 0xd4),
    [X64_VPSLLVQ]     = VEXOP_INIT(66, 0F38, 1, 0x47),
    [X64_VPSRLVQ]     = VEXOP_INIT(66, 0F38, 1, 0x45),
    [X64_VPUNPCKLQDQ] = VEXOP_INIT(66, 0F,   0, 0x6c),
    [X64_VPUNPCKHQDQ] = VEXOP_INIT(66, 0F,   0, 0x6d),
    [X64_VPADDD]      = VEXOP_INIT(66, 0F,   0, 0xfe),
};

static vexop vop(insn *i, x64_vop op) { return vops[op_row(i, (int)op, ROWS(vops), "x64_vop")]; }

#define INSN(NAME, B_T, RM)                                                                 \
    void x64_##NAME(x64_asm *as, x64_vop op, x64_vlen l, x64_vreg dst, x64_vreg a, B_T b)   \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        vexop e = vop(&i, op);                                                              \
        int len = vector_length(&i, l, X64_L128, X64_L256);                                 \
        operand o = RM(b);                                                                  \
        vex(&i, e, len, XMM(dst), XMM(a), &o);                                              \
        END();                                                                              \
    }
INSN(vop_rrr, x64_vreg, RM_XMM)
INSN(vop_rrm, x64_mem,  RM_MEM)
#undef INSN

/* shift by imm8: 66 0F 73 /6 (psllq), /2 (psrlq); 66 0F 72 /6 (pslld), /2 (psrld); vvvv = dst, r/m = src */
#define INSN(NAME, OPCODE, DIGIT)                                                           \
    void x64_##NAME(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src, int imm)           \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int len = vector_length(&i, l, X64_L128, X64_L256), count = IMM8(imm);              \
        operand o = reg_operand(XMM(src));                                                  \
        vex(&i, VEXOP(66, 0F, 0, OPCODE), len, DIGIT, XMM(dst), &o);                        \
        emit1(&i, (unsigned)count);                                                         \
        END();                                                                              \
    }
INSN(vpsllq_i, 0x73, 6)
INSN(vpsrlq_i, 0x73, 2)
INSN(vpslld_i, 0x72, 6)
INSN(vpsrld_i, 0x72, 2)
#undef INSN

/* vpermq ymm, ymm/m256, imm8: VEX.256.66.0F3A.W1 00 /r ib */
void x64_vpermq(x64_asm *as, x64_vreg dst, x64_vreg src, int imm8)
{
    BEGIN("vpermq");
    int imm = IMM8(imm8);
    operand o = reg_operand(XMM(src));
    vex(&i, VEXOP(66, 0F3A, 1, 0x00), X64_L256, XMM(dst), 0, &o);
    emit1(&i, (unsigned)imm);
    END();
}

/* dst = f(a, b, imm8): VEX.66.0F3A.W0 /r ib, vvvv = a, r/m = b. vpblendd 02; vpalignr 0F
 * (WIG; a is the high half) */
#define INSN(NAME, OPCODE)                                                                  \
    void x64_##NAME(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg a, x64_vreg b, int imm8) \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int len = vector_length(&i, l, X64_L128, X64_L256), imm = IMM8(imm8);               \
        operand o = reg_operand(XMM(b));                                                    \
        vex(&i, VEXOP(66, 0F3A, 0, OPCODE), len, XMM(dst), XMM(a), &o);                     \
        emit1(&i, (unsigned)imm);                                                           \
        END();                                                                              \
    }
INSN(vpblendd, 0x02)
INSN(vpalignr, 0x0f)
#undef INSN

/* vpshufd: VEX.66.0F.WIG 70 /r ib */
void x64_vpshufd(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src, int imm8)
{
    BEGIN("vpshufd");
    int len = vector_length(&i, l, X64_L128, X64_L256), imm = IMM8(imm8);
    operand o = reg_operand(XMM(src));
    vex(&i, VEXOP(66, 0F, 0, 0x70), len, XMM(dst), 0, &o);
    emit1(&i, (unsigned)imm);
    END();
}

/* vperm2i128: VEX.256.66.0F3A.W0 46 /r ib */
void x64_vperm2i128(x64_asm *as, x64_vreg dst, x64_vreg a, x64_vreg b, int imm8)
{
    BEGIN("vperm2i128");
    int imm = IMM8(imm8);
    operand o = reg_operand(XMM(b));
    vex(&i, VEXOP(66, 0F3A, 0, 0x46), X64_L256, XMM(dst), XMM(a), &o);
    emit1(&i, (unsigned)imm);
    END();
}

/* vpbroadcastq: VEX.66.0F38.W0 59 /r, from m64 or an xmm's low qword */
#define INSN(NAME, SRC_T, RM)                                                               \
    void x64_##NAME(x64_asm *as, x64_vlen l, x64_vreg dst, SRC_T src)                       \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int len = vector_length(&i, l, X64_L128, X64_L256);                                 \
        operand o = RM(src);                                                                \
        vex(&i, VEXOP(66, 0F38, 0, 0x59), len, XMM(dst), 0, &o);                            \
        END();                                                                              \
    }
INSN(vpbroadcastq_m, x64_mem,  RM_MEM)
INSN(vpbroadcastq_x, x64_vreg, RM_XMM)
#undef INSN

/* vpinsrq: VEX.128.66.0F3A.W1 22 /r ib; vvvv = a */
void x64_vpinsrq_m(x64_asm *as, x64_vreg dst, x64_vreg a, x64_mem src, int imm)
{
    BEGIN("vpinsrq_m");
    int index = imm_in(&i, imm, 0, 1, "vpinsrq index");
    operand o = MEM(src);
    vex(&i, VEXOP(66, 0F3A, 1, 0x22), X64_L128, XMM(dst), XMM(a), &o);
    emit1(&i, (unsigned)index);
    END();
}

/* vinserti128: VEX.256.66.0F3A.W0 38 /r ib; vvvv = a, r/m = b */
void x64_vinserti128(x64_asm *as, x64_vreg dst, x64_vreg a, x64_vreg b, int imm)
{
    BEGIN("vinserti128");
    int half = imm_in(&i, imm, 0, 1, "vinserti128 half");
    operand o = reg_operand(XMM(b));
    vex(&i, VEXOP(66, 0F3A, 0, 0x38), X64_L256, XMM(dst), XMM(a), &o);
    emit1(&i, (unsigned)half);
    END();
}

/* vzeroupper: VEX.128.0F.WIG 77 = C5 F8 77 */
void x64_vzeroupper(x64_asm *as)
{
    BEGIN("vzeroupper");
    vex(&i, VEXOP(NONE, 0F, 0, 0x77), 0, 0, 0, NULL);
    END();
}

/* vpshufb: VEX.66.0F38.WIG 00 /r; vvvv = a (the bytes), r/m = b (the selectors) */
void x64_vpshufb(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg a, x64_vreg b)
{
    BEGIN("vpshufb");
    int len = vector_length(&i, l, X64_L128, X64_L256);
    operand o = reg_operand(XMM(b));
    vex(&i, VEXOP(66, 0F38, 0, 0x00), len, XMM(dst), XMM(a), &o);
    END();
}

/* ---- SSE (legacy encoding) ------------------------------------------------ */

/* SSE names xmm0..xmm15: REX.R and REX.B give the fourth bit. */
static int sse_xmm(insn *i, x64_vreg v, const char *what)
{
    if ((unsigned)v > X64_XMM31) {
        refuse(i, "%s: %d is not a vector register", what, (int)v);
        return 0;
    }
    if (v > X64_XMM15) {
        refuse(i, "%s: xmm%d needs EVEX (SSE encodes xmm0..xmm15)", what, (int)v);
        return 0;
    }
    return (int)v;
}

#define SSE_XMM(v)    sse_xmm(&i, (v), #v)
#define RM_SSE_XMM(v) reg_operand(SSE_XMM(v))

/* [mandatory prefix] [REX] 0F [38|3A] opcode ModRM (SDM 2.1: a mandatory 66/F3/F2
 * is a legacy prefix and comes first; REX, when needed, immediately precedes the
 * opcode's 0F). The vexop that describes the VEX form describes this one too:
 * pp is the mandatory prefix, map the escape bytes; W is 0 (no 64-bit form here). */
static void sse(insn *i, vexop e, int reg, const operand *o)
{
    static const uint8_t prefix[] = { [PP_66] = 0x66, [PP_F3] = 0xf3, [PP_F2] = 0xf2 };
    if (e.pp != PP_NONE)
        emit1(i, prefix[e.pp]);
    rex(i, 0, reg, o);
    emit1(i, 0x0f);
    if (e.map == MAP_0F38)
        emit1(i, 0x38);
    else if (e.map == MAP_0F3A)
        emit1(i, 0x3a);
    emit1(i, e.op);
    emit_rm(i, reg, o, 1);
}

/* movdqu load F3 0F 6F, store F3 0F 7F; movdqa 66 0F 6F with dst in reg (llvm-mc's choice) */
void x64_movdqu_load(x64_asm *as, x64_vreg dst, x64_mem src)
{
    BEGIN("movdqu_load");
    operand o = MEM(src);
    sse(&i, VEXOP(F3, 0F, 0, 0x6f), SSE_XMM(dst), &o);
    END();
}

void x64_movdqu_store(x64_asm *as, x64_mem dst, x64_vreg src)
{
    BEGIN("movdqu_store");
    operand o = MEM(dst);
    sse(&i, VEXOP(F3, 0F, 0, 0x7f), SSE_XMM(src), &o);
    END();
}

void x64_movdqa_rr(x64_asm *as, x64_vreg dst, x64_vreg src)
{
    BEGIN("movdqa_rr");
    operand o = reg_operand(SSE_XMM(src));
    sse(&i, VEXOP(66, 0F, 0, 0x6f), SSE_XMM(dst), &o);
    END();
}

/* dst = dst op src: reg = dst, r/m = src */
static const vexop sseops[] = {
    [X64_PADDD]       = VEXOP_INIT(66,   0F,   0, 0xfe),
    [X64_PXOR]        = VEXOP_INIT(66,   0F,   0, 0xef),
    [X64_PSHUFB]      = VEXOP_INIT(66,   0F38, 0, 0x00),
    [X64_SHA1NEXTE]   = VEXOP_INIT(NONE, 0F38, 0, 0xc8),
    [X64_SHA1MSG1]    = VEXOP_INIT(NONE, 0F38, 0, 0xc9),
    [X64_SHA1MSG2]    = VEXOP_INIT(NONE, 0F38, 0, 0xca),
    [X64_SHA256RNDS2] = VEXOP_INIT(NONE, 0F38, 0, 0xcb),
    [X64_SHA256MSG1]  = VEXOP_INIT(NONE, 0F38, 0, 0xcc),
    [X64_SHA256MSG2]  = VEXOP_INIT(NONE, 0F38, 0, 0xcd),
};

static vexop sseop(insn *i, x64_sseop op) { return sseops[op_row(i, (int)op, ROWS(sseops), "x64_sseop")]; }

#define INSN(NAME, SRC_T, RM)                                                               \
    void x64_##NAME(x64_asm *as, x64_sseop op, x64_vreg dst, SRC_T src)                     \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        vexop e = sseop(&i, op);                                                            \
        operand o = RM(src);                                                                \
        sse(&i, e, SSE_XMM(dst), &o);                                                       \
        END();                                                                              \
    }
INSN(sse_rr, x64_vreg, RM_SSE_XMM)
INSN(sse_rm, x64_mem,  RM_MEM)
#undef INSN

/* dst = op(dst, src, imm8); sha1rnds4's imm8 selects one of four round functions */
static const struct { vexop e; int imm_max; } sseops_i[] = {
    [X64_PSHUFD]    = { VEXOP_INIT(66,   0F,   0, 0x70), 255 },
    [X64_PALIGNR]   = { VEXOP_INIT(66,   0F3A, 0, 0x0f), 255 },
    [X64_PBLENDW]   = { VEXOP_INIT(66,   0F3A, 0, 0x0e), 255 },
    [X64_SHA1RNDS4] = { VEXOP_INIT(NONE, 0F3A, 0, 0xcc), 3 },
};

void x64_sse_rri(x64_asm *as, x64_sseop_i op, x64_vreg dst, x64_vreg src, int imm8)
{
    BEGIN("sse_rri");
    op = (x64_sseop_i)op_row(&i, (int)op, ROWS(sseops_i), "x64_sseop_i");
    int imm = imm_in(&i, imm8, 0, sseops_i[op].imm_max, "imm8");
    operand o = reg_operand(SSE_XMM(src));
    sse(&i, sseops_i[op].e, SSE_XMM(dst), &o);
    emit1(&i, (unsigned)imm);
    END();
}

/* pinsrd xmm, r/m32, imm8: 66 0F 3A 22 /r ib; pextrd r/m32, xmm, imm8: 66 0F 3A 16 /r ib
 * (the xmm register in reg both times); imm 0..3 the dword */
#define INSN(NAME, DST, SRC, XMM, M, OPCODE)                                                \
    void x64_##NAME##_m(x64_asm *as, DST dst, SRC src, int imm)                             \
    {                                                                                       \
        BEGIN(#NAME "_m");                                                                  \
        int index = imm_in(&i, imm, 0, 3, #NAME " index");                                  \
        operand o = MEM(M);                                                                 \
        sse(&i, VEXOP(66, 0F3A, 0, OPCODE), SSE_XMM(XMM), &o);                              \
        emit1(&i, (unsigned)index);                                                         \
        END();                                                                              \
    }
INSN(pinsrd, x64_vreg, x64_mem,  dst, src, 0x22)
INSN(pextrd, x64_mem,  x64_vreg, src, dst, 0x16)
#undef INSN

/* ---- AVX-512 (EVEX) ------------------------------------------------------- */

/* vmovdqu64 F3 0F W1, vmovdqu8 F2 0F W0, vmovdqu16 F2 0F W1: 6F load, 7F store.
 * Memory operands are full vectors: N = the vector length. */
#define INSN(NAME, PP, W)                                                                   \
    void x64_##NAME##_load(x64_asm *as, x64_vlen l, x64_vreg dst, x64_kreg k, bool zeroing, \
                           x64_mem src)                                                     \
    {                                                                                       \
        BEGIN(#NAME "_load");                                                               \
        int len = vector_length(&i, l, X64_L128, X64_L512), kk = writemask(&i, k, zeroing); \
        operand o = MEM(src);                                                               \
        evex(&i, VEXOP(PP, 0F, W, 0x6f), len, kk, zeroing, full_vector(len), ZMM(dst), 0,   \
             &o);                                                                           \
        END();                                                                              \
    }                                                                                       \
    void x64_##NAME##_store(x64_asm *as, x64_vlen l, x64_mem dst, x64_kreg k, x64_vreg src) \
    {                                                                                       \
        BEGIN(#NAME "_store");                                                              \
        int len = vector_length(&i, l, X64_L128, X64_L512), kk = writemask(&i, k, false);   \
        operand o = MEM(dst);                                                               \
        evex(&i, VEXOP(PP, 0F, W, 0x7f), len, kk, false, full_vector(len), ZMM(src), 0,     \
             &o);                                                                           \
        END();                                                                              \
    }
INSN(evmovdqu64, F3, 1)
INSN(evmovdqu8,  F2, 0)
#undef INSN

void x64_evmovdqu64_rr(x64_asm *as, x64_vlen l, x64_vreg dst, x64_kreg k, bool zeroing, x64_vreg src)
{
    BEGIN("evmovdqu64_rr");
    int len = vector_length(&i, l, X64_L128, X64_L512), kk = writemask(&i, k, zeroing);
    operand o = reg_operand(ZMM(src));
    evex(&i, VEXOP(F3, 0F, 1, 0x6f), len, kk, zeroing, 1, ZMM(dst), 0, &o);
    END();
}

void x64_evmovdqu16_rr(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src)
{
    BEGIN("evmovdqu16_rr");
    int len = vector_length(&i, l, X64_L128, X64_L512);
    operand o = reg_operand(ZMM(src));
    evex(&i, VEXOP(F2, 0F, 1, 0x6f), len, 0, false, 1, ZMM(dst), 0, &o);
    END();
}

/* dst = a op b (W1, 64-bit elements): reg = dst, vvvv = a, r/m = b.
 * vpermq with a vector of indices exists for 256 and 512 bits only. */
static const struct { vexop e; x64_vlen min; } evops[] = {
    [X64_VPXORQ]    = { VEXOP_INIT(66, 0F,   1, 0xef), X64_L128 },
    [X64_VPANDQ]    = { VEXOP_INIT(66, 0F,   1, 0xdb), X64_L128 },
    [X64_VPANDNQ]   = { VEXOP_INIT(66, 0F,   1, 0xdf), X64_L128 },
    [X64_VPORQ]     = { VEXOP_INIT(66, 0F,   1, 0xeb), X64_L128 },
    [X64_VPERMT2Q]  = { VEXOP_INIT(66, 0F38, 1, 0x7e), X64_L128 },
    [X64_VPERMQ_V]  = { VEXOP_INIT(66, 0F38, 1, 0x36), X64_L256 },
    [X64_VPROLVQ]   = { VEXOP_INIT(66, 0F38, 1, 0x15), X64_L128 },
    [X64_VPSLLVQ_E] = { VEXOP_INIT(66, 0F38, 1, 0x47), X64_L128 },
    [X64_VPSRLVQ_E] = { VEXOP_INIT(66, 0F38, 1, 0x45), X64_L128 },
};

static vexop evop(insn *i, x64_evop op, x64_vlen l, int *len)
{
    op = (x64_evop)op_row(i, (int)op, ROWS(evops), "x64_evop");
    *len = vector_length(i, l, evops[op].min, X64_L512);
    return evops[op].e;
}

/* N is the vector length in both forms: only a memory operand has a displacement to compress */
#define INSN(NAME, B_T, RM)                                                                 \
    void x64_##NAME(x64_asm *as, x64_evop op, x64_vlen l, x64_vreg dst, x64_kreg k, bool zeroing, \
                    x64_vreg a, B_T b)                                                      \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int len;                                                                            \
        vexop e = evop(&i, op, l, &len);                                                    \
        int kk = writemask(&i, k, zeroing);                                                 \
        operand o = RM(b);                                                                  \
        evex(&i, e, len, kk, zeroing, full_vector(len), ZMM(dst), ZMM(a), &o);              \
        END();                                                                              \
    }
INSN(evop_rrr, x64_vreg, RM_ZMM)
INSN(evop_rrm, x64_mem,  RM_MEM)
#undef INSN

/* vpternlogq: EVEX.66.0F3A.W1 25 /r ib; reg = dst (also the first input), vvvv = a, r/m = b */
#define INSN(NAME, B_T, RM)                                                                 \
    void x64_##NAME(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg a, B_T b, int imm8)     \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int len = vector_length(&i, l, X64_L128, X64_L512), imm = IMM8(imm8);               \
        operand o = RM(b);                                                                  \
        evex(&i, VEXOP(66, 0F3A, 1, 0x25), len, 0, false, full_vector(len), ZMM(dst), ZMM(a), &o); \
        emit1(&i, (unsigned)imm);                                                           \
        END();                                                                              \
    }
INSN(vpternlogq,   x64_vreg, RM_ZMM)
INSN(vpternlogq_m, x64_mem,  RM_MEM)
#undef INSN

/* vprolq: EVEX.66.0F.W1 72 /1 ib; vvvv = dst, r/m = src */
void x64_vprolq(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src, int imm8)
{
    BEGIN("vprolq");
    int len = vector_length(&i, l, X64_L128, X64_L512), count = COUNT6(imm8);
    operand o = reg_operand(ZMM(src));
    evex(&i, VEXOP(66, 0F, 1, 0x72), len, 0, false, 1, 1, ZMM(dst), &o);
    emit1(&i, (unsigned)count);
    END();
}

/* vpbroadcastq from m64 (EVEX.66.0F38.W1 59: one element, N = 8) or from a
 * GPR (EVEX.66.0F38.W1 7C /r). */
void x64_evpbroadcastq_m(x64_asm *as, x64_vlen l, x64_vreg dst, x64_mem src)
{
    BEGIN("evpbroadcastq_m");
    int len = vector_length(&i, l, X64_L128, X64_L512);
    operand o = MEM(src);
    evex(&i, VEXOP(66, 0F38, 1, 0x59), len, 0, false, 8, ZMM(dst), 0, &o);
    END();
}

void x64_evpbroadcastq_r(x64_asm *as, x64_vlen l, x64_vreg dst, x64_reg src)
{
    BEGIN("evpbroadcastq_r");
    int len = vector_length(&i, l, X64_L128, X64_L512);
    operand o = reg_operand(GPR(src));
    evex(&i, VEXOP(66, 0F38, 1, 0x7c), len, 0, false, 1, ZMM(dst), 0, &o);
    END();
}

/* ---- mask registers (VEX.L0) ---------------------------------------------- */

/* kmovw k, r32: 0F W0 92; kmovw r32, k: 0F W0 93; kmovq k, r64: F2 0F W1 92 */
void x64_kmovw_kr(x64_asm *as, x64_kreg dst, x64_reg src)
{
    BEGIN("kmovw_kr");
    operand o = reg_operand(GPR(src));
    vex(&i, VEXOP(NONE, 0F, 0, 0x92), 0, KREG(dst), 0, &o);
    END();
}

void x64_kmovw_rk(x64_asm *as, x64_reg dst, x64_kreg src)
{
    BEGIN("kmovw_rk");
    operand o = reg_operand(KREG(src));
    vex(&i, VEXOP(NONE, 0F, 0, 0x93), 0, GPR(dst), 0, &o);
    END();
}

void x64_kmovq_kr(x64_asm *as, x64_kreg dst, x64_reg src)
{
    BEGIN("kmovq_kr");
    operand o = reg_operand(GPR(src));
    vex(&i, VEXOP(F2, 0F, 1, 0x92), 0, KREG(dst), 0, &o);
    END();
}

/* kshiftrw 66 0F3A W1 30 /r ib, kshiftlw 32 */
#define INSN(NAME, OPCODE)                                                                  \
    void x64_##NAME(x64_asm *as, x64_kreg dst, x64_kreg src, int imm8)                      \
    {                                                                                       \
        BEGIN(#NAME);                                                                       \
        int imm = IMM8(imm8);                                                               \
        operand o = reg_operand(KREG(src));                                                 \
        vex(&i, VEXOP(66, 0F3A, 1, OPCODE), 0, KREG(dst), 0, &o);                           \
        emit1(&i, (unsigned)imm);                                                           \
        END();                                                                              \
    }
INSN(kshiftrw, 0x30)
INSN(kshiftlw, 0x32)
#undef INSN
