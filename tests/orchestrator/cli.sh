#!/usr/bin/env bash
# Command-line tests of bin/drivebench: exit codes and messages on bad
# input, validate on the shipped plans, plan get with exact values, render
# compared exactly and checked
# against libvirt's schema, list/teardown, and a real `run` interrupted by
# SIGINT and one failing on its boot timeout, both tearing down. Uses
# libvirt's test driver only (no daemon). Run from the repository root.
set -u
DB=${DRIVEBENCH:-bin/drivebench}   # DRIVEBENCH=bin-asan/drivebench for the sanitizer build
NODE="test://$PWD/tests/orchestrator/node.xml"
tmp=$(mktemp -d /tmp/orch-cli-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok()  { pass=$((pass+1)); echo "ok   - $1"; }
bad() { fail=$((fail+1)); echo "FAIL - $1"; }
# expect NAME WANT_STATUS WANT_STDERR_SUBSTRING CMD...
expect() {
  local name=$1 status=$2 want=$3; shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?
  if [ "$got" -ne "$status" ]; then bad "$name: exit $got, wanted $status"; cat "$tmp/err"; return; fi
  if [ -n "$want" ] && ! grep -qF -- "$want" "$tmp/err"; then
    bad "$name: stderr lacks '$want'"; cat "$tmp/err"; return
  fi
  ok "$name"
}

expect "no arguments" 2 "usage: drivebench validate PLAN" $DB
expect "unknown command" 2 "drivebench: unknown command 'frobnicate' (validate, render, run, list, teardown, report, seed, plan, host, resume, bundle, verify, summarize)" $DB frobnicate
expect "unknown option" 2 "drivebench: unknown option --fast (see drivebench --help)" $DB run plans/tiny.ini --fast
expect "missing plan" 2 "drivebench: missing PLAN argument" $DB validate
expect "unreadable plan" 2 "/nonexistent.ini: cannot read plan: No such file or directory" $DB run /nonexistent.ini
expect "seed: missing plan" 2 "drivebench: missing PLAN argument" $DB seed
expect "seed: unreadable plan" 2 "/nonexistent.ini: cannot read plan: No such file or directory" $DB seed /nonexistent.ini
expect "seed: unknown option" 2 "drivebench: unknown option --fast (see drivebench --help)" $DB seed plans/tiny.ini --fast
expect "seed of a user's image: no image folder" 2 "drivebench: seed: image_dir /var/lib/drivebench/seeds/sqlserver-tpcc is not a folder this user can write (create it first)" $DB seed plans/sqlserver-tpcc.ini
seed_plan() {   # seed_plan RUN-KEYS: a user's SQL Server image on the test driver
  printf '[run]\nname = s\nuri = %s\nprofile = tiny\nengine = sqlserver\nimage = /srv/mssql.qcow2\n%b[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 10s\n[drive d]\npath = /srv/d\n' \
    "$NODE" "$1" > "$tmp/seed.ini"
}
seed_plan ''
expect "seed of a user's image that formats its disk" 2 "drivebench: seed of a user's image needs an image that attaches the databases it finds on its database disk: set [run] image_attaches_databases = yes when its contract says so (images/README.md)" $DB seed "$tmp/seed.ini"
mkdir -p "$tmp/seeds"; : > "$tmp/seeds/seed.qcow2"
seed_plan "image_attaches_databases = yes\nimage_dir = $tmp/seeds\n"
expect "seed of a user's image: seed there" 2 "drivebench: $tmp/seeds/seed.qcow2 exists; --force makes it again" $DB seed "$tmp/seed.ini"
rm -f "$tmp/seeds/seed.qcow2"
expect "bad run id" 2 "drivebench: run id 'A--B' is not of the form drivebench makes" $DB render plans/tiny.ini --run-id=A--B
expect "teardown of a non-id" 2 "drivebench: '../etc' is not a run id" $DB teardown ../etc
# a run id is a name, never a path: 'etc' is a well-formed id, ../../etc
# (or any folder's path) is not one, though the path exists: main read
# /etc/hosts as the run's libvirt URIs and /etc/clients (issue 43)
expect "teardown of a path" 2 "drivebench: '../../../../../../../../etc' is not a run id: give the run id, and the folder that holds its run folder with --results=DIR" $DB teardown ../../../../../../../../etc
[ ! -s "$tmp/out" ] && ok "teardown of a path does nothing" || bad "teardown of a path: $(cat "$tmp/out")"
for p in plans/*.ini; do
  expect "validate $p" 0 "" $DB validate "$p"
done
# plan paths that point anywhere (issue 43): each refusal one line, exit 2
ln -s /etc "$tmp/etc-link"
printf 'secret\n' > "$tmp/pw" && chmod 0644 "$tmp/pw"
# path_plan RUN-KEY WORKLOAD-KEY DRIVE-PATH
path_plan() {
  printf '[run]\nname = p\nprofile = tiny\n%b[workload]\nname = oltp_read_write\ntables = 1\ntable_size = 10\nmeasure = 10s\n%b[drive d]\npath = %s\n' \
    "$1" "$2" "$3" > "$tmp/path.ini"
}
refused() {  # refused NAME WANT_LINE: validate says exactly WANT_LINE, exit 2
  $DB validate "$tmp/path.ini" >"$tmp/out" 2>"$tmp/err"; local st=$?
  [ $st = 2 ] && [ "$(cat "$tmp/err")" = "$tmp/path.ini:$2" ] && [ ! -s "$tmp/out" ] \
    && ok "validate refuses $1" || bad "validate $1: exit $st: $(cat "$tmp/err")"
}
path_plan "" "" /etc/passwd;         refused "a drive path that is a file" "10: [drive d] path /etc/passwd is not a directory: give a folder on the drive under test"
path_plan "" "" /;                   refused "the root as a drive" "10: [drive d] path / is a system directory: give a folder on the drive under test"
path_plan "" "" "$tmp/etc-link";     refused "a link to /etc as a drive" "10: [drive d] path $tmp/etc-link resolves to /etc, a system directory: give a folder on the drive under test"
path_plan "oltp = /etc/passwd\n" "" "$tmp/drive"; refused "oltp = /etc/passwd" "4: [run] oltp /etc/passwd is not an executable file (drivebench's oltp: bin/oltp)"
path_plan "image = /etc/shadow\nimage_dir = $tmp\n" "" "$tmp/drive"
refused "image = /etc/shadow" "4: [run] image /etc/shadow is neither a qcow2 image nor a raw disk image (a whole number of 512-byte sectors, 1 MiB or more): $(stat -c %s /etc/shadow) bytes"
path_plan "" "db_password_file = $tmp/pw\n" "$tmp/drive"; refused "a password file others may read" "9: [workload] db_password_file $tmp/pw may be read by others than its owner (mode 0644): a password file is readable by its owner only (chmod 600 $tmp/pw)"
path_plan "" "extra = --mysql-password=S3cret\n" "$tmp/drive"; refused "a password in extra" "9: [workload] extra: --mysql-password carries a password, which would stand in \`ps\` and in every file of the run: use [workload] db_password_file (or db_password_env)"
path_plan "" "extra = --time=5\n" "$tmp/drive"; refused "extra overriding --time" "9: [workload] extra: --time is set by drivebench, and oltp would take extra's instead: use [workload] measure (and warmup)"

cat > "$tmp/bad.ini" <<'PLAN'
[run]
name = bad
profile = tiny
vms_per_drive = many
[workload]
name = oltp_read_write
tables = 1
table_size = 1
measure = soon
PLAN
$DB validate "$tmp/bad.ini" >"$tmp/out" 2>"$tmp/err"; st=$?
printf '%s\n' "$tmp/bad.ini:4: [run] vms_per_drive: 'many' is not a whole number" \
  "$tmp/bad.ini:9: [workload] measure: 'soon' is not a duration like 2h, 30m, 10s (1..604800 s)" \
  "$tmp/bad.ini:1: no [drive NAME] section: name at least one drive under test" | sort -t: -k2n > "$tmp/want"
if [ $st -eq 2 ] && diff -u "$tmp/want" "$tmp/err"; then ok "validate reports every problem with file and line"; else bad "validate errors (exit $st)"; fi
# engine, image, client and driver combinations that cannot run: one line
# each, with file and line
# engine_error NAME WANT-LINE RUN-KEYS WORKLOAD-KEYS [PROFILE]
engine_error() {
  local name=$1 want=$2
  printf '[run]\nname = e\nprofile = %s\n%b[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 10s\n%b[drive d]\npath = /srv/d\n' \
    "${5:-tiny}" "$3" "$4" > "$tmp/engine.ini"
  $DB validate "$tmp/engine.ini" >"$tmp/out" 2>"$tmp/err"; local st=$?
  if [ $st -eq 2 ] && [ "$(cat "$tmp/err")" = "$tmp/engine.ini:$want" ]; then ok "validate: $name"
  else bad "validate: $name: exit $st, stderr '$(cat "$tmp/err")', wanted '$tmp/engine.ini:$want'"; fi
}
engine_error "sqlserver without image" \
  "4: [run] engine sqlserver: drivebench builds no image of it; set [run] image = PATH.qcow2 (images/README.md gives the contract)" \
  'engine = sqlserver\n' ''
engine_error "client = guest without a guest agent" \
  "6: [run] client = guest runs oltp through the guest agent, and guest_agent = no: use client = host" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\nclient = guest\nguest_agent = no\n' ''
engine_error "a driver the engine does not allow" \
  "9: [workload] db_driver mysql: engine postgresql is reached through pgsql|odbc" \
  'engine = postgresql\n' 'db_driver = mysql\n'
engine_error "sqlserver through mysql" \
  "10: [workload] db_driver mysql: engine sqlserver is reached through odbc" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\n' 'db_driver = mysql\n'
engine_error "prepare = auto with a seed a user's image does not attach" \
  "10: [workload] prepare = auto: profile sysbench restores a prebuilt database, which a user's image attaches only when its contract says so: set [run] image_attaches_databases = yes (images/README.md), or prepare = yes, or use a profile without a seed disk" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\n' 'prepare = auto\n' sysbench
engine_error "a seed disk without an image folder" \
  "3: [run] profile with a seed disk: each database disk is restored from image_dir's seed.qcow2 (images/README.md says how to make it); set [run] image_dir to its folder" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\n' 'prepare = yes\n' sysbench
engine_error "a user's image that attaches databases, without an image folder" \
  "7: [run] image_attaches_databases = yes: each database disk is restored from image_dir's seed.qcow2 (images/README.md says how to make it); set [run] image_dir to its folder" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\nguest_os = windows\nimage_attaches_databases = yes\n' '' sqlserver
engine_error "image_attaches_databases on drivebench's image" \
  "4: [run] image_attaches_databases applies to a user's image ([run] image); drivebench's images restore their seed disk themselves" \
  'image_attaches_databases = yes\n' ''
engine_error "a Windows guest on drivebench's image" \
  "4: [run] guest_os = windows needs the user's own image ([run] image = PATH.qcow2): drivebench builds Linux images only (images/README.md gives the Windows contract)" \
  'guest_os = windows\n' ''
engine_error "a Windows guest with a kernel" \
  "7: [run] kernel: a Windows guest boots from its own disk; drop kernel, initrd and cmdline" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\nguest_os = windows\nkernel = /srv/vmlinuz\n' ''
engine_error "a Windows guest with the guest client" \
  "8: [run] client = guest runs drivebench's Linux oltp inside the guest; a Windows guest needs client = host" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\nguest_os = windows\nguest_agent = yes\nclient = guest\n' ''
engine_error "an unknown guest OS" \
  "4: [run] guest_os: 'macos' is not one of linux|windows" \
  'guest_os = macos\n' ''
engine_error "an unknown NIC" \
  "4: [run] nic: 'rtl8139' is not one of virtio|e1000e" \
  'nic = rtl8139\n' ''
engine_error "an unknown firmware" \
  "4: [run] firmware: 'coreboot' is not one of bios|efi" \
  'firmware = coreboot\n' ''
# the live view's address (issue 34): loopback unless the plan opts in
engine_error "metrics beyond loopback" \
  "4: [run] metrics = 0.0.0.0:9464 listens beyond loopback: anyone who reaches this host could read the run's figures; use 127.0.0.1:PORT, or set [run] metrics_remote = yes to allow it" \
  'metrics = 0.0.0.0:9464\n' ''
engine_error "metrics on a name" \
  "4: [run] metrics: 'example.com:9464': 'example.com' is not an IPv4 address (a name other than localhost is not taken: give the address to listen on)" \
  'metrics = example.com:9464\n' ''
engine_error "metrics without a port" \
  "4: [run] metrics: '127.0.0.1' is not an address like 127.0.0.1:9464 (ADDRESS:PORT; [ADDRESS]:PORT for IPv6)" \
  'metrics = 127.0.0.1\n' ''
engine_error "metrics on a port out of range" \
  "4: [run] metrics: '[::1]:70000': the port '70000' is not a number in 0..65535" \
  'metrics = [::1]:70000\n' ''
engine_error "metrics_remote without metrics" \
  "4: [run] metrics_remote applies to [run] metrics only" \
  'metrics_remote = yes\n' ''
printf '[run]\nname = e\nprofile = tiny\nmetrics = 0.0.0.0:9464\nmetrics_remote = yes\n[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 10s\n[drive d]\npath = /srv/d\n' > "$tmp/remote.ini"
expect "metrics beyond loopback with metrics_remote = yes" 0 "" $DB validate "$tmp/remote.ini"
# 127.0.0.1 written as an IPv4-mapped IPv6 address is loopback (issue 43);
# a mapped address beyond it is not
sed 's/^metrics = .*/metrics = [::ffff:127.0.0.1]:9464/; /^metrics_remote/d' "$tmp/remote.ini" > "$tmp/mapped.ini"
expect "metrics on a mapped loopback address" 0 "" $DB validate "$tmp/mapped.ini"
engine_error "metrics on a mapped address beyond loopback" \
  "4: [run] metrics = [::ffff:10.0.0.1]:9464 listens beyond loopback: anyone who reaches this host could read the run's figures; use 127.0.0.1:PORT, or set [run] metrics_remote = yes to allow it" \
  'metrics = [::ffff:10.0.0.1]:9464\n' ''
# sweeps (issue 34): a malformed list is one line naming the step
engine_error "a sweep with an empty step" \
  "8: [workload] threads: '8,,16' has an empty step (a sweep is a comma-separated list of values, like 8,16,32)" \
  '' 'threads = 8,,16\n'
engine_error "a sweep ending in a comma" \
  "8: [workload] threads: '8,16,' has an empty step (a sweep is a comma-separated list of values, like 8,16,32)" \
  '' 'threads = 8,16,\n'
engine_error "a sweep with a word" \
  "8: [workload] threads: step 2 of the sweep: 'many' is not a whole number" \
  '' 'threads = 8,many\n'
engine_error "a sweep out of range" \
  "8: [workload] threads: step 3 of the sweep: 0 is out of range 1..1000000" \
  '' 'threads = 8,16,0\n'
engine_error "a sweep going down" \
  "8: [workload] threads: the sweep's values must increase: 16 after 32" \
  '' 'threads = 8,32,16\n'
engine_error "a sweep repeating a value" \
  "8: [workload] rate: the sweep's values must increase: 10 after 10" \
  '' 'rate = 10,10\n'
engine_error "two keys swept" \
  "9: [workload] rate: a plan sweeps one key, and [workload] threads is swept already (line 8)" \
  '' 'threads = 8,16\nrate = 10,20\n'
engine_error "a list on a key that is not swept" \
  "4: [run] boot_timeout: '1m,2m' is a list, and only [run] vms_per_drive and the numbers of [workload] can be swept" \
  'boot_timeout = 1m,2m\n' ''
engine_error "a word in a sweep" \
  "8: [workload] precondition: step 2 of the sweep: a sweep takes numbers, not 'until-steady'" \
  '' 'precondition = 1m,until-steady\n'
engine_error "a sweep of 33 steps" \
  "8: [workload] threads: 33 steps; a sweep has at most 32" \
  '' "threads = $(seq -s, 1 33)\n"
# a capacity search (issue 45): its keys refused one line each
engine_error "a target that does not parse" \
  "8: [workload] target: target 'p99 <= fast': expected a percentile, <= or <, and a bound with its unit, e.g. 'p99 <= 10ms'" \
  '' 'target = p99 <= fast\n'
engine_error "a target with a sweep" \
  "8: [workload] target searches the rate itself: drop the sweep of [workload] rate (line 9)" \
  '' 'target = p99 <= 10ms\nrate = 10,20\n'
engine_error "a target's highest rate under its start" \
  "10: [workload] target_max_rate 50 is under target_start 100" \
  '' 'target = p99 <= 10ms\ntarget_start = 100\ntarget_max_rate = 50\n'
engine_error "a target key without a target" \
  "8: [workload] target_resolution without target: it sets the capacity search of \`target = p99 <= 10ms\`" \
  '' 'target_resolution = 2\n'
engine_error "a target with repetitions" \
  "9: [workload] target: a capacity search runs once on its VMs: set [run] repetitions = 1" \
  'repetitions = 3\n' 'target = p99 <= 10ms\n'
engine_error "a target's resolution out of range" \
  "9: [workload] target_resolution: '0.5' is not a number in 1..100" \
  '' 'target = p99 <= 10ms\ntarget_resolution = 0.5\n'
printf '[run]\nname = e\nprofile = tiny\n[workload]\nname = oltp_read_write\ntables = 1\ntable_size = 100\nmeasure = 10s\ntarget = p99.9 < 2.5 ms\ntarget_max_probes = 12\n[drive d]\npath = /srv/d\n' > "$tmp/target.ini"
out=$($DB validate "$tmp/target.ini" 2>&1)
[ "$out" = "$tmp/target.ini: ok: 1 drive(s), 1 VM(s), profile tiny, workload oltp_read_write; capacity search at p99.9 < 2.5 ms: from 10/s a drive, doubling, then bisection to 5 %, at most 12 probes up to 1000000/s, on the same VMs" ] \
  && ok "validate names a capacity search" || bad "validate of a capacity search: $out"
printf '[run]\nname = e\nprofile = tiny\nvms_per_drive = 1,2\n[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 10s\n[drive d]\npath = /srv/d\nvms = 3\n' > "$tmp/sweep.ini"
expect "a swept vms_per_drive and a drive's own vms" 2 \
  "$tmp/sweep.ini:11: [drive d] vms: the sweep of [run] vms_per_drive (line 4) would not reach this drive; drop its vms" \
  $DB validate "$tmp/sweep.ini"
sed -i '/^vms = 3$/d' "$tmp/sweep.ini"
out=$($DB validate "$tmp/sweep.ini" 2>&1)
[ "$out" = "$tmp/sweep.ini: ok: 1 drive(s), 1 VM(s), profile tiny, workload tpcc; sweep of [run] vms_per_drive: 1, 2 (2 runs, each re-provisioned: [run] vms_per_drive changes the VMs or their database)" ] \
  && ok "validate names a sweep's steps" || bad "validate of a sweep: $out"
sed -i 's/^vms_per_drive = 1,2$/vms_per_drive = 1/; s/^warehouses = 1$/warehouses = 1\nthreads = 1,2,4/' "$tmp/sweep.ini"
out=$($DB validate "$tmp/sweep.ini" 2>&1)
[ "$out" = "$tmp/sweep.ini: ok: 1 drive(s), 1 VM(s), profile tiny, workload tpcc; sweep of [workload] threads: 1, 2, 4 (3 steps on the same VMs, provisioned, prepared and preconditioned once)" ] \
  && ok "validate: a sweep of threads runs on the same VMs" || bad "validate of a threads sweep: $out"
sed -i 's/^threads = 1,2,4$/threads = 1,2,4\nrestore_between_steps = yes/' "$tmp/sweep.ini"
out=$($DB validate "$tmp/sweep.ini" 2>&1)
[ "$out" = "$tmp/sweep.ini: ok: 1 drive(s), 1 VM(s), profile tiny, workload tpcc; sweep of [workload] threads: 1, 2, 4 (3 runs, each re-provisioned: restore_between_steps = yes)" ] \
  && ok "validate: restore_between_steps = yes re-provisions each step" || bad "validate with restore_between_steps: $out"
engine_error "FreeTDS with strict encryption" \
  "11: [workload] encrypt = strict: FreeTDS 1.3 has no strict (TDS 8) encryption; use yes, or ODBC Driver 18" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\n' 'odbc_driver = FreeTDS\nencrypt = strict\n'
engine_error "encrypt = yes with Driver 18 and no trust decision" \
  "11: [workload] encrypt = yes leaves the server's certificate undecided: ODBC Driver 18 then verifies it against this host's CAs and fails on a self-signed one; add 'trust_server_certificate = yes' (a fresh SQL Server's own certificate) or 'trust_server_certificate = no' (a certificate this host's CAs sign)" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\n' 'odbc_driver = ODBC Driver 18 for SQL Server\nencrypt = yes\n'
engine_error "tls_security_level and openssl_conf both" \
  "11: [workload] openssl_conf: the client's OpenSSL is already set by tls_security_level (line 10); keep one" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\n' 'tls_security_level = 0\nopenssl_conf = /etc/ssl/openssl.cnf\n'
engine_error "an unreadable openssl_conf" \
  "10: [workload] openssl_conf: cannot read /nonexistent/openssl.cnf: No such file or directory" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\n' 'openssl_conf = /nonexistent/openssl.cnf\n'
engine_error "tls_security_level out of range" \
  "10: [workload] tls_security_level: 6 is out of range 0..5" \
  'engine = sqlserver\nimage = /srv/mssql.qcow2\n' 'tls_security_level = 6\n'
engine_error "tls_security_level with a native driver" \
  "9: [workload] tls_security_level applies to db_driver = odbc only (this plan's is pgsql)" \
  'engine = postgresql\n' 'tls_security_level = 0\n'
engine_error "ODBC keys with a native driver" \
  "9: [workload] encrypt applies to db_driver = odbc only (this plan's is pgsql)" \
  'engine = postgresql\n' 'encrypt = yes\n'
engine_error "an unknown engine" \
  "4: [run] engine: 'oracle' is not one of mariadb|postgresql|babelfish|sqlserver|mysql" \
  'engine = oracle\n' ''
engine_error "an unknown controller" \
  "4: [run] controller: 'ahci' is not one of virtio-scsi|lsisas1068|lsisas1078" \
  'controller = ahci\n' ''

before=$(ls -A results)
expect "run refuses a bad plan" 2 "vms_per_drive: 'many' is not a whole number" $DB run "$tmp/bad.ini"
[ "$(ls -A results)" = "$before" ] && ok "a refused run leaves nothing behind" || bad "a refused run left files in results/"

# plan get: values as the C parser resolves them (set, default, from the
# profile, from [run]); errors exit 2 with one line on stderr
# get_is NAME WANT SECTION KEY PLAN
get_is() {
  local name=$1 want=$2; shift 2
  local got; got=$($DB plan get "$@" 2>"$tmp/err"); local st=$?
  if [ $st -eq 0 ] && [ "$got" = "$want" ] && [ ! -s "$tmp/err" ]; then ok "plan get: $name"
  else bad "plan get: $name: exit $st, got '$got', wanted '$want'"; cat "$tmp/err"; fi
}
get_is "a set value" "tiny" run name plans/tiny.ini
get_is "a default" "33060" run port_base plans/tiny.ini
get_is "a default path, absolute" "$PWD/images/build" run image_dir plans/tiny.ini
get_is "an enum default" "host" run client plans/tiny.ini
get_is "a duration in seconds" "10" workload measure plans/tiny.ini
get_is "an unset duration" "0" workload precondition plans/tiny.ini
get_is "a size from the profile (tiny dbdisk 2G)" "2147483648" run db_size plans/tiny.ini
get_is "no seed disk in the profile" "" run seed_size plans/tiny.ini
get_is "the seed disk of sysbench (447G)" "479962595328" run seed_size plans/sysbench-8x1.ini
get_is "a value left to the profile" "" run vcpus plans/tiny.ini
get_is "a drive's uri from [run]" "test:///default" "drive test" uri plans/tiny.ini
get_is "a drive's vms from vms_per_drive" "1" "drive test" vms plans/tiny.ini
get_is "the engine's default driver" "pgsql" workload db_driver plans/quick-pgsql.ini
get_is "the engine's image folder" "$PWD/images/build/postgresql" run image_dir plans/quick-pgsql.ini
get_is "the default engine" "mariadb" run engine plans/tiny.ini
get_is "guest_agent default" "yes" run guest_agent plans/tiny.ini
printf '[run]\nname = w\nengine = sqlserver\nimage = /srv/w.qcow2\nguest_os = windows\nnic = virtio\nprofile = tiny\n[workload]\nname = tpcc\nwarehouses = 1\nmeasure = 1s\n[drive d]\npath = /d\n' >"$tmp/win-virtio.ini"
get_is "sqlserver: no image folder of drivebench's" "" run image_dir tests/orchestrator/render-sqlserver.ini
get_is "guest_os default" "linux" run guest_os plans/tiny.ini
get_is "a Linux guest's NIC" "virtio" run nic plans/tiny.ini
get_is "firmware default" "bios" run firmware plans/tiny.ini
get_is "no Hyper-V for Linux" "no" run hyperv plans/tiny.ini
get_is "the protocol's guest is Windows" "windows" run guest_os plans/sqlserver-tpcc.ini
get_is "a Windows guest's NIC" "e1000e" run nic plans/sqlserver-tpcc.ini
get_is "a Windows guest's controller" "lsisas1068" run controller plans/sqlserver-tpcc.ini
get_is "Hyper-V for Windows" "yes" run hyperv plans/sqlserver-tpcc.ini
get_is "no guest agent for Windows" "no" run guest_agent plans/sqlserver-tpcc.ini
get_is "the protocol's data files, pre-sized" "171798691840" engine data_size plans/sqlserver-tpcc.ini
get_is "the protocol's log growth, fixed" "1073741824" engine log_growth plans/sqlserver-tpcc.ini
get_is "no file size set" "" engine log_size plans/tiny.ini
get_is "efi asked for" "efi" run firmware tests/orchestrator/render/sqlserver-windows-efi.ini
get_is "a key over guest_os's default" "virtio" run nic "$tmp/win-virtio.ini"
get_plan_error() {
  local name=$1 want=$2; shift 2
  $DB plan get "$@" >"$tmp/out" 2>"$tmp/err"; local st=$?
  if [ $st -eq 2 ] && [ ! -s "$tmp/out" ] && [ "$(cat "$tmp/err")" = "$want" ]; then ok "plan get: $name"
  else bad "plan get: $name: exit $st, stderr '$(cat "$tmp/err")', wanted '$want'"; fi
}
get_plan_error "unknown key" "drivebench: plan get: [run] has no key 'colour' (plans/README.md lists them)" \
  run colour plans/tiny.ini
get_plan_error "unknown drive" "drivebench: plan get: plans/tiny.ini has no section [drive nvme]" \
  "drive nvme" path plans/tiny.ini
get_plan_error "unknown section" "drivebench: plan get: plans have no section [runs] (only run, workload, engine, drive NAME)" \
  runs name plans/tiny.ini
get_plan_error "unreadable plan" "/nonexistent.ini: cannot read plan: No such file or directory" \
  run name /nonexistent.ini
get_plan_error "usage" "usage: drivebench plan get SECTION KEY PLAN
       drivebench plan estimate PLAN [--from=RUN_DIR [--effect=PCT%]]
       drivebench plan power PLAN --from=RUN_DIR --effect=PCT% [--figure=tps|p]" run name

# plan estimate: the cost before the run, exactly, on node.xml (8 CPUs,
# 24 GiB, pools the test driver sizes at 100 GiB); exit 1 with the reason
# when run would refuse the plan (memory), 2 for an invalid plan
cat >"$tmp/est.ini" <<INI
[run]
name = est
uri = $NODE
profile = tiny
image_dir = /srv/images
memory = 4G
vms_per_drive = 2
[workload]
name = oltp_read_write
tables = 1
table_size = 10
precondition = 2h
measure = 1h
[drive d1]
pool = userpool
INI
$DB plan estimate "$tmp/est.ini" >"$tmp/out" 2>"$tmp/err"; st=$?
cat >"$tmp/want" <<TXT
estimate of $tmp/est.ini: 1 drive(s), 2 VM(s), profile tiny, workload oltp_read_write
host $NODE: 2 VM(s) need 8.2 GiB of memory (2 x 4 GiB + 100 MiB for QEMU each) of its 24 GiB, and 2 vCPU(s) of its 8 CPU(s)
drive d1 (pool userpool, 99 GiB free): its volumes need 4 GiB plus 1 GiB headroom
duration: 1 repetition(s) x (precondition 2:00:00 + measure 1:00:00) = 3:00:00
  plus per repetition the boot (at most boot_timeout 0:10:00) and the prepare of each database, measured by the run in its first repetition: at least 3:00:00, at most 3:10:00 plus the prepares
TXT
if [ $st -eq 0 ] && diff -u "$tmp/want" "$tmp/out" && [ ! -s "$tmp/err" ]; then ok "plan estimate: exact"
else bad "plan estimate: exit $st"; cat "$tmp/err"; fi
sed -i 's/^vms_per_drive = 2$/vms_per_drive = 6/' "$tmp/est.ini"
expect "plan estimate: more memory than the host" 1 "drivebench: not enough memory on 1 host(s) (see above); nothing was created (fewer VMs per host, a smaller [run] memory, or [run] overcommit = yes)" \
  $DB plan estimate "$tmp/est.ini"
grep -qxF "drivebench: host $NODE has 24 GiB of memory and its 6 VM(s) need 24.6 GiB (6 x 4 GiB + 100 MiB for QEMU each)" "$tmp/out" \
  && ok "plan estimate: names host, need and have" || bad "plan estimate: no memory line: $(cat "$tmp/out")"
expect "plan estimate: an invalid plan" 2 "vms_per_drive: 'many' is not a whole number" $DB plan estimate "$tmp/bad.ini"
expect "plan get: an invalid plan" 2 "vms_per_drive: 'many' is not a whole number" $DB plan get run name "$tmp/bad.ini"
[ ! -s "$tmp/out" ] && ok "plan get: an invalid plan prints no value" || bad "plan get printed '$(cat "$tmp/out")' for an invalid plan"

# render: exact text, and every domain valid for libvirt's schema
$DB render tests/orchestrator/render-plan.ini --run-id=render-test-co-20261130-000000 >"$tmp/render.xml" 2>"$tmp/err"
if diff -u tests/orchestrator/expected/render-plan.xml "$tmp/render.xml"; then ok "render output is exactly expected/render-plan.xml"; else bad "render output differs"; fi
$DB render tests/orchestrator/render-plan.ini --run-id=render-test-co-20261130-000000 --out="$tmp/xml" >"$tmp/out" 2>"$tmp/err"
n=$(ls "$tmp"/xml/*.xml 2>/dev/null | wc -l)
[ "$n" -eq 2 ] && ok "render --out writes one file per VM" || bad "render --out wrote $n files"
for f in "$tmp"/xml/*.xml; do
  if virt-xml-validate "$f" domain >/dev/null 2>&1; then ok "virt-xml-validate $(basename "$f")"; else bad "virt-xml-validate $(basename "$f")"; virt-xml-validate "$f" domain; fi
done
$DB render tests/orchestrator/render-sqlserver.ini --run-id=render-sqlserver-20261130-000000 >"$tmp/render-mssql.xml" 2>"$tmp/err"
if diff -u tests/orchestrator/expected/render-sqlserver.xml "$tmp/render-mssql.xml"; then ok "render of a sqlserver plan is exactly expected/render-sqlserver.xml"; else bad "sqlserver render output differs"; fi
$DB render tests/orchestrator/render-sqlserver.ini --run-id=render-sqlserver-20261130-000000 --out="$tmp/xml-mssql" >"$tmp/out" 2>"$tmp/err"
for f in "$tmp"/xml-mssql/*.xml; do
  if virt-xml-validate "$f" domain >/dev/null 2>&1; then ok "virt-xml-validate $(basename "$f")"; else bad "virt-xml-validate $(basename "$f")"; virt-xml-validate "$f" domain; fi
done
# every profile x guest OS, and EFI: exact text and libvirt's schema
# (a plan's "; capabilities = FILE" line: the host it is placed on, issue 31;
# a plan of several VMs: each domain validated on its own)
for plan in tests/orchestrator/render/*.ini; do
  c=$(basename "$plan" .ini)
  caps=$(sed -n 's/^; capabilities = //p' "$plan")
  $DB render "$plan" --run-id="$c-20261130-000000" ${caps:+--capabilities="$caps"} >"$tmp/render-$c.xml" 2>"$tmp/err"
  if diff -u "tests/orchestrator/expected/$c.xml" "$tmp/render-$c.xml"; then ok "render $c is exactly expected/$c.xml"; else bad "render $c differs"; cat "$tmp/err"; fi
  rm -rf "$tmp/split" && mkdir "$tmp/split"
  csplit -s -z -f "$tmp/split/d" "$tmp/render-$c.xml" '/^<domain /' '{*}'
  for d in "$tmp"/split/d*; do
    if virt-xml-validate "$d" domain >/dev/null 2>&1; then ok "virt-xml-validate $c ($(sed -n 's|.*<name>\(.*\)</name>.*|\1|p' "$d" | head -1))"; else bad "virt-xml-validate $c"; virt-xml-validate "$d" domain; fi
  done
done
# the 8 pinned domains: every vCPU on a CPU of its own, none on the CPUs
# set apart for the emulators, memory on the vCPUs' node
for c in sysbench-linux-8vm-pinned sysbench-windows-8vm-pinned; do
  f=tests/orchestrator/expected/$c.xml
  n=$(grep -c '<vcpupin ' "$f"); u=$(sed -n 's/.*<vcpupin vcpu="[0-9]*" cpuset="\([0-9]*\)".*/\1/p' "$f" | sort -u | wc -l)
  [ "$n" = 64 ] && [ "$u" = 64 ] && ok "$c: 64 vCPUs on 64 distinct host CPUs" || bad "$c: $n vcpupin, $u distinct CPUs"
  sed -n 's/.*<vcpupin vcpu="[0-9]*" cpuset="\([0-9]*\)".*/\1/p' "$f" | grep -qxE '0|64|32|96' \
    && bad "$c: a vCPU on a CPU set apart" || ok "$c: no vCPU on the CPUs set apart (0,64 and 32,96)"
  [ "$(grep -c '<emulatorpin cpuset="0,64"/>' "$f")" = 4 ] && [ "$(grep -c '<emulatorpin cpuset="32,96"/>' "$f")" = 4 ] \
    && [ "$(grep -c 'nodeset="0"' "$f")" = 4 ] && [ "$(grep -c 'nodeset="1"' "$f")" = 4 ] \
    && [ "$(grep -c '<hugepages/>' "$f")" = 8 ] && [ "$(grep -c 'mode="host-passthrough"' "$f")" = 8 ] \
    && ok "$c: 4 VMs per node, emulators on their node's first core, hugepages, host-passthrough" \
    || bad "$c: placement per node"
done
[ "$(grep -c '<iothreadpin iothread="1" cpuset=' tests/orchestrator/expected/sysbench-linux-8vm-pinned.xml)" = 8 ] \
  && [ "$(grep -c '<iothreads>' tests/orchestrator/expected/sysbench-windows-8vm-pinned.xml)" = 0 ] \
  && ok "an I/O thread for virtio-scsi, none for lsisas1068" || bad "iothreads"
# plan estimate prints the placement map of test:///default (2 nodes of 8
# CPUs); a plan whose pinned VMs do not fit is refused (issue 31)
cat >"$tmp/pin.ini" <<INI
[run]
name = pin
uri = test:///default
profile = tiny
vmconfigs_dir = vmconfigs
image_dir = /srv/images
vcpus = 2
pinning = auto
[workload]
name = oltp_read_write
tables = 1
table_size = 10
measure = 10s
[drive d1]
pool = default-pool
vms = 2
INI
$DB plan estimate "$tmp/pin.ini" >"$tmp/out" 2>"$tmp/err"
[ $? = 0 ] && [ "$(tail -3 "$tmp/out")" = "placement on test:///default: pinning auto, 16 CPU(s) in 16 core(s) on 2 NUMA node(s)
  d1-vm1: vCPUs on CPUs 1,2, emulator and I/O thread on 0, memory on node 0
  d1-vm2: vCPUs on CPUs 9,10, emulator and I/O thread on 8, memory on node 1" ] \
  && ok "plan estimate prints the placement map" || { bad "placement map"; cat "$tmp/out" "$tmp/err"; }
sed -i 's/^vcpus = 2/vcpus = 8/' "$tmp/pin.ini"
expect "pinning = auto: VMs that do not fit are refused" 1 "drivebench: pinning = auto: 2 VM(s) x 8 vCPU(s) need 16 whole core(s) of 1 thread(s) and the host has 14 for vCPUs (16 core(s), 16 CPU(s), 2 NUMA node(s), one core per node set apart for emulators and I/O threads) on host test:///default; nothing was created (fewer VMs or vCPUs, or [run] overcommit = yes to run them unpinned)" \
  $DB plan estimate "$tmp/pin.ini"
sed -i 's/^pinning = auto/pinning = 1-8 9-16 17-24/' "$tmp/pin.ini"
expect "pinning: one cpuset per VM" 2 "[run] pinning: more CPU sets than the plan's 2 VM(s) ('17-24' and after)" \
  $DB validate "$tmp/pin.ini"
expect "render: pinning = auto needs the host's topology" 2 "drivebench: cannot read the capabilities file /nonexistent" \
  $DB render tests/orchestrator/render/sysbench-linux-8vm-pinned.ini --capabilities=/nonexistent
for prof in sysbench sqlserver tiny tiny-seed; do
  if virt-xml-validate vmconfigs/$prof.xml domain >/dev/null 2>&1; then ok "template $prof.xml is valid as it is"; else bad "template $prof.xml invalid"; fi
done

expect "list on the test driver" 0 "" $DB list --uri=test:///default
grep -q '^RUN-ID' "$tmp/out" && [ "$(wc -l < "$tmp/out")" -eq 1 ] && ok "list shows no runs" || bad "list output: $(cat "$tmp/out")"
expect "teardown of an unknown run" 0 "" $DB teardown quick-20261130-000000 --uri=test:///default
grep -qx 'teardown quick-20261130-000000: removed 0 domain(s), 0 volume(s), 0 pool(s)' "$tmp/out" && ok "teardown counts" || bad "teardown output: $(cat "$tmp/out")"
# without --uri, teardown reaches every host the run recorded in its folder,
# retrying (with backoff) the one that does not answer
mkdir -p "$tmp/results/quick-20261130-000000"
printf 'test:///default\nbogus+nothing:///x\n' >"$tmp/results/quick-20261130-000000/hosts"
expect "teardown of a run folder's path" 2 "drivebench: '$tmp/results/quick-20261130-000000/' is not a run id: give the run id, and the folder that holds its run folder with --results=DIR" \
  $DB teardown "$tmp/results/quick-20261130-000000/"
expect "teardown of a run reads its hosts" 1 "teardown: cannot connect to bogus+nothing:///x" \
  $DB teardown quick-20261130-000000 --results="$tmp/results"
grep -qF "teardown: bogus+nothing:///x: attempt 4 of 4 in 2000 ms" "$tmp/err" && ! grep -qF "test:///default: attempt" "$tmp/err" \
  && ok "teardown retries only the host that failed" || bad "teardown retries: $(cat "$tmp/err")"
grep -qx 'teardown quick-20261130-000000: removed 0 domain(s), 0 volume(s), 0 pool(s); objects remain on some hosts (see above)' "$tmp/out" \
  && ok "teardown says hosts remain" || bad "teardown output: $(cat "$tmp/out")"
expect "plan get image_pool_path" 0 "" $DB plan get "drive host2-nvme" image_pool_path plans/two-hosts.ini
[ "$(cat "$tmp/out")" = /var/lib/drivebench/images ] && ok "two-hosts plan: image_pool_path" || bad "image_pool_path: $(cat "$tmp/out")"

# oltp processes a killed drivebench left (recorded in RUN_DIR/clients):
# list counts the live ones, teardown ends them, and never a process whose
# start time differs (the pid was reused), nor one whose program is not
# the one the run started (its executable's device:inode, recorded at
# launch), nor one of a line without that record (issue 43)
rid=left-20261130-000000
mkdir -p "$tmp/res/$rid"
setsid sleep 300 & left=$!
setsid sleep 300 & foreign=$!
setsid sleep 300 & old=$!
sleep 0.2
start_of() { sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20; }
exe_of() { stat -L -c '%d:%i' "$1"; }
{ echo "$left $(start_of $left) $(exe_of /proc/$left/exe) drivebench-$rid--d1-vm1"
  echo "$$ 1 $(exe_of /proc/$$/exe) drivebench-$rid--d1-vm2"
  echo "$foreign $(start_of $foreign) $(exe_of bin/oltp) drivebench-$rid--d1-vm3"
  echo "$old $(start_of $old) drivebench-$rid--d1-vm4"
  echo "999999999 5 1:1 drivebench-$rid--d2-vm1"; } > "$tmp/res/$rid/clients"
expect "list with a leftover oltp" 0 "" $DB list --uri=test:///default --results="$tmp/res"
grep -qE "^$rid +- +0 +0 +0 +1\$" "$tmp/out" && ok "list counts the one live leftover oltp" || bad "list: $(cat "$tmp/out")"
expect "teardown ends leftover oltp processes" 0 "drivebench: ending oltp (pid $left) of drivebench-$rid--d1-vm1, left over from the run" \
  $DB teardown $rid --uri=test:///default --results="$tmp/res"
grep -qx "teardown $rid: removed 0 domain(s), 0 volume(s), 0 pool(s); ended 1 oltp process(es)" "$tmp/out" \
  && ok "teardown counts the ended process" || bad "teardown output: $(cat "$tmp/out")"
[ "$(grep -c 'not the oltp' "$tmp/err")" = 2 ] \
  && grep -qxF "drivebench: pid $foreign (recorded for drivebench-$rid--d1-vm3) is not the oltp the run started: its program differs; left alone" "$tmp/err" \
  && grep -qxF "drivebench: pid $old (recorded for drivebench-$rid--d1-vm4) is not the oltp the run started: its program differs; left alone" "$tmp/err" \
  && ok "teardown says which recorded processes are not ours" || bad "teardown's foreign lines: $(cat "$tmp/err")"
wait $left 2>/dev/null
kill -0 $left 2>/dev/null && { bad "the leftover still runs"; kill $left; } || ok "the leftover is gone"
kill -0 $$ && ok "a pid with another start time is left alone" || bad "killed a reused pid"
kill -0 $foreign 2>/dev/null && ok "a foreign program with its real start time is left alone" || bad "killed a foreign program"
kill -0 $old 2>/dev/null && ok "a record without the program's identity is left alone" || bad "killed a process of a record without identity"
kill $foreign $old 2>/dev/null; wait $foreign $old 2>/dev/null
[ ! -e "$tmp/res/$rid/clients" ] && ok "the record is removed" || bad "record left"

# real runs on the test driver; the default readiness check (guest agent)
# never succeeds there, so the run sits in its boot wait
plan() {
  cat > "$tmp/run.ini" <<PLAN
[run]
name = cli run
uri = $NODE
profile = tiny
vmconfigs_dir = vmconfigs
image_dir = /srv/images
results_dir = $tmp/results
oltp = $PWD/tests/orchestrator/fake-oltp
domain_type = qemu
port_base = 47200
boot_timeout = $1
[workload]
name = oltp_read_write
tables = 1
table_size = 10
measure = 1s
db_password = hunter2
[drive d1]
path = /srv/d1
vms = 2
[drive d2]
pool = userpool
PLAN
}
plan 2m
# started as a background job: SIGINT ignored, and kept so (nohup's
# convention, util/stop.h); SIGTERM still stops the run
$DB run "$tmp/run.ini" --run-id=cli-bg-20261130-000000 >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 600); do grep -q "waiting for 3 VM" "$tmp/err" && break; sleep 0.1; done
kill -INT $pid; sleep 1
kill -0 $pid 2>/dev/null && ok "a background run ignores SIGINT, as its starter asked" || bad "background run stopped by SIGINT"
kill -TERM $pid; wait $pid; st=$?
[ $st -eq 130 ] && grep -qF "drivebench: interrupted by signal 15; tearing down" "$tmp/err" \
  && ok "SIGTERM stops a background run (exit 130)" || { bad "SIGTERM: exit $st"; cat "$tmp/err"; }
# started as from a terminal: SIGINT at its default
env --default-signal=INT $DB run "$tmp/run.ini" --run-id=cli-run-20261130-000000 >"$tmp/out" 2>"$tmp/err" &
pid=$!
for _ in $(seq 600); do grep -q "waiting for 3 VM" "$tmp/err" && break; sleep 0.1; done
kill -INT $pid
wait $pid; st=$?
# (no clock: the run waits for boot_timeout 2m otherwise, and ends with
# exit 1 and no "interrupted" line)
[ $st -eq 130 ] && ok "SIGINT during a run exits 130" || { bad "SIGINT: exit $st"; cat "$tmp/err"; }
grep -qF "drivebench: interrupted by signal 2; tearing down" "$tmp/err" && \
grep -qF "teardown: removed 3 domain(s), 6 volume(s), 0 pool(s)" "$tmp/err" && \
grep -qF "teardown: removed 0 domain(s), 0 volume(s), 1 pool(s)" "$tmp/err" \
  && ok "SIGINT tears down every domain, volume and pool" || { bad "SIGINT teardown"; cat "$tmp/err"; }
[ -f "$tmp/results/cli-run-20261130-000000/plan.ini" ] && ok "the plan is copied into the run folder" || bad "no plan copy"
copy="$tmp/results/cli-run-20261130-000000/plan.ini"
[ "$(grep -c hunter2 "$copy")" = 0 ] && [ "$(grep -x 'db_password = \*\*\*\*\*\*\*\*' "$copy")" = 'db_password = ********' ] \
  && ok "the copy shows the password as ********" || { bad "password in the plan copy"; cat "$copy"; }
sed 's/^db_password = .*/db_password = ********/' "$tmp/run.ini" | diff -u - "$copy" >/dev/null \
  && ok "the copy is the plan, byte for byte, but for the password" || bad "plan copy differs otherwise"
grep -qxF "$tmp/run.ini:17: warning: [workload] db_password is written in the plan; prefer db_password_env or db_password_file (plans/README.md)" "$tmp/err" \
  && ok "a password written in the plan is warned about" || { bad "no warning"; cat "$tmp/err"; }

# [run] metrics on a port something else holds: the run stops before it
# creates anything, saying why
python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True); time.sleep(60)' > "$tmp/holder" &
holder=$!
for _ in $(seq 600); do [ -s "$tmp/holder" ] && break; sleep 0.1; done
held=$(cat "$tmp/holder")
plan 1s
sed -i "s/^boot_timeout = .*/&\nmetrics = 127.0.0.1:$held/" "$tmp/run.ini"
expect "metrics on a port in use fails the run" 1 "drivebench: [run] metrics: cannot listen on 127.0.0.1:$held: Address already in use" \
  $DB run "$tmp/run.ini" --run-id=cli-run-20261130-000009
kill $holder; wait $holder 2>/dev/null
! grep -q "^repetition\|teardown: removed [1-9]" "$tmp/err" && [ ! -e "$tmp/results/cli-run-20261130-000009/plan.ini" ] \
  && ok "a refused metrics address creates nothing" || { bad "metrics refusal went on"; cat "$tmp/err"; }

plan 1s
expect "boot timeout fails the run" 1 "drivebench: no console log at $tmp/results/cli-run-20261130-000001/console/drivebench-cli-run-20261130-000001--d1-vm1.r1.log" \
  $DB run "$tmp/run.ini" --run-id=cli-run-20261130-000001
grep -qF "teardown: removed 3 domain(s), 6 volume(s), 0 pool(s)" "$tmp/err" && ok "boot timeout tears down" || bad "boot timeout teardown"
grep -qxF "$NODE: domain type qemu (asked for)" "$tmp/err" && ok "the plan's domain type is named once" \
  || { bad "domain type line"; cat "$tmp/err"; }
expect "--domain-type overrides the plan's" 1 "drivebench: no console log" \
  $DB run "$tmp/run.ini" --run-id=cli-run-20261130-000002 --domain-type=kvm
[ "$(grep -c "domain type" "$tmp/err")" = 1 ] && grep -qxF "$NODE: domain type kvm (asked for)" "$tmp/err" \
  && ok "the run uses the domain type of --domain-type" || { bad "--domain-type"; cat "$tmp/err"; }
expect "--domain-type takes kvm, qemu or auto" 2 "drivebench: --domain-type=xen: expected kvm, qemu or auto" \
  $DB run "$tmp/run.ini" --domain-type=xen
expect "--domain-type is an option of run only" 2 "drivebench: unknown option --domain-type=kvm" \
  $DB render "$tmp/run.ini" --domain-type=kvm

# network = passt needs root (a network namespace per VM, entered with
# setns): a user's run is refused before anything is made; as root the
# same plan validates. Run as nobody (setpriv) where this runs as root.
pn=$tmp/nobody
mkdir -m 0755 "$pn"
cat >"$pn/plan.ini" <<PLAN
[run]
name = passt as a user
uri = test:///default
profile = tiny
engine = postgresql
network = passt
passt = /bin/true
results_dir = $pn/results
[workload]
name = oltp_read_write
tables = 1
table_size = 1000
threads = 1
measure = 10s
[drive d1]
path = $pn/d1
PLAN
expect "network = passt validates as root" 0 "" $DB validate "$pn/plan.ini"
asnobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
  echo "skip - network = passt as a user: needs root and setpriv to become nobody"
else
  chmod 0755 "$tmp"
  if ! asnobody "$DB" validate "$pn/plan.ini" >/dev/null 2>&1; then
    echo "skip - network = passt as a user: nobody cannot read this checkout"
  else
    expect "network = passt refused to a user" 2 "drivebench: [run] network = passt makes a network namespace for each VM and enters it, which needs root: run drivebench as root, or use network = user" \
      asnobody "$DB" run "$pn/plan.ini"
    [ "$(wc -l <"$tmp/err")" = 1 ] && [ ! -e "$pn/results" ] \
      && ok "network = passt as a user: one line, nothing made" \
      || { bad "network = passt as a user: $(cat "$tmp/err"; ls "$pn")"; }
  fi
fi

# --- resume, bundle and verify (issue 34): exact messages; the resume
# itself, after a SIGKILL, and the verifier's findings are
# tests/orchestrator/test_resume.c's ---
R="$tmp/results"
expect "resume: not a run id" 2 "drivebench: '../x' is not a run id (see \`drivebench list\`)" $DB resume ../x
expect "resume: no run folder" 2 "drivebench: no run folder $R/nope-20261130-000000 with its plan.ini (see --results)" \
  $DB resume nope-20261130-000000 --results="$R"
expect "resume: the run's copy hides the password" 2 "drivebench: $R/cli-run-20261130-000000/plan.ini hides the plan's secrets (********): give the plan with --plan=PLAN" \
  $DB resume cli-run-20261130-000000 --results="$R"
# the run stopped in its first repetition (SIGINT above): nothing kept,
# repetition 1 again (and its boot timeout of 1 s, on the test driver)
expect "resume of a run stopped in repetition 1" 1 "resume cli-run-20261130-000000: 0 complete repetition(s) kept; repetition 1 runs again from its start" \
  $DB resume cli-run-20261130-000000 --results="$R" --plan="$tmp/run.ini"
grep -qxF "resume cli-run-20261130-000000: the stopped run left 0 oltp process(es), 0 domain(s), 0 volume(s), 0 pool(s): removed" "$tmp/err" \
  && ok "resume cleans up first" || { bad "resume clean-up line"; cat "$tmp/err"; }
expect "bundle of a run without summary" 2 "drivebench: $R/cli-run-20261130-000001 has no summary.json: not a run folder, or a run that stopped in its first repetition" \
  $DB bundle cli-run-20261130-000001 --results="$R"
expect "verify: missing argument" 2 "drivebench: missing BUNDLE argument" $DB verify
expect "verify: not a bundle" 2 "drivebench: $tmp/run.ini: not a drivebench bundle: Unrecognized archive format" $DB verify "$tmp/run.ini"
mkdir -p "$tmp/fx" && cp -r results/fixtures/report-failed "$tmp/fx/report-failed-20261130-000000"
FXR="$tmp/fx/report-failed-20261130-000000"
# a bundle is a whole ended run: the fixture has no report (issue 43)
expect "bundle of a run folder without its report" 2 "drivebench: $FXR has no report.html: not the folder of an ended run (\`drivebench report $FXR\` writes report.html and report.csv)" \
  $DB bundle report-failed-20261130-000000 --results="$tmp/fx" --out="$tmp/fx.tar.gz"
[ ! -e "$tmp/fx.tar.gz" ] && [ ! -e "$tmp/fx.tar.gz.part" ] && ok "a refused bundle leaves no file" || bad "refused bundle left a file"
$DB report "$FXR" >/dev/null
expect "bundle of a fixture" 0 "" $DB bundle report-failed-20261130-000000 --results="$tmp/fx" --out="$tmp/fx.tar.gz"
grep -qxF "bundle report-failed-20261130-000000: $tmp/fx.tar.gz, 13 file(s) and MANIFEST.sha256" "$tmp/out" \
  && ok "bundle names its file" || { bad "bundle line: $(cat "$tmp/out")"; }
mkdir -p "$tmp/unp" && tar -C "$tmp/unp" -xzf "$tmp/fx.tar.gz" \
  && (cd "$tmp/unp/report-failed-20261130-000000" && sha256sum --quiet -c MANIFEST.sha256) \
  && ok "sha256sum -c checks the unpacked bundle" || bad "sha256sum -c"
# a summary of an older minor: recomputed by today's aggregation, and said so
$DB verify "$tmp/fx.tar.gz" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st = 1 ] && [ "$(head -1 "$tmp/out")" = "note: summary.json is drivebench.summary/2, this drivebench writes drivebench.summary/2.3: what its aggregation does otherwise shows as mismatches" ] \
  && ok "verify of an older summary says why it differs" || { bad "verify older: exit $st"; head -3 "$tmp/out"; }
