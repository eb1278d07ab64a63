/* report.c - the comparison table (text rows shared with `tiers compare`)
 * and the self-contained HTML report with inline SVG charts: win rates
 * with 95% intervals, game-length histograms, branching factor over the
 * course of a game, effect usage. */
#include "report.h"

#include "diffs.h"
#include "outfile.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------- rows */

static char *report_fmt(const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return strdup(buf);
}

static char *report_rate(const struct stats_rate *r)
{
    if (r->n == 0)
        return strdup("-");
    return report_fmt("%.1f%% [%.1f, %.1f]", 100 * r->rate, 100 * r->lo, 100 * r->hi);
}

/* Effect names over all variants, in order of first appearance. */
static int report_effects(const struct playout_variant *v, int n,
                          char names[][DB_NAME], int cap)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        for (int e = 0; e < v[i].run.neffects; e++) {
            int seen = 0;
            for (int k = 0; k < count; k++)
                seen |= !strcmp(names[k], v[i].run.effect[e]);
            if (!seen && count < cap)
                snprintf(names[count++], DB_NAME, "%s", v[i].run.effect[e]);
        }
    return count;
}

/* Face names over all variants that know theirs, in order of first
 * appearance. */
static int report_faces(const struct playout_variant *v, int n, char names[][DB_NAME],
                        int cap)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        for (int f = 0; v[i].have_stats && f < v[i].stats.nfaces; f++) {
            int seen = 0;
            for (int k = 0; k < count; k++)
                seen |= !strcmp(names[k], v[i].stats.face[f].name);
            if (!seen && count < cap)
                snprintf(names[count++], DB_NAME, "%s", v[i].stats.face[f].name);
        }
    return count;
}

/* The per-face cell: each count per game ('-' when the file cannot say). */
static char *report_face_cell(const struct playout_variant *pv, const char *name)
{
    const struct stats *s = &pv->stats;
    if (!pv->have_stats || s->nfaces < 0)
        return strdup("-");
    struct db_face none = {.moves = 0};
    const struct db_face *f = &none;
    for (int k = 0; k < s->nfaces; k++)
        if (!strcmp(s->face[k].name, name))
            f = &s->face[k];
    double dn = s->games > 0 ? (double)s->games : 1;
    return report_fmt("%.2f moves, %.2f captures, %.2f taken, %.2f drops, %.3f mates / game",
                      (double)f->moves / dn, (double)f->captures / dn,
                      (double)f->captured / dn, (double)f->drops / dn, (double)f->mates / dn);
}

/* The effect cell: the three kinds apart when every game has them. */
static char *report_effect_cell(const struct stats *s, int e)
{
    if (!s->effect_kinds)
        return report_fmt("%.2f fired or prevented / game, in %.1f%% of games",
                          s->effect_rate[e], 100 * s->effect_games[e].rate);
    return report_fmt("%.2f fired, %.2f prevented, %.3f ended / game, in %.1f%% of games",
                      s->effect_rate[e], s->prevented_rate[e], s->ended_rate[e],
                      100 * s->effect_games[e].rate);
}

static int report_effect_index(const struct db_run *run, const char *name)
{
    for (int e = 0; e < run->neffects; e++)
        if (!strcmp(run->effect[e], name))
            return e;
    return -1;
}

enum {
    ROW_VARIANT, ROW_HASH, ROW_OPTIONS, ROW_STATUS, ROW_GAMES, ROW_SIDES, ROW_AGENTS, ROW_WIN0, ROW_WIN1, ROW_FIRST_SIDE, ROW_FIRST,
    ROW_FIRST_DECISIVE, ROW_BALANCE,
    ROW_DRAW, ROW_DECISIVE, ROW_CUT, ROW_REPLAY, ROW_LEN_MEAN, ROW_LEN_MEDIAN, ROW_LEN_RANGE,
    ROW_LEN_SD, ROW_DLEN, ROW_SETUP, ROW_BRANCHING, ROW_DECISION, ROW_OPENINGS,
    ROW_OPENING_BITS, ROW_COVERAGE, ROW_REPETITION, ROW_LEAD_CHANGE, ROW_DRAMA,
    ROW_DECISION_POINT, ROW_STABILITY, ROW_HOOK_ENDED,
    ROW_CAPTURES, ROW_DROPS, ROW_STACKS, ROW_SECONDS, ROW_FIXED
};

static const char *const report_labels[ROW_FIXED] = {
    "variant", "content hash", "options", "status", "games", "sides (0 / 1)", "agents (0 / 1)", "side 0 wins", "side 1 wins",
    "first mover", "first mover wins", "first mover wins (decisive)", "balance (decisive)",
    "draws", "decisive", "cut at max plies",
    "replayed (repetition)",
    "length, mean (plies)", "length, median", "length, min-max", "length, std dev",
    "decisive length, mean / median", "setup plies, mean",
    "branching (legal moves)", "decision moves", "openings k=1 / 2 / 4",
    "opening entropy (bits)", "board coverage", "positional repetition", "lead change",
    "drama (decisive)", "decision point (decisive)", "stability (variance of v)",
    "ended by a result hook", "captures / game", "drops / game", "stacks / game",
    "seconds / game",
};

