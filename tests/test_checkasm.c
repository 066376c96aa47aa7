/*
 * tests/test_checkasm.c — the stub-test harness (dav1d's checkasm) for every
 * stub of every variant table (stub_arch_ops.variants), one group of tests
 * per stub family; a new variant, or a new family with its C reference
 * below, needs no new test file.
 *
 * On every host, for every architecture: each variant's stubs (both
 * entries) generate without a refused instruction, into a bounded size.
 * On the host's architecture (native, or QEMU user mode; the per-ISA part is
 * checkasm.h: the trampoline and the register names), each stub the host's
 * CPU runs, against the C reference (stubs/sha3_ref.c, stubs/sha2_ref.c) on
 * random states and blocks of every block size of its family:
 *   - through the trampoline, which fills the callee-saved registers with
 *     magic values and reports every one that came back different;
 *   - int arguments with garbage in their upper 32 bits (a stub reads only
 *     the low halves);
 *   - the input ending at an unmapped page (an over-read faults), the state
 *     between guard bytes and at 16 offsets of its word size only (Java's
 *     arrays are aligned to their elements), so an over-write shows;
 *   - the multi-block entry on 1-8 blocks, ofs up to 100000, negative or near
 *     INT32_MAX, limit anywhere in the last block, at its start, at its end and
 *     below ofs down to INT32_MIN (the do ... while runs one block), and its
 *     returned ofs; on x86-64 the single-block entry returning 0 (as HotSpot's);
 *   - one known answer per family through the stub ("abc": FIPS 180-4, FIPS 202).
 * A variant the host lacks is reported SKIPPED, never passed, and its
 * single-block stub must die of SIGILL in a child (the reason the VM never
 * selects it there).
 *
 * `test_checkasm --bench [FAMILY]` times each multi-block stub the host runs
 * against the C reference and OpenSSL's EVP, interleaved, the best of five
 * trials (ns per block), and each double_keccak against two calls of its
 * variant's single-state stub and two C-reference permutations (ns per pair);
 * `--list` prints the variants.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "codecache.h"
#include "cpu.h"
#include "family_refs.h"
#include "flags.h"
#include "sha3_ref.h"
#include "stub_arch.h"
#include "stubgenerator_aarch64.h"
#include "stubroutines.h"
#include "sha3_stub_configs.h"

#if defined(CHECKASM_TRAMPOLINE)
#include "checkasm.h"
#endif

/* ---- the architectures, their variants and designs -------------------------------------------- */

#define STUB_OPS_REF(id, folder, prefix) &prefix##_stub_ops,
static const stub_arch_ops *const arches[] = {MVM_ARCHES(STUB_OPS_REF)};
#undef STUB_OPS_REF
#define NARCHES (sizeof arches / sizeof arches[0])

/*
 * Designs of a row that its table does not list, because a flag or the
 * platform chooses them at generation time: the AArch64 GPR SHA-3 stub
 * keeping fp (-XX:+PreserveFramePointer) and x18 (a platform that reserves
 * it), where it otherwise uses them as temporaries.
 */
static const struct design {
    cpu_arch arch;
    stub_family family;
    const char *variant;
    const struct a64_sha3_design *design; /* its label and generator parameters */
} designs[] = {
    {CPU_ARCH_AARCH64, STUB_FAMILY_SHA3, "gpr", &a64_sha3_gpr_designs[0]},
    {CPU_ARCH_AARCH64, STUB_FAMILY_SHA3, "gpr", &a64_sha3_gpr_designs[1]},
    {CPU_ARCH_AARCH64, STUB_FAMILY_SHA3, "gpr", &a64_sha3_gpr_designs[2]},
};
#define NDESIGNS (sizeof designs / sizeof designs[0])

/* One thing to check: a row of a table (or a design of one), one of its family's stubs. */
typedef struct target {
    const stub_arch_ops *arch;
    stub_variant v;     /* a copy, its design replaced for a design target */
    stub_id id;
    char name[96];      /* "SHA-3 gpr MB", "SHA-3 gpr (r18 reserved)" */
} target;

enum { MAX_TARGETS = 128 };
static target targets[MAX_TARGETS];
static size_t ntargets;

