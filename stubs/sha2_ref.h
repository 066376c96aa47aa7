/*
 * stubs/sha2_ref.h — the plain C SHA-1 and SHA-2 reference (FIPS 180-4): the
 * oracle for the SHA-1/SHA-256/SHA-512 stubs' tests, where libcrypto cannot
 * reach (a compression function on a raw state, the cross build under QEMU),
 * and the compiled-code baseline beside OpenSSL in benchmarks.
 *
 * The compression functions have the stub contract (stubdeclarations.h):
 * the state is the digest's int[5] (SHA-1), int[8] (SHA-224/256) or long[8]
 * (SHA-384/512, /224, /256) words H0.., the block 64 or 128 bytes of
 * big-endian words, as SHA.java, SHA2.java and SHA5.java's implCompress0.
 */
#ifndef MINIVM_SHA2_REF_H
#define MINIVM_SHA2_REF_H

#include <stddef.h>
#include <stdint.h>

/* implCompress0 of SHA (64-byte block), SHA2 (64) and SHA5 (128). */
void sha1_ref_compress(uint32_t st[5], const uint8_t *block);
void sha256_ref_compress(uint32_t st[8], const uint8_t *block);
void sha512_ref_compress(uint64_t st[8], const uint8_t *block);

/* implCompressMultiBlock0: do { compress(b + ofs); ofs += block size; } while (ofs <= limit); return ofs. */
int sha1_ref_compress_multi(uint32_t st[5], const uint8_t *b, int ofs, int limit);
int sha256_ref_compress_multi(uint32_t st[8], const uint8_t *b, int ofs, int limit);
int sha512_ref_compress_multi(uint64_t st[8], const uint8_t *b, int ofs, int limit);

/* The FIPS 180-4 round constants as arrays (the lists of sha2_constants.h). */
extern const uint32_t sha256_ref_k[64];
extern const uint64_t sha512_ref_k[80];

/*
 * One-shot digests by the JDK's names: "SHA-1", "SHA-224", "SHA-256",
 * "SHA-384", "SHA-512", "SHA-512/224", "SHA-512/256". Writes the digest to
 * out (at most 64 bytes) and returns its length, or 0 for an unknown name.
 */
size_t sha2_ref_digest(const char *algorithm, const void *data, size_t len, uint8_t out[64]);

#endif
