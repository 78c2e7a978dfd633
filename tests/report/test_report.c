/* `drivebench report` from the committed fixture run folders
 * (results/fixtures/report-{4vm,8vm,reps}, made by make-fixtures.sh with
 * real oltp results): every figure in the HTML page and the CSV equals the
 * one computed here, independently, from the VMs' histograms; the page
 * parses with libxml2's HTML parser, has one chart per metric, sorted bars,
 * no script element, and a drive named <script>alert(1)</script> shows as
 * text. Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>

#include "hist.h"
#include "report/report.h"
#include "xpath_util.h"

#define F4   "results/fixtures/report-4vm"
#define F8   "results/fixtures/report-8vm"
#define FREP "results/fixtures/report-reps"
#define XSS  "<script>alert(1)</script>"
#define FFAIL "results/fixtures/report-failed"
#define FTPCC "results/fixtures/tpcc"
#define MAX_REPS 8

/* ---- figures computed here from the fixtures' histograms ---- */

typedef struct expect_rep {
    int     vms;
    double  tps;
    int64_t transactions;
    double  p99_sum;            /* of each VM's p99, ms */
    hist   *h;
} expect_rep;

typedef struct expect_drive {
    char      *name;
    int        nreps;
    expect_rep rep[MAX_REPS + 1];   /* [0]: all repetitions */
} expect_drive;

/* A number as the summary writes it: 6 decimals, no trailing zeros. */
static void fmt6(double v, char *buf, size_t len)
{
    size_t n;
    snprintf(buf, len, "%.6f", round(v * 1e6) / 1e6);
    n = strlen(buf);
    while (buf[n - 1] == '0')
        buf[--n] = '\0';
    if (buf[n - 1] == '.')
        buf[--n] = '\0';
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, len, "0");
}

static json_object *get(json_object *o, const char *k)
{
    json_object *v = NULL;
    json_object_object_get_ex(o, k, &v);
    return v;
}

/* Drives of a run folder, from its VMs' oltp results: tps and
 * transactions summed, histograms merged, per repetition and overall. */
static expect_drive *expect_load(const char *dir, int *ndrives)
{
    char path[512];
    json_object *sum, *vms;
    expect_drive *d = calloc(16, sizeof *d);
    int n = 0;
    snprintf(path, sizeof path, "%s/summary.json", dir);
    sum = json_object_from_file(path);
    assert_non_null(sum);
    vms = get(sum, "vms");
    for (size_t i = 0; i < json_object_array_length(vms); i++) {
        json_object *vm = json_object_array_get_idx(vms, i), *doc, *phases, *measure = NULL;
        const char *drive = json_object_get_string(get(vm, "drive"));
        int rep = json_object_get_int(get(vm, "repetition")), k;
        char err[256];
        hist *h;
        for (k = 0; k < n && strcmp(d[k].name, drive) != 0; k++)
            ;
        if (k == n) {
            assert_true(n < 16);
            d[n++].name = strdup(drive);
        }
        assert_true(rep >= 1 && rep <= MAX_REPS);
        d[k].nreps = rep > d[k].nreps ? rep : d[k].nreps;
        snprintf(path, sizeof path, "%s/%s", dir, json_object_get_string(get(vm, "result")));
        doc = json_object_from_file(path);
        assert_non_null(doc);
        phases = get(doc, "phases");
        for (size_t p = 0; p < json_object_array_length(phases); p++)
            if (strcmp(json_object_get_string(get(json_object_array_get_idx(phases, p), "name")),
                       "measure") == 0)
                measure = json_object_array_get_idx(phases, p);
        assert_non_null(measure);
        h = hist_from_json(get(measure, "histogram"), err, sizeof err);
        assert_non_null(h);
        for (int slot = 0; slot <= rep; slot += rep) {
            expect_rep *e = &d[k].rep[slot];
            if (!e->h)
                e->h = hist_new(h->highest, h->sig_digits);
            assert_int_equal(hist_add(e->h, h), 0);
            e->vms++;
            e->tps += json_object_get_double(get(measure, "tps"));
            e->transactions += json_object_get_int64(get(measure, "transactions"));
            e->p99_sum += (double)hist_percentile(h, 99) / 1000.0;
        }
        hist_free(h);
        json_object_put(doc);
    }
    json_object_put(sum);
    *ndrives = n;
    return d;
}

static void expect_free(expect_drive *d, int n)
{
    for (int i = 0; i < n; i++) {
        for (int r = 0; r <= MAX_REPS; r++)
            hist_free(d[i].rep[r].h);
        free(d[i].name);
    }
    free(d);
}

static double mean_tps(const expect_drive *d)
{
    double s = 0;
    for (int r = 1; r <= d->nreps; r++)
        s += d->rep[r].tps;
    return s / d->nreps;
}

static double p99_ms(const expect_rep *e)
{
    return (double)hist_percentile(e->h, 99) / 1000.0;
}

/* Mean and sample-standard-deviation CV (percent) of v[0..n-1]. */
static void spread(const double *v, int n, double *mean, double *mn, double *mx, double *cv)
{
    double s = 0, sq = 0;
    *mn = *mx = v[0];
    for (int i = 0; i < n; i++) {
        s += v[i];
        *mn = fmin(*mn, v[i]);
        *mx = fmax(*mx, v[i]);
    }
    *mean = s / n;
    for (int i = 0; i < n; i++)
        sq += (v[i] - *mean) * (v[i] - *mean);
    *cv = n > 1 ? sqrt(sq / (n - 1)) / *mean * 100 : 0;
}

/* ---- the page and the CSV as written by the report ---- */

typedef struct written {
    char     dir[64], html[128], csv[128];
    xmlDocPtr doc;
    char    *raw;               /* the page's bytes */
    char   **csv_lines;
    int      ncsv;
} written;

