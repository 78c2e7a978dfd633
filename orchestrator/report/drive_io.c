/* drive_io.c — the report's drive I/O sections (drive_io.h). */
#include "report/drive_io.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "util/util.h"
#include "report/svg.h"
#include "report/drive_views.h"
#include "report/page.h"
#include "results_io.h"

/* A chart of up to 6 series over rows[i].t: one per (key, label). */
typedef struct line_def {
    const res_io_rates *r;
    int key;
    const char *label;
} line_def;

static int rates_chart(xmlNodePtr parent, const char *id, const char *title, const char *ylabel,
                       const line_def *defs, int ndefs)
{
    svg_series ss[8];
    double *buf[8] = { 0 };
    int n = 0, rc = -1;
    for (int i = 0; i < ndefs && n < 8; i++) {
        const res_io_rates *r = defs[i].r;
        int m = 0, any = 0;
        double *x, *y;
        if (!r || r->nseries <= 0)
            continue;
        if (!(buf[n] = calloc((size_t)r->nseries * 2, sizeof(double))))
            goto cleanup;
        x = buf[n];
        y = buf[n] + r->nseries;
        for (int k = 0; k < r->nseries; k++)
            if (isfinite(r->series[k].v[defs[i].key])) {
                x[m] = r->series[k].t;
                y[m++] = r->series[k].v[defs[i].key];
                any |= r->series[k].v[defs[i].key] != 0;
            }
        if (m == 0 || !any) {       /* nothing of this kind: no line */
            free(buf[n]);
            buf[n] = NULL;
            continue;
        }
        ss[n] = (svg_series){ .label = defs[i].label, .x = x, .y = y, .n = m, .color = i };
        n++;
    }
    if (svg_line_chart(parent, id, title, "seconds since the start of the measured run", ylabel,
                       ss, n))
        rc = 0;
cleanup:
    for (int i = 0; i < 8; i++)
        free(buf[i]);
    return rc;
}

/* The drive's TPS over time: the sum of its VMs of repetition 1. */
static int tps_chart(xmlNodePtr parent, const char *id, const report_run *run, const char *drive)
{
    double *x = NULL, *y = NULL;
    int len = -1, rc = -1;
    svg_series s;
    for (int v = 0; v < run->nvms; v++)
        if (run->vms[v].repetition == 1 && !run->vms[v].failed
            && strcmp(run->vms[v].drive, drive) == 0)
            len = len < 0 || run->vms[v].npoints < len ? run->vms[v].npoints : len;
    if (len < 0)
        len = 0;
    x = calloc((size_t)len + 1, sizeof *x);
    y = calloc((size_t)len + 1, sizeof *y);
    if (!x || !y)
        goto cleanup;
    for (int v = 0; v < run->nvms; v++)
        if (run->vms[v].repetition == 1 && !run->vms[v].failed
            && strcmp(run->vms[v].drive, drive) == 0)
            for (int i = 0; i < len; i++) {
                x[i] = run->vms[v].series[i].t;
                y[i] += run->vms[v].series[i].tps;
            }
    s = (svg_series){ .label = "TPS", .x = x, .y = y, .n = len, .color = 0 };
    if (svg_line_chart(parent, id, "TPS (transactions/s)",
                       "seconds since the start of the measured run", "TPS", &s, len ? 1 : 0))
        rc = 0;
cleanup:
    free(x);
    free(y);
    return rc;
}

/* Flush latency of the database disks beside the transactions' interval
 * p-latency (every oltp_read_write transaction commits; for TPC-C this is
 * all transaction types). */
