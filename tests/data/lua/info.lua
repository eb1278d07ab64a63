-- Reports the rules table through the result hook.
local f = load("return 1 + 1")
assert(f() == 2)
effect{
  name = "info",
  result = function(pos)
    if pos:var(1) == 1 then
      return "draw", string.format("%s %d %d %d %s %d %s %s %s", rules.variant,
        rules.files, rules.ranks, rules.max_tiers, rules.style, rules.limit,
        rules.capture, rules.sides[2], tostring(rules.drops))
    elseif pos:var(1) == 2 then
      return "1"
    end
  end,
}
