/* test_placement.c — [run] pinning (plan/placement.h, virt/placement_host.h):
 * the topology of the 64-core, 2-node host of the render goldens
 * (tests/orchestrator/render/host-64core-2node.caps.xml) and of libvirt's
 * test:///default (2 nodes of 8 CPUs, no SMT), each VM's place on them,
 * the refusals, and explicit lists. Run from the repository root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plan/plan.h"
#include "virt/virt.h"

#define CAPS64 "tests/orchestrator/render/host-64core-2node.caps.xml"

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    char *text = NULL;
    size_t len = 0;
    assert_non_null(f);
    assert_true(getdelim(&text, &len, '\0', f) > 0);
    fclose(f);
    return text;
}

static void topo64(orch_host_topo *t)
{
    char err[256], *caps = slurp(CAPS64);
    assert_int_equal(orch_topo_parse(caps, t, err, sizeof err), 0);
    free(caps);
}

static void test_topology(void **state)
{
    orch_host_topo t;
    char err[256];
    (void)state;
    topo64(&t);
    assert_int_equal(t.ncpus, 128);
    assert_int_equal(t.ncores, 64);
    assert_int_equal(t.nnodes, 2);
    /* CPU 64 is CPU 0's sibling: the same core, node 0; CPU 32 node 1 */
    assert_int_equal(t.cpus[0].id, 0);
    assert_int_equal(t.cpus[1].id, 64);
    assert_int_equal(t.cpus[1].core, t.cpus[0].core);
    assert_int_equal(t.cpus[64].id, 32);
    assert_int_equal(t.cpus[64].node, 1);
    orch_topo_clear(&t);
    /* no cells (the test driver's custom nodes): no CPUs, no error */
    assert_int_equal(orch_topo_parse("<capabilities><host><topology><cells num='0'/></topology>"
                                     "</host></capabilities>", &t, err, sizeof err), 0);
    assert_int_equal(t.ncpus, 0);
    assert_int_equal(orch_topo_parse("not xml", &t, err, sizeof err), -1);
    assert_string_equal(err, "the host's capabilities are not XML");
}

static void test_auto_8x8(void **state)
{
    orch_host_topo t;
    orch_vm_place pl[16];
    char err[512];
    (void)state;
    topo64(&t);
    assert_int_equal(orch_place_auto(&t, 8, 8, pl, err, sizeof err), 0);
    /* VMs alternate between the nodes; each takes 4 whole cores (8
     * threads), siblings together, after the node's first core */
    assert_string_equal(pl[0].vcpus, "1-4,65-68");
    assert_int_equal(pl[0].vcpu_cpu[0], 1);
    assert_int_equal(pl[0].vcpu_cpu[1], 65);
    assert_string_equal(pl[0].emulator, "0,64");
    assert_int_equal(pl[0].node, 0);
    assert_string_equal(pl[1].vcpus, "33-36,97-100");
    assert_string_equal(pl[1].emulator, "32,96");
    assert_int_equal(pl[1].node, 1);
    assert_string_equal(pl[2].vcpus, "5-8,69-72");
    assert_string_equal(pl[7].vcpus, "45-48,109-112");
    assert_int_equal(pl[7].node, 1);
    for (int v = 0; v < 8; v++)
        orch_vm_place_clear(&pl[v]);

    /* 16 x 8 vCPUs need 64 cores; 62 are left beside the 2 set apart */
    assert_int_equal(orch_place_auto(&t, 16, 8, pl, err, sizeof err), 1);
    assert_string_equal(err, "pinning = auto: 16 VM(s) x 8 vCPU(s) need 64 whole core(s) of 2 "
                        "thread(s) and the host has 62 for vCPUs (64 core(s), 128 CPU(s), 2 NUMA "
                        "node(s), one core per node set apart for emulators and I/O threads)");
    assert_null(pl[0].vcpu_cpu);
    /* 15 fit in number (60 cores) but the 15th would span two nodes */
    assert_int_equal(orch_place_auto(&t, 15, 8, pl, err, sizeof err), 1);
    assert_string_equal(err, "pinning = auto: VM 15's 8 vCPU(s) do not fit on one NUMA node of "
                        "the host (0 core(s) free on node 0)");
    orch_topo_clear(&t);
}

