# tests/lib/odbc.sh — private unixODBC configuration for tests.
#
# Source it, then:
#   odbc_setup DIR           # write DIR/odbcinst.ini and DIR/odbc.ini; export ODBCSYSINI, ODBCINI
#   odbc_add_dsn NAME DRIVER KEY=VALUE...   # append a data source to DIR/odbc.ini
# The driver manager then reads only these files, never /etc/odbc*.ini.
# Drivers (Debian packages odbc-mariadb, odbc-postgresql, tdsodbc) are named
# by the path of their shared object, so no system registration is needed.

ODBC_LIBDIR=/usr/lib/x86_64-linux-gnu/odbc

odbc_setup() {
  ODBC_DIR=$1
  mkdir -p "$ODBC_DIR"
  cat >"$ODBC_DIR/odbcinst.ini" <<EOF
[ODBC]
Trace = No

[MariaDB]
Description = MariaDB Connector/ODBC
Driver = $ODBC_LIBDIR/libmaodbc.so
Threading = 0

[PostgreSQL]
Description = psqlODBC (Unicode)
Driver = $ODBC_LIBDIR/psqlodbcw.so

[FreeTDS]
Description = FreeTDS (SQL Server, Sybase)
Driver = $ODBC_LIBDIR/libtdsodbc.so
EOF
  : >"$ODBC_DIR/odbc.ini"
  export ODBCSYSINI=$ODBC_DIR ODBCINI=$ODBC_DIR/odbc.ini
  # no per-user ~/.odbc.ini either
  export HOME=$ODBC_DIR
}

odbc_add_dsn() {
  local name=$1 driver=$2; shift 2
  { echo "[$name]"; echo "Driver = $driver"; for kv in "$@"; do echo "${kv%%=*} = ${kv#*=}"; done; echo; } \
    >>"$ODBC_DIR/odbc.ini"
}
