/* cmd_values.c - `tiers values VARIANT --games N [agents]`: piece values
 * from play.  Plays the games of a run (the same games `tiers playout`
 * would store), replays each, and at every VALUES_EVERY-th play-phase ply
 * records each face's count for side 0 minus side 1 (board and hands);
 * a logistic regression of the result on those differences
 * (engine/lab/values.c) gives each face's weight, printed relative to the
 * smallest positive non-royal one.  docs/metrics.md defines it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "playout.h"
#include "values.h"

enum { VALUES_EVERY = 10 };

struct values_faces {
    char name[VALUES_MAX_TERMS][32];
    int royal[VALUES_MAX_TERMS];
    int n;
};

/* The column of a face, added when first seen; -1 when the table is full. */
static int values_face(struct values_faces *f, const tiers_piece_info *pi)
{
    for (int i = 0; i < f->n; i++)
        if (!strcmp(f->name[i], pi->face))
            return i;
    if (f->n == VALUES_MAX_TERMS)
        return -1;
    snprintf(f->name[f->n], sizeof f->name[f->n], "%s", pi->face);
    f->royal[f->n] = pi->royal;
    return f->n++;
}

/* diff[face] += count for side 0, -= for side 1, over board and hands. */
static int values_count(const tiers_pos *p, struct values_faces *f, double *diff)
{
    const tiers_variant *v = tiers_pos_variant(p);
    tiers_piece_info pi;
    for (int file = 0; file < tiers_variant_files(v); file++)
        for (int rank = 0; rank < tiers_variant_ranks(v); rank++)
            for (int t = 1; t <= tiers_pos_height(p, file, rank); t++) {
                int owner = tiers_pos_piece_info(p, file, rank, t, &pi), col;
                if (owner == 0 || owner == 1) {
                    if ((col = values_face(f, &pi)) < 0)
                        return -1;
                    diff[col] += owner == 0 ? 1 : -1;
                }
            }
    for (int owner = 0; owner < 2; owner++)
        for (int i = 0, k; (k = tiers_pos_hand_entry(p, owner, i, &pi)) > 0; i++) {
            int col = values_face(f, &pi);
            if (col < 0)
                return -1;
            diff[col] += owner == 0 ? k : -k;
        }
    return 0;
}

/* The samples of all games, grown as they come. */
struct values_samples {
    double *x, *y;
    long *game;
    int n, cap;
};

static int values_add(struct values_samples *s, const double *diff, double y, long game)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 1024;
        double *x = realloc(s->x, (size_t)cap * VALUES_MAX_TERMS * sizeof *x);
        if (x)
            s->x = x;
        double *ny = x ? realloc(s->y, (size_t)cap * sizeof *ny) : NULL;
        if (ny)
            s->y = ny;
        long *g = ny ? realloc(s->game, (size_t)cap * sizeof *g) : NULL;
        if (!g)
            return -1;
        s->game = g;
        s->cap = cap;
    }
    memcpy(s->x + (size_t)s->n * VALUES_MAX_TERMS, diff, VALUES_MAX_TERMS * sizeof *diff);
    s->y[s->n] = y;
    s->game[s->n++] = game;
    return 0;
}

/* Replays game w->g (its moves in tiers notation) and samples it; the
 * result for side 0 is y.  A library code. */
static int values_replay(struct game_worker *w, struct values_faces *f,
                         struct values_samples *s, double y)
{
    tiers_pos *p = w->p;
    int rc = tiers_pos_reset(p);
    if (rc < 0)
        return rc;
    tiers_pos_seed(p, game_script_seed(w->g.seed));
    char *moves = strdup(w->g.moves);
    if (!moves)
        return TIERS_ENOMEM;
    int play = 0;
    for (char *save = NULL, *t = strtok_r(moves, " ", &save); t && rc >= 0;
         t = strtok_r(NULL, " ", &save)) {
        tiers_move m;
        tiers_error err;
        if ((rc = tiers_move_parse(p, t, NULL, &m, &err)) < 0 ||
            (rc = tiers_pos_make_unchecked(p, &m, NULL)) < 0)
            break;
        if (tiers_pos_in_setup(p) || ++play % VALUES_EVERY)
            continue;
        double diff[VALUES_MAX_TERMS] = {0};
        if (values_count(p, f, diff) < 0 || values_add(s, diff, y, (long)w->g.index) < 0)
            rc = TIERS_ENOMEM;
    }
    free(moves);
    return rc;
}

