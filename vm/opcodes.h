/*
 * vm/opcodes.h — the minivm instruction set: word format and the opcode list.
 *
 * Every instruction is one 32-bit word. The opcode is always the low byte;
 * the other 24 bits hold the operands in one of five formats:
 *
 *    31            24 23            16 15             8 7              0
 *   +----------------+----------------+----------------+----------------+
 *   |       C        |       B        |       A        |       op       |  iABC
 *   +----------------+----------------+----------------+----------------+
 *   |               Bx                |       A        |       op       |  iABx
 *   +---------------------------------+----------------+----------------+
 *   |           sBx (signed)          |       A        |       op       |  iAsBx
 *   +---------------------------------+----------------+----------------+
 *   |                  sJ (signed)                     |       op       |  isJ
 *   +-----------+-----------+-----------+-----------+--+----------------+
 *   |   D (6)   |   C (6)   |   B (6)   |   A (6)   |       op         |  iABCD
 *   +-----------+-----------+-----------+-----------+-------------------+
 *    31      26  25      20  19      14  13       8  7               0
 *
 * iABCD is used only by the fused four-operand forms (xor3, bcax, xrol):
 * their registers are limited to r0..r63, which the verifier checks.
 *
 * Jumps are relative to the instruction after the jump. A conditional
 * instruction (flag VM_OPF_COND) is always followed by a JMP: if the
 * condition holds, that JMP is taken, otherwise it is skipped (Lua's
 * OP_LT/OP_JMP pairing). The assembler writes both words for "blt a, b, L".
 *
 * The opcode list below is the single source of truth: the enum, the name
 * table, the assembler's mnemonic table, the verifier's operand kinds and
 * the interpreter's dispatch table are all generated from it.
 */
#ifndef MINIVM_OPCODES_H
#define MINIVM_OPCODES_H

#include <stdint.h>

/* ---- field sizes and positions ---------------------------------------- */
#define VM_SIZE_OP   8
#define VM_SIZE_A    8
#define VM_SIZE_B    8
#define VM_SIZE_C    8
#define VM_SIZE_Bx   16
#define VM_SIZE_sJ   24
#define VM_SIZE_R4   6          /* each register of an iABCD word */

#define VM_POS_OP    0
#define VM_POS_A     8
#define VM_POS_B     16
#define VM_POS_C     24
#define VM_POS_Bx    16
#define VM_POS_sJ    8
#define VM_POS_A4    8
#define VM_POS_B4    14
#define VM_POS_C4    20
#define VM_POS_D4    26

#define VM_MASK(n)          ((1u << (n)) - 1u)
#define VM_FIELD(i, pos, n) (((uint32_t)(i) >> (pos)) & VM_MASK(n))

#define GET_OP(i)   VM_FIELD(i, VM_POS_OP, VM_SIZE_OP)
#define GET_A(i)    VM_FIELD(i, VM_POS_A, VM_SIZE_A)
#define GET_B(i)    VM_FIELD(i, VM_POS_B, VM_SIZE_B)
#define GET_C(i)    VM_FIELD(i, VM_POS_C, VM_SIZE_C)
#define GET_sB(i)   ((int32_t)(int8_t)GET_B(i))
#define GET_sC(i)   ((int32_t)(int8_t)GET_C(i))
#define GET_Bx(i)   VM_FIELD(i, VM_POS_Bx, VM_SIZE_Bx)
#define GET_sBx(i)  ((int32_t)(int16_t)GET_Bx(i))
#define GET_sJ(i)   (((int32_t)VM_FIELD(i, VM_POS_sJ, VM_SIZE_sJ) ^ 0x800000) - 0x800000)
#define GET_A4(i)   VM_FIELD(i, VM_POS_A4, VM_SIZE_R4)
#define GET_B4(i)   VM_FIELD(i, VM_POS_B4, VM_SIZE_R4)
#define GET_C4(i)   VM_FIELD(i, VM_POS_C4, VM_SIZE_R4)
#define GET_D4(i)   VM_FIELD(i, VM_POS_D4, VM_SIZE_R4)

#define MK_ABC(op, a, b, c) \
    ((uint32_t)(op) | ((uint32_t)(a) << VM_POS_A) | ((uint32_t)(b) << VM_POS_B) | ((uint32_t)(c) << VM_POS_C))
