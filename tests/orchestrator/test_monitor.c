/* test_monitor.c — the VM health monitor on libvirt's test driver: real
 * lifecycle events from destroy/suspend, replayed I/O error events (the
 * test driver sends none), the first fault kept, cleared VMs ignored, and
 * timers on the event thread. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "virt/virt.h"
#include <libvirt/virterror.h>

typedef struct mon_fixture {
    virConnectPtr conn;
    virDomainPtr  dom[2];
    orch_monitor *m;
    char         *log;
    size_t        loglen;
    FILE         *logf;
} mon_fixture;

static virDomainPtr start_domain(virConnectPtr conn, const char *name)
{
    char xml[512];
    snprintf(xml, sizeof xml,
             "<domain type='test'><name>%s</name><memory>65536</memory>"
             "<os><type>hvm</type></os></domain>", name);
    return virDomainCreateXML(conn, xml, 0);
}

static void silent(void *ctx, virErrorPtr e)
{
    (void)ctx;
    (void)e;
}

static int setup(void **state)
{
    mon_fixture *f = calloc(1, sizeof *f);
    char err[256];
    assert_non_null(f);
    virSetErrorFunc(NULL, silent);
    assert_int_equal(orch_events_start(err, sizeof err), 0);
    f->conn = virConnectOpen("test:///default");
    assert_non_null(f->conn);
    f->dom[0] = start_domain(f->conn, "mon-a");
    f->dom[1] = start_domain(f->conn, "mon-b");
    assert_non_null(f->dom[0]);
    assert_non_null(f->dom[1]);
    f->logf = open_memstream(&f->log, &f->loglen);
    f->m = orch_monitor_new(f->logf);
    assert_non_null(f->m);
    assert_int_equal(orch_monitor_watch_conn(f->m, f->conn, "test:///default", err, sizeof err), 0);
    /* watching twice registers once */
    assert_int_equal(orch_monitor_watch_conn(f->m, f->conn, "test:///default", err, sizeof err), 0);
    assert_int_equal(orch_monitor_add(f->m, f->dom[0], "mon-a", "drive <A>"), 0);
    assert_int_equal(orch_monitor_add(f->m, f->dom[1], "mon-b", "drive B"), 1);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    mon_fixture *f = *state;
    orch_monitor_free(f->m);
    for (int i = 0; i < 2; i++) {
        virDomainDestroy(f->dom[i]);
        virDomainFree(f->dom[i]);
    }
    virConnectClose(f->conn);
    fclose(f->logf);
    free(f->log);
    free(f);
    return 0;
}

/* Wait (bounded) until slot fails; the fault's health in *h. */
static int wait_failed(orch_monitor *m, int slot, orch_health *h)
{
    for (int i = 0; i < 500; i++) {
        if (orch_monitor_health(m, slot, h))
            return 1;
        usleep(10000);
    }
    return 0;
}

