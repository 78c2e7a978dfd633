#!/usr/bin/env bash
# Compare bin/oltp with sysbench 1.0.20 on the same MariaDB, same data and
# options, alternating runs (sysbench, oltp, sysbench, oltp, ...), and print
# the median of each figure and the ratios oltp/sysbench:
#   TPS, p99 latency, client CPU seconds per 1,000 transactions,
#   server CPU seconds per 1,000 transactions.
# Targets (issue 2): client CPU/trx <= 0.35x sysbench's, TPS >= 1.2x.
#
# Usage: [SOCKET=1] [OLTP_BIN=path] bench/oltp_vs_sysbench.sh [RUNS] [SECONDS] [WORKLOAD] [THREADS]
# Defaults: 3 runs of 30 s of oltp_read_write, 16 threads, 4 tables x 100k
# rows, MariaDB with a 1 GiB buffer pool on a private data directory.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}; SECS=${2:-30}; WL=${3:-oltp_read_write}; THREADS=${4:-16}
TABLES=${TABLES:-4}; SIZE=${SIZE:-100000}
. tests/lib/mariadb.sh
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
[ -x "$OLTP_BIN" ] || make bin/oltp >/dev/null
MARIADB_BUFFER_POOL=1G mariadb_start
trap mariadb_stop EXIT
export OLTP_MYSQL_PASSWORD=sbtest
# SOCKET=1 connects both clients through the server's unix socket instead of TCP
if [ "${SOCKET:-0}" = 1 ]; then
  COMMON="--mysql-socket=$MARIADB_SOCKET --mysql-user=sbtest --tables=$TABLES --table-size=$SIZE"
else
  COMMON="--mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --tables=$TABLES --table-size=$SIZE"
fi
RUNOPTS="--threads=$THREADS --time=$SECS --percentile=99"
"$OLTP_BIN" $COMMON --threads=4 $WL prepare >/dev/null
echo "MariaDB $(mariadb_sql 'SELECT VERSION()') over $([ "${SOCKET:-0}" = 1 ] && echo "a unix socket" || echo "TCP 127.0.0.1"), $TABLES tables x $SIZE rows, $WL, $THREADS threads, ${SECS}s x $RUNS runs each, $(nproc) CPUs"

server_cpu() { awk '{print $14+$15}' "/proc/$MARIADB_PID/stat"; }
measure() {  # measure TOOL -> "tps p99 client_cpu_per_1k server_cpu_per_1k"
  local out s0 s1 hz; hz=$(getconf CLK_TCK)
  s0=$(server_cpu)
  if [ "$1" = sysbench ]; then
    out=$(python3 bench/cpu_of.py sysbench --db-driver=mysql $COMMON --mysql-password=sbtest $RUNOPTS $WL run)
  else
    out=$(python3 bench/cpu_of.py "$OLTP_BIN" $COMMON $RUNOPTS $WL run)
  fi
  s1=$(server_cpu)
  python3 - "$out" "$s0" "$s1" "$hz" <<'PY'
import re, sys
out, s0, s1, hz = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
trx = int(re.search(r"transactions:\s+(\d+)", out).group(1))
tps = float(re.search(r"transactions:\s+\d+\s+\(([\d.]+) per sec", out).group(1))
p99 = float(re.search(r"99th percentile:\s+([\d.]+)", out).group(1))
cpu = float(re.search(r"^client_cpu_s=([\d.]+)", out, re.M).group(1))
print(f"{tps:.2f} {p99:.2f} {cpu / trx * 1000:.4f} {(s1 - s0) / hz / trx * 1000:.4f}")
PY
}

declare -a SB OL
for i in $(seq 1 "$RUNS"); do
  SB+=("$(measure sysbench)"); echo "run $i sysbench: ${SB[-1]}"
  OL+=("$(measure oltp)");     echo "run $i oltp:     ${OL[-1]}"
done
python3 - "${SB[*]}" "${OL[*]}" "$RUNS" <<'PY'
import statistics, sys
runs = int(sys.argv[3])
def cols(s):
    v = list(map(float, s.split()))
    return [statistics.median(v[i::4]) for i in range(4)]
sb, ol = cols(sys.argv[1]), cols(sys.argv[2])
names = ["TPS", "p99 latency (ms)", "client CPU s / 1k trx", "server CPU s / 1k trx"]
print(f"\nmedians of {runs} alternating runs")
print(f"{'figure':<24}{'sysbench':>12}{'oltp':>12}{'oltp/sysbench':>15}")
for n, a, b in zip(names, sb, ol):
    print(f"{n:<24}{a:>12.3f}{b:>12.3f}{b / a if a else float('nan'):>15.2f}")
PY
