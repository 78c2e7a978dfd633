/*
 * tpcc_rand.c — TPC-C's random rules; see tpcc_rand.h.
 */
#include "tpcc/tpcc_rand.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *const tpcc_type_names[TPCC_NTYPES] = {
    "New-Order", "Payment", "Order-Status", "Delivery", "Stock-Level",
};
const int tpcc_deck_cards[TPCC_NTYPES] = { 10, 10, 1, 1, 1 };
const double tpcc_min_share[TPCC_NTYPES] = { 0, 0.43, 0.04, 0.04, 0.04 };
const double tpcc_keying_s[TPCC_NTYPES] = { 18, 3, 2, 2, 2 };
const double tpcc_think_mean_s[TPCC_NTYPES] = { 12, 12, 10, 5, 5 };
const double tpcc_p90_limit_s[TPCC_NTYPES] = { 5, 5, 5, 5, 20 };

bool tpcc_c_last_valid(uint32_t c_load, uint32_t c_run)
{
    uint32_t delta = c_load > c_run ? c_load - c_run : c_run - c_load;
    return c_run <= 255 && delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
}

void tpcc_consts_load(rng *r, tpcc_consts *c)
{
    c->c_last = TPCC_C_LAST_LOAD;
    c->c_id = rand_uniform(r, 0, 1023);
    c->ol_i_id = rand_uniform(r, 0, 8191);
}

void tpcc_consts_run(rng *r, tpcc_consts *c)
{
    do
        c->c_last = rand_uniform(r, 0, 255);
    while (!tpcc_c_last_valid(TPCC_C_LAST_LOAD, c->c_last));
    c->c_id = rand_uniform(r, 0, 1023);
    c->ol_i_id = rand_uniform(r, 0, 8191);
}

const char *const tpcc_compat_names[TPCC_NCOMPAT] = { "spec", "hammerdb" };

int tpcc_compat_parse(const char *s)
{
    for (int m = 0; s && m < TPCC_NCOMPAT; m++)
        if (!strcmp(s, tpcc_compat_names[m]))
            return m;
    return -1;
}

void tpcc_consts_run_compat(rng *r, tpcc_compat m, tpcc_consts *c)
{
    tpcc_consts_run(r, c);
    if (m == TPCC_COMPAT_HAMMERDB)
        c->c_last = TPCC_C_LAST_LOAD;
}

uint32_t tpcc_draw_item(rng *r, tpcc_compat m, const tpcc_consts *k)
{
    return m == TPCC_COMPAT_HAMMERDB ? rand_uniform(r, 1, 100000) : tpcc_nurand(r, 8191, k->ol_i_id, 1, 100000);
}

uint32_t tpcc_draw_c_id(rng *r, tpcc_compat m, const tpcc_consts *k)
{
    return m == TPCC_COMPAT_HAMMERDB ? rand_uniform(r, 1, 3000) : tpcc_nurand(r, 1023, k->c_id, 1, 3000);
}

bool tpcc_draw_rollback(rng *r, tpcc_compat m, bool tsql)
{
    return rand_uniform(r, 1, m == TPCC_COMPAT_HAMMERDB && !tsql ? 99 : 100) == 1;
}

int64_t tpcc_draw_amount_cents(rng *r, tpcc_compat m)
{
    return m == TPCC_COMPAT_HAMMERDB ? 100 * (int64_t)rand_uniform(r, 1, 5000) : rand_uniform(r, 100, 500000);
}

unsigned tpcc_bad_credit_pct(tpcc_compat m)
{
    return m == TPCC_COMPAT_HAMMERDB ? 50 : 10;
}

int tpcc_compat_of_load(int64_t n, int64_t bad)
{
    if (n <= 0)
        return -1;
    return bad * 100 < TPCC_COMPAT_BC_CUT_PCT * n ? TPCC_COMPAT_SPEC : TPCC_COMPAT_HAMMERDB;
}

