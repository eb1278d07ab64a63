/* jsonin.c - reading JSON input with jansson, with the error messages the
 * CLI has always given (column of the first defect, in its own words). */
#include "jsonin.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper nesting than this is refused (jansson alone would take 2048). */
enum { JSONIN_MAX_NEST = 64 };

/* ------------------------------------------------------------ diagnosis */

/* Where jansson refuses a text, the first defect is found again by walking
 * its tokens with the grammar's expectations, so that the message names
 * the column where the defect starts and says what was expected there.
 * Nothing is decoded here: jansson does the parsing. */

static int jd_fail(char *err, size_t size, size_t at, const char *fmt, ...)
{
    int n = snprintf(err, size, "column %zu: ", at + 1);
    if (n >= 0 && (size_t)n < size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + n, size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return 1;
}

static int jd_hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char ch = s[k];
        v <<= 4;
        if (ch >= '0' && ch <= '9')
            v |= (unsigned)(ch - '0');
        else if (ch >= 'a' && ch <= 'f')
            v |= (unsigned)(ch - 'a' + 10);
        else if (ch >= 'A' && ch <= 'F')
            v |= (unsigned)(ch - 'A' + 10);
        else
            return -1;
    }
    *out = v;
    return 0;
}

/* The string starting at s[i] (a '"'): 1 with its first defect in err, or
 * 0 with *end just past its closing quote. */
static int jd_string(const char *s, size_t i, size_t *end, char *err, size_t size)
{
    size_t start = i++;
    for (;;) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\0')
            return jd_fail(err, size, start, "unterminated string");
        if (ch == '"')
            break;
        if (ch < 0x20)
            return jd_fail(err, size, i, "control character in string");
        if (ch != '\\') {
            i++;
            continue;
        }
        char esc = s[i + 1];
        if (esc && strchr("\"\\/bfnrt", esc)) {
            i += 2;
            continue;
        }
        if (esc != 'u')
            return jd_fail(err, size, i, "bad escape '\\%c'", esc ? esc : '0');
        unsigned cp, lo;
        if (jd_hex4(s + i + 2, &cp) != 0)
            return jd_fail(err, size, i, "bad \\u escape (need 4 hex digits)");
        if (cp >= 0xdc00 && cp <= 0xdfff)
            return jd_fail(err, size, i, "lone low surrogate \\u%04X", cp);
        if (cp >= 0xd800 && cp <= 0xdbff) {
            const char *t = s + i + 6;
            if (t[0] != '\\' || t[1] != 'u' || jd_hex4(t + 2, &lo) != 0 || lo < 0xdc00 ||
                lo > 0xdfff)
                return jd_fail(err, size, i, "high surrogate \\u%04X without a low one", cp);
            i += 6;
        }
        if (cp == 0)
            return jd_fail(err, size, i, "\\u0000 is not allowed here");
        i += 6;
    }
    *end = i + 1;
    return 0;
}

