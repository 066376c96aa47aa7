/*
 * flags/print.c — -XX:+PrintFlagsFinal, -XX:+PrintFlagsInitial and
 * -XX:+PrintFlagsRanges, column for column as HotSpot prints them
 * (runtime/flags/jvmFlag.cpp: printFlags, print_on, print_kind,
 * print_origin; jvmFlagAccess.cpp: print_range).
 *
 * PrintFlagsFinal columns (0-based positions, as HotSpot's outputStream counts):
 *
 *       bool UseSHA                                   = true                                      {product} {default}
 *   |         |                                       |  |                              |                    |
 *   0 type right-justified in 9                       50 " ="                           84 kind right-    105 origin
 *             10 name                                    53 value                          justified in 20
 *
 * A field that runs past the next column is followed by exactly one blank.
 */
#include "flags.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[] = {
    [FLAG_TYPE_bool] = "bool",     [FLAG_TYPE_int] = "int",       [FLAG_TYPE_uint] = "uint",
    [FLAG_TYPE_intx] = "intx",     [FLAG_TYPE_uintx] = "uintx",   [FLAG_TYPE_uint64_t] = "uint64_t",
    [FLAG_TYPE_size_t] = "size_t", [FLAG_TYPE_double] = "double", [FLAG_TYPE_ccstr] = "ccstr",
    [FLAG_TYPE_ccstrlist] = "ccstrlist",
};

/* an output stream that knows its column, like HotSpot's outputStream */
typedef struct column_out {
    FILE *f;
    size_t pos;
} column_out;

static void put(column_out *o, const char *s)
{
    fputs(s, o->f);
    o->pos += strlen(s);
}

/* fill_to_pos: blanks up to col, or one blank when the text already reaches it */
static void fill_to(column_out *o, size_t col)
{
    do {
        fputc(' ', o->f);
        o->pos++;
    } while (o->pos < col);
}

static void newline(column_out *o)
{
    fputc('\n', o->f);
    o->pos = 0;
}

void flag_format_kind(const flag_desc *d, char *buf, size_t len)
{
    static const char *const kind_names[] = {
        [FLAG_KIND_PRODUCT] = "product", [FLAG_KIND_DIAGNOSTIC] = "diagnostic",
        [FLAG_KIND_EXPERIMENTAL] = "experimental", [FLAG_KIND_DEVELOP] = "develop",
    };
    snprintf(buf, len, "{%s%s%s%s%s}", d->group & FLAG_GROUP_C1 ? "C1 " : "", d->group & FLAG_GROUP_C2 ? "C2 " : "",
             d->group & FLAG_GROUP_ARCH ? "ARCH " : "", d->group & FLAG_GROUP_PD ? "pd " : "", kind_names[d->kind]);
}

void flag_format_value(const flag_desc *d, const flag_value *v, char *buf, size_t len)
{
    switch (d->type) {
    case FLAG_TYPE_bool: snprintf(buf, len, "%s", v->v_bool ? "true" : "false"); break;
    case FLAG_TYPE_int: snprintf(buf, len, "%d", v->v_int); break;
    case FLAG_TYPE_uint: snprintf(buf, len, "%u", v->v_uint); break;
    case FLAG_TYPE_intx: snprintf(buf, len, "%" PRIdPTR, v->v_intx); break;
    case FLAG_TYPE_uintx: snprintf(buf, len, "%" PRIuPTR, v->v_uintx); break;
    case FLAG_TYPE_uint64_t: snprintf(buf, len, "%" PRIu64, v->v_uint64_t); break;
    case FLAG_TYPE_size_t: snprintf(buf, len, "%zu", v->v_size_t); break;
    case FLAG_TYPE_double: snprintf(buf, len, "%f", v->v_double); break;
    case FLAG_TYPE_ccstr:
    case FLAG_TYPE_ccstrlist: snprintf(buf, len, "%s", v->v_ccstr ? v->v_ccstr : ""); break;
    }
}

static void print_origin(column_out *o, flag_id id)
{
    switch (flag_get_origin(id)) {
    case FLAG_ORIGIN_DEFAULT: put(o, "{default}"); break;
    case FLAG_ORIGIN_COMMAND_LINE: put(o, "{command line}"); break;
    case FLAG_ORIGIN_ENVIRON: put(o, "{environment}"); break;
    case FLAG_ORIGIN_CONFIG_FILE: put(o, "{config file}"); break;
    case FLAG_ORIGIN_ERGONOMIC: put(o, flag_is_cmdline(id) ? "{command line, ergonomic}" : "{ergonomic}"); break;
    }
}

static void print_kind(column_out *o, const flag_desc *d, int width)
{
    char kind[64], field[80];
    flag_format_kind(d, kind, sizeof kind);
    snprintf(field, sizeof field, "%*s", width, kind);
    put(o, field);
}

