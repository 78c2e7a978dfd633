#!/usr/bin/env bash
# Seed restore against a raw copy of the same source onto the same drive
# (issue 15). For each target folder, RUNS rounds, alternating the methods
# inside each round, then the median seconds and MB/s of each method and
# its ratio to the raw copy:
#   clone    libvirt's virStorageVolCreateXMLFrom (`virsh vol-create-from`)
#            of the seed overlay into a raw volume: what drivebench did
#            until issue 15 (libvirt runs a plain `qemu-img convert`)
#   convert  `qemu-img convert -m 16 -W -t none -n` into a raw volume
#            libvirt created (allocated in full, as orchestrator/virt/restore.c
#            asks for it): what drivebench does now
#   convertT the same with `-T none` (the source read with direct I/O too)
#   dd       `dd bs=4M iflag=direct oflag=direct` of the flattened seed
#            (the same bytes as raw): the reference
# On tmpfs (no O_DIRECT) the direct-I/O flags are left out for every method.
# The source: a qcow2 overlay on a qcow2 base holding SIZE of random data
# (fully allocated, so nothing is skipped as zero), as a run restores the
# seed volume, an overlay on images/build/seed.qcow2. The source stays in
# the page cache between runs for every method alike.
# Target (issue 15): the method a run uses >= 0.8x the raw copy.
#
# Usage: bench/restore_vs_dd.sh [RUNS] [SIZE_MIB] [TARGET_DIR...]
# Defaults: 3 runs, 2048 MiB, /var/tmp and /dev/shm. Root; starts libvirt
# through images/with-libvirt.sh when nothing runs it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${RESTORE_BENCH_UNDER_LIBVIRT:-}" ]; then
  RESTORE_BENCH_UNDER_LIBVIRT=1 exec "$here/../images/with-libvirt.sh" "$0" "$@"
fi
RUNS=${1:-3}; SIZE_MIB=${2:-2048}; shift 2 || shift $#
TARGETS=("$@"); [ ${#TARGETS[@]} -gt 0 ] || TARGETS=(/var/tmp /dev/shm)
METHODS=(clone convert convertT dd)
virsh="virsh -q -c qemu:///system"

src=$(mktemp -d /var/tmp/restore-bench-src.XXXXXX)
pools=()
cleanup() {
  for p in "${pools[@]}"; do $virsh pool-destroy "$p" >/dev/null 2>&1 || true; done
  rm -rf "$src" "${TARGETS[@]/%//restore-bench-dst.$$}"
}
trap cleanup EXIT
chmod 0755 "$src"
head -c $(( SIZE_MIB << 20 )) /dev/urandom >"$src/seed.raw"
qemu-img convert -f raw -O qcow2 "$src/seed.raw" "$src/base.qcow2"
qemu-img create -q -f qcow2 -F qcow2 -b "$src/base.qcow2" "$src/seed.qcow2"
bytes=$(( SIZE_MIB << 20 ))
echo "source: qcow2 overlay on a qcow2 of $SIZE_MIB MiB random data; $RUNS rounds; $(nproc) CPUs; $(qemu-img --version | head -1)"

now() { date +%s.%N; }
# one METHOD onto DIR: prints seconds
run_one() {
  local m=$1 dir=$2 pool=$3 direct=$4 t0 t1 path
  $virsh vol-delete --pool "$pool" dst.raw >/dev/null 2>&1 || true
  rm -f "$dir/dst.raw"; sync
  case $m in
    clone)
      cat >"$src/vol.xml" <<XML
<volume><name>dst.raw</name><capacity unit='bytes'>$bytes</capacity><target><format type='raw'/></target></volume>
XML
      t0=$(now); $virsh vol-create-from "$pool" "$src/vol.xml" --inputpool "$pool" seed.qcow2 >/dev/null; sync "$dir/dst.raw"; t1=$(now) ;;
    convert|convertT)
      cat >"$src/vol.xml" <<XML
<volume><name>dst.raw</name><capacity unit='bytes'>$bytes</capacity><target><format type='raw'/></target></volume>
XML
      local flags=(-m 16 -W)
      [ "$direct" = 1 ] && flags+=(-t none)
      [ "$direct" = 1 ] && [ $m = convertT ] && flags+=(-T none)
      t0=$(now)
      $virsh vol-create "$pool" "$src/vol.xml" >/dev/null
      path=$($virsh vol-path --pool "$pool" dst.raw)
      qemu-img convert "${flags[@]}" -n -f qcow2 -O raw "$dir/seed.qcow2" "$path"
      sync "$path"; t1=$(now) ;;
    dd)
      local fl=(); [ "$direct" = 1 ] && fl=(iflag=direct oflag=direct)
      t0=$(now); dd if="$src/seed.raw" of="$dir/dst.raw" bs=4M "${fl[@]}" status=none; sync "$dir/dst.raw"; t1=$(now) ;;
  esac
  echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

for dir0 in "${TARGETS[@]}"; do
  dir=$dir0/restore-bench-dst.$$
  mkdir -p "$dir"; chmod 0755 "$dir"
  direct=1
  dd if=/dev/zero of="$dir/probe" bs=4096 count=1 oflag=direct status=none 2>/dev/null || direct=0
  rm -f "$dir/probe"
  pool=restore-bench-$$-$(basename "$dir0")
  $virsh pool-create-as "$pool" dir --target "$dir" >/dev/null
  pools+=("$pool")
  qemu-img create -q -f qcow2 -F qcow2 -b "$src/base.qcow2" "$dir/seed.qcow2"
  $virsh pool-refresh "$pool" >/dev/null
  declare -A secs=()
  for r in $(seq "$RUNS"); do
    for m in "${METHODS[@]}"; do
      s=$(run_one "$m" "$dir" "$pool" "$direct")
      secs[$m]="${secs[$m]:-} $s"
      printf '  %-10s round %d %-9s %7.2f s\n' "$(basename "$dir0")" "$r" "$m" "$s"
    done
  done
  $virsh vol-delete --pool "$pool" dst.raw >/dev/null 2>&1 || true
  rm -f "$dir/dst.raw"
  dd_med=$(tr ' ' '\n' <<<"${secs[dd]}" | grep . | median)
  echo "$dir0 ($(df --output=fstype "$dir0" | tail -1 | tr -d ' '), direct I/O $([ $direct = 1 ] && echo on || echo 'off: not supported')), $SIZE_MIB MiB, medians of $RUNS:"
  printf '  | %-9s | %8s | %8s | %9s |\n' method seconds MB/s "x dd"
  for m in "${METHODS[@]}"; do
    med=$(tr ' ' '\n' <<<"${secs[$m]}" | grep . | median)
    printf '  | %-9s | %8.2f | %8.0f | %9.2f |\n' "$m" "$med" "$(echo "$bytes / 1000000 / $med" | bc -l)" "$(echo "$dd_med / $med" | bc -l)"
  done
  unset secs
done
