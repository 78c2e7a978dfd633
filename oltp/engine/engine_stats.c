/*
 * engine_stats.c — the counters and latency histograms of a span of time
 * (engine.h's stats): set up, reset, added, freed.
 */
#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

int stats_init(stats *s, int ntypes)
{
    memset(s, 0, sizeof(*s));
    s->ntypes = ntypes;
    s->lat = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS);
    s->queue = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS);
    if (!s->lat || !s->queue)
        return -1;
    for (int t = 0; ntypes > 1 && t < ntypes; t++)
        if (!(s->type_lat[t] = hist_new(HIST_DEFAULT_HIGHEST, HIST_DEFAULT_DIGITS)))
            return -1;
    return 0;
}

void stats_clear(stats *s)
{
    hist_free(s->lat);
    hist_free(s->queue);
    for (int t = 0; t < WL_MAX_TYPES; t++)
        hist_free(s->type_lat[t]);
    memset(s, 0, sizeof(*s));
}

void stats_reset(stats *s)
{
    s->trx = s->reads = s->writes = s->others = s->errors = s->reconnects = s->rollbacks = 0;
    s->down_ns = 0;
    hist_reset(s->lat);
    hist_reset(s->queue);
    for (int t = 0; t < WL_MAX_TYPES; t++) {
        s->type_trx[t] = s->type_rollbacks[t] = s->type_retries[t] = 0;
        if (s->type_lat[t])
            hist_reset(s->type_lat[t]);
    }
}

void stats_add(stats *d, const stats *s)
{
    d->trx += s->trx;
    d->reads += s->reads;
    d->writes += s->writes;
    d->others += s->others;
    d->errors += s->errors;
    d->reconnects += s->reconnects;
    d->rollbacks += s->rollbacks;
    d->down_ns += s->down_ns;
    hist_add(d->lat, s->lat);
    hist_add(d->queue, s->queue);
    for (int t = 0; t < WL_MAX_TYPES; t++) {
        d->type_trx[t] += s->type_trx[t];
        d->type_rollbacks[t] += s->type_rollbacks[t];
        d->type_retries[t] += s->type_retries[t];
        if (d->type_lat[t] && s->type_lat[t])
            hist_add(d->type_lat[t], s->type_lat[t]);
    }
}
