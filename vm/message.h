/*
 * vm/message.h — "file:line: message" into a caller's buffer, the one format
 * of every loading and verifying error (docs/cli.md).
 *
 * The location always survives: when the whole line does not fit, the path
 * is shortened in the middle ("/very/long/...th/prog.mva:12: ..."), and only
 * a message too long even for that is cut at its end.
 */
#ifndef MINIVM_MESSAGE_H
#define MINIVM_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* path:line: <fmt, ap> into out (outlen > 0); returns out. */
char *vm_message_at(char *out, size_t outlen, const char *path, uint32_t line, const char *fmt, va_list ap);

#endif
