/*
 * tests/sha3_driver.c — see sha3_driver.h.
 */
#include "sha3_driver.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ergonomics_hook.h"
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