static char *report_cell(const struct playout_variant *pv, int row)
{
    const struct stats *s = &pv->stats;
    const struct db_run *r = &pv->run;
    switch (row) {
    case ROW_VARIANT: return strdup(r->variant[0] ? r->variant : "-");
    case ROW_HASH: return strdup(r->hash[0] ? r->hash : "-");
    case ROW_OPTIONS: return strdup(r->options[0] ? r->options : "defaults");
    case ROW_STATUS: {
        /* the first line: the context lines below it (position, Lua's
           stack) are in the error printed above and in --json */
        size_t len = strcspn(pv->failure, "\n");
        return pv->have_stats ? strdup("ok")
                              : report_fmt("failed: %.*s", (int)(len < 200 ? len : 200),
                                           pv->failure);
    }
    default: break;
    }
    if (!pv->have_stats)
        return strdup("-");
    switch (row) {
    case ROW_GAMES: return report_fmt("%lld", (long long)s->games);
    case ROW_SIDES: return report_fmt("%s / %s", r->side[0], r->side[1]);
    case ROW_AGENTS: return report_fmt("%s / %s", r->agent[0], r->agent[1]);
    case ROW_WIN0: return report_rate(&s->win[0]);
    case ROW_WIN1: return report_rate(&s->win[1]);
    case ROW_FIRST_SIDE:
        return strdup(s->first_side < 0 ? "-" : r->side[s->first_side]);
    case ROW_FIRST: return report_rate(&s->first);
    case ROW_FIRST_DECISIVE: return report_rate(&s->first_decisive);
    case ROW_BALANCE: return s->balance < 0 ? strdup("-") : report_fmt("%.3f", s->balance);
    case ROW_LEN_SD: return report_fmt("%.1f", s->length_sd);
    case ROW_DLEN:
        return s->decisive_length_mean < 0
                   ? strdup("-")
                   : report_fmt("%.1f / %.1f", s->decisive_length_mean,
                                s->decisive_length_median);
    case ROW_DECISION:
        return s->decision.n ? report_fmt("%.1f%%", 100 * s->decision.rate) : strdup("-");
    case ROW_OPENINGS:
        return report_fmt("%lld / %lld / %lld", (long long)s->openings[0].distinct,
                          (long long)s->openings[1].distinct,
                          (long long)s->openings[2].distinct);
    case ROW_OPENING_BITS:
        return report_fmt("%.2f / %.2f / %.2f", s->openings[0].entropy,
                          s->openings[1].entropy, s->openings[2].entropy);
    case ROW_COVERAGE: case ROW_REPETITION: case ROW_LEAD_CHANGE: case ROW_DRAMA:
    case ROW_DECISION_POINT: case ROW_STABILITY: {
        double x = s->fig[row - ROW_COVERAGE];
        return x < 0 ? strdup("-") : report_fmt("%.3f", x);
    }
    case ROW_HOOK_ENDED: return report_rate(&s->hook_ended);
    case ROW_DRAW: return report_rate(&s->draw);
    case ROW_DECISIVE: return report_rate(&s->decisive_rate);
    case ROW_CUT: return report_rate(&s->cut_rate);
    case ROW_REPLAY: return report_rate(&s->replay_rate);
    case ROW_LEN_MEAN: return report_fmt("%.1f", s->length_mean);
    case ROW_LEN_MEDIAN: return report_fmt("%.1f", s->length_median);
    case ROW_LEN_RANGE: return report_fmt("%d-%d", s->length_min, s->length_max);
    case ROW_SETUP: return report_fmt("%.1f", s->setup_mean);
    case ROW_BRANCHING: return report_fmt("%.1f", s->branching);
    case ROW_CAPTURES: return report_fmt("%.2f", s->captures);
    case ROW_DROPS: return report_fmt("%.2f", s->drops);
    case ROW_STACKS: return report_fmt("%.2f", s->stacks);
    case ROW_SECONDS: return report_fmt("%.4f", s->seconds_mean);
    default: return strdup("?");
    }
}

/* Whether a ruleset failed: the status row is shown only then. */
static int report_any_failed(const struct playout_variant *v, int n)
{
    for (int i = 0; i < n; i++)
        if (!v[i].have_stats)
            return 1;
    return 0;
}

/* Whether any variant has a game ended for a replay: the row of those is
 * shown only then. */
static int report_any_replayed(const struct playout_variant *v, int n)
{
    for (int i = 0; i < n; i++)
        if (v[i].stats.replayed)
            return 1;
    return 0;
}

/* The endings (reason, phase) over all rulesets, in order of first
 * appearance (each ruleset's most frequent first). */
