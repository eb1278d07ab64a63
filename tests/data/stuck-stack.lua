-- A stack topped by a round that lands where it cannot move may be taken
-- off the board ("/h", arg 1), as blog's Forced Recovery takes a piece back.
effect{
  name = "recover",
  expand_faces = {"round"},
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
