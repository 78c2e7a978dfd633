/* stop.c — the stop request of a run (see stop.h). */
#include "util/stop.h"

#include <string.h>

/* Set by the SIGINT/SIGTERM handler only. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

void orch_stop_arm(orch_stop_saved *saved)
{
    struct sigaction sa;
    stop_signal = 0;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;          /* no SA_RESTART: waits wake up */
    sigemptyset(&sa.sa_mask);
    /* A SIGINT ignored by whoever started us stays ignored: a shell starts
     * a background job (`drivebench run ... &`, nohup) with SIGINT ignored
     * so that a ^C at the terminal does not reach it. SIGTERM, what `kill`
     * sends, always asks the run to stop. */
    sigaction(SIGINT, NULL, &saved->old_int);
    if (saved->old_int.sa_handler != SIG_IGN)
        sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, &saved->old_term);
}

void orch_stop_disarm(const orch_stop_saved *saved)
{
    sigaction(SIGINT, &saved->old_int, NULL);
    sigaction(SIGTERM, &saved->old_term, NULL);
}

int orch_stop_requested(void)
{
    return stop_signal != 0;
}

int orch_stop_signal(void)
{
    return (int)stop_signal;
}