enum { REPORT_MAX_ENDINGS = 64 };
static int report_endings(const struct playout_variant *v, int n,
                          struct stats_ending *out, int cap)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        for (int e = 0; v[i].have_stats && e < v[i].stats.nendings; e++) {
            const struct stats_ending *x = &v[i].stats.endings[e];
            int seen = 0;
            for (int k = 0; k < count; k++)
                seen |= out[k].setup == x->setup && !strcmp(out[k].reason, x->reason);
            if (!seen && count < cap)
                out[count++] = *x;
        }
    return count;
}

/* The cell of ending x for one ruleset: its share of games (0 of n when
 * it never ended so). */
static char *report_ending_cell(const struct playout_variant *pv, const struct stats_ending *x)
{
    if (!pv->have_stats)
        return strdup("-");
    const struct stats *s = &pv->stats;
    for (int e = 0; e < s->nendings; e++)
        if (s->endings[e].setup == x->setup && !strcmp(s->endings[e].reason, x->reason))
            return report_rate(&s->endings[e].rate);
    struct stats_rate none;
    stats_wilson(0, s->games, &none);
    return report_rate(&none);
}

int report_rows(const struct playout_variant *v, int n, struct report_row **out)
{
    char names[GAME_MAX_EFFECTS * 4][DB_NAME];
    int neff = report_effects(v, n, names, GAME_MAX_EFFECTS * 4);
    struct stats_ending endings[REPORT_MAX_ENDINGS];
    int nend = report_endings(v, n, endings, REPORT_MAX_ENDINGS);
    /* the agents row only when the variants do not all have the same */
    int same_agents = 1;
    for (int i = 1; i < n; i++)
        same_agents &= !strcmp(v[i].run.agent[0], v[0].run.agent[0]) &&
                       !strcmp(v[i].run.agent[1], v[0].run.agent[1]);
    char faces[GAME_MAX_FACES * 4][DB_NAME];
    int nface = report_faces(v, n, faces, GAME_MAX_FACES * 4);
    int nrows = ROW_FIXED + nend + neff + nface, any_replayed = report_any_replayed(v, n);
    struct report_row *rows = calloc((size_t)nrows, sizeof *rows);
    if (!rows)
        return -1;
    int fail = 0, out_row = 0;
    for (int row = 0; row < nrows; row++) {
        if (row == ROW_AGENTS && same_agents && n > 1)
            continue;
        if (row == ROW_REPLAY && !any_replayed)
            continue;
        if (row == ROW_STATUS && !report_any_failed(v, n))
            continue;
        struct report_row *rr = &rows[out_row++];
        rr->cells = calloc((size_t)n, sizeof *rr->cells);
        if (!rr->cells) {
            fail = 1;
            break;
        }
        const struct stats_ending *ending =
            row >= ROW_FIXED && row < ROW_FIXED + nend ? &endings[row - ROW_FIXED] : NULL;
        int effect = row - ROW_FIXED - nend, face = effect - neff;
        if (row < ROW_FIXED)
            snprintf(rr->label, sizeof rr->label, "%s", report_labels[row]);
        else if (ending)
            snprintf(rr->label, sizeof rr->label, "ended: %s%s", ending->reason,
                     ending->setup ? " (setup)" : "");
        else if (face < 0)
            snprintf(rr->label, sizeof rr->label, "effect %s", names[effect]);
        else
            snprintf(rr->label, sizeof rr->label, "face %s", faces[face]);
        for (int i = 0; i < n; i++) {
            if (row < ROW_FIXED) {
                rr->cells[i] = report_cell(&v[i], row);
            } else if (ending) {
                rr->cells[i] = report_ending_cell(&v[i], ending);
            } else if (face >= 0) {
                rr->cells[i] = report_face_cell(&v[i], faces[face]);
            } else {
                int e = report_effect_index(&v[i].run, names[effect]);
                rr->cells[i] = e < 0 || !v[i].have_stats ? strdup("-")
                                                         : report_effect_cell(&v[i].stats, e);
            }
            fail |= !rr->cells[i];
        }
    }
    if (fail) {
        report_rows_free(rows, nrows, n);
        return -1;
    }
    *out = rows;
    return out_row;
}

void report_rows_free(struct report_row *rows, int nrows, int n)
{
    if (!rows)
        return;
    for (int row = 0; row < nrows; row++) {
        for (int i = 0; rows[row].cells && i < n; i++)
            free(rows[row].cells[i]);
        free(rows[row].cells);
    }
    free(rows);
}

/* ------------------------------------------------------------- html */

static const char *const report_palette[] = {
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f",
};
enum { REPORT_NPALETTE = 8, REPORT_W = 760 };

static const char *report_colour(int i) { return report_palette[i % REPORT_NPALETTE]; }

static void report_esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* An upper bound of the width in pixels of text at the charts' 12px
 * sans-serif (no glyph there is wider than 0.62 em; a bold one than
 * 0.68 em): labels are placed by it, so none is clipped. */
