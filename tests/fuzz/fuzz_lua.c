/* fuzz_lua.c - libFuzzer target: the Lua API of variant effects
 * (engine/src/lua/, docs/lua-api.md).
 *
 * Input, one of two forms:
 *   - Lua source (anything not starting with "#gen\n"): written as the
 *     script of the small variant tests/fuzz/lua/variant.yaml, as is.
 *     Most mutants are not valid Lua: they must just fail to load, with
 *     a message.
 *   - "#gen\n" + bytes: the bytes drive a generator that writes a valid
 *     script: one or two effects whose hooks (moves, veto, after, tier,
 *     drop_ok, result, apply, format) call the position API with
 *     arguments good and bad, keep the handle in a global, edit in
 *     read-only hooks, raise errors, loop, allocate, recurse, and return
 *     values of every type.
 * The variant is loaded once, without scripts; for each input the script
 * is written to a private folder under /dev/shm and loaded into a fresh
 * copy of it with script_load, the step tiers_variant_load ends with
 * (loading the YAML each time would cost more than the script).  Each of
 * a few positions then has its moves generated, made (with the status
 * asked) and unmade.  Whatever the script does, the engine must not crash, a failed
 * make must leave the position as it was, and an unmake must restore it
 * exactly (text and hash). */
#include <stdarg.h>
#include <unistd.h>
#include <sys/stat.h>

#include "fuzz.h"

#include "core.h"
#include "lua/script.h"

static char dir[256], yaml_path[300], lua_path[300];
static tiers_variant *plain, *work; /* without scripts; a copy per input */
static tiers_pos *pos;                /* of `work` */

