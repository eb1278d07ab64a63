/* fuzz_loader.c - libFuzzer target: the YAML variant loader.
 *
 * Input: the text of a variant.yaml.  The loader has no in-memory entry
 * point, so the input is written to a file in a private folder under
 * /dev/shm (memory, not disk) and loaded with tiers_variant_load, as
 * `tiers check` would.  `inherits:` may name the shipped variants.  A file
 * that loads must give a usable game: a start position that can be
 * written and read back in every notation, legal moves, a few random
 * plies; one that does not must fail with a message. */
#include <unistd.h>
#include <sys/stat.h>

#include "fuzz.h"

static char dir[256], path[300];

static void cleanup(void)
{
    unlink(path);
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/tiers-fuzz-loader-%ld", base, (long)getpid());
    snprintf(path, sizeof path, "%s/variant.yaml", dir);
    if (mkdir(dir, 0700) && access(dir, W_OK)) {
        perror(dir);
        abort();
    }
    atexit(cleanup);
    return 0;
}

static void play(tiers_variant *v)
{
    static char a[8192], b[8192];
    static tiers_move moves[TIERS_MAX_MOVES];
    tiers_error err;
    tiers_pos *p = tiers_pos_new(v, 64, &err);
    if (!p) { /* a start position the variant cannot read */
        FUZZ_CHECK(err.msg[0], "tiers_pos_new failed without a message");
        return;
    }
    tiers_pos *q = tiers_pos_new(v, 64, &err);
    FUZZ_CHECK(q, "second position: %s", err.msg);
    const char *const *names = tiers_variant_notations(v);
    for (int k = -1; k < 0 || (names && names[k]); k++) {
        const char *n = k < 0 ? "tiers" : names[k];
        if (tiers_pos_format(p, n, a, sizeof a) < 0)
            continue; /* a dialect may not write every variant's positions */
        if (tiers_pos_parse(q, a, n, &err) < 0)
            continue;
        if (k < 0) {
            fuzz_fen(q, n, b, sizeof b);
            FUZZ_CHECK(!strcmp(a, b), "start '%s' reads back as '%s'", a, b);
            FUZZ_CHECK(tiers_pos_hash(p) == tiers_pos_hash(q), "start hash differs");
        }
    }
    int nm = tiers_legal_moves(p, moves, TIERS_MAX_MOVES);
    for (int i = 0; i < nm && i < 64; i++)
        if (tiers_move_format(p, &moves[i], NULL, a, 256) < 0)
            break;
    tiers_pos_status(p);
    uint64_t rng = 0x2545f4914f6cdd1dull;
    fuzz_fen(p, "tiers", a, sizeof a);
    uint64_t hash = tiers_pos_hash(p);
    int plies = tiers_random_playout(p, &rng, 12);
    FUZZ_CHECK(plies >= 0 || plies == TIERS_ESCRIPT || plies == TIERS_EFULL,
               "playout returned %d", plies);
    fuzz_fen(p, "tiers", b, sizeof b);
    FUZZ_CHECK(!strcmp(a, b) && tiers_pos_hash(p) == hash,
               "a playout and its unmakes changed '%s' into '%s'", a, b);
    tiers_pos_free(q);
    tiers_pos_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f)) {
        perror(path);
        abort();
    }
    tiers_error err;
    tiers_variant *v = tiers_variant_load(path, NULL, NULL, &err);
    if (!v) {
        FUZZ_CHECK(strnlen(err.msg, sizeof err.msg) < sizeof err.msg && err.msg[0],
                   "load failed without a message");
        FUZZ_CHECK(strnlen(err.file, sizeof err.file) < sizeof err.file, "file");
        FUZZ_CHECK(err.line >= 0 && err.col >= 0, "line %d col %d", err.line, err.col);
        char msg[1400];
        tiers_error_text(&err, msg, sizeof msg);
        return 0;
    }
    (void)strlen(tiers_variant_name(v));
    (void)strlen(tiers_variant_description(v));
    for (int i = 0; i < tiers_variant_effects(v); i++)
        (void)strlen(tiers_variant_effect_name(v, i));
    play(v);
    tiers_variant_free(v);
    return 0;
}