int tpcc_compat_match(tpcc_compat run, int64_t n, int64_t bad, char *buf, size_t len)
{
    int data = tpcc_compat_of_load(n, bad);

    if (data == (int)run)
        return 0;
    if (data < 0)
        snprintf(buf, len, "district 1 of warehouse 1 holds no customers, so the mode the data was "
                 "prepared in (--tpcc-compat) cannot be told: run `oltp tpcc cleanup`, then prepare again");
    else
        snprintf(buf, len, "the database was prepared with --tpcc-compat=%s (bad credit: %" PRId64 " of the %"
                 PRId64 " customers of warehouse 1, district 1, %s %d %%), not --tpcc-compat=%s: run with "
                 "--tpcc-compat=%s, or `oltp tpcc cleanup` and prepare again with --tpcc-compat=%s",
                 tpcc_compat_names[data], bad, n, data == TPCC_COMPAT_SPEC ? "under" : "at least",
                 TPCC_COMPAT_BC_CUT_PCT, tpcc_compat_names[run], tpcc_compat_names[data], tpcc_compat_names[run]);
    return -1;
}

int tpcc_stock_after(tpcc_compat m, int q, int qty)
{
    bool enough = m == TPCC_COMPAT_HAMMERDB ? q > qty : q >= qty + 10;
    return enough ? q - qty : q - qty + 91;
}

uint32_t tpcc_nurand(rng *r, uint32_t a, uint32_t c, uint32_t x, uint32_t y)
{
    return (((rand_uniform(r, 0, a) | rand_uniform(r, x, y)) + c) % (y - x + 1)) + x;
}

size_t tpcc_last_name(unsigned num, char buf[16])
{
    static const char *const syl[10] = {
        "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING",
    };
    size_t n = 0;
    const unsigned digits[3] = { num / 100 % 10, num / 10 % 10, num % 10 };

    for (int i = 0; i < 3; i++) {
        size_t l = strlen(syl[digits[i]]);
        memcpy(buf + n, syl[digits[i]], l);
        n += l;
    }
    buf[n] = 0;
    return n;
}

static size_t fill(rng *r, char *buf, unsigned lo, unsigned hi, const char *alphabet, unsigned na)
{
    size_t n = rand_uniform(r, lo, hi);
    for (size_t i = 0; i < n; i++)
        buf[i] = alphabet[rand_uniform(r, 0, na - 1)];
    buf[n] = 0;
    return n;
}

size_t tpcc_astring(rng *r, char *buf, unsigned lo, unsigned hi)
{
    static const char an[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    return fill(r, buf, lo, hi, an, sizeof an - 1);
}

size_t tpcc_nstring(rng *r, char *buf, unsigned lo, unsigned hi)
{
    return fill(r, buf, lo, hi, "0123456789", 10);
}

size_t tpcc_data_original(rng *r, char *buf)
{
    size_t n = tpcc_astring(r, buf, 26, 50);
    if (rand_uniform(r, 1, 100) <= 10) {
        size_t at = rand_uniform(r, 0, (uint32_t)(n - 8));
        memcpy(buf + at, "ORIGINAL", 8);
    }
    return n;
}

void tpcc_deck_init(tpcc_deck *d)
{
    int k = 0;
    for (int t = 0; t < TPCC_NTYPES; t++)
        for (int i = 0; i < tpcc_deck_cards[t]; i++)
            d->card[k++] = (uint8_t)t;
    d->next = TPCC_DECK;        /* shuffled on the first draw */
}

tpcc_type tpcc_deck_draw(tpcc_deck *d, rng *r)
{
    if (d->next >= TPCC_DECK) {
        /* Fisher-Yates */
        for (int i = TPCC_DECK - 1; i > 0; i--) {
            int j = (int)rand_uniform(r, 0, (uint32_t)i);
            uint8_t t = d->card[i];
            d->card[i] = d->card[j];
            d->card[j] = t;
        }
        d->next = 0;
    }
    return (tpcc_type)d->card[d->next++];
}

double tpcc_think(rng *r, tpcc_type t)
{
    double mean = tpcc_think_mean_s[t];
    double u = 1.0 - rng_double(r);         /* (0, 1] */
    double v = -log(u) * mean;
    return v > 10 * mean ? 10 * mean : v;
}

double tpcc_mean_pause_s(void)
{
    double sum = 0;
    /* E[min(X, 10 m)] = m (1 - e^-10) for X negative exponential, mean m */
    for (int t = 0; t < TPCC_NTYPES; t++)
        sum += tpcc_deck_cards[t] * (tpcc_keying_s[t] + tpcc_think_mean_s[t] * (1 - exp(-10.0)));
    return sum / TPCC_DECK;
}
