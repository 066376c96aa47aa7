/*
 * vm/vm.h — minivm's core data: types, values, heap objects, the loaded
 * program (modules, methods, records, statics, constant pools) and the VM
 * instance that runs it.
 *
 * A program is loaded and verified once (vm/loader.c, vm/verify.c), then
 * linked into a VM instance (vm/vm.c), which owns the heap (vm/heap.c),
 * the register stack and the frames (vm/interp.c). There is no global
 * mutable state: everything hangs off a vm_program or a vm_t.
 */
#ifndef MINIVM_VM_H
#define MINIVM_VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "opcodes.h"

/* a slow path kept out of line, away from the hot code (exceptions, messages) */
#if defined(__GNUC__)
#define VM_COLD __attribute__((noinline, cold))
#else
#define VM_COLD
#endif

/* ---- limits --------------------------------------------------------------- */
#define VM_MAX_REGS     256        /* registers per method (8-bit register fields) */
#define VM_MAX_REGS4    64         /* registers reachable from iABCD forms */
#define VM_MAX_POOL     65536      /* entries in each program-wide pool (16-bit Bx) */
#define VM_MAX_ARRAY    0x7ffffffd /* Java's largest array (Integer.MAX_VALUE - 2) */
#define VM_MAX_ROOTS    16         /* C-held references (vm_push_root) */
#define VM_MAX_RECORD_DEPTH 8      /* records in an extends chain, the record itself included */
#define VM_NO_RECORD    0xffffu    /* vm_record.super of a record that extends nothing */
#define VM_MAX_SOURCE_BYTES ((size_t)16 << 20) /* a program or module file (docs/cli.md, Limits) */

/* ---- types ---------------------------------------------------------------- */
typedef enum vm_tkind {
    VM_T_VOID,   /* only as a return type */
    VM_T_INT,    /* 64-bit register holding a Java int (documentation only) */
    VM_T_LONG,   /* 64-bit integer */
    VM_T_BYTES,  /* byte[] */
    VM_T_INTS,   /* int[] */
    VM_T_LONGS,  /* long[] */
    VM_T_RECORD, /* a record; vm_type.rec says which */
    VM_T_OBJECT  /* any reference: native parameters only (System.arraycopy's Object) */
} vm_tkind;

typedef struct vm_type {
    uint16_t kind; /* vm_tkind */
    uint16_t rec;  /* record index when kind == VM_T_RECORD */
} vm_type;

static inline int vm_type_is_int(vm_type t) { return t.kind == VM_T_INT || t.kind == VM_T_LONG; }
static inline int vm_type_is_ref(vm_type t) { return t.kind >= VM_T_BYTES; }
static inline int vm_type_is_array(vm_type t) { return t.kind >= VM_T_BYTES && t.kind <= VM_T_LONGS; }

/* ---- values and heap objects --------------------------------------------- */
typedef struct vm_obj vm_obj;

/* A register, a record field or a static: an integer or a reference. */
typedef union vm_value {
    int64_t i;
    vm_obj *ref;
} vm_value;

struct vm_obj {
    vm_obj *next;    /* every object is on one of the heap's lists (for sweeping); a free one on a free list */
    uint8_t kind;    /* VM_T_BYTES, VM_T_INTS, VM_T_LONGS or VM_T_RECORD */
    uint8_t marked;
    uint16_t rec;    /* record index for records */
    int32_t length;  /* array length, or number of fields */
    _Alignas(8) unsigned char data[]; /* elements, or vm_value fields */
};

#define VM_BYTES(o)  ((int8_t *)(o)->data)
#define VM_INTS(o)   ((int32_t *)(void *)(o)->data)
#define VM_LONGS(o)  ((int64_t *)(void *)(o)->data)
#define VM_FIELDS(o) ((vm_value *)(void *)(o)->data)

/* ---- the program ---------------------------------------------------------- */
typedef struct vm_t vm_t;
typedef struct vm_module vm_module;
typedef struct vm_method vm_method;

/* Where an inlined instruction word came from (vm/inline.c): its method, NULL for the caller's own
   words, and its source line there */
typedef struct vm_inlined {
    const vm_method *callee;
    uint32_t line;
} vm_inlined;

/* An inlined body in its caller's code: words [start, end), registers [base, base + nregs). Outside
   those words its registers are dead: the collector clears their references, never marks them. */
