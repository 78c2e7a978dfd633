/* The live view (issue 34, live/live.h): the OpenMetrics writer's exact
 * text, the model fed through its hooks rendered byte for byte against
 * tests/orchestrator/expected/live.txt, and a run on libvirt's test
 * driver scraped over HTTP while its measured phase holds, every VM's
 * series equal to the interval data of the result it wrote. Runs from
 * the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <math.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "live/live.h"
#include "plan/plan.h"
#include "results_io.h"
#include "testlib.h"

/* The writer: numbers, escaping, the family lines and # EOF. */
static void test_openmetrics_text(void **state)
{
    char *text = NULL, num[40];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    (void)state;
    om_number(num, sizeof num, 0.1);
    assert_string_equal(num, "0.1");
    om_number(num, sizeof num, 2.0 / 1000);
    assert_string_equal(num, "0.002");
    om_number(num, sizeof num, 1.0 / 3);
    assert_string_equal(num, "0.3333333333333333");
    om_number(num, sizeof num, 12);
    assert_string_equal(num, "12");
    om_number(num, sizeof num, 1e21);
    assert_string_equal(num, "1e+21");
    om_number(num, sizeof num, NAN);
    assert_string_equal(num, "NaN");
    om_number(num, sizeof num, -INFINITY);
    assert_string_equal(num, "-Inf");
    om_family(f, "x_seconds", OM_GAUGE, "seconds", "a \"quoted\" help\\n");
    om_sample(f, "x_seconds", 0.25, "drive", "a<b \"q\" \\ \n", "vm", "v1", NULL);
    om_family(f, "y", OM_COUNTER, NULL, "count");
    om_sample(f, "y_total", 3, NULL);
    om_eof(f);
    fclose(f);
    assert_string_equal(text,
                        "# TYPE x_seconds gauge\n"
                        "# UNIT x_seconds seconds\n"
                        "# HELP x_seconds a \\\"quoted\\\" help\\\\n\n"
                        "x_seconds{drive=\"a<b \\\"q\\\" \\\\ \\n\",vm=\"v1\"} 0.25\n"
                        "# TYPE y counter\n"
                        "# HELP y count\n"
                        "y_total 3\n"
                        "# EOF\n");
    free(text);
}

/* One disk's counters: reads, bytes read, read ns, writes, bytes
 * written, write ns, flushes (every field present). */
static orch_blk_counters counters(unsigned long long rd, unsigned long long rdb,
                                  unsigned long long rdt, unsigned long long wr,
                                  unsigned long long wrb, unsigned long long wrt,
                                  unsigned long long fl)
{
    orch_blk_counters c = { .name = "sdb", .role = ORCH_DISK_DB,
                            .have = (1u << ORCH_BLK_NFIELDS) - 1 };
    c.v[ORCH_BLK_RD_REQS] = rd;
    c.v[ORCH_BLK_RD_BYTES] = rdb;
    c.v[ORCH_BLK_RD_TIMES] = rdt;
    c.v[ORCH_BLK_WR_REQS] = wr;
    c.v[ORCH_BLK_WR_BYTES] = wrb;
    c.v[ORCH_BLK_WR_TIMES] = wrt;
    c.v[ORCH_BLK_FL_REQS] = fl;
    c.v[ORCH_BLK_FL_TIMES] = fl * 1000000;
    return c;
}

/* The model through its hooks, rendered: every family, exact. VM 1 of
 * drive "a<b ' & .. x" has an interval and a disk sample, VM 2 failed
 * (crashed), drive second's VM has an interval only; the first drive's
 * device has a host sample. */
