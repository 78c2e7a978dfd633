/* Template loading and domain XML rendering: output compared exactly with
 * expected/render-plan.xml (a drive named with <, ', &, .. and spaces) and
 * with expected/NAME.xml for every profile x guest OS and EFI
 * (render/NAME.ini), every shipped profile renders, and the XML defines on
 * libvirt's test driver. Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "util/util.h"
#include "plan/plan.h"
#include "testlib.h"

#define RENDER_RUN_ID "render-test-co-20261130-000000"

/* Render every VM of plan_path the way `drivebench render` prints them. */
static char *render_all(const char *plan_path, const char *run_id)
{
    orch_plan *p = orch_plan_load(plan_path, stderr);
    orch_template *t;
    orch_layout *l;
    char err[512], *all = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&all, &len);
    assert_non_null(p);
    t = orch_template_load(p->template_path, err, sizeof err);
    assert_non_null(t);
    l = orch_layout_new(p, run_id, orch_template_disk_size(t, "seeddisk") != 0);
    assert_non_null(l);
    for (int i = 0; i < l->nvms; i++) {
        char *xml = orch_layout_render(l, p, t, &l->vms[i], orch_local_domain_type(p), 1,
                                       err, sizeof err);
        assert_non_null(xml);
        fprintf(out, "%s%s", i ? "\n" : "", xml);
        free(xml);
    }
    fclose(out);
    orch_layout_free(l);
    orch_template_free(t);
    orch_plan_free(p);
    return all;
}

static void test_render_exact(void **state)
{
    char *got = render_all("tests/orchestrator/render-plan.ini", RENDER_RUN_ID);
    char *want = orch_slurp("tests/orchestrator/expected/render-plan.xml");
    (void)state;
    assert_string_equal(got, want);
    free(got);
    free(want);
}

/* Each repetition's domain has a UUID of its own (repetition 1 the VM
 * name's): a destroy event of repetition 1's domain still queued when
 * repetition 2 starts cannot match the new one. */
static void test_render_uuid_per_repetition(void **state)
{
    orch_plan *p = orch_plan_load("tests/orchestrator/render-plan.ini", stderr);
    orch_template *t;
    orch_layout *l;
    char err[512], want[37], name_rep[256], got[3][37];
    (void)state;
    assert_non_null(p);
    t = orch_template_load(p->template_path, err, sizeof err);
    assert_non_null(t);
    l = orch_layout_new(p, RENDER_RUN_ID, 0);
    assert_non_null(l);
    for (int rep = 1; rep <= 3; rep++) {
        char *xml = orch_layout_render(l, p, t, &l->vms[0], "qemu", rep, err, sizeof err);
        const char *u;
        assert_non_null(xml);
        u = strstr(xml, "<uuid>");
        assert_non_null(u);
        memcpy(got[rep - 1], u + 6, 36);
        got[rep - 1][36] = '\0';
        assert_int_equal(strncmp(u + 42, "</uuid>", 7), 0);
        free(xml);
    }
    orch_uuid_from_name(l->vms[0].name, want);
    assert_string_equal(got[0], want);
    snprintf(name_rep, sizeof name_rep, "%s repetition 2", l->vms[0].name);
    orch_uuid_from_name(name_rep, want);
    assert_string_equal(got[1], want);
    assert_string_not_equal(got[0], got[1]);
    assert_string_not_equal(got[1], got[2]);
    assert_string_not_equal(got[0], got[2]);
    orch_layout_free(l);
    orch_template_free(t);
    orch_plan_free(p);
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *s = strstr(hay, needle); s; s = strstr(s + 1, needle))
        n++;
    return n;
}

static orch_plan *profile_plan(const char *profile)
{
    char path[] = "/tmp/orch-render-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    orch_plan *p;
    fprintf(f, "[run]\nname = p\nprofile = %s\nvmconfigs_dir = vmconfigs\nimage_dir = /img\n"
               "domain_type = qemu\n[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 1s\n"
               "[drive d]\npath = /d\n", profile);
    fclose(f);
    p = orch_plan_load(path, stderr);
    unlink(path);
    return p;
}

/* Each shipped profile: its disks, controller and CPU/memory survive
 * rendering, and the result defines on the test driver. */
