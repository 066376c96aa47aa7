/*
 * flags/arguments.h — the launcher's command line: standard options, -X
 * options and -XX flags in front of the program file, from every source
 * HotSpot reads them (a settings file, an environment variable, the command
 * line), with HotSpot's messages for bad ones.
 *
 * flags/ depends on nothing else in minivm.
 */
#ifndef MINIVM_ARGUMENTS_H
#define MINIVM_ARGUMENTS_H

#include <stddef.h>
#include <stdio.h>

#include "flags.h"

#define MVM_NAME    "minivm"
#ifndef MVM_VERSION
#error "MVM_VERSION comes from meson.build (the project's version)"
#endif

/* minivm's JAVA_TOOL_OPTIONS: options read before the command line ({environment}) */
#define MVM_TOOL_OPTIONS "MINIVM_TOOL_OPTIONS"

typedef enum arg_action {
    ARG_RUN,        /* go on: ergonomics, then PrintFlagsFinal, then help, version or the program
                       (-Xint is FLAG(UseCompiler) == false: no stubs at all) */
    ARG_EXIT_OK,    /* -XX:+PrintFlagsInitial: done, exit 0 */
    ARG_EXIT_ERROR  /* a bad option: message printed, exit 1 */
} arg_action;

/* The execution mode, the last of -Xint, -Xmixed, -Xcomp (HotSpot's Arguments::Mode) */
typedef enum args_mode { ARGS_MODE_MIXED, ARGS_MODE_INT, ARGS_MODE_COMP } args_mode;

typedef struct mvm_args {
    int help;             /* -help, -h, -?: 1 (usage to stderr); --help: 2 (to stdout) */
    int version;          /* -version: 1 (to stderr); --version: 2 (to stdout) */
    int show_version;     /* -showversion: 1; --show-version: 2 */
    const char *program;  /* the .mva file, or NULL */
    int prog_argc;        /* arguments after it */
    char **prog_argv;
    args_mode mode;
} mvm_args;

/*
 * The architecture whose flags exist, given the values of -XX:EmulateCPU and
 * -XX:CPUInfoFile (NULL when not given). The launcher passes the stubs/
 * function that knows the CPU catalog; NULL means the host's.
 */
typedef flag_arch (*args_arch_fn)(const char *emulate_cpu, const char *cpuinfo_file);

/*
 * A string flag whose values a layer above flags/ gives meaning to (stubs/: the SHA-3 policy, the
 * stubs' designs), read from that layer's own tables: once every option is in, a value it does not
 * have is refused as "Unsupported <what> '<value>', available <plural> are: <value>, <value>".
 */
typedef struct args_text_flag {
    int flag;                       /* flag_id */
    const char *what;               /* "SHA-3 AVX-512 design" */
    const char *plural;             /* "designs" */
    const char *(*value)(size_t i); /* its i-th value, in the order the message lists them; NULL past the last */
} args_text_flag;

/* The text flags of arch's table (*n of them); NULL: none. */
typedef const args_text_flag *(*args_text_flags_fn)(flag_arch arch, size_t *n);

/*
 * Read every option, HotSpot's way and order:
 *   1. MINIVM_TOOL_OPTIONS ("Picked up MINIVM_TOOL_OPTIONS: ..." on err);
 *   2. a pre-scan of it and of the command line, judging nothing:
 *      -XX:Flags=, -XX:(+|-)IgnoreUnrecognizedVMOptions, -XX:+PrintFlagsInitial,
 *      and (minivm) -XX:EmulateCPU= / -XX:CPUInfoFile=, also from the settings
 *      file; target_arch picks the architecture, flags_init(arch);
 *   3. -XX:+PrintFlagsInitial: print the declared defaults to out, ARG_EXIT_OK;
 *   4. the settings file ({config file}), the environment ({environment}),
 *      then the command line ({command line}) left to right; the first bad
 *      option ends it (in a settings file, every token is tried first).
 * The command-line options end at the program file or at a help option.
 */
arg_action args_parse(int argc, char **argv, mvm_args *a, args_arch_fn target_arch, args_text_flags_fn text_flags,
                      FILE *out, FILE *err);

void args_print_version(FILE *f, bool compiler);
void args_print_usage(FILE *f);

/* "Error: Could not create the minivm." and the line after it: a VM that cannot start */
void args_print_fatal_tail(FILE *f);

#endif
