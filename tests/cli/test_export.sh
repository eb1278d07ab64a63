#!/usr/bin/env bash
# CLI tests of game records from playouts: `tiers playout --records DIR`
# and `tiers export`.  A few short games of every shipped variant are
# written, each record is replayed by `tiers replay` and must end as the
# game did; the same run gives the same files whatever the thread count,
# after a resume, from shards merged, and from `export`; dialects, --rule
# options, and the errors (bad arguments, unknown or foreign databases,
# folders that cannot be written, a variant that changed).
# Usage: bash test_export.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
duel=$variants/duel

# tag NAME FILE: the value of a record's tag.
tag() {
    sed -n "s/^\[$1 \"\(.*\)\"\]\$/\1/p" "$2"
}

# same_records NAME DIR-A DIR-B: the two folders hold byte-identical
# files.  The Date tag is the UTC day each game was stored: two runs on
# either side of midnight differ there only, which is then allowed.
same_records() {
    local name=$1 a=$2 b=$3
    if diff -r "$a" "$b" >"$tmp/diff"; then
        check "$name" 0
        return
    fi
    diff -r -I '^\[Date "' "$a" "$b" >/dev/null
    check "$name" $? "$(head -n 8 "$tmp/diff")"
    [[ $failures -eq 0 ]] && echo "note: $name: the runs straddled midnight UTC (Date differs)"
}

