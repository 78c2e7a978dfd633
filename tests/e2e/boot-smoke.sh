#!/usr/bin/env bash
# End-to-end: the guest image boots under real QEMU and serves MariaDB.
#
# Builds (or reuses) the image, starts libvirt if nothing runs it, defines a
# one-off domain by hand (1 vCPU, 1 GiB, direct kernel boot, boot disk = a
# qcow2 overlay on base.qcow2, database disk = an empty raw file with serial
# "dbdisk", both on an LSI SAS controller, guest agent channel, serial
# console to a file, user-mode network with a loopback-only port forward),
# then checks, against deadlines:
#   - the guest agent answers guest-ping;
#   - user drivebench logs in to database sbtest through 127.0.0.1:PORT;
#   - MariaDB's datadir is on the database disk and the disk file grew;
#   - the buffer pool follows the profile (50% of the guest's RAM);
#   - /usr/local/bin/oltp runs in the guest when the image includes it.
# Fails (never hangs) when the VM is not ready within E2E_BOOT_TIMEOUT
# seconds (default 300), printing the serial console. Always destroys and
# undefines its domain, deletes its files and stops the libvirt daemons it
# started, also on Ctrl-C.
#
# Environment: E2E_SCSI_MODEL (lsisas1068, or virtio-scsi), E2E_BOOT_TIMEOUT,
# DRIVEBENCH_VIRT_TYPE (kvm or qemu; default: kvm when usable).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

timeout=${E2E_BOOT_TIMEOUT:-300}
model=${E2E_SCSI_MODEL:-virtio-scsi}
images=${DRIVEBENCH_IMAGE_DIR:-$E2E_TOP/images/build}
name=drivebench-e2e-boot-$$-$RANDOM
work=
defined=0
ok=0

say() { echo "boot-smoke: $*"; }
fail() {
  echo "boot-smoke: FAIL: $* (host load average: $(cut -d" " -f1-3 /proc/loadavg))" >&2
  exit 1
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ "$defined" = 1 ]; then
    virsh -c "$E2E_URI" destroy "$name" >/dev/null 2>&1 || true
    virsh -c "$E2E_URI" undefine "$name" >/dev/null 2>&1 \
      || echo "boot-smoke: warning: could not undefine $name" >&2
  fi
  if [ "$ok" != 1 ] && [ -n "$work" ] && [ -s "$work/console.log" ]; then
    echo "----- serial console of $name (last 150 lines) -----" >&2
    tail -150 "$work/console.log" >&2
    echo "----- end of serial console -----" >&2
    mkdir -p "$E2E_TOP/tests/artifacts"
    cp "$work/console.log" "$E2E_TOP/tests/artifacts/boot-smoke-console.log" \
      && echo "boot-smoke: whole console in tests/artifacts/boot-smoke-console.log" >&2
  fi
  [ -n "$work" ] && rm -rf "$work"
  e2e_libvirt_down >/dev/null
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

[ "$(id -u)" -eq 0 ] || fail "needs root (qemu:///system, image build)"
for t in virsh qemu-img mariadb jq ss; do
  command -v "$t" >/dev/null || fail "$t not found: install images/deps.txt"
done

"$E2E_TOP/images/build.sh"
for f in base.qcow2 vmlinuz initrd.img; do
  [ -s "$images/$f" ] || fail "$images/$f missing after images/build.sh"
done
e2e_libvirt_up || fail "libvirt did not start"
type=$(e2e_virt_type)

work=$(mktemp -d /var/tmp/drivebench-e2e.XXXXXX)
chmod 0755 "$work"   # QEMU runs as libvirt-qemu and must reach the files
qemu-img create -q -f qcow2 -F qcow2 -b "$images/base.qcow2" "$work/boot.qcow2" 4G
truncate -s 1G "$work/db.img"
db_before=$(du -k "$work/db.img" | cut -f1)

# The domain XML of this test only. The values pasted in are escaped;
# the orchestrator builds its XML with libxml2 from vmconfigs/.
write_xml() {  # port
  local x=e2e_xml_escape
  cat >"$work/domain.xml" <<EOF
<domain type='$type' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>
  <name>$name</name>
  <uuid>$(cat /proc/sys/kernel/random/uuid)</uuid>
  <memory unit='GiB'>1</memory>
  <vcpu>1</vcpu>
  <os>
    <type arch='x86_64' machine='pc'>hvm</type>
    <kernel>$($x "$images/vmlinuz")</kernel>
    <initrd>$($x "$images/initrd.img")</initrd>
    <cmdline>root=LABEL=vmroot ro console=ttyS0</cmdline>
  </os>
  <features><acpi/></features>
  <on_poweroff>destroy</on_poweroff>
  <on_reboot>destroy</on_reboot>
  <on_crash>destroy</on_crash>
  <devices>
    <controller type='scsi' index='0' model='$($x "$model")'/>
    <disk type='file' device='disk'>
      <driver name='qemu' type='qcow2'/>
      <source file='$($x "$work/boot.qcow2")'/>
      <target dev='sda' bus='scsi'/>
      <serial>bootdisk</serial>
      <address type='drive' controller='0' bus='0' target='0' unit='0'/>
    </disk>
    <disk type='file' device='disk'>
      <driver name='qemu' type='raw' cache='none' io='native'/>
      <source file='$($x "$work/db.img")'/>
      <target dev='sdb' bus='scsi'/>
      <serial>dbdisk</serial>
      <address type='drive' controller='0' bus='0' target='1' unit='0'/>
    </disk>
    <serial type='file'>
      <source path='$($x "$work/console.log")'/>
      <target port='0'/>
    </serial>
    <channel type='unix'>
      <target type='virtio' name='org.qemu.guest_agent.0'/>
    </channel>
    <memballoon model='none'/>
  </devices>
  <qemu:commandline>
    <qemu:arg value='-netdev'/>
    <qemu:arg value='user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:$1-:3306'/>
    <qemu:arg value='-device'/>
    <qemu:arg value='virtio-net-pci,netdev=net0,bus=pci.0,addr=0x1e'/>
  </qemu:commandline>
</domain>
EOF
}

