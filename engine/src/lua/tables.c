/* lua/tables.c - the values scripts see: read-only tables (a proxy
 * whose writes raise an error), the shared piece and move tables (made
 * once per piece code and tier, per move, from registry references), and
 * the checks that turn a script's piece or move table back into engine
 * values. */
#include "lua/internal.h"

#include <ctype.h>
#include <string.h>

#include "make.h"
#include "position.h"

/* ------------------------------------------------------------ names */

static int find_kind(const tiers_variant *v, const char *name)
{
    for (int k = 1; k < v->nkinds; k++)
        if (!strcmp(v->kinds[k].name, name))
            return k;
    return -1;
}

int tables_find_effect(const tiers_variant *v, const char *name)
{
    for (int i = 0; i < v->neffects; i++)
        if (!strcmp(v->effect_name[i], name))
            return i;
    return -1;
}

/* How many tile sides show face f (1 = the face names a tile and side). */
int tables_face_shown(const tiers_variant *v, int f)
{
    int n = 0;
    for (int k = 1; k < v->nkinds; k++)
        n += (v->kinds[k].face[0] == f) + (v->kinds[k].face[1] == f);
    return n;
}

/* "e5" (a Lua string of len bytes) -> square; -1 if malformed (a NUL byte
 * inside too: "a2\0" is not a2), -2 if off this board. */
int tables_parse_square(const tiers_variant *v, const char *s, size_t len)
{
    if (len < 2 || len > 3 || strlen(s) != len)
        return -1;
    if (s[0] < 'a' || s[0] > 'p' || s[1] < '1' || s[1] > '9')
        return -1;
    int file = s[0] - 'a', rank = s[1] - '0';
    if (isdigit((unsigned char)s[2])) {
        rank = rank * 10 + (s[2] - '0');
        if (s[3])
            return -1;
    } else if (s[2]) {
        return -1;
    }
    if (rank > TIERS_MAX_RANKS)
        return -1;
    if (file >= v->files || rank > v->ranks)
        return -2;
    return sq_make(file, rank - 1);
}

/* Pushes the Lua string s (len bytes) as a message shows it and returns
 * it: control bytes as \ddd (a NUL as \0), at most 40 bytes then "...",
 * so a name a NUL byte cuts short is not shown as the name it looks like. */
const char *tables_push_shown(lua_State *L, const char *s, size_t len)
{
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (size_t i = 0; i < len && i < 40; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\%u", c);
            luaL_addstring(&b, esc);
        } else {
            luaL_addchar(&b, (char)c);
        }
    }
    if (len > 40)
        luaL_addstring(&b, "...");
    luaL_pushresult(&b);
    return lua_tostring(L, -1);
}

/* The square's name ("e4", "a16"), written by hand: hooks push many. */
void tables_push_square(lua_State *L, int sq)
{
    char b[4];
    int r = sq_rank(sq) + 1, n = 1;
    b[0] = (char)('a' + sq_file(sq));
    if (r >= 10)
        b[n++] = (char)('0' + r / 10);
    b[n++] = (char)('0' + r % 10);
    lua_pushlstring(L, b, (size_t)n);
}

int tables_mode_tiers(const tiers_pos *p)
{
    const tiers_variant *v = p->v;
    int m = v->nmodes ? v->modes[p->st.mode].max_tiers : v->max_tiers;
    return m > 0 && m <= TIERS_MAX_TIERS ? m : TIERS_MAX_TIERS;
}

/* ------------------------------------------------------------ pieces */

static int l_read_only(lua_State *L)
{
    return luaL_error(L, "move and piece tables are read-only (copy one to change it)");
}

/* The iterator of pairs(read-only table): next over the contents, which
 * stay out of the script's reach in the closure's upvalue. */
static int l_read_only_next(lua_State *L)
{
    lua_settop(L, 2);
    return lua_next(L, lua_upvalueindex(1)) ? 2 : 0;
}

/* Pushes the contents of the read-only view at stack index 1: its
 * metatable's __index. */
static void push_contents(lua_State *L)
{
    if (!lua_getmetatable(L, 1))
        luaL_typeerror(L, 1, "read-only table");
    lua_getfield(L, -1, "__index");
}

