/* svg.c - a position as an SVG picture (svg.h).
 *
 * Layout, all in whole pixels so that the output is the same everywhere:
 *
 *   caption (variant, ply, side to move or result, last move)
 *   rank numbers | board, rank 1 at the bottom | hand of the side at the top
 *                |                             | shared hand (if any)
 *                |                             | hand of the side at the bottom
 *   file letters
 *   legend (only the styles the picture uses)
 *
 * A tower is drawn as a stack of tiles in its square: each tile is a
 * slab lifted a few pixels above the one beneath, so a taller tower
 * stands higher in its square and shows a strip of every tile under its
 * top (with that tile's letter when the strip is tall enough).  Owner is
 * the tile's colour, a back face is hatched, a royal face has a gold rim,
 * a facing is a small arrow, and a circled number gives the height of
 * towers of two or more. */
#include "svg.h"

#include <string.h>

enum {
    SVG_MARGIN = 16,
    SVG_CAPTION = 30,  /* caption line above the board */
    SVG_GUTTER = 22,   /* rank numbers on the left, file letters below */
    SVG_PAD = 6,       /* between a square's edge and its tiles */
    SVG_MAX_LIFT = 12, /* strip of a tile under another */
    SVG_MIN_FACE = 26, /* face of the top tile */
    SVG_STRIP_LETTER = 9, /* strips this tall or more show a letter */
    SVG_PANEL_GAP = 28,
    SVG_LABEL = 22,    /* hand label line */
    SVG_HAND_TILE = 36,
    SVG_HAND_STEP_X = 64,
    SVG_HAND_STEP_Y = 44,
    SVG_HAND_COLS = 3,
    SVG_GROUP_GAP = 14,
    SVG_LEGEND_LINE = 15,
    SVG_CAPTION_CHAR = 9, /* width of a caption character, about */
    SVG_LEGEND_CHAR = 7
};

/* Colours of the three owners: side 0, side 1, shared. */
static const struct svg_palette {
    const char *fill, *stroke, *ink, *hatch;
} svg_owner[3] = {
    {"#f8f2e2", "#4a3b28", "#2a1f14", "hatch-dark"},
    {"#2f3642", "#0d1117", "#f4f4f4", "hatch-light"},
    {"#d9a441", "#6b4a0e", "#2b1d05", "hatch-dark"},
};

static const char svg_font[] = "DejaVu Sans,Verdana,Arial,sans-serif";

typedef struct svg_layout {
    int files, ranks, tiers;
    int cell, lift, face_w, face_h;
    int bx, by;            /* board's top-left corner */
    int px;                /* hands panel's left edge */
    int hand_y[3];         /* top of each owner's hand group */
    int hand_n[3];         /* entries in each hand */
    int top_side;          /* side whose hand is drawn at the top */
    int width, height;
    int legend_y;
    char caption[256];
    char legend[4][160];    /* legend lines */
    int nlegend;
    int uses_facing;
    int any_back, any_royal, any_hidden;
    int tone[3];           /* palette of each owner: 0 light, 1 dark */
} svg_layout;

static int svg_tone(const svg_layout *L, int owner)
{
    return owner >= 0 && owner <= 2 ? L->tone[owner] : 2;
}

/* ------------------------------------------------------------ writing */

static void svg_esc(FILE *o, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", o); break;
        case '<': fputs("&lt;", o); break;
        case '>': fputs("&gt;", o); break;
        case '"': fputs("&quot;", o); break;
        case '\'': fputs("&apos;", o); break;
        default:
            /* XML 1.0 allows no control characters but tab and newlines */
            if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
                fputc(*s, o);
        }
    }
}

/* <text> at (x, y) anchored as `anchor`, escaped content. */
static void svg_text(FILE *o, int x, int y, int size, const char *anchor,
                     const char *fill, const char *extra, const char *text)
{
    fprintf(o, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"%s\" "
            "fill=\"%s\"%s%s>", x, y, size, anchor, fill, extra ? " " : "",
            extra ? extra : "");
    svg_esc(o, text);
    fputs("</text>\n", o);
}

