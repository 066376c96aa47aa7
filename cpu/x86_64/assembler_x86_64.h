/*
 * cpu/x86_64/assembler_x86_64.h — the x86-64 instruction encoder
 * (HotSpot's cpu/x86/assembler_x86.hpp, reduced to what the SHA stubs
 * need: scalar integer, BMI1/BMI2, SSE with SHA-NI, AVX2 and AVX-512 forms;
 * and the integer forms a baseline JIT needs: multiply and divide, shifts by
 * cl, widening loads, byte stores, setcc/cmovcc, indirect calls and jumps).
 *
 * Pure code emission, compiled on every host: bytes go into a caller-provided
 * buffer; nothing here executes them.
 *
 * Prefixes are built in one place each, as HotSpot's prefix_and_encode,
 * vex_prefix and evex_prefix: an operand-form helper (register-register,
 * register-memory) computes REX.R/X/B (and EVEX R'/V'), the ModRM, SIB and
 * displacement bytes; the EVEX disp8*N rule (compressed 8-bit displacements,
 * N = the tuple size: the vector length for full-vector forms, 8 for a
 * broadcast element) is written once. An instruction that cannot be encoded
 * (an xmm16+ register in a VEX form, a 512-bit VEX form, a mask register k0
 * where a writemask is required, a shift count out of range ...) is refused:
 * the buffer is marked failed (x64_asm_failed(), the first message in
 * as->errmsg), and one 0xcc (int3) byte is emitted in its place so nothing
 * can run by accident. With as->fatal set (the default when NDEBUG is not
 * defined) the message is printed and the process aborts, as HotSpot's
 * assert does (the code buffer's rules: cpu/codebuffer.h).
 *
 * Registers: X64_RAX..X64_R15 in hardware order; X64_XMM0..X64_XMM31 (the
 * width comes from the x64_vlen operand: xmm, ymm or zmm); X64_K0..X64_K7.
 * Generators use the named roles (X64_C_RARG0, ...), never bare numbers.
 *
 * Jumps take labels: a jump to an unbound label is emitted with a 32-bit
 * displacement and patched when the label is bound (x64_bind); a backward
 * jump whose target is within rel8 range (-128 from the end of the 2-byte
 * jump: at most 126 bytes before the jump) uses the 2-byte form.
 */
#ifndef MINIVM_ASSEMBLER_X86_64_H
#define MINIVM_ASSEMBLER_X86_64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codebuffer.h"

/* ---- registers and their roles ------------------------------------------ */

typedef enum x64_reg {
    X64_RAX, X64_RCX, X64_RDX, X64_RBX, X64_RSP, X64_RBP, X64_RSI, X64_RDI,
    X64_R8, X64_R9, X64_R10, X64_R11, X64_R12, X64_R13, X64_R14, X64_R15,
    X64_NOREG = -1, /* no index register in an x64_mem */
} x64_reg;

typedef enum x64_vreg {
    X64_XMM0, X64_XMM1, X64_XMM2, X64_XMM3, X64_XMM4, X64_XMM5, X64_XMM6, X64_XMM7,
    X64_XMM8, X64_XMM9, X64_XMM10, X64_XMM11, X64_XMM12, X64_XMM13, X64_XMM14, X64_XMM15,
    X64_XMM16, X64_XMM17, X64_XMM18, X64_XMM19, X64_XMM20, X64_XMM21, X64_XMM22, X64_XMM23,
    X64_XMM24, X64_XMM25, X64_XMM26, X64_XMM27, X64_XMM28, X64_XMM29, X64_XMM30, X64_XMM31,
} x64_vreg;

typedef enum x64_kreg { X64_K0, X64_K1, X64_K2, X64_K3, X64_K4, X64_K5, X64_K6, X64_K7 } x64_kreg;

/* Roles (System V AMD64 ABI). Macros so they keep the type x64_reg. */
#define X64_C_RARG0 X64_RDI
#define X64_C_RARG1 X64_RSI
#define X64_C_RARG2 X64_RDX
#define X64_C_RARG3 X64_RCX
#define X64_C_RARG4 X64_R8
#define X64_C_RARG5 X64_R9
#define X64_RSCRATCH1 X64_R10 /* caller-saved, no argument: free between calls (HotSpot's rscratch1) */
#define X64_RSCRATCH2 X64_R11
/* Callee-saved: rbx, rbp, r12..r15 (and rsp); every vector and mask register is caller-saved. */

