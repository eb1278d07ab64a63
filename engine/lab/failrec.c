/* failrec.c - the context of a game a runtime error stopped (failrec.h):
 * noted where the game loop fails, written as one message and as the
 * failed game's record. */
#include "failrec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"
#include "gamerec.h"

/* "hook veto of effect x" out of "... (in hook veto of effect x)". */
static void failrec_hook(struct failrec *f)
{
    const char *in = strstr(f->message, "(in hook ");
    f->hook[0] = '\0';
    if (in)
        snprintf(f->hook, sizeof f->hook, "%.*s", (int)strcspn(in + 9, ")"), in + 9);
}

static void failrec_message(struct failrec *f, const tiers_variant *v, int rc)
{
    const char *script = rc == TIERS_ESCRIPT ? tiers_variant_script_error(v) : "";
    snprintf(f->message, sizeof f->message, "%s", script && script[0] ? script
                                                  : rc == TIERS_ENOMEM ? "out of memory"
                                                  : "engine error");
    snprintf(f->traceback, sizeof f->traceback, "%s",
             rc == TIERS_ESCRIPT ? tiers_variant_script_traceback(v) : "");
    failrec_hook(f);
}

/* Back to the start, then the moves before ply `ply`; stops early if one
 * cannot be made again (the position is then the last one reached). */
static void failrec_replay(tiers_pos *p, uint64_t script_seed, const char *moves, int ply)
{
    char word[128];
    tiers_error err;
    if (tiers_pos_reset(p) < 0)
        return;
    tiers_pos_seed(p, script_seed);
    for (int i = 0; i < ply && moves && *moves; i++) {
        size_t n = strcspn(moves, " ");
        snprintf(word, sizeof word, "%.*s", (int)n, moves);
        moves += n + (moves[n] == ' ');
        tiers_move m;
        if (tiers_move_parse(p, word, NULL, &m, &err) < 0 ||
            tiers_pos_make_unchecked(p, &m, NULL) < 0)
            return;
    }
}

void failrec_note(struct failrec *f, tiers_pos *p, int rc, int64_t game, uint64_t seed,
                  uint64_t script_seed, const char *moves, int ply, const char *move)
{
    const tiers_variant *v = tiers_pos_variant(p);
    f->rc = rc;
    f->game = game;
    f->seed = seed;
    f->ply = ply;
    snprintf(f->move, sizeof f->move, "%s", move ? move : "");
    failrec_message(f, v, rc); /* before the replay runs hooks again */
    failrec_replay(p, script_seed, moves, ply);
    if (tiers_pos_format(p, NULL, f->position, sizeof f->position) < 0)
        f->position[0] = '\0';
}

void failrec_note_pos(struct failrec *f, const tiers_pos *p, int rc, const char *move)
{
    const tiers_variant *v = tiers_pos_variant(p);
    f->rc = rc;
    f->game = -1;
    f->seed = 0;
    f->ply = tiers_pos_ply(p);
    snprintf(f->move, sizeof f->move, "%s", move ? move : "");
    failrec_message(f, v, rc);
    if (tiers_pos_format(p, NULL, f->position, sizeof f->position) < 0)
        f->position[0] = '\0';
}

const char *failrec_text(const struct failrec *f, const char *ruleset, char *buf,
                         size_t size)
{
    char game[32] = "", move[80] = "", hook[140] = "";
    if (f->game >= 0)
        snprintf(game, sizeof game, "game %lld, ", (long long)f->game);
    if (f->move[0])
        snprintf(move, sizeof move, ", move %s", f->move);
    if (f->hook[0])
        snprintf(hook, sizeof hook, ", hook %s", f->hook);
    snprintf(buf, size, "%s%s%sply %d%s%s: %s%s%s%s%s", ruleset ? ruleset : "",
             ruleset ? ", " : "", game, f->ply + 1, move, hook, f->message,
             f->position[0] ? "\n  position: " : "", f->position,
             f->traceback[0] ? "\n  " : "", f->traceback);
    return buf;
}

void failrec_dir(const char *db_path, const char *records, char *out, size_t size)
{
    if (records && records[0])
        snprintf(out, size, "%s", records);
    else
        snprintf(out, size, "%s-failed", db_path);
}

/* The moves as words wrapped at 72 columns. */
static void failrec_moves(FILE *fp, const char *moves)
{
    int col = 0;
    while (moves && *moves) {
        int n = (int)strcspn(moves, " ");
        if (col && col + 1 + n > 72) {
            fputc('\n', fp);
            col = 0;
        }
        fprintf(fp, "%s%.*s", col ? " " : "", n, moves);
        col += (col ? 1 : 0) + n;
        moves += n + (moves[n] == ' ');
    }
    fprintf(fp, "%s*\n", col ? " " : "");
}

int failrec_write(const struct failrec *f, const char *dir, const char *run_key,
                  const char *variant, const char *rules, const char *agents,
                  const char *moves, char *path, size_t path_size, char *err,
                  size_t errsize)
{
    char num[32];
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(err, errsize, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    snprintf(path, path_size, "%s/%s-%lld.txt", dir, run_key, (long long)f->game);
    FILE *fp = fopen(path, "w");
    if (!fp) {
        snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    gamerec_tag(fp, "Variant", variant);
    if (rules && rules[0])
        gamerec_tag(fp, "Options", rules);
    if (agents && agents[0])
        gamerec_tag(fp, "Agents", agents);
    snprintf(num, sizeof num, "%llu", (unsigned long long)f->seed);
    gamerec_tag(fp, "Seed", num);
    snprintf(num, sizeof num, "%lld", (long long)f->game);
    gamerec_tag(fp, "Game", num);
    snprintf(num, sizeof num, "%d", f->ply + 1);
    gamerec_tag(fp, "FailedPly", num);
    if (f->move[0])
        gamerec_tag(fp, "FailedMove", f->move);
    if (f->hook[0])
        gamerec_tag(fp, "FailedHook", f->hook);
    gamerec_tag(fp, "Failed", f->message);
    gamerec_tag(fp, "FailedPosition", f->position);
    failrec_moves(fp, moves);
    if (fclose(fp) != 0) {
        snprintf(err, errsize, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

void failrec_report(const struct failrec *f, const struct db_run *run, const char *dir,
                    const char *moves, char *msg, size_t size)
{
    char ruleset[1200], path[1100], err[1200], agents[2 * DB_SPEC + 8];
    snprintf(ruleset, sizeof ruleset, "%s%s%s%s", run->variant, run->options[0] ? " (" : "",
             run->options, run->options[0] ? ")" : "");
    failrec_text(f, ruleset, msg, size);
    if (!dir)
        return;
    snprintf(agents, sizeof agents, "%s vs %s", run->agent[0], run->agent[1]);
    size_t len = strlen(msg);
    if (failrec_write(f, dir, run->key, run->variant, run->options, agents, moves, path,
                      sizeof path, err, sizeof err) == 0)
        snprintf(msg + len, size - len, "\n  record of the failed game: %s", path);
    else
        snprintf(msg + len, size - len, "\n  (no record of the failed game: %s)", err);
}

const char *failrec_context(const tiers_pos *p, int rc, const char *move, char *buf,
                            size_t size)
{
    struct failrec f;
    failrec_note_pos(&f, p, rc, move);
    snprintf(buf, size, "at ply %d%s%s%s%s\n  position: %s%s%s", f.ply + 1,
             f.move[0] ? ", move " : "", f.move, f.hook[0] ? ", hook " : "", f.hook,
             f.position, f.traceback[0] ? "\n  " : "", f.traceback);
    return buf;
}
