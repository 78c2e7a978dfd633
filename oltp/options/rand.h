/*
 * rand.h — the random distributions of sysbench 1.0.20 (uniform, gaussian,
 * special, pareto, zipfian) on a per-worker xoroshiro128+ generator, so a
 * run of `oltp` draws ids the way sysbench does.
 */
#ifndef OLTP_RAND_H
#define OLTP_RAND_H

#include "attributes.h"

#include <stdint.h>

typedef enum { RAND_UNIFORM, RAND_GAUSSIAN, RAND_SPECIAL, RAND_PARETO, RAND_ZIPFIAN } rand_type;

typedef struct rand_cfg {
    rand_type type;
    int       spec_iter;      /* --rand-spec-iter, 12 */
    int       spec_pct;       /* --rand-spec-pct, 1 */
    int       spec_res;       /* --rand-spec-res, 75 */
    double    pareto_h;       /* --rand-pareto-h, 0.2 */
    double    zipf_exp;       /* --rand-zipfian-exp, 0.8 */
    /* derived by rand_cfg_finish() */
    double    iter_mult, pct_mult, pct_2_mult, res_mult, pareto_power;
    double    zipf_s, zipf_hx1;
} rand_cfg;

typedef struct rng { uint64_t s[2]; } rng;

/* Fill the derived fields; returns 0 or -1 when a parameter is out of range. */
int  rand_cfg_finish(rand_cfg *c) DB_MUST_CHECK;
/* Parse a --rand-type name; returns 0 or -1. */
int  rand_type_parse(const char *name, rand_type *out) DB_MUST_CHECK;
const char *rand_type_name(rand_type t);

/* Seed a generator from a 64-bit seed and a stream number (splitmix64). */
void rng_seed(rng *r, uint64_t seed, uint64_t stream);

static inline uint64_t rng_next(rng *r)
{
    uint64_t s0 = r->s[0], s1 = r->s[1], res = s0 + s1;
    s1 ^= s0;
    r->s[0] = ((s0 << 55) | (s0 >> 9)) ^ s1 ^ (s1 << 14);
    r->s[1] = (s1 << 36) | (s1 >> 28);
    return res;
}

/* Uniform double in [0, 1). */
static inline double rng_double(rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint32_t rand_uniform(rng *r, uint32_t a, uint32_t b);
uint32_t rand_gaussian(rng *r, const rand_cfg *c, uint32_t a, uint32_t b);
uint32_t rand_special(rng *r, const rand_cfg *c, uint32_t a, uint32_t b);
uint32_t rand_pareto(rng *r, const rand_cfg *c, uint32_t a, uint32_t b);
uint32_t rand_zipfian(rng *r, const rand_cfg *c, uint32_t a, uint32_t b);
/* The distribution chosen by --rand-type (sysbench's rand.default). */
uint32_t rand_default(rng *r, const rand_cfg *c, uint32_t a, uint32_t b);
/* Copy fmt to buf replacing '#' by a random digit and '@' by a random
 * lowercase letter (sysbench.rand.string); buf gets strlen(fmt) bytes, no NUL. */
void rand_str(rng *r, const char *fmt, char *buf);
/* Negative exponential with the given mean (for think times, arrivals). */
double rand_exp(rng *r, double mean);

#endif
