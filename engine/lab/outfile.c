/* outfile.c - whole-or-nothing output files (outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void outfile_free(struct outfile *o)
{
    free(o->path);
    free(o->tmp);
    o->path = o->tmp = NULL;
    o->f = NULL;
}

int outfile_open(struct outfile *o, const char *path, char *err, size_t size)
{
    memset(o, 0, sizeof *o);
    struct stat st;
    o->path = strdup(path);
    if (!o->path) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    if (lstat(path, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
        o->f = fopen(path, "w");
        if (!o->f) {
            snprintf(err, size, "cannot write '%s': %s", path, strerror(errno));
            outfile_free(o);
            return -1;
        }
        return 0;
    }
    size_t n = strlen(path);
    o->tmp = malloc(n + 8);
    if (!o->tmp) {
        snprintf(err, size, "out of memory");
        outfile_free(o);
        return -1;
    }
    memcpy(o->tmp, path, n);
    memcpy(o->tmp + n, ".XXXXXX", 8);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        snprintf(err, size, "cannot write '%s': %s", path, strerror(errno));
        outfile_free(o);
        return -1;
    }
    /* mkstemp makes it 0600: give it the mode a new file would have */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        snprintf(err, size, "cannot write '%s': %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        outfile_free(o);
        return -1;
    }
    return 0;
}

int outfile_close(struct outfile *o, int ok, char *err, size_t size)
{
    int e = 0;
    if (o->f) {
        if (ferror(o->f) || fflush(o->f) != 0) {
            e = errno ? errno : EIO;
            ok = 0;
        }
        if (fclose(o->f) != 0 && ok) {
            e = errno;
            ok = 0;
        }
        o->f = NULL;
    }
    if (ok && o->tmp && rename(o->tmp, o->path) != 0) {
        e = errno;
        ok = 0;
    }
    if (!ok) {
        if (e)
            snprintf(err, size, "error writing '%s': %s", o->path, strerror(e));
        else if (!err[0])
            snprintf(err, size, "error writing '%s'", o->path);
        if (o->tmp)
            unlink(o->tmp);
    }
    outfile_free(o);
    return ok ? 0 : -1;
}
