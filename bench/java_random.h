/*
 * bench/java_random.h — java.util.Random(seed).nextBytes(b), byte for byte:
 * the JDK's MessageDigests benchmark fills its input this way
 * (new Random(1234567890)), and the C configurations must hash the same bytes.
 */
#ifndef MINIVM_BENCH_JAVA_RANDOM_H
#define MINIVM_BENCH_JAVA_RANDOM_H

#include <stddef.h>
#include <stdint.h>

static inline void java_random_bytes(uint64_t seed, uint8_t *b, size_t n)
{
    uint64_t s = (seed ^ 0x5DEECE66DULL) & ((1ULL << 48) - 1);
    for (size_t i = 0; i < n;) {
        s = (s * 0x5DEECE66DULL + 0xB) & ((1ULL << 48) - 1);
        uint32_t rnd = (uint32_t)(s >> 16); /* next(32) */
        for (int k = 0; k < 4 && i < n; k++, rnd >>= 8)
            b[i++] = (uint8_t)rnd;
    }
}

#endif
