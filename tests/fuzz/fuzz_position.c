/* fuzz_position.c - libFuzzer target: the position parser of every
 * notation of every variant (tiers_pos_parse).
 *
 * Input: "<variant>:<notation>\n<position text>" (fuzz.h).  A text that
 * parses must survive the round trips:
 *   - written in its notation and read again, it is written the same;
 *   - written in tiers notation and read again, it has the same hash and
 *     is written the same;
 * and the engine must handle the position: legal moves, each written in
 * the notation (no two alike, as moves are read by comparing texts), the
 * status.  A text that does not parse must leave the position untouched
 * and give a message. */
#include "fuzz.h"

static fuzz_set set;
static tiers_pos *start[FUZZ_MAX_VARIANTS], *pos[FUZZ_MAX_VARIANTS],
    *scratch[FUZZ_MAX_VARIANTS];
static tiers_move moves[TIERS_MAX_MOVES];
static char texts[TIERS_MAX_MOVES][64];

static int variant_index(const tiers_variant *v)
{
    for (int i = 0; i < set.nvariants; i++)
        if (set.variants[i] == v)
            return i;
    abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_load(&set);
    for (int i = 0; i < set.nvariants; i++) {
        tiers_error err;
        start[i] = tiers_pos_new(set.variants[i], 64, &err);
        pos[i] = tiers_pos_new(set.variants[i], 64, &err);
        scratch[i] = tiers_pos_new(set.variants[i], 64, &err);
        FUZZ_CHECK(start[i] && pos[i] && scratch[i], "%s: %s",
                   tiers_variant_name(set.variants[i]), err.msg);
    }
    return 0;
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

/* Legal moves of p, each written in `notation`: all distinct. */
static void check_moves(tiers_pos *p, const char *notation)
{
    int n = tiers_legal_moves(p, moves, TIERS_MAX_MOVES);
    FUZZ_CHECK(n >= 0 || n == TIERS_ESCRIPT || n == TIERS_EFULL, "legal moves: %d", n);
    for (int i = 0; i < n; i++) {
        int len = tiers_move_format(p, &moves[i], notation, texts[i], sizeof texts[i]);
        FUZZ_CHECK(len > 0 || len == TIERS_ESCRIPT || len == TIERS_EFULL,
                   "move %d of %d: format gave %d", i, n, len);
        if (len < 0)
            snprintf(texts[i], sizeof texts[i], "\x01%d", i); /* not compared */
    }
    if (n > 1) {
        qsort(texts, (size_t)n, sizeof texts[0], cmp_text);
        for (int i = 1; i < n; i++)
            FUZZ_CHECK(strcmp(texts[i - 1], texts[i]), "two legal moves written '%s' (%s)",
                       texts[i], notation);
    }
    tiers_status st = tiers_pos_status(p);
    FUZZ_CHECK(st.reason != NULL, "status without a reason string");
    (void)strlen(st.reason);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text;
    int slot = fuzz_split(&set, data, size, &text);
    const fuzz_slot *sl = &set.slots[slot];
    int vi = variant_index(sl->v);
    tiers_pos *p = pos[vi], *q = scratch[vi];
    static char before[8192], a[8192], b[8192], t1[8192], t2[8192];
    tiers_error err;

    tiers_pos_copy(p, start[vi]); /* each input from the same state */
    fuzz_fen(p, "tiers", before, sizeof before);
    int rc = tiers_pos_parse(p, text, sl->notation, &err);
    FUZZ_CHECK(strnlen(err.msg, sizeof err.msg) < sizeof err.msg, "message not terminated");
    FUZZ_CHECK(strnlen(err.file, sizeof err.file) < sizeof err.file, "file not terminated");
    if (rc < 0) {
        FUZZ_CHECK(rc == TIERS_EINPUT, "parse returned %d", rc);
        FUZZ_CHECK(err.msg[0], "parse failed without a message");
        FUZZ_CHECK(!strcmp(fuzz_fen(p, "tiers", a, sizeof a), before),
                   "a failed parse changed the position");
        free(text);
        return 0;
    }
    /* Round trip in the input's own notation (after one normalisation). */
    fuzz_fen(p, sl->notation, a, sizeof a);
    rc = tiers_pos_parse(q, a, sl->notation, &err);
    FUZZ_CHECK(rc == 0, "%s: own output '%s' does not parse: %s", sl->label, a, err.msg);
    fuzz_fen(q, sl->notation, b, sizeof b);
    FUZZ_CHECK(!strcmp(a, b), "%s: '%s' reads back as '%s'", sl->label, a, b);
    /* Round trip through tiers notation: exact, hash included. */
    fuzz_fen(p, "tiers", t1, sizeof t1);
    rc = tiers_pos_parse(q, t1, "tiers", &err);
    FUZZ_CHECK(rc == 0, "%s: tiers text '%s' does not parse: %s", sl->label, t1, err.msg);
    fuzz_fen(q, "tiers", t2, sizeof t2);
    FUZZ_CHECK(!strcmp(t1, t2), "%s: '%s' reads back as '%s'", sl->label, t1, t2);
    FUZZ_CHECK(tiers_pos_hash(p) == tiers_pos_hash(q), "%s: hash differs after '%s'",
               sl->label, t1);
    check_moves(p, sl->notation);
    free(text);
    return 0;
}
