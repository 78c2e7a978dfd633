/*
 * replay.c — run a fuzz target's entry point on files, without libFuzzer:
 * the normal test build's way to replay tests/fuzz/corpus/<target>/ and
 * tests/fuzz/regressions/<target>/ (the defaults, from the repository
 * root) or the files and folders given. Each input is read into a buffer
 * of its exact size, so a sanitizer build catches reads past its end.
 * Exit 0 when every input went through; a crash is the failure.
 */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    struct stat sb;
    uint8_t *buf;
    if (!f || fstat(fileno(f), &sb) < 0) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        if (f)
            fclose(f);
        return -1;
    }
    buf = malloc(sb.st_size ? (size_t)sb.st_size : 1);
    if (!buf || fread(buf, 1, (size_t)sb.st_size, f) != (size_t)sb.st_size) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(buf, (size_t)sb.st_size);
    free(buf);
    return 0;
}

/* Replay path (a file, or every file in a folder, sorted). Adds to *n. */
static int replay(const char *path, int *n)
{
    struct stat sb;
    struct dirent **ents;
    int k, rc = 0;
    if (stat(path, &sb) < 0) {
        fprintf(stderr, "replay: no %s\n", path);
        return -1;
    }
    if (!S_ISDIR(sb.st_mode)) {
        (*n)++;
        return replay_file(path);
    }
    k = scandir(path, &ents, NULL, alphasort);
    for (int i = 0; i < k; i++) {
        char sub[4096];
        if (ents[i]->d_name[0] != '.') {
            snprintf(sub, sizeof sub, "%s/%s", path, ents[i]->d_name);
            if (replay(sub, n) < 0)
                rc = -1;
        }
        free(ents[i]);
    }
    free(ents);
    return k < 0 ? -1 : rc;
}

int main(int argc, char **argv)
{
    const char *defaults[] = { "tests/fuzz/corpus/" FUZZ_NAME, "tests/fuzz/regressions/" FUZZ_NAME };
    int n = 0, rc = 0;
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            rc |= replay(argv[i], &n);
    } else {
        rc |= replay(defaults[0], &n);
        struct stat sb;
        if (stat(defaults[1], &sb) == 0)
            rc |= replay(defaults[1], &n);
    }
    printf("fuzz_%s: replayed %d input(s)%s\n", FUZZ_NAME, n, rc ? ", some unreadable" : "");
    return rc ? 1 : 0;
}
