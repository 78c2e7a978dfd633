#!/usr/bin/env bash
# bench/pgsql_vs_sysbench.sh — oltp's sysbench mix on PostgreSQL (libpq's
# asynchronous API) against sysbench 1.0.20's own pgsql driver: the same
# private server, data and options; runs alternate (sysbench, oltp,
# sysbench, ...) and the medians are printed side by side with the ratio
# oltp/sysbench of:
#   TPS, p99 latency, client CPU seconds per 1,000 transactions (the
#   client's rusage), server CPU seconds per 1,000 transactions (the
#   postmaster and every backend, ended ones included, from /proc).
# Targets (issue 24): client CPU/trx <= 0.5x sysbench's, TPS >= 1.0x, at
# 16 and 32 threads. Not a test: nothing here runs in `make test`.
#
# Usage: [OLTP_BIN=path] [TABLES=4] [SIZE=100000] [ODBC=1]
#        bench/pgsql_vs_sysbench.sh [RUNS] [SECONDS] [WORKLOAD] [THREADS]
# Defaults: 3 runs of 30 s of oltp_read_write, 16 threads, 4 tables x 100k
# rows; the server runs with fsync=off (a client benchmark, not a disk one).
# ODBC=1 adds a client: oltp through unixODBC and psqlODBC.
# FLOOR=1 adds bench/floor_client.c (built here): the same 20 statements
# per transaction through libpq's blocking PQexecPrepared, nothing else.
# PIPELINE=1 adds oltp --pipeline=on ("pipe"): a different client timing
# (a transaction's statements sent without waiting, answered at COMMIT).
# OLTP_OPTS adds options to oltp's runs only (e.g. --event-threads=2).
# SOCKET=1 connects oltp and sysbench through the server's unix socket.
# OLTP_ET="2 4" adds oltp clients with --event-threads=2, 4 (oltp-et2, ...).
# BENCH_MEDIANS_OUT=FILE appends the medians to FILE (bench/client_sweep.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}; SECS=${2:-30}; WL=${3:-oltp_read_write}; THREADS=${4:-16}
TABLES=${TABLES:-4}; SIZE=${SIZE:-100000}
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
[ -x "$OLTP_BIN" ] || { echo "build first: make" >&2; exit 2; }
. tests/lib/postgres.sh
. tests/lib/odbc.sh
. bench/lib.sh
[ "${FLOOR:-0}" = 1 ] && bench_build_floor

PGSQL_MAX_CONNECTIONS=$((THREADS + 20)) PGSQL_SHARED_BUFFERS=1GB postgres_start
T=$(mktemp -d)
trap 'postgres_stop; rm -rf "$T"' EXIT
odbc_setup "$T/odbc"
odbc_add_dsn bench PostgreSQL Servername=127.0.0.1 Port="$PGSQL_PORT" Database=sbtest Protocol=7.4-0
HOST=127.0.0.1; [ "${SOCKET:-0}" = 1 ] && HOST=$PGSQL_DIR
CONN="--pgsql-host=$HOST --pgsql-port=$PGSQL_PORT --pgsql-user=sbtest --pgsql-db=sbtest --pgsql-password=sbtest"
DATA="--tables=$TABLES --table-size=$SIZE"
RUNOPTS="--threads=$THREADS --time=$SECS --percentile=99"
"$OLTP_BIN" --db-driver=pgsql $CONN $DATA --threads=4 "$WL" prepare >/dev/null
postgres_sql "VACUUM ANALYZE" >/dev/null
echo "PostgreSQL $(postgres_sql 'SHOW server_version') over $([ "$HOST" = 127.0.0.1 ] && echo "TCP 127.0.0.1" || echo "a unix socket"), $TABLES tables x $SIZE rows, $WL," \
     "$THREADS threads, ${SECS}s x $RUNS runs each, oltp options: ${OLTP_OPTS:-(none)}," \
     "$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

client_cmd() {
  case $1 in
    sysbench) echo "sysbench --db-driver=pgsql $CONN $DATA $RUNOPTS $WL run" ;;
    oltp)     echo "$OLTP_BIN --db-driver=pgsql $CONN $DATA $RUNOPTS ${OLTP_OPTS:-} $WL run" ;;
    oltp-et*) echo "$OLTP_BIN --db-driver=pgsql $CONN $DATA $RUNOPTS ${OLTP_OPTS:-} --event-threads=${1#oltp-et} $WL run" ;;
    pipe)     echo "$OLTP_BIN --db-driver=pgsql $CONN $DATA $RUNOPTS ${OLTP_OPTS:-} --pipeline=on $WL run" ;;
    floor)    echo "$FLOOR_BIN pgsql $HOST $PGSQL_PORT sbtest sbtest sbtest $THREADS $SECS $TABLES $SIZE" ;;
    odbc)     echo "$OLTP_BIN --db-driver=odbc --odbc-dsn=bench --odbc-user=sbtest --odbc-password=sbtest $DATA $RUNOPTS ${OLTP_OPTS:-} $WL run" ;;
  esac
}
# one run of client $1: "tps p99_ms cpu user sys server" (CPU s per 1k trx)
measure() {
  local out s0 s1
  s0=$(bench_pg_server_ticks)
  out=$(python3 bench/cpu_of.py $(client_cmd "$1"))
  bench_pg_backends_gone
  s1=$(bench_pg_server_ticks)
  bench_figures "$out" "$s0" "$s1"
}

CLIENTS="sysbench oltp$(bench_et_clients)"
[ "${ODBC:-0}" = 1 ] && CLIENTS="$CLIENTS odbc"
[ "${PIPELINE:-0}" = 1 ] && CLIENTS="$CLIENTS pipe"
[ "${FLOOR:-0}" = 1 ] && CLIENTS="$CLIENTS floor"
for i in $(seq 1 "$RUNS"); do
  for c in $CLIENTS; do
    r=$(measure "$c")
    echo "run $i $c: $r"
    echo "$c $r" >>"$T/runs"
  done
done
bench_medians "$T/runs" "$RUNS"
