/* main.c - the `tiers` program: command table, option parsing, help.
 *
 *   tiers COMMAND VARIANT [ARGS] [OPTIONS]
 *
 * Every command shares one option table; a command lists the options it
 * accepts, and one parser fills a struct cli for its handler. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* ------------------------------------------------------------ options */

struct cli_option {
    const char *name;
    int letter;        /* short option, or 0 */
    int has_arg;
    cli_opts bit;
    const char *arg;   /* argument name in help, or NULL */
    const char *help;
};

/* getopt_long returns 256 + index for options without a short letter. */
enum { CLI_LONG_BASE = 256 };

static const struct cli_option cli_options[] = {
    {"position", 'p', required_argument, CLI_O_POSITION, "P",
     "start from position P instead of the variant's start"},
    {"notation", 'n', required_argument, CLI_O_NOTATION, "NAME",
     "notation for positions and moves (default: tiers)"},
    {"rule", 'r', required_argument, CLI_O_RULE, "KEY=VALUE",
     "override a rule or option of the variant (repeatable)"},
    {"variants", 0, required_argument, CLI_O_VARIANTS, "DIR",
     "look for variants in DIR first (repeatable)"},
    {"json", 0, no_argument, CLI_O_JSON, NULL, "write JSON instead of text"},
    {"count", 'c', no_argument, CLI_O_COUNT, NULL,
     "print only the number of moves"},
    {"batch", 'b', required_argument, CLI_O_BATCH, "FILE",
     "one position per line of FILE ('-' = stdin), JSON lines out"},
    {"divide", 'd', no_argument, CLI_O_DIVIDE, NULL,
     "also print the count below each root move"},
    {"seconds", 's', required_argument, CLI_O_SECONDS, "S",
     "CPU seconds of playouts or batch passes per variant (default 1)"},
    {"to", 't', required_argument, CLI_O_TO, "NAME",
     "notation to write (convert; default: tiers)"},
    {"verbose", 'v', no_argument, CLI_O_VERBOSE, NULL,
     "print positions instead of hashes (replay)"},
    {"output", 'o', required_argument, CLI_O_OUTPUT, "FILE",
     "write to FILE (render: the picture, default standard output; "
     "merge: the database; export: the folder of the records)"},
    {"record", 0, required_argument, CLI_O_RECORD, "FILE",
     "take the position from the game record FILE"},
    {"ply", 0, required_argument, CLI_O_PLY, "N",
     "with --record: the position after N plies (default: the end)"},
    {"move", 'm', required_argument, CLI_O_MOVE, "MOVE",
     "make MOVE first and highlight it"},
    {"png", 0, no_argument, CLI_O_PNG, NULL,
     "write PNG instead of SVG (needs -o FILE and a build with librsvg)"},
    {"white", 0, required_argument, CLI_O_WHITE, "WHO", "who plays white: an agent spec"},
    {"black", 0, required_argument, CLI_O_BLACK, "WHO", "who plays black: an agent spec"},
    {"seed", 0, required_argument, CLI_O_SEED, "N",
     "seed of the random choices, 0..2147483647 (play: default from the clock; "
     "playout, compare: 1)"},
    {"side0", 0, required_argument, CLI_O_SIDE0, "AGENT",
     "agent of the variant's first side (default greedy)"},
    {"side1", 0, required_argument, CLI_O_SIDE1, "AGENT",
     "agent of the variant's second side (default greedy)"},
    {"games", 'g', required_argument, CLI_O_GAMES, "N",
     "games per variant (default 100)"},
    {"threads", 'j', required_argument, CLI_O_THREADS, "T",
     "worker threads (default 1)"},
    {"db", 0, required_argument, CLI_O_DB, "FILE",
     "results database (default tiers.db)"},
    {"shard", 0, required_argument, CLI_O_SHARD, "K/N",
     "play only the games i with i mod N = K-1 (K = 1..N)"},
    {"max-plies", 0, required_argument, CLI_O_MAX_PLIES, "N",
     "cut a game after N plies (default 400)"},
    {"report", 0, required_argument, CLI_O_REPORT, "FILE",
     "also write an HTML report with charts to FILE"},
    {"records", 0, required_argument, CLI_O_RECORDS, "DIR",
     "also write each game of the run as a game record in DIR"},
    {"max-positions", 0, required_argument, CLI_O_MAX_POSITIONS, "N",
     "refuse a variant with more reachable positions (default 10000000)"},
    {"save", 0, required_argument, CLI_O_SAVE, "FILE",
     "write every solved position with its value to FILE"},
    {"solved", 0, required_argument, CLI_O_SOLVED, "FILE",
     "mark each move won, drawn or lost from FILE (written by solve --save)"},
    {"run", 0, required_argument, CLI_O_RUN, "KEY",
     "playout: refuse unless the run's key is KEY; merge: copy only run KEY"},
    {"shards", 0, required_argument, CLI_O_SHARDS, "N",
     "split the run into N shards, one task each (default 1)"},
    {"slots", 0, required_argument, CLI_O_SLOTS, "N",
     "shards played at once on each machine (parallel; default 1)"},
    {"time", 0, required_argument, CLI_O_TIME, "T",
     "Slurm time limit of each task, as sbatch --time takes it"},
    {"partition", 0, required_argument, CLI_O_PARTITION, "P", "Slurm partition"},
    {"sshloginfile", 0, required_argument, CLI_O_SSHLOGINFILE, "FILE",
     "machines for GNU parallel's --sshloginfile (a shared file system)"},
    {"scratch", 0, no_argument, CLI_O_SCRATCH, NULL,
     "play each shard in node-local scratch ($TMPDIR) and copy it back"},
    {"submit", 0, no_argument, CLI_O_SUBMIT, NULL, "run sbatch on the scripts at once"},
    {"yaml", 0, no_argument, CLI_O_YAML, NULL, "print a faces: block to paste (values)"},
    {"agents", 0, no_argument, CLI_O_AGENTS, NULL,
     "bench the agents: alpha-beta nodes, MCTS simulations, greedy plies per CPU second"},
    {"port", 0, required_argument, CLI_O_PORT, "P",
     "serve on port P (default 0: a free port)"},
    {"bind", 0, required_argument, CLI_O_BIND, "ADDR",
     "serve on address ADDR (default 127.0.0.1)"},
    {"tier", 0, required_argument, CLI_O_TIER, "N", "only tier N (1 = on the board)"},
    {"piece", 0, required_argument, CLI_O_PIECE, "FACE",
     "draw FACE's movement per tier instead of a position"},
    {"from", 0, required_argument, CLI_O_FROM, "SQUARE",
     "only the moves from SQUARE (the drops onto it when it is empty)"},
    {"merged", 0, no_argument, CLI_O_MERGED, NULL,
     "print the variant's effective YAML after inheritance and options"},
    {"variant", 0, required_argument, CLI_O_VARIANT, "VARIANT",
     "replay on VARIANT instead of the one named by the record's Variant tag"},
    {"adjacent", 0, no_argument, CLI_O_ADJACENT, NULL,
     "ladder: only neighbours in the order given play each other"},
    {"until", 0, required_argument, CLI_O_UNTIL, "RATE=W",
     "compare: play each ruleset in rounds until RATE (first-mover, side0 or draws) "
     "has a 95% interval half-width <= W; --games caps it (default 100000)"},
    {"round", 0, required_argument, CLI_O_ROUND, "R",
     "compare --until: games per round (default 100)"},
    {"skill", 0, required_argument, CLI_O_SKILL, "SPEC",
     "compare: play each ruleset with agent SPEC (mcts:iterations=N or alphabeta:nodes=N) "
     "at --levels budgets, doubling, and each level against the one below"},
    {"levels", 0, required_argument, CLI_O_LEVELS, "L",
     "compare --skill: budget levels, 2..8 (default 3)"},
    {"help", 'h', no_argument, CLI_O_HELP, NULL, "show this help"},
};

