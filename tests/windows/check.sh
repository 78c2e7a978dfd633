#!/usr/bin/env bash
# The Windows image recipe (images/windows/), checked as far as a machine
# without Windows, SQL Server or KVM can: every supported Windows x SQL
# Server x firmware combination renders an answer file of the unattend
# shape (unattend.rng, with planted violations it must refuse), exact
# goldens of two renderings, each SQL Server version's ConfigurationFile.ini
# holding only the parameters its Setup knows, build.sh's refusals (one line,
# exit 2, nothing left behind), and a dry run whose QEMU command QEMU itself
# accepts (devices created, then quit through QMP). Nothing here installs
# Windows: see images/windows/README.md.
set -u
cd "$(dirname "$0")/../.."
. tests/lib/check.sh
here=images/windows
golden=tests/windows/golden

for t in python3 xmllint xorriso qemu-system-x86_64 qemu-img; do
  command -v $t >/dev/null || { echo "windows check: skipped: $t is missing (images/deps.txt)"; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp/t
mkdir -p "$TMPDIR"
secrets=$tmp/secrets
printf '# the three passwords\nadmin_password = Adm1n-pass!\nsa_password = Sa-Pass-123\ndrivebench_password = Db<&>Pass-1\n' >"$secrets"
chmod 600 "$secrets"
render() { python3 $here/render.py --secrets "$secrets" "$@"; }
validate() { xmllint --noout --relaxng $here/unattend.rng "$1" 2>/dev/null; }

# 1. every combination the recipe supports renders and validates
n=0 bad=
for w in 2012r2 2019 2022; do
  case $w in 2012r2) sqls="2014 2016 2017" ;; 2019) sqls="2016 2017 2019 2022" ;; 2022) sqls="2017 2019 2022" ;; esac
  for s in $sqls; do
    for f in bios efi; do
      o=$tmp/r-$w-$s-$f
      if render --windows $w --sql $s --firmware $f --out "$o" && validate "$o/autounattend.xml"; then
        n=$((n+1))
      else bad+=" $w/$s/$f"; fi
    done
  done
done
check_eq "20 combinations render and validate" "20${bad}" "$n${bad}"

# 2. exact goldens (the Windows Server 2012 R2 + SQL Server 2014 protocol
#    guest under BIOS; Windows Server 2022 + SQL Server 2022 Developer under UEFI)
render --windows 2012r2 --sql 2014 --out "$tmp/g1"
render --windows 2022 --sql 2022 --firmware efi --edition developer \
  --windows-key ABCDE-12345-FGHIJ-67890-KLMNO --max-memory 16384 --tempdb-files 4 --out "$tmp/g2"
for g in g1 g2; do
  for f in autounattend.xml ConfigurationFile.ini drivebench.json; do
    check_eq "$g $f equals its golden" "" "$(diff "$golden/$g/$f" "$tmp/$g/$f" 2>&1)"
  done
done
check_eq "setup.ps1 and dbdisk.ps1 copied unchanged" "" \
  "$(cmp $here/setup.ps1 "$tmp/g1/drivebench-setup.ps1" 2>&1; cmp $here/dbdisk.ps1 "$tmp/g1/dbdisk.ps1" 2>&1)"
check_eq "secrets.json is private, with the three passwords" "600 Db<&>Pass-1" \
  "$(stat -c %a "$tmp/g1/secrets.json") $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["drivebench_password"])' "$tmp/g1/secrets.json")"
check_eq "a password with XML's characters is escaped and reads back whole" "Adm1n-pass!" \
  "$(xmllint --xpath 'string(//*[local-name()="AdministratorPassword"]/*[local-name()="Value"])' "$tmp/g1/autounattend.xml")"

# 3. each version's Setup gets only the parameters it knows
params() { grep -o '^[A-Z]*' "$tmp/r-$1/ConfigurationFile.ini" | tr '\n' ' '; }
for v in 2014 2016 2017 2019; do
  w=2019; [ $v = 2014 ] && w=2012r2
  have=$(params "$w-$v-bios")
  set -- $( for k in SQLSVCINSTANTFILEINIT SQLTEMPDBFILECOUNT SUPPRESSPRIVACYSTATEMENTNOTICE SQLMAXMEMORY; do
              case " $have" in *" $k "*) echo 1 ;; *) echo 0 ;; esac; done )
  case $v in 2014) want="0 0 0 0" ;; 2016) want="1 1 0 0" ;; 2017) want="1 1 1 0" ;; 2019) want="1 1 1 1" ;; esac
  check_eq "SQL Server $v: IFI, tempdb files, privacy notice, max memory in its ini" "$want" "$*"
