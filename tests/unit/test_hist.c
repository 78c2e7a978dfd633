/* Unit tests for common/hist.c: exact percentiles, merge, JSON round trip. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "hist.h"

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* The reference: HdrHistogram's rank rule applied to a sorted array. */
static int64_t ref_percentile(const int64_t *sorted, size_t n, double p)
{
    int64_t want = (int64_t)(p / 100.0 * (double)n + 0.5);
    if (want < 1)
        want = 1;
    return sorted[want - 1];
}

static void test_exact_small_values(void **state)
{
    /* Values below 2048 are stored exactly at 3 digits. */
    hist *h = hist_new(HIST_DEFAULT_HIGHEST, 3);
    int64_t v[1000];
    uint32_t s = 12345;
    const double ps[] = {1, 10, 50, 90, 95, 99, 99.9, 100};

    assert_non_null(h);
    for (int i = 0; i < 1000; i++) {
        s = s * 1103515245u + 12345u;
        v[i] = (s >> 8) % 2000;
        hist_record(h, v[i]);
    }
    qsort(v, 1000, sizeof(v[0]), cmp64);
    for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
        assert_int_equal(hist_percentile(h, ps[i]), ref_percentile(v, 1000, ps[i]));
    assert_int_equal(h->min, v[0]);
    assert_int_equal(h->max, v[999]);
    assert_int_equal(h->total, 1000);
    hist_free(h);
}

static void test_known_values(void **state)
{
    hist *h = hist_new(HIST_DEFAULT_HIGHEST, 3);
    /* 1..100: p50 = 50, p99 = 99, p99.9 = 100 (rank 100.4 -> 100) */
    for (int i = 1; i <= 100; i++)
        hist_record(h, i);
    assert_int_equal(hist_percentile(h, 50), 50);
    assert_int_equal(hist_percentile(h, 99), 99);
    assert_int_equal(hist_percentile(h, 99.9), 100);
    assert_int_equal(hist_percentile(h, 100), 100);
    assert_true(hist_mean(h) == 50.5);
    hist_free(h);
}

static void test_large_values_precision(void **state)
{
    hist *h = hist_new(HIST_DEFAULT_HIGHEST, 3);
    int64_t v[500];
    for (int i = 0; i < 500; i++) {
        v[i] = 10000 + (int64_t)i * 7919;     /* 10 ms .. ~4 s in µs */
        hist_record(h, v[i]);
    }
    /* Large values land in wider buckets; the percentile is the top of the
     * bucket of the reference sample, i.e. within 0.1 % above it. */
    for (double p = 5; p < 100; p += 5) {
        int64_t ref = ref_percentile(v, 500, p);
        int64_t got = hist_percentile(h, p);
        assert_int_equal(got, hist_highest_equivalent(h, ref));
        assert_true(got >= ref && (double)(got - ref) <= ref * 0.001);
    }
    /* Specific bucket: 1,000,000 µs with 3 digits lies in a bucket of width
     * 512 starting at 999,936 (1953 << 9). */
    assert_int_equal(hist_lowest_equivalent(h, 1000000), 999936);
    assert_int_equal(hist_highest_equivalent(h, 1000000), 1000447);
    hist_free(h);
}

static void test_merge_equals_single(void **state)
{
    hist *a = hist_new(HIST_DEFAULT_HIGHEST, 3);
    hist *b = hist_new(HIST_DEFAULT_HIGHEST, 3);
    hist *all = hist_new(HIST_DEFAULT_HIGHEST, 3);
    hist *other = hist_new(1000, 3);

    for (int i = 0; i < 3000; i++) {
        int64_t x = (int64_t)i * i % 50000 + 1;
        hist_record(i % 3 ? a : b, x);
        hist_record(all, x);
    }
    assert_int_equal(hist_add(a, b), 0);
    assert_int_equal(a->total, 3000);
    assert_int_equal(a->min, all->min);
    assert_int_equal(a->max, all->max);
    for (double p = 1; p <= 100; p += 0.5)
        assert_int_equal(hist_percentile(a, p), hist_percentile(all, p));
    assert_int_equal(hist_add(a, other), -1);     /* different parameters */
    hist_free(a); hist_free(b); hist_free(all); hist_free(other);
}

