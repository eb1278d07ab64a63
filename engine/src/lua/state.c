/* lua/state.c - the Lua state of a variant: creating it, loading the
 * script files, building the per-hook effect lists and candidate tables
 * (the stuck tables they use are the variant's: variant_stuck_tables),
 * freeing it, and the hooks table handed to the core (hooks.h). */
#include "lua/internal.h"
#include "fileio.h"
#include "variant.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char facing_chars[] = "nesw";

const char *const kind_name[TIERS_MV_KINDS] = {
    "none", "drop", "move", "stack", "capture", "strike", "ready", "rotate", "deploy",
    "effect"};

static const uint32_t hook_bit[HK_COUNT] = {HOOK_MOVES, HOOK_VETO, HOOK_AFTER, HOOK_TIER,
                                            HOOK_DROP, HOOK_RESULT, HOOK_APPLY, 0,
                                            HOOK_EXPAND, HOOK_CHECK, HOOK_EVALUATE};

const char *const hook_name[HK_COUNT] = {"moves", "veto", "after", "tier", "drop_ok",
                                         "result", "apply", "format", "expand", "check",
                                         "evaluate"};

/* The table the core calls the hooks through (hooks.h). */
static const hooks_table lua_hooks = {
    .moves = script_moves, .veto = script_veto, .after = script_after, .tier = script_tier,
    .drop_ok = script_drop_ok, .result = script_result, .apply = script_apply,
    .expand = script_expand, .check = script_in_check, .evaluate = script_evaluate,
    .format = script_format, .nested = script_nested, .drop_effects = script_drop_effects,
    .check_effects = script_check_effects, .remember = script_remember,
    .last_error = script_last_error, .set_error = script_set_error, .free = script_free};

int hooks_load_lua(tiers_variant *v, const char *const *files, int nfiles, tiers_error *err)
{
    return script_load(v, files, nfiles, err);
}

/* ------------------------------------------------------------ loading */


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
    char why[200];
    char *text = fileio_read(path, SCRIPT_MAX_FILE, &len, why, sizeof why, NULL);
    if (!text) {
        char failed[1400];
        snprintf(failed, sizeof failed, "%s: cannot read script: %s", name, why);
        return load_error(err, path, failed);
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
        call_take_error(s, status, name, 0, msg, sizeof msg);
    return load_error(err, path, msg);
}

/* The expand effects a fresh move passes only if its piece may be stuck
 * (expand_reach = {0, 0} without _vars): script_expand drops them at once
 * for a piece landing where the variant's stuck tables say it never can
 * be. */
static void find_stuck_tests(tiers_script *s)
{
    tiers_variant *v = s->v;
    for (int e = 0; e < v->neffects; e++) {
        const hook_filter *f = &s->fx[e].filter[HK_EXPAND];
        if (s->fx[e].ref[HK_EXPAND] == LUA_NOREF || !f->reach || f->reach_hi)
            continue;
        variant_stuck_tables(v);
        if (!f->vars)
            s->stuck_test |= 1u << e;
    }
}

/* Which faces' moves the expand pre-pass must look at (script_expand):
 * those of an acting piece whose face some expand hook's narrowing (or
 * the lack of one) lets through -- only where it may be stuck when stuck
 * tests are all that let them through -- and the captures of a taken
 * piece whose face does.  Without the top piece as the unit, every face. */
