/*
 * stats.h — is a difference between two drives real? Pure arithmetic on
 * arrays of doubles, no I/O (the method is in results/SCHEMA.md, "Is the
 * difference real?").
 *
 *  - orch_stats_paired(): drives measured at the same time in one run.
 *    Non-overlapping batch means with a small, fixed range of batches
 *    (Schmeiser 1982): consecutive intervals are grouped into batches of
 *    k inside one segment (repetition), the batch means of the two drives
 *    are paired (the same batch saw the same host noise), and the mean of
 *    the batch differences gets a 95 % interval from Student's t with
 *    (batches - 1) degrees of freedom. That interval holds when the batch
 *    means are nearly uncorrelated, i.e. when a batch is long against the
 *    series' correlation time. The batch length rule
 *    (orch_stats_batching) reads the autocorrelations rho(h) of the
 *    drives' summed series a + b (within the segments, each centred on
 *    its own mean, pooled) over many lags, not its lag 1 alone: an
 *    interval's p99 is the drive's slow signal plus the sampling noise
 *    of the interval's transactions, rho(h) = w phi^h, and the noise
 *    lowers r1 = w phi while the signal's decay phi stays (issue 42).
 *     - tau, the integrated autocorrelation time 1 + 2 sum rho(h), over
 *       Sokal's automatic window (the first M >= 5 tau(M); Sokal 1997,
 *       "Monte Carlo methods in statistical mechanics", sec. 3), each
 *       rho(h) raised by the bias of centring a segment of mean length L
 *       on its own mean, tau / L (orch_stats_acf);
 *     - phi = r1 bias-corrected ((L r1 + 1) / (L - 3), Marriott and
 *       Pope 1954), unless the series is not an AR(1): within Geyer's
 *       initial positive sequence (lags up to the first pair rho(2j) +
 *       rho(2j+1) <= 0; Geyer 1992, Statist. Sci. 7, 473) the AR(1) of
 *       the same tau_g, (tau_g - 1) / (tau_g + 1), when its 95 % lower
 *       bound is beyond r1's upper bound, or the decay sum rho(2..g) /
 *       sum rho(1..g-1), when that sum is positive at 95 % and the decay
 *       minus 1.645 standard errors is beyond r1's upper bound;
 *     - phi_hi = phi + 1.645 sqrt((1 - phi^2) / n) (<= 0.999); kreq the
 *       shortest batch whose means would have a lag-1 correlation
 *       orch_stats_batch_rho(phi_hi, k) <= ORCH_STATS_MAX_RHO, and no
 *       shorter than the window M; k = the longest batch that still
 *       makes ORCH_STATS_MAX_BATCHES batches, or kreq when that is
 *       longer.
 *    "Too short" (no verdict, with the intervals per repetition it
 *    needs): fewer than ORCH_STATS_BATCHES batches of k, fewer than
 *    ORCH_STATS_MIN_TAUS x tau_hi intervals (tau_hi the larger of tau
 *    and (1 + phi_hi) / (1 - phi_hi): a series that short shows too
 *    little of its correlation to estimate it), or a window that does
 *    not end within the series. The length
 *    is chosen from a + b, never from the differences a - b: with two
 *    drives of the same behaviour the two are independent (Gaussian
 *    series), so the choice does not pick the samples whose spread looks
 *    small, and the level holds among the verdicts given, not only over
 *    all runs (bin/stats-sim, tests/stats/README.md).
 *    Any per-interval series pairs the same way (the intervals' p99 from
 *    oltp's `intervals`).
 *  - orch_stats_welch(): repetitions of a run (>= ORCH_STATS_MIN_REPS):
 *    Welch's unequal-variance t interval of the difference of the means
 *    (TPS or p99 per repetition), Welch–Satterthwaite degrees of freedom.
 *  - orch_stats_holm(): several pairs of drives compared by one method
 *    are a family: Holm's step-down adjustment of their p-values.
 *  - orch_stats_trend(): is a measured phase at steady state? The slope
 *    of a least-squares line through (t, TPS) with its 95 % interval.
 *  - orch_stats_steady_window() / orch_stats_steady_first(): steady state
 *    of a precondition by the rule of SNIA's Solid State Storage
 *    Performance Test Specification, over a window of W rounds (one value
 *    of the tracked variable, TPS or p99, per round): steady when both
 *    (max - min) <= range_pct % of the window's mean, and the excursion
 *    of the least-squares line through (round, value) over the window,
 *    |slope| x (W - 1), <= slope_pct % of the mean. No verdict from fewer
 *    than W rounds, a non-finite value or a mean <= 0.
 *  - orch_stats_cv(): the coefficient of variation of repetitions (sample
 *    standard deviation / mean, percent), the rule of `repetitions =
 *    auto` (Phoronix Test Suite's: repeat until it is under a threshold).
 *
 * A difference is "distinguishable" only when its 95 % interval excludes
 * zero (and, in a family, its Holm-adjusted p-value is below 0.05);
 * otherwise the report says "not distinguishable". Whether the data may
 * be compared at all (failed VMs, partial repetitions) is the caller's
 * check: these functions assume every value is a measurement.
 */