typedef struct vm_inline_site {
    uint32_t start, end;
    uint16_t base, nregs;
} vm_inline_site;

/* A native returns VM_OK, or VM_EXCEPTION / VM_EXIT after vm_throw/exit. */
typedef int (*vm_native_fn)(vm_t *vm, vm_value *args, vm_value *result);

enum { VM_OK = 0, VM_EXCEPTION = 1, VM_EXIT = 2 };

#define VM_METHOD_NATIVE    1u /* body is a C function */
#define VM_METHOD_INTRINSIC 2u /* @IntrinsicCandidate: a stub may replace the body */
#define VM_METHOD_VIRTUAL   4u /* declared "virtual": callvirt picks the receiver's override */
#define VM_METHOD_ABSTRACT  8u /* declared "abstract": no body, an extending record overrides it */

struct vm_method {
    const char *name;       /* simple name, e.g. "implCompress0" */
    const char *qname;      /* "Module.name" */
    vm_module *module;
    uint32_t flags;         /* VM_METHOD_* */
    uint32_t line;          /* line of the declaration */
    uint16_t nparams;       /* parameters are registers 0..nparams-1 */
    uint16_t nregs;         /* registers, parameters included */
    vm_type ret;
    vm_type *regtypes;      /* nregs entries */
    const char **regnames;  /* nregs entries, for messages and disassembly */
    uint32_t *code;         /* ncode instruction words */
    uint32_t ncode;
    uint32_t *lines;        /* source line of each instruction */
    vm_native_fn native;    /* when VM_METHOD_NATIVE */
    int32_t vslot;          /* its slot in the vtables of its receiver's record and the records
                               extending it, or -1: not virtual (vm/loader.c, "virtual methods") */
    const vm_method **elided; /* NULL, or per instruction word: the forwarder a call there skips
                               (vm/loader.c, "forwarders"), whose frame stack traces still show */
    const vm_inlined *inlined; /* NULL, or per instruction word: the inlined method it is from
                               (vm/inline.c), whose frame stack traces show above this one */
    const vm_inline_site *sites; /* the inlined bodies, in code order (nsites of them) */
    uint32_t nsites;
    uint32_t index;         /* its place in vm_program.methods (the compiler's per-VM tables) */
};

/* A forwarder's own call: its next to last instruction word, before its ret (vm/loader.c) */
static inline uint32_t vm_forwarder_call(const vm_method *fw) { return fw->ncode - 2; }

typedef struct vm_field {
    const char *name;
    vm_type type;
} vm_field;

/*
 * A record type. A record may extend one other (Java's single inheritance):
 * its fields start with all of its super record's, at the same indices, and
 * a value of it may stand wherever the super record is expected. supers[d]
 * is the ancestor at depth d (supers[depth] the record itself), so "is R a
 * Q?" is one compare: Q.depth <= R.depth && R.supers[Q.depth] == Q.
 */
typedef struct vm_record {
    const char *name;       /* simple name */
    const char *qname;      /* "Module.Name" */
    vm_module *module;
    uint32_t line;
    uint16_t nfields;       /* the super record's first */
    vm_field *fields;
    uint16_t super;         /* the record it extends, or VM_NO_RECORD */
    uint16_t depth;         /* 0 for a record that extends nothing */
    uint16_t supers[VM_MAX_RECORD_DEPTH];
    uint16_t nvirtual;      /* vtable entries */
    const vm_method **vtable; /* slot -> the body a receiver of this record runs (may be abstract) */
} vm_record;

/* Is a value of record sub a record sup (sub itself, or extending it)? */
static inline int vm_record_is_a(const vm_record *records, uint16_t sub, uint16_t sup)
{
    const vm_record *r = &records[sub];
    uint16_t d = records[sup].depth;
    return d <= r->depth && r->supers[d] == sup;
}

typedef struct vm_static {
    const char *name;
    const char *qname;
    vm_module *module;
    uint32_t line;
    vm_type type;
    /* initial value: an integer, or an array literal / string for references */
    int64_t init_int;
    int64_t *init_elems;    /* array literal elements (byte[]/int[]/long[]) */
    uint32_t init_count;
    int has_array_init;
} vm_static;

typedef struct vm_string {
    const uint8_t *bytes;
    uint32_t len;
} vm_string;

