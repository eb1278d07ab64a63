/* serve_watch.c - live reload for `tiers serve` (serve_watch.h).  The
 * folders to watch are found without the loader: the variant's YAML file
 * (a folder's variant.yaml, the file named, or the variant of that name
 * on the search path), then each file its top-level `inherits:` names (a
 * path relative to the folder, or a name on the search path).  Folders,
 * not files, are watched, so that an editor that writes a temporary file
 * and renames it over the old one is seen too. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve_watch.h"

enum { WATCH_MAX_CHAIN = 16, WATCH_DEBOUNCE_MS = 200 };
#define WATCH_EVENTS (IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)

/* One watched folder for one variant (a folder may serve several). */
struct watch_pair {
    int wd, variant;
};

struct serve_watch {
    int fd, stop[2];
    pthread_t thread;
    struct watch_pair *pairs;
    int npairs, cap;
    double *due;            /* per variant: reload at this time, 0 = no */
};

static struct serve_watch watch_state = {.fd = -1, .stop = {-1, -1}};

/* --------------------------------------------------------- the chain */

struct watch_find {
    const char *name;
    char dir[PATH_MAX];
};

static void watch_find_one(const char *name, const char *dir, const char *desc, void *ud)
{
    (void)desc;
    struct watch_find *f = ud;
    if (!f->dir[0] && strcmp(name, f->name) == 0)
        snprintf(f->dir, sizeof f->dir, "%s", dir);
}

/* The YAML file of spec, looked up from folder `base` for a path (NULL:
 * the working folder).  0, or -1 when not found. */
static int watch_yaml_of(const struct serve *S, const char *spec, const char *base,
                         char *out, size_t size)
{
    char path[PATH_MAX];
    int is_path = strchr(spec, '/') || spec[0] == '.' || !base;
    if (base && spec[0] != '/')
        snprintf(path, sizeof path, "%s/%s", base, spec);
    else
        snprintf(path, sizeof path, "%s", spec);
    struct stat sb;
    if (is_path && stat(path, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            snprintf(out, size, "%s/variant.yaml", path);
        else
            snprintf(out, size, "%s", path);
        return 0;
    }
    struct watch_find f = {spec, ""};
    tiers_variants_list(S->c->search, watch_find_one, &f);
    if (!f.dir[0])
        return -1;
    snprintf(out, size, "%s/variant.yaml", f.dir);
    return 0;
}

/* The value of the file's top-level `inherits:`, unquoted, or "". */
static void watch_inherits(const char *yaml, char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen(yaml, "r");
    if (!f)
        return;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "inherits:", 9) != 0)
            continue;
        char *v = line + 9;
        v += strspn(v, " \t\"'");
        size_t n = strcspn(v, "\"'#\r\n");
        while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
            n--;
        snprintf(out, size, "%.*s", (int)n, v);
        break;
    }
    fclose(f);
}

static void watch_dir_of(const char *file, char *out, size_t size)
{
    snprintf(out, size, "%s", file);
    char *slash = strrchr(out, '/');
    if (slash && slash != out)
        *slash = '\0';
    else
        snprintf(out, size, slash ? "/" : ".");
}

static void watch_add(struct serve_watch *w, const char *dir, int variant)
{
    int wd = inotify_add_watch(w->fd, dir, WATCH_EVENTS);
    if (wd < 0)
        return;
    for (int i = 0; i < w->npairs; i++)
        if (w->pairs[i].wd == wd && w->pairs[i].variant == variant)
            return;
    if (w->npairs == w->cap) {
        int cap = w->cap ? w->cap * 2 : 16;
        void *p = realloc(w->pairs, (size_t)cap * sizeof *w->pairs);
        if (!p)
            return;
        w->pairs = p;
        w->cap = cap;
    }
    w->pairs[w->npairs++] = (struct watch_pair){wd, variant};
}

/* Watches every folder of variant i's chain (again: it may have grown). */
static void watch_chain(struct serve *S, struct serve_watch *w, int i)
{
    char yaml[PATH_MAX], dir[PATH_MAX], parent[PATH_MAX];
    if (watch_yaml_of(S, S->variants[i].spec, NULL, yaml, sizeof yaml) != 0)
        return;
    for (int depth = 0; depth < WATCH_MAX_CHAIN; depth++) {
        watch_dir_of(yaml, dir, sizeof dir);
        watch_add(w, dir, i);
        watch_inherits(yaml, parent, sizeof parent);
        if (!parent[0] || watch_yaml_of(S, parent, dir, yaml, sizeof yaml) != 0)
            return;
    }
}

/* ------------------------------------------------------------ checking */

