/*
 * tests/sha3_driver.c — see sha3_driver.h.
 */
#include "sha3_driver.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu.h"
#include "stubs_startup.h"
#include "flags.h"
#include "testutil.h"

uint64_t sd_rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

void sd_fill_messages(uint8_t *buf, size_t n, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < n; i++)
        buf[i] = (uint8_t)sd_rng_next(&s);
}

vm_program *sd_load(void)
{
    char err[1024];
    vm_program *p = vm_load_file(tu_source_path("tests/data/Sha3Test.mva"), err, sizeof err);
    if (!p)
        fprintf(stderr, "tests/data/Sha3Test.mva did not load: %s\n", err);
    return p;
}

const vm_method *sd_method(const vm_program *p, const char *qname)
{
    const vm_method *m = vm_find_method(p, qname);
    if (!m)
        fail_msg("no method %s", qname);
    return m;
}

vm_obj *sd_new_bytes(vm_t *vm, const uint8_t *b, size_t n)
{
    vm_obj *o = vm_new_array(vm, VM_T_BYTES, (int64_t)n);
    if (!o)
        fail_msg("vm_new_array(%zu): %s: %s", n, vm_exc_class(vm->exc), vm->exc_msg);
    if (n)
        memcpy(o->data, b, n);
    return o;
}

const char *sd_exc_text(const vm_t *vm, bool with_trace)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s: %s", vm->exc == VM_EXC_NAMED ? vm->exc_name : vm_exc_class(vm->exc),
             vm->exc_msg);
    if (with_trace) {
        size_t n = strlen(buf);
        snprintf(buf + n, sizeof buf - n, "\n%s", vm->exc_trace ? vm->exc_trace : "");
    }
    return buf;
}

vm_value sd_call(vm_t *vm, const char *ctx, const vm_method *m, const vm_value *args)
{
    vm_value r = {0};
    int st = vm_call(vm, m, args, &r);
    if (st != VM_OK)
        fail_msg("%s: %s returned status %d: %s", ctx, m->qname, st, sd_exc_text(vm, true));
    return r;
}

size_t sd_result_bytes(const char *ctx, vm_value r, uint8_t *out, size_t cap)
{
    if (!r.ref)
        fail_msg("%s: null result", ctx);
    if (r.ref->kind != VM_T_BYTES || (size_t)r.ref->length > cap)
        fail_msg("%s: result of kind %d, length %d", ctx, r.ref->kind, (int)r.ref->length);
    memcpy(out, r.ref->data, (size_t)r.ref->length);
    return (size_t)r.ref->length;
}

size_t sd_hash(vm_t *vm, const vm_method *hash, const char *ctx, int alg, const uint8_t *msg, size_t len, int chunk,
               int outlen, uint8_t *out, size_t cap)
{
    vm_obj *m = sd_new_bytes(vm, msg, len);
    vm_push_root(vm, &m);
    vm_value args[4] = {{.i = alg}, {.ref = m}, {.i = chunk}, {.i = outlen}};
    vm_value r = sd_call(vm, ctx, hash, args);
    vm_pop_roots(vm, 1);
    return sd_result_bytes(ctx, r, out, cap);
}

vm_obj *sd_get_instance(vm_t *vm, const vm_method *get_instance, const char *ctx, const char *name, size_t len)
{
    vm_obj *b = sd_new_bytes(vm, (const uint8_t *)name, len);
    vm_push_root(vm, &b);
    vm_value args[1] = {{.ref = b}};
    vm_value r = sd_call(vm, ctx, get_instance, args);
    vm_pop_roots(vm, 1);
    return r.ref;
}

const stub_routines *sd_start_stubs(const char *const *opts, size_t nopts)
{
    flags_init(flags_host_arch());
    for (size_t i = 0; i < nopts; i++)
        if (!flag_process_argument(opts[i], true, FLAG_ORIGIN_COMMAND_LINE, stderr)) /* another arch's: ignored */
            return NULL;
    if (stubs_select_cpu_and_ergonomics(stderr) != 0)
        return NULL;
    return stub_routines_table();
}

