/*
 * bench/digest_native.c — the JDK's MessageDigests benchmark (digest,
 * getAndDigest) for the in-process configurations of the benchmark runner:
 * the C references (stubs/sha3_ref.c, stubs/sha2_ref.c) and OpenSSL's EVP. Same input
 * (java.util.Random(1234567890)), the same throughput loop as
 * bench/MessageDigests.mva and JMH (call the op until the iteration time has
 * passed; score = ops / elapsed ms), and the same per-iteration lines as
 * `MessageDigests.mva -v`, which bench/runner.py reads:
 *
 *   # Benchmark: MessageDigests.digest
 *   # Parameters: (digesterName = SHA3-256, length = 64)
 *   # Warmup Iteration   1: 1402.117 ops/ms
 *   Iteration   1: 1398.554 ops/ms
 *
 *   digest_native ref|openssl [digest|getAndDigest]... [-p digesterName=A,B]
 *                 [-p length=N,M] [-wi N] [-i N] [-w MS] [-r MS] [-v]
 *
 * One op of `digest` hashes the input with a digest object made once (the C
 * reference's context init, or OpenSSL's EVP_MD fetched once); one op of
 * `getAndDigest` makes it anew each time (EVP_MD_fetch per op, as
 * MessageDigest.getInstance per op). Exit status 2 on a bad argument.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "java_random.h"
#include "md5_ref.h"
#include "sha2_ref.h"
#include "sha3_ref.h"

#if DIGEST_NATIVE_OPENSSL
#include <openssl/evp.h>
#endif

enum { MAX_LIST = 16, MAX_LENGTH = 1 << 24 };

enum { BITS_MD5 = -2 }; /* op.bits of MD5 (stubs/md5_ref.c) */

static volatile uint8_t sink; /* keeps every digest alive, as JMH's Blackhole */

typedef struct op {
    bool openssl, get; /* implementation; getAndDigest */
    int bits;          /* SHA-3's; 0: SHA-1/SHA-2, by name */
    const char *name;  /* the JDK's ("SHA-256"); OpenSSL takes the same */
    const uint8_t *in;
    size_t len;
#if DIGEST_NATIVE_OPENSSL
    EVP_MD *md; /* digest: fetched once */
#endif
} op;

static void run_op(op *o)
{
    uint8_t out[64];
    if (!o->openssl) {
        if (o->bits == BITS_MD5)
            md5_ref_digest(o->in, o->len, out);
        else if (o->bits)
            sha3_ref(o->bits, o->in, o->len, out);
        else
            sha2_ref_digest(o->name, o->in, o->len, out);
    } else {
#if DIGEST_NATIVE_OPENSSL
        unsigned int n;
        EVP_MD *md = o->get ? EVP_MD_fetch(NULL, o->name, NULL) : o->md;
        EVP_Digest(o->in, o->len, out, &n, md, NULL);
        if (o->get)
            EVP_MD_free(md);
#endif
    }
    sink ^= out[0];
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* One iteration: the op until ms have passed (at least once); ops per ms. */
static double iteration(op *o, long ms)
{
    double t0 = now_ms(), t;
    long ops = 0;
    do {
        run_op(o);
        ops++;
        t = now_ms() - t0;
    } while (t < (double)ms);
    return (double)ops / t;
}

static void usage(const char *msg)
{
    fprintf(stderr, "digest_native: %s\n", msg);
    fprintf(stderr, "usage: digest_native ref|openssl [digest|getAndDigest]... [-p digesterName=A,B] "
                    "[-p length=N,M] [-wi N] [-i N] [-w MS] [-r MS] [-v]\n");
    exit(2);
}

/* Split "a,b,c" into list (at most MAX_LIST entries, pointing into s). */
static int split(char *s, char **list)
{
    int n = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ","))
        if (n < MAX_LIST)
            list[n++] = tok;
    return n;
}

static long number(const char *s, long lo, long hi, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < lo || v > hi) {
        char msg[128];
        snprintf(msg, sizeof msg, "bad number '%s' for %s", s, what);
        usage(msg);
    }
    return v;
}

/* SHA-3's bits; 0 for SHA-1/SHA-2 (sha2_ref knows the name); BITS_MD5; -1 unknown */
static int bits_of(const char *name)
{
    if (strcmp(name, "MD5") == 0)
        return BITS_MD5;
    static const struct { const char *name; int bits; } algs[] = {
        {"SHA3-224", 224}, {"SHA3-256", 256}, {"SHA3-384", 384}, {"SHA3-512", 512}};
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++)
        if (strcmp(algs[i].name, name) == 0)
            return algs[i].bits;
    uint8_t out[64];
    return sha2_ref_digest(name, "", 0, out) ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "ref") != 0 && strcmp(argv[1], "openssl") != 0))
        usage("the first argument is ref or openssl");
    bool openssl = strcmp(argv[1], "openssl") == 0;
