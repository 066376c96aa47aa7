/*
 * tests/testutil_file.c — tu_read_file and tu_capture (testutil.h), apart from the rest of
 * testutil.c so that a tool (flag_doc) or a test without the VM (test_cpu) links them without the
 * VM and cmocka.
 */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>

char *tu_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    bool failed = ferror(f);
    fclose(f);
    if (!buf || failed) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

FILE *tu_capture_open(tu_capture *c)
{
    *c = (tu_capture){0};
    c->f = open_memstream(&c->text, &c->len);
    if (!c->f) {
        perror("open_memstream");
        abort();
    }
    return c->f;
}

char *tu_capture_close(tu_capture *c)
{
    if (fclose(c->f) != 0 || !c->text) {
        perror("tu_capture_close");
        abort();
    }
    return c->text;
}
