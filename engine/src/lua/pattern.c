/* lua/pattern.c - string.find, match, gmatch and gsub for scripts.  They
 * follow the pattern language of Lua 5.4 (reference manual 6.4.1) and the
 * search order of its lstrlib.c (the project builds against Lua 5.4.4):
 * the same classes, sets, captures, %b, %f and back references, results
 * and messages.  Written anew so that every step of the matcher is
 * charged to the hook's instruction budget: a pathological pattern ends
 * with the budget error instead of running for minutes in one C call. */
#include "lua/internal.h"

#include <ctype.h>
#include <string.h>

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

int pattern_find(lua_State *L) { return pat_find_or_match(L, 1); }

int pattern_match(lua_State *L) { return pat_find_or_match(L, 0); }

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
int pattern_gmatch(lua_State *L)
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

int pattern_gsub(lua_State *L)
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
