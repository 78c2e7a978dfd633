#!/usr/bin/env bash
# Run a command while qemu:///system answers: `images/with-libvirt.sh CMD...`
#
# Holds a shared lock on the libvirt state folder's users.lock for the
# command's lifetime, starts libvirt if nothing runs it (libvirt-up.sh), runs
# the command, then stops the daemons libvirt-up.sh started unless another
# drivebench process still uses them (libvirt-down.sh --if-unused). Exits
# with the command's status.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
state=${DRIVEBENCH_LIBVIRT_STATE:-/run/drivebench/libvirt}
[ $# -gt 0 ] || { echo "usage: $0 COMMAND [ARG...]" >&2; exit 2; }

# Ctrl-C reaches the command; this wrapper stays to clean up after it.
trap 'echo "with-libvirt: interrupted; cleaning up" >&2' INT TERM
mkdir -p "$state"
exec {users}>>"$state/users.lock"
flock -s "$users"
"$here/libvirt-up.sh" || exit 1
"$@" {users}>&-
rc=$?
flock -u "$users"
exec {users}>&-
"$here/libvirt-down.sh" --if-unused
exit "$rc"
