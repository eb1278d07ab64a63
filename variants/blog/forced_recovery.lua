-- Forced Recovery (blog rules): after a Pawn, Spy or Lance moves, stacks
-- or makes a mobile strike and is left unable to move on its next turn --
-- its present table (tier, Gold rule, range expansion) has no square on
-- the board, whatever stands there -- its owner may take it back into
-- hand as part of the same move, written as the suffix "/h".  After a
-- capture it goes to the opponent's hand instead.  The tile keeps the face
-- it shows.  Any Forced Rearrangement placement is made first.
--
-- The engine offers the choice only where the piece is stuck: with
-- expand_reach = {0, 0} it makes the move and counts the squares the
-- piece's table reaches (none), so the choice itself is a fixed list (keep
-- the piece, or take it back: arg 1) and no Lua runs while moves are
-- generated.
effect{
  name = "forced-recovery",
  expand_faces = {"pawn", "spy", "lance"},
  expand_kinds = {"move", "stack", "capture"},
  expand_reach = {0, 0},
  expand = {{}, {arg = 1}},
  after_faces = {}, -- only the variants tagged by this effect
  after = function(pos, move)
    if move.arg ~= 1 then
      return false
    end
    local me = pos:side()
    local piece = pos:pop(move.to)
    pos:to_hand(move.kind == "capture" and 1 - me or me, piece)
    return true
  end,
  format = function(pos, move)
    if move.kind ~= "effect" and move.effect == "forced-recovery" and move.arg == 1 then
      return "/h"
    end
  end,
}
