/* Plan parsing and every validation error, compared exactly. Runs from
 * the repository root (templates come from vmconfigs/). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan/plan.h"
#include "util/util.h"

#define RUN_OK  "[run]\nname = Test Plan\nuri = test:///default\nprofile = tiny\n" \
                "vmconfigs_dir = vmconfigs\nimage_dir = /srv/images\n"
#define WL_OK   "[workload]\nname = oltp_read_write\ntables = 2\ntable_size = 10000\n" \
                "threads = 4\nmeasure = 10s\n"
#define DRIVE_OK "[drive d1]\npath = /srv/d1\n"

/* Load text as a plan; *errors gets what was reported with the temp file
 * name replaced by PLAN (caller frees). */
static orch_plan *load(const char *text, char **errors)
{
    char path[] = "/tmp/orch-plan-XXXXXX";
    int fd = mkstemp(path);
    char *buf = NULL, *out, *w;
    size_t len = 0, plen = strlen(path);
    FILE *errs = open_memstream(&buf, &len);
    orch_plan *p;
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    p = orch_plan_load(path, errs);
    fclose(errs);
    unlink(path);
    out = calloc(1, len + 1);
    w = out;
    for (char *r = buf; *r;) {
        if (strncmp(r, path, plen) == 0) {
            memcpy(w, "PLAN", 4);
            w += 4;
            r += plen;
        } else {
            *w++ = *r++;
        }
    }
    free(buf);
    *errors = out;
    return p;
}

static void test_valid_plan(void **state)
{
    char *errs;
    orch_plan *p = load(RUN_OK "vms_per_drive = 3\nrepetitions = 2\nmemory = 2G\n"
                        "boot_timeout = 1h30m\nport_base = 40000\n"
                        WL_OK "precondition = 2h\nwarmup = 30s\nrate = 12.5\nextra = --rand-type=uniform\n"
                        "[drive nvme 0]\npath = /mnt/nvme0\n"
                        "[drive sata]\npool = fast ; an existing pool\nvms = 1\nuri = test:///default\n",
                        &errs);
    (void)state;
    assert_string_equal(errs, "");
    assert_non_null(p);
    assert_string_equal(p->name, "Test Plan");
    assert_string_equal(p->template_path, "vmconfigs/tiny.xml");
    assert_int_equal(p->vms_per_drive, 3);
    assert_int_equal(p->repetitions, 2);
    assert_int_equal(p->memory, 2ULL << 30);
    assert_int_equal(p->boot_timeout_s, 5400);
    assert_int_equal(p->port_base, 40000);
    assert_int_equal(p->client, ORCH_CLIENT_HOST);
    assert_string_equal(p->image_dir, "/srv/images");
    assert_int_equal(p->precondition_s, 7200);
    assert_int_equal(p->warmup_s, 30);
    assert_int_equal(p->measure_s, 10);
    assert_true(p->rate == 12.5);
    assert_int_equal(p->table_size, 10000);
    assert_string_equal(p->extra, "--rand-type=uniform");
    assert_string_equal(p->db_user, "drivebench");
    assert_int_equal(p->ndrives, 2);
    assert_string_equal(p->drives[0].name, "nvme 0");
    assert_string_equal(p->drives[0].id, "nvme-0");
    assert_string_equal(p->drives[0].path, "/mnt/nvme0");
    assert_int_equal(p->drives[0].line, 22);
    assert_string_equal(p->drives[1].pool, "fast");
    assert_int_equal(orch_plan_drive_vms(p, &p->drives[0]), 3);
    assert_int_equal(orch_plan_drive_vms(p, &p->drives[1]), 1);
    assert_int_equal(orch_plan_total_vms(p), 4);
    orch_plan_free(p);
    free(errs);
}

/* client = guest reaches drives on other hosts through the guest agent */
static void test_guest_client_remote_drive(void **state)
{
    char *errs;
    orch_plan *p = load(RUN_OK "client = guest\n" WL_OK
                        "[drive far]\npath = /a\nuri = qemu+ssh://host2/system\n", &errs);
    (void)state;
    assert_string_equal(errs, "");
    assert_non_null(p);
    assert_int_equal(p->client, ORCH_CLIENT_GUEST);
    assert_string_equal(orch_plan_drive_uri(p, &p->drives[0]), "qemu+ssh://host2/system");
    assert_string_equal(p->guest_oltp, "/usr/local/bin/oltp");
    orch_plan_free(p);
    free(errs);
}

/* network = passt with a client-first engine (PostgreSQL), the passt
 * program found by path */
static void test_passt_network(void **state)
{
    char *errs;
    orch_plan *p = load(RUN_OK "engine = postgresql\nnetwork = passt\npasst = /bin/true\n" WL_OK
                        DRIVE_OK, &errs);
    (void)state;
    assert_string_equal(errs, "");
    assert_non_null(p);
    assert_int_equal(p->network, ORCH_NET_PASST);
    assert_string_equal(p->passt, "/bin/true");
    orch_plan_free(p);
    free(errs);
    p = load(RUN_OK WL_OK DRIVE_OK, &errs);
    assert_string_equal(errs, "");
    assert_int_equal(p->network, ORCH_NET_USER);
    assert_string_equal(p->passt, "passt");
    orch_plan_free(p);
    free(errs);
}

static void test_shipped_plans(void **state)
{
    const char *plans[] = { "plans/tiny.ini", "plans/quick.ini", "plans/sysbench-8x1.ini",
                            "plans/sysbench-4on1.ini", "plans/sqlserver-tpcc.ini" };
    const int vms[] = { 1, 2, 8, 4, 4 };
    (void)state;
    for (size_t i = 0; i < sizeof plans / sizeof plans[0]; i++) {
        orch_plan *p = orch_plan_load(plans[i], stderr);
        assert_non_null(p);
        assert_int_equal(orch_plan_total_vms(p), vms[i]);
        /* issue 45: the reference plans keep the VMs' network path out of
         * the limit at the published loads (the arithmetic in their
         * comments): sysbench's client in the guest, SQL Server's TPC-C
         * one procedure call a transaction */
        if (strstr(plans[i], "sysbench-"))
            assert_int_equal(p->client, ORCH_CLIENT_GUEST);
        if (strstr(plans[i], "sqlserver-"))
            assert_non_null(strstr(p->extra, "--tpcc-procedures=on"));
        orch_plan_free(p);
    }
}

typedef struct bad_case {
    const char *text;
    const char *errors;
} bad_case;

