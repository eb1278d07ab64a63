/* cli.h - shared pieces of the `tiers` program: parsed options, the command
 * table entry, exit codes and helpers built only on the public tiers.h. */
#ifndef CLI_H
#define CLI_H

#include <stdint.h>
#include <stdio.h>

#include "jsonw.h"
#include "tiers.h"

/* Exit codes of the program. */
enum {
    CLI_OK = 0,
    CLI_USAGE = 1,    /* bad option, missing argument, unknown command */
    CLI_INPUT = 2,    /* bad variant file, position or move */
    CLI_INTERNAL = 3  /* script failure, out of memory, write error */
};

/* The options, one number each (main.c's table gives their names, help
 * and the commands that take them).  A set of options is a 64-bit mask
 * of CLI_BIT(number): room for twice as many as there are. */
enum cli_opt {
    CLI_OPT_POSITION,
    CLI_OPT_NOTATION,
    CLI_OPT_RULE,
    CLI_OPT_VARIANTS,
    CLI_OPT_JSON,
    CLI_OPT_COUNT,
    CLI_OPT_BATCH,
    CLI_OPT_DIVIDE,
    CLI_OPT_SECONDS,
    CLI_OPT_HELP,
    CLI_OPT_TO,
    CLI_OPT_VERBOSE,
    CLI_OPT_OUTPUT,
    CLI_OPT_RECORD,
    CLI_OPT_PLY,
    CLI_OPT_MOVE,
    CLI_OPT_PNG,
    CLI_OPT_WHITE,
    CLI_OPT_BLACK,
    CLI_OPT_SEED,
    CLI_OPT_MAX_POSITIONS,
    CLI_OPT_SAVE,
    CLI_OPT_SOLVED,
    CLI_OPT_GAMES,
    CLI_OPT_THREADS,
    CLI_OPT_SIDE0,
    CLI_OPT_SIDE1,
    CLI_OPT_DB,
    CLI_OPT_SHARD,
    CLI_OPT_MAX_PLIES,
    CLI_OPT_REPORT,
    CLI_OPT_RECORDS,
    CLI_OPT_RUN,
    CLI_OPT_SHARDS,
    CLI_OPT_SLOTS,
    CLI_OPT_TIME,
    CLI_OPT_PARTITION,
    CLI_OPT_SSHLOGINFILE,
    CLI_OPT_SCRATCH,
    CLI_OPT_SUBMIT,
    CLI_OPT_YAML,
    CLI_OPT_AGENTS,
    CLI_OPT_PORT,
    CLI_OPT_BIND,
    CLI_OPT_TIER,
    CLI_OPT_PIECE,
    CLI_OPT_FROM,
    CLI_OPT_MERGED,
    CLI_OPT_VARIANT,
    CLI_OPT_ADJACENT,
    CLI_OPT_UNTIL,            /* issue 23 (compare_until.c) */
    CLI_OPT_ROUND,
    CLI_OPT_SKILL,            /* issue 23 (compare_skill.c) */
    CLI_OPT_LEVELS,
    CLI_NOPTS
};
typedef uint64_t cli_opts;
#define CLI_BIT(opt) ((cli_opts)1 << (opt))
_Static_assert(CLI_NOPTS <= 64, "cli_opts holds at most 64 options");

