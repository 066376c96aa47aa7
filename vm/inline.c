/*
 * vm/inline.c — the loader's last step: small static callees inlined into their callers.
 *
 * A call costs a frame: the window copied, the callee's registers cleared, a frame pushed and
 * popped, two dispatches (about 90 x86 instructions in vm/interp.c). C2 inlines a small method
 * whatever its call site's frequency (HotSpot's MaxInlineSize, 35 bytecode bytes; minivm's limit,
 * INLINE_MAX_WORDS instructions, is about as many Java bytecodes), so the library's helpers
 * (SHA2.resetHashes, implCompressCheck, DigestBase.implCompressMultiBlock) cost C2 nothing, and
 * minivm a frame each. A static call (CALL, CALLV) of such a method becomes the callee's body,
 * copied into the caller with its registers after the caller's:
 *
 *   - a parameter the body never writes, never passes in a call window, and (a reference) never
 *     names in a NullPointerException's message, is the caller's argument register itself; the
 *     others are copied in (a mov each), so messages keep the callee's names;
 *   - the body's other registers start as a call would start them, zero or null: a reference is
 *     cleared first, so the last run's objects are no roots, and an int if some path may read it
 *     before it writes it (a forward dataflow over the body); once the body is left its
 *     registers are dead, and the collector clears their references (vm/heap.c);
 *   - "ret x" becomes "mov result, x" and a jump past the body; the body's jumps and the
 *     caller's are moved to the new positions.
 *
 * What is not inlined: natives, intrinsic candidates (their calls must reach the stub), abstract
 * and virtual calls (the receiver picks the body), a method into itself, bodies with the fused
 * four-register forms (their registers must stay below r64), forwarders and the intrinsic
 * candidates as callers (their code is what their callers and the stubs are checked against),
 * a call a forwarder was skipped at, and whatever would take the caller past VM_MAX_REGS. One
 * level: a body is copied as it was assembled, so a call inside it stays a call.
 *
 * Stack traces do not change: each copied word records the method it came from and its line
 * there (vm_method.inlined), and vm/interp.c's unwind prints that frame above the caller's, as
 * HotSpot prints the frames of inlined methods. The rewritten method goes through the verifier
 * again; if it were rejected (a bug here), the method keeps its code.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader_impl.h"

#define INLINE_MAX_WORDS 32 /* a callee's instruction words */

/* ---- registers an instruction reads and writes -------------------------------------------------- */
typedef struct regset {
    uint64_t w[VM_MAX_REGS / 64];
} regset;

static void rs_add(regset *s, uint32_t r) { s->w[r >> 6] |= 1ull << (r & 63); }
static bool rs_has(const regset *s, uint32_t r) { return (s->w[r >> 6] >> (r & 63)) & 1; }

static bool is_reg_kind(int k) { return k >= K_RI && k <= K_RWIN; }

static bool has_result(uint32_t w) { return GET_OP(w) == OP_CALL || GET_OP(w) == OP_CALLVIRT; }

/* The window of the call w: its first argument register and the number of arguments (the return). */
static uint32_t call_window(const vm_program *p, uint32_t w, uint32_t *first)
{
    *first = has_result(w) ? GET_A(w) + 1 : GET_A(w);
    return p->methods[GET_Bx(w)]->nparams;
}

/* The registers w reads (into *rd) and the one it writes (or -1). A call reads its window. */
static int word_regs(const vm_program *p, uint32_t w, regset *rd)
{
    const vm_opinfo *oi = &vm_opinfo_table[GET_OP(w)];
    uint32_t f[4];
    int nf = vm_operand_fields(w, f), wr = -1;
    for (int k = 0; k < nf; k++) {
        if (oi->kind[k] == K_RWIN) {
            uint32_t first, n = call_window(p, w, &first);
            for (uint32_t a = 0; a < n; a++)
                rs_add(rd, first + a);
            if (has_result(w))
                wr = (int)f[0];
        } else if (is_reg_kind(oi->kind[k])) {
            if (k == 0 && vm_opcode_writes_a(GET_OP(w)))
                wr = (int)f[0];
            else
                rs_add(rd, f[k]);
        }
    }
    return wr;
}