/* ------------------------------------------------------------- pieces */

static const char *svg_side_word(const tiers_variant *v, int owner, char *buf)
{
    if (owner == 2)
        return "shared";
    const char *name = tiers_variant_side_name(v, owner);
    if (name && name[0])
        return name;
    snprintf(buf, 16, "side %d", owner);
    return buf;
}

/* "white general (back: lance)" for tooltips. */
static void svg_piece_words(const tiers_variant *v, const tiers_piece_info *pi,
                            char *buf, size_t size)
{
    static const char *const facing[4] = {"north", "east", "south", "west"};
    char side[16];
    int n = snprintf(buf, size, "%s %s", svg_side_word(v, pi->owner, side),
                     pi->face);
    if (n < 0 || (size_t)n >= size)
        return;
    if (pi->back)
        n += snprintf(buf + n, size - (size_t)n, " (back face; front: %s)",
                      pi->hidden);
    else if (pi->two_sided)
        n += snprintf(buf + n, size - (size_t)n, " (back: %s)", pi->hidden);
    if (pi->facing >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", facing %s", facing[pi->facing & 3]);
}

/* A small triangle centred at (cx, cy) pointing along facing (0 n = up). */
static void svg_arrow(FILE *o, int cx, int cy, int r, int facing,
                      const char *fill)
{
    int ax, ay, bx, by, qx, qy;
    switch (facing & 3) {
    case 0: ax = cx; ay = cy - r; bx = cx - r; by = cy + r; qx = cx + r; qy = cy + r; break;
    case 1: ax = cx + r; ay = cy; bx = cx - r; by = cy - r; qx = cx - r; qy = cy + r; break;
    case 2: ax = cx; ay = cy + r; bx = cx - r; by = cy - r; qx = cx + r; qy = cy - r; break;
    default: ax = cx - r; ay = cy; bx = cx + r; by = cy - r; qx = cx + r; qy = cy + r; break;
    }
    fprintf(o, "<polygon points=\"%d,%d %d,%d %d,%d\" fill=\"%s\"/>\n", ax, ay,
            bx, by, qx, qy, fill);
}

/* One tile: a rounded slab at (x, y, w, h), its letter centred in the
 * band text_y .. text_y + text_h (the part left visible: all of a top
 * tile, the bottom strip of a tile under another). */
static void svg_tile(FILE *o, int x, int y, int w, int h, int text_y,
                     int text_h, int tone, const tiers_piece_info *pi)
{
    const struct svg_palette *c = &svg_owner[tone >= 0 && tone <= 2 ? tone : 2];
    int radius = 5;
    fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"%d\" "
            "fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
            x, y, w, h, radius, c->fill, c->stroke);
    if (pi->back)
        fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"%d\" "
                "fill=\"url(#%s)\"/>\n", x, y, w, h, radius, c->hatch);
    if (pi->royal)
        fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"%d\" "
                "fill=\"none\" stroke=\"#c8961e\" stroke-width=\"2.5\"/>\n",
                x + 2, y + 2, w - 4, h - 4, radius - 2);

    if (text_h < SVG_STRIP_LETTER)
        return; /* a strip too thin for a letter */
    int font = text_h >= 20 ? text_h - 8 : text_h - 2;
    if (font > 22)
        font = 22;
    int arrow = pi->facing >= 0;
    int lx = arrow ? x + (w - 14) / 2 : x + w / 2;
    int cy = text_y + text_h / 2;
    char letter[2] = {pi->letter ? pi->letter : '?', '\0'};
    char style[64];
    snprintf(style, sizeof style, "font-weight=\"bold\"%s",
             pi->back ? " font-style=\"italic\"" : "");
    svg_text(o, lx, cy + (font * 36 + 50) / 100, font, "middle", c->ink, style,
             letter);
    if (arrow)
        svg_arrow(o, x + w - 9, cy, text_h >= 20 ? 5 : 3, pi->facing, c->ink);
    /* The face underneath when the shown one does not tell the tile
       ("P~C"): small, in the corner. */
    const char *tilde = strchr(pi->token, '~');
    if (tilde && tilde[1] && text_h >= 20) {
        char hidden[2] = {tilde[1], '\0'};
        svg_text(o, x + w - 4, text_y + text_h - 3, 9, "end", c->ink,
                 "fill-opacity=\"0.75\"", hidden);
    }
}

