# schema_check.jq - checks a JSON document against a JSON Schema, the part
# of draft 2020-12 that docs/compare.schema.json uses: type, const, enum,
# pattern, minimum, maximum, minItems, maxItems, required, properties,
# additionalProperties (false or a schema), items, oneOf and $ref to
# #/$defs.  Run as `jq -n --slurpfile s SCHEMA --slurpfile d DOC -f
# schema_check.jq`; prints one line per violation (PATH: what), none when
# the document conforms.
def typeof:
  if type == "number" then (if . == (. | floor) then "integer" else "number" end)
  else type end;
def is_type($t):
  (typeof) as $x | $x == $t or ($t == "number" and $x == "integer");
def check($root; $s; $p):
  if $s["$ref"] then
    check($root; $root["$defs"][$s["$ref"] | ltrimstr("#/$defs/")]; $p)
  elif $s.oneOf then
    . as $v
    | [$s.oneOf[] as $o | [$v | check($root; $o; $p)]] as $errs
    | ($errs | map(select(length == 0)) | length) as $ok
    | if $ok == 1 then empty
      elif $ok > 1 then "\($p): matches \($ok) of the oneOf schemas, not 1"
      else ($errs | min_by(length))[] end
  else
    . as $v
    | ( if $s.type then
          ([$s.type] | flatten) as $ts
          | if any($ts[]; . as $t | $v | is_type($t)) then empty
            else "\($p): \($v | typeof), expected \($ts | join(" or "))" end
        else empty end ),
      ( if $s | has("const") then (if $v == $s.const then empty else "\($p): not \($s.const)" end) else empty end ),
      ( if $s.enum then (if any($s.enum[]; . == $v) then empty else "\($p): \($v) not in \($s.enum)" end) else empty end ),
      ( if $s.pattern and ($v | type) == "string" then
          (if ($v | test($s.pattern)) then empty else "\($p): '\($v)' does not match \($s.pattern)" end)
        else empty end ),
      ( if ($s | has("minimum")) and ($v | type) == "number" and $v < $s.minimum then "\($p): below \($s.minimum)" else empty end ),
      ( if ($s | has("maximum")) and ($v | type) == "number" and $v > $s.maximum then "\($p): above \($s.maximum)" else empty end ),
      ( if ($v | type) == "array" then
          ( if $s.minItems and ($v | length) < $s.minItems then "\($p): fewer than \($s.minItems) items" else empty end ),
          ( if $s.maxItems and ($v | length) > $s.maxItems then "\($p): more than \($s.maxItems) items" else empty end ),
          ( if $s.items then (range(0; $v | length) as $i | $v[$i] | check($root; $s.items; "\($p)[\($i)]")) else empty end )
        else empty end ),
      ( if ($v | type) == "object" then
          ( ($s.required // [])[] as $k | select(($v | has($k)) | not) | "\($p): no field '\($k)'" ),
          ( $v | keys_unsorted[] as $k
            | if ($s.properties // {}) | has($k) then $v[$k] | check($root; $s.properties[$k]; "\($p).\($k)")
              elif $s.additionalProperties == false then "\($p): field '\($k)' is not in the schema"
              elif ($s.additionalProperties | type) == "object" then $v[$k] | check($root; $s.additionalProperties; "\($p).\($k)")
              else empty end )
        else empty end )
  end;
$d[0] | check($s[0]; $s[0]; "$")
