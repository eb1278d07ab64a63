/* lua/internal.h - what the files of the Lua script module share: the
 * limits, the hook and narrowing enums, the script state (tiers_script)
 * and the functions one file offers the others.  Only engine/src/lua/
 * includes it (and, through it, the Lua headers). */
#ifndef TIERS_LUA_INTERNAL_H
#define TIERS_LUA_INTERNAL_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "filter.h"
#include "lua/script.h"

#ifndef SCRIPT_MEMORY_LIMIT
#define SCRIPT_MEMORY_LIMIT ((size_t)64 << 20)   /* bytes per Lua state */
#endif
#ifndef SCRIPT_INSTRUCTION_BUDGET
#define SCRIPT_INSTRUCTION_BUDGET 10000000L      /* VM instructions per hook call */
#endif
#define SCRIPT_COUNT_STEP 1000        /* the count hook runs every N instructions */
#define SCRIPT_SLICE_NS 5000000L      /* CPU time before a call's count hook is armed */
#define SCRIPT_SECONDS 20.0           /* the time guard (TIERS_LUA_SECONDS) */
#define SCRIPT_MAX_DEPTH 8            /* hooks run from inside hooks (pos:in_check) */
#define SCRIPT_NESTED_COST 100        /* instructions a hook run from a hook counts */
#define SCRIPT_MAX_FILE (4L << 20)    /* bytes of one script file */
#define POS_META "tiers.pos"

/* The hooks an effect may define.  hook_bit is the HOOK_* bit the core
 * tests; `format` has none (notation calls it for EFFECT moves). */
enum { HK_MOVES, HK_VETO, HK_AFTER, HK_TIER, HK_DROP_OK, HK_RESULT, HK_APPLY, HK_FORMAT,
       HK_EXPAND, HK_CHECK, HK_EVALUATE, HK_COUNT };

/* Narrowing a hook: an effect may give <hook>_faces, _taken, _kinds,
 * _ranks, _heights, _setup, _check or _vars (docs/lua-api.md).  The engine
 * then tests the move (or position) in C and calls the hook only when it
 * passes, so a hook that concerns a few moves costs the others a few
 * comparisons instead of a Lua call. */
enum { FL_FACES, FL_TAKEN, FL_KINDS, FL_RANKS, FL_HEIGHTS, FL_SETUP, FL_CHECK, FL_CHECKED,
       FL_STUCK, FL_FILE_FACES, FL_FILE_HEIGHTS, FL_DOUBLED, FL_PURE, FL_TO_MOVE, FL_VARS,
       FL_TIERS, FL_CONTROLLED, FL_BESIDE_ROYAL, FL_REACH, FL_COUNTS, FL_BEFORE, FL_NUM };
#define FLB(x) (1u << FL_##x)

/* Keys of the move and piece tables. */
enum { K_KIND, K_FROM, K_TO, K_TIER, K_ARG, K_PIECE, K_TAKEN, K_SETUP, K_EFFECT, K_PATH,
       K_EXIT, K_FINAL, K_FACE, K_OWNER, K_FLIPPED, K_FACING, NKEYS };

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
    int64_t runs[HK_COUNT];   /* Lua calls of each hook (`tiers check`) */
    int64_t refused;          /* board moves its moves hook gave in a setup */
} effect_rec;

/* The hook being run: what a position handle and math.random refer to. */
typedef struct hook_ctx {
    tiers_pos *p;             /* NULL outside hooks */
    uint64_t gen;             /* generation a live handle must carry */
    int hook, effect;
    int writable;
    uint64_t rng;             /* math.random: seeded from the call (hook_seed) */
    /* The seed is made at the call's first math.random (few hooks draw):
       from the position as the call began (seed_base) and the call's
       question (seed_call, valid during the call). */
    int seeded;
    uint64_t seed_base;
    const struct call *seed_call;
} hook_ctx;

