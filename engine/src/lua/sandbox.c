/* lua/sandbox.c - the scripts' environment: the whitelisted standard
 * libraries (base, table, string, math, utf8) with the unsafe functions
 * removed or replaced (no finalizers, no bytecode, print to stderr only on
 * request, math.random from the position's generator), the rules table,
 * and effect{}, which registers an effect's hooks and reads their
 * narrowing fields. */
#include "lua/internal.h"

#include <stdio.h>
#include <string.h>

#include "make.h"
#include "rng.h"

/* Globals of the standard Lua that the sandbox leaves out: reading one
 * raises "'NAME' is not available in tiers scripts". */
static const char *const blocked_globals[] = {
    "os", "io", "package", "debug", "require", "dofile", "loadfile", "coroutine",
    "loadstring", "module", "setfenv", "getfenv", NULL};

static const char *const key_name[NKEYS] = {
    "kind", "from", "to", "tier", "arg", "piece", "taken", "setup", "effect", "path",
    "exit", "final", "face", "owner", "flipped", "facing"};

static const uint32_t filter_ok[HK_COUNT] = {
    [HK_VETO] = FLB(FACES) | FLB(TAKEN) | FLB(KINDS) | FLB(RANKS) | FLB(HEIGHTS) |
                FLB(SETUP) | FLB(CHECK) | FLB(CHECKED) | FLB(FILE_FACES) |
                FLB(FILE_HEIGHTS) | FLB(DOUBLED) | FLB(VARS) | FLB(COUNTS) | FLB(PURE),
    [HK_AFTER] = FLB(FACES) | FLB(TAKEN) | FLB(KINDS) | FLB(RANKS) | FLB(HEIGHTS) |
                 FLB(SETUP) | FLB(CHECK) | FLB(FILE_FACES) | FLB(FILE_HEIGHTS) |
                 FLB(DOUBLED) | FLB(VARS) | FLB(COUNTS),
    [HK_EXPAND] = FLB(FACES) | FLB(TAKEN) | FLB(KINDS) | FLB(RANKS) | FLB(SETUP) |
                  FLB(CHECKED) | FLB(STUCK) | FLB(REACH) | FLB(BEFORE),
    [HK_MOVES] = FLB(FACES) | FLB(HEIGHTS) | FLB(TIERS) | FLB(CONTROLLED) | FLB(SETUP) |
                 FLB(CHECK) | FLB(VARS) | FLB(PURE) | FLB(BESIDE_ROYAL) | FLB(COUNTS),
    [HK_RESULT] = FLB(SETUP) | FLB(CHECK) | FLB(VARS),
    [HK_DROP_OK] = FLB(FACES) | FLB(PURE),
    [HK_CHECK] = FLB(TO_MOVE) | FLB(PURE)};

static const char *const filter_name[FL_NUM] = {
    "faces", "taken", "kinds", "ranks", "heights", "setup", "check", "checked",
    "stuck", "file_faces", "file_heights", "doubled", "pure", "to_move", "vars", "tiers",
    "controlled", "beside_royal", "reach", "count", "before"};

/* The values of a count test's `on`, `owner` and `top` (filter.h). */
static const char *const count_on[COUNT_ONS] = {"tower", "file", "rank", "board", "royal"};
static const char *const count_whose[] = {"any", "mover", "opponent"};

/* ------------------------------------------------------------ sandbox */

static int l_blocked_index(lua_State *L)
{
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    for (int i = 0; k && blocked_globals[i]; i++)
        if (!strcmp(k, blocked_globals[i]))
            return luaL_error(L, "'%s' is not available in tiers scripts", k);
    return 0;
}

/* setmetatable(t, mt) without finalizers: Lua runs __gc metamethods
 * with the debug hooks off, out of reach of the instruction budget (and
 * at any later moment, even from lua_close).  An object is marked for
 * finalization only if its metatable holds __gc when setmetatable is
 * called, so refusing such a metatable here keeps every finalizer out; a
 * __gc added to the metatable afterwards is never called.  (The pos
 * handle's metatable is locked, debug.setmetatable is not there, and the
 * scripts cannot make userdata.)  Otherwise as the base library's. */
static int l_setmetatable(lua_State *L)
{
    int t = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    if (t == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "'__gc' (a finalizer) is not available in tiers scripts");
    }
    lua_settop(L, 2);
    lua_setmetatable(L, 1);
    return 1;
}

static int l_no_dump(lua_State *L)
{
    return luaL_error(L, "'string.dump' is not available in tiers scripts");
}

