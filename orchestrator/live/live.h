/*
 * live.h — the live view of a run (issue 34): what the run already
 * samples every interval, kept as "the latest" and served in OpenMetrics
 * text at http://ADDRESS:PORT/metrics ([run] metrics) while the run lasts,
 * for Prometheus or any dashboard to scrape. At the end of the run it
 * waits for one more scrape (orch_live_linger) so that the last figures
 * reach the scraper.
 *
 * It is fed through hooks and never calls the run: the clients' interval
 * hook (client.h: each interval line an oltp printed, orch_live_interval),
 * the telemetry's tick hook (telemetry.h: each VM's database disk and
 * each drive's device over the interval that just ended, orch_live_tick),
 * and the run's phase loop telling it the repetition, the phase and the
 * VMs' monitor slots (faults are read from the monitor, virt/monitor.h).
 *
 * The families (docs/campaigns.md, "Live view", lists them with their units):
 * per VM (labels drive, vm) its latest interval's TPS, QPS, latency at
 * oltp's interval percentile, errors and reconnects per second, the
 * interval's end, its database disk's IOPS, bytes per second and latency,
 * whether it is up and its fault; per drive the sum of its VMs' TPS and
 * its device's IOPS, bytes per second, wait, queue and utilisation; the
 * run's id, repetition, phase (a stateset), precondition round and
 * faults so far. A value nobody measured yet is absent, never 0.
 *
 * Threads: the hooks come from the phase loop's and the monitor's
 * threads, scrapes from the server's own; one mutex guards the model.
 */
#ifndef ORCH_LIVE_H
#define ORCH_LIVE_H

#include "attributes.h"

#include <stddef.h>
#include "clients/clients.h"
#include "plan/plan.h"
#include "telemetry/telemetry.h"
#include "virt/virt.h"

typedef struct orch_live orch_live;

/* A live view of plan p's run laid out as l, its faults read from mon
 * (may be NULL); all borrowed, they must outlive it. NULL when out of
 * memory. */
orch_live *orch_live_new(const orch_plan *p, const orch_layout *l, orch_monitor *mon);
/* Stop serving and free. Call after the hooks that feed it are gone
 * (the telemetry's after orch_monitor_free). Accepts NULL. */
void orch_live_free(orch_live *lv);

/* Serve the view at addr ("127.0.0.1:9464", util/listen.h; port 0: a
 * free one) on a thread of its own, GET /metrics. 0, or -1 with err
 * (cannot listen there, and why). */
int orch_live_listen(orch_live *lv, const char *addr, char *err, size_t errlen) DB_MUST_CHECK;
/* The port it listens on (the one picked for port 0), 0 when not. */
int orch_live_port(const orch_live *lv);

/* VM vm (layout index) runs in repetition rep, watched as monitor slot
 * slot. The first VM of a new repetition forgets the last one's figures. */
void orch_live_vm(orch_live *lv, int vm, int rep, int slot);
/* Phase ph of repetition rep starts (round: a precondition's round, 0
 * otherwise): the VMs' figures of the phase before are forgotten. */
void orch_live_phase(orch_live *lv, res_phase_id ph, int rep, int round);
/* The phase ended: the faults seen by now are counted. */
void orch_live_phase_end(orch_live *lv);

/* The hooks (ctx: the orch_live). */
void orch_live_interval(void *ctx, const orch_job *job, const char *phase,
                        const orch_interval *iv);
void orch_live_tick(void *ctx, const orch_tel_now *now);

/* The OpenMetrics text of the view now. New string, or NULL when out of
 * memory. (A scrape over HTTP counts for orch_live_linger once its text
 * is sent whole.) */
char *orch_live_render(orch_live *lv);

/* Read the monitor's faults one last time and forget it: call before
 * orch_monitor_free, while the view still serves. Accepts NULL. */
void orch_live_detach(orch_live *lv);

/* The run is over: wait until a scrape rendered after the view's last
 * change has been sent whole, so that a scraper gets the run's last figures (its last
 * measured interval would otherwise be lost between two scrapes), at
 * most twice the scraper's longest gap between two scrapes plus a second,
 * within [ORCH_LIVE_LINGER_MIN_S, ORCH_LIVE_LINGER_MAX_S]. 1 when that
 * scrape came, 0 when it did not in time, -1 when nothing ever scraped
 * (no wait). *waited_s: how long it waited; *limit_s: the most it would
 * have. */
#define ORCH_LIVE_LINGER_MIN_S 5.0
#define ORCH_LIVE_LINGER_MAX_S 60.0
int orch_live_linger(orch_live *lv, double *waited_s, double *limit_s);

/* The rest of what live/ offers to the other folders (the front header:
 * a file outside live/ includes only this one, tests/lint/fronts.sh). */
#include "live/openmetrics.h"

#endif
