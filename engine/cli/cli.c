/* cli.c - helpers shared by the commands of the `tiers` program. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <time.h>

/* The library names an unknown agent as "agent 'NAME...': unknown agent
 * (known: a, b, c)": whatever command printed it, a "did you mean"
 * follows (the names from the message itself, so the list stays the
 * library's). */
static void cli_suggest_agent(const char *msg)
{
    const char *at = strstr(msg, "agent '"), *known = strstr(msg, "unknown agent (known: ");
    if (!at || !known)
        return;
    char name[64], list[256];
    const char *names[16];
    at += strlen("agent '");
    size_t len = strcspn(at, "':");
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), at);
    known += strlen("unknown agent (known: ");
    snprintf(list, sizeof list, "%.*s", (int)strcspn(known, ")"), known);
    int n = 0;
    for (char *save = NULL, *w = strtok_r(list, ", ", &save); w && n < 16;
         w = strtok_r(NULL, ", ", &save))
        names[n++] = w;
    cli_did_you_mean(name, names, n);
}

static void cli_vmessage(const struct cli *c, const char *fmt, va_list ap)
{
    char small[1024], *msg = small;
    va_list again;
    va_copy(again, ap);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    if (len >= (int)sizeof small && (msg = malloc((size_t)len + 1)) != NULL)
        vsnprintf(msg, (size_t)len + 1, fmt, again);
    va_end(again);
    fputs("tiers: ", stderr);
    if (c && c->cmd)
        fprintf(stderr, "%s: ", c->cmd->name);
    fprintf(stderr, "%s\n", msg ? msg : small); /* out of memory: the message cut */
    cli_suggest_agent(msg ? msg : small);
    if (msg != small)
        free(msg);
}

void cli_error(const struct cli *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage(c, fmt, ap);
    va_end(ap);
}

int cli_usage_error(const struct cli *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cli_vmessage(c, fmt, ap);
    va_end(ap);
    fputs("try 'tiers --help'\n", stderr);
    return CLI_USAGE;
}

int cli_exit_for(int rc)
{
    switch (rc) {
    case TIERS_EINPUT:
    case TIERS_EILLEGAL:
        return CLI_INPUT;
    default:
        return rc < 0 ? CLI_INTERNAL : CLI_OK;
    }
}

const char *cli_code_text(int rc)
{
    switch (rc) {
    case TIERS_OK: return "ok";
    case TIERS_EUSAGE: return "bad argument to the library";
    case TIERS_EINPUT: return "invalid input";
    case TIERS_EILLEGAL: return "illegal move";
    case TIERS_ESCRIPT: return "variant script failed";
    case TIERS_ENOMEM: return "out of memory";
    case TIERS_EFULL: /* (the commands size game histories to fit) */
        return "more legal moves than tiers supports (4096), or a scripted move that "
               "changes too many squares";
    default: return "unknown error";
    }
}

const char *cli_rc_text(const tiers_variant *v, int rc)
{
    static char buf[1024];
    const char *script = v && rc == TIERS_ESCRIPT
                             ? tiers_variant_script_error(v) : NULL;
    if (!script || !script[0])
        return cli_code_text(rc);
    snprintf(buf, sizeof buf, "%s: %s", cli_code_text(rc), script);
    return buf;
}

void cli_did_you_mean(const char *word, const char *const *names, int n)
{
    char near[200];
    if (tiers_suggest(word, names, n, near, sizeof near) > 0)
        fprintf(stderr, "tiers: did you mean %s?\n", near);
}

struct cli_names {
    const char *names[256];
    int n;
};

static void cli_collect_name(const char *name, const char *dir, const char *desc, void *ud)
{
    struct cli_names *list = ud;
    (void)dir;
    (void)desc;
    if (list->n < 256)
        list->names[list->n++] = strdup(name);
}

