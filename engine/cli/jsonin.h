/* jsonin.h - the JSON the CLI reads, parsed by jansson: one string field
 * of a JSON object (a `moves --batch` line). */
#ifndef JSONIN_H
#define JSONIN_H

#include <stddef.h>

enum {
    JSONIN_FOUND = 0,
    JSONIN_ABSENT = 1,
    JSONIN_BAD = -1
};

/* Reads the JSON object in `text` (one object, nothing after it but white
 * space) and returns JSONIN_FOUND with the decoded value of the top-level
 * string field `field` in *out (malloc'd, UTF-8), JSONIN_ABSENT if there is
 * no such field, or JSONIN_BAD with "column C: WHAT" in err: C the column
 * where the first defect starts, WHAT in the words the CLI used before
 * jansson (also when the field is not a string, nesting is deeper than
 * 64, or out of memory).  A string holding \u0000 is refused; so are
 * what only jansson refuses (invalid UTF-8, a real number out of range),
 * in jansson's words. */
int jsonin_string(const char *text, const char *field, char **out,
                  char *err, size_t errsize);

#endif