# --- signed bundles and what verify proves (issue 43); the signature of a
# bundle that verifies is tests/orchestrator/test_resume.c's ---
ID=report-failed-20261130-000000
ssh-keygen -q -t ed25519 -N '' -C alice -f "$tmp/alice" && ssh-keygen -q -t ed25519 -N '' -C mallory -f "$tmp/mallory"
echo "alice@example.org namespaces=\"drivebench\" $(cat "$tmp/alice.pub")" > "$tmp/allowed"
# repack TAR FROM: the unpacked folder FROM/$ID as the bundle TAR
repack() { tar -C "$1" -czf "$2" "$ID"; }
# a run stripped of its report, the manifest rewritten to match: consistent, and refused
rm -rf "$tmp/strip" && mkdir "$tmp/strip" && tar -C "$tmp/strip" -xzf "$tmp/fx.tar.gz" \
  && rm "$tmp/strip/$ID/report.html" && sed -i '/  report.html$/d' "$tmp/strip/$ID/MANIFEST.sha256" && repack "$tmp/strip" "$tmp/strip.tar.gz"
$DB verify "$tmp/strip.tar.gz" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st = 1 ] && grep -qxF "mismatch: report.html: file: every ended run writes it, missing from the bundle and MANIFEST.sha256" "$tmp/out" \
  && ok "verify refuses a bundle stripped of its report" || { bad "verify stripped: exit $st"; grep -v 'summary.json' "$tmp/out"; }
