/*
 * tests/test_codecache.c — the code cache, the stub table's start-up and
 * -XX:+PrintStubCode (cpu/codecache.h, crash_handler.h, stubroutines.h),
 * on both hosts (x86-64 natively, AArch64 under QEMU):
 *
 *  1. W^X: the region's permissions in /proc/self/maps are rw-p while
 *     written, r-xp (or r--p, what-if) once sealed, never rwx; a tiny
 *     hand-encoded function (x86-64 `mov eax, 42; ret`, AArch64
 *     `movz w0, #42; ret`) runs natively from the cache.
 *  2. Stub marks: alignment, bounds, lookup by pc, refusals.
 *  3. The crash handler, in forked children: a fault in a recorded stub
 *     prints the one line and aborts (status 134 in a shell); a fault
 *     outside every stub reaches the previous action (the default one, or
 *     a handler of the program's), as if minivm had none.
 *  4. Generation at start-up: both SHA-3 stubs in each variant (the table
 *     filled only where they can run); the failure path (no mapping, a
 *     cache too small for the generator): one warning, the flag off, the
 *     table empty.
 *  5. build/minivm -XX:+PrintStubCode in what-if mode (the "done
 *     means" command line): both stubs, each word on a `0x%04x:  %08x  text`
 *     line, with disassembly when the build has LLVM.
 */
#if defined(__linux__)
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#endif

#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "codecache.h"
#include "cpu.h"
#include "cpu_aarch64.h"
#include "stub_arch.h"
#include "crash_handler.h"
#include "disassembler.h"
#include "flags.h"
#include "sha3_ref.h"
#include "stubroutines.h"
#include "testutil.h"

#if defined(__aarch64__)
#include "assembler_aarch64.h"
#endif

/* ---- helpers ------------------------------------------------------------------------------------- */

/* The permissions ("rw-p") of the /proc/self/maps line holding addr, or "" when none does. */
static const char *maps_perms(const void *addr)
{
    static char perms[8];
    perms[0] = '\0';
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char p[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, p) == 3 && (uintptr_t)addr >= lo && (uintptr_t)addr < hi) {
            snprintf(perms, sizeof perms, "%s", p);
            break;
        }
    }
    fclose(f);
    return perms;
}

/* Instructions for the host, written at code (room bytes). Returns their size. */
typedef enum host_code { RETURN_42, FAULT_AFTER_ONE } host_code;

/*
 * RETURN_42:       a function returning 42.
 * FAULT_AFTER_ONE: one harmless instruction, then a permanently undefined
 *                  one (x86-64 ud2, AArch64 udf #0) at fault_offset.
 */
static size_t write_host_code(void *code, size_t room, host_code what, size_t *fault_offset)
{
#if defined(__x86_64__)
    static const uint8_t ret42[] = {0xb8, 0x2a, 0x00, 0x00, 0x00, 0xc3}; /* mov eax, 42; ret */
    static const uint8_t fault[] = {0x90, 0x0f, 0x0b};                   /* nop; ud2 */
    const uint8_t *bytes = what == RETURN_42 ? ret42 : fault;
    size_t n = what == RETURN_42 ? sizeof ret42 : sizeof fault;
    assert_true(n <= room);
    memcpy(code, bytes, n);
    if (fault_offset)
        *fault_offset = 1;
    return n;
#elif defined(__aarch64__)
    a64_asm as;
    a64_asm_init(&as, code, room / 4);
    a64_movz(&as, A64_W32, A64_R0, 42, 0);
    if (what == RETURN_42)
        a64_ret(&as, A64_RLR);
    else
        a64_emit(&as, 0); /* udf #0 */
    assert_false(a64_asm_failed(&as));
    if (fault_offset)
        *fault_offset = 4;
    return a64_asm_pc(&as) * 4;
#else
    (void)code, (void)room, (void)what, (void)fault_offset;
    skip();
    return 0;
#endif
}

typedef int (*int_fn)(void);

static int_fn as_function(const uint8_t *p)
{
    /* object to function pointer: not ISO C, guaranteed by POSIX (dlsym) */
    return (int_fn)(uintptr_t)p;
}

/* A cache with one host-code stub, sealed executable. */
static const stub_mark *host_stub(codecache *cc, host_code what, size_t recorded_size, size_t *fault_offset)
{
    char err[256];
    assert_true(codecache_init(cc, 4096, err, sizeof err));
    size_t room;
    void *code = codecache_begin_stub(cc, &room);
    assert_non_null(code);
    size_t n = write_host_code(code, room, what, fault_offset);
    const stub_mark *m = codecache_end_stub(cc, "test_stub", "host", 0, recorded_size ? recorded_size : n);
    assert_non_null(m);
    assert_true(codecache_seal(cc, true, err, sizeof err));
    return m;
}

/* ---- 1. W^X ------------------------------------------------------------------------------------- */