static bool is_multi_block(stub_id id) { return strcmp(stub_descs[id].intrinsic, "_digestBase_implCompressMB") == 0; }

static void add_target(const stub_arch_ops *arch, const stub_variant *v, const void *design, const char *label)
{
    for (int id = 0; id < STUB_COUNT && ntargets < MAX_TARGETS; id++) {
        if (!stub_variant_has(v, (stub_id)id))
            continue;
        target *t = &targets[ntargets++];
        t->arch = arch;
        t->v = *v;
        if (design)
            t->v.design = design;
        t->id = (stub_id)id;
        snprintf(t->name, sizeof t->name, "%s %s %s%s%s%s", cpu_arch_name(arch->arch),
                 stub_family_descs[v->family].display, v->name,
                 is_multi_block((stub_id)id)        ? " MB"
                 : id == STUB_ID_double_keccak ? " double_keccak"
                                               : "",
                 label ? " " : "", label ? label : "");
    }
}

static void collect_targets(void)
{
    for (size_t a = 0; a < NARCHES; a++) {
        const stub_arch_ops *arch = arches[a];
        for (size_t i = 0; i < arch->nvariants; i++) {
            const stub_variant *v = &arch->variants[i];
            add_target(arch, v, NULL, NULL);
            for (size_t d = 0; d < NDESIGNS; d++)
                if (designs[d].arch == arch->arch && designs[d].family == v->family &&
                    strcmp(designs[d].variant, v->name) == 0)
                    add_target(arch, v, &designs[d].design->cfg, designs[d].design->label);
        }
    }
}

/* ---- generation, on every host ----------------------------------------------------------------- */

enum { CODE_ROOM = 16384 };

static void generate_into(const target *t, uint8_t *code, size_t room, size_t *entry, size_t *size)
{
    char err[256] = "";
    if (!t->arch->generate(&t->v, t->id, code, room, entry, size, err, sizeof err))
        fail_msg("%s: the generator refused: %s", t->name, err);
}

/* Every target of every architecture generates, into a bounded size, with no zero word where every
   instruction is 4 bytes (a refused AArch64 instruction leaves udf #0); a buffer too small fails. */
static void generates_everywhere(void **state)
{
    stub_family family = (stub_family)(intptr_t)*state;
    static uint8_t code[CODE_ROOM];
    int n = 0;
    for (size_t i = 0; i < ntargets; i++) {
        const target *t = &targets[i];
        if (t->v.family != family)
            continue;
        size_t entry = 0, size = 0;
        memset(code, 0, sizeof code);
        generate_into(t, code, sizeof code, &entry, &size);
        if (size < 64 || size >= sizeof code || entry >= size)
            fail_msg("%s: %zu bytes, entry at %zu", t->name, size, entry);
        if (t->arch->code.insn_size == 4)
            for (size_t w = 0; w < size; w += 4)
                if (!code[w] && !code[w + 1] && !code[w + 2] && !code[w + 3])
                    fail_msg("%s: word %zu is udf #0", t->name, w / 4);
        char err[256];
        if (t->arch->generate(&t->v, t->id, code, 32, &entry, &size, err, sizeof err))
            fail_msg("%s: generated into 32 bytes", t->name);
        print_message("%-44s %5zu bytes\n", t->name, size);
        n++;
    }
    assert_true(n >= 2);
}

/* ---- running the stubs -------------------------------------------------------------------------- */

/* Deterministic xorshift64*, so a failure replays from the printed seed. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1DULL;
}

/* An int argument with random upper 32 bits. */
static uint64_t garbage_high(int32_t v) { return (rnd() & 0xFFFFFFFF00000000ULL) | (uint32_t)v; }

/* len bytes that end at an unmapped page. */
typedef struct guarded {
    uint8_t *base, *end;
    size_t len;
} guarded;

static guarded guarded_new(size_t len)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t pages = (len + page - 1) / page + 1;
    uint8_t *p = mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || mprotect(p + (pages - 1) * page, page, PROT_NONE) != 0)
        fail_msg("the guarded buffer: mmap or mprotect failed");
    return (guarded){p, p + (pages - 1) * page, pages * page};
}

