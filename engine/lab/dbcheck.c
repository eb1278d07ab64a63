/* dbcheck.c - checks every value read from a playout database: type,
 * range, and agreement with the rest of its row (docs/cli.md, "The
 * database"; docs/robustness.md). */
#include "dbcheck.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "game.h"
#include "tiers.h"

/* What a column may hold. */
enum {
    K_INT,      /* an integer in [min, max] */
    K_INT_NULL, /* the same, or NULL */
    K_REAL,     /* a finite number in [min, max] */
    K_REAL_NULL, /* the same, or NULL */
    K_TEXT,     /* text of min..max bytes, no control character */
    K_HEX       /* 16 lowercase hex digits */
};

struct dbcheck_col {
    int kind;
    int64_t min, max;
};

/* Counters are at most this (a game is at most 60,000 plies). */
#define PLIES_MAX 60000
#define MOVES_MAX ((int64_t)PLIES_MAX * 256)

const char *const dbcheck_run_names[DBCHECK_RUN_COLUMNS] = {
    "run", "variant", "variant_hash", "options", "agent0", "agent1", "side0",
    "side1", "seed", "max_plies", "effects", "tiers_version", "created"};

static const struct dbcheck_col run_cols[DBCHECK_RUN_COLUMNS] = {
    {K_HEX, 16, 16},
    {K_TEXT, 1, DB_NAME + 31},
    {K_HEX, 16, 16},
    {K_TEXT, 0, 1023},
    {K_TEXT, 1, DB_SPEC - 1},
    {K_TEXT, 1, DB_SPEC - 1},
    {K_TEXT, 1, DB_NAME - 1},
    {K_TEXT, 1, DB_NAME - 1},
    {K_INT, INT64_MIN, INT64_MAX},
    {K_INT, 1, PLIES_MAX},
    {K_TEXT, 0, GAME_MAX_EFFECTS * DB_NAME},
    {K_TEXT, 0, 63},
    {K_TEXT, 0, 63},
};

const char *const dbcheck_game_names[DBCHECK_GAME_COLUMNS] = {
    "run", "game", "variant", "variant_hash", "options", "agent0", "agent1",
    "seed", "game_seed", "result", "winner", "reason", "cut", "plies",
    "setup_plies", "first_side", "captures", "drops", "placements", "stacks",
    "legal_sum", "legal_plies", "seconds", "moves", "legal", "finished",
    "coverage", "repetition", "lead_change", "drama", "decision_point", "stability",
    "hook_ended"};

enum {
    G_RUN, G_GAME, G_VARIANT, G_HASH, G_OPTIONS, G_AGENT0, G_AGENT1, G_SEED,
    G_GAME_SEED, G_RESULT, G_WINNER, G_REASON, G_CUT, G_PLIES, G_SETUP,
    G_FIRST, G_CAPTURES, G_DROPS, G_PLACEMENTS, G_STACKS, G_LEGAL_SUM,
    G_LEGAL_PLIES, G_SECONDS, G_MOVES, G_LEGAL, G_FINISHED, G_COVERAGE, G_REPETITION,
    G_LEAD_CHANGE, G_DRAMA, G_DECISION_POINT, G_STABILITY, G_HOOK_ENDED
};

static const struct dbcheck_col game_cols[DBCHECK_GAME_COLUMNS] = {
    {K_HEX, 16, 16},
    {K_INT, 0, 100000000 - 1},
    {K_TEXT, 1, DB_NAME + 31},
    {K_HEX, 16, 16},
    {K_TEXT, 0, 1023},
    {K_TEXT, 1, DB_SPEC - 1},
    {K_TEXT, 1, DB_SPEC - 1},
    {K_INT, INT64_MIN, INT64_MAX},
    {K_HEX, 16, 16},
    {K_TEXT, 1, 7},
    {K_INT_NULL, 0, 1},
    {K_TEXT, 0, 63},
    {K_INT, 0, 1},
    {K_INT, 0, PLIES_MAX},
    {K_INT, 0, PLIES_MAX},
    {K_INT_NULL, 0, 1},
    {K_INT, 0, PLIES_MAX},
    {K_INT, 0, PLIES_MAX},
    {K_INT, 0, PLIES_MAX},
    {K_INT, 0, PLIES_MAX},
    {K_INT, 0, (int64_t)PLIES_MAX * TIERS_MAX_MOVES},
    {K_INT, 0, PLIES_MAX},
    {K_REAL, 0, 1000000000},
    {K_TEXT, 0, MOVES_MAX},
    {K_TEXT, 0, (int64_t)PLIES_MAX * 5},
    {K_TEXT, 0, 63},
    {K_REAL_NULL, 0, 1},
    {K_REAL_NULL, 0, 1},
    {K_REAL_NULL, 0, 1},
    {K_REAL_NULL, 0, 1},
    {K_REAL_NULL, 0, 1},
    {K_REAL_NULL, 0, 1},
    {K_INT_NULL, 0, 1},
};

