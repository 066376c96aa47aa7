/*
 * tests/test_intrinsics.c — intrinsic linking (vm/intrinsics.c),
 * -XX:+PrintIntrinsics and -XX:DisableIntrinsic (suite 'unit').
 *
 * In process, VMs over the SHA-3 library (tests/data/Sha3Test.mva and a small
 * program that calls the two candidates directly) run side by side: one
 * without stubs (the bytecode: the specification) and one whose vm_options
 * carry a stub table of counting wrappers. The wrappers call
 *
 *   ref   the C reference (stubs/sha3_ref.c): on every host;
 *   real  the stubs stubs/ generated at start-up for -XX:+UseSHA3Intrinsics
 *         (stub_routines_table()): skipped when the table has no entries
 *         (x86-64, or an AArch64 build whose generators are off).
 *
 * and count their calls, so each test also shows the stub really ran (or
 * really did not). The cases: digests of all six algorithms over lengths
 * spanning 0 to several blocks, fed in one update and in pieces; every call
 * of a candidate, including the ones the stub must not see (null or short
 * arrays, a replaced state, odd block sizes, offsets out of range), with
 * the same result, exception and state as the bytecode; DisableIntrinsic
 * turning each id off; the PrintIntrinsics lines; a program's own modules
 * called SHA3 or DigestBase, which never link, and beside which the
 * library's SHA3 keeps its stubs.
 *
 * The calls into the VMs (byte[] arguments, Sha3Test.hash, getInstance) are
 * tests/sha3_driver.c's, shared with test_sha3.c.
 *
 * The CLI cases run build/minivm on examples/digest.mva: the flags' texts,
 * HotSpot 25's messages for bad DisableIntrinsic lists (checked against
 * the project's HotSpot 25), and the real stubs end to end.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "intrinsics.h"
#include "jit.h"
#include "sha3_driver.h"
#include "sha3_ref.h"
#include "stubroutines.h"
#include "testutil.h"
#include "vm.h"

enum { EXACT = TU_EXACT, PREFIX = TU_PREFIX, CONTAINS = TU_CONTAINS, LACKS = TU_LACKS };

/* ---- the algorithms ---------------------------------------------------------------------------- */

enum { NALGS = 6 };

typedef struct alg_info {
    const char *name;
    int bits, xof, block;
} alg_info;

static const alg_info ALGS[NALGS] = {
    {"SHA3-224", 224, 0, 144}, {"SHA3-256", 256, 0, 136}, {"SHA3-384", 384, 0, 104},
    {"SHA3-512", 512, 0, 72},  {"SHAKE128", 128, 1, 168}, {"SHAKE256", 256, 1, 136},
};

#define SHAKE_OUT 300 /* SHAKE output bytes: more than one block of squeezing */
#define MAX_OUT   300
#define MAX_MSG   (8 * 168)

static uint8_t msgbuf[MAX_MSG];

/* ---- the stub tables: counting wrappers around the C reference or the real stubs --------------- */

static const stub_routines *inner; /* the real stubs being wrapped; NULL: the C reference */
static unsigned long n_compress, n_compress_mb;

static void counting_compress(const uint8_t *buf, int64_t *state, int32_t block_size)
{
    n_compress++;
    if (inner)
        STUB_FN(inner, sha3_implCompress)(buf, state, block_size);
    else
        sha3_ref_compress((uint64_t *)state, buf, block_size);
}

static int32_t counting_compress_mb(const uint8_t *buf, int64_t *state, int32_t block_size, int32_t ofs,
                                    int32_t limit)
{
    n_compress_mb++;
    if (inner)
        return STUB_FN(inner, sha3_implCompressMB)(buf, state, block_size, ofs, limit);
    /* the reference takes the array and the offset; the stub contract passes b + ofs */
    return sha3_ref_compress_multi((uint64_t *)state, buf - ofs, block_size, ofs, limit);
}

static stub_routines counting = {
    .entry[STUB_ID_sha3_implCompress] = {(stub_fn)counting_compress, "sha3_implCompress", "ref"},
    .entry[STUB_ID_sha3_implCompressMB] = {(stub_fn)counting_compress_mb, "sha3_implCompressMB", "ref"},
};

/* double_keccak's counting wrapper over the C reference (two permutations; returns 0, as the stubs) */
static unsigned long n_double;
static int32_t counting_double_keccak(int64_t *s0, int64_t *s1)
{
    n_double++;
    sha3_ref_keccak((uint64_t *)s0);
    sha3_ref_keccak((uint64_t *)s1);
    return 0;
}

static const stub_routines counting_double = {
    .entry[STUB_ID_double_keccak] = {(stub_fn)counting_double_keccak, "double_keccak", "ref"},
};

typedef struct backend {
    const char *name;
    int available;
    const stub_routines *wrapped; /* for inner; NULL: the reference */
} backend;

static backend ref_backend = {"ref", 1, NULL};
static backend real_backend = {"real", 0, NULL};

static void use_backend(const backend *be)
{
    if (!be->available)
        skip();
    inner = be->wrapped;
    counting.entry[STUB_ID_sha3_implCompress].variant = be->wrapped ? be->wrapped->entry[STUB_ID_sha3_implCompress].variant : "ref";
    counting.entry[STUB_ID_sha3_implCompressMB].variant = be->wrapped ? be->wrapped->entry[STUB_ID_sha3_implCompressMB].variant : "ref";
}

/* ---- programs and VMs -------------------------------------------------------------------------- */

/* The candidates called by the interpreter's call instructions (the other way in is vm_call). */
static const char direct_src[] =
    "module IntrinsicTest\n"
    "import SHA3\n"
    "import DigestBase\n"
    "\n"
    "method compress0(d: SHA3.SHA3, b: byte[], ofs: int)\n"
    "    call SHA3.implCompress0(d, b, ofs)\n"
    "    ret\n"
    "end\n"
    "\n"
    "method compressMB0(d: DigestBase.Digest, b: byte[], ofs: int, limit: int) -> int\n"
    "    var r: int\n"
    "    var w_d: DigestBase.Digest\n"
    "    var w_b: byte[]\n"
    "    var w_ofs, w_limit: int\n"
    "    mov w_d, d\n"
    "    mov w_b, b\n"
    "    mov w_ofs, ofs\n"
    "    mov w_limit, limit\n"
    "    call r = DigestBase.implCompressMultiBlock0(w_d, w_b, w_ofs, w_limit)\n"
    "    ret r\n"
    "end\n";

/* SHA3Parallel's candidate, called by the interpreter (its own program: the other one's candidates
   are the print tests' lines) */
static const char double_src[] =
    "module DoubleTest\n"
    "import SHA3Parallel\n"
    "\n"
    "method double0(a: long[], b: long[]) -> int\n"
    "    var r: int\n"
    "    var w_a, w_b: long[]\n"
    "    mov w_a, a\n"
    "    mov w_b, b\n"
    "    call r = SHA3Parallel.doubleKeccak(w_a, w_b)\n"
    "    ret r\n"
    "end\n";

static vm_program *prog_sha3, *prog_direct;
static const vm_method *m_hash, *m_get_instance, *m_compress0, *m_compress_mb0, *m_cand0, *m_cand_mb0;
static const vm_method *m_new_shake128, *m_new_shake256;
static uint16_t f_state, f_block_size; /* SHA3.SHA3's fields in prog_direct */

static uint16_t field(const vm_program *p, const char *rec, const char *name)
{
    for (uint32_t r = 0; r < p->nrecords; r++)
        if (strcmp(p->records[r].qname, rec) == 0)
            for (uint16_t f = 0; f < p->records[r].nfields; f++)
                if (strcmp(p->records[r].fields[f].name, name) == 0)
                    return f;
    fail_msg("no field %s.%s", rec, name);
    return 0;
}

/* A VM over p: stubs NULL runs every candidate's bytecode. */
static vm_t *new_vm(const vm_program *p, const stub_routines *stubs, const char *disable, FILE *print)
{
    char err[256];
    vm_options opt = {.stubs = stubs, .disable_intrinsic = disable, .print_intrinsics = print != NULL,
                      .intrinsics_out = print};
    vm_t *vm = vm_new(p, &opt, err, sizeof err);
    if (!vm)
        fail_msg("vm_new: %s", err);
    return vm;
}

/* SHA3.getInstance(ALGS[alg].name) in vm; for SHAKE128 and SHAKE256 the XOFs, SHA3.newShake128 and
   newShake256 (getInstance's SHAKE names are JDK 25's fixed-length digests) */