static void write_report(written *w, const char *const *dirs, int n)
{
    char err[512] = "", line[4096];
    report_set *s;
    FILE *f;
    long len;
    snprintf(w->dir, sizeof w->dir, "/tmp/report-test-XXXXXX");
    assert_non_null(mkdtemp(w->dir));
    snprintf(w->html, sizeof w->html, "%s/report.html", w->dir);
    snprintf(w->csv, sizeof w->csv, "%s/report.csv", w->dir);
    s = report_load(dirs, n, err, sizeof err);
    if (!s)
        fail_msg("report_load: %s", err);
    assert_int_equal(report_write_html(s, w->html, err, sizeof err), 0);
    assert_int_equal(report_write_csv(s, w->csv, err, sizeof err), 0);
    report_set_free(s);
    f = fopen(w->html, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    rewind(f);
    w->raw = calloc(1, (size_t)len + 1);
    assert_int_equal(fread(w->raw, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    w->doc = htmlReadFile(w->html, "UTF-8", HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING
                          | HTML_PARSE_NONET);
    assert_non_null(w->doc);
    f = fopen(w->csv, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        w->csv_lines = realloc(w->csv_lines, sizeof *w->csv_lines * (size_t)(w->ncsv + 1));
        line[strcspn(line, "\n")] = '\0';
        w->csv_lines[w->ncsv++] = strdup(line);
    }
    fclose(f);
}

static void written_free(written *w)
{
    xmlFreeDoc(w->doc);
    free(w->raw);
    for (int i = 0; i < w->ncsv; i++)
        free(w->csv_lines[i]);
    free(w->csv_lines);
    unlink(w->html);
    unlink(w->csv);
    rmdir(w->dir);
}

/* A scratch copy of a fixture run folder, for a test to change. */
typedef struct run_copy {
    char dir[64];               /* the scratch folder (run_copy_free removes it) */
    char run[128];              /* the copied run folder in it */
} run_copy;

/* Copies the run folder `fixture` into a new scratch folder. */
static void run_copy_new(run_copy *c, const char *fixture)
{
    char cmd[256];
    snprintf(c->dir, sizeof c->dir, "/tmp/report-test-run-XXXXXX");
    assert_non_null(mkdtemp(c->dir));
    snprintf(cmd, sizeof cmd, "cp -r %s %s/", fixture, c->dir);
    assert_int_equal(system(cmd), 0);
    snprintf(c->run, sizeof c->run, "%s/%s", c->dir, strrchr(fixture, '/') + 1);
}

/* Runs the Python statements `edit` on the copy's summary.json, loaded as
 * d, and writes d back. */
static void run_copy_edit(run_copy *c, const char *edit)
{
    char *cmd;
    assert_true(asprintf(&cmd, "python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); "
                         "%s; json.dump(d, open(p, \"w\"))' %s/summary.json", edit, c->run) > 0);
    assert_int_equal(system(cmd), 0);
    free(cmd);
}

/* Removes the copy's scratch folder. */
static void run_copy_free(run_copy *c)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", c->dir);
    assert_int_equal(system(cmd), 0);
}

/* The report of a copy of the run folder `fixture` changed by `edit`
 * (run_copy_edit) into w; edited_free removes both. */
static void write_edited(written *w, run_copy *c, const char *fixture, const char *edit)
{
    const char *dirs[1];
    run_copy_new(c, fixture);
    run_copy_edit(c, edit);
    dirs[0] = c->run;
    *w = (written){ 0 };
    write_report(w, dirs, 1);
}

static void edited_free(written *w, run_copy *c)
{
    written_free(w);
    run_copy_free(c);
}

/* An attribute's value as a static copy ("" when missing). */
static const char *prop(xmlNodePtr n, const char *name)
{
    static char buf[4][512];
    static int k;
    xmlChar *v = xmlGetProp(n, BAD_CAST name);
    char *out = buf[k++ % 4];
    snprintf(out, 512, "%s", v ? (const char *)v : "");
    xmlFree(v);
    return out;
}

/* The row of table `id` for run label and drive (any drive when NULL). */
static xmlNodePtr row_of(xmlDocPtr doc, const char *id, const char *run, const char *drive)
{
    char expr[128];
    xmlXPathObjectPtr o;
    xmlNodePtr found = NULL;
    snprintf(expr, sizeof expr, "//table[@id='%s']/tbody/tr", id);
    o = rt_nodes(doc, expr);
    for (int i = 0; o->nodesetval && i < o->nodesetval->nodeNr; i++) {
        xmlNodePtr tr = o->nodesetval->nodeTab[i];
        if (strcmp(prop(tr, "data-run"), run) == 0
            && (!drive || strcmp(prop(tr, "data-drive"), drive) == 0)) {
            assert_null(found);             /* one row per run and drive */
            found = tr;
        }
    }
    xmlXPathFreeObject(o);
    if (!found)
        fail_msg("no row for run %s drive %s in table %s", run, drive ? drive : "*", id);
    return found;
}

/* The cell with data-key `key` in row tr. */
static xmlNodePtr cell_of(xmlNodePtr tr, const char *key)
{
    for (xmlNodePtr td = tr->children; td; td = td->next)
        if (td->type == XML_ELEMENT_NODE && strcmp(prop(td, "data-key"), key) == 0)
            return td;
    fail_msg("no cell %s", key);
    return NULL;
}

/* The cell's exact figure equals v, and its shown text is v with
 * `decimals` decimals. */
static void assert_cell(xmlNodePtr tr, const char *key, double v, int decimals)
{
    xmlNodePtr td = cell_of(tr, key);
    char want[64], shown[64];
    xmlChar *text = xmlNodeGetContent(td);
    fmt6(v, want, sizeof want);
    snprintf(shown, sizeof shown, "%.*f", decimals, v);
    if (strcmp(prop(td, "data-value"), want) != 0)
        fail_msg("%s: data-value %s, want %s", key, prop(td, "data-value"), want);
    assert_string_equal((const char *)text, shown);
    xmlFree(text);
}

/* The text of a cell by column position (0-based) */
static char *nth_text(xmlNodePtr tr, int col)
{
    for (xmlNodePtr td = tr->children; td; td = td->next)
        if (td->type == XML_ELEMENT_NODE && col-- == 0)
            return (char *)xmlNodeGetContent(td);
    return NULL;
}

/* Field `col` of a CSV line (fields here hold no commas). */
static const char *csv_col(const char *line, int col)
{
    static char buf[256];
    const char *p = line;
    size_t n;
    for (int i = 0; i < col && p; i++) {
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    assert_non_null(p);
    n = strcspn(p, ",");
    snprintf(buf, sizeof buf, "%.*s", (int)n, p);
    return buf;
}

static const char CSV_HEADER[] =
    "run_id,run,drive,vms,repetitions,tps,tps_min,tps_max,tps_cv_pct,tps_per_vm,"
    "transactions,latency_avg_ms,latency_p99_ms,latency_p99_mean_of_vms_ms,"
    "p99_rep_mean_ms,p99_rep_min_ms,p99_rep_max_ms,p99_cv_pct,cv_threshold_pct,cv_flag,"
    "scaling_base_run,scaling_ratio,status,failed_vms,tpmC,NOPM,repetitions_other_vms,"
    "scaling_ratio_lo,scaling_ratio_hi,scaling_ratio_ci";

/* The drive table, the bars and the CSV of run `label` equal the figures
 * computed from the run folder's histograms. */
static void check_drives(written *w, const char *dir, const char *label, int first_csv_row)
{
    int n;
    expect_drive *d = expect_load(dir, &n);
    for (int i = 0; i < n; i++) {
        expect_rep *all = &d[i].rep[0];
        double tps = mean_tps(&d[i]), avg = hist_mean(all->h) / 1000.0, p99 = p99_ms(all);
        double p99m = all->p99_sum / all->vms;
        xmlNodePtr tr = row_of(w->doc, "drive-table", label, d[i].name);
        const char *line = w->csv_lines[first_csv_row + i];
        char want[64], quoted[128];
        assert_cell(tr, "vms", all->vms / d[i].nreps, 0);
        assert_cell(tr, "tps", tps, 2);
        assert_cell(tr, "transactions", (double)all->transactions, 0);
        assert_cell(tr, "latency_avg_ms", avg, 3);
        assert_cell(tr, "latency_p99_ms", p99, 3);
        assert_cell(tr, "latency_p99_mean_of_vms_ms", p99m, 3);
        /* the CSV row: one per drive per run, in the same order */
        snprintf(quoted, sizeof quoted, "\"%s\"", d[i].name);
        if (strchr(d[i].name, ',') == NULL) {
            assert_string_equal(csv_col(line, 2), quoted);
            fmt6(tps, want, sizeof want);
            assert_string_equal(csv_col(line, 5), want);
            fmt6(avg, want, sizeof want);
            assert_string_equal(csv_col(line, 11), want);
            fmt6(p99, want, sizeof want);
            assert_string_equal(csv_col(line, 12), want);
            fmt6(p99m, want, sizeof want);
            assert_string_equal(csv_col(line, 13), want);
            fmt6(tps / (all->vms / d[i].nreps), want, sizeof want);
            assert_string_equal(csv_col(line, 9), want);
        }
    }
    expect_free(d, n);
}

/* In each bar chart: one bar per drive and run, sorted, values exact. */
static void check_bars(written *w, int nbars)
{
    static const struct { const char *id; int desc; } charts[] = {
        { "chart-tps", 1 }, { "chart-latency-avg", 0 }, { "chart-latency-p99", 0 },
    };
    for (size_t c = 0; c < 3; c++) {
        char expr[128];
        xmlXPathObjectPtr o;
        double prev = 0;
        snprintf(expr, sizeof expr, "//svg[@id='%s']", charts[c].id);
        assert_int_equal(rt_count(w->doc, expr), 1);
        snprintf(expr, sizeof expr, "//svg[@id='%s']//g[@class='bar']", charts[c].id);
        o = rt_nodes(w->doc, expr);
        assert_int_equal(o->nodesetval->nodeNr, nbars);
        for (int i = 0; i < nbars; i++) {
            double v = atof(prop(o->nodesetval->nodeTab[i], "data-value"));
            if (i)
                assert_true(charts[c].desc ? v <= prev : v >= prev);
            prev = v;
        }
        xmlXPathFreeObject(o);
    }
}

/* The text of the first node matching expr (static buffer). */
static const char *text_of(xmlDocPtr doc, const char *expr)
{
    static char buf[2048];
    xmlXPathObjectPtr o = rt_nodes(doc, expr);
    xmlChar *t;
    if (!o->nodesetval || o->nodesetval->nodeNr < 1)
        fail_msg("nothing matches %s", expr);
    t = xmlNodeGetContent(o->nodesetval->nodeTab[0]);
    snprintf(buf, sizeof buf, "%s", (const char *)t);
    xmlFree(t);
    xmlXPathFreeObject(o);
    return buf;
}

/* The text of the cell `key` in table `id`'s row of run `run` (and of
 * drive `drive`, unless NULL). */
static const char *row_text(xmlDocPtr doc, const char *id, const char *run, const char *drive,
                            const char *key)
{
    char expr[320];
    if (drive)
        snprintf(expr, sizeof expr, "//table[@id='%s']/tbody/tr[@data-run='%s' and "
                 "@data-drive='%s']/td[@data-key='%s']", id, run, drive, key);
    else
        snprintf(expr, sizeof expr, "//table[@id='%s']/tbody/tr[@data-run='%s']"
                 "/td[@data-key='%s']", id, run, key);
    return text_of(doc, expr);
}

#define INCOMPLETE "incomplete \xe2\x80\x94 not comparable"

/* A run with a failed VM (report-failed: report-4vm's results with nvme-a
 * vm2 failed, its drive full), next to report-8vm: the model leaves the
 * incomplete drive out of spreads and scaling; the page shows the banner,
 * the failure with its console tail, and the drive flagged everywhere. */
static void test_failures(void **state)
{
    const char *dirs[] = { FFAIL, F8 };
    char err[512] = "", want[64];
    report_set *s;
    written w = { 0 };
    int br, bd;
    double tps = 0;
    xmlNodePtr tr;
    (void)state;
    s = report_load(dirs, 2, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(s->runs[0].sum.status, RES_RUN_DEGRADED);
    assert_true(s->runs[0].drives[0].incomplete);
    assert_int_equal(s->runs[0].drives[0].failed_vms, 1);
    assert_int_equal(s->runs[0].drives[0].vms, 3);
    assert_int_equal(s->runs[0].drives[0].tps_spread.n, 0);     /* no comparable rep */
    assert_false(s->runs[0].drives[1].incomplete);
    assert_int_equal(s->runs[0].drives[1].tps_spread.n, 1);
    /* the drive's tps: its three healthy VMs', from their oltp results */
    for (int v = 0; v < s->runs[0].nvms; v++)
        if (strcmp(s->runs[0].vms[v].drive, "nvme-a") == 0 && !s->runs[0].vms[v].failed) {
            res_oltp r;
            char path[512];
            snprintf(path, sizeof path, FFAIL "/%s", s->runs[0].vms[v].result);
            assert_int_equal(res_oltp_read_file(path, &r, err, sizeof err), 0);
            tps += res_oltp_measure(&r)->tps;
            res_oltp_clear(&r);
        }
    assert_string_equal(report_num(tps, want, sizeof want), "247.758119");
    assert_string_equal(report_num(s->runs[0].drives[0].tps, want, sizeof want), "247.758119");
    /* scaling: the incomplete nvme-a has no ratio and is no base; the run
     * with a failed VM neither */
    assert_true(report_scaling(s, 0, 0, &br, &bd) == 0);
    assert_int_equal(br, -1);
    assert_true(report_scaling(s, 1, 0, &br, &bd) == 0);     /* nothing to compare with */
    assert_int_equal(br, -1);
    assert_true(report_run_scaling(s, 0, &br) == 0);
    assert_int_equal(br, -1);
    assert_true(report_run_scaling(s, 1, &br) == 1);
    assert_int_equal(br, 1);
    report_set_free(s);

    write_report(&w, dirs, 2);
    /* the banner */
    assert_int_equal(rt_count(w.doc, "//div[@class='banner']"), 1);
    assert_string_equal(text_of(w.doc, "//div[@class='banner']/@data-status"),
                        "completed_with_failures");
    assert_string_equal(text_of(w.doc, "//div[@class='banner']"),
                        "Run A (report-failed) completed with failures: 1 VM run(s) failed and "
                        "are left out of every figure; their drives' figures are incomplete and "
                        "not comparable. See \"Failed VMs\".");
    /* the failed VM: in red in the VM table, and its failure in full */
    assert_int_equal(rt_count(w.doc, "//table[@id='vm-table']/tbody/tr[@class='failed']"), 1);
    assert_string_equal(text_of(w.doc, "//table[@id='vm-table']/tbody/tr[@class='failed']"
                                       "/td[@data-key='status']"), "failed: disk-full");
    assert_int_equal(rt_count(w.doc, "//section[@id='failures']/div[@class='failure']"), 1);
    assert_string_equal(text_of(w.doc, "//div[@class='failure']/@data-vm"),
                        "drivebench-report-4vm--nvme-a-vm2");
    assert_string_equal(text_of(w.doc, "//div[@class='failure']//tr[th='fault']/td"),
                        "disk-full");
    assert_string_equal(text_of(w.doc, "//div[@class='failure']//tr[th='reason']/td"),
                        "drive nvme-a is full");
    assert_string_equal(text_of(w.doc, "//div[@class='failure']//tr[th='failed at']/td"),
                        "2026-12-01T00:00:05Z");
    assert_string_equal(text_of(w.doc, "//div[@class='failure']//tr[th='phase']/td"),
                        "measure");
    /* what it measured up to the fault (its result, ended by the error):
     * its 5 intervals, charted in its failure only, with the fault 5 s
     * into its measured phase marked (its started_at 00:00:00, the
     * monitor's fault at 00:00:05) */
    assert_string_equal(text_of(w.doc, "//div[@class='failure']//tr[th='measured before the "
                                       "fault']/td"),
                        "5 intervals, up to 5.0 s of its measured phase (its oltp result "
                        "ended: error)");
    assert_int_equal(rt_count(w.doc, "//div[@class='failure']/svg[@id='failure-0-1-tps']"), 1);
    assert_string_equal(text_of(w.doc, "//svg[@id='failure-0-1-tps']//polyline/@data-label"),
                        "drivebench-report-4vm--nvme-a-vm2");
    /* x: 70 + t / 6 s * 866 px (1.000037 s -> 214.3, 5.001166 s -> 791.8);
     * y: 296 - tps / 100 * 260 px (89.996695 -> 62.0, 96.978227 -> 43.9) */
    assert_string_equal(text_of(w.doc, "//svg[@id='failure-0-1-tps']//polyline/@points"),
                        "214.3,62.0 358.7,43.9 503.1,95.9 647.4,93.1 791.8,96.0");
    assert_int_equal(rt_count(w.doc, "//svg[@id='failure-0-1-tps']//g[@class='mark']"), 1);
    assert_string_equal(text_of(w.doc, "//svg[@id='failure-0-1-tps']//g[@class='mark']/@data-x"),
                        "5");
    assert_string_equal(text_of(w.doc, "//svg[@id='failure-0-1-tps']//g[@class='mark']/"
                                       "@data-label"), "fault at 5.0 s");
    assert_string_equal(text_of(w.doc, "//svg[@id='failure-0-1-tps']//text[@class='mark']"),
                        "fault at 5.0 s");
    /* its series is in no other chart */
    assert_int_equal(rt_count(w.doc, "//polyline[@data-label='drivebench-report-4vm--nvme-a-vm2']"),
                     1);
    assert_string_equal(text_of(w.doc, "//div[@class='failure']/pre[@class='console']"),
        "[   12.345678] EXT4-fs error (device vdb): ext4_journal_check_start: Detected "
        "aborted journal\n[   12.345999] <db> mariadbd: Disk is full writing './ibdata1' "
        "(Errcode: 28 \"No space left on device\") & waiting\n");
    /* escaped in the page's bytes, not markup */
    assert_non_null(strstr(w.raw, "&lt;db&gt; mariadbd"));
    /* the incomplete drive: table, bars, repetitions, scaling */
    tr = row_of(w.doc, "drive-table", "A", "nvme-a");
    assert_string_equal(prop(tr, "class"), "incomplete");
    assert_string_equal(prop(cell_of(tr, "status"), "data-value"), "incomplete");
    assert_string_equal(row_text(w.doc, "drive-table", "A", "nvme-a", "status"),
                        INCOMPLETE " (1 VM run failed)");
    assert_string_equal(prop(cell_of(row_of(w.doc, "drive-table", "A", XSS), "status"),
                             "data-value"), "complete");
    for (int c = 0; c < 3; c++) {
        static const char *const ids[] = { "chart-tps", "chart-latency-avg", "chart-latency-p99" };
        char expr[160];
        snprintf(expr, sizeof expr, "//svg[@id='%s']//g[@class='bar incomplete']", ids[c]);
        assert_int_equal(rt_count(w.doc, expr), 1);
        snprintf(expr, sizeof expr, "//svg[@id='%s']//g[@class='bar incomplete']/@data-label",
                 ids[c]);
        assert_string_equal(text_of(w.doc, expr), "nvme-a [A]");
    }
    assert_string_equal(text_of(w.doc, "//svg[@id='chart-tps']//g[@class='bar incomplete']"
                                       "/text[contains(@class,'value')]"),
                        "247.76 (" INCOMPLETE ")");
    tr = row_of(w.doc, "repetition-table", "A", "nvme-a");
    assert_string_equal(prop(cell_of(tr, "tps_mean"), "data-value"), "");
    assert_string_equal(prop(cell_of(tr, "tps_cv_pct"), "data-value"), "");
    tr = row_of(w.doc, "scaling-table", "A", "nvme-a");
    assert_string_equal(text_of(w.doc, "//table[@id='scaling-table']/tbody/tr[@data-run='A']"
                                       "/td[@data-key='scaling_ratio']"), INCOMPLETE);
    assert_int_equal(rt_count(w.doc, "//table[@id='scaling-table']/tbody/tr"), 1);
    assert_string_equal(text_of(w.doc, "//table[@id='run-scaling-table']/tbody/tr[@data-run='A']"
                                       "/td[@data-key='scaling_ratio']"), INCOMPLETE);
    /* failed VMs are in no drive sum over time: nvme-a sums 3 series */
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tps-time-vm-1']//polyline"), 4);
    /* report.csv: status and failed_vms; the spread empty */
    assert_string_equal(csv_col(w.csv_lines[1], 22), "\"incomplete\"");
    assert_string_equal(csv_col(w.csv_lines[1], 23), "1");
    assert_string_equal(csv_col(w.csv_lines[1], 6), "");
    assert_string_equal(csv_col(w.csv_lines[1], 20), "");
    assert_string_equal(csv_col(w.csv_lines[2], 22), "\"complete\"");
    assert_string_equal(csv_col(w.csv_lines[2], 23), "0");
    assert_string_equal(csv_col(w.csv_lines[3], 21), "");   /* B's nvme-a: no base */
    written_free(&w);
}

/* A partial run: its own banner. */
static void test_partial_banner(void **state)
{
    run_copy c;
    char cmd[512];
    const char *dirs[1];
    written w = { 0 };
    (void)state;
    run_copy_new(&c, FFAIL);
    snprintf(cmd, sizeof cmd, "sed -i 's/\"completed_with_failures\"/\"partial\"/' "
             "%s/summary.json", c.run);
    assert_int_equal(system(cmd), 0);
    dirs[0] = c.run;
    write_report(&w, dirs, 1);
    assert_string_equal(text_of(w.doc, "//div[@class='banner']/@data-status"), "partial");
    assert_string_equal(text_of(w.doc, "//div[@class='banner']"),
                        "Run A (report-failed) is partial: it stopped early, and its figures "
                        "cover only what the finished phases measured. 1 VM run(s) failed; "
                        "their drives' figures are incomplete and not comparable.");
    written_free(&w);
    run_copy_free(&c);
}

/* A partial run (report-8vm marked stopped early) is never a scaling
 * base and gets no ratio: its rows are marked, and report-4vm, the only
 * other run with nvme-a, has nothing to compare with. */
static void test_partial_scaling(void **state)
{
    run_copy c;
    char err[512];
    const char *dirs[2];
    written w = { 0 };
    report_set *set;
    int br, bd;
    (void)state;
    run_copy_new(&c, F8);
    run_copy_edit(&c, "d[\"status\"]=\"partial\"");
    dirs[0] = F4;
    dirs[1] = c.run;
    set = report_load(dirs, 2, err, sizeof err);
    assert_non_null(set);
    assert_true(report_run_partial(&set->runs[1]));
    assert_false(report_run_partial(&set->runs[0]));
    assert_true(report_scaling(set, 1, 0, &br, &bd) == 0 && br == -1);
    assert_true(report_scaling(set, 0, 0, &br, &bd) == 0 && br == -1);
    assert_true(report_run_scaling(set, 1, &br) == 0 && br == -1);
    assert_true(report_run_scaling(set, 0, &br) == 1 && br == 0);
    report_set_free(set);
    write_report(&w, dirs, 2);
    assert_string_equal(text_of(w.doc, "//table[@id='scaling-table']/tbody/tr[@data-run='B']"
                                       "/td[@data-key='scaling_ratio']"),
                        "partial run \xe2\x80\x94 not comparable");
    assert_string_equal(text_of(w.doc, "//table[@id='run-scaling-table']/tbody/tr[@data-run='B']"
                                       "/td[@data-key='scaling_ratio']"),
                        "partial run \xe2\x80\x94 not comparable");
    assert_int_equal(rt_count(w.doc, "//table[@id='scaling-table']/tbody/tr"), 1);
    written_free(&w);
    run_copy_free(&c);
}

/* A TPC-C run (real oltp tpcc results, results/fixtures/tpcc): tpmC and
 * NOPM per drive, each type's merged figures; the values are those
 * tests/orchestrator/test_aggregate.c checks against an independent
 * computation. */
static void test_tpcc(void **state)
{
    const char *dirs[] = { FTPCC };
    written w = { 0 };
    xmlNodePtr tr;
    (void)state;
    write_report(&w, dirs, 1);
    tr = row_of(w.doc, "tpcc-drive-table", "A", "nvme-a");
    assert_string_equal(prop(cell_of(tr, "tpmC"), "data-value"), "45480.448493");
    assert_string_equal(prop(cell_of(tr, "NOPM"), "data-value"), "44960.442833");
    assert_string_equal(prop(cell_of(tr, "rollbacks"), "data-value"), "52");
    assert_string_equal(prop(cell_of(tr, "p90_limits_met"), "data-value"), "1");
    tr = row_of(w.doc, "tpcc-drive-table", "A", "sata-b");
    assert_string_equal(prop(cell_of(tr, "tpmC"), "data-value"), "22079.849673");
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tpmc']//g[@class='bar']"), 2);
    assert_string_equal(text_of(w.doc, "//svg[@id='chart-tpmc']//g[@class='bar'][1]/@data-value"),
                        "45480.448493");
    /* nvme-a's types */
    assert_int_equal(rt_count(w.doc, "//table[@id='tpcc-table-1']/tbody/tr"), 5);
    assert_string_equal(text_of(w.doc, "//table[@id='tpcc-table-1']/tbody/tr[@data-type='Delivery']"
                                       "/td[@data-key='latency_p99_ms']/@data-value"), "25.679");
    assert_string_equal(text_of(w.doc, "//table[@id='tpcc-table-1']/tbody/tr[@data-type='New-Order']"
                                       "/td[@data-key='latency_p90_ms']/@data-value"), "5.299");
    assert_string_equal(text_of(w.doc, "//table[@id='tpcc-table-1']/tbody/tr[@data-type='New-Order']"
                                       "/td[@data-key='count']/@data-value"), "4548");
    assert_string_equal(text_of(w.doc, "//table[@id='tpcc-table-2']/tbody/tr[@data-type='Stock-Level']"
                                       "/td[@data-key='p90_limit_ms']/@data-value"), "20000");
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tpcc-1']//g[@class='bar']"), 5);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tpcc-2']//g[@class='bar']"), 5);
    assert_string_equal(text_of(w.doc, "//section[@id='tpcc']/h3[1]"),
                        "nvme-a: tpmC 45480.45, NOPM 44960.44, p90 limits held");
    /* report.csv: tpmC and NOPM last */
    assert_string_equal(csv_col(w.csv_lines[1], 24), "45480.448493");
    assert_string_equal(csv_col(w.csv_lines[1], 25), "44960.442833");
    written_free(&w);
    /* a sysbench run has no TPC-C section */
    dirs[0] = F4;
    memset(&w, 0, sizeof w);
    write_report(&w, dirs, 1);
    assert_int_equal(rt_count(w.doc, "//section[@id='tpcc']"), 0);
    assert_string_equal(csv_col(w.csv_lines[1], 24), "");
    written_free(&w);
}

static void test_spread(void **state)
{
    const double v[] = { 10, 12, 14 }, one[] = { 7.5 };
    report_spread s = report_spread_of(v, 3);
    char buf[64];
    (void)state;
    assert_int_equal(s.n, 3);
    assert_string_equal(report_num(s.mean, buf, sizeof buf), "12");
    assert_string_equal(report_num(s.min, buf, sizeof buf), "10");
    assert_string_equal(report_num(s.max, buf, sizeof buf), "14");
    /* sample sd 2, over 12 */
    assert_string_equal(report_num(s.cv, buf, sizeof buf), "16.666667");
    /* one repetition has no CV (issue 29: it showed 0) */
    s = report_spread_of(one, 1);
    assert_true(isnan(s.cv));
    assert_false(report_cv_unknown(&s));
    assert_string_equal(report_num(s.mean, buf, sizeof buf), "7.5");
    /* several, one of them NaN: no CV, and not a small one */
    {
        const double gap[] = { 10, NAN };
        s = report_spread_of(gap, 2);
        assert_true(isnan(s.cv));
        assert_true(report_cv_unknown(&s));
    }
    s = report_spread_of(NULL, 0);
    assert_int_equal(s.n, 0);
}

/* Issue 29: one repetition shows no CV (it showed 0) and is not
 * flagged; a CV over several repetitions that cannot be computed (here a
 * repetition without its p99) is flagged, never taken for a small one. */
static void test_cv_one_and_unknown(void **state)
{
    const char *dirs[1] = { F4 };
    written w = { 0 };
    run_copy c;
    xmlNodePtr tr;
    (void)state;
    write_report(&w, dirs, 1);
    tr = row_of(w.doc, "repetition-table", "A", "nvme-a");
    assert_string_equal(prop(cell_of(tr, "tps_cv_pct"), "data-value"), "");
    assert_string_equal(row_text(w.doc, "repetition-table", "A", "nvme-a", "tps_cv_pct"), "");
    assert_string_equal(prop(cell_of(tr, "p99_cv_pct"), "data-value"), "");
    assert_string_equal(prop(cell_of(tr, "tps_mean"), "data-value"), "331.538584");
    assert_string_equal(prop(cell_of(tr, "flag"), "data-value"), "0");
    assert_string_equal(csv_col(w.csv_lines[1], 2), "\"nvme-a\"");
    assert_string_equal(csv_col(w.csv_lines[1], 4), "1");
    assert_string_equal(csv_col(w.csv_lines[1], 6), "331.538584");    /* tps_min */
    assert_string_equal(csv_col(w.csv_lines[1], 8), "");             /* tps_cv_pct */
    assert_string_equal(csv_col(w.csv_lines[1], 17), "");            /* p99_cv_pct */
    assert_string_equal(csv_col(w.csv_lines[1], 19), "0");           /* cv_flag */
    written_free(&w);

    write_edited(&w, &c, FREP, "d[\"plan\"][\"cv_threshold\"]=1000; "
                 "d[\"drives\"][0][\"repetitions\"][1][\"latency_ms\"].pop(\"p99\")");
    tr = row_of(w.doc, "repetition-table", "A", "nvme-a");
    /* no p99 spread from a repetition without its p99: all blank */
    assert_string_equal(prop(cell_of(tr, "p99_mean"), "data-value"), "");
    assert_string_equal(prop(cell_of(tr, "p99_min"), "data-value"), "");
    assert_string_equal(row_text(w.doc, "repetition-table", "A", "nvme-a", "p99_max"), "");
    assert_string_equal(row_text(w.doc, "repetition-table", "A", "nvme-a", "p99_cv_pct"),
                        "not computable");
    assert_string_equal(prop(cell_of(tr, "p99_cv_pct"), "data-value"), "");
    assert_string_equal(prop(cell_of(tr, "tps_cv_pct"), "data-value"), "7.995944");
    assert_string_equal(prop(cell_of(tr, "flag"), "data-value"), "1");
    assert_string_equal(row_text(w.doc, "repetition-table", "A", "nvme-a", "flag"),
                        "CV not computable");
    assert_string_equal(prop(tr, "class"), "flagged");
    assert_string_equal(prop(cell_of(row_of(w.doc, "repetition-table", "A", "sata-b"), "flag"),
                             "data-value"), "0");
    assert_string_equal(csv_col(w.csv_lines[1], 8), "7.995944");
    assert_string_equal(csv_col(w.csv_lines[1], 14), "");            /* p99_rep_mean_ms */
    assert_string_equal(csv_col(w.csv_lines[1], 15), "");
    assert_string_equal(csv_col(w.csv_lines[1], 16), "");
    assert_string_equal(csv_col(w.csv_lines[1], 17), "");
    assert_string_equal(csv_col(w.csv_lines[1], 19), "1");
    assert_string_equal(csv_col(w.csv_lines[2], 19), "0");
    edited_free(&w, &c);
}

/* Issue 29: a drive's TPS is a mean at one VM count; the repetitions
 * that measured fewer VMs (summary 2.1's repetitions_other_vms) are
 * listed beside it and in the CSV. report-4vm's nvme-a with a second
 * repetition in which one of its 4 VMs failed: 247.76 TPS of 3 VMs, not
 * in its 331.538584. */
static void test_other_vms(void **state)
{
    written w;
    run_copy c;
    xmlNodePtr tr;
    (void)state;
    write_edited(&w, &c, F4, "dr=d[\"drives\"][0]; r=dict(dr[\"repetitions\"][0]); "
                 "r.update(repetition=2, vms=3, failed_vms=1, tps=247.76); "
                 "dr[\"repetitions\"].append(r); dr[\"failed_vms\"]=1; "
                 "dr[\"repetitions_other_vms\"]=[{\"repetition\":2,\"vms\":3}]");
    tr = row_of(w.doc, "drive-table", "A", "nvme-a");
    assert_string_equal(prop(cell_of(tr, "tps"), "data-value"), "331.538584");
    assert_string_equal(text_of(w.doc, "//table[@id='drive-table']/tbody/tr[@data-drive='nvme-a']"
                                       "//span[@data-key='repetitions_other_vms']"),
                        " mean over the repetitions with 4 VMs; left out: repetition 2 (3 VMs)");
    assert_int_equal(rt_count(w.doc, "//span[@data-key='repetitions_other_vms']"), 1);
    assert_string_equal(w.csv_lines[0], CSV_HEADER);
    assert_string_equal(csv_col(w.csv_lines[1], 5), "331.538584");
    assert_string_equal(csv_col(w.csv_lines[1], 26), "2:3");
    assert_string_equal(csv_col(w.csv_lines[2], 26), "");
    edited_free(&w, &c);
}

/* Issue 29: a closed-loop run (plan.workload.rate 0, summary 2.2) is
 * marked where the report shows latencies; an open loop and a summary
 * that does not record its rate are not. */
static void test_closed_loop_note(void **state)
{
    const char *dirs[3];
    written w = { 0 };
    run_copy closed, open;
    (void)state;
    run_copy_new(&closed, F4);
    run_copy_edit(&closed, "d[\"plan\"][\"workload\"][\"rate\"]=0");
    run_copy_new(&open, F8);
    run_copy_edit(&open, "d[\"plan\"][\"workload\"][\"rate\"]=200");
    dirs[0] = closed.run;
    dirs[1] = open.run;
    dirs[2] = FREP;
    write_report(&w, dirs, 3);
    assert_int_equal(rt_count(w.doc, "//section[@id='drives']/p[@data-key='latency_note']"), 1);
    assert_string_equal(text_of(w.doc, "//p[@data-key='latency_note']/@data-run"), "A");
    assert_string_equal(text_of(w.doc, "//p[@data-key='latency_note']"),
                        "[A] report-4vm: latency under stalls is understated (closed loop; "
                        "`rate` gives open loop)");
    written_free(&w);
    run_copy_free(&closed);
    run_copy_free(&open);
}

/* Issue 29: the scaling ratio's 95 % interval from the repetitions.
 * report-4vm against report-8vm (one repetition each): "one repetition:
 * no interval". Two copies of report-reps, nvme-a at 1 VM with TPS 100
 * 110 90 (mean 100, s 10) and at 2 VMs with 190 210 200 (mean 200, s
 * 10): ratio 2; log-ratio variance 10^2/(3 * 200^2) + 10^2/(3 * 100^2) =
 * 1/1200 + 1/300 = 1/240, df (1/240)^2 / ((1/1200)^2/2 + (1/300)^2/2) =
 * 50/17, t(0.975, 50/17) = 3.2187586145: 2 exp(-+3.2187586145 /
 * sqrt(240)) = [1.624788, 2.46186]. The runs as wholes, sata-b's TPS
 * 21.163425 42.599276 61.39541 in both: 121.163425 152.599276 151.39541
 * against 211.163425 252.599276 261.39541, ratio 241.71937 / 141.71937,
 * interval [1.301511, 2.235202] (df 3.93959). */
static void test_scaling_interval(void **state)
{
    const char *dirs[2] = { F4, F8 };
    written w = { 0 };
    run_copy base, more;
    (void)state;
    write_report(&w, dirs, 2);
    assert_string_equal(row_text(w.doc, "scaling-table", "B", "nvme-a", "scaling_ratio_ci"),
                        "one repetition: no interval");
    assert_string_equal(row_text(w.doc, "scaling-table", "A", "nvme-a", "scaling_ratio_ci"),
                        "the base");
    assert_string_equal(row_text(w.doc, "run-scaling-table", "B", NULL, "scaling_ratio_ci"),
                        "one repetition: no interval");
    assert_string_equal(csv_col(w.csv_lines[3], 29), "\"one repetition: no interval\"");
    assert_string_equal(csv_col(w.csv_lines[3], 27), "");
    written_free(&w);

    run_copy_new(&base, FREP);
    run_copy_edit(&base, "a=d[\"drives\"][0]; a[\"tps\"]=100; "
                  "[r.update(tps=t) for r, t in zip(a[\"repetitions\"], (100, 110, 90))]; "
                  "d[\"run\"][\"tps\"]=141.71937");
    run_copy_new(&more, FREP);
    run_copy_edit(&more, "a=d[\"drives\"][0]; a[\"tps\"]=200; a[\"vms\"]=2; "
                  "[r.update(tps=t, vms=2) for r, t in zip(a[\"repetitions\"], (190, 210, 200))]; "
                  "d[\"run\"][\"tps\"]=241.71937; d[\"run\"][\"vms\"]=3");
    dirs[0] = base.run;
    dirs[1] = more.run;
    w = (written){ 0 };
    write_report(&w, dirs, 2);
    {
        const char *cell = "//table[@id='scaling-table']/tbody/tr[@data-run='B' and "
                           "@data-drive='nvme-a']/td[@data-key='scaling_ratio_ci']";
        char expr[256];
        assert_string_equal(text_of(w.doc, cell), "[1.625, 2.462]");
        snprintf(expr, sizeof expr, "%s/@data-lo", cell);
        assert_string_equal(text_of(w.doc, expr), "1.624788");
        snprintf(expr, sizeof expr, "%s/@data-hi", cell);
        assert_string_equal(text_of(w.doc, expr), "2.46186");
        cell = "//table[@id='run-scaling-table']/tbody/tr[@data-run='B']"
               "/td[@data-key='scaling_ratio_ci']";
        assert_string_equal(text_of(w.doc, cell), "[1.302, 2.235]");
        snprintf(expr, sizeof expr, "%s/@data-lo", cell);
        assert_string_equal(text_of(w.doc, expr), "1.301511");
        snprintf(expr, sizeof expr, "%s/@data-hi", cell);
        assert_string_equal(text_of(w.doc, expr), "2.235202");
    }
    /* report.csv: B's nvme-a, the ratio and its interval */
    assert_string_equal(csv_col(w.csv_lines[3], 2), "\"nvme-a\"");
    assert_string_equal(csv_col(w.csv_lines[3], 21), "2");
    assert_string_equal(csv_col(w.csv_lines[3], 27), "1.624788");
    assert_string_equal(csv_col(w.csv_lines[3], 28), "2.46186");
    assert_string_equal(csv_col(w.csv_lines[3], 29), "\"\"");
    assert_string_equal(csv_col(w.csv_lines[1], 29), "\"the base\"");
    written_free(&w);
    run_copy_free(&base);
    run_copy_free(&more);
}

static void test_four_vs_eight(void **state)
{
    const char *dirs[] = { F4, F8 };
    written w = { 0 };
    int n4, n8;
    expect_drive *d4, *d8;
    xmlNodePtr tr;
    char want[64];
    (void)state;
    write_report(&w, dirs, 2);
    assert_string_equal(w.csv_lines[0], CSV_HEADER);
    assert_int_equal(w.ncsv, 1 + 2 + 1);
    check_drives(&w, F4, "A", 1);
    check_drives(&w, F8, "B", 3);
    check_bars(&w, 3);
    /* figures pinned from the committed fixtures */
    tr = row_of(w.doc, "drive-table", "A", "nvme-a");
    assert_string_equal(prop(cell_of(tr, "tps"), "data-value"), "331.538584");
    assert_string_equal(prop(cell_of(tr, "latency_p99_ms"), "data-value"), "102.271");
    tr = row_of(w.doc, "drive-table", "B", "nvme-a");
    assert_string_equal(prop(cell_of(tr, "tps"), "data-value"), "661.990515");
    assert_string_equal(prop(cell_of(tr, "latency_p99_ms"), "data-value"), "82.431");
    /* scaling: nvme-a with 8 VMs against 4 VMs, per VM and in all */
    d4 = expect_load(F4, &n4);
    d8 = expect_load(F8, &n8);
    assert_string_equal(d4[0].name, "nvme-a");
    assert_string_equal(d8[0].name, "nvme-a");
    tr = row_of(w.doc, "scaling-table", "B", "nvme-a");
    assert_cell(tr, "vms", 8, 0);
    assert_cell(tr, "tps", d8[0].rep[1].tps, 2);
    assert_cell(tr, "tps_per_vm", d8[0].rep[1].tps / 8, 2);
    assert_cell(tr, "scaling_ratio", d8[0].rep[1].tps / d4[0].rep[1].tps, 3);
    assert_cell(tr, "latency_p99_ms", p99_ms(&d8[0].rep[0]), 3);
    tr = row_of(w.doc, "scaling-table", "A", "nvme-a");
    assert_cell(tr, "tps_per_vm", d4[0].rep[1].tps / 4, 2);
    assert_cell(tr, "scaling_ratio", 1, 3);
    /* whole runs: 8 VMs on 2 drives (A, the base on a tie) and 8 VMs on 1 */
    {
        double tps_a = d4[0].rep[1].tps + d4[1].rep[1].tps, tps_b = d8[0].rep[1].tps;
        tr = row_of(w.doc, "run-scaling-table", "A", NULL);
        assert_cell(tr, "vms", 8, 0);
        assert_cell(tr, "tps", tps_a, 2);
        assert_cell(tr, "scaling_ratio", 1, 3);
        tr = row_of(w.doc, "run-scaling-table", "B", NULL);
        assert_cell(tr, "tps", tps_b, 2);
        assert_cell(tr, "tps_per_vm", tps_b / 8, 2);
        assert_cell(tr, "scaling_ratio", tps_b / tps_a, 3);
        assert_cell(tr, "latency_p99_ms", p99_ms(&d8[0].rep[0]), 3);
    }
    /* the drive only in run A is not in the scaling table */
    assert_int_equal(rt_count(w.doc, "//table[@id='scaling-table']/tbody/tr"), 2);
    fmt6(d8[0].rep[1].tps / d4[0].rep[1].tps, want, sizeof want);
    assert_string_equal(csv_col(w.csv_lines[3], 21), want);
    assert_string_equal(csv_col(w.csv_lines[3], 20), "\"A\"");
    assert_string_equal(csv_col(w.csv_lines[2], 20), "");
    /* per-VM table: every VM of both runs, figures as in the summary */
    assert_int_equal(rt_count(w.doc, "//table[@id='vm-table']/tbody/tr"), 16);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tps-time-drive']//polyline"), 3);
    /* one per-VM time chart per drive and run, a line per VM */
    assert_int_equal(rt_count(w.doc, "//svg[starts-with(@id,'chart-tps-time-vm-')]"), 3);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tps-time-vm-3']//polyline"), 8);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tps-time-vm-3']//polyline[@data-label="
                                  "'vm8']"), 1);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tps-time-drive']//polyline[@data-label="
                                  "'nvme-a [B]']"), 1);
    /* the colour legend names both runs */
    assert_int_equal(rt_count(w.doc, "//p[@class='legend']/span[@class='swatch']"), 2);
    expect_free(d4, n4);
    expect_free(d8, n8);
    written_free(&w);
}

