/* cmd_play.c - `tiers play`: a game in the terminal between humans and
 * agents (tiers_agent_*).  Humans type moves in the game's notation and a
 * few commands; agents answer at once.
 *
 * On a terminal the board is drawn before each human move (in colour when
 * stdout is a terminal and NO_COLOR is unset) and lines are read with
 * libedit (editing, history).  When standard input is not a terminal the
 * moves and commands are read line by line with no prompt, every ply is
 * printed as one line, the final board comes at the end of the input, and
 * the first bad line stops the program (exit 2) so that scripts notice. */
#include <ctype.h>
#include <errno.h>
#include <histedit.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "lab.h"
#include "outfile.h"

enum {
    PLAY_TOKEN = 32,
    PLAY_CELL = TIERS_MAX_TIERS * (PLAY_TOKEN + 1),
    PLAY_WRAP = 72,
    PLAY_HISTORY = 4096 /* plies a session can hold */
};

static const char play_hint_agent[] = "alphabeta:depth=3,nodes=50000";

/* One ply made in this session. */
struct play_ply {
    tiers_move move;
    int side;            /* the side that made it */
    int number;          /* move number (rounds, from 1) */
    int human;           /* typed by a human (undo goes back to one) */
    char text[96];       /* in the game's notation */
};

struct play_game {
    const struct cli *c;
    tiers_variant *v;
    tiers_pos *p;
    const char *notation;         /* NULL = tiers */
    tiers_agent *agent[2];        /* NULL = a human plays that side */
    char who[2][128];             /* "human" or the agent's full spec */
    uint64_t rng;
    char *start;                  /* start position, tiers notation */
    char *options;                /* the --rule values, as the Options tag
                                     holds them */
    int custom_start;             /* started from --position */
    struct play_ply *plies;
    int nplies;
    int interactive, color;
    int board_dirty, announced;
    int line_no;                  /* input lines read (messages) */
    EditLine *el;
    History *hist;
    char prompt[64];
};

/* ------------------------------------------------------------- output */

/* Name of the side the option --white / --black sets: the side called
 * that, else the first (white) or second (black) side. */
static int play_side_named(const tiers_variant *v, const char *name, int dflt)
{
    for (int s = 0; s < 2; s++) {
        const char *n = tiers_variant_side_name(v, s);
        if (n && strcmp(n, name) == 0)
            return s;
    }
    return dflt;
}

static const char *play_side(const struct play_game *g, int side, char buf[16])
{
    return cli_side_name(g->v, side, buf);
}

/* ANSI colours of the owners: side 0, side 1, shared. */
static const char *const play_ink[3] = {"\033[1;36m", "\033[1;31m", "\033[1;33m"};
static const char play_reset[] = "\033[0m";

/* Which squares the last move touched (1 from, 2 to). */
static void play_marks(const struct play_game *g, unsigned char *mark)
{
    memset(mark, 0, TIERS_MAX_SQUARES);
    if (!g->nplies)
        return;
    const tiers_move *m = &g->plies[g->nplies - 1].move;
    int files = tiers_variant_files(g->v), ranks = tiers_variant_ranks(g->v);
#define PLAY_ON(sq) ((sq) != TIERS_NO_SQUARE && (sq) % 16 < files && (sq) / 16 < ranks)
    if (m->kind == TIERS_MV_READY)
        return;
    if (PLAY_ON(m->from))
        mark[m->from] = 1;
    for (int i = 0; i < m->npath && i < 4; i++)
        if (PLAY_ON(m->path[i]))
            mark[m->path[i]] = 2;
    if (PLAY_ON(m->to))
        mark[m->to] = 2;
#undef PLAY_ON
}

/* Appends text to out (size bytes, *len used), cutting it when full. */
static void play_cat(char *out, size_t size, size_t *len, const char *text)
{
    size_t n = strlen(text);
    if (*len + n >= size)
        n = size - 1 - *len;
    memcpy(out + *len, text, n);
    *len += n;
    out[*len] = '\0';
}

/* The tower at (f, r) as "t1:t2", "." when empty; colours when asked.
 * Returns the visible width. */
