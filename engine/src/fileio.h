/* fileio.h - the library's one way to read a whole file (variant YAML,
 * content hashes, Lua scripts). */
#ifndef TIERS_FILEIO_H
#define TIERS_FILEIO_H

#include <stddef.h>

/* The file at path, NUL-terminated, in a buffer to free(); its length in
 * *len.  NULL when it cannot be read, is not a regular file or holds more
 * than max bytes: then `why` (may be NULL) says so ("cannot open: No such
 * file or directory", "not a regular file", "file is N bytes, over the
 * 1 MiB limit", "read error: ...", "out of memory") and *oom is set to 1
 * for the last (oom may be NULL). */
char *fileio_read(const char *path, size_t max, size_t *len, char *why, size_t whysize,
                  int *oom);

#endif