enum { CLI_NOPTIONS = (int)(sizeof cli_options / sizeof cli_options[0]) };

/* Help lines one command gives an option instead of the table's (only
 * play takes a human). */
static const struct {
    cli_opts bit;
    const char *cmd, *help;
} cli_help_own[] = {
    {CLI_O_WHITE, "play", "who plays white: human (the default) or an agent spec"},
    {CLI_O_BLACK, "play", "who plays black: human (the default) or an agent spec"},
};

/* ----------------------------------------------------------- commands */

static const char *const cli_args_none[] = {NULL};
static const char *const cli_args_variant[] = {"VARIANT", NULL};
static const char *const cli_args_apply[] = {"VARIANT", "MOVE", NULL};
static const char *const cli_args_perft[] = {"VARIANT", "DEPTH", NULL};
static const char *const cli_args_convert[] = {"VARIANT", "MOVE", NULL};
static const char *const cli_args_replay[] = {"VARIANT", "FILE", NULL};
static const char *const cli_args_compare[] = {"VARIANT", "VARIANT", NULL};
static const char *const cli_args_merge[] = {"FILE", "FILE", NULL};
static const char *const cli_args_export[] = {"VARIANT", NULL};
static const char *const cli_args_ladder[] = {"VARIANT", "AGENT", "AGENT", NULL};
static const char *const cli_args_pieces[] = {"VARIANT", "FACE", NULL};
static const char *const cli_args_serve[] = {"VARIANT|FOLDER", NULL};
static const char *const cli_args_cluster[] = {"slurm|parallel|status", "VARIANT|DIR", NULL};

