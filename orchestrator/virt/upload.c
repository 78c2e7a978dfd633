/* upload.c — the guest image on each drive's host (see upload.h). */
#include "virt/upload.h"
#include "util/util.h"
#include "virt/ledger.h"
#include "virt/pool.h"
#include "virt/vol.h"
#include "virt/virt_error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <libvirt/virterror.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <openssl/evp.h>

#define ORCH_IMG_NAME(id, file) file,
static const char *const img_names[] = { ORCH_IMG_FILES(ORCH_IMG_NAME) };
#undef ORCH_IMG_NAME

/* Checksum volumes hold 64 hex digits and a newline. */
#define SUM_LEN 65

const char *orch_img_file_name(orch_img_file f)
{
    return f < ORCH_IMG_COUNT ? img_names[f] : "?";
}

struct orch_images {
    const orch_plan *p;
    char *(*paths)[ORCH_IMG_COUNT];     /* per drive */
    char  sums[ORCH_IMG_COUNT][SUM_LEN];/* of the local files, "" until computed */
};

/* Where file f is on this host (new string), NULL when the run uses none
 * (a user's image booting from its disk has no kernel or initrd); *oom
 * set when out of memory. The user's own image stands for base.qcow2. */
static char *local_path(const orch_plan *p, orch_img_file f, int *oom)
{
    const char *user = f == ORCH_IMG_BASE ? p->image : f == ORCH_IMG_KERNEL ? p->kernel
                       : f == ORCH_IMG_INITRD ? p->initrd : NULL;
    char *path;
    if (p->image && f != ORCH_IMG_SEED)
        path = user ? strdup(user) : NULL;
    else
        path = orch_strfmt("%s/%s", p->image_dir, img_names[f]);
    *oom |= (p->image && f != ORCH_IMG_SEED) ? (user && !path) : !path;
    return path;
}

orch_images *orch_images_new(const orch_plan *p)
{
    orch_images *im = calloc(1, sizeof *im);
    if (!im || !(im->paths = calloc((size_t)p->ndrives + 1, sizeof *im->paths))) {
        free(im);
        return NULL;
    }
    im->p = p;
    for (int d = 0; d < p->ndrives; d++)
        for (int f = 0; f < ORCH_IMG_COUNT; f++) {
            int oom = 0;
            im->paths[d][f] = local_path(p, (orch_img_file)f, &oom);
            if (oom) {
                orch_images_free(im);
                return NULL;
            }
        }
    return im;
}

void orch_images_free(orch_images *im)
{
    if (!im)
        return;
    for (int d = 0; im->paths && d < im->p->ndrives; d++)
        for (int f = 0; f < ORCH_IMG_COUNT; f++)
            free(im->paths[d][f]);
    free(im->paths);
    free(im);
}

const char *orch_images_path(const orch_images *im, int d, orch_img_file f)
{
    return im->paths[d][f];
}

static void hex_of(const unsigned char *md, unsigned n, char *hex)
{
    for (unsigned i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
}

int orch_sha256_file(const char *path, char hex[65], char *err, size_t errlen)
{
    unsigned char buf[1 << 16], md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int fd = open(path, O_RDONLY | O_CLOEXEC), rc = -1;
    ssize_t n;

    if (fd < 0) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        goto cleanup;
    }
    if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
        snprintf(err, errlen, "cannot start a SHA-256 digest");
        goto cleanup;
    }
    while ((n = read(fd, buf, sizeof buf)) > 0)
        EVP_DigestUpdate(ctx, buf, (size_t)n);
    if (n < 0) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        goto cleanup;
    }
    EVP_DigestFinal_ex(ctx, md, &mdlen);
    hex_of(md, mdlen, hex);
    rc = 0;
cleanup:
    if (fd >= 0)
        close(fd);
    EVP_MD_CTX_free(ctx);
    return rc;
}

/* The image pool of drive d on conn: an existing one by name, or a
 * transient dir pool on image_pool_path (*started set: the caller stops
 * it). Caller virStoragePoolFree. NULL with err. */
