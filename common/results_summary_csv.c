/* results_summary_csv.c — summary.csv (results_summary.h): one row per drive and
 * repetition, written beside summary.json by res_summary_write_files. */
#include "results_summary.h"
#include "results_io.h"
#include "atomic_file.h"
#include "results_json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a drive's (or a repetition's) status follows its failed VMs: JSON
 * (written only) and CSV */
const char *res_figures_status(const res_figures *f)
{
    return f->failed_vms ? "incomplete" : "complete";
}

/* A size's two CSV fields, each empty when not recorded. */
static void db_csv(FILE *f, const res_db_size *z)
{
    const int64_t v[2] = { z->data_bytes, z->log_bytes };
    for (int i = 0; i < 2; i++)
        if (res_db_known(v[i]))
            fprintf(f, ",%" PRId64, v[i]);
        else
            fputc(',', f);
}

/* summary.csv: one row per drive per repetition. */
int res_summary_write_csv(const res_summary *s, const char *path, char *err, size_t errlen)
{
    atomic_file *af = atomic_file_open(path, err, errlen);
    FILE *f = af ? atomic_file_stream(af) : NULL;
    char b[5][48];
    if (!af)
        return -1;
    fputs("run_id,drive,repetition,vms,tps,transactions,latency_avg_ms,latency_p99_ms,"
          "latency_p99_mean_of_vms_ms,failed_vms,status,failures,tpmC,NOPM", f);
    res_io_csv_head(f);
    fputs(",database_loaded_data_bytes,database_loaded_log_bytes,database_end_data_bytes,"
          "database_end_log_bytes", f);
    fputc('\n', f);
    for (int d = 0; d < s->ndrives; d++)
        for (int r = 0; r < s->drives[d].nreps; r++) {
            const res_repetition *g = &s->drives[d].reps[r];
            char *failures = NULL;
            size_t flen = 0;
            FILE *fl = open_memstream(&failures, &flen);
            /* "VM: reason" of each VM of this drive and repetition that failed */
            for (int i = 0; fl && i < s->nvms; i++) {
                const res_vm *v = &s->vms[i];
                if (v->failed && v->repetition == g->repetition
                    && strcmp(v->drive, s->drives[d].name) == 0)
                    fprintf(fl, "%s%s: %s", ftell(fl) ? "; " : "", v->name,
                            v->reason ? v->reason : "failed");
            }
            if (fl)
                fclose(fl);
            res_csv_field(f, s->run_id, false);
            fputc(',', f);
            res_csv_field(f, s->drives[d].name, false);
            fprintf(f, ",%d,%d,%s,%" PRId64 ",%s,%s,%s,%d,%s,", g->repetition, g->f.vms,
                    res_num(g->f.tps, b[0], sizeof b[0]), g->f.transactions,
                    res_num_opt(g->f.lat_avg_ms, b[1], sizeof b[1]),
                    res_num_opt(g->f.lat_p99_ms, b[2], sizeof b[2]),
                    res_num_opt(g->f.lat_p99_mean_of_vms_ms, b[3], sizeof b[3]), g->f.failed_vms,
                    res_figures_status(&g->f));
            res_csv_field(f, failures ? failures : "", false);
            /* TPC-C runs only: empty otherwise */
            fprintf(f, ",%s,%s", g->f.tpcc ? res_num(g->f.tpcc->tpmc, b[0], sizeof b[0]) : "",
                    g->f.tpcc && g->f.tpcc->has_nopm
                    ? res_num(g->f.tpcc->nopm, b[1], sizeof b[1]) : "");
            res_io_csv_row(f, s, d, g->repetition);
            db_csv(f, &g->f.db_loaded);
            db_csv(f, &g->f.db_end);
            fputc('\n', f);
            free(failures);
        }
    return atomic_file_commit(af, err, errlen);
}
