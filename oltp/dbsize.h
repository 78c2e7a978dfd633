/*
 * dbsize.h — the size of the database oltp runs against, as its server
 * reports it (the dialect's size_data / size_log statements, dialect.h),
 * read by main.c after `prepare`, before and after `run`, and by `check`,
 * for every workload.
 */
#ifndef OLTP_DBSIZE_H
#define OLTP_DBSIZE_H

#include "attributes.h"

#include <stdio.h>

#include "drivers/db.h"
#include "results_oltp.h"

/* Read the size of c's database in dialect d into *out (RES_UNSET for
 * what the dialect cannot tell). 0, or -1 after printing one warning
 * line (the figures it could not read are RES_UNSET): a size that cannot
 * be read is no failure of the command. Statements run on c (blocking). */
int dbsize_read(db_conn *c, db_dialect d, res_db_size *out);

/* "database size (WHEN): 184.5 MiB (data 120.5 MiB, log 64.0 MiB)", or
 * "(data 120.5 MiB, no log of its own)"; nothing when the data size is
 * unknown. */
void dbsize_print(FILE *out, const char *when, const res_db_size *s);

#endif
