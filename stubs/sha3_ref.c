/*
 * stubs/sha3_ref.c — plain C SHA-3 (see sha3_ref.h).
 */
#include "sha3_ref.h"

#include <string.h>

#include "keccak_steps.h"

static const uint64_t RC[24] = KECCAK_ROUND_CONSTS;

static inline uint64_t rotl(uint64_t x, unsigned n) { return (x << n) | (x >> ((64 - n) & 63)); }

static inline uint64_t load_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--)
        v = (v << 8) | p[k];
    return v;
}

/* chi on one row of five lanes: each lane ^= ~(the next) & (the one after), all from the old row */
#define CHI_ROW(x0, x1, x2, x3, x4)                                                  \
    do {                                                                             \
        uint64_t t0 = x0, t1 = x1, t2 = x2, t3 = x3, t4 = x4;                        \
        x0 = t0 ^ (~t1 & t2);                                                        \
        x1 = t1 ^ (~t2 & t3);                                                        \
        x2 = t2 ^ (~t3 & t4);                                                        \
        x3 = t3 ^ (~t4 & t0);                                                        \
        x4 = t4 ^ (~t0 & t1);                                                        \
    } while (0)

void sha3_ref_keccak(uint64_t st[25])
{
    uint64_t a0 = st[0], a1 = st[1], a2 = st[2], a3 = st[3], a4 = st[4];
    uint64_t a5 = st[5], a6 = st[6], a7 = st[7], a8 = st[8], a9 = st[9];
    uint64_t a10 = st[10], a11 = st[11], a12 = st[12], a13 = st[13], a14 = st[14];
    uint64_t a15 = st[15], a16 = st[16], a17 = st[17], a18 = st[18], a19 = st[19];
    uint64_t a20 = st[20], a21 = st[21], a22 = st[22], a23 = st[23], a24 = st[24];

    for (int ir = 0; ir < 24; ir++) {
        /* theta */
        uint64_t c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
        uint64_t c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
        uint64_t c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
        uint64_t c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
        uint64_t c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
        uint64_t d0 = c4 ^ rotl(c1, 1);
        uint64_t d1 = c0 ^ rotl(c2, 1);
        uint64_t d2 = c1 ^ rotl(c3, 1);
        uint64_t d3 = c2 ^ rotl(c4, 1);
        uint64_t d4 = c3 ^ rotl(c0, 1);
        a0 ^= d0; a1 ^= d1; a2 ^= d2; a3 ^= d3; a4 ^= d4;
        a5 ^= d0; a6 ^= d1; a7 ^= d2; a8 ^= d3; a9 ^= d4;
        a10 ^= d0; a11 ^= d1; a12 ^= d2; a13 ^= d3; a14 ^= d4;
        a15 ^= d0; a16 ^= d1; a17 ^= d2; a18 ^= d3; a19 ^= d4;
        a20 ^= d0; a21 ^= d1; a22 ^= d2; a23 ^= d3; a24 ^= d4;
        /* rho and pi, merged as in SHA3.java */
        uint64_t ay = rotl(a10, 3);
        a10 = rotl(a1, 1);
        a1 = rotl(a6, 44);
        a6 = rotl(a9, 20);
        a9 = rotl(a22, 61);
        a22 = rotl(a14, 39);
        a14 = rotl(a20, 18);
        a20 = rotl(a2, 62);
        a2 = rotl(a12, 43);
        a12 = rotl(a13, 25);
        a13 = rotl(a19, 8);
        a19 = rotl(a23, 56);
        a23 = rotl(a15, 41);
        a15 = rotl(a4, 27);
        a4 = rotl(a24, 14);
        a24 = rotl(a21, 2);
        a21 = rotl(a8, 55);
        a8 = rotl(a16, 45);
        a16 = rotl(a5, 36);
        a5 = rotl(a3, 28);
        a3 = rotl(a18, 21);
        a18 = rotl(a17, 15);
        a17 = rotl(a11, 10);
        a11 = rotl(a7, 6);
        a7 = ay;
        /* chi, row by row */
        CHI_ROW(a0, a1, a2, a3, a4);
        CHI_ROW(a5, a6, a7, a8, a9);
        CHI_ROW(a10, a11, a12, a13, a14);
        CHI_ROW(a15, a16, a17, a18, a19);
        CHI_ROW(a20, a21, a22, a23, a24);
        /* iota */
        a0 ^= RC[ir];
    }

    st[0] = a0; st[1] = a1; st[2] = a2; st[3] = a3; st[4] = a4;
    st[5] = a5; st[6] = a6; st[7] = a7; st[8] = a8; st[9] = a9;
    st[10] = a10; st[11] = a11; st[12] = a12; st[13] = a13; st[14] = a14;
    st[15] = a15; st[16] = a16; st[17] = a17; st[18] = a18; st[19] = a19;
    st[20] = a20; st[21] = a21; st[22] = a22; st[23] = a23; st[24] = a24;
}
#undef CHI_ROW

void sha3_ref_compress(uint64_t st[25], const uint8_t *buf, int block_size)
{
    for (int i = 0; i < block_size / 8; i++)
        st[i] ^= load_le64(buf + 8 * i);
    sha3_ref_keccak(st);
}

int sha3_ref_compress_multi(uint64_t st[25], const uint8_t *b, int block_size, int ofs, int limit)
{
    do {
        sha3_ref_compress(st, b + ofs, block_size);
        ofs += block_size;
    } while (ofs <= limit);
    return ofs;
}

void sha3_ref_init(sha3_ref_ctx *c, int bits, int xof)
{
    memset(c, 0, sizeof *c);
    c->block_size = 200 - 2 * (bits / 8);
    c->suffix = xof ? 0x1f : 0x06;
}

void sha3_ref_update(sha3_ref_ctx *c, const void *data, size_t len)
{
    const uint8_t *p = data;
    while (len > 0) {
        size_t n = (size_t)(c->block_size - c->buf_len);
        if (n > len)
            n = len;
        memcpy(c->buf + c->buf_len, p, n);
        c->buf_len += (int)n;
        p += n;
        len -= n;
        if (c->buf_len == c->block_size) {
            sha3_ref_compress(c->st, c->buf, c->block_size);
            c->buf_len = 0;
        }
    }
}

void sha3_ref_final(sha3_ref_ctx *c, uint8_t *out, size_t outlen)
{
    if (!c->finished) {
        memset(c->buf + c->buf_len, 0, (size_t)(c->block_size - c->buf_len));
        c->buf[c->buf_len] |= c->suffix;
        c->buf[c->block_size - 1] |= 0x80;
        sha3_ref_compress(c->st, c->buf, c->block_size);
        c->finished = 1;
        c->squeezed = 0;
    }
    while (outlen > 0) {
        if (c->squeezed == c->block_size) {
            sha3_ref_keccak(c->st);
            c->squeezed = 0;
        }
        int i = c->squeezed;
        *out++ = (uint8_t)(c->st[i / 8] >> (8 * (i % 8)));
        c->squeezed++;
        outlen--;
    }
}

void sha3_ref(int bits, const void *data, size_t len, uint8_t *out)
{
    sha3_ref_ctx c;
    sha3_ref_init(&c, bits, 0);
    sha3_ref_update(&c, data, len);
    sha3_ref_final(&c, out, (size_t)bits / 8);
}

void shake_ref(int bits, const void *data, size_t len, uint8_t *out, size_t outlen)
{
    sha3_ref_ctx c;
    sha3_ref_init(&c, bits, 1);
    sha3_ref_update(&c, data, len);
    sha3_ref_final(&c, out, outlen);
}
