/*
 * fingerprint.h — the protocol fingerprint of a run (res_fingerprint of
 * common/results_fingerprint.h, results/SCHEMA.md "Fingerprint"): what a
 * plan, its profile and the hosts make of the protocol, recorded in
 * summary.json so that `drivebench report` compares only runs of one
 * protocol.
 */
#ifndef ORCH_FINGERPRINT_H
#define ORCH_FINGERPRINT_H

#include "results_summary.h"       /* struct res_fingerprint */
#include "plan/plan.h"

/* The fingerprint of a run of plan p on template t, whose summary s holds
 * the hosts (env: their domain types) and the VMs (their server
 * versions). New fingerprint (res_fingerprint_free), or NULL when out of
 * memory. */
struct res_fingerprint *orch_fingerprint_build(const orch_plan *p, const orch_template *t,
                                               const res_summary *s);

#endif