/* In the child's exit status: the variant's settings do not hold once the ergonomics ran. */
#define SD_NOT_SELECTED 77

/* In the child: start the stubs with v's settings, check the family's entries are v, run.
   The ergonomics may refuse a setting although the host has v's features (x86-64 allows
   BMI1/BMI2 only with AVX, as HotSpot): then v cannot be asked for here, SD_NOT_SELECTED. */
static int run_variant(const stub_variant *v, int (*run)(const stub_routines *t, const stub_variant *v))
{
    char options[256];
    stub_variant_options(v, options, sizeof options);
    const char *opts[4 + STUB_MAX_SETTINGS] = {"+UnlockDiagnosticVMOptions", "-PrintWarnings"};
    size_t n = 2;
    for (char *tok = strtok(options, " "); tok && n < sizeof opts / sizeof opts[0]; tok = strtok(NULL, " "))
        opts[n++] = tok + 4; /* without "-XX:" */
    const stub_routines *t = sd_start_stubs(opts, n);
    if (!t)
        return 1;
    if (!stub_variant_selected(v)) {
        fprintf(stderr, "%s: the ergonomics do not keep its settings on this CPU\n", v->name);
        return SD_NOT_SELECTED;
    }
    for (int id = 0; id < STUB_COUNT; id++) {
        const stub_entry *e = &t->entry[id];
        if (stub_variant_has(v, (stub_id)id) && (!e->fn || strcmp(e->variant, v->name) != 0)) {
            fprintf(stderr, "%s: its settings link %s (%s), not it\n", v->name, e->fn ? e->variant : "no stub",
                    stub_descs[id].name);
            return 1;
        }
    }
    return run(t, v);
}

int sd_run_per_variant(const char *tool, int argc, char **argv, const stub_family *families, size_t nfamilies,
                       int (*run)(const stub_routines *t, const stub_variant *v))
{
    if (argc > 3 || strcmp(argv[1], "--stubs") != 0) {
        fprintf(stderr, "usage: %s [--stubs [VARIANT]]\n", tool);
        return 1;
    }
    const char *only = argc == 3 ? argv[2] : NULL;
    const stub_arch_ops *arch = stub_arch_ops_for(cpu_host_arch());
    cpu_info host;
    if (!arch || !cpu_detect_host(&host)) {
        printf("%s --stubs: no stubs for this host's architecture: skipped\n", tool);
        return 77;
    }
    int ran = 0, failed = 0, listed = 0;
    for (size_t i = 0; i < arch->nvariants; i++) {
        const stub_variant *v = &arch->variants[i];
        bool in = false;
        for (size_t f = 0; f < nfamilies; f++)
            in |= v->family == families[f];
        if (!in || (only && strcmp(only, v->name) != 0))
            continue;
        listed++;
        const char *family = stub_family_descs[v->family].display;
        uint64_t missing = v->features & ~host.features;
        if (missing) {
            printf("%s --stubs: %s %s: skipped (the host lacks %s)\n", tool, family, v->name,
                   cpu_first_feature_name(arch->arch, missing));
            continue;
        }
        printf("%s --stubs: %s %s: running\n", tool, family, v->name);
        fflush(stdout);
        fflush(stderr);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0)
            _exit(run_variant(v, run));
        int status;
        while (waitpid(pid, &status, 0) < 0)
            ;
        if (WIFEXITED(status) && WEXITSTATUS(status) == SD_NOT_SELECTED) {
            printf("%s --stubs: %s %s: skipped (the ergonomics refuse its settings on this CPU)\n", tool, family,
                   v->name);
            continue;
        }
        bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        printf("%s --stubs: %s %s: %s\n", tool, family, v->name, ok ? "passed" : "FAILED");
        ran++;
        failed += !ok;
    }
    if (only && !listed) {
        fprintf(stderr, "%s --stubs: no variant %s of these families on %s\n", tool, only,
                cpu_arch_name(arch->arch));
        return 1;
    }
    if (failed)
        return 1;
    return ran ? 0 : 77;
}