/* __pairs of a read-only table */
static int l_read_only_pairs(lua_State *L)
{
    push_contents(L);
    lua_pushcclosure(L, l_read_only_next, 1);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* Is the value at idx a read-only view (tables_make_read_only)? */
static int is_read_only(lua_State *L, int idx)
{
    int ro = 0;
    if (lua_getmetatable(L, idx)) {
        ro = lua_getfield(L, -1, "__newindex") == LUA_TFUNCTION &&
             lua_tocfunction(L, -1) == l_read_only;
        lua_pop(L, 2);
    }
    return ro;
}

/* rawset(t, k, v), refused on a read-only view: a raw key would hide the
 * shared contents from every later hook. */
int tables_rawset(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    if (is_read_only(L, 1))
        return l_read_only(L);
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

static int l_read_only_len(lua_State *L)
{
    push_contents(L);
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
    return 1;
}

/* Replaces the table on top by a read-only view of it: an empty table
 * whose reads go to it, and whose writes raise an error. */
void tables_make_read_only(lua_State *L)
{
    lua_newtable(L);
    lua_createtable(L, 0, 5);
    lua_pushcfunction(L, l_read_only_len);
    lua_setfield(L, -2, "__len");
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, l_read_only);
    lua_setfield(L, -2, "__newindex");
    lua_pushcfunction(L, l_read_only_pairs);
    lua_setfield(L, -2, "__pairs");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_remove(L, -2);
}

/* A new piece table: face, kind, owner, flipped, facing, and the tier when
 * given (tables_push_piece keeps it). */
static void new_piece(lua_State *L, const tiers_variant *v, piece_t pc, int tier)
{
    const tiers_script *s = script_of(L);
    lua_createtable(L, 0, 6);
    push_ref(L, s->face_ref[v->face_of[pc]]);
    set_key(L, K_FACE);
    push_ref(L, s->tile_ref[pc_kind(pc)]);
    set_key(L, K_KIND);
    lua_pushinteger(L, pc_owner(pc));
    set_key(L, K_OWNER);
    lua_pushboolean(L, pc_flipped(pc));
    set_key(L, K_FLIPPED);
    push_ref(L, s->facing_ref[pc_facing(pc)]);
    set_key(L, K_FACING);
    if (tier > 0) {
        lua_pushinteger(L, tier);
        set_key(L, K_TIER);
    }
}

/* The piece table of pc at tier (0: none given).  Hooks read pieces by the
 * million: each piece's table is made once, read-only, and shared. */
void tables_push_piece(lua_State *L, const tiers_variant *v, piece_t pc, int tier)
{
    push_ref(L, script_of(L)->pieces_ref);
    lua_Integer key = (lua_Integer)pc * (TIERS_MAX_TIERS + 1) + tier;
    if (lua_rawgeti(L, -1, key) != LUA_TTABLE) {
        lua_pop(L, 1);
        new_piece(L, v, pc, tier);
        tables_make_read_only(L);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, key);
    }
    lua_remove(L, -2);
}


int tables_check_owner(lua_State *L, int idx)
{
    int isnum;
    lua_Integer o = lua_tointegerx(L, idx, &isnum);
    if (!isnum || o < 0 || o > 2)
        return luaL_argerror(L, idx, "owner must be 0, 1 or 2");
    return (int)o;
}

/* The tile kind and side named by a face (unique) or a kind (+face or
 * flipped) at stack index idx: a face-name string or a piece table. */
