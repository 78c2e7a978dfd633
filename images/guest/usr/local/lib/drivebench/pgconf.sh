# shellcheck shell=sh
# postgresql.conf settings for the engines built on PostgreSQL (postgresql,
# babelfish): sourced by their engine.sh.

# Write the settings read as "key=value" lines on stdin to $ENGINE_CNF, each
# value quoted (postgresql.conf accepts any value quoted).
pgconf_write_settings() {
  {
    echo "# Written at boot by drivebench-dbdisk from /etc/drivebench/profile"
    echo "# and $ENGINE_CMDLINE_PREFIX* on the kernel command line. Do not edit."
    awk '{ i = index($0, "="); v = substr($0, i + 1)
           if (v ~ /'\''/) { print "drivebench-dbdisk: ignoring " $0 " (quote in value)" > "/dev/stderr"; next }
           print substr($0, 1, i - 1) " = '\''" v "'\''" }'
  } >"$ENGINE_CNF.new" && mv "$ENGINE_CNF.new" "$ENGINE_CNF"
}
