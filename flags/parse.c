/*
 * flags/parse.c — -XX options: HotSpot's parser with HotSpot's messages
 * (see flags.h).
 *
 * HotSpot models: runtime/arguments.cpp (parse_argument, process_argument,
 * process_settings_file, parse_options_buffer, atojulong, set_*_flag),
 * runtime/flags/jvmFlag.cpp (get_locked_message) and jvmFlagAccess.cpp
 * (range_error). The order of the tests below is HotSpot's, so the same
 * mistake gets the same message.
 */
#include "flags.h"
#include "textfile.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- strings owned by flags --------------------------------------------------------------- */

/*
 * ccstr values set by options are copies. A flag may be set many times while
 * the VM starts, and ergonomics may store string literals with
 * FLAG_SET_DEFAULT, so nobody knows whether to free the old value: the copies
 * stay in this list (still reachable, so leak checkers stay quiet) until exit.
 */
typedef struct flag_string {
    struct flag_string *next;
    char s[];
} flag_string;

static flag_string *flag_strings;

static const char *flag_strdup(const char *s, size_t len)
{
    flag_string *fs = malloc(sizeof *fs + len + 1);
    if (!fs) {
        fputs("minivm: out of memory\n", stderr);
        exit(1);
    }
    memcpy(fs->s, s, len);
    fs->s[len] = '\0';
    fs->next = flag_strings;
    flag_strings = fs;
    return fs->s;
}

/* ---- setting one flag ----------------------------------------------------------------------- */

#define BUFLEN 255 /* HotSpot's longest flag name in an option */

static void range_error(const flag_desc *d, const flag_value *v, FILE *err)
{
    switch (d->type) {
    case FLAG_TYPE_int:
        fprintf(err, "int %s=%d is outside the allowed range [ %d ... %d ]\n", d->name, v->v_int, d->min.v_int,
                d->max.v_int);
        break;
    case FLAG_TYPE_uint:
        fprintf(err, "uint %s=%u is outside the allowed range [ %u ... %u ]\n", d->name, v->v_uint, d->min.v_uint,
                d->max.v_uint);
        break;
    case FLAG_TYPE_intx:
        fprintf(err, "intx %s=%jd is outside the allowed range [ %jd ... %jd ]\n", d->name, (intmax_t)v->v_intx,
                (intmax_t)d->min.v_intx, (intmax_t)d->max.v_intx);
        break;
    case FLAG_TYPE_uintx:
        fprintf(err, "uintx %s=%ju is outside the allowed range [ %ju ... %ju ]\n", d->name, (uintmax_t)v->v_uintx,
                (uintmax_t)d->min.v_uintx, (uintmax_t)d->max.v_uintx);
        break;
    case FLAG_TYPE_uint64_t:
        fprintf(err, "uint64_t %s=%ju is outside the allowed range [ %ju ... %ju ]\n", d->name,
                (uintmax_t)v->v_uint64_t, (uintmax_t)d->min.v_uint64_t, (uintmax_t)d->max.v_uint64_t);
        break;
    case FLAG_TYPE_size_t:
        fprintf(err, "size_t %s=%zu is outside the allowed range [ %zu ... %zu ]\n", d->name, v->v_size_t,
                d->min.v_size_t, d->max.v_size_t);
        break;
    case FLAG_TYPE_double:
        fprintf(err, "double %s=%f is outside the allowed range [ %f ... %f ]\n", d->name, v->v_double,
                d->min.v_double, d->max.v_double);
        break;
    default: break;
    }
}

/* JVMFlagAccess::set: the range check (verbose while parsing), then the value and its origin */
static bool set_checked(flag_id id, const flag_value *v, flag_origin origin, FILE *err)
{
    if (!flag_in_range(id, v)) {
        range_error(&flag_descs[id], v, err);
        return false;
    }
    flag_value_store(id, v);
    flag_set_origin(id, origin);
    return true;
}

static bool is_string(flag_id id)
{
    return flag_descs[id].type == FLAG_TYPE_ccstr || flag_descs[id].type == FLAG_TYPE_ccstrlist;
}