#if !DIGEST_NATIVE_OPENSSL
    if (openssl) {
        fprintf(stderr, "digest_native: built without libcrypto (Debian: libssl-dev)\n");
        return 2;
    }
#endif
    char *benches[MAX_LIST], *names[MAX_LIST], *lengths[MAX_LIST];
    int nbench = 0, nnames = 0, nlengths = 0;
    static char default_names[] = "SHA3-256,SHA3-512", default_lengths[] = "64,16384";
    long wi = 5, it = 5, w = 1000, r = 1000;
    for (int a = 2; a < argc; a++) {
        const char *s = argv[a];
        if (strcmp(s, "digest") == 0 || strcmp(s, "getAndDigest") == 0) {
            if (nbench < MAX_LIST)
                benches[nbench++] = argv[a];
            continue;
        }
        if (strcmp(s, "-v") == 0) /* the per-iteration lines are always printed */
            continue;
        if (a + 1 >= argc)
            usage("an option needs a value");
        char *v = argv[++a];
        if (strcmp(s, "-p") == 0 && strncmp(v, "digesterName=", 13) == 0)
            nnames = split(v + 13, names);
        else if (strcmp(s, "-p") == 0 && strncmp(v, "length=", 7) == 0)
            nlengths = split(v + 7, lengths);
        else if (strcmp(s, "-wi") == 0)
            wi = number(v, 0, 10000, "-wi");
        else if (strcmp(s, "-i") == 0)
            it = number(v, 1, 10000, "-i");
        else if (strcmp(s, "-w") == 0)
            w = number(v, 0, 3600000, "-w");
        else if (strcmp(s, "-r") == 0)
            r = number(v, 0, 3600000, "-r");
        else
            usage("unknown option");
    }
    if (nbench == 0) {
        static char d[] = "digest", g[] = "getAndDigest";
        benches[0] = d;
        benches[1] = g;
        nbench = 2;
    }
    if (nnames == 0)
        nnames = split(default_names, names);
    if (nlengths == 0)
        nlengths = split(default_lengths, lengths);
    /* the order JMH runs them in: benchmarks alphabetically */
    bool want_digest = false, want_get = false;
    for (int b = 0; b < nbench; b++)
        *(strcmp(benches[b], "digest") == 0 ? &want_digest : &want_get) = true;

    for (int b = 0; b < 2; b++) {
        if (!(b == 0 ? want_digest : want_get))
            continue;
        for (int n = 0; n < nnames; n++) {
            /* minivm's SHA-256-JDK15 is SHA-256 to a C implementation */
            const char *name = strcmp(names[n], "SHA-256-JDK15") == 0 ? "SHA-256" : names[n];
            int bits = bits_of(name);
            if (bits == -1)
                usage("unknown digester name (MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224, SHA-512/256, "
                      "SHA3-224, SHA3-256, SHA3-384, SHA3-512)");
            for (int l = 0; l < nlengths; l++) {
                size_t len = (size_t)number(lengths[l], 0, MAX_LENGTH, "length");
                uint8_t *in = malloc(len ? len : 1);
                if (!in) {
                    fprintf(stderr, "digest_native: out of memory\n");
                    return 1;
                }
                java_random_bytes(1234567890, in, len);
                op o = {.openssl = openssl, .get = b == 1, .bits = bits, .name = name, .in = in, .len = len};
#if DIGEST_NATIVE_OPENSSL
                if (openssl && !(o.md = EVP_MD_fetch(NULL, name, NULL))) {
                    fprintf(stderr, "digest_native: OpenSSL has no %s\n", names[n]);
                    return 1;
                }
#endif
                printf("# Benchmark: MessageDigests.%s\n", b == 0 ? "digest" : "getAndDigest");
                printf("# Parameters: (digesterName = %s, length = %s)\n", names[n], lengths[l]);
                for (long k = 1; k <= wi; k++)
                    printf("# Warmup Iteration %3ld: %.3f ops/ms\n", k, iteration(&o, w));
                for (long k = 1; k <= it; k++)
                    printf("Iteration %3ld: %.3f ops/ms\n", k, iteration(&o, r));
                printf("\n");
                fflush(stdout);
#if DIGEST_NATIVE_OPENSSL
                EVP_MD_free(o.md);
#endif
                free(in);
            }
        }
    }
    return ferror(stdout) || fflush(stdout) != 0 ? 1 : 0;
}
