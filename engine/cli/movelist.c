/* movelist.c - the legal moves of a position as sorted texts and the JSON
 * line of `tiers moves` (movelist.h). */
#include "movelist.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonw.h"

/* A text's first 8 bytes as a big-endian number (zeros past its end):
 * comparing two keys compares those bytes as strcmp does, and only texts
 * that share them are compared further. */
struct movelist_key {
    uint64_t key;
    const char *text;
};

/* The keys read 8 bytes as one number, first byte lowest. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "movelist.c reads little-endian words");

enum {
    MOVELIST_TEXT0 = 64 * 1024,         /* the texts' first buffer */
    MOVELIST_TEXT_MAX = 64 * 1024 * 1024,
    MOVELIST_PAD = 8,                   /* bytes readable past the texts */
    MOVELIST_INSERTION = 16             /* runs sorted by insertion */
};

int movelist_init(movelist *l)
{
    memset(l, 0, sizeof *l);
    l->moves = malloc(TIERS_MAX_MOVES * sizeof *l->moves);
    l->texts = malloc(TIERS_MAX_MOVES * sizeof *l->texts);
    l->keys = malloc(TIERS_MAX_MOVES * sizeof *l->keys);
    l->scratch = malloc(TIERS_MAX_MOVES * sizeof *l->scratch);
    l->text = malloc(MOVELIST_TEXT0);
    l->text_size = MOVELIST_TEXT0;
    l->from = -1;
    if (!l->moves || !l->texts || !l->keys || !l->scratch || !l->text) {
        movelist_free(l);
        return TIERS_ENOMEM;
    }
    return 0;
}

void movelist_free(movelist *l)
{
    free(l->moves);
    free(l->texts);
    free(l->keys);
    free(l->scratch);
    free(l->text);
    free(l->line);
    memset(l, 0, sizeof *l);
}

static uint64_t movelist_key_of(const char *t, size_t len)
{
    uint64_t w;
    memcpy(&w, t, sizeof w); /* MOVELIST_PAD bytes past the last text */
    w = __builtin_bswap64(w);
    return len >= 8 ? w : len ? w & ~(~0ull >> (8 * len)) : 0;
}

/* a sorts strictly before b? */
static inline int movelist_before(const movelist_key *a, const movelist_key *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    /* equal keys: texts equal up to 8 bytes; a last byte 0 ends both */
    return (a->key & 0xff) && strcmp(a->text + 8, b->text + 8) < 0;
}

/* A merge sort (stable; equal texts are equal bytes anyway). */
static void movelist_sort(movelist_key *a, movelist_key *tmp, int n)
{
    if (n <= MOVELIST_INSERTION) {
        for (int i = 1; i < n; i++) {
            movelist_key k = a[i];
            int j = i;
            for (; j > 0 && movelist_before(&k, &a[j - 1]); j--)
                a[j] = a[j - 1];
            a[j] = k;
        }
        return;
    }
    int h = n / 2;
    movelist_sort(a, tmp, h);
    movelist_sort(a + h, tmp, n - h);
    if (!movelist_before(&a[h], &a[h - 1]))
        return; /* the halves are already in order */
    memcpy(tmp, a, (size_t)h * sizeof *tmp);
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        a[k++] = movelist_before(&a[j], &tmp[i]) ? a[j++] : tmp[i++];
    while (i < h)
        a[k++] = tmp[i++];
}

/* The texts of l->moves[0..n) into l->text, growing it while it is too
 * small; the bytes used or a negative error. */
static int movelist_write(movelist *l, const tiers_pos *p, int n, const char *notation)
{
    for (;;) {
        int used = tiers_moves_format(p, l->moves, n, notation, l->text,
                                      l->text_size - MOVELIST_PAD, l->texts);
        if (used != TIERS_EFULL || 2 * l->text_size > MOVELIST_TEXT_MAX)
            return used;
        char *more = malloc(2 * l->text_size);
        if (!more)
            return TIERS_ENOMEM;
        free(l->text);
        l->text = more;
        l->text_size *= 2;
    }
}