/* load(text [, name [, mode [, env]]]): text chunks only ("t"). */
static int l_load(lua_State *L)
{
    size_t len;
    if (lua_type(L, 1) != LUA_TSTRING)
        return luaL_typeerror(L, 1, "string (tiers scripts load text only)");
    const char *chunk = lua_tolstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, "=(load)");
    int status = luaL_loadbufferx(L, chunk, len, name, "t");
    if (status != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (!lua_isnone(L, 4)) {
        lua_pushvalue(L, 4);
        if (!lua_setupvalue(L, -2, 1))
            lua_pop(L, 1);
    }
    return 1;
}

/* print writes to stderr only when TIERS_LUA_PRINT is set: the library
 * does not print. */
static int l_print(lua_State *L)
{
    if (!script_of(L)->print)
        return 0;
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        size_t len;
        const char *s = luaL_tolstring(L, i, &len);
        if (i > 1)
            fputc('\t', stderr);
        fwrite(s, 1, len, stderr);
        lua_pop(L, 1);
    }
    fputc('\n', stderr);
    return 0;
}

/* math.random and math.randomseed over the hook call's xorshift64 state
 * (the script's own while loading), so playouts replay exactly. */
static uint64_t next_random(tiers_script *s)
{
    call_seed(s);
    uint64_t *r = s->cur.p ? &s->cur.rng : &s->rng;
    if (!*r)
        *r = 1;
    return rng_next(r);
}

static int l_random(lua_State *L)
{
    tiers_script *s = script_of(L);
    uint64_t x = next_random(s);
    lua_Integer lo, hi;
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, (lua_Number)(x >> 11) * (1.0 / 9007199254740992.0));
        return 1;
    case 1:
        lo = 1;
        hi = luaL_checkinteger(L, 1);
        if (hi == 0) {
            lua_pushinteger(L, (lua_Integer)x);
            return 1;
        }
        break;
    case 2:
        lo = luaL_checkinteger(L, 1);
        hi = luaL_checkinteger(L, 2);
        break;
    default:
        return luaL_error(L, "wrong number of arguments");
    }
    luaL_argcheck(L, lo <= hi, lua_gettop(L), "interval is empty");
    uint64_t range = (uint64_t)hi - (uint64_t)lo;
    if (range != UINT64_MAX) {
        uint64_t n = range + 1, lim = UINT64_MAX - UINT64_MAX % n;
        while (x >= lim)
            x = next_random(s);
        x %= n;
    }
    lua_pushinteger(L, (lua_Integer)((uint64_t)lo + x));
    return 1;
}

static int l_randomseed(lua_State *L)
{
    tiers_script *s = script_of(L);
    uint64_t seed = (uint64_t)luaL_checkinteger(L, 1);
    call_seed(s); /* (marks it seeded: the seed given replaces it) */
    *(s->cur.p ? &s->cur.rng : &s->rng) = seed ? seed : 1;
    return 0;
}

static void set_bool(lua_State *L, const char *key, int b)
{
    lua_pushboolean(L, b);
    lua_setfield(L, -2, key);
}

static void set_int(lua_State *L, const char *key, int n)
{
    lua_pushinteger(L, n);
    lua_setfield(L, -2, key);
}

static void set_str(lua_State *L, const char *key, const char *s)
{
    lua_pushstring(L, s);
    lua_setfield(L, -2, key);
}

