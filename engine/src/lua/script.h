/* lua/script.h - the Lua script module's own interface: the hooks of
 * hooks.h under their module names, for the module's files and its unit
 * tests.  The engine core never includes this header: it calls the hooks
 * through v->hook_fns (hooks.h). */
#ifndef TIERS_LUA_SCRIPT_H
#define TIERS_LUA_SCRIPT_H

#include "hooks.h"

/* Creates the state, runs the files (paths relative to v->dir), records
 * which hooks they define in v->hooks and the effect names in
 * v->effect_name, and sets v->script and v->hook_fns.  Errors name the
 * file and Lua line. */
int script_load(tiers_variant *v, const char *const *files, int nfiles, tiers_error *err);
void script_free(tiers_script *s);

/* The hooks (hooks.h says what each answers). */
int script_moves(tiers_pos *p, tiers_move *buf, int n, int cap);
int script_veto(tiers_pos *p, const tiers_move *m);
int script_after(tiers_pos *p, const tiers_move *m);
int script_tier(tiers_pos *p, int sq, int idx, int tier);
int script_drop_ok(tiers_pos *p, piece_t pc, int sq);
int script_result(tiers_pos *p, tiers_status *st);
int script_in_check(tiers_pos *p, int side);
int script_evaluate(tiers_pos *p, int side);
int script_apply(tiers_pos *p, const tiers_move *m);
int script_expand(tiers_pos *p, tiers_move *buf, int n, int cap, const gen_layout *gl);
int script_format(const tiers_pos *p, const tiers_move *m, char *buf, size_t n);

int script_nested(const tiers_pos *p);
uint32_t script_drop_effects(const tiers_pos *p);
uint32_t script_check_effects(tiers_pos *p);
int script_remember(tiers_script *s, int bits);
const char *script_last_error(const tiers_script *s);
void script_set_error(tiers_script *s, const char *msg);

#endif
