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