void tables_check_tile(lua_State *L, int idx, int *kind, int *flipped)
{
    const tiers_variant *v = script_of(L)->v;
    const char *kname = NULL, *fname = NULL;
    int flip = -1, top = lua_gettop(L);
    luaL_checkstack(L, 8, NULL);
    if (lua_type(L, idx) == LUA_TSTRING) {
        fname = lua_tostring(L, idx);
    } else if (lua_type(L, idx) == LUA_TTABLE) {
        if (lua_getfield(L, idx, "kind") == LUA_TSTRING)
            kname = lua_tostring(L, -1);
        else if (!lua_isnil(L, -1))
            luaL_error(L, "piece field 'kind' must be a tile name");
        if (lua_getfield(L, idx, "face") == LUA_TSTRING)
            fname = lua_tostring(L, -1);
        else if (!lua_isnil(L, -1))
            luaL_error(L, "piece field 'face' must be a face name");
        int t = lua_getfield(L, idx, "flipped");
        if (t == LUA_TBOOLEAN)
            flip = lua_toboolean(L, -1);
        else if (t != LUA_TNIL)
            luaL_error(L, "piece field 'flipped' must be a boolean");
    } else {
        luaL_typeerror(L, idx, "piece (face name or piece table)");
    }
    if (kname) {
        int k = find_kind(v, kname);
        if (k < 0)
            luaL_error(L, "unknown tile kind '%s'", kname);
        if (fname) {
            int f = face_find(v, fname);
            if (f < 0)
                luaL_error(L, "unknown face '%s'", fname);
            if (v->kinds[k].face[0] == f)
                flip = 0;
            else if (v->kinds[k].face[1] == f)
                flip = 1;
            else
                luaL_error(L, "face '%s' is not on tile '%s'", fname, kname);
        }
        if (flip < 0)
            flip = 0;
        if (flip && v->kinds[k].face[1] == NO_FACE)
            luaL_error(L, "tile '%s' has no back face", kname);
        *kind = k;
        *flipped = flip;
        lua_settop(L, top);
        return;
    }
    if (!fname)
        luaL_error(L, "piece names neither a face nor a kind");
    int f = face_find(v, fname);
    if (f < 0)
        luaL_error(L, "unknown face '%s'", fname);
    if (tables_face_shown(v, f) != 1)
        luaL_error(L, "face '%s' is on several tiles: give kind too", fname);
    for (int k = 1; k < v->nkinds; k++)
        for (int side = 0; side < 2; side++)
            if (v->kinds[k].face[side] == f) {
                *kind = k;
                *flipped = side;
                lua_settop(L, top);
                return;
            }
    luaL_error(L, "face '%s' is on no tile", fname);
}

/* A piece code from a description at idx; the owner comes from the
 * argument at owner_idx (0 = none), else the table, else default_owner
 * (-1 = required). */
piece_t tables_check_piece(lua_State *L, int idx, int owner_idx, int default_owner)
{
    const tiers_variant *v = script_of(L)->v;
    int kind, flipped, owner = -1, facing = -1;
    idx = lua_absindex(L, idx);
    int top = lua_gettop(L);
    tables_check_tile(L, idx, &kind, &flipped);
    if (lua_type(L, idx) == LUA_TTABLE) {
        if (lua_getfield(L, idx, "owner") != LUA_TNIL) {
            int isnum;
            lua_Integer o = lua_tointegerx(L, -1, &isnum);
            if (!isnum || o < 0 || o > 2)
                luaL_error(L, "piece field 'owner' must be 0, 1 or 2");
            owner = (int)o;
        }
        if (lua_getfield(L, idx, "facing") != LUA_TNIL) {
            const char *fc = lua_tostring(L, -1);
            const char *at = fc && fc[0] && !fc[1] ? strchr(facing_chars, fc[0]) : NULL;
            if (lua_type(L, -1) != LUA_TSTRING || !at)
                luaL_error(L, "piece field 'facing' must be \"n\", \"e\", \"s\" or \"w\"");
            facing = (int)(at - facing_chars);
        }
        lua_settop(L, top);
    }
    if (owner_idx && !lua_isnoneornil(L, owner_idx))
        owner = tables_check_owner(L, owner_idx);
    if (owner < 0)
        owner = default_owner;
    if (owner < 0)
        luaL_error(L, "piece has no owner (give owner 0, 1 or 2)");
    if (facing < 0)
        facing = v->forward[owner == OWNER_SHARED ? 0 : owner];
    return pc_make(kind, flipped, owner, facing);
}


