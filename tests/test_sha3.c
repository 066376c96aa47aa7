/*
 * tests/test_sha3.c — the SHA-3 family (suite 'sha3').
 *
 * Everything goes through the interpreted library (vm/lib/SHA3.mva,
 * DigestBase.mva), driven by the helpers in tests/data/Sha3Test.mva
 * through vm_call; the oracles are the NIST CAVP vectors (tests/data/nist/,
 * the CAVP SHA-3 response files) and OpenSSL's EVP (libcrypto).
 *
 *   (a) every vector of every .rsp file (one update, and pseudo-random
 *       update sizes), and the empty message for all six algorithms;
 *   (b) differential against OpenSSL: every message length 0..1000 and a
 *       set of multi-block lengths, each fed in one update, in updates of
 *       1, block-1 and block+1 bytes and of pseudo-random sizes; SHAKE with
 *       output lengths 0..1000 read by one squeeze and by successive
 *       squeezes; reuse of a digest object after reset / digest / squeeze;
 *   (c) the C reference (stubs/sha3_ref.c) against OpenSSL on the same
 *       inputs, one-shot and incremental, and sha3_ref_compress_multi;
 *   (d) the library's exceptions: bad ranges, digest() on an XOF, squeeze
 *       on a fixed-length digest, update after squeeze (SHAKE), unknown
 *       names.
 *
 * The calls into the VM (byte[] arguments, Sha3Test.hash, exception texts)
 * are tests/sha3_driver.c's, shared with test_intrinsics.c.
 *
 * The VM runs with a 256 KiB heap, so the collector runs often, also while
 * C holds objects (rooted with vm_push_root).
 *
 * `test_sha3 --stubs [VARIANT]` runs all of it once per SHA-3 variant of the host's
 * architecture (its variant table), in a child started with that variant's settings
 * (suite 'stubs': test sha3_stub_variants; tests/sha3_driver.c): a variant the host
 * cannot run, or whose settings the ergonomics refuse here, is reported skipped; it
 * fails when another stub than the variant links, or a digest is wrong.
 *
 * Under sanitizers (MINIVM_SANITIZED=1) the interpreter is slow: the
 * differential length sweep takes every 7th length (the multi-block
 * lengths and everything else run in full).
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "flags.h"
#include "sha3_driver.h"
#include "sha3_ref.h"
#include "stubroutines.h"
#include "testutil.h"
#include "vm.h"

/* --stubs: the stub table the VM links (set once in main), NULL for the bytecode */
static const stub_routines *linked_stubs;

/* ---- the algorithms --------------------------------------------------------- */

enum { SHA3_224, SHA3_256, SHA3_384, SHA3_512, SHAKE128, SHAKE256, NALGS };

typedef struct alg_info {
    const char *name;
    int bits;    /* sha3_ref_init's bits */
    int xof;
    int block;   /* the rate in bytes */
    int mdlen;   /* digest bytes; 0 for an XOF */
    const EVP_MD *(*evp)(void);
} alg_info;

static const alg_info ALGS[NALGS] = {
    {"SHA3-224", 224, 0, 144, 28, EVP_sha3_224}, {"SHA3-256", 256, 0, 136, 32, EVP_sha3_256},
    {"SHA3-384", 384, 0, 104, 48, EVP_sha3_384}, {"SHA3-512", 512, 0, 72, 64, EVP_sha3_512},
    {"SHAKE128", 128, 1, 168, 0, EVP_shake128},  {"SHAKE256", 256, 1, 136, 0, EVP_shake256},
};

/* SHAKE output lengths */
static const int OUTLENS[] = {0, 1, 31, 32, 64, 167, 168, 169, 500, 1000};
#define NOUTLENS ((int)(sizeof OUTLENS / sizeof OUTLENS[0]))
#define MAX_OUT 1000

#define MAX_MSG 65537

/* ---- messages and hex --------------------------------------------------------- */

static uint8_t msgbuf[MAX_MSG + 64]; /* deterministic pseudo-random bytes */

/* hex of up to 64 bytes ("..." after), in one of 4 static buffers */
static const char *hex(const uint8_t *b, size_t n)
{
    static char buf[4][64 * 2 + 8];
    static int slot;
    char *o = buf[slot++ & 3], *p = o;
    size_t m = n > 64 ? 64 : n;
    for (size_t i = 0; i < m; i++)
        p += sprintf(p, "%02x", b[i]);
    if (m < n)
        strcpy(p, "...");
    return o;
}

/* Decode hex text (s, n chars) into a malloc'ed buffer; *len gets the byte count. */
static uint8_t *from_hex(const char *s, size_t n, size_t *len)
{
    if (n % 2 || strspn(s, "0123456789abcdefABCDEF") < n)
        fail_msg("not hex bytes: '%.40s'", s);
    uint8_t *b = malloc(n / 2 + 1);
    assert_non_null(b);
    /* not sscanf: it measures the rest of s at every call, quadratic in the long vectors */
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n / 2; i++)
        b[i] = (uint8_t)((strchr(digits, tolower((unsigned char)s[2 * i])) - digits) << 4 |
                         (strchr(digits, tolower((unsigned char)s[2 * i + 1])) - digits));
    *len = n / 2;
    return b;
}

/* Fail with ctx when got != want. */
static void check_bytes(const char *ctx, const uint8_t *got, size_t gotlen, const uint8_t *want, size_t wantlen)
{
    if (gotlen != wantlen)
        fail_msg("%s: got %zu bytes, expected %zu", ctx, gotlen, wantlen);
    if (gotlen && memcmp(got, want, gotlen) != 0) {
        size_t i = 0;
        while (got[i] == want[i])
            i++;
        fail_msg("%s: first difference at byte %zu\n  got      %s\n  expected %s", ctx, i, hex(got, gotlen),
                 hex(want, wantlen));
    }
}

/* ---- OpenSSL ---------------------------------------------------------------------- */

static EVP_MD_CTX *evp_ctx;