static void test_live_model(void **state)
{
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, "profile = tiny\nmetrics = 127.0.0.1:0\n",
                                     "pool = userpool\n");
    orch_layout *l = orch_layout_new(p, RUN_ID, 0);
    orch_monitor *mon = orch_monitor_new(NULL);
    virDomainPtr dom = virDomainLookupByName(f->conn, "other-vm");
    orch_live *lv;
    orch_blk_counters a = counters(100, 409600, 1000000, 20, 81920, 10000000, 6);
    orch_blk_counters b = counters(150, 614400, 6000000, 30, 122880, 30000000, 10);
    orch_diskstat ds0 = { .t = 10, .nfields = 17 }, ds1 = { .t = 12, .nfields = 17 };
    orch_tel_vm_now vms[3] = { { .vm = 0, .drive = 0, .has_db = 1, .has_qemu = 1,
                                 .qemu = { .vcpus = 2, .vcpu_pct = 45.5, .main_pct = 97.25,
                                           .io_pct = 0, .other_pct = 1.5 } },
                               { .vm = 1, .drive = 0 }, { .vm = 2, .drive = 1 } };
    orch_tel_drive_now drives[2] = { { .has_dev = 1, .has_bound = 1,
                                       .bound = RES_BOUND_NETWORK }, { 0 } };
    orch_job jobs[2] = { { .vm = &l->vms[0] }, { .vm = &l->vms[2] } };
    char *text, *want;

    assert_non_null(dom);
    lv = orch_live_new(p, l, mon);
    assert_non_null(lv);
    for (int i = 0; i < 3; i++) {
        int slot = orch_monitor_add(mon, dom, l->vms[i].name, l->vms[i].drive->name);
        assert_int_equal(slot, i);
        orch_live_vm(lv, i, 1, slot);
    }
    orch_live_phase(lv, RES_PHASE_MEASURE, 1, 0);
    orch_live_interval(lv, &jobs[0], "measure", &(orch_interval){
                           .t = 12, .threads = 2, .tps = 123.45, .qps = 2469, .lat_pct = 95,
                           .lat_ms = 4.57, .errors_ps = 0.5, .reconnects_ps = 0 });
    orch_live_interval(lv, &jobs[1], "measure", &(orch_interval){
                           .t = 12, .threads = 2, .tps = 10.25, .qps = 205, .lat_pct = 95,
                           .lat_ms = 2, .errors_ps = 0, .reconnects_ps = 0.25 });
    /* 2 s: 50 reads of 4 KiB in 5 ms, 10 writes of 4 KiB in 20 ms, 4 flushes */
    orch_blk_delta_of(&a, 10, &b, 12, &vms[0].db);
    /* the device: 200 reads (400 sectors, 300 ms), 100 writes (800
     * sectors, 500 ms), busy 1 s, 3 s in queue */
    ds0.v[ORCH_DS_RD_IOS] = 1000;
    ds1.v[ORCH_DS_RD_IOS] = 1200;
    ds1.v[ORCH_DS_RD_SECTORS] = 400;
    ds1.v[ORCH_DS_RD_TICKS] = 300;
    ds1.v[ORCH_DS_WR_IOS] = 100;
    ds1.v[ORCH_DS_WR_SECTORS] = 800;
    ds1.v[ORCH_DS_WR_TICKS] = 500;
    ds1.v[ORCH_DS_IO_TICKS] = 1000;
    ds1.v[ORCH_DS_TIME_IN_QUEUE] = 3000;
    orch_diskstat_delta_of(&ds0, &ds1, &drives[0].dev);
    orch_live_tick(lv, &(orch_tel_now){ .t = 12, .phase = RES_PHASE_MEASURE, .rep = 1,
                                        .vms = vms, .nvms = 3, .drives = drives,
                                        .ndrives = 2, .has_host_cpu = 1,
                                        .host_cpu_pct = 62.5 });
    orch_monitor_fail(mon, 1, ORCH_FAULT_CRASHED, "the guest crashed");
    text = orch_live_render(lv);
    want = orch_slurp("tests/orchestrator/expected/live.txt");
    assert_non_null(text);
    if (strcmp(text, want) != 0)
        fprintf(stderr, "--- got:\n%s", text);
    assert_string_equal(text, want);
    free(text);
    /* a scrape counts a fault once; the next phase forgets the figures */
    orch_live_phase_end(lv);
    orch_live_phase(lv, RES_PHASE_CHECK, 1, 0);
    text = orch_live_render(lv);
    assert_non_null(strstr(text, "\ndrivebench_faults_total 1\n"));
    assert_non_null(strstr(text, "\ndrivebench_phase{drivebench_phase=\"check\"} 1\n"));
    assert_null(strstr(text, "drivebench_vm_tps{"));
    assert_null(strstr(text, "drivebench_drive_read_iops{"));
    free(text);
    free(want);
    orch_live_free(lv);
    orch_monitor_free(mon);
    virDomainFree(dom);
    orch_layout_free(l);
    orch_plan_free(p);
}

