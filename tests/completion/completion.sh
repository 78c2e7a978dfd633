#!/usr/bin/env bash
# The bash completion of drivebench and oltp (completion/drivebench.bash),
# driven as bash drives it: COMP_WORDS and COMP_CWORD set, the completion
# function called, COMPREPLY compared exactly. The run ids come from a real
# `drivebench list` on libvirt's test driver holding two runs' domains, and
# from a results folder's run folders. Run from the repository root.
set -u
tmp=$(mktemp -d /tmp/completion-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/check.sh
# the programs as a user runs them: by name, from PATH
mkdir -p "$tmp/bin"
ln -s "$PWD/${DRIVEBENCH:-bin/drivebench}" "$tmp/bin/drivebench"
ln -s "$PWD/${OLTP_BIN:-bin/oltp}" "$tmp/bin/oltp"
PATH=$tmp/bin:$PATH
. completion/drivebench.bash

# comp NAME EXPECTED WORD...: COMPREPLY for the line WORD... with the
# cursor at the end of its last word, one reply a line
comp() {
  local name=$1 want=$2; shift 2
  COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
  case $1 in drivebench) _drivebench ;; *) _oltp ;; esac
  check_eq "$name" "$want" "$(printf '%s\n' "${COMPREPLY[@]}")"
}

cat > "$tmp/node.xml" <<'XML'
<node>
  <cpu><mhz>2000</mhz><model>i686</model><active>2</active><nodes>1</nodes>
    <sockets>1</sockets><cores>2</cores><threads>1</threads></cpu>
  <memory>4194304</memory>
  <domain type='test'><name>drivebench-quick-20261206-120000--d1-vm1</name>
    <memory unit='MiB'>64</memory><vcpu>1</vcpu><os><type>hvm</type></os></domain>
  <domain type='test'><name>drivebench-quick-20261206-120000--d2-vm1</name>
    <memory unit='MiB'>64</memory><vcpu>1</vcpu><os><type>hvm</type></os></domain>
  <domain type='test'><name>drivebench-quack-20261207-080000--d1-vm1</name>
    <memory unit='MiB'>64</memory><vcpu>1</vcpu><os><type>hvm</type></os></domain>
  <domain type='test'><name>other-vm</name>
    <memory unit='MiB'>64</memory><vcpu>1</vcpu><os><type>hvm</type></os></domain>
</node>
XML
uri="test://$tmp/node.xml"
mkdir -p "$tmp/results/sweep-20261201-000000" "$tmp/results/sysbench-20261202-000000"

# commands
comp "a command" "teardown" drivebench te
comp "commands sharing a start" $'render\nreport\nresume' drivebench re
comp "plan's subcommands" $'get\nestimate\npower' drivebench plan ""
comp "host's subcommand" "check" drivebench host c
# options: the command's own, a value's "=" kept
comp "an option of run" "--ignore-host-check=" drivebench run plans/quick.ini --ig
comp "the options of list" $'--uri=\n--results=' drivebench list --
comp "no option of another command" "" drivebench validate --f
comp "report's flags, no =" "--rank" drivebench report --r
comp "host check's option" "--ignore-host-check=" drivebench host check --
comp "a value after bash's split at =" $'kvm\nqemu\nauto' drivebench run x.ini --domain-type = ""
comp "a value in one word" "--domain-type=qemu" drivebench run x.ini --domain-type=q
# run ids: from `drivebench list` on the URI the line names; from the
# results folder's run folders
comp "a run id from drivebench list" "quick-20261206-120000" drivebench teardown "--uri=$uri" qui
comp "every run id of the URI" $'quack-20261207-080000\nquick-20261206-120000' drivebench teardown "--uri=$uri" ""
comp "a run id split at =" "quick-20261206-120000" drivebench teardown --uri = "$uri" quick
comp "a run folder to resume" "sysbench-20261202-000000" drivebench resume "--results=$tmp/results" sy
# plans
comp "a plan file" $'plans/quick-pgsql.ini\nplans/quick-tsql.ini\nplans/quick.ini' drivebench validate plans/qu
comp "plan get's plan, third" "plans/tiny.ini" drivebench plan get run name plans/ti
comp "no file for plan get's section" "" drivebench plan get plans/ti

# oltp: workload, command, option
comp "an oltp workload" $'oltp_read_write\noltp_read_only' oltp --threads=2 oltp_re
comp "oltp's ping" "ping" oltp pi
comp "an oltp command" $'cleanup\ncheck' oltp tpcc c
comp "an oltp option" "--table-size=" oltp --table-s
comp "oltp's --help, no =" "--help" oltp --he
comp "a driver" "pgsql" oltp --db-driver = p

check_summary
