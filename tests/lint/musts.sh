#!/usr/bin/env bash
# The must-check rule: a function of an oltp/ or orchestrator/ header that
# returns an int status and writes its error into a `char *err` buffer (or
# a workload's `wl_err *err`, oltp/workloads/workload.h) is
# marked DB_MUST_CHECK (common/attributes.h), so a caller that drops the
# status fails the -Werror build. A function whose status may be ignored
# (a query, not a failure) is named on its folder README's "May be
# ignored:" line; an item there that is marked, or that is gone, fails.
LINT_NAME=musts
. "$(dirname "$0")/lib.sh"
n=0
for m in oltp orchestrator; do
  hdrs=$(cd "$LINT_ROOT" && ls "$m"/*.h "$m"/*/*.h 2>/dev/null)
  [ -n "$hdrs" ] || continue
  # "FILE<TAB>LINE<TAB>NAME<TAB>MARKED" for each int declaration taking char *err (or wl_err *err)
  decls=$(cd "$LINT_ROOT" && awk -f "$LINT_REPO/tests/lint/strip.awk" $hdrs | awk -F'\t' '
    !on && $3 ~ /^int[ \t]+\**[a-z_0-9]+[ \t]*\(/ { on = 1; f = $1; l = $2; d = "" }
    on { d = d " " $3; if (d ~ /[;{]/) { on = 0
        if (d ~ /;/ && d !~ /\{/ && d ~ /(char|wl_err)[ \t]*\*[ \t]*err[ \t,)]/) {
          nm = d; sub(/^[ \t]*int[ \t]+\**/, "", nm); sub(/[ \t]*\(.*/, "", nm)
          print f "\t" l "\t" nm "\t" (d ~ /DB_MUST_CHECK/ ? 1 : 0) } } }')
  while IFS=$'\t' read -r file line name marked; do
    [ -n "$file" ] || continue
    n=$((n + 1))
    folder=$(lint_folder_of "$file"); readme=$(lint_readme "$m" "$folder")
    if lint_readme_list "$readme" "May be ignored" | grep -qxF "$name"; then
      [ "$marked" = 1 ] && lint_fail "$file:$line: $name is DB_MUST_CHECK and on ${readme#$LINT_ROOT/}'s \"May be ignored:\" line: take it off"
    elif [ "$marked" = 0 ]; then
      lint_fail "$file:$line: $name returns a status with an err buffer: mark it DB_MUST_CHECK (or name it on ${readme#$LINT_ROOT/}'s \"May be ignored:\" line)"
    fi
  done <<<"$decls"
  for f in $(lint_folders "$m") ""; do
    readme=$(lint_readme "$m" "$f")
    for name in $(lint_readme_list "$readme" "May be ignored"); do
      awk -F'\t' -v n="$name" '$3 == n { found = 1 } END { exit !found }' <<<"$decls" \
        || lint_fail "${readme#$LINT_ROOT/} names $name on its \"May be ignored:\" line, but no header of $m/ declares it with an err buffer"
    done
  done
done
[ "$n" -gt 50 ] || lint_fail "only $n functions with an err buffer found: is the tree there?"
lint_done "$n functions of oltp/ and orchestrator/ return a status with an err buffer, each DB_MUST_CHECK or named as one that may be ignored"
