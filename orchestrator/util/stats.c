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

double orch_stats_tail_txns(double pct)
{
    if (!(pct > 0 && pct < 100))
        return 0;
    return ceil(ORCH_STATS_MIN_TAIL / (1.0 - pct / 100.0) - 1e-9);
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

/* Pooled autocovariance of x at lag h within the segments, each centred
 * on its own mean (mean[] per segment), over n values. */
static double seg_acov(const double *x, const int *seg, int nseg, const double *mean, int h,
                       int *pairs)
{
    double c = 0;
    int off = 0;
    for (int s = 0; s < nseg; s++) {
        for (int i = 0; i + h < seg[s]; i++) {
            c += (x[off + i] - mean[s]) * (x[off + i + h] - mean[s]);
            ++*pairs;
        }
        off += seg[s];
    }
    return c;
}

int orch_stats_acf(const double *s, const int *seg, int nseg, double *rho, int maxlag,
                   orch_acf *out)
{
    int n = 0, pairs = 0, maxlen = 0, m = 0;
    /* calloc: GCC under -fsanitize sees mean[] as maybe unset (nseg 0) */
    double *mean = calloc((size_t)nseg + 1, sizeof *mean), c0, bias = 0, tau = 1;
    *out = (orch_acf){ .r1 = NAN, .tau = NAN };
    if (!mean)
        return -3;
    for (int i = 0, off = 0; i < nseg; i++) {
        mean[i] = seg[i] > 0 ? mean_of(s + off, seg[i]) : 0;
        off += seg[i] > 0 ? seg[i] : 0;
        n += seg[i] > 0 ? seg[i] : 0;
        maxlen = seg[i] > maxlen ? seg[i] : maxlen;
    }
    c0 = seg_acov(s, seg, nseg, mean, 0, &pairs);
    if (!(c0 > 0) || maxlen < 2) {
        free(mean);
        return -2;
    }
    if (maxlag > maxlen - 1)
        maxlag = maxlen - 1;
    /* Sokal's window on the autocorrelations raised by the bias of
     * centring each segment on its own mean, tau / L (L the segments'
     * mean length): the bias and the window grow together, so repeat
     * until the bias stays (it only grows). Lags are computed as the
     * window reaches them. */
    for (int it = 0, have = 0; it < 50; it++) {
        double next;
        tau = 1;
        for (m = 1; m <= maxlag; m++) {
            if (m > have) {
                pairs = 0;
                rho[m - 1] = seg_acov(s, seg, nseg, mean, m, &pairs) / c0;
                have = m;
            }
            tau += 2.0 * (rho[m - 1] + bias);
            if (m >= ORCH_STATS_SOKAL_C * tau)
                break;
        }
        out->resolved = m <= maxlag;
        m = m <= maxlag ? m : maxlag;
        next = tau > 0 ? tau * nseg / n : 0;
        if (!out->resolved || !(next > bias + 1e-9))
            break;
        bias = next;
    }
    free(mean);
    out->r1 = rho[0];
    for (int h = 1; h <= m; h++)
        rho[h - 1] += bias;
    out->tau = tau;
    out->lags = m;
    out->bias = bias;
    out->pairs = n;
    return 0;
}

int orch_stats_batching(const double *s, const int *seg, int nseg, orch_batching *out)
{
    int n = 0, maxlen = 0, k, kreq, rc, g;
    double *rho, v = 0, s1 = 0, s2 = 0, tau_g = 1, tau_lo, over, dec, phi_x = 0, phi, phi_hi, nh;
    double floor_n;
    orch_acf acf;
    *out = (orch_batching){ .r1 = NAN, .tau = NAN };
    for (int i = 0; i < nseg; i++) {
        n += seg[i] > 0 ? seg[i] : 0;
        maxlen = seg[i] > maxlen ? seg[i] : maxlen;
    }
    for (int i = 0; i < n; i++)
        if (!isfinite(s[i]))
            return -2;
    if (!(rho = calloc((size_t)maxlen + 1, sizeof *rho)))
        return -3;
    rc = orch_stats_acf(s, seg, nseg, rho, maxlen, &acf);
    if (rc < 0) {
        free(rho);
        return rc;
    }
    out->tau = acf.tau;
    out->lags = acf.lags;
    /* phi: the lag-1 correlation of the AR(1) series the rule sizes the
     * batches for (orch_stats_batch_rho at its upper bound). r1 (bias
     * corrected, Marriott and Pope 1954: E[r1] = phi - (1 + 3 phi) / L)
     * when the series is its signal; a slow signal under white noise
     * (an interval's p99 from a few hundred transactions), rho(h) =
     * w phi^h, has a lower r1 = w phi but the same decay phi, read from
     * the autocorrelations over the initial positive sequence. */
    /* g: the initial positive sequence's last lag (Geyer 1992): the
     * pairs rho(2j) + rho(2j + 1), j >= 1, while positive; tau_g = 1 +
     * 2 sum rho(1..g); s1, s2: sum rho(1..g-1), sum rho(2..g) */
    for (g = 1; g + 2 <= acf.lags && rho[g] + rho[g + 1] > 0; g += 2)
        ;
    for (int h = 1; h <= g; h++) {
        tau_g += 2.0 * rho[h - 1];
        v += rho[h - 1] * rho[h - 1];
        s1 += h < g ? rho[h - 1] : 0;
        s2 += h > 1 ? rho[h - 1] : 0;
    }
    free(rho);
    nh = (double)n / nseg;
    phi = nh >= ORCH_STATS_BATCHES ? (nh * acf.r1 + 1.0) / (nh - 3.0) : acf.r1;
    phi = phi < 0 ? 0 : phi > 0.999 ? 0.999 : phi;
    /* beyond r1's upper bound the series is not an AR(1): a slow signal
     * under white noise, rho(h) = w phi^h, whose r1 = w phi is low. Its
     * phi is then the larger of the AR(1) of the same tau, (tau_g - 1) /
     * (tau_g + 1), and, when the sum is positive at 95 % and beyond
     * r1's 99.9 % bound, the decay s2 / s1 */
    over = phi + 1.6448536269514722 * sqrt((1.0 - phi * phi) / n);
    tau_lo = tau_g * (1.0 - 1.6448536269514722 * sqrt((4.0 * g + 2.0) / n));
    if ((tau_lo - 1.0) / (tau_lo + 1.0) > over)
        phi_x = (tau_g - 1.0) / (tau_g + 1.0);
    dec = g >= 2 && s1 > 0 ? s2 / s1 : 0;
    if (dec > 0 && dec < 1 && dec > phi_x
        && s1 > 1.6448536269514722 * sqrt((1.0 + 2.0 * v) * (g - 1) / n)
        && dec - 1.6448536269514722 * sqrt((1.0 + 2.0 * v) * (g - 1) * (1.0 + dec * dec) / n) / s1
           > over)
        phi_x = dec;
    phi = phi_x > phi ? phi_x : phi;
    phi = phi < 0 ? 0 : phi > 0.999 ? 0.999 : phi;
    phi_hi = phi + 1.6448536269514722 * sqrt((1.0 - phi * phi) / n);
    phi_hi = phi_hi > 0.999 ? 0.999 : phi_hi;
    out->r1 = phi;
    out->phi_hi = phi_hi;
    out->tau_hi = (1.0 + phi_hi) / (1.0 - phi_hi);
    if (acf.tau > out->tau_hi)
        out->tau_hi = acf.tau;
    for (kreq = 1; orch_stats_batch_rho(phi_hi, kreq) > ORCH_STATS_MAX_RHO && kreq < 1000000;
         kreq++)
        ;
    /* no batch shorter than the window the estimate read */
    kreq = kreq > acf.lags ? kreq : acf.lags;
    out->kreq = kreq;
    /* the longest batches that still make ORCH_STATS_MAX_BATCHES of them,
     * never shorter than the correlation needs */
    for (k = 1; batches_of(seg, nseg, k + 1) >= ORCH_STATS_MAX_BATCHES; k++)
        ;
    if (k < kreq)
        k = kreq;
    out->batches = batches_of(seg, nseg, k);
    /* a series shorter than ORCH_STATS_MIN_TAUS x tau_hi shows too
     * little of its correlation to estimate it, and one whose window
     * does not end within it none */
    floor_n = ceil(ORCH_STATS_MIN_TAUS * out->tau_hi);
    if (out->batches < ORCH_STATS_BATCHES || n < floor_n || !acf.resolved) {
        /* each repetition its share of the batches, of kreq intervals,
         * and of the floor */
        double need = (double)((ORCH_STATS_BATCHES + nseg - 1) / nseg) * kreq;
        if (need < ceil(floor_n / nseg))
            need = ceil(floor_n / nseg);
        if (!acf.resolved && need <= maxlen)
            need = 2.0 * maxlen;
        out->batches = 0;
        out->needs = need > 1e9 ? 1000000000 : (int)need;
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
    *bt = (orch_batching){ .r1 = NAN, .tau = NAN };
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
    if (rc == -3)
        return -2;
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
