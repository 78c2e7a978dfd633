/* agent.c — one guest agent command and its base64 data (agent.h). */
#include "virt/agent.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libvirt/libvirt-qemu.h>
#include <libvirt/virterror.h>

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
