/* lua/pos.c - the position handle a hook receives and its pos:* methods
 * (docs/lua-api.md): reads of the board, hands and state, the engine's
 * answers (in_check, attacked, reach, has_legal_move), and the edits,
 * which go through the position's edit primitives so unmake and the hash
 * stay exact.  A handle is valid only during the call that received it. */
#include "lua/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "make.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"

/* ------------------------------------------------------------ position handle */

/* A position handle is a light userdata whose value is the generation of
 * the hook call it was given to: making one allocates nothing, and one
 * kept past its call names a generation that is over.  Scripts make no
 * light userdata, and every light userdata has the handles' metatable. */
void handle_push(lua_State *L, uint64_t gen)
{
    lua_pushlightuserdata(L, (void *)(uintptr_t)gen);
}

static uintptr_t handle_gen(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TLIGHTUSERDATA)
        luaL_typeerror(L, idx, POS_META);
    return (uintptr_t)lua_touserdata(L, idx);
}

static tiers_pos *check_pos(lua_State *L, const char *edit)
{
    tiers_script *s = script_of(L);
    uintptr_t gen = handle_gen(L, 1); /* (as pushed: cut to a pointer's size) */
    if (!s->cur.p || gen != (uintptr_t)s->cur.gen)
        luaL_error(L, "position handle used outside its hook");
    if (edit && !s->cur.writable)
        luaL_error(L, "pos:%s: the position is read-only in hook %s (only after and apply "
                   "may edit it)", edit, hook_name[s->cur.hook]);
    return s->cur.p;
}

static int check_sq(lua_State *L, int idx, const tiers_pos *p)
{
    if (lua_type(L, idx) != LUA_TSTRING)
        return luaL_typeerror(L, idx, "square name");
    size_t len;
    const char *name = lua_tolstring(L, idx, &len);
    int sq = tables_parse_square(p->v, name, len);
    if (sq == -2)
        return luaL_argerror(L, idx, lua_pushfstring(L, "square '%s' is off the board (%dx%d)",
                                                     name, p->v->files, p->v->ranks));
    if (sq < 0)
        return luaL_argerror(L, idx, lua_pushfstring(L, "bad square '%s' (%s)",
                                                     tables_push_shown(L, name, len),
                                                     strlen(name) != len ? "it holds a NUL byte"
                                                     : "a name like \"e5\""));
    return sq;
}

/* A 1-based tier of the tower at sq: 1..h+extra; nil = the top if opt. */
static int check_tier(lua_State *L, int idx, const tiers_pos *p, int sq, int extra, int opt)
{
    const tower *t = &p->board[sq];
    char b[8];
    if (opt && lua_isnoneornil(L, idx)) {
        if (!t->h)
            luaL_error(L, "no piece on %s", tiers_square_name(sq_file(sq), sq_rank(sq), b));
        return t->h;
    }
    lua_Integer tier = luaL_checkinteger(L, idx);
    if (tier < 1 || tier > t->h + extra)
        return luaL_argerror(L, idx, lua_pushfstring(L, "tier %I out of range 1..%d on %s",
                             (lua_Integer)tier, t->h + extra,
                             tiers_square_name(sq_file(sq), sq_rank(sq), b)));
    return (int)tier;
}

static int check_side(lua_State *L, int idx, int def)
{
    if (lua_isnoneornil(L, idx) && def >= 0)
        return def;
    lua_Integer s = luaL_checkinteger(L, idx);
    if (s != 0 && s != 1)
        return luaL_argerror(L, idx, "side must be 0 or 1");
    return (int)s;
}

static void check_room(lua_State *L, const tiers_pos *p, int sq)
{
    char b[8];
    int maxt = tables_mode_tiers(p);
    if (p->board[sq].h >= maxt)
        luaL_error(L, "the tower on %s is full (%d tiers)",
                   tiers_square_name(sq_file(sq), sq_rank(sq), b), maxt);
}

/* Re-raises the failure of a hook run from inside this one. */
static void check_nested(lua_State *L)
{
    tiers_script *s = script_of(L);
    if (s->nested_error) {
        s->nested_error = 0;
        lua_pushstring(L, s->error);
        lua_error(L);
    }
}

/* -- reading */

static int l_side(lua_State *L)
{
    lua_pushinteger(L, check_pos(L, NULL)->st.side);
    return 1;
}

static int l_files(lua_State *L)
{
    lua_pushinteger(L, check_pos(L, NULL)->v->files);
    return 1;
}

