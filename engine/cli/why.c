/* why.c - why a move the user typed is not legal (`play`, `apply`): a
 * move the rules would generate but the royal-safety filter or a
 * variant's veto refuses, or else what the squares it names say (empty,
 * not yours, a full tower, outside the drop zone, out of the piece's
 * reach).  Only the public tiers.h; a guess from the text when the
 * notation does not name squares as tiers does. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The squares text names, in order (at most 2). */
static int why_squares(const tiers_variant *v, const char *text, int sq[2])
{
    int n = 0;
    for (const char *c = text; *c && n < 2; c++) {
        if (!islower((unsigned char)*c) || !isdigit((unsigned char)c[1]) ||
            (c > text && islower((unsigned char)c[-1])))
            continue;
        char name[8];
        size_t len = 1 + strspn(c + 1, "0123456789");
        if (len >= sizeof name)
            continue;
        memcpy(name, c, len);
        name[len] = '\0';
        int s = cli_parse_square(v, name);
        if (s >= 0)
            sq[n++] = s;
        c += len - 1;
    }
    return n;
}

/* A pseudo-legal move the legal list leaves out. */
static void why_filtered(tiers_pos *p, const tiers_move *m, char *buf, size_t size)
{
    const tiers_variant *v = tiers_pos_variant(p);
    int side = tiers_pos_side_to_move(p);
    tiers_stats stats;
    memset(&stats, 0, sizeof stats);
    tiers_move *legal = malloc(sizeof *legal * TIERS_MAX_MOVES);
    if (legal)
        tiers_pos_legal_moves_stats(p, legal, TIERS_MAX_MOVES, &stats);
    free(legal);
    if (tiers_pos_make_unchecked(p, m, NULL) >= 0) {
        int check = tiers_pos_in_check(p, side);
        tiers_pos_unmake(p);
        if (check > 0) {
            snprintf(buf, size, "it would leave your royal piece attacked");
            return;
        }
    }
    size_t used = (size_t)snprintf(buf, size, "a rule of %s refuses it", tiers_variant_name(v));
    for (int i = 0, k = 0; i < tiers_variant_effects(v) && i < 32 && used < size; i++)
        if (stats.vetoed & (1u << i))
            used += (size_t)snprintf(buf + used, size - used, "%s%s", k++ ? ", " : " (",
                                     tiers_variant_effect_name(v, i));
    if (stats.vetoed && used < size)
        snprintf(buf + used, size - used, ")");
}

/* The targets of the legal moves from square `from`, "b2, c3", into buf;
 * how many. */
static int why_targets(const tiers_move *legal, int n, int from, char *buf, size_t size)
{
    unsigned char seen[TIERS_MAX_SQUARES] = {0};
    size_t used = 0;
    int k = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size; i++) {
        const tiers_move *m = &legal[i];
        if (m->from != from || m->kind == TIERS_MV_DROP || m->to >= TIERS_MAX_SQUARES ||
            seen[m->to]++)
            continue;
        char name[8];
        tiers_square_name(m->to % 16, m->to / 16, name);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", k++ ? ", " : "", name);
    }
    return k;
}

/* What the named squares say about a move that is not even pseudo-legal. */
static void why_squares_say(tiers_pos *p, const tiers_move *legal, int n, const int *sq,
                            int nsq, char *buf, size_t size)
{
    const tiers_variant *v = tiers_pos_variant(p);
    int side = tiers_pos_side_to_move(p);
    char name[8], targets[400];
    int to = sq[nsq - 1], drops = 0, drops_to = 0;
    int h = tiers_pos_height(p, to % 16, to / 16);
    for (int i = 0; i < n; i++)
        if (legal[i].kind == TIERS_MV_DROP) {
            drops++;
            drops_to += legal[i].to == to;
        }
    tiers_square_name(to % 16, to / 16, name);
    if (nsq == 2) {
        int from = sq[0], hf = tiers_pos_height(p, from % 16, from / 16);
        tiers_piece_info info;
        tiers_square_name(from % 16, from / 16, name);
        if (hf <= 0) {
            snprintf(buf, size, "%s is empty", name);
            return;
        }
        if (tiers_pos_piece_info(p, from % 16, from / 16, hf, &info) >= 0 && info.owner != side) {
            snprintf(buf, size, "the top piece on %s is not yours", name);
            return;
        }
        if (why_targets(legal, n, from, targets, sizeof targets))
            snprintf(buf, size, "the %s on %s cannot go there; it can go to %s", info.face,
                     name, targets);
        else
            snprintf(buf, size, "the %s on %s has no legal move here", info.face, name);
        return;
    }
    if (h >= tiers_variant_max_tiers(v))
        snprintf(buf, size, "the tower on %s is full (%d tiers)", name, h);
    else if (!drops)
        snprintf(buf, size, "no drop is legal here%s",
                 tiers_pos_in_check(p, side) > 0 ? " (you are in check)" : "");
    else if (!drops_to)
        snprintf(buf, size, "no piece may be dropped on %s now (outside the zone, or onto "
                 "a tower the rules forbid)", name);
    else
        snprintf(buf, size, "that piece cannot be dropped on %s (not in your hand, or "
                 "refused there)", name);
}

const char *cli_why_illegal(tiers_pos *p, const char *text, const char *notation, char *buf,
                            size_t size)
{
    buf[0] = '\0';
    tiers_move *list = malloc(sizeof *list * TIERS_MAX_MOVES);
    if (!list)
        return buf;
    tiers_error err;
    tiers_move m;
    memset(&err, 0, sizeof err);
    int n = tiers_pos_pseudo_moves(p, list, TIERS_MAX_MOVES);
    if (n > 0 && tiers_move_find(p, text, notation, list, n, &m, &err) == 0) {
        why_filtered(p, &m, buf, size);
    } else {
        int sq[2], nsq = why_squares(tiers_pos_variant(p), text, sq);
        n = tiers_pos_legal_moves(p, list, TIERS_MAX_MOVES);
        if (n >= 0 && nsq > 0)
            why_squares_say(p, list, n, sq, nsq, buf, size);
    }
    free(list);
    return buf;
}
