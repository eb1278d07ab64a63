/* gamerec.h - writing game records (format in docs/notation.md, "Game
 * records"): `[Tag "value"]` lines, a blank line, the moves with their
 * numbers wrapped at 72 columns, and the result.  `tiers play` (save),
 * `tiers playout --records` and `tiers export` all write through here, so
 * `tiers replay` reads what any of them wrote. */
#ifndef GAMEREC_H
#define GAMEREC_H

#include <stdio.h>

#include "tiers.h"

/* Writes `[Name "value"]` with '"' and '\' escaped. */
void gamerec_tag(FILE *f, const char *name, const char *value);

/* The name of the tag that holds side's player: the side's name with its
 * first letter in upper case and anything but letters and digits as '_'
 * ("White"; "Side_0" for a side with no name). */
void gamerec_side_tag(const tiers_variant *v, int side, char buf[16]);

/* Seeds p's random numbers (the scripts' math.random) as the game the
 * record's Seed and Game tags name was seeded, so hooks that draw numbers
 * answer as they did in that game.  Returns 1 when seeded, 0 when the
 * record has neither tag (p keeps its default seed), -1 when a tag is
 * there but is no number (*bad is then its name). */
int gamerec_seed_pos(tiers_pos *p, const tiers_record *r, const char **bad);

/* The Options tag: the --rule values (KEY=VALUE) joined by ' ', "" when
 * there are none.  A malloc'd string, NULL when out of memory. */
char *gamerec_options_join(const char *const *rules);
/* Splits an Options value, copied into buf, back into its rules in place:
 * a word that does not start like KEY= belongs to the value before it
 * (so a value may hold spaces).  rules (max + 1 entries) is
 * NULL-terminated; returns the count, or -1 when there are more than max.
 * A first word that is no KEY=VALUE is returned as it is: the caller
 * checks. */
int gamerec_options_split(char *buf, const char **rules, int max);

/* The rules to load a record's variant with: the words of its Options
 * tag, then the command line's --rule values.  A tag word whose key the
 * command line also sets is left out: the command line wins. */
struct gamerec_rules {
    char *buf;               /* the tag value, split (malloc'd) */
    const char **rule;       /* NULL-terminated (malloc'd) */
    int *tag_offset;         /* rule i's offset in the tag value, -1 for
                                one from the command line */
    int n;
};
/* Fills r from the tag value `options` (NULL = no tag) and cli_rules
 * (NULL-terminated).  0, or -1 when out of memory (r then needs no
 * gamerec_rules_free). */
int gamerec_rules_merge(struct gamerec_rules *r, const char *options,
                        const char *const *cli_rules);
void gamerec_rules_free(struct gamerec_rules *r);

/* The move text, written one ply at a time after the tags. */
struct gamerec_moves {
    FILE *f;
    int first;          /* the side that moves first in play */
    int col;            /* column of the current line */
    int plies;
    int last_side, last_number;
};

/* Ends the tags with a blank line and starts the moves of a game of v. */
void gamerec_begin(struct gamerec_moves *w, FILE *f, const tiers_variant *v);
/* One ply: `number` and `side` as tiers_pos_move_number and
 * tiers_pos_side_to_move said before it was made, `text` the move in the
 * record's notation.  A move number is written before the first side's
 * moves and before a second side's move that does not follow its round's
 * first move ("12..."). */
/* Whether a move text reads back from a record as the one move it is:
 * not empty, no white space or brace, not a result (1-0, 0-1, 1/2-1/2,
 * *), not starting like a tag ('[') or a move number ("12."). */
int gamerec_move_readable(const char *text);
void gamerec_move(struct gamerec_moves *w, int number, int side, const char *text);
/* The result token ("1-0", "0-1", "1/2-1/2", "*") and the final newline.
 * Returns 0, or -1 when the stream had a write error. */
int gamerec_end(struct gamerec_moves *w, const char *result);

#endif
