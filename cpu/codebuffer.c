/*
 * cpu/codebuffer.c — the encoders' code buffer and labels (codebuffer.h).
 */
#include "codebuffer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void code_buffer_init(code_buffer *cb, void *code, size_t cap, size_t unit, const char *who)
{
    memset(cb, 0, sizeof *cb);
    cb->code = code;
    cb->unit = unit;
    cb->cap = cap;
    cb->who = who;
#ifndef NDEBUG
    cb->fatal = true;
#endif
}

static void vfail(code_buffer *cb, const char *fmt, va_list ap)
{
    char msg[sizeof cb->errmsg];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (cb->fatal) {
        fprintf(stderr, "%s: %s\n", cb->who, msg);
        abort();
    }
    if (!cb->failed)
        memcpy(cb->errmsg, msg, sizeof msg);
    cb->failed = true;
}

void code_buffer_fail(code_buffer *cb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(cb, fmt, ap);
    va_end(ap);
}

void code_buffer_refuse(code_buffer *cb, bool *refused, const char *insn, const char *fmt, ...)
{
    char msg[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    *refused = true;
    code_buffer_fail(cb, "%s: %s", insn, msg);
}

void code_buffer_emit(code_buffer *cb, const void *u)
{
    if (cb->pos < cb->cap)
        memcpy(cb->code + cb->pos * cb->unit, u, cb->unit);
    else if (!cb->failed || cb->pos == cb->cap)
        code_buffer_fail(cb, "code buffer full (%zu %s)", cb->cap, cb->unit == 1 ? "bytes" : "words");
    cb->pos++;
}

unsigned char *code_buffer_at(code_buffer *cb, size_t pos, size_t n)
{
    return pos + n <= cb->cap ? cb->code + pos * cb->unit : NULL;
}

bool code_buffer_done(const code_buffer *cb, size_t *size, char *err, size_t errlen)
{
    if (cb->failed) {
        snprintf(err, errlen, "%s", cb->errmsg);
        return false;
    }
    *size = cb->pos * cb->unit;
    return true;
}

/* ---- labels -------------------------------------------------------------- */

void code_label_init(code_label *l)
{
    l->pos = -1;
    l->npatch = 0;
    l->more = NULL;
    l->nmore = l->capmore = 0;
}

bool code_label_refer(code_label *l, size_t site)
{
    if (l->npatch < CODE_LABEL_MAX_PATCHES) {
        l->patch[l->npatch++] = site;
        return true;
    }
    /* the rest on the heap (HotSpot's Label: a fixed array, then a GrowableArray) */
    if (l->nmore == l->capmore) {
        size_t cap = l->capmore ? 2 * l->capmore : 16;
        size_t *more = realloc(l->more, cap * sizeof *more);
        if (!more)
            return false;
        l->more = more;
        l->capmore = cap;
    }
    l->more[l->nmore++] = site;
    return true;
}

void code_label_release(code_label *l)
{
    free(l->more);
    l->more = NULL;
    l->nmore = l->capmore = 0;
    l->npatch = 0;
}

void code_bind(code_buffer *cb, code_label *l, code_patch_fn *patch)
{
    if (l->pos >= 0) {
        code_buffer_fail(cb, "label bound twice");
        return;
    }
    l->pos = (long)cb->pos;
    for (int k = 0; k < l->npatch; k++)
        patch(cb, l->patch[k], cb->pos);
    for (size_t k = 0; k < l->nmore; k++)
        patch(cb, l->more[k], cb->pos);
    code_label_release(l);
}
