/* lua/budget.c - what a script may spend: the allocator that caps a Lua
 * state's memory, the count hook that enforces the instruction budget of a
 * hook call (and the wall-clock guard), and the charges for C work done on
 * a script's behalf (library functions whose cost grows with their input,
 * the engine's move generation asked from a hook), and the time slice
 * after which a running call's count hook is armed. */
#define _GNU_SOURCE /* SIGEV_THREAD_ID: a timer signal for one thread */
#include "lua/internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------ allocator */



/* Memory comes from the variant's allowance, and each byte a script's
 * objects grow by is charged to the budget (one instruction per
 * ALLOC_BYTES_PER_STEP): a C function that builds a large string in one
 * instruction (string.rep, table.concat, ...) pays for its size. */
enum { ALLOC_BYTES_PER_STEP = 32 };
/* A full collection walks the heap (mostly marking, cheaper per byte than
 * building it): a refused allocation costs the heap / GC_BYTES_PER_STEP. */
enum { GC_BYTES_PER_STEP = 256 };

void *budget_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
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
        /* Lua answers with a full collection and tries again: a walk of
           the whole heap, charged like collectgarbage(), or a script
           living at its memory limit would run collections unbounded */
        budget_charge(s, s->mem / GC_BYTES_PER_STEP);
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
 * exhaustion instead of each branch spending it again.
 *
 * Lua pays for a count hook at every instruction of every call, however
 * rare the hook's own runs (a quarter of a script-heavy perft), so the
 * hook is armed only in a call that has run for a time slice
 * (SCRIPT_SLICE_NS of the thread's CPU time, see slice_tick below):
 * ordinary calls take microseconds and never pay it.  The C-side charges
 * count from the call's start as before; the Lua instructions count from
 * the moment the hook is armed, so a call ends at most one or two slices
 * later than a count from its first instruction would end it. */
int budget_spent(const tiers_script *s) { return s->ticks <= 0; }

/* The time guard reads the thread's CPU time, not the wall clock: on a
 * crowded machine a call waiting for a core has done no work. */
static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Raises the budget error, or the time guard's: a last resort for work
 * that no count sees (an instruction comparing two long strings, ...),
 * given in seconds because nothing else bounds it (counted from the first
 * run of the hook in the call, a slice after the call began). */
void budget_count_hook(lua_State *L, lua_Debug *ar)
{
    tiers_script *s = script_of(L);
    double now = now_seconds();
    if (s->started == 0)
        s->started = now;
    int late = now - s->started > s->seconds;
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
int budget_charge(tiers_script *s, size_t n)
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
        lua_sethook(s->L, budget_count_hook, LUA_MASKCOUNT, 1);
    }
    return -1;
}

/* ------------------------------------------------------------ the slice */

/* The timer's signal runs slice_tick on the thread running the script
 * (the only thread that touches its Lua state).  A tick that finds a call
 * running and the same call as at the tick before arms the count hook;
 * a tick that finds no call started since the last one stops the timer
 * (budget_reset starts it again), so an idle script costs nothing.
 * lua_sethook may be called from a signal handler (Lua's own interpreter
 * stops scripts on ^C this way). */
static void slice_tick(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    tiers_script *s = si->si_code == SI_TIMER ? si->si_value.sival_ptr : NULL;
    if (!s || !s->timer_live)
        return;
    int saved = errno;
    int busy = s->depth > 0 || s->loading;
    if (s->call_seq != s->seen_seq) {
        s->seen_seq = s->call_seq;
    } else if (busy) {
        if (!lua_gethookmask(s->L))
            lua_sethook(s->L, budget_count_hook, LUA_MASKCOUNT, SCRIPT_COUNT_STEP);
    } else {
        struct itimerspec off = {{0, 0}, {0, 0}};
        timer_settime(s->timer, 0, &off, NULL);
        s->timer_idle = 1;
    }
    errno = saved;
}

static pthread_once_t slice_once = PTHREAD_ONCE_INIT;
static int slice_signal; /* 0: no handler, the hook stays armed */

static void slice_install(void)
{
    struct sigaction sa = {0};
    sa.sa_sigaction = slice_tick;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    int sig = SIGRTMIN + 4;
    if (sig <= SIGRTMAX && sigaction(sig, &sa, NULL) == 0)
        slice_signal = sig;
}