#define MK_ABx(op, a, bx)   ((uint32_t)(op) | ((uint32_t)(a) << VM_POS_A) | ((uint32_t)(bx) << VM_POS_Bx))
#define MK_sJ(op, sj)       ((uint32_t)(op) | (((uint32_t)(sj) & VM_MASK(VM_SIZE_sJ)) << VM_POS_sJ))
#define MK_ABCD(op, a, b, c, d)                                                    \
    ((uint32_t)(op) | ((uint32_t)(a) << VM_POS_A4) | ((uint32_t)(b) << VM_POS_B4) | \
     ((uint32_t)(c) << VM_POS_C4) | ((uint32_t)(d) << VM_POS_D4))

#define VM_MAX_sJ   ((1 << 23) - 1)
#define VM_MIN_sJ   (-(1 << 23))

/* ---- operand formats and kinds ------------------------------------------ */
typedef enum vm_format { iABC, iABx, iAsBx, isJ, iABCD } vm_format;

/*
 * Operand kinds, one per field (A, B, C, D; for iABx/iAsBx the second kind
 * describes Bx). The verifier checks each kind; the assembler parses each.
 */
typedef enum vm_okind {
    K__,      /* unused: the field must be zero */
    K_RI,     /* register: int or long */
    K_RREF,   /* register: any reference */
    K_RARR,   /* register: byte[], int[] or long[] */
    K_RBA,    /* register: byte[] */
    K_RIA,    /* register: int[] */
    K_RLA,    /* register: long[] */
    K_RREC,   /* register: a record type */
    K_RANY,   /* register: any type (extra rules per opcode) */
    K_RWIN,   /* first register of a call's window (checked against the signature) */
    K_S8,     /* signed 8-bit immediate */
    K_U8,     /* unsigned 8-bit immediate */
    K_U6,     /* 0..63 immediate (64-bit shift or rotate amount) */
    K_U5,     /* 0..31 immediate (32-bit shift or rotate amount) */
    K_S16,    /* signed 16-bit immediate (sBx) */
    K_K,      /* index into the 64-bit constant table (Bx) */
    K_STR,    /* index into the string table (Bx) */
    K_METH,   /* method index (Bx) */
    K_STATIC, /* static variable index (Bx) */
    K_TYPE,   /* record type index (Bx) */
    K_FIELD,  /* field index of the record held by the register in the other field */
    K_J       /* jump offset (sJ) */
} vm_okind;

/* Opcode flags. */
#define VM_OPF_COND   1u  /* conditional: must be followed by JMP */
#define VM_OPF_NOFALL 2u  /* control never reaches the next instruction */
#define VM_OPF_THROWS 4u  /* may raise a runtime exception */
#define VM_OPF_ALLOC  8u  /* may allocate (and so run the collector) */

/*
 * The opcode list. Columns: enum name, assembler mnemonic, format, operand
 * kinds (A, B, C, D), flags, semantics. Several opcodes may share a
 * mnemonic: the assembler picks the one whose operand kinds fit (register
 * types, immediate or register), so "add r, a, 5" becomes ADDI.
 *
 * Notation: R[x] register x; K[x] constant; sC signed immediate; int32(v)
 * the low 32 bits of v sign-extended (Java int); rotl/rotr 64-bit rotates.
 */
