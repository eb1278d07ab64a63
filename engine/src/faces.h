/* faces.h - reads the `faces:` key of a variant, with the faces'
 * movement tables and diagrams (faces.c). */
#ifndef TIERS_FACES_H
#define TIERS_FACES_H

#include "schema.h"

/* Fills c->v's faces and movement lines from root's `faces:` (none: 0). */
int faces_read(schema_ctx *c, const ynode *root);
/* An offset [dx, dy] (each within the format's limit, not [0, 0]), as in
 * a movement table; regions use it too. */
int faces_offset(schema_ctx *c, const ynode *n, const char *where, int *dx, int *dy);

#endif
