#!/usr/bin/env bash
# Sizes: no file over 700 lines and no function over 100 (its braces
# included) in oltp/, orchestrator/ and common/. A folder's README.md
# names what is allowed over, on a "Size exceptions:" line (tables, SQL
# text: `file.c`, or `file.c:function`) or, for what is still to be
# split, on a "Not yet split:" line; an item that no longer needs its
# place fails, so the lists only shrink.
LINT_NAME=sizes
. "$(dirname "$0")/lib.sh"
FILE_MAX=${LINT_FILE_MAX:-700}
FUNC_MAX=${LINT_FUNC_MAX:-100}
allowed=""
for m in $LINT_MODULES; do
  for f in "" $(lint_folders "$m"); do
    readme=$(lint_readme "$m" "$f")
    for key in "Size exceptions" "Not yet split"; do
      allowed+=$(lint_readme_list "$readme" "$key" | sed "s|^|$m/${f:+$f/}|; s|\$|\t$key|")$'\n'
    done
  done
done
# "file<TAB>lines" and "file:function<TAB>lines" over the limits
over=$( (cd "$LINT_ROOT" && for m in $LINT_MODULES; do lint_sources "$m"; done | xargs wc -l) \
          | awk -v max="$FILE_MAX" '$2 != "total" && $1 > max { print $2 "\t" $1 }'
        lint_code | awk -F'\t' -v max="$FUNC_MAX" '
          $3 ~ /^[A-Za-z_]/ && index($3, "(") { sig = $3; sub(/\(.*/, "", sig); n = split(sig, w, /[^A-Za-z0-9_]+/); name = w[n] ; if (name == "") name = w[n-1] }
          $3 ~ /^\{/ { start = $2; fn = name; file = $1 }
          $3 ~ /^\}/ && start { len = $2 - start + 1; if (len > max) print file ":" fn "\t" len; start = 0 }')
nsplit=0
while IFS=$'\t' read -r item len; do
  [ -n "$item" ] || continue
  key=$(awk -F'\t' -v i="$item" '$1 == i { print $2; exit }' <<<"$allowed")
  case $key in
    "Not yet split") nsplit=$((nsplit + 1)) ;;
    "Size exceptions") ;;
    *) case $item in
         *:*) lint_fail "${item%%:*}: ${item#*:}() is $len lines (at most $FUNC_MAX): split it, or name it in its folder's README.md" ;;
         *)   lint_fail "$item is $len lines (at most $FILE_MAX): split it, or name it in its folder's README.md" ;;
       esac ;;
  esac
done <<<"$over"
while IFS=$'\t' read -r item key; do
  [ -n "$item" ] || continue
  grep -q "^$item	" <<<"$over" || lint_fail "$item is named in a README's \"$key:\" line but is within the limits: take it off the list"
done <<<"$allowed"
lint_done "files within $FILE_MAX lines, functions within $FUNC_MAX, but for the named exceptions ($nsplit still to split)"
