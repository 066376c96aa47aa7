/*
 * stubs/sha2_ref.c — the plain C SHA-1 and SHA-2 reference (sha2_ref.h),
 * written from FIPS 180-4 section by section: the functions of 4.1, the
 * constants of 4.2, the initial values of 5.3, the computations of 6.1
 * (SHA-1), 6.2 (SHA-256), 6.4 (SHA-512), with the 80- or 64-word schedule
 * in an array as the standard writes it (SHA2.java's W[]).
 */
#include "sha2_ref.h"

#include <string.h>

static uint32_t rotl32(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
static uint32_t rotr32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
static uint64_t rotr64(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

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
            f = (b & c) ^ (~b & d); /* Ch */
            k = 0x5a827999;
        } else if (t < 40) {
            f = b ^ c ^ d; /* Parity */
            k = 0x6ed9eba1;
        } else if (t < 60) {
            f = (b & c) ^ (b & d) ^ (c & d); /* Maj */
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

/* ---- SHA-256 (4.2.2, 6.2.2) -------------------------------------------------------------------- */

const uint32_t sha256_ref_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

void sha256_ref_compress(uint32_t st[8], const uint8_t *block)
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = be32(block + 4 * t);
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr32(w[t - 15], 7) ^ rotr32(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = rotr32(w[t - 2], 17) ^ rotr32(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = s1 + w[t - 7] + s0 + w[t - 16];
    }
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    for (int t = 0; t < 64; t++) {
        uint32_t S1 = rotr32(e, 6) ^ rotr32(e, 11) ^ rotr32(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = h + S1 + ch + sha256_ref_k[t] + w[t];
        uint32_t S0 = rotr32(a, 2) ^ rotr32(a, 13) ^ rotr32(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = S0 + maj;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    st[0] += a;
    st[1] += b;
    st[2] += c;
    st[3] += d;
    st[4] += e;
    st[5] += f;
    st[6] += g;
    st[7] += h;
}

/* ---- SHA-512 (4.2.3, 6.4.2) -------------------------------------------------------------------- */

const uint64_t sha512_ref_k[80] = {
    0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
    0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
    0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
    0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
    0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
    0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
    0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
    0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
    0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
    0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
    0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
    0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
    0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
    0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
    0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
    0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
};

void sha512_ref_compress(uint64_t st[8], const uint8_t *block)
{
    uint64_t w[80];
    for (int t = 0; t < 16; t++)
        w[t] = be64(block + 8 * t);
    for (int t = 16; t < 80; t++) {
        uint64_t s0 = rotr64(w[t - 15], 1) ^ rotr64(w[t - 15], 8) ^ (w[t - 15] >> 7);
        uint64_t s1 = rotr64(w[t - 2], 19) ^ rotr64(w[t - 2], 61) ^ (w[t - 2] >> 6);
        w[t] = s1 + w[t - 7] + s0 + w[t - 16];
    }
    uint64_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    for (int t = 0; t < 80; t++) {
        uint64_t S1 = rotr64(e, 14) ^ rotr64(e, 18) ^ rotr64(e, 41);
        uint64_t ch = (e & f) ^ (~e & g);
        uint64_t t1 = h + S1 + ch + sha512_ref_k[t] + w[t];
        uint64_t S0 = rotr64(a, 28) ^ rotr64(a, 34) ^ rotr64(a, 39);
        uint64_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint64_t t2 = S0 + maj;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    st[0] += a;
    st[1] += b;
    st[2] += c;
    st[3] += d;
    st[4] += e;
    st[5] += f;
    st[6] += g;
    st[7] += h;
}

/* ---- multi-block (DigestBase.implCompressMultiBlock0) ------------------------------------------ */

int sha1_ref_compress_multi(uint32_t st[5], const uint8_t *b, int ofs, int limit)
{
    do {
        sha1_ref_compress(st, b + ofs);
        ofs += 64;
    } while (ofs <= limit);
    return ofs;
}

int sha256_ref_compress_multi(uint32_t st[8], const uint8_t *b, int ofs, int limit)
{
    do {
        sha256_ref_compress(st, b + ofs);
        ofs += 64;
    } while (ofs <= limit);
    return ofs;
}

int sha512_ref_compress_multi(uint64_t st[8], const uint8_t *b, int ofs, int limit)
{
    do {
        sha512_ref_compress(st, b + ofs);
        ofs += 128;
    } while (ofs <= limit);
    return ofs;
}

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
