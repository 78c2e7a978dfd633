/*
 * rand.c — sysbench 1.0.20's distributions (src/sb_rand.c), reimplemented
 * on an explicit generator state so each worker owns its own.
 */
#include "options/rand.h"

#include <math.h>
#include <string.h>

static const char *const type_names[] = {
    [RAND_UNIFORM] = "uniform", [RAND_GAUSSIAN] = "gaussian",
    [RAND_SPECIAL] = "special", [RAND_PARETO] = "pareto",
    [RAND_ZIPFIAN] = "zipfian",
};

int rand_type_parse(const char *name, rand_type *out)
{
    for (unsigned i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
        if (!strcmp(name, type_names[i])) {
            *out = (rand_type)i;
            return 0;
        }
    return -1;
}

const char *rand_type_name(rand_type t)
{
    return type_names[t];
}

/* Zipfian helpers: rejection-inversion (Hörmann & Derflinger), as sysbench. */
static double helper1(double x)
{
    return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double helper2(double x)
{
    return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x * (1.0 / 3) * (1 + 0.25 * x));
}

static double h_integral(double x, double e)
{
    double lx = log(x);
    return helper2((1 - e) * lx) * lx;
}

static double h_fn(double x, double e)
{
    return exp(-e * log(x));
}

static double h_integral_inverse(double x, double e)
{
    double t = x * (1 - e);
    if (t < -1)
        t = -1;
    return exp(helper1(t) * x);
}

int rand_cfg_finish(rand_cfg *c)
{
    if (c->spec_iter < 1 || c->spec_pct < 0 || c->spec_pct > 100 ||
        c->spec_res < 0 || c->spec_res >= 100 ||
        c->pareto_h <= 0 || c->pareto_h >= 1 || c->zipf_exp < 0)
        return -1;
    c->iter_mult = 1.0 / c->spec_iter;
    c->pct_mult = c->spec_pct / 100.0;
    c->pct_2_mult = c->spec_pct / 200.0;
    c->res_mult = 100.0 / (100.0 - c->spec_res);
    c->pareto_power = log(c->pareto_h) / log(1.0 - c->pareto_h);
    c->zipf_s = 2 - h_integral_inverse(h_integral(2.5, c->zipf_exp) - h_fn(2, c->zipf_exp),
                                       c->zipf_exp);
    c->zipf_hx1 = h_integral(1.5, c->zipf_exp) - 1;
    return 0;
}

void rng_seed(rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t z = seed + stream * 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 2; i++) {
        z += 0x9e3779b97f4a7c15ULL;
        uint64_t x = z;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        r->s[i] = x ^ (x >> 31);
    }
    if (!r->s[0] && !r->s[1])
        r->s[0] = 1;
}

uint32_t rand_uniform(rng *r, uint32_t a, uint32_t b)
{
    return a + (uint32_t)(rng_double(r) * (double)(b - a + 1));
}

uint32_t rand_gaussian(rng *r, const rand_cfg *c, uint32_t a, uint32_t b)
{
    double t = (double)(b - a + 1), sum = 0;
    for (int i = 0; i < c->spec_iter; i++)
        sum += rng_double(r) * t;
    return a + (uint32_t)(sum * c->iter_mult);
}

uint32_t rand_special(rng *r, const rand_cfg *c, uint32_t a, uint32_t b)
{
    double t = (double)(b - a);
    double rnd = rng_double(r);
    double res = rnd * t * c->res_mult;

    if (res < t) {
        double sum = 0;
        for (int i = 0; i < c->spec_iter; i++)
            sum += rng_double(r);
        return a + (uint32_t)(sum * t * c->iter_mult);
    }
    res = rnd * (t * c->pct_mult + 1);
    res += t / 2 - t * c->pct_2_mult;
    return a + (uint32_t)res;
}

uint32_t rand_pareto(rng *r, const rand_cfg *c, uint32_t a, uint32_t b)
{
    return a + (uint32_t)((double)(b - a + 1) * pow(rng_double(r), c->pareto_power));
}

uint32_t rand_zipfian(rng *r, const rand_cfg *c, uint32_t a, uint32_t b)
{
    uint32_t n = b - a + 1;
    double e = c->zipf_exp;
    double hn = h_integral(n + 0.5, e);

    for (;;) {
        double u = hn + rng_double(r) * (c->zipf_hx1 - hn);
        double x = h_integral_inverse(u, e);
        uint32_t k = (uint32_t)(x + 0.5);
        if (k < 1)
            k = 1;
        else if (k > n)
            k = n;
        if (k - x <= c->zipf_s || u >= h_integral(k + 0.5, e) - h_fn(k, e))
            return a + k - 1;
    }
}

uint32_t rand_default(rng *r, const rand_cfg *c, uint32_t a, uint32_t b)
{
    switch (c->type) {
    case RAND_UNIFORM:  return rand_uniform(r, a, b);
    case RAND_GAUSSIAN: return rand_gaussian(r, c, a, b);
    case RAND_SPECIAL:  return rand_special(r, c, a, b);
    case RAND_PARETO:   return rand_pareto(r, c, a, b);
    case RAND_ZIPFIAN:  return rand_zipfian(r, c, a, b);
    }
    return a;
}

void rand_str(rng *r, const char *fmt, char *buf)
{
    for (size_t i = 0; fmt[i]; i++) {
        if (fmt[i] == '#')
            buf[i] = (char)rand_uniform(r, '0', '9');
        else if (fmt[i] == '@')
            buf[i] = (char)rand_uniform(r, 'a', 'z');
        else
            buf[i] = fmt[i];
    }
}

double rand_exp(rng *r, double mean)
{
    double u = rng_double(r);
    return -mean * log(1.0 - u);
}
