/* serve_watch.h - live reload for `tiers serve` (serve_watch.c): inotify
 * on every folder of each served variant's inherits chain; 200 ms after
 * the last change the variant is checked as `tiers check` checks it and,
 * when it loads, every session of it is brought to the new files. */
#ifndef SERVE_WATCH_H
#define SERVE_WATCH_H

#include "serve.h"

/* Starts the watcher thread (S->lock not held).  0, or -1 after a message
 * (no inotify: the server runs without reload). */
int serve_watch_start(struct serve *S);
/* Stops and joins it. */
void serve_watch_stop(struct serve *S);

/* The text `tiers check SPEC` prints on stderr for sv's files as they are
 * now, into out; 0 when they load (out = ""), -1 otherwise. */
int serve_check_text(const struct serve *S, const char *spec, char *out, size_t size);

#endif
