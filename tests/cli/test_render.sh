#!/usr/bin/env bash
# CLI tests of `tiers render`: the golden pictures of tests/data/svg
# (cases.txt names them), every picture well-formed XML, the start of every
# variant `tiers variants` lists, the options and their errors, and --png.
# Usage: bash test_render.sh TIERS TESTS-DIR
#
# TIERS_REGEN_GOLDEN=1 writes the golden files instead of comparing them
# (scripts/regen-golden does that); nothing else ever rewrites them.
set -u

source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cli_begin "$@"
golden="$tests/data/svg"

# well_formed FILE: 0 when FILE is well-formed XML.  xmllint (Debian
# libxml2-utils) when installed, else a small checker: every tag closed in
# order, attributes quoted, only the five predefined entities or
# character references, nothing after the root element.
well_formed() {
    if command -v xmllint >/dev/null 2>&1; then
        xmllint --noout "$1" 2>"$tmp/xmlerr"
        return
    fi
    awk '
    BEGIN { RS = "<"; depth = 0; bad = ""; roots = 0 }
    NR == 1 { if ($0 ~ /[^ \t\r\n]/) bad = "text before the root"; next }
    {
        n = index($0, ">")
        if (n == 0) { bad = "unclosed tag"; exit }
        tag = substr($0, 1, n - 1); text = substr($0, n + 1)
        if (text ~ /&/ && text !~ /^([^&]*&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);)*[^&]*$/) {
            bad = "bad entity in text"; exit
        }
        if (tag ~ /^\?/ || tag ~ /^!--/) next
        if (tag ~ /^\//) {
            name = substr(tag, 2); sub(/[ \t\r\n]+$/, "", name)
            if (depth == 0 || stack[depth] != name) { bad = "</" name "> closes " stack[depth]; exit }
            depth--
            if (depth == 0 && text ~ /[^ \t\r\n]/) { bad = "text after the root"; exit }
            next
        }
        selfclose = tag ~ /\/$/
        if (selfclose) tag = substr(tag, 1, length(tag) - 1)
        name = tag; sub(/[ \t\r\n].*/, "", name)
        if (name !~ /^[A-Za-z_][A-Za-z0-9_.:-]*$/) { bad = "bad tag name " name; exit }
        attrs = substr(tag, length(name) + 1)
        gsub(/[ \t\r\n]+[A-Za-z_][A-Za-z0-9_.:-]*="[^"<]*"/, "", attrs)
        if (attrs ~ /[^ \t\r\n]/) { bad = "bad attributes in <" name ">"; exit }
        if (depth == 0) roots++
        if (roots > 1) { bad = "two root elements"; exit }
        if (!selfclose) stack[++depth] = name
    }
    END {
        if (bad == "" && depth) bad = "<" stack[depth] "> not closed"
        if (bad == "" && roots != 1) bad = "no root element"
        if (bad != "") { print bad > "/dev/stderr"; exit 1 }
    }' "$1" 2>"$tmp/xmlerr"
}

