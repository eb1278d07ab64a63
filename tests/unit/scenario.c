/* scenario.c - the scenario runner of tests/rules/<variant>/ (format in
 * tests/rules/README.md): positions, moves played, legal and illegal
 * moves, exact move lists, positions reached, results and the effects
 * that fired, for any variant. */
#include "scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ variants */

/* Variants by name and rule overrides ("" = as shipped), loaded once. */
enum { MAX_LOADED = 64 };
static struct {
    char name[128];
    char rules[256];
    tiers_variant *v;
} loaded[MAX_LOADED];
static int nloaded;

tiers_variant *scen_variant(const char *name, const char *rules)
{
    for (int i = 0; i < nloaded; i++)
        if (!strcmp(loaded[i].name, name) && !strcmp(loaded[i].rules, rules))
            return loaded[i].v;
    char copy[256], *list[16];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", rules);
    for (char *save = NULL, *t = strtok_r(copy, " ", &save); t && n < 15;
         t = strtok_r(NULL, " ", &save))
        list[n++] = t;
    list[n] = NULL;
    tiers_error err;
    char msg[1024];
    tiers_variant *v = tiers_variant_load(name, NULL, (const char *const *)list, &err);
    if (!v)
        fail_msg("loading %s with '%s': %s", name, rules,
                 tiers_error_text(&err, msg, sizeof msg));
    assert_true(nloaded < MAX_LOADED);
    snprintf(loaded[nloaded].name, sizeof loaded[nloaded].name, "%s", name);
    snprintf(loaded[nloaded].rules, sizeof loaded[nloaded].rules, "%s", rules);
    loaded[nloaded++].v = v;
    return v;
}

int scen_teardown(void **state)
{
    (void)state;
    for (int i = 0; i < nloaded; i++)
        tiers_variant_free(loaded[i].v);
    nloaded = 0;
    return 0;
}

/* The name of the folder holding rel ("rules/gufuu/x.scen" -> "gufuu"). */
static void scen_folder(const char *rel, char *out, size_t size)
{
    const char *end = strrchr(rel, '/');
    const char *start = end;
    while (start && start > rel && start[-1] != '/')
        start--;
    if (!end || !start)
        fail_msg("%s: scenario files live in tests/rules/<variant>/", rel);
    snprintf(out, size, "%.*s", (int)(end - start), start);
}

/* ------------------------------------------------------------ scenarios */


typedef struct scen {
    const char *file;
    const char *variant; /* the folder's name */
    int line;
    char name[200];
    tiers_variant *v;
    tiers_pos *p;
    uint32_t fired;  /* effects that fired in the last `play` */
    int failures;
    int checks;      /* checks made (lines other than rules/pos) */
    char notation[32];  /* of the moves ("" = tiers) */
    char positions[32]; /* of the positions ("" = tiers) */
} scen;

/* The names of the effects in mask, sorted as the variant lists them, or
 * "none". */
static void effect_names(const tiers_variant *v, uint32_t mask, char *out, size_t size)
{
    out[0] = 0;
    for (int e = 0; e < tiers_variant_effects(v) && e < 32; e++)
        if (mask >> e & 1) {
            if (out[0])
                strncat(out, " ", size - strlen(out) - 1);
            strncat(out, tiers_variant_effect_name(v, e), size - strlen(out) - 1);
        }
    if (!out[0])
        snprintf(out, size, "none");
}

/* The effects named in text ("none": no effect), as a mask; -1 if a name
 * is unknown. */