static void guarded_free(guarded *g) { munmap(g->base, g->len); }

typedef struct runnable {
    codecache cc;
    void *entry;
} runnable;

/* The target in a code cache of its own, made executable. */
static void make_runnable(const target *t, runnable *r)
{
    char err[256];
    if (!codecache_init(&r->cc, 65536, err, sizeof err))
        fail_msg("code cache: %s", err);
    size_t room, entry = 0, size = 0;
    uint8_t *code = codecache_begin_stub(&r->cc, &room);
    assert_non_null(code);
    generate_into(t, code, room, &entry, &size);
    const stub_mark *m = codecache_end_stub(&r->cc, stub_descs[t->id].name, t->v.name, entry, size);
    assert_non_null(m);
    if (!codecache_seal(&r->cc, true, err, sizeof err))
        fail_msg("code cache: %s", err);
    r->entry = (void *)(uintptr_t)m->entry;
}

/* A family's state, in the words its reference reads (Java's long[25], int[5], int[8], long[8]). */
typedef union state_words {
    uint64_t w64[25];
    uint32_t w32[50];
    uint8_t bytes[200];
} state_words;

/* The C reference's one block of family f at block (bs bytes: SHA-3's rate). */
static void ref_block(stub_family f, state_words *st, const uint8_t *block, int bs)
{
    stub_family_refs[f].compress(st->bytes, block, bs);
}

/* What a stub must do to st with the blocks at buf (buf is the array's b + ofs): one block,
   or DigestBase.implCompressMultiBlock0's `do { block; ofs += bs; } while (ofs <= limit)`
   returning the final ofs. In 64-bit arithmetic, so an ofs near INT32_MAX is no overflow
   here, and no pointer leaves the blocks (ofs may be negative or large). */
static int32_t ref_compress(stub_family f, state_words *st, const uint8_t *buf, int bs, int32_t ofs, int32_t limit,
                            bool multi)
{
    int64_t o = ofs;
    do {
        ref_block(f, st, buf + (o - ofs), bs);
        o += bs;
    } while (multi && o <= limit);
    return multi ? (int32_t)o : 0;
}

/* The block sizes of family f (stub_family_desc's mask), ascending; returns how many. */
static int block_sizes(stub_family f, int sizes[32])
{
    int n = 0;
    for (int k = 1; k < 32; k++)
        if (stub_family_descs[f].block_sizes & STUB_BLOCK(8 * k))
            sizes[n++] = 8 * k;
    return n;
}

/* Does the stub take the block size as an argument (SHA-3: several sizes)? */
static bool takes_block_size(stub_family f)
{
    int sizes[32];
    return block_sizes(f, sizes) > 1;
}

enum { GUARD_BYTES = 16, STATE_MAX = 200, MAX_BLOCKS = 8, STATE_PLACES = 16 };
#define GUARD_BYTE 0xa5

typedef struct guarded_state {
    _Alignas(64) uint8_t bytes[GUARD_BYTES + STATE_PLACES * 8 + STATE_MAX + GUARD_BYTES];
    uint8_t *state;
    size_t len;
} guarded_state;

static cpu_info host_cpu;
static bool host_known;

/* The first feature of t's variant the host lacks, or NULL when it runs it. */
static const char *host_lacks(const target *t)
{
    uint64_t missing = host_known ? t->v.features & ~host_cpu.features : t->v.features;
    if (!host_known)
        return "(the host's CPU is unknown)";
    return missing ? cpu_first_feature_name(t->arch->arch, missing) : NULL;
}

#if defined(CHECKASM_TRAMPOLINE)

/* Keccak-f[1600] of the zero state, once and twice: lane 0 as the Keccak team's reference gives it. */
static bool ref_lane0_ok(void)
{
    uint64_t st[25] = {0};
    sha3_ref_keccak(st);
    bool once = st[0] == UINT64_C(0xf1258f7940e1dde7);
    sha3_ref_keccak(st);
    return once && st[0] == UINT64_C(0x2d5c954df96ecb3c);
}

