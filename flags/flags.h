/*
 * flags/flags.h — minivm's -XX flags, HotSpot style.
 *
 * The flags are declared once, in the X-macro tables of flags/flags_table.h:
 * shared flags, and one table per CPU architecture whose flags exist only
 * when that architecture is the target (the host's, or the one of an
 * emulated CPU). From them come the ids (FLAG_ID_UseSHA), the values
 * (mvm_flags.UseSHA, read as FLAG(UseSHA)) and the descriptors (flag_descs).
 *
 * Values are written only while the VM starts (parsing, then ergonomics) and
 * are read-only afterwards. Every flag has an origin, printed by
 * -XX:+PrintFlagsFinal: {default}, {command line}, {environment}
 * (MINIVM_TOOL_OPTIONS), {config file} (-XX:Flags=file) or {ergonomic}.
 * As in HotSpot, a flag set on the command line remembers it, so a later
 * ergonomic change prints {command line, ergonomic}.
 *
 * flags/ depends on nothing else in minivm. Files: flags.c (values, origins,
 * lookup, warnings), parse.c (-XX options, settings files, option strings),
 * print.c (PrintFlags*), arguments.c (the launcher's start-up sequence).
 */
#ifndef MINIVM_FLAGS_H
#define MINIVM_FLAGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* HotSpot's flag types */
typedef intptr_t intx;
typedef uintptr_t uintx;
typedef unsigned int uint;
typedef const char *ccstr;
typedef const char *ccstrlist; /* a ccstr whose settings accumulate, one per line */

typedef enum flag_type {
    FLAG_TYPE_bool, FLAG_TYPE_int, FLAG_TYPE_uint, FLAG_TYPE_intx, FLAG_TYPE_uintx,
    FLAG_TYPE_uint64_t, FLAG_TYPE_size_t, FLAG_TYPE_double, FLAG_TYPE_ccstr, FLAG_TYPE_ccstrlist
} flag_type;

typedef enum flag_kind {
    FLAG_KIND_PRODUCT, FLAG_KIND_DIAGNOSTIC, FLAG_KIND_EXPERIMENTAL, FLAG_KIND_DEVELOP
} flag_kind;

/* groups, printed before the kind in this order: {C1 ...} {C2 ...} {ARCH ...} {pd ...} */
#define FLAG_GROUP_NONE 0u
#define FLAG_GROUP_C1   1u
#define FLAG_GROUP_C2   2u
#define FLAG_GROUP_ARCH 4u /* added to every flag of a per-architecture table */
#define FLAG_GROUP_PD   8u

typedef enum flag_origin {
    FLAG_ORIGIN_DEFAULT,
    FLAG_ORIGIN_COMMAND_LINE,
    FLAG_ORIGIN_ENVIRON,     /* MINIVM_TOOL_OPTIONS */
    FLAG_ORIGIN_CONFIG_FILE, /* -XX:Flags=file */
    FLAG_ORIGIN_ERGONOMIC
} flag_origin;

/* The CPU architectures with a flag table of their own. */
typedef enum flag_arch { FLAG_ARCH_X86_64, FLAG_ARCH_AARCH64 } flag_arch;

#include "flags_table.h"

/* Per-architecture defaults in MVM_FLAGS_EVERY_ARCH: PD(AArch64's, x86-64's). */
#define PD(aarch64, x86_64) aarch64
#define PD_AARCH64_PD(aarch64, x86_64) aarch64
#define PD_X86_64_PD(aarch64, x86_64) x86_64
/* flag_desc.arch of a shared flag, and of one in every architecture's table */
#define FLAG_SHARED (-1)
#define FLAG_EVERY_ARCH (-2)

/* flag ids: FLAG_ID_UseSHA, ... (shared, then each architecture's) */
typedef enum flag_id {
#define F(type, name, def, kind, group, range, doc) FLAG_ID_##name,
    MVM_FLAGS(F) MVM_FLAGS_AARCH64(F) MVM_FLAGS_X86_64(F) MVM_FLAGS_EVERY_ARCH(F)
#undef F
    FLAG_COUNT
} flag_id;

