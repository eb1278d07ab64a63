/* cmd_solve.c - `tiers solve VARIANT`: retrograde analysis of a small
 * variant (tiers_solve), and `tiers moves --solved FILE`, which marks each
 * legal move with the value a saved solution gives it. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonw.h"
#include "outfile.h"

enum {
    CMD_SOLVE_DEFAULT_MAX = 10000000, /* positions */
    CMD_SOLVE_LINE_MAX = 200          /* plies of the printed line */
};

static const char *const cmd_solve_value_name[] = {"unknown", "win", "draw", "loss"};

int cli_solve_option(struct cli *c, cli_opts bit, const char *arg)
{
    long n;
    switch (bit) {
    case CLI_O_MAX_POSITIONS:
        if (cli_parse_int(arg, 1, 4000000000L, &n) != 0)
            return cli_usage_error(c, "bad --max-positions '%s': expected 1..4000000000",
                                   arg);
        c->max_positions = n;
        return -1;
    case CLI_O_SAVE:
        if (!arg[0])
            return cli_usage_error(c, "empty --save file name");
        c->save = arg;
        return -1;
    case CLI_O_SOLVED:
        if (!arg[0])
            return cli_usage_error(c, "empty --solved file name");
        c->solved = arg;
        return -1;
    default:
        return -1;
    }
}

/* "black wins in 12 plies", "draw", ... for the side to move `side`. */
static void cmd_solve_outcome(const tiers_variant *v, int side, int value, int dist,
                              char *buf, size_t size)
{
    char name[16];
    if (value == TIERS_VALUE_WIN || value == TIERS_VALUE_LOSS)
        snprintf(buf, size, "%s wins in %d %s",
                 cli_side_name(v, value == TIERS_VALUE_WIN ? side : side ^ 1, name), dist,
                 dist == 1 ? "ply" : "plies");
    else
        snprintf(buf, size, "%s", cmd_solve_value_name[value & 3]);
}

/* Why a line stopped. */
enum { LINE_END, LINE_REPEATS, LINE_CUT };

/* Plays the perfect-play line from p (changed: the moves are made) into
 * `line` (texts), stopping at the end of the game, at the first position
 * seen before, or after CMD_SOLVE_LINE_MAX plies (*why says which).
 * Returns the count or a negative library code. */
static int cmd_solve_line(const tiers_solution *s, tiers_pos *p, const char *notation,
                          char **line, int *why)
{
    uint64_t seen[CMD_SOLVE_LINE_MAX + 1];
    int n = 0, rc = 0;
    seen[0] = tiers_pos_hash(p);
    *why = LINE_CUT;
    while (n < CMD_SOLVE_LINE_MAX) {
        tiers_move m;
        int dist, v = tiers_solution_best(s, p, &m, &dist);
        if (v <= 0) {
            rc = v;
            *why = LINE_END;
            break;
        }
        if (!(line[n] = cli_move_text(p, &m, notation, &rc)))
            break;
        if ((rc = tiers_pos_make(p, &m)) < 0) {
            free(line[n]);
            break;
        }
        uint64_t h = tiers_pos_hash(p);
        int again = 0;
        for (int i = 0; i <= n && !again; i++)
            again = seen[i] == h;
        seen[++n] = h;
        if (again) {
            *why = LINE_REPEATS;
            break;
        }
    }
    return rc < 0 ? rc : n;
}

/* --save FILE: written whole or not at all (outfile.h); a failure to
 * write is exit code 3, after a message. */
static int cmd_solve_save(const struct cli *c, const tiers_solution *s)
{
    struct outfile o;
    char msg[1200] = "";
    tiers_error err;
    memset(&err, 0, sizeof err);
    if (outfile_open(&o, c->save, msg, sizeof msg) != 0) {
        cli_error(c, "%s", msg);
        return CLI_INTERNAL;
    }
    /* through the stream outfile made: never reopened by name, so no
       one can swap the temporary file meanwhile */
    int ok = tiers_solution_write(s, o.f, &err) == 0;
    if (!ok)
        snprintf(msg, sizeof msg, "error writing '%s': %s", c->save, err.msg);
    if (outfile_close(&o, ok, msg, sizeof msg) != 0) {
        cli_error(c, "%s", msg);
        return CLI_INTERNAL;
    }
    return CLI_OK;
}