static const bad_case bad_cases[] = {
    { "", "PLAN:1: no [run] section\nPLAN:1: no [workload] section\n"
          "PLAN:1: no [drive NAME] section: name at least one drive under test\n" },
    { RUN_OK "colour = blue\n" WL_OK DRIVE_OK, "PLAN:7: [run] unknown key 'colour'\n" },
    { RUN_OK "name = again\n" WL_OK DRIVE_OK, "PLAN:7: [run] name given twice (first at line 2)\n" },
    { RUN_OK "vms_per_drive = 0\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] vms_per_drive: 0 is out of range 1..64\n" },
    { RUN_OK "repetitions = two\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] repetitions: 'two' is not a whole number or auto\n" },
    { RUN_OK "client = vm\n" WL_OK DRIVE_OK, "PLAN:7: [run] client: 'vm' is not one of host|guest\n" },
    { RUN_OK "domain_type = xen\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] domain_type: 'xen' is not one of auto|kvm|qemu\n" },
    { RUN_OK "memory = lots\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] memory: 'lots' is not a size like 4G, 512M\n" },
    { RUN_OK "boot_timeout = 5 minutes\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] boot_timeout: '5 minutes' is not a duration like 2h, 30m, 10s (1..86400 s)\n" },
    { RUN_OK "port_base = 65535\nvms_per_drive = 2\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] port_base 65535 leaves no room for 2 VMs\n" },
    { RUN_OK "cv_threshold = -1\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] cv_threshold: '-1' is not a number in 0..1000\n" },
    { "[run]\nuri = test:///default\nprofile = tiny\nvmconfigs_dir = vmconfigs\n" WL_OK DRIVE_OK,
      "PLAN:1: [run] name is missing\n" },
    { "[run]\nname = !!!\nprofile = tiny\nvmconfigs_dir = vmconfigs\n" WL_OK DRIVE_OK,
      "PLAN:2: [run] name '!!!' has no letter or digit to build a run id from\n" },
    { "[run]\nname = x\nvmconfigs_dir = vmconfigs\n" WL_OK DRIVE_OK,
      "PLAN:1: [run] profile is missing (tiny, sysbench, sqlserver or a template .xml path)\n" },
    { "[run]\nname = x\nprofile = huge\nvmconfigs_dir = vmconfigs\n" WL_OK DRIVE_OK,
      "PLAN:3: [run] profile huge: cannot read template vmconfigs/huge.xml: "
      "No such file or directory\n" },
    /* a template path that names no regular file is refused unread: a
     * device, a folder (a pipe: test_template_not_regular) */
    { "[run]\nname = x\nprofile = /dev/null\n" WL_OK DRIVE_OK,
      "PLAN:3: [run] profile /dev/null: cannot read template /dev/null: not a regular file "
      "(a device)\n" },
    { "[run]\nname = x\nprofile = tests/\n" WL_OK DRIVE_OK,
      "PLAN:3: [run] profile tests/: cannot read template tests/: not a regular file "
      "(a folder)\n" },
    { "[run]\nname = x\nprofile = tests/orchestrator/test_plan.c\n" WL_OK DRIVE_OK,
      "PLAN:3: [run] profile tests/orchestrator/test_plan.c: cannot load template "
      "tests/orchestrator/test_plan.c: Start tag expected, '<' not found\n" },
    { RUN_OK "[workload]\nname = oltp_read_write\ntables = 2\ntable_size = 10\n" DRIVE_OK,
      "PLAN:7: [workload] measure is missing (a duration like 1h, 30m, 10s)\n" },
    { RUN_OK "[workload]\nname = oltp_rw\nmeasure = 1m\n" DRIVE_OK,
      "PLAN:8: [workload] name: 'oltp_rw' is not one of oltp_read_write|oltp_read_only|"
      "oltp_write_only|oltp_point_select|oltp_update_index|oltp_update_non_index|"
      "oltp_insert|oltp_delete|tpcc\n" },
    { RUN_OK "[workload]\nname = oltp_read_write\nmeasure = 1m\n" DRIVE_OK,
      "PLAN:8: [workload] oltp_read_write needs tables and table_size\n" },
    { RUN_OK "[workload]\nname = tpcc\nmeasure = 1m\n" DRIVE_OK,
      "PLAN:8: [workload] tpcc needs warehouses\n" },
    { RUN_OK WL_OK "warehouses = 10\n" DRIVE_OK,
      "PLAN:13: [workload] warehouses applies to tpcc only\n" },
    { RUN_OK WL_OK "measure = 0s\n" DRIVE_OK,
      "PLAN:13: [workload] measure given twice (first at line 12)\n" },
    { RUN_OK WL_OK "precondition = 1d\n" DRIVE_OK,
      "PLAN:13: [workload] precondition: '1d' is not a duration like 2h, 30m, 10s "
      "(0..604800 s) or until-steady\n" },
    /* issue 21: steady state that could never be seen, a maximum for a
     * fixed time, repetitions = auto with min above max */
    { RUN_OK WL_OK "precondition = until-steady\nsteady_round = 1m\nprecondition_max = 4m\n"
      DRIVE_OK,
      "PLAN:15: [workload] precondition_max 240 s is shorter than steady_window (5) rounds "
      "of steady_round (60 s): steady state could never be seen\n" },
    { RUN_OK WL_OK "precondition = 1m\nprecondition_max = 4m\n" DRIVE_OK,
      "PLAN:14: [workload] precondition_max applies to precondition = until-steady only\n" },
    { RUN_OK "repetitions = auto\nrepetitions_min = 5\nrepetitions_max = 4\n" WL_OK DRIVE_OK,
      "PLAN:8: [run] repetitions_min 5 is above repetitions_max 4\n" },
    { RUN_OK WL_OK "db_driver = pgsql\n" DRIVE_OK,
      "PLAN:13: [workload] db_driver pgsql: engine mariadb is reached through mysql|odbc\n" },
    { RUN_OK WL_OK "[drive d1]\n", "PLAN:13: [drive d1] has no keys: give it path or pool\n" },
    { RUN_OK WL_OK "[drive d1]\npath = /a\npool = p\n",
      "PLAN:13: [drive d1] needs exactly one of path (a directory) or pool "
      "(an existing storage pool)\n" },
    { RUN_OK WL_OK "[drive d1]\npath = rel/dir\n",
      "PLAN:14: [drive d1] path 'rel/dir' must be absolute\n" },
    { RUN_OK WL_OK "[drive d1]\npath = /a\nspeed = fast\n",
      "PLAN:15: [drive d1] unknown key 'speed'\n" },
    { RUN_OK WL_OK "[drive ***]\npath = /a\n",
      "PLAN:13: [drive ***] name has no letter or digit\n" },
    { RUN_OK WL_OK "[drive Fast Disk]\npath = /a\n[drive fast-disk]\npath = /b\n",
      "PLAN:15: [drive fast-disk] and [drive Fast Disk] (line 13) both become 'fast-disk' "
      "in object names; rename one\n" },
    { RUN_OK WL_OK DRIVE_OK "[drive d1]\npath = /b\n",
      "PLAN:15: section [drive d1] appears twice (first at line 13)\n"
      "PLAN:16: [drive d1] path given twice (first at line 14)\n" },
    { RUN_OK WL_OK "[drive far]\npath = /a\nuri = qemu+ssh://host2/system\n",
      "PLAN:15: [drive far] is on another host (qemu+ssh://host2/system): client = host "
      "reaches VMs only through this host's loopback\n" },
    { RUN_OK WL_OK DRIVE_OK "[drives]\npath = /a\n",
      "PLAN:15: unknown section [drives] (expected [run], [workload], [engine], [settings] or [drive NAME])\n" },
    /* [engine]'s file sizes: TPC-C on a T-SQL engine, whole MiB */
    { RUN_OK WL_OK DRIVE_OK "[engine]\ndata_size = 10G\n",
      "PLAN:16: [engine] data_size: the files are sized by TPC-C's prepare: it applies to workload "
      "tpcc only\n" },
    { RUN_OK "[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 1s\n[engine]\nlog_growth = 1G\n"
      DRIVE_OK,
      "PLAN:12: [engine] log_growth sizes SQL Server's database files (ALTER DATABASE ... MODIFY "
      "FILE): engine mariadb has none\n" },
    { "[run]\nname = x\nengine = babelfish\nprofile = tiny\nvmconfigs_dir = vmconfigs\n"
      "[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 1s\n[engine]\ndata_size = 1500K\n"
      "log_size = 0\n" DRIVE_OK,
      "PLAN:11: [engine] data_size: SQL Server sizes files in whole MiB: give a multiple of 1M up "
      "to 1000000000M\nPLAN:12: [engine] log_size: '0' is not a size like 4G, 512M\n" },
    { RUN_OK WL_OK DRIVE_OK "[engine]\nsettings = x\n", "PLAN:16: [engine] unknown key 'settings'\n" },
    { RUN_OK WL_OK DRIVE_OK "[extra\n",
      "PLAN:15: section header has no closing ']'\n" },
    { RUN_OK WL_OK DRIVE_OK "just words\n", "PLAN:15: expected 'key = value', got 'just words'\n" },
    /* [run] db_settings: NAME=VALUE words of safe characters, each once,
     * for an engine whose image reads them */
    { RUN_OK "db_settings = innodb_buffer_pool_size='24G'\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] db_settings: 'innodb_buffer_pool_size='24G'' is not NAME=VALUE (settings "
      "are separated by spaces; NAME of letters, digits, '_', '.', '-'; VALUE of those and ',', "
      "':', '/', '%', '+'): the kernel command line that carries it has no quoting\n" },
    { RUN_OK "db_settings = max_connections=64 log bin=1\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] db_settings: 'log' is not NAME=VALUE (settings are separated by spaces; "
      "NAME of letters, digits, '_', '.', '-'; VALUE of those and ',', ':', '/', '%', '+'): "
      "the kernel command line that carries it has no quoting\n" },
    { RUN_OK "db_settings = a\\b=1\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] db_settings: 'a\\b=1' is not NAME=VALUE (settings are separated by "
      "spaces; NAME of letters, digits, '_', '.', '-'; VALUE of those and ',', ':', '/', '%', "
      "'+'): the kernel command line that carries it has no quoting\n" },
    { RUN_OK "db_settings = max_connections=64  innodb_log_file_size=1G max_connections=32\n"
      WL_OK DRIVE_OK, "PLAN:7: [run] db_settings: max_connections is given twice\n" },
    { "[run]\nname = x\nengine = sqlserver\nimage = /srv/mssql.qcow2\nprofile = sqlserver\n"
      "vmconfigs_dir = vmconfigs\ndb_settings = max_server_memory=49152\n"
      "[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 1s\nprepare = yes\n" DRIVE_OK,
      "PLAN:7: [run] db_settings: SQL Server takes its server settings from the image itself, "
      "not from drivebench: bake them into the image (images/README.md, \"Server settings\")\n" },
    { RUN_OK "image = /srv/my-mariadb.qcow2\ndb_settings = max_connections=64\n" WL_OK DRIVE_OK,
      "PLAN:8: [run] db_settings: a user's image ([run] image) takes its server settings from "
      "the image itself, not from drivebench: bake them into the image (images/README.md, "
      "\"Server settings\")\n" },
    /* [settings] (issue 44): the engine's own names, each once, with a
     * value; on drivebench's images what the kernel command line carries,
     * on a user's image what oltp settings quotes */
    { RUN_OK WL_OK DRIVE_OK "[settings]\ninnodb_buffer_pool_size = 24G\nINNODB_BUFFER_POOL_SIZE = 1G\n",
      "PLAN:17: [settings] INNODB_BUFFER_POOL_SIZE given twice (first at line 16)\n" },
    { RUN_OK WL_OK DRIVE_OK "[settings]\ninnodb_flush_method =\n",
      "PLAN:16: [settings] innodb_flush_method has no value\n" },
    /* a line without a name (a fuzzer's find: it once looped for ever) */
    { RUN_OK WL_OK DRIVE_OK "[settings]\n:///system\n= 5\n",
      "PLAN:16: [settings] a setting without a name: give NAME = VALUE\n"
      "PLAN:17: [settings] a setting without a name: give NAME = VALUE\n" },
    { RUN_OK WL_OK DRIVE_OK "[settings]\nmax server memory = 49152\n",
      "PLAN:16: [settings] max server memory = 49152: a NAME of letters, digits, '_', '.', '-' "
      "and a VALUE of those and ',', ':', '/', '%', '+' (the kernel command line that carries "
      "it to the guest has no quoting)\n" },
    { RUN_OK "db_settings = innodb_buffer_pool_size=1G\n" WL_OK DRIVE_OK
      "[settings]\ninnodb_buffer_pool_size = 24G\n",
      "PLAN:17: [settings] innodb_buffer_pool_size is also in [run] db_settings: give it once\n" },
    { "[run]\nname = x\nengine = sqlserver\nimage = /srv/mssql.qcow2\nprofile = sqlserver\n"
      "vmconfigs_dir = vmconfigs\n"
      "[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 1s\nprepare = yes\n" DRIVE_OK
      "[settings]\nmax server memory = 49'152\n",
      "PLAN:15: [settings] max server memory = 49'152: a NAME and VALUE of letters, digits, "
      "spaces, '_', '.', '-', '(' and ')'\n" },
    { RUN_OK "settings_mismatch = ignore\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] settings_mismatch: 'ignore' is not one of refuse|warn\n" },
    { RUN_OK "engine = mysql\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] engine mysql: drivebench builds no image of it; set [run] image = "
      "PATH.qcow2 (images/README.md gives the contract)\n" },
    { RUN_OK "engine = mysql\nimage = /srv/mysql8.qcow2\n" WL_OK "db_driver = pgsql\n" DRIVE_OK,
      "PLAN:15: [workload] db_driver pgsql: engine mysql is reached through mysql|odbc\n" },
    /* found by tests/fuzz/fuzz_render: names that XML cannot carry back
     * (any line that is not UTF-8 is refused as it is read, issue 43) */
    { RUN_OK WL_OK "[drive \xf8!x]\npath = /a\n",
      "PLAN:13: not UTF-8 (byte 0xF8 at column 8)\n" },
    { RUN_OK WL_OK "[drive a\x01b]\npath = /a\n",
      "PLAN:13: drive name is not UTF-8 text (or holds a control character)\n" },
    { RUN_OK WL_OK DRIVE_OK "[drive d2]\npath = /a\x01b\n",
      "PLAN:16: [drive d2] path: the value is not UTF-8 text (or holds a control character)\n" },
    { RUN_OK WL_OK "db_user = \xed\xa0\x80\n" DRIVE_OK,
      "PLAN:13: not UTF-8 (byte 0xED at column 11)\n" },
    /* network = passt (issue 33): client = host only, a client-first
     * engine, the passt program; passt alone needs network = passt */
    { RUN_OK "network = passt\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] network = passt cannot serve engine mariadb: its server speaks first "
      "on a new connection, and Debian 12's passt (0.0~git20230309) never completes such a "
      "handshake (the guest's SYN-ACK is not acknowledged until the client sends data); use "
      "network = user (README, the guest network)\n" },
    { RUN_OK "engine = postgresql\nnetwork = passt\nclient = guest\n" WL_OK DRIVE_OK,
      "PLAN:8: [run] network = passt is how client = host reaches the VMs; client = guest "
      "runs oltp inside each guest and uses no host network: leave network out\n" },
    { RUN_OK "engine = postgresql\nnetwork = passt\npasst = /nonexistent/passt\n" WL_OK
      DRIVE_OK, "PLAN:9: [run] network = passt needs the passt program, and "
      "'/nonexistent/passt' is not found or not executable (apt-get install passt)\n" },
    { RUN_OK "engine = postgresql\npasst = /usr/bin/passt\n" WL_OK DRIVE_OK,
      "PLAN:8: [run] passt applies to network = passt only\n" },
    { RUN_OK "network = slirp\n" WL_OK DRIVE_OK,
      "PLAN:7: [run] network: 'slirp' is not one of user|passt\n" },
    /* [workload] extra (issue 43): no secret, none of drivebench's own
     * options (the last value wins in oltp), any case of PWD=/Password= */
    { RUN_OK WL_OK "extra = --rand-type=uniform --mysql-password=S3cret\n" DRIVE_OK,
      "PLAN:13: [workload] extra: --mysql-password carries a password, which would stand in "
      "`ps` and in every file of the run: use [workload] db_password_file (or "
      "db_password_env)\n" },
    { RUN_OK WL_OK "extra = --pgsql_password=S\n" DRIVE_OK,
      "PLAN:13: [workload] extra: --pgsql-password carries a password, which would stand in "
      "`ps` and in every file of the run: use [workload] db_password_file (or "
      "db_password_env)\n" },
    { RUN_OK WL_OK "extra = --odbc-connect=Driver=FreeTDS;Server=h;pWd=S\n" DRIVE_OK,
      "PLAN:13: [workload] extra: --odbc-connect carries a password, which would stand in "
      "`ps` and in every file of the run: use [workload] db_password_file (or "
      "db_password_env)\n" },
    { RUN_OK WL_OK "extra = --odbc-connect=Driver=FreeTDS;PASSWORD={S}\n" DRIVE_OK,
      "PLAN:13: [workload] extra: --odbc-connect carries a password, which would stand in "
      "`ps` and in every file of the run: use [workload] db_password_file (or "
      "db_password_env)\n" },
    { RUN_OK WL_OK "extra = --odbc-connect=Driver=FreeTDS;Server=h\n" DRIVE_OK,
      "PLAN:13: [workload] extra: --odbc-connect is set by drivebench, and oltp would take "
      "extra's instead: use [workload] odbc_driver, encrypt, trust_server_certificate and "
      "db_name\n" },
    { RUN_OK WL_OK "extra = --time=5 --json=/tmp/x.json --mysql-port=3306 --threads=64\n"
      DRIVE_OK,
      "PLAN:13: [workload] extra: --time is set by drivebench, and oltp would take extra's "
      "instead: use [workload] measure (and warmup)\n"
      "PLAN:13: [workload] extra: --json is set by drivebench, and oltp would take extra's "
      "instead: drivebench keeps each VM's result in the run folder (no key)\n"
      "PLAN:13: [workload] extra: --mysql-port is set by drivebench, and oltp would take "
      "extra's instead: use [run] port_base\n"
      "PLAN:13: [workload] extra: --threads is set by drivebench, and oltp would take extra's "
      "instead: use [workload] threads\n" },
    { RUN_OK WL_OK "extra = --mysql-host=10.0.0.1 --table_size=5 --mysql-user=root\n" DRIVE_OK,
      "PLAN:13: [workload] extra: --mysql-host is set by drivebench, and oltp would take "
      "extra's instead: drivebench reaches each VM on 127.0.0.1 ([run] port_base sets its "
      "ports)\n"
      "PLAN:13: [workload] extra: --table-size is set by drivebench, and oltp would take "
      "extra's instead: use [workload] table_size\n"
      "PLAN:13: [workload] extra: --mysql-user is set by drivebench, and oltp would take "
      "extra's instead: use [workload] db_user\n" },
};

