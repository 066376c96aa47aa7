/*
 * vm/lex.c — the loader's lexer: a module's text as lines of tokens (names,
 * numbers, strings, punctuation, '->'; ';' starts a comment), and the cursor
 * the parsers read a line with. docs/format.md has the lexical rules.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "loader_impl.h"

/* Print a token for messages, bounded and with non-printables escaped. */
const char *tok_text(loader *L, const tok *t)
{
    char buf[80];
    size_t o = 0;
    const char *s = t->s;
    size_t n = t->len;
    if (t->kind == TK_NUM)
        return vm_arena_printf(L->a, "%" PRId64, t->num);
    if (t->kind == TK_PUNCT)
        return vm_arena_printf(L->a, "%c", t->punct);
    if (t->kind == TK_ARROW)
        return "->";
    if (t->kind == TK_STR)
        buf[o++] = '"';
    for (size_t i = 0; i < n && o < sizeof buf - 8; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f)
            buf[o++] = (char)c;
        else
            o += (size_t)snprintf(buf + o, sizeof buf - o, "\\x%02x", c);
    }
    if (n > 0 && o >= sizeof buf - 8)
        o += (size_t)snprintf(buf + o, sizeof buf - o, "...");
    if (t->kind == TK_STR)
        buf[o++] = '"';
    return vm_arena_strndup(L->a, buf, o);
}

/* ---- lexer ------------------------------------------------------------------------- */
static int is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'; }
static int is_ident_char(int c) { return is_ident_start(c) || (c >= '0' && c <= '9') || c == '.'; }
static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static void lex_number(loader *L, const msrc *src, uint32_t no, const char *s, size_t n, size_t *pi, tok *t)
{
    size_t i = *pi;
    int neg = 0;
    if (s[i] == '-') {
        neg = 1;
        i++;
    }
    uint64_t v = 0;
    int overflow = 0;
    size_t start = i;
    if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        start = i;
        while (i < n && hexval((unsigned char)s[i]) >= 0) {
            if (v >> 60)
                overflow = 1;
            v = (v << 4) | (uint64_t)hexval((unsigned char)s[i]);
            i++;
        }
        if (i == start)
            ld_fail(L, src, no, "malformed hexadecimal literal");
        /* hex literals are bit patterns: 0xffffffffffffffff is -1 */
        t->num = neg ? (int64_t)(0 - v) : (int64_t)v;
    } else {
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            uint64_t d = (uint64_t)(s[i] - '0');
            if (v > (UINT64_MAX - d) / 10)
                overflow = 1;
            else
                v = v * 10 + d;
            i++;
        }
        if (i == start)
            ld_fail(L, src, no, "malformed number");
        if (v > (uint64_t)INT64_MAX + (uint64_t)neg)
            overflow = 1;
        t->num = neg ? (int64_t)(0 - v) : (int64_t)v;
    }
    if (i < n && is_ident_char((unsigned char)s[i]))
        ld_fail(L, src, no, "malformed number");
    if (overflow)
        ld_fail(L, src, no, "integer literal out of range");
    t->kind = TK_NUM;
    t->s = s + *pi;
    t->len = (uint32_t)(i - *pi);
    *pi = i;
}

static void lex_string(loader *L, const msrc *src, uint32_t no, const char *s, size_t n, size_t *pi, tok *t)
{
    size_t i = *pi + 1;
    char *out = vm_arena_alloc(L->a, n - *pi + 1);
    size_t o = 0;
    for (;;) {
        if (i >= n)
            ld_fail(L, src, no, "unterminated string literal");
        char c = s[i++];
        if (c == '"')
            break;
        if (c != '\\') {
            out[o++] = c;
            continue;
        }
        if (i >= n)
            ld_fail(L, src, no, "unterminated string literal");
        c = s[i++];
        switch (c) {
        case 'n': out[o++] = '\n'; break;
        case 't': out[o++] = '\t'; break;
        case 'r': out[o++] = '\r'; break;
        case '0': out[o++] = '\0'; break;
        case '\\': out[o++] = '\\'; break;
        case '"': out[o++] = '"'; break;
        case 'x': {
            int h = i < n ? hexval((unsigned char)s[i]) : -1;
            int l = i + 1 < n ? hexval((unsigned char)s[i + 1]) : -1;
            if (h < 0 || l < 0)
                ld_fail(L, src, no, "malformed \\x escape (two hex digits expected)");
            out[o++] = (char)(h * 16 + l);
            i += 2;
            break;
        }
        default:
            ld_fail(L, src, no, "unknown escape sequence in string literal");
        }
    }
    t->kind = TK_STR;
    t->s = out;
    t->len = (uint32_t)o;
    *pi = i;
}

