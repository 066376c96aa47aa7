/*
 * cpu/aarch64/assembler_aarch64.h — the AArch64 instruction encoder
 * (HotSpot's cpu/aarch64/assembler_aarch64.hpp, reduced to what the SHA-1,
 * SHA-2 and SHA-3 stubs need).
 *
 * Pure code emission, compiled on every host: words go into a caller-provided
 * buffer; nothing here executes them.
 *
 * Every instruction word is built by one field setter, a64_f(insn, value, hi,
 * lo), which refuses a value too wide for bits hi..lo and a bit set twice; an
 * instruction whose 32 bits are not all set is an encoder bug. A refused
 * instruction marks the buffer failed (a64_asm_failed(), the first message in
 * as->errmsg) and emits a permanently undefined word (0, UDF #0) in its place,
 * so offsets stay right and the code can never run by accident. With
 * as->fatal set (the default when NDEBUG is not defined) the message is
 * printed and the process aborts, as HotSpot's assert does (the code buffer's
 * rules: cpu/codebuffer.h).
 *
 * Registers: A64_R0..A64_R30, A64_ZR and A64_SP are distinct values (both
 * encode as 31); each operand accepts exactly one of zr/sp, as the
 * architecture does, so `add x0, xzr, #1` is refused rather than silently
 * becoming `add x0, sp, #1`. SIMD/FP registers are A64_V0..A64_V31.
 * Generators use the named roles (A64_RSCRATCH1, A64_C_RARG0, ...), never
 * bare numbers.
 *
 * Branches take labels: a branch to an unbound label is patched when the
 * label is bound (a64_bind); a target out of range fails the buffer.
 */
#ifndef MINIVM_ASSEMBLER_AARCH64_H
#define MINIVM_ASSEMBLER_AARCH64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codebuffer.h"

/* ---- registers and their roles ------------------------------------------ */

typedef enum a64_reg {
    A64_R0, A64_R1, A64_R2, A64_R3, A64_R4, A64_R5, A64_R6, A64_R7,
    A64_R8, A64_R9, A64_R10, A64_R11, A64_R12, A64_R13, A64_R14, A64_R15,
    A64_R16, A64_R17, A64_R18, A64_R19, A64_R20, A64_R21, A64_R22, A64_R23,
    A64_R24, A64_R25, A64_R26, A64_R27, A64_R28, A64_R29, A64_R30,
    A64_ZR,   /* xzr/wzr: encodes as 31 where the operand is "register or zr" */
    A64_SP,   /* sp/wsp:  encodes as 31 where the operand is "register or sp" */
} a64_reg;

typedef enum a64_vreg {
    A64_V0, A64_V1, A64_V2, A64_V3, A64_V4, A64_V5, A64_V6, A64_V7,
    A64_V8, A64_V9, A64_V10, A64_V11, A64_V12, A64_V13, A64_V14, A64_V15,
    A64_V16, A64_V17, A64_V18, A64_V19, A64_V20, A64_V21, A64_V22, A64_V23,
    A64_V24, A64_V25, A64_V26, A64_V27, A64_V28, A64_V29, A64_V30, A64_V31,
} a64_vreg;

/* Roles (AAPCS64 and HotSpot's register_aarch64.hpp). Macros, not an enum,
 * so they keep the type a64_reg and the compiler's enum checks still catch a
 * vector register passed where a general one belongs. */
#define A64_C_RARG0   A64_R0
#define A64_C_RARG1   A64_R1
#define A64_C_RARG2   A64_R2
#define A64_C_RARG3   A64_R3
#define A64_C_RARG4   A64_R4
#define A64_C_RARG5   A64_R5
#define A64_C_RARG6   A64_R6
#define A64_C_RARG7   A64_R7
#define A64_RSCRATCH1 A64_R8    /* HotSpot's rscratch1/rscratch2: caller-saved, */
#define A64_RSCRATCH2 A64_R9    /* free for any generator between calls         */
#define A64_RPLATFORM A64_R18   /* reserved on macOS and Windows                */
#define A64_RFP       A64_R29   /* frame pointer                                */
#define A64_RLR       A64_R30   /* link register                                */
/* Callee-saved: x19..x28 (and fp, lr); the low 64 bits of v8..v15 (d8..d15). */
#define A64_FIRST_CALLEE_SAVED A64_R19
#define A64_LAST_CALLEE_SAVED  A64_R28
#define A64_FIRST_CALLEE_SAVED_V A64_V8
#define A64_LAST_CALLEE_SAVED_V  A64_V15