# A port can be taken between the check and QEMU's bind: retry.
t0=$(date +%s)
E2E_DEADLINE=$(( t0 + timeout ))
for attempt in 1 2 3; do
  port=$(e2e_free_port)
  write_xml "$port"
  virsh -c "$E2E_URI" define "$work/domain.xml" >/dev/null
  defined=1
  if err=$(virsh -c "$E2E_URI" start "$name" 2>&1); then break; fi
  virsh -c "$E2E_URI" undefine "$name" >/dev/null 2>&1 || true
  defined=0
  case "$err" in
    *"host forwarding rule"*) say "port $port taken, retrying" ;;
    *) fail "virsh start: $err" ;;
  esac
done
[ "$defined" = 1 ] || fail "no free port for the forward after 3 attempts"
say "started $name ($type, $model, port 127.0.0.1:$port)"

alive() { [ "$(virsh -c "$E2E_URI" domstate "$name" 2>/dev/null | head -1)" = running ]; }
agent() { virsh -c "$E2E_URI" qemu-agent-command "$name" --timeout 5 "$1" 2>/dev/null; }
# Run a shell command in the guest through the agent; print its standard
# output and return its exit code (1 if it did not finish within 30 s).
guest_sh() {
  local req pid st i
  req=$(jq -cn --arg c "$1" \
    '{execute: "guest-exec", arguments: {path: "/bin/sh", arg: ["-c", $c], "capture-output": true}}')
  pid=$(agent "$req" | jq -r '.return.pid') || return 1
  for i in $(seq 30); do
    st=$(agent "$(jq -cn --argjson p "$pid" '{execute: "guest-exec-status", arguments: {pid: $p}}')") || return 1
    if [ "$(jq -r '.return.exited' <<<"$st")" = true ]; then
      jq -r '.return["out-data"] // empty' <<<"$st" | base64 -d
      return "$(jq -r '.return.exitcode // 1' <<<"$st")"
    fi
    sleep 1
  done
  return 1
}
sql() {
  mariadb -h127.0.0.1 -P"$port" -udrivebench -pdrivebench --connect-timeout=5 \
    -N -B sbtest -e "$1"
}

until agent '{"execute":"guest-ping"}' >/dev/null; do
  alive || fail "the VM stopped before its guest agent answered"
  [ "$(e2e_deadline_left)" -gt 0 ] || fail "guest agent not answering after ${timeout}s"
  sleep 2
done
t_agent=$(( $(date +%s) - t0 ))
say "guest agent answers after ${t_agent}s"

until sql 'select 1' >/dev/null 2>&1; do
  alive || fail "the VM stopped before MariaDB accepted logins"
  [ "$(e2e_deadline_left)" -gt 0 ] || fail "MariaDB not accepting logins on 127.0.0.1:$port after ${timeout}s"
  sleep 2
done
t_db=$(( $(date +%s) - t0 ))
say "MariaDB accepts drivebench@sbtest after ${t_db}s"

[ "$(sql 'select 1')" = 1 ] || fail "select 1 did not return 1"
datadir=$(sql 'select @@datadir')
[ "$datadir" = /var/lib/mysql-db/data/ ] || fail "datadir is '$datadir', want /var/lib/mysql-db/data/"
pool=$(sql 'select @@innodb_buffer_pool_size')
# 50% of a 1 GiB guest's MemTotal (a little under 1 GiB), rounded by InnoDB
# to its chunk size: between 384 and 512 MiB.
[ "$pool" -ge $((384 << 20)) ] && [ "$pool" -le $((512 << 20)) ] \
  || fail "innodb_buffer_pool_size is $pool, want about half of 1 GiB"
sql 'create table e2e_smoke (id int primary key, v varchar(64)) engine=innodb;
     insert into e2e_smoke values (1, repeat("x", 64)), (2, "y");' \
  || fail "cannot write to sbtest"
[ "$(sql 'select count(*) from e2e_smoke')" = 2 ] || fail "rows written are not read back"

mnt=$(guest_sh 'findmnt -no SOURCE /var/lib/mysql-db') \
  || fail "/var/lib/mysql-db is not a mount point in the guest"
say "database disk in the guest: $mnt"

db_after=$(du -k "$work/db.img" | cut -f1)
[ "$db_after" -gt $(( db_before + 10240 )) ] \
  || fail "db.img did not grow (${db_before} KiB -> ${db_after} KiB): the database is not on it"
say "db.img grew from ${db_before} KiB to ${db_after} KiB"

if grep -q '^oltp_sha256=[0-9a-f]' "$images/image.info" 2>/dev/null; then
  guest_sh 'test -x /usr/local/bin/oltp && ! ldd /usr/local/bin/oltp | grep "not found"' \
    || fail "/usr/local/bin/oltp missing or lacking libraries in the guest"
  say "/usr/local/bin/oltp present with all its libraries"
fi

ok=1
say "PASS: boot to agent ${t_agent}s, to MariaDB ${t_db}s ($type, $model)"
