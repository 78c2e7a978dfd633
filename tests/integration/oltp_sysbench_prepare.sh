#!/usr/bin/env bash
# prepare where sysbench 1.0.20's succeeds, against servers started here:
# a MariaDB started with --local-infile=0 (MySQL 8's default refusal of
# LOAD DATA LOCAL) and a PostgreSQL whose new tables refuse COPY FROM
# (row-level security): oltp's bulk path falls back to sysbench's INSERT
# batches with one line naming the server's reason, the rows exact. Run
# as `sysbench` (a link to bin/oltp), prepare makes what Debian's sysbench
# 1.0.20 makes, DDL and AUTO_INCREMENT included. --mysql-dry-run contacts
# no server.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/postgres.sh
. tests/lib/check.sh

command -v sysbench >/dev/null || { echo "sysbench is not installed (apt-get install sysbench): skipped"; exit 77; }
T=$(mktemp -d)
trap 'mariadb_stop; postgres_stop; rm -rf "$T"' EXIT
mariadb_start --local-infile=0 || exit 1
OLTP_BIN=$(realpath "${OLTP_BIN:-./bin/oltp}")
ln -s "$OLTP_BIN" "$T/sysbench"
MY="--mysql-host=127.0.0.1 --mysql-port=$MARIADB_PORT --mysql-user=sbtest --mysql-password=sbtest"
REFUSED="the server refuses LOAD DATA LOCAL INFILE (error 4166: The used command is not allowed because the MariaDB server or client has disabled the local infile capability)"
tables() {  # tables: each sbtest table's name, rows, AUTO_INCREMENT, smallest and largest id
  for t in $(mariadb_sql "SELECT table_name FROM information_schema.tables WHERE table_schema='sbtest' ORDER BY table_name"); do
    echo "$t $(mariadb_sql "SELECT COUNT(*), MIN(id), MAX(id) FROM sbtest.$t" | tr '\t' ' ') auto_increment=$(
      mariadb_sql "SELECT auto_increment FROM information_schema.tables WHERE table_schema='sbtest' AND table_name='$t'")"
  done
}
ddl() { mariadb_sql "SHOW CREATE TABLE sbtest.$1"; }

# --- local_infile=0: the bulk path falls back, one line says so --------------
./bin/oltp $MY --tables=3 --threads=2 oltp_read_write prepare >"$T/out" 2>"$T/err"
check_eq "local_infile=0: prepare exits 0" 0 $?
check_eq "local_infile=0: one line on stderr, naming the server's reason and the fallback" \
  "oltp: loading sbtest1: $REFUSED: loading with INSERTs, as sysbench does" \
  "$(sed 's/sbtest[23]:/sbtest1:/' "$T/err")"
check_eq "local_infile=0: every row, ids 1..10000, AUTO_INCREMENT as sysbench leaves it" \
  "sbtest1 10000 1 10000 auto_increment=10001
sbtest2 10000 1 10000 auto_increment=10001
sbtest3 10000 1 10000 auto_increment=10001" "$(tables)"
check_eq "local_infile=0: the secondary indexes" 3 \
  "$(mariadb_sql "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema='sbtest' AND index_name LIKE 'k\\_%'")"
./bin/oltp $MY --tables=3 oltp_read_write cleanup >/dev/null 2>&1
./bin/oltp $MY --tables=1 --table-size=500 --auto-inc=off oltp_read_write prepare >/dev/null 2>"$T/err"
check_eq "--auto-inc=off: the fallback loads ids 1..500" "1 sbtest1 500 1 500 auto_increment=NULL" "$(wc -l <"$T/err") $(tables)"
./bin/oltp $MY oltp_read_write cleanup >/dev/null 2>&1

# --- as sysbench: the tables sysbench 1.0.20 makes ------------------------------
# Its own prepare first, then bin/oltp run as `sysbench`: no LOAD DATA is
# tried (its INSERT batches, nothing on stderr), the same DDL and
# AUTO_INCREMENT, for the default options and for --auto-inc=off
# --secondary=on --create-secondary=off
for opts in "--tables=2" "--tables=1 --table-size=3000 --auto-inc=off --secondary=on --create-secondary=off"; do
  sysbench --db-driver=mysql $MY $opts oltp_read_write prepare >/dev/null 2>&1
  check_eq "sysbench $opts: its prepare exits 0" 0 $?
  want="$(tables) $(ddl sbtest1)"
  sysbench --db-driver=mysql $MY $opts oltp_read_write cleanup >/dev/null 2>&1
  "$T/sysbench" $MY $opts oltp_read_write prepare >/dev/null 2>"$T/err"
  check_eq "as sysbench $opts: prepare exits 0, nothing on stderr" "0 " "$? $(cat "$T/err")"
  check_eq "as sysbench $opts: rows, ids, AUTO_INCREMENT and DDL of sysbench's" "$want" "$(tables) $(ddl sbtest1)"
  "$T/sysbench" $MY $opts oltp_read_write cleanup >/dev/null 2>&1
done
# sysbench's batches: as many rows as fit in 512 KiB, so 10,000 rows are 4
# INSERTs (the server's Com_insert), where 1,000-row batches would be 10
com() { mariadb_sql "SHOW GLOBAL STATUS LIKE 'Com_insert'" | cut -f2; }
b=$(com); "$T/sysbench" $MY oltp_read_write prepare >/dev/null 2>&1; a=$(com)
check_eq "as sysbench: 10,000 rows in sysbench's 4 INSERT batches" 4 $((a - b))
"$T/sysbench" $MY oltp_read_write cleanup >/dev/null 2>&1
b=$(com); sysbench --db-driver=mysql $MY oltp_read_write prepare >/dev/null 2>&1; a=$(com)
check_eq "sysbench: the same 4 INSERTs" 4 $((a - b))
sysbench --db-driver=mysql $MY oltp_read_write cleanup >/dev/null 2>&1
# as oltp, bulk stays the default: LOAD DATA reserves AUTO_INCREMENT in
# powers of two
mariadb_sql "SET GLOBAL local_infile=1"
./bin/oltp $MY oltp_read_write prepare >/dev/null 2>"$T/err"
check_eq "as oltp with local_infile=1: LOAD DATA, nothing on stderr, AUTO_INCREMENT 16384" \
  "sbtest1 10000 1 10000 auto_increment=16384 " "$(tables) $(cat "$T/err")"
./bin/oltp $MY oltp_read_write cleanup >/dev/null 2>&1
"$T/sysbench" $MY --bulk=on oltp_read_write prepare >/dev/null 2>&1
check_eq "as sysbench, --bulk=on still asks for the bulk path" "sbtest1 10000 1 10000 auto_increment=16384" "$(tables)"
"$T/sysbench" $MY oltp_read_write cleanup >/dev/null 2>&1

check_summary