static void test_every_error(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        char *errs;
        orch_plan *p = load(bad_cases[i].text, &errs);
        if (strcmp(errs, bad_cases[i].errors) != 0)
            print_error("case %zu:\n%s", i, bad_cases[i].text);
        assert_string_equal(errs, bad_cases[i].errors);
        assert_null(p);
        free(errs);
    }
}

/* db_settings become the engine's kernel command line words; a user's
 * MySQL image takes MariaDB's port and driver; a command line past the
 * kernel's 2047 characters is refused. */
static void test_db_settings(void **state)
{
    char tpl[] = "/tmp/orch-plan-tpl-XXXXXX.xml", text[1024], *errs, *cmd, *xml, *at;
    orch_plan *p;
    FILE *f;
    size_t n;
    int oom = 1, fd;
    (void)state;

    p = load(RUN_OK "db_settings = innodb_buffer_pool_size=24G\tmax_connections=64 "
             "innodb_flush_method=O_DIRECT\n" WL_OK DRIVE_OK, &errs);
    assert_non_null(p);
    assert_string_equal(errs, "");
    cmd = orch_plan_settings_cmdline(p, &oom);
    assert_int_equal(oom, 0);
    assert_string_equal(cmd, "drivebench.my.innodb_buffer_pool_size=24G "
                        "drivebench.my.max_connections=64 drivebench.my.innodb_flush_method=O_DIRECT");
    free(cmd);
    orch_plan_free(p);
    free(errs);

    p = load("[run]\nname = pg\nengine = postgresql\nuri = test:///default\nprofile = tiny\n"
             "vmconfigs_dir = vmconfigs\nimage_dir = /srv/images\n"
             "db_settings = shared_buffers=25% work_mem=4MB\n" WL_OK DRIVE_OK, &errs);
    assert_non_null(p);
    cmd = orch_plan_settings_cmdline(p, &oom);
    assert_string_equal(cmd, "drivebench.pg.shared_buffers=25% drivebench.pg.work_mem=4MB");
    free(cmd);
    orch_plan_free(p);
    free(errs);

    /* [settings] on drivebench's image: after db_settings on the command
     * line, kept in order for oltp settings' read-back (issue 44) */
    p = load("[run]\nname = pg\nengine = postgresql\nuri = test:///default\nprofile = tiny\n"
             "vmconfigs_dir = vmconfigs\nimage_dir = /srv/images\n"
             "db_settings = work_mem=4MB\n" WL_OK DRIVE_OK
             "[settings]\nshared_buffers = 8GB\nsynchronous_commit = off\n", &errs);
    assert_non_null(p);
    assert_string_equal(errs, "");
    cmd = orch_plan_settings_cmdline(p, &oom);
    assert_string_equal(cmd, "drivebench.pg.work_mem=4MB drivebench.pg.shared_buffers=8GB "
                        "drivebench.pg.synchronous_commit=off");
    free(cmd);
    assert_int_equal(p->nsettings, 2);
    assert_string_equal(p->settings[1].name, "synchronous_commit");
    assert_int_equal(p->settings[1].line, 19);
    assert_int_equal(p->settings_mismatch, ORCH_MISMATCH_REFUSE);
    orch_plan_free(p);
    free(errs);

    /* on a user's SQL Server image: nothing on a command line; the names
     * as SQL Server spells them, for sp_configure */
    p = load("[run]\nname = x\nengine = sqlserver\nimage = /srv/mssql.qcow2\nprofile = sqlserver\n"
             "vmconfigs_dir = vmconfigs\nsettings_mismatch = warn\n"
             "[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 1s\nprepare = yes\n" DRIVE_OK
             "[settings]\nmax server memory = 49152\n", &errs);
    assert_non_null(p);
    assert_string_equal(errs, "");
    assert_null(orch_plan_settings_cmdline(p, &oom));
    assert_int_equal(p->nsettings, 1);
    assert_string_equal(p->settings[0].name, "max server memory");
    assert_string_equal(p->settings[0].value, "49152");
    assert_int_equal(p->settings_mismatch, ORCH_MISMATCH_WARN);
    orch_plan_free(p);
    free(errs);

    /* no db_settings: nothing added */
    p = load(RUN_OK WL_OK DRIVE_OK, &errs);
    assert_non_null(p);
    assert_null(orch_plan_settings_cmdline(p, &oom));
    assert_int_equal(oom, 0);
    orch_plan_free(p);
    free(errs);

    p = load(RUN_OK "engine = mysql\nimage = /srv/mysql8.qcow2\n" WL_OK DRIVE_OK, &errs);
    assert_non_null(p);
    assert_string_equal(errs, "");
    assert_string_equal(p->db_driver, "mysql");
    assert_int_equal(p->engine->port, 3306);
    assert_string_equal(p->engine->label, "MySQL");
    assert_null(p->engine->cmdline_prefix);
    orch_plan_free(p);
    free(errs);

    /* a profile whose own command line leaves no room */
    f = fopen("vmconfigs/tiny.xml", "r");
    assert_non_null(f);
    xml = calloc(1, 1 << 16);
    n = fread(xml, 1, (1 << 16) - 1, f);
    fclose(f);
    assert_true(n > 0);
    at = strstr(xml, "console=ttyS0");
    assert_non_null(at);
    fd = mkstemps(tpl, 4);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, xml, (size_t)(at - xml)), at - xml);
    for (int i = 0; i < 2000; i++)
        assert_int_equal(write(fd, "x", 1), 1);
    assert_int_equal(write(fd, at, strlen(at)), (ssize_t)strlen(at));
    close(fd);
    free(xml);
    snprintf(text, sizeof text, "[run]\nname = t\nuri = test:///default\nprofile = %s\n"
             "image_dir = /srv/images\ndb_settings = innodb_buffer_pool_size=24G\n"
             WL_OK DRIVE_OK, tpl);
    p = load(text, &errs);
    unlink(tpl);
    assert_null(p);
    assert_string_equal(errs, "PLAN:6: [run] db_settings: the kernel command line would be 2099 "
                        "characters, more than the 2047 a kernel takes\n");
    free(errs);
}

