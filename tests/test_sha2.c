/*
 * tests/test_sha2.c — SHA-1 and SHA-2 through the bytecode library
 * (vm/lib/SHA.mva, SHA2.mva, SHA5.mva via MessageDigest and DigestBase),
 * driven by tests/data/DigestTest.mva with vm_call, against OpenSSL's
 * libcrypto and the FIPS 180-4 examples:
 *
 *   (a) every algorithm (SHA-1, SHA-224, SHA-256, SHA-384, SHA-512,
 *       SHA-512/224, SHA-512/256, and minivm's SHA-256-JDK15) on every length 0..1000, in one update
 *       and in chunks of 13 bytes (the buffer filled, compressed, refilled);
 *   (b) multi-block inputs (4 KiB to 64 KiB + 17) in updates of sizes that
 *       cross the block boundary every way (1, 63, 64, 65, 127, 128, 129,
 *       1000, all at once), so DigestBase.implCompressMultiBlock runs with
 *       ofs at every alignment;
 *   (c) one object digesting three times (digest resets it: implReset);
 *   (d) the FIPS 180-4 examples ("abc", the 448- and 896-bit messages, one
 *       million 'a') and RFC 1321's MD5 test suite against their published digests;
 *   (e) names: every one the JDK's MessageDigests benchmark uses is known, in
 *       any case and by Java's aliases ("sha-256", "SHA256", "SHA", the OIDs),
 *       the digest carrying the standard name; near misses are not;
 *   (f) a program's record extending SHA2.SHA2 with its own implCompress: the
 *       multi-block candidate runs the bytecode (the override) for it, stubs or not.
 *
 * Under QEMU (MINIVM_EMULATED=1) the bytecode-only run takes every 7th length above 384.
 *
 * `test_sha2 --stubs STUB VARIANT OPTION...` runs all of it with the stubs
 * the -XX options give (as the launcher generates them), after checking
 * that the stub table's entry STUB ("sha256_implCompress") is VARIANT and
 * that both of the family's candidates linked; where that variant does not
 * run here the test exits 77 (skipped), never passed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "intrinsics.h"
#include "sha3_driver.h"
#include "testutil.h"

typedef struct alg {
    const char *name;           /* the JDK's */
    const EVP_MD *(*md)(void);  /* OpenSSL's */
    int family;                 /* stub_family of its stubs */
} alg;

static const alg ALGS[] = {
    {"MD5", EVP_md5, STUB_FAMILY_MD5},
    {"SHA-1", EVP_sha1, STUB_FAMILY_SHA1},           {"SHA-224", EVP_sha224, STUB_FAMILY_SHA256},
    {"SHA-256", EVP_sha256, STUB_FAMILY_SHA256},     {"SHA-384", EVP_sha384, STUB_FAMILY_SHA512},
    {"SHA-512", EVP_sha512, STUB_FAMILY_SHA512},     {"SHA-512/224", EVP_sha512_224, STUB_FAMILY_SHA512},
    {"SHA-512/256", EVP_sha512_256, STUB_FAMILY_SHA512},
    /* minivm's: SHA-256 written as JDK 15's SHA2.java (vm/lib/SHA2JDK15.mva) */
    {"SHA-256-JDK15", EVP_sha256, STUB_FAMILY_SHA256},
};
#define NALGS (int)(sizeof ALGS / sizeof ALGS[0])

#define MSG_MAX ((size_t)65536 + 17)
static uint8_t msgbuf[MSG_MAX];

static vm_program *prog;
static const vm_method *m_hash, *m_known;
/* --stubs: the stub table the VM links (set once in main) and the family it must link; NULL: the bytecode */
static const stub_routines *linked_stubs;
static int linked_family = -1;

