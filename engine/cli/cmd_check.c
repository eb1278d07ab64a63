/* cmd_check.c - `tiers check VARIANT`: load a variant and report errors,
 * then play a few random and greedy games so that its scripts run, and
 * report the first failure with its context (failrec.h), the hooks that
 * never ran and what loads but is likely a mistake (docs/cli.md). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "failrec.h"
#include "game.h"
#include "jsonw.h"

enum { CHECK_SEED = 1, CHECK_MAX_PLIES = 400, CHECK_DEFAULT_GAMES = 2 };
enum { CHECK_TEXT_SIZE = TIERS_MAX_MOVES * 256 }; /* a move's text is under 256 bytes */

/* One check: the loaded variant, its position, buffers, the warnings. */
struct check {
    struct cli *c;
    const char *spec;
    tiers_variant *v;
    tiers_pos *p;
    tiers_move *buf, *sorted;
    char *text, **texts;      /* the legal list's texts, for their checks */
    char *moves;
    size_t len, cap;
    char **warn;
    int nwarn, capwarn;
    int dup_found;            /* a duplicate move was reported already */
    int64_t plies;
};

static void check_warn(const char *text, void *ud)
{
    struct check *k = ud;
    if (k->nwarn == k->capwarn) {
        int cap = k->capwarn ? 2 * k->capwarn : 16;
        char **w = realloc(k->warn, (size_t)cap * sizeof *w);
        if (!w)
            return;
        k->warn = w;
        k->capwarn = cap;
    }
    char *copy = strdup(text);
    if (copy)
        k->warn[k->nwarn++] = copy;
}

/* Byte order of two moves (check_dups clears their paths past npath
 * first, so equal moves compare equal). */
static int check_cmp(const void *a, const void *b)
{
    return memcmp(a, b, sizeof(tiers_move));
}

/* Warns once about a move listed twice in a legal list. */
static void check_dups(struct check *k, const tiers_move *list, int n, int64_t game,
                       const char *agent, int ply)
{
    if (k->dup_found)
        return;
    for (int i = 0; i < n; i++) {
        k->sorted[i] = list[i];
        for (int j = k->sorted[i].npath; j < 4; j++)
            k->sorted[i].path[j] = 0;
    }
    qsort(k->sorted, (size_t)n, sizeof *k->sorted, check_cmp);
    for (int i = 1; i < n; i++)
        if (!check_cmp(&k->sorted[i - 1], &k->sorted[i])) {
            char text[1600], mv[64], pos[1024];
            if (tiers_move_format(k->p, &k->sorted[i], NULL, mv, sizeof mv) < 0)
                snprintf(mv, sizeof mv, "?");
            if (tiers_pos_format(k->p, NULL, pos, sizeof pos) < 0)
                pos[0] = '\0';
            snprintf(text, sizeof text, "the legal list holds %s twice (%s game %lld, ply %d, "
                     "position %s)", mv, agent, (long long)game, ply + 1, pos);
            check_warn(text, k);
            k->dup_found = 1;
            return;
        }
}

static int check_append(struct check *k, const char *text)
{
    size_t n = strlen(text);
    if (k->len + n + 2 > k->cap) {
        size_t cap = (k->cap + n + 2) * 2;
        char *b = realloc(k->moves, cap);
        if (!b)
            return TIERS_ENOMEM;
        k->moves = b;
        k->cap = cap;
    }
    if (k->len)
        k->moves[k->len++] = ' ';
    memcpy(k->moves + k->len, text, n + 1);
    k->len += n;
    return 0;
}

/* The failure: its context on stderr with Lua's stack (failrec_text), and
 * the record of the game so far in --records DIR (default
 * tiers-check-failed). */
