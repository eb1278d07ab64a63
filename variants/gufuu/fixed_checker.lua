-- fixed_checker.lua: a piece that gives check belongs to the checking side
-- for the opponent's whole turn.  The side in check may not move, turn or
-- capture with it, and no move may leave it covering both Kings; its King
-- may not take it either (shared_capture.lua offers no such capture).
-- The other shared piece may take it, unless that one gives check too:
-- with two checkers only a King step can answer.  A drop never answers a
-- check (no_drop_check.lua).  Asked only when the mover was in check.
effect{
  name = "fixed-checker",
  veto_kinds = {"move", "capture", "rotate"},
  veto_checked = true,
  veto = function(pos, move)
    -- A turn or a step that takes nothing and moves no King leaves the
    -- Kings where they were and the checking pieces on the board: each of
    -- them still gives check (or is the piece that moved).
    if move.kind == "rotate" or (move.kind == "move" and move.piece.face ~= "king") then
      return true
    end
    local after = gufuu.read(pos)
    local before = gufuu.before(after, move)
    local from = gufuu.index(move.from)
    for _, sq in ipairs(gufuu.checkers(before)) do
      if sq == from then return true end
      local now, was = after[sq], before[sq]
      if now and now.face == was.face and now.dir == was.dir and gufuu.covers(after, sq) then
        return true
      end
    end
    return false
  end,
}
