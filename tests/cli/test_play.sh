#!/usr/bin/env bash
# CLI tests of `tiers play`: a short game through a pseudo-terminal
# (script(1) from bsdutils) with an unreadable move, an illegal one, an
# undo, a hint and a save; the same and more with moves from a pipe; games
# between agents; the saved records read back by `tiers replay`.
# Usage: bash test_play.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"

# ------------------------------------------------- on a pseudo-terminal
if script --version >/dev/null 2>&1; then
    # pty_play NAME INPUT-FILE ARGS...: runs tiers play ARGS on a pty fed
    # with INPUT-FILE; the screen (carriage returns dropped) goes to
    # $tmp/NAME.screen.
    pty_play() {
        local name=$1 input=$2
        shift 2
        local cmd
        printf -v cmd '%q ' "$tiers" play "$@"
        TERM=dumb timeout 20 script -q -e -c "$cmd" /dev/null \
            <"$input" >"$tmp/$name.raw" 2>&1
        local rc=$?
        tr -d '\r' <"$tmp/$name.raw" >"$tmp/$name.screen"
        return $rc
    }

    cat >"$tmp/game.in" <<'IN'
a1^a2
zz
b8^b7
undo
b2-b3
moves
hint
save SAVED
quit
IN
    sed -i "s|SAVED|$tmp/pty.rec|" "$tmp/game.in"
    case_begin
    NO_COLOR=1 pty_play pty "$tmp/game.in" gounki --black random --seed 7
    rc=$?
    s="$tmp/pty.screen"
    [[ $rc -eq 0 ]] || fail "pty game: exit $rc"
    has "$s" "banner" "^gounki: white \(human\) against black \(random\); 'help'"
    has "$s" "board drawn" "^ 8  r s r s r s r s$"
    has "$s" "file letters" "^    a b c d e f g h$"
    has "$s" "prompt" "^white> "
    has "$s" "status line" "^ply 0, white to move$"
    has "$s" "own move" "^1\. white a1\^a2$"
    has "$s" "agent reply" "^1\.\.\. black [a-h][1-8][-^x*][a-h]"
    has "$s" "status after the reply" "^ply 2, white to move, last: "
    has "$s" "unreadable move" "^'zz' is not a legal move here; legal moves look like .*\(type 'moves' for all [0-9]+\)$"
    has "$s" "illegal move" "^'b8\^b7' is not a legal move here"
    has "$s" "undo takes back the reply" "^took back 1\.\.\. black "
    has "$s" "undo takes back the move" "^took back 1\. white a1\^a2$"
    has "$s" "move after undo" "^1\. white b2-b3$"
    has "$s" "moves" "^[0-9]+ legal moves:$"
    has "$s" "hint" "^hint: [a-h][1-8]"
    has "$s" "save" "^saved 2 plies to "
    hasnt "$s" "NO_COLOR" $'\033\\['
    case_end

    case_begin
    if [[ ! -f $tmp/pty.rec ]]; then
        fail "pty game: no record saved"
    else
        has "$tmp/pty.rec" "record variant" '^\[Variant "gounki"\]$'
        has "$tmp/pty.rec" "record players" '^\[Black "random"\]$'
        has "$tmp/pty.rec" "record result" '^\[Result "\*"\]$'
        has "$tmp/pty.rec" "record moves" '^1\. b2-b3 [a-h][1-8][-^x*][a-h][^ ]* \*$'
        "$tiers" replay gounki "$tmp/pty.rec" >"$tmp/replay.out" 2>&1 ||
            fail "pty record does not replay: $(tail -n 1 "$tmp/replay.out")"
    fi
    case_end

    # Colour on a terminal unless NO_COLOR; the last move in reverse video.
    printf 'a1^a2\nquit\n' >"$tmp/colour.in"
    case_begin
    (unset NO_COLOR; pty_play colour "$tmp/colour.in" gounki --black random --seed 7)
    has "$tmp/colour.screen" "colour" $'\033\\[1;3[16]mR\033\\[0m'
    has "$tmp/colour.screen" "last move marked" $'\033\\[7m'
    case_end

    # End of input (Ctrl-D on a terminal) ends the program quietly.
    printf 'a1^a2\n' >"$tmp/eof.in"
    case_begin
    NO_COLOR=1 pty_play eof "$tmp/eof.in" gounki
    rc=$?
    [[ $rc -eq 0 ]] || fail "end of input on a terminal: exit $rc"
    case_end
