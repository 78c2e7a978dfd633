/* nap.c — see nap.h. */
#include "nap.h"

#include <errno.h>
#include <time.h>

void nap_ns(uint64_t ns)
{
    struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

void nap_ms(long ms)
{
    if (ms > 0)
        nap_ns((uint64_t)ms * 1000000ULL);
}
