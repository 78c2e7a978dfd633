#!/usr/bin/env bash
# make install into a DESTDIR: oltp and its sysbench link, the three man
# pages, the bash completion under drivebench's, oltp's and sysbench's
# names; exactly these files. Run from the repository root.
set -u
tmp=$(mktemp -d /tmp/install-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/check.sh
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install DESTDIR="$tmp" PREFIX=/usr >"$tmp/out" 2>&1
check_eq "make install: exit and output" "0 " "$? $(cat "$tmp/out")"
rm -f "$tmp/out"
check_eq "the files installed" "$(cat <<'LIST'
f 644 /usr/share/bash-completion/completions/drivebench
f 644 /usr/share/man/man1/drivebench.1
f 644 /usr/share/man/man1/oltp.1
f 644 /usr/share/man/man5/drivebench-plan.5
f 755 /usr/bin/oltp
l 777 /usr/bin/sysbench -> oltp
l 777 /usr/share/bash-completion/completions/oltp -> drivebench
l 777 /usr/share/bash-completion/completions/sysbench -> drivebench
LIST
)" "$(cd "$tmp" && { find . -type f -printf '%y %m /%P\n'; find . -type l -printf '%y %m /%P -> %l\n'; } \
     | LC_ALL=C sort)"
check_eq "oltp installed is the one built" "$(cksum < bin/oltp)" "$(cksum < "$tmp/usr/bin/oltp")"
check_eq "man finds the plan's page there" "$tmp/usr/share/man/man5/drivebench-plan.5" \
  "$(MANPATH="$tmp/usr/share/man" man -w drivebench-plan)"
check_summary
