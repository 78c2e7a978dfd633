#!/usr/bin/env bash
# Each house rule of make lint fails on a planted violation: a copy of
# common/, oltp/ and orchestrator/ (with the READMEs) gets one change, the
# rule's check runs on the copy (LINT_ROOT) and must exit 1 with the exact
# line expected; the untouched copy passes every check first.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${LINT_BUILD:-build}
case $build in /*) ;; *) build=$repo/$build ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0

fresh() {
  rm -rf "$tmp/t"; mkdir -p "$tmp/t"
  cp -r "$repo/common" "$repo/oltp" "$repo/orchestrator" "$tmp/t/"
}
# the copy's objects: the build's, as symbolic links (prefixes.sh)
mkdir -p "$tmp/build"
for m in common oltp orchestrator; do cp -rs "$build/$m" "$tmp/build/"; done

# run CHECK on the copy (its output and status for expect)
run() { out=$(LINT_ROOT=$tmp/t LINT_BUILD=$tmp/build "$here/$1" 2>&1); rc=$?; check=$1; }

# expect NAME LINE: the last run failed and printed LINE
expect() {
  local name=$1 line=$2
  if [ "$rc" -eq 1 ] && grep -qxF -- "$line" <<<"$out"; then
    pass=$((pass + 1)); echo "ok: $name"
  else
    fail=$((fail + 1)); echo "FAIL: $name: $check exited $rc; expected the line"
    echo "  $line"; echo "got:"; sed 's/^/  /' <<<"$out" | head -20
  fi
}

# compile one source of the copy into the copy's build (prefixes.sh)
rebuild() {
  local src=$1 m=${1%%/*}
  rm -f "$tmp/build/${src%.c}.o"
  (cd "$tmp/t" && LINT_ROOT=$tmp/t . "$here/lib.sh" && cc -c $(lint_cflags "$m") \
     -D_GNU_SOURCE -std=gnu11 -o "$tmp/build/${src%.c}.o" "$src")
}

fresh
for c in layers.sh launcher.sh prefixes.sh enums.sh sizes.sh calls.sh fronts.sh musts.sh; do
  if LINT_ROOT=$tmp/t LINT_BUILD=$tmp/build "$here/$c" >"$tmp/out" 2>&1; then pass=$((pass + 1)); echo "ok: $c passes on the untouched copy"
  else fail=$((fail + 1)); echo "FAIL: $c fails on the untouched copy:"; head -20 "$tmp/out"; fi
done

# layers: an include of a higher layer however it is spelled, in oltp/,
# common/, and a folder including the files on top (one run, each line)
fresh
printf '# include "run/run.h"\n' >>"$tmp/t/orchestrator/util/units.c"
printf '#include <run/run.h>\n' >>"$tmp/t/orchestrator/util/names.c"
printf '#  include "../run/run.h"\n' >>"$tmp/t/orchestrator/util/files.c"
sed -i '0,/^#include/s||#include "engine/engine.h"\n#include|' "$tmp/t/oltp/drivers/db.c"
echo '#include "ping.h"' >>"$tmp/t/oltp/engine/report.c"
echo '#include "../orchestrator/util/stop.h"' >>"$tmp/t/common/nap.c"
mkdir "$tmp/t/orchestrator/extra"; printf '#include "run/run.h"\nint orch_extra_x;\n' >"$tmp/t/orchestrator/extra/x.c"
run layers.sh
for f in units.c:'# include "run/run.h"' names.c:'#include <run/run.h>' files.c:'#  include "../run/run.h"'; do
  expect "layers: util/ includes run/ as ${f#*:}" \
    "layers: orchestrator/util/${f%%:*} includes orchestrator/run/run.h: util/ may include only: (no other folder) (orchestrator/README.md)"
done
expect "layers: oltp's drivers/ includes engine/" \
  "layers: oltp/drivers/db.c includes oltp/engine/engine.h: drivers/ may include only: (no other folder) (oltp/README.md)"
expect "layers: a folder includes a file on top" \
  "layers: oltp/engine/report.c includes oltp/ping.h: the files on top of oltp/ are above every folder"
expect "layers: common/ includes orchestrator/" \
  "layers: common/nap.c includes orchestrator/util/stop.h: common/ includes no other module than common/"
# a new folder is checked at once: unlisted, then listed below run/
expect "layers: a new folder missing from the table" \
  "layers: orchestrator/extra/ is not in orchestrator/README.md's layer table (folder | what lives there | may include)"
sed -i 's/^| `util\/` |/| `extra\/` | planted | `util\/` |\n&/' "$tmp/t/orchestrator/README.md"
run layers.sh
expect "layers: a new folder includes a higher layer" \
  "layers: orchestrator/extra/x.c includes orchestrator/run/run.h: extra/ may include only: util/ (orchestrator/README.md)"

# launcher: fork() outside util/command.c, popen() in oltp, guest-exec
# outside virt/agent.c
fresh
printf '#include <unistd.h>\nint orch_plan_planted(void);\nint orch_plan_planted(void) { return (int)fork(); }\n' >>"$tmp/t/orchestrator/plan/plan.c"
echo 'static void planted(void) { (void)popen ("x", "r"); }' >>"$tmp/t/oltp/main.c"
echo 'static const char *planted = "guest-exec";' >>"$tmp/t/orchestrator/clients/client_guest.c"
run launcher.sh
expect "launcher: fork() in plan/" \
  "launcher: orchestrator/plan/plan.c:$(wc -l <"$tmp/t/orchestrator/plan/plan.c") calls fork(): processes are created and signalled only by orchestrator/util/command.c (util/command.h)"
expect "launcher: popen() in oltp" \
  "launcher: oltp/main.c:$(wc -l <"$tmp/t/oltp/main.c") calls popen(): processes are created and signalled only by orchestrator/util/command.c (util/command.h)"
expect "launcher: guest-exec in clients/" \
  "launcher: orchestrator/clients/client_guest.c:$(wc -l <"$tmp/t/orchestrator/clients/client_guest.c") names guest-exec: guest processes are started and read only by orchestrator/virt/agent.c (virt/agent.h)"

# prefixes: a symbol without its folder's prefix; a prefix two folders claim
fresh
echo 'int planted_name(void); int planted_name(void) { return 0; }' >>"$tmp/t/orchestrator/util/units.c"
rebuild orchestrator/util/units.c
sed -i 's/^Prefixes: /Prefixes: `orch_command_`, /' "$tmp/t/orchestrator/virt/README.md"
run prefixes.sh
util_items=$(sed -n '/^Prefixes:/,/^$/p' "$repo/orchestrator/util/README.md" | grep -o '`[^`]*`' | tr -d '`' | tr '\n' ' ')
expect "prefixes: a name without util/'s prefix" \
  "prefixes: orchestrator/util/units.c exports planted_name: orchestrator/util/ names carry one of: ${util_items% } (its README.md)"
expect "prefixes: two folders claim orch_command_" \
  "prefixes: orchestrator/util/ and orchestrator/virt/ both claim orch_command_ / orch_command_: a name must tell its folder"

# enums: a second mapping of device_latency's names
fresh
printf 'const char *tel_planted(int m);\nconst char *tel_planted(int m)\n{\n    return m == ORCH_DEVLAT_ON ? "on" : m == ORCH_DEVLAT_OFF ? "off" : "auto";\n}\n' >>"$tmp/t/orchestrator/telemetry/views.c"
n=$(( $(wc -l <"$tmp/t/orchestrator/telemetry/views.c") - 1 ))
def=$(grep -n '"device_latency"' "$repo/orchestrator/plan/plan_keys.c" | head -1 | cut -d: -f1)
run enums.sh
expect "enums: device_latency's names spelled again" \
  "enums: the names of orchestrator/plan/plan_keys.c:$def (\"auto|on|off\") are spelled again at orchestrator/telemetry/views.c:$n \"on\" orchestrator/telemetry/views.c:$n \"off\" orchestrator/telemetry/views.c:$n \"auto\""

# sizes: a function of 101 lines, a file of 701, a stale exception
fresh
{ echo 'int rand_planted(void);'; echo 'int rand_planted(void)'; echo '{'; for i in $(seq 98); do echo '    ;'; done; echo '    return 0;'; echo '}'; } >>"$tmp/t/oltp/options/rand.c"
for i in $(seq $((701 - $(wc -l <"$repo/oltp/ping.c")))); do echo; done >>"$tmp/t/oltp/ping.c"
printf '\nSize exceptions: `nap.c`.\n' >>"$tmp/t/common/README.md"
run sizes.sh
expect "sizes: a function over 100 lines" \
  "sizes: oltp/options/rand.c: rand_planted() is 101 lines (at most 100): split it, or name it in its folder's README.md"
expect "sizes: a file over 700 lines" \
  "sizes: oltp/ping.c is 701 lines (at most 700): split it, or name it in its folder's README.md"
expect "sizes: an exception no longer needed" \
  "sizes: common/nap.c is named in a README's \"Size exceptions:\" line but is within the limits: take it off the list"

# calls: two files of a folder that call each other; a stale entry
fresh
printf 'int orch_loop_b(void);\nint orch_loop_a(void);\nint orch_loop_a(void) { return orch_loop_b(); }\n' >"$tmp/t/orchestrator/util/loop_a.c"
printf 'int orch_loop_a(void);\nint orch_loop_b(void);\nint orch_loop_b(void) { return orch_loop_a() + 1; }\n' >"$tmp/t/orchestrator/util/loop_b.c"
rebuild orchestrator/util/loop_a.c; rebuild orchestrator/util/loop_b.c
printf '\nNot yet untangled: `names.c`.\n' >>"$tmp/t/orchestrator/util/README.md"
run calls.sh
expect "calls: two files of util/ in a loop" \
  "calls: orchestrator/util/: loop_a.c and loop_b.c call each other in a loop: break it with a hook or a shared file of its own"
expect "calls: an untangled file still named" \
  "calls: orchestrator/util/README.md names names.c on its \"Not yet untangled:\" line, but it is in no loop: take it off"
rm -f "$tmp/build/orchestrator/util/loop_a.o" "$tmp/build/orchestrator/util/loop_b.o"

# fronts: a private header of virt/ included from run/ (two spellings),
# and a folder without its front header
fresh
printf '#include "virt/kvm.h"\n' >>"$tmp/t/orchestrator/run/power.c"
printf '#  include <../virt/hosts.h>\n' >>"$tmp/t/orchestrator/run/estimate.c"
printf '#include "run/run_state.h" /* stays */\n' >>"$tmp/t/orchestrator/run/estimate.c"
mv "$tmp/t/orchestrator/clients/clients.h" "$tmp/t/orchestrator/clients/front.h"
run fronts.sh
expect "fronts: run/ includes virt/kvm.h" \
  "fronts: orchestrator/run/power.c:$(wc -l <"$tmp/t/orchestrator/run/power.c") includes orchestrator/virt/kvm.h: outside orchestrator/virt/, include only its front header orchestrator/virt/virt.h"