else
    echo "skip: pseudo-terminal tests (script(1) not found)"
fi

# ------------------------------------------------------ from a pipe
# play_pipe NAME INPUT ARGS...: stdin from the string INPUT.
play_pipe() {
    local name=$1 input=$2
    shift 2
    printf '%s' "$input" | "$tiers" play "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
}

case_begin
play_pipe pipe $'a1^a2\n# a comment\n\na8^b7 b2-b3\nundo\nposition\nsave '"$tmp/pipe.rec"$'\n' gounki
rc=$?
o="$tmp/pipe.out"
[[ $rc -eq 0 ]] || fail "pipe: exit $rc: $(cat "$tmp/pipe.err")"
has "$o" "pipe ply" "^1\. white a1\^a2$"
has "$o" "pipe several moves on a line" "^1\.\.\. black a8\^b7$"
has "$o" "pipe undo" "^took back 2\. white b2-b3$"
has "$o" "pipe position" "^1srsrsrs/s\[r:r\]srsrsr/.* w - [0-9]+ 2( |$)"
has "$o" "pipe final board" "^ 7  s   r:r s r s r s r$"
has "$o" "pipe final status" "^ply 2, white to move, last: a8\^b7$"
hasnt "$o" "no prompt" "> "
hasnt "$o" "no banner" "'help' lists"
hasnt "$o" "no colour" $'\033'
[[ -s $tmp/pipe.err ]] && fail "pipe: stderr not empty: $(cat "$tmp/pipe.err")"
has "$tmp/pipe.rec" "pipe record" '^1\. a1\^a2 a8\^b7 \*$'
"$tiers" replay gounki "$tmp/pipe.rec" >/dev/null 2>&1 || fail "pipe record does not replay"
case_end

case_begin
play_pipe bad $'a1^a2\nzz\na8^b7\n' gounki
rc=$?
[[ $rc -eq 2 ]] || fail "pipe bad move: exit $rc, expected 2"
has "$tmp/bad.err" "pipe bad move message" "^tiers: play: line 2: 'zz' is not a legal move here$"
hasnt "$tmp/bad.out" "stops at the bad line" "a8\^b7"
case_end

case_begin
play_pipe undo0 $'undo\n' gounki
[[ $? -eq 2 ]] || fail "undo with nothing to undo: exit code"
has "$tmp/undo0.err" "undo with nothing to undo" "line 1: undo: no move of yours to take back"
case_end

case_begin
play_pipe save0 $'save\n' gounki
[[ $? -eq 2 ]] || fail "save without a file: exit code"
has "$tmp/save0.err" "save without a file" "save: which file"
case_end

case_begin
play_pipe help $'help\n' gounki
has "$tmp/help.out" "help lists undo" "^  undo "
"$tiers" play --help >"$tmp/usage.out" 2>&1
has "$tmp/usage.out" "play --help" "^usage: tiers play VARIANT"
has "$tmp/usage.out" "play --help options" "--white WHO"
case_end

# Agents against each other: the game is played to its end, each ply one
# line, and a seed makes it repeatable.
case_begin
play_pipe agents1 '' gounki --white random --black greedy --seed 11
rc1=$?
play_pipe agents2 '' gounki --white random --black greedy --seed 11
rc2=$?
[[ $rc1 -eq 0 && $rc2 -eq 0 ]] || fail "agents: exit $rc1 / $rc2: $(head -n 2 "$tmp/agents1.err")"
has "$tmp/agents1.out" "agents play" "^1\. white "
has "$tmp/agents1.out" "agents end the game" "^game over: (1-0|0-1|1/2-1/2)"
cmp -s "$tmp/agents1.out" "$tmp/agents2.out" || fail "agents: the same seed gave two games"
case_end