static vm_t *new_vm(void)
{
    char err[256];
    vm_options opt = {.heap_max = (size_t)8 << 20, .stubs = linked_stubs};
    vm_t *vm = vm_new(prog, &opt, err, sizeof err);
    if (!vm)
        fail_msg("vm_new: %s", err);
    if (linked_family >= 0) {
        /* both of the family's candidates (its implCompress0 and the multi-block one) run its stubs */
        int single = 0, multi = 0;
        for (uint32_t i = 0; i < vm->nintrinsics; i++) {
            if (vm->intrinsics[i].family != linked_family)
                continue;
            multi += vm->intrinsics[i].id == VM_INTRINSIC_digestBase_implCompressMB;
            single += vm->intrinsics[i].id != VM_INTRINSIC_digestBase_implCompressMB;
        }
        if (single != 1 || multi != 1)
            fail_msg("the family's stubs did not link (single-block %d, multi-block %d)", single, multi);
    }
    return vm;
}

/* DigestTest.hash(name, msg[0..len), chunk, times) into out; returns the digest's length */
static size_t vm_hash(vm_t *vm, const char *name, const uint8_t *msg, size_t len, int chunk, int times,
                      uint8_t out[64])
{
    char ctx[128];
    snprintf(ctx, sizeof ctx, "%s of %zu bytes in chunks of %d", name, len, chunk);
    vm_value args[4];
    vm_obj *n = sd_new_bytes(vm, (const uint8_t *)name, strlen(name));
    vm_push_root(vm, &n);
    vm_obj *m = sd_new_bytes(vm, msg, len);
    vm_pop_roots(vm, 1);
    args[0].ref = n;
    args[1].ref = m;
    args[2].i = chunk;
    args[3].i = times;
    vm_value r = sd_call(vm, ctx, m_hash, args);
    return sd_result_bytes(ctx, r, out, 64);
}

static size_t evp_hash(const alg *a, const uint8_t *msg, size_t len, uint8_t out[64])
{
    unsigned n = 0;
    assert_int_equal(EVP_Digest(msg, len, out, &n, a->md(), NULL), 1);
    return n;
}

static void expect_digest(const alg *a, const uint8_t *msg, size_t len, const uint8_t *got, size_t got_len,
                          const char *how)
{
    uint8_t want[64];
    size_t want_len = evp_hash(a, msg, len, want);
    if (got_len != want_len || memcmp(got, want, want_len) != 0) {
        char g[129] = "", w[129] = "";
        for (size_t i = 0; i < got_len && i < 64; i++)
            snprintf(g + 2 * i, 3, "%02x", got[i]);
        for (size_t i = 0; i < want_len; i++)
            snprintf(w + 2 * i, 3, "%02x", want[i]);
        fail_msg("%s of %zu bytes (%s):\n  minivm  %s\n  OpenSSL %s", a->name, len, how, g, w);
    }
}

static int group_setup(void **state)
{
    (void)state;
    char err[1024];
    sd_fill_messages(msgbuf, sizeof msgbuf, 0x5a2);
    prog = vm_load_file(tu_source_path("tests/data/DigestTest.mva"), err, sizeof err);
    if (!prog) {
        fprintf(stderr, "tests/data/DigestTest.mva did not load: %s\n", err);
        return -1;
    }
    m_hash = vm_find_method(prog, "DigestTest.hash");
    m_known = vm_find_method(prog, "DigestTest.known");
    return m_hash && m_known ? 0 : -1;
}

static int group_teardown(void **state)
{
    (void)state;
    vm_program_free(prog);
    return 0;
}

/* (a) lengths 0..1000, whole and in chunks of 13 */
static void test_lengths(void **state)
{
    const alg *a = *state;
    vm_t *vm = new_vm();
    uint8_t out[64];
    /* the bytecode alone under QEMU (every model of the cross build runs this): every length up
       to three SHA-512 blocks, then every 7th; the stubs' runs keep every length */
    size_t step = linked_family < 0 && tu_emulated() ? 7 : 1;
    for (size_t len = 0; len <= 1000; len += len < 384 ? 1 : step) {
        size_t n = vm_hash(vm, a->name, msgbuf, len, 0, 1, out);
        expect_digest(a, msgbuf, len, out, n, "one update");
        if (len % 5 == 0) {
            n = vm_hash(vm, a->name, msgbuf + 1, len, 13, 1, out);
            expect_digest(a, msgbuf + 1, len, out, n, "chunks of 13");
        }
    }
    vm_free(vm);
}

