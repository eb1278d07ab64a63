effect{
  name = "fz",
  moves = function(pos)
    if pos:var(1) == 1 then return {{kind = "effect", from = "c3"}} end
  end,
  veto = function(pos, move) return move.kind == "capture" and pos:var(2) == 5 end,
  after = function(pos, move)
    if move.kind == "stack" then pos:flip(move.to, pos:height(move.to) - 1) return true end
  end,
  tier = function(pos, sq, index, tier)
    if sq:sub(1, 1) == "a" then return 2 end
  end,
  drop_ok = function(pos, piece, sq) return pos:height(sq) < 2 end,
  result = function(pos)
    local top = pos:top("c5")
    if top and top.face == "king" then return tostring(top.owner), "hill" end
  end,
  apply = function(pos, move)
    pos:set_var(1, 0)
    pos:to_hand(pos:side(), "pawn", 1)
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then return "fz@" .. move.from end
  end,
}
