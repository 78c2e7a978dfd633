# shellcheck shell=bash disable=SC2034  # sourced: variables are used by the caller
# One hand-made VM on the guest image, for scripts that need a single VM
# without a drivebench plan (tests/e2e/boot-smoke.sh, images/seed.sh).
# Sourced, not run; bash; the caller holds libvirt up and cleans up.
#
# vm_boot NAME WORKDIR         define and start domain NAME: boot disk
#                              WORKDIR/boot.qcow2, database disk WORKDIR/db.img,
#                              console WORKDIR/console.log; sets VM_PORT (the
#                              host port forwarded to the engine's port);
#                              retries busy ports
# vm_wait_ready NAME DEADLINE  wait until the guest agent answers and user
#                              drivebench logs in (DEADLINE: epoch seconds);
#                              sets VM_T_AGENT, VM_T_DB (seconds since boot)
# vm_oltp ARGS...              run bin/oltp with the engine's driver and its
#                              connection options for the VM (the password
#                              in the environment, not on the command line)
#                              followed by ARGS (e.g. `ping`, `oltp_read_write
#                              prepare`)
# vm_sql SQL                   MariaDB only: run SQL as drivebench in sbtest
#                              with the mariadb client; print rows
# vm_agent NAME JSON           one guest agent command; print its reply
# vm_guest_sh NAME CMD         run CMD in the guest (/bin/sh -c); print its
#                              output, return its exit code
# vm_remove NAME               destroy and undefine NAME (quietly)
#
# Settings (set before vm_boot): VM_URI (qemu:///system), VM_TYPE (kvm or
# qemu), VM_SCSI_MODEL (virtio-scsi; lsisas1068 gives every disk a WWN,
# without which Linux's mptsas driver attaches no disk), VM_MEMORY_MIB
# (1024), VM_ENGINE
# (mariadb or postgresql: images/engines/<engine>/engine.conf gives the guest
# port, login and oltp driver), VM_IMAGES (the engine's image folder,
# images/build or images/build/postgresql), VM_CMDLINE_EXTRA (appended to
# the kernel command line), VM_OLTP (bin/oltp), VM_SEED (a prebuilt-database
# seed, IMAGE_DIR/seed.qcow2, attached read-only with serial seeddisk: the
# guest restores it onto a blank dbdisk), VM_QEMU_EXTRA (more QEMU arguments,
# one per line, after the user-mode NIC: bench/client_paths.sh adds a second
# NIC this way), VM_HOSTFWD_EXTRA (more user-mode forwards, space-separated
# hostfwd rules such as tcp:127.0.0.1:PORT-:7777: bench/client_paths.sh's
# echo server).
# Readiness is `oltp ping` when VM_OLTP exists (the mariadb client otherwise,
# MariaDB only).
# Errors go to stderr as "vm: ..." and the function returns 1.

