/* cmd_render.c - `tiers render`: a position as an SVG picture (svg.c),
 * from the start, --position, or ply N of a game record, optionally after
 * one more move (--move) that is then highlighted; or, with --piece FACE,
 * that face's movement grid per tier (pieces.c).  --png turns the
 * picture into a PNG in memory (png.c, librsvg) before it is written. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "gamerec.h"
#include "outfile.h"
#include "pieces.h"
#include "png.h"
#include "svg.h"

/* What is drawn: the position, and the move that led to it if known. */
struct cmd_render_state {
    tiers_move last;
    int has_last;
    char last_text[128];
    long stop;           /* --ply: stop after this many plies, -1 = end */
};

/* Replay callback: remembers each move, stops after ply `stop`. */
static int cmd_render_ply(tiers_pos *p, const tiers_record_ply *ply, void *ud)
{
    struct cmd_render_state *s = ud;
    (void)p;
    s->last = ply->move;
    s->has_last = 1;
    snprintf(s->last_text, sizeof s->last_text, "%s", ply->text);
    return s->stop >= 0 && ply->index + 1 >= s->stop ? 1 : 0;
}

/* Sets *p to ply --ply (default: the end) of the record --record, the
 * variant loaded again with the record's rules (*v and *p replaced). */
static int cmd_render_record(const struct cli *c, tiers_variant **vp, tiers_pos **pp,
                             struct cmd_render_state *s)
{
    int code;
    char *text = cli_slurp(c, c->record, &code);
    if (!text)
        return code;
    tiers_error err;
    memset(&err, 0, sizeof err);
    tiers_record *r = tiers_record_read(text, &err);
    if (!r) {
        char msg[1200];
        snprintf(err.file, sizeof err.file, "%s", c->record);
        cli_error(c, "%s", tiers_error_text(&err, msg, sizeof msg));
        free(text);
        return CLI_INPUT;
    }
    tiers_pos_free(*pp); /* its variant may be replaced */
    *pp = NULL;
    code = cmd_replay_rules(c, text, r, vp);
    tiers_variant *v = *vp;
    tiers_pos *p = code == CLI_OK ? cli_open_pos(c, v, 0, &code) : NULL;
    *pp = p;
    if (!p) {
        tiers_record_free(r);
        free(text);
        return code;
    }
    const char *bad;
    if (gamerec_seed_pos(p, r, &bad) < 0) {
        cli_error(c, "%s: %s tag: not a number", c->record, bad);
        tiers_record_free(r);
        free(text);
        return CLI_INPUT;
    }
    const char *notation = c->notation;
    if (!notation)
        notation = tiers_record_notation(r, v, &err);
    tiers_replay out;
    memset(&out, 0, sizeof out);
    /* ply 0: stop at the first move and take it back */
    s->stop = c->given & CLI_O_PLY ? (c->ply ? c->ply : 1) : -1;
    int rc = notation ? tiers_record_replay(r, p, notation, cmd_render_ply, s,
                                            &out, &err)
                      : TIERS_EINPUT;
    if (rc < 0) {
        char msg[1200];
        snprintf(err.file, sizeof err.file, "%s", c->record);
        cli_error(c, "%s", tiers_error_text(&err, msg, sizeof msg));
        code = cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
    } else if ((c->given & CLI_O_PLY) && out.plies < c->ply) {
        cli_error(c, "--ply %ld: %s has only %d plies", c->ply, c->record,
                  out.plies);
        code = CLI_INPUT;
    } else if ((c->given & CLI_O_PLY) && c->ply == 0 && out.plies > 0) {
        rc = tiers_pos_unmake(p);
        s->has_last = 0;
        s->last_text[0] = '\0';
        if (rc < 0) {
            cli_error(c, "%s", cli_rc_text(v, rc));
            code = CLI_INTERNAL;
        }
    }
    tiers_record_free(r);
    free(text);
    return code;
}

