-- Hostile: edits from hooks that may only read.
effect{
  name = "readonly",
  veto = function(pos, move)
    if pos:var(1) == 1 then pos:flip("e1") end
    return false
  end,
  moves = function(pos)
    if pos:var(1) == 2 then pos:set_var(1, 0) end
  end,
  result = function(pos)
    if pos:var(1) == 3 then pos:push("a1", "pawn", 0) end
  end,
  tier = function(pos, sq, index, tier)
    if pos:var(1) == 4 then pos:pop(sq) end
  end,
}
