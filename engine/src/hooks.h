/* hooks.h - the only script interface the engine core sees.
 *
 * A variant's scripts answer a closed list of questions (docs/lua-api.md):
 * the hooks.  The script module (engine/src/lua/) fills one table of
 * function pointers when it loads a variant's files and stores it in
 * v->hook_fns; the core calls the hooks only through the inline wrappers
 * below, which test the variant's HOOK_* bits first, so a variant without
 * scripts pays one bit test per question and never enters the script
 * module.  No core file includes a Lua header or a header of the script
 * module: this table is the whole contract (as TIC-80's tic_script is for
 * its language back ends).
 *
 * Every hook returns a negative TIERS_ESCRIPT on a script error; the
 * message is kept (hooks_last_error). */
#ifndef TIERS_HOOKS_H
#define TIERS_HOOKS_H

#include <stddef.h>

#include "core.h"

/* Where the generator put the moves of a list, for the expand pre-pass:
 * buf[0..board_hi) are the pieces' moves (board_hi 0: unknown), and of
 * those only the runs buf[runs[i].lo .. runs[i].hi) need a look -- the
 * moves of the pieces whose face has EXPAND_ACTOR (v->expand_role), those
 * of a face with EXPAND_STUCK that land where it may be stuck, the
 * rotations and the strikes; between them lie plain moves, stacks and
 * captures, and the captures need one only if takes_noted (a tower of
 * the opponent shows a face with EXPAND_TAKEN).  The drops are
 * buf[drops_lo..drops_hi); the moves hooks' moves come last. */
typedef struct move_run {
    uint16_t lo, hi;
} move_run;

/* The runs a layout holds; past them the last run grows to cover each
 * later one (looking at more moves is always safe). */
enum { GEN_MAX_RUNS = 256 };

typedef struct gen_layout {
    int drops_lo, drops_hi, board_hi, nruns, takes_noted;
    const move_run *runs;
} gen_layout;

typedef struct hooks_table {
    /* moves: appends the scripts' extra moves to buf[n..cap) -> new n */
    int (*moves)(tiers_pos *p, tiers_move *buf, int n, int cap);
    /* veto: 1 = reject the move just made (m is on top of the undo stack) */
    int (*veto)(tiers_pos *p, const tiers_move *m);
    /* after: edits the position after m; 1 if some effect fired */
    int (*after)(tiers_pos *p, const tiers_move *m);
    /* tier: the movement tier of the piece at sq, index idx -> tier */
    int (*tier)(tiers_pos *p, int sq, int idx, int tier);
    /* drop_ok: 1 = the drop of pc onto the tower at sq is allowed */
    int (*drop_ok)(tiers_pos *p, piece_t pc, int sq);
    /* result: 1 = the scripts decided the game (fills *st) */
    int (*result)(tiers_pos *p, tiers_status *st);
    /* apply: performs an EFFECT move; 1 if it resets the quiet-ply clock */
    int (*apply)(tiers_pos *p, const tiers_move *m);
    /* expand: replaces the moves of buf[0..n) by their variants (gl: where
       the generator put them) -> new n */
    int (*expand)(tiers_pos *p, tiers_move *buf, int n, int cap, const gen_layout *gl);
    /* check: 1 when side is in check (an error is kept in p->script_failed) */
    int (*check)(tiers_pos *p, int side);
    /* evaluate: side's score minus the opponent's, within +-EVAL_LIMIT */
    int (*evaluate)(tiers_pos *p, int side);
    /* format: the text of an EFFECT move, or a suffix of another move */
    int (*format)(const tiers_pos *p, const tiers_move *m, char *buf, size_t n);

    /* services of the script module */
    int (*nested)(const tiers_pos *p);         /* is a hook running? */
    uint32_t (*drop_effects)(const tiers_pos *p); /* effects with drop_ok */
    uint32_t (*check_effects)(tiers_pos *p);   /* effects finding a check */
    int (*remember)(tiers_script *s, int bits); /* size of the check memo */
    const char *(*last_error)(const tiers_script *s);
    /* keeps msg as the scripts' error, for one the core finds in what a
       hook returned (two moves given one text) */
    void (*set_error)(tiers_script *s, const char *msg);
    void (*free)(tiers_script *s);
} hooks_table;

enum { EVAL_LIMIT = 100000 };

/* The longest text a format hook may give a move (its suffixes together,
 * for a suffix): longer is a script error naming the hook. */
