/* drive_views.c — per-transaction I/O, the three views of a drive, the
 * device's latencies and the tail against the device (drive_views.h). */
#include "report/drive_views.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/svg.h"
#include "results_io.h"

#define TOP_INTERVALS 5

void report_io_num(xmlNodePtr tr, const char *key, double v, int decimals)
{
    char shown[64] = "", exact[64] = "";
    xmlNodePtr td;
    if (isfinite(v)) {
        snprintf(shown, sizeof shown, "%.*f", decimals, v);
        report_num(v, exact, sizeof exact);
    }
    td = html_add(tr, "td", shown);
    html_attr(td, "class", "num");
    html_attr(td, "data-key", key);
    html_attr(td, "data-value", exact);
}

void report_io_text(xmlNodePtr tr, const char *t)
{
    html_add(tr, "td", t ? t : "");
}

static xmlNodePtr drive_row(xmlNodePtr tb, const report_run *run, int d)
{
    xmlNodePtr tr = html_add(tb, "tr", NULL);
    html_attr(tr, "data-run", run->label);
    html_attr(tr, "data-drive", run->drives[d].name);
    report_io_text(tr, run->drives[d].name);
    return tr;
}

static void note(xmlNodePtr sec, const char *cls, const char *drive, const char *text)
{
    xmlNodePtr p = html_add(sec, "p", text);
    html_attr(p, "class", cls);
    html_attr(p, "data-drive", drive);
}

/* A table's heading, its note and the table (id "table-<kind>-<r+1>"),
 * made when its first row comes. */
static xmlNodePtr noted_table(xmlNodePtr sec, const char *title, const char *text,
                              const char *kind, int r, const char *const *heads)
{
    char id[64];
    html_add(sec, "h3", title);
    html_attr(html_add(sec, "p", text), "class", "note");
    snprintf(id, sizeof id, "table-%s-%d", kind, r + 1);
    return html_table(sec, id, heads);
}

/* What each committed transaction cost the drive. */
static void txn_table(xmlNodePtr sec, const report_run *run, int r)
{
    static const char *const heads[] = {
        "drive", "TPS", "KiB read / txn", "KiB written / txn", "flushes / txn",
        "device KiB read / txn", "device KiB written / txn", "device flushes / txn",
        "device busy ms / txn", "write amplification", "KiB written / New-Order",
        "flushes / New-Order", "device busy ms / New-Order", NULL };
    xmlNodePtr tb = NULL;
    for (int d = 0; d < run->ndrives; d++) {
        const res_io *io = run->drives[d].d->io;
        const res_io_txn *x = io ? io->txn : NULL;
        xmlNodePtr tr;
        if (!x)
            continue;
        if (!tb)
            tb = noted_table(sec, "I/O per committed transaction",
                             "The database disks as the hypervisor counted them "
                             "(KiB = 1024 bytes), the drive's device as this host counted it "
                             "(busy ms: time with a request in flight), over the measured "
                             "phases, divided by the committed transactions; write "
                             "amplification: the device's bytes written over the guests' "
                             "(every disk of the run on the drive). TPC-C also per "
                             "New-Order.",
                             "io-txn", r, heads);
        tr = drive_row(tb, run, d);
        report_io_num(tr, "tps", x->phase.tps, 2);
        report_io_num(tr, "rd_kib", x->phase.v[RES_IOT_rd_kib], 2);
        report_io_num(tr, "wr_kib", x->phase.v[RES_IOT_wr_kib], 2);
        report_io_num(tr, "flushes", x->phase.v[RES_IOT_flushes], 3);
        report_io_num(tr, "dev_rd_kib", x->phase.v[RES_IOT_dev_rd_kib], 2);
        report_io_num(tr, "dev_wr_kib", x->phase.v[RES_IOT_dev_wr_kib], 2);
        report_io_num(tr, "dev_flushes", x->phase.v[RES_IOT_dev_flushes], 3);
        report_io_num(tr, "dev_busy_ms", x->phase.v[RES_IOT_dev_busy_ms], 3);
        report_io_num(tr, "write_amp", x->phase.v[RES_IOT_write_amp], 2);
        report_io_num(tr, "no_wr_kib", x->per_new_order.v[RES_IOT_wr_kib], 2);
        report_io_num(tr, "no_flushes", x->per_new_order.v[RES_IOT_flushes], 3);
        report_io_num(tr, "no_dev_busy_ms", x->per_new_order.v[RES_IOT_dev_busy_ms], 3);
    }
}

/* One view's row: rates of a kernel's block statistics (host keys) or of
 * the hypervisor (hv). */