static void test_long_line(void **state)
{
    char text[1024], *errs;
    orch_plan *p;
    (void)state;
    snprintf(text, sizeof text, RUN_OK "oltp = /%0300d\n" WL_OK DRIVE_OK, 0);
    p = load(text, &errs);
    assert_null(p);
    assert_string_equal(errs, "PLAN:7: line longer than 197 characters\n");
    free(errs);
}

static void test_missing_file(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *errs = open_memstream(&buf, &len);
    (void)state;
    assert_null(orch_plan_load("/nonexistent/plan.ini", errs));
    fclose(errs);
    assert_string_equal(buf, "/nonexistent/plan.ini: cannot read plan: No such file or directory\n");
    free(buf);
}

/* tmpl with each '@' replaced by dir (new string). */
static char *subst(const char *tmpl, const char *dir)
{
    char *out = calloc(1, strlen(tmpl) * (strlen(dir) + 1) + 1), *w = out;
    assert_non_null(out);
    for (const char *c = tmpl; *c; c++)
        w = *c == '@' ? stpcpy(w, dir) : (*w = *c, w + 1);
    return out;
}

/* What validation reports for the plan text tmpl (each '@' the folder
 * dir): exactly want (its '@' dir too), and no plan. */
static void assert_refused(const char *dir, const char *tmpl, const char *want_tmpl)
{
    char *text = subst(tmpl, dir), *want = subst(want_tmpl, dir), *errs;
    orch_plan *p = load(text, &errs);
    if (strcmp(errs, want) != 0)
        print_error("plan:\n%s", text);
    assert_string_equal(errs, want);
    assert_null(p);
    free(errs);
    free(text);
    free(want);
}

