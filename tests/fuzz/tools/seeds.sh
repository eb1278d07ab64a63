#!/usr/bin/env bash
# seeds.sh TIERS: writes tests/fuzz/positions.txt (fixed positions of the
# move target) and the text seeds of tests/fuzz/corpus/{position,move,
# record}/ from deterministic random walks over the shipped variants and
# the test variants.  Run by hand when the variants change much; the
# fuzzers do not need the seeds to be current, only plausible.
set -euo pipefail
tiers=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root=$(cd "$here/../.." && pwd)
corpus=$here/corpus
mkdir -p "$corpus/position" "$corpus/move" "$corpus/record"

specs=()
for d in "$root"/variants/*/ "$root"/tests/data/variants/*/; do
    d=${d%/}
    "$tiers" check "$d" >/dev/null 2>&1 && specs+=("$d")
done

positions=$here/positions.txt
{
    echo "# Fixed positions of tests/fuzz/fuzz_move.c: variant <TAB> position"
    echo "# (tiers notation).  Written by tests/fuzz/tools/seeds.sh."
} > "$positions"

for spec in "${specs[@]}"; do
    name=$(basename "$spec")
    notations=(tiers)
    while read -r n; do notations+=("$n"); done < <(
        sed -n 's/^notations: *\[\(.*\)\].*/\1/p' "$spec/variant.yaml" | tr ',' '\n' | tr -d ' ')
    walk=$(mktemp)
    "$here/tools/walk.sh" "$tiers" "$spec" 120 42 > "$walk" || true
    mapfile -t picks < <(awk -F'\t' 'NR == 10 || NR == 40 || NR == 80 || NR == 120 {print $2}' "$walk")
    start=$("$tiers" convert "$spec" | head -1)
    k=0
    for p in "$start" "${picks[@]}"; do
        [[ $k -gt 0 ]] && printf '%s\t%s\n' "$name" "$p" >> "$positions"
        for n in "${notations[@]}"; do
            text=$("$tiers" convert "$spec" --position "$p" --to "$n" 2>/dev/null | head -1) || continue
            printf '%s:%s\n%s' "$name" "$n" "$text" > "$corpus/position/$name-$n-$k"
            mapfile -t moves < <("$tiers" moves "$spec" --position "$p" -n "$n" 2>/dev/null)
            count=${#moves[@]}
            for ((j = 0; j < count && j < 60; j += (count / 5 + 1))); do
                printf '%s:%s %d\n%s' "$name" "$n" "$k" "${moves[$j]}" \
                    > "$corpus/move/$name-$n-$k-$j"
            done
        done
        k=$((k + 1))
    done
    # A record of the walk's first 12 plies, numbered.
    {
        printf '[Variant "%s"]\n[Event "seed"]\n\n' "$name"
        awk -F'\t' 'NR <= 12 {printf "%s%s ", (NR % 2 ? (NR + 1) / 2 ". " : ""), $1} END {print "*"}' "$walk"
    } > "$corpus/record/$name-walk"
    rm -f "$walk"
done
