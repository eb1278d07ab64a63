/* fuzz_record.c - libFuzzer target: the game-record reader
 * (tiers_record_read) and replay (tiers_record_replay).
 *
 * Input: a record's text.  The reader must accept it or fail with a line
 * and a message; an accepted record's accessors must hold together.  When
 * its Variant tag names a loaded variant (else the variant is picked by a
 * hash of the text), the record is replayed: every ply reported must be
 * the move made, written as the notation writes it, and a replay must
 * leave a position the engine can still write. */
#include "fuzz.h"

static fuzz_set set;
static tiers_pos *pos[FUZZ_MAX_VARIANTS];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_load(&set);
    for (int i = 0; i < set.nvariants; i++) {
        tiers_error err;
        pos[i] = tiers_pos_new(set.variants[i], 0, &err);
        FUZZ_CHECK(pos[i], "%s", err.msg);
    }
    return 0;
}

typedef struct seen {
    const char *notation;
    int plies;
} seen;

static int on_ply(tiers_pos *p, const tiers_record_ply *ply, void *ud)
{
    seen *s = ud;
    char buf[256];
    FUZZ_CHECK(ply->index == s->plies, "ply %d reported as %d", s->plies, ply->index);
    FUZZ_CHECK(ply->token && ply->text, "ply without its text");
    FUZZ_CHECK(ply->side == 0 || ply->side == 1, "side %d", ply->side);
    /* The callback runs after the move: undo it to write it as played. */
    FUZZ_CHECK(tiers_unmake(p) == 0, "unmake after ply %d", ply->index);
    int n = tiers_move_format(p, &ply->move, s->notation, buf, sizeof buf);
    /* the text may add a mate or draw mark ('#', '='), as records do
       (tiers_move_parse reads it and ignores it) */
    size_t tl = strlen(ply->text);
    FUZZ_CHECK(n > 0 && (!strcmp(buf, ply->text) ||
                         ((size_t)n + 1 == tl && strchr("#=", ply->text[n]) &&
                          !strncmp(buf, ply->text, (size_t)n))),
               "ply %d: text '%s', move written '%s'", ply->index, ply->text,
               n > 0 ? buf : "(error)");
    FUZZ_CHECK(tiers_make(p, &ply->move) == 0, "remaking ply %d", ply->index);
    s->plies++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        abort();
    memcpy(text, data, size);
    text[size] = 0;
    tiers_error err;
    memset(&err, 0xff, sizeof err); /* the reader must fill it */
    tiers_record *r = tiers_record_read(text, &err);
    if (!r) {
        FUZZ_CHECK(strnlen(err.msg, sizeof err.msg) < sizeof err.msg && err.msg[0],
                   "failed read without a message");
        FUZZ_CHECK(err.line >= 0 && err.col >= 0, "line %d col %d", err.line, err.col);
        free(text);
        return 0;
    }
    for (int i = 0; i < tiers_record_tag_count(r); i++) {
        const char *name = tiers_record_tag_name(r, i), *value = tiers_record_tag_value(r, i);
        FUZZ_CHECK(name && value, "tag %d", i);
        FUZZ_CHECK(tiers_record_tag(r, name) != NULL, "tag '%s' not found by name", name);
    }
    for (int i = 0; i < tiers_record_word_count(r); i++) {
        const char *w = tiers_record_word(r, i);
        FUZZ_CHECK(w, "word %d", i);
        for (const char *c = w; *c; c++) /* look-alikes are mapped to ASCII */
            FUZZ_CHECK((unsigned char)*c < 0x80, "word %d '%s' is not ASCII", i, w);
    }
    const char *res = tiers_record_result(r);
    if (res)
        (void)strlen(res);

    const char *vname = tiers_record_tag(r, "Variant");
    int vi = (int)(fuzz_hash(data, size) % (uint32_t)set.nvariants);
    for (int i = 0; vname && i < set.nvariants; i++)
        if (!strcmp(tiers_variant_name(set.variants[i]), vname))
            vi = i;
    tiers_pos *p = pos[vi];
    tiers_pos_reset(p);
    const char *notation = tiers_record_notation(r, set.variants[vi], &err);
    if (notation) {
        seen s = {notation, 0};
        tiers_replay out;
        memset(&out, 0, sizeof out);
        int rc = tiers_record_replay(r, p, notation, on_ply, &s, &out, &err);
        FUZZ_CHECK(strnlen(err.msg, sizeof err.msg) < sizeof err.msg, "message");
        FUZZ_CHECK(rc < 0 ? err.msg[0] != 0 : 1, "replay failed (%d) without a message", rc);
        FUZZ_CHECK(out.plies == s.plies, "replay says %d plies, saw %d", out.plies, s.plies);
        FUZZ_CHECK(out.reason != NULL || rc < 0, "no reason");
        static char buf[8192];
        fuzz_fen(p, "tiers", buf, sizeof buf);
        tiers_status st = tiers_pos_status(p);
        (void)st;
    }
    tiers_record_free(r);
    free(text);
    return 0;
}
