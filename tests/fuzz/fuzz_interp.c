/*
 * tests/fuzz/fuzz_interp.c — differential libFuzzer target for the interpreter.
 *
 * Each input is decoded, byte by byte, into a random program that the
 * verifier must accept: integer ALU on int and long registers (every
 * arithmetic, logic, shift, rotate, fused and 32-bit opcode; division and
 * remainder by zero and MIN / -1), conditional branches, loops that always
 * end (counters no other instruction writes), byte[]/int[]/long[] arrays
 * and the byte[] views (in and out of bounds), statics, a record, string
 * constants, Sys.gc() and calls between a few methods (a call graph without
 * cycles, plus self-recursion of bounded depth). The program is emitted as
 * .mva text and loaded with vm_load_text, so the assembler and the
 * verifier run too; a program they reject is a generator bug.
 *
 * main runs in the VM. An evaluator in this file runs the generator's own
 * tree (never the bytecode) with Java semantics written independently of
 * vm/interp.c, and the two outcomes must agree: main's result (a checksum
 * of its registers) or the exception (class, message and stack trace), and
 * every static afterwards (arrays and records by content and identity).
 * On any disagreement the program is printed and the target traps.
 * docs/testing.md: what is generated, how to run a campaign, regressions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit.h"
#include "vm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * No coverage instrumentation in this file: the feedback that matters is
 * the VM's (loader, verifier, interpreter, heap). The generator's and the
 * evaluator's own edges and comparisons only multiply libFuzzer's features:
 * with them it ran 40% fewer inputs per second and reached no more VM edges.
 */
#if defined(__clang__)
#pragma clang attribute push(__attribute__((no_sanitize("coverage"))), apply_to = function)
#endif

/*
 * Constructs the generator can leave out, for when a campaign finds a VM bug:
 * define one to 1 (with a comment naming the bug) so fuzzing can go on while
 * the bug is open. All 0: every construct is generated.
 */
#define FI_AVOID_VIEWS     0 /* the byte[] views ldle/ldbe/stle/stbe */
#define FI_AVOID_RECURSION 0 /* self-recursive helpers */
#define FI_AVOID_GC        0 /* call Sys.gc() */

/* ---- limits: they bound the work of one input ----------------------------- */
#define FI_MAX_METHODS   5       /* main and up to four helpers */
#define FI_MAX_PARAMS    5
#define FI_MAX_DATA      12      /* int/long registers a method computes with */
#define FI_MAX_REGS      VM_MAX_REGS
/*
 * The size of the program's tree in lines of text, which is what the
 * loader spends its time on (a node is a line, an if up to five, a loop up
 * to seven). Kept free while bodies are generated: the fixed parts of a
 * method, at most: a prologue (data registers' ldi, the locals, a base
 * case's if and ret), a helper's tail (a forced self-call and ret), main's
 * epilogue (a store and a fold of every int register, the keep statics).
 * FI_STMT_LINES is the most one statement adds outside its nested lists.
 */
#define FI_MAX_LINES      640
#define FI_MAX_NODES      FI_MAX_LINES /* a node is at least a line */
#define FI_LINES_PROLOGUE (FI_MAX_DATA + 2 * 5 + 5 + 1)
#define FI_LINES_TAIL     (FI_MAX_PARAMS + 3)
#define FI_LINES_EPILOGUE (5 + 3 + 3 * (FI_MAX_DATA + 2 * FI_MAX_NEST) + 2)
#define FI_STMT_LINES     24
#define FI_MAX_LEN       16      /* no array is longer (loops over arrays are bounded by it) */
#define FI_OBJ_CAP       32      /* ... but main's last one, kregs: one element per int register */
#define FI_MAX_TRIPS     8       /* counted loops */
#define FI_MAX_NEST      3       /* ifs and loops inside each other */
#define FI_MAX_DEPTH     7       /* a self-recursive helper gets a depth of 0..7 */
#define FI_DATA_TRIPS    7       /* a data-dependent loop runs (x & 7) times */
#define FI_BUDGET_MAIN   6000    /* steps of main, callees included (the evaluator checks it) */
#define FI_BUDGET_HELPER 1200    /* steps of one call of a helper */
#define FI_RESERVE       200     /* of main's budget, kept for its epilogue */
#define FI_MAX_STATICS   24
#define FI_MAX_OBJS      (FI_BUDGET_MAIN + FI_MAX_STATICS + 16) /* an allocation is a step */
#define FI_TEXT_CAP      (512 * 1024)
/*
 * The heap limit is the most a program can keep alive (fi_live_bound) plus
 * FI_HEAP_SLACK: OutOfMemoryError cannot happen, while a program that
 * allocates in loops goes past the limit and makes the collector run by
 * itself, in the middle of calls. A reference reaches at most one object
 * of FI_OBJ_BYTES: a long[16] (16 + 128 bytes, docs/bytecode.md), or a
 * record P (16 + 3 * 8) and the long[] in its field fa.
 */
#define FI_OBJ_BYTES     (16 + 8 * FI_MAX_LEN + 16 + 8 * 3)
#define FI_HEAP_SLACK    1024
#define FI_STACK_SIZE    ((size_t)128 << 10) /* 16384 slots: 33 frames of up to 230 registers fit */

#define FI_MODULE "Diff"
#define FI_FILE   "fuzz.mva"

/* ---- the generator's types, registers, operations ------------------------- */
enum fi_type { FT_INT, FT_LONG, FT_BYTES, FT_INTS, FT_LONGS, FT_REC, FT_VOID, FT_COUNT };
static const char *const fi_type_name[FT_COUNT] = {"int", "long", "byte[]", "int[]", "long[]", "P", "void"};
static int fi_is_int(int t) { return t == FT_INT || t == FT_LONG; }

/* The record P. Fields are 64-bit slots: an int field keeps what is stored. */
enum { FF_X, FF_Y, FF_A, FF_COUNT };
static const struct {
    const char *name;
    uint8_t type;
} fi_fields[FF_COUNT] = {{"fx", FT_LONG}, {"fy", FT_INT}, {"fa", FT_LONGS}};

enum fi_role {
    FR_DATA,  /* int/long: any operation may write it */
    FR_FIXED, /* int/long, read only: loop counters and limits, the recursion depth */
    FR_REF,   /* a reference */
    FR_HIDE   /* call windows and main's checksum: written only by their own code */
};

/* The string literals of ldstr and of a static's initialiser: .mva text and bytes. */
static const struct {
    const char *text;
    const char *bytes;
    uint8_t len;
} fi_strings[] = {
    {"\"\"", "", 0},
    {"\"a\"", "a", 1},
    {"\"minivm\"", "minivm", 6},
    {"\"0123456789abcdef\"", "0123456789abcdef", 16},
    {"\"\\0\\xff\\t\\\"\\\\;x\"", "\0\xff\t\"\\;x", 7},
};
#define FI_NSTRINGS ((int)(sizeof fi_strings / sizeof fi_strings[0]))

/* ALU operand shapes: registers, and the immediate's range. */
enum fi_shape { SH_RR, SH_RRR, SH_RRRR, SH_RRS8, SH_RRU8, SH_RRU6, SH_RRU5, SH_RRRU6 };

/* Every integer operation of the ISA on registers (vm/opcodes.h), as mnemonic and shape. */
#define FI_ALU_OPS(X)                                                                              \
    X(ADD, "add", SH_RRR) X(ADDI, "add", SH_RRS8) X(SUB, "sub", SH_RRR) X(SUBI, "sub", SH_RRS8)  \
    X(MUL, "mul", SH_RRR) X(DIV, "div", SH_RRR) X(REM, "rem", SH_RRR) X(NEG, "neg", SH_RR)       \
    X(AND, "and", SH_RRR) X(ANDI, "and", SH_RRU8) X(OR, "or", SH_RRR) X(XOR, "xor", SH_RRR)      \
    X(ANDN, "andn", SH_RRR) X(NOT, "not", SH_RR) X(SHL, "shl", SH_RRR) X(SHLI, "shl", SH_RRU6)   \
    X(SHR, "shr", SH_RRR) X(SHRI, "shr", SH_RRU6) X(SAR, "sar", SH_RRR) X(SARI, "sar", SH_RRU6)  \
    X(ROL, "rol", SH_RRR) X(ROLI, "rol", SH_RRU6) X(ROR, "ror", SH_RRR) X(RORI, "ror", SH_RRU6)  \
    X(XOR3, "xor3", SH_RRRR) X(BCAX, "bcax", SH_RRRR) X(XROL, "xrol", SH_RRRU6)                  \
    X(RAX1, "rax1", SH_RRR) X(ADDW, "addw", SH_RRR) X(ADDWI, "addw", SH_RRS8)                    \
    X(SUBW, "subw", SH_RRR) X(MULW, "mulw", SH_RRR) X(SHLW, "shlw", SH_RRR)                      \
    X(SHLWI, "shlw", SH_RRU5) X(SHRW, "shrw", SH_RRR) X(SHRWI, "shrw", SH_RRU5)                  \
    X(SARW, "sarw", SH_RRR) X(SARWI, "sarw", SH_RRU5) X(ROLW, "rolw", SH_RRR)                    \
    X(ROLWI, "rolw", SH_RRU5) X(RORW, "rorw", SH_RRR) X(RORWI, "rorw", SH_RRU5)                  \
    X(L2I, "l2i", SH_RR) X(I2B, "i2b", SH_RR) X(ZEXTW, "zextw", SH_RR) X(MOV, "mov", SH_RR)

enum fi_alu {
#define X(name, mn, shape) FA_##name,
    FI_ALU_OPS(X)
#undef X
    FA_COUNT
};

static const struct {
    const char *mn;
    uint8_t shape;
} fi_alu_info[FA_COUNT] = {
#define X(name, mn, shape) {mn, shape},
    FI_ALU_OPS(X)
#undef X
};

/* Conditions of an if: int registers, an int register and an s8, references. */
enum fi_cond {
    FC_EQ, FC_NE, FC_LT, FC_GE, FC_LE, FC_GT,       /* register, register */
    FC_EQI, FC_NEI, FC_LTI, FC_GEI, FC_LEI, FC_GTI, /* register, immediate */
    FC_EQR, FC_NER,                                 /* two references: identity */
    FC_NULL, FC_NONNULL,                            /* one reference */
    FC_COUNT
};
static const char *const fi_cond_mn[FC_COUNT] = {"beq", "bne", "blt", "bge", "ble", "bgt", "beq", "bne",
                                                 "blt", "bge", "ble", "bgt", "beq", "bne", "bnull", "bnonnull"};
/* the negated condition: pairs are adjacent */
static int fi_cond_not(int c) { return c ^ 1; }

/* byte[] views: bit 0 big-endian, bit 1 eight bytes */
static const char *const fi_view_ld[4] = {"ldle32", "ldbe32", "ldle64", "ldbe64"};
static const char *const fi_view_st[4] = {"stle32", "stbe32", "stle64", "stbe64"};
static int fi_view_size(int v) { return v & 2 ? 8 : 4; }

enum fi_loop {
    FL_DOWN, /* ldi k, T; L: body; sub k, k, 1; bgt k, 0, L        (T in 1..8) */
    FL_UP,   /* ldi k, 0; L: bge k, T, E; body; add k, k, 1; jmp L  (T in 0..8) */
    FL_DATA, /* and k, x, 7; L: ble k, 0, E; body; sub k, k, 1; jmp L */
    FL_ARR,  /* alen n, a; ldi k, 0; L: bge k, n, E; body; add k, k, 1; jmp L */
    FL_COUNT
};

/* The tree: a method body is a list of nodes; ifs and loops hold lists. */
enum fi_kind {
    FN_ALU,    /* op: fi_alu; a := b op c (op d); imm for the immediate shapes */
    FN_LDI,    /* a := imm; form: how the number is written */
    FN_MOVR,   /* a := b, references */
    FN_LDNULL, /* a := null */
    FN_LDSTR,  /* a := string op */
    FN_GETS,   /* a := static op; form 1: qualified name */
    FN_PUTS,   /* static op := a */
    FN_NEWARR, /* a := new T[b] (T from a's type) */
    FN_ALEN,   /* a := b.length */
    FN_LOAD,   /* a := b[c]; form 1: c is imm (laload only) */
    FN_STORE,  /* a[b] := c; form 1: b is imm (lastore only) */
    FN_VLOAD,  /* op: view; a := view of b at c */
    FN_VSTORE, /* op: view; view of a at b := c */
    FN_NEW,    /* a := new P */
    FN_GETF,   /* op: field; a := b.field */
    FN_PUTF,   /* op: field; a.field := c */
    FN_GC,     /* call Sys.gc() */
    FN_NOP,
    FN_CALL,   /* op: callee; a: first register of the window */
    FN_RET,    /* return a (b = 1: void) */
    FN_IF,     /* op: fi_cond on a, b (or imm); body: then, alt: else; form: layout */
    FN_LOOP    /* op: fi_loop; a: counter, b: limit (ARR) or source (DATA), c: array (ARR); imm: T */
};