/* One known answer per family through the stub itself (its row in stubs/family_refs.c): the
   initial state, the padded block of "abc", the digest of FIPS 180-4's, FIPS 202's (SHA3-256 for
   SHA-3) and RFC 1321's examples. */
static void check_known_answer(const target *t, const runnable *r)
{
    const stub_family f = t->v.family;
    const stub_family_ref *ref = &stub_family_refs[f];
    state_words st;
    _Alignas(8) uint8_t block[200];
    stub_family_ref_abc(f, st.bytes, block);
    uint32_t clobbered = 0; /* the multi-block entry: ofs 0, limit 0, one block */
    checkasm_call(r->entry, (uint64_t)(uintptr_t)block, (uint64_t)(uintptr_t)st.bytes,
                  takes_block_size(f) ? (uint64_t)ref->block_size : 0, 0, 0, &clobbered);
    char got[129] = {0};
    stub_family_ref_hex(f, st.bytes, strlen(ref->abc) / 2, got);
    if (strcmp(got, ref->abc) != 0)
        fail_msg("%s: the digest of \"abc\" is %s, FIPS says %s", t->name, got, ref->abc);
}

/*
 * double_keccak (SHA3Parallel.doubleKeccak): two random states, each between guard bytes at
 * one of STATE_PLACES lane offsets, against two permutations by the C reference, with garbage
 * in the unused argument registers and the callee-saved ones checked; it returns 0 (as
 * HotSpot's AArch64 stub; minivm's x86-64 one clears eax too). Then a known answer: the zero
 * state permuted once (Keccak's reference, lane 0 0xf1258f7940e1dde7) beside that state
 * permuted once more (0x2d5c954df96ecb3c).
 */
static void check_double_keccak(const target *t, int trials)
{
    runnable r;
    make_runnable(t, &r);
    checkasm_isa_init();
    const size_t len = 200;
    for (int k = 0; k <= trials; k++) {
        const uint64_t seed = rng_state;
        uint64_t ref[2][25];
        guarded_state g[2];
        for (int s = 0; s < 2; s++) {
            for (int i = 0; i < 25; i++)
                ref[s][i] = k < trials ? rnd() : 0;
            memset(g[s].bytes, GUARD_BYTE, sizeof g[s].bytes);
            g[s].len = len;
            g[s].state = g[s].bytes + GUARD_BYTES + (size_t)((k + 5 * s) % STATE_PLACES) * 8;
        }
        if (k == trials) /* the known answer: state1 is the zero state permuted once */
            sha3_ref_keccak(ref[1]);
        for (int s = 0; s < 2; s++) {
            memcpy(g[s].state, ref[s], len);
            sha3_ref_keccak(ref[s]);
        }
        uint32_t clobbered = 0;
        uint64_t ret = checkasm_call(r.entry, (uint64_t)(uintptr_t)g[0].state, (uint64_t)(uintptr_t)g[1].state, rnd(),
                                     rnd(), rnd(), &clobbered);
        char names[192];
        if (clobbered)
            fail_msg("%s (seed %#llx): failed to preserve%s", t->name, (unsigned long long)seed,
                     checkasm_clobber_names(clobbered, names, sizeof names));
        for (int s = 0; s < 2; s++) {
            for (const uint8_t *p = g[s].bytes; p < g[s].bytes + sizeof g[s].bytes; p++)
                if ((p < g[s].state || p >= g[s].state + len) && *p != GUARD_BYTE)
                    fail_msg("%s (seed %#llx): wrote outside state%d", t->name, (unsigned long long)seed, s);
            if (memcmp(g[s].state, ref[s], len) != 0)
                fail_msg("%s (seed %#llx): state%d differs from the C reference's permutation", t->name,
                         (unsigned long long)seed, s);
        }
        if ((uint32_t)ret != 0)
            fail_msg("%s: returned %#x, not 0", t->name, (uint32_t)ret);
    }
    if (!(ref_lane0_ok()))
        fail_msg("the C reference's Keccak-f[1600] of the zero state is not Keccak's");
    codecache_release(&r.cc);
}

