/* cmd_pieces.c - `tiers pieces`: each face's movement per tier as a grid
 * in the diagram notation of docs/variant-format.md (pieces.c), so a
 * designer sees what the YAML says without reading it. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "pieces.h"

/* The face the command names (or -1 for every face): an exit code. */
int cli_find_face(const struct cli *c, const tiers_variant *v, const char *name, int *face)
{
    int n = tiers_variant_face_count(v);
    *face = tiers_variant_face_find(v, name);
    if (*face >= 0)
        return CLI_OK;
    const char *names[64];
    int k = 0;
    for (int i = 0; i < n && k < 64; i++)
        names[k++] = tiers_variant_face_name(v, i);
    char list[64 * 34] = "";
    size_t used = 0;
    for (int i = 0; i < k && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                                 names[i]);
    cli_error(c, "%s has no face '%s' (faces: %s)", tiers_variant_name(v), name, list);
    cli_did_you_mean(name, names, k);
    return CLI_INPUT;
}

/* The tiers to draw: --tier N alone, else 1..max. */
static int cmd_pieces_tiers(const struct cli *c, const tiers_variant *v, int *lo, int *hi)
{
    int max = tiers_variant_max_tiers(v);
    *lo = 1;
    *hi = max;
    if (!(c->given & CLI_O_TIER))
        return CLI_OK;
    if (c->tier > max) {
        cli_error(c, "--tier %ld: %s has towers of at most %d", c->tier,
                  tiers_variant_name(v), max);
        return CLI_INPUT;
    }
    *lo = *hi = (int)c->tier;
    return CLI_OK;
}

static void cmd_pieces_text_face(const tiers_variant *v, int face, int lo, int hi)
{
    char row[2 * PIECES_SIDE + 1];
    pieces_grid prev, g;
    int general = 0;
    printf("%s (%s)\n", tiers_variant_face_name(v, face), tiers_variant_face_symbol(v, face));
    for (int t = lo; t <= hi; t++) {
        pieces_grid_make(v, face, t, &g);
        if (g.copies) {
            printf("  moves as the piece beneath it (copy_below)\n");
            break;
        }
        if (t > lo && pieces_grid_same(&prev, &g)) {
            printf("  tier %d: as tier %d\n", t, t - 1);
            prev = g;
            continue;
        }
        printf("  tier %d:%s\n", t, g.nlines ? "" : " no moves");
        for (int r = 0; g.nlines && r <= 2 * g.radius; r++)
            printf("    %s\n", pieces_grid_row(&g, r, row, sizeof row));
        general |= g.general;
        prev = g;
    }
    if (general)
        printf("  + = a line this notation cannot draw (see its lines: in the YAML)\n");
}

static void cmd_pieces_json_face(jsonw *w, const tiers_variant *v, int face, int lo, int hi)
{
    char row[2 * PIECES_SIDE + 1];
    pieces_grid g;
    jsonw_begin_object(w);
    jsonw_key(w, "face");
    jsonw_string(w, tiers_variant_face_name(v, face));
    jsonw_key(w, "symbol");
    jsonw_string(w, tiers_variant_face_symbol(v, face));
    jsonw_key(w, "copies_below");
    jsonw_bool(w, tiers_variant_face_copies(v, face));
    jsonw_key(w, "tiers");
    jsonw_begin_array(w);
    for (int t = lo; t <= hi; t++) {
        pieces_grid_make(v, face, t, &g);
        jsonw_begin_object(w);
        jsonw_key(w, "tier");
        jsonw_int(w, t);
        jsonw_key(w, "lines");
        jsonw_int(w, g.nlines);
        jsonw_key(w, "grid");
        jsonw_begin_array(w);
        for (int r = 0; r <= 2 * g.radius; r++)
            jsonw_string(w, pieces_grid_row(&g, r, row, sizeof row));
        jsonw_end_array(w);
        jsonw_end_object(w);
    }
    jsonw_end_array(w);
    jsonw_end_object(w);
}

int cmd_pieces_run(struct cli *c)
{
    tiers_variant *v;
    int code = cli_open(c, c->args[0], 0, &v, NULL);
    if (!v)
        return code;
    int face = -1, lo, hi, n = tiers_variant_face_count(v);
    if (c->nargs > 1)
        code = cli_find_face(c, v, c->args[1], &face);
    if (code == CLI_OK)
        code = cmd_pieces_tiers(c, v, &lo, &hi);
    if (code != CLI_OK) {
        cli_close(v, NULL);
        return code;
    }
    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "variant");
        jsonw_string(&w, tiers_variant_name(v));
        jsonw_key(&w, "faces");
        jsonw_begin_array(&w);
        for (int i = 0; i < n; i++)
            if (face < 0 || i == face)
                cmd_pieces_json_face(&w, v, i, lo, hi);
        jsonw_end_array(&w);
        jsonw_end_object(&w);
        fputc('\n', stdout);
    } else {
        printf("%s: forward is up; P the piece, o step, x jump, l leap (via the squares "
               "between),\n* slide to the edge, 2-9 a ray of at most N squares\n\n",
               tiers_variant_name(v));
        for (int i = 0; i < n; i++)
            if (face < 0 || i == face)
                cmd_pieces_text_face(v, i, lo, hi);
    }
    cli_close(v, NULL);
    return CLI_OK;
}