void cli_suggest_variant(const struct cli *c, const char *spec)
{
    struct stat st;
    char path[4096];
    snprintf(path, sizeof path, "%s/variant.yaml", spec);
    /* a bare name is looked up on the variant path, never in the current
       folder: a folder here needs ./ */
    if (!strchr(spec, '/') && stat(path, &st) == 0) {
        fprintf(stderr, "tiers: did you mean ./%s? (a folder here is named with ./)\n",
                spec);
        return;
    }
    struct cli_names list = {.n = 0};
    tiers_variants_list(c ? c->search : NULL, cli_collect_name, &list);
    cli_did_you_mean(spec, list.names, list.n);
    for (int i = 0; i < list.n; i++)
        free((char *)list.names[i]);
}

/* Prints a load error so that it names the offending spec.  An error
 * placed in a file is printed as `file:line:col: message`, the form
 * editors jump to; any other (a variant not found, a bad --rule) as
 * every command's errors, `tiers: COMMAND: ...`. */
void cli_load_error(const struct cli *c, const char *spec, const tiers_error *err)
{
    char text[2048];
    tiers_error_text(err, text, sizeof text);
    if (text[0] == '\0')
        snprintf(text, sizeof text, "cannot load variant");
    if (err->file[0] && strstr(text, spec))
        fprintf(stderr, "%s\n", text);
    else if (strstr(text, spec))
        cli_error(c, "%s", text);
    else
        cli_error(c, "%s: %s", spec, text);
    if (strstr(text, "rule")) /* a rule or option the variant lacks, or a bad value */
        fprintf(stderr, "tiers: 'tiers options %s' lists every rule and option\n", spec);
    else if (strstr(text, "not found"))
        cli_suggest_variant(c, spec);
}

static tiers_variant *cli_load_rules(const struct cli *c, const char *spec,
                                     const char *const *rules, tiers_error *err)
{
    memset(err, 0, sizeof *err);
    return tiers_variant_load(spec, c->search, rules ? rules : (const char *const *)c->rules,
                              err);
}

tiers_variant *cli_load_variant(const struct cli *c, const char *spec,
                                int *code)
{
    tiers_error err;
    tiers_variant *v = cli_load_rules(c, spec, NULL, &err);
    if (!v) {
        cli_load_error(c, spec, &err);
        *code = CLI_INPUT;
    }
    return v;
}

int cli_check_notation(const struct cli *c, const tiers_variant *v)
{
    if (!c->notation || strcmp(c->notation, "tiers") == 0)
        return CLI_OK;
    const char *const *names = tiers_variant_notations(v);
    for (int i = 0; names && names[i]; i++)
        if (strcmp(names[i], c->notation) == 0)
            return CLI_OK;
    fprintf(stderr, "tiers: %s: unknown notation '%s' for %s (known: tiers",
            c->cmd->name, c->notation, tiers_variant_name(v));
    for (int i = 0; names && names[i]; i++)
        fprintf(stderr, ", %s", names[i]);
    fputs(")\n", stderr);
    return CLI_INPUT;
}

tiers_pos *cli_open_pos(const struct cli *c, const tiers_variant *v,
                        int history, int *code)
{
    tiers_error err;
    char text[1024];
    memset(&err, 0, sizeof err);
    tiers_pos *p = tiers_pos_new(v, history, &err);
    if (!p) {
        tiers_error_text(&err, text, sizeof text);
        if (!text[0] || !strcmp(text, "out of memory")) {
            cli_error(c, "cannot create a position for %s: out of memory",
                      tiers_variant_name(v));
            *code = CLI_INTERNAL;
        } else if (err.line > 0) { /* the variant's start: at its place */
            cli_error(c, "%s:%d:%d: start: the start position of %s does not read: %s",
                      err.file, err.line, err.col, tiers_variant_name(v), err.msg);
            *code = CLI_INPUT;
        } else { /* the variant's start: does not read (bad input) */
            const char *file = tiers_variant_path(v);
            cli_error(c, "%s: start: the start position of %s does not read: %s",
                      file && file[0] ? file : tiers_variant_name(v), tiers_variant_name(v),
                      text);
            *code = CLI_INPUT;
        }
        return NULL;
    }
    if (c->position) {
        memset(&err, 0, sizeof err);
        int rc = tiers_pos_parse(p, c->position, c->notation, &err);
        if (rc < 0) {
            tiers_error_text(&err, text, sizeof text);
            cli_error(c, "bad position '%s': %s", c->position,
                      text[0] ? text : cli_rc_text(v, rc));
            tiers_pos_free(p);
            *code = cli_exit_for(rc) == CLI_INTERNAL ? CLI_INTERNAL
                                                     : CLI_INPUT;
            return NULL;
        }
    }
    return p;
}

