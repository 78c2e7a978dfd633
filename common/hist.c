/*
 * hist.c — log-linear latency histogram (see hist.h).
 *
 * Index arithmetic follows HdrHistogram_c with a unit magnitude of 0
 * (the smallest distinguishable value is 1).
 */
#include "hist.h"

#include <errno.h>
#include <inttypes.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t pow10i(int n)
{
    int64_t v = 1;
    while (n-- > 0)
        v *= 10;
    return v;
}

/* h's layout for values 0..highest at sig_digits (no counts). */
static void layout(hist *h, int64_t highest, int sig_digits)
{
    int64_t largest_single_unit, smallest_untrackable;
    int magnitude, buckets;

    largest_single_unit = 2 * pow10i(sig_digits);
    magnitude = (int)ceil(log2((double)largest_single_unit));
    h->highest = highest;
    h->sig_digits = sig_digits;
    h->sub_bucket_count_magnitude = magnitude;
    h->sub_bucket_half_count_magnitude = magnitude - 1;
    h->sub_bucket_count = 1 << magnitude;
    h->sub_bucket_half_count = h->sub_bucket_count / 2;
    h->sub_bucket_mask = (int64_t)h->sub_bucket_count - 1;

    smallest_untrackable = h->sub_bucket_count;
    buckets = 1;
    while (smallest_untrackable <= highest) {
        if (smallest_untrackable > INT64_MAX / 2) {
            buckets++;
            break;
        }
        smallest_untrackable <<= 1;
        buckets++;
    }
    h->bucket_count = buckets;
    h->counts_len = (buckets + 1) * h->sub_bucket_half_count;
}

hist *hist_new(int64_t highest, int sig_digits)
{
    hist *h;

    if (sig_digits < 1 || sig_digits > 5 || highest < 2)
        return NULL;
    h = calloc(1, sizeof(*h));
    if (!h)
        return NULL;
    layout(h, highest, sig_digits);
    h->counts = calloc((size_t)h->counts_len, sizeof(int64_t));
    if (!h->counts) {
        free(h);
        return NULL;
    }
    return h;
}

void hist_free(hist *h)
{
    if (!h)
        return;
    free(h->counts);
    free(h);
}

void hist_reset(hist *h)
{
    memset(h->counts, 0, (size_t)h->counts_len * sizeof(int64_t));
    h->total = 0;
    h->min = h->max = 0;
    h->sum = 0;
}

static int bucket_index(const hist *h, int64_t value)
{
    /* position of the highest set bit of (value | mask) */
    int pow2ceiling = 64 - __builtin_clzll((uint64_t)(value | h->sub_bucket_mask));
    return pow2ceiling - (h->sub_bucket_half_count_magnitude + 1);
}

static int counts_index_for(const hist *h, int64_t value)
{
    int b = bucket_index(h, value);
    int sub = (int)(value >> b);
    int base = (b + 1) << h->sub_bucket_half_count_magnitude;
    return base + (sub - h->sub_bucket_half_count);
}

static int64_t value_from_index(const hist *h, int index)
{
    int b = (index >> h->sub_bucket_half_count_magnitude) - 1;
    int sub = (index & (h->sub_bucket_half_count - 1)) + h->sub_bucket_half_count;
    if (b < 0) {
        sub -= h->sub_bucket_half_count;
        b = 0;
    }
    return (int64_t)sub << b;
}

static int64_t bucket_range(const hist *h, int64_t value)
{
    int b = bucket_index(h, value);
    int sub = (int)(value >> b);
    int adjusted = (sub >= h->sub_bucket_count) ? b + 1 : b;
    return (int64_t)1 << adjusted;
}

int64_t hist_lowest_equivalent(const hist *h, int64_t value)
{
    int b = bucket_index(h, value);
    int sub = (int)(value >> b);
    return (int64_t)sub << b;
}

int64_t hist_highest_equivalent(const hist *h, int64_t value)
{
    return hist_lowest_equivalent(h, value) + bucket_range(h, value) - 1;
}

void hist_record_n(hist *h, int64_t value, int64_t n)
{
    int idx;

    if (n <= 0)
        return;
    if (value < 0)
        value = 0;
    if (value > h->highest)
        value = h->highest;
    idx = counts_index_for(h, value);
    if (idx < 0 || idx >= h->counts_len)
        idx = h->counts_len - 1;
    h->counts[idx] += n;
    if (h->total == 0 || value < h->min)
        h->min = value;
    if (value > h->max)
        h->max = value;
    h->total += n;
    h->sum += (double)value * (double)n;
}