/* Plays and samples games 0..games-1; an exit code. */
static int values_collect(const struct cli *c, const struct game_config *cfg,
                          struct values_faces *f, struct values_samples *s, long *decisive)
{
    struct game_worker w;
    tiers_error err;
    int rc = game_worker_init(&w, cfg, &err);
    if (rc < 0) {
        cli_error(c, "%s", err.msg);
        return CLI_INPUT;
    }
    for (long i = 0; i < c->games && rc >= 0; i++) {
        if ((rc = game_play(&w, cfg, i)) < 0)
            break;
        if (w.g.cut)
            continue; /* no result to explain */
        double y = w.g.result == TIERS_WIN_0 ? 1 : w.g.result == TIERS_WIN_1 ? 0 : 0.5;
        *decisive += y != 0.5;
        rc = values_replay(&w, f, s, y);
    }
    if (rc < 0)
        cli_error(c, "%s", cli_rc_text(w.v, rc));
    game_worker_free(&w);
    return rc < 0 ? cli_exit_for(rc) : CLI_OK;
}

/* The unit: the smallest positive coefficient of a non-royal face. */
static double values_unit(const struct values_faces *f, const struct values_fit *fit)
{
    double unit = 0;
    for (int j = 0; j < f->n; j++)
        if (!f->royal[j] && fit->used[j] && fit->coef[j + 1] > 0 &&
            (unit == 0 || fit->coef[j + 1] < unit))
            unit = fit->coef[j + 1];
    return unit;
}

static void values_print(const struct cli *c, const struct db_run *run,
                         const struct values_faces *f, const struct values_fit *fit,
                         int samples, long decisive)
{
    double unit = values_unit(f, fit);
    if (c->yaml) {
        printf("# piece values from %ld games of %s (%s against %s, seed %llu):\n"
               "# paste into variant.yaml (faces: NAME: value: V)\nfaces:\n",
               c->games, run->variant, run->agent[0], run->agent[1],
               (unsigned long long)run->seed);
        for (int j = 0; j < f->n; j++)
            if (!f->royal[j] && fit->used[j] && unit > 0)
                printf("  %s:\n    value: %.0f\n", f->name[j],
                       fmax(1, round(fit->coef[j + 1] / unit)));
        return;
    }
    printf("piece values of %s from %ld games (%ld decisive), %d samples "
           "(every %dth play ply)\n", run->variant, c->games, decisive, samples, VALUES_EVERY);
    printf("%-16s %8s %20s %10s\n", "face", "value", "95% interval", "weight");
    for (int j = 0; j < f->n; j++) {
        if (f->royal[j] || !fit->used[j] || unit <= 0) {
            printf("%-16s %8s\n", f->name[j], f->royal[j] ? "royal" : "-");
            continue;
        }
        double b = fit->coef[j + 1], h = 1.96 * fit->se[j + 1];
        printf("%-16s %8.2f     [%6.2f, %6.2f] %10.4f\n", f->name[j], b / unit, (b - h) / unit,
               (b + h) / unit, b);
    }
    printf("side 0's edge at equal material: %.4f (logit)\n", fit->coef[0]);
    printf("value 1 = the smallest positive non-royal weight; intervals from "
           "game-clustered errors, the unit taken as exact\n");
}

int cmd_values_run(struct cli *c)
{
    playout_defaults(c);
    struct db_run run;
    int code = cli_playout_describe(c, c->args[0], &run);
    if (code != CLI_OK)
        return code;
    struct game_config cfg = {.variant = c->args[0], .search = c->search,
                              .rules = (const char *const *)c->rules,
                              .agents = {run.agent[0], run.agent[1]}, .seed = c->seed,
                              .max_plies = c->max_plies};
    struct values_faces f = {.n = 0};
    struct values_samples s = {0};
    long decisive = 0;
    code = values_collect(c, &cfg, &f, &s, &decisive);
    struct values_fit fit;
    char err[256];
    if (code == CLI_OK && decisive == 0) {
        cli_error(c, "no decisive game among %ld: nothing tells the pieces apart", c->games);
        code = CLI_INPUT;
    }
    if (code == CLI_OK) {
        /* the rows were written VALUES_MAX_TERMS wide: use the faces seen */
        struct values_data d = {s.x, s.y, s.game, s.n, VALUES_MAX_TERMS};
        if (values_fit(&d, &fit, err, sizeof err) < 0) {
            cli_error(c, "%s", err);
            code = CLI_INPUT;
        } else {
            values_print(c, &run, &f, &fit, s.n, decisive);
        }
    }
    free(s.x);
    free(s.y);
    free(s.game);
    return code;
}