/* The plan text tmpl (each '@' the folder dir) validates without a word.
 * The plan (caller frees). */
static orch_plan *assert_accepted(const char *dir, const char *tmpl)
{
    char *text = subst(tmpl, dir), *errs;
    orch_plan *p = load(text, &errs);
    assert_string_equal(errs, "");
    assert_non_null(p);
    free(errs);
    free(text);
    return p;
}

/* Plan paths are what they claim (issue 43): a drive's path a folder, no
 * system directory nor a link to one; oltp an executable file; the image
 * a qcow2 or raw disk image; the password file its owner's alone. */
static void test_plan_paths(void **state)
{
    char dir[] = "/tmp/orch-paths-XXXXXX", path[256], text[1024];
    orch_plan *p;
    FILE *f;
    (void)state;
    assert_non_null(mkdtemp(dir));
#define AT(name) (snprintf(path, sizeof path, "%s/%s", dir, name), path)
    assert_int_equal(symlink("/etc", AT("etc-link")), 0);
    assert_int_equal(symlink("/", AT("root-link")), 0);
    assert_non_null(f = fopen(AT("small.img"), "w"));
    fputs("not a disk", f);
    fclose(f);
    assert_int_equal(truncate(AT("raw.img"), 0), -1);     /* not there yet */
    assert_non_null(f = fopen(AT("raw.img"), "w"));
    fclose(f);
    assert_int_equal(truncate(AT("raw.img"), 2 << 20), 0);
    assert_non_null(f = fopen(AT("disk.qcow2"), "w"));
    fwrite("QFI\xfb\0\0\0\3", 1, 8, f);
    fclose(f);
    assert_non_null(f = fopen(AT("pw"), "w"));
    fputs("secret\n", f);
    fclose(f);
    assert_int_equal(chmod(AT("pw"), 0640), 0);

    /* drives */
    assert_refused(dir, RUN_OK WL_OK "[drive d1]\npath = /etc/passwd\n",
                   "PLAN:14: [drive d1] path /etc/passwd is not a directory: give a folder on "
                   "the drive under test\n");
    assert_refused(dir, RUN_OK WL_OK "[drive d1]\npath = /\n",
                   "PLAN:14: [drive d1] path / is a system directory: give a folder on the "
                   "drive under test\n");
    assert_refused(dir, RUN_OK WL_OK "[drive d1]\npath = /usr/local/drive\n",
                   "PLAN:14: [drive d1] path /usr/local/drive is in /usr, a system directory: "
                   "give a folder on the drive under test\n");
    assert_refused(dir, RUN_OK WL_OK "[drive d1]\npath = @/etc-link\n",
                   "PLAN:14: [drive d1] path @/etc-link resolves to /etc, a system directory: "
                   "give a folder on the drive under test\n");
    assert_refused(dir, RUN_OK WL_OK "[drive d1]\npath = @/root-link/\n",
                   "PLAN:14: [drive d1] path @/root-link/ resolves to /, a system directory: "
                   "give a folder on the drive under test\n");
    assert_refused(dir, RUN_OK WL_OK "[drive d1]\npath = @/etc-link/drivebench\n",
                   "PLAN:14: [drive d1] path @/etc-link/drivebench resolves to "
                   "/etc/drivebench, in /etc, a system directory: give a folder on the drive "
                   "under test\n");
    assert_refused(dir, RUN_OK WL_OK "[drive d1]\npath = @/../../etc\n",
                   "PLAN:14: [drive d1] path @/../../etc has a '.' or '..' component: give the "
                   "folder itself\n");
    assert_refused(dir, RUN_OK WL_OK "[drive d1]\npath = @/small.img/d\n",
                   "PLAN:14: [drive d1] path @/small.img/d: a part of it is not a directory\n");
    /* a folder the run makes below this one, and /dev/shm's: allowed */
    orch_plan_free(assert_accepted(dir, RUN_OK WL_OK "[drive d1]\npath = @/new/drive\n"
                                   "[drive d2]\npath = /dev/shm/drivebench-drive\n"));

    /* oltp, image, password file */
    assert_refused(dir, RUN_OK "oltp = /etc/passwd\n" WL_OK DRIVE_OK,
                   "PLAN:7: [run] oltp /etc/passwd is not an executable file (drivebench's "
                   "oltp: bin/oltp)\n");
    assert_refused(dir, RUN_OK "oltp = @\n" WL_OK DRIVE_OK,
                   "PLAN:7: [run] oltp @ is not an executable file (drivebench's oltp: "
                   "bin/oltp)\n");
    assert_refused(dir, RUN_OK "oltp = @/oltp\n" WL_OK DRIVE_OK,
                   "PLAN:7: [run] oltp @/oltp: No such file or directory\n");
    assert_refused(dir, RUN_OK "image = @/small.img\n" WL_OK DRIVE_OK,
                   "PLAN:7: [run] image @/small.img is neither a qcow2 image nor a raw disk "
                   "image (a whole number of 512-byte sectors, 1 MiB or more): 10 bytes\n");
    assert_refused(dir, RUN_OK "image = /dev/null\n" WL_OK DRIVE_OK,
                   "PLAN:7: [run] image /dev/null is not a regular file (a qcow2 or raw disk "
                   "image)\n");
    assert_refused(dir, RUN_OK WL_OK "db_password_file = @/pw\n" DRIVE_OK,
                   "PLAN:13: [workload] db_password_file @/pw may be read by others than its "
                   "owner (mode 0640): a password file is readable by its owner only (chmod "
                   "600 @/pw)\n");
    assert_refused(dir, RUN_OK WL_OK "db_password_file = @\n" DRIVE_OK,
                   "PLAN:13: [workload] db_password_file @ is not a regular file\n");
    orch_plan_free(assert_accepted(dir, RUN_OK "image = @/disk.qcow2\n" WL_OK DRIVE_OK));
    orch_plan_free(assert_accepted(dir, RUN_OK "image = @/raw.img\n" WL_OK DRIVE_OK));
    assert_int_equal(chmod(AT("pw"), 0600), 0);
    p = assert_accepted(dir, RUN_OK WL_OK "db_password_file = @/pw\n" DRIVE_OK);
    assert_string_equal(p->db_password, "secret");
    orch_plan_free(p);
    snprintf(text, sizeof text, "rm -rf %s", dir);
    assert_int_equal(system(text), 0);
#undef AT
}