/* ------------------------------------------------------------ captions */

/* "gungi-io · ply 12 · white to move, in check · last: e2-e3". */
static void svg_caption_text(const svg_view *view, const tiers_status *st,
                             char *text, size_t size)
{
    const tiers_variant *v = tiers_pos_variant(view->p);
    char side[16];
    int n = snprintf(text, size, "%s \xc2\xb7 ply %d \xc2\xb7 ",
                     tiers_variant_name(v), tiers_pos_ply(view->p));
    static const char *const result[] = {"*", "1-0", "0-1", "1/2-1/2"};
    const char *reason = st->reason && st->reason[0] ? st->reason : NULL;
    if (n < 0 || (size_t)n >= size)
        return;
    if (st->game_over)
        n += snprintf(text + n, size - (size_t)n, "%s%s%s%s",
                      result[st->result & 3], reason ? " (" : "",
                      reason ? reason : "", reason ? ")" : "");
    else
        n += snprintf(text + n, size - (size_t)n, "%s to %s%s",
                      svg_side_word(v, st->side_to_move, side),
                      st->setup ? "place" : "move",
                      st->in_check ? ", in check" : "");
    if (view->last_text && view->last_text[0] && n > 0 && (size_t)n < size)
        snprintf(text + n, size - (size_t)n, " \xc2\xb7 last: %s",
                 view->last_text);
}