/* Vector length of a VEX/EVEX form. */
typedef enum x64_vlen { X64_L128 = 0, X64_L256 = 1, X64_L512 = 2 } x64_vlen;

/* Condition codes: the low nibble of jcc (0x70+cc, 0x0f 0x80+cc). */
typedef enum x64_cond {
    X64_O, X64_NO, X64_B, X64_AE, X64_E, X64_NE, X64_BE, X64_A,
    X64_S, X64_NS, X64_P, X64_NP, X64_L, X64_GE, X64_LE, X64_G,
} x64_cond;

/* A memory operand [base + index * scale + disp]. base may be X64_RSP
 * (always a SIB) or X64_RBP/X64_R13 (always a displacement); index is
 * X64_NOREG or any register but X64_RSP; scale 1, 2, 4 or 8. The
 * displacement takes the shortest form: none, 8 bits (EVEX: disp8*N when the
 * displacement is a multiple of N and the quotient fits), or 32 bits. */
typedef struct x64_mem {
    x64_reg base;
    x64_reg index;
    uint8_t scale;
    int32_t disp;
} x64_mem;

static inline x64_mem x64_at(x64_reg base, int32_t disp) { return (x64_mem){base, X64_NOREG, 1, disp}; }
static inline x64_mem x64_at_index(x64_reg base, x64_reg index, int scale, int32_t disp)
{
    return (x64_mem){base, index, (uint8_t)scale, disp};
}

/* ---- the code buffer ----------------------------------------------------- */

/* The shared code buffer (codebuffer.h) in units of bytes, in a type of its own so that one
   architecture's encoders cannot be handed the other's buffer. */
typedef struct x64_asm {
    code_buffer cb;
} x64_asm;

/* Start writing at code[0]; cap is in bytes. */
void x64_asm_init(x64_asm *as, uint8_t *code, size_t cap);
static inline bool x64_asm_failed(const x64_asm *as) { return as->cb.failed; }
/* Current position in bytes (the offset the next instruction gets). */
static inline size_t x64_asm_pc(const x64_asm *as) { return as->cb.pos; }
/* Mark the buffer failed (used by the macro-assembler for its own checks). */
#define x64_asm_fail(as, ...) code_buffer_fail(&(as)->cb, __VA_ARGS__)
/* Raw data: one byte, a little-endian 64-bit word (constant tables). */
void x64_emit_u8(x64_asm *as, uint8_t b);
void x64_emit_u64(x64_asm *as, uint64_t v);
/* Pad with multi-byte nops (0x0f 0x1f ...) to a multiple of n (a power of two). */
void x64_align(x64_asm *as, size_t n);

/* ---- labels -------------------------------------------------------------- */

typedef code_label x64_label;

static inline void x64_label_init(x64_label *l) { code_label_init(l); }
/* Bind l to the current position and patch the jumps waiting for it. */
void x64_bind(x64_asm *as, x64_label *l);

/* ---- integer: moves, arithmetic, logic (64-bit; the _32 forms operate on
 *      the low 32 bits and zero the upper half, as movl/addl/cmpl/subl) ---- */

void x64_mov_rr(x64_asm *as, x64_reg dst, x64_reg src);            /* mov dst, src (64) */
void x64_mov_rm(x64_asm *as, x64_reg dst, x64_mem src);            /* mov dst, qword [src] */
void x64_mov_mr(x64_asm *as, x64_mem dst, x64_reg src);            /* mov qword [dst], src */
void x64_mov_ri(x64_asm *as, x64_reg dst, int64_t imm);            /* shortest: mov r32, imm32 when it zero-extends, mov r/m64, simm32, else movabs */
void x64_mov_rr_32(x64_asm *as, x64_reg dst, x64_reg src);         /* mov dst32, src32 */
void x64_mov_rm_32(x64_asm *as, x64_reg dst, x64_mem src);         /* mov dst32, dword [src] */
void x64_mov_mr_32(x64_asm *as, x64_mem dst, x64_reg src);         /* mov dword [dst], src32 */
void x64_mov_mr_8(x64_asm *as, x64_mem dst, x64_reg src);          /* mov byte [dst], src8 (spl, bpl, sil, dil: REX) */
void x64_mov_mi(x64_asm *as, x64_mem dst, int32_t imm);            /* mov qword [dst], simm32 (sign-extended) */
/* Widening loads and moves: movsx r64, byte [src]; movsxd r64, dword [src] and r64, r32;
   movzx r32, byte [src] (the upper half zeroed, as every 32-bit write) */
