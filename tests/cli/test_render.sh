#!/usr/bin/env bash
# CLI tests of `tiers render`: the golden pictures of tests/data/svg
# (cases.txt names them), every picture well-formed XML, the start of every
# variant `tiers variants` lists, and the options and their errors.
# Usage: bash test_render.sh TIERS TESTS-DIR
#
# TIERS_REGEN_GOLDEN=1 writes the golden files instead of comparing them
# (scripts/regen-golden does that); nothing else ever rewrites them.
set -u

tiers=${1:?usage: test_render.sh TIERS-BINARY TESTS-DIR}
tests=${2:?usage: test_render.sh TIERS-BINARY TESTS-DIR}
golden="$tests/data/svg"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0
cases=0
case_failed=0

fail() {
    echo "FAIL: $*"
    case_failed=1
}

begin() {
    cases=$((cases + 1))
    case_failed=0
}

end() {
    failures=$((failures + case_failed))
}

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
    begin
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
    end
done <"$golden/cases.txt"

# Every golden file is a case (no stale pictures) and well-formed.
for f in "$golden"/*.svg; do
    [[ -e $f ]] || continue
    begin
    base=$(basename "$f" .svg)
    grep -q "^$base | " "$golden/cases.txt" || fail "$base.svg: no case in cases.txt"
    well_formed "$f" || fail "$base.svg: not well-formed XML"
    end
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
    begin
    if ! "$tiers" render "$variant" >"$tmp/v.svg" 2>"$tmp/err"; then
        fail "start of $variant: render failed"
        sed 's/^/    stderr: /' "$tmp/err" | head -n 3
    elif ! well_formed "$tmp/v.svg"; then
        fail "start of $variant: not well-formed XML"
    fi
    end
done < <("$tiers" variants 2>/dev/null)

# ------------------------------------------------- options and errors
# expect NAME CODE [STDOUT-PATTERN|-] [STDERR-PATTERN|-] -- ARGS...
expect() {
    local name=$1 code=$2 out_re=$3 err_re=$4
    shift 5
    begin
    "$tiers" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local rc=$?
    if [[ $rc -ne $code ]]; then
        fail "$name: exit $rc, expected $code (tiers $*)"
        sed 's/^/    stderr: /' "$tmp/err" | head -n 5
    else
        if [[ $out_re != - ]] && ! grep -Eq -- "$out_re" "$tmp/out"; then
            fail "$name: stdout does not match /$out_re/ (tiers $*)"
        fi
        if [[ $err_re != - ]] && ! grep -Eq -- "$err_re" "$tmp/err"; then
            fail "$name: stderr does not match /$err_re/ (tiers $*)"
            sed 's/^/    stderr: /' "$tmp/err" | head -n 5
        fi
    fi
    end
}

record="$tests/data/games/gounki/walraet-2004-tiers.txt"
expect "help" 0 '^usage: tiers render' - -- render --help
expect "stdout by default" 0 '^<svg ' - -- render gounki
expect "caption" 0 'gounki · ply 0 · white to move' - -- render gounki
expect "last move in caption" 0 'last: a1\^a2' - -- render gounki --move 'a1^a2'
expect "ply 0 has no last move" 0 'ply 0 · white to move<' - -- \
    render gounki --record "$record" --ply 0
expect "ply 1" 0 'last: a1\^a2<' - -- render gounki --record "$record" --ply 1
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
begin
if ! "$tiers" render gounki --record - --ply 24 <"$record" >"$tmp/stdin.svg" 2>"$tmp/err" ||
   ! grep -q 'ply 24' "$tmp/stdin.svg"; then
    fail "record from stdin: $(head -n 1 "$tmp/err")"
fi
end

# -o FILE writes what stdout gets.
begin
"$tiers" render gounki --move 'a1^a2' >"$tmp/a.svg" 2>/dev/null
"$tiers" render gounki --move 'a1^a2' -o "$tmp/b.svg" 2>/dev/null
cmp -s "$tmp/a.svg" "$tmp/b.svg" || fail "-o FILE differs from standard output"
end

# --png when rsvg-convert is installed.
if command -v rsvg-convert >/dev/null 2>&1; then
    begin
    if ! "$tiers" render gungi-io --png -o "$tmp/b.png" 2>"$tmp/err"; then
        fail "--png: $(head -n 1 "$tmp/err")"
    elif [[ $(head -c 8 "$tmp/b.png" | od -An -tx1 | tr -d ' \n') != 89504e470d0a1a0a ]]; then
        fail "--png: not a PNG file"
    fi
    end
else
    echo "skip: --png (rsvg-convert is not installed)"
fi

echo "test_render: $((cases - failures))/$cases passed"
[[ $failures -eq 0 ]] || exit 1
exit 0