static void test_repetitions(void **state)
{
    const char *dirs[] = { FREP };
    written w = { 0 };
    int n;
    expect_drive *d;
    (void)state;
    write_report(&w, dirs, 1);
    check_drives(&w, FREP, "A", 1);
    d = expect_load(FREP, &n);
    assert_int_equal(n, 2);
    for (int i = 0; i < n; i++) {
        double tps[MAX_REPS], p99[MAX_REPS], mean, mn, mx, tcv, pcv;
        xmlNodePtr tr = row_of(w.doc, "repetition-table", "A", d[i].name);
        const char *line = w.csv_lines[1 + i];
        char want[64];
        int flagged;
        assert_int_equal(d[i].nreps, 3);
        for (int r = 0; r < 3; r++) {
            tps[r] = d[i].rep[r + 1].tps;
            p99[r] = p99_ms(&d[i].rep[r + 1]);
        }
        spread(tps, 3, &mean, &mn, &mx, &tcv);
        assert_cell(tr, "tps_mean", mean, 2);
        assert_cell(tr, "tps_min", mn, 2);
        assert_cell(tr, "tps_max", mx, 2);
        assert_cell(tr, "tps_cv_pct", tcv, 2);
        fmt6(tcv, want, sizeof want);
        assert_string_equal(csv_col(line, 8), want);
        spread(p99, 3, &mean, &mn, &mx, &pcv);
        assert_cell(tr, "p99_mean", mean, 3);
        assert_cell(tr, "p99_min", mn, 3);
        assert_cell(tr, "p99_max", mx, 3);
        assert_cell(tr, "p99_cv_pct", pcv, 2);
        fmt6(pcv, want, sizeof want);
        assert_string_equal(csv_col(line, 17), want);
        assert_cell(tr, "cv_threshold_pct", 5, 2);
        flagged = tcv > 5 || pcv > 5;
        assert_string_equal(prop(cell_of(tr, "flag"), "data-value"), flagged ? "1" : "0");
        assert_string_equal(csv_col(line, 19), flagged ? "1" : "0");
        assert_string_equal(prop(tr, "class"), flagged ? "flagged" : "");
    }
    /* pinned: sata-b's target rate went 20, 40, 60 tps */
    assert_string_equal(prop(cell_of(row_of(w.doc, "repetition-table", "A", "sata-b"),
                                     "tps_cv_pct"), "data-value"), "48.251976");
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tps']//text[@class='label flagged']"), 2);
    /* a time line per drive and repetition */
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tps-time-drive']//polyline"), 6);
    expect_free(d, n);
    written_free(&w);
}