static int report_text_w(const char *text, int bold)
{
    int n = 0;
    for (const unsigned char *t = (const unsigned char *)text; *t; t++)
        n += (*t & 0xc0) != 0x80; /* characters, not UTF-8 bytes */
    return (int)(n * (bold ? 8.2 : 7.5)) + 2;
}

/* Colours of the sides by name, the same in every column: the names in
 * order of first appearance take the palette's colours in turn. */
enum { REPORT_MAX_SIDES = 16 };
struct report_sides {
    char name[REPORT_MAX_SIDES][DB_NAME];
    int n;
};

static const char *const report_side_palette[] = {
    "#4e79a7", "#e15759", "#76b7b2", "#f28e2b", "#b07aa1", "#9c755f", "#edc948", "#59a14f",
};
#define REPORT_DRAW_COLOUR "#a0a0a0"
#define REPORT_CUT_COLOUR "#555555"
#define REPORT_REPLAY_COLOUR "#d4a6c8"

static int report_side_index(struct report_sides *sd, const char *name)
{
    for (int i = 0; i < sd->n; i++)
        if (!strcmp(sd->name[i], name))
            return i;
    if (sd->n == REPORT_MAX_SIDES)
        return REPORT_MAX_SIDES - 1;
    snprintf(sd->name[sd->n], DB_NAME, "%s", name);
    return sd->n++;
}

static const char *report_side_colour(struct report_sides *sd, const char *name)
{
    return report_side_palette[report_side_index(sd, name) % 8];
}

/* A legend entry: a swatch and its text at (x, y); returns the x after. */
static int report_legend(FILE *f, int x, int y, const char *colour, const char *text)
{
    fprintf(f, "<rect class=\"swatch\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
               "fill=\"%s\"/><text class=\"legend\" x=\"%d\" y=\"%d\">",
            x, y - 10, colour, x + 16, y);
    report_esc(f, text);
    fputs("</text>\n", f);
    return x + 16 + report_text_w(text, 0) + 14;
}

/* One bar with its label on the left and, for a rate, its interval. */
static void report_rate_bar(FILE *f, int left, int plot, int y, int bar, const char *label,
                            const char *colour, const char *cls, const char *ruleset,
                            const struct stats_rate *q)
{
    double w = plot * q->rate, lo = left + plot * q->lo, hi = left + plot * q->hi;
    double cy = y + bar / 2.0;
    fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", left - 8,
            cy + 4);
    report_esc(f, label);
    fprintf(f, "</text>\n<rect class=\"bar %s\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
               "fill=\"%s\"><title>",
            cls, left, y, w, bar, colour);
    report_esc(f, ruleset);
    fputs(": ", f);
    report_esc(f, label);
    fprintf(f, ": %.1f%% [%.1f, %.1f] of %lld</title></rect>\n", 100 * q->rate, 100 * q->lo,
            100 * q->hi, (long long)q->n);
    if (q->n > 0)
        fprintf(f, "<path class=\"ci\" d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1fM%.1f %.1fV%.1f\"/>\n",
                lo, cy, hi, lo, cy - 5, cy + 5, hi, cy - 5, cy + 5);
}

/* Win rates: per ruleset, one bar of all its games split into each
 * side's wins, draws, replayed and cut games (they add up to 100%), then
 * bars with their 95% intervals for each side's wins, the first mover's,
 * draws and cut games.  A side has the same colour in every column. */
