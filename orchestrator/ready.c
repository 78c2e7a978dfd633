/* ready.c — wait until a VM's database answers: guest agent ping, then a
 * MySQL login through the forwarded loopback port (see run.h). */
#include "run.h"

#include <mysql.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libvirt/libvirt-qemu.h>

/* 0 when the guest agent answers guest-ping. */
static int agent_ping(orch_vm *vm)
{
    char *reply = virDomainQemuAgentCommand(vm->dom, "{\"execute\":\"guest-ping\"}", 2, 0);
    if (!reply)
        return -1;
    free(reply);
    return 0;
}

/* 0 when user/password log in to the database on 127.0.0.1:port. */
static int db_login(const orch_vm *vm, const char *user, const char *password, const char *db,
                    char *err, size_t errlen)
{
    MYSQL *m = mysql_init(NULL);
    unsigned int timeout = 3;
    int rc = -1;
    if (!m)
        return -1;
    mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    mysql_options(m, MYSQL_OPT_READ_TIMEOUT, &timeout);
    if (mysql_real_connect(m, "127.0.0.1", user, password, db, (unsigned int)vm->port, NULL, 0))
        rc = 0;
    else
        snprintf(err, errlen, "%s: database login on 127.0.0.1:%d failed: %s", vm->name,
                 vm->port, mysql_error(m));
    mysql_close(m);
    return rc;
}

int orch_wait_ready_default(void *ctx, orch_vm *vm, int timeout_s, char *err, size_t errlen)
{
    const orch_plan *p = ctx;
    time_t deadline = time(NULL) + timeout_s;
    int agent_ok = 0;

    snprintf(err, errlen, "%s: guest agent did not answer within %d s", vm->name, timeout_s);
    while (time(NULL) < deadline && !orch_stop_requested()) {
        if (!agent_ok)
            agent_ok = agent_ping(vm) == 0;
        if (agent_ok && db_login(vm, p->db_user, p->db_password, p->db_name, err, errlen) == 0)
            return 0;
        sleep(1);
    }
    return -1;
}
