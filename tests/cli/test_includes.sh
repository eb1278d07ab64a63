#!/bin/bash
# test_includes.sh - the include rules of engine/ (docs/architecture.md):
#  1. only engine/src/lua/ includes the Lua headers (lua.h, lauxlib.h,
#     lualib.h);
#  2. only the YAML reader includes yaml.h;
#  3. the modules of engine/src include each other without a cycle (a
#     module is a .c/.h pair: a.c or a.h including "b.h" is an edge a -> b).
# Usage: test_includes.sh TIERS_BINARY TESTS_DIR (the binary is not used).
# With CHECK_INCLUDES_ROOT set, the engine/ under that directory is checked
# instead (the self-test below uses it).
set -u
tests_dir=${2:-$(dirname "$0")/..}
root=${CHECK_INCLUDES_ROOT:-$tests_dir/..}
engine=$root/engine

# The YAML reader: the files allowed to include yaml.h (paths under engine/).
yaml_readers=(src/yamltree.c)

fail=0
complain() { echo "test_includes: $*" >&2; fail=1; }

sources() { (cd "$engine" && find src cli include -name '*.[ch]' | LC_ALL=C sort); }

# Rules 1 and 2: who includes a library header.
while read -r f; do
    if grep -Eq '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](lua|lauxlib|lualib)\.h[>"]' \
        "$engine/$f" && [[ $f != src/lua/* ]]; then
        complain "$f includes a Lua header (only engine/src/lua/ may)"
    fi
    if grep -Eq '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]yaml\.h[>"]' "$engine/$f"; then
        allowed=0
        for r in "${yaml_readers[@]}"; do [[ $f == "$r" ]] && allowed=1; done
        ((allowed)) || complain "$f includes yaml.h (only ${yaml_readers[*]} may)"
    fi
done < <(sources)

# Rule 3: the module graph of engine/src, checked by tsort.
module_of() { local m=${1#src/}; echo "${m%.[ch]}"; }
edges=$(
    while read -r f; do
        [[ $f == src/* ]] || continue
        from=$(module_of "$f")
        dir=$(dirname "$f")
        sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/p' "$engine/$f" |
        while read -r inc; do
            if [[ -f $engine/$dir/$inc ]]; then target=$dir/$inc
            elif [[ -f $engine/src/$inc ]]; then target=src/$inc
            else continue; fi  # engine/include/tiers.h and the like
            to=$(module_of "$target")
            if [[ $to != "$from" ]]; then echo "$from $to"; fi
        done
    done < <(sources)
)
if ! loops=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null) || [[ -n $loops ]]; then
    complain "the includes of engine/src form a cycle:"
    printf '%s\n' "$loops" | sed 's/^tsort: /  /' >&2
fi

# Self-test: each rule must catch a broken copy (run once, not recursively).
if [[ -z ${CHECK_INCLUDES_ROOT:-} ]] && ((fail == 0)); then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    expect_failure() { # NAME: the rules must reject the tree in $tmp
        if CHECK_INCLUDES_ROOT=$tmp bash "$0" - - 2>/dev/null; then
            complain "self-test: a tree with $1 passed"
        fi
    }
    fresh() {
        rm -rf "$tmp/engine"
        mkdir -p "$tmp/engine"
        cp -r "$engine/src" "$engine/cli" "$engine/include" "$tmp/engine/"
    }
    fresh
    if ! CHECK_INCLUDES_ROOT=$tmp bash "$0" - - 2>/dev/null; then
        complain "self-test: an unchanged copy failed"
    fi
    fresh; echo '#include <lua.h>' >> "$tmp/engine/src/movegen.c"; expect_failure "lua.h in movegen.c"
    fresh; echo '#include <yaml.h>' >> "$tmp/engine/cli/main.c"; expect_failure "yaml.h in cli/main.c"
    fresh; echo '#include "movegen.h"' >> "$tmp/engine/src/position.h"; expect_failure "a cycle position -> movegen -> position"
fi

exit $fail