typedef struct fi_node {
    uint8_t kind, op, form;
    uint8_t a, b, c, d;
    int64_t imm;
    int16_t next, body, alt; /* node indexes, -1: none */
    uint32_t line;           /* .mva line of the instruction that may throw (or call) */
} fi_node;

typedef struct fi_method {
    char name[8];
    uint8_t nparams, ret, recursive; /* recursive: r0 is the depth */
    uint16_t nregs;
    uint8_t rtype[FI_MAX_REGS], rrole[FI_MAX_REGS];
    char rname[FI_MAX_REGS][8];
    uint8_t pool_int[FI_MAX_REGS], npool_int; /* readable int/long registers */
    uint8_t pool_dst[FI_MAX_REGS], npool_dst; /* writable ones */
    uint8_t pool_int4[VM_MAX_REGS4], npool_int4; /* the same in r0..r63, for xor3, bcax, xrol */
    uint8_t pool_dst4[VM_MAX_REGS4], npool_dst4;
    uint16_t npad;                               /* z0, z1, ...: registers nothing uses */
    uint8_t pool_ref[FT_COUNT][FI_MAX_REGS], npool_ref[FT_COUNT];
    uint8_t counter[FI_MAX_NEST], limit[FI_MAX_NEST];
    uint8_t acc; /* main: the checksum */
    int16_t win[FI_MAX_METHODS]; /* first register of the window for each callee, -1: none yet */
    int16_t body;
    int64_t cost;   /* steps charged so far; when done, the bound of one call */
    int64_t budget; /* what cost may reach */
    int self_done;  /* a recursive helper has its self-call */
} fi_method;

enum { FS_NONE, FS_VALUE, FS_ARRAY, FS_STRING };
typedef struct fi_static {
    char name[8];
    uint8_t type, init, form, str, nelems, split;
    int64_t value;
    int64_t elems[FI_MAX_LEN];
    uint8_t eform[FI_MAX_LEN];
} fi_static;

#define FI_NCONST 4
typedef struct fi_gen {
    const uint8_t *in; /* the input not consumed yet */
    size_t left;
    int nreserve; /* lines kept for the fixed parts still to come */
    int nlines;   /* lines of the nodes so far */
    int nmeth;
    fi_method meth[FI_MAX_METHODS];
    int nnodes;
    fi_node node[FI_MAX_NODES];
    int nstat, nstat_random; /* statics; the first nstat_random are for any statement */
    fi_static stat[FI_MAX_STATICS];
    int64_t kval[FI_NCONST]; /* const K0..K3: K0 wide, K1 s8, K2 0..31, K3 = K0 by name */
    /* the .mva text */
    char text[FI_TEXT_CAP];
    size_t len;
    uint32_t line, nlabels;
    uint32_t pending; /* a label to write before the next instruction, on its line; 0: none */
} fi_gen;

static fi_gen G;

/* ---- reporting ------------------------------------------------------------------ */
static void fi_print_program(const fi_gen *g)
{
    if (g->line == 0)
        fputs("(no program text yet: the generator stopped while building its tree)\n", stderr);
    else
        fprintf(stderr, "---- program (" FI_FILE ", %u lines) ----\n%s---- end of program ----\n", g->line, g->text);
}

/* A generator bug: the program is not what the generator promises. */
static void fi_bug(const fi_gen *g, const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_interp: generator bug: %s\n%s%s", what, detail ? detail : "", detail ? "\n" : "");
    fi_print_program(g);
    __builtin_trap();
}

/* ---- decoding the input --------------------------------------------------------- */
/* An exhausted input reads as zeros, which end every list: decoding always stops. */
static unsigned fi_byte(fi_gen *g)
{
    if (!g->left)
        return 0;
    g->left--;
    return *g->in++;
}

static unsigned fi_below(fi_gen *g, unsigned n) { return n > 1 ? fi_byte(g) % n : 0; }

static int64_t ref_s64(uint64_t v) { return v <= (uint64_t)INT64_MAX ? (int64_t)v : -(int64_t)(UINT64_MAX - v) - 1; }
static int64_t ref_int(uint64_t v)
{
    v &= 0xffffffffu;
    return v < 0x80000000u ? (int64_t)v : (int64_t)v - 0x100000000;
}
static int64_t ref_byte(uint64_t v)
{
    v &= 0xffu;
    return v < 0x80u ? (int64_t)v : (int64_t)v - 0x100;
}

static uint64_t fi_bytes(fi_gen *g, int n)
{
    uint64_t v = 0;
    for (int k = 0; k < n; k++)
        v |= (uint64_t)fi_byte(g) << (8 * k);
    return v;
}

/* Values that find the edges: zero, ±1, the int and long limits, 16-bit edges, shift counts. */
static const int64_t fi_special[] = {
    0, 1, -1, 2, -2, 3, 5, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, -128, 128, 255, 256,
    32767, -32768, 32768, 65535, 0x7fffffff, -0x7fffffff - 1, 0x80000000, 0xffffffff, 0x100000000,
    -0x80000001, INT64_MAX, INT64_MIN, INT64_MIN + 1, 0x5555555555555555, -0x5555555555555556,
    0x0123456789abcdef, -0x0123456789abcdf0, 0xff, 0xff00, 0xff000000, 0x7fffffff00000000};
#define FI_NSPECIAL (sizeof fi_special / sizeof fi_special[0])

static int64_t fi_value(fi_gen *g)
{
    unsigned b = fi_byte(g);
    if (b < 120)
        return fi_special[b % FI_NSPECIAL];
    if (b < 180)
        return ref_byte(fi_byte(g));
    if (b < 220)
        return ref_int(fi_bytes(g, 4));
    return ref_s64(fi_bytes(g, 8));
}

/* ---- building methods ----------------------------------------------------------- */
static int fi_add_reg(fi_gen *g, fi_method *m, const char *name, int type, int role)
{
    if (m->nregs >= FI_MAX_REGS)
        fi_bug(g, "too many registers", NULL);
    int r = m->nregs++;
    snprintf(m->rname[r], sizeof m->rname[r], "%s", name);
    m->rtype[r] = (uint8_t)type;
    m->rrole[r] = (uint8_t)role;
    if (role == FR_DATA || role == FR_FIXED) {
        m->pool_int[m->npool_int++] = (uint8_t)r;
        if (role == FR_DATA)
            m->pool_dst[m->npool_dst++] = (uint8_t)r;
        if (r < VM_MAX_REGS4) {
            m->pool_int4[m->npool_int4++] = (uint8_t)r;
            if (role == FR_DATA)
                m->pool_dst4[m->npool_dst4++] = (uint8_t)r;
        }
    } else if (role == FR_REF) {
        m->pool_ref[type][m->npool_ref[type]++] = (uint8_t)r;
    }
    return r;
}

static int fi_new_node(fi_gen *g, int kind)
{
    if (g->nnodes >= FI_MAX_NODES)
        fi_bug(g, "too many nodes", NULL);
    fi_node *n = &g->node[g->nnodes];
    memset(n, 0, sizeof *n);
    g->nlines += kind == FN_IF ? 5 : kind == FN_LOOP ? 7 : 1;
    n->kind = (uint8_t)kind;
    n->next = n->body = n->alt = -1;
    return g->nnodes++;
}

/* A list being built: the index of its first node and where the next link goes. */
typedef struct fi_list {
    int16_t first, last;
} fi_list;

static fi_node *fi_append(fi_gen *g, fi_list *l, int kind)
{
    int i = fi_new_node(g, kind);
    if (l->last < 0)
        l->first = (int16_t)i;
    else
        g->node[l->last].next = (int16_t)i;
    l->last = (int16_t)i;
    return &g->node[i];
}

/* What a statement is generated inside of. */
typedef struct fi_scope {
    int mi;        /* the method */
    int64_t mult;  /* how often a node here runs, at most, per call */
    int nest;      /* ifs and loops around */
    int nloops;    /* loops around: the counter registers in use */
    int loopk;     /* innermost loop counter, -1: none */
} fi_scope;

/* Charge c steps, mult times; 0 when the budget does not allow it. */
static int fi_charge(fi_gen *g, const fi_scope *s, int64_t c)
{
    fi_method *m = &g->meth[s->mi];
    if (m->cost + s->mult * c > m->budget)
        return 0;
    m->cost += s->mult * c;
    return 1;
}

/* Mostly a data register: counters and limits are small and often zero. */
static int fi_pick_int(fi_gen *g, fi_method *m)
{
    unsigned b = fi_byte(g);
    return b & 7 ? m->pool_dst[(b >> 3) % m->npool_dst] : m->pool_int[(b >> 3) % m->npool_int];
}
static int fi_pick_dst(fi_gen *g, fi_method *m) { return m->pool_dst[fi_below(g, m->npool_dst)]; }
static int fi_pick_ref(fi_gen *g, fi_method *m, int type) { return m->pool_ref[type][fi_below(g, m->npool_ref[type])]; }
static int fi_pick_array_type(fi_gen *g) { return FT_BYTES + (int)fi_below(g, 3); }

/* An immediate of a shape's range; sometimes written as a constant's name (form 1). */
static int64_t fi_imm(fi_gen *g, int shape, uint8_t *form)
{
    int64_t lo = 0, hi = 0;
    switch (shape) {
    case SH_RRS8: lo = -128; hi = 127; break;
    case SH_RRU8: lo = 0; hi = 255; break;
    case SH_RRU6: case SH_RRRU6: lo = 0; hi = 63; break;
    case SH_RRU5: lo = 0; hi = 31; break;
    default: return 0;
    }
    unsigned b = fi_byte(g);
    if (b < 24) {
        for (int k = 1; k <= 2; k++) {
            int64_t v = g->kval[(b & 1) ? k : 3 - k];
            if (v >= lo && v <= hi) {
                *form = 1;
                return v;
            }
        }
    }
    int64_t v = b < 128 ? (int64_t)(b % 8) : (int64_t)fi_byte(g) + (shape == SH_RRS8 ? -128 : 0);
    return v > hi ? lo + (v - lo) % (hi - lo + 1) : v;
}

static fi_node *fi_alu(fi_gen *g, fi_list *l, int op, int a, int b, int c, int d)
{
    fi_node *n = fi_append(g, l, FN_ALU);
    n->op = (uint8_t)op;
    n->a = (uint8_t)a;
    n->b = (uint8_t)b;
    n->c = (uint8_t)c;
    n->d = (uint8_t)d;
    return n;
}

static fi_node *fi_ldi(fi_gen *g, fi_list *l, int a, int64_t v)
{
    fi_node *n = fi_append(g, l, FN_LDI);
    n->a = (uint8_t)a;
    n->imm = v;
    n->form = (uint8_t)fi_below(g, 4);
    return n;
}

/* A register for the iABCD forms (xor3, bcax, xrol): r0..r63 only. */
static int fi_pick_int4(fi_gen *g, fi_method *m) { return m->pool_int4[fi_below(g, m->npool_int4)]; }

static void fi_gen_alu(fi_gen *g, fi_method *m, fi_list *l)
{
    /* each pick in a statement of its own: the order of the bytes read must not depend on
     * the order in which a compiler evaluates function arguments */
    int op = (int)fi_below(g, FA_COUNT);
    int shape = fi_alu_info[op].shape;
    if (shape == SH_RRRR || shape == SH_RRRU6) {
        int a = m->pool_dst4[fi_below(g, m->npool_dst4)];
        int b = fi_pick_int4(g, m);
        int c = fi_pick_int4(g, m);
        int d = fi_pick_int4(g, m);
        fi_node *n = fi_alu(g, l, op, a, b, c, d);
        n->imm = fi_imm(g, shape, &n->form);
        return;
    }
    int a = fi_pick_dst(g, m);
    int b = fi_pick_int(g, m);
    int c = fi_pick_int(g, m);
    /* masked indexes make zeros common: most divisions are fi_gen_div's, whose divisor is chosen */
    if ((op == FA_DIV || op == FA_REM) && fi_below(g, 4))
        op = FA_MUL;
    int d = fi_pick_int(g, m);
    fi_node *n = fi_alu(g, l, op, a, b, c, d);
    n->imm = fi_imm(g, fi_alu_info[op].shape, &n->form);
}

/*
 * Division with the operands that matter: a zero or -1 divisor, a MIN
 * dividend, and Java's int division (div on int values, then l2i).
 */
static void fi_gen_div(fi_gen *g, const fi_scope *s, fi_list *l)
{
    fi_method *m = &g->meth[s->mi];
    /* a zero divisor ends the program: one in 16 */
    static const int64_t divisors[] = {0,  -1, -1, -1, 1, 1, -2, 2, 3, 7, -7, 10, 255, 0x10000, INT64_MIN,
                                       -0x7fffffff - 1};
    static const int64_t dividends[] = {INT64_MIN, -0x7fffffff - 1, INT64_MAX, -7, 7};
    int b = fi_pick_int(g, m), c = fi_pick_int(g, m), a = fi_pick_dst(g, m);
    unsigned how = fi_byte(g);
    if (!fi_charge(g, s, 4))
        return;
    if ((how & 0x70) != 0x70) {
        /* mostly a divisor from the table: registers hold zeros often (masks, fresh elements) */
        c = fi_pick_dst(g, m);
        fi_ldi(g, l, c, divisors[fi_below(g, sizeof divisors / sizeof divisors[0])]);
    }
    if (how & 2) {
        b = fi_pick_dst(g, m);
        if (b == c)
            b = fi_pick_int(g, m);
        else
            fi_ldi(g, l, b, dividends[fi_below(g, sizeof dividends / sizeof dividends[0])]);
    }
    fi_alu(g, l, how & 4 ? FA_REM : FA_DIV, a, b, c, 0);
    if (how & 8)
        fi_alu(g, l, FA_L2I, a, a, 0, 0);
}

