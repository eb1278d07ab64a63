/* cmd_merge.c - `tiers merge A.db B.db ... -o OUT.db`: joins playout
 * databases, typically the shards of one run played on several machines.
 * A game is identified by its run and index, so merging the shards of a
 * run gives the database a single unsharded run would have written. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab.h"
#include "jsonw.h"
#include "playout.h"

/* The runs of every input, for the checks made before anything is
 * written. */
struct merge_runs {
    struct db_run *runs;
    const char **files;
    int n, cap, failed;
    const char *file; /* the input being read */
};

static int merge_collect(const struct db_run *run, void *ud)
{
    struct merge_runs *m = ud;
    if (m->n == m->cap) {
        int cap = m->cap ? 2 * m->cap : 8;
        struct db_run *runs = realloc(m->runs, (size_t)cap * sizeof *runs);
        const char **files = runs ? realloc(m->files, (size_t)cap * sizeof *files) : NULL;
        if (runs)
            m->runs = runs;
        if (!files)
            return m->failed = 1;
        m->files = files;
        m->cap = cap;
    }
    m->runs[m->n] = *run;
    m->files[m->n++] = m->file;
    return 0;
}

/* The first field in which two runs differ, or NULL. */
static const char *merge_differs(const struct db_run *a, const struct db_run *b)
{
    return strcmp(a->variant, b->variant) ? "variant"
         : strcmp(a->hash, b->hash) ? "content hash"
         : strcmp(a->options, b->options) ? "options"
         : strcmp(a->agent[0], b->agent[0]) || strcmp(a->agent[1], b->agent[1]) ? "agents"
         : a->seed != b->seed ? "seed"
         : a->max_plies != b->max_plies ? "max plies" : NULL;
}

/* With --run: every run of every input is KEY, else an error naming the
 * file, its run and the first field that differs from KEY's.  Without:
 * a warning for two runs of one variant name that differ only in content
 * hash (the variant changed between them).  An exit code. */
static int merge_check_runs(const struct cli *c, const struct merge_runs *m)
{
    const struct db_run *want = NULL;
    for (int i = 0; i < m->n && c->run; i++)
        if (!strcmp(m->runs[i].key, c->run))
            want = &m->runs[i];
    if (c->run && !want) {
        cli_error(c, "no input holds run %s", c->run);
        return CLI_INPUT;
    }
    for (int i = 0; i < m->n; i++) {
        const struct db_run *r = &m->runs[i];
        if (want && strcmp(r->key, c->run)) {
            const char *field = merge_differs(r, want);
            cli_error(c, "%s holds run %s, not %s: its %s differs", m->files[i], r->key,
                      c->run, field ? field : "key");
            return CLI_INPUT;
        }
        for (int j = 0; j < i && !want; j++) {
            const struct db_run *o = &m->runs[j];
            if (!strcmp(r->variant, o->variant) && strcmp(r->hash, o->hash)) {
                struct db_run same = *r;
                memcpy(same.hash, o->hash, sizeof same.hash);
                if (!merge_differs(&same, o))
                    cli_error(c, "warning: runs %s (%s) and %s (%s) of %s differ only in "
                              "the variant's content hash: it changed between them",
                              o->key, m->files[j], r->key, m->files[i], r->variant);
            }
        }
    }
    return CLI_OK;
}

/* Reads the runs of every input; an exit code (after a message). */
static int merge_read_runs(const struct cli *c, struct merge_runs *m)
{
    char err[1024];
    for (int i = 0; i < c->nargs; i++) {
        /* an input that cannot be read here is left to the merge itself,
           which tells a bad file (2) from a failing disk (3) */
        db *in = db_open_read(c->args[i], err, sizeof err);
        if (!in)
            continue;
        m->file = c->args[i];
        db_runs(in, merge_collect, m, err, sizeof err);
        db_close(in);
        if (m->failed) {
            cli_error(c, "out of memory");
            return CLI_INTERNAL;
        }
    }
    return merge_check_runs(c, m);
}

/* A new -o database is made under a temporary name next to it (created
 * exclusively, never through a link) and linked into place only when
 * every input merged: a failure or a full disk leaves no file at the
 * final name.  NULL with *code after a message. */
static char *merge_temp(const struct cli *c, int *code)
{
    size_t n = strlen(c->output);
    char *tmp = malloc(n + 8);
    if (!tmp) {
        cli_error(c, "out of memory");
        *code = CLI_INTERNAL;
        return NULL;
    }
    snprintf(tmp, n + 8, "%s.XXXXXX", c->output);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cli_error(c, "cannot write '%s': %s", c->output, strerror(errno));
        free(tmp);
        *code = CLI_INTERNAL;
        return NULL;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    return tmp;
}

