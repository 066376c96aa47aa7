/*
 * flags/flags_table.h — every -XX flag of minivm, one line each, as HotSpot
 * declares them (runtime/globals.hpp, cpu/<arch>/globals_<arch>.hpp):
 *
 *   F(type, Name, default, kind, group, range, "doc")
 *
 * type   bool, int, uint, intx, uintx, uint64_t, size_t, double, ccstr, ccstrlist
 * kind   PRODUCT, DIAGNOSTIC (needs -XX:+UnlockDiagnosticVMOptions before it),
 *        EXPERIMENTAL (needs -XX:+UnlockExperimentalVMOptions), DEVELOP (debug
 *        builds only: minivm has none, and a product build rejects them)
 * group  NONE, C1, C2 or PD, printed before the kind as HotSpot does
 *        ({C2 product}, {pd product}); every flag of a per-architecture table
 *        also gets ARCH ({ARCH product})
 * range  RANGE(min, max) or NO_RANGE: values outside are rejected with
 *        (a numeric flag HotSpot gives no range has its type's whole range here,
 *        which PrintFlagsRanges prints as HotSpot does)
 *        "intx Name=9 is outside the allowed range [ 0 ... 4 ]"
 *
 * MVM_FLAGS are the shared flags. MVM_FLAGS_AARCH64 and MVM_FLAGS_X86_64 exist
 * only when that architecture is the target: the host's, or the one of the CPU
 * named by -XX:EmulateCPU / -XX:CPUInfoFile (see flags.h, start-up).
 * MVM_FLAGS_EVERY_ARCH are in every architecture's table ({ARCH ...}), with a
 * default per architecture: PD(AArch64's, x86-64's).
 *
 * Doc strings are HotSpot's where the flag is HotSpot's; "minivm:" notes how
 * minivm uses it. docs/flags.md is generated from this file (tests/flag_doc.c).
 */
#ifndef MINIVM_FLAGS_TABLE_H
#define MINIVM_FLAGS_TABLE_H

