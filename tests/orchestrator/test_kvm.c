/* test_kvm.c — the domain type by measurement (virt/kvm.h), its inputs
 * injected: cpuinfo files with and without vmx/svm, a missing device, a
 * device on which KVM_CREATE_VM fails (a regular file: ENOTTY, and an
 * injected EBUSY), and an injected working ioctl; and the capabilities'
 * answer for a URI that is not this machine's qemu. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "virt/virt.h"

static char dir[] = "/tmp/orch-test-kvm.XXXXXX";
static char vmx[256], novmx[256], svm[256], dev[256];

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(vmx, sizeof vmx, "%s/vmx", dir);
    snprintf(novmx, sizeof novmx, "%s/novmx", dir);
    snprintf(svm, sizeof svm, "%s/svm", dir);
    snprintf(dev, sizeof dev, "%s/kvm", dir);
    write_file(vmx, "processor\t: 0\nflags\t\t: fpu vme sse4_2 vmx avx\n\n");
    /* "vmxx" and a "vmx" outside the flags line are not the flag */
    write_file(novmx, "processor\t: 0\nmodel name\t: vmx-like\nflags\t\t: fpu sse4_2 vmxx avx "
               "hypervisor\n\n");
    write_file(svm, "processor\t: 0\nflags\t\t: fpu svm\n");
    write_file(dev, "");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(vmx);
    unlink(novmx);
    unlink(svm);
    unlink(dev);
    rmdir(dir);
    return 0;
}

static int works(int fd)
{
    (void)fd;
    return dup(STDERR_FILENO);      /* a VM fd the measurement closes */
}

static int busy(int fd)
{
    (void)fd;
    errno = EBUSY;
    return -1;
}

static void test_measure(void **state)
{
    char why[256], want[512];
    orch_kvm_probe pr = { novmx, dev, works };
    (void)state;
    assert_string_equal(orch_kvm_measure(&pr, why, sizeof why), "qemu");
    snprintf(want, sizeof want, "the CPU has no vmx or svm flag (%s)", novmx);
    assert_string_equal(why, want);

    pr = (orch_kvm_probe){ vmx, "/nonexistent/kvm", works };
    assert_string_equal(orch_kvm_measure(&pr, why, sizeof why), "qemu");
    assert_string_equal(why, "/nonexistent/kvm: No such file or directory");

    pr = (orch_kvm_probe){ vmx, dev, NULL };    /* the real ioctl on a regular file */
    assert_string_equal(orch_kvm_measure(&pr, why, sizeof why), "qemu");
    snprintf(want, sizeof want, "KVM_CREATE_VM on %s failed: Inappropriate ioctl for device", dev);
    assert_string_equal(why, want);

    pr = (orch_kvm_probe){ svm, dev, busy };
    assert_string_equal(orch_kvm_measure(&pr, why, sizeof why), "qemu");
    snprintf(want, sizeof want, "KVM_CREATE_VM on %s failed: Device or resource busy", dev);
    assert_string_equal(why, want);

    pr = (orch_kvm_probe){ svm, dev, works };
    assert_string_equal(orch_kvm_measure(&pr, why, sizeof why), "kvm");
    snprintf(want, sizeof want, "vmx or svm flag and a working KVM_CREATE_VM on %s", dev);
    assert_string_equal(why, want);
}

/* A URI that is not qemu on this machine is not measured: its
 * capabilities answer (the test driver offers no kvm domain) */
static void test_auto_capabilities(void **state)
{
    virConnectPtr conn = virConnectOpen("test:///default");
    orch_kvm_probe pr = { vmx, dev, works };
    char why[256], err[256];
    (void)state;
    assert_non_null(conn);
    assert_string_equal(orch_kvm_domain_type(conn, "test:///default", &pr, why, sizeof why, err,
                                             sizeof err), "qemu");
    assert_string_equal(why, "host capabilities");
    assert_string_equal(orch_kvm_domain_type(conn, "qemu+ssh://lab/system", &pr, why, sizeof why,
                                             err, sizeof err), "qemu");
    assert_string_equal(why, "host capabilities (another host: not measured)");
    /* qemu:///system measured as kvm, but these capabilities offer none */
    assert_string_equal(orch_kvm_domain_type(conn, "qemu:///system", &pr, why, sizeof why, err,
                                             sizeof err), "qemu");
    assert_non_null(strstr(why, "measured: vmx or svm flag and a working KVM_CREATE_VM on "));
    assert_non_null(strstr(why, ", but libvirt's capabilities offer no kvm domain"));
    pr.cpuinfo = novmx;
    assert_string_equal(orch_kvm_domain_type(conn, "qemu:///session", &pr, why, sizeof why, err,
                                             sizeof err), "qemu");
    assert_non_null(strstr(why, "measured: the CPU has no vmx or svm flag ("));
    virConnectClose(conn);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measure),
        cmocka_unit_test(test_auto_capabilities),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
