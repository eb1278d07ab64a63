-- Hooks run from inside hooks: pos:in_check in a veto runs the tier hook.
effect{
  name = "nested",
  tier = function(pos, sq, index, tier)
    if pos:var(1) == 1 then error("tier trouble") end
    if pos:var(1) == 2 then pos:in_check(0) end
  end,
  veto = function(pos, move)
    if pos:var(1) ~= 0 then return pos:in_check(0) end
    return false
  end,
}
