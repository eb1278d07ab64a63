/* script.c - the variant's Lua effects (docs/lua-api.md).
 *
 * One sandboxed Lua 5.4 state per variant: only the base, table, string,
 * math and utf8 libraries; a memory cap enforced by the allocator; an
 * instruction budget per hook call enforced by a count hook; math.random
 * drawn from the position's generator.  Script files register effects with
 * `effect{ name = ..., <hook> = function ... end }`; each hook function is
 * kept as a registry reference and listed per hook, so the core pays one
 * bit test (v->hooks) for hooks no effect defines.
 *
 * Every call into Lua goes through run_hook: a lua_pcall of a C trampoline
 * that pushes the arguments, calls the hook and converts its results, so
 * an error or a failed allocation anywhere unwinds to the pcall and never
 * across the engine's C frames.  The position handle given to a hook is a
 * userdata stamped with the call's generation number; it is refused once
 * the call has returned.  Scripts change a position only through the pos_*
 * edit primitives (position.h), so unmake and the hash stay exact.
 *
 * This is the only file that includes the Lua headers. */
#include "lua/script.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "make.h"
#include "movegen.h"
#include "notation.h"
#include "position.h"
#include "rng.h"

#ifndef SCRIPT_MEMORY_LIMIT
#define SCRIPT_MEMORY_LIMIT ((size_t)64 << 20)   /* bytes per Lua state */
#endif
#ifndef SCRIPT_INSTRUCTION_BUDGET
#define SCRIPT_INSTRUCTION_BUDGET 10000000L      /* VM instructions per hook call */
#endif
#define SCRIPT_COUNT_STEP 1000        /* the count hook runs every N instructions */
#define SCRIPT_SECONDS 20.0           /* the time guard (TIERS_LUA_SECONDS) */
#define SCRIPT_MAX_DEPTH 8            /* hooks run from inside hooks (pos:in_check) */
#define SCRIPT_NESTED_COST 100        /* instructions a hook run from a hook counts */
#define SCRIPT_MAX_FILE (4L << 20)    /* bytes of one script file */
#define POS_META "tiers.pos"

/* The hooks an effect may define.  hook_bit is the HOOK_* bit the core
 * tests; `format` has none (notation calls it for EFFECT moves). */
enum { HK_MOVES, HK_VETO, HK_AFTER, HK_TIER, HK_DROP_OK, HK_RESULT, HK_APPLY, HK_FORMAT,
       HK_EXPAND, HK_CHECK, HK_EVALUATE, HK_COUNT };
static const char *const hook_name[HK_COUNT] = {"moves", "veto", "after", "tier", "drop_ok",
                                                "result", "apply", "format", "expand",
                                                "check", "evaluate"};
static const uint32_t hook_bit[HK_COUNT] = {HOOK_MOVES, HOOK_VETO, HOOK_AFTER, HOOK_TIER,
                                            HOOK_DROP, HOOK_RESULT, HOOK_APPLY, 0,
                                            HOOK_EXPAND, HOOK_CHECK, HOOK_EVALUATE};
static const uint8_t hook_writes[HK_COUNT] = {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};

/* Narrowing a hook: an effect may give <hook>_faces, _taken, _kinds,
 * _ranks, _heights, _setup, _check or _vars (docs/lua-api.md).  The engine
 * then tests the move (or position) in C and calls the hook only when it
 * passes, so a hook that concerns a few moves costs the others a few
 * comparisons instead of a Lua call. */
enum { FL_FACES, FL_TAKEN, FL_KINDS, FL_RANKS, FL_HEIGHTS, FL_SETUP, FL_CHECK, FL_CHECKED,
       FL_STUCK, FL_FILE_FACES, FL_FILE_HEIGHTS, FL_DOUBLED, FL_PURE, FL_TO_MOVE, FL_VARS,
       FL_TIERS, FL_CONTROLLED, FL_BESIDE_ROYAL, FL_COUNT };
static const char *const filter_name[FL_COUNT] = {
    "faces", "taken", "kinds", "ranks", "heights", "setup", "check", "checked",
    "stuck", "file_faces", "file_heights", "doubled", "pure", "to_move", "vars", "tiers",
    "controlled", "beside_royal"};
#define FLB(x) (1u << FL_##x)
static const uint32_t filter_ok[HK_COUNT] = {
    [HK_VETO] = FLB(FACES) | FLB(TAKEN) | FLB(KINDS) | FLB(RANKS) | FLB(HEIGHTS) |
                FLB(SETUP) | FLB(CHECK) | FLB(CHECKED) | FLB(FILE_FACES) |
                FLB(FILE_HEIGHTS) | FLB(DOUBLED) | FLB(VARS),
    [HK_AFTER] = FLB(FACES) | FLB(TAKEN) | FLB(KINDS) | FLB(RANKS) | FLB(HEIGHTS) |
                 FLB(SETUP) | FLB(CHECK) | FLB(FILE_FACES) | FLB(FILE_HEIGHTS) |
                 FLB(DOUBLED) | FLB(VARS),
    [HK_EXPAND] = FLB(FACES) | FLB(TAKEN) | FLB(KINDS) | FLB(RANKS) | FLB(SETUP) |
                  FLB(CHECKED) | FLB(STUCK),
    [HK_MOVES] = FLB(FACES) | FLB(HEIGHTS) | FLB(TIERS) | FLB(CONTROLLED) | FLB(SETUP) |
                 FLB(CHECK) | FLB(VARS) | FLB(PURE) | FLB(BESIDE_ROYAL),
    [HK_RESULT] = FLB(SETUP) | FLB(CHECK) | FLB(VARS),
    [HK_DROP_OK] = FLB(FACES) | FLB(PURE),
    [HK_CHECK] = FLB(TO_MOVE)};

typedef struct hook_filter {
    uint8_t on;               /* some field given: the hook is narrowed */
    uint8_t move_test;        /* a field besides vars given */
    uint8_t never;            /* an empty list given: the move test never passes */
    uint8_t lo, hi;           /* own ranks of the destination, 0 = any */
    uint8_t setup;            /* 0 any phase, 1 setup moves only, 2 play only */
    uint8_t check;            /* moves: the side to move is in check; veto, after:
                                 the move leaves its player's opponent in check */
    uint8_t checked;          /* veto, expand: the mover was in check before the move */
    uint8_t stuck;            /* expand: the actor may be stuck where it lands */
    uint8_t doubled;          /* veto, after: the move's tower holds two pieces
                                 of one face and owner */
    uint16_t file_heights;    /* veto, after: another tower of the destination's file
                                 has one of these heights */
    uint64_t file_faces;      /* veto, after: the destination's file holds two or more
                                 of the mover's pieces showing one of these faces */
    uint8_t pure;             /* drop_ok, moves: answers cached (script_drop_ok,
                                 script_moves) */
    uint8_t to_move;          /* check: asked only about the side to move */
    uint8_t vars;             /* bit per position variable */
    uint16_t kinds;           /* bit per move kind, 0 = any */
    uint16_t heights;         /* bit per tower height, 0 = any */
    uint16_t tiers;           /* moves: bit per tier the listed face stands at */
    uint8_t controlled;       /* moves: that tower's top is the side's own */
    uint8_t beside_royal;     /* moves: that tower is orthogonally next to one
                                 of the side's royal pieces */
    uint64_t faces, taken;    /* bit per face of the acting / taken piece */
} hook_filter;

static const char *const kind_name[TIERS_MV_KINDS] = {
    "none", "drop", "move", "stack", "capture", "strike", "ready", "rotate", "deploy",
    "effect"};
static const char facing_chars[] = "nesw";

/* Keys of the move and piece tables. */
enum { K_KIND, K_FROM, K_TO, K_TIER, K_ARG, K_PIECE, K_TAKEN, K_SETUP, K_EFFECT, K_PATH,
       K_EXIT, K_FINAL, K_FACE, K_OWNER, K_FLIPPED, K_FACING, NKEYS };
static const char *const key_name[NKEYS] = {
    "kind", "from", "to", "tier", "arg", "piece", "taken", "setup", "effect", "path",
    "exit", "final", "face", "owner", "flipped", "facing"};

/* Globals of the standard Lua that the sandbox leaves out: reading one
 * raises "'NAME' is not available in tiers scripts". */
static const char *const blocked_globals[] = {
    "os", "io", "package", "debug", "require", "dofile", "loadfile", "coroutine",
    "loadstring", "module", "setfenv", "getfenv", NULL};

/* The answers of a moves hook with moves_pure, by the key of what it may
 * read (see moves_pass); direct-mapped, allocated when the script loads. */
enum { MEMO_SLOTS = 256, MEMO_MOVES = 8 };
typedef struct moves_memo {
    uint64_t key;
    uint8_t used, n;
    tiers_move m[MEMO_MOVES];
} moves_memo;

/* An expand hook given as a constant list, e.g. {{}, {arg = 1}}: the
 * engine adds the variants itself, with no Lua call (plain: the move as
 * it is; else a copy tagged with the effect, with this arg). */
enum { MAX_FIXED_VARIANTS = 8 };
typedef struct fixed_variant {
    uint8_t plain, arg;
} fixed_variant;

typedef struct effect_rec {
    int ref[HK_COUNT];        /* registry reference, LUA_NOREF if absent,
                                 LUA_REFNIL for a fixed expand list or for
                                 `veto = true` (the filter is the rule) */
    uint8_t nfixed;           /* its variants, when ref[HK_EXPAND] is LUA_REFNIL */
    moves_memo *memo;         /* MEMO_SLOTS answers of a pure moves hook, or NULL */
    fixed_variant fixed[MAX_FIXED_VARIANTS];
    int line[HK_COUNT];       /* where the hook function is defined */
    char src[HK_COUNT][LUA_IDSIZE];
    hook_filter filter[HK_COUNT];
} effect_rec;

/* The hook being run: what a position handle and math.random refer to. */
typedef struct hook_ctx {
    tiers_pos *p;             /* NULL outside hooks */
    uint64_t gen;             /* generation a live handle must carry */
    int hook, effect;
    int writable;
} hook_ctx;

/* What a move table shows: the move, its pieces as they were before it,
 * and whether it is a setup move (no padding: compared with memcmp). */
typedef struct move_key {
    tiers_move m;
    piece_t actor, taken;
    uint8_t setup, used;
} move_key;

_Static_assert(sizeof(move_key) == sizeof(tiers_move) + 2 * sizeof(piece_t) + 2 &&
                   sizeof(move_key) <= 24,
               "move_key has no padding and fits move_key_hash's words");

enum { MOVE_CACHE = 1024 };

/* A check hook answer, by what the hook can read of the position: its full
 * hash, ply and clock, and the side asked about (used = 0: empty). */
typedef struct check_memo {
    uint64_t hash;
    uint16_t ply, clock;
    uint8_t side, used, answer;
} check_memo;

enum { DROP_CACHE_SIZE = 2048 };

struct tiers_script {
    lua_State *L;
    tiers_variant *v;
    size_t mem, mem_limit;
    int mem_hit;              /* the allocator refused a block */
    long ticks;               /* count-hook steps left in this call */
    long work_left;           /* C work (budget_charge) left before the next tick */
    int hook_now;             /* the count hook fires at every instruction */
    double started, seconds;  /* the time guard: when the outermost hook (or
                                 the load) began, and how long it may run */
    int depth;                /* hooks running (nested through pos:in_check) */
    int loading;              /* a file's top level is running: effect{} allowed */
    int nested_error;         /* a hook run from inside a hook failed */
    int print;                /* print() writes to stderr (TIERS_LUA_PRINT) */
    uint64_t gen_next;
    hook_ctx cur;
    uint64_t rng;             /* math.random while loading (no position) */
    effect_rec fx[MAX_EFFECTS];
    uint8_t list[HK_COUNT][MAX_EFFECTS]; /* effects defining each hook */
    uint8_t nlist[HK_COUNT];
    /* Which effects' narrowed hooks may concern a move, by its kind and by
       the face of its acting or taken piece (MAX_FACES: no piece); effects
       whose hook is not narrowed are in every entry.  Bit = effect. */
    uint32_t by_kind[HK_COUNT][TIERS_MV_KINDS];
    uint32_t by_actor[HK_COUNT][MAX_FACES + 1];
    uint32_t by_taken[HK_COUNT][MAX_FACES + 1];
    uint32_t face_test[HK_COUNT];      /* effects with <hook>_faces or _taken */
    /* stuck[face][tier-1][facing]: squares from which that table of the
       face reaches no square of the board (expand_stuck) */
    uint64_t stuck[MAX_FACES][TIERS_MAX_TIERS][4][4];
    /* stuck_any[face]: the union of stuck[face] over tiers and facings
       (MAX_FACES: no piece, empty); stuck_test: the expand effects that a
       fresh move passes only if its piece may be stuck (expand_stuck
       without _vars), so script_expand drops them at once for a piece
       landing where it can never be stuck */
    uint64_t stuck_any[MAX_FACES + 1][4];
    uint32_t stuck_test;
    /* drop_ok answers of effects with drop_ok_pure, by (dropped piece,
       target's top piece, side to move, effect); key 0 = empty */
    struct { uint32_t key; uint8_t ok; } drop_cache[DROP_CACHE_SIZE];
    check_memo check_small[256];       /* check hook answers (script_in_check) */
    check_memo *check_cache;           /* check_small, or script_remember's */
    int check_bits;                    /* check_cache has 1 << check_bits slots */
    check_memo before;        /* the last check_before answer: every move of a
                                 legal list asks about the same position */
    uint32_t var_test[HK_COUNT];       /* effects with <hook>_vars */
    uint32_t by_var[HK_COUNT][MAX_VARS]; /* effects whose <hook>_vars hold var i */
    uint32_t defines[HK_COUNT];        /* effects defining the hook */
    /* Registry references of strings the hooks push often (keys of move
       and piece tables, face, tile and kind names) and of the position
       handle's metatable: pushing them costs an array read instead of a
       string lookup. */
    int key_ref[NKEYS];
    int face_ref[MAX_FACES], tile_ref[MAX_KINDS], kind_ref[TIERS_MV_KINDS], facing_ref[4];
    int pieces_ref;           /* read-only piece tables by piece code and tier */
    int moves_ref;            /* read-only move tables, by slot of move_keys */
    move_key move_keys[MOVE_CACHE];
    int empty_ref;            /* the read-only empty table (a move's empty path) */
    char reason[256];         /* reason text of the last decided result */
    char error[512];
};

/* What one hook call takes and gives back (run_hook -> trampoline). */
typedef struct call {
    tiers_script *s;
    int hook, effect;
    tiers_pos *p;
    const tiers_move *m;
    const undo_rec *u;        /* m's undo record when m is made on p, else NULL */
    int sq, idx, tier;        /* tier hook */
    int side;                 /* check hook */
    piece_t pc;               /* drop_ok hook */
    int result;               /* boolean / tier result */
    tiers_move *buf;          /* moves, expand hooks: appended to buf[n..cap) */
    int n, cap, full;
    int keep;                 /* expand hook: the move stays as it is */
    tiers_status *st;         /* result hook */
    char *text;               /* format hook output */
    size_t size, len;
} call;

static tiers_script *script_of(lua_State *L) { return *(tiers_script **)lua_getextraspace(L); }

static void push_ref(lua_State *L, int ref) { lua_rawgeti(L, LUA_REGISTRYINDEX, ref); }

/* t[key] = the value on top, t just below it; pops the value. */
static void set_key(lua_State *L, int key)
{
    push_ref(L, script_of(L)->key_ref[key]);
    lua_insert(L, -2);
    lua_rawset(L, -3);
}

/* ------------------------------------------------------------ allocator */

static int budget_charge(tiers_script *s, size_t n);

/* Memory comes from the variant's allowance, and each byte a script's
 * objects grow by is charged to the budget (one instruction per
 * ALLOC_BYTES_PER_STEP): a C function that builds a large string in one
 * instruction (string.rep, table.concat, ...) pays for its size. */
enum { ALLOC_BYTES_PER_STEP = 32 };

