/*
 * tests/fuzz/standalone_main.c — a driver for a libFuzzer target where there is no libFuzzer:
 * the cross build (gcc for AArch64, run under qemu-aarch64) and any build without
 * -Dfuzzing=true. It runs LLVMFuzzerTestOneInput on every file named (a directory: its files,
 * sorted), then on -runs=N inputs made from them with a fixed -seed=S: each a corpus input with
 * a few bytes changed, inserted or cut, or every few runs fresh random bytes. The same seed gives
 * the same inputs on every host. No coverage feedback (libFuzzer's job, in build-fuzz/): this
 * replays the corpus and samples around it, under the architecture the target runs on.
 *
 *   fuzz_interp_standalone [-runs=N] [-seed=S] FILE|DIR...
 *
 * A disagreement traps inside the target (it prints the program first), so the exit status is
 * the test's verdict; on success it prints how many inputs ran.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT 4096
#define MAX_CORPUS 1024

typedef struct input {
    uint8_t *data;
    size_t size;
} input;

static input corpus[MAX_CORPUS];
static size_t ncorpus;

static uint64_t rng;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz standalone: cannot open %s\n", path);
        return -1;
    }
    uint8_t *buf = malloc(MAX_INPUT);
    size_t n = buf ? fread(buf, 1, MAX_INPUT, f) : 0;
    fclose(f);
    if (!buf || ncorpus == MAX_CORPUS) {
        free(buf);
        fprintf(stderr, "fuzz standalone: too many inputs (or no memory) at %s\n", path);
        return -1;
    }
    corpus[ncorpus++] = (input){buf, n};
    return 0;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* a file, or a directory's regular files in name order */
static int add_path(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return read_file(path);
    char *names[MAX_CORPUS];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < MAX_CORPUS)
        if (e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof names[0], by_name);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char full[4096];
        snprintf(full, sizeof full, "%s/%s", path, names[i]);
        if (rc == 0)
            rc = read_file(full);
        free(names[i]);
    }
    return rc;
}

int main(int argc, char **argv)
{
    long runs = 0;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "-runs=", 6) == 0)
            runs = strtol(argv[i] + 6, NULL, 10);
        else if (strncmp(argv[i], "-seed=", 6) == 0)
            seed = strtoull(argv[i] + 6, NULL, 10);
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: %s [-runs=N] [-seed=S] FILE|DIR...\n", argv[0]);
            return 2;
        } else if (add_path(argv[i]) != 0)
            return 2;
    }
    rng = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < ncorpus; i++)
        LLVMFuzzerTestOneInput(corpus[i].data, corpus[i].size);
    static uint8_t buf[MAX_INPUT];
    for (long r = 0; r < runs; r++) {
        size_t n;
        if (ncorpus == 0 || r % 8 == 7) { /* fresh random bytes */
            n = 16 + next() % 496;
            for (size_t k = 0; k < n; k++)
                buf[k] = (uint8_t)next();
        } else { /* a corpus input, a few bytes changed, inserted or cut */
            const input *in = &corpus[next() % ncorpus];
            n = in->size;
            memcpy(buf, in->data, n);
            for (int edits = 1 + (int)(next() % 4); edits > 0; edits--) {
                size_t at = n ? next() % n : 0;
                switch (next() % 3) {
                case 0:
                    if (n)
                        buf[at] = (uint8_t)next();
                    break;
                case 1:
                    if (n < MAX_INPUT) {
                        memmove(buf + at + 1, buf + at, n - at);
                        buf[at] = (uint8_t)next();
                        n++;
                    }
                    break;
                default:
                    if (n > 1) {
                        memmove(buf + at, buf + at + 1, n - at - 1);
                        n--;
                    }
                    break;
                }
            }
        }
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("fuzz standalone: %zu corpus inputs and %ld generated (seed %llu), every outcome agreed\n", ncorpus,
           runs, seed);
    for (size_t i = 0; i < ncorpus; i++)
        free(corpus[i].data);
    return 0;
}
