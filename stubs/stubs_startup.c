/*
 * stubs/stubs_startup.c — the launcher's calls into stubs/ while the VM
 * starts (see stubs_startup.h): the target architecture, CPU selection
 * (detected, -XX:EmulateCPU, -XX:CPUInfoFile), -XX:+PrintCPUFeatures, the
 * per-architecture ergonomics (stubs/<arch>/ergonomics_<arch>.c), and then
 * the stubs the final flags ask for (stubroutines.c).
 */
#include "stubs_startup.h"

#include <string.h>

#include "cpu.h"
#include "sha3_select.h"
#include "stub_arch.h"
#include "stubroutines.h"

/* Part of the stub table's start-up state: written once, before any program runs. */
static struct {
    cpu_info cpu;
    bool what_if; /* the selected CPU's architecture is not the host's */
} stub_cpu;

flag_arch stubs_target_arch(const char *emulate_cpu, const char *cpuinfo_file)
{
    cpu_info info;
    char err[256];
    bool known = emulate_cpu   ? cpu_emulate(emulate_cpu, &info, err, sizeof err)
                 : cpuinfo_file ? cpu_from_cpuinfo_file(cpuinfo_file, &info, err, sizeof err)
                               : false;
    /* an unknown CPU or an unreadable file: the host's flags; CPU selection reports the error */
    if (!known)
        return flags_host_arch();
    const stub_arch_ops *ops = stub_arch_ops_for(info.arch);
    return ops ? (flag_arch)ops->flag_arch : flags_host_arch();
}

const args_text_flag *stubs_text_flags(flag_arch arch, size_t *n)
{
    for (int a = CPU_ARCH_UNKNOWN + 1; a <= cpu_arch_count(); a++) {
        const stub_arch_ops *ops = stub_arch_ops_for((cpu_arch)a);
        if (ops && ops->flag_arch == (int)arch) {
            *n = ops->ntext_flags;
            return ops->text_flags;
        }
    }
    *n = 0;
    return NULL;
}

int stubs_select_cpu_and_ergonomics(FILE *err)
{
    cpu_info *cpu = &stub_cpu.cpu;
    char msg[1024] = "";
    bool ok;
    /* flags/arguments.c refused EmulateCPU and CPUInfoFile together: at most one is set */
    if (FLAG(EmulateCPU))
        ok = cpu_emulate(FLAG(EmulateCPU), cpu, msg, sizeof msg);
    else if (FLAG(CPUInfoFile))
        ok = cpu_from_cpuinfo_file(FLAG(CPUInfoFile), cpu, msg, sizeof msg);
    else
        ok = cpu_detect_host(cpu);
    if (!ok && (FLAG(EmulateCPU) || FLAG(CPUInfoFile))) {
        fprintf(err, "Error occurred during initialization of VM\n%s\n", msg);
        return -1;
    }
    if (!ok)
        return 0; /* a host architecture minivm has no CPU support for: no ergonomics, no stubs */
    stub_cpu.what_if = cpu->arch != cpu_host_arch();
    if (FLAG(PrintCPUFeatures))
        cpu_print(cpu, stdout);
    const stub_arch_ops *arch = stub_arch_ops_for(cpu->arch);
    arch->ergonomics(cpu);
    /*
     * An intrinsic flag that ends true means its stub runs. In what-if mode the
     * flags show the emulated CPU's choice (that is the point of the mode) and
     * stubs_note_program_start says no stub runs; otherwise a flag whose stub
     * this build lacks ends false: with HotSpot's warning when the user set
     * it, silently when the ergonomics did (as HotSpot's own rules do for a
     * CPU without the feature; docs/flags.md lists where minivm has no stub
     * that HotSpot has).
     */
    for (int f = 0; f < STUB_FAMILY_COUNT && !stub_cpu.what_if; f++) {
        if (stub_family_flag((stub_family)f) && !stub_choose(arch, (stub_family)f, NULL).variant) {
            if (!flag_is_default((flag_id)stub_family_descs[f].flag))
                vm_warning("%s", stub_family_descs[f].unavailable);
            stub_family_flag_off((stub_family)f);
        }
    }
    /*
     * The flags are final: the stubs they ask for (stubroutines.c), for the
     * host. An emulated CPU of the host's architecture still runs its stubs
     * here, so they are checked against the host's own features.
     */
    cpu_info host_cpu;
    const cpu_info *host = NULL;
    if (!stub_cpu.what_if)
        host = cpu->origin == CPU_DETECTED ? cpu : cpu_detect_host(&host_cpu) ? &host_cpu : NULL;
    /* -XX:SHA3IntrinsicPolicy=measure: the static policy has chosen; time what the host runs */
    const char *policy = FLAG(SHA3IntrinsicPolicy) ? FLAG(SHA3IntrinsicPolicy) : "";
    if (host && FLAG(UseCompiler) && FLAG(UseSHA3Intrinsics) && strcmp(policy, STUB_POLICY_MEASURE) == 0)
        /* the table also goes with PrintFlagsFinal: the {ergonomic} values it explains */
        sha3_select_measure(arch, cpu, host, stub_choose(arch, STUB_FAMILY_SHA3, host).variant,
                            FLAG(PrintSHA3Selection) || FLAG(PrintFlagsFinal) ? stdout : NULL);
    else if (FLAG(PrintSHA3Selection))
        /* asked for the table, but nothing is measured: say why */
        printf("SHA-3 stub selection: nothing measured: %s\n",
               strcmp(policy, STUB_POLICY_MEASURE) != 0 ? "SHA3IntrinsicPolicy is not measure (-XX:SHA3IntrinsicPolicy=measure "
                                                "times the variants at start-up)"
               : !FLAG(UseCompiler)            ? "the stubs are off (-Xint: UseCompiler is false)"
               : !FLAG(UseSHA3Intrinsics)      ? "UseSHA3Intrinsics is false"
                                               : "the CPU the flags describe is not this host's architecture");
    if (FLAG(PrintStubVariants)) {
        /* what the host runs, whatever CPU the flags follow */
        const stub_arch_ops *host_arch = stub_arch_ops_for(cpu_host_arch());
        if (host_arch)
            stubs_print_variants(host_arch, host ? host : cpu_detect_host(&host_cpu) ? &host_cpu : NULL, stdout);
    }
    stubs_generate(arch, host);
    return 0;
}

void stubs_note_program_start(void)
{
    stubs_note_fallback();
    bool any = false;
    for (int f = 0; f < STUB_FAMILY_COUNT; f++)
        any |= stub_family_flag((stub_family)f);
    if (!stub_cpu.what_if || !any)
        return;
    vm_warning("%s is emulated on an %s host: no %s stub runs here, intrinsic candidates run their bytecode",
               stub_cpu.cpu.origin_name[0] ? stub_cpu.cpu.origin_name : "the CPU",
               cpu_arch_name(cpu_host_arch()), cpu_arch_name(stub_cpu.cpu.arch));
}
