#!/usr/bin/env bash
# Integration tests of what oltp's report counts, against real servers
# started here (MariaDB, PostgreSQL):
# - a timed run counts every transaction it sent once: the server's
#   Com_select grows by exactly the reads the report gives (those in
#   flight at the end included), `total number of events` equals the
#   connections' events (threads x their average), and the result
#   document holds the same transactions, those ended after the cut apart
#   (after_end.committed);
# - sysbench's read/write/other rule: a DELETE (or UPDATE) that changed no
#   row counts as "other", so oltp_delete's writes are exactly the rows
#   that left the tables, on both servers.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib/postgres.sh         # also brings tests/lib/mariadb.sh
. tests/lib/check.sh

T=$(mktemp -d)
trap 'mariadb_stop; postgres_stop; rm -rf "$T"' EXIT
mariadb_start >"$T/mariadb.log" 2>&1 || { cat "$T/mariadb.log"; exit 1; }
postgres_start || exit 1
OLTP=${OLTP_BIN:-./bin/oltp}
MY="--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest
    --mysql-password=sbtest --tables=2 --table-size=1000"
PG="--db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=$PGSQL_PORT --pgsql-user=sbtest
    --pgsql-password=sbtest --tables=2 --table-size=1000"

# field FILE LABEL: the first number after LABEL in the report FILE
field() { sed -n "s/^ *$2: *\([0-9.]*\).*/\1/p" "$1" | head -1; }
com_select() { mariadb_sql "SHOW GLOBAL STATUS LIKE 'Com_select'" | cut -f2; }

# shellcheck disable=SC2086
"$OLTP" oltp_point_select $MY prepare >"$T/prep.log" 2>&1 || { cat "$T/prep.log"; exit 1; }

# --- a timed run: every transaction sent, counted once ---------------------
before=$(com_select)
# shellcheck disable=SC2086
"$OLTP" oltp_point_select $MY --threads=2 --time=1 --json="$T/r.json" run >"$T/run.txt" 2>&1
rc=$?
after=$(com_select)
check_eq "timed run: exit status" 0 "$rc"
events=$(field "$T/run.txt" "total number of events")
check_eq "timed run: the server ran the reads the report gives (in flight at the end too)" \
  "$((after - before))" "$(field "$T/run.txt" read)"
check_eq "timed run: one read per event" "$events" "$(field "$T/run.txt" read)"
avg=$(sed -n 's/^ *events (avg\/stddev): *\([0-9.]*\)\/.*/\1/p' "$T/run.txt")
check_eq "timed run: events = threads x their average" "$events" \
  "$(python3 -c "print(round(2 * $avg))")"
check_eq "timed run: the result document: transactions + after_end.committed" "$events" \
  "$(python3 -c "import json; p = json.load(open('$T/r.json'))['phases'][-1]
print(p['transactions'] + p['after_end']['committed'])")"
check_eq "timed run: one in flight per connection at the end, none started after it" 2 \
  "$(python3 -c "import json; print(json.load(open('$T/r.json'))['phases'][-1]['after_end']['committed'])")"

# --- sysbench's rule: a write that changed no row is "other" ---------------
# rows_mysql / rows_pgsql: the rows of sbtest1 and sbtest2
rows_mysql() { mariadb_sql "SELECT (SELECT COUNT(*) FROM sbtest.sbtest1) + (SELECT COUNT(*) FROM sbtest.sbtest2)"; }
rows_pgsql() { postgres_sql "SELECT (SELECT COUNT(*) FROM sbtest1) + (SELECT COUNT(*) FROM sbtest2)"; }
# shellcheck disable=SC2086
"$OLTP" oltp_delete $PG prepare >"$T/prep_pg.log" 2>&1 || { cat "$T/prep_pg.log"; exit 1; }
for db in mysql pgsql; do
  if [ $db = mysql ]; then args=$MY; else args=$PG; fi
  before=$("rows_$db")
  # shellcheck disable=SC2086
  "$OLTP" oltp_delete $args --threads=2 --events=400 --time=0 run >"$T/del_$db.txt" 2>&1
  after=$("rows_$db")
  w=$(field "$T/del_$db.txt" write)
  check_eq "$db oltp_delete: writes = the rows deleted" "$((before - after))" "$w"
  check_eq "$db oltp_delete: the deletes of a missing row are other" "$((400 - w))" \
    "$(field "$T/del_$db.txt" other)"
  # the default (special) distribution draws the same ids again: some
  # deletes find nothing (else the rule above is not exercised)
  check_eq "$db oltp_delete: some deletes found no row" yes "$([ "$w" -lt 400 ] && echo yes || echo "no: $w")"
done

check_summary
