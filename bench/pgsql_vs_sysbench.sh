#!/usr/bin/env bash
# bench/pgsql_vs_sysbench.sh — oltp's sysbench mix on PostgreSQL (libpq's
# asynchronous API) against sysbench 1.0.20's own pgsql driver: the same
# private server, data and options; runs alternate (sysbench, oltp,
# sysbench, ...) and the medians are printed side by side with the ratio
# oltp/sysbench of:
#   TPS, p99 latency, client CPU seconds per 1,000 transactions (the
#   client's rusage), server CPU seconds per 1,000 transactions (the
#   postmaster and every backend, ended ones included, from /proc).
# Targets (issue 5, as the core's): client CPU/trx <= 0.35x sysbench's,
# TPS >= 1.2x. Not a test: nothing here runs in `make test`.
#
# Usage: [OLTP_BIN=path] [TABLES=4] [SIZE=100000] [ODBC=1]
#        bench/pgsql_vs_sysbench.sh [RUNS] [SECONDS] [WORKLOAD] [THREADS]
# Defaults: 3 runs of 30 s of oltp_read_write, 16 threads, 4 tables x 100k
# rows; the server runs with fsync=off (a client benchmark, not a disk one).
# ODBC=1 adds a third client: oltp through unixODBC and psqlODBC.
# OLTP_OPTS adds options to oltp's runs only (e.g. --event-threads=2).
# SOCKET=1 connects oltp and sysbench through the server's unix socket.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}; SECS=${2:-30}; WL=${3:-oltp_read_write}; THREADS=${4:-16}
TABLES=${TABLES:-4}; SIZE=${SIZE:-100000}
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
[ -x "$OLTP_BIN" ] || { echo "build first: make" >&2; exit 2; }
. tests/lib/postgres.sh
. tests/lib/odbc.sh

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

# CPU ticks of the server: the postmaster with its reaped children, plus the
# children alive now (checkpointer, walwriter, ... and backends)
server_ticks() {
  local t
  t=$(awk '{print $14+$15+$16+$17}' "/proc/$PGSQL_PID/stat")
  for c in $(pgrep -P "$PGSQL_PID"); do
    t=$((t + $(awk '{print $14+$15}' "/proc/$c/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}
client_cmd() {
  case $1 in
    sysbench) echo "sysbench --db-driver=pgsql $CONN $DATA $RUNOPTS $WL run" ;;
    oltp)     echo "$OLTP_BIN --db-driver=pgsql $CONN $DATA $RUNOPTS ${OLTP_OPTS:-} $WL run" ;;
    odbc)     echo "$OLTP_BIN --db-driver=odbc --odbc-dsn=bench --odbc-user=sbtest --odbc-password=sbtest $DATA $RUNOPTS ${OLTP_OPTS:-} $WL run" ;;
  esac
}
# one run of client $1: "tps p99_ms client_cpu_s_per_1k server_cpu_s_per_1k"
measure() {
  local out s0 s1
  s0=$(server_ticks)
  out=$(python3 bench/cpu_of.py $(client_cmd "$1"))
  # backends of the run end just after the client: let the postmaster reap them
  for _ in $(seq 1 50); do
    [ "$(pgrep -c -P "$PGSQL_PID" -f 'postgres: sbtest')" -eq 0 ] && break; sleep 0.1
  done
  s1=$(server_ticks)
  python3 - "$out" "$s0" "$s1" "$(getconf CLK_TCK)" <<'PY'
import re, sys
out, s0, s1, hz = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
trx = int(re.search(r"transactions:\s+(\d+)", out).group(1))
tps = float(re.search(r"transactions:\s+\d+\s+\(([\d.]+) per sec", out).group(1))
p99 = float(re.search(r"99th percentile:\s+([\d.]+)", out).group(1))
cpu = float(re.search(r"^client_cpu_s=([\d.]+)", out, re.M).group(1))
print(f"{tps:.2f} {p99:.2f} {1000 * cpu / trx:.4f} {1000 * (s1 - s0) / hz / trx:.4f}")
PY
}

CLIENTS="sysbench oltp"
[ "${ODBC:-0}" = 1 ] && CLIENTS="$CLIENTS odbc"
for i in $(seq 1 "$RUNS"); do
  for c in $CLIENTS; do
    r=$(measure "$c")
    echo "run $i $c: $r"
    echo "$c $r" >>"$T/runs"
  done
done
python3 - "$T/runs" "$RUNS" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
med = {}
for c in dict.fromkeys(r[0] for r in rows):
    vals = [list(map(float, r[1:])) for r in rows if r[0] == c]
    med[c] = [statistics.median(v[i] for v in vals) for i in range(4)]
names = ["TPS", "p99 latency (ms)", "client CPU s / 1k trx", "server CPU s / 1k trx"]
others = [c for c in med if c != "sysbench"]
print(f"\nmedians of {sys.argv[2]} alternating runs")
print(f"{'figure':<24}{'sysbench':>12}" + "".join(f"{c:>12}{c + '/sysbench':>16}" for c in others))
for i, n in enumerate(names):
    line = f"{n:<24}{med['sysbench'][i]:>12.3f}"
    for c in others:
        base = med["sysbench"][i]
        line += f"{med[c][i]:>12.3f}{(med[c][i] / base if base else float('nan')):>16.2f}"
    print(line)
PY
