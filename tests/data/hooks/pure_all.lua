-- moves_pure without tower tests: the answer is remembered by every tower,
-- the side and the variables.  The move's text shows how often the hook
-- really ran.
local calls = 0

effect{
  name = "pure-all",
  moves_pure = true,
  moves = function(pos)
    calls = calls + 1
    return {{kind = "effect"}}
  end,
  apply = function(pos, move)
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then
      return "A" .. calls
    end
  end,
}