uint32_t vm_word_reads(const vm_program *p, uint32_t w, uint8_t *reads, uint32_t max, int *written)
{
    regset rd = {{0}};
    *written = word_regs(p, w, &rd);
    uint32_t n = 0;
    for (uint32_t r = 0; r < VM_MAX_REGS; r++)
        if (rs_has(&rd, r)) {
            if (n < max)
                reads[n] = (uint8_t)r;
            n++;
        }
    return n;
}

/* The registers of g some path may read before it writes them (a call starts them at zero). in
   and seen: g->ncode entries each, seen all false. */
static void read_before_written_in(const vm_program *p, const vm_method *g, regset *need, regset *in, bool *seen)
{
    memset(need, 0, sizeof *need);
    memset(&in[0], 0, sizeof in[0]);
    for (uint32_t r = 0; r < g->nparams; r++)
        rs_add(&in[0], r);
    seen[0] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t j = 0; j < g->ncode; j++) {
            if (!seen[j])
                continue;
            uint32_t w = g->code[j];
            regset rd = {{0}}, out = in[j];
            int wr = word_regs(p, w, &rd);
            for (int x = 0; x < VM_MAX_REGS / 64; x++)
                need->w[x] |= rd.w[x] & ~in[j].w[x];
            if (wr >= 0)
                rs_add(&out, (uint32_t)wr);
            uint32_t succ[2], ns = 0, fl = vm_opinfo_table[GET_OP(w)].flags;
            if (GET_OP(w) == OP_JMP)
                succ[ns++] = (uint32_t)((int64_t)j + 1 + GET_sJ(w));
            else if (!(fl & VM_OPF_NOFALL))
                succ[ns++] = j + 1;
            if (fl & VM_OPF_COND)
                succ[ns++] = j + 2;
            for (uint32_t s = 0; s < ns; s++) {
                uint32_t t = succ[s];
                if (!seen[t]) {
                    in[t] = out;
                    seen[t] = true;
                    changed = true;
                    continue;
                }
                for (int x = 0; x < VM_MAX_REGS / 64; x++) {
                    uint64_t v = in[t].w[x] & out.w[x];
                    if (v != in[t].w[x]) {
                        in[t].w[x] = v;
                        changed = true;
                    }
                }
            }
        }
    }
}

static void read_before_written(const vm_program *p, const vm_method *g, regset *need)
{
    regset in[INLINE_MAX_WORDS]; /* the registers written on every path to each word */
    bool seen[INLINE_MAX_WORDS] = {false};
    read_before_written_in(p, g, need, in, seen);
}

bool vm_read_before_written(const vm_program *p, const vm_method *m, uint64_t need[VM_MAX_REGS / 64])
{
    regset *in = malloc(m->ncode * sizeof *in), set;
    bool *seen = calloc(m->ncode, sizeof *seen);
    bool ok = in && seen && m->ncode > 0;
    if (ok) {
        read_before_written_in(p, m, &set, in, seen);
        memcpy(need, set.w, sizeof set.w);
    }
    free(in);
    free(seen);
    return ok;
}

bool vm_live_in(const vm_program *p, const vm_method *m, uint64_t (*live)[VM_MAX_REGS / 64])
{
    regset *rd = malloc(m->ncode * sizeof *rd);
    int *wr = malloc(m->ncode * sizeof *wr);
    if (!rd || !wr) {
        free(rd);
        free(wr);
        return false;
    }
    for (uint32_t k = 0; k < m->ncode; k++) {
        memset(&rd[k], 0, sizeof rd[k]);
        wr[k] = word_regs(p, m->code[k], &rd[k]);
        memset(live[k], 0, sizeof live[k]);
    }
    /* live[k] = reads(k) | (the union of live[successor] without the register k writes); words
       from the last to the first, until nothing changes (a loop's body twice, typically) */
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = m->ncode; k-- > 0;) {
            uint32_t w = m->code[k], fl = vm_opinfo_table[GET_OP(w)].flags;
            uint32_t succ[2], ns = 0;
            if (GET_OP(w) == OP_JMP)
                succ[ns++] = (uint32_t)((int64_t)k + 1 + GET_sJ(w));
            else if (!(fl & VM_OPF_NOFALL) && k + 1 < m->ncode)
                succ[ns++] = k + 1;
            if ((fl & VM_OPF_COND) && k + 2 < m->ncode)
                succ[ns++] = k + 2;
            regset out = {{0}};
            for (uint32_t s = 0; s < ns; s++)
                for (int x = 0; x < VM_MAX_REGS / 64; x++)
                    out.w[x] |= live[succ[s]][x];
            if (wr[k] >= 0)
                out.w[wr[k] >> 6] &= ~(1ull << (wr[k] & 63));
            for (int x = 0; x < VM_MAX_REGS / 64; x++) {
                uint64_t v = out.w[x] | rd[k].w[x];
                if (v != live[k][x]) {
                    live[k][x] = v;
                    changed = true;
                }
            }
        }
    }
    free(rd);
    free(wr);
    return true;
}

