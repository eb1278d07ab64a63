#!/usr/bin/env bash
# The gungi-io differential test through the batch mode: the 300 oracle
# positions of gungi.js 1.0.20 go through one `tiers moves --batch` run,
# and each output line must list exactly the reference's moves corrected
# by the record's quirk_* fields (no moves where the reference's game had
# already lost a Marshal), with the same check flag.  (The same comparison,
# flags included, runs in tests/unit/test_gungi_io.c through the library.)
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
data=$tests/data/oracle/gungi-io/positions.jsonl
if ! command -v jq >/dev/null; then
  echo "SKIP: jq is not installed (scripts/setup installs it)"
  exit 0
fi
out=$tmp/out
"$tiers" moves gungi-io --notation gungijs --batch "$data" >"$out"
rc=$?
if [ "$rc" -ne 0 ]; then echo "FAIL: batch exited $rc"; exit 1; fi
lines=$(wc -l <"$out")
if [ "$lines" -ne 300 ]; then echo "FAIL: $lines output lines, want 300"; exit 1; fi
# One JSON array of booleans, one per record: does tiers agree?
verdict=$(jq -s -c --slurpfile want "$data" '
  [ range(0; length) as $i
    | .[$i] as $got | $want[$i] as $w
    | (if $w.marshal_captured then []
       else (($w.moves - $w.quirk_false_legal) + $w.quirk_false_illegal) | sort end) as $expect
    | ($got.position == $w.position) and (($got.moves | sort) == $expect)
      and ($w.marshal_captured or $got.in_check == $w.in_check) ]' "$out")
agree=$(jq '[.[] | select(.)] | length' <<<"$verdict")
echo "batch differential: $agree of 300 oracle positions agree"
if [ "$agree" -ne 300 ]; then
  jq -c 'to_entries | map(select(.value == false) | .key)' <<<"$verdict"
  exit 1
fi