# replays VARIANT DIR [OPTIONS...]: replays every record of DIR; each must
# end as its Result and Reason tags (written from the database) say.
replays() {
    local v=$1 dir=$2 n=0 bad=
    shift 2
    for f in "$dir"/*.txt; do
        [[ -e $f ]] || continue
        n=$((n + 1))
        if ! "$tiers" replay "$v" "$f" "$@" >"$tmp/replay" 2>"$tmp/rerr"; then
            bad="$f: replay failed: $(head -c 300 "$tmp/rerr")"
            break
        fi
        local want_result want_reason got_result got_reason
        want_result=$(tag Result "$f")
        want_reason=$(tag Reason "$f")
        [[ $want_reason == cut ]] && want_reason=-
        got_result=$(sed -n 's/^result: //p' "$tmp/replay")
        got_reason=$(sed -n 's/^reason: //p' "$tmp/replay")
        if [[ $got_result != "$want_result" || $got_reason != "$want_reason" ]]; then
            bad="$f: replays to $got_result ($got_reason), the record says $want_result ($want_reason)"
            break
        fi
    done
    [[ $n -gt 0 ]] || bad="no records in $dir"
    check "$v: records of $dir replay to their results" "$([[ -z $bad ]]; echo $?)" "$bad"
}

count() {
    find "$1" -name '*.txt' | wc -l
}

# ------------------------------------------------------------ usage
expect "export --help" 0 "^usage: tiers export" - -- export --help
expect "playout --help names --records" 0 "--records DIR" - -- playout --help
expect "export needs -o" 1 - "missing -o DIR" -- export --db "$tmp/none.db"
expect "export: empty -o" 1 - "empty -o folder" -- export -o ''
expect "export takes no --rule" 1 - "'--rule' does not apply" \
    -- export --db "$tmp/none.db" -o "$tmp/x" --rule repetition=2
expect "export takes one variant" 1 - "unexpected argument 'gounki'" \
    -- export gungi-io gounki -o "$tmp/x"
expect "empty --records" 1 - "empty --records folder" -- playout "$duel" --records ''
expect "--notation needs --records" 1 - "give both" \
    -- playout "$duel" --notation tiers --db "$tmp/u.db"
expect "export of a missing database" 2 - "cannot open database '$tmp/none.db'" \
    -- export --db "$tmp/none.db" -o "$tmp/x"
expect "export of a file that is no database" 2 - "is not a tiers playout database" \
    -- export --db "$duel/variant.yaml" -o "$tmp/x"
[[ ! -e $tmp/x ]]
check "no folder after a bad database" $? "$tmp/x was created"
expect "export: unknown variant" 2 - "nope" -- export "$tmp/nope" --db "$tmp/none.db" -o "$tmp/x"
expect "unknown notation for the records" 2 - "unknown notation 'zz'" \
    -- playout "$duel" --records "$tmp/x" --notation zz --db "$tmp/u.db"
: >"$tmp/file"
expect "--records is a file" 3 - "is not a folder" \
    -- playout "$duel" --records "$tmp/file" --db "$tmp/u.db"
expect "--records cannot be made" 3 - "cannot create the records folder" \
    -- playout "$duel" --records "$tmp/file/sub" --db "$tmp/u.db"
[[ ! -e $tmp/u.db ]]
check "nothing played before a bad folder" $? "$tmp/u.db was created"

# ------------------------------------- every shipped variant, replayed
# Short games, random against greedy: some end on the board, some are cut.
"$tiers" variants | awk '{print $1}' >"$tmp/variants"
check "variants are listed" "$([[ -s $tmp/variants ]]; echo $?)" "tiers variants printed nothing"
short=(--games 3 --max-plies 120 --side0 random --side1 greedy)
while read -r v; do
    expect "$v: playout --records" 0 "^records: 3 games written to $tmp/rec-$v\$" - \
        -- playout "$v" "${short[@]}" --db "$tmp/all.db" --records "$tmp/rec-$v"
    n=$(count "$tmp/rec-$v")
    check "$v: one record per game" $(( n == 3 ? 0 : 1 )) "$n files"
    replays "$v" "$tmp/rec-$v"
    f=$(find "$tmp/rec-$v" -name '*-000001.txt')
    check "$v: file name" "$([[ -n $f ]]; echo $?)" "no *-000001.txt in $tmp/rec-$v"
    [[ -n $f ]] || continue
    [[ $(tag Variant "$f") == "$v" && $(tag Game "$f") == 1 && $(tag Seed "$f") == 1 &&
       $(tag MaxPlies "$f") == 120 && $(tag Options "$f") == "" &&
       $(tag Date "$f") =~ ^[0-9]{4}\.[0-9]{2}\.[0-9]{2}$ &&
       $(tag Run "$f") =~ ^[0-9a-f]{16}$ ]]
    check "$v: tags" $? "$(grep '^\[' "$f")"
    # the agents under the side names (White, Black, or the variant's own)
    agents=$(grep -c '^\[[A-Z][A-Za-z0-9_]* "\(random\|greedy:mate=yes,setup=random\)"\]$' "$f")
    check "$v: player tags" $(( agents == 2 ? 0 : 1 )) "$(grep '^\[' "$f")"
    if command -v sqlite3 >/dev/null 2>&1; then
        want=$(sqlite3 "$tmp/all.db" "SELECT result || ' ' || reason FROM games
                                      WHERE run = '$(tag Run "$f")' AND game = 1")
        check "$v: Result and Reason are the database's" \
            "$([[ $want == "$(tag Result "$f") $(tag Reason "$f")" ]]; echo $?)" \
            "database: $want"
    fi
done <"$tmp/variants"

# A veto drawing math.random (kings-dice refuses one move in ten): the
# random agent tests candidates one by one where replay and export list
# them all, so the refusals must not depend on the order of asking.
dice=$variants/kings-dice
expect "kings-dice: playout --records" 0 "^records: 6 games written to $tmp/rec-dice\$" - \
    -- playout "$dice" --games 6 --max-plies 60 --side0 random --side1 random \
    --db "$tmp/dice.db" --records "$tmp/rec-dice"
replays "$dice" "$tmp/rec-dice"
expect "kings-dice: export replays every game" 0 "^$tmp/exp-dice: 6 games written in all" - \
    -- export "$dice" --db "$tmp/dice.db" -o "$tmp/exp-dice"
same_records "kings-dice: export = playout --records" "$tmp/rec-dice" "$tmp/exp-dice"

# ------------------------------------------------ export of a database
expect "export of every run" 0 "^$tmp/exp: [0-9]+ games written in all" - \
    -- export --db "$tmp/all.db" -o "$tmp/exp"
while read -r v; do
    mkdir -p "$tmp/exp-$v"
    for f in "$tmp/rec-$v"/*.txt; do
        mv "$tmp/exp/${f##*/}" "$tmp/exp-$v/" 2>/dev/null
    done
    same_records "$v: export = playout --records" "$tmp/rec-$v" "$tmp/exp-$v"