static void evp_hash(int alg, const uint8_t *msg, size_t len, uint8_t *out, size_t outlen)
{
    const alg_info *a = &ALGS[alg];
    if (!EVP_DigestInit_ex(evp_ctx, a->evp(), NULL) || !EVP_DigestUpdate(evp_ctx, msg, len))
        fail_msg("OpenSSL %s: init/update failed", a->name);
    if (a->xof) {
        if (outlen > 0 && !EVP_DigestFinalXOF(evp_ctx, out, outlen))
            fail_msg("OpenSSL %s: EVP_DigestFinalXOF(%zu) failed", a->name, outlen);
    } else {
        unsigned int n = 0;
        if (!EVP_DigestFinal_ex(evp_ctx, out, &n) || n != (unsigned)a->mdlen)
            fail_msg("OpenSSL %s: EVP_DigestFinal_ex failed (%u bytes)", a->name, n);
    }
}

/* ---- the VM ------------------------------------------------------------------------ */

static vm_program *prog;
static vm_t *vm;
static const vm_method *m_hash, *m_squeeze_parts, *m_reused, *m_update, *m_update_after_squeeze, *m_digest_only,
    *m_squeeze_only, *m_compress, *m_compress_multi, *m_known, *m_get_instance, *m_parallel, *m_new_digest;

static int group_setup(void **state)
{
    (void)state;
    char err[1024];
    sd_fill_messages(msgbuf, sizeof msgbuf, 0x5eed);
    prog = sd_load();
    if (!prog)
        return -1;
    /* a small heap: frequent collections, also while C holds (rooted) objects */
    vm_options opt = {.heap_max = (size_t)256 << 10, .stubs = linked_stubs};
    tu_capture printed;
    if (linked_stubs) {
        opt.print_intrinsics = 1;
        opt.intrinsics_out = tu_capture_open(&printed);
    }
    vm = vm_new(prog, &opt, err, sizeof err);
    if (!vm) {
        fprintf(stderr, "vm_new: %s\n", err);
        return -1;
    }
    if (linked_stubs) {
        char *linked = tu_capture_close(&printed);
        /* the candidates must run the stubs (SHA3Parallel's too where the variant has one), or this run
           would test the bytecode again */
        bool both = strstr(linked, "(intrinsic) _sha3_implCompress:") &&
                    strstr(linked, "(intrinsic) _digestBase_implCompressMB:") &&
                    (!linked_stubs->entry[STUB_ID_double_keccak].fn || strstr(linked, "(intrinsic) _double_keccak:"));
        if (!both)
            fprintf(stderr, "the stubs did not link:\n%s", linked);
        free(linked);
        if (!both)
            return -1;
    }
    evp_ctx = EVP_MD_CTX_new();
    if (!evp_ctx)
        return -1;
    m_hash = sd_method(prog, "Sha3Test.hash");
    m_squeeze_parts = sd_method(prog, "Sha3Test.squeezeParts");
    m_reused = sd_method(prog, "Sha3Test.hashReused");
    m_update = sd_method(prog, "Sha3Test.update");
    m_update_after_squeeze = sd_method(prog, "Sha3Test.updateAfterSqueeze");
    m_digest_only = sd_method(prog, "Sha3Test.digestOnly");
    m_squeeze_only = sd_method(prog, "Sha3Test.squeezeOnly");
    m_compress = sd_method(prog, "Sha3Test.compress");
    m_compress_multi = sd_method(prog, "Sha3Test.compressMulti");
    m_known = sd_method(prog, "Sha3Test.known");
    m_get_instance = sd_method(prog, "SHA3.getInstance");
    m_new_digest = sd_method(prog, "Sha3Test.newDigest");
    m_parallel = sd_method(prog, "Sha3Test.parallelSqueeze");
    return 0;
}

static int group_teardown(void **state)
{
    (void)state;
    EVP_MD_CTX_free(evp_ctx);
    if (vm)
        print_message("%llu collections\n", (unsigned long long)vm->heap.collections);
    vm_free(vm);
    vm_program_free(prog);
    return 0;
}

/* A failed test longjmps out of cmocka with roots still pushed: drop them. */
static int test_teardown(void **state)
{
    (void)state;
    if (vm && vm->nroots)
        vm_pop_roots(vm, vm->nroots);
    return 0;
}

/* Sha3Test.hash(alg, msg, chunk, outLen) into out; returns the length. */
static size_t vm_hash(const char *ctx, int alg, const uint8_t *msg, size_t len, int chunk, int outlen, uint8_t *out)
{
    return sd_hash(vm, m_hash, ctx, alg, msg, len, chunk, outlen, out, MAX_OUT);
}

/* ---- (a) NIST vectors ---------------------------------------------------------------- */

typedef struct nist_file {
    const char *file;
    int alg;
    int expect; /* vectors in the file */
} nist_file;

static const nist_file NIST[] = {
    {"SHA3_224ShortMsg.rsp", SHA3_224, 144}, {"SHA3_224LongMsg.rsp", SHA3_224, 100},
    {"SHA3_256ShortMsg.rsp", SHA3_256, 136}, {"SHA3_256LongMsg.rsp", SHA3_256, 100},
    {"SHA3_384ShortMsg.rsp", SHA3_384, 104}, {"SHA3_384LongMsg.rsp", SHA3_384, 100},
    {"SHA3_512ShortMsg.rsp", SHA3_512, 72},  {"SHA3_512LongMsg.rsp", SHA3_512, 100},
    {"SHAKE128ShortMsg.rsp", SHAKE128, 336}, {"SHAKE256ShortMsg.rsp", SHAKE256, 272},
};
#define NNIST ((int)(sizeof NIST / sizeof NIST[0]))

/* What the parser holds while a test runs (freed by the teardown if it fails). */
static char *rsp_text;
static uint8_t *rsp_msg, *rsp_md;

static int nist_teardown(void **state)
{
    free(rsp_text);
    free(rsp_md);
    free(rsp_msg);
    rsp_text = NULL;
    rsp_msg = rsp_md = NULL;
    return test_teardown(state);
}

/* The value of "Key = value" if line starts with key ("Len", "Msg", ...). */
static const char *rsp_value(const char *line, const char *key, size_t *vlen, size_t linelen)
{
    size_t k = strlen(key);
    if (linelen < k + 3 || strncmp(line, key, k) != 0 || strncmp(line + k, " = ", 3) != 0)
        return NULL;
    *vlen = linelen - k - 3;
    return line + k + 3;
}