/* The global `rules`: engine rules, then the variant's options. */
static void push_rules(lua_State *L, const tiers_variant *v)
{
    static const char *const unit[] = {"top", "stack"};
    static const char *const capture[] = {"none", "top", "enemies", "tower"};
    static const char *const captured[] = {"gone", "hand"};
    static const char *const via[] = {"empty", "no-enemy", "free", "height"};
    static const char *const legality[] = {"legal", "pseudo"};
    static const char *const result[] = {"loss", "draw", "win"};
    static const char *const repkey[] = {"full", "board", "position"};
    lua_newtable(L);
    set_str(L, "variant", v->name);
    set_int(L, "files", v->files);
    set_int(L, "ranks", v->ranks);
    set_int(L, "max_tiers", v->max_tiers);
    lua_createtable(L, 2, 0);
    for (int s = 0; s < 2; s++) {
        lua_pushstring(L, v->side_name[s]);
        lua_rawseti(L, -2, s + 1);
    }
    lua_setfield(L, -2, "sides");
    set_bool(L, "facing", v->uses_facing);
    set_str(L, "unit", unit[v->unit & 1]);
    set_bool(L, "stack_own", v->stack_own);
    set_bool(L, "stack_enemy", v->stack_enemy);
    set_str(L, "capture", capture[v->capture & 3]);
    set_bool(L, "capture_and_stack", v->capture_and_stack);
    set_str(L, "captured", captured[v->captured_to & 1]);
    set_bool(L, "capture_flips", v->capture_flips);
    set_bool(L, "height_block", v->height_block);
    set_str(L, "via", via[v->via_rule & 3]);
    set_bool(L, "same_face", v->same_face_rule);
    set_bool(L, "immobile_strikes", v->immobile_strikes);
    set_str(L, "over_enemy_face",
            v->over_enemy_face < v->nfaces ? v->faces[v->over_enemy_face].name : "none");
    set_int(L, "army_cap", v->army_cap);
    set_bool(L, "drops", v->drops);
    set_bool(L, "setup", v->setup);
    set_str(L, "legality", legality[v->legality & 1]);
    set_str(L, "stalemate", result[v->stalemate < 3 ? v->stalemate : 0]);
    set_bool(L, "royal_capture", v->royal_capture);
    set_bool(L, "exit", v->exit_rank);
    set_bool(L, "capture_all", v->capture_all);
    set_int(L, "repetition", v->repetition);
    set_str(L, "repetition_key", repkey[v->repetition_key]);
    set_str(L, "repetition_from", v->repetition_from ? "start" : "play");
    set_str(L, "repetition_result", v->repetition_result ? "replay" : "draw");
    set_int(L, "halfmove_limit", v->halfmove_limit);
    set_int(L, "max_plies", v->max_plies);
    for (int i = 0; i < v->noptions && i < MAX_OPTIONS; i++) {
        const option_def *o = &v->options[i];
        if (o->nvalues && o->value >= 0 && o->value < o->nvalues)
            set_str(L, o->key, o->values[o->value]);
        else
            set_int(L, o->key, o->value);
    }
}

/* The integer at the top of the stack, lo..hi, for field `key`. */
static int filter_int(lua_State *L, const char *name, const char *key, int lo, int hi)
{
    int isnum;
    lua_Integer x = lua_tointegerx(L, -1, &isnum);
    if (!isnum || x < lo || x > hi)
        luaL_error(L, "effect '%s': %s entries must be integers %d..%d", name, key, lo, hi);
    return (int)x;
}

/* A list of face names (at index vi) as face bits; an empty list sets
 * f->never (it matches no move). */
static uint64_t read_faces(lua_State *L, const tiers_variant *v, const char *name,
                           const char *key, int vi, hook_filter *f)
{
    uint64_t bits = 0;
    lua_Unsigned n = lua_rawlen(L, vi);
    if (n == 0)
        f->never = 1;
    for (lua_Unsigned i = 1; i <= n; i++) {
        lua_rawgeti(L, vi, (lua_Integer)i);
        const char *nm = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        int x = nm ? face_find(v, nm) : -1;
        if (x < 0)
            luaL_error(L, "effect '%s': %s: unknown face '%s'", name, key,
                       nm ? nm : luaL_typename(L, -1));
        bits |= 1ull << x;
        lua_pop(L, 1);
    }
    return bits;
}

/* A list of integers lo..TIERS_MAX_TIERS (at index vi) as bits; an empty
 * list sets f->never. */
static uint16_t read_levels(lua_State *L, const char *name, const char *key, int vi, int lo,
                            hook_filter *f)
{
    uint16_t bits = 0;
    lua_Unsigned n = lua_rawlen(L, vi);
    if (n == 0)
        f->never = 1;
    for (lua_Unsigned i = 1; i <= n; i++) {
        lua_rawgeti(L, vi, (lua_Integer)i);
        bits |= (uint16_t)(1u << filter_int(L, name, key, lo, TIERS_MAX_TIERS));
        lua_pop(L, 1);
    }
    return bits;
}

/* {first, last} (at index vi), each lo..hi. */
static void read_range(lua_State *L, const char *name, const char *key, int vi, int lo, int hi,
                       uint8_t *first, uint8_t *last)
{
    if (!lua_istable(L, vi) || lua_rawlen(L, vi) != 2)
        luaL_error(L, "effect '%s': %s must be {first, last}", name, key);
    lua_rawgeti(L, vi, 1);
    *first = (uint8_t)filter_int(L, name, key, lo, hi);
    lua_rawgeti(L, vi, 2);
    *last = (uint8_t)filter_int(L, name, key, *first, hi);
    lua_pop(L, 2);
}