int hist_add(hist *dst, const hist *src)
{
    if (dst->sig_digits != src->sig_digits || dst->highest != src->highest)
        return -1;
    for (int i = 0; i < src->counts_len; i++)
        dst->counts[i] += src->counts[i];
    if (src->total > 0) {
        if (dst->total == 0 || src->min < dst->min)
            dst->min = src->min;
        if (src->max > dst->max)
            dst->max = src->max;
    }
    dst->total += src->total;
    dst->sum += src->sum;
    return 0;
}

int64_t hist_percentile(const hist *h, double p)
{
    int64_t want, seen = 0;

    if (h->total == 0)
        return 0;
    if (p > 100.0)
        p = 100.0;
    if (p < 0.0)
        p = 0.0;
    want = (int64_t)(p / 100.0 * (double)h->total + 0.5);
    if (want < 1)
        want = 1;
    for (int i = 0; i < h->counts_len; i++) {
        seen += h->counts[i];
        if (seen >= want) {
            int64_t v = hist_highest_equivalent(h, value_from_index(h, i));
            /* never report beyond what was actually seen */
            return v > h->max ? h->max : v;
        }
    }
    return h->max;
}

double hist_percentile_ms(const hist *h, double p)
{
    return h && h->total > 0 ? (double)hist_percentile(h, p) / 1000.0 : NAN;
}

double hist_mean(const hist *h)
{
    return h->total ? h->sum / (double)h->total : 0.0;
}

/* The keys of a histogram object (results/SCHEMA.md, "histogram"). */
#define HK_UNIT     "unit"
#define HK_DIGITS   "significant_digits"
#define HK_HIGHEST  "highest_trackable"
#define HK_COUNT    "count"
#define HK_MIN      "min"
#define HK_MAX      "max"
#define HK_SUM      "sum"
#define HK_BUCKETS  "buckets"

/* The members both histogram writers start with, in the one order the
 * readers and the fixtures know. */
static json_object *header_json(int sig_digits, int64_t highest, int64_t total, int64_t min,
                                int64_t max, double sum)
{
    json_object *o = json_object_new_object();

    json_object_object_add(o, HK_UNIT, json_object_new_string("us"));
    json_object_object_add(o, HK_DIGITS, json_object_new_int(sig_digits));
    json_object_object_add(o, HK_HIGHEST, json_object_new_int64(highest));
    json_object_object_add(o, HK_COUNT, json_object_new_int64(total));
    json_object_object_add(o, HK_MIN, json_object_new_int64(min));
    json_object_object_add(o, HK_MAX, json_object_new_int64(max));
    json_object_object_add(o, HK_SUM, json_object_new_double(sum));
    return o;
}

json_object *hist_to_json(const hist *h)
{
    json_object *o = header_json(h->sig_digits, h->highest, h->total, h->min, h->max, h->sum);
    json_object *b = json_object_new_array();

    for (int i = 0; i < h->counts_len; i++) {
        if (!h->counts[i])
            continue;
        json_object *pair = json_object_new_array_ext(2);
        json_object_array_add(pair, json_object_new_int64(value_from_index(h, i)));
        json_object_array_add(pair, json_object_new_int64(h->counts[i]));
        json_object_array_add(b, pair);
    }
    json_object_object_add(o, HK_BUCKETS, b);
    return o;
}

static int get_int64(json_object *o, const char *key, int64_t *out)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) ||
        !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
        return -1;
    *out = json_object_get_int64(v);
    return 0;
}

/* Room a histogram's buckets need: the pairs of an array, the ':' of a
 * string; -1 when they are neither. */
static long buckets_room(json_object *b)
{
    long n = 0;
    if (json_object_is_type(b, json_type_array))
        return (long)json_object_array_length(b);
    if (!json_object_is_type(b, json_type_string))
        return -1;
    for (const char *p = json_object_get_string(b); *p; p++)
        n += *p == ':';
    return n;
}

