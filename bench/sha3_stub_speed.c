/*
 * bench/sha3_stub_speed.c — the SHA-3 stubs called directly, each variant the
 * host runs, against OpenSSL's EVP (SHA3-256, SHA3-512) and the C reference
 * (stubs/sha3_ref.c), at 64 B and 16 KiB, measured side by side in one run.
 *
 * One op is a whole digest, as JMH's MessageDigests.digest: absorb the
 * message's full blocks with the multi-block stub, pad the tail into one last
 * block for the single-block stub, copy the digest out of the state. The
 * configurations are interleaved in rounds (A B C ..., A B C ..., ...), so each
 * round's figures share the machine's noise; per configuration the median over
 * the rounds is reported, and per ratio the median of the per-round ratios;
 * "best" is the fastest round (what the core does when nothing else runs on
 * it: on a shared machine the median and the best can differ by tens of
 * percent, and more for scalar code than for vector code).
 * Cycles per byte are the time stamp counter's (x86-64: rdtsc, the nominal
 * frequency, not the core's), ns per byte the wall clock's.
 *
 *   sha3_stub_speed [--rounds N] [--time MS] [--quick]
 *
 * The variants are the host architecture's variant table (stub_arch_ops),
 * each generated the way the VM does with its settings, never a list kept
 * here. docs/PERFORMANCE.md has the figures and how to read them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codecache.h"
#include "cpu.h"
#include "flags.h"
#include "sha3_ref.h"
#include "stubroutines.h"

#if SHA3_SPEED_OPENSSL
#include <openssl/evp.h>
#endif

enum { MAX_ROUNDS = 256, MAX_CFG = 12 };
static const int lengths[] = {64, 16384};
static const struct { const char *name; int bits; } algs[] = {{"SHA3-256", 256}, {"SHA3-512", 512}};

typedef struct config {
    const char *name;
    int kind;                 /* 0 C reference, 1 OpenSSL, 2 a stub variant */
    stub_routines table;      /* kind 2 */
    codecache cc;
    double ops_ms[MAX_ROUNDS];
} config;

static config cfgs[MAX_CFG];
static int ncfg;

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t tsc(void)
{
#if defined(__x86_64__)
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
#else
    return 0;
#endif
}

/* One SHA-3 digest through the stubs: the library's absorb, pad and squeeze around them. */
static void stub_digest(const stub_routines *t, int bits, const uint8_t *msg, int len, uint8_t *out)
{
    int64_t st[25] = {0};
    int rate = 200 - 2 * (bits / 8);
    int full = len / rate * rate;
    if (full > 0)
        STUB_FN(t, sha3_implCompressMB)(msg, st, rate, 0, full - rate);
    uint8_t last[168] = {0};
    memcpy(last, msg + full, (size_t)(len - full));
    last[len - full] ^= 0x06;
    last[rate - 1] ^= 0x80;
    STUB_FN(t, sha3_implCompress)(last, st, rate);
    memcpy(out, st, (size_t)bits / 8);
}

static void ref_digest(int bits, const uint8_t *msg, int len, uint8_t *out)
{
    uint64_t st[25] = {0};
    int rate = 200 - 2 * (bits / 8);
    int full = len / rate * rate;
    if (full > 0)
        sha3_ref_compress_multi(st, msg, rate, 0, full - rate);
    uint8_t last[168] = {0};
    memcpy(last, msg + full, (size_t)(len - full));
    last[len - full] ^= 0x06;
    last[rate - 1] ^= 0x80;
    sha3_ref_compress(st, last, rate);
    memcpy(out, st, (size_t)bits / 8);
}

#if SHA3_SPEED_OPENSSL
static void openssl_digest(int bits, const uint8_t *msg, int len, uint8_t *out)
{
    unsigned int n;
    EVP_Digest(msg, (size_t)len, out, &n, bits == 256 ? EVP_sha3_256() : EVP_sha3_512(), NULL);
}
#endif

static void digest(const config *c, int bits, const uint8_t *msg, int len, uint8_t *out)
{
    if (c->kind == 0)
        ref_digest(bits, msg, len, out);
#if SHA3_SPEED_OPENSSL
    else if (c->kind == 1)
        openssl_digest(bits, msg, len, out);
#endif
    else
        stub_digest(&c->table, bits, msg, len, out);
}

/* Every SHA-3 variant of the host's table that the host runs: its settings as -XX: options, the
   ergonomics, then the generation the VM does. */
