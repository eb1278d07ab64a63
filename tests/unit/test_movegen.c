/* test_movegen.c - move generation on the test variant
 * (tests/data/variants/features and its siblings): every movement kind,
 * stacking, capture, drops, setup, strikes, copying, facings, modes and
 * whole-stack movement.
 *
 * Each case is a position, the exact sorted legal move list worked out by
 * hand (the comment above the case says how), and moves that must NOT be
 * legal.  Every case also checks that its position reads back to the same
 * text and hash, and that every legal move reads back to the same move.
 *
 * Conventions used in the derivations: squares are file letter + rank; a
 * white piece's forward is +rank, a black piece's frame is turned half
 * round (offset [dx, dy] lands at (-dx, -dy)).  Tiles of the variant (see
 * its YAML): K king, P pawn (tokens P~- / P~G), G gold (back of P~G),
 * R rook (tier 1-2: two squares orthogonally, tier 3: slide), H hopper
 * (jumps [0,+-2]), L leaper (tier 1 leaps [0,2] via [0,1] and [2,2] via
 * [1,1]; tier 2+: knight), J jumper (leap [0,2], ignores via), N lance
 * (lines), D diagram, C copier (fallback gold), F fort (no_stack,
 * not_copied, steps orthogonally), S stone (immobile), W wall (immobile,
 * no_stack_on), V convert (converts, steps orthogonally), Y husk
 * (immobile, no_strike, no_hand), I idol (immobile, uncapturable), T low
 * (tier1_only, steps orthogonally), Z spirit (a shared tile, *Z, steps
 * orthogonally).  Sorting is strcmp: '-' < '^' < 'x'. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* ------------------------------------------------------------ helpers
 * (each test program links only testutil.c, so these few are local) */

#define VARIANTS TIERS_TEST_DIR "/data/variants"
#define NORULES ((const char *const *)NULL)

static tiers_variant *load(const char *name, const char *const *rules)
{
    tiers_error err;
    char msg[1024];
    tiers_variant *v = tiers_variant_load(name, VARIANTS, rules, &err);
    if (!v)
        fail_msg("loading %s: %s", name, tiers_error_text(&err, msg, sizeof msg));
    return v;
}

/* parse -> format -> parse gives the same text and hash; every legal move
 * written and read back is the same move. */
static void check_roundtrip(tiers_pos *p)
{
    char t1[4096], t2[4096];
    tiers_error err;
    assert_true(tiers_pos_format(p, NULL, t1, sizeof t1) > 0);
    tiers_pos *q = tiers_pos_new(tiers_pos_variant(p), 0, &err);
    assert_non_null(q);
    if (tiers_pos_parse(q, t1, NULL, &err) < 0)
        fail_msg("'%s' does not read back: %s", t1, err.msg);
    assert_true(tiers_pos_format(q, NULL, t2, sizeof t2) > 0);
    assert_string_equal(t1, t2);
    assert_true(tiers_pos_hash(p) == tiers_pos_hash(q));
    tiers_pos_free(q);

    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    int n = tiers_legal_moves(p, buf, TIERS_MAX_MOVES);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++) {
        char s[256];
        tiers_move m;
        assert_true(tiers_move_format(p, &buf[i], NULL, s, sizeof s) > 0);
        if (tiers_move_parse(p, s, NULL, &m, &err) < 0)
            fail_msg("move '%s' does not read back: %s", s, err.msg);
        if (memcmp(&m, &buf[i], sizeof m))
            fail_msg("move '%s' reads back as another move", s);
    }
    free(buf);
}

/* Every move of the space-separated list `bad` is rejected as illegal. */
static void check_illegal(tiers_pos *p, const char *bad)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", bad ? bad : "");
    for (char *save = NULL, *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        tiers_move mv;
        tiers_error err;
        int rc = tiers_move_parse(p, m, NULL, &mv, &err);
        if (rc != TIERS_EILLEGAL)
            fail_msg("'%s' should be illegal, got %d", m, rc);
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted list of `fixed` (space-separated moves) plus a drop of
 * `token` on every square of a files x ranks board not named in `skip`,
 * once per facing in `facings` ("" = no facing suffix). */
static char *with_drops(const char *fixed, const char *token, const char *skip, int files,
                        int ranks, const char *facings)
{
    char **items = calloc(2048, sizeof *items), copy[1024];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", fixed);
    for (char *save = NULL, *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save))
        items[n++] = strdup(m);
    for (int r = 0; r < ranks; r++)
        for (int f = 0; f < files; f++) {
            char sq[8], pad[12];
            tiers_square_name(f, r, sq);
            snprintf(pad, sizeof pad, " %s ", sq);
            char spaced[256];
            snprintf(spaced, sizeof spaced, " %s ", skip);
            if (strstr(spaced, pad))
                continue;
            const char *fc = *facings ? facings : "-";
            for (const char *c = fc; *c; c++) {
                char mv[64];
                if (*facings)
                    snprintf(mv, sizeof mv, "%s*%s@%c", token, sq, *c);
                else
                    snprintf(mv, sizeof mv, "%s*%s", token, sq);
                items[n++] = strdup(mv);
            }
        }
    qsort(items, (size_t)n, sizeof *items, cmp_str);
    size_t total = 1;
    for (int i = 0; i < n; i++)
        total += strlen(items[i]) + 1;
    char *out = calloc(total, 1);
    for (int i = 0; i < n; i++) {
        if (i)
            strcat(out, " ");
        strcat(out, items[i]);
        free(items[i]);
    }
    free(items);
    return out;
}

/* The legal list of `fen` is exactly `want`; each move of `bad` is not
 * legal; the position and its moves round-trip. */
static void expect_moves(const char *variant, const char *const *rules, const char *fen,
                         const char *want, const char *bad)
{
    tiers_variant *v = load(variant, rules);
    tiers_pos *p = tu_pos(v, fen, NULL);
    char *got = tu_moves(p, NULL);
    if (strcmp(got, want))
        fail_msg("%s %s\n  want: %s\n  got:  %s", variant, fen, want, got);
    free(got);
    check_illegal(p, bad);
    check_roundtrip(p);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* Plays `moves` (space-separated) from `fen` and returns the position
 * text (static buffer); p is left at the end for further checks. */
static const char *play(tiers_pos *p, const char *moves)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", moves);
    for (char *save = NULL, *m = strtok_r(copy, " ", &save); m; m = strtok_r(NULL, " ", &save))
        tu_play(p, m, NULL);
    return tu_fen(p, NULL);
}

