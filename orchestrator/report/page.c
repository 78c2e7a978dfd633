/* page.c — the cells, rows, sections and bar sets every part of the report
 * page is made of (page.h). */
#include <libxml/tree.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"
#include "report/html.h"
#include "util/util.h"
#include "results_io.h"

/* "nvme-a" or, with several runs, "nvme-a [B]". Caller frees. */
char *page_drive_label(const report_page *pg, const report_run *run, const char *name)
{
    return pg->multi ? orch_strfmt("%s [%s]", name, run->label) : strdup(name);
}

/* A number shown with `decimals` decimals. */
const char *page_shown(double v, int decimals, char *buf, size_t len)
{
    /* never "nan" on a page (issue 42) */
    if (!isfinite(v))
        snprintf(buf, len, "not computed");
    else
        snprintf(buf, len, "%.*f", decimals, v);
    return buf;
}

xmlNodePtr page_cell(xmlNodePtr tr, const char *text)
{
    return html_add(tr, "td", text);
}

/* A numeric cell: shown rounded, the exact figure in data-value, the
 * column's key in data-key. */
void page_num_cell(xmlNodePtr tr, const char *key, const char *exact, double v, int decimals)
{
    char buf[64];
    xmlNodePtr td = page_cell(tr, exact[0] ? page_shown(v, decimals, buf, sizeof buf) : "");
    html_attr(td, "class", "num");
    html_attr(td, "data-key", key);
    html_attr(td, "data-value", exact);
}

void page_num(xmlNodePtr tr, const char *key, double v, int decimals)
{
    char exact[64];
    page_num_cell(tr, key, report_num(v, exact, sizeof exact), v, decimals);
}

/* bytes as "46.1 MiB" or "116.5 GiB" into buf */
static const char *size_text(int64_t b, char *buf, size_t len)
{
    const double mib = 1024.0 * 1024.0;
    if ((double)b >= 10240.0 * mib)
        snprintf(buf, len, "%.1f GiB", (double)b / (1024.0 * mib));
    else
        snprintf(buf, len, "%.1f MiB", (double)b / mib);
    return buf;
}

void page_db_size_cell(xmlNodePtr tr, const char *key, const res_db_size *z, const char *note)
{
    char all[32], data[32], log[32], exact[32], *text;
    xmlNodePtr td;
    if (!res_db_known(z->data_bytes)) {
        td = page_cell(tr, "not recorded");
        html_attr(td, "data-key", key);
        return;
    }
    size_text(z->data_bytes, data, sizeof data);
    if (res_db_known(z->log_bytes))
        text = orch_strfmt("%s (data %s, log %s)%s%s",
                           size_text(z->data_bytes + z->log_bytes, all, sizeof all), data,
                           size_text(z->log_bytes, log, sizeof log), note ? ": " : "",
                           note ? note : "");
    else
        text = orch_strfmt("%s (data)%s%s", data, note ? ": " : "", note ? note : "");
    td = page_cell(tr, text ? text : data);
    free(text);
    html_attr(td, "data-key", key);
    snprintf(exact, sizeof exact, "%" PRId64, z->data_bytes);
    html_attr(td, "data-value", exact);
    if (note)
        html_attr(td, "class", "warn");
}

/* The latency cells of a figures row: avg, p99, mean of VMs' p99. */
void page_latency_cells(xmlNodePtr tr, const res_figures *f)
{
    page_num(tr, "latency_avg_ms", f->lat_avg_ms, 3);
    page_num(tr, "latency_p99_ms", f->lat_p99_ms, 3);
    page_num(tr, "latency_p99_mean_of_vms_ms", f->lat_p99_mean_of_vms_ms, 3);
}

/* An integer as text into buf ("" when RES_UNSET). Returns buf. */
const char *page_int_text(int64_t v, char *buf, size_t len)
{
    if (v == RES_UNSET)
        buf[0] = '\0';
    else
        snprintf(buf, len, "%" PRId64, v);
    return buf;
}
/* A row identified by run label and drive (data-run, data-drive). */
xmlNodePtr page_row(xmlNodePtr tbody, const report_run *run, const char *drive)
{
    xmlNodePtr tr = html_add(tbody, "tr", NULL);
    html_attr(tr, "data-run", run->label);
    if (drive)
        html_attr(tr, "data-drive", drive);
    return tr;
}

