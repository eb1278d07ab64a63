/* outfile.h - files written whole or not at all: the text goes to a
 * temporary file created exclusively in the target's folder (mkstemp:
 * never through a link planted at a predictable name) and is renamed
 * into place once every write and the close succeeded.  On a full disk
 * or any other error the temporary file is removed, so the final name
 * never holds a partial file.  A target that exists and is a device or a
 * pipe (/dev/stdout, /dev/full) is written directly. */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct outfile {
    char *path;     /* the final name */
    char *tmp;      /* the temporary file, NULL when writing directly */
    FILE *f;
};

/* Opens o for writing to path.  0, or -1 with err. */
int outfile_open(struct outfile *o, const char *path, char *err, size_t errsize);

/* Ends the output: with ok (the writer's own verdict) and every write and
 * the close successful, the temporary file becomes path (replacing what
 * was there, a link included, without following it); else it is
 * removed.  0, or -1 with err. */
int outfile_close(struct outfile *o, int ok, char *err, size_t errsize);

#endif
