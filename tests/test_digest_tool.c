/*
 * tests/test_digest_tool.c — examples/digest.mva end to end (suite 'cli').
 *
 * Each case runs `build/minivm examples/digest.mva ...` as a child process
 * (tu_run) and compares its exit status, standard output and standard error
 * exactly. The expected digests come from OpenSSL's libcrypto, computed here,
 * so the bytecode SHA-3 is checked against an independent implementation.
 *
 * In argv and in the expected texts, "@name" stands for a path:
 *   @tool     examples/digest.mva in the source tree
 *   @abc      a file holding "abc"
 *   @text     200000 bytes of text (crosses the tool's 64 KiB reads)
 *   @bin      70000 bytes of every byte value, NUL included
 *   @empty    an empty file
 *   @spaced   a file whose name has a space in it (holds "abc")
 *   @dir      a directory
 *   @missing  a path that does not exist
 * and, in the expected standard output, "{ALGORITHM/input}" stands for the
 * lowercase hex digest of an input (abc, text, bin, empty), ALGORITHM as on
 * the tool's command line: "SHA3-256", "SHAKE128" (32 bytes), "SHAKE256:200".
 * A case's standard input is one of those inputs, by name, or none.
 *
 * large_file hashes 100 MiB of pseudo-random data (8 MiB under sanitizers,
 * MINIVM_SANITIZED=1, and under QEMU, MINIVM_EMULATED=1) and checks the digest and that the child's peak RSS
 * stays under 16 MiB (skipped under sanitizers); unreadable_file needs a
 * non-root user (a file with mode 000) and is skipped as root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "testutil.h"

/* The short usage, printed after every usage error. */
#define USAGE                                                                              \
    "Usage: minivm [options] digest.mva ALGORITHM[:N] [FILE]...\n"                         \
    "ALGORITHM: MD5, SHA-1, SHA-224, SHA-256, SHA-384, SHA-512, SHA-512/224, SHA-512/256,\n" \
    "           SHA3-224, SHA3-256, SHA3-384, SHA3-512, SHAKE128[:N], SHAKE256[:N]\n"      \
    "           in any case, or a Java alias (SHA, SHA1, SHA256, ..., an OID)\n"           \
    "  N: SHAKE output bytes, 0 to 1048576 (default 32 for SHAKE128, 64 for SHAKE256)\n"
#define BAD_N(n) "digest: invalid output length '" n "': N must be a number of bytes from 0 to 1048576\n" USAGE
#define FIXED(alg) "digest: " alg " has a fixed output length: ':N' is only for SHAKE128 and SHAKE256\n" USAGE
#define UNKNOWN(alg) "digest: unknown algorithm '" alg "'\n" USAGE
#define ENOENT_MSG ": No such file or directory\n"

#define LARGE_MIB 100
#define LARGE_MIB_SANITIZED 8
#define RSS_LIMIT_KIB (16L * 1024)

enum { EXACT = TU_EXACT, PREFIX = TU_PREFIX };

typedef struct digest_case {
    const char *name;
    const char *argv[10]; /* launcher arguments */
    const char *in;       /* standard input: an input's name, or NULL */
    int status;
    int out_mode;
    const char *out; /* expected stdout */
    const char *err; /* expected stderr (exact) */
} digest_case;

#define FILES4(alg) "{" alg "/abc}  @abc\n{" alg "/bin}  @bin\n{" alg "/empty}  @empty\n{" alg "/text}  @text\n"
/* the truncated variants share their family's code: two small files (the hashlib check has every length) */
#define FILES2(alg) "{" alg "/abc}  @abc\n{" alg "/empty}  @empty\n"