/* Makes --move and remembers it as the last move. */
static int cmd_render_move(const struct cli *c, const tiers_variant *v,
                           tiers_pos *p, struct cmd_render_state *s)
{
    tiers_error err;
    memset(&err, 0, sizeof err);
    tiers_move m;
    int rc = tiers_move_parse(p, c->move, c->notation, &m, &err);
    if (rc < 0) {
        char msg[1200];
        tiers_error_text(&err, msg, sizeof msg);
        cli_error(c, "--move '%s': %s", c->move,
                  msg[0] ? msg : cli_rc_text(v, rc));
        return cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
    }
    char *text = cli_move_text(p, &m, c->notation, &rc);
    snprintf(s->last_text, sizeof s->last_text, "%s", text ? text : c->move);
    free(text);
    rc = tiers_pos_make_unchecked(p, &m, NULL); /* m is from the legal list */
    if (rc < 0) {
        cli_error(c, "--move '%s': %s", c->move, cli_rc_text(v, rc));
        return cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL : CLI_INPUT;
    }
    s->last = m;
    s->has_last = 1;
    return CLI_OK;
}

enum { CMD_RENDER_CELL = 28, CMD_RENDER_GAP = 24 };

/* Text with the XML specials escaped. */
static void cmd_render_xml(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        default: fputc(*s, f);
        }
}

/* One tier's grid at x, y: a square per cell, the piece gold, each target
 * with its notation letter. */
static void cmd_render_grid(FILE *f, const pieces_grid *g, int tier, int x, int y)
{
    int side = 2 * g->radius + 1;
    fprintf(f, "<g><text x=\"%d\" y=\"%d\" font-size=\"14\">tier %d</text>\n", x,
            y - 6, tier);
    for (int r = 0; r < side; r++)
        for (int col = 0; col < side; col++) {
            char ch = g->cell[r][col];
            int cx = x + col * CMD_RENDER_CELL, cy = y + r * CMD_RENDER_CELL;
            const char *fill = ch == 'P' ? "#e0b040" : ch == '.' ? "#f4f0e6" : "#8fb8de";
            fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
                    "stroke=\"#666\"/>\n", cx, cy, CMD_RENDER_CELL, CMD_RENDER_CELL, fill);
            if (ch != '.')
                fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"16\" "
                        "text-anchor=\"middle\">%c</text>\n", cx + CMD_RENDER_CELL / 2,
                        cy + CMD_RENDER_CELL * 2 / 3, ch);
        }
    fputs("</g>\n", f);
}

/* The SVG of --piece: one grid per tier, side by side (forward up). */
static int cmd_render_piece_svg(FILE *f, const tiers_variant *v, int face)
{
    int tiers = tiers_variant_max_tiers(v), width = CMD_RENDER_GAP, height = 0;
    pieces_grid g[TIERS_MAX_TIERS];
    for (int t = 1; t <= tiers; t++) {
        int rc = pieces_grid_make(v, face, t, &g[t - 1]);
        if (rc < 0)
            return rc;
        int side = (2 * g[t - 1].radius + 1) * CMD_RENDER_CELL;
        width += side + CMD_RENDER_GAP;
        height = side > height ? side : height;
    }
    height += 3 * CMD_RENDER_GAP;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "font-family=\"sans-serif\">\n<desc>", width, height);
    cmd_render_xml(f, tiers_variant_face_name(v, face));
    fputs(" of ", f);
    cmd_render_xml(f, tiers_variant_name(v));
    fprintf(f, ": P the piece, o step, x jump, l leap, * slide, 2-9 a ray of at "
            "most N, + a general line; forward is up</desc>\n");
    int x = CMD_RENDER_GAP;
    for (int t = 1; t <= tiers; t++) {
        cmd_render_grid(f, &g[t - 1], t, x, 2 * CMD_RENDER_GAP);
        x += (2 * g[t - 1].radius + 1) * CMD_RENDER_CELL + CMD_RENDER_GAP;
    }
    fputs("</svg>\n", f);
    return ferror(f) ? TIERS_ENOMEM : 0;
}

/* The whole SVG document in memory, so that --png can convert it without
 * a temporary file: the position of view, or when view->p is NULL the
 * movement of v's face; NULL with a message. */