static void *script_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    tiers_script *s = ud;
    if (!ptr)
        osize = 0; /* osize then encodes the type of the new object */
    if (nsize == 0) {
        free(ptr);
        s->mem -= osize;
        return NULL;
    }
    if (nsize > osize && nsize - osize > s->mem_limit - s->mem) {
        s->mem_hit = 1;
        return NULL;
    }
    void *q = realloc(ptr, nsize);
    if (!q)
        return NULL;
    s->mem = s->mem - osize + nsize;
    if (nsize > osize) /* a spent budget raises at the next count step */
        budget_charge(s, (nsize - osize) / ALLOC_BYTES_PER_STEP);
    return q;
}

/* Instruction budget: the count hook fires every SCRIPT_COUNT_STEP
 * instructions and raises an ordinary error once the call's budget is
 * spent (and again at every later step, so a pcall cannot swallow it for
 * long).  A spent budget stays spent until the outermost hook returns:
 * nested hooks are refused, the pos functions that run hooks fail at
 * once, and a hook that swallowed the error with pcall fails anyway
 * (run_hook), so a tree of hooks calling hooks ends with its first
 * exhaustion instead of each branch spending it again. */
#define BUDGET_TEXT "instruction budget exceeded (%d instructions)"

static int budget_spent(const tiers_script *s) { return s->ticks <= 0; }

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Raises the budget error, or the time guard's: a last resort for work
 * that no count sees (an instruction comparing two long strings, ...),
 * given in seconds because nothing else bounds it. */
static void count_hook(lua_State *L, lua_Debug *ar)
{
    tiers_script *s = script_of(L);
    int late = now_seconds() - s->started > s->seconds;
    if (--s->ticks > 0 && !late)
        return;
    s->ticks = 0;
    char what[120];
    if (late)
        snprintf(what, sizeof what, "hook ran for more than %g seconds", s->seconds);
    else
        snprintf(what, sizeof what, BUDGET_TEXT, (int)SCRIPT_INSTRUCTION_BUDGET);
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: %s", ar->short_src, ar->currentline, what);
    else
        lua_pushstring(L, what);
    lua_error(L);
}

/* Counts work done in C as n instructions of the running hook's budget:
 * the steps of a pattern match, the move generations of pos:in_check and
 * the like, the calls of hooks from inside hooks.  One call into C is one
 * instruction for the count hook, however long it runs; these are the
 * calls that can run long.  Returns 0, or -1 when the budget is spent. */
static int budget_charge(tiers_script *s, size_t n)
{
    if ((size_t)s->work_left > n) {
        s->work_left -= (long)n;
        return 0;
    }
    n -= (size_t)s->work_left;
    s->work_left = SCRIPT_COUNT_STEP - (long)(n % SCRIPT_COUNT_STEP);
    size_t ticks = 1 + n / SCRIPT_COUNT_STEP;
    if (s->ticks > 0 && (size_t)s->ticks > ticks) {
        s->ticks -= (long)ticks;
        return 0;
    }
    s->ticks = 0;
    /* raise at the very next instruction, not up to a count step later
       (a step of a loop of costly calls can be long) */
    if (s->L && !s->hook_now) {
        s->hook_now = 1;
        lua_sethook(s->L, count_hook, LUA_MASKCOUNT, 1);
    }
    return -1;
}

/* A fresh budget for a hook call or a file's load. */
static void budget_reset(tiers_script *s)
{
    s->ticks = SCRIPT_INSTRUCTION_BUDGET / SCRIPT_COUNT_STEP;
    s->started = now_seconds();
    if (s->hook_now) {
        s->hook_now = 0;
        lua_sethook(s->L, count_hook, LUA_MASKCOUNT, SCRIPT_COUNT_STEP);
    }
}

/* A pos function about to generate moves (pos:in_check, pos:attacked,
 * ...): one pass over the board counts one instruction per square, about
 * what it costs; fails at once when the budget is spent, so that hooks
 * calling hooks end with the first exhaustion. */
static void charge_generation(lua_State *L, const tiers_pos *p)
{
    if (budget_spent(script_of(L)) ||
        budget_charge(script_of(L), (size_t)(p->v->files * p->v->ranks)) < 0)
        luaL_error(L, BUDGET_TEXT, (int)SCRIPT_INSTRUCTION_BUDGET);
}

/* ------------------------------------------------------------ names */

static int find_face(const tiers_variant *v, const char *name)
{
    for (int f = 0; f < v->nfaces; f++)
        if (!strcmp(v->faces[f].name, name))
            return f;
    return -1;
}

static int find_kind(const tiers_variant *v, const char *name)
{
    for (int k = 1; k < v->nkinds; k++)
        if (!strcmp(v->kinds[k].name, name))
            return k;
    return -1;
}

static int find_effect(const tiers_variant *v, const char *name)
{
    for (int i = 0; i < v->neffects; i++)
        if (!strcmp(v->effect_name[i], name))
            return i;
    return -1;
}

/* How many tile sides show face f (1 = the face names a tile and side). */
static int face_shown(const tiers_variant *v, int f)
{
    int n = 0;
    for (int k = 1; k < v->nkinds; k++)
        n += (v->kinds[k].face[0] == f) + (v->kinds[k].face[1] == f);
    return n;
}

/* "e5" -> square; -1 if malformed, -2 if off this board. */
static int parse_square(const tiers_variant *v, const char *s)
{
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

/* The square's name ("e4", "a16"), written by hand: hooks push many. */
static void push_square(lua_State *L, int sq)
{
    char b[4];
    int r = sq_rank(sq) + 1, n = 1;
    b[0] = (char)('a' + sq_file(sq));
    if (r >= 10)
        b[n++] = (char)('0' + r / 10);
    b[n++] = (char)('0' + r % 10);
    lua_pushlstring(L, b, (size_t)n);
}

static int pos_max_tiers(const tiers_pos *p)
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

/* Is the value at idx a read-only view (make_read_only)? */
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
static int l_rawset(lua_State *L)
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
static void make_read_only(lua_State *L)
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
 * given (push_piece keeps it). */
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
static void push_piece(lua_State *L, const tiers_variant *v, piece_t pc, int tier)
{
    push_ref(L, script_of(L)->pieces_ref);
    lua_Integer key = (lua_Integer)pc * (TIERS_MAX_TIERS + 1) + tier;
    if (lua_rawgeti(L, -1, key) != LUA_TTABLE) {
        lua_pop(L, 1);
        new_piece(L, v, pc, tier);
        make_read_only(L);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, key);
    }
    lua_remove(L, -2);
}


static int check_owner(lua_State *L, int idx)
{
    int isnum;
    lua_Integer o = lua_tointegerx(L, idx, &isnum);
    if (!isnum || o < 0 || o > 2)
        return luaL_argerror(L, idx, "owner must be 0, 1 or 2");
    return (int)o;
}

/* The tile kind and side named by a face (unique) or a kind (+face or
 * flipped) at stack index idx: a face-name string or a piece table. */
static void check_tile(lua_State *L, int idx, int *kind, int *flipped)
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
            int f = find_face(v, fname);
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
    int f = find_face(v, fname);
    if (f < 0)
        luaL_error(L, "unknown face '%s'", fname);
    if (face_shown(v, f) != 1)
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
static piece_t check_piece(lua_State *L, int idx, int owner_idx, int default_owner)
{
    const tiers_variant *v = script_of(L)->v;
    int kind, flipped, owner = -1, facing = -1;
    idx = lua_absindex(L, idx);
    int top = lua_gettop(L);
    check_tile(L, idx, &kind, &flipped);
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
        owner = check_owner(L, owner_idx);
    if (owner < 0)
        owner = default_owner;
    if (owner < 0)
        luaL_error(L, "piece has no owner (give owner 0, 1 or 2)");
    if (facing < 0)
        facing = v->forward[owner == OWNER_SHARED ? 0 : owner];
    return pc_make(kind, flipped, owner, facing);
}

/* ------------------------------------------------------------ moves */

/* The tower on sq before the move whose undo record is u (the record's
 * first snapshot of a square is its state before the move); with u NULL,
 * the tower as it stands. */
static const tower *old_tower(const tiers_pos *p, const undo_rec *u, int sq)
{
    for (int i = 0; u && i < u->ntowers; i++)
        if (u->tsq[i] == sq)
            return &u->towers[i];
    return &p->board[sq];
}

/* The piece that acts in m (the piece moved, striking or dropped) and the
 * piece it takes, as they were before m (0 = none).  u as in old_tower. */
static void move_actors(const tiers_pos *p, const undo_rec *u, const tiers_move *m,
                        piece_t *actor, piece_t *taken)
{
    *actor = *taken = 0;
    const tower *t;
    switch (m->kind) {
    case TIERS_MV_DROP:
        *actor = m->piece;
        break;
    case TIERS_MV_MOVE:
    case TIERS_MV_STACK:
    case TIERS_MV_CAPTURE:
    case TIERS_MV_ROTATE: /* the piece turned in place acts too */
        if (m->from != TIERS_NO_SQUARE && (t = old_tower(p, u, m->from))->h)
            *actor = t->p[t->h - 1];
        if (m->kind == TIERS_MV_CAPTURE && m->to != TIERS_NO_SQUARE &&
            (t = old_tower(p, u, m->to))->h)
            *taken = t->p[t->h - 1];
        break;
    case TIERS_MV_STRIKE:
        if (m->from == TIERS_NO_SQUARE)
            break;
        t = old_tower(p, u, m->from);
        if (m->tier >= 1 && m->tier <= t->h)
            *actor = t->p[m->tier - 1];
        if (m->arg >= 1 && m->arg <= t->h)
            *taken = t->p[m->arg - 1];
        break;
    default:
        break;
    }
}

/* The side that plays m, and whether it was still in its setup. */
static int move_side(const tiers_pos *p, const undo_rec *u)
{
    return u ? u->st.side : p->st.side;
}

static int move_in_setup(const tiers_pos *p, const undo_rec *u)
{
    const pos_state *st = u ? &u->st : &p->st;
    return (st->setup_left >> st->side) & 1;
}

/* A square's rank counted from side's own back rank, 1-based. */
static int own_rank(const tiers_variant *v, int side, int sq)
{
    return v->forward[side] == DIR_S ? v->ranks - sq_rank(sq) : sq_rank(sq) + 1;
}

/* The faces of a move's acting and taken pieces (MAX_FACES: none). */
typedef struct move_faces {
    int actor, taken;
} move_faces;

static move_faces faces_of(const tiers_pos *p, const undo_rec *u, const tiers_move *m)
{
    piece_t a, t;
    move_actors(p, u, m, &a, &t);
    move_faces mf = {a ? p->v->face_of[a] : MAX_FACES, t ? p->v->face_of[t] : MAX_FACES};
    return mf;
}

/* file_faces and file_heights: the file of m's destination, as it stands. */
static int file_test(const tiers_pos *p, const undo_rec *u, const tiers_move *m,
                     const hook_filter *f)
{
    const tiers_variant *v = p->v;
    int to = m->to != TIERS_NO_SQUARE ? m->to : m->from, side = move_side(p, u), n = 0, tall = 0;
    if (to == TIERS_NO_SQUARE)
        return 0;
    for (int r = 0; r < v->ranks; r++) {
        int sq = sq_make(sq_file(to), r);
        const tower *t = &p->board[sq];
        if (sq != to && (f->file_heights >> t->h & 1))
            tall = 1;
        for (int i = 0; f->file_faces && i < t->h; i++)
            n += pc_owner(t->p[i]) == side && (f->file_faces >> v->face_of[t->p[i]] & 1);
    }
    return (!f->file_faces || n >= 2) && (!f->file_heights || tall);
}

/* check, for a move already made: does it leave its player's opponent in
 * check?  A drop onto an empty square only adds a piece that projects no
 * region, so it can give check only by reaching the royal piece itself:
 * the reach mask of its face (any tier, any borrowed table) answers that
 * at once for most drops.  (Not when a check hook decides what check is.) */
static int gives_check(const tiers_pos *p, const undo_rec *u, const tiers_move *m)
{
    const tiers_variant *v = p->v;
    int them = move_side(p, u) ^ 1, royal = p->st.royal_sq[them];
    if (m->kind == TIERS_MV_DROP && !(v->hooks & HOOK_CHECK) && royal != TIERS_NO_SQUARE &&
        p->st.royal_n[them] == 1 &&
        m->to != TIERS_NO_SQUARE && p->board[m->to].h == 1 &&
        pc_owner(p->board[m->to].p[0]) != OWNER_SHARED) {
        piece_t pc = p->board[m->to].p[0];
        int face = v->face_of[pc], source = 0;
        for (int i = 0; i < v->nregions; i++)
            source |= v->regions[i].face == face;
        int bit = (sq_rank(royal) - sq_rank(m->to) + 15) * 31 + sq_file(royal) -
                  sq_file(m->to) + 15;
        if (!source && !(v->reach_any[face][pc_facing(pc)][bit >> 6] >> (bit & 63) & 1))
            return 0;
    }
    return movegen_in_check(p, them);
}

/* doubled: two pieces of one face and owner in the tower on sq. */
static int doubled_at(const tiers_pos *p, int sq)
{
    if (sq == TIERS_NO_SQUARE)
        return 0;
    const tower *t = &p->board[sq];
    for (int i = 0; i < t->h; i++)
        for (int j = i + 1; j < t->h; j++)
            if (p->v->face_of[t->p[i]] == p->v->face_of[t->p[j]] &&
                pc_owner(t->p[i]) == pc_owner(t->p[j]))
                return 1;
    return 0;
}

/* Was `side` in check before the move whose undo record is the last one
 * (a move made and complete, as in veto and expand)?  The record is rolled
 * back, the test made (check hooks may run), and the position after the
 * move put back as it was.  The answer is kept for the next move of the
 * same position, by its 64-bit key, ply and clock as script_in_check keeps
 * its answers (a collision of both keys is not guarded against), unless a
 * hook failed: the failure reads as "not in check" and must not stay. */
static int check_before(tiers_pos *p, int side)
{
    undo_rec *u = &p->undo[p->depth - 1];
    check_memo *memo = &p->v->script->before;
    uint64_t key = u->st.hash ^ zobrist_state(&u->st);
    if (memo->used && memo->hash == key && memo->ply == u->st.ply &&
        memo->clock == u->st.clock && memo->side == side)
        return memo->answer;
    tower post[MAX_UNDO_TOWERS];
    uint8_t hpost[MAX_UNDO_HANDS];
    pos_state st = p->st;
    int nt = u->ntowers, nh = u->nhands;
    for (int i = 0; i < nt; i++)
        post[i] = p->board[u->tsq[i]];
    for (int i = 0; i < nh; i++)
        hpost[i] = p->hand[u->hcode[i] >> 8][u->hcode[i] & 0xff];
    pos_frame_undo(p);
    int r = movegen_in_check(p, side);
    p->depth++;
    for (int i = 0; i < nt; i++)
        p->board[u->tsq[i]] = post[i];
    for (int i = 0; i < nh; i++)
        p->hand[u->hcode[i] >> 8][u->hcode[i] & 0xff] = hpost[i];
    p->st = st;
    if (r >= 0 && !p->script_failed)
        *memo = (check_memo){key, u->st.ply, u->st.clock, (uint8_t)side, 1, (uint8_t)r};
    return r;
}

static int stuck_at(const tiers_script *s, int face, int tier, int facing, int sq)
{
    return s->stuck[face][tier - 1][facing][sq >> 6] >> (sq & 63) & 1;
}

/* Could a piece of face `face` (MAX_FACES: none) be stuck on sq, by any
 * table it might use there (its own or the over-enemy face's)? */
static int stuck_anywhere(const tiers_script *s, int face, int sq)
{
    int oe = s->v->over_enemy_face;
    return (s->stuck_any[face][sq >> 6] >> (sq & 63) & 1) ||
           (oe != NO_FACE && (s->stuck_any[oe][sq >> 6] >> (sq & 63) & 1));
}

/* expand_stuck, before the move (u NULL) or after it: could the acting
 * piece of m be left where no table it might use reaches a square of the
 * board?  The tables it might use: its face's at the tier it lands on,
 * that tier raised by a region, and the over-enemy face's; any tier if a
 * tier hook or a capture rule makes the landing tier uncertain. */