int hist_json_bounds(json_object *obj, int max_digits, int64_t max_highest, size_t max_buckets,
                     char *err, size_t errlen)
{
    json_object *b = NULL, *v;
    int64_t digits = 0, highest = 0, total = 0;
    long room;
    size_t n;
    if (obj && json_object_is_type(obj, json_type_object)) {
        if (json_object_object_get_ex(obj, HK_DIGITS, &v))
            digits = json_object_get_int64(v);
        if (json_object_object_get_ex(obj, HK_HIGHEST, &v))
            highest = json_object_get_int64(v);
        json_object_object_get_ex(obj, HK_BUCKETS, &b);
    }
    room = b ? buckets_room(b) : 0;
    n = room > 0 ? (size_t)room : 0;
    if (digits > max_digits || highest > max_highest) {
        snprintf(err, errlen, HK_DIGITS " %" PRId64 " or " HK_HIGHEST " %" PRId64
                 " above the bounds (%d, %lld)", digits, highest, max_digits,
                 (long long)max_highest);
        return -1;
    }
    if (n > max_buckets) {
        snprintf(err, errlen, "%zu " HK_BUCKETS ", more than %zu", n, max_buckets);
        return -1;
    }
    /* a string's counts are summed with an overflow check as it is read */
    for (size_t i = 0; json_object_is_type(b, json_type_array) && i < n; i++) {
        json_object *pair = json_object_array_get_idx(b, i), *c = NULL;
        int64_t k;
        if (pair && json_object_is_type(pair, json_type_array)
            && json_object_array_length(pair) > 1)
            c = json_object_array_get_idx(pair, 1);
        k = c ? json_object_get_int64(c) : 0;
        if (k > 0 && __builtin_add_overflow(total, k, &total)) {
            snprintf(err, errlen, "bucket counts overflow");
            return -1;
        }
    }
    return 0;
}

hist *hist_from_json(json_object *obj, char *err, size_t errlen)
{
    hist_sparse *s = hist_sparse_from_json(obj, err, errlen);
    hist *h = s ? hist_new(s->highest, s->sig_digits) : NULL;
    if (s && !h)
        snprintf(err, errlen, "out of memory");
    if (h)
        hist_add_sparse(h, s);
    hist_sparse_free(s);
    return h;
}

/* ------------------------------------------------------------------ */
/* sparse form                                                         */

static hist_sparse *sparse_new(const hist *h, int n)
{
    hist_sparse *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->value = malloc(2 * (size_t)(n ? n : 1) * sizeof *s->value);
    if (!s->value) {
        free(s);
        return NULL;
    }
    s->count = s->value + n;
    s->highest = h->highest;
    s->sig_digits = h->sig_digits;
    s->total = h->total;
    s->min = h->min;
    s->max = h->max;
    s->sum = h->sum;
    return s;
}

/* h's non-empty buckets, at h's own precision */
static hist_sparse *sparse_exact(const hist *h)
{
    hist_sparse *s;
    int n = 0;
    for (int i = 0; i < h->counts_len; i++)
        n += h->counts[i] != 0;
    if (!(s = sparse_new(h, n)))
        return NULL;
    for (int i = 0; i < h->counts_len; i++)
        if (h->counts[i]) {
            s->value[s->n] = value_from_index(h, i);
            s->count[s->n++] = h->counts[i];
        }
    return s;
}

hist_sparse *hist_sparse_of(const hist *h, int sig_digits)
{
    hist *c;
    hist_sparse *s;
    if (!h)
        return NULL;
    if (sig_digits >= h->sig_digits)
        return sparse_exact(h);
    if (!(c = hist_new(h->highest, sig_digits)))
        return NULL;
    for (int i = 0; i < h->counts_len; i++)
        if (h->counts[i])
            c->counts[counts_index_for(c, value_from_index(h, i))] += h->counts[i];
    c->total = h->total;
    c->min = h->min;
    c->max = h->max;
    c->sum = h->sum;
    s = sparse_exact(c);
    hist_free(c);
    return s;
}

void hist_sparse_free(hist_sparse *s)
{
    if (!s)
        return;
    free(s->value);
    free(s);
}

hist_sparse *hist_sparse_copy(const hist_sparse *s)
{
    hist_sparse *c;
    if (!s)
        return NULL;
    c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *s;
    c->value = malloc(2 * (size_t)(s->n ? s->n : 1) * sizeof *c->value);
    if (!c->value) {
        free(c);
        return NULL;
    }
    c->count = c->value + s->n;
    memcpy(c->value, s->value, (size_t)s->n * sizeof *c->value);
    memcpy(c->count, s->count, (size_t)s->n * sizeof *c->count);
    return c;
}