/* A <section id=id> with its heading and, when given, a note under it. */
xmlNodePtr page_section(report_page *pg, const char *id, const char *title, const char *note)
{
    xmlNodePtr sec = html_add(pg->body, "section", NULL);
    html_attr(sec, "id", id);
    html_add(sec, "h2", title);
    if (note)
        html_attr(html_add(sec, "p", note), "class", "note");
    return sec;
}

/* "complete", or the note of an incomplete drive with its failed VMs;
 * marks the row. */
void page_status_cell(xmlNodePtr tr, const report_drive *dr)
{
    char text[128];
    xmlNodePtr td;
    if (dr->incomplete)
        snprintf(text, sizeof text, SVG_INCOMPLETE " (%d VM run%s failed)", dr->failed_vms,
                 dr->failed_vms == 1 ? "" : "s");
    td = page_cell(tr, dr->incomplete ? text : "complete");
    html_attr(td, "data-key", "status");
    html_attr(td, "data-value", dr->incomplete ? "incomplete" : "complete");
    if (dr->incomplete) {
        html_attr(td, "class", "incomplete");
        html_attr(tr, "class", "incomplete");
    }
}

void page_bound_cell(xmlNodePtr tr, const res_drive *d)
{
    const res_io_bound *b = d->io ? d->io->bound : NULL;
    xmlNodePtr td = page_cell(tr, b ? res_bound_verdict_name(b->verdict) : "not judged");
    html_attr(td, "data-key", "bound");
    html_attr(td, "data-value", b ? res_bound_verdict_name(b->verdict) : "");
    if (b && b->evidence)
        html_attr(html_add(td, "span", b->evidence), "class", "note");
    if (b && b->verdict != RES_BOUND_DRIVE)
        html_attr(td, "class", "warning");
}

const char *page_bound_note(const res_drive *d)
{
    static const char *const notes[RES_BOUND_VERDICT_COUNT] = {
        [RES_BOUND_UNDETERMINED] = "limit undetermined: not shown to be the drive",
        [RES_BOUND_HOST_CPU] = "limit: host cpu, not the drive",
        [RES_BOUND_GUEST_CPU] = "limit: guest cpu, not the drive",
        [RES_BOUND_NETWORK] = "limit: network path, not the drive",
        [RES_BOUND_CLIENT] = "limit: client, not the drive",
    };
    const res_io_bound *b = d && d->io ? d->io->bound : NULL;
    return b && (unsigned)b->verdict < RES_BOUND_VERDICT_COUNT ? notes[b->verdict] : NULL;
}

void page_bars_clear(page_bars *b)
{
    for (int i = 0; b->labels && i < b->n; i++)
        free(b->labels[i]);
    free(b->labels);
    free(b->texts);
    free(b->exact);
    free(b->bars);
}

/* Room for n bars. 0, or -1 when out of memory (then bar_set_free). */
int page_bars_init(page_bars *b, int n)
{
    size_t m = n > 0 ? (size_t)n : 1;
    b->n = n;
    b->bars = calloc(m, sizeof *b->bars);
    b->texts = calloc(m, sizeof *b->texts);
    b->exact = calloc(m, sizeof *b->exact);
    b->labels = calloc(m, sizeof *b->labels);
    return b->bars && b->texts && b->exact && b->labels ? 0 : -1;
}

/* Bar k's value, its exact text and its text shown with `decimals`. */
void page_bars_value(page_bars *b, int k, double v, int decimals)
{
    b->bars[k].value = v;
    b->bars[k].value_exact = report_num(v, b->exact[k], sizeof b->exact[k]);
    b->bars[k].value_text = page_shown(v, decimals, b->texts[k], sizeof b->texts[k]);
}

/* A two-column table of (name, value) rows; a missing value reads "not
 * recorded". */
void page_kv(xmlNodePtr tb, const char *key, const char *value)
{
    xmlNodePtr tr = html_add(tb, "tr", NULL);
    html_add(tr, "th", key);
    page_cell(tr, value && *value ? value : "not recorded");
}