#ifndef ORCH_STATS_H
#define ORCH_STATS_H

#include "attributes.h"

/* Fewest repetitions orch_stats_welch() accepts. */
#define ORCH_STATS_MIN_REPS 3
/* Fewest batches of a paired comparison. */
#define ORCH_STATS_BATCHES 10
/* Batches are made no shorter than it takes to have this many (more
 * only when the correlation needs longer batches than that). */
#define ORCH_STATS_MAX_BATCHES 20
/* The largest lag-1 correlation of the batch means the rule accepts:
 * 0.02 inflates the variance of the mean by about 4 % against the
 * batches' spread. */
#define ORCH_STATS_MAX_RHO 0.02
/* Sokal's window: the autocorrelations are summed up to the first lag
 * M >= ORCH_STATS_SOKAL_C x tau(M). */
#define ORCH_STATS_SOKAL_C 5.0
/* A paired verdict needs at least this many times tau_hi intervals. */
#define ORCH_STATS_MIN_TAUS 100.0
/* The batch length rule above in words, as the report states it: one
 * place, changed with the rule (orch_stats_batching; results/SCHEMA.md
 * gives it whole, with its sources). */
#define ORCH_STATS_BATCH_RULE \
    "the batch length comes from the autocorrelations of the two drives' summed series " \
    "over many lags (the integrated autocorrelation time within Sokal's automatic window, " \
    "Geyer's initial positive sequence where the series is no AR(1)): the shortest batch " \
    "whose means would have a lag-1 correlation of at most 0.02 at the 95 % upper bound " \
    "of that correlation, no shorter than the window and than 20 batches allow; fewer " \
    "than 10 such batches, or fewer than 100 correlation times, is too short for a verdict, " \
    "and so is a percentile of fewer than 3 transactions above it per interval on average"
/* A percentile's paired test needs, per interval and drive, this many
 * transactions above the percentile on average (pct p: the interval's
 * transactions x (1 - p / 100)): with fewer, an interval's p99 is nearly
 * its maximum, a drive's slow signal hides under that sampling noise and
 * no batch rule read from the series holds (issue 42; results/SCHEMA.md,
 * "Batch length rule"). */
#define ORCH_STATS_MIN_TAIL 3.0
/* The level of every verdict (two-sided; 95 % intervals). */
#define ORCH_STATS_ALPHA 0.05
/* A phase trends when its fitted drift exceeds this share of its mean
 * TPS (percent) and the slope's 95 % interval excludes zero. */
#define ORCH_STATS_DRIFT_PCT 5.0

/* Student's t distribution with df > 0 degrees of freedom (not
 * necessarily an integer; INFINITY gives the standard normal).
 * orch_t_cdf: P(T <= t). orch_t_quantile: the t with P(T <= t) = p, for
 * 0 < p < 1; NAN for arguments out of range. Accurate to ~1e-10. */
double orch_t_cdf(double t, double df);
double orch_t_quantile(double p, double df);

/* Regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1
 * (NAN outside). */
double orch_betai(double a, double b, double x);

