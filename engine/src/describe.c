/* describe.c - read-only description of a loaded variant for designers
 * and front ends (tiers.h, "describing a variant"): its faces with their
 * movement lines per tier, and its engine rules and options with their
 * values, allowed values and one-line meanings. */
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "rules.h"

int tiers_variant_face_count(const tiers_variant *v)
{
    return v ? v->nfaces : 0;
}

static const face_def *describe_face(const tiers_variant *v, int face)
{
    return v && face >= 0 && face < v->nfaces ? &v->faces[face] : NULL;
}

const char *tiers_variant_face_name(const tiers_variant *v, int face)
{
    const face_def *f = describe_face(v, face);
    return f ? f->name : NULL;
}

const char *tiers_variant_face_symbol(const tiers_variant *v, int face)
{
    const face_def *f = describe_face(v, face);
    return f ? f->sym : NULL;
}

int tiers_variant_face_find(const tiers_variant *v, const char *name)
{
    return v && name ? face_find(v, name) : -1;
}

int tiers_variant_face_copies(const tiers_variant *v, int face)
{
    const face_def *f = describe_face(v, face);
    return f && (f->flags & FF_COPY_BELOW) ? 1 : 0;
}

int tiers_variant_face_lines(const tiers_variant *v, int face, int tier, tiers_line *out,
                             int cap)
{
    const face_def *f = describe_face(v, face);
    if (!f || tier < 1 || tier > TIERS_MAX_TIERS || cap < 0 || (cap && !out))
        return TIERS_EUSAGE;
    if (!f->ntiers)
        return 0;
    int t = (tier > f->ntiers ? f->ntiers : tier) - 1;
    for (int i = 0; i < f->count[t] && i < cap; i++) {
        const line_def *l = &v->lines[f->first[t] + i];
        out[i] = (tiers_line){
            .fx = l->fx, .fy = l->fy, .dx = l->dx, .dy = l->dy, .len = l->len,
            .leaping = (l->flags & LN_LEAPING) != 0,
            .capture = (l->flags & LN_NO_CAPTURE) ? 1 : (l->flags & LN_ONLY_CAPTURE) ? 2 : 0,
            .nvia = l->nvia};
    }
    return f->count[t];
}

/* The one-line meaning of each engine rule (docs/variant-format.md has
 * the long form). */
static const struct {
    const char *key, *doc;
} describe_rule_docs[] = {
    {"unit", "what moves: the top piece or the whole stack"},
    {"bounce", "(unit: stack) a line reflects off the side edges"},
    {"deploy", "(unit: stack) a stack may split over several squares"},
    {"null_bounce", "(unit: stack) a bounce may end on its start square"},
    {"stack_own", "a piece may move onto a tower topped by its own side"},
    {"stack_enemy", "a piece may move onto a tower topped by the enemy"},
    {"capture", "what a capture removes"},
    {"capture_and_stack", "on an enemy tower both a stack and a capture are moves"},
    {"captured", "where captured pieces go (hand: the capturer's)"},
    {"capture_flips", "a captured tile enters the hand flipped"},
    {"height_block", "nothing lands on or passes a tower taller than the mover's tier"},
    {"via", "the test the squares a leap passes (via squares) must pass"},
    {"same_face", "no two pieces of one face and side in a tower"},
    {"immobile_strikes", "pieces capture an enemy directly above or below in their tower"},
    {"over_enemy_face", "table used by a piece standing on an enemy piece"},
    {"army_cap", "most own pieces on the board (0 = no limit)"},
    {"legality", "pseudo: moves may leave the own royal piece attacked"},
    {"stalemate", "result for the side to move with no move, not in check"},
    {"royal_capture", "capturing a royal piece ends the game at once"},
    {"exit", "a move past the far rank wins"},
    {"capture_all", "capturing every enemy piece wins"},
    {"repetition", "N-fold repetition ends the game (0 = off)"},
    {"repetition_key", "what must repeat: the whole position, the board, or no script state"},
    {"repetition_from", "repetitions count from the start of play or of the game"},
    {"repetition_result", "a repetition is a draw, or the game is to be replayed"},
    {"halfmove_limit", "draw after more than N plies without capture, drop or ready (0 = off)"},
    {"max_plies", "draw at this ply (0 = off)"},
    {"bare_royals", "draw when only the two royal pieces remain, hands empty"},
    {"turn_after_move", "a moved piece turns 90 degrees clockwise"},
    {"rotate", "turning a top piece in place is a move"},
    {"region_bonus", "tiers added to a piece inside an own region"},
    {"region_mode", "inside a region: the higher table only, or both tables"},
    {"region_clip", "regions are clipped as their clip: says"},
    {"region_shield", "enemy jumpers may not pass own pieces inside own regions"},
    {"shield_all_via", "every via square shields, or only the first"},
};

