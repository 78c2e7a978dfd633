#!/usr/bin/env bash
# An enum's names are spelled once. The names of a closed choice live in
# one place: a "a|b|c" choice list (the plan's key table, a usage line)
# or a designated table of strings ([CONST] = "name", consecutive lines).
# A second mapping from the enum to the same names — another table, a
# `case CONST:` with its string, or a ternary on a constant
# (`m == X_ON ? "on" : ...`) — that writes two or more of them, in one
# file of the same program, fails: ask the first place for the name
# (orch_plan_choice, opts_bulk_name, a names table).
LINT_NAME=enums
. "$(dirname "$0")/lib.sh"
out=$(lint_code | awk -F'\t' '
  function prog(f) { return index(f, "oltp/") == 1 ? "oltp" : index(f, "orchestrator/") == 1 ? "orch" : "common" }
  {
    f = $1; ln = $2 + 0; s = $3; kind = "lit"
    if (s ~ /\[[A-Z][A-Z0-9_]+\] *= *"/) kind = "table"
    else if (s ~ /case +[A-Z][A-Z0-9_]+ *:/ || s ~ /[A-Z][A-Z0-9_]+ *\? *"/ || s ~ /== *[A-Z][A-Z0-9_]+ *\?/) kind = "map"
    while (match(s, /"([^"\\]|\\.)*"/)) {
      lit = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
      k = kind; if (lit ~ /^[a-z0-9_]+(\|[a-z0-9_]+)+$/) k = "set"
      if (k == "lit") continue
      if (k == "set") { ns++; S[ns] = lit; D[ns] = f ":" ln; DF[ns] = f; DL0[ns] = DL1[ns] = ln }
      else if (k == "table") {
        if (f == tf && ln <= tl + 2 && cur) { S[cur] = S[cur] "|" lit; DL1[cur] = ln }
        else { ns++; cur = ns; S[ns] = lit; D[ns] = f ":" ln; DF[ns] = f; DL0[ns] = DL1[ns] = ln }
        tf = f; tl = ln }
      n++; F[n] = f; L[n] = ln; T[n] = lit; K[n] = k
    }
  }
  END {
    for (i = 1; i <= ns; i++) {
      k = split(S[i], nm, "|"); if (k < 2) continue
      delete want; for (j = 1; j <= k; j++) want[nm[j]] = 1
      delete cnt; delete where; delete seen
      for (m = 1; m <= n; m++) {
        if (K[m] == "set" || !(T[m] in want)) continue
        if (F[m] == DF[i] && L[m] >= DL0[i] && L[m] <= DL1[i]) continue
        p = prog(F[m]); q = prog(DF[i]); if (p != q && p != "common" && q != "common") continue
        key = F[m] SUBSEP T[m]; if (key in seen) continue; seen[key] = 1
        cnt[F[m]]++; where[F[m]] = where[F[m]] sprintf(" %s:%d \"%s\"", F[m], L[m], T[m])
      }
      for (g in cnt) if (cnt[g] >= 2) printf "the names of %s (\"%s\") are spelled again at%s\n", D[i], S[i], where[g]
    }
    printf "#%d\n", ns
  }')
nsets=$(grep '^#' <<<"$out" | tr -d '#')
while IFS= read -r l; do [ -n "$l" ] && lint_fail "$l"; done < <(grep -v '^#' <<<"$out")
[ "${nsets:-0}" -gt 10 ] || lint_fail "only ${nsets:-0} name lists found: is the table syntax still [CONST] = \"name\"?"
lint_done "the names of $nsets choice lists and tables are spelled once"