static int l_ranks(lua_State *L)
{
    lua_pushinteger(L, check_pos(L, NULL)->v->ranks);
    return 1;
}

static int l_height(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    lua_pushinteger(L, p->board[check_sq(L, 2, p)].h);
    return 1;
}

static int l_piece(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    int sq = check_sq(L, 2, p);
    lua_Integer tier = luaL_checkinteger(L, 3);
    if (tier < 1 || tier > TIERS_MAX_TIERS)
        return luaL_argerror(L, 3, "tier must be 1..8");
    const tower *t = &p->board[sq];
    if (tier > t->h)
        lua_pushnil(L);
    else
        tables_push_piece(L, p->v, t->p[tier - 1], (int)tier);
    return 1;
}

static int l_top(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    const tower *t = &p->board[check_sq(L, 2, p)];
    if (t->h)
        tables_push_piece(L, p->v, t->p[t->h - 1], t->h);
    else
        lua_pushnil(L);
    return 1;
}

/* A square name, or its index 1..files * ranks (a1, b1, ... rank by rank):
 * the index spares a loop over the board its names. */
static int token_sq(lua_State *L, int idx, const tiers_pos *p)
{
    if (lua_type(L, idx) != LUA_TNUMBER)
        return check_sq(L, idx, p);
    int isnum, files = p->v->files, n = files * p->v->ranks;
    lua_Integer i = lua_tointegerx(L, idx, &isnum);
    if (!isnum || i < 1 || i > n)
        return luaL_argerror(L, idx, lua_pushfstring(L, "square index must be an integer "
                                                     "1..%d", n));
    return sq_make((int)(i - 1) % files, (int)(i - 1) / files);
}

/* Pushes pc's token; the tokens are written once and kept in the
 * upvalue table of pos:token and pos:occupied, by piece code. */
static void push_token(lua_State *L, const tiers_variant *v, piece_t pc)
{
    if (lua_rawgeti(L, lua_upvalueindex(1), pc) == LUA_TSTRING)
        return;
    lua_pop(L, 1);
    char buf[32];
    notation_piece(v, pc, 1, buf, sizeof buf);
    lua_pushstring(L, buf);
    lua_pushvalue(L, -1);
    lua_rawseti(L, lua_upvalueindex(1), pc);
}

/* pos:token(sq [, tier]): the piece at tier (default: the top) as its
 * token in tiers notation ("K@n", "*Z@e", "p", "L~C"), or nil: reading a
 * square this way allocates nothing. */
static int l_token(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    const tower *t = &p->board[token_sq(L, 2, p)];
    lua_Integer tier = lua_isnoneornil(L, 3) ? t->h : luaL_checkinteger(L, 3);
    if (tier < 1 || tier > t->h) {
        lua_pushnil(L);
        return 1;
    }
    push_token(L, p->v, t->p[tier - 1]);
    return 1;
}

/* pos:occupied(): for each square that holds a tower, in index order, its
 * index (as pos:token takes it) and its top piece's token: two values a
 * square, no table.  A board pass: one instruction a square. */
static int l_occupied(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    const tiers_variant *v = p->v;
    budget_generation(L, p);
    int n = 0;
    luaL_checkstack(L, 2 * v->files * v->ranks, "pos:occupied: board too large");
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++) {
            const tower *t = &p->board[sq_make(f, r)];
            if (!t->h)
                continue;
            lua_pushinteger(L, 1 + f + r * v->files);
            push_token(L, v, t->p[t->h - 1]);
            n += 2;
        }
    return n;
}