static void view_row(xmlNodePtr tb, const report_run *run, int d, const char *view,
                     const res_io_row *k, const res_io_row *hv)
{
    xmlNodePtr tr = drive_row(tb, run, d);
    html_attr(tr, "data-view", view);
    report_io_text(tr, view);
    if (k) {
        double ios = k->v[RES_IOH_rd_iops] + k->v[RES_IOH_wr_iops];
        report_io_num(tr, "rd_iops", k->v[RES_IOH_rd_iops], 1);
        report_io_num(tr, "wr_iops", k->v[RES_IOH_wr_iops], 1);
        report_io_num(tr, "fl_iops", k->v[RES_IOH_fl_iops], 1);
        report_io_num(tr, "mbps", k->v[RES_IOH_rd_mbps] + k->v[RES_IOH_wr_mbps], 3);
        report_io_num(tr, "rq_kib", isfinite(k->v[RES_IOH_rq_kib]) ? k->v[RES_IOH_rq_kib]
                      : ios > 0 ? (k->v[RES_IOH_rd_mbps] + k->v[RES_IOH_wr_mbps]) * 1e6 / 1024
                                  / ios : NAN, 1);
        report_io_num(tr, "queue_depth", k->v[RES_IOH_queue_depth], 2);
        report_io_num(tr, "rd_ms", k->v[RES_IOH_rd_await_ms], 3);
        report_io_num(tr, "wr_ms", k->v[RES_IOH_wr_await_ms], 3);
        report_io_num(tr, "fl_ms", k->v[RES_IOH_fl_await_ms], 3);
    } else {
        double ios = hv->v[RES_IOV_rd_iops] + hv->v[RES_IOV_wr_iops];
        double mb = hv->v[RES_IOV_rd_mbps] + hv->v[RES_IOV_wr_mbps];
        report_io_num(tr, "rd_iops", hv->v[RES_IOV_rd_iops], 1);
        report_io_num(tr, "wr_iops", hv->v[RES_IOV_wr_iops], 1);
        report_io_num(tr, "fl_iops", hv->v[RES_IOV_fl_iops], 1);
        report_io_num(tr, "mbps", mb, 3);
        report_io_num(tr, "rq_kib", ios > 0 ? mb * 1e6 / 1024 / ios : NAN, 1);
        report_io_num(tr, "queue_depth", NAN, 2);
        report_io_num(tr, "rd_ms", hv->v[RES_IOV_rd_lat_ms], 3);
        report_io_num(tr, "wr_ms", hv->v[RES_IOV_wr_lat_ms], 3);
        report_io_num(tr, "fl_ms", hv->v[RES_IOV_fl_lat_ms], 3);
    }
}

/* A chart of one key of up to 4 rate sets over time (NULL sets skipped). */
typedef struct view_line {
    const res_io_rates *r;
    int key;
    const char *label;
} view_line;

static int views_chart(xmlNodePtr sec, const char *id, const view_line *v, int nv,
                       const res_io_devlat *dl)
{
    svg_series ss[5];
    double *buf[5] = { 0 };
    int n = 0, rc = -1;
    for (int i = 0; i < nv; i++) {
        int m = 0;
        if (!v[i].r || v[i].r->nseries <= 0)
            continue;
        if (!(buf[n] = calloc((size_t)v[i].r->nseries * 2, sizeof(double))))
            goto cleanup;
        for (int k = 0; k < v[i].r->nseries; k++)
            if (isfinite(v[i].r->series[k].v[v[i].key])) {
                buf[n][m] = v[i].r->series[k].t;
                buf[n][v[i].r->nseries + m++] = v[i].r->series[k].v[v[i].key];
            }
        if (m > 0) {
            ss[n] = (svg_series){ .label = v[i].label, .x = buf[n],
                                  .y = buf[n] + v[i].r->nseries, .n = m, .color = i };
            n++;
        } else {                /* no point of this view: its room is reused */
            free(buf[n]);
            buf[n] = NULL;
        }
    }
    if (dl && dl->nseries > 0) {
        int m = 0;
        if (!(buf[n] = calloc((size_t)dl->nseries * 2, sizeof(double))))
            goto cleanup;
        for (int k = 0; k < dl->nseries; k++)
            if (isfinite(dl->series[k].p99_ms)) {
                buf[n][m] = dl->series[k].t;
                buf[n][dl->nseries + m++] = dl->series[k].p99_ms;
            }
        if (m > 0) {
            ss[n] = (svg_series){ .label = "device (traced): p99 of its requests", .x = buf[n],
                                  .y = buf[n] + dl->nseries, .n = m, .color = 4 };
            n++;
        }
    }
    rc = n == 0 || svg_line_chart(sec, id, "Write latency per interval, three views (ms)",
                                  "seconds since the start of the measured run", "ms", ss, n)
         ? 0 : -1;
cleanup:
    for (int i = 0; i < 5; i++)
        free(buf[i]);
    return rc;
}