/* ---- which calls ------------------------------------------------------------------------------ */
/* Why g (as assembled) cannot be inlined anywhere, or NULL: PrintInlining's texts, HotSpot's where it has one */
static const char *not_inlinable(const vm_method *g)
{
    if (g->flags & VM_METHOD_NATIVE)
        return "native method";
    if (g->flags & VM_METHOD_INTRINSIC)
        return "intrinsic candidate (PrintIntrinsics: its stub)";
    if (g->flags & VM_METHOD_ABSTRACT)
        return "abstract method";
    if (g->ncode > INLINE_MAX_WORDS)
        return "too big";
    if (g->elided)
        return "calls a forwarder";
    for (uint32_t j = 0; j < g->ncode; j++)
        if (vm_opinfo_table[GET_OP(g->code[j])].format == iABCD)
            return "uses r0..r63-only instructions";
    return NULL;
}

/* The verdict on the static call at word k of m (as assembled), with nregs registers so far: NULL,
   inline it; else why not (why[i]: method i's reason, or NULL). */
static const char *site_verdict(const vm_program *p, const vm_method *m, uint32_t k, const vm_method *orig,
                                const char *const *why, uint32_t nregs)
{
    uint32_t w = m->code[k];
    uint32_t gi = GET_Bx(w);
    if (p->methods[gi] == m)
        return "recursive inlining is too deep";
    if (why[gi])
        return why[gi];
    if (nregs + orig[gi].nregs > VM_MAX_REGS)
        return "the caller would have more than 256 registers";
    return NULL;
}

/* ---- the new code ------------------------------------------------------------------------------- */
typedef struct outbuf {
    uint32_t *code, *lines; /* arena arrays of at least the expansion's size (rewrite's bound) */
    vm_inlined *inl;
    uint32_t n;
} outbuf;

static void emit(outbuf *o, uint32_t w, uint32_t line, const vm_method *from, uint32_t from_line)
{
    o->code[o->n] = w;
    o->lines[o->n] = line;
    o->inl[o->n] = (vm_inlined){from, from_line};
    o->n++;
}

static uint32_t jmp_to(uint32_t at, uint32_t target) { return MK_sJ(OP_JMP, (int32_t)target - (int32_t)(at + 1)); }

/* w with its registers renamed by map */
static uint32_t remap(const vm_program *p, uint32_t w, const uint8_t *map)
{
    const vm_opinfo *oi = &vm_opinfo_table[GET_OP(w)];
    vm_opcode op = (vm_opcode)GET_OP(w);
    uint32_t f[4];
    vm_operand_fields(w, f);
    /* a void call without arguments has no window: its A is 0 (the verifier's rule) */
    bool no_window = (op == OP_CALLV || op == OP_CALLVIRTV) && p->methods[f[1]]->nparams == 0;
    for (int k = 0; k < 3; k++)
        if (is_reg_kind(oi->kind[k]) && !(k == 0 && no_window))
            f[k] = map[f[k]];
    switch (oi->format) {
    case iABC: return MK_ABC(GET_OP(w), f[0], f[1], f[2]);
    case iABx:
    case iAsBx: return MK_ABx(GET_OP(w), f[0], GET_Bx(w));
    default: return w; /* isJ (no registers); iABCD is never inlined */
    }
}

