#!/usr/bin/env bash
# End-to-end: the PostgreSQL guest image boots under real QEMU and serves
# PostgreSQL 15 to oltp's pgsql driver.
#
# Builds (or reuses) images/build/postgresql (images/build.sh --engine
# postgresql), starts libvirt if nothing runs it, defines one domain by hand
# (images/vmlib.sh: 1 vCPU, 1 GiB, direct kernel boot, an empty raw
# database disk with serial "dbdisk", guest agent, a loopback-only forward
# to guest port 5432, drivebench.pg.max_connections=64 on the kernel command
# line), then checks, against a deadline:
#   - the guest agent answers, and `oltp --db-driver=pgsql ... ping` exits 0;
#   - the same ping with a wrong password exits 4 (login refused);
#   - ping through unixODBC and psqlODBC (the driver path SQL Server takes)
#     exits 0 on a private DSN (tests/lib/odbc.sh);
#   - PostgreSQL's data_directory is /var/lib/postgresql-db/data, a mount of
#     the database disk, and the disk file grew;
#   - shared_buffers follows the profile (25% of the guest's RAM) and
#     max_connections the kernel command line (64);
#   - oltp_read_write prepare (1 table x 1,000 rows) and a 5 s run through
#     the pgsql driver commit transactions (> 0).
# Fails (never hangs) when the VM is not ready within E2E_BOOT_TIMEOUT
# seconds (default 300), printing the serial console. Always destroys and
# undefines its domain, deletes its files and stops the libvirt daemons it
# started, also on Ctrl-C.
#
# Environment: E2E_SCSI_MODEL (virtio-scsi), E2E_BOOT_TIMEOUT,
# DRIVEBENCH_VIRT_TYPE (kvm or qemu).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
# shellcheck disable=SC2034  # read by images/vmlib.sh
VM_ENGINE=postgresql
. "$E2E_TOP/images/vmlib.sh"
. "$E2E_TOP/tests/lib/odbc.sh"

timeout=${E2E_BOOT_TIMEOUT:-300}
VM_SCSI_MODEL=${E2E_SCSI_MODEL:-virtio-scsi}
# shellcheck disable=SC2034  # read by images/vmlib.sh
VM_CMDLINE_EXTRA="drivebench.pg.max_connections=64"
name=drivebench-e2e-pgsql-$$-$RANDOM
defined=0
t_start=$(date +%s)

e2e_test_cleanup() {
  [ "$defined" = 1 ] && vm_remove "$name"
  e2e_vm_console "$name" "$1" 150 boot-smoke-pgsql-console.log
}
e2e_begin virsh qemu-img jq ss

[ -x "$VM_OLTP" ] || e2e_fail "$VM_OLTP missing: run make first"
"$E2E_TOP/images/build.sh" --engine postgresql
vm_engine_load || e2e_fail "no engine postgresql"
for f in base.qcow2 vmlinuz initrd.img; do
  [ -s "$VM_IMAGES/$f" ] || e2e_fail "$VM_IMAGES/$f missing after images/build.sh --engine postgresql"
done
grep -qx 'engine=postgresql' "$VM_IMAGES/image.info" || e2e_fail "$VM_IMAGES/image.info does not say engine=postgresql"
e2e_libvirt_up || e2e_fail "libvirt did not start"
VM_TYPE=$(e2e_virt_type)

E2E_WORK=$(mktemp -d /var/tmp/drivebench-e2e.XXXXXX)
work=$E2E_WORK
e2e_vm_disks "$work"

defined=1
vm_boot "$name" "$work" || e2e_fail "the VM did not start"
e2e_say "started $name ($VM_TYPE, $VM_SCSI_MODEL, 127.0.0.1:$VM_PORT -> guest port $ENGINE_PORT)"
vm_wait_ready "$name" $(( VM_T0 + timeout )) || e2e_fail "not ready"
e2e_say "guest agent answers after ${VM_T_AGENT}s; oltp ping (pgsql) answers after ${VM_T_DB}s"

