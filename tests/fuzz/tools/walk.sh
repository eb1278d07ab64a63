#!/usr/bin/env bash
# walk.sh TIERS VARIANT PLIES SEED: a deterministic random walk with the
# tiers CLI.  Prints one line per ply: the move (tiers notation), a tab,
# and the position after it.  Used to write tests/fuzz/positions.txt and
# the seed corpora (tests/fuzz/tools/seeds.sh).
set -euo pipefail
tiers=$1 variant=$2 plies=$3 seed=$4
pos=$("$tiers" convert "$variant" | head -1)
for ((i = 0; i < plies; i++)); do
    mapfile -t moves < <("$tiers" moves "$variant" --position "$pos")
    ((${#moves[@]})) || break
    seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
    m=${moves[$(( seed % ${#moves[@]} ))]}
    pos=$("$tiers" apply "$variant" --position "$pos" "$m" --json |
          sed 's/.*"position":"\([^"]*\)".*/\1/')
    printf '%s\t%s\n' "$m" "$pos"
done
