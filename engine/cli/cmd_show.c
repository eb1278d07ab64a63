/* cmd_show.c - `tiers show`: the board as text (or JSON), then the hands
 * and the status. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"

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
                          int files, int ranks, json_writer *w)
{
    json_key(w, "variant");
    json_string(w, tiers_variant_name(v));
    json_key(w, "files");
    json_int(w, files);
    json_key(w, "ranks");
    json_int(w, ranks);
    json_key(w, "ply");
    json_int(w, tiers_pos_ply(p));
    json_key(w, "towers");
    json_begin_array(w);
    for (int r = 0; r < ranks; r++) {
        for (int f = 0; f < files; f++) {
            int h = tiers_pos_height(p, f, r);
            if (h <= 0)
                continue;
            char sq[8];
            json_begin_object(w);
            json_key(w, "square");
            json_string(w, tiers_square_name(f, r, sq));
            json_key(w, "pieces");
            json_begin_array(w);
            for (int t = 1; t <= h && t <= TIERS_MAX_TIERS; t++) {
                char tok[CMD_SHOW_TOKEN];
                int owner = tiers_pos_piece(p, f, r, t, tok, sizeof tok);
                json_begin_object(w);
                json_key(w, "token");
                json_string(w, owner < 0 ? "?" : tok);
                json_key(w, "owner");
                json_int(w, owner);
                json_end_object(w);
            }
            json_end_array(w);
            json_end_object(w);
        }
    }
    json_end_array(w);
}

int cmd_show_run(struct cli *c)
{
    int code = CLI_OK, rc;
    tiers_variant *v = cli_load_variant(c, c->args[0], &code);
    if (!v)
        return code;
    tiers_pos *p = NULL;
    char *cells = NULL, *hands = NULL, *text = NULL;

    code = cli_check_notation(c, v);
    if (code != CLI_OK)
        goto done;
    p = cli_open_pos(c, v, 0, &code);
    if (!p)
        goto done;

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
        json_writer w;
        json_init(&w, stdout);
        json_begin_object(&w);
        json_key(&w, "position");
        json_string(&w, text);
        cmd_show_json(v, p, files, ranks, &w);
        json_key(&w, "hands");
        json_string(&w, hands);
        cli_json_status(&w, v, &st);
        json_end_object(&w);
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
    if (p)
        tiers_pos_free(p);
    tiers_variant_free(v);
    return code;
}