done
check_eq "no ini carries a password" "" "$(grep -l -E '^[A-Z]*(PWD|PASSWORD)=' "$tmp"/r-*/ConfigurationFile.ini)"

# 4. the schema refuses what Windows Setup would not take
plant() {  # plant NAME SED-EXPRESSION
  sed "$2" "$tmp/g1/autounattend.xml" >"$tmp/planted.xml"
  if validate "$tmp/planted.xml"; then check_eq "schema refuses $1" refused accepted
  else check_eq "schema refuses $1" refused refused; fi
}
plant "a wrong public key token" 's/31bf3856ad364e35/31bf3856ad364e36/'
plant "ProtectYourPC 4" 's|<ProtectYourPC>3<|<ProtectYourPC>4<|'
plant "OOBE in the specialize pass" 's|pass="oobeSystem"|pass="specialize"|'
plant "an x86 component" '0,/amd64/s//x86/'
plant "a setting it does not know" 's|<HideEULAPage>|<SkipMachineOOBE>true</SkipMachineOOBE><HideEULAPage>|'
plant "a computer name of 16 characters" 's|DRIVEBENCH-SQL|DRIVEBENCH-SQL-XY|'

# 5. build.sh's refusals: one line, exit 2, nothing left behind
mkdir "$tmp/iso"; echo x >"$tmp/iso/x"
xorriso -as mkisofs -quiet -o "$tmp/win.iso" "$tmp/iso" 2>/dev/null
cp "$tmp/win.iso" "$tmp/sql.iso"
echo "not an iso" >"$tmp/plain"
ok=(--windows=2012r2 --sql=2014 --secrets="$secrets")
isos=("$tmp/win.iso" "$tmp/sql.iso")
refuse() {  # refuse NAME EXPECTED-LINE ARGS...
  local name=$1 want=$2; shift 2
  local out rc=0
  out=$($here/build.sh "$@" 2>&1 >/dev/null) || rc=$?
  check_eq "refused: $name" "2 $want" "$rc $out"
  check_eq "refused: $name: nothing left" "" "$(ls -A "$TMPDIR"; ls "$tmp"/out* 2>/dev/null)"
}
me=images/windows/build.sh
refuse "no arguments" "$me: usage: $me --windows=V --sql=V --secrets=FILE [options] WINDOWS.iso SQLSERVER.iso OUT.qcow2 (see its header)"
refuse "an unknown option" "$me: unknown option --vnc=1 (usage: $me --windows=V --sql=V --secrets=FILE [options] WINDOWS.iso SQLSERVER.iso OUT.qcow2 (see its header))" \
  --vnc=1 "${ok[@]}" "${isos[@]}" "$tmp/out.qcow2"
refuse "an unknown Windows" "$me: --windows: 2016 is not one of 2012r2, 2019, 2022" \
  --windows=2016 --sql=2016 --secrets="$secrets" --dry-run "${isos[@]}" "$tmp/out.qcow2"
refuse "SQL Server 2014 on Windows Server 2022" \
  "$me: SQL Server 2014 is not supported on Windows Server 2022 (supported there: 2017, 2019, 2022)" \
  --windows=2022 --sql=2014 --secrets="$secrets" --dry-run "${isos[@]}" "$tmp/out.qcow2"
refuse "Developer 2014 without a key" \
  "$me: --edition developer: SQL Server 2014's Developer edition has no documented key; give its product key, or --edition media with Developer media" \
  "${ok[@]}" --edition=developer --dry-run "${isos[@]}" "$tmp/out.qcow2"
refuse "Express with a 48 GB buffer" \
  "$me: --edition express: its buffer pool stops at 1410 MB; --max-memory 49152 would not be what the server uses" \
  "${ok[@]}" --edition=express --dry-run "${isos[@]}" "$tmp/out.qcow2"
chmod 644 "$secrets"
refuse "secrets readable by others" "$me: $secrets: readable by others (mode 0644): chmod 600 it" \
  "${ok[@]}" --dry-run "${isos[@]}" "$tmp/out.qcow2"
chmod 600 "$secrets"
printf 'admin_password = short\nsa_password = Sa-Pass-123\ndrivebench_password = Db-Pass-12\n' >"$tmp/weak"; chmod 600 "$tmp/weak"
refuse "a weak password" \
  "$me: $tmp/weak: admin_password is too weak for Windows and SQL Server (8 characters or more, from three of upper case, lower case, digits and others)" \
  --windows=2019 --sql=2019 --secrets="$tmp/weak" --dry-run "${isos[@]}" "$tmp/out.qcow2"
