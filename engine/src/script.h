/* script.h - the variant's Lua effects.  Only script.c includes lua.h.
 *
 * One sandboxed Lua 5.4 state per variant.  The core tests v->hooks before
 * calling any of these, so a variant without scripts pays one bit test. */
#ifndef TIERS_SCRIPT_H
#define TIERS_SCRIPT_H

#include "core.h"

/* Creates the state, runs the files (paths relative to v->dir) and records
 * which hooks they define in v->hooks and the effect names in
 * v->effect_name.  Errors name the file and Lua line. */
int script_load(tiers_variant *v, const char *const *files, int nfiles,
                tiers_error *err);
void script_free(tiers_script *s);

/* Hooks.  Each returns a negative TIERS_ESCRIPT on a script error (the
 * message is kept; see script_last_error).  script_apply returns 1 if the
 * move resets the quiet-ply clock (a capture or drop), else 0;
 * script_after returns 1 if some effect fired and reset the clock... see
 * script.c. */
int script_moves(tiers_pos *p, tiers_move *buf, int n, int cap); /* -> new n */
int script_veto(tiers_pos *p, const tiers_move *m);   /* 1 = reject */
int script_after(tiers_pos *p, const tiers_move *m);  /* edits the position */
int script_tier(tiers_pos *p, int sq, int idx, int tier); /* -> tier */
int script_drop_ok(tiers_pos *p, piece_t pc, int sq);   /* 1 = allowed */
int script_result(tiers_pos *p, tiers_status *st);      /* 1 = decided */
/* The check hooks: 1 when side is in check, 0 when not, TIERS_ESCRIPT on a
 * script error (p->script_failed is then set for the next generation). */
int script_in_check(tiers_pos *p, int side);
/* Keeps up to 1 << bits check hook answers (bits > 8) instead of 256, for
 * work that asks about many positions more than once (the solver); bits
 * <= 8 goes back to 256 and frees the rest.  Nothing for a variant without
 * check hooks.  0 or TIERS_ENOMEM. */
int script_remember(tiers_script *s, int bits);
/* Is a hook running (a generation asked from inside a script)? */
int script_nested(const tiers_pos *p);
/* The effects with a drop_ok hook (all must admit a drop onto a tower). */
uint32_t script_drop_effects(const tiers_pos *p);
/* The effects whose check hook finds the side to move in check. */
uint32_t script_check_effects(tiers_pos *p);
/* The variant's evaluate hooks: side's score minus the opponent's, within
 * +-EVAL_LIMIT. */
enum { EVAL_LIMIT = 100000 };
int script_evaluate(tiers_pos *p, int side);
int script_apply(tiers_pos *p, const tiers_move *m);    /* EFFECT moves */
/* The expand hooks: each move of buf[0..n) an effect's filter lets
 * through is made, shown to the hook and unmade, then replaced by the
 * variants the hook returns.  buf[drops_lo..drops_hi) holds only drops
 * (skipped at once when no expand hook concerns drops; 0, 0 if unknown).
 * Returns the new count (<= cap) or an error. */
int script_expand(tiers_pos *p, tiers_move *buf, int n, int cap, int drops_lo, int drops_hi);
/* Notation of an EFFECT move, or of a suffix the script adds. */
int script_format(const tiers_pos *p, const tiers_move *m, char *buf, size_t n);

const char *script_last_error(const tiers_script *s);

#endif
