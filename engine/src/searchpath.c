/* searchpath.c - the one variant search path (searchpath.h): --variants
 * folders, TIERS_VARIANT_PATH, then the built-in folder, used alike for
 * names on the command line and for `inherits:`. */
#include "searchpath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tiers.h"

int searchpath_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int searchpath_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

void searchpath_dir_of(const char *file, char *out, size_t size)
{
    const char *slash = strrchr(file, '/');
    if (!slash)
        snprintf(out, size, ".");
    else if (slash == file)
        snprintf(out, size, "/");
    else
        snprintf(out, size, "%.*s", (int)(slash - file), file);
}

/* Scripts and v->dir are kept absolute: variant.c opens v->scripts[i] as
 * they are and lua/state.c joins relative ones to v->dir; absolute paths
 * satisfy both, whatever the working directory. */
int searchpath_make_abs(const char *p, char *out, size_t size)
{
    char cwd[1024];
    int n;
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    if (p[0] == '/')
        n = snprintf(out, size, "%s", p);
    else if (!getcwd(cwd, sizeof cwd))
        return -1;
    else if (!strcmp(p, "."))
        n = snprintf(out, size, "%s", cwd);
    else
        n = snprintf(out, size, "%s/%s", cwd, p);
    return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* share/tiers/variants beside the running program's bin/ folder: an
 * installed tree found wherever it was installed (--prefix).  A program in
 * the build tree finds build/share/tiers/variants, which CMake links to the
 * source folder (so nothing installed names the build tree). */
static const char *beside_program(void)
{
    static const char *const tails[] = {"/../share/tiers/variants", "/share/tiers/variants"};
    static char dir[1024];
    char exe[900];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return NULL;
    *slash = 0;
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        snprintf(dir, sizeof dir, "%s%s", exe, tails[i]);
        if (searchpath_is_dir(dir))
            return dir;
    }
    return NULL;
}

const char *tiers_builtin_variant_dir(void)
{
    const char *env = getenv("TIERS_VARIANT_DIR"), *near;
    if (env && *env)
        return env;
    if (searchpath_is_dir(TIERS_INSTALL_VARIANT_DIR))
        return TIERS_INSTALL_VARIANT_DIR;
    if ((near = beside_program()))
        return near;
#ifdef TIERS_SOURCE_VARIANT_DIR /* the fuzz targets' own copies only */
    return TIERS_SOURCE_VARIANT_DIR;
#else
    return TIERS_INSTALL_VARIANT_DIR;
#endif
}

int searchpath_each(const char *search, int (*fn)(const char *dir, void *ud), void *ud)
{
    char path[4096];
    const char *env = getenv("TIERS_VARIANT_PATH");
    snprintf(path, sizeof path, "%s:%s:%s", search ? search : "", env ? env : "",
             tiers_builtin_variant_dir());
    for (char *save = NULL, *d = strtok_r(path, ":", &save); d; d = strtok_r(NULL, ":", &save))
        if (*d && fn(d, ud))
            return 1;
    return 0;
}

typedef struct find_ctx {
    const char *name;
    char *out;
    size_t size;
} find_ctx;

static int find_in(const char *dir, void *ud)
{
    find_ctx *c = ud;
    int n = snprintf(c->out, c->size, "%s/%s/variant.yaml", dir, c->name);
    return n > 0 && (size_t)n < c->size && searchpath_is_file(c->out);
}

int searchpath_find(const char *search, const char *name, char *out, size_t size)
{
    find_ctx c = {name, out, size};
    return searchpath_each(search, find_in, &c) ? 0 : TIERS_EINPUT;
}

int searchpath_resolve(const char *spec, const char *search, char *out, size_t size)
{
    if (strchr(spec, '/') || strstr(spec, ".yaml") || strstr(spec, ".yml")) {
        if (searchpath_is_dir(spec))
            snprintf(out, size, "%s/variant.yaml", spec);
        else
            snprintf(out, size, "%s", spec);
        return searchpath_is_file(out) ? 0 : TIERS_EINPUT;
    }
    return searchpath_find(search, spec, out, size);
}
