/* cmd_perft.c - `tiers perft VARIANT DEPTH [--divide]`. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "failrec.h"
#include "jsonw.h"

static const char cmd_perft_counting[] =
    "legal moves, last ply from the full legal list, stops at game over";

enum { CMD_PERFT_MAX_DEPTH = 64 };

struct cmd_perft_root {
    char *move;
    int64_t leaves;
};

static int cmd_perft_cmp(const void *a, const void *b)
{
    const struct cmd_perft_root *x = a, *y = b;
    return strcmp(x->move, y->move);
}

static void cmd_perft_free(struct cmd_perft_root *roots, int n)
{
    for (int i = 0; i < n; i++)
        free(roots[i].move);
    free(roots);
}

/* Counts below each root move; they sum to tiers_pos_perft(p, depth).
 * Returns 0 or a negative library code; the sorted list is left in *out
 * (n entries). */
static int cmd_perft_divide(tiers_pos *p, int depth, const char *notation,
                            struct cmd_perft_root **out, int *nout,
                            int64_t *total)
{
    *out = NULL;
    *nout = 0;
    *total = 0;
    /* A finished game has no legal moves: the count stops there, as in
     * tiers_perft. */
    tiers_move *moves = malloc(sizeof *moves * TIERS_MAX_MOVES);
    if (!moves)
        return TIERS_ENOMEM;
    int n = tiers_pos_legal_moves(p, moves, TIERS_MAX_MOVES);
    if (n < 0) {
        free(moves);
        return n;
    }
    struct cmd_perft_root *roots = calloc((size_t)n + 1, sizeof *roots);
    if (!roots) {
        free(moves);
        return TIERS_ENOMEM;
    }
    int rc = TIERS_OK, done = 0;
    for (; done < n; done++) {
        roots[done].move = cli_move_text(p, &moves[done], notation, &rc);
        if (!roots[done].move)
            break;
        rc = tiers_pos_make_unchecked(p, &moves[done], NULL);
        if (rc < 0) {
            done++;
            break;
        }
        int64_t leaves = tiers_pos_perft(p, depth - 1);
        int urc = tiers_pos_unmake(p);
        if (leaves < 0 || urc < 0) {
            rc = leaves < 0 ? (int)leaves : urc;
            done++;
            break;
        }
        roots[done].leaves = leaves;
        *total += leaves;
    }
    free(moves);
    if (rc < 0) {
        cmd_perft_free(roots, done);
        return rc;
    }
    qsort(roots, (size_t)n, sizeof *roots, cmd_perft_cmp);
    *out = roots;
    *nout = n;
    return TIERS_OK;
}

int cmd_perft_run(struct cli *c)
{
    long depth;
    if (cli_parse_int(c->args[1], 0, CMD_PERFT_MAX_DEPTH, &depth) != 0)
        return cli_usage_error(c, "bad DEPTH '%s': expected 0..%d",
                               c->args[1], CMD_PERFT_MAX_DEPTH);
    if (c->divide && depth < 1)
        return cli_usage_error(c, "--divide needs DEPTH >= 1, not '%s'",
                               c->args[1]);
    tiers_variant *v;
    tiers_pos *p;
    int code = cli_open(c, c->args[0], 0, &v, &p);
    if (!p)
        return code;
    struct cmd_perft_root *roots = NULL;
    int nroots = 0;

    int64_t leaves;
    double t0 = cli_now();
    if (c->divide) {
        int rc = cmd_perft_divide(p, (int)depth, c->notation, &roots,
                                  &nroots, &leaves);
        if (rc < 0)
            leaves = rc;
    } else {
        leaves = tiers_pos_perft(p, (int)depth);
    }
    double secs = cli_now() - t0;
    if (leaves < 0) {
        char where[1400];
        cli_error(c, "perft %ld failed: %s\n  %s", depth, cli_rc_text(v, (int)leaves),
                  failrec_context(p, (int)leaves, NULL, where, sizeof where));
        code = cli_exit_for((int)leaves);
        goto done;
    }
    double rate = secs > 0 ? (double)leaves / secs : 0;

    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "variant");
        jsonw_string(&w, tiers_variant_name(v));
        jsonw_key(&w, "depth");
        jsonw_int(&w, depth);
        jsonw_key(&w, "leaves");
        jsonw_int(&w, leaves);
        jsonw_key(&w, "seconds");
        jsonw_double(&w, secs, 6);
        jsonw_key(&w, "leaves_per_second");
        jsonw_double(&w, rate, 0);
        jsonw_key(&w, "counting");
        jsonw_string(&w, cmd_perft_counting);
        if (c->divide) {
            jsonw_key(&w, "divide");
            jsonw_begin_array(&w);
            for (int i = 0; i < nroots; i++) {
                jsonw_begin_object(&w);
                jsonw_key(&w, "move");
                jsonw_string(&w, roots[i].move);
                jsonw_key(&w, "leaves");
                jsonw_int(&w, roots[i].leaves);
                jsonw_end_object(&w);
            }
            jsonw_end_array(&w);
        }
        jsonw_end_object(&w);
        fputc('\n', stdout);
    } else {
        for (int i = 0; i < nroots; i++)
            printf("%s %lld\n", roots[i].move, (long long)roots[i].leaves);
        if (c->divide)
            printf("%smoves: %d\n", nroots ? "\n" : "", nroots);
        printf("perft %ld: %lld leaves\n", depth, (long long)leaves);
        if (secs < 0.1)
            printf("time: %.3f ms, %.0f leaves/s\n", secs * 1e3, rate);
        else
            printf("time: %.3f s, %.0f leaves/s\n", secs, rate);
        printf("counting: %s\n", cmd_perft_counting);
    }
done:
    cmd_perft_free(roots, nroots);
    cli_close(v, p);
    return code;
}