static void test_json_round_trip(void **state)
{
    hist *h = hist_new(HIST_DEFAULT_HIGHEST, 3), *back;
    char err[200];
    json_object *j, *parsed;

    for (int i = 0; i < 2000; i++)
        hist_record(h, 100 + (int64_t)i * i);
    hist_record_n(h, 5000000000LL, 2);            /* clamped to highest */
    assert_int_equal(h->max, HIST_DEFAULT_HIGHEST);
    j = hist_to_json(h);
    parsed = json_tokener_parse(json_object_to_json_string(j));
    back = hist_from_json(parsed, err, sizeof err);
    assert_non_null(back);
    assert_int_equal(back->total, h->total);
    assert_int_equal(back->min, h->min);
    assert_int_equal(back->max, h->max);
    assert_true(back->sum == h->sum);
    for (int i = 0; i < h->counts_len; i++)
        assert_int_equal(back->counts[i], h->counts[i]);
    json_object_put(j);
    json_object_put(parsed);
    hist_free(back);
    hist_free(h);
}

static void test_json_rejects_bad(void **state)
{
    char err[200];
    json_object *o = json_tokener_parse(
        "{\"significant_digits\":3,\"highest_trackable\":1000,\"count\":5,"
        "\"min\":1,\"max\":2,\"sum\":3,\"buckets\":[[1,1],[2,1]]}");
    assert_null(hist_from_json(o, err, sizeof err));
    assert_string_equal(err, "histogram count 5 does not match its buckets (2)");
    json_object_put(o);
    o = json_tokener_parse("{\"count\":1}");
    assert_null(hist_from_json(o, err, sizeof err));
    json_object_put(o);
    assert_null(hist_new(100, 0));
}

/* The sparse form: the non-empty buckets only, at its own or fewer
 * digits; merging and percentiles as the dense histogram's. */
