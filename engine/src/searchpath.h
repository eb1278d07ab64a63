/* searchpath.h - the variant search path: where a variant's name is looked
 * for, the same for a name on the command line (tiers_variant_load) and a
 * parent named by `inherits:` (the loader). */
#ifndef TIERS_SEARCHPATH_H
#define TIERS_SEARCHPATH_H

#include <stddef.h>

/* Calls fn(dir, ud) for each folder in order: those of `search` (a
 * ':'-separated list, may be NULL: the CLI's --variants), those of the
 * environment's TIERS_VARIANT_PATH, then the built-in folder
 * (tiers_builtin_variant_dir).  Stops at, and returns 1 for, the first fn
 * that returns non-zero; 0 when none did. */
int searchpath_each(const char *search, int (*fn)(const char *dir, void *ud), void *ud);

/* DIR/NAME/variant.yaml of the first folder on the path that holds one,
 * into out.  0, or TIERS_EINPUT when no folder does. */
int searchpath_find(const char *search, const char *name, char *out, size_t size);

/* The YAML file a spec names: a path (it holds '/' or ends in .yaml/.yml;
 * a folder stands for its variant.yaml) or a name found on the path. */
int searchpath_resolve(const char *spec, const char *search, char *out, size_t size);

int searchpath_is_file(const char *path);
int searchpath_is_dir(const char *path);

/* The folder of a file path: "." when it has none, "/" at the root. */
void searchpath_dir_of(const char *file, char *out, size_t size);
/* path made absolute against the working folder ("./" dropped); -1 when
 * it does not fit or the working folder is unknown. */
int searchpath_make_abs(const char *path, char *out, size_t size);

#endif
