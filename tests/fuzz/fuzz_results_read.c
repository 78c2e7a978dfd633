/*
 * fuzz_results_read.c — the result readers (common/results_oltp.c,
 * common/results_summary.c, common/results_sweep.c) on any file, as a guest's result file or a
 * run folder's summary.json would reach them.
 *
 * Both readers return 0 or a refusal with one line (no newline) naming the
 * file, and leave the struct empty on refusal. An oltp result they accept
 * holds what the aggregation relies on: a measure phase with a histogram,
 * duration_s > 0, no negative count, histogram counts within bounds. It is
 * also written back and read again (the writer must produce what the
 * reader accepts).
 */
#include "fuzz.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "results_sweep.h"
#include "results_summary.h"

static void check_refusal(int rc, const char *err, const char *path)
{
    if (rc == 0)
        return;
    if (!*err || strchr(err, '\n') || strncmp(err, path, strlen(path)) != 0)
        fuzz_fail("refusal is not one line naming the file: \"%s\"", err);
}

static void check_oltp(const res_oltp *r)
{
    const res_phase *m = res_oltp_measure(r);
    if (!m || !m->histogram)
        fuzz_fail("accepted a result without a measure phase and its histogram");
    if (!(m->duration_s > 0) || m->transactions < 0 || !isfinite(m->tps))
        fuzz_fail("accepted a measure phase with duration %g, %lld transactions, tps %g",
                  m->duration_s, (long long)m->transactions, m->tps);
    if (m->histogram->total < 0 || m->histogram->max > m->histogram->highest)
        fuzz_fail("accepted a histogram of %lld values, max %lld",
                  (long long)m->histogram->total, (long long)m->histogram->max);
    for (int i = 1; i < m->nintervals; i++)
        if (m->intervals[i].t < m->intervals[i - 1].t)
            fuzz_fail("accepted intervals going backwards");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char out[64];
    const char *path = fuzz_file(data, size);
    char err[1024] = "";
    res_oltp r, again;
    res_summary s;
    res_sweep w;
    int rc;

    rc = res_oltp_read_file(path, &r, err, sizeof err);
    check_refusal(rc, err, path);
    if (rc == 0) {
        check_oltp(&r);
        if (!*out)
            snprintf(out, sizeof out, "/tmp/fuzz-results-read-%d.json", (int)getpid());
        if (res_oltp_write_file(&r, out, err, sizeof err) < 0)
            fuzz_fail("cannot write back an accepted result: %s", err);
        if (res_oltp_read_file(out, &again, err, sizeof err) < 0)
            fuzz_fail("an accepted result, written back, is refused: %s", err);
        res_oltp_clear(&again);
        unlink(out);
    } else if (r.nphases || r.phases) {
        fuzz_fail("refusal left phases behind");
    }
    res_oltp_clear(&r);

    err[0] = '\0';
    rc = res_summary_read_file(path, &s, err, sizeof err);
    check_refusal(rc, err, path);
    res_summary_clear(&s);

    /* a sweep's sweep.json (issue 34): accepted, its steps and drives
     * within their counts */
    err[0] = '\0';
    rc = res_sweep_read_file(path, &w, err, sizeof err);
    check_refusal(rc, err, path);
    for (int i = 0; rc == 0 && i < w.nsteps; i++)
        if (w.steps[i].ndrives < 0 || (w.steps[i].ndrives && !w.steps[i].drives))
            fuzz_fail("accepted a sweep step with %d drives and no array", w.steps[i].ndrives);
    res_sweep_clear(&w);
    return 0;
}