int cmd_solve_run(struct cli *c)
{
    tiers_variant *v;
    tiers_pos *p;
    int code = cli_open(c, c->args[0], CMD_SOLVE_LINE_MAX + 16, &v, &p);
    if (!p)
        return code;
    tiers_solution *s = NULL;
    char *line[CMD_SOLVE_LINE_MAX] = {0};
    int nline = 0;
    /* --threads T: T - 1 more copies of the variant, one per helper */
    tiers_variant *helper[TIERS_SOLVE_MAX_HELPERS] = {0};
    int nhelpers = c->threads > 1 ? c->threads - 1 : 0;
    if (nhelpers > TIERS_SOLVE_MAX_HELPERS) {
        code = cli_usage_error(c, "at most %d threads", TIERS_SOLVE_MAX_HELPERS + 1);
        nhelpers = 0;
        goto done;
    }
    for (int k = 0; k < nhelpers; k++)
        if (!(helper[k] = cli_load_variant(c, c->args[0], &code)))
            goto done;

    tiers_error err;
    memset(&err, 0, sizeof err);
    long long max = c->max_positions ? c->max_positions : CMD_SOLVE_DEFAULT_MAX;
    double t0 = cli_now();
    int rc = tiers_solve_threads(p, helper, nhelpers, max, &s, &err);
    double secs = cli_now() - t0;
    if (rc < 0) {
        char text[1400];
        cli_error(c, "%s: %s", tiers_variant_name(v),
                  err.msg[0] ? tiers_error_text(&err, text, sizeof text) : cli_rc_text(v, rc));
        code = rc == TIERS_EFULL ? CLI_INPUT : cli_exit_for(rc);
        goto done;
    }
    if (c->save && cmd_solve_save(c, s) != CLI_OK) {
        code = CLI_INTERNAL;
        goto done;
    }
    tiers_solve_info info;
    tiers_solution_info(s, &info);
    int why;
    nline = cmd_solve_line(s, p, c->notation, line, &why);
    if (nline < 0) {
        cli_error(c, "cannot play the line: %s", cli_rc_text(v, nline));
        code = cli_exit_for(nline);
        nline = 0;
        goto done;
    }

    char outcome[64], sidebuf[16];
    cmd_solve_outcome(v, info.start_side, info.start_value, info.start_dist, outcome,
                      sizeof outcome);
    const char *side = cli_side_name(v, info.start_side, sidebuf);
    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "variant");
        jsonw_string(&w, tiers_variant_name(v));
        jsonw_key(&w, "value");
        jsonw_string(&w, cmd_solve_value_name[info.start_value & 3]);
        jsonw_key(&w, "side_to_move");
        jsonw_string(&w, side);
        jsonw_key(&w, "plies");
        jsonw_int(&w, info.start_dist);
        jsonw_key(&w, "outcome");
        jsonw_string(&w, outcome);
        jsonw_key(&w, "positions");
        jsonw_int(&w, info.positions);
        jsonw_key(&w, "setup_positions");
        jsonw_int(&w, info.setup);
        jsonw_key(&w, "final_positions");
        jsonw_int(&w, info.terminal);
        jsonw_key(&w, "moves");
        jsonw_int(&w, info.moves);
        jsonw_key(&w, "wins");
        jsonw_int(&w, info.wins);
        jsonw_key(&w, "draws");
        jsonw_int(&w, info.draws);
        jsonw_key(&w, "losses");
        jsonw_int(&w, info.losses);
        jsonw_key(&w, "seconds");
        jsonw_double(&w, secs, 3);
        jsonw_key(&w, "threads");
        jsonw_int(&w, nhelpers + 1);
        jsonw_key(&w, "line");
        jsonw_begin_array(&w);
        for (int i = 0; i < nline; i++)
            jsonw_string(&w, line[i]);
        jsonw_end_array(&w);
        jsonw_key(&w, "line_end");
        jsonw_string(&w, why == LINE_CUT ? "cut" : why == LINE_REPEATS ? "repeats" : "end");
        jsonw_end_object(&w);
        fputc('\n', stdout);
    } else {
        printf("variant: %s\n", tiers_variant_name(v));
        printf("value: %s (%s to move: %s)\n", outcome, side,
               cmd_solve_value_name[info.start_value & 3]);
        printf("positions: %lld (%lld in the setup, %lld with no move left)\n",
               (long long)info.positions, (long long)info.setup, (long long)info.terminal);
        printf("moves: %lld\n", (long long)info.moves);
        printf("side to move wins / draws / loses: %lld / %lld / %lld\n",
               (long long)info.wins, (long long)info.draws, (long long)info.losses);
        printf("time: %.3f s (%d thread%s)\n", secs, nhelpers + 1, nhelpers ? "s" : "");
        printf("line:");
        for (int i = 0; i < nline; i++)
            printf(" %s", line[i]);
        printf("%s\n", why == LINE_CUT ? " ..." : why == LINE_REPEATS ? " (repeats)" : "");
        printf("(history is not part of a position: repetition and move limits are not "
               "applied)\n");
    }
