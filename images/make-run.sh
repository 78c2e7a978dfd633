#!/usr/bin/env bash
# `make run`: set up a fresh Debian 12 machine and run a plan (root).
#
#   1. installs the Debian packages every part of the tree lists in its
#      deps.txt that are not installed yet (without starting their services);
#   2. builds bin/ (make), then the guest image of the plan's engine
#      (images/build.sh --engine E, cached; none for sqlserver, whose image
#      the user brings; for babelfish it first builds or reuses the
#      Babelfish tree through babelfish/build.sh, ~40 min of CPU the first
#      time, then cached in /var/cache/drivebench);
#   3. checks the plan (plan values come from `drivebench plan get`, so
#      bin/drivebench is built first) and picks the domain type
#      (images/virt-type.sh: kvm only where KVM really runs the guest fast)
#      for a plan whose domain_type is unset or auto;
#   4. builds the prebuilt-database seed (images/seed.sh, cached) when the
#      plan's profile has a seed disk;
#   5. runs `drivebench run` with libvirt started if nothing runs it
#      (images/with-libvirt.sh), which also writes the run's report.html,
#      then prints a per-drive table (TPS, average and p99 latency) and
#      where the results and the report are.
#
# Usage: images/make-run.sh [PLAN]      (default plans/quick.ini)
# Prints the time of each step and the total.
#
# Exit status, as `drivebench run`'s: 0 success; 1 failed, nothing measured
# (or the setup failed); 2 bad input (the plan); 3 completed with failures:
# results written, the failed VMs are left out of the figures and named
# below the table; 130 interrupted.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
plan=${1:-plans/quick.ini}
t0=$(date +%s)
step() { printf 'make run: [%4ss] %s\n' $(( $(date +%s) - t0 )) "$*"; }
die() { echo "make run: error: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "run as root (packages, libvirt's qemu:///system)"
[ -f "$plan" ] || die "no plan $plan"

# 1. packages
wanted=$(cat ./*/deps.txt | sed 's/#.*//' | tr -s ' \t\n' '\n' | sed '/^$/d' | sort -u)
missing=$(for p in $wanted; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' || echo "$p"
done)
if [ -n "$missing" ]; then
  step "installing $(echo "$missing" | wc -l) Debian package(s): $(echo $missing)"
  export DEBIAN_FRONTEND=noninteractive
  policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    policy=1
  fi
  rc=0
  { apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing; } \
    >/tmp/drivebench-apt.log 2>&1 || rc=$?
  [ "$policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
  [ "$rc" = 0 ] || { tail -30 /tmp/drivebench-apt.log >&2; die "apt-get failed (log: /tmp/drivebench-apt.log)"; }
  step "packages installed"
else
  step "Debian packages already installed"
fi
# the T-SQL parser of make check's tests/tsql/check.sh, into its cache now,
# so that the tests never need the network (it is not needed to run)
if tests/tsql/parser.sh install >/tmp/drivebench-tsql-parser.log 2>&1; then
  step "$(tail -1 /tmp/drivebench-tsql-parser.log)"
else
  step "warning: the T-SQL parser of make check did not install (log: /tmp/drivebench-tsql-parser.log); its check will be skipped"
fi

# 2. binaries and image
step "building bin/"
make -s -j2 >/tmp/drivebench-make.log 2>&1 \
  || { tail -30 /tmp/drivebench-make.log >&2; die "make failed (log: /tmp/drivebench-make.log)"; }

# Plan values as drivebench reads them (one parser for plans).
plan_get() { bin/drivebench plan get "$1" "$2" "$plan"; }
bin/drivebench validate "$plan" >/dev/null || die "$plan is not a valid plan (see above)"
engine=$(plan_get run engine)
if [ -n "$(plan_get run image)" ]; then
  step "engine $engine from the plan's own image $(plan_get run image)"
else
  images/build.sh --engine "$engine"
  [ -s "$(plan_get run image_dir)/base.qcow2" ] \
    || die "no $(plan_get run image_dir)/base.qcow2: the plan's image_dir is not where images/build.sh --engine $engine builds"
fi

# 3. domain type: virt-type.sh measures whether KVM really runs the guest
# fast; drivebench run takes its answer as --domain-type
type=$(plan_get run domain_type)
[ "$type" = auto ] && type=$(images/virt-type.sh)
step "domain type: $type"

# 4. the prebuilt database, for profiles with a seed disk (seed_size is
# empty for the others)
if [ -n "$(plan_get run seed_size)" ]; then
  step "profile $(plan_get run profile) restores a prebuilt database: images/seed.sh"
  images/seed.sh "$plan"
fi

# 5. the run
step "drivebench run $plan"
log=$(mktemp /tmp/drivebench-run.XXXXXX.log)
rc=0
images/with-libvirt.sh bin/drivebench run "$plan" --domain-type="$type" 2>&1 | tee "$log" || rc=$?
summary=$(sed -n 's/^summary: //p' "$log" | tail -1)
rm -f "$log"
case $rc in
  0|3) ;;
  2) echo "make run: error: drivebench run refused the plan $plan (see above)" >&2; exit 2 ;;
  130) echo "make run: interrupted" >&2; exit 130 ;;
  *) die "drivebench run failed (exit $rc)" ;;
esac
[ -s "$summary" ] || die "drivebench run wrote no summary"
step "done"
echo
jq -r '["drive", "VMs", "TPS", "avg ms", "p99 ms"],
       (.drives[] | [.name, .vms, (.tps * 100 | round / 100),
                     (.latency_ms.avg * 10 | round / 10),
                     (.latency_ms.p99 * 10 | round / 10)]) | @tsv' "$summary" \
  | awk -F'\t' '{ printf "%-16s %4s %10s %10s %10s\n", $1, $2, $3, $4, $5 }'
echo
echo "results: $(dirname "$summary")"
echo "report:  $(dirname "$summary")/report.html"
if [ "$rc" = 3 ]; then
  echo
  echo "make run: completed with failures: these VMs failed and are left out of the figures:"
  jq -r '.vms[] | select(.status == "failed")
         | "  \(.name) (drive \(.drive), \(.failed_in // "?")): \(.fault): \(.reason)"' "$summary"
  exit 3
fi