void x64_movsxb_rm(x64_asm *as, x64_reg dst, x64_mem src);
void x64_movsxd_rm(x64_asm *as, x64_reg dst, x64_mem src);
void x64_movsxd_rr(x64_asm *as, x64_reg dst, x64_reg src);         /* movsxd dst, src32 */
void x64_movzxb_rm_32(x64_asm *as, x64_reg dst, x64_mem src);
void x64_bswap(x64_asm *as, x64_reg r);                             /* byte order of r64 reversed */
void x64_bswap_32(x64_asm *as, x64_reg r);                          /* of r32 (the upper half zeroed) */
void x64_lea(x64_asm *as, x64_reg dst, x64_mem src);
/* lea dst, [rip + (target - end of this instruction)]: target is a byte offset in this buffer */
void x64_lea_rip(x64_asm *as, x64_reg dst, size_t target);

/* op dst, src for op in add, sub, and, or, xor, cmp, test (test: no _rm/_mr difference).
 * Immediates are sign-extended 32-bit values; the 8-bit form is used when it fits,
 * else rax/eax take the one-byte-opcode form (05, 0D, ... id), as llvm-mc and HotSpot do. */
typedef enum x64_alu { X64_ADD, X64_OR, X64_AND, X64_SUB, X64_XOR, X64_CMP } x64_alu;
void x64_alu_rr(x64_asm *as, x64_alu op, x64_reg dst, x64_reg src);
void x64_alu_rm(x64_asm *as, x64_alu op, x64_reg dst, x64_mem src);
void x64_alu_rm_32(x64_asm *as, x64_alu op, x64_reg dst, x64_mem src);  /* op dst32, dword [src] */
void x64_alu_mr(x64_asm *as, x64_alu op, x64_mem dst, x64_reg src);
void x64_alu_ri(x64_asm *as, x64_alu op, x64_reg dst, int32_t imm);
void x64_alu_mi(x64_asm *as, x64_alu op, x64_mem dst, int32_t imm);
void x64_alu_mi_32(x64_asm *as, x64_alu op, x64_mem dst, int32_t imm); /* op dword [dst], imm32 */
void x64_alu_rr_32(x64_asm *as, x64_alu op, x64_reg dst, x64_reg src);
void x64_alu_ri_32(x64_asm *as, x64_alu op, x64_reg dst, int32_t imm);
void x64_test_rr(x64_asm *as, x64_reg a, x64_reg b);
void x64_test_ri_32(x64_asm *as, x64_reg a, int32_t imm);         /* test a32, imm32 (al/eax short forms not used) */
void x64_test_ri(x64_asm *as, x64_reg a, int32_t imm);            /* test a, simm32 (rax: the short form A9, as llvm-mc) */
void x64_not(x64_asm *as, x64_reg r);
void x64_not_32(x64_asm *as, x64_reg r);                             /* not r32 */
void x64_not_m(x64_asm *as, x64_mem m);                             /* not qword [m] */
void x64_neg(x64_asm *as, x64_reg r);
/* Multiply and divide (64-bit, signed): imul dst = dst * src, dst = src * imm (the low 64
 * bits); cqo sign-extends rax into rdx; idiv divides rdx:rax by r (quotient rax, remainder
 * rdx; #DE on a zero divisor or an overflowing quotient: the caller checks). */
void x64_imul_rr(x64_asm *as, x64_reg dst, x64_reg src);
void x64_imul_rm(x64_asm *as, x64_reg dst, x64_mem src);           /* imul dst, qword [src] */
void x64_imul_rri(x64_asm *as, x64_reg dst, x64_reg src, int32_t imm); /* 8-bit form when imm fits */
void x64_cqo(x64_asm *as);
void x64_idiv(x64_asm *as, x64_reg r);

