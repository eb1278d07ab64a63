/* fuzz_move.c - libFuzzer target: the move parser of every notation of
 * every variant (tiers_move_parse), against fixed positions.
 *
 * Input: "<variant>:<notation> <k>\n<move text>".  Position k of the
 * variant is its start (k = 0) or line k of tests/fuzz/positions.txt that
 * names it (tiers notation; k counts that variant's lines from 1); an
 * unknown k wraps around.  A move that parses must be written back as the
 * same text (less a final '#' or '=' mark), and making then unmaking it must restore the position (text
 * and hash).  One that does not must fail with a message and leave the
 * position alone. */
#include "fuzz.h"

enum { MAX_POSITIONS = 16 };

static fuzz_set set;
static tiers_pos *fixed[FUZZ_MAX_VARIANTS][MAX_POSITIONS];
static char fixed_text[FUZZ_MAX_VARIANTS][MAX_POSITIONS][2048];
static int nfixed[FUZZ_MAX_VARIANTS];
static tiers_pos *work[FUZZ_MAX_VARIANTS];

static int variant_index(const tiers_variant *v)
{
    for (int i = 0; i < set.nvariants; i++)
        if (set.variants[i] == v)
            return i;
    abort();
}

static void add_position(int vi, const char *text)
{
    tiers_variant *v = set.variants[vi];
    tiers_error err;
    if (nfixed[vi] == MAX_POSITIONS)
        return;
    tiers_pos *p = tiers_pos_new(v, 64, &err);
    FUZZ_CHECK(p, "%s: %s", tiers_variant_name(v), err.msg);
    if (text && tiers_pos_parse(p, text, "tiers", &err) < 0) {
        fprintf(stderr, "fuzz_move: %s: skipping position '%s': %s\n", tiers_variant_name(v),
                text, err.msg);
        tiers_pos_free(p);
        return;
    }
    fixed[vi][nfixed[vi]] = p;
    fuzz_fen(p, "tiers", fixed_text[vi][nfixed[vi]], sizeof fixed_text[0][0]);
    nfixed[vi]++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_load(&set);
    for (int i = 0; i < set.nvariants; i++) {
        tiers_error err;
        add_position(i, NULL);
        work[i] = tiers_pos_new(set.variants[i], 64, &err);
        FUZZ_CHECK(work[i], "%s", err.msg);
    }
    FILE *f = fopen(TIERS_FUZZ_DIR "/positions.txt", "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || !tab)
            continue;
        *tab = 0;
        for (int i = 0; i < set.nvariants; i++)
            if (!strcmp(tiers_variant_name(set.variants[i]), line))
                add_position(i, tab + 1);
    }
    if (f)
        fclose(f);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The header's trailing " <k>" picks the position; fuzz_split sees a
       label without it, so take it off first. */
    const uint8_t *nl = memchr(data, '\n', size);
    size_t hl = nl ? (size_t)(nl - data) : 0;
    int k = 0;
    uint8_t *copy = malloc(size + 1);
    if (!copy)
        abort();
    memcpy(copy, data, size);
    size_t csize = size;
    for (size_t i = hl; nl && i > 0; i--)
        if (copy[i - 1] == ' ') {
            for (size_t j = i; j < hl && copy[j] >= '0' && copy[j] <= '9' && k < 1000; j++)
                k = k * 10 + (copy[j] - '0');
            memmove(copy + i - 1, copy + hl, size - hl);
            csize = size - (hl - (i - 1));
            break;
        }
    char *text;
    int slot = fuzz_split(&set, copy, csize, &text);
    free(copy);
    const fuzz_slot *sl = &set.slots[slot];
    int vi = variant_index(sl->v);
    k %= nfixed[vi];
    tiers_pos *p = work[vi];
    FUZZ_CHECK(tiers_pos_copy(p, fixed[vi][k]) == 0, "copy failed");
    const char *start = fixed_text[vi][k];
    uint64_t hash = tiers_pos_hash(p);
    static char now[8192], written[256];
    tiers_move m;
    tiers_error err;

    int rc = tiers_move_parse(p, text, sl->notation, &m, &err);
    FUZZ_CHECK(strnlen(err.msg, sizeof err.msg) < sizeof err.msg, "message not terminated");
    FUZZ_CHECK(tiers_pos_hash(p) == hash && tiers_pos_ply(p) == tiers_pos_ply(fixed[vi][k]),
               "parsing '%s' changed the position", text);
    if (rc < 0) {
        FUZZ_CHECK(rc == TIERS_EILLEGAL || rc == TIERS_ESCRIPT, "parse returned %d", rc);
        FUZZ_CHECK(err.msg[0], "parse failed without a message");
        free(text);
        return 0;
    }
    /* The text is the move as written, or that and a mate or draw mark
       ('#', '=') as records add (tiers_move_parse). */
    int len = tiers_move_format(p, &m, sl->notation, written, sizeof written);
    size_t tl = strlen(text);
    FUZZ_CHECK(len > 0 && (!strcmp(written, text) ||
                           ((size_t)len + 1 == tl && strchr("#=", text[len]) &&
                            !strncmp(written, text, (size_t)len))),
               "%s: '%s' parsed, is written '%s'", sl->label, text, written);
    rc = tiers_make(p, &m);
    FUZZ_CHECK(rc == 0, "%s: make '%s' on '%s' failed: %d", sl->label, text, start, rc);
    tiers_status st = tiers_pos_status(p);
    (void)st;
    FUZZ_CHECK(tiers_unmake(p) == 0, "unmake failed");
    FUZZ_CHECK(!strcmp(fuzz_fen(p, "tiers", now, sizeof now), start),
               "%s: '%s' then unmake on '%s' gives '%s'", sl->label, text, start, now);
    FUZZ_CHECK(tiers_pos_hash(p) == hash, "%s: '%s' then unmake changes the hash", sl->label,
               text);
    free(text);
    return 0;
}
