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
# Usage: images/seed.sh PLAN [--force] [--engine mariadb|postgresql]
#   (root; needs bin/drivebench)
#   The engine: --engine, else the engine IMAGE_DIR/image.info names, else
#   mariadb. Reads [run] image_dir, db_size and [workload] name, tables,
#   table_size, warehouses, threads from PLAN through `drivebench plan get`.
#   The seed's size is db_size, else the profile's database disk size: a
#   run's database disks are copies of it.
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

# The value of KEY in [SECTION] of the plan, as drivebench reads it
# (defaults included; sizes in bytes). Relative paths in the plan are taken
# from the top of the tree, as `make run` runs drivebench there.
drivebench=$top/bin/drivebench
[ -x "$drivebench" ] || die "$drivebench missing: run make first"
plan_abs=$(realpath "$plan")
plan_get() { (cd "$top" && "$drivebench" plan get "$1" "$2" "$plan_abs"); }

image_dir=$(plan_get run image_dir) || die "$plan is not a plan drivebench can use (see above)"
[ -n "$engine" ] || engine=$(sed -n 's/^engine=//p' "$image_dir/image.info" 2>/dev/null)
VM_ENGINE=${engine:-mariadb}
vm_engine_load || die "unknown engine '$VM_ENGINE'"
# The seed's size: the plan's db_size, else the profile's database disk size
# (a run's database disks are copies of the seed: they cannot be smaller).
size=$(plan_get run db_size)
workload=$(plan_get workload name)
tables=$(plan_get workload tables); table_size=$(plan_get workload table_size)
warehouses=$(plan_get workload warehouses); threads=$(plan_get workload threads)
oltp=$top/bin/oltp
[ -x "$oltp" ] || die "$oltp missing: run make first"
if [ "$workload" = tpcc ]; then
  size_opts=(--warehouses="$warehouses")
else
  size_opts=(--tables="$tables" --table-size="$table_size")
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
step "booting a VM ($VM_TYPE) with an empty $(numfmt --to=iec "$size") database disk"
vm_boot "$name" "$work" || die "the VM did not start"
vm_wait_ready "$name" $(( VM_T0 + ${SEED_BOOT_TIMEOUT:-600} )) || die "the VM did not get ready"
step "$VM_ENGINE ready after ${VM_T_DB}s; oltp $workload prepare ${size_opts[*]}"
VM_OLTP=$oltp vm_oltp --threads="$threads" \
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