static void report_chart_wins(FILE *f, const struct playout_variant *v, int n)
{
    enum { K = 6 };
    const int right = 40, bar = 16, gap = 4, head = 24, group_gap = 14, top = 44;
    struct report_sides sd = {.n = 0};
    char label[16][K][DB_NAME * 2 + 40];
    int left = 120;
    for (int i = 0; i < n && i < 16; i++) {
        const struct stats *s = &v[i].stats;
        const struct db_run *r = &v[i].run;
        report_side_index(&sd, r->side[0]);
        report_side_index(&sd, r->side[1]);
        snprintf(label[i][0], sizeof label[i][0], "all games");
        snprintf(label[i][1], sizeof label[i][1], "%s wins", r->side[0]);
        snprintf(label[i][2], sizeof label[i][2], "%s wins", r->side[1]);
        snprintf(label[i][3], sizeof label[i][3], "first mover (%s) wins",
                 s->first_side < 0 ? "-" : r->side[s->first_side]);
        snprintf(label[i][4], sizeof label[i][4], "draws");
        snprintf(label[i][5], sizeof label[i][5], "cut at max plies");
        for (int k = 0; k < K; k++)
            if (report_text_w(label[i][k], 0) + 16 > left)
                left = report_text_w(label[i][k], 0) + 16;
    }
    int plot = 520, width = left + plot + right;
    for (int i = 0; i < n && i < 16; i++) /* the headings start at x = 8 */
        if (8 + report_text_w(v[i].label, 1) + 120 > width)
            width = 8 + report_text_w(v[i].label, 1) + 120;
    int nshow = n < 16 ? n : 16;
    int height = top + nshow * (head + K * (bar + gap) + group_gap) + 24;
    fprintf(f, "<svg id=\"chart-winrates\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
               "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
            width, height, width, height);
    fputs("<title>Outcomes and win rates with 95% Wilson intervals</title>\n", f);
    /* the legend: each side name once, then draws, replayed, cut */
    int lx = 8;
    fputs("<g id=\"legend-winrates\">\n", f);
    for (int k = 0; k < sd.n; k++) {
        char text[DB_NAME + 8];
        snprintf(text, sizeof text, "%s wins", sd.name[k]);
        lx = report_legend(f, lx, 18, report_side_palette[k % 8], text);
    }
    lx = report_legend(f, lx, 18, REPORT_DRAW_COLOUR, "draws");
    lx = report_legend(f, lx, 18, REPORT_REPLAY_COLOUR, "replayed");
    report_legend(f, lx, 18, REPORT_CUT_COLOUR, "cut");
    fputs("</g>\n", f);
    for (int t = 0; t <= 100; t += 25) {
        double x = left + plot * t / 100.0;
        fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
                   "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d%%</text>\n",
                x, top - 6, x, height - 24, x, height - 10, t);
    }
    int y = top;
    for (int i = 0; i < nshow; i++) {
        const struct stats *s = &v[i].stats;
        const struct db_run *r = &v[i].run;
        fprintf(f, "<text class=\"head\" x=\"8\" y=\"%d\">", y + 14);
        report_esc(f, v[i].label);
        fprintf(f, " (%lld games)</text>\n", (long long)s->games);
        y += head;
        /* all games, stacked */
        double cy = y + bar / 2.0, x = left;
        fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                left - 8, cy + 4, label[i][0]);
        struct {
            int64_t k;
            const char *colour, *cls, *what;
        } part[5] = {
            {s->wins[0], report_side_colour(&sd, r->side[0]), "win", r->side[0]},
            {s->wins[1], report_side_colour(&sd, r->side[1]), "win", r->side[1]},
            {s->draws, REPORT_DRAW_COLOUR, "draw", "draws"},
            {s->replayed, REPORT_REPLAY_COLOUR, "replayed", "replayed"},
            {s->cut, REPORT_CUT_COLOUR, "cut", "cut"},
        };
        for (int k = 0; k < 5; k++) {
            double w = s->games ? plot * (double)part[k].k / (double)s->games : 0;
            fprintf(f, "<rect class=\"bar part %s\" data-side=\"", part[k].cls);
            report_esc(f, k < 2 ? part[k].what : "");
            fprintf(f, "\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\">"
                       "<title>",
                    x, y, w, bar, part[k].colour);
            report_esc(f, part[k].what);
            fprintf(f, "%s: %lld of %lld</title></rect>\n", k < 2 ? " wins" : "",
                    (long long)part[k].k, (long long)s->games);
            x += w;
        }
        y += bar + gap;
        const struct stats_rate *rates[K - 1] = {&s->win[0], &s->win[1], &s->first, &s->draw,
                                                 &s->cut_rate};
        const char *colours[K - 1] = {
            report_side_colour(&sd, r->side[0]), report_side_colour(&sd, r->side[1]),
            s->first_side < 0 ? REPORT_DRAW_COLOUR
                              : report_side_colour(&sd, r->side[s->first_side]),
            REPORT_DRAW_COLOUR, REPORT_CUT_COLOUR};
        static const char *const cls[K - 1] = {"win", "win", "first", "draw", "cut"};
        for (int k = 0; k < K - 1; k++) {
            report_rate_bar(f, left, plot, y, bar, label[i][k + 1], colours[k], cls[k],
                            v[i].label, rates[k]);
            y += bar + gap;
        }
        y += group_gap;
    }
    fputs("</svg>\n", f);
}

/* A round step for an axis: 1, 2 or 5 times a power of ten, the smallest
 * such that `count` steps cover `span`. */
static int report_round_step(int span, int count)
{
    long step = 1;
    for (;;) {
        for (int m = 0; m < 3; m++) {
            static const int mult[3] = {1, 2, 5};
            if (step * mult[m] * count >= span)
                return (int)(step * mult[m]);
        }
        step *= 10;
    }
}

/* Game lengths: one histogram per ruleset on a shared axis, bins and
 * ticks at round numbers of plies. */
