#!/usr/bin/env bash
# bench/tpcc_procedures.sh — TPC-C with the five transactions as stored
# procedures (`--tpcc-procedures=on`, one CALL per transaction) against the
# same transactions sent statement by statement from the client, on one
# private MariaDB started here and one database prepared once (with the
# procedures; client-side runs ignore them). Runs alternate (statements,
# procedures, statements, ...) in this one session; the medians of RUNS
# runs each are printed side by side with the ratio procedures/statements:
#   transactions/s and tpmC;
#   client CPU ms per transaction (oltp's rusage);
#   server CPU ms per transaction (mariadbd's utime + stime from /proc);
#   bytes on the wire per transaction (the server's Bytes_received +
#   Bytes_sent, both directions of every connection).
# Not a test: nothing here runs in `make test`.
#
# Usage: [OLTP_BIN=path] [WAREHOUSES=2] bench/tpcc_procedures.sh [RUNS] [SECONDS] [CONNECTIONS]
# Defaults: 3 runs of 30 s each at full speed (one terminal per connection),
# 8 connections, 2 warehouses, MariaDB with a 1 GiB buffer pool.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}; SECS=${2:-30}; CONNS=${3:-8}; WAREHOUSES=${WAREHOUSES:-2}
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
[ -x "$OLTP_BIN" ] || { echo "build first: make" >&2; exit 2; }
. tests/lib/mariadb.sh
MARIADB_BUFFER_POOL=1G mariadb_start >/dev/null
T=$(mktemp -d)
trap 'mariadb_stop; rm -rf "$T"' EXIT
export OLTP_MYSQL_PASSWORD=sbtest
OLTP="$OLTP_BIN --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --warehouses=$WAREHOUSES"
$OLTP --threads=2 --tpcc-procedures=on tpcc prepare >/dev/null
echo "MariaDB $(mariadb_sql 'SELECT VERSION()') over TCP 127.0.0.1, $WAREHOUSES warehouses, $CONNS connections at" \
     "full speed, ${SECS}s x $RUNS runs each, $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"

server_ticks() { awk '{print $14+$15}' "/proc/$MARIADB_PID/stat"; }
wire_bytes() {
  mariadb_sql "SELECT SUM(VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS
               WHERE VARIABLE_NAME IN ('BYTES_RECEIVED', 'BYTES_SENT')"
}
measure() {  # measure on|off -> "tps tpmC client_ms/trx server_ms/trx bytes/trx"
  local out s0 s1 b0 b1
  s0=$(server_ticks); b0=$(wire_bytes)
  out=$(python3 bench/cpu_of.py $OLTP --tpcc-procedures="$1" --threads="$CONNS" --time="$SECS" \
        --json="$T/run.json" tpcc run)
  s1=$(server_ticks); b1=$(wire_bytes)
  python3 - "$out" "$T/run.json" "$s0" "$s1" "$(getconf CLK_TCK)" "$b0" "$b1" <<'PY'
import json, re, sys
out, path = sys.argv[1], sys.argv[2]
s0, s1, hz, b0, b1 = map(float, sys.argv[3:8])
p = json.load(open(path))["phases"][-1]
trx = p["transactions"]
cpu = float(re.search(r"^client_cpu_s=([\d.]+)", out, re.M).group(1))
print(f"{p['tps']:.2f} {p['tpcc']['tpmC']:.0f} {cpu / trx * 1000:.4f} {(s1 - s0) / hz / trx * 1000:.4f} "
      f"{(b1 - b0) / trx:.0f}")
PY
}

declare -a CS SP
for i in $(seq 1 "$RUNS"); do
  CS+=("$(measure off)"); echo "run $i statements: ${CS[-1]}"
  SP+=("$(measure on)");  echo "run $i procedures: ${SP[-1]}"
done
$OLTP tpcc check >/dev/null || echo "warning: the consistency check failed after the runs" >&2
python3 - "${CS[*]}" "${SP[*]}" "$RUNS" <<'PY'
import statistics, sys
runs = int(sys.argv[3])
def cols(s):
    v = list(map(float, s.split()))
    return [statistics.median(v[i::5]) for i in range(5)]
cs, sp = cols(sys.argv[1]), cols(sys.argv[2])
names = ["transactions/s", "tpmC", "client CPU ms / trx", "server CPU ms / trx", "bytes on the wire / trx"]
print(f"\nmedians of {runs} alternating runs")
print(f"{'figure':<26}{'statements':>12}{'procedures':>12}{'proc/stmt':>11}")
for n, a, b in zip(names, cs, sp):
    print(f"{n:<26}{a:>12.3f}{b:>12.3f}{b / a if a else float('nan'):>11.2f}")
PY
