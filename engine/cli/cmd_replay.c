/* cmd_replay.c - `tiers replay VARIANT FILE`: reads a game record, replays
 * it move by move and prints every ply, then the result and its reason.
 * A move that cannot be read or is illegal stops the replay (exit 2) with
 * the move number, the token and the legal moves at that point. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* Whole file (or stdin for "-"), NUL-terminated; NULL with a message. */
static char *cmd_replay_slurp(const struct cli *c, const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    if (!f) {
        cli_error(c, "%s: %s", path, strerror(errno));
        return NULL;
    }
    size_t len = 0, cap = 4096;
    char *buf = malloc(cap);
    for (size_t n; buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0;) {
        len += n;
        if (len + 1 == cap) {
            char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    int bad = !buf || ferror(f);
    if (f != stdin)
        fclose(f);
    if (bad) {
        cli_error(c, "%s: %s", path, buf ? "read error" : "out of memory");
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

struct cmd_replay_ctx {
    const struct cli *c;
    const char *notation;
};

/* "12. white a1-a2+ 0123456789abcdef" (the position with --verbose). */
static int cmd_replay_ply(tiers_pos *p, const tiers_record_ply *ply, void *ud)
{
    const struct cmd_replay_ctx *x = ud;
    const tiers_variant *v = tiers_pos_variant(p);
    char side[16];
    printf("%d%s %s %s ", ply->number, ply->side == 0 ? "." : "...",
           cli_side_name(v, ply->side, side), ply->text);
    if (!x->c->verbose) {
        printf("%016llx\n", (unsigned long long)tiers_pos_hash(p));
        return 0;
    }
    int rc;
    char *text = cli_pos_text(p, x->notation, &rc);
    if (!text)
        return rc < 0 ? rc : TIERS_ENOMEM;
    printf("%s\n", text);
    free(text);
    return 0;
}

/* "; legal: a1-a2 ..." after an error at a move, on the same line. */
static void cmd_replay_legal(tiers_pos *p, const char *notation)
{
    char **moves;
    int n;
    if (cli_sorted_moves(p, notation, &moves, &n) < 0)
        return;
    fputs(n ? "; legal:" : "; no legal move", stderr);
    for (int i = 0; i < n; i++)
        fprintf(stderr, " %s", moves[i]);
    cli_free_strings(moves, n);
}

static int cmd_replay_fail(const struct cli *c, tiers_pos *p, const tiers_replay *out,
                           tiers_error *err, int rc)
{
    char text[1024];
    snprintf(err->file, sizeof err->file, "%s", c->args[1]);
    fprintf(stderr, "tiers: %s: %s", c->cmd->name, tiers_error_text(err, text, sizeof text));
    if (out->stopped_at && (rc == TIERS_EILLEGAL || rc == TIERS_EINPUT))
        cmd_replay_legal(p, out->notation);
    fputc('\n', stderr);
    return cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
}

static int cmd_replay_record(const struct cli *c, tiers_variant *v, tiers_record *r)
{
    int code = CLI_OK;
    tiers_pos *p = cli_open_pos(c, v, tiers_record_word_count(r) + 64, &code);
    if (!p)
        return code;
    struct cmd_replay_ctx x = {c, c->notation};
    tiers_replay out;
    tiers_error err;
    tiers_error nerr = {0};
    if (!x.notation)
        x.notation = tiers_record_notation(r, v, &nerr);
    if (x.notation)
        printf("notation: %s\n", x.notation);
    int rc = x.notation ? tiers_record_replay(r, p, x.notation, cmd_replay_ply, &x, &out, &err)
                        : TIERS_EINPUT;
    if (!x.notation) {
        err = nerr;
        memset(&out, 0, sizeof out);
    }
    if (rc < 0) {
        code = cmd_replay_fail(c, p, &out, &err, rc);
    } else {
        const char *result = cli_result_text(out.result);
        printf("result: %s\nreason: %s\n", result ? result : "*",
               out.reason[0] ? out.reason : "-");
    }
    tiers_pos_free(p);
    return code;
}

int cmd_replay_run(struct cli *c)
{
    int code = CLI_OK;
    tiers_variant *v = cli_load_variant(c, c->args[0], &code);
    if (!v)
        return code;
    code = cli_check_notation(c, v);
    char *text = code == CLI_OK ? cmd_replay_slurp(c, c->args[1]) : NULL;
    if (code == CLI_OK && !text)
        code = CLI_INPUT;
    tiers_error err;
    tiers_record *r = text ? tiers_record_read(text, &err) : NULL;
    if (text && !r) {
        char msg[1024];
        snprintf(err.file, sizeof err.file, "%s", c->args[1]);
        cli_error(c, "%s", tiers_error_text(&err, msg, sizeof msg));
        code = CLI_INPUT;
    }
    if (r)
        code = cmd_replay_record(c, v, r);
    tiers_record_free(r);
    free(text);
    tiers_variant_free(v);
    return code;
}