/* One more count test for f. */
static count_test *add_count(lua_State *L, const char *name, hook_filter *f)
{
    if (f->ncount >= MAX_COUNTS)
        luaL_error(L, "effect '%s': a hook takes at most %d count tests (count, "
                   "file_faces, file_heights, doubled)", name, MAX_COUNTS);
    count_test *ct = &f->count[f->ncount++];
    memset(ct, 0, sizeof *ct);
    ct->min = 1;
    return ct;
}

/* The string at index vi, one of the n names: its index. */
static int read_choice(lua_State *L, const char *name, const char *key, int vi,
                       const char *const *names, int n)
{
    const char *x = lua_type(L, vi) == LUA_TSTRING ? lua_tostring(L, vi) : NULL;
    char all[128] = "";
    for (int i = 0; i < n; i++) {
        if (x && !strcmp(x, names[i]))
            return i;
        size_t len = strlen(all);
        snprintf(all + len, sizeof all - len, "%s%s", i ? ", " : "", names[i]);
    }
    return luaL_error(L, "effect '%s': %s: '%s' is not one of %s", name, key,
                      x ? x : luaL_typename(L, vi), all);
}

/* The boolean at index vi. */
static uint8_t read_flag(lua_State *L, const char *name, const char *key, int vi)
{
    if (!lua_isboolean(L, vi))
        luaL_error(L, "effect '%s': %s must be a boolean, not %s", name, key,
                   luaL_typename(L, vi));
    return (uint8_t)lua_toboolean(L, vi);
}

/* <hook>_count = {on = ..., faces = {...}, min = n, ...} (docs/lua-api.md,
 * "Count tests"), the table at index vi. */
static void read_count(lua_State *L, const tiers_variant *v, const char *name, int h,
                       const char *key, int vi, hook_filter *f)
{
    count_test *ct = add_count(L, name, f);
    ct->on = h == HK_MOVES ? COUNT_BOARD : COUNT_TOWER;
    char sub[96];
    lua_pushnil(L);
    while (lua_next(L, vi)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        int x = lua_gettop(L);
        snprintf(sub, sizeof sub, "%s.%s", key, k);
        if (!strcmp(k, "on")) {
            ct->on = (uint8_t)read_choice(L, name, sub, x, count_on, COUNT_ONS);
        } else if (!strcmp(k, "owner")) {
            ct->owner = (uint8_t)read_choice(L, name, sub, x, count_whose, 3);
        } else if (!strcmp(k, "top")) {
            ct->top = (uint8_t)read_choice(L, name, sub, x, count_whose, 3);
        } else if (!strcmp(k, "others")) {
            ct->others = read_flag(L, name, sub, x);
        } else if (!strcmp(k, "towers")) {
            ct->towers = read_flag(L, name, sub, x);
        } else if (!strcmp(k, "each")) {
            ct->each = read_flag(L, name, sub, x);
        } else if (!strcmp(k, "min")) {
            ct->min = (uint8_t)filter_int(L, name, sub, 1, 255);
        } else if (!strcmp(k, "faces") || !strcmp(k, "heights") || !strcmp(k, "tiers")) {
            if (!lua_istable(L, x))
                luaL_error(L, "effect '%s': %s must be a list, not %s", name, sub,
                           luaL_typename(L, x));
            if (k[0] == 'f')
                ct->faces = read_faces(L, v, name, sub, x, f);
            else if (k[0] == 'h')
                ct->heights = read_levels(L, name, sub, x, 0, f);
            else
                ct->tiers = read_levels(L, name, sub, x, 1, f);
        } else {
            luaL_error(L, "effect '%s': %s: unknown field '%s' (on, owner, top, others, "
                       "towers, each, min, faces, heights, tiers)", name, key, k);
        }
        lua_pop(L, 1);
    }
    if (h == HK_MOVES && ct->on != COUNT_BOARD && ct->on != COUNT_ROYAL)
        luaL_error(L, "effect '%s': %s.on must be board or royal for a moves hook (it has "
                   "no move)", name, key);
}

/* A moves hook's faces, heights, tiers, controlled and beside_royal: one
 * count test (towers with a piece of the side to move), made at the first
 * of them. */
static count_test *moves_towers(lua_State *L, const char *name, hook_filter *f)
{
    if (f->towers_test)
        return &f->count[f->towers_test - 1];
    count_test *ct = add_count(L, name, f);
    ct->on = COUNT_BOARD;
    ct->owner = WHOSE_MOVER;
    ct->towers = 1;
    f->towers_test = f->ncount;
    return ct;
}

