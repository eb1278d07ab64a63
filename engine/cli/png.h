/* png.h - an SVG document rendered to PNG bytes in memory, by librsvg and
 * cairo when the build found them (TIERS_HAVE_RSVG), so that `tiers
 * render --png` needs no external program.  No cairo or librsvg type
 * appears here: only png.c knows them. */
#ifndef TIERS_CLI_PNG_H /* not PNG_H: libpng's <png.h> guard */
#define TIERS_CLI_PNG_H

#include <stddef.h>

/* Renders the SVG text svg (len bytes) at its own width and height.  On
 * success returns 0 and sets *out to a malloc'ed PNG file of *out_len
 * bytes (the caller frees it).  On failure returns -1 with a one-line
 * reason in err (errlen bytes); a build without librsvg always fails. */
int png_from_svg(const char *svg, size_t len, unsigned char **out,
                 size_t *out_len, char *err, size_t errlen);

#endif
