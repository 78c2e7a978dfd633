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
"$OLTP_BIN" $MY --tables=3 --threads=2 oltp_read_write prepare >"$T/out" 2>"$T/err"
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
"$OLTP_BIN" $MY --tables=3 oltp_read_write cleanup >/dev/null 2>&1
"$OLTP_BIN" $MY --tables=1 --table-size=500 --auto-inc=off oltp_read_write prepare >/dev/null 2>"$T/err"
check_eq "--auto-inc=off: the fallback loads ids 1..500" "1 sbtest1 500 1 500 auto_increment=NULL" "$(wc -l <"$T/err") $(tables)"
"$OLTP_BIN" $MY oltp_read_write cleanup >/dev/null 2>&1

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
"$OLTP_BIN" $MY oltp_read_write prepare >/dev/null 2>"$T/err"
check_eq "as oltp with local_infile=1: LOAD DATA, nothing on stderr, AUTO_INCREMENT 16384" \
  "sbtest1 10000 1 10000 auto_increment=16384 " "$(tables) $(cat "$T/err")"
"$OLTP_BIN" $MY oltp_read_write cleanup >/dev/null 2>&1
"$T/sysbench" $MY --bulk=on oltp_read_write prepare >/dev/null 2>&1
check_eq "as sysbench, --bulk=on still asks for the bulk path" "sbtest1 10000 1 10000 auto_increment=16384" "$(tables)"
"$T/sysbench" $MY oltp_read_write cleanup >/dev/null 2>&1

# --- --mysql-dry-run: no server, every statement "succeeds" ------------------
closed=$(free_port)
"$OLTP_BIN" --mysql-host=127.0.0.1 --mysql-port=$closed --mysql-dry-run --tables=2 --threads=2 \
  oltp_read_write prepare >"$T/out" 2>"$T/err"
check_eq "dry run: prepare with no server exits 0, nothing on stderr" "0 " "$? $(cat "$T/err")"
check_eq "dry run: prepare made and 'loaded' both tables" 2 "$(grep -c "^Inserting 10000 records into 'sbtest[12]'$" "$T/out")"
"$OLTP_BIN" --mysql-host=127.0.0.1 --mysql-port=$closed --mysql-dry-run --threads=3 --events=300 --time=0 \
  --json="$T/dry.json" oltp_read_write run >"$T/out" 2>"$T/err"
check_eq "dry run: run with no server exits 0, nothing on stderr" "0 " "$? $(cat "$T/err")"
check_eq "dry run: exactly the 300 events, 20 statements each, no error" "300 6000 0" \
  "$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["phases"][-1]; print(p["transactions"], p["queries"]["total"], p["errors"])' "$T/dry.json")"
check_eq "dry run: no database size is made up" 0 "$(grep -c '^database size' "$T/out")"
$T/sysbench --mysql-dry-run --mysql-port=$closed --time=1 --events=0 --report-interval=1 oltp_read_write run >"$T/out" 2>&1
check_eq "dry run as sysbench: the interval line" 1 "$(grep -c '^\[ 1s \] thds: 1 tps: [0-9.]* qps: ' "$T/out")"

# --- PostgreSQL: COPY refused (row-level security on every new table) --------
PGSQL_LOG_STATEMENT=all postgres_start || exit 1
PG="--db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=$PGSQL_PORT --pgsql-user=sbtest --pgsql-password=sbtest --pgsql-db=sbtest"
postgres_sql "CREATE FUNCTION rls_on() RETURNS event_trigger LANGUAGE plpgsql AS \$\$
DECLARE r record;
BEGIN
  FOR r IN SELECT * FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE TABLE' LOOP
    EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY', r.object_identity);
    EXECUTE format('CREATE POLICY anyone ON %s USING (true) WITH CHECK (true)', r.object_identity);
  END LOOP;
