/* tiers.h - public API of libtiers, a rules-variant engine for stacked-tower
 * board games.  Everything a client (the `tiers` CLI, a test, an embedding
 * program) needs is declared here; nothing else is installed.
 *
 * Conventions: functions return 0 (or a count >= 0) on success and a negative
 * TIERS_E* code on failure, with a message in the caller's tiers_error.  The
 * library never exits and never prints.
 *
 * The contract of each call is tagged in its comment (docs/architecture.md,
 * "Public API contract"):
 *
 *   [S]   may run the variant's Lua scripts (its hooks).  A script error
 *         is returned as TIERS_ESCRIPT where the call returns an int; a
 *         call that cannot return it ([S*]: a const call, or one returning
 *         a value) latches it in the position, and the next
 *         tiers_pos_legal_moves on it reports it.  The message is
 *         tiers_variant_script_error.
 *   Thread rules:
 *   [T0]  touches no shared state: any thread, any time.
 *   [T1]  reads the variant and the position only: may overlap with other
 *         [T1] calls, never with a call that changes the same position.
 *   [T2]  uses the variant's shared state (its one Lua state, its caches,
 *         its last script error): no two [T2] calls on the same variant or
 *         any position made from it may overlap.  Separate variants, even
 *         loaded from the same file, are independent: a program playing in
 *         N threads loads the variant N times (as `tiers playout` does).
 *   A position, record, agent or solution is used by one thread at a time.
 *   Lifetime: a returned pointer lives as long as the object it was read
 *   from (variant, record, agent, solution) unless its comment says less;
 *   "until the next [S] call" means until the next [S] call on the same
 *   variant or any of its positions. */
#ifndef TIERS_H
#define TIERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TIERS_VERSION "0.1.0"

/* Marks the library's exported functions.  The library is compiled with
 * -fvisibility=hidden, so these are the only names libtiers.so exports. */
#if defined(__GNUC__) || defined(__clang__)
#define TIERS_API __attribute__((visibility("default")))
#else
#define TIERS_API
#endif

enum {
    TIERS_MAX_FILES = 16,
    TIERS_MAX_RANKS = 16,
    TIERS_MAX_SQUARES = 256, /* square = rank * 16 + file: 0..255 */
    TIERS_MAX_TIERS = 8,
    TIERS_MAX_MOVES = 4096,  /* the most moves tiers supports in one position
                                (generation fails beyond it: TIERS_EFULL) */
    TIERS_NO_SQUARE = 0xffff /* "no square" (or off the board): outside
                                0..255, so a 16x16 board's last square
                                (p16 = 255) is a square like any other */
};

/* A square: rank * 16 + file, both 0-based (a1 = 0, p16 = 255 on the
 * largest board), or TIERS_NO_SQUARE.  16 bits, since a 16x16 board uses
 * all 256 values of a byte and the sentinel needs one more. */
typedef uint16_t tiers_square;

/* Error codes (negative returns). */
enum {
    TIERS_OK = 0,
    TIERS_EUSAGE = -1,    /* bad argument from the caller */
    TIERS_EINPUT = -2,    /* unreadable or invalid input: file, position, move */
    TIERS_EILLEGAL = -3,  /* well-formed move that is not legal here */
    TIERS_ESCRIPT = -4,   /* a variant script failed */
    TIERS_ENOMEM = -5,
    TIERS_EFULL = -6      /* a fixed-capacity buffer (history) is full */
};

typedef struct tiers_error {
    char file[256]; /* file the error is in, "" if none */
    int line, col;  /* 1-based, 0 if unknown */
    char msg[1024];
} tiers_error;

/* Formats "file:line:col: msg" (the parts that are known) into buf and
 * returns buf.  [T0] */
TIERS_API const char *tiers_error_text(const tiers_error *err, char *buf, size_t size);

/* ---------------------------------------------------------------- moves */

/* Kinds of move.  A move is a small value; its meaning is completed by the
 * variant (what a capture removes, where captured pieces go). */
enum tiers_move_kind {
    TIERS_MV_NONE = 0,
    TIERS_MV_DROP,    /* piece from hand to `to` (empty square or on a tower) */
    TIERS_MV_MOVE,    /* top piece (or whole stack) from `from` to empty `to` */
    TIERS_MV_STACK,   /* top piece (or whole stack) onto the tower at `to` */
    TIERS_MV_CAPTURE, /* top piece (or whole stack) captures at `to` */
    TIERS_MV_STRIKE,  /* immobile strike inside one tower: from tier -> tier */
    TIERS_MV_READY,   /* declare the setup finished */
    TIERS_MV_ROTATE,  /* turn the top piece in place */
    TIERS_MV_DEPLOY,  /* split a stack over path[] (whole-stack variants) */
    TIERS_MV_EFFECT,  /* a scripted move: effect `effect`, squares from/to/path */
    TIERS_MV_KINDS
};

/* Move flags. */
enum {
    TIERS_MF_EXIT = 1u << 0,    /* leaves the board past the far edge */
    TIERS_MF_FINAL = 1u << 1,   /* drop that also ends the mover's setup */
    TIERS_MF_FACING = 1u << 2,  /* drop/move sets an explicit facing (arg) */
    /* 1u << 3 is unused (TIERS_MF_ROYALCAP, never set, was removed in 0.2) */
    TIERS_MF_CONVERT = 1u << 4  /* stack/drop converting the enemy pieces
                                   of the tower whose tiers are bits of arg */
};

/* 20 bytes, no padding.  from/to are squares (tiers_square) or
 * TIERS_NO_SQUARE.
 * `tier` is the source tier for STRIKE (1-based), `arg` the target tier of a
 * STRIKE, a facing for TIERS_MF_FACING, or effect-specific bits. `piece` is a
 * piece code (see tiers_piece_*) for DROP.  `path` holds up to 4 extra
 * squares: deployment squares, or squares an effect names. */