/* (b) multi-block inputs in updates that cross the block boundary every way */
static void test_multi_block(void **state)
{
    const alg *a = *state;
    static const size_t lens[] = {4096, 4097, 8191, 65536 + 17};
    static const int chunks[] = {0, 1000, 129, 128, 127, 65, 64, 63, 1};
    vm_t *vm = new_vm();
    uint8_t out[64];
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            if (chunks[c] == 1 && lens[i] > 4097)
                continue; /* a byte at a time: once is enough */
            char how[32];
            snprintf(how, sizeof how, "chunks of %d", chunks[c]);
            size_t n = vm_hash(vm, a->name, msgbuf, lens[i], chunks[c], 1, out);
            expect_digest(a, msgbuf, lens[i], out, n, how);
        }
    vm_free(vm);
}

/* (c) digest resets the object: the third digest of the same message is the first's */
static void test_reuse(void **state)
{
    const alg *a = *state;
    vm_t *vm = new_vm();
    uint8_t out[64];
    size_t n = vm_hash(vm, a->name, msgbuf, 300, 100, 3, out);
    expect_digest(a, msgbuf, 300, out, n, "the third digest of one object");
    vm_free(vm);
}

/* (d) the FIPS 180-4 examples (its Appendix A messages and one million 'a') and RFC 1321's MD5
   test suite (its Appendix A.5) */