/* Characters of UTF-8 text (for width estimates). */
static int svg_chars(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

/* The legend's items that the picture uses, in lines of at most `width`
 * pixels. */
static void svg_legend_lines(svg_layout *L, int width)
{
    const char *items[6];
    int n = 0;
    items[n++] = "towers: bottom tile lowest";
    items[n++] = "circled number = height";
    if (L->any_back)
        items[n++] = "hatched = back face";
    if (L->any_royal)
        items[n++] = "gold rim = royal";
    if (L->any_hidden)
        items[n++] = "corner letter = face beneath";
    if (L->uses_facing)
        items[n++] = "arrow = facing";
    L->nlegend = 0;
    for (int i = 0; i < n; i++) {
        char *line = L->legend[L->nlegend ? L->nlegend - 1 : 0];
        int len = L->nlegend ? svg_chars(line) : 0;
        int add = svg_chars(items[i]) + 2;
        if (!L->nlegend || (len + add) * SVG_LEGEND_CHAR > width) {
            if (L->nlegend == 4)
                break;
            line = L->legend[L->nlegend++];
            snprintf(line, sizeof L->legend[0], "%s", items[i]);
        } else {
            size_t used = strlen(line);
            snprintf(line + used, sizeof L->legend[0] - used, "; %s", items[i]);
        }
    }
}

static void svg_legend(FILE *o, const svg_layout *L)
{
    for (int i = 0; i < L->nlegend; i++)
        svg_text(o, L->bx, L->legend_y + 12 + i * SVG_LEGEND_LINE, 11, "start",
                 "#6f5e3e", NULL, L->legend[i]);
}

/* ------------------------------------------------------------- layout */

static int svg_hand_count(const tiers_pos *p, int owner)
{
    tiers_piece_info pi;
    int n = 0;
    while (n < 1000 && tiers_pos_hand_entry(p, owner, n, &pi) > 0)
        n++;
    return n;
}

static int svg_group_height(int entries)
{
    int rows = (entries + SVG_HAND_COLS - 1) / SVG_HAND_COLS;
    return SVG_LABEL + (rows ? rows : 1) * SVG_HAND_STEP_Y;
}

static void svg_scan(const tiers_pos *p, svg_layout *L)
{
    for (int r = 0; r < L->ranks; r++)
        for (int f = 0; f < L->files; f++) {
            int h = tiers_pos_height(p, f, r);
            if (h > L->tiers)
                L->tiers = h;
            for (int t = 1; t <= h; t++) {
                tiers_piece_info pi;
                if (tiers_pos_piece_info(p, f, r, t, &pi) < 0)
                    continue;
                L->any_back |= pi.back;
                L->any_royal |= pi.royal;
                L->any_hidden |= strchr(pi.token, '~') != NULL;
            }
        }
    for (int o = 0; o < 3; o++)
        for (int i = 0; i < L->hand_n[o]; i++) {
            tiers_piece_info pi;
            if (tiers_pos_hand_entry(p, o, i, &pi) > 0) {
                L->any_back |= pi.back;
                L->any_royal |= pi.royal;
                L->any_hidden |= strchr(pi.token, '~') != NULL;
            }
        }
}

static void svg_layout_compute(const svg_view *view, const tiers_status *st,
                               svg_layout *L)
{
    const tiers_pos *p = view->p;
    const tiers_variant *v = tiers_pos_variant(p);
    memset(L, 0, sizeof *L);
    svg_caption_text(view, st, L->caption, sizeof L->caption);
    L->files = tiers_variant_files(v);
    L->ranks = tiers_variant_ranks(v);
    L->tiers = tiers_variant_max_tiers(v);
    L->uses_facing = tiers_variant_uses_facing(v);
    /* A side called white is light and one called black dark; else the
       first side is light. */
    const char *n0 = tiers_variant_side_name(v, 0);
    const char *n1 = tiers_variant_side_name(v, 1);
    int dark0 = (n0 && !strcmp(n0, "black")) || (n1 && !strcmp(n1, "white"));
    L->tone[0] = dark0;
    L->tone[1] = !dark0;
    L->tone[2] = 2;
    for (int o = 0; o < 3; o++)
        L->hand_n[o] = svg_hand_count(p, o);
    svg_scan(p, L);
    if (L->tiers < 1)
        L->tiers = 1;
    if (L->tiers > TIERS_MAX_TIERS)
        L->tiers = TIERS_MAX_TIERS;

    /* Squares grow with the highest tower so that strips stay legible. */
    L->cell = 64;
    if (L->tiers > 3)
        L->cell += 8 * (L->tiers - 3);
    L->face_w = L->cell - 2 * SVG_PAD;
    if (L->tiers > 1) {
        L->lift = (L->cell - 2 * SVG_PAD - SVG_MIN_FACE) / (L->tiers - 1);
        if (L->lift > SVG_MAX_LIFT)
            L->lift = SVG_MAX_LIFT;
    }
    L->face_h = L->cell - 2 * SVG_PAD - (L->tiers - 1) * L->lift;

    L->bx = SVG_MARGIN + SVG_GUTTER;
    L->by = SVG_MARGIN + SVG_CAPTION;
    L->px = L->bx + L->files * L->cell + SVG_PANEL_GAP;

    /* The side moving south (or the second side) has its hand on top. */
    L->top_side = tiers_variant_side_forward(v, 0) == 2 ||
                  tiers_variant_side_forward(v, 1) == 0 ? 0 : 1;
    int board_h = L->ranks * L->cell;
    int top = L->top_side, bottom = !L->top_side;
    int y = L->by;
    L->hand_y[top] = y;
    y += svg_group_height(L->hand_n[top]) + SVG_GROUP_GAP;
    if (L->hand_n[2]) {
        L->hand_y[2] = y;
        y += svg_group_height(L->hand_n[2]) + SVG_GROUP_GAP;
    }
    int low = L->by + board_h - svg_group_height(L->hand_n[bottom]);
    L->hand_y[bottom] = low > y ? low : y;
    int panel_end = L->hand_y[bottom] + svg_group_height(L->hand_n[bottom]);

    int board_end = L->by + board_h + SVG_GUTTER;
    L->legend_y = (panel_end > board_end ? panel_end : board_end) + 4;
    L->width = L->px + SVG_HAND_COLS * SVG_HAND_STEP_X + SVG_MARGIN;
    int caption_w = L->bx + svg_chars(L->caption) * SVG_CAPTION_CHAR + SVG_MARGIN;
    if (caption_w > L->width)
        L->width = caption_w;
    svg_legend_lines(L, L->width - L->bx - SVG_MARGIN);
    L->height = L->legend_y + L->nlegend * SVG_LEGEND_LINE + 6 + SVG_MARGIN;
}

/* ---------------------------------------------------------------- board */

static int svg_on_board(const svg_layout *L, int sq)
{
    return sq != TIERS_NO_SQUARE && sq % 16 < L->files && sq / 16 < L->ranks;
}

static void svg_square_xy(const svg_layout *L, int file, int rank, int *x, int *y)
{
    *x = L->bx + file * L->cell;
    *y = L->by + (L->ranks - 1 - rank) * L->cell;
}

/* Squares the last move touched: 1 = where it came from, 2 = where it
 * went (drops, targets, deployment squares). */
static void svg_move_marks(const svg_layout *L, const tiers_move *m,
                           unsigned char mark[TIERS_MAX_SQUARES])
{
    memset(mark, 0, TIERS_MAX_SQUARES);
    if (!m || m->kind == TIERS_MV_NONE || m->kind == TIERS_MV_READY)
        return;
    if (svg_on_board(L, m->from))
        mark[m->from] = 1;
    for (int i = 0; i < m->npath && i < 4; i++)
        if (svg_on_board(L, m->path[i]))
            mark[m->path[i]] = 2;
    if (svg_on_board(L, m->to))
        mark[m->to] = 2;
}

static void svg_board(FILE *o, const svg_layout *L, const unsigned char *mark)
{
    static const char *const shade[2] = {"#e9dcc0", "#dccba4"};
    fprintf(o, "<g id=\"board\">\n");
    for (int r = 0; r < L->ranks; r++)
        for (int f = 0; f < L->files; f++) {
            int x, y;
            svg_square_xy(L, f, r, &x, &y);
            const char *fill = shade[(f + r) & 1];
            if (mark[r * 16 + f] == 1)
                fill = "#f1dd8a";
            else if (mark[r * 16 + f] == 2)
                fill = "#eec75a";
            fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                    "fill=\"%s\"/>\n", x, y, L->cell, L->cell, fill);
        }
    fprintf(o, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
            "stroke=\"#6f5e3e\" stroke-width=\"2\"/>\n", L->bx, L->by,
            L->files * L->cell, L->ranks * L->cell);
    for (int f = 1; f < L->files; f++)
        fprintf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                "stroke=\"#8a7a5a\" stroke-width=\"1\"/>\n", L->bx + f * L->cell,
                L->by, L->bx + f * L->cell, L->by + L->ranks * L->cell);
    for (int r = 1; r < L->ranks; r++)
        fprintf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                "stroke=\"#8a7a5a\" stroke-width=\"1\"/>\n", L->bx,
                L->by + r * L->cell, L->bx + L->files * L->cell,
                L->by + r * L->cell);
    fprintf(o, "</g>\n");
}