/* The old single-rule fields, written as count tests or a reach range
 * (docs/lua-api.md keeps them as aliases). */
static int read_alias(lua_State *L, const tiers_variant *v, const char *name, int h, int k,
                      const char *key, int vi, hook_filter *f)
{
    count_test *ct;
    switch (k) {
    case FL_STUCK:
        f->reach = 1;
        f->reach_lo = f->reach_hi = 0;
        return 0;
    case FL_FILE_FACES: /* two of the mover's pieces of these faces in the file */
        ct = add_count(L, name, f);
        ct->faces = read_faces(L, v, name, key, vi, f);
        ct->on = COUNT_FILE, ct->owner = WHOSE_MOVER, ct->min = 2;
        return 0;
    case FL_FILE_HEIGHTS: /* another tower of the file of these heights */
        ct = add_count(L, name, f);
        ct->heights = read_levels(L, name, key, vi, 0, f);
        ct->on = COUNT_FILE, ct->others = 1, ct->towers = 1;
        return 0;
    case FL_DOUBLED: /* two pieces of one face and owner in the move's tower */
        ct = add_count(L, name, f);
        ct->on = COUNT_TOWER, ct->each = 1, ct->min = 2;
        return 0;
    }
    if (h != HK_MOVES || !(k == FL_FACES || k == FL_HEIGHTS || k == FL_TIERS ||
                           k == FL_CONTROLLED || k == FL_BESIDE_ROYAL))
        return -1;
    ct = moves_towers(L, name, f);
    if (k == FL_FACES)
        ct->faces = read_faces(L, v, name, key, vi, f);
    else if (k == FL_HEIGHTS)
        ct->heights = read_levels(L, name, key, vi, 1, f);
    else if (k == FL_TIERS)
        ct->tiers = read_levels(L, name, key, vi, 1, f);
    else if (k == FL_CONTROLLED)
        ct->top = WHOSE_MOVER;
    else
        ct->on = COUNT_ROYAL;
    return 0;
}

/* Reads a narrowing field <hook>_<filter> (its value at index vi) into
 * flt[hook].  Returns 0, or -1 if key names no such field. */
