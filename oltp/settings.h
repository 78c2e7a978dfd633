/*
 * settings.h — `oltp [driver options] [--server-settings=...] [--json=FILE]
 * settings`: the server's version, edition and the settings that move a
 * drive's figures, read before a measurement (issue 44).
 *
 * Per dialect a fixed list (MariaDB/MySQL: the buffer pool, log file
 * size, flush method, innodb_flush_log_at_trx_commit; PostgreSQL:
 * shared_buffers, max_wal_size, synchronous_commit, full_page_writes;
 * SQL Server: max server memory, the database's recovery model, RCSI and
 * target recovery time, instant file initialization, each data and log
 * file's size and growth), plus each setting --server-settings names
 * (NAME=VALUE;NAME=VALUE, the plan's; the value is recorded as "wanted").
 * On SQL Server the stated settings are first applied with sp_configure
 * and RECONFIGURE. What the server cannot tell is recorded without a
 * value and with a note naming the SQL Server documentation it follows
 * (Babelfish lacks several). The document (common/results_server.h res_server,
 * results/SCHEMA.md "Server settings") goes to --json, else stdout; a line
 * per setting goes to out.
 */
#ifndef OLTP_SETTINGS_H
#define OLTP_SETTINGS_H

#include <stdio.h>

#include "options/options.h"

/* Exit 0; 2 for a bad --server-settings, an unknown driver or a file that
 * cannot be written; 3 when the server cannot be reached (one line on err). */
int oltp_settings(const oltp_opts *o, FILE *out, FILE *err);

#endif