static void report_chart_lengths(FILE *f, const struct playout_variant *v, int n)
{
    enum { MAX_BINS = 25 };
    const int left = 60, right = 20, each = 110, top = 10;
    int maxlen = 1;
    for (int i = 0; i < n; i++)
        if (v[i].stats.games && v[i].stats.length_max > maxlen)
            maxlen = v[i].stats.length_max;
    int width = report_round_step(maxlen + 1, MAX_BINS); /* plies per bin */
    int bins = (maxlen + width) / width;                  /* 0 .. maxlen */
    int tick = report_round_step(bins * width, 5);
    int svg_w = REPORT_W;
    for (int i = 0; i < n; i++)
        if (left + report_text_w(v[i].label, 0) + 260 > svg_w)
            svg_w = left + report_text_w(v[i].label, 0) + 260;
    const int plot = svg_w - left - right;
    int height = top + n * (each + 24) + 20;
    fprintf(f, "<svg id=\"chart-lengths\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
               "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
            svg_w, height, svg_w, height);
    fputs("<title>Game length histograms (play-phase plies)</title>\n", f);
    int y0 = top;
    double scale = plot / (double)(bins * width); /* pixels per ply */
    for (int i = 0; i < n; i++) {
        const struct stats *s = &v[i].stats;
        int64_t count[MAX_BINS + 1] = {0}, peak = 1;
        for (int64_t g = 0; g < s->games; g++) {
            int b = s->lengths[g] / width;
            count[b < bins ? b : bins - 1]++;
        }
        for (int b = 0; b < bins; b++)
            if (count[b] > peak)
                peak = count[b];
        fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\">", left, y0 + 12);
        report_esc(f, v[i].label);
        fprintf(f, " (mean %.1f, median %.1f plies)</text>\n", s->length_mean,
                s->length_median);
        int base = y0 + 18 + each - 20;
        for (int b = 0; b < bins; b++) {
            double h = (each - 24) * (double)count[b] / (double)peak;
            fprintf(f, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                       "fill=\"%s\"><title>%d-%d plies: %lld games</title></rect>\n",
                    left + b * width * scale + 1, base - h, width * scale - 2, h,
                    report_colour(i), b * width, (b + 1) * width - 1, (long long)count[b]);
        }
        fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", left, base,
                left + plot, base);
        fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"end\">%lld</text>\n",
                left - 6, base - (each - 24) + 4, (long long)peak);
        for (int t = 0; t <= bins * width; t += tick)
            fprintf(f, "<text class=\"tick xtick\" x=\"%.1f\" y=\"%d\" "
                       "text-anchor=\"middle\">%d</text>\n",
                    left + t * scale, base + 14, t);
        y0 += each + 24;
    }
    fputs("</svg>\n", f);
}

/* Branching factor over the course of a game: mean legal moves at each
 * play ply (in bins), among the games still going. */
static void report_chart_branching(FILE *f, const struct playout_variant *v, int n)
{
    enum { POINTS = 60 };
    const int left = 60, right = 20, top = 20, plot_h = 220;
    const int plot = REPORT_W - left - right;
    int maxlen = 1;
    double peak = 1;
    for (int i = 0; i < n; i++)
        if (v[i].stats.games && v[i].stats.length_max > maxlen)
            maxlen = v[i].stats.length_max;
    int width = (maxlen + POINTS - 1) / POINTS;
    if (width < 1)
        width = 1;
    double mean[16][POINTS];
    for (int i = 0; i < n && i < 16; i++) {
        const struct stats *s = &v[i].stats;
        int64_t need = s->games / 20 > 3 ? s->games / 20 : 3;
        for (int k = 0; k < POINTS; k++) {
            int64_t reach = 0;
            for (int p = k * width; p < (k + 1) * width && p < s->profile_len; p++)
                if (s->profile_n[p] > reach)
                    reach = s->profile_n[p];
            mean[i][k] = reach >= need && reach > 0
                             ? stats_profile_mean(s, k * width, (k + 1) * width)
                             : -1;
            if (mean[i][k] > peak)
                peak = mean[i][k];
        }
    }
    int legend = 18 * n;
    int height = top + plot_h + 40 + legend;
    fprintf(f, "<svg id=\"chart-branching\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
               "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
            REPORT_W, height, REPORT_W, height);
    fputs("<title>Branching factor over the course of a game</title>\n", f);
    int base = top + plot_h;
    for (int t = 0; t <= 4; t++) {
        double y = base - plot_h * t / 4.0;
        fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
                   "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n",
                left, y, left + plot, y, left - 6, y + 4, peak * t / 4.0);
        fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
                left + plot * t / 4.0, base + 14, width * POINTS * t / 4);
    }
    fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">play-phase ply"
               "</text>\n", left + plot / 2, base + 30);
    for (int i = 0; i < n && i < 16; i++) {
        fprintf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" points=\"",
                report_colour(i));
        for (int k = 0; k < POINTS; k++)
            if (mean[i][k] >= 0)
                fprintf(f, "%.1f,%.1f ", left + plot * (k + 0.5) / POINTS,
                        base - plot_h * mean[i][k] / peak);
        fputs("\"><title>", f);
        report_esc(f, v[i].label);
        fprintf(f, ": mean %.1f legal moves</title></polyline>\n", v[i].stats.branching);
        int ly = base + 44 + 18 * i;
        fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"4\" fill=\"%s\"/>"
                   "<text class=\"label\" x=\"%d\" y=\"%d\">",
                left, ly - 4, report_colour(i), left + 20, ly);
        report_esc(f, v[i].label);
        fprintf(f, " (mean %.1f)</text>\n", v[i].stats.branching);
    }
    fputs("</svg>\n", f);
}

