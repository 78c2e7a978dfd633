/*
 * tpcc_rand.h — the random rules of the TPC-C specification (rev. 5.11):
 * NURand and its C constants (clause 2.1.6), customer last names from
 * syllables (4.3.2.3), random strings (4.3.2.2), the transaction mix as a
 * shuffled deck (5.2.4) and keying/think times (5.2.5). No I/O: the unit
 * test checks every rule here.
 */
#ifndef OLTP_TPCC_RAND_H
#define OLTP_TPCC_RAND_H

#include "attributes.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "options/rand.h"

/* Transaction types, in the order the report lists them. */
typedef enum {
    TPCC_NEW_ORDER, TPCC_PAYMENT, TPCC_ORDER_STATUS, TPCC_DELIVERY, TPCC_STOCK_LEVEL,
    TPCC_NTYPES
} tpcc_type;

/* The run-time constants C of NURand for A = 255 (C_LAST), 1023 (C_ID)
 * and 8191 (OL_I_ID). */
typedef struct tpcc_consts {
    uint32_t c_last, c_id, ol_i_id;
} tpcc_consts;

/* C_LAST's constant used by every load. The run needs it to follow clause
 * 2.1.6.1 (65 <= |C_run - C_load| <= 119, not 96 or 112), and the nine
 * tables have nowhere to keep it, so the load uses this value, drawn once
 * uniformly from [0, 255]. */
#define TPCC_C_LAST_LOAD 157u

/* Constants for loading: C_LAST = TPCC_C_LAST_LOAD, the others random. */
void tpcc_consts_load(rng *r, tpcc_consts *c);
/* Constants for a run, C_LAST following 2.1.6.1 against the load value. */
void tpcc_consts_run(rng *r, tpcc_consts *c);
/* Whether c_run is a valid run constant for C_LAST given c_load. */
bool tpcc_c_last_valid(uint32_t c_load, uint32_t c_run);

/* The access pattern a run follows (--tpcc-compat). SPEC: the
 * specification's. HAMMERDB: HammerDB's TPROC-C (its MariaDB module as
 * the reference): items and customer ids drawn uniformly, the load's
 * C_LAST constant at run time too, 1 New-Order in 99 rolled back (1 in
 * 100 on T-SQL), payments of whole dollars, 50 % bad credit at load. */
typedef enum { TPCC_COMPAT_SPEC, TPCC_COMPAT_HAMMERDB, TPCC_NCOMPAT } tpcc_compat;
extern const char *const tpcc_compat_names[TPCC_NCOMPAT];
/* The mode named s, or -1 for an unknown name. */
int tpcc_compat_parse(const char *s) DB_MUST_CHECK;

/* Constants for a run in mode m: tpcc_consts_run's for SPEC; for HAMMERDB
 * the same but C_LAST = TPCC_C_LAST_LOAD (one name constant). */
void tpcc_consts_run_compat(rng *r, tpcc_compat m, tpcc_consts *c);
/* OL_I_ID (1..100,000) and C_ID (1..3,000) of a transaction: NURand
 * with k's constants (SPEC) or uniform (HAMMERDB). */
uint32_t tpcc_draw_item(rng *r, tpcc_compat m, const tpcc_consts *k);
uint32_t tpcc_draw_c_id(rng *r, tpcc_compat m, const tpcc_consts *k);
/* Whether this New-Order ends in the unused item and rolls back: 1 in 100
 * (SPEC, 2.4.1.4), 1 in 99 (HAMMERDB; 1 in 100 with tsql). */
bool tpcc_draw_rollback(rng *r, tpcc_compat m, bool tsql);
/* A Payment's H_AMOUNT in cents: 1.00..5,000.00 (SPEC), whole dollars
 * 1..5,000 (HAMMERDB). */