static void test_profiles(void **state)
{
    struct {
        const char *profile;
        int disks;
        const char *must[3];
    } cases[] = {
        { "tiny", 2, { "model=\"virtio-scsi\"", "<vcpu placement=\"static\">1</vcpu>",
                       "<memory unit=\"GiB\">1</memory>" } },
        { "sysbench", 3, { "model=\"lsisas1068\"", "<vcpu placement=\"static\">8</vcpu>",
                           "-seed.qcow2\"/>" } },
        { "sqlserver", 2, { "model=\"lsisas1068\"", "<vcpu placement=\"static\">16</vcpu>",
                            "<memory unit=\"GiB\">64</memory>" } },
    };
    virConnectPtr conn = virConnectOpen("test:///default");
    (void)state;
    assert_non_null(conn);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        orch_plan *p = profile_plan(cases[i].profile);
        orch_template *t;
        orch_layout *l;
        char err[512], *xml, *name;
        virDomainPtr dom;
        assert_non_null(p);
        t = orch_template_load(p->template_path, err, sizeof err);
        assert_non_null(t);
        assert_string_equal(orch_template_profile(t), cases[i].profile);
        l = orch_layout_new(p, "r-20261130-000000", orch_template_disk_size(t, "seeddisk") != 0);
        xml = orch_layout_render(l, p, t, &l->vms[0], "qemu", 1, err, sizeof err);
        assert_non_null(xml);
        assert_int_equal(count(xml, "<disk "), cases[i].disks);
        /* the reference profiles' lsisas1068: a <wwn> on every disk */
        assert_int_equal(count(xml, "<wwn>"), i == 0 ? 0 : cases[i].disks);
        for (int k = 0; k < 3; k++)
            assert_non_null(strstr(xml, cases[i].must[k]));
        dom = virDomainDefineXML(conn, xml);
        assert_non_null(dom);
        name = orch_strfmt("drivebench-r-20261130-000000--d-vm1");
        assert_string_equal(virDomainGetName(dom), name);
        assert_int_equal(virDomainUndefine(dom), 0);
        virDomainFree(dom);
        free(name);
        free(xml);
        orch_layout_free(l);
        orch_template_free(t);
        orch_plan_free(p);
    }
    virConnectClose(conn);
}

/* The drive name reaches libvirt as data: the metadata attribute reads
 * back exactly as written in the plan. */
static void test_names_are_data(void **state)
{
    char *all = render_all("tests/orchestrator/render-plan.ini", RENDER_RUN_ID);
    char *end = strstr(all, "</domain>");
    virConnectPtr conn = virConnectOpen("test:///default");
    virDomainPtr dom;
    char *meta;
    (void)state;
    assert_non_null(end);
    end[strlen("</domain>")] = '\0';
    assert_non_null(conn);
    dom = virDomainDefineXML(conn, all);
    assert_non_null(dom);
    meta = virDomainGetMetadata(dom, VIR_DOMAIN_METADATA_ELEMENT, ORCH_PROFILE_NS, 0);
    assert_non_null(meta);
    assert_non_null(strstr(meta, "drive=\"a&lt;b ' &amp; .. x\""));
    assert_int_equal(count(all, "<disk "), 2);
    free(meta);
    virDomainUndefine(dom);
    virDomainFree(dom);
    virConnectClose(conn);
    free(all);
}

