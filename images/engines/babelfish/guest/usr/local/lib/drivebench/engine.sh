# shellcheck shell=sh disable=SC2034  # sourced: the variables are used by drivebench-dbdisk
# The Babelfish engine, guest side: sourced by
# /usr/local/sbin/drivebench-dbdisk. Babelfish for PostgreSQL is installed
# in /opt/babelfish (the tree babelfish/build.sh built on the host); its
# data directory, configuration included, is on the database disk; the
# server runs as the unprivileged user postgres (babelfish.service).
ENGINE_DESC=Babelfish
ENGINE_MNT=/var/lib/babelfish-db             # data directory: $ENGINE_MNT/data
ENGINE_OWNER=postgres:postgres
ENGINE_SEED_MARKER=PG_VERSION
ENGINE_CMDLINE_PREFIX=drivebench.bf.
ENGINE_AUTO_SHARE=25%                        # "auto": shared_buffers' share of RAM
ENGINE_MIB_UNIT=MB                           # "N%" becomes <MiB>MB
ENGINE_CNF=/etc/babelfish/91-drivebench-profile.conf
BF_PREFIX=/opt/babelfish
BF_LOG=/run/drivebench-babelfish-init.log

engine_datadir_ok() { [ -f "$1/PG_VERSION" ]; }

# A new Babelfish cluster in $1 by the host's recipe
# (/usr/local/lib/drivebench/babelfish-init.sh = babelfish/init.sh), on
# the guest's loopback only while it is made (a login through the port
# forward meanwhile would be refused, and drivebench stops waiting at a
# refused login): PostgreSQL on 5432, TDS on 1433, login drivebench
# (password drivebench) the T-SQL sysadmin; then the T-SQL database
# sbtest, the login allowed from the forward's address (10.0.2.2) with md5
# (Babelfish's TDS login takes no SCRAM), TDS on every address from the
# next start (the later listen_addresses line wins), the profile's settings file included,
# and the server stopped again: babelfish.service starts it.
engine_init_datadir() {
  export LD_LIBRARY_PATH=$BF_PREFIX/lib      # psql's libpq: the tree's own
  BABELFISH_OS_USER=postgres BABELFISH_LISTEN=127.0.0.1 \
    BABELFISH_CONF="include_if_exists = '$ENGINE_CNF'" \
    /usr/local/lib/drivebench/babelfish-init.sh "$BF_PREFIX" "$1" 5432 1433 \
    drivebench drivebench >"$BF_LOG" 2>&1 || { cat "$BF_LOG"; return 1; }
  runuser -u postgres -- "$BF_PREFIX/bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$1" -p 5432 \
    -U drivebench -d babelfish_db -c "SET babelfishpg_tsql.sql_dialect = 'tsql'" \
    -c "CREATE DATABASE sbtest" >>"$BF_LOG" 2>&1 || { cat "$BF_LOG"; return 1; }
  printf '%s\n' '# drivebench: the host, through the loopback port forward' \
    'host all all 0.0.0.0/0 md5' >>"$1/pg_hba.conf"
  printf '%s\n' "# drivebench: TDS for the host's port forward (Babelfish 4.2's TDS" \
    "# listener takes PostgreSQL's listen_addresses; its own is not read)" \
    "listen_addresses = '0.0.0.0'" >>"$1/postgresql.conf"
  runuser -u postgres -- "$BF_PREFIX/bin/pg_ctl" -D "$1" -m fast -w -t 300 stop \
    >>"$BF_LOG" 2>&1 || { cat "$BF_LOG"; return 1; }
}

# The settings read as "key=value" lines on stdin, to $ENGINE_CNF
# (pgconf.sh).
. /usr/local/lib/drivebench/pgconf.sh
engine_write_settings() {
  mkdir -p "${ENGINE_CNF%/*}"
  pgconf_write_settings
}
