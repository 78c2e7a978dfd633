/* timebins.c — an oltp phase's intervals on time bins (see timebins.h). */
#include "telemetry/timebins.h"

#include <math.h>

/* the last sliver of a bin that does not make one more bin, s */
#define BIN_SLIVER 1e-3

double orch_bins_width(const res_phase *p, double fallback)
{
    return p && p->interval_s > 0 ? p->interval_s : fallback;
}

int orch_bins_count(const res_phase *p, double w)
{
    double end;
    if (!p || p->nintervals == 0 || !(w > 0))
        return 0;
    end = p->intervals[p->nintervals - 1].t;
    return end > BIN_SLIVER ? (int)ceil((end - BIN_SLIVER) / w) : 0;
}

/* The bins [*k0, *k1) that [a, b] overlaps, within nbins. */
static void bins_of(double a, double b, double w, int nbins, int *k0, int *k1)
{
    *k0 = (int)floor(a / w);
    *k1 = (int)ceil(b / w);
    if (*k0 < 0)
        *k0 = 0;
    if (*k1 > nbins)
        *k1 = nbins;
}

static double overlap(double a, double b, double lo, double hi)
{
    double x = (b < hi ? b : hi) - (a > lo ? a : lo);
    return x > 0 ? x : 0;
}

void orch_bins_tps(const res_phase *p, double w, int nbins, double *tps, double *covered)
{
    for (int k = 0; k < nbins; k++) {
        tps[k] = 0;
        if (covered)
            covered[k] = 0;
    }
    for (int k = 0; k < nbins; k++) {
        double cov = 0, sum = 0;
        for (int i = 0; i < p->nintervals; i++) {
            double o = overlap(res_interval_start(p, i), p->intervals[i].t, k * w, (k + 1) * w);
            cov += o;
            sum += o * p->intervals[i].tps;
        }
        tps[k] = cov > 0 ? sum / cov : NAN;
        if (covered)
            covered[k] = cov;
    }
}

int orch_bins_hist(const res_phase *p, double w, int nbins, hist_sparse **h, int *seen)
{
    for (int i = 0; i < p->nintervals; i++) {
        const res_interval *x = &p->intervals[i];
        int k0, k1;
        if (!x->histogram)
            continue;
        bins_of(res_interval_start(p, i), x->t, w, nbins, &k0, &k1);
        for (int k = k0; k < k1; k++) {
            if (overlap(res_interval_start(p, i), x->t, k * w, (k + 1) * w) <= 0)
                continue;
            if (hist_sparse_merge(&h[k], x->histogram) < 0)
                return -1;
            if (seen)
                seen[k] = 1;
        }
    }
    return 0;
}
