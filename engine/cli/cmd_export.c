/* cmd_export.c - playout games as game records: `tiers export [VARIANT]
 * --db FILE -o DIR` for every game a database holds, and export_run for
 * `tiers playout --records DIR`.
 *
 * A stored game is its moves in tiers notation.  Each one is replayed on
 * the run's variant (same rules, same seed of the scripts' random
 * numbers), so that the record gets its move numbers, the moves in the
 * notation asked for, and a check: the replay must end as the database
 * says.  One file per game, `DIR/VARIANT-RUN-INDEX.txt`, written under a
 * temporary name and renamed when complete, in index order; the content
 * depends only on the stored game, so the same run gives the same files
 * whatever the thread count. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "jsonw.h"
#include "movelist.h"
#include "outfile.h"
#include "playout.h"

/* as many rules as an options column can hold (each takes >= 2 bytes) */
enum { EXPORT_MAX_RULES = sizeof ((struct db_run *)0)->options / 2 };

int export_prepare_dir(const struct cli *c, const char *dir)
{
    struct stat sb;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        cli_error(c, "cannot create the records folder '%s': %s", dir, strerror(errno));
        return CLI_INTERNAL;
    }
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        cli_error(c, "'%s' is not a folder (the records go in one file per game)", dir);
        return CLI_INTERNAL;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        cli_error(c, "cannot write in the records folder '%s': %s", dir, strerror(errno));
        return CLI_INTERNAL;
    }
    return CLI_OK;
}

static int export_ascii(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return 0;
    return 1;
}

/* A record holds ASCII moves, or any under a notation whose moves are
 * UTF-8 (its Notation tag tells the reader to keep them as written). */
static int export_holds(const char *notation, const char *move)
{
    return export_ascii(move) || tiers_notation_utf8_moves(notation);
}

int export_check_notation(const struct cli *c, tiers_pos *p)
{
    if (!c->notation || !strcmp(c->notation, "tiers"))
        return CLI_OK;
    /* a record holds ASCII moves (docs/notation.md): a dialect that writes
       other letters cannot be read back; its first moves tell */
    const tiers_variant *v = tiers_pos_variant(p);
    movelist l;
    if (movelist_init(&l) < 0) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    int code = CLI_OK;
    int rc = movelist_make(&l, p, c->notation, NULL);
    if (rc < 0) {
        cli_error(c, "%s: %s", tiers_variant_name(v), cli_rc_text(v, rc));
        code = cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
    }
    for (int i = 0; rc >= 0 && i < l.n && code == CLI_OK; i++)
        if (!export_holds(c->notation, l.texts[i])) {
            cli_error(c, "notation '%s' writes moves such as '%s' that a game record "
                      "cannot hold (records take ASCII moves): use tiers", c->notation,
                      l.texts[i]);
            code = CLI_INPUT;
        }
    movelist_free(&l);
    return code;
}

/* One run being written. */
struct export_ctx {
    const struct cli *c;
    const struct db_run *run;
    const char *dir;
    const char *notation;      /* NULL = tiers */
    tiers_variant *v;
    tiers_pos *p;
    char name[DB_NAME + 32];   /* the variant's name, safe in a file name */
    int64_t written;
};

/* "2025-01-31 12:00:00" -> "2025.01.31" ("????.??.??" when unreadable). */
static void export_date(const char *finished, char out[11])
{
    int ok = strlen(finished) >= 10 && finished[4] == '-' && finished[7] == '-';
    snprintf(out, 11, "%.4s.%.2s.%.2s", ok ? finished : "????", ok ? finished + 5 : "??",
             ok ? finished + 8 : "??");
}