/* A drive named like markup is text everywhere: no script element in the
 * parsed page, the name readable in the tables and the charts. */
static void test_markup_in_names(void **state)
{
    const char *dirs[] = { F4 };
    written w = { 0 };
    xmlNodePtr tr;
    char *text;
    (void)state;
    write_report(&w, dirs, 1);
    assert_int_equal(rt_count(w.doc, "//script"), 0);
    assert_non_null(strstr(w.raw, "<meta http-equiv=\"Content-Type\" content=\"text/html; "
                                  "charset=UTF-8\">"));
    assert_null(strstr(w.raw, "<script"));
    assert_non_null(strstr(w.raw, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    tr = row_of(w.doc, "drive-table", "A", XSS);
    text = nth_text(tr, 1);
    assert_string_equal(text, XSS);
    xmlFree(text);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tps']//text[@class='label' and "
                                  "text()='<script>alert(1)</script>']"), 1);
    /* a single run: no scaling section, no run suffix in labels */
    assert_int_equal(rt_count(w.doc, "//section[@id='scaling']"), 0);
    /* nothing to fetch: no src or external href anywhere */
    assert_int_equal(rt_count(w.doc, "//*[@src] | //link | //*[@href]"), 0);
    written_free(&w);
}

/* The environment and plan as the run recorded them. */
static void test_environment_and_plan(void **state)
{
    const char *dirs[] = { F4 };
    written w = { 0 };
    (void)state;
    write_report(&w, dirs, 1);
    assert_int_equal(rt_count(w.doc, "//table[@class='environment']//tr[th='CPU']/td["
                                  "text()='Intel(R) Xeon(R) Processor']"), 1);
    assert_int_equal(rt_count(w.doc, "//table[@class='environment']//tr[th='domain type']/td["
                                  "text()='qemu']"), 1);
    assert_int_equal(rt_count(w.doc, "//table[@class='environment']//tr[th='libvirt version']/td["
                                  "text()='9.0.0']"), 1);
    assert_int_equal(rt_count(w.doc, "//table[@class='environment']//tr[th='guest database']/td["
                                  "starts-with(text(),'10.11.')]"), 1);
    assert_int_equal(rt_count(w.doc, "//table[@class='plan']//tr[th='VMs per drive']/td["
                                  "text()='4']"), 1);
    assert_int_equal(rt_count(w.doc, "//pre[@class='plan-ini' and contains(text(),"
                                  "'[drive <script>alert(1)</script>]')]"), 1);
    written_free(&w);
}

