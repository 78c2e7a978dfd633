/* report_precondition.c — the precondition's steady state (page.h; issue
 * 21): a table of every drive's verdict per repetition, and per drive and
 * repetition a chart of the tracked variable per round with the judged
 * window drawn as its mean and the band of the range rule (mean ± half
 * of range_limit_pct), so a reader sees why a window passed or not. */
#include <libxml/tree.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"
#include "report/html.h"
#include "util/util.h"

/* Whether any drive of the set has a precondition record. */
static int any_precondition(const report_set *s)
{
    for (int r = 0; r < s->nruns; r++)
        for (int d = 0; d < s->runs[r].ndrives; d++)
            if (s->runs[r].drives[d].d->npre > 0)
                return 1;
    return 0;
}

static void verdict_row(xmlNodePtr tb, const report_run *run, const report_drive *dr,
                        const res_steady *st)
{
    xmlNodePtr tr = page_row(tb, run, dr->name);
    char buf[32];
    page_cell(tr, run->label);
    page_cell(tr, dr->name);
    page_num(tr, "repetition", st->repetition, 0);
    page_cell(tr, st->track);
    page_num(tr, "rounds", st->nrounds, 0);
    page_cell(tr, st->attained_round ? page_int_text(st->attained_round, buf, sizeof buf) : "");
    if (isfinite(st->window_range_pct) && isfinite(st->window_excursion_pct)) {
        page_num(tr, "window_range_pct", st->window_range_pct, 2);
        page_num(tr, "window_excursion_pct", st->window_excursion_pct, 2);
    } else {
        /* no window judged: why, in both cells (never "nan") */
        char why[64];
        if (st->nrounds == 1)
            snprintf(why, sizeof why, "one round: no window");
        else if (st->nrounds < st->window)
            snprintf(why, sizeof why, "%d of %d rounds: no window", st->nrounds, st->window);
        else
            snprintf(why, sizeof why, "no window judged");
        html_attr(page_cell(tr, why), "data-key", "window_range_pct");
        html_attr(page_cell(tr, why), "data-key", "window_excursion_pct");
    }
    page_cell(tr, st->verdict);
}

/* One chart: the rounds' tracked values, and over the judged window (its
 * last round is the attained one, or the last) its mean and band. */
static int round_chart(xmlNodePtr sec, const report_page *pg, const report_run *run,
                       const report_drive *dr, const res_steady *st, int idx)
{
    int n = st->nrounds, w = st->window, end, rc = -1;
    double *x = calloc((size_t)n + 1, sizeof *x), *y = calloc((size_t)n + 1, sizeof *y);
    double wx[2], mean[2], hi[2], lo[2];
    char id[64], *title = NULL, *label = page_drive_label(pg, run, dr->name);
    int p99 = st->track && strcmp(st->track, "p99") == 0;
    svg_series ss[4];
    int nss = 1;

    if (!x || !y || !label)
        goto cleanup;
    if (n < 2) {
        /* one round draws no line: the table says why there is no window */
        rc = 0;
        goto cleanup;
    }
    for (int k = 0; k < n; k++) {
        x[k] = st->rounds[k].round;
        y[k] = p99 ? st->rounds[k].p99_ms : st->rounds[k].tps;
    }
    ss[0] = (svg_series){ .label = label, .x = x, .y = y, .n = n, .color = 0 };
    end = st->until_steady && st->attained_round ? st->attained_round : n;
    if (isfinite(st->window_mean) && end >= w) {
        double half = st->window_mean * st->range_limit_pct / 200.0;
        wx[0] = end - w + 1;
        wx[1] = end;
        mean[0] = mean[1] = st->window_mean;
        hi[0] = hi[1] = st->window_mean + half;
        lo[0] = lo[1] = st->window_mean - half;
        ss[nss++] = (svg_series){ .label = "window mean", .x = wx, .y = mean, .n = 2, .color = 1 };
        ss[nss++] = (svg_series){ .label = "band +", .x = wx, .y = hi, .n = 2, .color = 2 };
        ss[nss++] = (svg_series){ .label = "band -", .x = wx, .y = lo, .n = 2, .color = 2 };
    }
    snprintf(id, sizeof id, "chart-precondition-%d", idx);
    title = orch_strfmt("Precondition of %s, repetition %d: %s per round (%s)", label,
                        st->repetition, p99 ? "p99 latency (ms)" : "TPS", st->verdict);
    if (title && svg_line_chart(sec, id, title, "round", p99 ? "p99 (ms)" : "TPS", ss, nss))
        rc = 0;
cleanup:
    free(x);
    free(y);
    free(label);
    free(title);
    return rc;
}

int page_section_precondition(report_page *pg)
{
    static const char *const head[] = { "run", "drive", "repetition", "tracked", "rounds",
                                        "steady at round", "window range %",
                                        "window excursion %", "verdict", NULL };
    xmlNodePtr sec, tb;
    int idx = 0;

    if (!any_precondition(pg->s))
        return 0;
    sec = page_section(pg, "precondition", "Precondition: steady state",
        "The precondition runs in rounds. By the rule of SNIA's Solid State Storage "
        "Performance Test Specification, a window of the last rounds is steady when the "
        "tracked variable's max - min is within the range limit of the window's mean and "
        "the excursion of its least-squares line over the window is within the slope "
        "limit. With precondition = until-steady the judged window is the first that "
        "passes; with a fixed time, the last one. Charts draw the judged window's mean and "
        "the band of the range rule.");
    tb = html_table(sec, "precondition-table", head);
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++)
            for (int k = 0; k < pg->s->runs[r].drives[d].d->npre; k++)
                verdict_row(tb, &pg->s->runs[r], &pg->s->runs[r].drives[d],
                            &pg->s->runs[r].drives[d].d->pre[k]);
    for (int r = 0; r < pg->s->nruns; r++)
        for (int d = 0; d < pg->s->runs[r].ndrives; d++)
            for (int k = 0; k < pg->s->runs[r].drives[d].d->npre; k++)
                if (round_chart(sec, pg, &pg->s->runs[r], &pg->s->runs[r].drives[d],
                                &pg->s->runs[r].drives[d].d->pre[k], idx++) < 0)
                    return -1;
    return 0;
}
