/* compare_skill.h - `tiers compare --skill SPEC --levels L` (issue 23, the
 * skill trace): every ruleset played by SPEC at L budgets, doubling, and
 * each level against the one below (compare_skill.c). */
#ifndef COMPARE_SKILL_H
#define COMPARE_SKILL_H

#include "jsonw.h"
#include "playout.h"

enum { SKILL_MIN_LEVELS = 2, SKILL_MAX_LEVELS = 8, SKILL_DEFAULT_LEVELS = 3 };

/* The main figures of one level of one ruleset (docs/metrics.md). */
struct skill_level {
    long long budget;
    char agent[256];              /* the run's canonical agent spec */
    char run[128];                /* its run key */
    int64_t games;
    double balance;               /* -1: no decisive game */
    struct stats_rate first_decisive, draw, cut;
    double length_mean;
};

/* Level k+1 against level k: its score with both colours. */
struct skill_step {
    double score, games, lo, hi;
};

struct compare_skill_trace {
    int ok;                       /* every level and step played */
    struct skill_level level[SKILL_MAX_LEVELS];
    struct skill_step step[SKILL_MAX_LEVELS - 1];
    int have_elo;                 /* the Bradley-Terry fit converged */
    double elo[SKILL_MAX_LEVELS], elo_sd[SKILL_MAX_LEVELS];
};

/* Checks --skill, --levels and the options they exclude before anything
 * is opened: an exit code (usage errors exit 1). */
int compare_skill_check(const struct cli *c);

/* The agent spec of level k (0-based) into buf. */
void compare_skill_spec(const struct cli *c, int k, char *buf, size_t size);

/* Plays (or finds) ruleset `spec` at every level and each level against
 * the one below, filling *trace; out is left as playout_variant leaves it
 * for the top level.  An exit code. */
int compare_skill_variant(const struct cli *c, db *d, const char *spec,
                          struct playout_variant *out, struct compare_skill_trace *trace);

/* The "skill" object of --json and the text table of the trace. */
void compare_skill_json(jsonw *w, const struct cli *c, const struct playout_variant *v, int n);
void compare_skill_print(const struct cli *c, const struct playout_variant *v, int n);

/* What the report's skill section needs (report_meta's extra_ctx). */
struct skill_report {
    const struct cli *c;
    const struct playout_variant *v;
    int n;
};

/* The report's "Skill trace" section: a chart per figure, a line per
 * ruleset, x = level; then level k+1's score against level k. */
void compare_skill_report(FILE *f, const void *ctx);

#endif