/* Operand width of the integer data-processing forms. */
typedef enum a64_width { A64_W32 = 0, A64_X64 = 1 } a64_width;

/* Shift applied to the second register of add/sub/logical (ROR: logical only). */
typedef enum a64_shift { A64_LSL, A64_LSR, A64_ASR, A64_ROR } a64_shift;

/* Condition codes for b.cond. */
typedef enum a64_cond {
    A64_EQ, A64_NE, A64_HS, A64_LO, A64_MI, A64_PL, A64_VS, A64_VC,
    A64_HI, A64_LS, A64_GE, A64_LT, A64_GT, A64_LE, A64_AL, A64_NV,
} a64_cond;

/* SIMD arrangements: size in bits 2..1, Q in bit 0 (as the encodings use them). */
typedef enum a64_arrangement {
    A64_T8B, A64_T16B, A64_T4H, A64_T8H, A64_T2S, A64_T4S, A64_T1D, A64_T2D,
} a64_arrangement;

/* System registers for mrs: op0:op1:CRn:CRm:op2 as one 16-bit value. */
typedef enum a64_sysreg {
    A64_MIDR_EL1  = 0xC000,   /* 3,0,c0,c0,0: CPU identification (emulated at EL0) */
    A64_CTR_EL0   = 0xD801,   /* 3,3,c0,c0,1: cache type                           */
    A64_DCZID_EL0 = 0xD807,   /* 3,3,c0,c0,7: dc zva block size                    */
    A64_TPIDR_EL0 = 0xDE82,   /* 3,3,c13,c0,2: thread pointer                      */
    A64_CNTVCT_EL0 = 0xDF02,  /* 3,3,c14,c0,2: virtual counter                     */
} a64_sysreg;

/* ---- the code buffer ----------------------------------------------------- */

/* The shared code buffer (codebuffer.h) in units of 32-bit words, in a type of its own so that one
   architecture's encoders cannot be handed the other's buffer. */
typedef struct a64_asm {
    code_buffer cb;
} a64_asm;

/* Start writing at code[0]; cap is in 32-bit words. */
void a64_asm_init(a64_asm *as, uint32_t *code, size_t cap_words);
static inline bool a64_asm_failed(const a64_asm *as) { return as->cb.failed; }
/* Current position in words (the index the next instruction gets). */
static inline size_t a64_asm_pc(const a64_asm *as) { return as->cb.pos; }
/* Mark the buffer failed (used by the macro-assembler for its own checks). */
#define a64_asm_fail(as, ...) code_buffer_fail(&(as)->cb, __VA_ARGS__)
/* Emit one raw word (data, or an instruction built elsewhere). */
void a64_emit(a64_asm *as, uint32_t word);

/* ---- the field setter ---------------------------------------------------- */

/* One instruction under construction (HotSpot's Instruction_aarch64). */
typedef struct a64_insn {
    a64_asm *as;
    const char *name;   /* mnemonic, for messages */
    uint32_t bits;
    uint32_t set;       /* which bits have been set */
    bool refused;
} a64_insn;

a64_insn a64_insn_begin(a64_asm *as, const char *name);
/* Set bits hi..lo to value; refuses value < 0 or wider than the field. */
void a64_f(a64_insn *i, int64_t value, int hi, int lo, const char *field);
/* Set bits hi..lo to a two's-complement value; refuses values out of range. */
void a64_sf(a64_insn *i, int64_t value, int hi, int lo, const char *field);
/* Emit the word (UDF #0 if refused); all 32 bits must have been set. */
void a64_insn_end(a64_insn *i);

/* ---- labels -------------------------------------------------------------- */

typedef code_label a64_label;

static inline void a64_label_init(a64_label *l) { code_label_init(l); }
/* Bind l to the current position and patch the branches waiting for it. */
void a64_bind(a64_asm *as, a64_label *l);

