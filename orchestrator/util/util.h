/*
 * util.h — the front header of util/: names, units, the stop request, the process launcher, small file readers, statistics and the capacity search.
 *
 * What the folder offers to the others: a file outside util/ includes
 * this header only (tests/lint/fronts.sh); the headers below are the
 * folder's own and stay private to it otherwise.
 */
#ifndef ORCH_UTIL_FRONT_H
#define ORCH_UTIL_FRONT_H

#include "util/capacity.h"
#include "util/command.h"
#include "util/files.h"
#include "util/listen.h"
#include "util/names.h"
#include "util/stats.h"
#include "util/stats_power.h"
#include "util/stop.h"
#include "util/units.h"

#endif
