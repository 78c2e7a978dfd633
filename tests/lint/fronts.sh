#!/usr/bin/env bash
# The front-header rule: each folder F/ of orchestrator/ has one front
# header, F/F.h, that declares what the folder offers (it may include the
# folder's own headers); every other header of F/ is private to F/. A file
# outside F/ (another folder, the files on top, tests/, bench/) includes
# only F/F.h. Each include line is resolved as the compiler would (the
# including file's own folder first, then -Iorchestrator, -Ioltp,
# -Icommon), so "../virt/kvm.h", "virt/kvm.h" and <virt/kvm.h> are the
# same include; comments are not code.
LINT_NAME=fronts
. "$(dirname "$0")/lib.sh"
M=orchestrator
folders=$(lint_folders "$M")
for f in $folders; do
  [ -f "$LINT_ROOT/$M/$f/$f.h" ] || lint_fail "$M/$f/ has no front header $M/$f/$f.h (what the folder offers to the others)"
done
files=$(cd "$LINT_ROOT" && { lint_sources "$M"; find tests bench -name '*.[ch]' 2>/dev/null; } | sort -u)
nincl=0
[ -n "$files" ] && out=$(cd "$LINT_ROOT" && awk -f "$LINT_REPO/tests/lint/strip.awk" $files | awk -F'\t' -v M="$M" -v ROOT="$LINT_ROOT" '
  function norm(p,   n, i, a, st, k, out) { n = split(p, a, "/"); k = 0
    for (i = 1; i <= n; i++) { if (a[i] == "..") { if (k > 0) k--; continue } if (a[i] == "." || a[i] == "") continue; st[++k] = a[i] }
    out = st[1]; for (i = 2; i <= k; i++) out = out "/" st[i]; return out }
  function exists(p) { return (system("test -f \"" ROOT "/" p "\"") == 0) }
  function dirof(p) { return index(p, "/") ? substr(p, 1, match(p, /\/[^\/]*$/) - 1) : "." }
  $3 ~ /^[ \t]*#[ \t]*include[ \t]*[<"]/ {
    name = $3; sub(/^[ \t]*#[ \t]*include[ \t]*[<"]/, "", name); sub(/[>"].*$/, "", name)
    n = 0; cand[++n] = dirof($1) "/" name; cand[++n] = M "/" name; cand[++n] = "oltp/" name; cand[++n] = "common/" name
    d = ""; for (i = 1; i <= n; i++) { c = norm(cand[i]); if (c in seen ? seen[c] : (seen[c] = exists(c))) { d = c; break } }
    if (d == "" || index(d, M "/") != 1) next
    nincl++
    rest = substr(d, length(M) + 2); if (!index(rest, "/")) next
    df = substr(rest, 1, index(rest, "/") - 1); h = substr(rest, index(rest, "/") + 1)
    if (index(h, "/") || h == df ".h") next
    if (index($1, M "/" df "/") == 1) next
    printf "%s:%d includes %s: outside %s/%s/, include only its front header %s/%s/%s.h\n", $1, $2, d, M, df, M, df, df }
  END { print "#" nincl }')
nincl=$(grep '^#' <<<"$out" | tr -d '#')
out=$(grep -v '^#' <<<"$out")
[ -n "$out" ] && while IFS= read -r l; do lint_fail "$l"; done <<<"$out"
[ "${nincl:-0}" -gt 100 ] || lint_fail "only ${nincl:-0} includes of $M/ found: is the tree there?"
lint_done "${nincl} includes of $M/'s headers: other folders include only each folder's front header"