/* ---- loads and stores (64-bit x registers; d, s and q registers) ------- */
/* imm is a byte offset: ldp/stp -512..504 step 8 (ldpq/stpq -1024..1008 step
 * 16); ldr/str unsigned 0..32760 step 8 (ldrs/strs 0..16380 step 4, ldrq/strq
 * 0..65520 step 16); pre/post-index -256..255. rt/rt2 accept zr, rn accepts sp. */

void a64_ldp(a64_asm *as, a64_reg rt, a64_reg rt2, a64_reg rn, int64_t imm);
void a64_ldp_pre(a64_asm *as, a64_reg rt, a64_reg rt2, a64_reg rn, int64_t imm);
void a64_ldp_post(a64_asm *as, a64_reg rt, a64_reg rt2, a64_reg rn, int64_t imm);
void a64_stp(a64_asm *as, a64_reg rt, a64_reg rt2, a64_reg rn, int64_t imm);
void a64_stp_pre(a64_asm *as, a64_reg rt, a64_reg rt2, a64_reg rn, int64_t imm);
void a64_stp_post(a64_asm *as, a64_reg rt, a64_reg rt2, a64_reg rn, int64_t imm);
void a64_ldpd(a64_asm *as, a64_vreg rt, a64_vreg rt2, a64_reg rn, int64_t imm);
void a64_ldpd_pre(a64_asm *as, a64_vreg rt, a64_vreg rt2, a64_reg rn, int64_t imm);
void a64_ldpd_post(a64_asm *as, a64_vreg rt, a64_vreg rt2, a64_reg rn, int64_t imm);
void a64_stpd(a64_asm *as, a64_vreg rt, a64_vreg rt2, a64_reg rn, int64_t imm);
void a64_stpd_pre(a64_asm *as, a64_vreg rt, a64_vreg rt2, a64_reg rn, int64_t imm);
void a64_stpd_post(a64_asm *as, a64_vreg rt, a64_vreg rt2, a64_reg rn, int64_t imm);
void a64_ldpq(a64_asm *as, a64_vreg rt, a64_vreg rt2, a64_reg rn, int64_t imm);
void a64_stpq(a64_asm *as, a64_vreg rt, a64_vreg rt2, a64_reg rn, int64_t imm);
void a64_ldr(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_ldr_pre(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_ldr_post(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_str(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_str_pre(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_str_post(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_ldrd(a64_asm *as, a64_vreg rt, a64_reg rn, int64_t imm);
void a64_ldrd_pre(a64_asm *as, a64_vreg rt, a64_reg rn, int64_t imm);
void a64_ldrd_post(a64_asm *as, a64_vreg rt, a64_reg rn, int64_t imm);
void a64_strd(a64_asm *as, a64_vreg rt, a64_reg rn, int64_t imm);
void a64_strd_pre(a64_asm *as, a64_vreg rt, a64_reg rn, int64_t imm);
void a64_strd_post(a64_asm *as, a64_vreg rt, a64_reg rn, int64_t imm);
void a64_ldrs(a64_asm *as, a64_vreg rt, a64_reg rn, int64_t imm);
void a64_strs(a64_asm *as, a64_vreg rt, a64_reg rn, int64_t imm);
void a64_ldrq(a64_asm *as, a64_vreg rt, a64_reg rn, int64_t imm);
void a64_strq(a64_asm *as, a64_vreg rt, a64_reg rn, int64_t imm);
/* w, sign-extending word and byte accesses, unsigned offset (imm a multiple of 4, or any byte
   offset 0..4095 for the byte forms) */
void a64_ldrw(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_strw(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_ldrsw(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_ldrb(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_strb(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
void a64_ldrsb(a64_asm *as, a64_reg rt, a64_reg rn, int64_t imm);
/* Register offset: [rn, rm] or, scaled, [rn, rm, lsl #log2(size)] (rm a whole x register). */
void a64_ldr_reg(a64_asm *as, a64_reg rt, a64_reg rn, a64_reg rm, int scaled);
void a64_str_reg(a64_asm *as, a64_reg rt, a64_reg rn, a64_reg rm, int scaled);
void a64_ldrw_reg(a64_asm *as, a64_reg rt, a64_reg rn, a64_reg rm, int scaled);
void a64_strw_reg(a64_asm *as, a64_reg rt, a64_reg rn, a64_reg rm, int scaled);
void a64_ldrsw_reg(a64_asm *as, a64_reg rt, a64_reg rn, a64_reg rm, int scaled);
void a64_ldrb_reg(a64_asm *as, a64_reg rt, a64_reg rn, a64_reg rm, int scaled);
void a64_strb_reg(a64_asm *as, a64_reg rt, a64_reg rn, a64_reg rm, int scaled);
void a64_ldrsb_reg(a64_asm *as, a64_reg rt, a64_reg rn, a64_reg rm, int scaled);

/* ---- integer data processing --------------------------------------------- */

/* add/sub immediate: imm 0..4095, lsl12 0 or 1. rd and rn accept sp
 * (subs: rd accepts zr). cmp is subs with rd = zr. */
void a64_add_imm(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, int64_t imm, int lsl12);
void a64_sub_imm(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, int64_t imm, int lsl12);
void a64_adds_imm(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, int64_t imm, int lsl12);
void a64_subs_imm(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, int64_t imm, int lsl12);
void a64_cmp_imm(a64_asm *as, a64_width w, a64_reg rn, int64_t imm, int lsl12);

/* add/sub shifted register: LSL/LSR/ASR, amount 0..63 (x) or 0..31 (w); zr everywhere. */
void a64_add_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
void a64_sub_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
void a64_adds_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
void a64_subs_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
void a64_cmp_reg(a64_asm *as, a64_width w, a64_reg rn, a64_reg rm, a64_shift sh, int amount);

/* Logical shifted register: any shift including ROR; zr everywhere. */
void a64_and_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
void a64_bic_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
void a64_orr_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
void a64_orn_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
void a64_eor_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
void a64_eon_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
void a64_ands_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_shift sh, int amount);
/* mov rd, rm (orr rd, zr, rm): register to register, not to/from sp. */
void a64_mov_reg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rm);

/* extr rd, rn, rm, #lsb (64-bit): lsb 0..63. ror rd, rn, #n is extr rd, rn, rn, #n. */
void a64_extr(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm, int lsb);
void a64_extr_w(a64_asm *as, a64_reg rd, a64_reg rn, a64_reg rm, int lsb);   /* 32-bit, lsb 0..31 */
/* ubfm (lsr Rd, Rn, #s = ubfm #s, #hi; ubfx Rd, Rn, #lsb, #width = ubfm #lsb, #lsb + width - 1) */
void a64_ubfm(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, int immr, int imms);
/* sbfm (asr Rd, Rn, #s = sbfm #s, #hi; sxtw Xd, Wn = sbfm #0, #31; sxtb = sbfm #0, #7) */
void a64_sbfm(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, int immr, int imms);
/* Two sources: division (a zero divisor gives 0; INT_MIN / -1 gives INT_MIN) and the variable
   shifts (lsl, lsr, asr, ror by rm modulo the width). */
void a64_udiv(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm);
void a64_sdiv(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm);
void a64_lslv(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm);
void a64_lsrv(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm);
void a64_asrv(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm);
void a64_rorv(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm);
/* rd = ra + rn * rm (madd), ra - rn * rm (msub); mul is madd with ra = zr */
void a64_madd(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_reg ra);
void a64_msub(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_reg ra);
void a64_mul(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm);
/* rev: the register's bytes reversed (w: the low word's, zero-extended) */
void a64_rev(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn);
/* Conditional select: rd = c ? rn : rm (csel), rm + 1 (csinc), ~rm (csinv), -rm (csneg);
   cset rd, c = csinc rd, zr, zr, !c */
void a64_csel(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_cond c);
void a64_csinc(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_cond c);
void a64_csinv(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_cond c);
void a64_csneg(a64_asm *as, a64_width w, a64_reg rd, a64_reg rn, a64_reg rm, a64_cond c);
void a64_cset(a64_asm *as, a64_width w, a64_reg rd, a64_cond c);

/* Move wide: imm16 shifted left by 16*hw (hw 0..3 for x, 0..1 for w). */
void a64_movz(a64_asm *as, a64_width w, a64_reg rd, int64_t imm16, int hw);
void a64_movk(a64_asm *as, a64_width w, a64_reg rd, int64_t imm16, int hw);
void a64_movn(a64_asm *as, a64_width w, a64_reg rd, int64_t imm16, int hw);

/* mrs rt, <sysreg> */
void a64_mrs(a64_asm *as, a64_reg rt, a64_sysreg sr);

/* ---- branches ------------------------------------------------------------ */
/* The _off forms take a byte offset from the branch itself (multiple of 4):
 * b ±128 MiB, b.cond/cbz ±1 MiB, tbz ±32 KiB. tbz bit is 0..63. */

void a64_b(a64_asm *as, a64_label *l);
void a64_b_cond(a64_asm *as, a64_cond c, a64_label *l);
void a64_cbz(a64_asm *as, a64_width w, a64_reg rt, a64_label *l);
void a64_cbnz(a64_asm *as, a64_width w, a64_reg rt, a64_label *l);
void a64_tbz(a64_asm *as, a64_reg rt, int bit, a64_label *l);
void a64_tbnz(a64_asm *as, a64_reg rt, int bit, a64_label *l);
void a64_b_off(a64_asm *as, int64_t off);
/* adr rd, #off (±1 MiB, any byte offset); a64_adr: the address of a label (a return address
   compiled code stores) */
void a64_adr_off(a64_asm *as, a64_reg rd, int64_t off);
void a64_adr(a64_asm *as, a64_reg rd, a64_label *l);
/* ldr xt, #off (literal, ±1 MiB, a multiple of 4); a64_ldr_lit: the word at a label (a constant
   pool's entry) */
void a64_ldr_lit_off(a64_asm *as, a64_reg rt, int64_t off);
void a64_ldr_lit(a64_asm *as, a64_reg rt, a64_label *l);
void a64_b_cond_off(a64_asm *as, a64_cond c, int64_t off);
void a64_cbz_off(a64_asm *as, a64_width w, a64_reg rt, int64_t off);
void a64_cbnz_off(a64_asm *as, a64_width w, a64_reg rt, int64_t off);
void a64_tbz_off(a64_asm *as, a64_reg rt, int bit, int64_t off);
void a64_tbnz_off(a64_asm *as, a64_reg rt, int bit, int64_t off);
/* ret rn (normally A64_RLR); br rn (a jump), blr rn (a call: the link register the return) */
void a64_ret(a64_asm *as, a64_reg rn);
void a64_br(a64_asm *as, a64_reg rn);
void a64_blr(a64_asm *as, a64_reg rn);

/* ---- SIMD ---------------------------------------------------------------- */
/* ld1/st1 {vt..vt+n-1}.T, [rn] with n 1..4 (register numbers wrap at 31);
 * _post: [rn], #imm with imm = n * 8 (64-bit T) or n * 16 (128-bit T);
 * _post_reg: [rn], rm (rm x0..x30). ld1r loads one element to all lanes:
 * imm = the element size; ld4r loads four consecutive elements, each to all
 * lanes of one of vt..vt+3. */
void a64_ld1(a64_asm *as, int n, a64_vreg vt, a64_arrangement t, a64_reg rn);
void a64_st1(a64_asm *as, int n, a64_vreg vt, a64_arrangement t, a64_reg rn);
void a64_ld1_post(a64_asm *as, int n, a64_vreg vt, a64_arrangement t, a64_reg rn, int64_t imm);
void a64_st1_post(a64_asm *as, int n, a64_vreg vt, a64_arrangement t, a64_reg rn, int64_t imm);
void a64_ld1_post_reg(a64_asm *as, int n, a64_vreg vt, a64_arrangement t, a64_reg rn, a64_reg rm);
void a64_st1_post_reg(a64_asm *as, int n, a64_vreg vt, a64_arrangement t, a64_reg rn, a64_reg rm);
void a64_ld1r(a64_asm *as, a64_vreg vt, a64_arrangement t, a64_reg rn);
void a64_ld1r_post(a64_asm *as, a64_vreg vt, a64_arrangement t, a64_reg rn, int64_t imm);
void a64_ld1r_post_reg(a64_asm *as, a64_vreg vt, a64_arrangement t, a64_reg rn, a64_reg rm);
void a64_ld4r(a64_asm *as, a64_vreg vt, a64_arrangement t, a64_reg rn);
/* Single structures of 64-bit elements: ldN/stN {vt.d .. vt+n-1.d}[index], [rn] with n 1..4
 * and index 0..1 (one lane of each register; the other lane is kept), _post: [rn], #8n. */
void a64_ldn_lane_d(a64_asm *as, int n, a64_vreg vt, int index, a64_reg rn);
void a64_stn_lane_d(a64_asm *as, int n, a64_vreg vt, int index, a64_reg rn);
void a64_ldn_lane_d_post(a64_asm *as, int n, a64_vreg vt, int index, a64_reg rn, int64_t imm);
void a64_stn_lane_d_post(a64_asm *as, int n, a64_vreg vt, int index, a64_reg rn, int64_t imm);

/* Bitwise vector ops: T is 8B or 16B. mov vd, vn is orr vd, vn, vn. */
void a64_and_v(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_bic_v(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_orr_v(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_eor_v(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_mov_v(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn);

/* Integer vector add, element-wise: any arrangement but 1D. */
void a64_add_v(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn, a64_vreg vm);
/* Reverse the T elements in each 64-bit (rev64: 8B..4S) or 32-bit (rev32:
 * 8B..8H) container: rev32 .16b turns big-endian words into native ones. */
void a64_rev64(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn);
void a64_rev32(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn);
/* ext vd, vn, vm, #index: bytes index.. of vm:vn (T 8B: index 0..7, 16B: 0..15). */
void a64_ext(a64_asm *as, a64_arrangement t, a64_vreg vd, a64_vreg vn, a64_vreg vm, int index);

/* SHA3 (FEAT_SHA3): eor3/bcax on .16b, rax1/xar on .2d; xar imm 0..63.
 * eor3 d = n ^ m ^ a; bcax d = n ^ (m & ~a); rax1 d = n ^ rol(m, 1);
 * xar d = ror(n ^ m, imm). */
void a64_eor3(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm, a64_vreg va);
void a64_bcax(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm, a64_vreg va);
void a64_rax1(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_xar(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm, int imm);

/* SHA-1 and SHA-256 (FEAT_SHA1, FEAT_SHA256), the Arm ARM's operand forms:
 *   sha1c/sha1p/sha1m   qd, sn, vm.4s   4 rounds with Ch/Parity/Maj; e in sn
 *   sha1h               sd, sn          sd = rol(sn, 30)
 *   sha1su0             vd.4s, vn.4s, vm.4s   message schedule, part 1
 *   sha1su1             vd.4s, vn.4s          message schedule, part 2
 *   sha256h/sha256h2    qd, qn, vm.4s   4 rounds: new abcd / new efgh
 *   sha256su0           vd.4s, vn.4s          sigma0 part of the schedule
 *   sha256su1           vd.4s, vn.4s, vm.4s   sigma1 part
 * SHA-512 (FEAT_SHA512):
 *   sha512h/sha512h2    qd, qn, vm.2d   2 rounds: the T1 pair / the new (a, b)
 *   sha512su0           vd.2d, vn.2d
 *   sha512su1           vd.2d, vn.2d, vm.2d */
void a64_sha1c(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_sha1p(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_sha1m(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_sha1su0(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_sha1h(a64_asm *as, a64_vreg vd, a64_vreg vn);
void a64_sha1su1(a64_asm *as, a64_vreg vd, a64_vreg vn);
void a64_sha256h(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_sha256h2(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_sha256su0(a64_asm *as, a64_vreg vd, a64_vreg vn);
void a64_sha256su1(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_sha512h(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_sha512h2(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);
void a64_sha512su0(a64_asm *as, a64_vreg vd, a64_vreg vn);
void a64_sha512su1(a64_asm *as, a64_vreg vd, a64_vreg vn, a64_vreg vm);

/* ---- scalar FP (double) -------------------------------------------------- */
void a64_fmov_dx(a64_asm *as, a64_vreg dd, a64_reg xn);   /* fmov dd, xn (xn may be zr) */
void a64_fmov_xd(a64_asm *as, a64_reg xd, a64_vreg dn);   /* fmov xd, dn (xd may be zr) */
void a64_fsub_d(a64_asm *as, a64_vreg dd, a64_vreg dn, a64_vreg dm);
void a64_fcmp_d(a64_asm *as, a64_vreg dn, a64_vreg dm);
void a64_fcmp_d0(a64_asm *as, a64_vreg dn);                /* fcmp dn, #0.0 */

#endif /* MINIVM_ASSEMBLER_AARCH64_H */
