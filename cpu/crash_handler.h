/*
 * cpu/crash_handler.h — a crash inside a stub, diagnosed in one line
 * (HotSpot's hs_err header, reduced to what names a bad stub).
 *
 * Once installed, a SIGILL, SIGSEGV or SIGBUS whose faulting pc lies in a
 * stub of the code cache prints, on standard error,
 *
 *   # minivm: SIGILL (0x4) in stub sha3_implCompress (simd) at offset 0x0124, pc=0x0000ffff8c4e7b24
 *
 * (the offset is from the stub's start, as -XX:+PrintStubCode numbers its
 * lines; in a compiled method of a watched cache "in compiled method Module::name at
 * offset ..."), then the registers of the signal context ("#   x0=0x... x1=..."),
 * and the VM ends as HotSpot's fatal error handler does: abort(),
 * exit status 134 in a shell. A fault anywhere else behaves exactly as
 * without the handler: the previous action is restored and the signal is
 * taken again by it (the default one terminates with the signal; a
 * sanitizer's prints its report).
 */
#ifndef MINIVM_CRASH_HANDLER_H
#define MINIVM_CRASH_HANDLER_H

#include <stddef.h>
#include <stdint.h>

#include "codecache.h"
#include "cpu_impl.h"

/* Handle SIGILL, SIGSEGV and SIGBUS for faults in cc's stubs. cc is read
   in the handler, so it must live (and stay sealed) as long as the process;
   a second call only switches the cache. host: the host architecture's ops
   (fault_pc, crash_registers). False when sigaction fails, or when host
   cannot read a signal context. */
bool crash_handler_install(const codecache *cc, const cpu_arch_ops *host);

/* The line above, for signal sig at pc in m, NUL-terminated, '\n' included
   (truncated to len). Async-signal-safe (no stdio). Returns its length. */
size_t crash_format(char *buf, size_t len, int sig, const stub_mark *m, uintptr_t pc);

/* Also attribute faults to cc's segments (a segmented cache: compiled methods), "in compiled
   method NAME at offset ...", until crash_handler_unwatch(cc), which must come before cc is
   released. False when no handler is installed or CRASH_MAX_CACHES (4) caches are watched. */
bool crash_handler_watch(const codecache *cc);
void crash_handler_unwatch(const codecache *cc);

#endif