static char *cmd_render_svg(const struct cli *c, const svg_view *view,
                            const tiers_variant *v, int face, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f) {
        cli_error(c, "out of memory");
        return NULL;
    }
    int bad = view->p ? svg_position(f, view) < 0 : cmd_render_piece_svg(f, v, face) < 0;
    bad |= fclose(f) != 0;
    if (bad) {
        cli_error(c, "out of memory");
        free(buf);
        return NULL;
    }
    return buf;
}

/* Writes len bytes to the file out, or to stdout when out is NULL.  The
 * file is written whole or not at all (outfile.h): a temporary file made
 * next to it, renamed when complete. */
static int cmd_render_save(const struct cli *c, const char *out,
                           const void *data, size_t len)
{
    if (!out) {
        /* a failure here is reported once, by cli_finish_output */
        fwrite(data, 1, len, stdout);
        return CLI_OK;
    }
    struct outfile o;
    char err[1200] = "";
    if (outfile_open(&o, out, err, sizeof err) != 0 ||
        outfile_close(&o, fwrite(data, 1, len, o.f) == len, err, sizeof err) != 0) {
        cli_error(c, "%s", err);
        return CLI_INTERNAL;
    }
    return CLI_OK;
}

/* Writes the picture to --output (default stdout), as PNG with --png. */
static int cmd_render_write(const struct cli *c, const svg_view *view,
                            const tiers_variant *v, int face)
{
    const char *out = c->output && strcmp(c->output, "-") ? c->output : NULL;
    if (c->png && !out)
        return cli_usage_error(c, "--png needs --output FILE");
    size_t len = 0;
    char *svg = cmd_render_svg(c, view, v, face, &len);
    if (!svg)
        return CLI_INTERNAL;
    if (!c->png) {
        int code = cmd_render_save(c, out, svg, len);
        free(svg);
        return code;
    }
    unsigned char *png = NULL;
    size_t png_len = 0;
    char err[512];
    int rc = png_from_svg(svg, len, &png, &png_len, err, sizeof err);
    free(svg);
    if (rc < 0) {
        cli_error(c, "--png: %s", err);
        return CLI_INTERNAL;
    }
    int code = cmd_render_save(c, out, png, png_len);
    free(png);
    return code;
}

/* render --piece FACE: the face's grid per tier. */
static int cmd_render_piece(const struct cli *c)
{
    tiers_variant *v;
    int face = -1, code = cli_open(c, c->args[0], 0, &v, NULL);
    if (!v)
        return code;
    code = cli_find_face(c, v, c->piece, &face);
    if (code == CLI_OK) {
        svg_view none = {NULL, NULL, NULL, NULL};
        code = cmd_render_write(c, &none, v, face);
    }
    cli_close(v, NULL);
    return code;
}

int cmd_render_run(struct cli *c)
{
    if (c->record && c->position)
        return cli_usage_error(c, "--record and --position do not combine");
    if ((c->given & CLI_O_PLY) && !c->record)
        return cli_usage_error(c, "--ply needs --record");

    if (c->piece && (c->record || c->position || c->move))
        return cli_usage_error(c, "--piece draws a face, not a position: no --position, "
                               "--record or --move with it");
    tiers_variant *v;
    tiers_pos *p;
    if (c->piece)
        return cmd_render_piece(c);
    int code = cli_open(c, c->args[0], 0, &v, &p);
    if (!p)
        return code;
    struct cmd_render_state s;
    memset(&s, 0, sizeof s);

    if (c->record)
        code = cmd_render_record(c, &v, &p, &s);
    if (code == CLI_OK && c->move)
        code = cmd_render_move(c, v, p, &s);
    if (code == CLI_OK) {
        int rc;
        char *desc = cli_pos_text(p, NULL, &rc);
        svg_view view = {p, s.has_last ? &s.last : NULL,
                         s.has_last ? s.last_text : NULL, desc};
        code = cmd_render_write(c, &view, v, -1);
        free(desc);
    }
    cli_close(v, p);
    return code;
}
