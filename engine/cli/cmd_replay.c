/* cmd_replay.c - `tiers replay VARIANT FILE` (or `replay FILE --variant V`,
 * whatever variant the record names): reads a game record, replays
 * it move by move and prints every ply, then the result and its reason.
 * A move that cannot be read or is illegal stops the replay (exit 2) with
 * the move number, the token and the legal moves at that point.  The
 * variant is loaded with the record's Options tag (the rules the game was
 * played with) and the --rule values, which win for the same key. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lab.h"
#include "movelist.h"

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
    movelist l;
    if (movelist_init(&l) < 0)
        return;
    int n = movelist_make(&l, p, notation, NULL);
    if (n >= 0) {
        fputs(n ? "; legal:" : "; no legal move", stderr);
        for (int i = 0; i < n; i++)
            fprintf(stderr, " %s", l.texts[i]);
    }
    movelist_free(&l);
}

static int cmd_replay_fail(const struct cli *c, tiers_pos *p, const tiers_replay *out,
                           tiers_error *err, int rc)
{
    char text[1024];
    snprintf(err->file, sizeof err->file, "%s", c->args[1]);
    fprintf(stderr, "tiers: %s: %s", c->cmd->name, tiers_error_text(err, text, sizeof text));
    if (out->stopped_at && (rc == TIERS_EILLEGAL || rc == TIERS_EINPUT))
        cmd_replay_legal(p, out->notation);
    else if (strstr(text, "the record is for variant"))
        fprintf(stderr, " (replay %s --variant %s replays it on %s all the same)", c->args[1],
                c->args[0], c->args[0]);
    if (rc == TIERS_ESCRIPT) /* the hook and the position it failed in */
        fprintf(stderr, "\n  %s", failrec_context(p, rc, NULL, text, sizeof text));
    fputc('\n', stderr);
    return cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
}

