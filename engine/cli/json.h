/* json.h - the little JSON the CLI needs: a streaming writer that places
 * commas itself, and a reader that pulls one string field out of a
 * one-line JSON object. */
#ifndef JSON_H
#define JSON_H

#include <stddef.h>
#include <stdio.h>

enum { JSON_MAX_DEPTH = 32 };

typedef struct json_writer {
    FILE *out;
    int depth;
    int after_key;                       /* a key was written, value next */
    unsigned char used[JSON_MAX_DEPTH];  /* container has an element */
} json_writer;

void json_init(json_writer *w, FILE *out);
void json_begin_object(json_writer *w);
void json_end_object(json_writer *w);
void json_begin_array(json_writer *w);
void json_end_array(json_writer *w);
void json_key(json_writer *w, const char *key);
void json_string(json_writer *w, const char *s); /* NULL writes null */
void json_int(json_writer *w, long long v);
void json_double(json_writer *w, double v, int decimals);
void json_bool(json_writer *w, int b);
void json_null(json_writer *w);

/* Writes s as a quoted JSON string (control characters, '"' and '\\'
 * escaped; other bytes copied). */
void json_write_quoted(FILE *out, const char *s);

enum {
    JSON_FOUND = 0,
    JSON_ABSENT = 1,
    JSON_BAD = -1
};

/* Reads the JSON object in `text` (one object, nothing after it but white
 * space) and returns JSON_FOUND with the decoded value of the top-level
 * string field `field` in *out (malloc'd, UTF-8), JSON_ABSENT if there is
 * no such field, or JSON_BAD with a message in err (also when the field is
 * not a string, or out of memory). */
int json_get_string(const char *text, const char *field, char **out,
                    char *err, size_t errsize);

#endif