static int play_cell(const struct play_game *g, int f, int r, int color,
                     int mark, char *out, size_t size)
{
    int h = tiers_pos_height(g->p, f, r);
    size_t len = 0;
    int width = 0;
    out[0] = '\0';
    if (color && mark)
        play_cat(out, size, &len, "\033[7m");
    if (h <= 0) {
        play_cat(out, size, &len, ".");
        width = 1;
    }
    for (int t = 1; t <= h && t <= TIERS_MAX_TIERS; t++) {
        char tok[PLAY_TOKEN];
        int owner = tiers_pos_piece(g->p, f, r, t, tok, sizeof tok);
        if (owner < 0)
            snprintf(tok, sizeof tok, "?");
        if (t > 1) {
            play_cat(out, size, &len, ":");
            width++;
        }
        if (color && owner >= 0 && owner <= 2)
            play_cat(out, size, &len, play_ink[owner]);
        play_cat(out, size, &len, tok);
        if (color && owner >= 0 && owner <= 2) {
            play_cat(out, size, &len, play_reset);
            if (mark)
                play_cat(out, size, &len, "\033[7m");
        }
        width += (int)strlen(tok);
    }
    if (color && mark)
        play_cat(out, size, &len, play_reset);
    return width;
}

static void play_hand_line(const struct play_game *g, int owner)
{
    char side[16];
    tiers_piece_info pi;
    int n;
    printf("%s hand:", owner == 2 ? "shared" : play_side(g, owner, side));
    int i = 0;
    for (; (n = tiers_pos_hand_entry(g->p, owner, i, &pi)) > 0; i++) {
        if (g->color && pi.owner >= 0 && pi.owner <= 2)
            printf(" %s%s%s", play_ink[pi.owner], pi.token, play_reset);
        else
            printf(" %s", pi.token);
        if (n > 1)
            printf("%d", n);
    }
    printf("%s\n", i ? "" : " -");
}

static void play_status_line(struct play_game *g)
{
    tiers_status st = tiers_pos_status(g->p);
    char side[16];
    printf("ply %d, ", tiers_pos_ply(g->p));
    if (st.game_over) {
        const char *res = cli_result_text(st.result);
        printf("game over: %s%s%s%s\n", res ? res : "*",
               st.reason && st.reason[0] ? " (" : "",
               st.reason && st.reason[0] ? st.reason : "",
               st.reason && st.reason[0] ? ")" : "");
        return;
    }
    printf("%s to %s%s", play_side(g, st.side_to_move, side),
           st.setup ? "place (setup)" : "move", st.in_check ? ", in check" : "");
    if (g->nplies)
        printf(", last: %s", g->plies[g->nplies - 1].text);
    printf("\n");
}

/* The board like `tiers show`, then hands and the status line. */
static void play_board(struct play_game *g)
{
    int files = tiers_variant_files(g->v), ranks = tiers_variant_ranks(g->v);
    static char cells[TIERS_MAX_SQUARES][PLAY_CELL * 2];
    int width[TIERS_MAX_SQUARES], colw[TIERS_MAX_FILES];
    unsigned char mark[TIERS_MAX_SQUARES];
    play_marks(g, mark);
    for (int f = 0; f < files; f++) {
        colw[f] = 1;
        for (int r = 0; r < ranks; r++) {
            int sq = r * 16 + f;
            width[sq] = play_cell(g, f, r, g->color, mark[sq], cells[sq],
                                  sizeof cells[sq]);
            if (width[sq] > colw[f])
                colw[f] = width[sq];
        }
    }
    printf("\n");
    for (int r = ranks - 1; r >= 0; r--) {
        printf("%2d ", r + 1);
        for (int f = 0; f < files; f++) {
            int sq = r * 16 + f;
            printf(" %s", cells[sq]);
            if (f < files - 1)
                printf("%*s", colw[f] - width[sq], "");
        }
        printf("\n");
    }
    printf("   ");
    for (int f = 0; f < files; f++) {
        char name[8];
        tiers_square_name(f, 0, name);
        name[strcspn(name, "0123456789")] = '\0';
        printf(" %-*s", f < files - 1 ? colw[f] : 0, name);
    }
    printf("\n\n");
    /* the hand of the side moving down the board first, as it sits */
    int top = tiers_variant_side_forward(g->v, 0) == 2 ? 0 : 1;
    tiers_piece_info any;
    play_hand_line(g, top);
    if (tiers_pos_hand_entry(g->p, 2, 0, &any) > 0)
        play_hand_line(g, 2);
    play_hand_line(g, !top);
    play_status_line(g);
    g->board_dirty = 0;
}

