/* json.c - minimal JSON writer and one-field reader for the CLI. */
#include "json.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- writer */

void json_init(json_writer *w, FILE *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

/* Comma before a value or key, unless it follows a key. */
static void json_sep(json_writer *w)
{
    if (w->after_key) {
        w->after_key = 0;
        return;
    }
    if (w->depth > 0) {
        if (w->used[w->depth - 1])
            fputc(',', w->out);
        w->used[w->depth - 1] = 1;
    }
}

static void json_open(json_writer *w, int ch)
{
    json_sep(w);
    fputc(ch, w->out);
    if (w->depth < JSON_MAX_DEPTH)
        w->used[w->depth] = 0;
    w->depth++;
}

static void json_close(json_writer *w, int ch)
{
    if (w->depth > 0)
        w->depth--;
    fputc(ch, w->out);
}

void json_begin_object(json_writer *w) { json_open(w, '{'); }
void json_end_object(json_writer *w) { json_close(w, '}'); }
void json_begin_array(json_writer *w) { json_open(w, '['); }
void json_end_array(json_writer *w) { json_close(w, ']'); }

void json_key(json_writer *w, const char *key)
{
    json_sep(w);
    json_write_quoted(w->out, key);
    fputc(':', w->out);
    w->after_key = 1;
}

void json_write_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        switch (ch) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        default:
            if (ch < 0x20 || ch == 0x7f)
                fprintf(out, "\\u%04x", ch);
            else
                fputc(ch, out);
        }
    }
    fputc('"', out);
}

void json_string(json_writer *w, const char *s)
{
    if (!s) {
        json_null(w);
        return;
    }
    json_sep(w);
    json_write_quoted(w->out, s);
}

void json_int(json_writer *w, long long v)
{
    json_sep(w);
    fprintf(w->out, "%lld", v);
}

void json_double(json_writer *w, double v, int decimals)
{
    if (!isfinite(v)) {
        json_null(w);
        return;
    }
    json_sep(w);
    fprintf(w->out, "%.*f", decimals, v);
}

void json_bool(json_writer *w, int b)
{
    json_sep(w);
    fputs(b ? "true" : "false", w->out);
}

void json_null(json_writer *w)
{
    json_sep(w);
    fputs("null", w->out);
}

/* ---------------------------------------------------------------- reader */

enum { JSON_MAX_NEST = 64 };

typedef struct json_reader {
    const char *s;
    size_t i;
    char *err;
    size_t errsize;
} json_reader;

static int json_fail(json_reader *r, const char *fmt, ...)
{
    if (r->err && r->errsize > 0) {
        int n = snprintf(r->err, r->errsize, "column %zu: ", r->i + 1);
        if (n >= 0 && (size_t)n < r->errsize) {
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(r->err + n, r->errsize - (size_t)n, fmt, ap);
            va_end(ap);
        }
    }
    return JSON_BAD;
}

static void json_skip_ws(json_reader *r)
{
    while (r->s[r->i] == ' ' || r->s[r->i] == '\t' || r->s[r->i] == '\n' ||
           r->s[r->i] == '\r')
        r->i++;
}

static int json_hex4(const char *s, unsigned *out)
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

