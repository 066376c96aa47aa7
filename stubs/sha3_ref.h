/*
 * stubs/sha3_ref.h — the plain C SHA-3 reference: the oracle for tests and
 * the "compiled code" baseline in benchmarks (HotSpot's C2 stands there).
 *
 * sha3_ref_keccak is written the way SHA3.java's keccak() is: 25 lanes in
 * local variables, each round written out, no intrinsics, no assembly.
 * sha3_ref_compress has the SHA-3 stub contract (absorb block_size/8
 * little-endian lanes, then permute), so stubs can be checked against it.
 */
#ifndef MINIVM_SHA3_REF_H
#define MINIVM_SHA3_REF_H

#include <stddef.h>
#include <stdint.h>

void sha3_ref_keccak(uint64_t st[25]);

/* implCompress0: XOR block_size/8 lanes of buf into st, then keccak. */
void sha3_ref_compress(uint64_t st[25], const uint8_t *buf, int block_size);

/* implCompressMultiBlock0: do { compress; ofs += block_size; } while (ofs <= limit); return ofs. */
int sha3_ref_compress_multi(uint64_t st[25], const uint8_t *b, int block_size, int ofs, int limit);

typedef struct sha3_ref_ctx {
    uint64_t st[25];
    uint8_t buf[168];
    int block_size; /* 144, 136, 104, 72 (SHA3-224..512), 168, 136 (SHAKE128/256) */
    int buf_len;
    uint8_t suffix; /* 0x06 for SHA3, 0x1f for SHAKE */
    int squeezed;   /* bytes of the current block already output */
    int finished;
} sha3_ref_ctx;

/* bits: 224, 256, 384, 512 for SHA3; 128 or 256 with xof = 1 for SHAKE (capacity 2 * bits). */
void sha3_ref_init(sha3_ref_ctx *c, int bits, int xof);
void sha3_ref_update(sha3_ref_ctx *c, const void *data, size_t len);
/* SHA3: writes (1600 - block_size*8)/16 bytes; SHAKE: any length, repeatable (squeeze). */
void sha3_ref_final(sha3_ref_ctx *c, uint8_t *out, size_t outlen);

/* One-shot helpers. */
void sha3_ref(int bits, const void *data, size_t len, uint8_t *out);
void shake_ref(int bits, const void *data, size_t len, uint8_t *out, size_t outlen);

#endif
