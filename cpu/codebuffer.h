/*
 * cpu/codebuffer.h — the code buffer every encoder writes into, and its labels (HotSpot's
 * CodeBuffer and Label in share/asm/): the AArch64 assembler's a64_asm and the x86-64 one's
 * x64_asm each wrap this buffer (as their first member, cb), whose unit (the instruction
 * granule) is a 32-bit word or a byte; their labels are code_label.
 *
 * Pure code emission: units go into a caller-provided buffer; nothing here executes them. Past
 * its end nothing is written but pos keeps counting, so a buffer too small (or NULL with
 * capacity 0) measures the code. The first refusal or overflow fails the buffer for good
 * (failed, the first message in errmsg); with fatal set (the default when NDEBUG is not
 * defined) the message is printed after the assembler's name and the process aborts, as
 * HotSpot's assert does.
 *
 * A label is bound once; a reference to it before then is recorded (code_label_refer) and
 * patched at the bind by the architecture's patch function, which knows its instructions.
 */
#ifndef MINIVM_CODEBUFFER_H
#define MINIVM_CODEBUFFER_H

#include <stdbool.h>
#include <stddef.h>

#if defined(__GNUC__)
#define CODE_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define CODE_PRINTF(fmt, args)
#endif

typedef struct code_buffer {
    unsigned char *code;  /* caller's buffer                                        */
    size_t unit;          /* bytes a unit: 4 (an AArch64 word) or 1 (x86-64)        */
    size_t cap;           /* its size in units                                      */
    size_t pos;           /* units emitted; keeps counting past cap (size probe)    */
    bool failed;          /* sticky: some instruction was refused or did not fit    */
    bool fatal;           /* print the message and abort() on the first refusal     */
    char errmsg[160];     /* the first refusal                                      */
    const char *who;      /* the assembler, before a fatal message: "a64 assembler" */
} code_buffer;

/* Start writing at code (cap units of unit bytes each). */
void code_buffer_init(code_buffer *cb, void *code, size_t cap, size_t unit, const char *who);
/* Mark the buffer failed (the first message is kept). */
void code_buffer_fail(code_buffer *cb, const char *fmt, ...) CODE_PRINTF(2, 3);
/* An encoder refuses instruction insn: *refused set, the buffer failed with "insn: message". */
void code_buffer_refuse(code_buffer *cb, bool *refused, const char *insn, const char *fmt, ...) CODE_PRINTF(4, 5);
/* Emit one unit (unit bytes at u); past the end the buffer fails once, "code buffer full". */
void code_buffer_emit(code_buffer *cb, const void *u);
/* The n units at pos, for patching; NULL when they are not all inside the buffer (never
   written: the buffer has failed). */
unsigned char *code_buffer_at(code_buffer *cb, size_t pos, size_t n);
/* A generator's outcome: false with the first refusal in err (errlen bytes) when the buffer
   failed, else true with *size the bytes written. */
bool code_buffer_done(const code_buffer *cb, size_t *size, char *err, size_t errlen);

/* ---- labels -------------------------------------------------------------- */

#define CODE_LABEL_MAX_PATCHES 16
typedef struct code_label {
    long pos;                                /* bound position in units, or -1 */
    int npatch;
    size_t patch[CODE_LABEL_MAX_PATCHES];     /* references waiting for bind   */
    size_t *more, nmore, capmore;            /* the ones past those, on the heap */
} code_label;

void code_label_init(code_label *l);
/* Record a reference to unbound l at site (where the architecture's patch function finds
   it): the first CODE_LABEL_MAX_PATCHES inline, any more in a growing heap array (a
   compiled method's exit may have hundreds); false only when memory runs out. */
bool code_label_refer(code_label *l, size_t site);
/* Forget l's waiting references and free their memory: for a label that will never be bound
   (code_bind does this itself). */
void code_label_release(code_label *l);
/* Patch the reference at site to target (both in units). */
typedef void code_patch_fn(code_buffer *cb, size_t site, size_t target);
/* Bind l to the current position and patch the references waiting for it; a label bound
   twice fails the buffer. */
void code_bind(code_buffer *cb, code_label *l, code_patch_fn *patch);

#endif /* MINIVM_CODEBUFFER_H */
