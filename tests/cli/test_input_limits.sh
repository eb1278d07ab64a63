#!/usr/bin/env bash
# test_input_limits.sh - unbounded and NUL-bearing input (issue 19,
# docs/robustness.md "Limits"): every reader of a file or of standard
# input against /dev/zero (an endless line of NUL bytes) must stop at once
# with exit 2 naming the file and the limit or the NUL byte; a NUL byte at
# every offset of a small record, batch file and play session is an error
# at its line and column (computed here from the offset); each record
# limit is enforced at limit + 1 and not at the limit.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
duel=$variants/duel

# ---- every reader against /dev/zero
expect "replay /dev/zero" 2 - "/dev/zero: over 16777216 bytes" -- replay "$duel" /dev/zero
expect "render --record /dev/zero" 2 - "/dev/zero: over 16777216 bytes" -- \
    render "$duel" --record /dev/zero -o "$tmp/z.svg"
[[ ! -e $tmp/z.svg ]]
check "render --record /dev/zero writes nothing" $? "z.svg exists"
expect "moves --batch /dev/zero" 2 - "/dev/zero:1: line over 65536 bytes" -- \
    moves "$duel" --batch /dev/zero
expect "moves --solved /dev/zero" 2 - "/dev/zero:1: a NUL byte" -- moves "$duel" --solved /dev/zero
case_begin
"$tiers" play "$duel" </dev/zero >/dev/null 2>"$tmp/err"
rc=$?
[[ $rc == 2 ]] && grep -q "standard input:1: line over 65536 bytes" "$tmp/err" ||
    fail "play </dev/zero: exit $rc: $(head -c 300 "$tmp/err")"
case_end
case_begin
"$tiers" replay "$duel" - </dev/zero >/dev/null 2>"$tmp/err"
rc=$?
[[ $rc == 2 ]] && grep -q -- "-: over 16777216 bytes" "$tmp/err" || fail "replay - </dev/zero: exit $rc"
case_end
case_begin
"$tiers" moves "$duel" --batch - </dev/zero >/dev/null 2>"$tmp/err"
rc=$?
[[ $rc == 2 ]] && grep -q "standard input:1: line over" "$tmp/err" || fail "moves --batch - </dev/zero: exit $rc"
case_end

# ---- a NUL byte at every offset
# where OFFSET FILE: "LINE:COL" of byte OFFSET (from 0) of FILE
where() {
    local prefix line col
    prefix=$(head -c "$1" "$2"; echo x)
    prefix=${prefix%x}
    line=$(($(printf '%s' "$prefix" | tr -cd '\n' | wc -c) + 1))
    col=$(($(printf '%s' "${prefix##*$'\n'}" | wc -c) + 1))
    echo "$line:$col"
}
# with_nul OFFSET SRC DST: SRC with a NUL byte inserted before byte OFFSET
with_nul() {
    { head -c "$1" "$2"; printf '\0'; tail -c +"$(($1 + 1))" "$2"; } >"$3"
}
printf '[Variant "duel"]\n\n1. c2-c3 d4xc3 2. d2xc3 *\n' >"$tmp/rec"
"$tiers" replay "$duel" "$tmp/rec" >/dev/null 2>&1
check "the small record replays" $? "tiers replay $tmp/rec"
size=$(wc -c <"$tmp/rec")
for ((k = 0; k <= size; k++)); do
    with_nul "$k" "$tmp/rec" "$tmp/nul"
    at=$(where "$k" "$tmp/nul")
    expect "replay: NUL at byte $k" 2 - "$tmp/nul:$at: a NUL byte" -- replay "$duel" "$tmp/nul"
    expect "render --record: NUL at byte $k" 2 - "$tmp/nul:$at: a NUL byte" -- \
        render "$duel" --record "$tmp/nul" -o "$tmp/n.svg"
done
start='1rk2/1ppp1/5/1PPP1/2KR1 - w - 0 0' # duel's start
printf '%s\n' "$start" >"$tmp/batch"
"$tiers" moves "$duel" --batch "$tmp/batch" >/dev/null 2>&1
check "the small batch file reads" $? "tiers moves --batch $tmp/batch"
size=$(wc -c <"$tmp/batch")
for ((k = 0; k <= size; k++)); do
    with_nul "$k" "$tmp/batch" "$tmp/nul"
    at=$(where "$k" "$tmp/nul")
    expect "moves --batch: NUL at byte $k" 2 - "$tmp/nul:$at: a NUL byte" -- \
        moves "$duel" --batch "$tmp/nul"
