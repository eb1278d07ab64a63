-- Hostile: hooks that run hooks.  pos:in_check runs move generation,
-- which runs the tier hook, which calls pos:in_check again, up to 8
-- levels deep; each level calls it v times (variable 1) under pcall, so
-- one hook call makes v^8 nested calls.  The budget kills the innermost
-- call, the pcalls above it go on: v = 4 is quick, v = 12 runs for hours
-- (an open bug: docs/robustness.md).
effect{
  name = "fanout",
  tier = function(pos, sq, index, tier)
    for i = 1, pos:var(1) do pcall(pos.in_check, pos, 1) end
  end,
  veto = function(pos, move)
    for i = 1, pos:var(1) do pcall(pos.in_check, pos, 1) end
    return false
  end,
}