typedef struct tiers_move {
    uint8_t kind;
    uint8_t tier;
    tiers_square from;
    tiers_square to;
    uint16_t piece;
    uint8_t effect; /* 0 = none, else 1 + index of a variant effect */
    uint8_t flags;
    uint8_t npath;
    uint8_t arg;
    tiers_square path[4]; /* TIERS_NO_SQUARE in a path: off the board */
} tiers_move;

/* ------------------------------------------------------------ variants */

typedef struct tiers_variant tiers_variant;

/* Loads a variant: `spec` is a shipped name (found on the search path), a
 * folder holding variant.yaml, or a YAML file.  `search` is a ':'-separated
 * list of folders tried before the others (may be NULL); then come the
 * folders of the environment variable TIERS_VARIANT_PATH, then the
 * built-in folder (tiers_builtin_variant_dir).  A parent named by
 * `inherits:` is looked for on the same path.  `rules` is a
 * NULL-terminated list of "key=value" overrides (may be NULL).
 * Returns NULL with err filled on failure.  [S T0: the variant is new and
 * runs its scripts' top level in its own Lua state] */
TIERS_API tiers_variant *tiers_variant_load(const char *spec, const char *search,
                                  const char *const *rules, tiers_error *err);
/* Frees v; every position, agent search and solution of v must be done
 * with it.  [T2] */
TIERS_API void tiers_variant_free(tiers_variant *v);
/* Facts of the loaded variant.  [T1]; the strings live as long as v. */
/* Facts of a loaded variant: [T0] (a variant does not change once loaded);
 * strings live as long as v. */
TIERS_API const char *tiers_variant_name(const tiers_variant *v);
TIERS_API const char *tiers_variant_description(const tiers_variant *v);
TIERS_API const char *tiers_variant_path(const tiers_variant *v); /* the YAML file */
/* Hash of the YAML and Lua sources (hex, 16 chars). */
TIERS_API const char *tiers_variant_hash(const tiers_variant *v);
TIERS_API int tiers_variant_files(const tiers_variant *v);
TIERS_API int tiers_variant_ranks(const tiers_variant *v);
TIERS_API int tiers_variant_max_tiers(const tiers_variant *v);
TIERS_API const char *tiers_variant_side_name(const tiers_variant *v, int side);
/* Names of the notation dialects the variant offers besides "tiers"
 * (NULL-terminated list). */
TIERS_API const char *const *tiers_variant_notations(const tiers_variant *v);

/* The variant's scripted effects (named in its Lua files).  [T1] */
TIERS_API int tiers_variant_effects(const tiers_variant *v);
TIERS_API const char *tiers_variant_effect_name(const tiers_variant *v, int i);
/* What loading noticed without failing: a child's list that replaced its
 * parent's without `replace:` ("file:line:col: scripts: replaces the
 * parent's 14 entries (...)"), i from 0; NULL past the last.  [T0]; the
 * strings live as long as v. */
TIERS_API int tiers_variant_warning_count(const tiers_variant *v);
TIERS_API const char *tiers_variant_warning(const tiers_variant *v, int i);
/* The options the variant declares (its `options:` key), in order.  [T1] */
TIERS_API int tiers_variant_options(const tiers_variant *v);
TIERS_API const char *tiers_variant_option_name(const tiers_variant *v, int i);
/* The value of the option or engine rule `key` as loaded (after the
 * `rules` overrides), as the text that sets it: an option's value name
 * or integer, "true"/"false", an enum's name, a number, a face name or
 * "none".  An option named like a rule answers for the option.  0, or -1
 * when v has no such option or rule.  [T1] */
TIERS_API int tiers_variant_rule_value(const tiers_variant *v, const char *key, char *buf,
                                       size_t size);
/* The last script error ("file:line: message (in hook NAME)"), "" if none.
 * [T2]; the text is valid until the next [S] call. */
TIERS_API const char *tiers_variant_script_error(const tiers_variant *v);

/* The Lua stack where the last script error was raised ("stack
 * traceback:\n\t..."), "" if none or unknown.  [T2]; valid until the next
 * [S] call. */
TIERS_API const char *tiers_variant_script_traceback(const tiers_variant *v);

/* A hook function the scripts define, and what it did since the variant
 * was loaded (`tiers check` lists the hooks that never ran). */
typedef struct tiers_hook_use {
    const char *effect;   /* the effect's name */
    const char *hook;     /* "moves", "veto", "after", ... */
    const char *file;     /* the Lua file defining the function */
    int line;
    int64_t runs;         /* calls of the function */
    int64_t refused;      /* moves hook: board moves it gave during a setup,
                             not offered (no moves_setup = true) */
} tiers_hook_use;
/* Hook function i (from 0; constant hooks such as `veto = true` are not
 * functions): 1 with *out filled, 0 past the last.  [T2]; the strings
 * live as long as v. */
TIERS_API int tiers_variant_hook_use(const tiers_variant *v, int i, tiers_hook_use *out);

/* What loads but is likely a mistake, found in the variant's tables and
 * sources: a face no tile shows (nor any rule names), a tile that can
 * never enter play (not in the start position, nor in a hand a drop or a
 * setup could empty), an option that sets no engine rule and that no
 * script names.  Calls fn once per finding; returns their count.  [T1] */
TIERS_API int tiers_variant_lint(const tiers_variant *v,
                                 void (*fn)(const char *text, void *ud), void *ud);

/* Lists the variants on the search path (as tiers_variant_load searches
 * it): calls fn(name, dir, description) for each folder with a
 * variant.yaml, the first of each name only.  Each variant's YAML (and
 * its inherits chain) is read and checked, its scripts are not run (a
 * script error shows at tiers_variant_load).  Returns the count.  [T0];
 * the strings passed to fn live during that call only. */
TIERS_API int tiers_variants_list(const char *search,
                        void (*fn)(const char *name, const char *dir,
                                   const char *desc, void *ud),
                        void *ud);

