#!/usr/bin/env bash
# The include rule: each module's folders are layers (the table in
# oltp/README.md and orchestrator/README.md: folder | what | may include),
# and a file includes only its own folder, the folders its row allows
# (and what those allow), and common/. The files on top of a module
# (main.c, oltp's ping.c and dbsize.c) may include every folder; no folder
# includes them; no module includes another but common/, and common/
# includes only itself. The includes are the preprocessor's own (`cc -MM`
# with the build's flags, per file, headers too), so spelling
# (`# include`, "../x.h", <x/y.h>) changes nothing; every folder on disk
# is checked, and a folder missing from its table fails.
LINT_NAME=layers
. "$(dirname "$0")/lib.sh"
nincl=0; nfiles=0
for m in $LINT_MODULES; do
  readme="$LINT_ROOT/$m/README.md"
  # the table: "folder<TAB>allowed folders" (closure taken below)
  table=$( [ -f "$readme" ] && awk -F'|' '
    /^\| *`[a-z0-9_]+\/` *\|/ {
      f = $2; gsub(/[ `\/]/, "", f)
      last = $(NF-1); out = ""
      while (match(last, /`[a-z0-9_]+\/`/)) { x = substr(last, RSTART+1, RLENGTH-3); last = substr(last, RSTART+RLENGTH)
        if (x != "common") out = out " " x }
      print f "\t" out }' "$readme")
  folders=$(lint_folders "$m")
  for f in $folders; do
    grep -q "^$f	" <<<"$table" || lint_fail "$m/$f/ is not in $m/README.md's layer table (folder | what lives there | may include)"
  done
  while IFS=$'\t' read -r f _; do
    [ -n "$f" ] && [ ! -d "$LINT_ROOT/$m/$f" ] && lint_fail "$m/README.md's layer table lists $f/, which does not exist"
  done <<<"$table"
  mapfile -t files < <(lint_sources "$m")
  [ ${#files[@]} -gt 0 ] || continue
  nfiles=$((nfiles + ${#files[@]}))
  # "source<TAB>dependency" pairs, normalised (x/../y is y)
  deps=$(cd "$LINT_ROOT" && cc -MM $(lint_cflags "$m") -x c "${files[@]}" 2>&1) \
    || { lint_fail "cc -MM failed on $m/: $deps"; continue; }
  pairs=$(awk '
    function norm(p,   n, i, a, st, k, out) { n = split(p, a, "/"); k = 0
      for (i = 1; i <= n; i++) { if (a[i] == "..") { if (k > 0) k--; continue } if (a[i] == "." || a[i] == "") continue; st[++k] = a[i] }
      out = st[1]; for (i = 2; i <= k; i++) out = out "/" st[i]; return (substr(p, 1, 1) == "/" ? "/" : "") out }
    { line = line $0 }
    /\\$/ { sub(/\\$/, "", line); next }
    { n = split(line, w, /[ \t]+/); src = ""; for (i = 2; i <= n; i++) { if (w[i] == "") continue
        if (src == "") { src = w[i]; continue } print src "\t" norm(w[i]) } line = "" }' <<<"$deps")
  nincl=$((nincl + $(wc -l <<<"$pairs")))
  out=$(awk -F'\t' -v M="$m" -v TABLE="$table" '
    function folder(p,   r) { r = substr(p, length(M) + 2); return index(r, "/") ? substr(r, 1, index(r, "/") - 1) : "" }
    function modof(p) { return index(p, "/") ? substr(p, 1, index(p, "/") - 1) : "" }
    BEGIN { n = split(TABLE, rows, "\n")
      for (i = 1; i <= n; i++) { split(rows[i], c, "\t"); if (c[1] == "") continue; known[c[1]] = 1
        k = split(c[2], al, " "); for (j = 1; j <= k; j++) allow[c[1], al[j]] = 1 }
      # the closure: what an allowed folder may include is allowed too
      do { changed = 0; for (a in known) for (b in known) if ((a, b) in allow) for (c2 in known) if ((b, c2) in allow && !((a, c2) in allow)) { allow[a, c2] = 1; changed = 1 } } while (changed)
      for (a in known) { s = ""; for (b in known) if ((a, b) in allow) s = s " " b "/"; list[a] = s == "" ? " (no other folder)" : s } }
    { src = $1; d = $2; dm = modof(d); dep[src, d] = 1; srcs[src] = 1
      if (substr(d, 1, 1) == "/" || (dm != "common" && dm != "oltp" && dm != "orchestrator")) next
      f = folder(src)
      if (dm != M) {
        if (dm == "common") next
        bad[src, d] = sprintf("%s includes %s: %s/ includes no other module than common/", src, d, M); next }
      df = folder(d)
      if (M == "common" || f == "" || df == f) next
      if (!(f in known)) next          # reported once above
      if (df == "") { bad[src, d] = sprintf("%s includes %s: the files on top of %s/ are above every folder", src, d, M); next }
      if ((f, df) in allow) next
      bad[src, d] = sprintf("%s includes %s: %s/ may include only:%s (%s/README.md)", src, d, f, list[f], M) }
    END {
      # name the file that includes it first-hand: skip a pair when
      # another header src includes brings the same one in
      for (k in bad) { split(k, p, SUBSEP); hidden = 0
        for (h in srcs) if (h != p[1] && h != p[2] && ((p[1], h) in dep) && ((h, p[2]) in dep)) { hidden = 1; break }
        if (!hidden) print bad[k] } }' <<<"$pairs" | sort)
  [ -n "$out" ] && while IFS= read -r l; do lint_fail "$l"; done <<<"$out"
done
[ "$nincl" -gt 200 ] || lint_fail "only $nincl includes found in $nfiles files: is cc -MM working here?"
lint_done "$nincl includes of $nfiles files follow the layer tables of oltp/ and orchestrator/"
