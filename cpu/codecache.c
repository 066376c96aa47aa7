/*
 * cpu/codecache.c — the code cache: one anonymous mapping per cache,
 * written while PROT_READ|PROT_WRITE, then sealed PROT_READ|PROT_EXEC (or
 * PROT_READ in what-if mode); the stub marks; -XX:+PrintStubCode.
 *
 * Why no double mapping (a writable view beside the executable one, as some
 * JITs use): stubs are written once, before anything runs, so there is never
 * a reason to write executable code; and QEMU would run stale code patched
 * through a second view (docs/stubs.md).
 */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS (POSIX only from 2024) */
#endif

#include "codecache.h"

#include <errno.h>
#include <stdlib.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "disassembler.h"
#include "flags.h" /* vm_warning */

bool codecache_init(codecache *cc, size_t capacity, char *err, size_t errlen)
{
    memset(cc, 0, sizeof *cc);
    if (capacity == 0) {
        snprintf(err, errlen, "an empty code cache");
        return false;
    }
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (capacity > SIZE_MAX - page) {
        snprintf(err, errlen, "a code cache of %zu bytes: too large", capacity);
        return false;
    }
    size_t mapped = (capacity + page - 1) / page * page;
    void *p = mmap(NULL, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(err, errlen, "cannot map a code cache of %zu bytes: %s", capacity, strerror(errno));
        return false;
    }
    cc->base = p;
    cc->mapped = mapped;
    cc->capacity = capacity;
    cc->state = CODECACHE_WRITABLE;
    return true;
}

static size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

void *codecache_begin_stub(codecache *cc, size_t *room)
{
    *room = 0;
    if (cc->state != CODECACHE_WRITABLE || cc->nstubs == CODECACHE_MAX_STUBS)
        return NULL;
    size_t at = align_up(cc->used, CODECACHE_STUB_ALIGNMENT);
    if (at >= cc->capacity)
        return NULL;
    *room = cc->capacity - at;
    return cc->base + at;
}

const stub_mark *codecache_end_stub(codecache *cc, const char *name, const char *variant, size_t entry_offset,
                                    size_t size)
{
    size_t room;
    uint8_t *start = codecache_begin_stub(cc, &room);
    if (!start || size > room || entry_offset >= size)
        return NULL;
    stub_mark *m = &cc->stubs[cc->nstubs++];
    *m = (stub_mark){.name = name, .variant = variant, .start = start, .entry = start + entry_offset,
                     .end = start + size};
    cc->used = (size_t)(m->end - cc->base);
    return m;
}

bool codecache_seal(codecache *cc, bool executable, char *err, size_t errlen)
{
    if (cc->state != CODECACHE_WRITABLE) {
        snprintf(err, errlen, "the code cache is not being written");
        return false;
    }
    /*
     * The flush comes first, while the words are where the generator left
     * them: it cleans the data cache to the point of unification and
     * invalidates the instruction cache over the range (dc cvau / ic ivau on
     * AArch64; nothing on x86-64, whose caches are coherent). Read-only
     * code never runs, so it needs none.
     */
    if (executable && cc->used)
        __builtin___clear_cache((char *)cc->base, (char *)cc->base + cc->used);
    if (mprotect(cc->base, cc->mapped, executable ? PROT_READ | PROT_EXEC : PROT_READ) != 0) {
        snprintf(err, errlen, "cannot protect the code cache: %s", strerror(errno));
        return false;
    }
    cc->state = executable ? CODECACHE_EXECUTABLE : CODECACHE_READ_ONLY;
    return true;
}

bool codecache_init_segments(codecache *cc, size_t capacity, int max_marks, char *err, size_t errlen)
{
    memset(cc, 0, sizeof *cc);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (capacity == 0 || max_marks <= 0) {
        snprintf(err, errlen, "an empty code cache");
        return false;
    }
    if (capacity > SIZE_MAX - page) {
        snprintf(err, errlen, "a code cache of %zu bytes: too large", capacity);
        return false;
    }
    size_t mapped = align_up(capacity, page);
    void *p = mmap(NULL, mapped, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        snprintf(err, errlen, "cannot reserve a code cache of %zu bytes: %s", capacity, strerror(errno));
        return false;
    }
    cc->marks = calloc((size_t)max_marks, sizeof *cc->marks);
    if (!cc->marks) {
        munmap(p, mapped);
        snprintf(err, errlen, "no memory for %d code cache marks", max_marks);
        return false;
    }
    cc->base = p;
    cc->mapped = mapped;
    cc->capacity = mapped;
    cc->max_marks = max_marks;
    cc->page = page;
    cc->segment_start = SIZE_MAX;
    cc->state = CODECACHE_EXECUTABLE; /* what it holds may run; the open segment alone is writable */
    return true;
}

void *codecache_begin_segment(codecache *cc, size_t size, char *err, size_t errlen)
{
    if (!cc->marks || cc->segment_start != SIZE_MAX) {
        snprintf(err, errlen, "%s", !cc->marks ? "not a segmented code cache" : "a segment is already open");
        return NULL;
    }
    size_t at = cc->used, pages = align_up(size ? size : 1, cc->page);
    if (cc->nmarks == cc->max_marks || pages > cc->capacity - at) {
        snprintf(err, errlen, "the code cache is full (%zu of %zu bytes used, %d segments)", at, cc->capacity,
                 (int)cc->nmarks);
        return NULL;
    }
    if (mprotect(cc->base + at, pages, PROT_READ | PROT_WRITE) != 0) {
        snprintf(err, errlen, "cannot make a code cache segment writable: %s", strerror(errno));
        return NULL;
    }
    cc->segment_start = at;
    cc->used = at + pages; /* taken, whatever the outcome */
    return cc->base + at;
}