static int may_be_stuck(const tiers_pos *p, const undo_rec *u, const tiers_move *m)
{
    const tiers_variant *v = p->v;
    const tiers_script *s = v->script;
    piece_t a, t;
    move_actors(p, u, m, &a, &t);
    if (!a || m->to == TIERS_NO_SQUARE)
        return 0;
    int face = v->face_of[a], facing = pc_facing(a), to = m->to, lo = 1, hi = v->max_tiers;
    int h = old_tower(p, u, to)->h;
    if (!(v->hooks & HOOK_TIER) && v->unit == UNIT_TOP) {
        if (m->kind == TIERS_MV_MOVE || m->kind == TIERS_MV_STACK || m->kind == TIERS_MV_DROP)
            lo = h + 1;
        else if (m->kind == TIERS_MV_CAPTURE && v->capture == CAP_TOP)
            lo = h;
        else if (m->kind == TIERS_MV_CAPTURE && v->capture == CAP_TOWER)
            lo = 1;
        else
            lo = 0;
        if (lo > 0) {
            hi = v->nregions ? lo + v->region_bonus : lo;
            if (hi > v->max_tiers)
                hi = v->max_tiers;
        } else {
            lo = 1;
        }
    }
    for (int tier = lo; tier <= hi && tier <= TIERS_MAX_TIERS; tier++)
        if (stuck_at(s, face, tier, facing, to) ||
            (v->over_enemy_face != NO_FACE && stuck_at(s, v->over_enemy_face, tier, facing, to)))
            return 1;
    return 0;
}

/* Does the hook (narrowed by f) concern m?  m NULL: a hook without a move
 * (result), where only the variables count.  mf: m's faces. */
static int filter_pass(const tiers_pos *p, const undo_rec *u, const tiers_move *m,
                       const move_faces *mf, const hook_filter *f, int effect)
{
    if (!f->on)
        return 1;
    if (m && m->effect == effect + 1)
        return 1;
    for (int i = 0; f->vars && i < MAX_VARS; i++)
        if ((f->vars >> i & 1) && p->st.vars[i])
            return 1;
    if (!f->move_test || f->never || !m)
        return 0;
    if (f->kinds && !(f->kinds >> m->kind & 1))
        return 0;
    if (f->setup && move_in_setup(p, u) != (f->setup == 1))
        return 0;
    if ((f->faces || f->taken) && !(f->faces >> mf->actor & 1) && !(f->taken >> mf->taken & 1))
        return 0;
    if (f->lo) {
        if (m->to == TIERS_NO_SQUARE)
            return 0;
        int r = own_rank(p->v, move_side(p, u), m->to);
        if (r < f->lo || r > f->hi)
            return 0;
    }
    if (f->heights && (m->to == TIERS_NO_SQUARE || !(f->heights >> p->board[m->to].h & 1)))
        return 0;
    if (f->stuck && !may_be_stuck(p, u, m))
        return 0;
    if ((f->file_faces || f->file_heights) && !file_test(p, u, m, f))
        return 0;
    if (f->doubled && !doubled_at(p, m->to != TIERS_NO_SQUARE ? m->to : m->from))
        return 0;
    if (f->check && !gives_check(p, u, m))
        return 0;
    if (f->checked && !(u ? check_before((tiers_pos *)p, move_side(p, u))
                          : movegen_in_check(p, move_side(p, u))))
        return 0;
    return 1;
}

/* Does the board hold a tower of one of these heights (bit h)? */
static int towers_of_heights(const tiers_pos *p, unsigned heights)
{
    for (int h = 1; h <= TIERS_MAX_TIERS; h++)
        if ((heights >> h & 1) && p->st.towers_of[h - 1])
            return 1;
    return 0;
}

/* Does the tower on sq hold one of royal's pieces that are royal? */
static int royal_on(const tiers_pos *p, int sq, int side)
{
    const tower *t = &p->board[sq];
    for (int i = 0; i < t->h; i++)
        if (pc_owner(t->p[i]) == side && p->v->royal_code[t->p[i]])
            return 1;
    return 0;
}