/* orch_plan_load of path: NULL, and its messages (all of them) in errs,
 * the caller's to free. */
static void load_refused(const char *path, char **errs)
{
    size_t len = 0;
    FILE *f;
    *errs = NULL;
    f = open_memstream(errs, &len);
    assert_null(orch_plan_load(path, f));
    fclose(f);
}

/* What is not a plan is named as what it is, in one line, without
 * reading past the first line that is not text (issue 43): a NUL byte,
 * a byte order mark, bytes that are not UTF-8, a folder, a file larger
 * than a plan, endless devices. */
static void test_not_text(void **state)
{
    static const struct { const char *bytes; size_t len; const char *want; } cases[] = {
#define BYTES(s) s, sizeof s - 1
        { BYTES("[run]\nna\0me = x\n"), "PLAN:2: a NUL byte: not a text file\n" },
        { BYTES("\xef\xbb\xbf[run]\nname = x\n"),
          "PLAN:1: the plan begins with a UTF-8 byte order mark (EF BB BF): save it without "
          "one\n" },
        { BYTES("[run]\nname = caf\xe9\n"), "PLAN:2: not UTF-8 (byte 0xE9 at column 11)\n" },
        { BYTES("[run]\nname = \xc0\xaf\n"), "PLAN:2: not UTF-8 (byte 0xC0 at column 8)\n" },
#undef BYTES
    };
    char path[] = "/tmp/orch-plan-XXXXXX", want[256], *errs;
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, cases[i].bytes, cases[i].len), (ssize_t)cases[i].len);
        close(fd);
        load_refused(path, &errs);
        snprintf(want, sizeof want, "%s%s", path, cases[i].want + 4);
        assert_string_equal(errs, want);
        free(errs);
        unlink(path);
        strcpy(path, "/tmp/orch-plan-XXXXXX");
    }
    load_refused("/tmp", &errs);
    assert_string_equal(errs, "/tmp: cannot read plan: it is a directory\n");
    free(errs);
    load_refused("/dev/zero", &errs);
    assert_string_equal(errs, "/dev/zero:1: a NUL byte: not a text file\n");
    free(errs);
    /* random bytes: refused at once, in one line, whatever they are */
    load_refused("/dev/urandom", &errs);
    assert_int_equal(strncmp(errs, "/dev/urandom:", 13), 0);
    assert_ptr_equal(strchr(errs, '\n'), errs + strlen(errs) - 1);
    free(errs);
}

