-- The Initial Arrangement (blog rules, decision 14): at its end every file
-- must hold one of the side's Pawns.  A second own Pawn in a file is
-- refused by the engine (the Pawn face is one_per_file); this file refuses
-- a placement that leaves a Pawn-less file with no square of the side's
-- territory that could still take a Pawn (below three tiers, not topped by
-- the Commander).  Only the placement's own file can be closed so, and
-- only by filling a tower's third tier or by placing the Commander: the
-- two effects below are asked for just those placements.

local function closes_file(pos, move)
  local me = move.piece.owner
  local file = pos:coords(move.to)
  for i = 0, 2 do
    local sq = pos:square(file, me == 0 and i or pos:ranks() - 1 - i)
    local h = pos:height(sq)
    if h == 0 or (h < 3 and pos:top(sq).face ~= "commander") then
      return false
    end
  end
  for _, at in ipairs(pos:find("pawn", me)) do
    if pos:coords(at.square) == file then
      return false
    end
  end
  return true
end

-- A file closed so holds at least two full towers in the side's
-- territory: the Commander tops at most one of its three squares.  The
-- count tests below ask for that (over the whole file, a filter only).
effect{
  name = "arrangement",
  veto_kinds = {"drop"},
  veto_heights = {3},
  veto_setup = true,
  -- the placement filled a tower, and another of the file is full
  veto_count = {on = "file", heights = {3}, towers = true, min = 2},
  veto = closes_file,
}

effect{
  name = "arrangement-commander",
  veto_faces = {"commander"},
  veto_kinds = {"drop"},
  veto_setup = true,
  -- asked only when two other towers of the file are full (three tiers)
  veto_count = {on = "file", others = true, heights = {3}, towers = true, min = 2},
  veto = closes_file,
}
