/* Protocols and the ranking (issue 22) from the committed fixtures: runs
 * group by fingerprint (report-8vm-pg differs from report-8vm in the
 * engine alone; a run without a fingerprint is a protocol of its own),
 * scaling stays within a protocol, and `report --rank` ranks each
 * protocol's drives with the 95 % intervals computed here independently
 * from the repetitions in the summaries (Student t, 2 degrees of
 * freedom: 4.302653, the published table value), writes a standalone SVG
 * per chart, the CSV and the win/loss table. Runs from the repository
 * root. */
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
#include <json-c/json.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

#include "report/report.h"
#include "plan/plan.h"
#include "run/run.h"
#include "xpath_util.h"
#include "results_fingerprint.h"

#define FX   "results/fixtures"
#define F4   FX "/report-4vm"
#define F8   FX "/report-8vm"
#define FPG  FX "/report-8vm-pg"
#define FREP FX "/report-reps"
#define T975_DF2 4.302652729911275

/* The string value of expr (an XPath string() expression). */
static const char *str(xmlDocPtr doc, const char *expr)
{
    static char buf[1024];
    char e[512];
    xmlXPathObjectPtr o;
    snprintf(e, sizeof e, "string(%s)", expr);
    o = rt_nodes(doc, e);
    snprintf(buf, sizeof buf, "%s", o->stringval ? (const char *)o->stringval : "");
    xmlXPathFreeObject(o);
    return buf;
}

