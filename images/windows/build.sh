#!/usr/bin/env bash
# images/windows/build.sh - build the SQL Server protocol's Windows guest
# image unattended, from the lab's own ISOs, with QEMU (images/windows/README.md).
#
#   images/windows/build.sh --windows=2012r2|2019|2022 --sql=2014|...|2022
#       --secrets=FILE [options] WINDOWS.iso SQLSERVER.iso OUT.qcow2
#
# Options (defaults in brackets):
#   --edition=evaluation|developer|express|media|KEY   SQL Server's edition [evaluation]
#   --windows-key=KEY        Windows' product key [none: evaluation media]
#   --image-name=NAME        the install.wim image [Standard with the desktop]
#   --firmware=bios|efi      as the plan's [run] firmware [bios]
#   --max-memory=MB          SQL Server's max server memory [49152]
#   --tempdb-files=N         tempdb data files [8]
#   --disk-size=SIZE         the boot disk [100G]
#   --cpus=N --memory=MIB    the build VM [4, 8192]
#   --accel=kvm|tcg          [kvm; tcg takes many hours]
#   --network=none|user      none: restrict=on, as the benchmark VMs [none];
#                            user: QEMU's NAT (activation, Windows Update)
#   --timeout=MINUTES        give up after [360]
#   --dry-run                render and check everything, print the QEMU
#                            command, build nothing
# FILE holds admin_password, sa_password and drivebench_password (key = value
# lines, mode 600). Writes OUT (only when the guest said "done") and
# OUT.log (the guest's progress from its COM1). Exit 0; 1 when the build
# failed; 2 on bad input, with one line and nothing left behind.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
me=images/windows/build.sh

die() { echo "$me: $*" >&2; exit 2; }
usage="usage: $me --windows=V --sql=V --secrets=FILE [options] WINDOWS.iso SQLSERVER.iso OUT.qcow2 (see its header)"

windows= sql= secrets= edition=evaluation windows_key= image_name= firmware=bios
max_memory=49152 tempdb_files=8 disk_size=100G cpus=4 memory=8192 accel=kvm
network=none timeout=360 dry_run=0
pos=()
for a in "$@"; do
  case $a in
    --windows=*) windows=${a#*=} ;;        --sql=*) sql=${a#*=} ;;
    --secrets=*) secrets=${a#*=} ;;        --edition=*) edition=${a#*=} ;;
    --windows-key=*) windows_key=${a#*=} ;; --image-name=*) image_name=${a#*=} ;;
    --firmware=*) firmware=${a#*=} ;;      --max-memory=*) max_memory=${a#*=} ;;
    --tempdb-files=*) tempdb_files=${a#*=} ;; --disk-size=*) disk_size=${a#*=} ;;
    --cpus=*) cpus=${a#*=} ;;              --memory=*) memory=${a#*=} ;;
    --accel=*) accel=${a#*=} ;;            --network=*) network=${a#*=} ;;
    --timeout=*) timeout=${a#*=} ;;        --dry-run) dry_run=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $a ($usage)" ;;
    *) pos+=("$a") ;;
  esac
done
[ ${#pos[@]} -eq 3 ] || die "$usage"
win_iso=${pos[0]} sql_iso=${pos[1]} out=${pos[2]}
[ -n "$windows" ] || die "--windows is required ($usage)"
[ -n "$sql" ] || die "--sql is required ($usage)"
[ -n "$secrets" ] || die "--secrets is required ($usage)"

# the recipe's own files
for f in render.py setup.ps1 dbdisk.ps1 unattend.rng; do
  [ -f "$here/$f" ] || die "$here/$f is missing: this recipe is incomplete"
done
need() { command -v "$1" >/dev/null || die "$1 is not installed (Debian: $2)"; }
need python3 python3; need xorriso xorriso; need xmllint libxml2-utils
if [ $dry_run = 0 ]; then need qemu-system-x86_64 qemu-system-x86; need qemu-img qemu-utils; fi

number() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "--$1: expected a whole number, got '$2'"; }
number cpus "$cpus"; number memory "$memory"; number timeout "$timeout"
[[ $disk_size =~ ^[1-9][0-9]*[GT]$ ]] || die "--disk-size: expected a size in G or T (100G), got '$disk_size'"
case $accel in kvm|tcg) ;; *) die "--accel: $accel is neither kvm nor tcg" ;; esac
case $network in none|user) ;; *) die "--network: $network is neither none nor user" ;; esac
case $firmware in bios|efi) ;; *) die "--firmware: $firmware is neither bios nor efi" ;; esac
if [ $accel = kvm ] && [ $dry_run = 0 ] && ! [ -w /dev/kvm ]; then
  die "/dev/kvm is not usable here: build on a KVM host (or --accel=tcg, many hours)"
fi
code=/usr/share/OVMF/OVMF_CODE_4M.fd vars=/usr/share/OVMF/OVMF_VARS_4M.fd
if [ $firmware = efi ]; then
  [ -r $code ] && [ -r $vars ] || die "--firmware=efi needs $code and $vars (Debian: ovmf)"
fi

# an ISO 9660 image has "CD001" at byte 32769
iso() {
  [ -f "$2" ] && [ -r "$2" ] || die "$1: $2 is not a readable file"
  [ "$(dd if="$2" bs=1 skip=32769 count=5 2>/dev/null)" = CD001 ] || die "$1: $2 is not an ISO 9660 image"
}
iso WINDOWS.iso "$win_iso"; iso SQLSERVER.iso "$sql_iso"
[ ! -e "$out" ] && [ ! -L "$out" ] || die "$out exists: give a new file"
[ -d "$(dirname "$out")" ] || die "$(dirname "$out"): no such folder for $out"
[ ! -e "$out.partial" ] || die "$out.partial exists (a build under way, or one killed: remove it)"

