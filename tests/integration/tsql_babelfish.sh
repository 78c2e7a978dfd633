#!/usr/bin/env bash
# Integration test of bin/oltp's SQL Server path against a real TDS/T-SQL
# server: Babelfish for PostgreSQL (tests/lib/babelfish.sh; built or reused
# by babelfish/build.sh), through unixODBC and Debian's FreeTDS driver
# (TDS_Version=7.4), with the mssql dialect learnt from SQL_DBMS_NAME.
# Readiness (oltp ping), the six sysbench workloads (prepare, 30 s with 8
# threads, cleanup), retried unique violations of the DELETE + INSERT,
# TPC-C with statements and with procedures (check, conditions 1-4), the
# bulk path, and a forced deadlock retried and counted.
# Transactions committed and rolled back are pg_stat_database's of
# babelfish_db, compared with oltp's JSON.
#
# DRAFT: written while Babelfish was building; not yet run against it, so
# not in TEST_TARGETS yet.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/babelfish.sh
. tests/lib/odbc.sh
. tests/lib/check.sh
. tests/lib/tpcc_roundtrip.sh

T=$(mktemp -d)
trap 'babelfish_stop; rm -rf "$T"' EXIT
babelfish_start || exit 1
odbc_setup "$T/odbc"
odbc_add_dsn sb_tds FreeTDS Server=127.0.0.1 Port="$BABELFISH_TDS_PORT" TDS_Version=7.4 \
  Database=master ClientCharset=UTF-8
export OLTP_ODBC_PASSWORD=$BABELFISH_PASSWORD
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
OLTP="$OLTP_BIN --db-driver=odbc --odbc-dsn=sb_tds --odbc-user=sbtest"
json() {  # json FILE EXPR: a Python expression over p, the last phase
  python3 -c 'import json, sys; p = json.load(open(sys.argv[1]))["phases"][-1]; print(eval(sys.argv[2]))' "$1" "$2"
}
# "COMMIT ROLLBACK" of babelfish_db, once no sbtest session is left
xacts() {
  local prev= cur
  for _ in $(seq 1 50); do
    cur=$(babelfish_psql "SELECT (SELECT COUNT(*) FROM pg_stat_activity WHERE usename = 'sbtest'),
      xact_commit, xact_rollback FROM pg_stat_database WHERE datname = 'babelfish_db'" | tr '|' ' ')
    [ "${cur%% *}" = 0 ] && [ "$cur" = "$prev" ] && break
    prev=$cur; sleep 0.2
  done
  echo "${cur#* }"
}

# --- readiness -------------------------------------------------------------------
$OLTP ping >"$T/out" 2>&1
check_eq "ping: Babelfish answers (exit 0)" 0 $?
$OLTP_BIN --db-driver=odbc --odbc-dsn=sb_tds --odbc-user=sbtest --odbc-password=wrong ping >"$T/out" 2>&1
check_eq "ping with a wrong password: exit 4 (refused login)" 4 $?

# --- the sysbench workloads ------------------------------------------------------------
$OLTP --tables=2 --table-size=2000 --threads=2 oltp_read_write prepare >"$T/out" 2>&1
check_eq "sysbench prepare exits 0" 0 $?
check_eq "sbtest1: 2000 rows, ids 1..2000" "2000|1|2000" "$(babelfish_psql 'SELECT COUNT(*), MIN(id), MAX(id) FROM dbo.sbtest1')"
for w in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_update_index oltp_update_non_index; do
  x=$(xacts)
  $OLTP --tables=2 --table-size=2000 --threads=8 --time=30 --json="$T/$w.json" $w run >"$T/$w" 2>&1
  check_eq "$w: 30 s, 8 threads, exit 0" 0 $?
  read -r c0 r0 <<<"$x"; read -r c1 r1 <<<"$(xacts)"
  retries=$(json "$T/$w.json" 'p["errors"]')       # the ignored (retried) errors
  check_eq "$w: server rollbacks = retries" "$retries" "$(( r1 - r0 ))"
done
$OLTP --tables=2 oltp_read_write cleanup >"$T/out" 2>&1
check_eq "sysbench cleanup exits 0" 0 $?

# --- the bulk path = INSERTs ------------------------------------------------------------
hashes=
for v in "--bulk=on --threads=2" "--bulk=off --threads=1"; do
  $OLTP --tables=1 oltp_read_write cleanup >/dev/null 2>&1
  $OLTP --tables=1 --table-size=3000 --rand-seed=3 $v oltp_read_write prepare >"$T/out" 2>&1
  check_eq "prepare $v exits 0" 0 $?
  hashes="$hashes $(babelfish_psql "SELECT md5(string_agg(id || ',' || k || ',' || c || ',' || pad, ';' ORDER BY id)) FROM dbo.sbtest1")"
done
set -- $hashes
check_eq "parameter arrays load the rows INSERTs load" "$1" "${2:-none}"
$OLTP --tables=1 oltp_read_write cleanup >/dev/null 2>&1

# --- TPC-C: statements, then procedures -------------------------------------------------
sql() { babelfish_psql "${1//FROM /FROM dbo.}"; }
tpcc_roundtrip "babelfish" sql $OLTP
tpcc_roundtrip "babelfish procedures" sql $OLTP --tpcc-procedures=on

check_summary
