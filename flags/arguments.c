/*
 * flags/arguments.c — the launcher's start-up sequence (see arguments.h).
 *
 * HotSpot models: runtime/arguments.cpp (parse, match_special_option_and_act,
 * parse_options_environment_variable, parse_each_vm_init_arg, parse_xss) and
 * the java launcher (java.c). The messages are HotSpot's, with "Java Virtual
 * Machine" replaced by "minivm" in the closing lines.
 */
#include "arguments.h"
#include "textfile.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void args_print_fatal_tail(FILE *err)
{
    fputs("Error: Could not create the " MVM_NAME ".\n"
          "Error: A fatal exception has occurred. Program will exit.\n",
          err);
}

void args_print_version(FILE *f, bool compiler)
{
    /* HotSpot's VM_Version::vm_info_string: the mode the flags give, on a VM that can compile */
    const char *mode = !compiler || !FLAG(UseCompiler) ? "interpreted mode"
                       : !FLAG(UseInterpreter)         ? "compiled mode"
                                                       : "mixed mode";
    fprintf(f,
            MVM_NAME " version \"" MVM_VERSION "\"\n" MVM_NAME " Runtime Environment (build " MVM_VERSION ")\n"
            MVM_VM_NAME " (build " MVM_VERSION ", %s)\n",
            mode);
}

void args_print_usage(FILE *f)
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
          "    -Xint         interpreted mode only (no compiled code, no intrinsic stubs)\n"
          "    -Xmixed       mixed mode: interpreted, hot methods compiled (default)\n"
          "    -Xcomp        compile every method at its first call\n"
          "    -XX:+<flag> -XX:-<flag> -XX:<flag>=<value>\n"
          "                  set a VM flag (-XX:+PrintFlagsFinal lists them)\n"
          "    -XX:Flags=<file>\n"
          "                  read VM flags from a file before the command line\n"
          "    -? -h -help   print this help message to the error stream\n"
          "    --help        print this help message to the output stream\n"
          "\n"
          " " MVM_TOOL_OPTIONS " in the environment holds options read before the command line.\n"
          "See docs/cli.md and docs/flags.md for the full reference.\n",
          f);
}

/* ---- memory sizes ----------------------------------------------------------------------------- */

typedef enum size_check { SIZE_OK, SIZE_UNREADABLE, SIZE_TOO_SMALL, SIZE_TOO_BIG } size_check;

/* HotSpot's parse_memory_size */
static size_check parse_memory_size(const char *s, uint64_t *v, uint64_t min, uint64_t max)
{
    if (!flag_parse_julong(s, v))
        return SIZE_UNREADABLE;
    return *v < min ? SIZE_TOO_SMALL : *v > max ? SIZE_TOO_BIG : SIZE_OK;
}

static void describe_range_error(size_check c, FILE *err)
{
    if (c == SIZE_TOO_BIG)
        fputs("The specified size exceeds the maximum representable size.\n", err);
}

/* ---- one VM option (from the environment or the command line) ---------------------------------- */

static bool starts(const char *s, const char *prefix, const char **tail)
{
    size_t n = strlen(prefix);
    if (strncmp(s, prefix, n) != 0)
        return false;
    *tail = s + n;
    return true;
}

/*
 * HotSpot's parse_each_vm_init_arg for the options minivm has. -Xmx and -Xss
 * set MaxHeapSize and ThreadStackSize with origin {command line} whatever
 * their source, as HotSpot's FLAG_SET_CMDLINE does.
 */
/* HotSpot's Arguments::set_mode_flags: -Xint, -Xmixed and -Xcomp set values, never origins; each
   starts from the defaults, so the last one wins */
static void set_mode_flags(args_mode mode)
{
    FLAG_SET_DEFAULT(UseInterpreter, true);
    FLAG_SET_DEFAULT(UseCompiler, true);
    FLAG_SET_DEFAULT(ClipInlining, true);
    FLAG_SET_DEFAULT(UseOnStackReplacement, true);
    FLAG_SET_DEFAULT(BackgroundCompilation, true);
    switch (mode) {
    case ARGS_MODE_INT:
        /* UseCompiler false is also what the stubs read: no machine code at all */
        FLAG_SET_DEFAULT(UseCompiler, false);
        FLAG_SET_DEFAULT(UseOnStackReplacement, false);
        break;
    case ARGS_MODE_COMP:
        FLAG_SET_DEFAULT(UseInterpreter, false);
        FLAG_SET_DEFAULT(BackgroundCompilation, false);
        FLAG_SET_DEFAULT(ClipInlining, false);
        break;
    case ARGS_MODE_MIXED: break;
    }
}