/* A difference "a - b" with its 95 % confidence interval. */
typedef struct orch_diff {
    int    n;               /* batches (paired) or na + nb repetitions (Welch) */
    double mean_a, mean_b;  /* of the batch means or of the repetitions */
    double diff;            /* mean_a - mean_b */
    double diff_pct;        /* diff / mean_b * 100; NAN when mean_b is 0 */
    double se;              /* standard error of diff */
    double df;              /* degrees of freedom */
    double t_crit;          /* t(0.975, df) */
    double lo, hi;          /* 95 % interval of diff: diff -/+ t_crit * se */
    double p_value;         /* two-sided, for H0: no difference; NAN when se is 0 */
    int    distinguishable; /* 1 when [lo, hi] excludes 0 */
} orch_diff;

/* The batch length chosen for a paired series (orch_stats_batching). */
typedef struct orch_batching {
    int    k;               /* intervals per batch; 0: too short */
    int    batches;         /* batches of k in all segments */
    double r1;              /* phi: the lag-1 correlation of the AR(1)
                             * the batches are sized for (the
                             * bias-corrected lag-1 autocorrelation of
                             * a + b, or its signal's decay; clipped to
                             * [0, 1]); NAN when it has none */
    double tau;             /* its integrated autocorrelation time
                             * (orch_stats_acf), intervals */
    int    lags;            /* the lags the estimate keeps */
    double phi_hi;          /* the AR(1) correlation's upper bound */
    double tau_hi;          /* the larger of tau and (1 + phi_hi) / (1 - phi_hi) */
    int    kreq;            /* the shortest batch the correlation allows */
    int    needs;           /* too short: intervals each repetition needs */
} orch_batching;

/* The lag-1 correlation of the means of consecutive batches of k on an
 * AR(1) series of lag-1 autocorrelation phi:
 * phi (1 - phi^k)^2 / (k (1 - phi^2) - 2 phi (1 - phi^k)); 0 for
 * phi <= 0, 1 for phi >= 1. */
double orch_stats_batch_rho(double phi, int k);

/* Autocorrelations of s within the segments seg[0..nseg), each centred
 * on its own mean, pooled (divided by the pooled lag-0 sum), and tau
 * over Sokal's window (top of this file). */
typedef struct orch_acf {
    double r1;              /* the sample lag-1 autocorrelation */
    double tau;             /* 1 + 2 sum of rho(h) + bias over the window */
    double bias;            /* added to each rho(h): tau / mean segment */
    int    lags;            /* the window M */
    int    resolved;        /* M >= ORCH_STATS_SOKAL_C tau within the series */
    int    pairs;           /* values in the estimate */
} orch_acf;

/* rho[h - 1] for h = 1..out->lags, bias added (rho holds the longest
 * segment's length; lags up to maxlag). 0; -2 when s has none (no
 * segment of 2, or none varies); -3 when out of memory. */
int orch_stats_acf(const double *s, const int *seg, int nseg, double *rho, int maxlag,
                   orch_acf *out);

/* The batch length rule above from the summed series s = a + b (segments
 * seg[0..nseg)). 0 with out->k; -1 when too short (out->k 0, out->needs
 * set); -2 when s has no autocorrelation (a value not finite, no two
 * consecutive intervals in a segment, or no segment varies); -3 when
 * out of memory. */
int orch_stats_batching(const double *s, const int *seg, int nseg, orch_batching *out) DB_MUST_CHECK;

/* Paired batch means of a and b (same segments seg[0..nseg), the
 * repetitions' intervals concatenated), k intervals per batch, batches
 * within segments only. 0, or -1 when fewer than 2 batches result. */
int orch_stats_paired_k(const double *a, const double *b, const int *seg, int nseg, int k,
                        orch_diff *out) DB_MUST_CHECK;

/* Paired comparison with k chosen by the rule (orch_stats_batching, also
 * into *bt). Differences a - b that never vary give the point difference
 * with se 0 (batches of 1) whatever the rule. 0; -1 when too short for a
 * verdict (bt->needs says how many intervals per repetition it needs);
 * -2 when out of memory; -3 when not comparable (a value not finite, or
 * a + b has no lag-1 correlation). */
int orch_stats_paired(const double *a, const double *b, const int *seg, int nseg,
                      orch_diff *out, orch_batching *bt);

