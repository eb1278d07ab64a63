-- fixed_checker.lua: a piece that gives check belongs to the checking side
-- for the opponent's whole turn.  The side in check may not move, turn or
-- capture with it, and no move may leave it covering both Kings; its King
-- may not take it either (shared_capture.lua offers no such capture).
-- The other shared piece may take it, unless that one gives check too:
-- with two checkers only a King step can answer.  A drop never answers a
-- check (no_drop_check.lua).  Asked only when the mover was in check.
local N, INDEX, covers, before_of = gufuu.N, gufuu.INDEX, gufuu.covers, gufuu.before
local BEFORE = {}   -- scratch: the board before the move

effect{
  name = "fixed-checker",
  veto_kinds = {"move", "capture", "rotate"},
  veto_checked = true,
  veto = function(pos, move)
    -- A turn or a step that takes nothing and moves no King leaves the
    -- Kings where they were and the checking pieces on the board: each of
    -- them still gives check (or is the piece that moved).
    local kind = move.kind
    if kind == "rotate" or (kind == "move" and move.piece.face ~= "king") then
      return true
    end
    local after = gufuu.scan(pos)
    local before = before_of(after, move, BEFORE)
    local from = INDEX[move.from]
    for sq = 1, N do
      if covers(before, sq) then
        if sq == from then return true end
        local now, was = after[sq], before[sq]
        if now and now.face == was.face and now.dir == was.dir and covers(after, sq) then
          return true
        end
      end
    end
    return false
  end,
}
