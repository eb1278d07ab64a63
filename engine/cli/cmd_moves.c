/* cmd_moves.c - `tiers moves`: legal moves of one position, or of every
 * line of a batch file as JSON lines. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonin.h"
#include "jsonw.h"
#include "movelist.h"

/* Writes the moves object of one position, built by movelist_json:
 * {"position", "moves", "in_check", "game_over", "result", "reason"}.
 * 0 or TIERS_ENOMEM. */
static int cmd_moves_json(movelist *l, const char *position, const tiers_status *st)
{
    int rc = movelist_json(l, position, st);
    if (rc == 0)
        fwrite(l->line, 1, l->line_len, stdout);
    return rc;
}

static void cmd_moves_json_error(const char *position, const char *msg)
{
    jsonw w;
    jsonw_init(&w, stdout);
    jsonw_begin_object(&w);
    jsonw_key(&w, "position");
    jsonw_string(&w, position);
    jsonw_key(&w, "error");
    jsonw_string(&w, msg);
    jsonw_end_object(&w);
    fputc('\n', stdout);
}

/* One batch line (already stripped), its moves listed with l.  Returns
 * the exit code it earns. */
static int cmd_moves_line(const struct cli *c, tiers_pos *p, movelist *l, const char *line,
                          long lineno)
{
    char msg[1100], jerr[200], text[1024];
    char *decoded = NULL;
    const char *position = line;

    if (line[0] == '{') {
        int r = jsonin_string(line, "position", &decoded, jerr,
                                sizeof jerr);
        if (r != JSONIN_FOUND) {
            snprintf(msg, sizeof msg, "line %ld: %s", lineno,
                     r == JSONIN_ABSENT ? "no \"position\" field" : jerr);
            cmd_moves_json_error(line, msg);
            return CLI_INPUT;
        }
        position = decoded;
    }

    tiers_error err;
    memset(&err, 0, sizeof err);
    int rc = tiers_pos_parse(p, position, c->notation, &err);
    if (rc < 0) {
        tiers_error_text(&err, text, sizeof text);
        snprintf(msg, sizeof msg, "line %ld: bad position: %s", lineno,
                 text[0] ? text : cli_rc_text(tiers_pos_variant(p), rc));
        cmd_moves_json_error(position, msg);
        free(decoded);
        return cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
    }

    tiers_status st;
    rc = movelist_make(l, p, c->notation, &st);
    if (rc >= 0)
        rc = cmd_moves_json(l, position, &st);
    if (rc < 0) {
        snprintf(msg, sizeof msg, "line %ld: %s", lineno,
                 cli_rc_text(tiers_pos_variant(p), rc));
        cmd_moves_json_error(position, msg);
        free(decoded);
        return cli_exit_for(rc);
    }
    free(decoded);
    return CLI_OK;
}

static int cmd_moves_batch(const struct cli *c, tiers_pos *p)
{
    FILE *in = stdin;
    if (strcmp(c->batch, "-") != 0) {
        in = fopen(c->batch, "r");
        if (!in) {
            cli_error(c, "cannot open '%s': %s", c->batch, strerror(errno));
            return CLI_INPUT;
        }
    }
    char *line = malloc(CLI_MAX_LINE + 1);
    movelist l;
    size_t len;
    long lineno = 0;
    int code = CLI_OK, rc;
    if (movelist_init(&l) < 0) {
        free(line);
        line = NULL;
    }
    if (!line) {
        cli_error(c, "out of memory");
        code = CLI_INTERNAL;
    }
    const char *file = strcmp(c->batch, "-") ? c->batch : "standard input";
    /* a line over the limit, unreadable or holding a NUL byte stops the
       batch: what follows cannot be told apart from it */
    while (line && (rc = cli_read_line(in, line, &len)) != 0) {
        lineno++;
        int bad = cli_line_check(c, file, lineno, rc, line, len);
        if (bad != CLI_OK) {
            code = bad;
            break;
        }
        while (len > 0 && isspace((unsigned char)line[len - 1]))
            line[--len] = '\0';
        char *start = line;
        while (isspace((unsigned char)*start))
            start++;
        if (*start == '\0')
            continue;
        int r = cmd_moves_line(c, p, &l, start, lineno);
        if (r > code)
            code = r;
    }
    if (line)
        movelist_free(&l);
    free(line);
    if (in != stdin)
        fclose(in);
    return code;
}

/* The moves of one position (--position or the start): text, --json or
 * --count.  An exit code. */
static int cmd_moves_one(const struct cli *c, tiers_pos *p, int from)
{
    const tiers_variant *v = tiers_pos_variant(p);
    movelist l;
    if (movelist_init(&l) < 0) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    int code = CLI_OK;
    l.from = from;
    tiers_status st; /* with the moves when the output shows it */
    int rc = movelist_make(&l, p, c->notation, c->json && !c->count ? &st : NULL);
    char **moves = l.texts;
    int n = l.n;
    if (rc < 0) {
        cli_error(c, "cannot list moves: %s", cli_rc_text(v, rc));
        code = cli_exit_for(rc);
    } else if (c->json) {
        char *text = cli_pos_text(p, c->notation, &rc);
        if (!text) {
            cli_error(c, "cannot format the position: %s", cli_code_text(rc));
            code = CLI_INTERNAL;
        } else if (c->count) {
            jsonw w;
            jsonw_init(&w, stdout);
            jsonw_begin_object(&w);
            jsonw_key(&w, "position");
            jsonw_string(&w, text);
            jsonw_key(&w, "count");
            jsonw_int(&w, n);
            jsonw_end_object(&w);
            fputc('\n', stdout);
        } else if (cmd_moves_json(&l, text, &st) < 0) {
            cli_error(c, "out of memory");
            code = CLI_INTERNAL;
        }
        free(text);
    } else if (c->count) {
        printf("%d\n", n);
    } else {
        for (int i = 0; i < n; i++) {
            fputs(moves[i], stdout);
            fputc('\n', stdout);
        }
    }
    movelist_free(&l);
    return code;
}

int cmd_moves_run(struct cli *c)
{
    if (c->batch && (c->position || c->count))
        return cli_usage_error(c, "--batch cannot be combined with %s",
                               c->position ? "--position" : "--count");
    if (c->solved && (c->batch || c->count))
        return cli_usage_error(c, "--solved cannot be combined with %s",
                               c->batch ? "--batch" : "--count");
    if (c->from && (c->batch || c->solved))
        return cli_usage_error(c, "--from cannot be combined with %s",
                               c->batch ? "--batch" : "--solved");
    tiers_variant *v;
    tiers_pos *p;
    int code = cli_open(c, c->args[0], 0, &v, &p);
    if (!p)
        return code;
    int from = c->from ? cli_parse_square(v, c->from) : -1;
    if (c->from && from < 0) {
        cli_error(c, "--from '%s' is not a square of %s (a1..%c%d)", c->from,
                  tiers_variant_name(v), 'a' + tiers_variant_files(v) - 1,
                  tiers_variant_ranks(v));
        code = CLI_INPUT;
    } else if (c->batch) {
        code = cmd_moves_batch(c, p);
    } else if (c->solved) {
        code = cli_solved_moves(c, p);
    } else {
        code = cmd_moves_one(c, p, from);
    }
    cli_close(v, p);
    return code;
}