/* A new move table for k (tables_push_move keeps it). */
static void new_move(lua_State *L, const tiers_variant *v, const move_key *k)
{
    const tiers_script *s = script_of(L);
    const tiers_move *m = &k->m;
    piece_t actor = k->actor, taken = k->taken;
    lua_createtable(L, 0, 12);
    push_ref(L, s->kind_ref[m->kind < TIERS_MV_KINDS ? m->kind : 0]);
    set_key(L, K_KIND);
    if (m->from != TIERS_NO_SQUARE) {
        tables_push_square(L, m->from);
        set_key(L, K_FROM);
    }
    if (m->to != TIERS_NO_SQUARE) {
        tables_push_square(L, m->to);
        set_key(L, K_TO);
    }
    lua_pushinteger(L, m->tier);
    set_key(L, K_TIER);
    lua_pushinteger(L, m->arg);
    set_key(L, K_ARG);
    if (actor) {
        tables_push_piece(L, v, actor, m->kind == TIERS_MV_STRIKE ? m->tier : 0);
        set_key(L, K_PIECE);
    }
    if (taken) {
        tables_push_piece(L, v, taken, m->kind == TIERS_MV_STRIKE ? m->arg : 0);
        set_key(L, K_TAKEN);
    }
    if (k->setup) {
        lua_pushboolean(L, 1);
        set_key(L, K_SETUP);
    }
    if (m->effect && m->effect <= v->neffects) {
        lua_pushstring(L, v->effect_name[m->effect - 1]);
        set_key(L, K_EFFECT);
    }
    if (m->npath)
        lua_createtable(L, m->npath, 0);
    else
        push_ref(L, s->empty_ref);
    for (int i = 0; i < m->npath && i < 4; i++) {
        if (m->path[i] == TIERS_NO_SQUARE)
            lua_pushliteral(L, "out");
        else
            tables_push_square(L, m->path[i]);
        lua_rawseti(L, -2, i + 1);
    }
    if (m->npath)
        tables_make_read_only(L);
    set_key(L, K_PATH);
    if (m->flags & TIERS_MF_EXIT) {
        lua_pushboolean(L, 1);
        set_key(L, K_EXIT);
    }
    if (m->flags & TIERS_MF_FINAL) {
        lua_pushboolean(L, 1);
        set_key(L, K_FINAL);
    }
}

static uint64_t move_key_hash(const move_key *k)
{
    uint64_t w[4] = {0};
    memcpy(w, k, sizeof *k);
    uint64_t h = (w[0] ^ w[1] * 0x9e3779b97f4a7c15ull ^ w[2] * 0xc2b2ae3d27d4eb4full ^
                  w[3] * 0x165667b19e3779f9ull);
    return (h ^ h >> 29) * 0xbf58476d1ce4e5b9ull;
}

/* A move as a table.  u: the move's undo record when it is made on p, so
 * that `piece` and `taken` describe the pieces as they were before it.
 * The table is read-only, and the same move gets the same table: it is
 * made once and kept (MOVE_CACHE of them), as pieces are. */
void tables_push_move(lua_State *L, const tiers_pos *p, const tiers_move *m, const undo_rec *u)
{
    tiers_script *s = script_of(L);
    move_key k;
    memset(&k, 0, sizeof k);
    k.m = *m;
    for (int i = m->npath; i < 4; i++) /* unused: not part of what is shown */
        k.m.path[i] = 0;
    filter_actors(p, u, m, &k.actor, &k.taken);
    k.setup = (uint8_t)filter_in_setup(p, u);
    k.used = 1;
    size_t slot = (size_t)(move_key_hash(&k) >> 54) & (MOVE_CACHE - 1);
    push_ref(L, s->moves_ref);
    if (!memcmp(&s->move_keys[slot], &k, sizeof k)) {
        if (lua_rawgeti(L, -1, (lua_Integer)slot + 1) == LUA_TTABLE) {
            lua_remove(L, -2);
            return;
        }
        lua_pop(L, 1);
    }
    new_move(L, p->v, &k);
    tables_make_read_only(L);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, (lua_Integer)slot + 1);
    lua_remove(L, -2);
    s->move_keys[slot] = k;
}


/* The value on top of the stack as a square named `what`: nil ->
 * TIERS_NO_SQUARE; "out" too where out_ok (deployment paths). */
