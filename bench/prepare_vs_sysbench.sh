#!/usr/bin/env bash
# Loading speed: `oltp ... prepare` against `sysbench ... prepare` on the
# same private MariaDB and PostgreSQL servers, same sizes and threads,
# alternating runs (sysbench, oltp --bulk=on, [MariaDB: the server's own
# path], oltp --bulk=off, sysbench, ...), then `oltp tpcc prepare` with
# --bulk=on against --bulk=off. The server's own path on MariaDB is the
# mariadb client's LOAD DATA LOCAL INFILE of the rows oltp loaded, dumped
# to files once (bench/mariadb_load_files.sh), checked to give the same
# CHECKSUM TABLE as oltp's load. Every
# figure is rows/s of the whole command (CREATE TABLE, the load, the
# secondary indexes), the median of RUNS runs, with the ratio to the
# reference, and the median CPU seconds the client and the server spent
# (the server's from /proc/PID/stat, its exited backends included).
# Targets: oltp prepare >= 2x sysbench's rows/s on both engines (issue 15);
# on MariaDB, or within 10 % of the server's own path (issue 33).
#
# Usage: [OLTP_BIN=path] [ENGINES="mariadb pgsql"] [LOAD_PROFILE=1] [TPCC=0]
#        bench/prepare_vs_sysbench.sh [RUNS] [TABLES] [SIZE] [THREADS] [WAREHOUSES]
# Defaults: 3 runs, 8 tables x 100,000 rows, 4 threads, TPC-C 1 warehouse.
# LOAD_PROFILE=1 starts MariaDB with the prepare-only profile the README
# documents (innodb_flush_log_at_trx_commit=0, innodb_doublewrite=0, a
# 512 MiB redo log) for both loaders; TPCC=0 skips the TPC-C loads.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}; TABLES=${2:-8}; SIZE=${3:-100000}; THREADS=${4:-4}; WH=${5:-1}
ENGINES=${ENGINES:-"mariadb pgsql"}
OLTP_BIN=${OLTP_BIN:-./bin/oltp}
[ -x "$OLTP_BIN" ] || make bin/oltp >/dev/null
command -v sysbench >/dev/null || { echo "sysbench is not installed (apt-get install sysbench)" >&2; exit 2; }
. tests/lib/postgres.sh          # also mariadb.sh
OUT=$(mktemp -d)
trap 'mariadb_stop; postgres_stop; rm -rf "$OUT"' EXIT
export OLTP_MYSQL_PASSWORD=sbtest OLTP_PGSQL_PASSWORD=sbtest
SIZES="--tables=$TABLES --table-size=$SIZE --threads=$THREADS"

now() { date +%s.%N; }
server_cpu() { awk -v hz="$(getconf CLK_TCK)" '{print ($14+$15+$16+$17)/hz}' "/proc/$SERVER_PID/stat"; }
# timed LABEL COMMAND...: run COMMAND, print "seconds,client_cpu_s,server_cpu_s" (fails loudly)
timed() {
  local label=$1 t0 t1 s0 s1 cpu; shift
  s0=$(server_cpu); t0=$(now)
  python3 bench/cpu_of.py "$@" >"$OUT/$label.log" 2>&1 || { echo "$label failed:" >&2; tail -5 "$OUT/$label.log" >&2; exit 1; }
  t1=$(now); s1=$(server_cpu)
  cpu=$(sed -n 's/^client_cpu_s=//p' "$OUT/$label.log")
  python3 -c "print(f'{$t1 - $t0:.3f},{$cpu:.2f},{$s1 - $s0:.2f}')"
}
# sums: CHECKSUM TABLE of the TABLES sbtest tables, one line
sums() { mariadb_sql "CHECKSUM TABLE $(seq -s, -f 'sbtest.sbtest%g' 1 "$TABLES")" | awk '{printf "%s ", $2}'; }
# loaded LABEL: the rows oltp reports in its last line ("Loaded N rows in ...")
loaded() { sed -n 's/^Loaded \([0-9]*\) rows.*/\1/p' "$OUT/$1.log" | tail -1; }

