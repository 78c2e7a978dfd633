/* comparisons.c — the summary's comparisons of each pair of drives
 * (telemetry_state.h): paired batch means of their per-interval TPS and
 * p-latency, and Welch's interval over their repetitions (stats.h). */
#include "telemetry/telemetry_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "telemetry/stats.h"

/* One comparison of drives a and b appended to io->cmp. 0, or -1 when out
 * of memory. */
static int add_cmp(res_io *io, const char *a, const char *b, const char *method,
                   const orch_diff *df, int k)
{
    res_io_cmp *n = realloc(io->cmp, (size_t)(io->ncmp + 1) * sizeof *n), *c;
    if (!n)
        return -1;
    io->cmp = n;
    c = &io->cmp[io->ncmp++];
    memset(c, 0, sizeof *c);
    c->a = strdup(a);
    c->b = strdup(b);
    c->method = strdup(method);
    c->n = df->n;
    c->k = k;
    c->mean_a = df->mean_a;
    c->mean_b = df->mean_b;
    c->diff = df->diff;
    c->diff_pct = df->diff_pct;
    c->lo = df->lo;
    c->hi = df->hi;
    c->df = df->df;
    c->p_value = df->p_value;
    c->distinguishable = df->distinguishable;
    return c->a && c->b && c->method ? 0 : -1;
}

/* Paired over the n intervals both drives ran: TPS, and the p-latency of
 * the intervals where both have one. 0, or -1 when out of memory. */
static int compare_paired(res_io *io, const char *na, const char *nb, const tel_drive_acc *a,
                          const tel_drive_acc *b, int n)
{
    orch_diff df;
    double *pa, *pb;
    int m = 0, oom = 0;
    if (n <= 0)
        return 0;
    if (orch_stats_paired(a->tps, b->tps, n, 0, &df) == 0)
        oom |= add_cmp(io, na, nb, "tps_paired", &df, orch_stats_batch_size(n)) < 0;
    if (!isfinite(a->p_pct) || !isfinite(b->p_pct))
        return oom ? -1 : 0;
    pa = calloc((size_t)n, sizeof *pa);
    pb = calloc((size_t)n, sizeof *pb);
    for (int k = 0; pa && pb && k < n; k++)
        if (a->pn[k] > 0 && b->pn[k] > 0) {
            pa[m] = a->p[k] / a->pn[k];
            pb[m++] = b->p[k] / b->pn[k];
        }
    if (pa && pb && orch_stats_paired(pa, pb, m, 0, &df) == 0)
        oom |= add_cmp(io, na, nb, "p99_paired", &df, orch_stats_batch_size(m)) < 0;
    oom |= !pa || !pb;
    free(pa);
    free(pb);
    return oom ? -1 : 0;
}

/* Welch over the repetitions of drives a and b (each with at least
 * ORCH_STATS_MIN_REPS): TPS and p99. 0, or -1 when out of memory. */
static int compare_welch(res_io *io, const res_drive *a, const res_drive *b)
{
    int ra = a->nreps, rb = b->nreps, oom = 0;
    double *ta = calloc((size_t)ra, sizeof *ta), *tb = calloc((size_t)rb, sizeof *tb);
    double *qa = calloc((size_t)ra, sizeof *qa), *qb = calloc((size_t)rb, sizeof *qb);
    orch_diff df;
    if (ta && tb && qa && qb) {
        for (int k = 0; k < ra; k++) {
            ta[k] = a->reps[k].f.tps;
            qa[k] = a->reps[k].f.lat_p99_ms;
        }
        for (int k = 0; k < rb; k++) {
            tb[k] = b->reps[k].f.tps;
            qb[k] = b->reps[k].f.lat_p99_ms;
        }
        if (orch_stats_welch(ta, ra, tb, rb, &df) == 0)
            oom |= add_cmp(io, a->name, b->name, "tps_welch", &df, 0) < 0;
        if (orch_stats_welch(qa, ra, qb, rb, &df) == 0)
            oom |= add_cmp(io, a->name, b->name, "p99_welch", &df, 0) < 0;
    } else {
        oom = 1;
    }
    free(ta);
    free(tb);
    free(qa);
    free(qb);
    return oom ? -1 : 0;
}

int tel_compare_drives(const res_summary *sum, const tel_drive_acc *acc, int reps, int nint,
                       res_io *io)
{
    int oom = 0;
    for (int a = 0; a < sum->ndrives; a++)
        for (int b = a + 1; b < sum->ndrives; b++) {
            const res_drive *da = &sum->drives[a], *db = &sum->drives[b];
            oom |= compare_paired(io, da->name, db->name, &acc[a], &acc[b], reps * nint) < 0;
            if (da->nreps >= ORCH_STATS_MIN_REPS && db->nreps >= ORCH_STATS_MIN_REPS)
                oom |= compare_welch(io, da, db) < 0;
        }
    return oom ? -1 : 0;
}
