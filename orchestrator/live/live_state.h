/*
 * live_state.h — the inside of an orch_live (live.h), shared by its
 * files: live.c (the model and its hooks), live_text.c (the OpenMetrics
 * text), httpd.c (the server). Private to live/.
 */
#ifndef ORCH_LIVE_STATE_H
#define ORCH_LIVE_STATE_H

#include <pthread.h>
#include "live/live.h"

/* One VM of the layout, this repetition. */
typedef struct live_vm {
    char           label[64];   /* "<drive id>-vm<N>", as progress lines name it */
    int            slot;        /* in the monitor, -1: not started this repetition */
    int            running;     /* started this repetition */
    orch_fault     fault;       /* counted once */
    int            has_iv;      /* its oltp's latest interval line */
    orch_interval  iv;
    int            has_db;      /* its database disk's latest interval */
    orch_blk_delta db;
    int            has_qemu;    /* its QEMU threads' latest interval */
    res_io_qemu    qemu;
} live_vm;

typedef struct live_drive {
    int                 has_dev;    /* its device's latest interval (host view) */
    orch_diskstat_delta dev;
    int                 has_bound;  /* the latest interval's verdict (bound.h) */
    res_bound_verdict   bound;
} live_drive;

struct orch_live {
    const orch_plan   *p;
    const orch_layout *l;
    orch_monitor      *mon;
    pthread_mutex_t    mu;          /* guards everything below */
    live_vm           *vms;         /* [l->nvms] */
    live_drive        *drives;      /* [p->ndrives] */
    int                rep, round;
    res_phase_id       phase;       /* RES_PHASE_NONE between phases */
    int                faults;      /* VMs failed so far in the run */
    int                has_host_cpu;    /* the host's CPU, latest interval */
    double             host_cpu_pct;
    /* scrapes delivered whole (httpd.c's completion) against the model's
     * changes, monotonic s: for orch_live_linger */
    double             changed;     /* the model's last change */
    double             scraped;     /* as of when the newest delivered scrape
                                     * was rendered, 0: none yet */
    double             delivered;   /* when the last one was delivered */
    double             gap_max;     /* the longest time between two deliveries */
    pthread_cond_t     scrape_cv;   /* signalled on each delivery */
    /* httpd.c */
    struct MHD_Daemon *httpd;
    int                listen_fd;
    int                port;
    /* httpd.c's hook: stop serving (the model stays), set by
     * orch_live_listen; orch_live_free calls it, so the model never calls
     * the server that calls it (NULL: nothing to stop). */
    void             (*stop_serving)(orch_live *lv);
};
/* live_text.c: the text of the view (lv->mu held) into f. */
void live_text(orch_live *lv, FILE *f);
/* live.c: the view's text as orch_live_render makes it, and in *as_of
 * (may be NULL) the time it is the view of; live_scraped: such a text
 * reached its scraper whole (httpd.c, when the response is sent). */
char *live_render(orch_live *lv, double *as_of);
void live_scraped(orch_live *lv, double as_of);

#endif