static const struct cli_command cli_commands[] = {
    {"variants", cmd_variants_run, "list the variants that can be loaded",
     "[--variants DIR] [--json]", NULL,
     CLI_O_VARIANTS | CLI_O_JSON, cli_args_none, 0, 0},
    {"check", cmd_check_run, "load a variant and report errors",
     "VARIANT [--games N] [--records DIR] [--rule KEY=VALUE] [--variants DIR] [--json]",
     "Errors are printed as file:line:col: message.  Then N random and N greedy\n"
     "games (default 2 each, seed 1, at most 400 plies; 0: load only) run the\n"
     "scripts: the first failure is reported with its game, ply, move, hook,\n"
     "position and Lua stack, and its record written to --records DIR\n"
     "(default tiers-check-failed).  Warnings: lists replaced by inheritance,\n"
     "hooks that never ran, moves listed twice, and likely mistakes.",
     CLI_O_RULE | CLI_O_VARIANTS | CLI_O_JSON | CLI_O_GAMES | CLI_O_RECORDS,
     cli_args_variant, 1, 1},
    {"show", cmd_show_run, "draw the board, hands and status",
     "VARIANT [--position P] [OPTIONS]\n"
     "       tiers show VARIANT --merged [--json] [--rule KEY=VALUE] [--variants DIR]",
     "Each square shows its tower bottom to top, pieces joined by ':'.\n"
     "--merged prints the variant's YAML as tiers reads it instead: the\n"
     "inherits chain merged and the --rule values applied, each key that\n"
     "another file gives marked '# FILE:LINE' (--json: every value with its\n"
     "file and line).",
     CLI_O_COMMON | CLI_O_MERGED, cli_args_variant, 1, 1},
    {"pieces", cmd_pieces_run, "draw each face's movement per tier as a grid",
     "VARIANT [FACE] [--tier N] [--json] [--rule KEY=VALUE] [--variants DIR]",
     "Each grid is the diagram notation of docs/variant-format.md, forward\n"
     "up: P the piece, o step, x jump, l leap, * slide to the edge, 2-9 a\n"
     "ray of at most N squares, + a line the notation cannot draw.",
     CLI_O_RULE | CLI_O_VARIANTS | CLI_O_JSON | CLI_O_TIER, cli_args_pieces, 1, 2},
    {"options", cmd_options_run, "list the rules and options a variant can be run with",
     "VARIANT [--json] [--variants DIR]",
     "Every engine rule and option of the variant, with its type, default,\n"
     "allowed values and meaning; each is set with --rule KEY=VALUE.",
     CLI_O_VARIANTS | CLI_O_JSON, cli_args_variant, 1, 1},
    {"moves", cmd_moves_run, "list the legal moves, sorted",
     "VARIANT [--position P] [--from SQUARE] [--count] [--batch FILE] [--solved FILE]\n"
     "       [OPTIONS]",
     "With --batch, each input line is a position or a JSON object with a\n"
     "\"position\" field; one JSON object is written per line.  With\n"
     "--solved, each move is followed by its value for the side playing it\n"
     "(win, draw or loss, and the plies to the end under perfect play).",
     CLI_O_COMMON | CLI_O_COUNT | CLI_O_BATCH | CLI_O_SOLVED | CLI_O_FROM, cli_args_variant, 1,
     1},
    {"apply", cmd_apply_run, "make moves and print the resulting position",
     "VARIANT MOVE... [--position P] [OPTIONS]", NULL,
     CLI_O_COMMON, cli_args_apply, 2, -1},
    {"perft", cmd_perft_run, "count the leaves of the legal move tree",
     "VARIANT DEPTH [--divide] [--position P] [OPTIONS]",
     "Counting: legal moves, last ply from the full legal list, stops at\n"
     "game over.",
     CLI_O_COMMON | CLI_O_DIVIDE, cli_args_perft, 2, 2},
    {"convert", cmd_convert_run, "rewrite a position and moves in another notation",
     "VARIANT [MOVE...] --position P --notation FROM --to TO [OPTIONS]",
     "Prints the position in TO, then each move (read in FROM, played in\n"
     "order) in TO, one per line.",
     CLI_O_POSITION | CLI_O_NOTATION | CLI_O_RULE | CLI_O_VARIANTS | CLI_O_TO, cli_args_convert,
     1, -1},
    {"replay", cmd_replay_run, "replay a game record, checking every move",
     "VARIANT FILE [--notation NAME] [--verbose] [--rule KEY=VALUE] "
     "[--variants DIR]\n"
     "       tiers replay FILE --variant VARIANT [OPTIONS]",
     "FILE ('-' = stdin) holds [Tag \"value\"] headers, numbered moves,\n"
     "{comments} and a result; the notation comes from --notation, the\n"
     "Notation tag, or the style of the moves.  The rules are the Options\n"
     "tag's, then --rule (which wins for the same key).  Prints each ply\n"
     "(number, side, move, position hash) and the result and its reason.\n"
     "--variant replays the record on VARIANT whatever its Variant tag says\n"
     "(a parent variant's game on a child, say).",
     CLI_O_NOTATION | CLI_O_RULE | CLI_O_VARIANTS | CLI_O_VERBOSE | CLI_O_VARIANT,
     cli_args_replay, 1, 2},
    {"render", cmd_render_run, "draw a position as an SVG picture",
     "VARIANT [--position P | --record FILE [--ply N]] [--move MOVE] "
     "[-o FILE] [--png] [OPTIONS]\n"
     "       tiers render VARIANT --piece FACE [-o FILE] [--png]",
     "With --piece, draws FACE's movement grid at each tier instead (the\n"
     "notation of 'tiers pieces').  "
     "Towers are stacked tiles (colour = owner, hatched = back face, gold\n"
     "rim = royal, arrow = facing, circled number = height); the hands\n"
     "stand beside the board and the last move is outlined.",
     CLI_O_POSITION | CLI_O_NOTATION | CLI_O_RULE | CLI_O_VARIANTS |
         CLI_O_OUTPUT | CLI_O_RECORD | CLI_O_PLY | CLI_O_MOVE | CLI_O_PNG | CLI_O_PIECE,
     cli_args_variant, 1, 1},
    {"play", cmd_play_run, "play a game in the terminal",
     "VARIANT [--white human|AGENT] [--black human|AGENT] [--position P] "
     "[OPTIONS]",
     "Type moves in the game's notation, or: moves [SQUARE], undo, hint [AGENT],\n"
     "save FILE, board, position, help, quit.  AGENT is an agent spec\n"
     "(random, greedy, alphabeta:4, mcts:2000, ...).  When standard input\n"
     "is not a terminal, moves are read from it line by line without\n"
     "prompts and the first bad line stops the game (exit 2).",
     CLI_O_POSITION | CLI_O_NOTATION | CLI_O_RULE | CLI_O_VARIANTS |
         CLI_O_WHITE | CLI_O_BLACK | CLI_O_SEED,
     cli_args_variant, 1, 1},
    {"playout", cmd_playout_run, "play games between agents into a database",
     "VARIANT [--games N] [--threads T] [--seed S] [--black AGENT] "
     "[--white AGENT] [--db FILE] [--shard K/N] [--max-plies N] "
     "[--records DIR [--notation NAME]] [OPTIONS]",
     "AGENT: random, greedy, alphabeta[:depth=3,nodes=100000],\n"
     "mcts[:iterations=1000,rollout=random] (tiers.h lists every parameter);\n"
     "--black/--white name a side by the variant's side names (else white =\n"
     "the first side, black = the second), --side0/--side1 by order; the\n"
     "default is greedy.  Game i is decided by the seed and i alone: the\n"
     "thread count changes nothing, a rerun continues where it stopped.\n"
     "--records DIR then writes games 0..N-1 (of the shard) as game records,\n"
     "DIR/VARIANT-RUN-INDEX.txt, that 'tiers replay' reads.",
     CLI_O_RULE | CLI_O_VARIANTS | CLI_O_JSON | CLI_O_GAMES | CLI_O_THREADS |
         CLI_O_SEED | CLI_O_WHITE | CLI_O_BLACK | CLI_O_SIDE0 | CLI_O_SIDE1 |
         CLI_O_DB | CLI_O_SHARD | CLI_O_MAX_PLIES | CLI_O_RECORDS | CLI_O_NOTATION |
         CLI_O_RUN,
     cli_args_variant, 1, 1},
    {"compare", cmd_compare_run, "compare rulesets side by side from playouts",
     "VARIANT... [--games N] [--db FILE] [--report FILE] [--until RATE=W [--round R]] "
     "[--skill SPEC [--levels L]] [OPTIONS]",
     "Plays (or finds in the database) N games of each variant with the\n"
     "same agents, seed and limits, then prints win rates with 95% Wilson\n"
     "intervals, draws, lengths, branching, move kinds and effects.\n"
     "docs/metrics.md defines each figure.",
     CLI_O_RULE | CLI_O_VARIANTS | CLI_O_JSON | CLI_O_GAMES | CLI_O_THREADS |
         CLI_O_SEED | CLI_O_WHITE | CLI_O_BLACK | CLI_O_SIDE0 | CLI_O_SIDE1 |
         CLI_O_DB | CLI_O_MAX_PLIES | CLI_O_REPORT | CLI_O_UNTIL | CLI_O_ROUND |
         CLI_O_SKILL | CLI_O_LEVELS,
     cli_args_compare, 1, -1},
    {"merge", cmd_merge_run, "join playout databases (shards) into one",
     "FILE... -o OUT [--json]",
     "Copies every run and game of each FILE into OUT (created if needed);\n"
     "games OUT already holds are kept.",
     CLI_O_OUTPUT | CLI_O_JSON | CLI_O_RUN, cli_args_merge, 1, -1},
    {"cluster", cmd_cluster_run, "write the scripts of a sharded run on Slurm or GNU parallel",
     "slurm|parallel VARIANT --shards N [--games N] [--seed S] [agents] [--threads T]\n"
     "       [--time T] [--partition P] [--scratch] [--submit] [--slots N]\n"
     "       [--sshloginfile FILE] [--report FILE] [-o DIR] [--rule K=V] [--variants DIR]\n"
     "       tiers cluster status DIR",
     "Writes to DIR (default tiers-KIND-RUNKEY) plain bash scripts that play\n"
     "the run's games in N shards and merge them: for slurm a job array\n"
     "(playout.sbatch), a merge job (merge.sbatch) and submit.sh, which\n"
     "submits both (the merge after the array, afterany); for parallel,\n"
     "parallel.sh.  Each task plays with --run KEY and fails if the variant,\n"
     "its options or the agents changed since.  The merge step checks every\n"
     "shard first.  'cluster status DIR' counts each shard's games: exit 0\n"
     "when all are complete, 2 with the missing shards and the command that\n"
     "plays them again.",
     CLI_O_RULE | CLI_O_VARIANTS | CLI_O_GAMES | CLI_O_THREADS | CLI_O_SEED |
         CLI_O_WHITE | CLI_O_BLACK | CLI_O_SIDE0 | CLI_O_SIDE1 | CLI_O_MAX_PLIES |
         CLI_O_REPORT | CLI_O_OUTPUT | CLI_O_SHARDS | CLI_O_SLOTS | CLI_O_TIME |
         CLI_O_PARTITION | CLI_O_SSHLOGINFILE | CLI_O_SCRATCH | CLI_O_SUBMIT,
     cli_args_cluster, 2, 2},
    {"ladder", cmd_ladder_run, "rate agents on the Elo scale from games between them",
     "VARIANT AGENT AGENT... [--games N] [--adjacent] [--db FILE] [--threads T] [--shard K/N] "
     "[--seed S] [--max-plies N] [--report FILE] [--json] [OPTIONS]",
     "Every pair of agents plays N games (N even, half with each colour) into\n"
     "the database, as playout runs (resumable, shardable, mergeable); then\n"
     "a Bradley-Terry fit by maximum likelihood puts them on the Elo scale,\n"
     "the first agent at 0, with 95% intervals, and the pairwise scores with\n"
     "Wilson intervals.  A draw or a cut game is half a point each.  Put the\n"
     "weakest agent (random) first.  --adjacent: only neighbours in the\n"
     "order given play (a chain of steps).  --report FILE: also an HTML page\n"
     "charting the ratings and the scores with their intervals.",
     CLI_O_RULE | CLI_O_VARIANTS | CLI_O_JSON | CLI_O_GAMES | CLI_O_THREADS | CLI_O_SEED |
         CLI_O_DB | CLI_O_SHARD | CLI_O_MAX_PLIES | CLI_O_REPORT | CLI_O_ADJACENT,
     cli_args_ladder, 3, -1},
    {"values", cmd_values_run, "piece values from play (logistic regression)",
     "VARIANT [--games N] [--seed S] [agents] [--max-plies N] [--yaml] [OPTIONS]",
     "Plays the run's games (as playout would, nothing stored), samples every\n"
     "10th play-phase ply: each face's count for the first side minus the\n"
     "second's, board and hands; fits a logistic regression of the result\n"
     "on them and prints each face's value, the smallest positive non-royal\n"
     "one = 1, with a 95% interval (errors clustered by game).  Cut games\n"
     "are left out, draws count half.  --yaml prints a faces: block.",
     CLI_O_RULE | CLI_O_VARIANTS | CLI_O_GAMES | CLI_O_SEED | CLI_O_WHITE | CLI_O_BLACK |
         CLI_O_SIDE0 | CLI_O_SIDE1 | CLI_O_MAX_PLIES | CLI_O_YAML,
     cli_args_variant, 1, 1},
    {"export", cmd_export_run, "write the games of a playout database as game records",
     "[VARIANT] [--db FILE] -o DIR [--notation NAME] [--variants DIR] [--json]",
     "Replays every stored game (of VARIANT only, when given) on its run's\n"
     "variant and options and writes it to DIR/VARIANT-RUN-INDEX.txt, runs\n"
     "by variant name, games by index; 'tiers replay' reads each file.  The\n"
     "variant is found by the name the database holds, or given as VARIANT.",
     CLI_O_DB | CLI_O_OUTPUT | CLI_O_NOTATION | CLI_O_VARIANTS | CLI_O_JSON,
     cli_args_export, 0, 1},
    {"solve", cmd_solve_run, "solve a small variant completely (retrograde analysis)",
     "VARIANT [--max-positions N] [--save FILE] [--threads T] [--position P] [OPTIONS]",
     "Enumerates every position reachable from the start (or P) with the\n"
     "legal moves, labels each won, drawn or lost for its side to move with\n"
     "the plies to the end, and prints the start's value, the counts, the\n"
     "time and a perfect-play line.  Repetition and move limits are not\n"
     "applied: a cycle that neither side can be forced out of is a draw.",
     CLI_O_COMMON | CLI_O_MAX_POSITIONS | CLI_O_SAVE | CLI_O_THREADS, cli_args_variant, 1, 1},
    {"serve", cmd_serve_run, "a board to click on in the browser, with a JSON API",
     "[VARIANT|FOLDER...] [--port P] [--bind ADDR] [--db FILE] [--notation NAME]\n"
     "       [--rule KEY=VALUE] [--variants DIR]",
     "Prints http://ADDR:PORT/?token=TOKEN and serves, until SIGINT or\n"
     "SIGTERM, a page to play the variants given (default: every variant\n"
     "found) and the JSON API it uses (docs/serve.md).  Every request needs\n"
     "the token; only the printed address is answered.  The variants' files\n"
     "are watched and reloaded when saved; comparisons started from the page\n"
     "go into --db (default tiers.db).",
     CLI_O_NOTATION | CLI_O_RULE | CLI_O_VARIANTS | CLI_O_PORT | CLI_O_BIND | CLI_O_DB,
     cli_args_serve, 0, -1},
    {"bench", cmd_bench_run, "time perft, random playouts or batch move lists",
     "VARIANT...|all [--seconds S] [--rule KEY=VALUE] [--variants DIR] [--json]\n"
     "       tiers bench VARIANT --batch FILE [--notation NAME] [--seconds S] [--json]\n"
     "       tiers bench VARIANT...|all --agents [--batch FILE [--notation NAME]] [--json]",
     "Runs perft from the start to a depth taking about a CPU second, then\n"
     "random playouts (fixed seed, at most 400 plies) for S CPU seconds, for\n"
     "each variant given (e.g. blog and a copy without its scripts, to see\n"
     "what the effects cost) or every variant found.  With --batch, reads\n"
     "the positions of FILE once (lines as `moves --batch` reads them), then\n"
     "times passes over them for S CPU seconds: each position's status and\n"
     "legal moves, written as text in the notation.  Each rate is the best\n"
     "of 3 rounds by CPU time (taken in turn over the variants), with the\n"
     "wall-clock rate of the same round beside it.  With --agents, times\n"
     "the agents instead: alpha-beta nodes, MCTS simulations and greedy\n"
     "plies per CPU second, from 8 positions reached by random play (or\n"
     "those of --batch, one variant), the best of 3 rounds.",
     CLI_O_RULE | CLI_O_VARIANTS | CLI_O_JSON | CLI_O_SECONDS | CLI_O_BATCH | CLI_O_NOTATION |
         CLI_O_AGENTS,
     cli_args_variant, 1, -1},
};