static bool vm_option(const char *s, bool ignore, flag_origin origin, args_mode *mode, FILE *err)
{
    const char *tail;
    uint64_t v;
    if (starts(s, "-Xmx", &tail) || starts(s, "-XX:MaxHeapSize=", &tail)) {
        size_check c = parse_memory_size(tail, &v, 1, SIZE_MAX);
        if (c != SIZE_OK) {
            fprintf(err, "Invalid maximum heap size: %s\n", s);
            describe_range_error(c, err);
            return false;
        }
        FLAG_SET_CMDLINE(MaxHeapSize, (size_t)v);
    } else if (starts(s, "-Xss", &tail)) {
        /* bytes up to 1 GiB, kept in KiB as ThreadStackSize */
        size_check c = parse_memory_size(tail, &v, 0, (uint64_t)1 << 30);
        if (c != SIZE_OK) {
            fprintf(err, "Invalid thread stack size: %s\n", s);
            describe_range_error(c, err);
            return false;
        }
        FLAG_SET_CMDLINE(ThreadStackSize, (intx)((v + 1023) / 1024));
    } else if (strcmp(s, "-Xint") == 0 || strcmp(s, "-Xmixed") == 0 || strcmp(s, "-Xcomp") == 0) {
        *mode = s[2] == 'i' ? ARGS_MODE_INT : s[2] == 'm' ? ARGS_MODE_MIXED : ARGS_MODE_COMP;
        set_mode_flags(*mode);
    } else if (starts(s, "-XX:", &tail)) {
        if (starts(tail, "Flags=", &tail)) /* read before everything else */
            return true;
        return flag_process_argument(s + 4, ignore, origin, err);
    } else if (!ignore) {
        fprintf(err, "Unrecognized option: %s\n", s);
        return false;
    }
    return true;
}

/* ---- the pre-scan --------------------------------------------------------------------------- */

typedef struct prescan {
    const char *flags_file;   /* -XX:Flags= */
    bool ignore_unrecognized; /* -XX:(+|-)IgnoreUnrecognizedVMOptions, the last one */
    bool print_initial;       /* -XX:+PrintFlagsInitial */
    const char *emulate_cpu;  /* -XX:EmulateCPU= */
    const char *cpuinfo_file; /* -XX:CPUInfoFile= */
} prescan;

/* HotSpot's match_special_option_and_act, on a whole option */
static void prescan_option(const char *s, prescan *p)
{
    const char *tail;
    if (starts(s, "-XX:Flags=", &tail))
        p->flags_file = tail;
    else if (strcmp(s, "-XX:+IgnoreUnrecognizedVMOptions") == 0)
        p->ignore_unrecognized = true;
    else if (strcmp(s, "-XX:-IgnoreUnrecognizedVMOptions") == 0)
        p->ignore_unrecognized = false;
    else if (strcmp(s, "-XX:+PrintFlagsInitial") == 0)
        p->print_initial = true;
}

/* minivm: the two flags that choose the target architecture, on an -XX option without "-XX:" */
static void prescan_cpu(const char *arg, prescan *p)
{
    const char *tail;
    if (starts(arg, "EmulateCPU=", &tail) || starts(arg, "EmulateCPU:=", &tail))
        p->emulate_cpu = *tail ? tail : NULL;
    else if (starts(arg, "CPUInfoFile=", &tail) || starts(arg, "CPUInfoFile:=", &tail))
        p->cpuinfo_file = *tail ? tail : NULL;
}

static bool is_help(const char *s)
{
    return strcmp(s, "-help") == 0 || strcmp(s, "-?") == 0 || strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0;
}

/* HotSpot ignores the variable in a set-uid or set-gid process (os::have_special_privileges) */
static bool special_privileges(void)
{
    return getuid() != geteuid() || getgid() != getegid();
}

/* ---- start-up --------------------------------------------------------------------------------- */

