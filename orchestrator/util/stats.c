/* stats.c — t distribution, paired batch means, Welch, trend (see stats.h). */
#include "util/stats.h"

#include <math.h>
#include <stdlib.h>

/* Continued fraction of I_x(a, b) (modified Lentz), valid and fast for
 * x < (a + 1) / (a + b + 2). */
static double betacf(double a, double b, double x)
{
    const double tiny = 1e-300, eps = 1e-16;
    double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
    if (fabs(d) < tiny)
        d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 10000; m++) {
        double m2 = 2.0 * m;
        double num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
        d = 1.0 + num * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1.0 + num / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        h *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
        d = 1.0 + num * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1.0 + num / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1.0 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1.0) < eps)
            break;
    }
    return h;
}

double orch_betai(double a, double b, double x)
{
    if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
        return NAN;
    if (x == 0 || x == 1)
        return x;
    double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1.0) / (a + b + 2.0))
        return exp(lfront) * betacf(a, b, x) / a;
    return 1.0 - exp(lfront) * betacf(b, a, 1.0 - x) / b;
}

/* Beyond this many degrees of freedom t and the normal agree to ~1e-8. */
#define NORMAL_DF 1e7

double orch_t_cdf(double t, double df)
{
    if (isnan(t) || !(df > 0))
        return NAN;
    if (df > NORMAL_DF)
        return 0.5 * erfc(-t / M_SQRT2);
    if (isinf(t))
        return t > 0 ? 1.0 : 0.0;
    /* P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
    double tail = 0.5 * orch_betai(df / 2.0, 0.5, df / (df + t * t));
    return t > 0 ? 1.0 - tail : tail;
}

/* The CDF is monotonic, so bisection on a bracket is slow but cannot
 * fail; 200 halvings reach the double's resolution. */
double orch_t_quantile(double p, double df)
{
    if (!(p > 0) || !(p < 1) || !(df > 0))
        return NAN;
    if (p == 0.5)
        return 0.0;
    if (p < 0.5)
        return -orch_t_quantile(1.0 - p, df);
    double lo = 0.0, hi = 1.0;
    while (orch_t_cdf(hi, df) < p && hi < 1e300)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (orch_t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static void mean_var(const double *x, int n, double *mean, double *var)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += x[i];
    double m = s / n, ss = 0;
    for (int i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    *mean = m;
    *var = n > 1 ? ss / (n - 1) : 0.0;
}

/* Fill the interval, p-value and verdict from diff, se and df. */
static void finish(orch_diff *o)
{
    o->diff = o->mean_a - o->mean_b;
    o->diff_pct = o->mean_b != 0 ? o->diff / o->mean_b * 100.0 : NAN;
    o->t_crit = orch_t_quantile(0.975, o->df);
    o->lo = o->diff - o->t_crit * o->se;
    o->hi = o->diff + o->t_crit * o->se;
    o->p_value = o->se > 0 ? 2.0 * (1.0 - orch_t_cdf(fabs(o->diff) / o->se, o->df)) : NAN;
    /* a zero standard error is no evidence of a difference: identical
     * values, or too few to show their spread (issue 29) */
    o->distinguishable = o->se > 0 && (o->lo > 0 || o->hi < 0);
}

/* Mean of x[0..k). */
static double mean_of(const double *x, int k)
{
    double m = 0;
    for (int i = 0; i < k; i++)
        m += x[i];
    return m / k;
}

/* Batches of k in the segments. */
static int batches_of(const int *seg, int nseg, int k)
{
    int nb = 0;
    for (int s = 0; s < nseg; s++)
        nb += seg[s] > 0 ? seg[s] / k : 0;
    return nb;
}

double orch_stats_batch_rho(double phi, int k)
{
    if (!(phi > 0))
        return 0.0;
    if (!(phi < 1) || k < 1)
        return 1.0;
    double pk = pow(phi, k), den = k * (1.0 - phi * phi) - 2.0 * phi * (1.0 - pk);
    return den > 0 ? phi * (1.0 - pk) * (1.0 - pk) / den : 1.0;
}

/* Lag-1 autocorrelation of x within the segments, each centred on its
 * own mean; *pairs gets the consecutive pairs. NAN without a pair or
 * when no segment varies. */
static double seg_r1(const double *x, const int *seg, int nseg, int *pairs)
{
    double num = 0, den = 0;
    int off = 0;
    *pairs = 0;
    for (int s = 0; s < nseg; s++) {
        double m = seg[s] > 0 ? mean_of(x + off, seg[s]) : 0;
        for (int i = 0; i < seg[s]; i++) {
            double u = x[off + i] - m;
            den += u * u;
            if (i + 1 < seg[s]) {
                num += u * (x[off + i + 1] - m);
                ++*pairs;
            }
        }
        off += seg[s] > 0 ? seg[s] : 0;
    }
    return *pairs > 0 && den > 0 ? num / den : NAN;
}

int orch_stats_batching(const double *s, const int *seg, int nseg, orch_batching *out)
{
    int n = 0, pairs, k, kreq;
    double r, nh, phi, phi_hi;
    *out = (orch_batching){ .r1 = NAN, .phi_hi = NAN };
    for (int i = 0; i < nseg; i++)
        n += seg[i] > 0 ? seg[i] : 0;
    for (int i = 0; i < n; i++)
        if (!isfinite(s[i]))
            return -2;
    r = seg_r1(s, seg, nseg, &pairs);
    if (isnan(r))
        return -2;
    /* E[r1] = phi - (1 + 3 phi) / L on an AR(1) segment of L (Marriott
     * and Pope 1954), L here the segments' mean length; an expansion in
     * 1 / L that overshoots on shorter segments, which keep r1 */
    nh = (double)n / nseg;
    phi = nh >= ORCH_STATS_BATCHES ? (nh * r + 1.0) / (nh - 3.0) : r;
    phi = phi < 0 ? 0 : phi > 1 ? 1 : phi;
    out->r1 = phi;
    /* a one-sided 95 % upper bound: phi's standard error on n values is
     * sqrt((1 - phi^2) / n) */
    phi_hi = phi + 1.6448536269514722 * sqrt((1.0 - phi * phi) / (n > 1 ? n : 1));
    phi_hi = phi_hi > 0.999 ? 0.999 : phi_hi;
    out->phi_hi = phi_hi;
    for (kreq = 1; orch_stats_batch_rho(phi_hi, kreq) > ORCH_STATS_MAX_RHO; kreq++)
        if (kreq > 1000000) {
            kreq = 1000000;
            break;
        }
    out->kreq = kreq;
    /* the longest batches that still make ORCH_STATS_MAX_BATCHES of them,
     * never shorter than the correlation needs */
    for (k = 1; batches_of(seg, nseg, k + 1) >= ORCH_STATS_MAX_BATCHES; k++)
        ;
    if (k < kreq)
        k = kreq;
    out->batches = batches_of(seg, nseg, k);
    if (out->batches < ORCH_STATS_BATCHES) {
        /* each repetition its share of the batches, of kreq intervals */
        out->batches = 0;
        out->needs = (ORCH_STATS_BATCHES + nseg - 1) / nseg * kreq;
        return -1;
    }
    out->k = k;
    return 0;
}

int orch_stats_paired_k(const double *a, const double *b, const int *seg, int nseg, int k,
                        orch_diff *out)
{
    double sa = 0, sb = 0, sd = 0, sdd = 0, md;
    int nb = 0, off = 0;
    if (k < 1)
        return -1;
    for (int s = 0; s < nseg; s++) {
        for (int j = 0; j + k <= seg[s]; j += k, nb++) {
            double ma = mean_of(a + off + j, k), mb = mean_of(b + off + j, k);
            sa += ma;
            sb += mb;
            sd += ma - mb;
        }
        off += seg[s];
    }
    if (nb < 2)
        return -1;
    md = sd / nb;
    off = 0;
    for (int s = 0; s < nseg; s++) {
        for (int j = 0; j + k <= seg[s]; j += k) {
            double x = mean_of(a + off + j, k) - mean_of(b + off + j, k) - md;
            sdd += x * x;
        }
        off += seg[s];
    }
    *out = (orch_diff){ .n = nb, .mean_a = sa / nb, .mean_b = sb / nb,
                        .se = sqrt(sdd / (nb - 1) / nb), .df = nb - 1 };
    finish(out);
    return 0;
}

int orch_stats_paired(const double *a, const double *b, const int *seg, int nseg,
                      orch_diff *out, orch_batching *bt)
{
    int n = 0, rc, same = 1;
    double *s;
    *bt = (orch_batching){ .r1 = NAN, .phi_hi = NAN };
    for (int i = 0; i < nseg; i++)
        n += seg[i] > 0 ? seg[i] : 0;
    for (int i = 0; i < n; i++) {
        if (!isfinite(a[i]) || !isfinite(b[i]))
            return -3;
        same = same && a[i] - b[i] == a[0] - b[0];
    }
    /* differences that never vary: a point difference with no spread
     * (identical, or no variance), never a verdict (finish()) */
    if (same && n >= 2)
        return orch_stats_paired_k(a, b, seg, nseg, 1, out) == 0 ? 0 : -1;
    if (!(s = malloc((n > 0 ? (size_t)n : 1) * sizeof *s)))
        return -2;
    for (int i = 0; i < n; i++)
        s[i] = a[i] + b[i];
    rc = orch_stats_batching(s, seg, nseg, bt);
    free(s);
    if (rc == -2)
        return -3;
    if (rc < 0)
        return -1;
    return orch_stats_paired_k(a, b, seg, nseg, bt->k, out) == 0 ? 0 : -1;
}

int orch_stats_holm(const double *p, int n, double *adj)
{
    int *ix = malloc((n > 0 ? (size_t)n : 1) * sizeof *ix), m = 0;
    double run = 0;
    if (!ix)
        return -1;
    for (int i = 0; i < n; i++) {
        adj[i] = NAN;
        if (!isnan(p[i]))
            ix[m++] = i;
    }
    /* insertion sort by p: a family is a handful of pairs of drives */
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && p[ix[j]] < p[ix[j - 1]]; j--) {
            int t = ix[j];
            ix[j] = ix[j - 1];
            ix[j - 1] = t;
        }
    for (int i = 0; i < m; i++) {
        double v = (m - i) * p[ix[i]];
        run = v > run ? v : run;
        adj[ix[i]] = run < 1 ? run : 1;
    }
    free(ix);
    return 0;
}

int orch_stats_welch(const double *a, int na, const double *b, int nb, orch_diff *out)
{
    if (na < ORCH_STATS_MIN_REPS || nb < ORCH_STATS_MIN_REPS)
        return -1;
    double ma, va, mb, vb;
    mean_var(a, na, &ma, &va);
    mean_var(b, nb, &mb, &vb);
    double qa = va / na, qb = vb / nb;
    double se2 = qa + qb;
    double df = se2 > 0
        ? se2 * se2 / (qa * qa / (na - 1) + qb * qb / (nb - 1))
        : (double)(na + nb - 2);
    *out = (orch_diff){ .n = na + nb, .mean_a = ma, .mean_b = mb, .se = sqrt(se2), .df = df };
    finish(out);
    return 0;
}

int orch_stats_trend(const double *t, const double *y, int n, double drift_pct_max,
                     orch_trend *out)
{
    if (n < 3)
        return -1;
    if (drift_pct_max <= 0)
        drift_pct_max = ORCH_STATS_DRIFT_PCT;
    double mt, vt, my, vy;
    mean_var(t, n, &mt, &vt);
    mean_var(y, n, &my, &vy);
    double sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        sxx += (t[i] - mt) * (t[i] - mt);
        sxy += (t[i] - mt) * (y[i] - my);
    }
    if (sxx <= 0)
        return -1;
    double slope = sxy / sxx, icpt = my - slope * mt, sse = 0;
    for (int i = 0; i < n; i++) {
        double r = y[i] - (icpt + slope * t[i]);
        sse += r * r;
    }
    double se = sqrt(sse / (n - 2) / sxx);
    double tc = orch_t_quantile(0.975, n - 2);
    *out = (orch_trend){ .n = n, .mean = my, .slope = slope,
                         .slope_lo = slope - tc * se, .slope_hi = slope + tc * se,
                         .drift_pct = my != 0 ? slope * (t[n - 1] - t[0]) / my * 100.0 : NAN };
    out->trending = (out->slope_lo > 0 || out->slope_hi < 0)
        && fabs(out->drift_pct) > drift_pct_max;
    return 0;
}

double orch_stats_pearson(const double *x, const double *y, int n)
{
    double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
    if (n < 3)
        return NAN;
    for (int i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    for (int i = 0; i < n; i++) {
        sxy += (x[i] - mx) * (y[i] - my);
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

int orch_stats_steady_window(const double *x, const orch_steady_rule *r,
                             orch_steady_check *out)
{
    int w = r->window;
    double lo = INFINITY, hi = -INFINITY, sum = 0, sxx = 0, sxy = 0, mean, mi, slope;
    if (w < 2)
        return -1;
    for (int i = 0; i < w; i++) {
        if (!isfinite(x[i]))
            return -1;
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
        sum += x[i];
    }
    mean = sum / w;
    if (mean <= 0)
        return -1;
    mi = (w - 1) / 2.0;                 /* mean of the round indexes 0..w-1 */
    for (int i = 0; i < w; i++) {
        sxx += (i - mi) * (i - mi);
        sxy += (i - mi) * (x[i] - mean);
    }
    slope = sxy / sxx;
    out->mean = mean;
    out->slope = slope;
    out->range_pct = (hi - lo) / mean * 100.0;
    out->excursion_pct = fabs(slope) * (w - 1) / mean * 100.0;
    out->steady = out->range_pct <= r->range_pct && out->excursion_pct <= r->slope_pct;
    return 0;
}

int orch_stats_steady_first(const double *x, int n, const orch_steady_rule *r)
{
    orch_steady_check c;
    for (int end = r->window; end <= n; end++)
        if (orch_stats_steady_window(x + end - r->window, r, &c) == 0 && c.steady)
            return end;
    return 0;
}

double orch_stats_cv(const double *v, int n)
{
    double sum = 0, sq = 0, mean;
    if (n < 2)
        return NAN;
    for (int i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            return NAN;
        sum += v[i];
    }
    mean = sum / n;
    if (mean == 0)
        return NAN;
    for (int i = 0; i < n; i++)
        sq += (v[i] - mean) * (v[i] - mean);
    return sqrt(sq / (n - 1)) / fabs(mean) * 100.0;
}

int orch_stats_auto_stop(const double *tps, int stride, const int *n, int ndrives, int min,
                         double cv_threshold, double *worst)
{
    double w = 0;
    for (int d = 0; d < ndrives; d++) {
        double cv = orch_stats_cv(tps + (size_t)d * (size_t)stride, n[d]);
        if (n[d] < min || !(cv < cv_threshold))
            return 0;
        w = cv > w ? cv : w;
    }
    if (worst)
        *worst = w;
    return 1;
}

int orch_stats_knee(const double *v, int n, double share)
{
    double max = NAN;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i]) && !(v[i] <= max))
            max = v[i];
    for (int i = 0; isfinite(max) && i < n; i++)
        if (isfinite(v[i]) && v[i] >= share * max)
            return i;
    return -1;
}
