/*
 * hist.h — log-linear latency histogram with fixed relative precision.
 *
 * The layout follows HdrHistogram: values (microseconds here) are kept in
 * buckets whose width grows with the value, so every recorded value is
 * known to `sig_digits` significant decimal digits (3 by default: 0.1 %).
 * Values below 2 * 10^sig_digits are recorded exactly.
 *
 * One histogram per worker; histograms with the same parameters merge with
 * hist_add(), which is how per-worker, per-VM and per-drive percentiles
 * are computed from all samples instead of by averaging percentiles.
 *
 * A percentile is the highest value equivalent to the bucket that holds the
 * sample of rank ceil-ish(p/100 * N + 0.5) (HdrHistogram's rule), so for
 * values recorded exactly it equals sorted[(int)(p/100*N + 0.5) - 1].
 */
#ifndef DB_HIST_H
#define DB_HIST_H

#include <stdint.h>
#include <stddef.h>
#include <json-c/json.h>

#define HIST_DEFAULT_HIGHEST  (3600LL * 1000 * 1000)  /* 1 hour in µs */
#define HIST_DEFAULT_DIGITS   3

typedef struct hist {
    int64_t  highest;             /* largest value kept; larger ones clamp */
    int      sig_digits;          /* 1..5 */
    int      sub_bucket_count;    /* power of two >= 2 * 10^sig_digits */
    int      sub_bucket_half_count;
    int      sub_bucket_half_count_magnitude;
    int      sub_bucket_count_magnitude;
    int64_t  sub_bucket_mask;
    int      bucket_count;
    int      counts_len;
    int64_t  total;               /* number of values recorded */
    int64_t  min, max;            /* exact, 0 when empty */
    double   sum;                 /* exact sum, for the mean */
    int64_t *counts;
} hist;

/* Create an empty histogram for values 0..highest with sig_digits digits.
 * Returns NULL on bad parameters or out of memory. Free with hist_free(). */
hist *hist_new(int64_t highest, int sig_digits);
void  hist_free(hist *h);                 /* accepts NULL */
void  hist_reset(hist *h);

/* Record `n` occurrences of `value` (negative -> 0, above highest -> clamped
 * to highest). */
void hist_record_n(hist *h, int64_t value, int64_t n);
static inline void hist_record(hist *h, int64_t value) { hist_record_n(h, value, 1); }

/* dst += src. Returns 0, or -1 when the two were built with different
 * parameters (then dst is unchanged). */
int hist_add(hist *dst, const hist *src);

/* Value at percentile p (0 < p <= 100); 0 for an empty histogram. */
int64_t hist_percentile(const hist *h, double p);
/* hist_percentile in milliseconds (values in us), NAN when h is NULL or
 * empty: an empty histogram has no percentile, and a figure written from
 * it is absent, never 0 (issue 29). */
double  hist_percentile_ms(const hist *h, double p);
double  hist_mean(const hist *h);

/* Bucket helpers, exposed for tests and for the report code. */
int64_t hist_lowest_equivalent(const hist *h, int64_t value);
int64_t hist_highest_equivalent(const hist *h, int64_t value);

/*
 * JSON form (see results/SCHEMA.md, "histogram"):
 *   {"unit":"us","significant_digits":3,"highest_trackable":N,
 *    "count":N,"min":N,"max":N,"sum":N,"buckets":[[value,count],...]}
 * `buckets` lists non-empty buckets by their lowest equivalent value, in
 * increasing order (a reader refuses another order).
 * hist_to_json returns a new reference (caller puts it). hist_from_json
 * returns a new histogram or NULL with a message in err.
 */
json_object *hist_to_json(const hist *h);
hist *hist_from_json(json_object *obj, char *err, size_t errlen);
/* The bounds of a histogram object checked before hist_from_json
 * allocates for it (its memory grows with significant_digits and
 * highest_trackable): 0, or -1 with the reason when a bound is passed,
 * there are more than max_buckets buckets or their counts overflow. */
int hist_json_bounds(json_object *obj, int max_digits, int64_t max_highest, size_t max_buckets,
                     char *err, size_t errlen);

/*
 * Sparse form: only the non-empty buckets, as (lowest equivalent value,
 * count) pairs in increasing value order, with the parameters, count,
 * min, max and sum of the histogram it was taken from. Its memory grows
 * with the buckets used, not with the layout (a 3-digit histogram up to
 * an hour holds 23,552 counters, 184 KiB), so a series of one per
 * interval stays small. Its JSON is the histogram object above.
 */
typedef struct hist_sparse {
    int64_t  highest;
    int      sig_digits;
    int64_t  total, min, max;
    double   sum;
    int      n;                   /* buckets */
    int64_t *value, *count;       /* [n] each, one allocation */
} hist_sparse;

/* The non-empty buckets of h, re-bucketed to sig_digits digits when that
 * is fewer than h's (each bucket's count goes to the coarser bucket that
 * holds its lowest value; total, min, max and sum stay exact). A new
 * sparse histogram (free with hist_sparse_free), or NULL on bad
 * parameters or out of memory. */
hist_sparse *hist_sparse_of(const hist *h, int sig_digits);
void hist_sparse_free(hist_sparse *s);      /* accepts NULL */
/* A copy of s (NULL when out of memory, or s NULL). */
hist_sparse *hist_sparse_copy(const hist_sparse *s);
/* *dst += s, *dst a copy of s when NULL: the union of their buckets. 0,
 * or -1 when out of memory or built with different parameters (then *dst
 * is unchanged). */
int hist_sparse_merge(hist_sparse **dst, const hist_sparse *s);
/* Value at percentile p, by hist_percentile's rule; 0 when empty. */
int64_t hist_sparse_percentile(const hist_sparse *s, double p);
/* dst += s. 0, or -1 when they were built with different parameters. */
int hist_add_sparse(hist *dst, const hist_sparse *s);
/* As hist_to_json / hist_from_json (same object). The "buckets" array is
 * written on one line even in a pretty-printed document. */
json_object *hist_sparse_to_json(const hist_sparse *s);
hist_sparse *hist_sparse_from_json(json_object *obj, char *err, size_t errlen);

#endif
