/* httpd.c — the live view's HTTP server (live.h): libmicrohttpd on one
 * thread of its own, GET or HEAD /metrics answered with the view's
 * OpenMetrics text, anything else refused. The listening socket is made
 * here, so a refusal says why (address in use, not on this host).
 *
 * A misbehaving client must not starve the scraper (issue 43): a
 * connection silent for LIVE_IDLE_S seconds is closed, in its header as
 * in its body (a scraper's request comes at once); up to LIVE_CONNECTIONS
 * at once, within the default 1024 descriptors with room for the run's
 * own, so that a handful of slow or idle clients leave room for it; the
 * kernel's own queue of connections not yet taken as long as it allows
 * (SOMAXCONN), so that a burst of connects does not drop the scraper's.
 * No limit per address: on loopback every client, the scraper too, comes
 * from 127.0.0.1, and such a limit would let a few local clients shut it
 * out. */
#include "live/live_state.h"
#include "util/util.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <microhttpd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { LIVE_CONNECTIONS = 512, LIVE_IDLE_S = 3 };

#define OM_CONTENT_TYPE "application/openmetrics-text; version=1.0.0; charset=utf-8"

/* A short plain-text answer with status. */
static enum MHD_Result answer_text(struct MHD_Connection *conn, unsigned status,
                                   const char *text)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
                                                             MHD_RESPMEM_PERSISTENT);
    enum MHD_Result rc;
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    rc = MHD_queue_response(conn, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    orch_live *lv = cls;
    struct MHD_Response *r;
    enum MHD_Result rc;
    double *as_of;
    char *text;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return answer_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET /metrics\n");
    if (strcmp(url, "/metrics") != 0)
        return answer_text(conn, MHD_HTTP_NOT_FOUND, "drivebench serves /metrics only\n");
    /* when the view was rendered, for on_completed */
    if (!*con_cls && !(*con_cls = calloc(1, sizeof *as_of)))
        return answer_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
    as_of = *con_cls;
    if (!(text = live_render(lv, as_of)))
        return answer_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory\n");
    r = MHD_create_response_from_buffer(strlen(text), text, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, OM_CONTENT_TYPE);
    rc = MHD_queue_response(conn, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return rc;
}

/* A request ended: a /metrics text sent whole counts as a scrape of the
 * view as of its rendering (orch_live_linger waits for one). */
static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    double *as_of = *con_cls;
    (void)conn;
    if (as_of && *as_of > 0 && toe == MHD_REQUEST_TERMINATED_COMPLETED_OK)
        live_scraped(cls, *as_of);
    free(as_of);
    *con_cls = NULL;
}

/* A socket listening on a. fd, or -1 with err. */
static int listen_on(const orch_listen_addr *a, const char *text, char *err, size_t errlen)
{
    int one = 1, fd = socket(a->sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        snprintf(err, errlen, "cannot listen on %s: %s", text, strerror(errno));
        return -1;
    }
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (const struct sockaddr *)&a->sa, a->len) < 0 || listen(fd, SOMAXCONN) < 0) {
        snprintf(err, errlen, "cannot listen on %s: %s", text, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* Stop serving (the model stays): lv->stop_serving. */
static void stop_serving(orch_live *lv)
{
    if (lv->httpd) {
        /* MHD_stop_daemon closes the listening socket it was given */
        MHD_stop_daemon(lv->httpd);
        lv->httpd = NULL;
        lv->listen_fd = -1;
    } else if (lv->listen_fd >= 0) {
        close(lv->listen_fd);
        lv->listen_fd = -1;
    }
}

int orch_live_listen(orch_live *lv, const char *addr, char *err, size_t errlen)
{
    orch_listen_addr a;
    struct sockaddr_storage bound;
    socklen_t blen = sizeof bound;
    lv->stop_serving = stop_serving;
    if (orch_listen_parse(addr, &a, err, errlen) < 0)
        return -1;
    if ((lv->listen_fd = listen_on(&a, addr, err, errlen)) < 0)
        return -1;
    lv->httpd = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL
                                 | (a.sa.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
                                 0, NULL, NULL, on_request, lv,
                                 MHD_OPTION_LISTEN_SOCKET, lv->listen_fd,
                                 MHD_OPTION_CONNECTION_LIMIT, (unsigned)LIVE_CONNECTIONS,
                                 MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)LIVE_IDLE_S,
                                 MHD_OPTION_NOTIFY_COMPLETED, on_completed, lv,
                                 MHD_OPTION_END);
    if (!lv->httpd) {
        snprintf(err, errlen, "cannot serve on %s: libmicrohttpd did not start", addr);
        close(lv->listen_fd);
        lv->listen_fd = -1;
        return -1;
    }
    lv->port = a.port;
    if (getsockname(lv->listen_fd, (struct sockaddr *)&bound, &blen) == 0)
        lv->port = ntohs(bound.ss_family == AF_INET6
                         ? ((struct sockaddr_in6 *)&bound)->sin6_port
                         : ((struct sockaddr_in *)&bound)->sin_port);
    return 0;
}

int orch_live_port(const orch_live *lv)
{
    return lv && lv->httpd ? lv->port : 0;
}
