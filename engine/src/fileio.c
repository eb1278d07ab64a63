/* fileio.c - reading a whole file into memory, with the reason when it
 * cannot be done (fileio.h). */
#include "fileio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *fail(char *why, size_t size, const char *text, const char *detail)
{
    if (why)
        snprintf(why, size, "%s%s", text, detail);
    return NULL;
}

static void size_limit(char *out, size_t size, size_t max)
{
    if (max % (1u << 20) == 0)
        snprintf(out, size, "%zu MiB", max >> 20);
    else
        snprintf(out, size, "%zu-byte", max);
}

char *fileio_read(const char *path, size_t max, size_t *len, char *why, size_t whysize,
                  int *oom)
{
    if (oom)
        *oom = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(why, whysize, "cannot open: ", strerror(errno));
    struct stat st;
    char *buf = NULL, limit[32], text[96];
    if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
        fail(why, whysize, "not a regular file", "");
    } else if ((unsigned long long)st.st_size > max) {
        size_limit(limit, sizeof limit, max);
        snprintf(text, sizeof text, "file is %lld bytes, over the %s limit",
                 (long long)st.st_size, limit);
        fail(why, whysize, text, "");
    } else if (!(buf = malloc((size_t)st.st_size + 1))) {
        if (oom)
            *oom = 1;
        fail(why, whysize, "out of memory", "");
    } else {
        *len = fread(buf, 1, (size_t)st.st_size, f);
        buf[*len] = 0;
        if (ferror(f)) {
            int e = errno;
            free(buf);
            buf = fail(why, whysize, "read error: ", strerror(e));
        }
    }
    fclose(f);
    return buf;
}