static void lex_line(loader *L, msrc *src, const char *s, size_t n, line *ln)
{
    uint32_t cap = 0;
    ln->t = NULL;
    ln->ntok = 0;
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == ';')
            break;
        ln->t = vm_arena_grow(L->a, ln->t, ln->ntok, &cap, sizeof *ln->t);
        tok *t = &ln->t[ln->ntok++];
        if (is_ident_start(c)) {
            size_t st = i;
            while (i < n && is_ident_char((unsigned char)s[i]))
                i++;
            t->kind = TK_IDENT;
            t->s = s + st;
            t->len = (uint32_t)(i - st);
            if (s[i - 1] == '.' || memchr(t->s, '.', t->len) == t->s)
                ld_fail(L, src, ln->no, "malformed name '%s'", tok_text(L, t));
        } else if ((c >= '0' && c <= '9') || (c == '-' && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '9')) {
            lex_number(L, src, ln->no, s, n, &i, t);
        } else if (c == '"') {
            lex_string(L, src, ln->no, s, n, &i, t);
        } else if (c == '-' && i + 1 < n && s[i + 1] == '>') {
            t->kind = TK_ARROW;
            t->s = s + i;
            t->len = 2;
            i += 2;
        } else if (strchr(",:(){}=@[]", c) && c) {
            t->kind = TK_PUNCT;
            t->punct = (char)c;
            t->s = s + i;
            t->len = 1;
            i++;
        } else if (c >= 0x20 && c < 0x7f) {
            ld_fail(L, src, ln->no, "unexpected character '%c'", c);
        } else {
            ld_fail(L, src, ln->no, "unexpected byte 0x%02x", c);
        }
    }
}

void lex_source(loader *L, msrc *src, const char *text, size_t len)
{
    uint32_t cap = 0, no = 0;
    size_t i = 0;
    while (i < len) {
        size_t e = i;
        while (e < len && text[e] != '\n')
            e++;
        no++;
        line ln = {.no = no};
        lex_line(L, src, text + i, e - i, &ln);
        if (ln.ntok) {
            src->lines = vm_arena_grow(L->a, src->lines, src->nlines, &cap, sizeof *src->lines);
            src->lines[src->nlines++] = ln;
        }
        i = e + 1;
    }
}

/* The format's keywords and built-in type names: a declaration named one could never be named back
   (a record 'int' is the type int; docs/format.md, "Reserved words"). */
int tok_is_reserved(const tok *t)
{
    static const char *const reserved[] = {"module", "import", "const", "static", "record",  "method",
                                           "native", "virtual", "abstract", "extends", "end", "var",
                                           "int",    "long",    "byte",     "void",    "Object"};
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (tok_is(t, reserved[i]))
            return 1;
    return 0;
}

/* ---- line cursor ---------------------------------------------------------------------- */
int cur_more(const cursor *c) { return c->i < c->ln->ntok; }

const tok *cur_peek(const cursor *c) { return cur_more(c) ? &c->ln->t[c->i] : NULL; }

const tok *cur_next(cursor *c, const char *what)
{
    if (!cur_more(c))
        ld_fail(c->L, c->src, c->ln->no, "expected %s at end of line", what);
    return &c->ln->t[c->i++];
}

const tok *cur_ident(cursor *c, const char *what)
{
    const tok *t = cur_next(c, what);
    if (t->kind != TK_IDENT)
        ld_fail(c->L, c->src, c->ln->no, "expected %s, got '%s'", what, tok_text(c->L, t));
    return t;
}

void cur_punct(cursor *c, char p)
{
    char what[4] = {'\'', p, '\'', 0};
    const tok *t = cur_next(c, what);
    if (!tok_punct(t, p))
        ld_fail(c->L, c->src, c->ln->no, "expected '%c', got '%s'", p, tok_text(c->L, t));
}

int cur_accept(cursor *c, char p)
{
    if (cur_more(c) && tok_punct(cur_peek(c), p)) {
        c->i++;
        return 1;
    }
    return 0;
}

void cur_end(cursor *c)
{
    if (cur_more(c))
        ld_fail(c->L, c->src, c->ln->no, "unexpected '%s' at end of line", tok_text(c->L, cur_peek(c)));
}

ptype cur_type(cursor *c)
{
    ptype t = {.line = c->ln->no};
    t.name = cur_ident(c, "a type");
    if (cur_accept(c, '[')) {
        cur_punct(c, ']');
        t.array = 1;
    }
    return t;
}