/* The report reads the summary only: a VM whose oltp result is gone
 * keeps its figures and its line (the summary's tps_series); a VM whose
 * summary entry has no error counts (a field the summary may lack) says
 * "not recorded". */
static void test_missing_vm_result(void **state)
{
    run_copy c;
    char cmd[256];
    const char *dirs[1];
    written w = { 0 };
    xmlXPathObjectPtr o;
    int seen = 0;
    (void)state;
    run_copy_new(&c, FREP);
    snprintf(cmd, sizeof cmd, "rm %s/vm/drivebench-report-reps--sata-b-vm1.r2.json", c.run);
    assert_int_equal(system(cmd), 0);
    /* drop the counts of sata-b vm1 r2 from the summary */
    run_copy_edit(&c, "[(v.pop(\"errors\"), v.pop(\"reconnects\")) for v in d[\"vms\"] "
                  "if v[\"name\"].endswith(\"sata-b-vm1\") and v[\"repetition\"]==2]");
    dirs[0] = c.run;
    write_report(&w, dirs, 1);
    o = rt_nodes(w.doc, "//table[@id='vm-table']/tbody/tr");
    assert_int_equal(o->nodesetval->nodeNr, 6);
    for (int i = 0; i < 6; i++) {
        xmlNodePtr tr = o->nodesetval->nodeTab[i];
        char *vm = nth_text(tr, 1), *rep = nth_text(tr, 3), *errors = nth_text(tr, 8);
        int gone = strcmp(vm, "drivebench-report-reps--sata-b-vm1") == 0
                   && strcmp(rep, "2") == 0;
        seen += gone;
        assert_string_equal(errors, gone ? "not recorded" : "0");
        xmlFree(vm);
        xmlFree(rep);
        xmlFree(errors);
    }
    xmlXPathFreeObject(o);
    assert_int_equal(seen, 1);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tps-time-drive']//polyline"), 6);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tps-time-vm-2']//polyline["
                                  "@data-label='vm1 r2']"), 1);
    written_free(&w);
    run_copy_free(&c);
}