/*
 * An index register: the loop counter, a masked value, a small constant or
 * anything. Mostly in bounds (arrays are mostly 12..16 long; the mask is
 * mostly 7 for elements, 3 for the views, whose limit is length - 7), and
 * sometimes not: a program ends at its first exception, so out-of-bounds
 * accesses must be few for the rest of a program to run.
 */
static int fi_gen_index(fi_gen *g, const fi_scope *s, fi_list *l, int view)
{
    fi_method *m = &g->meth[s->mi];
    unsigned how = fi_below(g, 32);
    int mask = fi_below(g, 8) ? (view ? 3 : 7) : (view ? 7 : 15);
    /* a counter runs to the loop's end: for a view that is mostly past the last index */
    if (how < (view ? 4u : 10u) && s->loopk >= 0)
        return s->loopk;
    if (how < 20) {
        int x = fi_pick_dst(g, m);
        int src = fi_pick_int(g, m);
        fi_alu(g, l, FA_ANDI, x, src, 0, 0)->imm = mask;
        return x;
    }
    if (how < 31) {
        int x = fi_pick_dst(g, m);
        int64_t v = (int64_t)fi_below(g, (unsigned)mask + 1);
        fi_ldi(g, l, x, fi_below(g, 32) ? v : (int64_t)fi_below(g, 24) - 2);
        return x;
    }
    return fi_pick_int(g, m);
}

/* A length for newarray: 0..16, mostly 12..16; sometimes data-dependent, rarely negative. */
static int64_t fi_len(fi_gen *g)
{
    unsigned b = fi_byte(g);
    return b & 7 ? FI_MAX_LEN - (int64_t)((b >> 3) & 3) : (int64_t)((b >> 3) % (FI_MAX_LEN + 1));
}

static int fi_gen_length(fi_gen *g, fi_method *m, fi_list *l)
{
    int x = fi_pick_dst(g, m);
    unsigned how = fi_below(g, 16);
    if (how < 13) {
        fi_ldi(g, l, x, fi_len(g));
    } else if (how < 15) {
        fi_node *n = fi_alu(g, l, FA_ANDI, x, fi_pick_int(g, m), 0, 0);
        n->imm = FI_MAX_LEN - 1;
    } else {
        fi_ldi(g, l, x, -(int64_t)(1 + fi_below(g, 3)));
    }
    return x;
}

/* The registers of an element or view access: a store "arr[idx] := a value register" (A arr,
   B idx, C the value), a load "a destination := arr[idx]" (A, B arr, C idx). */
static void fi_access_operands(fi_gen *g, fi_method *m, fi_node *n, bool store, int arr, int idx)
{
    if (store) {
        n->a = (uint8_t)arr;
        n->b = (uint8_t)idx;
        n->c = (uint8_t)fi_pick_int(g, m);
    } else {
        n->a = (uint8_t)fi_pick_dst(g, m);
        n->b = (uint8_t)arr;
        n->c = (uint8_t)idx;
    }
}

static void fi_gen_array(fi_gen *g, const fi_scope *s, fi_list *l)
{
    fi_method *m = &g->meth[s->mi];
    int t = fi_pick_array_type(g);
    int arr = fi_pick_ref(g, m, t);
    int store = (int)fi_below(g, 2);
    if (!fi_charge(g, s, 2))
        return;
    if (t == FT_LONGS && fi_below(g, 4) == 0) {
        /* laload/lastore with an immediate index 0..255 */
        fi_node *n = fi_append(g, l, store ? FN_STORE : FN_LOAD);
        n->form = 1;
        unsigned how = fi_below(g, 16);
        n->imm = how == 0 ? fi_byte(g) : how < 4 ? fi_below(g, FI_MAX_LEN + 2) : fi_below(g, 8);
        fi_access_operands(g, m, n, store, arr, 0); /* the index is the immediate: field 0 */
        return;
    }
    int idx = fi_gen_index(g, s, l, 0);
    fi_access_operands(g, m, fi_append(g, l, store ? FN_STORE : FN_LOAD), store, arr, idx);
}

static void fi_gen_view(fi_gen *g, const fi_scope *s, fi_list *l)
{
    fi_method *m = &g->meth[s->mi];
    unsigned v = fi_byte(g);
    int arr = fi_pick_ref(g, m, FT_BYTES);
    if (!fi_charge(g, s, 2))
        return;
    int idx = fi_gen_index(g, s, l, 1);
    fi_node *n = fi_append(g, l, v & 4 ? FN_VSTORE : FN_VLOAD);
    n->op = (uint8_t)(v & 3);
    fi_access_operands(g, m, n, v & 4, arr, idx);
}

/* References: newarray, alen, mov, ldnull, ldstr. */
static void fi_gen_refs(fi_gen *g, const fi_scope *s, fi_list *l)
{
    fi_method *m = &g->meth[s->mi];
    unsigned how = fi_below(g, 16);
    int t = fi_pick_array_type(g);
    if (!fi_charge(g, s, 2))
        return;
    if (how < 5) {
        int len = fi_gen_length(g, m, l);
        fi_node *n = fi_append(g, l, FN_NEWARR);
        n->a = (uint8_t)fi_pick_ref(g, m, t);
        n->b = (uint8_t)len;
    } else if (how < 8) {
        fi_node *n = fi_append(g, l, FN_ALEN);
        n->a = (uint8_t)fi_pick_dst(g, m);
        n->b = (uint8_t)fi_pick_ref(g, m, t);
    } else if (how < 12) {
        if (fi_below(g, 4) == 0)
            t = FT_REC;
        fi_node *n = fi_append(g, l, FN_MOVR);
        n->a = (uint8_t)fi_pick_ref(g, m, t);
        n->b = (uint8_t)fi_pick_ref(g, m, t);
    } else if (how < 13) {
        fi_node *n = fi_append(g, l, FN_LDNULL);
        n->a = (uint8_t)fi_pick_ref(g, m, fi_below(g, 4) ? t : FT_REC);
    } else {
        fi_node *n = fi_append(g, l, FN_LDSTR);
        n->a = (uint8_t)fi_pick_ref(g, m, FT_BYTES);
        n->op = (uint8_t)fi_below(g, FI_NSTRINGS);
    }
}

static void fi_gen_static(fi_gen *g, const fi_scope *s, fi_list *l)
{
    fi_method *m = &g->meth[s->mi];
    int si = (int)fi_below(g, (unsigned)g->nstat_random);
    int put = (int)fi_below(g, 2);
    int t = g->stat[si].type;
    if (!fi_charge(g, s, 1))
        return;
    fi_node *n = fi_append(g, l, put ? FN_PUTS : FN_GETS);
    n->op = (uint8_t)si;
    n->form = (uint8_t)fi_below(g, 2);
    if (fi_is_int(t))
        n->a = (uint8_t)(put ? fi_pick_int(g, m) : fi_pick_dst(g, m));
    else
        n->a = (uint8_t)fi_pick_ref(g, m, t);
}

static void fi_gen_record(fi_gen *g, const fi_scope *s, fi_list *l)
{
    fi_method *m = &g->meth[s->mi];
    unsigned how = fi_below(g, 8);
    int q = fi_pick_ref(g, m, FT_REC);
    int f = (int)fi_below(g, FF_COUNT);
    if (!fi_charge(g, s, 1))
        return;
    if (how == 0) {
        fi_node *n = fi_append(g, l, FN_NEW);
        n->a = (uint8_t)q;
        n->form = (uint8_t)fi_below(g, 2);
        return;
    }
    int v = fi_is_int(fi_fields[f].type) ? -1 : fi_pick_ref(g, m, fi_fields[f].type);
    fi_node *n = fi_append(g, l, how < 5 ? FN_GETF : FN_PUTF);
    n->op = (uint8_t)f;
    if (how < 5) {
        n->a = (uint8_t)(v >= 0 ? v : fi_pick_dst(g, m));
        n->b = (uint8_t)q;
    } else {
        n->a = (uint8_t)q;
        n->c = (uint8_t)(v >= 0 ? v : fi_pick_int(g, m));
    }
}

static int16_t fi_gen_block(fi_gen *g, const fi_scope *s, unsigned maxlen);

static void fi_gen_if(fi_gen *g, const fi_scope *s, fi_list *l)
{
    fi_method *m = &g->meth[s->mi];
    if (!fi_charge(g, s, 2))
        return;
    fi_node *n = fi_append(g, l, FN_IF);
    int ni = (int)(n - g->node);
    int c = (int)fi_below(g, FC_COUNT);
    n->op = (uint8_t)c;
    n->form = (uint8_t)fi_below(g, 4);
    if (c <= FC_GT) {
        n->a = (uint8_t)fi_pick_int(g, m);
        n->b = (uint8_t)fi_pick_int(g, m);
    } else if (c <= FC_GTI) {
        n->a = (uint8_t)fi_pick_int(g, m);
        n->imm = fi_below(g, 2) ? (int64_t)fi_below(g, 20) - 3 : ref_byte(fi_byte(g));
    } else {
        n->a = (uint8_t)fi_pick_ref(g, m, FT_BYTES + (int)fi_below(g, 4));
        n->b = (uint8_t)fi_pick_ref(g, m, fi_below(g, 2) ? m->rtype[n->a] : FT_BYTES + (int)fi_below(g, 4));
    }
    fi_scope in = *s;
    in.nest++;
    int16_t then = fi_gen_block(g, &in, 6);
    int16_t alt = fi_below(g, 2) ? fi_gen_block(g, &in, 6) : -1;
    g->node[ni].body = then;
    g->node[ni].alt = alt;
}

static void fi_gen_loop(fi_gen *g, const fi_scope *s, fi_list *l)
{
    fi_method *m = &g->meth[s->mi];
    int form = (int)fi_below(g, FL_COUNT);
    int64_t trips = 0, max;
    switch (form) {
    case FL_DOWN: trips = 1 + fi_below(g, FI_MAX_TRIPS); max = trips; break;
    case FL_UP: trips = fi_below(g, FI_MAX_TRIPS + 1); max = trips; break;
    case FL_DATA: max = FI_DATA_TRIPS; break;
    default: max = FI_MAX_LEN; break;
    }
    if (max < 1)
        max = 1; /* a body that never runs is still charged once: it stays small */
    if (!fi_charge(g, s, 2 + max))
        return;
    fi_node *n = fi_append(g, l, FN_LOOP);
    int ni = (int)(n - g->node);
    n->op = (uint8_t)form;
    n->imm = trips;
    n->a = m->counter[s->nloops];
    if (form == FL_DATA)
        n->b = (uint8_t)fi_pick_int(g, m);
    if (form == FL_ARR) {
        n->b = m->limit[s->nloops];
        n->c = (uint8_t)fi_pick_ref(g, m, fi_pick_array_type(g));
    }
    fi_scope in = *s;
    in.nest++;
    in.mult = s->mult * max;
    in.loopk = m->counter[s->nloops];
    in.nloops++;
    g->node[ni].body = fi_gen_block(g, &in, 10);
}

/* The window of registers for calls of callee j: result (if any), then the parameters. */
static int fi_window(fi_gen *g, fi_method *m, int j)
{
    if (m->win[j] >= 0)
        return m->win[j];
    const fi_method *c = &g->meth[j];
    int first = m->nregs;
    char name[8];
    if (c->ret != FT_VOID) {
        snprintf(name, sizeof name, "w%d_r", j);
        fi_add_reg(g, m, name, FT_LONG, FR_HIDE);
    }
    for (int k = 0; k < c->nparams; k++) {
        snprintf(name, sizeof name, "w%d_%d", j, k);
        fi_add_reg(g, m, name, c->rtype[k], FR_HIDE);
    }
    m->win[j] = (int16_t)first;
    return first;
}

/*
 * A call of helper j (j > mi: no cycles) or, in a recursive helper, of
 * itself: the arguments are moved into the window, the result out of it.
 * A recursive callee's depth is masked to 0..FI_MAX_DEPTH, or is the
 * caller's own depth minus one.
 */
