#!/usr/bin/env bash
# Hostile input and outputs (issue 43): every output (report -o, its CSV,
# bundle --out, the charts) respects what is at its path — a device or a
# FIFO written through, "-" standard output, a symbolic link refused — and
# a full disk leaves no partial file and says why (exit 1); readers take a
# number only where a number belongs and refuse what is too large before
# reading it. Exact messages and exit statuses. The full-disk cases mount
# a small tmpfs in a private folder when run as root (skipped otherwise).
# Run from the repository root.
set -u
DB=${DRIVEBENCH:-bin/drivebench}
F=results/fixtures
tmp=$(mktemp -d /tmp/orch-io-XXXXXX)
mnt=""
cleanup() {
  [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
. tests/lib/check.sh
ok()  { check_eq "$1" ok ok; }
bad() { check_eq "$1" ok failed; }
# expect NAME WANT_STATUS WANT_STDERR (exactly, "" for none) CMD...
expect() {
  local name=$1 status=$2 want=$3; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  check_eq "$name" "exit $status: $want" "exit $?: $(cat "$tmp/err")"
}

# --- outputs (item 1) ---
# as root, private device nodes: a writer that replaced them (as one did)
# must not damage the machine's /dev/null and /dev/full
null=/dev/null full=/dev/full
if [ "$(id -u)" = 0 ] && mknod -m 666 "$tmp/null" c 1 3 && mknod -m 666 "$tmp/full" c 1 7; then
  null=$tmp/null full=$tmp/full
fi
expect "report to $null" 0 "" $DB report $F/report-4vm -o $null
[ -c $null ] && [ ! -e $null.csv ] && [ "$(head -1 "$tmp/out")" = "report: $null" ] \
  && ok "$null stays a device, no CSV beside it" || bad "$null: $(ls -l $null*)"
expect "report to -" 0 "report: -" $DB report $F/report-4vm -o -
head -c 15 "$tmp/out" | grep -qF '<!DOCTYPE html>' && ok "report -o - writes the page to stdout" \
  || bad "report -o -: $(head -c 60 "$tmp/out")"
ln -s "$tmp/elsewhere.html" "$tmp/link.html"
expect "report to a symlink" 1 "drivebench: cannot write $tmp/link.html: it is a symbolic link (links are not followed: give the path of the file itself, or - for standard output)" \
  $DB report $F/report-4vm -o "$tmp/link.html"
[ -L "$tmp/link.html" ] && [ ! -e "$tmp/elsewhere.html" ] && ok "the link and its target untouched" \
  || bad "symlink followed or replaced"
expect "report to $full" 1 "drivebench: cannot write $full: No space left on device" \
  $DB report $F/report-4vm -o $full
mkfifo "$tmp/fifo.html"
cat "$tmp/fifo.html" >"$tmp/fromfifo" & reader=$!
expect "report to a FIFO" 0 "" $DB report $F/report-4vm -o "$tmp/fifo.html"
wait $reader
[ -p "$tmp/fifo.html" ] && head -c 15 "$tmp/fromfifo" | grep -qF '<!DOCTYPE html>' \
  && ok "the FIFO's reader has the page, the FIFO stays" || bad "FIFO replaced or empty"
mkdir -p "$tmp/fx" && cp -r $F/report-failed "$tmp/fx/report-failed-20261130-000000"
# a bundle is of an ended run's folder, its report included (bundle refuses one without)
$DB report "$tmp/fx/report-failed-20261130-000000" >/dev/null
expect "bundle to $full" 1 "drivebench: cannot write $full: No space left on device" \
  $DB bundle report-failed-20261130-000000 --results="$tmp/fx" --out=$full
[ -c $full ] && ok "$full stays a device" || bad "$full replaced: $(ls -l $full)"
expect "bundle to -" 0 "bundle report-failed-20261130-000000: -, 13 file(s) and MANIFEST.sha256" \
  $DB bundle report-failed-20261130-000000 --results="$tmp/fx" --out=-
tar -tzf "$tmp/out" | grep -qxF report-failed-20261130-000000/summary.json \
  && ok "bundle --out=- writes the archive to stdout" || bad "bundle to stdout"
ln -s "$tmp/b.tar.gz" "$tmp/blink.tar.gz"
expect "bundle to a symlink" 1 "drivebench: cannot write $tmp/blink.tar.gz: it is a symbolic link (links are not followed: give the path of the file itself, or - for standard output)" \
  $DB bundle report-failed-20261130-000000 --results="$tmp/fx" --out="$tmp/blink.tar.gz"
if [ "$(id -u)" = 0 ]; then
  mkdir "$tmp/small" && mount -t tmpfs -o size=64k tmpfs "$tmp/small" && mnt="$tmp/small"
fi
if [ -n "$mnt" ]; then
  head -c $((60 * 1024)) /dev/zero >"$mnt/fill"     # 4 KiB left: less than the page, the bundle
  expect "report on a full disk" 1 "drivebench: cannot write $mnt/r.html: No space left on device" \
    $DB report $F/report-4vm -o "$mnt/r.html"
  [ "$(ls -A "$mnt")" = fill ] && ok "a full disk: no report left" || bad "left on the full disk: $(ls -A "$mnt")"
  expect "bundle on a full disk" 1 "drivebench: cannot write $mnt/b.tar.gz: No space left on device" \
    $DB bundle report-failed-20261130-000000 --results="$tmp/fx" --out="$mnt/b.tar.gz"
  [ "$(ls -A "$mnt")" = fill ] && ok "a full disk: no bundle left" || bad "left on the full disk: $(ls -A "$mnt")"
  umount "$mnt" && mnt=""
else
  echo "skip - the full-disk cases (not root: no tmpfs to mount)"
fi

# --- verify: caps on what a bundle unpacks to, its folder removed on a
# signal (item 5); TMPDIR private, to see what verify leaves there ---
vt="$tmp/vtmp" && mkdir "$vt"
python3 - "$tmp/bomb.tar.gz" <<'PY'
import gzip, sys, tarfile
# a header that says 1 GiB, and 1 MiB of it: refused by its header
t = tarfile.TarInfo("r-20261130-000000/vm/big.bin"); t.size = 1 << 30
with gzip.open(sys.argv[1], "wb") as f:
    f.write(t.tobuf(format=tarfile.PAX_FORMAT) + bytes(1 << 20))
PY
expect "verify refuses a member larger than a run folder holds" 2 "drivebench: $tmp/bomb.tar.gz: not a drivebench bundle: member 'r-20261130-000000/vm/big.bin' is 1073741824 bytes, above the 256 MiB such a file of a run folder may hold" \
  env TMPDIR="$vt" $DB verify "$tmp/bomb.tar.gz"
[ -z "$(ls -A "$vt")" ] && ok "verify of the bomb leaves no folder" || bad "verify left $(ls -A "$vt")"
# a FIFO as the bundle: verify waits in its open, after making its folder
for sig in TERM INT; do
  rm -f "$tmp/wait.tar.gz" && mkfifo "$tmp/wait.tar.gz"
  env TMPDIR="$vt" $DB verify "$tmp/wait.tar.gz" >"$tmp/out" 2>"$tmp/err" & vpid=$!
  for _ in $(seq 1 600); do [ -n "$(ls -A "$vt")" ] && break; sleep 0.05; done
  made=$(ls -A "$vt")
  kill -$sig $vpid; wait $vpid; st=$?
  want=$(( 128 + $(kill -l $sig) ))
  [ -n "$made" ] && [ $st = $want ] && [ -z "$(ls -A "$vt")" ] \
    && ok "verify stopped by SIG$sig removes its folder ($made) and dies of it" \
    || bad "verify SIG$sig: made '$made', exit $st (wanted $want), left '$(ls -A "$vt")'"
done

# --- readers: a number where a number belongs (item 5) ---
# typed NAME PYTHON-EDIT WANT: the edit made to a copy of report-4vm's
# summary; report and --rank refuse it with WANT (after "FILE: "), exit
# 2, and write nothing
typed() {
  local name=$1 edit=$2 want=$3 d="$tmp/typed"
  rm -rf "$d" "$tmp/t.html" "$tmp/t.csv" "$tmp/trank" && cp -r $F/report-4vm "$d"
  python3 -c "import json,sys; p=sys.argv[1]; d=json.load(open(p)); $edit; json.dump(d, open(p, 'w'))" "$d/summary.json"
  expect "report: $name" 2 "drivebench: $d/summary.json: $want" $DB report "$d" -o "$tmp/t.html"
  [ ! -e "$tmp/t.html" ] && [ ! -e "$tmp/t.csv" ] && ok "report: $name: nothing written" || bad "report: $name: files left"
  expect "rank: $name" 2 "drivebench: $d/summary.json: $want" $DB report --rank -o "$tmp/trank" "$d"
}
typed "tps null" 'd["drives"][0]["tps"]=None' "drives[0].tps: expected a number, got null"
typed "tps {}" 'd["drives"][0]["tps"]={}' "drives[0].tps: expected a number, got {}"
typed "tps true" 'd["drives"][0]["tps"]=True' "drives[0].tps: expected a number, got true"
typed 'tps "331"' 'd["drives"][0]["tps"]="331"' 'drives[0].tps: expected a number, got "331"'
typed 'vms "four"' 'd["drives"][1]["vms"]="four"' 'drives[1].vms: expected a number, got "four"'
typed "transactions 1e26" 'd["drives"][0]["transactions"]=1e26' "drives[0].transactions: expected a whole number within 64 bits, got 1e+26"
typed "transactions 10**26" 'd["drives"][0]["repetitions"][0]["transactions"]=10**26' "drives[0].repetitions[0].transactions: expected a whole number within 64 bits, got one beyond them"
typed "vms 2**40" 'd["drives"][0]["vms"]=2**40' "drives[0].vms: expected a whole number within 32 bits, got 1099511627776"
# (item 10) it read as "out of memory building the report"
typed "repetitions 1e9" 'd["repetitions"]=10**9' "repetitions: 1000000000, more than the 1000 a result may hold"
typed "no latency_ms" 'del d["drives"][0]["latency_ms"]' "drives[0].latency_ms: expected an object of numbers (avg, p99), got nothing (1658 transactions were measured)"

# --- CSV cells a spreadsheet would run, names that are not UTF-8 (item 8) ---
rename_drive() {   # rename_drive DIR JSON-TEXT: drive 0 of report-4vm's copy, its name's JSON text as given
  rm -rf "$1" && cp -r $F/report-4vm "$1"
  python3 - "$1/summary.json" "$2" <<'PY'
import json, os, sys
p = sys.argv[1]; old = json.load(open(p))["drives"][0]["name"]
b = open(p, "rb").read().replace(b'"%s"' % old.encode(), b'"' + os.fsencode(sys.argv[2]) + b'"')
open(p, "wb").write(b)
PY
}
rename_drive "$tmp/formula" '=HYPERLINK(\"http://x\",\"y\")'
expect "report of a drive named =HYPERLINK(...)" 0 "" $DB report "$tmp/formula" -o "$tmp/formula.html"
grep -qF ',"'"'"'=HYPERLINK(""http://x"",""y"")",4,1,331.538584,' "$tmp/formula.csv" \
  && ok "report.csv: the formula quoted and led by a single quote, the numbers as they were" \
  || bad "report.csv: $(sed -n 2p "$tmp/formula.csv")"
expect "rank of a drive named =HYPERLINK(...)" 0 "" $DB report --rank -o "$tmp/formrank" "$tmp/formula"
grep -qF '"P1",2,"'"'"'=HYPERLINK(""http://x"",""y"")","report-4vm",' "$tmp/formrank/rank.csv" \
  && ok "rank.csv: the formula quoted and led by a single quote" || bad "rank.csv: $(grep HYPER "$tmp/formrank/rank.csv")"
rename_drive "$tmp/latin1" "$(printf 'nv\xe9')"
expect "report refuses a drive name that is not UTF-8" 2 "drivebench: $tmp/latin1/summary.json: cannot read the run's summary: not JSON: invalid utf-8 string at byte 1218" \
  $DB report "$tmp/latin1" -o "$tmp/latin1.html"
[ ! -e "$tmp/latin1.html" ] && [ ! -e "$tmp/latin1.csv" ] && ok "nothing written of a name that is not UTF-8" || bad "latin1: files left"

check_summary
