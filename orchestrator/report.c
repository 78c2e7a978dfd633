/* report.c — reading run folders for the report, the figures the report
 * adds (spread over repetitions, scaling across runs) and the CSV (see
 * report.h). The HTML page is built in report_html.c. */
#include "report.h"
#include "aggregate.h"
#include "names.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN_TEXT_MAX (256 * 1024)

const char *report_num(double v, char *buf, size_t len)
{
    json_object *o = orch_json_number(v);
    snprintf(buf, len, "%s", json_object_to_json_string(o));
    json_object_put(o);
    return buf;
}

/* The member at a dot-separated path, or NULL. */
static json_object *member(json_object *o, const char *path)
{
    char key[64];
    while (o && *path) {
        size_t n = strcspn(path, ".");
        if (n >= sizeof key)
            return NULL;
        memcpy(key, path, n);
        key[n] = '\0';
        if (!json_object_object_get_ex(o, key, &o))
            return NULL;
        path += n + (path[n] == '.');
    }
    return o;
}

const char *report_text(json_object *o, const char *path)
{
    json_object *v = member(o, path);
    if (!v)
        return "";
    if (json_object_is_type(v, json_type_string))
        return json_object_get_string(v);
    return json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN);
}

double report_double(json_object *o, const char *path)
{
    json_object *v = member(o, path);
    return v ? json_object_get_double(v) : 0;
}

report_spread report_spread_of(const double *v, int n)
{
    report_spread s = { .n = n };
    double sum = 0, sq = 0;
    if (n < 1)
        return s;
    s.min = s.max = v[0];
    for (int i = 0; i < n; i++) {
        sum += v[i];
        s.min = v[i] < s.min ? v[i] : s.min;
        s.max = v[i] > s.max ? v[i] : s.max;
    }
    s.mean = sum / n;
    for (int i = 0; i < n; i++)
        sq += (v[i] - s.mean) * (v[i] - s.mean);
    if (n > 1 && s.mean != 0)
        s.cv = sqrt(sq / (n - 1)) / fabs(s.mean) * 100.0;
    return s;
}