static void fi_gen_call(fi_gen *g, const fi_scope *s, fi_list *l, int force_self)
{
    fi_method *m = &g->meth[s->mi];
    /* the self-call only at the top level: not in a loop, so the depth bounds the work */
    int self = force_self || (m->recursive && !m->self_done && s->nest == 0 && fi_below(g, 2));
    int j;
    if (self) {
        j = s->mi;
    } else {
        if (s->mi + 1 >= g->nmeth)
            return;
        j = s->mi + 1 + (int)fi_below(g, (unsigned)(g->nmeth - s->mi - 1));
    }
    const fi_method *c = &g->meth[j];
    /* a self-call is paid for by the depth multiplier (fi_gen_method) */
    if (!fi_charge(g, s, (self ? 0 : c->cost) + c->nparams + 3))
        return;
    if (self)
        m->self_done = 1;
    int w = fi_window(g, m, j);
    int argw = w + (c->ret != FT_VOID);
    for (int k = 0; k < c->nparams; k++) {
        int t = c->rtype[k];
        if (k == 0 && c->recursive) {
            fi_node *n = fi_alu(g, l, self ? FA_SUBI : FA_ANDI, argw, self ? 0 : fi_pick_int(g, m), 0, 0);
            n->imm = self ? 1 : FI_MAX_DEPTH;
        } else if (fi_is_int(t)) {
            fi_alu(g, l, FA_MOV, argw + k, fi_pick_int(g, m), 0, 0);
        } else if (fi_below(g, 16) == 0) {
            fi_append(g, l, FN_LDNULL)->a = (uint8_t)(argw + k);
        } else {
            fi_node *n = fi_append(g, l, FN_MOVR);
            n->a = (uint8_t)(argw + k);
            n->b = (uint8_t)fi_pick_ref(g, m, t);
        }
    }
    fi_node *n = fi_append(g, l, FN_CALL);
    n->op = (uint8_t)j;
    n->a = (uint8_t)w;
    n->form = (uint8_t)fi_below(g, 4);
    if (c->ret != FT_VOID && fi_below(g, 4))
        fi_alu(g, l, FA_MOV, fi_pick_dst(g, m), w, 0, 0);
}

static void fi_gen_ret(fi_gen *g, fi_method *m, fi_list *l)
{
    fi_node *n = fi_append(g, l, FN_RET);
    if (m->ret == FT_VOID)
        n->b = 1;
    else
        n->a = (uint8_t)fi_pick_int(g, m);
}

/* The statements and their weights (out of 100). */
enum fi_stmt { ST_ALU, ST_LDI, ST_DIV, ST_ARRAY, ST_VIEW, ST_REFS, ST_STATIC, ST_RECORD, ST_GC, ST_IF, ST_LOOP,
               ST_CALL, ST_NOP, ST_RET, ST_COUNT };
static const uint8_t fi_stmt_weight[ST_COUNT] = {
    [ST_ALU] = 31, [ST_LDI] = 5, [ST_DIV] = 4, [ST_ARRAY] = 12, [ST_VIEW] = 8, [ST_REFS] = 6, [ST_STATIC] = 5,
    [ST_RECORD] = 5, [ST_GC] = 2, [ST_IF] = 7, [ST_LOOP] = 6, [ST_CALL] = 7,
    [ST_NOP] = 1, [ST_RET] = 1, /* an early return cuts the rest of its list: rare */
};

/* One statement: one node, or a few (operands set up right before their use). */
static void fi_gen_stmt(fi_gen *g, const fi_scope *s, fi_list *l)
{
    fi_method *m = &g->meth[s->mi];
    unsigned r = fi_below(g, 100);
    int st = 0;
    while (st < ST_COUNT - 1 && r >= fi_stmt_weight[st])
        r -= fi_stmt_weight[st++];
    if ((st == ST_IF || st == ST_LOOP) && s->nest >= FI_MAX_NEST)
        st = ST_ALU; /* no deeper */
    if (st == ST_VIEW && FI_AVOID_VIEWS)
        st = ST_ARRAY;
    if (st == ST_GC && FI_AVOID_GC)
        st = ST_NOP;
    switch (st) {
    case ST_ALU:
        if (fi_charge(g, s, 1))
            fi_gen_alu(g, m, l);
        break;
    case ST_LDI:
        if (fi_charge(g, s, 1)) {
            int a = fi_pick_dst(g, m);
            fi_ldi(g, l, a, fi_value(g));
        }
        break;
    case ST_DIV: fi_gen_div(g, s, l); break;
    case ST_ARRAY: fi_gen_array(g, s, l); break;
    case ST_VIEW: fi_gen_view(g, s, l); break;
    case ST_REFS: fi_gen_refs(g, s, l); break;
    case ST_STATIC: fi_gen_static(g, s, l); break;
    case ST_RECORD: fi_gen_record(g, s, l); break;
    case ST_GC:
        if (fi_charge(g, s, 1))
            fi_append(g, l, FN_GC);
        break;
    case ST_IF: fi_gen_if(g, s, l); break;
    case ST_LOOP: fi_gen_loop(g, s, l); break;
    case ST_CALL: fi_gen_call(g, s, l, 0); break;
    case ST_NOP:
        if (fi_charge(g, s, 1))
            fi_append(g, l, FN_NOP);
        break;
    default:
        if (fi_charge(g, s, 1))
            fi_gen_ret(g, m, l);
        break;
    }
}

/* A list of up to maxlen - 1 statements (the first byte says how many). */
static int16_t fi_gen_block(fi_gen *g, const fi_scope *s, unsigned maxlen)
{
    fi_list l = {-1, -1};
    unsigned n = fi_below(g, maxlen);
    for (unsigned k = 0; k < n && g->left > 0; k++) {
        if (g->nlines + FI_STMT_LINES + g->nreserve > FI_MAX_LINES)
            break;
        fi_gen_stmt(g, s, &l);
    }
    return l.first;
}

static int fi_reg_named(fi_gen *g, fi_method *m, const char *fmt, int k, int type, int role)
{
    char name[8];
    snprintf(name, sizeof name, fmt, k);
    return fi_add_reg(g, m, name, type, role);
}

/* n registers nothing reads or writes, so that the next ones get higher numbers. */
static void fi_pad(fi_gen *g, fi_method *m, int n)
{
    for (int k = 0; k < n; k++)
        fi_reg_named(g, m, "z%d", m->npad++, FT_LONG, FR_HIDE);
}

/*
 * Method mi: signature, registers, a prologue that allocates the local
 * arrays and record, the body, and the return. Helpers are generated from
 * the last to the first, so every callee's signature and cost are known.
 */
static void fi_gen_method(fi_gen *g, int mi)
{
    fi_method *m = &g->meth[mi];
    memset(m, 0, sizeof *m);
    for (int j = 0; j < FI_MAX_METHODS; j++)
        m->win[j] = -1;
    if (mi == 0) {
        snprintf(m->name, sizeof m->name, "main");
        m->ret = FT_LONG;
        m->budget = FI_BUDGET_MAIN - FI_RESERVE;
    } else {
        snprintf(m->name, sizeof m->name, "f%d", mi % 100000); /* mi < FI_MAX_METHODS: the bound is for GCC */
        unsigned sig = fi_byte(g);
        static const uint8_t rets[3] = {FT_LONG, FT_INT, FT_VOID};
        m->ret = rets[sig % 3];
        m->recursive = !FI_AVOID_RECURSION && (sig / 3) % 4 == 0;
        int np = (int)fi_below(g, FI_MAX_PARAMS + 1);
        if (m->recursive) {
            fi_add_reg(g, m, "d", FT_LONG, FR_FIXED);
            if (np == 0)
                np = 1;
        }
        for (int k = m->recursive; k < np; k++) {
            int t = (int)fi_below(g, FT_VOID);
            fi_reg_named(g, m, "p%d", k, t, fi_is_int(t) ? FR_DATA : FR_REF);
        }
        m->nparams = (uint8_t)np;
        m->budget = m->recursive ? FI_BUDGET_HELPER / (FI_MAX_DEPTH + 1) : FI_BUDGET_HELPER;
    }
    /*
     * Registers are spread over the 8-bit range, so that every bit of every
     * register field is used: in half of the methods a pad puts the data
     * registers anywhere in r0..r63 (as far as xor3, bcax and xrol reach),
     * and in one in four a second pad puts the counters, the locals, acc and
     * the call windows at r128 and above.
     */
    int nd = 3 + (int)fi_below(g, FI_MAX_DATA - 2);
    if (fi_below(g, 2))
        fi_pad(g, m, (int)fi_below(g, (unsigned)(VM_MAX_REGS4 + 1 - m->nregs - nd)));
    int x0 = m->nregs;
    unsigned types = fi_byte(g);
    for (int k = 0; k < nd; k++)
        fi_reg_named(g, m, "x%d", k, (types >> (k & 7)) & 1 ? FT_INT : FT_LONG, FR_DATA);
    if (fi_below(g, 4) == 0)
        fi_pad(g, m, 128 + (int)fi_below(g, 64) - m->nregs);
    for (int k = 0; k < FI_MAX_NEST; k++)
        m->counter[k] = (uint8_t)fi_reg_named(g, m, "k%d", k, FT_INT, FR_FIXED);
    for (int k = 0; k < FI_MAX_NEST; k++)
        m->limit[k] = (uint8_t)fi_reg_named(g, m, "n%d", k, FT_INT, FR_FIXED);
    /* the local references: every type at least once, so every pick finds one */
    static const uint8_t locals[] = {FT_BYTES, FT_BYTES, FT_INTS, FT_LONGS, FT_REC};
    static const char *const local_names[] = {"ba", "bb", "ia", "la", "q"};
    int local_reg[5];
    for (int k = 0; k < 5; k++)
        local_reg[k] = fi_add_reg(g, m, local_names[k], locals[k], FR_REF);
    if (mi == 0)
        m->acc = (uint8_t)fi_add_reg(g, m, "acc", FT_LONG, FR_HIDE);

    fi_scope s = {mi, 1, 0, 0, -1};
    fi_list l = {-1, -1};
    /*
     * prologue: objects in most locals (null ones make NPEs), their lengths
     * through x0; then values in the data registers (not the parameters)
     */
    uint32_t alloc = (uint32_t)fi_bytes(g, 4);
    for (int k = 0; k < 5; k++) {
        if ((alloc >> (5 * k) & 31) == 31 || !fi_charge(g, &s, 2))
            continue;
        if (locals[k] == FT_REC) {
            /* a record with its long[] field set: getfield fa would give null otherwise */
            fi_append(g, &l, FN_NEW)->a = (uint8_t)local_reg[k];
            fi_node *n = fi_append(g, &l, FN_PUTF);
            n->op = FF_A;
            n->a = (uint8_t)local_reg[k];
            n->c = (uint8_t)local_reg[k - 1];
            continue;
        }
        fi_ldi(g, &l, x0, fi_len(g));
        fi_node *n = fi_append(g, &l, FN_NEWARR);
        n->a = (uint8_t)local_reg[k];
        n->b = (uint8_t)x0;
    }
    for (int r = m->nparams; r < m->nregs; r++) {
        if (m->rrole[r] == FR_DATA && fi_charge(g, &s, 1))
            fi_ldi(g, &l, r, fi_value(g));
    }
    if (m->recursive) {
        /* if (d <= 0) { ...; return } — the base case; its if and return always charged */
        m->cost += 3;
        fi_node *n = fi_append(g, &l, FN_IF);
        int ni = (int)(n - g->node);
        n->op = FC_LEI;
        n->a = 0;
        n->imm = 0;
        n->form = (uint8_t)fi_below(g, 4);
        fi_scope in = s;
        in.nest = 1;
        fi_list base = {fi_gen_block(g, &in, 4), -1};
        for (base.last = base.first; base.last >= 0 && g->node[base.last].next >= 0;)
            base.last = g->node[base.last].next;
        fi_gen_ret(g, m, &base);
        g->node[ni].body = base.first;
    }
    /* the body: up to 47 statements at the top level */
    unsigned n = fi_below(g, 48);
    for (unsigned k = 0; k < n && g->left > 0 && g->nlines + FI_STMT_LINES + g->nreserve <= FI_MAX_LINES; k++)
        fi_gen_stmt(g, &s, &l);
    if (m->recursive && !m->self_done) {
        m->budget += 8; /* the recursion is the point of this helper: make room for it */
        fi_gen_call(g, &s, &l, 1);
    }
    if (mi == 0) {
        /*
         * epilogue: every reference into its static "k<name>"; every int
         * register into the long[] static kregs (so a mismatch names the
         * register), and folded into acc, main's result
         */
        int la = m->pool_ref[FT_LONGS][0], nint = 0;
        m->cost += 4 + 4 * m->nregs;
        for (int r = 0; r < m->nregs; r++) {
            if (m->rrole[r] != FR_REF)
                continue;
            for (int si = g->nstat_random; si < g->nstat; si++) {
                if (strcmp(g->stat[si].name + 1, m->rname[r]) == 0) {
                    fi_node *p = fi_append(g, &l, FN_PUTS);
                    p->a = (uint8_t)r;
                    p->op = (uint8_t)si;
                }
            }
        }
        for (int r = 0; r < m->nregs; r++)
            nint += m->rrole[r] == FR_DATA || m->rrole[r] == FR_FIXED;
        fi_ldi(g, &l, m->acc, nint)->form = 0;
        fi_node *na = fi_append(g, &l, FN_NEWARR);
        na->a = (uint8_t)la;
        na->b = m->acc;
        fi_ldi(g, &l, m->acc, 0)->form = 0;
        for (int r = 0, k = 0; r < m->nregs; r++) {
            if (m->rrole[r] == FR_DATA || m->rrole[r] == FR_FIXED) {
                fi_node *st = fi_append(g, &l, FN_STORE);
                st->form = 1;
                st->a = (uint8_t)la;
                st->imm = k++;
                st->c = (uint8_t)r;
                fi_alu(g, &l, FA_ROLI, m->acc, m->acc, 0, 0)->imm = 9;
                fi_alu(g, &l, FA_XOR, m->acc, m->acc, r, 0);
            }
        }
        fi_node *kr = fi_append(g, &l, FN_PUTS);
        kr->a = (uint8_t)la;
        kr->op = (uint8_t)(g->nstat - 1);
        fi_append(g, &l, FN_RET)->a = m->acc;
    } else {
        m->cost += 1;
        fi_gen_ret(g, m, &l);
    }
    m->body = l.first;
    if (m->recursive)
        m->cost *= FI_MAX_DEPTH + 1;
}