/* File letters below the board, rank numbers on its left. */
static void svg_coordinates(FILE *o, const svg_layout *L)
{
    fprintf(o, "<g id=\"coordinates\" fill=\"#5a4a30\">\n");
    for (int f = 0; f < L->files; f++) {
        char sq[8], name[8];
        tiers_square_name(f, 0, sq);
        size_t n = strcspn(sq, "0123456789");
        memcpy(name, sq, n);
        name[n] = '\0';
        svg_text(o, L->bx + f * L->cell + L->cell / 2,
                 L->by + L->ranks * L->cell + 16, 13, "middle", "#5a4a30",
                 NULL, name);
    }
    for (int r = 0; r < L->ranks; r++) {
        char sq[8];
        tiers_square_name(0, r, sq);
        const char *num = sq + strcspn(sq, "0123456789");
        svg_text(o, L->bx - 7, L->by + (L->ranks - 1 - r) * L->cell +
                               L->cell / 2 + 5, 13, "end", "#5a4a30", NULL, num);
    }
    fprintf(o, "</g>\n");
}

static void svg_tower(FILE *o, const svg_layout *L, const tiers_pos *p,
                      int file, int rank)
{
    const tiers_variant *v = tiers_pos_variant(p);
    int h = tiers_pos_height(p, file, rank);
    if (h <= 0)
        return;
    if (h > L->tiers)
        h = L->tiers;
    int x, y;
    svg_square_xy(L, file, rank, &x, &y);
    char sq[8], words[160];
    tiers_square_name(file, rank, sq);
    fprintf(o, "<g class=\"tower\" data-square=\"%s\">\n", sq);
    for (int t = 1; t <= h; t++) {
        tiers_piece_info pi;
        if (tiers_pos_piece_info(p, file, rank, t, &pi) < 0)
            continue;
        int ty = y + L->cell - SVG_PAD - L->face_h - (t - 1) * L->lift;
        svg_piece_words(v, &pi, words, sizeof words);
        fprintf(o, "<g><title>%s tier %d: ", sq, t);
        svg_esc(o, words);
        fprintf(o, "</title>\n");
        if (t == h) /* the top tile shows its whole face */
            svg_tile(o, x + SVG_PAD, ty, L->face_w, L->face_h, ty, L->face_h,
                     svg_tone(L, pi.owner), &pi);
        else        /* the next tile covers all but a strip at the bottom */
            svg_tile(o, x + SVG_PAD, ty, L->face_w, L->face_h,
                     ty + L->face_h - L->lift, L->lift, svg_tone(L, pi.owner), &pi);
        fprintf(o, "</g>\n");
    }
    if (h >= 2) {
        char n[4];
        snprintf(n, sizeof n, "%d", h);
        fprintf(o, "<circle cx=\"%d\" cy=\"%d\" r=\"7\" fill=\"#7a2e1d\" "
                "stroke=\"#fff\" stroke-width=\"1\"/>\n", x + 9, y + 9);
        svg_text(o, x + 9, y + 13, 10, "middle", "#ffffff",
                 "font-weight=\"bold\"", n);
    }
    fprintf(o, "</g>\n");
}