/* Drive I/O (issue 13): a copy of the 4-VM fixture whose summary gains
 * the res_io keys; every new chart and table is there with exact values,
 * a run without them (the other tests) shows none. */
static void test_drive_io(void **state)
{
    /* the summary's res_io keys: drive 1 with I/O, drive 2 without */
    static const char io_keys[] =
        "ser=[{\"t\":i+1,\"rd_iops\":0,\"wr_iops\":100+i,\"fl_iops\":50,\"wr_lat_ms\":2,"
        "\"fl_lat_ms\":1.5} for i in range(5)]; "
        "hs=[{\"t\":i+1,\"wr_iops\":200,\"await_ms\":0.7,\"util_pct\":40} for i in range(5)]; "
        "a=d[\"drives\"][0]; "
        "a[\"io\"]={\"db\":{\"wr_iops\":102,\"fl_iops\":50,\"wr_lat_ms\":2,\"fl_lat_ms\":1.5,"
        "\"vms\":4,\"missing\":0,\"series\":ser}}; "
        "a[\"host\"]={\"device\":{\"kind\":\"disk\",\"disk\":\"nvme0n1\"},"
        "\"identity\":{\"model\":\"Fake NVMe 1TB\",\"serial\":\"SN42\",\"write_cache\":\"write back\"},"
        "\"io\":{\"wr_iops\":200,\"await_ms\":0.7,\"util_pct\":40,\"series\":hs},\"flush_ratio\":1.25}; "
        "a[\"latency_spectrum\"]=[{\"pct\":p,\"ms\":m} for p,m in "
        "[(50,10),(75,12),(90,15),(95,20),(99,40),(99.5,50),(99.9,80),(99.95,90),(99.99,120)]]; "
        "a[\"p_latency_series\"]={\"pct\":99,\"series\":[[i+1,30+i] for i in range(5)]}; "
        "a[\"steady_state\"]={\"n\":5,\"mean_tps\":80,\"slope\":3,\"slope_lo\":1,"
        "\"slope_hi\":5,\"drift_pct\":15,\"trending\":True}; "
        "b=d[\"drives\"][1]; "
        "b[\"latency_spectrum\"]=[{\"pct\":p,\"ms\":m} for p,m in [(50,11),(99,45),(99.99,130)]]; "
        "d[\"comparisons\"]=[{\"a\":\"nvme-a\",\"b\":b[\"name\"],\"method\":\"tps_paired\","
        "\"n\":5,\"k\":1,\"mean_a\":80,\"mean_b\":78,\"diff\":2,\"diff_pct\":2.56,\"lo\":-1.5,"
        "\"hi\":5.5,\"df\":4,\"p_value\":0.2,\"verdict\":\"not distinguishable\"},"
        "{\"a\":\"nvme-a\",\"b\":b[\"name\"],\"method\":\"p99_paired\",\"n\":5,\"k\":1,"
        "\"mean_a\":40,\"mean_b\":45,\"diff\":-5,\"diff_pct\":-11.1,\"lo\":-7,\"hi\":-3,"
        "\"df\":4,\"p_value\":0.01,\"p_holm\":0.02,\"verdict\":\"distinguishable\"},"
        "{\"a\":\"nvme-a\",\"b\":b[\"name\"],\"method\":\"tps_welch\","
        "\"verdict\":\"not comparable\",\"reason\":\"not comparable: drive nvme-a is "
        "incomplete (1 failed VM run)\"},"
        "{\"a\":\"nvme-a\",\"b\":b[\"name\"],\"method\":\"p99_welch\","
        "\"verdict\":\"too short\",\"needs\":3,\"reason\":\"too short for a verdict "
        "(needs 3 complete repetitions of each drive, has 1 and 1)\"}]; "
        "d[\"host_cpu\"]={\"busy_pct\":97.5,\"saturated\":True,\"note\":\"TCG\"}; "
        "a[\"bound\"]={\"verdict\":\"host cpu\",\"evidence\":\"host CPU 97.5 % busy >= "
        "90 %\",\"host_cpu_pct\":97.5}; "
        "b[\"bound\"]={\"verdict\":\"drive\",\"evidence\":\"device 95.0 % utilised >= "
        "90 % (queue 4.00), nothing else at its limit\",\"util_pct\":95,"
        "\"queue_depth\":4}; "
        "o=[0,4,1,3,2]; "
        "a[\"io\"][\"guest\"]={\"wr_iops\":98,\"fl_iops\":49,\"wr_await_ms\":3.5,"
        "\"queue_depth\":1.25,\"rq_kib\":8,\"series\":[{\"t\":i+1,\"wr_await_ms\":3+i} "
        "for i in range(5)]}; "
        "a[\"per_txn\"]={\"txns\":400,\"new_orders\":180,\"phase\":{\"tps\":80,"
        "\"wr_kib\":12.5,\"flushes\":0.625,\"dev_wr_kib\":25,\"dev_busy_ms\":5,"
        "\"write_amp\":2},\"per_new_order\":{\"tps\":36,\"wr_kib\":27.777778,"
        "\"flushes\":1.388889,\"dev_busy_ms\":11.111111}}; "
        "a[\"device_latency\"]={\"source\":\"tracefs\",\"devices\":\"nvme0n1\","
        "\"unmatched\":0,\"read\":{\"count\":0},\"write\":{\"count\":1000,"
        "\"avg_ms\":0.2,\"max_ms\":9,\"percentiles\":[{\"pct\":50,\"ms\":0.15},"
        "{\"pct\":99,\"ms\":1.5},{\"pct\":99.99,\"ms\":8}]},\"flush\":{\"count\":500,"
        "\"avg_ms\":0.5,\"max_ms\":12,\"percentiles\":[{\"pct\":99,\"ms\":3}]},"
        "\"all\":{\"count\":1500,\"percentiles\":[{\"pct\":99,\"ms\":2.5}]},"
        "\"series\":[{\"t\":i+1,\"n\":300,\"p50_ms\":0.2,\"p99_ms\":1+i} "
        "for i in range(5)]}; "
        "a[\"tail\"]={\"txn_pct\":99,\"dev_figure\":\"p99\",\"n\":5,\"r\":0.97,"
        "\"series\":[{\"t\":i+1,\"txn_ms\":30+o[i],\"dev_ms\":1+o[i],"
        "\"queue_depth\":i} for i in range(5)]}; "
        "b[\"device_latency_note\"]=\"device latency not traced: the drive is on "
        "another host\"";
    run_copy c;
    const char *dirs[1];
    written w = { 0 };
    xmlNodePtr tr;
    (void)state;
    run_copy_new(&c, F4);
    run_copy_edit(&c, io_keys);
    dirs[0] = c.run;
    write_report(&w, dirs, 1);
    assert_int_equal(rt_count(w.doc, "//section[@id='io']"), 1);
    /* drive 1 has I/O: TPS, IOPS and latency side by side; drive 2 none */
    assert_int_equal(rt_count(w.doc, "//div[@class='io-row' and @data-drive='nvme-a']/svg"), 3);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-io-tps-1-1']//polyline[@class='series']"), 1);
    /* db writes/s, db flushes/s, device writes/s (reads are all 0: no line) */
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-io-iops-1-1']//polyline[@class='series']"), 3);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-io-iops-1-1']//polyline["
                                  "@data-label='database disks: flushes/s']"), 1);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-io-lat-1-1']//polyline[@class='series']"), 3);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-io-flush-1-1']//polyline[@class='series']"), 2);
    assert_int_equal(rt_count(w.doc, "//svg[starts-with(@id,'chart-io-tps-1-2')]"), 0);
    /* the spectrum: one line per drive, and its exact values */
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-io-spectrum-1']//polyline[@class='series']"), 2);
    tr = row_of(w.doc, "table-spectrum-1", "A", "nvme-a");
    assert_non_null(tr);
    assert_cell(tr, "p99.99", 120, 3);
    assert_cell(tr, "p99", 40, 3);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-io-p99-time-1']//polyline[@class='series']"), 1);
    tr = row_of(w.doc, "table-io-1", "A", "nvme-a");
    assert_non_null(tr);
    assert_cell(tr, "db_wr_iops", 102, 1);
    assert_cell(tr, "db_fl_lat_ms", 1.5, 3);
    assert_cell(tr, "flush_ratio", 1.25, 2);
    assert_int_equal(rt_count(w.doc, "//table[@id='table-drive-id-1']//td[.='Fake NVMe 1TB']"), 1);
    assert_int_equal(rt_count(w.doc, "//p[@id='host-saturated-1' and @class='warning']"), 1);
    /* what bounded each drive (issue 45): beside the TPS of the drive whose
     * limit was not the drive, in its "bounded by" cell with the evidence,
     * and beside every comparison of it */
    tr = row_of(w.doc, "drive-table", "A", "nvme-a");
    assert_string_equal(prop(cell_of(tr, "bound"), "data-value"), "host cpu");
    assert_string_equal(text_of(w.doc, "//table[@id='drive-table']//tr[@data-drive='nvme-a']"
                                       "/td[@data-key='bound']/span"),
                        "host CPU 97.5 % busy >= 90 %");
    assert_string_equal(text_of(w.doc, "//table[@id='drive-table']//tr[@data-drive='nvme-a']"
                                       "/td[@data-key='tps']/span[@data-key='bound_note']"),
                        "limit: host cpu, not the drive");
    assert_int_equal(rt_count(w.doc, "//table[@id='drive-table']//span[@data-key='bound_note']"),
                     1);
    assert_int_equal(rt_count(w.doc, "//table[@id='drive-table']//td[@data-key='bound' and "
                                     "@data-value='drive' and not(@class)]"), 1);
    assert_int_equal(rt_count(w.doc, "//table[@id='table-comparisons']//td[@data-key="
                                     "'bound_note' and .='nvme-a: limit: host cpu, not the "
                                     "drive']"), 4);
    assert_int_equal(rt_count(w.doc, "//p[@class='warning trending' and @data-drive='nvme-a']"), 1);
    /* is the difference real: the rule in force (stats.h), Holm over the
     * whole family (issue 42) */
    assert_string_equal(text_of(w.doc, "//section[@id='comparisons']/p[@class='note']"),
                        REPORT_CMP_NOTE);
    assert_non_null(strstr(REPORT_CMP_NOTE, ORCH_STATS_BATCH_RULE));
    assert_null(strstr(REPORT_CMP_NOTE, "uncorrelated"));
    assert_non_null(strstr(REPORT_CMP_NOTE, "Holm's correction runs over the whole family"));
    assert_int_equal(rt_count(w.doc, "//table[@id='table-comparisons']/tbody/tr"), 4);
    /* no verdict: the reason instead, no interval, no p */
    assert_string_equal(text_of(w.doc, "//table[@id='table-comparisons']/tbody/tr["
                                       "@data-verdict='not comparable']/td[12]"),
                        "not comparable: drive nvme-a is incomplete (1 failed VM run)");
    assert_string_equal(text_of(w.doc, "//table[@id='table-comparisons']/tbody/tr["
                                       "@data-verdict='not comparable']/td[10]"), "");
    assert_string_equal(text_of(w.doc, "//table[@id='table-comparisons']/tbody/tr["
                                       "@data-verdict='too short']/td[12]"),
                        "too short for a verdict (needs 3 complete repetitions of each drive, "
                        "has 1 and 1)");
    assert_string_equal(text_of(w.doc, "//table[@id='table-comparisons']/tbody/tr["
                                       "@data-method='p99_paired']/td[@data-key='p_holm']"),
                        "0.0200");
    assert_string_equal(text_of(w.doc, "//table[@id='table-comparisons']/tbody/tr["
                                       "@data-method='p99_paired']/td[5]"),
                        "paired batch means, n = 5 batches of 1");
    assert_int_equal(rt_count(w.doc, "//table[@id='table-comparisons']/tbody/tr["
                                  "@data-method='tps_paired' and "
                                  "@data-verdict='not distinguishable']"), 1);
    assert_int_equal(rt_count(w.doc, "//table[@id='table-comparisons']/tbody/tr["
                                  "@data-method='p99_paired' and "
                                  "@data-verdict='distinguishable']"), 1);
    /* issue 23: I/O per transaction (and per New-Order) */
    tr = row_of(w.doc, "table-io-txn-1", "A", "nvme-a");
    assert_cell(tr, "wr_kib", 12.5, 2);
    assert_cell(tr, "flushes", 0.625, 3);
    assert_cell(tr, "dev_busy_ms", 5, 3);
    assert_cell(tr, "write_amp", 2, 2);
    assert_cell(tr, "no_wr_kib", 27.777778, 2);
    assert_cell(tr, "no_dev_busy_ms", 11.111111, 3);
    assert_int_equal(rt_count(w.doc, "//table[@id='table-io-txn-1']/tbody/tr"), 1);
    /* three views side by side: guest, hypervisor, device */
    assert_int_equal(rt_count(w.doc, "//table[@id='table-io-views-1']/tbody/tr["
                                  "@data-drive='nvme-a']"), 3);
    assert_string_equal(text_of(w.doc, "//table[@id='table-io-views-1']/tbody/tr["
                                       "@data-view='guest']/td[@data-key='rq_kib']"), "8.0");
    assert_string_equal(text_of(w.doc, "//table[@id='table-io-views-1']/tbody/tr["
                                       "@data-view='guest']/td[@data-key='queue_depth']"), "1.25");
    assert_string_equal(text_of(w.doc, "//table[@id='table-io-views-1']/tbody/tr["
                                       "@data-view='hypervisor']/td[@data-key='wr_ms']"), "2.000");
    assert_string_equal(text_of(w.doc, "//table[@id='table-io-views-1']/tbody/tr["
                                       "@data-view='device']/td[@data-key='wr_iops']"), "200.0");
    /* guest and hypervisor write latency, the device's traced p99 (its
     * average write wait was not recorded) */
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-io-views-1-1']//polyline[@class='series']"), 3);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-io-views-1-1']//polyline["
                                  "@data-label='device (traced): p99 of its requests']"), 1);
    /* the device's latency distribution, and the note of the drive without */
    assert_int_equal(rt_count(w.doc, "//table[@id='table-devlat-1']/tbody/tr"), 4);
    assert_string_equal(text_of(w.doc, "//table[@id='table-devlat-1']/tbody/tr["
                                       "@data-class='write']/td[@data-key='p99']"), "1.500");
    assert_string_equal(text_of(w.doc, "//table[@id='table-devlat-1']/tbody/tr["
                                       "@data-class='flush']/td[@data-key='max_ms']"), "12.000");
    assert_string_equal(text_of(w.doc, "//table[@id='table-devlat-1']/tbody/tr["
                                       "@data-class='read']/td[@data-key='count']"), "0");
    assert_int_equal(rt_count(w.doc, "//p[@class='note devlat-note']"), 1);
    /* the tail against the device: a point per interval, r, the worst first */
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tail-1-1']//circle[@class='point']"), 5);
    assert_int_equal(rt_count(w.doc, "//svg[@id='chart-tail-1-1']//circle[@data-x='5' and "
                                  "@data-y='34']"), 1);
    {
        xmlXPathObjectPtr o = rt_nodes(w.doc, "//p[@id='tail-r-1-1']");
        assert_true(o->nodesetval && o->nodesetval->nodeNr == 1);
        assert_string_equal(prop(o->nodesetval->nodeTab[0], "data-value"), "0.97");
        xmlXPathFreeObject(o);
    }
    assert_int_equal(rt_count(w.doc, "//table[@id='table-tail-1-1']/tbody/tr"), 5);
    assert_string_equal(text_of(w.doc, "//table[@id='table-tail-1-1']/tbody/tr[1]/"
                                       "td[@data-key='t']"), "2");
    assert_string_equal(text_of(w.doc, "//table[@id='table-tail-1-1']/tbody/tr[1]/"
                                       "td[@data-key='dev_ms']"), "5.000");
    assert_string_equal(text_of(w.doc, "//table[@id='table-tail-1-1']/tbody/tr[2]/"
                                       "td[@data-key='txn_ms']"), "33.000");
    written_free(&w);
    /* a run without I/O fields has none of it */
    memset(&w, 0, sizeof w);
    dirs[0] = F4;
    write_report(&w, dirs, 1);
    assert_int_equal(rt_count(w.doc, "//section[@id='io']"), 0);
    assert_int_equal(rt_count(w.doc, "//section[@id='comparisons']"), 0);
    written_free(&w);
    run_copy_free(&c);
}

