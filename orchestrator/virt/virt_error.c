/* virt_error.c — libvirt's errors, reported by us once (see
 * virt_error.h). */
#include "virt/virt_error.h"

#include <pthread.h>
#include <stdio.h>
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

static void silent_error(void *ud, virErrorPtr e)
{
    (void)ud;
    (void)e;
}

static void set_silent_error(void)
{
    virSetErrorFunc(NULL, silent_error);
}

void orch_virt_error_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, set_silent_error);
}

const char *orch_virt_error(void)
{
    /* a copy: any later libvirt call (even virXGetName) resets the error */
    static __thread char buf[1024];
    const char *m = virGetLastErrorMessage();
    snprintf(buf, sizeof buf, "%s", m ? m : "unknown libvirt error");
    return buf;
}
