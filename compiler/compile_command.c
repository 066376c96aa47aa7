/*
 * compiler/compile_command.c — -XX:CompileCommand (compile_command.h), with HotSpot 25's
 * texts (CompilerOracle::parse_from_line).
 */
#include "compile_command.h"

#include <stdlib.h>
#include <string.h>

static const char *const option_names[CC_NOPTIONS] = {"exclude", "print", "compileonly"};

static void usage_error(FILE *out, const char *line, const char *fmt, const char *arg)
{
    fputs("CompileCommand: An error occurred during parsing\nError: ", out);
    fprintf(out, fmt, arg);
    fprintf(out,
            "\nLine: '%s'\n"
            "\n"
            "Usage: '-XX:CompileCommand=<option>,<method pattern>' - to set boolean option to true\n"
            "Usage: '-XX:CompileCommand=<option>,<method pattern>,<value>'\n"
            "Use:   '-XX:CompileCommand=help' for more information and to list all option.\n"
            "\n",
            line);
}

/* one part of a pattern: characters of a name, with '*' only at its ends */
static bool part_ok(const char *p, size_t n)
{
    if (n == 0 || n >= sizeof ((compile_command *)0)->module)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c == '*' ? (i != 0 && i != n - 1) : !(c == '_' || c == '$' || (c >= '0' && c <= '9') ||
                                                   (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')))
            return false;
    }
    return true;
}

static bool parse_line(compile_commands *cc, const char *line, FILE *out)
{
    /* OPTION, then ',' or ' ', then PATTERN, then (for a bool option) nothing */
    size_t olen = strcspn(line, ", ");
    char option[64];
    snprintf(option, sizeof option, "%.*s", (int)(olen < 63 ? olen : 63), line);
    if (strcmp(option, "quiet") == 0) {
        cc->quiet = true;
        return true;
    }
    int opt = -1;
    for (int o = 0; o < CC_NOPTIONS; o++)
        if (strcmp(option, option_names[o]) == 0)
            opt = o;
    if (opt < 0) {
        usage_error(out, line, "Unrecognized option '%s'", option);
        return false;
    }
    const char *pat = line + olen;
    while (*pat == ',' || *pat == ' ')
        pat++;
    if (!*pat) {
        usage_error(out, line, "Method pattern missing from command%s", "");
        return false;
    }
    size_t plen = strcspn(pat, ", ");
    const char *rest = pat + plen;
    while (*rest == ',' || *rest == ' ')
        rest++;
    if (*rest) {
        usage_error(out, line, "Value cannot be read for option '%s' of type 'bool'", option_names[opt]);
        return false;
    }
    /* Module.method or Module::method */
    const char *sep = memchr(pat, ':', plen);
    size_t mlen, skip;
    if (sep) {
        mlen = (size_t)(sep - pat);
        skip = 2;
        if (mlen + 1 >= plen || sep[1] != ':') {
            usage_error(out, line, "Could not parse method pattern%s", "");
            return false;
        }
    } else {
        sep = memchr(pat, '.', plen);
        if (!sep) {
            usage_error(out, line, "Could not parse method pattern%s", "");
            return false;
        }
        mlen = (size_t)(sep - pat);
        skip = 1;
        if (memchr(sep + 1, '.', plen - mlen - 1)) {
            usage_error(out, line, "Method pattern uses multiple '.' in pattern%s", "");
            return false;
        }
    }
    const char *meth = pat + mlen + skip;
    size_t nlen = plen - mlen - skip;
    if (!part_ok(pat, mlen) || !part_ok(meth, nlen)) {
        usage_error(out, line, "Could not parse method pattern%s", "");
        return false;
    }
    if (cc->n == cc->cap) {
        size_t cap = cc->cap ? 2 * cc->cap : 8;
        compile_command *v = realloc(cc->v, cap * sizeof *v);
        if (!v) {
            usage_error(out, line, "%s", "out of memory");
            return false;
        }
        cc->v = v;
        cc->cap = cap;
    }
    compile_command *c = &cc->v[cc->n++];
    c->option = (compile_option)opt;
    snprintf(c->module, sizeof c->module, "%.*s", (int)mlen, pat);
    snprintf(c->method, sizeof c->method, "%.*s", (int)nlen, meth);
    if (opt == CC_COMPILEONLY)
        cc->compileonly = true;
    if (!cc->quiet)
        fprintf(out, "CompileCommand: %s %s.%s bool %s = true\n", option_names[opt], c->module, c->method,
                option_names[opt]);
    return true;
}

bool compile_commands_parse(compile_commands *cc, const char *text, FILE *out)
{
    if (!text)
        return true;
    while (*text) {
        size_t n = strcspn(text, "\n");
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line - 1 ? n : sizeof line - 1), text);
        if (line[0] && !parse_line(cc, line, out))
            return false;
        text += n;
        if (*text)
            text++;
    }
    return true;
}

/* p (with '*' at either end, or alone) against s */
static bool match(const char *p, const char *s)
{
    size_t pl = strlen(p), sl = strlen(s);
    if (strcmp(p, "*") == 0)
        return true;
    bool star_start = pl && p[0] == '*', star_end = pl > 1 && p[pl - 1] == '*';
    const char *core = p + star_start;
    size_t cl = pl - star_start - star_end;
    if (star_start && star_end) {
        for (size_t i = 0; i + cl <= sl; i++)
            if (strncmp(s + i, core, cl) == 0)
                return true;
        return false;
    }
    if (star_start)
        return sl >= cl && strncmp(s + sl - cl, core, cl) == 0;
    if (star_end)
        return sl >= cl && strncmp(s, core, cl) == 0;
    return strcmp(p, s) == 0;
}

bool compile_commands_has(const compile_commands *cc, compile_option option, const char *module, const char *method)
{
    for (size_t i = cc->n; i-- > 0;)
        if (cc->v[i].option == option && match(cc->v[i].module, module) && match(cc->v[i].method, method))
            return true;
    return false;
}

bool compile_commands_excluded(const compile_commands *cc, const char *module, const char *method)
{
    if (compile_commands_has(cc, CC_EXCLUDE, module, method))
        return true;
    return cc->compileonly && !compile_commands_has(cc, CC_COMPILEONLY, module, method);
}

void compile_commands_free(compile_commands *cc)
{
    free(cc->v);
    memset(cc, 0, sizeof *cc);
}