static void export_tags(const struct export_ctx *x, FILE *f, const struct db_record *g)
{
    const struct db_run *run = x->run;
    char text[32], date[11], tag[16];
    gamerec_tag(f, "Variant", run->variant);
    gamerec_tag(f, "VariantHash", run->hash);
    gamerec_tag(f, "Options", run->options);
    export_date(g->finished, date);
    gamerec_tag(f, "Date", date);
    for (int s = 0; s < 2; s++) {
        gamerec_side_tag(x->v, s, tag);
        gamerec_tag(f, tag, run->agent[s]);
    }
    gamerec_tag(f, "Run", run->key);
    snprintf(text, sizeof text, "%llu", (unsigned long long)run->seed);
    gamerec_tag(f, "Seed", text);
    snprintf(text, sizeof text, "%lld", (long long)g->index);
    gamerec_tag(f, "Game", text);
    snprintf(text, sizeof text, "%d", run->max_plies);
    gamerec_tag(f, "MaxPlies", text);
    if (x->notation && strcmp(x->notation, "tiers"))
        gamerec_tag(f, "Notation", x->notation);
    gamerec_tag(f, "Result", g->result);
    gamerec_tag(f, "Reason", g->reason); /* not Termination: the board says how it ended */
}

/* Reports ply `ply` of g that could not be replayed; returns its exit
 * code. */
static int export_bad_ply(const struct export_ctx *x, const struct db_record *g, int ply,
                          const char *word, const char *why, int rc)
{
    cli_error(x->c, "run %s, game %lld, ply %d '%s' does not replay: %s", x->run->key,
              (long long)g->index, ply, word, why);
    return cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
}

/* Replays the stored moves of g, writing each in the record's notation
 * after the tags; the caller ends the move text (gamerec_end).  Returns
 * an exit code (after a message). */
