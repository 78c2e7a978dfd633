/* monitor.c — libvirt events and timers on one thread; per-VM health (see
 * monitor.h). */
#include "virt/monitor.h"

#include <libvirt/virterror.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What this file hands to libvirt's event thread (a timer's context, the
 * sync point) passes through libvirt's GLib main loop, whose GMutex is a
 * futex ThreadSanitizer does not see: the hand-off is said to it here, a
 * release before the object is given, an acquire when a callback gets it
 * (make test-tsan). Nothing in other builds. */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define HANDOFF_GIVE(p) __tsan_release(p)
#define HANDOFF_TAKE(p) __tsan_acquire(p)
#else
#define HANDOFF_GIVE(p) ((void)(p))
#define HANDOFF_TAKE(p) ((void)(p))
#endif

/* The process's one libvirt event loop. libvirt has a single default event
 * implementation per process, so this state is process-wide by nature;
 * it is private to this file. */
static pthread_mutex_t events_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_t events_thread;
static int events_running;
static atomic_int events_quit;      /* set by orch_events_stop, read by the loop thread */

static void *events_loop(void *arg)
{
    (void)arg;
    while (!atomic_load(&events_quit))
        if (virEventRunDefaultImpl() < 0)
            break;
    return NULL;
}

int orch_events_start(char *err, size_t errlen)
{
    int rc = 0;
    pthread_mutex_lock(&events_lock);
    if (!events_running) {
        atomic_store(&events_quit, 0);
        if (virEventRegisterDefaultImpl() < 0) {
            snprintf(err, errlen, "cannot start libvirt's event loop: %s",
                     virGetLastErrorMessage());
            rc = -1;
        } else if (pthread_create(&events_thread, NULL, events_loop, NULL) != 0) {
            snprintf(err, errlen, "cannot start the event thread");
            rc = -1;
        } else {
            events_running = 1;
        }
    }
    pthread_mutex_unlock(&events_lock);
    return rc;
}

static void wake_once(int timer, void *opaque)
{
    (void)opaque;
    virEventRemoveTimeout(timer);
}

void orch_events_stop(void)
{
    pthread_mutex_lock(&events_lock);
    if (events_running) {
        atomic_store(&events_quit, 1);
        virEventAddTimeout(0, wake_once, NULL, NULL);
        pthread_join(events_thread, NULL);
        events_running = 0;
    }
    pthread_mutex_unlock(&events_lock);
}

#define ORCH_FAULT_NAME(id, text) text,
static const char *const fault_names[] = { ORCH_FAULTS(ORCH_FAULT_NAME) };
#undef ORCH_FAULT_NAME

const char *orch_fault_name(orch_fault f)
{
    return f < ORCH_FAULT_COUNT ? fault_names[f] : "?";
}

typedef struct mon_vm {
    char        uuid[VIR_UUID_STRING_BUFLEN];
    char       *name, *drive;
    orch_health h;
    int         ready;          /* its database answered: reboots are faults */
} mon_vm;

/* Domain events the monitor registers for, per connection. */
enum { EV_LIFECYCLE, EV_REBOOT, EV_WATCHDOG, EV_IO_ERROR, EV_COUNT };

typedef struct mon_conn {
    virConnectPtr conn;         /* a reference of ours */
    char         *uri;
    int           ids[EV_COUNT];
    int           close_cb;     /* registered */
    int           lost;
} mon_conn;

typedef struct mon_timer {
    void (*fn)(void *ctx);
    void *ctx;
} mon_timer;

struct orch_monitor {
    pthread_mutex_t lock;
    FILE      *log;
    mon_vm    *vms;
    int        nvms, capvms;
    mon_conn  *conns;
    int        nconns;
    int       *timers;
    int        ntimers;
};

orch_monitor *orch_monitor_new(FILE *log)
{
    orch_monitor *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    pthread_mutex_init(&m->lock, NULL);
    m->log = log;
    return m;
}

/* The slot of dom, or -1. Called with m->lock held. */
static int find_vm(orch_monitor *m, virDomainPtr dom)
{
    char uuid[VIR_UUID_STRING_BUFLEN];
    if (!dom || virDomainGetUUIDString(dom, uuid) < 0)
        return -1;
    for (int i = 0; i < m->nvms; i++)
        if (strcmp(m->vms[i].uuid, uuid) == 0)
            return i;
    return -1;
}