/* the values */
typedef struct mvm_flag_values {
#define F(type, name, def, kind, group, range, doc) type name;
    MVM_FLAGS(F) MVM_FLAGS_AARCH64(F) MVM_FLAGS_X86_64(F) MVM_FLAGS_EVERY_ARCH(F)
#undef F
} mvm_flag_values;

extern mvm_flag_values mvm_flags;

#define FLAG(name) (mvm_flags.name)

/* A value of any flag type (the member is v_<type>). */
typedef union flag_value {
    bool v_bool;
    int v_int;
    uint v_uint;
    intx v_intx;
    uintx v_uintx;
    uint64_t v_uint64_t;
    size_t v_size_t;
    double v_double;
    ccstr v_ccstr;
    ccstrlist v_ccstrlist;
} flag_value;

/* What the table says about a flag. */
typedef struct flag_desc {
    const char *name;
    flag_type type;
    flag_kind kind;
    unsigned group;    /* FLAG_GROUP_* mask, ARCH included */
    int arch;          /* FLAG_SHARED, FLAG_EVERY_ARCH, or the flag_arch whose table holds it */
    void *addr;        /* the value in mvm_flags */
    flag_value def;    /* the declared default (FLAG_EVERY_ARCH: AArch64's) */
    flag_value def_x86_64; /* the declared default when x86-64 is the target */
    bool has_range;
    flag_value min, max;
    const char *doc;
} flag_desc;

extern const flag_desc flag_descs[FLAG_COUNT];

/* ---- start-up -------------------------------------------------------------------------------- */
/*
 * Start-up is two steps, because the target architecture (and so which
 * per-architecture flags exist) depends on -XX:EmulateCPU / -XX:CPUInfoFile:
 * args_parse (arguments.h) first finds those two options in every source
 * without judging anything, asks the launcher's callback for the
 * architecture, calls flags_init(arch), and only then applies every option.
 * Then the launcher runs CPU selection and ergonomics (stubs/), and finally
 * flags_print() for -XX:+PrintFlagsFinal.
 */

/* Every flag back to its declared default and origin; arch's table is live. */
void flags_init(flag_arch arch);
flag_arch flags_arch(void);
flag_arch flags_host_arch(void);

/* ---- HotSpot's flag API (runtime/globals_extension.hpp) -------------------------------------- */
bool flag_exists(flag_id id);    /* shared, or in the target architecture's table */
const char *flag_name(flag_id id);
flag_origin flag_get_origin(flag_id id);
bool flag_is_default(flag_id id); /* origin is still {default} */
bool flag_is_cmdline(flag_id id); /* set on the command line at some point (not env or file) */
/* Record a new origin for the value just written (COMMAND_LINE is remembered). */
void flag_set_origin(flag_id id, flag_origin origin);
/* Copy a flag's value out of / into mvm_flags (the v_<type> member). */
void flag_value_load(flag_id id, flag_value *v);
void flag_value_store(flag_id id, const flag_value *v);
/* Inside the declared range (always, for a flag without one)? */
bool flag_in_range(flag_id id, const flag_value *v);

#define FLAG_IS_DEFAULT(name) flag_is_default(FLAG_ID_##name)
#define FLAG_IS_CMDLINE(name) flag_is_cmdline(FLAG_ID_##name)
#define FLAG_IS_ERGO(name)    (flag_get_origin(FLAG_ID_##name) == FLAG_ORIGIN_ERGONOMIC)
/* The value changes, the origin does not: a flag auto-enabled by the CPU
   still prints {default}, exactly as HotSpot's FLAG_SET_DEFAULT. */
#define FLAG_SET_DEFAULT(name, v) ((void)(mvm_flags.name = (v)))
/* minivm's own ergonomic choices: prints {ergonomic} ({command line, ergonomic}
   when the user had set it on the command line). */
