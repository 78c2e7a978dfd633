/* report_cmd.c — `drivebench report`: load the run folders (report.h),
 * write the page (report_html.h) and the CSV next to it. */
#include "report/report.h"
#include "atomic_file.h"
#include "attributes.h"
#include "report/report_html.h"
#include "report/rank.h"
#include "util/util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "x.html" -> "x.csv"; any other name gets ".csv" appended. Caller frees. */
static char *csv_path_for(const char *html)
{
    size_t n = strlen(html);
    if (n > 5 && strcmp(html + n - 5, ".html") == 0)
        return orch_strfmt("%.*s.csv", (int)(n - 5), html);
    return orch_strfmt("%s.csv", html);
}

/* Several protocols among the runs of s: one line each to f, with the
 * keys in which each differs from the first (issue 22). */
static void print_protocols(const report_set *s, FILE *f)
{
    int first = report_group_first(s, 0);
    if (!f || s->ngroups < 2)
        return;
    fprintf(f, "protocols: %d (drives of different protocols are not ranked or scaled "
            "together)\n", s->ngroups);
    for (int g = 0; g < s->ngroups; g++) {
        char label[16], buf[512];
        int n = 0;
        fprintf(f, "  %s:", report_group_label(g, label, sizeof label));
        for (int r = 0; r < s->nruns; r++)
            if (s->runs[r].group == g)
                fprintf(f, "%s %s %s (%s)", n++ ? "," : "", s->runs[r].label, s->runs[r].run_id,
                        report_layout(&s->runs[r], buf, sizeof buf));
        if (report_fp_diff(&s->runs[first], &s->runs[report_group_first(s, g)], buf,
                           sizeof buf) < 0)
            fprintf(f, ": %s\n", s->runs[report_group_first(s, g)].sum.fp ? "not comparable with "
                    "P1, " REPORT_NO_FP : REPORT_NO_FP);
        else
            fprintf(f, g ? ": differs from P1 in %s\n" : "\n", buf);
    }
}

/* "dir/x.html" -> "dir/charts", "x.html" -> "charts". Caller frees. */
static char *charts_dir_for(const char *html)
{
    const char *slash = strrchr(html, '/');
    return slash ? orch_strfmt("%.*s/charts", (int)(slash - html), html) : strdup("charts");
}

/* report_write, with the protocols printed to notes (NULL: not) and the
 * charts written as files when charts is not NULL (into charts->dir, or
 * when that is NULL into a new string there, the caller's to free: a
 * folder "charts" beside the page). */
static int write_page(const char *const *dirs, int ndirs, const char *html_path,
                      char **html_out, char **csv_out, FILE *notes, report_charts *charts,
                      char *err, size_t errlen)
{
    char *html = html_path ? strdup(html_path)
                 : ndirs == 1 ? orch_strfmt("%s/report.html", dirs[0]) : strdup("report.html");
    /* a page written through (a device, a FIFO, "-") has no folder
     * beside it: no CSV then */
    bool through = html && atomic_file_is_through(html);
    char *csv = html && !through ? csv_path_for(html) : NULL;
    report_set *s = NULL;
    int rc = -1;

    if (!html || (!csv && !through)) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    s = report_load(dirs, ndirs, err, errlen);
    if (!s) {
        rc = REPORT_BAD_INPUT;
        goto cleanup;
    }
    if (charts && !charts->dir && !(charts->dir = charts_dir_for(html))) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (report_write_html_charts(s, html, charts, err, errlen) < 0
        || (csv && report_write_csv(s, csv, err, errlen) < 0))
        goto cleanup;
    print_protocols(s, notes && strcmp(html, "-") == 0 ? stderr : notes);
    rc = 0;
    if (html_out) {
        *html_out = html;
        html = NULL;
    }
    if (csv_out) {
        *csv_out = csv;
        csv = NULL;
    }
cleanup:
    report_set_free(s);
    free(html);
    free(csv);
    return rc;
}

int report_write(const char *const *dirs, int ndirs, const char *html_path, char **html_out,
                 char **csv_out, char *err, size_t errlen)
{
    return write_page(dirs, ndirs, html_path, html_out, csv_out, NULL, NULL, err, errlen);
}

/* 1 when dir is a sweep's folder: a sweep.json and no summary.json. */
static int is_sweep(const char *dir)
{
    char *s = orch_strfmt("%s/sweep.json", dir), *m = orch_strfmt("%s/summary.json", dir);
    int yes = s && m && access(s, F_OK) == 0 && access(m, F_OK) != 0;
    free(s);
    free(m);
    return yes;
}

#define REPORT_USAGE "usage: drivebench report RESULTS_DIR... [-o report.html] [--charts] [--png]"

int report_main(int argc, char **argv)
{
    const char **dirs = calloc(argc > 0 ? (size_t)argc : 1, sizeof *dirs);
    const char *out = NULL;
    char err[DB_ERR_LEN], *html = NULL, *csv = NULL;
    int ndirs = 0, rc = 2;
    bool want_charts = false;
    report_charts charts = { 0 };

    if (!dirs)
        return 1;
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--rank") == 0) {
            free(dirs);
            return rank_main(argc, argv);
        }
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strncmp(argv[i], "--output=", 9) == 0)
            out = argv[i] + 9;
        else if (strcmp(argv[i], "--charts") == 0)
            want_charts = true;
        else if (strcmp(argv[i], "--png") == 0)
            want_charts = true, charts.png_scale = 2;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "drivebench: unknown option %s (" REPORT_USAGE ")\n", argv[i]);
            goto cleanup;
        } else
            dirs[ndirs++] = argv[i];
    }
    if (!ndirs) {
        fputs("drivebench: missing RESULTS_DIR argument (" REPORT_USAGE ")\n", stderr);
        goto cleanup;
    }
    if (ndirs == 1 && is_sweep(dirs[0])) {      /* a sweep's folder (issue 34) */
        rc = report_sweep_write(dirs[0], out, &html, err, sizeof err);
        if (rc == 0)
            printf("report: %s\n", html);
        else
            fprintf(stderr, "drivebench: %s\n", err);
        rc = rc == 0 ? 0 : rc == REPORT_BAD_INPUT ? 2 : 1;
        goto cleanup;
    }
    rc = write_page(dirs, ndirs, out, &html, &csv, stdout, want_charts ? &charts : NULL, err,
                    sizeof err);
    if (rc == 0) {
        /* the page on standard output: these lines apart */
        FILE *f = strcmp(html, "-") == 0 ? stderr : stdout;
        fprintf(f, "report: %s\n", html);
        if (csv)
            fprintf(f, "csv: %s\n", csv);
        /* the ranking's lines (rank.c) */
        if (want_charts)
            fprintf(f, "svg: %d file(s) in %s\n", charts.nsvg, charts.dir);
        if (want_charts && charts.png_scale > 0)
            fprintf(f, "png: %d file(s) in %s (twice the charts' size)\n", charts.npng,
                    charts.dir);
    } else
        fprintf(stderr, "drivebench: %s\n", err);
    rc = rc == 0 ? 0 : rc == REPORT_BAD_INPUT ? 2 : 1;
cleanup:
    free(charts.dir);
    free(html);
    free(csv);
    free(dirs);
    return rc;
}
