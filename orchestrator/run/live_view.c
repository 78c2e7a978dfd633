/* live_view.c — the live view in the run's life (run_state.h,
 * live/live.h): started before anything is created, fed by the clients'
 * interval hook and the telemetry's tick hook, stopped with the run. */
#include "run/run_state.h"
#include "util/util.h"

#include <string.h>

int run_live_start(run_state *st)
{
    char err[512];
    const char *colon;
    if (!st->p->metrics || !st->l)
        return 0;
    st->live = orch_live_new(st->p, st->l, st->mon);
    if (!st->live) {
        snprintf(st->err, sizeof st->err, "out of memory");
        return -1;
    }
    if (orch_live_listen(st->live, st->p->metrics, err, sizeof err) < 0) {
        snprintf(st->err, sizeof st->err, "[run] metrics: %s", err);
        return -1;
    }
    st->cl.interval_hook = orch_live_interval;
    st->cl.interval_ctx = st->live;
    orch_telemetry_on_tick(st->tel, orch_live_tick, st->live);
    colon = strrchr(st->p->metrics, ':');
    fprintf(st->out, "live view: OpenMetrics at http://%.*s:%d/metrics while the run lasts\n",
            colon ? (int)(colon - st->p->metrics) : 0, st->p->metrics,
            orch_live_port(st->live));
    fflush(st->out);
    return 0;
}

void run_live_detach(run_state *st)
{
    orch_live_detach(st->live);
}

/* Called by state_close after the monitor (whose thread ticks the
 * telemetry) is freed, outside any phase: no hook can run any more. A
 * run that was scraped waits for one scrape after its last figures
 * (not when told to stop: a ^C means now). */
void run_live_stop(run_state *st)
{
    double waited, limit;
    int got;
    st->cl.interval_hook = NULL;
    if (st->live && !orch_stop_requested()) {
        got = orch_live_linger(st->live, &waited, &limit);
        if (got == 1)
            fprintf(st->out, "live view: the run's last figures were scraped %.1f s after "
                    "it ended\n", waited);
        else if (got == 0)
            fprintf(st->out, "live view: not scraped within %.0f s after the run ended (twice "
                    "the scraper's longest gap, at least %.0f s): its last figures may be "
                    "missing there; summary.json has them all\n", limit,
                    ORCH_LIVE_LINGER_MIN_S);
    }
    orch_live_free(st->live);
    st->live = NULL;
}