/* Whole file into a new string (caller frees), NULL when unreadable. */
static char *slurp(const char *path, size_t max)
{
    FILE *f = fopen(path, "r");
    char *buf;
    size_t n;
    if (!f)
        return NULL;
    buf = malloc(max + 1);
    n = buf ? fread(buf, 1, max, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = '\0';
    return buf;
}

/* The interval samples and error counts of a VM, from its oltp result's
 * measure phase; from the summary's tps_series when the result cannot be
 * read (then have_counts stays 0). 0, or -1 when out of memory. */
static int vm_load_samples(const char *dir, report_vm *vm)
{
    char *path = orch_strfmt("%s/%s", dir, report_text(vm->j, "result"));
    json_object *doc = path ? json_object_from_file(path) : NULL, *phases, *ivs = NULL;
    json_object *series = member(vm->j, "tps_series");
    size_t n;
    int rc = -1;

    if (doc && json_object_object_get_ex(doc, "phases", &phases))
        for (size_t i = 0; i < json_object_array_length(phases); i++) {
            json_object *ph = json_object_array_get_idx(phases, i);
            if (strcmp(report_text(ph, "name"), "measure") != 0)
                continue;
            ivs = member(ph, "intervals");
            vm->errors = json_object_get_int64(member(ph, "errors"));
            vm->reconnects = json_object_get_int64(member(ph, "reconnects"));
            vm->have_counts = 1;
        }
    n = ivs ? json_object_array_length(ivs) : series ? json_object_array_length(series) : 0;
    vm->t = calloc(n ? n : 1, sizeof *vm->t);
    vm->tps = calloc(n ? n : 1, sizeof *vm->tps);
    if (!vm->t || !vm->tps)
        goto cleanup;
    for (size_t i = 0; i < n; i++) {
        if (ivs) {
            json_object *iv = json_object_array_get_idx(ivs, i);
            vm->t[i] = report_double(iv, "t");
            vm->tps[i] = report_double(iv, "tps");
        } else {
            json_object *pair = json_object_array_get_idx(series, i);
            vm->t[i] = json_object_get_double(json_object_array_get_idx(pair, 0));
            vm->tps[i] = json_object_get_double(json_object_array_get_idx(pair, 1));
        }
    }
    vm->npoints = (int)n;
    rc = 0;
cleanup:
    json_object_put(doc);
    free(path);
    return rc;
}

/* Figures of one drive, with the spread over its repetitions. */
static int drive_load(report_run *run, json_object *dj, report_drive *d)
{
    json_object *reps = member(dj, "repetitions");
    int n = reps ? (int)json_object_array_length(reps) : 0;
    double *tps = calloc(n ? (size_t)n : 1, sizeof *tps);
    double *p99 = calloc(n ? (size_t)n : 1, sizeof *p99);
    int rc = -1;

    if (!tps || !p99)
        goto cleanup;
    d->j = dj;
    d->name = report_text(dj, "name");
    d->vms = (int)report_double(dj, "vms");
    d->tps = report_double(dj, "tps");
    for (int i = 0; i < n; i++) {
        json_object *rj = json_object_array_get_idx(reps, (size_t)i);
        tps[i] = report_double(rj, "tps");
        p99[i] = report_double(rj, "latency_ms.p99");
    }
    d->tps_spread = report_spread_of(tps, n);
    d->p99_spread = report_spread_of(p99, n);
    d->flagged = d->tps_spread.cv > run->cv_threshold || d->p99_spread.cv > run->cv_threshold;
    rc = 0;
cleanup:
    free(tps);
    free(p99);
    return rc;
}

/* Read one run folder into run. 0, or -1 with err. */
static int run_load(const char *dir, report_run *run, char *err, size_t errlen)
{
    char *path = orch_strfmt("%s/summary.json", dir), *plan = orch_strfmt("%s/plan.ini", dir);
    json_object *drives, *vms, *cv;
    int rc = -1;

    run->dir = strdup(dir);
    if (!path || !plan || !run->dir) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    run->summary = json_object_from_file(path);
    if (!run->summary) {
        snprintf(err, errlen, "%s: cannot read the run's summary (is %s a run folder of "
                 "`drivebench run`?)", path, dir);
        goto cleanup;
    }
    if (strncmp(report_text(run->summary, "schema"), REPORT_SUMMARY_MAJOR,
                strlen(REPORT_SUMMARY_MAJOR)) != 0) {
        snprintf(err, errlen, "%s: not a %s document", path, REPORT_SUMMARY_MAJOR);
        goto cleanup;
    }
    drives = member(run->summary, "drives");
    vms = member(run->summary, "vms");
    if (!json_object_is_type(drives, json_type_array) || !json_object_is_type(vms, json_type_array)) {
        snprintf(err, errlen, "%s: no drives or vms array", path);
        goto cleanup;
    }
    run->plan_text = slurp(plan, PLAN_TEXT_MAX);
    run->run_id = report_text(run->summary, "run_id");
    run->repetitions = (int)report_double(run->summary, "repetitions");
    cv = member(run->summary, "plan.cv_threshold");
    run->cv_threshold = cv ? json_object_get_double(cv) : REPORT_CV_DEFAULT;
    run->ndrives = (int)json_object_array_length(drives);
    run->nvms = (int)json_object_array_length(vms);
    run->drives = calloc(run->ndrives ? (size_t)run->ndrives : 1, sizeof *run->drives);
    run->vms = calloc(run->nvms ? (size_t)run->nvms : 1, sizeof *run->vms);
    if (!run->drives || !run->vms) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < run->ndrives; i++)
        if (drive_load(run, json_object_array_get_idx(drives, (size_t)i), &run->drives[i]) < 0) {
            snprintf(err, errlen, "out of memory");
            goto cleanup;
        }
    for (int i = 0; i < run->nvms; i++) {
        report_vm *vm = &run->vms[i];
        vm->j = json_object_array_get_idx(vms, (size_t)i);
        vm->name = report_text(vm->j, "name");
        vm->drive = report_text(vm->j, "drive");
        vm->repetition = (int)report_double(vm->j, "repetition");
        if (vm_load_samples(dir, vm) < 0) {
            snprintf(err, errlen, "out of memory");
            goto cleanup;
        }
    }
    rc = 0;
cleanup:
    free(path);
    free(plan);
    return rc;
}

