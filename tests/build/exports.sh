#!/usr/bin/env bash
# The shared library's dynamic symbol table holds the public API alone:
# every defined symbol is a tiers_* name, and each function tiers.h
# declares with TIERS_API is there.  Usage: exports.sh LIBTIERS.so
set -uo pipefail
lib=${1:?usage: exports.sh LIBTIERS.so}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
header=$here/../../engine/include/tiers.h
fail=0

defined=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u)
[[ -n $defined ]] || { echo "exports: no symbols read from $lib" >&2; exit 1; }
stray=$(grep -v '^tiers_' <<<"$defined" | grep -Ev '^(_init|_fini|_edata|_end|__bss_start)$')
if [[ -n $stray ]]; then
    echo "exports: $lib exports internal names:" >&2
    sed 's/^/  /' <<<"$stray" >&2
    fail=1
fi

# TIERS_API declarations may wrap: join each one to its '('.
declared=$(tr '\n' ' ' <"$header" | grep -o 'TIERS_API [^(;]*(' |
           grep -o 'tiers_[a-z0-9_]*($' | tr -d '(' | sort -u)
[[ -n $declared ]] || { echo "exports: no TIERS_API declarations in $header" >&2; exit 1; }
missing=$(comm -23 <(echo "$declared") <(echo "$defined"))
if [[ -n $missing ]]; then
    echo "exports: declared TIERS_API in tiers.h but not exported:" >&2
    sed 's/^/  /' <<<"$missing" >&2
    fail=1
fi
[[ $fail -eq 0 ]] && echo "exports: $(wc -l <<<"$declared") public functions, no other names"
exit $fail