enum { CLI_NCOMMANDS = (int)(sizeof cli_commands / sizeof cli_commands[0]) };

/* --------------------------------------------------------------- help */

/* "-p, --position P" or "    --json". */
static void cli_option_head(const struct cli_option *o, char *buf,
                            size_t size)
{
    if (o->letter)
        snprintf(buf, size, "-%c, --%s%s%s", o->letter, o->name,
                 o->arg ? " " : "", o->arg ? o->arg : "");
    else
        snprintf(buf, size, "    --%s%s%s", o->name, o->arg ? " " : "",
                 o->arg ? o->arg : "");
}

/* The options of mask; cmd (or NULL) picks a command's own help line. */
static void cli_help_options(cli_opts mask, const char *cmd)
{
    char head[64];
    for (int i = 0; i < CLI_NOPTIONS; i++) {
        const struct cli_option *o = &cli_options[i];
        if (!(o->bit & mask))
            continue;
        const char *help = o->help;
        for (size_t k = 0; cmd && k < sizeof cli_help_own / sizeof cli_help_own[0]; k++)
            if (cli_help_own[k].bit == o->bit && !strcmp(cli_help_own[k].cmd, cmd))
                help = cli_help_own[k].help;
        cli_option_head(o, head, sizeof head);
        printf("  %-24s %s\n", head, help);
    }
}

