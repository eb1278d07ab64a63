/* yamltree.h - a variant's YAML read into a marked tree: every node keeps
 * its file, line and column, so the schema walk (loader.c) can name them
 * in errors.  The reader handles anchors and aliases, refuses duplicate
 * keys, several documents and hostile sizes, and merges an `inherits:`
 * chain into one tree.  yamltree.c is the only file that includes yaml.h. */
#ifndef TIERS_YAMLTREE_H
#define TIERS_YAMLTREE_H

#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>

#include "tiers.h"

#if defined(__GNUC__)
#define YAMLTREE_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define YAMLTREE_PRINTF(a, b)
#endif

enum { Y_SCALAR, Y_SEQ, Y_MAP };
enum { YAMLTREE_MAX_INHERIT = 16, YAMLTREE_MAX_WARNINGS = 8, YAMLTREE_WARNING = 320 };

typedef struct ynode {
    struct ynode *kids, *last, *next; /* children in document order */
    const char *file;                 /* the file it was read from */
    const char *str;                  /* scalar text */
    const char *key;                  /* its key, inside a mapping */
    int line, col, key_line, key_col; /* 1-based */
    int body_line, body_col;          /* literal block: start of its text */
    int n;                            /* number of children */
    uint8_t type, null;
} ynode;

typedef struct yamltree_blk yamltree_blk;

/* One reading: the arena every node lives in (freed at once, so no error
 * path can leak), the first error, and the files of the inherits chain. */
typedef struct yamltree {
    tiers_error *err;
    int rc;                             /* first error, kept */
    const char *search;                 /* variant search path (searchpath.h) */
    uint64_t hash;                      /* FNV-1a over every file read */
    yamltree_blk *arena;
    long nodes;                         /* all files together */
    dev_t dev[YAMLTREE_MAX_INHERIT];    /* identities of the files being */
    ino_t ino[YAMLTREE_MAX_INHERIT];    /* read, to detect inherits cycles */
    int nchain;
    /* What the merge noticed without failing: a child's plain list that
       replaced a parent's ("file:line:col: text"), and whether the
       parent's tiles held a royal face (-1: no parent). */
    char warnings[YAMLTREE_MAX_WARNINGS][YAMLTREE_WARNING];
    int nwarnings;
    int parent_royal;
    const ynode *inherits;              /* the child's inherits: node */
} yamltree;

/* Starts a reading that reports into err; `search` finds parents. */
void yamltree_init(yamltree *t, tiers_error *err, const char *search);
/* Reads the file at path and the chain it inherits from, merged
 * (docs/variant-format.md, "inherits"): child mappings merge key by key,
 * `KEY+:` appends to the parent's list, `KEY-:` removes entries (or a
 * mapping's keys) by name, other values of the child replace, and a
 * top-level list replaced without `replace: [KEY]` is a warning.  The
 * root is a mapping with a `name` key.  0, or the error code (err set). */
int yamltree_load(yamltree *t, const char *path, ynode **root);
/* Frees every node of the reading. */
void yamltree_free(yamltree *t);

/* Zeroed memory that lives until yamltree_free; NULL (error set) if none. */
void *yamltree_alloc(yamltree *t, size_t n);

/* A mapping's child named key, or NULL. */
const ynode *yamltree_get(const ynode *map, const char *key);

/* Errors: record the first one (file, line, col, message) and return its
 * code, TIERS_EINPUT (TIERS_ENOMEM for memory).  yamltree_fail names the
 * node's value, yamltree_fail_key its key. */
int yamltree_failv(yamltree *t, const char *file, int line, int col, const char *fmt,
                   va_list ap);
YAMLTREE_PRINTF(5, 6)
int yamltree_fail_at(yamltree *t, const char *file, int line, int col, const char *fmt, ...);

/* YAML scalars: an integer (0; -1 when not one; 1 out of long's range)
 * and a boolean (1, 0, or -1 when neither: true/True/TRUE, false/...). */
int yamltree_parse_long(const char *s, long *out);
int yamltree_parse_bool(const char *s);

#endif