static void code_cache_is_never_writable_and_executable(void **state)
{
    (void)state;
    static const struct {
        bool executable;
        const char *sealed; /* the permissions after codecache_seal */
    } cases[] = {{true, "r-xp"}, {false, "r--p"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        codecache cc;
        char err[256];
        assert_true(codecache_init(&cc, 8192, err, sizeof err));
        assert_int_equal(cc.state, CODECACHE_WRITABLE);
        assert_string_equal(maps_perms(cc.base), "rw-p");
        size_t room;
        void *code = codecache_begin_stub(&cc, &room);
        assert_ptr_equal(code, cc.base);
        assert_int_equal(room, 8192);
        size_t n = write_host_code(code, room, RETURN_42, NULL);
        assert_non_null(codecache_end_stub(&cc, "ret42", "host", 0, n));
        assert_true(codecache_seal(&cc, cases[i].executable, err, sizeof err));
        assert_int_equal(cc.state, cases[i].executable ? CODECACHE_EXECUTABLE : CODECACHE_READ_ONLY);
        assert_string_equal(maps_perms(cc.base), cases[i].sealed);
        assert_string_equal(maps_perms(cc.base + 4096), cases[i].sealed); /* the whole mapping */
        /* sealed: nothing more can be added, and a second seal is refused */
        assert_null(codecache_begin_stub(&cc, &room));
        assert_int_equal(room, 0);
        assert_false(codecache_seal(&cc, true, err, sizeof err));
        assert_string_equal(maps_perms(cc.base), cases[i].sealed);
        uint8_t *base = cc.base;
        codecache_release(&cc);
        assert_int_equal(cc.state, CODECACHE_UNMAPPED);
        assert_string_equal(maps_perms(base), ""); /* unmapped: typically no line holds it any more */
    }
}

static void hand_encoded_function_runs_from_the_cache(void **state)
{
    (void)state;
    codecache cc;
    const stub_mark *m = host_stub(&cc, RETURN_42, 0, NULL);
    assert_int_equal(as_function(m->entry)(), 42);
    codecache_release(&cc);
}

/* A segmented cache (compiled methods, added after start-up): each segment is writable while it
   is written, then executable, never both; what is not a segment is inaccessible. */
static void segments_are_writable_then_executable_never_both(void **state)
{
    (void)state;
    codecache cc;
    char err[256];
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    assert_true(codecache_init_segments(&cc, 4 * page, 3, err, sizeof err));
    assert_string_equal(maps_perms(cc.base), "---p");
    uint8_t *first = codecache_begin_segment(&cc, 10, err, sizeof err);
    assert_ptr_equal(first, cc.base);
    assert_string_equal(maps_perms(first), "rw-p");
    assert_string_equal(maps_perms(first + page), "---p");
    assert_null(codecache_begin_segment(&cc, 10, err, sizeof err)); /* one open at a time */
    assert_string_equal(err, "a segment is already open");
    size_t n = write_host_code(first, page, RETURN_42, NULL);
    const stub_mark *m = codecache_end_segment(&cc, "T::f", 0, n, err, sizeof err);
    assert_non_null(m);
    assert_string_equal(maps_perms(first), "r-xp");
    assert_int_equal(as_function(m->entry)(), 42);
    assert_ptr_equal(codecache_find(&cc, first + n - 1), m);
    assert_null(codecache_find(&cc, first + n));
    /* a second segment takes whole pages after the first: two here */
    uint8_t *second = codecache_begin_segment(&cc, page + 1, err, sizeof err);
    assert_ptr_equal(second, first + page);
    assert_string_equal(maps_perms(second + page), "rw-p");
    assert_string_equal(maps_perms(first), "r-xp");
    /* more than was asked for: refused, and the pages never run */
    assert_null(codecache_end_segment(&cc, "T::g", 0, 3 * page, err, sizeof err));
    assert_string_equal(maps_perms(second), "---p");
    /* one page left: a segment of two does not fit */
    assert_null(codecache_begin_segment(&cc, 2 * page, err, sizeof err));
    assert_non_null(strstr(err, "the code cache is full"));
    uint8_t *third = codecache_begin_segment(&cc, 1, err, sizeof err);
    assert_non_null(third);
    n = write_host_code(third, page, RETURN_42, NULL);
    assert_non_null(codecache_end_segment(&cc, "T::h", 0, n, err, sizeof err));
    assert_int_equal(cc.nmarks, 2);
    codecache_release(&cc);
    /* the marks run out before the pages */
    assert_true(codecache_init_segments(&cc, 4 * page, 1, err, sizeof err));
    assert_non_null(codecache_begin_segment(&cc, 1, err, sizeof err));
    assert_non_null(codecache_end_segment(&cc, "T::f", 0, 1, err, sizeof err));
    assert_null(codecache_begin_segment(&cc, 1, err, sizeof err));
    codecache_release(&cc);
    assert_false(codecache_init_segments(&cc, 0, 1, err, sizeof err));
}

/* ---- 2. Stub marks ------------------------------------------------------------------------------ */

static void stub_marks_and_lookup_by_pc(void **state)
{
    (void)state;
    codecache cc;
    char err[256];
    assert_true(codecache_init(&cc, 1000, err, sizeof err)); /* less than a page: the capacity counts */
    assert_int_equal(cc.capacity, 1000);
    size_t room;
    uint8_t *a = codecache_begin_stub(&cc, &room);
    assert_int_equal(room, 1000);
    const stub_mark *ma = codecache_end_stub(&cc, "first", "gpr", 0, 100);
    uint8_t *b = codecache_begin_stub(&cc, &room);
    assert_ptr_equal(b, a + 128); /* the next CODECACHE_STUB_ALIGNMENT boundary */
    assert_int_equal(room, 1000 - 128);
    const stub_mark *mb = codecache_end_stub(&cc, "second", "simd", 8, 40);
    assert_non_null(ma);
    assert_non_null(mb);
    assert_string_equal(mb->name, "second");
    assert_string_equal(mb->variant, "simd");
    assert_ptr_equal(mb->start, b);
    assert_ptr_equal(mb->entry, b + 8);
    assert_ptr_equal(mb->end, b + 40);

    static const struct {
        ptrdiff_t offset; /* from a */
        int stub;         /* 0 first, 1 second, -1 none */
    } lookups[] = {
        {-1, -1}, {0, 0}, {50, 0}, {99, 0}, {100, -1}, {127, -1}, {128, 1}, {167, 1}, {168, -1}, {4096, -1},
    };
    for (size_t i = 0; i < sizeof lookups / sizeof lookups[0]; i++) {
        const stub_mark *want = lookups[i].stub < 0 ? NULL : lookups[i].stub == 0 ? ma : mb;
        const void *pc = (const void *)((uintptr_t)a + (uintptr_t)lookups[i].offset);
        if (codecache_find(&cc, pc) != want)
            fail_msg("pc at offset %td: want stub %d", lookups[i].offset, lookups[i].stub);
    }
    assert_null(codecache_find(&cc, NULL));

    /* refusals: larger than the room, an entry outside the stub; nothing is recorded */
    assert_null(codecache_end_stub(&cc, "big", "gpr", 0, 1000));
    assert_null(codecache_end_stub(&cc, "bad_entry", "gpr", 40, 40));
    assert_int_equal(cc.nstubs, 2);
    codecache_release(&cc);

    /* capacity 0, and a mapping the address space cannot hold */
    assert_false(codecache_init(&cc, 0, err, sizeof err));
    assert_string_equal(err, "an empty code cache");
    assert_false(codecache_init(&cc, (size_t)1 << 62, err, sizeof err));
    tu_expect_text("error", err, TU_PREFIX, "cannot map a code cache of 4611686018427387904 bytes: ");
    assert_int_equal(cc.state, CODECACHE_UNMAPPED);
}

static void stub_marks_run_out(void **state)
{
    (void)state;
    codecache cc;
    char err[256];
    assert_true(codecache_init(&cc, 65536, err, sizeof err));
    for (int i = 0; i < CODECACHE_MAX_STUBS; i++)
        assert_non_null(codecache_end_stub(&cc, "s", "v", 0, 4));
    size_t room;
    assert_null(codecache_begin_stub(&cc, &room));
    assert_null(codecache_end_stub(&cc, "one_too_many", "v", 0, 4));
    assert_int_equal(cc.nstubs, CODECACHE_MAX_STUBS);
    codecache_release(&cc);
}

/* ---- 3. The crash handler ----------------------------------------------------------------------- */

typedef struct child_result {
    int status; /* waitpid's */
    char err[1024];
} child_result;

/* Run body(arg) in a child whose stderr is captured; it must not return. */
static child_result in_child(void (*body)(void *), void *arg)
{
    child_result r = {0};
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit no_core = {0, 0}; /* an abort() here is expected: no core file */
        setrlimit(RLIMIT_CORE, &no_core);
        dup2(fds[1], STDERR_FILENO);
        close(fds[0]);
        close(fds[1]);
        body(arg);
        _exit(99); /* body returned: no signal */
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t got;
    while ((got = read(fds[0], r.err + n, sizeof r.err - 1 - n)) > 0)
        n += (size_t)got;
    r.err[n] = '\0';
    close(fds[0]);
    assert_int_equal(waitpid(pid, &r.status, 0), pid);
    /* Under QEMU user mode (cross builds) the emulator itself reports a guest
       killed by a signal, after everything the guest wrote: not the guest's text. */
    char *qemu = strstr(r.err, "qemu: uncaught target signal ");
    if (qemu && (qemu == r.err || qemu[-1] == '\n') && strchr(qemu, '\n') == r.err + n - 1)
        *qemu = '\0';
    return r;
}

static void expect_signal(const child_result *r, int sig)
{
    if (!WIFSIGNALED(r->status) || WTERMSIG(r->status) != sig)
        fail_msg("want the child killed by signal %d; status 0x%x, stderr:\n%s", sig, r->status, r->err);
}

static void call_stub(void *arg) { as_function(arg)(); }

static void set_default_actions(void)
{
    /* what a process without minivm's handler does (a sanitizer's handler would print its own report) */
    signal(SIGILL, SIG_DFL);
    signal(SIGSEGV, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
}

/* minivm's crash handler over the code cache cc, in a child (status 98 when it cannot be installed) */
static void install_crash_handler(const codecache *cc)
{
    if (!crash_handler_install(cc, cpu_arch_ops_for(cpu_host_arch())))
        _exit(98);
}

/* A child's body: the default actions, the crash handler over the cache arg, then its first stub called. */
static void call_first_stub(void *arg)
{
    const codecache *cc = arg;
    set_default_actions();
    install_crash_handler(cc);
    call_stub((void *)(uintptr_t)cc->stubs[0].entry);
}

/* A child's body: the crash handler over an empty stub cache, watching the segmented cache arg,
   whose first segment is then called. */
static void call_first_segment(void *arg)
{
    const codecache *cc = arg;
    static codecache stubs; /* lives as long as the process: the handler reads it */
    char err[256];
    set_default_actions();
    if (!codecache_init(&stubs, 4096, err, sizeof err))
        _exit(97);
    install_crash_handler(&stubs);
    if (!crash_handler_watch(cc))
        _exit(96);
    call_stub((void *)(uintptr_t)cc->marks[0].entry);
}

static void crash_in_a_compiled_method_names_it(void **state)
{
    (void)state;
    codecache cc;
    char err[256];
    assert_true(codecache_init_segments(&cc, 1 << 16, 4, err, sizeof err));
    uint8_t *code = codecache_begin_segment(&cc, 16, err, sizeof err);
    assert_non_null(code);
    size_t fault_offset;
    size_t n = write_host_code(code, 16, FAULT_AFTER_ONE, &fault_offset);
    assert_non_null(codecache_end_segment(&cc, "T::f", 0, n, err, sizeof err));
    child_result r = in_child(call_first_segment, &cc);
    expect_signal(&r, SIGABRT);
    char want[256];
    snprintf(want, sizeof want, "# minivm: SIGILL (0x4) in compiled method T::f at offset 0x%04zx, pc=0x%016" PRIxPTR "\n",
             fault_offset, (uintptr_t)code + fault_offset);
    tu_expect_text("stderr", r.err, TU_PREFIX, want);
    codecache_release(&cc);
}

static void crash_in_a_stub_prints_its_line_and_registers_and_aborts(void **state)
{
    (void)state;
    codecache cc;
    size_t fault_offset;
    const stub_mark *m = host_stub(&cc, FAULT_AFTER_ONE, 0, &fault_offset);
    child_result r = in_child(call_first_stub, &cc);
    expect_signal(&r, SIGABRT); /* abort(): 134 in a shell, as HotSpot's fatal error */
    char want[256];
    snprintf(want, sizeof want, "# minivm: SIGILL (0x4) in stub test_stub (host) at offset 0x%04zx, pc=0x%016" PRIxPTR "\n",
             fault_offset, (uintptr_t)m->start + fault_offset);
    tu_expect_text("stderr", r.err, TU_PREFIX, want);
    /* then the registers, four a line: "#   rax=0x... rbx=0x..." (x86-64), "#   x0=0x..." (AArch64) */
    const char *regs = r.err + strlen(want);
    int lines = 0;
    for (const char *l = regs; *l; lines++) {
        const char *eol = strchr(l, '\n');
        if (!eol || strncmp(l, "#   ", 4) != 0 || !memchr(l, '=', (size_t)(eol - l)))
            fail_msg("register line %d malformed:\n%s", lines + 1, regs);
        l = eol + 1;
    }
#if defined(__x86_64__)
    assert_int_equal(lines, 4);
    tu_expect_text("stderr", regs, TU_PREFIX, "#   rax=0x");
#elif defined(__aarch64__)
    assert_int_equal(lines, 8);
    tu_expect_text("stderr", regs, TU_PREFIX, "#   x0=0x");
#endif
    codecache_release(&cc);
}

static void segv_outside_stubs(void *arg)
{
    (void)arg;
    /* a page that was mapped and no longer is: a real fault (si_code SEGV_MAPERR) */
    volatile uint8_t *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        _exit(97);
    munmap((void *)p, 4096);
    (void)*p;
}

static void segv_outside_stubs_default(void *arg)
{
    set_default_actions();
    install_crash_handler(arg);
    segv_outside_stubs(arg);
}

static void raised_segv_default(void *arg)
{
    set_default_actions();
    install_crash_handler(arg);
    raise(SIGSEGV); /* sent, not a fault (si_code SI_TKILL) */
}

static void program_handler(int sig) { _exit(40 + sig % 20); }

static void segv_outside_stubs_program_handler(void *arg)
{
    set_default_actions();
    signal(SIGSEGV, program_handler); /* installed before minivm's: the previous action */
    install_crash_handler(arg);
    segv_outside_stubs(arg);
}

static void faults_outside_stubs_reach_the_previous_action(void **state)
{
    (void)state;
    /* the faulting code of crash_in_a_stub_..., recorded without its faulting instruction */
    size_t fault_offset;
    codecache past;
    char err[256];
    assert_true(codecache_init(&past, 4096, err, sizeof err));
    size_t room;
    void *code = codecache_begin_stub(&past, &room);
    write_host_code(code, room, FAULT_AFTER_ONE, &fault_offset);
    assert_non_null(codecache_end_stub(&past, "test_stub", "host", 0, fault_offset));
    assert_true(codecache_seal(&past, true, err, sizeof err));

    static const struct {
        const char *name;
        void (*body)(void *);
        int signal; /* killed by it; 0: exited with status */
        int status;
    } cases[] = {
        /* the bytes are in the cache, but in no stub */
        {"SIGILL just past the stub: default action", call_first_stub, SIGILL, 0},
        {"SIGSEGV outside: default action", segv_outside_stubs_default, SIGSEGV, 0},
        {"raise(SIGSEGV): default action", raised_segv_default, SIGSEGV, 0},
        {"SIGSEGV outside: the program's handler", segv_outside_stubs_program_handler, 0, 40 + SIGSEGV % 20},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        child_result r = in_child(cases[i].body, &past);
        if (cases[i].signal)
            expect_signal(&r, cases[i].signal);
        else if (!WIFEXITED(r.status) || WEXITSTATUS(r.status) != cases[i].status)
            fail_msg("%s: want exit status %d, got 0x%x", cases[i].name, cases[i].status, r.status);
        if (r.err[0])
            fail_msg("%s: want nothing on stderr, got:\n%s", cases[i].name, r.err);
    }
    codecache_release(&past);
}

static void crash_line_format(void **state)
{
    (void)state;
    static uint8_t code[0x200];
    stub_mark m = {.name = "sha3_implCompressMB", .variant = "simd", .start = code, .entry = code,
                   .end = code + sizeof code};
    static const struct {
        int sig;
        size_t offset;
        const char *want; /* after "# minivm: ", before ", pc=" */
    } cases[] = {
        {SIGILL, 0x124, "SIGILL (0x4) in stub sha3_implCompressMB (simd) at offset 0x0124"},
        {SIGSEGV, 0, "SIGSEGV (0xb) in stub sha3_implCompressMB (simd) at offset 0x0000"},
        {SIGBUS, 0x1fc, "SIGBUS (0x7) in stub sha3_implCompressMB (simd) at offset 0x01fc"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[256], want[256];
        uintptr_t pc = (uintptr_t)code + cases[i].offset;
        size_t n = crash_format(buf, sizeof buf, cases[i].sig, &m, pc);
        snprintf(want, sizeof want, "# minivm: %s, pc=0x%016" PRIxPTR "\n", cases[i].want, pc);
        tu_expect_text("line", buf, TU_EXACT, want);
        assert_int_equal(n, strlen(want));
    }
    /* truncated, still terminated */
    char small[12];
    assert_int_equal(crash_format(small, sizeof small, SIGILL, &m, (uintptr_t)code), 11);
    assert_string_equal(small, "# minivm: S");
}

/* ---- 4. Generation ------------------------------------------------------------------------------ */

static bool host_is_aarch64(void)
{
#if defined(__aarch64__)
    return true;
#else
    return false;
#endif
}

/* The CPU generated stubs run on: the host when it is AArch64, else NULL
   (generated to be printed only, as in what-if mode). */
static const cpu_info *aarch64_host(void)
{
    static cpu_info host;
    if (!host_is_aarch64() || !cpu_detect_host(&host))
        return NULL;
    return &host;
}

#define HOST_LACKS_SHA3_WARNING                                                                          \
    "minivm 64-Bit VM warning: The SIMD SHA-3 stub needs sha3, which this host's CPU does not have: the GPR " \
    "stub runs instead (UseSIMDForSHA3Intrinsic follows the emulated CPU).\n"

/* The flags as the AArch64 ergonomics could leave them. */
static void aarch64_flags(bool sha3, bool simd)
{
    flags_init(FLAG_ARCH_AARCH64);
    FLAG_SET_DEFAULT(UseSHA3Intrinsics, sha3);
    FLAG_SET_DEFAULT(UseSIMDForSHA3Intrinsic, simd);
}

/* stubs_generate_into's warnings, captured. */
static FILE *warnings;

static int setup_warnings(void **state)
{
    (void)state;
    warnings = tmpfile();
    vm_warning_stream(warnings);
    return warnings ? 0 : -1;
}

static int teardown_warnings(void **state)
{
    (void)state;
    vm_warning_stream(stderr);
    fclose(warnings);
    return 0;
}

static const char *take_warnings(void)
{
    static char text[1024];
    fflush(warnings);
    rewind(warnings);
    size_t n = fread(text, 1, sizeof text - 1, warnings);
    text[n] = '\0';
    rewind(warnings);
    if (ftruncate(fileno(warnings), 0) != 0)
        fail_msg("cannot truncate the warnings file");
    return text;
}

static void generates_both_sha3_stubs_in_each_variant(void **state)
{
    (void)state;
    for (int simd = 0; simd <= 1; simd++) {
        const char *variant = simd ? "simd" : "gpr";
        aarch64_flags(true, simd);
        codecache cc;
        stub_routines table = {0};
        const cpu_info *host = aarch64_host();
        bool executable = host != NULL;
        /* SIMD on an AArch64 host without sha3 (QEMU's cortex-a53 ...): GPR runs instead */
        bool downgraded = simd && host && !cpu_has(host, A64_CPU_SHA3);
        if (downgraded)
            variant = "gpr";
        assert_true(stubs_generate_into(&a64_stub_ops, &cc, STUBS_CODE_CACHE_CAPACITY, &table, host));
        tu_expect_text("warnings", take_warnings(), TU_EXACT, ""); /* the launcher notes a fallback later */
        if (downgraded)
            assert_string_equal(table.choice[STUB_FAMILY_SHA3].missing, "sha3");
        else
            assert_null(table.choice[STUB_FAMILY_SHA3].missing);
        assert_true(FLAG(UseSHA3Intrinsics));
        assert_int_equal(cc.state, executable ? CODECACHE_EXECUTABLE : CODECACHE_READ_ONLY);
        /* the SIMD variant has SHA3Parallel's double_keccak too (after the two, in stub id order) */
        assert_int_equal(cc.nstubs, strcmp(variant, "simd") == 0 ? 3 : 2);
        if (strcmp(variant, "simd") == 0)
            assert_string_equal(cc.stubs[2].name, "double_keccak");
        static const char *const names[2] = {"sha3_implCompress", "sha3_implCompressMB"};
        for (int i = 0; i < 2; i++) {
            const stub_mark *m = &cc.stubs[i];
            assert_string_equal(m->name, names[i]);
            assert_string_equal(m->variant, variant);
            assert_true(m->end - m->start > 100 * 4);
            assert_int_equal((m->end - m->start) % 4, 0);
            assert_ptr_equal(codecache_find(&cc, m->entry), m);
        }
        if (executable) {
            /* the table points at the marks, names them, and the single-block stub works */
            assert_ptr_equal((const void *)(uintptr_t)table.entry[STUB_ID_sha3_implCompress].fn, cc.stubs[0].entry);
            assert_ptr_equal((const void *)(uintptr_t)table.entry[STUB_ID_sha3_implCompressMB].fn, cc.stubs[1].entry);
            assert_string_equal(table.entry[STUB_ID_sha3_implCompress].name, "sha3_implCompress");
            assert_string_equal(table.entry[STUB_ID_sha3_implCompressMB].variant, variant);
            if (strcmp(variant, "gpr") == 0) { /* GPR runs on every CPU; SIMD needs sha3 (checkasm covers it) */
                uint8_t block[136];
                int64_t st[25] = {0};
                uint64_t ref[25] = {0};
                for (size_t k = 0; k < sizeof block; k++)
                    block[k] = (uint8_t)(k * 7 + 1);
                STUB_FN(&table, sha3_implCompress)(block, st, 136);
                sha3_ref_compress(ref, block, 136);
                assert_memory_equal(st, ref, sizeof ref);
            }
        } else {
            /* what-if: generated to be printed, nothing in the table */
            assert_null(table.entry[STUB_ID_sha3_implCompress].fn);
            assert_null(table.entry[STUB_ID_sha3_implCompressMB].fn);
        }
        codecache_release(&cc);
    }
}

/*
 * The flags follow an emulated CPU with sha3 (-XX:EmulateCPU=apple-m4) and ask
 * for the SIMD stub; the host has no sha3: the GPR stub is generated and, on
 * AArch64, runs, and the table names the missing feature (the launcher's one
 * warning; test emulated_cpus checks it). Hosts are described here, so this
 * runs everywhere (on x86-64 the stubs are generated, not run).
 */
static void variant_the_host_lacks_is_never_generated(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        bool host_sha3, simd;
        const char *variant, *missing;
    } cases[] = {
        {"simd asked, host without sha3", false, true, "gpr", "sha3"},
        {"simd asked, host with sha3", true, true, "simd", NULL},
        {"gpr asked, host without sha3", false, false, "gpr", NULL},
        {"gpr asked, host with sha3", true, false, "gpr", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cpu_info host;
        memset(&host, 0, sizeof host);
        const cpu_info *real = aarch64_host();
        if (real)
            host = *real;
        host.arch = CPU_ARCH_AARCH64;
        host.features = cases[i].host_sha3 ? host.features | UINT64_C(1) << A64_CPU_SHA3
                                           : host.features & ~(UINT64_C(1) << A64_CPU_SHA3);
        /* a described host with sha3 that the real one lacks must not run SIMD words */
        bool runs = real && (!cases[i].host_sha3 || cpu_has(real, A64_CPU_SHA3));
        aarch64_flags(true, cases[i].simd);
        codecache cc;
        stub_routines table = {0};
        assert_true(stubs_generate_into(&a64_stub_ops, &cc, STUBS_CODE_CACHE_CAPACITY, &table, &host));
        tu_expect_text("warnings", take_warnings(), TU_EXACT, "");
        const char *missing = table.choice[STUB_FAMILY_SHA3].missing;
        if (cases[i].missing ? !missing || strcmp(missing, cases[i].missing) != 0 : missing != NULL)
            fail_msg("%s: missing feature %s, want %s", cases[i].name, missing ? missing : "(none)",
                     cases[i].missing ? cases[i].missing : "(none)");
        assert_true(FLAG(UseSHA3Intrinsics));
        assert_int_equal(FLAG(UseSIMDForSHA3Intrinsic), cases[i].simd); /* the flags keep the emulated CPU's */
        assert_int_equal(cc.nstubs, strcmp(cases[i].variant, "simd") == 0 ? 3 : 2);
        for (int s = 0; s < 2; s++)
            assert_string_equal(cc.stubs[s].variant, cases[i].variant);
        assert_string_equal(table.entry[STUB_ID_sha3_implCompressMB].variant, cases[i].variant);
        if (runs) {
            uint8_t block[2 * 72];
            int64_t st[25] = {0};
            uint64_t ref[25] = {0};
            for (size_t k = 0; k < sizeof block; k++)
                block[k] = (uint8_t)(k * 13 + 5);
            assert_int_equal(STUB_FN(&table, sha3_implCompressMB)(block, st, 72, 0, 72), 144);
            sha3_ref_compress(ref, block, 72);
            sha3_ref_compress(ref, block + 72, 72);
            assert_memory_equal(st, ref, sizeof ref);
        }
        codecache_release(&cc);
    }
}

#define FAILED_WARNING_HEAD "minivm 64-Bit VM warning: Cannot generate the SHA-3 stubs: "
#define FAILED_WARNING_TAIL ". SHA-3 runs interpreted (UseSHA3Intrinsics is off).\n"

static void generation_failure_warns_once_and_runs_interpreted(void **state)
{
    (void)state;
    /* room for the first GPR stub and 4 words of the second: learnt from a generation that fits */
    aarch64_flags(true, false);
    codecache fits;
    stub_routines unused = {0};
    assert_true(stubs_generate_into(&a64_stub_ops, &fits, STUBS_CODE_CACHE_CAPACITY, &unused, NULL));
    size_t second_at = (size_t)(fits.stubs[1].start - fits.base);
    codecache_release(&fits);

    static const struct {
        const char *name;
        size_t capacity; /* 1: second_at + 16 */
        bool simd;
        const char *why; /* between the warning's head and tail */
    } cases[] = {
        {"cache too small for the first stub", 64, false, "sha3_implCompress (gpr): code buffer full (16 words)"},
        {"cache too small for the first stub (simd)", 256, true,
         "sha3_implCompress (simd): code buffer full (64 words)"},
        {"room for 4 words of the second stub", 1, false, "sha3_implCompressMB (gpr): code buffer full (4 words)"},
        {"room for the first stub only", 2, false, "sha3_implCompressMB (gpr): the code cache is full"},
        {"nothing at all", 0, false, "an empty code cache"},
        {"no mapping", (size_t)1 << 62, true, "cannot map a code cache of 4611686018427387904 bytes: "},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t capacity = cases[i].capacity == 1   ? second_at + 16
                          : cases[i].capacity == 2 ? second_at
                                                   : cases[i].capacity;
        aarch64_flags(true, cases[i].simd);
        codecache cc;
        stub_routines table = {0};
        /* the failures of the variant asked for: generated for printing where the host could not run it */
        const cpu_info *host = aarch64_host();
        if (host && cases[i].simd && !cpu_has(host, A64_CPU_SHA3))
            host = NULL;
        if (stubs_generate_into(&a64_stub_ops, &cc, capacity, &table, host))
            fail_msg("%s: generation succeeded", cases[i].name);
        const char *w = take_warnings();
        char want[512];
        snprintf(want, sizeof want, FAILED_WARNING_HEAD "%s", cases[i].why);
        tu_expect_text("warnings", w, TU_PREFIX, want);
        /* one warning, one line */
        size_t len = strlen(w);
        assert_true(len > strlen(FAILED_WARNING_TAIL));
        assert_string_equal(w + len - strlen(FAILED_WARNING_TAIL), FAILED_WARNING_TAIL);
        assert_ptr_equal(strchr(w, '\n'), w + len - 1);
        assert_false(FLAG(UseSHA3Intrinsics)); /* interpreted, and PrintFlagsFinal says so */
        assert_null(table.entry[STUB_ID_sha3_implCompress].fn);
        assert_null(table.entry[STUB_ID_sha3_implCompressMB].fn);
        assert_int_equal(cc.state, CODECACHE_UNMAPPED);
        assert_int_equal(cc.nstubs, 0);
    }
}

/* ---- 5. -XX:+PrintStubCode ---------------------------------------------------------------------- */

#define UNLOCK "-XX:+UnlockDiagnosticVMOptions"
#define VERSION_TEXT TU_VERSION

/* Check one stub's listing starting at *s: header, size/4 instruction lines, an empty line. */
static void expect_stub_listing(const char **s, const char *name, bool disassembled)
{
    char head[128];
    snprintf(head, sizeof head, "StubRoutines::%s (", name);
    if (strncmp(*s, head, strlen(head)) != 0)
        fail_msg("want a header \"%s...\" at:\n%.300s", head, *s);
    unsigned long long lo, hi;
    size_t size;
    char variant[16];
    if (sscanf(*s + strlen(head), "%15[a-z]) [0x%llx, 0x%llx] (%zu bytes)", variant, &lo, &hi, &size) != 4)
        fail_msg("malformed header:\n%.200s", *s);
    assert_int_equal(hi - lo, size);
    assert_int_equal(size % 4, 0);
    *s = strchr(*s, '\n') + 1;
    for (size_t off = 0; off < size; off += 4) {
        /* "0x%04x:  %08x  " exactly: the offset, two blanks, the word, two blanks, the text */
        char want_offset[32];
        snprintf(want_offset, sizeof want_offset, "0x%04zx:  ", off);
        const int text_at = 19;
        bool ok = strncmp(*s, want_offset, 9) == 0 && strncmp(*s + 17, "  ", 2) == 0;
        for (int k = 9; ok && k < 17; k++)
            ok = strchr("0123456789abcdef", (*s)[k]) != NULL && (*s)[k] != '\0';
        if (!ok)
            fail_msg("%s: want the line of offset 0x%04zx as \"0x%%04x:  %%08x  text\", got:\n%.100s", name, off, *s);
        const char *eol = strchr(*s, '\n');
        assert_non_null(eol);
        bool has_text = eol > *s + text_at;
        if (has_text != disassembled)
            fail_msg("%s: want %s text at offset 0x%04zx, got:\n%.*s", name, disassembled ? "some" : "no", off,
                     (int)(eol - *s), *s);
        if (disassembled && strncmp(*s + text_at, "<invalid>", 9) == 0)
            fail_msg("%s: an invalid word at offset 0x%04zx", name, off);
        *s = eol + 1;
    }
    assert_int_equal(**s, '\n');
    (*s)++;
}

static void print_stub_code_what_if(void **state)
{
    (void)state;
    /* the "done means": on an AArch64 host the same line generates executable stubs */
    /* -UseSHA512Intrinsics: an AArch64 host without sha512 (QEMU's cortex-a53) would run no SHA-512
       stub here, and say so; every other stub runs on every AArch64 CPU QEMU models */
    const char *argv[] = {UNLOCK, "-XX:EmulateCPU=neoverse-v1", "-XX:+UseSHA3Intrinsics", "-XX:-UseSHA512Intrinsics",
                          "-XX:+PrintStubCode", "-version", NULL};
    tu_result r = tu_run(argv, NULL, 60);
    assert_int_equal(r.status, 0);
    tu_expect_text("stderr", r.err, TU_EXACT, VERSION_TEXT);
    const char *s = r.out;
    /* neoverse-v1 has sha1 and sha2 too: HotSpot's defaults turn their intrinsics on, and MD5's on every CPU */
    static const char *const stubs[] = {"sha3_implCompress",   "sha3_implCompressMB",   "sha1_implCompress",
                                        "sha1_implCompressMB", "sha256_implCompress",   "sha256_implCompressMB",
                                        "md5_implCompress",    "md5_implCompressMB"};
    for (size_t i = 0; i < sizeof stubs / sizeof stubs[0]; i++)
        expect_stub_listing(&s, stubs[i], stub_disasm_available());
    tu_expect_text("stdout", s, TU_EXACT, ""); /* nothing else */
    tu_expect_text("stdout", r.out, TU_CONTAINS, "StubRoutines::sha3_implCompress (gpr) [0x");
    if (stub_disasm_available())
        tu_expect_text("stdout", r.out, TU_CONTAINS, "  stp     x29, x30, [sp, #-16]!\n");
    tu_result_free(&r);

    /* the SIMD variant, with its SHA3 instructions; an AArch64 host without sha3
       generates (and prints) the GPR stub it runs instead */
    const cpu_info *host = aarch64_host();
    const bool simd_runs = !host || cpu_has(host, A64_CPU_SHA3);
    const char *simd[] = {UNLOCK, "-XX:EmulateCPU=neoverse-v1", "-XX:+UseSHA3Intrinsics",
                          "-XX:+UseSIMDForSHA3Intrinsic", "-XX:+PrintStubCode", "-version", NULL};
    r = tu_run(simd, NULL, 60);
    assert_int_equal(r.status, 0);
    s = r.out;
    expect_stub_listing(&s, "sha3_implCompress", stub_disasm_available());
    expect_stub_listing(&s, "sha3_implCompressMB", stub_disasm_available());
    tu_expect_text("stdout", r.out, TU_CONTAINS,
                   simd_runs ? "StubRoutines::sha3_implCompressMB (simd) [0x" : "StubRoutines::sha3_implCompressMB (gpr) [0x");
    tu_expect_text("stderr", r.err, simd_runs ? TU_EXACT : TU_PREFIX,
                   simd_runs ? VERSION_TEXT : HOST_LACKS_SHA3_WARNING);
    if (stub_disasm_available())
        tu_expect_text("stdout", r.out, simd_runs ? TU_CONTAINS : TU_LACKS, "  eor3    v");
    tu_result_free(&r);
}

/*
 * x86-64 code (variable length): one line per instruction, "0x%04x:  <bytes>  <text>",
 * the bytes padded to 45 columns; the lines' bytes add up to the stub's size and each
 * line's offset is the previous one plus its bytes. Printed on every host (what-if on
 * AArch64), with LLVM's text where the build has it.
 */
static void print_stub_code_x86_64(void **state)
{
    (void)state;
    /* -UseSHA: the SHA-1/SHA-2 stubs off, the SHA-3 rule ignores it (JDK 24's); -UseMD5Intrinsics MD5's */
    const char *argv[] = {UNLOCK, "-XX:EmulateCPU=zen3", "-XX:-UseSHA", "-XX:-UseMD5Intrinsics", "-XX:+UseSHA3Intrinsics",
                          "-XX:+PrintStubCode", "-version", NULL};
    tu_result r = tu_run(argv, NULL, 60);
    assert_int_equal(r.status, 0);
    const char *s = r.out;
    for (int stub = 0; stub < 2; stub++) {
        unsigned long long lo, hi;
        size_t size;
        char name[64], variant[16];
        if (sscanf(s, "StubRoutines::%63s (%15[a-z0-9-]) [0x%llx, 0x%llx] (%zu bytes)", name, variant, &lo, &hi,
                   &size) != 5)
            fail_msg("malformed header:\n%.200s", s);
        assert_string_equal(name, stub == 0 ? "sha3_implCompress" : "sha3_implCompressMB");
        assert_string_equal(variant, "gpr"); /* zen3: the GPR stub with BMI */
        s = strchr(s, '\n') + 1;
        size_t off = 0;
        while (*s != '\n') {
            unsigned at;
            if (sscanf(s, "0x%4x:  ", &at) != 1 || at != off)
                fail_msg("want a line at offset 0x%04zx, got:\n%.120s", off, s);
            const char *bytes = s + 9, *eol = strchr(s, '\n');
            size_t n = 0;
            while (bytes + 2 < eol && bytes[0] != ' ' && bytes[2] == ' ') {
                n++;
                bytes += 3;
            }
            if (n == 0 || n > 15)
                fail_msg("line at 0x%04zx has %zu bytes:\n%.120s", off, n, s);
            if (stub_disasm_available() && eol - s <= 9 + 45 + 1)
                fail_msg("line at 0x%04zx has no disassembly:\n%.120s", off, s);
            off += n;
            s = eol + 1;
        }
        assert_int_equal(off, size);
        s++;
    }
    tu_expect_text("stdout", s, TU_EXACT, "");
    if (stub_disasm_available())
        tu_expect_text("stdout", r.out, TU_CONTAINS, "0x0000:  55                                            pushq   %rbp\n");
    tu_result_free(&r);
}

static void print_stub_code_without_stubs_prints_nothing(void **state)
{
    (void)state;
    static const struct {
        const char *argv[8];
    } cases[] = {
        {{UNLOCK, "-XX:EmulateCPU=neoverse-v1", "-XX:-UseSHA", "-XX:-UseSHA3Intrinsics", "-XX:-UseMD5Intrinsics",
          "-XX:+PrintStubCode", "-version"}},
        {{UNLOCK, "-XX:EmulateCPU=neoverse-v1", "-XX:+UseSHA3Intrinsics", "-Xint", "-XX:+PrintStubCode", "-version"}},
        {{UNLOCK, "-XX:EmulateCPU=zen3", "-XX:-UseSHA", "-XX:-UseSHA3Intrinsics", "-XX:-UseMD5Intrinsics",
          "-XX:+PrintStubCode", "-version"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tu_result r = tu_run(cases[i].argv, NULL, 60);
        assert_int_equal(r.status, 0);
        tu_expect_text("stdout", r.out, TU_EXACT, "");
        tu_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest cache[] = {
        cmocka_unit_test(code_cache_is_never_writable_and_executable),
        cmocka_unit_test(hand_encoded_function_runs_from_the_cache),
        cmocka_unit_test(segments_are_writable_then_executable_never_both),
        cmocka_unit_test(stub_marks_and_lookup_by_pc),
        cmocka_unit_test(stub_marks_run_out),
        cmocka_unit_test(crash_in_a_stub_prints_its_line_and_registers_and_aborts),
        cmocka_unit_test(crash_in_a_compiled_method_names_it),
        cmocka_unit_test(faults_outside_stubs_reach_the_previous_action),
        cmocka_unit_test(crash_line_format),
    };
    const struct CMUnitTest generation[] = {
        cmocka_unit_test(generates_both_sha3_stubs_in_each_variant),
        cmocka_unit_test(generation_failure_warns_once_and_runs_interpreted),
        cmocka_unit_test(variant_the_host_lacks_is_never_generated),
    };
    const struct CMUnitTest cli[] = {
        cmocka_unit_test(print_stub_code_what_if),
        cmocka_unit_test(print_stub_code_without_stubs_prints_nothing),
        cmocka_unit_test(print_stub_code_x86_64),
    };
    int failed = cmocka_run_group_tests_name("code cache", cache, NULL, NULL);
    failed += cmocka_run_group_tests_name("generation", generation, setup_warnings, teardown_warnings);
    failed += cmocka_run_group_tests_name("PrintStubCode", cli, NULL, NULL);
    return failed;
}