static size_t json_utf8(unsigned cp, char *dst)
{
    if (cp < 0x80) {
        dst[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        dst[0] = (char)(0xc0 | (cp >> 6));
        dst[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        dst[0] = (char)(0xe0 | (cp >> 12));
        dst[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        dst[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    dst[0] = (char)(0xf0 | (cp >> 18));
    dst[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    dst[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    dst[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Parses the string at r->i (which is '"').  With out != NULL, stores the
 * decoded text (malloc'd).  The decoded form is never longer than the
 * escaped one, so one allocation of the raw length suffices. */
static int json_read_string(json_reader *r, char **out)
{
    size_t start = ++r->i, len = 0;
    char *buf = NULL;

    if (out) {
        const char *end = r->s + start;
        while (*end && *end != '"') {
            if (*end == '\\' && end[1])
                end++;
            end++;
        }
        buf = malloc((size_t)(end - (r->s + start)) + 1);
        if (!buf)
            return json_fail(r, "out of memory");
    }
    for (;;) {
        unsigned char ch = (unsigned char)r->s[r->i];
        if (ch == '\0') {
            free(buf);
            r->i = start - 1;
            return json_fail(r, "unterminated string");
        }
        if (ch == '"')
            break;
        if (ch < 0x20) {
            free(buf);
            return json_fail(r, "control character in string");
        }
        if (ch != '\\') {
            if (buf)
                buf[len++] = (char)ch;
            r->i++;
            continue;
        }
        char esc = r->s[r->i + 1];
        char one = 0;
        switch (esc) {
        case '"': one = '"'; break;
        case '\\': one = '\\'; break;
        case '/': one = '/'; break;
        case 'b': one = '\b'; break;
        case 'f': one = '\f'; break;
        case 'n': one = '\n'; break;
        case 'r': one = '\r'; break;
        case 't': one = '\t'; break;
        case 'u': break;
        default:
            free(buf);
            return json_fail(r, "bad escape '\\%c'", esc ? esc : '0');
        }
        if (one) {
            if (buf)
                buf[len++] = one;
            r->i += 2;
            continue;
        }
        unsigned cp, lo;
        if (json_hex4(r->s + r->i + 2, &cp) != 0) {
            free(buf);
            return json_fail(r, "bad \\u escape (need 4 hex digits)");
        }
        if (cp >= 0xdc00 && cp <= 0xdfff) {
            free(buf);
            return json_fail(r, "lone low surrogate \\u%04X", cp);
        }
        if (cp >= 0xd800 && cp <= 0xdbff) {
            const char *t = r->s + r->i + 6;
            if (t[0] != '\\' || t[1] != 'u' || json_hex4(t + 2, &lo) != 0 ||
                lo < 0xdc00 || lo > 0xdfff) {
                free(buf);
                return json_fail(r, "high surrogate \\u%04X without a low one",
                                 cp);
            }
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            r->i += 6;
        }
        if (cp == 0 && buf) {
            free(buf);
            return json_fail(r, "\\u0000 is not allowed here");
        }
        if (buf)
            len += json_utf8(cp, buf + len);
        r->i += 6;
    }
    r->i++; /* closing quote */
    if (out) {
        buf[len] = '\0';
        *out = buf;
    }
    return JSON_FOUND;
}

static int json_read_number(json_reader *r)
{
    const char *s = r->s;
    size_t i = r->i;
    if (s[i] == '-')
        i++;
    if (s[i] == '0') {
        i++;
    } else if (s[i] >= '1' && s[i] <= '9') {
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    } else {
        return json_fail(r, "bad number");
    }
    if (s[i] == '.') {
        i++;
        if (!(s[i] >= '0' && s[i] <= '9'))
            return json_fail(r, "bad number");
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    }
    if (s[i] == 'e' || s[i] == 'E') {
        i++;
        if (s[i] == '+' || s[i] == '-')
            i++;
        if (!(s[i] >= '0' && s[i] <= '9'))
            return json_fail(r, "bad number");
        while (s[i] >= '0' && s[i] <= '9')
            i++;
    }
    r->i = i;
    return JSON_FOUND;
}

static int json_read_value(json_reader *r, int nest);

/* Object members; at top level (nest 0) the wanted field is captured. */
static int json_read_object(json_reader *r, int nest, const char *field,
                            char **found, int *has)
{
    r->i++; /* '{' */
    json_skip_ws(r);
    if (r->s[r->i] == '}') {
        r->i++;
        return JSON_FOUND;
    }
    for (;;) {
        char *key = NULL;
        json_skip_ws(r);
        if (r->s[r->i] != '"')
            return json_fail(r, "expected a field name");
        if (json_read_string(r, field ? &key : NULL) != JSON_FOUND)
            return JSON_BAD;
        json_skip_ws(r);
        if (r->s[r->i] != ':') {
            free(key);
            return json_fail(r, "expected ':'");
        }
        r->i++;
        json_skip_ws(r);
        int want = key && strcmp(key, field) == 0;
        free(key);
        if (want) {
            if (r->s[r->i] != '"')
                return json_fail(r, "field \"%s\" is not a string", field);
            char *val = NULL;
            if (json_read_string(r, &val) != JSON_FOUND)
                return JSON_BAD;
            free(*found); /* a repeated field: the last one wins */
            *found = val;
            *has = 1;
        } else if (json_read_value(r, nest + 1) != JSON_FOUND) {
            return JSON_BAD;
        }
        json_skip_ws(r);
        if (r->s[r->i] == ',') {
            r->i++;
            continue;
        }
        if (r->s[r->i] == '}') {
            r->i++;
            return JSON_FOUND;
        }
        return json_fail(r, "expected ',' or '}'");
    }
}

static int json_read_array(json_reader *r, int nest)
{
    r->i++; /* '[' */
    json_skip_ws(r);
    if (r->s[r->i] == ']') {
        r->i++;
        return JSON_FOUND;
    }
    for (;;) {
        json_skip_ws(r);
        if (json_read_value(r, nest + 1) != JSON_FOUND)
            return JSON_BAD;
        json_skip_ws(r);
        if (r->s[r->i] == ',') {
            r->i++;
            continue;
        }
        if (r->s[r->i] == ']') {
            r->i++;
            return JSON_FOUND;
        }
        return json_fail(r, "expected ',' or ']'");
    }
}

static int json_read_literal(json_reader *r, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(r->s + r->i, word, n) != 0)
        return json_fail(r, "unexpected character '%c'", r->s[r->i]);
    r->i += n;
    return JSON_FOUND;
}

static int json_read_value(json_reader *r, int nest)
{
    if (nest > JSON_MAX_NEST)
        return json_fail(r, "nested too deeply");
    json_skip_ws(r);
    char ch = r->s[r->i];
    switch (ch) {
    case '"': return json_read_string(r, NULL);
    case '{': return json_read_object(r, nest, NULL, NULL, NULL);
    case '[': return json_read_array(r, nest);
    case 't': return json_read_literal(r, "true");
    case 'f': return json_read_literal(r, "false");
    case 'n': return json_read_literal(r, "null");
    case '\0': return json_fail(r, "unexpected end of input");
    default:
        if (ch == '-' || (ch >= '0' && ch <= '9'))
            return json_read_number(r);
        return json_fail(r, "unexpected character '%c'", ch);
    }
}

int json_get_string(const char *text, const char *field, char **out,
                    char *err, size_t errsize)
{
    json_reader r = {text, 0, err, errsize};
    char *found = NULL;
    int has = 0;

    *out = NULL;
    if (err && errsize)
        err[0] = '\0';
    json_skip_ws(&r);
    if (text[r.i] != '{')
        return json_fail(&r, "expected a JSON object");
    if (json_read_object(&r, 0, field, &found, &has) != JSON_FOUND) {
        free(found);
        return JSON_BAD;
    }
    json_skip_ws(&r);
    if (text[r.i] != '\0') {
        free(found);
        return json_fail(&r, "text after the object");
    }
    if (!has)
        return JSON_ABSENT;
    *out = found;
    return JSON_FOUND;
}