static int cmd_replay_record(const struct cli *c, tiers_variant *v, tiers_record *r)
{
    int code = CLI_OK;
    tiers_pos *p = cli_open_pos(c, v, tiers_record_word_count(r) + 64, &code);
    if (!p)
        return code;
    const char *bad;
    if (gamerec_seed_pos(p, r, &bad) < 0) {
        cli_error(c, "%s: %s tag: not a number", c->args[1], bad);
        tiers_pos_free(p);
        return CLI_INPUT;
    }
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

/* ------------------------------------------------------ Options tag */

/* Skips blanks and {comments} from s, counting lines and columns. */
static const char *cmd_replay_skip(const char *s, int *line, int *col)
{
    for (int in_comment = 0; *s; s++) {
        if (*s == '{')
            in_comment = 1;
        else if (*s == '}')
            in_comment = 0;
        else if (!in_comment && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
            return s;
        if (*s == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
    return s;
}

/* Where byte `offset` of the Options tag's value stands in the record
 * text: the tag is looked for as the reader takes tags ('[', the name,
 * the quoted value, with \" and \\ escapes), outside comments.  *line
 * stays 0 when it is not found. */
static void cmd_replay_tag_place(const char *text, int offset, int *line, int *col)
{
    int l = 1, k = 1;
    *line = *col = 0;
    for (const char *s = cmd_replay_skip(text, &l, &k); *s == '[';
         s = cmd_replay_skip(s, &l, &k)) {
        const char *name = s + 1 + strspn(s + 1, " \t");
        size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_");
        const char *q = name + n + strspn(name + n, " \t");
        int start = k + (int)(q - s) + 1;
        if (n == 7 && !strncmp(name, "Options", 7) && *q == '"') {
            const char *v = q + 1;
            for (int i = 0; i < offset && *v && *v != '"' && *v != '\n'; i++)
                v += v[0] == '\\' && v[1] && v[1] != '\n' ? 2 : 1;
            *line = l;
            *col = start + (int)(v - q - 1);
            return;
        }
        /* on to the end of this tag */
        const char *end = strchr(q, ']');
        if (!end || memchr(s, '\n', (size_t)(end - s)))
            return;
        k += (int)(end + 1 - s);
        s = end + 1;
    }
}

/* The record's file: replay's FILE, or render's --record. */
static const char *cmd_replay_file(const struct cli *c)
{
    return c->record ? c->record : c->args[1];
}

/* "tiers: replay: FILE:LINE:COL: Options tag: 'TOKEN': why" for the tag
 * word of rule i (the tag as a whole when i < 0); returns CLI_INPUT. */
static int cmd_replay_bad_option(const struct cli *c, const char *text,
                                 const struct gamerec_rules *r, int i, const char *why)
{
    int line, col;
    cmd_replay_tag_place(text, i >= 0 ? r->tag_offset[i] : 0, &line, &col);
    char where[64] = "";
    if (line)
        snprintf(where, sizeof where, ":%d:%d", line, col);
    if (i >= 0)
        cli_error(c, "%s%s: Options tag: '%s': %s", cmd_replay_file(c), where, r->rule[i],
                  why);
    else
        cli_error(c, "%s%s: Options tag: %s", cmd_replay_file(c), where, why);
    return CLI_INPUT;
}

/* Each word of the tag must be KEY=VALUE (as --rule must). */
static int cmd_replay_check_words(const struct cli *c, const char *text,
                                  const struct gamerec_rules *r)
{
    for (int i = 0; i < r->n && r->tag_offset[i] >= 0; i++)
        if (r->rule[i][0] == '=' || !strchr(r->rule[i], '='))
            return cmd_replay_bad_option(c, text, r, i, "expected KEY=VALUE");
    return CLI_OK;
}

/* The variant did not load with the merged rules: finds the tag word to
 * blame by loading with each one alone (and the command line's).  Returns
 * CLI_INPUT after the message. */
static int cmd_replay_blame(const struct cli *c, const char *text,
                            const struct gamerec_rules *r, const tiers_error *all)
{
    const char **one = malloc((size_t)(r->n + 2) * sizeof *one);
    int blamed = -1;
    tiers_error err;
    for (int i = 0; one && i < r->n && r->tag_offset[i] >= 0 && blamed < 0; i++) {
        int n = 0;
        one[n++] = r->rule[i];
        for (int k = 0; k < r->n; k++)
            if (r->tag_offset[k] < 0)
                one[n++] = r->rule[k];
        one[n] = NULL;
        memset(&err, 0, sizeof err);
        tiers_variant *v = tiers_variant_load(c->args[0], c->search, one, &err);
        if (!v)
            blamed = i;
        tiers_variant_free(v);
    }
    free(one);
    const tiers_error *e = blamed >= 0 ? &err : all;
    char msg[1400];
    if (e->msg[0])
        snprintf(msg, sizeof msg, "%s", e->msg);
    else
        tiers_error_text(e, msg, sizeof msg);
    return cmd_replay_bad_option(c, text, r, blamed, msg[0] ? msg : "cannot load variant");
}

/* Loads the variant again with the record's Options tag and the --rule
 * values (those win for the same key), replacing *v.  A record of another
 * variant keeps *v: the replay reports that.  Returns an exit code. */
int cmd_replay_rules(const struct cli *c, const char *text, const tiers_record *rec,
                     tiers_variant **v)
{
    const char *options = tiers_record_tag(rec, "Options");
    const char *name = tiers_record_tag(rec, "Variant");
    if (!options || !options[strspn(options, " ")] ||
        (name && strcmp(name, tiers_variant_name(*v))))
        return CLI_OK;
    struct gamerec_rules r;
    if (gamerec_rules_merge(&r, options, (const char *const *)c->rules) != 0) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    int code = cmd_replay_check_words(c, text, &r);
    if (code == CLI_OK) {
        tiers_error err;
        memset(&err, 0, sizeof err);
        tiers_variant *nv = tiers_variant_load(c->args[0], c->search, r.rule, &err);
        if (nv) {
            tiers_variant_free(*v);
            *v = nv;
        } else {
            code = cmd_replay_blame(c, text, &r, &err);
        }
    }
    gamerec_rules_free(&r);
    return code;
}

/* The record text with its Variant tag's value replaced by name (--variant:
 * a record of one variant replayed on another, such as a parent's on a
 * child); text itself when it has no such tag.  NULL = out of memory. */
static char *cmd_replay_retag(char *text, const char *name)
{
    for (char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        char *c = line + strspn(line, " \t");
        if (strncmp(c, "[Variant", 8) != 0)
            continue;
        char *open = strchr(c, '"'), *end = open ? strchr(open + 1, '"') : NULL;
        char *eol = strchr(c, '\n');
        if (!end || (eol && end > eol))
            return text;
        size_t head = (size_t)(open + 1 - text), tail = strlen(end);
        char *out = malloc(head + strlen(name) + tail + 1);
        if (!out)
            return NULL;
        memcpy(out, text, head);
        memcpy(out + head, name, strlen(name));
        memcpy(out + head + strlen(name), end, tail + 1);
        free(text);
        return out;
    }
    return text;
}

int cmd_replay_run(struct cli *c)
{
    char *args[2];
    if (c->variant) { /* replay FILE --variant V */
        if (c->nargs != 1)
            return cli_usage_error(c, "with --variant, give only the FILE");
        args[0] = (char *)c->variant;
        args[1] = c->args[0];
        c->args = args;
        c->nargs = 2;
    } else if (c->nargs < 2) {
        return cli_usage_error(c, "missing FILE");
    }
    /* the position is opened once the record's rules are known */
    tiers_variant *v;
    int code = cli_open(c, c->args[0], 0, &v, NULL);
    if (code != CLI_OK)
        return code;
    char *text = cli_slurp(c, c->args[1], &code);
    if (text && c->variant && !(text = cmd_replay_retag(text, tiers_variant_name(v)))) {
        cli_error(c, "out of memory");
        code = CLI_INTERNAL;
    }
    tiers_error err;
    tiers_record *r = text ? tiers_record_read(text, &err) : NULL;
    if (text && !r) {
        char msg[1024];
        snprintf(err.file, sizeof err.file, "%s", c->args[1]);
        cli_error(c, "%s", tiers_error_text(&err, msg, sizeof msg));
        code = CLI_INPUT;
    }
    if (r)
        code = cmd_replay_rules(c, text, r, &v);
    if (r && code == CLI_OK)
        code = cmd_replay_record(c, v, r);
    tiers_record_free(r);
    free(text);
    cli_close(v, NULL);
    return code;
}
