/* Unit tests for oltp: option parsing, the random distributions and the
 * default number of event-loop threads. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "engine/engine.h"
#include "options/options.h"
#include "oltp_parse.h"
#include "options/rand.h"
#include "workload_list.h"

static void test_defaults_match_sysbench(void **state)
{
    oltp_opts o;
    char err[512];
    assert_int_equal(parse(&o, "oltp_read_write run", err, sizeof err), 0);
    assert_int_equal(o.threads, 1);
    assert_true(o.time_s == 10);
    assert_int_equal(o.tables, 1);
    assert_int_equal(o.table_size, 10000);
    assert_int_equal(o.range_size, 100);
    assert_int_equal(o.point_selects, 10);
    assert_int_equal(o.rnd.type, RAND_SPECIAL);
    assert_int_equal(o.npercentiles, 1);
    assert_true(o.percentiles[0] == 95);
    assert_int_equal(o.db.port, 3306);
    assert_string_equal(o.db.user, "sbtest");
    assert_int_equal(o.db.n_ignore_errors, 3);
    assert_int_equal(o.db.ignore_errors[0], 1213);
    assert_int_equal(o.db.ignore_errors[1], 1020);
    assert_int_equal(o.db.ignore_errors[2], 1205);
    assert_string_equal(o.workload, "oltp_read_write");
    assert_string_equal(o.command, "run");
}

static void test_values(void **state)
{
    oltp_opts o;
    char err[512];
    assert_int_equal(parse(&o, "--threads=16 --tables=4 --table_size=100000 --percentile=50,95,99,99.9 "
                               "--rand-type=uniform --mysql-ignore-errors=all --skip-trx --rate=250.5 "
                               "--histogram=on --range-selects=off oltp_read_only prepare", err, sizeof err), 0);
    assert_int_equal(o.threads, 16);
    assert_int_equal(o.tables, 4);
    assert_int_equal(o.table_size, 100000);
    assert_int_equal(o.npercentiles, 4);
    assert_true(o.percentiles[3] == 99.9);
    assert_int_equal(o.rnd.type, RAND_UNIFORM);
    assert_true(o.db.ignore_all);
    assert_true(o.skip_trx);
    assert_true(o.histogram);
    assert_false(o.range_selects);
    assert_true(o.rate == 250.5);
}

static void test_password_from_environment(void **state)
{
    oltp_opts o;
    char err[512];
    setenv("OLTP_MYSQL_PASSWORD", "s3cret", 1);
    assert_int_equal(parse(&o, "oltp_read_write run", err, sizeof err), 0);
    assert_string_equal(o.db.password, "s3cret");
    assert_int_equal(parse(&o, "--mysql-password=x oltp_read_write run", err, sizeof err), 0);
    assert_string_equal(o.db.password, "x");
    unsetenv("OLTP_MYSQL_PASSWORD");
}

static void test_bad_options(void **state)
{
    static const struct { const char *line, *msg; } cases[] = {
        {"--threads=0 oltp_read_write run", "oltp: --threads=0: out of range [1, 100000]\n"},
        {"--threads=abc oltp_read_write run", "oltp: --threads=abc: invalid value (expected a whole number)\n"},
        {"--threads=1.5 oltp_read_write run", "oltp: --threads=1.5: invalid value (expected a whole number)\n"},
        {"--no-such-thing=1 oltp_read_write run", "oltp: unknown option '--no-such-thing' (see oltp --help)\n"},
        {"--threads oltp_read_write run", "oltp: option '--threads' needs a value: --threads=VALUE\n"},
        {"--skip-trx=maybe oltp_read_write run", "oltp: --skip-trx=maybe: invalid value (expected on or off)\n"},
        {"--rand-type=normal oltp_read_write run",
         "oltp: --rand-type=normal: expected one of uniform, gaussian, special, pareto, zipfian\n"},
        {"--percentile=-1 oltp_read_write run",
         "oltp: --percentile=-1: expected up to 16 comma-separated numbers in (0, 100]\n"},
        {"--mysql-ignore-errors=12x oltp_read_write run",
         "oltp: --mysql-ignore-errors=12x: expected \"all\", \"none\" or up to 32 error numbers\n"},
        {"oltp_read_write", "oltp: missing command (usage: oltp [options] WORKLOAD prepare|run|cleanup|check; see oltp --help)\n"},
        {"oltp_read_write walk", "oltp: unknown command 'walk': expected prepare, prewarm, run, cleanup, check or help\n"},
        {"--time=0 oltp_read_write run", "oltp: --time=0 and --events=0: the run would never end; set one of them\n"},
        {"--time=10 --warmup-time=10 oltp_read_write run", "oltp: --warmup-time=10 must be shorter than --time=10\n"},
        {"a b c", "oltp: unexpected argument 'c' (usage: oltp [options] WORKLOAD COMMAND)\n"},
        /* strtok_r skipped the empty item (issue 43) */
        {"--percentile=50,,99 oltp_read_write run",
         "oltp: --percentile=50,,99: an empty item in the list (expected up to 16 "
         "comma-separated numbers in (0, 100])\n"},
        {"--percentile=50,99, oltp_read_write run",
         "oltp: --percentile=50,99,: an empty item in the list (expected up to 16 "
         "comma-separated numbers in (0, 100])\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        oltp_opts o;
        char err[512];
        assert_int_equal(parse(&o, cases[i].line, err, sizeof err), -1);
        assert_string_equal(err, cases[i].msg);
    }
}