refuse "a Windows ISO that is not one" "$me: WINDOWS.iso: $tmp/plain is not an ISO 9660 image" \
  "${ok[@]}" --dry-run "$tmp/plain" "$tmp/sql.iso" "$tmp/out.qcow2"
refuse "a missing SQL Server ISO" "$me: SQLSERVER.iso: $tmp/none.iso is not a readable file" \
  "${ok[@]}" --dry-run "$tmp/win.iso" "$tmp/none.iso" "$tmp/out.qcow2"
refuse "a size that is not one" "$me: --disk-size: expected a size in G or T (100G), got '100'" \
  "${ok[@]}" --disk-size=100 --dry-run "${isos[@]}" "$tmp/out.qcow2"
refuse "a timeout that is not a number" "$me: --timeout: expected a whole number, got '2h'" \
  "${ok[@]}" --timeout=2h --dry-run "${isos[@]}" "$tmp/out.qcow2"
touch "$tmp/exists.qcow2"
refuse "an output that exists" "$me: $tmp/exists.qcow2 exists: give a new file" \
  "${ok[@]}" --dry-run "${isos[@]}" "$tmp/exists.qcow2"
rm "$tmp/exists.qcow2"
cp -r $here "$tmp/recipe"; rm "$tmp/recipe/dbdisk.ps1"
out=$("$tmp/recipe/build.sh" "${ok[@]}" --dry-run "${isos[@]}" "$tmp/out.qcow2" 2>&1); rc=$?
check_eq "refused: a recipe file missing" "2 $me: $tmp/recipe/dbdisk.ps1 is missing: this recipe is incomplete" "$rc $out"

# 6. a dry run: the configuration CD's files, and a QEMU command QEMU accepts
for f in bios efi; do
  out=$($here/build.sh "${ok[@]}" --firmware=$f --accel=tcg --dry-run "${isos[@]}" "$tmp/out.qcow2" 2>&1); rc=$?
  check_eq "dry run ($f): exit 0, nothing left" "0 " "$rc $(ls -A "$TMPDIR"; ls "$tmp"/out* 2>/dev/null)"
  check_eq "dry run ($f): the configuration CD" \
    "$me: dry run, nothing built; the configuration CD holds: ConfigurationFile.ini autounattend.xml dbdisk.ps1 drivebench-setup.ps1 drivebench.json secrets.json" \
    "$(sed -n 1p <<<"$out")"
  cmd=$(sed -n 2p <<<"$out" | sed -E "s|$TMPDIR/drivebench-windows\.[A-Za-z0-9]+|WORK|g; s|$tmp|TMP|g")
  check_eq "dry run ($f): the QEMU command equals its golden" "$(cat "$golden/qemu-$f.txt")" "$cmd"
  # QEMU creates every device of that command (-S: no guest code runs), answers QMP, quits
  w=$tmp/work-$f; mkdir -p "$w"
  qemu-img create -q -f qcow2 "$tmp/out.qcow2.partial" 1G
  qemu-img create -q -f qcow2 "$w/dbdisk.qcow2" 1G
  cp "$tmp/win.iso" "$w/config.iso"
  [ $f = efi ] && cp /usr/share/OVMF/OVMF_VARS_4M.fd "$w/vars.fd"
  eval "argv=(${cmd//WORK/$w})"
  argv=("${argv[@]//TMP/$tmp}")
  qmp=$(printf '%s\n' '{"execute":"qmp_capabilities"}' '{"execute":"query-block"}' '{"execute":"quit"}' |
        timeout 120 "${argv[@]}" -S -qmp stdio 2>"$tmp/qemu.err"); rc=$?
  check_eq "QEMU ($f) accepts the command: exit 0, no error" "0 " "$rc $(head -2 "$tmp/qemu.err")"
  want="boot db cd0 cd1 cd2"; [ $f = efi ] && want="pflash0 pflash1 $want"
  check_eq "QEMU ($f) sees the 2 disks and 3 CDs" "$want" \
    "$(grep -o '"device": "[a-z0-9]*"' <<<"$qmp" | cut -d'"' -f4 | grep -v '^$' | tr '\n' ' ' | sed 's/ $//')"
  rm -f "$tmp/out.qcow2.partial" "$tmp/out.qcow2.log"
done

check_summary