/* Record fault f on slot i unless it already failed (a pause is replaced
 * by the I/O error or the guest panic that explains it). Lock held. */
static void fail_locked(orch_monitor *m, int i, orch_fault f, const char *reason)
{
    mon_vm *v;
    char when[32];
    struct tm tm;
    if (i < 0 || i >= m->nvms)
        return;
    v = &m->vms[i];
    /* a pause may come first and its cause after it: QEMU stops the vCPUs
     * on an I/O error or a guest panic, and libvirt may report that stop
     * before the event that says why */
    if (v->h.fault != ORCH_FAULT_NONE
        && !(v->h.fault == ORCH_FAULT_PAUSED && (f == ORCH_FAULT_IO_ERROR
                                                 || f == ORCH_FAULT_DISK_FULL
                                                 || f == ORCH_FAULT_CRASHED)))
        return;
    v->h.fault = f;
    v->h.at = time(NULL);
    snprintf(v->h.reason, sizeof v->h.reason, "%s", reason);
    if (m->log) {
        gmtime_r(&v->h.at, &tm);
        strftime(when, sizeof when, "%H:%M:%S", &tm);
        fprintf(m->log, "drivebench: VM %s on drive %s failed at %s UTC: %s\n", v->name,
                v->drive, when, reason);
        fflush(m->log);
    }
}

void orch_monitor_fail(orch_monitor *m, int slot, orch_fault f, const char *fmt, ...)
{
    char reason[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&m->lock);
    fail_locked(m, slot, f, reason);
    pthread_mutex_unlock(&m->lock);
}

int orch_monitor_health(orch_monitor *m, int slot, orch_health *h)
{
    int failed = 0;
    pthread_mutex_lock(&m->lock);
    if (slot >= 0 && slot < m->nvms) {
        *h = m->vms[slot].h;
        failed = h->fault != ORCH_FAULT_NONE;
    } else {
        memset(h, 0, sizeof *h);
        h->boot_reboots = -1;
    }
    pthread_mutex_unlock(&m->lock);
    return failed;
}

int orch_monitor_failures(orch_monitor *m)
{
    int n = 0;
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->nvms; i++)
        n += m->vms[i].h.fault != ORCH_FAULT_NONE;
    pthread_mutex_unlock(&m->lock);
    return n;
}

int orch_monitor_add(orch_monitor *m, virDomainPtr dom, const char *name, const char *drive)
{
    int slot = -1;
    pthread_mutex_lock(&m->lock);
    if (m->nvms == m->capvms) {
        int cap = m->capvms ? 2 * m->capvms : 8;
        mon_vm *v = realloc(m->vms, (size_t)cap * sizeof *v);
        if (!v)
            goto done;
        m->vms = v;
        m->capvms = cap;
    }
    mon_vm *v = &m->vms[m->nvms];
    memset(v, 0, sizeof *v);
    v->h.boot_reboots = -1;
    if (virDomainGetUUIDString(dom, v->uuid) < 0)
        goto done;
    v->name = strdup(name);
    v->drive = strdup(drive);
    if (!v->name || !v->drive) {
        free(v->name);
        free(v->drive);
        goto done;
    }
    slot = m->nvms++;
done:
    pthread_mutex_unlock(&m->lock);
    return slot;
}

void orch_monitor_clear(orch_monitor *m)
{
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->nvms; i++) {
        free(m->vms[i].name);
        free(m->vms[i].drive);
    }
    m->nvms = 0;
    pthread_mutex_unlock(&m->lock);
}

