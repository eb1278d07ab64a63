-- Hostile: work the count hook cannot see (a call into C is one
-- instruction to it), and a budget error caught with pcall.  Loaded by
-- tests/unit/test_script.c.
effect{
  name = "budget",
  tier = function(pos, sq, index, tier) return nil end,
  after = function(pos, move)
    local v = pos:var(1)
    if v == 1 then      -- each call a move generation: counted per square
      for i = 1, 400000 do pos:in_check() end
    elseif v == 2 then  -- each call runs the tier hook: counted as a call
      for i = 1, 100000 do pos:reach("e1") end
    elseif v == 3 then  -- the error caught, the hook goes on: it fails anyway
      pcall(function() while true do end end)
    end
    return false
  end,
}