expect "bundle --sign" 0 "" $DB bundle $ID --results="$tmp/fx" --out="$tmp/signed.tar.gz" --sign="$tmp/alice"
grep -qxF "bundle $ID: $tmp/signed.tar.gz, 13 file(s) and MANIFEST.sha256, signed" "$tmp/out" \
  && ok "bundle says it signed" || bad "bundle --sign line: $(cat "$tmp/out")"
rm -rf "$tmp/sg" && mkdir "$tmp/sg" && tar -C "$tmp/sg" -xzf "$tmp/signed.tar.gz"
grep -qE '^# signed-at: [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' <(head -1 "$tmp/sg/$ID/MANIFEST.sha256") \
  && (cd "$tmp/sg/$ID" && sha256sum --quiet --strict -c MANIFEST.sha256) \
  && ssh-keygen -Y verify -f "$tmp/allowed" -I alice@example.org -n drivebench -s "$tmp/sg/$ID/MANIFEST.sha256.sig" < "$tmp/sg/$ID/MANIFEST.sha256" >/dev/null 2>&1 \
  && ok "the signed manifest: its time, sha256sum -c, ssh-keygen -Y verify" || bad "signed manifest"
# forged: one sum of the signed manifest changed (the figures doubled and
# the manifest rewritten, as an unsigned bundle allows)
sed -i 's/^[0-9a-f]*  report.csv$/0000000000000000000000000000000000000000000000000000000000000000  report.csv/' "$tmp/sg/$ID/MANIFEST.sha256"
repack "$tmp/sg" "$tmp/forged.tar.gz"
$DB verify "$tmp/forged.tar.gz" --signers="$tmp/allowed" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st = 1 ] && [ ! -s "$tmp/err" ] && [ "$(cat "$tmp/out")" = "not verified: $ID: the signature does not match MANIFEST.sha256: it was changed after signing, or forged (ssh-keygen: Could not verify signature.)" ] \
  && ok "verify --signers refuses a forged manifest in one line" || bad "verify forged: exit $st: $(cat "$tmp/out" "$tmp/err")"