# Fields of a case line split on " | "; "@" at the start of a field = the
# tests folder.
split_case() {
    local line=$1 field
    fields=()
    while [[ $line == *" | "* ]]; do
        field=${line%% | *}
        fields+=("$field")
        line=${line#* | }
    done
    fields+=("$line")
    for i in "${!fields[@]}"; do
        [[ ${fields[$i]} == @* ]] && fields[$i]="$tests/${fields[$i]#@}"
    done
}

# ------------------------------------------------------------ goldens
regen=${TIERS_REGEN_GOLDEN:-}
while IFS= read -r line; do
    [[ -z $line || $line == \#* ]] && continue
    split_case "$line"
    name=${fields[0]}
    args=("${fields[@]:1}")
    case_begin
    if ! "$tiers" render "${args[@]}" -o "$tmp/$name.svg" 2>"$tmp/err"; then
        fail "$name: tiers render ${args[*]} failed"
        sed 's/^/    stderr: /' "$tmp/err" | head -n 5
    elif ! well_formed "$tmp/$name.svg"; then
        fail "$name: not well-formed XML"
        sed 's/^/    /' "$tmp/xmlerr" | head -n 5
    elif [[ -n $regen ]]; then
        cp "$tmp/$name.svg" "$golden/$name.svg"
        echo "wrote $golden/$name.svg"
    elif [[ ! -f $golden/$name.svg ]]; then
        fail "$name: no golden file $golden/$name.svg (scripts/regen-golden)"
    elif ! diff -u "$golden/$name.svg" "$tmp/$name.svg" >"$tmp/diff"; then
        fail "$name: differs from $name.svg (if on purpose: scripts/regen-golden)"
        head -n 20 "$tmp/diff" | sed 's/^/    /'
    fi
    case_end
done <"$golden/cases.txt"

# Every golden file is a case (no stale pictures) and well-formed.
for f in "$golden"/*.svg; do
    [[ -e $f ]] || continue
    case_begin
    base=$(basename "$f" .svg)
    grep -q "^$base | " "$golden/cases.txt" || fail "$base.svg: no case in cases.txt"
    well_formed "$f" || fail "$base.svg: not well-formed XML"
    case_end
done

# ----------------------------------------------- every variant's start
# (A variant that does not load is the business of `tiers check` and its
# tests; it is skipped here.)
while read -r variant _; do
    [[ -n $variant ]] || continue
    if ! "$tiers" check "$variant" >/dev/null 2>&1; then
        echo "skip: start of $variant (tiers check fails)"
        continue
    fi
    case_begin
    if ! "$tiers" render "$variant" >"$tmp/v.svg" 2>"$tmp/err"; then
        fail "start of $variant: render failed"
        sed 's/^/    stderr: /' "$tmp/err" | head -n 3
    elif ! well_formed "$tmp/v.svg"; then
        fail "start of $variant: not well-formed XML"
    fi
    case_end
done < <("$tiers" variants 2>/dev/null)

# ------------------------------------------------- options and errors
record="$tests/data/games/gounki/walraet-2004-tiers.txt"
expect "help" 0 '^usage: tiers render' - -- render --help
expect "stdout by default" 0 '^<svg ' - -- render gounki
expect "caption" 0 'gounki · ply 0 · white to move' - -- render gounki
expect "last move in caption" 0 'last: a1\^a2' - -- render gounki --move 'a1^a2'
expect "ply 0 has no last move" 0 'ply 0 · white to move<' - -- \
    render gounki --record "$record" --ply 0
expect "ply 1" 0 'last: a1\^a2<' - -- render gounki --record "$record" --ply 1
# a record played under other rules: drawn by the move limit of its Options
cat >"$tmp/hm.txt" <<'REC'
[Variant "gounki"]
[Options "halfmove_limit=4"]
[Result "1/2-1/2"]

1. a1^a2 b7-a6 2. b2-b3 e8^d7 3. d2-d3 1/2-1/2
REC
expect "record's Options applied" 0 'last: d2-d3<' - -- render gounki --record "$tmp/hm.txt"
expect "--rule wins over the record's" 2 - "hm.txt:5:40: the record says 1/2-1/2" \
    -- render gounki --record "$tmp/hm.txt" --rule halfmove_limit=0
sed 's/^\[Options .*/[Options "nosuch=1"]/' "$tmp/hm.txt" >"$tmp/hm-bad.txt"
expect "bad Options in a record" 2 - "hm-bad.txt:2:11: Options tag: 'nosuch=1'" \
    -- render gounki --record "$tmp/hm-bad.txt"
expect "ply without record" 1 - "--ply needs --record" -- render gounki --ply 3
expect "record and position" 1 - "do not combine" -- \
    render gounki --record "$record" --position x
expect "bad ply" 1 - "'-1'" -- render gounki --record "$record" --ply=-1
expect "ply past the end" 2 - "has only 24 plies" -- \
    render gounki --record "$record" --ply 25
expect "missing record" 2 - "no/such.txt" -- render gounki --record "$tmp/no/such.txt"
expect "illegal move" 2 - "--move 'a1-a5'" -- render gounki --move a1-a5
expect "bad position" 2 - "bad position" -- render gounki --position nonsense
expect "png needs a file" 1 - "--png needs --output" -- render gounki --png
expect "unwritable output" 3 - "$tmp/no/dir/x.svg" -- \
    render gounki -o "$tmp/no/dir/x.svg"

# stdin for --record -: the test above read /dev/null; feed the record.
case_begin
if ! "$tiers" render gounki --record - --ply 24 <"$record" >"$tmp/stdin.svg" 2>"$tmp/err" ||
   ! grep -q 'ply 24' "$tmp/stdin.svg"; then
    fail "record from stdin: $(head -n 1 "$tmp/err")"
fi
case_end

# -o FILE writes what stdout gets.
case_begin
"$tiers" render gounki --move 'a1^a2' >"$tmp/a.svg" 2>/dev/null
"$tiers" render gounki --move 'a1^a2' -o "$tmp/b.svg" 2>/dev/null
cmp -s "$tmp/a.svg" "$tmp/b.svg" || fail "-o FILE differs from standard output"
case_end

# ------------------------------------------------------------- --png
# TIERS_TEST_PNG (set by tests/CMakeLists.txt) is 1 when CMake found
# librsvg and built the PNG module, 0 when not; run by hand, pkg-config
# says whether it should have been.  A build that should have PNG support
# and lacks it fails here rather than skipping.
want_png=${TIERS_TEST_PNG:-}
if [[ -z $want_png ]]; then
    want_png=0
    pkg-config --exists librsvg-2.0 cairo 2>/dev/null && want_png=1
fi

# pango keeps fontconfig's font data to the end of the process, which
# LeakSanitizer reports in the sanitizer build: tests/data/lsan.supp lists
# only fontconfig, and only the --png runs get it.
png_tiers() {
    LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}suppressions=$tests/data/lsan.supp:print_suppressions=0" \
        "$tiers" "$@"
}

# svg_size FILE: "WIDTH HEIGHT" of the <svg> element.
svg_size() {
    sed -n 's/^<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1 \2/p' "$1" | head -n 1
}

# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk (bytes 16..23, big-endian).
png_size() {
    [[ $(od -An -c -j12 -N4 "$1" | tr -d ' \n') == IHDR ]] || return 1
    od -An -tu1 -j16 -N8 "$1" |
        awk '{ print ($1 * 16777216 + $2 * 65536 + $3 * 256 + $4),
                     ($5 * 16777216 + $6 * 65536 + $7 * 256 + $8) }'
}

# check_png NAME VARIANT: --png of VARIANT's start is a PNG of the SVG's size.
check_png() {
    local name=$1 variant=$2
    case_begin
    png_tiers render "$variant" --png -o "$tmp/$name.png" 2>"$tmp/err"
    local rc=$?
    if [[ $rc -ne 0 ]]; then
        fail "--png $variant: exit $rc: $(grep -m 1 . "$tmp/err")"
    elif [[ $(head -c 8 "$tmp/$name.png" | od -An -tx1 | tr -d ' \n') != 89504e470d0a1a0a ]]; then
        fail "--png $variant: no PNG signature"
    elif ! "$tiers" render "$variant" -o "$tmp/$name.svg" 2>"$tmp/err"; then
        fail "--png $variant: the SVG render failed"
    else
        local want got
        want=$(svg_size "$tmp/$name.svg")
        got=$(png_size "$tmp/$name.png") || got="no IHDR chunk"
        [[ -n $want && $got == "$want" ]] ||
            fail "--png $variant: PNG is '$got', the SVG '$want'"
    fi
    case_end
}

png_tiers render gufuu --png -o "$tmp/probe.png" >/dev/null 2>"$tmp/err"
if grep -q 'built without PNG support' "$tmp/err"; then
    case_begin
    [[ $want_png == 1 ]] &&
        fail "--png: tiers was built without PNG support, but librsvg-2.0 was found"
    case_end
    expect "png unsupported" 3 - "built without PNG support.*librsvg2-dev" -- \
        render gufuu --png -o "$tmp/x.png"
    case_begin
    [[ -e $tmp/x.png ]] && fail "--png unsupported: left $tmp/x.png"
    case_end
    echo "skip: --png pictures (tiers built without librsvg)"
else
    check_png small gufuu
    check_png big gungi-io
    case_begin
    if [[ -s $tmp/small.png && -s $tmp/big.png &&
          $(png_size "$tmp/small.png") == "$(png_size "$tmp/big.png")" ]]; then
        fail "--png: gufuu and gungi-io pictures have the same size"
    fi
    case_end

    # Only --png loads the PNG module and the libraries behind it.
    case_begin
    LD_DEBUG=libs "$tiers" render gufuu -o "$tmp/plain.svg" 2>"$tmp/libs"
    grep -qE 'tiers-png|librsvg|libcairo|libpango' "$tmp/libs" &&
        fail "render to SVG loaded the PNG libraries"
    LD_DEBUG=libs png_tiers render gufuu --png -o "$tmp/libs.png" 2>"$tmp/libs"
    grep -q 'librsvg' "$tmp/libs" || fail "render --png did not load librsvg"
    case_end

    # The module missing (a copy of the program alone): exit 3, the module
    # named, no file.
    case_begin
    mkdir -p "$tmp/alone/bin" && cp "$tiers" "$tmp/alone/bin/tiers"
    "$tmp/alone/bin/tiers" render "$tests/../variants/gufuu" --png -o "$tmp/alone.png" \
        >/dev/null 2>"$tmp/err"
    rc=$?
    [[ $rc -eq 3 ]] || fail "--png without its module: exit $rc, expected 3"
    grep -q 'PNG output needs the module .*tiers-png.so, which cannot be loaded' "$tmp/err" ||
        fail "--png without its module: $(head -n 1 "$tmp/err")"
    [[ -e $tmp/alone.png ]] && fail "--png without its module: left a file"
    case_end

    # A folder that does not exist: exit 3, the path named, no file.
    case_begin
    png_tiers render gungi-io --png -o "$tmp/no/dir/x.png" >/dev/null 2>"$tmp/err"
    rc=$?
    [[ $rc -eq 3 ]] || fail "--png unwritable: exit $rc, expected 3"
    grep -qF -- "$tmp/no/dir/x.png" "$tmp/err" ||
        fail "--png unwritable: message does not name the file: $(head -n 1 "$tmp/err")"
    [[ -e $tmp/no/dir/x.png ]] && fail "--png unwritable: a file was left"
    case_end

    # A write that fails half-way (a 1 KB file size limit, SIGXFSZ
    # ignored so write() returns EFBIG): exit 3, the path named, and the
    # partial file removed.
    case_begin
    (trap '' XFSZ; ulimit -f 1 &&
        png_tiers render gungi-io --png -o "$tmp/cut.png") >/dev/null 2>"$tmp/err"
    rc=$?
    [[ $rc -eq 3 ]] || fail "--png cut short: exit $rc, expected 3"
    grep -qF -- "error writing '$tmp/cut.png'" "$tmp/err" ||
        fail "--png cut short: message does not name the file: $(head -n 1 "$tmp/err")"
    [[ -e $tmp/cut.png ]] && fail "--png cut short: partial file left"
    case_end
fi

cli_end
