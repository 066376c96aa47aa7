/*
 * compiler/regcache.c — the register cache's books (regcache.h): which bytecode register is in
 * which slot, dirty or not, narrow or not; the code is the architecture's callbacks'.
 */
#include "regcache.h"

#include <stdlib.h>
#include <string.h>

void rc_reset(regcache *c, const vm_method *m)
{
    memset(c->refs, 0, sizeof c->refs);
    memset(c->slot, -1, sizeof c->slot);
    memset(c->dirty, 0, sizeof c->dirty);
    memset(c->nrefs, 0, sizeof c->nrefs);
    memset(c->narrow, 0, sizeof c->narrow);
    memset(c->used, 0, sizeof c->used);
    c->n = 0;
    c->tick = 0;
    for (uint32_t r = 0; r < m->nregs; r++)
        if (vm_type_is_ref(m->regtypes[r]))
            c->refs[r >> 6] |= 1ull << (r & 63);
}

bool rc_read_ahead(regcache *c, const vm_program *p, const vm_method *m, const uint8_t *kinds,
                   bool (*keeps)(uint32_t op))
{
    c->reads = malloc(m->ncode * sizeof *c->reads);
    c->nreads = malloc(m->ncode);
    if (!c->reads || !c->nreads) {
        rc_release(c);
        return false;
    }
    for (uint32_t k = 0; k < m->ncode; k++) {
        int written;
        uint32_t n = vm_word_reads(p, m->code[k], c->reads[k], 4, &written);
        c->nreads[k] = (uint8_t)(n > 4 ? 5 : n);
    }
    c->m = m;
    c->kinds = kinds;
    c->keeps = keeps;
    return true;
}

void rc_release(regcache *c)
{
    free(c->reads);
    free(c->nreads);
    c->reads = NULL;
    c->nreads = NULL;
}

/* for each cached register (list order), the words until the current block reads it next, or
   RC_FAR: reading ahead to the block's end, or to a template that writes the cache back anyway */
static void next_reads(const regcache *c, uint32_t *dist)
{
    int8_t at[VM_MAX_REGS];
    memset(at, -1, sizeof at);
    for (uint32_t i = 0; i < c->n; i++) {
        dist[i] = RC_FAR;
        at[c->list[i]] = (int8_t)i;
    }
    uint32_t left = c->n;
    for (uint32_t j = c->cur + 1; j < c->m->ncode && left; j++) {
        uint32_t op = GET_OP(c->m->code[j]);
        if (c->kinds[j] || !c->keeps(op) || c->nreads[j] > 4)
            break;
        for (uint32_t q = 0; q < c->nreads[j]; q++) {
            int i = at[c->reads[j][q]];
            if (i >= 0 && dist[i] == RC_FAR) {
                dist[i] = j - c->cur;
                left--;
            }
        }
        if (op == OP_JMP || (vm_opinfo_table[op].flags & (VM_OPF_COND | VM_OPF_NOFALL)))
            break;
    }
}

bool rc_read_again(const regcache *c, uint32_t reg)
{
    if (!c->reads)
        return false;
    for (uint32_t j = c->cur + 1; j < c->m->ncode; j++) {
        uint32_t op = GET_OP(c->m->code[j]);
        if (c->kinds[j] || !c->keeps(op) || c->nreads[j] > 4)
            return false;
        for (uint32_t q = 0; q < c->nreads[j]; q++)
            if (c->reads[j][q] == reg)
                return true;
        if (op == OP_JMP || (vm_opinfo_table[op].flags & (VM_OPF_COND | VM_OPF_NOFALL)))
            return false;
    }
    return false;
}

/* whether reg is an operand of the word being translated (with rc_read_ahead) */
static bool operand_now(const regcache *c, uint32_t s)
{
    if (!c->reads || c->nreads[c->cur] > 4)
        return false;
    for (uint32_t q = 0; q < c->nreads[c->cur]; q++)
        if (c->slot[c->reads[c->cur][q]] == (int8_t)s)
            return true;
    return false;
}

void rc_unbind(regcache *c, uint32_t reg)
{
    int s = c->slot[reg];
    if (s < 0)
        return;
    c->nrefs[s]--;
    c->slot[reg] = -1;
    c->dirty[reg] = 0;
    for (uint32_t i = 0; i < c->n; i++)
        if (c->list[i] == reg) {
            c->list[i] = c->list[--c->n];
            break;
        }
}

void rc_widen(regcache *c, uint32_t slot)
{
    if (c->narrow[slot]) {
        c->widen(c->ctx, slot);
        c->narrow[slot] = 0;
    }
}

void rc_write_back(regcache *c, uint32_t reg)
{
    uint32_t s = (uint32_t)c->slot[reg];
    rc_widen(c, s);
    c->store(c->ctx, reg, s);
    c->dirty[reg] = 0;
}

void rc_flush(regcache *c, const uint64_t *live)
{
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t r = c->list[i];
        if (c->dirty[r] && (!live || rc_has(live, r) || rc_has(c->refs, r)))
            rc_write_back(c, r);
    }
}

void rc_forget(regcache *c)
{
    while (c->n)
        rc_unbind(c, c->list[c->n - 1]);
}

void rc_drop_dead(regcache *c, const uint64_t *live)
{
    for (uint32_t i = c->n; i-- > 0;) {
        uint32_t r = c->list[i];
        if (rc_has(live, r))
            continue;
        if (c->dirty[r] && rc_has(c->refs, r))
            rc_write_back(c, r);
        rc_unbind(c, r);
    }
}

