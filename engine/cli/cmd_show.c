/* cmd_show.c - `tiers show`: the board as text (or JSON), then the hands
 * and the status; with --merged, the variant's effective YAML instead. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "jsonw.h"

enum {
    CMD_SHOW_TOKEN = 32,                                   /* one piece */
    CMD_SHOW_CELL = TIERS_MAX_TIERS * (CMD_SHOW_TOKEN + 1) /* one tower */
};

/* Tower at (file, rank) as "t1:t2:...", "." when empty. */
static void cmd_show_cell(const tiers_pos *p, int file, int rank, char *out)
{
    int h = tiers_pos_height(p, file, rank);
    size_t len = 0;
    out[0] = '\0';
    if (h <= 0) {
        strcpy(out, ".");
        return;
    }
    if (h > TIERS_MAX_TIERS)
        h = TIERS_MAX_TIERS;
    for (int t = 1; t <= h; t++) {
        char tok[CMD_SHOW_TOKEN];
        if (tiers_pos_piece(p, file, rank, t, tok, sizeof tok) < 0)
            strcpy(tok, "?");
        if (t > 1)
            out[len++] = ':';
        size_t n = strlen(tok);
        memcpy(out + len, tok, n + 1);
        len += n;
    }
}

static void cmd_show_text(const tiers_variant *v, const tiers_pos *p,
                          const char *cells, int files, int ranks)
{
    int width[TIERS_MAX_FILES];
    for (int f = 0; f < files; f++) {
        width[f] = 1;
        for (int r = 0; r < ranks; r++) {
            int n = (int)strlen(cells + ((size_t)r * files + f) *
                                            CMD_SHOW_CELL);
            if (n > width[f])
                width[f] = n;
        }
    }
    printf("%s, ply %d\n\n", tiers_variant_name(v), tiers_pos_ply(p));
    for (int r = ranks - 1; r >= 0; r--) {
        printf("%2d ", r + 1);
        for (int f = 0; f < files; f++) {
            const char *cell = cells + ((size_t)r * files + f) * CMD_SHOW_CELL;
            if (f == files - 1)
                printf(" %s", cell);
            else
                printf(" %-*s", width[f], cell);
        }
        printf("\n");
    }
    printf("   ");
    for (int f = 0; f < files; f++) {
        if (f == files - 1)
            printf(" %c", 'a' + f);
        else
            printf(" %-*c", width[f], 'a' + f);
    }
    printf("\n\n");
}

static void cmd_show_json(const tiers_variant *v, const tiers_pos *p,
                          int files, int ranks, jsonw *w)
{
    jsonw_key(w, "variant");
    jsonw_string(w, tiers_variant_name(v));
    jsonw_key(w, "files");
    jsonw_int(w, files);
    jsonw_key(w, "ranks");
    jsonw_int(w, ranks);
    jsonw_key(w, "ply");
    jsonw_int(w, tiers_pos_ply(p));
    jsonw_key(w, "towers");
    jsonw_begin_array(w);
    for (int r = 0; r < ranks; r++) {
        for (int f = 0; f < files; f++) {
            int h = tiers_pos_height(p, f, r);
            if (h <= 0)
                continue;
            char sq[8];
            jsonw_begin_object(w);
            jsonw_key(w, "square");
            jsonw_string(w, tiers_square_name(f, r, sq));
            jsonw_key(w, "pieces");
            jsonw_begin_array(w);
            for (int t = 1; t <= h && t <= TIERS_MAX_TIERS; t++) {
                char tok[CMD_SHOW_TOKEN];
                int owner = tiers_pos_piece(p, f, r, t, tok, sizeof tok);
                jsonw_begin_object(w);
                jsonw_key(w, "token");
                jsonw_string(w, owner < 0 ? "?" : tok);
                jsonw_key(w, "owner");
                jsonw_int(w, owner);
                jsonw_end_object(w);
            }
            jsonw_end_array(w);
            jsonw_end_object(w);
        }
    }
    jsonw_end_array(w);
}

