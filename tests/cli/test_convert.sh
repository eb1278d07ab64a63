#!/usr/bin/env bash
# tiers convert: gungi.js strings to tiers notation and back, moves too.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
gj='9/5j3/2G6/i1M6/2d2W3/2a6/k2i3r1/|t:c:a|1g|w:j||s:d|1js1/1m1d2|j:c:r|1i G5I4J4R2T1W1F2C1S2D9/g4i1d6 w - 0 79'
own='i1[j:c:r]2d1m1/1sj1[s:d][w:j]g1[t:c:a]/1r3i2k/6a2/3W2d2/6M1i/6G2/3j5/9 G5I4J4R2TWF2CS2D9g4id6 w - 0 79'
out=$("$tiers" convert gungi-io --notation gungijs --to tiers --position "$gj" '4-7>3-6' '2-4>1-3')
same "gungijs -> tiers" "$own"$'\n'"g4-f3"$'\n'"d2-c1" "$out"
out=$("$tiers" convert gungi-io --to gungijs --position "$own" 'g4-f3')
same "tiers -> gungijs" "$gj"$'\n'"4-7>3-6" "$out"
"$tiers" convert gungi-io --notation gungijs --position "$gj" '1-1>1-2' >/dev/null 2>&1
same "illegal move exits 2" 2 $?
"$tiers" convert gungi-io --to nonsense --position "$own" >/dev/null 2>&1
same "unknown notation exits 2" 2 $?
cli_end
