-- Position edits from an after hook, chosen by variable 1.
effect{
  name = "edits",
  after = function(pos, move)
    local v = pos:var(1)
    if v == 1 then pos:push("f1", "pawn", 0)
    elseif v == 2 then pos:remove("e1", 2)
    elseif v == 3 then pos:push("c3", "pawn", 0)
    elseif v == 4 then pos:push("a1", "dragon", 0)
    elseif v == 5 then pos:flip("b5")
    elseif v == 6 then pos:push("a1", "pawn")
    elseif v == 7 then pos:to_hand(0, "pawn", -5)
    elseif v == 8 then pos:set_var(9, 1)
    elseif v == 9 then
      pos:push("a1", "pawn", 1)
      pos:insert("c3", 1, {kind = "pawn", face = "gold", owner = 0})
      local removed = pos:remove("c3", 2)
      pos:to_hand(1, removed)
      pos:set_owner("c3", 1, 1)
      pos:to_hand(2, "gold", 2)
      pos:set_var(2, -7)
      pos:push("b1", pos:pop("a1"))
      pos:replace("e1", 1, pos:piece("e1", 1))
      return true
    end
    return false
  end,
}