static void run_clear(report_run *run)
{
    for (int i = 0; run->vms && i < run->nvms; i++) {
        free(run->vms[i].t);
        free(run->vms[i].tps);
    }
    free(run->vms);
    free(run->drives);
    free(run->plan_text);
    free(run->dir);
    json_object_put(run->summary);
}

report_set *report_load(const char *const *dirs, int ndirs, char *err, size_t errlen)
{
    report_set *s = calloc(1, sizeof *s);
    if (!s || !(s->runs = calloc(ndirs > 0 ? (size_t)ndirs : 1, sizeof *s->runs))) {
        free(s);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (int i = 0; i < ndirs; i++) {
        report_run *run = &s->runs[s->nruns++];
        if (i < 26)
            snprintf(run->label, sizeof run->label, "%c", 'A' + i);
        else
            snprintf(run->label, sizeof run->label, "R%d", i + 1);
        if (run_load(dirs[i], run, err, errlen) < 0) {
            report_set_free(s);
            return NULL;
        }
    }
    return s;
}

void report_set_free(report_set *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->nruns; i++)
        run_clear(&s->runs[i]);
    free(s->runs);
    free(s);
}

double report_scaling(const report_set *s, int r, int d, int *base_run, int *base_drive)
{
    const char *name = s->runs[r].drives[d].name;
    int others = 0;
    *base_run = *base_drive = -1;
    for (int i = 0; i < s->nruns; i++)
        for (int k = 0; k < s->runs[i].ndrives; k++) {
            const report_drive *c = &s->runs[i].drives[k];
            if (strcmp(c->name, name) != 0)
                continue;
            others += i != r;
            if (*base_run < 0 || c->vms < s->runs[*base_run].drives[*base_drive].vms) {
                *base_run = i;
                *base_drive = k;
            }
            break;
        }
    if (!others) {
        *base_run = *base_drive = -1;
        return 0;
    }
    {
        double base = s->runs[*base_run].drives[*base_drive].tps;
        return base > 0 ? s->runs[r].drives[d].tps / base : 0;
    }
}

double report_run_scaling(const report_set *s, int r, int *base_run)
{
    double base;
    *base_run = 0;
    for (int i = 1; i < s->nruns; i++)
        if (report_double(s->runs[i].summary, "run.vms")
            < report_double(s->runs[*base_run].summary, "run.vms"))
            *base_run = i;
    base = report_double(s->runs[*base_run].summary, "run.tps");
    return base > 0 ? report_double(s->runs[r].summary, "run.tps") / base : 0;
}

/* A text field of the CSV: always quoted (RFC 4180), quotes doubled, so a
 * spreadsheet never reads a drive name as a number or a formula split. */
