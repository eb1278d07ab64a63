/* serve_compare.h - comparisons started from the page of `tiers serve`
 * (serve_compare.c): the games of several rulesets played into the --db
 * database in a thread of their own, one comparison per session, with
 * progress, cancel and, at the end, the report `tiers compare --report`
 * writes. */
#ifndef SERVE_COMPARE_H
#define SERVE_COMPARE_H

#include "serve.h"

/* POST /api/compare, GET /api/compare/report, POST /api/compare/cancel
 * (S->lock held). */
int serve_api_compare(struct serve *S, json_t *in, struct serve_reply *r);
int serve_api_compare_cancel(struct serve *S, json_t *in, struct serve_reply *r);
/* The report's HTML (malloc'd), or NULL with r filled. */
char *serve_api_compare_report(struct serve *S, json_t *in, struct serve_reply *r);
/* s's comparison as the state's "compare" field (null when none). */
json_t *serve_compare_json(const struct serve_session *s);
/* Cancels s's comparison and parts it from s (its thread ends soon). */
void serve_compare_detach(struct serve_session *s);
/* Joins finished comparison threads (S->lock held). */
void serve_compare_reap(struct serve *S);
/* Waits up to `seconds` for the comparison threads (S->lock not held). */
void serve_compare_wait_all(struct serve *S, double seconds);

#endif