/* What a move table shows: the move, its pieces as they were before it,
 * and whether it is a setup move (no padding: compared with memcmp). */
typedef struct move_key {
    tiers_move m;
    piece_t actor, taken;
    uint8_t setup, used;
} move_key;

_Static_assert(sizeof(move_key) == sizeof(tiers_move) + 2 * sizeof(piece_t) + 2 &&
                   sizeof(move_key) <= 32,
               "move_key has no padding and fits move_key_hash's words");

enum { MOVE_CACHE = 1024 };
/* fixed tables remembered by address (a power of two) */
enum { FIXED_HITS = 64 };


enum { DROP_CACHE_SIZE = 2048 };

struct tiers_script {
    lua_State *L;
    tiers_variant *v;
    size_t mem, mem_limit;
    int mem_hit;              /* the allocator refused a block */
    long ticks;               /* count-hook steps left in this call */
    long work_left;           /* C work (budget_charge) left before the next tick */
    int hook_now;             /* the count hook fires at every instruction */
    /* The count hook is armed only in a call that outlasts a time slice
       (budget.c): a CPU-time timer of the thread running the script
       compares call_seq at two ticks.  Written by that thread's signal
       handler too, hence volatile. */
    volatile sig_atomic_t call_seq, seen_seq, timer_idle;
    int timer_live;           /* timer exists, for thread timer_thread */
    int always_count;         /* no timer could be made: the hook stays armed */
    timer_t timer;
    pthread_t timer_thread;
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
    filter_state fs;          /* the last check_before answer */
    /* stuck_test: the expand effects that a fresh move passes only if its
       piece may be stuck (expand_reach = {0, 0}, or expand_stuck, without
       _vars), so script_expand drops them at once for a piece landing
       where the variant's stuck tables say it never can be */
    uint32_t stuck_test;
    /* drop_ok answers of effects with drop_ok_pure, by (dropped piece,
       target's top piece, side to move, effect); key 0 = empty */
    struct { uint32_t key; uint8_t ok; } drop_cache[DROP_CACHE_SIZE];
    check_memo check_small[256];       /* check hook answers (script_in_check) */
    check_memo *check_cache;           /* check_small, or script_remember's */
    int check_bits;                    /* check_cache has 1 << check_bits slots */
    uint8_t check_pure;                /* every check hook is pure: ply and clock
                                          are left out of check_cache's keys */
    uint32_t veto_pure;                /* effects whose veto is pure */
    check_memo veto_small[256];        /* their answers, by the position after
                                          the move and the effect (in `side`) */
    check_memo *veto_cache;            /* veto_small, or script_remember's */
    int veto_bits;
    uint32_t var_test[HK_COUNT];       /* effects with <hook>_vars */
    uint32_t by_var[HK_COUNT][MAX_VARS]; /* effects whose <hook>_vars hold var i */
    uint32_t defines[HK_COUNT];        /* effects defining the hook */
    /* Registry references of strings the hooks push often (keys of move
       and piece tables, face, tile and kind names) and of the position
       handle's metatable: pushing them costs an array read instead of a
       string lookup. */
    int key_ref[NKEYS];
    /* The same key and kind strings as Lua holds them (short strings are
       interned: a table key is one of these iff it is this very pointer) */
    const char *key_str[NKEYS], *kind_str[TIERS_MV_KINDS];
    int face_ref[MAX_FACES], tile_ref[MAX_KINDS], kind_ref[TIERS_MV_KINDS], facing_ref[4];
    int pieces_ref;           /* read-only piece tables by piece code and tier */
    int moves_ref;            /* read-only move tables, by slot of move_keys */
    int fixed_ref;            /* fixed_move's tables (weak keys) -> the moves */
    /* fixed tables found before, by address (tables_fixed_lookup): each
       entry holds its table (ref), so that no other table can take that
       address while the entry is there */
    struct fixed_hit {
        const void *table;
        int ref;
        tiers_move m;
    } fixed_hits[FIXED_HITS];
    move_key move_keys[MOVE_CACHE];
    tiers_move *gen_buf[SCRIPT_MAX_DEPTH + 1]; /* pos:has_legal_move, by depth */
    int empty_ref;            /* the read-only empty table (a move's empty path) */
    char reason[256];         /* reason text of the last decided result */
    char error[512];
    char traceback[1024];     /* Lua's stack at the last hook error */
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
    int engine_n;             /* moves hook: buf[0..engine_n) are the engine's */
    int keep;                 /* expand hook: the move stays as it is */
    tiers_status *st;         /* result hook */
    char *text;               /* format hook output */
    size_t size, len;
} call;