enum { FORMAT_TEXT_MAX = 127 };

/* The script module's loader (lua/state.c): creates the Lua state, runs
 * the files (paths relative to v->dir), records the hooks they define in
 * v->hooks and the effect names in v->effect_name, and sets v->script and
 * v->hook_fns.  Errors name the file and Lua line. */
int hooks_load_lua(tiers_variant *v, const char *const *files, int nfiles, tiers_error *err);

static inline int hooks_moves(tiers_pos *p, tiers_move *buf, int n, int cap)
{
    return p->v->hooks & HOOK_MOVES ? p->v->hook_fns->moves(p, buf, n, cap) : n;
}

static inline int hooks_veto(tiers_pos *p, const tiers_move *m)
{
    return p->v->hooks & HOOK_VETO ? p->v->hook_fns->veto(p, m) : 0;
}

static inline int hooks_after(tiers_pos *p, const tiers_move *m)
{
    return p->v->hooks & HOOK_AFTER ? p->v->hook_fns->after(p, m) : 0;
}

static inline int hooks_tier(tiers_pos *p, int sq, int idx, int tier)
{
    return p->v->hooks & HOOK_TIER ? p->v->hook_fns->tier(p, sq, idx, tier) : tier;
}

/* Called only where the variant's drop rule is "ask the scripts". */
static inline int hooks_drop_ok(tiers_pos *p, piece_t pc, int sq)
{
    return p->v->hooks & HOOK_DROP ? p->v->hook_fns->drop_ok(p, pc, sq) : 1;
}

static inline int hooks_result(tiers_pos *p, tiers_status *st)
{
    return p->v->hooks & HOOK_RESULT ? p->v->hook_fns->result(p, st) : 0;
}

/* An EFFECT move without an apply hook is a script error. */
static inline int hooks_apply(tiers_pos *p, const tiers_move *m)
{
    return p->v->hook_fns ? p->v->hook_fns->apply(p, m) : TIERS_ESCRIPT;
}

static inline int hooks_expand(tiers_pos *p, tiers_move *buf, int n, int cap,
                               const gen_layout *gl)
{
    return p->v->hooks & HOOK_EXPAND ? p->v->hook_fns->expand(p, buf, n, cap, gl) : n;
}

static inline int hooks_check(tiers_pos *p, int side)
{
    return p->v->hooks & HOOK_CHECK ? p->v->hook_fns->check(p, side) : 0;
}

static inline int hooks_evaluate(tiers_pos *p, int side)
{
    return p->v->hooks & HOOK_EVALUATE ? p->v->hook_fns->evaluate(p, side) : 0;
}

/* The text of an EFFECT move (TIERS_EUSAGE without scripts), or the
 * suffixes the scripts add to another move (0 without scripts). */
static inline int hooks_format(const tiers_pos *p, const tiers_move *m, char *buf, size_t n)
{
    if (p->v->hook_fns)
        return p->v->hook_fns->format(p, m, buf, n);
    if (n)
        buf[0] = 0;
    return m->kind == TIERS_MV_EFFECT ? TIERS_EUSAGE : 0;
}

static inline int hooks_nested(const tiers_pos *p)
{
    return p->v->hook_fns && p->v->hook_fns->nested(p);
}

static inline uint32_t hooks_drop_effects(const tiers_pos *p)
{
    return p->v->hook_fns ? p->v->hook_fns->drop_effects(p) : 0;
}

static inline uint32_t hooks_check_effects(tiers_pos *p)
{
    return p->v->hooks & HOOK_CHECK ? p->v->hook_fns->check_effects(p) : 0;
}

/* Keeps up to 1 << bits check answers (bits > 8) instead of 256; bits <= 8
 * goes back to 256.  0 or TIERS_ENOMEM. */
static inline int hooks_remember(const tiers_variant *v, int bits)
{
    return v->hook_fns ? v->hook_fns->remember(v->script, bits) : 0;
}

static inline const char *hooks_last_error(const tiers_variant *v)
{
    return v->hook_fns ? v->hook_fns->last_error(v->script) : "";
}

static inline void hooks_set_error(const tiers_variant *v, const char *msg)
{
    if (v->hook_fns)
        v->hook_fns->set_error(v->script, msg);
}

static inline void hooks_free(tiers_variant *v)
{
    if (v->hook_fns)
        v->hook_fns->free(v->script);
    v->script = NULL;
    v->hook_fns = NULL;
}

#endif