static int flush_chart(xmlNodePtr parent, const char *id, const res_io *io)
{
    svg_series ss[2];
    double *buf[2] = { 0 };
    int n = 0, rc = -1;
    char label[64];
    if (io->db && io->db->nseries > 0 && (buf[0] = calloc((size_t)io->db->nseries * 2,
                                                          sizeof(double)))) {
        int m = 0;
        for (int k = 0; k < io->db->nseries; k++)
            if (isfinite(io->db->series[k].v[RES_IOV_fl_lat_ms])) {
                buf[0][m] = io->db->series[k].t;
                buf[0][io->db->nseries + m++] = io->db->series[k].v[RES_IOV_fl_lat_ms];
            }
        if (m > 0)
            ss[n++] = (svg_series){ .label = "database-disk flush latency (avg)", .x = buf[0],
                                    .y = buf[0] + io->db->nseries, .n = m, .color = 3 };
    }
    if (io->np > 0 && (buf[1] = calloc((size_t)io->np * 2, sizeof(double)))) {
        for (int k = 0; k < io->np; k++) {
            buf[1][k] = io->p_series[k].t;
            buf[1][io->np + k] = io->p_series[k].tps;
        }
        snprintf(label, sizeof label, "transactions' p%g (commit included)", io->p_pct);
        ss[n++] = (svg_series){ .label = label, .x = buf[1], .y = buf[1] + io->np, .n = io->np,
                                .color = 0 };
    }
    if (svg_line_chart(parent, id, "Flush latency and transaction latency (ms)",
                       "seconds since the start of the measured run", "ms", ss, n))
        rc = 0;
    free(buf[0]);
    free(buf[1]);
    return rc;
}

/* Number of nines of percentile p: 1 = p90, 2 = p99, 4 = p99.99. */
static double nines(double p)
{
    return -log10(1 - p / 100);
}

/* Drive d's row of charts: TPS, IOPS and latency side by side, then
 * flushes against transactions; nothing for a drive without I/O data.
 * 0, or -1 when out of memory. */
static int drive_charts(xmlNodePtr sec, const report_run *run, int r, int d)
{
    char id[64], title[160];
    const res_drive *dr = run->drives[d].d;
    const res_io *io = dr->io;
    const res_io_rates *host = io && io->host ? io->host->rates : NULL;
    xmlNodePtr rowdiv;
    if (!io || (!io->db && !host))
        return 0;
    snprintf(title, sizeof title, "%s — drive %s", run->run_id, dr->name);
    html_add(sec, "h3", title);
    rowdiv = html_add(sec, "div", NULL);
    html_attr(rowdiv, "class", "io-row");
    html_attr(rowdiv, "style", "display:flex;flex-wrap:wrap;gap:8px");
    html_attr(rowdiv, "data-drive", dr->name);
    snprintf(id, sizeof id, "chart-io-tps-%d-%d", r + 1, d + 1);
    if (tps_chart(rowdiv, id, run, dr->name) < 0)
        return -1;
    {
        line_def defs[] = {
            { io->db, RES_IOV_rd_iops, "database disks: reads/s" },
            { io->db, RES_IOV_wr_iops, "database disks: writes/s" },
            { io->db, RES_IOV_fl_iops, "database disks: flushes/s" },
            { io->boot, RES_IOV_wr_iops, "boot disks: writes/s" },
            { host, RES_IOH_rd_iops, "device (host): reads/s" },
            { host, RES_IOH_wr_iops, "device (host): writes/s" },
        };
        snprintf(id, sizeof id, "chart-io-iops-%d-%d", r + 1, d + 1);
        if (rates_chart(rowdiv, id, "I/O operations per second", "IOPS", defs,
                        (int)(sizeof defs / sizeof defs[0])) < 0)
            return -1;
    }
    {
        line_def defs[] = {
            { io->db, RES_IOV_rd_lat_ms, "database disks: read" },
            { io->db, RES_IOV_wr_lat_ms, "database disks: write" },
            { io->db, RES_IOV_fl_lat_ms, "database disks: flush" },
            { host, RES_IOH_await_ms, "device (host): average wait" },
        };
        snprintf(id, sizeof id, "chart-io-lat-%d-%d", r + 1, d + 1);
        if (rates_chart(rowdiv, id, "I/O latency, interval averages (ms)", "ms", defs,
                        (int)(sizeof defs / sizeof defs[0])) < 0)
            return -1;
    }
    snprintf(id, sizeof id, "chart-io-flush-%d-%d", r + 1, d + 1);
    if (flush_chart(sec, id, io) < 0)
        return -1;
    return 0;
}

