/* jsonw.c - the streaming JSON writer of the CLI's output. */
#include "jsonw.h"

#include <math.h>
#include <stdint.h>
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

size_t jsonw_escape_mem(char *dst, const char *s)
{
    static const char hex[] = "0123456789abcdef";
    char *d = dst;
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
    return (size_t)(d - dst);
}

size_t jsonw_quote_mem(char *dst, const char *s)
{
    dst[0] = '"';
    size_t len = 1 + jsonw_escape_mem(dst + 1, s);
    dst[len] = '"';
    return len + 1;
}

/* The bytes of w (8, in memory order) JSON must escape or that end a
 * string (NUL): 0x80 set in each.  Only the lowest flagged byte is
 * exact (a borrow may flag bytes above it), the only one read. */
static inline uint64_t jsonw_special(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    uint64_t quote = w ^ (ones * '"'), bslash = w ^ (ones * '\\'), del = w ^ (ones * 0x7f);
    uint64_t low = (w - ones * 0x20) & ~w; /* bytes below 0x20 */
    uint64_t eq = ((quote - ones) & ~quote) | ((bslash - ones) & ~bslash) |
                  ((del - ones) & ~del);
    return (low | eq) & high;
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "jsonw_quote_padded: first byte lowest");

size_t jsonw_quote_padded(char *dst, const char *s)
{
    char *d = dst;
    *d++ = '"';
    for (;;) { /* eight bytes at a time while none needs escaping */
        uint64_t w;
        memcpy(&w, s, sizeof w);
        uint64_t special = jsonw_special(w);
        memcpy(d, &w, sizeof w);
        if (!special) {
            s += 8;
            d += 8;
            continue;
        }
        int clean = __builtin_ctzll(special) / 8;
        s += clean;
        d += clean;
        if (*s)
            d += jsonw_escape_mem(d, s);
        break;
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

void jsonw_double_g(jsonw *w, double v)
{
    if (!isfinite(v)) {
        jsonw_null(w);
        return;
    }
    jsonw_sep(w);
    fprintf(w->out, "%.6g", v);
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