/* Words separated by spaces, wrapped at PLAY_WRAP columns. */
static void play_wrapped(char **words, int n, const char *indent)
{
    int col = 0;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(words[i]);
        if (col && col + 1 + len > PLAY_WRAP) {
            printf("\n");
            col = 0;
        }
        if (!col)
            col = printf("%s%s", indent, words[i]);
        else
            col += printf(" %s", words[i]);
    }
    if (col)
        printf("\n");
}

/* ------------------------------------------------------------ playing */

/* Makes m (text already in the game's notation) and prints the ply. */
static int play_make(struct play_game *g, const tiers_move *m, const char *text,
                     int human)
{
    if (g->nplies >= PLAY_HISTORY)
        return TIERS_EFULL;
    int side = tiers_pos_side_to_move(g->p);
    int number = tiers_pos_move_number(g->p);
    int rc = tiers_pos_make_unchecked(g->p, m, NULL); /* m is a legal move */
    if (rc < 0)
        return rc;
    struct play_ply *ply = &g->plies[g->nplies++];
    ply->move = *m;
    ply->side = side;
    ply->number = number;
    ply->human = human;
    snprintf(ply->text, sizeof ply->text, "%s", text);
    char sname[16];
    printf("%d%s %s %s\n", number,
           side == tiers_variant_first_side(g->v) ? "." : "...",
           play_side(g, side, sname), text);
    g->board_dirty = 1;
    g->announced = 0;
    return 0;
}

/* Lets the agent of the side to move play.  Returns 0 or a negative
 * library code. */
static int play_agent_turn(struct play_game *g, int side)
{
    tiers_move m;
    int rc = tiers_agent_choose(g->agent[side], g->p, &g->rng, &m);
    if (rc <= 0)
        return rc < 0 ? rc : TIERS_EILLEGAL;
    char *text = cli_move_text(g->p, &m, g->notation, &rc);
    if (!text)
        return rc;
    rc = play_make(g, &m, text, 0);
    free(text);
    return rc;
}

/* Announces the end of the game once. */
static void play_announce(struct play_game *g, const tiers_status *st)
{
    if (!st->game_over || g->announced)
        return;
    const char *res = cli_result_text(st->result);
    printf("game over: %s%s%s%s\n", res ? res : "*",
           st->reason && st->reason[0] ? " (" : "",
           st->reason && st->reason[0] ? st->reason : "",
           st->reason && st->reason[0] ? ")" : "");
    g->announced = 1;
}

/* Agents move while it is an agent's turn.  Returns CLI_OK, an exit
 * code, or -1 when the game cannot go on (history full). */
static int play_agents(struct play_game *g)
{
    for (;;) {
        tiers_status st = tiers_pos_status(g->p);
        play_announce(g, &st);
        if (st.game_over || !g->agent[st.side_to_move])
            return CLI_OK;
        int rc = play_agent_turn(g, st.side_to_move);
        if (rc == TIERS_EFULL) {
            printf("stopped: %d plies is as long as a game here can go\n",
                   PLAY_HISTORY);
            return -1;
        }
        if (rc < 0) {
            char where[1400];
            cli_error(g->c, "agent %s: %s\n  %s", g->who[st.side_to_move],
                      cli_rc_text(g->v, rc), failrec_context(g->p, rc, NULL, where,
                                                             sizeof where));
            return cli_exit_for(rc) == CLI_INPUT ? CLI_INPUT : CLI_INTERNAL;
        }
    }
}

/* ----------------------------------------------------------- commands */

static void play_help(void)
{
    printf("Type a move in the game's notation, or a command:\n"
           "  moves [SQUARE] list the legal moves (from SQUARE, or onto it when empty)\n"
           "  undo           take back your last move (and the replies to it)\n"
           "  hint [AGENT]   suggest a move (default agent: %s)\n"
           "  save FILE      write the game record to FILE\n"
           "  board          draw the board again\n"
           "  position       print the position in the game's notation\n"
           "  help           this list\n"
           "  quit           end the program (also: exit, end of input)\n",
           play_hint_agent);
}

/* Reports a problem with the current line: on a terminal a message and
 * on we go; otherwise the program stops with `code`. */