static void check_target(const target *t, int trials)
{
    const stub_family f = t->v.family;
    const bool multi = is_multi_block(t->id);
    const size_t state_len = (size_t)(stub_family_descs[f].state_words * stub_family_descs[f].word_bytes);
    int sizes[32];
    const int nsizes = block_sizes(f, sizes);
    runnable r;
    make_runnable(t, &r);
    guarded in = guarded_new((size_t)sizes[nsizes - 1] * MAX_BLOCKS);
    checkasm_isa_init();
    for (int s = 0; s < nsizes; s++) {
        const int bs = sizes[s];
        for (int k = 0; k < trials; k++) {
            const uint64_t seed = rng_state;
            state_words ref;
            for (size_t i = 0; i < state_len; i++)
                ref.bytes[i] = (uint8_t)rnd();
            guarded_state g;
            memset(g.bytes, GUARD_BYTE, sizeof g.bytes);
            g.len = state_len;
            /* at every word position of STATE_PLACES: Java aligns an array to its elements only */
            g.state = g.bytes + GUARD_BYTES + (size_t)(k % STATE_PLACES) * (size_t)stub_family_descs[f].word_bytes;
            memcpy(g.state, ref.bytes, state_len);
            /* blocks, ofs and limit: limit anywhere in the last block, at its start or end, below
               ofs (one block) down to INT32_MIN; ofs up to 100000, negative, or near INT32_MAX */
            int nblocks = multi ? 1 + (int)(rnd() % MAX_BLOCKS) : 1;
            int32_t ofs = multi ? (int32_t)(rnd() % 100000) : 0;
            if (multi && k % 16 == 6)
                ofs = -1 - (int32_t)(rnd() % 100000);
            if (multi && k % 16 == 7)
                ofs = INT32_MAX - nblocks * bs - (int32_t)(rnd() % 1000);
            int32_t last = ofs + (nblocks - 1) * bs, limit = last + (int32_t)(rnd() % (uint64_t)bs);
            if (multi) {
                switch (k % 16) {
                case 1: limit = last; break;
                case 2: limit = last + bs - 1; break;
                case 3: nblocks = 1, limit = ofs - 1 - (int32_t)(rnd() % 2000); break;
                case 4: nblocks = 1, limit = INT32_MIN; break;
                case 5: /* anywhere below ofs */
                    nblocks = 1, limit = (int32_t)((int64_t)INT32_MIN + (int64_t)(rnd() % ((uint64_t)ofs + 2147483648u)));
                    break;
                default: break;
                }
            }
            uint8_t *buf = in.end - nblocks * bs;
            for (int i = 0; i < nblocks * bs; i++)
                buf[i] = (uint8_t)rnd();
            int32_t want = ref_compress(f, &ref, buf, bs, ofs, limit, multi);
            uint64_t a2 = takes_block_size(f) ? garbage_high(bs) : garbage_high(ofs);
            uint64_t a3 = takes_block_size(f) ? garbage_high(ofs) : garbage_high(limit);
            uint64_t a4 = takes_block_size(f) ? garbage_high(limit) : rnd();
            uint32_t clobbered = 0;
            uint64_t ret = checkasm_call(r.entry, (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)g.state, a2, a3, a4,
                                         &clobbered);
            char names[192];
            if (clobbered)
                fail_msg("%s, block size %d (seed %#llx): failed to preserve%s", t->name, bs,
                         (unsigned long long)seed, checkasm_clobber_names(clobbered, names, sizeof names));
            for (const uint8_t *p = g.bytes; p < g.bytes + sizeof g.bytes; p++)
                if ((p < g.state || p >= g.state + g.len) && *p != GUARD_BYTE)
                    fail_msg("%s, block size %d (seed %#llx): wrote outside the state", t->name, bs,
                             (unsigned long long)seed);
            for (size_t i = 0; i < state_len; i++)
                if (g.state[i] != ref.bytes[i])
                    fail_msg("%s, block size %d, %d block(s), ofs %d, limit %d (seed %#llx): state byte %zu is "
                             "%02x, the C reference says %02x", t->name, bs, nblocks, ofs, limit,
                             (unsigned long long)seed, i, g.state[i], ref.bytes[i]);
            if (multi && (int32_t)ret != want)
                fail_msg("%s, block size %d, ofs %d, limit %d: returned ofs %d, want %d", t->name, bs, ofs, limit,
                         (int32_t)ret, want);
            /* the single-block entry is void; on x86-64 it clears eax as HotSpot's stubs do
               (x64m_next_block_or_return), which the old per-architecture tests checked */
            if (!multi && t->arch->arch == CPU_ARCH_X86_64 && (uint32_t)ret != 0)
                fail_msg("%s, block size %d: returned %#x, not 0", t->name, bs, (uint32_t)ret);
        }
    }
    check_known_answer(t, &r);
    guarded_free(&in);
    codecache_release(&r.cc);
}