static void test_bad_templates(void **state)
{
    struct {
        const char *xml;
        const char *err;
    } cases[] = {
        { "<domain/>", "template T has no <drivebench:profile> in <metadata>" },
        { "<domain", "cannot load template T: Couldn't find end of Start Tag domain line 1" },
        { "<domain><metadata><p:profile xmlns:p='" ORCH_PROFILE_NS "' name='x'>"
          "<p:disk serial='bootdisk' size='1G'/></p:profile></metadata></domain>",
          "template T: profile lists disk bootdisk but no <disk> has <serial>bootdisk</serial>" },
        { "<domain><metadata><p:profile xmlns:p='" ORCH_PROFILE_NS "' name='x'>"
          "<p:disk serial='bootdisk' size='big'/></p:profile></metadata></domain>",
          "template T: profile disk needs serial and a size like 4G" },
        { "<domain><metadata><p:profile xmlns:p='" ORCH_PROFILE_NS "' name='x'>"
          "<p:disk serial='bootdisk' size='1G'/></p:profile></metadata>"
          "<devices><disk><serial>bootdisk</serial></disk></devices></domain>",
          "template T: profile needs disks bootdisk and dbdisk" },
        { "<domain><metadata><p:profile xmlns:p='" ORCH_PROFILE_NS "' name='x'>"
          "<p:disk serial='bootdisk' size='1G'/><p:disk serial='dbdisk' size='1G'/>"
          "</p:profile></metadata><devices><disk><serial>bootdisk</serial></disk>"
          "<disk><serial>dbdisk</serial></disk></devices></domain>",
          "template T: <qemu:commandline> lacks '-netdev' 'user,...'" },
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[] = "/tmp/orch-tmpl-XXXXXX", err[512], want[512];
        int fd = mkstemp(path);
        FILE *f = fdopen(fd, "w");
        const char *t;
        fputs(cases[i].xml, f);
        fclose(f);
        assert_null(orch_template_load(path, err, sizeof err));
        /* T stands for the path */
        t = strchr(cases[i].err, 'T');
        while (t && t[1] != ' ' && t[1] != ':')
            t = strchr(t + 1, 'T');
        snprintf(want, sizeof want, "%.*s%s%s", (int)(t - cases[i].err), cases[i].err, path,
                 t + 1);
        assert_string_equal(err, want);
        unlink(path);
    }
}

static void test_names(void **state)
{
    char *s, uuid[37], uuid2[37];
    (void)state;
    s = orch_sanitize("  A<b ' & .. X!  ", 40);
    assert_string_equal(s, "a-b-x");
    free(s);
    s = orch_sanitize("../..", 40);
    assert_string_equal(s, "");
    free(s);
    s = orch_sanitize("abcdefghij", 4);
    assert_string_equal(s, "abcd");
    free(s);
    s = orch_runid_new("My Plan!", 1796000000);
    assert_string_equal(s, "my-plan-20261130-005320");
    assert_int_equal(orch_runid_valid(s), 1);
    free(s);
    assert_int_equal(orch_runid_valid("a--b"), 0);
    assert_int_equal(orch_runid_valid("../x"), 0);
    assert_int_equal(orch_runid_valid("-a"), 0);
    assert_int_equal(orch_runid_valid(""), 0);
    s = orch_object_runid("drivebench-quick-20261130-000000--local-vm1");
    assert_string_equal(s, "quick-20261130-000000");
    free(s);
    assert_null(orch_object_runid("other-vm"));
    assert_null(orch_object_runid("drivebench-no-separator"));
    orch_uuid_from_name("drivebench-x--d-vm1", uuid);
    orch_uuid_from_name("drivebench-x--d-vm2", uuid2);
    assert_int_equal(strlen(uuid), 36);
    assert_string_not_equal(uuid, uuid2);
    assert_int_equal(uuid[14], '4');
}

/* Occurrences of needle in s. */
static int count_substr(const char *s, const char *needle)
{
    int n = 0;
    for (const char *c = strstr(s, needle); c; c = strstr(c + 1, needle))
        n++;
    return n;
}

/* A sqlserver plan: the user's image booted from its disk, forwards to
 * guest port 1433, lsisas1068 with a <wwn> on every disk. */
static void test_render_sqlserver(void **state)
{
    char *got = render_all("tests/orchestrator/render-sqlserver.ini",
                           "render-sqlserver-20261130-000000");
    char *want = orch_slurp("tests/orchestrator/expected/render-sqlserver.xml");
    char seen[8][32];
    int n = 0;
    (void)state;
    assert_string_equal(got, want);
    /* every disk of every VM has its own WWN: 2 VMs x 2 disks */
    for (const char *w = strstr(got, "<wwn>"); w; w = strstr(w + 1, "<wwn>")) {
        assert_true(n < 8);
        assert_int_equal(sscanf(w, "<wwn>%31[^<]", seen[n]), 1);
        assert_int_equal(strlen(seen[n]), 18);        /* 0x + 16 hex digits */
        for (int i = 0; i < n; i++)
            assert_string_not_equal(seen[i], seen[n]);
        n++;
    }
    assert_int_equal(n, 4);
    assert_null(strstr(got, "<kernel>"));
    assert_int_equal(count_substr(got, "hostfwd=tcp:127.0.0.1:4100"), 2);
    assert_int_equal(count_substr(got, "-:1433\""), 2);
    free(got);
    free(want);
}