/* Shifts and rotates by an immediate 0..63 (1 uses the D1 form, as assemblers do). */
typedef enum x64_shift { X64_ROL = 0, X64_ROR = 1, X64_SHL = 4, X64_SHR = 5, X64_SAR = 7 } x64_shift;
void x64_shift_ri(x64_asm *as, x64_shift op, x64_reg r, int imm);
void x64_shift_ri_32(x64_asm *as, x64_shift op, x64_reg r, int imm);   /* r32, imm 0..31 */
/* Shifts and rotates by cl (the count masked to 0..63, 0..31 for r32, by the CPU). */
void x64_shift_rcl(x64_asm *as, x64_shift op, x64_reg r);
void x64_shift_rcl_32(x64_asm *as, x64_shift op, x64_reg r);

/* Conditions as values: setcc writes 1 or 0 to r's low byte only (spl, bpl, sil, dil: REX;
 * zero r first, or widen it after), cmovcc moves src to dst when c holds. */
void x64_setcc(x64_asm *as, x64_cond c, x64_reg r);
void x64_cmovcc(x64_asm *as, x64_cond c, x64_reg dst, x64_reg src);

/* BMI1 andn dst = ~a & b; BMI2 rorx dst = ror(src, imm), imm 0..63, no flags. */
void x64_andn(x64_asm *as, x64_reg dst, x64_reg a, x64_reg b);
void x64_andn_m(x64_asm *as, x64_reg dst, x64_reg a, x64_mem b);
void x64_rorx(x64_asm *as, x64_reg dst, x64_reg src, int imm);
void x64_rorx_32(x64_asm *as, x64_reg dst, x64_reg src, int imm);   /* rorx r32, r32, imm 0..31 (BMI2) */
void x64_rorx_m(x64_asm *as, x64_reg dst, x64_mem src, int imm);

/* ---- stack and control --------------------------------------------------- */
void x64_push(x64_asm *as, x64_reg r);
void x64_pop(x64_asm *as, x64_reg r);
void x64_leave(x64_asm *as);
void x64_ret(x64_asm *as);
void x64_jmp(x64_asm *as, x64_label *l);
void x64_jcc(x64_asm *as, x64_cond c, x64_label *l);
/* Indirect calls and jumps. A call to an address (a C function, a stub) is
 *     x64_mov_ri(as, X64_RSCRATCH1, (int64_t)(intptr_t)target); x64_call_r(as, X64_RSCRATCH1);
 * or x64_call_m through a table: the code buffer knows where it writes, not where the code
 * will run (a test's or a dump's buffer, a dry run with none), so there is no call rel32 to
 * an address. */
void x64_call_r(x64_asm *as, x64_reg r);                           /* call r */
void x64_call_m(x64_asm *as, x64_mem m);                           /* call qword [m] */
void x64_jmp_r(x64_asm *as, x64_reg r);                            /* jmp r */
void x64_jmp_m(x64_asm *as, x64_mem m);                            /* jmp qword [m] */
void x64_ud2(x64_asm *as);
void x64_nop(x64_asm *as);

/* ---- AVX/AVX2 (VEX): registers xmm0..xmm15, 128 or 256 bits ------------- */
void x64_vmovdqu_load(x64_asm *as, x64_vlen l, x64_vreg dst, x64_mem src);
void x64_vmovdqu_store(x64_asm *as, x64_vlen l, x64_mem dst, x64_vreg src);
void x64_vmovdqa_rr(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src);
void x64_vmovq_xr(x64_asm *as, x64_vreg dst, x64_reg src);          /* vmovq xmm, r64 */
void x64_vmovq_rx(x64_asm *as, x64_reg dst, x64_vreg src);          /* vmovq r64, xmm */
void x64_vmovq_load(x64_asm *as, x64_vreg dst, x64_mem src);        /* vmovq xmm, qword [src] */
void x64_vmovq_store(x64_asm *as, x64_mem dst, x64_vreg src);       /* vmovq qword [dst], xmm */
/* dst = a op b, op in vpxor, vpand, vpandn (~a & b), vpor, vpaddq, vpsllvq, vpsrlvq,
   vpunpcklqdq, vpunpckhqdq */