void orch_monitor_on_lifecycle(orch_monitor *m, virDomainPtr dom, int event, int detail)
{
    orch_fault f = ORCH_FAULT_NONE;
    const char *what = NULL;

    switch (event) {
    case VIR_DOMAIN_EVENT_STOPPED:
        f = ORCH_FAULT_STOPPED;
        switch (detail) {
        case VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN: what = "stopped: the guest shut down"; break;
        case VIR_DOMAIN_EVENT_STOPPED_DESTROYED: what = "stopped: destroyed"; break;
        case VIR_DOMAIN_EVENT_STOPPED_CRASHED:
            f = ORCH_FAULT_CRASHED;
            what = "stopped: the guest crashed";   /* on_crash destroy */
            break;
        case VIR_DOMAIN_EVENT_STOPPED_FAILED: what = "stopped: the hypervisor failed"; break;
        default: what = "stopped"; break;
        }
        break;
    case VIR_DOMAIN_EVENT_SHUTDOWN:
        /* QEMU told to quit from the host (virsh destroy sends it SIGTERM)
         * reports this before the domain has stopped */
        f = ORCH_FAULT_STOPPED;
        what = detail == VIR_DOMAIN_EVENT_SHUTDOWN_HOST
               ? "stopped: shut down from the host (destroyed, or its QEMU killed)"
               : "stopped: the guest is shutting down";
        break;
    case VIR_DOMAIN_EVENT_CRASHED:
        f = ORCH_FAULT_CRASHED;
        what = "crashed: the guest kernel panicked";
        break;
    case VIR_DOMAIN_EVENT_SUSPENDED:
        f = ORCH_FAULT_PAUSED;
        switch (detail) {
        case VIR_DOMAIN_EVENT_SUSPENDED_IOERROR: what = "paused on an I/O error"; break;
        case VIR_DOMAIN_EVENT_SUSPENDED_WATCHDOG:
            f = ORCH_FAULT_WATCHDOG;
            what = "paused by its watchdog";
            break;
        case VIR_DOMAIN_EVENT_SUSPENDED_API_ERROR: what = "paused: a hypervisor API error"; break;
        default: what = "paused"; break;
        }
        break;
    case VIR_DOMAIN_EVENT_PMSUSPENDED:
        f = ORCH_FAULT_PAUSED;
        what = "suspended by the guest's power management";
        break;
    default:
        return;                 /* defined, started, resumed, undefined */
    }
    pthread_mutex_lock(&m->lock);
    fail_locked(m, find_vm(m, dom), f, what);
    pthread_mutex_unlock(&m->lock);
}

void orch_monitor_on_io_error(orch_monitor *m, virDomainPtr dom, const char *src,
                              const char *dev, int action, const char *reason)
{
    char text[256];
    int i;
    const char *act = action == VIR_DOMAIN_EVENT_IO_ERROR_PAUSE ? "the VM was paused"
                      : action == VIR_DOMAIN_EVENT_IO_ERROR_REPORT ? "reported to the guest"
                      : "ignored";
    pthread_mutex_lock(&m->lock);
    i = find_vm(m, dom);
    if (i >= 0 && reason && strcmp(reason, "enospc") == 0) {
        snprintf(text, sizeof text, "drive %s is full: no space left for %s (%s); %s",
                 m->vms[i].drive, dev && *dev ? dev : "a disk", src && *src ? src : "?", act);
        fail_locked(m, i, ORCH_FAULT_DISK_FULL, text);
    } else if (i >= 0) {
        snprintf(text, sizeof text, "I/O error (%s) on %s (%s); %s",
                 reason && *reason ? reason : "unknown", dev && *dev ? dev : "a disk",
                 src && *src ? src : "?", act);
        fail_locked(m, i, ORCH_FAULT_IO_ERROR, text);
    }
    pthread_mutex_unlock(&m->lock);
}

static int cb_lifecycle(virConnectPtr c, virDomainPtr dom, int event, int detail, void *opaque)
{
    (void)c;
    orch_monitor_on_lifecycle(opaque, dom, event, detail);
    return 0;
}

void orch_monitor_boot_reboots(orch_monitor *m, int slot)
{
    pthread_mutex_lock(&m->lock);
    if (slot >= 0 && slot < m->nvms && m->vms[slot].h.boot_reboots < 0)
        m->vms[slot].h.boot_reboots = 0;
    pthread_mutex_unlock(&m->lock);
}

void orch_monitor_ready(orch_monitor *m, int slot)
{
    pthread_mutex_lock(&m->lock);
    if (slot >= 0 && slot < m->nvms)
        m->vms[slot].ready = 1;
    pthread_mutex_unlock(&m->lock);
}

void orch_monitor_on_reboot(orch_monitor *m, virDomainPtr dom)
{
    int i;
    pthread_mutex_lock(&m->lock);
    i = find_vm(m, dom);
    if (i >= 0 && m->vms[i].h.boot_reboots >= 0 && !m->vms[i].ready && m->vms[i].h.fault == ORCH_FAULT_NONE) {
        mon_vm *v = &m->vms[i];
        v->h.boot_reboots++;
        if (m->log) {
            fprintf(m->log, "drivebench: VM %s on drive %s rebooted while booting (%d so far; "
                    "tolerated until its database answers)\n", v->name, v->drive, v->h.boot_reboots);
            fflush(m->log);
        }
    } else if (i >= 0) {
        fail_locked(m, i, ORCH_FAULT_REBOOTED, m->vms[i].h.boot_reboots >= 0
                    ? "rebooted after its database answered" : "rebooted");
    }
    pthread_mutex_unlock(&m->lock);
}

