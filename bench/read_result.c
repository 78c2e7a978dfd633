/*
 * read_result.c — what reading one oltp result costs drivebench
 * (bench/result_read.sh): res_oltp_read_file of FILE, then the process's
 * peak RSS (getrusage, KiB) and the CPU seconds the read took, on one
 * line: "maxrss_kib cpu_s intervals buckets" (buckets: of every interval
 * histogram). Exit 1 when the file is refused.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include "results_oltp.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    res_oltp r;
    char err[512];
    struct rusage ru;
    double t0;
    long buckets = 0;
    const res_phase *m;
    if (argc != 2) {
        fputs("usage: read_result FILE\n", stderr);
        return 2;
    }
    t0 = cpu_now();
    if (res_oltp_read_file(argv[1], &r, err, sizeof err) < 0) {
        fprintf(stderr, "read_result: %s\n", err);
        return 1;
    }
    t0 = cpu_now() - t0;
    m = res_oltp_measure(&r);
    for (int i = 0; m && i < m->nintervals; i++)
        buckets += m->intervals[i].histogram ? m->intervals[i].histogram->n : 0;
    getrusage(RUSAGE_SELF, &ru);
    printf("%ld %.3f %d %ld\n", ru.ru_maxrss, t0, m ? m->nintervals : 0, buckets);
    res_oltp_clear(&r);
    return 0;
}
