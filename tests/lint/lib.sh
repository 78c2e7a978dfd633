# tests/lint/lib.sh — what the house-rule checks share (sourced).
#
# LINT_ROOT: the tree checked (default: this repository); the planted-
# violation test (test_lint.sh) points it at a copy. The C modules are
# the top folders below; their folders (every */ found, none listed here)
# are the layers each module's README.md table names.
set -u
LINT_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LINT_ROOT=${LINT_ROOT:-$LINT_REPO}
LINT_MODULES="common oltp orchestrator"
lint_bad=0

lint_fail() { echo "$LINT_NAME: $*"; lint_bad=$((lint_bad + 1)); }

# The sources of module $1, relative to LINT_ROOT: its top files, then
# every folder's.
lint_sources() {
  (cd "$LINT_ROOT" && ls "$1"/*.[ch] "$1"/*/*.[ch] 2>/dev/null)
}

# The folders of module $1 (names without the slash), as found on disk.
lint_folders() {
  (cd "$LINT_ROOT" && for d in "$1"/*/; do [ -d "$d" ] && basename "$d"; done)
}

# The folder of path $1 inside its module ("" for a file on top).
lint_folder_of() {
  local rest=${1#*/}
  case $rest in */*) echo "${rest%%/*}" ;; *) echo "" ;; esac
}

# The README that speaks for a folder: M/F/README.md, or M/README.md for
# the files on top.
lint_readme() { if [ -n "$2" ]; then echo "$LINT_ROOT/$1/$2/README.md"; else echo "$LINT_ROOT/$1/README.md"; fi; }

# The backquoted items of README $1's paragraph that starts with "$2:"
# (up to the next blank line), one a line.
lint_readme_list() {
  [ -f "$1" ] || return 0
  awk -v key="$2:" 'index($0, key) == 1 { on = 1 } on && /^$/ { on = 0 } on { print }' "$1" \
    | grep -o '`[^`]*`' | tr -d '`'
}

# The compiler flags of module $1 exactly as the build uses them (make
# passes LINT_CFLAGS_<module>; run alone, the script asks make).
lint_cflags() {
  local v="LINT_CFLAGS_$1"
  if [ -n "${!v+x}" ]; then echo "${!v}"; return; fi
  env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory -C "$LINT_REPO" "lint-cflags-$1"
}

# Every source of the modules, comments removed and line numbers kept,
# as "FILE<TAB>LINE<TAB>TEXT" (strip.awk); string and character literals
# become "" and 0 when $1 is "nostrings".
lint_code() {
  local files
  files=$(for m in $LINT_MODULES; do lint_sources "$m"; done)
  (cd "$LINT_ROOT" && awk -v nostrings="$([ "${1:-}" = nostrings ] && echo 1 || echo 0)" \
     -f "$LINT_REPO/tests/lint/strip.awk" $files)
}

lint_done() {
  if [ "$lint_bad" -gt 0 ]; then
    echo "$LINT_NAME: $lint_bad problem(s); tests/lint/README.md says what each rule asks"
    exit 1
  fi
  echo "$LINT_NAME: $*"
}