/* Folder of the built-in variants: TIERS_VARIANT_DIR when set, else the
 * configured install folder when it exists, else share/tiers/variants
 * beside the running program (an installed tree moved elsewhere, or the
 * build tree's link to the sources).  [T0]; the string is valid until the
 * environment changes or the next call. */
TIERS_API const char *tiers_builtin_variant_dir(void);

/* "Did you mean": the names among names[0..n-1] (n < 0: up to a NULL)
 * within edit distance 2 of word (a swap of two neighbours counts 1; never
 * word itself, nor a distance as large as word's length), the closest
 * first, at most 3, written "a, b or c" into buf.  Returns how many (0:
 * buf is ""). */
TIERS_API int tiers_suggest(const char *word, const char *const *names, int n, char *buf,
                            size_t size);

/* ------------------------------------------------ describing a variant */

/* What a designer reads off a loaded variant (describe.c): its faces and
 * their movement tables, its engine rules and options. */

TIERS_API int tiers_variant_face_count(const tiers_variant *v);
/* Name and notation symbol of face i (0..count-1), or NULL. */
TIERS_API const char *tiers_variant_face_name(const tiers_variant *v, int face);
TIERS_API const char *tiers_variant_face_symbol(const tiers_variant *v, int face);
/* Index of the face called name, or -1. */
TIERS_API int tiers_variant_face_find(const tiers_variant *v, const char *name);
/* The face moves like the piece beneath it (copy_below): 1, else 0. */
TIERS_API int tiers_variant_face_copies(const tiers_variant *v, int face);

/* One movement line in the piece's frame (+dy = forward, +dx = the
 * piece's right): candidates first, first + step, ... (len of them, 0 =
 * to the edge); the line ends at the first occupied candidate unless it
 * leaps; its via squares must pass the variant's via test. */
typedef struct tiers_line {
    int fx, fy;   /* first candidate */
    int dx, dy;   /* step */
    int len;      /* candidates, 0 = up to the edge */
    int leaping;  /* goes on past occupied squares */
    int capture;  /* 0 = may capture, 1 = never captures, 2 = captures only */
    int nvia;     /* via squares */
} tiers_line;

/* The lines of face's table at tier (1..max tiers; a tier above the
 * face's last table uses the last) into out (at most cap); returns how
 * many the table has (more than cap: only cap written), or TIERS_EUSAGE. */
TIERS_API int tiers_variant_face_lines(const tiers_variant *v, int face, int tier,
                                       tiers_line *out, int cap);

/* One engine rule or variant option, as `tiers options` lists it. */
typedef struct tiers_rule_info {
    char key[32];
    int option;         /* 0 = an engine rule, 1 = a variant option */
    const char *type;   /* "bool", "enum", "int", "face" (rules), "choice",
                           "int" (options) */
    char value[32];     /* the value now, as text */
    char def[32];       /* the default: an option's default:, a rule's value
                           as the variant's YAML leaves it before overrides
                           (= value when loaded without rules) */
    char allowed[300];  /* "true|false", "top|stack", "0..255", ... */
    char sets[32];      /* options: the engine rule it also sets, or "" */
    char doc[160];      /* a one-line meaning ("" when the YAML gives none) */
} tiers_rule_info;

/* Engine rules first, then the variant's options, in YAML order. */
TIERS_API int tiers_variant_rule_count(const tiers_variant *v);
TIERS_API int tiers_variant_rule_info(const tiers_variant *v, int i, tiers_rule_info *out);

/* A variant's YAML as tiers reads it: the file at path with its inherits
 * chain merged (the child's mappings merged key by key, its other values
 * replacing), each node remembering the file and line it came from
 * (yamlview.c).  Read-only; the strings live as long as the tree. */
typedef struct tiers_yaml tiers_yaml;
typedef struct tiers_yaml_node tiers_yaml_node;
enum { TIERS_YAML_SCALAR, TIERS_YAML_SEQ, TIERS_YAML_MAP };
typedef struct tiers_yaml_node_info {
    int kind;                     /* TIERS_YAML_* */
    const char *key;              /* its key in a mapping, else NULL */
    const char *value;            /* a scalar's text; NULL for null or a list/map */
    const char *file;             /* the file it was read from */
    int line;                     /* of its key in a mapping, else of the value */
    const tiers_yaml_node *kids;  /* first child (lists, mappings), or NULL */
    const tiers_yaml_node *next;  /* next sibling, or NULL */
} tiers_yaml_node_info;
/* NULL with err on failure (a file that does not read, a bad chain). */
TIERS_API tiers_yaml *tiers_yaml_read(const char *path, const char *search, tiers_error *err);
TIERS_API void tiers_yaml_free(tiers_yaml *y);
TIERS_API const tiers_yaml_node *tiers_yaml_root(const tiers_yaml *y);
TIERS_API void tiers_yaml_info(const tiers_yaml_node *n, tiers_yaml_node_info *out);

/* ----------------------------------------------------------- positions */

typedef struct tiers_pos tiers_pos;

typedef enum tiers_result {
    TIERS_ONGOING = 0,
    TIERS_WIN_0,  /* the variant's first side wins */
    TIERS_WIN_1,  /* the second side wins */
    TIERS_DRAW
} tiers_result;

typedef struct tiers_status {
    int in_check;       /* the side to move's royal piece is attacked */
    int game_over;
    tiers_result result;
    const char *reason; /* "checkmate", "stalemate", "repetition", ... or "";
                           a reason given by a hook is valid until the next
                           [S] call, the others as long as the variant */
    int side_to_move;   /* 0 or 1 */
    int setup;          /* still in the setup phase */
} tiers_status;

/* New position at the variant's start.  The position keeps a pointer to the
 * variant, which must outlive it.  `history` is the number of plies make()
 * can go deep (0 = a default of 4096).  [T1] */
TIERS_API tiers_pos *tiers_pos_new(const tiers_variant *v, int history, tiers_error *err);
TIERS_API void tiers_pos_free(tiers_pos *p); /* [T1] */
/* Copies src (position and history) into dst, a position of the same
 * variant with at least src's history in use.  [T1] */
