#!/usr/bin/env bash
# babelfish/init.sh — create a Babelfish cluster (TDS + T-SQL) and start it;
# one recipe for the tests (tests/lib/babelfish.sh) and a guest image.
#
#   babelfish/init.sh PREFIX DATADIR PGPORT TDSPORT LOGIN PASSWORD
#     PREFIX    the installed tree babelfish/build.sh prints
#     DATADIR   a new (absent or empty) data directory; its server.log, and
#               the PostgreSQL socket in it
#     PGPORT    PostgreSQL's port; TDSPORT the TDS port (babelfishpg_tds.port)
#     LOGIN PASSWORD   the T-SQL login made sysadmin (sys.initialize_babelfish)
#   BABELFISH_LISTEN=ADDR   listen address of both ports (default 127.0.0.1)
#   BABELFISH_OS_USER=USER  run as root: the server runs as USER (default postgres)
#   BABELFISH_CONF="k = v;..."  more postgresql.conf lines (';' separated)
# Leaves the server running; its PID is the first line of DATADIR/postmaster.pid;
# stop it with `PREFIX/bin/pg_ctl -D DATADIR -m fast stop` or SIGINT to that PID.
# Single-db migration mode: one T-SQL user database besides master/tempdb/msdb.
set -euo pipefail
die() { echo "babelfish/init.sh: $*" >&2; exit 1; }
[ $# -eq 6 ] || die "usage: babelfish/init.sh PREFIX DATADIR PGPORT TDSPORT LOGIN PASSWORD"
prefix=$1 data=$2 pgport=$3 tdsport=$4 login=$5 password=$6
listen=${BABELFISH_LISTEN:-127.0.0.1}
bin=$prefix/bin
[ -x "$bin/postgres" ] && [ -f "$prefix/.complete" ] || die "$prefix is not a built Babelfish tree (babelfish/build.sh)"
for p in "$pgport" "$tdsport"; do
  [[ $p =~ ^[0-9]+$ ]] && [ "$p" -ge 1 ] && [ "$p" -le 65535 ] || die "$p: not a port"
done
[ "$pgport" != "$tdsport" ] || die "PGPORT and TDSPORT must differ"
[[ $login =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || die "$login: a login is letters, digits and _"
[[ $password != *"'"* && -n $password ]] || die "the password is empty or has a quote"
[ ! -e "$data" ] || [ -z "$(ls -A "$data")" ] || die "$data exists and is not empty"

as() { if [ "$(id -u)" = 0 ]; then runuser -u "${BABELFISH_OS_USER:-postgres}" -- "$@"; else "$@"; fi; }
mkdir -p "$data"
[ "$(id -u)" = 0 ] && chown "${BABELFISH_OS_USER:-postgres}": "$data"
chmod 700 "$data"
# md5 for TCP: Babelfish's TDS login takes trust, password, md5 or gssapi,
# not scram-sha-256 ("pg_hba.conf entry specifies unsupported TDS authentication")
as "$bin/initdb" -D "$data" -U postgres --auth-local=trust --auth-host=md5 -E UTF8 --locale=C \
  >"$data.initdb.log" 2>&1 || { cat "$data.initdb.log" >&2; die "initdb failed"; }
rm -f "$data.initdb.log"
{
  echo "listen_addresses = '$listen'"
  echo "port = $pgport"
  echo "unix_socket_directories = '$data'"
  echo "shared_preload_libraries = 'babelfishpg_tds'"
  echo "babelfishpg_tds.port = $tdsport"
  echo "babelfishpg_tds.listen_addresses = '$listen'"
  [ -z "${BABELFISH_CONF:-}" ] || tr ';' '\n' <<<"$BABELFISH_CONF"
} | as tee -a "$data/postgresql.conf" >/dev/null
as "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 120 start >/dev/null \
  || { cat "$data/server.log" >&2; die "the server did not start"; }
as "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$data" -p "$pgport" -U postgres -d postgres >/dev/null <<SQL \
  || { tail -20 "$data/server.log" >&2; die "setting up Babelfish failed"; }
CREATE USER $login WITH SUPERUSER CREATEDB CREATEROLE PASSWORD '$password' INHERIT;
CREATE DATABASE babelfish_db OWNER $login;
\\c babelfish_db
CREATE EXTENSION IF NOT EXISTS babelfishpg_tds CASCADE;
GRANT ALL ON SCHEMA sys TO $login;
ALTER SYSTEM SET babelfishpg_tsql.database_name = 'babelfish_db';
ALTER DATABASE babelfish_db SET babelfishpg_tsql.migration_mode = 'single-db';
SELECT pg_reload_conf();
CALL sys.initialize_babelfish('$login');
SQL
# Upstream's CI restarts here: the TDS listener opens at the postmaster's
# start, once babelfishpg_tsql.database_name (ALTER SYSTEM above) names a
# database with the extension; without the restart nothing listened on
# TDSPORT (seen on the bfvm branch's trial)
as "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 120 restart >/dev/null \
  || { tail -20 "$data/server.log" >&2; die "the server did not restart after setting up Babelfish"; }
echo "babelfish/init.sh: TDS on $listen:$tdsport, PostgreSQL on $listen:$pgport, PID $(as head -1 "$data/postmaster.pid")"
