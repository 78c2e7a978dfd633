#!/usr/bin/env bash
# End-to-end: `drivebench run` with 2 VMs on one drive (the multi-VM
# aggregation path). Same checks as run-1vm.sh.
export E2E_VMS=2
exec "$(dirname "$0")/run-1vm.sh" "$@"
