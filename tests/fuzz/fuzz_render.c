/*
 * fuzz_render.c — plan text to domain XML with hostile names
 * (orchestrator/plan/plan_parse.c, layout.c, template.c).
 *
 * The input's lines are the free-text values of a plan: [run] name, two
 * drive names, and the image and results folders. The plan around them is
 * fixed and valid, so every input that the plan accepts is rendered. For
 * each VM the XML must parse with libxml2, and the names must come back
 * unchanged: the domain name, the drive name in the metadata, the kernel
 * path (image folder) and the console path (results folder).
 */
#include "fuzz.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"
#include "plan/plan.h"

/* Text of the node (element or attribute) at expr; new string or NULL. */
static char *xpath_text(xmlDocPtr doc, const char *expr)
{
    xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
    xmlXPathObjectPtr r = NULL;
    char *out = NULL;
    if (ctx && xmlXPathRegisterNs(ctx, BAD_CAST "db", BAD_CAST ORCH_PROFILE_NS) == 0)
        r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
    if (r && r->nodesetval && r->nodesetval->nodeNr == 1) {
        xmlChar *t = xmlNodeGetContent(r->nodesetval->nodeTab[0]);
        out = t ? strdup((const char *)t) : NULL;
        xmlFree(t);
    }
    xmlXPathFreeObject(r);
    xmlXPathFreeContext(ctx);
    return out;
}

static void expect(xmlDocPtr doc, const char *expr, const char *want, const char *xml)
{
    char *got = xpath_text(doc, expr);
    if (!got || strcmp(got, want) != 0)
        fuzz_fail("%s is '%s', wanted '%s' in:\n%s", expr, got ? got : "(none)", want, xml);
    free(got);
}

/* Field i of the input (lines), or "" when there are fewer. */
static const char *field(char **f, int n, int i)
{
    return i < n ? f[i] : "";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    char *text = malloc(size + 1), *f[4], *plan_text = NULL, *save = NULL, err[512];
    char *run_id = NULL;
    int n = 0;
    orch_plan *p = NULL;
    orch_template *t = NULL;
    orch_layout *l = NULL;

    if (!text)
        return 0;
    if (!devnull && !(devnull = fopen("/dev/null", "w")))
        fuzz_fail("cannot open /dev/null");
    memcpy(text, data, size);
    text[size] = '\0';
    for (char *s = strtok_r(text, "\n", &save); s && n < 4; s = strtok_r(NULL, "\n", &save))
        f[n++] = s;
    plan_text = orch_strfmt("[run]\nname = %s\nuri = test:///default\nprofile = tiny\n"
                            "vmconfigs_dir = " FUZZ_SRCDIR "/vmconfigs\n"
                            "image_dir = /srv/%s\nresults_dir = /tmp/%s\n"
                            "[workload]\nname = oltp_read_write\ntables = 1\ntable_size = 10\n"
                            "measure = 1s\n[drive %s]\npath = /srv/d1\nvms = 2\n"
                            "[drive %s]\npool = userpool\n",
                            field(f, n, 0), field(f, n, 3), field(f, n, 3), field(f, n, 1),
                            field(f, n, 2));
    if (!plan_text)
        goto cleanup;
    p = orch_plan_load(fuzz_file((const uint8_t *)plan_text, strlen(plan_text)), devnull);
    if (!p)
        goto cleanup;               /* refused with a message: fine */
    run_id = orch_runid_new(p->name, 1764547200);
    if (!run_id || !orch_runid_valid(run_id))
        fuzz_fail("run id '%s' from name '%s' is not valid", run_id ? run_id : "", p->name);
    t = orch_template_load(p->template_path, err, sizeof err);
    l = t ? orch_layout_new(p, run_id, 0) : NULL;
    if (!t || !l)
        fuzz_fail("cannot load the template or the layout: %s", t ? "out of memory" : err);
    for (int i = 0; i < l->nvms; i++) {
        const orch_vm *vm = &l->vms[i];
        char *xml = orch_layout_render(l, p, t, vm, "qemu", 1, err, sizeof err);
        char *kernel = orch_strfmt("%s/vmlinuz", p->image_dir);
        char *console_rel = orch_layout_console(vm, 1);
        char *console = orch_strfmt("%s/%s", l->run_dir, console_rel);
        xmlDocPtr doc;
        if (!xml)
            fuzz_fail("render failed: %s", err);
        doc = xmlReadMemory(xml, (int)strlen(xml), "domain.xml", NULL,
                            XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
        if (!doc)
            fuzz_fail("rendered XML does not parse:\n%s", xml);
        expect(doc, "/domain/name", vm->name, xml);
        expect(doc, "/domain/metadata/db:profile/db:vm/@drive", vm->drive->name, xml);
        expect(doc, "/domain/metadata/db:profile/db:vm/@run", run_id, xml);
        expect(doc, "/domain/os/kernel", kernel, xml);
        expect(doc, "/domain/devices/serial[@type='file']/source/@path", console, xml);
        xmlFreeDoc(doc);
        free(xml);
        free(kernel);
        free(console_rel);
        free(console);
    }
cleanup:
    orch_layout_free(l);
    orch_template_free(t);
    orch_plan_free(p);
    free(run_id);
    free(plan_text);
    free(text);
    return 0;
}