/* Where the host lacks a feature of the variant, its single-block stub dies of SIGILL. */
static void check_sigill(const target *t)
{
    runnable r;
    make_runnable(t, &r);
    fflush(stdout);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGILL, SIG_DFL);
        static uint64_t st[25];
        static uint8_t buf[200]; /* double_keccak: a second state */
        checkasm_call(r.entry, (uint64_t)(uintptr_t)buf, (uint64_t)(uintptr_t)st, 136, 0, 0, &(uint32_t){0});
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGILL)
        fail_msg("%s: ran on a CPU without %s (%s)", t->name, host_lacks(t),
                 WIFSIGNALED(status) ? "another signal" : "it returned");
    codecache_release(&r.cc);
}

#endif /* CHECKASM_TRAMPOLINE */

/* One target of the host's architecture: against the reference where the host runs it, else SIGILL. */
static void runs_as_reference(void **state)
{
    const target *t = *state;
    const char *lack = host_lacks(t);
    if (lack) {
#if defined(CHECKASM_TRAMPOLINE)
        if (!is_multi_block(t->id)) {
            check_sigill(t);
            print_message("%s needs %s, which this CPU does not have: it dies of SIGILL here\n", t->name, lack);
        }
#endif
        print_message("skipped: %s needs %s, which this CPU does not have\n", t->name, lack);
        skip();
    }
#if defined(CHECKASM_TRAMPOLINE)
    if (t->id == STUB_ID_double_keccak)
        check_double_keccak(t, 200);
    else
        check_target(t, takes_block_size(t->v.family) ? 40 : 200); /* per block size: SHA-3 has five */
#else
    print_message("skipped: no trampoline for this host\n");
    skip();
#endif
}

/* ---- --bench ------------------------------------------------------------------------------------ */

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* OpenSSL's digest of each family (fed whole blocks by EVP_DigestUpdate, compressed as they come). */
static const EVP_MD *openssl_md(stub_family f) { return EVP_get_digestbyname(stub_family_refs[f].evp); }

#if defined(CHECKASM_TRAMPOLINE)
/* double_keccak against two calls of the same variant's single-state stub (a zero block absorbed:
   one permutation each) and two of the C reference's permutation: ns per pair of permutations,
   the best of five trials of 20000 pairs, interleaved. */