static vm_obj *new_digest(vm_t *vm, int alg)
{
    if (ALGS[alg].xof) {
        vm_value r = sd_call(vm, ALGS[alg].name, ALGS[alg].bits == 128 ? m_new_shake128 : m_new_shake256, NULL);
        if (!r.ref)
            fail_msg("SHA3.newShake%d() is null", ALGS[alg].bits);
        return r.ref;
    }
    vm_obj *d = sd_get_instance(vm, m_get_instance, ALGS[alg].name, ALGS[alg].name, strlen(ALGS[alg].name));
    if (!d)
        fail_msg("SHA3.getInstance(%s) is null", ALGS[alg].name);
    return d;
}

static int group_setup(void **state)
{
    (void)state;
    char err[1024];
    sd_fill_messages(msgbuf, sizeof msgbuf, 0x1a7e);
    prog_sha3 = sd_load();
    if (!prog_sha3)
        return -1;
    prog_direct = vm_load_text("IntrinsicTest", direct_src, strlen(direct_src), err, sizeof err);
    if (!prog_direct) {
        fprintf(stderr, "the direct-call program did not load: %s\n", err);
        return -1;
    }
    m_hash = sd_method(prog_sha3, "Sha3Test.hash");
    m_get_instance = sd_method(prog_direct, "SHA3.getInstance");
    m_new_shake128 = sd_method(prog_direct, "SHA3.newShake128");
    m_new_shake256 = sd_method(prog_direct, "SHA3.newShake256");
    m_compress0 = sd_method(prog_direct, "IntrinsicTest.compress0");
    m_compress_mb0 = sd_method(prog_direct, "IntrinsicTest.compressMB0");
    m_cand0 = sd_method(prog_direct, "SHA3.implCompress0");
    m_cand_mb0 = sd_method(prog_direct, "DigestBase.implCompressMultiBlock0");
    f_state = field(prog_direct, "SHA3.SHA3", "state");
    f_block_size = field(prog_direct, "SHA3.SHA3", "blockSize");
    return 0;
}

/*
 * SHA3Parallel.doubleKeccak through _double_keccak (a counting stub over the C reference): two
 * distinct long[25] run the stub, and both come back permuted once, the call returning 1 (the
 * Java method's); longer arrays too (25 lanes read); everything the stub must not see runs the
 * bytecode, whose answer the VM gives: the same array twice (two permutations, in Java's order),
 * a long[24] (an ArrayIndexOutOfBoundsException from SHA3.keccak), a null (a
 * NullPointerException). Without the stub, or with -XX:DisableIntrinsic=_double_keccak, the
 * bytecode gives the same permutations.
 */
static void double_keccak_guards(void **state)
{
    (void)state;
    vm_program *prog = tu_load(double_src);
    const vm_method *m = sd_method(prog, "DoubleTest.double0");
    static const struct { const stub_routines *stubs; const char *disable; bool stub; } setups[] = {
        {&counting_double, NULL, true}, {&counting_double, "_double_keccak", false}, {NULL, NULL, false}};
    for (size_t s = 0; s < sizeof setups / sizeof setups[0]; s++) {
        vm_t *vm = new_vm(prog, setups[s].stubs, setups[s].disable, NULL);
        static const struct { int64_t len0, len1; bool same, null0; vm_exc exc; } cases[] = {
            {25, 25, false, false, VM_EXC_NONE}, {30, 25, false, false, VM_EXC_NONE},
            {25, 25, true, false, VM_EXC_NONE},  {24, 25, false, false, VM_EXC_AIOOBE},
            {25, 25, false, true, VM_EXC_NPE},
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
            uint64_t want0[30] = {0}, want1[30] = {0};
            vm_obj *a = cases[c].null0 ? NULL : vm_new_array(vm, VM_T_LONGS, cases[c].len0);
            vm_push_root(vm, &a);
            vm_obj *b = cases[c].same ? a : vm_new_array(vm, VM_T_LONGS, cases[c].len1);
            vm_push_root(vm, &b);
            for (int64_t i = 0; a && i < cases[c].len0; i++)
                VM_LONGS(a)[i] = (int64_t)(want0[i] = 0x0123456789abcdefULL * (uint64_t)(i + 1));
            for (int64_t i = 0; !cases[c].same && i < cases[c].len1; i++)
                VM_LONGS(b)[i] = (int64_t)(want1[i] = 0xfedcba9876543210ULL ^ (uint64_t)i);
            sha3_ref_keccak(want0);
            if (cases[c].same)
                sha3_ref_keccak(want0);
            else
                sha3_ref_keccak(want1);
            unsigned long before = n_double;
            vm_value args[2] = {{.ref = a}, {.ref = b}}, r = {0};
            int st = vm_call(vm, m, args, &r);
            bool ran_stub = n_double != before;
            bool want_stub = setups[s].stub && !cases[c].same && !cases[c].null0 && cases[c].len0 >= 25;
            if (ran_stub != want_stub)
                fail_msg("setup %zu case %zu: the stub %s", s, c, ran_stub ? "ran" : "did not run");
            if (cases[c].exc != VM_EXC_NONE) {
                if (st != VM_EXCEPTION || vm->exc != cases[c].exc)
                    fail_msg("setup %zu case %zu: status %d, exception %d, want %d", s, c, st, (int)vm->exc,
                             (int)cases[c].exc);
            } else {
                assert_int_equal(st, VM_OK);
                assert_int_equal(r.i, 1);
                assert_memory_equal(VM_LONGS(a), want0, 25 * sizeof(uint64_t));
                if (!cases[c].same)
                    assert_memory_equal(VM_LONGS(b), want1, 25 * sizeof(uint64_t));
                if (cases[c].len0 > 25) /* lanes past 25 untouched */
                    assert_memory_equal(VM_LONGS(a) + 25, want0 + 25, 5 * sizeof(uint64_t));
            }
            vm_pop_roots(vm, 2);
        }
        vm_free(vm);
    }
    vm_program_free(prog);
}

static int group_teardown(void **state)
{
    (void)state;
    vm_program_free(prog_sha3);
    vm_program_free(prog_direct);
    return 0;
}

/*
 * The real stubs: start the VM's stubs/ part as the launcher does, with
 * -XX:+UseSHA3Intrinsics, and use the table when it has entries.
 */
static int real_group_setup(void **state)
{
    if (group_setup(state) != 0)
        return -1;
    static const char *const opts[] = {"+UnlockDiagnosticVMOptions", "+UseSHA3Intrinsics", "-PrintWarnings"};
    const stub_routines *t = sd_start_stubs(opts, sizeof opts / sizeof opts[0]);
    if (!t)
        return -1;
    real_backend.available = t->entry[STUB_ID_sha3_implCompress].fn && t->entry[STUB_ID_sha3_implCompressMB].fn;
    real_backend.wrapped = t;
    if (!real_backend.available)
        print_message("no SHA-3 stubs on this host: the 'real' tests are skipped\n");
    return 0;
}

/* ---- digests ------------------------------------------------------------------------------------- */

/* Sha3Test.hash(alg, msg, chunk, outLen) in vm into out; returns the length. */
static size_t vm_hash(vm_t *vm, int alg, size_t len, int chunk, uint8_t *out)
{
    char ctx[96];
    snprintf(ctx, sizeof ctx, "%s len %zu chunk %d", ALGS[alg].name, len, chunk);
    return sd_hash(vm, m_hash, ctx, alg, msgbuf, len, chunk, SHAKE_OUT, out, MAX_OUT);
}

static size_t ref_hash(int alg, size_t len, uint8_t *out)
{
    if (ALGS[alg].xof) {
        shake_ref(ALGS[alg].bits, msgbuf, len, out, SHAKE_OUT);
        return SHAKE_OUT;
    }
    sha3_ref(ALGS[alg].bits, msgbuf, len, out);
    return (size_t)ALGS[alg].bits / 8;
}

/* message lengths as (blocks, extra bytes): 0 .. several blocks */
static const int LENS[][2] = {{0, 0}, {0, 1}, {1, -1}, {1, 0}, {1, 1}, {2, 3}, {5, 0}, {5, 77}, {7, 1}};
/* how each message is fed: one update, 1-byte updates, block - 1, block + 1 (as -1/-2 below), random sizes */
static const int CHUNKS[] = {0, 1, -1000, -1001, -7};

/* chunk codes -1000 / -1001 stand for block - 1 / block + 1 */
static int chunk_for(int code, int block) { return code == -1000 ? block - 1 : code == -1001 ? block + 1 : code; }

/*
 * Every algorithm, length and feeding pattern: the bytecode, the VM with the
 * stub table (disable as given) and the C reference agree; the stubs ran
 * exactly when expected.
 */
