effect{
  name = "fz",
  tier = function(pos, sq, index, tier)
    if pos:in_check(pos:side()) then return tier end
    return pos:attacked(sq, 1 - pos:side()) and 2 or nil
  end,
  veto = function(pos, move) return pos:in_check(1 - pos:side()) end,
}
