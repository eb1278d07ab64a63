/* compare_diffs.c - the "tests" object of `tiers compare --json`: every
 * test of the family (engine/lab/diffs.c) with its raw and Holm-adjusted
 * p-value and the games an undecided one needs. */
#include "compare_diffs.h"

static void compare_diffs_test(jsonw *w, const struct diffs_test *t,
                               const struct playout_variant *v)
{
    jsonw_begin_object(w);
    jsonw_key(w, "kind");
    jsonw_string(w, t->b < 0 ? "first_mover" : "difference");
    jsonw_key(w, "row");
    jsonw_string(w, t->row);
    jsonw_key(w, "a");
    jsonw_string(w, v[t->a].label);
    jsonw_key(w, "count_a");
    jsonw_int(w, t->ka);
    jsonw_key(w, "of_a");
    jsonw_int(w, t->na);
    if (t->b >= 0) {
        jsonw_key(w, "b");
        jsonw_string(w, v[t->b].label);
        jsonw_key(w, "count_b");
        jsonw_int(w, t->kb);
        jsonw_key(w, "of_b");
        jsonw_int(w, t->nb);
        jsonw_key(w, "difference");
        jsonw_double(w, (double)t->ka / (double)t->na - (double)t->kb / (double)t->nb, 4);
        jsonw_key(w, "low");
        jsonw_double(w, t->lo, 4);
        jsonw_key(w, "high");
        jsonw_double(w, t->hi, 4);
    }
    jsonw_key(w, "p");
    jsonw_double_g(w, t->p);
    jsonw_key(w, "p_adjusted");
    jsonw_double_g(w, t->p_adj);
    jsonw_key(w, "significant");
    jsonw_bool(w, t->significant);
    jsonw_key(w, "needs");
    if (t->needs <= DIFFS_NEEDS_MAX)
        jsonw_int(w, (long long)t->needs);
    else
        jsonw_null(w);
    jsonw_end_object(w);
}

void compare_diffs_json(jsonw *w, const struct diffs *d, const struct playout_variant *v)
{
    jsonw_key(w, "tests");
    jsonw_begin_object(w);
    jsonw_key(w, "method");
    jsonw_string(w, "holm");
    jsonw_key(w, "alpha");
    jsonw_double(w, d->alpha, 2);
    jsonw_key(w, "power");
    jsonw_double(w, DIFFS_POWER, 2);
    jsonw_key(w, "family");
    jsonw_int(w, d->m);
    jsonw_key(w, "list");
    jsonw_begin_array(w);
    for (int i = 0; i < d->m; i++)
        compare_diffs_test(w, &d->t[i], v);
    jsonw_end_array(w);
    jsonw_end_object(w);
}
