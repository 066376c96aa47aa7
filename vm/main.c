/*
 * vm/main.c — the minivm launcher: minivm [options] program.mva [args...]
 *
 * Exit status: main's result (0 for a void main), 1 when the program cannot
 * be loaded or verified, or ends with an uncaught exception, or when an
 * option is bad (as HotSpot's launcher), and Sys.exit's status; 1 also when
 * output could not be written ("minivm: write error: <reason>", as coreutils).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arguments.h"
#include "compile_command.h"
#include "jit.h"
#include "stubs_startup.h"
#include "flags.h"
#include "intrinsics.h"
#include "stubroutines.h"
#include "vm.h"

/*
 * Every exit goes through here (coreutils' close_stdout): what the launcher
 * or the program wrote must have reached standard output, else one line
 * "minivm: write error: <reason>" on standard error and status 1 (unless the
 * status already says failure). write_errno: a write a native saw fail, which
 * ended the program; 0 when none.
 */
static int finish_output(int code, int write_errno)
{
    errno = 0;
    bool failed = fflush(stdout) != 0 || ferror(stdout);
    int e = write_errno ? write_errno : failed ? errno : 0;
    if (write_errno || failed) {
        if (e)
            fprintf(stderr, "minivm: write error: %s\n", strerror(e));
        else
            fputs("minivm: write error\n", stderr);
    }
    /* standard error too: nothing can report it, but the status can */
    if (fflush(stderr) != 0 || ferror(stderr) || write_errno || failed)
        return code ? code : 1;
    return code;
}

/* Flush standard output now (so it stays ahead of what goes to standard
   error), keeping the reason of a failure for finish_output. */
static void flush_stdout(int *write_errno)
{
    errno = 0;
    if (fflush(stdout) != 0 && !*write_errno)
        *write_errno = errno ? errno : EIO;
}

static int run(int argc, char **argv, int *write_errno);
static int run_vm(const mvm_args *args, const compile_commands *commands, int *write_errno);

/* -XX:+CITime's summary, at exit: the lines of HotSpot 25's CompileBroker::print_times that apply to
   minivm's one compiler (no OSR compilations: a loop enters the method's one compiled code) */
static void print_ci_time(const vm_t *vm)
{
    jit_stats st = {0};
    jit_get_stats(vm, &st);
    double secs = st.compile_ns / 1e9;
    printf("Accumulated compiler times\n"
           "----------------------------------------------------------\n"
           "  Total compilation time   : %7.3f s\n"
           "    Standard compilation   : %7.3f s, Average : %5.3f s\n"
           "    On stack replacement   : %7.3f s, Average : %5.3f s\n"
           "\n"
           "  Total compiled methods    : %8u methods\n"
           "    Standard compilation    : %8u methods\n"
           "    On stack replacement    : %8u methods\n"
           "  Total compiled bytecodes  : %8llu bytes\n"
           "    Standard compilation    : %8llu bytes\n"
           "    On stack replacement    : %8u bytes\n"
           "  Average compilation speed : %8lld bytes/s\n"
           "\n"
           "  nmethod code size         : %8llu bytes\n",
           secs, secs, st.compiled ? secs / st.compiled : 0.0, 0.0, 0.0, st.compiled, st.compiled, 0u,
           (unsigned long long)st.bytecode_bytes, (unsigned long long)st.bytecode_bytes, 0u,
           secs > 0 ? (long long)(st.bytecode_bytes / secs) : 0LL, (unsigned long long)st.code_bytes);
}

int main(int argc, char **argv)
{
    int write_errno = 0;
    int code = run(argc, argv, &write_errno);
    return finish_output(code, write_errno);
}

static int run(int argc, char **argv, int *write_errno)
{
    mvm_args args;
    switch (args_parse(argc, argv, &args, stubs_target_arch, stubs_text_flags, stdout, stderr)) {
    case ARG_EXIT_OK: return 0;
    case ARG_EXIT_ERROR: return 1;
    case ARG_RUN: break;
    }

    /* ---- CPU selection and ergonomics (stubs/): the flags take their final values ---- */
    if (stubs_select_cpu_and_ergonomics(stderr) != 0)
        return 1;

    /* HotSpot's DisableIntrinsicConstraintFunc (checked after ergonomics): every id must be known */
    char bad_id[64];
    if (vm_intrinsic_check_list(FLAG(DisableIntrinsic), bad_id, sizeof bad_id) != 0) {
        fprintf(stderr, "Unrecognized intrinsic detected in DisableIntrinsic: %s\n", bad_id);
        args_print_fatal_tail(stderr);
        return 1;
    }

    /* HotSpot's CompilerOracle, parsed as the VM starts: each command echoed, a bad one fatal */
    compile_commands commands = {0};
    if (!compile_commands_parse(&commands, FLAG(CompileCommand), stdout)) {
        compile_commands_free(&commands);
        flush_stdout(write_errno);
        args_print_fatal_tail(stderr);
        return 1;
    }
    int code = run_vm(&args, &commands, write_errno);
    compile_commands_free(&commands);
    return code;
}