static void test_sparse(void **state)
{
    hist *h = hist_new(HIST_DEFAULT_HIGHEST, 3), *back = hist_new(HIST_DEFAULT_HIGHEST, 2);
    hist_sparse *s, *c, *m = NULL, *r;
    json_object *j, *parsed;
    const char *text, *one_line;
    char err[200];

    for (int i = 1; i <= 100; i++)
        hist_record(h, i);
    hist_record(h, 5000);                    /* 3 digits: bucket of 4 from 4096 */
    s = hist_sparse_of(h, 3);
    assert_int_equal(s->n, 101);
    assert_int_equal(s->value[100], 5000);
    assert_int_equal(hist_sparse_percentile(s, 50), hist_percentile(h, 50));
    assert_int_equal(hist_sparse_percentile(s, 99), 100);
    assert_int_equal(hist_sparse_percentile(s, 100), 5000);
    /* 2 digits: exact below 256; 5000 is in 4096..8191, buckets of 32 */
    c = hist_sparse_of(h, 2);
    assert_int_equal(c->sig_digits, 2);
    assert_int_equal(c->n, 101);
    assert_int_equal(c->value[100], 4992);
    assert_int_equal(c->total, 101);
    assert_int_equal(c->max, 5000);
    assert_true(c->sum == 5050 + 5000);
    /* merge with itself: every count doubled; with another layout: refused */
    assert_int_equal(hist_sparse_merge(&m, c), 0);
    assert_int_equal(hist_sparse_merge(&m, c), 0);
    assert_int_equal(m->n, 101);
    assert_int_equal(m->count[0], 2);
    assert_int_equal(m->total, 202);
    assert_int_equal(hist_sparse_merge(&m, s), -1);
    /* rank 201 of 202 is in 4992's bucket (4992..5023): capped at max 5000 */
    assert_int_equal(hist_sparse_percentile(m, 99.5), 5000);
    assert_int_equal(hist_add_sparse(back, m), 0);
    assert_int_equal(back->total, 202);
    assert_int_equal(hist_percentile(back, 50), 51);     /* rank 101 of 202: 51, 51 */
    assert_int_equal(hist_add_sparse(h, m), -1);
    /* JSON: the histogram object, its buckets one string of VALUE:COUNT */
    j = hist_sparse_to_json(c);
    text = json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY);
    one_line = strstr(text, "\"buckets\":\"1:1 2:1 3:1 ");
    assert_non_null(one_line);
    assert_non_null(strstr(one_line, " 4992:1\""));
    parsed = json_tokener_parse(text);
    r = hist_sparse_from_json(parsed, err, sizeof err);
    assert_non_null(r);
    assert_int_equal(r->n, c->n);
    assert_memory_equal(r->value, c->value, sizeof *r->value * (size_t)r->n);
    assert_memory_equal(r->count, c->count, sizeof *r->count * (size_t)r->n);
    assert_true(r->sum == c->sum && r->min == c->min && r->max == c->max);
    json_object_put(parsed);
    /* out of order buckets are refused */
    parsed = json_tokener_parse("{\"significant_digits\":2,\"highest_trackable\":1000,"
                                "\"count\":2,\"min\":1,\"max\":2,\"sum\":3,"
                                "\"buckets\":[[2,1],[1,1]]}");
    assert_null(hist_sparse_from_json(parsed, err, sizeof err));
    assert_string_equal(err, "histogram bucket 1 out of range or order");
    json_object_put(parsed);
    /* the string form: read as the arrays are, refused as exactly */
    {
        static const struct { const char *buckets, *err; } cases[] = {
            { "1:1 2:1", NULL },
            { "", "histogram count 2 does not match its buckets (0)" },
            { "2:1 1:1", "histogram bucket 1 out of range or order" },
            { "1:1 1001:1", "histogram bucket 1 out of range or order" },
            { "1:0 2:2", "histogram bucket 0 out of range or order" },
            { "1:1  2:1", "histogram bucket 1 is not VALUE:COUNT" },
            { " 1:1 2:1", "histogram bucket 0 is not VALUE:COUNT" },
            { "1:1 2:1 ", "histogram bucket 2 is not VALUE:COUNT" },
            { "1:1,2:1", "histogram bucket 0 is not VALUE:COUNT" },
            { "1:-1 2:1", "histogram bucket 0 is not VALUE:COUNT" },
            { "-1:1 2:1", "histogram bucket 0 is not VALUE:COUNT" },
            { "1:1 2:99999999999999999999", "histogram bucket 1 is not VALUE:COUNT" },
            { "1:1 2", "histogram bucket 1 is not VALUE:COUNT" },
        };
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            char doc[256];
            hist_sparse *x;
            snprintf(doc, sizeof doc, "{\"significant_digits\":2,\"highest_trackable\":1000,"
                     "\"count\":2,\"min\":1,\"max\":2,\"sum\":3,\"buckets\":\"%s\"}",
                     cases[i].buckets);
            parsed = json_tokener_parse(doc);
            assert_non_null(parsed);
            x = hist_sparse_from_json(parsed, err, sizeof err);
            if (!cases[i].err) {
                assert_non_null(x);
                assert_int_equal(x->n, 2);
                assert_true(x->value[1] == 2 && x->count[1] == 1 && x->total == 2);
            } else {
                assert_null(x);
                assert_string_equal(err, cases[i].err);
            }
            hist_sparse_free(x);
            json_object_put(parsed);
        }
    }
    json_object_put(j);
    hist_sparse_free(s);
    hist_sparse_free(c);
    hist_sparse_free(m);
    hist_sparse_free(r);
    hist_sparse_free(NULL);
    hist_free(h);
    hist_free(back);
}

static void test_empty(void **state)
{
    hist *h = hist_new(HIST_DEFAULT_HIGHEST, 3);
    assert_int_equal(hist_percentile(h, 99), 0);
    assert_true(hist_mean(h) == 0.0);
    hist_free(h);
    hist_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_small_values),
        cmocka_unit_test(test_known_values),
        cmocka_unit_test(test_large_values_precision),
        cmocka_unit_test(test_merge_equals_single),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_json_rejects_bad),
        cmocka_unit_test(test_sparse),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests_name("hist", tests, NULL, NULL);
}