static virStoragePoolPtr image_pool(const orch_drive *dr, virConnectPtr conn, int *started,
                                    char *err, size_t errlen)
{
    orch_ledger *l;
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned mdlen = 0;
    char hex[2 * EVP_MAX_MD_SIZE + 1], name[64];
    virStoragePoolPtr pool;

    if (dr->image_pool)
        return orch_pool_lookup(conn, dr->image_pool, err, errlen);
    /* named after its folder, so every run on that folder finds it */
    EVP_Digest(dr->image_pool_path, strlen(dr->image_pool_path), md, &mdlen, EVP_sha256(), NULL);
    hex_of(md, mdlen, hex);
    snprintf(name, sizeof name, "drivebench.images-%.8s", hex);
    pool = virStoragePoolLookupByName(conn, name);
    if (pool && virStoragePoolIsActive(pool) != 1 && virStoragePoolCreate(pool, 0) < 0) {
        snprintf(err, errlen, "cannot start storage pool %s: %s", name, orch_virt_error());
        virStoragePoolFree(pool);
        return NULL;
    }
    if (pool)
        return pool;
    /* the ledger only for orch_pool_create_dir's bookkeeping: this pool
     * is stopped as soon as the files are there, not at the run's end */
    if (!(l = orch_ledger_new())) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    pool = orch_pool_create_dir(conn, l, name, dr->image_pool_path, err, errlen);
    orch_ledger_free(l);
    *started = pool != NULL;
    return pool;
}

/* The contents of a small volume (at most len - 1 bytes) into buf, NUL
 * terminated. 0, or -1 (libvirt's error is left for the caller). */
static int vol_read_small(virConnectPtr conn, virStorageVolPtr vol, char *buf, size_t len)
{
    virStreamPtr st = virStreamNew(conn, 0);
    size_t got = 0;
    int n = 0;
    if (!st)
        return -1;
    if (virStorageVolDownload(vol, st, 0, len - 1, 0) < 0) {
        virStreamFree(st);
        return -1;
    }
    while (got < len - 1 && (n = virStreamRecv(st, buf + got, len - 1 - got)) > 0)
        got += (size_t)n;
    buf[got] = '\0';
    if (n < 0 || virStreamFinish(st) < 0) {
        virStreamAbort(st);
        virStreamFree(st);
        return -1;
    }
    virStreamFree(st);
    return 0;
}

/* A raw volume `name` of size bytes in pool, readable by everyone (qemu
 * reads the kernel and backing files under its own user). */
static virStorageVolPtr vol_create_raw(virStoragePoolPtr pool, const char *name, uint64_t size)
{
    char *xml = orch_vol_xml(name, "raw", size, NULL, "0644");
    virStorageVolPtr vol = xml ? virStorageVolCreateXML(pool, xml, 0) : NULL;
    free(xml);
    return vol;
}

/* What virStreamSendAll reads from: the local file, and the progress. */
typedef struct send_src {
    int         fd;
    uint64_t    done, total;
    struct timespec start, shown;
    FILE       *out;
    const char *what;           /* "base.qcow2 -> host pool" */
    int         read_errno;
} send_src;