static void check_vector(const nist_file *nf, int count, long bits, const uint8_t *msg, size_t len,
                         const uint8_t *md, size_t mdlen)
{
    const alg_info *a = &ALGS[nf->alg];
    char ctx[256];
    uint8_t out[MAX_OUT];
    if (bits < 0 || bits % 8 != 0 || (size_t)bits / 8 != len)
        fail_msg("%s vector %d: Len = %ld but the message has %zu bytes", nf->file, count, bits, len);
    if (!a->xof && mdlen != (size_t)a->mdlen)
        fail_msg("%s vector %d: MD has %zu bytes", nf->file, count, mdlen);
    for (int c = 0; c < 2; c++) {
        int chunk = c == 0 ? 0 : -(count + 1); /* one update; pseudo-random update sizes */
        snprintf(ctx, sizeof ctx, "%s vector %d: %s Len = %ld bits, chunk %d, out %zu", nf->file, count, a->name,
                 bits, chunk, mdlen);
        size_t n = vm_hash(ctx, nf->alg, msg, len, chunk, (int)mdlen, out);
        check_bytes(ctx, out, n, md, mdlen);
    }
}

static void test_nist(void **state)
{
    const nist_file *nf = *state;
    char path[256];
    snprintf(path, sizeof path, "tests/data/nist/%s", nf->file);
    rsp_text = tu_read_file(tu_source_path(path), NULL);
    if (!rsp_text)
        fail_msg("cannot read %s", path);
    int count = 0;
    long bits = -1;
    size_t msglen = 0;
    for (char *line = rsp_text; *line;) {
        char *end = strchr(line, '\n');
        char *next = end ? end + 1 : line + strlen(line);
        size_t ll = end ? (size_t)(end - line) : strlen(line);
        while (ll && (line[ll - 1] == '\r' || line[ll - 1] == ' '))
            ll--;
        size_t vlen;
        const char *v;
        if ((v = rsp_value(line, "Len", &vlen, ll))) {
            bits = strtol(v, NULL, 10);
        } else if ((v = rsp_value(line, "Msg", &vlen, ll))) {
            free(rsp_msg);
            rsp_msg = from_hex(v, vlen, &msglen);
        } else if ((v = rsp_value(line, "MD", &vlen, ll)) || (v = rsp_value(line, "Output", &vlen, ll))) {
            size_t mdlen;
            if (!rsp_msg)
                fail_msg("%s: digest before any message", nf->file);
            rsp_md = from_hex(v, vlen, &mdlen);
            /* Len = 0 vectors are written with Msg = 00 in CAVP files */
            check_vector(nf, count, bits, rsp_msg, bits == 0 ? 0 : msglen, rsp_md, mdlen);
            free(rsp_md);
            free(rsp_msg);
            rsp_md = rsp_msg = NULL;
            bits = -1;
            count++;
        } else if (ll && line[0] != '#' && line[0] != '[') {
            fail_msg("%s: unexpected line '%.*s'", nf->file, (int)(ll > 60 ? 60 : ll), line);
        }
        line = next;
    }
    free(rsp_text);
    rsp_text = NULL;
    if (count != nf->expect)
        fail_msg("%s: %d vectors, expected %d", nf->file, count, nf->expect);
    print_message("%s: %d vectors (2 update patterns each)\n", nf->file, count);
}

/* The empty message: the well-known digests (FIPS 202 examples), through every update pattern. */
static void test_empty_message(void **state)
{
    (void)state;
    static const char *const want[NALGS] = {
        "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7",
        "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
        "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004",
        "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d"
        "3e301758586281dcd26",
        "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
        "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab486"
        "40292eacb3b7c4be",
    };
    static const int chunks[] = {0, 1, 7, -3};
    for (int alg = 0; alg < NALGS; alg++) {
        uint8_t out[MAX_OUT], ref[MAX_OUT];
        size_t wl;
        uint8_t *w = from_hex(want[alg], strlen(want[alg]), &wl);
        char ctx[128];
        for (int c = 0; c < 4; c++) {
            snprintf(ctx, sizeof ctx, "%s(\"\"), chunk %d", ALGS[alg].name, chunks[c]);
            size_t n = vm_hash(ctx, alg, NULL, 0, chunks[c], (int)wl, out);
            check_bytes(ctx, out, n, w, wl);
        }
        /* and the two oracles agree with the constant */
        evp_hash(alg, NULL, 0, ref, wl);
        snprintf(ctx, sizeof ctx, "OpenSSL %s(\"\")", ALGS[alg].name);
        check_bytes(ctx, ref, wl, w, wl);
        sha3_ref_ctx c;
        sha3_ref_init(&c, ALGS[alg].bits, ALGS[alg].xof);
        sha3_ref_final(&c, ref, wl);
        snprintf(ctx, sizeof ctx, "sha3_ref %s(\"\")", ALGS[alg].name);
        check_bytes(ctx, ref, wl, w, wl);
        free(w);
    }
}

/* ---- (b) differential against OpenSSL ------------------------------------------------ */

/* The update patterns for alg and message length len: one update, 1 byte,
   block-1, block+1, pseudo-random (seeded by len). */
#define NPATTERNS 5
static int pattern(int alg, size_t len, int p)
{
    int bs = ALGS[alg].block;
    switch (p) {
    case 0: return 0;
    case 1: return 1;
    case 2: return bs - 1;
    case 3: return bs + 1;
    default: return -(int)(len * 31 + 7);
    }
}

/* Hash msgbuf[0..len) with every pattern and compare with OpenSSL. */
static void diff_one(int alg, size_t len, int outlen)
{
    const alg_info *a = &ALGS[alg];
    uint8_t want[MAX_OUT], out[MAX_OUT];
    size_t wl = a->xof ? (size_t)outlen : (size_t)a->mdlen;
    evp_hash(alg, msgbuf, len, want, wl);
    char ctx[160];
    for (int p = 0; p < NPATTERNS; p++) {
        int chunk = pattern(alg, len, p);
        snprintf(ctx, sizeof ctx, "%s length %zu, chunk %d, out %zu (vs OpenSSL)", a->name, len, chunk, wl);
        size_t n = vm_hash(ctx, alg, msgbuf, len, chunk, outlen, out);
        check_bytes(ctx, out, n, want, wl);
    }
}