done <"$tmp/variants"
rmdir "$tmp/exp" 2>/dev/null
check "export wrote nothing else" $? "$(ls "$tmp/exp" | head -n 3)"
expect "export of one variant, json" 0 '"runs":\[\{"run":"[0-9a-f]{16}","variant":"gounki","games":3\}\],"written":3' - \
    -- export gounki --db "$tmp/all.db" -o "$tmp/one" --json
expect "a variant the database lacks" 2 - "holds no games of duel" \
    -- export "$duel" --db "$tmp/all.db" -o "$tmp/none"
[[ ! -e $tmp/none ]]
check "no folder when nothing matches" $? "$tmp/none was created"

# ------------------------------------------- threads, resume, shards
run=(playout gungi-io --games 6 --max-plies 100 --side0 random)
expect "one thread" 0 "records: 6 games" - -- "${run[@]}" --threads 1 --db "$tmp/t1.db" --records "$tmp/t1"
expect "two threads" 0 "records: 6 games" - -- "${run[@]}" --threads 2 --db "$tmp/t2.db" --records "$tmp/t2"
same_records "--threads 1 and 2 give the same records" "$tmp/t1" "$tmp/t2"
expect "a part of the run" 0 "records: 2 games" - \
    -- playout gungi-io --games 2 --max-plies 100 --side0 random --db "$tmp/r.db" --records "$tmp/r"
expect "the run resumed" 0 "6 games: 4 played now, 2 already stored" - \
    -- "${run[@]}" --threads 2 --db "$tmp/r.db" --records "$tmp/r"
same_records "a resumed run gives the same records" "$tmp/t1" "$tmp/r"
for k in 1 2; do
    expect "shard $k/2" 0 "records: 3 games" - \
        -- "${run[@]}" --shard "$k/2" --db "$tmp/s$k.db" --records "$tmp/s$k"
done
n=$(find "$tmp/s1" -name '*[02468].txt' | wc -l)
check "shard 1/2 writes the even games" $(( n == 3 ? 0 : 1 )) "$(ls "$tmp/s1")"
expect "merge the shards" 0 - - -- merge "$tmp/s1.db" "$tmp/s2.db" -o "$tmp/s.db"
expect "export of the merged shards" 0 "6 games written" - -- export --db "$tmp/s.db" -o "$tmp/s"
same_records "merged shards give the same records" "$tmp/t1" "$tmp/s"

