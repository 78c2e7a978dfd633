/* devlat_probe.c — drivebench's device-latency tracer (orchestrator/
 * telemetry/devlat.c) on its own, for bench/devlat_overhead.sh: traces
 * DISK (a name in /sys/block) for SECONDS and prints what it paired:
 *   "requests N writes N flushes N unmatched N write_p50_us N write_p99_us N"
 * Built by that script from the same sources as drivebench. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "telemetry/telemetry.h"
#include "util/util.h"

int main(int argc, char **argv)
{
    char err[256];
    const char *disks[1];
    hist *h[RES_DEVLAT_N] = { 0 };
    res_devlat_point *pts = NULL;
    int n = 0;
    int64_t unmatched = 0;
    tel_devlat *d;
    if (argc != 3) {
        fprintf(stderr, "usage: devlat_probe DISK SECONDS\n");
        return 2;
    }
    disks[0] = argv[1];
    if (!(d = tel_devlat_start("/sys", NULL, disks, 1, err, sizeof err))) {
        fprintf(stderr, "devlat_probe: %s\n", err);
        return 1;
    }
    tel_devlat_phase_start(d, orch_mono_now(), 1.0);
    sleep((unsigned)atoi(argv[2]));
    tel_devlat_phase_end(d);
    if (tel_devlat_take(d, h, &pts, &n, &unmatched) < 0) {
        fprintf(stderr, "devlat_probe: out of memory\n");
        return 1;
    }
    printf("requests %lld writes %lld flushes %lld unmatched %lld write_p50_us %lld "
           "write_p99_us %lld\n", (long long)h[RES_DEVLAT_ALL]->total,
           (long long)h[RES_DEVLAT_WRITE]->total, (long long)h[RES_DEVLAT_FLUSH]->total,
           (long long)unmatched, (long long)hist_percentile(h[RES_DEVLAT_WRITE], 50),
           (long long)hist_percentile(h[RES_DEVLAT_WRITE], 99));
    tel_devlat_free(d);
    for (int c = 0; c < RES_DEVLAT_N; c++)
        hist_free(h[c]);
    free(pts);
    return 0;
}