int cli_open(const struct cli *c, const char *spec, int history, tiers_variant **v,
             tiers_pos **p)
{
    struct cli_open_how how = {.history = history};
    return cli_open_how(c, spec, &how, v, p);
}

int cli_open_how(const struct cli *c, const char *spec, const struct cli_open_how *how,
                 tiers_variant **v, tiers_pos **p)
{
    tiers_error err;
    int code = CLI_OK;
    if (p)
        *p = NULL;
    *v = cli_load_rules(c, spec, how->rules, &err);
    if (how->loaded)
        code = how->loaded(c, spec, *v, &err, how->ud);
    else if (!*v)
        cli_load_error(c, spec, &err);
    if (!*v)
        return code != CLI_OK ? code : CLI_INPUT;
    if (code == CLI_OK)
        code = cli_check_notation(c, *v);
    if (code == CLI_OK && p)
        *p = cli_open_pos(c, *v, how->history, &code);
    if (code != CLI_OK) {
        tiers_variant_free(*v);
        *v = NULL;
    }
    return code;
}

void cli_close(tiers_variant *v, tiers_pos *p)
{
    tiers_pos_free(p);
    tiers_variant_free(v);
}

/* "PATH:LINE:COL" of byte `at` of text (lines and columns from 1,
 * columns in bytes). */
static void cli_where(const char *path, const char *text, size_t at, char *out, size_t size)
{
    long line = 1;
    size_t start = 0;
    for (size_t k = 0; k < at; k++)
        if (text[k] == '\n') {
            line++;
            start = k + 1;
        }
    snprintf(out, size, "%s:%ld:%zu", path, line, at - start + 1);
}

char *cli_slurp(const struct cli *c, const char *path, int *code)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
    *code = CLI_INPUT;
    if (!f) {
        cli_error(c, "%s: %s", path, strerror(errno));
        return NULL;
    }
    /* read one byte past the limit, to tell a file at the limit from one
       over it, and never more (/dev/zero ends here) */
    size_t len = 0, cap = 4096, most = (size_t)TIERS_RECORD_MAX_BYTES + 1;
    char *buf = malloc(cap);
    for (size_t n; buf && len < most &&
                   (n = fread(buf + len, 1, (cap - len - 1 < most - len ? cap - len - 1
                                                                         : most - len),
                              f)) > 0;) {
        len += n;
        if (len + 1 == cap) {
            char *more = realloc(buf, cap *= 2);
            if (!more)
                free(buf);
            buf = more;
        }
    }
    int bad = !buf || ferror(f);
    if (f != stdin)
        fclose(f);
    if (bad) {
        cli_error(c, "%s: %s", path, buf ? "read error" : "out of memory");
        if (!buf)
            *code = CLI_INTERNAL;
        free(buf);
        return NULL;
    }
    if (len > (size_t)TIERS_RECORD_MAX_BYTES) {
        cli_error(c, "%s: over %d bytes (16 MiB, the limit of a record)", path,
                  TIERS_RECORD_MAX_BYTES);
        free(buf);
        return NULL;
    }
    const char *nul = memchr(buf, '\0', len);
    if (nul) {
        char where[1200];
        cli_where(path, buf, (size_t)(nul - buf), where, sizeof where);
        cli_error(c, "%s: a NUL byte (byte %zu of the file)", where, (size_t)(nul - buf) + 1);
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    *code = CLI_OK;
    return buf;
}

int cli_read_line(FILE *f, char *buf, size_t *len)
{
    size_t n = 0;
    int ch;
    while ((ch = getc(f)) != EOF && ch != '\n') {
        if (n == CLI_MAX_LINE) {
            *len = n;
            return CLI_LINE_LONG;
        }
        buf[n++] = (char)ch;
    }
    buf[n] = '\0';
    *len = n;
    if (ch == EOF && ferror(f))
        return CLI_LINE_ERROR;
    return ch == EOF && n == 0 ? 0 : 1;
}

