/* png.h - an SVG document rendered to PNG bytes in memory.  The work is
 * done by the PNG module (pngrsvg.c, built as tiers-png.so when CMake
 * finds librsvg and cairo), which png.c loads the first time a PNG is
 * asked for: every other command starts without those libraries.  No
 * cairo or librsvg type appears here. */
#ifndef TIERS_CLI_PNG_H /* not PNG_H: libpng's <png.h> guard */
#define TIERS_CLI_PNG_H

#include <stddef.h>

/* Renders the SVG text svg (len bytes) at its own width and height.  On
 * success returns 0 and sets *out to a malloc'ed PNG file of *out_len
 * bytes (the caller frees it).  On failure returns -1 with a one-line
 * reason in err (errlen bytes): the module's own, or why the module could
 * not be loaded (a build without librsvg has none). */
int png_from_svg(const char *svg, size_t len, unsigned char **out,
                 size_t *out_len, char *err, size_t errlen);

/* The module's one entry point, of png_from_svg's type. */
typedef int png_render_fn(const char *svg, size_t len, unsigned char **out,
                          size_t *out_len, char *err, size_t errlen);
#define PNG_MODULE_FILE "tiers-png.so"
#define PNG_MODULE_SYMBOL "tiers_png_render"

#endif
