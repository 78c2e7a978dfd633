/* files.c — see files.h. */
#include "util/files.h"

#include <stdio.h>
#include <stdlib.h>

char *orch_file_read(const char *path, size_t max)
{
    FILE *f = fopen(path, "r");
    char *buf;
    size_t n;
    if (!f)
        return NULL;
    buf = malloc(max + 1);
    n = buf ? fread(buf, 1, max, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

char *orch_file_tail(const char *path, long keep)
{
    FILE *f = fopen(path, "r"), *mem;
    char line[512], *text = NULL;
    size_t len = 0;
    long n = 0;
    if (!f)
        return NULL;
    mem = open_memstream(&text, &len);
    while (fgets(line, sizeof line, f))
        n++;
    rewind(f);
    for (long i = 0; mem && fgets(line, sizeof line, f); i++)
        if (i >= n - keep)
            fputs(line, mem);
    fclose(f);
    if (mem)
        fclose(mem);
    return text;
}