static const digest_case cases[] = {
    /* ---- every algorithm on standard input (no FILE) ---- */
    {"sha3_224_stdin", {"@tool", "SHA3-224"}, "text", 0, EXACT, "{SHA3-224/text}  -\n", ""},
    {"sha3_256_stdin", {"@tool", "SHA3-256"}, "text", 0, EXACT, "{SHA3-256/text}  -\n", ""},
    {"sha3_384_stdin", {"@tool", "SHA3-384"}, "text", 0, EXACT, "{SHA3-384/text}  -\n", ""},
    {"sha3_512_stdin", {"@tool", "SHA3-512"}, "text", 0, EXACT, "{SHA3-512/text}  -\n", ""},
    {"shake128_stdin", {"@tool", "SHAKE128"}, "text", 0, EXACT, "{SHAKE128/text}  -\n", ""},
    {"shake256_stdin", {"@tool", "SHAKE256"}, "text", 0, EXACT, "{SHAKE256/text}  -\n", ""},
    {"sha3_256_stdin_abc", {"@tool", "SHA3-256"}, "abc", 0, EXACT,
     "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532  -\n", ""},
    {"empty_stdin", {"@tool", "SHA3-256"}, NULL, 0, EXACT,
     "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a  -\n", ""},
    /* ---- every algorithm on several files in one call, the empty file among them ---- */
    {"sha3_224_files", {"@tool", "SHA3-224", "@abc", "@bin", "@empty", "@text"}, NULL, 0, EXACT, FILES4("SHA3-224"), ""},
    {"sha3_256_files", {"@tool", "SHA3-256", "@abc", "@bin", "@empty", "@text"}, NULL, 0, EXACT, FILES4("SHA3-256"), ""},
    {"sha3_384_files", {"@tool", "SHA3-384", "@abc", "@bin", "@empty", "@text"}, NULL, 0, EXACT, FILES4("SHA3-384"), ""},
    {"sha3_512_files", {"@tool", "SHA3-512", "@abc", "@bin", "@empty", "@text"}, NULL, 0, EXACT, FILES4("SHA3-512"), ""},
    {"shake128_files", {"@tool", "SHAKE128", "@abc", "@bin", "@empty", "@text"}, NULL, 0, EXACT, FILES4("SHAKE128"), ""},
    {"shake256_files", {"@tool", "SHAKE256", "@abc", "@bin", "@empty", "@text"}, NULL, 0, EXACT, FILES4("SHAKE256"), ""},
    {"sha1_files", {"@tool", "SHA-1", "@abc", "@bin", "@empty", "@text"}, NULL, 0, EXACT, FILES4("SHA-1"), ""},
    {"sha224_files", {"@tool", "SHA-224", "@abc", "@empty"}, NULL, 0, EXACT, FILES2("SHA-224"), ""},
    {"sha256_files", {"@tool", "SHA-256", "@abc", "@bin", "@empty", "@text"}, NULL, 0, EXACT, FILES4("SHA-256"), ""},
    {"sha384_files", {"@tool", "SHA-384", "@abc", "@empty"}, NULL, 0, EXACT, FILES2("SHA-384"), ""},
    {"sha512_files", {"@tool", "SHA-512", "@abc", "@bin", "@empty", "@text"}, NULL, 0, EXACT, FILES4("SHA-512"), ""},
    {"sha512_224_files", {"@tool", "SHA-512/224", "@abc", "@empty"}, NULL, 0, EXACT, FILES2("SHA-512/224"), ""},
    {"sha512_256_files", {"@tool", "SHA-512/256", "@abc", "@empty"}, NULL, 0, EXACT, FILES2("SHA-512/256"), ""},
    {"sha256_stdin_abc", {"@tool", "SHA-256"}, "abc", 0, EXACT,
     "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -\n", ""},
    /* ---- "-" is standard input, wherever it is; read twice, the second time it is empty ---- */
    {"dash_between_files", {"@tool", "SHA3-256", "@abc", "-", "@bin"}, "text", 0, EXACT,
     "{SHA3-256/abc}  @abc\n{SHA3-256/text}  -\n{SHA3-256/bin}  @bin\n", ""},
    {"dash_alone", {"@tool", "SHAKE256", "-"}, "abc", 0, EXACT, "{SHAKE256/abc}  -\n", ""},
    {"dash_twice", {"@tool", "SHA3-384", "-", "-"}, "text", 0, EXACT, "{SHA3-384/text}  -\n{SHA3-384/empty}  -\n", ""},
    {"same_file_twice", {"@tool", "SHA3-224", "@text", "@text"}, NULL, 0, EXACT,
     "{SHA3-224/text}  @text\n{SHA3-224/text}  @text\n", ""},
    {"name_with_space", {"@tool", "SHA3-256", "@spaced"}, NULL, 0, EXACT, "{SHA3-256/abc}  @spaced\n", ""},
    /* ---- SHAKE lengths: defaults 32 and 64, then :N ---- */
    {"shake128_default_is_32", {"@tool", "SHAKE128", "@abc"}, NULL, 0, EXACT,
     "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8  @abc\n", ""},
    {"shake256_default_is_64", {"@tool", "SHAKE256", "@abc"}, NULL, 0, EXACT,
     "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739"
     "d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4  @abc\n", ""},
    {"shake128_n_32_is_default", {"@tool", "SHAKE128:32", "@abc"}, NULL, 0, EXACT, "{SHAKE128/abc}  @abc\n", ""},
    {"shake128_n_0", {"@tool", "SHAKE128:0", "@abc", "-"}, "text", 0, EXACT, "  @abc\n  -\n", ""},
    {"shake256_n_0", {"@tool", "SHAKE256:0", "@empty"}, NULL, 0, EXACT, "  @empty\n", ""},
    {"shake128_n_1", {"@tool", "SHAKE128:1", "@abc", "@text", "@empty"}, NULL, 0, EXACT,
     "{SHAKE128:1/abc}  @abc\n{SHAKE128:1/text}  @text\n{SHAKE128:1/empty}  @empty\n", ""},
    {"shake256_n_1", {"@tool", "SHAKE256:1", "@abc"}, NULL, 0, EXACT, "{SHAKE256:1/abc}  @abc\n", ""},
    {"shake128_n_200", {"@tool", "SHAKE128:200", "@abc", "@bin"}, NULL, 0, EXACT,
     "{SHAKE128:200/abc}  @abc\n{SHAKE128:200/bin}  @bin\n", ""},
    {"shake256_n_200", {"@tool", "SHAKE256:200", "@abc", "@bin"}, NULL, 0, EXACT,
     "{SHAKE256:200/abc}  @abc\n{SHAKE256:200/bin}  @bin\n", ""},
    {"shake128_n_1000", {"@tool", "SHAKE128:1000", "@text", "-"}, "abc", 0, EXACT,
     "{SHAKE128:1000/text}  @text\n{SHAKE128:1000/abc}  -\n", ""},
    {"shake256_n_1000", {"@tool", "SHAKE256:1000", "@empty", "@text"}, NULL, 0, EXACT,
     "{SHAKE256:1000/empty}  @empty\n{SHAKE256:1000/text}  @text\n", ""},
    {"shake256_n_leading_zeros", {"@tool", "SHAKE256:0007", "@abc"}, NULL, 0, EXACT, "{SHAKE256:7/abc}  @abc\n", ""},
    {"shake128_n_max", {"@tool", "SHAKE128:1048576", "@abc"}, NULL, 0, EXACT, "{SHAKE128:1048576/abc}  @abc\n", ""},
    /* ---- the launcher's options come before the program ---- */
    {"vm_options_small_heap", {"-Xint", "-Xmx2m", "@tool", "SHA3-512", "@bin"}, NULL, 0, EXACT,
     "{SHA3-512/bin}  @bin\n", ""},
    {"help_on_stdout", {"@tool", "--help"}, NULL, 0, PREFIX,
     "Usage: minivm [options] digest.mva ALGORITHM[:N] [FILE]...\n"
     "Print the digest of each FILE: lowercase hex, two spaces, the name.\n",
     ""},
    /* ---- files that cannot be read: a message each, the others still printed in order, exit 1 ---- */
    {"missing_file", {"@tool", "SHA3-256", "@missing"}, NULL, 1, EXACT, "", "digest: @missing" ENOENT_MSG},
    {"missing_file_between_good", {"@tool", "SHA3-256", "@abc", "@missing", "@bin"}, NULL, 1, EXACT,
     "{SHA3-256/abc}  @abc\n{SHA3-256/bin}  @bin\n", "digest: @missing" ENOENT_MSG},
    {"directory", {"@tool", "SHA3-512", "@dir"}, NULL, 1, EXACT, "", "digest: @dir: Is a directory\n"},
    {"directory_between_good", {"@tool", "SHAKE128:200", "@text", "@dir", "@abc"}, NULL, 1, EXACT,
     "{SHAKE128:200/text}  @text\n{SHAKE128:200/abc}  @abc\n", "digest: @dir: Is a directory\n"},
    {"errors_in_order_with_stdin", {"@tool", "SHA3-384", "@missing", "@abc", "@dir", "-", "@empty"}, "text", 1, EXACT,
     "{SHA3-384/abc}  @abc\n{SHA3-384/text}  -\n{SHA3-384/empty}  @empty\n",
     "digest: @missing" ENOENT_MSG "digest: @dir: Is a directory\n"},
    {"empty_name", {"@tool", "SHA3-256", "", "@abc"}, NULL, 1, EXACT, "{SHA3-256/abc}  @abc\n", "digest: " ENOENT_MSG},
    /* ---- usage errors: a message and the usage on stderr, nothing hashed, exit 2 ---- */
    {"no_arguments", {"@tool"}, "abc", 2, EXACT, "", "digest: missing ALGORITHM\n" USAGE},
    {"unknown_algorithm", {"@tool", "MD4", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("MD4")},
    {"unknown_algorithm_stdin", {"@tool", "SHA-255"}, "abc", 2, EXACT, "", UNKNOWN("SHA-255")},
    /* ---- names as MessageDigest.getInstance takes them: any case, Java's aliases ---- */
    {"sha2_any_case", {"@tool", "sha-256", "@abc"}, NULL, 0, EXACT, "{SHA-256/abc}  @abc\n", ""},
    {"alias_sha", {"@tool", "SHA", "@abc"}, NULL, 0, EXACT, "{SHA-1/abc}  @abc\n", ""},
    {"alias_sha1", {"@tool", "sha1", "@abc"}, NULL, 0, EXACT, "{SHA-1/abc}  @abc\n", ""},
    {"alias_sha256", {"@tool", "SHA256", "@abc"}, NULL, 0, EXACT, "{SHA-256/abc}  @abc\n", ""},
    {"alias_sha512_256", {"@tool", "SHA512/256", "@abc"}, NULL, 0, EXACT, "{SHA-512/256/abc}  @abc\n", ""},
    {"alias_oid", {"@tool", "2.16.840.1.101.3.4.2.8", "@abc"}, NULL, 0, EXACT, "{SHA3-256/abc}  @abc\n", ""},
    {"alias_oid_prefixed", {"@tool", "oid.2.16.840.1.101.3.4.2.10", "@abc"}, NULL, 0, EXACT,
     "{SHA3-512/abc}  @abc\n", ""},
    {"shake_any_case_default", {"@tool", "shake128", "@abc"}, NULL, 0, EXACT, "{SHAKE128/abc}  @abc\n", ""},
    {"shake_any_case_n", {"@tool", "Shake256:4", "@abc"}, NULL, 0, EXACT, "{SHAKE256:4/abc}  @abc\n", ""},
    /* JDK 25's SHAKE digests: SHAKE128-256 and SHAKE256-512, their aliases SHAKE128 and SHAKE256, their
       OIDs bare or after OID.; ':N' reads the XOF by any of their names */
    {"shake128_256", {"@tool", "SHAKE128-256", "@abc", "@bin"}, NULL, 0, EXACT,
     "{SHAKE128/abc}  @abc\n{SHAKE128/bin}  @bin\n", ""},
    {"shake256_512", {"@tool", "SHAKE256-512", "@abc", "@empty"}, NULL, 0, EXACT,
     "{SHAKE256/abc}  @abc\n{SHAKE256/empty}  @empty\n", ""},
    {"shake128_256_any_case", {"@tool", "shake128-256", "@abc"}, NULL, 0, EXACT, "{SHAKE128/abc}  @abc\n", ""},
    {"shake128_oid", {"@tool", "2.16.840.1.101.3.4.2.11", "@abc"}, NULL, 0, EXACT, "{SHAKE128/abc}  @abc\n", ""},
    {"shake256_oid_prefixed", {"@tool", "OID.2.16.840.1.101.3.4.2.12", "@abc"}, NULL, 0, EXACT,
     "{SHAKE256/abc}  @abc\n", ""},
    {"shake128_256_n", {"@tool", "SHAKE128-256:7", "@abc"}, NULL, 0, EXACT, "{SHAKE128:7/abc}  @abc\n", ""},
    {"shake256_oid_n", {"@tool", "2.16.840.1.101.3.4.2.12:200", "@abc"}, NULL, 0, EXACT,
     "{SHAKE256:200/abc}  @abc\n", ""},
    {"shake_other_length_unknown", {"@tool", "SHAKE128-512", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("SHAKE128-512")},
    /* Locale.ENGLISH's upper case: U+017F (long s) is S and U+0131 (dotless i) is I, as in the JDK */
    {"fold_long_s", {"@tool", "\xc5\xbfha-256", "@abc"}, NULL, 0, EXACT, "{SHA-256/abc}  @abc\n", ""},
    {"fold_long_s_alias", {"@tool", "\xc5\xbfha512/256", "@abc"}, NULL, 0, EXACT, "{SHA-512/256/abc}  @abc\n", ""},
    {"fold_long_s_shake", {"@tool", "\xc5\xbfhake256:4", "@abc"}, NULL, 0, EXACT, "{SHAKE256:4/abc}  @abc\n", ""},
    {"fold_dotless_i_oid", {"@tool", "o\xc4\xb1" "d.2.16.840.1.101.3.4.2.8", "@abc"}, NULL, 0, EXACT,
     "{SHA3-256/abc}  @abc\n", ""},
    /* ... and no other letter: sharp s is SS, the ligature U+FB06 ST, a lone lead byte stays */
    {"fold_sharp_s_unknown", {"@tool", "\xc3\x9fha-256", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("\xc3\x9fha-256")},
    {"fold_lead_byte_alone", {"@tool", "SHA-256\xc5", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("SHA-256\xc5")},
    {"fold_wrong_second_byte", {"@tool", "\xc5\xbeha-256", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("\xc5\xbeha-256")},
    {"alias_fixed_length", {"@tool", "sha256:16", "@abc"}, NULL, 2, EXACT, "", FIXED("sha256")},
    {"alias_near_miss", {"@tool", "SHA-256 ", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("SHA-256 ")},
    {"oid_prefix_alone", {"@tool", "OID.", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("OID.")},
    {"sha2_fixed_length", {"@tool", "SHA-512:16", "@abc"}, NULL, 2, EXACT, "", FIXED("SHA-512")},
    {"algorithm_any_case", {"@tool", "sha3-256", "@abc"}, NULL, 0, EXACT, "{SHA3-256/abc}  @abc\n", ""},
    {"algorithm_file_name_first", {"@tool", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("@abc")},
    {"unknown_algorithm_with_n", {"@tool", "SHA3-999:5", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("SHA3-999")},
    {"empty_algorithm", {"@tool", "", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("")},
    {"only_n", {"@tool", ":5", "@abc"}, NULL, 2, EXACT, "", UNKNOWN("")},
    {"shake_n_letters", {"@tool", "SHAKE128:abc", "@abc"}, NULL, 2, EXACT, "", BAD_N("abc")},
    {"shake_n_negative", {"@tool", "SHAKE128:-1", "@abc"}, NULL, 2, EXACT, "", BAD_N("-1")},
    {"shake_n_plus_sign", {"@tool", "SHAKE256:+5", "@abc"}, NULL, 2, EXACT, "", BAD_N("+5")},
    {"shake_n_empty", {"@tool", "SHAKE128:", "@abc"}, NULL, 2, EXACT, "", BAD_N("")},
    {"shake_n_trailing_junk", {"@tool", "SHAKE256:12x", "@abc"}, NULL, 2, EXACT, "", BAD_N("12x")},
    {"shake_n_space", {"@tool", "SHAKE256: 12", "@abc"}, NULL, 2, EXACT, "", BAD_N(" 12")},
    {"shake_n_two_colons", {"@tool", "SHAKE128:1:2", "@abc"}, NULL, 2, EXACT, "", BAD_N("1:2")},
    {"shake_n_over_max", {"@tool", "SHAKE128:1048577", "@abc"}, NULL, 2, EXACT, "", BAD_N("1048577")},
    {"shake_n_int_overflow", {"@tool", "SHAKE256:4294967328", "@abc"}, NULL, 2, EXACT, "", BAD_N("4294967328")},
    {"shake_n_long_overflow", {"@tool", "SHAKE256:18446744073709551648", "@abc"}, NULL, 2, EXACT, "",
     BAD_N("18446744073709551648")},
    {"sha3_with_n", {"@tool", "SHA3-256:5", "@abc"}, NULL, 2, EXACT, "", FIXED("SHA3-256")},
    {"sha3_with_own_length", {"@tool", "SHA3-512:64", "@abc"}, NULL, 2, EXACT, "", FIXED("SHA3-512")},
    {"sha3_with_empty_n", {"@tool", "SHA3-224:"}, "abc", 2, EXACT, "", FIXED("SHA3-224")},
    {"usage_error_before_file_errors", {"@tool", "SHAKE128:x", "@missing", "@dir"}, NULL, 2, EXACT, "", BAD_N("x")},
};

/* ---- the inputs and the paths that stand for them ---- */

typedef struct input {
    const char *name;
    unsigned char *data;
    size_t len;
} input;

static input inputs[4] = {{"abc", NULL, 0}, {"text", NULL, 0}, {"bin", NULL, 0}, {"empty", NULL, 0}};

typedef struct token {
    const char *token;
    char path[4096];
} token;

static token tokens[] = {{"@tool", ""}, {"@abc", ""},    {"@text", ""}, {"@bin", ""},
                         {"@empty", ""}, {"@spaced", ""}, {"@dir", ""},  {"@missing", ""}};

static char temp_dir[1024];

static const input *find_input(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
        if (strlen(inputs[i].name) == len && memcmp(inputs[i].name, name, len) == 0)
            return &inputs[i];
    fail_msg("unknown input '%.*s'", (int)len, name);
    return NULL;
}

/* ---- the oracle: OpenSSL ---- */

typedef struct oracle {
    EVP_MD_CTX *ctx;
    size_t out_len; /* bytes */
    int xof;
} oracle;

/* spec: "SHA3-256", "SHAKE128", "SHAKE256:200" */
static void oracle_init(oracle *o, const char *spec, size_t spec_len)
{
    static const struct {
        const char *name;
        const EVP_MD *(*md)(void);
        size_t len;
        int xof;
    } algs[] = {
        {"SHA3-224", EVP_sha3_224, 28, 0}, {"SHA3-256", EVP_sha3_256, 32, 0}, {"SHA3-384", EVP_sha3_384, 48, 0},
        {"SHA3-512", EVP_sha3_512, 64, 0}, {"SHAKE128", EVP_shake128, 32, 1}, {"SHAKE256", EVP_shake256, 64, 1},
        {"SHA-1", EVP_sha1, 20, 0},        {"SHA-224", EVP_sha224, 28, 0},   {"SHA-256", EVP_sha256, 32, 0},
        {"SHA-384", EVP_sha384, 48, 0},    {"SHA-512", EVP_sha512, 64, 0},   {"SHA-512/224", EVP_sha512_224, 28, 0},
        {"SHA-512/256", EVP_sha512_256, 32, 0},
    };
    const char *colon = memchr(spec, ':', spec_len);
    size_t name_len = colon ? (size_t)(colon - spec) : spec_len;
    for (size_t i = 0; i < sizeof algs / sizeof algs[0]; i++) {
        if (strlen(algs[i].name) != name_len || memcmp(algs[i].name, spec, name_len) != 0)
            continue;
        o->ctx = EVP_MD_CTX_new();
        assert_non_null(o->ctx);
        assert_int_equal(EVP_DigestInit_ex(o->ctx, algs[i].md(), NULL), 1);
        o->out_len = colon ? strtoul(colon + 1, NULL, 10) : algs[i].len;
        o->xof = algs[i].xof;
        return;
    }
    fail_msg("unknown algorithm in '%.*s'", (int)spec_len, spec);
}

static void oracle_update(oracle *o, const void *data, size_t len)
{
    assert_int_equal(EVP_DigestUpdate(o->ctx, data, len), 1);
}

/* the lowercase hex digest (malloc'ed); frees the context */
static char *oracle_hex(oracle *o)
{
    unsigned char *md = malloc(o->out_len + 1);
    char *hex = malloc(2 * o->out_len + 1);
    assert_non_null(md);
    assert_non_null(hex);
    if (o->xof) {
        if (o->out_len > 0)
            assert_int_equal(EVP_DigestFinalXOF(o->ctx, md, o->out_len), 1);
    } else {
        unsigned int n = 0;
        assert_int_equal(EVP_DigestFinal_ex(o->ctx, md, &n), 1);
        assert_int_equal(n, o->out_len);
    }
    for (size_t i = 0; i < o->out_len; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    hex[2 * o->out_len] = '\0';
    free(md);
    EVP_MD_CTX_free(o->ctx);
    o->ctx = NULL;
    return hex;
}

/* ---- templates ---- */

static void put(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
    if (*len + n + 1 > *cap) {
        while (*len + n + 1 > *cap)
            *cap = *cap ? *cap * 2 : 256;
        *buf = realloc(*buf, *cap);
        assert_non_null(*buf);
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[*len] = '\0';
}

/* s with "@name" replaced by paths and "{ALGORITHM/input}" by digests (malloc'ed) */
static char *expand(const char *s)
{
    char *r = NULL;
    size_t len = 0, cap = 0;
    put(&r, &len, &cap, "", 0);
    while (*s) {
        if (*s == '{') {
            /* the last '/' before the '}': "{SHA-512/224/abc}" */
            const char *end = strchr(s, '}'), *slash = NULL;
            assert_non_null(end);
            for (const char *p = s; p < end; p++)
                if (*p == '/')
                    slash = p;
            assert_non_null(slash);
            const input *in = find_input(slash + 1, (size_t)(end - slash - 1));
            oracle o;
            oracle_init(&o, s + 1, (size_t)(slash - s - 1));
            oracle_update(&o, in->data, in->len);
            char *hex = oracle_hex(&o);
            put(&r, &len, &cap, hex, strlen(hex));
            free(hex);
            s = end + 1;
            continue;
        }
        if (*s == '@') {
            size_t best = 0, k = 0;
            for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++) {
                size_t n = strlen(tokens[i].token);
                if (n > best && strncmp(s, tokens[i].token, n) == 0) {
                    best = n;
                    k = i;
                }
            }
            if (best) {
                put(&r, &len, &cap, tokens[k].path, strlen(tokens[k].path));
                s += best;
                continue;
            }
        }
        put(&r, &len, &cap, s, 1);
        s++;
    }
    return r;
}

/* ---- fixtures ---- */

static char *path_of(const char *tok)
{
    for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++)
        if (strcmp(tokens[i].token, tok) == 0)
            return tokens[i].path;
    return NULL;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        abort();
    }
}

static int setup(void **state)
{
    (void)state;
    /* text: lines of letters and digits, 200000 bytes, no NUL (it also goes through stdin) */
    enum { TEXT_LEN = 200000, BIN_LEN = 70000 };
    unsigned char *text = malloc(TEXT_LEN), *bin = malloc(BIN_LEN);
    if (!text || !bin)
        return -1;
    for (size_t i = 0; i < TEXT_LEN; i++)
        text[i] = i % 73 == 72 ? '\n' : (unsigned char)("abcdefghijklmnopqrstuvwxyz0123456789 ABCDEFGHIJ"[(i * 7 + i / 73) % 47]);
    for (size_t i = 0; i < BIN_LEN; i++)
        bin[i] = (unsigned char)(i + i / 256); /* every byte value, NUL too */
    inputs[0] = (input){"abc", (unsigned char *)strdup("abc"), 3};
    inputs[1] = (input){"text", text, TEXT_LEN};
    inputs[2] = (input){"bin", bin, BIN_LEN};
    inputs[3] = (input){"empty", (unsigned char *)strdup(""), 0};

    const char *tmp = getenv("TMPDIR");
    snprintf(temp_dir, sizeof temp_dir, "%s/minivm-digest-XXXXXX", tmp ? tmp : "/tmp");
    if (!mkdtemp(temp_dir))
        return -1;
    snprintf(path_of("@tool"), 4096, "%s", tu_source_path("examples/digest.mva"));
    snprintf(path_of("@abc"), 4096, "%s/abc.txt", temp_dir);
    snprintf(path_of("@text"), 4096, "%s/text.txt", temp_dir);
    snprintf(path_of("@bin"), 4096, "%s/bin.dat", temp_dir);
    snprintf(path_of("@empty"), 4096, "%s/empty", temp_dir);
    snprintf(path_of("@spaced"), 4096, "%s/two words.txt", temp_dir);
    snprintf(path_of("@dir"), 4096, "%s/a directory", temp_dir);
    snprintf(path_of("@missing"), 4096, "%s/nosuchfile", temp_dir);
    write_file(path_of("@abc"), "abc", 3);
    write_file(path_of("@text"), text, TEXT_LEN);
    write_file(path_of("@bin"), bin, BIN_LEN);
    write_file(path_of("@empty"), "", 0);
    write_file(path_of("@spaced"), "abc", 3);
    if (mkdir(path_of("@dir"), 0755) != 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    static const char *const files[] = {"@abc", "@text", "@bin", "@empty", "@spaced"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        unlink(path_of(files[i]));
    rmdir(path_of("@dir"));
    rmdir(temp_dir);
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
        free(inputs[i].data);
    return 0;
}

/* ---- the table ---- */

static void run_case(void **state)
{
    const digest_case *c = *state;
    char *argv[11] = {NULL};
    for (size_t i = 0; i < 10 && c->argv[i]; i++)
        argv[i] = expand(c->argv[i]);
    char *in = NULL;
    if (c->in) {
        const input *src = find_input(c->in, strlen(c->in));
        in = malloc(src->len + 1);
        assert_non_null(in);
        memcpy(in, src->data, src->len);
        in[src->len] = '\0';
        assert_int_equal(strlen(in), src->len); /* tu_run takes a C string */
    }
    tu_result r = tu_run((const char *const *)argv, in, 120);
    char *want_out = expand(c->out), *want_err = expand(c->err);
    tu_expect_run(&r, c->status, c->out_mode, want_out, TU_EXACT, want_err, NULL);
    free(want_out);
    free(want_err);
    free(in);
    for (size_t i = 0; i < 10; i++)
        free(argv[i]);
    tu_result_free(&r);
}

/* A file the user may not read: "Permission denied", the other files still printed. */
static void unreadable_file(void **state)
{
    (void)state;
    if (geteuid() == 0) {
        print_message("    (running as root: every file is readable; skipped)\n");
        skip();
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/unreadable", temp_dir);
    write_file(path, "secret", 6);
    assert_int_equal(chmod(path, 0), 0);
    const char *argv[] = {path_of("@tool"), "SHA3-256", path, path_of("@abc"), NULL};
    tu_result r = tu_run(argv, NULL, 60);
    unlink(path);
    char *want_out = expand("{SHA3-256/abc}  @abc\n");
    char want_err[4400];
    snprintf(want_err, sizeof want_err, "digest: %s: Permission denied\n", path);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.out, want_out);
    assert_string_equal(r.err, want_err);
    free(want_out);
    tu_result_free(&r);
}

/*
 * 100 MiB of pseudo-random data (8 MiB under sanitizers) through the tool:
 * the digest is OpenSSL's, and the child's peak RSS stays under 16 MiB (the
 * tool reads 64 KiB at a time; skipped under sanitizers).
 */
static void large_file(void **state)
{
    (void)state;
    /* under sanitizers and under QEMU (MINIVM_EMULATED=1, where the RSS is QEMU's and not asserted)
       a smaller file: the streaming is the same, the time a fraction */
    bool small = tu_sanitized() || tu_emulated();
    size_t mib = small ? LARGE_MIB_SANITIZED : LARGE_MIB;
    char path[4200];
    snprintf(path, sizeof path, "%s/large.bin", temp_dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    enum { CHUNK = 1 << 20 };
    uint64_t *chunk = malloc(CHUNK);
    assert_non_null(chunk);
    oracle o;
    oracle_init(&o, "SHA3-256", 8);
    uint64_t x = 0x9e3779b97f4a7c15u; /* xorshift64* */
    for (size_t m = 0; m < mib; m++) {
        for (size_t i = 0; i < CHUNK / 8; i++) {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            chunk[i] = x * 0x2545f4914f6cdd1du;
        }
        assert_int_equal(fwrite(chunk, 1, CHUNK, f), CHUNK);
        oracle_update(&o, chunk, CHUNK);
    }
    assert_int_equal(fclose(f), 0);
    free(chunk);
    char *hex = oracle_hex(&o);
    char want[4400];
    snprintf(want, sizeof want, "%s  %s\n", hex, path);
    free(hex);

    const char *argv[] = {path_of("@tool"), "SHA3-256", path, NULL};
    tu_result r = tu_run(argv, NULL, 280);
    unlink(path);
    double secs = r.secs;
    print_message("    large_file: %zu MiB with SHA3-256 in %.2f s (%.1f MiB/s), exit %d, max RSS %ld KiB (%.1f MiB)\n",
                  mib, secs, (double)mib / secs, r.status, r.maxrss_kib, (double)r.maxrss_kib / 1024.0);
    if (r.status != 0)
        fail_msg("exit status %d\n--- stderr ---\n%.4000s", r.status, r.err);
    assert_string_equal(r.err, "");
    assert_string_equal(r.out, want);
    long rss = r.maxrss_kib;
    tu_result_free(&r);
    if (tu_sanitized()) {
        print_message("    (sanitized build: RSS assertion skipped)\n");
        return;
    }
    /* Cross builds run the tool under QEMU user mode (MINIVM_EMULATED=1,
       tests/meson.build): the child's RSS is QEMU's, code cache included. */
    if (tu_emulated()) {
        print_message("    (emulated: RSS assertion skipped, QEMU's own memory counts)\n");
        return;
    }
    if (rss >= RSS_LIMIT_KIB)
        fail_msg("max RSS %ld KiB is not under %ld KiB", rss, RSS_LIMIT_KIB);
}

int main(void)
{
    tu_group g = {0};
    TU_ADD_TABLE(&g, cases, run_case);
    TU_ADD_TEST(&g, unreadable_file);
    TU_ADD_TEST(&g, large_file);
    return tu_run_group("digest_tool", &g, setup, teardown);
}
