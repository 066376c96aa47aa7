/*
 * stubs/x86_64/ergonomics_x86_64.c — x86-64 SHA ergonomics: HotSpot 17's
 * rules from cpu/x86/vm_version_x86.cpp, which this machine's HotSpot 17
 * reproduces (UseSHA, SHA1, SHA256, SHA512 true on a CPU with SHA-NI, AVX2
 * and BMI2; UseSHA3Intrinsics refused with the "not available" warning).
 *
 * minivm's x86-64 policy (docs/flags.md): SHA-1 from SHA-NI, SHA-256 from
 * SHA-NI or AVX2+BMI2, SHA-512 from AVX2+BMI2, exactly as HotSpot; SHA-3:
 * no x86-64 stub exists, so UseSHA3Intrinsics always ends false, with
 * HotSpot's warning when asked for.
 */
#include "cpu_x86_64.h"
#include "ergonomics_x86_64.h"
#include "flags.h"

void x64_sha_ergonomics(const cpu_info *cpu)
{
    bool sha = cpu_has(cpu, X64_CPU_SHA), avx2 = cpu_has(cpu, X64_CPU_AVX2);
    bool bmi1 = cpu_has(cpu, X64_CPU_BMI1), bmi2 = cpu_has(cpu, X64_CPU_BMI2);
    bool avx512 = cpu_has(cpu, X64_CPU_AVX512F);

    /* the x86 defaults HotSpot prints on such a CPU */
    if (FLAG_IS_DEFAULT(UseAVX))
        FLAG_SET_DEFAULT(UseAVX, avx512 ? 3 : avx2 ? 2 : 1);
    if (FLAG_IS_DEFAULT(UseBMI1Instructions))
        FLAG_SET_DEFAULT(UseBMI1Instructions, bmi1);
    if (FLAG_IS_DEFAULT(UseBMI2Instructions))
        FLAG_SET_DEFAULT(UseBMI2Instructions, bmi2);
    if (FLAG_IS_DEFAULT(UseFPUForSpilling))
        FLAG_SET_DEFAULT(UseFPUForSpilling, true);

    if (sha || (avx2 && bmi2)) {
        if (FLAG_IS_DEFAULT(UseSHA))
            FLAG_SET_DEFAULT(UseSHA, true);
    } else if (FLAG(UseSHA)) {
        vm_warning("SHA instructions are not available on this CPU");
        FLAG_SET_DEFAULT(UseSHA, false);
    }

    if (FLAG(UseSHA) && sha) {
        if (FLAG_IS_DEFAULT(UseSHA1Intrinsics))
            FLAG_SET_DEFAULT(UseSHA1Intrinsics, true);
    } else if (FLAG(UseSHA1Intrinsics)) {
        vm_warning("Intrinsics for SHA-1 crypto hash functions not available on this CPU.");
        FLAG_SET_DEFAULT(UseSHA1Intrinsics, false);
    }

    if (FLAG(UseSHA) && (sha || (avx2 && bmi2))) {
        if (FLAG_IS_DEFAULT(UseSHA256Intrinsics))
            FLAG_SET_DEFAULT(UseSHA256Intrinsics, true);
    } else if (FLAG(UseSHA256Intrinsics)) {
        vm_warning("Intrinsics for SHA-224 and SHA-256 crypto hash functions not available on this CPU.");
        FLAG_SET_DEFAULT(UseSHA256Intrinsics, false);
    }

    if (FLAG(UseSHA) && avx2 && bmi2) {
        if (FLAG_IS_DEFAULT(UseSHA512Intrinsics))
            FLAG_SET_DEFAULT(UseSHA512Intrinsics, true);
    } else if (FLAG(UseSHA512Intrinsics)) {
        vm_warning("Intrinsics for SHA-384 and SHA-512 crypto hash functions not available on this CPU.");
        FLAG_SET_DEFAULT(UseSHA512Intrinsics, false);
    }

    if (FLAG(UseSHA3Intrinsics)) {
        vm_warning("Intrinsics for SHA3-224, SHA3-256, SHA3-384 and SHA3-512 crypto hash functions not available "
                   "on this CPU.");
        FLAG_SET_DEFAULT(UseSHA3Intrinsics, false);
    }

    if (!(FLAG(UseSHA1Intrinsics) || FLAG(UseSHA256Intrinsics) || FLAG(UseSHA512Intrinsics)))
        FLAG_SET_DEFAULT(UseSHA, false);
}
