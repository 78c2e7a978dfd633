#!/usr/bin/env bash
# bench/pgsql_server_work.sh — what the PostgreSQL server does per
# transaction for each client of the oltp_read_write comparison: sysbench
# 1.0.20 and oltp (and oltp-etK: --event-threads=K). One private
# server (pg_stat_statements loaded), one load, runs alternating client by
# client; for each run the server's own counters are read before and
# after, and the medians printed as markdown tables:
#   - per transaction: server CPU (postmaster and backends, from /proc),
#     the statements' execution time (pg_stat_statements), commits,
#     rollbacks, deadlocks, rows returned/fetched/inserted/updated/deleted,
#     buffer hits, the share of HOT updates (pg_stat_database,
#     pg_stat_user_tables);
#   - per statement: calls per transaction, rows per call, execution time
#     per call, plans per call (1 = a custom plan each time, 0 = the
#     generic plan), buffers per call;
#   - after the run: how many rows of the tables hold a c or pad value
#     shorter than the 119 / 59 characters the workload writes;
#   - server CPU per transaction against throughput over all runs (cpu =
#     a + b / TPS) and each client's mean distance from that line: the
#     same work per transaction puts every client on it.
# Not a test: nothing here runs in `make test`.
#
# Usage: [OLTP_BIN=path] [TABLES=4] [SIZE=10000] [CLIENTS="sysbench oltp oltp-et8"]
#        bench/pgsql_server_work.sh [RUNS] [SECONDS] [THREADS]
# Defaults: 3 rounds of 6 s, 8 threads, 4 tables x 10,000 rows, TCP
# 127.0.0.1, fsync=off, the options of bench/pgsql_vs_sysbench.sh.
# FLOOR=1 adds bench/floor_client.c (uniform ids, not sysbench's
# distribution). OLTP_OPTS adds options to oltp's runs.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}; SECS=${2:-6}; THREADS=${3:-8}
TABLES=${TABLES:-4}; SIZE=${SIZE:-10000}
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
CLIENTS=${CLIENTS:-sysbench oltp}
[ "${FLOOR:-0}" = 1 ] && CLIENTS="$CLIENTS floor"
[[ $RUNS =~ ^[1-9][0-9]*$ && $SECS =~ ^[1-9][0-9]*$ && $THREADS =~ ^[1-9][0-9]*$ ]] ||
  { echo "bench/pgsql_server_work.sh: RUNS, SECONDS and THREADS are positive integers" >&2; exit 2; }
[ -x "$OLTP_BIN" ] || { echo "build first: make" >&2; exit 2; }
command -v perf >/dev/null || { echo "bench/pgsql_server_work.sh: needs perf (apt-get install linux-perf)" >&2; exit 2; }
. tests/lib/postgres.sh
. bench/lib.sh
[ "${FLOOR:-0}" = 1 ] && bench_build_floor

PGSQL_OPTS="-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_planning=on" \
  PGSQL_MAX_CONNECTIONS=$((THREADS + 20)) PGSQL_SHARED_BUFFERS=1GB postgres_start
T=$(mktemp -d)
trap 'postgres_stop; rm -rf "$T"' EXIT
postgres_sql "CREATE EXTENSION pg_stat_statements" >/dev/null
CONN="--pgsql-host=127.0.0.1 --pgsql-port=$PGSQL_PORT --pgsql-user=sbtest --pgsql-db=sbtest --pgsql-password=sbtest"
DATA="--tables=$TABLES --table-size=$SIZE"
RUNOPTS="--threads=$THREADS --time=$SECS"
"$OLTP_BIN" --db-driver=pgsql $CONN $DATA --threads=4 oltp_read_write prepare >/dev/null
postgres_sql "VACUUM ANALYZE" >/dev/null
echo "PostgreSQL $(postgres_sql 'SHOW server_version') over TCP 127.0.0.1, $TABLES tables x $SIZE rows," \
     "oltp_read_write, $THREADS threads, ${SECS}s x $RUNS rounds of: $CLIENTS;" \
     "$(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"

client_cmd() {
  case $1 in
    sysbench)    echo "sysbench --db-driver=pgsql $CONN $DATA $RUNOPTS oltp_read_write run" ;;
    oltp)        echo "$OLTP_BIN --db-driver=pgsql $CONN $DATA $RUNOPTS ${OLTP_OPTS:-} oltp_read_write run" ;;
    oltp-et*)    echo "$OLTP_BIN --db-driver=pgsql $CONN $DATA $RUNOPTS ${OLTP_OPTS:-} --event-threads=${1#oltp-et} oltp_read_write run" ;;
    floor)       echo "$FLOOR_BIN pgsql 127.0.0.1 $PGSQL_PORT sbtest sbtest sbtest $THREADS $SECS $TABLES $SIZE" ;;
    *) echo "bench/pgsql_server_work.sh: unknown client '$1'" >&2; return 2 ;;
  esac
}

