/*
 * replay.c - runs a libFuzzer harness without libFuzzer: every file given
 * (or in a directory given) goes once through LLVMFuzzerTestOneInput.
 * Linked with each tests/fuzz/fuzz_NAME.c as BUILD/tests/fuzz/replay_NAME,
 * it is one of make test's programs: with no arguments it replays the seed
 * corpus tests/fuzz/corpus/NAME (NAME from its own file name), so every
 * seed and every regression input kept there runs under each build of the
 * tests, the sanitizer builds of make asan included.  Exit 1 when a file
 * cannot be read or the corpus is empty; a failed check aborts.
 */
#include <dirent.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, n = 0, got;
    uint8_t *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(buf);
        return -1;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file, or the files of a directory in name order; adds to *count. */
static int replay_path(const char *path, int *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return replay_file(path);
    }
    struct dirent **names;
    int n = scandir(path, &names, NULL, NULL), rc = 0;
    if (n < 0) {
        perror(path);
        return -1;
    }
    char **files = calloc((size_t)n + 1, sizeof *files);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (files && names[i]->d_name[0] != '.') {
            size_t len = strlen(path) + strlen(names[i]->d_name) + 2;
            if ((files[k] = malloc(len)) != NULL)
                snprintf(files[k++], len, "%s/%s", path, names[i]->d_name);
        }
        free(names[i]);
    }
    free(names);
    if (!files)
        return -1;
    qsort(files, (size_t)k, sizeof *files, cmp_names);
    for (int i = 0; i < k; i++) {
        if (replay_path(files[i], count) != 0)
            rc = -1;
        free(files[i]);
    }
    free(files);
    return rc;
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(p);
}

int main(int argc, char **argv)
{
    const char *base = strrchr(argv[0], '/');
    base = base ? base + 1 : argv[0];
    const char *name = strncmp(base, "replay_", 7) ? base : base + 7;
    /* The harnesses' scratch files go to a directory removed at the end. */
    const char *tmp = getenv("TMPDIR");
    char scratch[1024];
    snprintf(scratch, sizeof scratch, "%s/shardscope-replay.XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(scratch)) {
        perror(scratch);
        return 1;
    }
    setenv("SHARDSCOPE_FUZZ_TMP", scratch, 1);
    LLVMFuzzerInitialize(&argc, &argv);
    int count = 0, rc = 0;
    char corpus[512];
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            if (replay_path(argv[i], &count) != 0)
                rc = 1;
    } else {
        snprintf(corpus, sizeof corpus, "tests/fuzz/corpus/%s", name);
        if (replay_path(corpus, &count) != 0)
            rc = 1;
    }
    nftw(scratch, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    if (count == 0) {
        fprintf(stderr, "replay %s: no inputs\n", name);
        return 1;
    }
    printf("replay %s: %d inputs, %s\n", name, count, rc ? "FAILED" : "ok");
    return rc;
}