static void check_digests(const char *disable, int want_compress, int want_mb, int full)
{
    vm_t *plain = new_vm(prog_sha3, NULL, NULL, NULL);
    vm_t *linked = new_vm(prog_sha3, &counting, disable, NULL);
    n_compress = n_compress_mb = 0;
    for (int alg = 0; alg < NALGS; alg++) {
        int bs = ALGS[alg].block;
        for (size_t l = 0; l < sizeof LENS / sizeof LENS[0]; l++) {
            size_t len = (size_t)(LENS[l][0] * bs + LENS[l][1]);
            for (size_t c = 0; c < sizeof CHUNKS / sizeof CHUNKS[0]; c++) {
                int chunk = chunk_for(CHUNKS[c], bs);
                if (!full && chunk != 0 && chunk != bs - 1)
                    continue;
                uint8_t want[MAX_OUT], a[MAX_OUT], b[MAX_OUT];
                size_t nw = ref_hash(alg, len, want);
                size_t na = vm_hash(plain, alg, len, chunk, a);
                unsigned long before_mb = n_compress_mb;
                size_t nb = vm_hash(linked, alg, len, chunk, b);
                if (na != nw || memcmp(a, want, nw) != 0)
                    fail_msg("%s len %zu chunk %d: the bytecode differs from the C reference", ALGS[alg].name, len,
                             chunk);
                if (nb != nw || memcmp(b, want, nw) != 0)
                    fail_msg("%s len %zu chunk %d (DisableIntrinsic=%s): the VM with stubs differs", ALGS[alg].name,
                             len, chunk, disable ? disable : "");
                /* one update of a block or more goes through implCompressMultiBlock0 */
                if (want_mb && chunk == 0 && len >= (size_t)bs && n_compress_mb == before_mb)
                    fail_msg("%s len %zu: one update, and the multi-block stub did not run", ALGS[alg].name, len);
            }
        }
    }
    print_message("DisableIntrinsic=%s: %lu single-block and %lu multi-block stub calls\n", disable ? disable : "",
                  n_compress, n_compress_mb);
    if (want_compress ? n_compress == 0 : n_compress != 0)
        fail_msg("sha3_implCompress ran %lu times, expected %s", n_compress, want_compress ? "some" : "none");
    if (want_mb ? n_compress_mb == 0 : n_compress_mb != 0)
        fail_msg("sha3_implCompressMB ran %lu times, expected %s", n_compress_mb, want_mb ? "some" : "none");
    vm_free(plain);
    vm_free(linked);
}

static void digests_match(void **state)
{
    use_backend(*state);
    check_digests(NULL, 1, 1, 1);
}

/* DisableIntrinsic as the vm sees it (vm_options.disable_intrinsic): one line per option, ids split by ',' and ' ' */
typedef struct disable_case {
    const char *name;
    const char *list;
    int compress, mb; /* does each stub still run? */
} disable_case;

static const disable_case DISABLE[] = {
    {"disable_sha3_implCompress", "_sha3_implCompress", 0, 1},
    {"disable_digestBase_implCompressMB", "_digestBase_implCompressMB", 1, 0},
    {"disable_both_one_option", "_sha3_implCompress,_digestBase_implCompressMB", 0, 0},
    {"disable_both_two_options", "_digestBase_implCompressMB\n_sha3_implCompress", 0, 0},
    {"disable_both_blanks_and_empty_ids", " ,_digestBase_implCompressMB ,, _sha3_implCompress, ", 0, 0},
    {"disable_empty_list", "", 1, 1},
    /* the launcher refuses these (HotSpot's constraint); the vm ignores unknown ids, as is_disabled_by_flags */
    {"disable_unknown_ids_ignored", "_foo,_none", 1, 1},
    {"disable_other_digest_ids", "_md5_implCompress,_sha_implCompress,_sha2_implCompress,_sha5_implCompress", 1, 1},
    {"disable_plus_form_is_not_an_id", "+_sha3_implCompress", 1, 1},
    {"disable_tab_is_not_a_separator", "_sha3_implCompress\t_digestBase_implCompressMB", 1, 1},
};

static void disable_turns_off(void **state)
{
    const disable_case *c = *state;
    use_backend(&ref_backend);
    check_digests(c->list, c->compress, c->mb, 0);
}

/* ---- calls of the candidates, the ones the stub must not see included -------------------------- */

/* a length or offset: mul * blockSize + add */
typedef struct lin {
    int mul;
    int64_t add;
} lin;

typedef struct call_case {
    const char *name;
    int mb;            /* DigestBase.implCompressMultiBlock0, else SHA3.implCompress0 */
    int this_null, b_null;
    lin b_len, ofs, limit;
    int state_len;     /* KEEP: long[25]; 0: null; else a new long[state_len] */
    int set_bs;        /* write block_size into the digest's blockSize */
    int block_size;
    int stub;          /* 1: the stub must run, 0: it must not */
} call_case;

#define KEEP -1
#define BS(v) 1, (v) /* set_bs, block_size */
#define KEEP_BS 0, 0
static const call_case CALLS[] = {
    /* the stub runs: offsets, several blocks, a state longer than 25 lanes */
    {"compress0_at_0", 0, 0, 0, {2, 0}, {0, 0}, {0, 0}, KEEP, KEEP_BS, 1},
    {"compress0_at_odd_offset", 0, 0, 0, {2, 0}, {0, 7}, {0, 0}, KEEP, KEEP_BS, 1},
    {"compress0_last_block", 0, 0, 0, {2, 5}, {1, 5}, {0, 0}, KEEP, KEEP_BS, 1},
    {"compress0_state_longer", 0, 0, 0, {1, 0}, {0, 0}, {0, 0}, 30, KEEP_BS, 1},
    {"mb_one_block", 1, 0, 0, {3, 0}, {0, 0}, {0, 0}, KEEP, KEEP_BS, 1},
    {"mb_limit_is_last_block", 1, 0, 0, {3, 0}, {0, 0}, {2, 0}, KEEP, KEEP_BS, 1},
    {"mb_unaligned_limit", 1, 0, 0, {3, 5}, {0, 5}, {1, 40}, KEEP, KEEP_BS, 1},
    {"mb_odd_offset_many_blocks", 1, 0, 0, {6, 13}, {0, 13}, {5, 0}, KEEP, KEEP_BS, 1},
    /* Java's for loop runs no block: the intrinsic returns ofs without the stub */
    {"mb_ofs_after_limit", 1, 0, 0, {3, 0}, {1, 0}, {1, -1}, KEEP, KEEP_BS, 0},
    {"mb_limit_negative", 1, 0, 0, {3, 0}, {0, 0}, {0, -1}, KEEP, KEEP_BS, 0},
    {"mb_limit_int_min", 1, 0, 0, {3, 0}, {0, 7}, {0, INT32_MIN}, KEEP, KEEP_BS, 0},
    /* what the stub must not see: the bytecode answers (an exception, or its own result) */
    {"compress0_this_null", 0, 1, 0, {2, 0}, {0, 0}, {0, 0}, KEEP, KEEP_BS, 0},
    {"compress0_b_null", 0, 0, 1, {2, 0}, {0, 0}, {0, 0}, KEEP, KEEP_BS, 0},
    {"compress0_b_short", 0, 0, 0, {1, -1}, {0, 0}, {0, 0}, KEEP, KEEP_BS, 0},
    {"compress0_block_past_end", 0, 0, 0, {2, 0}, {1, 1}, {0, 0}, KEEP, KEEP_BS, 0},
    {"compress0_ofs_negative", 0, 0, 0, {2, 0}, {0, -8}, {0, 0}, KEEP, KEEP_BS, 0},
    {"compress0_ofs_beyond_int", 0, 0, 0, {2, 0}, {0, (int64_t)1 << 32}, {0, 0}, KEEP, KEEP_BS, 0},
    {"compress0_state_short", 0, 0, 0, {2, 0}, {0, 0}, {0, 0}, 24, KEEP_BS, 0},
    {"compress0_state_null", 0, 0, 0, {2, 0}, {0, 0}, {0, 0}, 0, KEEP_BS, 0},
    {"compress0_block_size_100", 0, 0, 0, {0, 200}, {0, 0}, {0, 0}, KEEP, BS(100), 0},
    {"compress0_block_size_0", 0, 0, 0, {0, 200}, {0, 0}, {0, 0}, KEEP, BS(0), 0},
    {"compress0_block_size_negative", 0, 0, 0, {0, 200}, {0, 0}, {0, 0}, KEEP, BS(-8), 0},
    {"mb_this_null", 1, 1, 0, {3, 0}, {0, 0}, {1, 0}, KEEP, KEEP_BS, 0},
    {"mb_b_null", 1, 0, 1, {3, 0}, {0, 0}, {1, 0}, KEEP, KEEP_BS, 0},
    {"mb_limit_past_end", 1, 0, 0, {3, 0}, {0, 0}, {3, 0}, KEEP, KEEP_BS, 0},
    {"mb_ofs_negative", 1, 0, 0, {3, 0}, {0, -1}, {1, 0}, KEEP, KEEP_BS, 0},
    {"mb_limit_beyond_int", 1, 0, 0, {3, 0}, {0, 0}, {0, (int64_t)1 << 33}, KEEP, KEEP_BS, 0},
    {"mb_ofs_beyond_int_after_limit", 1, 0, 0, {3, 0}, {0, (int64_t)1 << 32}, {0, 0}, KEEP, KEEP_BS, 0},
    {"mb_state_short", 1, 0, 0, {3, 0}, {0, 0}, {1, 0}, 3, KEEP_BS, 0},
    {"mb_block_size_100", 1, 0, 0, {0, 450}, {0, 0}, {0, 300}, KEEP, BS(100), 0},
};