#define VM_OPCODES(X)                                                                                          \
    /* moves and constants */                                                                                  \
    X(NOP,       "nop",       iABC,  K__,   K__,    K__,   K__, 0, "no operation")                             \
    X(MOV,       "mov",       iABC,  K_RANY, K_RANY, K__,  K__, 0, "R[A] := R[B]  (same type)")                \
    X(LDI,       "ldi",       iAsBx, K_RI,  K_S16,  K__,   K__, 0, "R[A] := sBx")                              \
    X(LDK,       "ldi",       iABx,  K_RI,  K_K,    K__,   K__, 0, "R[A] := K[Bx]  (any 64-bit value)")        \
    X(LDNULL,    "ldnull",    iABC,  K_RREF, K__,   K__,   K__, 0, "R[A] := null")                             \
    X(LDSTR,     "ldstr",     iABx,  K_RBA, K_STR,  K__,   K__, 0, "R[A] := string constant Bx (shared byte[])") \
    X(GETSTATIC, "getstatic", iABx,  K_RANY, K_STATIC, K__, K__, 0, "R[A] := static Bx")                       \
    X(PUTSTATIC, "putstatic", iABx,  K_RANY, K_STATIC, K__, K__, 0, "static Bx := R[A]")                       \
    /* 64-bit arithmetic and logic */                                                                          \
    X(ADD,  "add",  iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := R[B] + R[C]")                                     \
    X(ADDI, "add",  iABC, K_RI, K_RI, K_S8, K__, 0, "R[A] := R[B] + sC")                                       \
    X(SUB,  "sub",  iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := R[B] - R[C]")                                     \
    X(SUBI, "sub",  iABC, K_RI, K_RI, K_S8, K__, 0, "R[A] := R[B] - sC")                                       \
    X(MUL,  "mul",  iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := R[B] * R[C]")                                     \
    X(DIV,  "div",  iABC, K_RI, K_RI, K_RI, K__, VM_OPF_THROWS, "R[A] := R[B] / R[C]  (truncating; / by zero)") \
    X(REM,  "rem",  iABC, K_RI, K_RI, K_RI, K__, VM_OPF_THROWS, "R[A] := R[B] % R[C]  (sign of R[B]; / by zero)") \
    X(NEG,  "neg",  iABC, K_RI, K_RI, K__,  K__, 0, "R[A] := -R[B]")                                           \
    X(AND,  "and",  iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := R[B] & R[C]")                                     \
    X(ANDI, "and",  iABC, K_RI, K_RI, K_U8, K__, 0, "R[A] := R[B] & C  (C in 0..255)")                         \
    X(OR,   "or",   iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := R[B] | R[C]")                                     \
    X(XOR,  "xor",  iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := R[B] ^ R[C]")                                     \
    X(ANDN, "andn", iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := R[B] & ~R[C]")                                    \
    X(NOT,  "not",  iABC, K_RI, K_RI, K__,  K__, 0, "R[A] := ~R[B]")                                           \
    X(SHL,  "shl",  iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := R[B] << (R[C] & 63)")                             \
    X(SHLI, "shl",  iABC, K_RI, K_RI, K_U6, K__, 0, "R[A] := R[B] << C")                                       \
    X(SHR,  "shr",  iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := R[B] >>> (R[C] & 63)  (logical)")                 \
    X(SHRI, "shr",  iABC, K_RI, K_RI, K_U6, K__, 0, "R[A] := R[B] >>> C  (logical)")                           \
    X(SAR,  "sar",  iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := R[B] >> (R[C] & 63)  (arithmetic)")               \
    X(SARI, "sar",  iABC, K_RI, K_RI, K_U6, K__, 0, "R[A] := R[B] >> C  (arithmetic)")                         \
    X(ROL,  "rol",  iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := rotl(R[B], R[C] & 63)")                           \
    X(ROLI, "rol",  iABC, K_RI, K_RI, K_U6, K__, 0, "R[A] := rotl(R[B], C)")                                   \
    X(ROR,  "ror",  iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := rotr(R[B], R[C] & 63)")                           \
    X(RORI, "ror",  iABC, K_RI, K_RI, K_U6, K__, 0, "R[A] := rotr(R[B], C)")                                   \
    /* small fused operations (the SHA-3 instructions' semantics) */                                           \
    X(XOR3, "xor3", iABCD, K_RI, K_RI, K_RI, K_RI, 0, "R[A] := R[B] ^ R[C] ^ R[D]  (r0..r63)")                 \
    X(BCAX, "bcax", iABCD, K_RI, K_RI, K_RI, K_RI, 0, "R[A] := R[B] ^ (R[C] & ~R[D])  (r0..r63)")              \
    X(XROL, "xrol", iABCD, K_RI, K_RI, K_RI, K_U6, 0, "R[A] := rotl(R[B] ^ R[C], D)  (r0..r63)")               \
    X(RAX1, "rax1", iABC,  K_RI, K_RI, K_RI, K__,  0, "R[A] := R[B] ^ rotl(R[C], 1)")                          \
    /* 32-bit (Java int) arithmetic: results are int32 values, sign-extended */                                 \
    X(ADDW,  "addw", iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := int32(R[B] + R[C])")                             \
    X(ADDWI, "addw", iABC, K_RI, K_RI, K_S8, K__, 0, "R[A] := int32(R[B] + sC)")                               \
    X(SUBW,  "subw", iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := int32(R[B] - R[C])")                             \
    X(MULW,  "mulw", iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := int32(R[B] * R[C])")                             \
    X(SHLW,  "shlw", iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := int32(R[B] << (R[C] & 31))")                     \
    X(SHLWI, "shlw", iABC, K_RI, K_RI, K_U5, K__, 0, "R[A] := int32(R[B] << C)")                               \
    X(SHRW,  "shrw", iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := int32(uint32(R[B]) >>> (R[C] & 31))")            \
    X(SHRWI, "shrw", iABC, K_RI, K_RI, K_U5, K__, 0, "R[A] := int32(uint32(R[B]) >>> C)")                      \
    X(SARW,  "sarw", iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := int32(R[B]) >> (R[C] & 31)")                     \
    X(SARWI, "sarw", iABC, K_RI, K_RI, K_U5, K__, 0, "R[A] := int32(R[B]) >> C")                               \
    X(ROLW,  "rolw", iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := int32(rotl32(R[B], R[C] & 31))")                 \
    X(ROLWI, "rolw", iABC, K_RI, K_RI, K_U5, K__, 0, "R[A] := int32(rotl32(R[B], C))")                         \
    X(RORW,  "rorw", iABC, K_RI, K_RI, K_RI, K__, 0, "R[A] := int32(rotr32(R[B], R[C] & 31))")                 \
    X(RORWI, "rorw", iABC, K_RI, K_RI, K_U5, K__, 0, "R[A] := int32(rotr32(R[B], C))")                         \
    X(L2I,   "l2i",  iABC, K_RI, K_RI, K__,  K__, 0, "R[A] := int32(R[B])  (Java (int) cast)")                 \
    X(I2B,   "i2b",  iABC, K_RI, K_RI, K__,  K__, 0, "R[A] := int8(R[B])  (Java (byte) cast)")                 \
    X(ZEXTW, "zextw", iABC, K_RI, K_RI, K__, K__, 0, "R[A] := R[B] & 0xffffffff  (Integer.toUnsignedLong)")    \
    /* control flow: a conditional skips the JMP after it unless it holds */                                   \
    X(JMP,    "jmp",      isJ,  K_J,    K__,    K__, K__, VM_OPF_NOFALL, "pc += sJ")                           \
    X(EQ,     "beq",      iABC, K_RI,   K_RI,   K__, K__, VM_OPF_COND, "if R[A] == R[B] then take next JMP")   \
    X(NE,     "bne",      iABC, K_RI,   K_RI,   K__, K__, VM_OPF_COND, "if R[A] != R[B] then take next JMP")   \
    X(LT,     "blt",      iABC, K_RI,   K_RI,   K__, K__, VM_OPF_COND, "if R[A] < R[B] then take next JMP")    \
    X(GE,     "bge",      iABC, K_RI,   K_RI,   K__, K__, VM_OPF_COND, "if R[A] >= R[B] then take next JMP")   \
    X(LE,     "ble",      iABC, K_RI,   K_RI,   K__, K__, VM_OPF_COND, "if R[A] <= R[B] then take next JMP")   \
    X(GT,     "bgt",      iABC, K_RI,   K_RI,   K__, K__, VM_OPF_COND, "if R[A] > R[B] then take next JMP")    \
    X(EQI,    "beq",      iABC, K_RI,   K_S8,   K__, K__, VM_OPF_COND, "if R[A] == sB then take next JMP")     \
    X(NEI,    "bne",      iABC, K_RI,   K_S8,   K__, K__, VM_OPF_COND, "if R[A] != sB then take next JMP")     \
    X(LTI,    "blt",      iABC, K_RI,   K_S8,   K__, K__, VM_OPF_COND, "if R[A] < sB then take next JMP")      \
    X(GEI,    "bge",      iABC, K_RI,   K_S8,   K__, K__, VM_OPF_COND, "if R[A] >= sB then take next JMP")     \
    X(LEI,    "ble",      iABC, K_RI,   K_S8,   K__, K__, VM_OPF_COND, "if R[A] <= sB then take next JMP")     \
    X(GTI,    "bgt",      iABC, K_RI,   K_S8,   K__, K__, VM_OPF_COND, "if R[A] > sB then take next JMP")      \
    X(EQR,    "beq",      iABC, K_RREF, K_RREF, K__, K__, VM_OPF_COND, "if R[A] is R[B] then take next JMP")   \
    X(NER,    "bne",      iABC, K_RREF, K_RREF, K__, K__, VM_OPF_COND, "if R[A] is not R[B] then take next JMP") \
    X(ISNULL, "bnull",    iABC, K_RREF, K__,    K__, K__, VM_OPF_COND, "if R[A] == null then take next JMP")   \
    X(NONNULL, "bnonnull", iABC, K_RREF, K__,   K__, K__, VM_OPF_COND, "if R[A] != null then take next JMP")   \
    /* arrays (every access bounds-checked) */                                                                 \
    X(NEWBA,  "newarray", iABC, K_RBA, K_RI,  K__,  K__, VM_OPF_THROWS | VM_OPF_ALLOC, "R[A] := new byte[R[B]]") \
    X(NEWIA,  "newarray", iABC, K_RIA, K_RI,  K__,  K__, VM_OPF_THROWS | VM_OPF_ALLOC, "R[A] := new int[R[B]]")  \
    X(NEWLA,  "newarray", iABC, K_RLA, K_RI,  K__,  K__, VM_OPF_THROWS | VM_OPF_ALLOC, "R[A] := new long[R[B]]") \
    X(ALEN,   "alen",     iABC, K_RI,  K_RARR, K__, K__, VM_OPF_THROWS, "R[A] := R[B].length")               \
    X(BALOAD, "baload",   iABC, K_RI,  K_RBA, K_RI, K__, VM_OPF_THROWS, "R[A] := int8(R[B][R[C]])")            \
    X(IALOAD, "iaload",   iABC, K_RI,  K_RIA, K_RI, K__, VM_OPF_THROWS, "R[A] := R[B][R[C]]  (int)")           \
    X(LALOAD, "laload",   iABC, K_RI,  K_RLA, K_RI, K__, VM_OPF_THROWS, "R[A] := R[B][R[C]]  (long)")          \
    X(LALOADI, "laload",  iABC, K_RI,  K_RLA, K_U8, K__, VM_OPF_THROWS, "R[A] := R[B][C]  (long; C in 0..255)") \
    X(BASTORE, "bastore", iABC, K_RBA, K_RI,  K_RI, K__, VM_OPF_THROWS, "R[A][R[B]] := int8(R[C])")            \
    X(IASTORE, "iastore", iABC, K_RIA, K_RI,  K_RI, K__, VM_OPF_THROWS, "R[A][R[B]] := int32(R[C])")           \
    X(LASTORE, "lastore", iABC, K_RLA, K_RI,  K_RI, K__, VM_OPF_THROWS, "R[A][R[B]] := R[C]")                  \
    X(LASTOREI, "lastore", iABC, K_RLA, K_U8, K_RI, K__, VM_OPF_THROWS, "R[A][B] := R[C]  (long; B in 0..255)") \
    /* multi-byte access to byte[] (Java's ByteArrayAccess / VarHandle views) */                                \
    X(LDLE64, "ldle64", iABC, K_RI,  K_RBA, K_RI, K__, VM_OPF_THROWS, "R[A] := little-endian long at R[B][R[C]..+7]") \
    X(LDLE32, "ldle32", iABC, K_RI,  K_RBA, K_RI, K__, VM_OPF_THROWS, "R[A] := little-endian int at R[B][R[C]..+3]")  \
    X(LDBE64, "ldbe64", iABC, K_RI,  K_RBA, K_RI, K__, VM_OPF_THROWS, "R[A] := big-endian long at R[B][R[C]..+7]")    \
    X(LDBE32, "ldbe32", iABC, K_RI,  K_RBA, K_RI, K__, VM_OPF_THROWS, "R[A] := big-endian int at R[B][R[C]..+3]")     \
    X(STLE64, "stle64", iABC, K_RBA, K_RI,  K_RI, K__, VM_OPF_THROWS, "R[A][R[B]..+7] := R[C] little-endian")        \
    X(STLE32, "stle32", iABC, K_RBA, K_RI,  K_RI, K__, VM_OPF_THROWS, "R[A][R[B]..+3] := int32(R[C]) little-endian") \
    X(STBE64, "stbe64", iABC, K_RBA, K_RI,  K_RI, K__, VM_OPF_THROWS, "R[A][R[B]..+7] := R[C] big-endian")           \
    X(STBE32, "stbe32", iABC, K_RBA, K_RI,  K_RI, K__, VM_OPF_THROWS, "R[A][R[B]..+3] := int32(R[C]) big-endian")    \
    /* records */                                                                                              \
    X(NEW,    "new",      iABx, K_RREC, K_TYPE,  K__,    K__, VM_OPF_THROWS | VM_OPF_ALLOC, "R[A] := new record Bx") \
    X(GETF,   "getfield", iABC, K_RANY, K_RREC,  K_FIELD, K__, VM_OPF_THROWS, "R[A] := R[B].field[C]")        \
    X(PUTF,   "putfield", iABC, K_RREC, K_FIELD, K_RANY, K__, VM_OPF_THROWS, "R[A].field[B] := R[C]")         \
    /* calls */                                                                                                \
    X(CALL,   "call",     iABx, K_RWIN, K_METH,  K__, K__, VM_OPF_THROWS | VM_OPF_ALLOC,                       \
      "R[A] := method Bx(R[A+1], ..., R[A+n])")                                                                \
    X(CALLV,  "call",     iABx, K_RWIN, K_METH,  K__, K__, VM_OPF_THROWS | VM_OPF_ALLOC,                       \
      "method Bx(R[A], ..., R[A+n-1])  (a void method; A is 0 when n is 0)")                                   \
    X(RET,    "ret",      iABC, K_RANY, K__,     K__, K__, VM_OPF_NOFALL, "return R[A]")                       \
    X(RETV,   "ret",      iABC, K__,    K__,     K__, K__, VM_OPF_NOFALL, "return (void method)")              \
    /* virtual calls and casts (records that extend records) */                                               \
    X(CALLVIRT,  "callvirt", iABx, K_RWIN, K_METH, K__, K__, VM_OPF_THROWS | VM_OPF_ALLOC,                     \
      "R[A] := virtual method Bx(R[A+1], ...): the body is the one R[A+1]'s record has")                      \
    X(CALLVIRTV, "callvirt", iABx, K_RWIN, K_METH, K__, K__, VM_OPF_THROWS | VM_OPF_ALLOC,                     \
      "virtual method Bx(R[A], ...)  (a void method): the body is the one R[A]'s record has")                 \
    X(CHECKCAST, "checkcast", iABC, K_RREC, K_RREC, K__, K__, VM_OPF_THROWS,                                   \
      "R[A] := R[B] if it is null or a record of R[A]'s type, else ClassCastException")

typedef enum vm_opcode {
#define X(name, mn, fmt, a, b, c, d, fl, doc) OP_##name,
    VM_OPCODES(X)
#undef X
    VM_NOPCODES
} vm_opcode;

typedef struct vm_opinfo {
    const char *name;     /* enum name, e.g. "ADDI" */
    const char *mnemonic; /* assembler mnemonic, e.g. "add" */
    uint8_t format;       /* vm_format */
    uint8_t kind[4];      /* vm_okind of A, B, C, D */
    uint8_t flags;        /* VM_OPF_* */
    const char *doc;      /* one-line semantics */
} vm_opinfo;

extern const vm_opinfo vm_opinfo_table[VM_NOPCODES];

/* Whether op writes register A (its semantics read "R[A] := ..."); 0 when A is only read: the
   conditionals, stores, returns and the void calls' windows (vm/inline.c's dataflow). */
int vm_opcode_writes_a(int op);

/* The operand fields of the instruction word w (a known opcode) in its format's order: A, B, C, D;
   Bx and sBx as the second; sJ as the first. Returns how many its format has. */
int vm_operand_fields(uint32_t w, uint32_t f[4]);

#endif /* MINIVM_OPCODES_H */
