/* serve_agent.h - agents choosing moves for `tiers serve` sessions off
 * the HTTP thread (serve_agent.c): one thread per request, on a variant
 * and position of its own, cancelled by detaching it from its session
 * (which stops its search too). */
#ifndef SERVE_AGENT_H
#define SERVE_AGENT_H

#include "serve.h"

/* Starts an agent of spec for s (S->lock held).  0, or an HTTP status
 * with r filled (a bad spec: 400 with the library's message). */
int serve_agent_start(struct serve *S, struct serve_session *s, const char *spec,
                      struct serve_reply *r);
/* Cancels s's agent, if any: its search is stopped and its move, when it
 * comes, dropped. */
void serve_agent_detach(struct serve_session *s);
/* Agent threads still searching (S->lock held). */
int serve_agent_running(const struct serve *S);
/* Joins the agent threads that have finished (S->lock held). */
void serve_agent_reap(struct serve *S);
/* Waits up to `seconds` for every agent thread, joining those that end
 * (S->lock not held); those still thinking are left to the exit. */
void serve_agent_wait_all(struct serve *S, double seconds);

/* Makes the move `text` (in notation) in s (serve_game.c; S->lock held):
 * 200, or an HTTP status with r filled. */
int serve_session_play_text(struct serve_session *s, const struct serve *S,
                            const char *text, const char *notation,
                            struct serve_reply *r);

#endif