#define CLI_O_POSITION CLI_BIT(CLI_OPT_POSITION)
#define CLI_O_NOTATION CLI_BIT(CLI_OPT_NOTATION)
#define CLI_O_RULE CLI_BIT(CLI_OPT_RULE)
#define CLI_O_VARIANTS CLI_BIT(CLI_OPT_VARIANTS)
#define CLI_O_JSON CLI_BIT(CLI_OPT_JSON)
#define CLI_O_COUNT CLI_BIT(CLI_OPT_COUNT)
#define CLI_O_BATCH CLI_BIT(CLI_OPT_BATCH)
#define CLI_O_DIVIDE CLI_BIT(CLI_OPT_DIVIDE)
#define CLI_O_SECONDS CLI_BIT(CLI_OPT_SECONDS)
#define CLI_O_HELP CLI_BIT(CLI_OPT_HELP)
#define CLI_O_TO CLI_BIT(CLI_OPT_TO)
#define CLI_O_VERBOSE CLI_BIT(CLI_OPT_VERBOSE)
#define CLI_O_OUTPUT CLI_BIT(CLI_OPT_OUTPUT)
#define CLI_O_RECORD CLI_BIT(CLI_OPT_RECORD)
#define CLI_O_PLY CLI_BIT(CLI_OPT_PLY)
#define CLI_O_MOVE CLI_BIT(CLI_OPT_MOVE)
#define CLI_O_PNG CLI_BIT(CLI_OPT_PNG)
#define CLI_O_WHITE CLI_BIT(CLI_OPT_WHITE)
#define CLI_O_BLACK CLI_BIT(CLI_OPT_BLACK)
#define CLI_O_SEED CLI_BIT(CLI_OPT_SEED)
#define CLI_O_MAX_POSITIONS CLI_BIT(CLI_OPT_MAX_POSITIONS)
#define CLI_O_SAVE CLI_BIT(CLI_OPT_SAVE)
#define CLI_O_SOLVED CLI_BIT(CLI_OPT_SOLVED)
#define CLI_O_GAMES CLI_BIT(CLI_OPT_GAMES)
#define CLI_O_THREADS CLI_BIT(CLI_OPT_THREADS)
#define CLI_O_SIDE0 CLI_BIT(CLI_OPT_SIDE0)
#define CLI_O_SIDE1 CLI_BIT(CLI_OPT_SIDE1)
#define CLI_O_DB CLI_BIT(CLI_OPT_DB)
#define CLI_O_SHARD CLI_BIT(CLI_OPT_SHARD)
#define CLI_O_MAX_PLIES CLI_BIT(CLI_OPT_MAX_PLIES)
#define CLI_O_REPORT CLI_BIT(CLI_OPT_REPORT)
#define CLI_O_RECORDS CLI_BIT(CLI_OPT_RECORDS)
#define CLI_O_RUN CLI_BIT(CLI_OPT_RUN)
#define CLI_O_SHARDS CLI_BIT(CLI_OPT_SHARDS)
#define CLI_O_SLOTS CLI_BIT(CLI_OPT_SLOTS)
#define CLI_O_TIME CLI_BIT(CLI_OPT_TIME)
#define CLI_O_PARTITION CLI_BIT(CLI_OPT_PARTITION)
#define CLI_O_SSHLOGINFILE CLI_BIT(CLI_OPT_SSHLOGINFILE)
#define CLI_O_SCRATCH CLI_BIT(CLI_OPT_SCRATCH)
#define CLI_O_SUBMIT CLI_BIT(CLI_OPT_SUBMIT)
#define CLI_O_YAML CLI_BIT(CLI_OPT_YAML)
#define CLI_O_AGENTS CLI_BIT(CLI_OPT_AGENTS)
#define CLI_O_PORT CLI_BIT(CLI_OPT_PORT)
#define CLI_O_BIND CLI_BIT(CLI_OPT_BIND)
#define CLI_O_TIER CLI_BIT(CLI_OPT_TIER)
#define CLI_O_PIECE CLI_BIT(CLI_OPT_PIECE)
#define CLI_O_FROM CLI_BIT(CLI_OPT_FROM)
#define CLI_O_MERGED CLI_BIT(CLI_OPT_MERGED)
#define CLI_O_VARIANT CLI_BIT(CLI_OPT_VARIANT)
#define CLI_O_ADJACENT CLI_BIT(CLI_OPT_ADJACENT)
#define CLI_O_UNTIL CLI_BIT(CLI_OPT_UNTIL)
#define CLI_O_ROUND CLI_BIT(CLI_OPT_ROUND)
#define CLI_O_SKILL CLI_BIT(CLI_OPT_SKILL)
#define CLI_O_LEVELS CLI_BIT(CLI_OPT_LEVELS)

#define CLI_O_COMMON (CLI_O_POSITION | CLI_O_NOTATION | CLI_O_RULE | \
                      CLI_O_VARIANTS | CLI_O_JSON)