static void test_diff_lengths(void **state)
{
    int alg = (int)(intptr_t)*state;
    int step = tu_sanitized() ? 7 : 1;
    int cases = 0;
    for (size_t len = 0; len <= 1000; len += (size_t)step) {
        diff_one(alg, len, OUTLENS[len % NOUTLENS]);
        cases++;
    }
    print_message("%s: %d lengths x %d update patterns\n", ALGS[alg].name, cases, NPATTERNS);
}

/* Every block size (72, 104, 136, 144, 168) -1, +0, +1; this algorithm's
   2 * block -1, +0, +1, 3 * block, 10 * block + 7; 16384 and 65537. */
static void test_diff_multiblock(void **state)
{
    int alg = (int)(intptr_t)*state;
    int bs = ALGS[alg].block;
    static const int sizes[] = {72, 104, 136, 144, 168};
    int lens[32], n = 0;
    for (int i = 0; i < 5; i++)
        for (int d = -1; d <= 1; d++)
            lens[n++] = sizes[i] + d;
    const int more[] = {2 * bs - 1, 2 * bs, 2 * bs + 1, 3 * bs, 10 * bs + 7, 16384, MAX_MSG};
    for (int i = 0; i < (int)(sizeof more / sizeof more[0]); i++)
        lens[n++] = more[i];
    for (int i = 0; i < n; i++)
        diff_one(alg, (size_t)lens[i], OUTLENS[i % NOUTLENS]);
    print_message("%s: %d multi-block lengths x %d update patterns\n", ALGS[alg].name, n, NPATTERNS);
}

/* SHAKE: every output length, by one squeeze and by successive squeezes of
   1, 7, block-1, block, block+1 bytes and of pseudo-random sizes, against
   OpenSSL's one long output (and the one squeeze against the successive ones). */
static void test_shake_outputs(void **state)
{
    int alg = (int)(intptr_t)*state;
    const alg_info *a = &ALGS[alg];
    int bs = a->block;
    const size_t lens[] = {0, 1, 100, (size_t)bs - 1, (size_t)bs, (size_t)bs + 1, 1000, 4099};
    const int steps[] = {1, 7, bs - 1, bs, bs + 1, -1, -2};
    int ns = (int)(sizeof steps / sizeof steps[0]), nl = (int)(sizeof lens / sizeof lens[0]);
    uint8_t want[MAX_OUT], out[MAX_OUT], one[MAX_OUT];
    char ctx[200];
    int cases = 0;
    for (int li = 0; li < nl; li++) {
        size_t len = lens[li];
        for (int oi = 0; oi < NOUTLENS; oi++) {
            int outlen = OUTLENS[oi];
            int chunk = pattern(alg, len, (li + oi) % NPATTERNS);
            evp_hash(alg, msgbuf, len, want, (size_t)outlen);
            snprintf(ctx, sizeof ctx, "%s length %zu, chunk %d, one squeeze(%d) (vs OpenSSL)", a->name, len, chunk,
                     outlen);
            size_t n = vm_hash(ctx, alg, msgbuf, len, chunk, outlen, one);
            check_bytes(ctx, one, n, want, (size_t)outlen);
            for (int si = 0; si < ns; si++) {
                int step = steps[si] < 0 ? steps[si] * (int)(len + 1) - oi : steps[si];
                snprintf(ctx, sizeof ctx, "%s length %zu, chunk %d, %d bytes in squeezes of %d (vs one squeeze)",
                         a->name, len, chunk, outlen, step);
                vm_obj *m = sd_new_bytes(vm, msgbuf, len);
                vm_push_root(vm, &m);
                vm_value args[5] = {{.i = alg}, {.ref = m}, {.i = chunk}, {.i = outlen}, {.i = step}};
                vm_value r = sd_call(vm, ctx, m_squeeze_parts, args);
                vm_pop_roots(vm, 1);
                n = sd_result_bytes(ctx, r, out, sizeof out);
                check_bytes(ctx, out, n, one, (size_t)outlen);
                cases++;
            }
        }
    }
    print_message("%s: %d x %d output lengths by one squeeze, %d by successive squeezes\n", a->name, nl, NOUTLENS,
                  cases);
}

/* One digest object reused: after reset, after digest() / squeeze + reset. */
static void test_reuse(void **state)
{
    (void)state;
    const size_t lens[] = {0, 1, 135, 136, 137, 500, 1000};
    const size_t junks[] = {0, 1, 71, 200, 3000};
    int cases = 0;
    for (int alg = 0; alg < NALGS; alg++) {
        const alg_info *a = &ALGS[alg];
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            size_t len = lens[li];
            int outlen = a->xof ? OUTLENS[li % NOUTLENS] : 0;
            size_t wl = a->xof ? (size_t)outlen : (size_t)a->mdlen;
            uint8_t want[MAX_OUT], out[MAX_OUT];
            evp_hash(alg, msgbuf + 32, len, want, wl);
            for (int mode = 0; mode < 2; mode++) {
                size_t junk = junks[(li + (size_t)mode) % 5];
                int chunk = pattern(alg, len, (int)(li + (size_t)mode) % NPATTERNS);
                char ctx[200];
                snprintf(ctx, sizeof ctx, "%s length %zu, chunk %d, out %zu, after %zu junk bytes and %s", a->name,
                         len, chunk, wl, junk,
                         mode == 0 ? "reset" : a->xof ? "squeeze(17) + reset" : "digest()");
                vm_obj *j = sd_new_bytes(vm, msgbuf + 1000, junk);
                vm_push_root(vm, &j);
                vm_obj *m = sd_new_bytes(vm, msgbuf + 32, len);
                vm_push_root(vm, &m);
                vm_value args[6] = {{.i = alg}, {.ref = j}, {.ref = m}, {.i = chunk}, {.i = outlen}, {.i = mode}};
                vm_value r = sd_call(vm, ctx, m_reused, args);
                vm_pop_roots(vm, 2);
                size_t n = sd_result_bytes(ctx, r, out, sizeof out);
                check_bytes(ctx, out, n, want, wl);
                cases++;
            }
        }
    }
    print_message("%d reuse cases\n", cases);
}

/* ---- (c) the C reference against OpenSSL ---------------------------------------------- */