/* Effect usage: per effect, a bar per ruleset of its firings per game,
 * each effect on its own scale (its largest rate fills the plot), so a
 * rare effect is not a sliver beside a frequent one; the rate is written
 * beside each bar.  A count is of plies where the effect fired or its
 * veto narrowed the legal list (the database does not tell the two
 * apart). */
static void report_chart_effects(FILE *f, const struct playout_variant *v, int n)
{
    char names[GAME_MAX_EFFECTS * 4][DB_NAME];
    int neff = report_effects(v, n, names, GAME_MAX_EFFECTS * 4);
    const int bar = 14, gap = 3, head = 20, group_gap = 10, top = 10;
    const int right = 8 + report_text_w("99999.99 / game, 100% of games", 0);
    int left = 120;
    for (int i = 0; i < n; i++)
        if (24 + report_text_w(v[i].label, 0) + 12 > left)
            left = 24 + report_text_w(v[i].label, 0) + 12;
    int plot = 420, width = left + plot + right;
    for (int k = 0; k < neff; k++)
        if (8 + report_text_w(names[k], 1) + 200 > width)
            width = 8 + report_text_w(names[k], 1) + 200;
    int height = neff ? top + neff * (head + n * (bar + gap) + group_gap) + 10 : 60;
    fprintf(f, "<svg id=\"chart-effects\" class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" "
               "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
            width, height, width, height);
    fputs("<title>Effect usage: plies where each effect fired, per game (a schema-1 "
          "database: fired or prevented)</title>\n", f);
    if (!neff) {
        fputs("<text class=\"label\" x=\"20\" y=\"35\">None of these rulesets has scripted "
              "effects.</text>\n</svg>\n", f);
        return;
    }
    int y = top;
    for (int k = 0; k < neff; k++) {
        double peak = 0;
        for (int i = 0; i < n; i++) {
            int e = report_effect_index(&v[i].run, names[k]);
            if (e >= 0 && v[i].stats.effect_rate[e] > peak)
                peak = v[i].stats.effect_rate[e];
        }
        fprintf(f, "<text class=\"head\" x=\"8\" y=\"%d\">", y + 14);
        report_esc(f, names[k]);
        fprintf(f, "</text>\n");
        y += head;
        for (int i = 0; i < n; i++) {
            int e = report_effect_index(&v[i].run, names[k]);
            double rate = e < 0 ? 0 : v[i].stats.effect_rate[e];
            double w = peak > 0 ? plot * rate / peak : 0;
            fprintf(f, "<text class=\"label\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 8,
                    y + bar - 3);
            report_esc(f, v[i].label);
            fprintf(f, "</text>\n<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%.1f\" "
                       "height=\"%d\" fill=\"%s\"><title>%s</title></rect>\n",
                    left, y, w, bar, report_colour(i),
                    e < 0                          ? "not in this ruleset"
                    : v[i].stats.effect_kinds ? "fired, per game"
                                              : "fired or prevented, per game");
            if (e < 0)
                fprintf(f, "<text class=\"tick\" x=\"%d\" y=\"%d\">not in this ruleset</text>\n",
                        left + 4, y + bar - 3);
            else
                fprintf(f, "<text class=\"tick\" x=\"%.1f\" y=\"%d\">%.2f / game, %.0f%% of "
                           "games</text>\n",
                        left + w + 4, y + bar - 3, rate, 100 * v[i].stats.effect_games[e].rate);
            y += bar + gap;
        }
        y += group_gap;
    }
    fputs("</svg>\n", f);
}

static const char report_css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;"
    "max-width:1000px;margin:2em auto;padding:0 1em}\n"
    "h1{font-size:1.6em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ddd}\n"
    "table{border-collapse:collapse;font-size:13px}td,th{padding:3px 10px;"
    "border-bottom:1px solid #eee;text-align:left;vertical-align:top}\n"
    "th{background:#f4f4f4}td.label{color:#555}.meta{color:#555}\n"
    "svg.chart{display:block;max-width:100%;height:auto;margin:1em 0}\n"
    "svg .grid{stroke:#e4e4e4}svg .axis{stroke:#888}svg .ci{stroke:#222;stroke-width:1.5;"
    "fill:none}\n"
    "svg .series{stroke-width:2}svg text{font:12px sans-serif;fill:#333}"
    "svg .tick{fill:#777;font-size:11px}svg .head{font-weight:bold}\n";

