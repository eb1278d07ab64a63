-- expand: a pawn's move comes in three variants -- as it is, "=G" (the
-- pawn turns to gold, in the after hook) and "/sq" (a path square, and
-- variable 1 set to 7); a pawn's capture of a rook is removed; other
-- moves are kept (nil).
effect{
  name = "promo",
  expand_faces = {"pawn"},
  expand = function(pos, move)
    if move.taken and move.taken.face == "rook" then
      return {}
    end
    -- the hook sees the position after the move
    assert(pos:top(move.to).face == "pawn" and pos:side() ~= move.piece.owner)
    return {{}, {arg = 1}, {arg = 2, path = {move.to}}}
  end,
  after_faces = {}, -- tagged moves only
  after = function(pos, move)
    assert(move.effect == "promo")
    if move.arg == 1 then
      pos:flip(move.to)
      return true
    end
    pos:set_var(1, 7)
    return true
  end,
  format = function(pos, move)
    if move.effect ~= "promo" then
      return nil
    end
    if move.arg == 1 then
      return "=G"
    end
    local n = 0  -- (a read-only path: # and ipairs see its square)
    for _ in ipairs(move.path) do n = n + 1 end
    assert(#move.path == 1 and n == 1)
    return "/" .. move.path[1]
  end,
}
