-- expand_before: the hook sees the position before the move.  A pawn's
-- move is replaced by one variant per empty square of the rank it leaves,
-- counted before the move: its own square is not among them (after the
-- move it would be).  The variants are made once, with fixed_variant.
local MARK = {}
for _, file in ipairs({"a", "b", "c", "d", "e"}) do
  for rank = 1, 5 do
    MARK[file .. rank] = fixed_variant{path = {file .. rank}}
  end
end
local FILES = {"a", "b", "c", "d", "e"}
assert(MARK.a1.path[1] == "a1" and MARK.a1.arg == nil)
assert(not pcall(function() MARK.a1.arg = 2 end)) -- read-only
effect{
  name = "mark",
  expand_faces = {"pawn"},
  expand_before = true,
  expand = function(pos, move)
    -- before the move: the mover is to move, its pawn still on `from`
    assert(pos:side() == move.piece.owner and pos:top(move.from).face == "pawn")
    local _, rank = pos:coords(move.from)
    local out = {}
    for _, file in ipairs(FILES) do
      local sq = file .. (rank + 1)
      if pos:height(sq) == 0 then
        out[#out + 1] = MARK[sq]
      end
    end
    return out
  end,
  format = function(pos, move)
    if move.effect == "mark" then
      return "/" .. move.path[1]
    end
  end,
}
