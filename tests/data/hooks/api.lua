-- pos:reach, pos:find, pos:has_legal_move, pos:in_check_before.  While
-- variable 2 is 0 a pass move "probe" is offered whose text reports what
-- the first two return.
local function list(t, f)
  local out = {}
  for _, x in ipairs(t) do
    out[#out + 1] = f and f(x) or x
  end
  return table.concat(out, ",")
end

effect{
  name = "probe",
  moves = function(pos)
    if pos:var(2) == 0 then
      return {{kind = "effect"}}
    end
  end,
  apply = function(pos, move)
    return false
  end,
  format = function(pos, move)
    if move.kind ~= "effect" then
      return nil
    end
    local rook = pos:find("rook", pos:side())[1]
    return "reach:" .. (rook and list(pos:reach(rook.square)) or "") ..
           ";pawns:" .. list(pos:find("pawn"), function(at)
             return at.square .. "/" .. at.tier .. "/" .. at.owner
           end)
  end,
}

-- variable 2 = 1: refuse White's moves that leave Black without a move;
-- = 2: refuse king moves made out of check; = 3: call has_legal_move in
-- after (an error)
effect{
  name = "rules",
  veto = function(pos, move)
    if pos:var(2) == 1 and pos:side() == 1 then -- White's moves only: a
      return not pos:has_legal_move()             -- veto asked for every move
    end                                           -- would recurse forever
    if pos:var(2) == 2 then
      return move.piece ~= nil and move.piece.face == "king" and pos:in_check_before()
    end
    return false
  end,
  after = function(pos, move)
    if pos:var(2) == 3 then
      pos:has_legal_move()
    end
    return false
  end,
}

-- Move and piece tables are shared and read-only.  Variable 2 = 4: a
-- veto writes to its move's piece (an error); = 5: a veto refuses a move
-- unless pairs() lists the piece's five fields and its empty path is
-- empty; = 6: it writes to the empty path, = 7 to the move (errors); = 8:
-- it calls a pos function on a table; = 9 writes to what pairs(piece)
-- gives, = 10 rawsets a move field (errors); = 11: it refuses a move
-- unless pos:token reads its square alike by index and by name; = 12, 13:
-- bad indexes (errors); = 14: it refuses a move unless pos:occupied()
-- lists the towers as pos:token reads them.
effect{
  name = "read-only",
  veto = function(pos, move)
    local v = pos:var(2)
    if v == 4 then move.piece.owner = 1 end
    if v == 5 then
      local n, top = 0, pos:top(move.to)
      for k, x in pairs(move.piece) do
        n = n + 1
        if top[k] ~= x then return true end   -- the same piece, now on move.to
      end
      return n ~= 5 or #move.path ~= 0 or next(move.path) ~= nil
    end
    if v == 6 then move.path[1] = "a1" end
    if v == 7 then move.kind = "drop" end
    if v == 8 then pos.side({}) end      -- not a position handle
    if v == 9 then                        -- pairs hands out no inner table
      local _, t = pairs(move.piece)
      t.face = "rook"
    end
    if v == 10 then rawset(move, "to", "a1") end
    if v == 11 then                       -- a square by its index
      local at = move.to
      local i = (at:byte(1) - 96) + (tonumber(at:sub(2)) - 1) * pos:files()
      return pos:token(i) ~= pos:token(at) or pos:token(i) == nil or pos:token(1) ~= nil
    end
    if v == 14 then                       -- pos:occupied against pos:token
      local got, n = {pos:occupied()}, 0
      for i = 1, pos:files() * pos:ranks() do
        if pos:token(i) then
          n = n + 1
          if got[2 * n - 1] ~= i or got[2 * n] ~= pos:token(i) then return true end
        end
      end
      return #got ~= 2 * n or n < 2
    end
    if v == 12 then pos:token(0) end
    if v == 13 then pos:token(1.5) end
    return false
  end,
}
