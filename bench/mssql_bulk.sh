#!/usr/bin/env bash
# Loading speed of oltp's SQL Server bulk paths against Babelfish (a private
# server from tests/lib/babelfish.sh) through unixODBC + FreeTDS: bulk copy
# (--bulk=bcp), prepared INSERTs of row constructors (--bulk=values),
# parameter arrays (--bulk=on) and multi-row INSERT text (--bulk=off),
# alternating, RUNS rounds. A figure is rows/s of the whole
# `oltp oltp_read_write prepare` (CREATE TABLE, the load, the index on k),
# the median of the runs that succeeded. A path that failed is named with
# its message and kept out of the medians; the exit status is 1 then.
#
# Usage: [OLTP_BIN=path] [PATHS="bcp values on off"] bench/mssql_bulk.sh [RUNS] [TABLES] [SIZE] [THREADS]
# Defaults: 3 runs, 1 table x 20,000 rows, 1 thread.
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}; TABLES=${2:-1}; SIZE=${3:-20000}; THREADS=${4:-1}
PATHS=${PATHS:-"bcp values on off"}
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
[ -x "$OLTP_BIN" ] || make bin/oltp >/dev/null || exit 2
. tests/lib/babelfish.sh
OUT=$(mktemp -d)
trap 'babelfish_stop; rm -rf "$OUT"' EXIT
babelfish_start || exit 2
babelfish_odbc "$OUT/odbc"
OLTP="$OLTP_BIN --db-driver=odbc --odbc-dsn=sb_tds --odbc-user=sbtest --tables=$TABLES"

echo "Babelfish (FreeTDS, TDS 7.4): $TABLES x $SIZE rows, $THREADS thread(s), $RUNS alternating rounds"
for r in $(seq 1 "$RUNS"); do
  for p in $PATHS; do
    $OLTP oltp_read_write cleanup >/dev/null 2>&1
    t0=$(date +%s.%N)
    if $OLTP --table-size="$SIZE" --threads="$THREADS" --bulk="$p" oltp_read_write prepare >"$OUT/log" 2>&1; then
      t1=$(date +%s.%N)
      echo "$p ok $(python3 -c "print(f'{$TABLES * $SIZE / ($t1 - $t0):.0f}')")" >>"$OUT/runs"
    else
      echo "$p failed $(grep '^oltp:' "$OUT/log" | head -1)" >>"$OUT/runs"
    fi
    echo "round $r: $(tail -1 "$OUT/runs")"
  done
done
$OLTP oltp_read_write cleanup >/dev/null 2>&1
python3 - "$OUT/runs" $PATHS <<'PY'
import statistics, sys
rows = [l.rstrip("\n").split(" ", 2) for l in open(sys.argv[1])]
names = {"bcp": "bulk copy (bcp)", "values": "INSERT row constructors", "on": "parameter arrays",
         "off": "multi-row INSERT text"}
print(f"\n{'path':<34}{'rows/s (median)':>16}{'runs ok':>9}")
failed = False
for p in sys.argv[2:]:
    ok = [float(r[2]) for r in rows if r[0] == p and r[1] == "ok"]
    bad = [r[2] for r in rows if r[0] == p and r[1] == "failed"]
    med = f"{statistics.median(ok):.0f}" if ok else "-"
    print(f"{'--bulk=' + p + ' (' + names.get(p, p) + ')':<34}{med:>16}{len(ok):>6}/{len(ok) + len(bad)}")
    for msg in dict.fromkeys(bad):
        print(f"    failed: {msg}")
    failed = failed or bool(bad)
sys.exit(1 if failed else 0)
PY
