#!/usr/bin/env bash
# One launcher: only orchestrator/util/command.c creates, replaces or
# signals a process (fork, exec*, popen, system, posix_spawn, clone, kill
# ...); every other file starts programs through util/command.h. And one
# guest-exec: only orchestrator/virt/agent.c names the guest agent's
# guest-exec commands, so a guest process's exit status has one rule.
# Comments and string literals are not code: a message may say "file
# system (".
LINT_NAME=launcher
. "$(dirname "$0")/lib.sh"
LAUNCHER=orchestrator/util/command.c
GUEST_EXEC=orchestrator/virt/agent.c
calls='fork|vfork|execl|execle|execlp|execv|execve|execvp|execvpe|fexecve|popen|system|posix_spawnp?|clone3?|kill|killpg|pidfd_send_signal|tgkill'
out=$(lint_code nostrings | awk -F'\t' -v L="$LAUNCHER" -v re="(^|[^A-Za-z0-9_.>])($calls)[[:space:]]*[(]" '
  $1 != L && match($3, re) { c = substr($3, RSTART, RLENGTH); sub(/^[^a-z]*/, "", c); sub(/[[:space:](]*$/, "", c)
    printf "%s:%d calls %s(): processes are created and signalled only by %s (util/command.h)\n", $1, $2, c, L }')
out2=$(lint_code | awk -F'\t' -v G="$GUEST_EXEC" '
  $1 != G && $3 ~ /"guest-exec(-status)?"/ {
    printf "%s:%d names guest-exec: guest processes are started and read only by %s (virt/agent.h)\n", $1, $2, G }')
while IFS= read -r l; do [ -n "$l" ] && lint_fail "$l"; done <<<"$out
$out2"
n=$(for m in $LINT_MODULES; do lint_sources "$m"; done | wc -l)
lint_done "$n files: processes only through $LAUNCHER, guest-exec only in $GUEST_EXEC"