struct vm_module {
    const char *name;
    const char *path;       /* as given, for messages */
    const char *file;       /* base name, for stack traces */
    bool builtin;           /* Sys or vm/lib/, embedded in the binary: the only modules with intrinsics
                               (HotSpot's boot loader classes); a program's module of the same name is not */
};

typedef struct vm_arena vm_arena;

typedef struct vm_program {
    vm_arena *arena;        /* owns everything below */
    vm_module **modules;
    uint32_t nmodules;
    vm_method **methods;    /* CALL Bx indexes this */
    uint32_t nmethods;
    vm_record *records;     /* NEW Bx and vm_type.rec index this */
    uint32_t nrecords;
    vm_static *statics;     /* GETSTATIC/PUTSTATIC Bx index this */
    uint32_t nstatics;
    int64_t *k;             /* LDK Bx */
    uint32_t nk;
    vm_string *strings;     /* LDSTR Bx */
    uint32_t nstrings;
    vm_method *main;        /* the first module's main, if any */
} vm_program;

/* ---- loading and verifying (vm/loader.c, vm/verify.c) -------------------- */

/*
 * Load a program from a file (and the modules it imports), assemble,
 * verify and resolve it. On error returns NULL and writes one
 * "file:line: message" line (no newline) into err. With VM_ERROR_MAX bytes
 * every message fits whole (paths up to PATH_MAX); in a smaller buffer the
 * path is shortened in the middle, the location is never lost.
 */
#define VM_ERROR_MAX 16384
vm_program *vm_load_file(const char *path, char *err, size_t errlen);

/* The same from text in memory; imports resolve to built-in modules only. */
vm_program *vm_load_text(const char *name, const char *text, size_t len, char *err, size_t errlen);

/* The same with VM_LOAD_* options (0: as vm_load_file and vm_load_text). */
#define VM_LOAD_NO_INLINE 1u      /* keep every call a call (-XX:-Inline; vm/inline.c) */
#define VM_LOAD_PRINT_INLINING 2u /* print each call's inlining verdict to stdout (-XX:+PrintInlining) */
vm_program *vm_load_file_ex(const char *path, unsigned options, char *err, size_t errlen);
vm_program *vm_load_text_ex(const char *name, const char *text, size_t len, unsigned options, char *err,
                            size_t errlen);

void vm_program_free(vm_program *p);

/* Find "Module.name" (or "name" in the first module). */
vm_method *vm_find_method(const vm_program *p, const char *qname);

/* Verify one method; returns 0, or -1 with "file:line: message" in err. */
int vm_verify_method(const vm_program *p, const vm_method *m, char *err, size_t errlen);

/* Format a type as in the source ("long", "byte[]", "SHA3"). */
const char *vm_type_name(const vm_program *p, vm_type t, char *buf, size_t len);

/* The embedded module sources: Sys (natives) and vm/lib/ (bytecode library). */
const char *vm_builtin_source(const char *module, size_t *len);
vm_native_fn vm_native_lookup(const char *module, bool builtin, const char *name);

/* ---- the VM instance ------------------------------------------------------ */
struct stub_routines; /* stubs/stubroutines.h */

/*
 * What a VM needs from the launcher. All zero is a working VM: default heap
 * and stack, no stubs (every candidate runs its bytecode), nothing printed.
 * The launcher (vm/main.c) fills the intrinsic fields from the -XX flags;
 * vm/ itself never reads a flag, so tests set them directly.
 */
typedef struct vm_options {
    size_t heap_max;        /* bytes (-Xmx) */
    size_t stack_size;      /* bytes of register stack (-Xss) */
    int argc;               /* program arguments */
    char **argv;
    /* intrinsic linking (vm/intrinsics.h) */
    const struct stub_routines *stubs; /* the stub table (stub_routines_table()); NULL: no stubs */
    const char *disable_intrinsic;     /* -XX:DisableIntrinsic: ids split by ',', ' ', '\n'; NULL: none */
    int print_intrinsics;              /* -XX:+PrintIntrinsics: one line per candidate when it is linked */
    FILE *intrinsics_out;              /* where those lines go; NULL: stdout (HotSpot's tty) */
} vm_options;