VM_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VM_ENGINE=${VM_ENGINE:-mariadb}
VM_OLTP=${VM_OLTP:-$(dirname "$VM_LIB_DIR")/bin/oltp}
VM_URI=${VM_URI:-qemu:///system}
VM_TYPE=${VM_TYPE:-qemu}
VM_SCSI_MODEL=${VM_SCSI_MODEL:-virtio-scsi}
VM_MEMORY_MIB=${VM_MEMORY_MIB:-1024}
VM_IMAGES=${VM_IMAGES:-}
VM_CMDLINE_EXTRA=${VM_CMDLINE_EXTRA:-}
VM_SEED=${VM_SEED:-}
VM_QEMU_EXTRA=${VM_QEMU_EXTRA:-}
VM_HOSTFWD_EXTRA=${VM_HOSTFWD_EXTRA:-}
VM_PORT=
VM_T0=

# Load images/engines/$VM_ENGINE/engine.conf (ENGINE_*) and default
# VM_IMAGES to the engine's image folder.
vm_engine_load() {
  local conf=$VM_LIB_DIR/engines/$VM_ENGINE/engine.conf
  [ -f "$conf" ] || { echo "vm: unknown engine '$VM_ENGINE' (no $conf)" >&2; return 1; }
  # shellcheck source=engines/mariadb/engine.conf
  . "$conf"
  VM_IMAGES=${VM_IMAGES:-$VM_LIB_DIR/$ENGINE_IMAGE_DIR}
}

vm_xml_escape() {
  local s=$1
  s=${s//&/&amp;}; s=${s//</&lt;}; s=${s//>/&gt;}
  s=${s//\'/&apos;}; s=${s//\"/&quot;}
  printf '%s' "$s"
}

vm_free_port() {
  local port
  for _ in $(seq 50); do
    port=$(( 20000 + RANDOM % 20000 ))
    if ! ss -Hltn "sport = :$port" 2>/dev/null | grep -q .; then
      echo "$port"; return 0
    fi
  done
  echo "vm: no free TCP port found" >&2
  return 1
}

# The domain XML. Values pasted in are escaped; the orchestrator builds its
# XML with libxml2 from vmconfigs/. The NIC gets an explicit PCI slot: left
# to QEMU it takes slot 2, which libvirt has given to the disk controller.
vm_write_xml() {  # name workdir port
  local x=vm_xml_escape w=$2 seed='' wwn0='' wwn1='' wwn2='' uuid extra='' a fwd=''
  for a in $VM_HOSTFWD_EXTRA; do fwd+=",hostfwd=$a"; done
  uuid=$(cat /proc/sys/kernel/random/uuid)
  if [ "$VM_SCSI_MODEL" = lsisas1068 ]; then
    # NAA 5 (IEEE registered) names, unique per VM and disk: QEMU's mptsas
    # reports a disk's WWN as its SAS address, and mptsas skips address 0.
    local base=${uuid//-/}; base=${base:0:14}
    wwn0="
      <wwn>0x5${base}0</wwn>"; wwn1="
      <wwn>0x5${base}1</wwn>"; wwn2="
      <wwn>0x5${base}2</wwn>"
  fi
  [ -z "$VM_SEED" ] || seed="
    <disk type='file' device='disk'>
      <driver name='qemu' type='qcow2'/>
      <source file='$($x "$VM_SEED")'/>
      <target dev='sdc' bus='scsi'/>
      <serial>seeddisk</serial>$wwn2
      <readonly/>
      <address type='drive' controller='0' bus='0' target='2' unit='0'/>
    </disk>"
  while IFS= read -r a; do
    [ -z "$a" ] || extra+="
    <qemu:arg value='$($x "$a")'/>"
  done <<<"$VM_QEMU_EXTRA"
  cat >"$w/domain.xml" <<EOF
<domain type='$($x "$VM_TYPE")' xmlns:qemu='http://libvirt.org/schemas/domain/qemu/1.0'>
  <name>$($x "$1")</name>
  <uuid>$uuid</uuid>
  <memory unit='MiB'>$($x "$VM_MEMORY_MIB")</memory>
  <vcpu>1</vcpu>
  <os>
    <type arch='x86_64' machine='pc'>hvm</type>
    <kernel>$($x "$VM_IMAGES/vmlinuz")</kernel>
    <initrd>$($x "$VM_IMAGES/initrd.img")</initrd>
    <cmdline>$($x "root=LABEL=vmroot ro console=ttyS0 no_timer_check panic=1${VM_CMDLINE_EXTRA:+ $VM_CMDLINE_EXTRA}")</cmdline>
  </os>
  <features><acpi/></features>
  <on_poweroff>destroy</on_poweroff>
  <on_reboot>destroy</on_reboot>
  <on_crash>destroy</on_crash>
  <devices>
    <controller type='scsi' index='0' model='$($x "$VM_SCSI_MODEL")'/>
    <disk type='file' device='disk'>
      <driver name='qemu' type='qcow2'/>
      <source file='$($x "$w/boot.qcow2")'/>
      <target dev='sda' bus='scsi'/>
      <serial>bootdisk</serial>$wwn0
      <address type='drive' controller='0' bus='0' target='0' unit='0'/>
    </disk>
    <disk type='file' device='disk'>
      <driver name='qemu' type='raw' cache='none' io='native'/>
      <source file='$($x "$w/db.img")'/>
      <target dev='sdb' bus='scsi'/>
      <serial>dbdisk</serial>$wwn1
      <address type='drive' controller='0' bus='0' target='1' unit='0'/>
    </disk>$seed
    <serial type='file'>
      <source path='$($x "$w/console.log")'/>
      <target port='0'/>
    </serial>
    <channel type='unix'>
      <target type='virtio' name='org.qemu.guest_agent.0'/>
    </channel>
    <memballoon model='none'/>
  </devices>
  <qemu:commandline>
    <qemu:arg value='-netdev'/>
    <qemu:arg value='user,id=net0,restrict=on,hostfwd=tcp:127.0.0.1:$3-:$($x "$ENGINE_PORT")$($x "$fwd")'/>
    <qemu:arg value='-device'/>
    <qemu:arg value='virtio-net-pci,netdev=net0,bus=pci.0,addr=0x1e'/>$extra
  </qemu:commandline>
</domain>
EOF
}

vm_boot() {  # name workdir
  local err
  vm_engine_load || return 1
  for _ in 1 2 3; do
    VM_PORT=$(vm_free_port) || return 1
    vm_write_xml "$1" "$2" "$VM_PORT"
    virsh -c "$VM_URI" define "$2/domain.xml" >/dev/null || return 1
    VM_T0=$(date +%s)
    if err=$(virsh -c "$VM_URI" start "$1" 2>&1); then return 0; fi
    virsh -c "$VM_URI" undefine "$1" >/dev/null 2>&1 || true
    case "$err" in
      *"host forwarding rule"*) echo "vm: port $VM_PORT taken, retrying" >&2 ;;
      *) echo "vm: virsh start: $err" >&2; return 1 ;;
    esac
  done
  echo "vm: no free port for the forward after 3 attempts" >&2
  return 1
}

vm_alive() { [ "$(virsh -c "$VM_URI" domstate "$1" 2>/dev/null | head -1)" = running ]; }

vm_agent() { virsh -c "$VM_URI" qemu-agent-command "$1" --timeout 5 "$2" 2>/dev/null; }

vm_oltp() {
  local o=$ENGINE_OLTP_OPT pwvar
  pwvar=OLTP_$(tr '[:lower:]' '[:upper:]' <<<"$o")_PASSWORD
  env "$pwvar=$ENGINE_PASSWORD" "$VM_OLTP" --db-driver="$ENGINE_OLTP_DRIVER" \
    --"$o"-host=127.0.0.1 --"$o"-port="$VM_PORT" --"$o"-user="$ENGINE_USER" \
    --"$o"-db="$ENGINE_DATABASE" "$@"
}

# Does the database answer drivebench's login? Quietly; 0 or oltp ping's code.
vm_db_ping() {
  if [ -x "$VM_OLTP" ]; then
    vm_oltp --connect-timeout=5 ping >/dev/null 2>&1
  elif [ "$VM_ENGINE" = mariadb ]; then
    vm_sql 'select 1' >/dev/null 2>&1
  else
    echo "vm: $VM_OLTP missing: run make first" >&2; return 2
  fi
}

vm_sql() {
  mariadb -h127.0.0.1 -P"$VM_PORT" -udrivebench -pdrivebench --connect-timeout=5 \
    -N -B sbtest -e "$1"
}

vm_guest_sh() {  # name command
  local req pid st
  req=$(jq -cn --arg c "$2" \
    '{execute: "guest-exec", arguments: {path: "/bin/sh", arg: ["-c", $c], "capture-output": true}}')
  pid=$(vm_agent "$1" "$req" | jq -r '.return.pid') || return 1
  for _ in $(seq 60); do
    st=$(vm_agent "$1" "$(jq -cn --argjson p "$pid" '{execute: "guest-exec-status", arguments: {pid: $p}}')") || return 1
    if [ "$(jq -r '.return.exited' <<<"$st")" = true ]; then
      jq -r '.return["out-data"] // empty' <<<"$st" | base64 -d
      return "$(jq -r '.return.exitcode // 1' <<<"$st")"
    fi
    sleep 1
  done
  return 1
}

vm_wait_ready() {  # name deadline
  until vm_agent "$1" '{"execute":"guest-ping"}' >/dev/null; do
    vm_alive "$1" || { echo "vm: $1 stopped before its guest agent answered" >&2; return 1; }
    [ "$(date +%s)" -lt "$2" ] || { echo "vm: $1: guest agent not answering after $(( $(date +%s) - VM_T0 ))s" >&2; return 1; }
    sleep 2
  done
  VM_T_AGENT=$(( $(date +%s) - VM_T0 ))
  local rc
  until vm_db_ping; do
    rc=$?
    # 4: the server answered and refused the login: waiting will not help
    [ "$rc" != 4 ] || { vm_oltp --connect-timeout=5 ping >&2; return 1; }
    vm_alive "$1" || { echo "vm: $1 stopped before $VM_ENGINE accepted logins" >&2; return 1; }
    [ "$(date +%s)" -lt "$2" ] || { echo "vm: $1: $VM_ENGINE not accepting logins on 127.0.0.1:$VM_PORT after $(( $(date +%s) - VM_T0 ))s" >&2; return 1; }
    sleep 2
  done
  VM_T_DB=$(( $(date +%s) - VM_T0 ))
}

vm_remove() {
  virsh -c "$VM_URI" destroy "$1" >/dev/null 2>&1 || true
  virsh -c "$VM_URI" undefine "$1" >/dev/null 2>&1 \
    || { virsh -c "$VM_URI" dominfo "$1" >/dev/null 2>&1 && echo "vm: warning: could not undefine $1" >&2; }
  return 0
}
