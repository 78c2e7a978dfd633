/*
 * capacity.h — the highest open-loop rate a drive carries within a
 * latency target (`[workload] target = p99 <= 10ms`): the target, a
 * percentile's confidence interval from a merged histogram, one probe's
 * verdict, and the search over probes. Pure arithmetic on common/hist.h;
 * the run measures each probe (an open-loop step at the offered rate on
 * the same VMs) and feeds its result back, one search per drive, all
 * drives probed at the same time.
 *
 * The percentile's interval is distribution-free, from the order
 * statistics of the merged histogram: the number B of a phase's n
 * transactions below the true q-quantile is Binomial(n, q), so the
 * values of ranks l and u with P(l <= B < u) >= 95 % bound it (normal
 * approximation of B, continuity-corrected: l = floor(nq - z s),
 * u = ceil(nq + z s) + 1, s = sqrt(n q (1 - q)), z = 1.96). It treats the
 * transactions as independent draws; latencies under a stall are not, so
 * the interval is optimistic when the phase had stalls (the probe's
 * length, not this interval, is then what guards the verdict). A rank
 * beyond the histogram (too few transactions for the percentile) leaves
 * that side unbounded: the probe is undecided unless the other side
 * decides it.
 *
 * A probe is `within` when the interval's upper end is at or under the
 * bound (for `<`: under it) and the achieved rate is not short; `broken`
 * when the interval's lower end is beyond the bound, or the achieved
 * rate fell short (a queue that grows: the open loop's arrivals outran
 * the service); `undecided` otherwise (measure longer). Short: under
 * ORCH_CAP_MIN_ACHIEVED of the offered rate by more than the arrivals'
 * own spread. oltp's arrivals are Poisson: over T measured seconds at
 * rate r a drive that keeps up commits a Poisson count of mean r T, so
 * in a short probe the count alone falls 5 % short of it often (at r T =
 * 120, three probes in ten). Short is therefore a committed count under
 * m - z sqrt(m), m = ORCH_CAP_MIN_ACHIEVED r T (z = 1.96: a drive
 * committing 95 % of the offered rate falls under it once in 40); with
 * T unknown (0), under ORCH_CAP_MIN_ACHIEVED r.
 *
 * The search (orch_cap_next / orch_cap_record): a geometric ramp from the
 * start rate by `factor` (2) while probes stay within, down from it while
 * they break and none held yet; then bisection (geometric midpoints,
 * rates rounded to whole transactions per second) between the highest
 * rate that held and the lowest that did not, until the two are within
 * `resolution` (5 %) of each other. An undecided probe counts as not
 * holding (the capacity is never claimed above a rate that was not
 * shown to hold) and is marked so. The capacity is the highest rate that
 * held, with the interval [capacity, lowest rate that did not].
 */
#ifndef ORCH_UTIL_CAPACITY_H
#define ORCH_UTIL_CAPACITY_H

#include "attributes.h"

#include <stddef.h>
#include <stdint.h>

#include "hist.h"

#define ORCH_CAP_MIN_ACHIEVED 0.95   /* achieved / offered under this: the queue grows */
#define ORCH_CAP_MAX_PROBES   64

/* `p99 <= 10ms`: the percentile (0 < pct < 100), the bound in µs, and
 * whether the bound itself is allowed (<=) or not (<). */
typedef struct orch_cap_target {
    double pct;
    double bound_us;
    int    inclusive;
} orch_cap_target;

/* Parse "pNN[.N] <= BOUND" or "pNN < BOUND", BOUND a number with a unit
 * of us, ms or s ("p99 <= 10ms", "p99.9 < 2.5 ms", "p50<=800us").
 * Returns 0, or -1 with one line in err. */
int orch_cap_target_parse(const char *text, orch_cap_target *t, char *err, size_t errlen) DB_MUST_CHECK;
/* The target as text, the way the parser reads it ("p99 <= 10 ms"). */
void orch_cap_target_format(const orch_cap_target *t, char *buf, size_t len);

/* A percentile of a histogram of µs values and its 95 % interval. lo_us
 * is -1 and hi_us INFINITY where the histogram holds too few values to
 * bound that side. n = the histogram's count. Returns 0, -1 for an empty
 * histogram or a pct outside (0, 100). */
typedef struct orch_cap_quantile {
    double  value_us, lo_us, hi_us;
    int64_t n;
} orch_cap_quantile;
int orch_cap_quantile_ci(const hist *h, double pct, orch_cap_quantile *q);

typedef enum orch_cap_side {
    ORCH_CAP_WITHIN,
    ORCH_CAP_BROKEN,
    ORCH_CAP_UNDECIDED,
} orch_cap_side;
const char *orch_cap_side_name(orch_cap_side s);   /* "within", "broken", "undecided" */

/* One probe: what was offered, what came back, and its verdict with the
 * reason in words (set by orch_cap_judge). */
typedef struct orch_cap_probe {
    double            offered;      /* transactions per second asked for */
    double            achieved;     /* committed per second */
    double            seconds;      /* the measured time achieved is over (0: unknown) */
    double            queue_ms;     /* mean time queued before start */
    orch_cap_quantile q;
    orch_cap_side     side;
    char              why[160];
} orch_cap_probe;

/* Judge a probe against the target: fills p->side and p->why. */
void orch_cap_judge(const orch_cap_target *t, orch_cap_probe *p);

typedef enum orch_cap_state {
    ORCH_CAP_RAMP,        /* stepping by factor until a probe breaks */
    ORCH_CAP_BISECT,      /* between the highest that held and the lowest that did not */
    ORCH_CAP_DONE,
} orch_cap_state;

typedef struct orch_cap_search {
    orch_cap_target target;
    double          start, factor, resolution, min_rate, max_rate;
    int             max_probes;
    orch_cap_state  state;
    double          held;         /* highest rate that held (0: none yet) */
    double          failed;       /* lowest rate that did not (0: none yet) */
    orch_cap_probe  probes[ORCH_CAP_MAX_PROBES];
    int             nprobes;
    int             breaking;     /* index of the probe that set `failed`, -1 */
    const char     *end;          /* why the search ended, once DONE */
} orch_cap_search;

/* Start a search: the first probe at `start`; factor 2, resolution 0.05,
 * min_rate 1, max_rate and max_probes as given (max_probes <=
 * ORCH_CAP_MAX_PROBES). Returns 0, -1 with err on values out of range. */
int orch_cap_init(orch_cap_search *s, const orch_cap_target *t, double start, double max_rate,
                  int max_probes, char *err, size_t errlen) DB_MUST_CHECK;
/* The rate of the next probe, or 0 once the search is done. */
double orch_cap_next(const orch_cap_search *s);
/* Record the probe measured at orch_cap_next()'s rate: judges it and
 * moves the search on. */
void orch_cap_record(orch_cap_search *s, const orch_cap_probe *p);

#endif