static bool set_bool_flag(flag_id id, bool b, flag_origin origin, FILE *err)
{
    if (id == FLAG_COUNT || flag_descs[id].type != FLAG_TYPE_bool)
        return false;
    flag_value v = {.v_bool = b};
    return set_checked(id, &v, origin, err);
}

static bool set_string_flag(flag_id id, const char *value, flag_origin origin)
{
    if (id == FLAG_COUNT || !is_string(id))
        return false;
    flag_value v = {.v_ccstr = value ? flag_strdup(value, strlen(value)) : NULL};
    flag_value_store(id, &v);
    flag_set_origin(id, origin);
    return true;
}

/* a ccstrlist: each setting adds a line */
static bool append_to_string_flag(flag_id id, const char *value, flag_origin origin)
{
    flag_value old;
    flag_value_load(id, &old);
    size_t old_len = old.v_ccstr ? strlen(old.v_ccstr) : 0, new_len = strlen(value);
    if (old_len == 0 || new_len == 0)
        return set_string_flag(id, old_len == 0 ? value : old.v_ccstr, origin);
    char *joined = malloc(old_len + 1 + new_len + 1);
    if (!joined)
        return false;
    memcpy(joined, old.v_ccstr, old_len);
    joined[old_len] = '\n';
    memcpy(joined + old_len + 1, value, new_len + 1);
    bool ok = set_string_flag(id, joined, origin);
    free(joined);
    return ok;
}

bool flag_parse_julong(const char *s, uint64_t *out)
{
    if (!isdigit((unsigned char)*s))
        return false; /* no sign, no leading space */
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    char *rest;
    errno = 0;
    unsigned long long n = strtoull(s, &rest, hex ? 16 : 10);
    if (errno != 0 || rest == s || strlen(rest) > 1)
        return false;
    unsigned shift;
    switch (*rest) {
    case '\0': *out = n; return true;
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: return false;
    }
    if (n > (UINT64_MAX >> shift))
        return false;
    *out = (uint64_t)n << shift;
    return true;
}

/* HotSpot's set_numeric_flag: an optional '-' (int and intx only), then atojulong */
static bool set_numeric_flag(flag_id id, const char *value, flag_origin origin, FILE *err)
{
    if (id == FLAG_COUNT)
        return false;
    flag_type t = flag_descs[id].type;
    bool neg = false;
    if (*value == '-') {
        if (t != FLAG_TYPE_intx && t != FLAG_TYPE_int)
            return false;
        neg = true;
        value++;
    }
    uint64_t n;
    if (!flag_parse_julong(value, &n))
        return false;
    /* HotSpot 25's parse_integer<T>: a value the flag's C type cannot hold is not a value of
       it (Improperly specified), where 17 truncated (4294967297 on an int was 1) */
    if ((t == FLAG_TYPE_int && n > (neg ? (uint64_t)INT_MAX + 1 : (uint64_t)INT_MAX)) ||
        (t == FLAG_TYPE_uint && n > UINT_MAX) ||
        (t == FLAG_TYPE_intx && n > (neg ? (uint64_t)INTPTR_MAX + 1 : (uint64_t)INTPTR_MAX)))
        return false;
    flag_value v;
    memset(&v, 0, sizeof v);
    switch (t) {
    case FLAG_TYPE_int: v.v_int = neg ? (int)(-(int64_t)n) : (int)n; break;
    case FLAG_TYPE_uint: v.v_uint = (uint)n; break;
    case FLAG_TYPE_intx: v.v_intx = neg ? (n == (uint64_t)INTPTR_MAX + 1 ? INTPTR_MIN : -(intx)n) : (intx)n; break;
    case FLAG_TYPE_uintx: v.v_uintx = (uintx)n; break;
    case FLAG_TYPE_uint64_t: v.v_uint64_t = n; break;
    case FLAG_TYPE_size_t: v.v_size_t = (size_t)n; break;
    case FLAG_TYPE_double: v.v_double = (double)n; break;
    default: return false;
    }
    return set_checked(id, &v, origin, err);
}

static bool set_fp_numeric_flag(flag_id id, const char *value, flag_origin origin, FILE *err)
{
    char *end;
    errno = 0;
    double d = strtod(value, &end);
    if (errno != 0 || *end != '\0' || id == FLAG_COUNT || flag_descs[id].type != FLAG_TYPE_double)
        return false;
    flag_value v = {.v_double = d};
    return set_checked(id, &v, origin, err);
}