/* The body of g (as assembled: og) in place of the call word w of m at line; its registers from base on. */
static void emit_body(const vm_program *p, outbuf *o, uint32_t w, uint32_t line, const vm_method *g,
                      const vm_method *og, uint32_t base)
{
    uint32_t first;
    call_window(p, w, &first);
    /* registers g writes, those in its call windows, and those a NullPointerException's message
       may name (by g's name for it): such a parameter cannot be the argument itself */
    regset written = {{0}}, windows = {{0}}, named = {{0}};
    for (uint32_t j = 0; j < og->ncode; j++) {
        regset rd = {{0}};
        int wr = word_regs(p, og->code[j], &rd);
        if (wr >= 0)
            rs_add(&written, (uint32_t)wr);
        if (vm_opinfo_table[GET_OP(og->code[j])].flags & VM_OPF_THROWS) {
            if (GET_OP(og->code[j]) == OP_PUTF) /* its value is stored, not named */
                rs_add(&named, GET_A(og->code[j]));
            else
                for (int x = 0; x < VM_MAX_REGS / 64; x++)
                    named.w[x] |= rd.w[x];
        }
        if (vm_opinfo_table[GET_OP(og->code[j])].kind[0] == K_RWIN) {
            uint32_t a0, n = call_window(p, og->code[j], &a0);
            for (uint32_t a = 0; a < n; a++)
                rs_add(&windows, a0 + a);
        }
    }
    uint8_t map[VM_MAX_REGS] = {0};
    for (uint32_t r = 0; r < og->nregs; r++)
        map[r] = (uint8_t)(base + r);
    for (uint32_t r = 0; r < og->nparams; r++) {
        if (!rs_has(&written, r) && !rs_has(&windows, r) && (vm_type_is_int(og->regtypes[r]) || !rs_has(&named, r)))
            map[r] = (uint8_t)(first + r);
        else
            emit(o, MK_ABC(OP_MOV, map[r], first + r, 0), line, g, og->line);
    }
    regset need;
    read_before_written(p, og, &need);
    /* an int some path reads first starts at 0; every reference at null, so that the last run's
       objects are no roots (as a returned frame's are not: the collector clears them once the body
       is left, vm/heap.c) */
    for (uint32_t r = og->nparams; r < og->nregs; r++)
        if (!vm_type_is_int(og->regtypes[r]))
            emit(o, MK_ABC(OP_LDNULL, map[r], 0, 0), line, g, og->line);
        else if (rs_has(&need, r))
            emit(o, MK_ABx(OP_LDI, map[r], 0), line, g, og->line);
    uint32_t gpos[INLINE_MAX_WORDS];
    for (uint32_t j = 0; j < og->ncode; j++) {
        uint32_t gw = og->code[j], gl = og->lines[j];
        gpos[j] = o->n;
        bool last = j + 1 == og->ncode;
        switch (GET_OP(gw)) {
        case OP_RET:
        case OP_RETV:
            if (GET_OP(gw) == OP_RET)
                emit(o, MK_ABC(OP_MOV, GET_A(w), map[GET_A(gw)], 0), line, g, gl);
            if (!last)
                emit(o, MK_sJ(OP_JMP, 0), line, g, gl); /* to the end: patched below */
            break;
        default: emit(o, remap(p, gw, map), line, g, gl); break;
        }
    }
    /* the body's jumps: within it, or (from a ret) to its end */
    uint32_t end = o->n;
    for (uint32_t j = 0; j < og->ncode; j++) {
        uint32_t gw = og->code[j];
        if (GET_OP(gw) == OP_JMP) {
            uint32_t t = (uint32_t)((int64_t)j + 1 + GET_sJ(gw));
            o->code[gpos[j]] = jmp_to(gpos[j], gpos[t]);
        } else if ((GET_OP(gw) == OP_RET || GET_OP(gw) == OP_RETV) && j + 1 < og->ncode) {
            uint32_t at = gpos[j] + (GET_OP(gw) == OP_RET ? 1 : 0);
            o->code[at] = jmp_to(at, end);
        }
    }
}

/* m's code with the calls at site[k] replaced by their callees' bodies; nregs: the registers then, mpos
   scratch for m->ncode + 1 positions. False (err: why) if the verifier rejects it (a bug here): m
   unchanged. */