static int run_charts(xmlNodePtr sec, const report_run *run, int r)
{
    char id[64];
    int ndr = run->ndrives, rc = -1;
    svg_series *spec = calloc((size_t)ndr + 1, sizeof *spec);
    svg_series *p99 = calloc((size_t)ndr + 1, sizeof *p99);
    double **bufs = calloc((size_t)ndr * 2 + 1, sizeof *bufs);
    int nspec = 0, np99 = 0;
    xmlNodePtr tb;

    if (!spec || !p99 || !bufs)
        goto cleanup;
    /* per drive: TPS | IOPS | latency, then flush vs transactions */
    for (int d = 0; d < ndr; d++)
        if (drive_charts(sec, run, r, d) < 0)
            goto cleanup;
    /* the latency spectrum and p99 over time, one line per drive */
    for (int d = 0; d < ndr; d++) {
        const res_io *io = run->drives[d].d->io;
        if (io && io->nspectrum > 0 && (bufs[2 * d] = calloc((size_t)io->nspectrum * 2,
                                                             sizeof(double)))) {
            for (int k = 0; k < io->nspectrum; k++) {
                bufs[2 * d][k] = nines(io->spectrum[k].pct);
                bufs[2 * d][io->nspectrum + k] = io->spectrum[k].ms;
            }
            spec[nspec++] = (svg_series){ .label = run->drives[d].name, .x = bufs[2 * d],
                                          .y = bufs[2 * d] + io->nspectrum, .n = io->nspectrum,
                                          .color = d };
        }
        if (io && io->np > 0 && (bufs[2 * d + 1] = calloc((size_t)io->np * 2, sizeof(double)))) {
            for (int k = 0; k < io->np; k++) {
                bufs[2 * d + 1][k] = io->p_series[k].t;
                bufs[2 * d + 1][io->np + k] = io->p_series[k].tps;
            }
            p99[np99++] = (svg_series){ .label = run->drives[d].name, .x = bufs[2 * d + 1],
                                        .y = bufs[2 * d + 1] + io->np, .n = io->np,
                                        .color = d };
        }
    }
    if (nspec > 0) {
        snprintf(id, sizeof id, "chart-io-spectrum-%d", r + 1);
        if (!svg_line_chart(sec, id, "Latency by percentile, merged histograms (ms)",
                            "percentile as nines, log scale: 0.3 = p50, 1 = p90, 2 = p99, "
                            "3 = p99.9, 4 = p99.99", "ms", spec, nspec))
            goto cleanup;
        snprintf(id, sizeof id, "table-spectrum-%d", r + 1);
        {
            const char *heads[] = { "drive", "p50", "p75", "p90", "p95", "p99", "p99.5",
                                    "p99.9", "p99.95", "p99.99", NULL };
            tb = html_table(sec, id, heads);
        }
        for (int d = 0; d < ndr; d++) {
            const res_io *io = run->drives[d].d->io;
            xmlNodePtr tr;
            if (!io || io->nspectrum == 0)
                continue;
            tr = html_add(tb, "tr", NULL);
            html_attr(tr, "data-run", run->label);
        html_attr(tr, "data-drive", run->drives[d].name);
            report_io_text(tr, run->drives[d].name);
            for (int k = 0; k < io->nspectrum; k++) {
                char key[32];
                snprintf(key, sizeof key, "p%g", io->spectrum[k].pct);
                report_io_num(tr, key, io->spectrum[k].ms, 3);
            }
        }
    }
    if (np99 > 0) {
        snprintf(id, sizeof id, "chart-io-p99-time-%d", r + 1);
        if (!svg_line_chart(sec, id, "p99 latency per interval (ms; drive: mean of its VMs')",
                            "seconds since the start of the measured run", "ms", p99, np99))
            goto cleanup;
    }
    rc = 0;
cleanup:
    for (int i = 0; bufs && i < ndr * 2; i++)
        free(bufs[i]);
    free(bufs);
    free(spec);
    free(p99);
    return rc;
}

