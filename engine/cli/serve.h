/* serve.h - the parts of `tiers serve` shared by its files: the served
 * variants, the sessions (one game each, with its own loaded variant) and
 * the game operations the JSON API calls (serve_game.c), the editor's
 * (serve_edit.c), the HTTP front (cmd_serve.c) and the embedded page
 * (serve_page.c, generated); agents, comparisons and live reload have
 * headers of their own (serve_agent.h, serve_compare.h, serve_watch.h). */
#ifndef SERVE_H
#define SERVE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cli.h"

enum {
    SERVE_MAX_SESSIONS = 32,
    SERVE_IDLE_SECONDS = 30 * 60,
    SERVE_MAX_BODY = 1024 * 1024,
    SERVE_ID_CHARS = 32
};

/* A variant named on the command line (or found on the search path).
 * `error` and `reloads` change on a reload (serve_watch.c, under
 * S->lock). */
struct serve_variant {
    char *spec;   /* what tiers_variant_load is given */
    char *name;
    char *desc;
    char *error;  /* the text `tiers check SPEC` prints for its files now,
                     NULL while they load */
    int reloads;  /* successful reloads since the start */
};

/* One ply of a session's game, as played. */
struct serve_ply {
    tiers_move move;
    char text[128];     /* in the served notation */
    int number, side;   /* move number and mover before it was made */
    uint32_t fired;     /* effects that fired in it, bit i = effect i */
};

struct serve_job;
struct serve_compare;

/* A game: its own variant (so sessions never share Lua state), the start
 * and the plies, those past nplies being the ones undo took back. */
struct serve_session {
    char id[SERVE_ID_CHARS + 1];
    const struct serve_variant *sv;
    tiers_variant *v;
    tiers_pos *p;
    char *start;               /* tiers text of a pasted start, or NULL */
    struct serve_ply *plies;
    int nplies, ntotal, cap;   /* played, played + redoable, allocated */
    double last_used;
    struct serve_job *job;     /* the agent thinking for it, or NULL */
    char agent_error[256];     /* the last agent's failure, "" if none */
    int reloads;               /* sv->reloads its variant was loaded at */
    json_t *reload;            /* what the last reload did to the game
                                  ({"ply", "move", "error", "kept"} when
                                  it broke it), or NULL */
    struct serve_compare *compare; /* its comparison, or NULL */
};

/* The server's state.  `lock` guards the sessions and the jobs: the HTTP
 * thread and the agents' threads take it. */
struct serve {
    const struct cli *c;
    struct serve_variant *variants;
    int nvariants;
    struct serve_session *sessions[SERVE_MAX_SESSIONS];
    double idle_seconds;
    struct serve_job *jobs;    /* every agent thread not yet joined */
    struct serve_compare *compares; /* every comparison not yet joined */
    const char *db;            /* --db, default tiers.db */
    pthread_mutex_t lock;
    char token[SERVE_ID_CHARS + 1];
    char host[300];            /* the Host a request must name */
    char origin[310];          /* "http://" + host */
};

/* An API answer: the HTTP status and a JSON object (owned). */
struct serve_reply {
    int status;
    json_t *json;
};

/* Fills r with status and {"error": message}; returns status. */
int serve_fail(struct serve_reply *r, int status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Random hex (n chars + NUL) from the system's random source; 0 or -1. */
int serve_random_hex(char *out, int n);

/* The API's game operations (serve_game.c); each takes S->lock held,
 * fills *r and returns its status.  `in` is the request's JSON object
 * (POST) or one built from the query (GET). */
int serve_api_variants(struct serve *S, struct serve_reply *r);
int serve_api_new(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_close(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_state(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_moves(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_move(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_undo(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_redo(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_agent(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_cancel(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_get_position(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_set_position(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_get_record(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_set_record(struct serve *S, json_t *in, struct serve_reply *r);
/* The session's picture (SVG text, malloc'd) for GET /api/svg; NULL with
 * r filled on failure. */
char *serve_api_svg(struct serve *S, json_t *in, struct serve_reply *r);

int serve_api_reload_ack(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_position_check(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_editor(struct serve *S, json_t *in, struct serve_reply *r);

/* The session named by in's "session" field (its idle clock reset); NULL
 * with r filled. */
struct serve_session *serve_find(struct serve *S, json_t *in, struct serve_reply *r);
/* A string field of in, or NULL. */
const char *serve_field(json_t *in, const char *key);
/* Brings every session of sv to sv's files as they are now (S->lock
 * held): a fresh variant for each, its game replayed move by move; a move
 * no longer legal ends the game there and s->reload says so. */
void serve_reload_sessions(struct serve *S, struct serve_variant *sv);

/* Drops sessions idle too long and joins finished agent threads. */
void serve_sweep(struct serve *S);
/* At the end: cancels the agents, waits a little for them, frees the
 * sessions (S->lock not held). */
void serve_shutdown(struct serve *S);

/* The page (serve_page.c, generated from engine/cli/web/studio.html). */
extern const unsigned char serve_page[];
extern const size_t serve_page_size;

#endif
