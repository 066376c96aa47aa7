/*
 * stubs/family_refs.h — each stub family's oracles, one row per family of stubdeclarations.h's
 * STUB_FAMILIES: its C reference's block and whole digest, OpenSSL's name for a digest of the
 * family, and a known answer (the digest of "abc", one block from the initial state, as FIPS
 * 180-4, FIPS 202 and RFC 1321 publish it). The stub harness (tests/test_checkasm.c) iterates
 * the rows: adding a family is its row here, nothing that switches on it.
 */
#ifndef MINIVM_FAMILY_REFS_H
#define MINIVM_FAMILY_REFS_H

#include <stddef.h>
#include <stdint.h>

#include "stubdeclarations.h"

/* How the family pads a message, and the byte order of its digest */
typedef enum { REF_PAD_SHA3, REF_PAD_MD_LE, REF_PAD_MD_BE } ref_pad;
typedef enum { REF_OUT_LE, REF_OUT_BE32, REF_OUT_BE64 } ref_out;

typedef struct stub_family_ref {
    /* one block at block (block_size bytes: SHA-3's rate; the others' own) into state, the stubs'
       state words (SHA-3: 25 lanes; MD5: A..D; SHA-1 H0..H4; SHA-256 H0..H7; SHA-512 8 longs) */
    void (*compress)(void *state, const uint8_t *block, int block_size);
    /* the whole digest of data (the family's digest named by evp), into out; its length */
    size_t (*digest)(const void *data, size_t len, uint8_t *out);
    const char *evp;      /* OpenSSL's name of that digest ("SHA3-256"): EVP_get_digestbyname */
    int block_size;       /* its block size: the known answer's one block */
    const void *iv;       /* its initial state's words (NULL: zero) */
    size_t iv_bytes;
    ref_pad pad;
    ref_out out;
    const char *abc;      /* its digest of "abc", in hex */
} stub_family_ref;

extern const stub_family_ref stub_family_refs[STUB_FAMILY_COUNT];

/* The known answer's start for family f: state (at least 200 bytes) its initial state, block
   (at least 200 bytes) "abc" padded to one block of stub_family_refs[f].block_size. */
void stub_family_ref_abc(stub_family f, void *state, uint8_t *block);

/* The digest's first n bytes (n <= 64) from state, in the family's byte order, as hex into hex
   (2n + 1 bytes). */
void stub_family_ref_hex(stub_family f, const void *state, size_t n, char *hex);

#endif