static int show_merged_run(const struct cli *c);

int cmd_show_run(struct cli *c)
{
    if (c->merged && c->position)
        return cli_usage_error(c, "--merged shows the variant, not a position: no --position");
    if (c->merged)
        return show_merged_run(c);
    int rc;
    tiers_variant *v;
    tiers_pos *p;
    int code = cli_open(c, c->args[0], 0, &v, &p);
    if (!p)
        return code;
    char *cells = NULL, *hands = NULL, *text = NULL;

    int files = tiers_variant_files(v), ranks = tiers_variant_ranks(v);
    if (files < 1 || files > TIERS_MAX_FILES || ranks < 1 ||
        ranks > TIERS_MAX_RANKS) {
        cli_error(c, "%s: bad board size %dx%d", c->args[0], files, ranks);
        code = CLI_INTERNAL;
        goto done;
    }
    cells = malloc((size_t)files * ranks * CMD_SHOW_CELL);
    hands = cli_hands_text(p, &rc);
    if (hands)
        text = cli_pos_text(p, c->notation, &rc);
    if (!cells || !text) {
        cli_error(c, "cannot format the position: %s",
                  cli_code_text(cells ? rc : TIERS_ENOMEM));
        code = CLI_INTERNAL;
        goto done;
    }
    for (int r = 0; r < ranks; r++)
        for (int f = 0; f < files; f++)
            cmd_show_cell(p, f, r,
                          cells + ((size_t)r * files + f) * CMD_SHOW_CELL);
    tiers_status st = tiers_pos_status(p);

    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        jsonw_begin_object(&w);
        jsonw_key(&w, "position");
        jsonw_string(&w, text);
        cmd_show_json(v, p, files, ranks, &w);
        jsonw_key(&w, "hands");
        jsonw_string(&w, hands);
        cli_json_status(&w, v, &st);
        jsonw_end_object(&w);
        fputc('\n', stdout);
    } else {
        cmd_show_text(v, p, cells, files, ranks);
        printf("hands: %s\n", hands[0] ? hands : "-");
        printf("position: %s\n", text);
        cli_print_status(v, &st);
    }
done:
    free(cells);
    free(hands);
    free(text);
    cli_close(v, p);
    return code;
}

/* ------------------------------------------------------------- merged */

/* `show --merged`: the variant's YAML after its inherits chain and the
 * --rule overrides, each key from another file than the variant's own
 * with a "# file:line" comment (--json: every value with its file and
 * line).  The tree is the library's (tiers_yaml_read); an override is
 * shown in `rules:` for an engine rule, as the option's `default:` for an
 * option, marked "# --rule". */
struct show_merged {
    const tiers_variant *v;
    const char *own;           /* the variant's own file */
    const char *const *rules;  /* --rule KEY=VALUE */
    int nrules;
};

/* The --rule value of key (NULL if none): the last one given wins. */
static const char *show_override(const struct show_merged *m, const char *key)
{
    const char *val = NULL;
    size_t n = strlen(key);
    for (int i = 0; i < m->nrules; i++)
        if (!strncmp(m->rules[i], key, n) && m->rules[i][n] == '=')
            val = m->rules[i] + n + 1;
    return val;
}

/* key is one of the variant's options (else an engine rule). */
static int show_is_option(const tiers_variant *v, const char *key)
{
    tiers_rule_info r;
    for (int i = 0; i < tiers_variant_rule_count(v); i++)
        if (tiers_variant_rule_info(v, i, &r) == 0 && r.option && !strcmp(r.key, key))
            return 1;
    return 0;
}

/* The child of a mapping's kids (from first) called key, or NULL. */
static const tiers_yaml_node *show_child(const tiers_yaml_node *first, const char *key)
{
    tiers_yaml_node_info i;
    for (const tiers_yaml_node *n = first; n; n = i.next) {
        tiers_yaml_info(n, &i);
        if (i.key && !strcmp(i.key, key))
            return n;
    }
    return NULL;
}

