#!/usr/bin/env bash
# `make test`'s share of tests/e2e/run-1vm-tsql.sh: only the sysbench run
# (one tiny VM serving T-SQL through Babelfish, oltp_read_write through
# FreeTDS; about 2 minutes under TCG once Babelfish is built). The TPC-C
# run of plans/quick-tsql.ini's workload loads one warehouse in the TCG
# guest, which takes longer, and runs in `make e2e`.
E2E_TSQL_RUNS=sysbench exec "$(dirname "$0")/run-1vm-tsql.sh" "$@"