static void run_tables(xmlNodePtr sec, const report_run *run, int r)
{
    char id[64], buf[64];
    const char *io_heads[] = { "drive", "db reads/s", "db writes/s", "db flushes/s",
                               "db MB/s written", "db read ms", "db write ms", "db flush ms", "boot writes/s",
                               "device IOPS", "device wait ms", "device busy %",
                               "device queue", "device flushes / guest flushes", NULL };
    const char *id_heads[] = { "drive", "device", "model", "serial", "firmware", "size GB",
                               "rotational", "scheduler", "write cache", "file system",
                               "used %", "temp °C before/after", "wear % before/after",
                               "note", NULL };
    xmlNodePtr tb;
    snprintf(id, sizeof id, "table-io-%d", r + 1);
    tb = html_table(sec, id, io_heads);
    for (int d = 0; d < run->ndrives; d++) {
        const res_io *io = run->drives[d].d->io;
        const res_io_row *db = io && io->db ? &io->db->total : NULL;
        const res_io_row *hs = io && io->host && io->host->rates ? &io->host->rates->total
                                                                  : NULL;
        xmlNodePtr tr;
        if (!io)
            continue;
        tr = html_add(tb, "tr", NULL);
        html_attr(tr, "data-run", run->label);
        html_attr(tr, "data-drive", run->drives[d].name);
        report_io_text(tr, run->drives[d].name);
        report_io_num(tr, res_io_hv_csv_name(RES_IOV_rd_iops), db ? db->v[RES_IOV_rd_iops] : NAN, 1);
        report_io_num(tr, res_io_hv_csv_name(RES_IOV_wr_iops), db ? db->v[RES_IOV_wr_iops] : NAN, 1);
        report_io_num(tr, res_io_hv_csv_name(RES_IOV_fl_iops), db ? db->v[RES_IOV_fl_iops] : NAN, 1);
        report_io_num(tr, res_io_hv_csv_name(RES_IOV_wr_mbps), db ? db->v[RES_IOV_wr_mbps] : NAN, 3);
        report_io_num(tr, res_io_hv_csv_name(RES_IOV_rd_lat_ms), db ? db->v[RES_IOV_rd_lat_ms] : NAN, 3);
        report_io_num(tr, res_io_hv_csv_name(RES_IOV_wr_lat_ms), db ? db->v[RES_IOV_wr_lat_ms] : NAN, 3);
        report_io_num(tr, res_io_hv_csv_name(RES_IOV_fl_lat_ms), db ? db->v[RES_IOV_fl_lat_ms] : NAN, 3);
        report_io_num(tr, "boot_wr_iops", io->boot ? io->boot->total.v[RES_IOV_wr_iops] : NAN, 1);
        report_io_num(tr, "host_iops", hs ? hs->v[RES_IOH_rd_iops] + hs->v[RES_IOH_wr_iops] : NAN, 1);
        report_io_num(tr, res_io_host_csv_name(RES_IOH_await_ms), hs ? hs->v[RES_IOH_await_ms] : NAN, 3);
        report_io_num(tr, res_io_host_csv_name(RES_IOH_util_pct), hs ? hs->v[RES_IOH_util_pct] : NAN, 1);
        report_io_num(tr, res_io_host_csv_name(RES_IOH_queue_depth), hs ? hs->v[RES_IOH_queue_depth] : NAN, 2);
        report_io_num(tr, RES_IO_CSV_FLUSH_RATIO, io->host ? io->host->flush_ratio : NAN, 2);
    }
    snprintf(id, sizeof id, "table-drive-id-%d", r + 1);
    tb = html_table(sec, id, id_heads);
    for (int d = 0; d < run->ndrives; d++) {
        const res_io *io = run->drives[d].d->io;
        const res_io_host *h = io ? io->host : NULL;
        xmlNodePtr tr;
        char temp[64], wear[64];
        if (!h)
            continue;
        tr = html_add(tb, "tr", NULL);
        html_attr(tr, "data-run", run->label);
        html_attr(tr, "data-drive", run->drives[d].name);
        report_io_text(tr, run->drives[d].name);
        snprintf(buf, sizeof buf, "%s%s%s", h->disk ? h->disk : "", h->kind ? " " : "",
                 h->kind ? h->kind : "");
        report_io_text(tr, buf);
        report_io_text(tr, h->model);
        report_io_text(tr, h->serial);
        report_io_text(tr, h->firmware);
        report_io_num(tr, "size_gb", h->size_bytes != RES_UNSET ? h->size_bytes / 1e9 : NAN, 1);
        report_io_text(tr, h->rotational < 0 ? "" : h->rotational ? "yes" : "no");
        report_io_text(tr, h->scheduler);
        report_io_text(tr, h->write_cache);
        report_io_text(tr, h->fs_type);
        report_io_num(tr, "fs_used_pct", h->fs_used_pct, 1);
        snprintf(temp, sizeof temp, "%s / %s",
                 h->health_before && isfinite(h->health_before->temp_c)
                 ? report_num(h->health_before->temp_c, buf, sizeof buf) : "–",
                 h->health_after && isfinite(h->health_after->temp_c) ? "" : "–");
        if (h->health_after && isfinite(h->health_after->temp_c))
            report_num(h->health_after->temp_c, temp + strlen(temp), sizeof temp - strlen(temp));
        report_io_text(tr, temp);
        snprintf(wear, sizeof wear, "%s / %s",
                 h->health_before && isfinite(h->health_before->wear_pct)
                 ? report_num(h->health_before->wear_pct, buf, sizeof buf) : "–",
                 h->health_after && isfinite(h->health_after->wear_pct) ? "" : "–");
        if (h->health_after && isfinite(h->health_after->wear_pct))
            report_num(h->health_after->wear_pct, wear + strlen(wear), sizeof wear - strlen(wear));
        report_io_text(tr, wear);
        report_io_text(tr, h->note ? h->note : h->health_before ? h->health_before->note : NULL);
    }
}

