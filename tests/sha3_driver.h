/*
 * tests/sha3_driver.h — driving the SHA-3 library through tests/data/Sha3Test.mva
 * with vm_call, shared by test_sha3.c and test_intrinsics.c: the test messages,
 * the program and its methods, byte[] arguments and results, exception texts,
 * the calls Sha3Test.hash and SHA3.getInstance, and starting the stubs as the
 * launcher does. Every helper fails the running cmocka test on an error.
 */
#ifndef MINIVM_TESTS_SHA3_DRIVER_H
#define MINIVM_TESTS_SHA3_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stub_arch.h"
#include "stubroutines.h"
#include "vm.h"

/* The next value of the tests' pseudo-random sequence (a 64-bit LCG; 31 bits out). */
uint64_t sd_rng_next(uint64_t *s);

/* buf[0..n) := the low bytes of sd_rng_next from seed: deterministic test messages. */
void sd_fill_messages(uint8_t *buf, size_t n, uint64_t seed);

/* tests/data/Sha3Test.mva, loaded; NULL (the reason on stderr) when it does not load. */
vm_program *sd_load(void);

/* The method qname of p; fails the test when there is none. */
const vm_method *sd_method(const vm_program *p, const char *qname);

/* A new byte[] in vm with a copy of b[0..n); fails the test when vm throws. */
vm_obj *sd_new_bytes(vm_t *vm, const uint8_t *b, size_t n);

/* vm's pending exception as "class: message" (with the stack trace below it
   when with_trace), in a static buffer. */
const char *sd_exc_text(const vm_t *vm, bool with_trace);

/* vm_call(vm, m, args); fails the test with ctx on an exception; returns the result. */
vm_value sd_call(vm_t *vm, const char *ctx, const vm_method *m, const vm_value *args);

/* Copy the byte[] result r (not rooted: no allocation before this) into out,
   at most cap bytes; returns its length. */
size_t sd_result_bytes(const char *ctx, vm_value r, uint8_t *out, size_t cap);

/* hash = Sha3Test.hash(alg, msg, chunk, outLen) called in vm with msg[0..len);
   the digest (at most cap bytes) into out; returns its length. */
size_t sd_hash(vm_t *vm, const vm_method *hash, const char *ctx, int alg, const uint8_t *msg, size_t len, int chunk,
               int outlen, uint8_t *out, size_t cap);

/* get_instance = SHA3.getInstance called in vm with the name name[0..len): the
   digest, NULL for an unknown name. */
vm_obj *sd_get_instance(vm_t *vm, const vm_method *get_instance, const char *ctx, const char *name, size_t len);

/* The stubs/ part started as the launcher does, with the -XX options opts
   (without "-XX:"; unknown ones, such as another architecture's, are ignored):
   the stub table, NULL after a flag or ergonomics error (on stderr). */
const stub_routines *sd_start_stubs(const char *const *opts, size_t nopts);

/*
 * `--stubs [NAME]` of test_sha3 and test_sha2: run(t, v) once for every
 * variant v of the families (the host architecture's variant table, so a
 * new variant needs no new test) or only the one called NAME, each in a
 * child process that starts the stubs with v's settings (its -XX: options,
 * as the launcher would) and checks that both of the family's entries are v
 * (a row whose settings do not select it fails). A variant whose features
 * the host lacks is skipped, never passed. One line per variant on stdout;
 * returns 0 when every variant that runs here passed, 77 when none could
 * run, 1 on a failure or a usage error.
 */
int sd_run_per_variant(const char *tool, int argc, char **argv, const stub_family *families, size_t nfamilies,
                       int (*run)(const stub_routines *t, const stub_variant *v));

#endif
