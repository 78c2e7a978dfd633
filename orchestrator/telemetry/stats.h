/*
 * stats.h — is a difference between two drives real? Pure arithmetic on
 * arrays of doubles, no I/O (the method is in results/SCHEMA.md, "Drive
 * I/O and statistics").
 *
 *  - orch_stats_paired(): drives measured at the same time in one run.
 *    Per-interval TPS are autocorrelated, so consecutive intervals are
 *    grouped into batches of k and the batch means of the two drives are
 *    paired (the same batch saw the same host noise); the mean of the
 *    batch differences gets a 95 % confidence interval from Student's t
 *    with (batches - 1) degrees of freedom. Any per-interval series pairs
 *    the same way (the intervals' p99 from oltp's `intervals`).
 *  - orch_stats_welch(): repetitions of a run (>= ORCH_STATS_MIN_REPS):
 *    Welch's unequal-variance t interval of the difference of the means
 *    (TPS or p99 per repetition), Welch–Satterthwaite degrees of freedom.
 *  - orch_stats_trend(): is a measured phase at steady state? The slope
 *    of a least-squares line through (t, TPS) with its 95 % interval.
 *
 * A difference is "distinguishable" only when its 95 % interval excludes
 * zero; otherwise the report says "not distinguishable".
 */
#ifndef ORCH_STATS_H
#define ORCH_STATS_H

/* Fewest repetitions orch_stats_welch() accepts. */
#define ORCH_STATS_MIN_REPS 3
/* Batches orch_stats_batch_size() aims at. */
#define ORCH_STATS_BATCHES 10
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

/* Intervals per batch so that n intervals make about ORCH_STATS_BATCHES
 * batches: max(1, n / ORCH_STATS_BATCHES). */
int orch_stats_batch_size(int n);

/* Paired batch means of a[0..n) and b[0..n), per-interval TPS of two
 * drives over the same intervals. k intervals per batch (k <= 0: use
 * orch_stats_batch_size(n)); the n % k intervals at the end that do not
 * fill a batch are left out. 0, or -1 when fewer than 2 batches result. */
int orch_stats_paired(const double *a, const double *b, int n, int k, orch_diff *out);

/* Welch's t interval of mean(a) - mean(b), a[0..na) and b[0..nb) one
 * value per repetition. 0, or -1 when na or nb < ORCH_STATS_MIN_REPS.
 * With both variances 0 the interval is the point diff (df = na+nb-2). */
int orch_stats_welch(const double *a, int na, const double *b, int nb, orch_diff *out);

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
                     orch_trend *out);

#endif