/* The verdict cell of a comparison: the verdict, or the reason there is
 * none ("not comparable: ...", "too short for a verdict (...)"). */
static const char *verdict_text(const res_io_cmp *c)
{
    if (c->verdict == RES_CMP_DISTINGUISHABLE || c->verdict == RES_CMP_NOT_DISTINGUISHABLE)
        return res_cmp_verdict_name(c->verdict);
    return c->reason ? c->reason : res_cmp_verdict_name(c->verdict);
}

/* Drive `name` of run r, or NULL. */
static const res_drive *run_drive(const report_run *run, const char *name)
{
    for (int d = 0; name && d < run->ndrives; d++)
        if (strcmp(run->drives[d].name, name) == 0)
            return run->drives[d].d;
    return NULL;
}

/* Beside a comparison's verdict (issue 45): which of its drives' figures
 * were bounded by something else than the drive ("" when both by theirs). */
static void bound_notes(xmlNodePtr tr, const report_run *run, const res_io_cmp *c)
{
    const char *names[2] = { c->a, c->b };
    const char *note[2];
    char *text;
    for (int i = 0; i < 2; i++)
        note[i] = page_bound_note(run_drive(run, names[i]));
    text = orch_strfmt("%s%s%s%s%s%s%s", note[0] ? names[0] : "", note[0] ? ": " : "",
                       note[0] ? note[0] : "", note[0] && note[1] ? "; " : "",
                       note[1] ? names[1] : "", note[1] ? ": " : "", note[1] ? note[1] : "");
    report_io_text(tr, text ? text : "");
    html_attr(tr->last, "data-key", "bound_note");
    free(text);
}

static void comparisons(xmlNodePtr body, const report_set *s)
{
    const char *heads[] = { "run", "drive A", "drive B", "figure", "method", "A", "B",
                            "A − B", "A − B %", "95 % interval", "p (Holm)", "verdict",
                            "limit not the drive", NULL };
    xmlNodePtr sec = NULL, tb = NULL;
    char buf[64], lo[32], hi[32];
    for (int r = 0; r < s->nruns; r++) {
        const res_io *io = s->runs[r].sum.io;
        for (int i = 0; io && i < io->ncmp; i++) {
            const res_io_cmp *c = &io->cmp[i];
            int tps = res_cmp_method_is_tps(c->method);
            int paired = res_cmp_method_is_paired(c->method);
            int verdict = c->verdict == RES_CMP_DISTINGUISHABLE
                          || c->verdict == RES_CMP_NOT_DISTINGUISHABLE;
            xmlNodePtr tr;
            if (!sec) {
                sec = html_add(body, "section", NULL);
                html_attr(sec, "id", "comparisons");
                html_add(sec, "h2", "Is the difference real?");
                html_attr(html_add(sec, "p", REPORT_CMP_NOTE), "class", "note");
                tb = html_table(sec, "table-comparisons", heads);
            }
            tr = html_add(tb, "tr", NULL);
            html_attr(tr, "data-run", s->runs[r].label);
            html_attr(tr, "data-method", res_cmp_method_name(c->method));
            html_attr(tr, "data-verdict", res_cmp_verdict_name(c->verdict));
            report_io_text(tr, s->runs[r].run_id);
            report_io_text(tr, c->a);
            report_io_text(tr, c->b);
            /* the paired test compares the intervals' percentile as
             * measured (p_pct: p95 when oltp ran with --percentile=95),
             * Welch the repetitions' p99 */
            if (!tps && paired && isfinite(io->p_pct))
                snprintf(buf, sizeof buf, "p%g ms", io->p_pct);
            else
                snprintf(buf, sizeof buf, "%s", tps ? "TPS" : "p99 ms");
            report_io_text(tr, buf);
            if (verdict && paired)
                snprintf(buf, sizeof buf, "paired batch means, n = %d batches of %d", c->n,
                         c->k);
            else if (verdict)
                snprintf(buf, sizeof buf, "Welch, n = %d repetitions", c->n);
            else
                snprintf(buf, sizeof buf, "%s", paired ? "paired batch means" : "Welch");
            report_io_text(tr, buf);
            report_io_num(tr, "mean_a", c->mean_a, tps ? 2 : 3);
            report_io_num(tr, "mean_b", c->mean_b, tps ? 2 : 3);
            report_io_num(tr, "diff", c->diff, tps ? 2 : 3);
            report_io_num(tr, "diff_pct", c->diff_pct, 1);
            if (verdict)
                snprintf(buf, sizeof buf, "[%s, %s]", report_num(c->lo, lo, sizeof lo),
                         report_num(c->hi, hi, sizeof hi));
            else
                buf[0] = '\0';
            report_io_text(tr, buf);
            report_io_num(tr, "p_holm", c->p_holm, 4);
            report_io_text(tr, verdict_text(c));
            bound_notes(tr, &s->runs[r], c);
        }
    }
}

