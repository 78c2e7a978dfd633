/* stats_power.c — the power of a paired comparison by simulation from a
 * pilot's series (stats_power.h). */
#include "util/stats_power.h"

#include <math.h>
#include <stdlib.h>

#include "util/stats.h"

uint64_t orch_stats_sim_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

double orch_stats_sim_unit(uint64_t *s)
{
    return ((double)(orch_stats_sim_next(s) >> 11) + 0.5) / 9007199254740992.0;
}

double orch_stats_sim_normal(uint64_t *s)
{
    double u1 = orch_stats_sim_unit(s), u2 = orch_stats_sim_unit(s);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

void orch_stats_sim_ar1_add(uint64_t *s, double *x, int n, double phi, double sd)
{
    double v = sd * orch_stats_sim_normal(s), q = sqrt(1.0 - phi * phi) * sd;
    for (int i = 0; i < n; i++) {
        x[i] += v;
        v = phi * v + q * orch_stats_sim_normal(s);
    }
}

int orch_stats_power_model(const double *s, int n, orch_power_model *m)
{
    double *rho, sum = 0, ss = 0, r1;
    int seg[1] = { n }, rc;
    orch_acf acf;
    orch_batching bt;
    *m = (orch_power_model){ .n = n };
    if (n < 3)
        return -1;
    for (int i = 0; i < n; i++) {
        if (!isfinite(s[i]))
            return -1;
        sum += s[i];
    }
    m->mean = sum / n;
    for (int i = 0; i < n; i++)
        ss += (s[i] - m->mean) * (s[i] - m->mean);
    m->sd = sqrt(ss / (n - 1));
    if (!(rho = calloc((size_t)n + 1, sizeof *rho)))
        return -3;
    rc = orch_stats_acf(s, seg, 1, rho, n, &acf);
    free(rho);
    if (rc == -3)
        return -3;
    if (rc < 0)
        return -1;
    rc = orch_stats_batching(s, seg, 1, &bt);
    if (rc == -3)
        return -3;
    if (rc < -1 || !isfinite(bt.r1))
        return -1;
    m->r1 = acf.r1;
    m->phi = bt.r1;
    /* the signal's share: the bias-corrected lag-1 correlation w phi
     * over phi (Marriott and Pope, as the batch rule corrects it) */
    r1 = n > 3 ? (n * acf.r1 + 1.0) / (n - 3.0) : acf.r1;
    m->w = m->phi > 0 ? r1 / m->phi : 0;
    m->w = m->w < 0 ? 0 : m->w > 1 ? 1 : m->w;
    return 0;
}

/* x[0..n) one simulated series of model m around mean mu. */
static void draw(uint64_t *st, const orch_power_model *m, double mu, double *x, int n)
{
    double sig = m->sd * sqrt(m->w), noise = m->sd * sqrt(1.0 - m->w);
    for (int i = 0; i < n; i++)
        x[i] = mu + noise * orch_stats_sim_normal(st);
    orch_stats_sim_ar1_add(st, x, n, m->phi, sig);
}

double orch_stats_power_at(const orch_power_case *c, int n)
{
    size_t len = (size_t)n * (size_t)(c->reps > 0 ? c->reps : 1);
    double *a = malloc(len * sizeof *a), *b = malloc(len * sizeof *b);
    double e = 1.0 + c->effect_pct / 100.0, mu_b = c->b->mean;
    double mu_a = c->higher_better ? mu_b * e : mu_b / e;
    int *seg = malloc((size_t)(c->reps > 0 ? c->reps : 1) * sizeof *seg), found = 0;
    int reps = c->reps > 0 ? c->reps : 1;
    uint64_t st = c->seed;
    if (!a || !b || !seg) {
        free(a);
        free(b);
        free(seg);
        return -1;
    }
    for (int k = 0; k < reps; k++)
        seg[k] = n;
    for (int t = 0; t < c->trials; t++) {
        orch_diff df;
        orch_batching bt;
        int rc;
        for (int k = 0; k < reps; k++) {
            draw(&st, c->a, mu_a, a + (size_t)k * n, n);
            draw(&st, c->b, mu_b, b + (size_t)k * n, n);
        }
        rc = orch_stats_paired(a, b, seg, reps, &df, &bt);
        if (rc == -2) {
            found = -1;
            break;
        }
        if (rc == 0 && df.distinguishable && df.se > 0
            && (c->higher_better ? df.diff > 0 : df.diff < 0))
            found++;
    }
    free(a);
    free(b);
    free(seg);
    return found < 0 ? -1 : c->trials > 0 ? (double)found / c->trials : 0;
}

int orch_stats_power_search(const orch_power_case *c, double target, int max_n, double *power)
{
    int lo = 0, hi = 20;
    double p;
    /* the ramp: the first length that reaches the target */
    for (;;) {
        if (hi > max_n)
            hi = max_n;
        if ((p = orch_stats_power_at(c, hi)) < 0)
            return -1;
        if (p >= target || hi == max_n)
            break;
        lo = hi;
        hi = (int)ceil(hi * 1.5);
    }
    if (p < target) {
        *power = p;
        return 0;
    }
    *power = p;
    /* bisection between a length short of it and one that reaches it */
    while (hi - lo > 1 && hi - lo > hi / 50) {
        int mid = lo + (hi - lo) / 2;
        double q = orch_stats_power_at(c, mid);
        if (q < 0)
            return -1;
        if (q >= target) {
            hi = mid;
            *power = q;
        } else {
            lo = mid;
        }
    }
    return hi;
}
