#!/usr/bin/env bash
# test_writers.sh - files tiers writes under names it chooses or is given
# (issue 19, docs/robustness.md "Output files"): export and playout
# --records, compare --report, solve --save, render -o, merge -o and
# play's save.  Each writer, against a link planted at the final name (and
# at the old predictable NAME.part), must leave the link's target alone;
# against a full disk (ulimit -f, with SIGXFSZ ignored so the write fails
# as on a full disk) and /dev/full, it must exit 3 and leave no final name
# holding a partial file.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
duel=$variants/duel
db=$tmp/p.db
"$tiers" playout "$duel" --games 3 --db "$db" >/dev/null || { echo "FAIL: playout"; exit 1; }
# export reads a copy out of WAL mode: then reading it needs no index
# file, which a full disk would refuse (compare turns p.db back to WAL)
cp "$db" "$tmp/e.db"
sqlite3 "$tmp/e.db" "PRAGMA journal_mode=DELETE" >/dev/null
run=$(sqlite3 "$db" "SELECT run FROM runs")

# the writers: NAME -> the command writing the file $out (a path)
writer() { # NAME OUT
    local out=$2
    case $1 in
        report) "$tiers" compare "$duel" --games 3 --db "$db" --report "$out" ;;
        solve) "$tiers" solve standoff --variants "$variants" --save "$out" ;;
        render) "$tiers" render "$duel" -o "$out" ;;
        merge) "$tiers" merge -o "$out" "$db" ;;
        play) printf 'c2-c3\nsave %s\nquit\n' "$out" | "$tiers" play "$duel" ;;
        export) "$tiers" export --db "$tmp/e.db" --variants "$variants" -o "$(dirname "$out")" ;;
        records) "$tiers" playout "$duel" --games 3 --db "$tmp/r.db" --records "$(dirname "$out")" ;;
    esac
}
# where each writer puts its file, in a fresh folder
target() { # NAME DIR
    case $1 in
        export | records) echo "$2/duel-$run-000001.txt" ;;
        merge) echo "$2/out.db" ;;
        *) echo "$2/out.file" ;;
    esac
}
writers=(report solve render merge play export records)

for w in "${writers[@]}"; do
    d=$tmp/link-$w
    mkdir -p "$d"
    out=$(target "$w" "$d")
    echo "precious" >"$tmp/victim-$w"
    ln -s "$tmp/victim-$w" "$out"
    ln -s "$tmp/victim-$w" "$out.part"
    writer "$w" "$out" >/dev/null 2>"$tmp/err"
    rc=$?
    same "$w: the file a planted link points to is untouched" precious "$(cat "$tmp/victim-$w")"
    if [[ $w == merge ]]; then
        # an existing database is opened without following a link
        check "$w: a planted link is refused (exit 2)" $((rc != 2)) "exit $rc"
    else
        check "$w: succeeds over a planted link" $rc "exit $rc: $(head -c 300 "$tmp/err")"
        [[ -f $out && ! -L $out ]]
        check "$w: the link is replaced by the file" $? "$(ls -l "$out")"
    fi
    same "$w: no temporary file left" "" "$(cd "$d" && ls | grep -v -e '^duel-' -e '^out' || true)"
done

# a full disk: ulimit -f 1 (512 bytes; the small files: 0)
for w in "${writers[@]}"; do
    d=$tmp/full-$w
    mkdir -p "$d"
    out=$(target "$w" "$d")
    blocks=1
    [[ $w == solve || $w == play || $w == export ]] && blocks=0
    (ulimit -f $blocks; trap '' XFSZ; writer "$w" "$out") >/dev/null 2>"$tmp/err"
    rc=$?
    check "$w: a full disk exits 3" $((rc != 3)) "exit $rc: $(head -c 300 "$tmp/err")"
    [[ ! -e $out ]]
    check "$w: a full disk leaves no final name" $? "$(ls -l "$out" 2>&1)"
    same "$w: a full disk leaves no temporary file" "" "$(ls "$d" | grep -v '^r\.db' || true)"
done

# /dev/full: written directly (a device), and the failure is exit 3
for w in report solve render; do
    writer "$w" /dev/full >/dev/null 2>"$tmp/err"
    rc=$?
    check "$w -> /dev/full exits 3" $((rc != 3)) "exit $rc: $(head -c 300 "$tmp/err")"
done
cli_end