/* sha3_ref incrementally: chunk 0 one update, > 0 fixed, < 0 random sizes 0..2*block. */
static void ref_hash(int alg, const uint8_t *msg, size_t len, int chunk, uint8_t *out, size_t outlen, int outstep)
{
    const alg_info *a = &ALGS[alg];
    sha3_ref_ctx c;
    sha3_ref_init(&c, a->bits, a->xof);
    uint64_t s = (uint64_t)(-(int64_t)chunk);
    size_t ofs = 0;
    if (chunk == 0) {
        sha3_ref_update(&c, msg, len);
    } else {
        while (ofs < len) {
            size_t k = chunk > 0 ? (size_t)chunk : (size_t)(sd_rng_next(&s) % (uint64_t)(2 * a->block + 1));
            if (k > len - ofs)
                k = len - ofs;
            sha3_ref_update(&c, msg + ofs, k);
            ofs += k;
        }
    }
    if (!a->xof || outstep == 0) {
        sha3_ref_final(&c, out, outlen);
        return;
    }
    for (size_t got = 0; got < outlen;) {
        size_t k = (size_t)outstep;
        if (k > outlen - got)
            k = outlen - got;
        sha3_ref_final(&c, out + got, k);
        got += k;
    }
}

static void ref_one(int alg, size_t len)
{
    const alg_info *a = &ALGS[alg];
    uint8_t want[MAX_OUT], out[MAX_OUT];
    size_t wl = a->xof ? (size_t)OUTLENS[len % NOUTLENS] : (size_t)a->mdlen;
    char ctx[160];
    evp_hash(alg, msgbuf, len, want, wl);
    /* one-shot helpers */
    if (a->xof)
        shake_ref(a->bits, msgbuf, len, out, wl);
    else
        sha3_ref(a->bits, msgbuf, len, out);
    snprintf(ctx, sizeof ctx, "sha3_ref %s length %zu, one-shot, out %zu (vs OpenSSL)", a->name, len, wl);
    check_bytes(ctx, out, wl, want, wl);
    for (int p = 0; p < NPATTERNS; p++) {
        int chunk = pattern(alg, len, p);
        int outstep = a->xof ? (int[]){0, 1, 7, a->block, a->block + 1}[p] : 0;
        ref_hash(alg, msgbuf, len, chunk, out, wl, outstep);
        snprintf(ctx, sizeof ctx, "sha3_ref %s length %zu, chunk %d, out %zu in finals of %d (vs OpenSSL)", a->name,
                 len, chunk, wl, outstep);
        check_bytes(ctx, out, wl, want, wl);
    }
}

static void test_ref_vs_openssl(void **state)
{
    (void)state;
    int cases = 0;
    for (int alg = 0; alg < NALGS; alg++) {
        int bs = ALGS[alg].block;
        for (size_t len = 0; len <= 1000; len++, cases++)
            ref_one(alg, len);
        const int lens[] = {2 * bs + 1, 10 * bs + 7, 16384, MAX_MSG};
        for (int i = 0; i < 4; i++, cases++)
            ref_one(alg, (size_t)lens[i]);
    }
    print_message("%d (algorithm, length) cases, one-shot + %d incremental patterns each\n", cases, NPATTERNS);
}

/* sha3_ref_compress_multi: its return value, and the hash built from it
   (whole blocks by compress_multi, the padded tail by sha3_ref_compress)
   against OpenSSL, with the message at offsets 0 and 5 and an unaligned limit. */
static void test_ref_compress_multi(void **state)
{
    (void)state;
    static uint8_t buf[MAX_MSG + 64];
    int cases = 0;
    for (int alg = 0; alg < NALGS; alg++) {
        const alg_info *a = &ALGS[alg];
        int bs = a->block;
        const size_t lens[] = {0, 1, (size_t)bs - 1, (size_t)bs, (size_t)bs + 1, 5 * (size_t)bs + 3, 16384};
        for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
            size_t len = lens[li];
            int full = (int)(len / (size_t)bs);
            uint8_t want[64], out[64];
            size_t wl = a->xof ? 64 : (size_t)a->mdlen;
            evp_hash(alg, msgbuf, len, want, wl);
            for (int ofs = 0; ofs <= 5; ofs += 5) {
                for (int slack = 0; slack < bs; slack += bs - 1) {
                    char ctx[160];
                    snprintf(ctx, sizeof ctx, "sha3_ref_compress_multi %s length %zu, ofs %d, limit slack %d",
                             a->name, len, ofs, slack);
                    memset(buf, 0xa5, sizeof buf);
                    memcpy(buf + ofs, msgbuf, len);
                    uint64_t st[25] = {0};
                    int end = ofs;
                    if (full > 0) {
                        int limit = ofs + (full - 1) * bs + slack;
                        end = sha3_ref_compress_multi(st, buf, bs, ofs, limit);
                        if (end != ofs + full * bs)
                            fail_msg("%s: returned %d, expected %d", ctx, end, ofs + full * bs);
                    }
                    /* pad10*1 the tail, absorb, squeeze */
                    uint8_t block[168] = {0};
                    size_t tail = len - (size_t)full * (size_t)bs;
                    memcpy(block, buf + end, tail);
                    block[tail] ^= a->xof ? 0x1f : 0x06;
                    block[bs - 1] ^= 0x80;
                    sha3_ref_compress(st, block, bs);
                    for (size_t i = 0; i < wl; i++)
                        out[i] = (uint8_t)(st[i / 8] >> (8 * (i % 8)));
                    check_bytes(ctx, out, wl, want, wl);
                    cases++;
                }
            }
        }
        /* a single call compresses at least one block (do ... while), even when limit < ofs */
        uint64_t st[25] = {0}, st2[25] = {0};
        int end = sha3_ref_compress_multi(st, msgbuf, bs, 0, -1);
        assert_int_equal(end, bs);
        sha3_ref_compress(st2, msgbuf, bs);
        assert_memory_equal(st, st2, sizeof st);
        end = sha3_ref_compress_multi(st, msgbuf, bs, bs, 3 * bs);
        assert_int_equal(end, 4 * bs);
        for (int k = 1; k < 4; k++)
            sha3_ref_compress(st2, msgbuf + k * bs, bs);
        assert_memory_equal(st, st2, sizeof st);
    }
    print_message("%d compress_multi cases\n", cases);
}

/* ---- (d) errors ------------------------------------------------------------------------- */