static int play_complain(struct play_game *g, int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static int play_complain(struct play_game *g, int code, const char *fmt, ...)
{
    char msg[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (g->interactive) {
        fflush(stdout);
        printf("%s\n", msg);
        return CLI_OK;
    }
    fflush(stdout);
    cli_error(g->c, "line %d: %s", g->line_no, msg);
    return code;
}

/* moves [SQUARE]: every legal move, or those from SQUARE (the drops onto
 * it when it is empty). */
static int play_cmd_moves(struct play_game *g, const char *square)
{
    char **moves;
    int n, sq = square && *square ? cli_parse_square(g->v, square) : -1;
    if (square && *square && sq < 0)
        return play_complain(g, CLI_INPUT, "moves: '%s' is not a square of the board",
                             square);
    int rc = cli_sorted_moves_from(g->p, g->notation, sq, &moves, &n, NULL);
    char where[1400];
    if (rc < 0)
        return play_complain(g, cli_exit_for(rc), "moves: %s\n  %s", cli_rc_text(g->v, rc),
                             failrec_context(g->p, rc, NULL, where, sizeof where));
    if (!n)
        printf("no legal moves%s%s\n", sq >= 0 ? " from or onto " : "", sq >= 0 ? square : "");
    else {
        printf("%d legal move%s%s%s:\n", n, n == 1 ? "" : "s",
               sq < 0 ? "" : tiers_pos_height(g->p, sq % 16, sq / 16) > 0 ? " from " : " onto ",
               sq >= 0 ? square : "");
        play_wrapped(moves, n, "  ");
    }
    cli_free_strings(moves, n);
    return CLI_OK;
}

static int play_cmd_undo(struct play_game *g)
{
    int last_human = -1;
    for (int i = g->nplies - 1; i >= 0 && last_human < 0; i--)
        if (g->plies[i].human)
            last_human = i;
    if (last_human < 0)
        return play_complain(g, CLI_INPUT, "undo: no move of yours to take back");
    while (g->nplies > last_human) {
        int rc = tiers_pos_unmake(g->p);
        if (rc < 0)
            return play_complain(g, CLI_INTERNAL, "undo: %s", cli_rc_text(g->v, rc));
        struct play_ply *ply = &g->plies[--g->nplies];
        char side[16];
        printf("took back %d%s %s %s\n", ply->number,
               ply->side == tiers_variant_first_side(g->v) ? "." : "...",
               play_side(g, ply->side, side), ply->text);
    }
    g->board_dirty = 1;
    g->announced = 0;
    return CLI_OK;
}

static int play_cmd_hint(struct play_game *g, const char *spec)
{
    tiers_error err;
    memset(&err, 0, sizeof err);
    tiers_agent *a = tiers_agent_new(spec && spec[0] ? spec : play_hint_agent, &err);
    if (!a)
        return play_complain(g, CLI_INPUT, "hint: %s", err.msg);
    tiers_move m;
    /* a state of its own, so that hints leave the agents' draws alone */
    uint64_t rng = g->rng ^ 0x5bd1e9955bd1e995u;
    if (!rng)
        rng = 1;
    int rc = tiers_agent_choose(a, g->p, &rng, &m);
    int code = CLI_OK;
    if (rc < 0)
        code = play_complain(g, CLI_INTERNAL, "hint: %s", cli_rc_text(g->v, rc));
    else if (rc == 0)
        printf("hint: no legal move\n");
    else {
        char *text = cli_move_text(g->p, &m, g->notation, &rc);
        if (text)
            printf("hint: %s\n", text);
        else
            code = play_complain(g, CLI_INTERNAL, "hint: %s", cli_rc_text(g->v, rc));
        free(text);
    }
    tiers_agent_free(a);
    return code;
}

/* The game record (docs/notation.md, "Game records"; gamerec.c). */
static int play_write_record(struct play_game *g, FILE *f)
{
    tiers_status st = tiers_pos_status(g->p);
    const char *result = st.game_over ? cli_result_text(st.result) : NULL;
    if (!result)
        result = "*";
    char date[16] = "????.??.??";
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(date, sizeof date, "%Y.%m.%d", &tm);

    gamerec_tag(f, "Variant", tiers_variant_name(g->v));
    /* the rules the game is played with, so that replay applies them */
    gamerec_tag(f, "Options", g->options);
    gamerec_tag(f, "Date", date);
    for (int s = 0; s < 2; s++) {
        char tag[16];
        gamerec_side_tag(g->v, s, tag);
        gamerec_tag(f, tag, g->who[s]);
    }
    if (g->custom_start)
        gamerec_tag(f, "Position", g->start);
    if (g->notation && strcmp(g->notation, "tiers"))
        gamerec_tag(f, "Notation", g->notation);
    gamerec_tag(f, "Result", result);

    struct gamerec_moves w;
    gamerec_begin(&w, f, g->v);
    for (int i = 0; i < g->nplies; i++)
        gamerec_move(&w, g->plies[i].number, g->plies[i].side, g->plies[i].text);
    return gamerec_end(&w, result);
}

static int play_cmd_save(struct play_game *g, const char *path)
{
    if (!path || !path[0])
        return play_complain(g, CLI_INPUT, "save: which file? (save FILE)");
    for (int i = 0; i < g->nplies; i++)
        if (!gamerec_move_readable(g->plies[i].text))
            return play_complain(g, CLI_INPUT, "save: ply %d '%s' cannot be read back from "
                                 "a game record (the variant's format hook?)",
                                 i + 1, g->plies[i].text);
    struct outfile o; /* written whole or not at all */
    char msg[1200] = "";
    if (outfile_open(&o, path, msg, sizeof msg) != 0)
        return play_complain(g, CLI_INTERNAL, "save: %s", msg);
    int ok = play_write_record(g, o.f) >= 0;
    if (outfile_close(&o, ok, msg, sizeof msg) != 0)
        return play_complain(g, CLI_INTERNAL, "save: %s", msg);
    printf("saved %d pl%s to %s\n", g->nplies, g->nplies == 1 ? "y" : "ies", path);
    return CLI_OK;
}

static int play_cmd_position(struct play_game *g)
{
    int rc;
    char *text = cli_pos_text(g->p, g->notation, &rc);
    if (!text)
        return play_complain(g, CLI_INTERNAL, "position: %s", cli_rc_text(g->v, rc));
    printf("%s\n", text);
    free(text);
    return CLI_OK;
}

/* "; legal moves look like a1-a2, b1^b2, c1xc3 (type 'moves' for all
 * 36)" after a move that did not read. */
static void play_examples(struct play_game *g, char *buf, size_t size)
{
    char **moves;
    int n;
    buf[0] = '\0';
    if (cli_sorted_moves(g->p, g->notation, &moves, &n) < 0)
        return;
    if (n == 0)
        snprintf(buf, size, "; there is no legal move");
    else {
        /* spread over the sorted list: a drop, a move, a capture ... */
        const char *eg[3];
        int k = n < 3 ? n : 3;
        for (int i = 0; i < k; i++)
            eg[i] = moves[(size_t)i * (size_t)n / (size_t)k];
        snprintf(buf, size, "; legal moves look like %s%s%s%s%s (type 'moves' "
                 "for all %d)", eg[0], k > 1 ? ", " : "", k > 1 ? eg[1] : "",
                 k > 2 ? ", " : "", k > 2 ? eg[2] : "", n);
    }
    cli_free_strings(moves, n);
}

/* A word that is not a command: a move for the human to move. */
static int play_human_move(struct play_game *g, const char *word)
{
    tiers_status st = tiers_pos_status(g->p);
    char side[16];
    if (st.game_over)
        return play_complain(g, CLI_INPUT, "'%s': the game is over "
                             "(undo, save FILE or quit)", word);
    if (g->agent[st.side_to_move])
        return play_complain(g, CLI_INPUT, "'%s': it is %s's turn, played by "
                             "the agent", word, play_side(g, st.side_to_move, side));
    tiers_error err;
    memset(&err, 0, sizeof err);
    tiers_move m;
    int rc = tiers_move_parse(g->p, word, g->notation, &m, &err);
    if (rc < 0) {
        char msg[1200];
        tiers_error_text(&err, msg, sizeof msg);
        if (cli_exit_for(rc) == CLI_INTERNAL)
            return play_complain(g, CLI_INTERNAL, "'%s': %s", word, cli_rc_text(g->v, rc));
        char eg[256] = "", why[512] = "";
        if (rc == TIERS_EILLEGAL)
            cli_why_illegal(g->p, word, g->notation, why, sizeof why);
        if (g->interactive && !why[0])
            play_examples(g, eg, sizeof eg);
        return play_complain(g, CLI_INPUT, "%s%s%s%s", msg[0] ? msg : "not a legal move",
                             why[0] ? ": " : "", why, eg);
    }
    char *text = cli_move_text(g->p, &m, g->notation, &rc);
    if (!text)
        return play_complain(g, CLI_INTERNAL, "'%s': %s", word, cli_rc_text(g->v, rc));
    rc = play_make(g, &m, text, 1);
    free(text);
    if (rc < 0)
        return play_complain(g, cli_exit_for(rc) == CLI_INPUT ? CLI_INPUT : CLI_INTERNAL,
                             "'%s': %s", word, cli_rc_text(g->v, rc));
    return CLI_OK;
}

/* One input line.  Returns CLI_OK, an exit code, or -1 to quit. */
static int play_line(struct play_game *g, char *line)
{
    char *save = NULL;
    char *word = strtok_r(line, " \t\r\n", &save);
    if (!word || word[0] == '#')
        return CLI_OK;
    /* the rest of the line: a command's argument, or more moves */
    char *rest = save;
    char *arg = rest ? rest + strspn(rest, " \t") : NULL;
    if (arg) {
        arg[strcspn(arg, "\r\n")] = '\0';
        for (size_t n = strlen(arg); n && isspace((unsigned char)arg[n - 1]);)
            arg[--n] = '\0';
    }
    if (!strcmp(word, "quit") || !strcmp(word, "exit"))
        return -1;
    if (!strcmp(word, "help") || !strcmp(word, "?")) {
        play_help();
        return CLI_OK;
    }
    if (!strcmp(word, "moves"))
        return play_cmd_moves(g, arg);
    if (!strcmp(word, "undo"))
        return play_cmd_undo(g);
    if (!strcmp(word, "hint"))
        return play_cmd_hint(g, arg);
    if (!strcmp(word, "save"))
        return play_cmd_save(g, arg);
    if (!strcmp(word, "board") || !strcmp(word, "show")) {
        play_board(g);
        return CLI_OK;
    }
    if (!strcmp(word, "position"))
        return play_cmd_position(g);
    /* one or more moves, the agents answering after each */
    for (; word; word = strtok_r(NULL, " \t\r\n", &rest)) {
        int code = play_human_move(g, word);
        if (code == CLI_OK)
            code = play_agents(g);
        if (code != CLI_OK)
            return code;
    }
    return CLI_OK;
}

/* ------------------------------------------------------------- input */

static char *play_prompt(EditLine *el)
{
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data ? ((struct play_game *)data)->prompt : "> ";
}

/* Next input line into buf (CLI_MAX_LINE + 1 bytes); 0 at the end of
 * the input, -1 for a line over the limit, unreadable or holding a NUL
 * byte (after a message: such input ends the session, exit code 2). */
static int play_read(struct play_game *g, char *buf, size_t size)
{
    g->line_no++;
    if (!g->el) {
        size_t len;
        int rc = cli_read_line(stdin, buf, &len);
        if (rc == 0)
            return 0;
        return cli_line_check(g->c, "standard input", g->line_no, rc, buf, len) == CLI_OK
                   ? 1
                   : -1;
    }
    tiers_status st = tiers_pos_status(g->p);
    char side[16];
    if (st.game_over)
        snprintf(g->prompt, sizeof g->prompt, "game over> ");
    else
        snprintf(g->prompt, sizeof g->prompt, "%s> ",
                 play_side(g, st.side_to_move, side));
    int count = 0;
    const char *line = el_gets(g->el, &count);
    if (!line || count <= 0) {
        printf("\n");
        return 0;
    }
    snprintf(buf, size, "%s", line);
    if (strspn(buf, " \t\r\n") < strlen(buf)) {
        HistEvent ev;
        history(g->hist, &ev, H_ENTER, line);
    }
    return 1;
}

static int play_setup_editline(struct play_game *g)
{
    g->el = el_init("tiers", stdin, stdout, stderr);
    g->hist = history_init();
    if (!g->el || !g->hist)
        return -1;
    HistEvent ev;
    history(g->hist, &ev, H_SETSIZE, 500);
    el_set(g->el, EL_CLIENTDATA, g);
    el_set(g->el, EL_PROMPT, play_prompt);
    el_set(g->el, EL_EDITOR, "emacs");
    el_set(g->el, EL_HIST, history, g->hist);
    return 0;
}

/* ------------------------------------------------------------- set up */

/* The library's message for a bad agent spec, with `human` among the
 * known names when it lists them: play takes it too. */
static void play_agent_error(const char *lib, char *msg, size_t size)
{
    const char *known = strstr(lib, "unknown agent (known: ");
    if (known) {
        known += strlen("unknown agent (known: ");
        snprintf(msg, size, "%.*shuman, %s", (int)(known - lib), lib, known);
    } else {
        snprintf(msg, size, "%s", lib);
    }
}

static int play_players(struct play_game *g)
{
    const struct cli *c = g->c;
    const char *spec[2] = {"human", "human"};
    int ws = play_side_named(g->v, "white", 0);
    int bs = play_side_named(g->v, "black", 1);
    if (ws == bs)
        bs = !ws;
    if (c->white)
        spec[ws] = c->white;
    if (c->black)
        spec[bs] = c->black;
    for (int s = 0; s < 2; s++) {
        if (!strcmp(spec[s], "human")) {
            snprintf(g->who[s], sizeof g->who[s], "human");
            continue;
        }
        tiers_error err;
        memset(&err, 0, sizeof err);
        g->agent[s] = tiers_agent_new(spec[s], &err);
        if (!g->agent[s]) {
            char msg[sizeof err.msg + 16];
            play_agent_error(err.msg[0] ? err.msg : "bad agent", msg, sizeof msg);
            /* a bad option value: a usage error, as in playout */
            return cli_usage_error(c, "--%s: %s", s == ws ? "white" : "black", msg);
        }
        snprintf(g->who[s], sizeof g->who[s], "%s", tiers_agent_spec(g->agent[s]));
    }
    return CLI_OK;
}

static uint64_t play_seed(const struct cli *c)
{
    uint64_t x = c->given & CLI_O_SEED ? c->seed
                                       : (uint64_t)time(NULL) * 0x9e3779b97f4a7c15u ^
                                             (uint64_t)getpid();
    /* splitmix64 so that small seeds still give a good xorshift state */
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    x ^= x >> 31;
    return x ? x : 1;
}

static int play_loop(struct play_game *g)
{
    static char line[CLI_MAX_LINE + 1];
    int code = play_agents(g);
    if (code != CLI_OK || (g->agent[0] && g->agent[1]))
        return code < 0 ? CLI_OK : code;
    for (;;) {
        if (g->interactive && g->board_dirty)
            play_board(g);
        fflush(stdout);
        int got = play_read(g, line, sizeof line);
        if (got <= 0)
            return got < 0 ? CLI_INPUT : CLI_OK;
        code = play_line(g, line);
        if (code < 0)
            return CLI_OK;
        if (code != CLI_OK)
            return code;
    }
}

int cmd_play_run(struct cli *c)
{
    int code = CLI_OK, rc;
    struct play_game g;
    memset(&g, 0, sizeof g);
    g.c = c;
    g.notation = c->notation;
    code = cli_open(c, c->args[0], PLAY_HISTORY, &g.v, &g.p);
    if (!g.p)
        return code;
    code = play_players(&g);
    if (code != CLI_OK)
        goto done;
    g.plies = calloc(PLAY_HISTORY, sizeof *g.plies);
    g.start = cli_pos_text(g.p, NULL, &rc);
    g.options = gamerec_options_join((const char *const *)c->rules);
    if (!g.plies || !g.start || !g.options) {
        cli_error(c, "out of memory");
        code = CLI_INTERNAL;
        goto done;
    }
    g.custom_start = c->position != NULL;
    g.rng = play_seed(c);
    g.interactive = isatty(STDIN_FILENO);
    const char *no_color = getenv("NO_COLOR");
    g.color = isatty(STDOUT_FILENO) && !(no_color && no_color[0]);
    if (g.interactive && play_setup_editline(&g) < 0) {
        cli_error(c, "cannot set up line editing");
        code = CLI_INTERNAL;
        goto done;
    }
    g.board_dirty = 1;
    if (g.interactive) {
        char s0[16], s1[16];
        printf("%s: %s (%s) against %s (%s); 'help' lists the commands\n",
               tiers_variant_name(g.v), play_side(&g, 0, s0), g.who[0],
               play_side(&g, 1, s1), g.who[1]);
    }
    code = play_loop(&g);
    /* The final board: for scripts, and after a game between agents. */
    if (code == CLI_OK && (!g.interactive || (g.agent[0] && g.agent[1])))
        play_board(&g);
done:
    if (g.el)
        el_end(g.el);
    if (g.hist)
        history_end(g.hist);
    for (int s = 0; s < 2; s++)
        tiers_agent_free(g.agent[s]);
    free(g.plies);
    free(g.start);
    free(g.options);
    if (g.p)
        tiers_pos_free(g.p);
    tiers_variant_free(g.v);
    return code;
}
