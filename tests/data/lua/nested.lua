-- Hooks run from inside hooks: pos:reach in a veto runs the tier hook.
effect{
  name = "nested",
  tier = function(pos, sq, index, tier)
    if pos:var(1) == 1 then error("tier trouble") end
    if pos:var(1) == 2 then pos:reach(sq) end
  end,
  veto = function(pos, move)
    -- (not pos:in_check: it may skip pieces that cannot reach the royal)
    if pos:var(1) ~= 0 and move.to then pos:reach(move.to) end
    return false
  end,
}