static void cli_help_main(void)
{
    printf("usage: tiers COMMAND VARIANT [ARGS] [OPTIONS]\n"
           "       tiers COMMAND --help | tiers --help | tiers --version\n\n"
           "Rules-variant engine for stacked-tower board games.\n"
           "VARIANT is a shipped name, a folder holding variant.yaml, or a "
           "YAML file.\n\ncommands:\n");
    for (int i = 0; i < CLI_NCOMMANDS; i++)
        printf("  %-10s %s\n", cli_commands[i].name, cli_commands[i].summary);
    printf("\ncommon options (see 'tiers COMMAND --help' for the rest):\n");
    cli_help_options(CLI_O_COMMON | CLI_O_HELP, NULL);
    printf("\nexit status: 0 ok, 1 usage error, 2 bad input (variant, "
           "position, move),\n3 internal error (script failure, out of "
           "memory).\n");
}

static void cli_help_command(const struct cli_command *cmd)
{
    printf("usage: tiers %s %s\n\n%c%s.\n", cmd->name, cmd->synopsis,
           cmd->summary[0] - 'a' + 'A', cmd->summary + 1);
    if (cmd->detail)
        printf("%s\n", cmd->detail);
    printf("\noptions:\n");
    cli_help_options(cmd->options | CLI_O_HELP, cmd->name);
}

