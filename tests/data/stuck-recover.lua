-- The stuck test of tests/data/stuck-*.yaml: a piece left unable to move
-- after its move may leave the board as part of it ("/h", arg 1), as
-- blog's Forced Recovery takes a piece back to hand.  Every face.
effect{
  name = "recover",
  expand_reach = {0, 0},
  expand = {{}, {arg = 1}},
  after_faces = {},
  after = function(pos, move)
    if move.arg ~= 1 then
      return false
    end
    pos:pop(move.to)
    return true
  end,
  format = function(pos, move)
    if move.effect == "recover" and move.kind ~= "effect" and move.arg == 1 then
      return "/h"
    end
  end,
}
