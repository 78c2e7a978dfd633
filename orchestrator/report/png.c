/* png.c — see png.h. */
#include "report/png.h"
#include "atomic_file.h"

#include <cairo.h>
#include <librsvg/rsvg.h>
#include <math.h>
#include <stdio.h>

/* cairo's writer: the PNG's bytes to the atomic_file at closure. */
static cairo_status_t png_write(void *closure, const unsigned char *data, unsigned int len)
{
    FILE *f = atomic_file_stream(closure);
    return fwrite(data, 1, len, f) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

int png_from_svg(const char *svg_path, const char *png_path, double scale, int *w, int *h,
                 char *err, size_t errlen)
{
    GError *gerr = NULL;
    RsvgHandle *svg = rsvg_handle_new_from_file(svg_path, &gerr);
    cairo_surface_t *surface = NULL;
    cairo_t *cr = NULL;
    cairo_status_t st;
    double sw = 0, sh = 0;
    atomic_file *af = NULL;
    int pw, ph, rc = -1;

    if (!svg) {
        snprintf(err, errlen, "cannot read %s: %s", svg_path, gerr ? gerr->message : "error");
        goto cleanup;
    }
    if (!rsvg_handle_get_intrinsic_size_in_pixels(svg, &sw, &sh) || !(sw >= 1 && sh >= 1)
        || !(scale > 0) || sw * scale > 32767 || sh * scale > 32767) {
        snprintf(err, errlen, "%s: no size in pixels to render at (width and height)",
                 svg_path);
        goto cleanup;
    }
    pw = (int)lround(sw * scale);
    ph = (int)lround(sh * scale);
    surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pw, ph);    /* opaque: on white */
    cr = cairo_create(surface);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "out of memory");
        goto cleanup;
    }
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    if (!rsvg_handle_render_document(svg, cr, &(RsvgRectangle){ 0, 0, pw, ph }, &gerr)) {
        snprintf(err, errlen, "cannot render %s: %s", svg_path, gerr ? gerr->message : "error");
        goto cleanup;
    }
    /* through the writer every output file takes (atomic_file.h) */
    if (!(af = atomic_file_open(png_path, err, errlen)))
        goto cleanup;
    if ((st = cairo_surface_write_to_png_stream(surface, png_write, af))
        != CAIRO_STATUS_SUCCESS && st != CAIRO_STATUS_WRITE_ERROR) {
        snprintf(err, errlen, "cannot write %s: %s", png_path, cairo_status_to_string(st));
        goto cleanup;
    }
    rc = atomic_file_commit(af, err, errlen);   /* a write error: its reason */
    af = NULL;
    if (rc < 0)
        goto cleanup;
    if (w)
        *w = pw;
    if (h)
        *h = ph;
    rc = 0;
cleanup:
    atomic_file_abort(af);
    if (cr)
        cairo_destroy(cr);
    if (surface)
        cairo_surface_destroy(surface);
    if (svg)
        g_object_unref(svg);
    if (gerr)
        g_error_free(gerr);
    return rc;
}
