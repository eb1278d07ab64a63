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
 * no such field, or JSONIN_BAD with a message in err ("column C: ..." for
 * text that is not JSON; also when the field is not a string, or out of
 * memory).  A string holding \u0000 is refused. */
int jsonin_string(const char *text, const char *field, char **out,
                  char *err, size_t errsize);

#endif
