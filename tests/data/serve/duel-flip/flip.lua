-- flip: a move of its own, written "flip:SQUARE", that turns the mover's
-- top pawn on SQUARE over to its gold face.  The move names no target.
effect{
  name = "flip",
  moves = function(pos)
    local list = {}
    for r = 0, pos:ranks() - 1 do
      for f = 0, pos:files() - 1 do
        local sq = pos:square(f, r)
        local top = pos:top(sq)
        if top and top.owner == pos:side() and top.face == "pawn" then
          list[#list + 1] = {kind = "effect", from = sq}
        end
      end
    end
    return list
  end,
  apply = function(pos, move)
    pos:flip(move.from, pos:height(move.from))
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then
      return "flip:" .. move.from
    end
  end,
}