# the signature dropped: unsigned, which --signers refuses
rm "$tmp/sg/$ID/MANIFEST.sha256.sig" && repack "$tmp/sg" "$tmp/nosig.tar.gz"
$DB verify "$tmp/nosig.tar.gz" --signers="$tmp/allowed" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st = 1 ] && [ "$(cat "$tmp/out")" = "not verified: $ID: unsigned: no MANIFEST.sha256.sig, and --signers asks who signed it" ] \
  && ok "verify --signers refuses an unsigned bundle in one line" || bad "verify unsigned: exit $st: $(cat "$tmp/out")"
# a signer the file does not allow
$DB bundle $ID --results="$tmp/fx" --out="$tmp/mallory.tar.gz" --sign="$tmp/mallory" >/dev/null
$DB verify "$tmp/mallory.tar.gz" --signers="$tmp/allowed" >"$tmp/out" 2>"$tmp/err"; st=$?
[ $st = 1 ] && [ "$(cat "$tmp/out")" = "not verified: $ID: signed by a key that $tmp/allowed does not allow (ssh-keygen: No principal matched.)" ] \
  && ok "verify --signers refuses a signer not allowed in one line" || bad "verify mallory: exit $st: $(cat "$tmp/out")"
expect "verify: unreadable signers" 2 "drivebench: cannot read $tmp/nosigners: No such file or directory" $DB verify "$tmp/signed.tar.gz" --signers="$tmp/nosigners"
expect "bundle: no such key" 2 "drivebench: cannot sign with $tmp/nokey: Couldn't load public key $tmp/nokey: No such file or directory" \
  $DB bundle $ID --results="$tmp/fx" --out="$tmp/nokey.tar.gz" --sign="$tmp/nokey"