/* Everything the command line said, after option parsing. */
struct cli {
    const struct cli_command *cmd;
    cli_opts given;           /* CLI_O_* bits that appeared */
    const char *position;     /* --position, or NULL */
    const char *notation;     /* --notation, or NULL (= "tiers") */
    const char *to;           /* --to (convert), or NULL (= "tiers") */
    const char **rules;       /* --rule values, NULL-terminated */
    int nrules;
    char *search;             /* --variants joined with ':', or NULL */
    int json;
    int count;
    const char *batch;        /* --batch FILE, "-" = stdin */
    int divide;
    double seconds;           /* --seconds, default 1 */
    int verbose;              /* --verbose */
    const char *output;       /* -o/--output FILE, or NULL (render) */
    const char *record;       /* --record FILE (render) */
    long ply;                 /* --ply N (render) */
    const char *move;         /* --move MOVE (render) */
    int png;                  /* --png (render) */
    const char *white;        /* --white human|AGENT (play) */
    const char *black;        /* --black human|AGENT (play) */
    uint64_t seed;            /* --seed N (play, playout, compare) */
    /* playout, compare, merge (cmd_playout.c sets the defaults) */
    long games;               /* --games N */
    int threads;              /* --threads T */
    const char *side0, *side1;/* --side0/--side1 AGENT */
    const char *db;           /* --db FILE */
    int shard_k, shard_n;     /* --shard K/N */
    int max_plies;            /* --max-plies N */
    const char *report;       /* --report FILE */
    const char *records;      /* --records DIR (playout) */
    const char *run;          /* --run KEY (playout, merge): only that run */
    /* cluster (cmd_cluster.c) */
    int shards;               /* --shards N */
    int slots;                /* --slots N (parallel's -j) */
    const char *time_limit;   /* --time T (Slurm) */
    const char *partition;    /* --partition P (Slurm) */
    const char *sshloginfile; /* --sshloginfile F (parallel) */
    int scratch, submit;      /* --scratch, --submit */
    int yaml;                 /* --yaml (values) */
    int adjacent;             /* --adjacent (ladder) */
    int port;                 /* --port P (serve; 0 = a free port) */
    const char *bind;         /* --bind ADDR (serve; NULL = 127.0.0.1) */
    long long max_positions;  /* --max-positions N (solve; 0 = default) */
    const char *save;         /* --save FILE (solve) */
    const char *solved;       /* --solved FILE (moves) */
    long tier;                /* --tier N (pieces) */
    const char *piece;        /* --piece FACE (render) */
    const char *from;         /* --from SQUARE (moves) */
    int merged;               /* --merged (show) */
    const char *variant;      /* --variant V (replay: play the record on V) */
    int until;                /* --until RATE=W (compare): UNTIL_* */
    double until_width;       /* its W */
    long round;               /* --round R (compare; 0 = default) */
    const char *skill;        /* --skill SPEC (compare, compare_skill.c) */
    long levels;              /* --levels L (0 = default) */
    struct compare_skill_trace *skill_trace; /* one per ruleset, or NULL */
    char **args;              /* positional arguments after COMMAND */
    int nargs;
};

/* One row of the command table (main.c). */
struct cli_command {
    const char *name;
    int (*run)(struct cli *c);
    const char *summary;  /* one line for `tiers --help` */
    const char *synopsis; /* what follows the command name */
    const char *detail;   /* extra lines for `tiers COMMAND --help`, or NULL */
    cli_opts options;     /* CLI_O_* accepted */
    const char *const *argnames; /* names of positionals, NULL-terminated */
    int min_args, max_args;      /* max_args < 0 = no limit */
};

/* Command handlers (cmd_*.c). */
int cmd_variants_run(struct cli *c);
int cmd_check_run(struct cli *c);
int cmd_show_run(struct cli *c);
int cmd_moves_run(struct cli *c);
int cmd_apply_run(struct cli *c);
int cmd_perft_run(struct cli *c);
int cmd_bench_run(struct cli *c);
int cmd_convert_run(struct cli *c);
int cmd_playout_run(struct cli *c);
int cmd_compare_run(struct cli *c);
int cmd_merge_run(struct cli *c);
int cmd_export_run(struct cli *c);
int cmd_cluster_run(struct cli *c);
int cmd_values_run(struct cli *c);
int cmd_ladder_run(struct cli *c);
int cmd_serve_run(struct cli *c);
int cmd_pieces_run(struct cli *c);
int cmd_options_run(struct cli *c);
/* The face of v called name into *face: CLI_OK, or CLI_INPUT after a
 * message listing the faces with a "did you mean" (cmd_pieces.c). */
int cli_find_face(const struct cli *c, const tiers_variant *v, const char *name, int *face);
/* Reads the value of a serve option (cmd_serve.c): -1 to go on, or an
 * exit code after a usage error. */
int cli_serve_option(struct cli *c, cli_opts bit, const char *arg);
/* Reads the value of a cluster option (cmd_cluster.c): -1 to go on, or an
 * exit code after a usage error. */