static int64_t eval(lin v, int bs) { return (int64_t)v.mul * bs + v.add; }

typedef struct outcome {
    int status;
    char exc[512];
    int64_t ret;
    int state_len;
    int64_t state[32];
} outcome;

/* Run case c for alg in vm (via: 0 the interpreter's call, 1 vm_call of the candidate). */
static void run_call(vm_t *vm, const call_case *c, int alg, int via, outcome *o)
{
    int bs = ALGS[alg].block;
    vm_obj *d = new_digest(vm, alg), *b = NULL;
    vm_push_root(vm, &d);
    vm_push_root(vm, &b);
    if (!c->b_null)
        b = sd_new_bytes(vm, msgbuf, (size_t)eval(c->b_len, bs));
    if (c->state_len != KEEP)
        VM_FIELDS(d)[f_state].ref = c->state_len ? vm_new_array(vm, VM_T_LONGS, c->state_len) : NULL;
    if (c->set_bs)
        VM_FIELDS(d)[f_block_size].i = c->block_size;
    /* a state that is not all zero, so absorbing at the wrong lane shows */
    vm_obj *st = VM_FIELDS(d)[f_state].ref;
    for (int32_t i = 0; st && i < st->length; i++)
        VM_LONGS(st)[i] = (int64_t)(0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1));
    vm_value args[4] = {{.ref = c->this_null ? NULL : d}, {.ref = b}, {.i = eval(c->ofs, bs)},
                        {.i = eval(c->limit, bs)}};
    const vm_method *m = via ? (c->mb ? m_cand_mb0 : m_cand0) : (c->mb ? m_compress_mb0 : m_compress0);
    vm_value r = {0};
    memset(o, 0, sizeof *o);
    o->status = vm_call(vm, m, args, &r);
    if (o->status != VM_OK)
        snprintf(o->exc, sizeof o->exc, "%s", sd_exc_text(vm, false));
    o->ret = c->mb ? r.i : 0;
    st = VM_FIELDS(d)[f_state].ref;
    o->state_len = st ? (int)st->length : -1;
    for (int i = 0; st && i < st->length && i < 32; i++)
        o->state[i] = VM_LONGS(st)[i];
    vm_pop_roots(vm, 2);
}

static void candidate_calls_match_bytecode(void **state)
{
    use_backend(*state);
    vm_t *plain = new_vm(prog_direct, NULL, NULL, NULL);
    vm_t *linked = new_vm(prog_direct, &counting, NULL, NULL);
    assert_int_equal(linked->nintrinsics, 2);
    /* and the call instruction compiled (-Xcomp): the template's direct stub calls, their checks
       inline (cpu/x86_64/templates_x86_64.c), where the host has the compiler tier */
    vm_t *compiled = new_vm(prog_direct, &counting, NULL, NULL);
    char err[256];
    if (jit_available() && !jit_attach(compiled, &(jit_options){.threshold = 0}, err, sizeof err))
        fail_msg("jit_attach: %s", err);
    int nvia = jit_available() ? 3 : 2;
    for (size_t k = 0; k < sizeof CALLS / sizeof CALLS[0]; k++) {
        const call_case *c = &CALLS[k];
        for (int alg = 0; alg < NALGS; alg++) {
            for (int via = 0; via < nvia; via++) {
                outcome want, got;
                run_call(plain, c, alg, via == 1, &want);
                unsigned long before = c->mb ? n_compress_mb : n_compress;
                run_call(via == 2 ? compiled : linked, c, alg, via == 1, &got);
                unsigned long ran = (c->mb ? n_compress_mb : n_compress) - before;
                const char *how = via == 1 ? "vm_call" : via == 2 ? "compiled call instruction" : "call instruction";
                if (got.status != want.status || strcmp(got.exc, want.exc) != 0)
                    fail_msg("%s %s (%s): status %d \"%s\", the bytecode's %d \"%s\"", c->name, ALGS[alg].name, how,
                             got.status, got.exc, want.status, want.exc);
                if (got.ret != want.ret)
                    fail_msg("%s %s (%s): returned %lld, the bytecode %lld", c->name, ALGS[alg].name, how,
                             (long long)got.ret, (long long)want.ret);
                if (got.state_len != want.state_len ||
                    memcmp(got.state, want.state, sizeof got.state) != 0)
                    fail_msg("%s %s (%s): the state differs from the bytecode's", c->name, ALGS[alg].name, how);
                if (c->stub == 1 && ran != 1)
                    fail_msg("%s %s (%s): the stub ran %lu times, expected once", c->name, ALGS[alg].name, how, ran);
                if (c->stub == 0 && ran != 0)
                    fail_msg("%s %s (%s): the stub ran, it must not see these arguments", c->name, ALGS[alg].name,
                             how);
            }
        }
    }
    vm_free(plain);
    vm_free(linked);
    vm_free(compiled);
}

/* ---- PrintIntrinsics ----------------------------------------------------------------------------- */

/* "Module::name (N bytes)   " + tail + "\n" for the candidate qname of p */
static void append_line(char *buf, size_t cap, const vm_program *p, const char *qname, const char *tail)
{
    const vm_method *m = sd_method(p, qname);
    size_t n = strlen(buf);
    snprintf(buf + n, cap - n, "%s::%s (%u bytes)   %s\n", m->module->name, m->name, (unsigned)(m->ncode * 4), tail);
}

static const stub_routines no_entries = {.entry[STUB_ID_sha3_implCompress] = {NULL, NULL, NULL}};
static const stub_routines mb_only = {
    .entry[STUB_ID_sha3_implCompressMB] = {(stub_fn)counting_compress_mb, "sha3_implCompressMB", "ref"}};

typedef struct print_case {
    const char *name;
    const stub_routines *stubs;
    const char *disable;
    int print;
    const char *mb_tail;   /* DigestBase.implCompressMultiBlock0's line after the size */
    const char *sha3_tail; /* SHA3.implCompress0's */
} print_case;

#define NO_STUB_MB   "failed to inline (intrinsic) _digestBase_implCompressMB: no stub on this CPU with these flags"
#define NO_STUB_SHA3 "failed to inline (intrinsic) _sha3_implCompress: no stub on this CPU with these flags"

static const print_case PRINTS[] = {
    {"print_linked", &counting, NULL, 1,
     "(intrinsic) _digestBase_implCompressMB: stub sha3_implCompressMB (ref)",
     "(intrinsic) _sha3_implCompress: stub sha3_implCompress (ref)"},
    {"print_disabled_one", &counting, "_sha3_implCompress", 1,
     "(intrinsic) _digestBase_implCompressMB: stub sha3_implCompressMB (ref)",
     "failed to inline (intrinsic) _sha3_implCompress: disabled by DisableIntrinsic"},
    {"print_disabled_wins_over_no_stub", NULL, "_digestBase_implCompressMB _sha3_implCompress", 1,
     "failed to inline (intrinsic) _digestBase_implCompressMB: disabled by DisableIntrinsic",
     "failed to inline (intrinsic) _sha3_implCompress: disabled by DisableIntrinsic"},
    {"print_no_table", NULL, NULL, 1, NO_STUB_MB, NO_STUB_SHA3},
    {"print_table_without_entries", &no_entries, NULL, 1, NO_STUB_MB, NO_STUB_SHA3},
    {"print_one_entry", &mb_only, NULL, 1, "(intrinsic) _digestBase_implCompressMB: stub sha3_implCompressMB (ref)",
     NO_STUB_SHA3},
    {"print_off", &counting, "_sha3_implCompress", 0, NULL, NULL},
};