END \$\$;
CREATE EVENT TRIGGER rls_on ON ddl_command_end WHEN TAG IN ('CREATE TABLE') EXECUTE FUNCTION rls_on();" >/dev/null
pgtables() {  # each sbtest table's rows, smallest and largest id, and its sequence's last value
  for t in $(postgres_sql "SELECT tablename FROM pg_tables WHERE tablename LIKE 'sbtest%' ORDER BY 1"); do
    echo "$t $(postgres_sql "SELECT COUNT(*), MIN(id), MAX(id), (SELECT last_value FROM ${t}_id_seq) FROM $t" | tr '|' ' ')"
  done
}
"$OLTP_BIN" $PG --tables=2 --threads=2 oltp_read_write prepare >"$T/out" 2>"$T/err"
check_eq "COPY refused: prepare exits 0" 0 $?
check_eq "COPY refused: one line on stderr, naming the server's reason and the fallback" \
  "oltp: loading sbtest1: the server refuses COPY FROM STDIN (SQLSTATE 0A000: COPY FROM not supported with row-level security): loading with INSERTs, as sysbench does" \
  "$(sed 's/sbtest2:/sbtest1:/' "$T/err")"
check_eq "COPY refused: every row, the sequences where sysbench leaves them" \
  "sbtest1 10000 1 10000 10000
sbtest2 10000 1 10000 10000" "$(pgtables)"
"$OLTP_BIN" $PG --tables=2 oltp_read_write cleanup >/dev/null 2>&1
sysbench $PG oltp_read_write prepare >/dev/null 2>&1
want=$(pgtables)
sysbench $PG oltp_read_write cleanup >/dev/null 2>&1
"$T/sysbench" $PG oltp_read_write prepare >/dev/null 2>"$T/err"
check_eq "as sysbench on PostgreSQL: INSERTs (nothing on stderr), sysbench's rows and sequence" \
  "sbtest1 10000 1 10000 10000 " "$(pgtables) $(cat "$T/err")"
check_eq "sysbench's own prepare: the same" "sbtest1 10000 1 10000 10000" "$want"

# --- --db-ps-mode=disable on PostgreSQL: the simple query protocol -------------
# the server's log: "statement: ..." for a simple query, "execute sN: ..."
# for a prepared one; the same counts as sysbench's with the same mode (not
# oltp's check of the tables before a run, SELECT id FROM sbtestN LIMIT 1)
protocols() {  # protocols OFFSET: simple and extended-protocol sbtest statements logged after OFFSET
  tail -c +$(( $1 + 1 )) "$PGSQL_DIR/server.log" |
    awk '/LOG:  statement: .*sbtest/ && !/LIMIT 1$/ { s++ } /LOG:  execute [^:]*: .*sbtest/ { e++ } END { printf "simple=%d extended=%d\n", s, e }'
}
for ps in disable auto; do
  args="--threads=1 --events=20 --time=0 --db-ps-mode=$ps oltp_read_only run"
  o=$(postgres_log_size); sysbench $PG $args >/dev/null 2>&1; sbc="$(protocols "$o") $(postgres_count_statements "$o")"
  o=$(postgres_log_size); "$T/sysbench" $PG $args >/dev/null 2>&1; olc="$(protocols "$o") $(postgres_count_statements "$o")"
  want="simple=280 extended=0"; [ $ps = auto ] && want="simple=0 extended=280"
  check_eq "ps-mode $ps: sysbench's statements on PostgreSQL" \
    "$want BEGIN=20 COMMIT=20 DELETE=0 INSERT=0 ROLLBACK=0 SELECT=280 UPDATE=0" "$sbc"
  check_eq "ps-mode $ps: bin/oltp's (as sysbench) are the same" "$sbc" "$olc"
done
o=$(postgres_log_size)
"$OLTP_BIN" $PG --threads=1 --events=1 --time=0 --db-ps-mode=disable --point-selects=1 --range-selects=off \
  --rand-type=uniform oltp_read_only run >/dev/null 2>&1
check_eq "ps-mode disable: the values inlined in the statement text" 1 \
  "$(tail -c +$((o + 1)) "$PGSQL_DIR/server.log" | grep -cE 'LOG:  statement: SELECT c FROM sbtest1 WHERE id=[0-9]+$')"

check_summary
