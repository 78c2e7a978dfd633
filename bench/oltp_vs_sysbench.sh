#!/usr/bin/env bash
# Compare bin/oltp with sysbench 1.0.20 on the same MariaDB, same data and
# options, alternating runs (sysbench, oltp, [floor], sysbench, ...), and
# print the median of each figure and the ratios to sysbench:
#   TPS, p99 latency, client CPU seconds per 1,000 transactions (and its
#   user and kernel parts), server CPU seconds per 1,000 transactions.
# Targets (issue 24): client CPU/trx <= 0.5x sysbench's, TPS >= 1.0x, at
# 16 and 32 threads. Not a test: nothing here runs in `make test`.
#
# Usage: [SOCKET=1] [FLOOR=1] [OLTP_BIN=path] [OLTP_OPTS=...]
#        bench/oltp_vs_sysbench.sh [RUNS] [SECONDS] [WORKLOAD] [THREADS]
# Defaults: 3 runs of 30 s of oltp_read_write, 16 threads, 4 tables x 100k
# rows, MariaDB with a 1 GiB buffer pool on a private data directory.
# FLOOR=1 adds bench/floor_client.c (built here): the same 20 statements
# per transaction through Connector/C's blocking API, nothing else — the
# floor any client sending these round trips stands on (oltp_read_write
# over TCP only).
# OLTP_ET="2 4" adds oltp clients with --event-threads=2, 4 (oltp-et2, ...).
# BENCH_MEDIANS_OUT=FILE appends the medians to FILE (bench/client_sweep.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}; SECS=${2:-30}; WL=${3:-oltp_read_write}; THREADS=${4:-16}
TABLES=${TABLES:-4}; SIZE=${SIZE:-100000}
. tests/lib/mariadb.sh
. bench/lib.sh
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
[ -x "$OLTP_BIN" ] || make bin/oltp >/dev/null
[ "${FLOOR:-0}" = 1 ] && bench_build_floor
MARIADB_BUFFER_POOL=1G mariadb_start
T=$(mktemp -d)
trap 'mariadb_stop; rm -rf "$T"' EXIT
export OLTP_MYSQL_PASSWORD=sbtest
# SOCKET=1 connects both clients through the server's unix socket instead of TCP
if [ "${SOCKET:-0}" = 1 ]; then
  COMMON="--mysql-socket=$MARIADB_SOCKET --mysql-user=sbtest --tables=$TABLES --table-size=$SIZE"
else
  COMMON="--mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --tables=$TABLES --table-size=$SIZE"
fi
RUNOPTS="--threads=$THREADS --time=$SECS --percentile=99"
"$OLTP_BIN" $COMMON --threads=4 $WL prepare >/dev/null
echo "MariaDB $(mariadb_sql 'SELECT VERSION()') over $([ "${SOCKET:-0}" = 1 ] && echo "a unix socket" || echo "TCP 127.0.0.1"), $TABLES tables x $SIZE rows, $WL, $THREADS threads, ${SECS}s x $RUNS runs each, oltp options: ${OLTP_OPTS:-(none)}, $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

server_ticks() { awk '{print $14+$15}' "/proc/$MARIADB_PID/stat"; }
client_cmd() {
  case $1 in
    sysbench) echo "sysbench --db-driver=mysql $COMMON --mysql-password=sbtest $RUNOPTS $WL run" ;;
    oltp)     echo "$OLTP_BIN $COMMON $RUNOPTS ${OLTP_OPTS:-} $WL run" ;;
    oltp-et*) echo "$OLTP_BIN $COMMON $RUNOPTS ${OLTP_OPTS:-} --event-threads=${1#oltp-et} $WL run" ;;
    floor)    echo "$FLOOR_BIN mysql 127.0.0.1 $MARIADB_PORT sbtest sbtest sbtest $THREADS $SECS $TABLES $SIZE" ;;
  esac
}
measure() {  # measure CLIENT -> "tps p99 cpu user sys server" (per 1k trx)
  local out s0 s1
  s0=$(server_ticks)
  out=$(python3 bench/cpu_of.py $(client_cmd "$1"))
  s1=$(server_ticks)
  bench_figures "$out" "$s0" "$s1"
}

CLIENTS="sysbench oltp$(bench_et_clients)"
[ "${FLOOR:-0}" = 1 ] && CLIENTS="$CLIENTS floor"
for i in $(seq 1 "$RUNS"); do
  for c in $CLIENTS; do
    r=$(measure "$c")
    echo "run $i $c: $r"
    echo "$c $r" >>"$T/runs"
  done
done
bench_medians "$T/runs" "$RUNS"