expect "fronts: run/ includes ../virt/hosts.h" \
  "fronts: orchestrator/run/estimate.c:$(( $(wc -l <"$tmp/t/orchestrator/run/estimate.c") - 1 )) includes orchestrator/virt/hosts.h: outside orchestrator/virt/, include only its front header orchestrator/virt/virt.h"
expect "fronts: a folder without a front header" \
  "fronts: orchestrator/clients/ has no front header orchestrator/clients/clients.h (what the folder offers to the others)"
if grep -q 'run_state' <<<"$out"; then fail=$((fail + 1)); echo "FAIL: fronts: run/'s own private header was reported"; else pass=$((pass + 1)); echo "ok: fronts: a folder includes its own private headers"; fi

# musts: a status with an err buffer no longer DB_MUST_CHECK; a stale
# "May be ignored:" item
fresh
sed -i 's/^\(int orch_plan_sweep_step(.*)\) DB_MUST_CHECK;/\1;/' "$tmp/t/orchestrator/plan/plan.h"
printf '\nMay be ignored: `orch_cmd_gone`.\n' >>"$tmp/t/orchestrator/util/README.md"
sed -i 's/^\(int tpcc_cleanup(.*)\) DB_MUST_CHECK;/\1;/' "$tmp/t/oltp/tpcc/tpcc.h"
run musts.sh
expect "musts: orch_plan_sweep_step unmarked" \
  "musts: orchestrator/plan/plan.h:$(grep -n '^int orch_plan_sweep_step' "$repo/orchestrator/plan/plan.h" | cut -d: -f1): orch_plan_sweep_step returns a status with an err buffer: mark it DB_MUST_CHECK (or name it on orchestrator/plan/README.md's \"May be ignored:\" line)"
expect "musts: tpcc_cleanup (a wl_err) unmarked" \
  "musts: oltp/tpcc/tpcc.h:$(grep -n '^int tpcc_cleanup' "$repo/oltp/tpcc/tpcc.h" | cut -d: -f1): tpcc_cleanup returns a status with an err buffer: mark it DB_MUST_CHECK (or name it on oltp/tpcc/README.md's \"May be ignored:\" line)"
expect "musts: a stale May be ignored item" \
  "musts: orchestrator/util/README.md names orch_cmd_gone on its \"May be ignored:\" line, but no header of orchestrator/ declares it with an err buffer"

echo "test_lint: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
