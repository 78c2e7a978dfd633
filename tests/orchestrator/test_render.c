/* Template loading and domain XML rendering: output compared exactly with
 * expected/render-plan.xml (a drive named with <, ', &, .. and spaces),
 * every shipped profile renders, and the XML defines on libvirt's test
 * driver. Runs from the repository root. */
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

#include "layout.h"
#include "names.h"
#include "plan.h"
#include "template.h"
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
        { "sysbench", 3, { "model=\"virtio-scsi\"", "<vcpu placement=\"static\">8</vcpu>",
                           "-seed.qcow2\"/>" } },
        { "sqlserver", 2, { "model=\"virtio-scsi\"", "<vcpu placement=\"static\">16</vcpu>",
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_render_exact),
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_names_are_data),
        cmocka_unit_test(test_bad_templates),
        cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests_name("orchestrator render", tests, NULL, NULL);
}