/* Removes the temporary database (and SQLite's files beside it). */
static void merge_temp_remove(const char *tmp)
{
    static const char *const ext[] = {"", "-wal", "-shm", "-journal"};
    size_t n = strlen(tmp) + 16;
    char *name = malloc(n);
    for (int k = 0; name && k < 4; k++) {
        snprintf(name, n, "%s%s", tmp, ext[k]);
        unlink(name);
    }
    free(name);
}

/* Puts the complete temporary database at the final name, unless a file
 * appeared there meanwhile.  An exit code. */
static int merge_publish(const struct cli *c, const char *tmp)
{
    if (link(tmp, c->output) == 0)
        return CLI_OK;
    if (errno == EEXIST) {
        cli_error(c, "'%s' was created by another process during the merge: not replaced",
                  c->output);
        return CLI_INTERNAL;
    }
    if (rename(tmp, c->output) == 0) /* a file system without hard links */
        return CLI_OK;
    cli_error(c, "cannot write '%s': %s", c->output, strerror(errno));
    return CLI_INTERNAL;
}

int cmd_merge_run(struct cli *c)
{
    if (!c->output)
        return cli_usage_error(c, "missing -o OUT (the database to write)");
    struct stat out_st, in_st;
    int exists = lstat(c->output, &out_st) == 0;
    for (int i = 0; i < c->nargs; i++)
        if (!strcmp(c->args[i], c->output) ||
            (exists && stat(c->output, &out_st) == 0 && stat(c->args[i], &in_st) == 0 &&
             in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino))
            return cli_usage_error(c, "'%s' is both an input and the output %s", c->args[i],
                                   c->output);
    struct merge_runs m = {0};
    int checked = merge_read_runs(c, &m);
    free(m.runs);
    free(m.files);
    if (checked != CLI_OK)
        return checked;
    char err[1024];
    int code = CLI_OK;
    char *tmp = exists ? NULL : merge_temp(c, &code);
    if (!exists && !tmp)
        return code;
    int foreign;
    struct db_migration mig;
    db *d = db_open_migrating(tmp ? tmp : c->output, 1, c->search, &mig, &foreign, err,
                              sizeof err);
    if (d && mig.migrated) { /* an existing schema-1 output: replayed once */
        db_migration_summary(&mig, c->output, err, sizeof err);
        fprintf(stderr, "tiers: %s\n", err);
    }
    if (!d) {
        cli_error(c, "%s", err);
        if (tmp)
            merge_temp_remove(tmp);
        free(tmp);
        /* the temporary file we made failed: a write error (a full disk) */
        return foreign ? CLI_INPUT : CLI_INTERNAL;
    }
    jsonw w;
    if (c->json) {
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "output");
        jsonw_string(&w, c->output);
        jsonw_key(&w, "inputs");
        jsonw_begin_array(&w);
    }
    int64_t total_added = 0;
    for (int i = 0; i < c->nargs; i++) {
        int64_t added, skipped, differ;
        int rc = db_merge(d, c->args[i], &added, &skipped, &differ, err, sizeof err);
        if (rc != 0) {
            cli_error(c, "%s", err);
            code = rc == DB_BAD ? CLI_INPUT : CLI_INTERNAL;
            break;
        }
        total_added += added;
        if (differ)
            cli_error(c, "warning: %lld games of '%s' are already in '%s' with other moves "
                      "(kept the ones there)",
                      (long long)differ, c->args[i], c->output);
        if (c->json) {
            jsonw_begin_object(&w);
            jsonw_key(&w, "file");
            jsonw_string(&w, c->args[i]);
            jsonw_key(&w, "added");
            jsonw_int(&w, added);
            jsonw_key(&w, "duplicates");
            jsonw_int(&w, skipped);
            jsonw_key(&w, "different");
            jsonw_int(&w, differ);
            jsonw_end_object(&w);
        } else {
            printf("%s: %lld games added, %lld already there\n", c->args[i],
                   (long long)added, (long long)skipped);
        }
    }
    if (c->json) {
        jsonw_end_array(&w);
        jsonw_key(&w, "added");
        jsonw_int(&w, total_added);
        jsonw_end_object(&w);
        fputc('\n', stdout);
    } else if (code == CLI_OK) {
        printf("%s: %lld games added in all\n", c->output, (long long)total_added);
    }
    if (tmp && code == CLI_OK && db_checkpoint(d, err, sizeof err) != 0) {
        cli_error(c, "%s", err);
        code = CLI_INTERNAL;
    }
    db_close(d);
    if (tmp) {
        if (code == CLI_OK)
            code = merge_publish(c, tmp);
        merge_temp_remove(tmp);
        free(tmp);
    }
    return code;
}