/* clang-format off */
#define MVM_FLAGS(F)                                                                                      \
    /* ---- flag handling ---------------------------------------------------------------------- */   \
    F(bool, UnlockDiagnosticVMOptions, true, DIAGNOSTIC, NONE, NO_RANGE,                                  \
      "Enable normal processing of flags relating to field diagnostics. minivm: true, as HotSpot's "     \
      "trueInDebug in a debug build; -XX:-UnlockDiagnosticVMOptions gives a product build's locking")     \
    F(bool, UnlockExperimentalVMOptions, false, EXPERIMENTAL, NONE, NO_RANGE,                             \
      "Enable normal processing of flags relating to experimental features")                              \
    F(bool, IgnoreUnrecognizedVMOptions, false, PRODUCT, NONE, NO_RANGE,                                  \
      "Ignore unrecognized VM options")                                                                   \
    F(bool, PrintFlagsFinal, false, PRODUCT, NONE, NO_RANGE,                                              \
      "Print all VM flags after argument and ergonomic processing")                                       \
    F(bool, PrintFlagsInitial, false, PRODUCT, NONE, NO_RANGE,                                            \
      "Print all VM flags before argument processing and exit VM")                                        \
    F(bool, PrintFlagsRanges, false, PRODUCT, NONE, NO_RANGE,                                             \
      "Print VM flags and their ranges")                                                                  \
    F(bool, PrintWarnings, true, PRODUCT, NONE, NO_RANGE,                                                 \
      "Print JVM warnings to output stream")                                                              \
    /* ---- MD5 and SHA intrinsics --------------------------------------------------------------- */   \
    F(bool, UseMD5Intrinsics, false, DIAGNOSTIC, NONE, NO_RANGE,                                          \
      "Use intrinsics for MD5 crypto hash function")                                                      \
    F(bool, UseSHA, false, PRODUCT, NONE, NO_RANGE,                                                       \
      "Control whether SHA instructions are used when available")                                         \
    F(bool, UseSHA1Intrinsics, false, DIAGNOSTIC, NONE, NO_RANGE,                                         \
      "Use intrinsics for SHA-1 crypto hash function. Requires that UseSHA is enabled.")                  \
    F(bool, UseSHA256Intrinsics, false, DIAGNOSTIC, NONE, NO_RANGE,                                       \
      "Use intrinsics for SHA-224 and SHA-256 crypto hash functions. Requires that UseSHA is enabled.")   \
    F(bool, UseSHA512Intrinsics, false, DIAGNOSTIC, NONE, NO_RANGE,                                       \
      "Use intrinsics for SHA-384 and SHA-512 crypto hash functions. Requires that UseSHA is enabled.")   \
    F(bool, UseSHA3Intrinsics, false, DIAGNOSTIC, NONE, NO_RANGE,                                         \
      "Use intrinsics for SHA3 crypto hash function. Requires that UseSHA is enabled.")                   \
    F(ccstrlist, DisableIntrinsic, "", DIAGNOSTIC, NONE, NO_RANGE,                                        \
      "do not expand intrinsics whose (internal) names appear here")                                      \
    F(bool, PrintIntrinsics, false, DIAGNOSTIC, C2, NO_RANGE,                                             \
      "prints attempted and successful inlining of intrinsics")                                           \
    F(bool, PrintInlining, false, DIAGNOSTIC, NONE, NO_RANGE,                                             \
      "Print inlining optimizations. minivm: the loader's verdict on each call, at load time "           \
      "(docs/bytecode.md, Inlining); with -XX:-Inline or -Xint the skipped forwarders' calls alone")       \
    F(bool, PrintStubCode, false, DIAGNOSTIC, NONE, NO_RANGE,                                             \
      "Print generated stub code")                                                                        \
    F(bool, PrintSHA3Selection, false, DIAGNOSTIC, NONE, NO_RANGE,                                        \
      "minivm: with SHA3IntrinsicPolicy=measure, print each candidate SHA-3 stub's time and the choice " \
      "(PrintFlagsFinal prints it too)")                                                                    \
    F(bool, PrintStubVariants, false, DIAGNOSTIC, NONE, NO_RANGE,                                         \
      "minivm: print the host architecture's stub variant table: each variant's kind (gpr, simd, "       \
      "crypto), whether this host's CPU runs it (else the feature it lacks) and the VM options that "    \
      "select it")                                                                                        \
    /* ---- code generation ---------------------------------------------------------------------- */   \
    F(bool, UseCompiler, true, PRODUCT, NONE, NO_RANGE,                                                   \
      "Use Just-In-Time compilation. minivm: false (also set by -Xint) means no compiled method, no "    \
      "machine-code stub at all, every @IntrinsicCandidate method runs its bytecode, and no inlining "    \
      "(forwarders are still skipped)")                                                                   \
    F(bool, UseInterpreter, true, PRODUCT, NONE, NO_RANGE,                                                \
      "Use interpreter for non-compiled methods. minivm: false (set by -Xcomp) compiles every method "  \
      "at its first call; the interpreter still runs what compiled code leaves to it (docs/compiler.md)") \
    F(bool, BackgroundCompilation, true, PRODUCT, PD, NO_RANGE,                                           \
      "A thread requesting compilation is not blocked during compilation. minivm: accepted; it "        \
      "always compiles in the thread that asks, before going on")                                        \
    F(bool, ClipInlining, true, PRODUCT, NONE, NO_RANGE,                                                  \
      "Clip inlining if aggregate method exceeds DesiredMethodLimit. minivm: accepted (-Xcomp sets it "  \
      "false as HotSpot's); its compiler does not inline")                                               \
    F(bool, TieredCompilation, true, PRODUCT, PD, NO_RANGE,                                               \
      "Enable tiered compilation. minivm: one tier, level 1; PrintCompilation prints the level while "   \
      "it is true")                                                                                       \
    F(intx, TieredStopAtLevel, 4, PRODUCT, NONE, RANGE(0, 4),                                             \
      "Stop at given compilation level. minivm: 0 keeps every method interpreted (the stubs stay); "     \
      "1 to 4 compile at minivm's one level")                                                            \
    F(intx, CompileThreshold, 10000, PRODUCT, PD, RANGE(INTPTR_MIN, INTPTR_MAX),                                         \
      "number of interpreted method invocations before (re-)compiling. minivm: invocations plus loop "   \
      "back-edges, per method")                                                                          \
    F(intx, OnStackReplacePercentage, 140, PRODUCT, PD, RANGE(INTPTR_MIN, INTPTR_MAX),                                   \
      "NON_TIERED number of method invocations/branches (expressed as % of CompileThreshold) before "    \
      "(re-)compiling OSR code. minivm: accepted and checked; a loop's back-edges count with the "       \
      "invocations towards CompileThreshold")                                                            \
    F(bool, ProfileInterpreter, true, PRODUCT, PD, NO_RANGE,                                              \
      "Profile at the bytecode level during interpretation. minivm: accepted; its interpreter keeps "    \
      "no profile (OnStackReplacePercentage's constraint reads it, as HotSpot's)")                       \
    F(intx, InterpreterProfilePercentage, 33, PRODUCT, NONE, RANGE(0, 100),                               \
      "NON_TIERED number of method invocations/branches (expressed as % of CompileThreshold) before "    \
      "profiling in the interpreter. minivm: accepted; OnStackReplacePercentage must not be below it")   \
    F(bool, UseOnStackReplacement, true, PRODUCT, PD, NO_RANGE,                                           \
      "Use on stack replacement, calls runtime if invoc. counter overflows in loop. minivm: a loop's "   \
      "back-edge enters its method's compiled code")                                                     \
    F(bool, PrintCompilation, false, PRODUCT, NONE, NO_RANGE,                                             \
      "Print compilations")                                                                               \
    F(ccstrlist, CompileCommand, "", PRODUCT, NONE, NO_RANGE,                                             \
      "Prepend to .hotspot_compiler; e.g. log,java/lang/String.<init>. minivm: exclude, print, "          \
      "compileonly and quiet, on Module.method patterns (docs/compiler.md)")                               \
    F(bool, PrintAssembly, false, DIAGNOSTIC, NONE, NO_RANGE,                                             \
      "Print assembly code (using external disassembler.so). minivm: every compiled method's code, "     \
      "with LLVM's disassembly under each bytecode word")                                                \
    F(bool, CITime, false, PRODUCT, NONE, NO_RANGE,                                                       \
      "collect timing information for compilation. minivm: the methods compiled, their code and "        \
      "the time, at exit")                                                                                \
    F(uintx, CodeCacheSegmentSize, 128, EXPERIMENTAL, PD, RANGE(1, 1024),                                 \
      "Code cache segment size (in bytes) - smallest unit of allocation. minivm: accepted and checked "  \
      "as HotSpot's (at least CodeEntryAlignment: 32 on x86-64, 64 on AArch64)")                          \
    F(bool, PreserveFramePointer, false, PRODUCT, PD, NO_RANGE,                                           \
      "Use the FP register for holding the frame pointer and not as a general purpose register.")         \
    F(bool, Inline, true, PRODUCT, NONE, NO_RANGE,                                                        \
      "Enable inlining. minivm: the loader inlines small static methods into their callers "             \
      "(docs/bytecode.md, Inlining); -XX:-Inline keeps every call a call but a forwarder's, which is "   \
      "skipped in every mode")                                                                            \
    F(bool, UseFPUForSpilling, false, PRODUCT, C2, NO_RANGE,                                              \
      "Spill integer registers to FPU instead of stack when possible")                                    \
    /* ---- memory (-Xmx and -Xss set these) ----------------------------------------------------- */   \
    F(size_t, MaxHeapSize, (size_t)1 << 30, PRODUCT, NONE, RANGE(0, SIZE_MAX),                            \
      "Maximum heap size (in bytes). minivm: the heap limit (-Xmx); default 1 GiB")                        \
    F(intx, ThreadStackSize, 1024, PRODUCT, PD, RANGE(0, 1048576),                                        \
      "Thread Stack Size (in Kbytes). minivm: the interpreter's register stack (-Xss); 0 means the "      \
      "default, 1024")                                                                                    \
    /* ---- minivm extensions: CPU selection --------------------------------------------------- */   \
    F(ccstr, EmulateCPU, NULL, DIAGNOSTIC, NONE, NO_RANGE,                                                \
      "minivm: replace CPU detection with a built-in CPU model (e.g. apple-m4, neoverse-n1); its "        \
      "architecture's flags and ergonomics apply even on another host")                                   \
    F(ccstr, CPUInfoFile, NULL, DIAGNOSTIC, NONE, NO_RANGE,                                               \
      "minivm: detect the CPU from this /proc/cpuinfo text instead of the host")                          \
    F(bool, PrintCPUFeatures, false, DIAGNOSTIC, NONE, NO_RANGE,                                          \
      "minivm: print the CPU that was detected or emulated and its features")