[ ! -e "$tmp/nokey.tar.gz" ] && [ ! -e "$tmp/nokey.tar.gz.part" ] && ok "a bundle that cannot be signed leaves no file" || bad "unsigned bundle left"
[ -z "$(find /tmp -maxdepth 1 -name 'drivebench-sign-*' -newer "$tmp/allowed" 2>/dev/null)" ] && ok "signing leaves no temporary folder" || bad "drivebench-sign-* left in /tmp"
expect "verify: --sign is bundle's" 2 "drivebench: unknown option --sign=$tmp/alice (see drivebench --help)" $DB verify "$tmp/signed.tar.gz" --sign="$tmp/alice"

# --- summarize (issue 42): a fixture's summary made again from its VM
# results; written by an older drivebench, so this one's twice over must
# agree byte for byte (a fresh run's own summary is reproduced in
# tests/orchestrator/test_resume.c) ---
expect "summarize: missing argument" 2 "drivebench: missing RUN_DIR argument" $DB summarize
expect "summarize: not a run folder" 2 "drivebench: tests/report: cannot be summarized: tests/report/summary.json: No such file or directory" \
  $DB summarize tests/report --out="$tmp/nosum"
[ ! -e "$tmp/nosum" ] && ok "summarize of no run folder writes nothing" || bad "summarize left $tmp/nosum"
expect "summarize: no folder" 2 "drivebench: $tmp/none: cannot be summarized: $tmp/none/summary.json: No such file or directory" \
  $DB summarize "$tmp/none"