/* ---- the syntax ----------------------------------------------------------------------------- */

/* length of the run of characters of s in set */
static size_t span(const char *s, const char *set)
{
    return strspn(s, set);
}

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

/*
 * HotSpot's parse_argument, its sscanf patterns spelled out: "+Name", "-Name",
 * "Name=string" (ccstr), "Name:=string", "Name=1.5" (double), "Name=number"
 * (digits, hex, k/m/g/t). Only unlocked flags are found here; a locked or
 * unknown one fails, and process_argument says why.
 */
static bool parse_argument(const char *arg, flag_origin origin, FILE *err)
{
    if (arg[0] == '-' || arg[0] == '+') {
        size_t n = span(arg + 1, NAME_CHARS);
        if (n == 0 || n > BUFLEN || arg[1 + n] != '\0')
            return false;
        return set_bool_flag(flag_find(arg + 1, n, false), arg[0] == '+', origin, err);
    }
    size_t n = span(arg, NAME_CHARS);
    if (n == 0 || n > BUFLEN)
        return false;
    flag_id id = flag_find(arg, n, false);
    const char *p = arg + n;
    if (p[0] == '=' && id != FLAG_COUNT && is_string(id)) {
        const char *value = p + 1;
        if (flag_descs[id].type == FLAG_TYPE_ccstrlist)
            return append_to_string_flag(id, value, origin);
        return set_string_flag(id, value[0] ? value : NULL, origin);
    }
    if (p[0] == ':' && p[1] == '=') /* -XX:Foo:=xxx resets a string flag */
        return set_string_flag(id, p[2] ? p + 2 : NULL, origin);
    if (p[0] != '=')
        return false;
    const char *value = p + 1;
    /* "%[-0-9].%[0-9eE+-]" and nothing else: looks like a floating-point number */
    size_t a = span(value, "-0123456789");
    if (a >= 1 && a <= BUFLEN && value[a] == '.') {
        size_t b = span(value + a + 1, "0123456789eE+-");
        if (b >= 1 && b <= BUFLEN && value[a + 1 + b] == '\0')
            return set_fp_numeric_flag(id, value, origin, err);
    }
    size_t c = span(value, "-kmgtxKMGTX0123456789abcdefABCDEF");
    if (c >= 1 && c <= BUFLEN && value[c] == '\0')
        return set_numeric_flag(id, value, origin, err);
    return false;
}

bool flag_process_argument(const char *arg, bool ignore_unrecognized, flag_origin origin, FILE *err)
{
    if (parse_argument(arg, origin, err))
        return true;

    bool has_plus_minus = arg[0] == '+' || arg[0] == '-';
    const char *argname = has_plus_minus ? arg + 1 : arg;
    const char *eq = strchr(argname, '=');
    size_t arg_len = eq ? (size_t)(eq - argname) : strlen(argname);

    /* a flag that exists, used wrongly or still locked: the lock's message if any, then (as
       HotSpot 25 does, where 17 stopped after the lock's lines) what was wrong with the option */
    flag_id id = flag_find(argname, arg_len, true);
    if (id != FLAG_COUNT) {
        const flag_desc *d = &flag_descs[id];
        if (d->kind == FLAG_KIND_DIAGNOSTIC && !flag_is_unlocked(id)) {
            fprintf(err,
                    "Error: VM option '%s' is diagnostic and must be enabled via -XX:+UnlockDiagnosticVMOptions.\n"
                    "Error: The unlock option must precede '%s'.\n",
                    d->name, d->name);
        } else if (d->kind == FLAG_KIND_EXPERIMENTAL && !flag_is_unlocked(id)) {
            fprintf(err,
                    "Error: VM option '%s' is experimental and must be enabled via "
                    "-XX:+UnlockExperimentalVMOptions.\n"
                    "Error: The unlock option must precede '%s'.\n",
                    d->name, d->name);
        } else if (d->kind == FLAG_KIND_DEVELOP) {
            if (ignore_unrecognized)
                return true;
            fprintf(err, "Error: VM option '%s' is develop and is available only in debug version of VM.\n",
                    d->name);
        }
        if (d->type == FLAG_TYPE_bool && !has_plus_minus)
            fprintf(err, "Missing +/- setting for VM option '%s'\n", argname);
        else if (d->type != FLAG_TYPE_bool && has_plus_minus)
            fprintf(err, "Unexpected +/- setting in VM option '%s'\n", argname);
        else
            fprintf(err, "Improperly specified VM option '%s'\n", argname);
    } else {
        if (ignore_unrecognized)
            return true;
        fprintf(err, "Unrecognized VM option '%s'\n", argname);
        flag_id guess = flag_fuzzy_match(argname, arg_len);
        if (guess != FLAG_COUNT) {
            bool is_bool = flag_descs[guess].type == FLAG_TYPE_bool;
            fprintf(err, "Did you mean '%s%s%s'?\n", is_bool ? "(+/-)" : "", flag_descs[guess].name,
                    is_bool ? "" : "=<value>");
        }
    }
    /* HotSpot lets "-XX:#Foo" comment an option out (after saying so) */
    return arg[0] == '#';
}