const stub_mark *codecache_end_segment(codecache *cc, const char *name, size_t entry_offset, size_t size,
                                       char *err, size_t errlen)
{
    if (cc->segment_start == SIZE_MAX) {
        snprintf(err, errlen, "no segment is open");
        return NULL;
    }
    uint8_t *start = cc->base + cc->segment_start;
    size_t pages = cc->used - cc->segment_start;
    cc->segment_start = SIZE_MAX;
    if (size == 0 || size > pages || entry_offset >= size) {
        mprotect(start, pages, PROT_NONE);
        snprintf(err, errlen, "a segment of %zu bytes (entry at %zu) in %zu bytes of room", size, entry_offset,
                 pages);
        return NULL;
    }
    __builtin___clear_cache((char *)start, (char *)start + size);
    if (mprotect(start, pages, PROT_READ | PROT_EXEC) != 0) {
        mprotect(start, pages, PROT_NONE);
        snprintf(err, errlen, "cannot make a code cache segment executable: %s", strerror(errno));
        return NULL;
    }
    stub_mark *m = &cc->marks[cc->nmarks];
    *m = (stub_mark){.name = name, .variant = NULL, .start = start, .entry = start + entry_offset, .end = start + size};
    __atomic_store_n(&cc->nmarks, cc->nmarks + 1, __ATOMIC_RELEASE); /* the mark is complete */
    return m;
}

void codecache_release(codecache *cc)
{
    if (cc->base)
        munmap(cc->base, cc->mapped);
    free(cc->marks);
    memset(cc, 0, sizeof *cc);
}

const stub_mark *codecache_find(const codecache *cc, const void *pc)
{
    /* integer compares: pc may point anywhere, not only into the mapping */
    uintptr_t p = (uintptr_t)pc;
    for (int i = 0; i < cc->nstubs; i++) {
        const stub_mark *m = &cc->stubs[i];
        if (p >= (uintptr_t)m->start && p < (uintptr_t)m->end)
            return m;
    }
    int n = __atomic_load_n(&cc->nmarks, __ATOMIC_ACQUIRE);
    for (int i = 0; i < n; i++) {
        const stub_mark *m = &cc->marks[i];
        if (p >= (uintptr_t)m->start && p < (uintptr_t)m->end)
            return m;
    }
    return NULL;
}

/* The widest x86-64 instruction is 15 bytes: its hex column, "xx " each. */
#define BYTES_COLUMN (15 * 3)

void codecache_print_code(const stub_mark *m, stub_disasm *d, const code_format *fmt, size_t from, size_t to,
                          FILE *out)
{
    size_t size = (size_t)(m->end - m->start);
    if (to > size)
        to = size;
    for (size_t off = from; off < to;) {
        char text[160];
        size_t n = stub_disasm_insn(d, m->start + off, size - off, off, text, sizeof text);
        if (fmt->insn_size) {
            n = fmt->insn_size; /* one word a line, valid or not */
            if (off + n > size)
                break;
            uint32_t word = 0; /* the instruction's little-endian bytes as one number */
            for (size_t b = 0; b < n; b++)
                word |= (uint32_t)m->start[off + b] << (8 * b);
            fprintf(out, "0x%04zx:  %0*" PRIx32 "  %s\n", off, (int)(2 * n), word, text);
        } else {
            if (n == 0) /* no disassembler, or bytes it does not know: a chunk, no text */
                n = size - off < 8 ? size - off : 8;
            char hex[BYTES_COLUMN + 1];
            size_t h = 0;
            for (size_t b = 0; b < n && h + 3 < sizeof hex; b++)
                h += (size_t)snprintf(hex + h, sizeof hex - h, "%02x ", m->start[off + b]);
            fprintf(out, "0x%04zx:  %-*s %s\n", off, BYTES_COLUMN, hex, text);
        }
        off += n;
    }
}

void codecache_print(const codecache *cc, const code_format *fmt, FILE *out)
{
    char err[512];
    stub_disasm *d = stub_disasm_open(fmt->llvm_target, fmt->llvm_triple, fmt->llvm_features, err, sizeof err);
    if (!d && err[0])
        vm_warning("PrintStubCode: cannot load LLVM's disassembler (%s): the text column is empty", err);
    for (int i = 0; i < cc->nstubs; i++) {
        const stub_mark *m = &cc->stubs[i];
        size_t size = (size_t)(m->end - m->start);
        fprintf(out, "StubRoutines::%s (%s) [0x%016" PRIxPTR ", 0x%016" PRIxPTR "] (%zu bytes)", m->name, m->variant,
                (uintptr_t)m->start, (uintptr_t)m->end, size);
        if (m->entry != m->start)
            fprintf(out, ", entry 0x%04zx", (size_t)(m->entry - m->start));
        fputc('\n', out);
        codecache_print_code(m, d, fmt, 0, size, out);
        fputc('\n', out);
    }
    stub_disasm_close(d);
}
