/*
 * fuzz_util.h - what the libFuzzer harnesses (tests/fuzz/fuzz_*.c) share:
 * a private scratch directory for readers that only take paths, writing
 * one input into a file there, and FUZZ_CHECK, which aborts on a broken
 * contract so that libFuzzer records the input as a crash.  (make fuzz
 * closes the targets' stdout and stderr, so its log shows the abort's stack
 * trace; replaying the input, build-fuzz/tests/fuzz/fuzz_NAME FILE, also
 * prints the failed check.)
 *
 * The scratch directory is $SHARDSCOPE_FUZZ_TMP when set (make fuzz gives
 * each target one under build-fuzz/), else a new mkdtemp directory under
 * $TMPDIR or /tmp.  Everything here is header-only: each harness is one
 * translation unit linked against the sanitized library.
 */
#ifndef SHARDSCOPE_FUZZ_UTIL_H
#define SHARDSCOPE_FUZZ_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FUZZ_CHECK(cond)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            fprintf(stderr, "fuzz: check failed: %s (%s:%d)\n", #cond,     \
                    __FILE__, __LINE__);                                   \
            abort();                                                       \
        }                                                                  \
    } while (0)

/* Every harness defines both (replay.c calls them too). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch directory (created once; the process keeps it).  Aborts
 * when it cannot be created: nothing could be fuzzed. */
static inline const char *fuzz_scratch_dir(void)
{
    static char dir[1024];
    if (dir[0])
        return dir;
    const char *env = getenv("SHARDSCOPE_FUZZ_TMP");
    if (env && env[0]) {
        snprintf(dir, sizeof dir, "%s", env);
        mkdir(dir, 0700);
        struct stat st;
        FUZZ_CHECK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
        return dir;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/shardscope-fuzz.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    FUZZ_CHECK(mkdtemp(dir) != NULL);
    return dir;
}

/* Write data[0..size) to path, replacing it.  Aborts on failure. */
static inline void fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(size == 0 || fwrite(data, 1, size, f) == size);
    FUZZ_CHECK(fclose(f) == 0);
}

/* 1 when s[0..cap) holds a NUL-terminated, one-line, non-empty message. */
static inline int fuzz_is_message(const char *s, size_t cap)
{
    size_t n = strnlen(s, cap);
    return n > 0 && n < cap && !memchr(s, '\n', n);
}

#endif /* SHARDSCOPE_FUZZ_UTIL_H */
