#!/usr/bin/env bash
# Make qemu:///system answer on a machine where nothing runs libvirt (no
# systemd as PID 1: containers, CI workers, microVMs).
#
# If libvirtd already answers, does nothing and exits 0. Otherwise starts
# virtlogd and libvirtd in the background, records their PIDs in the state
# file (images/libvirt-down.sh stops exactly those), and waits until the
# first connection works (libvirt probes QEMU's capabilities first, which
# takes several seconds). Libvirt's default NAT network is never started:
# its autostart link is removed before libvirtd starts.
#
# Where udev does not run, gives /dev/kvm the group and mode udev would give
# it, so QEMU can use KVM.
#
# Prints "libvirt: started" or "libvirt: already running" on stdout so a
# caller can tell whether it owns the daemons. Exit 1 if they do not come up.
#
# Environment: DRIVEBENCH_LIBVIRT_STATE (default /run/drivebench/libvirt)
# is the folder holding the PID file and the daemons' logs.
set -euo pipefail

uri=qemu:///system
state=${DRIVEBENCH_LIBVIRT_STATE:-/run/drivebench/libvirt}
pidfile=$state/pids
timeout=${LIBVIRT_UP_TIMEOUT:-90}

answers() { virsh -c "$uri" version >/dev/null 2>&1; }

if answers; then
  echo "libvirt: already running"
  exit 0
fi
# One start at a time; a second caller waits, then finds it running.
mkdir -p "$state"
exec {start_lock}>"$state/start.lock"
flock "$start_lock"
if answers; then
  echo "libvirt: already running"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "libvirt-up: qemu:///system does not answer and starting it needs root" >&2
  exit 1
fi
for d in virtlogd libvirtd; do
  command -v "$d" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
  command -v "$d" >/dev/null || {
    echo "libvirt-up: $d not found: install libvirt-daemon-system (see images/deps.txt)" >&2
    exit 1; }
done

# PIDs of a previous start whose daemons are still alive belong to us too:
# keep them rather than starting second copies.
alive=()
rm -f "$pidfile.new"
if [ -s "$pidfile" ]; then
  while read -r name pid; do
    if kill -0 "$pid" 2>/dev/null && [ "$(cat /proc/"$pid"/comm 2>/dev/null)" = "$name" ]; then
      alive+=("$name")
      echo "$name $pid" >>"$pidfile.new"
    fi
  done <"$pidfile"
fi
mv -f "$pidfile.new" "$pidfile" 2>/dev/null || : >"$pidfile"

rm -f /etc/libvirt/qemu/networks/autostart/default.xml

# Without udev, /dev/kvm stays root:root 0600 and QEMU (user libvirt-qemu,
# group kvm) gets "Could not access KVM kernel module: Permission denied".
# Apply the rule udev would (50-udev-default.rules: GROUP="kvm", MODE="0660").
if [ -c /dev/kvm ] && getent group kvm >/dev/null \
   && [ "$(stat -c %G /dev/kvm)" != kvm ]; then
  chgrp kvm /dev/kvm && chmod 0660 /dev/kvm \
    && echo "libvirt: /dev/kvm given to group kvm, mode 0660 (as udev does)"
fi

start_daemon() {  # name args...: start in its own session, record its PID
  local name=$1; shift
  local a
  for a in "${alive[@]}"; do [ "$a" = "$name" ] && return 0; done
  # setsid execs in place (a background job is not a group leader), so $!
  # is the daemon's own PID; its own session keeps Ctrl-C in the caller's
  # terminal from reaching it. Inherited descriptors are closed: a daemon
  # holding a caller's lock file open would hold the lock forever.
  (
    for fd in /proc/$BASHPID/fd/*; do
      fd=${fd##*/}
      [ "$fd" -gt 2 ] && eval "exec $fd>&-"
    done
    exec setsid "$name" "$@" </dev/null >>"$state/$name.log" 2>&1
  ) &
  echo "$name $!" >>"$pidfile"
}

start=$(date +%s)
start_daemon virtlogd
sleep 0.5
start_daemon libvirtd

while ! answers; do
  if [ $(( $(date +%s) - start )) -ge "$timeout" ]; then
    echo "libvirt-up: qemu:///system did not answer within ${timeout}s; last log lines:" >&2
    tail -20 "$state/libvirtd.log" >&2 || true
    exit 1
  fi
  while read -r name pid; do
    kill -0 "$pid" 2>/dev/null || {
      echo "libvirt-up: $name (pid $pid) exited; last log lines:" >&2
      tail -20 "$state/$name.log" >&2 || true
      exit 1; }
  done <"$pidfile"
  sleep 1
done
echo "libvirt: started ($(( $(date +%s) - start ))s, pids in $pidfile)"