TIERS_API int tiers_pos_copy(tiers_pos *dst, const tiers_pos *src);
TIERS_API int tiers_pos_reset(tiers_pos *p); /* back to the start position [T1] */

/* Text position.  `notation` NULL or "tiers" = the project's own format;
 * other names are dialects the variant offers.  A text that does not
 * parse leaves p as it was.  [T1] */
TIERS_API int tiers_pos_parse(tiers_pos *p, const char *text, const char *notation,
                    tiers_error *err);
/* Writes the position's text into buf; returns its length.  [S* T2] */
TIERS_API int tiers_pos_format(const tiers_pos *p, const char *notation, char *buf,
                     size_t size);
/* Position facts that read the position only.  [T1] */
TIERS_API uint64_t tiers_pos_hash(const tiers_pos *p);
TIERS_API const tiers_variant *tiers_pos_variant(const tiers_pos *p);

/* Board access for renderers.  file/rank are 0-based (rank 0 = rank 1);
 * tier is 1-based.  tiers_pos_piece writes the piece's token in tiers
 * notation (e.g. "M", "p", "L~C") and returns its owner (0, 1, 2 = shared)
 * or -1 if there is no such piece.  [T1] */
TIERS_API int tiers_pos_height(const tiers_pos *p, int file, int rank);
TIERS_API int tiers_pos_piece(const tiers_pos *p, int file, int rank, int tier,
                    char *buf, size_t size);
/* Square name in tiers notation: file letter + rank number ("a1"); returns
 * buf.  [T0] */
TIERS_API const char *tiers_square_name(int file, int rank, char buf[8]);
/* Hand contents as text (the hand field of the position format).  [T1] */
TIERS_API int tiers_pos_hands(const tiers_pos *p, char *buf, size_t size);
TIERS_API int tiers_pos_ply(const tiers_pos *p); /* [T1] */

/* Playout statistics: a record the caller owns and passes to the calls
 * that add to it (tiers_pos_legal_moves_stats, tiers_pos_make_unchecked,
 * tiers_agent_choose_stats).  Zero it to start counting; the library
 * keeps no such counts of its own. */
enum { TIERS_MAX_EFFECTS = 32 };
typedef struct tiers_stats {
    /* How often effect i fired in the moves made with these stats.  An
     * effect fires in a move when the move is its own (an effect move or
     * a variant its expand hook added), when its after or apply hook
     * reports it, or when its drop_ok hook admitted the move's drop onto
     * a tower.  Moves tried inside move generation do not count. */
    uint32_t fired[TIERS_MAX_EFFECTS];
    /* The effects whose veto refused at least one move of the last legal
     * list made with these stats, as bits (bit i = effect i); 0 in a
     * variant without vetoes. */
    uint32_t vetoed;
} tiers_stats;

/* Legal moves into buf (capacity `cap`); none once the game is over (as
 * tiers_pos_status: a royal taken, exit, clocks, repetition, the result
 * hook).  Returns the count, or a negative
 * error: TIERS_EFULL when the position has more moves than cap (a valid
 * variant can have more than TIERS_MAX_MOVES, the most tiers supports:
 * 16x16 with many kinds in hand), TIERS_ESCRIPT when a script failed.
 * [S T2] */
TIERS_API int tiers_pos_legal_moves(tiers_pos *p, tiers_move *buf, int cap);
/* The same, and sets stats->vetoed (stats may be NULL).  [S T2] */
TIERS_API int tiers_pos_legal_moves_stats(tiers_pos *p, tiers_move *buf, int cap,
                                          tiers_stats *stats);
/* Pseudo-legal moves: before the royal-safety filter.  [S T2] */
TIERS_API int tiers_pos_pseudo_moves(tiers_pos *p, tiers_move *buf, int cap);

/* Makes m if it is one of p's legal moves (compared field by field; path
 * entries past npath do not count): 0, TIERS_EILLEGAL when it is not (p
 * unchanged), TIERS_EFULL when the history is full, TIERS_ESCRIPT.  It
 * generates the legal list to check, on the heap.  [S T2] */
TIERS_API int tiers_pos_make(tiers_pos *p, const tiers_move *m);
/* Makes m WITHOUT checking it: for hot paths that took m from a list of
 * this very position (tiers_pos_legal_moves: agents, game loops, perft,
 * replays; tiers_pos_pseudo_moves, to look past the royal-safety filter).
 * Any other move is undefined behaviour (a tower may overflow).  Adds the effects the move
 * fired to stats->fired (stats may be NULL).  [S T2] */
TIERS_API int tiers_pos_make_unchecked(tiers_pos *p, const tiers_move *m, tiers_stats *stats);
/* Takes back the last move; TIERS_EUSAGE when there is none.  [T1] */
TIERS_API int tiers_pos_unmake(tiers_pos *p);
/* Check, game over and result; reason as documented in tiers_status.
 * [S T2] */
TIERS_API tiers_status tiers_pos_status(tiers_pos *p);
/* tiers_pos_status and the legal moves (none when the game is over) at
 * once: one game-end test and one generation.  Returns the count of buf,
 * or a negative error as tiers_pos_legal_moves (*st is then the status
 * without checkmate and stalemate).  [S T2] */
TIERS_API int tiers_pos_status_moves(tiers_pos *p, tiers_move *buf, int cap, tiers_status *st);
/* Whether side's royal piece is attacked (0 if it has none).  [S* T2] */
TIERS_API int tiers_pos_in_check(const tiers_pos *p, int side);

/* Writes m in a notation into buf; returns its length.  [S* T2] */
TIERS_API int tiers_move_format(const tiers_pos *p, const tiers_move *m,
                      const char *notation, char *buf, size_t size);
/* The texts of moves[0..n) in one notation (looked up once), written one
 * after another into buf, each ended by a NUL byte; texts[i] points to
 * the i-th.  Returns the bytes used, TIERS_EFULL when buf is too small,
 * TIERS_EUSAGE for a notation the variant does not offer or a move it
 * cannot write.  Allocates nothing.  [S* T2] */