static void fi_gen_statics(fi_gen *g)
{
    /* sv0/sv1: integers; sb0 sb1 si0 sl0: arrays with initialisers; sn0, sq0: null */
    static const struct {
        const char *name;
        uint8_t type, init;
    } plan[] = {
        {"sv0", FT_LONG, FS_VALUE}, {"sv1", FT_INT, FS_VALUE}, {"sv2", FT_LONG, FS_NONE},
        {"sb0", FT_BYTES, FS_ARRAY}, {"sb1", FT_BYTES, FS_STRING}, {"si0", FT_INTS, FS_ARRAY},
        {"sl0", FT_LONGS, FS_ARRAY}, {"sn0", FT_LONGS, FS_NONE}, {"sq0", FT_REC, FS_NONE},
    };
    for (size_t k = 0; k < sizeof plan / sizeof plan[0]; k++) {
        fi_static *st = &g->stat[g->nstat++];
        memset(st, 0, sizeof *st);
        snprintf(st->name, sizeof st->name, "%s", plan[k].name);
        st->type = plan[k].type;
        st->init = plan[k].init;
        st->form = (uint8_t)fi_below(g, 4);
        if (st->init == FS_VALUE) {
            st->value = fi_value(g);
        } else if (st->init == FS_STRING) {
            st->str = (uint8_t)fi_below(g, FI_NSTRINGS);
        } else if (st->init == FS_ARRAY) {
            st->nelems = (uint8_t)fi_len(g);
            st->split = (uint8_t)fi_below(g, (unsigned)st->nelems + 1);
            for (int e = 0; e < st->nelems; e++) {
                int64_t v = fi_value(g);
                /* the literal ranges: byte -128..255, int -2^31..2^32-1 */
                if (st->type == FT_BYTES)
                    v = v < -128 || v > 255 ? ref_byte((uint64_t)v) : v;
                else if (st->type == FT_INTS)
                    v = v < -0x80000000LL || v > 0xffffffffLL ? ref_int((uint64_t)v) : v;
                st->elems[e] = v;
                st->eform[e] = (uint8_t)fi_below(g, 4);
            }
        }
    }
}

/* Statics "k<reg>" keep main's references after it returns (the epilogue stores them). */
static void fi_gen_keep_statics(fi_gen *g)
{
    static const struct {
        const char *name;
        uint8_t type;
    } keep[] = {{"kba", FT_BYTES}, {"kbb", FT_BYTES}, {"kia", FT_INTS}, {"kla", FT_LONGS}, {"kq", FT_REC},
                {"kregs", FT_LONGS}};
    for (size_t k = 0; k < sizeof keep / sizeof keep[0]; k++) {
        fi_static *st = &g->stat[g->nstat++];
        memset(st, 0, sizeof *st);
        snprintf(st->name, sizeof st->name, "%s", keep[k].name);
        st->type = keep[k].type;
        st->init = FS_NONE;
    }
}

static void fi_generate(fi_gen *g, const uint8_t *data, size_t size)
{
    g->in = data;
    g->left = size;
    g->nmeth = 1 + (int)fi_below(g, FI_MAX_METHODS);
    g->kval[0] = fi_value(g);
    g->kval[1] = ref_byte(fi_byte(g));
    g->kval[2] = fi_byte(g) & 31;
    g->kval[3] = g->kval[0];
    fi_gen_statics(g);
    g->nstat_random = g->nstat;
    fi_gen_keep_statics(g);
    /*
     * The rest is cut into one slice per method, main's first: helpers are
     * generated first (their costs must be known to their callers), yet
     * each method gets its share, and a mutation stays inside one method.
     */
    const uint8_t *rest = g->in;
    size_t total = g->left, slice = total / (size_t)g->nmeth;
    for (int mi = g->nmeth - 1; mi >= 0; mi--) {
        g->in = rest + slice * (size_t)mi;
        g->left = mi == g->nmeth - 1 ? total - slice * (size_t)mi : slice;
        /* this method's own tail, and all of the methods still to come (main's epilogue among them) */
        g->nreserve = mi == 0 ? FI_LINES_EPILOGUE
                              : FI_LINES_TAIL + (mi - 1) * (FI_LINES_PROLOGUE + FI_LINES_TAIL) +
                                    FI_LINES_PROLOGUE + FI_LINES_EPILOGUE;
        fi_gen_method(g, mi);
    }
}

/* ---- emitting .mva text -------------------------------------------------------- */
/* One line; returns its number. */
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static uint32_t fi_emit(fi_gen *g, const char *fmt, ...)
{
    /* an instruction line is indented; a pending label goes in front of it */
    int insn = strncmp(fmt, "    ", 4) == 0;
    if (g->pending) {
        uint32_t label = g->pending;
        g->pending = 0;
        if (insn)
            g->len += (size_t)snprintf(g->text + g->len, sizeof g->text - g->len, "L%u:", label);
        else
            fi_emit(g, "L%u:", label);
    }
    size_t room = sizeof g->text - g->len;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(g->text + g->len, room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n + 32 > room) {
        g->text[g->len] = '\0';
        fi_bug(g, "program text over FI_TEXT_CAP", NULL);
    }
    g->len += (size_t)n;
    /* now and then a comment after an instruction: the lexer's business */
    if (insn && g->line % 11 == 5)
        g->len += (size_t)snprintf(g->text + g->len, room - (size_t)n, " ; \"%u\", x;y", g->line);
    g->text[g->len++] = '\n';
    g->text[g->len] = '\0';
    return ++g->line;
}

/* A label: on its own line, or (every third) in front of the next instruction. */
static void fi_label(fi_gen *g, uint32_t label)
{
    if (g->pending) {
        /* two labels in a row: the first gets a line of its own */
        uint32_t first = g->pending;
        g->pending = 0;
        fi_emit(g, "L%u:", first);
    }
    if (label % 3 == 0)
        g->pending = label;
    else
        fi_emit(g, "L%u:", label);
}

/* A number as decimal, hex (the bit pattern), negative hex, or a constant's name. */
static const char *fi_num(const fi_gen *g, char *buf, size_t len, int64_t v, int form)
{
    if (form == 3) {
        for (int k = 0; k < FI_NCONST; k++) {
            if (g->kval[k] == v) {
                snprintf(buf, len, "K%d", k);
                return buf;
            }
        }
    }
    if (form == 1)
        snprintf(buf, len, "0x%llx", (unsigned long long)v);
    else if (form == 2 && v < 0 && v != INT64_MIN)
        snprintf(buf, len, "-0x%llx", (unsigned long long)-v);
    else
        snprintf(buf, len, "%lld", (long long)v);
    return buf;
}

static const char *fi_imm_text(const fi_gen *g, char *buf, size_t len, int64_t v, int form)
{
    for (int k = 1; form && k <= 2; k++) {
        if (g->kval[k] == v) {
            snprintf(buf, len, "K%d", k);
            return buf;
        }
    }
    snprintf(buf, len, "%lld", (long long)v);
    return buf;
}

static const char *const fi_load_mn[FT_COUNT] = {[FT_BYTES] = "baload", [FT_INTS] = "iaload", [FT_LONGS] = "laload"};
static const char *const fi_store_mn[FT_COUNT] = {[FT_BYTES] = "bastore", [FT_INTS] = "iastore",
                                                  [FT_LONGS] = "lastore"};

static void fi_emit_list(fi_gen *g, const fi_method *m, int16_t i);

/* The condition of an if, negated or not, jumping to label L<label>. */
static void fi_emit_cond(fi_gen *g, const fi_method *m, const fi_node *n, int negate, uint32_t label)
{
    int c = negate ? fi_cond_not(n->op) : n->op;
    char buf[32];
    if (c >= FC_NULL)
        fi_emit(g, "    %s %s, L%u", fi_cond_mn[c], m->rname[n->a], label);
    else if (c >= FC_EQI && c <= FC_GTI)
        fi_emit(g, "    %s %s, %s, L%u", fi_cond_mn[c], m->rname[n->a], fi_imm_text(g, buf, sizeof buf, n->imm, 0),
                label);
    else
        fi_emit(g, "    %s %s, %s, L%u", fi_cond_mn[c], m->rname[n->a], m->rname[n->b], label);
}

static void fi_emit_node(fi_gen *g, const fi_method *m, fi_node *n)
{
    char b1[40];
#define RN(x) (m->rname[(x)])
    switch (n->kind) {
    case FN_ALU: {
        const char *mn = fi_alu_info[n->op].mn;
        switch (fi_alu_info[n->op].shape) {
        case SH_RR: n->line = fi_emit(g, "    %s %s, %s", mn, RN(n->a), RN(n->b)); break;
        case SH_RRR: n->line = fi_emit(g, "    %s %s, %s, %s", mn, RN(n->a), RN(n->b), RN(n->c)); break;
        case SH_RRRR:
            n->line = fi_emit(g, "    %s %s, %s, %s, %s", mn, RN(n->a), RN(n->b), RN(n->c), RN(n->d));
            break;
        case SH_RRRU6:
            n->line = fi_emit(g, "    %s %s, %s, %s, %s", mn, RN(n->a), RN(n->b), RN(n->c),
                              fi_imm_text(g, b1, sizeof b1, n->imm, n->form));
            break;
        default:
            n->line = fi_emit(g, "    %s %s, %s, %s", mn, RN(n->a), RN(n->b),
                              fi_imm_text(g, b1, sizeof b1, n->imm, n->form));
            break;
        }
        break;
    }
    case FN_LDI: n->line = fi_emit(g, "    ldi %s, %s", RN(n->a), fi_num(g, b1, sizeof b1, n->imm, n->form)); break;
    case FN_MOVR: n->line = fi_emit(g, "    mov %s, %s", RN(n->a), RN(n->b)); break;
    case FN_LDNULL: n->line = fi_emit(g, "    ldnull %s", RN(n->a)); break;
    case FN_LDSTR: n->line = fi_emit(g, "    ldstr %s, %s", RN(n->a), fi_strings[n->op].text); break;
    case FN_GETS:
    case FN_PUTS:
        n->line = fi_emit(g, "    %s %s, %s%s", n->kind == FN_GETS ? "getstatic" : "putstatic", RN(n->a),
                          n->form ? FI_MODULE "." : "", g->stat[n->op].name);
        break;
    case FN_NEWARR: n->line = fi_emit(g, "    newarray %s, %s", RN(n->a), RN(n->b)); break;
    case FN_ALEN: n->line = fi_emit(g, "    alen %s, %s", RN(n->a), RN(n->b)); break;
    case FN_LOAD:
        if (n->form)
            n->line = fi_emit(g, "    laload %s, %s, %lld", RN(n->a), RN(n->b), (long long)n->imm);
        else
            n->line = fi_emit(g, "    %s %s, %s, %s", fi_load_mn[m->rtype[n->b]], RN(n->a), RN(n->b), RN(n->c));
        break;
    case FN_STORE:
        if (n->form)
            n->line = fi_emit(g, "    lastore %s, %lld, %s", RN(n->a), (long long)n->imm, RN(n->c));
        else
            n->line = fi_emit(g, "    %s %s, %s, %s", fi_store_mn[m->rtype[n->a]], RN(n->a), RN(n->b), RN(n->c));
        break;
    case FN_VLOAD: n->line = fi_emit(g, "    %s %s, %s, %s", fi_view_ld[n->op], RN(n->a), RN(n->b), RN(n->c)); break;
    case FN_VSTORE: n->line = fi_emit(g, "    %s %s, %s, %s", fi_view_st[n->op], RN(n->a), RN(n->b), RN(n->c)); break;
    case FN_NEW: n->line = fi_emit(g, "    new %s, %sP", RN(n->a), n->form ? FI_MODULE "." : ""); break;
    case FN_GETF: n->line = fi_emit(g, "    getfield %s, %s, %s", RN(n->a), RN(n->b), fi_fields[n->op].name); break;
    case FN_PUTF: n->line = fi_emit(g, "    putfield %s, %s, %s", RN(n->a), fi_fields[n->op].name, RN(n->c)); break;
    case FN_GC: n->line = fi_emit(g, "    call Sys.gc()"); break;
    case FN_NOP: n->line = fi_emit(g, "    nop"); break;
    case FN_CALL: {
        const fi_method *c = &g->meth[n->op];
        int argw = n->a + (c->ret != FT_VOID);
        size_t k = 0;
        char args[FI_MAX_PARAMS * 10] = "";
        for (int p = 0; p < c->nparams; p++)
            k += (size_t)snprintf(args + k, sizeof args - k, "%s%s", p ? ", " : "", RN(argw + p));
        const char *q = n->form == 3 ? FI_MODULE "." : "";
        if (c->ret != FT_VOID)
            n->line = fi_emit(g, "    call %s = %s%s(%s)", RN(n->a), q, c->name, args);
        else
            n->line = fi_emit(g, "    call %s%s(%s)", q, c->name, args);
        break;
    }
    case FN_RET:
        if (n->b)
            n->line = fi_emit(g, "    ret");
        else
            n->line = fi_emit(g, "    ret %s", RN(n->a));
        break;
    case FN_IF: {
        uint32_t lt = ++g->nlabels, le = ++g->nlabels;
        if (n->form & 1) {
            /* jump to the then part; the else part falls through */
            fi_emit_cond(g, m, n, 0, lt);
            fi_emit_list(g, m, n->alt);
            fi_emit(g, "    jmp L%u", le);
            fi_label(g, lt);
            fi_emit_list(g, m, n->body);
            fi_label(g, le);
        } else {
            /* jump over the then part when the condition fails */
            fi_emit_cond(g, m, n, 1, lt);
            fi_emit_list(g, m, n->body);
            if (n->alt >= 0 || (n->form & 2))
                fi_emit(g, "    jmp L%u", le);
            fi_label(g, lt);
            fi_emit_list(g, m, n->alt);
            fi_label(g, le);
        }
        break;
    }
    case FN_LOOP: {
        uint32_t top = ++g->nlabels, end = ++g->nlabels;
        switch (n->op) {
        case FL_DOWN:
            fi_emit(g, "    ldi %s, %lld", RN(n->a), (long long)n->imm);
            fi_label(g, top);
            fi_emit_list(g, m, n->body);
            fi_emit(g, "    sub %s, %s, 1", RN(n->a), RN(n->a));
            fi_emit(g, "    bgt %s, 0, L%u", RN(n->a), top);
            break;
        case FL_UP:
            fi_emit(g, "    ldi %s, 0", RN(n->a));
            fi_label(g, top);
            fi_emit(g, "    bge %s, %lld, L%u", RN(n->a), (long long)n->imm, end);
            fi_emit_list(g, m, n->body);
            fi_emit(g, "    add %s, %s, 1", RN(n->a), RN(n->a));
            fi_emit(g, "    jmp L%u", top);
            fi_label(g, end);
            break;
        case FL_DATA:
            fi_emit(g, "    and %s, %s, %d", RN(n->a), RN(n->b), FI_DATA_TRIPS);
            fi_label(g, top);
            fi_emit(g, "    ble %s, 0, L%u", RN(n->a), end);
            fi_emit_list(g, m, n->body);
            fi_emit(g, "    sub %s, %s, 1", RN(n->a), RN(n->a));
            fi_emit(g, "    jmp L%u", top);
            fi_label(g, end);
            break;
        default:
            n->line = fi_emit(g, "    alen %s, %s", RN(n->b), RN(n->c));
            fi_emit(g, "    ldi %s, 0", RN(n->a));
            fi_label(g, top);
            fi_emit(g, "    bge %s, %s, L%u", RN(n->a), RN(n->b), end);
            fi_emit_list(g, m, n->body);
            fi_emit(g, "    add %s, %s, 1", RN(n->a), RN(n->a));
            fi_emit(g, "    jmp L%u", top);
            fi_label(g, end);
            break;
        }
        break;
    }
    default: break;
    }
#undef RN
}