int cli_cluster_option(struct cli *c, cli_opts bit, const char *arg);
/* Reads --until or --round (compare_until.c): -1 to go on, or an exit
 * code after a usage error. */
int cli_until_option(struct cli *c, cli_opts bit, const char *arg);
/* Reads --skill or --levels (compare_skill.c): -1 to go on, or an exit
 * code after a usage error. */
int cli_skill_option(struct cli *c, cli_opts bit, const char *arg);
/* Reads the value of a playout/compare option (cmd_playout.c): -1 to go
 * on, or an exit code after a usage error. */
int cli_playout_option(struct cli *c, cli_opts bit, const char *arg);
/* Loads the variant spec and checks the agents and rules of its run, as
 * playout and compare need them before the database is opened
 * (cmd_playout.c).  Returns an exit code (after a message). */
int cli_playout_check(const struct cli *c, const char *spec);
int cmd_replay_run(struct cli *c);
int cmd_render_run(struct cli *c);
/* Loads the variant again with a game record's Options tag and the --rule
 * values (those win for the same key), replacing *v; text is the record's
 * text (for the places in messages).  Returns an exit code. */
int cmd_replay_rules(const struct cli *c, const char *text, const tiers_record *rec,
                     tiers_variant **v);
int cmd_play_run(struct cli *c);
int cmd_solve_run(struct cli *c);
/* Reads the value of a solve/moves option (cmd_solve.c): -1 to go on, or
 * an exit code after a usage error. */
int cli_solve_option(struct cli *c, cli_opts bit, const char *arg);
/* `moves --solved FILE`: prints each legal move of p with its solved
 * value (cmd_solve.c).  Returns an exit code. */
int cli_solved_moves(const struct cli *c, tiers_pos *p);