static int check_failed(struct check *k, int rc, int64_t game, const char *agent, int ply,
                        const char *move)
{
    char ruleset[200], msg[4096], path[1200], err[1300], tag[96];
    uint64_t seed = game_seed(CHECK_SEED, game);
    struct failrec f;
    failrec_note(&f, k->p, rc, game, seed, game_script_seed(seed), k->moves, ply, move);
    snprintf(ruleset, sizeof ruleset, "%s (%s)", tiers_variant_name(k->v), agent);
    cli_error(k->c, "%s: %s", k->spec, failrec_text(&f, ruleset, msg, sizeof msg));
    const char *dir = k->c->records ? k->c->records : "tiers-check-failed";
    snprintf(tag, sizeof tag, "%s-%s", tiers_variant_name(k->v), agent);
    if (failrec_write(&f, dir, tag, tiers_variant_name(k->v), "", agent, k->moves, path,
                      sizeof path, err, sizeof err) == 0)
        fprintf(stderr, "  record of the failed game: %s\n", path);
    else
        fprintf(stderr, "  (no record of the failed game: %s)\n", err);
    return cli_exit_for(rc);
}

/* Plays game `game` with `agent` on both sides; CLI_OK or the exit code
 * of the failure it reported. */
static int check_game(struct check *k, tiers_agent *a, const char *agent, int64_t game)
{
    uint64_t seed = game_seed(CHECK_SEED, game), rng = seed ^ 1 ? seed ^ 1 : 1;
    char text[128];
    int rc = tiers_pos_reset(k->p);
    k->len = 0;
    if (k->moves)
        k->moves[0] = '\0';
    if (rc < 0)
        return check_failed(k, rc, game, agent, 0, NULL);
    tiers_pos_seed(k->p, game_script_seed(seed));
    for (int ply = 0; ply < CHECK_MAX_PLIES; ply++) {
        int n = tiers_pos_legal_moves(k->p, k->buf, TIERS_MAX_MOVES);
        if (n < 0)
            return check_failed(k, n, game, agent, ply, NULL);
        if (n == 0)
            return CLI_OK;
        check_dups(k, k->buf, n, game, agent, ply);
        /* every text must be one a record can read back, and unique */
        rc = tiers_moves_format(k->p, k->buf, n, NULL, k->text, CHECK_TEXT_SIZE, k->texts);
        if (rc < 0)
            return check_failed(k, rc, game, agent, ply, NULL);
        tiers_move m, back;
        int chosen = tiers_agent_choose(a, k->p, &rng, &m);
        if (chosen < 0)
            return check_failed(k, chosen, game, agent, ply, NULL);
        rc = tiers_move_format(k->p, &m, NULL, text, sizeof text);
        /* the text must read back as this move, as a record will */
        if (rc >= 0)
            rc = tiers_move_find(k->p, text, NULL, k->buf, n, &back, NULL);
        if (rc >= 0)
            rc = check_append(k, text);
        if (rc >= 0)
            rc = tiers_pos_make_unchecked(k->p, &m, NULL);
        if (rc < 0)
            return check_failed(k, rc, game, agent, ply, text);
        k->plies++;
    }
    return CLI_OK;
}

/* N random games, then N greedy ones; then the hooks that never ran and
 * those whose board moves were refused during a setup. */
static int check_games(struct check *k, long games)
{
    static const char *const agents[] = {"random", "greedy"};
    int code = CLI_OK;
    k->buf = malloc(2 * TIERS_MAX_MOVES * sizeof *k->buf);
    k->text = malloc(CHECK_TEXT_SIZE);
    k->texts = malloc(TIERS_MAX_MOVES * sizeof *k->texts);
    if (!k->buf || !k->text || !k->texts) {
        free(k->buf);
        free(k->text);
        free(k->texts);
        cli_error(k->c, "out of memory");
        return CLI_INTERNAL;
    }
    k->sorted = k->buf + TIERS_MAX_MOVES;
    for (int s = 0; s < 2 && code == CLI_OK; s++) {
        tiers_error err;
        tiers_agent *a = tiers_agent_new(agents[s], &err);
        for (long g = 0; a && g < games && code == CLI_OK; g++)
            code = check_game(k, a, agents[s], s * games + g);
        tiers_agent_free(a);
    }
    tiers_hook_use u;
    char text[600];
    for (int i = 0; code == CLI_OK && tiers_variant_hook_use(k->v, i, &u); i++) {
        if (!u.runs) {
            snprintf(text, sizeof text, "hook %s of effect %s (%s:%d) never ran in %ld "
                     "games", u.hook, u.effect, u.file, u.line, 2 * games);
            check_warn(text, k);
        }
        if (u.refused) {
            snprintf(text, sizeof text, "hook moves of effect %s (%s:%d) gave %lld board "
                     "move%s during a setup, not offered (moves_setup = true offers them)",
                     u.effect, u.file, u.line, (long long)u.refused, u.refused == 1 ? "" : "s");
            check_warn(text, k);
        }
    }
    free(k->buf);
    free(k->text);
    free(k->texts);
    free(k->moves);
    return code;
}