/* report_write: the paths it reports and writes. */
static void test_write_paths(void **state)
{
    char dir[] = "/tmp/report-test-out-XXXXXX", path[128], want[256], err[512] = "";
    const char *dirs[] = { F4, F8 }, *missing[] = { "results/fixtures/no-such-run" };
    char *html = NULL, *csv = NULL;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/cmp.out", dir);
    assert_int_equal(report_write(dirs, 2, path, &html, &csv, err, sizeof err), 0);
    assert_string_equal(html, path);
    snprintf(want, sizeof want, "%s/cmp.out.csv", dir);
    assert_string_equal(csv, want);
    assert_int_equal(access(html, R_OK), 0);
    assert_int_equal(access(csv, R_OK), 0);
    unlink(html);
    unlink(csv);
    free(html);
    free(csv);
    assert_int_equal(report_write(missing, 1, path, NULL, NULL, err, sizeof err),
                     REPORT_BAD_INPUT);
    snprintf(path, sizeof path, "%s/no/such/dir/r.html", dir);
    assert_int_equal(report_write(dirs, 1, path, NULL, NULL, err, sizeof err), -1);
    snprintf(want, sizeof want, "cannot write %s: No such file or directory", path);
    assert_string_equal(err, want);
    rmdir(dir);
}

/* --charts/--png: every chart of the page as DIR/ID.svg, the page's chart
 * plus the chart rules of its style sheet as a <style>, and ID.png at
 * twice its size, drawn with those rules: white corner, no pixel of the
 * default black an unstyled text or line would have, and the series drawn
 * last in its colour on its first segment. */