#define MVM_FLAGS_AARCH64(F)

/* HotSpot declares UseSIMDForSHA3Intrinsic for AArch64 only; minivm has both on x86-64 too. */
#define MVM_FLAGS_EVERY_ARCH(F)                                                                           \
    F(bool, UseSIMDForSHA3Intrinsic, PD(true, true), PRODUCT, NONE, NO_RANGE,                             \
      "Use SIMD SHA3 instructions for SHA3 intrinsic. minivm: also on x86-64, where it chooses a vector " \
      "stub (the width from UseAVX) over the GPR one")                                                    \
    F(ccstr, SHA3IntrinsicPolicy, PD("JDK-8359256", "minivm"), DIAGNOSTIC, NONE, NO_RANGE,                \
      "minivm: the rules the ergonomics follow for the SHA-3 intrinsic defaults. AArch64: JDK-8359256 "   \
      "(the newest) or JDK26 (before it); x86-64: minivm (its measured table), JDK24 (AVX-512F+BW) or "   \
      "JDK-8384353 (the newest: AVX-512F+BW+VL, or AVX2 on Intel E-core Xeons); both: measure (the "      \
      "default policy, then the VM times every variant the CPU runs and selects the fastest)")

#define MVM_FLAGS_X86_64(F)                                                                               \
    F(int, UseAVX, 3, PRODUCT, NONE, RANGE(0, 3),                                                          \
      "Highest supported AVX instructions set on x86/x64")                                                \
    F(bool, UseBMI1Instructions, false, PRODUCT, NONE, NO_RANGE,                                          \
      "Use BMI1 instructions")                                                                            \
    F(bool, UseBMI2Instructions, false, PRODUCT, NONE, NO_RANGE,                                          \
      "Use BMI2 instructions")                                                                            \
    F(ccstr, SHA3AVX512Design, "lanes", DIAGNOSTIC, NONE, NO_RANGE,                                       \
      "minivm: the AVX-512 SHA-3 stub that UseSIMDForSHA3Intrinsic runs at UseAVX=3: lanes "               \
      "(JDK-8384353's design: one lane per register) or rows (JDK-8341527: the five rows in zmm0..zmm4; "   \
      "the default under SHA3IntrinsicPolicy=JDK24)")                                                     \
    F(ccstr, SHA256Design, "sha-ni", DIAGNOSTIC, NONE, NO_RANGE,                                          \
      "minivm: the SHA-256 stub that UseSHA256Intrinsics runs: sha-ni (fast_sha256; the default where "    \
      "the CPU has SHA-NI) or avx2 (sha256_AVX2, with BMI2; the default elsewhere)")
/* clang-format on */

#endif /* MINIVM_FLAGS_TABLE_H */