[ ! -e "$tmp/none" ] && ok "summarize of no folder makes none" || bad "summarize made $tmp/none"
cp -r results/fixtures/report-reps "$tmp/sumfx"
expect "summarize a fixture in place" 0 "" $DB summarize "$tmp/sumfx"
[ "$(cat "$tmp/out")" = "summarize report-reps: $tmp/sumfx/summary.json, $tmp/sumfx/summary.csv" ] \
  && ok "summarize names what it wrote" || bad "summarize line: $(cat "$tmp/out")"
expect "summarize the summarized fixture" 0 "" $DB summarize "$tmp/sumfx" --out="$tmp/sumfx2"
cmp -s "$tmp/sumfx/summary.json" "$tmp/sumfx2/summary.json" && cmp -s "$tmp/sumfx/summary.csv" "$tmp/sumfx2/summary.csv" \
  && ok "summarize reproduces its own summary byte for byte" || bad "summarize twice differs: $(diff "$tmp/sumfx/summary.json" "$tmp/sumfx2/summary.json" | head -5)"
[ "$(jq -c '[.comparisons[] | [.method, .verdict]]' "$tmp/sumfx/summary.json")" = '[["tps_paired","too short"],["p99_paired","not comparable"],["tps_welch","not distinguishable"],["p99_welch","not distinguishable"]]' ] \
  && ok "summarize adds the fixture's comparisons" || bad "summarize comparisons: $(jq -c '[.comparisons[] | [.method, .verdict]]' "$tmp/sumfx/summary.json")"

