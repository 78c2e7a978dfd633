#!/usr/bin/env bash
# Names say where they live: each folder's README.md lists, on its
# "Prefixes:" line, what its exported symbols begin with (an item ending
# in "_" is a prefix; any other item is one whole name), and
#   - every exported symbol of the folder's objects carries one of them,
#   - no item of one folder matches an item of another folder linked
#     into the same program (common/ with oltp/, common/ with
#     orchestrator/), so a name tells the folder,
#   - no listed item is unused.
# The files on top of a module list theirs in the module's README.md.
# The symbols are the built objects' (nm), LINT_BUILD (default build/).
LINT_NAME=prefixes
. "$(dirname "$0")/lib.sh"
build=${LINT_BUILD:-build}
case $build in /*) ;; *) build=$LINT_REPO/$build ;; esac
command -v nm >/dev/null || { echo "prefixes: nm (binutils) is missing"; exit 77; }
# "module<TAB>folder<TAB>object<TAB>symbol" of every built object whose source exists
objs=$(for m in $LINT_MODULES; do lint_sources "$m"; done | grep '\.c$' | sed "s|\.c\$|.o|" \
        | while read -r o; do [ -f "$build/$o" ] && echo "$o"; done)
nobj=$(grep -c . <<<"$objs")
syms=""
[ "$nobj" -gt 0 ] && syms=$(cd "$build" && nm -A -g --defined-only $objs | awk '
  NF == 3 && $3 != "main" { o = $1; sub(/:[^:]*$/, "", o); sub(/\.o$/, ".c", o)
    m = substr(o, 1, index(o, "/") - 1); r = substr(o, length(m) + 2)
    f = index(r, "/") ? substr(r, 1, index(r, "/") - 1) : ""
    print m "\t" f "\t" o "\t" $3 }')
# "module<TAB>folder<TAB>item" of every README
items=""
for m in $LINT_MODULES; do
  for f in "" $(lint_folders "$m"); do
    readme=$(lint_readme "$m" "$f")
    list=$(lint_readme_list "$readme" Prefixes)
    if [ -z "$list" ]; then
      # a folder that exports nothing (orchestrator/ on top: main) needs no line
      grep -q "^$m	$f	" <<<"$syms" || continue
      lint_fail "${readme#$LINT_ROOT/} has no \"Prefixes:\" line naming what $m/${f:+$f/}'s exported symbols begin with"
      continue
    fi
    items+=$(sed "s|^|$m\t$f\t|" <<<"$list")$'\n'
  done
done
out=$(awk -F'\t' '
  function match_item(it, s) { return substr(it, length(it)) == "_" ? index(s, it) == 1 : s == it }
  function scope(a, b) { return a == b || a == "common" || b == "common" }
  function where(m, f) { return m "/" (f == "" ? "" : f "/") }
  FNR == NR { if ($3 == "") next; ni++; IM[ni] = $1; IF[ni] = $2; IT[ni] = $3; has[$1, $2] = 1; next }
  $4 != "" { ns++; SM[ns] = $1; SF[ns] = $2; SS[ns] = $3; SN[ns] = $4; built[$1, $2] = 1 }
  END {
    for (i = 1; i <= ns; i++) {
      if (!((SM[i], SF[i]) in has)) continue
      ok = 0; list = ""
      for (j = 1; j <= ni; j++) if (IM[j] == SM[i] && IF[j] == SF[i]) { list = list " " IT[j]; if (match_item(IT[j], SN[i])) { ok = 1; used[j] = 1 } }
      if (!ok) printf "%s exports %s: %s names carry one of:%s (its README.md)\n", SS[i], SN[i], where(SM[i], SF[i]), list
    }
    for (j = 1; j <= ni; j++) {
      if (!used[j] && ((IM[j], IF[j]) in built)) printf "%sREADME.md lists %s, which no exported symbol of %s carries\n", where(IM[j], IF[j]), IT[j], where(IM[j], IF[j])
      for (k = j + 1; k <= ni; k++) {
        if ((IM[j] == IM[k] && IF[j] == IF[k]) || !scope(IM[j], IM[k])) continue
        a = IT[j]; b = IT[k]
        if ((substr(a, length(a)) == "_" && index(b, a) == 1) || (substr(b, length(b)) == "_" && index(a, b) == 1) || a == b)
          printf "%s and %s both claim %s / %s: a name must tell its folder\n", where(IM[j], IF[j]), where(IM[k], IF[k]), a, b
      }
    }
  }' <(printf '%s' "$items") <(printf '%s' "$syms"))
while IFS= read -r l; do [ -n "$l" ] && lint_fail "$l"; done <<<"$out"
[ "$nobj" -gt 0 ] || lint_fail "no object found under $build: build first (make)"
lint_done "$(grep -c . <<<"$syms") exported symbols of $nobj objects carry their folder's prefixes"
