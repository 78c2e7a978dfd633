#!/usr/bin/env bash
# Build a drivebench guest image from Debian packages alone (`make image`).
#
# One image per database engine, each in its own folder and cached on its
# own: images/engines/<engine>/ holds the engine's packages, guest files,
# profile and engine.conf (port, service, oltp driver, image folder).
#   mariadb      images/build/             (the default)
#   postgresql   images/build/postgresql/
#   babelfish    images/build/babelfish/   (SQL Server's TDS and T-SQL: the
#                Babelfish tree babelfish/build.sh builds, ~40 min the
#                first time, added by the engine's add.sh; exit status 3
#                when its sources are not on this machine: babelfish/build.sh
#                says what to fetch)
#
# Outputs, in the engine's folder (git-ignored; DRIVEBENCH_IMAGE_DIR overrides):
#   base.qcow2   root file system (ext4, label vmroot), the backing file of
#                every VM's boot-disk overlay
#   vmlinuz      kernel and initrd for direct boot with the command line
#   initrd.img   "root=LABEL=vmroot ro console=ttyS0"
#   image.info   what went in (engine, port, kernel, oltp checksum, input key)
#
# Two cached stages, each rebuilt only when its inputs change:
#   1. rootfs/   mmdebstrap of bookworm minbase + images/packages.txt +
#                the engine's packages.txt, with the initramfs settings of
#                images/initramfs/ (about 1.5 min).
#                Key: package lists, initramfs files, the build_rootfs recipe.
#   2. the image: rootfs + images/guest/ (systemd units, the database-disk
#                script) + the engine's guest/ (server config, its part of
#                the disk script) and profile.conf + bin/oltp when it
#                exists, then `mkfs.ext4 -d` and `qemu-img convert`
#                (seconds; no loop mounts). Key: stage 1's key, this script,
#                those files, bin/oltp's checksum, and what the engine's
#                ENGINE_ADD script says its own files come from.
#
# Usage: images/build.sh [--engine mariadb|postgresql|babelfish] [--force]
#   (root: mmdebstrap's root mode and
#   mkfs.ext4 -d need files owned by root). Prints progress and total time.
# Environment: DRIVEBENCH_MIRROR, DRIVEBENCH_SECURITY_MIRROR (Debian
#   mirrors), OLTP_BIN (default bin/oltp), DRIVEBENCH_IMAGE_SIZE (default 3G;
#   keep it at or below the smallest boot disk of the VM profiles).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
suite=bookworm
mirror=${DRIVEBENCH_MIRROR:-http://deb.debian.org/debian}
security=${DRIVEBENCH_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
oltp=${OLTP_BIN:-$top/bin/oltp}
size=${DRIVEBENCH_IMAGE_SIZE:-3G}
force=0
engine=${DRIVEBENCH_ENGINE:-mariadb}
usage() { echo "usage: $0 [--engine mariadb|postgresql|babelfish] [--force]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --force) force=1 ;;
    --engine) [ $# -ge 2 ] || usage; engine=$2; shift ;;
    --engine=*) engine=${1#--engine=} ;;
    *) usage ;;
  esac
  shift
done
edir=$here/engines/$engine
[ -f "$edir/engine.conf" ] || {
  echo "image: error: unknown engine '$engine' (known: $(ls "$here/engines" | paste -sd' '))" >&2; exit 2; }
# shellcheck source=engines/mariadb/engine.conf
. "$edir/engine.conf"
out=${DRIVEBENCH_IMAGE_DIR:-$here/$ENGINE_IMAGE_DIR}

t0=$(date +%s)
step() { printf 'image: [%4ss] %s\n' $(( $(date +%s) - t0 )) "$*"; }
die() { echo "image: error: $*" >&2; exit 1; }
log=$out/build.log

# Fail with the end of the build log, so the cause is on the screen.
run_logged() {
  "$@" >>"$log" 2>&1 || {
    echo "image: error: '$1' failed; last lines of $log:" >&2
    tail -25 "$log" >&2
    exit 1
  }
}

# sha256 of a folder's file names, modes and contents.
tree_sum() {
  (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z \
     | xargs -0 -r stat -c '%n %a' && find . -type f -print0 | LC_ALL=C sort -z \
     | xargs -0 -r cat) | sha256sum | cut -d' ' -f1
}

packages() { sed 's/#.*//' "$here/packages.txt" "$edir/packages.txt" | tr -s ' \t\n' '\n' | sed '/^$/d'; }

# Stage 1: Debian root file system in directory $1. mmdebstrap blocks
# daemon starts inside the chroot itself; the initramfs settings go in
# before the kernel package so its initrd is built with them.
build_rootfs() {
  mmdebstrap --mode=root --variant=minbase --format=directory \
    --include="$(packages | paste -sd,)" \
    --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --essential-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/etc/initramfs-tools/hooks"' \
    --essential-hook="copy-in $here/initramfs/drivebench.conf /etc/initramfs-tools/conf.d" \
    --essential-hook="copy-in $here/initramfs/drivebench-modules /etc/initramfs-tools/hooks" \
    --customize-hook="rm -rf \"\$1\"$ENGINE_ROOTFS_EMPTY/* \"\$1\"/var/cache/apt/*.bin" \
    "$suite" "$1" \
    "deb $mirror $suite main" "deb $mirror $suite-updates main" \
    "deb $security $suite-security main"
}

[ "$(id -u)" -eq 0 ] || die "must run as root (mmdebstrap root mode; mkfs.ext4 -d copies file ownership)"
for tool in mmdebstrap mkfs.ext4 qemu-img flock sha256sum; do
  command -v "$tool" >/dev/null \
    || die "$tool not found: install the packages in images/deps.txt"
done
mkdir -p "$out"
exec 9>"$out/.lock"
flock -n 9 || { step "waiting for another image build to finish"; flock 9; }

if [ -f "$oltp" ]; then
  oltp_sum=$(sha256sum <"$oltp" | cut -d' ' -f1)
else
  oltp_sum=none
fi
# an engine's files that are no Debian package (engine.conf ENGINE_ADD):
# what they come from, which may build them first
add_key=
if [ -n "${ENGINE_ADD:-}" ]; then
  step "$engine's own files: engines/$engine/$ENGINE_ADD key (builds them when no cached build fits)"
  add_rc=0
  add_key=$("$edir/$ENGINE_ADD" key) || add_rc=$?
  # 3: what the engine needs is not here (it said what to fetch): exit 3
  [ "$add_rc" = 3 ] && { echo "image: $engine's own files are not here (see above)" >&2; exit 3; }
  [ "$add_rc" = 0 ] || die "$edir/$ENGINE_ADD key failed"
fi
key1=$( { packages; tree_sum "$here/initramfs"; declare -f build_rootfs; echo "$ENGINE_ROOTFS_EMPTY";
          echo "$suite $mirror $security"; } | sha256sum | cut -d' ' -f1)
key2=$( { echo "$key1"; sha256sum <"$0"; tree_sum "$here/guest"; tree_sum "$edir";
          echo "$oltp_sum $size"; [ -z "$add_key" ] || echo "$add_key"; } \
        | sha256sum | cut -d' ' -f1)

outputs_ok() {
  [ -s "$out/base.qcow2" ] && [ -s "$out/vmlinuz" ] && [ -s "$out/initrd.img" ]
}
if [ "$force" = 0 ] && outputs_ok && [ "$(cat "$out/image.key" 2>/dev/null)" = "$key2" ]; then
  step "up to date ($out/base.qcow2, $engine, oltp: $([ "$oltp_sum" = none ] && echo absent || echo included))"
  exit 0
fi
: >"$log"

# ---- stage 1: root file system ------------------------------------------
if [ "$force" = 0 ] && [ -d "$out/rootfs" ] && [ "$(cat "$out/rootfs.key" 2>/dev/null)" = "$key1" ]; then
  step "root file system up to date (cached)"
else
  step "root file system ($engine): mmdebstrap $suite minbase + $(packages | wc -l) packages (log: $log)"
  rm -rf "$out/rootfs" "$out/rootfs.tmp" "$out/rootfs.key"
  run_logged build_rootfs "$out/rootfs.tmp"
  mv "$out/rootfs.tmp" "$out/rootfs"
  echo "$key1" >"$out/rootfs.key"
  step "root file system done ($(du -sm "$out/rootfs" | cut -f1) MiB)"
fi

# ---- stage 2: image -------------------------------------------------------
stage=$out/stage.tmp
rm -rf "$stage" "$out"/*.tmp
step "assembling: rootfs + images/guest + engines/$engine/guest + profile"
cp -a "$out/rootfs" "$stage"
# Files from the checkout become root-owned and not group/other-writable,
# whatever the checkout's owner and umask; existing folders keep theirs.
for g in "$here/guest" "$edir/guest"; do
  tar -C "$g" --owner=0 --group=0 --mode=go-w -cf - . \
    | tar -C "$stage" --no-overwrite-dir -xf -
done
install -D -m 0644 "$edir/profile.conf" "$stage/etc/drivebench/profile"
if [ -n "${ENGINE_ADD:-}" ]; then
  step "adding $engine's own files ($ENGINE_ADD install)"
  run_logged "$edir/$ENGINE_ADD" install "$stage"
fi

if [ "$oltp_sum" != none ]; then
  step "adding $oltp as /usr/local/bin/oltp"
  install -m 0755 "$oltp" "$stage/usr/local/bin/oltp"
  missing=$(chroot "$stage" ldd /usr/local/bin/oltp 2>&1 | grep 'not found' || true)
  [ -z "$missing" ] || die "bin/oltp needs libraries the guest lacks; add their packages to images/packages.txt:
$missing"
else
  step "no $oltp yet: image without oltp (it is added when it exists)"
fi

# An empty machine-id: each VM makes its own at first boot. No first-boot
# questions on the console, no timers that wake up during a measurement, no
# wait for a network nobody needs to be "online".
: >"$stage/etc/machine-id"
rm -f "$stage/var/lib/dbus/machine-id"
run_logged chroot "$stage" systemctl enable drivebench-dbdisk.service \
  systemd-networkd.service "$ENGINE_SERVICE"
run_logged chroot "$stage" systemctl mask systemd-firstboot.service \
  systemd-networkd-wait-online.service apt-daily.timer \
  apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service fstrim.timer
# qemu-guest-agent is started by udev when its virtio port appears (static
# unit); enable it as well if this version has a WantedBy=.
if grep -q '^WantedBy=' "$stage/lib/systemd/system/qemu-guest-agent.service" 2>/dev/null; then
  run_logged chroot "$stage" systemctl enable qemu-guest-agent.service
fi
chroot "$stage" passwd -l root >/dev/null

kver=$(ls "$stage/boot" | sed -n 's/^vmlinuz-//p' | sort -V | tail -1)
[ -n "$kver" ] && [ -f "$stage/boot/initrd.img-$kver" ] \
  || die "no kernel/initrd in the root file system's /boot (is linux-image-* in images/packages.txt?)"
[ -d "$stage/lib/modules/$kver" ] || die "/lib/modules/$kver missing in the root file system"
install -m 0644 "$stage/boot/vmlinuz-$kver" "$out/vmlinuz.tmp"
install -m 0644 "$stage/boot/initrd.img-$kver" "$out/initrd.img.tmp"

used=$(du -sm "$stage" | cut -f1)
step "mkfs.ext4 -L vmroot -d ($used MiB of files, $size image)"
rm -f "$out/root.raw.tmp"
truncate -s "$size" "$out/root.raw.tmp"
run_logged mkfs.ext4 -q -F -L vmroot -E root_owner=0:0 -d "$stage" "$out/root.raw.tmp"
step "qemu-img convert -O qcow2"
run_logged qemu-img convert -O qcow2 "$out/root.raw.tmp" "$out/base.qcow2.tmp"
chmod 0644 "$out/base.qcow2.tmp"
rm -rf "$out/root.raw.tmp" "$stage"

# Rename into place: VMs running on the previous base keep its open inode.
mv -f "$out/base.qcow2.tmp" "$out/base.qcow2"
mv -f "$out/vmlinuz.tmp" "$out/vmlinuz"
mv -f "$out/initrd.img.tmp" "$out/initrd.img"
cat >"$out/image.info" <<EOF
built=$(date -u +%Y-%m-%dT%H:%M:%SZ)
engine=$engine
port=$ENGINE_PORT
kernel=$kver
cmdline=root=LABEL=vmroot ro console=ttyS0
oltp_sha256=$oltp_sum
key=$key2
EOF
echo "$key2" >"$out/image.key"
step "done in $(( $(date +%s) - t0 ))s: $engine, $out/base.qcow2 ($(du -m "$out/base.qcow2" | cut -f1) MiB), vmlinuz, initrd.img (kernel $kver)"