TIERS_API int tiers_moves_format(const tiers_pos *p, const tiers_move *moves, int n,
                                 const char *notation, char *buf, size_t size,
                                 char **texts);
/* Parses `text` and matches it against the legal moves: *out is then one
 * of them (tiers_pos_make_unchecked may make it).  [S T2] */
TIERS_API int tiers_move_parse(tiers_pos *p, const char *text, const char *notation,
                     tiers_move *out, tiers_error *err);
/* As tiers_move_parse, against the legal moves list[0..n) of p that the
 * caller already has (from tiers_pos_status_moves; n < 0: its error).
 * [S T2] */
TIERS_API int tiers_move_find(tiers_pos *p, const char *text, const char *notation,
                              const tiers_move *list, int n, tiers_move *out,
                              tiers_error *err);

/* Leaf count of the legal move tree (last ply counted from the full legal
 * list).  Stops at game over. Returns a negative error on script failure.
 * [S T2] */
TIERS_API int64_t tiers_pos_perft(tiers_pos *p, int depth);

/* Plays uniformly random legal moves until the game ends or max_plies
 * plies were made, then unmakes them all.  *rng is a xorshift state (must
 * be non-zero).  Returns the plies played, or a negative error.  [S T2] */
TIERS_API int tiers_pos_random_playout(tiers_pos *p, uint64_t *rng, int max_plies);

/* The effects whose check hook finds the side to move in check now, as
 * bits (0 in a variant without check hooks, or on a script error).
 * Computed by the call; nothing is remembered.  [S* T2] */
TIERS_API uint32_t tiers_pos_check_effects(tiers_pos *p);

/* Seed of the variant's random numbers (math.random in scripts).  [T1] */
TIERS_API void tiers_pos_seed(tiers_pos *p, uint64_t seed);

/* Renamed calls.  The names before 0.2 stay for one release as aliases of
 * the same functions (same code, exported too); new code uses the
 * tiers_pos_* names.  tiers_pos_effect_count and tiers_pos_vetoed, which
 * read counts hidden in the position, are gone: see tiers_stats. */
/* = tiers_pos_legal_moves, tiers_pos_pseudo_moves, tiers_pos_make,
 * tiers_pos_unmake, tiers_pos_in_check, tiers_pos_perft and
 * tiers_pos_random_playout, in this order (tags as theirs). */
TIERS_API int tiers_legal_moves(tiers_pos *p, tiers_move *buf, int cap);
TIERS_API int tiers_pseudo_moves(tiers_pos *p, tiers_move *buf, int cap);
TIERS_API int tiers_make(tiers_pos *p, const tiers_move *m);
TIERS_API int tiers_unmake(tiers_pos *p);
TIERS_API int tiers_side_in_check(const tiers_pos *p, int side);
TIERS_API int64_t tiers_perft(tiers_pos *p, int depth);
TIERS_API int tiers_random_playout(tiers_pos *p, uint64_t *rng, int max_plies);

/* ------------------------------------------------------- game records
 * Game records (record.c; format in docs/notation.md, "Game records"):
 * PGN-like `[Tag "value"]` headers (Variant, Position, Notation, Result,
 * Termination, any others), moves with optional move numbers `12.` /
 * `12...`, `{comments}`, and a final result token (1-0, 0-1, 1/2-1/2, *).
 * Moves are in the tiers notation or a dialect; the gounki dialect also
 * reads the spaced form, where one move spans several words
 * (`b2 * c3 c4 c5`).  Look-alike letters (Cyrillic а е о р с х, ...) in
 * the moves read as the Latin ones; other non-ASCII text there is an
 * error. */

typedef struct tiers_record tiers_record;

/* The most a record may hold (docs/robustness.md); over a limit
 * tiers_record_read fails naming it, so a hostile file costs at most
 * about its own size in memory and time linear in it. */
enum {
    TIERS_RECORD_MAX_BYTES = 16 << 20, /* the whole text */
    TIERS_RECORD_MAX_LINE = 64 << 10,  /* one line, in bytes */
    TIERS_RECORD_MAX_MOVES = 100000,   /* move words */
    TIERS_RECORD_MAX_TAGS = 256,
    TIERS_RECORD_MAX_TAG = 64 << 10    /* a tag's value, in bytes */
};

/* Reads a record's text (NUL-terminated).  NULL with err (line, col, msg)
 * when it is malformed: a bad tag, an unclosed comment, a result before
 * the end, a letter with no Latin look-alike in a move, a limit above
 * passed, ...  [T0]; the
 * record keeps no pointer into text.  Every tiers_record_* call reading a
 * record is [T1]-like: records share nothing. */
TIERS_API tiers_record *tiers_record_read(const char *text, tiers_error *err);
TIERS_API void tiers_record_free(tiers_record *r);

/* The tags in the order written; tiers_record_tag: the value of the tag
 * called `name`, NULL when absent.  Strings live as long as r. */
TIERS_API int tiers_record_tag_count(const tiers_record *r);
TIERS_API const char *tiers_record_tag_name(const tiers_record *r, int i);
TIERS_API const char *tiers_record_tag_value(const tiers_record *r, int i);
TIERS_API const char *tiers_record_tag(const tiers_record *r, const char *name);

/* The words of the move text (look-alikes mapped, unless the Notation tag
 * names a notation with UTF-8 moves), without move numbers,
 * comments and the result: one word per move except in spaced Gounki.
 * [T1]; strings live as long as r. */
TIERS_API int tiers_record_word_count(const tiers_record *r);
TIERS_API const char *tiers_record_word(const tiers_record *r, int i);
/* The final result token, NULL when the record has none.  [T1] */
TIERS_API const char *tiers_record_result(const tiers_record *r);