/* Create a VM over p with print on, return what it printed (malloc'ed). */
static char *printed_by_vm_new(const vm_program *p, const stub_routines *stubs, const char *disable, int print,
                               uint32_t *nlinked)
{
    tu_capture c;
    char err[256];
    vm_options opt = {.stubs = stubs, .disable_intrinsic = disable, .print_intrinsics = print,
                      .intrinsics_out = tu_capture_open(&c)};
    vm_t *vm = vm_new(p, &opt, err, sizeof err);
    char *text = tu_capture_close(&c);
    if (!vm)
        fail_msg("vm_new: %s", err);
    *nlinked = vm->nintrinsics;
    vm_free(vm);
    return text;
}

static void print_intrinsics_lines(void **state)
{
    const print_case *c = *state;
    use_backend(&ref_backend);
    char want[1024] = "";
    /* one line per candidate, in the program's method order */
    for (uint32_t i = 0; c->print && i < prog_direct->nmethods; i++) {
        const vm_method *m = prog_direct->methods[i];
        if (!(m->flags & VM_METHOD_INTRINSIC))
            continue;
        append_line(want, sizeof want, prog_direct, m->qname, m == m_cand_mb0 ? c->mb_tail : c->sha3_tail);
    }
    uint32_t nlinked;
    char *got = printed_by_vm_new(prog_direct, c->stubs, c->disable, c->print, &nlinked);
    tu_expect_text("PrintIntrinsics", got, EXACT, want);
    free(got);
}

/* the candidate's body: blockSize += 1, so the test sees the bytecode ran */
#define BUMP_BODY                   \
    "    var n: int\n"              \
    "    getfield n, this, blockSize\n" \
    "    addw n, n, 1\n"            \
    "    putfield this, blockSize, n\n"

/* ---- library candidates that do not have the stubs' shape ------------------------------------- */

/*
 * The shape checks guard the library against an edit out of step with its
 * stubs: no program reaches them (a program's modules never link), so these
 * cases load their module as the library's (vm_module.builtin set after
 * loading, as if it were embedded) to show each check refuses to link.
 */

typedef struct shape_case {
    const char *name;
    const char *src;
    const char *qname; /* the candidate */
    const char *tail;  /* its PrintIntrinsics line after the size */
} shape_case;

static const shape_case SHAPES[] = {
    {"shape_no_state",
     "module SHA3\n"
     "record Digest\n    blockSize: int\nend\n"
     "@IntrinsicCandidate\n"
     "method implCompress0(this: Digest, b: byte[], ofs: int)\n" BUMP_BODY "    ret\nend\n",
     "SHA3.implCompress0",
     "failed to inline (intrinsic) _sha3_implCompress: record shape mismatch: SHA3.Digest has no long[] field state"},
    {"shape_state_not_long_array",
     "module SHA3\n"
     "record Digest\n    state: int[]\n    blockSize: int\nend\n"
     "@IntrinsicCandidate\n"
     "method implCompress0(this: Digest, b: byte[], ofs: int)\n" BUMP_BODY "    ret\nend\n",
     "SHA3.implCompress0",
     "failed to inline (intrinsic) _sha3_implCompress: record shape mismatch: SHA3.Digest has no long[] field state"},
    {"shape_block_size_not_int",
     "module SHA3\n"
     "record SHA3\n    state: long[]\n    blockSize: long\nend\n"
     "@IntrinsicCandidate\n"
     "method implCompress0(this: SHA3, b: byte[], ofs: int)\n" BUMP_BODY "    ret\nend\n",
     "SHA3.implCompress0",
     "failed to inline (intrinsic) _sha3_implCompress: record shape mismatch: SHA3.SHA3 has no int field blockSize"},
    /* the multi-block candidate links one stub per family whose record the program has: here none */
    {"shape_multi_block_without_digest_records",
     "module DigestBase\n"
     "record Digest\n    state: long[]\n    blockSize: int\nend\n"
     "@IntrinsicCandidate\n"
     "method implCompressMultiBlock0(this: Digest, b: byte[], ofs: int, limit: int) -> int\n" BUMP_BODY
     "    ret ofs\nend\n",
     "DigestBase.implCompressMultiBlock0",
     "failed to inline (intrinsic) _digestBase_implCompressMB: no digest record for its stubs in the program"},
    {"shape_other_signature",
     "module SHA3\n"
     "record Digest\n    state: long[]\n    blockSize: int\nend\n"
     "@IntrinsicCandidate\n"
     "method implCompress0(this: Digest, b: byte[])\n" BUMP_BODY "    ret\nend\n",
     "SHA3.implCompress0",
     "failed to inline (intrinsic): no compiler intrinsic is defined for the method (_sha3_implCompress is "
     "SHA3.implCompress0(record, byte[], int) -> void)"},
};

/*
 * p's candidate qname is not linked: PrintIntrinsics gives its line with tail, and a call runs its
 * bytecode (this.blockSize goes from 136 to 137) and no stub. with_state: the record's long[] field
 * state gets a fresh long[25] first (a shape case's record may have no such field).
 */
static void expect_candidate_unlinked(vm_program *p, const char *qname, const char *tail, bool with_state)
{
    char want[512] = "";
    append_line(want, sizeof want, p, qname, tail);
    uint32_t nlinked;
    char *got = printed_by_vm_new(p, &counting, NULL, 1, &nlinked);
    tu_expect_text("PrintIntrinsics", got, EXACT, want);
    free(got);
    assert_int_equal(nlinked, 0);

    vm_t *vm = new_vm(p, &counting, NULL, NULL);
    const vm_method *m = sd_method(p, qname);
    const char *rec = vm->prog->records[m->regtypes[0].rec].qname;
    vm_obj *d = vm_new_record(vm, m->regtypes[0].rec), *b = NULL;
    assert_non_null(d);
    vm_push_root(vm, &d);
    b = sd_new_bytes(vm, msgbuf, 400);
    vm_push_root(vm, &b);
    uint16_t fb = field(p, rec, "blockSize");
    VM_FIELDS(d)[fb].i = 136;
    if (with_state) {
        vm_obj *st = vm_new_array(vm, VM_T_LONGS, 25);
        assert_non_null(st);
        VM_FIELDS(d)[field(p, rec, "state")].ref = st;
    }
    vm_value args[4] = {{.ref = d}, {.ref = b}, {.i = 0}, {.i = 200}}, r = {0};
    n_compress = n_compress_mb = 0;
    if (vm_call(vm, m, args, &r) != VM_OK)
        fail_msg("%s: %s", qname, sd_exc_text(vm, false));
    assert_int_equal(VM_FIELDS(d)[fb].i, 137);
    assert_int_equal(n_compress + n_compress_mb, 0);
    vm_pop_roots(vm, 2);
    vm_free(vm);
}

static void shape_mismatch_refuses_to_link(void **state)
{
    const shape_case *c = *state;
    use_backend(&ref_backend);
    vm_program *p = tu_load(c->src);
    p->modules[1]->builtin = true; /* modules[0] is Sys, [1] the program's own */
    expect_candidate_unlinked(p, c->qname, c->tail, false);
    vm_program_free(p);
}

/* ---- a program's own modules: never intrinsified, whatever their names -------------------------- */

/*
 * HotSpot intrinsifies only classes the boot loader defined; minivm only the
 * built-in library's modules, by identity (vm_module.builtin), not by name. A
 * program module called SHA3 or DigestBase, with a candidate of the right
 * name, signature and record shape, is a module of its own: its candidates
 * run their bytecode, never the library's stubs.
 */
typedef struct own_case {
    const char *name;
    const char *src;
    const char *qname; /* the candidate */
} own_case;

static const own_case OWN[] = {
    {"own_sha3_module_with_the_stub_shape",
     "module SHA3\n"
     "record SHA3\n    state: long[]\n    blockSize: int\nend\n"
     "@IntrinsicCandidate\n"
     "method implCompress0(this: SHA3, b: byte[], ofs: int)\n" BUMP_BODY "    ret\nend\n",
     "SHA3.implCompress0"},
    {"own_digestbase_module_with_the_stub_shape",
     "module DigestBase\n"
     "record Digest\n    state: long[]\n    blockSize: int\nend\n"
     "@IntrinsicCandidate\n"
     "method implCompressMultiBlock0(this: Digest, b: byte[], ofs: int, limit: int) -> int\n" BUMP_BODY
     "    ret ofs\nend\n",
     "DigestBase.implCompressMultiBlock0"},
    {"own_module_of_another_name",
     "module Mine\n"
     "record Digest\n    state: long[]\n    blockSize: int\nend\n"
     "@IntrinsicCandidate\n"
     "method implCompress0(this: Digest, b: byte[], ofs: int)\n" BUMP_BODY "    ret\nend\n",
     "Mine.implCompress0"},
};