int movelist_make(movelist *l, tiers_pos *p, const char *notation, tiers_status *st)
{
    l->n = 0;
    l->text_used = 0;
    int n = st ? tiers_pos_status_moves(p, l->moves, TIERS_MAX_MOVES, st)
               : tiers_pos_legal_moves(p, l->moves, TIERS_MAX_MOVES);
    if (n <= 0)
        return n;
    if (l->from >= 0) {
        int kept = 0;
        for (int i = 0; i < n; i++)
            if (cli_move_touches(p, &l->moves[i], l->from))
                l->moves[kept++] = l->moves[i];
        if (!(n = kept))
            return 0;
    }
    int used = movelist_write(l, p, n, notation);
    if (used < 0)
        return used;
    memset(l->text + used, 0, MOVELIST_PAD);
    l->text_used = (size_t)used;
    for (int i = 0; i < n; i++) {
        const char *end = i + 1 < n ? l->texts[i + 1] : l->text + used;
        l->keys[i].key = movelist_key_of(l->texts[i], (size_t)(end - l->texts[i]) - 1);
        l->keys[i].text = l->texts[i];
    }
    movelist_sort(l->keys, l->scratch, n);
    for (int i = 0; i < n; i++)
        l->texts[i] = (char *)l->keys[i].text;
    l->n = n;
    return n;
}

/* Room for `more` bytes after l->line_len; 0 or TIERS_ENOMEM. */
static int movelist_room(movelist *l, size_t more)
{
    if (l->line_len + more <= l->line_size)
        return 0;
    size_t size = l->line_size ? l->line_size : 4096;
    while (size < l->line_len + more)
        size *= 2;
    char *line = realloc(l->line, size);
    if (!line)
        return TIERS_ENOMEM;
    l->line = line;
    l->line_size = size;
    return 0;
}

static void movelist_put(movelist *l, const char *s, size_t len)
{
    memcpy(l->line + l->line_len, s, len);
    l->line_len += len;
}

#define MOVELIST_PUT(l, lit) movelist_put((l), (lit), sizeof(lit) - 1)

static void movelist_quoted(movelist *l, const char *s)
{
    l->line_len += jsonw_quote_mem(l->line + l->line_len, s);
}

/* A move text quoted: the texts lie in l->text with MOVELIST_PAD bytes
 * after the last, and the line has room for 8 bytes beyond it. */
static void movelist_quoted_text(movelist *l, const char *s)
{
    l->line_len += jsonw_quote_padded(l->line + l->line_len, s);
}

int movelist_json(movelist *l, const char *position, const tiers_status *st)
{
    const char *result = cli_result_text(st->result);
    const char *reason = st->reason ? st->reason : "";
    /* each text quoted, a comma: at most 6 bytes a byte (NUL included) */
    size_t bytes = JSONW_QUOTED_MAX(strlen(position)) + JSONW_QUOTED_MAX(strlen(reason)) +
                   (result ? strlen(result) : 0) + 128 + 6 * l->text_used + 8;
    l->line_len = 0;
    if (movelist_room(l, bytes) < 0)
        return TIERS_ENOMEM;
    MOVELIST_PUT(l, "{\"position\":");
    movelist_quoted(l, position);
    MOVELIST_PUT(l, ",\"moves\":[");
    for (int i = 0; i < l->n; i++) {
        if (i)
            MOVELIST_PUT(l, ",");
        movelist_quoted_text(l, l->texts[i]);
    }
    MOVELIST_PUT(l, "],\"in_check\":");
    if (st->in_check)
        MOVELIST_PUT(l, "true");
    else
        MOVELIST_PUT(l, "false");
    MOVELIST_PUT(l, ",\"game_over\":");
    if (st->game_over)
        MOVELIST_PUT(l, "true");
    else
        MOVELIST_PUT(l, "false");
    MOVELIST_PUT(l, ",\"result\":");
    if (result)
        movelist_quoted(l, result);
    else
        MOVELIST_PUT(l, "null");
    MOVELIST_PUT(l, ",\"reason\":");
    movelist_quoted(l, reason);
    MOVELIST_PUT(l, "}\n");
    return 0;
}