done:
    for (int i = 0; i < nline; i++)
        free(line[i]);
    tiers_solution_free(s);
    if (p)
        tiers_pos_free(p);
    for (int k = 0; k < nhelpers; k++)
        tiers_variant_free(helper[k]);
    tiers_variant_free(v);
    return code;
}

struct cmd_solved_row {
    char *move;
    int value, dist;
};

static int cmd_solved_cmp(const void *a, const void *b)
{
    return strcmp(((const struct cmd_solved_row *)a)->move,
                  ((const struct cmd_solved_row *)b)->move);
}

int cli_solved_moves(const struct cli *c, tiers_pos *p)
{
    const tiers_variant *v = tiers_pos_variant(p);
    tiers_solution *s;
    tiers_error err;
    memset(&err, 0, sizeof err);
    int rc = tiers_solution_load(v, c->solved, &s, &err);
    if (rc < 0) {
        char text[1400];
        cli_error(c, "%s", tiers_error_text(&err, text, sizeof text));
        return cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
    }
    tiers_move *moves = malloc(TIERS_MAX_MOVES * sizeof *moves);
    struct cmd_solved_row *rows = malloc(TIERS_MAX_MOVES * sizeof *rows);
    int n = moves && rows ? tiers_pos_legal_moves(p, moves, TIERS_MAX_MOVES) : TIERS_ENOMEM;
    int made = 0; /* rows whose move text is allocated */
    for (int k = 0; k < n; k++) {
        rows[k].value = tiers_solution_move_value(s, p, &moves[k], &rows[k].dist);
        if (rows[k].value < 0) {
            n = rows[k].value;
            break;
        }
        if (!(rows[k].move = cli_move_text(p, &moves[k], c->notation, &rc))) {
            n = rc;
            break;
        }
        made++;
    }
    int code = CLI_OK;
    if (n < 0) {
        cli_error(c, "cannot value the moves: %s", cli_rc_text(v, n));
        code = cli_exit_for(n);
    } else {
        qsort(rows, (size_t)n, sizeof *rows, cmd_solved_cmp);
        int dist, value = tiers_solution_value(s, p, &dist);
        char outcome[64];
        cmd_solve_outcome(v, tiers_pos_side_to_move(p), value, dist, outcome,
                          sizeof outcome);
        if (c->json) {
            jsonw w;
            jsonw_init(&w, stdout);
            jsonw_begin_object(&w);
            jsonw_key(&w, "value");
            jsonw_string(&w, cmd_solve_value_name[value & 3]);
            jsonw_key(&w, "outcome");
            jsonw_string(&w, outcome);
            jsonw_key(&w, "moves");
            jsonw_begin_array(&w);
            for (int i = 0; i < n; i++) {
                jsonw_begin_object(&w);
                jsonw_key(&w, "move");
                jsonw_string(&w, rows[i].move);
                jsonw_key(&w, "value");
                jsonw_string(&w, cmd_solve_value_name[rows[i].value & 3]);
                jsonw_key(&w, "plies");
                jsonw_int(&w, rows[i].dist);
                jsonw_end_object(&w);
            }
            jsonw_end_array(&w);
            jsonw_end_object(&w);
            fputc('\n', stdout);
        } else {
            for (int i = 0; i < n; i++) {
                if (rows[i].value == TIERS_VALUE_WIN || rows[i].value == TIERS_VALUE_LOSS)
                    printf("%s %s %d\n", rows[i].move, cmd_solve_value_name[rows[i].value],
                           rows[i].dist);
                else
                    printf("%s %s\n", rows[i].move, cmd_solve_value_name[rows[i].value & 3]);
            }
        }
    }
    for (int i = 0; i < made; i++)
        free(rows[i].move);
    free(rows);
    free(moves);
    tiers_solution_free(s);
    return code;
}