static void fi_emit_list(fi_gen *g, const fi_method *m, int16_t i)
{
    for (; i >= 0; i = g->node[i].next)
        fi_emit_node(g, m, &g->node[i]);
}

static void fi_emit_static(fi_gen *g, const fi_static *st)
{
    char b[40];
    switch (st->init) {
    case FS_VALUE:
        fi_emit(g, "static %s: %s = %s", st->name, fi_type_name[st->type], fi_num(g, b, sizeof b, st->value, st->form));
        break;
    case FS_STRING: fi_emit(g, "static %s: %s = %s", st->name, fi_type_name[st->type], fi_strings[st->str].text); break;
    case FS_ARRAY: {
        /* an array literal, over two lines when split is inside it */
        char line[1024];
        size_t k = (size_t)snprintf(line, sizeof line, "static %s: %s = {", st->name, fi_type_name[st->type]);
        for (int e = 0; e < st->nelems; e++) {
            if (e == st->split && e > 0) {
                fi_emit(g, "%s", line);
                k = (size_t)snprintf(line, sizeof line, "   ");
            }
            k += (size_t)snprintf(line + k, sizeof line - k, " %s%s",
                                  fi_num(g, b, sizeof b, st->elems[e], st->eform[e]), e + 1 < st->nelems ? "," : "");
        }
        snprintf(line + k, sizeof line - k, " }");
        fi_emit(g, "%s", line);
        break;
    }
    default: fi_emit(g, "static %s: %s", st->name, fi_type_name[st->type]); break;
    }
}

static void fi_emit_program(fi_gen *g)
{
    char b[40];
    fi_emit(g, "; generated by tests/fuzz/fuzz_interp.c");
    fi_emit(g, "module " FI_MODULE);
    for (int k = 0; k < 3; k++)
        fi_emit(g, "const K%d = %s", k, fi_num(g, b, sizeof b, g->kval[k], k == 0 ? 1 : 0));
    fi_emit(g, "const K3 = K0");
    fi_emit(g, "record P");
    for (int f = 0; f < FF_COUNT; f++)
        fi_emit(g, "    %s: %s", fi_fields[f].name, fi_type_name[fi_fields[f].type]);
    fi_emit(g, "end");
    for (int s = 0; s < g->nstat; s++)
        fi_emit_static(g, &g->stat[s]);
    for (int mi = 0; mi < g->nmeth; mi++) {
        const fi_method *m = &g->meth[mi];
        char params[FI_MAX_PARAMS * 24] = "";
        size_t k = 0;
        for (int p = 0; p < m->nparams; p++)
            k += (size_t)snprintf(params + k, sizeof params - k, "%s%s: %s", p ? ", " : "", m->rname[p],
                                  fi_type_name[m->rtype[p]]);
        if (m->ret == FT_VOID)
            fi_emit(g, "method %s(%s)", m->name, params);
        else
            fi_emit(g, "method %s(%s) -> %s", m->name, params, fi_type_name[m->ret]);
        /* "var a, b, c: T": up to 16 registers of one type on a line, in register order */
        for (int r = m->nparams; r < m->nregs;) {
            char names[16 * 8];
            int e = r;
            size_t k = 0;
            for (; e < m->nregs && e < r + 16 && m->rtype[e] == m->rtype[r]; e++)
                k += (size_t)snprintf(names + k, sizeof names - k, "%s%s", e > r ? ", " : "", m->rname[e]);
            fi_emit(g, "    var %s: %s", names, fi_type_name[m->rtype[r]]);
            r = e;
        }
        fi_emit_list(g, m, m->body);
        fi_emit(g, "end");
    }
}

/* ---- the reference evaluator ---------------------------------------------------- */
/*
 * It runs the tree with Java's semantics, written without looking at the
 * interpreter: registers are int64_t, references are object numbers (0 is
 * null), elements are kept as the values Java would read back.
 */
typedef struct ref_obj {
    uint8_t type; /* FT_BYTES, FT_INTS, FT_LONGS, FT_REC */
    int32_t len;  /* elements; FF_COUNT for a record */
    int64_t v[FI_OBJ_CAP];
} ref_obj;

typedef struct ref_state {
    uint32_t nobjs;
    ref_obj obj[FI_MAX_OBJS];
    int64_t stat[FI_MAX_STATICS];
    int64_t str[FI_NSTRINGS];
    int64_t steps;
    vm_exc exc;
    char msg[256];
    char trace[4096];
    size_t tlen;
    int64_t result;
} ref_state;

static ref_state RS;

enum { RS_NEXT, RS_RET, RS_THROW };

static int64_t ref_new(const fi_gen *g, ref_state *rs, int type, int64_t len)
{
    if (rs->nobjs + 1 >= FI_MAX_OBJS || len > FI_OBJ_CAP)
        fi_bug(g, "more objects or a longer array than the limits allow", NULL);
    int64_t id = ++rs->nobjs;
    ref_obj *o = &rs->obj[id];
    memset(o, 0, sizeof *o);
    o->type = (uint8_t)type;
    o->len = (int32_t)len;
    return id;
}

static void ref_trace_line(ref_state *rs, const fi_method *m, uint32_t line)
{
    int n = snprintf(rs->trace + rs->tlen, sizeof rs->trace - rs->tlen, "\tat " FI_MODULE ".%s(" FI_FILE ":%u)\n",
                     m->name, line);
    if (n > 0 && rs->tlen + (size_t)n < sizeof rs->trace)
        rs->tlen += (size_t)n;
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int ref_throw(ref_state *rs, const fi_method *m, const fi_node *n, vm_exc e, const char *fmt, ...)
{
    rs->exc = e;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rs->msg, sizeof rs->msg, fmt, ap);
    va_end(ap);
    rs->tlen = 0;
    ref_trace_line(rs, m, n->line);
    return RS_THROW;
}

/* Rotate the low w bits (32 or 64) of x left by n (right when !left). */
static uint64_t ref_rot(uint64_t x, unsigned n, unsigned w, int left)
{
    uint64_t mask = w == 64 ? UINT64_MAX : 0xffffffffu;
    x &= mask;
    n %= w;
    if (!left)
        n = (w - n) % w;
    if (n == 0)
        return x;
    return ((x << n) | (x >> (w - n))) & mask;
}

/* Java's >> on a long: the sign fills the vacated bits. n is 0..63. */
static int64_t ref_sar(int64_t x, unsigned n)
{
    uint64_t u = (uint64_t)x >> n;
    if (x < 0 && n)
        u |= ~(UINT64_MAX >> n);
    return ref_s64(u);
}

/* One ALU operation; c is the immediate of the immediate forms, d of xrol. */
static int ref_alu(int op, int64_t b, int64_t c, int64_t d, int64_t *out)
{
    uint64_t ub = (uint64_t)b, uc = (uint64_t)c;
    switch (op) {
    case FA_ADD: case FA_ADDI: *out = ref_s64(ub + uc); break;
    case FA_SUB: case FA_SUBI: *out = ref_s64(ub - uc); break;
    case FA_MUL: *out = ref_s64(ub * uc); break;
    case FA_DIV:
        if (c == 0)
            return 1;
        *out = b == INT64_MIN && c == -1 ? INT64_MIN : b / c;
        break;
    case FA_REM:
        if (c == 0)
            return 1;
        *out = c == -1 ? 0 : b % c;
        break;
    case FA_NEG: *out = ref_s64(0 - ub); break;
    case FA_AND: case FA_ANDI: *out = b & c; break;
    case FA_OR: *out = b | c; break;
    case FA_XOR: *out = b ^ c; break;
    case FA_ANDN: *out = b & ~c; break;
    case FA_NOT: *out = ~b; break;
    case FA_SHL: case FA_SHLI: *out = ref_s64(ub << (uc & 63)); break;
    case FA_SHR: case FA_SHRI: *out = ref_s64(ub >> (uc & 63)); break;
    case FA_SAR: case FA_SARI: *out = ref_sar(b, (unsigned)(uc & 63)); break;
    case FA_ROL: case FA_ROLI: *out = ref_s64(ref_rot(ub, (unsigned)(uc & 63), 64, 1)); break;
    case FA_ROR: case FA_RORI: *out = ref_s64(ref_rot(ub, (unsigned)(uc & 63), 64, 0)); break;
    case FA_XOR3: *out = b ^ c ^ d; break;
    case FA_BCAX: *out = b ^ (c & ~d); break;
    case FA_XROL: *out = ref_s64(ref_rot(ub ^ uc, (unsigned)(d & 63), 64, 1)); break;
    case FA_RAX1: *out = b ^ ref_s64(ref_rot(uc, 1, 64, 1)); break;
    case FA_ADDW: case FA_ADDWI: *out = ref_int(ub + uc); break;
    case FA_SUBW: *out = ref_int(ub - uc); break;
    case FA_MULW: *out = ref_int(ub * uc); break;
    case FA_SHLW: case FA_SHLWI: *out = ref_int(ub << (uc & 31)); break;
    case FA_SHRW: case FA_SHRWI: *out = ref_int((ub & 0xffffffffu) >> (uc & 31)); break;
    case FA_SARW: case FA_SARWI: *out = ref_sar(ref_int(ub), (unsigned)(uc & 31)); break;
    case FA_ROLW: case FA_ROLWI: *out = ref_int(ref_rot(ub, (unsigned)(uc & 31), 32, 1)); break;
    case FA_RORW: case FA_RORWI: *out = ref_int(ref_rot(ub, (unsigned)(uc & 31), 32, 0)); break;
    case FA_L2I: *out = ref_int(ub); break;
    case FA_I2B: *out = ref_byte(ub); break;
    case FA_ZEXTW: *out = (int64_t)(ub & 0xffffffffu); break;
    case FA_MOV: *out = b; break;
    default: break;
    }
    return 0;
}