/* A free loopback port now. */
static int free_port(void)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM, 0), port;
    assert_true(fd >= 0);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    port = ntohs(a.sin_port);
    close(fd);
    return port;
}

/* Whether this network namespace has a working loopback (`unshare -n`
 * leaves lo down: nothing can listen on 127.0.0.1 there). */
static bool loopback_works(void)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t alen = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0);
    bool ok = fd >= 0 && c >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0
              && listen(fd, 1) == 0 && getsockname(fd, (struct sockaddr *)&a, &alen) == 0
              && connect(c, (struct sockaddr *)&a, sizeof a) == 0;
    if (fd >= 0)
        close(fd);
    if (c >= 0)
        close(c);
    if (!ok)
        print_message("no loopback in this network namespace (unshare -n?): skipped\n");
    return ok;
}

/* GET path from 127.0.0.1:port: the whole answer, headers included (caller
 * frees), or NULL when nothing listens. */
static char *http_get(int port, const char *path)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    char req[256], buf[4096], *out = NULL;
    size_t len = 0;
    ssize_t n;
    FILE *m;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
             path);
    if (write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
        close(fd);
        return NULL;
    }
    m = open_memstream(&out, &len);
    while ((n = read(fd, buf, sizeof buf)) > 0)
        fwrite(buf, 1, (size_t)n, m);
    fclose(m);
    close(fd);
    return out;
}

/* The scraper of the run test: polls /metrics until every VM's interval
 * end is want_end (the stand-in printed its last line and drivebench
 * read it), keeps that scrape, then lets the stand-ins finish. */
typedef struct scraper {
    int   port;
    char  hold[128];
    int   nvms;
    const char *labels[3];
    double want_end;
    char *scrape;               /* the kept one, or NULL */
} scraper;

/* The value of the sample line that starts with prefix ("name{labels} "),
 * or NAN. */
static double sample(const char *text, const char *prefix)
{
    for (const char *s = text; s && (s = strstr(s, prefix)); s++)
        if (s == text || s[-1] == '\n')
            return strtod(s + strlen(prefix), NULL);
    return NAN;
}

/* Scrape every 100 ms: keep the first scrape with every VM's interval end
 * at want_end (and let the stand-ins end: the hold file), then go on
 * until the endpoint is gone, as a scraper does (the run waits for one
 * scrape after its last figures). */
static void *scrape_run(void *arg)
{
    scraper *sc = arg;
    char prefix[256];
    FILE *hold;
    for (int round = 0; round < 600; round++) {
        char *text = http_get(sc->port, "/metrics");
        int done = text != NULL;
        if (!text && sc->scrape)
            break;                      /* gone with the run */
        for (int i = 0; done && !sc->scrape && i < sc->nvms; i++) {
            snprintf(prefix, sizeof prefix, "drivebench_vm_interval_end_seconds{drive=\"%s\","
                     "vm=\"%s\"} ", i < 2 ? "a<b ' & .. x" : "second", sc->labels[i]);
            done = sample(text, prefix) == sc->want_end;
        }
        if (done && !sc->scrape) {
            sc->scrape = text;
            if ((hold = fopen(sc->hold, "w")))
                fclose(hold);
        } else {
            if (getenv("ORCH_TEST_VERBOSE") && round % 50 == 49)
                fprintf(stderr, "scrape %d:\n%s\n", round, text ? text : "(nothing)");
            free(text);
        }
        usleep(100000);
    }
    if (!sc->scrape && (hold = fopen(sc->hold, "w")))
        fclose(hold);
    return NULL;
}

/* A run with [run] metrics: scraped during its measured phase, each VM's
 * latest interval equals the last interval of the result it wrote; the
 * endpoint answers 404 elsewhere and is gone after the run. */
