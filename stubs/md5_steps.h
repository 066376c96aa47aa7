/*
 * stubs/md5_steps.h — MD5's 64 steps as data (RFC 1321, 3.4), for the MD5 stub generators of
 * every architecture: step i (round i / 16) adds the sine constant md5_t[i] and the message word
 * md5_k(i), rotates left by md5_s[i / 16][i % 4], and the four state words take turns in the
 * role of a (md5_role).
 *
 * stubs/md5_ref.c, the stubs' oracle, does not read this table: it computes the sines and the
 * word order from RFC 1321's definitions, a derivation of its own.
 */
#ifndef MINIVM_MD5_STEPS_H
#define MINIVM_MD5_STEPS_H

#include <stdint.h>

/* T[i] = floor(2^32 * abs(sin(i + 1))) */
static const uint32_t md5_t[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* The left rotations, by round and step within the round modulo 4 */
static const int md5_s[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

/* The message word of step i: i, 1 + 5i, 5 + 3i, 7i (mod 16) in rounds 1..4 */
static inline int md5_k(int i)
{
    static const int mul[4] = {1, 5, 3, 7}, add[4] = {0, 1, 5, 0};
    return (add[i / 16] + mul[i / 16] * (i % 16)) % 16;
}

/* Which of the state words A..D (0..3) plays role r (a = 0 .. d = 3) at step i: the roles turn
   (a, b, c, d), (d, a, b, c), ... */
static inline int md5_role(int i, int r) { return (4 - i % 4 + r) % 4; }

#endif