static int read_filter(lua_State *L, const tiers_variant *v, const char *name,
                       const char *key, int vi, hook_filter *flt)
{
    int h = -1, k = -1;
    for (int i = 0; i < HK_COUNT && k < 0; i++) {
        size_t hl = strlen(hook_name[i]);
        if (strncmp(key, hook_name[i], hl) || key[hl] != '_')
            continue;
        for (int j = 0; j < FL_NUM; j++)
            if (!strcmp(key + hl + 1, filter_name[j]))
                h = i, k = j;
    }
    if (k < 0)
        return -1;
    if (!(filter_ok[h] >> k & 1))
        return luaL_error(L, "effect '%s': hook %s cannot be narrowed by %s", name,
                          hook_name[h], filter_name[k]);
    int boolean = k == FL_SETUP || k == FL_CHECK || k == FL_CHECKED || k == FL_STUCK ||
                  k == FL_DOUBLED || k == FL_PURE || k == FL_TO_MOVE || k == FL_CONTROLLED ||
                  k == FL_BESIDE_ROYAL || k == FL_BEFORE;
    if (!boolean && !lua_istable(L, vi))
        return luaL_error(L, "effect '%s': %s must be a %s, not %s", name, key,
                          k == FL_COUNTS ? "table" : "list", luaL_typename(L, vi));
    hook_filter *f = &flt[h];
    if ((k == FL_STUCK && (f->given & FLB(REACH))) || (k == FL_REACH && (f->given & FLB(STUCK))))
        return luaL_error(L, "effect '%s': %s_stuck is %s_reach = {0, 0}: give one of them",
                          name, hook_name[h], hook_name[h]);
    if ((k == FL_BEFORE && (f->given & (FLB(REACH) | FLB(STUCK)))) ||
        ((k == FL_REACH || k == FL_STUCK) && (f->given & FLB(BEFORE))))
        return luaL_error(L, "effect '%s': %s_before cannot go with %s_reach or %s_stuck (the "
                          "reach is counted on the position after the move)",
                          name, hook_name[h], hook_name[h], hook_name[h]);
    if (k == FL_BEFORE) { /* not a narrowing: how the hook is called */
        if (!lua_isboolean(L, vi))
            return luaL_error(L, "effect '%s': %s must be a boolean, not %s", name, key,
                              luaL_typename(L, vi));
        if (!lua_toboolean(L, vi))
            return luaL_error(L, "effect '%s': %s must be true (or left out)", name, key);
        f->before = 1;
        f->given |= FLB(BEFORE);
        return 0;
    }
    f->on = 1;
    f->given |= 1u << k;
    if (k != FL_VARS)
        f->move_test = 1;
    if (boolean) {
        if (!lua_isboolean(L, vi))
            return luaL_error(L, "effect '%s': %s must be a boolean, not %s", name, key,
                              luaL_typename(L, vi));
        if (k == FL_SETUP) {
            f->setup = lua_toboolean(L, vi) ? 1 : 2;
            return 0;
        }
        if (!lua_toboolean(L, vi))
            return luaL_error(L, "effect '%s': %s must be true (or left out)", name, key);
        if (k == FL_CHECK)
            f->check = 1;
        else if (k == FL_CHECKED)
            f->checked = 1;
        else if (k == FL_TO_MOVE)
            f->to_move = 1;
        else if (k == FL_PURE)
            f->pure = 1;
        else
            read_alias(L, v, name, h, k, key, vi, f);
        return 0;
    }
    if (read_alias(L, v, name, h, k, key, vi, f) == 0)
        return 0;
    if (k == FL_RANKS) {
        read_range(L, name, key, vi, 1, TIERS_MAX_RANKS, &f->lo, &f->hi);
        return 0;
    }
    if (k == FL_REACH) {
        f->reach = 1;
        read_range(L, name, key, vi, 0, TIERS_MAX_SQUARES - 1, &f->reach_lo, &f->reach_hi);
        return 0;
    }
    if (k == FL_COUNTS) {
        read_count(L, v, name, h, key, vi, f);
        return 0;
    }
    if (k == FL_FACES || k == FL_TAKEN) {
        *(k == FL_FACES ? &f->faces : &f->taken) |= read_faces(L, v, name, key, vi, f);
        return 0;
    }
    if (k == FL_HEIGHTS) {
        f->heights |= read_levels(L, name, key, vi, 1, f);
        return 0;
    }
    lua_Unsigned n = lua_rawlen(L, vi);
    /* An empty list of kinds matches no move: the hook then runs only for
       moves tagged with its effect. */
    if (n == 0 && k != FL_VARS)
        f->never = 1;
    for (lua_Unsigned i = 1; i <= n; i++) {
        lua_rawgeti(L, vi, (lua_Integer)i);
        if (k == FL_KINDS) {
            const char *nm = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            int x = -1;
            for (int j = 1; nm && j < TIERS_MV_KINDS; j++)
                if (!strcmp(nm, kind_name[j]))
                    x = j;
            if (x < 0)
                return luaL_error(L, "effect '%s': %s: unknown move kind '%s'", name, key,
                                  nm ? nm : luaL_typename(L, -1));
            f->kinds |= (uint16_t)(1u << x);
        } else {
            f->vars |= (uint8_t)(1u << (filter_int(L, name, key, 1, MAX_VARS) - 1));
        }
        lua_pop(L, 1);
    }
    return 0;
}

/* expand = {{}, {arg = n}, ...}: variants fixed at load time, for an
 * expand hook whose answer never depends on the position (its narrowing
 * fields say when it applies). */
static void read_fixed_expand(lua_State *L, const char *name, int t, effect_rec *fx)
{
    lua_Unsigned n = lua_rawlen(L, t);
    lua_pushnil(L);
    while (lua_next(L, t)) { /* a list and nothing else */
        lua_Integer k = lua_isinteger(L, -2) ? lua_tointeger(L, -2) : 0;
        if (k < 1 || (lua_Unsigned)k > n)
            luaL_error(L, "effect '%s': expand must be a function or a list of variants",
                       name);
        lua_pop(L, 1);
    }
    if (n > MAX_FIXED_VARIANTS)
        luaL_error(L, "effect '%s': a fixed expand list has at most %d variants", name,
                   MAX_FIXED_VARIANTS);
    for (lua_Unsigned i = 1; i <= n; i++) {
        fixed_variant *fv = &fx->fixed[i - 1];
        if (lua_rawgeti(L, t, (lua_Integer)i) != LUA_TTABLE)
            luaL_error(L, "effect '%s': expand variant %d is a %s, not a table", name, (int)i,
                       luaL_typename(L, -1));
        int e = lua_gettop(L);
        fv->plain = 1;
        lua_pushnil(L);
        while (lua_next(L, e)) {
            int isnum;
            lua_Integer a = lua_tointegerx(L, -1, &isnum);
            if (lua_type(L, -2) != LUA_TSTRING || strcmp(lua_tostring(L, -2), "arg"))
                luaL_error(L, "effect '%s': a fixed expand variant takes only 'arg' "
                           "(a path depends on the position: use a function)", name);
            if (!isnum || a < 0 || a > 255)
                luaL_error(L, "effect '%s': expand variant %d: arg must be an integer 0..255",
                           name, (int)i);
            fv->plain = 0;
            fv->arg = (uint8_t)a;
            lua_pop(L, 1);
        }
        lua_settop(L, e - 1);
    }
    fx->nfixed = (uint8_t)n;
}

