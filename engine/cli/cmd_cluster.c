/* cmd_cluster.c - `tiers cluster slurm|parallel VARIANT ...` writes the
 * scripts that play a run's shards on a Slurm cluster or through GNU
 * parallel and merge them; `tiers cluster status DIR` says which shards
 * are complete.  The scripts are plain bash, commented and meant to be
 * edited: their first commands set the program's path and the variant
 * path.  Each shard task passes `--run KEY`, so it refuses to play if the
 * variant, its options or the agents changed since the scripts were
 * written. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "playout.h"

#define CLUSTER_CONF "cluster.conf"

/* What the scripts and the status check need to know of a run. */
struct cluster_run {
    const char *kind;         /* "slurm" or "parallel" */
    char dir[PATH_MAX];       /* absolute */
    char tiers[PATH_MAX];     /* absolute path of this program */
    char *variant_path;       /* TIERS_VARIANT_PATH for the tasks, absolute */
    char *playout;            /* the quoted playout arguments, shard aside */
    struct db_run run;
    long games;
    int shards;
};

/* ------------------------------------------------------------ options */

int cli_cluster_option(struct cli *c, cli_opts bit, const char *arg)
{
    long n;
    switch (bit) {
    case CLI_O_SHARDS:
        if (cli_parse_int(arg, 1, 100000, &n) != 0)
            return cli_usage_error(c, "bad --shards '%s': expected 1..100000", arg);
        c->shards = (int)n;
        return -1;
    case CLI_O_SLOTS:
        if (cli_parse_int(arg, 1, 4096, &n) != 0)
            return cli_usage_error(c, "bad --slots '%s': expected 1..4096", arg);
        c->slots = (int)n;
        return -1;
    case CLI_O_TIME:
    case CLI_O_PARTITION:
    case CLI_O_SSHLOGINFILE:
        /* written into #SBATCH lines or a command: one plain word */
        if (!arg[0] || strpbrk(arg, " \t\n'\"\\$`;&|<>"))
            return cli_usage_error(c, "bad value '%s': one word without spaces or quotes",
                                   arg);
        if (bit == CLI_O_TIME)
            c->time_limit = arg;
        else if (bit == CLI_O_PARTITION)
            c->partition = arg;
        else
            c->sshloginfile = arg;
        return -1;
    case CLI_O_SCRATCH: c->scratch = 1; return -1;
    case CLI_O_SUBMIT: c->submit = 1; return -1;
    default: return -1;
    }
}

/* ------------------------------------------------------------ text */

/* A growing string; on out of memory it keeps failing quietly and
 * cluster_text_take returns NULL. */
struct cluster_text {
    char *s;
    size_t len, cap;
    int failed;
};