static bool rewrite(loader *L, vm_method *m, const vm_method *orig, const bool *site, uint32_t nregs,
                    uint32_t *mpos, char *err, size_t errlen)
{
    const vm_program *p = L->p;
    /* at most: the caller's words, and per body a mov or a clear per register and two words per word */
    uint32_t bound = m->ncode, nsites = 0;
    for (uint32_t k = 0; k < m->ncode; k++)
        if (site[k]) {
            bound += orig[GET_Bx(m->code[k])].nregs + 2 * orig[GET_Bx(m->code[k])].ncode;
            nsites++;
        }
    outbuf o = {vm_arena_alloc(L->a, bound * sizeof *o.code), vm_arena_alloc(L->a, bound * sizeof *o.lines),
                vm_arena_alloc(L->a, bound * sizeof *o.inl), 0};
    vm_type *rt = vm_arena_alloc(L->a, nregs * sizeof *rt);
    const char **rn = vm_arena_alloc(L->a, nregs * sizeof *rn);
    vm_inline_site *sites = vm_arena_alloc(L->a, nsites * sizeof *sites);
    memcpy(rt, m->regtypes, m->nregs * sizeof *rt);
    memcpy(rn, m->regnames, m->nregs * sizeof *rn);
    uint32_t base = m->nregs, ns = 0;
    for (uint32_t k = 0; k < m->ncode; k++) {
        uint32_t w = m->code[k];
        mpos[k] = o.n;
        if (site[k]) {
            const vm_method *og = &orig[GET_Bx(w)];
            memcpy(rt + base, og->regtypes, og->nregs * sizeof *rt);
            memcpy(rn + base, og->regnames, og->nregs * sizeof *rn);
            emit_body(p, &o, w, m->lines[k], p->methods[GET_Bx(w)], og, base);
            sites[ns++] = (vm_inline_site){mpos[k], o.n, (uint16_t)base, og->nregs};
            base += og->nregs;
        } else {
            emit(&o, w, m->lines[k], NULL, 0);
        }
    }
    mpos[m->ncode] = o.n;
    /* the caller's own jumps, to where their targets went */
    for (uint32_t k = 0; k < m->ncode; k++)
        if (GET_OP(m->code[k]) == OP_JMP)
            o.code[mpos[k]] = jmp_to(mpos[k], mpos[(uint32_t)((int64_t)k + 1 + GET_sJ(m->code[k]))]);
    vm_method nm = *m;
    nm.code = o.code;
    nm.lines = o.lines;
    nm.inlined = o.inl;
    nm.ncode = o.n;
    nm.nregs = (uint16_t)base;
    nm.regtypes = rt;
    nm.regnames = rn;
    nm.sites = sites;
    nm.nsites = nsites;
    if (m->elided) {
        const vm_method **el = vm_arena_alloc(L->a, o.n * sizeof *el); /* zeroed */
        for (uint32_t k = 0; k < m->ncode; k++)
            el[mpos[k]] = m->elided[k];
        nm.elided = el;
    }
    if (vm_verify_method(p, &nm, err, errlen) != 0)
        return false;
    *m = nm;
    return true;
}

static bool is_call(uint32_t w)
{
    vm_opcode op = (vm_opcode)GET_OP(w);
    return op == OP_CALL || op == OP_CALLV || op == OP_CALLVIRT || op == OP_CALLVIRTV;
}

static bool is_static_call(uint32_t w) { return GET_OP(w) == OP_CALL || GET_OP(w) == OP_CALLV; }

/* PrintInlining's line for a caller, before its calls' lines: "Module::name (N bytes)" */
static void print_caller(FILE *out, const vm_method *m)
{
    fprintf(out, "%s::%s (%zu bytes)\n", m->module->name, m->name, (size_t)m->ncode * sizeof *m->code);
}

/* HotSpot's PrintInlining line for the call at word k of m (as assembled): "@ bci" is the call's byte
   offset (4 a word), the size the callee's as assembled */
static void print_site(FILE *out, const vm_method *m, uint32_t k, const vm_method *orig, const char *fmt, ...)
{
    const vm_method *fw = m->elided ? m->elided[k] : NULL; /* a forwarder's code is never rewritten */
    const vm_method *g = fw ? fw : &orig[GET_Bx(m->code[k])]; /* orig: needed at other calls only */
    fprintf(out, "%30s@ %u   %s::%s", "", k * 4, g->module->name, g->name);
    if (!(g->flags & (VM_METHOD_NATIVE | VM_METHOD_ABSTRACT)))
        fprintf(out, " (%zu bytes)", (size_t)g->ncode * sizeof *g->code);
    fputs("   ", out);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
}