int hist_sparse_merge(hist_sparse **dst, const hist_sparse *s)
{
    const hist_sparse *d = *dst;
    hist_sparse *m;
    int i = 0, j = 0, n = 0;
    if (!d)
        return (*dst = hist_sparse_copy(s)) ? 0 : -1;
    if (d->sig_digits != s->sig_digits || d->highest != s->highest)
        return -1;
    /* the union's size first: a merged histogram kept per time bin
     * (orchestrator/telemetry) holds its buckets, not d's and s's sum */
    while (i < d->n || j < s->n) {
        int64_t a = i < d->n ? d->value[i] : INT64_MAX;
        int64_t b = j < s->n ? s->value[j] : INT64_MAX;
        i += a <= b;
        j += b <= a;
        n++;
    }
    i = j = 0;
    if (!(m = malloc(sizeof *m)))
        return -1;
    *m = *d;
    m->value = malloc(2 * (size_t)(n ? n : 1) * sizeof *m->value);
    if (!m->value) {
        free(m);
        return -1;
    }
    m->count = m->value + n;
    m->n = 0;
    while (i < d->n || j < s->n) {
        int64_t a = i < d->n ? d->value[i] : INT64_MAX;
        int64_t b = j < s->n ? s->value[j] : INT64_MAX;
        m->value[m->n] = a < b ? a : b;
        m->count[m->n] = (a <= b ? d->count[i++] : 0) + (b <= a ? s->count[j++] : 0);
        m->n++;
    }
    if (s->total > 0) {
        if (m->total == 0 || s->min < m->min)
            m->min = s->min;
        if (s->max > m->max)
            m->max = s->max;
    }
    m->total += s->total;
    m->sum += s->sum;
    hist_sparse_free(*dst);
    *dst = m;
    return 0;
}

int64_t hist_sparse_percentile(const hist_sparse *s, double p)
{
    hist h = { 0 };
    int64_t want, seen = 0;
    if (!s || s->total == 0)
        return 0;
    layout(&h, s->highest, s->sig_digits);
    p = p > 100.0 ? 100.0 : p < 0.0 ? 0.0 : p;
    want = (int64_t)(p / 100.0 * (double)s->total + 0.5);
    if (want < 1)
        want = 1;
    for (int i = 0; i < s->n; i++) {
        seen += s->count[i];
        if (seen >= want) {
            int64_t v = hist_highest_equivalent(&h, s->value[i]);
            return v > s->max ? s->max : v;
        }
    }
    return s->max;
}

int hist_add_sparse(hist *dst, const hist_sparse *s)
{
    if (dst->sig_digits != s->sig_digits || dst->highest != s->highest)
        return -1;
    for (int i = 0; i < s->n; i++)
        dst->counts[counts_index_for(dst, s->value[i])] += s->count[i];
    if (s->total > 0) {
        if (dst->total == 0 || s->min < dst->min)
            dst->min = s->min;
        if (s->max > dst->max)
            dst->max = s->max;
    }
    dst->total += s->total;
    dst->sum += s->sum;
    return 0;
}

/* A sparse histogram's buckets as one string, "VALUE:COUNT VALUE:COUNT"
 * (values ascending, one space between pairs): as an array of pairs a
 * 3-h series of them costs json-c a few hundred bytes per bucket to read
 * back (two integer objects and an array each), as a string a byte or
 * two per character. NULL when out of memory. */
static json_object *buckets_text(const hist_sparse *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    json_object *o = NULL;
    if (!f)
        return NULL;
    for (int i = 0; i < s->n; i++)
        fprintf(f, "%s%" PRId64 ":%" PRId64, i ? " " : "", s->value[i], s->count[i]);
    if (fclose(f) == 0 && len <= INT32_MAX)
        o = json_object_new_string_len(buf, (int)len);
    free(buf);
    return o;
}

/* The pairs of a buckets string (buckets_text) into s, which has room
 * for each ':' of it. 0, or -1 with err. */
