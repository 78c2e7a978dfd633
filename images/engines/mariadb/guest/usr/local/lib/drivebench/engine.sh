# shellcheck shell=sh disable=SC2034  # sourced: the variables are used by drivebench-dbdisk
# The MariaDB engine, guest side: sourced by /usr/local/sbin/drivebench-dbdisk.
# Defines where the database disk is mounted, how an empty data directory
# is made, what a seed's data directory must contain, and how the profile
# becomes MariaDB settings.
ENGINE_DESC=MariaDB
ENGINE_MNT=/var/lib/mysql-db                 # datadir: $ENGINE_MNT/data
ENGINE_OWNER=mysql:mysql
ENGINE_SEED_MARKER=mysql                     # data/mysql in a seed
ENGINE_CMDLINE_PREFIX=drivebench.my.
ENGINE_AUTO_SHARE=50%                        # "auto": the buffer pool's share of RAM
ENGINE_MIB_UNIT=M                            # "N%" becomes <MiB>M
ENGINE_CNF=/etc/mysql/mariadb.conf.d/91-drivebench-profile.cnf

# Is $1 an initialised data directory?
engine_datadir_ok() { [ -d "$1/mysql" ]; }

# Create an empty data directory in $1 (owned by $ENGINE_OWNER already).
# Database sbtest and user drivebench are made at every start by
# /etc/mysql/drivebench-init.sql (init-file).
engine_init_datadir() {
  mariadb-install-db --user=mysql --datadir="$1" --skip-test-db \
    --auth-root-authentication-method=socket \
    >/run/drivebench-install-db.log 2>&1 \
    || { cat /run/drivebench-install-db.log; return 1; }
}

# Write the settings read as "key=value" lines on stdin (shares of RAM
# already resolved) to $ENGINE_CNF.
engine_write_settings() {
  {
    echo "# Written at boot by drivebench-dbdisk from /etc/drivebench/profile"
    echo "# and $ENGINE_CMDLINE_PREFIX* on the kernel command line. Do not edit."
    echo "[mysqld]"
    sed 's/=/ = /'
  } >"$ENGINE_CNF.new" && mv "$ENGINE_CNF.new" "$ENGINE_CNF"
}
