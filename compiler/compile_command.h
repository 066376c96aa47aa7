/*
 * compiler/compile_command.h — -XX:CompileCommand (HotSpot's CompilerOracle,
 * compiler/compilerOracle.cpp): per-method commands for the compiler tier.
 *
 *   -XX:CompileCommand=OPTION,PATTERN     OPTION: exclude, print, compileonly, quiet
 *
 * PATTERN is Module.method or Module::method; either part may start or end with '*' (or be
 * '*' alone). minivm has no signatures and no packages. Several commands accumulate
 * (CompileCommand is a ccstrlist: one command a line). As HotSpot, a valid command echoes
 * "CompileCommand: exclude T.f bool exclude = true" (unless quiet came first), and a bad
 * one prints "CompileCommand: An error occurred during parsing", the error, the line and
 * the usage, and the VM does not start.
 */
#ifndef MINIVM_COMPILE_COMMAND_H
#define MINIVM_COMPILE_COMMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum compile_option {
    CC_EXCLUDE,     /* never compile the method */
    CC_PRINT,       /* print its code when compiled (PrintAssembly for it alone) */
    CC_COMPILEONLY, /* compile only the methods some compileonly names */
    CC_NOPTIONS
} compile_option;

typedef struct compile_command {
    compile_option option;
    char module[128], method[128]; /* the pattern's parts, '*' kept */
} compile_command;

typedef struct compile_commands {
    compile_command *v;
    size_t n, cap;
    bool quiet;       /* "quiet": no echo, no "### Excluding compile" lines */
    bool compileonly; /* some compileonly command exists */
} compile_commands;

/* Parse every line of text (the flag's value; NULL or "" has none) into cc, echoing each
   command to out; false after the first bad one, whose error lines went to out. */
bool compile_commands_parse(compile_commands *cc, const char *text, FILE *out);

/* Does option hold for Module.method? (compileonly: is it excluded by the compileonly set?) */
bool compile_commands_has(const compile_commands *cc, compile_option option, const char *module, const char *method);

/* Should Module.method not be compiled (exclude, or not named by a compileonly)? */
bool compile_commands_excluded(const compile_commands *cc, const char *module, const char *method);

void compile_commands_free(compile_commands *cc);

#endif /* MINIVM_COMPILE_COMMAND_H */