typedef enum x64_vop {
    X64_VPXOR, X64_VPAND, X64_VPANDN, X64_VPOR, X64_VPADDQ, X64_VPSLLVQ, X64_VPSRLVQ, X64_VPUNPCKLQDQ,
    X64_VPUNPCKHQDQ, X64_VPADDD,
} x64_vop;
void x64_vop_rrr(x64_asm *as, x64_vop op, x64_vlen l, x64_vreg dst, x64_vreg a, x64_vreg b);
void x64_vop_rrm(x64_asm *as, x64_vop op, x64_vlen l, x64_vreg dst, x64_vreg a, x64_mem b);
void x64_vpsllq_i(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src, int imm);   /* imm 0..255 */
void x64_vpsrlq_i(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src, int imm);
void x64_vpslld_i(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src, int imm);   /* dwords, imm 0..255 */
void x64_vpsrld_i(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src, int imm);
void x64_vpermq(x64_asm *as, x64_vreg dst, x64_vreg src, int imm8);              /* 256 bits only */
void x64_vpblendd(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg a, x64_vreg b, int imm8);
void x64_vpshufd(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src, int imm8);
void x64_vperm2i128(x64_asm *as, x64_vreg dst, x64_vreg a, x64_vreg b, int imm8); /* 256 bits only */
void x64_vpbroadcastq_m(x64_asm *as, x64_vlen l, x64_vreg dst, x64_mem src);    /* VEX: AVX2 */
void x64_vpbroadcastq_x(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src);   /* from xmm src's low qword */
/* vpinsrq dst, a, m64, imm (0..1): a with qword imm replaced from memory (128 bits) */
void x64_vpinsrq_m(x64_asm *as, x64_vreg dst, x64_vreg a, x64_mem src, int imm);
/* vinserti128 dst, a, b, imm (0..1): a (256 bits) with 128-bit half imm replaced by xmm b */
void x64_vinserti128(x64_asm *as, x64_vreg dst, x64_vreg a, x64_vreg b, int imm);
void x64_vzeroupper(x64_asm *as);
/* vpshufb dst, a, b: byte k of each 128-bit lane of dst is the byte of a's lane that b's byte k
   selects (0 when its bit 7 is set); vpalignr dst, a, b, imm: each lane of dst is the lane pair
   a:b (a high) shifted right by imm bytes (0..255) */
void x64_vpshufb(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg a, x64_vreg b);
void x64_vpalignr(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg a, x64_vreg b, int imm8);

/* ---- SSE (legacy encoding): xmm0..xmm15, 128 bits ------------------------
 * [66|F3] [REX] 0F [38|3A] opcode ModRM: the mandatory prefix before REX.
 * SHA-NI exists only in this encoding, so the stubs that use it keep the rest
 * of their vector code legacy too (no VEX/SSE transitions). The arithmetic
 * forms' memory operands must be 16-byte aligned (SSE's rule; movdqu and
 * the 32-bit pinsrd/pextrd excepted). */
void x64_movdqu_load(x64_asm *as, x64_vreg dst, x64_mem src);
void x64_movdqu_store(x64_asm *as, x64_mem dst, x64_vreg src);
void x64_movdqa_rr(x64_asm *as, x64_vreg dst, x64_vreg src);
/* dst = dst op src, op in paddd, pxor, pshufb (src selects dst's bytes), and the SHA-NI
   message and round forms sha1nexte, sha1msg1, sha1msg2, sha256rnds2 (its third operand
   is always xmm0: the two rounds' W + K in its low dwords), sha256msg1, sha256msg2 */
typedef enum x64_sseop {
    X64_PADDD, X64_PXOR, X64_PSHUFB, X64_SHA1NEXTE, X64_SHA1MSG1, X64_SHA1MSG2, X64_SHA256RNDS2,
    X64_SHA256MSG1, X64_SHA256MSG2,
} x64_sseop;
void x64_sse_rr(x64_asm *as, x64_sseop op, x64_vreg dst, x64_vreg src);
void x64_sse_rm(x64_asm *as, x64_sseop op, x64_vreg dst, x64_mem src);
/* dst = op(dst, src, imm8) for pshufd (dst = src's dwords as imm8 picks them), palignr
   (dst:src shifted right by imm8 bytes), pblendw (word k from src where imm8 bit k is set),
   sha1rnds4 (four rounds, imm8 0..3 the round function and constant) */
