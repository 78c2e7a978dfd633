/* Unit tests for oltp/tpcc/tpcc_rand.c: NURand's shape, the C-constant rule of
 * clause 2.1.6.1, last names, the deck's mix, think times, and the draws and
 * rules of each --tpcc-compat mode. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "tpcc/tpcc_rand.h"

/* Exact distribution of NURand(A, x, y) with constant C, by enumerating
 * every pair of uniform draws. p[v - x] gets the probability of v. */
static void nurand_exact(uint32_t a, uint32_t c, uint32_t x, uint32_t y, double *p)
{
    uint32_t n = y - x + 1;
    double w = 1.0 / ((double)(a + 1) * n);
    memset(p, 0, n * sizeof(*p));
    for (uint32_t r1 = 0; r1 <= a; r1++)
        for (uint32_t r2 = x; r2 <= y; r2++)
            p[(((r1 | r2) + c) % n)] += w;
}

/* Chi-square statistic of counts against probabilities. */
static double chi2(const int64_t *count, const double *p, uint32_t n, int64_t total)
{
    double s = 0;
    for (uint32_t i = 0; i < n; i++) {
        double e = p[i] * (double)total;
        if (e > 0)
            s += ((double)count[i] - e) * ((double)count[i] - e) / e;
    }
    return s;
}

static void check_nurand(uint32_t a, uint32_t c, uint32_t x, uint32_t y, int64_t draws)
{
    uint32_t n = y - x + 1;
    int64_t *count = calloc(n, sizeof(*count));
    double *p = calloc(n, sizeof(*p)), *u = calloc(n, sizeof(*u));
    double crit = n - 1 + 4.0 * sqrt(2.0 * (n - 1));     /* ~ p < 1e-4 */
    rng r;

    assert_non_null(count);
    assert_non_null(p);
    assert_non_null(u);
    rng_seed(&r, 12345, a);
    for (int64_t i = 0; i < draws; i++) {
        uint32_t v = tpcc_nurand(&r, a, c, x, y);
        assert_in_range(v, x, y);
        count[v - x]++;
    }
    nurand_exact(a, c, x, y, p);
    for (uint32_t i = 0; i < n; i++)
        u[i] = 1.0 / n;
    /* fits its exact shape, and that shape is far from uniform */
    assert_true(chi2(count, p, n, draws) < crit);
    assert_true(chi2(count, u, n, draws) > 10 * crit);
    free(count);
    free(p);
    free(u);
}

static void test_nurand_shape(void **state)
{
    (void)state;
    check_nurand(255, 157, 0, 999, 2000000);
    check_nurand(1023, 259, 1, 3000, 3000000);
}

static void test_nurand_exact_small(void **state)
{
    /* C rotates the distribution: NURand(255, 0, 999) with C and with C+1
     * differ by a shift of one (exact enumeration) */
    double p0[1000], p1[1000];
    (void)state;
    nurand_exact(255, 10, 0, 999, p0);
    nurand_exact(255, 11, 0, 999, p1);
    for (int v = 0; v < 1000; v++)
        assert_true(fabs(p0[v] - p1[(v + 1) % 1000]) < 1e-15);
    /* (r1 | r2) >= r2: the most likely values sit just above multiples of 256 */
    assert_true(p0[(255 + 10) % 1000] > 3.0 / 1000);
}