#define VM_DEFAULT_HEAP_MAX   ((size_t)1 << 30)
#define VM_DEFAULT_STACK_SIZE ((size_t)1 << 20)

typedef enum vm_exc {
    VM_EXC_NONE,
    VM_EXC_AIOOBE,           /* java.lang.ArrayIndexOutOfBoundsException */
    VM_EXC_NEGATIVE_SIZE,    /* java.lang.NegativeArraySizeException */
    VM_EXC_NPE,              /* java.lang.NullPointerException */
    VM_EXC_ARITHMETIC,       /* java.lang.ArithmeticException */
    VM_EXC_ARRAY_STORE,      /* java.lang.ArrayStoreException */
    VM_EXC_STACK_OVERFLOW,   /* java.lang.StackOverflowError */
    VM_EXC_OOM,              /* java.lang.OutOfMemoryError */
    VM_EXC_IOOBE,            /* java.lang.IndexOutOfBoundsException */
    VM_EXC_NAMED,            /* any other class, named in vm_t.exc_name (Sys.throwNew) */
    VM_EXC_ILLEGAL_ARGUMENT, /* java.lang.IllegalArgumentException */
    VM_EXC_CLASS_CAST,       /* java.lang.ClassCastException */
    VM_EXC_ABSTRACT_METHOD   /* java.lang.AbstractMethodError */
} vm_exc;

typedef struct vm_frame {
    const vm_method *m;
    const uint32_t *pc;     /* saved pc (next instruction) while not on top */
    const void *ret_pc;     /* where a compiled callee's return goes on in this frame's compiled code
                               (its call's continuation), or NULL: back to the interpreter at pc.
                               Set at each call: by compiled code, NULL by the interpreter */
    uint32_t base;          /* index of R[0] in the register stack */
    uint8_t ret_reg;        /* caller register receiving the result */
} vm_frame;

/*
 * A linked intrinsic candidate (vm/intrinsics.c): its calls run the stub
 * of intrinsic id with these fields of `this`. Per VM, because the stub
 * table and DisableIntrinsic are per-VM options.
 */
typedef struct vm_intrinsic_link {
    const vm_method *m;     /* the candidate */
    uint16_t id;            /* vm_intrinsic_id */
    uint16_t rec;           /* the record `this` must be (or extend) */
    uint16_t f_state;       /* its state field: long[] (SHA-3, SHA-512) or int[] (SHA-1, SHA-256) */
    uint16_t f_block_size;  /* its int blockSize field */
    uint16_t family;        /* stub_family (stubs/stubdeclarations.h): whose stub runs */
    /* the multi-block id: the family record's implCompress and its vtable slot. A receiver whose
       record overrides it (a program's record extending SHA2, say) runs the bytecode, whose loop
       calls that override: the stub would not. NULL: the record has no such virtual method. */
    const vm_method *compress;
    uint16_t compress_slot;
} vm_intrinsic_link;

/*
 * The compiler tier as the interpreter sees it (compiler/jit.h attaches it to a VM; NULL
 * hooks: the interpreter alone). Per method (vm_method.index): its compiled code's address
 * at each instruction word where the interpreter may enter it, and while it is interpreted,
 * its invocations plus loop back-edges (HotSpot's invocation and backedge counters in one).
 */
typedef struct vm_jit_method {
    const void *const *entry; /* per instruction word: where compiled code is entered, or NULL;
                                 NULL here: not compiled */
    int64_t count;            /* compiled once it passes vm_t.compile_threshold; INT64_MIN: never */
    const void *jit_entry;    /* where compiled callers enter it: before word 0, its registers but
                                 the arguments not yet cleared (it clears those that need it) */
} vm_jit_method;

typedef struct vm_jit_hooks {
    /* Compile m: its entry table, or NULL when it is not compiled (excluded, or the code cache
       is full); called once. */
    const void *const *(*compile)(vm_t *vm, const vm_method *m);
    void (*release)(vm_t *vm); /* vm_free's: the code cache and the tables */
} vm_jit_hooks;

/* The trampoline (vm_t.jit_enter): run compiled code at target on the top frame fr, whose
   registers are R. Compiled code calls and returns itself, pushing and popping frames, but never
   returns from bottom (the interpreter's entry frame: execute()'s). Returns the instruction word
   the interpreter goes on at in the top frame then (vm->frames[vm->nframes - 1]), or NULL when
   an exception is pending (that frame's pc is the word after the one that threw, as the
   interpreter's savepc leaves it; a native that threw in vm_t.jit_native, its status in
   jit_status). */