/* `veto = true`: every move the veto's narrowing fields let through is
 * refused, with no call into Lua. */
static int is_constant_veto(lua_State *L, int hook, int idx)
{
    return hook == HK_VETO && lua_isboolean(L, idx) && lua_toboolean(L, idx);
}

/* effect{ name = "...", <hook> = function ... end, ... } */

static int l_effect(lua_State *L)
{
    tiers_script *s = script_of(L);
    tiers_variant *v = s->v;
    if (!s->loading)
        return luaL_error(L, "effect{} may only be called while a script file loads");
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_pushliteral(L, "name");
    if (lua_rawget(L, 1) != LUA_TSTRING)
        return luaL_error(L, "effect{} needs name = \"...\" (a string)");
    const char *name = lua_tostring(L, -1);
    size_t len = strlen(name);
    if (!len || len >= MAX_NAME || strspn(name, "abcdefghijklmnopqrstuvwxyz"
                                                "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != len)
        return luaL_error(L, "effect name '%s' must be 1..%d letters, digits, '_' or '-'",
                          name, MAX_NAME - 1);
    if (tables_find_effect(v, name) >= 0)
        return luaL_error(L, "effect '%s' is defined twice", name);
    if (v->neffects >= MAX_EFFECTS)
        return luaL_error(L, "more than %d effects", MAX_EFFECTS);
    effect_rec fx;
    memset(&fx, 0, sizeof fx);
    lua_pushnil(L); /* every field is checked before anything is kept */
    while (lua_next(L, 1)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        int h = -1;
        for (int i = 0; key && i < HK_COUNT; i++)
            if (!strcmp(key, hook_name[i]))
                h = i;
        if (h < 0 && !(key && !strcmp(key, "name")) &&
            !(key && read_filter(L, v, name, key, lua_gettop(L), fx.filter) == 0))
            return luaL_error(L, "effect '%s': unknown field '%s' (hooks: moves, veto, "
                              "after, tier, drop_ok, result, apply, format, expand, check, "
                              "evaluate)", name,
                              key ? key : luaL_typename(L, -2));
        if (h == HK_EXPAND && lua_istable(L, -1))
            read_fixed_expand(L, name, lua_gettop(L), &fx);
        else if (h == HK_VETO && lua_isboolean(L, -1) && !lua_toboolean(L, -1))
            return luaL_error(L, "effect '%s': veto must be a function or true, not false",
                              name);
        else if (h >= 0 && !lua_isfunction(L, -1) && !is_constant_veto(L, h, -1))
            return luaL_error(L, "effect '%s': %s must be a function%s, not %s", name, key,
                              h == HK_EXPAND ? " or a list of variants"
                              : h == HK_VETO ? " or true"
                                             : "",
                              luaL_typename(L, -1));
        lua_pop(L, 1);
    }
    for (int h = 0; h < HK_COUNT; h++) {
        lua_pushstring(L, hook_name[h]);
        int type = lua_rawget(L, 1);
        int constant = is_constant_veto(L, h, -1);
        int defined = type == LUA_TFUNCTION || (h == HK_EXPAND && type == LUA_TTABLE) || constant;
        lua_pop(L, 1);
        if (constant && !fx.filter[h].on)
            return luaL_error(L, "effect '%s': veto = true needs veto_ fields (it would "
                              "refuse every move)", name);
        if (fx.filter[h].on && !defined)
            return luaL_error(L, "effect '%s': narrowing fields for hook %s, which it does "
                              "not define", name, hook_name[h]);
    }
    for (int h = 0; h < HK_COUNT; h++) {
        fx.ref[h] = LUA_NOREF;
        fx.line[h] = 0;
        fx.src[h][0] = 0;
        lua_pushstring(L, hook_name[h]);
        if (lua_rawget(L, 1) != LUA_TFUNCTION) {
            if ((h == HK_EXPAND && lua_istable(L, -1)) || is_constant_veto(L, h, -1))
                fx.ref[h] = LUA_REFNIL; /* defined, as the fixed list or `true` */
            lua_pop(L, 1);
            continue;
        }
        lua_Debug ar;
        lua_pushvalue(L, -1);
        lua_getinfo(L, ">S", &ar);
        fx.line[h] = ar.linedefined;
        snprintf(fx.src[h], sizeof fx.src[h], "%s", ar.short_src);
        fx.ref[h] = luaL_ref(L, LUA_REGISTRYINDEX); /* pops the function */
    }
    s->fx[v->neffects] = fx;
    snprintf(v->effect_name[v->neffects], MAX_NAME, "%s", name);
    v->neffects++;
    return 0;
}

/* Builds the sandbox (run under lua_pcall: allocations may fail). */
int sandbox_open(lua_State *L)
{
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},        {LUA_TABLIBNAME, luaopen_table},
        {LUA_STRLIBNAME, luaopen_string}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8}};
    tiers_script *s = script_of(L);
    for (size_t i = 0; i < sizeof libs / sizeof libs[0]; i++) {
        luaL_requiref(L, libs[i].name, libs[i].func, 1);
        lua_pop(L, 1);
    }
    lua_pushglobaltable(L);
    for (int i = 0; blocked_globals[i]; i++) {
        lua_pushnil(L);
        lua_setfield(L, -2, blocked_globals[i]);
    }
    lua_pushcfunction(L, l_load);
    lua_setfield(L, -2, "load");
    lua_pushcfunction(L, l_setmetatable);
    lua_setfield(L, -2, "setmetatable");
    lua_pushcfunction(L, tables_rawset);
    lua_setfield(L, -2, "rawset");
    lua_pushcfunction(L, l_print);
    lua_setfield(L, -2, "print");
    lua_pushcfunction(L, l_effect);
    lua_setfield(L, -2, "effect");
    lua_pushcfunction(L, tables_fixed_move);
    lua_setfield(L, -2, "fixed_move");
    lua_pushcfunction(L, tables_fixed_variant);
    lua_setfield(L, -2, "fixed_variant");
    push_rules(L, s->v);
    lua_setfield(L, -2, "rules");
    lua_newtable(L); /* the globals' metatable: names of missing libraries */
    lua_pushcfunction(L, l_blocked_index);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    budget_wrap_charged(L);
    lua_getfield(L, -1, LUA_STRLIBNAME);
    static const luaL_Reg strings[] = {
        {"dump", l_no_dump},       {"find", pattern_find}, {"match", pattern_match},
        {"gmatch", pattern_gmatch}, {"gsub", pattern_gsub}, {NULL, NULL}};
    luaL_setfuncs(L, strings, 0);
    lua_pop(L, 1);
    lua_getfield(L, -1, LUA_MATHLIBNAME);
    lua_pushcfunction(L, l_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, l_randomseed);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 2);
    /* The registry's copy of the loaded libraries is not reachable from
       scripts (no require), so it needs no cleaning. */
    handle_open_methods(L);
    lua_newtable(L);
    s->pieces_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, MOVE_CACHE, 0);
    s->moves_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L); /* weak keys: a fixed move a script drops is collected */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    s->fixed_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    for (int i = 0; i < FIXED_HITS; i++)
        s->fixed_hits[i] = (struct fixed_hit){NULL, LUA_NOREF, {0}};
    lua_newtable(L);
    tables_make_read_only(L);
    s->empty_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    const tiers_variant *v = s->v;
    for (int k = 0; k < NKEYS; k++) {
        s->key_str[k] = lua_pushstring(L, key_name[k]);
        s->key_ref[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    for (int f = 0; f < MAX_FACES; f++) {
        lua_pushstring(L, f < v->nfaces ? v->faces[f].name : "");
        s->face_ref[f] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    for (int k = 0; k < MAX_KINDS; k++) {
        lua_pushstring(L, k < v->nkinds ? v->kinds[k].name : "");
        s->tile_ref[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    for (int k = 0; k < TIERS_MV_KINDS; k++) {
        s->kind_str[k] = lua_pushstring(L, kind_name[k]);
        s->kind_ref[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    for (int d = 0; d < 4; d++) {
        lua_pushlstring(L, &facing_chars[d], 1);
        s->facing_ref[d] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return 0;
}
