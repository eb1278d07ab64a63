effect{
  name = "fz",
  moves = function(pos)
    local list = {}
    for f = 0, pos:files() - 1 do
      local sq = pos:square(f, 0)
      list[#list + 1] = {kind = "drop", to = sq, piece = {kind = "pawn"}}
      list[#list + 1] = {kind = "effect", from = sq, to = pos:square(f, 1), path = {"a5"}}
    end
    return list
  end,
  apply = function(pos, move) return true end,
}
