-- Forced Recovery (blog rules): after a Pawn, Spy or Lance moves, stacks
-- or makes a mobile strike and is left unable to move on its next turn --
-- its present table (tier, Gold rule, range expansion) has no square on
-- the board, whatever stands there -- its owner may take it back into
-- hand as part of the same move, written as the suffix "/h".  After a
-- capture it goes to the opponent's hand instead.  The tile keeps the face
-- it shows.  Any Forced Rearrangement placement is made first.
--
-- The hook is asked only where the piece may be stuck (expand_stuck: some
-- table of its face reaches no square of the board from there -- for
-- these tables, the last rank, or the last two for a Spy).
local recoverable = {pawn = true, spy = true, lance = true}

effect{
  name = "forced-recovery",
  expand_faces = {"pawn", "spy", "lance"},
  expand_kinds = {"move", "stack", "capture"},
  expand_stuck = true,
  expand = function(pos, move)
    if not move.piece or not recoverable[move.piece.face] then
      return nil
    end
    if #pos:reach(move.to) > 0 then
      return nil
    end
    return {{}, {arg = 1}}
  end,
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