out=$(vm_oltp ping 2>&1) || e2e_fail "oltp ping exited $?: $out"
e2e_say "$out"
set +e
bad=$(OLTP_PGSQL_PASSWORD=wrong "$VM_OLTP" --db-driver=pgsql --pgsql-host=127.0.0.1 \
        --pgsql-port="$VM_PORT" --pgsql-user=drivebench --pgsql-db=sbtest ping 2>&1)
rc=$?
set -e
[ "$rc" = 4 ] || e2e_fail "ping with a wrong password exited $rc, want 4 (login refused): $bad"
case "$bad" in *"login refused"*"password authentication failed"*) ;;
  *) e2e_fail "ping with a wrong password said: $bad" ;; esac
e2e_say "wrong password: exit 4, $bad"
# in a subshell: odbc_setup points ODBCSYSINI, ODBCINI and HOME at $work/odbc
out=$(odbc_setup "$work/odbc"
      odbc_add_dsn vm PostgreSQL Servername=127.0.0.1 Port="$VM_PORT" Database=sbtest
      OLTP_ODBC_PASSWORD=drivebench "$VM_OLTP" --db-driver=odbc --odbc-dsn=vm \
        --odbc-user=drivebench ping 2>&1) || e2e_fail "oltp ping through psqlODBC exited $?: $out"
e2e_say "$out"

# PostgreSQL's own view, through the guest agent as the postgres superuser.
pg() { vm_guest_sh "$name" "runuser -u postgres -- psql -XAtc \"$1\""; }
datadir=$(pg 'show data_directory') || e2e_fail "psql in the guest failed"
[ "$datadir" = /var/lib/postgresql-db/data ] || e2e_fail "data_directory is '$datadir', want /var/lib/postgresql-db/data"
mnt=$(vm_guest_sh "$name" 'findmnt -no SOURCE /var/lib/postgresql-db') \
  || e2e_fail "/var/lib/postgresql-db is not a mount point in the guest"
e2e_say "data directory $datadir on $mnt"
sb=$(pg "select setting::bigint * 8 / 1024 from pg_settings where name = 'shared_buffers'")
# 25% of a 1 GiB guest's MemTotal (a little under 1 GiB): 200-256 MiB.
[ "$sb" -ge 200 ] && [ "$sb" -le 256 ] || e2e_fail "shared_buffers is ${sb} MiB, want about a quarter of 1 GiB"
mc=$(pg 'show max_connections')
[ "$mc" = 64 ] || e2e_fail "max_connections is '$mc', want 64 (drivebench.pg.max_connections=64)"
e2e_say "shared_buffers ${sb} MiB (25% of RAM), max_connections $mc (kernel command line)"

t=$(date +%s)
vm_oltp --tables=1 --table-size=1000 oltp_read_write prepare >"$work/prepare.log" 2>&1 \
  || { tail -20 "$work/prepare.log" >&2; e2e_fail "oltp_read_write prepare through pgsql failed"; }
e2e_say "prepare (1 x 1,000 rows) in $(( $(date +%s) - t ))s"
vm_oltp --tables=1 --table-size=1000 --threads=2 --time=5 oltp_read_write run >"$work/run.log" 2>&1 \
  || { tail -30 "$work/run.log" >&2; e2e_fail "oltp_read_write run through pgsql failed"; }
tx=$(awk '/^ *transactions:/ { print $2; exit }' "$work/run.log")
[ -n "$tx" ] && [ "$tx" -gt 0 ] || { cat "$work/run.log" >&2; e2e_fail "the 5 s run committed '${tx}' transactions, want > 0"; }
e2e_say "oltp_read_write 5 s, 2 threads: $tx transactions ($(awk '/^ *transactions:/ { print $3, $4, $5; exit }' "$work/run.log"))"

e2e_db_grew "$work"

e2e_say "PASS: boot to agent ${VM_T_AGENT}s, to PostgreSQL ${VM_T_DB}s, whole test $(( $(date +%s) - t_start ))s ($VM_TYPE, $VM_SCSI_MODEL)"
