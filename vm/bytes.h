/*
 * vm/bytes.h — loads and stores of 4- and 8-byte integers in byte arrays, little- or
 * big-endian: the interpreter's byte[] views (ldle64, stbe32, ...) and the natives'
 * ByteArrayAccess conversions.
 */
#ifndef MINIVM_BYTES_H
#define MINIVM_BYTES_H

#include <stdint.h>

/*
 * The byte[] views (n = 4 or 8), written byte by byte so they are portable
 * and free of alignment and aliasing questions; GCC and Clang turn each into
 * one load or store (plus bswap for big-endian). A loop over the bytes is
 * not: GCC -O2 keeps it a loop, 5 instructions per byte.
 */
#define B_(p, k) ((uint64_t)(uint8_t)(p)[k])
static inline uint64_t ld_le(const int8_t *p, int n)
{
    uint64_t v = B_(p, 0) | B_(p, 1) << 8 | B_(p, 2) << 16 | B_(p, 3) << 24;
    if (n == 8)
        v |= B_(p, 4) << 32 | B_(p, 5) << 40 | B_(p, 6) << 48 | B_(p, 7) << 56;
    return v;
}

static inline uint64_t ld_be(const int8_t *p, int n)
{
    if (n == 8)
        return B_(p, 0) << 56 | B_(p, 1) << 48 | B_(p, 2) << 40 | B_(p, 3) << 32 | B_(p, 4) << 24 |
               B_(p, 5) << 16 | B_(p, 6) << 8 | B_(p, 7);
    return B_(p, 0) << 24 | B_(p, 1) << 16 | B_(p, 2) << 8 | B_(p, 3);
}
#undef B_

static inline void st_le(int8_t *p, uint64_t v, int n)
{
    p[0] = (int8_t)(uint8_t)v;
    p[1] = (int8_t)(uint8_t)(v >> 8);
    p[2] = (int8_t)(uint8_t)(v >> 16);
    p[3] = (int8_t)(uint8_t)(v >> 24);
    if (n == 8) {
        p[4] = (int8_t)(uint8_t)(v >> 32);
        p[5] = (int8_t)(uint8_t)(v >> 40);
        p[6] = (int8_t)(uint8_t)(v >> 48);
        p[7] = (int8_t)(uint8_t)(v >> 56);
    }
}

static inline void st_be(int8_t *p, uint64_t v, int n)
{
    if (n == 8) {
        p[0] = (int8_t)(uint8_t)(v >> 56);
        p[1] = (int8_t)(uint8_t)(v >> 48);
        p[2] = (int8_t)(uint8_t)(v >> 40);
        p[3] = (int8_t)(uint8_t)(v >> 32);
        p += 4;
    }
    p[0] = (int8_t)(uint8_t)(v >> 24);
    p[1] = (int8_t)(uint8_t)(v >> 16);
    p[2] = (int8_t)(uint8_t)(v >> 8);
    p[3] = (int8_t)(uint8_t)v;
}

#endif
