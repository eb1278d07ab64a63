#!/usr/bin/env bash
# CLI tests of ruleset specs ([LABEL=]VARIANT[:KEY=VALUE,...]) in compare
# and playout: usage errors, --rule against a ruleset that lacks the key,
# run identity (effective non-default options sorted by key), runs stored
# before that stay found, the columns, JSON and database naming variant,
# hash and options, and a failing ruleset that does not sink the others.
# Usage: bash test_compare.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
duel=$variants/duel
quick=(--games 3 --side0 random --side1 random)

# ------------------------------------------------ usage errors (exit 1)
expect "an empty option list" 1 - "ruleset 'blog:': no option after ':'" \
    -- compare blog: --db "$tmp/u.db"
expect "an option without a value" 1 - "option 'fouls' is not KEY=VALUE" \
    -- compare blog:fouls --db "$tmp/u.db"
expect "an option with an empty value" 1 - "option 'fouls=' is not KEY=VALUE" \
    -- compare blog:fouls= --db "$tmp/u.db"
expect "a key given twice in a spec" 1 - "'fouls' is given twice \(fouls=lose, fouls=illegal\)" \
    -- compare blog blog:fouls=lose,fouls=illegal --db "$tmp/u.db"
expect "a key in the spec and in --rule" 1 - "sets 'stalemate' and so does --rule stalemate=loss" \
    -- compare blog:stalemate=draw --rule stalemate=loss --db "$tmp/u.db"
expect "a --rule key given twice" 1 - "--rule 'stalemate' is given twice" \
    -- playout "$duel" --rule stalemate=loss --rule stalemate=draw --db "$tmp/u.db"
expect "a label with no variant" 1 - "ruleset 'mine=' names no variant" \
    -- compare mine= --db "$tmp/u.db"
[[ ! -e $tmp/u.db ]]
check "no database after a usage error" $? "$tmp/u.db was created"

# ------------------------------- --rule against a ruleset without the key
expect "--rule fouls on gungi-io" 2 - \
    "--rule fouls=lose: unknown rule 'fouls' for ruleset 'gungi-io' \(its options: pawn_drop_mate;.*write RULESET:fouls=lose" \
    -- compare gungi-io blog --rule fouls=lose --db "$tmp/r.db"
expect "an unknown key in a spec names the ruleset and its options" 2 - \
    "ruleset 'blog:foul=lose': unknown rule 'foul' for blog \(its options: leap_midpoint, mre,.* fouls," \
    -- compare blog:foul=lose --db "$tmp/r.db"
expect "a variant without options says so" 2 - "it declares no options" \
    -- compare "$duel:nosuch=1" --db "$tmp/r.db"
expect "a bad value names the ruleset" 2 - "blog:fouls=maybe: rules.fouls must be illegal\|lose" \
    -- compare blog:fouls=maybe --db "$tmp/r.db"
[[ ! -e $tmp/r.db ]]
check "no database after a bad rule" $? "$tmp/r.db was created"
expect "the spec form runs where --rule does not" 0 - - \
    -- compare gungi-io blog:fouls=lose --games 1 --side0 random --side1 random --db "$tmp/r.db"

# ------------------------------------------------------- run identity
# playout --json: the run key and options of a ruleset
run_of() {
    "$tiers" playout "$@" "${quick[@]}" --db "$tmp/id.db" --json >"$tmp/id.json" 2>"$tmp/id.err" ||
        { echo "exit $?: $(head -n 3 "$tmp/id.err")"; return; }
    jq -r '.run + " [" + .options + "]"' "$tmp/id.json"
}
plain=$(run_of "$duel")
same "duel's defaults make no options" "${plain%% *} []" "$plain"
same "a stated default is the run of the variant" "$plain" "$(run_of "$duel:stalemate=draw")"
same "a stated default by --rule too" "$plain" "$(run_of "$duel" --rule max_plies=120)"
two=$(run_of "$duel:stalemate=loss,max_plies=80")
same "options sorted by key" "max_plies=80 stalemate=loss" "$(sed 's/.*\[\(.*\)\]/\1/' <<<"$two")"
same "order does not matter" "$two" "$(run_of "$duel:max_plies=80,stalemate=loss")"
same "spec and --rule make the same run" "$two" \
    "$(run_of "$duel:max_plies=80" --rule stalemate=loss)"
same "a default among them is left out" "$two" \
    "$(run_of "$duel:max_plies=80,stalemate=loss,capture=top")"
