-- Promotion as a move of its own: a pawn on its third rank or beyond may
-- turn over to gold instead of moving.  Also a pass move ("rest") that
-- counts passes in variable 1 and uses the default notation.
effect{
  name = "promote",
  moves = function(pos)
    local list, me = {}, pos:side()
    for f = 0, pos:files() - 1 do
      for r = 0, pos:ranks() - 1 do
        local sq = pos:square(f, r)
        local top = pos:top(sq)
        local own_rank = me == 0 and r + 1 or pos:ranks() - r
        if top and top.owner == me and top.face == "pawn" and own_rank >= 3 then
          list[#list + 1] = {kind = "effect", from = sq}
        end
      end
    end
    return list
  end,
  apply = function(pos, move)
    pos:flip(move.from)
    return false
  end,
  format = function(pos, move)
    return move.from .. "=G"
  end,
}

effect{
  name = "rest",
  moves = function(pos)
    return {{kind = "effect"}}
  end,
  apply = function(pos, move)
    pos:set_var(1, pos:var(1) + 1)
    return false
  end,
}