typedef const uint32_t *(*vm_jit_enter_fn)(void *ctx, vm_value *R, vm_frame *fr, const void *target,
                                           vm_frame *bottom);

/* one per single-block id, and one per family for _digestBase_implCompressMB */
#define VM_MAX_INTRINSIC_LINKS 16

/*
 * Small objects (header included, rounded up to 16 bytes, at most VM_POOL_MAX) come from
 * chunks of VM_POOL_CHUNK bytes, one free list per size (vm/heap.c); larger ones are a
 * malloc block each.
 */
#define VM_POOL_GRAIN   16u
#define VM_POOL_MAX     512u
#define VM_POOL_CLASSES (VM_POOL_MAX / VM_POOL_GRAIN)
#define VM_POOL_CHUNK   ((size_t)64 << 10)

typedef struct vm_heap {
    vm_obj *objects;        /* all small objects, newest first */
    vm_obj *large;          /* the malloc'ed objects (above VM_POOL_MAX, or past the chunks' limit) */
    vm_obj *free[VM_POOL_CLASSES]; /* free small objects by size class, linked through next */
    void *chunks;           /* the chunks, each linked through its first word */
    size_t chunk_bytes;     /* their size together: at most max (-Xmx) */
    unsigned char *bump, *bump_end; /* the rest of the newest chunk */
    size_t used;            /* bytes in objects (headers included) */
    size_t max;             /* the limit (-Xmx) */
    size_t next_gc;         /* collect when used would exceed this */
    vm_obj **mark_stack;
    size_t mark_top, mark_cap;
    int mark_overflow;      /* a record was marked but could not be queued (vm/heap.c) */
    size_t mark_stack_max;  /* entries the mark stack may grow to; 0: as memory allows (tests set it
                               small to take the overflow path that low memory takes) */
    uint64_t collections;
} vm_heap;

/* Slots past -Xss's that the register stack reserves (never committed unless written): a call
   copies four argument slots and clears the callee's registers four at a time, so it may write
   up to 4 slots past the window, and its stack check computes the end of a window of up to
   VM_MAX_REGS registers and a frame from the last window's end (vm/interp.c, do_call): both stay
   inside the array. */
#define VM_STACK_SLACK (VM_MAX_REGS + VM_FRAME_SLOTS + 4u)

/* Each frame takes this many 8-byte slots of the -Xss budget, beside its registers: a budget,
   kept when vm_frame grew (its ret_pc, the compiler tier's), so that the depth a program reaches
   under an -Xss stays what it was (the frames are an array of their own, frame_cap long). */
#define VM_FRAME_SLOTS 3u

struct vm_t {
    const vm_program *prog;
    vm_options opt;
    vm_heap heap;
    vm_value *statics;      /* prog->nstatics values */
    vm_obj **strings;       /* prog->nstrings byte[] constants */
    vm_value *stack;        /* the register stack */
    uint32_t stack_cap;     /* -Xss in 8-byte slots: registers and frames together (vm_stack_room) */
    vm_frame *frames;
    uint32_t nframes, frame_cap;
    /* the pending exception (or exit) */
    vm_exc exc;
    char exc_msg[256];
    char exc_name[128];     /* the class of a VM_EXC_NAMED exception */
    char *exc_trace;        /* "\tat Module.method(file:line)\n" lines */
    int exit_status;
    int write_errno;        /* the first failed write of a Sys native (it ended the program), or 0 */
    /* references held by C code across allocations (tests, embedders) */
    vm_obj **roots[VM_MAX_ROOTS];
    uint32_t nroots;
    /* the candidates whose calls run stubs (vm/intrinsics.c) */
    vm_intrinsic_link intrinsics[VM_MAX_INTRINSIC_LINKS];
    /* the candidate calls' links by method and receiver record (NULL: none), a small
       fully associative inline cache in front of the search (vm/intrinsics.c, find_link): a
       digest's single- and multi-block candidates take two entries */
    struct {
        const vm_method *m;
        const vm_intrinsic_link *link;
        uint16_t rec;
    } link_cache[4];
    uint32_t link_cache_next; /* the entry a miss replaces (round robin) */
    uint32_t nintrinsics;
    /* the compiler tier (compiler/jit.h, jit_attach); jit_hooks NULL: the interpreter alone */
    const vm_jit_hooks *jit_hooks;
    void *jit;              /* its state (the code cache, the options) */
    void *jit_ctx;          /* jit_enter's first argument (compiler.h, jit_ctx) */
    vm_jit_enter_fn jit_enter;
    vm_jit_method *jitm;    /* prog->nmethods entries */
    int64_t compile_threshold; /* CompileThreshold; 0 under -Xcomp: compiled at the first call */
    bool jit_osr;           /* UseOnStackReplacement: a back-edge may enter compiled code */
    uint64_t jit_osr_entries; /* how many times a back-edge entered compiled code (jit_stats) */
    const vm_method *jit_native; /* a native compiled code called that did not return VM_OK ... */
    int jit_status;         /* ... and its status (VM_EXCEPTION or VM_EXIT); 0: none */
    const uint32_t *jit_leave; /* where a compiled virtual call leaves to the interpreter
                                  (compiler.h, jit_rt_call_virtual) */
};

