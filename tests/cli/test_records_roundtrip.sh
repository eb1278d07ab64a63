#!/bin/bash
# test_records_roundtrip.sh - every game record tiers writes, tiers reads
# back (issue 19, item 5): in every shipped variant and each notation it
# offers, the records of `playout --records`, of `export` and of `play`'s
# `save` replay without error, to the same positions (hashes) and result.
# The games are random, so their moves are whatever the writers write:
# setup drops, captures, effect moves with their `format` texts (blog),
# kanji SAN (official in gungijs3), deployments (gounki), facings (gufuu).
source "$(dirname "$0")/lib.sh"
cli_begin "$@"

# variant:notation pairs, the dialects from the variants' `notations:`
pairs="blog:tiers blog-union-mre:tiers gounki:tiers gounki:gounki gufuu:tiers gufuu:gufuu
gungi-io:tiers gungi-io:gungijs official:tiers official:gungijs3 seed-25:tiers"

# The hash lines of a replay ("1. white MOVE HASH"), without the move
# text (a record may spell a move another way), and its last line.
replay_hashes() {
    awk '/^[0-9]+\.+ /{print $1, $2, $NF} /^result/{print}' "$1"
}

# The moves of a record, one per line: no tags, comments, numbers or result.
record_moves() {
    grep -v '^\[' "$1" | sed 's/{[^}]*}//g' | tr ' \t' '\n\n' |
        grep -Ev '^$|^[0-9]+\.+$|^(1-0|0-1|1/2-1/2|\*)$'
}

for pair in $pairs; do
    v=${pair%%:*} n=${pair##*:}
    name="$v/$n"
    db="$tmp/$v-$n.db"
    case_begin
    if ! "$tiers" playout "$v" --games 2 --seed 11 --side0 random --side1 random \
        --max-plies 160 --db "$db" --records "$tmp/rec-$v-$n" --notation "$n" \
        >"$tmp/playout.out" 2>"$tmp/playout.err"; then
        fail "$name: playout --records: $(head -n 3 "$tmp/playout.err")"
    fi
    if ! "$tiers" export "$v" --db "$db" -o "$tmp/exp-$v-$n" --notation "$n" \
        >"$tmp/export.out" 2>"$tmp/export.err"; then
        fail "$name: export: $(head -n 3 "$tmp/export.err")"
    fi
    nrec=0
    for rec in "$tmp/rec-$v-$n"/*.txt; do
        [[ -f $rec ]] || continue
        nrec=$((nrec + 1))
        base=$(basename "$rec")
        exp="$tmp/exp-$v-$n/$base"
        "$tiers" replay "$v" "$rec" >"$tmp/r1" 2>"$tmp/r1.err" ||
            fail "$name: replay of playout's $base: $(head -c 300 "$tmp/r1.err")"
        grep -Eq '^1\.+ ' "$tmp/r1" || fail "$name: $base: no first move replayed"
        if [[ -f $exp ]]; then
            "$tiers" replay "$v" "$exp" >"$tmp/r2" 2>"$tmp/r2.err" ||
                fail "$name: replay of export's $base: $(head -c 300 "$tmp/r2.err")"
            [[ "$(replay_hashes "$tmp/r1")" == "$(replay_hashes "$tmp/r2")" ]] ||
                fail "$name: $base: playout's and export's records replay differently"
        else
            fail "$name: export wrote no $base"
        fi
        # play: the same moves typed in, then saved; the saved record replays
        # to the same positions
        { record_moves "$rec"; echo "save $tmp/play.rec"; echo quit; } |
            "$tiers" play "$v" --notation "$n" >"$tmp/play.out" 2>"$tmp/play.err" ||
            fail "$name: play of $base: $(tail -n 2 "$tmp/play.err")"
        "$tiers" replay "$v" "$tmp/play.rec" >"$tmp/r3" 2>"$tmp/r3.err" ||
            fail "$name: replay of play's save of $base: $(head -c 300 "$tmp/r3.err")"
        # play's save has no Result tag for an unfinished game: hashes only
        [[ "$(replay_hashes "$tmp/r1" | grep -v '^result')" == \
           "$(replay_hashes "$tmp/r3" | grep -v '^result')" ]] ||
            fail "$name: $base: play's record replays differently"
        rm -f "$tmp/play.rec"
    done
    [[ $nrec -eq 2 ]] || fail "$name: $nrec records written, expected 2"
    case_end
done

cli_end
