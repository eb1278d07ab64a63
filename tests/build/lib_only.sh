#!/usr/bin/env bash
# -DTIERS_BUILD_CLI=OFF configures and builds the library alone: no tiers
# program, no SQLite, libedit or jansson needed, both libraries built.
# Usage: lib_only.sh SOURCE_DIR
set -uo pipefail
src=${1:?usage: lib_only.sh SOURCE_DIR}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DTIERS_BUILD_CLI=OFF >"$dir/log" 2>&1 &&
    cmake --build "$dir" -j "$(nproc)" >>"$dir/log" 2>&1 ||
    { echo "lib_only: the library-only build failed:" >&2; tail -30 "$dir/log" >&2; exit 1; }
fail=0
for f in libtiers.a libtiers.so; do
    [[ -n $(find "$dir" -name "$f*" -print -quit) ]] || { echo "lib_only: $f not built" >&2; fail=1; }
done
if [[ -n $(find "$dir" -type f -name tiers -perm -u+x -print -quit) ]]; then
    echo "lib_only: the tiers program was built although TIERS_BUILD_CLI=OFF" >&2
    fail=1
fi
if grep -q '^pkgcfg_lib_\(SQLITE\|EDIT\|JANSSON\)' "$dir/CMakeCache.txt"; then
    echo "lib_only: the library-only configure looked for SQLite, libedit or jansson" >&2
    fail=1
fi
[[ $fail -eq 0 ]] && echo "lib_only: library built alone"
exit $fail