/* The notation the moves are written in, for variant v: the Notation tag,
 * else guessed from the words (a word only one notation writes, such as
 * `a1^a2` for tiers or `a1-a2+` for gounki), else "tiers".  NULL with err
 * when the tag names a notation v does not offer or the words mix two.
 * [T1]; the name lives as long as r and v. */
TIERS_API const char *tiers_record_notation(const tiers_record *r, const tiers_variant *v,
                                  tiers_error *err);

/* 1 when `notation` writes its moves in letters other than Latin ones
 * (gungijs3's kanji): under its Notation tag a record's move words are
 * read as written, UTF-8, with no look-alike mapping.  0 otherwise. */
int tiers_notation_utf8_moves(const char *notation);

/* One ply of a replay, as passed to the callback (after the move). */
typedef struct tiers_record_ply {
    int index;          /* 0-based ply of the record */
    int number;         /* move number (rounds, from 1) */
    int side;           /* the side that moved */
    const char *token;  /* the move as written (its words joined by ' ') */
    const char *text;   /* the move in the record's notation, as written
                           by tiers (markers complete) */
    tiers_move move;
} tiers_record_ply;

/* Returning non-zero stops the replay with that value. */
typedef int (*tiers_record_fn)(tiers_pos *p, const tiers_record_ply *ply, void *ud);

typedef struct tiers_replay {
    char notation[32];   /* the notation the moves were read in */
    int plies;           /* moves made */
    int game_over;       /* the game ended on the board */
    tiers_result result; /* that result, or the recorded one when the game
                            ended off the board (Termination tag) */
    const char *reason;  /* "exit", "all captured", ..., the Termination
                            tag, or "" (valid while p and r live) */
    int stopped_at;      /* 0, or the 1-based ply that could not be read,
                            was illegal or came after the end */
} tiers_replay;

/* Replays r on p: back to the variant's start (or the Position tag, tiers
 * notation), then every move in `notation` (NULL = tiers_record_notation),
 * calling fn (may be NULL) after each.  Checks the Variant tag, move
 * numbers, and that the Result tag, the result token and the replayed
 * result agree (a decisive result on an unfinished game needs a
 * Termination tag).  Returns 0, or a negative error with err naming the
 * line, column, move number, side and token; after a bad move p is left
 * before it (so its legal moves can be listed).  `out` may be NULL.  The
 * moves are made with tiers_pos_make_unchecked (each comes from the legal
 * list).  [S T2]; fn runs inside the call, its ply strings live during
 * that call only. */
TIERS_API int tiers_record_replay(const tiers_record *r, tiers_pos *p, const char *notation,
                        tiers_record_fn fn, void *ud, tiers_replay *out,
                        tiers_error *err);

/* ------------------------------------------------------------- agents
 * Agents choose moves for playouts (agent.c, eval.c).  Every agent picks
 * among tiers_pos_legal_moves, in setup phases too, and leaves the position
 * as it found it (same position and history; the moves a search tries are
 * counted in no tiers_stats).  A spec names the agent and optional
 * KEY=VALUE parameters after ':', comma-separated; the first may be a bare
 * value (`mcts:2000`, `alphabeta:4`):
 *
 *   random                 a uniformly random legal move
 *   greedy                 the best material after the move
 *       mate=yes|no        a move that ends the game scores as a win, loss
 *                          or draw (default yes): every rule that needs no
 *                          move generation, plus checkmate (the reply list
 *                          is generated only after a checking move);
 *                          stalemates are not seen.  no: material only
 *       progress=yes|no    ties of material: not back to a position seen
 *                          since the last capture or drop, then a check,
 *                          then nearest the enemy's lone royal; leaving
 *                          one's own royal attacked loses (default yes);
 *                          no: ties at random
 *   alphabeta              negamax with alpha-beta, iterative deepening, a
 *                          transposition table on tiers_pos_hash, ordering
 *                          (table move, captures by victim, killers,
 *                          history), quiescence over captures, legality
 *                          tested when a move is searched; a repeated
 *                          position scores as a draw (docs/cli.md)
 *       depth=N            deepest iteration, plies (default 3, max 32)
 *       nodes=N            node budget per move: moves made in the search,
 *                          quiescence included (default 100000, 0 = none)
 *       time=MS            time budget per move (default 0 = none); games
 *                          then depend on the machine and are NOT
 *                          reproducible (tiers_agent_reproducible says 0)
 *       tt=BITS            2^BITS table entries (default 16, 10..24)
 *       vary=V             play a random move among those within V
 *                          hundredths of a point of the best (default 0)
 *       contempt=C         a draw is C hundredths worse than an equal
 *                          position for the searching side (default 10);
 *                          C better for a side not ahead after 30 quiet
 *                          plies or with nothing of value left
 *   mcts                   UCT tree search, one node per iteration
 *       iterations=N       iterations per move (default 1000)
 *       time=MS            stop earlier after MS ms: NOT reproducible
 *       rollout=random|capture|greedy   rollout policy (default random;
 *                          capture: captures tried first)
 *       plies=N            rollout length before the material balance
 *                          decides (default 20, 0 = to the end)
 *       c=X                exploration constant (default 1.4)
 *   setup=random|search    (greedy, alphabeta, mcts) in a setup phase,
 *                          place at random (default) or search as in play
 *
 * Scores come from material, the `value:` of the faces in the variant's
 * YAML, plus the variant's Lua `evaluate` hooks if it has some
 * (docs/lua-api.md).
 * A choice depends only on the position, the parameters and *rng (time=
 * aside), so a game replays exactly from its seed.  Agents make only moves
 * of lists they generated, with tiers_pos_make_unchecked. */

typedef struct tiers_agent tiers_agent;

/* Parses `spec` and allocates every buffer the agent needs (move stacks,
 * table, tree pool): choosing never allocates.  NULL with err filled
 * ("agent 'mcts:x': bad value 'x' for 'iterations'").  [T0] */