static int export_moves(struct export_ctx *x, struct gamerec_moves *w, FILE *f,
                        const struct db_record *g)
{
    const struct cli *c = x->c;
    tiers_pos *p = x->p;
    int rc = tiers_pos_reset(p);
    if (rc < 0) {
        cli_error(c, "%s: %s", x->run->variant, cli_rc_text(x->v, rc));
        return CLI_INTERNAL;
    }
    tiers_pos_seed(p, game_script_seed(game_seed(x->run->seed, g->index)));
    char *moves = malloc(strlen(g->moves) + 1);
    if (!moves) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    strcpy(moves, g->moves);
    gamerec_begin(w, f, x->v);
    int code = CLI_OK, plies = 0;
    char *save = NULL;
    for (char *word = strtok_r(moves, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
        int side = tiers_pos_side_to_move(p), number = tiers_pos_move_number(p);
        tiers_move m;
        tiers_error err;
        memset(&err, 0, sizeof err);
        rc = tiers_move_parse(p, word, NULL, &m, &err);
        if (rc < 0) {
            code = export_bad_ply(x, g, plies + 1, word,
                                  err.msg[0] ? err.msg : cli_rc_text(x->v, rc), rc);
            break;
        }
        char *text = cli_move_text(p, &m, x->notation, &rc);
        if (!text) {
            code = export_bad_ply(x, g, plies + 1, word, cli_rc_text(x->v, rc), rc);
            break;
        }
        if (!export_holds(x->notation, text)) {
            cli_error(c, "run %s, game %lld, ply %d: notation '%s' writes '%s', which a "
                      "game record cannot hold (records take ASCII moves)",
                      x->run->key, (long long)g->index, plies + 1, x->notation, text);
            free(text);
            code = CLI_INPUT;
            break;
        }
        if (!gamerec_move_readable(text)) {
            cli_error(c, "run %s, game %lld, ply %d: the move '%s' cannot be read back from a "
                      "game record (a result, a move number, a tag or comment mark, or a "
                      "space in a move text: the variant's format hook?)",
                      x->run->key, (long long)g->index, plies + 1, text);
            free(text);
            code = CLI_INPUT;
            break;
        }
        gamerec_move(w, number, side, text);
        free(text);
        rc = tiers_pos_make(p, &m);
        if (rc < 0) {
            code = export_bad_ply(x, g, plies + 1, word, cli_rc_text(x->v, rc), rc);
            break;
        }
        plies++;
    }
    free(moves);
    if (code != CLI_OK)
        return code;
    tiers_status st = tiers_pos_status(p);
    const char *result = st.game_over ? game_result_text(st.result) : "*";
    if (strcmp(result, g->result) || plies != g->plies) {
        cli_error(c, "run %s, game %lld: the replay ends %s after %d plies, the database "
                  "says %s after %d", x->run->key, (long long)g->index, result, plies,
                  g->result, g->plies);
        return CLI_INPUT;
    }
    return CLI_OK;
}

/* db_records callback: one game into its file, written under a temporary
 * name and renamed when complete. */
static int export_game(const struct db_record *g, void *ud)
{
    struct export_ctx *x = ud;
    const struct cli *c = x->c;
    size_t size = strlen(x->dir) + sizeof x->name + 64;
    char *path = malloc(size);
    if (!path) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    snprintf(path, size, "%s/%s-%s-%06lld.txt", x->dir, x->name, x->run->key,
             (long long)g->index);
    /* written to a temporary file made exclusively next to it (never
       through a planted link), renamed when complete */
    int code = CLI_OK;
    struct outfile out;
    char msg[1200] = "";
    if (outfile_open(&out, path, msg, sizeof msg) != 0) {
        cli_error(c, "%s", msg);
        code = CLI_INTERNAL;
    } else {
        struct gamerec_moves w;
        export_tags(x, out.f, g);
        code = export_moves(x, &w, out.f, g);
        int ok = code == CLI_OK && gamerec_end(&w, g->result) == 0;
        if (outfile_close(&out, ok, msg, sizeof msg) != 0 && code == CLI_OK) {
            cli_error(c, "%s", msg);
            code = CLI_INTERNAL;
        }
        if (code == CLI_OK)
            x->written++;
    }
    free(path);
    return code;
}

/* cli_open_how's hook for a run's variant: its own load error, and a
 * warning when the variant's files changed since the run was played. */
static int export_loaded(const struct cli *c, const char *spec, const tiers_variant *v,
                         const tiers_error *err, void *ud)
{
    const struct db_run *run = ud;
    if (!v) {
        char text[1100];
        cli_error(c, "run %s: cannot load variant '%s': %s%s", run->key, spec,
                  tiers_error_text(err, text, sizeof text),
                  c->nargs ? "" : " (give its folder as VARIANT, or --variants DIR)");
        return CLI_INPUT;
    }
    if (strcmp(tiers_variant_hash(v), run->hash))
        cli_error(c, "warning: run %s: the files of %s changed since it was played "
                  "(hash %s, now %s); its games may not replay",
                  run->key, spec, run->hash, tiers_variant_hash(v));
    return CLI_OK;
}

int export_run(const struct cli *c, db *d, const struct db_run *run, const char *spec,
               const char *const *rules, const char *dir, int64_t limit, int shard_k,
               int shard_n, int64_t *written)
{
    struct export_ctx x;
    memset(&x, 0, sizeof x);
    x.c = c;
    x.run = run;
    x.dir = dir;
    x.notation = c->notation;
    *written = 0;
    struct cli_open_how how = {rules, run->max_plies + 64, export_loaded, (void *)run};
    int code = cli_open_how(c, spec, &how, &x.v, &x.p);
    if (code == CLI_OK)
        code = export_check_notation(c, x.p);
    if (code == CLI_OK) {
        snprintf(x.name, sizeof x.name, "%s", run->variant);
        for (char *s = x.name; *s; s++)
            if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
                        *s))
                *s = '_';
        char msg[512];
        int rc = db_records(d, run, limit, shard_k, shard_n, export_game, &x, msg,
                            sizeof msg);
        if (rc < 0) {
            cli_error(c, "%s", msg);
            code = rc == DB_BAD ? CLI_INPUT : CLI_INTERNAL;
        } else {
            code = rc;
        }
    }
    *written = x.written;
    cli_close(x.v, x.p);
    return code;
}

/* ------------------------------------------------------ tiers export */

struct export_done {
    char run[17];
    char variant[DB_NAME + 32];
    int64_t games;
};

struct export_all {
    const struct cli *c;
    db *d;
    const char *spec;          /* the VARIANT argument, or NULL */
    const char *only;          /* its name, or NULL */
    struct export_done *done;
    int ndone, cap;
    int code;                  /* the worst exit code so far */
    int64_t written;
};