static void csv_text(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int report_write_csv(const report_set *s, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    char b[10][48];
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fputs("run_id,run,drive,vms,repetitions,tps,tps_min,tps_max,tps_cv_pct,tps_per_vm,"
          "transactions,latency_avg_ms,latency_p99_ms,latency_p99_mean_of_vms_ms,"
          "p99_rep_mean_ms,p99_rep_min_ms,p99_rep_max_ms,p99_cv_pct,cv_threshold_pct,cv_flag,"
          "scaling_base_run,scaling_ratio\n", f);
    for (int r = 0; r < s->nruns; r++)
        for (int d = 0; d < s->runs[r].ndrives; d++) {
            const report_run *run = &s->runs[r];
            const report_drive *dr = &run->drives[d];
            int br, bd;
            double ratio = report_scaling(s, r, d, &br, &bd);
            csv_text(f, run->run_id);
            fputc(',', f);
            csv_text(f, run->label);
            fputc(',', f);
            csv_text(f, dr->name);
            fprintf(f, ",%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d,", dr->vms,
                    dr->tps_spread.n, report_text(dr->j, "tps"),
                    report_num(dr->tps_spread.min, b[0], sizeof b[0]),
                    report_num(dr->tps_spread.max, b[1], sizeof b[1]),
                    report_num(dr->tps_spread.cv, b[2], sizeof b[2]),
                    report_num(dr->vms ? dr->tps / dr->vms : 0, b[3], sizeof b[3]),
                    report_text(dr->j, "transactions"), report_text(dr->j, "latency_ms.avg"),
                    report_text(dr->j, "latency_ms.p99"),
                    report_text(dr->j, "latency_ms.p99_mean_of_vms"),
                    report_num(dr->p99_spread.mean, b[4], sizeof b[4]),
                    report_num(dr->p99_spread.min, b[5], sizeof b[5]),
                    report_num(dr->p99_spread.max, b[6], sizeof b[6]),
                    report_num(dr->p99_spread.cv, b[7], sizeof b[7]),
                    report_num(run->cv_threshold, b[8], sizeof b[8]), dr->flagged);
            if (br >= 0) {
                csv_text(f, s->runs[br].label);
                fprintf(f, ",%s", report_num(ratio, b[9], sizeof b[9]));
            } else {
                fputc(',', f);
            }
            fputc('\n', f);
        }
    if (fclose(f) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* "x.html" -> "x.csv"; any other name gets ".csv" appended. Caller frees. */
static char *csv_path_for(const char *html)
{
    size_t n = strlen(html);
    if (n > 5 && strcmp(html + n - 5, ".html") == 0)
        return orch_strfmt("%.*s.csv", (int)(n - 5), html);
    return orch_strfmt("%s.csv", html);
}

int report_write(const char *const *dirs, int ndirs, const char *html_path, char **html_out,
                 char **csv_out, char *err, size_t errlen)
{
    char *html = html_path ? strdup(html_path)
                 : ndirs == 1 ? orch_strfmt("%s/report.html", dirs[0]) : strdup("report.html");
    char *csv = html ? csv_path_for(html) : NULL;
    report_set *s = NULL;
    int rc = -1;

    if (!csv) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    s = report_load(dirs, ndirs, err, errlen);
    if (!s) {
        rc = REPORT_BAD_INPUT;
        goto cleanup;
    }
    if (report_write_html(s, html, err, errlen) < 0 || report_write_csv(s, csv, err, errlen) < 0)
        goto cleanup;
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

int report_main(int argc, char **argv)
{
    const char **dirs = calloc(argc > 0 ? (size_t)argc : 1, sizeof *dirs);
    const char *out = NULL;
    char err[1024], *html = NULL, *csv = NULL;
    int ndirs = 0, rc = 2;

    if (!dirs)
        return 1;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strncmp(argv[i], "--output=", 9) == 0)
            out = argv[i] + 9;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "drivebench: unknown option %s (usage: drivebench report "
                    "RESULTS_DIR... [-o report.html])\n", argv[i]);
            goto cleanup;
        } else
            dirs[ndirs++] = argv[i];
    }
    if (!ndirs) {
        fputs("drivebench: missing RESULTS_DIR argument (usage: drivebench report "
              "RESULTS_DIR... [-o report.html])\n", stderr);
        goto cleanup;
    }
    rc = report_write(dirs, ndirs, out, &html, &csv, err, sizeof err);
    if (rc == 0)
        printf("report: %s\ncsv: %s\n", html, csv);
    else
        fprintf(stderr, "drivebench: %s\n", err);
    rc = rc == 0 ? 0 : rc == REPORT_BAD_INPUT ? 2 : 1;
cleanup:
    free(html);
    free(csv);
    free(dirs);
    return rc;
}