static void print_type(column_out *o, const flag_desc *d)
{
    char field[16];
    snprintf(field, sizeof field, "%9s", type_names[d->type]);
    put(o, field);
}

/* JVMFlagAccess::print_range: "[ min ... max ]" in 25-character halves */
static void print_range(column_out *o, const flag_desc *d)
{
    char r[160];
    if (!d->has_range) {
        snprintf(r, sizeof r, "[                           ...                           ]");
    } else {
        switch (d->type) {
        case FLAG_TYPE_int: snprintf(r, sizeof r, "[ %-25d ... %25d ]", d->min.v_int, d->max.v_int); break;
        case FLAG_TYPE_uint: snprintf(r, sizeof r, "[ %-25u ... %25u ]", d->min.v_uint, d->max.v_uint); break;
        case FLAG_TYPE_intx:
            snprintf(r, sizeof r, "[ %-25" PRIdPTR " ... %25" PRIdPTR " ]", d->min.v_intx, d->max.v_intx);
            break;
        case FLAG_TYPE_uintx:
            snprintf(r, sizeof r, "[ %-25" PRIuPTR " ... %25" PRIuPTR " ]", d->min.v_uintx, d->max.v_uintx);
            break;
        case FLAG_TYPE_uint64_t:
            snprintf(r, sizeof r, "[ %-25" PRIu64 " ... %25" PRIu64 " ]", d->min.v_uint64_t, d->max.v_uint64_t);
            break;
        case FLAG_TYPE_size_t:
            snprintf(r, sizeof r, "[ %-25zu ... %25zu ]", d->min.v_size_t, d->max.v_size_t);
            break;
        case FLAG_TYPE_double:
            snprintf(r, sizeof r, "[ %-25.3f ... %25.3f ]", d->min.v_double, d->max.v_double);
            break;
        default: r[0] = '\0'; break;
        }
    }
    put(o, r);
}

/* JVMFlag::print_on */
/* "Name" at column 10, the operator (" =", or "+=" continuing a ccstrlist) at 50, the
   value from 53 */
static void put_name_op(column_out *o, const flag_desc *d, const char *op)
{
    fill_to(o, 10);
    put(o, d->name);
    fill_to(o, 50);
    put(o, op);
    fill_to(o, 53);
}

/* the line's end: the kind at column kind_col (kind_width wide), the origin at origin_col */
static void put_kind_origin(column_out *o, const flag_desc *d, flag_id id, size_t kind_col, int kind_width,
                            size_t origin_col)
{
    fill_to(o, kind_col);
    print_kind(o, d, kind_width);
    fill_to(o, origin_col);
    print_origin(o, id);
    newline(o);
}

static void print_flag(FILE *f, flag_id id, bool ranges)
{
    const flag_desc *d = &flag_descs[id];
    column_out o = {f, 0};
    if (!ranges) {
        print_type(&o, d);
        put_name_op(&o, d, " =");
        flag_value v;
        flag_value_load(id, &v);
        if (d->type == FLAG_TYPE_ccstr || d->type == FLAG_TYPE_ccstrlist) {
            /* one line per setting: "Name += value" continues a ccstrlist */
            const char *cp = v.v_ccstr ? v.v_ccstr : "";
            const char *eol;
            while ((eol = strchr(cp, '\n')) != NULL) {
                fwrite(cp, 1, (size_t)(eol - cp), f);
                newline(&o);
                put_name_op(&o, d, "+=");
                cp = eol + 1;
            }
            put(&o, cp);
        } else {
            char value[64];
            flag_format_value(d, &v, value, sizeof value);
            put(&o, value);
        }
        put_kind_origin(&o, d, id, 84, 20, 105);
    } else if (d->type != FLAG_TYPE_bool && d->type != FLAG_TYPE_ccstr && d->type != FLAG_TYPE_ccstrlist) {
        print_type(&o, d);
        fill_to(&o, 10);
        put(&o, d->name);
        fill_to(&o, 61);
        print_range(&o, d);
        put_kind_origin(&o, d, id, 122, 35, 158);
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(flag_descs[*(const flag_id *)a].name, flag_descs[*(const flag_id *)b].name);
}

void flags_print(FILE *f, bool ranges)
{
    fputs(ranges ? "[Global flags ranges]\n" : "[Global flags]\n", f);
    flag_id ids[FLAG_COUNT];
    size_t n = 0;
    for (int id = 0; id < FLAG_COUNT; id++)
        /* develop flags are constants in a product build: HotSpot never lists them */
        if (flag_exists((flag_id)id) && flag_is_unlocked((flag_id)id) && flag_descs[id].kind != FLAG_KIND_DEVELOP)
            ids[n++] = (flag_id)id;
    qsort(ids, n, sizeof ids[0], by_name);
    for (size_t i = 0; i < n; i++)
        print_flag(f, ids[i], ranges);
}