static void show_scalar(const char *s)
{
    if (!s) {
        fputs("null", stdout);
        return;
    }
    size_t len = strlen(s);
    char *end;
    strtod(s, &end);
    int number = len && *end == '\0';
    int plain = len && (number || !strchr("-?:,[]{}#&*!|>'\"%@` ", *s)) && s[len - 1] != ' ' &&
                s[len - 1] != ':' && !strstr(s, ": ") && !strstr(s, " #") &&
                !strpbrk(s, "\n\t\r");
    if (plain)
        fputs(s, stdout);
    else
        jsonw_quoted(stdout, s); /* a JSON string is a YAML double-quoted one */
}

static void show_from(const struct show_merged *m, const tiers_yaml_node_info *i)
{
    if (i->key && i->file && strcmp(i->file, m->own))
        printf("  # %s:%d", i->file, i->line);
}

/* "key: value  # --rule" for an override. */
static void show_forced(int indent, const char *key, const char *value)
{
    printf("%*s%s: ", indent, "", key);
    show_scalar(value);
    fputs("  # --rule\n", stdout);
}

static void show_node(const struct show_merged *m, const tiers_yaml_node_info *i, int indent,
                      const char *section, const char *option);

/* The entries of a mapping (kids from first), the first one on the
 * current line when inline (a list item).  section: the top-level key
 * they are under ("" at the top), option: the option they describe. */
static void show_map(const struct show_merged *m, const tiers_yaml_node *first, int indent,
                     int inline_first, const char *section, const char *option)
{
    int top = !*section, in_rules = !strcmp(section, "rules") && !option;
    tiers_yaml_node_info i;
    int k = 0;
    for (const tiers_yaml_node *n = first; n; n = i.next, k++) {
        tiers_yaml_info(n, &i);
        int pad = k == 0 && inline_first ? 0 : indent;
        const char *forced = in_rules && !show_is_option(m->v, i.key) ? show_override(m, i.key)
                           : option && !strcmp(i.key, "default") ? show_override(m, option)
                                                                   : NULL;
        if (forced) {
            show_forced(pad, i.key, forced);
            continue;
        }
        printf("%*s%s:", pad, "", i.key);
        const char *opt = !strcmp(section, "options") && !option ? i.key : option;
        show_node(m, &i, indent, top ? i.key : section, top ? NULL : opt);
    }
    if (option && !show_child(first, "default") && show_override(m, option))
        show_forced(indent, "default", show_override(m, option));
    if (!in_rules && !(top && !show_child(first, "rules")))
        return;
    /* engine rules set with --rule that the YAML leaves out */
    int header = top;
    for (int r = 0; r < m->nrules; r++) {
        char key[64];
        size_t len = strcspn(m->rules[r], "=");
        if (len >= sizeof key)
            continue;
        memcpy(key, m->rules[r], len);
        key[len] = '\0';
        if (show_is_option(m->v, key) || (in_rules && show_child(first, key)) ||
            strcmp(show_override(m, key), m->rules[r] + len + 1))
            continue; /* an option, in the YAML, or given again later */
        if (header)
            printf("rules:  # --rule\n");
        header = 0;
        show_forced(top ? 2 : indent, key, m->rules[r] + len + 1);
    }
}

/* A list's items (kids from first). */
static void show_seq(const struct show_merged *m, const tiers_yaml_node *first, int indent,
                     const char *section)
{
    tiers_yaml_node_info i;
    for (const tiers_yaml_node *n = first; n; n = i.next) {
        tiers_yaml_info(n, &i);
        printf("%*s-", indent, "");
        if (i.kind == TIERS_YAML_MAP && i.kids) {
            putchar(' ');
            show_map(m, i.kids, indent + 2, 1, section, NULL);
        } else {
            show_node(m, &i, indent, section, NULL);
        }
    }
}

