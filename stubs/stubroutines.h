/*
 * stubs/stubroutines.h — the stub table (HotSpot's StubRoutines): the entry
 * points of the machine-code stubs generated at start-up, written once by
 * stubs_generate() before any program runs, then only read. vm/ reads it when
 * it links intrinsic candidates (vm/intrinsics.c); a NULL entry means "no stub
 * runs here" (flag off, a CPU without a generator, what-if mode, generation
 * failed), and the candidate runs its bytecode.
 *
 * Everything here is expanded from stubdeclarations.h: one entry per stub,
 * named as the stub, with its C signature (stub_<name>_fn).
 */
#ifndef MINIVM_STUBROUTINES_H
#define MINIVM_STUBROUTINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "codecache.h"
#include "cpu.h"
#include "stub_arch.h"
#include "stubdeclarations.h"

/* stub_sha3_implCompress_fn ...: the C signature of each stub */
#define STUB_FN_TYPEDEF(name, family, intrinsic, ret, params) typedef ret(*stub_##name##_fn) params;
STUB_DECLARATIONS(STUB_FN_TYPEDEF)
#undef STUB_FN_TYPEDEF

/* Any stub's function, stored as one type: call it through its own (STUB_FN). */
typedef void (*stub_fn)(void);

/* One entry: the function, and the stub's name and variant for messages. */
typedef struct stub_entry {
    stub_fn fn;          /* NULL: no stub runs here */
    const char *name;    /* "sha3_implCompress" */
    const char *variant; /* "gpr", "simd" */
} stub_entry;

typedef struct stub_routines {
    stub_entry entry[STUB_COUNT]; /* by stub_id */
    /* Per family, the variant generated and, when the flags asked for one
       the host cannot run (an emulated CPU's choice), which and why:
       stubs_note_fallback prints it. */
    stub_choice choice[STUB_FAMILY_COUNT];
} stub_routines;

/* Table t's entry for stub as a function of its own signature: STUB_FN(t, sha3_implCompress)(buf, state, 136). */
#define STUB_FN(t, stub) ((stub_##stub##_fn)(t)->entry[STUB_ID_##stub].fn)

/*
 * Each family's two stubs through table t, in one shape for every family (the VM's candidate
 * calls and the stub harness call them through this): buf is b + ofs, state the state array's
 * words, block_size the block's bytes, passed on to the stubs that take it (RATE: SHA-3's) and
 * unused by the others (FIXED); the multi-block call returns the final ofs. From the family
 * rows: stub_compress_SHA3, stub_compress_mb_SHA3, ...
 */
typedef void (*stub_compress_fn)(const stub_routines *t, const uint8_t *buf, void *state, int32_t block_size);
typedef int32_t (*stub_compress_mb_fn)(const stub_routines *t, const uint8_t *buf, void *state, int32_t block_size,
                                       int32_t ofs, int32_t limit);
