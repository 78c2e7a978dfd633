#!/usr/bin/env bash
# End-to-end: the guest image boots under real QEMU and serves MariaDB.
#
# Builds (or reuses) the image, starts libvirt if nothing runs it, defines a
# one-off domain by hand (images/vmlib.sh: 1 vCPU, 1 GiB, direct kernel
# boot, boot disk = a qcow2 overlay on base.qcow2, database disk = an empty
# raw file with serial "dbdisk", guest agent channel, serial console to a
# file, user-mode network with a loopback-only port forward), then checks,
# against a deadline:
#   - the guest agent answers guest-ping;
#   - user drivebench logs in to database sbtest through 127.0.0.1:PORT;
#   - MariaDB's datadir is on the database disk (a mount point in the guest)
#     and the disk file grew;
#   - the buffer pool follows the profile (50% of the guest's RAM);
#   - /usr/local/bin/oltp runs in the guest when the image includes it.
# Fails (never hangs) when the VM is not ready within E2E_BOOT_TIMEOUT
# seconds (default 300), printing the serial console. Always destroys and
# undefines its domain, deletes its files and stops the libvirt daemons it
# started, also on Ctrl-C.
#
# Environment: E2E_SCSI_MODEL (virtio-scsi; lsisas1068, with a WWN on every
# disk, or lsisas1078 put the boot and database disks behind QEMU's LSI SAS
# or MegaRAID controller), E2E_BOOT_TIMEOUT, DRIVEBENCH_VIRT_TYPE (kvm or qemu).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$E2E_TOP/images/vmlib.sh"

timeout=${E2E_BOOT_TIMEOUT:-300}
VM_SCSI_MODEL=${E2E_SCSI_MODEL:-virtio-scsi}
VM_IMAGES=${DRIVEBENCH_IMAGE_DIR:-$E2E_TOP/images/build}
name=drivebench-e2e-boot-$$-$RANDOM
defined=0

e2e_test_cleanup() {
  [ "$defined" = 1 ] && vm_remove "$name"
  e2e_vm_console "$name" "$1" 150 boot-smoke-console.log
}
e2e_begin virsh qemu-img mariadb jq ss

"$E2E_TOP/images/build.sh"
for f in base.qcow2 vmlinuz initrd.img; do
  [ -s "$VM_IMAGES/$f" ] || e2e_fail "$VM_IMAGES/$f missing after images/build.sh"
done
e2e_libvirt_up || e2e_fail "libvirt did not start"
VM_TYPE=$(e2e_virt_type)

E2E_WORK=$(mktemp -d /var/tmp/drivebench-e2e.XXXXXX)
work=$E2E_WORK
e2e_vm_disks "$work"

defined=1
vm_boot "$name" "$work" || e2e_fail "the VM did not start"
e2e_say "started $name ($VM_TYPE, $VM_SCSI_MODEL, port 127.0.0.1:$VM_PORT)"
vm_wait_ready "$name" $(( VM_T0 + timeout )) || e2e_fail "not ready"
e2e_say "guest agent answers after ${VM_T_AGENT}s; MariaDB accepts drivebench@sbtest after ${VM_T_DB}s"

[ "$(vm_sql 'select 1')" = 1 ] || e2e_fail "select 1 did not return 1"
datadir=$(vm_sql 'select @@datadir')
[ "$datadir" = /var/lib/mysql-db/data/ ] || e2e_fail "datadir is '$datadir', want /var/lib/mysql-db/data/"
pool=$(vm_sql 'select @@innodb_buffer_pool_size')
# 50% of a 1 GiB guest's MemTotal (a little under 1 GiB), rounded by InnoDB
# to its chunk size: between 384 and 512 MiB.
[ "$pool" -ge $((384 << 20)) ] && [ "$pool" -le $((512 << 20)) ] \
  || e2e_fail "innodb_buffer_pool_size is $pool, want about half of 1 GiB"
vm_sql 'create table e2e_smoke (id int primary key, v varchar(64)) engine=innodb;
        insert into e2e_smoke values (1, repeat("x", 64)), (2, "y");' \
  || e2e_fail "cannot write to sbtest"
[ "$(vm_sql 'select count(*) from e2e_smoke')" = 2 ] || e2e_fail "rows written are not read back"

mnt=$(vm_guest_sh "$name" 'findmnt -no SOURCE /var/lib/mysql-db') \
  || e2e_fail "/var/lib/mysql-db is not a mount point in the guest"
e2e_say "database disk in the guest: $mnt"

e2e_db_grew "$work"

if grep -q '^oltp_sha256=[0-9a-f]' "$VM_IMAGES/image.info" 2>/dev/null; then
  vm_guest_sh "$name" 'test -x /usr/local/bin/oltp && ! ldd /usr/local/bin/oltp | grep "not found"' \
    || e2e_fail "/usr/local/bin/oltp missing or lacking libraries in the guest"
  e2e_say "/usr/local/bin/oltp present with all its libraries"
fi

e2e_say "PASS: boot to agent ${VM_T_AGENT}s, to MariaDB ${VM_T_DB}s ($VM_TYPE, $VM_SCSI_MODEL)"