done
printf 'c2-c3\nmoves\n' >"$tmp/play"
size=$(wc -c <"$tmp/play")
for ((k = 0; k <= size; k++)); do
    with_nul "$k" "$tmp/play" "$tmp/in"
    at=$(where "$k" "$tmp/in")
    expect "play: NUL at byte $k" 2 - "standard input:$at: a NUL byte" -- play "$duel"
done

# ---- each record limit: refused at limit + 1, not at the limit
tags() { # N: N tags of one letter values
    for ((i = 0; i < $1; i++)); do printf '[T%d "x"]\n' "$i"; done
    printf '[Variant "duel"]\n\n1. c2-c3 *\n'
}
tags 255 >"$tmp/t256"
expect "256 tags are read" 0 - - -- replay "$duel" "$tmp/t256"
tags 256 >"$tmp/t257"
expect "257 tags are refused" 2 - "t257:257:1: more than 256 tags" -- replay "$duel" "$tmp/t257"
tags 80000 >"$tmp/t80000"
expect "80,000 tags are refused at the 257th" 2 - "t80000:257:1: more than 256 tags" -- \
    replay "$duel" "$tmp/t80000"
value() { head -c "$1" /dev/zero | tr '\0' 'v'; }
# (a tag stands on one line, so its value is also held to the line limit)
{ printf '[Long "%s"]\n[Variant "duel"]\n\n1. c2-c3 *\n' "$(value 65000)"; } >"$tmp/tag64k"
expect "a tag value of 65,000 bytes is read" 0 - - -- replay "$duel" "$tmp/tag64k"
{ printf '[Long "%s"]\n[Variant "duel"]\n\n1. c2-c3 *\n' "$(value 65537)"; } >"$tmp/tag64k1"
expect "a tag value of 64 KiB + 1 is refused" 2 - "tag64k1:1:.*(over 65536 bytes|line 1 is over)" -- \
    replay "$duel" "$tmp/tag64k1"
{ printf '[Variant "duel"]\n{%s}\n1. c2-c3 *\n' "$(value 65534)"; } >"$tmp/line64k"
expect "a 64 KiB line is read" 0 - - -- replay "$duel" "$tmp/line64k"
{ printf '[Variant "duel"]\n{%s}\n1. c2-c3 *\n' "$(value 65535)"; } >"$tmp/line64k1"
expect "a line of 64 KiB + 1 is refused, naming its line" 2 - \
    "line64k1:2:65537: line 2 is over 65536 bytes" -- replay "$duel" "$tmp/line64k1"
# 100,000 move words read (the replay then stops at the first illegal
# move: the reader's limit is what is tested); 100,001 refused
words() { yes 'c2-c3' | head -n "$1" | paste -sd ' ' | fold -w 60; }
{ printf '[Variant "duel"]\n\n'; words 100000; } >"$tmp/w100k"
expect "100,000 move words pass the reader" 2 - "not a legal move|illegal" -- replay "$duel" "$tmp/w100k"
{ printf '[Variant "duel"]\n\n'; words 100002; } >"$tmp/w100k2"
expect "100,001 move words are refused" 2 - "more than 100000 moves" -- replay "$duel" "$tmp/w100k2"
{ printf '[Variant "duel"]\n'; for ((i = 0; i < 300; i++)); do printf '{%s}\n' "$(value 60000)"; done; } \
    >"$tmp/big"
expect "a record over 16 MiB is refused" 2 - "big: over 16777216 bytes" -- replay "$duel" "$tmp/big"
# a batch line at and over 64 KiB
{ printf '%s' "$start"; value $((65536 - ${#start})) | tr v ' '; printf '\n'; } >"$tmp/b64k"
same "the batch line is 64 KiB" 65536 "$(head -n 1 "$tmp/b64k" | tr -d '\n' | wc -c)"
expect "a 64 KiB batch line is read" 0 - - -- moves "$duel" --batch "$tmp/b64k"
{ printf '%s' "$start"; value $((65537 - ${#start})) | tr v ' '; printf '\n'; } >"$tmp/b64k1"
expect "a batch line of 64 KiB + 1 is refused" 2 - "b64k1:1: line over 65536 bytes" -- \
    moves "$duel" --batch "$tmp/b64k1"
cli_end
