/*
 * flags/arguments.c — launcher option parsing (see arguments.h).
 *
 * The messages are HotSpot's, with "Java Virtual Machine" replaced by
 * "minivm". -XX: options are handled by the flag table (a later layer);
 * until then every -XX: option is unrecognised, as HotSpot says it.
 */
#include "arguments.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void fatal_tail(FILE *err)
{
    fputs("Error: Could not create the " MVM_NAME ".\n"
          "Error: A fatal exception has occurred. Program will exit.\n",
          err);
}

void args_print_version(FILE *f)
{
    fputs(MVM_NAME " version \"" MVM_VERSION "\"\n"
          MVM_NAME " Runtime Environment (build " MVM_VERSION ")\n"
          MVM_NAME " 64-Bit VM (build " MVM_VERSION ", interpreted mode)\n",
          f);
}

static void usage(FILE *f)
{
    fputs("Usage: " MVM_NAME " [options] <program.mva> [args...]\n"
          "           (to run a program: its module's main method)\n"
          "\n"
          " Arguments following the program file are passed to it (Sys.argc, Sys.arg).\n"
          "\n"
          " where options include:\n"
          "    -version      print product version to the error stream and exit\n"
          "    -showversion  print product version to the error stream and continue\n"
          "    -Xmx<size>    set maximum heap size (e.g. -Xmx64m; suffixes k, m, g, t)\n"
          "    -Xss<size>    set the interpreter stack size (register stack; default 1m)\n"
          "    -Xint         interpreted mode only (no intrinsic stubs)\n"
          "    -? -h -help   print this help message to the error stream\n"
          "    --help        print this help message to the output stream\n"
          "\n"
          "See docs/cli.md for the full reference.\n",
          f);
}

int args_parse_size(const char *s, size_t *bytes)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    unsigned shift = 0;
    switch (*end) {
    case '\0': break;
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    case 't': case 'T': shift = 40; end++; break;
    default: return -1;
    }
    if (*end != '\0')
        return -1;
    if (shift && v > (SIZE_MAX >> shift))
        return -1;
    *bytes = (size_t)v << shift;
    return 0;
}

arg_action args_parse(int argc, char **argv, mvm_args *a, FILE *out, FILE *err)
{
    memset(a, 0, sizeof *a);
    FILE *print_version = NULL; /* -version: after every option was checked */
    int i;
    for (i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (s[0] != '-')
            break;
        if (strcmp(s, "-version") == 0 || strcmp(s, "--version") == 0) {
            print_version = strcmp(s, "-version") == 0 ? err : out;
        } else if (strcmp(s, "-showversion") == 0 || strcmp(s, "--show-version") == 0) {
            a->show_version = strcmp(s, "-showversion") == 0 ? 1 : 2; /* --show-version: to out */
        } else if (strcmp(s, "-help") == 0 || strcmp(s, "-?") == 0 || strcmp(s, "-h") == 0 ||
                   strcmp(s, "--help") == 0) {
            /* as the java launcher: --help to the output stream, the others to the error stream */
            usage(strcmp(s, "--help") == 0 ? out : err);
            return ARG_EXIT_OK;
        } else if (strcmp(s, "-Xint") == 0) {
            a->xint = 1;
        } else if (strncmp(s, "-Xmx", 4) == 0) {
            if (args_parse_size(s + 4, &a->heap_max) != 0 || a->heap_max == 0) {
                fprintf(err, "Invalid maximum heap size: %s\n", s);
                fatal_tail(err);
                return ARG_EXIT_ERROR;
            }
            if (a->heap_max < 64 * 1024) {
                fputs("Error occurred during initialization of VM\nToo small maximum heap\n", err);
                return ARG_EXIT_ERROR;
            }
        } else if (strncmp(s, "-Xss", 4) == 0) {
            if (args_parse_size(s + 4, &a->stack_size) != 0) {
                fprintf(err, "Invalid thread stack size: %s\n", s);
                fatal_tail(err);
                return ARG_EXIT_ERROR;
            }
            if (a->stack_size != 0 && a->stack_size < 4096) { /* -Xss0: the default, as in HotSpot */
                fprintf(err, "The Java thread stack size specified is too small. Specify at least 4k\n");
                fatal_tail(err);
                return ARG_EXIT_ERROR;
            }
        } else if (strncmp(s, "-XX:", 4) == 0) {
            /* HotSpot names the option without its +/- */
            const char *name = s + 4;
            if (*name == '+' || *name == '-')
                name++;
            fprintf(err, "Unrecognized VM option '%s'\n", name);
            fatal_tail(err);
            return ARG_EXIT_ERROR;
        } else {
            fprintf(err, "Unrecognized option: %s\n", s);
            fatal_tail(err);
            return ARG_EXIT_ERROR;
        }
    }
    if (print_version) {
        args_print_version(print_version);
        return ARG_EXIT_OK;
    }
    if (i >= argc) {
        usage(err);
        return ARG_EXIT_ERROR;
    }
    if (a->show_version)
        args_print_version(a->show_version == 2 ? out : err);
    a->program = argv[i];
    a->prog_argc = argc - i - 1;
    a->prog_argv = argv + i + 1;
    return ARG_RUN;
}