static void own_module_never_links(void **state)
{
    const own_case *c = *state;
    use_backend(&ref_backend);
    vm_program *p = tu_load(c->src);
    char tail[256];
    snprintf(tail, sizeof tail,
             "failed to inline (intrinsic): %s is the program's module (<test>), not the built-in library's: only "
             "the library's candidates are intrinsified", sd_method(p, c->qname)->module->name);
    expect_candidate_unlinked(p, c->qname, tail, true);
    vm_program_free(p);
}

/*
 * A program module SHA3 whose record SHA3 extends DigestBase.Digest (state
 * long[], blockSize, its own implCompress counting its calls): DigestBase's
 * multi-block loop must call that implCompress for each of the four blocks,
 * not the library's stub for records called SHA3.SHA3 (the SHA-3 twin of
 * test_limits' own_sha2_module_gets_no_stub, with the counting table).
 */
static const char own_digest_src[] =
    "module SHA3\n"
    "import DigestBase\n"
    "record SHA3 extends DigestBase.Digest\n    state: long[]\n    calls: long\nend\n"
    "method implCompress(this: SHA3, b: byte[], ofs: int)\n    var n: long\n    getfield n, this, calls\n"
    "    add n, n, 1\n    putfield this, calls, n\n    ret\nend\n"
    "method implDigest(this: SHA3, out: byte[], ofs: int)\n    ret\nend\n"
    "method implReset(this: SHA3)\n    ret\nend\n"
    "method run() -> long\n    var d: SHA3\n    var k: int\n    var a: byte[]\n    var st: long[]\n"
    "    var u_d: DigestBase.Digest\n    var u_b: byte[]\n    var u_ofs, u_len: int\n    var n: long\n"
    "    new d, SHA3\n    ldi k, 136\n    putfield d, blockSize, k\n    newarray a, k\n    putfield d, buffer, a\n"
    "    ldi k, 25\n    newarray st, k\n    putfield d, state, st\n    ldi k, 32\n    putfield d, digestLength, k\n"
    "    mov u_d, d\n    ldi u_len, 544\n    newarray u_b, u_len\n    ldi u_ofs, 0\n"
    "    call DigestBase.update(u_d, u_b, u_ofs, u_len)\n    getfield n, d, calls\n    ret n\nend\n";

/* SHA3.run of p on a VM with stubs (and DisableIntrinsic=disable): its result; the stubs' counts
   start at zero */
static int64_t call_sha3_run(const vm_program *p, const stub_routines *stubs, const char *disable)
{
    vm_t *vm = new_vm(p, stubs, disable, NULL);
    n_compress = n_compress_mb = 0;
    int64_t r = sd_call(vm, "SHA3.run", sd_method(p, "SHA3.run"), NULL).i;
    vm_free(vm);
    return r;
}

static void own_digest_record_runs_its_bytecode(void **state)
{
    (void)state;
    use_backend(&ref_backend);
    vm_program *p = tu_load(own_digest_src);
    int64_t calls = call_sha3_run(p, &counting, NULL);
    vm_program_free(p);
    assert_int_equal(calls, 4);         /* four blocks, each through the program's implCompress */
    assert_int_equal(n_compress_mb, 0); /* and no stub */
}

/*
 * The reverse: a program module SHA3 with a record SHA3 declared before the
 * library is imported must not take the library's place: the library's SHA3
 * keeps its multi-block stub (with DisableIntrinsic=_sha3_implCompress, a
 * 100 MiB SHA3-256 took 4.14 s instead of 0.36 s while PrintIntrinsics said
 * the stub was linked).
 */
static const char beside_library_src[] =
    "module SHA3\n"
    "record SHA3\n    state: long[]\n    blockSize: int\nend\n"
    "import MessageDigest\n"
    "import DigestBase\n"
    "method run() -> long\n    var d: DigestBase.Digest\n    var name, out: byte[]\n    var q_d: DigestBase.Digest\n"
    "    var u_d: DigestBase.Digest\n    var u_b: byte[]\n    var u_ofs, u_len: int\n    var k, r: long\n"
    "    ldstr name, \"SHA3-256\"\n    call d = MessageDigest.getInstance(name)\n    mov u_d, d\n"
    "    ldi u_len, 544\n    newarray u_b, u_len\n    ldi u_ofs, 0\n"
    "    call DigestBase.update(u_d, u_b, u_ofs, u_len)\n    mov q_d, d\n    call out = DigestBase.digest(q_d)\n"
    "    ldi k, 0\n    baload r, out, k\n    ret r\nend\n";

static void library_keeps_its_stub_beside_own_sha3(void **state)
{
    (void)state;
    use_backend(&ref_backend);
    vm_program *p = tu_load(beside_library_src);
    int64_t want = call_sha3_run(p, NULL, NULL);
    int64_t got = call_sha3_run(p, &counting, "_sha3_implCompress");
    vm_program_free(p);
    assert_int_equal(got, want);
    uint8_t zeros[544] = {0}, ref[32];
    sha3_ref(256, zeros, sizeof zeros, ref);
    assert_int_equal(got, (int8_t)ref[0]);
    if (n_compress_mb == 0)
        fail_msg("the library's SHA3-256 ran no multi-block stub beside a program module SHA3");
}

/* ---- DisableIntrinsic lists (the launcher's check, HotSpot's ControlIntrinsicValidator) -------- */

static void check_list_as_hotspot(void **state)
{
    (void)state;
    static const struct {
        const char *list;
        const char *bad; /* NULL: valid */
    } cases[] = {
        {"", NULL},
        {"_sha3_implCompress", NULL},
        {"_sha3_implCompress,_digestBase_implCompressMB", NULL},
        {"_digestBase_implCompressMB\n_sha3_implCompress", NULL},           /* two -XX:DisableIntrinsic */
        {" _sha3_implCompress ,, _digestBase_implCompressMB, ", NULL},     /* blanks and empty ids */
        {",\n ,", NULL},
        {"_foo", "_foo"},
        {"_sha3_implCompress,_foo,_bar", "_foo"},                          /* the first unknown one */
        {"_sha3_implCompress\n_x", "_x"},
        {"+_sha3_implCompress", "+_sha3_implCompress"},                    /* no +/- in DisableIntrinsic */
        {"-_digestBase_implCompressMB", "-_digestBase_implCompressMB"},
        {"_sha3_implCompress\t_digestBase_implCompressMB", "_sha3_implCompress\t_digestBase_implCompressMB"},
        {"_none", "_none"},
        {"_SHA3_implCompress", "_SHA3_implCompress"},                      /* case matters */
        {"_md5_implCompress,_sha_implCompress", NULL},                     /* HotSpot's digest ids: known */
        {"_sha2_implCompress _sha5_implCompress", NULL},
        {"_hashCode", "_hashCode"},                                        /* any other HotSpot id: not */
        {"_123456789_123456789_123456789_123456789_123456789_123456789_123456789",
         "_123456789_123456789_123456789_123456789_123456789_123456789_12"}, /* capped at 63 */
    };
    assert_int_equal(vm_intrinsic_check_list(NULL, NULL, 0), 0);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char bad[64] = "";
        int r = vm_intrinsic_check_list(cases[i].list, bad, sizeof bad);
        if (cases[i].bad ? r != -1 || strcmp(bad, cases[i].bad) != 0 : r != 0)
            fail_msg("\"%s\": returned %d \"%s\", expected %s \"%s\"", cases[i].list, r, bad,
                     cases[i].bad ? "-1" : "0", cases[i].bad ? cases[i].bad : "");
    }
    assert_int_equal(vm_intrinsic_find_id("_sha3_implCompress"), VM_INTRINSIC_sha3_implCompress);
    assert_int_equal(vm_intrinsic_find_id("_digestBase_implCompressMB"), VM_INTRINSIC_digestBase_implCompressMB);
    assert_int_equal(vm_intrinsic_find_id("_none"), VM_INTRINSIC_NONE);
    assert_string_equal(vm_intrinsic_name(VM_INTRINSIC_sha3_implCompress), "_sha3_implCompress");
    assert_true(vm_intrinsic_in_list("_x _sha3_implCompress", VM_INTRINSIC_sha3_implCompress));
    assert_false(vm_intrinsic_in_list("_sha3_implCompressMB", VM_INTRINSIC_sha3_implCompress));
    assert_false(vm_intrinsic_in_list(NULL, VM_INTRINSIC_sha3_implCompress));
}

