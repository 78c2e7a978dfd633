#!/usr/bin/env bash
# Integration test of oltp on a MariaDB whose disk fills: a private server
# whose InnoDB data lives in one system tablespace capped at 24 MiB
# (innodb_file_per_table off, ibdata1 autoextend:max), so a table that grows
# past it gets error 1114 "The table ... is full" — what a full drive gives.
# oltp must end with OLTP_EXIT_DISK_FULL (4) and say so, in prepare and run.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/mariadb.sh
. tests/lib/check.sh

MARIADB_BUFFER_POOL=64M mariadb_start \
  "--innodb-file-per-table=0 --innodb-data-file-path=ibdata1:12M:autoextend:max:24M" || exit 1
T=$(mktemp -d); trap 'mariadb_stop; rm -rf "$T"' EXIT
export OLTP_MYSQL_PASSWORD=sbtest
OLTP="${OLTP_BIN:-./bin/oltp} --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest"
MSG='oltp: the database reported its disk full (see above): the drive under it has no room left'

# --- run: inserts until the tablespace is full --------------------------------
$OLTP --tables=1 --table-size=1000 oltp_insert prepare >/dev/null 2>&1
check_eq "a small table fits" 1000 "$(mariadb_sql 'SELECT COUNT(*) FROM sbtest.sbtest1')"
$OLTP --tables=1 --table-size=1000 --threads=4 --time=300 --json="$T/r.json" \
  oltp_insert run >"$T/out" 2>"$T/err"
check_eq "run into a full tablespace: exit 4 (OLTP_EXIT_DISK_FULL)" 4 $?
check_eq "run: the server's error, with the statement" 1 \
  "$(grep -cE "^oltp: error 1114 \(SQLSTATE HY000\) in \`INSERT INTO sbtest1 .*\`: The table 'sbtest1' is full\$" "$T/err")"
check_eq "run: stderr is that line, then the disk-full line" "$MSG" "$(sed -n 2p "$T/err")"
check_eq "run: two lines on stderr" 2 "$(wc -l <"$T/err")"
# what was measured up to the error is written, marked as ended by it:
# every row the result counts was committed, and so were those committed
# after the run stopped (after_end.committed); the other threads'
# transactions abandoned at the end (no answer came) may have committed
jq_() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
check_eq "run: the result says it ended by the error, with the server's message" \
  "error $(sed -n '1s/^oltp: //p' "$T/err")" "$(jq_ "$T/r.json" 'd["ended"]+" "+d["ended_reason"]')"
rows=$(mariadb_sql 'SELECT COUNT(*) FROM sbtest.sbtest1')
trx=$(jq_ "$T/r.json" 'd["phases"][-1]["transactions"] + d["phases"][-1]["after_end"]["committed"]')
ab=$(jq_ "$T/r.json" 'd["phases"][-1]["after_end"]["abandoned"]')
check_eq "run: the result's inserts, after the end too, are in the table (+ up to $ab abandoned)" True \
  "$([ $((rows - 1000 - trx)) -ge 0 ] && [ $((rows - 1000 - trx)) -le "$ab" ] && echo True || echo "False (rows $rows, transactions $trx)")"
check_eq "run: its intervals up to the error" True \
  "$(jq_ "$T/r.json" '(lambda p: len(p["intervals"])>=1 and abs(p["duration_s"]-p["intervals"][-1]["t"])<1e-6)(d["phases"][-1])')"

# --- prepare of a table bigger than the tablespace ---------------------------
# After the run above: the tablespace stays full (dropped pages are freed by
# InnoDB's purge, later), and 200,000 rows would not fit in it anyway.
$OLTP --tables=1 oltp_read_write cleanup >/dev/null 2>&1
$OLTP --tables=1 --table-size=200000 --threads=1 oltp_read_write prepare >"$T/out" 2>"$T/err"
check_eq "prepare into a full tablespace: exit 4 (OLTP_EXIT_DISK_FULL)" 4 $?
check_contains "prepare: the server's error 1114 is shown" "error 1114" "$(cat "$T/err")"
check_contains "prepare: says the disk is full" "$MSG" "$(cat "$T/err")"

check_summary