typedef struct err_case {
    const char *what;
    int kind;         /* 0 update(alg, b[blen], a1, a2); 1 digestOnly; 2 squeezeOnly(alg, a1);
                         3 compress(alg, b[blen], a1); 4 compressMulti(alg, b[blen], a1, a2);
                         5 updateAfterSqueeze(alg, b[blen], a1, a2) */
    int alg;
    int blen;         /* -1: null */
    int a1, a2;
    vm_exc exc;       /* VM_EXC_NONE: no exception */
    const char *name; /* the class of VM_EXC_NAMED */
    const char *msg;  /* NULL: not checked */
    int64_t ret;      /* compressMulti's result, when no exception */
} err_case;

static const err_case ERRS[] = {
    {"update past the end", 0, SHA3_256, 8, 5, 10, VM_EXC_AIOOBE, NULL,
     "Range [5, 5 + 10) out of bounds for length 8", 0},
    {"update at the end", 0, SHA3_224, 8, 8, 1, VM_EXC_AIOOBE, NULL, "Range [8, 8 + 1) out of bounds for length 8",
     0},
    {"update with a negative offset", 0, SHAKE128, 8, -1, 2, VM_EXC_AIOOBE, NULL,
     "Range [-1, -1 + 2) out of bounds for length 8", 0},
    {"update with a negative length", 0, SHA3_512, 8, 0, -1, VM_EXC_AIOOBE, NULL,
     "Range [0, 0 + -1) out of bounds for length 8", 0},
    {"update with a huge length", 0, SHAKE256, 8, 1, 0x7fffffff, VM_EXC_AIOOBE, NULL,
     "Range [1, 1 + 2147483647) out of bounds for length 8", 0},
    {"update of length 0 at a bad offset", 0, SHA3_256, 8, 100, 0, VM_EXC_NONE, NULL, NULL, 0},
    {"update of the whole array", 0, SHA3_384, 8, 0, 8, VM_EXC_NONE, NULL, NULL, 0},
    {"update of a null array", 0, SHA3_256, -1, 0, 1, VM_EXC_NPE, NULL, NULL, 0},
    {"digest() on SHAKE128", 1, SHAKE128, 0, 0, 0, VM_EXC_NAMED, "java.security.ProviderException",
     "Calling digest() is not allowed in an XOF", 0},
    {"digest() on SHAKE256", 1, SHAKE256, 0, 0, 0, VM_EXC_NAMED, "java.security.ProviderException",
     "Calling digest() is not allowed in an XOF", 0},
    {"squeeze on SHA3-256", 2, SHA3_256, 0, 10, 0, VM_EXC_NAMED, "java.security.ProviderException",
     "Squeezing is only allowed in XOF mode.", 0},
    {"squeeze(-1) on SHAKE128", 2, SHAKE128, 0, -1, 0, VM_EXC_NEGATIVE_SIZE, NULL, "-1", 0},
    {"implCompress past the end", 3, SHA3_256, 8, 0, 0, VM_EXC_AIOOBE, NULL,
     "Index 135 out of bounds for length 8", 0},
    {"implCompress at a negative offset", 3, SHAKE128, 200, -1, 0, VM_EXC_AIOOBE, NULL, NULL, 0},
    {"implCompressMultiBlock past the end", 4, SHA3_256, 8, 0, 0, VM_EXC_AIOOBE, NULL,
     "Array index out of range: 135", 0},
    {"implCompressMultiBlock at a negative offset", 4, SHA3_256, 272, -1, 0, VM_EXC_AIOOBE, NULL,
     "Index -1 out of bounds for length 272", 0},
    {"implCompressMultiBlock with limit < 0", 4, SHA3_256, 8, 0, -1, VM_EXC_NONE, NULL, NULL, 0},
    {"implCompressMultiBlock, two blocks", 4, SHA3_256, 272, 0, 136, VM_EXC_NONE, NULL, NULL, 272},
    {"implCompressMultiBlock, unaligned limit", 4, SHA3_256, 272, 0, 137, VM_EXC_NONE, NULL, NULL, 272},
    {"implCompressMultiBlock, one block at ofs 1", 4, SHA3_512, 80, 1, 1, VM_EXC_NONE, NULL, NULL, 73},
    {"update after squeeze on SHAKE128", 5, SHAKE128, 8, 0, 8, VM_EXC_NAMED, "java.security.ProviderException",
     "update() after squeeze() is not allowed.", 0},
    {"update of length 0 after squeeze on SHAKE256", 5, SHAKE256, 8, 0, 0, VM_EXC_NAMED,
     "java.security.ProviderException", "update() after squeeze() is not allowed.", 0},
};
#define NERRS ((int)(sizeof ERRS / sizeof ERRS[0]))

static void test_error(void **state)
{
    const err_case *c = *state;
    vm_obj *b = NULL;
    if (c->blen >= 0)
        b = sd_new_bytes(vm, msgbuf, (size_t)c->blen);
    vm_push_root(vm, &b);
    vm_value args[4] = {{.i = c->alg}, {.ref = b}, {.i = c->a1}, {.i = c->a2}};
    const vm_method *m = NULL;
    switch (c->kind) {
    case 0: m = m_update; break;
    case 1: m = m_digest_only; break;
    case 2: m = m_squeeze_only; args[1].i = c->a1; break;
    case 3: m = m_compress; break;
    case 4: m = m_compress_multi; break;
    default: m = m_update_after_squeeze; break;
    }
    vm_value r = {0};
    int st = vm_call(vm, m, args, &r);
    vm_pop_roots(vm, 1);
    if (c->exc == VM_EXC_NONE) {
        if (st != VM_OK)
            fail_msg("%s (%s): status %d: %s", c->what, ALGS[c->alg].name, st, sd_exc_text(vm, true));
        if (c->kind == 4 && r.i != c->ret)
            fail_msg("%s (%s): returned %lld, expected %lld", c->what, ALGS[c->alg].name, (long long)r.i,
                     (long long)c->ret);
        return;
    }
    if (st != VM_EXCEPTION || vm->exc != c->exc)
        fail_msg("%s (%s): status %d, %s; expected %s", c->what, ALGS[c->alg].name, st,
                 st == VM_OK ? "no exception" : sd_exc_text(vm, true), c->name ? c->name : vm_exc_class(c->exc));
    if (c->name && strcmp(vm->exc_name, c->name) != 0)
        fail_msg("%s: exception class '%s', expected '%s'", c->what, vm->exc_name, c->name);
    if (c->msg && strcmp(vm->exc_msg, c->msg) != 0)
        fail_msg("%s: message '%s', expected '%s'", c->what, vm->exc_msg, c->msg);
    /* the trace names the library method that threw */
    if (!vm->exc_trace || !strstr(vm->exc_trace, "Sha3Test."))
        fail_msg("%s: stack trace without the caller:\n%s", c->what, vm->exc_trace ? vm->exc_trace : "(none)");
}