static double since(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void show_progress(send_src *s, int last)
{
    struct timespec now;
    double t;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (!last && since(&s->shown, &now) < 1.0)
        return;
    s->shown = now;
    t = since(&s->start, &now);
    fprintf(s->out, "upload %s: %.1f/%.1f MB, %.1f MB/s%s\n", s->what, (double)s->done / 1e6,
            (double)s->total / 1e6, t > 0 ? (double)s->done / 1e6 / t : 0.0,
            last ? ", done" : "");
    fflush(s->out);
}

static int send_source(virStreamPtr st, char *data, size_t nbytes, void *opaque)
{
    send_src *s = opaque;
    ssize_t n = read(s->fd, data, nbytes);
    (void)st;
    if (n < 0) {
        s->read_errno = errno;
        return -1;
    }
    s->done += (uint64_t)n;
    show_progress(s, 0);
    return (int)n;
}

/* Upload size bytes into vol: from the file open on fd (with progress),
 * or from text when fd < 0. 0, or -1 with err. */
static int vol_upload(virConnectPtr conn, virStorageVolPtr vol, int fd, const char *text,
                      uint64_t size, FILE *out, const char *what, char *err, size_t errlen)
{
    virStreamPtr st = virStreamNew(conn, 0);
    send_src s = { .fd = fd, .total = size, .out = out, .what = what };
    int rc = -1;

    if (!st || virStorageVolUpload(vol, st, 0, size, 0) < 0) {
        snprintf(err, errlen, "cannot upload %s: %s", what, orch_virt_error());
        goto cleanup;
    }
    clock_gettime(CLOCK_MONOTONIC, &s.start);
    s.shown = s.start;
    if (fd >= 0 ? virStreamSendAll(st, send_source, &s) < 0
                : virStreamSend(st, text, size) != (int)size) {
        if (s.read_errno)
            snprintf(err, errlen, "cannot upload %s: reading the local file: %s", what,
                     strerror(s.read_errno));
        else
            snprintf(err, errlen, "cannot upload %s: %s", what, orch_virt_error());
        virStreamAbort(st);
        goto cleanup;
    }
    if (virStreamFinish(st) < 0) {
        snprintf(err, errlen, "cannot finish the upload of %s: %s", what, orch_virt_error());
        goto cleanup;
    }
    if (fd >= 0)
        show_progress(&s, 1);
    rc = 0;
cleanup:
    if (st)
        virStreamFree(st);
    return rc;
}

/* Delete volume name from pool if it is there. */
static void vol_drop(virStoragePoolPtr pool, const char *name)
{
    virStorageVolPtr v = virStorageVolLookupByName(pool, name);
    if (v) {
        virStorageVolDelete(v, 0);
        virStorageVolFree(v);
    }
}

/* Make volume `name` in pool a copy of local file path (checksum sum),
 * unless it already is one. 0, or -1 with err. */
static int ensure_file(virConnectPtr conn, virStoragePoolPtr pool, const char *path,
                       const char *name, const char *sum, FILE *out, char *err, size_t errlen)
{
    char sumvol[256], have[SUM_LEN + 1], what[512], text[SUM_LEN + 1];
    virStorageVolPtr data = NULL, sv = NULL;
    virStorageVolInfo info;
    struct stat sb;
    char *uri = virConnectGetURI(conn);
    int fd = -1, rc = -1;

    snprintf(sumvol, sizeof sumvol, "%s.sha256", name);
    snprintf(what, sizeof what, "%s -> %s pool %s", name, uri ? uri : "?",
             virStoragePoolGetName(pool));
    free(uri);
    if (stat(path, &sb) < 0) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    virStoragePoolRefresh(pool, 0);
    sv = virStorageVolLookupByName(pool, sumvol);
    data = virStorageVolLookupByName(pool, name);
    if (sv && data && vol_read_small(conn, sv, have, sizeof have) == 0
        && strncmp(have, sum, 64) == 0
        /* the file's size: capacity is a qcow2's virtual size once the
         * pool has probed it */
        && virStorageVolGetInfoFlags(data, &info, VIR_STORAGE_VOL_GET_PHYSICAL) == 0
        && info.allocation == (unsigned long long)sb.st_size) {
        fprintf(out, "upload %s: identical copy there (sha256 %.12s...), skipped\n", what, sum);
        rc = 0;
        goto cleanup;
    }
    /* the old checksum goes first: a half-written file never looks complete */
    if (sv) {
        virStorageVolDelete(sv, 0);
        virStorageVolFree(sv);
        sv = NULL;
    }
    if (data) {
        virStorageVolDelete(data, 0);
        virStorageVolFree(data);
    }
    if (!(data = vol_create_raw(pool, name, (uint64_t)sb.st_size))) {
        snprintf(err, errlen, "cannot create volume %s in pool %s: %s", name,
                 virStoragePoolGetName(pool), orch_virt_error());
        goto cleanup;
    }
    if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        goto cleanup;
    }
    if (vol_upload(conn, data, fd, NULL, (uint64_t)sb.st_size, out, what, err, errlen) < 0)
        goto cleanup;
    snprintf(text, sizeof text, "%.64s\n", sum);
    if (!(sv = vol_create_raw(pool, sumvol, SUM_LEN))) {
        snprintf(err, errlen, "cannot create volume %s in pool %s: %s", sumvol,
                 virStoragePoolGetName(pool), orch_virt_error());
        goto cleanup;
    }
    if (vol_upload(conn, sv, -1, text, SUM_LEN, out, sumvol, err, errlen) < 0)
        goto cleanup;
    rc = 0;
cleanup:
    if (rc < 0 && data)
        vol_drop(pool, name);
    if (rc < 0 && sv)
        vol_drop(pool, sumvol);
    if (fd >= 0)
        close(fd);
    if (data)
        virStorageVolFree(data);
    if (sv)
        virStorageVolFree(sv);
    return rc;
}

