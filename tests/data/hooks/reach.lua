-- expand_reach = {2, 2}: a pawn that lands where its table reaches exactly
-- two squares (an edge file, below the last rank) gets a second variant,
-- written "/e" (arg 2).
effect{
  name = "edge",
  expand_faces = {"pawn"},
  expand_reach = {2, 2},
  expand = {{}, {arg = 2}},
  after_faces = {}, -- the tagged variant only; a suffix needs an after hook
  after = function(pos, move)
    return false
  end,
  format = function(pos, move)
    if move.effect == "edge" and move.kind ~= "effect" then
      return "/e"
    end
  end,
}