static void check_print(struct check *k, long games)
{
    tiers_variant *v = k->v;
    if (k->c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "ok");
        jsonw_bool(&w, 1);
        jsonw_key(&w, "name");
        jsonw_string(&w, tiers_variant_name(v));
        jsonw_key(&w, "path");
        jsonw_string(&w, tiers_variant_path(v));
        jsonw_key(&w, "hash");
        jsonw_string(&w, tiers_variant_hash(v));
        jsonw_key(&w, "files");
        jsonw_int(&w, tiers_variant_files(v));
        jsonw_key(&w, "ranks");
        jsonw_int(&w, tiers_variant_ranks(v));
        jsonw_key(&w, "tiers");
        jsonw_int(&w, tiers_variant_max_tiers(v));
        jsonw_key(&w, "effects");
        jsonw_begin_array(&w);
        for (int i = 0; i < tiers_variant_effects(v); i++)
            jsonw_string(&w, tiers_variant_effect_name(v, i));
        jsonw_end_array(&w);
        jsonw_key(&w, "games");
        jsonw_int(&w, 2 * games);
        jsonw_key(&w, "plies");
        jsonw_int(&w, k->plies);
        jsonw_key(&w, "warnings");
        jsonw_begin_array(&w);
        for (int i = 0; i < k->nwarn; i++)
            jsonw_string(&w, k->warn[i]);
        jsonw_end_array(&w);
        jsonw_end_object(&w);
        fputc('\n', stdout);
        return;
    }
    for (int i = 0; i < k->nwarn; i++)
        printf("warning: %s\n", k->warn[i]);
    if (tiers_variant_effects(v)) {
        printf("effects (%d):", tiers_variant_effects(v));
        for (int i = 0; i < tiers_variant_effects(v); i++)
            printf(" %s", tiers_variant_effect_name(v, i));
        printf("\n");
    }
    if (games)
        printf("played %ld random and %ld greedy games (seed %d, at most %d plies): %lld "
               "plies, no script error\n", games, games, CHECK_SEED, CHECK_MAX_PLIES,
               (long long)k->plies);
    printf("ok: %s (%dx%d, %d tiers)\n", tiers_variant_name(v), tiers_variant_files(v),
           tiers_variant_ranks(v), tiers_variant_max_tiers(v));
}

int cmd_check_run(struct cli *c)
{
    struct check k = {.c = c, .spec = c->args[0]};
    long games = c->given & CLI_O_GAMES ? c->games : CHECK_DEFAULT_GAMES;
    /* The start position and its moves run the variant's scripts once. */
    int code = cli_open(c, k.spec, 0, &k.v, &k.p);
    if (!k.p)
        return code;
    char **moves;
    int n;
    int rc = cli_sorted_moves(k.p, NULL, &moves, &n);
    if (rc < 0) {
        cli_error(c, "%s: start position: %s", k.spec, cli_rc_text(k.v, rc));
        code = cli_exit_for(rc);
    }
    cli_free_strings(moves, n);
    for (int i = 0; i < tiers_variant_warning_count(k.v); i++)
        check_warn(tiers_variant_warning(k.v, i), &k);
    if (code == CLI_OK && games > 0) { /* --games 0: load only */
        tiers_variant_lint(k.v, check_warn, &k);
        code = check_games(&k, games);
    }
    if (code == CLI_OK)
        check_print(&k, games);
    for (int i = 0; i < k.nwarn; i++)
        free(k.warn[i]);
    free(k.warn);
    cli_close(k.v, k.p);
    return code;
}
