/*
 * stubs/stubroutines.c — the stub table (stubroutines.h) and its start-up:
 * the VM's code cache, generation of the stubs the final flag values ask
 * for, -XX:+PrintStubCode, the crash handler.
 *
 * The one place that decides which stubs exist (dav1d's "one place
 * decides"): today AArch64's two SHA-3 stubs, in the variant
 * UseSIMDForSHA3Intrinsic selects, and only in a variant the host itself can
 * execute. A new stub is one more stub_spec line.
 */
#include "stubroutines.h"

#include "cpu.h"
#include "crash_handler.h"
#include "flags.h"
#include "stubgenerator_aarch64.h"

/* The stub table and its code cache: written once by stubs_generate, then only read
   (fallback_noted: the one warning of stubs_note_fallback has been printed). */
static struct {
    codecache cache;
    stub_routines table;
    bool fallback_noted;
} stubs;

const stub_routines *stub_routines_table(void) { return &stubs.table; }
const codecache *stubs_code_cache(void) { return &stubs.cache; }

/* The SHA-3 stubs, in generation (and PrintStubCode) order. */
static const struct stub_spec {
    const char *name;
    bool multi_block;
} sha3_stubs[] = {
    {"sha3_implCompress", false},
    {"sha3_implCompressMB", true},
};
#define NSHA3 (sizeof sha3_stubs / sizeof sha3_stubs[0])

/* Generate one stub at the cache's next position; its mark, or NULL with why in err. */
static const stub_mark *generate_sha3(codecache *cc, const struct stub_spec *spec, const a64_sha3_config *cfg,
                                      const char *variant, char *err, size_t errlen)
{
    size_t room;
    uint32_t *code = codecache_begin_stub(cc, &room);
    if (!code) {
        snprintf(err, errlen, "%s (%s): the code cache is full", spec->name, variant);
        return NULL;
    }
    a64_asm as;
    a64_asm_init(&as, code, room / sizeof(uint32_t));
    /* A refusal is reported as a warning, not an abort(), even in debug
       builds: a failed generator must leave the VM running interpreted. */
    as.fatal = false;
    size_t entry = a64_generate_sha3_implCompress(&as, cfg);
    if (a64_asm_failed(&as)) {
        snprintf(err, errlen, "%s (%s): %s", spec->name, variant, as.errmsg);
        return NULL;
    }
    const stub_mark *m =
        codecache_end_stub(cc, spec->name, variant, entry * sizeof(uint32_t), a64_asm_pc(&as) * sizeof(uint32_t));
    if (!m)
        snprintf(err, errlen, "%s (%s): cannot record the stub", spec->name, variant);
    return m;
}

/*
 * The variant that runs: the one the flags ask for, if the host executes
 * every instruction it uses. The flags may describe another CPU of the same
 * architecture (-XX:EmulateCPU, -XX:CPUInfoFile: ergonomics follow it), but
 * the words run here, so a feature the host lacks means the next best variant
 * (GPR needs nothing beyond the base ISA), never SIGILL.
 */
static bool sha3_variant_for_host(bool simd, const cpu_info *host, const char **missing_feature)
{
    uint64_t missing = host ? a64_sha3_variant_features(simd) & ~host->features : 0;
    *missing_feature = NULL;
    if (!missing)
        return simd;
    int f = 0;
    while (!(missing >> f & 1))
        f++;
    *missing_feature = cpu_feature_name(CPU_ARCH_AARCH64, f);
    return false;
}

void stubs_note_fallback(void)
{
    if (!stubs.table.sha3_missing_feature || stubs.fallback_noted)
        return;
    stubs.fallback_noted = true;
    vm_warning("The SIMD SHA-3 stub needs %s, which this host's CPU does not have: the GPR stub runs instead "
               "(UseSIMDForSHA3Intrinsic follows the emulated CPU).", stubs.table.sha3_missing_feature);
}

bool stubs_generate_into(codecache *cc, size_t capacity, stub_routines *table, const cpu_info *host)
{
    char err[256];
    const stub_mark *marks[NSHA3];
    const bool executable = host != NULL;
    const char *missing_feature;
    a64_sha3_config cfg = {
        .simd = sha3_variant_for_host(FLAG(UseSIMDForSHA3Intrinsic), host, &missing_feature),
        .preserve_fp = FLAG(PreserveFramePointer),
        .r18_reserved = a64_platform_reserves_r18(),
    };
    const char *variant = cfg.simd ? "simd" : "gpr";

    if (!codecache_init(cc, capacity, err, sizeof err))
        goto failed;
    for (size_t i = 0; i < NSHA3; i++) {
        cfg.multi_block = sha3_stubs[i].multi_block;
        marks[i] = generate_sha3(cc, &sha3_stubs[i], &cfg, variant, err, sizeof err);
        if (!marks[i])
            goto failed;
    }
    if (!codecache_seal(cc, executable, err, sizeof err))
        goto failed;
    if (executable) {
        /* ISO C has no object-to-function pointer conversion; POSIX (dlsym) guarantees it works. */
        table->sha3_implCompress = (stub_sha3_entry){
            .fn = (stub_sha3_compress_fn)(uintptr_t)marks[0]->entry, .name = marks[0]->name, .variant = variant};
        table->sha3_implCompressMB = (stub_sha3_mb_entry){
            .fn = (stub_sha3_compress_mb_fn)(uintptr_t)marks[1]->entry, .name = marks[1]->name, .variant = variant};
        table->sha3_missing_feature = missing_feature;
    }
    return true;

failed:
    codecache_release(cc);
    /*
     * One warning, then interpreted: the flag ends false so that
     * -XX:+PrintFlagsFinal stays honest (a true intrinsic flag means its stub
     * runs), in the same way as ergonomics treat an unavailable stub.
     */
    vm_warning("Cannot generate the SHA-3 stubs: %s. SHA-3 runs interpreted (UseSHA3Intrinsics is off).", err);
    FLAG_SET_DEFAULT(UseSHA3Intrinsics, false);
    return false;
}

void stubs_generate(bool aarch64_target, const cpu_info *host)
{
    /* x86-64 has no stub generator yet; -Xint means no machine code at all */
    if (!aarch64_target || !FLAG(UseCompiler) || !FLAG(UseSHA3Intrinsics))
        return;
    if (!stubs_generate_into(&stubs.cache, STUBS_CODE_CACHE_CAPACITY, &stubs.table, host))
        return;
    if (FLAG(PrintStubCode)) {
        stubs_note_fallback(); /* the listing shows another variant than the flags name: say why first */
        codecache_print(&stubs.cache, stdout);
    }
    /* without the handler (sigaction failed) a crash in a stub is a plain signal death */
    if (host)
        (void)stub_crash_handler_install(&stubs.cache);
}
