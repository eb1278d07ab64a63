/* lab.h - the playout lab: the library the `tiers` program and the tests
 * link to play games between agents, store them (SQLite), read them back
 * as metrics, write game records and the HTML comparison report.  It is
 * built on the public tiers.h only and knows nothing of the command line.
 *
 *   game.h     one game between two agents, move by move
 *   failrec.h  the context and record of a game a runtime error stopped
 *   db.h       the playout database: runs, games, effects
 *   run.h      playing a run's missing games on several threads
 *   stats.h    the metrics of a run (docs/metrics.md)
 *   gamerec.h  game records: reading, rules from their Options tag
 *   report.h   the HTML report of a comparison */
#ifndef LAB_H
#define LAB_H

#include "db.h"
#include "failrec.h"
#include "game.h"
#include "gamerec.h"
#include "report.h"
#include "run.h"
#include "stats.h"

#endif
