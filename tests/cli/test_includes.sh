#!/usr/bin/env bash
# test_includes.sh - the include rules of engine/ (docs/architecture.md):
#  1. only engine/src/lua/ includes the Lua headers (lua.h, lauxlib.h,
#     lualib.h);
#  2. only the YAML reader includes yaml.h;
#  3. the modules of engine/src include each other without a cycle (a
#     module is a .c/.h pair: a.c or a.h including "b.h" is an edge a -> b);
#  4. the playout lab (engine/lab) includes no header of the program
#     (engine/cli), and the drawing files (svg, png) include no cli.h.
# Each rule is a case, then a self-test: each rule must catch a broken
# copy of engine/.  Usage: test_includes.sh TIERS-BINARY TESTS-DIR (the
# binary is not used).
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
engine=$(cd "$tests/../engine" && pwd)

# The YAML reader: the files allowed to include yaml.h (paths under engine/).
yaml_readers=(src/yamltree.c)
# The program's files that draw, built on tiers.h alone.
drawing=(cli/svg.c cli/svg.h cli/png.c cli/png.h)

# sources ENGINE: the C files under ENGINE, relative to it.
sources() { (cd "$1" && find src cli include lab -name '*.[ch]' 2>/dev/null | LC_ALL=C sort); }

# include_re ERE: a line that includes a header whose name matches ERE.
include_re() { echo "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($1)[>\"]"; }

# including ENGINE ERE FILE...: those of the FILEs (under ENGINE) that
# include a header matching ERE, one grep for all.
including() {
    local engine=$1 re
    re=$(include_re "$2")
    shift 2
    (($#)) && (cd "$engine" && grep -lE -- "$re" "$@")
}

# Each rule_* ENGINE prints one line per file that breaks it.
rule_lua() {
    local files
    mapfile -t files < <(sources "$1" | grep -v '^src/lua/')
    including "$1" '(lua|lauxlib|lualib)\.h' "${files[@]}" |
        sed 's|$| includes a Lua header (only engine/src/lua/ may)|'
}

rule_yaml() {
    local files
    mapfile -t files < <(sources "$1" | grep -vxF -f <(printf '%s\n' "${yaml_readers[@]}"))
    including "$1" 'yaml\.h' "${files[@]}" |
        sed "s|\$| includes yaml.h (only ${yaml_readers[*]} may)|"
}

rule_cycle() {
    local engine=$1 edges loops files f inc dir from to target
    mapfile -t files < <(sources "$engine" | grep '^src/')
    edges=$(
        (cd "$engine" && grep -HE "$(include_re '[^"]+')" "${files[@]}") |
        while IFS= read -r line; do
            f=${line%%:*}
            inc=${line#*\"}
            inc=${inc%%\"*}
            dir=${f%/*}
            if [[ -f $engine/$dir/$inc ]]; then target=$dir/$inc
            elif [[ -f $engine/src/$inc ]]; then target=src/$inc
            else continue; fi  # engine/include/tiers.h and the like
            from=${f#src/}
            from=${from%.[ch]}
            to=${target#src/}
            to=${to%.[ch]}
            if [[ $to != "$from" ]]; then echo "$from $to"; fi
        done
    )
    if ! loops=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null) || [[ -n $loops ]]; then
        echo "the includes of engine/src form a cycle:"
        printf '%s\n' "$loops" | sed 's/^tsort: /  /'
    fi
}

rule_layers() {
    local cli_headers files drawn f
    cli_headers=$(cd "$1/cli" && ls -- *.h 2>/dev/null | sed 's/\./\\./' | paste -sd '|')
    mapfile -t files < <(sources "$1" | grep '^lab/')
    [[ -n $cli_headers ]] && including "$1" "$cli_headers" "${files[@]}" |
        sed 's|$| includes a header of engine/cli (the lab knows nothing of the program)|'
    drawn=()
    for f in "${drawing[@]}"; do [[ -f $1/$f ]] && drawn+=("$f"); done
    including "$1" 'cli\.h' "${drawn[@]}" |
        sed 's|$| includes cli.h (drawing is built on tiers.h alone)|'
}

rules=(lua yaml cycle layers)

# obeys ENGINE RULE: the rule finds nothing to say (it is printed when it does).
obeys() {
    local said
    said=$("rule_$2" "$1")
    [[ -z $said ]] && return 0
    printf '%s\n' "$said" | sed 's/^/    /'
    return 1
}

# breaks ENGINE RULE: the rule complains.
breaks() { [[ -n $("rule_$2" "$1") ]]; }

for r in "${rules[@]}"; do
    check_cmd "engine/ obeys rule $r" obeys "$engine" "$r"
done

# --- self-test: each rule catches a broken copy -----------------------------
copy=$tmp/engine
fresh() {
    rm -rf "$copy"
    mkdir -p "$copy"
    cp -r "$engine/src" "$engine/cli" "$engine/include" "$engine/lab" "$copy/"
}
fresh
for r in "${rules[@]}"; do
    check_cmd "self-test: an unchanged copy obeys rule $r" obeys "$copy" "$r"
done
fresh; echo '#include <lua.h>' >>"$copy/src/movegen.c"
check_cmd "self-test: rule lua catches lua.h in movegen.c" breaks "$copy" lua
fresh; echo '#include <yaml.h>' >>"$copy/cli/main.c"
check_cmd "self-test: rule yaml catches yaml.h in cli/main.c" breaks "$copy" yaml
fresh; echo '#include "movegen.h"' >>"$copy/src/position.h"
check_cmd "self-test: rule cycle catches position -> movegen -> position" breaks "$copy" cycle
fresh; echo '#include "cli.h"' >>"$copy/lab/db.c"
check_cmd "self-test: rule layers catches cli.h in lab/db.c" breaks "$copy" layers
fresh; echo '#include "jsonw.h"' >>"$copy/lab/stats.h"
check_cmd "self-test: rule layers catches jsonw.h in lab/stats.h" breaks "$copy" layers
fresh; echo '#include "cli.h"' >>"$copy/cli/svg.c"
check_cmd "self-test: rule layers catches cli.h in cli/svg.c" breaks "$copy" layers

cli_end
