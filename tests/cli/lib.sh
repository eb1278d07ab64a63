# lib.sh - the harness every tests/cli/test_*.sh sources: the arguments
# (TIERS-BINARY TESTS-DIR), a scratch folder removed on exit, case and
# failure counts, and the usual ways to state a case.  A script calls
# cli_begin "$@" first and cli_end last (its exit status).
#
# After cli_begin: $tiers, $tests, $variants (tests/data/variants, absolute),
# $tmp (scratch), $failures, $cases.  A script that needs more cleaning up
# on exit defines cli_cleanup before calling cli_begin.

cli_name=$(basename "${BASH_SOURCE[1]:-$0}" .sh)
failures=0
cases=0
case_failed=0

cli_begin() {
    tiers=${1:?usage: $cli_name.sh TIERS-BINARY TESTS-DIR}
    tests=${2:?usage: $cli_name.sh TIERS-BINARY TESTS-DIR}
    [[ $tiers == */* && $tiers != /* ]] && tiers=$PWD/$tiers
    if [[ ! -x $tiers ]]; then
        echo "FAIL: no tiers binary at $tiers"
        exit 1
    fi
    variants=$(cd "$tests/data/variants" && pwd)
    tmp=$(mktemp -d)
    trap cli_exit_trap EXIT
}

cli_exit_trap() {
    if declare -F cli_cleanup >/dev/null; then
        cli_cleanup
    fi
    rm -rf "$tmp"
}

# cli_end: the summary line; the status is 0 when every case passed.
cli_end() {
    echo "$cli_name: $((cases - failures))/$cases passed"
    [[ $failures -eq 0 ]] || exit 1
    exit 0
}

# fail MESSAGE: marks the current case failed (a failure of its own
# outside case_begin ... case_end).
fail() {
    echo "FAIL: $*"
    if [[ $case_open -eq 1 ]]; then
        case_failed=1
    else
        failures=$((failures + 1))
    fi
}

# case_begin / case_end: one case made of several checks (fail marks it).
case_open=0
case_begin() {
    cases=$((cases + 1))
    case_failed=0
    case_open=1
}
case_end() {
    failures=$((failures + case_failed))
    case_open=0
}

# expect NAME CODE STDOUT-PATTERN|- STDERR-PATTERN|- -- ARGS...: runs
# `tiers ARGS` (standard input from $tmp/in when it exists, which is then
# removed, else /dev/null), leaves $tmp/out and $tmp/err; the case passes
# when it exits CODE and each pattern (grep -E) matches its stream.
expect() {
    local name=$1 code=$2 out_re=$3 err_re=$4
    shift 5
    case_begin
    local in=/dev/null
    [[ -f $tmp/in ]] && in=$tmp/in
    "$tiers" "$@" <"$in" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    rm -f "$tmp/in"
    if [[ $rc -ne $code ]]; then
        fail "$name: exit $rc, expected $code (tiers $*)"
        sed 's/^/    stderr: /' "$tmp/err" | head -n 5
    else
        if [[ $out_re != - ]] && ! grep -Eq -- "$out_re" "$tmp/out"; then
            fail "$name: stdout does not match /$out_re/ (tiers $*)"
            sed 's/^/    stdout: /' "$tmp/out" | head -n 5
        fi
        if [[ $err_re != - ]] && ! grep -Eq -- "$err_re" "$tmp/err"; then
            fail "$name: stderr does not match /$err_re/ (tiers $*)"
            sed 's/^/    stderr: /' "$tmp/err" | head -n 5
        fi
    fi
    case_end
}

# check NAME STATUS MESSAGE...: a case decided by the caller (0 = pass).
check() {
    local name=$1 ok=$2
    shift 2
    case_begin
    [[ $ok -eq 0 ]] || fail "$name: $*"
    case_end
}

# check_cmd NAME COMMAND...: a case that passes when COMMAND succeeds.
check_cmd() {
    local name=$1
    shift
    case_begin
    "$@" || fail "$name"
    case_end
}

# same NAME WANT GOT: a case that passes when the two strings are equal.
same() {
    case_begin
    if [[ $2 != "$3" ]]; then
        fail "$1"
        printf '  want: %s\n  got:  %s\n' "$2" "$3"
    fi
    case_end
}

# check_sh NAME SHELL-CODE: a case that passes when the code succeeds.
check_sh() {
    check_cmd "$1" eval "$2"
}

# has FILE NAME PATTERN: a line of FILE matches (grep -E); fails NAME
# with FILE's last lines otherwise.
has() {
    grep -Eq -- "$3" "$1" || { fail "$2: no line matches /$3/"; sed 's/^/    | /' "$1" | tail -n 15; }
}

# hasnt FILE NAME PATTERN: no line of FILE matches.
hasnt() {
    ! grep -Eq -- "$3" "$1" || fail "$2: a line matches /$3/"
}

# run ARGS...: one case of several checks on `tiers ARGS` (standard input
# from $tmp/in as expect takes it); leaves $tmp/out, $tmp/err and $rc for
# expect_rc, expect_out and expect_grep, which fail the case.
run() {
    cases=$((cases + 1))
    local in=/dev/null
    [[ -f $tmp/in ]] && in=$tmp/in
    "$tiers" "$@" <"$in" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    rm -f "$tmp/in"
}

# expect_rc NAME CODE: the last run exited with CODE (status 1 otherwise,
# so that checks of its output can be skipped with &&).
expect_rc() {
    if [[ $rc -ne $2 ]]; then
        fail "$1: exit $rc, expected $2"
        sed 's/^/    stderr: /' "$tmp/err" | head -n 5
        return 1
    fi
    return 0
}

# expect_out NAME TEXT: stdout is exactly TEXT (plus a final newline).
expect_out() {
    if [[ "$(cat "$tmp/out")" != "$2" ]]; then
        fail "$1: stdout differs"
        diff <(printf '%s\n' "$2") "$tmp/out" | head -n 10 | sed 's/^/    /'
    fi
}

# expect_grep NAME FILE PATTERN: $tmp/FILE (out or err) matches the ERE.
expect_grep() {
    if ! grep -Eq -- "$3" "$tmp/$2"; then
        fail "$1: $2 does not match /$3/"
        sed "s/^/    $2: /" "$tmp/$2" | head -n 5
    fi
}
