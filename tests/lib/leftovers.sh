# tests/lib/leftovers.sh — what an end-to-end run left behind (tests/e2e/:
# source it). One line a leftover; nothing when the run cleaned up.
#
# leftovers_of [-u URI]... -n ERE [-d DIR]... [-k ERE] [-o RUN_DIR]
#              [-l DRIVEBENCH URI RESULTS RUN_ID]
#   -u URI     a libvirt URI whose domains and pools are listed (an empty
#              one is skipped)
#   -n ERE     the run's object names (grep -E)
#   -d DIR     a folder that must be left empty: its files and folders
#   -k ERE     files of those folders that stay (grep -E -v)
#   -o RUN_DIR oltp processes still writing into RUN_DIR (--json=RUN_DIR/)
#   -l ...     `drivebench list`'s lines for RUN_ID
leftovers_of() {
  local OPTIND opt names= keep= run_dir= u d
  local -a uris=() dirs=() list=()
  while getopts u:n:d:k:o:l: opt; do
    case $opt in
      u) uris+=("$OPTARG") ;;
      n) names=$OPTARG ;;
      d) dirs+=("$OPTARG") ;;
      k) keep=$OPTARG ;;
      o) run_dir=$OPTARG ;;
      l) list=("$OPTARG" "${@:OPTIND:3}"); OPTIND=$((OPTIND + 3)) ;;
      *) echo "leftovers_of: bad option" >&2; return 2 ;;
    esac
  done
  for u in "${uris[@]}"; do
    [ -n "$u" ] || continue
    virsh -c "$u" list --all --name 2>/dev/null | grep -E "$names" || true
    virsh -c "$u" pool-list --all --name 2>/dev/null | grep -E "$names" || true
  done
  for d in "${dirs[@]}"; do
    find "$d" -mindepth 1 2>/dev/null | { [ -n "$keep" ] && grep -Ev "$keep" || cat; } || true
  done
  [ -n "$run_dir" ] && { pgrep -f -- "--json=$run_dir/" | sed 's/^/oltp process /' || true; }
  [ ${#list[@]} = 4 ] && { "${list[0]}" list --uri="${list[1]}" --results="${list[2]}" 2>/dev/null \
    | grep -F "${list[3]}" | sed 's/^/drivebench list: /' || true; }
  return 0
}
