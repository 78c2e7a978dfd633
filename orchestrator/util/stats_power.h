/*
 * stats_power.h — how long to measure before measuring (issue 42): the
 * power of a paired comparison (stats.h orch_stats_paired) at a given
 * length, by simulation, from a pilot's series.
 *
 * A pilot series (one drive's interval TPS or p-latency) is read as a
 * slow AR(1) signal plus white noise: its mean, standard deviation sd,
 * the decay phi the batch rule reads (orch_stats_batching: over many
 * lags, the signal's decay where the series is no AR(1)) and the share
 * w of its variance that is signal, the bias-corrected lag-1
 * autocorrelation over phi (an interval's p99 from a few hundred
 * transactions is mostly their sampling noise: w small). A simulated
 * run draws both drives that way (independently: a host's noise the two
 * share cancels in the paired difference, so this errs long), drive a's
 * mean moved by the effect, and goes through orch_stats_paired as a
 * run's comparison does; power is the share of runs whose verdict is
 * "distinguishable" in the effect's direction. The generator is
 * bin/stats-sim's (splitmix64, Box-Muller): the same seed gives the same
 * answer on every machine.
 */
#ifndef ORCH_STATS_POWER_H
#define ORCH_STATS_POWER_H

#include "attributes.h"

#include <stdint.h>

/* splitmix64: the next value of the state *s */
uint64_t orch_stats_sim_next(uint64_t *s);
/* uniform in (0, 1) */
double orch_stats_sim_unit(uint64_t *s);
/* standard normal (Box-Muller) */
double orch_stats_sim_normal(uint64_t *s);
/* x[0..n) += an AR(1) series of lag-1 autocorrelation phi and standard
 * deviation sd, stationary from the start. */
void orch_stats_sim_ar1_add(uint64_t *s, double *x, int n, double phi, double sd);

/* One drive's figure as the pilot showed it. */
typedef struct orch_power_model {
    int    n;               /* the pilot's intervals */
    double mean, sd;
    double r1;              /* the sample lag-1 autocorrelation */
    double phi;             /* the signal's decay (orch_stats_batching) */
    double w;               /* the signal's share of the variance, 0..1 */
} orch_power_model;

/* The model of the pilot series s[0..n) (one repetition). 0; -1 when it
 * has no autocorrelation to read (fewer than 3 values, a value not
 * finite, or none varies); -3 when out of memory. */
int orch_stats_power_model(const double *s, int n, orch_power_model *m) DB_MUST_CHECK;

/* One paired comparison to size: drive a's model, drive b's, and the
 * difference to find. */
typedef struct orch_power_case {
    const orch_power_model *a, *b;
    double effect_pct;      /* a better by this much: its mean x (1 + e) when
                             * higher is better, / (1 + e) when lower is */
    int    higher_better;   /* TPS 1, latency 0 */
    int    reps;            /* repetitions (segments) of n intervals each */
    int    trials;          /* simulated runs per length */
    uint64_t seed;
} orch_power_case;

/* The share of c->trials simulated runs of n intervals per repetition
 * whose comparison finds the difference (0..1); -1 when out of memory. */
double orch_stats_power_at(const orch_power_case *c, int n);

/* The fewest intervals per repetition, up to max_n, at which
 * orch_stats_power_at reaches target (a geometric ramp from 20 by 1.5, then
 * bisection to within 2 %), its power into *power; 0 when max_n does
 * not reach it (*power then that at max_n); -1 when out of memory. */
int orch_stats_power_search(const orch_power_case *c, double target, int max_n, double *power) DB_MUST_CHECK;

#endif
