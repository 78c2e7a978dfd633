#!/usr/bin/env bash
# Print the libvirt domain type to use on this host: "kvm" when KVM really
# runs the guest kernel fast, else "qemu" (TCG).
#
# /dev/kvm existing is not enough: under nested virtualisation without
# hardware support for it (a VM inside a microVM), KVM may be far slower than
# TCG; on one such machine the guest kernel had not left its decompressor
# after 70 s. So this boots the guest kernel (images/build/vmlinuz, or
# another engine's images/build/*/vmlinuz) with
# QEMU and KVM, no disk and no initrd, and waits for its expected panic
# ("VFS: Unable to mount root fs"): within DRIVEBENCH_KVM_PROBE_SECONDS
# (default 15; a working KVM needs about one) means "kvm". The answer is
# cached in /run/drivebench/virt-type for the host's uptime.
#
# DRIVEBENCH_VIRT_TYPE set to kvm or qemu is printed as it is.
# Usage: images/virt-type.sh [--no-cache]      (root)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kernel=${DRIVEBENCH_IMAGE_DIR:-$here/build}/vmlinuz
# every engine's image has the same kernel: any one built will do
[ -s "$kernel" ] || kernel=$(ls "$here"/build/*/vmlinuz 2>/dev/null | head -1)
kernel=${kernel:-$here/build/vmlinuz}
cache=/run/drivebench/virt-type
limit=${DRIVEBENCH_KVM_PROBE_SECONDS:-15}

if [ -n "${DRIVEBENCH_VIRT_TYPE:-}" ]; then
  echo "$DRIVEBENCH_VIRT_TYPE"; exit 0
fi
if [ "${1:-}" != --no-cache ] && [ -s "$cache" ]; then
  cat "$cache"; exit 0
fi

probe() {
  [ -c /dev/kvm ] || return 1
  [ -s "$kernel" ] || { echo "virt-type: $kernel missing (make image); assuming no KVM" >&2; return 1; }
  command -v qemu-system-x86_64 >/dev/null || return 1
  local log
  log=$(mktemp)
  timeout -k 5 "$limit" qemu-system-x86_64 -accel kvm -m 256 -nodefaults \
    -display none -no-reboot -serial "file:$log" -kernel "$kernel" \
    -append "console=ttyS0 panic=-1 root=/dev/null" >/dev/null 2>&1 || true
  if grep -q 'Kernel panic' "$log"; then rm -f "$log"; return 0; fi
  rm -f "$log"
  return 1
}

if probe; then type=kvm; else type=qemu; fi
mkdir -p "$(dirname "$cache")"
echo "$type" >"$cache"
echo "$type"