static void find_expand_faces(tiers_script *s)
{
    tiers_variant *v = s->v;
    const uint32_t *by_kind = s->by_kind[HK_EXPAND], *by_actor = s->by_actor[HK_EXPAND];
    const uint32_t *by_taken = s->by_taken[HK_EXPAND], face_test = s->face_test[HK_EXPAND];
    const int kinds[3] = {TIERS_MV_MOVE, TIERS_MV_STACK, TIERS_MV_CAPTURE};
    memset(v->expand_role, 0, sizeof v->expand_role);
    for (int f = 0; f < MAX_FACES; f++) {
        uint32_t acting = 0; /* the effects that may want its moves */
        for (int i = 0; i < 3; i++) {
            uint32_t c = by_kind[kinds[i]], untaken = i < 2 ? by_taken[MAX_FACES] : 0;
            if (v->unit != UNIT_TOP || !(c & face_test))
                untaken = ~0u;
            acting |= c & (by_actor[f] | untaken);
        }
        /* (a stack moves by all its pieces' lines, and a piece that turns
           after its move is stuck by another facing's tables: stuck_near,
           made from the top face's lines and tables of one facing, does
           not tell where they may end stuck) */
        if ((acting & ~s->stuck_test) ||
            (acting && (v->unit != UNIT_TOP || v->turn_after_move)))
            v->expand_role[f] |= EXPAND_ACTOR;
        else if (acting)
            v->expand_role[f] |= EXPAND_STUCK;
        if (by_kind[TIERS_MV_CAPTURE] & by_taken[f])
            v->expand_role[f] |= EXPAND_TAKEN;
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
    v->drop_faces_refused = 0;
    memset(v->expand_role, 0, sizeof v->expand_role);
    v->neffects = 0;
    tiers_script *s = calloc(1, sizeof *s);
    if (!s) {
        memset(err, 0, sizeof *err);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return TIERS_ENOMEM;
    }
    s->check_cache = s->check_small;
    s->check_bits = 8;
    s->veto_cache = s->veto_small;
    s->veto_bits = 8;
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
    s->L = lua_newstate(budget_alloc, s);
    if (!s->L) {
        free(s);
        memset(err, 0, sizeof *err);
        snprintf(err->msg, sizeof err->msg, "cannot create the Lua state (out of memory)");
        return TIERS_ENOMEM;
    }
    *(tiers_script **)lua_getextraspace(s->L) = s;
    /* (no count hook: budget_reset arms a call's hook after a time slice) */
    int rc = 0;
    lua_pushcfunction(s->L, sandbox_open);
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
                /* the candidate tables (see call_candidates()) */
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
    if (s->nlist[HK_DROP_OK]) { /* script_drop_ok's first refusal, for movegen */
        const hook_filter *f = &s->fx[s->list[HK_DROP_OK][0]].filter[HK_DROP_OK];
        v->drop_faces_refused = f->faces || f->never ? ~f->faces : 0;
    }
    s->check_pure = s->nlist[HK_CHECK] > 0;
    for (int i = 0; i < s->nlist[HK_CHECK]; i++)
        s->check_pure &= s->fx[s->list[HK_CHECK][i]].filter[HK_CHECK].pure;
    for (int e = 0; e < v->neffects; e++)
        if (s->fx[e].ref[HK_VETO] != LUA_NOREF && s->fx[e].ref[HK_VETO] != LUA_REFNIL &&
            s->fx[e].filter[HK_VETO].pure)
            s->veto_pure |= 1u << e;
    for (int e = 0; e < v->neffects; e++)
        if (s->fx[e].ref[HK_MOVES] != LUA_NOREF && s->fx[e].filter[HK_MOVES].pure &&
            !(s->fx[e].memo = calloc(MEMO_SLOTS, sizeof *s->fx[e].memo))) {
            script_free(s);
            v->neffects = 0;
            memset(err, 0, sizeof *err);
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return TIERS_ENOMEM;
        }
    find_stuck_tests(s);
    find_expand_faces(s);
    v->script = s;
    v->hook_fns = &lua_hooks;
    return 0;
}

void script_free(tiers_script *s)
{
    if (!s)
        return;
    budget_free(s);
    if (s->L) {
        s->ticks = 0; /* (no finalizers: l_setmetatable) */
        s->cur = (hook_ctx){0};
        lua_close(s->L);
    }
    for (int e = 0; e < MAX_EFFECTS; e++)
        free(s->fx[e].memo);
    for (int d = 0; d <= SCRIPT_MAX_DEPTH; d++)
        free(s->gen_buf[d]);
    if (s->check_cache != s->check_small)
        free(s->check_cache);
    if (s->veto_cache != s->veto_small)
        free(s->veto_cache);
    free(s);
}

/* Gives a memo of answers 1 << bits slots (at least its 256 built in),
 * emptied.  0 or TIERS_ENOMEM (the memo is then as it was). */
static int memo_resize(check_memo **cache, check_memo *small, int *have, int bits)
{
    check_memo *c = small;
    if (bits > 8 && !(c = calloc((size_t)1 << bits, sizeof *c)))
        return TIERS_ENOMEM;
    if (*cache != small)
        free(*cache);
    if (c == small)
        memset(small, 0, 256 * sizeof *small);
    *cache = c;
    *have = bits > 8 ? bits : 8;
    return 0;
}

int script_remember(tiers_script *s, int bits)
{
    if (!s)
        return 0;
    if (s->nlist[HK_CHECK] && bits != s->check_bits &&
        memo_resize(&s->check_cache, s->check_small, &s->check_bits, bits) < 0)
        return TIERS_ENOMEM;
    if (s->veto_pure && bits != s->veto_bits &&
        memo_resize(&s->veto_cache, s->veto_small, &s->veto_bits, bits) < 0)
        return TIERS_ENOMEM;
    return 0;
}