/* How games ended: the summary's "ended:" rows as a table of their own. */
static void report_endings_table(FILE *f, const struct report_row *rows, int nrows,
                                 const struct playout_variant *v, int n)
{
    fputs("<h2>How games ended</h2>\n<p>Games that ended for each reason, as a share of "
          "all games with its 95% interval; (setup): no play-phase move was made.</p>\n"
          "<table id=\"endings\">\n<tr><th>ending</th>", f);
    for (int i = 0; i < n; i++) {
        fputs("<th>", f);
        report_esc(f, v[i].label);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (int row = 0; row < nrows; row++) {
        if (strncmp(rows[row].label, "ended: ", 7))
            continue;
        fputs("<tr><td class=\"label\">", f);
        report_esc(f, rows[row].label + 7);
        fputs("</td>", f);
        for (int i = 0; i < n; i++) {
            fputs("<td>", f);
            report_esc(f, rows[row].cells[i]);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

int report_write(const char *path, const struct report_meta *m,
                 const struct playout_variant *v, int n, char *err, size_t errsize)
{
    struct report_row *rows = NULL;
    int nrows = report_rows(v, n, &rows), nall = n;
    if (nrows < 0) {
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    struct outfile out;
    if (outfile_open(&out, path, err, errsize) != 0) {
        report_rows_free(rows, nrows, n);
        return -1;
    }
    FILE *f = out.f;
    char when[64];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);

    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<title>tiers compare: ", f);
    for (int i = 0; i < n; i++) {
        if (i)
            fputs(", ", f);
        report_esc(f, v[i].label);
    }
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", report_css);
    fputs("<h1>Ruleset comparison</h1>\n<p class=\"meta\">", f);
    if (m->games > 0)
        fprintf(f, "%ld games per variant, ", m->games);
    else
        fputs("games per variant as --until decided (the games row), ", f);
    fprintf(f, "seed %llu, games cut after %d plies; agents: ", (unsigned long long)m->seed,
            m->max_plies);
    if (n > 0) {
        report_esc(f, v[0].run.side[0]);
        fputs(" ", f);
        report_esc(f, v[0].run.agent[0]);
        fputs(", ", f);
        report_esc(f, v[0].run.side[1]);
        fputs(" ", f);
        report_esc(f, v[0].run.agent[1]);
    }
    fprintf(f, ". Written by tiers %s on %s from ", TIERS_VERSION, when);
    report_esc(f, m->db);
    fputs(". Intervals are 95% Wilson score intervals; docs/metrics.md defines every "
          "figure.</p>\n", f);
    struct diffs tests; /* issue 23: what differs, in sentences */
    if (diffs_build(v, n, &tests) == 0 && diffs_mark(rows, nrows, &tests) == 0)
        diffs_html(f, &tests, v);
    diffs_free(&tests);

    fputs("<h2>Summary</h2>\n<table id=\"summary\">\n<tr><th>metric</th>", f);
    for (int i = 0; i < n; i++) {
        fputs("<th>", f);
        report_esc(f, v[i].label);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (int row = 0; row < nrows; row++) {
        fputs("<tr><td class=\"label\">", f);
        report_esc(f, rows[row].label);
        fputs("</td>", f);
        for (int i = 0; i < n; i++) {
            fputs("<td>", f);
            report_esc(f, rows[row].cells[i]);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
    report_endings_table(f, rows, nrows, v, n);

    /* the charts show the rulesets whose figures are there; the table
       above says why the others are not */
    struct playout_variant *ok = malloc((size_t)(n > 0 ? n : 1) * sizeof *ok);
    int nok = 0;
    for (int i = 0; ok && i < n; i++)
        if (v[i].have_stats)
            ok[nok++] = v[i];
    if (!ok) {
        report_rows_free(rows, nrows, n);
        outfile_close(&out, 0, err, errsize);
        snprintf(err, errsize, "out of memory");
        return -1;
    }
    v = ok;
    n = nok;
    fputs("<h2>Win rates</h2>\n<p>For each ruleset, first all its games split into each "
          "side's wins, draws, replayed and cut games (they add up to 100%), then the "
          "share of all games won by each side, by the side that made the first move of the "
          "play phase, drawn and cut, with the 95% interval as whiskers. A side has the same "
          "colour in every ruleset.</p>\n", f);
    report_chart_wins(f, v, n);
    fputs("<h2>Game length</h2>\n<p>Plies of the play phase (setup placements not "
          "counted); games cut at the ply limit pile up at the right.</p>\n", f);
    report_chart_lengths(f, v, n);
    fputs("<h2>Branching factor over the game</h2>\n<p>Mean number of legal moves at each "
          "play-phase ply, over the games still going there (points reached by fewer than "
          "1 game in 20 are left out).</p>\n", f);
    report_chart_branching(f, v, n);
    fputs("<h2>Effect usage</h2>\n<p>Plies per game in which each scripted effect fired "
          "or prevented a move (its veto narrowed the legal list: a foul that stopped a "
          "move counts like one that happened; the database does not tell the two apart). "
          "Each effect has its own scale: its largest rate fills the width, and the "
          "figure is written beside each bar.</p>\n", f);
    report_chart_effects(f, v, n);
    if (m->extra) /* issue 23: the skill trace (compare_skill.c) */
        m->extra(f, m->extra_ctx);
    fputs("</body>\n</html>\n", f);
    free(ok);
    report_rows_free(rows, nrows, nall);
    err[0] = '\0';
    return outfile_close(&out, 1, err, errsize);
}
