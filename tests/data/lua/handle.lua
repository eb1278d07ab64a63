-- Hostile: keeps the position handle and uses it in a later call.
local kept

effect{
  name = "handle",
  veto = function(pos, move)
    kept = pos
    return false
  end,
  result = function(pos)
    if pos:var(1) == 1 and kept then
      return "draw", tostring(kept:side())
    elseif pos:var(1) == 2 and kept then
      return "draw", tostring(kept)
    end
  end,
}
