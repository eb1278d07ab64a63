-- A pure moves hook narrowed by two count tests (moves_count and the old
-- moves_faces) that every tower with an own pawn passes: the engine's
-- memo key must still tell such towers apart.  The hook marks each own
-- pawn ("W" and its square).
effect{
  name = "pure-two",
  moves_count = {faces = {"pawn"}, owner = "mover"},
  moves_faces = {"pawn"},
  moves_pure = true,
  moves = function(pos)
    local out = {}
    for _, at in ipairs(pos:find("pawn", pos:side())) do
      out[#out + 1] = {kind = "effect", from = at.square, to = at.square}
    end
    return out
  end,
  apply = function(pos, move)
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then
      return "W" .. move.from
    end
  end,
}