/* ------------------------------------------------------------ parsing */

static void cli_free(struct cli *c)
{
    free(c->rules);
    free(c->search);
}

/* Appends DIR to the ':'-joined search path. */
static int cli_add_search(struct cli *c, const char *dir)
{
    size_t old = c->search ? strlen(c->search) : 0;
    char *s = realloc(c->search, old + strlen(dir) + 2);
    if (!s)
        return -1;
    if (old)
        s[old++] = ':';
    strcpy(s + old, dir);
    c->search = s;
    return 0;
}

/* Token of the option getopt_long just rejected: the long form when that
 * is what was written, else "-x". */
static const char *cli_bad_token(char **argv, int optind_now, int opt,
                                 char *buf)
{
    const char *last = optind_now > 0 ? argv[optind_now - 1] : "";
    if (opt <= 0 || opt >= CLI_LONG_BASE)
        return last;
    if (strncmp(last, "--", 2) == 0)
        for (int i = 0; i < CLI_NOPTIONS; i++)
            if (cli_options[i].letter == opt &&
                strncmp(last + 2, cli_options[i].name,
                        strcspn(last + 2, "=")) == 0)
                return last;
    buf[0] = '-';
    buf[1] = (char)opt;
    buf[2] = '\0';
    return buf;
}

/* Parses the options of `c->cmd` from argv (argv[0] = command name).
 * Returns -1 to go on, or an exit code. */
