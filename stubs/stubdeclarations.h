/*
 * stubs/stubdeclarations.h — every stub minivm generates, declared once
 * (HotSpot's share/runtime/stubDeclarations.hpp). The stub table, its entry
 * types, the stub ids, the generation loop and the intrinsic linking in
 * vm/intrinsics.c are all expanded from these two lists.
 *
 * A family is the stubs one intrinsic flag governs, with what they read of
 * the digest object (HotSpot's get_state_from_digest_object on the family's
 * class, which library_call.cpp tests the receiver against):
 *   do_family(ID, flag, "display name", "HotSpot's not-available warning",
 *             "Module.Record" of the bytecode library, state words, bytes a
 *             state word, block sizes, its single-block stub, its
 *             multi-block stub, RATE or FIXED, "the JDK digests it serves")
 * The block sizes are a mask of STUB_BLOCK(bytes): one for SHA-1 and SHA-2,
 * whose stubs step by their constant (FIXED: no block size argument);
 * SHA-3's five rates, which its stubs take as an argument and dispatch on
 * (STUB_SHA3_RATES; RATE). stubroutines.h makes each family's calls of
 * its two stubs from the row (stub_compress_ID, stub_compress_mb_ID). The
 * digests are the standard names (MessageDigest.getInstance's, and
 * minivm's SHA-256-JDK15) whose objects are the family's records: the
 * benchmark runner's configurations read them (build/tests/stub_code
 * --families).
 * A stub belongs to a family and serves one intrinsic id (vm/intrinsics.h):
 *   do_stub(name, FAMILY, intrinsic, return type, (C parameters))
 *
 * The calling convention of every stub on every architecture (HotSpot's
 * StubRoutines contract; each architecture's ABI passes these arguments in
 * its argument registers, stubgenerator_<arch>.h): the C signature below.
 * buf is already b + ofs; state is the family's array (SHA-3: the long[25]
 * of lanes, A[x + 5y]; MD5: int[4] A..D; SHA-1: int[5] H0..H4; SHA-256: int[8] H0..H7, SHA-224
 * too; SHA-512: long[8], SHA-384, SHA-512/224 and /256 too), in native words;
 * a block is big-endian words (SHA-1, SHA-2), little-endian words (MD5) or
 * little-endian lanes (SHA-3);
 * block_size is one of the family's block sizes (anything else is a caller
 * bug, as in HotSpot); only the low 32 bits of an int argument are read. A
 * multi-block stub compresses
 * `do { ...; ofs += block size; } while (ofs <= limit)` and returns the
 * final ofs, exactly as DigestBase.implCompressMultiBlock0; one per family
 * serves _digestBase_implCompressMB, chosen by the receiver's record.
 * double_keccak (SHA3Parallel.doubleKeccak, HotSpot's _double_keccak)
 * permutes two distinct long[25] states in place; its return value is not
 * read (HotSpot's returns 0, the Java method 1). A variant without a
 * double_keccak design leaves it out (stub_variant.absent): the bytecode
 * runs (docs/stubs.md: HotSpot 25 on AArch64 generates its SIMD one beside
 * the GPR SHA-3 stubs too).
 */
#ifndef MINIVM_STUBDECLARATIONS_H
#define MINIVM_STUBDECLARATIONS_H

#include <stdint.h>

/* clang-format off */
#define STUB_BLOCK(bytes) (UINT32_C(1) << ((bytes) / 8))
#define STUB_SHA3_RATES (STUB_BLOCK(72) | STUB_BLOCK(104) | STUB_BLOCK(136) | STUB_BLOCK(144) | STUB_BLOCK(168))