arg_action args_parse(int argc, char **argv, mvm_args *a, args_arch_fn target_arch, args_text_flags_fn text_flags,
                      FILE *out, FILE *err)
{
    memset(a, 0, sizeof *a);
    flags_init(flags_host_arch());
    vm_warning_stream(err);
    flag_tokens env = {NULL, 0}, file = {NULL, 0};
    arg_action result = ARG_EXIT_ERROR;

    /* 1. the environment variable */
    const char *env_text = getenv(MVM_TOOL_OPTIONS);
    if (env_text && !special_privileges()) {
        fprintf(err, "Picked up %s: %s\n", MVM_TOOL_OPTIONS, env_text);
        if (flag_split_options(env_text, &env) != 0) {
            fprintf(err, "Unmatched quote in %s\n", MVM_TOOL_OPTIONS);
            goto fatal;
        }
    }

    /* the command-line options: up to the program file; java passes nothing after a help option */
    int nopts = 1;
    while (nopts < argc && argv[nopts][0] == '-' && !is_help(argv[nopts]))
        nopts++;

    /* 2. the pre-scan */
    prescan p = {NULL, false, false, NULL, NULL};
    for (size_t i = 0; i < env.n; i++)
        prescan_option(env.v[i], &p);
    for (int i = 1; i < nopts; i++)
        prescan_option(argv[i], &p);
    int file_read = p.flags_file ? flag_read_settings_file(p.flags_file, &file) : 0;
    for (size_t i = 0; i < file.n; i++) /* the settings file, then the environment, then the command line */
        prescan_cpu(file.v[i], &p);
    for (size_t i = 0; i < env.n; i++)
        if (strncmp(env.v[i], "-XX:", 4) == 0)
            prescan_cpu(env.v[i] + 4, &p);
    for (int i = 1; i < nopts; i++)
        if (strncmp(argv[i], "-XX:", 4) == 0)
            prescan_cpu(argv[i] + 4, &p);
    /* both name the CPU the flags describe, and with it which architecture's flags exist: neither may
       silently win (HotSpot refuses conflicting selections alike: "Multiple garbage collectors selected") */
    if (p.emulate_cpu && p.cpuinfo_file) {
        fprintf(err, "Error occurred during initialization of VM\nMultiple CPUs selected: -XX:EmulateCPU=%s and "
                     "-XX:CPUInfoFile=%s (use one of them)\n", p.emulate_cpu, p.cpuinfo_file);
        goto done;
    }
    flags_init(target_arch ? target_arch(p.emulate_cpu, p.cpuinfo_file) : flags_host_arch());

    /* 3. */
    if (p.print_initial) {
        flags_print(out, false);
        result = ARG_EXIT_OK;
        goto done;
    }

    /* 4. the settings file: every token is tried, then the verdict */
    if (p.flags_file) {
        if (file_read == -1) {
            fprintf(err, "Could not open settings file %s\n", p.flags_file);
            goto fatal;
        }
        if (file_read == -2) {
            char size[32];
            fprintf(err, "Could not read settings file %s: larger than %s, the limit for a settings file\n",
                    p.flags_file, textfile_size_text(FLAG_SETTINGS_FILE_MAX, size, sizeof size));
            goto fatal;
        }
        bool ok = true;
        for (size_t i = 0; i < file.n; i++)
            ok &= flag_process_argument(file.v[i], p.ignore_unrecognized, FLAG_ORIGIN_CONFIG_FILE, err);
        if (!ok)
            goto fatal;
    }
    for (size_t i = 0; i < env.n; i++)
        if (!vm_option(env.v[i], p.ignore_unrecognized, FLAG_ORIGIN_ENVIRON, &a->mode, err))
            goto fatal;

    int i;
    for (i = 1; i < argc && argv[i][0] == '-'; i++) {
        const char *s = argv[i];
        if (strcmp(s, "-version") == 0 || strcmp(s, "--version") == 0) {
            a->version = strcmp(s, "-version") == 0 ? 1 : 2; /* --version: to the output stream */
        } else if (strcmp(s, "-showversion") == 0 || strcmp(s, "--show-version") == 0) {
            a->show_version = strcmp(s, "-showversion") == 0 ? 1 : 2;
        } else if (is_help(s)) {
            /* as the java launcher: --help to the output stream, the others to the error stream */
            a->help = strcmp(s, "--help") == 0 ? 2 : 1;
            break;
        } else if (!vm_option(s, p.ignore_unrecognized, FLAG_ORIGIN_COMMAND_LINE, &a->mode, err)) {
            goto fatal;
        }
    }

    /* what HotSpot checks once every option is in; first the text flags the stubs give meaning to */
    size_t ntext = 0;
    const args_text_flag *text = text_flags ? text_flags(flags_arch(), &ntext) : NULL;
    for (size_t k = 0; k < ntext; k++) {
        if (!flag_exists((flag_id)text[k].flag))
            continue;
        flag_value v;
        flag_value_load((flag_id)text[k].flag, &v);
        const char *value = v.v_ccstr;
        bool known = false;
        for (size_t i = 0; value && !known && text[k].value(i); i++)
            known = strcmp(value, text[k].value(i)) == 0;
        if (!known) {
            fprintf(err, "Unsupported %s '%s', available %s are: ", text[k].what, value ? value : "",
                    text[k].plural);
            for (size_t i = 0; text[k].value(i); i++)
                fprintf(err, "%s%s", i ? ", " : "", text[k].value(i));
            fputc('\n', err);
            goto fatal;
        }
    }
    /* HotSpot's CodeCacheSegmentSizeConstraintFunc and CodeEntryAlignmentConstraintFunc, which
       judge the same pair (after ergonomics there; nothing here changes it): both lines */
    const intx code_entry_alignment = flags_arch() == FLAG_ARCH_AARCH64 ? 64 : 32;
    if (FLAG(CodeCacheSegmentSize) < (uintx)code_entry_alignment) {
        fprintf(err,
                "CodeCacheSegmentSize  (%" PRIu64 ") must be larger than or equal to CodeEntryAlignment (%" PRId64
                ") to align entry points\n"
                "CodeEntryAlignment (%" PRId64 ") must be less than or equal to CodeCacheSegmentSize (%" PRIu64
                ") to align entry points\n",
                (uint64_t)FLAG(CodeCacheSegmentSize), (int64_t)code_entry_alignment, (int64_t)code_entry_alignment,
                (uint64_t)FLAG(CodeCacheSegmentSize));
        goto fatal;
    }
    /* HotSpot's CompilerConfig::ergo_initialize: an interpreter-only VM is not tiered */
    if (a->mode == ARGS_MODE_INT)
        FLAG_SET_CMDLINE(TieredCompilation, false);
    /* HotSpot's CompileThresholdConstraintFunc, and OnStackReplacePercentage's, which cannot
       judge itself then (both lines, as HotSpot 25 prints them) */
    if (FLAG(CompileThreshold) < 0 || FLAG(CompileThreshold) > 1073741823) {
        fprintf(err,
                "OnStackReplacePercentage cannot be validated because CompileThreshold value is invalid\n"
                "CompileThreshold (%" PRId64 ") must be between 0 and 1073741823\n",
                (int64_t)FLAG(CompileThreshold));
        goto fatal;
    }
    /* HotSpot's OnStackReplacePercentageConstraintFunc: at least InterpreterProfilePercentage and at
       most INT_MAX * 100 / CompileThreshold above it while the interpreter profiles, else
       non-negative and at most (INT_MAX >> 1) * 100 / CompileThreshold */
    {
        int64_t osr = (int64_t)FLAG(OnStackReplacePercentage), limit = INT32_MAX;
        if (!FLAG(ProfileInterpreter))
            limit >>= 1; /* InvocationCounter::count_shift */
        limit = FLAG(CompileThreshold) == 0 ? limit * 100 : limit * 100 / (int64_t)FLAG(CompileThreshold);
        if (FLAG(ProfileInterpreter) && osr < (int64_t)FLAG(InterpreterProfilePercentage)) {
            fprintf(err, "OnStackReplacePercentage (%" PRId64 ") must be larger than InterpreterProfilePercentage (%" PRId64
                         ")\n", osr, (int64_t)FLAG(InterpreterProfilePercentage));
            goto fatal;
        }
        if (!FLAG(ProfileInterpreter) && osr < 0) {
            fprintf(err, "OnStackReplacePercentage (%" PRId64 ") must be non-negative\n", osr);
            goto fatal;
        }
        if (FLAG(ProfileInterpreter))
            limit += (int64_t)FLAG(InterpreterProfilePercentage);
        if (osr > limit) {
            fprintf(err, "OnStackReplacePercentage (%" PRId64 ") must be between 0 and %" PRId64 "\n", osr, limit);
            goto fatal;
        }
    }
    /* HotSpot's MaxHeapSizeConstraintFunc with G1's heap alignment: its largest region, 512 MiB
       in HotSpot 25 (32 MiB in 17, before JDK-8275056) */
    const size_t heap_alignment = (size_t)512 << 20;
    const size_t aligned_max = (SIZE_MAX - heap_alignment) & ~(heap_alignment - 1);
    if (FLAG(MaxHeapSize) > aligned_max) {
        fprintf(err, "MaxHeapSize (%zu) must be less than or equal to aligned maximum value (%zu)\n",
                (size_t)FLAG(MaxHeapSize), aligned_max);
        goto fatal;
    }
    if (FLAG(MaxHeapSize) < 64 * 1024) {
        fputs("Error occurred during initialization of VM\nToo small maximum heap\n", err);
        goto done;
    }
    if (FLAG(ThreadStackSize) != 0 && FLAG(ThreadStackSize) < 4) { /* 0: the default, as in HotSpot */
        fputs("The Java thread stack size specified is too small. Specify at least 4k\n", err);
        goto fatal;
    }

    if (!a->help && i < argc) {
        a->program = argv[i];
        a->prog_argc = argc - i - 1;
        a->prog_argv = argv + i + 1;
    }
    result = ARG_RUN;
    goto done;
fatal:
    args_print_fatal_tail(err);
done:
    flag_tokens_free(&env);
    flag_tokens_free(&file);
    return result;
}