/* The transactions per interval a paired test of the pct percentile
 * needs (ORCH_STATS_MIN_TAIL above it), rounded up; 0 for pct outside
 * (0, 100). */
double orch_stats_tail_txns(double pct);

/* Welch's t interval of mean(a) - mean(b), a[0..na) and b[0..nb) one
 * value per repetition. 0, or -1 when na or nb < ORCH_STATS_MIN_REPS.
 * With both variances 0 the interval is the point diff (df = na+nb-2). */
int orch_stats_welch(const double *a, int na, const double *b, int nb, orch_diff *out) DB_MUST_CHECK;

/* Holm's step-down adjustment of the p-values p[0..n) of one family of
 * tests, into adj[0..n): sorted ascending p_(1) <= ... <= p_(n),
 * adj_(i) = max over j <= i of min(1, (n - j + 1) p_(j)). A NAN p (no
 * test) is left out of the family and gets NAN. 0, or -1 when out of
 * memory. */
int orch_stats_holm(const double *p, int n, double *adj) DB_MUST_CHECK;

/* Least-squares trend of y over t (seconds), e.g. per-interval TPS. */
typedef struct orch_trend {
    int    n;
    double mean;            /* mean of y */
    double slope;           /* y units per second */
    double slope_lo, slope_hi;  /* 95 % interval, t with n - 2 df */
    double drift_pct;       /* slope * (t[n-1] - t[0]) / mean * 100 */
    int    trending;        /* interval excludes 0 and |drift_pct| > the threshold */
} orch_trend;

/* Fit y[i] = a + slope * t[i]; drift_pct_max <= 0 means
 * ORCH_STATS_DRIFT_PCT. 0, or -1 when n < 3 or all t are equal. */
int orch_stats_trend(const double *t, const double *y, int n, double drift_pct_max,
                     orch_trend *out) DB_MUST_CHECK;

/* Pearson's correlation coefficient of x[0..n) and y[0..n):
 * Σ(x-x̄)(y-ȳ) / sqrt(Σ(x-x̄)² Σ(y-ȳ)²); NAN with fewer than 3 pairs or
 * when either does not vary. */
double orch_stats_pearson(const double *x, const double *y, int n);

/* The SNIA window rule (top of this file) over x[0..w). */
typedef struct orch_steady_rule {
    int    window;              /* W rounds, >= 2 */
    double range_pct;           /* max - min within this % of the mean */
    double slope_pct;           /* the fitted line's excursion within this % */
} orch_steady_rule;

typedef struct orch_steady_check {
    double mean;
    double range_pct;           /* (max - min) / mean * 100 */
    double excursion_pct;       /* |slope| x (W - 1) / mean * 100 */
    double slope;               /* per round */
    int    steady;              /* both within the rule's limits */
} orch_steady_check;

/* Test the window x[0..r->window). 0 with out filled, or -1 (no
 * verdict, out untouched) when window < 2, a value is not finite or the
 * mean is <= 0. */
int orch_stats_steady_window(const double *x, const orch_steady_rule *r,
                             orch_steady_check *out) DB_MUST_CHECK;

/* The first round N (1-based, >= window) whose window x[N-W .. N) is
 * steady, or 0 when none of x[0..n) is (also when n < window). */
int orch_stats_steady_first(const double *x, int n, const orch_steady_rule *r);

/* Sample coefficient of variation of v[0..n), percent; NAN when n < 2, a
 * value is not finite or the mean is 0. */
double orch_stats_cv(const double *v, int n);

/* The rule of `repetitions = auto` after a repetition: drive d's TPS of
 * its complete repetitions so far are tps[d * stride + 0 .. n[d]). 1 to
 * stop: every drive has at least min of them and a CV (orch_stats_cv)
 * under cv_threshold; *worst (may be NULL) gets the largest CV then.
 * 0 to go on. */
int orch_stats_auto_stop(const double *tps, int stride, const int *n, int ndrives, int min,
                         double cv_threshold, double *worst);

/* The knee of a sweep (issue 34): the index of the first of v[0..n)
 * (throughput at increasing load; NAN: a step not counted) that reaches
 * share (0.95) of their largest, or -1 when none is finite. */
int orch_stats_knee(const double *v, int n, double share) DB_MUST_CHECK;

#endif