static void test_fips_examples(void **state)
{
    (void)state;
    static const char m448[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    static const char m896[] = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrs"
                               "mnopqrstnopqrstu";
    static uint8_t million[1000000];
    memset(million, 'a', sizeof million);
    static const struct {
        const char *alg;
        const uint8_t *msg;
        size_t len;
        const char *hex;
    } ex[] = {
        {"MD5", (const uint8_t *)"", 0, "d41d8cd98f00b204e9800998ecf8427e"},
        {"MD5", (const uint8_t *)"a", 1, "0cc175b9c0f1b6a831c399e269772661"},
        {"MD5", (const uint8_t *)"abc", 3, "900150983cd24fb0d6963f7d28e17f72"},
        {"MD5", (const uint8_t *)"message digest", 14, "f96b697d7cb7938d525a2f31aaf161d0"},
        {"MD5", (const uint8_t *)"abcdefghijklmnopqrstuvwxyz", 26, "c3fcd3d76192e4007dfb496cca67e13b"},
        {"MD5", (const uint8_t *)"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 62,
         "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"MD5", (const uint8_t *)"1234567890123456789012345678901234567890123456789012345678901234567890123456789"
                                 "0", 80, "57edf4a22be3c955ac49da2e2107b67a"},
        {"SHA-1", (const uint8_t *)"abc", 3, "a9993e364706816aba3e25717850c26c9cd0d89d"},
        {"SHA-1", (const uint8_t *)m448, 56, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
        {"SHA-1", million, sizeof million, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"},
        {"SHA-256", (const uint8_t *)"abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"SHA-256", (const uint8_t *)m448, 56, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"SHA-256", million, sizeof million, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
        {"SHA-512", (const uint8_t *)"abc", 3,
         "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e"
         "2a9ac94fa54ca49f"},
        {"SHA-512", (const uint8_t *)m896, 112,
         "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26"
         "545e96e55b874be909"},
        {"SHA-512", million, sizeof million,
         "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e"
         "4eadb217ad8cc09b"},
    };
    vm_t *vm = new_vm();
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        uint8_t out[64];
        char got[129] = "";
        size_t n = vm_hash(vm, ex[i].alg, ex[i].msg, ex[i].len, 1000, 1, out);
        for (size_t k = 0; k < n; k++)
            snprintf(got + 2 * k, 3, "%02x", out[k]);
        if (strcmp(got, ex[i].hex) != 0)
            fail_msg("%s of the %zu-byte example: %s, %s says %s", ex[i].alg, ex[i].len, got,
                     strcmp(ex[i].alg, "MD5") == 0 ? "RFC 1321" : "FIPS 180-4", ex[i].hex);
    }
    vm_free(vm);
}

/*
 * (f) a program's record extending SHA2.SHA2 with an implCompress of its own (SHA-256's, then
 * state[0] ^= 1): the multi-block candidate must run the bytecode for it, whose loop calls the
 * override, not the SHA-256 stub. The digest with the stubs linked equals the digest without.
 */
static const char override_src[] =
    "module Over\n"
    "import DigestBase\n"
    "import SHA2\n"
    "record X extends SHA2.SHA2\n"
    "end\n"
    "method implCompress(this: X, buf: byte[], ofs: int)\n"
    "    var st: int[]\n"
    "    var z, v, one: int\n"
    "    call SHA2.implCompress(this, buf, ofs)\n"
    "    getfield st, this, state\n"
    "    ldi z, 0\n"
    "    ldi one, 1\n"
    "    iaload v, st, z\n"
    "    xor v, v, one\n"
    "    iastore st, z, v\n"
    "    ret\n"
    "end\n"
    "method hash(msg: byte[]) -> byte[]\n"
    "    var d: X\n"
    "    var n: int\n"
    "    var buf: byte[]\n"
    "    var st, h: int[]\n"
    "    var a_src: int[]\n"
    "    var a_sp: int\n"
    "    var a_dst: int[]\n"
    "    var a_dp, a_len: int\n"
    "    var u_d: DigestBase.Digest\n"
    "    var u_b: byte[]\n"
    "    var u_ofs, u_len: int\n"
    "    var out: byte[]\n"
    "    var q_d: DigestBase.Digest\n"
    "    new d, X\n"
    "    ldi n, 32\n"
    "    putfield d, digestLength, n\n"
    "    ldi n, 64\n"
    "    putfield d, blockSize, n\n"
    "    newarray buf, n\n"
    "    putfield d, buffer, buf\n"
    "    getstatic h, SHA2.INITIAL_HASHES_256\n"
    "    putfield d, initialHashes, h\n"
    "    ldi n, 8\n"
    "    newarray st, n\n"
    "    putfield d, state, st\n"
    "    mov a_src, h\n"
    "    ldi a_sp, 0\n"
    "    mov a_dst, st\n"
    "    ldi a_dp, 0\n"
    "    mov a_len, n\n"
    "    call Sys.arraycopy(a_src, a_sp, a_dst, a_dp, a_len)\n"
    "    mov u_d, d\n"
    "    mov u_b, msg\n"
    "    ldi u_ofs, 0\n"
    "    alen u_len, msg\n"
    "    call DigestBase.update(u_d, u_b, u_ofs, u_len)\n"
    "    mov q_d, d\n"
    "    call out = DigestBase.digest(q_d)\n"
    "    ret out\n"
    "end\n";

static void test_override_runs_bytecode(void **state)
{
    (void)state;
    char err[1024];
    vm_program *p = tu_load(override_src);
    const vm_method *hash = vm_find_method(p, "Over.hash");
    assert_non_null(hash);
    uint8_t got[2][64];
    size_t n[2];
    for (int run = 0; run < 2; run++) {
        vm_options opt = {.heap_max = (size_t)8 << 20, .stubs = run ? linked_stubs : NULL};
        vm_t *vm = vm_new(p, &opt, err, sizeof err);
        if (!vm)
            fail_msg("vm_new: %s", err);
        vm_value args[1] = {{.ref = sd_new_bytes(vm, msgbuf, 4096)}};
        n[run] = sd_result_bytes("Over.hash", sd_call(vm, "Over.hash", hash, args), got[run], 64);
        vm_free(vm);
    }
    uint8_t plain[64];
    evp_hash(&ALGS[2], msgbuf, 4096, plain);
    if (n[0] != 32 || memcmp(got[0], plain, 32) == 0)
        fail_msg("the override did not run in the bytecode (the digest is SHA-256's)");
    if (n[1] != n[0] || memcmp(got[0], got[1], n[0]) != 0)
        fail_msg("with the stubs linked the override was skipped: the digests differ");
    vm_program_free(p);
}

/* (e) the names: MessageDigest.getInstance as the SUN provider's lookup (any case, KnownOIDs' aliases) */
static void test_names(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const char *standard; /* the digest's algorithm; NULL: getInstance is null */
    } names[] = {
        {"SHA-1", "SHA-1"},
        {"SHA-224", "SHA-224"},
        {"SHA-256", "SHA-256"},
        {"SHA-384", "SHA-384"},
        {"SHA-512", "SHA-512"},
        {"SHA3-256", "SHA3-256"},
        {"SHA3-512", "SHA3-512"},
        {"SHA-512/224", "SHA-512/224"},
        {"SHA-512/256", "SHA-512/256"},
        {"SHA-256-JDK15", "SHA-256-JDK15"},
        {"sha-256", "SHA-256"},
        {"Sha3-384", "SHA3-384"},
        {"shake128", "SHAKE128-256"},
        {"sha-256-jdk15", "SHA-256-JDK15"},
        {"SHA", "SHA-1"},
        {"sha1", "SHA-1"},
        {"SHA224", "SHA-224"},
        {"SHA256", "SHA-256"},
        {"sha384", "SHA-384"},
        {"SHA512", "SHA-512"},
        {"SHA512/224", "SHA-512/224"},
        {"sha512/256", "SHA-512/256"},
        {"1.3.14.3.2.26", "SHA-1"},
        {"OID.1.3.14.3.2.26", "SHA-1"},
        {"2.16.840.1.101.3.4.2.4", "SHA-224"},
        {"2.16.840.1.101.3.4.2.1", "SHA-256"},
        {"oid.2.16.840.1.101.3.4.2.2", "SHA-384"},
        {"2.16.840.1.101.3.4.2.3", "SHA-512"},
        {"2.16.840.1.101.3.4.2.5", "SHA-512/224"},
        {"2.16.840.1.101.3.4.2.6", "SHA-512/256"},
        {"2.16.840.1.101.3.4.2.7", "SHA3-224"},
        {"2.16.840.1.101.3.4.2.8", "SHA3-256"},
        {"2.16.840.1.101.3.4.2.9", "SHA3-384"},
        {"OID.2.16.840.1.101.3.4.2.10", "SHA3-512"},
        {"SHA-512/384", NULL},
        {"MD5", "MD5"},
        {"md5", "MD5"},
        {"1.2.840.113549.2.5", "MD5"},
        {"OID.1.2.840.113549.2.5", "MD5"},
        {"MD4", NULL},
        {"MD2", NULL}, /* the JDK's SUN provider has MD2; minivm does not */
        {"", NULL},
        {"OID.", NULL},
        {"OID", NULL},
        {"OID.SHA-256", NULL},
        {"SHA 256", NULL},
        {"SHA-256 ", NULL},
        {"SHA3256", NULL},
        /* JDK 25's SHAKE digests, their aliases and OIDs (the XOFs are no MessageDigests) */
        {"SHAKE128-256", "SHAKE128-256"},
        {"shake256-512", "SHAKE256-512"},
        {"SHAKE128", "SHAKE128-256"},
        {"Shake256", "SHAKE256-512"},
        {"2.16.840.1.101.3.4.2.11", "SHAKE128-256"},
        {"OID.2.16.840.1.101.3.4.2.12", "SHAKE256-512"},
        {"SHAKE128-512", NULL},
        {"SHAKE256-256", NULL},
        {"SHAKE", NULL},
        {"2.16.840.1.101.3.4.2.13", NULL},
        /* toUpperCase(Locale.ENGLISH): U+017F (long s) is S, U+0131 (dotless i) I; nothing else folds
           onto a name (U+00DF is SS, U+FB06 ST: no name has them) */
        {"\xc5\xbfha-256", "SHA-256"},
        {"\xc5\xbf\xc5\xbf", NULL},
        {"\xc5\xbfha1", "SHA-1"},
        {"\xc5\xbfhake128", "SHAKE128-256"},
        {"o\xc4\xb1" "d.2.16.840.1.101.3.4.2.8", "SHA3-256"},
        {"OID.\xc5\xbfHA", NULL},
        {"\xc3\x9fha-256", NULL},
        {"\xef\xac\x86" "a-256", NULL},
        {"SHA-1\xc5", NULL},
        {"\xc5", NULL},
        {"\xc5\xbeha-256", NULL},
        {"1.3.14.3.2.26.", NULL},
    };
    vm_t *vm = new_vm();
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        vm_value args[1] = {{.ref = sd_new_bytes(vm, (const uint8_t *)names[i].name, strlen(names[i].name))}};
        vm_value r = sd_call(vm, names[i].name, m_known, args);
        const char *want = names[i].standard;
        if (!want != !r.ref)
            fail_msg("MessageDigest.getInstance(\"%s\") is %s", names[i].name, r.ref ? "a digest" : "null");
        if (want && ((size_t)r.ref->length != strlen(want) || memcmp(VM_BYTES(r.ref), want, strlen(want)) != 0))
            fail_msg("MessageDigest.getInstance(\"%s\")'s algorithm is '%.*s', expected '%s'", names[i].name,
                     (int)r.ref->length, (const char *)VM_BYTES(r.ref), want);
    }
    vm_free(vm);
}

/* --stubs: the suite with the stub variant's table linked (sd_run_per_variant), its family's algorithms */
static int suite(void);

static int with_stubs(const stub_routines *t, const stub_variant *v)
{
    linked_stubs = t;
    linked_family = v->family;
    return suite();
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        static const stub_family sha2[] = {STUB_FAMILY_MD5, STUB_FAMILY_SHA1, STUB_FAMILY_SHA256, STUB_FAMILY_SHA512};
        return sd_run_per_variant("test_sha2", argc, argv, sha2, 4, with_stubs);
    }
    return suite();
}

