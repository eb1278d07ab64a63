/* cmd_show.c - `tiers show`: the board as text (or JSON), then the hands
 * and the status. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonw.h"

enum {
    CMD_SHOW_TOKEN = 32,                                   /* one piece */
    CMD_SHOW_CELL = TIERS_MAX_TIERS * (CMD_SHOW_TOKEN + 1) /* one tower */
};

/* Tower at (file, rank) as "t1:t2:...", "." when empty. */
static void cmd_show_cell(const tiers_pos *p, int file, int rank, char *out)
{
    int h = tiers_pos_height(p, file, rank);
    size_t len = 0;
    out[0] = '\0';
    if (h <= 0) {
        strcpy(out, ".");
        return;
    }
    if (h > TIERS_MAX_TIERS)
        h = TIERS_MAX_TIERS;
    for (int t = 1; t <= h; t++) {
        char tok[CMD_SHOW_TOKEN];
        if (tiers_pos_piece(p, file, rank, t, tok, sizeof tok) < 0)
            strcpy(tok, "?");
        if (t > 1)
            out[len++] = ':';
        size_t n = strlen(tok);
        memcpy(out + len, tok, n + 1);
        len += n;
    }
}

static void cmd_show_text(const tiers_variant *v, const tiers_pos *p,
                          const char *cells, int files, int ranks)
{
    int width[TIERS_MAX_FILES];
    for (int f = 0; f < files; f++) {
        width[f] = 1;
        for (int r = 0; r < ranks; r++) {
            int n = (int)strlen(cells + ((size_t)r * files + f) *
                                            CMD_SHOW_CELL);
            if (n > width[f])
                width[f] = n;
        }
    }
    printf("%s, ply %d\n\n", tiers_variant_name(v), tiers_pos_ply(p));
    for (int r = ranks - 1; r >= 0; r--) {
        printf("%2d ", r + 1);
        for (int f = 0; f < files; f++) {
            const char *cell = cells + ((size_t)r * files + f) * CMD_SHOW_CELL;
            if (f == files - 1)
                printf(" %s", cell);
            else
                printf(" %-*s", width[f], cell);
        }
        printf("\n");
    }
    printf("   ");
    for (int f = 0; f < files; f++) {
        if (f == files - 1)
            printf(" %c", 'a' + f);
        else
            printf(" %-*c", width[f], 'a' + f);
    }
    printf("\n\n");
}

static void cmd_show_json(const tiers_variant *v, const tiers_pos *p,
                          int files, int ranks, jsonw *w)
{
    jsonw_key(w, "variant");
    jsonw_string(w, tiers_variant_name(v));
    jsonw_key(w, "files");
    jsonw_int(w, files);
    jsonw_key(w, "ranks");
    jsonw_int(w, ranks);
    jsonw_key(w, "ply");
    jsonw_int(w, tiers_pos_ply(p));
    jsonw_key(w, "towers");
    jsonw_begin_array(w);
    for (int r = 0; r < ranks; r++) {
        for (int f = 0; f < files; f++) {
            int h = tiers_pos_height(p, f, r);
            if (h <= 0)
                continue;
            char sq[8];
            jsonw_begin_object(w);
            jsonw_key(w, "square");
            jsonw_string(w, tiers_square_name(f, r, sq));
            jsonw_key(w, "pieces");
            jsonw_begin_array(w);
            for (int t = 1; t <= h && t <= TIERS_MAX_TIERS; t++) {
                char tok[CMD_SHOW_TOKEN];
                int owner = tiers_pos_piece(p, f, r, t, tok, sizeof tok);
                jsonw_begin_object(w);
                jsonw_key(w, "token");
                jsonw_string(w, owner < 0 ? "?" : tok);
                jsonw_key(w, "owner");
                jsonw_int(w, owner);
                jsonw_end_object(w);
            }
            jsonw_end_array(w);
            jsonw_end_object(w);
        }
    }
    jsonw_end_array(w);
}

int cmd_show_run(struct cli *c)
{
    int rc;
    tiers_variant *v;
    tiers_pos *p;
    int code = cli_open(c, c->args[0], 0, &v, &p);
    if (!p)
        return code;
    char *cells = NULL, *hands = NULL, *text = NULL;

    int files = tiers_variant_files(v), ranks = tiers_variant_ranks(v);
    if (files < 1 || files > TIERS_MAX_FILES || ranks < 1 ||
        ranks > TIERS_MAX_RANKS) {
        cli_error(c, "%s: bad board size %dx%d", c->args[0], files, ranks);
        code = CLI_INTERNAL;
        goto done;
    }
    cells = malloc((size_t)files * ranks * CMD_SHOW_CELL);
    hands = cli_hands_text(p, &rc);
    if (hands)
        text = cli_pos_text(p, c->notation, &rc);
    if (!cells || !text) {
        cli_error(c, "cannot format the position: %s",
                  cli_code_text(cells ? rc : TIERS_ENOMEM));
        code = CLI_INTERNAL;
        goto done;
    }
    for (int r = 0; r < ranks; r++)
        for (int f = 0; f < files; f++)
            cmd_show_cell(p, f, r,
                          cells + ((size_t)r * files + f) * CMD_SHOW_CELL);
    tiers_status st = tiers_pos_status(p);

    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "position");
        jsonw_string(&w, text);
        cmd_show_json(v, p, files, ranks, &w);
        jsonw_key(&w, "hands");
        jsonw_string(&w, hands);
        cli_json_status(&w, v, &st);
        jsonw_end_object(&w);
        fputc('\n', stdout);
    } else {
        cmd_show_text(v, p, cells, files, ranks);
        printf("hands: %s\n", hands[0] ? hands : "-");
        printf("position: %s\n", text);
        cli_print_status(v, &st);
    }
done:
    free(cells);
    free(hands);
    free(text);
    cli_close(v, p);
    return code;
}