/* Guest, hypervisor and device side by side. */
static int views(xmlNodePtr sec, const report_run *run, int r)
{
    static const char *const heads[] = {
        "drive", "view", "reads/s", "writes/s", "flushes/s", "MB/s", "request KiB",
        "queue depth", "read ms", "write ms", "flush ms", NULL };
    char id[64];
    xmlNodePtr tb = NULL;
    for (int d = 0; d < run->ndrives; d++) {
        const res_io *io = run->drives[d].d->io;
        const res_io_rates *host = io && io->host ? io->host->rates : NULL;
        if (!io || (!io->guest && !io->db && !host))
            continue;
        if (!tb)
            tb = noted_table(sec, "Three views of each drive: guest, hypervisor, device",
                             "guest: the guests' /proc/diskstats of their database "
                             "disk (the whole disk only), summed over a drive's VMs; "
                             "hypervisor: libvirt's counters of the database disks; "
                             "device: the drive's block device on this host (every user "
                             "of it). Waits are interval averages; a millisecond the guest "
                             "sees and the device does not was spent in the guest's queue "
                             "or the hypervisor.",
                             "io-views", r, heads);
        if (io->guest)
            view_row(tb, run, d, "guest", &io->guest->total, NULL);
        if (io->db)
            view_row(tb, run, d, "hypervisor", NULL, &io->db->total);
        if (host)
            view_row(tb, run, d, "device", &host->total, NULL);
    }
    for (int d = 0; tb && d < run->ndrives; d++) {
        const res_io *io = run->drives[d].d->io;
        view_line lines[3];
        if (!io)
            continue;
        lines[0] = (view_line){ io->guest, RES_IOH_wr_await_ms, "guest: write wait" };
        lines[1] = (view_line){ io->db, RES_IOV_wr_lat_ms, "hypervisor: write latency" };
        lines[2] = (view_line){ io->host ? io->host->rates : NULL, RES_IOH_wr_await_ms,
                                "device: write wait" };
        snprintf(id, sizeof id, "chart-io-views-%d-%d", r + 1, d + 1);
        if (views_chart(sec, id, lines, 3, io->devlat) < 0)
            return -1;
    }
    return 0;
}

/* The device's latency distribution per drive and kind. */
static void devlat(xmlNodePtr sec, const report_run *run, int r)
{
    static const char *const heads[] = {
        "drive", "kind", "requests", "avg ms", "p50", "p90", "p99", "p99.9", "p99.99",
        "max ms", NULL };
    static const char *const cls[] = { "read", "write", "flush", "all" };
    static const double pcts[] = { 50, 90, 99, 99.9, 99.99 };
    char msg[512];
    xmlNodePtr tb = NULL;
    for (int d = 0; d < run->ndrives; d++) {
        const res_io *io = run->drives[d].d->io;
        if (io && io->devlat_note) {
            snprintf(msg, sizeof msg, "%s: drive %s: %s", run->run_id, run->drives[d].name,
                     io->devlat_note);
            note(sec, "note devlat-note", run->drives[d].name, msg);
        }
        if (!io || !io->devlat)
            continue;
        if (!tb)
            tb = noted_table(sec, "The device's own request latencies (issue to completion)",
                             "From the kernel's block tracepoints (block_rq_issue "
                             "to block_rq_complete, through tracefs) of the drive's disks "
                             "during the measured phases, in the transactions' log-linear "
                             "histograms; percentiles in ms.",
                             "devlat", r, heads);
        for (int c = 0; c < RES_DEVLAT_N; c++) {
            const res_devlat_class *k = &io->devlat->cls[c];
            xmlNodePtr tr = drive_row(tb, run, d);
            html_attr(tr, "data-class", cls[c]);
            report_io_text(tr, cls[c]);
            report_io_num(tr, "count", (double)k->count, 0);
            report_io_num(tr, "avg_ms", k->avg_ms, 3);
            for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++) {
                char key[16];
                snprintf(key, sizeof key, "p%g", pcts[i]);
                report_io_num(tr, key, res_devlat_pct(k, pcts[i]), 3);
            }
            report_io_num(tr, "max_ms", k->max_ms, 3);
        }
    }
}

