# shellcheck shell=bash disable=SC2034  # sourced: variables are used by the caller
# Helpers shared by the end-to-end tests (sourced, not run).
#
# e2e_libvirt_up      make qemu:///system answer (images/libvirt-up.sh) and
#                     hold a shared lock as one of its users
# e2e_libvirt_down    drop the lock; stop the daemons libvirt-up.sh started
#                     unless another drivebench process still uses them
# e2e_virt_type       "kvm" or "qemu" (TCG), from images/virt-type.sh

E2E_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
E2E_URI=qemu:///system
E2E_LIBVIRT_USED=0

e2e_libvirt_up() {
  local state=${DRIVEBENCH_LIBVIRT_STATE:-/run/drivebench/libvirt}
  mkdir -p "$state"
  exec {E2E_USERS_FD}>>"$state/users.lock"
  flock -s "$E2E_USERS_FD"
  E2E_LIBVIRT_USED=1
  "$E2E_TOP/images/libvirt-up.sh"
}

e2e_libvirt_down() {
  [ "$E2E_LIBVIRT_USED" = 1 ] || return 0
  flock -u "$E2E_USERS_FD"
  exec {E2E_USERS_FD}>&-
  E2E_LIBVIRT_USED=0
  "$E2E_TOP/images/libvirt-down.sh" --if-unused || true
}


# The domain type: images/virt-type.sh (kvm only when KVM really runs the
# guest fast; DRIVEBENCH_VIRT_TYPE overrides).
e2e_virt_type() { "$E2E_TOP/images/virt-type.sh"; }

# Messages: "NAME: ..." on stdout, "NAME: FAIL: ... (host load average)" on
# stderr and exit 1. E2E_NAME defaults to the script's name.
E2E_NAME=$(basename "$0" .sh)
e2e_say() { echo "$E2E_NAME: $*"; }
e2e_fail() {
  echo "$E2E_NAME: FAIL: $* (host load average: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  exit 1
}

# e2e_begin TOOL...: check root and the tools, and arrange that on any exit
# (also Ctrl-C, SIGTERM) the test's own e2e_test_cleanup runs (given the
# exit status; it undoes what the test made), then E2E_WORK is deleted and
# the libvirt daemons are released.
E2E_WORK=
e2e_begin() {
  trap e2e_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  [ "$(id -u)" -eq 0 ] || e2e_fail "needs root (qemu:///system, image build)"
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null || e2e_fail "$t not found: install images/deps.txt"
  done
}
e2e_exit() {
  local rc=$?
  trap - EXIT INT TERM
  if declare -F e2e_test_cleanup >/dev/null; then e2e_test_cleanup "$rc" || true; fi
  [ -n "$E2E_WORK" ] && rm -rf "$E2E_WORK"
  e2e_libvirt_down >/dev/null
  exit "$rc"
}
