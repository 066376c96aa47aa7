/*
 * tests/testutil.c — see testutil.h.
 */
#define _DEFAULT_SOURCE /* wait4 */
#include "testutil.h"

#include "jit.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

vm_program *tu_load(const char *src) { return tu_load_ex(src, 0); }

vm_program *tu_load_ex(const char *src, unsigned options)
{
    char err[1024];
    vm_program *p = vm_load_text_ex("<test>", src, strlen(src), options, err, sizeof err);
    if (!p)
        fail_msg("program did not load: %s\n--- program ---\n%s", err, src);
    return p;
}

const char *tu_load_error(const char *src)
{
    static char err[1024];
    vm_program *p = vm_load_text("<test>", src, strlen(src), err, sizeof err);
    if (p) {
        vm_program_free(p);
        return NULL;
    }
    return err;
}

const char *tu_mode(void)
{
    const char *m = getenv("MINIVM_MODE");
    return m && *m ? m : NULL;
}

void tu_vm_mode(vm_t *vm)
{
    const char *mode = tu_mode();
    if (!mode || !jit_available())
        return;
    if (strcmp(mode, "-Xcomp") != 0)
        fail_msg("MINIVM_MODE=%s: only -Xcomp (or nothing) is known", mode);
    jit_options o = {.threshold = 0, .osr = true};
    char err[256];
    if (!jit_attach(vm, &o, err, sizeof err))
        fail_msg("jit_attach: %s", err);
}

vm_t *tu_vm(const vm_program *p, size_t heap_max)
{
    char err[256];
    vm_options opt = {.heap_max = heap_max};
    vm_t *vm = vm_new(p, &opt, err, sizeof err);
    if (!vm)
        fail_msg("vm_new: %s", err);
    tu_vm_mode(vm);
    return vm;
}

vm_value tu_call_main(vm_t *vm, const char *qname)
{
    const vm_method *m = vm_find_method(vm->prog, qname);
    if (!m)
        fail_msg("no method %s", qname);
    vm_value result = {0};
    int st = vm_call(vm, m, NULL, &result);
    if (st != VM_OK)
        fail_msg("%s did not return (status %d): %s", qname, st, vm->exc_trace ? vm->exc_trace : "");
    return result;
}

static bool env_is_1(const char *name)
{
    const char *v = getenv(name);
    return v && strcmp(v, "1") == 0;
}

bool tu_sanitized(void) { return env_is_1("MINIVM_SANITIZED"); }

bool tu_emulated(void) { return env_is_1("MINIVM_EMULATED"); }

const char *tu_source_path(const char *rel)
{
    static char buf[4][4096];
    static int slot;
    const char *root = getenv("MINIVM_SOURCE_ROOT");
    char *b = buf[slot++ & 3];
    snprintf(b, sizeof buf[0], "%s/%s", root ? root : ".", rel);
    return b;
}

const char *tu_temp_file(const char *name, const char *text, size_t len)
{
    static char buf[4][4096];
    static int slot;
    char *b = buf[slot++ & 3];
    const char *tmp = getenv("TMPDIR");
    snprintf(b, sizeof buf[0], "%s/minivm-test-%ld-%s", tmp ? tmp : "/tmp", (long)getpid(), name);
    FILE *f = fopen(b, "wb");
    if (!f)
        fail_msg("cannot create %s: %s", b, strerror(errno));
    fwrite(text, 1, len, f);
    fclose(f);
    return b;
}

static void append(char **buf, size_t *len, size_t *cap, const char *data, size_t n)
{
    if (*len + n + 1 > *cap) {
        while (*len + n + 1 > *cap)
            *cap = *cap ? *cap * 2 : 4096;
        *buf = realloc(*buf, *cap);
        if (!*buf)
            abort();
    }
    memcpy(*buf + *len, data, n);
    *len += n;
    (*buf)[*len] = '\0';
}

static const char *minivm_path(void)
{
    const char *exe = getenv("MINIVM");
    if (!exe)
        fail_msg("MINIVM is not set (run through meson test)");
    return exe;
}

/* Under MINIVM_MODE=-Xcomp the version line says "compiled mode" where the tests expect the
   default mode's name: the one difference the mode is meant to make in what a test sees */
static void normalize(char *text)
{
    static const char from[] = "compiled mode)", to[] = TU_DEFAULT_MODE ")";
    for (char *at = text ? strstr(text, from) : NULL; at; at = strstr(at, from)) {
        size_t rest = strlen(at + sizeof from - 1);
        memmove(at + sizeof to - 1, at + sizeof from - 1, rest + 1);
        memcpy(at, to, sizeof to - 1);
        at += sizeof to - 1;
    }
}

static void tu_normalize_mode(tu_result *r)
{
    if (!tu_mode() || strcmp(TU_DEFAULT_MODE, "mixed mode") != 0)
        return;
    normalize(r->out);
    normalize(r->err);
}

/* Run args (args[0] through PATH) with stdin fed and stdout/stderr captured. */
static tu_result run_child(char **args, const char *stdin_data, int timeout_s);

