#!/usr/bin/env bash
# The man pages (man/*.rst, built into $MAN_DIR by man/module.mk): man -l
# renders each without a warning, and they document exactly what the
# programs accept, as the programs list it themselves:
# - drivebench(1): each command of `drivebench --list-options` has a
#   SYNOPSIS line, and the options on a command's lines are exactly those
#   the command takes; no other --option anywhere in the page;
# - oltp(1): each command, workload (--help) and option of `oltp
#   --list-options` appears, and no --option it does not take;
# - drivebench-plan(5): the keys of each section are exactly those of
#   `drivebench --list-plan-keys`.
# Run from the repository root.
set -u
DB=${DRIVEBENCH:-bin/drivebench}
OLTP=${OLTP_BIN:-bin/oltp}
MAN_DIR=${MAN_DIR:-build/man}
tmp=$(mktemp -d /tmp/man-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/check.sh

# sorted, unique lines of the words given, one a line
set_of() { tr ' ' '\n' | grep -v '^$' | LC_ALL=C sort -u; }

# terms PAGE HEADING: the words of the terms (the line after .TP) of the
# built page's section or subsection HEADING (.SH, .SS), roff's own
terms() {
  awk -v h="$2" '/^\.S[HS] / { t = substr($0, 5); gsub(/"/, "", t); s = (t == h); next }
                 s && prev == ".TP" { print } { prev = $0 }' "$MAN_DIR/$1" \
    | sed -E 's/\\f[BIRP]//g; s/^\.B //' | tr -d ',' | set_of
}

# render PAGE: its text into $tmp/PAGE.txt, one paragraph a line (no
# wrapping, no hyphenation), and check that man -l said nothing else
for page in drivebench.1 oltp.1 drivebench-plan.5; do
  MANWIDTH=4000 LC_ALL=C.UTF-8 MAN_KEEP_FORMATTING= man --warnings -l "$MAN_DIR/$page" \
    >"$tmp/$page.txt" 2>"$tmp/$page.err"
  rc=$?
  check_eq "man -l $page: exit and warnings" "0 " "$rc $(cat "$tmp/$page.err")"
  name=${page%.*}
  check_eq "man -l $page: its NAME" "${name^^}(${page##*.})" "$(head -1 "$tmp/$page.txt" | awk '{ print $1 }')"
done

# --- drivebench(1) ---
"$DB" --list-options >"$tmp/db.list"
synopsis=$(awk '/^SYNOPSIS/ { s = 1; next } /^[A-Z]/ { s = 0 } s' "$tmp/drivebench.1.txt" | sed 's/^ *//')
while read -r cmd; do
  # the SYNOPSIS lines of cmd: "drivebench CMD ..." (plan's "plan get ...")
  lines=$(grep -E "^drivebench $cmd( |\$)" <<<"$synopsis")
  check_eq "drivebench(1) SYNOPSIS shows $cmd" yes "$([ -n "$lines" ] && echo yes || echo "no line")"
  [ "$cmd" = plan ] || [ "$cmd" = host ] && continue   # their subcommands carry the options
  want=$(awk -v c="$cmd" '$1 == "option" && NF > 2 { o = $NF; $1 = ""; $NF = ""; gsub(/^ +| +$/, "");
                                                  if ($0 == c) print o }' "$tmp/db.list" | set_of)
  have=$(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$lines" | set_of)
  check_eq "drivebench(1) $cmd: the options it takes" "$want" "$have"
done < <(awk '$1 == "command" { $1 = ""; sub(/^ /, ""); print }' "$tmp/db.list")
check_eq "drivebench(1): every SYNOPSIS line a command" "" \
  "$(grep -vE "^drivebench ($(awk '$1 == "command" { $1 = ""; sub(/^ /, ""); printf "%s%s", s, $0; s = "|" }' "$tmp/db.list")|--help)( |\$)" <<<"$synopsis" | grep -v '^$')"
check_eq "drivebench(1): no option drivebench does not take" \
  "$(awk '$1 == "option" { print $NF }' "$tmp/db.list" | set_of)" \
  "$(grep -oE -- '--[a-z][a-z0-9-]*' "$tmp/drivebench.1.txt" | set_of)"

# --- oltp(1) ---
"$OLTP" --list-options >"$tmp/oltp.list"
check_eq "oltp(1): exactly the options oltp takes" \
  "$(awk '$1 == "option" { print $2 }' "$tmp/oltp.list" | set_of)" \
  "$(grep -oE -- '--[a-z][a-z0-9_-]*' "$tmp/oltp.1.txt" | tr _ - | set_of)"   # --table_size is --table-size
commands=$(terms oltp.1 COMMANDS)
check_eq "oltp(1): exactly oltp's commands" "$(awk '$1 == "command" { print $2 }' "$tmp/oltp.list" | set_of)" "$commands"
workloads=$(terms oltp.1 WORKLOADS)
check_eq "oltp(1): exactly oltp's workloads" \
  "$("$OLTP" --help | awk '/^Workloads:/ { w = 1; next } w && NF == 0 { w = 0 } w { print $1 }' | set_of)" "$workloads"

# --- drivebench-plan(5) ---
"$DB" --list-plan-keys >"$tmp/keys.list"
# every section the program lists (a new one without its part of the page fails)
sections=$(sed -n 's/^\[\([^]]*\)\] .*/\1/p' "$tmp/keys.list" | uniq)
while IFS= read -r section; do
  have=$(terms drivebench-plan.5 "[$section]")
  check_eq "drivebench-plan(5) [$section]: exactly its keys" \
    "$(grep -F "[$section] " "$tmp/keys.list" | sed 's/^\[[^]]*\] //' | set_of)" "$have"
done <<<"$sections"

check_summary