#define STUB_FAMILIES(do_family)                                                                        \
    do_family(SHA3, UseSHA3Intrinsics, "SHA-3",                                                         \
              "Intrinsics for SHA3-224, SHA3-256, SHA3-384 and SHA3-512 crypto hash functions not "     \
              "available on this CPU.",                                                                 \
              "SHA3.SHA3", 25, 8, STUB_SHA3_RATES, sha3_implCompress, sha3_implCompressMB, RATE,        \
              "SHA3-224 SHA3-256 SHA3-384 SHA3-512 SHAKE128-256 SHAKE256-512")                         \
    do_family(SHA1, UseSHA1Intrinsics, "SHA-1",                                                         \
              "Intrinsics for SHA-1 crypto hash functions not available on this CPU.",                  \
              "SHA.SHA", 5, 4, STUB_BLOCK(64), sha1_implCompress, sha1_implCompressMB, FIXED, "SHA-1")  \
    do_family(SHA256, UseSHA256Intrinsics, "SHA-256",                                                   \
              "Intrinsics for SHA-224 and SHA-256 crypto hash functions not available on this CPU.",    \
              "SHA2.SHA2", 8, 4, STUB_BLOCK(64), sha256_implCompress, sha256_implCompressMB, FIXED,     \
              "SHA-224 SHA-256 SHA-256-JDK15")                                                          \
    do_family(SHA512, UseSHA512Intrinsics, "SHA-512",                                                   \
              "Intrinsics for SHA-384 and SHA-512 crypto hash functions not available on this CPU.",    \
              "SHA5.SHA5", 8, 8, STUB_BLOCK(128), sha512_implCompress, sha512_implCompressMB, FIXED,    \
              "SHA-384 SHA-512 SHA-512/224 SHA-512/256")                                                \
    do_family(MD5, UseMD5Intrinsics, "MD5",                                                             \
              "MD5 intrinsics are not available on this CPU",                                           \
              "MD5.MD5", 4, 4, STUB_BLOCK(64), md5_implCompress, md5_implCompressMB, FIXED, "MD5")

#define STUB_DECLARATIONS(do_stub)                                                                      \
    do_stub(sha3_implCompress, SHA3, _sha3_implCompress, void,                                          \
            (const uint8_t *buf, int64_t *state, int32_t block_size))                                   \
    do_stub(sha3_implCompressMB, SHA3, _digestBase_implCompressMB, int32_t,                             \
            (const uint8_t *buf, int64_t *state, int32_t block_size, int32_t ofs, int32_t limit))       \
    do_stub(double_keccak, SHA3, _double_keccak, int32_t, (int64_t *state0, int64_t *state1))           \
    do_stub(sha1_implCompress, SHA1, _sha_implCompress, void, (const uint8_t *buf, int32_t *state))     \
    do_stub(sha1_implCompressMB, SHA1, _digestBase_implCompressMB, int32_t,                             \
            (const uint8_t *buf, int32_t *state, int32_t ofs, int32_t limit))                           \
    do_stub(sha256_implCompress, SHA256, _sha2_implCompress, void, (const uint8_t *buf, int32_t *state)) \
    do_stub(sha256_implCompressMB, SHA256, _digestBase_implCompressMB, int32_t,                         \
            (const uint8_t *buf, int32_t *state, int32_t ofs, int32_t limit))                           \
    do_stub(sha512_implCompress, SHA512, _sha5_implCompress, void, (const uint8_t *buf, int64_t *state)) \
    do_stub(sha512_implCompressMB, SHA512, _digestBase_implCompressMB, int32_t,                         \
            (const uint8_t *buf, int64_t *state, int32_t ofs, int32_t limit))                           \
    do_stub(md5_implCompress, MD5, _md5_implCompress, void, (const uint8_t *buf, int32_t *state))       \
    do_stub(md5_implCompressMB, MD5, _digestBase_implCompressMB, int32_t,                               \
            (const uint8_t *buf, int32_t *state, int32_t ofs, int32_t limit))

/* clang-format on */

typedef enum stub_family {
#define STUB_FAMILY_ENUM(id, ...) STUB_FAMILY_##id,
    STUB_FAMILIES(STUB_FAMILY_ENUM)
#undef STUB_FAMILY_ENUM
    STUB_FAMILY_COUNT
} stub_family;

typedef enum stub_id {
#define STUB_ID_ENUM(name, family, intrinsic, ret, params) STUB_ID_##name,
    STUB_DECLARATIONS(STUB_ID_ENUM)
#undef STUB_ID_ENUM
    STUB_COUNT
} stub_id;

#endif
