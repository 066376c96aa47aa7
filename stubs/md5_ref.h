/*
 * stubs/md5_ref.h — the plain C MD5 reference (RFC 1321): the oracle for the
 * MD5 stubs' tests where libcrypto cannot reach (a compression function on a
 * raw state, the cross build under QEMU).
 *
 * The compression function has the stub contract (stubdeclarations.h): the
 * state is the digest's int[4] A..D, the block 64 bytes of little-endian
 * words, as MD5.java's implCompress0.
 */
#ifndef MINIVM_MD5_REF_H
#define MINIVM_MD5_REF_H

#include <stdint.h>

#include <stddef.h>

void md5_ref_compress(uint32_t st[4], const uint8_t *block);

/* The one-shot digest (RFC 1321's padding, the length little-endian): 16 bytes to out. */
void md5_ref_digest(const void *data, size_t len, uint8_t out[16]);

#endif