/* What Java reads back after storing v into an element of this array type. */
static int64_t ref_elem(int type, int64_t v)
{
    if (type == FT_BYTES)
        return ref_byte((uint64_t)v);
    if (type == FT_INTS)
        return ref_int((uint64_t)v);
    return v;
}

static int ref_cond(int c, int64_t a, int64_t b)
{
    switch (c) {
    case FC_EQ: case FC_EQI: case FC_EQR: return a == b;
    case FC_NE: case FC_NEI: case FC_NER: return a != b;
    case FC_LT: case FC_LTI: return a < b;
    case FC_GE: case FC_GEI: return a >= b;
    case FC_LE: case FC_LEI: return a <= b;
    case FC_GT: case FC_GTI: return a > b;
    case FC_NULL: return a == 0;
    default: return a != 0;
    }
}

/* HotSpot's helpful NullPointerException texts for array accesses (docs/bytecode.md). */
static const char *ref_npe_what(int type, int store)
{
    static const char *const what[2][3] = {
        {"load from byte/boolean array", "load from int array", "load from long array"},
        {"store to byte/boolean array", "store to int array", "store to long array"}};
    return what[store][type - FT_BYTES];
}

static int ref_list(const fi_gen *g, ref_state *rs, int mi, int64_t *R, int16_t i, int64_t *ret);

static int ref_call(const fi_gen *g, ref_state *rs, int mi, int64_t *R, const fi_node *n)
{
    const fi_method *m = &g->meth[mi], *c = &g->meth[n->op];
    int argw = n->a + (c->ret != FT_VOID);
    int64_t C[FI_MAX_REGS];
    memset(C, 0, sizeof C);
    for (int p = 0; p < c->nparams; p++)
        C[p] = R[argw + p];
    int64_t rv = 0;
    int st = ref_list(g, rs, n->op, C, c->body, &rv);
    if (st == RS_THROW) {
        ref_trace_line(rs, m, n->line);
        return RS_THROW;
    }
    if (st != RS_RET)
        fi_bug(g, "a method ends without a return", c->name);
    if (c->ret != FT_VOID)
        R[n->a] = rv;
    return RS_NEXT;
}

static int ref_loop(const fi_gen *g, ref_state *rs, int mi, int64_t *R, const fi_node *n, int64_t *ret)
{
    const fi_method *m = &g->meth[mi];
    int k = n->a, st;
    switch (n->op) {
    case FL_DOWN:
        R[k] = n->imm;
        do {
            rs->steps++;
            if ((st = ref_list(g, rs, mi, R, n->body, ret)) != RS_NEXT)
                return st;
            R[k] -= 1;
        } while (R[k] > 0);
        return RS_NEXT;
    case FL_UP:
    case FL_DATA:
    case FL_ARR: {
        int64_t lim = n->imm, step = 1;
        if (n->op == FL_UP) {
            R[k] = 0;
        } else if (n->op == FL_DATA) {
            R[k] = R[n->b] & FI_DATA_TRIPS;
            lim = 0;
            step = -1;
        } else {
            int64_t a = R[n->c];
            if (!a)
                return ref_throw(rs, m, n, VM_EXC_NPE, "Cannot read the array length because \"%s\" is null",
                                 m->rname[n->c]);
            R[n->b] = lim = rs->obj[a].len;
            R[k] = 0;
        }
        while (step > 0 ? R[k] < lim : R[k] > lim) {
            rs->steps++;
            if ((st = ref_list(g, rs, mi, R, n->body, ret)) != RS_NEXT)
                return st;
            R[k] += step;
        }
        return RS_NEXT;
    }
    default: return RS_NEXT;
    }
}

static int ref_node(const fi_gen *g, ref_state *rs, int mi, int64_t *R, const fi_node *n, int64_t *ret)
{
    const fi_method *m = &g->meth[mi];
    rs->steps++;
    switch (n->kind) {
    case FN_ALU: {
        int shape = fi_alu_info[n->op].shape;
        int64_t c = shape == SH_RRR || shape == SH_RRRR || shape == SH_RRRU6 ? R[n->c] : n->imm;
        int64_t d = shape == SH_RRRR ? R[n->d] : n->imm;
        int64_t v = 0;
        if (ref_alu(n->op, R[n->b], c, d, &v))
            return ref_throw(rs, m, n, VM_EXC_ARITHMETIC, "/ by zero");
        R[n->a] = v;
        return RS_NEXT;
    }
    case FN_LDI: R[n->a] = n->imm; return RS_NEXT;
    case FN_MOVR: R[n->a] = R[n->b]; return RS_NEXT;
    case FN_LDNULL: R[n->a] = 0; return RS_NEXT;
    case FN_LDSTR: R[n->a] = rs->str[n->op]; return RS_NEXT;
    case FN_GETS: R[n->a] = rs->stat[n->op]; return RS_NEXT;
    case FN_PUTS: rs->stat[n->op] = R[n->a]; return RS_NEXT;
    case FN_NEWARR: {
        int64_t len = R[n->b];
        if (len < 0)
            return ref_throw(rs, m, n, VM_EXC_NEGATIVE_SIZE, "%lld", (long long)len);
        R[n->a] = ref_new(g, rs, m->rtype[n->a], len);
        return RS_NEXT;
    }
    case FN_ALEN:
        if (!R[n->b])
            return ref_throw(rs, m, n, VM_EXC_NPE, "Cannot read the array length because \"%s\" is null",
                             m->rname[n->b]);
        R[n->a] = rs->obj[R[n->b]].len;
        return RS_NEXT;
    case FN_LOAD:
    case FN_STORE: {
        int store = n->kind == FN_STORE;
        int ar = store ? n->a : n->b;
        int64_t idx = n->form ? n->imm : R[store ? n->b : n->c];
        if (!R[ar])
            return ref_throw(rs, m, n, VM_EXC_NPE, "Cannot %s because \"%s\" is null",
                             ref_npe_what(m->rtype[ar], store), m->rname[ar]);
        ref_obj *o = &rs->obj[R[ar]];
        if (idx < 0 || idx >= o->len)
            return ref_throw(rs, m, n, VM_EXC_AIOOBE, "Index %lld out of bounds for length %d", (long long)idx, o->len);
        if (store)
            o->v[idx] = ref_elem(o->type, R[n->c]);
        else
            R[n->a] = o->v[idx];
        return RS_NEXT;
    }
    case FN_VLOAD:
    case FN_VSTORE: {
        /* Java's byteArrayViewVarHandle: any index with index + size <= length */
        int store = n->kind == FN_VSTORE, size = fi_view_size(n->op), be = n->op & 1;
        int ar = store ? n->a : n->b;
        int64_t idx = R[store ? n->b : n->c];
        if (!R[ar])
            return ref_throw(rs, m, n, VM_EXC_NPE, "Cannot %s because \"%s\" is null", ref_npe_what(FT_BYTES, store),
                             m->rname[ar]);
        ref_obj *o = &rs->obj[R[ar]];
        int64_t lim = (int64_t)o->len - (size - 1);
        if (idx < 0 || idx >= lim)
            return ref_throw(rs, m, n, VM_EXC_AIOOBE, "Index %lld out of bounds for length %lld", (long long)idx,
                             (long long)lim);
        if (store) {
            uint64_t v = (uint64_t)R[n->c];
            for (int k = 0; k < size; k++)
                o->v[idx + (be ? size - 1 - k : k)] = ref_byte(v >> (8 * k));
        } else {
            uint64_t v = 0;
            for (int k = 0; k < size; k++)
                v |= ((uint64_t)o->v[idx + (be ? size - 1 - k : k)] & 0xffu) << (8 * k);
            R[n->a] = size == 4 ? ref_int(v) : ref_s64(v);
        }
        return RS_NEXT;
    }
    case FN_NEW: R[n->a] = ref_new(g, rs, FT_REC, FF_COUNT); return RS_NEXT;
    case FN_GETF:
        if (!R[n->b])
            return ref_throw(rs, m, n, VM_EXC_NPE, "Cannot read field \"%s\" because \"%s\" is null",
                             fi_fields[n->op].name, m->rname[n->b]);
        R[n->a] = rs->obj[R[n->b]].v[n->op];
        return RS_NEXT;
    case FN_PUTF:
        if (!R[n->a])
            return ref_throw(rs, m, n, VM_EXC_NPE, "Cannot assign field \"%s\" because \"%s\" is null",
                             fi_fields[n->op].name, m->rname[n->a]);
        rs->obj[R[n->a]].v[n->op] = R[n->c];
        return RS_NEXT;
    case FN_GC:
    case FN_NOP: return RS_NEXT;
    case FN_CALL: return ref_call(g, rs, mi, R, n);
    case FN_RET: *ret = n->b ? 0 : R[n->a]; return RS_RET;
    case FN_IF: {
        int64_t b = n->op >= FC_EQI && n->op <= FC_GTI ? n->imm : R[n->b];
        return ref_list(g, rs, mi, R, ref_cond(n->op, R[n->a], b) ? n->body : n->alt, ret);
    }
    case FN_LOOP: return ref_loop(g, rs, mi, R, n, ret);
    default: return RS_NEXT;
    }
}

static int ref_list(const fi_gen *g, ref_state *rs, int mi, int64_t *R, int16_t i, int64_t *ret)
{
    for (; i >= 0; i = g->node[i].next) {
        int st = ref_node(g, rs, mi, R, &g->node[i], ret);
        if (st != RS_NEXT)
            return st;
    }
    if (rs->steps > FI_BUDGET_MAIN)
        fi_bug(g, "the program runs longer than its budget", NULL);
    return RS_NEXT;
}

static void ref_run(const fi_gen *g, ref_state *rs)
{
    rs->nobjs = 0;
    rs->steps = 0;
    rs->exc = VM_EXC_NONE;
    rs->msg[0] = '\0';
    rs->tlen = 0;
    rs->trace[0] = '\0';
    rs->result = 0;
    for (int s = 0; s < FI_NSTRINGS; s++) {
        rs->str[s] = ref_new(g, rs, FT_BYTES, fi_strings[s].len);
        for (int k = 0; k < fi_strings[s].len; k++)
            rs->obj[rs->str[s]].v[k] = ref_byte((uint8_t)fi_strings[s].bytes[k]);
    }
    for (int s = 0; s < g->nstat; s++) {
        const fi_static *st = &g->stat[s];
        rs->stat[s] = 0;
        if (st->init == FS_VALUE) {
            rs->stat[s] = st->value;
        } else if (st->init == FS_STRING) {
            rs->stat[s] = ref_new(g, rs, FT_BYTES, fi_strings[st->str].len);
            for (int k = 0; k < fi_strings[st->str].len; k++)
                rs->obj[rs->stat[s]].v[k] = ref_byte((uint8_t)fi_strings[st->str].bytes[k]);
        } else if (st->init == FS_ARRAY) {
            rs->stat[s] = ref_new(g, rs, st->type, st->nelems);
            for (int k = 0; k < st->nelems; k++)
                rs->obj[rs->stat[s]].v[k] = ref_elem(st->type, st->elems[k]);
        }
    }
    int64_t R[FI_MAX_REGS];
    memset(R, 0, sizeof R);
    int st = ref_list(g, rs, 0, R, g->meth[0].body, &rs->result);
    if (st == RS_NEXT)
        fi_bug(g, "main ends without a return", NULL);
    rs->trace[rs->tlen] = '\0';
}

/* ---- comparing the VM with the evaluator ---------------------------------------- */
/* The VM object each evaluator object turned out to be, so that identity is checked too. */
static const vm_obj *fi_map[FI_MAX_OBJS];
static int64_t fi_mapped[2 * FI_MAX_STATICS]; /* the objects the statics reach */
static int fi_nmapped;

/* Every difference is listed (the first ones say most), then fi_check traps. */
static int fi_nmismatch;

/* which VM run is being checked: "interpreted", "compiled (-Xcomp)", "mixed (CompileThreshold=N)" */
static const char *fi_side = "interpreted";

static void fi_mismatch(const char *what, const char *expected, const char *actual)
{
    if (fi_nmismatch++ == 0)
        fprintf(stderr, "fuzz_interp: MISMATCH between the VM (%s) and the reference evaluator\n", fi_side);
    if (fi_nmismatch <= 32)
        fprintf(stderr, "  %s:\n    expected (reference): %s\n    actual (VM):          %s\n", what, expected, actual);
}

