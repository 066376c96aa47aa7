/*
 * tests/cpu_tool.c — print a CPU the way minivm sees it (cpu/cpu.h), for
 * manual checks and tests/check_cpu_hotspot.sh:
 *
 *   cpu_tool                     the host's CPU
 *   cpu_tool --emulate NAME      a catalog entry
 *   cpu_tool --cpuinfo PATH      a /proc/cpuinfo text
 *   cpu_tool --catalog           the catalog's names
 *   cpu_tool --features ARCH     the feature names of aarch64 or x86_64, HotSpot's spelling
 */
#include <stdio.h>
#include <string.h>

#include "cpu.h"

int main(int argc, char **argv)
{
    cpu_info ci;
    char err[2048];
    if (argc == 1) {
        if (!cpu_detect_host(&ci))
            fprintf(stderr, "cpu_tool: minivm has no CPU support for this host\n");
    } else if (argc == 3 && strcmp(argv[1], "--emulate") == 0) {
        if (!cpu_emulate(argv[2], &ci, err, sizeof err)) {
            fprintf(stderr, "cpu_tool: %s\n", err);
            return 1;
        }
    } else if (argc == 3 && strcmp(argv[1], "--cpuinfo") == 0) {
        if (!cpu_from_cpuinfo_file(argv[2], &ci, err, sizeof err)) {
            fprintf(stderr, "cpu_tool: %s\n", err);
            return 1;
        }
    } else if (argc == 2 && strcmp(argv[1], "--catalog") == 0) {
        for (size_t i = 0; i < cpu_catalog_count(); i++)
            printf("%s\n", cpu_catalog_name(i));
        return 0;
    } else if (argc == 3 && strcmp(argv[1], "--features") == 0) {
        cpu_arch arch = strcmp(argv[2], "aarch64") == 0 ? CPU_ARCH_AARCH64
                      : strcmp(argv[2], "x86_64") == 0  ? CPU_ARCH_X86_64 : CPU_ARCH_UNKNOWN;
        for (int f = 0; f < cpu_feature_count(arch); f++)
            printf("%s\n", cpu_feature_name(arch, f));
        return arch == CPU_ARCH_UNKNOWN;
    } else {
        fprintf(stderr, "usage: cpu_tool [--emulate NAME | --cpuinfo PATH | --catalog | --features ARCH]\n");
        return 2;
    }
    cpu_print(&ci, stdout);
    return 0;
}