int serve_check_text(const struct serve *S, const char *spec, char *out, size_t size)
{
    tiers_error err;
    char text[1024];
    memset(&err, 0, sizeof err);
    out[0] = '\0';
    tiers_variant *v = tiers_variant_load(spec, S->c->search,
                                          (const char *const *)S->c->rules, &err);
    if (!v) { /* as cli_load_error words it */
        tiers_error_text(&err, text, sizeof text);
        if (!text[0])
            snprintf(text, sizeof text, "cannot load variant");
        if (err.file[0] && strstr(text, spec))
            snprintf(out, size, "%s", text);
        else if (strstr(text, spec))
            snprintf(out, size, "tiers: check: %s", text);
        else
            snprintf(out, size, "tiers: check: %s: %s", spec, text);
        return -1;
    }
    memset(&err, 0, sizeof err);
    tiers_pos *p = tiers_pos_new(v, 0, &err);
    if (!p) { /* as cli_open_pos */
        tiers_error_text(&err, text, sizeof text);
        snprintf(out, size, "tiers: check: %s: start: the start position of %s does not "
                 "read: %s", tiers_variant_path(v), tiers_variant_name(v), text);
    } else { /* as cmd_check: the start's moves run the scripts once */
        char **moves;
        int n;
        int rc = cli_sorted_moves(p, NULL, &moves, &n);
        if (rc < 0)
            snprintf(out, size, "tiers: check: %s: start position: %s", spec,
                     cli_rc_text(v, rc));
        cli_free_strings(moves, n);
    }
    tiers_pos_free(p);
    tiers_variant_free(v);
    return out[0] ? -1 : 0;
}

/* ------------------------------------------------------------ reloading */

static void watch_reload(struct serve *S, struct serve_watch *w, int i)
{
    struct serve_variant *sv = &S->variants[i];
    char text[2048];
    int bad = serve_check_text(S, sv->spec, text, sizeof text);
    pthread_mutex_lock(&S->lock);
    free(sv->error);
    sv->error = bad ? strdup(text) : NULL;
    if (!bad) {
        sv->reloads++;
        serve_reload_sessions(S, sv);
    }
    pthread_mutex_unlock(&S->lock);
    watch_chain(S, w, i);
}

/* Whether an event's file is an editor's scratch file (.x.swp, x~). */
static int watch_scratch(const struct inotify_event *ev)
{
    if (!ev->len)
        return 0;
    size_t n = strlen(ev->name);
    return ev->name[0] == '.' || (n && ev->name[n - 1] == '~');
}

static void watch_read(struct serve_watch *w, double now)
{
    char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
    ssize_t k;
    while ((k = read(w->fd, buf, sizeof buf)) > 0) {
        for (char *q = buf; q < buf + k;) {
            const struct inotify_event *ev = (const struct inotify_event *)q;
            if (!watch_scratch(ev))
                for (int i = 0; i < w->npairs; i++)
                    if (w->pairs[i].wd == ev->wd)
                        w->due[w->pairs[i].variant] = now + WATCH_DEBOUNCE_MS / 1000.0;
            q += sizeof *ev + ev->len;
        }
    }
}

static void *watch_main(void *arg)
{
    struct serve *S = arg;
    struct serve_watch *w = &watch_state;
    for (;;) {
        double now = cli_now(), next = 0;
        for (int i = 0; i < S->nvariants; i++) {
            if (w->due[i] && w->due[i] <= now) {
                w->due[i] = 0;
                watch_reload(S, w, i);
            } else if (w->due[i] && (!next || w->due[i] < next)) {
                next = w->due[i];
            }
        }
        struct pollfd pf[2] = {{w->fd, POLLIN, 0}, {w->stop[0], POLLIN, 0}};
        int timeout = next ? (int)((next - cli_now()) * 1000) + 1 : -1;
        if (poll(pf, 2, timeout < 0 && next ? 0 : timeout) < 0 && errno != EINTR)
            break;
        if (pf[1].revents)
            break;
        if (pf[0].revents)
            watch_read(w, cli_now());
    }
    return NULL;
}

int serve_watch_start(struct serve *S)
{
    struct serve_watch *w = &watch_state;
    w->due = calloc((size_t)S->nvariants + 1, sizeof *w->due);
    w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (!w->due || w->fd < 0 || pipe(w->stop) != 0) {
        cli_error(S->c, "warning: no live reload: %s", strerror(errno));
        serve_watch_stop(S);
        return -1;
    }
    for (int i = 0; i < S->nvariants; i++)
        watch_chain(S, w, i);
    if (pthread_create(&w->thread, NULL, watch_main, S) != 0) {
        cli_error(S->c, "warning: no live reload: cannot start a thread");
        close(w->stop[1]);
        w->stop[1] = -1;
        serve_watch_stop(S);
        return -1;
    }
    return 0;
}

void serve_watch_stop(struct serve *S)
{
    (void)S;
    struct serve_watch *w = &watch_state;
    if (w->stop[1] >= 0) {
        if (write(w->stop[1], "x", 1) == 1)
            pthread_join(w->thread, NULL);
        close(w->stop[1]);
    }
    if (w->stop[0] >= 0)
        close(w->stop[0]);
    if (w->fd >= 0)
        close(w->fd);
    free(w->due);
    free(w->pairs);
    w->fd = w->stop[0] = w->stop[1] = -1;
    w->due = NULL;
    w->pairs = NULL;
    w->npairs = w->cap = 0;
}