int cli_line_check(const struct cli *c, const char *file, long lineno, int rc,
                   const char *buf, size_t len)
{
    if (rc == CLI_LINE_LONG) {
        cli_error(c, "%s:%ld: line over %d bytes (64 KiB, the limit of an input line)", file,
                  lineno, CLI_MAX_LINE);
        return CLI_INPUT;
    }
    if (rc == CLI_LINE_ERROR) {
        cli_error(c, "%s:%ld: read error: %s", file, lineno, strerror(errno));
        return CLI_INPUT;
    }
    const char *nul = rc > 0 ? memchr(buf, '\0', len) : NULL;
    if (nul) {
        cli_error(c, "%s:%ld:%zu: a NUL byte", file, lineno, (size_t)(nul - buf) + 1);
        return CLI_INPUT;
    }
    return CLI_OK;
}

/* The library's text writers return the length (or a negative code); a
 * result that filled the buffer, or TIERS_EFULL, means "try a bigger one". */
enum { CLI_TEXT_START = 512, CLI_TEXT_MAX = 1 << 24 };

typedef int (*cli_writer)(const void *a, const void *b, const char *n,
                          char *buf, size_t size);

static int cli_w_pos(const void *a, const void *b, const char *n, char *buf,
                     size_t size)
{
    (void)b;
    return tiers_pos_format(a, n, buf, size);
}

static int cli_w_hands(const void *a, const void *b, const char *n,
                       char *buf, size_t size)
{
    (void)b;
    (void)n;
    return tiers_pos_hands(a, buf, size);
}

static int cli_w_move(const void *a, const void *b, const char *n, char *buf,
                      size_t size)
{
    return tiers_move_format(a, b, n, buf, size);
}

static char *cli_text(cli_writer fn, const void *a, const void *b,
                      const char *notation, int *rc)
{
    size_t size = CLI_TEXT_START;
    for (;;) {
        char *buf = malloc(size);
        if (!buf) {
            *rc = TIERS_ENOMEM;
            return NULL;
        }
        buf[0] = '\0';
        int n = fn(a, b, notation, buf, size);
        int full = n == TIERS_EFULL || (n >= 0 && (size_t)n >= size - 1);
        if (n >= 0 && !full) {
            *rc = TIERS_OK;
            return buf;
        }
        free(buf);
        if (!full || size >= CLI_TEXT_MAX) {
            *rc = n < 0 ? n : TIERS_EFULL;
            return NULL;
        }
        size *= 4;
    }
}

char *cli_pos_text(const tiers_pos *p, const char *notation, int *rc)
{
    return cli_text(cli_w_pos, p, NULL, notation, rc);
}

char *cli_hands_text(const tiers_pos *p, int *rc)
{
    return cli_text(cli_w_hands, p, NULL, NULL, rc);
}

char *cli_move_text(const tiers_pos *p, const tiers_move *m,
                    const char *notation, int *rc)
{
    return cli_text(cli_w_move, p, m, notation, rc);
}

