/*
 * stubs/sha2_ref.c — the plain C SHA-1 and SHA-2 reference (sha2_ref.h),
 * written from FIPS 180-4 section by section: the functions of 4.1, the
 * constants of 4.2, the initial values of 5.3, the computations of 6.1
 * (SHA-1), 6.2 (SHA-256), 6.4 (SHA-512), with the 80- or 64-word schedule
 * in an array as the standard writes it (SHA2.java's W[]).
 */
#include "sha2_ref.h"

#include <string.h>

#include "sha2_constants.h"

static uint32_t rotl32(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
static uint32_t rotr32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
static uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

/* 4.1: Ch and Maj, shared by SHA-1 (4.1.1, with Parity) and SHA-2 (4.1.2, 4.1.3) */
#define CH(x, y, z)  (((x) & (y)) ^ (~(x) & (z)))
#define MAJ(x, y, z) (((x) & (y)) ^ ((x) & (z)) ^ ((y) & (z)))

/* ---- SHA-1 (6.1.2) ----------------------------------------------------------------------------- */

void sha1_ref_compress(uint32_t st[5], const uint8_t *block)
{
    uint32_t w[80];
    for (int t = 0; t < 16; t++)
        w[t] = be32(block + 4 * t);
    for (int t = 16; t < 80; t++)
        w[t] = rotl32(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4];
    for (int t = 0; t < 80; t++) {
        uint32_t f, k;
        if (t < 20) {
            f = CH(b, c, d);
            k = 0x5a827999;
        } else if (t < 40) {
            f = b ^ c ^ d; /* Parity */
            k = 0x6ed9eba1;
        } else if (t < 60) {
            f = MAJ(b, c, d);
            k = 0x8f1bbcdc;
        } else {
            f = b ^ c ^ d;
            k = 0xca62c1d6;
        }
        uint32_t tmp = rotl32(a, 5) + f + e + k + w[t];
        e = d;
        d = c;
        c = rotl32(b, 30);
        b = a;
        a = tmp;
    }
    st[0] += a;
    st[1] += b;
    st[2] += c;
    st[3] += d;
    st[4] += e;
}

/* ---- SHA-256 and SHA-512 (4.1.2, 4.1.3, 4.2.2, 4.2.3, 6.2.2, 6.4.2) ------------------------------ */

const uint32_t sha256_ref_k[64] = {SHA256_K_GROUPS(SHA2_K4)};
const uint64_t sha512_ref_k[80] = {SHA512_K_GROUPS(SHA2_K4)};

/* 4.1.2 and 4.1.3: the functions of SHA-224/256 and SHA-384/512, which differ in their word size
   and rotation counts only */
static uint32_t Sigma0_256(uint32_t x) { return rotr32(x, 2) ^ rotr32(x, 13) ^ rotr32(x, 22); }
static uint32_t Sigma1_256(uint32_t x) { return rotr32(x, 6) ^ rotr32(x, 11) ^ rotr32(x, 25); }
static uint32_t sigma0_256(uint32_t x) { return rotr32(x, 7) ^ rotr32(x, 18) ^ (x >> 3); }
static uint32_t sigma1_256(uint32_t x) { return rotr32(x, 17) ^ rotr32(x, 19) ^ (x >> 10); }

static uint64_t Sigma0_512(uint64_t x) { return rotr64(x, 28) ^ rotr64(x, 34) ^ rotr64(x, 39); }
static uint64_t Sigma1_512(uint64_t x) { return rotr64(x, 14) ^ rotr64(x, 18) ^ rotr64(x, 41); }
static uint64_t sigma0_512(uint64_t x) { return rotr64(x, 1) ^ rotr64(x, 8) ^ (x >> 7); }
static uint64_t sigma1_512(uint64_t x) { return rotr64(x, 19) ^ rotr64(x, 61) ^ (x >> 6); }

/* 6.2.2 and 6.4.2 are one computation: sha<N>_ref_compress on words of type WORD, ROUNDS rounds,
   with the functions and constants of SHA-N and its big-endian word loader LOAD */
#define SHA2_COMPRESS(N, WORD, ROUNDS, LOAD)                                                       \
    void sha##N##_ref_compress(WORD st[8], const uint8_t *block)                                   \
    {                                                                                              \
        WORD w[ROUNDS];                                                                            \
        for (int t = 0; t < 16; t++)                                                               \
            w[t] = LOAD(block + sizeof(WORD) * t);                                                 \
        for (int t = 16; t < ROUNDS; t++)                                                          \
            w[t] = sigma1_##N(w[t - 2]) + w[t - 7] + sigma0_##N(w[t - 15]) + w[t - 16];            \
        WORD a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7]; \
        for (int t = 0; t < ROUNDS; t++) {                                                         \
            WORD t1 = h + Sigma1_##N(e) + CH(e, f, g) + sha##N##_ref_k[t] + w[t];                  \
            WORD t2 = Sigma0_##N(a) + MAJ(a, b, c);                                                \
            h = g;                                                                                 \
            g = f;                                                                                 \
            f = e;                                                                                 \
            e = d + t1;                                                                            \
            d = c;                                                                                 \
            c = b;                                                                                 \
            b = a;                                                                                 \
            a = t1 + t2;                                                                           \
        }                                                                                          \
        st[0] += a;                                                                                \
        st[1] += b;                                                                                \
        st[2] += c;                                                                                \
        st[3] += d;                                                                                \
        st[4] += e;                                                                                \
        st[5] += f;                                                                                \
        st[6] += g;                                                                                \
        st[7] += h;                                                                                \
    }