/* empty slot: its registers written back where dirty, then forgotten */
static void evict(regcache *c, uint32_t slot)
{
    for (uint32_t i = c->n; i-- > 0;) {
        uint32_t r = c->list[i];
        if (c->slot[r] == (int8_t)slot) {
            if (c->dirty[r])
                rc_write_back(c, r);
            rc_unbind(c, r);
        }
    }
}

bool rc_holds(const regcache *c, uint32_t slot, uint32_t reg)
{
    return reg < VM_MAX_REGS && c->slot[reg] == (int8_t)slot;
}

uint32_t rc_take(regcache *c, uint32_t keep1, uint32_t keep2, uint32_t keep3)
{
    bool dirty[RC_MAX_SLOTS] = {false};
    uint32_t near[RC_MAX_SLOTS], dist[RC_MAX_CACHED];
    for (uint32_t s = 0; s < c->nslots; s++)
        near[s] = 0;
    if (c->reads && c->n) {
        next_reads(c, dist);
        for (uint32_t s = 0; s < c->nslots; s++)
            near[s] = RC_FAR;
        for (uint32_t i = 0; i < c->n; i++) {
            uint32_t s = (uint32_t)c->slot[c->list[i]];
            if (dist[i] < near[s])
                near[s] = dist[i];
        }
    }
    for (uint32_t i = 0; i < c->n; i++)
        dirty[c->slot[c->list[i]]] |= c->dirty[c->list[i]];
    uint32_t best = 0;
    bool found = false;
    for (uint32_t s = 0; s < c->nslots; s++) {
        if (rc_holds(c, s, keep1) || rc_holds(c, s, keep2) || rc_holds(c, s, keep3) || operand_now(c, s))
            continue;
        if (c->nrefs[s] == 0) {
            best = s;
            break;
        }
        /* needed later, then clean, then used less recently: better to empty */
        bool better = !found || near[s] > near[best] ||
                      (near[s] == near[best] && (dirty[s] < dirty[best] ||
                                                 (dirty[s] == dirty[best] && c->used[s] < c->used[best])));
        if (better) {
            best = s;
            found = true;
        }
    }
    /* three operands kept leave a slot when there are four: best is always found */
    evict(c, best);
    c->narrow[best] = 0;
    c->used[best] = ++c->tick;
    return best;
}

void rc_bind(regcache *c, uint32_t reg, uint32_t slot, bool dirty)
{
    rc_unbind(c, reg);
    if (c->n == c->maxc) { /* slots shared by many registers: make room */
        uint32_t i = 0;
        while (i < c->n && c->slot[c->list[i]] == (int8_t)slot)
            i++;
        if (i < c->n) {
            evict(c, (uint32_t)c->slot[c->list[i]]);
        } else { /* every cached register shares slot (renames): one alias leaves the cache */
            uint32_t r = c->list[0];
            if (c->dirty[r])
                rc_write_back(c, r);
            rc_unbind(c, r);
        }
    }
    c->slot[reg] = (int8_t)slot;
    c->dirty[reg] = dirty;
    c->list[c->n++] = (uint8_t)reg;
    c->nrefs[slot]++;
    c->used[slot] = ++c->tick;
}

void rc_def(regcache *c, uint32_t reg, uint32_t slot, bool narrow)
{
    rc_bind(c, reg, slot, true);
    c->narrow[slot] = narrow;
}

int rc_operand(regcache *c, uint32_t reg, bool wide)
{
    int s = c->slot[reg];
    if (s < 0)
        return -1;
    if (wide)
        rc_widen(c, (uint32_t)s);
    c->used[s] = ++c->tick;
    return s;
}

bool rc_is_narrow(const regcache *c, uint32_t reg)
{
    return c->slot[reg] >= 0 && c->narrow[c->slot[reg]];
}

bool rc_in_place(const regcache *c, uint32_t a, uint32_t r)
{
    int s = c->slot[r];
    return s >= 0 && c->nrefs[s] == 1 && (a == r || !rc_has(c->out, r));
}

uint32_t rc_dest(regcache *c, uint32_t a, uint32_t src, bool wide, uint32_t keep1, uint32_t keep2)
{
    int s = c->slot[src];
    if (rc_in_place(c, a, src) && !rc_holds(c, (uint32_t)s, keep1) && !rc_holds(c, (uint32_t)s, keep2)) {
        bool narrow = c->narrow[s] && !wide;
        if (wide)
            rc_widen(c, (uint32_t)s);
        rc_unbind(c, src); /* its value is dead here, or a's old one */
        c->narrow[s] = narrow;
        return (uint32_t)s;
    }
    uint32_t t = rc_take(c, src, keep1, keep2);
    if (s < 0) {
        c->load(c->ctx, t, src);
    } else if (c->narrow[s] && wide) {
        c->copy(c->ctx, t, (uint32_t)s, true);
    } else {
        c->copy(c->ctx, t, (uint32_t)s, false);
        c->narrow[t] = c->narrow[s];
    }
    if (s >= 0)
        c->used[s] = ++c->tick;
    return t;
}

uint32_t rc_dirty(const regcache *c, uint8_t *reg, uint8_t *slot, uint8_t *narrow)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t r = c->list[i];
        if (!c->dirty[r])
            continue;
        reg[n] = (uint8_t)r;
        slot[n] = (uint8_t)c->slot[r];
        narrow[n] = c->narrow[c->slot[r]];
        n++;
    }
    return n;
}
