-- A moves hook narrowed with moves_beside_royal: asked only when a lone
-- pawn of the side to move stands orthogonally next to one of its kings.
-- The hook itself offers a "mark" move for every own pawn, so the moves
-- show whether the engine asked it at all.
effect{
  name = "beside",
  moves_faces = {"pawn"},
  moves_heights = {1},
  moves_beside_royal = true,
  moves = function(pos)
    local out = {}
    for _, at in ipairs(pos:find("pawn", pos:side())) do
      out[#out + 1] = {kind = "effect", from = at.square, to = at.square}
    end
    return out
  end,
  apply = function(pos, move)
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then
      return "M" .. move.from
    end
  end,
}

-- moves_heights: asked only while some two-high tower holds an own pawn
-- (the engine keeps a count of towers by height through make and
-- unmake).  It marks every own pawn, so the moves show that it was asked.
effect{
  name = "tall",
  moves_faces = {"pawn"},
  moves_heights = {2},
  moves = function(pos)
    local out = {}
    for _, at in ipairs(pos:find("pawn", pos:side())) do
      out[#out + 1] = {kind = "effect", from = at.square, to = at.square}
    end
    return out
  end,
  apply = function(pos, move)
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then
      return "T" .. move.from
    end
  end,
}
