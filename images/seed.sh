#!/usr/bin/env bash
# Build the prebuilt-database seed of a plan: IMAGE_DIR/seed.qcow2.
#
# The published protocol keeps a pristine prebuilt database on its own vdisk
# and restores the database under test from it before each run, so the
# (long) `prepare` runs once, not per drive or per run. This boots one VM on
# the guest image with an empty database disk, runs the plan's
# `oltp WORKLOAD prepare` against it from the host (through the engine's
# oltp driver), shuts the guest down cleanly (the database server stopped
# by systemd, file system unmounted) and converts that disk to qcow2: an
# ext4 file system holding data/, the engine's data directory (MariaDB or
# PostgreSQL). A VM whose database disk is a copy of it mounts it as it is
# and grows it to the disk's size; a VM given it as its seeddisk copies data/
# onto a blank dbdisk (images/guest/usr/local/sbin/drivebench-dbdisk).
#
# Cached: rebuilt only when the image, bin/oltp, the workload's size
# (workload, tables, table_size, warehouses) or the seed size change.
#
# Usage: images/seed.sh PLAN [--force] [--engine mariadb|postgresql]   (root)
#   The engine: --engine, else the engine IMAGE_DIR/image.info names, else
#   mariadb; IMAGE_DIR defaults to the engine's image folder.
#   Reads [run] image_dir, db_size and [workload] name, tables, table_size,
#   warehouses, threads from PLAN. The seed's size is db_size, else the
#   profile's database disk size: a run's database disks are copies of it.
# Environment: DRIVEBENCH_VIRT_TYPE, SEED_BOOT_TIMEOUT (default 600 s).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# libvirt must answer for the whole run, and be stopped afterwards only if
# this started it and nobody else uses it.
if [ -z "${DRIVEBENCH_SEED_UNDER_LIBVIRT:-}" ]; then
  DRIVEBENCH_SEED_UNDER_LIBVIRT=1 exec "$here/with-libvirt.sh" "$0" "$@"
fi
. "$here/vmlib.sh"

plan=${1:-}
force=0 engine=
shift || true
while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=1 ;;
    --engine) engine=${2:-}; shift ;;
    --engine=*) engine=${1#--engine=} ;;
    *) plan= ;;
  esac
  shift
done
[ -n "$plan" ] && [ -f "$plan" ] || { echo "usage: $0 PLAN [--force] [--engine mariadb|postgresql]" >&2; exit 2; }
t0=$(date +%s)
step() { printf 'seed: [%4ss] %s\n' $(( $(date +%s) - t0 )) "$*"; }
die() { echo "seed: error: $*" >&2; exit 1; }