static int cli_parse(struct cli *c, int argc, char **argv)
{
    struct option longopts[CLI_NOPTIONS + 1];
    char shortopts[3 * CLI_NOPTIONS + 2];
    size_t ns = 0;
    char tok[3];

    shortopts[ns++] = ':'; /* report a missing argument as ':' */
    for (int i = 0; i < CLI_NOPTIONS; i++) {
        const struct cli_option *o = &cli_options[i];
        longopts[i].name = o->name;
        longopts[i].has_arg = o->has_arg;
        longopts[i].flag = NULL;
        longopts[i].val = o->letter ? o->letter : CLI_LONG_BASE + i;
        if (o->letter) {
            shortopts[ns++] = (char)o->letter;
            if (o->has_arg == required_argument)
                shortopts[ns++] = ':';
        }
    }
    shortopts[ns] = '\0';
    memset(&longopts[CLI_NOPTIONS], 0, sizeof longopts[0]);

    c->rules = calloc((size_t)argc + 1, sizeof *c->rules);
    if (!c->rules) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    c->seconds = 1.0;

    opterr = 0;
    optind = 1;
    int opt;
    while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (opt == '?' && strncmp(argv[optind - 1], "--", 2) == 0 &&
            strchr(argv[optind - 1], '=')) {
            /* "--count=3": a value given to an option that takes none. */
            const char *tokn = argv[optind - 1] + 2;
            size_t len = strcspn(tokn, "=");
            for (int i = 0; i < CLI_NOPTIONS; i++)
                if (cli_options[i].has_arg == no_argument &&
                    strncmp(cli_options[i].name, tokn, len) == 0)
                    return cli_usage_error(c, "option '--%s' takes no "
                                           "value, not '%s'",
                                           cli_options[i].name,
                                           argv[optind - 1]);
        }
        if (opt == '?') {
            const char *bad = cli_bad_token(argv, optind, optopt, tok);
            cli_error(c, "unknown option '%s'", bad);
            if (!strncmp(bad, "--", 2)) {
                const char *names[CLI_NOPTIONS];
                char full[CLI_NOPTIONS][32], word[64];
                for (int i = 0; i < CLI_NOPTIONS; i++) {
                    snprintf(full[i], sizeof full[i], "--%s", cli_options[i].name);
                    names[i] = full[i];
                }
                snprintf(word, sizeof word, "%.*s", (int)strcspn(bad, "="), bad);
                cli_did_you_mean(word, names, CLI_NOPTIONS);
            }
            fputs("try 'tiers --help'\n", stderr);
            return CLI_USAGE;
        }
        if (opt == ':') {
            return cli_usage_error(c, "option '%s' needs an argument",
                                   argv[optind - 1]);
        }
        const struct cli_option *o = NULL;
        for (int i = 0; i < CLI_NOPTIONS; i++)
            if (opt == cli_options[i].letter || opt == CLI_LONG_BASE + i)
                o = &cli_options[i];
        if (!o)
            return cli_usage_error(c, "unknown option");
        if (!(o->bit & (c->cmd->options | CLI_O_HELP)))
            return cli_usage_error(c, "option '--%s' does not apply here",
                                   o->name);
        c->given |= o->bit;
        switch (o->bit) {
        case CLI_O_POSITION: c->position = optarg; break;
        case CLI_O_NOTATION: c->notation = optarg; break;
        case CLI_O_RULE: {
            const char *eq = strchr(optarg, '=');
            if (!eq || eq == optarg)
                return cli_usage_error(c, "bad --rule '%s': expected "
                                       "KEY=VALUE", optarg);
            c->rules[c->nrules++] = optarg;
            break;
        }
        case CLI_O_VARIANTS:
            if (optarg[0] == '\0')
                return cli_usage_error(c, "empty --variants directory");
            if (cli_add_search(c, optarg) != 0) {
                cli_error(c, "out of memory");
                return CLI_INTERNAL;
            }
            break;
        case CLI_O_JSON: c->json = 1; break;
        case CLI_O_COUNT: c->count = 1; break;
        case CLI_O_BATCH: c->batch = optarg; break;
        case CLI_O_DIVIDE: c->divide = 1; break;
        case CLI_O_SECONDS:
            if (cli_parse_double(optarg, 0.001, 86400.0, &c->seconds) != 0)
                return cli_usage_error(c, "bad --seconds '%s': expected a "
                                       "number of seconds > 0", optarg);
            break;
        case CLI_O_TO: c->to = optarg; break;
        case CLI_O_VERBOSE: c->verbose = 1; break;
        case CLI_O_OUTPUT: c->output = optarg; break;
        case CLI_O_RECORD: c->record = optarg; break;
        case CLI_O_PLY:
            if (cli_parse_int(optarg, 0, 1000000, &c->ply) != 0)
                return cli_usage_error(c, "--ply: '%s' is not a number of "
                                       "plies >= 0", optarg);
            break;
        case CLI_O_MOVE: c->move = optarg; break;
        case CLI_O_PNG: c->png = 1; break;
        case CLI_O_WHITE: c->white = optarg; break;
        case CLI_O_BLACK: c->black = optarg; break;
        case CLI_O_SEED: {
            long seed;
            if (cli_parse_int(optarg, 0, 2147483647L, &seed) != 0)
                return cli_usage_error(c, "--seed: '%s' is not a number "
                                       "from 0 to 2147483647", optarg);
            c->seed = (uint64_t)seed;
            break;
        }
        case CLI_O_HELP: break;
        case CLI_O_MAX_POSITIONS:
        case CLI_O_SAVE:
        case CLI_O_SOLVED: {
            int code = cli_solve_option(c, o->bit, optarg);
            if (code >= 0)
                return code;
            break;
        }
        case CLI_O_YAML: c->yaml = 1; break;
        case CLI_O_TIER:
            if (cli_parse_int(optarg, 1, TIERS_MAX_TIERS, &c->tier) != 0)
                return cli_usage_error(c, "--tier: '%s' is not a tier 1..%d", optarg,
                                       TIERS_MAX_TIERS);
            break;
        case CLI_O_PIECE: c->piece = optarg; break;
        case CLI_O_FROM: c->from = optarg; break;
        case CLI_O_MERGED: c->merged = 1; break;
        case CLI_O_VARIANT: c->variant = optarg; break;
        case CLI_O_ADJACENT: c->adjacent = 1; break;
        case CLI_O_PORT:
        case CLI_O_BIND: {
            int code = cli_serve_option(c, o->bit, optarg);
            if (code >= 0)
                return code;
            break;
        }
        case CLI_O_UNTIL:
        case CLI_O_ROUND: {
            int code = cli_until_option(c, o->bit, optarg);
            if (code >= 0)
                return code;
            break;
        }
        case CLI_O_SKILL:
        case CLI_O_LEVELS: {
            int code = cli_skill_option(c, o->bit, optarg);
            if (code >= 0)
                return code;
            break;
        }
        case CLI_O_SHARDS:
        case CLI_O_SLOTS:
        case CLI_O_TIME:
        case CLI_O_PARTITION:
        case CLI_O_SSHLOGINFILE:
        case CLI_O_SCRATCH:
        case CLI_O_SUBMIT: {
            int code = cli_cluster_option(c, o->bit, optarg);
            if (code >= 0)
                return code;
            break;
        }
        default: {
            /* playout, compare and merge options (cmd_playout.c) */
            int code = cli_playout_option(c, o->bit, optarg);
            if (code >= 0)
                return code;
            break;
        }
        }
    }
    if (c->given & CLI_O_HELP) {
        cli_help_command(c->cmd);
        return CLI_OK;
    }
    c->args = argv + optind;
    c->nargs = argc - optind;
    const char *const *names = c->cmd->argnames;
    if (c->nargs < c->cmd->min_args)
        return cli_usage_error(c, "missing %s", names[c->nargs]);
    if (c->cmd->max_args >= 0 && c->nargs > c->cmd->max_args)
        return cli_usage_error(c, "unexpected argument '%s'",
                               c->args[c->cmd->max_args]);
    return -1;
}

