#!/usr/bin/env bash
# Every example of README.md, run as its Quick start says a reader would:
# `cmake --install build --prefix ~/.local` (HOME is a scratch folder
# here, build the folder of the binary under test), then its `export
# PATH=...` line, then each `tiers ...` line of its sh blocks, exactly as
# written, in a scratch folder holding the files the examples assume
# (game.txt, ./myvariant).  `tiers serve` runs until a timeout stops it.
# Usage: bash test_readme.sh TIERS TESTS-DIR
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
readme=$(cd "$tests/.." && pwd)/README.md
games=$(cd "$tests/data/games/gounki" && pwd)
build=$(cd "$(dirname "$tiers")" && pwd)
unset TIERS_VARIANT_DIR TIERS_VARIANT_PATH

# The lines of the sh blocks.
sh_lines=$(awk '/^```sh$/ {on = 1; next} /^```/ {on = 0} on' "$readme")

# The Quick start keeps its two commands and gives the install and PATH.
check_sh "quick start: demo" "grep -q '^bash scripts/demo ' <<<\"\$sh_lines\""
check_sh "quick start: test" "grep -q '^bash scripts/test ' <<<\"\$sh_lines\""
check_sh "quick start names build/tiers" "grep -q '\`build/tiers\`' '$readme'"
install_line=$(grep '^cmake --install ' <<<"$sh_lines")
path_line=$(grep '^export PATH=' <<<"$sh_lines")
same "README's install line" 'cmake --install build --prefix ~/.local' "$install_line"
same "README's PATH line" 'export PATH="$HOME/.local/bin:$PATH"' "$path_line"

export HOME=$tmp/home
mkdir -p "$HOME"
check_sh "cmake --install build --prefix ~/.local" \
    "cmake --install '$build' --prefix '$HOME/.local' >/dev/null"
eval "$path_line"
same "tiers on the PATH is the installed one" "$HOME/.local/bin/tiers" "$(command -v tiers)"

mkdir -p "$tmp/work"
cd "$tmp/work" || exit 1
cp "$games/walraet-2004.txt" game.txt 2>/dev/null || cp "$(ls "$games"/*.txt | head -1)" game.txt
cp -r "$HOME/.local/share/tiers/variants/gounki" myvariant

n=0
while IFS= read -r line; do
    cmd=$(sed -E 's/[[:space:]]+#.*$//' <<<"$line")
    n=$((n + 1))
    case_begin
    if [[ $cmd == "tiers serve "* ]]; then
        timeout 5 bash -c "$cmd" >serve.out 2>serve.err
        rc=$?
        [[ $rc -eq 124 ]] || fail "README: $cmd: exit $rc, expected to serve until stopped"
        grep -q '^http://127\.0\.0\.1:[0-9]*/?token=' serve.out ||
            fail "README: $cmd: no address printed"
    else
        timeout 600 bash -c "$cmd" </dev/null >out.txt 2>err.txt
        rc=$?
        if [[ $rc -ne 0 ]]; then
            fail "README: $cmd: exit $rc"
            sed 's/^/    stderr: /' err.txt | head -n 5
        fi
    fi
    case_end
done < <(grep -E '^tiers ' <<<"$sh_lines")
check_sh "README has examples" "[[ $n -ge 15 ]]"
# What the examples leave behind.
check_sh "render wrote board.svg" "grep -q '<svg' board.svg"
check_sh "render --piece wrote general.svg" "grep -q 'tier 3' general.svg"
check_sh "compare wrote report.html" "grep -qi '<html' report.html"
check_sh "export wrote records" "ls games/*.txt >/dev/null"

cli_end