# --- plan power (issue 42 item 4): how long to measure, from a pilot run
# made by bin/stats-sim (one trial through oltp's result files, kept as a
# run folder that summarize reads); the measure time it prints is
# confirmed by the same simulation at that length (>= 80 %) and refuted
# at half of it; bad input in one line, exit 2 ---
SIM=${STATS_SIM:-bin/stats-sim}
"$SIM" --seed 7 --trials 1 --phi 0.5 --n 600 --txns 500 --interval 1 --files --pilot "$tmp/pilot" >/dev/null \
  && "$SIM" --seed 7 --trials 1 --phi 0.5 --n 600 --txns 50 --interval 1 --files --pilot "$tmp/pilot50" >/dev/null \
  && ok "stats-sim --pilot makes run folders" || bad "stats-sim --pilot failed"
pplan() {   # pplan MEASURE: a plan of one repetition measuring MEASURE
  printf '[run]\nname = pw\nuri = %s\nprofile = tiny\nimage_dir = /srv/images\nmemory = 4G\n[workload]\nname = oltp_read_write\ntables = 1\ntable_size = 10\nmeasure = %s\n[drive d1]\npool = userpool\n' \
    "$NODE" "$1" >"$tmp/pw.ini"
}
pplan 10m
assumed="assumed: each drive's intervals an AR(1) signal plus white noise with the pilot's mean, variance and autocorrelation (the decay the batch rule reads); the two drives independent (noise they share cancels in a paired run: this errs long); the first drive better by the difference (TPS x 1.05, latency / 1.05); each comparison alone (Holm's adjustment over a run's family asks more)"
$DB plan power "$tmp/pw.ini" --from="$tmp/pilot" --effect=5% >"$tmp/out" 2>"$tmp/err"; st=$?
cat >"$tmp/want" <<TXT
power of $tmp/pw.ini: a 5 % difference found in 80 % of 200 simulated runs (seed 42), 1 repetition(s) of 1-s intervals, from the pilot stats-sim
  drive-0 tps: 600 intervals of 473 transactions, mean 473.2, sd 109, lag-1 0.47, decay 0.47, signal 100 % of the variance
  drive-0 p-latency: 600 intervals of 473 transactions, mean 9.457 ms, sd 1.26, lag-1 0.32, decay 0.32, signal 100 % of the variance
  drive-1 tps: 600 intervals of 517 transactions, mean 517.4, sd 109, lag-1 0.53, decay 0.53, signal 100 % of the variance
  drive-1 p-latency: 600 intervals of 517 transactions, mean 9.535 ms, sd 1.28, lag-1 0.27, decay 0.28, signal 100 % of the variance
  drive-0 vs drive-1 tps_paired: measure 874 s (874 intervals; power 81.5 %); the plan's 600 s: 55.0 %
  drive-0 vs drive-1 p99_paired: measure 337 s (337 intervals; power 81.5 %); the plan's 600 s: 95.0 %
$assumed
TXT
if [ $st -eq 0 ] && diff -u "$tmp/want" "$tmp/out" && [ ! -s "$tmp/err" ]; then ok "plan power: exact"
else bad "plan power: exit $st"; cat "$tmp/err"; fi
# the simulation at the length printed: >= 80 %; at half of it: below
pplan 874s
$DB plan power "$tmp/pw.ini" --from="$tmp/pilot" --effect=5% --figure=tps >"$tmp/out" 2>&1
grep -qxF "  drive-0 vs drive-1 tps_paired: measure 874 s (874 intervals; power 81.5 %); the plan's 874 s: 81.5 %" "$tmp/out" \
  && ok "plan power: its measure time reaches 80 %" || bad "plan power at 874 s: $(cat "$tmp/out")"
pplan 437s
$DB plan power "$tmp/pw.ini" --from="$tmp/pilot" --effect=5% --figure=tps >"$tmp/out" 2>&1
grep -qxF "  drive-0 vs drive-1 tps_paired: measure 874 s (874 intervals; power 81.5 %); the plan's 437 s: 21.5 %" "$tmp/out" \
  && ok "plan power: half of it does not" || bad "plan power at 437 s: $(cat "$tmp/out")"
[ "$(grep -c ' p-latency\| p99_paired' "$tmp/out")" -eq 0 ] && ok "plan power --figure=tps: TPS only" || bad "plan power --figure=tps: $(cat "$tmp/out")"
# 50 transactions an interval: no p99 verdict at any length, what to change
pplan 10m
$DB plan power "$tmp/pw.ini" --from="$tmp/pilot50" --effect=10% >"$tmp/out" 2>&1
grep -qxF "  drive-0 vs drive-1 p99_paired: never at 47 transactions per interval (a verdict needs 300): intervals of at least 7 s (oltp --report-interval) or more VMs per drive" "$tmp/out" \
  && grep -qxF "  drive-0 vs drive-1 tps_paired: measure 534 s (534 intervals; power 83.5 %); the plan's 600 s: 93.0 %" "$tmp/out" \
  && ok "plan power: a p99 of too few transactions is never, with what to change" || bad "plan power pilot50: $(cat "$tmp/out")"
# plan estimate shows the same when given a pilot
$DB plan estimate "$tmp/pw.ini" --from="$tmp/pilot" --effect=5% >"$tmp/out" 2>"$tmp/err"; st=$?
if [ $st -eq 0 ] && grep -qxF 'duration: 1 repetition(s) x (precondition 0:00:00 + measure 0:10:00) = 0:10:00' "$tmp/out" \
   && grep -qxF "  drive-0 vs drive-1 tps_paired: measure 874 s (874 intervals; power 81.5 %); the plan's 600 s: 55.0 %" "$tmp/out"; then
  ok "plan estimate --from: the estimate and the power"
else bad "plan estimate --from: exit $st"; cat "$tmp/out" "$tmp/err"; fi
# bad input: one line, exit 2, nothing on stdout
pbad() {   # pbad NAME MESSAGE ARGS...
  local name=$1 want=$2; shift 2
  $DB plan power "$@" >"$tmp/out" 2>"$tmp/err"; local got=$?
  if [ $got -eq 2 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ]; then ok "plan power: $name"
  else bad "plan power: $name: exit $got: $(cat "$tmp/err")"; fi
}
pbad "no --from" "drivebench: plan power: missing --from=RUN_DIR (a pilot run's folder)" "$tmp/pw.ini" --effect=5%
pbad "no --effect" "drivebench: plan power: missing --effect=PCT% (the difference to find)" "$tmp/pw.ini" --from="$tmp/pilot"
pbad "no run folder" "drivebench: $tmp/nopilot: no pilot run: $tmp/nopilot/summary.json: No such file or directory" \
  "$tmp/pw.ini" --from="$tmp/nopilot" --effect=5%
pbad "effect 0" "drivebench: --effect: '0%' is not a difference in percent over 0 and at most 100 (e.g. --effect=5%)" \
  "$tmp/pw.ini" --from="$tmp/pilot" --effect=0%
pbad "effect 150" "drivebench: --effect: '150' is not a difference in percent over 0 and at most 100 (e.g. --effect=5%)" \
  "$tmp/pw.ini" --from="$tmp/pilot" --effect=150
pbad "effect not a number" "drivebench: --effect: '5x' is not a difference in percent over 0 and at most 100 (e.g. --effect=5%)" \
  "$tmp/pw.ini" --from="$tmp/pilot" --effect=5x
pbad "a run without the figure" "drivebench: results/fixtures/report-4vm: the pilot has no p-latency series of at least 100 intervals to size a comparison by (its longest: 0; a measured phase's interval histograms make one)" \
  "$tmp/pw.ini" --from=results/fixtures/report-4vm --effect=5% --figure=p
pbad "a pilot too short" "drivebench: results/fixtures/report-4vm: the pilot has no interval TPS series of at least 100 intervals to size a comparison by (its longest: 5)" \
  "$tmp/pw.ini" --from=results/fixtures/report-4vm --effect=5%
pbad "unknown option" "drivebench: unknown option --fast (see drivebench --help)" "$tmp/pw.ini" --from="$tmp/pilot" --effect=5% --fast
expect "plan estimate: --effect without a pilot" 2 "drivebench: plan estimate: --effect and --figure go with --from=RUN_DIR" \
  $DB plan estimate "$tmp/pw.ini" --effect=5%

# --- protocols and the ranking (issue 22): exact messages ---
F=results/fixtures
expect "report refuses a results directory" 2 "drivebench: results/fixtures is a results directory, not a run folder: \`drivebench report --rank results/fixtures\` ranks its runs; \`drivebench report\` takes run folders" $DB report $F
expect "rank: unknown highlight" 2 "drivebench: --highlight nvme-z: no complete drive of that name in the runs ranked" $DB report --rank --highlight nvme-z -o "$tmp/rank" $F
expect "rank: unknown baseline" 2 "drivebench: --baseline sata-z: no complete drive of that name in the runs ranked" $DB report --rank --baseline=sata-z -o "$tmp/rank" $F/report-4vm
expect "rank: no run in a folder" 2 "drivebench: tests/report: neither a run folder nor a results directory (no summary.json in it or its subfolders)" $DB report --rank -o "$tmp/rank" tests/report
expect "rank: no folder" 2 "drivebench: missing RUN_OR_RESULTS_DIR argument (usage: drivebench report --rank [--all-runs] [--highlight NAME] [--baseline DRIVE] [--png] [-o DIR] RUN_OR_RESULTS_DIR...)" $DB report --rank
expect "rank: option without its value" 2 "drivebench: unknown or incomplete option --highlight (usage:" $DB report --rank $F --highlight
# issue 29: a NaN, an inf or a negative figure in a summary is refused,
# file, key and value, exit 2, nothing written
cp -r $F/report-4vm "$tmp/nan4" && python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["drives"][0]["repetitions"][0]["tps"]=float("nan"); d["drives"][1]["tps"]=float("inf"); json.dump(d, open(p, "w"))' "$tmp/nan4/summary.json"
expect "report refuses NaN in a summary" 2 "drivebench: $tmp/nan4/summary.json: drives[0].repetitions[0].tps: nan (not a finite number >= 0)" $DB report "$tmp/nan4" -o "$tmp/nan.html"
if [ ! -e "$tmp/nan.html" ] && [ ! -e "$tmp/nan.csv" ]; then ok "report of a refused summary writes nothing"; else bad "report of a refused summary left files"; fi
python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["drives"][0]["repetitions"][0]["tps"]=100; json.dump(d, open(p, "w"))' "$tmp/nan4/summary.json"
expect "rank refuses inf in a summary" 2 "drivebench: $tmp/nan4/summary.json: drives[1].tps: inf (not a finite number >= 0)" $DB report --rank -o "$tmp/nanrank" "$tmp/nan4"
python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["drives"][1]["tps"]=1; d["drives"][0]["repetitions"][0]["tps"]=-50; json.dump(d, open(p, "w"))' "$tmp/nan4/summary.json"
expect "report refuses a negative TPS" 2 "drivebench: $tmp/nan4/summary.json: drives[0].repetitions[0].tps: -50 (not a finite number >= 0)" $DB report "$tmp/nan4" -o "$tmp/nan.html"
[ ! -e "$tmp/rank" ] && ok "rank: a refusal leaves no output folder" || bad "rank: output folder left after a refusal"
out=$($DB report $F/report-4vm $F/report-8vm $F/report-8vm-pg -o "$tmp/eng.html"); st=$?
want="protocols: 2 (drives of different protocols are not ranked or scaled together)
  P1: A report-4vm (2 drives × 4 VMs), B report-8vm (1 drive × 8 VMs)
  P2: C report-8vm-pg (1 drive × 8 VMs): differs from P1 in engine