# The value of KEY in [SECTION] of the plan (INI; ';' and '#' comments).
ini() {
  awk -v s="$1" -v k="$2" '
    /^[[:space:]]*[;#]/ { next }
    /^[[:space:]]*\[/ { gsub(/^[[:space:]]*\[|\][[:space:]]*$/, ""); sec = $0; next }
    sec == s {
      i = index($0, "="); if (i == 0) next
      key = substr($0, 1, i - 1); gsub(/[[:space:]]/, "", key)
      if (key != k) next
      v = substr($0, i + 1); sub(/[[:space:]]+[;#].*$/, "", v)
      gsub(/^[[:space:]]+|[[:space:]]+$/, "", v); print v; exit
    }' "$plan"
}

image_dir=$(ini run image_dir)
if [ -n "$image_dir" ]; then
  case "$image_dir" in /*) ;; *) image_dir=$top/$image_dir ;; esac
  [ -n "$engine" ] || engine=$(sed -n 's/^engine=//p' "$image_dir/image.info" 2>/dev/null)
fi
VM_ENGINE=${engine:-mariadb}
vm_engine_load || die "unknown engine '$VM_ENGINE'"
image_dir=${image_dir:-$here/$ENGINE_IMAGE_DIR}
# The seed's size: the plan's db_size, else the profile's database disk size
# (a run's database disks are copies of the seed: they cannot be smaller).
size=$(ini run db_size)
if [ -z "$size" ]; then
  profile=$(ini run profile)
  case "$profile" in */*|*.xml) template=$profile ;; *) template=$top/vmconfigs/$profile.xml ;; esac
  size=$(sed -n "s/.*<drivebench:disk serial='dbdisk' size='\([^']*\)'.*/\1/p" "$template" 2>/dev/null | head -1)
  size=${size:-4G}
fi
workload=$(ini workload name)
tables=$(ini workload tables); table_size=$(ini workload table_size)
warehouses=$(ini workload warehouses); threads=$(ini workload threads)
[ -n "$workload" ] || die "$plan has no [workload] name"
oltp=$top/bin/oltp
[ -x "$oltp" ] || die "$oltp missing: run make first"
if [ "$workload" = tpcc ]; then
  size_opts=(--warehouses="${warehouses:-1}")
else
  size_opts=(--tables="${tables:-1}" --table-size="${table_size:-10000}")
fi

DRIVEBENCH_IMAGE_DIR=$image_dir "$here/build.sh" --engine "$VM_ENGINE"
key=$( { cat "$image_dir/image.key"; sha256sum <"$oltp"; sha256sum <"$0";
         echo "$workload ${size_opts[*]} $size"; } | sha256sum | cut -d' ' -f1)
if [ "$force" = 0 ] && [ -s "$image_dir/seed.qcow2" ] \
   && [ "$(cat "$image_dir/seed.key" 2>/dev/null)" = "$key" ]; then
  step "up to date ($image_dir/seed.qcow2: $workload ${size_opts[*]})"
  exit 0
fi

name=drivebench-seed-$$-$RANDOM
work=$(mktemp -d /var/tmp/drivebench-seed.XXXXXX)
chmod 0755 "$work"
defined=0
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  [ "$defined" = 1 ] && vm_remove "$name"
  if [ "$rc" != 0 ] && [ -s "$work/console.log" ]; then
    echo "----- serial console (last 60 lines) -----" >&2
    tail -60 "$work/console.log" >&2
  fi
  rm -rf "$work" "$image_dir/seed.qcow2.tmp"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

VM_TYPE=$("$here/virt-type.sh")
# Settings read by vmlib.sh.
# shellcheck disable=SC2034
{ VM_IMAGES=$image_dir; VM_MEMORY_MIB=2048; }
qemu-img create -q -f qcow2 -F qcow2 -b "$image_dir/base.qcow2" "$work/boot.qcow2" 4G
truncate -s "$size" "$work/db.img"
defined=1
step "booting a VM ($VM_TYPE) with an empty $size database disk"
vm_boot "$name" "$work" || die "the VM did not start"
vm_wait_ready "$name" $(( VM_T0 + ${SEED_BOOT_TIMEOUT:-600} )) || die "the VM did not get ready"
step "$VM_ENGINE ready after ${VM_T_DB}s; oltp $workload prepare ${size_opts[*]}"
VM_OLTP=$oltp vm_oltp --threads="${threads:-1}" \
  "${size_opts[@]}" "$workload" prepare >"$work/prepare.log" 2>&1 \
  || { tail -20 "$work/prepare.log" >&2; die "oltp prepare failed"; }
step "prepared; shutting the guest down"
virsh -c "$VM_URI" shutdown "$name" --mode agent >/dev/null 2>&1 \
  || virsh -c "$VM_URI" shutdown "$name" >/dev/null
until ! vm_alive "$name"; do
  [ $(( $(date +%s) - t0 )) -lt 3600 ] || die "the guest did not power off"
  sleep 2
done
vm_remove "$name"
defined=0
step "converting the database disk to qcow2"
qemu-img convert -O qcow2 "$work/db.img" "$image_dir/seed.qcow2.tmp"
chmod 0644 "$image_dir/seed.qcow2.tmp"
mv -f "$image_dir/seed.qcow2.tmp" "$image_dir/seed.qcow2"
echo "$key" >"$image_dir/seed.key"
printf 'built=%s\nengine=%s\nworkload=%s\noptions=%s\nsize=%s\n' \
  "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$VM_ENGINE" "$workload" "${size_opts[*]}" "$size" >"$image_dir/seed.info"
step "done: $image_dir/seed.qcow2 ($(du -m "$image_dir/seed.qcow2" | cut -f1) MiB)"
