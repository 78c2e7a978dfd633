/* agent.c — one guest agent command and its base64 data (agent.h). */
#include "virt/agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libvirt/libvirt-qemu.h>
#include <libvirt/virterror.h>

#include "nap.h"

char *orch_agent_libvirt(void *ctx, virDomainPtr dom, const char *cmd, int timeout_s)
{
    (void)ctx;
    return virDomainQemuAgentCommand(dom, cmd, timeout_s, 0);
}

json_object *orch_agent_call(orch_agent_fn fn, void *ctx, virDomainPtr dom, const char *who,
                             const char *name, json_object *args, int timeout_s,
                             char *err, size_t errlen)
{
    json_object *cmd = json_object_new_object(), *reply = NULL, *ret = NULL;
    char *text;
    json_object_object_add(cmd, "execute", json_object_new_string(name));
    if (args)
        json_object_object_add(cmd, "arguments", args);
    text = fn(ctx, dom, json_object_to_json_string(cmd), timeout_s);
    json_object_put(cmd);
    if (!text) {
        snprintf(err, errlen, "%s: guest agent %s failed: %s", who, name,
                 virGetLastErrorMessage() ? virGetLastErrorMessage() : "no reply");
        return NULL;
    }
    reply = json_tokener_parse(text);
    free(text);
    if (!reply || !json_object_object_get_ex(reply, "return", &ret)) {
        snprintf(err, errlen, "%s: guest agent %s: unexpected reply", who, name);
        json_object_put(reply);
        return NULL;
    }
    json_object_get(ret);
    json_object_put(reply);
    return ret;
}

static int b64_value(int ch)
{
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+') return 62;
    if (ch == '/') return 63;
    return -1;
}

char *orch_b64_encode(const char *data, size_t n)
{
    static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(n / 3 * 4 + 8), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)(unsigned char)data[i] << 16;
        if (i + 1 < n)
            v |= (unsigned)(unsigned char)data[i + 1] << 8;
        if (i + 2 < n)
            v |= (unsigned char)data[i + 2];
        *o++ = t[v >> 18 & 63];
        *o++ = t[v >> 12 & 63];
        *o++ = i + 1 < n ? t[v >> 6 & 63] : '=';
        *o++ = i + 2 < n ? t[v & 63] : '=';
    }
    *o = '\0';
    return out;
}

char *orch_b64_decode(const char *in, size_t *len)
{
    size_t n = strlen(in), o = 0;
    char *out = malloc(n / 4 * 3 + 4);
    unsigned int acc = 0;
    int bits = 0;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        int v;
        if (in[i] == '=' || in[i] == '\n' || in[i] == '\r')
            continue;
        v = b64_value((unsigned char)in[i]);
        if (v < 0) {
            free(out);
            return NULL;
        }
        acc = (acc << 6) | (unsigned int)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (char)((acc >> bits) & 0xff);
        }
    }
    out[o] = '\0';
    *len = o;
    return out;
}

long orch_agent_exec_start(orch_agent_fn fn, void *ctx, virDomainPtr dom, const char *who,
                           const char *const *argv, const char *const *env, int timeout_s,
                           char *err, size_t errlen)
{
    json_object *args = json_object_new_object(), *a = json_object_new_array(), *ret, *x;
    long pid = -1;
    json_object_object_add(args, "path", json_object_new_string(argv[0]));
    for (int i = 1; argv[i]; i++)
        json_object_array_add(a, json_object_new_string(argv[i]));
    json_object_object_add(args, "arg", a);
    if (env) {
        json_object *e = json_object_new_array();
        for (int i = 0; env[i]; i++)
            json_object_array_add(e, json_object_new_string(env[i]));
        json_object_object_add(args, "env", e);
    }
    json_object_object_add(args, "capture-output", json_object_new_boolean(1));
    ret = orch_agent_call(fn, ctx, dom, who, "guest-exec", args, timeout_s, err, errlen);
    if (ret && json_object_object_get_ex(ret, "pid", &x))
        pid = (long)json_object_get_int64(x);
    else if (ret)
        snprintf(err, errlen, "%s: guest-exec returned no pid", who);
    json_object_put(ret);
    return pid;
}

int orch_agent_exec_status(orch_agent_fn fn, void *ctx, virDomainPtr dom, const char *who,
                           long pid, int timeout_s, int *status, char **out, char **errout,
                           char *err, size_t errlen)
{
    json_object *args = json_object_new_object(), *ret, *x;
    size_t len;
    json_object_object_add(args, "pid", json_object_new_int64(pid));
    if (!(ret = orch_agent_call(fn, ctx, dom, who, "guest-exec-status", args, timeout_s,
                                err, errlen)))
        return -1;
    if (!json_object_object_get_ex(ret, "exited", &x) || !json_object_get_boolean(x)) {
        json_object_put(ret);
        return 0;
    }
    /* a shell's rule: the exit code, or 128 + the signal that ended it */
    *status = json_object_object_get_ex(ret, "exitcode", &x) ? json_object_get_int(x)
            : json_object_object_get_ex(ret, "signal", &x) ? 128 + json_object_get_int(x)
            : -1;
    if (out)
        *out = json_object_object_get_ex(ret, "out-data", &x)
               ? orch_b64_decode(json_object_get_string(x), &len) : NULL;
    if (errout)
        *errout = json_object_object_get_ex(ret, "err-data", &x)
                  ? orch_b64_decode(json_object_get_string(x), &len) : NULL;
    json_object_put(ret);
    return 1;
}

char *orch_agent_sh(orch_agent_fn fn, void *ctx, virDomainPtr dom, const char *who,
                    const char *script, int wait_ms, int *exitcode, char *err, size_t errlen)
{
    const char *argv[] = { "/bin/sh", "-c", script, NULL };
    long pid = orch_agent_exec_start(fn, ctx, dom, who, argv, NULL, ORCH_AGENT_SH_TIMEOUT_S,
                                     err, errlen);
    if (pid < 0)
        return NULL;
    for (int waited = 0; waited <= wait_ms; waited += 100) {
        char *text = NULL;
        int rc = orch_agent_exec_status(fn, ctx, dom, who, pid, ORCH_AGENT_SH_TIMEOUT_S,
                                        exitcode, &text, NULL, err, errlen);
        if (rc < 0)
            return NULL;
        if (rc == 1)
            return text ? text : strdup("");
        nap_ms(100);
    }
    snprintf(err, errlen, "%s: the guest's shell did not end in %d s", who, wait_ms / 1000);
    return NULL;
}