static rand_cfg cfg_for(rand_type t)
{
    rand_cfg c = { .type = t, .spec_iter = 12, .spec_pct = 1, .spec_res = 75,
                   .pareto_h = 0.2, .zipf_exp = 0.8 };
    assert_int_equal(rand_cfg_finish(&c), 0);
    return c;
}

static void test_uniform_bounds_and_mean(void **state)
{
    rng r;
    double sum = 0;
    uint32_t lo = 1000, hi = 0;
    rng_seed(&r, 1, 0);
    for (int i = 0; i < 200000; i++) {
        uint32_t v = rand_uniform(&r, 1, 1000);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
        sum += v;
    }
    assert_int_equal(lo, 1);
    assert_int_equal(hi, 1000);
    assert_true(sum / 200000 > 495 && sum / 200000 < 506);
}

/* sysbench's "special": 75 % of the draws fall in the middle 1 % of the
 * range, the rest is gaussian over the whole range. */
static void test_special_shape(void **state)
{
    rand_cfg c = cfg_for(RAND_SPECIAL);
    rng r;
    int n = 200000, centre = 0;
    rng_seed(&r, 7, 0);
    for (int i = 0; i < n; i++) {
        uint32_t v = rand_default(&r, &c, 1, 1000000);
        assert_true(v >= 1 && v <= 1000000);
        if (v >= 495000 && v <= 505001)
            centre++;
    }
    /* 75 % special + the gaussian's own share of that 1 % window (~3 %) */
    assert_true(centre > n * 0.76 && centre < n * 0.80);
}

static void test_gaussian_and_pareto(void **state)
{
    rand_cfg g = cfg_for(RAND_GAUSSIAN), p = cfg_for(RAND_PARETO);
    rng r;
    int n = 100000, mid = 0, low = 0;
    rng_seed(&r, 3, 0);
    for (int i = 0; i < n; i++) {
        uint32_t v = rand_default(&r, &g, 1, 1000);
        if (v > 400 && v <= 600)
            mid++;
        v = rand_default(&r, &p, 1, 1000);
        assert_true(v >= 1 && v <= 1000);
        if (v <= 200)
            low++;
    }
    /* 12-sample mean: sd = 1000 / sqrt(144) = 83.3 -> |x-500| < 100 is ~77 % */
    assert_true(mid > n * 0.74 && mid < n * 0.80);
    /* pareto h=0.2: 80 % of draws in the first 20 % */
    assert_true(low > n * 0.78 && low < n * 0.82);
}