static void test_destroy_is_a_stop(void **state)
{
    mon_fixture *f = *state;
    orch_health h;
    assert_int_equal(orch_monitor_failures(f->m), 0);
    assert_int_equal(virDomainDestroy(f->dom[0]), 0);
    assert_int_equal(wait_failed(f->m, 0, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_STOPPED);
    assert_string_equal(h.reason, "stopped: destroyed");
    assert_string_equal(orch_fault_name(h.fault), "stopped");
    assert_true(h.at > 0);
    /* the other VM is untouched */
    assert_int_equal(orch_monitor_health(f->m, 1, &h), 0);
    assert_int_equal(h.fault, ORCH_FAULT_NONE);
    assert_int_equal(orch_monitor_failures(f->m), 1);
    fflush(f->logf);
    assert_non_null(strstr(f->log, "drivebench: VM mon-a on drive drive <A> failed at "));
    assert_non_null(strstr(f->log, " UTC: stopped: destroyed\n"));
}

static void test_suspend_is_a_pause(void **state)
{
    mon_fixture *f = *state;
    orch_health h;
    assert_int_equal(virDomainSuspend(f->dom[1]), 0);
    assert_int_equal(wait_failed(f->m, 1, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_PAUSED);
    assert_string_equal(h.reason, "paused");
    /* resuming does not make it healthy: what it measured is void */
    assert_int_equal(virDomainResume(f->dom[1]), 0);
    assert_int_equal(orch_monitor_health(f->m, 1, &h), 1);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 0);
}

static void test_disk_full_replaces_the_pause(void **state)
{
    mon_fixture *f = *state;
    orch_health h;
    /* QEMU may report the pause before the error that caused it */
    orch_monitor_on_lifecycle(f->m, f->dom[0], VIR_DOMAIN_EVENT_SUSPENDED,
                              VIR_DOMAIN_EVENT_SUSPENDED_IOERROR);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_PAUSED);
    assert_string_equal(h.reason, "paused on an I/O error");
    orch_monitor_on_io_error(f->m, f->dom[0], "/srv/a/vm1-db.raw", "sda",
                             VIR_DOMAIN_EVENT_IO_ERROR_PAUSE, "enospc");
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_DISK_FULL);
    assert_string_equal(h.reason, "drive drive <A> is full: no space left for sda "
                                  "(/srv/a/vm1-db.raw); the VM was paused");
    /* the first real fault stays */
    orch_monitor_on_lifecycle(f->m, f->dom[0], VIR_DOMAIN_EVENT_STOPPED,
                              VIR_DOMAIN_EVENT_STOPPED_DESTROYED);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_DISK_FULL);
    /* another I/O error reason */
    orch_monitor_on_io_error(f->m, f->dom[1], "/srv/b/vm1-boot.qcow2", "sdb",
                             VIR_DOMAIN_EVENT_IO_ERROR_REPORT, "eio");
    assert_int_equal(orch_monitor_health(f->m, 1, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_IO_ERROR);
    assert_string_equal(h.reason, "I/O error (eio) on sdb (/srv/b/vm1-boot.qcow2); "
                                  "reported to the guest");
    assert_int_equal(orch_monitor_failures(f->m), 2);
}

/* virsh destroy: QEMU, sent SIGTERM, reports a shutdown from the host
 * before the domain stops; a guest's own shutdown reads differently. */
static void test_shutdown_from_host_or_guest(void **state)
{
    mon_fixture *f = *state;
    orch_health h;
    orch_monitor_on_lifecycle(f->m, f->dom[0], VIR_DOMAIN_EVENT_SHUTDOWN,
                              VIR_DOMAIN_EVENT_SHUTDOWN_HOST);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_STOPPED);
    assert_string_equal(h.reason, "stopped: shut down from the host (destroyed, or its QEMU "
                                  "killed)");
    orch_monitor_on_lifecycle(f->m, f->dom[1], VIR_DOMAIN_EVENT_SHUTDOWN,
                              VIR_DOMAIN_EVENT_SHUTDOWN_GUEST);
    assert_int_equal(orch_monitor_health(f->m, 1, &h), 1);
    assert_string_equal(h.reason, "stopped: the guest is shutting down");
}

/* A guest kernel panic with the profiles' pvpanic device and on_crash
 * destroy: libvirt reports the panic, then the domain stopped after its
 * crash; the panic is the fault, and a crash stop alone reads as one. */
