-- fixed_checker.lua: a piece that gives check belongs to the checking side
-- for the opponent's whole turn.  The side in check may not move, turn or
-- capture with it, and no move may leave it covering both Kings; its King
-- may not take it either (shared_capture.lua offers no such capture).
-- The other shared piece may take it, unless that one gives check too:
-- with two checkers only a King step can answer.  A drop never answers a
-- check (no_drop_check.lua).  Asked only when the mover was in check.
local N, INDEX, covers, from_api = gufuu.N, gufuu.INDEX, gufuu.covers, gufuu.from_api

effect{
  name = "fixed-checker",
  veto_kinds = {"move", "capture", "rotate"},
  veto_checked = true,
  veto = function(pos, move)
    -- A turn or a step that takes nothing and moves no King leaves the
    -- Kings where they were and the checking pieces on the board: each of
    -- them still gives check (or is the piece that moved).
    local kind, piece = move.kind, move.piece
    local king = piece.face == "king"
    if kind == "rotate" or (kind == "move" and not king) then
      return true
    end
    -- A King's step or capture, or a capture by a shared piece.  The
    -- board before the move is the board after it but on the move's two
    -- squares (and the King's square, when a King moved); a piece that
    -- gave check before may not be the one that moved, and may not stand
    -- as it stood and still cover both Kings.
    local after = gufuu.scan(pos)
    local from, to = INDEX[move.from], INDEX[move.to]
    local a0, a1 = after[N + 1], after[N + 2]
    local b0, b1 = a0, a1                     -- the Kings before the move
    if king then
      if piece.owner == 0 then b0 = from else b1 = from end
    end
    if not b0 or not b1 then return false end -- no King pair, no checker
    if piece.owner == 2 then                  -- did the capturer give check?
      local set = from_api(piece).reach[from]
      if set[b0] and set[b1] then return true end
    end
    local taken = move.taken
    if taken and taken.owner == 2 then        -- a checker taken, or still there?
      local was = from_api(taken)
      local set = was.reach[to]
      if set[b0] and set[b1] then
        local now = after[to]
        if now and now.face == was.face and now.dir == was.dir and covers(after, to) then
          return true
        end
      end
    end
    if not a0 or not a1 then return false end
    for sq = 1, N do                          -- the shared pieces the move left alone
      local p = after[sq]
      if p and p.owner == 2 and sq ~= from and sq ~= to then
        local set = p.reach[sq]
        if set[b0] and set[b1] and set[a0] and set[a1] then return true end
      end
    end
    return false
  end,
}
