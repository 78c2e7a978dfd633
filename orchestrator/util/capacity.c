/* capacity.c — the latency target, a percentile's interval from a
 * histogram's order statistics, a probe's verdict and the capacity
 * search (capacity.h says how each is decided). */
#include "util/capacity.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAP_Z 1.959963984540054   /* the standard normal's 97.5 % point */

static const char *skip_space(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

int orch_cap_target_parse(const char *text, orch_cap_target *t, char *err, size_t errlen)
{
    const char *p = skip_space(text);
    char *end;
    double pct, bound, scale;

    if (*p != 'p' && *p != 'P')
        goto bad;
    pct = strtod(p + 1, &end);
    if (end == p + 1 || !(pct > 0.0 && pct < 100.0)) {
        snprintf(err, errlen, "target '%s': the percentile must be above 0 and below 100 "
                 "(p50, p99, p99.9)", text);
        return -1;
    }
    p = skip_space(end);
    if (p[0] == '<' && p[1] == '=') {
        t->inclusive = 1;
        p += 2;
    } else if (p[0] == '<') {
        t->inclusive = 0;
        p += 1;
    } else {
        goto bad;
    }
    p = skip_space(p);
    bound = strtod(p, &end);
    if (end == p || !(bound > 0.0) || !isfinite(bound))
        goto bad;
    p = skip_space(end);
    if (strncmp(p, "us", 2) == 0) {
        scale = 1.0;
        p += 2;
    } else if (strncmp(p, "ms", 2) == 0) {
        scale = 1e3;
        p += 2;
    } else if (*p == 's') {
        scale = 1e6;
        p += 1;
    } else {
        snprintf(err, errlen, "target '%s': the bound needs a unit: us, ms or s", text);
        return -1;
    }
    if (*skip_space(p) != '\0')
        goto bad;
    t->pct = pct;
    t->bound_us = bound * scale;
    return 0;
bad:
    snprintf(err, errlen, "target '%s': expected a percentile, <= or <, and a bound with "
             "its unit, e.g. 'p99 <= 10ms'", text);
    return -1;
}

void orch_cap_target_format(const orch_cap_target *t, char *buf, size_t len)
{
    double b = t->bound_us;
    const char *unit = "us";

    if (b >= 1e6 && fmod(b, 1e5) == 0.0) {
        b /= 1e6;
        unit = "s";
    } else if (b >= 1e3 && fmod(b, 1.0) == 0.0 && fmod(b, 10.0) == 0.0) {
        b /= 1e3;
        unit = "ms";
    }
    snprintf(buf, len, "p%g %s %g %s", t->pct, t->inclusive ? "<=" : "<", b, unit);
}

/* The value of rank r (1..n) of a histogram: hist_percentile() takes
 * rank (int)(p/100 n + 0.5), so p = 100 (r - 0.25) / n lands on r. */
static double rank_value(const hist *h, int64_t r)
{
    return (double)hist_percentile(h, 100.0 * ((double)r - 0.25) / (double)h->total);
}

int orch_cap_quantile_ci(const hist *h, double pct, orch_cap_quantile *q)
{
    double n, nq, s;
    int64_t lo, hi;

    if (!h || h->total <= 0 || !(pct > 0.0 && pct < 100.0))
        return -1;
    n = (double)h->total;
    nq = n * pct / 100.0;
    s = sqrt(nq * (1.0 - pct / 100.0));
    lo = (int64_t)floor(nq - CAP_Z * s);
    hi = (int64_t)ceil(nq + CAP_Z * s) + 1;
    q->n = h->total;
    q->value_us = (double)hist_percentile(h, pct);
    q->lo_us = lo >= 1 ? rank_value(h, lo) : -1.0;
    q->hi_us = hi <= h->total ? rank_value(h, hi) : INFINITY;
    return 0;
}

const char *orch_cap_side_name(orch_cap_side s)
{
    switch (s) {
    case ORCH_CAP_WITHIN:    return "within";
    case ORCH_CAP_BROKEN:    return "broken";
    case ORCH_CAP_UNDECIDED: return "undecided";
    }
    return "?";
}

/* The achieved rate under which probe p's queue grows (capacity.h):
 * ORCH_CAP_MIN_ACHIEVED of the offered rate less the Poisson arrivals'
 * spread over its measured time. */
static double short_under(const orch_cap_probe *p)
{
    double m = ORCH_CAP_MIN_ACHIEVED * p->offered * p->seconds;

    if (!(p->seconds > 0.0))
        return ORCH_CAP_MIN_ACHIEVED * p->offered;
    return (m - CAP_Z * sqrt(m)) / p->seconds;
}

void orch_cap_judge(const orch_cap_target *t, orch_cap_probe *p)
{
    const orch_cap_quantile *q = &p->q;
    int below = t->inclusive ? q->hi_us <= t->bound_us : q->hi_us < t->bound_us;
    int above = t->inclusive ? q->lo_us > t->bound_us : q->lo_us >= t->bound_us;
    double floor_rate = short_under(p);
    char tgt[48];

    orch_cap_target_format(t, tgt, sizeof tgt);
    if (p->offered > 0.0 && p->achieved < floor_rate) {
        p->side = ORCH_CAP_BROKEN;
        if (p->seconds > 0.0)
            snprintf(p->why, sizeof p->why, "the queue grows: %.2f of %.2f offered per second "
                     "committed over %.0f s, under %.2f (%.0f %% less the arrivals' spread)",
                     p->achieved, p->offered, p->seconds, floor_rate,
                     ORCH_CAP_MIN_ACHIEVED * 100.0);
        else
            snprintf(p->why, sizeof p->why, "the queue grows: %.2f of %.2f offered per second "
                     "committed (under %.0f %%)", p->achieved, p->offered,
                     ORCH_CAP_MIN_ACHIEVED * 100.0);
    } else if (q->n <= 0) {
        p->side = ORCH_CAP_UNDECIDED;
        snprintf(p->why, sizeof p->why, "no transaction measured");
    } else if (above) {
        p->side = ORCH_CAP_BROKEN;
        snprintf(p->why, sizeof p->why, "%s broken: p%g %.3f ms, 95 %% interval from %.3f ms",
                 tgt, t->pct, q->value_us / 1e3, q->lo_us / 1e3);
    } else if (below) {
        p->side = ORCH_CAP_WITHIN;
        snprintf(p->why, sizeof p->why, "%s held: p%g %.3f ms, 95 %% interval up to %.3f ms",
                 tgt, t->pct, q->value_us / 1e3, q->hi_us / 1e3);
    } else {
        p->side = ORCH_CAP_UNDECIDED;
        if (isinf(q->hi_us))
            snprintf(p->why, sizeof p->why, "%s undecided: %lld transactions are too few to "
                     "bound p%g from above; measure longer", tgt, (long long)q->n, t->pct);
        else
            snprintf(p->why, sizeof p->why, "%s undecided: p%g %.3f ms, 95 %% interval "
                     "%.3f-%.3f ms spans the bound; measure longer", tgt, t->pct,
                     q->value_us / 1e3, q->lo_us < 0 ? 0.0 : q->lo_us / 1e3, q->hi_us / 1e3);
    }
}

int orch_cap_init(orch_cap_search *s, const orch_cap_target *t, double start, double max_rate,
                  int max_probes, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (!(start >= 1.0) || !(max_rate >= start) || max_probes < 1 ||
        max_probes > ORCH_CAP_MAX_PROBES) {
        snprintf(err, errlen, "capacity search: the start rate must be at least 1, the highest "
                 "rate at least the start, and 1 to %d probes", ORCH_CAP_MAX_PROBES);
        return -1;
    }
    s->target = *t;
    s->start = round(start);
    s->factor = 2.0;
    s->resolution = 0.05;
    s->min_rate = 1.0;
    s->max_rate = max_rate;
    s->max_probes = max_probes;
    s->state = ORCH_CAP_RAMP;
    s->breaking = -1;
    return 0;
}

double orch_cap_next(const orch_cap_search *s)
{
    const orch_cap_probe *last;
    double next;

    if (s->state == ORCH_CAP_DONE)
        return 0.0;
    if (s->nprobes == 0)
        return s->start;
    last = &s->probes[s->nprobes - 1];
    if (s->state == ORCH_CAP_RAMP)
        next = last->side == ORCH_CAP_WITHIN ? last->offered * s->factor
                                             : last->offered / s->factor;
    else
        next = sqrt(s->held * s->failed);
    next = round(next);
    if (next > s->max_rate)
        next = s->max_rate;
    return next < s->min_rate ? s->min_rate : next;
}

static void finish(orch_cap_search *s, const char *why)
{
    s->state = ORCH_CAP_DONE;
    s->end = why;
}

void orch_cap_record(orch_cap_search *s, const orch_cap_probe *p)
{
    orch_cap_probe *mine;
    double next;

    if (s->state == ORCH_CAP_DONE || s->nprobes >= ORCH_CAP_MAX_PROBES)
        return;
    mine = &s->probes[s->nprobes++];
    *mine = *p;
    orch_cap_judge(&s->target, mine);
    if (mine->side == ORCH_CAP_WITHIN) {
        if (mine->offered > s->held)
            s->held = mine->offered;
    } else if (s->failed == 0.0 || mine->offered < s->failed) {
        s->failed = mine->offered;
        s->breaking = s->nprobes - 1;
    }

    if (s->state == ORCH_CAP_RAMP) {
        if (mine->side == ORCH_CAP_WITHIN && mine->offered >= s->max_rate)
            return finish(s, "the highest rate allowed held: the capacity is at least that");
        if (mine->side != ORCH_CAP_WITHIN && s->held == 0.0 && mine->offered <= s->min_rate)
            return finish(s, "the lowest rate did not hold: no capacity within the target");
        if (s->held > 0.0 && s->failed > 0.0)
            s->state = ORCH_CAP_BISECT;
    }
    if (s->state == ORCH_CAP_BISECT) {
        next = round(sqrt(s->held * s->failed));
        if ((s->failed - s->held) <= s->resolution * s->held || next <= s->held ||
            next >= s->failed)
            return finish(s, "the rate that held and the one that did not are within the "
                             "resolution");
    }
    if (s->nprobes >= s->max_probes)
        finish(s, "the probe limit was reached");
}