work=$(mktemp -d "${TMPDIR:-/tmp}/drivebench-windows.XXXXXX")
qemu_pid=
cleanup() {
  [ -z "$qemu_pid" ] || kill "$qemu_pid" 2>/dev/null || true
  rm -rf "$work"
  [ -e "$out" ] || rm -f "$out.partial"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

render_args=(--windows "$windows" --sql "$sql" --edition "$edition" --firmware "$firmware"
             --max-memory "$max_memory" --tempdb-files "$tempdb_files"
             --secrets "$secrets" --out "$work/config")
[ -z "$windows_key" ] || render_args+=(--windows-key "$windows_key")
[ -z "$image_name" ] || render_args+=(--image-name "$image_name")
msg=$(python3 "$here/render.py" "${render_args[@]}" 2>&1) || { echo "${msg/render.py/$me}" >&2; exit 2; }
xmllint --noout --relaxng "$here/unattend.rng" "$work/config/autounattend.xml" 2>"$work/xmllint.err" \
  || { head -3 "$work/xmllint.err" >&2; die "the rendered autounattend.xml does not have the unattend shape"; }
xorriso -as mkisofs -quiet -V DBCONFIG -J -r -o "$work/config.iso" "$work/config" 2>"$work/xorriso.err" \
  || { cat "$work/xorriso.err" >&2; die "could not make the configuration CD"; }

if [ $firmware = bios ]; then
  machine=pc cds=(ide.0,unit=0 ide.0,unit=1 ide.1,unit=0) fw=()
else
  machine=q35 cds=(ide.0 ide.1 ide.2)
  fw=(-drive "if=pflash,format=raw,readonly=on,file=$code" -drive "if=pflash,format=raw,file=$work/vars.fd")
fi
cpu=max; [ $accel = kvm ] && cpu=host
net=user,id=n0; [ $network = none ] && net+=,restrict=on
qemu=(qemu-system-x86_64 -name drivebench-windows-build -machine "$machine,accel=$accel"
  -cpu "$cpu" -m "$memory" -smp "$cpus,sockets=1,cores=$cpus,threads=1" -nodefaults
  -display none -vga std -rtc base=localtime "${fw[@]}"
  -device mptsas1068,id=sas
  -drive "file=$out.partial,if=none,id=boot,format=qcow2,cache=unsafe,discard=unmap"
  -device scsi-hd,drive=boot,bus=sas.0,scsi-id=0,wwn=0x5000000000000001,bootindex=0
  -drive "file=$work/dbdisk.qcow2,if=none,id=db,format=qcow2,cache=unsafe"
  -device scsi-hd,drive=db,bus=sas.0,scsi-id=1,serial=dbdisk,wwn=0x5000000000000002
  -drive "file=$win_iso,if=none,id=cd0,media=cdrom,readonly=on"
  -device "ide-cd,drive=cd0,bus=${cds[0]},bootindex=1"
  -drive "file=$sql_iso,if=none,id=cd1,media=cdrom,readonly=on" -device "ide-cd,drive=cd1,bus=${cds[1]}"
  -drive "file=$work/config.iso,if=none,id=cd2,media=cdrom,readonly=on" -device "ide-cd,drive=cd2,bus=${cds[2]}"
  -device e1000e,netdev=n0 -netdev "$net"
  -serial "file:$out.log")

if [ $dry_run = 1 ]; then
  files=$(xorriso -indev "$work/config.iso" -find / -type f 2>/dev/null | tr -d "'" | sed 's|^/||' | sort | tr '\n' ' ')
  echo "$me: dry run, nothing built; the configuration CD holds: ${files% }"
  line=
  for a in "${qemu[@]}"; do
    if [[ $a =~ ^[A-Za-z0-9_./:=,@+-]+$ ]]; then line+=" $a"; else line+=" $(printf %q "$a")"; fi
  done
  echo "${line# }"
  exit 0
fi

[ $firmware = efi ] && cp $vars "$work/vars.fd"
qemu-img create -q -f qcow2 "$out.partial" "$disk_size"
qemu-img create -q -f qcow2 "$work/dbdisk.qcow2" 16G
: >"$out.log"
echo "$me: building $out: Windows Server $windows, SQL Server $sql ($edition), $accel; progress in $out.log (up to $timeout min)"
t0=$(date +%s)
"${qemu[@]}" 2>"$work/qemu.err" &
qemu_pid=$!
deadline=$(( t0 + timeout * 60 ))
while kill -0 $qemu_pid 2>/dev/null && [ "$(date +%s)" -lt $deadline ]; do sleep 10; done
if kill -0 $qemu_pid 2>/dev/null; then
  echo "$me: no power-off within $timeout min; last progress:" >&2
  grep -a 'drivebench-image:' "$out.log" | tail -5 >&2 || true
  exit 1
fi
rc=0; wait $qemu_pid || rc=$?
qemu_pid=
last=$(grep -a 'drivebench-image:' "$out.log" | tail -1 | tr -d '\r' || true)
if [ "$last" != "drivebench-image: done" ]; then
  echo "$me: the guest powered off without finishing (QEMU exit $rc): ${last:-no progress line on COM1}" >&2
  head -3 "$work/qemu.err" >&2
  exit 1
fi
mv "$out.partial" "$out"
echo "$me: $out built in $(( ($(date +%s) - t0) / 60 )) min; use it as [run] image (guest_os = windows, firmware = $firmware)"