int tables_move_square(lua_State *L, const char *what, int out_ok, const char **why)
{
    const tiers_variant *v = script_of(L)->v;
    int t = lua_type(L, -1), sq = TIERS_NO_SQUARE;
    if (t == LUA_TSTRING) {
        size_t len;
        const char *name = lua_tolstring(L, -1, &len);
        if (out_ok && len == 3 && !strcmp(name, "out"))
            return TIERS_NO_SQUARE;
        if ((sq = tables_parse_square(v, name, len)) < 0) {
            const char *shown = tables_push_shown(L, name, len);
            *why = lua_pushfstring(L, "%s '%s' is %s", what, shown,
                                   sq == -2              ? "off the board"
                                   : strlen(name) != len ? "not a square name (it holds a NUL byte)"
                                                         : "not a square name");
            return TIERS_NO_SQUARE;
        }
    } else if (t != LUA_TNIL) {
        *why = lua_pushfstring(L, "%s must be a square name", what);
    }
    return sq;
}

/* A move table being read: its stack index, and when it has no metatable
 * (a plain table, as hooks return), where each key's value was left on
 * the stack by one walk over its fields (0: absent). */
typedef struct move_reader {
    int idx, plain;
    int at[NKEYS];
} move_reader;

/* Walks a plain table once, leaving the value of each key of the move
 * tables on the stack: a few steps for a table of three fields, where a
 * lookup of each key the engine reads would take a dozen. */
static void reader_open(lua_State *L, move_reader *r, int idx)
{
    const tiers_script *s = script_of(L);
    *r = (move_reader){.idx = idx};
    if (lua_getmetatable(L, idx)) { /* __index may answer: ask key by key */
        lua_pop(L, 1);
        return;
    }
    r->plain = 1;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        int k = NKEYS;
        if (lua_type(L, -2) == LUA_TSTRING) {
            const char *key = lua_tostring(L, -2);
            for (k = 0; k < NKEYS && key != s->key_str[k]; k++)
                ;
        }
        if (k == NKEYS) {
            lua_pop(L, 1);
            continue;
        }
        lua_rotate(L, -2, 1); /* the value stays below the key */
        r->at[k] = lua_gettop(L) - 1;
    }
}

/* Pushes t[key] for a key of the move tables and returns its type. */
static int get_key(lua_State *L, const move_reader *r, int key)
{
    if (r->plain) {
        if (!r->at[key]) {
            lua_pushnil(L);
            return LUA_TNIL;
        }
        lua_pushvalue(L, r->at[key]);
        return lua_type(L, -1);
    }
    push_ref(L, script_of(L)->key_ref[key]); /* the string without hashing it again */
    return lua_gettable(L, r->idx);
}

static int move_byte(lua_State *L, const move_reader *r, int k, const char *key,
                     const char **why)
{
    int t = get_key(L, r, k), isnum = 1;
    lua_Integer n = t == LUA_TNIL ? 0 : lua_tointegerx(L, -1, &isnum);
    if (!isnum || n < 0 || n > 255) {
        *why = lua_pushfstring(L, "%s must be an integer 0..255", key);
        return 0;
    }
    return (int)n;
}

static int move_flag(lua_State *L, const move_reader *r, int k, const char *key,
                     const char **why)
{
    int t = get_key(L, r, k);
    if (t != LUA_TNIL && t != LUA_TBOOLEAN)
        *why = lua_pushfstring(L, "%s must be a boolean", key);
    return lua_toboolean(L, -1);
}

/* Can the engine make m as it stands?  Returns NULL or why not.  These
 * checks keep make_move inside its arrays: generated moves are trusted. */