static int parse_buckets_text(const char *t, hist_sparse *s, int64_t highest, int64_t *total,
                              char *err, size_t errlen)
{
    const char *p = t;
    while (*p) {
        char *end;
        long long v, c;
        int i = s->n;
        if (i > 0 && *p++ != ' ')
            goto bad;
        if (*p < '0' || *p > '9')
            goto bad;
        errno = 0;
        v = strtoll(p, &end, 10);
        if (errno || *end != ':' || end[1] < '0' || end[1] > '9')
            goto bad;
        c = strtoll(end + 1, &end, 10);
        if (errno || (*end && *end != ' '))
            goto bad;
        p = end;
        if (v > highest || c <= 0 || (i > 0 && v <= s->value[i - 1])
            || __builtin_add_overflow(*total, c, total)) {
            snprintf(err, errlen, "histogram bucket %d out of range or order", i);
            return -1;
        }
        s->value[i] = v;
        s->count[i] = c;
        s->n = i + 1;
    }
    return 0;
bad:
    snprintf(err, errlen, "histogram bucket %d is not VALUE:COUNT", s->n);
    return -1;
}

json_object *hist_sparse_to_json(const hist_sparse *s)
{
    json_object *o = header_json(s->sig_digits, s->highest, s->total, s->min, s->max, s->sum);

    json_object_object_add(o, HK_BUCKETS, buckets_text(s));
    return o;
}

hist_sparse *hist_sparse_from_json(json_object *obj, char *err, size_t errlen)
{
    int64_t digits, highest, count, mn, mx, total = 0;
    json_object *buckets, *sumv;
    hist_sparse *s = NULL;
    hist probe;
    size_t n;

    if (!obj || !json_object_is_type(obj, json_type_object)) {
        snprintf(err, errlen, "histogram is not an object");
        return NULL;
    }
    if (get_int64(obj, HK_DIGITS, &digits) < 0 || get_int64(obj, HK_HIGHEST, &highest) < 0
        || get_int64(obj, HK_COUNT, &count) < 0 || get_int64(obj, HK_MIN, &mn) < 0
        || get_int64(obj, HK_MAX, &mx) < 0 || !json_object_object_get_ex(obj, HK_SUM, &sumv)
        || !json_object_object_get_ex(obj, HK_BUCKETS, &buckets)
        || buckets_room(buckets) < 0) {
        snprintf(err, errlen, "histogram lacks one of " HK_DIGITS ", " HK_HIGHEST ", "
                 HK_COUNT ", " HK_MIN ", " HK_MAX ", " HK_SUM ", " HK_BUCKETS);
        return NULL;
    }
    if (digits < 1 || digits > 5 || highest < 2) {
        snprintf(err, errlen, "histogram parameters out of range "
                 "(significant_digits=%lld, highest_trackable=%lld)",
                 (long long)digits, (long long)highest);
        return NULL;
    }
    probe = (hist){ .highest = highest, .sig_digits = (int)digits, .total = count, .min = mn,
                    .max = mx, .sum = json_object_get_double(sumv) };
    n = (size_t)buckets_room(buckets);
    if (n > INT32_MAX || !(s = sparse_new(&probe, (int)n))) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (json_object_is_type(buckets, json_type_string)) {
        if (parse_buckets_text(json_object_get_string(buckets), s, highest, &total, err,
                               errlen) < 0)
            goto fail;
        n = 0;
    }
    for (size_t i = 0; i < n; i++) {
        json_object *pair = json_object_array_get_idx(buckets, i);
        int64_t v, c;
        if (!json_object_is_type(pair, json_type_array) || json_object_array_length(pair) != 2) {
            snprintf(err, errlen, "histogram bucket %zu is not [value,count]", i);
            goto fail;
        }
        v = json_object_get_int64(json_object_array_get_idx(pair, 0));
        c = json_object_get_int64(json_object_array_get_idx(pair, 1));
        if (v < 0 || v > highest || c <= 0 || (s->n > 0 && v <= s->value[s->n - 1])
            || __builtin_add_overflow(total, c, &total)) {
            snprintf(err, errlen, "histogram bucket %zu out of range or order", i);
            goto fail;
        }
        s->value[s->n] = v;
        s->count[s->n++] = c;
    }
    if (total != count) {
        snprintf(err, errlen, "histogram count %lld does not match its buckets (%lld)",
                 (long long)count, (long long)total);
        goto fail;
    }
    return s;
fail:
    hist_sparse_free(s);
    return NULL;
}
