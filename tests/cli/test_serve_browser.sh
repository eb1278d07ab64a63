#!/usr/bin/env bash
# test_serve_browser.sh - the page of `tiers serve` in real headless
# Chromium (puppeteer-core, installed by `scripts/setup --browser` from the
# committed package-lock.json): tests/browser/studio.test.js clicks a piece
# and compares the highlighted squares with `tiers moves`, moves, lets an
# agent reply, pastes a position and sees a promotion's effect;
# tests/browser/studio-live.test.js plays an effect move with no target,
# edits variant files under the running server (live reload, a broken
# game, the error panel), edits a position and runs a comparison.
# Screenshots of each step go to browser/ beside the tiers binary (the
# build folder).  Without Chromium or the node modules the test is skipped,
# unless TIERS_REQUIRE_CHROMIUM is set (scripts/test sets it).
# shellcheck source=lib.sh
source "$(dirname "$0")/lib.sh"
cli_begin "$@"

browser_dir=$(cd "$tests/browser" && pwd)
shots=$(cd "$(dirname "$tiers")" && pwd)/browser
missing=
[[ -x /usr/bin/chromium ]] || missing="/usr/bin/chromium"
command -v node >/dev/null 2>&1 || missing="$missing node"
[[ -d $browser_dir/node_modules/puppeteer-core ]] || missing="$missing tests/browser/node_modules (npm ci)"

if [[ -z $missing ]]; then
    for test in studio studio-live; do
        case_begin
        timeout 300 node "$browser_dir/$test.test.js" "$tiers" "$tests" "$shots" \
            >"$tmp/browser.out" 2>&1
        rc=$?
        sed 's/^/    /' "$tmp/browser.out"
        [[ $rc -eq 0 ]] || fail "$test.test.js in Chromium (exit $rc)"
        case_end
    done
    n=$(find "$shots" -name 'studio-[0-9]*.png' -newer "$tmp" 2>/dev/null | wc -l)
    case_begin
    [[ $n -eq 5 ]] || fail "5 screenshots of studio.test.js in $shots, found $n"
    case_end
    n=$(find "$shots" -name 'studio-live-*.png' -newer "$tmp" 2>/dev/null | wc -l)
    case_begin
    [[ $n -eq 9 ]] || fail "9 screenshots of studio-live.test.js in $shots, found $n"
    case_end
elif [[ -n ${TIERS_REQUIRE_CHROMIUM:-} ]]; then
    case_begin
    fail "the browser test needs$missing (TIERS_REQUIRE_CHROMIUM; scripts/setup --browser)"
    case_end
else
    echo "skip: no$missing; the page was not tested (scripts/setup --browser)"
fi

cli_end
