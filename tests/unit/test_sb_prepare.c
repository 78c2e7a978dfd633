/*
 * Unit tests of what oltp takes from sysbench 1.0.20 for prepare and the
 * statement protocol: --db-ps-mode and --mysql-dry-run as parsed, the
 * bulk default of each personality (run as `sysbench`: INSERT batches),
 * and the text --db-ps-mode=disable sends (db_inline_params). The servers'
 * side is tests/integration/oltp_sysbench_prepare.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "drivers/db.h"
#include "options/options.h"

/* Parse argv0 and the words of line; stderr text goes to err. */
static int parse_as(oltp_opts *o, const char *argv0, const char *line, char *err, size_t errlen)
{
    static char buf[1024];              /* the options point into it */
    char *argv[64], *save, *tok;
    int argc = 0, r;
    FILE *f = fmemopen(err, errlen, "w");

    snprintf(buf, sizeof buf, "%s %s", argv0, line);
    for (tok = strtok_r(buf, " ", &save); tok && argc < 63; tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    memset(err, 0, errlen);
    r = opts_parse(o, argc, argv, f);
    fclose(f);
    return r;
}

static void test_ps_mode_and_dry_run(void **state)
{
    oltp_opts o;
    char err[512];
    assert_int_equal(parse_as(&o, "oltp", "oltp_read_write run", err, sizeof err), 0);
    assert_int_equal(o.db.ps_mode, DB_PS_AUTO);
    assert_false(o.db.dry_run);
    assert_int_equal(parse_as(&o, "oltp", "--db-ps-mode=disable --mysql-dry-run oltp_read_write run",
                              err, sizeof err), 0);
    assert_int_equal(o.db.ps_mode, DB_PS_DISABLE);
    assert_true(o.db.dry_run);
    assert_int_equal(parse_as(&o, "oltp", "--db-ps-mode=auto --mysql-dry-run=off oltp_read_write run",
                              err, sizeof err), 0);
    assert_int_equal(o.db.ps_mode, DB_PS_AUTO);
    assert_false(o.db.dry_run);
}

static void test_bad_ps_mode(void **state)
{
    static const struct { const char *line, *msg; } cases[] = {
        {"--db-ps-mode=off oltp_read_write run", "oltp: --db-ps-mode=off: expected auto or disable\n"},
        {"--db-ps-mode oltp_read_write run", "oltp: option '--db-ps-mode' needs a value: --db-ps-mode=VALUE\n"},
        {"--db-driver=pgsql --db-ps-mode=disable --pipeline=on oltp_read_write run",
         "oltp: --db-ps-mode=disable and --pipeline=on: the simple query protocol cannot be pipelined "
         "(libpq); choose one\n"},
        {"--db-driver=odbc --odbc-dsn=x --db-ps-mode=disable oltp_read_write run",
         "oltp: --db-ps-mode=disable is not available with --db-driver=odbc: only the mysql and pgsql "
         "drivers send statements as text\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        oltp_opts o;
        char err[512];
        assert_int_equal(parse_as(&o, "oltp", cases[i].line, err, sizeof err), -1);
        assert_string_equal(err, cases[i].msg);
    }
}

/* As `sysbench`, prepare sends INSERT batches unless --bulk is given; as
 * oltp the bulk path stays the default. */
static void test_bulk_default_per_personality(void **state)
{
    static const struct { const char *argv0, *line; bool personality, bulk; } cases[] = {
        {"oltp", "oltp_read_write prepare", false, true},
        {"/usr/local/bin/oltp", "--bulk=off oltp_read_write prepare", false, false},
        {"sysbench", "oltp_read_write prepare", true, false},
        {"/usr/local/bin/sysbench", "oltp_read_write prepare", true, false},
        {"sysbench", "--bulk=on oltp_read_write prepare", true, true},
        {"sysbench", "--bulk oltp_read_write prepare", true, true},
        {"./sysbench-1", "oltp_read_write prepare", false, true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        oltp_opts o;
        char err[512];
        assert_int_equal(parse_as(&o, cases[i].argv0, cases[i].line, err, sizeof err), 0);
        assert_int_equal(o.sysbench_personality, cases[i].personality);
        assert_int_equal(o.bulk, cases[i].bulk);
    }
}

/* A stand-in for the client library's escaping: doubles single quotes. */
static size_t double_quotes(void *ctx, char *out, const char *s, size_t len)
{
    size_t o = 0;
    (*(int *)ctx)++;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\'')
            out[o++] = '\'';
        out[o++] = s[i];
    }
    out[o] = 0;
    return o;
}

static void test_inline_params(void **state)
{
    const db_value v[] = { db_int(-2147483648LL), db_str("it's", 4), db_dbl(0.1),
                           { .type = DB_T_NULL }, db_str("", 0) };
    int calls = 0;
    size_t len = 0;
    char *sql = db_inline_params("UPDATE t SET c=?, x='?', \"q?\"=? WHERE id=? AND n=? AND e=?",
                                 v, 5, double_quotes, &calls, &len);
    const char *want = "UPDATE t SET c=-2147483648, x='?', \"q?\"='it''s' WHERE id=0.10000000000000001 "
                       "AND n=NULL AND e=''";

    assert_non_null(sql);
    assert_string_equal(sql, want);
    assert_int_equal(len, strlen(want));
    assert_int_equal(calls, 2);             /* the library escapes every string value */
    free(sql);
    /* a statement of sysbench's, as --db-ps-mode=disable sends it */
    sql = db_inline_params("SELECT c FROM sbtest3 WHERE id BETWEEN ? AND ?", v, 2, double_quotes, &calls, &len);
    assert_non_null(sql);
    assert_string_equal(sql, "SELECT c FROM sbtest3 WHERE id BETWEEN -2147483648 AND 'it''s'");
    free(sql);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ps_mode_and_dry_run),
        cmocka_unit_test(test_bad_ps_mode),
        cmocka_unit_test(test_bulk_default_per_personality),
        cmocka_unit_test(test_inline_params),
    };
    return cmocka_run_group_tests_name("sb_prepare", tests, NULL, NULL);
}