static void test_c_last_rule(void **state)
{
    const uint32_t L = TPCC_C_LAST_LOAD;
    bool seen[256] = {0};
    int distinct = 0, valid = 0;
    rng r;
    (void)state;

    assert_true(L <= 255);
    assert_true(tpcc_c_last_valid(L, L + 65));
    assert_true(tpcc_c_last_valid(L, L - 65));
    assert_true(tpcc_c_last_valid(L, L - 119));
    assert_false(tpcc_c_last_valid(L, L + 64));
    assert_false(tpcc_c_last_valid(L, L - 120));
    assert_false(tpcc_c_last_valid(L, L + 96));
    assert_false(tpcc_c_last_valid(L, L - 96));
    assert_false(tpcc_c_last_valid(L, L - 112));
    assert_false(tpcc_c_last_valid(L, L));
    assert_false(tpcc_c_last_valid(L, 256));
    for (uint32_t c = 0; c <= 255; c++)
        valid += tpcc_c_last_valid(L, c);
    /* 157: 222..255 (deltas 65..98 without 96) and 38..92 (without 61, 45) */
    assert_int_equal(valid, 33 + 53);

    rng_seed(&r, 99, 1);
    for (int i = 0; i < 100000; i++) {
        tpcc_consts k;
        tpcc_consts_run(&r, &k);
        assert_true(tpcc_c_last_valid(L, k.c_last));
        assert_in_range(k.c_id, 0, 1023);
        assert_in_range(k.ol_i_id, 0, 8191);
        if (!seen[k.c_last]) {
            seen[k.c_last] = true;
            distinct++;
        }
    }
    assert_int_equal(distinct, valid);      /* every valid value can be drawn */
    {
        tpcc_consts k;
        tpcc_consts_load(&r, &k);
        assert_int_equal(k.c_last, L);
    }
}

static void test_last_names(void **state)
{
    char b[16];
    (void)state;
    assert_int_equal(tpcc_last_name(0, b), 9);
    assert_string_equal(b, "BARBARBAR");
    tpcc_last_name(371, b);
    assert_string_equal(b, "PRICALLYOUGHT");
    tpcc_last_name(999, b);
    assert_string_equal(b, "EINGEINGEING");
    assert_int_equal(tpcc_last_name(777, b), 15);
    assert_string_equal(b, "CALLYCALLYCALLY");
    tpcc_last_name(40, b);
    assert_string_equal(b, "BARPRESBAR");
}

static void test_deck_mix(void **state)
{
    tpcc_deck d;
    int count[TPCC_NTYPES] = {0};
    int order_changes = 0;
    tpcc_type first[TPCC_DECK];
    rng r;
    (void)state;

    assert_int_equal(tpcc_deck_cards[0] + tpcc_deck_cards[1] + tpcc_deck_cards[2] + tpcc_deck_cards[3] +
                     tpcc_deck_cards[4], TPCC_DECK);
    rng_seed(&r, 7, 7);
    tpcc_deck_init(&d);
    for (int k = 0; k < 1000; k++) {
        int in_deck[TPCC_NTYPES] = {0};
        for (int i = 0; i < TPCC_DECK; i++) {
            tpcc_type t = tpcc_deck_draw(&d, &r);
            in_deck[t]++;
            count[t]++;
            if (k == 0)
                first[i] = t;
            else if (k == 1 && first[i] != t)
                order_changes++;
        }
        /* every deck holds exactly the cards */
        for (int t = 0; t < TPCC_NTYPES; t++)
            assert_int_equal(in_deck[t], tpcc_deck_cards[t]);
    }
    assert_int_equal(count[TPCC_NEW_ORDER], 10000);
    assert_int_equal(count[TPCC_PAYMENT], 10000);
    assert_int_equal(count[TPCC_ORDER_STATUS], 1000);
    assert_int_equal(count[TPCC_DELIVERY], 1000);
    assert_int_equal(count[TPCC_STOCK_LEVEL], 1000);
    assert_true(order_changes > 0);         /* reshuffled */
    /* the minimums of clause 5.2.3 hold for every whole deck */
    for (int t = 0; t < TPCC_NTYPES; t++)
        assert_true((double)tpcc_deck_cards[t] / TPCC_DECK >= tpcc_min_share[t]);
}