# report_line NAME "RUN..." ROWS [REF_RATE]: print one table row of
# medians (RUN = seconds,client_cpu,server_cpu); sets LAST_RATE (rows/s)
report_line() {
  local out
  out=$(python3 - "$@" <<'PY'
import statistics, sys
name, runs, rows = sys.argv[1], sys.argv[2].split(), float(sys.argv[3])
ref = float(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] else None
secs, ccpu, scpu = ([float(r.split(",")[i]) for r in runs] for i in range(3))
m = statistics.median(secs)
rate = rows / m
ratio = f"{rate / ref:.2f}x" if ref else "1.00x"
print(f"| {name:<44} | {m:6.2f} s | {rate:9.0f} | {ratio:>6} | {statistics.median(ccpu):5.2f} | "
      f"{statistics.median(scpu):5.2f} | {statistics.median(scpu) / rows * 1e6:5.2f} | "
      f"{' '.join(f'{s:.2f}' for s in secs)} |")
print(f"{rate:.0f}")
PY
  )
  echo "$out" | head -1
  LAST_RATE=$(echo "$out" | tail -1)
}

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "sysbench $(sysbench --version | awk '{print $2}'), $RUNS alternating runs, $TABLES tables x $SIZE rows, $THREADS threads; TPC-C $WH warehouse(s), $THREADS threads"
for engine in $ENGINES; do
  if [ "$engine" = mariadb ]; then
    profile=
    [ "${LOAD_PROFILE:-0}" = 1 ] && profile="--innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 --innodb-log-file-size=512M"
    MARIADB_BUFFER_POOL=1G mariadb_start "$profile" >/dev/null
    CONN="--mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest"
    SB="sysbench --db-driver=mysql $CONN --mysql-password=sbtest"
    OL="$OLTP_BIN $CONN"
    version="MariaDB $(mariadb_sql 'SELECT VERSION()') (1 GiB buffer pool, $(mariadb_sql 'SELECT CONCAT("innodb_flush_log_at_trx_commit=", @@innodb_flush_log_at_trx_commit, ", innodb_doublewrite=", @@innodb_doublewrite, ", redo log ", @@innodb_log_file_size DIV 1048576, " MiB")'))"
    SERVER_PID=$MARIADB_PID
  else
    PGSQL_SHARED_BUFFERS=1GB postgres_start >/dev/null
    CONN="--pgsql-host=127.0.0.1 --pgsql-port=$PGSQL_PORT --pgsql-user=sbtest --pgsql-db=sbtest"
    SB="sysbench --db-driver=pgsql $CONN --pgsql-password=sbtest"
    OL="$OLTP_BIN --db-driver=pgsql $CONN"
    version="PostgreSQL $(postgres_sql 'SHOW server_version') (1 GB shared_buffers, fsync=off, synchronous_commit=off)"
    SERVER_PID=$PGSQL_PID
  fi
  sb=; on=; off=; ton=; toff=; fast=
  for i in $(seq 1 "$RUNS"); do
    $SB --tables=$TABLES oltp_read_write cleanup >/dev/null 2>&1
    sb="$sb $(timed sb$i $SB $SIZES oltp_read_write prepare)"
    $OL --tables=$TABLES oltp_read_write cleanup >/dev/null 2>&1
    on="$on $(timed on$i $OL $SIZES --bulk=on oltp_read_write prepare)"
    if [ "$engine" = mariadb ]; then
      if [ "$i" = 1 ]; then
        mkdir -p "$OUT/rows"; want=$(sums)
        for t in $(seq 1 "$TABLES"); do mariadb_dump_rows "sbtest$t" "k, c, pad" "$OUT/rows/sbtest$t.tsv"; done
      fi
      $OL --tables=$TABLES oltp_read_write cleanup >/dev/null 2>&1
      fast="$fast $(timed fast$i env OLTP_BIN="$OLTP_BIN" OLTP_CONN="$CONN" bench/mariadb_load_files.sh "$OUT/rows" "$TABLES" "$THREADS")"
      [ "$(sums)" = "$want" ] || { echo "the mariadb client's load: CHECKSUM TABLE $(sums), oltp's $want" >&2; exit 1; }
    fi
    $OL --tables=$TABLES oltp_read_write cleanup >/dev/null 2>&1
    off="$off $(timed off$i $OL $SIZES --bulk=off oltp_read_write prepare)"
    $OL --tables=$TABLES oltp_read_write cleanup >/dev/null 2>&1
    [ "${TPCC:-1}" = 0 ] && continue
    $OL tpcc cleanup >/dev/null 2>&1
    ton="$ton $(timed ton$i $OL --warehouses=$WH --threads=$THREADS --bulk=on tpcc prepare)"
    $OL tpcc cleanup >/dev/null 2>&1
    toff="$toff $(timed toff$i $OL --warehouses=$WH --threads=$THREADS --bulk=off tpcc prepare)"
    $OL tpcc cleanup >/dev/null 2>&1
  done
  rows=$((TABLES * SIZE))
  [ "$(loaded on1)" = "$rows" ] || { echo "oltp --bulk=on loaded $(loaded on1) rows, not $rows" >&2; exit 1; }
  echo
  echo "$version"
  echo
  echo "| loader | median time | rows/s | vs reference | client CPU s | server CPU s | server CPU µs/row | runs (s) |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
  report_line "sysbench prepare (multi-row INSERTs)" "$sb" "$rows"; ref=$LAST_RATE
  report_line "oltp prepare --bulk=on" "$on" "$rows" "$ref"; oltp_rate=$LAST_RATE
  if [ -n "$fast" ]; then
    report_line "mariadb client LOAD DATA LOCAL from files" "$fast" "$rows" "$ref"
    fast_line="oltp --bulk=on / the server's own path (mariadb client, files): $(python3 -c "print(f'{$oltp_rate / $LAST_RATE:.2f}x')") (target >= 0.90x); same rows: CHECKSUM TABLE $want"
  fi
  report_line "oltp prepare --bulk=off (multi-row INSERTs)" "$off" "$rows" "$ref"
  if [ "${TPCC:-1}" != 0 ]; then
  trows=$(loaded toff1)
  report_line "oltp tpcc prepare --bulk=off ($trows rows)" "$toff" "$trows"; tref=$LAST_RATE
  report_line "oltp tpcc prepare --bulk=on" "$ton" "$(loaded ton1)" "$tref"
  fi
  [ -n "$fast" ] && { echo; echo "$fast_line"; fast=; }
  echo "load average after $engine: $(uptime | sed 's/.*load average: //')"
  if [ "$engine" = mariadb ]; then mariadb_stop; else postgres_stop; fi
done
