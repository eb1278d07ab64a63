#!/usr/bin/env bash
# `tiers compare`: the differences that hold (issue 23).  The family's size
# against its parts, Holm's adjustment recomputed from the raw p-values of
# --json, the `*` marks of the table against the significant tests, a
# Fisher p-value and a "needs N games" recomputed from the counts with
# exact big-integer sums and the textbook sample-size formula (python3),
# and the report's sentences.
# Usage: bash test_compare_diffs.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
run=(compare gungi-io official --games 40 --side0 random --side1 random --db "$tmp/d.db")

"$tiers" "${run[@]}" --report "$tmp/r.html" >"$tmp/t.txt" 2>"$tmp/t.err"
same "the text run exits 0" 0 $?
"$tiers" "${run[@]}" --json >"$tmp/t.json"
same "the JSON run exits 0" 0 $?

# the family: its size is printed, and is the length of the list
m=$(jq '.tests.family' "$tmp/t.json")
same "family = tests listed" "$m" "$(jq '.tests.list | length' "$tmp/t.json")"
grep -q "^Differences (Holm, alpha = 0.05): a family of $m tests" "$tmp/t.txt"
check "the section names the family size" $? "$(grep Differences "$tmp/t.txt")"
# two rulesets: one pair, so rows x 1 + one first-mover test per ruleset
# with decisive play-phase games
firsts=$(jq '[.variants[] | select(.first_mover_win_rate_decisive.of > 0)] | length' "$tmp/t.json")
same "first-mover tests" "$firsts" \
    "$(jq '[.tests.list[] | select(.kind == "first_mover")] | length' "$tmp/t.json")"

# Holm's step-down, recomputed: sort the raw p ascending, multiply the
# i-th (from 0) by m - i, cap at 1, carry the running maximum
bad=$(jq '.tests.list as $l | [$l[].p] as $p | ($p | length) as $m
  | ([range(0; $m)] | sort_by($p[.])) as $o
  | reduce range(0; $m) as $i ({run: 0, adj: {}};
      ([($m - $i) * $p[$o[$i]], 1] | min) as $a
      | .run = ([.run, $a] | max) | .adj[$o[$i] | tostring] = .run)
  | .adj as $adj
  | [range(0; $m) | select((($adj[tostring] - $l[.].p_adjusted) | fabs)
                            > 1e-4 * $l[.].p_adjusted + 1e-9)] | length' "$tmp/t.json")
same "Holm's adjusted p-values recomputed" 0 "$bad"
same "significant exactly when adjusted p <= 0.05" 0 \
    "$(jq '[.tests.list[] | select(.significant != (.p_adjusted <= 0.05))] | length' "$tmp/t.json")"

# decisive games: random play ends official's games far more often than
# gungi-io's (40 games each): this difference holds
same "decisive differs" true \
    "$(jq '.tests.list[] | select(.row == "decisive") | .significant' "$tmp/t.json")"
grep -q "^  decisive: gungi-io .* vs official .*, difference -" "$tmp/t.txt"
check "the decisive line, gungi-io lower" $? "$(grep '^  decisive' "$tmp/t.txt")"

# a `*` after official's cell in each row that differs from gungi-io's,
# and nowhere else
stars=$(sed -n '1,/^Differences/p' "$tmp/t.txt" | grep -c ' \*$')
same "stars in the table = significant differences" \
    "$(jq '[.tests.list[] | select(.kind == "difference" and .significant)] | length' "$tmp/t.json")" \
    "$stars"
grep -q '^decisive .* \*$' "$tmp/t.txt"
check "the decisive row is starred" $? "$(grep '^decisive' "$tmp/t.txt")"

# every test not significant says how many games it needs
notsig=$(jq '[.tests.list[] | select(.significant | not)] | length' "$tmp/t.json")
same "a needs line per undecided test" "$notsig" "$(grep -c ': needs ' "$tmp/t.txt")"

# the report's sentences
grep -q '<h2>What the games show</h2>' "$tmp/r.html" &&
    grep -q "$m tests in all, corrected together by Holm" "$tmp/r.html" &&
    grep -q '<b>Decisive:</b> lower in gungi-io' "$tmp/r.html"
check "the report says what differs" $? "$(grep -c 'What the games' "$tmp/r.html")"

# independent recomputations from the counts
if command -v python3 >/dev/null; then
    python3 - "$tmp/t.json" <<'PY' >"$tmp/py.out" 2>&1
import json, sys
from math import comb, sqrt, ceil
from statistics import NormalDist
d = json.load(open(sys.argv[1]))
tests = d["tests"]["list"]
m = d["tests"]["family"]
bad = []
def fisher(k1, n1, k2, n2):
    # the hypergeometric terms, as exact integers over C(n1+n2, k1+k2)
    s = k1 + k2
    terms = {x: comb(n1, x) * comb(n2, s - x) for x in range(max(0, s - n2), min(s, n1) + 1)}
    obs = terms[k1]
    return sum(t for t in terms.values() if t <= obs) / comb(n1 + n2, s)
def binom_half(k, n):
    t = min(k, n - k)
    return min(1.0, 2 * sum(comb(n, x) for x in range(t + 1)) / 2 ** n)
z = NormalDist().inv_cdf
for t in tests:
    if t["kind"] == "difference":
        p = fisher(t["count_a"], t["of_a"], t["count_b"], t["of_b"])
    else:
        p = binom_half(t["count_a"], t["of_a"])
    if abs(p - t["p"]) > 1e-5 * p + 1e-12:
        bad.append(("p", t["row"], p, t["p"]))
    # needs: the two-group (one-group for first-mover) normal formula at
    # alpha / m with power 0.8
    pa = t["count_a"] / t["of_a"]
    za, zb = z(1 - 0.05 / m / 2), z(0.8)
    if t["kind"] == "difference":
        pb = t["count_b"] / t["of_b"]
        if pa == pb:
            n = None
        else:
            pbar = (pa + pb) / 2
            n = ceil(((za * sqrt(2 * pbar * (1 - pbar)) + zb * sqrt(pa * (1 - pa) + pb * (1 - pb)))
                      / (pa - pb)) ** 2)
    else:
        n = None if pa == 0.5 else ceil(((za * 0.5 + zb * sqrt(pa * (1 - pa))) / (pa - 0.5)) ** 2)
    if n is not None and n > 1000000:
        n = None
    if n != t["needs"]:
        bad.append(("needs", t["row"], n, t["needs"]))
print(len(bad), bad[:3])
PY
    same "p-values and needs recomputed (python3)" "0 []" "$(cat "$tmp/py.out")"
fi

cli_end
