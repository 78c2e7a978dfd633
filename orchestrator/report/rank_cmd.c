/* rank_cmd.c — `drivebench report --rank` (rank.h's rank_main): its
 * options, the ranking built (rank.c) and written as a page, SVG files
 * (rank_html.c) and a CSV, and the lines it prints. */
#include "report/rank.h"
#include "attributes.h"
#include "util/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RANK_USAGE "usage: drivebench report --rank [--all-runs] [--highlight NAME] " \
                   "[--baseline DRIVE] [--png] [-o DIR] RUN_OR_RESULTS_DIR..."

static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return NULL;
    if (argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (argv[*i][n] == '\0' && *i + 1 < argc)
        return argv[++*i];
    return NULL;
}

int rank_main(int argc, char **argv)
{
    const char **paths = calloc(argc > 0 ? (size_t)argc : 1, sizeof *paths);
    const char *out = "ranking", *highlight = NULL, *baseline = NULL, *v;
    char err[DB_ERR_LEN], **dirs = NULL, *html = NULL, *csv = NULL;
    int npaths = 0, ndirs = 0, all_runs = 0, png = 0, rc = 2;
    rank_files files = { 0 };
    rank_set *r = NULL;

    if (!paths)
        return 1;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--rank") == 0)
            continue;
        if (strcmp(argv[i], "--all-runs") == 0)
            all_runs = 1;
        else if (strcmp(argv[i], "--png") == 0)
            png = 1;
        else if ((v = opt_value(argc, argv, &i, "--highlight")))
            highlight = v;
        else if ((v = opt_value(argc, argv, &i, "--baseline")))
            baseline = v;
        else if ((v = opt_value(argc, argv, &i, "--output")) || (v = opt_value(argc, argv, &i, "-o")))
            out = v;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "drivebench: unknown or incomplete option %s (" RANK_USAGE ")\n",
                    argv[i]);
            goto cleanup;
        } else
            paths[npaths++] = argv[i];
    }
    if (!npaths) {
        fputs("drivebench: missing RUN_OR_RESULTS_DIR argument (" RANK_USAGE ")\n", stderr);
        goto cleanup;
    }
    if (!(dirs = rank_expand(paths, npaths, &ndirs, err, sizeof err))
        || !(r = rank_build((const char *const *)dirs, ndirs, all_runs, highlight, baseline, err,
                            sizeof err))) {
        fprintf(stderr, "drivebench: %s\n", err);
        goto cleanup;
    }
    rc = 1;
    if (mkdir(out, 0777) < 0 && errno != EEXIST) {
        fprintf(stderr, "drivebench: cannot create %s: %s\n", out, strerror(errno));
        goto cleanup;
    }
    html = orch_strfmt("%s/rank.html", out);
    csv = orch_strfmt("%s/rank.csv", out);
    /* PNGs at twice the charts' size: sharp in print and on dense screens */
    files = (rank_files){ .dir = out, .png_scale = png ? 2 : 0 };
    if (!html || !csv || rank_write_html(r, &files, err, sizeof err) < 0
        || rank_write_csv(r, csv, err, sizeof err) < 0) {
        fprintf(stderr, "drivebench: %s\n", html && csv ? err : "out of memory");
        goto cleanup;
    }
    for (int g = 0; g < r->ng; g++) {
        char label[16], diff[512];
        int runs = 0;
        for (int i = 0; i < r->s->nruns; i++)
            runs += r->s->runs[i].group == r->g[g].group;
        printf("%s: %d drive(s) ranked from %d run(s)",
               report_group_label(r->g[g].group, label, sizeof label), r->g[g].n, runs);
        if (g && report_fp_diff(&r->s->runs[report_group_first(r->s, 0)],
                                &r->s->runs[report_group_first(r->s, g)], diff, sizeof diff) != 0)
            printf("; differs from P1 in %s", diff);
        putchar('\n');
        for (int i = 0; i < r->g[g].nleft; i++)
            printf("  left out: %s\n", r->g[g].left_out[i]);
    }
    printf("ranking: %s\ncsv: %s\nsvg: %d file(s) in %s\n", html, csv, files.nsvg, out);
    if (png)
        printf("png: %d file(s) in %s (twice the charts' size)\n", files.npng, out);
    rc = 0;
cleanup:
    rank_set_free(r);
    rank_paths_free(dirs, ndirs);
    free(paths);
    free(html);
    free(csv);
    return rc;
}