static void test_panic_then_crash_stop(void **state)
{
    mon_fixture *f = *state;
    orch_health h;
    int slot;
    orch_monitor_on_lifecycle(f->m, f->dom[0], VIR_DOMAIN_EVENT_CRASHED,
                              VIR_DOMAIN_EVENT_CRASHED_PANICKED);
    orch_monitor_on_lifecycle(f->m, f->dom[0], VIR_DOMAIN_EVENT_STOPPED,
                              VIR_DOMAIN_EVENT_STOPPED_CRASHED);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_CRASHED);
    assert_string_equal(orch_fault_name(h.fault), "crashed");
    assert_string_equal(h.reason, "crashed: the guest kernel panicked");
    orch_monitor_on_lifecycle(f->m, f->dom[1], VIR_DOMAIN_EVENT_STOPPED,
                              VIR_DOMAIN_EVENT_STOPPED_CRASHED);
    assert_int_equal(orch_monitor_health(f->m, 1, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_CRASHED);
    assert_string_equal(h.reason, "stopped: the guest crashed");
    assert_int_equal(orch_monitor_failures(f->m), 2);
    /* QEMU stops the vCPUs on the panic, and libvirt may report that
     * pause first (seen in CI): the panic replaces it */
    orch_monitor_clear(f->m);
    slot = orch_monitor_add(f->m, f->dom[0], "mon-a", "drive <A>");
    assert_true(slot >= 0);
    orch_monitor_on_lifecycle(f->m, f->dom[0], VIR_DOMAIN_EVENT_SUSPENDED,
                              VIR_DOMAIN_EVENT_SUSPENDED_PAUSED);
    assert_int_equal(orch_monitor_health(f->m, slot, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_PAUSED);
    orch_monitor_on_lifecycle(f->m, f->dom[0], VIR_DOMAIN_EVENT_CRASHED,
                              VIR_DOMAIN_EVENT_CRASHED_PANICKED);
    assert_int_equal(orch_monitor_health(f->m, slot, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_CRASHED);
    assert_string_equal(h.reason, "crashed: the guest kernel panicked");
}

/* Reboots of a VM allowed to reboot while it boots: counted, not faults,
 * until its database answers; the next one is the fault "rebooted". A VM
 * not allowed to fails at its first. The test driver's virDomainReboot
 * sends no reboot event (checked here: the count stays 0), so the
 * events are replayed. */
static void test_boot_reboots_until_ready(void **state)
{
    mon_fixture *f = *state;
    orch_health h;

    assert_int_equal(orch_monitor_health(f->m, 0, &h), 0);
    assert_int_equal(h.boot_reboots, -1);
    orch_monitor_boot_reboots(f->m, 0);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 0);
    assert_int_equal(h.boot_reboots, 0);
    assert_int_equal(virDomainReboot(f->dom[0], 0), 0);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 0);
    assert_int_equal(h.boot_reboots, 0);
    for (int i = 0; i < 3; i++)
        orch_monitor_on_reboot(f->m, f->dom[0]);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 0);
    assert_int_equal(h.boot_reboots, 3);
    assert_int_equal(h.fault, ORCH_FAULT_NONE);
    assert_int_equal(orch_monitor_failures(f->m), 0);
    fflush(f->logf);
    assert_non_null(strstr(f->log, "drivebench: VM mon-a on drive drive <A> rebooted while booting "
                                   "(3 so far; tolerated until its database answers)\n"));

    orch_monitor_ready(f->m, 0);
    orch_monitor_on_reboot(f->m, f->dom[0]);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_REBOOTED);
    assert_string_equal(h.reason, "rebooted after its database answered");
    assert_int_equal(h.boot_reboots, 3);
    /* after the fault, more reboots change nothing */
    orch_monitor_on_reboot(f->m, f->dom[0]);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 1);
    assert_int_equal(h.boot_reboots, 3);

    /* the other VM never was allowed: its first reboot is the fault */
    orch_monitor_on_reboot(f->m, f->dom[1]);
    assert_int_equal(orch_monitor_health(f->m, 1, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_REBOOTED);
    assert_string_equal(h.reason, "rebooted");
    assert_int_equal(h.boot_reboots, -1);
    assert_int_equal(orch_monitor_failures(f->m), 2);
}

/* Which domains boot.c lets reboot while booting: on_reboot restart (a
 * Windows render), or absent (libvirt's default, restart); not destroy
 * (the Linux profiles). */
