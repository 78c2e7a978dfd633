#!/usr/bin/env bash
# `make test`'s share of tests/e2e/run-1vm-pgsql.sh: only the run through
# oltp's pgsql driver (one tiny VM serving PostgreSQL, about 1-2 minutes
# under TCG). The TPC-C run through psqlODBC takes about 15 minutes here
# (TPC-C's prepare in a 1-vCPU TCG guest) and runs in `make e2e`.
E2E_PG_RUNS=pgsql exec "$(dirname "$0")/run-1vm-pgsql.sh" "$@"
