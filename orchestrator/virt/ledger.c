/* ledger.c — the ledger of the objects a run created, torn down newest
 * first (see ledger.h). */
#include "virt/ledger.h"
#include "virt/ledger_priv.h"
#include "virt/teardown_priv.h"
#include "virt/passt.h"
#include "virt/virt_error.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <libvirt/virterror.h>

typedef struct orch_obj {
    orch_obj_kind kind;
    virConnectPtr conn;         /* referenced */
    char         *pool;         /* pool of a volume */
    char         *name;
} orch_obj;

struct orch_ledger {
    orch_obj *objs;
    int       n;
    pthread_mutex_t mu;         /* restore.c creates volumes from threads */
};

orch_ledger *orch_ledger_new(void)
{
    orch_ledger *l = calloc(1, sizeof(orch_ledger));
    if (l)
        pthread_mutex_init(&l->mu, NULL);
    return l;
}

int orch_ledger_count(const orch_ledger *l)
{
    return l ? l->n : 0;
}

void orch_ledger_rebind(orch_ledger *l, virConnectPtr old, virConnectPtr conn)
{
    for (int i = 0; l && i < l->n; i++)
        if (l->objs[i].conn == old) {
            virConnectRef(conn);
            virConnectClose(old);
            l->objs[i].conn = conn;
        }
}

static void obj_clear(orch_obj *o)
{
    virConnectClose(o->conn);
    free(o->pool);
    free(o->name);
}

void orch_ledger_free(orch_ledger *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n; i++)
        obj_clear(&l->objs[i]);
    free(l->objs);
    pthread_mutex_destroy(&l->mu);
    free(l);
}

/* Record an object; safe from several threads at once. */
int orch_ledger_add(orch_ledger *l, orch_obj_kind kind, virConnectPtr conn,
                      const char *pool, const char *name)
{
    orch_obj *o;
    pthread_mutex_lock(&l->mu);
    o = realloc(l->objs, sizeof *o * (size_t)(l->n + 1));
    if (!o) {
        pthread_mutex_unlock(&l->mu);
        return -1;
    }
    l->objs = o;
    o = &l->objs[l->n];
    o->kind = kind;
    o->conn = conn;
    o->pool = pool ? strdup(pool) : NULL;
    o->name = strdup(name);
    if (!o->name || (pool && !o->pool)) {
        free(o->pool);
        free(o->name);
        pthread_mutex_unlock(&l->mu);
        return -1;
    }
    virConnectRef(conn);
    l->n++;
    pthread_mutex_unlock(&l->mu);
    return 0;
}

int orch_ledger_add_net(orch_ledger *l, virConnectPtr conn, const char *name)
{
    return orch_ledger_add(l, ORCH_OBJ_NET, conn, NULL, name);
}

/* Remove one recorded object. 1 removed, 0 already gone, -1 failed. */
static int obj_remove(const orch_obj *o, FILE *log)
{
    int rc = 0;
    if (o->kind == ORCH_OBJ_NET)
        return orch_passt_stop(o->name, log);
    if (o->kind == ORCH_OBJ_DOMAIN) {
        virDomainPtr dom = virDomainLookupByName(o->conn, o->name);
        if (dom) {
            rc = orch_teardown_domain(dom, log);
            virDomainFree(dom);
        }
    } else {
        virStoragePoolPtr pool = virStoragePoolLookupByName(o->conn,
                                                            o->pool ? o->pool : o->name);
        if (pool && o->kind == ORCH_OBJ_POOL) {
            rc = orch_teardown_pool(pool, log);
        } else if (pool) {
            virStorageVolPtr vol = virStorageVolLookupByName(pool, o->name);
            if (vol) {
                rc = orch_teardown_vol(vol, log);
                virStorageVolFree(vol);
            }
        }
        if (pool)
            virStoragePoolFree(pool);
    }
    if (rc == 0 && !orch_teardown_gone() && virGetLastErrorCode() != VIR_ERR_OK) {
        if (log)
            fprintf(log, "teardown: cannot look up %s: %s\n", o->name, orch_virt_error());
        return -1;
    }
    return rc;
}

int orch_ledger_teardown(orch_ledger *l, FILE *log, orch_counts *removed)
{
    int failed = 0;
    if (!l)
        return 0;
    for (int i = l->n - 1; i >= 0; i--) {
        int rc;
        virResetLastError();
        rc = obj_remove(&l->objs[i], log);
        if (rc < 0)
            failed++;
        else if (rc > 0)
            orch_teardown_count(removed, l->objs[i].kind);
        obj_clear(&l->objs[i]);
    }
    l->n = 0;
    return failed;
}