static void test_chart_files(void **state)
{
    static const char *const ids[] = { "chart-tps", "chart-latency-avg", "chart-latency-p99",
                                       "chart-tps-time-drive", "chart-tps-time-vm-1",
                                       "chart-tps-time-vm-2" };
    const char *dirs[] = { F4 };
    char dir[] = "/tmp/report-test-charts-XXXXXX", html[128], err[512] = "", path[192], e[192];
    report_charts charts = { .png_scale = 2 };
    report_set *s = report_load(dirs, 1, err, sizeof err);
    xmlDocPtr page;
    int n = (int)(sizeof ids / sizeof ids[0]);
    (void)state;
    assert_non_null(s);
    assert_non_null(mkdtemp(dir));
    snprintf(html, sizeof html, "%s/report.html", dir);
    snprintf(path, sizeof path, "%s/charts", dir);
    charts.dir = path;
    assert_int_equal(report_write_html_charts(s, html, &charts, err, sizeof err), 0);
    assert_int_equal(charts.nsvg, n);
    assert_int_equal(charts.npng, n);
    page = htmlReadFile(html, "UTF-8", HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    assert_non_null(page);
    assert_int_equal(rt_count(page, "//svg[starts-with(@class,'chart')]"), n);
    for (int i = 0; i < n; i++) {
        char file[256];
        xmlDocPtr svg;
        xmlChar *css;
        cairo_surface_t *img;
        int w, h, black = 0;
        snprintf(file, sizeof file, "%s/%s.svg", path, ids[i]);
        svg = xmlReadFile(file, NULL, XML_PARSE_NONET);
        assert_non_null(svg);
        snprintf(e, sizeof e, "/s:svg[@id='%s']", ids[i]);
        assert_int_equal(rt_count(svg, e), 1);
        /* the page's chart, element for element, and the style first */
        snprintf(e, sizeof e, "//svg[@id='%s']//*", ids[i]);
        assert_int_equal(rt_count(svg, "/s:svg//*"), rt_count(page, e) + 1);
        assert_int_equal(rt_count(svg, "/s:svg/*[1][self::s:style]"), 1);
        css = xmlNodeGetContent(xmlFirstElementChild(xmlDocGetRootElement(svg)));
        assert_non_null(strstr((const char *)css, "svg polyline.series{fill:none;stroke-width:1.8}"));
        assert_non_null(strstr((const char *)css, "svg{font-family:'DejaVu Sans',sans-serif}"));
        xmlFree(css);
        snprintf(file, sizeof file, "%s/%s.png", path, ids[i]);
        img = cairo_image_surface_create_from_png(file);
        assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
        w = cairo_image_surface_get_width(img);
        h = cairo_image_surface_get_height(img);
        {
            xmlChar *sw = xmlGetProp(xmlDocGetRootElement(svg), BAD_CAST "width"),
                    *sh = xmlGetProp(xmlDocGetRootElement(svg), BAD_CAST "height");
            assert_non_null(sw);
            assert_non_null(sh);
            assert_int_equal(w, 2 * atoi((const char *)sw));
            assert_int_equal(h, 2 * atoi((const char *)sh));
            xmlFree(sw);
            xmlFree(sh);
        }
        assert_int_equal(rt_pixel(img, 1, 1), 0xffffff);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                black += rt_pixel(img, x, y) == 0;
        assert_int_equal(black, 0);
        if (rt_count(svg, "//s:polyline[@class='series']") > 0) {
            xmlXPathObjectPtr o = rt_nodes(svg, "(//s:polyline[@class='series'])[last()]");
            xmlNodePtr pl = o->nodesetval->nodeTab[0];
            xmlChar *pts = xmlGetProp(pl, BAD_CAST "points"), *col = xmlGetProp(pl, BAD_CAST "stroke");
            double x1, y1, x2, y2;
            assert_int_equal(sscanf((const char *)pts, "%lf,%lf %lf,%lf", &x1, &y1, &x2, &y2), 4);
            assert_int_equal(rt_pixel(img, (int)(x1 + x2), (int)(y1 + y2)),
                             (unsigned)strtoul((const char *)col + 1, NULL, 16));
            xmlFree(pts);
            xmlFree(col);
            xmlXPathFreeObject(o);
        }
        cairo_surface_destroy(img);
        xmlFreeDoc(svg);
    }
    xmlFreeDoc(page);
    report_set_free(s);
    snprintf(e, sizeof e, "rm -rf %s", dir);
    assert_int_equal(system(e), 0);
}

/* report_load refuses the run folder dir whose summary.json holds json,
 * saying "DIR/summary.json: " and reason. */
static void assert_summary_refused(const char *dir, const char *json, const char *reason)
{
    char path[128], want[512], err[512] = "";
    const char *dirs[] = { dir };
    FILE *f;
    snprintf(path, sizeof path, "%s/summary.json", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(json, f);
    fclose(f);
    assert_null(report_load(dirs, 1, err, sizeof err));
    snprintf(want, sizeof want, "%s: %s", path, reason);
    assert_string_equal(err, want);
}

static void test_bad_input(void **state)
{
    const char *missing[] = { "results/fixtures/no-such-run" };
    const char *not_run[] = { "results/fixtures/report-4vm/vm" };
    char err[512] = "";
    (void)state;
    assert_null(report_load(missing, 1, err, sizeof err));
    assert_string_equal(err, "results/fixtures/no-such-run/summary.json: cannot read the run's "
                             "summary (is results/fixtures/no-such-run a run folder of "
                             "`drivebench run`?)");
    assert_null(report_load(not_run, 1, err, sizeof err));
    assert_non_null(strstr(err, "cannot read the run's summary"));
    {
        char dir[] = "/tmp/report-test-bad-XXXXXX", path[128];
        assert_non_null(mkdtemp(dir));
        assert_summary_refused(dir, "{\"schema\":\"drivebench.summary/3\","
                               "\"drives\":[],\"vms\":[]}",
                               "not a drivebench.summary/2 document");
        assert_summary_refused(dir, "{\"schema\":\"drivebench.summary/1\","
                               "\"drives\":[],\"vms\":[]}",
                               "drivebench.summary/1 was written by an older drivebench, whose "
                               "summaries lack the per-VM figures this report reads; run the "
                               "plan again");
        assert_summary_refused(dir, "{\"schema\":\"drivebench.summary/2\",\"drives\":{}}",
                               "no drives or vms array");
        /* there but not whole: the reader's reason, not "is it a run folder?" */
        assert_summary_refused(dir, "{\"schema\":\"drivebench.summary/2\","
                               "\"drives\":[{\"name\":\"a\"}",
                               "cannot read the run's summary: truncated JSON (ends inside a "
                               "value after 55 bytes)");
        snprintf(path, sizeof path, "%s/summary.json", dir);
        unlink(path);
        rmdir(dir);
    }
}

/* Long series are drawn decimated: per run of indexes, the smallest and the
 * largest y in their order; short ones unchanged. */
static void test_decimate(void **state)
{
    (void)state;
    static const double y10[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3 };
    double x[10800], y[10800], ox[2 * SVG_LINE_BUCKETS], oy[2 * SVG_LINE_BUCKETS];
    for (int i = 0; i < 10; i++)
        x[i] = i;
    /* 10 points, 2 buckets [0,5) and [5,10): min 1 (the first, index 1)
     * then max 5 (index 4); max 9 (index 5) then min 2 (index 6) */
    assert_int_equal(svg_decimate(x, y10, 10, 2, ox, oy), 4);
    assert_true(ox[0] == 1 && oy[0] == 1 && ox[1] == 4 && oy[1] == 5);
    assert_true(ox[2] == 5 && oy[2] == 9 && ox[3] == 6 && oy[3] == 2);
    /* a flat bucket gives one point: its first */
    static const double flat[] = { 7, 7, 7, 7, 7, 1, 2, 3, 4, 5 };
    assert_int_equal(svg_decimate(x, flat, 10, 2, ox, oy), 3);
    assert_true(ox[0] == 0 && oy[0] == 7 && ox[1] == 5 && oy[1] == 1 && ox[2] == 9 && oy[2] == 5);
    /* up to 2 x nbuckets points: copied */
    assert_int_equal(svg_decimate(x, y10, 10, 5, ox, oy), 10);
    for (int i = 0; i < 10; i++)
        assert_true(ox[i] == i && oy[i] == y10[i]);

    /* 3 h of 10-s intervals: 1,080 points into 400 buckets of 2 or 3, every
     * bucket's values differ: exactly 800 points, the spike of interval 500
     * and the dip of interval 777 kept, in order */
    for (int i = 0; i < 1080; i++) {
        x[i] = 10.0 * (i + 1);
        y[i] = 50 + i % 7;
    }
    y[500] = 1000;
    y[777] = 0;
    int m = svg_decimate(x, y, 1080, SVG_LINE_BUCKETS, ox, oy), spike = 0, dip = 0;
    assert_int_equal(m, 800);
    for (int k = 0; k < m; k++) {
        if (k)
            assert_true(ox[k] > ox[k - 1]);
        spike += ox[k] == 5010 && oy[k] == 1000;
        dip += ox[k] == 7780 && oy[k] == 0;
    }
    assert_int_equal(spike, 1);
    assert_int_equal(dip, 1);
    assert_true(ox[0] == 10 && ox[m - 1] >= 10770);

    /* the chart: a series of 10,800 points (3 h of 1-s intervals) is one
     * polyline of 800 points; 100 points stay 100 */
    for (int i = 0; i < 10800; i++) {
        x[i] = i + 1;
        y[i] = 50 + i % 3;
    }
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root = xmlNewNode(NULL, BAD_CAST "body");
    xmlDocSetRootElement(doc, root);
    svg_series ss[2] = { { "long", x, y, 10800, 0, 0 }, { "short", x, y, 100, 1, 0 } };
    assert_non_null(svg_line_chart(root, "c", "t", "x", "y", ss, 2));
    int seen = 0;
    for (xmlNodePtr svg = root->children; svg; svg = svg->next)
        for (xmlNodePtr n = svg->children; n; n = n->next) {
            if (!n->name || strcmp((const char *)n->name, "polyline") != 0)
                continue;
            xmlChar *pts = xmlGetProp(n, BAD_CAST "points");
            int npts = 1;
            for (const xmlChar *c = pts; *c; c++)
                npts += *c == ' ';
            assert_int_equal(npts, seen == 0 ? 800 : 100);
            xmlFree(pts);
            seen++;
        }
    assert_int_equal(seen, 2);
    xmlFreeDoc(doc);
}

/* No "nan" on the page or in the CSV (issue 42): a precondition of one
 * round (make run's) says why it has no window and draws no empty chart;
 * a drive whose latencies are absent (no transaction measured) leaves
 * their CSV cells empty. */
static void test_no_nan(void **state)
{
    static const char *const edit =
        "[dr.update(precondition_steady=[{\"repetition\":1,\"track\":\"tps\","
        "\"until_steady\":False,\"window\":5,\"round_s\":60,\"range_limit_pct\":20,"
        "\"slope_limit_pct\":10,\"attained_round\":0,\"verdict\":\"too short for a "
        "verdict: 1 of 5 rounds\",\"rounds\":[{\"round\":1,\"seconds\":60,"
        "\"tps\":100.5,\"p99_ms\":3.2}]}]) for dr in d[\"drives\"]]; "
        "d[\"drives\"][1][\"latency_ms\"]={}";
    run_copy c;
    written w;
    (void)state;
    write_edited(&w, &c, F4, edit);
    assert_null(strstr(w.raw, "nan"));
    for (int i = 0; i < w.ncsv; i++)
        assert_null(strstr(w.csv_lines[i], "nan"));
    assert_int_equal(rt_count(w.doc, "//table[@id='precondition-table']//td[.='one round: "
                                  "no window' and @data-key='window_range_pct']"), 2);
    assert_int_equal(rt_count(w.doc, "//table[@id='precondition-table']//td[.='one round: "
                                  "no window' and @data-key='window_excursion_pct']"), 2);
    assert_int_equal(rt_count(w.doc, "//svg[starts-with(@id,'chart-precondition')]"), 0);
    edited_free(&w, &c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spread),
        cmocka_unit_test(test_cv_one_and_unknown),
        cmocka_unit_test(test_other_vms),
        cmocka_unit_test(test_closed_loop_note),
        cmocka_unit_test(test_scaling_interval),
        cmocka_unit_test(test_four_vs_eight),
        cmocka_unit_test(test_repetitions),
        cmocka_unit_test(test_markup_in_names),
        cmocka_unit_test(test_environment_and_plan),
        cmocka_unit_test(test_missing_vm_result),
        cmocka_unit_test(test_drive_io),
        cmocka_unit_test(test_write_paths),
        cmocka_unit_test(test_chart_files),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_failures),
        cmocka_unit_test(test_partial_banner),
        cmocka_unit_test(test_partial_scaling),
        cmocka_unit_test(test_tpcc),
        cmocka_unit_test(test_decimate),
        cmocka_unit_test(test_no_nan),
    };
    return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
