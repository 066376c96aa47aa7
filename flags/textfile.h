/*
 * flags/textfile.h — reading a whole input file, with a size limit.
 *
 * Everything minivm reads whole goes through here: program and module files
 * (vm/loader.c), settings files (-XX:Flags=), /proc/cpuinfo texts
 * (-XX:CPUInfoFile=). Pipes, /proc files and devices have no size, so a file
 * is read to end of file, and a limit keeps `minivm /dev/zero` from growing
 * without bound: past it, reading stops with EFBIG. Each caller names its
 * own limit and turns the error into its message (docs/cli.md, "Limits").
 */
#ifndef MINIVM_FLAGS_TEXTFILE_H
#define MINIVM_FLAGS_TEXTFILE_H

#include <stddef.h>

/*
 * The file's bytes in a malloc'ed buffer with a NUL after them (the text may
 * hold NULs of its own: *len counts every byte). NULL on failure, with *err
 * set to an errno value: the open's or read's (ENOENT, EACCES, EISDIR ...),
 * ENOMEM, or EFBIG when the file holds more than limit bytes.
 */
char *textfile_read(const char *path, size_t limit, size_t *len, int *err);

/* "16 MiB", "1 MiB", "512 KiB", "100 bytes": a limit for messages. */
const char *textfile_size_text(size_t bytes, char *buf, size_t len);

#endif