#define FLAG_SET_ERGO(name, v) ((void)(mvm_flags.name = (v)), flag_set_origin(FLAG_ID_##name, FLAG_ORIGIN_ERGONOMIC))
#define FLAG_SET_CMDLINE(name, v) \
    ((void)(mvm_flags.name = (v)), flag_set_origin(FLAG_ID_##name, FLAG_ORIGIN_COMMAND_LINE))

/* ---- lookup ---------------------------------------------------------------------------------- */
/* The flag called name[0..len), or FLAG_COUNT. Locked (diagnostic, experimental)
   flags are found only when allow_locked or unlocked; develop flags never
   (this is a product build) unless allow_locked. */
flag_id flag_find(const char *name, size_t len, bool allow_locked);
/* Diagnostic flags need UnlockDiagnosticVMOptions, experimental ones
   UnlockExperimentalVMOptions; the two unlockers are always usable. */
bool flag_is_unlocked(flag_id id);
bool flag_is_unlocker(flag_id id);
/* HotSpot's StringUtils::similarity: bigrams of a found in b, 2*hits/(len a + len b). */
double flag_similarity(const char *a, size_t alen, const char *b, size_t blen);
/* The flag whose name is most similar (similarity >= 0.7, every existing flag,
   locked ones included), or FLAG_COUNT: the "Did you mean" of an unknown option. */
flag_id flag_fuzzy_match(const char *name, size_t len);

/* ---- processing options (parse.c) ------------------------------------------------------------ */
/* One -XX option without its "-XX:" ("+Name", "-Name", "Name=value",
   "Name:=value"), with HotSpot's messages on err when it fails. Returns false
   when the VM must not start. With ignore_unrecognized, unknown names are
   silent (a known flag used wrongly, or a locked one, still fails). */
bool flag_process_argument(const char *arg, bool ignore_unrecognized, flag_origin origin, FILE *err);

/* A list of option strings (an environment variable or a settings file split into tokens). */
typedef struct flag_tokens {
    char **v;
    size_t n;
} flag_tokens;
void flag_tokens_free(flag_tokens *t);
/* HotSpot's parse_options_buffer: white space separates, '...' or "..." quote
   (the quotes are removed). Returns -1 on an unmatched quote. */
int flag_split_options(const char *s, flag_tokens *out);
/* HotSpot's settings file syntax: tokens separated by white space, '#' at
   the start of a token comments to the end of the line, quotes inside a
   token protect white space. Returns -1 when the file cannot be opened,
   -2 when it holds more than FLAG_SETTINGS_FILE_MAX bytes (minivm's limit:
   HotSpot has none, and reads `yes |` as settings without end). */
#define FLAG_SETTINGS_FILE_MAX ((size_t)1 << 20)
int flag_read_settings_file(const char *path, flag_tokens *out);

/* HotSpot's atojulong: decimal or 0x hex digits, then at most one of k m g t (any case). */
bool flag_parse_julong(const char *s, uint64_t *out);

/* ---- printing (print.c) ---------------------------------------------------------------------- */
/* HotSpot's JVMFlag::printFlags: "[Global flags]" then every unlocked flag
   sorted by name (strcmp) in print_on's columns; with ranges, the
   PrintFlagsRanges layout ("[Global flags ranges]", numeric flags only). */
void flags_print(FILE *f, bool ranges);
/* One flag's value as PrintFlagsFinal shows it (ccstrlist lines joined by '\n'). */
void flag_format_value(const flag_desc *d, const flag_value *v, char *buf, size_t len);
/* "{diagnostic}", "{ARCH product}", ... */
void flag_format_kind(const flag_desc *d, char *buf, size_t len);

/* ---- warnings ------------------------------------------------------------------------------- */
#define MVM_VM_NAME "minivm 64-Bit VM"

/* "minivm 64-Bit VM warning: <text>" on stderr, unless -XX:-PrintWarnings. */
void vm_warning(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* where vm_warning writes (stderr by default) */
void vm_warning_stream(FILE *f);

#endif /* MINIVM_FLAGS_H */
