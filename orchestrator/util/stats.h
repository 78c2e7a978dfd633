/*
 * stats.h — is a difference between two drives real? Pure arithmetic on
 * arrays of doubles, no I/O (the method is in results/SCHEMA.md, "Is the
 * difference real?").
 *
 *  - orch_stats_paired(): drives measured at the same time in one run.
 *    Per-interval TPS are autocorrelated, so consecutive intervals are
 *    grouped into batches of k and the batch means of the two drives are
 *    paired (the same batch saw the same host noise); the mean of the
 *    batch differences gets a 95 % confidence interval from Student's t
 *    with (batches - 1) degrees of freedom. The series is made of segments
 *    (one per repetition) and a batch never straddles two of them.
 *    The batch length rule (orch_stats_batching): k = 1, 2, 4, 8, ...;
 *    the first k whose B >= ORCH_STATS_BATCHES batch differences have a
 *    lag-1 autocorrelation (pairs of consecutive batches of one segment),
 *    corrected for its small-sample bias as (B r1 + 1) / (B - 4), below
 *    ORCH_STATS_MAX_R1 in absolute value passes; it is then doubled while
 *    it makes more than ORCH_STATS_MAX_BATCHES batches and a doubling
 *    still leaves ORCH_STATS_BATCHES. When no k passes (the k reached
 *    makes fewer than ORCH_STATS_BATCHES batches), there is no verdict:
 *    the series is "too short" and needs ORCH_STATS_BATCHES x k
 *    intervals. On AR(1) series this gives a false "distinguishable" in
 *    about 5 % of cases at every length (tests/orchestrator/test_stats.c);
 *    short or strongly autocorrelated series mostly get "too short".
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

/* Fewest repetitions orch_stats_welch() accepts. */
#define ORCH_STATS_MIN_REPS 3
/* Fewest batches of a paired comparison. */
#define ORCH_STATS_BATCHES 10
/* A passing batch length is doubled while it makes more batches than
 * this (and at least ORCH_STATS_BATCHES remain). */
#define ORCH_STATS_MAX_BATCHES 20
/* Batches count as independent when the lag-1 autocorrelation of their
 * differences is below this in absolute value. */
#define ORCH_STATS_MAX_R1 0.2
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
    int    k;               /* intervals per batch; 0: none passed */
    int    batches;         /* batches of k in all segments */
    double r1;              /* bias-corrected lag-1 autocorrelation of the
                             * batch differences at the k that passed (the
                             * last k checked when none passed);
                             * NAN when no two batches of one segment
                             * follow each other (they count as independent) */
    int    needs;           /* none passed: intervals the rule needs */
} orch_batching;

/* Lag-1 autocorrelation of the batch means of d (k intervals each) within
 * the segments seg[0..nseg) of d (lengths, in order; the seg[s] % k
 * intervals at the end of a segment are left out): the sum over
 * consecutive batches of one segment of (x_j - m)(x_j+1 - m) over the sum
 * of (x_j - m)^2, m the mean of all batch means. *batches gets how many;
 * NAN when there are no such consecutive pairs or all batches are equal. */
double orch_stats_batch_r1(const double *d, const int *seg, int nseg, int k, int *batches);

/* The batch length rule above on the differences d of two series with
 * segments seg[0..nseg). 0 with out->k, or -1 when no k passes (out->k 0,
 * out->needs set). */
int orch_stats_batching(const double *d, const int *seg, int nseg, orch_batching *out);

/* Paired batch means of a and b (same segments seg[0..nseg), the
 * repetitions' intervals concatenated), k intervals per batch, batches
 * within segments only. 0, or -1 when fewer than 2 batches result. */
int orch_stats_paired_k(const double *a, const double *b, const int *seg, int nseg, int k,
                        orch_diff *out);

/* Paired comparison with k chosen by the rule (orch_stats_batching, also
 * into *bt). 0; -1 when too short for a verdict (bt->needs says how many
 * intervals it needs); -2 when out of memory. */
int orch_stats_paired(const double *a, const double *b, const int *seg, int nseg,
                      orch_diff *out, orch_batching *bt);

/* Welch's t interval of mean(a) - mean(b), a[0..na) and b[0..nb) one
 * value per repetition. 0, or -1 when na or nb < ORCH_STATS_MIN_REPS.
 * With both variances 0 the interval is the point diff (df = na+nb-2). */
int orch_stats_welch(const double *a, int na, const double *b, int nb, orch_diff *out);

/* Holm's step-down adjustment of the p-values p[0..n) of one family of
 * tests, into adj[0..n): sorted ascending p_(1) <= ... <= p_(n),
 * adj_(i) = max over j <= i of min(1, (n - j + 1) p_(j)). A NAN p (no
 * test) is left out of the family and gets NAN. 0, or -1 when out of
 * memory. */
int orch_stats_holm(const double *p, int n, double *adj);

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
                             orch_steady_check *out);

/* The first round N (1-based, >= window) whose window x[N-W .. N) is
 * steady, or 0 when none of x[0..n) is (also when n < window). */
int orch_stats_steady_first(const double *x, int n, const orch_steady_rule *r);

/* Sample coefficient of variation of v[0..n), percent; NAN when n < 2, a
 * value is not finite or the mean is 0. */
double orch_stats_cv(const double *v, int n);

#endif