static inline tiers_script *script_of(lua_State *L) { return *(tiers_script **)lua_getextraspace(L); }

static inline void push_ref(lua_State *L, int ref) { lua_rawgeti(L, LUA_REGISTRYINDEX, ref); }

/* t[key] = the value on top, t just below it; pops the value. */
static inline void set_key(lua_State *L, int key)
{
    push_ref(L, script_of(L)->key_ref[key]);
    lua_insert(L, -2);
    lua_rawset(L, -3);
}

/* Names by HK_*, by move kind, and the facing letters "nesw" (state.c). */
extern const char *const hook_name[HK_COUNT];
extern const char *const kind_name[TIERS_MV_KINDS];
extern const char facing_chars[];


/* The message of an exhausted instruction budget. */
#define BUDGET_TEXT "instruction budget exceeded (%d instructions)"

/* budget.c */
void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
int budget_spent(const tiers_script *s);
void budget_count_hook(lua_State *L, lua_Debug *ar);
int budget_charge(tiers_script *s, size_t n);
void budget_reset(tiers_script *s);
void budget_generation(lua_State *L, const tiers_pos *p);
void budget_wrap_charged(lua_State *L);
void budget_free(tiers_script *s);

/* tables.c */
int tables_find_effect(const tiers_variant *v, const char *name);
int tables_face_shown(const tiers_variant *v, int f);
int tables_parse_square(const tiers_variant *v, const char *s, size_t len);
const char *tables_push_shown(lua_State *L, const char *s, size_t len);
void tables_push_square(lua_State *L, int sq);
int tables_mode_tiers(const tiers_pos *p);
int tables_rawset(lua_State *L);
void tables_make_read_only(lua_State *L);
void tables_push_piece(lua_State *L, const tiers_variant *v, piece_t pc, int tier);
int tables_check_owner(lua_State *L, int idx);
void tables_check_tile(lua_State *L, int idx, int *kind, int *flipped);
piece_t tables_check_piece(lua_State *L, int idx, int owner_idx, int default_owner);
void tables_push_move(lua_State *L, const tiers_pos *p, const tiers_move *m, const undo_rec *u);
int tables_move_square(lua_State *L, const char *what, int out_ok, const char **why);
void tables_check_move(lua_State *L, int idx, call *c, int entry, tiers_move *m);
int tables_fixed_move(lua_State *L);
int tables_fixed_lookup(lua_State *L, int idx, tiers_move *m);
enum { VARIANT_ARG = 1, VARIANT_PATH = 2 };
const char *tables_read_variant(lua_State *L, int idx, tiers_move *m, int *given);
int tables_fixed_variant(lua_State *L);

/* pos.c */
void handle_push(lua_State *L, uint64_t gen);
void handle_open_methods(lua_State *L);

/* pattern.c */
int pattern_find(lua_State *L);
int pattern_match(lua_State *L);
int pattern_gmatch(lua_State *L);
int pattern_gsub(lua_State *L);

/* sandbox.c */
int sandbox_open(lua_State *L);

/* call.c */
void call_seed(tiers_script *s);
void call_take_error(tiers_script *s, int status, const char *where, int line, char *out,
                     size_t size);

#endif
