/* pngrsvg.c - the PNG module (tiers-png.so): SVG to PNG with librsvg (the
 * GNOME renderer) onto a cairo image surface, all in memory: no temporary
 * file and no child process, and librsvg's own error messages reach the
 * user.  A module of its own so that only `render --png` loads librsvg,
 * cairo, pango and the fifty libraries behind them (png.c opens it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png.h"

#include <cairo.h>
#include <librsvg/rsvg.h>

/* The PNG bytes as cairo hands them over. */
typedef struct png_buf {
    unsigned char *data;
    size_t len, cap;
} png_buf;

/* cairo write callback: appends to a png_buf. */
static cairo_status_t png_append(void *closure, const unsigned char *data,
                                 unsigned int n)
{
    png_buf *b = closure;
    if (n > b->cap - b->len) {
        size_t cap = b->cap ? b->cap : 65536;
        while (n > cap - b->len)
            cap *= 2;
        unsigned char *more = realloc(b->data, cap);
        if (!more)
            return CAIRO_STATUS_NO_MEMORY;
        b->data = more;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    return CAIRO_STATUS_SUCCESS;
}

/* Copies a GError's message to err and frees it.  librsvg's XML messages
 * end in a newline; errors are one line, so newlines become spaces and
 * trailing ones go. */
static void png_gerror(GError *e, const char *what, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: %s", what, e ? e->message : "unknown error");
    if (e)
        g_error_free(e);
    size_t n = strlen(err);
    while (n > 0 && (err[n - 1] == '\n' || err[n - 1] == ' '))
        err[--n] = '\0';
    for (char *nl; (nl = strchr(err, '\n'));)
        *nl = ' ';
}

/* Draws the document onto a new surface of its own size; NULL with err. */
static cairo_surface_t *png_draw(RsvgHandle *doc, char *err, size_t errlen)
{
    double w, h;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(doc, &w, &h)) {
        snprintf(err, errlen, "the SVG has no width and height in pixels");
        return NULL;
    }
    /* cairo's image surfaces stop at 32767 pixels a side */
    if (!(w >= 1 && h >= 1 && w <= 32767 && h <= 32767)) {
        snprintf(err, errlen, "bad picture size %gx%g", w, h);
        return NULL;
    }
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32,
                                                    (int)ceil(w), (int)ceil(h));
    cairo_t *cr = cairo_create(s); /* on error: an error status, not NULL */
    cairo_status_t st = cairo_status(cr);
    GError *e = NULL;
    RsvgRectangle viewport = {0, 0, w, h};
    int ok = st == CAIRO_STATUS_SUCCESS &&
             rsvg_handle_render_document(doc, cr, &viewport, &e);
    cairo_destroy(cr);
    if (!ok) {
        if (st != CAIRO_STATUS_SUCCESS)
            snprintf(err, errlen, "cairo: %s", cairo_status_to_string(st));
        else
            png_gerror(e, "librsvg", err, errlen);
        cairo_surface_destroy(s);
        return NULL;
    }
    return s;
}

__attribute__((visibility("default"))) png_render_fn tiers_png_render;

int tiers_png_render(const char *svg, size_t len, unsigned char **out, size_t *out_len,
                     char *err, size_t errlen)
{
    GError *e = NULL;
    RsvgHandle *doc = rsvg_handle_new_from_data((const guint8 *)svg, len, &e);
    if (!doc) {
        png_gerror(e, "librsvg", err, errlen);
        return -1;
    }
    cairo_surface_t *s = png_draw(doc, err, errlen);
    g_object_unref(doc);
    if (!s)
        return -1;
    png_buf b = {NULL, 0, 0};
    cairo_status_t st = cairo_surface_write_to_png_stream(s, png_append, &b);
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        snprintf(err, errlen, "cairo: %s", cairo_status_to_string(st));
        free(b.data);
        return -1;
    }
    *out = b.data;
    *out_len = b.len;
    return 0;
}
