/*
 * page.h — the report page's shared parts, private to report/: the
 * writer's state, the cells and rows every table is made of, the bars a
 * chart borrows its text from, and one function per section of the page.
 * report_html.c lays the page out and calls the sections in order; each
 * section's file holds one job (report_drives.c: per drive; report_scaling.c:
 * comparisons across runs; report_time.c: TPS over time; report_vms.c:
 * per VM and failures; report_env.c: environment and plan). Every name
 * and number goes into a text node or an attribute (html.h).
 */
#ifndef ORCH_REPORT_PAGE_H
#define ORCH_REPORT_PAGE_H

#include "attributes.h"

#include <stddef.h>
#include <stdint.h>

#include <libxml/tree.h>

#include "report/report.h"
#include "report/svg.h"

/* Writer state: the document and the set it shows (borrowed). */
typedef struct report_page {
    const report_set *s;
    xmlNodePtr        body;
    int               multi;        /* several runs: labels name the run */
} report_page;

/* "nvme-a" or, with several runs, "nvme-a [B]". Caller frees. */
char *page_drive_label(const report_page *pg, const report_run *run, const char *name);

/* v shown with `decimals` decimals, into buf ("not computed" when it is
 * not finite: never "nan"). Returns buf. */
const char *page_shown(double v, int decimals, char *buf, size_t len);

/* An integer as text into buf ("" when RES_UNSET). Returns buf. */
const char *page_int_text(int64_t v, char *buf, size_t len);

/* A <td> of text in row tr. */
xmlNodePtr page_cell(xmlNodePtr tr, const char *text);

/* A numeric cell: shown rounded, the exact figure (exact, "" when not
 * measured) in data-value, the column's key in data-key. */
void page_num_cell(xmlNodePtr tr, const char *key, const char *exact, double v, int decimals);

/* page_num_cell of v with its exact text (report_num). */
void page_num(xmlNodePtr tr, const char *key, double v, int decimals);

/* A database size cell: "110.1 MiB (data 46.1 MiB, log 64.0 MiB)" (MiB
 * below 10 GiB, else GiB), the exact data bytes in data-value, key in
 * data-key; "not recorded" when the data size is unknown. `note`, when
 * not NULL, follows the text and marks the cell (class "warn"). */
void page_db_size_cell(xmlNodePtr tr, const char *key, const res_db_size *z, const char *note);

/* The latency cells of a figures row: avg, p99, mean of VMs' p99. */
void page_latency_cells(xmlNodePtr tr, const res_figures *f);

/* "complete", or the note of an incomplete drive with its failed VMs;
 * marks the row. */
void page_status_cell(xmlNodePtr tr, const report_drive *dr);
/* The "bounded by" cell of drive d (issue 45): the verdict with its
 * evidence (data-key "bound", data-value the verdict); "not judged" when
 * its summary has none. */
void page_bound_cell(xmlNodePtr tr, const res_drive *d);
/* "limit: host cpu, not the drive" when drive d's figures were bounded by
 * something else than the drive (a verdict other than drive), else NULL.
 * Static text. */
const char *page_bound_note(const res_drive *d);

/* A row identified by run label and drive (data-run, data-drive; drive
 * may be NULL). */
xmlNodePtr page_row(xmlNodePtr tbody, const report_run *run, const char *drive);

/* A row of a two-column table of (name, value); a missing value reads
 * "not recorded". */
void page_kv(xmlNodePtr tb, const char *key, const char *value);

/* A <section id=id> of the body with its heading and, when given, a note
 * under it. */
xmlNodePtr page_section(report_page *pg, const char *id, const char *title, const char *note);

/* The bars of a chart with the text they borrow: labels (owned, may stay
 * NULL), exact values and shown values. */
typedef struct page_bars {
    svg_bar *bars;
    char   (*texts)[64], (*exact)[64];
    char   **labels;
    int      n;
} page_bars;

/* Room for n bars. 0, or -1 when out of memory (then page_bars_clear). */
int  page_bars_init(page_bars *b, int n) DB_MUST_CHECK;
void page_bars_clear(page_bars *b);      /* a zeroed set too */

/* Bar k's value, its exact text and its text shown with `decimals`. */
void page_bars_value(page_bars *b, int k, double v, int decimals);

/* The sections, in page order (report_html.c). Those returning int give
 * 0, or -1 when out of memory; the others add what memory allows. */
void page_section_protocols(report_page *pg);       /* report_protocols.c */
int  page_section_drives(report_page *pg);          /* report_drives.c */
int  page_section_tpcc(report_page *pg);            /* report_drives.c */
void page_section_scaling(report_page *pg);         /* report_scaling.c */
void page_section_repetitions(report_page *pg);     /* report_drives.c */
int  page_section_time(report_page *pg);            /* report_time.c */
int  page_section_precondition(report_page *pg);    /* report_precondition.c */
int  page_section_capacity(report_page *pg);        /* report_capacity.c */
void page_section_vms(report_page *pg);             /* report_vms.c */
void page_section_failures(report_page *pg);        /* report_vms.c */
void page_section_environment(report_page *pg);     /* report_env.c */
void page_section_plan(report_page *pg);            /* report_env.c */

#endif
