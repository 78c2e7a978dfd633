#!/usr/bin/env bash
# The orchestrator's folders are layers (orchestrator/README.md): a folder
# includes only the layers it is allowed to. Prints every include that
# breaks the rule and fails; passes with the number of includes checked.
set -u
cd "$(dirname "$0")/../.."
declare -A allowed=(
  [util]=""
  [plan]="util"
  [virt]="plan util"
  [clients]="virt plan util"
  [telemetry]="virt plan util"
  [report]="util"
  [live]="util plan virt clients telemetry"
  [run]="util plan virt clients telemetry report live"
  [bundle]="util plan virt run"
)
bad=0; n=0
for dir in "${!allowed[@]}"; do
  for f in orchestrator/$dir/*.[ch]; do
    while IFS= read -r inc; do
      n=$((n+1))
      layer=${inc%%/*}
      [ "$layer" = "$dir" ] && continue
      case " ${allowed[$dir]} " in *" $layer "*) continue;; esac
      echo "layers: $f includes $inc: $dir/ may include only: ${allowed[$dir]:-(no other layer)}"
      bad=$((bad+1))
    done < <(sed -n 's|^#include "\([a-z_]*/[a-z_]*\.h\)".*|\1|p' "$f")
  done
done
# a header outside the layers would escape the rule
for f in orchestrator/*.[ch]; do
  [ "$f" = orchestrator/main.c ] && continue
  echo "layers: $f is outside every layer folder"; bad=$((bad+1))
done
[ "$n" -gt 50 ] || { echo "layers: only $n includes found: is the include syntax still \"layer/file.h\"?"; exit 1; }
[ "$bad" -eq 0 ] || exit 1
echo "layers: $n includes across ${#allowed[@]} folders follow orchestrator/README.md"