int orch_images_ensure(orch_images *im, int d, virConnectPtr conn, int with_seed, FILE *out,
                       char *err, size_t errlen)
{
    const orch_drive *dr = &im->p->drives[d];
    virStoragePoolPtr pool;
    int rc = -1, started = 0;

    if (!dr->image_pool && !dr->image_pool_path)
        return 0;
    if (!(pool = image_pool(dr, conn, &started, err, errlen)))
        return -1;
    for (int f = 0; f < ORCH_IMG_COUNT; f++) {
        char *local;
        virStorageVolPtr vol;
        int oom = 0;
        if (f == ORCH_IMG_SEED && !with_seed)
            continue;
        if (!(local = local_path(im->p, (orch_img_file)f, &oom))) {
            if (!oom)
                continue;           /* not used: nothing to ship */
            snprintf(err, errlen, "out of memory");
            goto cleanup;
        }
        if (!im->sums[f][0] && orch_sha256_file(local, im->sums[f], err, errlen) < 0) {
            free(local);
            goto cleanup;
        }
        if (ensure_file(conn, pool, local, img_names[f], im->sums[f], out, err, errlen) < 0) {
            free(local);
            goto cleanup;
        }
        free(local);
        if (!(vol = virStorageVolLookupByName(pool, img_names[f]))) {
            snprintf(err, errlen, "volume %s: %s", img_names[f], orch_virt_error());
            goto cleanup;
        }
        free(im->paths[d][f]);
        im->paths[d][f] = virStorageVolGetPath(vol);
        virStorageVolFree(vol);
        if (!im->paths[d][f]) {
            snprintf(err, errlen, "path of volume %s: %s", img_names[f], orch_virt_error());
            goto cleanup;
        }
    }
    rc = 0;
cleanup:
    /* the files stay; a pool another run still uploads into refuses to
     * stop, and that run stops it */
    if (started && virStoragePoolDestroy(pool) < 0)
        fprintf(out, "upload: storage pool %s stays active: %s\n", virStoragePoolGetName(pool),
                orch_virt_error());
    virStoragePoolFree(pool);
    return rc;
}

/* Set the text of the element at xpath (which must exist) to text. */
static int set_text(xmlXPathContextPtr ctx, const char *xpath, const char *text)
{
    xmlXPathObjectPtr r = xmlXPathEvalExpression(BAD_CAST xpath, ctx);
    int rc = -1;
    if (r && r->nodesetval && r->nodesetval->nodeNr == 1) {
        xmlChar *esc = xmlEncodeSpecialChars(NULL, BAD_CAST text);
        if (esc) {
            xmlNodeSetContent(r->nodesetval->nodeTab[0], esc);
            xmlFree(esc);
            rc = 0;
        }
    }
    xmlXPathFreeObject(r);
    return rc;
}

char *orch_images_apply(const orch_images *im, int d, const char *xml, char *err,
                        size_t errlen)
{
    xmlDocPtr doc = xmlReadMemory(xml, (int)strlen(xml), "domain.xml", NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    xmlXPathContextPtr ctx = doc ? xmlXPathNewContext(doc) : NULL;
    xmlChar *outx = NULL;
    char *out = NULL;
    int len = 0;

    if (!im->p->drives[d].image_pool && !im->p->drives[d].image_pool_path) {
        if (!(out = strdup(xml)))
            snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    if (!ctx) {
        snprintf(err, errlen, "cannot parse the domain XML");
        goto cleanup;
    }
    if ((im->paths[d][ORCH_IMG_KERNEL]
         && set_text(ctx, "/domain/os/kernel", im->paths[d][ORCH_IMG_KERNEL]) < 0)
        || (im->paths[d][ORCH_IMG_INITRD]
            && set_text(ctx, "/domain/os/initrd", im->paths[d][ORCH_IMG_INITRD]) < 0)) {
        snprintf(err, errlen, "the domain XML has no single /domain/os/kernel and initrd "
                 "(direct kernel boot) to point at drive %s's images", im->p->drives[d].name);
        goto cleanup;
    }
    xmlDocDumpFormatMemory(doc, &outx, &len, 1);
    if (!outx || !(out = strdup((const char *)outx)))
        snprintf(err, errlen, "out of memory");
cleanup:
    xmlFree(outx);
    xmlXPathFreeContext(ctx);
    xmlFreeDoc(doc);
    return out;
}
