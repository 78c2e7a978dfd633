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
} live_vm;

typedef struct live_drive {
    int                 has_dev;    /* its device's latest interval (host view) */
    orch_diskstat_delta dev;
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
    /* httpd.c */
    struct MHD_Daemon *httpd;
    int                listen_fd;
    int                port;
};

/* httpd.c: stop serving (the model stays). Accepts no server. */
void live_httpd_stop(orch_live *lv);
/* live_text.c: the text of the view (lv->mu held) into f. */
void live_text(orch_live *lv, FILE *f);

#endif
