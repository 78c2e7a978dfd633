# shellcheck shell=sh disable=SC2034  # sourced: the variables are used by drivebench-dbdisk
# The PostgreSQL engine, guest side: sourced by
# /usr/local/sbin/drivebench-dbdisk. Debian's cluster 15/main keeps its
# configuration in /etc/postgresql/15/main; its data_directory is on the
# database disk (conf.d/90-drivebench.conf).
ENGINE_DESC=PostgreSQL
ENGINE_MNT=/var/lib/postgresql-db            # data_directory: $ENGINE_MNT/data
ENGINE_OWNER=postgres:postgres
ENGINE_SEED_MARKER=PG_VERSION                # data/PG_VERSION in a seed
ENGINE_CMDLINE_PREFIX=drivebench.pg.
ENGINE_AUTO_SHARE=25%                        # "auto": shared_buffers' share of RAM
ENGINE_MIB_UNIT=MB                           # "N%" becomes <MiB>MB
ENGINE_CNF=/etc/postgresql/15/main/conf.d/91-drivebench-profile.conf
PG_BIN=/usr/lib/postgresql/15/bin

engine_datadir_ok() { [ -f "$1/PG_VERSION" ]; }

# initdb in $1, then role drivebench (password drivebench, superuser: the
# workloads create and drop tables) and database sbtest, made in
# single-user mode so no server listens before the settings are written.
engine_init_datadir() {
  chmod 0700 "$1"
  runuser -u postgres -- "$PG_BIN/initdb" -D "$1" -U postgres -E UTF8 \
    --locale=C --auth-local=peer --auth-host=scram-sha-256 \
    >/run/drivebench-initdb.log 2>&1 \
    || { cat /run/drivebench-initdb.log; return 1; }
  printf '%s\n' \
    "CREATE ROLE drivebench LOGIN SUPERUSER PASSWORD 'drivebench';" \
    "CREATE DATABASE sbtest OWNER drivebench;" \
    | runuser -u postgres -- "$PG_BIN/postgres" --single -D "$1" postgres \
      >>/run/drivebench-initdb.log 2>&1 \
    || { cat /run/drivebench-initdb.log; return 1; }
  # the single-user backend reports SQL errors on its output and exits 0
  if grep -q 'ERROR:' /run/drivebench-initdb.log; then
    cat /run/drivebench-initdb.log; return 1
  fi
}

# The settings read as "key=value" lines on stdin, to $ENGINE_CNF
# (pgconf.sh).
. /usr/local/lib/drivebench/pgconf.sh
engine_write_settings() {
  pgconf_write_settings
}
