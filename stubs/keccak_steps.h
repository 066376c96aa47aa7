/*
 * stubs/keccak_steps.h — the data of Keccak-f[1600]'s step mappings (FIPS 202, 3.2) for the
 * SHA-3 stub generators of every architecture: rho's rotations, pi's lane permutation, iota's
 * round constants. A round on lanes A[x + 5y] (as SHA3.java's keccak()):
 *   theta  C[x] = A[x] ^ A[x+5] ^ A[x+10] ^ A[x+15] ^ A[x+20]
 *          D[x] = C[x-1] ^ rol(C[x+1], 1);      A[x + 5y] ^= D[x]
 *   rho+pi B[pi(i)] = rol(A[i], rho[i]),  pi(x + 5y) = y + 5 * ((2x + 3y) % 5)
 *   chi    A[x + 5y] = B[x + 5y] ^ (~B[x+1 + 5y] & B[x+2 + 5y])
 *   iota   A[0] ^= RC[round]
 *
 * The reference stubs/sha3_ref.c, the stubs' oracle, takes the round constants from here too;
 * its rho and pi are written out lane by lane as SHA3.java's keccak() does, a spelling of their
 * own. An error in a constant would be in the stubs and their oracle alike: the known answers
 * catch it (the NIST vectors in tests/test_sha3.c, the reference against OpenSSL there).
 */
#ifndef MINIVM_KECCAK_STEPS_H
#define MINIVM_KECCAK_STEPS_H

/* iota's 24 round constants RC[ir], as an initializer: each generator's table of them (whose
   address its stubs load) is defined from it. */
#define KECCAK_ROUND_CONSTS                                                                         \
    {                                                                                               \
        0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL, \
        0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL, \
        0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL, \
        0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL, \
        0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL, \
        0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL, \
    }

/* rho: the left rotation of lane i = x + 5y, in bits */
static const int keccak_rho[25] = {
     0,  1, 62, 28, 27,
    36, 44,  6, 55, 20,
     3, 10, 43, 25, 39,
    41, 45, 15, 21,  8,
    18,  2, 61, 56, 14,
};

/* pi: where lane i = x + 5y goes, y + 5 * ((2x + 3y) % 5) */
static inline int keccak_pi(int i) { return i / 5 + 5 * ((2 * (i % 5) + 3 * (i / 5)) % 5); }

#endif