# A bad agent spec is a usage error (exit 1), as in playout; the known
# agents listed include human, which play takes too.
case_begin
play_pipe badagent '' gounki --black cleverest
rc=$?
[[ $rc -eq 1 ]] || fail "unknown agent: exit $rc, expected 1 (as playout)"
has "$tmp/badagent.err" "unknown agent" "^tiers: play: --black: .*cleverest"
has "$tmp/badagent.err" "usage hint" "^try 'tiers --help'$"
case_end

case_begin
play_pipe humn '' gounki --white humn
rc=$?
[[ $rc -eq 1 ]] || fail "--white humn: exit $rc, expected 1"
has "$tmp/humn.err" "human among the known agents" "'humn': unknown agent \(known: human, random, "
case_end

case_begin
play_pipe badparam '' gounki --white greedy:mate=perhaps
rc=$?
[[ $rc -eq 1 ]] || fail "bad agent parameter: exit $rc, expected 1"
hasnt "$tmp/badparam.err" "no human among parameters" "human"
case_end

# save writes the --rule values as the Options tag, and replay applies it:
# the move-limit draw replays without repeating --rule.
case_begin
play_pipe hm $'a1^a2\nb2-b3\nd2-d3\nsave '"$tmp/hm.rec"$'\n' gounki --rule halfmove_limit=4 \
    --black random --seed 3
rc=$?
[[ $rc -eq 0 ]] || fail "halfmove_limit game: exit $rc: $(cat "$tmp/hm.err")"
has "$tmp/hm.out" "the rule ends the game" "^game over: 1/2-1/2 \(move limit\)$"
has "$tmp/hm.rec" "Options tag" '^\[Options "halfmove_limit=4"\]$'
"$tiers" replay gounki "$tmp/hm.rec" >"$tmp/hm.replay" 2>&1 ||
    fail "the record of a game with --rule does not replay: $(tail -n 1 "$tmp/hm.replay")"
has "$tmp/hm.replay" "replayed with the record's rules" "^reason: move limit$"
case_end

case_begin
play_pipe noopt $'save '"$tmp/noopt.rec"$'\n' gounki
has "$tmp/noopt.rec" "empty Options tag without --rule" '^\[Options ""\]$'
case_end

# "1 ply", not "1 plies".
case_begin
play_pipe one $'a1^a2\nsave '"$tmp/one.rec"$'\n' gounki
has "$tmp/one.out" "singular" "^saved 1 ply to "
case_end

# A position with a move number (move=N: N rounds played) numbers the
# moves from there, in the game and in the saved record.
case_begin
pos='rsrsrsrs/srsrsrsr/8/8/8/8/[R:S]SRSRSRS/1RSRSRSR - b - 1 41 move=20'
play_pipe movenum $'a8^b7\nb2-b3\nsave '"$tmp/movenum.rec"$'\n' gounki --position "$pos"
rc=$?
[[ $rc -eq 0 ]] || fail "--position with move=20: exit $rc: $(cat "$tmp/movenum.err")"
has "$tmp/movenum.out" "numbered from the position" "^21\.\.\. black a8\^b7$"
has "$tmp/movenum.out" "next round" "^22\. white b2-b3$"
has "$tmp/movenum.rec" "record numbers" '^21\.\.\. a8\^b7 22\. b2-b3 \*$'
"$tiers" replay gounki "$tmp/movenum.rec" >"$tmp/movenum.replay" 2>&1 ||
    fail "the record from a numbered position does not replay: $(tail -n 1 "$tmp/movenum.replay")"
case_end

# A human against an agent from a pipe: the agent answers each move.
case_begin
play_pipe human_agent $'a1^a2\nb2-b3\n' gounki --black random --seed 3
[[ $? -eq 0 ]] || fail "human and agent from a pipe: exit code"
has "$tmp/human_agent.out" "agent answers" "^2\.\.\. black "
case_end

# A variant with a setup phase, in its own notation dialect.
case_begin
play_pipe dialect $'moves\n' gungi-io --notation gungijs
[[ $? -eq 0 ]] || fail "gungijs notation: exit code: $(cat "$tmp/dialect.err")"
has "$tmp/dialect.out" "gungijs moves" "^  .*m\*[0-9]-[0-9]"
case_end

cli_end
