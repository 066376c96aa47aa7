/*
 * compiler/regcache.h — the templates' register cache (docs/compiler.md, "The register cache"),
 * the same on every architecture: a write-back cache of bytecode registers in machine registers,
 * in the spirit of V8's Liftoff and wasmtime's Winch.
 *
 * A template reads its operands from the machine registers that hold them and leaves its result
 * in one (a slot), marked dirty: the window's copy is stale until it is written back. Values are
 * written back only where something else reads the window: before any template outside the
 * cache (a call, a helper, an exit to the interpreter, which also forget the registers), on each
 * exit to the interpreter (out of line, per exit: its own stores), and at the end of a block (a
 * jump, or the fall-through into a jump target), there only the registers live at the target
 * (vm_live_in). An int dead after a word is dropped there without a store, so a temporary never
 * reaches memory; its window keeps an older value, which nothing reads before a write.
 * References are always written back (at the latest when they die): the collector's roots are
 * the window's references, and an older object left there would live on where the interpreter
 * lets it go.
 *
 * Each slot holds one value, which one or more bytecode registers share (a MOV only renames). A
 * template may compute in place in its operand's slot when that operand dies at the word or is
 * the result. A slot may be narrow: only its low 32 bits are the value (the int they
 * sign-extend to), as a 32-bit operation leaves it; whatever reads all 64 bits (a 64-bit
 * operation, a comparison, an index, a write-back) sign-extends it first, once, in place.
 *
 * This file keeps the books; the architecture emits the code through four callbacks.
 */
#ifndef MINIVM_REGCACHE_H
#define MINIVM_REGCACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "vm.h"

#define RC_MAX_SLOTS  24 /* machine registers an architecture may give the cache */
#define RC_MAX_CACHED 48 /* bytecode registers cached at once, at most */
#define RC_NONE       UINT32_MAX /* "no register" for the keep arguments */
#define RC_FAR        (UINT32_MAX - 1) /* not read again in the block */

typedef struct regcache {
    uint32_t nslots; /* the architecture's machine registers (slots 0..nslots-1) */
    uint32_t maxc;   /* bytecode registers tracked at once (<= RC_MAX_CACHED) */
    /* the code each callback emits, with ctx: store: window[reg] = slot (all 64 bits, already
       wide); load: slot = window[reg]; copy: dst = src (sign-extending the low 32 bits when
       sxtw); widen: slot's low 32 bits sign-extended in place */
    void (*store)(void *ctx, uint32_t reg, uint32_t slot);
    void (*load)(void *ctx, uint32_t slot, uint32_t reg);
    void (*copy)(void *ctx, uint32_t dst, uint32_t src, bool sxtw);
    void (*widen)(void *ctx, uint32_t slot);
    void *ctx;
    /* rc_read_ahead's: the method, its entry points, the templates that keep the cache, and per
       word the registers it reads (nreads of them, 5: more, a call); cur: the word translated
       (the architecture sets it); reads NULL: no reading ahead, the least recently used goes */
    const vm_method *m;
    const uint8_t *kinds;
    bool (*keeps)(uint32_t op);
    uint8_t (*reads)[4];
    uint8_t *nreads;
    uint32_t cur;
    const uint64_t *out;             /* the registers live after the current word */
    uint64_t refs[VM_MAX_REGS / 64]; /* the reference registers: written back even when dead */
    /* per bytecode register its slot (or -1) and whether the window's copy is stale; per slot,
       how many registers share it, when it was last used, and whether it is narrow */
    int8_t slot[VM_MAX_REGS];
    uint8_t dirty[VM_MAX_REGS];
    uint8_t list[RC_MAX_CACHED]; /* the cached registers */
    uint32_t n;
    uint8_t nrefs[RC_MAX_SLOTS];
    uint8_t narrow[RC_MAX_SLOTS];
    uint32_t used[RC_MAX_SLOTS];
    uint32_t tick;
} regcache;

static inline bool rc_has(const uint64_t *set, uint32_t r) { return (set[r >> 6] >> (r & 63)) & 1; }

/* Empty, for m (its reference registers), with the architecture's slots and callbacks set. */
void rc_reset(regcache *c, const vm_method *m);
/* rc_take reads ahead: it empties the slot the current block reads furthest ahead (Belady's
   choice within a block; a block ends at a jump target, a jump, a return, or a template outside
   the cache, keeps(op) false). kinds: jit_entry_points'. False when out of memory (the cache then
   takes the least recently used). rc_release frees what it allocated. */
bool rc_read_ahead(regcache *c, const vm_program *p, const vm_method *m, const uint8_t *kinds,
                   bool (*keeps)(uint32_t op));
void rc_release(regcache *c);
/* with rc_read_ahead: whether the current block reads reg again after the current word */
bool rc_read_again(const regcache *c, uint32_t reg);
/* reg forgotten (its value, if dirty, is not written back) */
void rc_unbind(regcache *c, uint32_t reg);
/* slot sign-extended in place when narrow */
void rc_widen(regcache *c, uint32_t slot);
/* the window's copy of R[reg] (cached) made right */
void rc_write_back(regcache *c, uint32_t reg);
/* the dirty registers written back: those in live, and references, or all when live is NULL */
void rc_flush(regcache *c, const uint64_t *live);
/* the registers hold nothing known (what was dirty is written back or dead) */
void rc_forget(regcache *c);
/* the registers not in live forgotten: stored only if a dirty reference */
void rc_drop_dead(regcache *c, const uint64_t *live);
/* whether slot holds reg (RC_NONE: never) */
bool rc_holds(const regcache *c, uint32_t slot, uint32_t reg);
/* an empty slot for a new value, not one holding keep1..keep3 (operands still to read) nor, with
   rc_read_ahead, any operand of the current word: a free one, else the one read furthest ahead
   (rc_read_ahead), a clean one before a dirty one (which costs a store), the least recently used */
uint32_t rc_take(regcache *c, uint32_t keep1, uint32_t keep2, uint32_t keep3);
/* reg is in slot, dirty or not: what it held before is forgotten (overwritten) */
void rc_bind(regcache *c, uint32_t reg, uint32_t slot, bool dirty);
/* R[reg] = the value a template left in slot (an empty one, or one rc_dest gave): dirty;
   narrow: only its low 32 bits are the value */
void rc_def(regcache *c, uint32_t reg, uint32_t slot, bool narrow);
/* the slot holding R[reg] for an operand (sign-extended when wide), or -1: the window is right */
int rc_operand(regcache *c, uint32_t reg, bool wide);
bool rc_is_narrow(const regcache *c, uint32_t reg);
/* whether R[a] can be computed in R[r]'s slot: r's alone, and r dies here or is a */
bool rc_in_place(const regcache *c, uint32_t a, uint32_t r);
/* The slot a template computes R[a] in, starting from R[src]'s value (sign-extended when wide):
   src's own slot when src dies at this word (or is a) and nothing else shares it or is still to
   be read from it (keep1, keep2); else an empty slot src's value is copied or loaded into. The
   template then changes the register and calls rc_def(a, slot, narrow). */
uint32_t rc_dest(regcache *c, uint32_t a, uint32_t src, bool wide, uint32_t keep1, uint32_t keep2);
/* the dirty registers, their slots and whether narrow (an exit's stores): how many */
uint32_t rc_dirty(const regcache *c, uint8_t *reg, uint8_t *slot, uint8_t *narrow);

#endif /* MINIVM_REGCACHE_H */
