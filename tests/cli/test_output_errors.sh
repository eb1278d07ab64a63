#!/usr/bin/env bash
# test_output_errors.sh - the small cases of issue 19 (item 8): output
# that cannot be written is exit 3 for every way tiers prints help or its
# version, reported once; a variant whose start: does not read is bad
# input (exit 2) naming its file and the start key.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
duel=$variants/duel
for args in "--help" "-h" "help" "--version" "help render" "render --help" "playout --help"; do
    # shellcheck disable=SC2086
    "$tiers" $args >/dev/full 2>"$tmp/err"
    rc=$?
    check "tiers $args >/dev/full exits 3" $((rc != 3)) "exit $rc"
    same "tiers $args >/dev/full: one error line" 1 "$(grep -c 'error writing the output' "$tmp/err")"
    "$tiers" $args >/dev/null 2>&1
    check "tiers $args exits 0" $? "exit $?"
done
for args in "render $duel" "show $duel" "moves $duel" "variants"; do
    # shellcheck disable=SC2086
    "$tiers" $args >/dev/full 2>"$tmp/err"
    rc=$?
    check "tiers $args >/dev/full exits 3" $((rc != 3)) "exit $rc"
    same "tiers $args >/dev/full: the error once" 1 "$(wc -l <"$tmp/err")"
done
mkdir -p "$tmp/bad"
sed 's|^start: .*|start: "zz/qq - w - 0 0"|' "$duel/variant.yaml" >"$tmp/bad/variant.yaml"
grep -q '^start: "zz' "$tmp/bad/variant.yaml"
check "the bad start is in place" $? "sed did not change start:"
expect "a start that does not read" 2 - "bad/variant.yaml:[0-9]+:8: start: .*bad piece token" -- \
    show "$tmp/bad"
cli_end