static void test_restarts_on_reboot(void **state)
{
    mon_fixture *f = *state;
    static const struct { const char *name, *elem; int want; } cases[] = {
        { "mon-restart", "<on_reboot>restart</on_reboot>", 1 },
        { "mon-destroy", "<on_reboot>destroy</on_reboot>", 0 },
        { "mon-default", "", 1 },
    };
    assert_int_equal(orch_domain_restarts_on_reboot(f->dom[0]), 1);     /* no element */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char xml[512];
        virDomainPtr d;
        snprintf(xml, sizeof xml, "<domain type='test'><name>%s</name><memory>65536</memory>"
                 "<os><type>hvm</type></os>%s</domain>", cases[i].name, cases[i].elem);
        assert_non_null(d = virDomainCreateXML(f->conn, xml, 0));
        assert_int_equal(orch_domain_restarts_on_reboot(d), cases[i].want);
        virDomainDestroy(d);
        virDomainFree(d);
    }
}

static void test_fail_from_the_run(void **state)
{
    mon_fixture *f = *state;
    orch_health h;
    orch_monitor_fail(f->m, 1, ORCH_FAULT_DATABASE, "the database stopped answering (oltp exit %d)", 3);
    assert_int_equal(orch_monitor_health(f->m, 1, &h), 1);
    assert_int_equal(h.fault, ORCH_FAULT_DATABASE);
    assert_string_equal(h.reason, "the database stopped answering (oltp exit 3)");
    assert_string_equal(orch_fault_name(h.fault), "database");
    /* out-of-range slots are ignored */
    orch_monitor_fail(f->m, 7, ORCH_FAULT_CLIENT, "x");
    assert_int_equal(orch_monitor_health(f->m, 7, &h), 0);
    assert_int_equal(orch_monitor_failures(f->m), 1);
}

static void test_cleared_vms_are_not_watched(void **state)
{
    mon_fixture *f = *state;
    orch_health h;
    orch_monitor_clear(f->m);
    /* teardown destroys them: not a fault */
    assert_int_equal(virDomainDestroy(f->dom[0]), 0);
    assert_int_equal(virDomainDestroy(f->dom[1]), 0);
    usleep(300000);
    assert_int_equal(orch_monitor_failures(f->m), 0);
    assert_int_equal(orch_monitor_health(f->m, 0, &h), 0);
    /* a new repetition starts again at slot 0 */
    virDomainFree(f->dom[0]);
    f->dom[0] = start_domain(f->conn, "mon-a");
    assert_non_null(f->dom[0]);
    assert_int_equal(orch_monitor_add(f->m, f->dom[0], "mon-a", "drive <A>"), 0);
    assert_int_equal(virDomainDestroy(f->dom[0]), 0);
    assert_int_equal(wait_failed(f->m, 0, &h), 1);
    assert_string_equal(h.reason, "stopped: destroyed");
}

static void count_tick(void *ctx)
{
    __atomic_add_fetch((int *)ctx, 1, __ATOMIC_SEQ_CST);
}

static void test_timer_ticks(void **state)
{
    mon_fixture *f = *state;
    static int ticks;
    ticks = 0;
    assert_int_equal(orch_monitor_every(f->m, 20, count_tick, &ticks), 0);
    for (int i = 0; i < 500 && __atomic_load_n(&ticks, __ATOMIC_SEQ_CST) < 3; i++)
        usleep(10000);
    assert_true(__atomic_load_n(&ticks, __ATOMIC_SEQ_CST) >= 3);
}

static void test_conn_lost_flag(void **state)
{
    mon_fixture *f = *state;
    /* the test driver cannot lose its connection: the flag stays clear and
     * reset is harmless */
    assert_int_equal(orch_monitor_conn_lost(f->m, f->conn), 0);
    orch_monitor_conn_reset(f->m, f->conn);
    assert_int_equal(orch_monitor_conn_lost(f->m, f->conn), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_destroy_is_a_stop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_suspend_is_a_pause, setup, teardown),
        cmocka_unit_test_setup_teardown(test_disk_full_replaces_the_pause, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shutdown_from_host_or_guest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_panic_then_crash_stop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_boot_reboots_until_ready, setup, teardown),
        cmocka_unit_test_setup_teardown(test_restarts_on_reboot, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fail_from_the_run, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cleared_vms_are_not_watched, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timer_ticks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_conn_lost_flag, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    orch_events_stop();
    return rc;
}
