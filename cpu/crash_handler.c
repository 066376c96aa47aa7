/*
 * cpu/crash_handler.c — the SIGILL/SIGSEGV/SIGBUS handler for faults in
 * stubs (crash_handler.h).
 *
 * Everything the handler does is async-signal-safe: it reads the code
 * cache's marks (written before the handler was installed, never after),
 * formats with its own digit loops and writes with write(2), then abort()s.
 */
#include "crash_handler.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const int crash_signals[] = {SIGILL, SIGSEGV, SIGBUS};
#define NSIGNALS (sizeof crash_signals / sizeof crash_signals[0])

/* Part of the code cache's state: set by the first install (and a watch for the compiled code's
   cache), then only read. */
#define CRASH_MAX_CACHES 4
static struct {
    const codecache *cache;
    const codecache *watched[CRASH_MAX_CACHES]; /* caches of code added after start-up */
    const cpu_arch_ops *host; /* reads the signal context */
    bool installed;
    struct sigaction previous[NSIGNALS]; /* what a fault outside the stubs gets */
} crash;

/* ---- async-signal-safe formatting --------------------------------------------------------------- */

typedef struct line {
    char *buf;
    size_t len, pos; /* pos < len always: room for the NUL */
} line;

static void put_str(line *l, const char *s)
{
    for (; *s && l->pos + 1 < l->len; s++)
        l->buf[l->pos++] = *s;
}

/* 0x and at least `digits` hex digits */
static void put_hex(line *l, uintptr_t v, int digits)
{
    char tmp[2 * sizeof v];
    int n = 0;
    do {
        tmp[n++] = "0123456789abcdef"[v & 0xf];
        v >>= 4;
    } while (v || n < digits);
    put_str(l, "0x");
    while (n > 0 && l->pos + 1 < l->len)
        l->buf[l->pos++] = tmp[--n];
}

/* The host's registers, four a line: "#   x0=0x0000ffff8c4e7b24 x1=..." */
static void put_registers(line *l, const void *context)
{
    const char *const *names;
    uintptr_t values[CPU_CRASH_MAX_REGS];
    int n = crash.host->crash_registers(context, &names, values);
    for (int r = 0; r < n; r++) {
        put_str(l, r % 4 == 0 ? "#   " : " ");
        put_str(l, names[r]);
        put_str(l, "=");
        put_hex(l, values[r], 16);
        if (r % 4 == 3 || r == n - 1)
            put_str(l, "\n");
    }
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGILL: return "SIGILL";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    default: return "signal";
    }
}

size_t crash_format(char *buf, size_t len, int sig, const stub_mark *m, uintptr_t pc)
{
    if (len == 0)
        return 0;
    line l = {buf, len, 0};
    put_str(&l, "# minivm: ");
    put_str(&l, signal_name(sig));
    put_str(&l, " (");
    put_hex(&l, (uintptr_t)sig, 1);
    if (m->variant) {
        put_str(&l, ") in stub ");
        put_str(&l, m->name);
        put_str(&l, " (");
        put_str(&l, m->variant);
        put_str(&l, ") at offset ");
    } else {
        put_str(&l, ") in compiled method ");
        put_str(&l, m->name);
        put_str(&l, " at offset ");
    }
    put_hex(&l, pc - (uintptr_t)m->start, 4);
    put_str(&l, ", pc=");
    put_hex(&l, pc, 16);
    put_str(&l, "\n");
    l.buf[l.pos] = '\0';
    return l.pos;
}

/* ---- the handler -------------------------------------------------------------------------------- */

static int signal_index(int sig)
{
    for (size_t i = 0; i < NSIGNALS; i++)
        if (crash_signals[i] == sig)
            return (int)i;
    return -1;
}

static void crash_handler(int sig, siginfo_t *info, void *context)
{
    int saved_errno = errno;
    uintptr_t pc = crash.host->fault_pc(context);
    const stub_mark *m = crash.cache ? codecache_find(crash.cache, (const void *)pc) : NULL;
    for (int c = 0; !m && c < CRASH_MAX_CACHES; c++)
        if (__atomic_load_n(&crash.watched[c], __ATOMIC_ACQUIRE))
            m = codecache_find(crash.watched[c], (const void *)pc);
    if (m) {
        char msg[2048];
        size_t n = crash_format(msg, sizeof msg, sig, m, pc);
        if (crash.host->crash_registers) {
            line l = {msg, sizeof msg, n};
            put_registers(&l, context);
            n = l.pos;
        }
        ssize_t w = write(STDERR_FILENO, msg, n);
        (void)w; /* nothing left to do if stderr is gone */
        abort();
    }
    /*
     * Not ours: put the previous action back and let it take the signal. A
     * fault (si_code > 0) recurs when the instruction re-executes on return;
     * a signal someone sent (kill, raise: si_code <= 0) is sent again, and
     * is delivered to the restored action once this handler returns.
     */
    int i = signal_index(sig);
    if (i >= 0)
        sigaction(sig, &crash.previous[i], NULL);
    if (info->si_code <= 0)
        raise(sig);
    errno = saved_errno;
}

bool crash_handler_install(const codecache *cc, const cpu_arch_ops *host)
{
    if (!host || !host->fault_pc)
        return false; /* a signal context this build cannot read: no fault is attributed to a stub */
    crash.cache = cc;
    crash.host = host;
    if (crash.installed)
        return true;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NSIGNALS; i++) {
        if (sigaction(crash_signals[i], &sa, &crash.previous[i]) != 0) {
            while (i-- > 0) /* all or nothing */
                sigaction(crash_signals[i], &crash.previous[i], NULL);
            return false;
        }
    }
    crash.installed = true;
    return true;
}

bool crash_handler_watch(const codecache *cc)
{
    if (!crash.installed)
        return false;
    for (int c = 0; c < CRASH_MAX_CACHES; c++) {
        const codecache *none = NULL;
        if (__atomic_compare_exchange_n(&crash.watched[c], &none, cc, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
            return true;
    }
    return false;
}

void crash_handler_unwatch(const codecache *cc)
{
    for (int c = 0; c < CRASH_MAX_CACHES; c++) {
        const codecache *was = cc;
        __atomic_compare_exchange_n(&crash.watched[c], &was, NULL, false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
    }
}