tu_result tu_run(const char *const *argv, const char *stdin_data, int timeout_s)
{
    const char *exe = minivm_path();
    size_t argc = 0;
    while (argv[argc])
        argc++;
    /* MINIVM_WRAPPER (cross builds): words put before the launcher, e.g.
       "qemu-aarch64 -L /usr/aarch64-linux-gnu"; its first word goes through PATH. */
    char *wrapper = strdup(getenv("MINIVM_WRAPPER") ? getenv("MINIVM_WRAPPER") : "");
    size_t nwrap = 0;
    char **args = calloc(argc + 3 + strlen(wrapper) / 2 + 1, sizeof *args);
    if (!wrapper || !args)
        abort();
    for (char *save = NULL, *w = strtok_r(wrapper, " ", &save); w; w = strtok_r(NULL, " ", &save))
        args[nwrap++] = w;
    args[nwrap++] = (char *)exe;
    if (tu_mode()) /* the suite's mode first: an option the test gives comes later and wins */
        args[nwrap++] = (char *)tu_mode();
    for (size_t i = 0; i < argc; i++)
        args[nwrap + i] = (char *)argv[i];
    tu_result r = run_child(args, stdin_data, timeout_s);
    tu_normalize_mode(&r);
    free(args);
    free(wrapper);
    return r;
}

tu_result tu_run_shell(const char *script, const char *stdin_data, int timeout_s)
{
    const char *wrapper = getenv("MINIVM_WRAPPER") ? getenv("MINIVM_WRAPPER") : "";
    char mvm[8192];
    snprintf(mvm, sizeof mvm, "%s%s%s%s%s", wrapper, wrapper[0] ? " " : "", minivm_path(), tu_mode() ? " " : "",
             tu_mode() ? tu_mode() : "");
    setenv("MVM", mvm, 1);
    const char *root = getenv("MINIVM_SOURCE_ROOT");
    setenv("SRC", root ? root : ".", 1);
    char *args[] = {"sh", "-c", (char *)script, NULL};
    tu_result r = run_child(args, stdin_data, timeout_s);
    tu_normalize_mode(&r);
    return r;
}

tu_result tu_run_command(const char *const *args, const char *stdin_data, int timeout_s)
{
    return run_child((char **)args, stdin_data, timeout_s);
}