/* xml defines on conn (the test driver), and is undefined again. */
static void assert_defines(virConnectPtr conn, const char *xml)
{
    virDomainPtr dom = virDomainDefineXML(conn, xml);
    assert_non_null(dom);
    assert_int_equal(virDomainUndefine(dom), 0);
    virDomainFree(dom);
}

/* Every profile x guest OS, and EFI (tests/orchestrator/render/NAME.ini):
 * the output is exactly expected/NAME.xml, defines on the test driver,
 * and carries what the OS and firmware call for. lsi: the controller is
 * lsisas1068, with a <wwn> on every disk (the sysbench and sqlserver
 * profiles', and Windows' default). */
static void test_render_matrix(void **state)
{
    static const struct {
        const char *name;
        int disks, windows, efi, tcg, cores, lsi;
    } cases[] = {
        { "tiny-linux", 2, 0, 0, 0, 1, 0 },        { "tiny-linux-efi", 2, 0, 1, 0, 1, 0 },
        { "tiny-windows", 2, 1, 0, 0, 1, 1 },      { "tiny-seed-linux", 3, 0, 0, 0, 1, 0 },
        { "tiny-seed-windows", 3, 1, 0, 0, 1, 1 }, { "sysbench-linux", 3, 0, 0, 0, 8, 1 },
        { "sysbench-windows", 3, 1, 0, 0, 8, 1 },  { "sqlserver-linux", 2, 0, 0, 0, 16, 1 },
        { "sqlserver-windows", 2, 1, 0, 0, 16, 1 },
        /* with image_attaches_databases: the seed restores dbdisk and is
         * not attached (2 disks) */
        { "sqlserver-windows-efi", 2, 1, 1, 0, 16, 1 },
        { "sqlserver-windows-tcg", 2, 1, 0, 1, 16, 1 },
    };
    virConnectPtr conn = virConnectOpen("test:///default");
    (void)state;
    assert_non_null(conn);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char plan[256], golden[256], run_id[128], topo[96], *got, *want;
        snprintf(plan, sizeof plan, "tests/orchestrator/render/%s.ini", cases[i].name);
        snprintf(golden, sizeof golden, "tests/orchestrator/expected/%s.xml", cases[i].name);
        snprintf(run_id, sizeof run_id, "%s-20261130-000000", cases[i].name);
        got = render_all(plan, run_id);
        want = orch_slurp(golden);
        assert_non_null(want);
        assert_string_equal(got, want);
        assert_int_equal(count(got, "<disk "), cases[i].disks);
        snprintf(topo, sizeof topo, "<topology sockets=\"1\" cores=\"%d\" threads=\"1\"/>",
                 cases[i].cores);
        assert_int_equal(count(got, topo), 1);
        assert_int_equal(count(got, "restrict=on,hostfwd=tcp:127.0.0.1:33060-:"), 1);
        assert_int_equal(count(got, cases[i].windows ? "\"e1000e,netdev=net0,"
                                                     : "\"virtio-net-pci,netdev=net0,"), 1);
        assert_int_equal(count(got, cases[i].efi ? ",bus=pcie.0,addr=0x10\"" 
                                                 : ",bus=pci.0,addr=0x1e\""), 1);
        assert_int_equal(count(got, "<os firmware=\"efi\">"), cases[i].efi);
        assert_int_equal(count(got, "machine=\"q35\""), cases[i].efi);
        assert_int_equal(count(got, "<feature enabled=\"no\" name=\"secure-boot\"/>"),
                         cases[i].efi);
        assert_int_equal(count(got, "model=\"lsisas1068\""), cases[i].lsi);
        assert_int_equal(count(got, "<wwn>"), cases[i].lsi ? cases[i].disks : 0);
        assert_int_equal(count(got, "<clock offset=\"localtime\">"), cases[i].windows);
        assert_int_equal(count(got, "<timer name=\"hypervclock\" present=\"yes\"/>"),
                         cases[i].windows);
        assert_int_equal(count(got, "<relaxed state=\"on\"/>"), cases[i].windows);
        assert_int_equal(count(got, "<vpindex state=\"on\"/>"),
                         cases[i].windows && !cases[i].tcg);
        assert_int_equal(count(got, "<boot dev=\"hd\"/>"), cases[i].windows);
        assert_defines(conn, got);
        free(got);
        free(want);
    }
    virConnectClose(conn);
}