/* ---- option lists --------------------------------------------------------------------------- */

void flag_tokens_free(flag_tokens *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->v[i]);
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

static int tokens_add(flag_tokens *t, const char *s, size_t len)
{
    char **v = realloc(t->v, (t->n + 1) * sizeof *v);
    if (!v)
        return -1;
    t->v = v;
    if (!(v[t->n] = malloc(len + 1)))
        return -1;
    memcpy(v[t->n], s, len);
    v[t->n][len] = '\0';
    t->n++;
    return 0;
}

int flag_split_options(const char *s, flag_tokens *out)
{
    out->v = NULL;
    out->n = 0;
    size_t cap = strlen(s) + 1;
    char *tok = malloc(cap);
    if (!tok)
        return -1;
    const char *rd = s;
    for (;;) {
        while (*rd && isspace((unsigned char)*rd))
            rd++;
        if (!*rd)
            break;
        size_t len = 0;
        while (*rd && !isspace((unsigned char)*rd)) {
            if (*rd == '\'' || *rd == '"') { /* a quoted part, spaces included, quotes dropped */
                char quote = *rd++;
                while (*rd && *rd != quote)
                    tok[len++] = *rd++;
                if (!*rd) {
                    free(tok);
                    flag_tokens_free(out);
                    return -1;
                }
                rd++;
            } else {
                tok[len++] = *rd++;
            }
        }
        if (tokens_add(out, tok, len) != 0) {
            free(tok);
            flag_tokens_free(out);
            return -1;
        }
    }
    free(tok);
    return 0;
}

int flag_read_settings_file(const char *path, flag_tokens *out)
{
    out->v = NULL;
    out->n = 0;
    size_t len = 0;
    int e = 0;
    char *text = textfile_read(path, FLAG_SETTINGS_FILE_MAX, &len, &e);
    if (!text && e == EFBIG)
        return -2;
    if (!text && e != EISDIR) /* HotSpot fopen()s a directory and reads no token from it */
        return -1;
    /* HotSpot's process_settings_file, to the letter: a token is at most
       1023 characters, and one that long ends the file */
    char token[1024];
    int pos = 0;
    bool in_white_space = true, in_comment = false, in_quote = false;
    int quote_c = 0;
    for (size_t at = 0; text && at < len && pos < (int)sizeof token - 1; at++) {
        int c = (unsigned char)text[at];
        if (in_white_space) {
            if (in_comment) {
                if (c == '\n')
                    in_comment = false;
            } else if (c == '#') {
                in_comment = true;
            } else if (!isspace(c)) {
                in_white_space = false;
                token[pos++] = (char)c;
            }
        } else if (c == '\n' || (!in_quote && isspace(c))) {
            tokens_add(out, token, (size_t)pos);
            pos = 0;
            in_white_space = true;
            in_quote = false;
        } else if (!in_quote && (c == '\'' || c == '"')) {
            in_quote = true;
            quote_c = c;
        } else if (in_quote && c == quote_c) {
            in_quote = false;
        } else {
            token[pos++] = (char)c;
        }
    }
    if (pos > 0)
        tokens_add(out, token, (size_t)pos);
    free(text);
    return 0;
}