[[ ${two%% *} != "${plain%% *}" ]]
check "other options, another run" $? "$two = $plain"
# an option bound to an engine rule: its default by either name is no option
blog_plain=$(run_of blog)
same "blog:fouls=illegal is the run of blog" "$blog_plain" "$(run_of blog:fouls=illegal)"
same "blog's leap_midpoint=empty is its default via" "$blog_plain" "$(run_of blog:via=empty)"
same "blog:fouls=lose" "fouls=lose" "$(sed 's/.*\[\(.*\)\]/\1/' <<<"$(run_of blog:fouls=lose)")"
same "the database holds the options" "fouls=lose" \
    "$(sqlite3 "$tmp/id.db" "SELECT options FROM runs WHERE variant = 'blog' AND options <> ''")"

# A run stored before options were sorted keeps its key (the FNV-1a hash of
# db.c over variant, hash, options, agents, seed/max plies, version): the
# canonical run is renamed into that one, and playout goes on with it.
fnv() {
    local h=$((0xcbf29ce484222325)) field i c
    for field in "$@"; do
        for ((i = 0; i < ${#field}; i++)); do
            printf -v c '%d' "'${field:i:1}"
            h=$(((h ^ c) * 0x100000001b3))
        done
        h=$(((h ^ 0x1f) * 0x100000001b3))
    done
    printf '%016x' "$h"
}
"$tiers" playout "$duel:stalemate=loss,max_plies=80" "${quick[@]}" --db "$tmp/old.db" --json \
    >"$tmp/new.json"
new_key=$(jq -r .run "$tmp/new.json")
version=$(sqlite3 "$tmp/old.db" "SELECT tiers_version FROM runs")
hash=$(jq -r .hash "$tmp/new.json")
same "the test's FNV-1a is db.c's" "$new_key" \
    "$(fnv duel "$hash" "max_plies=80 stalemate=loss" random random 1/400 "$version")"
old_key=$(fnv duel "$hash" "stalemate=loss max_plies=80" random random 1/400 "$version")
for t in runs games effects; do
    sqlite3 "$tmp/old.db" "UPDATE $t SET run = '$old_key' WHERE run = '$new_key'" ||
        fail "cannot rewrite table $t"
done
sqlite3 "$tmp/old.db" "UPDATE runs SET options = 'stalemate=loss max_plies=80'"
"$tiers" playout "$duel:stalemate=loss,max_plies=80" --games 5 --side0 random --side1 random \
    --db "$tmp/old.db" --json >"$tmp/old.json"
same "an old run is found by its options as given" "$old_key 3 2" \
    "$(jq -r '"\(.run) \(.found) \(.played)"' "$tmp/old.json")"

expect "playout names the run's options" 0 \
    "^duel \(hash [0-9a-f]{16}, options max_plies=80 stalemate=loss\): run ${two%% *} in " - \
    -- playout "$duel:stalemate=loss,max_plies=80" "${quick[@]}" --db "$tmp/id.db"
expect "playout says when there are none" 0 "^duel \(hash [0-9a-f]{16}, options \(defaults\)\): run " - \
    -- playout "$duel:stalemate=draw" "${quick[@]}" --db "$tmp/id.db"

# --------------------------------------------- columns, JSON, database
expect "three rulesets of one variant" 0 \
    "^ +blog +blog:fouls=lose +house$" - \
    -- compare blog blog:fouls=lose house=blog:stalemate=draw,fouls=lose "${quick[@]}" \
    --db "$tmp/c.db"
grep -Eq '^variant +blog +blog +blog$' "$tmp/out"
check "a variant row" $? "$(head -n 3 "$tmp/out")"
grep -Eq '^content hash +[0-9a-f]{16} +[0-9a-f]{16} +[0-9a-f]{16}$' "$tmp/out"
check "a content hash row" $? "$(head -n 4 "$tmp/out")"
grep -Eq '^options +defaults +fouls=lose +fouls=lose stalemate=draw$' "$tmp/out"
check "an options row" $? "$(head -n 5 "$tmp/out")"
grep -Eq '^house: blog, content hash [0-9a-f]{16}, options fouls=lose stalemate=draw, run [0-9a-f]{16}$' \
    "$tmp/out"
check "the footer names each column's run" $? "$(tail -n 5 "$tmp/out")"
"$tiers" compare blog blog:fouls=lose house=blog:stalemate=draw,fouls=lose "${quick[@]}" \
    --db "$tmp/c.db" --json >"$tmp/c.json"
same "json labels" "blog blog:fouls=lose house" "$(jq -r '[.variants[].label] | join(" ")' "$tmp/c.json")"
same "json options" '{} {"fouls":"lose"} {"fouls":"lose","stalemate":"draw"}' \
    "$(jq -c '.variants[].options' "$tmp/c.json" | tr '\n' ' ' | sed 's/ $//')"
same "json spec as given" "house=blog:stalemate=draw,fouls=lose" "$(jq -r '.variants[2].spec' "$tmp/c.json")"
same "json hash = playout's" "$(jq -r .hash "$tmp/id.json")" "$(jq -r '.variants[0].hash' "$tmp/c.json")"
same "the runs in the database" "blog|fouls=lose
blog|fouls=lose stalemate=draw" \
    "$(sqlite3 "$tmp/c.db" "SELECT variant, options FROM runs WHERE options <> '' ORDER BY options")"
same "no game played twice" 9 "$(sqlite3 "$tmp/c.db" "SELECT count(*) FROM games")"

# a designer's folder with a spec
mkdir -p "$tmp/mine"
printf 'name: mine\ninherits: %s\n' "$duel" >"$tmp/mine/variant.yaml"
expect "a folder with options" 0 "^ +mine +mine:stalemate=loss$" - \
    -- compare "$tmp/mine" "$tmp/mine:stalemate=loss" "${quick[@]}" --db "$tmp/c.db"

# ----------------------------------- one bad ruleset does not sink the rest
mkdir -p "$tmp/bad"
cat >"$tmp/bad/variant.yaml" <<EOF
name: duel-boom
inherits: $duel
scripts: [boom.lua]
EOF
cat >"$tmp/bad/boom.lua" <<'EOF'
-- fails on the first capture: a script error in the middle of a game
effect{
  name = "boom",
  after = function(pos, move)
    if move.kind == "capture" then error("boom at the first capture") end
    return false
  end,
}
EOF
expect "a failing ruleset: exit 3, the others' table" 3 "^status +ok +failed: .*boom at the first capture.* +ok$" \
    "boom at the first capture" \
    -- compare "$duel" "$tmp/bad" "$duel:stalemate=loss" --games 6 --side0 random --side1 random \
    --db "$tmp/b.db" --report "$tmp/b.html"
grep -Eq '^games +6 +- +6$' "$tmp/out"
check "the good columns have their figures" $? "$(grep '^games' "$tmp/out")"
grep -q '^report: ' "$tmp/out"
check "the report is written" $? "$(tail -n 2 "$tmp/out")"
grep -q 'failed: .*boom at the first capture' "$tmp/b.html"
check "the report says why" $? "no failure in the report"
"$tiers" compare "$duel" "$tmp/bad" --games 6 --side0 random --side1 random --db "$tmp/b.db" \
    --json >"$tmp/b.json" 2>/dev/null
same "json: exit 3" 3 $?
same "json: status of each" "ok failed" "$(jq -r '[.variants[].status] | join(" ")' "$tmp/b.json")"
jq -e '.variants[1].error | test("boom at the first capture")' "$tmp/b.json" >/dev/null
check "json: the error" $? "$(jq -c '.variants[1]' "$tmp/b.json")"
same "json: the good one's figures" 6 "$(jq '.variants[0].games' "$tmp/b.json")"

# ------------------------------------------------------- the report
# blog's sides are black (side 0) and white, gungi-io's white (side 0) and
# black; the middle column has a 30-character label
long=abcdefghij-klmnopqrst-uvwxyz-3
rep=$tmp/rep.html
expect "a report with a 30-character label" 0 "^report: $rep$" - \
    -- compare blog "$long=blog:fouls=lose" gungi-io --games 6 --side0 random --side1 random \
    --max-plies 300 --db "$tmp/rep.db" --report "$rep"
same "the label is 30 characters" 30 "${#long}"
# the fill of each stacked part of a side, by side name
fills() { grep -o "<rect class=\"bar part win\" data-side=\"$1\"[^>]*fill=\"#[0-9a-f]*\"" "$rep" |
          sed 's/.*fill="//; s/"//' | sort -u; }
same "white has one colour in every column" 1 "$(fills white | wc -l)"
same "black has one colour in every column" 1 "$(fills black | wc -l)"
[[ -n $(fills white) && $(fills white) != "$(fills black)" ]]
check "white and black differ" $? "white $(fills white), black $(fills black)"
same "three white parts (one a column)" 3 \
    "$(grep -c '<rect class="bar part win" data-side="white"' "$rep")"
grep -q "<text class=\"legend\"[^>]*>white wins</text>" "$rep" &&
    grep -q "<text class=\"legend\"[^>]*>black wins</text>" "$rep" &&
    grep -q "<text class=\"legend\"[^>]*>cut</text>" "$rep"
check "a legend of the side names, draws and cut" $? "$(grep -o 'class="legend"[^<]*' "$rep")"
same "a draws part and a cut part a column" "3 3" \
    "$(grep -c 'class="bar part draw"' "$rep") $(grep -c 'class="bar part cut"' "$rep")"
# blog's games here: 5 of 6 cut (the JSON says), so its cut part is 5/6 of the plot
cut_w=$(grep -o 'class="bar part cut"[^>]*width="[0-9.]*"' "$rep" | head -n 1 | sed 's/.*width="//; s/"//')
"$tiers" compare blog --games 6 --side0 random --side1 random --max-plies 300 --db "$tmp/rep.db" \
    --json >"$tmp/rep.json"
want=$(jq -r '.variants[0] | 520 * .cut / .games | . * 10 | round / 10' "$tmp/rep.json")
same "the cut part's width is the cut share of the plot" "$want" "${cut_w%.0}"
# histogram ticks: 0 and then multiples of one step of 1, 2 or 5 x 10^k
ticks=$(grep -o '<text class="tick xtick"[^>]*>[0-9]*<' "$rep" | sed 's/.*>\([0-9]*\)<$/\1/' | head -n 20)
step=$(sed -n 2p <<<"$ticks")
[[ $step =~ ^(1|2|5)0*$ && $(head -n 1 <<<"$ticks") == 0 ]] &&
    ! awk -v s="$step" '$1 % s != 0 { bad = 1 } END { exit !bad }' <<<"$ticks"
check "round length ticks" $? "ticks: $(tr '\n' ' ' <<<"$ticks")"
grep -q '<table id="endings">' "$rep" && grep -q '<td class="label">cut</td>' "$rep"
check "an endings table" $? "no endings table"
# per-effect scale: every effect fired by some ruleset has a full-width bar
full=$(sed -n '/id="chart-effects"/,/<\/svg>/p' "$rep" | grep -c 'class="bar"[^>]*width="420.0"')
fired=$(jq '[.variants[0].effects[] | select(.per_game > 0)] | length' "$tmp/rep.json")
[[ $full -ge $fired && $fired -gt 3 ]]
check "each effect on its own scale" $? "$full full bars for $fired effects that fired"
grep -Eq '[0-9.]+ fired, [0-9.]+ prevented, [0-9.]+ ended / game' "$rep"
check "effect rows give the three kinds apart" $? "no kinds in the report"
grep -q '<td class="label">face ' "$rep" && grep -q 'board coverage' "$rep" &&
    grep -q 'decision point' "$rep"
check "the report shows the per-face rows and the positional figures" $? "missing rows"

if [[ -x /usr/bin/chromium ]]; then
    # a copy of the report with a script that measures every text of every
    # chart as Chromium lays it out, and writes what falls outside its chart
    { sed 's#</body>##; s#</html>##' "$rep"
      cat <<'JS'
<script>
window.addEventListener('load', function () {
  var bad = [], texts = 0;
  document.querySelectorAll('svg.chart').forEach(function (svg) {
    var vb = svg.viewBox.baseVal;
    svg.querySelectorAll('text').forEach(function (t) {
      var b = t.getBBox();
      texts++;
      if (b.width > 0 && (b.x < vb.x - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 ||
                          b.y < vb.y - 0.5 || b.y + b.height > vb.y + vb.height + 0.5))
        bad.push(svg.id + ': ' + t.textContent);
    });
  });
  var pre = document.createElement('pre');
  pre.id = 'measured';
  pre.textContent = 'texts ' + texts + ' clipped ' + bad.length + ' ' + bad.join(' | ');
  document.body.appendChild(pre);
});
</script></body></html>
JS
    } >"$tmp/measure.html"
    timeout 120 /usr/bin/chromium --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update \
        --disable-sync --user-data-dir="$tmp/chromium-profile" \
        --dump-dom "file://$tmp/measure.html" >"$tmp/measured.html" 2>"$tmp/chromium.err"
    measured=$(grep -o 'texts [0-9]* clipped [0-9]*[^<]*' "$tmp/measured.html")
    [[ $measured =~ ^texts\ ([0-9]+)\ clipped\ 0 && ${BASH_REMATCH[1]} -gt 100 ]]
    check "chromium: no chart text is clipped" $? "${measured:-no measure: $(tail -n 2 "$tmp/chromium.err")}"
elif [[ -n ${TIERS_REQUIRE_CHROMIUM:-} ]]; then
    check "chromium is installed (TIERS_REQUIRE_CHROMIUM)" 1 "no /usr/bin/chromium"
else
    echo "skip: /usr/bin/chromium not found; the report's layout was not measured"
fi

cli_end
