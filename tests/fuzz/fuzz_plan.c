/*
 * fuzz_plan.c — the plan parser (orchestrator/plan/plan_parse.c) on any bytes.
 *
 * Whatever the text, orch_plan_load returns a plan or NULL after
 * printing its messages, without crashing, leaking or reading out of
 * bounds. A loaded plan is also written back redacted (the run folder's
 * plan.ini): no line of the copy may still hold the password.
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    const char *path = fuzz_file(data, size);
    char err[512], copy[] = "/tmp/fuzz-plan-copy-XXXXXX", *line = NULL;
    size_t cap = 0;
    orch_plan *p;
    FILE *f;
    int fd;

    if (!devnull && !(devnull = fopen("/dev/null", "w")))
        fuzz_fail("cannot open /dev/null");
    p = orch_plan_load(path, devnull);
    if (!p)
        return 0;
    if (!p->name || !p->workload || p->ndrives < 1 || !p->db_password)
        fuzz_fail("a loaded plan lacks a required value");
    fd = mkstemp(copy);
    if (fd < 0)
        fuzz_fail("mkstemp");
    if (orch_plan_write_redacted(p, copy, err, sizeof err) < 0)
        fuzz_fail("cannot write the redacted copy: %s", err);
    f = fdopen(fd, "r");
    /* a password of a few characters may occur elsewhere by chance: look
     * only at the lines the parser reads as db_password */
    while (f && getline(&line, &cap, f) > 0) {
        const char *k = line + strspn(line, " \t");
        if (strncmp(k, "db_password", 11) == 0 && strchr("=: \t", k[11])
            && !strstr(line, ORCH_REDACTED))
            fuzz_fail("redacted copy still has: %s", line);
    }
    free(line);
    if (f)
        fclose(f);
    unlink(copy);
    orch_plan_free(p);
    return 0;
}