/* network = passt (issue 33): the only NIC is '-netdev stream' to the
 * VM's passt socket, named by its UUID, with the device the user-mode
 * network had; exactly expected/tiny-linux-passt.xml, and it defines on
 * the test driver. */
static void test_render_passt(void **state)
{
    char *got = render_all("tests/orchestrator/render/tiny-linux-passt.ini",
                           "tiny-linux-passt-20261130-000000");
    char *want = orch_slurp("tests/orchestrator/expected/tiny-linux-passt.xml");
    char uuid[37], arg[160];
    virConnectPtr conn = virConnectOpen("test:///default");
    (void)state;
    assert_non_null(want);
    assert_string_equal(got, want);
    orch_uuid_from_name("drivebench-tiny-linux-passt-20261130-000000--nvme-vm1", uuid);
    snprintf(arg, sizeof arg, "<qemu:arg value=\"stream,id=net0,server=off,addr.type=unix,"
             "addr.path=/run/drivebench/passt/%s.sock\"/>", uuid);
    assert_int_equal(count(got, arg), 1);
    assert_int_equal(count(got, "<qemu:arg value=\"-netdev\"/>"), 1);
    assert_int_equal(count(got, "\"virtio-net-pci,netdev=net0,bus=pci.0,addr=0x1e\""), 1);
    assert_int_equal(count(got, "hostfwd"), 0);
    assert_int_equal(count(got, "user,"), 0);
    assert_non_null(conn);
    assert_defines(conn, got);
    virConnectClose(conn);
    free(got);
    free(want);
}

/* The DSN-less ODBC connection strings, per ODBC driver family. */
static void test_odbc_connect_strings(void **state)
{
    orch_db_target t = {
        .engine = orch_dbengine_find("sqlserver"), .driver = "odbc", .user = "drivebench",
        .database = "sbtest", .odbc_driver = "ODBC Driver 18 for SQL Server",
        .encrypt = "yes", .trust_cert = "yes",
    };
    char *s;
    (void)state;
    s = orch_odbc_connect_string(&t, 41000);
    assert_string_equal(s, "Driver={ODBC Driver 18 for SQL Server};Server=tcp:127.0.0.1,41000;"
                           "Database=sbtest;Encrypt=yes;TrustServerCertificate=yes");
    free(s);
    t.encrypt = "strict";
    t.trust_cert = NULL;
    s = orch_odbc_connect_string(&t, 41000);
    assert_string_equal(s, "Driver={ODBC Driver 18 for SQL Server};Server=tcp:127.0.0.1,41000;"
                           "Database=sbtest;Encrypt=strict");
    free(s);
    t.odbc_driver = "FreeTDS";
    t.encrypt = "yes";
    t.trust_cert = "yes";
    s = orch_odbc_connect_string(&t, 41001);
    assert_string_equal(s, "Driver={FreeTDS};Server=127.0.0.1;Port=41001;Database=sbtest;"
                           "TDS_Version=7.4;ClientCharset=UTF-8;Encryption=require");
    free(s);
    t.encrypt = "no";
    s = orch_odbc_connect_string(&t, 41001);
    assert_string_equal(s, "Driver={FreeTDS};Server=127.0.0.1;Port=41001;Database=sbtest;"
                           "TDS_Version=7.4;ClientCharset=UTF-8;Encryption=off");
    free(s);
    /* psqlODBC; a database name with ';' goes in braces */
    t.engine = orch_dbengine_find("postgresql");
    t.odbc_driver = NULL;
    t.encrypt = t.trust_cert = NULL;
    t.database = "a;b}";
    s = orch_odbc_connect_string(&t, 5432);
    assert_string_equal(s, "Driver={PostgreSQL Unicode};Server=127.0.0.1;Port=5432;"
                           "Database={a;b}}}");
    free(s);
}