static void test_think_times(void **state)
{
    rng r;
    (void)state;
    rng_seed(&r, 3, 3);
    for (int t = 0; t < TPCC_NTYPES; t++) {
        double sum = 0, max = 0, mean = tpcc_think_mean_s[t];
        const int n = 400000;
        for (int i = 0; i < n; i++) {
            double v = tpcc_think(&r, (tpcc_type)t);
            assert_true(v >= 0);
            sum += v;
            if (v > max)
                max = v;
        }
        assert_true(max <= 10 * mean);
        assert_true(fabs(sum / n - mean * (1 - exp(-10.0))) < 0.01 * mean);
    }
    /* 216/23 s keying + 260/23 s think (times 1 - e^-10) */
    assert_true(fabs(tpcc_mean_pause_s() - (216.0 + 260.0 * (1 - exp(-10.0))) / 23.0) < 1e-12);
    assert_true(fabs(tpcc_keying_s[TPCC_NEW_ORDER] - 18) < 1e-12);
    assert_true(fabs(tpcc_p90_limit_s[TPCC_STOCK_LEVEL] - 20) < 1e-12);
}

static void test_strings(void **state)
{
    char b[600];
    int original = 0;
    rng r;
    (void)state;
    rng_seed(&r, 5, 5);
    for (int i = 0; i < 20000; i++) {
        size_t n = tpcc_astring(&r, b, 300, 500);
        assert_in_range(n, 300, 500);
        assert_int_equal(strlen(b), n);
        n = tpcc_nstring(&r, b, 16, 16);
        assert_int_equal(n, 16);
        assert_int_equal(strspn(b, "0123456789"), 16);
        n = tpcc_data_original(&r, b);
        assert_in_range(n, 26, 50);
        original += strstr(b, "ORIGINAL") != NULL;
    }
    /* 10 % of 20,000: binomial sd 42 */
    assert_in_range(original, 2000 - 210, 2000 + 210);
}

/* --tpcc-compat: the draws of each mode, exact for a fixed seed, and
 * their shapes. */
static void draws(tpcc_compat m, uint32_t *item, uint32_t *cid, int64_t *cents)
{
    const tpcc_consts k = { .c_last = TPCC_C_LAST_LOAD, .c_id = 259, .ol_i_id = 7911 };
    rng r;
    rng_seed(&r, 42, 1);
    for (int i = 0; i < 4; i++) {
        item[i] = tpcc_draw_item(&r, m, &k);
        cid[i] = tpcc_draw_c_id(&r, m, &k);
        cents[i] = tpcc_draw_amount_cents(&r, m);
    }
}

static void test_compat_draws_exact(void **state)
{
    uint32_t item[4], cid[4];
    int64_t cents[4];
    static const uint32_t spec_item[4] = { 73190, 67294, 72295, 13014 }, spec_cid[4] = { 1519, 75, 1915, 305 };
    static const int64_t spec_cents[4] = { 125544, 261565, 340741, 272396 };
    static const uint32_t hdb_item[4] = { 43852, 39817, 58356, 52304 }, hdb_cid[4] = { 1943, 753, 1781, 2567 };
    static const int64_t hdb_cents[4] = { 36400, 64900, 372900, 321500 };      /* whole dollars */
    (void)state;
    draws(TPCC_COMPAT_SPEC, item, cid, cents);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(item[i], spec_item[i]);
        assert_int_equal(cid[i], spec_cid[i]);
        assert_int_equal(cents[i], spec_cents[i]);
    }
    draws(TPCC_COMPAT_HAMMERDB, item, cid, cents);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(item[i], hdb_item[i]);
        assert_int_equal(cid[i], hdb_cid[i]);
        assert_int_equal(cents[i], hdb_cents[i]);
    }
}

/* The same draws, counted: HammerDB's are uniform over the whole range,
 * the spec's NURand is not (the chi-square test of test_nurand_shape). */
