-- Charge: a king may advance two squares straight ahead onto an empty
-- square.  The move is an ordinary one tagged with the effect, so its
-- notation gets the format hook's suffix and the after hook sees it.
effect{
  name = "charge",
  moves = function(pos)
    local list = {}
    for f = 0, pos:files() - 1 do
      for r = 0, pos:ranks() - 1 do
        local sq = pos:square(f, r)
        local top = pos:top(sq)
        local to_rank = pos:side() == 0 and r + 2 or r - 2
        if top and top.face == "king" and top.owner == pos:side()
            and to_rank >= 0 and to_rank < pos:ranks() then
          local to = pos:square(f, to_rank)
          if pos:height(to) == 0 then
            list[#list + 1] = {kind = "move", from = sq, to = to, effect = "charge"}
          end
        end
      end
    end
    return list
  end,
  after = function(pos, move)
    return move.effect == "charge"
  end,
  format = function(pos, move)
    if move.effect == "charge" then return "+" end
  end,
}