# ------------------------------------------------------ notations
for vn in gungi-io:gungijs gounki:gounki gufuu:gufuu official:gungijs3; do
    v=${vn%%:*} n=${vn#*:}
    expect "$v: export in $n" 0 "3 games written" - \
        -- export "$v" --db "$tmp/all.db" -o "$tmp/n-$v" --notation "$n"
    f=$(find "$tmp/n-$v" -name '*.txt' | head -n 1)
    check "$v: Notation tag" "$([[ -n $f && $(tag Notation "$f") == "$n" ]]; echo $?)" \
        "$(grep '^\[Notation' "$f")"
    replays "$v" "$tmp/n-$v"
done

# ---------------------------------------------- --rule and variants
rules=(--rule repetition=2 --rule halfmove_limit=12)
expect "a run with --rule" 0 "records: 4 games" - \
    -- playout gounki --games 4 --side0 random --side1 random "${rules[@]}" \
    --db "$tmp/rule.db" --records "$tmp/rule"
f=$(find "$tmp/rule" -name '*.txt' | head -n 1)
# the run's options: sorted by key, whatever the order of --rule
check "Options tag" "$([[ $(tag Options "$f") == "halfmove_limit=12 repetition=2" ]]; echo $?)" \
    "$(grep '^\[Options' "$f")"
replays gounki "$tmp/rule" "${rules[@]}"
draw=$(grep -l '^\[Reason "move limit"\]' "$tmp/rule"/*.txt | head -n 1)
check "a game ended by the --rule move limit" "$([[ -n $draw ]]; echo $?)" \
    "$(grep -h '^\[Reason' "$tmp/rule"/*.txt)"
replays gounki "$tmp/rule"
expect "without --rule the record replays by its Options tag" 0 '^reason: move limit$' - \
    -- replay gounki "${draw:-$tmp/none.txt}"
expect "--rule on the command line wins over the Options tag" 2 - "not over after the last move" \
    -- replay gounki "${draw:-$tmp/none.txt}" --rule halfmove_limit=0
expect "export reads the rules from the database" 0 "4 games written" - \
    -- export --db "$tmp/rule.db" -o "$tmp/rule2"
same_records "export with the run's rules = playout --records" "$tmp/rule" "$tmp/rule2"

# a variant found by its folder only
expect "a variant in a folder of its own" 0 - - \
    -- playout "$duel" --games 3 --db "$tmp/duel.db" --records "$tmp/duel"
replays "$duel" "$tmp/duel"
expect "export cannot find it by name" 2 - "cannot load variant 'duel'.*give its folder as VARIANT" \
    -- export --db "$tmp/duel.db" -o "$tmp/duel-x"
expect "export with its folder" 0 "3 games written" - \
    -- export "$duel" --db "$tmp/duel.db" -o "$tmp/duel-a"
expect "export with --variants" 0 "3 games written" - \
    -- export --db "$tmp/duel.db" -o "$tmp/duel-b" --variants "$variants"
same_records "export = playout --records (folder)" "$tmp/duel" "$tmp/duel-a"
same_records "export = playout --records (--variants)" "$tmp/duel" "$tmp/duel-b"

# the variant's files change after the run
cp -r "$duel" "$tmp/dv"
expect "a run of a copy" 0 - - -- playout "$tmp/dv" --games 3 --db "$tmp/dv.db"
echo "# a comment changes the hash, not the game" >>"$tmp/dv/variant.yaml"
expect "changed files: a warning" 0 "3 games written" "warning: .*changed since it was played" \
    -- export "$tmp/dv" --db "$tmp/dv.db" -o "$tmp/dv-a"
sed -i 's/^start: .*/start: "1rk2\/1ppp1\/5\/1PPP1\/1K1R1 - w - 0 0"/' "$tmp/dv/variant.yaml"
grep -q '^start: "1rk2/1ppp1/5/1PPP1/1K1R1' "$tmp/dv/variant.yaml"
check "the copy's start was changed" $? "$(grep '^start' "$tmp/dv/variant.yaml")"
expect "changed rules: the games do not replay" 2 - "does not replay|the replay ends" \
    -- export "$tmp/dv" --db "$tmp/dv.db" -o "$tmp/dv-b"
n=$(find "$tmp/dv-b" -name '*.part' 2>/dev/null | wc -l)
check "no partial file after an error" $(( n == 0 ? 0 : 1 )) "$(ls "$tmp/dv-b")"

# ------------------------------------------------ export: output errors
expect "export into a file" 3 - "is not a folder" -- export --db "$tmp/all.db" -o "$tmp/file"
expect "export where no folder can be made" 3 - "cannot create the records folder" \
    -- export --db "$tmp/all.db" -o "$tmp/file/sub"

cli_end