static void test_compat_shapes(void **state)
{
    enum { N = 200000, BINS = 100 };
    const tpcc_consts k = { .c_last = TPCC_C_LAST_LOAD, .c_id = 259, .ol_i_id = 7911 };
    double u[BINS];
    double crit = BINS - 1 + 4.0 * sqrt(2.0 * (BINS - 1));
    (void)state;
    for (int i = 0; i < BINS; i++)
        u[i] = 1.0 / BINS;
    for (int m = 0; m < TPCC_NCOMPAT; m++) {
        int64_t items[BINS] = { 0 }, cids[BINS] = { 0 }, rb = 0, whole = 0;
        rng r;
        rng_seed(&r, 9, (uint64_t)m);
        for (int i = 0; i < N; i++) {
            uint32_t v = tpcc_draw_item(&r, (tpcc_compat)m, &k), c = tpcc_draw_c_id(&r, (tpcc_compat)m, &k);
            assert_in_range(v, 1, 100000);
            assert_in_range(c, 1, 3000);
            items[(v - 1) / 1000]++;
            cids[(c - 1) / 30]++;
            rb += tpcc_draw_rollback(&r, (tpcc_compat)m, false);
            int64_t a = tpcc_draw_amount_cents(&r, (tpcc_compat)m);
            assert_in_range(a, 100, 500000);
            whole += a % 100 == 0;
        }
        if (m == TPCC_COMPAT_HAMMERDB) {
            assert_true(chi2(items, u, BINS, N) < crit);
            assert_true(chi2(cids, u, BINS, N) < crit);
            assert_int_equal(whole, N);
            /* 1 in 99: 2,020 of 200,000, sd 45 */
            assert_in_range(rb, 2020 - 180, 2020 + 180);
        } else {
            assert_true(chi2(items, u, BINS, N) > 10 * crit);
            assert_true(chi2(cids, u, BINS, N) > 10 * crit);
            /* 1 in 100: 2,000, sd 44 */
            assert_in_range(rb, 2000 - 178, 2000 + 178);
        }
    }
}

static void test_compat_rules(void **state)
{
    tpcc_consts c;
    rng r;
    int64_t rb = 0;
    (void)state;
    assert_int_equal(tpcc_compat_parse("spec"), TPCC_COMPAT_SPEC);
    assert_int_equal(tpcc_compat_parse("hammerdb"), TPCC_COMPAT_HAMMERDB);
    assert_int_equal(tpcc_compat_parse("HammerDB"), -1);
    assert_int_equal(tpcc_compat_parse(""), -1);
    assert_int_equal(tpcc_compat_parse(NULL), -1);
    assert_string_equal(tpcc_compat_names[TPCC_COMPAT_HAMMERDB], "hammerdb");
    /* one name constant at load and run (HammerDB), a valid pair (spec) */
    for (uint64_t s = 1; s <= 50; s++) {
        rng_seed(&r, s, 3);
        tpcc_consts_run_compat(&r, TPCC_COMPAT_HAMMERDB, &c);
        assert_int_equal(c.c_last, TPCC_C_LAST_LOAD);
        rng_seed(&r, s, 3);
        tpcc_consts_run_compat(&r, TPCC_COMPAT_SPEC, &c);
        assert_true(tpcc_c_last_valid(TPCC_C_LAST_LOAD, c.c_last));
    }
    assert_int_equal(tpcc_bad_credit_pct(TPCC_COMPAT_SPEC), 10);
    assert_int_equal(tpcc_bad_credit_pct(TPCC_COMPAT_HAMMERDB), 50);
    /* replenish: the spec refills below qty + 10, HammerDB at qty or below */
    assert_int_equal(tpcc_stock_after(TPCC_COMPAT_SPEC, 20, 10), 10);
    assert_int_equal(tpcc_stock_after(TPCC_COMPAT_SPEC, 19, 10), 100);
    assert_int_equal(tpcc_stock_after(TPCC_COMPAT_HAMMERDB, 19, 10), 9);
    assert_int_equal(tpcc_stock_after(TPCC_COMPAT_HAMMERDB, 11, 10), 1);
    assert_int_equal(tpcc_stock_after(TPCC_COMPAT_HAMMERDB, 10, 10), 91);
    assert_int_equal(tpcc_stock_after(TPCC_COMPAT_SPEC, 10, 10), 91);
    /* T-SQL's HammerDB rolls back 1 in 100, the spec's rate: the same
     * draws as the spec for the same seed */
    for (int m = 0; m < 2; m++) {
        int64_t n = 0;
        rng_seed(&r, 77, 0);
        for (int i = 0; i < 10000; i++)
            n += tpcc_draw_rollback(&r, m ? TPCC_COMPAT_HAMMERDB : TPCC_COMPAT_SPEC, true);
        if (m)
            assert_int_equal(n, rb);
        rb = n;
    }
}

