/*
 * stubs/family_refs.c — each stub family's oracles (family_refs.h): the C references of
 * sha3_ref.c, sha2_ref.c and md5_ref.c in one shape, and the known answers.
 */
#include "family_refs.h"

#include <stdio.h>
#include <string.h>

#include "md5_ref.h"
#include "sha2_ref.h"
#include "sha3_ref.h"

static void sha3_block(void *st, const uint8_t *b, int bs) { sha3_ref_compress(st, b, bs); }
static void sha1_block(void *st, const uint8_t *b, int bs) { (void)bs; sha1_ref_compress(st, b); }
static void sha256_block(void *st, const uint8_t *b, int bs) { (void)bs; sha256_ref_compress(st, b); }
static void sha512_block(void *st, const uint8_t *b, int bs) { (void)bs; sha512_ref_compress(st, b); }
static void md5_block(void *st, const uint8_t *b, int bs) { (void)bs; md5_ref_compress(st, b); }

static size_t sha3_256(const void *d, size_t n, uint8_t *out) { sha3_ref(256, d, n, out); return 32; }
static size_t sha1(const void *d, size_t n, uint8_t *out) { return sha2_ref_digest("SHA-1", d, n, out); }
static size_t sha256(const void *d, size_t n, uint8_t *out) { return sha2_ref_digest("SHA-256", d, n, out); }
static size_t sha512(const void *d, size_t n, uint8_t *out) { return sha2_ref_digest("SHA-512", d, n, out); }
static size_t md5(const void *d, size_t n, uint8_t *out) { md5_ref_digest(d, n, out); return 16; }

/* FIPS 180-4's and RFC 1321's initial states */
static const uint32_t sha1_iv[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
static const uint32_t sha256_iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                      0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
static const uint64_t sha512_iv[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                                      0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                                      0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};
static const uint32_t md5_iv[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};

const stub_family_ref stub_family_refs[STUB_FAMILY_COUNT] = {
    [STUB_FAMILY_SHA3] = {sha3_block, sha3_256, "SHA3-256", 136, NULL, 0, REF_PAD_SHA3, REF_OUT_LE,
                          "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
    [STUB_FAMILY_SHA1] = {sha1_block, sha1, "SHA1", 64, sha1_iv, sizeof sha1_iv, REF_PAD_MD_BE, REF_OUT_BE32,
                          "a9993e364706816aba3e25717850c26c9cd0d89d"},
    [STUB_FAMILY_SHA256] = {sha256_block, sha256, "SHA256", 64, sha256_iv, sizeof sha256_iv, REF_PAD_MD_BE,
                            REF_OUT_BE32, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    [STUB_FAMILY_SHA512] = {sha512_block, sha512, "SHA512", 128, sha512_iv, sizeof sha512_iv, REF_PAD_MD_BE,
                            REF_OUT_BE64,
                            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
                            "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
    [STUB_FAMILY_MD5] = {md5_block, md5, "MD5", 64, md5_iv, sizeof md5_iv, REF_PAD_MD_LE, REF_OUT_LE,
                         "900150983cd24fb0d6963f7d28e17f72"},
};

void stub_family_ref_abc(stub_family f, void *state, uint8_t *block)
{
    const stub_family_ref *r = &stub_family_refs[f];
    const int bs = r->block_size;
    memset(state, 0, 200);
    if (r->iv)
        memcpy(state, r->iv, r->iv_bytes);
    memset(block, 0, 200);
    memcpy(block, "abc", 3);
    switch (r->pad) {
    case REF_PAD_SHA3: /* SHA-3's domain bits, then pad10*1 */
        block[3] = 0x06;
        block[bs - 1] |= 0x80;
        break;
    case REF_PAD_MD_LE: /* 0x80, then the message's length in bits, little-endian (MD5) */
        block[3] = 0x80;
        block[bs - 8] = 24;
        break;
    case REF_PAD_MD_BE: /* 0x80, then the message's length in bits, big-endian (SHA-1, SHA-2) */
        block[3] = 0x80;
        block[bs - 1] = 24;
        break;
    }
}

void stub_family_ref_hex(stub_family f, const void *state, size_t n, char *hex)
{
    const uint8_t *bytes = state;
    for (size_t i = 0; i < n; i++) {
        uint8_t byte = bytes[i]; /* REF_OUT_LE: the lanes' or words' bytes in memory, little-endian */
        if (stub_family_refs[f].out == REF_OUT_BE64)
            byte = (uint8_t)(((const uint64_t *)state)[i / 8] >> (56 - 8 * (i % 8)));
        else if (stub_family_refs[f].out == REF_OUT_BE32)
            byte = (uint8_t)(((const uint32_t *)state)[i / 4] >> (24 - 8 * (i % 4)));
        snprintf(hex + 2 * i, 3, "%02x", byte);
    }
}