static void test_explicit(void **state)
{
    orch_host_topo t;
    orch_vm_place pl[2];
    char err[512];
    (void)state;
    topo64(&t);
    assert_int_equal(orch_place_check_list("1-8/0 9-16", 2, err, sizeof err), 0);
    assert_int_equal(orch_place_explicit("1-8/0 9-16", 0, 2, 8, &t, pl, err, sizeof err), 0);
    assert_string_equal(pl[0].vcpus, "1-8");
    assert_string_equal(pl[0].emulator, "0");
    assert_int_equal(pl[0].node, 0);
    assert_string_equal(pl[1].emulator, "9-16");     /* no /EMULATOR: its own CPUs */
    orch_vm_place_clear(&pl[0]);
    orch_vm_place_clear(&pl[1]);
    /* across both nodes: memory not bound */
    assert_int_equal(orch_place_explicit("30-33", 0, 1, 4, &t, pl, err, sizeof err), 0);
    assert_int_equal(pl[0].node, -1);
    orch_vm_place_clear(&pl[0]);
    assert_int_equal(orch_place_explicit("1-4", 0, 1, 8, &t, pl, err, sizeof err), -1);
    assert_string_equal(err, "pinning: '1-4' (VM 1) has 4 CPU(s) for its 8 vCPU(s)");
    assert_int_equal(orch_place_explicit("1 200-207", 1, 1, 8, &t, pl, err, sizeof err), -1);
    assert_string_equal(err, "pinning: '200-207' (VM 2): the host has no CPU 200");
    assert_int_equal(orch_place_check_list("1-8", 2, err, sizeof err), -1);
    assert_string_equal(err, "pinning: 1 CPU set(s) for 2 VM(s): one per VM, in the plan's order, "
                        "each CPUS or CPUS/EMULATOR (libvirt cpusets), or auto, or off");
    assert_int_equal(orch_place_check_list("1-8 9-x", 2, err, sizeof err), -1);
    assert_string_equal(err, "pinning: '9-x' (VM 2) is not CPUS or CPUS/EMULATOR with CPUS a "
                        "cpuset such as 2-9 or 2,4,6-8");
    assert_int_equal(orch_place_check_list("1 2 3", 2, err, sizeof err), -1);
    assert_string_equal(err, "pinning: more CPU sets than the plan's 2 VM(s) ('3' and after)");
    assert_int_equal(orch_place_check_list("3-1", 1, err, sizeof err), -1);
    assert_int_equal(orch_place_check_list("1,1", 1, err, sizeof err), -1);
    orch_topo_clear(&t);
}

/* test:///default through libvirt: 2 nodes of 8 CPUs, one thread a core */
static void test_default_host(void **state)
{
    virConnectPtr conn = virConnectOpen("test:///default");
    orch_host_topo t;
    orch_vm_place pl[3];
    char err[512];
    (void)state;
    assert_non_null(conn);
    assert_int_equal(orch_host_topology(conn, &t, err, sizeof err), 0);
    assert_int_equal(t.ncpus, 16);
    assert_int_equal(t.ncores, 16);
    assert_int_equal(t.nnodes, 2);
    assert_int_equal(orch_place_auto(&t, 3, 2, pl, err, sizeof err), 0);
    assert_string_equal(pl[0].vcpus, "1,2");
    assert_string_equal(pl[0].emulator, "0");
    assert_string_equal(pl[1].vcpus, "9,10");
    assert_string_equal(pl[1].emulator, "8");
    assert_string_equal(pl[2].vcpus, "3,4");
    for (int v = 0; v < 3; v++)
        orch_vm_place_clear(&pl[v]);
    orch_topo_clear(&t);
    virConnectClose(conn);
}

static void test_cpuset_text(void **state)
{
    char buf[64];
    int ids[] = { 9, 1, 2, 3, 7, 5 };
    (void)state;
    assert_string_equal(orch_cpuset_text(ids, 6, buf, sizeof buf), "1-3,5,7,9");
    assert_string_equal(orch_cpuset_text(ids + 1, 2, buf, sizeof buf), "1,2");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_topology),
        cmocka_unit_test(test_auto_8x8),
        cmocka_unit_test(test_explicit),
        cmocka_unit_test(test_default_host),
        cmocka_unit_test(test_cpuset_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