/* ---- the launcher ----------------------------------------------------------------------------- */

#define FATAL_TAIL TU_FATAL_TAIL
#define DIAGNOSTIC_LOCKED(name) TU_DIAGNOSTIC_LOCKED(name)
#define UNRECOGNIZED(id) "Unrecognized intrinsic detected in DisableIntrinsic: " id "\n" FATAL_TAIL
#define UNLOCK  "-XX:+UnlockDiagnosticVMOptions"
#define PRINT   "-XX:+PrintIntrinsics"
/* SHA3-256 of the 1000 bytes of stdin ("a" * 1000): one update of several blocks */
#define DIGEST_A1000 "8f3934e6f7a15698fe0f396b95d8c4440929a8fa6eae140171c068b4549fbf81  -\n"
#define MD5_A1000    "cabe45dcc9ae5b66ba86600cca6b8ba8  -\n"

#define MB_HEAD   "DigestBase::implCompressMultiBlock0 ("
#define SHA3_HEAD "SHA3::implCompress0 ("
#define L_NO_STUB_MB   "   " NO_STUB_MB "\n"
#define L_NO_STUB_SHA3 "   " NO_STUB_SHA3 "\n"
#define L_DISABLED_MB   "   failed to inline (intrinsic) _digestBase_implCompressMB: disabled by DisableIntrinsic\n"
#define L_DISABLED_SHA3 "   failed to inline (intrinsic) _sha3_implCompress: disabled by DisableIntrinsic\n"

enum { ANY_HOST, X86_64_HOST, AARCH64_HOST };

typedef struct cli_case {
    const char *name;
    int host;
    const char *argv[10]; /* "@" is examples/digest.mva */
    int status;
    const char *out[5];   /* each must appear in stdout (NULL-terminated) */
    const char *out_lacks;
    int err_mode;
    const char *err;
} cli_case;

static const cli_case CLI[] = {
    /* PrintIntrinsics: one line per candidate when the program is linked, then the program */
    {"cli_print_no_stub", ANY_HOST,
     {UNLOCK, "-XX:-UseSHA", "-XX:-UseSHA3Intrinsics", "-XX:-UseMD5Intrinsics", PRINT, "@", "SHA3-256"}, 0,
     {MB_HEAD, L_NO_STUB_MB, SHA3_HEAD, L_NO_STUB_SHA3, DIGEST_A1000}, NULL, EXACT, ""},
    /* x86-64: the stub of the host's variant (AVX-512 on an Intel with it, else GPR) */
    {"cli_print_default_flags_x86_64", X86_64_HOST, {UNLOCK, PRINT, "@", "SHA3-256"}, 0,
     {"   (intrinsic) _digestBase_implCompressMB: stub sha3_implCompressMB (",
      "   (intrinsic) _sha3_implCompress: stub sha3_implCompress (", DIGEST_A1000},
     NULL, EXACT, ""},
    {"cli_print_gpr_x86_64", X86_64_HOST,
     {UNLOCK, "-XX:+UseSHA3Intrinsics", "-XX:-UseSIMDForSHA3Intrinsic", PRINT, "@", "SHA3-256"}, 0,
     {"   (intrinsic) _digestBase_implCompressMB: stub sha3_implCompressMB (gpr", DIGEST_A1000}, NULL, EXACT, ""},
    {"cli_print_real_stubs_aarch64", AARCH64_HOST, {UNLOCK, "-XX:+UseSHA3Intrinsics", PRINT, "@", "SHA3-256"}, 0,
     {"   (intrinsic) _digestBase_implCompressMB: stub sha3_implCompressMB (",
      "   (intrinsic) _sha3_implCompress: stub sha3_implCompress (", DIGEST_A1000},
     NULL, EXACT, ""},
    /* MD5: its candidate and the multi-block one link the GPR stub on every CPU of both architectures */
    {"cli_print_md5_x86_64", X86_64_HOST, {UNLOCK, PRINT, "@", "MD5"}, 0,
     {"MD5::implCompress0 (", "   (intrinsic) _md5_implCompress: stub md5_implCompress (gpr)\n",
      "stub md5_implCompressMB (gpr)", MD5_A1000},
     NULL, EXACT, ""},
    {"cli_print_md5_aarch64", AARCH64_HOST, {UNLOCK, PRINT, "@", "MD5"}, 0,
     {"MD5::implCompress0 (", "   (intrinsic) _md5_implCompress: stub md5_implCompress (gpr)\n",
      "stub md5_implCompressMB (gpr)", MD5_A1000},
     NULL, EXACT, ""},
    {"cli_print_md5_off", ANY_HOST, {UNLOCK, "-XX:-UseMD5Intrinsics", PRINT, "@", "MD5"}, 0,
     {"MD5::implCompress0 (", "failed to inline (intrinsic) _md5_implCompress: no stub on this CPU with these flags",
      MD5_A1000},
     "stub md5_implCompressMB", EXACT, ""},
    {"cli_print_without_candidates", ANY_HOST, {UNLOCK, PRINT, "examples/hello.mva"}, 0, {NULL}, "(intrinsic",
     EXACT, ""},
    {"cli_print_locked", ANY_HOST, {"-XX:-UnlockDiagnosticVMOptions", PRINT, "-version"}, 1, {NULL}, NULL, EXACT,
     DIAGNOSTIC_LOCKED("PrintIntrinsics") TU_IMPROPER("PrintIntrinsics") FATAL_TAIL},
    /* DisableIntrinsic: ids split by ',' and ' ', options accumulate; checked before anything runs */
    {"cli_disable_both", ANY_HOST,
     {UNLOCK, "-XX:+UseSHA3Intrinsics", "-XX:-PrintWarnings",
      "-XX:DisableIntrinsic=_sha3_implCompress,_digestBase_implCompressMB", PRINT, "@", "SHA3-256"},
     0, {L_DISABLED_MB, L_DISABLED_SHA3, DIGEST_A1000}, NULL, EXACT, ""},
    {"cli_disable_repeated_accumulates", ANY_HOST,
     {UNLOCK, "-XX:DisableIntrinsic=_sha3_implCompress", "-XX:DisableIntrinsic=_digestBase_implCompressMB", PRINT,
      "@", "SHA3-256"},
     0, {L_DISABLED_MB, L_DISABLED_SHA3, DIGEST_A1000}, NULL, EXACT, ""},
    {"cli_disable_space_separated", ANY_HOST,
     {UNLOCK, "-XX:DisableIntrinsic=_digestBase_implCompressMB _sha3_implCompress", PRINT, "@", "SHA3-256"}, 0,
     {L_DISABLED_MB, L_DISABLED_SHA3, DIGEST_A1000}, NULL, EXACT, ""},
    {"cli_disable_one", ANY_HOST,
     {UNLOCK, "-XX:-UseSHA3Intrinsics", "-XX:DisableIntrinsic=_digestBase_implCompressMB", PRINT, "@", "SHA3-256"},
     0, {L_DISABLED_MB, L_NO_STUB_SHA3, DIGEST_A1000}, NULL, EXACT, ""},
    {"cli_disable_empty", ANY_HOST, {UNLOCK, "-XX:DisableIntrinsic=", "-version"}, 0, {NULL}, NULL, PREFIX,
     "minivm version"},
    {"cli_disable_unknown", ANY_HOST, {UNLOCK, "-XX:DisableIntrinsic=_foo", "-version"}, 1, {NULL}, "minivm", EXACT,
     UNRECOGNIZED("_foo")},
    {"cli_disable_first_unknown", ANY_HOST, {UNLOCK, "-XX:DisableIntrinsic=_sha3_implCompress,_foo,_bar", "-version"},
     1, {NULL}, NULL, EXACT, UNRECOGNIZED("_foo")},
    {"cli_disable_unknown_in_second_option", ANY_HOST,
     {UNLOCK, "-XX:DisableIntrinsic=_sha3_implCompress", "-XX:DisableIntrinsic=_x", "@", "SHA3-256"}, 1, {NULL},
     "8f39", EXACT, UNRECOGNIZED("_x")},
    {"cli_disable_plus_form", ANY_HOST, {UNLOCK, "-XX:DisableIntrinsic=+_sha3_implCompress", "-version"}, 1, {NULL},
     NULL, EXACT, UNRECOGNIZED("+_sha3_implCompress")},
    {"cli_disable_minus_form", ANY_HOST, {UNLOCK, "-XX:DisableIntrinsic=-_digestBase_implCompressMB", "-version"}, 1,
     {NULL}, NULL, EXACT, UNRECOGNIZED("-_digestBase_implCompressMB")},
    {"cli_disable_tab_not_a_separator", ANY_HOST,
     {UNLOCK, "-XX:DisableIntrinsic=_sha3_implCompress\t_digestBase_implCompressMB", "-version"}, 1, {NULL}, NULL,
     EXACT, UNRECOGNIZED("_sha3_implCompress\t_digestBase_implCompressMB")},
    {"cli_disable_none", ANY_HOST, {UNLOCK, "-XX:DisableIntrinsic=_none", "-version"}, 1, {NULL}, NULL, EXACT,
     UNRECOGNIZED("_none")},
    {"cli_disable_hotspot_digest_ids", ANY_HOST,
     {UNLOCK, "-XX:DisableIntrinsic=_md5_implCompress,_sha_implCompress,_sha2_implCompress,_sha5_implCompress", PRINT,
      "@", "SHA3-256"},
     0, {DIGEST_A1000}, "_sha3_implCompress: disabled by", EXACT, ""},
    {"cli_disable_other_hotspot_id", ANY_HOST, {UNLOCK, "-XX:DisableIntrinsic=_hashCode", "-version"}, 1, {NULL},
     NULL, EXACT, UNRECOGNIZED("_hashCode")},
    {"cli_disable_checked_before_print_flags", ANY_HOST,
     {UNLOCK, "-XX:DisableIntrinsic=_foo", "-XX:+PrintFlagsFinal", "-version"}, 1, {NULL}, "[Global flags]", EXACT,
     UNRECOGNIZED("_foo")},
    {"cli_disable_checked_with_ignore_unrecognized", ANY_HOST,
     {"-XX:+IgnoreUnrecognizedVMOptions", UNLOCK, "-XX:DisableIntrinsic=_foo", "-version"}, 1, {NULL}, NULL, EXACT,
     UNRECOGNIZED("_foo")},
    {"cli_disable_locked", ANY_HOST, {"-XX:-UnlockDiagnosticVMOptions", "-XX:DisableIntrinsic=_sha3_implCompress",
                                      "-version"}, 1, {NULL}, NULL,
     EXACT, DIAGNOSTIC_LOCKED("DisableIntrinsic") TU_IMPROPER("DisableIntrinsic=_sha3_implCompress") FATAL_TAIL},
};