/* 600 000 lines "#" to the pipe *arg, then closed (a reader that closes
 * its end first ends it). */
static void *write_comments(void *arg)
{
    int fd = *(int *)arg;
    for (int i = 0; i < 600000; i++)
        if (write(fd, "#\n", 2) != 2)
            break;
    close(fd);
    return NULL;
}

/* A plan is at most PLAN_MAX_BYTES: a larger file is refused by its size
 * before it is read, a pipe when its reading passes the bound. */
static void test_plan_size_cap(void **state)
{
    char path[] = "/tmp/orch-plan-XXXXXX", want[256], *errs;
    int fd = mkstemp(path), pipefd[2];
    pthread_t writer;
    (void)state;
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 1024 * 1024 + 1), 0);
    close(fd);
    load_refused(path, &errs);
    snprintf(want, sizeof want, "%s: cannot read plan: larger than 1024 KiB: not a plan file\n",
             path);
    assert_string_equal(errs, want);
    free(errs);
    unlink(path);
    /* 600 000 comment lines through a pipe: refused after 1 MiB */
    assert_int_equal(pipe(pipefd), 0);
    signal(SIGPIPE, SIG_IGN);       /* the reader stops first */
    assert_int_equal(pthread_create(&writer, NULL, write_comments, &pipefd[1]), 0);
    snprintf(path, sizeof path, "/dev/fd/%d", pipefd[0]);
    load_refused(path, &errs);
    close(pipefd[0]);
    assert_int_equal(pthread_join(writer, NULL), 0);
    snprintf(want, sizeof want, "%s:524288: the plan is larger than 1024 KiB: not a plan file\n",
             path);
    assert_string_equal(errs, want);
    free(errs);
}

/* The password from the environment, a file, or (with a warning) the plan. */
static void test_password_sources(void **state)
{
    char pwfile[] = "/tmp/orch-pw-XXXXXX", text[512], *errs;
    int fd = mkstemp(pwfile);
    orch_plan *p;
    (void)state;
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "from file\nsecond line\n", 22), 22);
    close(fd);

    setenv("ORCH_TEST_DB_PW", "from env", 1);
    p = load(RUN_OK WL_OK "db_password_env = ORCH_TEST_DB_PW\n" DRIVE_OK, &errs);
    assert_string_equal(errs, "");
    assert_non_null(p);
    assert_string_equal(p->db_password, "from env");
    orch_plan_free(p);
    free(errs);
    unsetenv("ORCH_TEST_DB_PW");

    snprintf(text, sizeof text, RUN_OK WL_OK "db_password_file = %s\n" DRIVE_OK, pwfile);
    p = load(text, &errs);
    assert_string_equal(errs, "");
    assert_non_null(p);
    assert_string_equal(p->db_password, "from file");
    orch_plan_free(p);
    free(errs);

    p = load(RUN_OK WL_OK "db_password = literal\n" DRIVE_OK, &errs);
    assert_string_equal(errs, "PLAN:13: warning: [workload] db_password is written in the plan; "
                        "prefer db_password_env or db_password_file (plans/README.md)\n");
    assert_non_null(p);
    assert_string_equal(p->db_password, "literal");
    orch_plan_free(p);
    free(errs);

    p = load(RUN_OK WL_OK DRIVE_OK, &errs);
    assert_string_equal(errs, "");
    assert_string_equal(p->db_password, "drivebench");     /* the guest image's */
    orch_plan_free(p);
    free(errs);

    /* a missing variable, an unreadable or empty file: one FILE:LINE error */
    p = load(RUN_OK WL_OK "db_password_env = ORCH_TEST_UNSET_PW\n" DRIVE_OK, &errs);
    assert_null(p);
    assert_string_equal(errs, "PLAN:13: [workload] db_password_env: environment variable "
                        "ORCH_TEST_UNSET_PW is not set\n");
    free(errs);
    p = load(RUN_OK WL_OK "db_password_file = /nonexistent/pw\n" DRIVE_OK, &errs);
    assert_null(p);
    assert_string_equal(errs, "PLAN:13: [workload] db_password_file: cannot read a password "
                        "from /nonexistent/pw: No such file or directory\n");
    free(errs);
    assert_int_equal(truncate(pwfile, 0), 0);
    p = load(text, &errs);
    assert_null(p);
    snprintf(text, sizeof text, "PLAN:13: [workload] db_password_file: cannot read a password "
             "from %s: the file is empty\n", pwfile);
    assert_string_equal(errs, text);
    free(errs);
    unlink(pwfile);
    p = load(RUN_OK WL_OK "db_password = x\ndb_password_env = HOME\n" DRIVE_OK, &errs);
    assert_null(p);
    assert_string_equal(errs, "PLAN:13: warning: [workload] db_password is written in the plan; "
                        "prefer db_password_env or db_password_file (plans/README.md)\n"
                        "PLAN:14: [workload] db_password_env: the password is already given "
                        "by db_password (line 13); keep one\n");
    free(errs);
}

