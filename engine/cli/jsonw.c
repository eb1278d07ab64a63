/* jsonw.c - the streaming JSON writer of the CLI's output. */
#include "jsonw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- writer */

void jsonw_init(jsonw *w, FILE *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

/* Comma before a value or key, unless it follows a key. */
static void jsonw_sep(jsonw *w)
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

static void jsonw_open(jsonw *w, int ch)
{
    jsonw_sep(w);
    fputc(ch, w->out);
    if (w->depth < JSONW_MAX_DEPTH)
        w->used[w->depth] = 0;
    w->depth++;
}

static void jsonw_close(jsonw *w, int ch)
{
    if (w->depth > 0)
        w->depth--;
    fputc(ch, w->out);
}

void jsonw_begin_object(jsonw *w) { jsonw_open(w, '{'); }
void jsonw_end_object(jsonw *w) { jsonw_close(w, '}'); }
void jsonw_begin_array(jsonw *w) { jsonw_open(w, '['); }
void jsonw_end_array(jsonw *w) { jsonw_close(w, ']'); }

void jsonw_key(jsonw *w, const char *key)
{
    jsonw_sep(w);
    jsonw_quoted(w->out, key);
    fputc(':', w->out);
    w->after_key = 1;
}

void jsonw_quoted(FILE *out, const char *s)
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

size_t jsonw_quote_mem(char *dst, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    char *d = dst;
    *d++ = '"';
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x20 && ch != '"' && ch != '\\' && ch != 0x7f) {
            *d++ = (char)ch; /* the common case first */
            continue;
        }
        *d++ = '\\';
        switch (ch) {
        case '"': *d++ = '"'; break;
        case '\\': *d++ = '\\'; break;
        case '\n': *d++ = 'n'; break;
        case '\r': *d++ = 'r'; break;
        case '\t': *d++ = 't'; break;
        case '\b': *d++ = 'b'; break;
        case '\f': *d++ = 'f'; break;
        default:
            memcpy(d, "u00", 3);
            d[3] = hex[ch >> 4];
            d[4] = hex[ch & 15];
            d += 5;
        }
    }
    *d++ = '"';
    return (size_t)(d - dst);
}

void jsonw_string(jsonw *w, const char *s)
{
    if (!s) {
        jsonw_null(w);
        return;
    }
    jsonw_sep(w);
    jsonw_quoted(w->out, s);
}

void jsonw_int(jsonw *w, long long v)
{
    jsonw_sep(w);
    fprintf(w->out, "%lld", v);
}

void jsonw_double(jsonw *w, double v, int decimals)
{
    if (!isfinite(v)) {
        jsonw_null(w);
        return;
    }
    jsonw_sep(w);
    fprintf(w->out, "%.*f", decimals, v);
}

void jsonw_bool(jsonw *w, int b)
{
    jsonw_sep(w);
    fputs(b ? "true" : "false", w->out);
}

void jsonw_null(jsonw *w)
{
    jsonw_sep(w);
    fputs("null", w->out);
}