static int cli_unknown_command(const char *name)
{
    const char *names[CLI_NCOMMANDS];
    for (int i = 0; i < CLI_NCOMMANDS; i++)
        names[i] = cli_commands[i].name;
    fprintf(stderr, "tiers: unknown command '%s'\n", name);
    cli_did_you_mean(name, names, CLI_NCOMMANDS);
    fputs("try 'tiers --help'\n", stderr);
    return CLI_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return cli_usage_error(NULL, "missing command");
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
        strcmp(name, "help") == 0) {
        if (argc > 2 && strcmp(name, "help") == 0) {
            for (int i = 0; i < CLI_NCOMMANDS; i++)
                if (strcmp(argv[2], cli_commands[i].name) == 0) {
                    cli_help_command(&cli_commands[i]);
                    return cli_finish_output(NULL, CLI_OK);
                }
            return cli_unknown_command(argv[2]);
        }
        cli_help_main();
        return cli_finish_output(NULL, CLI_OK); /* exit 3 if it could not be written */
    }
    if (strcmp(name, "--version") == 0) {
        printf("tiers %s\n", TIERS_VERSION);
        return cli_finish_output(NULL, CLI_OK);
    }
    if (name[0] == '-' && name[1] != '\0')
        return cli_usage_error(NULL, "unknown option '%s' (the command comes "
                               "first)", name);

    const struct cli_command *cmd = NULL;
    for (int i = 0; i < CLI_NCOMMANDS; i++)
        if (strcmp(name, cli_commands[i].name) == 0)
            cmd = &cli_commands[i];
    if (!cmd)
        return cli_unknown_command(name);

    struct cli c;
    memset(&c, 0, sizeof c);
    c.cmd = cmd;
    int code = cli_parse(&c, argc - 1, argv + 1);
    if (code < 0)
        code = cli_finish_output(&c, cmd->run(&c));
    else
        code = cli_finish_output(&c, code);
    cli_free(&c);
    return code;
}