static void cleanup(void)
{
    unlink(lua_path);
    unlink(yaml_path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/tiers-fuzz-lua-%ld", base, (long)getpid());
    snprintf(yaml_path, sizeof yaml_path, "%s/variant.yaml", dir);
    snprintf(lua_path, sizeof lua_path, "%s/fuzz.lua", dir);
    if (mkdir(dir, 0700) && access(dir, W_OK)) {
        perror(dir);
        abort();
    }
    atexit(cleanup);
    /* The variant without its `scripts:` line. */
    FILE *in = fopen(TIERS_FUZZ_DIR "/lua/variant.yaml", "rb"), *out = fopen(yaml_path, "wb");
    if (!in || !out)
        abort();
    char line[1024];
    while (fgets(line, sizeof line, in))
        if (strncmp(line, "scripts:", 8))
            fputs(line, out);
    fclose(in);
    if (fclose(out))
        abort();
    tiers_error err;
    plain = tiers_variant_load(yaml_path, NULL, NULL, &err);
    FUZZ_CHECK(plain, "%s: %s", yaml_path, err.msg);
    work = malloc(sizeof *work);
    if (!work)
        abort();
    memcpy(work, plain, sizeof *work);
    pos = tiers_pos_new(work, 64, &err);
    FUZZ_CHECK(pos, "%s", err.msg);
    return 0;
}

/* ------------------------------------------------------------ generator */

typedef struct gen {
    const uint8_t *d;
    size_t n, i;
    char *out;
    size_t len, cap;
} gen;

static unsigned take(gen *g) { return g->i < g->n ? g->d[g->i++] : 0; }

#define PICK(g, list) (list[take(g) % (sizeof list / sizeof list[0])])

static void emit(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(g->out + g->len, g->cap - g->len, fmt, ap);
    va_end(ap);
    if (k > 0 && g->len + (size_t)k < g->cap)
        g->len += (size_t)k;
    else
        g->out[g->len] = 0;
}

static const char *const SQ[] = {
    "\"a1\"", "\"c3\"", "\"e5\"", "\"b2\"", "\"c2\"", "\"e1\"", "\"b5\"", "\"f1\"", "\"a6\"",
    "\"zz\"", "\"\"", "\"a0\"", "\"p16\"", "\"a1\\0x\"", "5", "nil", "{}", "\"A1\"", "\"a01\"",
    "\"a99999999999999999999\"", "(move and move.from)", "(move and move.to)",
    "pos:square(0, 0)", "pos:square(2, 2)", "\"c\"", "\"1\""};
static const char *const TIER[] = {"1", "2", "3", "4", "0", "-1", "8", "9", "1.5", "\"2\"",
                                   "nil", "math.huge", "2^53", "math.mininteger", "0/0"};
static const char *const OWNER[] = {"0", "1", "2", "3", "-1", "nil", "\"0\"", "0.5", "pos:side()"};
static const char *const PIECE[] = {
    "\"pawn\"", "\"gold\"", "\"king\"", "\"rook\"", "\"dragon\"", "{kind = \"pawn\"}",
    "{kind = \"pawn\", face = \"gold\", owner = 1}", "{face = \"gold\"}",
    "{kind = \"king\", flipped = true}", "{kind = \"pawn\", facing = \"e\"}",
    "{kind = \"pawn\", facing = \"q\"}", "pos:top(\"c3\")", "pos:top(\"c2\")", "42", "nil",
    "{kind = {}}", "{kind = \"pawn\", owner = 7}", "{kind = \"rook\", face = \"king\"}", "\"\"",
    "{kind = \"rook\", flipped = true}", "(move and move.piece)"};
static const char *const VAR[] = {"1", "2", "8", "0", "9", "-1", "1.5", "\"1\"", "nil"};
static const char *const VAL[] = {"-40000", "32767", "-32768", "1e300", "\"x\"", "0/0", "7",
                                  "pos:var(1) + 1", "nil", "1"};
static const char *const DELTA[] = {"1", "-1", "-300", "300", "0", "nil", "2.5", "255"};
static const char *const COORD[] = {"0", "4", "5", "-1", "15", "16", "nil", "2.2", "\"1\""};
static const char *const SELF[] = {"pos", "pos", "pos", "kept or pos", "kept2 or pos"};

static const char *const REP_SIZE[] = {"1e9", "2^31", "1e5", "-1", "2^62"};
static const char *const ERROR_VALUE[] = {
    "\"boom\"", "{}", "nil", "5",
    "setmetatable({}, {__tostring = function() return 5 end})",
    "setmetatable({}, {__tostring = function() while true do end end})",
    "string.rep(\"e\", 5000)"};
/* Finalizers: the sandbox's setmetatable refuses them (Lua would run them
 * with the debug hooks off, out of the budget's reach). */
static const char *const GC_BODY[] = {
    "error('gc')", "kept = nil", "local _ = (kept or {}).side", "kept:flip('c3')",
    "local _ = {}", "while true do end"};
static const char *const SANDBOX_PROBE[] = {
    "os.exit()", "io.open('/etc/passwd')", "require('os')", "dofile('/x')",
    "loadfile('/x')", "debug.getinfo(1)", "coroutine.create(print)", "package.loaded",
    "string.dump(print)", "rawget(_G, 'os')", "getmetatable(pos)", "getmetatable(_G)",
    "setmetatable(_G, nil)", "load(string.char(27) .. 'Lua')", "load('return 1')()",
    "load(function() return nil end)", "collectgarbage('count')", "collectgarbage('stop')",
    "collectgarbage()", "print('x')", "select('#', table.unpack({}, 1, 1e7))",
    "string.format('%99d', 1)", "utf8.char(0x7fffffff)",
    "('x'):rep(100):find(('x?'):rep(20))", "('x'):rep(40):find(('x?'):rep(40) .. 'y')",
    "('x'):rep(1e5):match('x*y')", "('x'):rep(50):gsub(('x?'):rep(50) .. 'y', '')",
    "('x'):rep(1e5):find(('x'):rep(1e3) .. 'y', 1, true)",
    "getmetatable('').__gc", "setmetatable({}, setmetatable({}, {__index = {__gc = print}}))"};
static const char *const NOT_POS[] = {"nil", "5", "{}", "kept", "\"pos\""};
static const char *const BAD_PATH[] = {"5", "{1, 2, 3, 4, 5, 6}", "{\"out\"}", "\"a1\""};
static const char *const BAD_MOVES[] = {"\"x\"", "5", "{5}", "{{}}", "pos",
                                        "setmetatable({}, {__index = error})"};
static const char *const SECOND_NAME[] = {"\"fz2\"", "\"fz\"", "\"\"", "5"};

/* One statement using the position API, or a hostile one. */
static void statement(gen *g)
{
    const char *p = PICK(g, SELF);
    switch (take(g) % 48) {
    case 0: emit(g, "local _ = (%s):side()", p); break;
    case 1: emit(g, "local _ = (%s):files() + (%s):ranks()", p, p); break;
    case 2: emit(g, "local _ = (%s):height(%s)", p, PICK(g, SQ)); break;
    case 3: emit(g, "local _ = (%s):piece(%s, %s)", p, PICK(g, SQ), PICK(g, TIER)); break;
    case 4: emit(g, "local _ = (%s):top(%s)", p, PICK(g, SQ)); break;
    case 5: emit(g, "local _ = (%s):tower(%s)", p, PICK(g, SQ)); break;
    case 6: emit(g, "local _ = (%s):hand(%s)", p, PICK(g, OWNER)); break;
    case 7: emit(g, "local _ = (%s):in_check(%s)", p, PICK(g, OWNER)); break;
    case 8: emit(g, "local _ = (%s):attacked(%s, %s)", p, PICK(g, SQ), PICK(g, OWNER)); break;
    case 9: emit(g, "local _ = (%s):var(%s)", p, PICK(g, VAR)); break;
    case 10: emit(g, "local _ = {(%s):setup(), (%s):ply(), (%s):clock(), (%s):mode()}", p, p, p,
                  p); break;
    case 11: emit(g, "local _ = (%s):square(%s, %s)", p, PICK(g, COORD), PICK(g, COORD)); break;
    case 12: emit(g, "local _ = (%s):coords(%s)", p, PICK(g, SQ)); break;
    case 13: emit(g, "(%s):push(%s, %s, %s)", p, PICK(g, SQ), PICK(g, PIECE), PICK(g, OWNER));
        break;
    case 14: emit(g, "local _ = (%s):pop(%s)", p, PICK(g, SQ)); break;
    case 15: emit(g, "(%s):insert(%s, %s, %s, %s)", p, PICK(g, SQ), PICK(g, TIER),
                  PICK(g, PIECE), PICK(g, OWNER)); break;
    case 16: emit(g, "local _ = (%s):remove(%s, %s)", p, PICK(g, SQ), PICK(g, TIER)); break;
    case 17: emit(g, "(%s):replace(%s, %s, %s, %s)", p, PICK(g, SQ), PICK(g, TIER),
                  PICK(g, PIECE), PICK(g, OWNER)); break;
    case 18: emit(g, "(%s):flip(%s, %s)", p, PICK(g, SQ), PICK(g, TIER)); break;
    case 19: emit(g, "(%s):set_owner(%s, %s, %s)", p, PICK(g, SQ), PICK(g, TIER),
                  PICK(g, OWNER)); break;
    case 20: emit(g, "(%s):to_hand(%s, %s, %s)", p, PICK(g, OWNER), PICK(g, PIECE),
                  PICK(g, DELTA)); break;
    case 21: emit(g, "(%s):set_var(%s, %s)", p, PICK(g, VAR), PICK(g, VAL)); break;
    case 22: emit(g, "kept = pos"); break;
    case 23: emit(g, "kept2 = kept; kept = pos"); break;
    case 24: emit(g, "local _ = tostring(%s) .. tostring(kept)", p); break;
    case 25: emit(g, "local _ = math.random(%s) + math.random()", PICK(g, DELTA)); break;
    case 26: emit(g, "math.randomseed(%s)", PICK(g, VAL)); break;
    case 27: emit(g, "local n = 0 while true do n = n + 1 end"); break;
    case 28: emit(g, "local t = {} for i = 1, 1e7 do t[i] = {i} end"); break;
    case 29: emit(g, "local _ = string.rep(\"x\", %s)", PICK(g, REP_SIZE)); break;
    case 30: emit(g, "error(%s)", PICK(g, ERROR_VALUE)); break;
    case 31: emit(g, "setmetatable({}, {__gc = function() %s end})", PICK(g, GC_BODY));
        break;
    case 32: emit(g, "local function r(n) return r(n + 1) + 1 end r(1)"); break;
    case 33: emit(g, "local _ = %s", PICK(g, SANDBOX_PROBE));
        break;
    case 34: emit(g, "effect{name = \"late\"}"); break;
    case 35: emit(g, "rules = nil"); break;
    case 36: emit(g, "local _ = rules.files + rules.limit .. rules.style"); break;
    case 37: emit(g, "pos.x = 1"); break;
    case 38: emit(g, "local _ = move and move.kind .. tostring(move.from) .. #(move.path or {})");
        break;
    case 39: emit(g, "if (%s):height(%s) > 0 then (%s):push(%s, (%s):pop(%s)) end", p,
                  PICK(g, SQ), p, PICK(g, SQ), p, PICK(g, SQ)); break;
    case 40: emit(g, "for _, sq in ipairs({\"a1\", \"c3\", \"e5\"}) do local t = (%s):top(sq) "
                  "if t then (%s):set_owner(sq, nil, %s) end end", p, p, PICK(g, OWNER)); break;
    case 41: emit(g, "local h = (%s):hand(0) for k, v in pairs(h) do (%s):to_hand(1, k, v) end",
                  p, p); break;
    case 42: emit(g, "local _ = (%s).side", p); break;
    case 43: emit(g, "local _ = pos:side(%s)", PICK(g, SQ)); break;
    case 44: emit(g, "local _ = pos.side(%s)", PICK(g, NOT_POS)); break;
    case 45: emit(g, "string.rep = nil"); break;
    case 46: emit(g, "local _ = #(%s):tower(%s) + (%s):ply()", p, PICK(g, SQ), p); break;
    default: emit(g, "local _ = pcall(error)"); break;
    }
}

static const char *const KIND[] = {"\"drop\"", "\"move\"", "\"stack\"", "\"capture\"",
                                   "\"strike\"", "\"ready\"", "\"rotate\"", "\"deploy\"",
                                   "\"effect\"", "\"bogus\"", "5", "nil"};
static const char *const EFF[] = {"\"fz\"", "\"fz2\"", "\"nosuch\"", "nil", "1", "\"\""};
static const char *const FLAG[] = {"true", "false", "nil", "1"};

static void move_table(gen *g)
{
    unsigned fields = take(g) | take(g) << 8;
    emit(g, "{");
    if (fields & 1)
        emit(g, "kind = %s, ", PICK(g, KIND));
    if (fields & 2)
        emit(g, "from = %s, ", PICK(g, SQ));
    if (fields & 4)
        emit(g, "to = %s, ", PICK(g, SQ));
    if (fields & 8)
        emit(g, "piece = %s, ", PICK(g, PIECE));
    if (fields & 16)
        emit(g, "tier = %s, ", PICK(g, TIER));
    if (fields & 32)
        emit(g, "arg = %s, ", PICK(g, DELTA));
    if (fields & 64)
        emit(g, "path = {%s, %s}, ", PICK(g, SQ), PICK(g, SQ));
    if (fields & 128)
        emit(g, "effect = %s, ", PICK(g, EFF));
    if (fields & 256)
        emit(g, "exit = %s, ", PICK(g, FLAG));
    if (fields & 512)
        emit(g, "final = %s, ", PICK(g, FLAG));
    if (fields & 1024)
        emit(g, "path = %s, ", PICK(g, BAD_PATH));
    emit(g, "}");
}

static const char *const HOOKS[] = {"moves", "veto", "after", "tier", "drop_ok", "result",
                                    "apply", "format"};
static const char *const ARGS[] = {"pos", "pos, move", "pos, move", "pos, sq, index, tier",
                                   "pos, piece, sq", "pos", "pos, move", "pos, move"};
static const char *const RET_BOOL[] = {"true", "false", "nil", "1", "\"x\"", "{}",
                                       "move.kind == \"drop\"", "pos:var(1) > 0", "pos"};
static const char *const RET_TIER[] = {"nil", "1", "2", "3", "9", "0", "\"x\"", "tier",
                                       "tier + 1", "index"};
static const char *const RET_RESULT[] = {"nil", "\"0\"", "\"1\"", "\"draw\"", "\"win\"", "5",
                                         "\"draw\", \"reason\"", "\"0\", 5", "nil, \"x\"",
                                         "\"1\", string.rep(\"r\", 3000)"};
static const char *const RET_FORMAT[] = {"nil", "\"txt\"", "\"\"", "\"a b\"", "5",
                                         "string.rep(\"x\", 300)", "\"+\"", "move.kind",
                                         "\"\\n\"", "\"c2^c3\"", "tostring(move.from)"};

static void hook(gen *g, int h)
{
    emit(g, "  %s = function(%s)\n", HOOKS[h], ARGS[h]);
    for (int k = take(g) % 5; k > 0 && g->len + 1024 < g->cap; k--) {
        int wrap = take(g) & 1;
        /* The ';' keeps "(pos):flip(...)" from continuing the line
           before as a call. */
        emit(g, wrap ? "    ;pcall(function() " : "    ;");
        statement(g);
        emit(g, wrap ? " end)\n" : "\n");
    }
    emit(g, "    return ");
    switch (h) {
    case 0:
        if (take(g) % 8 == 0) {
            emit(g, "%s", PICK(g, BAD_MOVES));
        } else {
            emit(g, "{");
            for (int k = take(g) % 4; k > 0; k--) {
                move_table(g);
                emit(g, ", ");
            }
            emit(g, "}");
        }
        break;
    case 3: emit(g, "%s", PICK(g, RET_TIER)); break;
    case 5: emit(g, "%s", PICK(g, RET_RESULT)); break;
    case 7: emit(g, "%s", PICK(g, RET_FORMAT)); break;
    default: emit(g, "%s", PICK(g, RET_BOOL)); break;
    }
    emit(g, "\n  end,\n");
}

static void generate(gen *g)
{
    int effects = 1 + (take(g) & 1);
    for (int e = 0; e < effects; e++) {
        unsigned hooks = take(g);
        emit(g, "effect{\n  name = %s,\n", e ? PICK(g, SECOND_NAME)
                                             : "\"fz\"");
        for (int h = 0; h < 8; h++)
            if (hooks >> h & 1)
                hook(g, h);
        emit(g, "}\n");
    }
}

/* ------------------------------------------------------------ driving */

static const char *const POSITIONS[] = {
    "1k3/5/2p2/2P2/2K2 P w - 0 1",
    "1k3/5/2[p:P:R]2/P4/4K Pp w - 0 1 vars=1",
};

static void check_same(tiers_pos *p, const char *before, uint64_t hash, const char *what)
{
    static char now[4096];
    fuzz_fen(p, "tiers", now, sizeof now);
    FUZZ_CHECK(!strcmp(now, before) && tiers_pos_hash(p) == hash,
               "%s: position '%s' became '%s'%s", what, before, now,
               tiers_pos_hash(p) == hash ? "" : " (hash differs)");
}

/* Runs the hooks on position k: its moves, a few made (with the status
 * asked) and unmade, and a short random playout (which generates moves
 * in the positions the hooks made). */
static void drive(tiers_variant *v, tiers_pos *p, size_t k)
{
    static tiers_move moves[TIERS_MAX_MOVES];
    static char before[4096], text[256];
    tiers_error err;
    FUZZ_CHECK(tiers_pos_parse(p, POSITIONS[k], NULL, &err) == 0, "%s: %s", POSITIONS[k],
               err.msg);
    tiers_pos_seed(p, 1 + k);
    fuzz_fen(p, "tiers", before, sizeof before);
    uint64_t hash = tiers_pos_hash(p);
    int n = tiers_legal_moves(p, moves, TIERS_MAX_MOVES);
    FUZZ_CHECK(n >= 0 || n == TIERS_ESCRIPT || n == TIERS_EFULL, "legal moves: %d", n);
    check_same(p, before, hash, "generating moves");
    if (n < 0) {
        FUZZ_CHECK(tiers_variant_script_error(v)[0] || n == TIERS_EFULL,
                   "moves failed without a script error");
        n = tiers_pseudo_moves(p, moves, TIERS_MAX_MOVES);
        check_same(p, before, hash, "generating pseudo-legal moves");
    }
    for (int i = 0; i < n && i < 4; i++) {
        const tiers_move *m = &moves[i * 7 % n];
        tiers_move_format(p, m, NULL, text, sizeof text);
        int rc = tiers_make(p, m);
        if (rc < 0) {
            FUZZ_CHECK(rc == TIERS_ESCRIPT || rc == TIERS_EFULL || rc == TIERS_EILLEGAL,
                       "make returned %d", rc);
            check_same(p, before, hash, "a failed make");
            continue;
        }
        tiers_status st = tiers_pos_status(p);
        FUZZ_CHECK(st.reason, "status without a reason");
        (void)strlen(st.reason);
        FUZZ_CHECK(tiers_unmake(p) == 0, "unmake");
        check_same(p, before, hash, "make then unmake");
    }
    tiers_pos_status(p);
    uint64_t rng = 0x9e3779b97f4a7c15ull + k;
    tiers_random_playout(p, &rng, 3);
    check_same(p, before, hash, "a playout");
    (void)strlen(tiers_variant_script_error(v));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char script[1 << 16];
    FILE *f = fopen(lua_path, "wb");
    if (!f)
        abort();
    if (size >= 5 && !memcmp(data, "#gen\n", 5)) {
        gen g = {data + 5, size - 5, 0, script, 0, sizeof script};
        script[0] = 0;
        generate(&g);
        fwrite(script, 1, g.len, f);
        if (getenv("FUZZ_LUA_DUMP")) /* to see the script of a crash */
            fprintf(stderr, "%s", script);
    } else {
        fwrite(data, 1, size, f);
    }
    if (fclose(f))
        abort();
    tiers_error err;
    const char *files[1] = {lua_path};
    memcpy(work, plain, sizeof *work);
    if (script_load(work, files, 1, &err) < 0) {
        FUZZ_CHECK(strnlen(err.msg, sizeof err.msg) < sizeof err.msg && err.msg[0],
                   "load failed without a message");
        FUZZ_CHECK(!work->script && !work->hooks && !work->neffects,
                   "a failed load left scripts behind");
        return 0;
    }
    drive(work, pos, fuzz_hash(data, size) % (sizeof POSITIONS / sizeof POSITIONS[0]));
    script_free(work->script);
    return 0;
}
