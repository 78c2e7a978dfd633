/*
 * nap.h — sleeping, for oltp and drivebench alike: a nanosleep that goes
 * on after a signal interrupts it until the time has passed (a caller that
 * must wake on a signal polls its own flag between shorter naps).
 */
#ifndef DB_NAP_H
#define DB_NAP_H

#include <stdint.h>

void nap_ns(uint64_t ns);
void nap_ms(long ms);       /* ms <= 0: returns at once */

#endif