TIERS_API tiers_agent *tiers_agent_new(const char *spec, tiers_error *err);
TIERS_API void tiers_agent_free(tiers_agent *a); /* [T0] */
/* The spec with every parameter written out, e.g.
 * "alphabeta:depth=3,nodes=100000,tt=16,setup=random".  [T0]; lives as
 * long as a. */
TIERS_API const char *tiers_agent_spec(const tiers_agent *a);
/* 0 when a choice depends on the clock (alphabeta or mcts time=).  [T0] */
TIERS_API int tiers_agent_reproducible(const tiers_agent *a);
/* Chooses a move for the side to move into *out.  *rng is a xorshift
 * state (non-zero) the agent draws from.  Returns the number of legal
 * moves in p (> 0 when *out was set), 0 when there is none (the game is
 * over: *out untouched), or a negative error (script failure).  p is left
 * as it was found.  [S T2] */
TIERS_API int tiers_agent_choose(tiers_agent *a, tiers_pos *p, uint64_t *rng,
                       tiers_move *out);
/* The same, and sets stats->vetoed from p's own legal list (the one the
 * choice was made from; stats may be NULL).  [S T2] */
TIERS_API int tiers_agent_choose_stats(tiers_agent *a, tiers_pos *p, uint64_t *rng,
                                       tiers_move *out, tiers_stats *stats);
/* Asks a search of a running in another thread to stop soon: alphabeta
 * ends its iteration at the next node, mcts after the iteration under
 * way; tiers_agent_choose then returns a move as when its budget runs out
 * (a move of the last whole iteration, or the first move tried).  The
 * request stays: every later choice of a stops at once too.  For front
 * ends that cancel a search (tiers serve).  [T0: any thread] */
TIERS_API void tiers_agent_stop(tiers_agent *a);
/* The work of a's last choice: alphabeta's nodes (moves made inside the
 * search, quiescence included, illegal ones tried too), mcts's iterations
 * (simulations); 0 for random and greedy, and when the choice was not
 * searched (one legal move, a random setup placement).  For benchmarks:
 * `tiers bench --agents`.  [T0: reads a only] */
TIERS_API int64_t tiers_agent_work(const tiers_agent *a);

/* Material of side 0 or 1: the values of the faces its pieces show on the
 * board plus those its tiles in hand show (shared pieces count for no
 * one).  Side to move (0 or 1) and whether a setup phase is on, without
 * generating moves.  [T1] */
TIERS_API int tiers_pos_material(const tiers_pos *p, int side);
/* For playout statistics (the lab's figures).  What the last move made
 * at p changed: *balance_delta (may be NULL) gets the change of side 0's
 * material minus side 1's, sq[0..cap) the squares whose towers it
 * changed; returns their count (0 before any move).  [T1] */
TIERS_API int tiers_pos_last_change(const tiers_pos *p, int *balance_delta, tiers_square *sq,
                                    int cap);
/* The variant's Lua evaluate hooks for side (0 when it has none), the
 * part of an agent's score beyond material.  [S T2] */
TIERS_API int tiers_pos_evaluate_hook(tiers_pos *p, int side);
/* Before m is made at p: the face (tiers_variant_face_name) the piece m
 * moves or drops shows, and the face of the piece it takes (the top of
 * the target tower, the struck tier); -1 for none or unknown (effect
 * moves).  [T1] */
TIERS_API void tiers_move_faces(const tiers_pos *p, const tiers_move *m, int *mover,
                                int *victim);
/* Whether the game at p is over because one of the variant's result
 * hooks says so (not a rule of the engine's own): 0 when not, else 1 +
 * the index (tiers_variant_effect_name) of the effect whose result hook
 * ended it, the first that answered.  [S T2] */
TIERS_API int tiers_pos_hook_ended(tiers_pos *p);
TIERS_API int tiers_pos_side_to_move(const tiers_pos *p);
TIERS_API int tiers_pos_in_setup(const tiers_pos *p);
/* Whether the game is over by a rule that needs no move generation (a
 * royal piece taken, an exit, everything captured, a clock, repetition,
 * the variant's result hook), with the result; checkmate and stalemate
 * need the legal moves (tiers_pos_status).  [S T2] */
TIERS_API int tiers_pos_ended(tiers_pos *p, tiers_result *result);

/* ------------------------------------------------------ inspecting pieces
 * For renderers and front ends (inspect.c): what a piece token does not
 * spell out, the hands entry by entry, and a few facts of the variant.
 * file/rank are 0-based and tier 1-based, as for tiers_pos_piece. */

typedef struct tiers_piece_info {
    int owner;        /* 0, 1, or 2 = shared */
    int facing;       /* 0 n, 1 e, 2 s, 3 w (absolute; n = toward higher
                         ranks); -1 when the variant has no facings and in
                         hands */
    int back;         /* the tile shows its back face */
    int two_sided;    /* the tile has a back face */
    int royal;        /* the face shown is royal */
    char letter;      /* the shown face's letter, uppercase */
    char face[32];    /* name of the shown face ("marshal") */
    char hidden[32];  /* name of the face underneath, "" if one-sided */
    char tile[32];    /* name of the tile */
    char token[32];   /* the token in tiers notation (hands: no facing) */
} tiers_piece_info;

/* The piece at (file, rank, tier): fills *out and returns its owner, or
 * -1 when there is none.  [T1] */
TIERS_API int tiers_pos_piece_info(const tiers_pos *p, int file, int rank, int tier,
                         tiers_piece_info *out);
/* Entry i (from 0) of owner's hand (0, 1, 2 = shared), in the order of
 * the position text: fills *out and returns how many such pieces the hand
 * holds, or 0 when i is past the last entry.  [T1] */
TIERS_API int tiers_pos_hand_entry(const tiers_pos *p, int owner, int i,
                         tiers_piece_info *out);
/* Move number of the next move: 1 + the rounds completed (a round ends
 * when the second side to play has moved).  [T1] */
TIERS_API int tiers_pos_move_number(const tiers_pos *p);
/* Pieces carry facings of their own (`facing: true`).  [T1] (and the two
 * calls below) */
