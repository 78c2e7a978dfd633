#!/usr/bin/env bash
# Stop the virtlogd and libvirtd that images/libvirt-up.sh started, and only
# those: the PIDs come from its state file, and a PID is signalled only while
# it still names the same program. Does nothing when the state file is
# absent (libvirt was already running, or is run by systemd).
#
# With --if-unused, stops them only when no other drivebench process uses
# them: users hold a shared flock on $state/users.lock while they need
# libvirt (images/with-libvirt.sh, tests/e2e/lib.sh); this takes it
# exclusively, without waiting, and holds it while stopping.
#
# Environment: DRIVEBENCH_LIBVIRT_STATE as for libvirt-up.sh.
set -euo pipefail

state=${DRIVEBENCH_LIBVIRT_STATE:-/run/drivebench/libvirt}
pidfile=$state/pids
[ -s "$pidfile" ] || { echo "libvirt: nothing of ours to stop"; exit 0; }
if [ "${1:-}" = --if-unused ]; then
  exec {users}>>"$state/users.lock"
  flock -x -n "$users" || { echo "libvirt: still in use by another drivebench process: left running"; exit 0; }
fi

ours() { kill -0 "$2" 2>/dev/null && [ "$(cat /proc/"$2"/comm 2>/dev/null)" = "$1" ]; }

# libvirtd first (it may still talk to virtlogd), then virtlogd.
for want in libvirtd virtlogd; do
  while read -r name pid; do
    [ "$name" = "$want" ] || continue
    ours "$name" "$pid" || continue
    kill -TERM "$pid"
    for _ in $(seq 50); do ours "$name" "$pid" || break; sleep 0.2; done
    if ours "$name" "$pid"; then
      echo "libvirt-down: $name (pid $pid) ignored SIGTERM for 10s; sending SIGKILL" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
    echo "libvirt: stopped $name (pid $pid)"
  done <"$pidfile"
done
rm -f "$pidfile"