static const char *move_problem(lua_State *L, const tiers_pos *p, const tiers_move *m)
{
    const tiers_variant *v = p->v;
    int maxt = tables_mode_tiers(p);
    const tower *from = m->from != TIERS_NO_SQUARE ? &p->board[m->from] : NULL;
    const tower *to = m->to != TIERS_NO_SQUARE ? &p->board[m->to] : NULL;
    switch (m->kind) {
    case TIERS_MV_DROP:
        if (!to)
            return "a drop needs 'to'";
        if (!p->hand[pc_owner(m->piece)][hand_slot(m->piece)])
            return lua_pushfstring(L, "no %s in hand %d to drop",
                                   v->faces[v->face_of[m->piece]].name, pc_owner(m->piece));
        if (to->h >= maxt)
            return "the drop's tower is full";
        return NULL;
    case TIERS_MV_MOVE:
    case TIERS_MV_STACK:
    case TIERS_MV_CAPTURE: {
        if (!from || !from->h)
            return "'from' must hold a piece";
        if (m->flags & TIERS_MF_EXIT)
            return m->kind == TIERS_MV_CAPTURE ? "a capture cannot exit" : NULL;
        if (!to || m->to == m->from)
            return "'to' must be another square";
        int moved = v->unit == UNIT_STACK ? from->h : 1, stays = to->h;
        if (m->kind == TIERS_MV_CAPTURE) {
            if (!to->h)
                return "a capture needs a piece on 'to'";
            if (v->capture == CAP_TOP)
                stays = to->h - 1;
            else if (v->capture == CAP_TOWER)
                stays = 0;
            else if (v->capture == CAP_ENEMIES)
                for (int i = stays = 0; i < to->h; i++) {
                    int o = pc_owner(to->p[i]);
                    stays += o == p->st.side || o == OWNER_SHARED;
                }
        }
        if (stays + moved > maxt)
            return "the tower at 'to' would grow past the tier limit";
        return NULL;
    }
    case TIERS_MV_STRIKE:
        if (!from || m->tier < 1 || m->tier > from->h || m->arg < 1 || m->arg > from->h ||
            m->tier == m->arg)
            return "a strike needs 'from' and two different tiers of its tower (tier, arg)";
        return NULL;
    case TIERS_MV_READY:
        return NULL;
    case TIERS_MV_ROTATE:
        return from && from->h ? NULL : "'from' must hold a piece";
    case TIERS_MV_DEPLOY:
        return "kind 'deploy' cannot be added by a script";
    case TIERS_MV_EFFECT:
        if (!m->effect || p->v->script->fx[m->effect - 1].ref[HK_APPLY] == LUA_NOREF)
            return lua_pushfstring(L, "effect '%s' has no apply hook",
                                   m->effect ? v->effect_name[m->effect - 1] : "?");
        return NULL;
    default:
        return "unknown kind";
    }
}

/* Reads the move table at idx (an entry of a `moves` result). */
/* Reads the fields of the move table at idx into m, whatever the position:
 * NULL, or why the table is no move.  side: the owner of a drop's piece
 * when the table names none (-1: it must name one).  A kind "effect"
 * move without an `effect` field is left with m->effect 0. */
static const char *read_move(lua_State *L, int idx, const tiers_script *s, int side,
                             tiers_move *m)
{
    const tiers_variant *v = s->v;
    const char *why = NULL;
    *m = (tiers_move){0};
    move_reader r;
    reader_open(L, &r, idx);
    /* The kind names are short strings, which Lua keeps once each: the
       kind is the one whose string is this very string. */
    if (get_key(L, &r, K_KIND) == LUA_TSTRING) {
        const char *kind = lua_tostring(L, -1);
        for (int k = 1; k < TIERS_MV_KINDS && !m->kind; k++)
            if (kind == s->kind_str[k])
                m->kind = (uint8_t)k;
    }
    if (!m->kind)
        return "kind must be one of drop, move, stack, capture, strike, ready, rotate, "
               "deploy, effect";
    get_key(L, &r, K_FROM);
    m->from = (tiers_square)tables_move_square(L, "from", 0, &why);
    get_key(L, &r, K_TO);
    m->to = (tiers_square)tables_move_square(L, "to", 0, &why);
    m->tier = (uint8_t)move_byte(L, &r, K_TIER, "tier", &why);
    m->arg = (uint8_t)move_byte(L, &r, K_ARG, "arg", &why);
    if (move_flag(L, &r, K_EXIT, "exit", &why))
        m->flags |= TIERS_MF_EXIT;
    if (move_flag(L, &r, K_FINAL, "final", &why))
        m->flags |= TIERS_MF_FINAL;
    if (why)
        return why;
    int t = get_key(L, &r, K_EFFECT);
    if (t == LUA_TSTRING) {
        size_t len;
        const char *name = lua_tolstring(L, -1, &len);
        int e = strlen(name) == len ? tables_find_effect(v, name) : -1;
        if (e < 0)
            return lua_pushfstring(L, "unknown effect '%s'", tables_push_shown(L, name, len));
        m->effect = (uint8_t)(e + 1);
    } else if (t != LUA_TNIL) {
        return "effect must be an effect name";
    }
    t = get_key(L, &r, K_PATH);
    if (t == LUA_TTABLE) {
        int pi = lua_gettop(L);
        lua_Integer n = luaL_len(L, pi); /* a hook's own move's path is read-only */
        if (n < 0 || n > 4)
            return "path holds at most 4 squares";
        for (int i = 0; i < (int)n; i++) {
            lua_geti(L, pi, i + 1);
            m->path[i] = (tiers_square)tables_move_square(L, "path square", 1, &why);
            if (why)
                return why;
        }
        m->npath = (uint8_t)n;
    } else if (t != LUA_TNIL) {
        return "path must be a list of squares";
    }
    if (m->kind == TIERS_MV_DROP) {
        if (get_key(L, &r, K_PIECE) == LUA_TNIL)
            return "a drop needs 'piece'";
        m->piece = tables_check_piece(L, -1, 0, side);
        if (v->uses_facing) {
            m->flags |= TIERS_MF_FACING;
            m->arg = (uint8_t)pc_facing(m->piece);
        }
    }
    return NULL;
}