static void test_zipfian(void **state)
{
    rand_cfg z = cfg_for(RAND_ZIPFIAN);
    rng r;
    int n = 100000, ones = 0, twos = 0;
    rng_seed(&r, 5, 0);
    for (int i = 0; i < n; i++) {
        uint32_t v = rand_default(&r, &z, 1, 1000);
        assert_true(v >= 1 && v <= 1000);
        ones += v == 1;
        twos += v == 2;
    }
    /* P(k) ~ 1/k^0.8: P(1)/P(2) = 2^0.8 = 1.74 */
    assert_true((double)ones / twos > 1.6 && (double)ones / twos < 1.9);
}

static void test_rand_str_and_seed(void **state)
{
    rng a, b;
    char x[24], y[24];
    rng_seed(&a, 42, 1);
    rng_seed(&b, 42, 1);
    rand_str(&a, "###-@@@", x);
    rand_str(&b, "###-@@@", y);
    assert_memory_equal(x, y, 7);
    for (int i = 0; i < 3; i++)
        assert_true(x[i] >= '0' && x[i] <= '9');
    assert_int_equal(x[3], '-');
    for (int i = 4; i < 7; i++)
        assert_true(x[i] >= 'a' && x[i] <= 'z');
    rng_seed(&b, 42, 2);        /* another stream differs */
    assert_true(rng_next(&a) != rng_next(&b));
}

static void test_rand_cfg_rejects(void **state)
{
    rand_cfg c = { .type = RAND_SPECIAL, .spec_iter = 0, .spec_pct = 1, .spec_res = 75,
                   .pareto_h = 0.2, .zipf_exp = 0.8 };
    assert_int_equal(rand_cfg_finish(&c), -1);
    c.spec_iter = 12;
    c.spec_res = 100;
    assert_int_equal(rand_cfg_finish(&c), -1);
}

/* engine_event_threads(requested, nconns, pooled, ncpu) */
static void test_event_threads(void **state)
{
    /* default: one loop per CPU, no more than the connections */
    assert_int_equal(engine_event_threads(0, 1, false, 2), 1);
    assert_int_equal(engine_event_threads(0, 2, false, 2), 2);
    assert_int_equal(engine_event_threads(0, 4, false, 2), 2);
    assert_int_equal(engine_event_threads(0, 64, false, 2), 2);
    assert_int_equal(engine_event_threads(0, 16, false, 64), 16);
    assert_int_equal(engine_event_threads(0, 1000, false, 64), 64);
    assert_int_equal(engine_event_threads(0, 100000, false, 8), 8);
    /* pooled (--rate, terminals): one per 256 connections, at most one per CPU */
    assert_int_equal(engine_event_threads(0, 16, true, 2), 1);
    assert_int_equal(engine_event_threads(0, 256, true, 8), 1);
    assert_int_equal(engine_event_threads(0, 257, true, 8), 2);
    assert_int_equal(engine_event_threads(0, 1024, true, 8), 4);
    assert_int_equal(engine_event_threads(0, 100000, true, 8), 8);
    /* --event-threads=N: N, no more than the connections, CPUs ignored */
    assert_int_equal(engine_event_threads(4, 16, false, 2), 4);
    assert_int_equal(engine_event_threads(4, 16, true, 1), 4);
    assert_int_equal(engine_event_threads(32, 16, false, 2), 16);
    assert_int_equal(engine_event_threads(1, 64, false, 64), 1);
    /* unknown CPU count (sysconf's -1) counts as one CPU */
    assert_int_equal(engine_event_threads(0, 16, false, -1), 1);
    assert_int_equal(engine_event_threads(0, 16, false, 0), 1);
}

/* Run as `sysbench` (any directory), oltp is sysbench 1.0.20 on its
 * command line: its commands, --verbosity, and its messages for bad ones. */