static void slice_run(tiers_script *s)
{
    struct itimerspec every = {{0, SCRIPT_SLICE_NS}, {0, SCRIPT_SLICE_NS}};
    s->timer_idle = 0;
    timer_settime(s->timer, 0, &every, NULL);
}

/* A timer on the CPU clock of the calling thread, whose signal goes to
 * that thread; without one (no signal or timer to be had) the count hook
 * stays armed, as it was before the slice. */
static void slice_start(tiers_script *s)
{
    budget_free(s);
    pthread_once(&slice_once, slice_install);
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = slice_signal;
    ev.sigev_value.sival_ptr = s;
    ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    if (!slice_signal || timer_create(CLOCK_THREAD_CPUTIME_ID, &ev, &s->timer) != 0) {
        s->always_count = 1;
        lua_sethook(s->L, budget_count_hook, LUA_MASKCOUNT, SCRIPT_COUNT_STEP);
        return;
    }
    s->timer_thread = pthread_self();
    s->timer_live = 1;
    slice_run(s);
}

/* Deletes the state's timer (its pending signal goes with it). */
void budget_free(tiers_script *s)
{
    if (s->timer_live) {
        s->timer_live = 0;
        timer_delete(s->timer);
    }
}

/* A fresh budget for a hook call or a file's load: the hook disarmed, the
 * call counted for the slice, the timer started on this thread. */
void budget_reset(tiers_script *s)
{
    s->ticks = SCRIPT_INSTRUCTION_BUDGET / SCRIPT_COUNT_STEP;
    s->started = 0;
    s->call_seq++;
    if (s->always_count) {
        if (s->hook_now)
            lua_sethook(s->L, budget_count_hook, LUA_MASKCOUNT, SCRIPT_COUNT_STEP);
        s->hook_now = 0;
        return;
    }
    s->hook_now = 0;
    if (lua_gethookmask(s->L))
        lua_sethook(s->L, NULL, 0, 0);
    if (!s->timer_live || !pthread_equal(s->timer_thread, pthread_self()))
        slice_start(s);
    else if (s->timer_idle)
        slice_run(s);
}

/* A pos function about to generate moves (pos:in_check, pos:attacked,
 * ...): one pass over the board counts one instruction per square, about
 * what it costs; fails at once when the budget is spent, so that hooks
 * calling hooks end with the first exhaustion. */
void budget_generation(lua_State *L, const tiers_pos *p)
{
    if (budget_spent(script_of(L)) ||
        budget_charge(script_of(L), (size_t)(p->v->files * p->v->ranks)) < 0)
        luaL_error(L, BUDGET_TEXT, (int)SCRIPT_INSTRUCTION_BUDGET);
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

/* An error caught by pcall or xpcall costs Lua a walk of the whole call
 * chain (it shrinks the stack to what is in use), which no count sees: a
 * script recursing a hundred thousand levels deep and catching errors
 * there (through __close handlers that recurse again, say) spent seconds
 * per thousand instructions.  Each caught error is charged the depth of
 * the stack, found by probing levels 1, 2, 4, ... (about as much work as
 * Lua's walk, and the charge is the bound found). */
static size_t call_depth(lua_State *L)
{
    lua_Debug ar;
    size_t n = 1;
    while (n < ((size_t)1 << 30) && lua_getstack(L, (int)n, &ar))
        n *= 2;
    return n;
}

/* The wrapper of pcall and xpcall: upvalue 1 the library's function. */
static int l_caught_charged(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    tiers_script *s = script_of(L);
    if (!lua_toboolean(L, 1) && !budget_spent(s)) /* (spent: it raises again) */
        budget_charge(s, call_depth(L));
    return lua_gettop(L);
}

/* Replaces each function of charged_fns by its wrapper (globals on top). */
void budget_wrap_charged(lua_State *L)
{
    static const char *const catching[] = {"pcall", "xpcall"};
    for (int i = 0; i < 2; i++) {
        lua_getfield(L, -1, catching[i]);
        lua_pushcclosure(L, l_caught_charged, 1);
        lua_setfield(L, -2, catching[i]);
    }
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