static void svg_marks(FILE *o, const svg_layout *L, const unsigned char *mark)
{
    for (int sq = 0; sq < TIERS_MAX_SQUARES; sq++) {
        if (!mark[sq])
            continue;
        int x, y;
        svg_square_xy(L, sq % 16, sq / 16, &x, &y);
        fprintf(o, "<rect class=\"last-move\" x=\"%d\" y=\"%d\" width=\"%d\" "
                "height=\"%d\" fill=\"none\" stroke=\"#c0501a\" "
                "stroke-width=\"3\"%s/>\n", x + 2, y + 2, L->cell - 4,
                L->cell - 4, mark[sq] == 1 ? " stroke-dasharray=\"6 4\"" : "");
    }
}

/* ---------------------------------------------------------------- hands */

static void svg_hand(FILE *o, const svg_layout *L, const tiers_pos *p, int owner)
{
    const tiers_variant *v = tiers_pos_variant(p);
    char side[16], label[64];
    int y = L->hand_y[owner];
    snprintf(label, sizeof label, "%s hand", svg_side_word(v, owner, side));
    fprintf(o, "<g class=\"hand\" data-owner=\"%d\">\n", owner);
    svg_text(o, L->px, y + 14, 13, "start", "#3b3024", "font-weight=\"bold\"",
             label);
    if (!L->hand_n[owner])
        svg_text(o, L->px, y + SVG_LABEL + 22, 12, "start", "#8a7a5a",
                 "font-style=\"italic\"", "empty");
    for (int i = 0; i < L->hand_n[owner]; i++) {
        tiers_piece_info pi;
        int n = tiers_pos_hand_entry(p, owner, i, &pi);
        if (n <= 0)
            break;
        int x = L->px + (i % SVG_HAND_COLS) * SVG_HAND_STEP_X;
        int ty = y + SVG_LABEL + (i / SVG_HAND_COLS) * SVG_HAND_STEP_Y;
        char words[160], count[16];
        svg_piece_words(v, &pi, words, sizeof words);
        fprintf(o, "<g><title>in hand: %d x ", n);
        svg_esc(o, words);
        fprintf(o, "</title>\n");
        svg_tile(o, x, ty, SVG_HAND_TILE, SVG_HAND_TILE, ty, SVG_HAND_TILE,
                 svg_tone(L, pi.owner), &pi);
        if (n > 1) {
            snprintf(count, sizeof count, "\xc3\x97%d", n); /* U+00D7 */
            svg_text(o, x + SVG_HAND_TILE + 4, ty + SVG_HAND_TILE / 2 + 5, 13,
                     "start", "#3b3024", NULL, count);
        }
        fprintf(o, "</g>\n");
    }
    fprintf(o, "</g>\n");
}