static void test_live_run(void **state)
{
    if (!loopback_works()) {
        skip();
        return;
    }
    {
    orch_fixture *f = *state;
    char keys[128], path[PATH_MAX], prefix[256], err[512], *rel;
    int port = free_port();
    orch_plan *p;
    orch_run_opts o;
    pthread_t th;
    scraper sc = { .port = port, .nvms = 3, .labels = { "a-b-x-vm1", "a-b-x-vm2", "second-vm1" },
                   .want_end = 12 };  /* the fixture: 2 s of warm-up, 10 measured */
    orch_layout *l;
    double drive_tps = 0;

    snprintf(keys, sizeof keys, "profile = tiny\nmetrics = 127.0.0.1:%d\n", port);
    p = orch_fixture_plan(f, keys, "pool = userpool\n");
    l = orch_layout_new(p, RUN_ID, 0);
    snprintf(sc.hold, sizeof sc.hold, "%s/hold", f->results);
    orch_fixture_opts(&o, f);
    o.wait_ready = orch_fixture_ready;
    setenv("FAKE_OLTP_LIVE", "1", 1);
    setenv("FAKE_OLTP_HOLD", sc.hold, 1);
    assert_int_equal(pthread_create(&th, NULL, scrape_run, &sc), 0);
    assert_int_equal(orch_run(p, &o), ORCH_RUN_OK);
    pthread_join(th, NULL);
    unsetenv("FAKE_OLTP_LIVE");
    unsetenv("FAKE_OLTP_HOLD");
    snprintf(prefix, sizeof prefix, "live view: OpenMetrics at http://127.0.0.1:%d/metrics "
             "while the run lasts\n", port);
    orch_assert_output(f, prefix);
    /* it waited for the scraper's next scrape after its last figures */
    orch_assert_output(f, "live view: the run's last figures were scraped ");
    orch_assert_output(f, " s after it ended\n");
    assert_non_null(sc.scrape);
    assert_non_null(strstr(sc.scrape, "HTTP/1.1 200 OK\r\n"));
    assert_non_null(strstr(sc.scrape, "Content-Type: application/openmetrics-text; "
                                      "version=1.0.0; charset=utf-8\r\n"));
    assert_non_null(strstr(sc.scrape, "\r\n\r\n# TYPE drivebench_run info\n"));
    assert_int_equal(strcmp(sc.scrape + strlen(sc.scrape) - 6, "# EOF\n"), 0);
    assert_true(sample(sc.scrape, "drivebench_repetition ") == 1);
    assert_true(sample(sc.scrape, "drivebench_phase{drivebench_phase=\"measure\"} ") == 1);
    assert_true(sample(sc.scrape, "drivebench_faults_total ") == 0);
    /* each VM's series against the last measured interval of its result */
    for (int i = 0; i < 3; i++) {
        res_oltp r;
        const res_phase *m;
        const res_interval *iv;
        const char *drive = i < 2 ? "a<b ' & .. x" : "second";
        char labels[128], want[64];
        rel = orch_layout_result(&l->vms[i], 1, RES_PHASE_MEASURE);
        snprintf(path, sizeof path, "%s/%s/%s", f->results, RUN_ID, rel);
        free(rel);
        assert_int_equal(res_oltp_read_file(path, &r, err, sizeof err), 0);
        m = res_oltp_measure(&r);
        assert_non_null(m);
        iv = &m->intervals[m->nintervals - 1];
        snprintf(labels, sizeof labels, "{drive=\"%s\",vm=\"%s\"} ", drive, sc.labels[i]);
#define ASSERT_SERIES(name, v) do { \
            snprintf(prefix, sizeof prefix, "%s%s", name, labels); \
            snprintf(want, sizeof want, "%.2f", v); \
            assert_true(sample(sc.scrape, prefix) == strtod(want, NULL)); \
        } while (0)
        ASSERT_SERIES("drivebench_vm_tps", iv->tps);
        ASSERT_SERIES("drivebench_vm_qps", iv->qps);
        ASSERT_SERIES("drivebench_vm_errors_per_second", iv->errors_ps);
        ASSERT_SERIES("drivebench_vm_reconnects_per_second", iv->reconnects_ps);
#undef ASSERT_SERIES
        snprintf(prefix, sizeof prefix, "drivebench_vm_latency_seconds{drive=\"%s\",vm=\"%s\","
                 "quantile=\"0.95\"} ", drive, sc.labels[i]);
        assert_true(m->iv_pct == 95);
        snprintf(want, sizeof want, "%.2f", iv->lat_pct_ms);
        assert_true(sample(sc.scrape, prefix) == strtod(want, NULL) / 1000.0);
        snprintf(prefix, sizeof prefix, "drivebench_vm_up%s", labels);
        assert_true(sample(sc.scrape, prefix) == 1);
        if (i < 2)
            drive_tps += iv->tps;
        res_oltp_clear(&r);
    }
    assert_true(sample(sc.scrape, "drivebench_drive_tps{drive=\"a<b ' & .. x\"} ") == drive_tps);
    free(sc.scrape);
    /* gone with the run */
    assert_null(http_get(port, "/metrics"));
    orch_layout_free(l);
    orch_plan_free(p);
    }
}

