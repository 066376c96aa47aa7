/*
 * flags/textfile.c — see textfile.h.
 */
#include "textfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *textfile_read(const char *path, size_t limit, size_t *len, int *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err = errno;
        return NULL;
    }
    size_t cap = 4096, n = 0;
    char *buf = NULL;
    for (;;) {
        /* room for one byte past the limit: reading it proves the file is too long */
        if (limit < (size_t)-1 && cap > limit + 1)
            cap = limit + 1;
        char *grown = realloc(buf, cap + 1);
        if (!grown) {
            *err = ENOMEM;
            break;
        }
        buf = grown;
        n += fread(buf + n, 1, cap - n, f);
        if (ferror(f)) {
            *err = errno ? errno : EIO;
            break;
        }
        if (n > limit) {
            *err = EFBIG;
            break;
        }
        if (n < cap) { /* end of file */
            fclose(f);
            buf[n] = '\0';
            *len = n;
            return buf;
        }
        cap = cap > ((size_t)-1) / 4 ? cap + 1 : cap * 2;
    }
    free(buf);
    fclose(f);
    return NULL;
}

const char *textfile_size_text(size_t bytes, char *buf, size_t len)
{
    if (bytes >= ((size_t)1 << 20) && bytes % ((size_t)1 << 20) == 0)
        snprintf(buf, len, "%zu MiB", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, len, "%zu KiB", bytes >> 10);
    else
        snprintf(buf, len, "%zu bytes", bytes);
    return buf;
}