static int bench_double_keccak(const char *only)
{
    enum { PAIRS = 20000, TRIALS = 5 };
    if (only && strcmp(only, stub_family_descs[STUB_FAMILY_SHA3].display) != 0)
        return 0;
    printf("\n%-54s %10s %10s %9s %10s %9s\n", "double_keccak (two states)", "ns/pair", "2 x single", "vs single",
           "2 x C ref", "vs C ref");
    static const uint8_t zero[168];
    for (size_t i = 0; i < ntargets; i++) {
        const target *t = &targets[i];
        if (t->arch->arch != cpu_host_arch() || t->id != STUB_ID_double_keccak)
            continue;
        if (host_lacks(t)) {
            printf("%-54s skipped: needs %s\n", t->name, host_lacks(t));
            continue;
        }
        const target *single = NULL;
        for (size_t k = 0; k < ntargets && !single; k++)
            if (targets[k].id == STUB_ID_sha3_implCompress && targets[k].arch == t->arch &&
                strcmp(targets[k].name, t->name) != 0 && strcmp(targets[k].v.name, t->v.name) == 0 &&
                targets[k].v.design == t->v.design)
                single = &targets[k];
        if (!single)
            continue;
        runnable rd, rs;
        make_runnable(t, &rd);
        make_runnable(single, &rs);
        _Alignas(64) uint64_t s0[25] = {1}, s1[25] = {2};
        double best_d = 1e30, best_s = 1e30, best_r = 1e30;
        int32_t (*dk)(int64_t *, int64_t *) = (int32_t(*)(int64_t *, int64_t *))rd.entry;
        void (*sk)(const uint8_t *, int64_t *, int32_t) = (void (*)(const uint8_t *, int64_t *, int32_t))rs.entry;
        for (int trial = 0; trial < TRIALS; trial++) {
            double t0 = now_ns();
            for (int k = 0; k < PAIRS; k++)
                dk((int64_t *)s0, (int64_t *)s1);
            double t1 = now_ns();
            for (int k = 0; k < PAIRS; k++) {
                sk(zero, (int64_t *)s0, 168);
                sk(zero, (int64_t *)s1, 168);
            }
            double t2 = now_ns();
            for (int k = 0; k < PAIRS; k++) {
                sha3_ref_keccak(s0);
                sha3_ref_keccak(s1);
            }
            double t3 = now_ns();
            best_d = t1 - t0 < best_d ? t1 - t0 : best_d;
            best_s = t2 - t1 < best_s ? t2 - t1 : best_s;
            best_r = t3 - t2 < best_r ? t3 - t2 : best_r;
        }
        double d = best_d / PAIRS, s = best_s / PAIRS, r = best_r / PAIRS;
        printf("%-54s %10.1f %10.1f %8.2fx %10.1f %8.2fx\n", t->name, d, s, s / d, r, r / d);
        codecache_release(&rd.cc);
        codecache_release(&rs.cc);
    }
    return 0;
}
#endif

static int bench(const char *only)
{
#if defined(CHECKASM_TRAMPOLINE)
    enum { BYTES = 16384, REPS = 100, TRIALS = 5 };
    static uint8_t in[BYTES + 168];
    for (size_t i = 0; i < sizeof in; i++)
        in[i] = (uint8_t)rnd();
    printf("%-54s %10s %10s %9s %10s %10s\n", "multi-block stub (16 KiB calls)", "ns/block", "C ref", "vs C ref",
           "OpenSSL", "vs OpenSSL");
    for (size_t i = 0; i < ntargets; i++) {
        const target *t = &targets[i];
        const stub_family f = t->v.family;
        if (t->arch->arch != cpu_host_arch() || !is_multi_block(t->id) ||
            (only && strcmp(only, stub_family_descs[f].display) != 0))
            continue;
        if (host_lacks(t)) {
            printf("%-54s skipped: needs %s\n", t->name, host_lacks(t));
            continue;
        }
        int sizes[32];
        block_sizes(f, sizes);
        /* SHA-3: SHA3-256's rate; the others their one size */
        const int bs = takes_block_size(f) ? 136 : sizes[0], blocks = BYTES / bs, limit = (blocks - 1) * bs;
        runnable r;
        make_runnable(t, &r);
        state_words st = {0};
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        if (!ctx || EVP_DigestInit_ex(ctx, openssl_md(f), NULL) != 1) {
            fprintf(stderr, "bench: OpenSSL has no %s\n", stub_family_descs[f].display);
            return 1;
        }
        double best_stub = 1e30, best_ref = 1e30, best_ossl = 1e30;
        for (int trial = 0; trial < TRIALS; trial++) {
            double t0 = now_ns();
            for (int rep = 0; rep < REPS; rep++) {
                if (takes_block_size(f))
                    ((int32_t(*)(const uint8_t *, void *, int32_t, int32_t, int32_t))r.entry)(in, st.bytes, bs, 0, limit);
                else
                    ((int32_t(*)(const uint8_t *, void *, int32_t, int32_t))r.entry)(in, st.bytes, 0, limit);
            }
            double t1 = now_ns();
            for (int rep = 0; rep < REPS; rep++)
                ref_compress(f, &st, in, bs, 0, limit, true);
            double t2 = now_ns();
            for (int rep = 0; rep < REPS; rep++)
                EVP_DigestUpdate(ctx, in, (size_t)blocks * (size_t)bs);
            double t3 = now_ns();
            best_stub = t1 - t0 < best_stub ? t1 - t0 : best_stub;
            best_ref = t2 - t1 < best_ref ? t2 - t1 : best_ref;
            best_ossl = t3 - t2 < best_ossl ? t3 - t2 : best_ossl;
        }
        EVP_MD_CTX_free(ctx);
        double stub_ns = best_stub / (REPS * blocks), ref_ns = best_ref / (REPS * blocks);
        double ossl_ns = best_ossl / (REPS * blocks);
        printf("%-54s %10.1f %10.1f %8.2fx %10.1f %9.2fx   (%d-byte blocks, %.2f ns/byte)\n", t->name, stub_ns,
               ref_ns, ref_ns / stub_ns, ossl_ns, ossl_ns / stub_ns, bs, stub_ns / bs);
        codecache_release(&r.cc);
    }
    return bench_double_keccak(only);
#else
    (void)only;
    fprintf(stderr, "test_checkasm --bench: no trampoline for this host's architecture\n");
    return 1;
#endif
}