/* After "key:" or "-": the value (scalars on the line, the rest below). */
static void show_node(const struct show_merged *m, const tiers_yaml_node_info *i, int indent,
                      const char *section, const char *option)
{
    if (i->kind == TIERS_YAML_SCALAR && i->value && strchr(i->value, '\n')) {
        size_t len = strlen(i->value);
        printf(" |%s", i->value[len - 1] == '\n' ? "" : "-");
        show_from(m, i);
        putchar('\n');
        for (const char *line = i->value; *line;) {
            int k = (int)strcspn(line, "\n");
            printf("%*s%.*s\n", k ? indent + 2 : 0, "", k, line);
            line += k + (line[k] == '\n');
        }
        return;
    }
    if (i->kind == TIERS_YAML_SCALAR || !i->kids) {
        putchar(' ');
        if (i->kind == TIERS_YAML_SCALAR)
            show_scalar(i->value);
        else
            fputs(i->kind == TIERS_YAML_MAP ? "{}" : "[]", stdout);
        show_from(m, i);
        putchar('\n');
        return;
    }
    show_from(m, i);
    putchar('\n');
    if (i->kind == TIERS_YAML_MAP)
        show_map(m, i->kids, indent + 2, 0, section, option);
    else
        show_seq(m, i->kids, indent + 2, section);
}

/* --json: mappings as objects, lists as arrays, each scalar as
 * {"value", "file", "line"} (overrides: file "--rule", line 0). */
static void show_json_node(const struct show_merged *m, jsonw *w, const tiers_yaml_node_info *i,
                           const char *forced)
{
    if (i->kind == TIERS_YAML_SCALAR || forced) {
        jsonw_begin_object(w);
        jsonw_key(w, "value");
        jsonw_string(w, forced ? forced : i->value);
        jsonw_key(w, "file");
        jsonw_string(w, forced ? "--rule" : i->file);
        jsonw_key(w, "line");
        jsonw_int(w, forced ? 0 : i->line);
        jsonw_end_object(w);
        return;
    }
    tiers_yaml_node_info k;
    i->kind == TIERS_YAML_MAP ? jsonw_begin_object(w) : jsonw_begin_array(w);
    for (const tiers_yaml_node *n = i->kids; n; n = k.next) {
        tiers_yaml_info(n, &k);
        if (i->kind == TIERS_YAML_MAP)
            jsonw_key(w, k.key);
        show_json_node(m, w, &k, NULL);
    }
    i->kind == TIERS_YAML_MAP ? jsonw_end_object(w) : jsonw_end_array(w);
}

static int show_merged_run(const struct cli *c)
{
    tiers_variant *v;
    int code = cli_open(c, c->args[0], 0, &v, NULL); /* checks the --rule values */
    if (!v)
        return code;
    tiers_error err;
    tiers_yaml *y = tiers_yaml_read(tiers_variant_path(v), c->search, &err);
    if (!y) {
        char text[1200];
        cli_error(c, "%s", tiers_error_text(&err, text, sizeof text));
        cli_close(v, NULL);
        return CLI_INPUT;
    }
    struct show_merged m = {v, tiers_variant_path(v), (const char *const *)c->rules,
                            c->nrules};
    tiers_yaml_node_info root;
    tiers_yaml_info(tiers_yaml_root(y), &root);
    if (c->json) {
        jsonw w;
        jsonw_init(&w, stdout);
        show_json_node(&m, &w, &root, NULL);
        fputc('\n', stdout);
    } else {
        printf("# %s: %s, inherits merged%s; '# file:line' marks what another file gives\n",
               tiers_variant_name(v), m.own, c->nrules ? ", --rule applied" : "");
        show_map(&m, root.kids, 0, 0, "", NULL);
    }
    tiers_yaml_free(y);
    cli_close(v, NULL);
    return CLI_OK;
}
