/*
 * stubs/md5_ref.c — MD5's compression function (RFC 1321, section 3.4), written
 * from the RFC as a loop over its 64 steps. The constants are computed, not
 * tabled, T[i] = floor(2^32 * abs(sin(i + 1))) as the RFC defines them (a double
 * holds each exactly enough: the RFC's table is reproduced bit for bit), so this
 * oracle shares no table with the stub generators or the bytecode: once a digest in
 * md5_ref_digest, once a block in md5_ref_compress (the stubs' oracle, where speed
 * does not matter).
 */
#include "md5_ref.h"

#include <math.h>
#include <string.h>

static uint32_t rol32(uint32_t x, int n) { return x << n | x >> (32 - n); }

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* RFC 1321's T[i] = floor(2^32 * abs(sin(i + 1))), computed */
static void md5_ref_sines(uint32_t t[64])
{
    for (int i = 0; i < 64; i++)
        t[i] = (uint32_t)floor(fabs(sin((double)(i + 1))) * 4294967296.0);
}

static void compress(uint32_t st[4], const uint8_t *block, const uint32_t t[64])
{
    static const int s[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};
    uint32_t x[16];
    for (int k = 0; k < 16; k++)
        x[k] = le32(block + 4 * k);
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3];
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        switch (i / 16) {
        case 0: f = (b & c) | (~b & d); g = i; break;
        case 1: f = (b & d) | (c & ~d); g = (5 * i + 1) % 16; break;
        case 2: f = b ^ c ^ d; g = (3 * i + 5) % 16; break;
        default: f = c ^ (b | ~d); g = (7 * i) % 16; break;
        }
        uint32_t next = b + rol32(a + f + x[g] + t[i], s[i / 16][i % 4]);
        a = d;
        d = c;
        c = b;
        b = next;
    }
    st[0] += a;
    st[1] += b;
    st[2] += c;
    st[3] += d;
}

void md5_ref_compress(uint32_t st[4], const uint8_t *block)
{
    uint32_t t[64];
    md5_ref_sines(t);
    compress(st, block, t);
}

void md5_ref_digest(const void *data, size_t len, uint8_t out[16])
{
    uint32_t st[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476}, t[64];
    md5_ref_sines(t); /* once a digest */
    const uint8_t *p = data;
    size_t n = len;
    for (; n >= 64; n -= 64, p += 64)
        compress(st, p, t);
    uint8_t last[128] = {0};
    memcpy(last, p, n);
    last[n] = 0x80;
    size_t end = n < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int k = 0; k < 8; k++)
        last[end - 8 + k] = (uint8_t)(bits >> (8 * k));
    compress(st, last, t);
    if (end == 128)
        compress(st, last + 64, t);
    for (int k = 0; k < 16; k++)
        out[k] = (uint8_t)(st[k / 4] >> (8 * (k % 4)));
}
