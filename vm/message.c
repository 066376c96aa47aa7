/*
 * vm/message.c — see message.h.
 */
#include "message.h"

#include <stdio.h>
#include <string.h>

/* The longest message kept whole: every loader message is a sentence with at
   most two paths and a few bounded tokens in it. */
#define MESSAGE_MAX 16384

char *vm_message_at(char *out, size_t outlen, const char *path, uint32_t line, const char *fmt, va_list ap)
{
    char msg[MESSAGE_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    char where[24];
    snprintf(where, sizeof where, ":%u: ", line);
    size_t plen = strlen(path), wlen = strlen(where), mlen = strlen(msg);
    if (plen + wlen + mlen < outlen) {
        snprintf(out, outlen, "%s%s%s", path, where, msg);
        return out;
    }
    /* shorten the path in the middle to what the message leaves, keeping at
       least 16 of its characters; past that, the message is cut instead */
    const char dots[] = "...";
    size_t room = outlen > wlen + mlen + 1 ? outlen - 1 - wlen - mlen : 0;
    if (room < 16)
        room = 16;
    if (room < plen) {
        size_t keep = room - (sizeof dots - 1), head = keep / 2, tail = keep - head;
        snprintf(out, outlen, "%.*s%s%s%s%s", (int)head, path, dots, path + plen - tail, where, msg);
    } else {
        snprintf(out, outlen, "%s%s%s", path, where, msg);
    }
    return out;
}
