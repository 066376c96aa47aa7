/*
 * stubs/stubroutines.h — the stub table (HotSpot's StubRoutines): the entry
 * points of the machine-code stubs generated at start-up, written once by
 * stubs_generate() before any program runs, then only read. vm/ reads it when
 * it links intrinsic candidates (vm/intrinsics.c); a NULL entry means "no stub
 * runs here" (flag off, a CPU without a generator, what-if mode, generation
 * failed), and the candidate runs its bytecode.
 *
 * The C signatures are the AArch64 stubs' calling convention (REFERENCE §4):
 * buf is already b + ofs, state is the long[25] of lanes (A[x + 5y]),
 * block_size one of 72/104/136/144/168. The multi-block stub absorbs and
 * permutes `do { ...; ofs += block_size; } while (ofs <= limit)` and returns
 * the final ofs, exactly as DigestBase.implCompressMultiBlock0 does.
 */
#ifndef MINIVM_STUBROUTINES_H
#define MINIVM_STUBROUTINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codecache.h"
#include "cpu.h"

typedef void (*stub_sha3_compress_fn)(const uint8_t *buf, int64_t *state, int32_t block_size);
typedef int32_t (*stub_sha3_compress_mb_fn)(const uint8_t *buf, int64_t *state, int32_t block_size,
                                            int32_t ofs, int32_t limit);

/* One entry: the function, and the stub's name and variant for messages. */
typedef struct stub_sha3_entry {
    stub_sha3_compress_fn fn;
    const char *name;     /* "sha3_implCompress" */
    const char *variant;  /* "gpr", "simd" */
} stub_sha3_entry;

typedef struct stub_sha3_mb_entry {
    stub_sha3_compress_mb_fn fn;
    const char *name;     /* "sha3_implCompressMB" */
    const char *variant;
} stub_sha3_mb_entry;

typedef struct stub_routines {
    stub_sha3_entry sha3_implCompress;
    stub_sha3_mb_entry sha3_implCompressMB;
    /* The host feature the variant the flags asked for needed and the host
       lacks (an emulated CPU's choice: "sha3"), so another variant was
       generated; NULL when the flags' variant is the one that runs. */
    const char *sha3_missing_feature;
} stub_routines;

/* The table (all NULL until stubs_generate() ran). */
const stub_routines *stub_routines_table(void);

/* ---- start-up (stubs/ergonomics_hook.c) and tests: stubs/stubroutines.c ---------------------- */

/* The VM's code cache: 64 KiB, many times what the stubs take. */
#define STUBS_CODE_CACHE_CAPACITY ((size_t)64 * 1024)

/*
 * After ergonomics, with the flags final: generate the stubs they ask for
 * into the VM's code cache (target: the selected CPU is AArch64), print them
 * for -XX:+PrintStubCode, and, when they run here (host: the CPU this process
 * runs on; NULL in what-if mode, where the selected CPU is of another
 * architecture), fill the table and install the crash handler
 * (crash_handler.h). Nothing with UseCompiler off (-Xint). Called once.
 */
void stubs_generate(bool aarch64_target, const cpu_info *host);

/*
 * The generation step of stubs_generate with everything passed in (tests
 * use it with their own cache, table and a too-small capacity): the SHA-3
 * stubs UseSHA3Intrinsics and UseSIMDForSHA3Intrinsic ask for, into cc
 * (mapped here, capacity bytes), the entries into *table when host is not
 * NULL (the stubs are made executable to run on host). A variant that uses
 * a feature host lacks (the flags followed an emulated CPU) is replaced by
 * the best one host runs, and table->sha3_missing_feature names the feature
 * (stubs_note_fallback prints it).
 * When the cache cannot be mapped or a generator fails: one VM warning, cc
 * released, *table untouched, UseSHA3Intrinsics set false (FLAG_SET_DEFAULT,
 * as the ergonomics do for a stub that is not available), and false.
 */
bool stubs_generate_into(codecache *cc, size_t capacity, stub_routines *table, const cpu_info *host);

/*
 * Say, once, that the stubs that run are not the variant the flags name
 * (table->sha3_missing_feature): a VM warning. stubs_generate calls it before
 * a -XX:+PrintStubCode listing; otherwise the launcher does when a program
 * starts, so -version and -XX:+PrintFlagsFinal alone (a study of an emulated
 * CPU's defaults) print nothing more than the flags, as in what-if mode.
 */
void stubs_note_fallback(void);

/* The VM's code cache (nothing in it before stubs_generate). */
const codecache *stubs_code_cache(void);

#endif