const char *const dbcheck_effect_names[DBCHECK_EFFECT_COLUMNS] = {
    "run", "game", "name", "count", "prevented", "ended"};

static const struct dbcheck_col effect_cols[DBCHECK_EFFECT_COLUMNS] = {
    {K_HEX, 16, 16},
    {K_INT, 0, 100000000 - 1},
    {K_TEXT, 1, DB_NAME - 1},
    {K_INT, 0, INT32_MAX},
    {K_INT_NULL, 0, PLIES_MAX},
    {K_INT_NULL, 0, 1},
};

const char *const dbcheck_face_names[DBCHECK_FACE_COLUMNS] = {
    "run", "game", "face", "moves", "captures", "captured", "drops", "mates"};

static const struct dbcheck_col face_cols[DBCHECK_FACE_COLUMNS] = {
    {K_HEX, 16, 16},
    {K_INT, 0, 100000000 - 1},
    {K_TEXT, 1, DB_NAME - 1},
    {K_INT, 0, PLIES_MAX},
    {K_INT, 0, PLIES_MAX},
    {K_INT, 0, PLIES_MAX},
    {K_INT, 0, PLIES_MAX},
    {K_INT, 0, 1},
};

static int why_set(char *why, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int why_set(char *why, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, size, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *type_name(int type)
{
    static const char *const names[] = {"NULL", "an integer", "a real", "text", "a blob"};
    return type >= 0 && type <= DBCHECK_BLOB ? names[type] : "?";
}

/* Whether the text is free of control characters (and of NUL bytes:
 * SQLite text may hold them). */
static int text_clean(const struct dbcheck_cell *c)
{
    for (size_t k = 0; k < c->len; k++) {
        unsigned char ch = (unsigned char)c->t[k];
        if (ch < 0x20 || ch == 0x7f)
            return 0;
    }
    return 1;
}

static int check_cell(const struct dbcheck_cell *c, const struct dbcheck_col *col,
                      const char *name, char *why, size_t size)
{
    switch (col->kind) {
    case K_INT_NULL:
        if (c->type == DBCHECK_NULL)
            return 0;
        /* fall through */
    case K_INT:
        if (c->type != DBCHECK_INT)
            return why_set(why, size, "column %s: %s where an integer is expected", name,
                           type_name(c->type));
        if (c->i < col->min || c->i > col->max)
            return why_set(why, size, "column %s: %lld is outside %lld..%lld", name,
                           (long long)c->i, (long long)col->min, (long long)col->max);
        return 0;
    case K_REAL_NULL:
        if (c->type == DBCHECK_NULL)
            return 0;
        /* fall through */
    case K_REAL: {
        if (c->type != DBCHECK_REAL && c->type != DBCHECK_INT)
            return why_set(why, size, "column %s: %s where a number is expected", name,
                           type_name(c->type));
        double v = c->type == DBCHECK_INT ? (double)c->i : c->r;
        if (!isfinite(v) || v < (double)col->min || v > (double)col->max)
            return why_set(why, size, "column %s: %g is outside %lld..%lld", name, v,
                           (long long)col->min, (long long)col->max);
        return 0;
    }
    default:
        break;
    }
    if (c->type != DBCHECK_TEXT)
        return why_set(why, size, "column %s: %s where text is expected", name,
                       type_name(c->type));
    if (memchr(c->t, '\0', c->len))
        return why_set(why, size, "column %s: text holding a NUL byte", name);
    if ((int64_t)c->len < col->min || (int64_t)c->len > col->max)
        return why_set(why, size, "column %s: text of %zu bytes, expected %lld..%lld", name,
                       c->len, (long long)col->min, (long long)col->max);
    if (!text_clean(c))
        return why_set(why, size, "column %s: text holding a control character", name);
    if (col->kind == K_HEX && strspn(c->t, "0123456789abcdef") < 16)
        return why_set(why, size, "column %s: '%.16s' is not 16 hex digits", name, c->t);
    return 0;
}

static int check_row(const struct dbcheck_cell *c, const struct dbcheck_col *cols,
                     const char *const *names, int n, char *why, size_t size)
{
    for (int k = 0; k < n; k++)
        if (check_cell(&c[k], &cols[k], names[k], why, size) != 0)
            return -1;
    return 0;
}

int dbcheck_run(const struct dbcheck_cell *c, char *why, size_t size)
{
    if (check_row(c, run_cols, dbcheck_run_names, DBCHECK_RUN_COLUMNS, why, size) != 0)
        return -1;
    /* effects: at most GAME_MAX_EFFECTS names of 1..DB_NAME-1 bytes */
    const char *e = c[10].t, *end = e + c[10].len;
    int n = 0;
    while (e < end) {
        const char *comma = memchr(e, ',', (size_t)(end - e));
        size_t len = comma ? (size_t)(comma - e) : (size_t)(end - e);
        if (len == 0 || len >= DB_NAME)
            return why_set(why, size, "column effects: an effect name of %zu bytes "
                           "(expected 1..%d)", len, DB_NAME - 1);
        if (++n > GAME_MAX_EFFECTS)
            return why_set(why, size, "column effects: more than %d effects",
                           GAME_MAX_EFFECTS);
        e += len + (comma != NULL);
        if (comma && e == end)
            return why_set(why, size, "column effects: ends with ','");
    }
    return 0;
}

/* The words of a ' '-separated list: exactly `want`, none empty; each at
 * most maxlen bytes and, when numeric, a decimal in [1, TIERS_MAX_MOVES]. */
static int check_words(const struct dbcheck_cell *c, const char *name, int64_t want,
                       size_t maxlen, int numeric, char *why, size_t size)
{
    int64_t n = 0;
    const char *s = c->t, *end = s + c->len;
    while (s < end) {
        const char *sp = memchr(s, ' ', (size_t)(end - s));
        size_t len = sp ? (size_t)(sp - s) : (size_t)(end - s);
        if (len == 0 || len > maxlen || (sp && sp + 1 == end))
            return why_set(why, size, "column %s: word %lld is empty or longer than %zu "
                           "bytes", name, (long long)n + 1, maxlen);
        if (numeric) {
            long v = 0;
            for (size_t k = 0; k < len; k++) {
                if (s[k] < '0' || s[k] > '9')
                    return why_set(why, size, "column %s: word %lld is not a number", name,
                                   (long long)n + 1);
                v = v * 10 + (s[k] - '0');
            }
            if (v < 1 || v > TIERS_MAX_MOVES)
                return why_set(why, size, "column %s: word %lld is outside 1..%d", name,
                               (long long)n + 1, TIERS_MAX_MOVES);
        }
        n++;
        s += len + (sp != NULL);
    }
    if (n != want)
        return why_set(why, size, "column %s: %lld words, but plies is %lld", name,
                       (long long)n, (long long)want);
    return 0;
}

static int is_result(const struct dbcheck_cell *c, const char *text)
{
    return c->len == strlen(text) && !memcmp(c->t, text, c->len);
}

/* The winner, cut and result columns agree with each other. */
static int check_outcome(const struct dbcheck_cell *c, char *why, size_t size)
{
    const struct dbcheck_cell *result = &c[G_RESULT];
    int winner = c[G_WINNER].type == DBCHECK_NULL ? -1 : (int)c[G_WINNER].i;
    int want;
    if (is_result(result, "1-0"))
        want = 0;
    else if (is_result(result, "0-1"))
        want = 1;
    else if (is_result(result, "1/2-1/2") || is_result(result, "*"))
        want = -1;
    else
        return why_set(why, size, "column result: '%.*s' is not 1-0, 0-1, 1/2-1/2 or *",
                       (int)result->len, result->t);
    if (winner != want)
        return why_set(why, size, "column winner: %s does not match the result '%.*s'",
                       winner < 0 ? "NULL" : winner ? "1" : "0", (int)result->len,
                       result->t);
    if (c[G_CUT].i && !is_result(result, "*"))
        return why_set(why, size, "column cut: 1, but the result is '%.*s'",
                       (int)result->len, result->t);
    return 0;
}

/* The counters agree with plies. */
static int check_counts(const struct dbcheck_cell *c, int max_plies, char *why, size_t size)
{
    int64_t plies = c[G_PLIES].i, setup = c[G_SETUP].i, play = c[G_LEGAL_PLIES].i;
    if (max_plies > 0 && plies > max_plies)
        return why_set(why, size, "column plies: %lld is more than the run's max_plies (%d)",
                       (long long)plies, max_plies);
    if (setup > plies)
        return why_set(why, size, "column setup_plies: %lld is more than plies (%lld)",
                       (long long)setup, (long long)plies);
    if (play != plies - setup)
        return why_set(why, size, "column legal_plies: %lld, but plies - setup_plies is "
                       "%lld", (long long)play, (long long)(plies - setup));
    if ((c[G_FIRST].type == DBCHECK_NULL) != (play == 0))
        return why_set(why, size, "column first_side: %s with %lld play plies",
                       c[G_FIRST].type == DBCHECK_NULL ? "NULL" : "set", (long long)play);
    if (c[G_PLACEMENTS].i > setup)
        return why_set(why, size, "column placements: %lld is more than setup_plies (%lld)",
                       (long long)c[G_PLACEMENTS].i, (long long)setup);
    if (c[G_CAPTURES].i + c[G_DROPS].i + c[G_STACKS].i > play)
        return why_set(why, size, "columns captures + drops + stacks: %lld is more than "
                       "legal_plies (%lld)",
                       (long long)(c[G_CAPTURES].i + c[G_DROPS].i + c[G_STACKS].i),
                       (long long)play);
    int64_t sum = c[G_LEGAL_SUM].i;
    if (sum < play || sum > play * TIERS_MAX_MOVES)
        return why_set(why, size, "column legal_sum: %lld is outside %lld..%lld (legal_plies "
                       "times 1..%d)", (long long)sum, (long long)play,
                       (long long)(play * TIERS_MAX_MOVES), TIERS_MAX_MOVES);
    return 0;
}

int dbcheck_game(const struct dbcheck_cell *c, int max_plies, char *why, size_t size)
{
    if (check_row(c, game_cols, dbcheck_game_names, DBCHECK_GAME_COLUMNS, why, size) != 0 ||
        check_outcome(c, why, size) != 0 || check_counts(c, max_plies, why, size) != 0)
        return -1;
    if (c[G_WINNER].type == DBCHECK_NULL)
        for (int k = G_DRAMA; k <= G_DECISION_POINT; k++)
            if (c[k].type != DBCHECK_NULL)
                return why_set(why, size, "column %s: set in a game without a winner",
                               dbcheck_game_names[k]);
    if (c[G_HOOK_ENDED].type == DBCHECK_INT && c[G_HOOK_ENDED].i && c[G_CUT].i)
        return why_set(why, size, "column hook_ended: 1 in a cut game");
    return check_words(&c[G_MOVES], "moves", c[G_PLIES].i, 255, 0, why, size) != 0 ||
                   check_words(&c[G_LEGAL], "legal", c[G_PLIES].i, 4, 1, why, size) != 0
               ? -1
               : 0;
}

int dbcheck_effect(const struct dbcheck_cell *c, char *why, size_t size)
{
    return check_row(c, effect_cols, dbcheck_effect_names, DBCHECK_EFFECT_COLUMNS, why,
                     size);
}

int dbcheck_face(const struct dbcheck_cell *c, char *why, size_t size)
{
    if (check_row(c, face_cols, dbcheck_face_names, DBCHECK_FACE_COLUMNS, why, size) != 0)
        return -1;
    if (c[4].i > c[3].i || c[6].i > c[3].i)
        return why_set(why, size, "columns captures, drops: %lld, %lld, more than moves (%lld)",
                       (long long)c[4].i, (long long)c[6].i, (long long)c[3].i);
    if (c[7].i > c[3].i)
        return why_set(why, size, "column mates: %lld with %lld moves", (long long)c[7].i,
                       (long long)c[3].i);
    return 0;
}

int dbcheck_schema(const struct dbcheck_cell *c, int want, char *why, size_t size)
{
    for (int v = 1; v <= want; v++) {
        char text[16];
        snprintf(text, sizeof text, "%d", v);
        if (c->type == DBCHECK_INT && c->i == v)
            return v;
        if (c->type == DBCHECK_TEXT && c->len == strlen(text) && !memcmp(c->t, text, c->len))
            return v;
    }
    if (c->type == DBCHECK_TEXT && c->len < 16 && !memchr(c->t, '\0', c->len) &&
        text_clean(c))
        return why_set(why, size, "schema version '%.*s', expected 1..%d", (int)c->len, c->t,
                       want);
    return why_set(why, size, "table meta, key 'schema': %s where the version %d is expected",
                   type_name(c->type), want);
}