static void svg_defs(FILE *o)
{
    fputs("<defs>\n"
          "<pattern id=\"hatch-dark\" width=\"6\" height=\"6\" "
          "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
          "<rect width=\"2\" height=\"6\" fill=\"#000000\" fill-opacity=\"0.22\"/>"
          "</pattern>\n"
          "<pattern id=\"hatch-light\" width=\"6\" height=\"6\" "
          "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
          "<rect width=\"2\" height=\"6\" fill=\"#ffffff\" fill-opacity=\"0.30\"/>"
          "</pattern>\n"
          "</defs>\n", o);
}

int svg_position(FILE *out, const svg_view *view)
{
    svg_layout L;
    tiers_pos *p = (tiers_pos *)view->p; /* status may generate moves */
    const tiers_variant *v = tiers_pos_variant(p);
    tiers_status st = tiers_pos_status(p);
    svg_layout_compute(view, &st, &L);
    unsigned char mark[TIERS_MAX_SQUARES];
    svg_move_marks(&L, view->last, mark);

    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"%s\">\n",
            L.width, L.height, L.width, L.height, svg_font);
    fprintf(out, "<title>%s, ply %d</title>\n", tiers_variant_name(v),
            tiers_pos_ply(p));
    if (view->desc) {
        fputs("<desc>", out);
        svg_esc(out, view->desc);
        fputs("</desc>\n", out);
    }
    svg_defs(out);
    fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fbf8f1\"/>\n",
            L.width, L.height);
    svg_text(out, L.bx, SVG_MARGIN + 14, 15, "start", "#2a1f14",
             "font-weight=\"bold\"", L.caption);
    svg_board(out, &L, mark);
    svg_coordinates(out, &L);
    fprintf(out, "<g id=\"towers\">\n");
    for (int r = L.ranks - 1; r >= 0; r--)
        for (int f = 0; f < L.files; f++)
            svg_tower(out, &L, p, f, r);
    fprintf(out, "</g>\n");
    svg_marks(out, &L, mark);
    svg_hand(out, &L, p, L.top_side);
    if (L.hand_n[2])
        svg_hand(out, &L, p, 2);
    svg_hand(out, &L, p, !L.top_side);
    svg_legend(out, &L);
    fputs("</svg>\n", out);
    return ferror(out) ? -1 : 0;
}