/* ------------------------------------------------------------ table cases */

typedef struct mcase {
    const char *name;
    const char *variant;
    const char *rules[5]; /* NULL-terminated overrides */
    const char *fen;
    const char *want;
    const char *bad;
} mcase;

static const mcase cases[] = {
    /* Steps from an offset list: gold on c3 goes to [-1,1] b4, [0,1] c4,
     * [1,1] d4, [-1,0] b3, [1,0] d3, [0,-1] c2; no back diagonals. */
    {"step_gold_white", "features", {0}, "5/5/2G2/5/5 - w - 0 0",
     "c3-b3 c3-b4 c3-c2 c3-c4 c3-d3 c3-d4", "c3-b2 c3-d2 c3-c5"},
    /* The same gold for black: each offset turned half round, so b4, c4,
     * d4, b3, d3, c2 become d2, c2, b2, d3, b3, c4. */
    {"step_gold_black", "features", {0}, "5/5/2g2/5/5 - b - 0 0",
     "c3-b2 c3-b3 c3-c2 c3-c4 c3-d2 c3-d3", "c3-b4 c3-d4"},
    /* A named set: all8 from the corner a1 leaves a2, b2, b1. */
    {"step_set_all8_corner", "features", {0}, "5/5/5/5/K4 - w - 0 0",
     "a1-a2 a1-b1 a1-b2", "a1-a3 a1-c1"},
    /* range {2: orth} on tier 1: two squares up (a2, a3) and right (b1,
     * c1); a4 and d1 are out of range. */
    {"range_tier1", "features", {0}, "5/5/5/5/R4 - w - 0 0",
     "a1-a2 a1-a3 a1-b1 a1-c1", "a1-a4 a1-d1"},
    /* Tier 2 is `same`: the rook on a stone moves like on tier 1. */
    {"same_tier2", "features", {0}, "5/5/5/5/[S:R]4 - w - 0 0",
     "a1-a2 a1-a3 a1-b1 a1-c1", "a1-a4 a1-d1"},
    /* Tier 3 slides to the edge: a2..a5 and b1..e1. */
    {"slide_tier3", "features", {0}, "5/5/5/5/[S:S:R]4 - w - 0 0",
     "a1-a2 a1-a3 a1-a4 a1-a5 a1-b1 a1-c1 a1-d1 a1-e1", ""},
    /* The slide ends at the first tower: up a2, a3, then a4 holds an own
     * stone (stack a1^a4); right b1, c1, then the enemy stone on d1
     * (stack and capture: capture_and_stack).  Nothing beyond. */
    {"slide_blocked", "features", {0}, "5/S4/5/5/[S:S:R]2s1 - w - 0 0",
     "a1-a2 a1-a3 a1-b1 a1-c1 a1^a4 a1^d1 a1xd1", "a1-a5 a1-e1 a1xa4"},
    /* Fewer tables than tiers: the pawn has two, so on tier 3 it uses the
     * last (forward diagonals b4, d4), not the tier-1 step to c4. */
    {"last_table_for_higher_tiers", "features", {0}, "5/5/2[S:S:P~-]2/5/5 - w - 0 0",
     "c3-b4 c3-d4", "c3-c4"},
    {"pawn_tier1", "features", {0}, "5/5/2P~-2/5/5 - w - 0 0", "c3-c4", "c3-b4"},
    /* A jump lands two ahead whatever stands between (c2); two back is
     * off the board. */
    {"jump_over_piece", "features", {0}, "5/5/5/2s2/2H2 - w - 0 0", "c1-c3", "c1-c2 c1xc2"},
    /* A leap's via square must be empty (via: empty): [0,2] is blocked by
     * the stone on c2, [2,2] passes d2 and lands on e3. */
    {"leap_via_blocked", "features", {0}, "5/5/5/2s2/2L2 - w - 0 0", "c1-e3", "c1-c3"},
    /* The jumper flag ignores the via square. */
    {"jumper_flag", "features", {0}, "5/5/5/2s2/2J2 - w - 0 0", "c1-c3", ""},
    /* Leaper on tier 2: knight leaps from c1: a2, b3, d3, e2 (the other
     * four are off the board). */
    {"leap_knight_tier2", "features", {0}, "5/5/5/5/2[S:L]2 - w - 0 0",
     "c1-a2 c1-b3 c1-d3 c1-e2", "c1-c3 c1-e3"},
    /* Via rules.  Leaper on c1: [0,2] via c2 (black stone, height 1),
     * [2,2] via d2 (white stone on a black one, height 2).
     *   empty:    both via squares occupied -> nothing;
     *   no-enemy: c2 is topped by the enemy -> only e3;
     *   free:     anything -> c3 and e3;
     *   height:   blocked when taller than the leaper's tier (1) -> c3. */
    {"via_empty", "features", {"via=empty"}, "5/5/5/2s[s:S]1/2L2 - w - 0 0", "",
     "c1-c3 c1-e3"},
    {"via_no_enemy", "features", {"via=no-enemy"}, "5/5/5/2s[s:S]1/2L2 - w - 0 0", "c1-e3",
     "c1-c3"},
    {"via_free", "features", {"via=free"}, "5/5/5/2s[s:S]1/2L2 - w - 0 0", "c1-c3 c1-e3", ""},
    {"via_height", "features", {"via=height"}, "5/5/5/2s[s:S]1/2L2 - w - 0 0", "c1-c3",
     "c1-e3"},
    /* General lines of the lance on c1: first [0,2] dir [0,1] len 2 gives
     * c3 and c4 (c2 is not a candidate); the capture-only diagonals take
     * the stone on b2 and give nothing on the empty d2; the back step is
     * off the board. */
    {"lines_first_len_capture_only", "features", {0}, "5/5/5/1s3/2N2 - w - 0 0",
     "c1-c3 c1-c4 c1xb2", "c1-c2 c1^b2 c1-d2 c1-c5"},
    /* The line ends at the enemy on c3 (stack and capture), so c4 is not
     * reached. */
    {"lines_blocked_at_first", "features", {0}, "5/5/2s2/1s3/2N2 - w - 0 0",
     "c1^c3 c1xb2 c1xc3", "c1-c4"},
    /* capture: no - the back step onto the enemy stone on c2 may stack but
     * not capture; forward only c5 is on the board; the diagonals b4 and
     * d4 are empty (capture only). */
    {"lines_capture_no", "features", {0}, "5/5/2N2/2s2/5 - w - 0 0", "c3-c5 c3^c2",
     "c3xc2 c3-b4 c3-d4"},
    /* The diagram (see the YAML) from c3: * slides c4, c5; o steps d4; x
     * jumps a3; 2 rays d3, e3; l leaps c1 via c2. */
    {"diagram_white", "features", {0}, "5/5/2D2/5/5 - w - 0 0",
     "c3-a3 c3-c1 c3-c4 c3-c5 c3-d3 c3-d4 c3-e3", "c3-b3 c3-b4"},
    /* Occupied c2 blocks the l leap; x jumps over the stone on b3. */
    {"diagram_blocked", "features", {0}, "5/5/1sD2/2s2/5 - w - 0 0",
     "c3-a3 c3-c4 c3-c5 c3-d3 c3-d4 c3-e3", "c3-c1 c3xb3 c3xc2"},
    /* The diagram for black, turned: * slides c2, c1; o steps b2; x jumps
     * e3; 2 rays b3, a3; l leaps c5 via c4. */
    {"diagram_black", "features", {0}, "5/5/2d2/5/5 - b - 0 0",
     "c3-a3 c3-b2 c3-b3 c3-c1 c3-c2 c3-c5 c3-e3", "c3-c4 c3-d4"},
    /* copy_below with nothing below: the copier uses its fallback, gold. */
    {"copy_fallback_alone", "features", {0}, "5/5/2C2/5/5 - w - 0 0",
     "c3-b3 c3-b4 c3-c2 c3-c4 c3-d3 c3-d4", "c3-b2"},
    /* The copier on tier 3 copies the rook beneath it at its own tier:
     * tier 3 slides to the edges (the rook itself is on tier 2). */
    {"copy_at_own_tier", "features", {0}, "5/5/5/5/[H:R:C]4 - w - 0 0",
     "a1-a2 a1-a3 a1-a4 a1-a5 a1-b1 a1-c1 a1-d1 a1-e1", ""},
    /* Beneath another copier, look further down: C on C on R copies R. */
    {"copy_through_copier", "features", {0}, "5/5/5/5/[R:C:C]4 - w - 0 0",
     "a1-a2 a1-a3 a1-a4 a1-a5 a1-b1 a1-c1 a1-d1 a1-e1", ""},
    /* not_copied: on the fort the copier uses its fallback (gold, with
     * the diagonals b4 and d4 the fort lacks). */
    {"copy_not_copied", "features", {0}, "5/5/2[F:C]2/5/5 - w - 0 0",
     "c3-b3 c3-b4 c3-c2 c3-c4 c3-d3 c3-d4", "c3-b2 c3-c5"},
    /* Copying an enemy piece: the hopper's jump, in the copier's own
     * (white) frame: c1 -> c3. */
    {"copy_enemy_below", "features", {0}, "5/5/5/5/2[h:C]2 - w - 0 0", "c1-c3",
     "c1-c2 c1-b2"},
    /* Stacking.  Gold on c2: b3 own stone (stack); c3 own full tower
     * (nothing); d3 own wall (no_stack_on: nothing); b2 enemy tower of 2
     * (stack and capture); d2 enemy full tower (capture only); c1 empty. */
    {"stack_rules", "features", {0}, "5/5/1S[S:S:S]W1/1[s:s]G[s:s:s]1/5 - w - 0 0",
     "c2-c1 c2^b2 c2^b3 c2xb2 c2xd2", "c2^c3 c2^d3 c2^d2 c2xb3 c2-b1"},
    {"stack_own_false", "features", {"stack_own=false"},
     "5/5/1S[S:S:S]W1/1[s:s]G[s:s:s]1/5 - w - 0 0", "c2-c1 c2^b2 c2xb2 c2xd2", "c2^b3"},
    {"stack_enemy_false", "features", {"stack_enemy=false"},
     "5/5/1S[S:S:S]W1/1[s:s]G[s:s:s]1/5 - w - 0 0", "c2-c1 c2^b3 c2xb2 c2xd2", "c2^b2"},
    /* Without capture_and_stack an enemy tower offers only the capture. */
    {"capture_and_stack_false", "features", {"capture_and_stack=false"},
     "5/5/1S[S:S:S]W1/1[s:s]G[s:s:s]1/5 - w - 0 0", "c2-c1 c2^b3 c2xb2 c2xd2", "c2^b2"},
    /* capture: none - enemy towers can only be stacked on (b2); the full
     * d2 gives nothing. */
    {"capture_none", "features", {"capture=none"},
     "5/5/1S[S:S:S]W1/1[s:s]G[s:s:s]1/5 - w - 0 0", "c2-c1 c2^b2 c2^b3", "c2xb2 c2xd2"},
    /* no_stack: the fort (orthogonal steps c3, d2, c1, b2) captures on b2
     * and d2 but never stacks; c3 is own and full. */
    {"no_stack_mover", "features", {0}, "5/5/1S[S:S:S]W1/1[s:s]F[s:s:s]1/5 - w - 0 0",
     "c2-c1 c2xb2 c2xd2", "c2^b2 c2^c3"},
    /* same_face off: the gold may stack on b3 although that tower holds an
     * own gold.  Targets: b3 own (stack), c3, d3, d2, c1 empty, b2 enemy
     * (stack, capture). */
    {"same_face_off", "features", {0}, "5/5/1[G:S]3/1[g:s]G2/5 - w - 0 0",
     "c2-c1 c2-c3 c2-d2 c2-d3 c2^b2 c2^b3 c2xb2", ""},
    /* same_face on: b3 holds an own gold -> no stack there; b2 holds a
     * black gold, which does not count for white. */
    {"same_face_on", "features", {"same_face=true"}, "5/5/1[G:S]3/1[g:s]G2/5 - w - 0 0",
     "c2-c1 c2-c3 c2-d2 c2-d3 c2^b2 c2xb2", "c2^b3"},
    /* height_block: the rook on tier 1 may not land on the enemy tower of
     * height 2 on a2 (without the rule: stack and capture there). */
    {"height_block_off", "features", {0}, "5/5/5/[s:s]4/R4 - w - 0 0",
     "a1-b1 a1-c1 a1^a2 a1xa2", ""},
    {"height_block_on", "features", {"height_block=true"}, "5/5/5/[s:s]4/R4 - w - 0 0",
     "a1-b1 a1-c1", "a1^a2 a1xa2"},
    /* A tier-2 rook is not blocked by a tower of height 2 ... but by the
     * full tower on b1 (height 3 > 2). */
    {"height_block_tier2", "features", {"height_block=true"},
     "5/5/5/[s:s]4/[S:R][s:s:s]3 - w - 0 0", "a1^a2 a1xa2", "a1xb1"},
    /* over_enemy_face: hopper - a gold standing on an enemy piece moves
     * like the hopper (jump c2 -> c4); on its own stone it is a gold. */
    {"over_enemy_face_on", "features", {"over_enemy_face=hopper"},
     "5/5/5/2[s:G]2/5 - w - 0 0", "c2-c4", "c2-c3 c2-b2"},
    {"over_enemy_face_off", "features", {0}, "5/5/5/2[s:G]2/5 - w - 0 0",
     "c2-b2 c2-b3 c2-c1 c2-c3 c2-d2 c2-d3", "c2-c4"},
    {"over_enemy_face_own_below", "features", {"over_enemy_face=hopper"},
     "5/5/5/2[S:G]2/5 - w - 0 0", "c2-b2 c2-b3 c2-c1 c2-c3 c2-d2 c2-d3", "c2-c4"},
    /* Immobile strikes: each white stone strikes the black stone next to
     * it in the tower (tier 1 -> 2 and tier 3 -> 2). */
    {"strikes_white", "features", {"immobile_strikes=true"}, "5/5/2[S:s:S]2/5/5 - w - 0 0",
     "c3:1x2 c3:3x2", "c3:1x3 c3:2x1"},
    /* ... and black's stone strikes both white neighbours. */
    {"strikes_black", "features", {"immobile_strikes=true"}, "5/5/2[S:s:S]2/5/5 - b - 0 0",
     "c3:2x1 c3:2x3", "c3:1x2"},
    /* Without the rule the white stones have no move at all. */
    {"strikes_off", "features", {0}, "5/5/2[S:s:S]2/5/5 - w - 0 0", "", "c3:1x2"},
    /* no_strike: the husk (tier 1) never strikes; the stone on tier 3
     * does. */
    {"no_strike", "features", {"immobile_strikes=true"}, "5/5/2[Y:s:S]2/5/5 - w - 0 0",
     "c3:3x2", "c3:1x2"},
    /* ... but it may be struck. */
    {"no_strike_struck", "features", {"immobile_strikes=true"}, "5/5/2[Y:s:S]2/5/5 - b - 0 0",
     "c3:2x1 c3:2x3", ""},
    /* uncapturable: the gold may stack on the black idol on c3 but never
     * capture it. */
    {"uncapturable", "features", {0}, "5/5/2i2/2G2/5 - w - 0 0",
     "c2-b2 c2-b3 c2-c1 c2-d2 c2-d3 c2^c3", "c2xc3"},
    /* tier1_only: the low piece (orthogonal steps) never lands on a tower:
     * not on its own stone on c3, not on the black one on b2 (which it may
     * capture). */
    {"tier1_only", "features", {0}, "5/5/2S2/1sT2/5 - w - 0 0", "c2-c1 c2-d2 c2xb2",
     "c2^c3 c2^b2"},
    /* A shared piece belongs to the side to move: for white the gold may
     * only stack on it (c3; no capture of an own piece), and the spirit
     * steps b3 c4 d3 or stacks on the gold (c2). */
    {"shared_white", "features", {0}, "5/5/2*Z2/2G2/5 - w - 0 0",
     "c2-b2 c2-b3 c2-c1 c2-d2 c2-d3 c2^c3 c3-b3 c3-c4 c3-d3 c3^c2", "c2xc3"},
    /* For black the same spirit moves (b3 c4 d3) and may take the white
     * gold on c2 or stack on it. */
    {"shared_black", "features", {0}, "5/5/2*Z2/2G2/5 - b - 0 0",
     "c3-b3 c3-c4 c3-d3 c3^c2 c3xc2", ""},
    /* Drop zone by ranks, onto own: white's first two ranks are ranks 1-2;
     * empty b1 c1 d1 e1 a2 c2 d2 e2, plus a1 (own stone); not b2 (enemy),
     * not c3 (rank 3). */
    {"drop_ranks_onto_own_white", "features-drop-ranks", {0},
     "5/5/2S2/1s3/S4 S w - 0 0",
     "S*a1 S*a2 S*b1 S*c1 S*c2 S*d1 S*d2 S*e1 S*e2", "S*b2 S*c3 S*a3"},
    /* Black counts ranks from its own side: ranks 5 and 4, all empty. */
    {"drop_ranks_black", "features-drop-ranks", {0}, "5/5/2S2/1s3/S4 s b - 0 0",
     "S*a4 S*a5 S*b4 S*b5 S*c4 S*c5 S*d4 S*d5 S*e4 S*e5", "S*a3 S*b2"},
    /* Advanced zone with no own piece: the back rank only. */
    {"drop_advanced_empty_board", "features-drop-adv", {0}, "5/5/5/5/5 S w - 0 0",
     "S*a1 S*b1 S*c1 S*d1 S*e1", "S*a2"},
    /* Black's most advanced own-topped tower is d4 (rank 4; the white
     * stone under it does not count for white): ranks 5-4, onto empty
     * squares only, so not d4. */
    {"drop_advanced_black", "features-drop-adv", {0}, "5/3[S:s]1/1S3/5/5 s b - 0 0",
     "S*a4 S*a5 S*b4 S*b5 S*c4 S*c5 S*d5 S*e4 S*e5", "S*d4 S*a3"},
    /* army_cap 2: white has two pieces on the board, so no drop; the gold
     * on a1 steps to a2, b2, b1. */
    {"army_cap_reached", "features", {"army_cap=2"}, "S4/5/5/5/G4 S w - 0 0",
     "a1-a2 a1-b1 a1-b2", "S*c3"},
    /* Modes: in 'full' the king may stack on its gold (b1) and on the own
     * tower of two (b2); the gold may stack on the king (a1) and on b2.
     * Black's king is far away (strict legality changes nothing). */
    {"mode_full", "features-modes", {0}, "4k/5/5/1[S:S]3/KG3 - w - 0 0 mode=full",
     "a1-a2 a1^b1 a1^b2 b1-a2 b1-c1 b1-c2 b1^a1 b1^b2", ""},
    /* In 'low' towers hold two pieces (no b2 for anybody) and the king may
     * not move onto a tower (no a1^b1). */
    {"mode_low", "features-modes", {0}, "4k/5/5/1[S:S]3/KG3 - w - 0 0 mode=low",
     "a1-a2 b1-a2 b1-c1 b1-c2 b1^a1", "a1^b1 a1^b2 b1^b2"},
    /* A position without mode= is in the first mode. */
    {"mode_default_first", "features-modes", {0}, "4k/5/5/1[S:S]3/KG3 - w - 0 0",
     "a1-a2 a1^b1 a1^b2 b1-a2 b1-c1 b1-c2 b1^a1 b1^b2", ""},
    /* Whole stacks: [G:G] on b1 holds two golds, so each gold step reaches
     * up to two squares over empty ones: a2 (then off the board), b2 b3,
     * c2 d3, a1 (then off), c1 then d1 holds an own hopper (1 + 2 pieces
     * fit in 3 tiers: merge).  The hopper alone jumps d1 -> d3.  White's
     * backward steps fall off the board (no exit backwards). */
    {"stack_unit_moves", "features-stack", {0}, "5/5/5/5/1[G:G]1H1 - w - 0 0",
     "b1-a1 b1-a2 b1-b2 b1-b3 b1-c1 b1-c2 b1-d3 b1^d1 d1-d3", "b1-b4 b1-e1"},
    /* Exit: a gold on c5 steps forward past the far rank (three lines,
     * written once as c5-out), or to b5, d5, c4. */
    {"stack_exit_white", "features-stack", {0}, "2G2/5/5/5/5 - w - 0 0",
     "c5-b5 c5-c4 c5-d5 c5-out", "c5-c6"},
    /* Black's far rank is rank 1. */
    {"stack_exit_black", "features-stack", {0}, "5/5/5/5/2g2 - b - 0 0",
     "c1-b1 c1-c2 c1-d1 c1-out", ""},
    /* Three golds reach three squares: [-1,1] a2 (then off), [0,1] b2 b3
     * b4, [1,1] c2 d3 e4, [-1,0] a1 (then off), [1,0] c1 d1 e1; the back
     * step is off the board. */
    {"stack_reach_three", "features-stack", {0}, "5/5/5/5/1[G:G:G]3 - w - 0 0",
     "b1-a1 b1-a2 b1-b2 b1-b3 b1-b4 b1-c1 b1-c2 b1-d1 b1-d3 b1-e1 b1-e4", "b1-c4 b1-b1"},
    /* bounce: a line reflects off a side edge (never on its first step):
     * [-1,1] a2, then b3, c4 (new); [-1,0] a1, then back over the start
     * square b1 (no move there) to c1. */
    {"stack_bounce", "features-stack", {"bounce=true"}, "5/5/5/5/1[G:G:G]3 - w - 0 0",
     "b1-a1 b1-a2 b1-b2 b1-b3 b1-b4 b1-c1 b1-c2 b1-c4 b1-d1 b1-d3 b1-e1 b1-e4", "b1-b1"},
    /* null_bounce: ending a step on the start square is a move too. */
    {"stack_null_bounce", "features-stack", {"bounce=true", "null_bounce=true"},
     "5/5/5/5/1[G:G:G]3 - w - 0 0",
     "b1-a1 b1-a2 b1-b1 b1-b2 b1-b3 b1-b4 b1-c1 b1-c2 b1-c4 b1-d1 b1-d3 b1-e1 b1-e4", ""},
    /* deploy: the two golds on c1 may also split along one gold direction,
     * one per square (path written after '*'); the back step leaves the
     * board, so not that way.  Plus the ten whole-stack moves. */
    {"stack_deploy", "features-stack", {"deploy=true"}, "5/5/5/5/2[G:G]2 - w - 0 0",
     "c1*b1,a1 c1*b2,a3 c1*c2,c3 c1*d1,e1 c1*d2,e3 c1-a1 c1-a3 c1-b1 c1-b2 c1-c2 c1-c3 "
     "c1-d1 c1-d2 c1-e1 c1-e3",
     "c1*c2 c1*c2,c3,c4"},
    /* Facings turn the pattern: a white gold facing east steps to d4 d3
     * d2 c4 c2 b3 ([dx,dy] -> (dy,-dx)); facing west b2 b3 b4 c2 c4 d3;
     * facing south (like a black gold) b2 b3 c2 c4 d2 d3.  A black gold
     * facing east moves like the white one facing east. */
    {"facing_east", "features-facing", {0}, "5/5/2G@e2/5/5 - w - 0 0",
     "c3-b3 c3-c2 c3-c4 c3-d2 c3-d3 c3-d4", "c3-b4 c3-b2"},
    {"facing_west", "features-facing", {0}, "5/5/2G@w2/5/5 - w - 0 0",
     "c3-b2 c3-b3 c3-b4 c3-c2 c3-c4 c3-d3", "c3-d4"},
    {"facing_south", "features-facing", {0}, "5/5/2G@s2/5/5 - w - 0 0",
     "c3-b2 c3-b3 c3-c2 c3-c4 c3-d2 c3-d3", "c3-b4"},
    {"facing_black_east", "features-facing", {0}, "5/5/2g@e2/5/5 - b - 0 0",
     "c3-b3 c3-c2 c3-c4 c3-d2 c3-d3 c3-d4", "c3-b2"},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static void run_case(void **state)
{
    const mcase *c = *state;
    expect_moves(c->variant, c->rules[0] ? c->rules : NORULES, c->fen, c->want, c->bad);
}

/* ------------------------------------------------------------ drops */

/* Zone all, onto any: a stone may go on every empty square (22) and on
 * the enemy stone on b1, not on the own wall (no_stack_on) on a1 nor the
 * own full tower on c1.  Nothing on the board moves (immobile). */
static void test_drop_all_any(void **state)
{
    (void)state;
    char *want = with_drops("", "S", "a1 c1", 5, 5, "");
    expect_moves("features", NORULES, "5/5/5/5/Ws[S:S:S]2 S w - 0 0", want, "S*a1 S*c1");
    free(want);
}

/* one_per_file: white's pawn-gold showing its pawn face on c3 keeps the
 * plain pawn (same face) out of file c; black's pawn on d4 does not count
 * and may be dropped on (onto any).  The pawn on c3 steps to c4. */
static void test_drop_one_per_file(void **state)
{
    (void)state;
    char *want = with_drops("c3-c4", "P~-", "c1 c2 c3 c4 c5", 5, 5, "");
    expect_moves("features", NORULES, "5/3p~-1/2P~G2/5/5 P~- w - 0 0", want,
                 "P~-*c1 P~-*c5");
    free(want);
}

/* A shared piece in the shared hand may be dropped by the side to move:
 * black, on the 24 empty squares and on the white gold (onto any). */
static void test_drop_shared(void **state)
{
    (void)state;
    char *want = with_drops("", "Z", "", 5, 5, "");
    expect_moves("features", NORULES, "5/5/2G2/5/5 *Z b - 0 0", want, "");
    free(want);
}

/* drops.onto: script - the hook allows towers topped by a stone (own c3,
 * black c2), not the gold on b1; empty squares need no hook.  The gold
 * steps a2 b2 a1 c1, stacks on and takes the black stone on c2. */
static void test_drop_script(void **state)
{
    (void)state;
    char *want = with_drops("b1-a1 b1-a2 b1-b2 b1-c1 b1^c2 b1xc2", "S", "b1", 5, 5, "");
    expect_moves("features-script", NORULES, "5/5/2S2/2s2/1G3 S w - 0 0", want, "S*b1");
    free(want);
}

/* tier1_only in hand: dropped on empty squares only (onto any would
 * allow the towers c3, b2, c2 otherwise). */
static void test_drop_tier1_only(void **state)
{
    (void)state;
    char *want = with_drops("c2-c1 c2-d2 c2xb2", "T", "c3 b2 c2", 5, 5, "");
    expect_moves("features", NORULES, "5/5/2S2/1sT2/5 T w - 0 0", want, "T*c3 T*b2 T*c2");
    free(want);
}

/* army_cap 3 > 2 pieces: drops on all 25 squares (a5 and a1 are own
 * towers of one) plus the gold's three steps. */
static void test_army_cap_below(void **state)
{
    (void)state;
    const char *const rules[] = {"army_cap=3", NULL};
    char *want = with_drops("a1-a2 a1-b1 a1-b2", "S", "", 5, 5, "");
    expect_moves("features", rules, "S4/5/5/5/G4 S w - 0 0", want, "");
    free(want);
}

/* Advanced zone for white: b3 is its most advanced own-topped tower (the
 * d4 tower is topped by black), so ranks 1-3, empty squares only. */
static void test_drop_advanced_white(void **state)
{
    (void)state;
    char *want = with_drops("", "S", "b3 a4 b4 c4 d4 e4 a5 b5 c5 d5 e5", 5, 5, "");
    expect_moves("features-drop-adv", NORULES, "5/3[S:s]1/1S3/5/5 S w - 0 0", want,
                 "S*b3 S*a4");
    free(want);
}

/* A drop with facings: one move per facing.  Reached by capturing a black
 * gold (captured: hand), so the hand is not read from text.  White's rook
 * c2xc3 takes the gold; black's king a5-b5; white then may drop the gold
 * on every square (empty, on its rook, on the black king: onto any) in
 * four facings, or move the rook (tier 1, two squares: c4 c5 d3 e3 b3 a3
 * c2 c1). */
static void test_drop_facings(void **state)
{
    (void)state;
    const char *const rules[] = {"captured=hand", NULL};
    tiers_variant *v = load("features-facing", rules);
    tiers_pos *p = tu_pos(v, "k@s4/5/2g@s2/2R@n2/5 - w - 0 0", NULL);
    play(p, "c2xc3 a5-b5");
    char *want = with_drops("c3-a3 c3-b3 c3-c1 c3-c2 c3-c4 c3-c5 c3-d3 c3-e3", "G", "", 5, 5,
                            "nesw");
    char *got = tu_moves(p, NULL);
    assert_string_equal(got, want);
    free(got);
    free(want);
    check_illegal(p, "G*a1");
    /* The dropped gold keeps the facing chosen: east.  ply 3, the drop
     * resets the clock; black passed the turn once (move=1). */
    assert_string_equal(play(p, "G*c1@e"), "1k@s3/5/2R@n2/5/2G@e2 - b - 0 3 move=1");
    /* After black's king b5-a5, the east-facing gold on c1 steps to d2,
     * d1, c2, b1 ((dy,-dx) of the gold offsets; c0 and d0 are off); the
     * rook from c3: c4 c5 d3 e3 b3 a3 c2, and stacks on its gold on c1. */
    play(p, "b5-a5");
    char *g2 = tu_moves(p, NULL);
    assert_string_equal(g2, "c1-b1 c1-c2 c1-d1 c1-d2 c3-a3 c3-b3 c3-c2 c3-c4 c3-c5 "
                            "c3-d3 c3-e3 c3^c1");
    free(g2);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* ------------------------------------------------------------ setup */

/* features-setup: every tile in hand (a king and a rook each), black
 * places first on its ranks 5-4, the king first (setup_first) and
 * without 'ready' until then; white on ranks 1-2.  A rook may be placed
 * on the own king (onto any).  After both are ready white moves first. */
static void test_setup_ready(void **state)
{
    (void)state;
    tiers_variant *v = load("features-setup", NORULES);
    tiers_pos *p = tu_pos(v, NULL, NULL);
    assert_string_equal(tu_fen(p, NULL), "5/5/5/5/5 KRkr b wb 0 0");
    char *m = tu_moves(p, NULL);
    assert_string_equal(m, "K*a4 K*a5 K*b4 K*b5 K*c4 K*c5 K*d4 K*d5 K*e4 K*e5");
    free(m);
    check_illegal(p, "R*a5 ready K*a3");
    tiers_status st = tiers_pos_status(p);
    assert_true(st.setup);
    assert_false(st.game_over);
    /* Black's placement passes the turn: the round count goes to 1. */
    assert_string_equal(play(p, "K*c5"), "2k2/5/5/5/5 KRr w wb 0 1 move=1");
    m = tu_moves(p, NULL);
    assert_string_equal(m, "K*a1 K*a2 K*b1 K*b2 K*c1 K*c2 K*d1 K*d2 K*e1 K*e2");
    free(m);
    check_illegal(p, "K*c3 R*a1 ready");
    assert_string_equal(play(p, "K*c1"), "2k2/5/5/5/2K2 Rr b wb 0 2 move=1");
    m = tu_moves(p, NULL);
    assert_string_equal(m, "R*a4 R*a5 R*b4 R*b5 R*c4 R*c5 R*d4 R*d5 R*e4 R*e5 ready");
    free(m);
    /* 'ready' ends black's setup and resets the clock; white goes on. */
    assert_string_equal(play(p, "ready"), "2k2/5/5/5/2K2 Rr w w 0 3 move=2");
    m = tu_moves(p, NULL);
    assert_string_equal(m, "R*a1 R*a2 R*b1 R*b2 R*c1 R*c2 R*d1 R*d2 R*e1 R*e2 ready");
    free(m);
    /* White's hand is empty, but it must still declare ready. */
    assert_string_equal(play(p, "R*a1"), "2k2/5/5/5/R1K2 r w w 0 4 move=2");
    m = tu_moves(p, NULL);
    assert_string_equal(m, "ready");
    free(m);
    assert_string_equal(play(p, "ready"), "2k2/5/5/5/R1K2 r w - 0 5 move=2");
    /* Play: king c1 to b1 b2 c2 d2 d1; rook a1 two squares up (a2 a3),
     * right b1 then stacks on the king on c1. */
    m = tu_moves(p, NULL);
    assert_string_equal(m, "a1-a2 a1-a3 a1-b1 a1^c1 c1-b1 c1-b2 c1-c2 c1-d1 c1-d2");
    free(m);
    st = tiers_pos_status(p);
    assert_false(st.setup);
    assert_int_equal(st.side_to_move, 0);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* features-marker: no 'ready'; every placement may be marked final ('!'),
 * the last piece in hand only so; black's marker ends its own setup,
 * white's ends both. */
static void test_setup_marker(void **state)
{
    (void)state;
    tiers_variant *v = load("features-marker", NORULES);
    tiers_pos *p = tu_pos(v, NULL, NULL);
    char *m = tu_moves(p, NULL);
    assert_string_equal(m, "K*a4 K*a4! K*a5 K*a5! K*b4 K*b4! K*b5 K*b5! K*c4 K*c4! "
                           "K*c5 K*c5! K*d4 K*d4! K*d5 K*d5! K*e4 K*e4! K*e5 K*e5!");
    free(m);
    check_illegal(p, "ready R*a5!");
    /* Black's final marker ends black's setup only; its rook stays in
     * hand. */
    assert_string_equal(play(p, "K*c5!"), "2k2/5/5/5/5 KRr w w 0 1 move=1");
    /* White places again and again (black is done). */
    assert_string_equal(play(p, "K*c1"), "2k2/5/5/5/2K2 Rr w w 0 2 move=1");
    /* The last piece in hand: only final placements. */
    m = tu_moves(p, NULL);
    assert_string_equal(m, "R*a1! R*a2! R*b1! R*b2! R*c1! R*c2! R*d1! R*d2! R*e1! R*e2!");
    free(m);
    check_illegal(p, "R*a1");
    assert_string_equal(play(p, "R*a1!"), "2k2/5/5/5/R1K2 r w - 0 3 move=1");
    tiers_pos_free(p);

    /* White's marker ends black's setup as well (marker_ends_all: white). */
    p = tu_pos(v, NULL, NULL);
    assert_string_equal(play(p, "K*c5 K*c1!"), "2k2/5/5/5/2K2 Rr w - 0 2 move=1");
    tiers_status st = tiers_pos_status(p);
    assert_false(st.setup);
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* ------------------------------------------------------------ converts */

/* converts: the V on c2 stacking on the black stone on c3 may also turn
 * it white, paying the stone in white's hand (as many tiles of its kind
 * in hand as enemy pieces of that kind in the tower: 1 >= 1).  By hand:
 * V: b2 d2 c1, stack c3, stack-and-convert c3 (written with the converted
 * tiers: =1), capture c3; the stone in hand on all 25 squares (c2 own, c3
 * enemy: onto any): 31 moves.  The converting stack leaves [S:V] (the
 * black stone now white, facing north) and an empty hand; stacking is
 * quiet (clock 1). */
static void test_converts(void **state)
{
    (void)state;
    char *want = with_drops("c2-b2 c2-c1 c2-d2 c2^c3 c2^c3=1 c2xc3", "S", "", 5, 5, "");
    expect_moves("features", NORULES, "5/5/2s2/2V2/5 S w - 0 0", want, "c2^c3=2 c2^c3=1,2");
    free(want);
    tiers_variant *v = load("features", NORULES);
    tiers_pos *p = tu_pos(v, "5/5/2s2/2V2/5 S w - 0 0", NULL);
    char before[4096];
    snprintf(before, sizeof before, "%s", tu_fen(p, NULL));
    assert_string_equal(play(p, "c2^c3=1"), "5/5/2[S:V]2/5/5 - b - 1 1");
    assert_int_equal(tiers_unmake(p), 0);
    assert_string_equal(tu_fen(p, NULL), before);
    assert_string_equal(play(p, "c2^c3"), "5/5/2[s:V]2/5/5 S b - 1 1");
    tiers_pos_free(p);
    /* Without a stone in hand there is nothing to pay: no convert. */
    expect_moves("features", NORULES, "5/5/2s2/2V2/5 - w - 0 0",
                 "c2-b2 c2-c1 c2-d2 c2^c3 c2xc3", "c2^c3=1");
    /* A converting drop: the V in hand dropped on the stone, paying the
     * stone in hand; plus every plain drop of V and of S (25 each). */
    char *vd = with_drops("V*c3=1", "V", "", 5, 5, "");
    char *all = with_drops(vd, "S", "", 5, 5, "");
    expect_moves("features", NORULES, "5/5/2s2/5/5 SV w - 0 0", all, "S*c3=1");
    free(vd);
    free(all);
    p = tu_pos(v, "5/5/2s2/5/5 SV w - 0 0", NULL);
    assert_string_equal(play(p, "V*c3=1"), "5/5/2[S:V]2/5/5 - b - 0 1");
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* ------------------------------------------------------------ leaping */

/* A leaping line goes on past towers; with height_block it stops at the
 * first tower taller than the mover's tier.  features-leaping (the test
 * YAML below) turns the lance into a leaping line forward and a two-square
 * diagonal line that needs c2... see the file. */
static void test_leaping_lines(void **state)
{
    (void)state;
    /* Lance on c1: forward leaping line: c2 (enemy: stack, capture), c3
     * (enemy tower of 2: stack, capture), c4 empty, c5 (enemy: stack,
     * capture).  Diagonal line first [1,1] dir [1,1] len 2 with via c2:
     * c2 is occupied, so the whole line gives nothing. */
    expect_moves("features-leaping", NORULES, "2s2/5/2[s:s]2/2s2/2N2 - w - 0 0",
                 "c1-c4 c1^c2 c1^c3 c1^c5 c1xc2 c1xc3 c1xc5", "c1-d2 c1-e3");
    /* height_block: c2 (height 1) is fine, c3 (height 2 > tier 1) ends
     * the line. */
    const char *const hb[] = {"height_block=true", NULL};
    expect_moves("features-leaping", hb, "2s2/5/2[s:s]2/2s2/2N2 - w - 0 0",
                 "c1^c2 c1xc2", "c1-c4 c1xc3");
    /* Empty board: c2..c5 and the diagonal d2, e3. */
    expect_moves("features-leaping", NORULES, "5/5/5/5/2N2 - w - 0 0",
                 "c1-c2 c1-c3 c1-c4 c1-c5 c1-d2 c1-e3", "");
}

/* ------------------------------------------------------------ shortcuts
 * The legal list skips the make-and-test for moves that provably cannot
 * change whether the mover's royal piece is attacked (movegen.c, attack.c).
 * Along random games it must equal the list made the slow way: every
 * pseudo-legal move made, the mover's check tested, unmade (strict); in a
 * pseudo-legal variant, all moves while one escapes, else none. */

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* The legal moves the slow way into out; returns their count. */
static int slow_legal(tiers_pos *p, int pseudo, tiers_move *out)
{
    static tiers_move buf[TIERS_MAX_MOVES];
    int n = tiers_pos_pseudo_moves(p, buf, TIERS_MAX_MOVES), k = 0, mover = tiers_pos_side_to_move(p);
    assert_true(n >= 0);
    for (int i = 0; i < n; i++) {
        assert_int_equal(tiers_pos_make_unchecked(p, &buf[i], NULL), 0);
        int safe = !tiers_pos_in_check(p, mover);
        tiers_pos_unmake(p);
        if (safe && pseudo) {
            memcpy(out, buf, (size_t)n * sizeof *buf);
            return n;
        }
        if (safe || pseudo)
            out[k++] = buf[i];
    }
    return pseudo && !tiers_pos_in_setup(p) ? 0 : k;
}

static void shortcut_games(const char *name, const char *rule, int pseudo, int games,
                           int *positions)
{
    static tiers_move fast[TIERS_MAX_MOVES], slow[TIERS_MAX_MOVES];
    const char *const rules[] = {rule, NULL};
    tiers_error err;
    tiers_variant *v = rule ? tiers_variant_load(name, NULL, rules, &err) : tu_variant(name);
    assert_non_null(v);
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    for (int g = 0; g < games; g++) {
        tiers_pos *p = tu_pos(v, NULL, NULL);
        for (int ply = 0; ply < 300; ply++) {
            tiers_status st = tiers_pos_status(p);
            int checkmate = !strcmp(st.reason, "checkmate") || !strcmp(st.reason, "stalemate");
            if (st.game_over && !checkmate)
                break;
            int n = tiers_pos_legal_moves(p, fast, TIERS_MAX_MOVES);
            int m = slow_legal(p, pseudo, slow);
            if (n != m || memcmp(fast, slow, (size_t)n * sizeof *fast)) {
                char text[1024];
                tiers_pos_format(p, NULL, text, sizeof text);
                fail_msg("%s game %d ply %d: %d legal moves, %d the slow way at %s", name, g,
                         ply, n, m, text);
            }
            ++*positions;
            if (!n)
                break;
            assert_int_equal(tiers_pos_make(p, &fast[xorshift(&rng) % (uint64_t)n]), 0);
        }
        tiers_pos_free(p);
    }
    tiers_variant_free(v);
}

static void test_shortcuts_agree(void **state)
{
    (void)state;
    int positions = 0;
    shortcut_games("gungi-io", NULL, 0, 12, &positions);
    shortcut_games("official", NULL, 1, 12, &positions);
    shortcut_games("official", "check_rule=legal", 0, 12, &positions);
    shortcut_games("official", "capture_takes=top", 1, 12, &positions);
    shortcut_games("features-check", NULL, 0, 12, &positions);
    shortcut_games("features-leaping", NULL, 0, 12, &positions);
    shortcut_games("features-royal", NULL, 0, 12, &positions);
    shortcut_games("features-pseudo", NULL, 1, 12, &positions);
    shortcut_games("features-stack", NULL, 0, 12, &positions);
    printf("shortcuts: %d positions agree\n", positions);
    assert_true(positions > 5000);
}

int main(void)
{
    struct CMUnitTest tests[NCASES + 16];
    int n = 0;
    for (int i = 0; i < NCASES; i++)
        tests[n++] = (struct CMUnitTest){cases[i].name, run_case, NULL, NULL,
                                         (void *)&cases[i]};
    const struct CMUnitTest more[] = {
        cmocka_unit_test(test_drop_all_any),
        cmocka_unit_test(test_drop_one_per_file),
        cmocka_unit_test(test_army_cap_below),
        cmocka_unit_test(test_drop_tier1_only),
        cmocka_unit_test(test_drop_shared),
        cmocka_unit_test(test_drop_script),
        cmocka_unit_test(test_drop_advanced_white),
        cmocka_unit_test(test_drop_facings),
        cmocka_unit_test(test_setup_ready),
        cmocka_unit_test(test_setup_marker),
        cmocka_unit_test(test_leaping_lines),
        cmocka_unit_test(test_converts),
        cmocka_unit_test(test_shortcuts_agree),
    };
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        tests[n++] = more[i];
    return _cmocka_run_group_tests("movegen", tests, (size_t)n, NULL, NULL);
}