static void test_sysbench_personality(void **state)
{
    oltp_opts o;
    char err[512];

    assert_int_equal(parse_as(&o, "/usr/local/bin/sysbench", "oltp_read_write run", err, sizeof err), 0);
    assert_true(o.sysbench_personality);
    assert_int_equal(o.verbosity, 3);
    assert_false(o.bulk);                   /* sysbench's INSERT batches */
    assert_int_equal(parse(&o, "oltp_read_write run", err, sizeof err), 0);
    assert_false(o.sysbench_personality);
    assert_true(o.bulk);
    assert_int_equal(parse_as(&o, "sysbench", "--verbosity=1 --pgsql-variant=redshift --thread-stack-size=64K "
                              "oltp_read_write prewarm", err, sizeof err), 0);
    assert_int_equal(o.verbosity, 1);
    assert_string_equal(o.command, "prewarm");
    assert_int_equal(parse_as(&o, "sysbench", "--num-threads=3 --max-requests=7 --max-time=5 --tx-rate=9 "
                              "oltp_read_write run", err, sizeof err), 0);
    assert_int_equal(o.threads, 3);
    assert_int_equal(o.events, 7);
    assert_true(o.time_s == 5 && o.rate == 9);
    assert_int_equal(parse(&o, "oltp_delete help", err, sizeof err), 0);
    assert_string_equal(o.command, "help");

    assert_int_equal(parse_as(&o, "sysbench", "--verbosity=6 oltp_read_write run", err, sizeof err), -1);
    assert_string_equal(err, "FATAL: --verbosity=6: out of range [0, 5]\n");
    assert_int_equal(parse_as(&o, "sysbench", "--bogus=1 oltp_read_write run", err, sizeof err), -1);
    assert_string_equal(err, "invalid option: --bogus=1\n");
    assert_int_equal(parse(&o, "--bogus=1 oltp_read_write run", err, sizeof err), -1);
    assert_string_equal(err, "oltp: unknown option '--bogus' (see oltp --help)\n");
    assert_int_equal(parse_as(&o, "sysbench", "oltp_read_write", err, sizeof err), -1);
    assert_string_equal(err, "FATAL: Command is required. Supported commands: prepare, prewarm, run, cleanup, help\n");
    assert_int_equal(parse_as(&o, "sysbench", "oltp_read_write bogus", err, sizeof err), -1);
    assert_string_equal(err, "Unknown command: bogus\n");
    assert_int_equal(parse(&o, "oltp_read_write bogus", err, sizeof err), -1);
    assert_string_equal(err, "oltp: unknown command 'bogus': expected prepare, prewarm, run, cleanup, check or help\n");
}

