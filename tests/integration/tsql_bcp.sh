#!/usr/bin/env bash
# Integration test of bin/oltp's SQL Server bulk paths against a real
# TDS/T-SQL server, Babelfish (tests/lib/babelfish.sh), through unixODBC and
# Debian's FreeTDS (TDS_Version=7.4): the sysbench rows loaded by parameter
# arrays (--bulk=on), by prepared INSERTs of many row constructors
# (--bulk=values) and by multi-row INSERT text (--bulk=off) are the same
# rows, compared by md5 of the table on PostgreSQL's side, with and
# without --auto-inc; and --bulk=bcp, SQL Server's bulk copy, is found in
# FreeTDS and reaches the server, which refuses the stream: FreeTDS ends a
# bulk load without the DONE token that MS-TDS 2.2.6.1 says ends
# BulkLoadBCP, and Babelfish 4.2 (tdsbulkload.c, SetBulkLoadRowData) reads
# on for it (docs/odbc-sqlserver.md).
set -u
cd "$(dirname "$0")/../.."
. tests/lib/babelfish.sh
. tests/lib/check.sh

T=$(mktemp -d)
trap 'babelfish_stop; rm -rf "$T"' EXIT
babelfish_start || exit $?   # 77: no sources here (skipped; required under CI=true)
babelfish_odbc "$T/odbc"
OLTP="${OLTP_BIN:-./bin/oltp} --db-driver=odbc --odbc-dsn=sb_tds --odbc-user=sbtest"
# T-SQL's master.dbo is PostgreSQL's schema master_dbo
rows() {
  babelfish_psql "SELECT COUNT(*) || ' ' || md5(string_agg(id || ',' || k || ',' || c || ',' || pad, ';' ORDER BY id))
    FROM master_dbo.sbtest1"
}
load() {  # load OPTIONS...: a fresh sbtest1 of 3,000 rows; prints rows()
  $OLTP --tables=1 oltp_read_write cleanup >/dev/null 2>&1
  $OLTP --tables=1 --table-size=3000 --rand-seed=3 "$@" oltp_read_write prepare >"$T/out" 2>&1 \
    || { echo "prepare $* failed: $(cat "$T/out")"; return; }
  rows
}

for ai in on off; do
  want=$(load --auto-inc=$ai --bulk=off --threads=1)
  check_eq "auto-inc=$ai: INSERT text loads 3000 rows" 3000 "${want%% *}"
  check_eq "auto-inc=$ai: parameter arrays load the same rows" "$want" "$(load --auto-inc=$ai --bulk=on)"
  check_eq "auto-inc=$ai: INSERTs of row constructors load the same rows" "$want" \
    "$(load --auto-inc=$ai --bulk=values)"
done

# --bulk=bcp: FreeTDS's bulk copy found and sent; Babelfish refuses the stream
$OLTP --tables=1 oltp_read_write cleanup >/dev/null 2>&1
$OLTP --tables=1 --table-size=3000 --bulk=bcp oltp_read_write prepare >"$T/out" 2>&1
check_eq "bcp: prepare exits 2" 2 $?
check_eq "bcp: the server's message, said once" \
  "oltp: loading sbtest1: error 33557097: [FreeTDS][SQL Server]Trying to read more data than available in BCP request." \
  "$(grep '^oltp:' "$T/out")"
# Babelfish inserts what it has read every insert_bulk_rows_per_batch
# (1,000) rows; the last 1,000, where it looks for the DONE token, are lost
check_eq "bcp: Babelfish kept its first two batches of 1,000" 2000 \
  "$(babelfish_psql 'SELECT COUNT(*) FROM master_dbo.sbtest1')"
$OLTP --tables=1 oltp_read_write cleanup >/dev/null 2>&1

check_summary