/* The sqlserver plan's oltp command lines: ODBC options, never the
 * password (oltp reads it from OLTP_ODBC_PASSWORD). */
static void test_sqlserver_argv(void **state)
{
    orch_plan *p = orch_plan_load("tests/orchestrator/render-sqlserver.ini", stderr);
    char **argv, *joined = NULL;
    size_t len = 0;
    FILE *j;
    (void)state;
    assert_non_null(p);
    free(p->db_password);
    p->db_password = strdup("S3cret;pw");
    argv = orch_oltp_ping_argv(p, "bin/oltp", 41000, 3);
    j = open_memstream(&joined, &len);
    for (int i = 0; argv[i]; i++)
        fprintf(j, "%s%s", i ? " " : "", argv[i]);
    fclose(j);
    assert_string_equal(joined, "bin/oltp --db-driver=odbc --odbc-connect=Driver={ODBC Driver "
                        "18 for SQL Server};Server=tcp:127.0.0.1,41000;Database=sbtest;"
                        "Encrypt=yes;TrustServerCertificate=yes --odbc-user=drivebench "
                        "--connect-timeout=3 ping");
    free(joined);
    orch_argv_free(argv);
    argv = orch_oltp_argv(p, "bin/oltp", 41000, "run", 10, 0, "/r/x.json");
    for (int i = 0; argv[i]; i++) {
        assert_null(strstr(argv[i], "S3cret"));
        assert_null(strcasestr(argv[i], "password"));
        assert_null(strstr(argv[i], "PWD="));
    }
    assert_string_equal(orch_dbdriver_password_env(p->db_driver), "OLTP_ODBC_PASSWORD");
    orch_argv_free(argv);
    orch_plan_free(p);
}

/* The reference SQL Server plan: its [engine] file sizes reach prepare
 * (whole MiB), never the run; the procedures, the keys after the load and
 * the statistics come from extra, on every command. */
static void test_sqlserver_plan_prepare_argv(void **state)
{
    orch_plan *p = orch_plan_load("plans/sqlserver-tpcc.ini", stderr);
    static const char *const commands[] = { "prepare", "run" };
    (void)state;
    assert_non_null(p);
    for (int c = 0; c < 2; c++) {
        char **argv = orch_oltp_argv(p, "oltp", 41000, commands[c], 1800, 0, "/r/x.json");
        char *joined = NULL, *args;
        size_t len = 0;
        FILE *j = open_memstream(&joined, &len);
        assert_non_null(argv);
        for (int i = 0; argv[i]; i++)
            fprintf(j, "%s%s", i ? " " : "", argv[i]);
        fclose(j);
        args = strstr(joined, " --warehouses=");
        assert_non_null(args);
        assert_string_equal(args, c == 0
            ? " --warehouses=1500 --threads=150 --tpcc-data-size=163840 --tpcc-log-size=32768 "
              "--tpcc-data-growth=1024 --tpcc-log-growth=1024 --terminals=15000 --keying-thinking=on "
              "--time-scale=0.22 --tpcc-procedures=on --tpcc-keys-after-load=on --tpcc-statistics=on "
              "tpcc prepare"
            : " --warehouses=1500 --threads=150 --time=1800 --report-interval=1 --json=/r/x.json "
              "--terminals=15000 --keying-thinking=on --time-scale=0.22 --tpcc-procedures=on "
              "--tpcc-keys-after-load=on --tpcc-statistics=on tpcc run");
        free(joined);
        orch_argv_free(argv);
    }
    orch_plan_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_exact),
        cmocka_unit_test(test_render_uuid_per_repetition),
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_names_are_data),
        cmocka_unit_test(test_bad_templates),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_render_sqlserver),
        cmocka_unit_test(test_render_matrix),
        cmocka_unit_test(test_render_passt),
        cmocka_unit_test(test_odbc_connect_strings),
        cmocka_unit_test(test_sqlserver_argv),
        cmocka_unit_test(test_sqlserver_plan_prepare_argv),
    };
    return cmocka_run_group_tests_name("orchestrator render", tests, NULL, NULL);
}