/* Prints "tiers: COMMAND: message" to stderr. */
void cli_error(const struct cli *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Like cli_error, then "try 'tiers --help'"; returns CLI_USAGE. */
int cli_usage_error(const struct cli *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Exit code for a negative library return. */
int cli_exit_for(int rc);
/* Words for a negative library return ("out of memory", ...). */
const char *cli_code_text(int rc);
/* The same, with the variant's last script error for TIERS_ESCRIPT (text
 * in a static buffer, valid until the next call). */
const char *cli_rc_text(const tiers_variant *v, int rc);

/* Loads the variant named by `spec` with the --rule and --variants
 * options; on failure prints the error and returns NULL with *code set. */
tiers_variant *cli_load_variant(const struct cli *c, const char *spec,
                                int *code);
/* "tiers: did you mean X?" on stderr when names (n < 0: NULL-ended) hold
 * some close to word (tiers_suggest); nothing otherwise. */
void cli_did_you_mean(const char *word, const char *const *names, int n);
/* The same for a variant spec not found: ./SPEC when a folder of that
 * name holding variant.yaml is here, else the close variant names. */
void cli_suggest_variant(const struct cli *c, const char *spec);
/* Prints the error of a variant that did not load, naming spec (with a
 * "did you mean" when it was not found). */
void cli_load_error(const struct cli *c, const char *spec, const tiers_error *err);
/* Checks --notation against the variant; returns an exit code. */
int cli_check_notation(const struct cli *c, const tiers_variant *v);
/* New position at the start, or at --position when given.  `history` as
 * for tiers_pos_new.  NULL with *code set (and a message) on failure. */
tiers_pos *cli_open_pos(const struct cli *c, const tiers_variant *v,
                        int history, int *code);

/* The prologue of every command on a variant: loads the variant `spec`
 * with the --rule and --variants options, checks --notation against it
 * and, when p is not NULL, opens the position (as cli_open_pos).  Returns
 * an exit code; on failure (after a message) *v and *p are NULL.
 * cli_close frees both (either may be NULL). */
int cli_open(const struct cli *c, const char *spec, int history, tiers_variant **v,
             tiers_pos **p);
/* The same with what a command changes in it; zero fields take cli_open's
 * defaults. */
struct cli_open_how {
    const char *const *rules; /* the rules to load with; NULL = --rule */
    int history;              /* as for tiers_pos_new */
    /* Called once the load is done, before --notation is checked: with v
     * NULL and err telling why when it failed (then it prints the message,
     * cli_load_error's or its own).  Returns an exit code, CLI_OK to go
     * on. */
    int (*loaded)(const struct cli *c, const char *spec, const tiers_variant *v,
                  const tiers_error *err, void *ud);
    void *ud;
};
int cli_open_how(const struct cli *c, const char *spec, const struct cli_open_how *how,
                 tiers_variant **v, tiers_pos **p);
void cli_close(tiers_variant *v, tiers_pos *p);

/* The whole file at path ("-" = standard input), NUL-terminated, or NULL
 * after a message ("PATH: reason") with *code the exit code: a file over
 * TIERS_RECORD_MAX_BYTES or holding a NUL byte (named by line and column)
 * is bad input, out of memory an internal error. */
char *cli_slurp(const struct cli *c, const char *path, int *code);

/* Input lines (moves --batch, play): at most CLI_MAX_LINE bytes. */
enum { CLI_MAX_LINE = 64 << 10, CLI_LINE_LONG = -1, CLI_LINE_ERROR = -2 };

/* Reads one line from f into buf (CLI_MAX_LINE + 1 bytes), without its
 * '\n'; *len bytes (a NUL byte may be among them).  1, 0 at the end of
 * the input, CLI_LINE_LONG (stops reading: no more than the limit is
 * read) or CLI_LINE_ERROR. */
int cli_read_line(FILE *f, char *buf, size_t *len);
/* CLI_OK for a line cli_read_line returned (rc) that is fine, else the exit
 * code after a message naming FILE:LINE[:COL]: too long, unreadable, or
 * holding a NUL byte. */
int cli_line_check(const struct cli *c, const char *file, long lineno, int rc,
                   const char *buf, size_t len);

/* Formatting into freshly allocated strings (NULL = out of memory or a
 * library error, *rc tells which). */
char *cli_pos_text(const tiers_pos *p, const char *notation, int *rc);
char *cli_hands_text(const tiers_pos *p, int *rc);
char *cli_move_text(const tiers_pos *p, const tiers_move *m,
                    const char *notation, int *rc);

/* The legal moves of p, formatted and sorted by strcmp.  *out is an array
 * of *n strings; free it with cli_free_strings.  Returns 0 or a negative
 * library code. */
int cli_sorted_moves(tiers_pos *p, const char *notation, char ***out, int *n);
/* The same and the position's status (*st), from one generation. */
int cli_sorted_moves_status(tiers_pos *p, const char *notation, char ***out, int *n,
                            tiers_status *st);
/* The same, only the moves that touch square (cli_move_touches; < 0 =
 * every move). */
int cli_sorted_moves_from(tiers_pos *p, const char *notation, int square, char ***out,
                          int *n, tiers_status *st);
/* The square named text ("e5") on v's board, as rank * 16 + file, or -1. */
int cli_parse_square(const tiers_variant *v, const char *text);
/* m is a move from square (the top piece or stack there moves, strikes,
 * turns, ...), or when square is empty a drop onto it; square < 0: any. */
int cli_move_touches(const tiers_pos *p, const tiers_move *m, int square);
/* Why text is not a legal move in p (a clause: "the tower on e5 is
 * full"), into buf; "" when no reason is found. */
const char *cli_why_illegal(tiers_pos *p, const char *text, const char *notation, char *buf,
                            size_t size);
void cli_free_strings(char **s, int n);
int cli_strcmp_ptr(const void *a, const void *b);

/* "1-0", "0-1", "1/2-1/2", or NULL while the game goes on. */
const char *cli_result_text(tiers_result r);

/* Name of side 0 or 1 ("side 0" when the variant has none). */
const char *cli_side_name(const tiers_variant *v, int side, char buf[16]);
/* The status block of `show` and `apply`: side to move, phase, in check,
 * game over, result ("*" while ongoing), reason ("-" when none). */
void cli_print_status(const tiers_variant *v, const tiers_status *st);
/* The same as JSON fields of the current object. */
void cli_json_status(jsonw *w, const tiers_variant *v,
                     const tiers_status *st);

/* Seconds from a monotonic clock. */
double cli_now(void);

/* Strict number parsing; 0 on success. */
int cli_parse_int(const char *s, long lo, long hi, long *out);
int cli_parse_double(const char *s, double lo, double hi, double *out);

/* Flushes stdout; returns CLI_INTERNAL (with a message) on a write error. */
int cli_finish_output(const struct cli *c, int code);

/* Whether the --report file can be written, found out before any game is
 * played (compare, ladder): opened for appending (its contents stay),
 * removed again when it did not exist.  CLI_OK, or CLI_INTERNAL with the
 * error printed. */
int cli_check_report(const struct cli *c);

#endif