static int l_tower(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    const tower *t = &p->board[check_sq(L, 2, p)];
    lua_createtable(L, t->h, 0);
    for (int i = 0; i < t->h; i++) {
        tables_push_piece(L, p->v, t->p[i], i + 1);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_hand(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    const tiers_variant *v = p->v;
    int owner = tables_check_owner(L, 2);
    lua_newtable(L);
    for (int slot = 0; slot < HAND_SLOTS; slot++) {
        int n = p->hand[owner][slot], k = slot & PC_KIND_MASK;
        if (!n || !k || k >= v->nkinds)
            continue;
        int f = v->face_of[slot];
        lua_getfield(L, -1, v->faces[f].name);
        lua_Integer sum = lua_tointeger(L, -1) + n;
        lua_pop(L, 1);
        lua_pushinteger(L, sum);
        lua_setfield(L, -2, v->faces[f].name);
        if (tables_face_shown(v, f) > 1) {
            char key[2 * MAX_NAME + 2];
            snprintf(key, sizeof key, "%s/%s", v->kinds[k].name, v->faces[f].name);
            lua_pushinteger(L, n);
            lua_setfield(L, -2, key);
        }
    }
    return 1;
}

static int l_in_check(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    int side = check_side(L, 2, p->st.side);
    budget_generation(L, p);
    int r = movegen_in_check(p, side);
    check_nested(L);
    lua_pushboolean(L, r);
    return 1;
}

static int l_attacked(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    int sq = check_sq(L, 2, p), by = check_side(L, 3, -1);
    budget_generation(L, p);
    int r = movegen_attacks(p, sq, by);
    check_nested(L);
    lua_pushboolean(L, r);
    return 1;
}

/* The move buffer of pos:has_legal_move at the current hook depth (hooks
 * run from hooks have their own), allocated once per state and depth. */
static tiers_move *generation_buffer(tiers_script *s)
{
    int d = s->depth < SCRIPT_MAX_DEPTH ? s->depth : SCRIPT_MAX_DEPTH;
    if (!s->gen_buf[d])
        s->gen_buf[d] = malloc(TIERS_MAX_MOVES * sizeof *s->gen_buf[d]);
    return s->gen_buf[d];
}

/* Each legality try of pos:has_legal_move is charged to the budget. */
typedef struct spend_ctx {
    tiers_script *s;
    size_t cost;
    int spent;
} spend_ctx;

static int spend_squares(void *ctx)
{
    spend_ctx *c = ctx;
    c->spent = budget_charge(c->s, c->cost) < 0;
    return c->spent ? TIERS_ESCRIPT : 0;
}

/* pos:has_legal_move(): whether the side to move has a legal move (the
 * royal-safety test and every veto applied; game-end rules such as
 * repetition are not).  Makes moves, so not from after or apply, whose
 * move is still being made. */
static int l_has_legal_move(lua_State *L)
{
    tiers_script *s = script_of(L);
    tiers_pos *p = check_pos(L, NULL);
    if (s->cur.writable || p->frame)
        return luaL_error(L, "pos:has_legal_move: not available in hook %s (its move is "
                          "still being made)", hook_name[s->cur.hook]);
    budget_generation(L, p);
    tiers_move *buf = generation_buffer(s);
    if (!buf)
        return luaL_error(L, "pos:has_legal_move: out of memory");
    /* each try: a generation pass */
    spend_ctx spend = {s, (size_t)(p->v->files * p->v->ranks), 0};
    int found = movegen_has_legal(p, buf, TIERS_MAX_MOVES, spend_squares, &spend);
    if (spend.spent)
        return luaL_error(L, BUDGET_TEXT, (int)SCRIPT_INSTRUCTION_BUDGET);
    check_nested(L);
    if (found < 0)
        return luaL_error(L, "pos:has_legal_move: move generation failed (%s)",
                          found == TIERS_EFULL ? "a buffer is full" : "script error");
    lua_pushboolean(L, found);
    return 1;
}

/* pos:in_check_before([side]): in veto and expand, whether side (default:
 * the mover) was in check before the move being judged.  The move's
 * undo record is rolled back, the test made, and the position after the
 * move put back as it was (no hook runs again). */
static int l_in_check_before(lua_State *L)
{
    tiers_script *s = script_of(L);
    tiers_pos *p = check_pos(L, NULL);
    if (s->cur.hook == HK_EXPAND && s->cur.seed_call && !s->cur.seed_call->u)
        return luaL_error(L, "pos:in_check_before: with expand_before the move is not made: "
                             "pos:in_check() is the answer");
    if ((s->cur.hook != HK_VETO && s->cur.hook != HK_EXPAND) || p->frame || !p->depth)
        return luaL_error(L, "pos:in_check_before: only in hooks veto and expand");
    int side = check_side(L, 2, p->undo[p->depth - 1].st.side);
    budget_generation(L, p);
    int r = filter_check_before(p, side, &s->fs.before);
    check_nested(L);
    lua_pushboolean(L, r);
    return 1;
}

/* pos:reach(sq): the squares the top piece of sq could move to with the
 * table it now uses (tier, regions, over-enemy face), were the board
 * empty: no blocking, no via test.  A list of square names. */
static int l_reach(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    int sq = check_sq(L, 2, p);
    uint8_t mark[TIERS_MAX_SQUARES];
    budget_generation(L, p);
    movegen_reach(p, sq, mark);
    check_nested(L);
    lua_newtable(L);
    int k = 0;
    for (int s = 0; s < TIERS_MAX_SQUARES; s++)
        if (mark[s]) {
            tables_push_square(L, s);
            lua_rawseti(L, -2, ++k);
        }
    return 1;
}

/* pos:find(face [, owner]): where pieces showing `face` stand, buried or
 * not: a list of {square = ..., tier = ..., owner = ...}, by square. */
static int l_find(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    const tiers_variant *v = p->v;
    const char *name = luaL_checkstring(L, 2);
    int face = face_find(v, name), owner = lua_isnoneornil(L, 3) ? -1 : tables_check_owner(L, 3);
    if (face < 0)
        return luaL_argerror(L, 2, lua_pushfstring(L, "unknown face '%s'", name));
    lua_newtable(L);
    int k = 0;
    for (int r = 0; r < v->ranks; r++)
        for (int f = 0; f < v->files; f++) {
            int sq = sq_make(f, r);
            const tower *t = &p->board[sq];
            for (int i = 0; i < t->h; i++) {
                if (v->face_of[t->p[i]] != face || (owner >= 0 && pc_owner(t->p[i]) != owner))
                    continue;
                lua_createtable(L, 0, 3);
                tables_push_square(L, sq);
                lua_setfield(L, -2, "square");
                lua_pushinteger(L, i + 1);
                lua_setfield(L, -2, "tier");
                lua_pushinteger(L, pc_owner(t->p[i]));
                lua_setfield(L, -2, "owner");
                lua_rawseti(L, -2, ++k);
            }
        }
    return 1;
}

static int check_var(lua_State *L, int idx)
{
    lua_Integer i = luaL_checkinteger(L, idx);
    if (i < 1 || i > MAX_VARS)
        return luaL_argerror(L, idx, "variable index must be 1..8");
    return (int)i - 1;
}

static int l_var(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    lua_pushinteger(L, p->st.vars[check_var(L, 2)]);
    return 1;
}

static int l_setup(lua_State *L)
{
    lua_pushboolean(L, check_pos(L, NULL)->st.setup_left != 0);
    return 1;
}

static int l_ply(lua_State *L)
{
    lua_pushinteger(L, check_pos(L, NULL)->st.ply);
    return 1;
}

static int l_clock(lua_State *L)
{
    lua_pushinteger(L, check_pos(L, NULL)->st.clock);
    return 1;
}

static int l_mode(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    if (p->v->nmodes)
        lua_pushstring(L, p->v->modes[p->st.mode].name);
    else
        lua_pushnil(L);
    return 1;
}

static int l_square(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    lua_Integer f = luaL_checkinteger(L, 2), r = luaL_checkinteger(L, 3);
    if (f < 0 || f >= p->v->files || r < 0 || r >= p->v->ranks)
        return luaL_error(L, "square (%I, %I) is off the board (files 0..%d, ranks 0..%d)",
                          f, r, p->v->files - 1, p->v->ranks - 1);
    tables_push_square(L, sq_make((int)f, (int)r));
    return 1;
}

static int l_coords(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    int sq = check_sq(L, 2, p);
    lua_pushinteger(L, sq_file(sq));
    lua_pushinteger(L, sq_rank(sq));
    return 2;
}

/* -- editing (after and apply only) */

static int l_push(lua_State *L)
{
    tiers_pos *p = check_pos(L, "push");
    int sq = check_sq(L, 2, p);
    piece_t pc = tables_check_piece(L, 3, 4, -1);
    check_room(L, p, sq);
    pos_push(p, sq, pc);
    return 0;
}

static int l_pop(lua_State *L)
{
    lua_settop(L, 2);
    tiers_pos *p = check_pos(L, "pop");
    int sq = check_sq(L, 2, p);
    int tier = check_tier(L, 3, p, sq, 0, 1); /* no argument 3: the top */
    tables_push_piece(L, p->v, pos_pop(p, sq), tier);
    return 1;
}

static int l_insert(lua_State *L)
{
    tiers_pos *p = check_pos(L, "insert");
    int sq = check_sq(L, 2, p);
    int tier = check_tier(L, 3, p, sq, 1, 0);
    piece_t pc = tables_check_piece(L, 4, 5, -1);
    check_room(L, p, sq);
    pos_insert(p, sq, tier - 1, pc);
    return 0;
}

static int l_remove(lua_State *L)
{
    tiers_pos *p = check_pos(L, "remove");
    int sq = check_sq(L, 2, p);
    int tier = check_tier(L, 3, p, sq, 0, 1);
    tables_push_piece(L, p->v, pos_remove(p, sq, tier - 1), tier);
    return 1;
}

static int l_replace(lua_State *L)
{
    tiers_pos *p = check_pos(L, "replace");
    int sq = check_sq(L, 2, p);
    int tier = check_tier(L, 3, p, sq, 0, 0);
    piece_t pc = tables_check_piece(L, 4, 5, -1);
    pos_replace(p, sq, tier - 1, pc);
    return 0;
}

static int l_flip(lua_State *L)
{
    tiers_pos *p = check_pos(L, "flip");
    int sq = check_sq(L, 2, p);
    int tier = check_tier(L, 3, p, sq, 0, 1);
    piece_t pc = p->board[sq].p[tier - 1];
    const kind_def *k = &p->v->kinds[pc_kind(pc)];
    if (k->face[1] == NO_FACE)
        return luaL_error(L, "tile '%s' has no back face to flip to", k->name);
    pos_replace(p, sq, tier - 1, (piece_t)(pc ^ PC_FLIP));
    return 0;
}

static int l_set_owner(lua_State *L)
{
    tiers_pos *p = check_pos(L, "set_owner");
    int sq = check_sq(L, 2, p);
    int tier = check_tier(L, 3, p, sq, 0, 1);
    int owner = tables_check_owner(L, 4);
    piece_t pc = pc_with_owner(p->board[sq].p[tier - 1], owner);
    if (!p->v->uses_facing && owner != OWNER_SHARED)
        pc = pc_with_facing(pc, p->v->forward[owner]); /* faces its new side's way */
    pos_replace(p, sq, tier - 1, pc);
    return 0;
}

static int l_to_hand(lua_State *L)
{
    tiers_pos *p = check_pos(L, "to_hand");
    int owner = tables_check_owner(L, 2), kind, flipped;
    tables_check_tile(L, 3, &kind, &flipped);
    lua_Integer delta = luaL_optinteger(L, 4, 1);
    int slot = kind | (flipped ? PC_FLIP : 0);
    lua_Integer n = p->hand[owner][slot] + delta;
    if (n < 0 || n > 255)
        return luaL_error(L, "hand %d would hold %I %s (0..255)", owner, n,
                          p->v->faces[p->v->face_of[slot]].name);
    pos_hand_add(p, owner, slot, (int)delta);
    return 0;
}

static int l_set_var(lua_State *L)
{
    tiers_pos *p = check_pos(L, "set_var");
    int i = check_var(L, 2);
    lua_Integer value = luaL_checkinteger(L, 3);
    if (value < -32768 || value > 32767)
        return luaL_argerror(L, 3, "value must be -32768..32767");
    pos_set_var(p, i, (int)value);
    return 0;
}

static int l_pos_tostring(lua_State *L)
{
    tiers_script *s = script_of(L);
    uintptr_t gen = handle_gen(L, 1);
    lua_pushstring(L, s->cur.p && gen == (uintptr_t)s->cur.gen ? "tiers.pos"
                                                                : "tiers.pos (expired)");
    return 1;
}

static const luaL_Reg pos_methods[] = {
    {"side", l_side}, {"files", l_files}, {"ranks", l_ranks}, {"height", l_height},
    {"piece", l_piece}, {"top", l_top}, {"tower", l_tower}, {"hand", l_hand},
    {"in_check", l_in_check}, {"attacked", l_attacked}, {"var", l_var}, {"setup", l_setup},
    {"has_legal_move", l_has_legal_move}, {"in_check_before", l_in_check_before},
    {"reach", l_reach}, {"find", l_find},
    {"token", l_token}, {"ply", l_ply}, {"clock", l_clock}, {"mode", l_mode}, {"square", l_square},
    {"coords", l_coords}, {"push", l_push}, {"pop", l_pop}, {"insert", l_insert},
    {"remove", l_remove}, {"replace", l_replace}, {"flip", l_flip},
    {"set_owner", l_set_owner}, {"to_hand", l_to_hand}, {"set_var", l_set_var},
    {NULL, NULL}};

/* The metatable of the position handles (every light userdata): the
 * methods as __index, __tostring, and a locked __metatable. */
void handle_open_methods(lua_State *L)
{
    luaL_newmetatable(L, POS_META);
    luaL_newlib(L, pos_methods);
    lua_newtable(L); /* pos:token's and pos:occupied's tokens by piece code */
    lua_pushvalue(L, -1);
    lua_pushcclosure(L, l_token, 1);
    lua_setfield(L, -3, "token");
    lua_pushcclosure(L, l_occupied, 1);
    lua_setfield(L, -2, "occupied");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_pos_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    handle_push(L, 0); /* the metatable of every light userdata */
    lua_insert(L, -2);
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
}