static void cb_reboot(virConnectPtr c, virDomainPtr dom, void *opaque)
{
    (void)c;
    orch_monitor_on_reboot(opaque, dom);
}

static void cb_watchdog(virConnectPtr c, virDomainPtr dom, int action, void *opaque)
{
    orch_monitor *m = opaque;
    char text[64];
    (void)c;
    snprintf(text, sizeof text, "its watchdog fired (action %d)", action);
    pthread_mutex_lock(&m->lock);
    fail_locked(m, find_vm(m, dom), ORCH_FAULT_WATCHDOG, text);
    pthread_mutex_unlock(&m->lock);
}

static void cb_io_error(virConnectPtr c, virDomainPtr dom, const char *src, const char *dev,
                        int action, const char *reason, void *opaque)
{
    (void)c;
    orch_monitor_on_io_error(opaque, dom, src, dev, action, reason);
}

void orch_monitor_on_close(orch_monitor *m, virConnectPtr conn, int reason)
{
    const char *why = reason == VIR_CONNECT_CLOSE_REASON_EOF ? "end of file"
                      : reason == VIR_CONNECT_CLOSE_REASON_KEEPALIVE ? "keepalive timeout"
                      : reason == VIR_CONNECT_CLOSE_REASON_ERROR ? "I/O error" : "closed";
    if (reason == VIR_CONNECT_CLOSE_REASON_CLIENT)
        return;                 /* we closed it */
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->nconns; i++)
        if (m->conns[i].conn == conn && !m->conns[i].lost) {
            m->conns[i].lost = 1;
            if (m->log) {
                fprintf(m->log, "drivebench: the libvirt connection %s was lost (%s)\n",
                        m->conns[i].uri, why);
                fflush(m->log);
            }
        }
    pthread_mutex_unlock(&m->lock);
}

static void cb_close(virConnectPtr conn, int reason, void *opaque)
{
    orch_monitor_on_close(opaque, conn, reason);
}

int orch_monitor_watch_conn(orch_monitor *m, virConnectPtr conn, const char *uri,
                            char *err, size_t errlen)
{
    static const int event_ids[EV_COUNT] = {
        [EV_LIFECYCLE] = VIR_DOMAIN_EVENT_ID_LIFECYCLE,
        [EV_REBOOT] = VIR_DOMAIN_EVENT_ID_REBOOT,
        [EV_WATCHDOG] = VIR_DOMAIN_EVENT_ID_WATCHDOG,
        [EV_IO_ERROR] = VIR_DOMAIN_EVENT_ID_IO_ERROR_REASON,
    };
    const virConnectDomainEventGenericCallback cbs[EV_COUNT] = {
        [EV_LIFECYCLE] = VIR_DOMAIN_EVENT_CALLBACK(cb_lifecycle),
        [EV_REBOOT] = VIR_DOMAIN_EVENT_CALLBACK(cb_reboot),
        [EV_WATCHDOG] = VIR_DOMAIN_EVENT_CALLBACK(cb_watchdog),
        [EV_IO_ERROR] = VIR_DOMAIN_EVENT_CALLBACK(cb_io_error),
    };
    mon_conn *c, *grown;
    int rc = -1;

    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->nconns; i++)
        if (m->conns[i].conn == conn) {
            pthread_mutex_unlock(&m->lock);
            return 0;
        }
    grown = realloc(m->conns, (size_t)(m->nconns + 1) * sizeof *grown);
    if (!grown) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    m->conns = grown;
    c = &m->conns[m->nconns];
    memset(c, 0, sizeof *c);
    c->uri = strdup(uri ? uri : "?");
    if (!c->uri) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    virConnectRef(conn);
    c->conn = conn;
    m->nconns++;
    for (int e = 0; e < EV_COUNT; e++)
        c->ids[e] = -1;
    for (int e = 0; e < EV_COUNT; e++) {
        c->ids[e] = virConnectDomainEventRegisterAny(conn, NULL, event_ids[e], cbs[e], m, NULL);
        if (c->ids[e] < 0) {
            snprintf(err, errlen, "cannot watch the VMs' events on %s: %s", c->uri,
                     virGetLastErrorMessage());
            goto done;
        }
    }
    /* Only remote connections (a daemon behind them) can close on their
     * own; the others refuse a close callback, which is fine. */
    c->close_cb = virConnectRegisterCloseCallback(conn, cb_close, m, NULL) == 0;
    if (c->close_cb)
        virConnectSetKeepAlive(conn, 5, 3);
    virResetLastError();
    rc = 0;