/* Is sq orthogonally next to a royal piece of side? */
static int beside_royal(const tiers_pos *p, int sq, int side)
{
    static const int8_t step[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
    for (int d = 0; d < 4; d++) {
        int x = sq_file(sq) + step[d][0], y = sq_rank(sq) + step[d][1];
        if (x >= 0 && x < p->v->files && y >= 0 && y < p->v->ranks &&
            royal_on(p, sq_make(x, y), side))
            return 1;
    }
    return 0;
}

/* Does the tower on sq pass f's tower test for side (its height, its top,
 * an own piece, of a listed face at a listed tier if listed, next to the
 * royal)?  With no tower test (a pure hook without one) every tower passes. */
static int tower_passes(const tiers_pos *p, const hook_filter *f, int sq, int side)
{
    const tower *t = &p->board[sq];
    if (!t->h || (f->heights && !(f->heights >> t->h & 1)) ||
        (f->controlled && pc_owner(t->p[t->h - 1]) != side))
        return 0;
    int match = !(f->faces || f->heights || f->tiers || f->controlled || f->beside_royal);
    for (int i = 0; i < t->h && !match; i++)
        match = pc_owner(t->p[i]) == side &&
                (!f->faces || (f->faces >> p->v->face_of[t->p[i]] & 1)) &&
                (!f->tiers || (f->tiers >> (i + 1) & 1));
    return match && (!f->beside_royal || beside_royal(p, sq, side));
}

/* The squares a moves hook's tower test need look at: the neighbours of
 * a lone royal piece under beside_royal, else the whole board.  Returns
 * how many were written to sq. */
static int tower_squares(const tiers_pos *p, const hook_filter *f, int side,
                         uint8_t sq[TIERS_MAX_SQUARES])
{
    const tiers_variant *v = p->v;
    int n = 0, royal = p->st.royal_sq[side];
    if (f->beside_royal && p->st.royal_n[side] == 1 && royal != TIERS_NO_SQUARE) {
        static const int8_t step[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
        for (int d = 0; d < 4; d++) {
            int x = sq_file(royal) + step[d][0], y = sq_rank(royal) + step[d][1];
            if (x >= 0 && x < v->files && y >= 0 && y < v->ranks)
                sq[n++] = (uint8_t)sq_make(x, y);
        }
        return n;
    }
    for (int r = 0; r < v->ranks; r++)
        for (int x = 0; x < v->files; x++)
            sq[n++] = (uint8_t)sq_make(x, r);
    return n;
}

/* Does the moves or result hook (narrowed by f) concern the side to move
 * now?  Its phase, its being in check, and a tower of a listed height
 * (topped by its own piece if `controlled`, next to its royal piece if
 * `beside_royal`) holding an own piece of a listed face at a listed tier.
 * A pure hook's key (*key) is the state and every tower that passes. */
static int moves_pass(const tiers_pos *p, const hook_filter *f, uint64_t *key)
{
    if (!f->on)
        return 1;
    for (int i = 0; f->vars && i < MAX_VARS; i++)
        if ((f->vars >> i & 1) && p->st.vars[i])
            return 1;
    if (!f->move_test || f->never)
        return 0;
    int side = p->st.side;
    if (f->setup && ((p->st.setup_left >> side) & 1) != (f->setup == 1))
        return 0;
    int towers = f->faces || f->heights || f->tiers || f->controlled || f->beside_royal;
    if (f->heights && !towers_of_heights(p, f->heights))
        return 0; /* no tower the scan below could find */
    if (towers || f->pure) {
        uint8_t sq[TIERS_MAX_SQUARES];
        int n = tower_squares(p, f, side, sq), found = 0;
        if (f->pure)
            *key = zobrist_state(&p->st);
        for (int i = 0; i < n && (!found || f->pure); i++) {
            if (!tower_passes(p, f, sq[i], side))
                continue;
            found = 1;
            const tower *t = &p->board[sq[i]];
            for (int j = 0; f->pure && j < t->h; j++)
                *key ^= zobrist_piece(sq[i], j, t->p[j]);
        }
        if (towers && !found)
            return 0;
    }
    return !f->check || movegen_in_check(p, side);
}

/* The effects whose hook h concerns m, as a bit set, by the tables of
 * script_load; each is then confirmed by filter_pass. */
static inline uint32_t candidates(const tiers_script *s, int h, const tiers_pos *p,
                                  const undo_rec *u, const tiers_move *m, move_faces *mf)
{
    uint32_t c = s->by_kind[h][m->kind < TIERS_MV_KINDS ? m->kind : 0];
    mf->actor = mf->taken = MAX_FACES;
    if (c & s->face_test[h]) {
        *mf = faces_of(p, u, m);
        c &= s->by_actor[h][mf->actor] | s->by_taken[h][mf->taken];
    }
    if (m->effect && m->effect <= MAX_EFFECTS)
        c |= (1u << (m->effect - 1)) & s->defines[h];
    if (s->var_test[h]) {
        uint64_t lo, hi; /* the 8 variables, 16 bytes: any set? */
        memcpy(&lo, &p->st.vars[0], sizeof lo);
        memcpy(&hi, &p->st.vars[4], sizeof hi);
        for (int i = 0; (lo | hi) && i < MAX_VARS; i++)
            if (p->st.vars[i])
                c |= s->by_var[h][i];
    }
    return c;
}

/* Lowest effect of a candidate set (effects are numbered in load order). */
static int next_effect(uint32_t *set)
{
    int e = __builtin_ctz(*set);
    *set &= *set - 1;
    return e;
}

/* A new move table for k (push_move keeps it). */
static void new_move(lua_State *L, const tiers_pos *p, const move_key *k)
{
    const tiers_variant *v = p->v;
    const tiers_script *s = script_of(L);
    const tiers_move *m = &k->m;
    piece_t actor = k->actor, taken = k->taken;
    lua_createtable(L, 0, 12);
    push_ref(L, s->kind_ref[m->kind < TIERS_MV_KINDS ? m->kind : 0]);
    set_key(L, K_KIND);
    if (m->from != TIERS_NO_SQUARE) {
        push_square(L, m->from);
        set_key(L, K_FROM);
    }
    if (m->to != TIERS_NO_SQUARE) {
        push_square(L, m->to);
        set_key(L, K_TO);
    }
    lua_pushinteger(L, m->tier);
    set_key(L, K_TIER);
    lua_pushinteger(L, m->arg);
    set_key(L, K_ARG);
    if (actor) {
        push_piece(L, v, actor, m->kind == TIERS_MV_STRIKE ? m->tier : 0);
        set_key(L, K_PIECE);
    }
    if (taken) {
        push_piece(L, v, taken, m->kind == TIERS_MV_STRIKE ? m->arg : 0);
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
            push_square(L, m->path[i]);
        lua_rawseti(L, -2, i + 1);
    }
    if (m->npath)
        make_read_only(L);
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
    uint64_t w[3] = {0};
    memcpy(w, k, sizeof *k);
    uint64_t h = (w[0] ^ w[1] * 0x9e3779b97f4a7c15ull ^ w[2] * 0xc2b2ae3d27d4eb4full);
    return (h ^ h >> 29) * 0xbf58476d1ce4e5b9ull;
}

/* A move as a table.  u: the move's undo record when it is made on p, so
 * that `piece` and `taken` describe the pieces as they were before it.
 * The table is read-only, and the same move gets the same table: it is
 * made once and kept (MOVE_CACHE of them), as pieces are. */
static void push_move(lua_State *L, const tiers_pos *p, const tiers_move *m, const undo_rec *u)
{
    tiers_script *s = script_of(L);
    move_key k;
    memset(&k, 0, sizeof k);
    k.m = *m;
    for (int i = m->npath; i < 4; i++) /* unused: not part of what is shown */
        k.m.path[i] = 0;
    move_actors(p, u, m, &k.actor, &k.taken);
    k.setup = (uint8_t)move_in_setup(p, u);
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
    new_move(L, p, &k);
    make_read_only(L);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, (lua_Integer)slot + 1);
    lua_remove(L, -2);
    s->move_keys[slot] = k;
}


/* The value on top of the stack as a square named `what`: nil ->
 * TIERS_NO_SQUARE; "out" too where out_ok (deployment paths). */
static int move_square(lua_State *L, const char *what, int out_ok, const char **why)
{
    const tiers_variant *v = script_of(L)->v;
    int t = lua_type(L, -1), sq = TIERS_NO_SQUARE;
    if (t == LUA_TSTRING) {
        const char *name = lua_tostring(L, -1);
        if (out_ok && !strcmp(name, "out"))
            return TIERS_NO_SQUARE;
        if ((sq = parse_square(v, name)) < 0) {
            *why = lua_pushfstring(L, "%s '%s' is %s", what, name,
                                   sq == -2 ? "off the board" : "not a square name");
            return TIERS_NO_SQUARE;
        }
    } else if (t != LUA_TNIL) {
        *why = lua_pushfstring(L, "%s must be a square name", what);
    }
    return sq;
}

static int move_byte(lua_State *L, int idx, const char *key, const char **why)
{
    int t = lua_getfield(L, idx, key), isnum = 1;
    lua_Integer n = t == LUA_TNIL ? 0 : lua_tointegerx(L, -1, &isnum);
    if (!isnum || n < 0 || n > 255) {
        *why = lua_pushfstring(L, "%s must be an integer 0..255", key);
        return 0;
    }
    return (int)n;
}

static int move_flag(lua_State *L, int idx, const char *key, const char **why)
{
    int t = lua_getfield(L, idx, key);
    if (t != LUA_TNIL && t != LUA_TBOOLEAN)
        *why = lua_pushfstring(L, "%s must be a boolean", key);
    return lua_toboolean(L, -1);
}

/* Can the engine make m as it stands?  Returns NULL or why not.  These
 * checks keep make_move inside its arrays: generated moves are trusted. */
static const char *move_problem(lua_State *L, const tiers_pos *p, const tiers_move *m)
{
    const tiers_variant *v = p->v;
    int maxt = pos_max_tiers(p);
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
static void check_move(lua_State *L, int idx, call *c, int entry, tiers_move *m)
{
    const tiers_variant *v = c->s->v;
    const char *why = NULL;
    int top = lua_gettop(L);
    luaL_checkstack(L, 40, NULL);
    *m = (tiers_move){0};
    if (!lua_istable(L, idx)) {
        why = lua_pushfstring(L, "is a %s, not a move table", luaL_typename(L, idx));
        goto bad;
    }
    if (lua_getfield(L, idx, "kind") == LUA_TSTRING)
        for (int k = 1; k < TIERS_MV_KINDS; k++)
            if (!strcmp(lua_tostring(L, -1), kind_name[k]))
                m->kind = (uint8_t)k;
    if (!m->kind) {
        why = "kind must be one of drop, move, stack, capture, strike, ready, rotate, "
              "deploy, effect";
        goto bad;
    }
    lua_getfield(L, idx, "from");
    m->from = (uint8_t)move_square(L, "from", 0, &why);
    lua_getfield(L, idx, "to");
    m->to = (uint8_t)move_square(L, "to", 0, &why);
    m->tier = (uint8_t)move_byte(L, idx, "tier", &why);
    m->arg = (uint8_t)move_byte(L, idx, "arg", &why);
    if (move_flag(L, idx, "exit", &why))
        m->flags |= TIERS_MF_EXIT;
    if (move_flag(L, idx, "final", &why))
        m->flags |= TIERS_MF_FINAL;
    if (why)
        goto bad;
    int t = lua_getfield(L, idx, "effect");
    if (t == LUA_TSTRING) {
        int e = find_effect(v, lua_tostring(L, -1));
        if (e < 0) {
            why = lua_pushfstring(L, "unknown effect '%s'", lua_tostring(L, -1));
            goto bad;
        }
        m->effect = (uint8_t)(e + 1);
    } else if (t != LUA_TNIL) {
        why = "effect must be an effect name";
        goto bad;
    } else if (m->kind == TIERS_MV_EFFECT) {
        m->effect = (uint8_t)(c->effect + 1);
    }
    t = lua_getfield(L, idx, "path");
    if (t == LUA_TTABLE) {
        int pi = lua_gettop(L);
        lua_Integer n = luaL_len(L, pi); /* a hook's own move's path is read-only */
        if (n < 0 || n > 4) {
            why = "path holds at most 4 squares";
            goto bad;
        }
        for (int i = 0; i < (int)n; i++) {
            lua_geti(L, pi, i + 1);
            m->path[i] = (uint8_t)move_square(L, "path square", 1, &why);
            if (why)
                goto bad;
        }
        m->npath = (uint8_t)n;
    } else if (t != LUA_TNIL) {
        why = "path must be a list of squares";
        goto bad;
    }
    if (m->kind == TIERS_MV_DROP) {
        if (lua_getfield(L, idx, "piece") == LUA_TNIL) {
            why = "a drop needs 'piece'";
            goto bad;
        }
        m->piece = check_piece(L, -1, 0, c->p->st.side);
        if (v->uses_facing) {
            m->flags |= TIERS_MF_FACING;
            m->arg = (uint8_t)pc_facing(m->piece);
        }
    }
    if ((why = move_problem(L, c->p, m)) != NULL)
        goto bad;
    lua_settop(L, top);
    return;
bad:
    luaL_error(L, "move %d returned by hook moves: %s", entry, why);
}

/* ------------------------------------------------------------ position handle */

/* A position handle is a light userdata whose value is the generation of
 * the hook call it was given to: making one allocates nothing, and one
 * kept past its call names a generation that is over.  Scripts make no
 * light userdata, and every light userdata has the handles' metatable. */
static void push_handle(lua_State *L, uint64_t gen)
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
    const char *name = lua_tostring(L, idx);
    int sq = parse_square(p->v, name);
    if (sq == -2)
        return luaL_argerror(L, idx, lua_pushfstring(L, "square '%s' is off the board (%dx%d)",
                                                     name, p->v->files, p->v->ranks));
    if (sq < 0)
        return luaL_argerror(L, idx, lua_pushfstring(L, "bad square '%s' (a name like "
                                                     "\"e5\")", name));
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
    int maxt = pos_max_tiers(p);
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
        push_piece(L, p->v, t->p[tier - 1], (int)tier);
    return 1;
}

static int l_top(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    const tower *t = &p->board[check_sq(L, 2, p)];
    if (t->h)
        push_piece(L, p->v, t->p[t->h - 1], t->h);
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
    charge_generation(L, p);
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
        push_piece(L, p->v, t->p[i], i + 1);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int l_hand(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    const tiers_variant *v = p->v;
    int owner = check_owner(L, 2);
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
        if (face_shown(v, f) > 1) {
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
    charge_generation(L, p);
    int r = movegen_in_check(p, side);
    check_nested(L);
    lua_pushboolean(L, r);
    return 1;
}

static int l_attacked(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    int sq = check_sq(L, 2, p), by = check_side(L, 3, -1);
    charge_generation(L, p);
    int r = movegen_attacks(p, sq, by);
    check_nested(L);
    lua_pushboolean(L, r);
    return 1;
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
    charge_generation(L, p);
    tiers_move *buf = malloc(TIERS_MAX_MOVES * sizeof *buf);
    if (!buf)
        return luaL_error(L, "pos:has_legal_move: out of memory");
    int n = movegen_pseudo(p, buf, TIERS_MAX_MOVES), found = 0, err = n < 0 ? n : 0;
    int spent = 0;
    size_t squares = (size_t)(p->v->files * p->v->ranks);
    for (int i = 0; i < n && !found && !err && !spent; i++) {
        if ((spent = budget_charge(s, squares) < 0)) /* each try: a generation pass */
            break;
        int rc = movegen_make_checked(p, &buf[i]);
        if (rc == 0) {
            unmake_move(p);
            found = 1;
        } else if (rc != TIERS_EILLEGAL) {
            err = rc;
        }
    }
    free(buf);
    if (spent)
        return luaL_error(L, BUDGET_TEXT, (int)SCRIPT_INSTRUCTION_BUDGET);
    check_nested(L);
    if (err)
        return luaL_error(L, "pos:has_legal_move: move generation failed (%s)",
                          err == TIERS_EFULL ? "a buffer is full" : "script error");
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
    if ((s->cur.hook != HK_VETO && s->cur.hook != HK_EXPAND) || p->frame || !p->depth)
        return luaL_error(L, "pos:in_check_before: only in hooks veto and expand");
    int side = check_side(L, 2, p->undo[p->depth - 1].st.side);
    charge_generation(L, p);
    int r = check_before(p, side);
    check_nested(L);
    lua_pushboolean(L, r);
    return 1;
}

/* Marks the squares the lines of table `tier` of face fd reach from sq,
 * whatever stands on them or between. */
static void reach_table(const tiers_pos *p, int sq, const face_def *fd, int facing, int tier,
                        uint8_t *mark)
{
    const tiers_variant *v = p->v;
    if (!fd->ntiers)
        return;
    int ti = (tier <= fd->ntiers ? tier : fd->ntiers) - 1;
    const line_def *L = &v->wlines[facing][fd->first[ti]];
    for (int i = 0; i < fd->count[ti]; i++) {
        int f = sq_file(sq) + L[i].fx, r = sq_rank(sq) + L[i].fy;
        for (int n = 0; pos_on_board(p, f, r); f += L[i].dx, r += L[i].dy) {
            mark[sq_make(f, r)] = 1;
            if ((L[i].len && ++n >= L[i].len) || (!L[i].dx && !L[i].dy))
                break;
        }
    }
}

/* pos:reach(sq): the squares the top piece of sq could move to with the
 * table it now uses (tier, regions, over-enemy face), were the board
 * empty: no blocking, no via test.  A list of square names. */
/* The squares (marked in mark) the top piece of sq could move to with the
 * table it now uses, were the board empty; returns how many. */
static int reach_of(const tiers_pos *p, int sq, uint8_t *mark)
{
    const tiers_variant *v = p->v;
    const tower *t = &p->board[sq];
    memset(mark, 0, TIERS_MAX_SQUARES);
    if (!t->h)
        return 0;
    piece_t pc = t->p[t->h - 1];
    int tier, f = movegen_face_tier(p, sq, t->h - 1, &tier), n = 0;
    const face_def *fd = &v->faces[f];
    if (!(fd->flags & FF_IMMOBILE) && v->unit == UNIT_TOP) {
        reach_table(p, sq, fd, pc_facing(pc), tier, mark);
        /* union regions: the piece's own tier's table too */
        if (v->region_mode == REGION_UNION && tier != t->h && f == v->face_of[pc])
            reach_table(p, sq, fd, pc_facing(pc), t->h, mark);
    }
    for (int s = 0; s < TIERS_MAX_SQUARES; s++)
        n += mark[s];
    return n;
}

static int l_reach(lua_State *L)
{
    tiers_pos *p = check_pos(L, NULL);
    int sq = check_sq(L, 2, p);
    uint8_t mark[TIERS_MAX_SQUARES];
    charge_generation(L, p);
    reach_of(p, sq, mark);
    check_nested(L);
    lua_newtable(L);
    int k = 0;
    for (int s = 0; s < TIERS_MAX_SQUARES; s++)
        if (mark[s]) {
            push_square(L, s);
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
    int face = find_face(v, name), owner = lua_isnoneornil(L, 3) ? -1 : check_owner(L, 3);
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
                push_square(L, sq);
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
    push_square(L, sq_make((int)f, (int)r));
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
    piece_t pc = check_piece(L, 3, 4, -1);
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
    push_piece(L, p->v, pos_pop(p, sq), tier);
    return 1;
}

static int l_insert(lua_State *L)
{
    tiers_pos *p = check_pos(L, "insert");
    int sq = check_sq(L, 2, p);
    int tier = check_tier(L, 3, p, sq, 1, 0);
    piece_t pc = check_piece(L, 4, 5, -1);
    check_room(L, p, sq);
    pos_insert(p, sq, tier - 1, pc);
    return 0;
}

static int l_remove(lua_State *L)
{
    tiers_pos *p = check_pos(L, "remove");
    int sq = check_sq(L, 2, p);
    int tier = check_tier(L, 3, p, sq, 0, 1);
    push_piece(L, p->v, pos_remove(p, sq, tier - 1), tier);
    return 1;
}

static int l_replace(lua_State *L)
{
    tiers_pos *p = check_pos(L, "replace");
    int sq = check_sq(L, 2, p);
    int tier = check_tier(L, 3, p, sq, 0, 0);
    piece_t pc = check_piece(L, 4, 5, -1);
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
    int owner = check_owner(L, 4);
    piece_t pc = pc_with_owner(p->board[sq].p[tier - 1], owner);
    if (!p->v->uses_facing && owner != OWNER_SHARED)
        pc = pc_with_facing(pc, p->v->forward[owner]); /* faces its new side's way */
    pos_replace(p, sq, tier - 1, pc);
    return 0;
}

static int l_to_hand(lua_State *L)
{
    tiers_pos *p = check_pos(L, "to_hand");
    int owner = check_owner(L, 2), kind, flipped;
    check_tile(L, 3, &kind, &flipped);
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

/* ------------------------------------------------------------ patterns */

/* string.find, match, gmatch and gsub, rewritten so that matching counts
 * against the instruction budget.  The library's matcher backtracks inside
 * one C call, where the count hook never runs: ("a?"):rep(40) .. "b"
 * against forty a's takes 2^40 steps, and even "a*b" against a long run
 * of a's takes a step per pair of positions.  These follow Lua 5.4's
 * patterns (reference manual 6.4.1) and its search order, so they give
 * the same results and messages; every step (a character tested against
 * a class, a call for the rest of the pattern, a byte compared) counts,
 * and SCRIPT_COUNT_STEP steps cost the hook one tick, as that many VM
 * instructions would. */

#define PAT_MAX_CAPTURES 32     /* LUA_MAXCAPTURES */
#define PAT_MAX_DEPTH 200       /* nested pat_match calls: "pattern too complex" */
#define PAT_OPEN (-1)           /* capture length while the capture is open */
#define PAT_POSITION (-2)       /* capture length of a position capture "()" */

typedef struct pat_state {
    lua_State *L;
    tiers_script *s;
    const char *src, *src_end;  /* the whole subject */
    const char *pat_end;        /* (lua strings: *pat_end is '\0') */
    int depth;                  /* pat_match calls that may still nest */
    int level;                  /* captures begun */
    struct {
        const char *at;
        ptrdiff_t len;          /* or PAT_OPEN, PAT_POSITION */
    } cap[PAT_MAX_CAPTURES];
} pat_state;

static void pat_init(pat_state *m, lua_State *L, const char *s, size_t ls, const char *p,
                     size_t lp)
{
    m->L = L;
    m->s = script_of(L);
    m->src = s;
    m->src_end = s + ls;
    m->pat_end = p + lp;
    m->depth = PAT_MAX_DEPTH;
    m->level = 0;
}

/* Counts n steps against the budget of the running hook (or file). */
static void pat_steps(pat_state *m, size_t n)
{
    if (budget_charge(m->s, n) < 0)
        luaL_error(m->L, BUDGET_TEXT " while matching a pattern",
                   (int)SCRIPT_INSTRUCTION_BUDGET);
}

/* Is c in class %k?  A k that names no class stands for itself. */
static int pat_class(int c, int k)
{
    int in;
    switch (tolower(k)) {
    case 'a': in = isalpha(c); break;
    case 'c': in = iscntrl(c); break;
    case 'd': in = isdigit(c); break;
    case 'g': in = isgraph(c); break;
    case 'l': in = islower(c); break;
    case 'p': in = ispunct(c); break;
    case 's': in = isspace(c); break;
    case 'u': in = isupper(c); break;
    case 'w': in = isalnum(c); break;
    case 'x': in = isxdigit(c); break;
    case 'z': in = c == 0; break; /* not in the manual, still in the library */
    default: return k == c;
    }
    return isupper(k) ? !in : in != 0;
}

/* Is c in the set [...] from p (at '[') to close (at its ']')? */
static int pat_set(int c, const char *p, const char *close)
{
    int in = 1;
    if (p[1] == '^') {
        in = 0;
        p++;
    }
    while (++p < close) {
        if (*p == '%') {
            if (pat_class(c, (unsigned char)*++p))
                return in;
        } else if (p[1] == '-' && p + 2 < close) {
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2])
                return in;
            p += 2;
        } else if ((unsigned char)*p == c) {
            return in;
        }
    }
    return !in;
}

/* Just past the single-character class that starts at p. */
static const char *pat_class_end(pat_state *m, const char *p)
{
    char c = *p++;
    if (c == '%') {
        if (p >= m->pat_end)
            luaL_error(m->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (c == '[') {
        if (p < m->pat_end && *p == '^')
            p++;
        do { /* a ']' right after '[' or '[^' belongs to the set */
            if (p >= m->pat_end)
                luaL_error(m->L, "malformed pattern (missing ']')");
            c = *p++;
            if (c == '%' && p < m->pat_end)
                p++;
        } while (p >= m->pat_end || *p != ']');
        return p + 1;
    }
    return p;
}

/* Does the character at s match the class p..ep? */
static int pat_single(pat_state *m, const char *s, const char *p, const char *ep)
{
    pat_steps(m, 1);
    if (s >= m->src_end)
        return 0;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.': return 1;
    case '%': return pat_class(c, (unsigned char)p[1]);
    case '[': return pat_set(c, p, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

static const char *pat_match(pat_state *m, const char *s, const char *p);

/* Class p..ep repeated as often as it matches from s, then fewer and
 * fewer times, until the rest of the pattern (after ep's quantifier)
 * matches. */
static const char *pat_greedy(pat_state *m, const char *s, const char *p, const char *ep)
{
    ptrdiff_t n = 0;
    while (pat_single(m, s + n, p, ep))
        n++;
    for (; n >= 0; n--) {
        const char *e = pat_match(m, s + n, ep + 1);
        if (e)
            return e;
    }
    return NULL;
}

/* The same, the fewest repetitions first ('-'). */
static const char *pat_lazy(pat_state *m, const char *s, const char *p, const char *ep)
{
    for (;; s++) {
        const char *e = pat_match(m, s, ep + 1);
        if (e)
            return e;
        if (!pat_single(m, s, p, ep))
            return NULL;
    }
}

static const char *pat_open(pat_state *m, const char *s, const char *p, ptrdiff_t what)
{
    if (m->level >= PAT_MAX_CAPTURES)
        luaL_error(m->L, "too many captures");
    m->cap[m->level].at = s;
    m->cap[m->level].len = what;
    m->level++;
    const char *e = pat_match(m, s, p);
    if (!e)
        m->level--;
    return e;
}

static const char *pat_close(pat_state *m, const char *s, const char *p)
{
    int l = m->level - 1;
    while (l >= 0 && m->cap[l].len != PAT_OPEN)
        l--;
    if (l < 0)
        luaL_error(m->L, "invalid pattern capture");
    m->cap[l].len = s - m->cap[l].at;
    const char *e = pat_match(m, s, p);
    if (!e)
        m->cap[l].len = PAT_OPEN;
    return e;
}

/* %bxy at s (p at x). */
static const char *pat_balance(pat_state *m, const char *s, const char *p)
{
    if (p + 1 >= m->pat_end)
        luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= m->src_end || *s != p[0])
        return NULL;
    const char *from = s;
    for (int open = 1; ++s < m->src_end;) {
        if (*s == p[1]) {
            if (--open == 0) {
                pat_steps(m, (size_t)(s - from));
                return s + 1;
            }
        } else if (*s == p[0]) {
            open++;
        }
    }
    pat_steps(m, (size_t)(s - from));
    return NULL;
}

/* %1..%9 at s: the text of an earlier capture again. */
static const char *pat_backref(pat_state *m, const char *s, int digit)
{
    int l = digit - '1';
    if (l < 0 || l >= m->level || m->cap[l].len == PAT_OPEN)
        luaL_error(m->L, "invalid capture index %%%d", l + 1);
    ptrdiff_t len = m->cap[l].len; /* a position capture never matches */
    pat_steps(m, len > 0 ? (size_t)len : 1);
    if (len >= 0 && m->src_end - s >= len && !memcmp(m->cap[l].at, s, (size_t)len))
        return s + len;
    return NULL;
}

/* Matches pattern p (up to m->pat_end) at s: the end of the match, or
 * NULL.  Items without a choice are taken in the loop; a quantifier or a
 * capture calls this again for the rest of the pattern. */
static const char *pat_match(pat_state *m, const char *s, const char *p)
{
    if (m->depth-- == 0)
        luaL_error(m->L, "pattern too complex");
    pat_steps(m, 1);
    while (s && p < m->pat_end) {
        if (*p == '(') {
            s = p[1] == ')' ? pat_open(m, s, p + 2, PAT_POSITION)
                            : pat_open(m, s, p + 1, PAT_OPEN);
            break;
        }
        if (*p == ')') {
            s = pat_close(m, s, p + 1);
            break;
        }
        if (*p == '$' && p + 1 == m->pat_end) {
            s = s == m->src_end ? s : NULL;
            break;
        }
        if (*p == '%' && p[1] == 'b') {
            s = pat_balance(m, s, p + 2);
            p += 4;
            continue;
        }
        if (*p == '%' && p[1] == 'f') {
            p += 2;
            if (p >= m->pat_end || *p != '[')
                luaL_error(m->L, "missing '[' after '%%f' in pattern");
            const char *ep = pat_class_end(m, p);
            int before = s == m->src ? 0 : (unsigned char)s[-1];
            int here = s < m->src_end ? (unsigned char)*s : 0;
            pat_steps(m, 1);
            if (pat_set(before, p, ep - 1) || !pat_set(here, p, ep - 1))
                s = NULL;
            p = ep;
            continue;
        }
        if (*p == '%' && isdigit((unsigned char)p[1])) {
            s = pat_backref(m, s, p[1]);
            p += 2;
            continue;
        }
        const char *ep = pat_class_end(m, p);
        char q = ep < m->pat_end ? *ep : 0;
        if (!pat_single(m, s, p, ep)) {
            if (q == '*' || q == '?' || q == '-')
                p = ep + 1; /* zero repetitions */
            else
                s = NULL;
            continue;
        }
        if (q == '?') {
            const char *e = pat_match(m, s + 1, ep + 1);
            if (e) {
                s = e;
                break;
            }
            p = ep + 1;
        } else if (q == '+') {
            s = pat_greedy(m, s + 1, p, ep);
            break;
        } else if (q == '*') {
            s = pat_greedy(m, s, p, ep);
            break;
        } else if (q == '-') {
            s = pat_lazy(m, s, p, ep);
            break;
        } else {
            s++;
            p = ep;
        }
    }
    m->depth++;
    return s;
}

/* Pushes capture i of the match s..e (i = 0 without captures: the whole
 * match). */
static void pat_push_one(pat_state *m, int i, const char *s, const char *e)
{
    if (i >= m->level) {
        if (i != 0)
            luaL_error(m->L, "invalid capture index %%%d", i + 1);
        lua_pushlstring(m->L, s, (size_t)(e - s));
    } else if (m->cap[i].len == PAT_OPEN) {
        luaL_error(m->L, "unfinished capture");
    } else if (m->cap[i].len == PAT_POSITION) {
        lua_pushinteger(m->L, m->cap[i].at - m->src + 1);
    } else {
        lua_pushlstring(m->L, m->cap[i].at, (size_t)m->cap[i].len);
    }
}

/* Pushes the captures (or, s not NULL and none, the whole match s..e). */
static int pat_push_all(pat_state *m, const char *s, const char *e)
{
    int n = m->level == 0 && s ? 1 : m->level;
    luaL_checkstack(m->L, n, "too many captures");
    for (int i = 0; i < n; i++)
        pat_push_one(m, i, s, e);
    return n;
}

/* A start position argument (1-based, negative from the end) as an offset
 * 0..len, or len + 1 and more: past the end. */
static size_t pat_start(lua_Integer pos, size_t len)
{
    if (pos > 0)
        return (size_t)pos - 1;
    if (pos == 0 || pos < -(lua_Integer)len)
        return 0;
    return len + (size_t)pos;
}

/* find without specials: p (lp bytes) in s (n bytes), or NULL. */
static const char *pat_plain(pat_state *m, const char *s, size_t n, const char *p, size_t lp)
{
    if (lp == 0)
        return s;
    if (lp > n)
        return NULL;
    const char *last = s + (n - lp);
    while (s <= last) {
        const char *hit = memchr(s, p[0], (size_t)(last - s) + 1);
        pat_steps(m, (size_t)((hit ? hit : last) - s) + 1);
        if (!hit)
            return NULL;
        size_t k = 1;
        while (k < lp && hit[k] == p[k])
            k++;
        pat_steps(m, k);
        if (k == lp)
            return hit;
        s = hit + 1;
    }
    return NULL;
}

static int pat_has_specials(const char *p, size_t lp)
{
    for (size_t i = 0; i < lp; i++)
        if (strchr("^$*+?.([%-", p[i]) && p[i])
            return 1;
    return 0;
}

static int pat_find_or_match(lua_State *L, int find)
{
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = pat_start(luaL_optinteger(L, 3, 1), ls);
    if (init > ls) {
        luaL_pushfail(L);
        return 1;
    }
    pat_state m;
    pat_init(&m, L, s, ls, p, lp);
    if (find && (lua_toboolean(L, 4) || !pat_has_specials(p, lp))) {
        const char *at = pat_plain(&m, s + init, ls - init, p, lp);
        if (at) {
            lua_pushinteger(L, at - s + 1);
            lua_pushinteger(L, (lua_Integer)((size_t)(at - s) + lp));
            return 2;
        }
        luaL_pushfail(L);
        return 1;
    }
    int anchor = lp > 0 && *p == '^';
    if (anchor)
        p++;
    for (const char *from = s + init;; from++) {
        m.level = 0;
        m.depth = PAT_MAX_DEPTH;
        const char *e = pat_match(&m, from, p);
        if (e && find) {
            lua_pushinteger(L, from - s + 1);
            lua_pushinteger(L, e - s);
            return 2 + pat_push_all(&m, NULL, NULL);
        }
        if (e)
            return pat_push_all(&m, from, e);
        if (anchor || from >= m.src_end)
            break;
    }
    luaL_pushfail(L);
    return 1;
}

static int l_str_find(lua_State *L) { return pat_find_or_match(L, 1); }

static int l_str_match(lua_State *L) { return pat_find_or_match(L, 0); }

/* The state of a gmatch iterator, a userdata kept as its upvalue 3 (the
 * subject and the pattern are upvalues 1 and 2, so they stay alive). */
typedef struct pat_iter {
    size_t at;                  /* where the next search starts */
    ptrdiff_t last;             /* end of the last match, -1 none */
} pat_iter;

static int pat_gmatch_next(lua_State *L)
{
    size_t ls, lp;
    const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
    const char *p = lua_tolstring(L, lua_upvalueindex(2), &lp);
    pat_iter *it = lua_touserdata(L, lua_upvalueindex(3));
    pat_state m;
    pat_init(&m, L, s, ls, p, lp);
    for (size_t from = it->at; from <= ls; from++) {
        m.level = 0;
        m.depth = PAT_MAX_DEPTH;
        const char *e = pat_match(&m, s + from, p);
        if (e && e - s != it->last) {
            it->at = (size_t)(e - s);
            it->last = e - s;
            return pat_push_all(&m, s + from, e);
        }
    }
    it->at = ls + 1;
    return 0;
}

/* gmatch(s, pattern [, init]): '^' is an ordinary character here. */
static int l_str_gmatch(lua_State *L)
{
    size_t ls;
    luaL_checklstring(L, 1, &ls);
    luaL_checkstring(L, 2);
    size_t init = pat_start(luaL_optinteger(L, 3, 1), ls);
    lua_settop(L, 2);
    pat_iter *it = lua_newuserdatauv(L, sizeof *it, 0);
    it->at = init > ls ? ls + 1 : init;
    it->last = -1;
    lua_pushcclosure(L, pat_gmatch_next, 3);
    return 1;
}

/* Appends the replacement string (argument 3) for the match s..e:
 * %0..%9 are captures, %% a '%'. */
static void pat_add_string(pat_state *m, luaL_Buffer *b, const char *s, const char *e)
{
    lua_State *L = m->L;
    size_t len;
    const char *r = lua_tolstring(L, 3, &len), *end = r + len, *pc;
    while ((pc = memchr(r, '%', (size_t)(end - r))) != NULL) {
        luaL_addlstring(b, r, (size_t)(pc - r));
        char d = pc[1]; /* '\0' past the end */
        if (d == '%') {
            luaL_addchar(b, '%');
        } else if (d == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (isdigit((unsigned char)d)) {
            pat_push_one(m, d - '1', s, e);
            luaL_tolstring(L, -1, NULL); /* a position capture is a number */
            lua_remove(L, -2);
            luaL_addvalue(b);
        } else {
            luaL_error(L, "invalid use of '%%' in replacement string");
        }
        r = pc + 2;
    }
    luaL_addlstring(b, r, (size_t)(end - r));
}

/* Appends the replacement of the match s..e; returns whether it differs
 * from the match (false or nil from a function or table keep it). */
static int pat_add_value(pat_state *m, luaL_Buffer *b, const char *s, const char *e, int how)
{
    lua_State *L = m->L;
    if (how == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = pat_push_all(m, s, e);
        lua_call(L, n, 1);
    } else if (how == LUA_TTABLE) {
        pat_push_one(m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        pat_add_string(m, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1))
        return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

static int l_str_gsub(lua_State *L)
{
    size_t ls, lp;
    const char *src = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int how = lua_type(L, 3);
    lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)ls + 1), n = 0;
    luaL_argexpected(L, how == LUA_TNUMBER || how == LUA_TSTRING || how == LUA_TFUNCTION ||
                     how == LUA_TTABLE, 3, "string/function/table");
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    int anchor = lp > 0 && *p == '^', changed = 0;
    if (anchor)
        p++;
    pat_state m;
    pat_init(&m, L, src, ls, p, lp - (size_t)anchor);
    const char *s = src, *last = NULL;
    while (n < max) {
        m.level = 0;
        m.depth = PAT_MAX_DEPTH;
        const char *e = pat_match(&m, s, p);
        if (e && e != last) {
            n++;
            changed |= pat_add_value(&m, &b, s, e, how);
            s = last = e;
        } else if (s < m.src_end) {
            luaL_addchar(&b, *s++);
        } else {
            break;
        }
        if (anchor)
            break;
    }
    if (!changed) {
        lua_pushvalue(L, 1);
    } else {
        luaL_addlstring(&b, s, (size_t)(m.src_end - s));
        luaL_pushresult(&b);
    }
    lua_pushinteger(L, n);
    return 2;
}

/* ------------------------------------------------------------ sandbox */

static int l_blocked_index(lua_State *L)
{
    const char *k = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    for (int i = 0; k && blocked_globals[i]; i++)
        if (!strcmp(k, blocked_globals[i]))
            return luaL_error(L, "'%s' is not available in tiers scripts", k);
    return 0;
}

/* Library functions whose work in C grows with their input but allocates
 * little: each call is charged, before it runs, the size of what it will
 * walk (the count hook sees one instruction however long they take). */
enum { COST_SORT, COST_LENGTH, COST_RANGE, COST_HEAP, COST_BYTES };
static const struct charged_fn {
    const char *lib, *name;
    int cost;
} charged_fns[] = {
    {LUA_TABLIBNAME, "sort", COST_SORT},      {LUA_TABLIBNAME, "insert", COST_LENGTH},
    {LUA_TABLIBNAME, "remove", COST_LENGTH},  {LUA_TABLIBNAME, "concat", COST_LENGTH},
    {LUA_TABLIBNAME, "move", COST_RANGE},     {NULL, "collectgarbage", COST_HEAP},
    {LUA_UTF8LIBNAME, "len", COST_BYTES},     {LUA_UTF8LIBNAME, "codepoint", COST_BYTES},
    {LUA_UTF8LIBNAME, "offset", COST_BYTES},  {NULL, "tonumber", COST_BYTES},
    {NULL, NULL, 0}};

static size_t charged_cost(lua_State *L, const tiers_script *s, int cost)
{
    switch (cost) {
    case COST_SORT: {
        double n = lua_istable(L, 1) ? (double)lua_rawlen(L, 1) : 0;
        return (size_t)(n * (log2(n + 1) + 1));
    }
    case COST_LENGTH:
        return lua_istable(L, 1) ? (size_t)lua_rawlen(L, 1) : 0;
    case COST_RANGE: { /* table.move(a, f, e, t) */
        lua_Integer f = lua_tointeger(L, 2), e = lua_tointeger(L, 3);
        return e >= f ? (size_t)((lua_Unsigned)e - (lua_Unsigned)f) : 0;
    }
    case COST_HEAP:
        return s->mem / ALLOC_BYTES_PER_STEP;
    default:
        return lua_type(L, 1) == LUA_TSTRING ? lua_rawlen(L, 1) / 8 : 0;
    }
}

/* The wrapper: upvalue 1 the library's function, upvalue 2 its cost. */
static int l_charged(lua_State *L)
{
    tiers_script *s = script_of(L);
    size_t n = charged_cost(L, s, (int)lua_tointeger(L, lua_upvalueindex(2)));
    if (budget_charge(s, n) < 0)
        return luaL_error(L, BUDGET_TEXT, (int)SCRIPT_INSTRUCTION_BUDGET);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* Replaces each function of charged_fns by its wrapper (globals on top). */
static void wrap_charged(lua_State *L)
{
    for (const struct charged_fn *c = charged_fns; c->name; c++) {
        if (c->lib)
            lua_getfield(L, -1, c->lib);
        else
            lua_pushvalue(L, -1);
        lua_getfield(L, -1, c->name);
        lua_pushinteger(L, c->cost);
        lua_pushcclosure(L, l_charged, 2);
        lua_setfield(L, -2, c->name);
        lua_pop(L, 1);
    }
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

/* math.random and math.randomseed over the position's xorshift64 state
 * (the script's own while loading), so playouts replay exactly. */
static uint64_t next_random(tiers_script *s)
{
    uint64_t *r = s->cur.p ? &s->cur.p->rng : &s->rng;
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
    *(s->cur.p ? &s->cur.p->rng : &s->rng) = seed ? seed : 1;
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
    static const char *const repkey[] = {"full", "board"};
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
    set_str(L, "repetition_key", repkey[v->repetition_key & 1]);
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
        for (int j = 0; j < FL_COUNT; j++)
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
                  k == FL_BESIDE_ROYAL;
    if (!boolean && !lua_istable(L, vi))
        return luaL_error(L, "effect '%s': %s must be a list, not %s", name, key,
                          luaL_typename(L, vi));
    hook_filter *f = &flt[h];
    f->on = 1;
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
        else if (k == FL_STUCK)
            f->stuck = 1;
        else if (k == FL_DOUBLED)
            f->doubled = 1;
        else if (k == FL_TO_MOVE)
            f->to_move = 1;
        else if (k == FL_CONTROLLED)
            f->controlled = 1;
        else if (k == FL_BESIDE_ROYAL)
            f->beside_royal = 1;
        else
            f->pure = 1;
        return 0;
    }
    lua_Unsigned n = lua_rawlen(L, vi);
    if (k == FL_RANKS) {
        if (n != 2)
            return luaL_error(L, "effect '%s': %s must be {first, last}", name, key);
        lua_rawgeti(L, vi, 1);
        f->lo = (uint8_t)filter_int(L, name, key, 1, TIERS_MAX_RANKS);
        lua_rawgeti(L, vi, 2);
        f->hi = (uint8_t)filter_int(L, name, key, f->lo, TIERS_MAX_RANKS);
        lua_pop(L, 2);
        return 0;
    }
    /* An empty list of faces, kinds or heights matches no move: the hook
       then runs only for moves tagged with its effect. */
    if (n == 0 && k != FL_VARS)
        f->never = 1;
    int face = k == FL_FACES || k == FL_TAKEN || k == FL_FILE_FACES;
    for (lua_Unsigned i = 1; i <= n; i++) {
        lua_rawgeti(L, vi, (lua_Integer)i);
        if (face || k == FL_KINDS) {
            const char *nm = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            int x = -1;
            if (face && nm)
                x = find_face(v, nm);
            for (int j = 1; k == FL_KINDS && nm && j < TIERS_MV_KINDS; j++)
                if (!strcmp(nm, kind_name[j]))
                    x = j;
            if (x < 0)
                return luaL_error(L, "effect '%s': %s: unknown %s '%s'", name, key,
                                  face ? "face" : "move kind",
                                  nm ? nm : luaL_typename(L, -1));
            if (k == FL_FACES)
                f->faces |= 1ull << x;
            else if (k == FL_TAKEN)
                f->taken |= 1ull << x;
            else if (k == FL_FILE_FACES)
                f->file_faces |= 1ull << x;
            else
                f->kinds |= (uint16_t)(1u << x);
        } else if (k == FL_HEIGHTS || k == FL_FILE_HEIGHTS || k == FL_TIERS) {
            uint16_t bit = (uint16_t)(1u << filter_int(L, name, key, k != FL_FILE_HEIGHTS,
                                                       TIERS_MAX_TIERS));
            if (k == FL_TIERS)
                f->tiers |= bit;
            else if (k == FL_HEIGHTS)
                f->heights |= bit;
            else
                f->file_heights |= bit;
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
    if (find_effect(v, name) >= 0)
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
static int open_sandbox(lua_State *L)
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
    lua_pushcfunction(L, l_rawset);
    lua_setfield(L, -2, "rawset");
    lua_pushcfunction(L, l_print);
    lua_setfield(L, -2, "print");
    lua_pushcfunction(L, l_effect);
    lua_setfield(L, -2, "effect");
    push_rules(L, s->v);
    lua_setfield(L, -2, "rules");
    lua_newtable(L); /* the globals' metatable: names of missing libraries */
    lua_pushcfunction(L, l_blocked_index);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    wrap_charged(L);
    lua_getfield(L, -1, LUA_STRLIBNAME);
    static const luaL_Reg strings[] = {
        {"dump", l_no_dump},       {"find", l_str_find}, {"match", l_str_match},
        {"gmatch", l_str_gmatch}, {"gsub", l_str_gsub}, {NULL, NULL}};
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
    push_handle(L, 0); /* the metatable of every light userdata */
    lua_insert(L, -2);
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
    lua_newtable(L);
    s->pieces_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_createtable(L, MOVE_CACHE, 0);
    s->moves_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L);
    make_read_only(L);
    s->empty_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    const tiers_variant *v = s->v;
    for (int k = 0; k < NKEYS; k++) {
        lua_pushstring(L, key_name[k]);
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
        lua_pushstring(L, kind_name[k]);
        s->kind_ref[k] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    for (int d = 0; d < 4; d++) {
        lua_pushlstring(L, &facing_chars[d], 1);
        s->facing_ref[d] = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    return 0;
}

/* ------------------------------------------------------------ hook calls */

/* Prefixes "file:line: " where the hook function is defined. */
static int hook_error(lua_State *L, const call *c, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const effect_rec *fx = &c->s->fx[c->effect];
    lua_pushfstring(L, "%s:%d: hook %s %s", fx->src[c->hook], fx->line[c->hook],
                    hook_name[c->hook], msg);
    return lua_error(L);
}

static int check_boolean(lua_State *L, const call *c, int idx, int nil_ok)
{
    int t = lua_type(L, idx);
    if (t == LUA_TBOOLEAN || (nil_ok && t == LUA_TNIL))
        return lua_toboolean(L, idx);
    return hook_error(L, c, "must return a boolean%s, not %s", nil_ok ? " or nil" : "",
                      luaL_typename(L, idx));
}

static void moves_result(lua_State *L, call *c)
{
    if (lua_isnil(L, 1))
        return;
    if (!lua_istable(L, 1))
        hook_error(L, c, "must return a list of moves or nil, not %s", luaL_typename(L, 1));
    lua_Unsigned n = lua_rawlen(L, 1);
    for (lua_Unsigned i = 1; i <= n; i++) {
        if (c->n >= c->cap) {
            c->full = 1;
            return;
        }
        lua_rawgeti(L, 1, (lua_Integer)i);
        check_move(L, lua_gettop(L), c, (int)i, &c->buf[c->n]);
        lua_pop(L, 1);
        c->n++;
    }
}

static void result_result(lua_State *L, call *c)
{
    if (lua_isnil(L, 1)) {
        c->result = 0;
        return;
    }
    const char *r = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : "";
    tiers_result res = !strcmp(r, "0") ? TIERS_WIN_0 : !strcmp(r, "1") ? TIERS_WIN_1
                     : !strcmp(r, "draw") ? TIERS_DRAW : TIERS_ONGOING;
    if (res == TIERS_ONGOING)
        hook_error(L, c, "must return nil or \"0\", \"1\" or \"draw\", not %s",
                   lua_type(L, 1) == LUA_TSTRING ? lua_pushfstring(L, "\"%s\"", r)
                                                 : luaL_typename(L, 1));
    if (!lua_isnil(L, 2) && lua_type(L, 2) != LUA_TSTRING)
        hook_error(L, c, "must return a reason string after the result, not %s",
                   luaL_typename(L, 2));
    snprintf(c->s->reason, sizeof c->s->reason, "%s",
             lua_isnil(L, 2) ? c->s->v->effect_name[c->effect] : lua_tostring(L, 2));
    c->st->result = res;
    c->st->reason = c->s->reason;
    c->st->game_over = 1;
    c->result = 1;
}

static void format_result(lua_State *L, call *c)
{
    if (lua_isnil(L, 1) && c->m->kind != TIERS_MV_EFFECT)
        return;
    if (lua_type(L, 1) != LUA_TSTRING)
        hook_error(L, c, "must return a string%s, not %s",
                   c->m->kind == TIERS_MV_EFFECT ? "" : " or nil", luaL_typename(L, 1));
    size_t len;
    const char *t = lua_tolstring(L, 1, &len);
    if (c->m->kind == TIERS_MV_EFFECT && !len)
        hook_error(L, c, "returned an empty text");
    for (size_t i = 0; i < len; i++)
        if (isspace((unsigned char)t[i]) || !isprint((unsigned char)t[i]))
            hook_error(L, c, "must return text without spaces or control characters");
    if (c->len + len >= c->size) {
        c->full = 1;
        return;
    }
    memcpy(c->text + c->len, t, len);
    c->len += len;
    c->text[c->len] = 0;
}

/* The variants an expand hook returned: nil keeps the move; a list
 * replaces it by its entries, each {} (the move as it is) or a copy of the
 * move tagged with the effect, with `path` and `arg` as the entry gives. */
static void expand_result(lua_State *L, call *c)
{
    if (lua_isnil(L, 1)) {
        c->keep = 1;
        return;
    }
    if (!lua_istable(L, 1))
        hook_error(L, c, "must return a list of variants or nil, not %s", luaL_typename(L, 1));
    lua_Unsigned n = lua_rawlen(L, 1);
    for (lua_Unsigned i = 1; i <= n; i++) {
        lua_rawgeti(L, 1, (lua_Integer)i);
        int e = lua_gettop(L);
        if (!lua_istable(L, e))
            hook_error(L, c, "variant %d is a %s, not a table", (int)i, luaL_typename(L, e));
        tiers_move m = *c->m;
        int plain = 1;
        lua_pushnil(L);
        while (lua_next(L, e)) {
            const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
            plain = 0;
            if (!strcmp(key, "arg")) {
                int isnum;
                lua_Integer a = lua_tointegerx(L, -1, &isnum);
                if (!isnum || a < 0 || a > 255)
                    hook_error(L, c, "variant %d: arg must be an integer 0..255", (int)i);
                m.arg = (uint8_t)a;
            } else if (!strcmp(key, "path")) {
                int pi = lua_gettop(L);
                lua_Integer np = lua_istable(L, pi) ? luaL_len(L, pi) : 5;
                if (np < 0 || np > 4)
                    hook_error(L, c, "variant %d: path must be a list of at most 4 squares",
                               (int)i);
                for (int j = 0; j < (int)np; j++) {
                    const char *why = NULL;
                    lua_geti(L, pi, j + 1);
                    int sq = move_square(L, "path square", 1, &why);
                    if (why || lua_isnil(L, -1))
                        hook_error(L, c, "variant %d: %s", (int)i, why ? why
                                   : "path squares must be square names");
                    m.path[j] = (uint8_t)sq;
                    lua_settop(L, pi);
                }
                m.npath = (uint8_t)np;
            } else {
                hook_error(L, c, "variant %d: unknown field '%s' (path, arg)", (int)i, key);
            }
            lua_settop(L, e + 1); /* keep the key for lua_next */
        }
        lua_settop(L, e - 1);
        if (plain) {
            c->keep = 1;
            continue;
        }
        if (c->n >= c->cap) {
            c->full = 1;
            return;
        }
        m.effect = (uint8_t)(c->effect + 1);
        c->buf[c->n++] = m;
    }
}

/* An evaluate hook's score: a finite number, rounded and kept within
 * +-EVAL_LIMIT so that it never reads as a won or lost game. */
static int evaluate_result(lua_State *L, call *c)
{
    int isnum;
    lua_Number x = lua_tonumberx(L, 1, &isnum);
    if (lua_type(L, 1) != LUA_TNUMBER || !isnum || x != x || x > 1e300 || x < -1e300)
        hook_error(L, c, "must return a finite number, not %s",
                   lua_type(L, 1) == LUA_TNUMBER ? lua_tostring(L, 1) : luaL_typename(L, 1));
    if (x > EVAL_LIMIT)
        return EVAL_LIMIT;
    if (x < -EVAL_LIMIT)
        return -EVAL_LIMIT;
    return (int)(x < 0 ? x - 0.5 : x + 0.5);
}

/* Runs one hook of one effect (under run_hook's pcall). */
static int trampoline(lua_State *L)
{
    call *c = lua_touserdata(L, 1);
    tiers_script *s = c->s;
    lua_settop(L, 0);
    luaL_checkstack(L, 12, NULL);
    lua_rawgeti(L, LUA_REGISTRYINDEX, s->fx[c->effect].ref[c->hook]);
    push_handle(L, s->cur.gen);
    int nargs = 1;
    switch (c->hook) {
    case HK_VETO:
    case HK_AFTER:
    case HK_APPLY:
    case HK_FORMAT:
    case HK_EXPAND:
        push_move(L, c->p, c->m, c->u);
        nargs = 2;
        break;
    case HK_TIER:
        push_square(L, c->sq);
        lua_pushinteger(L, c->idx + 1);
        lua_pushinteger(L, c->tier);
        nargs = 4;
        break;
    case HK_DROP_OK:
        push_piece(L, s->v, c->pc, 0);
        push_square(L, c->sq);
        nargs = 3;
        break;
    case HK_CHECK:
    case HK_EVALUATE:
        lua_pushinteger(L, c->side);
        nargs = 2;
        break;
    default:
        break;
    }
    lua_call(L, nargs, 2);
    switch (c->hook) {
    case HK_MOVES:
        moves_result(L, c);
        break;
    case HK_VETO:
    case HK_AFTER:
    case HK_APPLY:
    case HK_CHECK:
        c->result = check_boolean(L, c, 1, 1);
        break;
    case HK_DROP_OK:
        c->result = check_boolean(L, c, 1, 0);
        break;
    case HK_TIER:
        if (!lua_isnil(L, 1)) {
            int isnum;
            lua_Integer t = lua_tointegerx(L, 1, &isnum);
            if (lua_type(L, 1) != LUA_TNUMBER || !isnum || t < 1 || t > TIERS_MAX_TIERS)
                hook_error(L, c, "must return a tier 1..%d or nil, not %s", TIERS_MAX_TIERS,
                           lua_type(L, 1) == LUA_TNUMBER ? lua_tostring(L, 1)
                                                         : luaL_typename(L, 1));
            c->result = (int)t;
        }
        break;
    case HK_RESULT:
        result_result(L, c);
        break;
    case HK_FORMAT:
        format_result(L, c);
        break;
    case HK_EXPAND:
        expand_result(L, c);
        break;
    case HK_EVALUATE:
        c->result = evaluate_result(L, c);
        break;
    default:
        break;
    }
    return 0;
}

/* Does msg start with a "where:line:" position? */
static int has_location(const char *msg)
{
    for (const char *c = msg; *c && c < msg + 200; c++) {
        if (*c != ':' || !isdigit((unsigned char)c[1]))
            continue;
        const char *d = c + 1;
        while (isdigit((unsigned char)*d))
            d++;
        if (*d == ':')
            return 1;
    }
    return 0;
}

/* The message of a failed pcall (popped) with "where:line: " added when
 * it lacks one; `where`/`line` name the code that was running. */
static void take_error(tiers_script *s, int status, const char *where, int line, char *out,
                       size_t size)
{
    lua_State *L = s->L;
    char msg[400];
    if (status == LUA_ERRMEM)
        snprintf(msg, sizeof msg, s->mem_hit ? "memory limit of %zu MiB exceeded"
                                             : "out of memory (%zu MiB limit)",
                 s->mem_limit >> 20);
    else if (lua_type(L, -1) == LUA_TSTRING)
        snprintf(msg, sizeof msg, "%s", lua_tostring(L, -1));
    else
        snprintf(msg, sizeof msg, "(error object is a %s value)", luaL_typename(L, -1));
    lua_pop(L, 1);
    if (has_location(msg))
        snprintf(out, size, "%s", msg);
    else if (line > 0)
        snprintf(out, size, "%s:%d: %s", where, line, msg);
    else
        snprintf(out, size, "%s: %s", where, msg);
}

/* Calls hook c->hook of effect c->effect in a fresh context.  Returns 0 or
 * TIERS_ESCRIPT (message in s->error). */
static int run_hook(tiers_script *s, call *c)
{
    lua_State *L = s->L;
    const effect_rec *fx = &s->fx[c->effect];
    const char *effect = s->v->effect_name[c->effect];
    if (s->depth >= SCRIPT_MAX_DEPTH) {
        snprintf(s->error, sizeof s->error, "%s:%d: hooks nested too deeply (in hook %s of "
                 "effect %s)", fx->src[c->hook], fx->line[c->hook], hook_name[c->hook], effect);
        s->nested_error = 1;
        return TIERS_ESCRIPT;
    }
    /* A hook run from a hook costs its call (the outer hook's budget), and
       is refused once that budget is spent. */
    if (s->depth > 0 && (budget_spent(s) || budget_charge(s, SCRIPT_NESTED_COST) < 0)) {
        snprintf(s->error, sizeof s->error, "%s:%d: " BUDGET_TEXT " (in hook %s of effect %s)",
                 fx->src[c->hook], fx->line[c->hook], (int)SCRIPT_INSTRUCTION_BUDGET,
                 hook_name[c->hook], effect);
        s->nested_error = 1;
        return TIERS_ESCRIPT;
    }
    hook_ctx saved = s->cur;
    s->cur = (hook_ctx){.p = c->p, .gen = ++s->gen_next, .hook = c->hook,
                        .effect = c->effect, .writable = hook_writes[c->hook]};
    if (s->depth == 0) {
        budget_reset(s);
        s->mem_hit = 0;
    }
    s->depth++;
    int status = LUA_ERRMEM, stack = lua_checkstack(L, 3);
    if (stack) {
        lua_pushcfunction(L, trampoline);
        lua_pushlightuserdata(L, c);
        status = lua_pcall(L, 1, 0, 0);
    }
    s->depth--;
    s->cur = saved;
    if (status == LUA_OK && !budget_spent(s))
        return 0;
    char msg[400];
    if (status == LUA_OK) /* it caught the budget's error with pcall and went on */
        snprintf(msg, sizeof msg, "%s:%d: " BUDGET_TEXT, fx->src[c->hook], fx->line[c->hook],
                 (int)SCRIPT_INSTRUCTION_BUDGET);
    else if (stack)
        take_error(s, status, fx->src[c->hook], fx->line[c->hook], msg, sizeof msg);
    else
        snprintf(msg, sizeof msg, "%s:%d: out of Lua stack", fx->src[c->hook],
                 fx->line[c->hook]);
    /* the chain of hooks, outermost last; a hook run again from inside
       itself (a veto asking has_legal_move) is named once */
    char in[160];
    snprintf(in, sizeof in, " (in hook %s of effect %s)", hook_name[c->hook], effect);
    size_t lm = strlen(msg), li = strlen(in);
    int again = lm >= li && !strcmp(msg + lm - li, in);
    snprintf(s->error, sizeof s->error, "%s%s", msg, again ? "" : in);
    ((tiers_pos *)c->p)->script_failed = 1;
    if (s->depth > 0)
        s->nested_error = 1;
    else if (status == LUA_ERRMEM)
        lua_gc(L, LUA_GCCOLLECT);
    return TIERS_ESCRIPT;
}

static tiers_script *script_for(const tiers_pos *p) { return p->v->script; }

int script_moves(tiers_pos *p, tiers_move *buf, int n, int cap)
{
    tiers_script *s = script_for(p);
    if (!s)
        return n;
    call c = {.s = s, .hook = HK_MOVES, .p = p, .buf = buf, .n = n, .cap = cap};
    for (int i = 0; i < s->nlist[HK_MOVES]; i++) {
        c.effect = s->list[HK_MOVES][i];
        uint64_t key = 0;
        if (!moves_pass(p, &s->fx[c.effect].filter[HK_MOVES], &key))
            continue;
        moves_memo *memo = s->fx[c.effect].memo;
        memo = memo && key ? &memo[key % MEMO_SLOTS] : NULL; /* 0: vars passed it */
        if (memo && memo->used && memo->key == key) {
            if (c.n + memo->n > cap)
                return TIERS_EFULL;
            memcpy(&buf[c.n], memo->m, memo->n * sizeof *buf);
            c.n += memo->n;
            continue;
        }
        int n0 = c.n;
        if (run_hook(s, &c) < 0)
            return TIERS_ESCRIPT;
        if (c.full)
            return TIERS_EFULL;
        if (memo && c.n - n0 <= MEMO_MOVES) {
            memo->key = key;
            memo->used = 1;
            memo->n = (uint8_t)(c.n - n0);
            memcpy(memo->m, &buf[n0], memo->n * sizeof *buf);
        }
    }
    return c.n;
}

int script_veto(tiers_pos *p, const tiers_move *m)
{
    tiers_script *s = script_for(p);
    if (!s || !p->depth)
        return 0;
    const undo_rec *u = &p->undo[p->depth - 1];
    move_faces mf;
    uint32_t cand = candidates(s, HK_VETO, p, u, m, &mf);
    if (!cand)
        return 0;
    call c = {.s = s, .hook = HK_VETO, .p = p, .m = m, .u = u};
    while (cand) {
        c.effect = next_effect(&cand);
        if (!filter_pass(p, c.u, m, &mf, &s->fx[c.effect].filter[HK_VETO], c.effect))
            continue;
        c.result = 1; /* veto = true */
        if (s->fx[c.effect].ref[HK_VETO] != LUA_REFNIL && run_hook(s, &c) < 0)
            return TIERS_ESCRIPT;
        if (c.result) {
            if (!s->depth && p->veto_root >= 0 && p->depth == p->veto_root + 1)
                p->vetoed |= 1u << c.effect; /* a foul that shaped the legal list */
            return 1;
        }
    }
    return 0;
}

int script_nested(const tiers_pos *p)
{
    const tiers_script *s = script_for(p);
    return s && s->depth > 0;
}

uint32_t script_drop_effects(const tiers_pos *p)
{
    const tiers_script *s = script_for(p);
    return s ? s->defines[HK_DROP_OK] : 0;
}

uint32_t script_check_effects(tiers_pos *p)
{
    tiers_script *s = script_for(p);
    if (!s || s->depth)
        return 0;
    call c = {.s = s, .hook = HK_CHECK, .p = p, .side = p->st.side};
    uint32_t yes = 0;
    for (int i = 0; i < s->nlist[HK_CHECK]; i++) {
        c.effect = s->list[HK_CHECK][i];
        c.result = 0;
        if (run_hook(s, &c) < 0)
            return 0; /* reported by the next generation, as in script_in_check */
        if (c.result)
            yes |= 1u << c.effect;
    }
    return yes;
}

int script_after(tiers_pos *p, const tiers_move *m)
{
    tiers_script *s = script_for(p);
    if (!s)
        return 0;
    move_faces mf;
    uint32_t cand = candidates(s, HK_AFTER, p, p->frame, m, &mf);
    if (!cand)
        return 0;
    call c = {.s = s, .hook = HK_AFTER, .p = p, .m = m, .u = p->frame};
    uint8_t fired[MAX_EFFECTS];
    int nfired = 0;
    while (cand) {
        c.effect = next_effect(&cand);
        c.result = 0;
        if (!filter_pass(p, c.u, m, &mf, &s->fx[c.effect].filter[HK_AFTER], c.effect))
            continue;
        if (run_hook(s, &c) < 0)
            return TIERS_ESCRIPT;
        if (c.result)
            fired[nfired++] = (uint8_t)c.effect;
    }
    for (int i = 0; i < nfired; i++) /* counted by tiers_make, not trials */
        p->fired |= 1u << fired[i];
    return nfired > 0;
}

/* Each expand hook in load order sees every move in buf that its filter
 * lets through (the variants of earlier effects included): the move is
 * made, the hook called on the position after it, the move unmade, and
 * then replaced by the variants the hook returned. */
/* A fixed expand list applied to buf[i]: its tagged variants are
 * appended, and the move itself is removed unless the list keeps it. */
static int expand_fixed(const effect_rec *fx, int effect, tiers_move *buf, int i, int *n,
                        int cap, int *removed)
{
    int keep = 0;
    for (int k = 0; k < fx->nfixed; k++) {
        if (fx->fixed[k].plain) {
            keep = 1;
            continue;
        }
        if (*n >= cap)
            return TIERS_EFULL;
        tiers_move m = buf[i];
        m.arg = fx->fixed[k].arg;
        m.effect = (uint8_t)(effect + 1);
        buf[(*n)++] = m;
    }
    if (!keep) {
        buf[i].kind = TIERS_MV_NONE;
        (*removed)++;
    }
    return 0;
}

int script_expand(tiers_pos *p, tiers_move *buf, int n, int cap, int drops_lo, int drops_hi)
{
    tiers_script *s = script_for(p);
    if (!s)
        return n;
    if (n > TIERS_MAX_MOVES)
        return TIERS_EFULL;
    /* The moves some expand hook may want, usually a few of the list: by
       kind and tag, and, for a move, stack or capture, by the faces on
       its squares (it acts with the top of `from` and takes the top of
       `to`).  Variants that an effect adds are appended for the effects
       after it; removed moves are marked TIERS_MV_NONE and squeezed out
       at the end. */
    uint16_t want[TIERS_MAX_MOVES];
    int nwant = 0, removed = 0, top = p->v->unit == UNIT_TOP;
    const uint32_t *by_kind = s->by_kind[HK_EXPAND];
    if (by_kind[TIERS_MV_DROP] || drops_lo < 0 || drops_hi > n)
        drops_lo = drops_hi = 0; /* drops are looked at like other moves */
    int from = -1, fa = MAX_FACES; /* the last source square and its top's face */
    for (int i = 0; i < n; i++) {
        if (i == drops_lo && drops_hi > drops_lo)
            i = drops_hi; /* no expand hook concerns a drop: skip them at once */
        if (i >= n)
            break;
        const tiers_move *m = &buf[i];
        uint32_t c = by_kind[m->kind];
        if (c & s->face_test[HK_EXPAND] && top &&
            (m->kind == TIERS_MV_MOVE || m->kind == TIERS_MV_STACK ||
             m->kind == TIERS_MV_CAPTURE)) {
            if (m->from != from) { /* a piece's moves come together */
                const tower *tf = &p->board[from = m->from];
                fa = tf->h ? p->v->face_of[tf->p[tf->h - 1]] : MAX_FACES;
            }
            const tower *tt = &p->board[m->to];
            int ft = m->kind == TIERS_MV_CAPTURE && tt->h ? p->v->face_of[tt->p[tt->h - 1]]
                                                          : MAX_FACES;
            c &= s->by_actor[HK_EXPAND][fa] | s->by_taken[HK_EXPAND][ft];
            if ((c & s->stuck_test) && !m->effect && !stuck_anywhere(s, fa, m->to))
                c &= ~s->stuck_test;
        }
        if (m->effect && m->effect <= MAX_EFFECTS)
            c |= (1u << (m->effect - 1)) & s->defines[HK_EXPAND];
        if (c)
            want[nwant++] = (uint16_t)i;
    }
    call c = {.s = s, .hook = HK_EXPAND, .p = p, .buf = buf, .cap = cap};
    for (int k = 0; k < s->nlist[HK_EXPAND] && nwant; k++) {
        c.effect = s->list[HK_EXPAND][k];
        const hook_filter *f = &s->fx[c.effect].filter[HK_EXPAND];
        int n0 = n, w0 = nwant;
        uint32_t bit = 1u << c.effect;
        for (int w = 0; w < w0; w++) {
            int i = want[w];
            const tiers_move *m = &buf[i];
            move_faces mf;
            if (m->kind == TIERS_MV_NONE ||
                !(candidates(s, HK_EXPAND, p, NULL, m, &mf) & bit) ||
                !filter_pass(p, NULL, m, &mf, f, c.effect))
                continue;
            tiers_move made = buf[i];
            int fixed = s->fx[c.effect].ref[HK_EXPAND] == LUA_REFNIL;
            if (fixed && !f->stuck) {
                if (expand_fixed(&s->fx[c.effect], c.effect, buf, i, &n, cap, &removed) < 0)
                    return TIERS_EFULL;
                continue;
            }
            int rc = make_move(p, &made);
            if (rc < 0)
                return rc;
            if (f->stuck && made.effect != c.effect + 1 && made.to != TIERS_NO_SQUARE) {
                /* expand_stuck, exactly now: can the piece move from here? */
                uint8_t mark[TIERS_MAX_SQUARES];
                int free_to_move = reach_of(p, made.to, mark) > 0;
                if (p->script_failed) { /* a tier hook failed */
                    unmake_move(p);
                    return TIERS_ESCRIPT;
                }
                if (free_to_move) {
                    unmake_move(p);
                    continue;
                }
            }
            if (fixed) {
                unmake_move(p);
                if (expand_fixed(&s->fx[c.effect], c.effect, buf, i, &n, cap, &removed) < 0)
                    return TIERS_EFULL;
                continue;
            }
            c.m = &made;
            c.u = &p->undo[p->depth - 1];
            c.n = n;
            c.keep = c.full = 0;
            rc = run_hook(s, &c);
            unmake_move(p);
            if (rc < 0)
                return TIERS_ESCRIPT;
            if (c.full)
                return TIERS_EFULL;
            n = c.n;
            if (!c.keep) {
                buf[i].kind = TIERS_MV_NONE;
                removed++;
            }
        }
        for (int i = n0; i < n; i++) { /* the new variants, for the next effects */
            if (nwant >= TIERS_MAX_MOVES)
                return TIERS_EFULL;
            want[nwant++] = (uint16_t)i;
        }
    }
    if (removed) {
        int j = 0;
        for (int i = 0; i < n; i++)
            if (buf[i].kind != TIERS_MV_NONE)
                buf[j++] = buf[i];
        n = j;
    }
    return n;
}

/* On a script error this returns the tier it was given (and keeps the
 * message): movegen_face_tier uses the result as a table index unchecked.
 * Inside another hook (pos:in_check) the error fails that hook. */
int script_tier(tiers_pos *p, int sq, int idx, int tier)
{
    tiers_script *s = script_for(p);
    /* After a failed tier hook the generation will fail: the others of
       its pieces are not asked (each could spend a whole budget). */
    if (!s || (p->script_failed && !s->depth))
        return tier;
    call c = {.s = s, .hook = HK_TIER, .p = p, .sq = sq, .idx = idx};
    int t = tier;
    for (int i = 0; i < s->nlist[HK_TIER]; i++) {
        c.effect = s->list[HK_TIER][i];
        c.tier = c.result = t;
        if (run_hook(s, &c) < 0)
            return tier;
        t = c.result;
    }
    return t;
}

/* Looks key up in the drop_ok answers (open addressing, linear probing:
 * a variant has a few hundred keys, so entries are never evicted).
 * Returns 1 with *slot its entry, or 0 with *slot the free entry for it
 * (DROP_CACHE_SIZE if the probe found none). */
static int drop_cache_find(const tiers_script *s, uint32_t key, uint32_t *slot)
{
    uint32_t h = (key ^ key >> 16) * 0x7feb352du;
    h = (h ^ h >> 15) * 0x846ca68bu;
    h ^= h >> 16;
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t k = (h + i) % DROP_CACHE_SIZE;
        if (s->drop_cache[k].key == key || !s->drop_cache[k].key) {
            *slot = k;
            return s->drop_cache[k].key == key;
        }
    }
    *slot = DROP_CACHE_SIZE;
    return 0;
}

int script_drop_ok(tiers_pos *p, piece_t pc, int sq)
{
    tiers_script *s = script_for(p);
    if (!s)
        return 1;
    const tower *t = &p->board[sq];
    piece_t top = t->h ? t->p[t->h - 1] : 0;
    int top_face = t->h ? p->v->face_of[top] : -1;
    call c;
    c.s = NULL; /* filled before the first call into Lua */
    for (int i = 0; i < s->nlist[HK_DROP_OK]; i++) {
        int e = s->list[HK_DROP_OK][i];
        const hook_filter *f = &s->fx[e].filter[HK_DROP_OK];
        /* drop_ok_faces: other targets are refused unasked */
        if ((f->faces || f->never) && (top_face < 0 || !(f->faces >> top_face & 1)))
            return 0;
        /* drop_ok_pure: the answer depends on the two pieces and the side
           to move only, so it is asked once */
        uint32_t key = 0, slot = 0;
        if (f->pure) {
            key = (1u << 31) | (uint32_t)e << 23 | (uint32_t)p->st.side << 22 |
                  (uint32_t)top << 11 | pc;
            int hit = drop_cache_find(s, key, &slot);
            if (hit > 0) {
                if (!s->drop_cache[slot].ok)
                    return 0;
                continue;
            }
        }
        if (!c.s)
            c = (call){.s = s, .hook = HK_DROP_OK, .p = p, .pc = pc, .sq = sq};
        c.effect = e;
        if (run_hook(s, &c) < 0)
            return TIERS_ESCRIPT;
        if (f->pure) {
            if (slot < DROP_CACHE_SIZE) { /* else the table is full: not kept */
                s->drop_cache[slot].key = key;
                s->drop_cache[slot].ok = (uint8_t)(c.result != 0);
            }
        }
        if (!c.result)
            return 0;
    }
    return 1;
}

int script_result(tiers_pos *p, tiers_status *st)
{
    tiers_script *s = script_for(p);
    if (!s)
        return 0;
    call c = {.s = s, .hook = HK_RESULT, .p = p, .st = st};
    for (int i = 0; i < s->nlist[HK_RESULT]; i++) {
        c.effect = s->list[HK_RESULT][i];
        c.result = 0;
        uint64_t key;
        if (!moves_pass(p, &s->fx[c.effect].filter[HK_RESULT], &key))
            continue;
        if (run_hook(s, &c) < 0)
            return TIERS_ESCRIPT;
        if (c.result)
            return 1;
    }
    return 0;
}

/* The check hooks replace the engine's attack test: side is in check when
 * some effect says so (the first true decides).  The answer is a question
 * about the position, so it is remembered by everything a hook can read:
 * the full hash (board, hands, side to move, phase, mode, variables), the
 * ply and the clock.  The legality filter asks it again and again about
 * the same position (veto_checked, pos:in_check_before). */
/* The evaluate hooks: what each says side's position is worth beyond its
 * pieces' values, minus what it says of the opponent's (as material is
 * counted).  A hook that fails counts 0 and is reported by the next move
 * generation. */
int script_evaluate(tiers_pos *p, int side)
{
    tiers_script *s = script_for(p);
    if (!s)
        return 0;
    call c = {.s = s, .hook = HK_EVALUATE, .p = p};
    int total = 0;
    for (int i = 0; i < s->nlist[HK_EVALUATE]; i++)
        for (int k = 0; k < 2; k++) {
            c.effect = s->list[HK_EVALUATE][i];
            c.side = side ^ k;
            c.result = 0;
            if (run_hook(s, &c) < 0)
                return 0;
            total += k ? -c.result : c.result;
        }
    return total < -EVAL_LIMIT ? -EVAL_LIMIT : total > EVAL_LIMIT ? EVAL_LIMIT : total;
}

int script_in_check(tiers_pos *p, int side)
{
    tiers_script *s = script_for(p);
    if (!s)
        return 0;
    int asked = 0; /* check_to_move: the side that has just moved is not */
    for (int i = 0; i < s->nlist[HK_CHECK] && !asked; i++)
        asked = side == p->st.side || !s->fx[s->list[HK_CHECK][i]].filter[HK_CHECK].to_move;
    if (!asked)
        return 0;
    uint64_t hash = p->st.hash ^ zobrist_state(&p->st);
    uint64_t mix = (hash ^ ((uint64_t)p->st.ply << 20) ^ p->st.clock ^ (uint64_t)side << 40) *
                   0x9e3779b97f4a7c15ull;
    size_t slot = (size_t)(mix >> (64 - s->check_bits));
    check_memo *e = &s->check_cache[slot];
    if (e->used && e->hash == hash && e->ply == p->st.ply && e->clock == p->st.clock &&
        e->side == side)
        return e->answer;
    call c = {.s = s, .hook = HK_CHECK, .p = p, .side = side};
    int answer = 0;
    for (int i = 0; i < s->nlist[HK_CHECK] && !answer; i++) {
        c.effect = s->list[HK_CHECK][i];
        c.result = 0;
        if (s->fx[c.effect].filter[HK_CHECK].to_move && side != p->st.side)
            continue;
        if (run_hook(s, &c) < 0)
            return TIERS_ESCRIPT;
        answer = c.result != 0;
    }
    *e = (check_memo){hash, p->st.ply, p->st.clock, (uint8_t)side, 1, (uint8_t)answer};
    return answer;
}

int script_apply(tiers_pos *p, const tiers_move *m)
{
    tiers_script *s = script_for(p);
    if (!s)
        return TIERS_ESCRIPT;
    int e = m->effect - 1;
    if (e < 0 || e >= s->v->neffects || s->fx[e].ref[HK_APPLY] == LUA_NOREF) {
        snprintf(s->error, sizeof s->error, "effect move with %s",
                 e < 0 || e >= s->v->neffects ? "no valid effect"
                                              : "an effect that has no apply hook");
        return TIERS_ESCRIPT;
    }
    call c = {.s = s, .hook = HK_APPLY, .effect = e, .p = p, .m = m, .u = p->frame};
    if (run_hook(s, &c) < 0)
        return TIERS_ESCRIPT;
    p->fired |= 1u << e;
    return c.result;
}

/* Text of an effect move without a format hook: name, then "@from",
 * "-to", ",path" squares, ":tier:arg" when set. */
static void default_format(const tiers_variant *v, const tiers_move *m, char *buf, size_t n)
{
    char b[8];
    size_t len = (size_t)snprintf(buf, n, "%s", v->effect_name[m->effect - 1]);
    const char *sep = "@";
    if (m->from != TIERS_NO_SQUARE && len < n) {
        len += (size_t)snprintf(buf + len, n - len, "@%s",
                                tiers_square_name(sq_file(m->from), sq_rank(m->from), b));
        sep = "-";
    }
    if (m->to != TIERS_NO_SQUARE && len < n)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", sep,
                                tiers_square_name(sq_file(m->to), sq_rank(m->to), b));
    for (int i = 0; i < m->npath && i < 4 && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, ",%s", m->path[i] == TIERS_NO_SQUARE
                                ? "out" : tiers_square_name(sq_file(m->path[i]),
                                                            sq_rank(m->path[i]), b));
    if ((m->tier || m->arg) && len < n)
        snprintf(buf + len, n - len, ":%d:%d", m->tier, m->arg);
}

int script_format(const tiers_pos *p, const tiers_move *m, char *buf, size_t n)
{
    tiers_script *s = script_for(p);
    if (n)
        buf[0] = 0;
    if (!s)
        return m->kind == TIERS_MV_EFFECT ? TIERS_EUSAGE : 0;
    call c = {.s = s, .hook = HK_FORMAT, .p = (tiers_pos *)p, .m = m, .text = buf, .size = n};
    if (m->kind == TIERS_MV_EFFECT) {
        int e = m->effect - 1;
        if (e < 0 || e >= s->v->neffects)
            return TIERS_EUSAGE;
        if (s->fx[e].ref[HK_FORMAT] == LUA_NOREF) {
            default_format(s->v, m, buf, n);
            size_t len = strlen(buf);
            return len + 1 < n ? (int)len : TIERS_EFULL;
        }
        c.effect = e;
        if (run_hook(s, &c) < 0)
            return TIERS_ESCRIPT;
        return c.full ? TIERS_EFULL : (int)c.len;
    }
    /* A suffix: every effect with a format hook adds its part, in load
       order (a move expanded by several effects carries the choices of
       each; effects that have nothing to add return nil). */
    for (int i = 0; i < s->nlist[HK_FORMAT]; i++) {
        c.effect = s->list[HK_FORMAT][i];
        if (run_hook(s, &c) < 0)
            return TIERS_ESCRIPT;
        if (c.full)
            return TIERS_EFULL;
    }
    return (int)c.len;
}

const char *script_last_error(const tiers_script *s) { return s ? s->error : ""; }

/* The table the core calls the hooks through (hooks.h). */
static const hooks_table lua_hooks = {
    .moves = script_moves, .veto = script_veto, .after = script_after, .tier = script_tier,
    .drop_ok = script_drop_ok, .result = script_result, .apply = script_apply,
    .expand = script_expand, .check = script_in_check, .evaluate = script_evaluate,
    .format = script_format, .nested = script_nested, .drop_effects = script_drop_effects,
    .check_effects = script_check_effects, .remember = script_remember,
    .last_error = script_last_error, .free = script_free};

int hooks_load_lua(tiers_variant *v, const char *const *files, int nfiles, tiers_error *err)
{
    return script_load(v, files, nfiles, err);
}

/* ------------------------------------------------------------ loading */


/* Reads a whole file; NULL with errno set on failure. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            char *nb = cap >= (size_t)SCRIPT_MAX_FILE ? NULL : realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                errno = EFBIG;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
        errno = EIO;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Fills err from a load-time message "where:line: text" (or "where: text"). */
static int load_error(tiers_error *err, const char *path, const char *msg)
{
    memset(err, 0, sizeof *err);
    snprintf(err->file, sizeof err->file, "%s", path);
    const char *text = msg;
    for (const char *c = msg; *c && *c != ' '; c++) {
        if (*c != ':')
            continue;
        if (isdigit((unsigned char)c[1])) {
            char *end;
            long line = strtol(c + 1, &end, 10);
            if (*end != ':')
                continue;
            err->line = (int)line;
            text = end + 1;
        } else {
            text = c + 1;
        }
        break;
    }
    while (*text == ' ')
        text++;
    snprintf(err->msg, sizeof err->msg, "%s", text);
    return TIERS_ESCRIPT;
}

/* Loads and runs one file.  0 or TIERS_ESCRIPT with err filled. */
static int load_file(tiers_script *s, const char *file, tiers_error *err)
{
    const tiers_variant *v = s->v;
    char path[1024];
    if (file[0] == '/' || !v->dir[0])
        snprintf(path, sizeof path, "%s", file);
    else
        snprintf(path, sizeof path, "%s/%s", v->dir, file);
    /* Messages name the file relative to the variant's folder. */
    size_t dl = strlen(v->dir);
    const char *name = dl && !strncmp(path, v->dir, dl) && path[dl] == '/' ? path + dl + 1
                                                                           : path;
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        char msg[300];
        snprintf(msg, sizeof msg, "%s: cannot read script: %s", name, strerror(errno));
        return load_error(err, path, msg);
    }
    const char *code = text;
    if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) { /* UTF-8 byte-order mark */
        code += 3;
        len -= 3;
    }
    lua_State *L = s->L;
    char chunk[1100];
    snprintf(chunk, sizeof chunk, "@%s", name);
    budget_reset(s);
    s->mem_hit = 0;
    int status = luaL_loadbufferx(L, code, len, chunk, "t");
    free(text);
    if (status == LUA_OK) {
        s->loading = 1;
        status = lua_pcall(L, 0, 0, 0);
        s->loading = 0;
    }
    if (status == LUA_OK && !budget_spent(s))
        return 0;
    char msg[512];
    if (status == LUA_OK) /* the budget's error was caught with pcall */
        snprintf(msg, sizeof msg, "%s: " BUDGET_TEXT, name, (int)SCRIPT_INSTRUCTION_BUDGET);
    else
        take_error(s, status, name, 0, msg, sizeof msg);
    return load_error(err, path, msg);
}

/* stuck[face][facing]: the squares from which some table of the face has
 * no square of the board (whatever stands there); see expand_stuck. */
static void compute_stuck(tiers_script *s)
{
    const tiers_variant *v = s->v;
    for (int f = 0; f < v->nfaces; f++) {
        const face_def *fd = &v->faces[f];
        for (int t = 0; t < TIERS_MAX_TIERS; t++) {
            int ti = t < fd->ntiers ? t : fd->ntiers - 1;
            for (int d = 0; d < 4; d++)
                for (int r = 0; r < v->ranks; r++)
                    for (int x = 0; x < v->files; x++) {
                        const line_def *L = &v->wlines[d][fd->first[ti < 0 ? 0 : ti]];
                        int sq = sq_make(x, r), any = 0;
                        for (int i = 0; ti >= 0 && i < fd->count[ti] && !any; i++) {
                            int fx = x + L[i].fx, fy = r + L[i].fy;
                            any = fx >= 0 && fx < v->files && fy >= 0 && fy < v->ranks;
                        }
                        if (!any) {
                            s->stuck[f][t][d][sq >> 6] |= 1ull << (sq & 63);
                            s->stuck_any[f][sq >> 6] |= 1ull << (sq & 63);
                        }
                    }
        }
    }
    for (int e = 0; e < v->neffects; e++) {
        const hook_filter *f = &s->fx[e].filter[HK_EXPAND];
        if (s->fx[e].ref[HK_EXPAND] != LUA_NOREF && f->stuck && !f->vars)
            s->stuck_test |= 1u << e;
    }
}


int script_load(tiers_variant *v, const char *const *files, int nfiles, tiers_error *err)
{
    tiers_error tmp;
    if (!err)
        err = &tmp;
    if (v->script)
        script_free(v->script);
    v->script = NULL;
    v->hook_fns = NULL;
    v->hooks = 0;
    v->neffects = 0;
    tiers_script *s = calloc(1, sizeof *s);
    if (!s) {
        memset(err, 0, sizeof *err);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return TIERS_ENOMEM;
    }
    s->check_cache = s->check_small;
    s->check_bits = 8;
    s->v = v;
    s->mem_limit = SCRIPT_MEMORY_LIMIT;
    s->rng = 0x2545f4914f6cdd1dull;
    const char *secs = getenv("TIERS_LUA_SECONDS");
    s->seconds = secs && atof(secs) > 0 ? atof(secs) : SCRIPT_SECONDS;
    const char *pr = getenv("TIERS_LUA_PRINT");
    s->print = pr && *pr && strcmp(pr, "0");
    for (int e = 0; e < MAX_EFFECTS; e++)
        for (int h = 0; h < HK_COUNT; h++)
            s->fx[e].ref[h] = LUA_NOREF;
    s->L = lua_newstate(script_alloc, s);
    if (!s->L) {
        free(s);
        memset(err, 0, sizeof *err);
        snprintf(err->msg, sizeof err->msg, "cannot create the Lua state (out of memory)");
        return TIERS_ENOMEM;
    }
    *(tiers_script **)lua_getextraspace(s->L) = s;
    lua_sethook(s->L, count_hook, LUA_MASKCOUNT, SCRIPT_COUNT_STEP);
    int rc = 0;
    lua_pushcfunction(s->L, open_sandbox);
    if (lua_pcall(s->L, 0, 0, 0) != LUA_OK) {
        lua_pop(s->L, 1);
        memset(err, 0, sizeof *err);
        snprintf(err->msg, sizeof err->msg, "cannot set up the Lua state (out of memory)");
        rc = TIERS_ENOMEM;
    }
    for (int i = 0; i < nfiles && rc == 0; i++)
        rc = load_file(s, files[i], err);
    if (rc < 0) {
        script_free(s);
        v->neffects = 0;
        return rc;
    }
    for (int e = 0; e < v->neffects; e++)
        for (int h = 0; h < HK_COUNT; h++)
            if (s->fx[e].ref[h] != LUA_NOREF) {
                const hook_filter *f = &s->fx[e].filter[h];
                uint32_t bit = 1u << e;
                s->list[h][s->nlist[h]++] = (uint8_t)e;
                s->defines[h] |= bit;
                v->hooks |= hook_bit[h];
                /* the candidate tables (see candidates()) */
                int face_test = f->faces || f->taken;
                for (int k = 0; k < TIERS_MV_KINDS; k++)
                    if (!f->on || (f->move_test && !f->never && (!f->kinds || (f->kinds >> k & 1))))
                        s->by_kind[h][k] |= bit;
                if (face_test)
                    s->face_test[h] |= bit;
                if (f->vars)
                    s->var_test[h] |= bit;
                for (int i = 0; i < MAX_VARS; i++)
                    if (f->vars >> i & 1)
                        s->by_var[h][i] |= bit;
                for (int fc = 0; fc <= MAX_FACES; fc++) {
                    if (!face_test || (fc < MAX_FACES && (f->faces >> fc & 1)))
                        s->by_actor[h][fc] |= bit;
                    if (!face_test || (fc < MAX_FACES && (f->taken >> fc & 1)))
                        s->by_taken[h][fc] |= bit;
                }
            }
    for (int e = 0; e < v->neffects; e++)
        if (s->fx[e].ref[HK_MOVES] != LUA_NOREF && s->fx[e].filter[HK_MOVES].pure &&
            !(s->fx[e].memo = calloc(MEMO_SLOTS, sizeof *s->fx[e].memo))) {
            script_free(s);
            v->neffects = 0;
            memset(err, 0, sizeof *err);
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return TIERS_ENOMEM;
        }
    compute_stuck(s);
    v->script = s;
    v->hook_fns = &lua_hooks;
    return 0;
}

void script_free(tiers_script *s)
{
    if (!s)
        return;
    if (s->L) {
        s->ticks = 0; /* (no finalizers: l_setmetatable) */
        s->cur = (hook_ctx){0};
        lua_close(s->L);
    }
    for (int e = 0; e < MAX_EFFECTS; e++)
        free(s->fx[e].memo);
    if (s->check_cache != s->check_small)
        free(s->check_cache);
    free(s);
}

int script_remember(tiers_script *s, int bits)
{
    if (!s || !s->nlist[HK_CHECK] || bits == s->check_bits)
        return 0;
    check_memo *cache = s->check_small;
    if (bits > 8 && !(cache = calloc((size_t)1 << bits, sizeof *cache)))
        return TIERS_ENOMEM;
    if (s->check_cache != s->check_small)
        free(s->check_cache);
    if (cache == s->check_small)
        memset(cache, 0, sizeof s->check_small);
    s->check_cache = cache;
    s->check_bits = bits > 8 ? bits : 8;
    return 0;
}

