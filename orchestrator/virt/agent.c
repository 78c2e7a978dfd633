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

char *orch_agent_sh(orch_agent_fn fn, void *ctx, virDomainPtr dom, const char *who,
                    const char *script, int wait_ms, int *exitcode, char *err, size_t errlen)
{
    json_object *args = json_object_new_object(), *a = json_object_new_array(), *ret, *x;
    long pid = -1;
    json_object_object_add(args, "path", json_object_new_string("/bin/sh"));
    json_object_array_add(a, json_object_new_string("-c"));
    json_object_array_add(a, json_object_new_string(script));
    json_object_object_add(args, "arg", a);
    json_object_object_add(args, "capture-output", json_object_new_boolean(1));
    if ((ret = orch_agent_call(fn, ctx, dom, who, "guest-exec", args, ORCH_AGENT_SH_TIMEOUT_S,
                               err, errlen))
        && json_object_object_get_ex(ret, "pid", &x))
        pid = (long)json_object_get_int64(x);
    else if (ret)
        snprintf(err, errlen, "%s: guest-exec returned no pid", who);
    json_object_put(ret);
    if (pid < 0)
        return NULL;
    for (int waited = 0; waited <= wait_ms; waited += 100) {
        char *text = NULL;
        size_t len;
        args = json_object_new_object();
        json_object_object_add(args, "pid", json_object_new_int64(pid));
        if (!(ret = orch_agent_call(fn, ctx, dom, who, "guest-exec-status", args,
                                    ORCH_AGENT_SH_TIMEOUT_S, err, errlen)))
            return NULL;
        if (!json_object_object_get_ex(ret, "exited", &x) || !json_object_get_boolean(x)) {
            json_object_put(ret);
            nap_ms(100);
            continue;
        }
        *exitcode = json_object_object_get_ex(ret, "exitcode", &x) ? json_object_get_int(x) : -1;
        if (json_object_object_get_ex(ret, "out-data", &x))
            text = orch_b64_decode(json_object_get_string(x), &len);
        json_object_put(ret);
        return text ? text : strdup("");
    }
    snprintf(err, errlen, "%s: the guest's shell did not end in %d s", who, wait_ms / 1000);
    return NULL;
}
