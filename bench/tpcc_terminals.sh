#!/usr/bin/env bash
# bench/tpcc_terminals.sh — what `oltp tpcc` costs on the client side, on a
# private MariaDB started here:
#
#  1. loading speed: one warehouse with multi-row INSERTs (--bulk=off;
#     the bulk path is measured by bench/prepare_vs_sysbench.sh)
#     against single-row INSERTs grouped 1,000 to a transaction, the way
#     tpcc-mysql's loader works (--tpcc-load-batch=1);
#  2. 15,000 terminals with keying and think times on, in one process,
#     served by a small pool of connections: oltp's peak RSS and CPU, and
#     the achieved transaction rate against the theoretical one, at real
#     a scaled time the server here can keep up with (x 2.5 by default;
#     real times want more warehouses and a server that delivers 725 tps:
#     WAREHOUSES=20 SCALES=1).
#
# Prints the figures; not a test (nothing here runs in `make test`).
# Knobs (environment): WAREHOUSES (2), TERMINALS (15000), CONNECTIONS (32),
# WARMUP (120 s), TIME (360 s, including the warm-up), SCALES ("2.5"),
# SKIP_LOAD_COMPARE=1.
set -u
cd "$(dirname "$0")/.."
. tests/lib/mariadb.sh

W=${WAREHOUSES:-2}
TERMS=${TERMINALS:-15000}
CONNS=${CONNECTIONS:-32}
WARMUP=${WARMUP:-120}
TIME=${TIME:-360}
SCALES=${SCALES:-2.5}
OLTP_BIN=${OLTP_BIN:-./bin/oltp}

[ -x "$OLTP_BIN" ] || { echo "build first: make" >&2; exit 2; }
MARIADB_BUFFER_POOL=${MARIADB_BUFFER_POOL:-2G} mariadb_start || exit 1
T=$(mktemp -d); trap 'mariadb_stop; rm -rf "$T"' EXIT
export OLTP_MYSQL_PASSWORD=sbtest
OLTP="$OLTP_BIN --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest"
py() { python3 -c "$@"; }

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); $(mariadb --version | head -c 80)"

# --- 1. loading speed -----------------------------------------------------------------
load() {  # load BATCH -> prints "rows seconds rows/s"
  $OLTP --warehouses=1 --threads=2 --bulk=off --tpcc-load-batch="$1" tpcc prepare >"$T/load" 2>&1 || { cat "$T/load" >&2; return 1; }
  sed -n 's/^Loaded \([0-9]*\) rows in \([0-9.]*\) s (\([0-9]*\) rows\/s)$/\1 \2 \3/p' "$T/load"
  $OLTP tpcc cleanup >/dev/null
}
if [ -z "${SKIP_LOAD_COMPARE:-}" ]; then
  echo
  echo "== loading 1 warehouse, 2 loader threads"
  read -r rows_m s_m rate_m <<<"$(load 1000)"
  echo "multi-row INSERTs (1,000 rows each):        $rows_m rows in $s_m s, $rate_m rows/s"
  read -r rows_s s_s rate_s <<<"$(load 1)"
  echo "single-row INSERTs (tpcc-mysql style):      $rows_s rows in $s_s s, $rate_s rows/s"
  echo "speed-up per warehouse:                     $(py "print(f'{$s_s / $s_m:.2f}x')")"
fi

# --- 2. 15,000 terminals -----------------------------------------------------------------
echo
echo "== loading $W warehouses for the terminal runs"
$OLTP --warehouses="$W" --threads=2 tpcc prepare >"$T/load" 2>&1 || { cat "$T/load"; exit 1; }
tail -1 "$T/load"
for scale in $SCALES; do
  echo
  echo "== $TERMS terminals, keying/think times x $scale, $CONNS connections, $W warehouses, ${WARMUP} s warm-up + $((TIME - WARMUP)) s measured"
  /usr/bin/time -f "%M %U %S %e" -o "$T/time" \
    $OLTP --warehouses="$W" --keying-thinking --time-scale="$scale" --terminals="$TERMS" \
      --connections="$CONNS" --warmup-time="$WARMUP" --time="$TIME" --json="$T/run.json" tpcc run >"$T/run" 2>&1
  rc=$?
  grep -E '^TPC-C' "$T/run"
  [ $rc -eq 0 ] || { echo "run failed (exit $rc):"; tail -20 "$T/run"; continue; }
  sed -n '/^Transactions by type/,/^Threads fairness/p' "$T/run" | sed '$d'
  read -r rss_kb user sys elapsed <"$T/time"
  py "
import json, math
d = json.load(open('$T/run.json')); p = d['phases'][-1]
terms, scale = $TERMS, $scale
# mean keying + think (clause 5.2.5), weighted by the mix completed in the
# window: with a few cycles per terminal, partly drawn decks lean it
mix = [t['share'] for t in p['transaction_types']]
pause = sum(m * (k + th * (1 - math.exp(-10))) for m, k, th in zip(mix, [18, 3, 2, 2, 2], [12, 12, 10, 5, 5])) * scale
deck = (216 + 260 * (1 - math.exp(-10))) / 23 * scale
lat = p['latency_ms']['avg'] / 1000
zero = terms / deck
theory = terms / (pause + lat)
print(f'oltp peak RSS:                 {$rss_kb / 1024:.0f} MiB ({$rss_kb * 1024 / terms:.0f} bytes per terminal)')
print(f'oltp CPU:                      {$user + $sys:.1f} s in {$elapsed:.0f} s = {($user + $sys) / $elapsed * 100:.1f}% of one core')
print(f'mean response time:            {lat * 1000:.1f} ms (p90 New-Order {p[\"transaction_types\"][0][\"latency_ms\"][\"p90\"]:.1f} ms)')
print(f'theoretical rate:              {theory:.2f} tps = {terms} / ({pause:.3f} s keying+think + {lat:.3f} s response)')
print(f'  (deck mix, zero response:    {zero:.2f} tps)')
print(f'achieved rate:                 {p[\"tps\"]:.2f} tps = {p[\"tps\"] / theory * 100:.1f}% of theoretical; tpmC {p[\"tpcc\"][\"tpmC\"]:.1f}')
"
done
$OLTP --warehouses="$W" tpcc check | tail -1