/* The move fixed_move (or the variant fixed_variant) made of the table at
 * idx, into m: 1, or 0 when the table is none of them (a plain table has
 * no metatable: never one).  A variant has kind TIERS_MV_NONE. */
int tables_fixed_lookup(lua_State *L, int idx, tiers_move *m)
{
    tiers_script *s = script_of(L);
    const void *table = lua_topointer(L, idx);
    struct fixed_hit *hit = &s->fixed_hits[((uintptr_t)table >> 4) & (FIXED_HITS - 1)];
    if (table && hit->table == table) { /* (a hook returns the same few) */
        *m = hit->m;
        return 1;
    }
    if (!lua_getmetatable(L, idx))
        return 0;
    lua_pop(L, 1);
    push_ref(L, s->fixed_ref);
    lua_pushvalue(L, idx);
    int found = lua_rawget(L, -2) == LUA_TUSERDATA;
    if (found)
        memcpy(m, lua_touserdata(L, -1), sizeof *m);
    lua_pop(L, 2);
    if (found && lua_checkstack(L, 3)) { /* in its slot, in place of another */
        hit->table = NULL; /* (luaL_ref may raise an error) */
        luaL_unref(L, LUA_REGISTRYINDEX, hit->ref);
        hit->ref = LUA_NOREF;
        lua_pushvalue(L, idx);
        hit->ref = luaL_ref(L, LUA_REGISTRYINDEX);
        hit->m = *m;
        hit->table = table;
    }
    return found;
}

/* Reads the move table at idx (entry `entry` of a `moves` result) and
 * checks that the engine can make it on c->p. */
void tables_check_move(lua_State *L, int idx, call *c, int entry, tiers_move *m)
{
    const char *why = NULL;
    int top = lua_gettop(L);
    luaL_checkstack(L, 40, NULL);
    if (!lua_istable(L, idx)) {
        *m = (tiers_move){0};
        why = lua_pushfstring(L, "is a %s, not a move table", luaL_typename(L, idx));
        goto bad;
    }
    if (!tables_fixed_lookup(L, idx, m) &&
        (why = read_move(L, idx, c->s, c->p->st.side, m)) != NULL)
        goto bad;
    if (m->kind == TIERS_MV_NONE) {
        why = "is a fixed_variant, not a move";
        goto bad;
    }
    if (m->kind == TIERS_MV_EFFECT && !m->effect)
        m->effect = (uint8_t)(c->effect + 1);
    if ((why = move_problem(L, c->p, m)) != NULL)
        goto bad;
    lua_settop(L, top);
    return;
bad:
    luaL_error(L, "move %d returned by hook moves: %s", entry, why);
}

/* The table on top made read-only and kept with m (fixed_move's and
 * fixed_variant's), for tables_fixed_lookup; returns 1 (it stays on top). */
