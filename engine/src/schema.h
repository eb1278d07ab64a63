/* schema.h - the checked reading of a variant's YAML tree shared by the
 * loader's readers (schema.c): the reading context, errors naming
 * file:line:col, and typed values. */
#ifndef TIERS_SCHEMA_H
#define TIERS_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "yamltree.h"

/* The longest "where" text of a message. */
enum { SCHEMA_WHERE = 160 };

/* One variant being read: the tree (its arena and first error) and the
 * variant filled from it. */
typedef struct schema_ctx {
    yamltree t;
    tiers_variant *v;
    struct diagram *diag;     /* scratch for faces.c's diagram reader, reused */
} schema_ctx;

/* "did you mean a or b" (tiers_suggest) into buf, or "" when no name is
 * close; returns buf. */
const char *schema_did_you_mean(const char *word, const char *const *names, int n,
                                char *buf, size_t size);

/* Errors: record the first one (message formatted as printf) at a place,
 * at a node's value, or at its key; each returns the tree's error code. */
YAMLTREE_PRINTF(5, 6)
int schema_fail_at(schema_ctx *c, const char *file, int line, int col, const char *fmt, ...);
YAMLTREE_PRINTF(3, 4)
int schema_fail(schema_ctx *c, const ynode *n, const char *fmt, ...);
YAMLTREE_PRINTF(3, 4)
int schema_fail_key(schema_ctx *c, const ynode *n, const char *fmt, ...);
/* printf into buf (a "where" text); returns buf. */
YAMLTREE_PRINTF(3, 4)
const char *schema_at(char *buf, size_t size, const char *fmt, ...);
/* The value of key in a mapping, or NULL. */
const ynode *schema_get(const ynode *map, const char *key);
/* How a node reads in a message ("a list", "'x'", ...), in buf. */
const char *schema_got(const ynode *n, char *buf, size_t size);
/* Is n of this type (Y_SCALAR, Y_SEQ, Y_MAP; null passes as an empty list
 * or mapping)?  0, or an error naming `where`. */
int schema_want(schema_ctx *c, const ynode *n, int type, const char *where);
/* The index of s in a NULL-ended list, or -1. */
int schema_in_list(const char *const *list, const char *s);
/* The list's entries joined with sep, in buf. */
const char *schema_join(const char *const *list, const char *sep, char *buf, size_t size);
/* Does the mapping use only these (NULL-ended) keys? */
int schema_keys_ok(schema_ctx *c, const ynode *map, const char *where,
                   const char *const *allowed);
/* The value of a key the mapping must have (NULL and an error if missing). */
const ynode *schema_req(schema_ctx *c, const ynode *map, const char *where, const char *key);
/* Values: an integer lo..hi, a boolean, a string that fits buf, one of a
 * NULL-ended list of names (its index). */
int schema_int_val(schema_ctx *c, const ynode *n, const char *where, long lo, long hi,
                   long *out);
int schema_bool_val(schema_ctx *c, const ynode *n, const char *where, uint8_t *out);
int schema_str_val(schema_ctx *c, const ynode *n, const char *where, char *buf, size_t size);
int schema_enum_val(schema_ctx *c, const ynode *n, const char *where,
                    const char *const *names, int *out);
/* Optional keys of a mapping ("pre.key" in messages): *out is left alone
 * when the key is missing. */
int schema_opt_int(schema_ctx *c, const ynode *map, const char *pre, const char *key,
                   long lo, long hi, long *out);
int schema_opt_u8(schema_ctx *c, const ynode *map, const char *pre, const char *key,
                  long lo, long hi, uint8_t *out);
int schema_opt_bool(schema_ctx *c, const ynode *map, const char *pre, const char *key,
                    uint8_t *out);
int schema_opt_enum(schema_ctx *c, const ynode *map, const char *pre, const char *key,
                    const char *const *names, uint8_t *out);
/* A face or a side named by a scalar (a side by name or symbol). */
int schema_face_ref(schema_ctx *c, const ynode *n, const char *where, uint8_t *out);
int schema_side_ref(schema_ctx *c, const ynode *n, const char *where, uint8_t *out);

#endif