static const char *describe_rule_doc(const char *key)
{
    for (size_t i = 0; i < sizeof describe_rule_docs / sizeof describe_rule_docs[0]; i++)
        if (!strcmp(describe_rule_docs[i].key, key))
            return describe_rule_docs[i].doc;
    return "";
}

static int describe_rules(void)
{
    int n = 0;
    while (rules_at(n))
        n++;
    return n;
}

int tiers_variant_rule_count(const tiers_variant *v)
{
    return v ? describe_rules() + v->noptions : 0;
}

/* "a|b|c" into buf. */
static void describe_join(char *buf, size_t size, const char *const *names, int n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? "|" : "", names[i]);
}

static void describe_rule(const tiers_variant *v, const rule_def *r, tiers_rule_info *out)
{
    const char *p = (const char *)v + r->off;
    long val = r->wide ? *(const uint16_t *)(const void *)p : *(const uint8_t *)p;
    const char *names[16];
    int n = 0;
    snprintf(out->key, sizeof out->key, "%s", r->key);
    snprintf(out->doc, sizeof out->doc, "%s", describe_rule_doc(r->key));
    switch (r->type) {
    case R_BOOL:
        out->type = "bool";
        snprintf(out->value, sizeof out->value, "%s", val ? "true" : "false");
        snprintf(out->allowed, sizeof out->allowed, "true|false");
        break;
    case R_ENUM:
        out->type = "enum";
        for (const rule_sym *s = r->syms; s->name && n < 16; s++) {
            names[n++] = s->name;
            if (s->val == val)
                snprintf(out->value, sizeof out->value, "%s", s->name);
        }
        describe_join(out->allowed, sizeof out->allowed, names, n);
        break;
    case R_INT:
        out->type = "int";
        snprintf(out->value, sizeof out->value, "%ld", val);
        snprintf(out->allowed, sizeof out->allowed, "0..%ld", r->max);
        break;
    default:
        out->type = "face";
        snprintf(out->value, sizeof out->value, "%s",
                 val < v->nfaces ? v->faces[val].name : "none");
        snprintf(out->allowed, sizeof out->allowed, "a face name or none");
        break;
    }
    memcpy(out->def, out->value, sizeof out->def);
}

static void describe_option(const option_def *o, tiers_rule_info *out)
{
    const char *names[MAX_OPTION_VALUES];
    snprintf(out->key, sizeof out->key, "%s", o->key);
    out->option = 1;
    snprintf(out->sets, sizeof out->sets, "%s", o->sets);
    snprintf(out->doc, sizeof out->doc, "%s", o->doc);
    if (!o->nvalues) {
        out->type = "int";
        snprintf(out->value, sizeof out->value, "%ld", (long)o->value);
        snprintf(out->def, sizeof out->def, "%ld", (long)o->def);
        snprintf(out->allowed, sizeof out->allowed, "an integer");
        return;
    }
    out->type = "choice";
    for (int i = 0; i < o->nvalues; i++)
        names[i] = o->values[i];
    describe_join(out->allowed, sizeof out->allowed, names, o->nvalues);
    snprintf(out->value, sizeof out->value, "%s", o->values[o->value]);
    snprintf(out->def, sizeof out->def, "%s", o->values[o->def]);
}

int tiers_variant_rule_info(const tiers_variant *v, int i, tiers_rule_info *out)
{
    int nrules = describe_rules();
    if (!v || !out || i < 0 || i >= nrules + v->noptions)
        return TIERS_EUSAGE;
    memset(out, 0, sizeof *out);
    if (i < nrules)
        describe_rule(v, rules_at(i), out);
    else
        describe_option(&v->options[i - nrules], out);
    return TIERS_OK;
}
