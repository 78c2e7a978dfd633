/*
 * tpcc_term.c — TPC-C's terminals: a home warehouse and district, the
 * deck of transaction cards (5.2.4), the inputs of the next transaction
 * (clauses 2.4.1-2.8.1; kept when the engine retries it) and the keying
 * and think times before it (5.2.5). The transactions that use these
 * inputs are in tpcc_txn.c.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tpcc/tpcc.h"

void *tpcc_term_new(const wl_run *run, int id, rng *r)
{
    const tpcc_plan *p = run->data;
    tpcc_term *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->run = run;
    t->plan = p;
    t->r = r;
    /* 10 terminals per warehouse, each with its own district (2.8.1.1) */
    t->home_w = t->w = id % p->warehouses + 1;
    t->d = id / p->warehouses % DISTRICTS + 1;
    tpcc_deck_init(&t->deck);
    return t;
}

void tpcc_term_free(void *state)
{
    free(state);
}

/* A warehouse other than the home one (remote), or the home one when
 * there is only one. */
static int other_wh(tpcc_term *t)
{
    int n = t->plan->warehouses, w;
    if (n == 1)
        return t->w;
    w = (int)rand_uniform(t->r, 1, (uint32_t)n - 1);
    return w >= t->w ? w + 1 : w;
}

static void customer_input(tpcc_term *t, bool may_be_remote)
{
    const tpcc_consts *k = &t->plan->run;
    t->c_w = t->w;
    t->c_d = t->d;
    if (may_be_remote && rand_uniform(t->r, 1, 100) > 85 && t->plan->warehouses > 1) {
        t->c_w = other_wh(t);
        t->c_d = (int)rand_uniform(t->r, 1, DISTRICTS);
    }
    t->by_name = rand_uniform(t->r, 1, 100) <= 60;
    if (t->by_name)
        tpcc_last_name(tpcc_nurand(t->r, 255, k->c_last, 0, 999), t->c_last);
    else
        t->c_id = (int)tpcc_draw_c_id(t->r, t->plan->compat, k);
}

/* Draw the next card and the inputs of its transaction. */
void tpcc_term_choose(tpcc_term *t)
{
    const tpcc_consts *k = &t->plan->run;
    rng *r = t->r;

    t->type = tpcc_deck_draw(&t->deck, r);
    t->chosen = true;
    /* HammerDB's "use all warehouses": spread the load over the whole
     * database rather than the terminals' own warehouses */
    if (t->run->o->tpcc_all_warehouses)
        t->w = (int)rand_uniform(r, 1, (uint32_t)t->plan->warehouses);
    switch (t->type) {
    case TPCC_NEW_ORDER:
        /* D_ID random in the home warehouse (2.4.1.2) */
        t->c_d = (int)rand_uniform(r, 1, DISTRICTS);
        t->c_id = (int)tpcc_draw_c_id(r, t->plan->compat, k);
        t->ol_cnt = (int)rand_uniform(r, 5, 15);
        t->rollback = tpcc_draw_rollback(r, t->plan->compat, t->plan->tsql);
        for (int i = 0; i < t->ol_cnt; i++) {
            ol_in *l = &t->ol[i];
            l->i_id = (int)tpcc_draw_item(r, t->plan->compat, k);
            l->supply_w = t->w;
            if (t->plan->warehouses > 1 && rand_uniform(r, 1, 100) == 1)
                l->supply_w = other_wh(t);
            l->qty = (int)rand_uniform(r, 1, 10);
        }
        if (t->rollback)
            t->ol[t->ol_cnt - 1].i_id = UNUSED_ITEM;
        break;
    case TPCC_PAYMENT:
        t->dd = (int)rand_uniform(r, 1, DISTRICTS);
        customer_input(t, true);
        if (t->c_w == t->w)
            t->c_d = t->dd;     /* local customer: C_D_ID = D_ID (2.5.1.2) */
        t->amount_cents = tpcc_draw_amount_cents(r, t->plan->compat);
        break;
    case TPCC_ORDER_STATUS:
        customer_input(t, false);
        t->c_d = (int)rand_uniform(r, 1, DISTRICTS);
        break;
    case TPCC_DELIVERY:
        t->carrier = (int)rand_uniform(r, 1, 10);
        break;
    case TPCC_STOCK_LEVEL:
        t->threshold = (int)rand_uniform(r, 10, 20);
        break;
    default:
        break;
    }
}

/* Keying time of the next transaction plus the think time after the
 * previous one (5.2.5), scaled by --time-scale; 0 at full speed. */
double tpcc_pause_before(void *state)
{
    tpcc_term *t = state;
    const oltp_opts *o = t->run->o;
    double s;

    if (!t->chosen)
        tpcc_term_choose(t);
    if (!o->keying_thinking)
        return 0;
    /* a terminal starts as if it had just finished a Payment: its first
     * think time spreads the start of thousands of terminals, which would
     * otherwise all submit when their (fixed) keying times end */
    s = tpcc_keying_s[t->type] + tpcc_think(t->r, t->have_prev ? t->prev : TPCC_PAYMENT);
    return s * o->time_scale;
}