/* ---- SHA3Parallel ------------------------------------------------------------------------ */

/* The C reference of SHA3Parallel: st from rate bytes of buf, `blocks` permutations, the lanes back. */
static void ref_parallel_round(uint8_t *buf, int rate, int blocks)
{
    uint64_t st[25] = {0};
    for (int i = 0; i < rate / 8; i++)
        for (int k = 0; k < 8; k++)
            st[i] |= (uint64_t)buf[8 * i + k] << (8 * k);
    for (int b = 0; b < blocks; b++)
        sha3_ref_keccak(st);
    for (int i = 0; i < rate / 8; i++)
        for (int k = 0; k < 8; k++)
            buf[8 * i + k] = (uint8_t)(st[i] >> (8 * k));
}

/*
 * Shake128Parallel (vm/lib/SHA3Parallel.mva) on two messages padded to one block each: the k-th
 * squeezed block of each is its SHAKE128 output's k-th block (OpenSSL), for 1..4 squeezes; with a
 * reset to the same buffers (which then hold the output) between two rounds, both states are
 * reloaded from them (the C reference's permutation); a longer buffer's bytes after the block stay.
 */
static void test_parallel(void **state)
{
    (void)state;
    static const struct { size_t len0, len1; } pairs[] = {{0, 0}, {3, 167}, {100, 31}, {136, 1}, {167, 64}};
    enum { RATE = 168, LONG = 200 };
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        for (int blocks = 1; blocks <= 4; blocks++)
            for (int again = 0; again <= 1; again++) {
                uint8_t buf0[RATE] = {0}, buf1[LONG] = {0}, want[2][4 * RATE];
                const uint8_t *msg0 = msgbuf + 11 * p, *msg1 = msgbuf + 500 + 7 * p;
                memcpy(buf0, msg0, pairs[p].len0);
                memcpy(buf1, msg1, pairs[p].len1);
                buf0[pairs[p].len0] ^= 0x1f, buf0[RATE - 1] ^= 0x80;
                buf1[pairs[p].len1] ^= 0x1f, buf1[RATE - 1] ^= 0x80;
                memset(buf1 + RATE, 0xa5, LONG - RATE);
                vm_obj *b0 = sd_new_bytes(vm, buf0, RATE);
                vm_push_root(vm, &b0);
                vm_obj *b1 = sd_new_bytes(vm, buf1, LONG);
                vm_push_root(vm, &b1);
                vm_value args[4] = {{.ref = b0}, {.ref = b1}, {.i = blocks}, {.i = again}};
                char ctx[96];
                snprintf(ctx, sizeof ctx, "messages of %zu and %zu bytes, %d squeeze(s)%s", pairs[p].len0,
                         pairs[p].len1, blocks, again ? ", reset, again" : "");
                vm_value r = sd_call(vm, ctx, m_parallel, args);
                uint8_t got[2 * RATE];
                size_t n = sd_result_bytes(ctx, r, got, sizeof got);
                assert_int_equal(n, 2 * RATE);
                if (!again) {
                    evp_hash(SHAKE128, msg0, pairs[p].len0, want[0], (size_t)blocks * RATE);
                    evp_hash(SHAKE128, msg1, pairs[p].len1, want[1], (size_t)blocks * RATE);
                    check_bytes(ctx, got, RATE, want[0] + (blocks - 1) * RATE, RATE);
                    check_bytes(ctx, got + RATE, RATE, want[1] + (blocks - 1) * RATE, RATE);
                } else {
                    ref_parallel_round(buf0, RATE, blocks);
                    ref_parallel_round(buf0, RATE, blocks);
                    ref_parallel_round(buf1, RATE, blocks);
                    ref_parallel_round(buf1, RATE, blocks);
                    check_bytes(ctx, got, RATE, buf0, RATE);
                    check_bytes(ctx, got + RATE, RATE, buf1, RATE);
                }
                const uint8_t *tail = (const uint8_t *)b1->data + RATE;
                for (int k = 0; k < LONG - RATE; k++)
                    if (tail[k] != 0xa5)
                        fail_msg("%s: byte %d of the 200-byte buffer changed", ctx, RATE + k);
                vm_pop_roots(vm, 2);
            }
    /* the JDK's check: a buffer shorter than the block */
    vm_obj *b0 = sd_new_bytes(vm, msgbuf, 167);
    vm_push_root(vm, &b0);
    vm_obj *b1 = sd_new_bytes(vm, msgbuf, 168);
    vm_push_root(vm, &b1);
    vm_value args[4] = {{.ref = b0}, {.ref = b1}, {.i = 1}, {.i = 0}};
    vm_value r = {0};
    int st = vm_call(vm, m_parallel, args, &r);
    vm_pop_roots(vm, 2);
    if (st != VM_EXCEPTION || strcmp(vm->exc_name, "java.security.InvalidAlgorithmParameterException") != 0 ||
        strcmp(vm->exc_msg, "Bad buffersize.") != 0)
        fail_msg("a 167-byte buffer: status %d, %s; expected java.security.InvalidAlgorithmParameterException: "
                 "Bad buffersize.", st, st == VM_OK ? "no exception" : sd_exc_text(vm, false));
}

/* SHA3.getInstance: the family's six MessageDigest names (JDK 25's: SHA3-224 ... SHA3-512, and the
   fixed-length SHAKE128-256 and SHAKE256-512, SHA3.SHAKE128Hash and SHAKE256Hash) and nothing
   else (exact, case-sensitive: the aliases are MessageDigest.standardName's); the XOFs from
   SHA3.newShake128 and newShake256 (Java's new SHA3.SHAKE128(), no MessageDigest). */