static void add_stub_variants(void)
{
    cpu_info host;
    if (!cpu_detect_host(&host))
        return;
    const stub_arch_ops *arch = stub_arch_ops_for(host.arch);
    for (size_t i = 0; arch && i < arch->nvariants && ncfg < MAX_CFG; i++) {
        const stub_variant *v = &arch->variants[i];
        if (v->family != STUB_FAMILY_SHA3 || (v->features & ~host.features))
            continue;
        flags_init(flags_host_arch());
        flag_process_argument("-PrintWarnings", true, FLAG_ORIGIN_COMMAND_LINE, stderr);
        char options[256];
        stub_variant_options(v, options, sizeof options);
        for (char *tok = strtok(options, " "); tok; tok = strtok(NULL, " "))
            flag_process_argument(tok + 4, true, FLAG_ORIGIN_COMMAND_LINE, stderr); /* without "-XX:" */
        arch->ergonomics(&host);
        config *c = &cfgs[ncfg];
        memset(c, 0, sizeof *c);
        if (!stubs_generate_into(arch, &c->cc, STUBS_CODE_CACHE_CAPACITY, &c->table, &host) ||
            !c->table.entry[STUB_ID_sha3_implCompressMB].fn ||
            strcmp(c->table.entry[STUB_ID_sha3_implCompressMB].variant, v->name) != 0) {
            codecache_release(&c->cc);
            continue; /* the CPU's ergonomics refuse what its settings ask for */
        }
        c->kind = 2;
        c->name = v->name;
        ncfg++;
    }
}

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    double s[MAX_ROUNDS];
    memcpy(s, v, (size_t)n * sizeof *v);
    qsort(s, (size_t)n, sizeof *s, by_double);
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    int rounds = 9;
    double slice_ms = 200;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--time") == 0 && i + 1 < argc)
            slice_ms = atof(argv[++i]);
        else if (strcmp(argv[i], "--quick") == 0)
            rounds = 3, slice_ms = 20;
        else {
            fprintf(stderr, "usage: sha3_stub_speed [--rounds N] [--time MS] [--quick]\n");
            return 2;
        }
    }
    if (rounds < 1 || rounds > MAX_ROUNDS)
        rounds = rounds < 1 ? 1 : MAX_ROUNDS;
    cfgs[ncfg++] = (config){.name = "C reference", .kind = 0};
#if SHA3_SPEED_OPENSSL
    cfgs[ncfg++] = (config){.name = "OpenSSL EVP", .kind = 1};
#endif
    add_stub_variants();

    static uint8_t msg[16384];
    uint64_t x = 1234567890;
    for (size_t i = 0; i < sizeof msg; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        msg[i] = (uint8_t)(x >> 56);
    }
    cpu_info host;
    char features[512] = "";
    if (cpu_detect_host(&host))
        cpu_features_string(&host, features, sizeof features);
    printf("# sha3_stub_speed: %d rounds of %.0f ms per configuration; host %s\n", rounds, slice_ms,
           host.description[0] ? host.description : cpu_arch_name(cpu_host_arch()));
    printf("# %s\n", features);
    for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        for (size_t l = 0; l < sizeof lengths / sizeof lengths[0]; l++) {
            int len = lengths[l], bits = algs[a].bits;
            /* every configuration must agree with the C reference before it is timed */
            uint8_t want[64], got[64];
            ref_digest(bits, msg, len, want);
            for (int c = 0; c < ncfg; c++) {
                digest(&cfgs[c], bits, msg, len, got);
                if (memcmp(got, want, (size_t)bits / 8) != 0) {
                    fprintf(stderr, "%s: wrong %s digest\n", cfgs[c].name, algs[a].name);
                    return 1;
                }
            }
            double cycles[MAX_CFG] = {0};
            for (int r = 0; r < rounds; r++) {
                for (int c = 0; c < ncfg; c++) {
                    long ops = 0;
                    double t0 = now_ns(), t1;
                    uint64_t c0 = tsc();
                    do {
                        for (int k = 0; k < 16; k++)
                            digest(&cfgs[c], bits, msg, len, got);
                        ops += 16;
                        t1 = now_ns();
                    } while (t1 - t0 < slice_ms * 1e6);
                    cycles[c] += (double)(tsc() - c0) / ((double)ops * len) / rounds;
                    cfgs[c].ops_ms[r] = (double)ops / ((t1 - t0) / 1e6);
                }
            }
            printf("\n%s, %d bytes            %12s %10s %10s %12s %12s\n", algs[a].name, len, "ops/ms", "ns/byte",
                   "TSC c/B", "vs OpenSSL", "best ops/ms");
            int base = ncfg > 1 && cfgs[1].kind == 1 ? 1 : 0;
            for (int c = 0; c < ncfg; c++) {
                double ratios[MAX_ROUNDS];
                for (int r = 0; r < rounds; r++)
                    ratios[r] = cfgs[c].ops_ms[r] / cfgs[base].ops_ms[r];
                double m = median(cfgs[c].ops_ms, rounds), best = 0;
                for (int r = 0; r < rounds; r++)
                    best = cfgs[c].ops_ms[r] > best ? cfgs[c].ops_ms[r] : best;
                printf("  %-28s %12.2f %10.3f %10.2f %11.2fx %12.2f\n", cfgs[c].name, m, 1e6 / (m * len),
                       cycles[c], median(ratios, rounds), best);
            }
        }
    }
    return 0;
}
