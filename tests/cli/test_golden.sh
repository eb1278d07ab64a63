#!/usr/bin/env bash
# The JSON of every --json command, byte for byte, against the golden files
# in tests/data/golden (cases.sh lists the commands).  Timing figures vary
# from run to run, so their values are replaced by T before comparing, and
# the source folder by @SRC@.  TIERS_GOLDEN_UPDATE=1 rewrites the files
# instead (then review the diff).
# Usage: bash test_golden.sh TIERS TESTS-DIR
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
data=$(cd "$tests/data" && pwd)
src=$(cd "$tests/.." && pwd)
gold=$data/golden
mkdir -p "$tmp/work"

# The variants the shipped names resolve to, whatever the caller set.
export TIERS_VARIANT_DIR=$src/variants
timing='seconds|[a-z_]*_seconds|[a-z_]*_per_second|[a-z_]*_per_cpu_second|seconds_per_game'

# normalise KEYS < RAW > STABLE: the values of the number fields KEYS
# (an extended regular expression) become T.
normalise() {
    sed -E -e "s#$src#@SRC@#g" -e "s/\"($1)\":( ?)[0-9.eE+-]+/\"\1\":\2T/g"
}

# golden NAME [--stdin FILE] [--loose KEY,...] ARGS...
golden() {
    local name=$1 in=/dev/null keys=$timing
    shift
    if [[ ${1:-} == --stdin ]]; then
        in=${2//@D@/$data}
        shift 2
    fi
    if [[ ${1:-} == --loose ]]; then
        keys="$keys|${2//,/|}"
        shift 2
    fi
    local args=() a
    for a in "$@"; do args+=("${a//@D@/$data}"); done
    case_begin
    (cd "$tmp/work" && "$tiers" "${args[@]}" <"$in" >"$tmp/raw" 2>"$tmp/err")
    local rc=$?
    normalise "$keys" <"$tmp/raw" >"$tmp/got"
    echo "$rc" >>"$tmp/got"
    if [[ ${TIERS_GOLDEN_UPDATE:-0} == 1 ]]; then
        cp "$tmp/got" "$gold/$name.json"
    elif ! cmp -s "$gold/$name.json" "$tmp/got"; then
        fail "$name: output differs from golden/$name.json (tiers $*)"
        diff "$gold/$name.json" "$tmp/got" | head -n 10 | sed 's/^/    /'
    fi
    case_end
}

source "$gold/cases.sh"
cli_end
