/*
 * clients.h — the front header of clients/: where oltp runs for a VM (this host or the guest) and the record of its processes.
 *
 * What the folder offers to the others: a file outside clients/ includes
 * this header only (tests/lint/fronts.sh); the headers below are the
 * folder's own and stay private to it otherwise.
 */
#ifndef ORCH_CLIENTS_FRONT_H
#define ORCH_CLIENTS_FRONT_H

#include "clients/client.h"
#include "clients/oltp_pids.h"

#endif
