-- effects.lua - one effect of each kind for duel-effects.

-- fires: a pawn ending its move on the far rank turns to its gold face
effect{
  name = "promote",
  after = function(pos, move)
    if move.kind == "drop" or move.to == nil then return false end
    local top = pos:top(move.to)
    if top == nil or top.face ~= "pawn" then return false end
    local _, rank = pos:coords(move.to)
    if rank ~= (top.owner == 0 and pos:ranks() - 1 or 0) then return false end
    pos:flip(move.to, pos:height(move.to))
    return true
  end,
}

-- prevents: no drop on a corner square
effect{
  name = "no-corner-drop",
  veto_kinds = {"drop"},
  veto = function(pos, move)
    local f, r = pos:coords(move.to)
    return (f == 0 or f == pos:files() - 1) and (r == 0 or r == pos:ranks() - 1)
  end,
}

-- ends: a king on the opponent's home rank wins, for a reason of its own
effect{
  name = "crown",
  result = function(pos)
    for f = 0, pos:files() - 1 do
      for side = 0, 1 do
        local top = pos:top(pos:square(f, side == 0 and pos:ranks() - 1 or 0))
        if top and top.face == "king" and top.owner == side then
          return tostring(side), "king crowned"
        end
      end
    end
  end,
}
