-- A fixed expand list behind expand_stuck: a pawn that lands where it can
-- no longer move may go back to its owner's hand ("/h", arg 1).  The empty
-- list of "drop-rook" removes every rook drop.
effect{
  name = "recover",
  expand_faces = {"pawn"},
  expand_stuck = true,
  expand = {{}, {arg = 1}},
  after_faces = {},
  after = function(pos, move)
    pos:to_hand(pos:side(), pos:pop(move.to))
    return true
  end,
  format = function(pos, move)
    if move.effect == "recover" and move.kind ~= "effect" then
      return "/h"
    end
  end,
}

effect{
  name = "drop-rook",
  expand_faces = {"rook"},
  expand_kinds = {"drop"},
  expand = {},
}