int cli_strcmp_ptr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void cli_free_strings(char **s, int n)
{
    if (!s)
        return;
    for (int i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

int cli_sorted_moves(tiers_pos *p, const char *notation, char ***out, int *n)
{
    return cli_sorted_moves_status(p, notation, out, n, NULL);
}

int cli_parse_square(const tiers_variant *v, const char *text)
{
    char name[8];
    for (int r = 0; text && r < tiers_variant_ranks(v); r++)
        for (int f = 0; f < tiers_variant_files(v); f++)
            if (!strcmp(tiers_square_name(f, r, name), text))
                return r * 16 + f;
    return -1;
}

int cli_move_touches(const tiers_pos *p, const tiers_move *m, int square)
{
    if (square < 0)
        return 1;
    int file = square % 16, rank = square / 16;
    if (tiers_pos_height(p, file, rank) <= 0)
        return m->kind == TIERS_MV_DROP && m->to == square;
    return m->kind != TIERS_MV_DROP && m->kind != TIERS_MV_READY && m->from == square;
}

int cli_sorted_moves_status(tiers_pos *p, const char *notation, char ***out, int *n,
                            tiers_status *st)
{
    return cli_sorted_moves_from(p, notation, -1, out, n, st);
}

int cli_sorted_moves_from(tiers_pos *p, const char *notation, int square, char ***out,
                          int *n, tiers_status *st)
{
    *out = NULL;
    *n = 0;
    tiers_move *moves = malloc(sizeof *moves * TIERS_MAX_MOVES);
    if (!moves)
        return TIERS_ENOMEM;
    int count = st ? tiers_pos_status_moves(p, moves, TIERS_MAX_MOVES, st)
                   : tiers_pos_legal_moves(p, moves, TIERS_MAX_MOVES);
    if (count < 0) {
        free(moves);
        return count;
    }
    char **text = calloc((size_t)count + 1, sizeof *text);
    if (!text) {
        free(moves);
        return TIERS_ENOMEM;
    }
    int kept = 0;
    for (int i = 0; i < count; i++) {
        int rc;
        if (!cli_move_touches(p, &moves[i], square))
            continue;
        text[kept] = cli_move_text(p, &moves[i], notation, &rc);
        if (!text[kept]) {
            cli_free_strings(text, kept);
            free(moves);
            return rc;
        }
        kept++;
    }
    free(moves);
    count = kept;
    qsort(text, (size_t)count, sizeof *text, cli_strcmp_ptr);
    *out = text;
    *n = count;
    return TIERS_OK;
}

const char *cli_result_text(tiers_result r)
{
    switch (r) {
    case TIERS_WIN_0: return "1-0";
    case TIERS_WIN_1: return "0-1";
    case TIERS_DRAW: return "1/2-1/2";
    default: return NULL;
    }
}

const char *cli_side_name(const tiers_variant *v, int side, char buf[16])
{
    const char *name = tiers_variant_side_name(v, side);
    if (name && name[0])
        return name;
    snprintf(buf, 16, "side %d", side);
    return buf;
}

void cli_print_status(const tiers_variant *v, const tiers_status *st)
{
    char side[16];
    const char *result = cli_result_text(st->result);
    printf("side to move: %s\n", cli_side_name(v, st->side_to_move, side));
    printf("phase: %s\n", st->setup ? "setup" : "play");
    printf("in check: %s\n", st->in_check ? "yes" : "no");
    printf("game over: %s\n", st->game_over ? "yes" : "no");
    printf("result: %s\n", result ? result : "*");
    printf("reason: %s\n", st->reason && st->reason[0] ? st->reason : "-");
}

void cli_json_status(jsonw *w, const tiers_variant *v,
                     const tiers_status *st)
{
    char side[16];
    jsonw_key(w, "side_to_move");
    jsonw_string(w, cli_side_name(v, st->side_to_move, side));
    jsonw_key(w, "setup");
    jsonw_bool(w, st->setup);
    jsonw_key(w, "in_check");
    jsonw_bool(w, st->in_check);
    jsonw_key(w, "game_over");
    jsonw_bool(w, st->game_over);
    jsonw_key(w, "result");
    jsonw_string(w, cli_result_text(st->result));
    jsonw_key(w, "reason");
    jsonw_string(w, st->reason ? st->reason : "");
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int cli_parse_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end != '\0' || !isfinite(v) || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int cli_finish_output(const struct cli *c, int code)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error(c, "error writing the output: %s", strerror(errno));
        return CLI_INTERNAL;
    }
    return code;
}

int cli_check_report(const struct cli *c)
{
    if (!c->report)
        return CLI_OK;
    struct stat sb;
    int existed = stat(c->report, &sb) == 0;
    FILE *f = fopen(c->report, "a");
    if (!f) {
        cli_error(c, "cannot write the report '%s': %s", c->report, strerror(errno));
        return CLI_INTERNAL;
    }
    fclose(f);
    if (!existed)
        unlink(c->report);
    return CLI_OK;
}