int report_drive_io_sections(xmlNodePtr body, const report_set *s)
{
    xmlNodePtr sec = NULL;
    for (int r = 0; r < s->nruns; r++) {
        const report_run *run = &s->runs[r];
        const res_io *rio = run->sum.io;
        int any = 0;
        for (int d = 0; d < run->ndrives; d++)
            any |= run->drives[d].d->io != NULL;
        if (!any && !rio)
            continue;
        if (!sec) {
            sec = html_add(body, "section", NULL);
            html_attr(sec, "id", "io");
            html_add(sec, "h2", "What the drives did");
            html_attr(html_add(sec, "p", "Database and boot disks as the hypervisor counted them "
                     "(libvirt block statistics), and the drive's block device as this host "
                     "counted it (/sys/block/<disk>/stat; only for drives on this host). "
                     "Every I/O latency here is an average over an interval or the phase, "
                     "not a percentile. Device busy % means little on SSDs and NVMe, which "
                     "serve many requests at once."), "class", "note");
        }
        if (rio && isfinite(rio->host_cpu_busy_pct)) {
            char msg[512], id[64];
            xmlNodePtr pnode;
            snprintf(msg, sizeof msg, "%s: host CPU %.0f %% busy during the measured phase%s%s",
                     run->run_id, rio->host_cpu_busy_pct,
                     rio->host_cpu_note ? ": " : "",
                     rio->host_cpu_note ? rio->host_cpu_note : "");
            pnode = html_add(sec, "p", msg);
            snprintf(id, sizeof id, "host-saturated-%d", r + 1);
            if (rio->host_saturated) {
                html_attr(pnode, "class", "warning");
                html_attr(pnode, "id", id);
                html_attr(pnode, "style", "color:#b00;font-weight:bold");
            } else {
                html_attr(pnode, "class", "note");
            }
        }
        for (int d = 0; d < run->ndrives; d++) {
            const res_io *io = run->drives[d].d->io;
            if (io && io->steady.n > 0 && io->steady.trending) {
                char msg[256];
                xmlNodePtr pnode;
                snprintf(msg, sizeof msg, "%s: drive %s: TPS still trends in the measured "
                         "phase (%+.1f %% over it): not at steady state; precondition longer",
                         run->run_id, run->drives[d].name, io->steady.drift_pct);
                pnode = html_add(sec, "p", msg);
                html_attr(pnode, "class", "warning trending");
                html_attr(pnode, "style", "color:#b00;font-weight:bold");
                html_attr(pnode, "data-drive", run->drives[d].name);
            }
        }
        run_tables(sec, run, r);
        if (report_drive_views(sec, run, r) < 0 || run_charts(sec, run, r) < 0)
            return -1;
    }
    comparisons(body, s);
    return 0;
}