static int export_each_run(const struct db_run *run, void *ud)
{
    struct export_all *a = ud;
    const struct cli *c = a->c;
    if (a->only && strcmp(run->variant, a->only))
        return 0;
    if (!a->ndone && (a->code = export_prepare_dir(c, c->output)) != CLI_OK)
        return a->code;
    if (a->ndone == a->cap) {
        int cap = a->cap ? 2 * a->cap : 16;
        struct export_done *more = realloc(a->done, (size_t)cap * sizeof *more);
        if (!more) {
            cli_error(c, "out of memory");
            a->code = CLI_INTERNAL;
            return CLI_INTERNAL;
        }
        a->done = more;
        a->cap = cap;
    }
    struct export_done *e = &a->done[a->ndone++];
    snprintf(e->run, sizeof e->run, "%s", run->key);
    snprintf(e->variant, sizeof e->variant, "%s", run->variant);
    /* the run's --rule values, from its options column (the Options tag's
       format) */
    char buf[sizeof run->options];
    const char *rules[EXPORT_MAX_RULES + 1];
    snprintf(buf, sizeof buf, "%s", run->options);
    gamerec_options_split(buf, rules, EXPORT_MAX_RULES);
    int code = export_run(c, a->d, run, a->spec ? a->spec : run->variant, rules, c->output,
                          RUN_MAX_GAMES, 1, 1, &e->games);
    a->written += e->games;
    if (code > a->code)
        a->code = code;
    if (!c->json)
        printf("%s run %s: %lld game%s written%s\n", run->variant, run->key,
               (long long)e->games, e->games == 1 ? "" : "s",
               code == CLI_OK ? "" : " (stopped by an error)");
    /* a bad run (another variant's files, a move that does not replay)
       does not stop the others; a write error does */
    return code == CLI_INTERNAL ? CLI_INTERNAL : 0;
}

static void export_json(const struct cli *c, const char *db_path, const struct export_all *a)
{
    jsonw w;
    jsonw_init(&w, stdout);
    jsonw_begin_object(&w);
    jsonw_key(&w, "db");
    jsonw_string(&w, db_path);
    jsonw_key(&w, "output");
    jsonw_string(&w, c->output);
    jsonw_key(&w, "runs");
    jsonw_begin_array(&w);
    for (int i = 0; i < a->ndone; i++) {
        jsonw_begin_object(&w);
        jsonw_key(&w, "run");
        jsonw_string(&w, a->done[i].run);
        jsonw_key(&w, "variant");
        jsonw_string(&w, a->done[i].variant);
        jsonw_key(&w, "games");
        jsonw_int(&w, a->done[i].games);
        jsonw_end_object(&w);
    }
    jsonw_end_array(&w);
    jsonw_key(&w, "written");
    jsonw_int(&w, a->written);
    jsonw_end_object(&w);
    fputc('\n', stdout);
}

int cmd_export_run(struct cli *c)
{
    if (!c->output)
        return cli_usage_error(c, "missing -o DIR (the folder to write the records to)");
    if (!c->output[0])
        return cli_usage_error(c, "empty -o folder name");
    const char *db_path = c->db ? c->db : PLAYOUT_DEFAULT_DB;
    struct export_all a;
    memset(&a, 0, sizeof a);
    a.c = c;
    int code = CLI_OK;
    char name[DB_NAME + 32];
    if (c->nargs > 0) {
        tiers_variant *v = cli_load_variant(c, c->args[0], &code);
        if (!v)
            return code;
        snprintf(name, sizeof name, "%s", tiers_variant_name(v));
        tiers_variant_free(v);
        a.spec = c->args[0];
        a.only = name;
    }
    char err[1024];
    a.d = db_open_read(db_path, err, sizeof err);
    if (!a.d) {
        cli_error(c, "%s", err);
        return CLI_INPUT;
    }
    /* the folder is made when the first run is found */
    int rc = db_runs(a.d, export_each_run, &a, err, sizeof err);
    if (rc < 0) {
        cli_error(c, "%s", err);
        a.code = rc == DB_BAD ? CLI_INPUT : CLI_INTERNAL;
    }
    code = a.code;
    if (a.only && !a.ndone && code == CLI_OK) {
        cli_error(c, "'%s' holds no games of %s", db_path, a.only);
        code = CLI_INPUT;
    }
    if (c->json)
        export_json(c, db_path, &a);
    else if (a.ndone)
        printf("%s: %lld game%s written in all\n", c->output, (long long)a.written,
               a.written == 1 ? "" : "s");
    else if (code == CLI_OK)
        printf("%s holds no games: nothing written\n", db_path);
    free(a.done);
    db_close(a.d);
    return code;
}