static xmlDocPtr page(const char *const *dirs, int n, const char *path)
{
    char err[512];
    report_set *s = report_load(dirs, n, err, sizeof err);
    xmlDocPtr doc;
    if (!s)
        fail_msg("report_load: %s", err);
    assert_int_equal(report_write_html(s, path, err, sizeof err), 0);
    report_set_free(s);
    doc = htmlReadFile(path, "UTF-8", HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    assert_non_null(doc);
    return doc;
}

/* A MariaDB run and a PostgreSQL run of one protocol otherwise, beside a
 * 4-VM run of the MariaDB one: two protocols, `engine` the difference,
 * scaling only between the MariaDB runs. */
static void test_engines_apart(void **state)
{
    const char *dirs[] = { F4, F8, FPG };
    char err[512], buf[512], dir[] = "/tmp/rank-test-XXXXXX", path[96];
    report_set *s = report_load(dirs, 3, err, sizeof err);
    xmlDocPtr doc;
    int br, bd;
    (void)state;
    assert_non_null(s);
    assert_int_equal(s->ngroups, 2);
    assert_int_equal(s->runs[0].group, 0);
    assert_int_equal(s->runs[1].group, 0);
    assert_int_equal(s->runs[2].group, 1);
    assert_int_equal(report_fp_diff(&s->runs[1], &s->runs[2], buf, sizeof buf), 1);
    assert_string_equal(buf, "engine");
    assert_int_equal(report_fp_diff(&s->runs[0], &s->runs[1], buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    /* nvme-a with 8 VMs scales against its 4 VMs of the same protocol ... */
    assert_string_equal(report_num(report_scaling(s, 1, 0, &br, &bd), buf, sizeof buf),
                        "1.996722");
    assert_int_equal(br, 0);
    /* ... and the PostgreSQL run's nvme-a against nothing */
    assert_true(report_scaling(s, 2, 0, &br, &bd) == 0);
    assert_int_equal(br, -1);
    report_run_scaling(s, 2, &br);
    assert_int_equal(br, 2);                    /* its own base: no ratio to A or B */
    report_set_free(s);

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/report.html", dir);
    doc = page(dirs, 3, path);
    assert_string_equal(str(doc, "//table[@id='protocol-table']//tr[@data-run='C']"
                                 "/td[@data-key='differs']"), "engine");
    assert_string_equal(str(doc, "//table[@id='protocol-table']//tr[@data-run='B']"
                                 "/td[@data-key='protocol']"), "P1");
    assert_string_equal(str(doc, "//table[@id='protocol-table']//tr[@data-run='A']/td[4]"),
                        "2 drives \xc3\x97 4 VMs");
    assert_int_equal(rt_count(doc, "//table[@id='fingerprint-table']//tr[@class='differs']"), 1);
    assert_string_equal(str(doc, "//table[@id='fingerprint-table']//tr[@class='differs']/@data-key"),
                        "engine");
    assert_string_equal(str(doc, "//table[@id='fingerprint-table']//tr[@data-key='engine']"
                                 "/td[@data-group='P2']"), "postgresql");
    /* one set of charts per protocol: A's and B's drives, then C's alone */
    assert_int_equal(rt_count(doc, "//svg[@id='chart-tps']/g[contains(@class,'bar')]"), 3);
    assert_int_equal(rt_count(doc, "//svg[@id='chart-tps-p2']/g[contains(@class,'bar')]"), 1);
    assert_string_equal(str(doc, "//svg[@id='chart-tps-p2']/g/@data-label"), "nvme-a [C]");
    /* no scaling row of the PostgreSQL drive, and C's run is its own base */
    assert_int_equal(rt_count(doc, "//table[@id='scaling-table']//tr[@data-run='C']"), 0);
    assert_string_equal(str(doc, "//table[@id='run-scaling-table']//tr[@data-run='C']/td[8]"),
                        "8 / 8 (C)");
    xmlFreeDoc(doc);
    snprintf(buf, sizeof buf, "rm -rf %s", dir);
    assert_int_equal(system(buf), 0);
}

/* A run written before summaries had a fingerprint is kept apart. */
static void test_older_run(void **state)
{
    char dir[] = "/tmp/rank-test-XXXXXX", cmd[512], run[96], err[512], buf[256];
    const char *dirs[2];
    report_set *s;
    int br, bd;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd, "cp -r " F4 " %s/ && python3 -c 'import json,sys; p=sys.argv[1]; "
             "d=json.load(open(p)); del d[\"fingerprint\"]; json.dump(d, open(p, \"w\"))' "
             "%s/report-4vm/summary.json", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(run, sizeof run, "%s/report-4vm", dir);
    dirs[0] = run;
    dirs[1] = F8;
    s = report_load(dirs, 2, err, sizeof err);
    assert_non_null(s);
    assert_null(s->runs[0].sum.fp);
    assert_int_equal(s->ngroups, 2);
    assert_int_equal(report_fp_diff(&s->runs[0], &s->runs[1], buf, sizeof buf), -1);
    assert_string_equal(buf, "no fingerprint (older run)");
    assert_true(report_scaling(s, 1, 0, &br, &bd) == 0);
    assert_int_equal(br, -1);
    report_set_free(s);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* What bounded a drive (issue 45) in the ranking: its table's "bounded
 * by" cell with the evidence, and the CSV's last column. */
/* Fixture folder `name` (under FX) copied into dir, its summary.json
 * changed by the Python statements `edit` on its document d; the copy's
 * path into run. */
static void planted(const char *dir, const char *name, const char *edit, char *run, size_t len)
{
    char cmd[1536];
    snprintf(cmd, sizeof cmd, "cp -r " FX "/%s %s/ && python3 -c 'import json,sys; p=sys.argv[1]; "
             "d=json.load(open(p)); %s; json.dump(d, open(p, \"w\"))' %s/%s/summary.json", name,
             dir, edit, dir, name);
    assert_int_equal(system(cmd), 0);
    snprintf(run, len, "%s/%s", dir, name);
}

static void test_rank_bound(void **state)
{
    char dir[] = "/tmp/rank-test-XXXXXX", cmd[768], run[96], err[512], path[160], line[1024];
    const char *dirs[1];
    rank_files out = { .dir = dir, .png_scale = 1 };
    rank_set *r;
    xmlDocPtr doc;
    FILE *f;
    int seen = 0;
    (void)state;
    assert_non_null(mkdtemp(dir));
    planted(dir, "report-4vm", "d[\"drives\"][0][\"bound\"]={\"verdict\":\"network path\","
            "\"evidence\":\"vm1: QEMU main loop (user-mode network) 96.0 % of one CPU >= 90 %\","
            "\"main_loop_pct\":96}", run, sizeof run);
    dirs[0] = run;
    r = rank_build(dirs, 1, 0, NULL, NULL, err, sizeof err);
    if (!r)
        fail_msg("rank_build: %s", err);
    for (int i = 0; i < r->g[0].n; i++) {
        const res_io *io = r->g[0].e[i].dr->d->io;
        seen += io && io->bound && io->bound->verdict == RES_BOUND_NETWORK;
    }
    assert_int_equal(seen, 1);
    seen = 0;
    snprintf(path, sizeof path, "%s/rank.csv", dir);
    assert_int_equal(rank_write_csv(r, path, err, sizeof err), 0);
    assert_non_null(f = fopen(path, "r"));
    while (fgets(line, sizeof line, f))
        seen += strcmp(line + strlen(line) - strlen(",\"network path\"\n"),
                       ",\"network path\"\n") == 0;
    fclose(f);
    assert_int_equal(seen, 1);
    assert_int_equal(rank_write_html(r, &out, err, sizeof err), 0);
    rank_set_free(r);
    snprintf(path, sizeof path, "%s/rank.html", dir);
    doc = htmlReadFile(path, "UTF-8", HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    assert_non_null(doc);
    assert_int_equal(rt_count(doc, "//table[@id='rank-table-p1']//td[@data-key='bound' and "
                                   "@data-value='network path']"), 1);
    assert_string_equal(str(doc, "//table[@id='rank-table-p1']//td[@data-value='network path']"
                                 "/span"),
                        "vm1: QEMU main loop (user-mode network) 96.0 % of one CPU >= 90 %");
    assert_int_equal(rt_count(doc, "//table[@id='rank-table-p1']//td[@data-key='bound' and "
                                   "@data-value='']"), 1);     /* the other: not judged */
    xmlFreeDoc(doc);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* A capacity search in each drive's summary (issue 45): the protocol
 * ranked by capacity (nvme-a's 200 above sata-b's 120, though sata-b's
 * TPS is higher), its chart titled with the target, the intervals
 * [capacity, lowest rate that broke it] in the table and the CSV, the
 * win/loss by those intervals apart. */
static void test_rank_capacity(void **state)
{
    char dir[] = "/tmp/rank-test-XXXXXX", cmd[64], run[96], err[512], path[160], line[1024];
    const char *dirs[1];
    rank_files out = { .dir = dir, .png_scale = 0 };
    rank_set *r;
    xmlDocPtr doc;
    FILE *f;
    (void)state;
    assert_non_null(mkdtemp(dir));
    planted(dir, "report-reps", "cap=lambda c, hi: {\"target\":\"p99 <= 10 ms\",\"capacity\":c,"
            "\"interval_lo\":c,\"interval_hi\":hi,\"end\":\"resolution\",\"probes\":[]}; "
            "d[\"drives\"][0][\"capacity\"]=cap(200, 208); "
            "d[\"drives\"][1][\"capacity\"]=cap(120, 125)", run, sizeof run);
    dirs[0] = run;
    r = rank_build(dirs, 1, 0, NULL, "sata-b", err, sizeof err);
    if (!r)
        fail_msg("rank_build: %s", err);
    assert_int_equal(r->g[0].metric[RANK_CAPACITY], 1);
    assert_string_equal(rank_capacity_target(&r->g[0]), "p99 <= 10 ms");
    assert_string_equal(r->g[0].e[0].dr->name, "nvme-a");
    assert_true(r->g[0].e[0].m[RANK_TPS].v < r->g[0].e[1].m[RANK_TPS].v);
    assert_true(r->g[0].e[0].m[RANK_CAPACITY].lo == 200 && r->g[0].e[0].m[RANK_CAPACITY].hi == 208);
    assert_string_equal(rank_verdict(&r->g[0].e[0], &r->g[0].e[1], RANK_CAPACITY), "better");
    assert_string_equal(rank_verdict(&r->g[0].e[1], &r->g[0].e[0], RANK_CAPACITY), "worse");
    snprintf(path, sizeof path, "%s/rank.csv", dir);
    assert_int_equal(rank_write_csv(r, path, err, sizeof err), 0);
    assert_non_null(f = fopen(path, "r"));
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(strstr(line, ",200,200,208,0,"));
    assert_int_equal(strncmp(line, "\"P1\",1,\"nvme-a\",", 16), 0);
    fclose(f);
    assert_int_equal(rank_write_html(r, &out, err, sizeof err), 0);
    rank_set_free(r);
    snprintf(path, sizeof path, "%s/rank.html", dir);
    doc = htmlReadFile(path, "UTF-8", HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    assert_non_null(doc);
    assert_string_equal(str(doc, "//svg[@id='rank-p1-capacity']/title"),
                        "Capacity at p99 <= 10 ms (TPS, higher is better) \xe2\x80\x94 protocol "
                        "P1, from the capacity up to the lowest rate that broke it");
    assert_string_equal(str(doc, "//table[@id='rank-table-p1']//tr[1]/td[2]"), "nvme-a");
    assert_string_equal(str(doc, "//table[@id='rank-table-p1']//tr[2]"
                                 "/td[@data-key='capacity']/@data-value"), "120");
    assert_string_equal(str(doc, "//table[@id='rank-table-p1']//tr[2]"
                                 "/td[@data-key='capacity_interval']"), "120.00 \xe2\x80\x93 125.00");
    assert_string_equal(str(doc, "//table[@id='winloss-p1']//td[@data-key='capacity']"), "better");
    xmlFreeDoc(doc);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* Per-repetition TPS of `drive` in the summary at dir (json-c, not the
 * results module), into v; returns how many. */
static int rep_tps(const char *dir, const char *drive, double *v)
{
    char path[256];
    json_object *sum, *drives, *reps;
    int n = 0;
    snprintf(path, sizeof path, "%s/summary.json", dir);
    assert_non_null(sum = json_object_from_file(path));
    assert_true(json_object_object_get_ex(sum, "drives", &drives));
    for (size_t i = 0; i < json_object_array_length(drives); i++) {
        json_object *d = json_object_array_get_idx(drives, i), *name;
        json_object_object_get_ex(d, "name", &name);
        if (strcmp(json_object_get_string(name), drive) != 0)
            continue;
        json_object_object_get_ex(d, "repetitions", &reps);
        for (size_t k = 0; k < json_object_array_length(reps); k++) {
            json_object *t;
            json_object_object_get_ex(json_object_array_get_idx(reps, k), "tps", &t);
            v[n++] = json_object_get_double(t);
        }
    }
    json_object_put(sum);
    return n;
}

static void interval(const double *v, int n, double center, double *lo, double *hi)
{
    double m = 0, sq = 0;
    for (int i = 0; i < n; i++)
        m += v[i] / n;
    for (int i = 0; i < n; i++)
        sq += (v[i] - m) * (v[i] - m);
    *lo = center - T975_DF2 * sqrt(sq / (n - 1)) / sqrt(n);
    *hi = center + T975_DF2 * sqrt(sq / (n - 1)) / sqrt(n);
}

/* `report --rank` over the fixtures directory. */
/* The colour of the PNG's pixel at x, y (of its own pixels) as 0xRRGGBB. */
/* The PNG at path is svg (a standalone chart's document) at twice its
 * size: white in the corner, and at the middle of each bar's rect the
 * bar's fill (the highlighted drive's orange, the others' blue). */
static void assert_png_of(const char *path, xmlDocPtr svg)
{
    cairo_surface_t *img = cairo_image_surface_create_from_png(path);
    int nbars = rt_count(svg, "/s:svg/s:g[contains(@class,'bar')]");
    assert_int_equal(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
    assert_int_equal(cairo_image_surface_get_format(img), CAIRO_FORMAT_RGB24);   /* no alpha */
    assert_int_equal(cairo_image_surface_get_width(img), 2 * atoi(str(svg, "/s:svg/@width")));
    assert_int_equal(cairo_image_surface_get_height(img), 2 * atoi(str(svg, "/s:svg/@height")));
    assert_int_equal(rt_pixel(img, 1, 1), 0xffffff);
    assert_int_equal(nbars, 3);
    for (int i = 1; i <= nbars; i++) {
        double at[4];               /* x, y, width, height */
        static const char *const keys[] = { "x", "y", "width", "height" };
        char e[160];
        unsigned want;
        for (int k = 0; k < 4; k++) {
            snprintf(e, sizeof e, "/s:svg/s:g[contains(@class,'bar')][%d]/s:rect/@%s", i,
                     keys[k]);
            at[k] = atof(str(svg, e));
        }
        snprintf(e, sizeof e, "/s:svg/s:g[contains(@class,'bar')][%d]/s:rect/@fill", i);
        want = (unsigned)strtoul(str(svg, e) + 1, NULL, 16);
        assert_true(want == 0xf28e2b || want == 0x4e79a7);
        /* a quarter into the bar: clear of its whisker (at mid-height) */
        assert_int_equal(rt_pixel(img, (int)(2 * (at[0] + at[2] / 4)), (int)(2 * (at[1] + at[3] / 4))),
                         want);
    }
    cairo_surface_destroy(img);
}

static void test_rank(void **state)
{
    const char *paths[] = { FX };
    char err[512], dir[] = "/tmp/rank-test-XXXXXX", path[128], line[1024], want[256], b[4][48];
    char **dirs;
    int ndirs;
    double v[8], lo, hi;
    rank_files out = { .dir = dir, .png_scale = 2 };
    rank_set *r;
    xmlDocPtr doc;
    FILE *f;
    (void)state;
    dirs = rank_expand(paths, 1, &ndirs, err, sizeof err);
    assert_non_null(dirs);
    assert_int_equal(ndirs, 6);             /* the run folders; fixtures/run has no summary */
    assert_string_equal(dirs[0], FX "/report-4vm");
    r = rank_build((const char *const *)dirs, ndirs, 0, "nvme-a", "sata-b", err, sizeof err);
    if (!r)
        fail_msg("rank_build: %s", err);
    assert_int_equal(r->ng, 3);
    /* P1: the newest complete run of each drive, TPS order */
    assert_int_equal(r->g[0].n, 3);
    assert_string_equal(r->g[0].e[0].label, "<script>alert(1)</script>");
    assert_string_equal(r->g[0].e[0].run->run_id, "report-failed");
    assert_string_equal(r->g[0].e[1].label, "sata-b");
    assert_string_equal(r->g[0].e[2].label, "nvme-a");
    assert_string_equal(r->g[0].e[2].run->run_id, "report-reps");
    assert_int_equal(r->g[0].e[2].highlight, 1);
    assert_int_equal(r->g[0].e[1].highlight, 0);
    assert_int_equal(r->g[0].nleft, 0);     /* report-failed's nvme-a: superseded */
    assert_true(isnan(r->g[0].e[0].m[RANK_TPS].lo));
    assert_int_equal(r->g[0].e[0].m[RANK_TPS].n, 1);
    assert_int_equal(rep_tps(FREP, "sata-b", v), 3);
    interval(v, 3, r->g[0].e[1].m[RANK_TPS].v, &lo, &hi);
    assert_string_equal(report_num(r->g[0].e[1].m[RANK_TPS].lo, b[0], sizeof b[0]),
                        report_num(lo, b[1], sizeof b[1]));
    assert_string_equal(report_num(r->g[0].e[1].m[RANK_TPS].hi, b[0], sizeof b[0]),
                        report_num(hi, b[1], sizeof b[1]));
    assert_string_equal(b[1], "91.726107");
    assert_string_equal(rank_verdict(&r->g[0].e[2], &r->g[0].e[1], RANK_TPS), "not distinguishable");
    assert_string_equal(rank_verdict(&r->g[0].e[0], &r->g[0].e[1], RANK_TPS),
                        "too few repetitions (N < 3)");
    /* P2: the PostgreSQL run; P3: TPC-C with tpmC and NOPM, no p99 */
    assert_string_equal(r->g[1].e[0].run->run_id, "report-8vm-pg");
    assert_int_equal(r->g[2].metric[RANK_TPMC] + r->g[2].metric[RANK_NOPM]
                     + r->g[2].metric[RANK_LAT_AVG] + r->g[2].metric[RANK_TPS], 4);
    assert_int_equal(r->g[2].metric[RANK_LAT_P99], 0);
    assert_int_equal(r->g[0].metric[RANK_TPMC], 0);

    assert_non_null(mkdtemp(dir));
    if (rank_write_html(r, &out, err, sizeof err) < 0)
        fail_msg("rank_write_html: %s", err);
    assert_int_equal(out.nsvg, 10);
    assert_int_equal(out.npng, 10);
    snprintf(path, sizeof path, "%s/rank.csv", dir);
    assert_int_equal(rank_write_csv(r, path, err, sizeof err), 0);
    assert_non_null(f = fopen(path, "r"));
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "protocol,rank,drive,run_id,layout,n,tps,tps_lo,tps_hi,tpmC,"
                        "tpmC_lo,tpmC_hi,NOPM,NOPM_lo,NOPM_hi,latency_avg_ms,latency_avg_ms_lo,"
                        "latency_avg_ms_hi,latency_p99_ms,latency_p99_ms_lo,latency_p99_ms_hi,"
                        "capacity,capacity_lo,capacity_hi,highlight,bound\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_non_null(fgets(line, sizeof line, f));
    snprintf(want, sizeof want, "\"P1\",2,\"sata-b\",\"report-reps\",\"2 drives \xc3\x97 1 VM\",3,"
             "%s,%s,%s,", report_num(r->g[0].e[1].m[RANK_TPS].v, b[2], sizeof b[2]),
             report_num(lo, b[0], sizeof b[0]), report_num(hi, b[1], sizeof b[1]));
    assert_memory_equal(line, want, strlen(want));
    assert_string_equal(line + strlen(line) - 4, ",0,\n");    /* no verdict recorded */
    fclose(f);
    rank_set_free(r);
    rank_paths_free(dirs, ndirs);

    /* the page: P1's TPS chart sorted, the highlight, whiskers, N */
    snprintf(path, sizeof path, "%s/rank.html", dir);
    doc = htmlReadFile(path, "UTF-8", HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    assert_non_null(doc);
    assert_int_equal(rt_count(doc, "//svg[@class='chart rank']"), 10);
    assert_string_equal(str(doc, "//svg[@id='rank-p1-tps']/g[1]/@data-label"),
                        "<script>alert(1)</script>");
    assert_string_equal(str(doc, "//svg[@id='rank-p1-tps']/g[@class='bar highlight']/@data-label"),
                        "nvme-a");
    assert_string_equal(str(doc, "//svg[@id='rank-p1-tps']/g[3]/text[@class='n']"), "N = 3");
    assert_int_equal(rt_count(doc, "//svg[@id='rank-p1-tps']//line[@class='whisker']"), 2);
    assert_string_equal(str(doc, "//svg[@id='rank-p1-tps']/g[2]/@data-hi"), "91.7261");
    /* latency: lowest first */
    assert_string_equal(str(doc, "//svg[@id='rank-p1-latency_avg_ms']/g[3]/@data-label"), "sata-b");
    assert_string_equal(str(doc, "//table[@id='winloss-p1']//tr[@data-drive='nvme-a']"
                                 "/td[@data-key='tps']"), "not distinguishable");
    assert_int_equal(rt_count(doc, "//table[@id='winloss-p2']"), 0);   /* no sata-b there */
    assert_string_equal(str(doc, "//section[@id='rank-p2']/p[contains(@class,'differs')]"),
                        "Differs from P1 in: engine (not ranked with it).");
    xmlFreeDoc(doc);

    /* a standalone chart: an SVG document of its own */
    snprintf(path, sizeof path, "%s/p1-tps.svg", dir);
    doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    assert_string_equal((const char *)xmlDocGetRootElement(doc)->ns->href,
                        "http://www.w3.org/2000/svg");
    assert_int_equal(rt_count(doc, "/s:svg/s:g[@class='bar highlight']/s:line[@class='whisker']"), 1);
    assert_string_equal(str(doc, "/s:svg/@font-family"), "sans-serif");
    assert_string_equal(str(doc, "/s:svg/@width"), "960");
    /* ... and its PNG (--png): twice its size, on white, the bars in
     * their colours where the SVG puts them */
    snprintf(path, sizeof path, "%s/p1-tps.png", dir);
    assert_png_of(path, doc);
    xmlFreeDoc(doc);
    snprintf(line, sizeof line, "rm -rf %s", dir);
    assert_int_equal(system(line), 0);
}

/* Refusals: a highlighted or baseline drive in no ranking, a folder that
 * holds no run. */
static void test_rank_refusals(void **state)
{
    const char *dirs[] = { F4 }, *none[] = { "tests/report" };
    char err[512], **p;
    int n;
    (void)state;
    assert_null(rank_build(dirs, 1, 0, "nvme-z", NULL, err, sizeof err));
    assert_string_equal(err, "--highlight nvme-z: no complete drive of that name in the runs "
                        "ranked");
    assert_null(rank_build(dirs, 1, 0, NULL, "sata-b", err, sizeof err));
    assert_string_equal(err, "--baseline sata-b: no complete drive of that name in the runs "
                        "ranked");
    p = rank_expand(none, 1, &n, err, sizeof err);
    assert_null(p);
    assert_string_equal(err, "tests/report: neither a run folder nor a results directory (no "
                        "summary.json in it or its subfolders)");
}

/* The fingerprint `drivebench run` records for the reference plans
 * (orch_fingerprint_build, with report-4vm's summary for the hosts and
 * VMs): the protocol's own settings, sorted options, TPC-C's terminals. */
static void fp_of(const char *plan, res_fp_item *it, int *n)
{
    char err[512];
    res_summary s;
    orch_plan *p = orch_plan_load(plan, stderr);
    orch_template *t;
    assert_non_null(p);
    assert_non_null(t = orch_template_load(p->template_path, err, sizeof err));
    assert_int_equal(res_summary_read_file(F4 "/summary.json", &s, err, sizeof err), 0);
    res_fingerprint_free(s.fp);
    assert_non_null(s.fp = orch_fingerprint_build(p, t, &s));
    *n = res_fingerprint_items(s.fp, it);
    res_summary_clear(&s);
    orch_template_free(t);
    orch_plan_free(p);
}

static const char *item(const res_fp_item *it, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(it[i].key, key) == 0)
            return it[i].value;
    fail_msg("no key %s", key);
    return NULL;
}

static void test_reference_fingerprints(void **state)
{
    res_fp_item it[RES_FP_MAX_KEYS];
    int n;
    (void)state;
    fp_of("plans/sysbench-8x1.ini", it, &n);
    assert_int_equal(n, 30);     /* server_settings (issue 44) among them */
    assert_string_equal(item(it, n, "pinning"), "off");
    assert_string_equal(item(it, n, "hugepages"), "no");
    assert_string_equal(item(it, n, "db_settings"), "drivebench.my.innodb_buffer_pool_size=24G");
    assert_string_equal(item(it, n, "vcpus"), "8");
    assert_string_equal(item(it, n, "memory_bytes"), "64424509440");
    assert_string_equal(item(it, n, "controller"), "lsisas1068");
    assert_string_equal(item(it, n, "threads"), "32");
    assert_string_equal(item(it, n, "engine"), "mariadb");
    assert_string_equal(item(it, n, "server_version"), "10.11.19-MariaDB-0+deb12u1");
    fp_of("plans/sqlserver-tpcc.ini", it, &n);
    assert_string_equal(item(it, n, "terminals"), "15000");
    assert_string_equal(item(it, n, "keying_thinking"), "on");
    /* the reference load and its one call a transaction are part of
     * what a figure compares */
    assert_string_equal(item(it, n, "workload_options"), "--time-scale=0.22 --tpcc-keys-after-load=on "
                        "--tpcc-procedures=on --tpcc-statistics=on");
    assert_string_equal(item(it, n, "engine"), "sqlserver");
    assert_string_equal(item(it, n, "db_settings"), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engines_apart),
        cmocka_unit_test(test_older_run),
        cmocka_unit_test(test_rank),
        cmocka_unit_test(test_rank_refusals),
        cmocka_unit_test(test_rank_bound),
        cmocka_unit_test(test_rank_capacity),
        cmocka_unit_test(test_reference_fingerprints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