static void run_cli(void **state)
{
    const cli_case *c = *state;
#if defined(__x86_64__)
    int host = X86_64_HOST;
#elif defined(__aarch64__)
    int host = AARCH64_HOST;
#else
    int host = ANY_HOST;
#endif
    if (c->host != ANY_HOST && c->host != host)
        skip();
    char *argv[11] = {NULL};
    for (size_t i = 0; i < 10 && c->argv[i]; i++) {
        if (strcmp(c->argv[i], "@") == 0)
            argv[i] = tu_subst(c->argv[i], tu_source_path("examples/digest.mva"));
        else if (strncmp(c->argv[i], "examples/", 9) == 0)
            argv[i] = tu_subst("@", tu_source_path(c->argv[i]));
        else
            argv[i] = tu_subst(c->argv[i], "");
    }
    char in[1001];
    memset(in, 'a', 1000);
    in[1000] = '\0';
    tu_result r = tu_run((const char *const *)argv, in, 120);
    tu_expect_status(&r, c->status);
    for (size_t i = 0; i < 5 && c->out[i]; i++)
        tu_expect_text("stdout", r.out, CONTAINS, c->out[i]);
    if (c->out_lacks)
        tu_expect_text("stdout", r.out, LACKS, c->out_lacks);
    if (!c->out[0] && !c->out_lacks && c->status != 0)
        tu_expect_text("stdout", r.out, EXACT, "");
    tu_expect_text("stderr", r.err, c->err_mode, c->err);
    for (size_t i = 0; i < 10; i++)
        free(argv[i]);
    tu_result_free(&r);
}

/* ---- the families' digests ------------------------------------------------------------------- */

/*
 * Each family's row names the digests whose objects are its records (stubs/stubdeclarations.h; the
 * benchmark runner's configurations read them): MessageDigest.getInstance of each digest the
 * library has is a record of exactly the holder of the one row that names it.
 */
static void families_name_their_digests(void **state)
{
    (void)state;
    static const struct {
        const char *holder, *digests;
    } rows[] = {
#define ROW(id, flag, display, unavailable, holder, words, word_bytes, blocks, one, multi, args, digests) \
    {holder, digests},
        STUB_FAMILIES(ROW)
#undef ROW
    };
    /* every digest MessageDigest.getInstance has (vm/lib/MessageDigest.mva) */
    static const char *const all[] = {"MD5",         "SHA-1",        "SHA-224",      "SHA-256",  "SHA-384",
                                      "SHA-512",     "SHA-512/224",  "SHA-512/256",  "SHA3-224", "SHA3-256",
                                      "SHA3-384",    "SHA3-512",     "SHAKE128-256", "SHAKE256-512",
                                      "SHA-256-JDK15"};
    vm_program *p = tu_load("module T\nimport MessageDigest\nmethod main()\n    ret\nend\n");
    vm_t *vm = tu_vm(p, 0);
    const vm_method *get = vm_find_method(p, "MessageDigest.getInstance");
    assert_non_null(get);
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) {
        vm_obj *name = vm_new_array(vm, VM_T_BYTES, (int64_t)strlen(all[k]));
        assert_non_null(name);
        memcpy(name->data, all[k], strlen(all[k]));
        vm_value args[1] = {{.ref = name}}, r = {0};
        assert_int_equal(vm_call(vm, get, args, &r), VM_OK);
        if (!r.ref)
            fail_msg("MessageDigest.getInstance(\"%s\") is null", all[k]);
        int found = 0;
        for (size_t f = 0; f < sizeof rows / sizeof rows[0]; f++) {
            char list[256];
            snprintf(list, sizeof list, " %s ", rows[f].digests);
            char want[64];
            snprintf(want, sizeof want, " %s ", all[k]);
            uint32_t holder = 0;
            while (holder < p->nrecords && strcmp(p->records[holder].qname, rows[f].holder) != 0)
                holder++;
            assert_true(holder < p->nrecords);
            bool named = strstr(list, want) != NULL, is = vm_record_is_a(p->records, r.ref->rec, (uint16_t)holder);
            if (named != is)
                fail_msg("%s is %s%s record, but the family row of %s %s it", all[k], is ? "a " : "not a ",
                         rows[f].holder, rows[f].holder, named ? "names" : "does not name");
            found += named;
        }
        if (found != 1)
            fail_msg("%s is named by %d family rows, not one", all[k], found);
        vm_gc(vm);
    }
    vm_free(vm);
    vm_program_free(p);
}

/* ---- main ------------------------------------------------------------------------------------- */

int main(void)
{
    tu_group linking = {0}, real = {0}, cli = {0};
    tu_add_test(&linking, "ref_digests_match", digests_match, &ref_backend);
    tu_add_test(&linking, "ref_candidate_calls_match_bytecode", candidate_calls_match_bytecode, &ref_backend);
    TU_ADD_TEST(&linking, check_list_as_hotspot);
    TU_ADD_TEST(&linking, double_keccak_guards);
    TU_ADD_TEST(&linking, families_name_their_digests);
    TU_ADD_TABLE(&linking, DISABLE, disable_turns_off);
    TU_ADD_TABLE(&linking, PRINTS, print_intrinsics_lines);
    TU_ADD_TABLE(&linking, SHAPES, shape_mismatch_refuses_to_link);
    TU_ADD_TABLE(&linking, OWN, own_module_never_links);
    TU_ADD_TEST(&linking, own_digest_record_runs_its_bytecode);
    TU_ADD_TEST(&linking, library_keeps_its_stub_beside_own_sha3);
    tu_add_test(&real, "real_digests_match", digests_match, &real_backend);
    tu_add_test(&real, "real_candidate_calls_match_bytecode", candidate_calls_match_bytecode, &real_backend);
    TU_ADD_TABLE(&cli, CLI, run_cli);
    int failed = tu_run_group("intrinsics", &linking, group_setup, group_teardown);
    failed += tu_run_group("intrinsics_real_stubs", &real, real_group_setup, group_teardown);
    failed += tu_run_group("intrinsics_cli", &cli, NULL, NULL);
    return failed;
}