static tu_result run_child(char **args, const char *stdin_data, int timeout_s)
{
    tu_result r = {0};
    int in[2], out[2], err[2];
    if (pipe(in) || pipe(out) || pipe(err))
        fail_msg("pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0)
        fail_msg("fork: %s", strerror(errno));
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(in[0]); close(in[1]); close(out[0]); close(out[1]); close(err[0]); close(err[1]);
        signal(SIGPIPE, SIG_DFL); /* the parent ignores it; a child starts as from a shell */
        execvp(args[0], args);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    /* feed stdin and drain stdout/stderr together, so no pipe fills up */
    size_t in_len = stdin_data ? strlen(stdin_data) : 0, in_off = 0;
    int in_fd = in[1];
    if (!in_len) {
        close(in_fd);
        in_fd = -1;
    } else {
        fcntl(in_fd, F_SETFL, O_NONBLOCK);
    }
    size_t olen = 0, ocap = 0, elen = 0, ecap = 0;
    append(&r.out, &olen, &ocap, "", 0);
    append(&r.err, &elen, &ecap, "", 0);
    int open_fds = 2;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int killed = 0;
    signal(SIGPIPE, SIG_IGN);
    while (open_fds > 0 || in_fd >= 0) {
        struct pollfd pf[3] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}, {in_fd, POLLOUT, 0}};
        int n = poll(pf, in_fd >= 0 ? 3 : 2, 100);
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (!killed && now.tv_sec - start.tv_sec >= timeout_s) {
            kill(pid, SIGKILL);
            killed = 1;
        }
        if (n <= 0)
            continue;
        char buf[65536];
        for (int k = 0; k < 2; k++) {
            if (pf[k].fd < 0 || !(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(pf[k].fd, buf, sizeof buf);
            if (got > 0) {
                if (k == 0)
                    append(&r.out, &olen, &ocap, buf, (size_t)got);
                else
                    append(&r.err, &elen, &ecap, buf, (size_t)got);
            } else {
                close(pf[k].fd);
                if (k == 0)
                    out[0] = -1;
                else
                    err[0] = -1;
                open_fds--;
            }
        }
        if (in_fd >= 0 && (pf[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t put = write(in_fd, stdin_data + in_off, in_len - in_off);
            if (put > 0)
                in_off += (size_t)put;
            if (put < 0 || in_off == in_len) {
                close(in_fd);
                in_fd = -1;
            }
        }
    }
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
        ;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.maxrss_kib = ru.ru_maxrss;
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    r.secs = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    return r;
}

void tu_result_free(tu_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

char *tu_replace(const char *s, const tu_key *keys)
{
    size_t cap = strlen(s) + 1, len = 0;
    char *r = malloc(cap);
    assert_non_null(r);
    while (*s) {
        const char *text = s;
        size_t n = 1, skip = 1;
        for (const tu_key *k = keys; k->key; k++) {
            size_t kl = strlen(k->key);
            if (strncmp(s, k->key, kl) == 0) {
                text = k->value;
                n = strlen(k->value);
                skip = kl;
                break;
            }
        }
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            r = realloc(r, cap);
            assert_non_null(r);
        }
        memcpy(r + len, text, n);
        len += n;
        s += skip;
    }
    r[len] = '\0';
    return r;
}

char *tu_subst(const char *s, const char *file)
{
    return tu_replace(s, (const tu_key[]){{"@", file}, {NULL, NULL}});
}

void tu_expect_text(const char *what, const char *got, int mode, const char *want)
{
    int ok = mode == TU_EXACT    ? strcmp(got, want) == 0
             : mode == TU_PREFIX ? strncmp(got, want, strlen(want)) == 0
             : mode == TU_LACKS  ? strstr(got, want) == NULL
                                 : strstr(got, want) != NULL;
    if (!ok)
        fail_msg("%s %s\n--- expected ---\n%s\n--- got ---\n%s", what,
                 mode == TU_EXACT    ? "differs"
                 : mode == TU_PREFIX ? "does not start as expected"
                 : mode == TU_LACKS  ? "has a text it must not have"
                                     : "lacks the expected text",
                 want, got);
}

void tu_expect_text_keys(const char *what, const char *got, int mode, const char *want, const tu_key *keys)
{
    char *expanded = tu_replace(want, keys);
    tu_expect_text(what, got, mode, expanded);
    free(expanded);
}

void tu_expect_status(const tu_result *r, int status)
{
    if (r->status != status)
        fail_msg("exit status %d, expected %d\n--- stdout ---\n%.4000s\n--- stderr ---\n%.4000s", r->status, status,
                 r->out, r->err);
}

void tu_expect_run(const tu_result *r, int status, int out_mode, const char *out, int err_mode, const char *err,
                   const tu_key *keys)
{
    static const tu_key none[] = {{NULL, NULL}};
    tu_expect_status(r, status);
    tu_expect_text_keys("stdout", r->out, out_mode, out, keys ? keys : none);
    tu_expect_text_keys("stderr", r->err, err_mode, err, keys ? keys : none);
}

void tu_add_test(tu_group *g, const char *name, void (*fn)(void **state), void *state)
{
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 64;
        g->tests = realloc(g->tests, g->cap * sizeof *g->tests);
        if (!g->tests)
            abort();
    }
    g->tests[g->n++] = (struct CMUnitTest){name, fn, NULL, NULL, state};
}

void tu_add_rows(tu_group *g, const void *rows, size_t count, size_t size, size_t name_offset,
                 void (*fn)(void **state))
{
    for (size_t i = 0; i < count; i++) {
        const char *row = (const char *)rows + i * size;
        const char *name;
        memcpy(&name, row + name_offset, sizeof name);
        tu_add_test(g, name, fn, (void *)row);
    }
}

int tu_run_group(const char *name, tu_group *g, int (*setup)(void **state), int (*teardown)(void **state))
{
    int failed = _cmocka_run_group_tests(name, g->tests, g->n, setup, teardown);
    free(g->tests);
    *g = (tu_group){0};
    return failed;
}

void tu_run_cli(const tu_cli_run *run, int status, int out_mode, const char *out, int err_mode, const char *err)
{
    enum { MAX_FILES = 4, MAX_ARGS = 32 };
    char paths[MAX_FILES][4096] = {{0}};
    tu_key keys[MAX_FILES + 1] = {{NULL, NULL}};
    size_t nfiles = 0;
    for (const tu_key *f = run->files; f && f->key; f++, nfiles++) {
        assert_true(nfiles < MAX_FILES);
        if (f->value) {
            char fname[256];
            snprintf(fname, sizeof fname, "%s-%s", run->name, f->key + (f->key[0] == '@'));
            snprintf(paths[nfiles], sizeof paths[nfiles], "%s", tu_temp_file(fname, f->value, strlen(f->value)));
        }
        keys[nfiles] = (tu_key){f->key, paths[nfiles]};
    }
    char *argv[MAX_ARGS + 1] = {NULL};
    for (size_t i = 0; i < run->argc_max && run->argv[i]; i++) {
        assert_true(i < MAX_ARGS);
        argv[i] = strncmp(run->argv[i], "@src:", 5) == 0 ? strdup(tu_source_path(run->argv[i] + 5))
                                                          : tu_replace(run->argv[i], keys);
        assert_non_null(argv[i]);
    }
    char *env = run->env ? tu_replace(run->env, keys) : NULL;
    if (env)
        setenv("MINIVM_TOOL_OPTIONS", env, 1);
    tu_result r = tu_run((const char *const *)argv, run->in, 60);
    if (env)
        unsetenv("MINIVM_TOOL_OPTIONS");
    for (size_t i = 0; i < nfiles; i++)
        if (paths[i][0])
            unlink(paths[i]);
    tu_expect_run(&r, status, out_mode, out, err_mode, err, keys);
    for (size_t i = 0; argv[i]; i++)
        free(argv[i]);
    free(env);
    tu_result_free(&r);
}