static int64_t effect_mask(const tiers_variant *v, char *text)
{
    int64_t mask = 0;
    for (char *save = NULL, *t = strtok_r(text, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        if (!strcmp(t, "none"))
            continue;
        int e = 0, ne = tiers_variant_effects(v);
        while (e < ne && strcmp(tiers_variant_effect_name(v, e), t))
            e++;
        if (e == ne)
            return -1;
        mask |= 1ll << e;
    }
    return mask;
}

static const char *moves_notation(const scen *s)
{
    return s->notation[0] ? s->notation : NULL;
}

static const char *pos_notation(const scen *s)
{
    return s->positions[0] ? s->positions : NULL;
}

static void scen_fail(scen *s, const char *fmt, const char *a, const char *b)
{
    printf("%s:%d: [%s] ", s->file, s->line, s->name);
    printf(fmt, a, b);
    printf("\n  position: %s\n", s->p ? tu_fen(s->p, pos_notation(s)) : "(none)");
    s->failures++;
}

/* Legal moves joined by spaces (sorted), for messages. */
static char *all_moves(const scen *s) { return tu_moves(s->p, moves_notation(s)); }

static int legal(const scen *s, const char *move)
{
    tiers_move m;
    tiers_error err;
    return tiers_move_parse(s->p, move, moves_notation(s), &m, &err) == 0;
}

/* The legal moves written with `prefix` (a square and then not a digit). */
static void moves_from(const scen *s, const char *prefix, char *out, size_t size)
{
    char *all = all_moves(s);
    size_t pl = strlen(prefix);
    out[0] = 0;
    for (char *save = NULL, *t = strtok_r(all, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (!strncmp(t, prefix, pl) && !(t[pl] >= '0' && t[pl] <= '9')) {
            if (out[0])
                strncat(out, " ", size - strlen(out) - 1);
            strncat(out, t, size - strlen(out) - 1);
        }
    free(all);
}

/* The legal moves that start with prefix and hold part ("" = any). */
static long count_moves(const scen *s, const char *prefix, const char *part)
{
    char *all = all_moves(s);
    long n = 0;
    size_t len = strlen(prefix);
    for (char *save = NULL, *t = strtok_r(all, " ", &save); t; t = strtok_r(NULL, " ", &save))
        n += !strncmp(t, prefix, len) && (!part[0] || strstr(t, part));
    free(all);
    return n;
}

/* Removes the drops (words with a '*') from a list of moves. */
static void drop_drops(char *list)
{
    char *out = list;
    for (char *save = NULL, *t = strtok_r(list, " ", &save); t; t = strtok_r(NULL, " ", &save))
        if (!strchr(t, '*')) {
            if (out != list)
                *out++ = ' ';
            memmove(out, t, strlen(t));
            out += strlen(t);
        }
    *out = '\0';
}

/* none (game goes on), draw, or the winner's side name */
static const char *result_name(const tiers_variant *v, const tiers_status *st)
{
    if (!st->game_over)
        return "none";
    if (st->result == TIERS_WIN_0 || st->result == TIERS_WIN_1)
        return tiers_variant_side_name(v, st->result == TIERS_WIN_0 ? 0 : 1);
    return "draw";
}

static void scen_line(scen *s, char *cmd, char *arg)
{
    if (!strcmp(cmd, "notation") || !strcmp(cmd, "positions")) {
        char *to = cmd[0] == 'n' ? s->notation : s->positions;
        snprintf(to, sizeof s->notation, "%s", arg);
        return;
    }
    if (!strcmp(cmd, "rules")) {
        s->v = scen_variant(s->variant, arg);
        return;
    }
    if (!strcmp(cmd, "pos") || !strcmp(cmd, "start")) {
        /* pos POSITION, or start: the variant's own start position */
        tiers_error err;
        if (!s->v)
            s->v = scen_variant(s->variant, "");
        tiers_pos_free(s->p);
        s->p = tiers_pos_new(s->v, 0, &err);
        if (!s->p)
            fail_msg("%s:%d: no position: %s", s->file, s->line, err.msg);
        if (cmd[0] == 'p' && tiers_pos_parse(s->p, arg, pos_notation(s), &err) < 0) {
            scen_fail(s, "bad position: %s%s", err.msg, "");
            tiers_pos_free(s->p);
            s->p = NULL;
        }
        return;
    }
    if (!s->p) {
        scen_fail(s, "'%s' before any position%s", cmd, "");
        return;
    }
    s->checks++;
    if (!strcmp(cmd, "has") || !strcmp(cmd, "lacks")) {
        int want = cmd[0] == 'h';
        s->checks--; /* one check a move */
        for (char *save = NULL, *t = strtok_r(arg, " ", &save); t;
             t = strtok_r(NULL, " ", &save), s->checks++)
            if (legal(s, t) != want) {
                char *all = all_moves(s);
                scen_fail(s, want ? "'%s' is not legal; legal: %s" : "'%s' is legal%s", t,
                          want ? all : "");
                free(all);
            }
    } else if (!strcmp(cmd, "play")) {
        tiers_move m;
        tiers_error err;
        if (tiers_move_parse(s->p, arg, moves_notation(s), &m, &err) < 0) {
            char *all = all_moves(s);
            scen_fail(s, "cannot play '%s'; legal: %s", arg, all);
            free(all);
        } else {
            tiers_stats st = {.vetoed = 0};
            int ne = tiers_variant_effects(s->v);
            if (tiers_pos_make_unchecked(s->p, &m, &st) < 0)
                scen_fail(s, "make '%s' failed: %s", arg, tiers_variant_script_error(s->v));
            s->fired = 0;
            for (int e = 0; e < ne && e < 32; e++)
                s->fired |= (uint32_t)(st.fired[e] != 0) << e;
        }
    } else if (!strcmp(cmd, "fired") || !strcmp(cmd, "vetoed")) {
        /* fired EFFECT...|none: what the last play fired; vetoed: the
           effects whose veto refused a move of this position */
        uint32_t got = s->fired;
        if (cmd[0] == 'v') {
            tiers_move buf[TIERS_MAX_MOVES];
            tiers_stats st;
            if (tiers_pos_legal_moves_stats(s->p, buf, TIERS_MAX_MOVES, &st) < 0)
                scen_fail(s, "no legal list for this position%s%s", "", "");
            got = st.vetoed;
        }
        char want_text[512], got_text[512];
        snprintf(want_text, sizeof want_text, "%s", arg);
        int64_t want = effect_mask(s->v, want_text);
        if (want < 0)
            scen_fail(s, "unknown effect in '%s'%s", arg, "");
        else if ((uint32_t)want != got) {
            effect_names(s->v, got, got_text, sizeof got_text);
            scen_fail(s, "effects are '%s', want '%s'", got_text, arg);
        }
    } else if (!strcmp(cmd, "fen")) {
        const char *got = tu_fen(s->p, pos_notation(s));
        if (strcmp(got, arg))
            scen_fail(s, "position is %s, want %s", got, arg);
    } else if (!strcmp(cmd, "fen-part")) {
        /* fen-part TEXT: the position's text holds TEXT */
        const char *got = tu_fen(s->p, pos_notation(s));
        if (!strstr(got, arg))
            scen_fail(s, "position is %s, holding no '%s'", got, arg);
    } else if (!strcmp(cmd, "turn")) {
        /* turn SIDE setup|play: who is to move, in which phase */
        tiers_status st = tiers_pos_status(s->p);
        char got[160];
        snprintf(got, sizeof got, "%s %s", tiers_variant_side_name(s->v, st.side_to_move),
                 st.setup ? "setup" : "play");
        if (strcmp(got, arg))
            scen_fail(s, "turn is '%s', want '%s'", got, arg);
    } else if (!strcmp(cmd, "attacked")) {
        /* attacked SIDE yes|no: SIDE's royal piece is attacked (whether or
           not the rules call it check now) */
        char side[64], want[8];
        int k = 0;
        if (sscanf(arg, "%63s %7s", side, want) != 2) {
            scen_fail(s, "bad 'attacked' line: %s%s", arg, "");
            return;
        }
        while (k < 2 && strcmp(tiers_variant_side_name(s->v, k), side))
            k++;
        if (k == 2) {
            scen_fail(s, "no side '%s'%s", side, "");
            return;
        }
        const char *got = tiers_side_in_check(s->p, k) ? "yes" : "no";
        if (strcmp(got, want))
            scen_fail(s, "attacked: %s, want %s", got, want);
    } else if (!strcmp(cmd, "owner")) {
        /* owner SQUARE TIER = WHO: a side's name, shared or none (squares
           as tiers notation writes them: a letter and a rank number) */
        char sq[8], want[64];
        int tier;
        if (sscanf(arg, "%7s %d = %63s", sq, &tier, want) != 3 || sq[0] < 'a' || sq[0] > 'p') {
            scen_fail(s, "bad 'owner' line: %s%s", arg, "");
            return;
        }
        tiers_piece_info info;
        int who = tiers_pos_piece_info(s->p, sq[0] - 'a', atoi(sq + 1) - 1, tier, &info);
        const char *got = who < 0 ? "none" : who == 2 ? "shared"
                                                      : tiers_variant_side_name(s->v, who);
        if (strcmp(got, want))
            scen_fail(s, "owner is %s, want %s", got, want);
    } else if (!strcmp(cmd, "from")) {
        /* from SQ = MOVES: exactly these legal moves start at SQ */
        char *eq = strstr(arg, "=");
        char got[4096], sq[8];
        if (!eq || sscanf(arg, "%7s", sq) != 1) {
            scen_fail(s, "bad 'from' line: %s%s", arg, "");
            return;
        }
        char *want = eq + 1;
        while (*want == ' ')
            want++;
        moves_from(s, sq, got, sizeof got);
        if (strcmp(got, want))
            scen_fail(s, "moves from here: %s\n  want: %s", got, want);
    } else if (!strcmp(cmd, "moves") || !strcmp(cmd, "board")) {
        /* moves MOVE...: exactly these legal moves (sorted); board: the
           same of the moves that are not drops (no '*') */
        char *got = all_moves(s);
        if (cmd[0] == 'b')
            drop_drops(got);
        if (strcmp(got, arg))
            scen_fail(s, "legal moves: %s\n  want: %s", got, arg);
        free(got);
    } else if (!strcmp(cmd, "count")) {
        tiers_move buf[TIERS_MAX_MOVES];
        int n = tiers_legal_moves(s->p, buf, TIERS_MAX_MOVES);
        char got[32];
        snprintf(got, sizeof got, "%d", n);
        if (strcmp(got, arg))
            scen_fail(s, "%s legal moves, want %s", got, arg);
    } else if (!strcmp(cmd, "counting")) {
        /* counting PREFIX [PART] = N: N legal moves start with PREFIX (and
           hold PART); PREFIX "-" = any */
        char prefix[128] = "", part[128] = "";
        long want;
        int with_part = sscanf(arg, "%127s %127s = %ld", prefix, part, &want) == 3;
        if (!with_part) {
            part[0] = '\0';
            if (sscanf(arg, "%127s = %ld", prefix, &want) != 2) {
                scen_fail(s, "bad 'counting' line: %s%s", arg, "");
                return;
            }
        }
        long got = count_moves(s, strcmp(prefix, "-") ? prefix : "", part);
        if (got != want) {
            char text[64];
            snprintf(text, sizeof text, "%ld", got);
            scen_fail(s, "%s such moves, want: %s", text, arg);
        }
    } else if (!strcmp(cmd, "perft")) {
        /* perft DEPTH = N */
        int depth;
        long long want;
        if (sscanf(arg, "%d = %lld", &depth, &want) != 2) {
            scen_fail(s, "bad 'perft' line: %s%s", arg, "");
            return;
        }
        long long got = tiers_perft(s->p, depth);
        if (got != want) {
            char text[64];
            snprintf(text, sizeof text, "%lld", got);
            scen_fail(s, "perft is %s, want %s", text, arg);
        }
    } else if (!strcmp(cmd, "result")) {
        /* result RESULT [REASON]: as status, whether in check or not */
        tiers_status st = tiers_pos_status(s->p);
        char got[256];
        snprintf(got, sizeof got, "%s%s%s", result_name(s->v, &st), st.game_over ? " " : "",
                 st.game_over ? st.reason : "");
        if (strcmp(got, arg))
            scen_fail(s, "result is '%s', want '%s'", got, arg);
    } else if (!strcmp(cmd, "over")) {
        /* over yes|no: the game is over, or goes on */
        const char *got = tiers_pos_status(s->p).game_over ? "yes" : "no";
        if (strcmp(got, arg))
            scen_fail(s, "game over: %s, want %s", got, arg);
    } else if (!strcmp(cmd, "check")) {
        /* check yes|no: the side to move is in check, or not */
        const char *got = tiers_pos_status(s->p).in_check ? "yes" : "no";
        if (strcmp(got, arg))
            scen_fail(s, "in check: %s, want %s", got, arg);
    } else if (!strcmp(cmd, "status")) {
        /* status RESULT [REASON]; "check" as the first word: in check */
        tiers_status st = tiers_pos_status(s->p);
        char got[256];
        snprintf(got, sizeof got, "%s%s%s%s", st.in_check ? "check " : "", result_name(s->v, &st),
                 st.game_over ? " " : "", st.game_over ? st.reason : "");
        if (strcmp(got, arg))
            scen_fail(s, "status is '%s', want '%s'", got, arg);
    } else {
        scen_fail(s, "unknown command '%s'%s", cmd, "");
    }
}

int scen_run(const char *rel, int *checks)
{
    char **lines;
    int n = tu_lines(tu_path(rel), &lines), count = 0;
    char variant[128];
    scen_folder(rel, variant, sizeof variant);
    scen s = {.file = rel, .variant = variant};
    assert_true(n > 0);
    for (int i = 0; i < n; i++) {
        char *l = lines[i];
        s.line = i + 1; /* tu_lines drops empty lines: numbers are approximate */
        while (*l == ' ')
            l++;
        if (!*l || *l == '#')
            continue;
        if (!strncmp(l, "== ", 3)) {
            snprintf(s.name, sizeof s.name, "%s", l + 3);
            s.v = NULL;
            s.notation[0] = s.positions[0] = '\0';
            tiers_pos_free(s.p);
            s.p = NULL;
            count++;
            continue;
        }
        char *sp = strchr(l, ' ');
        char *arg = sp ? sp + 1 : l + strlen(l);
        if (sp)
            *sp = 0;
        while (*arg == ' ')
            arg++;
        scen_line(&s, l, arg);
    }
    tiers_pos_free(s.p);
    tu_free_strings(lines, n);
    if (s.failures)
        fail_msg("%s: %d failed checks", rel, s.failures);
    if (checks)
        *checks += s.checks;
    return count;
}

