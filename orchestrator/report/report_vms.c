/* report_vms.c — the per-VM sections (page.h): every VM's figures, then
 * each failed VM with its fault and the last lines of its console. */
#include <libxml/tree.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"
#include "report/html.h"
#include "report/svg.h"
#include "util/util.h"

/* The VM's database sizes; the one after load with its deviation from
 * the expectation (expect bytes, <= 0: none) when beyond the tolerance. */
static void vm_db_cells(xmlNodePtr tr, int64_t expect, const res_vm *vm)
{
    char *note = NULL;
    if (vm->db_size_warning && expect > 0)
        note = orch_strfmt("%+.1f %% from the expected %.2f GiB (beyond ±%.0f %%)",
                           vm->db_deviation_pct, (double)expect / (1024.0 * 1024.0 * 1024.0),
                           RES_DB_SIZE_TOLERANCE_PCT);
    page_db_size_cell(tr, "database_loaded_data_bytes", &vm->db_loaded,
                      vm->db_size_warning ? (note ? note : "beyond the tolerance") : NULL);
    page_db_size_cell(tr, "database_end_data_bytes", &vm->db_end, NULL);
    free(note);
}

void page_section_vms(report_page *pg)
{
    static const char *const heads[] = { "run", "VM", "drive", "repetition", "TPS",
                                         "transactions", "avg latency (ms)", "p99 latency (ms)",
                                         "errors", "reconnects", "database server",
                                         "database after load", "database at end", "status",
                                         NULL };
    xmlNodePtr tb = html_table(page_section(pg, "vms", "Per VM",
        "A failed VM (red) is in no figure; what it measured before the fault, if anything, "
        "is shown here only. Database sizes are as the server reported them after load "
        "(prepare or restore) and at the end of the measured phase; a size after load "
        "more than 20 % from the plan's expect_database_size is marked (orange), a warning, "
        "not a failure."), "vm-table", heads);
    for (int r = 0; r < pg->s->nruns; r++)
        for (int v = 0; v < pg->s->runs[r].nvms; v++) {
            const report_run *run = &pg->s->runs[r];
            const res_vm *vm = &run->vms[v];
            xmlNodePtr tr = page_row(tb, run, vm->drive);
            char buf[32];
            html_attr(tr, "data-vm", vm->name);
            page_cell(tr, run->label);
            page_cell(tr, vm->name);
            page_cell(tr, vm->drive);
            snprintf(buf, sizeof buf, "%d", vm->repetition);
            page_cell(tr, buf);
            page_num(tr, "tps", vm->tps, 2);
            page_num(tr, "transactions", (double)vm->transactions, 0);
            page_num(tr, "latency_avg_ms", vm->lat_avg_ms, 3);
            page_num(tr, "latency_p99_ms", vm->lat_p99_ms, 3);
            if (vm->errors != RES_UNSET)
                page_num(tr, "errors", (double)vm->errors, 0);
            else
                page_cell(tr, "not recorded");
            if (vm->reconnects != RES_UNSET)
                page_num(tr, "reconnects", (double)vm->reconnects, 0);
            else
                page_cell(tr, "not recorded");
            page_cell(tr, vm->server_version ? vm->server_version : "");
            vm_db_cells(tr, run->sum.plan.expect_database_bytes, vm);
            if (vm->failed) {
                char *text = orch_strfmt("failed: %s", vm->fault ? vm->fault : "?");
                html_attr(tr, "class", "failed");
                html_attr(page_cell(tr, text ? text : "failed"), "data-key", "status");
                free(text);
            } else {
                html_attr(page_cell(tr, "ok"), "data-key", "status");
            }
        }
}

/* What failed VM vm measured before its fault: a line in tb, and its TPS
 * over time up to the fault with the fault's time marked (when known),
 * chart id "failure-R-V-tps". In no figure of the page. */
static void failure_timeline(xmlNodePtr div, xmlNodePtr tb, const res_vm *vm, int r, int v)
{
    double *x = vm->npoints ? calloc((size_t)vm->npoints, sizeof *x) : NULL;
    double *y = vm->npoints ? calloc((size_t)vm->npoints, sizeof *y) : NULL;
    char id[48], *text = NULL, *label = NULL;
    svg_series s = { .label = vm->name, .x = x, .y = y, .n = vm->npoints };
    svg_mark mark = { .x = vm->failed_at_s };

    if (!vm->npoints) {
        page_kv(tb, "measured before the fault", "nothing kept");
        goto cleanup;
    }
    text = orch_strfmt("%d interval%s, up to %.1f s of its measured phase (its oltp result "
                       "ended: %s)", vm->npoints, vm->npoints == 1 ? "" : "s",
                       vm->series[vm->npoints - 1].t,
                       vm->result_ended ? vm->result_ended : "not recorded");
    page_kv(tb, "measured before the fault", text ? text : "");
    if (!x || !y)
        goto cleanup;
    for (int k = 0; k < vm->npoints; k++) {
        x[k] = vm->series[k].t;
        y[k] = vm->series[k].tps;
    }
    if (isfinite(vm->failed_at_s))
        mark.label = label = orch_strfmt("fault at %.1f s", vm->failed_at_s);
    snprintf(id, sizeof id, "failure-%d-%d-tps", r, v);
    svg_line_chart_mark(div, id, "TPS up to the fault", "seconds since the start of the "
                        "measured run", "TPS", &s, 1, mark.label ? &mark : NULL);
cleanup:
    free(text);
    free(label);
    free(x);
    free(y);
}

/* Each failed VM: fault, reason, time and phase, what it measured before
 * the fault (failure_timeline), and its console's last lines (text in a
 * <pre>: escaped like every text node). */
void page_section_failures(report_page *pg)
{
    xmlNodePtr sec = NULL;
    for (int r = 0; r < pg->s->nruns; r++)
        for (int v = 0; v < pg->s->runs[r].nvms; v++) {
            const report_run *run = &pg->s->runs[r];
            const res_vm *vm = &run->vms[v];
            xmlNodePtr div, tb;
            char rep[32], *h3;
            if (!vm->failed)
                continue;
            if (!sec)
                sec = page_section(pg, "failures", "Failed VMs",
                    "VMs that failed: each is left out of every figure, and its drive's "
                    "figures are incomplete and not comparable.");
            div = html_add(sec, "div", NULL);
            html_attr(div, "class", "failure");
            html_attr(div, "data-run", run->label);
            html_attr(div, "data-vm", vm->name);
            h3 = pg->multi ? orch_strfmt("%s [%s] failed", vm->name, run->label)
                           : orch_strfmt("%s failed", vm->name);
            html_add(div, "h3", h3 ? h3 : vm->name);
            free(h3);
            tb = html_add(div, "table", NULL);
            html_attr(tb, "class", "failure");
            page_kv(tb, "drive", vm->drive);
            snprintf(rep, sizeof rep, "%d", vm->repetition);
            page_kv(tb, "repetition", rep);
            page_kv(tb, "fault", vm->fault);
            page_kv(tb, "reason", vm->reason);
            page_kv(tb, "failed at", vm->failed_at);
            page_kv(tb, "phase", vm->failed_in);
            failure_timeline(div, tb, vm, r, v);
            html_add(div, "h4", "console (last lines)");
            html_attr(html_add(div, "pre", vm->console_tail && *vm->console_tail ? vm->console_tail
                                                                        : "not recorded"),
                 "class", "console");
        }
}