done:
    pthread_mutex_unlock(&m->lock);
    return rc;
}

int orch_monitor_conn_lost(orch_monitor *m, virConnectPtr conn)
{
    int lost = 0;
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->nconns; i++)
        if (m->conns[i].conn == conn)
            lost = m->conns[i].lost;
    pthread_mutex_unlock(&m->lock);
    return lost;
}

void orch_monitor_conn_reset(orch_monitor *m, virConnectPtr conn)
{
    pthread_mutex_lock(&m->lock);
    for (int i = 0; i < m->nconns; i++)
        if (m->conns[i].conn == conn)
            m->conns[i].lost = 0;
    pthread_mutex_unlock(&m->lock);
}

static void timer_fire(int timer, void *opaque)
{
    mon_timer *t = opaque;
    (void)timer;
    HANDOFF_TAKE(t);
    t->fn(t->ctx);
}

int orch_monitor_every(orch_monitor *m, int ms, void (*fn)(void *ctx), void *ctx)
{
    mon_timer *t = calloc(1, sizeof *t);
    int *grown, id;
    if (!t)
        return -1;
    t->fn = fn;
    t->ctx = ctx;
    pthread_mutex_lock(&m->lock);
    grown = realloc(m->timers, (size_t)(m->ntimers + 1) * sizeof *grown);
    if (grown)
        m->timers = grown;
    /* t is the event thread's from here (it frees it when the timer is
     * removed): nothing here touches it after the hand-off */
    HANDOFF_GIVE(t);
    id = grown ? virEventAddTimeout(ms, timer_fire, t, free) : -1;
    if (id >= 0)
        m->timers[m->ntimers++] = id;
    pthread_mutex_unlock(&m->lock);
    if (id < 0) {
        free(t);
        return -1;
    }
    return 0;
}

/* Wait until the event thread has finished whatever it was dispatching
 * (so no callback still holds the monitor). */
typedef struct sync_point {
    pthread_mutex_t lock;
    pthread_cond_t  cond;
    int             done;
} sync_point;

static void sync_fire(int timer, void *opaque)
{
    sync_point *s = opaque;
    HANDOFF_TAKE(s);
    virEventRemoveTimeout(timer);
    pthread_mutex_lock(&s->lock);
    s->done = 1;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
}

static void sync_events(void)
{
    sync_point s = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
    struct timespec until;
    int running;
    pthread_mutex_lock(&events_lock);
    running = events_running;
    pthread_mutex_unlock(&events_lock);
    HANDOFF_GIVE(&s);
    if (!running || virEventAddTimeout(0, sync_fire, &s, NULL) < 0)
        return;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 5;
    pthread_mutex_lock(&s.lock);
    while (!s.done)
        if (pthread_cond_timedwait(&s.cond, &s.lock, &until) != 0)
            break;
    pthread_mutex_unlock(&s.lock);
}

void orch_monitor_free(orch_monitor *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->ntimers; i++)
        virEventRemoveTimeout(m->timers[i]);
    for (int i = 0; i < m->nconns; i++) {
        mon_conn *c = &m->conns[i];
        for (int e = 0; e < EV_COUNT; e++)
            if (c->ids[e] >= 0)
                virConnectDomainEventDeregisterAny(c->conn, c->ids[e]);
        if (c->close_cb)
            virConnectUnregisterCloseCallback(c->conn, cb_close);
    }
    virResetLastError();
    sync_events();
    for (int i = 0; i < m->nconns; i++) {
        virConnectClose(m->conns[i].conn);
        free(m->conns[i].uri);
    }
    orch_monitor_clear(m);
    free(m->vms);
    free(m->conns);
    free(m->timers);
    pthread_mutex_destroy(&m->lock);
    free(m);
}