#define STUB_BLOCK_ARG_RATE(bs) , (bs)
#define STUB_BLOCK_ARG_FIXED(bs)
#define STUB_FAMILY_CALLS(id, flag, display, unavailable, holder, words, word_bytes, blocks, one, multi, args, ...) \
    static inline void stub_compress_##id(const stub_routines *t, const uint8_t *buf, void *state, int32_t bs)   \
    {                                                                                                           \
        (void)bs;                                                                                               \
        STUB_FN(t, one)(buf, state STUB_BLOCK_ARG_##args(bs));                                                   \
    }                                                                                                           \
    static inline int32_t stub_compress_mb_##id(const stub_routines *t, const uint8_t *buf, void *state,         \
                                                int32_t bs, int32_t ofs, int32_t limit)                          \
    {                                                                                                           \
        (void)bs;                                                                                               \
        return STUB_FN(t, multi)(buf, state STUB_BLOCK_ARG_##args(bs), ofs, limit);                              \
    }
STUB_FAMILIES(STUB_FAMILY_CALLS)
#undef STUB_FAMILY_CALLS

/* Name, family and intrinsic of each stub, by stub_id. */
typedef struct stub_desc {
    const char *name;      /* "sha3_implCompress" */
    stub_family family;
    const char *intrinsic; /* "_sha3_implCompress" */
} stub_desc;
extern const stub_desc stub_descs[STUB_COUNT];

/* Each family's flag, name, HotSpot's not-available warning and what its stubs read, by stub_family. */
typedef struct stub_family_desc {
    const char *id;          /* "SHA256": its STUB_FAMILY_ name */
    int flag;                /* the flag_id (flags.h) that turns the family on */
    const char *display;     /* "SHA-3" */
    const char *unavailable; /* "Intrinsics for SHA3-224, ... not available on this CPU." */
    const char *holder;      /* the bytecode library's record of the family: "SHA3.SHA3" */
    int state_words;         /* the least length of its state array */
    int word_bytes;          /* 8: long[] state, 4: int[] */
    uint32_t block_sizes;    /* STUB_BLOCK mask */
    const char *digests;     /* the digests its records are: "SHA-224 SHA-256 SHA-256-JDK15" */
    stub_id compress;        /* its single-block stub */
    stub_id compress_mb;     /* its multi-block stub */
} stub_family_desc;
extern const stub_family_desc stub_family_descs[STUB_FAMILY_COUNT];

/* The family's flag, and setting it false as HotSpot's FLAG_SET_DEFAULT (origin unchanged). */
bool stub_family_flag(stub_family f);
void stub_family_flag_off(stub_family f);

/* The table (all NULL until stubs_generate() ran). */
const stub_routines *stub_routines_table(void);

/* ---- start-up (stubs/stubs_startup.c) and tests: stubs/stubroutines.c ---------------------- */

/* The VM's code cache: 64 KiB, many times what the stubs take. */
#define STUBS_CODE_CACHE_CAPACITY ((size_t)64 * 1024)

/*
 * After ergonomics, with the flags final: generate the stubs they ask for on
 * the target architecture (arch: the selected CPU's) into the VM's code
 * cache, print them for -XX:+PrintStubCode, and, when they run here (host:
 * the CPU this process runs on; NULL in what-if mode, where the selected CPU
 * is of another architecture), fill the table and install the crash handler
 * (crash_handler.h). Nothing with UseCompiler off (-Xint). Called once.
 */
void stubs_generate(const stub_arch_ops *arch, const cpu_info *host);

/* Generate stub id in variant v (of the stub's family) at cc's next position (cc still writable);
   its mark, or NULL with why in err ("sha3_implCompress (simd): the code cache is full"). */
const stub_mark *stubs_generate_one(const stub_arch_ops *arch, codecache *cc, stub_id id, const stub_variant *v,
                                    char *err, size_t errlen);

/* -XX:+PrintStubVariants: every variant of arch, its kind, whether host runs
   it (else the first feature it lacks; host NULL: unknown) and the VM options
   that select it, one line each ("  SHA-3  gpr  gpr  runs  -XX:+UseSHA3Intrinsics ...").
   The columns are blank-separated and only the last has blanks (tests and the
   benchmark runner read it). */
void stubs_print_variants(const stub_arch_ops *arch, const cpu_info *host, FILE *out);

/*
 * The generation step of stubs_generate with everything passed in (tests
 * use it with their own cache, table and a too-small capacity): the stubs
 * the flags ask for on arch, into cc (mapped here, capacity bytes), the
 * entries into *table when host is not NULL (the stubs are made executable
 * to run on host). A variant that uses a feature host lacks (the flags
 * followed an emulated CPU) is replaced by the best one host runs, and
 * table->choice[] says so (stubs_note_fallback prints it).
 * When the cache cannot be mapped or a generator fails: one VM warning, cc
 * released, *table untouched, the family's flag set false (FLAG_SET_DEFAULT,
 * as the ergonomics do for a stub that is not available), and false.
 */
bool stubs_generate_into(const stub_arch_ops *arch, codecache *cc, size_t capacity, stub_routines *table,
                         const cpu_info *host);

/*
 * Say, once, that the stubs that run are not the variant the flags name
 * (table->choice[].asked): a VM warning. stubs_generate calls it before a
 * -XX:+PrintStubCode listing; otherwise the launcher does when a program
 * starts, so -version and -XX:+PrintFlagsFinal alone (a study of an emulated
 * CPU's defaults) print nothing more than the flags, as in what-if mode.
 */
void stubs_note_fallback(void);

/* The VM's code cache (nothing in it before stubs_generate). */
const codecache *stubs_code_cache(void);

#endif
