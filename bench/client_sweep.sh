#!/usr/bin/env bash
# bench/client_sweep.sh — issue 33's client sweep: oltp (its default
# options) against sysbench 1.0.20 and the floor client
# (bench/floor_client.c) at every thread count of a list, on MariaDB
# and/or PostgreSQL, `oltp_read_write`, the server on the same cores.
# Each thread count is one call of bench/oltp_vs_sysbench.sh or
# bench/pgsql_vs_sysbench.sh with FLOOR=1 (a fresh private server, rounds
# alternating sysbench, oltp, floor, sysbench, ...); this script collects
# their medians and prints, at the end, a ready-to-paste markdown table:
#   TPS of each client, oltp/sysbench (target >= 1.0), client CPU per
#   1,000 transactions of each, oltp/floor (target <= 1.1), and the load
#   average when that thread count started.
# Not a test: nothing here runs in `make test`.
#
# Usage: [TABLES=4] [SIZE=10000] [OLTP_ET="2 4"] [OLTP_OPTS=...] [OLTP_BIN=path]
#        bench/client_sweep.sh [SERVERS] [THREADS] [ROUNDS] [SECONDS]
#   SERVERS  mariadb, pgsql or both (default both)
#   THREADS  comma-separated thread counts (default 1,4,8,16,32,64)
#   ROUNDS   alternating rounds per thread count (default 5)
#   SECONDS  length of each run (default 6)
# OLTP_ET adds oltp clients with --event-threads=K (oltp-etK columns) to
# compare rules in one session. Small tables (4 x 10,000 rows) fit in
# memory: the server's cache is warm from the first round.
set -euo pipefail
cd "$(dirname "$0")/.."
SERVERS=${1:-both}; THREADS=${2:-1,4,8,16,32,64}; ROUNDS=${3:-5}; SECS=${4:-6}
case $SERVERS in
  both) SERVERS="mariadb pgsql" ;;
  mariadb|pgsql) ;;
  *) echo "bench/client_sweep.sh: SERVERS is mariadb, pgsql or both, not '$SERVERS'" >&2; exit 2 ;;
esac
[[ $THREADS =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
  { echo "bench/client_sweep.sh: THREADS is a comma-separated list of positive counts, not '$THREADS'" >&2; exit 2; }
[[ $ROUNDS =~ ^[1-9][0-9]*$ && $SECS =~ ^[1-9][0-9]*$ ]] ||
  { echo "bench/client_sweep.sh: ROUNDS and SECONDS are positive integers" >&2; exit 2; }
export TABLES=${TABLES:-4} SIZE=${SIZE:-10000} FLOOR=1
[ -n "${OLTP_BIN:-}" ] || make -s bin/oltp
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

echo "client sweep: $SERVERS, threads $THREADS, $ROUNDS rounds x ${SECS}s, $TABLES tables x $SIZE rows," \
     "oltp options: ${OLTP_OPTS:-(defaults)}${OLTP_ET:+, extra clients oltp-etK (--event-threads=K) for K in: $OLTP_ET}, $(nproc) CPUs," \
     "$(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for s in $SERVERS; do
  script=bench/oltp_vs_sysbench.sh; [ "$s" = pgsql ] && script=bench/pgsql_vs_sysbench.sh
  for n in ${THREADS//,/ }; do
    : >"$T/med"
    load=$(cut -d' ' -f1 /proc/loadavg)
    echo; echo "=== $s, $n threads (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    BENCH_MEDIANS_OUT=$T/med "$script" "$ROUNDS" "$SECS" oltp_read_write "$n"
    sed "s/^/$s $n $load /" "$T/med" >>"$T/all"
  done
done
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"

# the table: lines "server threads load client tps p99 cpu user sys server"
python3 - "$T/all" <<'PY'
import sys
rows = {}
order = []
for l in open(sys.argv[1]):
    srv, n, load, c, *v = l.split()
    key = (srv, int(n))
    if key not in rows:
        rows[key] = {"load": float(load)}
        order.append(key)
    rows[key][c] = [float(x) for x in v]
oltps = [c for c in dict.fromkeys(c for r in rows.values() for c in r) if c.startswith("oltp")]
name = {"mariadb": "MariaDB", "pgsql": "PostgreSQL"}
head = ["server", "threads", "sysbench TPS"]
for c in oltps:
    head += [f"{c} TPS", f"{c}/sb TPS"]
head += ["floor TPS", "sysbench CPU"]
for c in oltps:
    head += [f"{c} CPU", f"{c}/floor CPU"]
head += ["floor CPU", "load"]
print("\nmedians; TPS = transactions/s; CPU = client CPU s per 1,000 transactions;"
      " targets: oltp/sb TPS >= 1.00, oltp/floor CPU <= 1.10 (bold where missed)\n")
print("| " + " | ".join(head) + " |")
print("| --- | ---: |" + " ---: |" * (len(head) - 2))
def mark(ok, x):
    return f"{x:.2f}" if ok else f"**{x:.2f}**"
for key in order:
    r = rows[key]
    sb, fl = r["sysbench"], r["floor"]
    cells = [name[key[0]], str(key[1]), f"{sb[0]:,.0f}"]
    for c in oltps:
        q = r[c][0] / sb[0]
        cells += [f"{r[c][0]:,.0f}", mark(q >= 1.0, q)]
    cells += [f"{fl[0]:,.0f}", f"{sb[2]:.3f}"]
    for c in oltps:
        q = r[c][2] / fl[2]
        cells += [f"{r[c][2]:.3f}", mark(q <= 1.1, q)]
    cells += [f"{fl[2]:.3f}", f"{r['load']:.1f}"]
    print("| " + " | ".join(cells) + " |")
PY