/* m with its inlinable static calls inlined; out: where PrintInlining's lines go, or NULL; scratch for
   m->ncode + 1 words in msg, site and mpos */
static void inline_into(loader *L, vm_method *m, const vm_method *orig, const char *const *why, FILE *out,
                        const char **msg, bool *site, uint32_t *mpos)
{
    const vm_program *p = L->p;
    /* the verdicts, for the code as assembled: why not, or NULL at a call to inline */
    memset(msg, 0, m->ncode * sizeof *msg);
    memset(site, 0, m->ncode * sizeof *site);
    bool any = false;
    uint32_t nregs = m->nregs;
    for (uint32_t k = 0; k < m->ncode; k++) {
        uint32_t w = m->code[k];
        if (!is_call(w) || (m->elided && m->elided[k]))
            continue;
        if (!is_static_call(w))
            msg[k] = "virtual call";
        else if ((msg[k] = site_verdict(p, m, k, orig, why, nregs)) == NULL) {
            site[k] = any = true;
            nregs += orig[GET_Bx(w)].nregs;
        }
    }
    const vm_method as_assembled = *m;
    const vm_method *a = &as_assembled;
    char err[VM_ERROR_MAX] = "";
    bool ok = !any || rewrite(L, m, orig, site, nregs, mpos, err, sizeof err);
    for (uint32_t k = 0, header = 0; out && k < a->ncode; k++) {
        if (!is_call(a->code[k]))
            continue;
        if (!header++)
            print_caller(out, a);
        if (a->elided && a->elided[k])
            print_site(out, a, k, orig, "inline (forwarder)");
        else if (site[k] && ok)
            print_site(out, a, k, orig, "inline");
        else
            print_site(out, a, k, orig, "failed to inline: %s", site[k] ? err : msg[k]);
    }
}

/* Are m's calls PrintInlining's (and the inliner's)? Not a native's, an abstract method's, an
   intrinsic candidate's (its code is what the stubs are checked against) or a forwarder's (its code
   is its target's call, as assembled). */
static bool rewritable_caller(const vm_method *m, uint32_t forwarder_word)
{
    return !(m->flags & (VM_METHOD_NATIVE | VM_METHOD_ABSTRACT | VM_METHOD_INTRINSIC)) && !forwarder_word;
}

void ld_print_forwarded_calls(const loader *L, const uint32_t *forwarder_word, FILE *out)
{
    const vm_program *p = L->p;
    for (uint32_t i = 0; i < p->nmethods; i++) {
        const vm_method *m = p->methods[i];
        if (!m->elided || !rewritable_caller(m, forwarder_word[i]))
            continue;
        for (uint32_t k = 0, header = 0; k < m->ncode; k++) {
            if (!m->elided[k])
                continue;
            if (!header++)
                print_caller(out, m);
            print_site(out, m, k, NULL, "inline (forwarder)");
        }
    }
}

void ld_inline_calls(loader *L, const uint32_t *forwarder_word, FILE *print_inlining)
{
    vm_program *p = L->p;
    /* every body as assembled (a method is inlined as it was, not with what it got inlined); all
       of it the program's arena's, so an error that ends the load frees it too */
    vm_method *orig = vm_arena_alloc(L->a, p->nmethods * sizeof *orig);
    const char **why = vm_arena_alloc(L->a, p->nmethods * sizeof *why);
    uint32_t maxcode = 0;
    for (uint32_t i = 0; i < p->nmethods; i++) {
        orig[i] = *p->methods[i];
        why[i] = not_inlinable(p->methods[i]);
        if (p->methods[i]->ncode > maxcode)
            maxcode = p->methods[i]->ncode;
    }
    const char **msg = vm_arena_alloc(L->a, (maxcode + 1) * sizeof *msg);
    bool *site = vm_arena_alloc(L->a, (maxcode + 1) * sizeof *site);
    uint32_t *mpos = vm_arena_alloc(L->a, (maxcode + 1) * sizeof *mpos);
    for (uint32_t i = 0; i < p->nmethods; i++) {
        vm_method *m = p->methods[i];
        if (rewritable_caller(m, forwarder_word[i]))
            inline_into(L, m, orig, why, print_inlining, msg, site, mpos);
    }
}