/* The mode a load was made in, from its bad-credit share (cut at 30 %),
 * and the refusal of a run in the other mode: exact lines. */
static void test_compat_of_load(void **state)
{
    char buf[512];
    (void)state;
    assert_int_equal(tpcc_compat_of_load(3000, 300), TPCC_COMPAT_SPEC);
    assert_int_equal(tpcc_compat_of_load(3000, 899), TPCC_COMPAT_SPEC);
    assert_int_equal(tpcc_compat_of_load(3000, 900), TPCC_COMPAT_HAMMERDB);
    assert_int_equal(tpcc_compat_of_load(3000, 1500), TPCC_COMPAT_HAMMERDB);
    assert_int_equal(tpcc_compat_of_load(3000, 0), TPCC_COMPAT_SPEC);
    assert_int_equal(tpcc_compat_of_load(3000, 3000), TPCC_COMPAT_HAMMERDB);
    assert_int_equal(tpcc_compat_of_load(10, 2), TPCC_COMPAT_SPEC);
    assert_int_equal(tpcc_compat_of_load(10, 3), TPCC_COMPAT_HAMMERDB);
    assert_int_equal(tpcc_compat_of_load(0, 0), -1);
    assert_int_equal(tpcc_compat_of_load(-1, 0), -1);
    /* no 3,000-customer load of either mode falls past the cut: 8 sd
     * below 900 is out of reach of a 10 % draw, 8 sd above of a 50 % one */
    assert_true(300 + 8 * sqrt(3000 * 0.1 * 0.9) < 900 && 1500 - 8 * sqrt(3000 * 0.5 * 0.5) > 900);

    strcpy(buf, "untouched");
    assert_int_equal(tpcc_compat_match(TPCC_COMPAT_SPEC, 3000, 312, buf, sizeof buf), 0);
    assert_int_equal(tpcc_compat_match(TPCC_COMPAT_HAMMERDB, 3000, 1493, buf, sizeof buf), 0);
    assert_string_equal(buf, "untouched");
    assert_int_equal(tpcc_compat_match(TPCC_COMPAT_HAMMERDB, 3000, 312, buf, sizeof buf), -1);
    assert_string_equal(buf, "the database was prepared with --tpcc-compat=spec (bad credit: 312 of the 3000 "
                        "customers of warehouse 1, district 1, under 30 %), not --tpcc-compat=hammerdb: run with "
                        "--tpcc-compat=spec, or `oltp tpcc cleanup` and prepare again with --tpcc-compat=hammerdb");
    assert_int_equal(tpcc_compat_match(TPCC_COMPAT_SPEC, 3000, 1493, buf, sizeof buf), -1);
    assert_string_equal(buf, "the database was prepared with --tpcc-compat=hammerdb (bad credit: 1493 of the 3000 "
                        "customers of warehouse 1, district 1, at least 30 %), not --tpcc-compat=spec: run with "
                        "--tpcc-compat=hammerdb, or `oltp tpcc cleanup` and prepare again with --tpcc-compat=spec");
    for (int m = 0; m < TPCC_NCOMPAT; m++) {
        assert_int_equal(tpcc_compat_match((tpcc_compat)m, 0, 0, buf, sizeof buf), -1);
        assert_string_equal(buf, "district 1 of warehouse 1 holds no customers, so the mode the data was prepared "
                            "in (--tpcc-compat) cannot be told: run `oltp tpcc cleanup`, then prepare again");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nurand_shape),
        cmocka_unit_test(test_nurand_exact_small),
        cmocka_unit_test(test_c_last_rule),
        cmocka_unit_test(test_last_names),
        cmocka_unit_test(test_deck_mix),
        cmocka_unit_test(test_think_times),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_compat_draws_exact),
        cmocka_unit_test(test_compat_shapes),
        cmocka_unit_test(test_compat_rules),
        cmocka_unit_test(test_compat_of_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
