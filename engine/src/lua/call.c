/* lua/call.c - calling the hooks: run_hook's protected call of a C
 * trampoline that pushes the arguments and converts the results, the
 * error messages that name the file, line, hook and effect, and the
 * script_* hook functions of the hooks table with their memos (pure moves
 * answers, drop_ok answers, check answers). */
#include "lua/internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "make.h"
#include "movegen.h"
#include "position.h"
#include "record.h"

static const uint8_t hook_writes[HK_COUNT] = {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0};

/* The effects whose hook h concerns m, as a bit set, by the tables of
 * script_load; each is then confirmed by filter_pass. */
static inline uint32_t call_candidates(const tiers_script *s, int h, const tiers_pos *p,
                                       const undo_rec *u, const tiers_move *m, move_faces *mf)
{
    uint32_t c = s->by_kind[h][m->kind < TIERS_MV_KINDS ? m->kind : 0];
    mf->actor = mf->taken = MAX_FACES;
    if (c & s->face_test[h]) {
        *mf = filter_faces(p, u, m);
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
static int call_next_effect(uint32_t *set)
{
    int e = __builtin_ctz(*set);
    *set &= *set - 1;
    return e;
}

/* ------------------------------------------------------------ hook calls */

/* A square's name for a message ("-" for none). */
static const char *call_square(tiers_square sq, char buf[8])
{
    if (sq == TIERS_NO_SQUARE)
        return strcpy(buf, "-");
    return tiers_square_name(sq % 16, sq / 16, buf);
}

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

/* The fields that mean something in a move (path beyond npath does not). */
static int same_move(const tiers_move *a, const tiers_move *b)
{
    if (a->kind != b->kind || a->from != b->from || a->to != b->to || a->tier != b->tier ||
        a->piece != b->piece || a->effect != b->effect || a->flags != b->flags ||
        a->npath != b->npath || a->arg != b->arg || a->npath > 4)
        return 0;
    return memcmp(a->path, b->path, a->npath * sizeof a->path[0]) == 0;
}

/* The index of an engine move equal to m in buf[0..n), or -1: a hook
 * adds moves, and one the engine has would be listed twice. */
static int engine_twin(const tiers_move *buf, int n, const tiers_move *m)
{
    for (int i = 0; i < n; i++)
        if (buf[i].kind == m->kind && buf[i].to == m->to && same_move(&buf[i], m))
            return i;
    return -1;
}

/* A move of the board (not a drop, a declaration or an effect's own)
 * from a moves hook during its side's setup: refused unless the effect
 * said moves_setup = true. */
static int setup_board_move(const call *c, const tiers_move *m)
{
    int k = m->kind;
    return (c->p->st.setup_left >> c->p->st.side & 1) &&
           c->s->fx[c->effect].filter[HK_MOVES].setup != 1 &&
           k != TIERS_MV_DROP && k != TIERS_MV_READY && k != TIERS_MV_EFFECT;
}

static void moves_result(lua_State *L, call *c)
{
    char a[8], b[8];
    if (lua_isnil(L, 1))
        return;
    if (!lua_istable(L, 1))
        hook_error(L, c, "must return a list of moves or nil, not %s", luaL_typename(L, 1));
    if (lua_getfield(L, 1, "kind") != LUA_TNIL)
        hook_error(L, c, "must return a list of moves, not one move (return {move})");
    lua_pop(L, 1);
    lua_Unsigned n = lua_rawlen(L, 1);
    for (lua_Unsigned i = 1; i <= n; i++) {
        if (c->n >= c->cap) {
            c->full = 1;
            return;
        }
        tiers_move *m = &c->buf[c->n];
        lua_rawgeti(L, 1, (lua_Integer)i);
        tables_check_move(L, lua_gettop(L), c, (int)i, m);
        lua_pop(L, 1);
        if (engine_twin(c->buf, c->engine_n, m) >= 0)
            hook_error(L, c, "returned a move the engine already generates (entry %d: %s "
                       "%s-%s); a moves hook adds only moves of its own",
                       (int)i, kind_name[m->kind], call_square(m->from, a),
                       call_square(m->to, b));
        if (setup_board_move(c, m)) {
            c->s->fx[c->effect].refused++;
            continue;
        }
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
    const char *reason = lua_isnil(L, 2) ? c->s->v->effect_name[c->effect] : lua_tostring(L, 2);
    for (const char *ch = reason; *ch; ch++)
        if (iscntrl((unsigned char)*ch))
            hook_error(L, c, "must return a reason without control characters (a record "
                       "keeps it on one line)");
    snprintf(c->s->reason, sizeof c->s->reason, "%s", reason);
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
    if (c->len + len > FORMAT_TEXT_MAX)
        hook_error(L, c, "returned a text of %zu bytes: a move's text (or the suffixes of "
                   "a move together) may have at most %d", c->len + len, FORMAT_TEXT_MAX);
    const char *why = record_word_problem(t, c->m->kind == TIERS_MV_EFFECT);
    if (why)
        hook_error(L, c, "returned '%s', which a game record could not read back: it %s",
                   t, why);
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
        tiers_move m = *c->m, fixed;
        int given;
        if (tables_fixed_lookup(L, e, &fixed)) { /* fixed_variant's: read once */
            if (fixed.kind != TIERS_MV_NONE)
                hook_error(L, c, "variant %d is a fixed_move, not a variant", (int)i);
            given = fixed.flags;
            if (given & VARIANT_ARG)
                m.arg = fixed.arg;
            if (given & VARIANT_PATH) {
                m.npath = fixed.npath;
                memcpy(m.path, fixed.path, sizeof m.path);
            }
        } else {
            const char *why = tables_read_variant(L, e, &m, &given);
            if (why)
                hook_error(L, c, "variant %d: %s", (int)i, why);
        }
        int plain = !given;
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
    handle_push(L, s->cur.gen);
    int nargs = 1;
    switch (c->hook) {
    case HK_VETO:
    case HK_AFTER:
    case HK_APPLY:
    case HK_FORMAT:
    case HK_EXPAND:
        tables_push_move(L, c->p, c->m, c->u);
        nargs = 2;
        break;
    case HK_TIER:
        tables_push_square(L, c->sq);
        lua_pushinteger(L, c->idx + 1);
        lua_pushinteger(L, c->tier);
        nargs = 4;
        break;
    case HK_DROP_OK:
        tables_push_piece(L, s->v, c->pc, 0);
        tables_push_square(L, c->sq);
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
void call_take_error(tiers_script *s, int status, const char *where, int line, char *out,
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

static inline uint64_t mix64(uint64_t x)
{
    x = (x ^ x >> 30) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ x >> 27) * 0x94d049bb133111ebull;
    return x ^ x >> 31;
}

/* The seed of a hook call's math.random: the game's seed, the position and
 * what the call is asked about.  A hook's answer then depends on nothing
 * else, so asking in another order (a random agent testing one candidate,
 * a replay generating the whole list, solve on another thread) gives the
 * same answer, and asking never changes the game. */
static uint64_t hook_seed(const call *c, uint64_t base)
{
    uint64_t h = mix64(base);
    h = mix64(h ^ ((uint64_t)c->hook << 8 | (uint64_t)c->effect));
    if (c->m) {
        const tiers_move *m = c->m;
        h = mix64(h ^ ((uint64_t)m->kind | (uint64_t)m->tier << 8 | (uint64_t)m->from << 16 |
                       (uint64_t)m->to << 32 | (uint64_t)m->piece << 48));
        h = mix64(h ^ ((uint64_t)m->effect | (uint64_t)m->arg << 8 | (uint64_t)m->npath << 16));
        for (int i = 0; i < m->npath && i < 4; i++)
            h = mix64(h ^ m->path[i]);
    }
    h = mix64(h ^ ((uint64_t)(uint32_t)c->sq | (uint64_t)(uint32_t)c->idx << 16 |
                   (uint64_t)(uint32_t)c->tier << 32));
    h = mix64(h ^ ((uint64_t)(uint32_t)c->side | (uint64_t)c->pc << 32));
    return h ? h : 1;
}

/* Seeds the running call's math.random (at its first draw): the position
 * as the call began, and what the call is asked about. */
void call_seed(tiers_script *s)
{
    if (s->cur.p && !s->cur.seeded) {
        s->cur.rng = hook_seed(s->cur.seed_call, s->cur.seed_base);
        s->cur.seeded = 1;
    }
}

/* pcall's message handler: keeps Lua's stack where the error was raised
 * (for `tiers check`), and leaves the error as it was.  The innermost
 * error's stack is kept: an outer hook's handler does not overwrite it.
 * Near the memory limit it keeps nothing, so that the handler cannot fail
 * and turn the error into another. */
static int call_traceback(lua_State *L)
{
    tiers_script *s = script_of(L);
    if (!s->traceback[0] && !s->mem_hit && s->mem + 65536 < s->mem_limit) {
        luaL_traceback(L, L, NULL, 1);
        snprintf(s->traceback, sizeof s->traceback, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    return 1;
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
    s->fx[c->effect].runs[c->hook]++;
    hook_ctx saved = s->cur;
    s->cur = (hook_ctx){.p = c->p, .gen = ++s->gen_next, .hook = c->hook,
                        .effect = c->effect, .writable = hook_writes[c->hook],
                        .seed_base = c->p->rng ^ c->p->st.hash, .seed_call = c};
    if (s->depth == 0) {
        budget_reset(s);
        s->mem_hit = 0;
        s->traceback[0] = '\0';
    }
    s->depth++;
    int status = LUA_ERRMEM, stack = lua_checkstack(L, 4);
    if (stack) {
        lua_pushcfunction(L, call_traceback);
        lua_pushcfunction(L, trampoline);
        lua_pushlightuserdata(L, c);
        status = lua_pcall(L, 1, 0, -3);
        lua_remove(L, status == LUA_OK ? -1 : -2); /* the handler */
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
        call_take_error(s, status, fx->src[c->hook], fx->line[c->hook], msg, sizeof msg);
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

/* A remembered answer (moves_pure) that the engine now generates too:
 * the error the hook would have raised. */
static int memo_twin(call *c, const tiers_move *m)
{
    const effect_rec *fx = &c->s->fx[c->effect];
    char a[8], b[8];
    snprintf(c->s->error, sizeof c->s->error, "%s:%d: hook moves returned a move the engine "
             "already generates (%s %s-%s); a moves hook adds only moves of its own (in "
             "hook moves of effect %s)", fx->src[HK_MOVES], fx->line[HK_MOVES],
             kind_name[m->kind], call_square(m->from, a), call_square(m->to, b),
             c->s->v->effect_name[c->effect]);
    c->p->script_failed = 1;
    return TIERS_ESCRIPT;
}

int script_moves(tiers_pos *p, tiers_move *buf, int n, int cap)
{
    tiers_script *s = script_for(p);
    if (!s)
        return n;
    call c = {.s = s, .hook = HK_MOVES, .p = p, .buf = buf, .n = n, .cap = cap,
              .engine_n = n};
    for (int i = 0; i < s->nlist[HK_MOVES]; i++) {
        c.effect = s->list[HK_MOVES][i];
        uint64_t key = 0;
        if (!filter_moves_pass(p, &s->fx[c.effect].filter[HK_MOVES], &key))
            continue;
        moves_memo *memo = s->fx[c.effect].memo;
        memo = memo && key ? &memo[key % MEMO_SLOTS] : NULL; /* 0: vars passed it */
        if (memo && memo->used && memo->key == key) {
            if (c.n + memo->n > cap)
                return TIERS_EFULL;
            for (int k = 0; k < memo->n; k++)
                if (engine_twin(buf, n, &memo->m[k]) >= 0)
                    return memo_twin(&c, &memo->m[k]);
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

/* A memo slot for an answer about the position p stands on: by its hash
 * (board, hands, side, phase, variables), with the ply and clock unless
 * the answer is pure, and `tag` (the side asked about, or the effect). */
static check_memo *memo_slot(check_memo *cache, int bits, const tiers_pos *p, int pure,
                             int tag, check_memo *key)
{
    uint64_t hash = p->st.hash ^ zobrist_state(&p->st);
    uint16_t ply = pure ? 0 : (uint16_t)p->st.ply, clock = pure ? 0 : (uint16_t)p->st.clock;
    uint64_t mix = (hash ^ ((uint64_t)ply << 20) ^ clock ^ (uint64_t)tag << 40) *
                   0x9e3779b97f4a7c15ull;
    *key = (check_memo){hash, ply, clock, (uint8_t)tag, 1, 0};
    return &cache[mix >> (64 - bits)];
}

static int memo_hit(const check_memo *e, const check_memo *key)
{
    return e->used && e->hash == key->hash && e->ply == key->ply && e->clock == key->clock &&
           e->side == key->side;
}

/* A pure veto (veto_pure): its answer depends only on the position after
 * the move, so it is asked once per such position.  A failed call is not
 * remembered. */
static int pure_veto(tiers_script *s, call *c)
{
    check_memo key, *e = memo_slot(s->veto_cache, s->veto_bits, c->p, 1, c->effect, &key);
    if (memo_hit(e, &key)) {
        c->result = e->answer;
        return 0;
    }
    if (run_hook(s, c) < 0)
        return TIERS_ESCRIPT;
    key.answer = c->result != 0;
    *e = key;
    return 0;
}

int script_veto(tiers_pos *p, const tiers_move *m)
{
    tiers_script *s = script_for(p);
    if (!s || !p->depth)
        return 0;
    const undo_rec *u = &p->undo[p->depth - 1];
    move_faces mf;
    uint32_t cand = call_candidates(s, HK_VETO, p, u, m, &mf);
    if (!cand)
        return 0;
    call c = {.s = s, .hook = HK_VETO, .p = p, .m = m, .u = u};
    while (cand) {
        c.effect = call_next_effect(&cand);
        if (!filter_own(m, c.effect) &&
            !filter_pass(p, c.u, m, &mf, &s->fx[c.effect].filter[HK_VETO], &s->fs))
            continue;
        c.result = 1; /* veto = true */
        if (s->veto_pure >> c.effect & 1) {
            if (pure_veto(s, &c) < 0)
                return TIERS_ESCRIPT;
        } else if (s->fx[c.effect].ref[HK_VETO] != LUA_REFNIL && run_hook(s, &c) < 0) {
            return TIERS_ESCRIPT;
        }
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
    uint32_t cand = call_candidates(s, HK_AFTER, p, p->frame, m, &mf);
    if (!cand)
        return 0;
    call c = {.s = s, .hook = HK_AFTER, .p = p, .m = m, .u = p->frame};
    uint8_t fired[MAX_EFFECTS];
    int nfired = 0;
    while (cand) {
        c.effect = call_next_effect(&cand);
        c.result = 0;
        if (!filter_own(m, c.effect) &&
            !filter_pass(p, c.u, m, &mf, &s->fx[c.effect].filter[HK_AFTER], &s->fs))
            continue;
        if (run_hook(s, &c) < 0)
            return TIERS_ESCRIPT;
        if (c.result)
            fired[nfired++] = (uint8_t)c.effect;
    }
    for (int i = 0; i < nfired; i++) /* counted by the make, not trials */
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

/* expand_reach answered without making m: 1 when m passes it, 0 when it
 * fails, -1 when the make must tell.  Only where making m would run no
 * after hook (that could move its piece) and could not fail for want of
 * room (depth below the cap), and the answer is whether the piece is
 * stuck: reach {0, ...} when it is, {..., 0} when it is not. */
static int reach_known(const tiers_script *s, const tiers_pos *p, const hook_filter *f,
                       const tiers_move *m, int effect)
{
    if (m->effect == effect + 1 || m->to == TIERS_NO_SQUARE || m->from == TIERS_NO_SQUARE ||
        m->from == m->to || p->depth >= p->cap)
        return -1;
    const tower *t = &p->board[m->from];
    move_faces mf;
    if (!t->h || call_candidates(s, HK_AFTER, p, NULL, m, &mf))
        return -1;
    int stuck = movegen_stuck_after(p, m, t->p[t->h - 1], p->board[m->to].h);
    if (stuck == 1)
        return f->reach_lo == 0;
    return stuck == 0 && f->reach_hi == 0 ? 0 : -1;
}

/* The end of a stretch buf[i..stop) of moves of pieces whose face no
 * expand hook concerns (v->expand_role, gen_layout): it ends early
 * at a capture taking a face that some hook may concern (or at anything
 * but a plain move, stack or capture). */
static int expand_skip(const tiers_pos *p, const tiers_move *buf, int i, int stop)
{
    for (; i < stop; i++) {
        const tiers_move *m = &buf[i];
        unsigned k = (unsigned)m->kind - TIERS_MV_MOVE; /* 0, 1, 2: move, stack, capture */
        if (k < 2 && !m->effect)
            continue;
        if (k != 2 || m->effect)
            break;
        const tower *t = &p->board[m->to];
        if (!t->h || (p->v->expand_role[p->v->face_of[t->p[t->h - 1]]] & EXPAND_TAKEN))
            break;
    }
    return i;
}

/* Runs an expand hook on buf[i] (c->m, c->u set): its variants are
 * appended at buf[*n..), and buf[i] is removed unless the hook kept it.
 * TIERS_ESCRIPT when the hook failed, TIERS_EFULL when buf is full. */
static int expand_call(tiers_script *s, call *c, tiers_move *buf, int i, int *n, int *removed)
{
    c->n = *n;
    c->keep = c->full = 0;
    if (run_hook(s, c) < 0)
        return TIERS_ESCRIPT;
    if (c->full)
        return TIERS_EFULL;
    *n = c->n;
    if (!c->keep) {
        buf[i].kind = TIERS_MV_NONE;
        (*removed)++;
    }
    return 0;
}

int script_expand(tiers_pos *p, tiers_move *buf, int n, int cap, const gen_layout *gl)
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
    uint32_t wcand[TIERS_MAX_MOVES]; /* call_candidates of each wanted move */
    int nwant = 0, removed = 0, top = p->v->unit == UNIT_TOP;
    const uint32_t *by_kind = s->by_kind[HK_EXPAND];
    int drops_lo = gl->drops_lo, drops_hi = gl->drops_hi;
    if (by_kind[TIERS_MV_DROP] || drops_lo < 0 || drops_hi > n)
        drops_lo = drops_hi = 0; /* drops are looked at like other moves */
    /* the pieces' moves, buf[0..board_hi): outside the runs, only what
       expand_skip stops at is looked at, and nothing if no capture there
       may take a face some hook concerns */
    int board_hi = gl->board_hi <= n ? gl->board_hi : 0, r = 0, run_end = 0;
    /* the last source square, its top's face and the effects that face
       may concern (by_actor) or that the move's taken piece may, when it
       takes none (by_taken[MAX_FACES]) */
    int from = -1, fa = MAX_FACES;
    piece_t fpc = 0; /* the piece on top of `from` */
    const uint32_t *by_actor = s->by_actor[HK_EXPAND], *by_taken = s->by_taken[HK_EXPAND];
    const uint32_t face_test = top ? s->face_test[HK_EXPAND] : 0, stuck = s->stuck_test;
    const uint32_t defines = s->defines[HK_EXPAND];
    uint32_t actor_mask = 0;
    /* quiet: no effect may want an untagged move or stack of the piece on
       `from` (c below would be 0), so those are passed over at once */
    const uint32_t quiet_kinds = by_kind[TIERS_MV_MOVE] | by_kind[TIERS_MV_STACK];
    int quiet = 0;
    for (int i = 0; i < n; i++) {
        if (i < board_hi && i >= run_end) {
            if (r < gl->nruns && gl->runs[r].lo == i) { /* a run starts */
                run_end = gl->runs[r++].hi;
            } else { /* between runs */
                int stop = r < gl->nruns ? gl->runs[r].lo : board_hi;
                i = gl->takes_noted ? expand_skip(p, buf, i, stop) : stop;
                if (i == stop) {
                    i--;
                    continue;
                }
            }
        }
        if (i == drops_lo && drops_hi > drops_lo)
            i = drops_hi; /* no expand hook concerns a drop: skip them at once */
        if (i >= n)
            break;
        const tiers_move *m = &buf[i];
        int kind = m->kind;
        if (quiet && m->from == from && (kind == TIERS_MV_MOVE || kind == TIERS_MV_STACK) &&
            !m->effect)
            continue;
        uint32_t c = by_kind[kind], unstuck = 0;
        if ((c & face_test) &&
            (kind == TIERS_MV_MOVE || kind == TIERS_MV_STACK || kind == TIERS_MV_CAPTURE)) {
            if (m->from != from) { /* a piece's moves come together */
                const tower *tf = &p->board[from = m->from];
                fpc = tf->h ? tf->p[tf->h - 1] : 0;
                fa = tf->h ? p->v->face_of[fpc] : MAX_FACES;
                actor_mask = by_actor[fa] | by_taken[MAX_FACES];
                quiet = !(quiet_kinds & actor_mask);
            }
            if (kind == TIERS_MV_CAPTURE) {
                const tower *tt = &p->board[m->to];
                int ft = tt->h ? p->v->face_of[tt->p[tt->h - 1]] : MAX_FACES;
                c &= by_actor[fa] | by_taken[ft];
            } else {
                c &= actor_mask;
            }
            /* a fresh move whose piece cannot be stuck where it lands
               fails those effects' filters: they are dropped here, once */
            if ((c & stuck) && !m->effect &&
                (!fpc || m->to == TIERS_NO_SQUARE ||
                 !filter_stuck_anywhere(s->v, fa, filter_facing_after(s->v, m, fpc), m->to) ||
                 !filter_stuck_landing(p, m, fpc, p->board[m->to].h)))
                unstuck = c & stuck;
            c &= ~unstuck;
        }
        if (m->effect && m->effect <= MAX_EFFECTS)
            c |= (1u << (m->effect - 1)) & defines;
        if (!c)
            continue;
        /* the effects each looks at below: the same test made once */
        move_faces mf;
        uint32_t cand = call_candidates(s, HK_EXPAND, p, NULL, m, &mf) & ~unstuck;
        if (cand) {
            wcand[nwant] = cand;
            want[nwant++] = (uint16_t)i;
        }
    }
    if (!nwant)
        return n;
    call c = {.s = s, .hook = HK_EXPAND, .p = p, .buf = buf, .cap = cap};
    for (int k = 0; k < s->nlist[HK_EXPAND]; k++) {
        c.effect = s->list[HK_EXPAND][k];
        const hook_filter *f = &s->fx[c.effect].filter[HK_EXPAND];
        int n0 = n, w0 = nwant;
        uint32_t bit = 1u << c.effect;
        for (int w = 0; w < w0; w++) {
            if (!(wcand[w] & bit))
                continue;
            int i = want[w];
            const tiers_move *m = &buf[i];
            move_faces mf = {MAX_FACES, MAX_FACES};
            if (m->kind == TIERS_MV_NONE)
                continue;
            if (!filter_own(m, c.effect)) {
                if ((s->face_test[HK_EXPAND] >> c.effect & 1))
                    mf = filter_faces(p, NULL, m);
                if (!filter_pass(p, NULL, m, &mf, f, &s->fs))
                    continue;
            }
            tiers_move made = buf[i];
            int fixed = s->fx[c.effect].ref[HK_EXPAND] == LUA_REFNIL;
            int known = f->reach ? reach_known(s, p, f, &made, c.effect) : -1;
            if (known == 0)
                continue; /* the reach test fails: the move stays as it is */
            if (fixed && (!f->reach || known == 1)) {
                if (expand_fixed(&s->fx[c.effect], c.effect, buf, i, &n, cap, &removed) < 0)
                    return TIERS_EFULL;
                continue;
            }
            if (f->before) { /* asked on the position before the move */
                c.m = &made;
                c.u = NULL;
                int rc = expand_call(s, &c, buf, i, &n, &removed);
                if (rc < 0)
                    return rc;
                continue;
            }
            int rc = make_move(p, &made);
            if (rc < 0)
                return rc;
            if (f->reach && made.effect != c.effect + 1 && made.to != TIERS_NO_SQUARE) {
                /* expand_reach, exactly now: how many squares can the
                   piece move to from here? */
                uint8_t mark[TIERS_MAX_SQUARES];
                int n_reach = movegen_reach(p, made.to, mark);
                if (p->script_failed) { /* a tier hook failed */
                    unmake_move(p);
                    return TIERS_ESCRIPT;
                }
                if (n_reach < f->reach_lo || n_reach > f->reach_hi) {
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
            rc = expand_call(s, &c, buf, i, &n, &removed);
            unmake_move(p);
            if (rc < 0)
                return rc;
        }
        for (int i = n0; i < n; i++) { /* the new variants, for the next effects */
            if (nwant >= TIERS_MAX_MOVES)
                return TIERS_EFULL;
            move_faces mf;
            wcand[nwant] = call_candidates(s, HK_EXPAND, p, NULL, &buf[i], &mf);
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

/* Each drop_ok effect in turn, until one refuses.  The first effect's
 * drop_ok_faces refusal, the usual answer, is the drop generator's
 * (v->drop_faces_refused, tested before can_stack); the effects after it
 * are narrowed here. */
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
    for (int i = 0; i < s->nlist[HK_RESULT]; i++) {
        int effect = s->list[HK_RESULT][i];
        uint64_t key;
        if (!filter_moves_pass(p, &s->fx[effect].filter[HK_RESULT], &key))
            continue; /* (the call is made only past the filter: most stop here) */
        call c = {.s = s, .hook = HK_RESULT, .effect = effect, .p = p, .st = st};
        if (run_hook(s, &c) < 0)
            return TIERS_ESCRIPT;
        if (c.result) /* which effect ended the game: tiers_pos_hook_ended */
            return 1 + c.effect;
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
    check_memo key, *e = memo_slot(s->check_cache, s->check_bits, p, s->check_pure, side, &key);
    if (memo_hit(e, &key))
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
    key.answer = (uint8_t)answer;
    *e = key;
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

void script_set_error(tiers_script *s, const char *msg)
{
    snprintf(s->error, sizeof s->error, "%s", msg);
    s->traceback[0] = '\0';
}

/* ------------------------------------------------------------ for check */

const char *tiers_variant_script_traceback(const tiers_variant *v)
{
    return v && v->script ? v->script->traceback : "";
}

int tiers_variant_hook_use(const tiers_variant *v, int i, tiers_hook_use *out)
{
    const tiers_script *s = v ? v->script : NULL;
    for (int e = 0; s && e < v->neffects; e++)
        for (int h = 0; h < HK_COUNT; h++) {
            const effect_rec *fx = &s->fx[e];
            if (fx->ref[h] == LUA_NOREF || fx->ref[h] == LUA_REFNIL || i--)
                continue;
            *out = (tiers_hook_use){.effect = v->effect_name[e], .hook = hook_name[h],
                                    .file = fx->src[h], .line = fx->line[h],
                                    .runs = fx->runs[h],
                                    .refused = h == HK_MOVES ? fx->refused : 0};
            return 1;
        }
    return 0;
}