# The server's counters as one JSON object: statements of user sbtest
# (pg_stat_statements, tables' numbers folded into sbtestN), the
# database's and the tables' counters, and the short c / pad values.
data_sql="SELECT sum(short_c) AS short_c, sum(short_pad) AS short_pad, sum(n) AS n FROM ("
for t in $(seq 1 "$TABLES"); do
  [ "$t" -gt 1 ] && data_sql="$data_sql UNION ALL"
  data_sql="$data_sql SELECT count(*) FILTER (WHERE length(c) < 119) AS short_c,
    count(*) FILTER (WHERE length(pad) < 59) AS short_pad, count(*) AS n FROM sbtest$t"
done
data_sql="$data_sql) x"
counters() {
  postgres_sql "SELECT json_build_object(
    'stmts', (SELECT json_object_agg(q, s) FROM (
        SELECT regexp_replace(query, 'sbtest[0-9]+', 'sbtestN', 'g') AS q,
               json_build_object('calls', sum(calls), 'rows', sum(rows), 'plans', sum(plans),
                                 'exec_ms', sum(total_exec_time), 'plan_ms', sum(total_plan_time),
                                 'blks', sum(shared_blks_hit + shared_blks_read)) AS s
        FROM pg_stat_statements WHERE userid = 'sbtest'::regrole GROUP BY 1) st),
    'db', (SELECT row_to_json(d) FROM (SELECT xact_commit, xact_rollback, deadlocks, tup_returned,
           tup_fetched, tup_inserted, tup_updated, tup_deleted, blks_hit
           FROM pg_stat_database WHERE datname = 'sbtest') d),
    'tables', (SELECT row_to_json(t) FROM (SELECT sum(n_tup_upd) AS upd, sum(n_tup_hot_upd) AS hot_upd,
               sum(n_dead_tup) AS dead FROM pg_stat_user_tables) t),
    'data', (SELECT row_to_json(z) FROM ($data_sql) z))"
}

# One run of client $1: a JSON line with its report's transactions, the
# server's CPU ticks and its counters before and after.
measure() {
  local before after out s0 s1
  before=$(counters)
  postgres_sql "SELECT pg_stat_statements_reset()" >/dev/null
  s0=$(bench_pg_server_ticks split)
  # the server's scheduler counts (perf's software events: no PMU needed),
  # its backends included: they are forked after perf attaches
  perf stat -x, -e task-clock,context-switches,cpu-migrations -o "$T/perf" -p "$PGSQL_PID" 2>/dev/null &
  local perf=$!
  sleep 1      # perf attaches before the client connects (slower under load)
  out=$($(client_cmd "$1") 2>&1) || { echo "$1 failed:" >&2; echo "$out" >&2; kill -INT $perf; return 1; }
  bench_pg_backends_gone
  s1=$(bench_pg_server_ticks split)
  kill -INT $perf; wait $perf || true
  after=$(counters)
  python3 - "$1" "$out" "$s0" "$s1" "$(getconf CLK_TCK)" "$before" "$after" "$T/perf" <<'PY'
import json, re, sys
c, out, s0, s1, hz, before, after, perf = sys.argv[1:]
ev = {}
for line in open(perf):
    f = line.strip().split(",")
    if len(f) > 2 and f[0].replace(".", "").isdigit():
        ev[f[2]] = float(f[0])
m = re.search(r"transactions:\s+(\d+)\s+\(([\d.]+) per sec", out)
(u0, k0), (u1, k1) = (map(int, s0.split())), (map(int, s1.split()))
print(json.dumps({"client": c, "trx": int(m.group(1)), "tps": float(m.group(2)),
                  "server_s": (u1 + k1 - u0 - k0) / int(hz), "server_user_s": (u1 - u0) / int(hz),
                  "perf": ev,
                  "before": json.loads(before), "after": json.loads(after)}))
PY
}

for i in $(seq 1 "$RUNS"); do
  for c in $CLIENTS; do
    measure "$c" >>"$T/runs"
    echo "round $i $c: $(tail -1 "$T/runs" | python3 -c "import json, sys; r = json.load(sys.stdin); \
print('%.0f TPS, server %.3f CPU-s per 1k trx' % (r['tps'], r['server_s'] * 1000 / r['trx']))")," \
         "load average $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
python3 bench/pgsql_server_work.py "$T/runs"
