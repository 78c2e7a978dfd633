/* live_view.c — the live view in the run's life (run_state.h,
 * live/live.h): started before anything is created, fed by the clients'
 * interval hook and the telemetry's tick hook, stopped with the run. */
#include "run/run_state.h"

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

/* Called by state_close after the monitor (whose thread ticks the
 * telemetry) is freed, outside any phase: no hook can run any more. */
void run_live_stop(run_state *st)
{
    st->cl.interval_hook = NULL;
    orch_live_free(st->live);
    st->live = NULL;
}
