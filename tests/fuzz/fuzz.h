/* fuzz.h - helpers shared by the libFuzzer targets in tests/fuzz/ (one
 * target per .c file; see docs/robustness.md).  Header-only, so each
 * target stays one translation unit over the public API.
 *
 * Most targets read their input as
 *
 *     <selector>\n<text>
 *
 * where the selector names a variant and a notation ("gungi-io:gungijs"),
 * so the seed corpora stay readable text.  A selector that names nothing
 * still picks a slot (by a hash of its bytes), so mutated headers keep
 * exercising the parsers. */
#ifndef TIERS_FUZZ_H
#define TIERS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tiers.h"

/* Stops the run with a message: an invariant the engine broke.  abort()
 * makes libFuzzer save the input as a crash. */
#define FUZZ_CHECK(cond, ...)                                                  \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "fuzz invariant failed at %s:%d: ", __FILE__,      \
                    __LINE__);                                                 \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            abort();                                                           \
        }                                                                      \
    } while (0)

enum { FUZZ_MAX_VARIANTS = 32, FUZZ_MAX_SLOTS = 128 };

/* A variant and one notation it offers ("tiers" or a dialect). */
typedef struct fuzz_slot {
    tiers_variant *v;
    const char *notation;
    char label[80]; /* "name:notation" */
} fuzz_slot;

typedef struct fuzz_set {
    tiers_variant *variants[FUZZ_MAX_VARIANTS];
    int nvariants;
    fuzz_slot slots[FUZZ_MAX_SLOTS];
    int nslots;
} fuzz_set;

static inline void fuzz_add_variant(const char *name, const char *dir, const char *desc, void *ud)
{
    (void)desc;
    fuzz_set *s = ud;
    tiers_error err;
    if (s->nvariants == FUZZ_MAX_VARIANTS)
        return;
    for (int i = 0; i < s->nvariants; i++) /* listed by both searches */
        if (!strcmp(tiers_variant_name(s->variants[i]), name))
            return;
    tiers_variant *v = tiers_variant_load(dir, NULL, NULL, &err);
    if (!v) {
        char msg[1400];
        fprintf(stderr, "fuzz: skipping %s: %s\n", dir, tiers_error_text(&err, msg, sizeof msg));
        return;
    }
    s->variants[s->nvariants++] = v;
}

/* Loads every shipped variant, then the test variants under
 * tests/data/variants (facings, modes, setup, whole stacks...), and lists
 * each with every notation it offers.  Notations a variant gains later
 * (a new dialect) are picked up without changing the targets. */
static inline void fuzz_load(fuzz_set *s)
{
    memset(s, 0, sizeof *s);
    tiers_variants_list(NULL, fuzz_add_variant, s);
    tiers_variants_list(TIERS_FUZZ_TEST_VARIANTS, fuzz_add_variant, s);
    for (int i = 0; i < s->nvariants; i++) {
        tiers_variant *v = s->variants[i];
        const char *const *names = tiers_variant_notations(v);
        for (int k = -1; s->nslots < FUZZ_MAX_SLOTS && (k < 0 || (names && names[k])); k++) {
            fuzz_slot *sl = &s->slots[s->nslots++];
            sl->v = v;
            sl->notation = k < 0 ? "tiers" : names[k];
            snprintf(sl->label, sizeof sl->label, "%s:%s", tiers_variant_name(v), sl->notation);
        }
    }
    if (s->nslots == 0) {
        fprintf(stderr, "fuzz: no variant loaded\n");
        abort();
    }
}

static inline uint32_t fuzz_hash(const uint8_t *d, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 16777619u;
    return h;
}

/* Splits "<selector>\n<text>": the slot the selector names (or one picked
 * by its hash), and the text as a fresh NUL-terminated copy (caller
 * frees).  Without a newline the whole input is text for slot 0. */
static inline int fuzz_split(const fuzz_set *s, const uint8_t *data, size_t size, char **text)
{
    const uint8_t *nl = memchr(data, '\n', size);
    int slot = 0;
    size_t start = 0;
    if (nl) {
        size_t hl = (size_t)(nl - data);
        slot = -1;
        for (int i = 0; i < s->nslots && slot < 0; i++)
            if (strlen(s->slots[i].label) == hl && !memcmp(s->slots[i].label, data, hl))
                slot = i;
        if (slot < 0)
            slot = (int)(fuzz_hash(data, hl) % (uint32_t)s->nslots);
        start = hl + 1;
    }
    *text = malloc(size - start + 1);
    if (!*text)
        abort();
    memcpy(*text, data + start, size - start);
    (*text)[size - start] = 0;
    return slot;
}

/* The position as text in `notation`; aborts if it does not fit. */
static inline const char *fuzz_fen(const tiers_pos *p, const char *notation, char *buf, size_t size)
{
    int n = tiers_pos_format(p, notation, buf, size);
    FUZZ_CHECK(n >= 0, "tiers_pos_format(%s) failed: %d", notation, n);
    FUZZ_CHECK(strlen(buf) == (size_t)n, "format length %d, text length %zu", n, strlen(buf));
    return buf;
}

#endif