static int suite(void)
{
    /* the bytecode alone does the same on every CPU model: under QEMU it runs on max only
       (scripts/test-cross runs every model; the stub runs above are per model) */
    const char *model = getenv("QEMU_CPU");
    if (!linked_stubs && tu_emulated() && model && strcmp(model, "max") != 0) {
        printf("the bytecode-only run is the same on every QEMU model: it runs under max\n");
        return 77;
    }
    struct CMUnitTest tests[3 * NALGS + 3];
    size_t n = 0;
    static char names[3 * NALGS][64];
    for (int a = 0; a < NALGS; a++) {
        /* with --stubs, the other families' algorithms add nothing: the bytecode run covers them */
        if (linked_family >= 0 && ALGS[a].family != linked_family)
            continue;
        static const struct {
            const char *what;
            CMUnitTestFunction fn;
        } kinds[] = {{"lengths", test_lengths}, {"multi_block", test_multi_block}, {"reuse", test_reuse}};
        for (int k = 0; k < 3; k++) {
            snprintf(names[n], sizeof names[n], "%s_%s", ALGS[a].name, kinds[k].what);
            tests[n] = (struct CMUnitTest){names[n], kinds[k].fn, NULL, NULL, (void *)&ALGS[a]};
            n++;
        }
    }
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_fips_examples);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_override_runs_bytecode);
    tests[n++] = (struct CMUnitTest)cmocka_unit_test(test_names);
    return _cmocka_run_group_tests("sha2", tests, n, group_setup, group_teardown);
}