static void test_get_instance(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        int mdlen, block;
    } names[] = {
        {"SHA3-224", 28, 144}, {"SHA3-256", 32, 136},     {"SHA3-384", 48, 104},
        {"SHA3-512", 64, 72},  {"SHAKE128-256", 32, 168}, {"SHAKE256-512", 64, 136},
    };
    static const char *const unknown[] = {"",         "SHA3",     "SHA3-25",      "SHA3-2560",     "sha3-256",
                                          "SHA3-256 ", "SHAKE512", "SHA-256",      "SHAKE128",      "SHAKE256",
                                          "SHAKE128-512", "shake128-256", "SHAKE128\0"};
    vm_value args[1];
    vm_value r;
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        vm_obj *name = sd_new_bytes(vm, (const uint8_t *)names[k].name, strlen(names[k].name));
        vm_push_root(vm, &name);
        args[0].ref = name;
        r = sd_call(vm, names[k].name, m_get_instance, args);
        vm_pop_roots(vm, 1);
        if (!r.ref)
            fail_msg("getInstance(\"%s\") is null", names[k].name);
        /* the digest's fields: algorithm, digestLength, blockSize */
        const vm_value *f = VM_FIELDS(r.ref);
        /* the standard name, SHA3.java's own literal (super("SHA3-256", ...)), not the caller's array */
        assert_non_null(f[0].ref);
        assert_int_equal(f[0].ref->length, strlen(names[k].name));
        assert_memory_equal(f[0].ref->data, names[k].name, strlen(names[k].name));
        if (f[1].i != names[k].mdlen || f[2].i != names[k].block)
            fail_msg("getInstance(\"%s\"): digestLength %lld, blockSize %lld; expected %d, %d", names[k].name,
                     (long long)f[1].i, (long long)f[2].i, names[k].mdlen, names[k].block);
    }
    /* every algorithm of the table: SHAKE128 and SHAKE256 through the XOFs' constructors */
    for (int alg = 0; alg < NALGS; alg++) {
        args[0].i = alg;
        r = sd_call(vm, ALGS[alg].name, m_new_digest, args);
        if (!r.ref)
            fail_msg("Sha3Test.newDigest(%s) is null", ALGS[alg].name);
        const vm_value *f = VM_FIELDS(r.ref);
        if (f[0].ref->length != (int32_t)strlen(ALGS[alg].name) ||
            memcmp(f[0].ref->data, ALGS[alg].name, strlen(ALGS[alg].name)) != 0 || f[1].i != ALGS[alg].mdlen ||
            f[2].i != ALGS[alg].block)
            fail_msg("Sha3Test.newDigest(%s): algorithm %.*s, digestLength %lld, blockSize %lld", ALGS[alg].name,
                     (int)f[0].ref->length, (const char *)f[0].ref->data, (long long)f[1].i, (long long)f[2].i);
    }
    args[0].i = NALGS;
    r = sd_call(vm, "SHA3-999", m_known, args);
    assert_int_equal(r.i, 0);
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        size_t n = strlen(unknown[i]) + (i == sizeof unknown / sizeof unknown[0] - 1); /* the last with its NUL */
        if (sd_get_instance(vm, m_get_instance, unknown[i], unknown[i], n))
            fail_msg("getInstance(\"%s\" (%zu bytes)) is not null", unknown[i], n);
    }
    /* getInstance(null) is null, as Arrays.equals(null, "...") is false */
    args[0].ref = NULL;
    r = sd_call(vm, "null", m_get_instance, args);
    assert_null(r.ref);
}

/* ---- the table ----------------------------------------------------------------------- */

/* --stubs: the whole suite with the stub variant's table linked (sd_run_per_variant) */
static int suite(void);

static int with_stubs(const stub_routines *t, const stub_variant *v)
{
    (void)v;
    linked_stubs = t;
    return suite();
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        static const stub_family sha3[] = {STUB_FAMILY_SHA3};
        return sd_run_per_variant("test_sha3", argc, argv, sha3, 1, with_stubs);
    }
    return suite();
}

static int suite(void)
{
    enum { MAXT = NNIST + 1 + 3 * NALGS + 2 + 1 + 1 + NERRS + 3 };
    static struct CMUnitTest tests[MAXT];
    static char names[MAXT][96];
    int n = 0;
#define ADD(fn, st, td, fmt, ...)                                                                                    \
    do {                                                                                                             \
        snprintf(names[n], sizeof names[n], fmt, __VA_ARGS__);                                                       \
        tests[n] = (struct CMUnitTest){names[n], fn, NULL, td, (void *)(st)};                                        \
        n++;                                                                                                         \
    } while (0)
    for (int i = 0; i < NNIST; i++)
        ADD(test_nist, &NIST[i], nist_teardown, "nist %s", NIST[i].file);
    ADD(test_empty_message, NULL, test_teardown, "%s", "empty message");
    for (int alg = 0; alg < NALGS; alg++)
        ADD(test_diff_lengths, (intptr_t)alg, test_teardown, "openssl lengths 0..1000 %s", ALGS[alg].name);
    for (int alg = 0; alg < NALGS; alg++)
        ADD(test_diff_multiblock, (intptr_t)alg, test_teardown, "openssl multi-block %s", ALGS[alg].name);
    for (int alg = SHAKE128; alg <= SHAKE256; alg++)
        ADD(test_shake_outputs, (intptr_t)alg, test_teardown, "openssl squeeze %s", ALGS[alg].name);
    ADD(test_reuse, NULL, test_teardown, "%s", "reuse after reset/digest/squeeze");
    ADD(test_ref_vs_openssl, NULL, test_teardown, "%s", "sha3_ref vs openssl");
    ADD(test_ref_compress_multi, NULL, test_teardown, "%s", "sha3_ref_compress_multi");
    for (int i = 0; i < NERRS; i++)
        ADD(test_error, &ERRS[i], test_teardown, "error: %s", ERRS[i].what);
    ADD(test_get_instance, NULL, test_teardown, "%s", "getInstance names");
    ADD(test_parallel, NULL, test_teardown, "%s", "SHA3Parallel: SHAKE128 pairs");
#undef ADD
    return _cmocka_run_group_tests("sha3", tests, (size_t)n, group_setup, group_teardown);
}
