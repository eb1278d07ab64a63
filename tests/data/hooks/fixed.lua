-- A fixed expand list: a pawn's step also comes as a variant that turns
-- it to gold (arg 1), added by the engine with no Lua call.  A moves hook
-- narrowed by tier: "lift" is offered only while one of the side's pawns
-- stands at tier 2.
effect{
  name = "promo",
  expand_faces = {"pawn"},
  expand_kinds = {"move"},
  expand = {{}, {arg = 1}},
  after_faces = {}, -- tagged moves only
  after = function(pos, move)
    pos:flip(move.to)
    return true
  end,
  format = function(pos, move)
    if move.effect == "promo" and move.kind ~= "effect" then
      return "=G"
    end
  end,
}

effect{
  name = "lift",
  moves_faces = {"pawn"},
  moves_tiers = {2},
  moves = function(pos)
    return {{kind = "effect"}}
  end,
  apply = function(pos, move)
    return false
  end,
  format = function(pos, move)
    if move.kind == "effect" then
      return "lift"
    end
  end,
}