__attribute__((format(printf, 2, 3)))
static void cluster_put(struct cluster_text *t, const char *fmt, ...)
{
    if (t->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || (t->len + (size_t)n + 1 > t->cap &&
                  !(t->s = realloc(t->s, t->cap = 2 * (t->len + (size_t)n + 1))))) {
        t->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* Appends w as one shell word, single-quoted when it needs quoting. */
static void cluster_put_quoted(struct cluster_text *t, const char *w)
{
    if (w[0] && !w[strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789_-+=:,./@%^")]) {
        cluster_put(t, "%s", w);
        return;
    }
    cluster_put(t, "'");
    for (const char *q = w; *q; q++)
        cluster_put(t, *q == '\'' ? "'\\''" : "%c", *q);
    cluster_put(t, "'");
}

/* The same after a space. */
static void cluster_put_word(struct cluster_text *t, const char *w)
{
    cluster_put(t, " ");
    cluster_put_quoted(t, w);
}

static char *cluster_text_take(struct cluster_text *t)
{
    if (t->failed) {
        free(t->s);
        return NULL;
    }
    return t->s ? t->s : strdup("");
}

/* ------------------------------------------------------------ the run */

/* An absolute form of path (which must exist); 0 or -1 with errno. */
static int cluster_absolute(const char *path, char out[PATH_MAX])
{
    return realpath(path, out) ? 0 : -1;
}

/* The variant path the tasks need: --variants folders, then the caller's
 * TIERS_VARIANT_PATH, each made absolute (missing folders are dropped). */
static char *cluster_variant_path(const struct cli *c)
{
    struct cluster_text t = {0};
    const char *parts[2] = {c->search, getenv("TIERS_VARIANT_PATH")};
    int first = 1;
    for (int i = 0; i < 2; i++) {
        if (!parts[i])
            continue;
        char *copy = strdup(parts[i]);
        if (!copy)
            return NULL;
        for (char *save = NULL, *d = strtok_r(copy, ":", &save); d;
             d = strtok_r(NULL, ":", &save)) {
            char abs[PATH_MAX];
            if (cluster_absolute(d, abs) == 0) {
                cluster_put(&t, "%s%s", first ? "" : ":", abs);
                first = 0;
            }
        }
        free(copy);
    }
    return cluster_text_take(&t);
}

/* The playout arguments that make the run (shard, threads and database
 * are added per task): the variant (absolute when it is a path), games,
 * seed, the two agents' canonical specs, max plies, rules. */
static char *cluster_playout_args(const struct cli *c, const struct cluster_run *r)
{
    struct cluster_text t = {0};
    char abs[PATH_MAX];
    const char *spec = c->args[1];
    cluster_put_word(&t, strchr(spec, '/') && cluster_absolute(spec, abs) == 0 ? abs : spec);
    cluster_put(&t, " --games %ld --seed %llu", r->games, (unsigned long long)c->seed);
    cluster_put(&t, " --side0");
    cluster_put_word(&t, r->run.agent[0]);
    cluster_put(&t, " --side1");
    cluster_put_word(&t, r->run.agent[1]);
    cluster_put(&t, " --max-plies %d", c->max_plies);
    for (int i = 0; i < c->nrules; i++) {
        cluster_put(&t, " --rule");
        cluster_put_word(&t, c->rules[i]);
    }
    return cluster_text_take(&t);
}

/* Everything about the run from the command line; an exit code. */
static int cluster_describe(struct cli *c, struct cluster_run *r)
{
    playout_defaults(c);
    if (c->shards < 1)
        c->shards = 1;
    if (c->shards > c->games)
        return cli_usage_error(c, "--shards %d is more than the %ld games", c->shards,
                               c->games);
    int code = cli_playout_describe(c, c->args[1], &r->run);
    if (code != CLI_OK)
        return code;
    r->games = c->games;
    r->shards = c->shards;
    ssize_t n = readlink("/proc/self/exe", r->tiers, sizeof r->tiers - 1);
    if (n <= 0) {
        cli_error(c, "cannot find the path of the tiers program");
        return CLI_INTERNAL;
    }
    r->tiers[n] = '\0';
    const char *out = c->output ? c->output : "";
    char made[PATH_MAX];
    if (!out[0]) {
        snprintf(made, sizeof made, "tiers-%s-%s", r->kind, r->run.key);
        out = made;
    }
    if (mkdir(out, 0777) != 0 && errno != EEXIST) {
        cli_error(c, "cannot create '%s': %s", out, strerror(errno));
        return CLI_INTERNAL;
    }
    if (cluster_absolute(out, r->dir) != 0) {
        cli_error(c, "cannot open '%s': %s", out, strerror(errno));
        return CLI_INTERNAL;
    }
    r->variant_path = cluster_variant_path(c);
    r->playout = cluster_playout_args(c, r);
    if (!r->variant_path || !r->playout) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    return CLI_OK;
}

/* ------------------------------------------------------------ scripts */

/* The lines every script starts with: where tiers and the variants are. */
static void cluster_put_prologue(struct cluster_text *t, const struct cluster_run *r)
{
    cluster_put(t, "# Edit these two lines to move the job to another machine or folder.\n");
    cluster_put(t, "TIERS=");
    cluster_put_quoted(t, r->tiers);
    cluster_put(t, "\nexport TIERS_VARIANT_PATH=");
    cluster_put_quoted(t, r->variant_path);
    cluster_put(t, "\nset -euo pipefail\ncd");
    cluster_put_word(t, r->dir);
    cluster_put(t, "\nmkdir -p shards logs\n");
}

static void cluster_put_header(struct cluster_text *t, const struct cluster_run *r,
                               const char *what)
{
    cluster_put(t, "# %s\n# Run %s: %s (content hash %s%s%s), %ld games, seed %llu,\n"
                "# %s against %s, at most %d plies, in %d shards.\n"
                "# Written by 'tiers cluster %s'; docs/scaling.md explains it.\n",
                what, r->run.key, r->run.variant, r->run.hash,
                r->run.options[0] ? ", options " : "", r->run.options, r->games,
                (unsigned long long)r->run.seed, r->run.agent[0], r->run.agent[1],
                r->run.max_plies, r->shards, r->kind);
}

/* The command that plays shard "$shard" into its database ("$db"). */
static void cluster_put_play(struct cluster_text *t, const struct cluster_run *r,
                             const char *threads)
{
    cluster_put(t, "\"$TIERS\" playout%s --run %s --threads %s \\\n"
                "    --shard \"$shard/%d\" --db \"$db\"\n",
                r->playout, r->run.key, threads, r->shards);
}

/* The merge step: every shard complete (status says which are not), then
 * merged into merged.db; with --report, the comparison table and report. */
static void cluster_put_merge(struct cluster_text *t, const struct cli *c,
                              const struct cluster_run *r)
{
    cluster_put(t, "# Every shard must be complete: a cancelled or failed task is named\n"
                "# here (with the command that plays it again) instead of merged.\n"
                "\"$TIERS\" cluster status . || exit 2\n"
                "\"$TIERS\" merge --run %s shards/shard-*.db -o merged.db\n", r->run.key);
    if (c->report) {
        char abs[PATH_MAX];
        const char *report = c->report[0] == '/' ? c->report : abs;
        snprintf(abs, sizeof abs, "%s/%s", r->dir, c->report);
        cluster_put(t, "\"$TIERS\" compare%s --db merged.db --report", r->playout);
        cluster_put_word(t, report);
        cluster_put(t, "\n");
    }
}

static char *cluster_slurm_task(const struct cli *c, const struct cluster_run *r)
{
    struct cluster_text t = {0};
    cluster_put(&t, "#!/bin/bash\n");
    cluster_put(&t, "#SBATCH --job-name=tiers-%s\n#SBATCH --array=1-%d\n", r->run.key,
                r->shards);
    cluster_put(&t, "#SBATCH --cpus-per-task=%d\n", c->threads);
    if (c->time_limit)
        cluster_put(&t, "#SBATCH --time=%s\n", c->time_limit);
    if (c->partition)
        cluster_put(&t, "#SBATCH --partition=%s\n", c->partition);
    cluster_put(&t, "#SBATCH --output=%s/logs/shard-%%a.out\n", r->dir);
    cluster_put_header(&t, r, "One shard of the run per array task (sbatch playout.sbatch).");
    cluster_put_prologue(&t, r);
    cluster_put(&t, "shard=${SLURM_ARRAY_TASK_ID:?submit with sbatch, or set "
                "SLURM_ARRAY_TASK_ID=K}\n");
    if (c->scratch) {
        cluster_put(&t,
                    "# --scratch: play into node-local scratch, then copy the database back\n"
                    "# (a .part file renamed, so the shared copy is never half written).\n"
                    "final=\"$PWD/shards/shard-$shard.db\"\n"
                    "work=$(mktemp -d \"${TMPDIR:-/tmp}/tiers-%s-$shard.XXXXXX\")\n"
                    "trap 'rm -rf \"$work\"' EXIT\n"
                    "db=\"$work/shard.db\"\n"
                    "if [[ -e $final ]]; then cp \"$final\" \"$db\"; fi\n",
                    r->run.key);
        cluster_put_play(&t, r, "\"${SLURM_CPUS_PER_TASK:-1}\"");
        cluster_put(&t, "\"$TIERS\" merge \"$db\" -o \"$work/copy.db\" >/dev/null\n"
                    "cp \"$work/copy.db\" \"$final.part\" && mv \"$final.part\" \"$final\"\n");
    } else {
        cluster_put(&t, "db=\"shards/shard-$shard.db\"\n");
        cluster_put_play(&t, r, "\"${SLURM_CPUS_PER_TASK:-1}\"");
    }
    return cluster_text_take(&t);
}

static char *cluster_slurm_merge(const struct cli *c, const struct cluster_run *r)
{
    struct cluster_text t = {0};
    cluster_put(&t, "#!/bin/bash\n#SBATCH --job-name=tiers-%s-merge\n", r->run.key);
    if (c->time_limit)
        cluster_put(&t, "#SBATCH --time=%s\n", c->time_limit);
    if (c->partition)
        cluster_put(&t, "#SBATCH --partition=%s\n", c->partition);
    cluster_put(&t, "#SBATCH --output=%s/logs/merge.out\n", r->dir);
    cluster_put_header(&t, r, "Merges the shards once the array has ended (afterany).");
    cluster_put_prologue(&t, r);
    cluster_put_merge(&t, c, r);
    return cluster_text_take(&t);
}

static char *cluster_slurm_submit(const struct cluster_run *r)
{
    struct cluster_text t = {0};
    cluster_put(&t, "#!/bin/bash\n");
    cluster_put_header(&t, r, "Submits the array, then the merge job that waits for it.");
    cluster_put(&t, "set -euo pipefail\ncd");
    cluster_put_word(&t, r->dir);
    cluster_put(&t, "\nmkdir -p shards logs\n"
                "# sbatch --parsable prints JOBID or JOBID;CLUSTER\n"
                "array=$(sbatch --parsable playout.sbatch)\narray=${array%%%%;*}\n"
                "# afterany: the merge runs even when a task failed, and says which\n"
                "merge=$(sbatch --parsable --dependency=afterany:\"$array\" merge.sbatch)\n"
                "merge=${merge%%%%;*}\n"
                "echo \"playout array job $array, merge job $merge\"\n");
    return cluster_text_take(&t);
}

static char *cluster_parallel_script(const struct cli *c, const struct cluster_run *r)
{
    struct cluster_text t = {0};
    cluster_put(&t, "#!/bin/bash\n");
    cluster_put_header(&t, r, "Plays the shards through GNU parallel, then merges them.\n"
                              "# Usage: bash parallel.sh [SHARD...]  (default: every shard)");
    cluster_put_prologue(&t, r);
    cluster_put(&t, "if [[ $# -gt 0 ]]; then shards=(\"$@\"); else shards=($(seq 1 %d)); fi\n",
                r->shards);
    cluster_put(&t, "# Each job: one shard into its own database, %d thread%s.\n", c->threads,
                c->threads == 1 ? "" : "s");
    cluster_put(&t, "play() {\n    local shard=$1 db=\"$PWD/shards/shard-$1.db\"\n    ");
    cluster_put_play(&t, r, "1");
    /* parallel runs each job with $SHELL: it must be bash to see play() */
    cluster_put(&t, "}\nexport -f play\nexport TIERS SHELL=/bin/bash\n");
    cluster_put(&t, "parallel --will-cite --halt never -j %d", c->slots > 0 ? c->slots : 1);
    if (c->sshloginfile) {
        /* remote hosts need the same paths: a shared file system */
        char abs[PATH_MAX];
        cluster_put(&t, " --sshloginfile");
        cluster_put_word(&t, cluster_absolute(c->sshloginfile, abs) == 0 ? abs
                                                                          : c->sshloginfile);
        cluster_put(&t, " --env play --env TIERS --env TIERS_VARIANT_PATH --workdir .");
    }
    cluster_put(&t, " play ::: \"${shards[@]}\" || true\n");
    cluster_put_merge(&t, c, r);
    return cluster_text_take(&t);
}

/* cluster.conf: what `cluster status` reads (one KEY=VALUE a line). */
static char *cluster_conf(const struct cluster_run *r)
{
    struct cluster_text t = {0};
    cluster_put(&t, "kind=%s\nrun=%s\nvariant=%s\ngames=%ld\nshards=%d\n", r->kind,
                r->run.key, r->run.variant, r->games, r->shards);
    return cluster_text_take(&t);
}

/* Writes text (consumed) to DIR/name; an exit code. */
static int cluster_write(const struct cli *c, const struct cluster_run *r, const char *name,
                         char *text, int executable)
{
    char path[PATH_MAX + 64], part[PATH_MAX + 80];
    if (!text) {
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    snprintf(path, sizeof path, "%s/%s", r->dir, name);
    snprintf(part, sizeof part, "%s.part", path);
    FILE *f = fopen(part, "w");
    int ok = f && fputs(text, f) >= 0;
    ok = f && fclose(f) == 0 && ok;
    free(text);
    if (!ok || chmod(part, executable ? 0755 : 0644) != 0 || rename(part, path) != 0) {
        cli_error(c, "cannot write '%s': %s", path, strerror(errno));
        unlink(part);
        return CLI_INTERNAL;
    }
    return CLI_OK;
}

/* Runs submit.sh and prints its job ids; an exit code. */
static int cluster_submit(const struct cli *c, const struct cluster_run *r)
{
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "bash '%s/submit.sh'", r->dir);
    fflush(stdout);
    int st = system(cmd);
    if (st != 0) {
        cli_error(c, "submitting failed (%s/submit.sh exited with status %d)", r->dir, st);
        return CLI_INTERNAL;
    }
    return CLI_OK;
}

static int cluster_generate(struct cli *c, const char *kind)
{
    struct cluster_run r = {.kind = kind};
    int code = cluster_describe(c, &r);
    if (code == CLI_OK && !strcmp(kind, "slurm")) {
        code = cluster_write(c, &r, "playout.sbatch", cluster_slurm_task(c, &r), 1);
        if (code == CLI_OK)
            code = cluster_write(c, &r, "merge.sbatch", cluster_slurm_merge(c, &r), 1);
        if (code == CLI_OK)
            code = cluster_write(c, &r, "submit.sh", cluster_slurm_submit(&r), 1);
    } else if (code == CLI_OK) {
        code = cluster_write(c, &r, "parallel.sh", cluster_parallel_script(c, &r), 1);
    }
    if (code == CLI_OK)
        code = cluster_write(c, &r, CLUSTER_CONF, cluster_conf(&r), 0);
    if (code == CLI_OK) {
        printf("run %s: %ld games of %s in %d shards\nscripts in %s\n", r.run.key, r.games,
               r.run.variant, r.shards, r.dir);
        if (!strcmp(kind, "slurm"))
            printf(c->submit ? "submitting: bash %s/submit.sh\n"
                             : "submit with: bash %s/submit.sh\n", r.dir);
        else
            printf("run with: bash %s/parallel.sh\n", r.dir);
        if (c->submit && !strcmp(kind, "slurm"))
            code = cluster_submit(c, &r);
    }
    free(r.variant_path);
    free(r.playout);
    return code;
}

/* ------------------------------------------------------------ status */

/* The value of key in cluster.conf's text, copied to out; 0 or -1. */
static int cluster_conf_get(const char *text, const char *key, char *out, size_t size)
{
    size_t kl = strlen(key);
    for (const char *line = text; line && *line; line = strchr(line, '\n'), line += !!line)
        if (!strncmp(line, key, kl) && line[kl] == '=') {
            size_t n = strcspn(line + kl + 1, "\n");
            if (n >= size)
                return -1;
            memcpy(out, line + kl + 1, n);
            out[n] = '\0';
            return 0;
        }
    return -1;
}

/* Games of shard k of n among games 0..games-1 (i mod n = k - 1). */
static int64_t cluster_shard_games(int64_t games, int k, int n)
{
    return games >= k ? (games - k) / n + 1 : 0;
}

/* Games of the run in shard k's database: -1 when it cannot be read. */
static int64_t cluster_shard_done(const char *dir, const char *run, int64_t games, int k,
                                  uint8_t *done)
{
    char path[PATH_MAX + 64], err[512];
    snprintf(path, sizeof path, "%s/shards/shard-%d.db", dir, k);
    if (access(path, F_OK) != 0)
        return 0;
    db *d = db_open_read(path, err, sizeof err);
    if (!d)
        return -1;
    memset(done, 0, (size_t)games);
    int64_t n = db_done(d, run, games, done, err, sizeof err);
    db_close(d);
    return n;
}

static int cluster_status(struct cli *c)
{
    char abs[PATH_MAX];
    /* the commands it prints work from anywhere */
    const char *dir = cluster_absolute(c->args[1], abs) == 0 ? abs : c->args[1];
    char path[PATH_MAX + 64], kind[16], run[17], games_text[32], shards_text[16];
    snprintf(path, sizeof path, "%s/" CLUSTER_CONF, dir);
    int code;
    char *conf = cli_slurp(c, path, &code);
    if (!conf)
        return code;
    long games, shards;
    int bad = cluster_conf_get(conf, "kind", kind, sizeof kind) ||
              cluster_conf_get(conf, "run", run, sizeof run) ||
              cluster_conf_get(conf, "games", games_text, sizeof games_text) ||
              cluster_conf_get(conf, "shards", shards_text, sizeof shards_text) ||
              cli_parse_int(games_text, 1, RUN_MAX_GAMES, &games) ||
              cli_parse_int(shards_text, 1, 100000, &shards) || strlen(run) != 16;
    free(conf);
    if (bad) {
        cli_error(c, "%s: not a cluster.conf written by 'tiers cluster'", path);
        return CLI_INPUT;
    }
    uint8_t *done = malloc((size_t)games);
    int *missing = malloc((size_t)shards * sizeof *missing);
    if (!done || !missing) {
        free(done);
        free(missing);
        cli_error(c, "out of memory");
        return CLI_INTERNAL;
    }
    int nmissing = 0;
    int64_t total = 0;
    for (int k = 1; k <= shards; k++) {
        int64_t want = cluster_shard_games(games, k, (int)shards);
        int64_t got = cluster_shard_done(dir, run, games, k, done);
        if (got < want)
            missing[nmissing++] = k;
        total += got > 0 ? got : 0;
    }
    printf("run %s: %ld of %ld shards complete, %lld of %ld games\n", run, shards - nmissing,
           shards, (long long)total, games);
    if (nmissing) {
        printf("missing:");
        for (int i = 0; i < nmissing; i++)
            printf(" %d", missing[i]);
        printf("\nplay them again with: ");
        if (!strcmp(kind, "slurm")) {
            printf("sbatch --array=");
            for (int i = 0; i < nmissing; i++)
                printf("%s%d", i ? "," : "", missing[i]);
            printf(" %s/playout.sbatch\n", dir);
        } else {
            printf("bash %s/parallel.sh", dir);
            for (int i = 0; i < nmissing; i++)
                printf(" %d", missing[i]);
            printf("\n");
        }
    }
    free(done);
    free(missing);
    return nmissing ? CLI_INPUT : CLI_OK;
}

/* ------------------------------------------------------------ command */

int cmd_cluster_run(struct cli *c)
{
    const char *what = c->args[0];
    if (!strcmp(what, "status")) {
        if (c->nargs != 2)
            return cli_usage_error(c, "usage: tiers cluster status DIR");
        return cluster_status(c);
    }
    if (strcmp(what, "slurm") && strcmp(what, "parallel"))
        return cli_usage_error(c, "unknown cluster kind '%s': slurm, parallel or status",
                               what);
    if (c->nargs != 2)
        return cli_usage_error(c, "usage: tiers cluster %s VARIANT [OPTIONS]", what);
    if (c->sshloginfile && strcmp(what, "parallel"))
        return cli_usage_error(c, "--sshloginfile is for 'cluster parallel'");
    if (c->submit && strcmp(what, "slurm"))
        return cli_usage_error(c, "--submit is for 'cluster slurm'");
    return cluster_generate(c, what);
}