/* The end of the number at s[i], or 0 if the grammar refuses it. */
static size_t jd_number(const char *s, size_t i)
{
    if (s[i] == '-')
        i++;
    if (s[i] == '0')
        i++;
    else if (s[i] >= '1' && s[i] <= '9')
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    else
        return 0;
    if (s[i] == '.') {
        if (!(s[++i] >= '0' && s[i] <= '9'))
            return 0;
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (s[i] == 'e' || s[i] == 'E') {
        i++;
        if (s[i] == '+' || s[i] == '-')
            i++;
        if (!(s[i] >= '0' && s[i] <= '9'))
            return 0;
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    }
    return i;
}

/* Whether the key string s[at, end) decodes to field. */
static int jd_key_is(const char *s, size_t at, size_t end, const char *field)
{
    json_error_t e;
    json_t *key = json_loadb(s + at, end - at, JSON_DECODE_ANY | JSON_ALLOW_NUL, &e);
    int same = json_is_string(key) && json_string_length(key) == strlen(field) &&
               !memcmp(json_string_value(key), field, strlen(field));
    json_decref(key);
    return same;
}

/* What the walk expects next. */
enum { JD_VALUE, JD_VALUE_OR_END, JD_KEY, JD_KEY_OR_END, JD_COLON, JD_NEXT, JD_DONE };

/* Walks the object at s[i] (a '{'): 1 with the first defect in err (a
 * top-level `field` that is not a string is one), 0 if there is none. */
static int jd_walk(const char *s, size_t i, const char *field, char *err, size_t size)
{
    char open[JSONIN_MAX_NEST + 2];
    int depth = 0, want = JD_VALUE, wanted = 0;
    for (;;) {
        while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
            i++;
        size_t at = i, end;
        char c = s[i];
        if (want == JD_DONE)
            return c ? jd_fail(err, size, at, "text after the object") : 0;
        if (want == JD_NEXT) {
            char close = open[depth - 1] == '{' ? '}' : ']';
            if (c == ',') {
                want = close == '}' ? JD_KEY : JD_VALUE;
                i++;
                continue;
            }
            if (c != close)
                return jd_fail(err, size, at, "expected ',' or '%c'", close);
            depth--;
            want = depth ? JD_NEXT : JD_DONE;
            i++;
            continue;
        }
        if ((want == JD_KEY_OR_END && c == '}') || (want == JD_VALUE_OR_END && c == ']')) {
            depth--;
            want = depth ? JD_NEXT : JD_DONE;
            i++;
            continue;
        }
        if (want == JD_KEY || want == JD_KEY_OR_END) {
            if (c != '"')
                return jd_fail(err, size, at, "expected a field name");
            if (jd_string(s, at, &end, err, size))
                return 1;
            wanted = depth == 1 && jd_key_is(s, at, end, field);
            want = JD_COLON;
            i = end;
            continue;
        }
        if (want == JD_COLON) {
            if (c != ':')
                return jd_fail(err, size, at, "expected ':'");
            want = JD_VALUE;
            i++;
            continue;
        }
        /* a value */
        if (wanted && c != '"')
            return jd_fail(err, size, at, "field \"%s\" is not a string", field);
        wanted = 0;
        if (depth > JSONIN_MAX_NEST)
            return jd_fail(err, size, at, "nested too deeply");
        want = JD_NEXT;
        if (c == '"') {
            if (jd_string(s, at, &end, err, size))
                return 1;
            i = end;
        } else if (c == '{' || c == '[') {
            open[depth++] = c;
            want = c == '{' ? JD_KEY_OR_END : JD_VALUE_OR_END;
            i++;
        } else if (c == 't' || c == 'f' || c == 'n') {
            const char *word = c == 't' ? "true" : c == 'f' ? "false" : "null";
            if (strncmp(s + at, word, strlen(word)))
                return jd_fail(err, size, at, "unexpected character '%c'", c);
            i += strlen(word);
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            if (!(i = jd_number(s, at)))
                return jd_fail(err, size, at, "bad number");
        } else {
            return jd_fail(err, size, at, c ? "unexpected character '%c'" : "unexpected end of input",
                           c);
        }
        if (want == JD_NEXT && depth == 0)
            want = JD_DONE;
    }
}

/* Whether a text jansson took may still hold what the walk refuses: more
 * openings than the nesting allows, or the field named twice (the first
 * may not be a string). */
static int jd_worth_walking(const char *text, const char *field)
{
    int openings = 0, named = 0;
    size_t flen = strlen(field);
    for (const char *c = text; *c; c++) {
        openings += *c == '{' || *c == '[';
        named += *c == '"' && !strncmp(c + 1, field, flen) && c[flen + 1] == '"';
    }
    return openings > JSONIN_MAX_NEST || named > 1;
}

/* ------------------------------------------------------------ reading */

int jsonin_string(const char *text, const char *field, char **out,
                  char *err, size_t errsize)
{
    *out = NULL;
    if (err && errsize)
        err[0] = '\0';
    size_t lead = strspn(text, " \t\n\r");
    if (text[lead] != '{') {
        jd_fail(err, errsize, lead, "expected a JSON object");
        return JSONIN_BAD;
    }
    /* the last of repeated fields wins; \u0000 and text after the value
     * are refused (jansson's defaults); integers too long for 64 bits are
     * read as reals rather than refused */
    json_error_t e;
    json_t *root = json_loads(text, JSON_DECODE_INT_AS_REAL, &e);
    if (!root || jd_worth_walking(text, field)) {
        if (jd_walk(text, lead, field, err, errsize)) {
            json_decref(root);
            return JSONIN_BAD;
        }
        if (!root) {
            /* what only jansson refuses: numbers it cannot hold, bytes
             * that are not UTF-8 */
            const char *why = strstr(e.text, "JSON_ALLOW_NUL") ? "\\u0000 is not allowed"
                                                               : e.text;
            snprintf(err, errsize, "column %d: %s", e.column, why);
            return JSONIN_BAD;
        }
    }
    int code = JSONIN_FOUND;
    json_t *val = json_object_get(root, field);
    if (!val) {
        code = JSONIN_ABSENT;
    } else if (!json_is_string(val)) {
        /* the walk names the column of the first such value */
        if (!jd_walk(text, lead, field, err, errsize))
            snprintf(err, errsize, "field \"%s\" is not a string", field);
        code = JSONIN_BAD;
    } else if (!(*out = strdup(json_string_value(val)))) {
        snprintf(err, errsize, "out of memory");
        code = JSONIN_BAD;
    }
    json_decref(root);
    return code;
}
