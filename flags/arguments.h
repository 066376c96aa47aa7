/*
 * flags/arguments.h — the launcher's command line: standard and -X options
 * in front of the program file, with HotSpot's messages for bad ones.
 *
 * flags/ depends on nothing else in minivm.
 */
#ifndef MINIVM_ARGUMENTS_H
#define MINIVM_ARGUMENTS_H

#include <stddef.h>
#include <stdio.h>

#define MVM_NAME    "minivm"
#define MVM_VERSION "0.1.0"

typedef enum arg_action {
    ARG_RUN,        /* run the program */
    ARG_EXIT_OK,    /* -version, -help: done, exit 0 */
    ARG_EXIT_ERROR  /* a bad option: message printed, exit 1 */
} arg_action;

typedef struct mvm_args {
    size_t heap_max;      /* -Xmx, bytes; 0 = default */
    size_t stack_size;    /* -Xss, bytes; 0 = default */
    int show_version;     /* -showversion */
    int xint;             /* -Xint */
    const char *program;  /* the .mva file */
    int prog_argc;        /* arguments after it */
    char **prog_argv;
} mvm_args;

/* Parse argv; prints usage, version or errors to out/err as HotSpot does. */
arg_action args_parse(int argc, char **argv, mvm_args *a, FILE *out, FILE *err);

/* Parse a HotSpot memory size: digits with an optional k/m/g/t suffix. */
int args_parse_size(const char *s, size_t *bytes);

void args_print_version(FILE *f);

#endif