/* The C reference's one-shot MD5 (digest_native's C-ref baseline) against OpenSSL, every length to
   300 and two multi-block ones: its padding is its own, so it is checked too */
/* The family's C reference digest against OpenSSL's, on lengths 0..300, 1000 and 5000 (the digests
   the rows name: stubs/family_refs.c) */
static void ref_digest_matches_openssl(void **state)
{
    const stub_family f = (stub_family)(intptr_t)*state;
    const stub_family_ref *ref = &stub_family_refs[f];
    static uint8_t data[5000];
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)rnd();
    for (size_t len = 0; len <= sizeof data; len = len < 300 ? len + 1 : len == 300 ? 1000 : sizeof data) {
        uint8_t want[EVP_MAX_MD_SIZE], got[64];
        unsigned int n = 0;
        if (!openssl_md(f) || !EVP_Digest(data, len, want, &n, openssl_md(f), NULL))
            fail_msg("OpenSSL's %s failed", ref->evp);
        size_t m = ref->digest(data, len, got);
        if (m != n || memcmp(want, got, n) != 0)
            fail_msg("the C reference's %s of %zu bytes differs from OpenSSL's", ref->evp, len);
        if (len == sizeof data)
            break;
    }
}

/* ---- main --------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    flags_init(flags_host_arch()); /* the generators read a few flags (PreserveFramePointer) */
    host_known = cpu_detect_host(&host_cpu);
    collect_targets();
    if (argc > 1 && strcmp(argv[1], "--bench") == 0)
        return bench(argc > 2 ? argv[2] : NULL);
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (size_t i = 0; i < ntargets; i++)
            printf("%s%s\n", targets[i].name,
                   targets[i].arch->arch != cpu_host_arch() ? " (generation only)"
                   : host_lacks(&targets[i])              ? " (the host lacks it)"
                                                          : "");
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: test_checkasm [--bench [FAMILY] | --list]\n");
        return 2;
    }
    int failed = 0;
    for (int f = 0; f < STUB_FAMILY_COUNT; f++) {
        static struct CMUnitTest tests[2 + MAX_TARGETS];
        size_t n = 0;
        tests[n++] = (struct CMUnitTest){"generates on every architecture", generates_everywhere, NULL, NULL,
                                         (void *)(intptr_t)f};
        tests[n++] = (struct CMUnitTest){"the C reference's digest is OpenSSL's", ref_digest_matches_openssl, NULL,
                                         NULL, (void *)(intptr_t)f};
        for (size_t i = 0; i < ntargets; i++)
            if (targets[i].v.family == (stub_family)f && targets[i].arch->arch == cpu_host_arch())
                tests[n++] = (struct CMUnitTest){targets[i].name, runs_as_reference, NULL, NULL, &targets[i]};
        char group[64];
        snprintf(group, sizeof group, "checkasm %s", stub_family_descs[f].display);
        failed += _cmocka_run_group_tests(group, tests, n, NULL, NULL);
    }
    return failed;
}