static int by_txn_desc(const void *pa, const void *pb)
{
    const res_tail_point *a = *(res_tail_point *const *)pa, *b = *(res_tail_point *const *)pb;
    double x = isfinite(a->txn_ms) ? a->txn_ms : -1, y = isfinite(b->txn_ms) ? b->txn_ms : -1;
    return x < y ? 1 : x > y ? -1 : (a->t > b->t) - (a->t < b->t);
}

/* The transactions' tail against the device: scatter, r, top intervals. */
static int tail(xmlNodePtr sec, const report_run *run, int r)
{
    static const char *const heads[] = {
        "interval end s", "transactions ms", "device ms", "device queue depth", NULL };
    char id[64], msg[512], title[200], xlab[96], ylab[96];
    for (int d = 0; d < run->ndrives; d++) {
        const res_io *io = run->drives[d].d->io;
        const res_io_tail *tl = io ? io->tail : NULL;
        const res_tail_point **top;
        double *xy;
        int m = 0;
        xmlNodePtr p, tb;
        if (!tl || tl->nseries == 0)
            continue;
        snprintf(title, sizeof title, "%s — drive %s: did the tail come from the drive?",
                 run->run_id, run->drives[d].name);
        html_add(sec, "h3", title);
        if (!(xy = calloc((size_t)tl->nseries * 2, sizeof *xy))
            || !(top = calloc((size_t)tl->nseries, sizeof *top))) {
            free(xy);
            return -1;
        }
        for (int i = 0; i < tl->nseries; i++) {
            top[i] = &tl->series[i];
            if (isfinite(tl->series[i].txn_ms) && isfinite(tl->series[i].dev_ms)) {
                xy[m] = tl->series[i].dev_ms;
                xy[tl->nseries + m++] = tl->series[i].txn_ms;
            }
        }
        snprintf(xlab, sizeof xlab, "device %s per interval (ms)",
                 tl->dev_figure && strcmp(tl->dev_figure, "p99") == 0
                 ? "p99 of its requests" : "average wait");
        snprintf(ylab, sizeof ylab, "transactions p%g (ms)", tl->txn_pct);
        snprintf(id, sizeof id, "chart-tail-%d-%d", r + 1, d + 1);
        if (m > 0 && !svg_line_chart(sec, id, "Transactions' latency against the device's, "
                                     "one point per interval", xlab, ylab,
                                     &(svg_series){ .label = run->drives[d].name, .x = xy,
                                                    .y = xy + tl->nseries, .n = m, .dots = 1 },
                                     1)) {
            free(xy);
            free(top);
            return -1;
        }
        if (isfinite(tl->r))
            snprintf(msg, sizeof msg, "Pearson's r of the transactions' p%g and the device's "
                     "%s over %d intervals: %.2f (near 1: the tail follows the drive; near 0: "
                     "it does not)", tl->txn_pct, tl->dev_figure ? tl->dev_figure : "?", tl->n,
                     tl->r);
        else
            snprintf(msg, sizeof msg, "no correlation: %d interval(s) with both figures, or "
                     "one of them did not vary", tl->n);
        p = html_add(sec, "p", msg);
        snprintf(id, sizeof id, "tail-r-%d-%d", r + 1, d + 1);
        html_attr(p, "id", id);
        html_attr(p, "class", "note");
        if (isfinite(tl->r)) {
            char v[48];
            html_attr(p, "data-value", report_num(tl->r, v, sizeof v));
        }
        qsort(top, (size_t)tl->nseries, sizeof *top, by_txn_desc);
        snprintf(id, sizeof id, "table-tail-%d-%d", r + 1, d + 1);
        tb = html_table(sec, id, heads);
        for (int i = 0; i < tl->nseries && i < TOP_INTERVALS; i++) {
            xmlNodePtr tr = html_add(tb, "tr", NULL);
            html_attr(tr, "data-drive", run->drives[d].name);
            report_io_num(tr, "t", top[i]->t, 0);
            report_io_num(tr, "txn_ms", top[i]->txn_ms, 3);
            report_io_num(tr, "dev_ms", top[i]->dev_ms, 3);
            report_io_num(tr, "queue_depth", top[i]->queue_depth, 2);
        }
        free(xy);
        free(top);
    }
    return 0;
}

int report_drive_views(xmlNodePtr sec, const report_run *run, int r)
{
    txn_table(sec, run, r);
    if (views(sec, run, r) < 0)
        return -1;
    devlat(sec, run, r);
    return tail(sec, run, r);
}