/* names: what to call element k in a message (kregs: the register), or NULL */
static void fi_check_obj(const fi_gen *g, const ref_state *rs, const char *where, int64_t id, const vm_obj *o,
                         const char *const *names)
{
    char e[128], a[128];
    if (!id || !o) {
        if (id || o) {
            snprintf(e, sizeof e, "%s", id ? "an object" : "null");
            snprintf(a, sizeof a, "%s", o ? "an object" : "null");
            fi_mismatch(where, e, a);
        }
        return;
    }
    if (fi_map[id]) {
        if (fi_map[id] != o)
            fi_mismatch(where, "the same object as before", "another object");
        return;
    }
    for (int k = 0; k < fi_nmapped; k++) {
        if (fi_map[fi_mapped[k]] == o) {
            fi_mismatch(where, "a different object", "an object seen before under another name");
            return;
        }
    }
    fi_map[id] = o;
    fi_mapped[fi_nmapped++] = id;
    const ref_obj *r = &rs->obj[id];
    static const uint8_t kinds[FT_COUNT] = {[FT_BYTES] = VM_T_BYTES, [FT_INTS] = VM_T_INTS, [FT_LONGS] = VM_T_LONGS,
                                            [FT_REC] = VM_T_RECORD};
    if (o->kind != kinds[r->type] || o->length != r->len) {
        snprintf(e, sizeof e, "%s of length %d", fi_type_name[r->type], r->len);
        snprintf(a, sizeof a, "kind %d of length %d", o->kind, o->length);
        fi_mismatch(where, e, a);
        return;
    }
    for (int k = 0; k < r->len; k++) {
        int64_t v;
        switch (r->type) {
        case FT_BYTES: v = VM_BYTES(o)[k]; break;
        case FT_INTS: v = VM_INTS(o)[k]; break;
        case FT_LONGS: v = VM_LONGS(o)[k]; break;
        default:
            if (k == FF_A) {
                char w[160];
                snprintf(w, sizeof w, "%s.%s", where, fi_fields[k].name);
                fi_check_obj(g, rs, w, r->v[k], VM_FIELDS(o)[k].ref, NULL);
                continue;
            }
            v = VM_FIELDS(o)[k].i;
            break;
        }
        if (v != r->v[k]) {
            char w[160];
            if (names)
                snprintf(w, sizeof w, "register %s of main (%s[%d])", names[k], where, k);
            else
                snprintf(w, sizeof w, "%s[%d]", where, k);
            snprintf(e, sizeof e, "%lld", (long long)r->v[k]);
            snprintf(a, sizeof a, "%lld", (long long)v);
            fi_mismatch(w, e, a);
        }
    }
}

static void fi_check_statics(const fi_gen *g, const ref_state *rs, const vm_program *p, const vm_t *vm)
{
    for (int k = 0; k < fi_nmapped; k++)
        fi_map[fi_mapped[k]] = NULL;
    fi_nmapped = 0;
    /* kregs, the last static, holds main's int registers in order */
    const fi_method *m = &g->meth[0];
    const char *names[FI_OBJ_CAP];
    for (int r = 0, k = 0; r < m->nregs && k < FI_OBJ_CAP; r++) {
        if (m->rrole[r] == FR_DATA || m->rrole[r] == FR_FIXED)
            names[k++] = m->rname[r];
    }
    for (int s = 0; s < g->nstat; s++) {
        const fi_static *st = &g->stat[s];
        char qname[32], e[64], a[64];
        snprintf(qname, sizeof qname, FI_MODULE ".%s", st->name);
        uint32_t k = 0;
        while (k < p->nstatics && strcmp(p->statics[k].qname, qname) != 0)
            k++;
        if (k == p->nstatics)
            fi_bug(g, "a static is missing from the loaded program", qname);
        char where[48];
        snprintf(where, sizeof where, "static %s", st->name);
        if (fi_is_int(st->type)) {
            if (vm->statics[k].i != rs->stat[s]) {
                snprintf(e, sizeof e, "%lld", (long long)rs->stat[s]);
                snprintf(a, sizeof a, "%lld", (long long)vm->statics[k].i);
                fi_mismatch(where, e, a);
            }
        } else {
            fi_check_obj(g, rs, where, rs->stat[s], vm->statics[k].ref, s == g->nstat - 1 ? names : NULL);
        }
    }
}

static void fi_check(const fi_gen *g, const ref_state *rs, const vm_program *p, const vm_t *vm, int status,
                     vm_value result)
{
    char e[512], a[512];
    if (rs->exc == VM_EXC_NONE)
        snprintf(e, sizeof e, "result %lld", (long long)rs->result);
    else
        snprintf(e, sizeof e, "%s: %s", vm_exc_class(rs->exc), rs->msg);
    if (status == VM_OK)
        snprintf(a, sizeof a, "result %lld", (long long)result.i);
    else if (status == VM_EXCEPTION)
        snprintf(a, sizeof a, "%s: %s", vm_exc_class(vm->exc), vm->exc_msg);
    else
        snprintf(a, sizeof a, "status %d", status);
    fi_nmismatch = 0;
    if (strcmp(e, a) != 0) {
        if (status == VM_EXCEPTION && vm->exc == VM_EXC_OOM)
            fprintf(stderr, "fuzz_interp: OutOfMemoryError under a heap limit of %zu bytes, above what the program "
                            "can keep alive: the VM's accounting or marking, or fi_live_bound, is wrong\n",
                    vm->heap.max);
        fi_mismatch("main's outcome", e, a);
    }
    if (status == VM_EXCEPTION && rs->exc != VM_EXC_NONE) {
        const char *t = vm->exc_trace ? vm->exc_trace : "";
        if (strcmp(t, rs->trace) != 0)
            fi_mismatch("the stack trace", rs->trace, t);
    }
    fi_check_statics(g, rs, p, vm);
    if (fi_nmismatch) {
        if (fi_nmismatch > 32)
            fprintf(stderr, "  (and %d more)\n", fi_nmismatch - 32);
        fi_print_program(g);
        __builtin_trap();
    }
}

/* ---- the heap limit --------------------------------------------------------------- */
static int fi_ref_regs(const fi_method *m)
{
    int n = 0;
    for (int r = 0; r < m->nregs; r++)
        n += m->rtype[r] >= FT_BYTES && m->rtype[r] <= FT_REC;
    return n;
}

/* The most reference registers live at once from a call of mi on: its deepest call path. */
static int64_t fi_ref_slots(const fi_gen *g, int mi)
{
    const fi_method *m = &g->meth[mi];
    int64_t deepest = 0;
    for (int j = mi + 1; j < g->nmeth; j++) {
        if (m->win[j] >= 0) {
            int64_t d = fi_ref_slots(g, j);
            deepest = d > deepest ? d : deepest;
        }
    }
    return (int64_t)fi_ref_regs(m) * (m->recursive ? FI_MAX_DEPTH + 1 : 1) + deepest;
}

/* Bytes a program can keep alive: registers, statics (kregs too) and string constants. */
static size_t fi_live_bound(const fi_gen *g)
{
    int64_t refs = fi_ref_slots(g, 0) + FI_NSTRINGS;
    for (int s = 0; s < g->nstat; s++)
        refs += !fi_is_int(g->stat[s].type);
    return (size_t)refs * FI_OBJ_BYTES;
}

/* ---- the target ----------------------------------------------------------------- */
/*
 * FUZZ_INTERP_PRINT=1: print every program and its outcome (to look at a
 * corpus input). FUZZ_INTERP_STATS=1: at exit, how the programs ended and
 * how often each opcode was in them (what the generator covers).
 */
static int fi_print_all = -1, fi_stats = -1;
static struct {
    uint64_t programs, ok, exc[VM_EXC_ILLEGAL_ARGUMENT + 1], steps, collected, ops[VM_NOPCODES];
} fi_count;

static void fi_print_stats(void)
{
    fprintf(stderr, "fuzz_interp: %llu programs, %llu returned, %llu steps on average, %llu with a collection\n",
            (unsigned long long)fi_count.programs, (unsigned long long)fi_count.ok,
            (unsigned long long)(fi_count.programs ? fi_count.steps / fi_count.programs : 0),
            (unsigned long long)fi_count.collected);
    for (int e = 1; e <= VM_EXC_ILLEGAL_ARGUMENT; e++) {
        if (fi_count.exc[e])
            fprintf(stderr, "  %-45s %llu\n", vm_exc_class((vm_exc)e), (unsigned long long)fi_count.exc[e]);
    }
    for (int op = 0; op < VM_NOPCODES; op++)
        fprintf(stderr, "  op %-9s %llu\n", vm_opinfo_table[op].name, (unsigned long long)fi_count.ops[op]);
}

static void fi_count_program(const vm_program *p, const vm_t *vm, int status)
{
    fi_count.programs++;
    fi_count.steps += (uint64_t)RS.steps;
    fi_count.collected += vm->heap.collections > 0;
    if (status == VM_OK)
        fi_count.ok++;
    else if ((unsigned)vm->exc <= VM_EXC_ILLEGAL_ARGUMENT) /* the last class today */
        fi_count.exc[vm->exc]++;
    for (uint32_t k = 0; k < p->nmethods; k++) {
        const vm_method *m = p->methods[k];
        if (strcmp(m->module->name, FI_MODULE) != 0)
            continue;
        for (uint32_t i = 0; i < m->ncode; i++)
            fi_count.ops[GET_OP(m->code[i])]++;
    }
}

/* Run main in a fresh VM (the compiler attached with this threshold, or none when it is < 0) and
   check its outcome against the evaluator's. */
static void fi_run(const fi_gen *g, const vm_program *p, const vm_method *main_m, size_t heap, const char *side,
                   int64_t threshold)
{
    char err[512];
    err[0] = '\0';
    vm_options opt = {.heap_max = heap, .stack_size = FI_STACK_SIZE};
    vm_t *vm = vm_new(p, &opt, err, sizeof err);
    if (!vm)
        fi_bug(g, "vm_new fails", err);
    if (threshold >= 0) {
        jit_options o = {.threshold = threshold, .osr = true};
        if (!jit_attach(vm, &o, err, sizeof err))
            fi_bug(g, "jit_attach fails", err);
    }
    fi_side = side;
    vm_value result = {0};
    int status = vm_call(vm, main_m, NULL, &result);
    if (fi_print_all) {
        /* the program (once), then each run's outcome as comments: the output is a .mva file */
        if (threshold < 0)
            fputs(g->text, stdout);
        if (status == VM_OK) {
            printf("; %s => result %lld (%lld steps, %llu collections)\n", side, (long long)result.i,
                   (long long)RS.steps, (unsigned long long)vm->heap.collections);
        } else {
            printf("; %s => %s: %s (%lld steps)\n", side, vm_exc_class(vm->exc), vm->exc_msg, (long long)RS.steps);
            for (const char *t = vm->exc_trace ? vm->exc_trace : ""; *t;) {
                const char *nl = strchr(t, '\n');
                int n = nl ? (int)(nl - t) : (int)strlen(t);
                printf(";%.*s\n", n, t);
                t += n + (nl != NULL);
            }
        }
        fflush(stdout); /* before a mismatch traps */
    }
    fi_check(g, &RS, p, vm, status, result);
    if (fi_stats && threshold < 0)
        fi_count_program(p, vm, status);
    vm_free(vm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fi_gen *g = &G;
    if (fi_print_all < 0) {
        /*
         * stdout's buffer is static: a buffer malloc'ed by the first printf
         * would unbalance this run's mallocs and frees, and libFuzzer would
         * run the input a second time to look for a leak (printing it twice).
         */
        static char outbuf[1 << 16];
        setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
        fi_print_all = getenv("FUZZ_INTERP_PRINT") != NULL;
        fi_stats = getenv("FUZZ_INTERP_STATS") != NULL;
        if (fi_stats)
            atexit(fi_print_stats);
    }
    g->nmeth = g->nnodes = g->nlines = g->nstat = 0;
    g->len = 0;
    g->line = g->nlabels = g->pending = 0;
    g->text[0] = '\0';
    fi_generate(g, data, size);
    fi_emit_program(g);

    char err[512];
    err[0] = '\0';
    vm_program *p = vm_load_text(FI_FILE, g->text, g->len, err, sizeof err);
    if (!p)
        fi_bug(g, "the loader rejects a generated program", err);
    size_t heap = fi_live_bound(g) + FI_HEAP_SLACK;
    const vm_method *main_m = vm_find_method(p, "main");
    if (!main_m)
        fi_bug(g, "no main", NULL);

    ref_run(g, &RS);
    /*
     * The interpreter alone, then (where this host has the compiler tier) every method compiled
     * at its first call (-Xcomp), then mixed: compiled after a few calls or loop iterations,
     * entered at a call, a return or a loop's back-edge (OSR) while interpreted frames are live.
     * Each run gets a fresh VM (its own statics and heap) and the same checks.
     */
    fi_run(g, p, main_m, heap, "interpreted", -1);
    if (jit_available()) {
        fi_run(g, p, main_m, heap, "compiled (-Xcomp)", 0);
        /* a threshold from the input, so that it varies with the program: 1..16 */
        int64_t threshold = 1 + (int64_t)(size ? data[size - 1] % 16 : 0);
        fi_run(g, p, main_m, heap, "mixed (a small CompileThreshold)", threshold);
    }
    vm_program_free(p);
    return 0;
}

#if defined(__clang__)
#pragma clang attribute pop
#endif