/* The run folder's copy of the plan: secrets replaced, all else verbatim. */
static void test_redacted_copy(void **state)
{
    char path[] = "/tmp/orch-plan-XXXXXX", copy[64], *got;
    const char *text = RUN_OK WL_OK "db_password=hunter2\n  db_password :  a=b;c ; note\n"
                       "db_password_env = PW\n; db_password = in a comment stays\n" DRIVE_OK;
    int fd = mkstemp(path);
    orch_plan p = { .file = path, .text = (char *)text, .text_len = strlen(text) };
    char err[256];
    FILE *f;
    long n;
    (void)state;
    assert_true(fd >= 0);
    close(fd);          /* the copy is made from the text, not the file (below) */
    snprintf(copy, sizeof copy, "%s.copy", path);
    assert_int_equal(orch_plan_write_redacted(&p, copy, err, sizeof err), 0);
    f = fopen(copy, "r");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    got = calloc(1, (size_t)n + 1);
    assert_int_equal(fread(got, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    assert_string_equal(got, RUN_OK WL_OK "db_password= ********\n  db_password : ********\n"
                        "db_password_env = PW\n; db_password = in a comment stays\n" DRIVE_OK);
    free(got);
    assert_int_equal(orch_plan_write_redacted(&p, "/nonexistent/plan.ini", err, sizeof err), -1);
    assert_string_equal(err, "cannot write /nonexistent/plan.ini: No such file or directory");
    unlink(copy);
    /* a file system that takes no more (here: a file size limit of 16
     * bytes): the reason, and no partial plan.ini (issue 43) */
    {
        struct rlimit old, small = { 16, 16 };
        struct stat sb;
        char want[128];
        signal(SIGXFSZ, SIG_IGN);
        assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
        small.rlim_max = old.rlim_max;
        assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
        assert_int_equal(orch_plan_write_redacted(&p, copy, err, sizeof err), -1);
        assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
        snprintf(want, sizeof want, "cannot write %s: File too large", copy);
        assert_string_equal(err, want);
        assert_int_equal(stat(copy, &sb), -1);
    }
    unlink(path);
}

static void *write_plan(void *arg)
{
    int fd = *(int *)arg;
    const char *text = RUN_OK WL_OK DRIVE_OK;
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return NULL;
}

/* The plan a run copies into its folder and a sweep parses again at each
 * step is the text that was read: a file changed since, or a pipe, read
 * once, gives the same plan (issue 43). */
static void test_plan_kept_text(void **state)
{
    char path[] = "/tmp/orch-plan-XXXXXX", copy[64], *errs = NULL, *got;
    size_t len = 0;
    int fd = mkstemp(path), pipefd[2];
    FILE *f;
    orch_plan *p, *q;
    pthread_t writer;
    char err[256];
    (void)state;
    assert_true(fd >= 0);
    assert_int_equal(write(fd, RUN_OK WL_OK DRIVE_OK, strlen(RUN_OK WL_OK DRIVE_OK)),
                     (ssize_t)strlen(RUN_OK WL_OK DRIVE_OK));
    close(fd);
    p = orch_plan_load(path, NULL);
    assert_non_null(p);
    assert_int_equal(p->text_len, strlen(RUN_OK WL_OK DRIVE_OK));
    assert_string_equal(p->text, RUN_OK WL_OK DRIVE_OK);
    f = fopen(path, "w");               /* the file changes under the run */
    assert_non_null(f);
    fputs("[run]\nname = other\n", f);
    fclose(f);
    q = orch_plan_reload(p, NULL);
    assert_non_null(q);
    assert_string_equal(q->name, "Test Plan");
    assert_int_equal(q->ndrives, 1);
    assert_string_equal(q->drives[0].path, "/srv/d1");
    assert_string_equal(q->file, path);
    orch_plan_free(q);
    snprintf(copy, sizeof copy, "%s.copy", path);
    assert_int_equal(orch_plan_write_redacted(p, copy, err, sizeof err), 0);
    got = orch_file_read(copy, 4096);
    assert_string_equal(got, RUN_OK WL_OK DRIVE_OK);
    free(got);
    unlink(copy);
    orch_plan_free(p);

    /* a plan read from a pipe: its copy and its reload are the plan */
    assert_int_equal(pipe(pipefd), 0);
    assert_int_equal(pthread_create(&writer, NULL, write_plan, &pipefd[1]), 0);
    snprintf(path, sizeof path, "/dev/fd/%d", pipefd[0]);
    p = orch_plan_load(path, NULL);
    close(pipefd[0]);
    assert_int_equal(pthread_join(writer, NULL), 0);
    assert_non_null(p);
    assert_int_equal(orch_plan_write_redacted(p, copy, err, sizeof err), 0);
    got = orch_file_read(copy, 4096);
    assert_string_equal(got, RUN_OK WL_OK DRIVE_OK);
    free(got);
    unlink(copy);
    q = orch_plan_reload(p, NULL);
    assert_non_null(q);
    assert_string_equal(q->name, "Test Plan");
    orch_plan_free(q);
    orch_plan_free(p);

    /* nothing read: nothing to parse again, one reason */
    {
        orch_plan none = { .file = path };
        f = open_memstream(&errs, &len);
        assert_null(orch_plan_reload(&none, f));
        fclose(f);
        snprintf(err, sizeof err, "%s: cannot read plan again: nothing was read\n", path);
        assert_string_equal(errs, err);
        free(errs);
    }
}

/* A template named by a pipe (a plan may name any path) is refused at
 * once: it is not waited on, nor read (issue 43: a fuzzer's find). */
static void test_template_not_regular(void **state)
{
    char dir[] = "/tmp/orch-fifo-XXXXXX", fifo[64], text[512], want[512], *errs;
    orch_plan *p;
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/t.xml", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    snprintf(text, sizeof text, "[run]\nname = x\nprofile = %s\n" WL_OK DRIVE_OK, fifo);
    p = load(text, &errs);
    assert_null(p);
    snprintf(want, sizeof want, "PLAN:3: [run] profile %s: cannot read template %s: not a "
             "regular file (a pipe)\n", fifo, fifo);
    assert_string_equal(errs, want);
    free(errs);
    unlink(fifo);
    rmdir(dir);
}

static void test_durations_and_sizes(void **state)
{
    int s = -1;
    uint64_t b = 0;
    (void)state;
    assert_int_equal(orch_parse_duration("2h", &s), 0);
    assert_int_equal(s, 7200);
    assert_int_equal(orch_parse_duration("1h30m10s", &s), 0);
    assert_int_equal(s, 5410);
    assert_int_equal(orch_parse_duration("90", &s), 0);
    assert_int_equal(s, 90);
    assert_int_equal(orch_parse_duration("", &s), -1);
    assert_int_equal(orch_parse_duration("10x", &s), -1);
    assert_int_equal(orch_parse_duration("1h30", &s), -1);
    assert_int_equal(orch_parse_duration("-5s", &s), -1);
    assert_int_equal(orch_parse_size("4G", &b), 0);
    assert_int_equal(b, 4ULL << 30);
    assert_int_equal(orch_parse_size("512MiB", &b), 0);
    assert_int_equal(b, 512ULL << 20);
    assert_int_equal(orch_parse_size("1024", &b), 0);
    assert_int_equal(b, 1024);
    assert_int_equal(orch_parse_size("4GB", &b), -1);
    assert_int_equal(orch_parse_size("99999999999T", &b), -1);
    assert_int_equal(orch_uri_is_remote("qemu+ssh://h/system"), 1);
    assert_int_equal(orch_uri_is_remote("qemu:///system"), 0);
    assert_int_equal(orch_uri_is_remote("test:///tmp/node.xml"), 0);
    assert_int_equal(orch_uri_is_remote("qemu+tcp://localhost/system"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_plan),
        cmocka_unit_test(test_shipped_plans),
        cmocka_unit_test(test_guest_client_remote_drive),
        cmocka_unit_test(test_passt_network),
        cmocka_unit_test(test_every_error),
        cmocka_unit_test(test_db_settings),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_not_text),
        cmocka_unit_test(test_plan_size_cap),
        cmocka_unit_test(test_durations_and_sizes),
        cmocka_unit_test(test_password_sources),
        cmocka_unit_test(test_plan_paths),
        cmocka_unit_test(test_redacted_copy),
        cmocka_unit_test(test_plan_kept_text),
        cmocka_unit_test(test_template_not_regular),
    };
    return cmocka_run_group_tests_name("orchestrator plan", tests, NULL, NULL);
}
