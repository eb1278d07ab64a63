-- A moves hook with moves_pure: the engine remembers its answers by what
-- it may read -- the towers its fields match (topped by the side to move,
-- holding one of its pawns at tier 1), the side and the variables.  The
-- move's text shows how often the hook really ran.
local calls = 0

effect{
  name = "pure",
  moves_faces = {"pawn"},
  moves_tiers = {1},
  moves_controlled = true,
  moves_pure = true,
  moves = function(pos)
    calls = calls + 1
    local out = {}
    for _, at in ipairs(pos:find("pawn", pos:side())) do
      if at.tier == 1 and pos:top(at.square).owner == pos:side() then
        out[#out + 1] = {kind = "effect", from = at.square, to = at.square}
      end
    end
    return out
  end,
  apply = function(pos, move)
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then
      return "L" .. move.from .. "n" .. calls
    end
  end,
}
