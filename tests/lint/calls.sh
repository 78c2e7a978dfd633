#!/usr/bin/env bash
# Files stand in an order: within a folder, no two files call each other
# in a loop (a.c calls b.c, which calls a.c, directly or through others),
# so a reader can read one first. A loop that a phase needs is broken with
# hooks (engine_run's on_interval), a shared helper in a file of its own,
# or one file. The calls are the linker's: each built object's undefined
# symbols (nm) resolved to the object of the same folder that defines
# them. A folder's README.md may name the files of a loop still to be
# untangled on a "Not yet untangled:" line; a name there that is in no
# loop fails, so the list only shrinks.
LINT_NAME=calls
. "$(dirname "$0")/lib.sh"
build=${LINT_BUILD:-build}
case $build in /*) ;; *) build=$LINT_REPO/$build ;; esac
nloops=0; nfolders=0
for m in $LINT_MODULES; do
  for f in "" $(lint_folders "$m"); do
    dir=$m${f:+/$f}
    objs=$(cd "$LINT_ROOT" && ls "$dir"/*.c 2>/dev/null | sed 's|\.c$|.o|' | while read -r o; do [ -f "$build/$o" ] && echo "$o"; done)
    [ -n "$objs" ] || continue
    nfolders=$((nfolders + 1))
    allowed=$(lint_readme_list "$(lint_readme "$m" "$f")" "Not yet untangled")
    # "object<TAB>D<TAB>symbol" and "object<TAB>U<TAB>symbol"
    loops=$(cd "$build" && nm -A $objs | awk '
      { o = $1; sub(/:.*/, "", o); sub(/.*\//, "", o); sub(/\.o$/, ".c", o) }
      NF == 3 && $2 ~ /^[TDBRC]$/ { def[$3] = o; next }
      NF == 2 && $1 ~ /:$/ && $2 == "U" { next }
      $2 == "U" { use[o, $3] = 1; files[o] = 1 }
      { files[o] = 1 }
      END {
        for (k in use) { split(k, p, SUBSEP); if ((p[2] in def) && def[p[2]] != p[1]) edge[p[1], def[p[2]]] = 1 }
        for (k in edge) { split(k, p, SUBSEP); reach[p[1], p[2]] = 1 }
        do { ch = 0; for (k in reach) { split(k, p, SUBSEP); for (c in files) if (((p[2], c) in edge) && !((p[1], c) in reach)) { reach[p[1], c] = 1; ch = 1 } } } while (ch)
        # one line per loop: its files, sorted
        for (a in files) if ((a, a) in reach && !(a in done)) {
          n = 0; for (b in files) if ((a, b) in reach && (b, a) in reach) { n++; mem[n] = b; done[b] = 1 }
          for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (mem[j] < mem[i]) { t = mem[i]; mem[i] = mem[j]; mem[j] = t }
          s = mem[1]; for (i = 2; i <= n; i++) s = s " " mem[i]; print s } }')
    while IFS= read -r loop; do
      [ -n "$loop" ] || continue
      nloops=$((nloops + 1))
      untangled=0
      for x in $loop; do grep -qxF "$x" <<<"$allowed" || untangled=1; done
      [ "$untangled" -eq 0 ] && continue
      lint_fail "$dir/: $(sed 's/ / and /g' <<<"$loop") call each other in a loop: break it with a hook or a shared file of its own"
    done <<<"$loops"
    for x in $allowed; do
      grep -qw -- "$x" <<<"$loops" || lint_fail "$dir/README.md names $x on its \"Not yet untangled:\" line, but it is in no loop: take it off"
    done
  done
done
[ "$nfolders" -gt 5 ] || lint_fail "only $nfolders folders with objects under $build: build first (make)"
lint_done "files of $nfolders folders call each other in no loop, but $nloops named to untangle"
