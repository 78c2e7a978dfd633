#!/usr/bin/env bash
# End-to-end: the prebuilt-database seed of an engine's image, built and
# restored (E2E_ENGINE: postgresql, the default, or mariadb).
#
# images/seed.sh --engine ENGINE builds IMAGE_DIR/seed.qcow2 for a small
# plan (oltp_read_write, 2 tables x 1,000 rows, through the engine's oltp
# driver; the guest shut down cleanly). Then one VM boots with that seed
# attached read-only (serial seeddisk) and a blank dbdisk, and this checks
# that the guest restored the data directory from the seed (its console
# says so), that the server has both tables with all their rows, and that a
# 5 s oltp_read_write run over them commits transactions. Always removes
# its VMs and files; stops the libvirt daemons it started.
#
# Environment: E2E_ENGINE, E2E_BOOT_TIMEOUT (default 300),
# DRIVEBENCH_VIRT_TYPE.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
VM_ENGINE=${E2E_ENGINE:-postgresql}
. "$E2E_TOP/images/vmlib.sh"

timeout=${E2E_BOOT_TIMEOUT:-300}
name=drivebench-e2e-seed-$$-$RANDOM
defined=0
t_start=$(date +%s)

e2e_test_cleanup() {
  [ "$defined" = 1 ] && vm_remove "$name"
  e2e_vm_console "$name" "$1" 80
}
e2e_begin virsh qemu-img jq ss

[ -x "$VM_OLTP" ] || e2e_fail "$VM_OLTP missing: run make first"
vm_engine_load || e2e_fail "no engine $VM_ENGINE"
e2e_libvirt_up || e2e_fail "libvirt did not start"
VM_TYPE=$(e2e_virt_type)
E2E_WORK=$(mktemp -d /var/tmp/drivebench-e2e.XXXXXX)
work=$E2E_WORK
chmod 0755 "$work"

cat >"$work/plan.ini" <<PLAN
[run]
name = seed restore
profile = tiny
engine = $VM_ENGINE
image_dir = $VM_IMAGES
db_size = 1G

[workload]
name = oltp_read_write
tables = 2
table_size = 1000
threads = 2
measure = 10s

[drive d1]
path = $work/d1
PLAN
t=$(date +%s)
DRIVEBENCH_SEED_UNDER_LIBVIRT=1 DRIVEBENCH_VIRT_TYPE=$VM_TYPE \
  "$E2E_TOP/images/seed.sh" "$work/plan.ini" --engine "$VM_ENGINE" \
  || e2e_fail "images/seed.sh --engine $VM_ENGINE failed"
grep -qx "engine=$VM_ENGINE" "$VM_IMAGES/seed.info" || e2e_fail "$VM_IMAGES/seed.info does not say engine=$VM_ENGINE"
e2e_say "seed $VM_IMAGES/seed.qcow2 ready in $(( $(date +%s) - t ))s"

e2e_vm_disks "$work"
# shellcheck disable=SC2034  # read by vm_boot (images/vmlib.sh)
VM_SEED=$VM_IMAGES/seed.qcow2
defined=1
vm_boot "$name" "$work" || e2e_fail "the VM did not start"
e2e_say "started $name with the seed attached ($VM_TYPE, 127.0.0.1:$VM_PORT -> $ENGINE_PORT)"
vm_wait_ready "$name" $(( VM_T0 + timeout )) || e2e_fail "not ready"
e2e_say "$VM_ENGINE answers after ${VM_T_DB}s"
grep -q 'restoring the database from the seed disk' "$work/console.log" \
  || e2e_fail "the guest did not restore from the seed disk (console has no 'restoring the database from the seed disk')"
e2e_say "$(grep -o 'drivebench-dbdisk: restored in [0-9]*s' "$work/console.log" | head -1)"

# counted in the guest, as the engine's superuser over its local socket
count='select (select count(*) from sbtest1), (select count(*) from sbtest2)'
case "$VM_ENGINE" in
  postgresql) rows=$(vm_guest_sh "$name" "runuser -u postgres -- psql -XAt -F ' ' -d sbtest -c '$count'") ;;
  mariadb) rows=$(vm_guest_sh "$name" "mariadb -N -B sbtest -e '$count' | tr '\t' ' '") ;;
  *) e2e_fail "no row count for engine $VM_ENGINE" ;;
esac || e2e_fail "cannot count the rows in the guest"
[ "$rows" = "1000 1000" ] || e2e_fail "restored rows: '$rows', want '1000 1000'"
e2e_say "restored tables sbtest1, sbtest2: $rows rows"

vm_oltp --tables=2 --table-size=1000 --threads=2 --time=5 oltp_read_write run >"$work/run.log" 2>&1 \
  || { tail -30 "$work/run.log" >&2; e2e_fail "oltp_read_write run on the restored database failed"; }
tx=$(awk '/^ *transactions:/ { print $2; exit }' "$work/run.log")
[ -n "$tx" ] && [ "$tx" -gt 0 ] || e2e_fail "the 5 s run committed '${tx}' transactions, want > 0"
e2e_say "PASS: seed built and restored; 5 s run on it: $tx transactions; whole test $(( $(date +%s) - t_start ))s"