int64_t tpcc_draw_amount_cents(rng *r, tpcc_compat m);
/* Percentage of customers loaded with C_CREDIT "BC": 10 or 50. */
unsigned tpcc_bad_credit_pct(tpcc_compat m);
/* The mode a load was made in, judged from its customers: `bad` of `n`
 * (district 1 of warehouse 1: 3,000) with C_CREDIT "BC", the one mark
 * the modes leave in the data that no transaction changes. The spec loads
 * 10 %, HammerDB 50 %; the cut at 30 % lies halfway: with 3,000 customers
 * a spec load has 300 +- 16 (one standard deviation), a HammerDB load
 * 1,500 +- 27, so the cut (900) is 36 deviations above the one and 22
 * below the other: no load of either mode falls on the wrong side.
 * -1 when n <= 0 (no customers: nothing to judge). */
#define TPCC_COMPAT_BC_CUT_PCT 30
int tpcc_compat_of_load(int64_t n, int64_t bad) DB_MUST_CHECK;
/* Whether a run in mode `run` may start on a load whose district 1 of
 * warehouse 1 holds `bad` of `n` customers with bad credit: 0, or -1
 * with the refusal (both modes, the evidence, what to do) in buf. */
int tpcc_compat_match(tpcc_compat run, int64_t n, int64_t bad, char *buf, size_t len) DB_MUST_CHECK;
/* S_QUANTITY after ordering qty of a stock of q: the spec's rule (2.4.2.2:
 * q - qty if q >= qty + 10, else q - qty + 91) or HammerDB's (q - qty if
 * q > qty, else q - qty + 91). */
int tpcc_stock_after(tpcc_compat m, int q, int qty);

/* NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x */
uint32_t tpcc_nurand(rng *r, uint32_t a, uint32_t c, uint32_t x, uint32_t y);

/* Customer last name for a number 0..999 (three syllables); writes a
 * NUL-terminated name of at most 15 characters to buf[16]; returns its
 * length. */
size_t tpcc_last_name(unsigned num, char buf[16]);

/* Random a-string (alphanumeric) of length [lo, hi] into buf (NUL added);
 * returns the length. n-string: digits only. */
size_t tpcc_astring(rng *r, char *buf, unsigned lo, unsigned hi);
size_t tpcc_nstring(rng *r, char *buf, unsigned lo, unsigned hi);
/* An a-string of [26, 50] characters, 10 % of them carrying "ORIGINAL" at
 * a random position (I_DATA, S_DATA); returns the length. */
size_t tpcc_data_original(rng *r, char *buf);

/* The mix: one deck of TPCC_DECK cards per terminal, reshuffled when
 * used up (clause 5.2.4.2), 10 New-Order, 10 Payment and one of each
 * other: 43.48 % / 43.48 % / 4.35 % x 3. Clause 5.2.3's minimums (Payment
 * 43 %, the others 4 % each) leave New-Order at most 45 %; a deck with
 * exactly those counts (45/43/4/4/4) misses a minimum in about half of
 * all runs, by the terminals' partly drawn decks when the measurement
 * ends. This small deck keeps a margin over every minimum (+0.48 and
 * +0.35 points); the same weights as tpcc-mysql and HammerDB. */
#define TPCC_DECK 23
extern const int tpcc_deck_cards[TPCC_NTYPES];
/* Target minimum share of each type (New-Order: none, 0). */
extern const double tpcc_min_share[TPCC_NTYPES];

typedef struct tpcc_deck {
    uint8_t card[TPCC_DECK];
    int     next;               /* cards drawn from this shuffle */
} tpcc_deck;

void tpcc_deck_init(tpcc_deck *d);
tpcc_type tpcc_deck_draw(tpcc_deck *d, rng *r);

/* Keying time (5.2.5.2) and mean think time (5.2.5.4), seconds. */
extern const double tpcc_keying_s[TPCC_NTYPES];
extern const double tpcc_think_mean_s[TPCC_NTYPES];
/* Think time: negative exponential with the type's mean, truncated at ten
 * times the mean (5.2.5.4). */
double tpcc_think(rng *r, tpcc_type t);
/* Mean keying + think time per transaction over the deck's mix, seconds
 * (20.69 s): a terminal's cycle is this plus the mean response time. */
double tpcc_mean_pause_s(void);
/* 90th-percentile response time limits (5.2.5.3), seconds. */
extern const double tpcc_p90_limit_s[TPCC_NTYPES];
extern const char *const tpcc_type_names[TPCC_NTYPES];

#endif
