/* jsonin.c - reading JSON input with jansson. */
#include "jsonin.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int jsonin_string(const char *text, const char *field, char **out,
                  char *err, size_t errsize)
{
    *out = NULL;
    if (err && errsize)
        err[0] = '\0';
    json_error_t e;
    /* the last of repeated fields wins; \u0000 and text after the value
     * are refused (jansson's defaults) */
    json_t *root = json_loads(text, JSON_DECODE_ANY, &e);
    if (!root) {
        /* jansson names its own flag there; say what is wrong instead */
        const char *why = strstr(e.text, "JSON_ALLOW_NUL") ? "\\u0000 is not allowed"
                                                           : e.text;
        snprintf(err, errsize, "column %d: %s", e.column, why);
        return JSONIN_BAD;
    }
    int code = JSONIN_FOUND;
    json_t *val = json_object_get(root, field); /* NULL for a non-object */
    if (!json_is_object(root)) {
        snprintf(err, errsize, "expected a JSON object");
        code = JSONIN_BAD;
    } else if (!val) {
        code = JSONIN_ABSENT;
    } else if (!json_is_string(val)) {
        snprintf(err, errsize, "field \"%s\" is not a string", field);
        code = JSONIN_BAD;
    } else if (!(*out = strdup(json_string_value(val)))) {
        snprintf(err, errsize, "out of memory");
        code = JSONIN_BAD;
    }
    json_decref(root);
    return code;
}