/* A scrape 50 ms from now, in a thread. */
typedef struct late_scrape {
    int   port;
    char *text;
} late_scrape;

static void *scrape_later(void *arg)
{
    late_scrape *ls = arg;
    usleep(50000);
    ls->text = http_get(ls->port, "/metrics");
    return NULL;
}

/* The server alone: 404 and 405 with their text; a port in use refused
 * with why; orch_live_linger: no wait when nothing ever scraped, at once
 * when the last scrape came after the last change, else until a scrape
 * comes, or not past its limit (5 s: the scraper's gaps were short). */
static void test_live_http(void **state)
{
    if (!loopback_works()) {
        skip();
        return;
    }
    {
    orch_fixture *f = *state;
    orch_plan *p = orch_fixture_plan(f, "profile = tiny\n", "pool = userpool\n");
    orch_layout *l = orch_layout_new(p, RUN_ID, 0);
    orch_live *lv = orch_live_new(p, l, NULL), *other = orch_live_new(p, l, NULL);
    char addr[64], err[256], want[128], *text;
    double waited, limit;
    late_scrape ls = { 0 };
    pthread_t th;
    assert_int_equal(orch_live_listen(lv, "127.0.0.1:0", err, sizeof err), 0);
    assert_true(orch_live_port(lv) > 0);
    ls.port = orch_live_port(lv);
    text = http_get(orch_live_port(lv), "/");
    assert_non_null(text);
    assert_non_null(strstr(text, "HTTP/1.1 404 Not Found\r\n"));
    assert_non_null(strstr(text, "\r\n\r\ndrivebench serves /metrics only\n"));
    free(text);
    /* never scraped (a 404 is no scrape): no wait */
    assert_int_equal(orch_live_linger(lv, &waited, &limit), -1);
    assert_true(limit == ORCH_LIVE_LINGER_MIN_S);
    text = http_get(orch_live_port(lv), "/metrics");
    assert_non_null(strstr(text, "\ndrivebench_phase{drivebench_phase=\"none\"} 1\n"));
    assert_non_null(strstr(text, "\ndrivebench_repetition 0\n"));
    free(text);
    /* scraped after the last change */
    assert_int_equal(orch_live_linger(lv, &waited, &limit), 1);
    /* a change, then a scrape 50 ms into the wait */
    orch_live_phase(lv, RES_PHASE_MEASURE, 1, 0);
    assert_int_equal(pthread_create(&th, NULL, scrape_later, &ls), 0);
    assert_int_equal(orch_live_linger(lv, &waited, &limit), 1);
    pthread_join(th, NULL);
    assert_non_null(strstr(ls.text, "\ndrivebench_phase{drivebench_phase=\"measure\"} 1\n"));
    free(ls.text);
    /* a change and no scrape: 0 after the limit */
    orch_live_phase_end(lv);
    assert_int_equal(orch_live_linger(lv, &waited, &limit), 0);
    assert_true(waited >= limit);
    snprintf(addr, sizeof addr, "127.0.0.1:%d", orch_live_port(lv));
    assert_int_equal(orch_live_listen(other, addr, err, sizeof err), -1);
    snprintf(want, sizeof want, "cannot listen on %s: Address already in use", addr);
    assert_string_equal(err, want);
    assert_int_equal(orch_live_listen(other, "127.0.0.1:x", err, sizeof err), -1);
    assert_string_equal(err, "'127.0.0.1:x': the port 'x' is not a number in 0..65535");
    orch_live_free(other);
    orch_live_free(lv);
    orch_layout_free(l);
    orch_plan_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_openmetrics_text),
        ORCH_FIXTURE_TEST(test_live_model),
        ORCH_FIXTURE_TEST(test_live_http),
        ORCH_FIXTURE_TEST(test_live_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