/* sysbench's --config-file (an option a line) and its old --test=NAME. */
static void test_config_file_and_test(void **state)
{
    oltp_opts o;
    char err[512], line[600], path[] = "/tmp/oltp-unit-cfg.XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");

    fputs("# sysbench options\n  threads=4\n\ntable_size=77 \r\nmysql-host=db.example\n", f);
    fclose(f);
    snprintf(line, sizeof line, "--config-file=%s --threads=2 oltp_read_write run", path);
    assert_int_equal(parse_as(&o, "sysbench", line, err, sizeof err), 0);
    assert_int_equal(o.threads, 2);         /* the command line's, after the file */
    assert_int_equal(o.table_size, 77);
    assert_string_equal(o.db.host, "db.example");
    f = fopen(path, "w");
    fputs("tables=3\nbogus=1\n", f);
    fclose(f);
    snprintf(line, sizeof line, "--config-file=%s oltp_read_write run", path);
    assert_int_equal(parse_as(&o, "sysbench", line, err, sizeof err), -1);
    assert_string_equal(err, "invalid option: --bogus=1\n");
    unlink(path);
    snprintf(line, sizeof line, "--config-file=%s oltp_read_write run", path);
    assert_int_equal(parse(&o, line, err, sizeof err), -1);
    snprintf(line, sizeof line, "oltp: --config-file=%s: No such file or directory\n", path);
    assert_string_equal(err, line);
    /* a file that never ends or is no file: one line, nothing read forever */
    assert_int_equal(parse(&o, "--config-file=/dev/zero oltp_read_write run", err, sizeof err), -1);
    assert_string_equal(err, "oltp: --config-file=/dev/zero: larger than 1024 KiB: not a config "
                        "file\n");
    assert_int_equal(parse(&o, "--config-file=/tmp oltp_read_write run", err, sizeof err), -1);
    assert_string_equal(err, "oltp: --config-file=/tmp: Is a directory\n");
    /* the last line needs no line end */
    f = fopen(path, "w");
    fputs("tables=3\n\tthreads=5", f);
    fclose(f);
    snprintf(line, sizeof line, "--config-file=%s oltp_read_write run", path);
    assert_int_equal(parse(&o, line, err, sizeof err), 0);
    assert_int_equal(o.tables, 3);
    assert_int_equal(o.threads, 5);
    unlink(path);

    assert_int_equal(parse(&o, "--test=/usr/share/sysbench/oltp_insert.lua --threads=2 run", err, sizeof err), 0);
    assert_string_equal(o.workload, "/usr/share/sysbench/oltp_insert.lua");
    assert_string_equal(o.command, "run");
}

/* A test named as sysbench names it: a workload, or its script's path. */
static void test_find_test(void **state)
{
    assert_ptr_equal(workload_find_test("/usr/share/sysbench/oltp_read_write.lua"), workload_find("oltp_read_write"));
    assert_ptr_equal(workload_find_test("../lua/oltp_point_select"), workload_find("oltp_point_select"));
    assert_ptr_equal(workload_find_test("oltp_delete.lua"), workload_find("oltp_delete"));
    assert_non_null(workload_find("oltp_delete"));
    assert_null(workload_find_test("oltp_delete.lua.lua"));
    assert_null(workload_find_test("/usr/share/sysbench/select_random_points.lua"));
    assert_null(workload_find_test(".lua"));
    assert_true(workload_is_sysbench(workload_find_test("oltp_insert")));
    assert_false(workload_is_sysbench(workload_find_test("tpcc")));
}

/* `help`: the options of sysbench's OLTP scripts, laid out as sysbench's. */
static void test_script_help(void **state)
{
    char buf[8192] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    opts_script_help(f, "oltp_read_write.lua");
    fclose(f);
    assert_non_null(strstr(buf, "oltp_read_write.lua options:\n"
        "  --auto_inc[=on|off]           Use AUTO_INCREMENT column as Primary Key (for MySQL), or its alternatives "
        "in other DBMS. When disabled, use client-generated IDs [on]\n"));
    assert_non_null(strstr(buf, "\n  --mysql_storage_engine=STRING Storage engine, if MySQL is used [innodb]\n"));
    assert_non_null(strstr(buf, "\n  --tables=N                    Number of tables [1]\n\n"));
    assert_int_equal(strlen(strstr(buf, "  --tables=N")), strlen("  --tables=N                    Number of tables [1]\n\n"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_match_sysbench),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_password_from_environment),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_uniform_bounds_and_mean),
        cmocka_unit_test(test_special_shape),
        cmocka_unit_test(test_gaussian_and_pareto),
        cmocka_unit_test(test_zipfian),
        cmocka_unit_test(test_rand_str_and_seed),
        cmocka_unit_test(test_rand_cfg_rejects),
        cmocka_unit_test(test_event_threads),
        cmocka_unit_test(test_sysbench_personality),
        cmocka_unit_test(test_find_test),
        cmocka_unit_test(test_config_file_and_test),
        cmocka_unit_test(test_script_help),
    };
    return cmocka_run_group_tests_name("oltp", tests, NULL, NULL);
}