TIERS_API int tiers_variant_uses_facing(const tiers_variant *v);
/* Direction side (0 or 1) moves toward: 0 n, 1 e, 2 s, 3 w. */
TIERS_API int tiers_variant_side_forward(const tiers_variant *v, int side);
/* The side that moves first once play starts (after any setup). */
TIERS_API int tiers_variant_first_side(const tiers_variant *v);

/* ------------------------------------------------------------- solving
 * Retrograde analysis (solve.c) for variants small enough to enumerate;
 * `tiers solve` in docs/cli.md.  tiers_solve walks every position reachable
 * from a start through the legal moves (the engine's own generator, the
 * variant's hooks included), then labels each one won, drawn or lost for
 * its side to move, with its distance: the plies to the end under perfect
 * play, the winner taking the shortest way and the loser the longest.
 *
 * A position is its tiers text without the clock, the ply and the move
 * number (the ply stays during a setup phase, where a fixed placement
 * order reads it).  Positions are found by tiers_pos_hash and confirmed
 * by that text: a hash collision cannot merge two positions.
 *
 * History is not part of a position: repetition, max_plies and
 * halfmove_limit are not applied, and a position from which neither side
 * can force a decided end (a cycle) is a draw.  A win or loss so found
 * holds under any "N-fold repetition is a draw" rule, since the winner's
 * shortest line never repeats a position; a move limit could turn a long
 * win into a draw.
 *
 * Solving runs the variant's hooks: tiers_solve, tiers_solve_threads and
 * the calls taking a position are [S T2] (tiers_solve_threads runs each
 * helper variant in a thread of its own); the calls reading a solution
 * alone are [T1] and its strings live as long as it. */

enum {
    TIERS_VALUE_UNKNOWN = 0, /* not a position of the solution */
    TIERS_VALUE_WIN,
    TIERS_VALUE_DRAW,
    TIERS_VALUE_LOSS
};

typedef struct tiers_solution tiers_solution;

typedef struct tiers_solve_info {
    int64_t positions;   /* reachable positions, the start included */
    int64_t setup;       /* of them, in a setup phase */
    int64_t terminal;    /* of them, with no legal move (game over) */
    int64_t moves;       /* legal moves between them */
    int64_t wins, draws, losses; /* values for the side to move */
    int start_value;     /* TIERS_VALUE_* of the start, for its side to move */
    int start_dist;      /* plies to the end (0 for a draw) */
    int start_side;
} tiers_solve_info;

/* Solves the game from p's position (its history is ignored).  Refuses
 * with TIERS_EFULL and a message when more than max_positions positions
 * are reachable; TIERS_ESCRIPT when a hook fails, TIERS_ENOMEM.  On
 * success *out holds the solution (the variant must outlive it).  [S T2]
 * for the whole call. */
TIERS_API int tiers_solve(tiers_pos *p, int64_t max_positions, tiers_solution **out,
                tiers_error *err);
/* As tiers_solve, with the work of finding the positions shared among
 * 1 + nhelpers threads.  Each helper is another copy of p's variant,
 * loaded in the same way (a variant's scripts run in one thread at a
 * time: p's own variant or a helper given twice is refused).  The
 * solution is the same as tiers_solve's, index for index (math.random in
 * a hook is seeded from each position), unless a script keeps state of
 * its own between hook calls (a Lua global it changes).  [S T2] on p's
 * variant and on each helper for the whole call. */
enum { TIERS_SOLVE_MAX_HELPERS = 63 };
TIERS_API int tiers_solve_threads(tiers_pos *p, tiers_variant *const *helpers, int nhelpers,
                        int64_t max_positions, tiers_solution **out, tiers_error *err);
/* The tiers_solution_* calls below read the solution, which does not
 * change once made: [T1] on s; those given a position are [S T2] on its
 * variant (they generate its moves).  Strings live as long as s. */
TIERS_API void tiers_solution_free(tiers_solution *s);
TIERS_API void tiers_solution_info(const tiers_solution *s, tiers_solve_info *out);
/* The value of p's position for its side to move (TIERS_VALUE_UNKNOWN
 * when the solution does not hold it), and its distance. */
TIERS_API int tiers_solution_value(const tiers_solution *s, tiers_pos *p, int *dist);
/* The value of playing m in p for the side that plays it, and the plies
 * to the end counting m; or a negative error when m cannot be made. */
TIERS_API int tiers_solution_move_value(const tiers_solution *s, tiers_pos *p,
                              const tiers_move *m, int *dist);
/* A perfect-play move of p into *out: the fastest win, else the first
 * drawing move in the legal order, else the slowest loss.  Returns its
 * value (0: no legal move, or none in the solution), or an error. */
TIERS_API int tiers_solution_best(const tiers_solution *s, tiers_pos *p, tiers_move *out,
                        int *dist);
/* Position i (0 = the start, then in order of discovery) as its key text,
 * with its value and distance; NULL past the end. */
TIERS_API int64_t tiers_solution_count(const tiers_solution *s);
TIERS_API const char *tiers_solution_text(const tiers_solution *s, int64_t i, int *value,
                                int *dist);
/* Text files: a header (variant, a fingerprint of its sources, rules and
 * options, the count), then "W|D|L DISTANCE POSITION" per line.  Loading
 * refuses a file made for another variant or other rules (repetition,
 * max_plies and halfmove_limit aside: the solver ignores them).  [T1] on
 * s; loading is [S T2] on v (it makes positions of v). */
TIERS_API int tiers_solution_save(const tiers_solution *s, const char *path, tiers_error *err);
/* The same text to an open stream, which stays open (for a caller that
 * made the file itself, as `tiers solve --save` does exclusively). */
TIERS_API int tiers_solution_write(const tiers_solution *s, FILE *f, tiers_error *err);
TIERS_API int tiers_solution_load(const tiers_variant *v, const char *path,
                        tiers_solution **out, tiers_error *err);

#ifdef __cplusplus
}
#endif
#endif
