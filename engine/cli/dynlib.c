/* dynlib.c - a shared library opened at run time (dynlib.h). */
#include <dlfcn.h>
#include <stdio.h>

#include "dynlib.h"

int dynlib_load(const char *const *files, const char *package, const dynlib_sym *syms,
                int nsyms, char *err, size_t errlen)
{
    void *h = NULL;
    const char *why = "no file named", *file = files[0];
    for (int i = 0; files[i] && !h; i++)
        if (!(h = dlopen(file = files[i], RTLD_NOW | RTLD_LOCAL)))
            why = dlerror();
    if (!h) {
        snprintf(err, errlen, "cannot load %s (install the Debian package %s): %s",
                 files[0] ? files[0] : "a library", package, why);
        return -1;
    }
    for (int i = 0; i < nsyms; i++) {
        dlerror();
        *syms[i].slot = dlsym(h, syms[i].name);
        if (!*syms[i].slot) {
            const char *e = dlerror();
            snprintf(err, errlen, "%s has no %s (install the Debian package %s): %s", file,
                     syms[i].name, package, e ? e : "a null address");
            for (int j = 0; j <= i; j++)
                *syms[j].slot = NULL;
            dlclose(h);
            return -1;
        }
    }
    return 0;
}