static int run_vm(const mvm_args *a, const compile_commands *commands, int *write_errno)
{
    const mvm_args args = *a;
    /* as HotSpot once the VM is created: the flags, then help or version, or the program */
    if (FLAG(PrintFlagsFinal) || FLAG(PrintFlagsRanges))
        flags_print(stdout, FLAG(PrintFlagsRanges));
    /* what start-up printed (PrintStubCode, PrintFlagsFinal ...) stays ahead of the
       version or usage text on stderr when both streams go to one pipe */
    flush_stdout(write_errno);
    if (args.help) {
        args_print_usage(args.help == 2 ? stdout : stderr);
        return 0;
    }
    if (args.version) {
        args_print_version(args.version == 2 ? stdout : stderr, jit_available());
        return 0;
    }
    /* -showversion prints the version first, even without a program; the java
       launcher then prints the usage to the same stream (--show-version: stdout) */
    FILE *version_stream = args.show_version == 2 ? stdout : stderr;
    if (args.show_version)
        args_print_version(version_stream, jit_available());
    if (!args.program) {
        args_print_usage(args.show_version ? version_stream : stderr);
        return 1;
    }

    stubs_note_program_start();
    char err[VM_ERROR_MAX];
    /* inlining is a compiler's: -Xint (UseCompiler off) has none, as in HotSpot */
    unsigned load_options = (FLAG(Inline) && FLAG(UseCompiler) ? 0 : VM_LOAD_NO_INLINE) |
                            (FLAG(PrintInlining) ? VM_LOAD_PRINT_INLINING : 0);
    vm_program *prog = vm_load_file_ex(args.program, load_options, err, sizeof err);
    if (!prog) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const vm_method *main_m = prog->main;
    if (!main_m || main_m->nparams != 0 ||
        !(main_m->ret.kind == VM_T_VOID || vm_type_is_int(main_m->ret))) {
        fprintf(stderr,
                "Error: Main method not found in module %s, please define the main method as:\n"
                "   method main() -> int\n"
                "or method main()\n",
                prog->nmodules > 1 ? prog->modules[1]->name : "?");
        vm_program_free(prog);
        return 1;
    }

    vm_options opt = {
        .heap_max = FLAG(MaxHeapSize),
        .stack_size = (size_t)FLAG(ThreadStackSize) * 1024, /* 0: the default */
        .argc = args.prog_argc,
        .argv = args.prog_argv,
        /* the stubs stubs/ generated for the final flag values (all NULL: none) */
        .stubs = stub_routines_table(),
        .disable_intrinsic = FLAG(DisableIntrinsic),
        .print_intrinsics = FLAG(PrintIntrinsics),
    };
    vm_t *vm = vm_new(prog, &opt, err, sizeof err);
    if (!vm) {
        fprintf(stderr, "Error occurred during initialization of VM\n%s\n", err);
        vm_program_free(prog);
        return 1;
    }
    /* the compiler tier: -Xint (UseCompiler off) and TieredStopAtLevel=0 interpret alone; a
       host without templates too (docs/compiler.md). With a CPU of another architecture
       (-XX:EmulateCPU, what-if mode) its templates compile and print, and the interpreter runs. */
    const char *target = flags_arch() == flags_host_arch() ? NULL
                         : flags_arch() == FLAG_ARCH_AARCH64 ? "aarch64"
                                                             : "x86_64";
    if (FLAG(UseCompiler) && FLAG(TieredStopAtLevel) > 0 && (jit_available() || target)) {
        jit_options jo = {
            .threshold = FLAG(UseInterpreter) ? FLAG(CompileThreshold) : 0,
            .osr = FLAG(UseOnStackReplacement),
            .print_compilation = FLAG(PrintCompilation),
            .tiered = FLAG(TieredCompilation),
            .print_assembly = FLAG(PrintAssembly),
            .commands = commands,
            .target = target,
        };
        if (!jit_attach(vm, &jo, err, sizeof err)) {
            fprintf(stderr, "Error occurred during initialization of VM\n%s\n", err);
            vm_free(vm);
            vm_program_free(prog);
            return 1;
        }
    }
    vm_value result = {0};
    int status = vm_call(vm, main_m, NULL, &result);
    if (FLAG(CITime))
        print_ci_time(vm);
    int code;
    flush_stdout(write_errno);
    switch (status) {
    case VM_OK: code = main_m->ret.kind == VM_T_VOID ? 0 : (int)result.i; break;
    case VM_EXIT:
        code = vm->exit_status;
        if (vm->write_errno)
            *write_errno = vm->write_errno;
        break;
    default:
        vm_print_exception(vm, stderr);
        code = 1;
        break;
    }
    vm_free(vm);
    vm_program_free(prog);
    return code;
}