/*
 * Is there room for one more frame whose registers end at slot top? -Xss
 * bounds what the registers and the frames commit together (HotSpot's
 * thread stack holds both), so no stack size commits more than itself.
 */
static inline bool vm_stack_room(const vm_t *vm, uint32_t top)
{
    return (uint64_t)top + (uint64_t)(vm->nframes + 1) * VM_FRAME_SLOTS <= vm->stack_cap;
}

/* vm/interp.c: count one invocation of m (the compiler tier attached), compiling it once the
   count passes CompileThreshold, as the interpreter's calls do; true when m has compiled code.
   Compiled code's calls of a callee without code yet count through it (compiler/runtime.c). */
bool vm_jit_count(vm_t *vm, const vm_method *m);

/* vm/inline.c: the registers of m (verified) some path may read before it writes them, as bits
   (register r: need[r / 64] bit r % 64); a call starts them at zero. False when out of memory. */
bool vm_read_before_written(const vm_program *p, const vm_method *m, uint64_t need[VM_MAX_REGS / 64]);

/* vm/inline.c: the registers of m (verified) live on entry to each word: live[k][r / 64] bit
   r % 64 when some path from word k reads register r before it writes it (a backward dataflow
   over the jumps and fall-throughs; an exception leaves the method, and RET reads its operand).
   live: m->ncode entries. False when out of memory. */
bool vm_live_in(const vm_program *p, const vm_method *m, uint64_t (*live)[VM_MAX_REGS / 64]);

/* vm/inline.c: the registers word w of p reads, at most max of them into reads[] (a call reads
   its window); returns how many it reads (more than max: only the first max were stored), and
   the one it writes in *written (or -1). */
uint32_t vm_word_reads(const vm_program *p, uint32_t w, uint8_t *reads, uint32_t max, int *written);

/* vm/vm.c */
vm_t *vm_new(const vm_program *p, const vm_options *opt, char *err, size_t errlen);
void vm_free(vm_t *vm);
const char *vm_exc_class(vm_exc e);
/* Record an exception; returns VM_EXCEPTION. msg may be NULL (no message). */
int vm_throw(vm_t *vm, vm_exc e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/*
 * Keep *slot alive (and the collector's view of it current) while C code
 * holds a reference across allocations; pop in reverse order. At most
 * VM_MAX_ROOTS at once.
 */
void vm_push_root(vm_t *vm, vm_obj **slot);
void vm_pop_roots(vm_t *vm, uint32_t n);
/* Print "Exception in thread "main" ..." and the trace to f. */
void vm_print_exception(const vm_t *vm, FILE *f);

/* vm/interp.c: call m with args (m->nparams values); VM_OK, VM_EXCEPTION or VM_EXIT. */
int vm_call(vm_t *vm, const vm_method *m, const vm_value *args, vm_value *result);

/* vm/heap.c */
vm_obj *vm_new_array(vm_t *vm, vm_tkind kind, int64_t length); /* NULL: exception pending */
vm_obj *vm_new_record(vm_t *vm, uint16_t rec);
void vm_gc(vm_t *vm);
void vm_heap_free_all(vm_t *vm);

#endif /* MINIVM_VM_H */