SHA2_COMPRESS(256, uint32_t, 64, be32)
SHA2_COMPRESS(512, uint64_t, 80, be64)
#undef SHA2_COMPRESS

/* ---- multi-block (DigestBase.implCompressMultiBlock0) ------------------------------------------ */

#define COMPRESS_MULTI(NAME, WORD, NWORDS, BLOCK_BYTES)                                            \
    int NAME##_ref_compress_multi(WORD st[NWORDS], const uint8_t *b, int ofs, int limit)           \
    {                                                                                              \
        do {                                                                                       \
            NAME##_ref_compress(st, b + ofs);                                                      \
            ofs += BLOCK_BYTES;                                                                    \
        } while (ofs <= limit);                                                                    \
        return ofs;                                                                                \
    }
COMPRESS_MULTI(sha1, uint32_t, 5, 64)
COMPRESS_MULTI(sha256, uint32_t, 8, 64)
COMPRESS_MULTI(sha512, uint64_t, 8, 128)
#undef COMPRESS_MULTI

/* ---- one-shot digests (5.1 padding, 5.3 initial values) ---------------------------------------- */

typedef struct sha2_algorithm {
    const char *name;
    int kind;        /* 1: SHA-1, 2: SHA-256 family, 5: SHA-512 family */
    size_t out_len;  /* bytes */
    uint64_t h[8];   /* initial hash value (the low 32 bits for kinds 1 and 2) */
} sha2_algorithm;

static const sha2_algorithm algorithms[] = {
    {"SHA-1", 1, 20, {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}},
    {"SHA-224", 2, 28,
     {0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4}},
    {"SHA-256", 2, 32,
     {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}},
    {"SHA-384", 5, 48,
     {0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939, 0x67332667ffc00b31,
      0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4}},
    {"SHA-512", 5, 64,
     {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1, 0x510e527fade682d1,
      0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179}},
    {"SHA-512/224", 5, 28,
     {0x8c3d37c819544da2, 0x73e1996689dcd4d6, 0x1dfab7ae32ff9c82, 0x679dd514582f9fcf, 0x0f6d2b697bd44da8,
      0x77e36f7304c48942, 0x3f9d85a86a1d36c8, 0x1112e6ad91d692a1}},
    {"SHA-512/256", 5, 32,
     {0x22312194fc2bf72c, 0x9f555fa3c84c64c2, 0x2393b86b6f53b151, 0x963877195940eabd, 0x96283ee2a88effe3,
      0xbe5e1e2553863992, 0x2b0199fc2c85b8aa, 0x0eb72ddc81c52ca2}},
};

size_t sha2_ref_digest(const char *algorithm, const void *data, size_t len, uint8_t out[64])
{
    const sha2_algorithm *a = NULL;
    for (size_t i = 0; i < sizeof algorithms / sizeof algorithms[0]; i++)
        if (strcmp(algorithms[i].name, algorithm) == 0)
            a = &algorithms[i];
    if (!a)
        return 0;
    size_t bs = a->kind == 5 ? 128 : 64, lenbytes = a->kind == 5 ? 16 : 8;
    uint32_t s32[8];
    uint64_t s64[8];
    for (int i = 0; i < 8; i++) {
        s32[i] = (uint32_t)a->h[i];
        s64[i] = a->h[i];
    }
    const uint8_t *p = data;
    uint8_t block[128];
    size_t left = len;
    int padded = 0; /* 1: the 0x80 is out, 2: the length is out too */
    while (padded < 2) {
        size_t n = left < bs ? left : bs;
        memcpy(block, p, n);
        p += n;
        left -= n;
        if (n < bs) {
            memset(block + n, 0, bs - n);
            if (padded == 0) {
                block[n] = 0x80;
                padded = 1;
                n++;
            }
            if (n <= bs - lenbytes) {
                uint64_t bits = (uint64_t)len * 8; /* the high 64 bits of SHA-512's 128-bit length stay 0 */
                for (int i = 0; i < 8; i++)
                    block[bs - 1 - i] = (uint8_t)(bits >> (8 * i));
                padded = 2;
            }
        }
        if (a->kind == 1)
            sha1_ref_compress(s32, block);
        else if (a->kind == 2)
            sha256_ref_compress(s32, block);
        else
            sha512_ref_compress(s64, block);
    }
    for (size_t i = 0; i < a->out_len; i++)
        out[i] = a->kind == 5 ? (uint8_t)(s64[i / 8] >> (56 - 8 * (i % 8))) : (uint8_t)(s32[i / 4] >> (24 - 8 * (i % 4)));
    return a->out_len;
}