typedef enum x64_sseop_i { X64_PSHUFD, X64_PALIGNR, X64_PBLENDW, X64_SHA1RNDS4 } x64_sseop_i;
void x64_sse_rri(x64_asm *as, x64_sseop_i op, x64_vreg dst, x64_vreg src, int imm8);
/* pinsrd dst, dword [src], imm (0..3): dword imm of dst from memory; pextrd dword [dst], src, imm */
void x64_pinsrd_m(x64_asm *as, x64_vreg dst, x64_mem src, int imm);
void x64_pextrd_m(x64_asm *as, x64_mem dst, x64_vreg src, int imm);

/* ---- AVX-512 (EVEX): xmm0..xmm31, 128, 256 or 512 bits; masks ------------
 * k: the writemask (X64_K0 = none); zeroing: zero the unselected elements
 * instead of merging (a store is always merging). */
void x64_evmovdqu64_load(x64_asm *as, x64_vlen l, x64_vreg dst, x64_kreg k, bool zeroing, x64_mem src);
void x64_evmovdqu64_store(x64_asm *as, x64_vlen l, x64_mem dst, x64_kreg k, x64_vreg src);
void x64_evmovdqu64_rr(x64_asm *as, x64_vlen l, x64_vreg dst, x64_kreg k, bool zeroing, x64_vreg src);
void x64_evmovdqu8_load(x64_asm *as, x64_vlen l, x64_vreg dst, x64_kreg k, bool zeroing, x64_mem src);
void x64_evmovdqu8_store(x64_asm *as, x64_vlen l, x64_mem dst, x64_kreg k, x64_vreg src);
void x64_evmovdqu16_rr(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src);    /* HotSpot's evmovdquw copy */
/* dst = a op b (element size 64) for op in vpxorq, vpandq, vpandnq, vporq, vpermt2q
   (vpermt2q: dst is the first table and is overwritten, a the indices, b the second table),
   vpermq (a the indices, b the table; 256 or 512 bits only, 128 is refused),
   vprolvq (a rotated by b), vpsllvq, vpsrlvq */
typedef enum x64_evop {
    X64_VPXORQ, X64_VPANDQ, X64_VPANDNQ, X64_VPORQ, X64_VPERMT2Q, X64_VPERMQ_V, X64_VPROLVQ, X64_VPSLLVQ_E,
    X64_VPSRLVQ_E,
} x64_evop;
void x64_evop_rrr(x64_asm *as, x64_evop op, x64_vlen l, x64_vreg dst, x64_kreg k, bool zeroing, x64_vreg a,
                  x64_vreg b);
void x64_evop_rrm(x64_asm *as, x64_evop op, x64_vlen l, x64_vreg dst, x64_kreg k, bool zeroing, x64_vreg a,
                  x64_mem b);
/* vpternlogq dst, a, b, imm8: dst = f(dst, a, b) by the truth table imm8 (0x96 xor3, 0xb4 dst ^ (a & ~b)) */
void x64_vpternlogq(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg a, x64_vreg b, int imm8);
void x64_vpternlogq_m(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg a, x64_mem b, int imm8);
void x64_vprolq(x64_asm *as, x64_vlen l, x64_vreg dst, x64_vreg src, int imm8);    /* imm 0..63 */
void x64_evpbroadcastq_m(x64_asm *as, x64_vlen l, x64_vreg dst, x64_mem src);       /* EVEX: any of xmm0..31 */
void x64_evpbroadcastq_r(x64_asm *as, x64_vlen l, x64_vreg dst, x64_reg src);       /* from a GPR */
/* masks */
void x64_kmovw_kr(x64_asm *as, x64_kreg dst, x64_reg src);                          /* kmovw k, r32 */
void x64_kmovw_rk(x64_asm *as, x64_reg dst, x64_kreg src);                          /* kmovw r32, k */
void x64_kmovq_kr(x64_asm *as, x64_kreg dst, x64_reg src);                          /* kmovq k, r64 (AVX512BW) */
void x64_kshiftrw(x64_asm *as, x64_kreg dst, x64_kreg src, int imm8);
void x64_kshiftlw(x64_asm *as, x64_kreg dst, x64_kreg src, int imm8);

#endif /* MINIVM_ASSEMBLER_X86_64_H */