report: $tmp/eng.html
csv: $tmp/eng.csv"
if [ $st -eq 0 ] && [ "$out" = "$want" ]; then ok "report names the key in which protocols differ"; else bad "report protocols (exit $st): $out"; fi
# the PostgreSQL run's drive has no scaling ratio against the MariaDB runs
ratio=$(awk -F, '$1=="\"report-8vm-pg\"" {print $21 "|" $22}' "$tmp/eng.csv")
if [ "$ratio" = "|" ]; then ok "no scaling ratio across engines"; else bad "scaling across engines: $ratio"; fi
# TPC-C: one tpmC chart per protocol, each with its own drives' bars only
cp -r $F/tpcc "$tmp/tpcc-pg" && python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); d["fingerprint"]["engine"]="postgresql"; json.dump(d, open(p, "w"))' "$tmp/tpcc-pg/summary.json"
$DB report $F/tpcc "$tmp/tpcc-pg" -o "$tmp/tpmc.html" >/dev/null
bars=$(python3 - "$tmp/tpmc.html" <<'PY'
import re, sys
s = open(sys.argv[1]).read()
out = []
for cid in ("chart-tpmc", "chart-tpmc-p2"):
    m = re.search(r'<svg[^>]*id="%s"[^>]*>(.*?)</svg>' % cid, s, re.S)
    out.append("%s:%s" % (cid, ",".join(re.findall(r'<g class="bar" data-label="([^"]*)"', m.group(1))) if m else "none"))
print(" ".join(out))
PY
)
a=$(jq -r '[.drives[].name | . + " [A]"] | join(",")' $F/tpcc/summary.json)
b=$(jq -r '[.drives[].name | . + " [B]"] | join(",")' $F/tpcc/summary.json)
if [ "$bars" = "chart-tpmc:$a chart-tpmc-p2:$b" ]; then ok "tpmC charted per protocol ($bars)"; else bad "tpmC charts across protocols: $bars (want chart-tpmc:$a chart-tpmc-p2:$b)"; fi
cp -r $F/report-4vm "$tmp/old4" && python3 -c 'import json,sys; p=sys.argv[1]; d=json.load(open(p)); del d["fingerprint"]; json.dump(d, open(p, "w"))' "$tmp/old4/summary.json"
out=$($DB report "$tmp/old4" $F/report-8vm -o "$tmp/old.html" | head -3)
want="protocols: 2 (drives of different protocols are not ranked or scaled together)
  P1: A report-4vm (2 drives × 4 VMs): no fingerprint (older run)
  P2: B report-8vm (1 drive × 8 VMs): not comparable with P1, no fingerprint (older run)"
if [ "$out" = "$want" ]; then ok "a run without a fingerprint is kept apart"; else bad "older run: $out"; fi
out=$($DB report --rank --all-runs --highlight nvme-a -o "$tmp/all" $F/report-4vm $F/report-8vm $F/report-failed); st=$?
want="P1: 4 drive(s) ranked from 3 run(s)
  left out: nvme-a [report-failed]: incomplete (a VM failed)
ranking: $tmp/all/rank.html
csv: $tmp/all/rank.csv
svg: 3 file(s) in $tmp/all"
if [ $st -eq 0 ] && [ "$out" = "$want" ]; then ok "rank --all-runs keeps every complete run and names the incomplete"; else bad "rank --all-runs (exit $st): $out"; fi
# --png: each chart also as a PNG, twice its size (the pixels are checked
# in tests/report/test_rank.c)
out=$($DB report --rank --png -o "$tmp/png" $F/report-4vm); st=$?
if [ $st -eq 0 ] && [ "$(echo "$out" | tail -1)" = "png: 3 file(s) in $tmp/png (twice the charts' size)" ] \
   && [ "$(file -b "$tmp/png/p1-tps.png" | cut -d, -f1-2)" = "PNG image data, 1920 x $(( 2 * $(sed -n 's/.* height="\([0-9]*\)".*/\1/p' "$tmp/png/p1-tps.svg" | head -1) ))" ]; then
  ok "rank --png: one PNG per chart at twice its size"
else
  bad "rank --png (exit $st): $out; $(file -b "$tmp/png/p1-tps.png")"
fi
# a folder where the PNGs cannot be written: one line, exit 1
mkdir -p "$tmp/ro" && chmod 0555 "$tmp/ro"
if [ "$(id -u)" != 0 ]; then
  expect "rank --png: unwritable folder" 1 "drivebench: cannot write $tmp/ro/p1-tps.svg" $DB report --rank --png -o "$tmp/ro" $F/report-4vm
fi

# host check (issue 31): a bad check name is one line and exit 2, on run
# and on host check alike; nothing is created
hc_names="governor, turbo, thp, swap, ksm, memory, domains, drive-identity, drive-cache, drive-temperature, drive-mount"
for cmd in "run" "host check"; do
  $DB $cmd plans/tiny.ini --ignore-host-check=cpu >"$tmp/out" 2>"$tmp/err"; st=$?
  if [ $st -eq 2 ] && [ ! -s "$tmp/out" ] \
     && [ "$(cat "$tmp/err")" = "drivebench: --ignore-host-check=cpu: no such host check ($hc_names)" ]; then
    ok "$cmd: unknown --ignore-host-check name"
  else bad "$cmd: unknown --ignore-host-check name: exit $st, stderr '$(cat "$tmp/err")'"; fi
done
expect "host without check" 2 "drivebench: usage: drivebench host check PLAN [--ignore-host-check=CHECK]..." $DB host plans/tiny.ini
expect "host check: missing plan" 2 "drivebench: missing PLAN argument" $DB host check
# host check on this machine, against what its own files and smartctl say
mkdir -p "$tmp/drive"
printf '[run]\nname = hc\nprofile = tiny\nuri = %s\n[workload]\nname = oltp_read_write\ntables = 1\ntable_size = 100\nmeasure = 10s\n[drive d]\npath = %s/drive\n' \
  "$NODE" "$tmp" > "$tmp/hc.ini"
$DB host check "$tmp/hc.ini" >"$tmp/out" 2>"$tmp/err"; st=$?
hc_line() { grep "^[a-z]* *$1: " "$tmp/out"; }
thp=unknown
[ -r /sys/kernel/mm/transparent_hugepage/enabled ] && thp=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/mm/transparent_hugepage/enabled)
nswap=$(($(wc -l < /proc/swaps) - 1))
if [ "$nswap" -eq 0 ]; then swap="off"; else swap="on: $nswap device(s),"; fi
refusals=$(grep -c '^refuse' "$tmp/out")
if [ $st -eq $((refusals > 0)) ] && [ ! -s "$tmp/err" ] \
   && hc_line governor | grep -q '^\(ok\|warn\) *governor: ' \
   && hc_line thp | grep -qF "thp: $thp: " && hc_line swap | grep -qF "swap: $swap" \
   && hc_line "drive-identity \[d\]" >/dev/null && tail -1 "$tmp/out" | grep -q "^host check: [0-9]* ok, [0-9]* warn, $refusals refuse$"; then
  ok "host check on this machine: governor, THP ($thp), swap ($swap), the drive"
else bad "host check on this machine (exit $st)"; cat "$tmp/out" "$tmp/err"; fi
# the drive's SMART as this machine's own smartctl answers it
src=$(findmnt -no SOURCE -T "$tmp/drive" 2>/dev/null)
case "$src" in
  /dev/*)
    disk=$(lsblk -no PKNAME "$src" 2>/dev/null | head -1); [ -n "$disk" ] || disk=$(basename "$src")
    if ! command -v smartctl >/dev/null; then
      want="warn    drive-temperature [d]: unavailable: $disk: temperature and throttling unknown: smartctl is not installed (smartmontools)"
    else
      smartctl -j -a "/dev/$disk" > "$tmp/smart.json"; sst=$?
      if [ $((sst & 3)) -ne 0 ]; then
        msg=$(jq -r '.smartctl.messages[0].string // empty' "$tmp/smart.json")
        want="warn    drive-temperature [d]: unavailable: $disk: temperature and throttling unknown: smartctl could not read /dev/$disk (exit status $sst${msg:+: $msg}); watch the drive's temperature by other means"
      else
        want="drive-temperature [d]: $(jq -r 'if .temperature.current then "\(.temperature.current) C" else "not reported" end' "$tmp/smart.json")"
      fi
    fi
    if hc_line "drive-temperature \[d\]" | grep -qF -- "$want"; then ok "host check: $disk as smartctl answers it"
    else bad "host check: $disk: wanted '$want'"; hc_line "drive-temperature \[d\]"; fi ;;
  *)
    if hc_line "drive-identity \[d\]" | grep -qF "drive-identity [d]: no block device: "; then ok "host check: a drive on no block device ($src)"
    else bad "host check: $src: $(hc_line "drive-identity \[d\]")"; fi ;;
esac

echo "cli: $pass passed, $fail failed"
[ $fail -eq 0 ]
