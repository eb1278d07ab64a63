/* png.c - finds and opens the PNG module (tiers-png.so, pngrsvg.c) on
 * the first PNG asked for, so that no other command pays for loading
 * librsvg, cairo and pango.  The module is looked for beside the program
 * (the build tree) and in LIBDIR/tiers relative to the program's prefix
 * (an installed copy): no absolute path is compiled in. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "png.h"

#ifndef TIERS_PNG_MODULE_SUBDIR
#define TIERS_PNG_MODULE_SUBDIR "lib/tiers"
#endif

/* The folder of the running program, without a final slash; 0 or -1. */
static int png_program_dir(char *dir, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", dir, size - 1);
    if (n <= 0)
        return -1;
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

/* Opens the module: beside the program, then DIR/../LIBDIR/tiers.  NULL
 * with the reason in err. */
static void *png_open_module(char *err, size_t errlen)
{
    char dir[4096], path[4200];
    if (png_program_dir(dir, sizeof dir) < 0) {
        snprintf(err, errlen, "PNG output: cannot find the folder of the tiers program");
        return NULL;
    }
    snprintf(path, sizeof path, "%s/" PNG_MODULE_FILE, dir);
    if (access(path, F_OK) != 0)
        snprintf(path, sizeof path, "%s/../" TIERS_PNG_MODULE_SUBDIR "/" PNG_MODULE_FILE, dir);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h)
        snprintf(err, errlen, "PNG output needs the module %s, which cannot be loaded: %s",
                 path, dlerror());
    return h;
}

int png_from_svg(const char *svg, size_t len, unsigned char **out, size_t *out_len,
                 char *err, size_t errlen)
{
    static png_render_fn *render;
    *out = NULL;
    *out_len = 0;
#ifndef TIERS_HAVE_RSVG
    (void)svg;
    (void)len;
    (void)render;
    snprintf(err, errlen, "tiers was built without PNG support "
             "(install librsvg2-dev, then rebuild)");
    return -1;
#else
    if (!render) {
        /* kept open for the process's life: its libraries keep state */
        void *h = png_open_module(err, errlen);
        if (!h)
            return -1;
        *(void **)&render = dlsym(h, PNG_MODULE_SYMBOL);
        if (!render) {
            snprintf(err, errlen, "PNG output: the module has no %s: %s", PNG_MODULE_SYMBOL,
                     dlerror());
            return -1;
        }
    }
    return render(svg, len, out, out_len, err, errlen);
#endif
}