static int keep_fixed(lua_State *L, const tiers_move *m)
{
    tables_make_read_only(L);
    tiers_move *u = lua_newuserdatauv(L, sizeof *u, 0);
    *u = *m;
    push_ref(L, script_of(L)->fixed_ref);
    lua_pushvalue(L, -3);
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
    lua_pop(L, 2);
    return 1;
}

/* fixed_move{...}: the move the table describes, checked now and kept as a
 * read-only move table (as hooks are given).  What the checks found stays
 * true, so a moves hook that returns it is read with one lookup instead of
 * a walk over its fields; what depends on the position (a piece on
 * `from`, a drop's piece in hand, ...) is checked each time. */
int tables_fixed_move(lua_State *L)
{
    tiers_script *s = script_of(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    luaL_checkstack(L, 40, NULL);
    move_key k;
    memset(&k, 0, sizeof k);
    const char *why = read_move(L, 1, s, -1, &k.m);
    if (!why && k.m.kind == TIERS_MV_DEPLOY)
        why = "kind 'deploy' cannot be added by a script";
    if (why)
        return luaL_error(L, "fixed_move: %s", why);
    lua_settop(L, 1);
    if (k.m.kind == TIERS_MV_DROP)
        k.actor = k.m.piece;
    new_move(L, s->v, &k);
    return keep_fixed(L, &k.m);
}

/* The fields of the expand variant at idx (an absolute index; path, arg)
 * over m; *given: bit
 * VARIANT_ARG, VARIANT_PATH for each field given (none: the move as it
 * is).  Returns why it is no variant, or NULL. */
const char *tables_read_variant(lua_State *L, int idx, tiers_move *m, int *given)
{
    *given = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        if (!strcmp(key, "arg")) {
            int isnum;
            lua_Integer a = lua_tointegerx(L, -1, &isnum);
            if (!isnum || a < 0 || a > 255)
                return "arg must be an integer 0..255";
            m->arg = (uint8_t)a;
            *given |= VARIANT_ARG;
        } else if (!strcmp(key, "path")) {
            int pi = lua_gettop(L);
            lua_Integer np = lua_istable(L, pi) ? luaL_len(L, pi) : 5;
            if (np < 0 || np > 4)
                return "path must be a list of at most 4 squares";
            for (int j = 0; j < (int)np; j++) {
                const char *why = NULL;
                lua_geti(L, pi, j + 1);
                int sq = tables_move_square(L, "path square", 1, &why);
                if (why || lua_isnil(L, -1))
                    return why ? why : "path squares must be square names";
                m->path[j] = (tiers_square)sq;
                lua_settop(L, pi);
            }
            m->npath = (uint8_t)np;
            *given |= VARIANT_PATH;
        } else {
            return lua_pushfstring(L, "unknown field '%s' (path, arg)", key);
        }
        lua_settop(L, idx + 1); /* keep the key for lua_next */
    }
    return NULL;
}

/* fixed_variant{...}: an expand variant checked now and kept as a
 * read-only copy, which an expand hook that returns it costs the engine
 * one lookup instead of a reading of its fields. */
int tables_fixed_variant(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    luaL_checkstack(L, 20, NULL);
    tiers_move m = {0};
    int given;
    const char *why = tables_read_variant(L, 1, &m, &given);
    if (why)
        return luaL_error(L, "fixed_variant: %s", why);
    lua_settop(L, 1);
    m.kind = TIERS_MV_NONE; /* a variant, not a move */
    m.flags = (uint8_t)given;
    lua_createtable(L, 0, 2); /* the copy: what was read, nothing else */
    if (given & VARIANT_ARG) {
        lua_pushinteger(L, m.arg);
        lua_setfield(L, -2, "arg");
    }
    if (given & VARIANT_PATH) {
        lua_createtable(L, m.npath, 0);
        for (int i = 0; i < m.npath; i++) {
            if (m.path[i] == TIERS_NO_SQUARE)
                lua_pushliteral(L, "out");
            else
                tables_push_square(L, m.path[i]);
            lua_rawseti(L, -2, i + 1);
        }
        tables_make_read_only(L);
        lua_setfield(L, -2, "path");
    }
    return keep_fixed(L, &m);
}
