/*
 * cpu/codecache.h — the code cache (HotSpot's CodeCache and CodeBuffer,
 * reduced to what start-up stub generation needs) and the stub marks
 * (HotSpot's StubCodeMark/StubCodeDesc): where every stub lives.
 *
 * Life cycle, W^X throughout (never writable and executable at once, and one
 * mapping only: no second, writable view of executable code):
 *
 *   codecache_init      mmap an anonymous region PROT_READ|PROT_WRITE
 *   codecache_begin_stub / codecache_end_stub, once per stub
 *                       a generator writes words at the aligned position,
 *                       then the stub is recorded (name, variant, bounds)
 *   codecache_seal      mprotect to PROT_READ|PROT_EXEC and flush the
 *                       instruction cache over the written bytes; or, for
 *                       code that must never run here (an AArch64 CPU
 *                       emulated on an x86-64 host), PROT_READ only
 *
 * After codecache_seal nothing is added: the stubs are generated once, at
 * start-up, before any program runs. codecache_find and the crash handler
 * (crash_handler.h) only read the marks, so they are async-signal-safe.
 *
 * The VM's one code cache belongs to the stub table (stubroutines.c); tests
 * make their own.
 */
#ifndef MINIVM_CODECACHE_H
#define MINIVM_CODECACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Stubs start on this boundary (HotSpot's CodeEntryAlignment on AArch64). */
#define CODECACHE_STUB_ALIGNMENT 64
/* Marks a cache holds: one stub table's (STUB_COUNT of stubdeclarations.h, which stubroutines.c
   checks against it) and room for more. */
#define CODECACHE_MAX_STUBS 16

/* One generated stub (HotSpot's StubCodeDesc). */
typedef struct stub_mark {
    const char *name;     /* "sha3_implCompress": a string that outlives the cache */
    const char *variant;  /* "simd", "gpr" */
    const uint8_t *start; /* first byte, CODECACHE_STUB_ALIGNMENT-aligned */
    const uint8_t *entry; /* where callers enter: start, or after data the stub keeps before its code */
    const uint8_t *end;   /* one past the last byte */
} stub_mark;

typedef enum codecache_state {
    CODECACHE_UNMAPPED,   /* before codecache_init, or after codecache_release */
    CODECACHE_WRITABLE,   /* PROT_READ|PROT_WRITE: generators write */
    CODECACHE_EXECUTABLE, /* PROT_READ|PROT_EXEC: the stubs may run */
    CODECACHE_READ_ONLY,  /* PROT_READ: generated to be printed, never entered */
} codecache_state;

typedef struct codecache {
    uint8_t *base;        /* the mapping (page aligned) */
    size_t mapped;        /* its size: capacity rounded up to pages */
    size_t capacity;      /* bytes generators may fill; may be less than mapped */
    size_t used;          /* end of the last stub, from base */
    codecache_state state;
    int nstubs;
    stub_mark stubs[CODECACHE_MAX_STUBS];
    /* a segmented cache (codecache_init_segments) only: the code added after start-up, one
       segment at a time (compiled methods). marks[0, nmarks) are complete: a mark is written
       before nmarks counts it, so the crash handler may read them at any time. */
    stub_mark *marks;
    int max_marks;
    volatile int nmarks;
    size_t page;          /* segments are whole pages: each is writable, then executable */
    size_t segment_start; /* the open segment's offset (codecache_begin_segment), or SIZE_MAX */
} codecache;

/* Map capacity bytes read-write. False (cc unmapped, why in err) when
   capacity is 0 or the mapping fails. */
bool codecache_init(codecache *cc, size_t capacity, char *err, size_t errlen);

/* Where the next stub starts (aligned) and the bytes left from there in
   *room; NULL (room 0) when the cache is not writable or full. */
void *codecache_begin_stub(codecache *cc, size_t *room);

/* Record the stub written at codecache_begin_stub()'s address: size bytes,
   callers enter at entry_offset. NULL when it does not fit in the room or
   the marks are all used; then nothing is recorded. */
const stub_mark *codecache_end_stub(codecache *cc, const char *name, const char *variant, size_t entry_offset,
                                    size_t size);

/* Finish generation: PROT_READ|PROT_EXEC and the instruction cache flushed
   (executable), or PROT_READ (never to run on this host). False (why in err)
   when mprotect fails; the cache is then unusable and should be released. */
bool codecache_seal(codecache *cc, bool executable, char *err, size_t errlen);

/*
 * A segmented cache: code added after start-up (compiled methods), W^X per segment. The
 * capacity is reserved inaccessible (PROT_NONE); each segment is whole pages of it:
 *
 *   codecache_begin_segment  the next pages, made PROT_READ|PROT_WRITE, size bytes at least
 *   codecache_end_segment    the mark recorded (name, bounds, entry), the pages flushed and
 *                            made PROT_READ|PROT_EXEC: never writable again
 *
 * At most max_marks segments. False (why in err) when capacity is 0 or the reservation fails.
 */
bool codecache_init_segments(codecache *cc, size_t capacity, int max_marks, char *err, size_t errlen);

/* The next segment, writable, of at least size bytes; NULL (why in err) when the cache is
   full, has a segment open, or mprotect fails. */
void *codecache_begin_segment(codecache *cc, size_t size, char *err, size_t errlen);

/* Close the open segment: size bytes of code at its start, callers enter at entry_offset;
   name must outlive the cache. NULL (why in err) when size passes what was asked for, the
   marks are all used, or mprotect fails: then the segment is inaccessible, never run. */
const stub_mark *codecache_end_segment(codecache *cc, const char *name, size_t entry_offset, size_t size,
                                       char *err, size_t errlen);

/* Unmap (the marks go with it). Safe on an unmapped cache. */
void codecache_release(codecache *cc);

/* The stub or segment whose [start, end) holds pc, or NULL. Async-signal-safe. */
const stub_mark *codecache_find(const codecache *cc, const void *pc);

/* How an architecture's code is printed (codecache_print, the compiler's PrintAssembly). */
typedef struct code_format {
    const char *llvm_target;   /* LLVMInitialize<target>TargetInfo ...: "AArch64", "X86" */
    const char *llvm_triple;   /* "aarch64-linux-gnu" */
    const char *llvm_features; /* what the code may use: "+sha3" */
    size_t insn_size;          /* every instruction's size (4), or 0 when lengths vary */
} code_format;

/*
 * -XX:+PrintStubCode: every stub, in generation order, as
 *
 *   StubRoutines::<name> (<variant>) [<start>, <end>] (<size> bytes)
 *   0x%04x:  %08x  <disassembly>        fixed-size instructions (AArch64):
 *                                       one line per 32-bit word
 *   0x%04x:  62 f1 fd 48 6f 01  <disassembly>
 *                                       variable length (x86-64): the bytes of
 *                                       one instruction, padded to a column
 *
 * then an empty line. The offset is from the stub's start (the crash
 * handler's offsets are the same), then the instruction's encoding, then
 * LLVM's text for fmt's target (disassembler.h), empty in a build without
 * it (variable-length code is then shown 8 bytes a line). When callers enter
 * after data at the start, the header ends ", entry 0x%04x".
 */
void codecache_print(const codecache *cc, const code_format *fmt, FILE *out);

/* The instruction lines of m's bytes [from, to) as codecache_print prints them, with d's text
   (stub_disasm_open; NULL: none). The compiler's PrintAssembly. */
struct stub_disasm;
void codecache_print_code(const stub_mark *m, struct stub_disasm *d, const code_format *fmt, size_t from, size_t to,
                          FILE *out);

#endif
