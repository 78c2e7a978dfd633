/*
 * png.h — a chart's standalone SVG file rendered to PNG (librsvg and
 * cairo), for the ranking's `--png`: the bitmap a review's page or print
 * layout takes where it cannot take SVG.
 */
#ifndef ORCH_PNG_H
#define ORCH_PNG_H

#include "attributes.h"

#include <stddef.h>

/* Render svg_path to png_path at `scale` times its own size in pixels
 * (its width and height attributes), on white. *w and *h (either may be
 * NULL) get the PNG's size. 0, or -1 with err naming the file. */
int png_from_svg(const char *svg_path, const char *png_path, double scale, int *w, int *h,
                 char *err, size_t errlen) DB_MUST_CHECK;

#endif
